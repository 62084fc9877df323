"""``table``, ``compare``, ``plot``, ``bounds``, ``cpsat`` and ``static``: bounds, models and reports."""

import time
from collections.abc import Callable
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    DEFAULT_ROW_SECONDS,
    FOREVER,
    HISTOGRAM_WORDS,
    Deadline,
    GamesOpt,
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    PoolOpt,
    ProgressOpt,
    RowTimeLimitOpt,
    RulesOpt,
    SeedOpt,
    StrategiesOpt,
    StrategyRulesOpt,
    TieBreakOpt,
    TimeLimitOpt,
    command,
    console,
    cores,
    draw_seed,
    echo_blocks,
    exit_if_interrupted,
    fail,
    fail_after_report,
    floor_decimal,
    floor_float,
    game,
    histogram_text,
    memory_limit_bytes,
    naming,
    nothing_written,
    out_option,
    parse_games,
    plural,
    print_json,
    say_wrote,
    seed_note,
    stop_words,
    stopped_text,
    strategies_option,
    table_for,
    whole_range,
    write_after_work,
    wrote,
)
from mastermind.app.interrupts import command_token, interrupted
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules, format_bytes
from mastermind.core.pools import POOL_WORDS
from mastermind.core.progress import progress_bar, progress_mode
from mastermind.core.variant import BLACK_PEG
from mastermind.engines.result import CPSAT

DEFAULT_TABLE_GAMES = "p2-4c2-6"


def register(app: typer.Typer) -> None:
    command(
        app,
        "table",
        help="Knuth's algorithm for many games against lower bounds and the optimum "
        "(markdown; --json for rows).",
    )(table)
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
    command(app, "bounds", help="Proven lower bounds on the worst case and the total guesses.")(bounds)
    command(
        app,
        "cpsat",
        help="CP-SAT strategy-tree model (tiny games): optimal total within "
        "--max-guesses guesses, or whether that depth is possible (exit 1: it is not).",
    )(cpsat)
    command(
        app,
        "static",
        help="Static Mastermind (CP-SAT): fewest guesses fixed in advance that "
        "identify the secret (final guess not counted).",
    )(static)


# ---- table -------------------------------------------------------------------------------
TABLE_HEADERS = [
    "pegs",
    "colours",
    "repetition",
    "codes",
    "answers",
    "Knuth first guess",
    "largest class",
    "Knuth worst",
    "Knuth total",
    "crude bound",
    "worst lower bound",
    "optimal worst",
    "optimal total",
    "optimal average",
]


def table(
    games: GamesOpt = None,
    time_limit: TimeLimitOpt = None,
    row_time_limit: RowTimeLimitOpt = DEFAULT_ROW_SECONDS,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.app.comparisons import knuth_table_row
    from mastermind.engines.models.timed import TimedWorker

    deadline = Deadline.of_command(time_limit)
    start = time.perf_counter()
    limit = memory_limit_bytes(memory_limit)
    chosen = [Rules.parse(g) for g in parse_games(games or [DEFAULT_TABLE_GAMES])]
    from mastermind.app.publishing.tables import check_fits_all

    check_fits_all(chosen, limit)  # refuse sizes beyond memory before any work: tables, searches
    rows = []
    stopped = None
    with progress_bar(progress_mode(progress, json_output)) as bar, TimedWorker() as worker:
        bar.start(len(chosen), "table")
        try:
            for rules in chosen:
                if deadline.passed():
                    stopped = "time limit"
                    break
                row_seconds = min(row_time_limit, deadline.left() or row_time_limit)
                rows.append(
                    knuth_table_row(
                        rules, worker, time_limit=row_seconds, memory_limit=limit, jobs=cores(jobs)
                    )
                )
                bar.advance(1)
        except KeyboardInterrupt:  # Ctrl-C: the rows finished so far are the answer
            worker.close(kill=True)
            stopped = "interrupted"
    if stopped is None and deadline.passed() and rows and not rows[-1].proven:
        stopped = "time limit"  # the last row was cut by the command's time limit
    unfinished = [str(r) for r in chosen[len(rows) :]]
    data = {
        "games": [str(r) for r in chosen],
        "row_time_limit": row_time_limit,
        "rows": [r.to_dict() for r in rows],
        "unfinished": unfinished,
        "proven": not unfinished and all(r.proven for r in rows),
        "stopped": stopped,
        "seconds": round(time.perf_counter() - start, 3),
    }
    if json_output:
        print_json(data)
        exit_if_interrupted(stopped)
        return
    open_cells = [r["rules"] for r in data["rows"] if not r["proven"]]
    echo_blocks(
        markdown_table(data["rows"]) if rows else None,
        "not proven within the row's time (bounds shown as >=): " + ", ".join(open_cells)
        if open_cells
        else None,
        f"{stopped_text(stopped)}, not computed: " + (", ".join(unfinished) or "none") if stopped else None,
    )
    exit_if_interrupted(stopped)


def markdown_table(rows: list[dict]) -> str:
    """The rows as a markdown table; unproven optimum cells show the lower bound as ``>= b``;
    a column of variants where some game is not the standard one."""
    variants = [Rules.parse(d["rules"]).variant.name for d in rows]
    shown = any(v != "standard" for v in variants)
    headers = TABLE_HEADERS[:3] + ["variant"] * shown + TABLE_HEADERS[3:]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---:" for _ in headers) + "|"]
    for d, variant in zip(rows, variants):
        worst = str(d["optimal_worst"]) if d["optimal_worst"] is not None else f">= {d['worst_lower_bound']}"
        if d["optimal_total"] is not None:
            total, avg = str(d["optimal_total"]), f"{d['optimal_average']:.4f}"
        else:
            total = f">= {d['total_lower_bound']}"
            avg = f">= {floor_decimal(_fraction(d['total_lower_bound'], d['codes']))}"
        cells = [
            d["pegs"],
            d["colours"],
            "yes" if d["repetition"] else "no",
            *[variant] * shown,
            d["codes"],
            d["answers"],
            d["knuth_first_guess"],
            d["knuth_largest_class"],
            d["knuth_worst"],
            d["knuth_total"],
            d["crude_worst_lower_bound"],
            d["worst_lower_bound"],
            worst,
            total,
            avg,
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def _fraction(a: int, b: int):
    from fractions import Fraction

    return Fraction(a, b)


# ---- compare -----------------------------------------------------------------------------
def compare(
    rules: StrategyRulesOpt = None,
    strategy: StrategiesOpt = None,
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    plot: Annotated[
        Optional[str],  # not Path: Path("") would be the current folder
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Also draw the histograms and the gaps into this .png or .svg file (needs matplotlib).",
            show_default=False,
        ),
    ] = None,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    """Past --time-limit: the strategies played, the lower bound and the best strategy found
    (the exact search's or the best strategy played), not proven."""
    from mastermind.app.comparisons import compare as run_compare

    rules = _game_of_strategies(rules, strategy, pool, tie_break)
    limit = memory_limit_bytes(memory_limit)
    if plot is not None:
        from mastermind.app.plots import check_plot_target, drawing_time_limit
        from mastermind.core.fileio import is_stdout

        if is_stdout(plot):
            raise MastermindError("--plot - would mix the picture with the table: give a .png or .svg file")
        with naming("--plot"):
            check_plot_target(plot, stdout=False)
    table_for(rules, limit)  # size check first: one line, before any work
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
        result.stopped = "interrupted"
    picture = None
    late: MastermindError | None = None
    # (stopped by its time limit: the picture of the strategies finished, as the table shows
    # them; once Ctrl-C came no picture is begun, as in plot: drawing takes about a second, and
    # Ctrl-C stops within one: the table says what was proven)
    if plot is not None and (result.rows or result.optimal) and result.stopped != "interrupted":
        from mastermind.app.plots import plot_comparison

        def draw() -> None:
            nonlocal late
            late = write_after_work(  # (a full disk: known now)
                "--plot", lambda: plot_comparison(result, plot, before_write=_unless_interrupted)
            )

        if _drawn(result, draw) and late is None:  # (else Ctrl-C while drawing: the table is the answer)
            picture = str(plot)
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
        result.stopped = "interrupted"
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
    from mastermind.app.strategy_files import check_strategy

    given, chosen = rules is not None, game(rules)
    for name in names or []:
        chosen = check_strategy(name, chosen, given, pool=pool, tie_break=tie_break)
        given = True
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
def plot(
    out: Annotated[
        str,
        out_option("Picture to write: .png or .svg (- writes SVG to standard output).", show_default=False),
    ],
    rules: StrategyRulesOpt = None,
    strategy: Annotated[
        Optional[list[str]], strategies_option("Default: optimal and every heuristic.")
    ] = None,
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
    from mastermind.app.plots import Series, check_plot_target, drawing_time_limit
    from mastermind.core.fileio import is_stdout
    from mastermind.engines.registry import HEURISTIC_NAMES

    names = list(dict.fromkeys(strategy)) if strategy else ["optimal", *HEURISTIC_NAMES]
    rules = _game_of_strategies(rules, names, pool, tie_break)
    limit = memory_limit_bytes(memory_limit)
    # standard output holds the picture alone ("-", /dev/stdout): every word goes to stderr
    to_stdout = is_stdout(out)
    if json_output and to_stdout:
        raise MastermindError("--json prints a summary of the picture written: give --out FILE")
    with naming("--out"):
        check_plot_target(out)
    table_for(rules, limit)
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
        result.stopped = "interrupted"
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
    data = {**_comparison_dict(result, pool, tie_break, seed), "out": None, "drawn": []}
    opt = None if result.optimal is None else result.optimal["total"]
    late: MastermindError | None = None
    # once Ctrl-C came, no picture is begun: drawing takes about a second, past the one Ctrl-C
    # is given, and a picture written or not depended on when it came (one while drawing
    # wrote none); the numbers of what was played are the answer. A time limit still draws
    # the strategies finished.
    if not series:
        why: str | None = f"{stop_words(result.stopped or 'time limit')} before any strategy was played"
    elif result.stopped == "interrupted":
        why = "interrupted before drawing"
    else:
        outcome = _draw_plot(rules, series, opt, result, out)
        if isinstance(outcome, str):  # (Ctrl-C while drawing)
            why = outcome
            result.stopped = data["stopped"] = "interrupted"
        else:
            late, why = outcome, None
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
        missing = ""
        if "optimal" in names and opt is None:
            missing = " (optimum not proven: " + (
                "the best strategy found drawn in its place)" if result.best_found else "left out)"
            )
        what = f"the plot of {', '.join(s.name for s in series)} for {rules}"
        say_wrote(what, out, missing, json_lines=mode == "json")
    if drawn and _draws_any(data):  # (on stderr where standard output holds the picture)
        say(seed_note(seed, True))
    _say_stopped(result, json_output)
    exit_if_interrupted(result.stopped)


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
            f">= {floor_decimal(_fraction(b.total, n))}",
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
        why = "was interrupted" if result.stopped == "interrupted" else "was not proven within --time-limit"
        typer.echo(
            f"the exact optimum {why}; gaps are to the lower bound: "
            + ", ".join(f"{r.label} {r.gap_to_bound}" for r in result.rows)
        )


# ---- bounds ------------------------------------------------------------------------------
BOUND_NAMES = {  # the bounds as people read them (the JSON keeps the short names)
    "crude": "crude",
    "counting": "counting",
    "perfect_tree": "perfect tree",
}


def _bound_name(key: str) -> str:
    if key in BOUND_NAMES:
        return BOUND_NAMES[key]
    kind, _, k = key.rpartition("_")
    return f"{k}-level {'refined lookahead' if kind == 'refined' else 'lookahead'}"


def bounds(
    rules: RulesOpt = None,
    levels: Annotated[
        int,
        typer.Option(
            "--levels",
            metavar="N",
            callback=whole_range(0, 4),
            help="Lookahead levels, 0 to 4 (2 is quick up to p4c6; 3 takes minutes there).",
        ),
    ] = 2,
    refined: Annotated[
        bool,
        typer.Option(
            "--refined",
            help="Bound the bottom classes with their own branching: stronger, slower (about 1 s on p4c6).",
        ),
    ] = False,
    time_limit: TimeLimitOpt = None,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.core.cancel import Stopped
    from mastermind.engines.models.bounds import (
        counting_worst_bound,
        crude_worst_bound,
        knuth_first_guess,
        lookahead_total_bound,
        lookahead_totals_by_first_guess,
        lookahead_worst_bound,
        perfect_tree_total,
    )

    if refined and levels == 0:  # (the bottom class is then the game, at its own branching)
        raise MastermindError("--refined bounds the classes below the lookahead: give --levels 1 or more")
    rules = game(rules)
    deadline = Deadline.of_command(time_limit)
    start = time.perf_counter()
    table = table_for(rules, memory_limit_bytes(memory_limit))
    first, mu = knuth_first_guess(table)
    worst = {"crude": crude_worst_bound(rules, mu), "counting": counting_worst_bound(rules, table.n)}
    total = {"perfect_tree": perfect_tree_total(rules, table.n)}
    # the total bound by first guess of the deepest level finished
    found: dict = {}
    found_from: list[str] = []  # the key in total of the bound it refines
    stopped = None

    def level(key: str, k: int, refine: bool) -> None:
        """One level's bounds (worst case, total, the total by first guess), kept only once
        all three are in: a stop reports the levels finished and no part of the next (it
        said "4 (1-level lookahead)" with "0 of 2 lookahead levels finished")."""
        level_worst = lookahead_worst_bound(table, k, refined=refine, cancel=token)
        bar.advance()
        level_total = lookahead_total_bound(table, k, refined=refine, cancel=token)
        values = lookahead_totals_by_first_guess(table, k, refined=refine, cancel=token) if k else None
        worst[key], total[key] = level_worst, level_total
        if values is not None:
            found.clear()
            found.update(values)
            found_from[:] = [key]
        bar.advance()

    def status() -> str:
        return f"bounds so far: worst case >= {max(worst.values())}, total >= {max(total.values())}"

    steps = 2 * levels + (2 if refined else 0)
    with (
        deadline.token() as token,
        token.running(status),
        progress_bar(progress_mode(progress, json_output)) as bar,
    ):
        bar.start(steps, f"bounds of {rules}")
        try:
            for k in range(1, levels + 1):
                level(f"lookahead_{k}", k, False)
            if refined:
                level(f"refined_{levels}", levels, True)
        except Stopped:
            stopped = token.reason or "interrupted"
    best_total = max(total.values())
    data = {
        "rules": str(rules),
        "codes": table.n,
        "answers": len(rules.answers),
        "knuth_first_guess": rules.code_text(first),
        "knuth_largest_class": mu,
        "levels": levels,
        "refined": refined,
        # the bounds asked for all finished (each number is a proven bound either way)
        "proven": stopped is None,
        "worst_lower_bound": max(worst.values()),
        "total_lower_bound": best_total,
        "average_lower_bound": floor_float(_fraction(best_total, table.n)),
        "worst_lower_bounds": worst,
        "total_lower_bounds": total,
        # (one entry per first guess, as optimal --by-first-guess and the results rows give them)
        "by_first_guess": [
            {"first_guess": rules.code_text(g), "total_lower_bound": v} for g, v in found.items()
        ],
        "by_first_guess_bound": found_from[0] if found_from else None,  # a key of total_lower_bounds
        "stopped": stopped,
        "seconds": round(time.perf_counter() - start, 3),
    }
    if json_output:
        print_json(data)
        exit_if_interrupted(stopped)
        return
    out = console()
    out.print(
        f"{rules}: {plural(table.n, 'code')}, {plural(len(rules.answers), 'answer')}; Knuth's first guess "
        f"{data['knuth_first_guess']} leaves at most {mu}"
    )
    out.print(
        "worst case >= "
        + ", ".join(f"{v} ({_bound_name(k)})" for k, v in worst.items())
        + f"; best: {data['worst_lower_bound']}"
    )
    out.print(
        "total >= "
        + ", ".join(f"{v} ({_bound_name(k)})" for k, v in total.items())
        + f"; best: {best_total} (average >= {floor_decimal(_fraction(best_total, table.n))})"
    )
    by_first = data["by_first_guess"]
    if by_first:
        out.print(
            f"total >= by first guess ({_bound_name(found_from[0])}): "
            + ", ".join(f"{e['first_guess']} {e['total_lower_bound']}" for e in by_first)
        )
    if stopped:
        out.print(_stopped_levels(stopped, total, levels, refined))
    exit_if_interrupted(stopped)


def _stopped_levels(stopped: str, total: dict, levels: int, refined: bool) -> str:
    """What a stopped ``bounds`` says of its levels (a level counts once its worst-case,
    total and by-first-guess bounds are all in: the only ones shown)."""
    finished = sum(1 for k in total if k.startswith("lookahead_"))
    if finished < levels:
        missing = "deeper ones were not computed"
    else:  # (only the refined bound was left)
        missing = "the refined bound was not computed"
    return (
        f"{stopped_text(stopped)} with {finished} of {plural(levels, 'lookahead level')} finished: "
        f"the bounds above are proven, {missing}"
    )


# ---- cpsat -------------------------------------------------------------------------------
def cpsat(
    rules: RulesOpt = None,
    depth: Annotated[
        Optional[int],
        typer.Option(
            "--max-guesses",
            "--depth",  # (its first name; --max-guesses as in optimal: one idea, one name)
            metavar="N",
            callback=whole_range(1),
            help="Most guesses allowed for any secret (default: the worst-case lower bound of "
            "one level of lookahead, plus one unless --feasible or that model is out of reach).",
            show_default=False,
        ),
    ] = None,
    feasible: Annotated[
        bool,
        typer.Option(
            "--feasible",
            help="Only ask whether a strategy of this depth exists (exit 1: none; a worst-case bound).",
        ),
    ] = False,
    seed: SeedOpt = None,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.engines.models.bounds import lookahead_total_bound, lookahead_worst_bound
    from mastermind.engines.models.cpsat_tree import solve_tree
    from mastermind.engines.models.result import stopped_result

    rules = game(rules)
    deadline = Deadline.of_command(time_limit)
    table = table_for(rules, memory_limit_bytes(memory_limit))
    worst_bound = lookahead_worst_bound(table, 1)
    lowered = None  # the default depth, where its model was out of reach and a smaller one used
    if depth is None:
        depth, lowered = _default_depth(table, worst_bound, feasible)
    else:
        _check_depth(table, depth, worst_bound)  # before any bound or model is computed
    seed, drawn = draw_seed(seed)
    start = time.perf_counter()
    lower = None
    objective = "feasible" if feasible else "total"
    try:
        with progress_bar(progress_mode(progress, json_output)) as bar:
            bar.start(None, f"CP-SAT strategy tree of {rules} within {plural(depth, 'guess')}")
            lower = None if feasible else lookahead_total_bound(table, 2 if table.n <= 256 else 1)
            result = solve_tree(
                table,
                depth,
                objective=objective,
                time_limit=deadline.left() or FOREVER,
                workers=cores(jobs),
                lower_bound=lower,
                seed=seed,
                cancel=command_token(),
            )
    except KeyboardInterrupt:  # before CP-SAT ran: the lookahead bound is all there is
        result = stopped_result(table, objective, lower, start)
    n = table.n
    infeasible = result.details.infeasible
    exists = True if result.tree is not None else (False if infeasible else None)
    found = None
    if result.tree is not None and result.stats is not None:
        found = {
            "total": result.stats.total,
            "secrets": n,
            "average": round(result.stats.total / n, 6),
            "worst": result.stats.worst,
            "histogram": list(result.stats.histogram),
            "first_guess": rules.code_text(result.tree.root.guess),
        }
    optimal = objective == "total" and result.proven and found is not None
    worst_low = max(worst_bound, depth + 1) if infeasible else worst_bound
    # a feasible answer whose bounds meet proves the optimal worst case: the answer's own
    worst_known = objective == "feasible" and found is not None and found["worst"] == worst_low
    data = {
        "rules": str(rules),
        "codes": n,
        "objective": objective,
        "max_guesses": depth,
        "solver_status": result.details.status,
        "proven": result.proven,
        "exists": exists,
        "total": found["total"] if optimal else None,
        "average": found["average"] if optimal else None,
        "worst": found["worst"] if optimal or worst_known else None,
        "histogram": found["histogram"] if optimal else [],
        "secrets": n if optimal else None,  # (as optimal gives it: beside the total it is over)
        "first_guess": found["first_guess"] if optimal else None,
        "total_lower_bound": None if objective == "feasible" else result.lower_bound,
        # (a strategy found bounds the total within the guesses, its total not optimised or not)
        "total_upper_bound": None if found is None else found["total"],
        "worst_lower_bound": worst_low,
        "worst_upper_bound": None if found is None else found["worst"],
        "best_found": None if optimal or found is None else {**found, "found_by": CPSAT},
        "seed": seed,
        "stopped": result.stopped,
        "seconds": round(result.seconds, 3),
    }
    if json_output:
        print_json(data)
    else:
        _print_cpsat(rules, data, result)
        if lowered is not None:  # the answer is within fewer guesses than the help promised
            from mastermind.engines.models.cpsat_tree import model_size

            need = format_bytes(model_size(table, lowered).bytes)
            typer.echo(
                f"--max-guesses {depth}, not the default {lowered}: "
                f"the model of {lowered} is out of reach ({need} of memory)"
            )
        if drawn:
            typer.echo(seed_note(seed, True))
    exit_if_interrupted(result.stopped)
    if exists is False:  # an answer, not bad input: no strategy within --max-guesses
        raise typer.Exit(1)


def _default_depth(table: CodeTable, worst_bound: int, feasible: bool) -> tuple[int, int | None]:
    """``--max-guesses`` unless given: one more than the worst-case bound, to leave room to
    optimise the total (the bound itself for ``--feasible``), never more than the codes; if
    that model is out of reach, the deepest within reach that can still hold a strategy.
    Also the depth first wanted, where a smaller one is used (else None)."""
    from mastermind.engines.models.cpsat_tree import check_model_size, deepest_model

    wanted = min(worst_bound + (0 if feasible else 1), table.n)
    depth = deepest_model(table, wanted)
    if depth < worst_bound:  # below the bound no strategy exists: nothing to optimise
        check_model_size(
            table,
            worst_bound,
            advice=f"every strategy needs at least {plural(worst_bound, 'guess')}, so no "
            "--max-guesses within reach holds one: use a smaller game",
        )
    return depth, (wanted if depth < wanted else None)


def _check_depth(table: CodeTable, depth: int, worst_bound: int) -> None:
    """Refuse a ``--max-guesses`` out of the model's reach, with one that fits if any can
    hold a strategy."""
    from mastermind.engines.models.cpsat_tree import check_model_size, deepest_model

    fits = deepest_model(table, min(depth, table.n))
    if fits >= worst_bound:
        advice = f"use --max-guesses {fits} (the most within reach) or a smaller game"
    else:
        advice = (
            f"use a smaller game: every strategy needs at least {plural(worst_bound, 'guess')}, "
            f"and no model of more than {plural(fits, 'guess')} is within reach"
        )
    with naming("--max-guesses"):
        check_model_size(table, depth, advice=advice)


def _print_cpsat(rules: Rules, data: dict, result) -> None:
    depth, status = data["max_guesses"], data["solver_status"]
    took = f"[{result.seconds:.2f} s]"
    how = stopped_text(result.stopped) if result.stopped else f"CP-SAT status {status}"
    if data["exists"] is False:
        typer.echo(
            f"{rules}: no strategy solves every secret within {plural(depth, 'guess')} (proven): "
            f"the worst case is at least {data['worst_lower_bound']} {took}"
        )
    elif data["exists"] is None:
        known = (
            f"worst case >= {data['worst_lower_bound']} proven"
            if data["objective"] == "feasible"
            else ("" if data["total_lower_bound"] is None else f"total >= {data['total_lower_bound']} proven")
        )
        typer.echo(f"{rules}: {how}, not proven, no strategy found; {known} {took}")
    elif data["objective"] == "feasible":
        low, high = data["worst_lower_bound"], data["worst_upper_bound"]
        worst = f"is {high}" if low == high else f"lies in {low}..{high}"
        f = data["best_found"]
        typer.echo(
            f"{rules}: a strategy within {plural(depth, 'guess')} exists (proven): the worst case {worst}; "
            f"the one found (its total not optimised): total {f['total']}, first guess {f['first_guess']}, "
            f"histogram {histogram_text(f['histogram'])} {took}"
        )
    elif data["total"] is not None:
        typer.echo(
            f"{rules}: optimal strategy within {plural(depth, 'guess')} (proven): total {data['total']}, "
            f"worst {data['worst']}, first guess {data['first_guess']}, histogram "
            f"{histogram_text(data['histogram'])} {took}"
        )
    else:
        f = data["best_found"]
        typer.echo(
            f"{rules}: within {plural(depth, 'guess')}, {how}, not proven: "
            f"total >= {data['total_lower_bound']}; "
            f"best strategy found: total {f['total']}, worst {f['worst']}, first guess {f['first_guess']}, "
            f"histogram {histogram_text(f['histogram'])} {took}"
        )


# ---- static ------------------------------------------------------------------------------
def static(
    rules: RulesOpt = None,
    black_only: Annotated[
        bool, typer.Option("--black-only", hidden=True, help="Gone: black-peg Mastermind is --rules p4c6b.")
    ] = False,
    seed: SeedOpt = None,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.engines.models.result import stopped_result
    from mastermind.engines.models.static import counting_static_bound, solve_static

    rules = game(rules)
    if black_only:  # (black-peg Mastermind is a game of its own, in every command)
        black = Rules(rules.pegs, rules.colors, rules.repeat, BLACK_PEG)
        fail(f"--black-only is gone: black-peg Mastermind is a game of its own, --rules {black}")
    deadline = Deadline.of_command(time_limit)
    table = table_for(rules, memory_limit_bytes(memory_limit))
    seed, drawn = draw_seed(seed)
    start = time.perf_counter()
    try:
        with progress_bar(progress_mode(progress, json_output)) as bar:
            bar.start(None, f"CP-SAT static model of {rules}")
            result = solve_static(
                table,
                time_limit=deadline.left() or FOREVER,
                workers=cores(jobs),
                seed=seed,
                cancel=command_token(),
            )
    except KeyboardInterrupt:  # while the model was built: only the counting bound is known
        least = counting_static_bound(table)
        result = stopped_result(table, "static", least, start)
    chosen = result.details.guesses
    guess_set = None if chosen is None else [rules.code_text(g) for g in chosen]
    found = (
        None if guess_set is None else {"guesses": result.value, "guess_set": guess_set, "found_by": CPSAT}
    )
    data = {
        "rules": str(rules),
        "codes": table.n,
        "solver_status": result.details.status,
        "proven": result.proven,
        "guesses": result.value if result.proven else None,
        "guess_set": guess_set if result.proven else None,
        "guesses_lower_bound": result.lower_bound,
        "guesses_upper_bound": result.value,
        "best_found": None if result.proven else found,
        "seed": seed,
        "stopped": result.stopped,
        "seconds": round(result.seconds, 3),
    }
    if json_output:
        print_json(data)
        exit_if_interrupted(result.stopped)
        return
    kind = rules.variant.description
    how = stopped_text(result.stopped) if result.stopped else f"CP-SAT status {data['solver_status']}"
    chance = f"; {seed_note(seed, drawn)}" if drawn else ""
    took = f"{result.seconds:.2f} s"
    if result.proven:
        typer.echo(
            f"{rules} static, {kind}: {plural(result.value, 'guess')} + the final one "
            f"(proven, {took}{chance}): {' '.join(guess_set) or 'none needed'}"
        )
    elif found is None:
        least = (
            ""
            if result.lower_bound is None
            else f"; at least {plural(result.lower_bound, 'guess')} + the final one"
        )
        typer.echo(f"{rules} static, {kind}: {how} after {took}, not proven, no solution found{least}")
    else:
        typer.echo(
            f"{rules} static, {kind}: {how}, not proven: at least {result.lower_bound} and at most "
            f"{plural(result.value, 'guess')} + the final one; best found ({took}{chance}): "
            f"{' '.join(guess_set)}"
        )
    exit_if_interrupted(result.stopped)
