"""One-step heuristics behind the :class:`mastermind.core.strategy.Strategy` interface.

Default decision rule (it reproduces the published figures): with at most two candidates
left guess the first; otherwise score every code of the pool, keep the best-scoring ones,
prefer one that is still a candidate, then the lowest index. Before the first guess only
the canonical first guesses (one per colour pattern) are scored: every other code is a
symmetric image of one of them. Later, the same holds for the symmetries that fix the
guesses made (:mod:`mastermind.engines.heuristics.orbits`), and two exact shortcuts spare most
scans: a candidate that splits as evenly as any code could is chosen at once, and
otherwise the scan in index order stops at the first code that does.

>>> from mastermind.engines.heuristics.strategies import ScoredStrategy
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(4, 6))
>>> knuth = ScoredStrategy("minimax", table)
>>> table.rules.code_text(knuth.next_guess(table.all_codes))
'1122'
"""

from __future__ import annotations

import numpy as np

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.pools import POOLS, Pool
from mastermind.core.symmetry import canonical_first_guesses
from mastermind.core.tree import History
from mastermind.engines.heuristics.orbits import orbit_minima
from mastermind.engines.heuristics.scores import (
    CRITERIA,
    TOLERANCE,
    Scorer,
    best_possible_key,
    computed_answers,
    lexicographic_minima,
    sorted_distributions,
)

SYMMETRY_MIN_CANDIDATES = 24  # below, scoring every code costs less than finding orbits
SCAN_CHUNK = 1024  # first chunk of codes scored before looking for an early stop
TIE_BREAKS = ("default", "sorted", "random")


def check_choice(what: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise MastermindError(f"unknown {what} {value!r}; use one of {', '.join(allowed)}")


def seed_entropy(seed: int | None) -> int:
    """The seed a strategy draws from: ``seed``, or fresh entropy if None."""
    return int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]


def draw(entropy: int, history: History, count: int) -> int:
    """A uniform draw below ``count`` at the position ``history`` leads to, from ``entropy``
    and that history alone: a seeded strategy is then one fixed strategy, whatever order its
    positions are asked in. Drawn from one generator in turn, the tree that ``export`` and
    ``heuristics`` build and the single game ``solve`` plays made different choices with the
    same seed (a new user's trial).

    >>> from mastermind.engines.heuristics.strategies import draw
    >>> draw(5, ((3, 1),), 10) == draw(5, ((3, 1),), 10)
    True
    """
    key = [entropy, *(int(x) for move in history for x in move)]
    return int(np.random.default_rng(key).integers(count))


def _nonempty(candidates: np.ndarray) -> np.ndarray:
    cands = np.asarray(candidates)
    if len(cands) == 0:
        raise MastermindError("no secret is consistent with the answers given")
    return cands


class ScoredStrategy:
    """Guess the code of the pool whose answer classes score best under ``criterion``.

    ``criterion``: minimax (smallest largest class, Knuth), expected-size (smallest
    sum n_i^2, Irving), entropy (largest entropy), most-parts (most non-empty classes).
    ``pool``: ``all`` codes or only ``consistent`` ones. ``tie_break``: ``default`` (prefer a
    candidate, then the lowest index), ``sorted`` (first the smallest class sizes sorted in
    descending order, compared lexicographically, then as default) or ``random`` (prefer a
    candidate, then uniformly at random, seeded).
    """

    def __init__(
        self,
        criterion: str,
        table: CodeTable,
        *,
        pool: str = "all",
        tie_break: str = "default",
        seed: int | None = None,
        name: str | None = None,
        cancel: CancelToken | None = None,
    ) -> None:
        check_choice("strategy", criterion, CRITERIA)
        check_choice("pool", pool, POOLS)
        check_choice("tie-break", tie_break, TIE_BREAKS)
        self.criterion, self.table, self.pool, self.tie_break = criterion, table, Pool(pool), tie_break
        self.name = name or criterion
        self.first_of_two = True  # see mastermind.engines.heuristics.play
        self.deterministic = tie_break != "random"
        self._entropy = seed_entropy(seed)
        self._first_guesses = np.array(canonical_first_guesses(table.rules), dtype=np.int32)
        # (cancelled, a guess being chosen stops within a fraction of a second: Stopped)
        self._scorer = Scorer(table, criterion, cancel=cancel)
        self._n_answers = len(table.rules.answers)

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        cands = _nonempty(candidates)
        if len(cands) <= 2:
            return int(cands[0])
        opening = not history and len(cands) == self.table.n
        guesses: np.ndarray | None
        if opening:
            guesses = self._first_guesses
        elif self.pool is Pool.CONSISTENT:
            guesses = cands
        else:
            guesses = self._symmetric_pool(cands, history)  # None: every code, guesses[j] == j
        pool = self.table.all_codes if guesses is None else guesses
        keys = None
        if (
            self.pool is Pool.ALL
            and not opening
            and self.tie_break != "sorted"
            and 8 * len(cands) <= len(pool)
        ):
            # a candidate that splits as evenly as any code can wins the tie-break anyway:
            # scoring the candidates alone (n x n) then spares the scan of the whole pool
            cand_keys = self._scorer.keys(cands, cands)
            best = cand_keys.min()
            bound = self._best_possible(len(cands))
            if best <= bound + TOLERANCE:
                return self._pick(cands[cand_keys <= best + TOLERANCE], history)
            if self.tie_break == "default":
                # no candidate reaches the bound: the first code that does is the answer
                keys, hit = self._scan(cands, pool, bound)
                if hit is not None:
                    return hit
        if keys is None:
            keys = self._scorer.keys(cands, pool)
        limit = keys.min() + TOLERANCE
        if self.tie_break == "default" and guesses is None:
            # fast path over all N codes: candidates first, both in index order
            in_cands = keys[cands] <= limit
            if in_cands.any():
                return int(cands[in_cands].min())
            return int(np.argmax(keys <= limit))
        tied = pool[keys <= limit]
        if self.tie_break == "sorted" and len(tied) > 1:
            tied = tied[lexicographic_minima(sorted_distributions(self.table, cands, tied))]
        if not opening and self.pool is Pool.ALL:
            consistent = tied[np.isin(tied, cands)]
            if len(consistent):
                tied = consistent
        return self._pick(tied, history)

    def _scan(self, cands: np.ndarray, pool: np.ndarray, bound: float) -> tuple[np.ndarray, Code | None]:
        """Keys of the pool in index order, in growing chunks, stopping at the first code
        whose key reaches ``bound`` (returned as the hit, with the keys left incomplete)."""
        keys = np.empty(len(pool))
        start, size = 0, SCAN_CHUNK
        while start < len(pool):
            stop = min(len(pool), start + size)
            part = self._scorer.keys(cands, pool[start:stop])
            keys[start:stop] = part
            reached = part <= bound + TOLERANCE
            if reached.any():
                return keys, int(pool[start + int(np.argmax(reached))])
            start, size = stop, 2 * size
        return keys, None

    def _symmetric_pool(self, cands: np.ndarray, history: History) -> np.ndarray | None:
        """One code per orbit of the symmetries fixing the guesses so far, when ``cands``
        are all the secrets consistent with the history (not a subset someone passed in)
        and that saves at least half the work; else None (score every code)."""
        if self.tie_break == "random" or not history or len(cands) < SYMMETRY_MIN_CANDIDATES:
            return None  # random ties are drawn over codes, not orbits; small sets: no gain
        reps = orbit_minima(self.table, [g for g, _ in history])
        if reps is None or 2 * len(reps) > self.table.n:
            return None
        consistent = np.ones(self.table.n, dtype=bool)
        for guess, answer in history:
            consistent &= computed_answers(self.table, int(guess), self.table.all_codes) == answer
        return reps if int(np.count_nonzero(consistent)) == len(cands) else None

    def _pick(self, tied: np.ndarray, history: History) -> Code:
        """The final choice among equally good guesses (sorted by index)."""
        if self.tie_break == "random":
            return int(tied[draw(self._entropy, history, len(tied))])
        return int(tied.min())

    def _best_possible(self, n: int) -> float:
        return best_possible_key(self.criterion, n, self._n_answers)


class SimpleStrategy:
    """The first consistent code in lexicographic order."""

    deterministic = True
    first_of_two = True

    def __init__(self, table: CodeTable, name: str = "simple") -> None:
        self.table, self.name = table, name

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        return int(_nonempty(candidates)[0])


class RandomStrategy:
    """A uniformly random consistent code, from a seeded generator."""

    deterministic = False
    first_of_one = True  # one candidate left: it is the guess (see mastermind.engines.heuristics.play)

    def __init__(self, table: CodeTable, seed: int | None = None, name: str = "random") -> None:
        self.table, self.name = table, name
        self._entropy = seed_entropy(seed)

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        cands = _nonempty(candidates)
        return int(cands[draw(self._entropy, history, len(cands))])
