"""Plain-text pieces the sessions share: aligned columns, code lists, the history table.

Plain text on purpose: a session's replies read the same on a terminal, in a pipe and in tests.

>>> from mastermind.app.interactive.text import columns
>>> print(columns([["turn", "guess"], ["1", "1122"], ["10", "3632"]], right=(0,)))
turn  guess
   1  1122
  10  3632
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from mastermind.core.game import SYMBOLS, Code, Rules
from mastermind.core.variant import STANDARD
from mastermind.core.words import plural

if TYPE_CHECKING:
    import numpy as np


def columns(rows: Sequence[Sequence[str]], right: Iterable[int] = ()) -> str:
    """Rows of cells as aligned columns, two spaces apart; columns in ``right`` right-aligned."""
    right = set(right)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def code_list(rules: Rules, codes: Sequence[Code] | np.ndarray, limit: int = 50, per_line: int = 10) -> str:
    """At most ``limit`` codes, ``per_line`` to a line, and how many were left out.

    >>> from mastermind.app.interactive.text import code_list
    >>> from mastermind.core.game import Rules
    >>> print(code_list(Rules(2, 3), range(9), limit=5, per_line=3))
    11 12 13
    21 22
    ... and 4 more
    """
    shown = [rules.code_text(int(c)) for c in codes[:limit]]  # (a slice: not every candidate copied)
    lines = [" ".join(shown[i : i + per_line]) for i in range(0, len(shown), per_line)]
    if len(codes) > limit:
        lines.append(f"... and {len(codes) - limit} more")
    return "\n".join(lines)


def describe(rules: Rules) -> str:
    """The game in words.

    >>> from mastermind.app.interactive.text import describe
    >>> from mastermind.core.game import Rules
    >>> describe(Rules(4, 6)), describe(Rules(5, 12, repeat=False))
    ('p4c6r: 4 pegs, colours 1-6', 'p5c12n: 5 pegs, colours 1-C, no colour twice')
    >>> describe(Rules(3, 4, variant="black-peg"))
    'p3c4rb: 3 pegs, colours 1-4, answers of black pegs only'
    """
    text = f"{rules}: {plural(rules.pegs, 'peg')}, colours 1-{SYMBOLS[rules.colors - 1]}"
    text = text if rules.repeat else f"{text}, no colour twice"
    return text if rules.variant is STANDARD else f"{text}, answers of {rules.variant.description}"


def examples(rules: Rules) -> dict[str, str]:
    """Examples of input for the game of ``rules`` (a help text's ``{code}``, ``{spaced}``,
    ``{feedback}``, ``{pair}``, ``{comma}``, ``{letters}``, ``{answers}`` and ``{pegs_told}``):
    a guess of the game's pegs and colours, one feedback in each spelling the sessions read
    (the variant's), those spellings in a list, and what an answer tells.

    >>> from mastermind.app.interactive.text import examples
    >>> from mastermind.core.game import Rules
    >>> examples(Rules(4, 6))["code"], examples(Rules(3, 4))["spaced"], examples(Rules(4, 6, False))["code"]
    ('1123', '1 1 2', '1234')
    >>> [examples(Rules(p, 5))[k] for p, k in ((2, "feedback"), (3, "letters"), (5, "pair"))]
    ['0B1W', 'BW', "'1 1'"]
    >>> examples(Rules(4, 6))["answers"], examples(Rules(4, 6, variant="black-peg"))["answers"]
    ("1B1W, '1 1', 1,1 or BW", '1B, 1 or B')
    """
    pattern = [1, 1, 2, 3, 4, 5, 6, 7, 8, 9] if rules.repeat else list(range(1, 11))
    code = "".join(SYMBOLS[min(k, rules.colors) - 1] for k in pattern[: rules.pegs])
    spellings = rules.variant.spellings(rules.feedback_example)
    forms = list(dict.fromkeys(spellings.values()))  # (each once: black-peg's pair is its number)
    whites = rules.feedback_example.whites
    return {
        "code": code,
        "spaced": " ".join(code),
        **spellings,
        "answers": ", ".join(forms[:-1]) + " or " + forms[-1],
        "pegs_told": (
            "black pegs (right colour, right place) and\nwhite pegs (right colour, wrong place)"
            if whites
            else "black pegs (right colour, right place) only"
        ),
    }
