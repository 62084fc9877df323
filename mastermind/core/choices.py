"""Words from a fixed set (an objective, a pool, why work stopped): enum members that are their text too, so
that JSON, messages and a caller's string compare, hash and print as the word itself.

>>> from mastermind.core.choices import Choice
>>> class Colour(Choice):
...     RED = "red"
>>> Colour("red") is Colour.RED, Colour.RED == "red", f"{Colour.RED}", {"red": 1}[Colour.RED]
(True, True, 'red', 1)
"""

from __future__ import annotations

import enum


class Choice(str, enum.Enum):
    """A str-Enum whose ``str()`` and format are its value (``enum.StrEnum`` from Python 3.11)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

    def __hash__(self) -> int:  # (as its value's: a key "time limit" finds it)
        return hash(str(self.value))
