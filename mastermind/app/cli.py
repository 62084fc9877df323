"""The ``mastermind`` command: a thin typer shell over the library.

Every command lives in a module of :mod:`mastermind.app.commands` with a ``register(app)``.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from mastermind.app.helpstyle import Group
from mastermind.app.commands import basics, play, files, heuristics, reports, gamevalue, exact, results

app = typer.Typer(
    name="mastermind",
    cls=Group,
    help="Optimal and heuristic strategies for generalized Mastermind.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("mastermind")
        except PackageNotFoundError:  # pragma: no cover - run from a source tree, not installed
            number = "unknown (not installed)"
        typer.echo(f"mastermind {number}")
        raise typer.Exit(0)


@app.callback()
def _top(
    show_version: Annotated[bool, typer.Option("--version", help="Print the version and exit.",
                                               is_eager=True, callback=_version)] = False,
) -> None:
    """Optimal and heuristic strategies for generalized Mastermind."""


for _module in (basics, play, files, heuristics, reports, gamevalue, exact, results):
    _module.register(app)


def main(argv: list[str] | None = None) -> int:
    """Entry point: usage errors become one line and exit code 2, as bad values do."""
    argv = _old_spellings(sys.argv[1:] if argv is None else list(argv))
    try:
        result = app(args=argv, prog_name="mastermind", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        # typer's (vendored) click: its Exit, Abort and usage errors, known by their shape
        name = type(exc).__name__
        if name == "Exit" and hasattr(exc, "exit_code"):
            return exc.exit_code
        if name == "Abort":
            print(file=sys.stderr)
            return 130
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            return _internal_error(exc)
        if name == "NoArgsIsHelpError":
            print(exc.format_message(), file=sys.stderr)
            return 2
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return exc.exit_code
    return result if isinstance(result, int) else 0


def _old_spellings(argv: list[str]) -> list[str]:
    """``optimal --tie-break`` was a flag: alone it still means ``--tie-break worst``."""
    if "optimal" not in argv or "--tie-break" not in argv:
        return argv
    out = []
    for i, arg in enumerate(argv):
        out.append(arg)
        following = argv[i + 1] if i + 1 < len(argv) else None
        if arg == "--tie-break" and (following is None or following.startswith("-")):
            out.append("worst")
    return out


def _internal_error(exc: BaseException) -> int:
    """A bug, not bad input: one line naming it (MASTERMIND_DEBUG=1 shows the traceback)."""
    if os.environ.get("MASTERMIND_DEBUG"):
        raise exc
    detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
    print(f"internal error: {type(exc).__name__}{': ' + detail if detail else ''} "
          f"(a bug: please report it; MASTERMIND_DEBUG=1 shows where)", file=sys.stderr)
    return 70


def run() -> None:  # pragma: no cover - console script
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
