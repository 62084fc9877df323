"""``assist``, ``play`` and ``solve``: one game at a time, with a person or against a secret."""

import sys
from typing import Annotated

import typer

from mastermind.app.commands.common import (
    JsonOpt,
    MemoryOpt,
    PoolOpt,
    ProgressOpt,
    SeedOpt,
    SessionStrategyOpt,
    StrategyOpt,
    StrategyRulesOpt,
    TieBreakOpt,
    TimeLimitOpt,
    command,
    draw_seed,
    exit_if_interrupted,
    game,
    limit_note,
    memory_limit_bytes,
    naming,
    plural,
    print_json,
    seed_note,
    table_for,
)
from mastermind.app.interactive.terminal import Session
from mastermind.app.strategy_files import game_option, played_options
from mastermind.core.cancel import StopReason
from mastermind.core.errors import MastermindError
from mastermind.core.game import Rules
from mastermind.core.progress import progress_mode


def register(app: typer.Typer) -> None:
    command(
        app,
        "assist",
        help="The computer breaks your secret code: it suggests each guess, you type the feedback.",
    )(assist)
    command(app, "play", help="You break the computer's secret code (seeded, so games can be replayed).")(
        play
    )
    command(
        app, "solve", help="The probes a strategy makes against SECRET: guess, feedback, candidates left."
    )(solve)


def _check_strategy(
    name: str, pool: str, tie_break: str, rules: Rules | None, *, session: bool = False
) -> Rules:
    """Checked before any work (``play`` builds its strategy only at the first hint): the
    game, the one given or a strategy file's own. A ``session`` reads its moves from
    standard input, so its strategy cannot come from there."""
    from mastermind.app.strategy_files import check_strategy

    if session and name == "-":
        raise MastermindError(
            "--strategy -: standard input holds this session's moves; give the strategy as a file"
        )
    return check_strategy(name, game(rules), rules is not None, pool=pool, tie_break=tie_break, alone=True)


def _stopped(code: int, session: Session) -> str | None:
    """The session's exit code as the report's ``stopped``: 130 is Ctrl-C; a game whose
    input ended, or whose player typed quit, before it was over stopped there (both said
    null, as a finished game does)."""
    return "interrupted" if code == 130 else session.ended_by


def _finish(code: int) -> None:
    if code:
        raise typer.Exit(code)


def assist(
    rules: StrategyRulesOpt = None,
    strategy: SessionStrategyOpt = "minimax",
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.app.interactive.assistant import Assistant
    from mastermind.app.interactive.strategies import load_strategy
    from mastermind.app.interactive.terminal import run_session
    from mastermind.app.players import draws

    named_by = game_option(rules is not None, strategy)
    rules = _check_strategy(strategy, pool, tie_break, rules, session=True)
    seed, drawn = draw_seed(seed)
    chance = draws(strategy, tie_break)
    table = table_for(rules, memory_limit_bytes(memory_limit), option=named_by)
    chosen = load_strategy(
        strategy,
        table,
        pool=pool,
        tie_break=tie_break,
        seed=seed,
        progress=progress_mode(progress, json_output),
    )
    # a seed drawn for a strategy that draws is said at the start, so that the session can be replayed
    session = Assistant(chosen, seed_note=seed_note(seed, drawn) if chance and drawn else None)
    # with --json the conversation goes to standard error, the record alone to standard output
    code = run_session(session, stdout=sys.stderr if json_output else sys.stdout)
    if json_output and code in (0, 130):
        used_seed = seed if chance else None  # (null: nothing drawn, as solve says)
        options = played_options(strategy, pool, tie_break)
        print_json({**session.to_dict(), **options, "seed": used_seed, "stopped": _stopped(code, session)})
    _finish(code)


def play(
    rules: StrategyRulesOpt = None,
    strategy: SessionStrategyOpt = "minimax",
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    """-s: the strategy behind ``hint``; --seed picks the secret (and seeds the hints)."""
    from mastermind.app.interactive.codemaker import Codemaker, pick_secret, seed_streams
    from mastermind.app.interactive.strategies import load_strategy
    from mastermind.app.interactive.terminal import run_session

    named_by = game_option(rules is not None, strategy)
    rules = _check_strategy(strategy, pool, tie_break, rules, session=True)
    seed, _ = draw_seed(seed)
    limit = memory_limit_bytes(memory_limit)
    # answering needs no N x N table; the strategy behind hint builds one when first asked
    table = table_for(rules, limit, full=False, option=named_by)

    def hint_strategy():
        return load_strategy(
            strategy,
            table_for(rules, limit, option=named_by),
            pool=pool,
            tie_break=tie_break,
            seed=seed_streams(seed)[1],  # not the secret's stream: a random hint is no give-away
            progress=progress_mode(progress, json_output),
        )

    session = Codemaker(table, pick_secret(rules, seed), seed=seed, hint_strategy=hint_strategy)
    code = run_session(session, stdout=sys.stderr if json_output else sys.stdout)
    if json_output and code in (0, 130):
        # (the strategy behind hint: its pool and tie-break, as assist gives them)
        options = played_options(strategy, pool, tie_break)
        print_json({**session.to_dict(), "strategy": strategy, **options, "stopped": _stopped(code, session)})
    _finish(code)


def solve(
    secret: Annotated[str, typer.Argument(help="The secret code, e.g. 3632.")],
    rules: StrategyRulesOpt = None,
    strategy: StrategyOpt = "minimax",
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    time_limit: TimeLimitOpt = None,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.app.commands.common import command_work
    from mastermind.app.interactive.solve import solve_game
    from mastermind.app.interactive.strategies import load_strategy
    from mastermind.app.players import Cancellable, draws
    from mastermind.core.cancel import Stopped

    named_by = game_option(rules is not None, strategy)
    rules = _check_strategy(strategy, pool, tie_break, rules)
    with naming("SECRET"):
        code = rules.parse_code(secret)
    table = table_for(rules, memory_limit_bytes(memory_limit), option=named_by)
    seed, drawn = draw_seed(seed)
    probes: list = []
    stopped = None
    with command_work(time_limit) as token:
        try:
            chosen = load_strategy(
                strategy,
                table,
                pool=pool,
                tie_break=tie_break,
                seed=seed,
                progress=progress_mode(progress, json_output),
                cancel=token,
            )
            with token.running():  # Ctrl-C stops the game at its next guess: the probes made are the answer
                solve_game(Cancellable(chosen, token), code, probes)
        except Stopped:
            stopped = token.reason or StopReason.INTERRUPTED
        except KeyboardInterrupt:
            stopped = StopReason.INTERRUPTED
    chance = draws(strategy, tie_break)
    if json_output:
        print_json(
            {
                "rules": str(rules),
                "secret": rules.code_text(code),
                "strategy": strategy,
                **played_options(strategy, pool, tie_break),
                "seed": seed if draws(strategy, tie_break) else None,  # (null: nothing drawn)
                # (the record of a game: turns, as play and assist give it)
                "turns": [{"turn": k, **p.to_dict()} for k, p in enumerate(probes, 1)],
                "guesses": len(probes),
                "solved": stopped is None,
                "stopped": stopped,
            }
        )
        exit_if_interrupted(stopped)
        return
    for probe in probes:
        typer.echo(str(probe))
    replay = f" ({seed_note(seed, drawn)})" if chance and drawn else ""
    if stopped:
        typer.echo(
            f"stopped ({stopped}) after {plural(len(probes), 'guess')}{limit_note(stopped)}, "
            f"not solved{replay}"
        )
    else:
        typer.echo(plural(len(probes), "guess") + replay)
    exit_if_interrupted(stopped)
