"""``game-value``: the value of the game when the code maker may choose the secret's odds."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import console, game_command, print_json, table_for
from mastermind.core.errors import MastermindError
from mastermind.core.game import Rules
from mastermind.core.progress import progress_bar, wants_progress

HELP = (
    "Value of the zero-sum game: the code maker picks the secret with any probabilities, the "
    "code breaker may randomise over strategies; exact fraction, both optimal mixes."
)


def register(app: typer.Typer) -> None:
    game_command(app, "game-value", help=HELP)(game_value)


def game_value(
    rules: Rules, json_output: bool, memory_limit: int,
    game: Optional[str] = typer.Argument(None, metavar="RULES", show_default=False,
                                         help="The game, e.g. p4c6 (same as --rules)."),
    solver: Annotated[str, typer.Option(help="Best replies from: auto (the exact solver), exact, or search (slow reference, tiny games).")] = "auto",
    max_iterations: Annotated[int, typer.Option(help="Give up after this many best replies (reporting bounds).")] = 500,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Threads of each best reply (0: all cores; one is usually fastest, best replies being short).")] = 1,
) -> None:
    from mastermind.engines.gamevalue import game_value as solve_game
    from mastermind.engines.gamevalue.bestreply import SOLVERS

    if game is not None:
        chosen = Rules.parse(game)
        if rules != Rules() and rules != chosen:
            raise MastermindError(f"two games given: {game} and {rules}; give the rules once")
        rules = chosen
    if solver not in SOLVERS:
        raise MastermindError(f"unknown --solver {solver!r}: use one of {', '.join(SOLVERS)}")
    if max_iterations < 2:
        raise MastermindError(f"--max-iterations must be at least 2, got {max_iterations}")
    if jobs < 0:
        raise MastermindError(f"--jobs must be 0 (all cores) or more, got {jobs}")
    table = table_for(rules, memory_limit)
    with progress_bar(wants_progress(json_output)) as bar:
        result = solve_game(table, solver=solver, max_iterations=max_iterations,
                            jobs=-1 if jobs == 0 else jobs, progress=bar)
    if json_output:
        print_json(result.to_dict())
        return
    _print(result)


def _print(result) -> None:
    from rich.table import Table

    rules = result.rules
    out = console()
    v = result.value
    status = "proven" if result.proven else f"NOT proven: lower bound {float(result.lower):.6f}"
    out.print(f"game value of {rules}: {v.numerator}/{v.denominator} = {float(v):.6f} "
              f"expected guesses ({status})")
    out.print(f"uniformly random secret instead: {result.uniform_total}/{rules.n_codes} = "
              f"{result.uniform_total / rules.n_codes:.6f}")
    t = Table(title="code maker: probability per class of codes (equal within a class)")
    for col, just in (("pattern", "left"), ("codes", "right"), ("example", "left"),
                      ("class", "right"), ("each code", "right"), ("class prob.", "right")):
        t.add_column(col, justify=just)
    for m in result.maker:
        t.add_row(m.name, str(m.size), rules.code_text(m.example), str(m.probability),
                  str(m.per_code), f"{float(m.probability):.6f}")
    out.print(t)
    t = Table(title="code breaker: mix of strategy trees (each played under a random colour "
                    "and position permutation)")
    for col in ("weight", "first guess", "total", "worst", "guesses per class"):
        t.add_column(col, justify="left" if col == "first guess" else "right", no_wrap=True)
    for b in result.breaker:
        t.add_row(f"{b.weight} ({float(b.weight):.4f})", rules.code_text(b.tree.root.guess),
                  str(b.stats.total), str(b.stats.worst), " ".join(map(str, b.class_totals)))
    out.print(t)
    out.print(f"{result.iterations} best replies, {result.columns} trees in the final LP, "
              f"{result.seconds:.2f} s")
