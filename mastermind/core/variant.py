"""The variants of the game: how a guess is scored, which answers exist, how they are written.

One frozen class per variant, one instance of each in :data:`VARIANTS` (python-chess's
``chess.variant`` is the model). A variant is everything the engines learn about the rules
beyond the codes: they read only the score table (built from :meth:`Variant.answer_lut`) and
the answer alphabet (:meth:`Variant.answer_feedbacks`, the win last). Every variant here
answers with a function of the *peg counts* of a guess against a secret, black (right colour,
right place) and white (right colour, wrong place): the counts are computed once, by
:func:`peg_counts` here and by its compiled twin :func:`mastermind.core._kernels.peg_counts`
(the tests hold them to each other), and the variant's :meth:`Variant.answer` turns them into
its answer, which the score table's lookup (:meth:`Variant.answer_lut`) carries into the
kernels.

>>> from mastermind.core.variant import BLACK_PEG, STANDARD, find_variant
>>> STANDARD.score_digits((0, 0, 1, 1), (0, 1, 2, 3)), BLACK_PEG.score_digits((0, 0, 1, 1), (0, 1, 2, 3))
(Feedback(black=1, white=1), Feedback(black=1, white=0, whites=False))
>>> str(STANDARD.win(4)), str(BLACK_PEG.win(4)), find_variant("b") is BLACK_PEG
('4B0W', '4B', True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from mastermind.core.errors import MastermindError
from mastermind.core.words import plural, quoted

if TYPE_CHECKING:  # numpy is imported where it is used (rules alone need none)
    import numpy as np

_NO_PEGS = ("0", "-", "NONE")  # feedback without key pegs


@dataclass(frozen=True, order=True)
class Feedback:
    """Black pegs (right colour, right place) and white pegs (right colour, wrong place);
    ``whites`` False for a variant whose answers do not tell white pegs (written ``2B``).

    >>> from mastermind.core.variant import Feedback
    >>> Feedback.parse("BBW."), Feedback.parse("2A1B"), str(Feedback(1, 2)), str(Feedback(2, 0, False))
    (Feedback(black=2, white=1), Feedback(black=2, white=1), '1B2W', '2B')
    >>> [str(Feedback.parse(t)) for t in ("1B", "1w", "0", "B", "W", "-", "1W2B", "2A")]
    ['1B0W', '0B1W', '0B0W', '1B0W', '0B1W', '0B0W', '2B1W', '2B0W']
    """

    black: int
    white: int
    whites: bool = True

    def __str__(self) -> str:
        return f"{self.black}B{self.white}W" if self.whites else f"{self.black}B"

    @property
    def white_told(self) -> int | None:
        """The white pegs, None where the variant does not tell them (JSON's ``white``)."""
        return self.white if self.whites else None

    def __repr__(self) -> str:
        told = "" if self.whites else ", whites=False"
        return f"Feedback(black={self.black}, white={self.white}{told})"

    @classmethod
    def parse(cls, text: str, pegs: int | None = None, example: Feedback | None = None) -> Feedback:
        """Read ``2B1W``, ``1B``, ``1W``, ``0``/``-`` (no pegs), ``2 1``, ``2,1``, ``BBW.``/``BBW``
        or ``2A1B``/``2A`` (bulls and cows: A black, B white after an A).

        With ``pegs`` given, feedback that no pair of codes can produce is refused;
        ``example``: a feedback of the game, spelt every way in the message for text that
        cannot be read.
        """
        raw = text.strip()
        # (a comma with spaces beside it, or spaces alone, separate the two numbers once:
        # "1,,2" was read as 1B2W)
        s = re.sub(r"\s*,\s*|\s+", ",", raw.upper())
        if re.search("[A-Z]", s):  # letters: the spaces are only spacing ("1B 2W", "B B W")
            s = re.sub(r"[\s,]+", "", s)
        n = "([0-9]{1,3})"  # ASCII digits: int() refuses "³" and very long numbers
        if m := re.fullmatch(f"{n}B{n}W", s) or re.fullmatch(f"{n}A{n}B", s) or re.fullmatch(f"{n},{n}", s):
            fb = cls(int(m.group(1)), int(m.group(2)))
        elif m := re.fullmatch(f"{n}W{n}B", s):
            fb = cls(int(m.group(2)), int(m.group(1)))
        elif m := re.fullmatch(f"{n}([BWA])", s):  # (2A: bulls only, as 2A0B)
            count = int(m.group(1))
            fb = cls(0, count) if m.group(2) == "W" else cls(count, 0)
        elif s in _NO_PEGS:
            fb = cls(0, 0)
        elif re.fullmatch(r"[BW.\-]+", s):
            fb = cls(s.count("B"), s.count("W"))
        else:
            if example is None:
                spellings = "2B1W, 1B, 1W, 0 (no pegs), '2 1', 2,1, BBW or 2A1B"
            else:  # (the game's: 2B1W never occurs with 3 pegs, nor 1B2W in p4c4n)
                b, w = example.black, example.white
                forms = [str(example), f"'{b} {w}'", f"{b},{w}", "B" * b + "W" * w, f"{b}A{w}B"]
                forms = [f for f in forms if f]
                spellings = ", ".join(forms[:-1]) + " or " + forms[-1]
            raise MastermindError(f"cannot read feedback {quoted(raw)}: use {spellings}")
        if pegs is not None:
            fb.check(pegs)
            if re.fullmatch(r"[BW.\-]+", s) and len(s) > pegs:
                raise MastermindError(
                    f"feedback {quoted(raw)} has {plural(len(s), 'key peg')}, more than {plural(pegs, 'peg')}"
                )
        return fb

    def check(self, pegs: int) -> None:
        """Refuse feedback that no pair of codes with ``pegs`` pegs can give."""
        b, w = self.black, self.white
        if b < 0 or w < 0 or b + w > pegs:
            raise MastermindError(
                f"impossible feedback {self}: black + white must be at most {plural(pegs, 'peg')}"
            )
        if self.whites and b == pegs - 1 and w == 1:
            raise MastermindError(f"impossible feedback {self}: {pegs - 1} black and 1 white never occurs")


def peg_counts(secret: Sequence[int], guess: Sequence[int]) -> tuple[int, int]:
    """Black and white pegs of ``guess`` against ``secret`` (0-based colours): the reference,
    written for obviousness, of the compiled :func:`mastermind.core._kernels.peg_counts`.

    >>> from mastermind.core.variant import peg_counts
    >>> peg_counts((0, 0, 1, 1), (0, 1, 2, 3))
    (1, 1)
    """
    black = sum(1 for s, g in zip(secret, guess) if s == g)
    common = sum(min(list(secret).count(col), list(guess).count(col)) for col in set(guess))
    return black, common - black


@dataclass(frozen=True)
class Variant:
    """The base of the variants: the scoring and answer alphabet of a game with ``pegs`` pegs.

    A subclass sets the class attributes and :meth:`answer`, :meth:`answer_feedbacks`,
    :meth:`answer_index`, :meth:`possible_answers`, :meth:`parse_answer`, :meth:`spellings`
    and :meth:`irving_groups`, and joins :data:`VARIANTS`; the rest follows from them. A
    game's variant is its :class:`~mastermind.core.game.Rules`' ``variant``, named in the
    rules text by the variant's :attr:`suffix`.

    >>> from mastermind.core.game import Rules
    >>> rules = Rules.parse("p4c6b")
    >>> rules.variant.name, [str(f) for f in rules.answers], rules.variant.permutes_colours
    ('black-peg', ['0B', '1B', '2B', '3B', '4B'], True)
    """

    name: ClassVar[str]
    """The variant's name (``--rules`` spells it by its :attr:`suffix`)."""
    suffix: ClassVar[str]
    """What the rules text ends with after ``r`` or ``n``: ``p4c6rb`` (empty for the standard game)."""
    description: ClassVar[str]
    permutes_pegs: ClassVar[bool] = True
    """Permuting the pegs of both codes keeps every answer (the engines' symmetry may use it)."""
    permutes_colours: ClassVar[bool] = True
    """Permuting the colours of both codes keeps every answer."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def answer(self, black: int, white: int) -> Feedback:
        """The answer to a guess with these peg counts: the variant's scoring."""
        raise NotImplementedError

    def answer_feedbacks(self, pegs: int) -> tuple[Feedback, ...]:
        """The answer of every answer index, in index order, the win last (impossible answers
        included: the index space is the same for every game of ``pegs`` pegs)."""
        raise NotImplementedError

    def answer_index(self, fb: Feedback, pegs: int) -> int:
        """The compact index of ``fb`` (its place in :meth:`answer_feedbacks`)."""
        raise NotImplementedError

    def possible_answers(self, pegs: int, colours: int, repeat: bool) -> tuple[Feedback, ...]:
        """The answers some pair of codes of the game gives, in index order."""
        raise NotImplementedError

    def parse_answer(self, text: str, pegs: int | None = None, example: Feedback | None = None) -> Feedback:
        """Read an answer as typed (not yet checked against the game's possible answers; with
        ``pegs`` given, one no pair of codes of that many pegs gives is refused)."""
        raise NotImplementedError

    def spellings(self, example: Feedback) -> dict[str, str]:
        """``example`` in each spelling :meth:`parse_answer` reads, by name (for help texts)."""
        raise NotImplementedError

    def irving_groups(self, pegs: int) -> tuple[tuple[Feedback, ...], ...]:
        """The answers of an Irving node's entries: groups separated by ``;``, entries by ``,``."""
        raise NotImplementedError

    # ---- what follows from the above -----------------------------------------------------------
    def win(self, pegs: int) -> Feedback:
        """The answer that ends the game (every peg black)."""
        return self.answer(pegs, 0)

    def n_answer_slots(self, pegs: int) -> int:
        return len(self.answer_feedbacks(pegs))

    def score_digits(self, secret: Sequence[int], guess: Sequence[int]) -> Feedback:
        """The answer to ``guess`` (0-based colours) when the secret is ``secret``: the
        reference of the score table.

        >>> from mastermind.core.variant import BLACK_PEG
        >>> str(BLACK_PEG.score_digits((0, 1, 2), (2, 1, 0)))
        '1B'
        """
        return self.answer(*peg_counts(secret, guess))

    def answer_lut(self, pegs: int) -> np.ndarray:
        """uint8 lookup from the peg counts the kernels compute to the answer index:
        ``lut[black * (pegs + 1) + white]`` (255 where black + white exceeds the pegs).

        >>> from mastermind.core.variant import BLACK_PEG
        >>> BLACK_PEG.answer_lut(2).tolist()
        [0, 0, 0, 1, 1, 255, 2, 255, 255]
        """
        import numpy as np

        lut = np.full((pegs + 1) * (pegs + 1), 255, dtype=np.uint8)
        for black in range(pegs + 1):
            for white in range(pegs + 1 - black):
                lut[black * (pegs + 1) + white] = self.answer_index(self.answer(black, white), pegs)
        return lut


@dataclass(frozen=True, repr=False)
class Standard(Variant):
    """Mastermind: the answer tells the black and the white pegs.

    >>> from mastermind.core.variant import STANDARD
    >>> [str(f) for f in STANDARD.answer_feedbacks(2)]
    ['0B0W', '0B1W', '0B2W', '1B0W', '1B1W', '2B0W']
    """

    name: ClassVar[str] = "standard"
    suffix: ClassVar[str] = ""
    description: ClassVar[str] = "black and white pegs"

    def answer(self, black: int, white: int) -> Feedback:
        return Feedback(black, white)

    def answer_feedbacks(self, pegs: int) -> tuple[Feedback, ...]:
        return tuple(Feedback(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b))

    def answer_index(self, fb: Feedback, pegs: int) -> int:
        """Ordered by black, then white."""
        b, w = fb.black, fb.white
        return b * (pegs + 1) - b * (b - 1) // 2 + w

    def possible_answers(self, pegs: int, colours: int, repeat: bool) -> tuple[Feedback, ...]:
        p, c = pegs, colours
        least_shared = 0 if repeat else max(0, 2 * p - c)
        return tuple(
            fb
            for fb in self.answer_feedbacks(p)
            if least_shared <= fb.black + fb.white
            and not (fb.black == p - 1 and fb.white == 1)
            # with two colours misplaced pegs come in swapped pairs
            and not (c == 2 and fb.white % 2 == 1)
        )

    def parse_answer(self, text: str, pegs: int | None = None, example: Feedback | None = None) -> Feedback:
        return Feedback.parse(text, pegs, example)

    def spellings(self, example: Feedback) -> dict[str, str]:
        b, w = example.black, example.white
        return {
            "feedback": f"{b}B{w}W",
            "pair": f"'{b} {w}'",
            "comma": f"{b},{w}",
            "letters": "B" * b + "W" * w,
        }

    def irving_groups(self, pegs: int) -> tuple[tuple[Feedback, ...], ...]:
        """Black 0..pegs, and in each group white from the most down to 0."""
        return tuple(tuple(Feedback(b, w) for w in range(pegs - b, -1, -1)) for b in range(pegs + 1))


@dataclass(frozen=True, repr=False)
class BlackPeg(Variant):
    """Black-peg Mastermind: the answer is the number of black pegs alone, written ``2B``
    and read as ``2``, ``2B`` or ``BB`` (``0`` or ``-``: none).

    >>> from mastermind.core.variant import BLACK_PEG
    >>> [str(f) for f in BLACK_PEG.answer_feedbacks(2)], BLACK_PEG.parse_answer(" 1 ", 2)
    (['0B', '1B', '2B'], Feedback(black=1, white=0, whites=False))
    """

    name: ClassVar[str] = "black-peg"
    suffix: ClassVar[str] = "b"
    description: ClassVar[str] = "black pegs only"

    def answer(self, black: int, white: int) -> Feedback:
        return Feedback(black, 0, False)

    def answer_feedbacks(self, pegs: int) -> tuple[Feedback, ...]:
        return tuple(Feedback(b, 0, False) for b in range(pegs + 1))

    def answer_index(self, fb: Feedback, pegs: int) -> int:
        return fb.black

    def possible_answers(self, pegs: int, colours: int, repeat: bool) -> tuple[Feedback, ...]:
        """Every count of black pegs, but: one colour only scores all pegs; without repetition
        and with as many colours as pegs, one misplaced peg never occurs (the others hold
        every other colour)."""
        if colours == 1:
            return (self.win(pegs),)
        never = pegs - 1 if not repeat and colours == pegs else -1
        return tuple(fb for fb in self.answer_feedbacks(pegs) if fb.black != never)

    def parse_answer(self, text: str, pegs: int | None = None, example: Feedback | None = None) -> Feedback:
        raw = text.strip()
        s = re.sub(r"\s+", "", raw.upper())
        # ("1 0", the standard game's 1B0W, read as 10 once the spaces went)
        apart = re.search(r"[0-9]\s+[0-9]", raw) is not None
        if not apart and (m := re.fullmatch("([0-9]{1,3})B?", s)):
            black = int(m.group(1))
        elif not apart and (re.fullmatch(r"[B.\-]+", s) or s == "NONE"):
            black = s.count("B")
        else:
            shown = "2" if example is None else str(example.black)
            hint = " (black-peg answers tell no white pegs)" if "W" in s or apart else ""
            raise MastermindError(
                f"cannot read feedback {quoted(raw)}: use the number of black pegs, e.g. {shown}, "
                f"{shown}B or {'B' * int(shown) or '-'}{hint}"
            )
        if pegs is not None and black > pegs:
            raise MastermindError(f"impossible feedback {black}B: more black pegs than {plural(pegs, 'peg')}")
        return self.answer(black, 0)

    def spellings(self, example: Feedback) -> dict[str, str]:
        b = example.black
        return {"feedback": f"{b}B", "pair": f"{b}", "comma": f"{b}", "letters": "B" * b or "-"}

    def irving_groups(self, pegs: int) -> tuple[tuple[Feedback, ...], ...]:
        """One entry per group: black 0..pegs, ``9(11: 4(22); 4(12); 1)``."""
        return tuple((self.answer(b, 0),) for b in range(pegs + 1))


STANDARD = Standard()
BLACK_PEG = BlackPeg()
VARIANTS: dict[str, Variant] = {v.name: v for v in (STANDARD, BLACK_PEG)}
"""Every variant by name, the standard game first."""


def find_variant(name: str) -> Variant:
    """The variant of a name or a rules suffix (``black-peg``, ``b``; ``standard`` or empty).

    >>> from mastermind.core.variant import find_variant
    >>> find_variant("Black-Peg"), find_variant("")
    (BlackPeg(), Standard())
    """
    key = name.strip().lower()
    for v in VARIANTS.values():
        if key in (v.name, v.suffix):
            return v
    names = ", ".join(v.name for v in VARIANTS.values())
    raise MastermindError(f"unknown variant {quoted(name)}: use one of {names}")
