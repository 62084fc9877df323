"""Rules, codes, feedback and the all-pairs score table.

Codes are plain ints (the index of the code in lexicographic order); their text form has one
symbol per peg with 1-based colours, ``1123``; above 9 colours the symbols go on with letters.

>>> rules = Rules.parse("p4c6")
>>> rules, rules.n_codes, len(rules.answers)
(Rules(pegs=4, colors=6, repeat=True), 1296, 14)
>>> rules.code_text(rules.parse_code("1 1 2 3"))
'1123'
>>> str(score(rules, rules.parse_code("3632"), rules.parse_code("3526")))
'1B2W'
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cached_property
from itertools import permutations, product
from typing import TYPE_CHECKING, TypeAlias

from mastermind.core.errors import MastermindError, OutOfReach, TableTooLarge
from mastermind.core.words import plural, quoted

if TYPE_CHECKING:  # numpy is imported where it is used: rules and codes alone need none
    import numpy as np  # (the command line answers from its result cache without it)

Code: TypeAlias = int
"""A code: its index in the lexicographic enumeration of the game's codes."""
AnswerIndex: TypeAlias = int
"""A feedback as a compact index, see :meth:`Rules.answer_index`."""

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_PEGS = 20  # keeps every answer index inside a uint8
MAX_COLORS = len(SYMBOLS)
DEFAULT_MEMORY_LIMIT = 2 * 1024**3

# ASCII digits only ("³" is a digit to Python but not to int()), and few of them
_RULES_RE = re.compile(r"^(?:p([0-9]+)c([0-9]+)|([0-9]+)x([0-9]+))([rn]?)$", re.IGNORECASE)
_DIGITS_MAX = 9  # a longer number is out of range: named, not parsed (Python refuses 4300 digits)
_NO_PEGS = ("0", "-", "NONE")  # feedback without key pegs


@dataclass(frozen=True, order=True)
class Feedback:
    """Black pegs (right colour, right place) and white pegs (right colour, wrong place).

    >>> Feedback.parse("BBW."), Feedback.parse("2A1B"), str(Feedback(1, 2))
    (Feedback(black=2, white=1), Feedback(black=2, white=1), '1B2W')
    >>> [str(Feedback.parse(t)) for t in ("1B", "1w", "0", "B", "W", "-", "1W2B", "2A")]
    ['1B0W', '0B1W', '0B0W', '1B0W', '0B1W', '0B0W', '2B1W', '2B0W']
    """

    black: int
    white: int

    def __str__(self) -> str:
        return f"{self.black}B{self.white}W"

    @classmethod
    def parse(cls, text: str, pegs: int | None = None, example: Feedback | None = None) -> Feedback:
        """Read ``2B1W``, ``1B``, ``1W``, ``0``/``-`` (no pegs), ``2 1``, ``2,1``, ``BBW.``/``BBW``
        or ``2A1B``/``2A`` (bulls and cows: A black, B white after an A).

        With ``pegs`` given, feedback that no pair of codes can produce is refused;
        ``example``: a feedback of the game, spelt every way in the message for text that
        cannot be read.
        """
        raw = text.strip()
        s = raw.upper().replace(" ", ",")
        if re.search("[A-Z]", s):  # letters: the spaces are only spacing ("1B 2W", "B B W")
            s = re.sub(r"[\s,]+", "", s)
        n = "([0-9]{1,3})"  # ASCII digits: int() refuses "³" and very long numbers
        if m := re.fullmatch(f"{n}B{n}W", s) or re.fullmatch(f"{n}A{n}B", s) or re.fullmatch(f"{n},+{n}", s):
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
        if b == pegs - 1 and w == 1:
            raise MastermindError(f"impossible feedback {self}: {pegs - 1} black and 1 white never occurs")


def count_of(digits: str, what: str, most: int) -> int:
    """The number a run of ASCII digits spells (pegs or colours), refused in words when it
    is far out of range (int() refuses thousands of digits, and the message would quote them).

    >>> count_of("06", "pegs", 10)
    6
    """
    if len(digits.lstrip("0")) > _DIGITS_MAX:
        shown = digits if len(digits) <= 24 else f"{digits[:12]}... ({len(digits)} digits)"
        raise MastermindError(f"{what} must be between 1 and {most}, got {shown}")
    return int(digits)


@dataclass(frozen=True)
class Rules:
    """A game: ``pegs`` positions, ``colors`` colours, repeated colours allowed or not.

    >>> str(Rules(4, 6)), str(Rules(4, 10, repeat=False))
    ('p4c6r', 'p4c10n')
    """

    pegs: int = 4
    colors: int = 6
    repeat: bool = True

    def __post_init__(self) -> None:
        # (Rules(3, 4, repeat="no") was a game with repetition, and Rules(3.0, 4) "p3.0c4r")
        for name, value in (("pegs", self.pegs), ("colours", self.colors)):
            if not isinstance(value, numbers.Integral) or isinstance(value, bool):
                raise MastermindError(f"{name} must be a whole number, got {value!r}")
        numpy_bool = type(self.repeat).__module__ == "numpy" and self.repeat in (True, False)
        if not (isinstance(self.repeat, bool) or numpy_bool):
            raise MastermindError(f"repeat must be True or False, got {self.repeat!r}")
        for f in fields(self):  # (numpy numbers as plain ones: JSON and hashing take those)
            value = getattr(self, f.name)
            object.__setattr__(self, f.name, bool(value) if f.name == "repeat" else int(value))
        if not 1 <= self.pegs <= MAX_PEGS:
            raise MastermindError(f"pegs must be between 1 and {MAX_PEGS}, got {self.pegs}")
        if not 1 <= self.colors <= MAX_COLORS:
            raise MastermindError(f"colours must be between 1 and {MAX_COLORS}, got {self.colors}")
        if not self.repeat and self.colors < self.pegs:
            raise MastermindError(
                f"p{self.pegs}c{self.colors}n: without repetition colours must be at least pegs ({self.pegs})"
            )

    def __str__(self) -> str:
        return f"p{self.pegs}c{self.colors}{'r' if self.repeat else 'n'}"

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read ``p4c6`` or ``p4c6r`` (repetition allowed) or ``p4c6n`` (no repetition), or the
        same game written ``4x6``, ``4x6r`` or ``4x6n``.

        >>> Rules.parse("4x6n"), Rules.parse("P5C8")
        (Rules(pegs=4, colors=6, repeat=False), Rules(pegs=5, colors=8, repeat=True))
        """
        if not isinstance(text, str):
            raise MastermindError(f"rules must be text such as p4c6, got {text!r}")
        m = _RULES_RE.match(text.strip())
        if not m:
            raise MastermindError(
                f"cannot read rules {quoted(text)}: use pPEGScCOLOURS or PEGSxCOLOURS with "
                "optional r or n, e.g. p4c6, p4c6n or 4x6n"
            )
        pegs = m.group(1) if m.group(1) is not None else m.group(3)
        colours = m.group(2) if m.group(2) is not None else m.group(4)
        repeat = m.group(5).lower() != "n"
        return cls(count_of(pegs, "pegs", MAX_PEGS), count_of(colours, "colours", MAX_COLORS), repeat)

    # ---- codes -------------------------------------------------------------------------
    @cached_property
    def n_codes(self) -> int:
        if self.repeat:
            return self.colors**self.pegs
        return math.perm(self.colors, self.pegs)

    def codes_array(self) -> np.ndarray:
        """All codes as an int8 array of shape (n_codes, pegs), colours 0-based, in index order."""
        import numpy as np

        c, p = self.colors, self.pegs
        if self.repeat:
            idx = np.arange(self.n_codes, dtype=np.int64)
            out = np.empty((self.n_codes, p), dtype=np.int8)
            for pos in range(p - 1, -1, -1):
                out[:, pos] = idx % c
                idx //= c
            return out
        return np.array(list(permutations(range(c), p)), dtype=np.int8).reshape(-1, p)

    def code_digits(self, code: Code) -> tuple[int, ...]:
        """The 0-based colours of ``code``."""
        self.check_code(code)
        c, p = self.colors, self.pegs
        if self.repeat:
            digits = []
            for _ in range(p):
                code, d = divmod(code, c)
                digits.append(d)
            return tuple(reversed(digits))
        unused = list(range(c))
        digits = []
        for pos in range(p):
            block = math.perm(c - pos - 1, p - pos - 1)
            k, code = divmod(code, block)
            digits.append(unused.pop(k))
        return tuple(digits)

    def code_from_digits(self, digits: Iterable[int]) -> Code:
        """The index of the code with these 0-based colours."""
        digits = tuple(digits)
        c, p = self.colors, self.pegs
        if len(digits) != p or any(not 0 <= d < c for d in digits):
            raise MastermindError(f"not a code of {self}: {digits}")
        if self.repeat:
            code = 0
            for d in digits:
                code = code * c + d
            return code
        if len(set(digits)) != p:
            raise MastermindError(
                f"code {quoted(''.join(SYMBOLS[d] for d in digits))} repeats a colour, which {self} does "
                "not allow"
            )
        unused = list(range(c))
        code = 0
        for pos, d in enumerate(digits):
            k = unused.index(d)
            unused.pop(k)
            code += k * math.perm(c - pos - 1, p - pos - 1)
        return code

    def check_code(self, code: Code) -> None:
        if not 0 <= code < self.n_codes:
            raise MastermindError(f"code index {code} out of range 0..{self.n_codes - 1} for {self}")

    def code_text(self, code: Code) -> str:
        return "".join(SYMBOLS[d] for d in self.code_digits(code))

    def parse_code(self, text: str) -> Code:
        """Read ``1123``, ``1 1 2 3`` or ``1,1,2,3`` (letters after 9, any case)."""
        if not isinstance(text, str):
            raise MastermindError(f"a code must be text such as '1123', got {text!r}")
        raw = text.strip()
        # (split as typed: a message names a colour in the user's own case)
        if re.search(r"[\s,]", raw):
            parts = [t for t in re.split(r"[\s,]+", raw) if t]
        else:
            parts = list(raw)
        allowed = SYMBOLS[: self.colors]
        if len(parts) != self.pegs:
            raise MastermindError(
                f"code {quoted(raw)} has {plural(len(parts), 'peg')}, {self} needs {self.pegs} "
                f"(colours {allowed[0]}-{allowed[-1]})"
            )
        digits = []
        for t in parts:
            if len(t) <= 2 and t.isascii() and t.isdigit() and t != "0" and int(t) <= self.colors:
                digits.append(int(t) - 1)
            elif len(t) == 1 and t.upper() in allowed:
                digits.append(allowed.index(t.upper()))
            else:
                raise MastermindError(
                    f"code {quoted(raw)}: colour {quoted(t)} is not one of "
                    f"{allowed[0]}-{allowed[-1]} for {self}"
                )
        return self.code_from_digits(digits)

    # ---- feedback ----------------------------------------------------------------------
    @cached_property
    def n_answer_slots(self) -> int:
        """Size of the answer index space: every (black, white) with black + white <= pegs."""
        p = self.pegs
        return (p + 1) * (p + 2) // 2

    def answer_index(self, fb: Feedback) -> AnswerIndex:
        """Compact index of a feedback: ordered by black, then white. The win is the last."""
        b, w, p = fb.black, fb.white, self.pegs
        return b * (p + 1) - b * (b - 1) // 2 + w

    @cached_property
    def answer_feedbacks(self) -> tuple[Feedback, ...]:
        """The feedback of every answer index (including the impossible (p-1, 1))."""
        p = self.pegs
        return tuple(Feedback(b, w) for b in range(p + 1) for w in range(p + 1 - b))

    @cached_property
    def answer_lut(self) -> np.ndarray:
        """uint8 lookup: ``lut[black * (pegs + 1) + white]`` is the answer index."""
        import numpy as np

        p = self.pegs
        lut = np.full((p + 1) * (p + 1), 255, dtype=np.uint8)
        for fb in self.answer_feedbacks:
            lut[fb.black * (p + 1) + fb.white] = self.answer_index(fb)
        return lut

    @property
    def win_index(self) -> AnswerIndex:
        return self.n_answer_slots - 1

    @cached_property
    def answer_slots(self) -> tuple[AnswerIndex, ...]:
        """The answer indices of :attr:`answers`, in order (the win last): the slots a
        class count needs, where the others stay empty.

        >>> Rules(3, 4).answer_slots, Rules(5, 8, repeat=False).answer_slots[:3]
        ((0, 1, 2, 3, 4, 5, 6, 7, 9), (2, 3, 4))
        """
        return tuple(self.answer_index(fb) for fb in self.answers)

    @cached_property
    def feedback_example(self) -> Feedback:
        """A feedback this game gives, for examples: one with black and white pegs if any,
        else one with pegs that is not the win, else the win.

        >>> [str(Rules(*g).feedback_example) for g in ((4, 6), (4, 4, False), (3, 2), (1, 3))]
        ['1B1W', '1B3W', '1B2W', '1B0W']
        """
        win = Feedback(self.pegs, 0)
        return max(
            self.answers,
            key=lambda f: (
                f.black > 0 and f.white > 0 and f != win,
                f.black + f.white > 0 and f != win,
                f == win,
            ),
        )

    @cached_property
    def answers(self) -> tuple[Feedback, ...]:
        """The feedbacks that some pair of codes of this game produces, in index order.

        These are :class:`Feedback` values, the possible ones only: the position of one here
        is not its answer *index* (see :meth:`answer_index`), which
        :meth:`CodeTable.answer_indices` gives for a guess against each candidate; the index
        counts the impossible feedbacks too, and :attr:`answer_feedbacks` is the feedback of
        every index.

        >>> r = Rules(3, 4)
        >>> len(r.answers), r.n_answer_slots, r.answer_feedbacks[8], r.answers[8]
        (9, 10, Feedback(black=2, white=1), Feedback(black=3, white=0))
        """
        p, c = self.pegs, self.colors
        if self.n_codes == 1:
            return (Feedback(p, 0),)
        if self.repeat:
            least_shared = 0
        else:
            least_shared = max(0, 2 * p - c)
        return tuple(
            fb
            for fb in self.answer_feedbacks
            if least_shared <= fb.black + fb.white
            and not (fb.black == p - 1 and fb.white == 1)
            # with two colours misplaced pegs come in swapped pairs
            and not (c == 2 and fb.white % 2 == 1)
        )

    def parse_feedback(self, text: str) -> Feedback:
        fb = Feedback.parse(text, self.pegs, self.feedback_example)
        if fb not in self.answers:
            raise MastermindError(f"feedback {fb} cannot occur in {self}")
        return fb

    def table_bytes(self) -> int:
        """Memory of a full :class:`CodeTable`: the N x N answer matrix plus the codes."""
        n = self.n_codes
        return n * n + n * (self.pegs + self.colors)


def score_digits(secret: tuple[int, ...], guess: tuple[int, ...]) -> Feedback:
    """Reference scorer on 0-based colour tuples, written for obviousness, not speed."""
    black = sum(1 for s, g in zip(secret, guess) if s == g)
    common = sum(min(secret.count(col), guess.count(col)) for col in set(guess))
    return Feedback(black, common - black)


def score(rules: Rules, secret: Code, guess: Code) -> Feedback:
    """Feedback for ``guess`` when the secret is ``secret``.

    >>> rules = Rules(4, 6)
    >>> str(score(rules, rules.parse_code("1122"), rules.parse_code("1234")))
    '1B1W'
    """
    return score_digits(rules.code_digits(secret), rules.code_digits(guess))


def format_bytes(n: int) -> str:
    """Readable sizes; past a thousand TiB only the power of ten matters.

    >>> format_bytes(512), format_bytes(3 * 1024**3), format_bytes(72301961339330 * 1024**4)
    ('512 B', '3.0 GiB', 'about 10^14 TiB')
    """
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            break
        size /= 1024
    if unit == "B":
        return f"{size:.0f} B"
    if size >= 1000:
        return f"about 10^{round(math.log10(size))} TiB"
    return f"{size:.1f} {unit}"


def format_count(n: int) -> str:
    """Exact up to a million, then as a power of ten.

    >>> format_count(1296), format_count(35**20)
    ('1296', 'about 10^31')
    """
    return str(n) if n < 10**6 else f"about 10^{round(math.log10(n))}"


def check_max_guesses(rules: Rules, max_guesses: int) -> None:
    """Raise :class:`MastermindError` unless ``max_guesses`` is between 1 and the number of
    codes of ``rules`` (no strategy needs more guesses than there are codes).

    >>> check_max_guesses(Rules(2, 3), 10)
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: must be between 1 and the number of codes (9), got 10
    """
    if not 1 <= max_guesses <= rules.n_codes:
        n = rules.n_codes
        raise MastermindError(f"must be between 1 and the number of codes ({n}), got {max_guesses}")


def check_fits(rules: Rules, memory_limit: int, *, full: bool = True) -> None:
    """Raise :class:`TableTooLarge` if the score table of ``rules`` (``full``; else its codes
    alone) needs more than ``memory_limit`` bytes, or :class:`MastermindError` if no limit
    could hold it. Commands check it before answering from their result cache too: the same
    command and limit get the same answer whatever the cache holds.

    >>> check_fits(Rules(4, 6), 2 * 1024**2)
    >>> check_fits(Rules(4, 6), 1024**2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mastermind.core.errors.TableTooLarge: p4c6r needs about 1.6 MiB for its score table ...
    """
    need = rules.table_bytes() if full else rules.n_codes * (rules.pegs + rules.colors)
    if need <= memory_limit:
        return
    what = "its score table" if full else "its codes"  # (without the table, codes alone)
    if need > 1024**5:  # no --memory-limit helps: say so instead of suggesting one
        raise OutOfReach(
            f"{rules} is out of reach: {format_count(rules.n_codes)} codes, {what} "
            f"would need {format_bytes(need)}"
        )
    need_text, limit_text = format_bytes(need), format_bytes(memory_limit)
    for digits in (2, 4, 6):  # "2.0 GiB above 2.0 GiB": as many digits as tell them apart
        if need_text != limit_text:
            break
        need_text, limit_text = f"{need / 1024**3:.{digits}f} GiB", f"{memory_limit / 1024**3:.{digits}f} GiB"
    if need_text == limit_text:
        need_text, limit_text = f"{need} bytes", f"{memory_limit} bytes"
    raise TableTooLarge(
        f"{rules} needs about {need_text} for {what} ({format_count(rules.n_codes)} codes), "
        f"above the memory limit of {limit_text}"
    )


class CodeTable:
    """The codes of a game and, memory permitting, the all-pairs answer matrix.

    ``codes``: int8 (N, pegs); ``scores[g, s]``: uint8 answer index of guess g against
    secret s (symmetric). With ``full=False`` no matrix is built and :meth:`answers`
    computes one row on demand, for games too large for N x N bytes.

    >>> t = CodeTable(Rules(4, 6))
    >>> t.scores.shape, int(t.partition(t.rules.parse_code("1122")).max())
    ((1296, 1296), 256)
    """

    def __init__(self, rules: Rules, *, full: bool = True, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> None:
        if not isinstance(rules, Rules):
            raise MastermindError(f"rules must be a Rules (Rules.parse('p4c6')), got {type(rules).__name__}")
        self.rules = rules
        check_fits(rules, memory_limit, full=full)
        # (the searches on the table keep within it unless told otherwise: a command's
        # --memory-limit bounds its search as well as its table)
        self.memory_limit = memory_limit
        self.codes = rules.codes_array()
        self.counts = colour_counts(self.codes, rules.colors)
        self.n = rules.n_codes
        self.scores: np.ndarray | None = None
        if full:
            from mastermind.core._kernels import score_matrix

            self.scores = score_matrix(self.codes, self.counts, rules.answer_lut)

    @cached_property
    def all_codes(self) -> np.ndarray:
        """Every code index, as the candidate set at the start of a game."""
        import numpy as np

        return np.arange(self.n, dtype=np.int32)

    def answer_indices(self, guess: Code, candidates: np.ndarray | None = None) -> np.ndarray:
        """Answer index (see :meth:`Rules.answer_index`) of ``guess`` against each candidate
        (all codes if omitted)."""
        if self.scores is not None:
            row = self.scores[guess]
            return row if candidates is None else row[candidates]
        cand = slice(None) if candidates is None else candidates
        return score_rows(
            self.codes[guess],
            self.counts[guess],
            self.codes[cand],
            self.counts[cand],
            self.rules.answer_lut,
            self.rules.pegs,
        )

    def partition(self, guess: Code, candidates: np.ndarray | None = None) -> np.ndarray:
        """Class sizes: how many candidates give each answer index to ``guess``."""
        import numpy as np

        return np.bincount(self.answer_indices(guess, candidates), minlength=self.rules.n_answer_slots)

    def filter(self, candidates: np.ndarray, guess: Code, fb: Feedback) -> np.ndarray:
        """The candidates that answer ``fb`` to ``guess``."""
        return candidates[self.answer_indices(guess, candidates) == self.rules.answer_index(fb)]

    def feedback(self, secret: Code, guess: Code) -> Feedback:
        if self.scores is not None:
            return self.rules.answer_feedbacks[int(self.scores[guess, secret])]
        return score(self.rules, secret, guess)


def colour_counts(codes: np.ndarray, colors: int) -> np.ndarray:
    """int8 (N, colors): how often each colour occurs in each code."""
    import numpy as np

    counts = np.zeros((codes.shape[0], colors), dtype=np.int8)
    for pos in range(codes.shape[1]):
        np.add.at(counts, (np.arange(codes.shape[0]), codes[:, pos]), 1)
    return counts


def score_rows(
    guess: np.ndarray,
    guess_counts: np.ndarray,
    codes: np.ndarray,
    counts: np.ndarray,
    lut: np.ndarray,
    pegs: int,
) -> np.ndarray:
    """Vectorised answers of one guess (digits and colour counts) against many codes."""
    import numpy as np

    black = (codes == guess).sum(axis=1)
    common = np.minimum(counts, guess_counts).sum(axis=1)
    return lut[black * (pegs + 1) + (common - black)]


def score_matrix_numpy(codes: np.ndarray, counts: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """Plain-numpy all-pairs answer matrix, the reference for the numba kernel."""
    import numpy as np

    n, p = codes.shape
    out = np.empty((n, n), dtype=np.uint8)
    step = max(1, 4_000_000 // max(1, n * max(p, counts.shape[1])))
    for start in range(0, n, step):
        g = codes[start : start + step]
        gc = counts[start : start + step]
        black = (g[:, None, :] == codes[None, :, :]).sum(axis=2)
        common = np.minimum(gc[:, None, :], counts[None, :, :]).sum(axis=2)
        out[start : start + step] = lut[black * (p + 1) + (common - black)]
    return out


def all_digit_tuples(rules: Rules) -> Iterable[tuple[int, ...]]:
    """Every code as a tuple of 0-based colours, in index order (slow; for references)."""
    if rules.repeat:
        return product(range(rules.colors), repeat=rules.pegs)
    return permutations(range(rules.colors), rules.pegs)
