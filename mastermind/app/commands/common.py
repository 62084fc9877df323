"""What every command shares: the rule options, ``--json``, errors and output helpers.

Commands are written as plain functions taking ``rules: Rules`` and ``json_output: bool``;
:func:`game_command` adds ``--rules``/``--pegs``/``--colors``/``--no-repeat``/``--json`` to
their signature once, and turns :class:`MastermindError` into one line and exit code 2.
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import sys
import typing
from collections.abc import Callable
from typing import Annotated, Any, Optional

import typer

from mastermind.app.helpstyle import Command
from mastermind.app.interactive.text import plural  # noqa: F401  - shared by the commands
from mastermind.core.errors import MastermindError, TableTooLarge
from mastermind.core.game import DEFAULT_MEMORY_LIMIT, CodeTable, Rules
from mastermind.engines.registry import HEURISTIC_NAMES, names_text

RulesOpt = Annotated[
    Optional[str],
    typer.Option(
        "--rules",
        "-r",
        help="Game as pPEGScCOLORS plus r (repetition, default) or n (none), e.g. p4c6n; default p4c6.",
        show_default=False,
    ),
]
STRATEGY_HELP = f"Strategy: {names_text()} (see `mastermind strategies`)."
STRATEGY_OR_FILE_HELP = STRATEGY_HELP.rstrip(".") + ", or a strategy file (JSON or Irving text)."
STRATEGIES_HELP = (
    f"Strategy to play (repeat for several): {names_text()}. Default: {names_text(HEURISTIC_NAMES, 'and')}."
)
PegsOpt = Annotated[Optional[int], typer.Option("--pegs", "-p", help="Number of pegs.", show_default=False)]
ColorsOpt = Annotated[
    Optional[int], typer.Option("--colors", "-c", help="Number of colours.", show_default=False)
]
NoRepeatOpt = Annotated[bool, typer.Option("--no-repeat", help="No colour twice in a code.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead of tables.")]
NoCacheOpt = Annotated[
    bool,
    typer.Option(
        "--no-cache",
        help="Compute again: neither read nor keep the answer in the result cache (~/.cache/mastermind).",
    ),
]
MAX_THREADS = 1024  # --jobs and --workers beyond this are typing errors, not machines
MAX_SEED = 2**63 - 1  # seeds travel as int64 (numba, numpy)
MAX_SECONDS = 10**7  # about four months: time limits beyond are typing errors
MAX_GIB = 2**20  # a pebibyte


def _number_check(unit: str, most: float, zero_ok: bool = False) -> Callable:
    """A typer callback refusing nan, inf, negative numbers, 0 unless ``zero_ok``, and more
    than ``most`` (a typing error, and past what the solvers' timers and sizes take)."""

    def check(value: float | None) -> float | None:
        if value is None:
            return None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
            least = "0 or more" if zero_ok else "a positive number of"
            raise typer.BadParameter(f"must be {least} {unit}, got {value}")
        if value > most:
            raise typer.BadParameter(f"must be at most {most:g} {unit}, got {value:g}")
        return value

    return check


def whole_range(least: int, most: int | None = None) -> Callable:
    """A typer callback refusing integers outside ``least..most`` (one line naming the value)."""

    def check(value: int | None) -> int | None:
        if value is None or (value >= least and (most is None or value <= most)):
            return value
        want = f"at least {least}" if value < least else f"at most {most}"
        raise typer.BadParameter(f"must be {want}, got {value}")

    return check


def seconds_option(name: str, help: str, zero_ok: bool = False, **kwargs) -> Any:
    """A time limit in seconds: finite and positive (``zero_ok``: 0 switches it off)."""
    return typer.Option(name, help=help, callback=_number_check("seconds", MAX_SECONDS, zero_ok), **kwargs)


DRAWN_SEED_HELP = "Seed of the random strategy (default: drawn at random)."


def seed_option(help: str, **kwargs) -> Any:
    """``--seed``: numpy seeds are non-negative integers."""
    return typer.Option("--seed", help=help, callback=whole_range(0, MAX_SEED), **kwargs)


MemoryOpt = Annotated[
    Optional[float],
    typer.Option(
        "--memory-limit",
        help="Largest score table to build, in GiB (default 2).",
        show_default=False,
        callback=_number_check("GiB", MAX_GIB),
    ),
]


GameArg = Annotated[
    Optional[str],
    typer.Argument(metavar="RULES", show_default=False, help="The game, e.g. p4c6 (same as --rules)."),
]


def resolve_rules(
    rules: str | None, pegs: int | None, colors: int | None, no_repeat: bool, game: str | None = None
) -> Rules:
    """The game given once: as RULES, ``--rules`` or ``--pegs/--colors/--no-repeat``; default p4c6."""
    if game is not None:
        if rules is not None or pegs is not None or colors is not None or no_repeat:
            raise MastermindError(
                f"the game is given twice: {game} and --rules/--pegs/--colors/--no-repeat; give it once"
            )
        return Rules.parse(game)
    if rules is not None:
        if pegs is not None or colors is not None or no_repeat:
            raise MastermindError("give either --rules or --pegs/--colors/--no-repeat, not both")
        return Rules.parse(rules)
    base = Rules()
    return Rules(
        base.pegs if pegs is None else pegs, base.colors if colors is None else colors, not no_repeat
    )


def fail(message: str, code: int = 2) -> None:
    """Print one line to standard error and exit."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def game_command(
    app: typer.Typer, name: str | None = None, *, memory: bool = True, game_argument: bool = False, **kwargs
) -> Callable:
    """Register ``fn(rules, json_output, [memory_limit], ...)`` as a command with the shared options.

    With ``game_argument`` the game may also be given as an argument (``game-value p4c6``).
    """

    def decorate(fn: Callable) -> Callable:
        sig = inspect.signature(fn)
        # resolve string annotations (modules with `from __future__ import annotations`), or
        # typer would lose the options' names and help
        hints = typing.get_type_hints(fn, include_extras=True)
        own = [
            p.replace(annotation=hints.get(n, p.annotation))
            for n, p in sig.parameters.items()
            if n not in ("rules", "json_output", "memory_limit", "rules_given")
        ]
        kw = inspect.Parameter.KEYWORD_ONLY
        if game_argument:
            own.insert(
                0,
                inspect.Parameter(
                    "game", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=GameArg
                ),
            )
        extra = [
            inspect.Parameter("rules_text", kw, default=None, annotation=RulesOpt),
            inspect.Parameter("pegs", kw, default=None, annotation=PegsOpt),
            inspect.Parameter("colors", kw, default=None, annotation=ColorsOpt),
            inspect.Parameter("no_repeat", kw, default=False, annotation=NoRepeatOpt),
            inspect.Parameter("json_output", kw, default=False, annotation=JsonOpt),
        ]
        if memory:
            extra.append(inspect.Parameter("memory_limit", kw, default=None, annotation=MemoryOpt))
        wants_memory = "memory_limit" in sig.parameters
        wants_given = "rules_given" in sig.parameters  # may take the game from elsewhere (a file)

        @functools.wraps(fn)
        def wrapper(**values: Any) -> Any:
            with one_line_errors(memory_option=memory):
                if wants_given:
                    values["rules_given"] = values["no_repeat"] or any(
                        values.get(k) is not None for k in ("rules_text", "pegs", "colors", "game")
                    )
                rules = resolve_rules(
                    values.pop("rules_text"),
                    values.pop("pegs"),
                    values.pop("colors"),
                    values.pop("no_repeat"),
                    values.pop("game", None),
                )
                gib = values.pop("memory_limit", None)
                if wants_memory:
                    values["memory_limit"] = memory_limit_bytes(gib)
                return fn(rules=rules, **values)

        wrapper.__signature__ = sig.replace(parameters=own + extra)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in own + extra}
        app.command(name, cls=Command, **kwargs)(wrapper)
        return fn

    return decorate


def exit_if_interrupted(stopped: str | None) -> None:
    """After the report of work that stopped early: exit code 130 for Ctrl-C (a time limit
    is an answer: exit code 0)."""
    if stopped == "interrupted":
        raise typer.Exit(130)


def anytime_fields(proven: bool, lower: Any, upper: Any, stopped: str | None) -> dict:
    """What every long command's ``--json`` says about how far it got."""
    data = {"proven": proven, "lower_bound": lower, "upper_bound": upper}
    if stopped:
        data["stopped"] = stopped
    return data


def memory_limit_bytes(gib: float | None) -> int:
    if gib is None:
        return DEFAULT_MEMORY_LIMIT
    if not math.isfinite(gib) or gib <= 0:
        raise MastermindError(f"--memory-limit must be a positive number of GiB, got {gib}")
    return int(gib * 1024**3)


class one_line_errors:
    """Context manager: a :class:`MastermindError` becomes ``error: ...`` and exit code 2;
    ``memory_option``: the command takes ``--memory-limit`` (said where a table is too large)."""

    def __init__(self, memory_option: bool = False) -> None:
        self.memory_option = memory_option

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is not None and issubclass(exc_type, MastermindError):
            advice = (
                "; raise it with --memory-limit" if self.memory_option and exc_type is TableTooLarge else ""
            )
            typer.echo(f"error: {exc}{advice}", err=True)
            raise typer.Exit(2)
        if exc_type is not None and issubclass(exc_type, MemoryError):
            typer.echo("error: out of memory; try a smaller game or --memory-limit", err=True)
            raise typer.Exit(2)
        return False


def table_for(rules: Rules, memory_limit: int = DEFAULT_MEMORY_LIMIT, full: bool = True) -> CodeTable:
    return CodeTable(rules, full=full, memory_limit=memory_limit)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2) + "\n")
    sys.stdout.flush()


PIPED_WIDTH = 10_000  # piped output is read by programs and wide pagers: never wrap tables


def console(stderr: bool = False):
    """A rich console on standard output, or on standard error when that one carries the
    answer itself (plain text, and tables at full width, when piped)."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # the reader left (``| head``): ended by the command line as for other output,
            # exit code 0 (rich would exit with 1)
            self.quiet = True
            raise BrokenPipeError

    stream = sys.stderr if stderr else sys.stdout
    piped = not (hasattr(stream, "isatty") and stream.isatty())
    return _Console(soft_wrap=True, width=PIPED_WIDTH if piped else None, stderr=stderr)


def histogram_text(hist: list[int]) -> str:
    return " ".join(str(h) for h in hist)
