"""``bounds``: proven lower bounds on the worst case and the total guesses."""

from typing import TYPE_CHECKING, Annotated

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
    fraction,
    game,
    memory_limit_bytes,
    plural,
    print_json,
    stopped_text,
    table_for,
    whole_range,
)
from mastermind.core.progress import progress_bar, progress_mode

if TYPE_CHECKING:
    from mastermind.engines.models import LevelBounds


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
    from mastermind.engines.models import check_levels, level_bounds

    check_levels(levels, refined)  # (before the table is built)
    rules = game(rules)
    table = table_for(rules, memory_limit_bytes(memory_limit))
    with command_work(time_limit) as token, progress_bar(progress_mode(progress, json_output)) as bar:
        bar.start(2 * levels + (2 if refined else 0), f"bounds of {rules}")
        found = level_bounds(table, levels, refined, cancel=token, advance=bar.advance)
    if json_output:
        print_json(found.to_dict())
    else:
        _print_bounds(found)
    exit_if_interrupted(found.stopped)


def _print_bounds(found: "LevelBounds") -> None:
    rules, n, best_total = found.rules, found.codes, found.total_lower_bound
    out = console()
    out.print(
        f"{rules}: {plural(n, 'code')}, {plural(len(rules.answers), 'answer')}; Knuth's first guess "
        f"{rules.code_text(found.knuth_first_guess)} leaves at most {found.knuth_largest_class}"
    )
    out.print(
        "worst case >= "
        + ", ".join(f"{v} ({_bound_name(k)})" for k, v in found.worst.items())
        + f"; best: {found.worst_lower_bound}"
    )
    out.print(
        "total >= "
        + ", ".join(f"{v} ({_bound_name(k)})" for k, v in found.total.items())
        + f"; best: {best_total} (average >= {floor_decimal(fraction(best_total, n))})"
    )
    if found.by_first_guess_bound is not None:
        out.print(
            f"total >= by first guess ({_bound_name(found.by_first_guess_bound)}): "
            + ", ".join(f"{rules.code_text(g)} {v}" for g, v in found.by_first_guess.items())
        )
    if found.stopped:
        out.print(_stopped_levels(found))


def _stopped_levels(found: "LevelBounds") -> str:
    """What a stopped ``bounds`` says of its levels (a level counts once its worst-case,
    total and by-first-guess bounds are all in: the only ones shown)."""
    stopped, finished, levels = found.stopped, found.levels_finished, found.levels
    if finished < levels:
        missing = "deeper ones were not computed"
    else:  # (only the refined bound was left)
        missing = "the refined bound was not computed"
    return (
        f"{stopped_text(stopped)} with {finished} of {plural(levels, 'lookahead level')} finished: "
        f"the bounds above are proven, {missing}"
    )
