"""The ``mastermind`` command: a thin typer shell over the library.

Every command lives in a module of :mod:`mastermind.app.commands` with a ``register(app)``.
"""

from __future__ import annotations

import sys

import typer

from mastermind.app.commands import basics, play, files, heuristics, reports, gamevalue, exact, results

app = typer.Typer(
    name="mastermind",
    help="Optimal and heuristic strategies for generalized Mastermind.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in (basics, play, files, heuristics, reports, gamevalue, exact, results):
    _module.register(app)


def main(argv: list[str] | None = None) -> int:
    """Entry point: usage errors become one line and exit code 2, as bad values do."""
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
            raise
        if name == "NoArgsIsHelpError":
            print(exc.format_message(), file=sys.stderr)
            return 2
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return exc.exit_code
    return result if isinstance(result, int) else 0


def run() -> None:  # pragma: no cover - console script
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
