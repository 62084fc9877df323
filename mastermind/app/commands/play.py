"""``assist``, ``play`` and ``solve``: one game at a time, with a person or against a secret."""

# no ``from __future__ import annotations``: typer must see the Annotated options as objects
# (game_command copies this signature as it is)
import sys
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    DRAWN_SEED_HELP,
    STRATEGY_OR_FILE_HELP,
    game_command,
    plural,
    print_json,
    seed_option,
    table_for,
)
from mastermind.core.game import Rules
from mastermind.core.progress import wants_progress

StrategyOpt = Annotated[str, typer.Option("--strategy", "-s", help=STRATEGY_OR_FILE_HELP)]
PoolOpt = Annotated[
    str, typer.Option("--pool", help="Guesses a heuristic considers: all codes or only consistent ones.")
]
StrategySeedOpt = Annotated[Optional[int], seed_option(DRAWN_SEED_HELP, show_default=False)]


def register(app: typer.Typer) -> None:
    game_command(
        app,
        "assist",
        help="The computer breaks your secret code: it suggests each guess, you type the feedback.",
    )(assist)
    game_command(
        app, "play", help="You break the computer's secret code (seeded, so games can be replayed)."
    )(play)
    game_command(
        app, "solve", help="The probes a strategy makes against SECRET: guess, feedback, candidates left."
    )(solve)


def _check_strategy(name: str, pool: str, rules: Rules, rules_given: bool) -> Rules:
    """Checked before any work (``play`` builds its strategy only at the first hint)."""
    from mastermind.app.strategy_files import check_strategy

    return check_strategy(name, rules, rules_given, pool=pool)


def _draws(name: str) -> bool:
    """Whether strategy ``name`` plays by a seed (a file's tree does not)."""
    from mastermind.app.strategy_files import names_a_file
    from mastermind.engines.registry import strategy

    return not names_a_file(name) and strategy(name).draws()


def _finish(code: int) -> None:
    if code:
        raise typer.Exit(code)


def assist(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    rules_given: bool,
    strategy: StrategyOpt = "minimax",
    pool: PoolOpt = "all",
    seed: StrategySeedOpt = None,
) -> None:
    from mastermind.app.interactive.assistant import Assistant
    from mastermind.app.interactive.strategies import load_strategy
    from mastermind.app.interactive.terminal import run_session

    rules = _check_strategy(strategy, pool, rules, rules_given)
    table = table_for(rules, memory_limit)
    chosen = load_strategy(strategy, table, pool=pool, seed=seed, show_progress=wants_progress(json_output))
    session = Assistant(chosen)
    # with --json the conversation goes to standard error, the record alone to standard output
    code = run_session(session, stdout=sys.stderr if json_output else sys.stdout)
    if json_output and code == 0:
        print_json(session.to_dict())
    _finish(code)


def play(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    rules_given: bool,
    seed: Annotated[
        Optional[int],
        seed_option(
            "Seed that picks the secret (default: a fresh one, shown at the end).", show_default=False
        ),
    ] = None,
    strategy: Annotated[str, typer.Option("--strategy", "-s", help="Strategy behind hint.")] = "minimax",
    pool: PoolOpt = "all",
) -> None:
    from mastermind.app.interactive.codemaker import Codemaker, new_seed, pick_secret
    from mastermind.app.interactive.strategies import load_strategy
    from mastermind.app.interactive.terminal import run_session

    rules = _check_strategy(strategy, pool, rules, rules_given)
    seed = new_seed() if seed is None else seed
    # answering needs no N x N table; the strategy behind hint builds one when first asked
    table = table_for(rules, memory_limit, full=False)

    def hint_strategy():
        return load_strategy(
            strategy,
            table_for(rules, memory_limit),
            pool=pool,
            seed=seed,
            show_progress=wants_progress(json_output),
        )

    session = Codemaker(table, pick_secret(rules, seed), seed=seed, hint_strategy=hint_strategy)
    code = run_session(session, stdout=sys.stderr if json_output else sys.stdout)
    if json_output and code == 0:
        print_json(session.to_dict())
    _finish(code)


def solve(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    rules_given: bool,
    secret: Annotated[str, typer.Argument(help="The secret code, e.g. 3632.")],
    strategy: StrategyOpt = "minimax",
    pool: PoolOpt = "all",
    seed: StrategySeedOpt = None,
) -> None:
    from mastermind.app.interactive.codemaker import new_seed
    from mastermind.app.interactive.solve import solve_game
    from mastermind.app.interactive.strategies import load_strategy

    rules = _check_strategy(strategy, pool, rules, rules_given)
    code = rules.parse_code(secret)
    table = table_for(rules, memory_limit)
    drawn = seed is None and _draws(strategy)
    seed = new_seed() if drawn else seed  # drawn here, so that it can be said
    chosen = load_strategy(strategy, table, pool=pool, seed=seed, show_progress=wants_progress(json_output))
    probes = solve_game(chosen, code)
    if json_output:
        print_json([p.to_dict() for p in probes])
        return
    for probe in probes:
        typer.echo(str(probe))
    replay = f" (seed {seed} drawn: --seed {seed} plays this game again)" if drawn else ""
    typer.echo(plural(len(probes), "guess") + replay)
