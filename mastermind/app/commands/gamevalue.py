"""``game-value``: the value of the game when the code maker may choose the secret's odds."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    console,
    exit_if_interrupted,
    game_command,
    plural,
    print_json,
    seconds_option,
    table_for,
    whole_range,
)
from mastermind.core.errors import MastermindError
from mastermind.core.game import Rules
from mastermind.core.progress import progress_bar, wants_progress

MAX_ITERATIONS = 10**6  # each best reply solves a game exactly: more is a typing error
HELP = (
    "Value of the zero-sum game: the code maker picks the secret with any probabilities, the "
    "code breaker may randomise over strategies; exact fraction, both optimal mixes."
)


def register(app: typer.Typer) -> None:
    game_command(app, "game-value", game_argument=True, help=HELP)(game_value)


def game_value(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    solver: Annotated[
        str,
        typer.Option(
            help="Best replies from: auto (the exact solver), exact, or search (slow reference, tiny games)."
        ),
    ] = "auto",
    max_iterations: Annotated[
        int,
        typer.Option(
            callback=whole_range(2, MAX_ITERATIONS),
            help="Give up after this many best replies (reporting bounds).",
        ),
    ] = 500,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            callback=whole_range(0, 1024),
            help="Threads of each best reply (0: all cores; one is usually fastest, "
            "best replies being short).",
        ),
    ] = 1,
    time_limit: Annotated[
        Optional[float],
        seconds_option(
            "--time-limit",
            help="Stop after this many seconds and report the bounds reached (exit 0).",
            show_default=False,
        ),
    ] = None,
) -> None:
    from mastermind.app.interrupts import command_token
    from mastermind.engines.gamevalue import game_value as solve_game
    from mastermind.engines.gamevalue.bestreply import SOLVERS

    if solver not in SOLVERS:
        raise MastermindError(f"unknown --solver {solver!r}: use one of {', '.join(SOLVERS)}")
    table = table_for(rules, memory_limit)
    from mastermind.core.compiling import EXACT_KERNELS, CompileNotice

    with (
        CompileNotice(EXACT_KERNELS, "the search kernels", quiet=json_output),
        progress_bar(wants_progress(json_output)) as bar,
    ):
        result = solve_game(
            table,
            solver=solver,
            max_iterations=max_iterations,
            jobs=-1 if jobs == 0 else jobs,
            progress=bar,
            time_limit=time_limit,
            cancel=command_token(),
        )
    if json_output:
        print_json(result.to_dict())
    else:
        _print(result)
    exit_if_interrupted(result.stopped)


def _print(result) -> None:
    from rich.table import Table

    rules, game = result.rules, result.details
    out = console()
    v = result.value
    if result.proven:
        out.print(
            f"game value of {rules}: {v.numerator}/{v.denominator} = {float(v):.6f} expected guesses (proven)"
        )
    elif result.stopped:
        why = f"NOT proven: stopped ({result.stopped}) after {result.seconds:.2f} s"
        if v is None:
            out.print(
                f"game value of {rules}: at least {_number(result.lower_bound)} expected guesses ({why}, "
                "before the first strategy tree: a uniformly random secret forces that much)"
            )
            return
        out.print(
            f"game value of {rules}: between {_number(result.lower_bound)} and {_number(v)} expected "
            f"guesses ({why}; the maker's mix below forces the lower bound, the breaker's keeps to the upper)"
        )
    else:  # the value is the breaker's guarantee, an upper bound: say both ends
        out.print(
            f"game value of {rules}: between {float(result.lower_bound):.6f} and "
            f"{_number(v)} expected guesses (NOT proven: out of iterations; the maker's mix below "
            "forces the lower bound, the breaker's keeps to the upper)"
        )
    out.print(
        f"uniformly random secret instead: {game.uniform_total}/{rules.n_codes} = "
        f"{game.uniform_total / rules.n_codes:.6f}"
    )
    t = Table(title="code maker: probability per class of codes (equal within a class)")
    for col, just in (
        ("pattern", "left"),
        ("codes", "right"),
        ("example", "left"),
        ("class", "right"),
        ("each code", "right"),
        ("class prob.", "right"),
    ):
        t.add_column(col, justify=just)
    for m in game.maker:
        t.add_row(
            m.name,
            str(m.size),
            rules.code_text(m.example),
            _exact(m.probability),
            _exact(m.per_code),
            f"{float(m.probability):.6f}",
        )
    out.print(t)
    t = Table(
        title="code breaker: mix of strategy trees (each played under a random colour "
        "and position permutation)"
    )
    for col in ("weight", "first guess", "total", "worst", "guesses per class"):
        t.add_column(col, justify="left" if col == "first guess" else "right", no_wrap=True)
    for b in game.breaker:
        t.add_row(
            f"{_exact(b.weight)} ({float(b.weight):.4f})",
            rules.code_text(b.tree.root.guess),
            str(b.stats.total),
            str(b.stats.worst),
            " ".join(map(str, b.class_totals)),
        )
    out.print(t)
    out.print(
        f"{plural(game.iterations, 'best reply')}, {plural(game.columns, 'tree')} in the final LP, "
        f"{result.seconds:.2f} s"
    )


def _exact(x) -> str:
    """A probability as a fraction; one from the float LP of a stopped run has none."""
    return str(x) if isinstance(x, (Fraction, int)) else "~"


def _number(x) -> str:
    """``a/b = 4.340278`` for an exact number, ``4.340278`` for a float."""
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator} = {float(x):.6f}"
    return f"{float(x):.6f}"
