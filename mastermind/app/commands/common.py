"""What every command shares: its options (each declared once, here), errors and output.

The one vocabulary of the command line: an idea has one option name, one meaning and one
default in every command that has it (see "One vocabulary" in the README). A command lists
the options it takes as parameters annotated with the aliases below, the way typer reads
them; :func:`command` registers it and turns a :class:`MastermindError` into one line and
exit code 2.

>>> from mastermind.app.commands.common import parse_games
>>> parse_games(["p2-3c2,p4c4n"])
['p2c2r', 'p3c2r', 'p4c4n']
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Optional

import typer

from mastermind.app.helpstyle import Command
from mastermind.app.interactive.text import plural
from mastermind.app.interrupts import (  # noqa: F401  - shared by the commands
    answered,
    command_clock,
    command_token,
    command_work,
    limit_note,
    stopped_text,
)
from mastermind.core.cancel import StopReason
from mastermind.core.errors import MastermindError, OutOfReach, TableTooLarge, naming
from mastermind.core.fileio import release_held_pipes
from mastermind.core.game import (
    DEFAULT_MEMORY_LIMIT,
    MAX_COLORS,
    MAX_PEGS,
    CodeTable,
    Rules,
    check_fits,
    count_of,
    rules_grammar,
)
from mastermind.core.pools import POOLS
from mastermind.core.progress import PROGRESS_MODES
from mastermind.core.rounding import ceil_decimal, ceil_float, floor_decimal, floor_float  # noqa: F401
from mastermind.core.variant import find_variant
from mastermind.core.words import quoted

MAX_THREADS = 1024  # --jobs beyond this is a typing error, not a machine
MAX_SEED = 2**63 - 1  # seeds travel as int64 (numba, numpy)
MAX_SECONDS = 10**7  # about four months: time limits beyond are typing errors
MAX_GIB = 2**20  # a pebibyte
DEFAULT_ROW_SECONDS = 600.0  # --row-time-limit: what one game of a table may take
HISTOGRAM_WORDS = "secrets solved with 1, 2, 3, ... guesses"  # every histogram, every command
HISTOGRAM_CAPTION = f"histogram: {HISTOGRAM_WORDS}"
HEURISTIC_TIE_BREAKS = ("default", "sorted", "random")
OPTIMAL_TIE_BREAKS = ("default", "worst")


# ---- checks run while the command line is read (before any work) -------------------------
def _number_check(
    unit: str, most: float, zero_ok: bool = False, *, none_if_left_out: bool = True
) -> Callable:
    """A typer callback refusing nan, inf, negative numbers, 0 unless ``zero_ok``, and more
    than ``most`` (a typing error, and past what the solvers' timers and sizes take).
    ``none_if_left_out``: the option left out means no limit (said to who gives inf)."""

    def check(value: float | None) -> float | None:
        if value is None:
            return None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
            least = "0 or more" if zero_ok else "a positive number of"
            # (inf is positive: say what is wrong with it, and how to ask for no limit)
            endless = " (finite; for no time limit leave the option out)" if value == math.inf else ""
            if endless and (unit != "seconds" or not none_if_left_out):
                endless = f" (finite: at most {most:,.12g} {unit})"
            raise typer.BadParameter(f"must be {least} {unit}, got {value:g}{endless}")
        if value > most:
            raise typer.BadParameter(f"must be at most {most:,.12g} {unit}, got {value:g}")
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


def unknown_value(value: str, allowed: Sequence[str], extra: str = "") -> typer.BadParameter:
    """The one message for a value that is not one of the choices (every option says it so)."""
    return typer.BadParameter(f"unknown value {quoted(value)}; use one of {', '.join(allowed)}{extra}")


def choice(allowed: Sequence[str], fold: bool = True) -> Callable:
    """A typer callback refusing a value that is not one of ``allowed`` (``fold``: any case,
    read in lower case, as every choice of the command line is: ``--pool CONSISTENT`` was
    refused where ``--format IRVING`` was read)."""

    def check(value: str | None) -> str | None:
        if value is None:
            return None
        key = value.strip().lower() if fold else value
        if key not in allowed:
            raise unknown_value(value, allowed)
        return key

    return check


def _strategy_check(value: Any) -> Any:
    """``-s``: a strategy's name or a strategy file (see :mod:`mastermind.app.strategy_files`)."""
    from mastermind.engines.registry import NAMES

    for name in value if isinstance(value, list) else [value]:
        if name is None or name in NAMES:
            continue
        # (only now: reading files loads numpy, which an answer from the result cache needs not)
        from mastermind.app.strategy_files import names_a_file

        if not names_a_file(name):
            raise unknown_value(name, NAMES, ", or a strategy file (.json or Irving .txt)")
    return value


def _rules(value: Any) -> Rules:
    """``--rules``: read while the command line is read, so that bad rules are refused first."""
    if isinstance(value, Rules):
        return value
    try:
        return Rules.parse(str(value))
    except MastermindError as exc:
        raise typer.BadParameter(str(exc)) from None


# ---- the options, each declared once ------------------------------------------------------
def _rules_option(default: str) -> Any:
    """``--rules``/``-r``; ``default`` says what the game is when it is not given."""
    return typer.Option(
        "--rules",
        "-r",
        parser=_rules,
        metavar="RULES",
        help="The game: pPEGScCOLOURS or PEGSxCOLOURS, then r (repetition, the default) or n (no colour "
        "twice), then b for black-peg Mastermind (answers of black pegs only), e.g. p4c6n, 4x6n or p4c6b. "
        + default,
        show_default=False,
    )


RulesOpt = Annotated[Optional[Rules], _rules_option("Default p4c6.")]
# (the same option, for a command whose --strategy may be a file: that file names the game)
StrategyRulesOpt = Annotated[
    Optional[Rules], _rules_option("Default: the game of a strategy file given with --strategy, else p4c6.")
]
# (the same option, for a command that reads a strategy file)
FileRulesOpt = Annotated[
    Optional[Rules],
    _rules_option("Default: the game the file names (for Irving text, the one its root tells, else p4c6)."),
]
GamesOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--games",
        "-g",
        metavar="LIST",
        help="Games, comma-separated, with ranges: p3c3,p4c6n or p2-4c2-6 (or 3x3,4x6n; repeat the "
        "option to add more). Default: the table's own games (table: p2-4c2-6; results: those "
        "results/ publishes).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]


def memory_option(help: str) -> Any:
    """``--memory-limit GIB``, said as the command uses it."""
    return typer.Option(
        "--memory-limit",
        metavar="GIB",
        help=help,
        show_default=False,
        callback=_number_check("GiB", MAX_GIB),
    )


MemoryOpt = Annotated[
    Optional[float],
    memory_option(
        "Most memory for the score table and the searches, in GiB (default 2); more is refused "
        "before any work."
    ),
]
LeanMemoryOpt = Annotated[
    Optional[float],
    memory_option(
        "Most memory for the score table and any search, in GiB (default 2): a score table "
        "that does not fit is not built, and answers are computed as needed (slower, the same "
        "results); what cannot work within it is refused before any work."
    ),
]
TimeLimitOpt = Annotated[
    Optional[float],
    typer.Option(
        "--time-limit",
        metavar="SECONDS",
        help="Stop the whole command this many seconds after it starts (once Python has loaded "
        "the command line, about half a second) and report what it has (exit 0), within a "
        "fraction of a second. The start-up counts: loading the compiled kernels (a second or "
        "two; longer on a first run, which compiles them) is within the limit and is not cut "
        "short, so a limit of a few seconds leaves little for the work. Default: none.",
        show_default=False,
        callback=_number_check("seconds", MAX_SECONDS),
    ),
]
RowTimeLimitOpt = Annotated[
    float,
    typer.Option(
        "--row-time-limit",
        metavar="SECONDS",
        help="Most seconds for the optimum's search in one game's row, which then shows the bounds "
        "proven; what every row shows besides (heuristics, lower bounds: a second on small games, "
        "minutes at the frontier) comes on top.",
        callback=_number_check("seconds", MAX_SECONDS, none_if_left_out=False),  # (its default: 600)
    ),
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        callback=whole_range(0, MAX_THREADS),
        help="Threads or processes to use (0: every core).",
    ),
]
SeedOpt = Annotated[
    Optional[int],
    typer.Option(
        "--seed",
        metavar="N",
        callback=whole_range(0, MAX_SEED),
        help="Seed of every random choice (default: drawn at random and reported; the same seed "
        "repeats the run).",
        show_default=False,
    ),
]
ProgressOpt = Annotated[
    str,
    typer.Option(
        "--progress",
        metavar="|".join(PROGRESS_MODES),
        callback=choice(PROGRESS_MODES),
        help="auto (a bar on a terminal, none with --json or piped), bar, json (one line per step on "
        "stderr) or none.",
    ),
]
NoCacheOpt = Annotated[
    bool,
    typer.Option(
        "--no-cache",
        help="Compute again: neither read nor keep the answer in the result cache (~/.cache/mastermind).",
    ),
]


def _strategy_help(default: str) -> str:
    from mastermind.engines.registry import names_text

    return f"Strategy: {names_text()} (see `mastermind strategies`), or a strategy file. {default}"


STRATEGY_METAVAR = "NAME|FILE"


def _strategy_option(stdin: bool) -> Any:
    """``-s NAME|FILE``: one strategy; ``stdin``, whether ``-`` reads it from standard input
    (not in a session, whose moves come from there)."""
    return typer.Option(
        "--strategy",
        "-s",
        metavar=STRATEGY_METAVAR,
        callback=_strategy_check,
        help="Strategy: a name (see `mastermind strategies`) or a strategy file (JSON or Irving "
        + ("text; - reads standard input)." if stdin else "text)."),
    )


StrategyOpt = Annotated[str, _strategy_option(stdin=True)]
SessionStrategyOpt = Annotated[str, _strategy_option(stdin=False)]


def strategies_option(default: str) -> Any:
    """``-s NAME|FILE`` repeated: the strategies a command plays or draws."""
    return typer.Option(
        "--strategy",
        "-s",
        metavar=STRATEGY_METAVAR,
        callback=_strategy_check,
        show_default=False,
        help="Strategy (repeat for several): a name (see `mastermind strategies`) or a strategy file "
        "(- reads standard input). " + default,
    )


StrategiesOpt = Annotated[Optional[list[str]], strategies_option("Default: every heuristic.")]
PoolOpt = Annotated[
    str,
    typer.Option(
        "--pool",
        metavar="|".join(POOLS),
        callback=choice(POOLS),
        help="Guesses a strategy may make: all codes, or only consistent ones (still possible).",
    ),
]
TieBreakOpt = Annotated[
    str,
    typer.Option(
        "--tie-break",
        metavar="|".join(HEURISTIC_TIE_BREAKS),
        callback=choice(HEURISTIC_TIE_BREAKS),
        help="Among guesses a heuristic scores equal: default (a candidate, then the lowest code), "
        "sorted (sorted class sizes first) or random (by --seed).",
    ),
]
OptimalTieBreakOpt = Annotated[
    str,
    typer.Option(
        "--tie-break",
        metavar="|".join(OPTIMAL_TIE_BREAKS),
        callback=choice(OPTIMAL_TIE_BREAKS),
        help="Among optimal strategies: default (the first found) or worst (the smaller worst case, then "
        "fewer secrets at it).",
    ),
]
StartFromOpt = Annotated[
    Optional[str],
    typer.Option(
        "--start-from",
        metavar="FILE",
        help=(
            "A strategy tree to start from (JSON, .json.gz or Irving text, as `verify` reads):"
            " its total is the first upper bound, and a search stopped early reports it if it"
            " found nothing cheaper."
        ),
        show_default=False,
    ),
]
CheckpointOpt = Annotated[
    Optional[str],
    typer.Option(
        "--checkpoint",
        metavar="DIR",
        help="Folder that keeps every finished piece of work; the same command run again continues.",
        show_default=False,
    ),
]


def out_option(help: str, **kwargs: Any) -> Any:
    """``--out/-o``: where the command writes what it makes (``-``: standard output)."""
    return typer.Option("--out", "-o", metavar=kwargs.pop("metavar", "FILE"), help=help, **kwargs)


# ---- registering a command ----------------------------------------------------------------
def command(app: typer.Typer, name: str, *, help: str, **kwargs: Any) -> Callable:
    """Register ``fn`` as command ``name`` (its parameters are its options, as typer reads
    them); a :class:`MastermindError` it raises becomes one line and exit code 2."""

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def run(*args: Any, **values: Any) -> Any:
            limit = values.get("time_limit")  # (--time-limit, where the command has it)
            try:
                with command_clock(limit if isinstance(limit, (int, float)) else None), one_line_errors():
                    return fn(*args, **values)
            finally:  # (a named pipe held for an output that never came: its reader sees the end)
                release_held_pipes()

        app.command(name, cls=Command, help=help, **kwargs)(run)
        return fn

    return decorate


def game(rules: Rules | None) -> Rules:
    """The game of ``--rules``, p4c6 when it was not given."""
    return Rules() if rules is None else rules


_NUMBERS = r"([0-9]+)(?:-([0-9]+))?"
_GAME = rules_grammar(_NUMBERS)
"""A game of ``--games``: the rules grammar, each number perhaps a range."""


def parse_games(texts: Sequence[str]) -> list[str]:
    """``--games``: each text a comma-separated list of games, a game ``pPcC`` or ``PxC`` with an
    optional ``r`` or ``n`` and a variant's suffix (``b``), ``P`` and ``C`` a number or a range
    ``a-b``; the games as rules text (``p4c6r``), each once, in the order given. Without
    repetition a range leaves out the games with fewer colours than pegs.

    >>> from mastermind.app.commands.common import parse_games
    >>> parse_games(["p4c6", "p2c2-3n,p4c6r", "5x8", "p2-3c2b"])
    ['p4c6r', 'p2c2n', 'p2c3n', 'p5c8r', 'p2c2rb', 'p3c2rb']
    """
    games: dict[str, None] = {}
    for text in texts:
        items = [t.strip() for t in text.split(",")]
        if not any(items):
            raise MastermindError("--games: empty: give games such as p3c3,p4c6n or p2-4c2-6")
        for item in items:
            if not item:
                continue
            m = re.fullmatch(_GAME, item, re.I)
            if m is None:
                raise MastermindError(
                    f"--games: cannot read {quoted(item)}: "
                    "use games such as p4c6, p4c6n, 4x6n, p4c6b or ranges p2-4c2-6"
                )
            g = list(m.groups()[:4] if m.group(1) is not None else m.groups()[4:8])  # (or 4x6)
            pegs = _span(g[0], g[1], "pegs", MAX_PEGS, item)
            colours = _span(g[2], g[3], "colours", MAX_COLORS, item)
            repeat = m.group(9).lower() != "n"
            variant = find_variant(m.group(10))
            ranged = len(pegs) > 1 or len(colours) > 1
            found = False
            for p in pegs:
                for c in colours:
                    if ranged and not repeat and c < p:
                        continue  # p4c3n does not exist: a range leaves it out
                    with naming("--games"):
                        games[str(Rules(p, c, repeat, variant))] = None
                    found = True
            if not found:
                raise MastermindError(
                    f"--games: {quoted(item)} holds no game: without repetition colours must be at least pegs"
                )
    return list(games)


def _span(low: str, high: str | None, what: str, most: int, item: str) -> range:
    with naming(f"--games: {quoted(item)}"):
        a = count_of(low, what, most)
        b = a if high is None else count_of(high, what, most)
    if a > b:
        raise MastermindError(f"--games: {quoted(item)}: the range of {what} {a}-{b} is empty")
    for end in (a, b):
        if not 1 <= end <= most:
            raise MastermindError(f"--games: {quoted(item)}: {what} must be between 1 and {most}, got {end}")
    return range(a, b + 1)


def both_on_stdout(option: str, other: str, instead: str = "a file name") -> MastermindError:
    """The one refusal of two outputs on standard output (``--out -`` with ``--json``, say).

    >>> from mastermind.app.commands.common import both_on_stdout
    >>> print(both_on_stdout("--out", "--json"))
    --out - and --json both use standard output: give --out a file name
    """
    return MastermindError(f"{option} - and {other} both use standard output: give {option} {instead}")


def check_proof_name(path: str) -> None:
    """A proof file's name (``--proof``): JSON, gzip-compressed when it ends in ``.gz``; an
    ending that names no proof file is refused, as ``--out`` refuses one that names no
    format (``--proof x.txt`` wrote JSON); ``-`` and a name without an ending are taken.

    >>> from mastermind.app.commands.common import check_proof_name
    >>> check_proof_name("p4c6.proof.json.gz"), check_proof_name("-")
    (None, None)
    >>> check_proof_name("p.txt")
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: p.txt: .txt names no proof file (.json, perhaps .gz)
    """
    from mastermind.core.fileio import is_stdout

    name = os.path.basename(path).lower()
    if is_stdout(path) or name.endswith((".json", ".json.gz")):
        return
    stem, ending = os.path.splitext(name)
    if ending == ".gz":
        ending = os.path.splitext(stem)[1] + ending
    if ending:  # (a name without one is JSON, as --out takes it: /dev/full, a pipe)
        raise MastermindError(f"{path}: {ending} names no proof file (.json, perhaps .gz)")


def fail(message: str, code: int = 2) -> None:
    """Print one line to standard error and exit."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def write_after_work(option: str, write: Callable[[], None]) -> MastermindError | None:
    """Runs ``write`` (the output of work already done), its error of bad input said of
    ``option`` and returned rather than raised: a file that turns out unwritable only now
    (a full disk, a file size limit) must not lose the report of the work, which the
    command gives first and then ends with :func:`fail_after_report`."""
    try:
        with naming(option):
            write()
    except MastermindError as exc:
        return exc
    return None


def fail_after_report(error: MastermindError | None) -> None:
    """After a report whose output could not be written (see :func:`write_after_work`): the
    one line saying why, and exit code 2."""
    if error is not None:
        fail(f"{error}; nothing written, a file already there is left as it was")


def exit_if_interrupted(stopped: str | None) -> None:
    """After the report of work that stopped early: exit code 130 for Ctrl-C (a time limit
    is an answer: exit code 0)."""
    if stopped == StopReason.INTERRUPTED:
        raise typer.Exit(130)


def memory_limit_bytes(gib: float | None) -> int:
    """``--memory-limit`` in bytes (2 GiB when not given)."""
    if gib is None:
        return DEFAULT_MEMORY_LIMIT
    if not math.isfinite(gib) or gib <= 0:
        raise MastermindError(f"--memory-limit must be a positive number of GiB, got {gib:g}")
    return int(gib * 1024**3)


def jobs_value(jobs: int) -> int:
    """``--jobs`` as the engines take it: -1 for every core."""
    return -1 if jobs == 0 else jobs


def cores(jobs: int) -> int:
    """``--jobs`` as a number of threads (0: every core)."""
    import os

    return jobs if jobs > 0 else max(1, os.cpu_count() or 1)


def draw_seed(seed: int | None) -> tuple[int, bool]:
    """``--seed``: the seed given, or one drawn at random; and whether it was drawn."""
    if seed is not None:
        return seed, False
    import secrets

    return secrets.randbelow(2**31), True


def seed_note(seed: int, drawn: bool) -> str:
    """What a report says of a seed drawn at random: how to repeat the run."""
    return f"seed {seed} drawn: --seed {seed} repeats this run" if drawn else f"seed {seed}"


class one_line_errors:
    """Context manager: a :class:`MastermindError` becomes ``error: ...`` and exit code 2;
    a table too large says how to allow more."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is not None and issubclass(exc_type, MastermindError):
            advice = "; raise it with --memory-limit" if exc_type is TableTooLarge else ""
            typer.echo(f"error: {exc}{advice}", err=True)
            raise typer.Exit(2)
        if exc_type is not None and issubclass(exc_type, MemoryError):
            typer.echo("error: out of memory; try a smaller game or a lower --memory-limit", err=True)
            raise typer.Exit(2)
        return False


def heuristic_work(playing_heuristic: bool) -> int | None:
    """The bytes a code of a command's work without the table (see :func:`table_for`): a
    heuristic strategy keys every code as a guess; a strategy file only replays its tree."""
    from mastermind.core.game import GUESS_KEYS_BYTES, LEAN_WORK_BYTES

    return LEAN_WORK_BYTES + GUESS_KEYS_BYTES if playing_heuristic else None


def table_for(
    rules: Rules,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    full: bool = True,
    *,
    option: str = "--rules",
    without: bool = False,
    time_limit: float | None = None,
    work: int | None = None,
) -> CodeTable:
    """The game's table of codes, a game out of reach said of ``option`` (the one that named
    the game: ``--games`` in the commands that take several). ``without``: the command can
    do without the score table (it computes answers as needed), so the table's build stops
    with the command (Ctrl-C, or ``time_limit`` from the command's start), which then gets
    the codes alone: its work stops at once and reports (a Ctrl-C in p5c8's 2.5 s of table
    gave "interrupted" alone, and --time-limit 1 waited for it). ``work``: the bytes a code
    of the work without the table (:meth:`~mastermind.core.game.Rules.lean_bytes`; None:
    the usual)."""
    from mastermind.app.interrupts import work_follows
    from mastermind.core.cancel import Stopped
    from mastermind.core.game import LEAN_WORK_BYTES

    lean = LEAN_WORK_BYTES if work is None else work
    with naming(option, OutOfReach):
        if not (full and without):
            return CodeTable(rules, full=full, memory_limit=memory_limit, work=lean)
        with command_work(time_limit) as token, token.running():
            try:
                return CodeTable(rules, full=True, memory_limit=memory_limit, cancel=token)
            except Stopped:
                work_follows()  # (the command's work reports: a Ctrl-C waits for it)
        return CodeTable(rules, full=False, memory_limit=memory_limit, work=lean)


def check_reach(
    rules: Rules, memory_limit: int, *, full: bool = True, option: str = "--rules", work: int | None = None
) -> None:
    """:func:`~mastermind.core.game.check_fits`, a game out of reach said of ``option``."""
    from mastermind.core.game import LEAN_WORK_BYTES

    with naming(option, OutOfReach):
        check_fits(rules, memory_limit, full=full, work=LEAN_WORK_BYTES if work is None else work)


def print_json(obj: dict) -> None:
    """The one JSON object a command prints (see ``schemas/``)."""
    if not isinstance(obj, dict):  # pragma: no cover - every command prints one object
        raise TypeError("a command's JSON is one object")
    from mastermind.core.fileio import write_stdout

    write_stdout(json.dumps(obj, indent=2) + "\n")
    answered()


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
    return _Console(soft_wrap=True, width=PIPED_WIDTH if piped else None, stderr=stderr, highlight=False)


def histogram_text(hist: Sequence[int]) -> str:
    return " ".join(str(h) for h in hist)


STOP_WORDS = {
    StopReason.TIME_LIMIT: "stopped by the time limit",
    StopReason.INTERRUPTED: "interrupted",
    StopReason.ITERATION_LIMIT: "stopped at the iteration limit",
}


def stop_words(reason: str) -> str:
    """Why work stopped, as words inside a sentence (``stopped (time limit)`` begins one)."""
    return STOP_WORDS.get(reason, f"stopped ({reason})")


def nothing_written(path: str | os.PathLike[str], why: str) -> str:
    """The one line every command says when it wrote nothing (``-``: standard output; a
    file: which is left as it was).

    >>> from mastermind.app.commands.common import nothing_written
    >>> nothing_written("-", "no strategy")
    'nothing written to standard output: no strategy'
    >>> nothing_written("t.json", "no strategy")
    'nothing written to t.json: no strategy; a file already there is left as it was'
    """
    if os.fspath(path) == "-":
        return f"nothing written to standard output: {why}"
    return f"nothing written to {os.fspath(path)}: {why}; a file already there is left as it was"


def wrote(what: str, path: str) -> str:
    """The one line every command says after writing a file (``-``: standard output).

    >>> from mastermind.app.commands.common import wrote
    >>> wrote("the strategy tree", "-")
    'wrote the strategy tree to standard output'
    """
    return f"wrote {what} to {'standard output' if path == '-' else path}"


def say_proof(path: str, written: dict | None, claims: str, why_not: str, err: bool = False) -> None:
    """The line saying what became of a proof's file (``--proof``): nothing written, and
    ``why_not``; or what it holds (``claims``, its facts and seconds), on standard error
    where standard output holds the proof itself (or, ``err``, another file)."""
    if written is None:
        typer.echo(nothing_written(path, why_not), err=True)
        return
    from mastermind.core.fileio import is_stdout

    what = f"the proof ({claims}; {plural(written['facts'], 'fact')}, {written['seconds']:.2f} s)"
    typer.echo(wrote(what, path), err=err or is_stdout(path))


def echo_blocks(*blocks: str | None, err: bool = False) -> None:
    """Print the blocks of a report (a table, a note) that are there, a blank line between
    two: never before the first, so that a report cut short (Ctrl-C, a time limit, before
    its table) does not begin with a blank line where it is piped (`table | head -1` read
    nothing)."""
    text = "\n\n".join(block for block in blocks if block)
    if text:
        typer.echo(text, err=err)


def say_wrote(
    what: str, path: str | os.PathLike[str], detail: str = "", *, json_lines: bool = False, err: bool = False
) -> None:
    """The one line every command says after writing ``what`` to ``path`` (``detail``: more of
    it, such as its numbers), whether a file or standard output (``-``): there, on standard
    error, as standard output holds what was written alone (`export --out -` said nothing
    where `optimal --out -` said it wrote the tree), unless standard error carries JSON
    lines only (``json_lines``: ``--progress json``); ``err``: on standard error all the same
    (standard output holds another file: ``optimal --out FILE --proof -``)."""
    from mastermind.core.fileio import is_stdout

    path = os.fspath(path)
    # (standard output by any name, /dev/stdout too: there the picture or tree is alone)
    stdout = is_stdout(path)
    if not stdout or not json_lines:
        typer.echo(wrote(what, path) + detail, err=stdout or err)


def fraction(a: int, b: int):
    """``a / b`` exact (the average of a total, rounded down where it is a bound)."""
    from fractions import Fraction  # (imported when needed: the start-up of every command)

    return Fraction(a, b)


def write_proof_file(
    path: str, token: Any, make: Callable[[Callable[[str], None]], dict]
) -> tuple[dict | None, MastermindError | None, str | None]:
    """A proof file written to ``path`` by ``make`` (given the function that takes the
    file's text piece by piece; answers the proof's claims and facts), as its facts are made
    (none held) and put in place only once the pass ended: a pass stopped writes nothing.
    Under the command's work ``token`` (Ctrl-C, and what is left of --time-limit), checked
    between the facts. Answers the ``proof`` of the report (the file, what ``make``
    answered, the seconds it took; None when not written), the error that kept it from the
    file (see :func:`write_after_work`), and why the pass stopped (None: it ended)."""
    import time

    from mastermind.core.cancel import Stopped
    from mastermind.core.fileio import is_stdout, streamed_write

    began = time.perf_counter()
    made: dict = {}

    def write() -> None:
        with streamed_write(path) as put:
            made.update(make(put))
            if is_stdout(path):
                put("\n")  # (the file's last line, where a terminal or a pipe reads it)

    with token.running(lambda: "writing the proof"):
        left = token.remaining()
        if token.cancelled or (left is not None and left <= 0):
            return None, None, token.reason or StopReason.TIME_LIMIT
        try:
            late = write_after_work("--proof", write)
        except Stopped:
            return None, None, token.reason
    if late is not None:
        return None, late, None
    return {"file": path, **made, "seconds": round(time.perf_counter() - began, 4)}, None, None
