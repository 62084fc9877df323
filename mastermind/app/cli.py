"""The ``mastermind`` command: a thin typer shell over the library.

Every command lives in a module of :mod:`mastermind.app.commands` with a ``register(app)``.
"""

from __future__ import annotations

import errno
import importlib
import io
import os
import signal
import sys
from typing import Annotated, Any

import typer

from mastermind.app.helpstyle import Group
from mastermind.app.interrupts import interrupt_handling
from mastermind.app.numba_colours import quiet_numba_colours

try:  # the click that typer runs on: a copy of its own (typer 0.2x), whose errors derive from typer's
    from typer._click.exceptions import BadParameter, MissingParameter, NoArgsIsHelpError, NoSuchOption
    from typer._click.utils import PacifyFlushWrapper
    from typer.exceptions import TyperException as ClickException
except ImportError:  # pragma: no cover - an earlier typer runs on click itself
    from click.exceptions import (
        BadParameter,
        ClickException,
        MissingParameter,
        NoArgsIsHelpError,
        NoSuchOption,
    )
    from click.utils import PacifyFlushWrapper

# the commands of each module of mastermind.app.commands, in the order --help lists them:
# a command imports only its own module (start-up), --help and unknown names import all
COMMANDS = {
    "basics": ("info", "score", "partition"),
    "play": ("assist", "play", "solve"),
    "files": ("export", "verify"),
    "heuristics": ("heuristics", "strategies", "simulate"),
    "table": ("table",),
    "compare": ("compare", "plot"),
    "bounds": ("bounds",),
    "cpsat": ("cpsat",),
    "static": ("static",),
    "gamevalue": ("game-value",),
    "exact": ("optimal",),
    "publish": ("results",),
}


def _version(value: bool) -> None:
    if value:
        from mastermind.app.version import version_string

        typer.echo(f"mastermind {version_string()}")
        raise typer.Exit(0)


def _top(
    show_version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True, callback=_version)
    ] = False,
) -> None:
    """Optimal and heuristic strategies for generalized Mastermind."""


class _Commands(Group):
    """The group, saying "interrupted" for a command that Ctrl-C ends with nothing to report
    (a heuristic's tree half built): typer would turn it into exit code 130 silently; and
    ending a command whose reader left (``| head``) with exit code 0, as output written
    after the command does (typer would exit with 1)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise typer.Exit(_interrupted()) from None
        except BrokenPipeError:
            _silence_stdout()
            raise typer.Exit(0) from None


def build_app(modules: tuple[str, ...] = tuple(COMMANDS)) -> typer.Typer:
    """The ``mastermind`` group with the commands of ``modules`` (default: every command)."""
    group = typer.Typer(
        name="mastermind",
        cls=_Commands,
        help="Optimal and heuristic strategies for generalized Mastermind.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    group.callback()(_top)
    for name in modules:
        importlib.import_module(f"mastermind.app.commands.{name}").register(group)
    return group


def modules_for(argv: list[str]) -> tuple[str, ...]:
    """The command modules ``argv`` needs: the one of its command, none for ``--version``,
    or all of them (``--help``, no arguments, a misspelt name: the commands are listed)."""
    command = next((a for a in argv if not a.startswith("-")), None)
    for module, names in COMMANDS.items():
        if command in names:
            return (module,)
    if command is None and argv and not {"-h", "--help"} & set(argv):
        return ()  # --version, or an unknown option: no command is shown
    return tuple(COMMANDS)


def __getattr__(name: str) -> Any:
    """``app``: the group with every command (built on first use, PEP 562)."""
    if name == "app":
        globals()["app"] = value = build_app()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """Entry point: usage errors become one line and exit code 2, as bad values do."""
    argv = sys.argv[1:] if argv is None else list(argv)
    _open_closed_streams()
    with interrupt_handling():
        return _main(argv)


def _open_closed_streams() -> None:
    """A standard stream closed by the caller (``<&-``, ``>&-``; None in Python), or open
    only for reading (what a wrapper script may leave), is read as empty; standard error is
    written to nowhere (the exit code still tells); standard output, which holds the answer,
    fails at its first write as a full disk does ("cannot write the output", exit 2): it
    exited 0 with the answer lost. The descriptor itself is given /dev/null first, so that
    no file this command opens takes its number (and with it, whatever a library writes
    there)."""
    for fd in (0, 1, 2):  # (each os.open takes the lowest free number: this one)
        if not _fd_open(fd):
            os.open(os.devnull, os.O_RDWR)
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")
    if sys.stderr is None or not _writable(sys.stderr):
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if sys.stdout is None or not _writable(sys.stdout):
        sys.stdout = _ClosedOutput()


def _fd_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _writable(stream: Any) -> bool:
    """Whether a standard stream's descriptor takes writes (True where there is none to ask:
    a test's capture)."""
    try:
        import fcntl

        flags = fcntl.fcntl(stream.fileno(), fcntl.F_GETFL)
    except (OSError, ValueError, AttributeError, ImportError):
        return True
    return flags & os.O_ACCMODE != os.O_RDONLY


class _ClosedOutput(io.TextIOBase):
    """Standard output that the caller closed: every write fails, as writing to a closed
    descriptor does (EBADF), said in words."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return 1  # (/dev/null: given it by _open_closed_streams)


def _main(argv: list[str]) -> int:
    to_nowhere = _stdout_is_devnull()
    try:
        group = build_app(modules_for(argv))
        result = group(args=argv, prog_name="mastermind", standalone_mode=False)
        sys.stdout.flush()  # here, not at exit, so that a full disk is reported like any error
    except typer.Exit as exc:
        return exc.exit_code
    except SystemExit as exc:
        # typer's and rich's own answers to a reader that left while help was printed: exit
        # code 1 (typer wraps the streams, rich points standard output to /dev/null); exit 0,
        # as for the commands' output
        left = isinstance(sys.stdout, PacifyFlushWrapper) or (not to_nowhere and _stdout_is_devnull())
        if exc.code == 1 and left:
            _silence_stdout()
            return 0
        raise
    except (typer.Abort, KeyboardInterrupt):
        return _interrupted()
    except BrokenPipeError:  # the reader left (``| head``): what it did not read is not needed
        _silence_stdout()
        return 0
    except OSError as exc:  # the system refused: a full disk, an unwritable folder; not a bug
        return _os_error(exc)
    except NoArgsIsHelpError as exc:
        message = exc.format_message()  # (the help itself went to standard output)
        if message.strip():
            print(message, file=sys.stderr)
        return 2
    except BadParameter as exc:  # one style for every bad value: the option (or argument), what is wrong
        param = exc.param
        if param is None or isinstance(exc, MissingParameter):
            print(f"error: {exc.format_message()}", file=sys.stderr)
            return exc.exit_code
        longs = [o for o in getattr(param, "opts", ()) if o.startswith("--")]
        where = longs[0] if longs else param.human_readable_name
        print(f"error: {where}: {_in_our_words(exc.message)}", file=sys.stderr)
        return 2
    except ClickException as exc:  # click's usage errors: one line
        if isinstance(exc, NoSuchOption):
            exc.possibilities = _closest_options(exc)
        print(f"error: {exc.format_message()}{_extra_hint(exc, argv)}", file=sys.stderr)
        return exc.exit_code
    except Exception as exc:
        return _internal_error(exc)
    return result if isinstance(result, int) else 0


def _extra_hint(exc: ClickException, argv: list[str]) -> str:
    """For a word left over after an option's value (``--games p2c3 p3c3``), what the option
    takes: "Got unexpected extra argument (p3c3)" named neither the option nor the way to
    give several values."""
    ctx = getattr(exc, "ctx", None)
    if ctx is None or not exc.format_message().startswith("Got unexpected extra argument"):
        return ""
    extras = exc.format_message().rpartition("(")[2].rstrip(")").split()
    at = next((i for i in range(2, len(argv)) if extras and argv[i] == extras[0]), None)
    if at is None or not argv[at - 2].startswith("-"):
        return ""
    name, value = argv[at - 2], argv[at - 1]
    option = next((p for p in ctx.command.params if name in getattr(p, "opts", ())), None)
    if option is None:
        return ""
    if getattr(option, "multiple", False):
        return f": {name} takes one value each time; give several as {name} {value},{','.join(extras)}"
    return f": {name} takes one value"


def _closest_options(exc: NoSuchOption) -> list[str]:
    """The command's long options a mistyped one may have meant (click's difflib suggested
    ``--jobs, --out`` for ``optimal --bogus``): see :func:`closest_names`."""
    ctx = getattr(exc, "ctx", None)
    if ctx is None or not exc.option_name.startswith("--"):
        return []
    names = {
        o for p in ctx.command.get_params(ctx) for o in (*p.opts, *p.secondary_opts) if o.startswith("--")
    }
    return closest_names(exc.option_name, sorted(names))


def closest_names(typed: str, names: list[str], most: int = 3) -> list[str]:
    """The names ``typed`` is a slip of: within an edit distance (a letter added, left out,
    changed or two swapped) of a third of its length (at least 1), or begun by it (3
    letters or more, as ``--mem`` for ``--memory-limit``); the nearest first, at most ``most``;
    none when nothing is near (better than an unrelated suggestion).

    >>> from mastermind.app.cli import closest_names
    >>> closest_names("--bogus", ["--jobs", "--json", "--out"])
    []
    >>> closest_names("--frist", ["--first", "--format"]), closest_names("--jbos", ["--jobs", "--json"])
    (['--first'], ['--jobs'])
    >>> closest_names("--mem", ["--memory-limit", "--max-guesses"])
    ['--memory-limit']
    """
    word = typed.lstrip("-")
    allowed = max(1, len(word) // 3)
    scored = []
    for name in names:
        bare = name.lstrip("-")
        distance = _edits(word, bare)
        if distance <= allowed or (len(word) >= 3 and bare.startswith(word)):
            scored.append((distance, name))
    return [name for _, name in sorted(scored)[:most]]


def _edits(a: str, b: str) -> int:
    """The edit distance of ``a`` and ``b``, a swap of two neighbouring letters counting one
    (optimal string alignment).

    >>> from mastermind.app.cli import _edits
    >>> _edits("jbos", "jobs"), _edits("bogus", "jobs"), _edits("", "out")
    (1, 3, 3)
    """
    before, row = None, list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            cost = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (x != y))
            if before is not None and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        before, row = row, current
    return row[-1]


def _os_error(exc: OSError) -> int:
    """One line for an error of the system (exit 2, as for a file that cannot be written)."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        print(f"error: {exc.filename}: {reason}", file=sys.stderr)
    else:
        print(f"error: cannot write the output: {reason}", file=sys.stderr)
    _silence_stdout()
    return 2


def _stdout_is_devnull() -> bool:
    try:
        here, nowhere = os.fstat(sys.stdout.fileno()), os.stat(os.devnull)
    except (OSError, ValueError, AttributeError):  # no real descriptor behind sys.stdout (tests)
        return False
    return (here.st_dev, here.st_ino) == (nowhere.st_dev, nowhere.st_ino)


def _silence_stdout() -> None:
    """Standard output to nowhere: what could not be written would fail again (with a
    message and another exit code) when Python flushes it at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real descriptor behind sys.stdout (tests)
        pass


_CLICK_TYPES = {"int": "a whole number", "float": "a number", "integer": "a whole number"}


def _in_our_words(message: str) -> str:
    """Click's "'abc' is not a valid int." said as every other refusal of a value is:
    what it must be, then what was given.

    >>> from mastermind.app.cli import _in_our_words
    >>> _in_our_words("'abc' is not a valid float."), _in_our_words("must be at most 5")
    ("must be a number, got 'abc'", 'must be at most 5')
    """
    import re

    found = re.fullmatch(r"(.*) is not a valid (\w+)\.?", message, flags=re.DOTALL)
    if found is None or found.group(2) not in _CLICK_TYPES:
        return message
    return f"must be {_CLICK_TYPES[found.group(2)]}, got {found.group(1)}"


def _interrupted() -> int:
    """After Ctrl-C with nothing to report: a line saying so (on a line of its own after
    the ^C a terminal echoes)."""
    at_terminal = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    print("\ninterrupted" if at_terminal else "interrupted", file=sys.stderr)
    return 130


def debugging() -> bool:
    """Whether MASTERMIND_DEBUG asks for tracebacks: set, and not 0, false, no, off or empty.

    >>> from mastermind.app.cli import debugging
    >>> import os; os.environ["MASTERMIND_DEBUG"] = "0"; debugging()
    False
    >>> os.environ["MASTERMIND_DEBUG"] = "1"; debugging()
    True
    >>> del os.environ["MASTERMIND_DEBUG"]
    """
    value = os.environ.get("MASTERMIND_DEBUG", "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


def _internal_error(exc: BaseException) -> int:
    """A bug, not bad input: one line naming it (MASTERMIND_DEBUG=1 shows the traceback)."""
    from mastermind.app.interrupts import interrupted

    debug = debugging()
    if interrupted() and not debug:
        # Ctrl-C inside an import or a library turns into other errors (ImportError: initialization failed)
        print("interrupted", file=sys.stderr)
        return 130
    if debug:  # the traceback, and the exit code of a bug all the same (1 is a "no" answer)
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
        return 70
    detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
    print(
        f"internal error: {type(exc).__name__}{': ' + detail if detail else ''} "
        f"(a bug: please report it; MASTERMIND_DEBUG=1 shows where)",
        file=sys.stderr,
    )
    return 70


def run() -> None:  # pragma: no cover - console script
    quiet_numba_colours()
    code = main()
    if code == 130:
        # after Ctrl-C, leave at once: freeing a big search's memory can take seconds
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    # the answer is out: a Ctrl-C while the interpreter shuts down (0.2-0.4 s: freeing the
    # libraries' state, joining their threads) is ignored. It gave exit 130 after a complete
    # report that said nothing had stopped; a handler of Python's own would not do, as the
    # shutdown puts back the default one (which ends the process) before those last steps
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
