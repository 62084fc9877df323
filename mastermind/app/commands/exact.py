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
OutOpt = Annotated[Optional[str], typer.Option("--out", "-o", help="Write the optimal strategy tree to this file (JSON).", show_default=False)]


def register(app: typer.Typer) -> None:
    from mastermind.app.commands.common import game_command

    game_command(app, "optimal", help="Optimal strategy, proven: exact branch and bound with symmetry.")(optimal)


def optimal(
    rules: Rules, json_output: bool, memory_limit: int,
    objective: ObjectiveOpt = "total", max_guesses: MaxGuessesOpt = None, pool: PoolOpt = "all",
    first: FirstOpt = None, by_first_guess: ByFirstOpt = False, tie_break: TieBreakOpt = False,
    jobs: JobsOpt = 0, out: OutOpt = None,
) -> None:
    from mastermind.engines.exact import solve, solve_by_first_guess
    from mastermind.engines.exact.solver import OBJECTIVES, POOLS
    from mastermind.core.progress import progress_bar, wants_progress

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
    first_code = rules.parse_code(first) if first is not None else None
    from mastermind.engines.exact.warmup import ensure_compiled

    compile_seconds = ensure_compiled()  # a first run compiles here, out of the timed search
    table = table_for(rules, memory_limit)
    n_jobs = -1 if jobs == 0 else jobs
    with progress_bar(wants_progress(json_output)) as bar:
        if by_first_guess:
            results = solve_by_first_guess(table, objective=objective, max_guesses=max_guesses,
                                           pool=pool, tie_break=tie_break, jobs=n_jobs, progress=bar)
        else:
            results = [solve(table, objective=objective, max_guesses=max_guesses, pool=pool,
                             first_guess=first_code, tie_break=tie_break, jobs=n_jobs, progress=bar)]
    if out is not None:
        _write_tree(results[0], out)
    if json_output:
        rows = [r.to_dict() for r in results]
        if compile_seconds is not None:
            for row in rows:
                row["compile_seconds"] = round(compile_seconds, 2)
        print_json(rows if by_first_guess else rows[0])
        return
    _print(rules, results, by_first_guess, objective)


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
    if not by_first_guess:
        r = results[0]
        out.print(f"rules        {rules}  (objective {objective}"
                  + (f", at most {r.max_guesses} guesses" if r.max_guesses else "")
                  + (f", pool {r.pool}" if r.pool != "all" else "") + ")")
        out.print(f"first guess  {rules.code_text(r.first_guess)}")
        out.print(f"total        {r.total} over {r.secrets} secrets  (average {r.average:.4f})")
        out.print(f"worst case   {r.worst} guesses")
        out.print(f"histogram    {histogram_text(r.histogram)}")
        out.print(f"proven       {'yes' if r.proven else 'no'}  ({r.seconds:.2f} s, {r.nodes} nodes, "
                  f"{r.memo_hits} memo hits)")
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
