"""``cpsat``: the CP-SAT strategy-tree model of tiny games."""

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
    plural,
    print_json,
    seed_note,
    stopped_text,
    table_for,
    whole_range,
)
from mastermind.core.game import Rules, format_bytes
from mastermind.core.progress import progress_bar, progress_mode


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
    from mastermind.engines.models import plan_depth, solve_cpsat

    rules = game(rules)
    table = table_for(rules, memory_limit_bytes(memory_limit))
    plan = plan_depth(table, depth, feasible)  # (refused before any bound or model is computed)
    seed, drawn = draw_seed(seed)
    with progress_bar(progress_mode(progress, json_output)) as bar, command_work(time_limit) as work:
        bar.start(None, f"CP-SAT strategy tree of {rules} within {plural(plan.depth, 'guess')}")
        answer = solve_cpsat(
            table,
            plan,
            feasible,
            workers=cores(jobs),
            seed=seed,
            cancel=work,  # (Ctrl-C, and --time-limit from the command's start: its deadline)
        )
    data = answer.to_dict()
    if json_output:
        print_json(data)
    else:
        _print_cpsat(rules, data, answer.result)
        if plan.wanted is not None:  # the answer is within fewer guesses than the help promised
            need = format_bytes(plan.wanted_bytes or 0)
            typer.echo(
                f"--max-guesses {plan.depth}, not the default {plan.wanted}: "
                f"the model of {plan.wanted} is out of reach ({need} of memory)"
            )
        if drawn:
            typer.echo(seed_note(seed, True))
    exit_if_interrupted(answer.result.stopped)
    if answer.exists is False:  # an answer, not bad input: no strategy within --max-guesses
        raise typer.Exit(1)


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
