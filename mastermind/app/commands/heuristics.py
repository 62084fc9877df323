"""``heuristics``, ``strategies`` and ``simulate``: strategies played on every secret or sampled."""

import time
from typing import Annotated, Any, Literal

import typer

from mastermind.app.commands.common import (
    HISTOGRAM_CAPTION,
    HISTOGRAM_WORDS,
    JsonOpt,
    LeanMemoryOpt,
    NoCacheOpt,
    PoolOpt,
    ProgressOpt,
    SeedOpt,
    StrategiesOpt,
    StrategyOpt,
    StrategyRulesOpt,
    TieBreakOpt,
    TimeLimitOpt,
    check_reach,
    command,
    command_work,
    console,
    draw_seed,
    exit_if_interrupted,
    game,
    heuristic_work,
    histogram_text,
    memory_limit_bytes,
    plural,
    print_json,
    seed_note,
    stopped_text,
    table_for,
    whole_range,
)
from mastermind.core.cancel import StopReason
from mastermind.core.fileio import input_name

MAX_SECRETS = 10**8  # a minute per million games: more is a typing error


def register(app: typer.Typer) -> None:
    command(app, "heuristics", help="Play every secret with each strategy: totals, worst case, histogram.")(
        heuristics
    )
    command(app, "strategies", help="List every strategy and solver with the options it takes.")(strategies)
    command(
        app, "simulate", help="Monte Carlo: play sampled secrets, histogram and a 95% confidence interval."
    )(simulate)


# ---- heuristics ---------------------------------------------------------------------------
def _cache_entry(rules, names: list[str], pool: str, tie_break: str, seed: int | None):
    """The result cache's entry of this table: the same table asked again is answered from it."""
    from mastermind.app.resultcache import ResultCache
    from mastermind.engines.registry import REGISTRY

    chance = any(REGISTRY[name].draws(tie_break) for name in names)
    # a drawn seed is any seed: the answer kept, with the seed it was computed with, serves
    options = dict(strategies=names, pool=pool, tie_break=tie_break, seed=seed if chance else None)
    return ResultCache().entry("heuristics", str(rules), options)


def heuristics(
    rules: StrategyRulesOpt = None,
    strategy: StrategiesOpt = None,
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    time_limit: TimeLimitOpt = None,
    progress: ProgressOpt = "auto",
    no_cache: NoCacheOpt = False,
    json_output: JsonOpt = False,
    memory_limit: LeanMemoryOpt = None,
) -> None:
    rules_given = rules is not None
    rules = game(rules)
    from mastermind.engines.registry import HEURISTIC_NAMES, REGISTRY

    names = list(dict.fromkeys(strategy or HEURISTIC_NAMES))  # each once, in the order given
    if tie_break != "default":  # (before the result cache: refused, not answered; and only
        # then its module, which loads numpy: a cached answer loads neither numpy nor numba)
        from mastermind.app.strategy_files import check_tie_break_taken

        check_tie_break_taken(names, tie_break)
    limit = memory_limit_bytes(memory_limit)
    # (before the result cache, as optimal does; a heuristic keys every code as a guess)
    work = heuristic_work(any(name in REGISTRY for name in names))
    check_reach(rules, limit, full=False, work=work)
    cache = None
    if not no_cache and all(name in REGISTRY for name in names):  # (a file may change: not kept)
        cache = _cache_entry(rules, names, pool, tie_break, seed)
        if (answer := cache.load()) is not None:
            from mastermind.core.progress import progress_mode, say_answered

            say_answered(progress_mode(progress, json_output), "heuristics: from the result cache")
            chance = any(REGISTRY[name].draws(tie_break) for name in names)
            _report(answer, json_output, seed_drawn=chance and seed is None)
            return
    from mastermind.app.players import draws
    from mastermind.app.strategy_files import check_strategy, game_option
    from mastermind.core.compiling import HEURISTIC_KERNELS, CompileNotice
    from mastermind.core.progress import progress_mode
    from mastermind.engines.heuristics import wants_full_table

    named_by = game_option(rules_given, names)
    for name in names:  # every file for the game, before any work
        rules = check_strategy(name, rules, rules_given, pool=pool, tie_break=tie_break)
        rules_given = True
    seed, drawn = draw_seed(seed)
    start = time.perf_counter()
    mode = progress_mode(progress, json_output)
    with CompileNotice(
        HEURISTIC_KERNELS, "the scoring kernels", quiet=json_output, json_lines=mode == "json"
    ):
        full = wants_full_table(rules) and rules.table_bytes() <= limit
        table = table_for(
            rules, limit, full=full, option=named_by, without=True, time_limit=time_limit, work=work
        )
    rows: list[dict] = []
    stopped = _play_all(
        table, names, {"pool": pool, "tie_break": tie_break, "seed": seed}, time_limit, mode, rows
    )
    data = {
        "rules": str(rules),
        "codes": rules.n_codes,
        "pool": pool,
        "tie_break": tie_break,
        "seed": seed if any(draws(n, tie_break) for n in names) else None,  # (null: nothing drawn)
        "strategies": rows,
        "unfinished": names[len(rows) :],
        "stopped": stopped,
        "seconds": round(time.perf_counter() - start, 3),
        "cached": False,
    }
    if cache is not None and stopped is None:
        cache.store(data)
    chance = drawn and any(draws(n, tie_break) for n in names)
    _report(data, json_output, seed_drawn=chance)
    exit_if_interrupted(stopped)


def _play_all(table, names: list[str], options: dict, time_limit, mode: str, rows: list[dict]):
    """Every secret played by each strategy in turn, a row each added to ``rows``; why it
    stopped (None: every strategy finished)."""
    from mastermind.app.players import tree_of
    from mastermind.core.cancel import Stopped
    from mastermind.core.progress import progress_bar

    rules = table.rules
    with progress_bar(mode) as bar, command_work(time_limit) as token:
        try:  # (from the start line on, Ctrl-C gets the report: before running() it unwinds here)
            bar.start(len(names), f"playing every secret of {rules}")
            with token.running():  # a strategy stops at its next guess: the ones finished are the answer
                for name in names:
                    tree = tree_of(name, table, **options, cancel=token)
                    stats = tree.stats(table)
                    first = rules.code_text(tree.root.guess)
                    rows.append({"strategy": name, "first_guess": first, **stats.to_dict(rules)})
                    bar.advance()
        except (Stopped, KeyboardInterrupt):  # (before the first strategy too: the same report)
            return token.reason or StopReason.INTERRUPTED
    return None


def _report(data: dict, json_output: bool, seed_drawn: bool) -> None:
    """The table (or its JSON) from its document: the same for an answer from the cache."""
    if json_output:
        print_json(data)
    else:
        _print_table(data, seed_drawn)
    if data["stopped"] and not json_output:  # (with --json, its "stopped" says it)
        rows = data["strategies"]
        typer.echo(
            f"{stopped_text(data['stopped'])}: {len(rows)} of "
            f"{plural(len(rows) + len(data['unfinished']), 'strategy')} played every secret; "
            f"not played: {', '.join(data['unfinished'])}",
            err=True,
        )


def _print_table(data: dict, seed_drawn: bool) -> None:
    from rich.table import Table

    rules, codes, rows = data["rules"], data["codes"], data["strategies"]
    played = f"{'all ' if codes > 1 else ''}{plural(codes, 'secret')} played"
    if data["stopped"]:  # (the rows are the strategies that finished, if any)
        asked = len(rows) + len(data["unfinished"])
        played = f"stopped ({data['stopped']}) after {len(rows)} of {asked} strategies"
    out = Table(title=f"{rules}: {played}, pool {data['pool']}", caption=HISTOGRAM_CAPTION)
    for column in ("strategy", "first guess", "total", "average", "worst", "histogram"):
        justify: Literal["left", "right"] = "right" if column in ("total", "average", "worst") else "left"
        out.add_column(column, justify=justify, no_wrap=column != "histogram")
    notes = []
    for row in rows:
        out.add_row(
            input_name(row["strategy"]),
            row["first_guess"],
            str(row["total"]),
            f"{row['average']:.4f}",
            str(row["worst"]),
            histogram_text(row["histogram"]),
        )
        worst = row["worst_secrets"]
        if len(worst) <= 8:
            name, needs = input_name(row["strategy"]), plural(row["worst"], "guess")
            notes.append(f"{name} needs {needs} for {' '.join(worst)}")
    printer = console()
    printer.print(out)
    for note in notes:
        printer.print(note)
    if seed_drawn:
        printer.print(seed_note(data["seed"], True))


# ---- strategies ---------------------------------------------------------------------------
def strategies(json_output: JsonOpt = False) -> None:
    from mastermind.engines.registry import REGISTRY

    rows = [
        {
            "strategy": spec.name,
            "kind": spec.kind,
            "options": list(spec.options),  # (named as the JSON of every command names them)
            "summary": spec.summary,
        }
        for spec in REGISTRY.values()
    ]
    if json_output:
        print_json({"strategies": rows})
        return
    width = max(len(name) for name in REGISTRY)
    listed = [" ".join("--" + o.replace("_", "-") for o in row["options"]) or "-" for row in rows]
    wide = max(len("options"), *(len(o) for o in listed))  # (the column as wide as its longest)
    lines = [f"{'strategy':<{width}}  {'kind':<9}  {'options':<{wide}}  summary"]
    for row, options in zip(rows, listed):
        lines.append(f"{row['strategy']:<{width}}  {row['kind']:<9}  {options:<{wide}}  {row['summary']}")
    lines.append(
        "a --tie-break that a strategy does not take is refused when it plays alone; among "
        "several, each takes the options that apply to it (simple and random play only codes "
        "still possible, whatever --pool says; a --seed is reported where one is drawn); "
        "-s also takes a strategy file"
    )
    typer.echo("\n".join(lines))


# ---- simulate -----------------------------------------------------------------------------
class _Tally:
    """The games finished so far, for the status line of Ctrl-C (a count, not a list)."""

    def __init__(self) -> None:
        self.games = self.guesses = 0

    def append(self, guesses: int) -> None:
        self.games += 1
        self.guesses += guesses


SecretsOpt = Annotated[
    int,
    typer.Option(
        "--secrets",
        "-n",
        metavar="N",
        callback=whole_range(1, MAX_SECRETS),
        help="How many secrets to draw and play (drawn with replacement).",
    ),
]


def simulate(
    rules: StrategyRulesOpt = None,
    strategy: StrategyOpt = "minimax",
    secrets: SecretsOpt = 1000,
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    time_limit: TimeLimitOpt = None,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: LeanMemoryOpt = None,
) -> None:
    import numpy as np

    from mastermind.app.strategy_files import check_strategy, game_option, names_a_file, played_options
    from mastermind.core.progress import progress_mode

    named_by = game_option(rules is not None, strategy)
    rules = check_strategy(
        strategy, game(rules), rules is not None, pool=pool, tie_break=tie_break, alone=True
    )
    limit = memory_limit_bytes(memory_limit)
    # too big for the N x N table: answers are computed as needed (slower, same results)
    full = rules.table_bytes() <= limit
    work = heuristic_work(not names_a_file(strategy))
    table = table_for(
        rules, limit, full=full, option=named_by, without=True, time_limit=time_limit, work=work
    )
    seed, drawn = draw_seed(seed)
    strategy_seed, secrets_seed = (int(s) for s in np.random.SeedSequence(seed).generate_state(2))
    start = time.perf_counter()
    data: dict[str, Any] = {
        "rules": str(rules),
        "codes": rules.n_codes,
        "strategy": strategy,
        **played_options(strategy, pool, tie_break),
        "seed": seed,
        "secrets": 0,
        "secrets_asked": secrets,
        "total": 0,
        "average": None,
        "std": None,
        "ci95": None,
        "worst": None,
        "histogram": [],
        "stopped": None,
        "seconds": 0.0,
    }
    mode = progress_mode(progress, json_output)
    seeds = (seed, strategy_seed, secrets_seed)
    options = {"pool": pool, "tie_break": tie_break}
    result, stopped, while_solving = _play(
        table, strategy, secrets, options, seeds, time_limit, mode, json_output
    )
    if result is not None and result.games:
        data.update(_games_fields(result))
    data.update(stopped=stopped, seconds=round(time.perf_counter() - start, 3))
    if json_output:
        print_json(data)
    else:
        _print_simulation(data, strategy, secrets, seed_note(seed, drawn), while_solving)
    exit_if_interrupted(stopped)


def _play(
    table, strategy: str, secrets: int, options: dict, seeds: tuple, time_limit, mode: str, quiet: bool
):
    """The games (a solver, optimal, solves the whole game first, within the time limit): the
    Monte Carlo result (None if the player was not made), why it stopped, and whether that
    was while the game was solved for the strategy."""
    from mastermind.app.interrupts import unwind_on_interrupt
    from mastermind.app.players import make_player
    from mastermind.core.cancel import Stopped
    from mastermind.core.compiling import EXACT_KERNELS, HEURISTIC_KERNELS, CompileNotice
    from mastermind.core.progress import progress_bar
    from mastermind.engines.heuristics import monte_carlo
    from mastermind.engines.registry import NAMES
    from mastermind.engines.registry import strategy as registry_strategy

    seed, strategy_seed, secrets_seed = seeds
    solver = strategy in NAMES and registry_strategy(strategy).kind == "solver"
    kernels, what = (
        (EXACT_KERNELS, "the search kernels") if solver else (HEURISTIC_KERNELS, "the scoring kernels")
    )
    tally = _Tally()
    with command_work(time_limit) as token:
        if token.cancelled:  # (the table's build stopped, by Ctrl-C or the time limit: no game played)
            return None, token.reason, solver
        try:
            with CompileNotice(kernels, what, quiet=quiet, json_lines=mode == "json"), unwind_on_interrupt():
                player = make_player(strategy, table, **options, seed=strategy_seed, cancel=token)
        except Stopped:  # (the time limit: Ctrl-C unwinds; one during the table's build returned above)
            return None, StopReason.TIME_LIMIT, True

        def status() -> str:  # what Ctrl-C prints if the game being played does not end in time
            mean = f", average {tally.guesses / tally.games:.4f} guesses" if tally.games else ""
            return f"{tally.games} of {plural(secrets, 'secret')} played{mean} (seed {seed})"

        with token.running(status), progress_bar(mode) as bar:
            # (the games stop between games: the games played are the answer)
            result = monte_carlo(player, secrets, secrets_seed, progress=bar, cancel=token, played=tally)
        return result, ((token.reason or StopReason.INTERRUPTED) if result.games < secrets else None), False


def _games_fields(result) -> dict[str, Any]:
    """The games' numbers, as ``simulate --json`` gives them."""
    fields: dict[str, Any] = {
        "secrets": result.games,
        "total": result.total,
        "average": round(result.mean, 6),
        "worst": result.worst,
        "histogram": list(result.histogram),
    }
    if result.games > 1:  # one game has no spread: no std
        fields["std"] = round(result.std, 6)
    if (ci := result.ci95) is not None:  # (none without spread: not one of width 0)
        fields["ci95"] = [round(ci[0], 6), round(ci[1], 6)]
    return fields


def _print_simulation(data: dict, strategy: str, secrets: int, chance: str, while_solving: bool) -> None:
    rules, stopped = data["rules"], data["stopped"]
    if not data["secrets"]:
        when = "while solving the game for the strategy" if while_solving else "before the first game ended"
        typer.echo(
            f"{rules}, {input_name(strategy)}: {stopped_text(stopped)} {when}: "
            f"0 of {plural(secrets, 'secret')} played ({chance})"
        )
        return
    count = plural(secrets, "secret")
    if stopped:
        count = f"{data['secrets']} of {count} ({stopped_text(stopped)})"
    if data["ci95"] is not None:
        interval = f"95% interval {data['ci95'][0]:.4f} .. {data['ci95'][1]:.4f}"
    elif data["secrets"] == 1:
        interval = "no interval from one game"
    else:  # (a width of 0 would claim a certainty that the games do not give)
        interval = f"no interval: every game took {plural(data['worst'], 'guess')}"
    lines = [
        f"{rules}, {input_name(strategy)}: {count} drawn at random and played ({chance})",
        f"average          {data['average']:.4f} guesses  ({interval})",
        f"worst            {data['worst']}",
        f"histogram        {histogram_text(data['histogram'])}  ({HISTOGRAM_WORDS})",
    ]
    console().print("\n".join(lines))
