"""``table``, ``compare``, ``bounds``, ``cpsat`` and ``static``: bounds, models and reports."""

from __future__ import annotations

import time
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    JsonOpt,
    MemoryOpt,
    NoRepeatOpt,
    anytime_fields,
    console,
    exit_if_interrupted,
    game_command,
    histogram_text,
    memory_limit_bytes,
    one_line_errors,
    plural,
    print_json,
    seconds_option,
    seed_option,
    table_for,
    whole_range,
)
from mastermind.app.helpstyle import Command
from mastermind.core.errors import MastermindError
from mastermind.core.game import MAX_COLORS, MAX_PEGS, Rules
from mastermind.core.progress import progress_bar, wants_progress

TimeLimitOpt = Annotated[float, seconds_option("--time-limit", help="Seconds for the solver (each run).")]
MAX_WORKERS = 256  # CP-SAT answers MODEL_INVALID to 100000; beyond 256 is a typing error
WorkersOpt = Annotated[
    int, typer.Option("--workers", callback=whole_range(1, MAX_WORKERS), help="CP-SAT worker threads.")
]


def register(app: typer.Typer) -> None:
    app.command(
        "table",
        cls=Command,
        help="Knuth's algorithm for many games against lower bounds and the optimum "
        "(markdown; --json for rows).",
    )(table)
    game_command(
        app,
        "compare",
        help="Every heuristic against the optimum and the best lower bound; --plot draws the histograms.",
    )(compare)
    game_command(
        app,
        "plot",
        help="Draw strategies: secrets per number of guesses (log scale, counts "
        "shown) and the gap to the optimum and to the lower bound; PNG or SVG.",
    )(plot)
    game_command(app, "bounds", help="Proven lower bounds on the worst case and the total guesses.")(bounds)
    game_command(
        app,
        "cpsat",
        help="CP-SAT strategy-tree model (tiny games): optimal total within "
        "--depth guesses, or whether that depth is possible.",
    )(cpsat)
    game_command(
        app,
        "static",
        help="Static Mastermind (CP-SAT): fewest guesses fixed in advance that "
        "identify the secret (final guess not counted).",
    )(static)


# ---- table -------------------------------------------------------------------------------
TABLE_HEADERS = [
    "pegs",
    "colours",
    "codes",
    "answers",
    "Knuth first guess",
    "largest class",
    "Knuth worst",
    "crude bound",
    "worst lower bound",
    "optimal worst",
    "optimal total",
    "optimal average",
]


def table(
    pegs: Annotated[
        str, typer.Option("--pegs", "-p", help="Pegs: a number, a range 2-4 or a list 2,4.")
    ] = "2-4",
    colors: Annotated[
        str, typer.Option("--colors", "-c", help="Colours: a number, a range or a list.")
    ] = "2-6",
    no_repeat: NoRepeatOpt = False,
    time_limit: Annotated[
        float,
        seconds_option("--time-limit", help="Seconds for each exact run; cells not finished show bounds."),
    ] = 120.0,
    cpsat_time: Annotated[
        float,
        seconds_option(
            "--cpsat-time", zero_ok=True, help="Seconds of CP-SAT depth refutation per tiny game (0: off)."
        ),
    ] = 2.0,
    workers: WorkersOpt = 1,
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    with one_line_errors():
        from mastermind.app.comparisons import knuth_table_row, parse_range
        from mastermind.engines.models.timed import TimedWorker

        limit = memory_limit_bytes(memory_limit)
        peg_list = parse_range(pegs, "pegs", 1, MAX_PEGS)
        color_list = parse_range(colors, "colors", 1, MAX_COLORS)
        if time_limit <= 0:
            raise MastermindError(f"--time-limit must be positive, got {time_limit}")
        games = [Rules(p, c, not no_repeat) for p in peg_list for c in color_list if not no_repeat or c >= p]
        if not games:
            raise MastermindError("no game in that range: without repetition colours must be at least pegs")
        for rules in games:  # refuse sizes beyond memory before any work
            if rules.table_bytes() > limit:
                table_for(rules, limit)
        rows = []
        stopped = None
        with progress_bar(wants_progress(json_output)) as bar, TimedWorker() as worker:
            bar.start(len(games), "table")
            try:
                for rules in games:
                    rows.append(
                        knuth_table_row(
                            rules,
                            worker,
                            time_limit=time_limit,
                            memory_limit=limit,
                            cpsat_time=cpsat_time,
                            workers=workers,
                        )
                    )
                    bar.advance(1)
            except KeyboardInterrupt:  # Ctrl-C: the rows finished so far are the answer
                worker.close(kill=True)
                stopped = "interrupted"
        unfinished = [str(r) for r in games[len(rows) :]]
        if json_output:
            if stopped is None:
                print_json([r.to_dict() for r in rows])
                return
            # one object, so that a script sees the table is incomplete (a finished table is a list)
            print_json(
                {
                    "rows": [r.to_dict() for r in rows],
                    "unfinished": unfinished,
                    **anytime_fields(False, None, None, stopped),
                }
            )
            exit_if_interrupted(stopped)
        if rows:
            typer.echo(markdown_table(rows))
        open_cells = [str(r.rules) for r in rows if r.optimal_total is None or r.optimal_worst is None]
        if open_cells:
            typer.echo(
                f"\nopen (exact solver past {time_limit:g} s; bounds shown as >=): " + ", ".join(open_cells)
            )
        if stopped:
            typer.echo(f"\nstopped ({stopped}), not computed: " + ", ".join(unfinished))
        exit_if_interrupted(stopped)


def markdown_table(rows) -> str:
    """The rows as a markdown table; unsolved optimum cells show the lower bound as ``>= b``."""
    lines = ["| " + " | ".join(TABLE_HEADERS) + " |", "|" + "|".join("---:" for _ in TABLE_HEADERS) + "|"]
    for row in rows:
        d = row.to_dict()
        worst = str(d["optimal_worst"]) if d["optimal_worst"] is not None else f">= {d['worst_lower_bound']}"
        if d["optimal_total"] is not None:
            total, avg = str(d["optimal_total"]), f"{d['optimal_average']:.4f}"
        else:
            total = f">= {d['total_lower_bound']}"
            avg = f">= {d['total_lower_bound'] / d['codes']:.4f}"
        cells = [
            d["pegs"],
            d["colors"],
            d["codes"],
            d["answers"],
            d["knuth_first_guess"],
            d["knuth_max_error"],
            d["knuth_worst"],
            d["crude_lower_bound"],
            d["worst_lower_bound"],
            worst,
            total,
            avg,
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


# ---- compare -----------------------------------------------------------------------------
def compare(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    time_limit: Annotated[
        float,
        seconds_option(
            "--time-limit",
            help="Seconds for the exact optimum; past it the lower bound and the search's best "
            "strategy found (not proven) are shown.",
        ),
    ] = 300.0,
    plot: Annotated[
        Optional[str],  # not Path: Path("") would be the current folder
        typer.Option(
            "--plot", help="Draw the histograms and the gaps into this .png or .svg file (needs matplotlib)."
        ),
    ] = None,
    seed: Annotated[int, seed_option("Seed of the random strategy.")] = 0,
) -> None:
    from mastermind.app.comparisons import compare as run_compare

    if time_limit <= 0:
        raise MastermindError(f"--time-limit must be positive, got {time_limit}")
    if plot is not None:
        from mastermind.app.plots import check_plot_target
        from mastermind.core.fileio import is_stdout

        if is_stdout(plot):
            raise MastermindError("--plot - would mix the picture with the table: give a .png or .svg file")
        check_plot_target(plot)
    table_for(rules, memory_limit)  # size check first: one line, before any work
    from mastermind.core.compiling import ALL_KERNELS, CompileNotice

    with (
        CompileNotice(ALL_KERNELS, "the kernels", quiet=json_output),
        progress_bar(wants_progress(json_output)) as bar,
    ):
        result = run_compare(rules, time_limit=time_limit, seed=seed, memory_limit=memory_limit, progress=bar)
    if plot is not None and not result.stopped:  # (Ctrl-C: the rows finished, no picture)
        from mastermind.app.plots import plot_comparison

        plot_comparison(result, plot)
    if json_output:
        data = result.to_dict()
        if plot is not None and not result.stopped:
            data["plot"] = str(plot)
        print_json(data)
    else:
        _print_comparison(result)
        if plot is not None and not result.stopped:
            typer.echo(f"plot written to {plot}")
    if result.stopped:
        typer.echo(f"interrupted: {plural(len(result.rows), 'strategy')} played every secret", err=True)
    exit_if_interrupted(result.stopped)


BEST_FOUND = "best found (not proven)"  # the exact search's strategy when its time limit stopped it


# ---- plot --------------------------------------------------------------------------------
def plot(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            help="Picture to write: .png or .svg (- writes SVG to standard output).",
            show_default=False,
        ),
    ],
    strategies: Annotated[
        Optional[list[str]],
        typer.Option(
            "--strategy",
            "-s",
            metavar="NAME",
            show_default=False,
            help="Strategy to draw (repeat for several): see `mastermind strategies`; default: optimal "
            "and every heuristic.",
        ),
    ] = None,
    time_limit: Annotated[
        float,
        seconds_option(
            "--time-limit",
            help="Seconds for the exact optimum; past it the search's best strategy found is drawn "
            "(not proven) and the gaps are to the lower bound.",
        ),
    ] = 300.0,
    seed: Annotated[int, seed_option("Seed of the random strategy.")] = 0,
) -> None:
    from mastermind.app.comparisons import compare as run_compare
    from mastermind.app.plots import Series, check_plot_target, guesses_figure, write_figure
    from mastermind.engines.registry import HEURISTIC_NAMES, check_names

    names = list(dict.fromkeys(strategies)) if strategies else ["optimal", *HEURISTIC_NAMES]
    check_names(names)
    if time_limit <= 0:
        raise MastermindError(f"--time-limit must be positive, got {time_limit}")
    if json_output and out == "-":
        raise MastermindError("--json prints a summary of the picture written: give --out FILE")
    check_plot_target(out)
    table_for(rules, memory_limit)
    # the optimum comes from the comparison's own exact run (under --time-limit), not twice
    heuristics = list(dict.fromkeys(n for n in names if n != "optimal"))
    with progress_bar(wants_progress(json_output or out == "-")) as bar:
        result = run_compare(
            rules,
            strategies=heuristics,
            time_limit=time_limit,
            seed=seed,
            memory_limit=memory_limit,
            progress=bar,
        )
    if result.stopped:  # Ctrl-C: nothing is drawn from a part of the strategies
        typer.echo("interrupted: nothing drawn", err=True)
        raise typer.Exit(130)
    rows = {row.name: row for row in result.rows}
    series = []
    for name in dict.fromkeys(names):
        if name != "optimal":
            series.append(Series(name, list(rows[name].histogram)))
        elif result.optimal is not None:
            series.append(Series(name, list(result.optimal["histogram"])))
        elif result.best_found is not None:
            series.append(Series(BEST_FOUND, list(result.best_found["histogram"])))
    if not series:  # a time limit is an answer: what is proven, and no picture
        if json_output:
            print_json({**result.to_dict(), "plot": None, "drawn": []})
        else:
            typer.echo(
                f"nothing drawn: the exact search of {rules} found no strategy within --time-limit; "
                f"total >= {result.bounds.total} proven"
            )
        return
    opt = None if result.optimal is None else result.optimal["total"]
    fig = guesses_figure(f"{rules}: {plural(rules.n_codes, 'secret')}", series, opt, result.bounds.total)
    write_figure(fig, out)
    if json_output:
        print_json({**result.to_dict(), "plot": out, "drawn": [s.name for s in series]})
    elif out != "-":
        missing = ""
        if "optimal" in names and opt is None:
            missing = " (optimum not proven within --time-limit: " + (
                "the search's best strategy drawn instead)" if result.best_found else "left out)"
            )
        typer.echo(f"plot of {', '.join(s.name for s in series)} for {rules} written to {out}{missing}")


def _print_comparison(result) -> None:
    from rich.table import Table

    n = result.rules.n_codes
    opt = result.optimal
    title = f"{result.rules}: {plural(n, 'secret')}, heuristics against the optimum"
    t = Table(
        title=title,
        caption="worst of 'optimal total': the worst case of the tree with the least "
        "total, which may exceed the least possible worst case",
    )
    for name, justify in [
        ("strategy", "left"),
        ("total", "right"),
        ("average", "right"),
        ("worst", "right"),
        ("gap", "right"),
        ("gap %", "right"),
        ("histogram (1, 2, ... guesses)", "left"),
    ]:
        t.add_column(name, justify=justify)

    def strategy_row(name: str, total: int, worst: int, histogram: list[int], gap: str, pct: str) -> None:
        t.add_row(name, str(total), f"{total / n:.4f}", str(worst), gap, pct, histogram_text(histogram))

    if opt is not None:
        strategy_row("optimal total", opt["total"], opt["worst"], opt["histogram"], "0", "0.00")
    else:
        t.add_row("optimal total", "not solved", "", "", "", "", "")
        found = result.best_found
        if found is not None:
            strategy_row(BEST_FOUND, found["total"], found["worst"], found["histogram"], "", "")
    if result.bounds is None:
        t.add_row("lower bound", "not computed", "", "", "", "", "")
    else:
        b = result.bounds
        t.add_row("lower bound", f">= {b.total}", f">= {b.total / n:.4f}", f">= {b.worst}", "", "", "")
    t.add_section()
    for row in result.rows:
        gap = "" if row.gap is None else str(row.gap)
        pct = "" if row.gap_percent is None else f"{row.gap_percent:.2f}"
        strategy_row(row.name, row.total, row.worst, row.histogram, gap, pct)
    console().print(t)
    if opt is None and result.bounds is not None:
        why = "was interrupted" if result.stopped else "did not finish within --time-limit"
        typer.echo(
            f"the exact optimum {why}; gaps are to the lower bound: "
            + ", ".join(f"{r.name} {r.gap_to_bound}" for r in result.rows)
        )


# ---- bounds ------------------------------------------------------------------------------
def bounds(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    levels: Annotated[
        int, typer.Option("--levels", help="Lookahead levels (2 is quick up to p4c6; 3 takes minutes there).")
    ] = 2,
    refined: Annotated[
        bool,
        typer.Option(
            "--refined",
            help="Bound the bottom classes with their own branching: stronger, slower (about 1 s on p4c6).",
        ),
    ] = False,
    time_limit: Annotated[
        Optional[float],
        seconds_option(
            "--time-limit",
            help="Stop after this many seconds and report the bounds finished so far (exit 0).",
            show_default=False,
        ),
    ] = None,
) -> None:
    from mastermind.app.interrupts import command_token
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

    if not 0 <= levels <= 4:
        raise MastermindError(f"--levels must be between 0 and 4, got {levels}")
    table = table_for(rules, memory_limit)
    first, mu = knuth_first_guess(table)
    worst = {"crude": crude_worst_bound(rules, mu), "counting": counting_worst_bound(rules, table.n)}
    total = {"perfect_tree": perfect_tree_total(rules, table.n)}
    found: dict = {}  # total bound by first guess, as each is finished
    stopped = None

    def status() -> str:
        return f"bounds so far: worst case >= {max(worst.values())}, total >= {max(total.values())}"

    with command_token().child(time_limit) as token, token.running(status):
        try:
            for k in range(1, levels + 1):
                worst[f"lookahead_{k}"] = lookahead_worst_bound(table, k, cancel=token)
                total[f"lookahead_{k}"] = lookahead_total_bound(table, k, cancel=token)
            if refined:
                worst[f"refined_{levels}"] = lookahead_worst_bound(table, levels, refined=True, cancel=token)
                total[f"refined_{levels}"] = lookahead_total_bound(table, levels, refined=True, cancel=token)
            if levels:
                lookahead_totals_by_first_guess(table, levels, refined=refined, cancel=token, into=found)
        except Stopped:
            stopped = token.reason or "interrupted"
    by_first = {rules.code_text(g): v for g, v in found.items()}
    data = {
        "rules": str(rules),
        "codes": table.n,
        "answers": len(rules.answers),
        "knuth_first_guess": rules.code_text(first),
        "knuth_max_error": mu,
        "worst": {**worst, "best": max(worst.values())},
        "total": {**total, "best": max(total.values())},
        "total_by_first_guess": by_first,
        "levels": levels,
        "refined": refined,
        # bounds only: the optimum itself is not proven here
        **anytime_fields(False, max(total.values()), None, stopped),
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
        + ", ".join(f"{k} {v}" for k, v in worst.items())
        + f"  -> best {data['worst']['best']}"
    )
    out.print(
        "total >= "
        + ", ".join(f"{k} {v}" for k, v in total.items())
        + f"  -> best {data['total']['best']} (average >= {data['total']['best'] / table.n:.4f})"
    )
    if by_first:
        out.print(
            f"{levels}-level{' refined' if refined else ''} total bound by first guess"
            + (" (those finished)" if stopped else "")
            + ": "
            + ", ".join(f"{g} {v}" for g, v in by_first.items())
        )
    if stopped:
        finished = sum(1 for k in total if k.startswith("lookahead_"))
        out.print(
            f"stopped ({stopped}) with {finished} of {levels} lookahead levels finished: the bounds "
            "above are proven, deeper ones were not computed"
        )
    exit_if_interrupted(stopped)


# ---- cpsat -------------------------------------------------------------------------------
def cpsat(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    depth: Annotated[
        Optional[int],
        typer.Option(
            "--depth",
            help="Most guesses allowed for any secret (default: the worst-case lower bound of "
            "one level of lookahead, plus one unless --feasible).",
            show_default=False,
        ),
    ] = None,
    feasible: Annotated[
        bool,
        typer.Option(
            "--feasible",
            help="Only ask whether a strategy of this depth exists (infeasible proves a worst-case bound).",
        ),
    ] = False,
    time_limit: TimeLimitOpt = 60.0,
    workers: WorkersOpt = 2,
) -> None:
    from mastermind.app.interrupts import command_token
    from mastermind.engines.models.bounds import lookahead_total_bound, lookahead_worst_bound
    from mastermind.engines.models.cpsat_tree import check_model_size, solve_tree
    from mastermind.engines.models.result import stopped_result

    if depth is not None and depth < 1:
        raise MastermindError(f"--depth must be at least 1, got {depth}")
    table = table_for(rules, memory_limit)
    worst_bound = lookahead_worst_bound(table, 1)
    if depth is None:
        # one more than the bound leaves room to optimise the total; never more than the codes
        depth = min(worst_bound + (0 if feasible else 1), table.n)
    check_model_size(table, depth)  # before any bound or model is computed
    start = time.perf_counter()
    seed = None
    try:
        seed = None if feasible else lookahead_total_bound(table, 2 if table.n <= 256 else 1)
        result = solve_tree(
            table,
            depth,
            objective="feasible" if feasible else "total",
            time_limit=time_limit,
            workers=workers,
            lower_bound=seed,
            cancel=command_token(),
        )
    except KeyboardInterrupt:  # before CP-SAT ran: the lookahead bound is all there is
        result = stopped_result(table, "feasible" if feasible else "total", seed, start)
    data = {
        "rules": str(rules),
        "depth": depth,
        "question": "feasible" if feasible else "total",
        **result.to_dict(),
    }
    if feasible:
        data.update(_feasibility_fields(result, depth, worst_bound))
    else:
        data.update(anytime_fields(result.proven, result.lower_bound, result.value, result.stopped))
    if result.tree is not None and result.stats is not None:
        data["worst"] = result.stats.worst
        data["histogram"] = result.stats.histogram
        data["first_guess"] = rules.code_text(result.tree.root.guess)
    if json_output:
        print_json(data)
        exit_if_interrupted(result.stopped)
        return
    status = result.details.status
    stopped = f"stopped ({result.stopped})" if result.stopped else status
    if result.details.infeasible:
        typer.echo(
            f"{rules}: no strategy solves every secret within {plural(depth, 'guess')} (proven): "
            f"the worst case is at least {max(depth + 1, worst_bound)} [{result.seconds:.2f} s]"
        )
    elif result.value is None:
        known = "" if result.lower_bound is None else f"; total >= {result.lower_bound} proven"
        if feasible:
            known = f"; worst case >= {data['worst_lower_bound']} proven"
        typer.echo(f"{rules}: {stopped} after {result.seconds:.2f} s, not proven, no strategy found{known}")
    elif feasible:
        low, high = data["worst_lower_bound"], data["worst_upper_bound"]
        worst = f"is {high}" if low == high else f"lies in {low}..{high}"
        typer.echo(
            f"{rules}: a strategy within {plural(depth, 'guess')} exists: the worst case {worst} "
            f"(proven); the one found (total not optimised): total {data['total']}, "
            f"first guess {data['first_guess']}, histogram {histogram_text(data['histogram'])} "
            f"[{result.seconds:.2f} s]"
        )
    else:
        what = "optimal strategy" if result.proven else "best strategy found"
        typer.echo(
            f"{rules}: {what} within {plural(depth, 'guess')}: total {result.value}, worst "
            f"{data['worst']}, first guess {data['first_guess']}, histogram "
            f"{histogram_text(data['histogram'])}; status {status}"
            + ("" if result.proven else f", {stopped}, not proven: total >= {result.lower_bound}")
            + f" [{result.seconds:.2f} s]"
        )
    exit_if_interrupted(result.stopped)


def _feasibility_fields(result, depth: int, worst_bound: int) -> dict:
    """The answer to "does a strategy within ``depth`` guesses exist?" in the terms of the
    worst case: a strategy found bounds it from above (its total is not optimised, so it is
    no "value"), infeasibility from below; ``worst_bound`` is a lower bound known before."""
    exists = True if result.tree is not None else (False if result.details.infeasible else None)
    fields: dict = {
        "exists": exists,
        "value": None,
        "bound": None,
        "worst_lower_bound": max(worst_bound, depth + 1) if exists is False else worst_bound,
        "worst_upper_bound": result.stats.worst if exists else None,
    }
    if exists:
        fields["total"] = result.value
    return fields


# ---- static ------------------------------------------------------------------------------
def static(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    black_only: Annotated[bool, typer.Option("--black-only", help="Answers tell black pegs only.")] = False,
    time_limit: TimeLimitOpt = 60.0,
    workers: WorkersOpt = 2,
) -> None:
    from mastermind.app.interrupts import command_token
    from mastermind.engines.models.result import stopped_result
    from mastermind.engines.models.static import counting_static_bound, solve_static

    table = table_for(rules, memory_limit)
    start = time.perf_counter()
    try:
        result = solve_static(
            table, black_only=black_only, time_limit=time_limit, workers=workers, cancel=command_token()
        )
    except KeyboardInterrupt:  # while the model was built: only the counting bound is known
        least = counting_static_bound(table, black_only)
        result = stopped_result(table, "static", least, start)
    status, chosen = result.details.status, result.details.guesses
    guesses = None if chosen is None else [rules.code_text(g) for g in chosen]
    data = {
        "rules": str(rules),
        "answers": "black" if black_only else "black-white",
        **result.to_dict(),
        **anytime_fields(result.proven, result.lower_bound, result.value, result.stopped),
        "guesses": guesses,
    }
    if json_output:
        print_json(data)
        exit_if_interrupted(result.stopped)
        return
    kind = "black pegs only" if black_only else "black and white pegs"
    stopped = f"stopped ({result.stopped})" if result.stopped else status
    if result.value is None:
        typer.echo(
            f"{rules} static, {kind}: {stopped} after {result.seconds:.2f} s, not proven, no solution found"
            + (
                ""
                if result.lower_bound is None
                else f"; at least {plural(result.lower_bound, 'guess')} + the final one"
            )
        )
    else:
        proven = (
            "proven optimal" if result.proven else f"{stopped}, not proven, at least {result.lower_bound}"
        )
        typer.echo(
            f"{rules} static, {kind}: {plural(result.value, 'guess')} + the final one ({proven}, "
            f"{status}, {result.seconds:.2f} s): {' '.join(guesses) or 'none needed'}"
        )
    exit_if_interrupted(result.stopped)
