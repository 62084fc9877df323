"""Rules, codes, feedback and the all-pairs score table.

Codes are plain ints (the index of the code in lexicographic order); their text form has one
symbol per peg with 1-based colours, ``1123``; above 9 colours the symbols go on with letters.

>>> from mastermind.core.game import Rules, score
>>> rules = Rules.parse("p4c6")
>>> rules, rules.n_codes, len(rules.answers)
(Rules(pegs=4, colours=6, repeat=True), 1296, 14)
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
from mastermind.core.variant import STANDARD, VARIANTS, Variant, find_variant
from mastermind.core.variant import Feedback as Feedback  # (the answers are defined there)
from mastermind.core.words import plural, quoted

if TYPE_CHECKING:  # numpy is imported where it is used: rules and codes alone need none
    import numpy as np  # (the command line answers from its result cache without it)

    from mastermind.core.cancel import CancelToken

Code: TypeAlias = int
"""A code: its index in the lexicographic enumeration of the game's codes."""
AnswerIndex: TypeAlias = int
"""A feedback as a compact index, see :meth:`Rules.answer_index`."""

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_PEGS = 20  # keeps every answer index inside a uint8
MAX_COLORS = len(SYMBOLS)
DEFAULT_MEMORY_LIMIT = 2 * 1024**3

_DIGITS_MAX = 9  # a longer number is out of range: named, not parsed (Python refuses 4300 digits)


def rules_grammar(number: str = "([0-9]+)") -> str:
    """The rules text as a regular expression, the one copy of its grammar: ``pPcC`` or ``PxC``,
    then ``r`` (repetition, the default) or ``n`` (none), then a variant's suffix (none for
    the standard game, ``b`` for black-peg). Groups: pegs and colours (each ``number``'s
    groups) as ``p..c..``, the same as ``..x..``, the repetition letter, the variant suffix.
    ``--games`` reads ranges with ``number`` a range. ASCII digits only ("³" is a digit to
    Python but not to int()).

    >>> import re
    >>> from mastermind.core.game import rules_grammar
    >>> re.fullmatch(rules_grammar(), "4x6nb").groups()
    (None, None, '4', '6', 'n', 'b')
    """
    suffixes = "|".join(re.escape(v.suffix) for v in sorted(VARIANTS.values(), key=lambda v: -len(v.suffix)))
    return rf"(?:p{number}c{number}|{number}x{number})([rn]?)({suffixes})"


def rules_schema_pattern() -> str:
    """The pattern of the rules text as written (``str(rules)``): the JSON schemas' ``rules``.

    >>> from mastermind.core.game import rules_schema_pattern
    >>> rules_schema_pattern()
    '^p[0-9]+c[0-9]+[rn](b)?$'
    """
    suffixes = "|".join(v.suffix for v in VARIANTS.values() if v.suffix)
    return f"^p[0-9]+c[0-9]+[rn]({suffixes})?$"


def _rules_re() -> re.Pattern[str]:
    return re.compile(rules_grammar(), re.IGNORECASE)


def count_of(digits: str, what: str, most: int) -> int:
    """The number a run of ASCII digits spells (pegs or colours), refused in words when it
    is far out of range (int() refuses thousands of digits, and the message would quote them).

    >>> from mastermind.core.game import count_of
    >>> count_of("06", "pegs", 10)
    6
    """
    if len(digits.lstrip("0")) > _DIGITS_MAX:
        shown = digits if len(digits) <= 24 else f"{digits[:12]}... ({len(digits)} digits)"
        raise MastermindError(f"{what} must be between 1 and {most}, got {shown}")
    return int(digits)


LEAN_WORK_BYTES = 10
"""Bytes a code of the work over every code without the answer matrix (see
:meth:`Rules.lean_bytes`): int32 candidates (4), their answers (1), a mask (1), the candidates
kept (4)."""

GUESS_KEYS_BYTES = 9
"""Bytes a code that choosing a guess among every code adds to :data:`LEAN_WORK_BYTES` (a
heuristic strategy without the table): the float64 key of each code as a guess, and a mask of
the best (heuristics p8c8 at --memory-limit 0.44 peaked at 629 MB, of which 134 MB keys)."""

PASS_CODES = 1 << 20
"""Codes a pass over every code takes at a time (:meth:`CodeTable.partition`): its temporary
arrays stay a few MiB, not ~13 bytes a code of the game (p8c8: 16.7 million codes)."""


@dataclass(frozen=True)
class Rules:
    """A game: ``pegs`` positions, ``colours`` colours, repeated colours allowed or not, and the
    variant that scores it (:mod:`mastermind.core.variant`; a name is read as that variant).

    >>> from mastermind.core.game import Rules
    >>> str(Rules(4, 6)), str(Rules(4, 10, repeat=False)), Rules(3, 5, variant="black-peg")
    ('p4c6r', 'p4c10n', Rules(pegs=3, colours=5, repeat=True, variant='black-peg'))
    """

    pegs: int = 4
    colours: int = 6
    repeat: bool = True
    variant: Variant = STANDARD

    @property
    def colors(self) -> int:
        """The number of colours (:attr:`colours`, by the name the code base has used)."""
        return self.colours

    def __post_init__(self) -> None:
        # (Rules(3, 4, repeat="no") was a game with repetition, and Rules(3.0, 4) "p3.0c4r")
        for name, value in (("pegs", self.pegs), ("colours", self.colors)):
            if not isinstance(value, numbers.Integral) or isinstance(value, bool):
                raise MastermindError(f"{name} must be a whole number, got {value!r}")
        numpy_bool = type(self.repeat).__module__ == "numpy" and self.repeat in (True, False)
        if not (isinstance(self.repeat, bool) or numpy_bool):
            raise MastermindError(f"repeat must be True or False, got {self.repeat!r}")
        for f in fields(self)[:3]:  # (numpy numbers as plain ones: JSON and hashing take those)
            value = getattr(self, f.name)
            object.__setattr__(self, f.name, bool(value) if f.name == "repeat" else int(value))
        if isinstance(self.variant, str):
            object.__setattr__(self, "variant", find_variant(self.variant))
        if not isinstance(self.variant, Variant):
            raise MastermindError(f"variant must be a Variant or its name, got {self.variant!r}")
        if not 1 <= self.pegs <= MAX_PEGS:
            raise MastermindError(f"pegs must be between 1 and {MAX_PEGS}, got {self.pegs}")
        if not 1 <= self.colors <= MAX_COLORS:
            raise MastermindError(f"colours must be between 1 and {MAX_COLORS}, got {self.colors}")
        if not self.repeat and self.colors < self.pegs:
            raise MastermindError(
                f"p{self.pegs}c{self.colors}n{self.variant.suffix}: without repetition colours must be at "
                f"least pegs ({self.pegs})"
            )

    def __str__(self) -> str:
        return f"p{self.pegs}c{self.colors}{'r' if self.repeat else 'n'}{self.variant.suffix}"

    def __repr__(self) -> str:
        variant = "" if self.variant is STANDARD else f", variant={self.variant.name!r}"
        return f"Rules(pegs={self.pegs}, colours={self.colors}, repeat={self.repeat}{variant})"

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read ``p4c6`` or ``p4c6r`` (repetition allowed) or ``p4c6n`` (no repetition), or the
        same game written ``4x6``, ``4x6r`` or ``4x6n``; a ``b`` after them is black-peg
        Mastermind (``p4c6b``, ``p4c6nb``, ``4x6b``). See :func:`rules_grammar`.

        >>> from mastermind.core.game import Rules
        >>> Rules.parse("4x6n"), Rules.parse("P5C8"), str(Rules.parse("4x6b"))
        (Rules(pegs=4, colours=6, repeat=False), Rules(pegs=5, colours=8, repeat=True), 'p4c6rb')
        """
        if not isinstance(text, str):
            raise MastermindError(f"rules must be text such as p4c6, got {text!r}")
        m = _rules_re().fullmatch(text.strip())
        if not m:
            raise MastermindError(
                f"cannot read rules {quoted(text)}: use pPEGScCOLOURS or PEGSxCOLOURS with "
                "optional r or n, then b for black pegs only, e.g. p4c6, p4c6n, 4x6n or p4c6b"
            )
        pegs = m.group(1) if m.group(1) is not None else m.group(3)
        colours = m.group(2) if m.group(2) is not None else m.group(4)
        repeat = m.group(5).lower() != "n"
        variant = find_variant(m.group(6))
        return cls(
            count_of(pegs, "pegs", MAX_PEGS), count_of(colours, "colours", MAX_COLORS), repeat, variant
        )

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
            # Code index = digits in base c, so position pos cycles through the colours in
            # blocks of c**(p-1-pos): strided writes, 6x faster than dividing the indices
            # (1.3 s of p8c8's 16.7 million codes, none of it stoppable)
            out = np.empty((self.n_codes, p), dtype=np.int8)
            colours = np.arange(c, dtype=np.int8)[None, :, None]
            for pos in range(p):
                out.reshape(c**pos, c, c ** (p - 1 - pos), p)[:, :, :, pos] = colours
            return out
        return np.array(list(permutations(range(c), p)), dtype=np.int8).reshape(-1, p)

    def colour_counts_array(self) -> np.ndarray:
        """int8 (n_codes, colors): how often each colour occurs in each code, in index order
        (``colour_counts(self.codes_array(), self.colors)``, 10x faster with repetition).

        >>> from mastermind.core.game import Rules
        >>> Rules(2, 3).colour_counts_array()[[0, 1, 5]].tolist()
        [[2, 0, 0], [1, 1, 0], [0, 1, 1]]
        """
        import numpy as np

        c, p = self.colors, self.pegs
        if not self.repeat:
            return colour_counts(self.codes_array(), c)
        counts = np.zeros((self.n_codes, c), dtype=np.int8)
        for pos in range(p):
            blocks = counts.reshape(c**pos, c, c ** (p - 1 - pos), c)
            for colour in range(c):
                blocks[:, colour, :, colour] += 1
        return counts

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
            parts = re.split(r"\s*,\s*|\s+", raw)
            if "" in parts:  # ("1,,2,3,4" read as 1234: a colour left out, or a comma too many)
                raise MastermindError(f"code {quoted(raw)}: a comma with no colour on one side")
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

    # ---- feedback: the variant's (see mastermind.core.variant) ----------------------------
    @cached_property
    def n_answer_slots(self) -> int:
        """Size of the answer index space (standard: every (black, white) with black + white <= pegs)."""
        return self.variant.n_answer_slots(self.pegs)

    def answer_index(self, fb: Feedback) -> AnswerIndex:
        """Compact index of a feedback (standard: ordered by black, then white). The win is the last."""
        return self.variant.answer_index(fb, self.pegs)

    @cached_property
    def answer_feedbacks(self) -> tuple[Feedback, ...]:
        """The feedback of every answer index (including impossible ones, such as (p-1, 1))."""
        return self.variant.answer_feedbacks(self.pegs)

    @cached_property
    def answer_lut(self) -> np.ndarray:
        """uint8 lookup from peg counts to answer: ``lut[black * (pegs + 1) + white]`` is the
        answer index (:meth:`mastermind.core.variant.Variant.answer_lut`)."""
        return self.variant.answer_lut(self.pegs)

    @property
    def win_index(self) -> AnswerIndex:
        return self.n_answer_slots - 1

    @cached_property
    def answer_slots(self) -> tuple[AnswerIndex, ...]:
        """The answer indices of :attr:`answers`, in order (the win last): the slots a
        class count needs, where the others stay empty.

        >>> from mastermind.core.game import Rules
        >>> Rules(3, 4).answer_slots, Rules(5, 8, repeat=False).answer_slots[:3]
        ((0, 1, 2, 3, 4, 5, 6, 7, 9), (2, 3, 4))
        """
        return tuple(self.answer_index(fb) for fb in self.answers)

    @cached_property
    def feedback_example(self) -> Feedback:
        """A feedback this game gives, for examples: one with black and white pegs if any,
        else one with pegs that is not the win, else the win.

        >>> from mastermind.core.game import Rules
        >>> games = ((4, 6), (4, 4, False), (3, 2), (1, 3), (3, 2, True, "b"))
        >>> [str(Rules(*g).feedback_example) for g in games]
        ['1B1W', '1B3W', '1B2W', '1B0W', '1B']
        """
        win = self.variant.win(self.pegs)
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

        >>> from mastermind.core.game import Rules
        >>> r = Rules(3, 4)
        >>> len(r.answers), r.n_answer_slots, r.answer_feedbacks[8], r.answers[8]
        (9, 10, Feedback(black=2, white=1), Feedback(black=3, white=0))
        """
        if self.n_codes == 1:
            return (self.variant.win(self.pegs),)
        return self.variant.possible_answers(self.pegs, self.colors, self.repeat)

    def parse_feedback(self, text: str) -> Feedback:
        fb = self.variant.parse_answer(text, self.pegs, self.feedback_example)
        if fb not in self.answers:
            raise MastermindError(f"feedback {fb} cannot occur in {self}")
        return fb

    def table_bytes(self) -> int:
        """Memory of a full :class:`CodeTable`: the N x N answer matrix plus the codes."""
        n = self.n_codes
        return n * n + n * (self.pegs + self.colors)

    def lean_bytes(self, work: int = LEAN_WORK_BYTES) -> int:
        """Memory of a :class:`CodeTable` without the answer matrix, and of the work over all
        its codes: the codes and their colour counts, then ``work`` bytes a code (by default
        :data:`LEAN_WORK_BYTES`: the codes as a set of candidates, their answers to a guess,
        the mask of one answer and the candidates it keeps; a heuristic adds
        :data:`GUESS_KEYS_BYTES`). The codes alone were the estimate, and partition and
        simulate on p8c8 peaked at twice it."""
        return self.n_codes * (self.pegs + self.colors + work)


def score(rules: Rules, secret: Code, guess: Code) -> Feedback:
    """Feedback for ``guess`` when the secret is ``secret``.

    >>> from mastermind.core.game import Rules, score
    >>> rules, black_peg = Rules(4, 6), Rules(4, 6, variant="black-peg")
    >>> str(score(rules, rules.parse_code("1122"), rules.parse_code("1234")))
    '1B1W'
    >>> str(score(black_peg, black_peg.parse_code("1122"), black_peg.parse_code("1234")))
    '1B'
    """
    return rules.variant.score_digits(rules.code_digits(secret), rules.code_digits(guess))


def format_bytes(n: int) -> str:
    """Readable sizes; past a thousand TiB only the power of ten matters.

    >>> from mastermind.core.game import format_bytes
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

    >>> from mastermind.core.game import format_count
    >>> format_count(1296), format_count(35**20)
    ('1296', 'about 10^31')
    """
    return str(n) if n < 10**6 else f"about 10^{round(math.log10(n))}"


def check_max_guesses(rules: Rules, max_guesses: int) -> None:
    """Raise :class:`MastermindError` unless ``max_guesses`` is between 1 and the number of
    codes of ``rules`` (no strategy needs more guesses than there are codes).

    >>> from mastermind.core.game import Rules, check_max_guesses
    >>> check_max_guesses(Rules(2, 3), 10)
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: must be between 1 and the number of codes (9), got 10
    """
    if not 1 <= max_guesses <= rules.n_codes:
        n = rules.n_codes
        raise MastermindError(f"must be between 1 and the number of codes ({n}), got {max_guesses}")


def check_fits(rules: Rules, memory_limit: int, *, full: bool = True, work: int = LEAN_WORK_BYTES) -> None:
    """Raise :class:`TableTooLarge` if the score table of ``rules`` (``full``; else its codes
    alone and ``work`` bytes a code: :meth:`Rules.lean_bytes`) needs more than
    ``memory_limit`` bytes, or :class:`MastermindError` if no limit could hold it. Commands
    check it before answering from their result cache too: the same command and limit get
    the same answer whatever the cache holds.

    >>> from mastermind.core.game import Rules, check_fits
    >>> check_fits(Rules(4, 6), 2 * 1024**2)
    >>> check_fits(Rules(4, 6), 1024**2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mastermind.core.errors.TableTooLarge: p4c6r needs about 1.6 MiB for its score table ...
    """
    need = rules.table_bytes() if full else rules.lean_bytes(work)
    if need <= memory_limit:
        return
    what = "its score table" if full else "its codes and the work over them"  # (without the table)
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

    >>> from mastermind.core.game import CodeTable, Rules
    >>> t = CodeTable(Rules(4, 6))
    >>> t.scores.shape, int(t.partition(t.rules.parse_code("1122")).max())
    ((1296, 1296), 256)
    """

    def __init__(
        self,
        rules: Rules,
        *,
        full: bool = True,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        cancel: CancelToken | None = None,
        work: int = LEAN_WORK_BYTES,
    ) -> None:
        if not isinstance(rules, Rules):
            raise MastermindError(f"rules must be a Rules (Rules.parse('p4c6')), got {type(rules).__name__}")
        self.rules = rules
        check_fits(rules, memory_limit, full=full, work=work)
        # (the searches on the table keep within it unless told otherwise: a command's
        # --memory-limit bounds its search as well as its table)
        self.memory_limit = memory_limit
        self.codes = rules.codes_array()
        self.counts = rules.colour_counts_array()
        self.n = rules.n_codes
        self.scores: np.ndarray | None = None
        if full:
            self.scores = score_matrix(self.codes, self.counts, rules.answer_lut, cancel)

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
        import numpy as np

        from mastermind.core._kernels import answers_of

        cands = self.all_codes if candidates is None else np.ascontiguousarray(candidates, dtype=np.int32)
        out = np.empty(len(cands), dtype=np.uint8)
        answers_of(self.codes, self.counts, self.rules.answer_lut, int(guess), cands, out)
        return out

    def partition(
        self, guess: Code, candidates: np.ndarray | None = None, cancel: CancelToken | None = None
    ) -> np.ndarray:
        """Class sizes: how many candidates give each answer index to ``guess`` (all codes if
        omitted: counted :data:`PASS_CODES` at a time without the table, ``cancel`` looked
        at between passes: :class:`~mastermind.core.cancel.Stopped`)."""
        import numpy as np

        slots = self.rules.n_answer_slots
        if candidates is not None or self.scores is not None:
            return np.bincount(self.answer_indices(guess, candidates), minlength=slots)
        sizes = np.zeros(slots, dtype=np.int64)
        for start in range(0, self.n, PASS_CODES):
            if cancel is not None:
                cancel.check()
            part = np.arange(start, min(start + PASS_CODES, self.n), dtype=np.int32)
            sizes += np.bincount(self.answer_indices(guess, part), minlength=slots)
        return sizes

    def classes(self, guess: Code, candidates: np.ndarray) -> list[tuple[AnswerIndex, np.ndarray]]:
        """The candidates that give each answer to ``guess``: (answer index, those candidates
        as int32 in their order) for each answer some candidate gives, by answer index. The
        classes are views of one array of the candidates grouped (4 bytes a candidate): an
        argsort's int64 indices, and ``np.bincount``'s int64 copy of the answers, took twice
        that, and p8c8's heuristics past --memory-limit.

        >>> from mastermind.core.game import CodeTable, Rules
        >>> table = CodeTable(Rules(2, 2))
        >>> answers = table.rules.answer_feedbacks
        >>> [(str(answers[a]), part.tolist()) for a, part in table.classes(1, [0, 1, 2, 3])]
        [('0B2W', [2]), ('1B0W', [0, 3]), ('2B0W', [1])]
        """
        import numpy as np

        from mastermind.core._kernels import group_by_answer

        cands = np.ascontiguousarray(candidates, dtype=np.int32)
        answers = np.ascontiguousarray(self.answer_indices(guess, cands))
        grouped, starts, sizes = group_by_answer(answers, cands, self.rules.n_answer_slots)
        return [(a, grouped[starts[a] : starts[a] + sizes[a]]) for a in np.flatnonzero(sizes).tolist()]

    def filter(self, candidates: np.ndarray, guess: Code, fb: Feedback) -> np.ndarray:
        """The candidates that answer ``fb`` to ``guess``."""
        return candidates[self.answer_indices(guess, candidates) == self.rules.answer_index(fb)]

    def feedback(self, secret: Code, guess: Code) -> Feedback:
        if self.scores is not None:
            return self.rules.answer_feedbacks[int(self.scores[guess, secret])]
        return score(self.rules, secret, guess)


SCORE_BLOCKS = 64
"""Blocks of rows :func:`score_matrix` builds, its cancel token looked at in between: p5c8's
1 GiB took 1.4-2.5 s and p6c6's 2 GiB 5 s, whatever a Ctrl-C or a time limit said."""


def score_matrix(
    codes: np.ndarray, counts: np.ndarray, lut: np.ndarray, cancel: CancelToken | None = None
) -> np.ndarray:
    """uint8 (N, N): the answer index of every guess (row) against every secret, from the
    codes, their colour counts and the variant's answer lookup (``Rules.answer_lut``);
    :class:`~mastermind.core.cancel.Stopped` once ``cancel`` is cancelled.

    >>> from mastermind.core.game import Rules, score_matrix
    >>> rules = Rules(2, 2)
    >>> score_matrix(rules.codes_array(), rules.colour_counts_array(), rules.answer_lut).tolist()
    [[5, 3, 3, 0], [3, 5, 2, 3], [3, 2, 5, 3], [0, 3, 3, 5]]
    """
    import numpy as np

    from mastermind.core._kernels import score_rows

    n = codes.shape[0]
    out = np.empty((n, n), dtype=np.uint8)
    codes_t, counts_t = np.ascontiguousarray(codes.T), np.ascontiguousarray(counts.T)
    rows = max(1, -(-n // SCORE_BLOCKS))
    for first in range(0, n, rows):
        if cancel is not None:
            cancel.check()
        score_rows(codes, counts, codes_t, counts_t, lut, first, min(first + rows, n), out)
    return out


def colour_counts(codes: np.ndarray, colors: int) -> np.ndarray:
    """int8 (N, colors): how often each colour occurs in each code."""
    import numpy as np

    counts = np.zeros((codes.shape[0], colors), dtype=np.int8)
    rows = np.arange(codes.shape[0])
    for pos in range(codes.shape[1]):
        # (each row occurs once per position, so a plain fancy += adds every peg;
        # np.add.at did the same 5x slower: 12 s of p8c8's 16.7 million codes)
        counts[rows, codes[:, pos]] += 1
    return counts


def all_digit_tuples(rules: Rules) -> Iterable[tuple[int, ...]]:
    """Every code as a tuple of 0-based colours, in index order (slow; for references)."""
    if rules.repeat:
        return product(range(rules.colors), repeat=rules.pegs)
    return permutations(range(rules.colors), rules.pegs)
