"""``optimal``: the exact solver at the command line.

No ``from __future__ import annotations`` here: typer reads the option annotations at run
time and they must be objects.
"""

from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    MAX_THREADS,
    NoCacheOpt,
    console,
    exit_if_interrupted,
    histogram_text,
    plural,
    print_json,
    seconds_option,
    table_for,
    whole_range,
)
from mastermind.core.errors import MastermindError
from mastermind.core.fileio import check_writable, is_stdout, write_atomic
from mastermind.core.game import Rules

ObjectiveOpt = Annotated[
    str,
    typer.Option(
        "--objective",
        help="total (optimal average) or worst (fewest guesses in the worst case, then the best total).",
    ),
]
MaxGuessesOpt = Annotated[
    Optional[int],
    typer.Option(
        "--max-guesses", help="Only strategies that never need more guesses than this.", show_default=False
    ),
]
PoolOpt = Annotated[
    str, typer.Option("--pool", help="Guesses allowed: all codes, or consistent (only codes still possible).")
]
FirstOpt = Annotated[
    Optional[str], typer.Option("--first", help="Fix the first guess, e.g. 1123.", show_default=False)
]
ByFirstOpt = Annotated[
    bool, typer.Option("--by-first-guess", help="The optimum for each canonical first guess, as a table.")
]
TIE_BREAKS = ("none", "worst")
TieBreakOpt = Annotated[
    str,
    typer.Option(
        "--tie-break",
        metavar="none|worst",
        help="Among optimal strategies: none (the first found) or worst (the smaller worst case, then fewer "
        "secrets at it).",
    ),
]
JobsOpt = Annotated[
    int,
    typer.Option("--jobs", "-j", callback=whole_range(0, MAX_THREADS), help="Threads to use (0: all cores)."),
]
BackendOpt = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where work units run: threads, processes (loky) or dask "
        "(a local cluster of --jobs processes, or --scheduler).",
    ),
]
SchedulerOpt = Annotated[
    Optional[str],
    typer.Option(
        "--scheduler",
        help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --backend dask).",
        show_default=False,
    ),
]
CheckpointOpt = Annotated[
    Optional[str],
    typer.Option(
        "--checkpoint",
        help="Folder that keeps every finished work unit; the same command run again reuses them.",
        show_default=False,
    ),
]
TimeLimitOpt = Annotated[
    Optional[float],
    seconds_option(
        "--time-limit",
        help="Stop after this many seconds and report what is proven (exit 0).",
        show_default=False,
    ),
]
ProgressOpt = Annotated[
    str,
    typer.Option(
        "--progress",
        help="auto (a bar on a terminal), bar, json (one line per finished work unit on stderr) or none.",
    ),
]
OutOpt = Annotated[
    Optional[str],
    typer.Option(
        "--out",
        "-o",
        help="Write the optimal strategy tree to this file (JSON; - for standard output).",
        show_default=False,
    ),
]


def register(app: typer.Typer) -> None:
    from mastermind.app.commands.common import game_command

    game_command(app, "optimal", help="Optimal strategy, proven: exact branch and bound with symmetry.")(
        optimal
    )


def optimal(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    objective: ObjectiveOpt = "total",
    max_guesses: MaxGuessesOpt = None,
    pool: PoolOpt = "all",
    first: FirstOpt = None,
    by_first_guess: ByFirstOpt = False,
    tie_break: TieBreakOpt = "none",
    jobs: JobsOpt = 0,
    backend: BackendOpt = "threads",
    scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None,
    time_limit: TimeLimitOpt = None,
    progress: ProgressOpt = "auto",
    out: OutOpt = None,
    no_cache: NoCacheOpt = False,
) -> None:
    # a plain search asked again is answered from the result cache, before numba is loaded;
    # what is looked up was stored after these same options passed every check below
    cache = None
    if not no_cache and out is None and backend == "threads" and scheduler is None and checkpoint is None:
        from mastermind.app.resultcache import ResultCache

        # a time limit only decides whether an answer is proven: only proven ones are kept
        options = dict(objective=objective, max_guesses=max_guesses, pool=pool, first=first)
        options.update(by_first_guess=by_first_guess, tie_break=tie_break, jobs=jobs, memory=memory_limit)
        cache = ResultCache().entry("optimal", str(rules), options)
        if json_output and (answer := cache.load()) is not None:
            print_json(answer)
            return
    from mastermind.app.interrupts import command_token
    from mastermind.core.progress import progress_bar, progress_mode
    from mastermind.engines.exact import (
        Execution,
        Limits,
        Problem,
        no_strategy_text,
        solve,
        solve_by_first_guess,
    )
    from mastermind.engines.exact.checkpoint import check_folder
    from mastermind.engines.exact.options import OBJECTIVES, POOLS, check_backend, check_scheduler
    from mastermind.engines.result import Status

    if objective not in OBJECTIVES:
        raise MastermindError(f"--objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if pool not in POOLS:
        raise MastermindError(f"--pool must be one of {', '.join(POOLS)}, got {pool!r}")
    if first is not None and by_first_guess:
        raise MastermindError("give either --first or --by-first-guess, not both")
    if out is not None and by_first_guess:
        raise MastermindError("--out writes one strategy: use it with --first or alone, not --by-first-guess")
    if tie_break not in TIE_BREAKS:
        raise MastermindError(f"--tie-break must be one of {', '.join(TIE_BREAKS)}, got {tie_break!r}")
    if max_guesses is not None and not 1 <= max_guesses <= rules.n_codes:
        raise MastermindError(
            f"--max-guesses must be between 1 and the number of codes ({rules.n_codes}), got {max_guesses}"
        )
    if out is not None:
        if is_stdout(out) and json_output:
            raise MastermindError("--out - and --json both use standard output: give --out a file name")
        check_writable(out)
    if scheduler is not None:
        backend = "dask" if backend == "threads" else backend
    check_backend(backend)
    if scheduler is not None:  # its form; whether it answers is known when connecting
        check_scheduler(scheduler, backend)
    if checkpoint is not None:
        check_folder(checkpoint)
    units = backend != "threads" or checkpoint is not None or scheduler is not None
    if units and (by_first_guess or first is not None or tie_break != "none" or objective != "total"):
        raise MastermindError(
            "--backend, --scheduler and --checkpoint work on the plain optimum "
            "(not with --by-first-guess, --first, --tie-break or --objective worst)"
        )
    mode = progress_mode(progress, json_output)
    first_code = rules.parse_code(first) if first is not None else None
    from mastermind.engines.exact.warmup import ensure_compiled

    compile_seconds = ensure_compiled(quiet=json_output)  # a first run compiles here, out of the timed search
    table = table_for(rules, memory_limit)
    problem = Problem(
        objective=objective,
        max_guesses=max_guesses,
        pool=pool,
        first_guess=first_code,
        tie_break=tie_break == "worst",
    )
    limits = Limits(time_limit=time_limit)
    # work units: their progress lines, and what a stopped run has proven
    execution = Execution(
        jobs=-1 if jobs == 0 else jobs,
        backend=backend,
        scheduler=scheduler,
        checkpoint=checkpoint,
        units=True,
    )
    from mastermind.app.fallback import Fallback, wanted

    # a heuristic beside a long search: what a search stopped before its first strategy reports
    fallback = Fallback(table) if not by_first_guess and wanted(table, problem) else None
    try:
        with progress_bar(mode) as bar:
            if by_first_guess:
                results = solve_by_first_guess(
                    table,
                    problem,
                    limits=limits,
                    execution=Execution(jobs=execution.jobs),
                    cancel=command_token(),
                    progress=bar,
                )
            else:
                results = [
                    solve(
                        table,
                        problem,
                        limits=limits,
                        execution=execution,
                        cancel=command_token(),
                        progress=bar if fallback is None else fallback.progress(bar),
                    )
                ]
        if fallback is not None:
            results = [fallback.improve(r) for r in results]
    finally:
        if fallback is not None:
            fallback.stop()
    # no strategy within --max-guesses: an answer, not bad input (exit 1)
    results = [r for r in results if r.status is not Status.NO_STRATEGY]
    if not results:
        message = no_strategy_text(rules, max_guesses or 0, first_code)
        if json_output:
            print_json(
                {
                    "rules": str(rules),
                    "objective": objective,
                    "max_guesses": max_guesses,
                    "first_guess": None if first_code is None else rules.code_text(first_code),
                    "pool": pool,
                    "exists": False,
                    "proven": True,
                    "message": message,
                }
            )
        else:
            typer.echo(message, err=True)
        raise typer.Exit(1)
    result = results[0]
    if out is not None and result.tree is not None:
        _write_tree(result, out)
        if is_stdout(out) and result.proven:  # the tree is the output
            return
    rows = [r.to_dict() for r in results]
    if cache is not None and all(r.proven for r in results):
        cache.store(rows if by_first_guess else rows[0])
    if json_output:
        if compile_seconds is not None:
            for row in rows:
                row["compile_seconds"] = round(compile_seconds, 2)
        print_json(rows if by_first_guess else rows[0])
    else:  # with --out - standard output holds the strategy alone: the report goes to stderr
        _print(rules, results, by_first_guess, objective, console(stderr=out is not None and is_stdout(out)))
    exit_if_interrupted(next((r.stopped for r in results if r.stopped), None))


def _write_tree(result, path: str) -> None:
    from mastermind.core.formats import write_tree

    write_atomic(path, write_tree(result.tree, "json", result.stats))


def _header(rules: Rules, objective: str, r) -> str:
    return (
        f"rules        {rules}  (objective {objective}"
        + (f", at most {plural(r.details.max_guesses, 'guess')}" if r.details.max_guesses else "")
        + (f", pool {r.details.pool}" if r.details.pool != "all" else "")
        + ")"
    )


def _print(rules: Rules, results: list, by_first_guess: bool, objective: str, out) -> None:
    if not by_first_guess and not results[0].proven:
        r = results[0]
        out.print(_header(rules, objective, r))
        out.print(
            f"proven       no (not proven): stopped ({r.stopped}) after {r.seconds:.2f} s, "
            f"{plural(r.counters.units, 'work unit')}, {plural(r.nodes, 'node')}"
        )
        if r.details.worst_lower_bound is not None:
            out.print(
                f"lower bound  worst case {plural(r.details.worst_lower_bound, 'guess')}  "
                f"(every smaller one refuted)"
            )
        else:
            out.print(f"lower bound  {r.lower_bound}  (no strategy has a smaller total)")
        if r.tree is None:
            out.print("best found   none yet")
        else:
            out.print(
                f"best found   total {r.total} over {plural(r.secrets, 'secret')} (average {r.average:.4f}), "
                f"first guess {rules.code_text(r.first_guess)}"
                + (f" (the {r.found_by} heuristic)" if r.found_by else "")
            )
        return
    if not by_first_guess:
        r = results[0]
        out.print(_header(rules, objective, r))
        out.print(f"first guess  {rules.code_text(r.first_guess)}")
        out.print(f"total        {r.total} over {plural(r.secrets, 'secret')}  (average {r.average:.4f})")
        out.print(f"worst case   {plural(r.worst, 'guess')}")
        out.print(f"histogram    {histogram_text(r.histogram)}")
        reused = f", {r.counters.reused} reused from the checkpoint" if r.counters.reused else ""
        units = f", {r.counters.units} work units{reused}" if r.counters.units else ""
        out.print(
            f"proven       {'yes' if r.proven else 'no'}  ({r.seconds:.2f} s, {plural(r.nodes, 'node')}, "
            f"{plural(r.memo_hits, 'memo hit')}{units})"
        )
        return
    from rich.table import Table

    t = Table(
        title=f"{rules}: optimum for each first guess ({objective})",
        caption="histogram: secrets solved with 1, 2, ... guesses",
    )
    for column in ("first", "total", "average", "worst", "histogram", "seconds"):
        t.add_column(column, justify="left" if column in ("first", "histogram") else "right")
    proven = [r.total for r in results if r.proven]
    floors = [r.lower_bound for r in results if not r.proven and r.lower_bound is not None]
    # the best first guesses, once no guess left unfinished could beat them
    best = min(proven) if proven and all(f >= min(proven) for f in floors) else None
    for r in results:
        if not r.proven:
            at_least = "?" if r.lower_bound is None else f">= {r.lower_bound}"
            t.add_row(rules.code_text(r.first_guess), at_least, "", "", f"not proven ({r.stopped})", "")
            continue
        mark = " *" if r.total == best else ""
        t.add_row(
            rules.code_text(r.first_guess) + mark,
            str(r.total),
            f"{r.average:.4f}",
            str(r.worst),
            histogram_text(r.histogram),
            f"{r.seconds:.2f}",
        )
    out.print(t)
