"""``bounds``: proven lower bounds on the worst case and the total guesses."""

import time
from typing import Annotated

import typer

from mastermind.app.commands.common import (
    JsonOpt,
    MemoryOpt,
    ProgressOpt,
    RulesOpt,
    TimeLimitOpt,
    command,
    command_work,
    console,
    exit_if_interrupted,
    floor_decimal,
    floor_float,
    fraction,
    game,
    memory_limit_bytes,
    plural,
    print_json,
    stopped_text,
    table_for,
    whole_range,
)
from mastermind.core.cancel import StopReason
from mastermind.core.errors import MastermindError
from mastermind.core.progress import progress_bar, progress_mode


def register(app: typer.Typer) -> None:
    command(app, "bounds", help="Proven lower bounds on the worst case and the total guesses.")(bounds)


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
        command_work(time_limit) as token,
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
            stopped = token.reason or StopReason.INTERRUPTED
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
        "average_lower_bound": floor_float(fraction(best_total, table.n)),
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
        + f"; best: {best_total} (average >= {floor_decimal(fraction(best_total, table.n))})"
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
