"""``cpsat``: the CP-SAT strategy-tree model of tiny games."""

import time
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    ProgressOpt,
    RulesOpt,
    SeedOpt,
    TimeLimitOpt,
    command,
    command_work,
    cores,
    draw_seed,
    exit_if_interrupted,
    game,
    histogram_text,
    memory_limit_bytes,
    naming,
    plural,
    print_json,
    seed_note,
    stopped_text,
    table_for,
    whole_range,
)
from mastermind.app.interrupts import command_token
from mastermind.core.game import CodeTable, Rules, format_bytes
from mastermind.core.progress import progress_bar, progress_mode
from mastermind.engines.result import CPSAT
from mastermind.engines.workers.timed import wait_for


def register(app: typer.Typer) -> None:
    command(
        app,
        "cpsat",
        help="CP-SAT strategy-tree model (tiny games): optimal total within "
        "--max-guesses guesses, or whether that depth is possible (exit 1: it is not).",
    )(cpsat)


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
        with progress_bar(progress_mode(progress, json_output)) as bar, command_work(time_limit) as work:
            bar.start(None, f"CP-SAT strategy tree of {rules} within {plural(depth, 'guess')}")
            lower = None if feasible else lookahead_total_bound(table, 2 if table.n <= 256 else 1)
            result = solve_tree(
                table,
                depth,
                objective=objective,
                time_limit=wait_for(work.remaining()),  # (the command's --time-limit)
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
