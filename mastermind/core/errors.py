"""The one exception type for bad input; the CLI turns it into a one-line message and exit 2."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class MastermindError(ValueError):
    """Bad input: rules, codes, feedback, files or sizes. The message is one line for a user.

    >>> from mastermind.core.game import Rules
    >>> Rules(4, 6).parse_code("1279")
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: ...
    """


class TableTooLarge(MastermindError):
    """A game whose tables would exceed the memory limit (the CLI says how to raise it, where
    the command has the option).

    >>> from mastermind.core.game import CodeTable, Rules
    >>> CodeTable(Rules(6, 9), memory_limit=2**20)
    Traceback (most recent call last):
    ...
    mastermind.core.errors.TableTooLarge: ...
    """


class OutOfReach(MastermindError):
    """A game no memory limit could hold (its codes or tables beyond any machine): said of
    the option that named the game, where the command has one."""


class DamagedFile(MastermindError):
    """A file opened whose bytes are no text (a cut or corrupted gzip stream, bytes that are
    not UTF-8): ``verify`` counts it as it counts a cut tree, not a valid strategy (exit 1);
    a file that cannot be opened is bad input (exit 2).

    >>> from mastermind.core.errors import DamagedFile
    >>> str(DamagedFile("cannot read t.gz: a damaged gzip file", "a damaged gzip file"))
    'cannot read t.gz: a damaged gzip file'
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason  # (without the file's name)


@contextmanager
def naming(option: str, kind: type[MastermindError] = MastermindError) -> Iterator[None]:
    """Bad input found inside the block (of type ``kind``) is said of
    ``option`` (``--first: code '12345' has 5 pegs...``), as the values the command line
    checks are, unless its message names it already.

    >>> from mastermind.core.errors import MastermindError, naming
    >>> with naming("--first"):
    ...     raise MastermindError("code '12345' has 5 pegs")
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: --first: code '12345' has 5 pegs
    """
    try:
        yield
    except kind as exc:
        message = str(exc)
        if message.startswith(option):
            raise
        # (of its own kind still: what the command line adds for it, e.g. TableTooLarge's
        # advice to raise --memory-limit, holds whatever option it is said of)
        raise type(exc)(f"{option}: {message}") from None
