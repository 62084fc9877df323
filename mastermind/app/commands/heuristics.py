"""``heuristics`` and ``simulate``: one-step strategies played on every secret or sampled.

No ``from __future__ import annotations`` here: typer reads the option annotations at run
time and they must be objects, not strings to resolve in another module.
"""

import time
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    STRATEGIES_HELP,
    STRATEGY_OR_FILE_HELP,
    NoCacheOpt,
    console,
    exit_if_interrupted,
    histogram_text,
    plural,
    print_json,
    seconds_option,
    seed_option,
    table_for,
    whole_range,
)
from mastermind.app.helpstyle import Command
from mastermind.core.game import CodeTable, Rules

MAX_GAMES = 10**8  # a minute per million games: more is a typing error

StrategiesOpt = Annotated[
    Optional[list[str]],
    typer.Option("--strategy", "-s", show_default=False, help=STRATEGIES_HELP),
]
PoolOpt = Annotated[
    str, typer.Option("--pool", help="Guesses considered: all codes or only consistent ones.")
]
TieBreakOpt = Annotated[
    str,
    typer.Option(
        "--tie-break",
        metavar="default|sorted|random",
        help="Among equal scores: default (a candidate, then the lowest "
        "index), sorted (sorted class sizes first) or random.",
    ),
]
SeedOpt = Annotated[int, seed_option("Seed of random strategies and random tie-breaks.")]
SAMPLE_SEED_HELP = "Seed of random strategies, random tie-breaks and sampled secrets."
SampleSeedOpt = Annotated[int, seed_option(SAMPLE_SEED_HELP)]


def register(app: typer.Typer) -> None:
    from mastermind.app.commands.common import game_command

    game_command(
        app, "heuristics", help="Play every secret with one-step heuristics: totals, worst case, histogram."
    )(heuristics)
    app.command("strategies", cls=Command, help="List every strategy and solver with the options it takes.")(
        strategies
    )
    game_command(
        app, "simulate", help="Monte Carlo: play sampled secrets, histogram and a 95% confidence interval."
    )(simulate)


def heuristics(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    strategy: StrategiesOpt = None,
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = 0,
    no_cache: NoCacheOpt = False,
) -> None:
    from mastermind.engines.registry import HEURISTIC_NAMES

    names = list(dict.fromkeys(strategy or HEURISTIC_NAMES))  # each once, in the order given
    cache = None
    if not no_cache:  # the same table asked again is answered from the result cache
        from mastermind.app.resultcache import ResultCache

        options = dict(strategies=names, pool=pool, tie_break=tie_break, seed=seed, memory=memory_limit)
        cache = ResultCache().entry("heuristics", str(rules), options)
        if json_output and (answer := cache.load()) is not None:
            print_json(answer)
            return
    from mastermind.app.interrupts import command_token, unwind_on_interrupt
    from mastermind.core.compiling import HEURISTIC_KERNELS, CompileNotice
    from mastermind.core.progress import progress_bar, wants_progress
    from mastermind.engines.heuristics.scores import wants_full_table
    from mastermind.engines.registry import check_names, strategy_tree

    check_names(names, pool=pool, tie_break=tie_break)
    rows = []
    with CompileNotice(HEURISTIC_KERNELS, "the scoring kernels", quiet=json_output):
        table = table_for(rules, memory_limit, full=wants_full_table(rules))
    stopped = False
    with progress_bar(wants_progress(json_output)) as bar:
        bar.start(len(names), f"playing every secret of {rules}")
        try:
            for name in names:
                with unwind_on_interrupt():  # (a solver's search stopped by Ctrl-C)
                    tree = strategy_tree(
                        name, table, pool=pool, tie_break=tie_break, seed=seed, cancel=command_token()
                    )
                stats = tree.stats(table)
                first = rules.code_text(tree.root.guess)
                rows.append({"strategy": name, "first_guess": first, **stats.to_dict(rules)})
                bar.advance()
        except KeyboardInterrupt:
            if not rows:
                raise  # nothing finished: the command line says "interrupted"
            stopped = True  # Ctrl-C: the strategies finished are the answer so far
    if cache is not None and not stopped:
        cache.store(rows)
    if json_output:
        print_json(rows)
    else:
        _print_rows(rules, table, rows, pool)
    if stopped:
        typer.echo(
            f"interrupted: {len(rows)} of {plural(len(names), 'strategy')} played every secret",
            err=True,
        )
        raise typer.Exit(130)


def _print_rows(rules: Rules, table: CodeTable, rows: list[dict], pool: str) -> None:
    from rich.table import Table

    out = Table(
        title=f"{rules}: {'all ' if table.n > 1 else ''}{plural(table.n, 'secret')} played, pool {pool}",
        caption="histogram: secrets solved with 1, 2, ... guesses",
    )
    for column, justify in (
        ("strategy", "left"),
        ("first", "left"),
        ("total", "right"),
        ("average", "right"),
        ("worst", "right"),
        ("histogram", "left"),
    ):
        out.add_column(column, justify=justify, no_wrap=column != "histogram")
    notes = []
    for row in rows:
        out.add_row(
            row["strategy"],
            row["first_guess"],
            str(row["total"]),
            f"{row['average']:.4f}",
            str(row["worst"]),
            histogram_text(row["histogram"]),
        )
        worst = row["worst_secrets"]
        if len(worst) <= 8:
            notes.append(f"{row['strategy']} needs {plural(row['worst'], 'guess')} for {' '.join(worst)}")
    printer = console()
    printer.print(out)
    for note in notes:
        printer.print(note)


def simulate(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    rules_given: bool,
    strategy: Annotated[
        str,
        typer.Option("--strategy", "-s", help=STRATEGY_OR_FILE_HELP),
    ] = "minimax",
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            callback=whole_range(1, MAX_GAMES),
            help="Number of games (secrets drawn with replacement).",
        ),
    ] = 1000,
    seed: SampleSeedOpt = 0,
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    time_limit: Annotated[
        Optional[float],
        seconds_option(
            "--time-limit",
            help="Stop after this many seconds and report the games played (exit 0).",
            show_default=False,
        ),
    ] = None,
) -> None:
    import numpy as np

    from mastermind.app.interrupts import command_token, unwind_on_interrupt
    from mastermind.app.strategy_files import check_strategy, names_a_file, read_strategy_file
    from mastermind.core.cancel import Stopped
    from mastermind.core.compiling import EXACT_KERNELS, HEURISTIC_KERNELS, CompileNotice
    from mastermind.core.errors import MastermindError
    from mastermind.core.progress import progress_bar, wants_progress
    from mastermind.core.strategy import Strategy, TreeStrategy
    from mastermind.engines.heuristics import monte_carlo
    from mastermind.engines.registry import make_strategy
    from mastermind.engines.registry import strategy as registry_strategy

    rules = check_strategy(strategy, rules, rules_given, pool=pool, tie_break=tie_break)
    from_file = names_a_file(strategy)
    if games < 1:
        raise MastermindError(f"--games must be at least 1, got {games}")
    # too big for the N x N table: answers are computed as needed (slower, same results)
    full = rules.table_bytes() <= memory_limit
    table = table_for(rules, memory_limit, full=full)
    strategy_seed, games_seed = (int(s) for s in np.random.SeedSequence(seed).generate_state(2))
    start = time.monotonic()
    if from_file:  # the tree is followed as it is
        player: Strategy = TreeStrategy(read_strategy_file(strategy, rules), table)
    else:
        solver = registry_strategy(strategy).kind == "solver"
        kernels, what = (
            (EXACT_KERNELS, "the search kernels") if solver else (HEURISTIC_KERNELS, "the scoring kernels")
        )
        try:  # a solver (optimal) solves the whole game first, within the time limit
            with CompileNotice(kernels, what, quiet=json_output), unwind_on_interrupt():
                player = make_strategy(
                    strategy,
                    table,
                    pool=pool,
                    tie_break=tie_break,
                    seed=strategy_seed,
                    time_limit=time_limit,
                    cancel=command_token(),
                )
        except Stopped:  # (the time limit: Ctrl-C unwinds)
            _no_games(rules, strategy, games, seed, json_output)
            return
    if time_limit is not None:  # what building the strategy left of it
        time_limit = max(time_limit - (time.monotonic() - start), 1e-3)
    played: list[int] = []

    def status() -> str:  # what Ctrl-C prints if the game being played does not end in time
        done = list(played)
        mean = f", mean {sum(done) / len(done):.4f} guesses" if done else ""
        return f"{len(done)} of {plural(games, 'game')} played{mean} (seed {seed})"

    with (
        command_token().child(time_limit) as token,
        token.running(status),
        progress_bar(wants_progress(json_output)) as bar,
    ):
        result = monte_carlo(player, games, games_seed, progress=bar, cancel=token, played=played)
    stopped = (token.reason or "interrupted") if result.games < games else None
    data = result.to_dict(rules)
    data["seed"] = seed
    if stopped:
        data.update(stopped=stopped, games_asked=games)
    if json_output:
        print_json(data)
        exit_if_interrupted(stopped)
        return
    if not result.games:
        typer.echo(f"{rules}, {strategy}: stopped ({stopped}) before the first game ended (seed {seed})")
        exit_if_interrupted(stopped)
        return
    count = plural(games, "game")
    if stopped:
        count = f"{result.games} of {count} (stopped: {stopped})"
    lines = [
        f"{rules}, {strategy}: {count} against random secrets (seed {seed})",
        f"mean guesses     {result.mean:.4f}  (95% CI {result.ci_low:.4f} .. {result.ci_high:.4f})",
        f"worst            {result.worst}",
        f"histogram        {histogram_text(result.histogram)}  (games won with 1, 2, ... guesses)",
    ]
    console().print("\n".join(lines), highlight=False)
    exit_if_interrupted(stopped)


def _no_games(rules: Rules, strategy: str, games: int, seed: int, json_output: bool) -> None:
    """The report of a simulation whose time limit passed while its strategy was solved."""
    if json_output:  # the document of a run stopped before its first game, same fields
        from mastermind.engines.heuristics.montecarlo import MonteCarloResult

        none = MonteCarloResult(strategy, 0, seed, []).to_dict(rules)
        print_json(none | {"stopped": "time limit", "games_asked": games})
    else:
        typer.echo(
            f"{rules}, {strategy}: stopped (time limit) while solving the game for the strategy: "
            f"0 of {plural(games, 'game')} played (seed {seed})"
        )


def strategies(
    json_output: Annotated[
        bool, typer.Option("--json", help="Print one JSON document instead of a table.")
    ] = False,
) -> None:
    from mastermind.engines.registry import OPTIONS, REGISTRY

    rows = [
        {
            "name": spec.name,
            "kind": spec.kind,
            "options": [o.replace("_", "-") for o in spec.options],
            "summary": spec.summary,
        }
        for spec in REGISTRY.values()
    ]
    if json_output:
        print_json(rows)
        return
    width = max(len(name) for name in REGISTRY)
    lines = [f"{'strategy':<{width}}  {'kind':<9}  {'options':<24}  summary"]
    for row in rows:
        options = " ".join(f"--{o}" for o in row["options"]) or "-"
        lines.append(f"{row['name']:<{width}}  {row['kind']:<9}  {options:<24}  {row['summary']}")
    every = ", ".join("--" + o.replace("_", "-") for o in OPTIONS)
    lines.append(f"options a strategy does not take are ignored ({every})")
    typer.echo("\n".join(lines))
