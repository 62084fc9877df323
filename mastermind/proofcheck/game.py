"""The game, written again from its rules alone: codes, their text, and the answer of every
guess to every secret (black: right colour, right place; white: right colour, wrong place;
in black-peg Mastermind, rules ending in ``b``, the black pegs alone).

>>> from mastermind.proofcheck.game import Game
>>> game = Game.parse("p3c3")
>>> game.n, game.code_text(5), game.answer_text(int(game.answers[game.index["123"], game.index["321"]]))
(27, '123', '1B2W')
>>> black = Game.parse("p3c3rb")
>>> str(black), black.answer_text(int(black.answers[black.index["123"], black.index["321"]]))
('p3c3rb', '1B')
"""

from __future__ import annotations

import re
from functools import cached_property
from itertools import product

import numpy as np

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_CODES = 32768
"""5 pegs x 8 colours: its table of answers, five n x n tables of bytes while it is built, is
5 GiB (``check.memory_needed`` counts it against ``verify --memory-limit``)."""
_RULES = re.compile(r"^p([0-9]{1,2})c([0-9]{1,2})([rn]?)(b?)$")
_ANSWER = re.compile(r"^([0-9]{1,2})B([0-9]{1,2})W$")
_BLACK_ANSWER = re.compile(r"^([0-9]{1,2})B$")


class ProofError(Exception):
    """The proof is refuted or malformed: the message says where and what was derived.
    ``fact``: the index of the fact that fails, which the message starts by naming (None:
    what fails is not one fact).

    >>> from mastermind.proofcheck import ProofError
    >>> error = ProofError("fact 3: path: expected a list of [guess, answer]", fact=3)
    >>> error.fact, str(error).startswith("fact 3")
    (3, True)
    """

    def __init__(self, message: str, fact: int | None = None) -> None:
        super().__init__(message)
        self.fact = fact


def unknown_key(obj: dict, keys: frozenset[str]) -> str | None:
    """The first key of ``obj`` (in sorted order) that is not one of ``keys``, else None: a
    misspelt key would otherwise be read as absent.

    >>> from mastermind.proofcheck.game import unknown_key
    >>> unknown_key({"pegs": [0], "colors": [0]}, frozenset(("pegs", "colours")))
    'colors'
    """
    return None if keys.issuperset(obj) else sorted(map(str, set(obj) - keys))[0]


class Game:
    """Pegs, colours, repetition, black pegs only; the codes in lexicographic order (index = code)."""

    def __init__(self, pegs: int, colours: int, repetition: bool, black_peg: bool = False) -> None:
        if not (1 <= pegs <= 8 and 1 <= colours <= len(SYMBOLS)) or (not repetition and colours < pegs):
            raise ProofError(f"no game of {pegs} pegs and {colours} colours here")
        self.pegs, self.colours, self.repetition = pegs, colours, repetition
        self.black_peg = black_peg  # (the answer tells the black pegs alone: white counted 0)
        rows = [d for d in product(range(colours), repeat=pegs) if repetition or len(set(d)) == pegs]
        self.codes = np.array(rows, dtype=np.int64).reshape(-1, pegs)
        self.n = len(self.codes)
        if self.n > MAX_CODES:
            raise ProofError(f"the checker handles at most {MAX_CODES} codes, {self} has {self.n}")
        self.index = {self.code_text(i): i for i in range(self.n)}
        # every code as a number in base `colours`, and back to its index (-1: no code)
        self.radix = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
        self.by_value = np.full(colours**pegs, -1, dtype=np.int64)
        self.by_value[self.codes @ self.radix] = np.arange(self.n)
        self.n_answers = (pegs + 1) ** 2  # answer a = black * (pegs + 1) + white
        self.win = pegs * (pegs + 1)

    @classmethod
    def parse(cls, rules: object) -> Game:
        """``p4c6r`` (repetition, also ``p4c6``) or ``p4c6n`` (no colour twice), then ``b``
        for black-peg Mastermind (``p4c6rb``)."""
        match = _RULES.match(rules) if isinstance(rules, str) else None
        if match is None:
            raise ProofError(f"rules: expected such as p4c6r or p4c6rb, got {rules!r}")
        return cls(int(match[1]), int(match[2]), match[3] != "n", match[4] == "b")

    def __str__(self) -> str:
        return f"p{self.pegs}c{self.colours}{'r' if self.repetition else 'n'}{'b' if self.black_peg else ''}"

    def code_text(self, code: int) -> str:
        return "".join(SYMBOLS[d] for d in self.codes[code])

    def code(self, text: object) -> int:
        """The index of a code written as in the proof (``1123``)."""
        if not isinstance(text, str) or text.upper() not in self.index:
            raise ProofError(f"{text!r} is no code of {self}")
        return self.index[text.upper()]

    def answer_text(self, answer: int) -> str:
        if self.black_peg:
            return f"{answer // (self.pegs + 1)}B"
        return f"{answer // (self.pegs + 1)}B{answer % (self.pegs + 1)}W"

    def answer(self, text: object) -> int:
        """The index of an answer written ``1B2W`` (``1B`` in black-peg Mastermind)."""
        pattern = _BLACK_ANSWER if self.black_peg else _ANSWER
        match = pattern.match(text) if isinstance(text, str) else None
        white = 0 if match is None or self.black_peg else int(match[2])
        if match is None or int(match[1]) + white > self.pegs:
            raise ProofError(f"{text!r} is no answer of {self}")
        return int(match[1]) * (self.pegs + 1) + white

    @cached_property
    def answers(self) -> np.ndarray:
        """``answers[g, s]``: the answer of secret s to guess g, for every two codes."""
        codes = self.codes.astype(np.uint8)
        blacks = np.zeros((self.n, self.n), dtype=np.uint8)
        for i in range(self.pegs):
            blacks += codes[:, None, i] == codes[None, :, i]
        if self.black_peg:  # (answer black * (pegs + 1) + 0)
            return blacks * np.uint8(self.pegs + 1)
        shared = np.zeros((self.n, self.n), dtype=np.uint8)
        for c in range(self.colours):
            held = (codes == c).sum(axis=1, dtype=np.uint8)
            shared += np.minimum(held[:, None], held[None, :])
        return blacks * np.uint8(self.pegs) + shared

    @cached_property
    def slot_of(self) -> np.ndarray:
        """Every answer's place among the answers some two codes give (-1: none gives it):
        the columns of a guess's class counts, as few as the game has."""
        given = np.zeros(self.n_answers, dtype=bool)
        for row in self.answers:
            given[row] = True
        return np.where(given, np.cumsum(given) - 1, -1)

    @cached_property
    def slots(self) -> np.ndarray:
        """``answers`` with every answer numbered by its slot."""
        return self.slot_of.astype(np.uint8)[self.answers]

    @property
    def n_slots(self) -> int:
        return int(self.slot_of.max()) + 1

    @property
    def win_slot(self) -> int:
        return int(self.slot_of[self.win])

    def permute(self, pegs: list[int], colours: list[int]) -> np.ndarray:
        """The image of every code under a symmetry: code x goes to y with
        ``y[i] = colours[x[pegs[i]]]`` (an index array over the codes; -1: no code)."""
        images = np.asarray(colours, dtype=np.int64)[self.codes[:, pegs]]
        return self.by_value[images @ self.radix]
