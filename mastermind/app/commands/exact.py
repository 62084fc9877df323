"""``optimal``: the exact solver at the command line.

No ``from __future__ import annotations`` here: typer reads the option annotations at run
time and they must be objects.
"""

from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import console, histogram_text, print_json, table_for
from mastermind.core.errors import MastermindError
from mastermind.core.game import Rules

ObjectiveOpt = Annotated[str, typer.Option("--objective", help="total (optimal average) or worst (fewest guesses in the worst case, then the best total).")]
MaxGuessesOpt = Annotated[Optional[int], typer.Option("--max-guesses", help="Only strategies that never need more guesses than this.", show_default=False)]
PoolOpt = Annotated[str, typer.Option("--pool", help="Guesses allowed: all codes, or consistent (only codes still possible).")]
FirstOpt = Annotated[Optional[str], typer.Option("--first", help="Fix the first guess, e.g. 1123.", show_default=False)]
ByFirstOpt = Annotated[bool, typer.Option("--by-first-guess", help="The optimum for each canonical first guess, as a table.")]
TieBreakOpt = Annotated[bool, typer.Option("--tie-break", help="Among optimal strategies prefer the smaller worst case, then fewer secrets at it.")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Threads to use (0: all cores).")]
BackendOpt = Annotated[str, typer.Option("--backend", help="Where work units run: threads, processes (loky) or dask (a local cluster of --jobs processes, or --scheduler).")]
SchedulerOpt = Annotated[Optional[str], typer.Option("--scheduler", help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --backend dask).", show_default=False)]
CheckpointOpt = Annotated[Optional[str], typer.Option("--checkpoint", help="Folder that keeps every finished work unit; the same command run again reuses them.", show_default=False)]
TimeLimitOpt = Annotated[Optional[float], typer.Option("--time-limit", help="Stop after this many seconds and report what is proven (exit 0).", show_default=False)]
ProgressOpt = Annotated[str, typer.Option("--progress", help="auto (a bar on a terminal), bar, json (one line per finished work unit on stderr) or none.")]
OutOpt = Annotated[Optional[str], typer.Option("--out", "-o", help="Write the optimal strategy tree to this file (JSON).", show_default=False)]


def register(app: typer.Typer) -> None:
    from mastermind.app.commands.common import game_command

    game_command(app, "optimal", help="Optimal strategy, proven: exact branch and bound with symmetry.")(optimal)


def optimal(
    rules: Rules, json_output: bool, memory_limit: int,
    objective: ObjectiveOpt = "total", max_guesses: MaxGuessesOpt = None, pool: PoolOpt = "all",
    first: FirstOpt = None, by_first_guess: ByFirstOpt = False, tie_break: TieBreakOpt = False,
    jobs: JobsOpt = 0, backend: BackendOpt = "threads", scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None, time_limit: TimeLimitOpt = None, progress: ProgressOpt = "auto",
    out: OutOpt = None,
) -> None:
    import math

    from mastermind.core.progress import progress_bar, progress_mode
    from mastermind.engines.exact import solve, solve_by_first_guess
    from mastermind.engines.exact.backends import check_backend
    from mastermind.engines.exact.solver import OBJECTIVES, POOLS

    if objective not in OBJECTIVES:
        raise MastermindError(f"--objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if pool not in POOLS:
        raise MastermindError(f"--pool must be one of {', '.join(POOLS)}, got {pool!r}")
    if first is not None and by_first_guess:
        raise MastermindError("give either --first or --by-first-guess, not both")
    if out is not None and by_first_guess:
        raise MastermindError("--out writes one strategy: use it with --first or alone, not --by-first-guess")
    if jobs < 0:
        raise MastermindError(f"--jobs must be 0 (all cores) or more, got {jobs}")
    if max_guesses is not None and max_guesses < 1:
        raise MastermindError(f"--max-guesses must be at least 1, got {max_guesses}")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise MastermindError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    if scheduler is not None:
        backend = "dask" if backend == "threads" else backend
    check_backend(backend)
    units = backend != "threads" or checkpoint is not None or scheduler is not None
    if units and (by_first_guess or first is not None or tie_break or objective != "total"):
        raise MastermindError("--backend, --scheduler and --checkpoint work on the plain optimum "
                              "(not with --by-first-guess, --first, --tie-break or --objective worst)")
    mode = progress_mode(progress, json_output)
    first_code = rules.parse_code(first) if first is not None else None
    table = table_for(rules, memory_limit)
    n_jobs = -1 if jobs == 0 else jobs
    with progress_bar(mode) as bar:
        if by_first_guess:
            results = solve_by_first_guess(table, objective=objective, max_guesses=max_guesses,
                                           pool=pool, tie_break=tie_break, jobs=n_jobs, progress=bar)
        else:
            results = [solve(table, objective=objective, max_guesses=max_guesses, pool=pool,
                             first_guess=first_code, tie_break=tie_break, jobs=n_jobs, progress=bar,
                             backend=backend, scheduler=scheduler, checkpoint=checkpoint,
                             time_limit=time_limit, anytime=True)]
    result = results[0]
    if out is not None and result.tree is not None:
        _write_tree(result, out)
    if json_output:
        rows = [r.to_dict() for r in results]
        print_json(rows if by_first_guess else rows[0])
    else:
        _print(rules, results, by_first_guess, objective)
    if not result.proven and result.stopped == "interrupted":
        raise typer.Exit(130)


def _write_tree(result, path: str) -> None:
    from mastermind.core.fileio import write_atomic

    try:
        from mastermind.app.formats import write_tree
    except ImportError:  # pragma: no cover - formats not installed
        write_tree = None
    if write_tree is not None:
        text = write_tree(result.tree, "json", result.stats)
    else:  # pragma: no cover
        import json

        text = json.dumps({"rules": str(result.rules), "stats": result.stats.to_dict(result.rules)})
    write_atomic(path, text)


def _print(rules: Rules, results: list, by_first_guess: bool, objective: str) -> None:
    out = console()
    if not by_first_guess and not results[0].proven:
        r = results[0]
        out.print(f"rules        {rules}  (objective {objective})")
        out.print(f"proven       no (not proven): stopped ({r.stopped}) after {r.seconds:.2f} s, "
                  f"{r.counters.units} work units, {r.nodes} nodes")
        out.print(f"lower bound  {r.lower_bound}  (no strategy has a smaller total)")
        if r.tree is None:
            out.print("best found   none yet")
        else:
            out.print(f"best found   total {r.total} over {r.secrets} secrets (average {r.average:.4f}), "
                      f"first guess {rules.code_text(r.first_guess)}")
        return
    if not by_first_guess:
        r = results[0]
        out.print(f"rules        {rules}  (objective {objective}"
                  + (f", at most {r.max_guesses} guesses" if r.max_guesses else "")
                  + (f", pool {r.pool}" if r.pool != "all" else "") + ")")
        out.print(f"first guess  {rules.code_text(r.first_guess)}")
        out.print(f"total        {r.total} over {r.secrets} secrets  (average {r.average:.4f})")
        out.print(f"worst case   {r.worst} guesses")
        out.print(f"histogram    {histogram_text(r.histogram)}")
        reused = f", {r.counters.reused} reused from the checkpoint" if r.counters.reused else ""
        units = f", {r.counters.units} work units{reused}" if r.counters.units else ""
        out.print(f"proven       {'yes' if r.proven else 'no'}  ({r.seconds:.2f} s, {r.nodes} nodes, "
                  f"{r.memo_hits} memo hits{units})")
        return
    from rich.table import Table

    t = Table(title=f"{rules}: optimum for each first guess ({objective})",
              caption="histogram: secrets solved with 1, 2, ... guesses")
    for column in ("first", "total", "average", "worst", "histogram", "seconds"):
        t.add_column(column, justify="left" if column in ("first", "histogram") else "right")
    best = min(r.total for r in results) if results else None
    for r in results:
        mark = " *" if r.total == best else ""
        t.add_row(rules.code_text(r.first_guess) + mark, str(r.total), f"{r.average:.4f}",
                  str(r.worst), histogram_text(r.histogram), f"{r.seconds:.2f}")
    out.print(t)
