"""``static``: static Mastermind (CP-SAT), guesses fixed in advance."""

from typing import Annotated

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
    fail,
    game,
    memory_limit_bytes,
    plural,
    print_json,
    seed_note,
    stopped_text,
    table_for,
)
from mastermind.core.game import Rules
from mastermind.core.progress import progress_bar, progress_mode
from mastermind.core.variant import BLACK_PEG


def register(app: typer.Typer) -> None:
    command(
        app,
        "static",
        help="Static Mastermind (CP-SAT): fewest guesses fixed in advance that "
        "identify the secret (final guess not counted).",
    )(static)


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
    from mastermind.engines.models import static_answer, static_document

    rules = game(rules)
    if black_only:  # (black-peg Mastermind is a game of its own, in every command)
        black = Rules(rules.pegs, rules.colors, rules.repeat, BLACK_PEG)
        fail(f"--black-only is gone: black-peg Mastermind is a game of its own, --rules {black}")
    table = table_for(rules, memory_limit_bytes(memory_limit))
    seed, drawn = draw_seed(seed)
    with progress_bar(progress_mode(progress, json_output)) as bar, command_work(time_limit) as work:
        bar.start(None, f"CP-SAT static model of {rules}")
        result = static_answer(
            table,
            workers=cores(jobs),
            seed=seed,
            cancel=work,  # (Ctrl-C, and --time-limit from the command's start: its deadline)
        )
    data = static_document(result, seed)
    if json_output:
        print_json(data)
        exit_if_interrupted(result.stopped)
        return
    guess_set, found = data["guess_set"], data["best_found"]
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
            f"{' '.join(found['guess_set'])}"
        )
    exit_if_interrupted(result.stopped)
