"""``compare`` and ``plot``: strategies against the optimum and the best lower bound."""

from collections.abc import Callable
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    HISTOGRAM_WORDS,
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    PoolOpt,
    ProgressOpt,
    SeedOpt,
    StrategiesOpt,
    StrategyRulesOpt,
    TieBreakOpt,
    TimeLimitOpt,
    both_on_stdout,
    command,
    console,
    cores,
    draw_seed,
    exit_if_interrupted,
    fail_after_report,
    floor_decimal,
    fraction,
    game,
    histogram_text,
    memory_limit_bytes,
    naming,
    nothing_written,
    out_option,
    plural,
    print_json,
    say_wrote,
    seed_note,
    stop_words,
    stopped_text,
    strategies_option,
    table_for,
    write_after_work,
    wrote,
)
from mastermind.app.interrupts import interrupted
from mastermind.core.cancel import INTERRUPTED, TIME_LIMIT
from mastermind.core.errors import MastermindError
from mastermind.core.game import Rules
from mastermind.core.pools import POOL_WORDS
from mastermind.core.progress import progress_bar, progress_mode


def register(app: typer.Typer) -> None:
    command(
        app,
        "compare",
        help="Strategies (default: every heuristic) against the optimum and the best lower bound; "
        "--plot draws the histograms.",
    )(compare)
    command(
        app,
        "plot",
        help="Draw strategies: secrets per number of guesses (log scale, counts "
        "shown) and the gap to the optimum and to the lower bound; PNG or SVG.",
    )(plot)


# ---- compare -----------------------------------------------------------------------------
PlotOpt = Annotated[
    Optional[str],  # not Path: Path("") would be the current folder
    typer.Option(
        "--plot",
        metavar="FILE",
        help="Also draw the histograms and the gaps into this .png or .svg file (needs matplotlib).",
        show_default=False,
    ),
]


def compare(
    rules: StrategyRulesOpt = None,
    strategy: StrategiesOpt = None,
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    plot: PlotOpt = None,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    """Past --time-limit: the strategies played, the lower bound and the best strategy found
    (the exact search's or the best strategy played), not proven."""
    from mastermind.app.comparisons import compare as run_compare
    from mastermind.app.strategy_files import game_option

    named_by = game_option(rules is not None, strategy)
    rules = _game_of_strategies(rules, strategy, pool, tie_break)
    limit = memory_limit_bytes(memory_limit)
    if plot is not None:
        from mastermind.app.plots import drawing_time_limit

        _check_plot(plot)
    table_for(rules, limit, option=named_by)  # size check first: one line, before any work
    seed, drawn = draw_seed(seed)
    from mastermind.core.compiling import ALL_KERNELS, CompileNotice

    mode = progress_mode(progress, json_output)
    with (
        CompileNotice(ALL_KERNELS, "the kernels", quiet=json_output, json_lines=mode == "json"),
        progress_bar(mode) as bar,
    ):
        result = run_compare(
            rules,
            strategies=strategy,
            pool=pool,
            tie_break=tie_break,
            seed=seed,
            # (the picture's drawing is counted in the command's time)
            time_limit=time_limit if plot is None else drawing_time_limit(time_limit),
            memory_limit=limit,
            jobs=cores(jobs),
            progress=bar,
        )
    if interrupted():  # (Ctrl-C as the comparison ended: no picture is begun either, as in plot)
        result.stopped = INTERRUPTED
    picture, late = (None, None) if plot is None else _picture_of(result, plot)
    data = {**_comparison_dict(result, pool, tie_break, seed), "plot": picture}
    if json_output:
        print_json(data)
    else:
        _print_comparison(result, data)
        if _draws_any(data) and drawn:
            typer.echo(seed_note(seed, True))
        if picture is not None:
            drawn_names = ", ".join(
                ["optimal"] * (result.optimal is not None) + [r.label for r in result.rows]
            )
            typer.echo(wrote(f"the plot of {drawn_names} for {rules}", picture))
        elif plot is not None and late is None:
            typer.echo(nothing_written(plot, f"{stop_words(result.stopped or '')} before a picture"))
    _say_stopped(result, json_output)
    fail_after_report(late)
    exit_if_interrupted(result.stopped)


def _check_plot(plot: str) -> None:
    """``--plot``: a picture file, refused before any work."""
    from mastermind.app.plots import check_plot_target
    from mastermind.core.fileio import is_stdout

    if is_stdout(plot):
        raise both_on_stdout("--plot", "the table", "a .png or .svg file")
    with naming("--plot"):
        check_plot_target(plot, stdout=False)


def _picture_of(result, plot: str) -> tuple[str | None, MastermindError | None]:
    """``compare --plot``: the picture drawn and written (its file, None if none), and the
    error of a write that failed only now. Stopped by its time limit: the picture of the
    strategies finished, as the table shows them; once Ctrl-C came no picture is begun, as
    in plot: drawing takes about a second, and Ctrl-C stops within one: the table says what
    was proven."""
    late: MastermindError | None = None
    if not (result.rows or result.optimal) or result.stopped == INTERRUPTED:
        return None, None
    from mastermind.app.plots import plot_comparison

    def draw() -> None:
        nonlocal late
        late = write_after_work(  # (a full disk: known now)
            "--plot", lambda: plot_comparison(result, plot, before_write=_unless_interrupted)
        )

    if _drawn(result, draw) and late is None:  # (else Ctrl-C while drawing: the table is the answer)
        return str(plot), None
    return None, late


def _unless_interrupted() -> None:
    """Before a picture drawn is written: a Ctrl-C that came while it was drawn writes none."""
    if interrupted():
        raise KeyboardInterrupt


def _drawn(result, draw: Callable[[], None]) -> bool:
    """Draw the picture of what ``result`` holds; False, and ``result`` marked interrupted,
    when Ctrl-C comes while drawing."""
    try:
        draw()
    except KeyboardInterrupt:
        result.stopped = INTERRUPTED
        return False
    return True


def _say_stopped(result, json_output: bool) -> None:
    """A comparison stopped (time limit, Ctrl-C): one line on standard error saying what it
    did not do, for compare and plot alike (none with --json: its "stopped" says it, and
    the other commands print nothing beside their JSON)."""
    if result.stopped and not json_output:
        typer.echo(
            f"{stopped_text(result.stopped)}: "
            + ("" if result.optimal else "the optimum not proven; ")
            + f"{plural(len(result.rows), 'strategy')} played every secret"
            + (f"; not played: {', '.join(result.unfinished)}" if result.unfinished else ""),
            err=True,
        )


def _game_of_strategies(rules: Rules | None, names, pool: str, tie_break: str) -> Rules:
    """The game: --rules, else the one a strategy file names; every name and file checked."""
    from mastermind.app.strategy_files import check_strategy, check_tie_break_taken

    given, chosen = rules is not None, game(rules)
    for name in names or []:
        chosen = check_strategy(name, chosen, given, pool=pool, tie_break=tie_break)
        given = True
    if names:  # (none given: the heuristics and the optimum, some of which take it)
        check_tie_break_taken(names, tie_break)
    return chosen


def _draws_any(data: dict) -> bool:
    from mastermind.app.players import draws

    return any(draws(row["strategy"], data["tie_break"]) for row in data["strategies"])


def _comparison_dict(result, pool: str, tie_break: str, seed: int) -> dict:
    d = result.to_dict()
    data = {
        "rules": d["rules"],
        "codes": d["codes"],
        "pool": pool,
        "tie_break": tie_break,
        "seed": seed,
        **{k: v for k, v in d.items() if k not in ("rules", "codes")},
    }
    if not _draws_any(data):  # (null: nothing drawn, as export and heuristics say)
        data["seed"] = None
    return data


BEST_FOUND = "best found (not proven)"  # the optimum not proven: the best strategy known


# ---- plot --------------------------------------------------------------------------------
PictureOpt = Annotated[
    str, out_option("Picture to write: .png or .svg (- writes SVG to standard output).", show_default=False)
]
DrawnOpt = Annotated[Optional[list[str]], strategies_option("Default: optimal and every heuristic.")]


def plot(
    out: PictureOpt,
    rules: StrategyRulesOpt = None,
    strategy: DrawnOpt = None,
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    """Past --time-limit the optimum's place shows the best strategy found (not proven) and
    the gaps are to the lower bound."""
    from mastermind.app.comparisons import compare as run_compare
    from mastermind.app.plots import check_plot_target, drawing_time_limit
    from mastermind.app.strategy_files import game_option
    from mastermind.core.fileio import is_stdout
    from mastermind.engines.registry import HEURISTIC_NAMES

    names = list(dict.fromkeys(strategy)) if strategy else ["optimal", *HEURISTIC_NAMES]
    named_by = game_option(rules is not None, names)
    rules = _game_of_strategies(rules, names, pool, tie_break)
    limit = memory_limit_bytes(memory_limit)
    # standard output holds the picture alone ("-", /dev/stdout): every word goes to stderr
    to_stdout = is_stdout(out)
    if json_output and to_stdout:
        raise both_on_stdout("--out", "--json")
    with naming("--out"):
        check_plot_target(out)
    table_for(rules, limit, option=named_by)
    seed, drawn = draw_seed(seed)
    # the optimum comes from the comparison's own exact run (under --time-limit), not twice
    others = [n for n in names if n != "optimal"]
    mode = progress_mode(progress, json_output or to_stdout)
    with progress_bar(mode) as bar:
        result = run_compare(
            rules,
            strategies=others,
            pool=pool,
            tie_break=tie_break,
            seed=seed,
            time_limit=drawing_time_limit(time_limit),  # (the drawing's time counted in)
            memory_limit=limit,
            jobs=cores(jobs),
            progress=bar,
        )
    if interrupted():  # (Ctrl-C as the comparison ended: no picture is begun either)
        result.stopped = INTERRUPTED
    series = _series(names, result)
    data = {**_comparison_dict(result, pool, tie_break, seed), "out": None, "drawn": []}
    opt = None if result.optimal is None else result.optimal["total"]
    # once Ctrl-C came, no picture is begun: drawing takes about a second, past the one Ctrl-C
    # is given, and a picture written or not depended on when it came (one while drawing
    # wrote none); the numbers of what was played are the answer. A time limit still draws
    # the strategies finished.
    late, why = _plot_or_why(rules, series, opt, result, out)
    data["stopped"] = result.stopped
    say = _plot_words(to_stdout, json_output)
    if why is not None or late is not None:  # nothing written: what was played is the answer
        if json_output:
            print_json(data)
        elif why is not None:
            say(nothing_written(out, f"{why} ({_plot_proven(data)})"))
        if drawn and _draws_any(data):
            say(seed_note(seed, True))
        _say_stopped(result, json_output)
        fail_after_report(late)
        exit_if_interrupted(result.stopped)
        return
    data.update(out=out, drawn=[s.name for s in series])
    if json_output:
        print_json(data)
    else:  # (to standard output too, there on standard error: as optimal and export say it)
        _say_plotted(result, series, "optimal" in names and opt is None, out, mode)
    if drawn and _draws_any(data):  # (on stderr where standard output holds the picture)
        say(seed_note(seed, True))
    _say_stopped(result, json_output)
    exit_if_interrupted(result.stopped)


def _series(names: list[str], result) -> list:
    """The histograms to draw, in the order of ``names``: the strategies that played every
    secret, and the optimum (or, not proven, the best strategy found in its place)."""
    from mastermind.app.plots import Series

    rows = {row.name: row for row in result.rows}
    series = []
    for name in names:
        if name != "optimal":
            if name in rows:
                series.append(Series(name, list(rows[name].histogram)))
        elif result.optimal is not None:
            series.append(Series(name, list(result.optimal["histogram"])))
        elif result.best_found is not None:
            series.append(Series(BEST_FOUND, list(result.best_found["histogram"])))
    return series


def _plot_or_why(
    rules: Rules, series: list, opt: int | None, result, out: str
) -> tuple[MastermindError | None, str | None]:
    """The picture drawn and written where there is one to draw and no Ctrl-C came: the
    error of a write that failed only now, and why nothing was written (None: written)."""
    if not series:
        return None, f"{stop_words(result.stopped or TIME_LIMIT)} before any strategy was played"
    if result.stopped == INTERRUPTED:
        return None, "interrupted before drawing"
    outcome = _draw_plot(rules, series, opt, result, out)
    if isinstance(outcome, str):  # (Ctrl-C while drawing)
        result.stopped = INTERRUPTED
        return None, outcome
    return outcome, None


def _draw_plot(rules: Rules, series: list, opt: int | None, result, out: str) -> str | MastermindError | None:
    """Draw and write the picture: None once written; the error of a write that failed only
    now (a full disk); or, Ctrl-C while drawing, why nothing was written (the picture is put
    in place only if no Ctrl-C came before its writing began)."""
    from mastermind.app.plots import guesses_figure, write_figure

    low = None if result.bounds is None else result.bounds.total
    try:
        fig = guesses_figure(f"{rules}: {plural(rules.n_codes, 'secret')}", series, opt, low)
        return write_after_work("--out", lambda: write_figure(fig, out, before_write=_unless_interrupted))
    except KeyboardInterrupt:
        return "interrupted while drawing"


def _say_plotted(result, series: list, unproven: bool, out: str, mode: str) -> None:
    """The picture written (``unproven``: the optimum asked for and not proven)."""
    missing = ""
    if unproven:
        missing = " (optimum not proven: " + (
            "the best strategy found drawn in its place)" if result.best_found else "left out)"
        )
    what = f"the plot of {', '.join(s.name for s in series)} for {result.rules}"
    say_wrote(what, out, missing, json_lines=mode == "json")


def _plot_words(to_stdout: bool, json_output: bool) -> Callable[[str], None]:
    """Where plot's words go: standard error when standard output holds the picture, as
    export says its seed when it writes the tree there."""

    def say(line: str) -> None:
        if not json_output:
            typer.echo(line, err=to_stdout)

    return say


def _plot_proven(data: dict) -> str:
    """What a plot that wrote nothing still proved: the lower bound, and the totals of the
    strategies that played every secret."""
    low = data["total_lower_bound"]
    said = "nothing proven" if low is None else f"total >= {low} proven"
    played = [f"{row['strategy']} {row['total']}" for row in data["strategies"]]
    if played:
        said += "; totals: " + ", ".join(played)
    return said


def _print_comparison(result, data: dict) -> None:
    from rich.table import Table

    n = result.rules.n_codes
    opt = result.optimal
    title = f"{result.rules}: {plural(n, 'secret')}, strategies against the optimum"
    if data["pool"] == "consistent":  # (the optimum too: of strategies keeping to the pool)
        title += f", pool consistent ({POOL_WORDS['consistent']})"
    t = Table(
        title=title,
        caption=f"histogram: {HISTOGRAM_WORDS}; worst of 'optimal total': the worst case of the tree "
        "with the least total, which may exceed the least possible worst case",
    )
    for name, justify in [
        ("strategy", "left"),
        ("total", "right"),
        ("average", "right"),
        ("worst", "right"),
        ("gap", "right"),
        ("gap %", "right"),
        ("histogram", "left"),
    ]:
        t.add_column(name, justify=justify)

    def strategy_row(name: str, total: int, worst: int, histogram: list[int], gap: str, pct: str) -> None:
        t.add_row(name, str(total), f"{total / n:.4f}", str(worst), gap, pct, histogram_text(histogram))

    if opt is not None:
        strategy_row("optimal total", opt["total"], opt["worst"], opt["histogram"], "0", "0.00")
    else:
        t.add_row("optimal total", "not proven", "", "", "", "", "")
        found = result.best_found
        if found is not None:
            by = found.get("found_by", "")
            strategy_row(
                f"{BEST_FOUND}{': ' + by if by else ''}",
                found["total"],
                found["worst"],
                found["histogram"],
                "",
                "",
            )
    if result.bounds is None:
        t.add_row("lower bound", "not computed", "", "", "", "", "")
    else:
        b = result.bounds
        t.add_row(
            "lower bound",
            f">= {b.total}",
            f">= {floor_decimal(fraction(b.total, n))}",
            f">= {b.worst}",
            "",
            "",
            "",
        )
    t.add_section()
    for row in result.rows:
        gap = "" if row.gap is None else str(row.gap)
        pct = "" if row.gap_percent is None else f"{row.gap_percent:.2f}"
        strategy_row(row.label, row.total, row.worst, row.histogram, gap, pct)
    console().print(t)
    if opt is None and result.bounds is not None and result.rows:
        why = "was interrupted" if result.stopped == INTERRUPTED else "was not proven within --time-limit"
        typer.echo(
            f"the exact optimum {why}; gaps are to the lower bound: "
            + ", ".join(f"{r.label} {r.gap_to_bound}" for r in result.rows)
        )


# ---- bounds ------------------------------------------------------------------------------
