"""What the strategy file formats share: their error type and text positions."""

from __future__ import annotations

from mastermind.core.tree import TreeError


class StrategyFileError(TreeError):
    """A strategy file that cannot be read as a tree, or whose tree is wrong.

    The message is one line and starts with where: ``line 3 column 14`` in the text, the path
    of answers from the root, or both.
    """


class WrittenOnly(StrategyFileError):
    """A file in a format strategies are written in but never read from (Graphviz dot, an
    HTML page): ``format`` names it, ``reason`` says so without the file's name."""

    def __init__(self, message: str, fmt: str, reason: str) -> None:
        super().__init__(message)
        self.format, self.reason = fmt, reason


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset.

    >>> from mastermind.core.formats.base import line_column
    >>> line_column("ab\\ncd", 4)
    (2, 2)
    """
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def where(text: str, offset: int) -> str:
    line, col = line_column(text, offset)
    return f"line {line} column {col}"
