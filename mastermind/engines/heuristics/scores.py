"""Scores of guesses: how well each splits the candidate set, as keys to minimise.

Every criterion is scored in a form where ties are real ties: the largest class, the
integer sum of squared class sizes (Irving's expected size times n), minus the number of
classes, all exact in float64; and for entropy the sum of n_i ln n_i (entropy is
ln n - that / n), compared with :data:`TOLERANCE` so that equal distributions in a
different order tie.

>>> import numpy as np
>>> from mastermind.engines.heuristics.scores import guess_keys
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(4, 6))
>>> firsts = np.array([table.rules.parse_code(t) for t in ("1122", "1123", "1234")])
>>> guess_keys(table, table.all_codes, firsts, "minimax").tolist()
[256.0, 276.0, 312.0]
>>> guess_keys(table, table.all_codes, firsts, "most-parts").tolist()
[-13.0, -14.0, -14.0]
"""

from __future__ import annotations

import numpy as np

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules

CRITERIA = ("minimax", "expected-size", "entropy", "most-parts")
"""The scored heuristics, by the name of the strategy that uses them."""

TOLERANCE = 1e-6
"""Keys within this distance of the best tie (integer keys differ by at least 1)."""

STOP_WORK = 50_000_000  # guesses x candidates between two looks at a cancel token (about 0.1 s)
PARALLEL_WORK = 100_000  # guesses x candidates (about 0.2 ms of work) above which two threads pay off


STREAM_ABOVE = 256 << 20
"""Score tables larger than this (bytes) are not built: the kernels compute each answer
as they count (p5c8: 1 GiB of table against about 170 MiB in all)."""


def wants_full_table(rules: Rules) -> bool:
    """Whether the heuristics should look answers up in a full table (small games) or
    compute them as they go (:data:`STREAM_ABOVE`).

    >>> from mastermind.engines.heuristics.scores import wants_full_table
    >>> from mastermind.core.game import Rules
    >>> wants_full_table(Rules(4, 6)), wants_full_table(Rules(5, 8))
    (True, False)
    """
    return rules.table_bytes() <= STREAM_ABOVE


def computed_answers(table: CodeTable, guess: int, candidates: np.ndarray) -> np.ndarray:
    """Answers of ``guess`` against ``candidates`` (uint8): looked up in the score table, or
    computed by the compiled kernel when there is none (one call, not a numpy pass per peg)."""
    return table.answer_indices(guess, candidates)


_CODES = {"minimax": 0, "expected-size": 1, "entropy": 2, "most-parts": 3}  # see _kernels


def criterion_code(name: str) -> int:
    if name not in _CODES:
        raise MastermindError(f"unknown criterion {name!r}; use one of {', '.join(CRITERIA)}")
    return _CODES[name]


def xlogx_table(n: int) -> np.ndarray:
    """``k ln k`` for k = 0..n (0 for k = 0).

    >>> from mastermind.engines.heuristics.scores import xlogx_table
    >>> xlogx_table(3).round(3).tolist()
    [0.0, 0.0, 1.386, 3.296]
    """
    k = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    out[1:] = k[1:] * np.log(k[1:])
    return out


_EMPTY_SCORES = np.zeros((0, 0), dtype=np.uint8)


class Scorer:
    """Scores guesses of one game under one criterion with the numba kernel.

    Holds the kernel's fixed arguments, so that the thousands of calls made while a tree
    is built cost little beyond the kernel itself.
    """

    def __init__(self, table: CodeTable, criterion: str, cancel: CancelToken | None = None) -> None:
        from mastermind.engines.heuristics import _kernels

        self._kernels = _kernels
        self.table, self.criterion, self.cancel = table, criterion, cancel
        scores = _EMPTY_SCORES if table.scores is None else table.scores
        # (the table's own arrays: a transposed copy cost 16 bytes a code of p8c8, beyond
        # the memory its --memory-limit counts)
        self._args = (
            scores,
            np.ascontiguousarray(table.codes),
            np.ascontiguousarray(table.counts),
            table.rules.answer_lut,
        )
        code = criterion_code(criterion)
        # (only entropy reads the k ln k table: 134 MB and 0.6 s for p8c8's codes otherwise)
        xlogx = xlogx_table(table.n if code == _CODES["entropy"] else 0)
        self._tail = (table.rules.n_answer_slots, code, xlogx)

    def keys(self, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """Key (float64, smaller is better) of every guess over the candidate set.

        Both must hold valid code indices: the kernel does not check them (see
        :func:`guess_keys`, which does).
        """
        cands = np.ascontiguousarray(candidates, dtype=np.int32)
        gs = np.ascontiguousarray(guesses, dtype=np.int32)
        out = np.empty(len(gs), dtype=np.float64)
        if len(gs) == 0:
            return out
        if self.cancel is None:
            self._keys(cands, gs, out)
            return out
        # a cancel token asked between parts of about STOP_WORK pairs: a guess of p8c8 scored
        # every code over millions of candidates in one call, half a minute past a time limit;
        # parts of two blocks at least (the threads' share) while they stay under a second
        step = max(1, STOP_WORK // max(1, len(cands)))
        if 2 * self._kernels.BLOCK * len(cands) <= 8 * STOP_WORK:
            step = max(step, 2 * self._kernels.BLOCK)
        for start in range(0, len(gs), step):
            self.cancel.check()
            self._keys(cands, gs[start : start + step], out[start : start + step])
        return out

    def _keys(self, cands: np.ndarray, gs: np.ndarray, out: np.ndarray) -> None:
        k = self._kernels
        if len(gs) * len(cands) >= PARALLEL_WORK and len(gs) > k.BLOCK:
            k.score_guesses_parallel(*self._args, cands, gs, *self._tail, out)
        else:
            k.score_guess_range(*self._args, cands, gs, *self._tail, 0, len(gs), out)


def guess_keys(table: CodeTable, candidates: np.ndarray, guesses: np.ndarray, criterion: str) -> np.ndarray:
    """Key (float64, smaller is better) of every guess over the candidate set (numba)."""
    for what, codes in (("candidate", candidates), ("guess", guesses)):
        codes = np.asarray(codes)
        if codes.size and (codes.min() < 0 or codes.max() >= table.n):
            raise MastermindError(f"{what} index out of range 0..{table.n - 1} for {table.rules}")
    return Scorer(table, criterion).keys(candidates, guesses)


def best_possible_key(criterion: str, n: int, n_answers: int) -> float:
    """A lower bound on the key of any guess over ``n`` candidates with ``n_answers`` answers.

    Every criterion is best for the most even split: ``n_answers`` classes differing in size
    by at most one (all singletons when ``n <= n_answers``).

    >>> from mastermind.engines.heuristics.scores import best_possible_key
    >>> [best_possible_key(c, 30, 14) for c in ("minimax", "expected-size", "most-parts")]
    [3.0, 66.0, -14.0]
    >>> best_possible_key("entropy", 5, 14)
    0.0
    """
    q, r = divmod(n, n_answers)
    if criterion == "minimax":
        return float(q + (r > 0))
    if criterion == "expected-size":
        return float((n_answers - r) * q * q + r * (q + 1) ** 2)
    if criterion == "entropy":
        xlogx = xlogx_table(q + 1)
        return float((n_answers - r) * xlogx[q] + r * xlogx[q + 1])
    if criterion == "most-parts":
        return -float(min(n, n_answers))
    raise MastermindError(f"unknown criterion {criterion!r}; use one of {', '.join(CRITERIA)}")


def class_counts_numpy(table: CodeTable, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """Plain numpy: ``out[j, a]`` candidates answering ``a`` to ``guesses[j]``."""
    slots = table.rules.n_answer_slots
    guesses = np.asarray(guesses)
    out = np.zeros((len(guesses), slots), dtype=np.int64)
    for j, g in enumerate(guesses.tolist()):
        out[j] = np.bincount(table.answer_indices(g, candidates), minlength=slots)
    return out


def keys_from_counts(counts: np.ndarray, criterion: str) -> np.ndarray:
    """The key of each row of class counts, as :func:`guess_keys` computes it."""
    counts = np.asarray(counts, dtype=np.int64)
    if criterion == "minimax":
        return counts.max(axis=1).astype(np.float64)
    if criterion == "expected-size":
        return (counts * counts).sum(axis=1).astype(np.float64)
    if criterion == "entropy":
        safe = np.maximum(counts, 1)
        return (counts * np.log(safe)).sum(axis=1)
    if criterion == "most-parts":
        return -np.count_nonzero(counts, axis=1).astype(np.float64)
    raise MastermindError(f"unknown criterion {criterion!r}; use one of {', '.join(CRITERIA)}")


def guess_keys_numpy(
    table: CodeTable, candidates: np.ndarray, guesses: np.ndarray, criterion: str
) -> np.ndarray:
    """Reference for :func:`guess_keys`: bincount per guess, then the criterion."""
    return keys_from_counts(class_counts_numpy(table, candidates, guesses), criterion)


def sorted_distributions(table: CodeTable, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """Class sizes of each guess sorted in descending order (one row per guess)."""
    return -np.sort(-class_counts_numpy(table, candidates, guesses), axis=1)


def lexicographic_minima(rows: np.ndarray) -> np.ndarray:
    """Indices of the rows equal to the lexicographically smallest row.

    >>> import numpy as np
    >>> from mastermind.engines.heuristics.scores import lexicographic_minima
    >>> lexicographic_minima(np.array([[3, 1], [2, 2], [3, 0], [2, 2]])).tolist()
    [1, 3]
    """
    rows = np.asarray(rows)
    keep = np.arange(len(rows))
    for col in range(rows.shape[1]):
        column = rows[keep, col]
        keep = keep[column == column.min()]
        if len(keep) == 1:
            break
    return keep
