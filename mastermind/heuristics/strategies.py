"""One-step heuristics behind the :class:`mastermind.strategy.Strategy` interface.

Default decision rule (it reproduces the published figures): with at most two candidates
left guess the first; otherwise score every code of the pool, keep the best-scoring ones,
prefer one that is still a candidate, then the lowest index. Before the first guess only
the canonical first guesses (one per colour pattern) are scored: every other code is a
symmetric image of one of them.

>>> from mastermind.game import CodeTable, Rules
>>> table = CodeTable(Rules(4, 6))
>>> knuth = ScoredStrategy("minimax", table)
>>> table.rules.code_text(knuth.next_guess(table.all_codes))
'1122'
"""

from __future__ import annotations

import numpy as np

from mastermind.errors import MastermindError
from mastermind.game import Code, CodeTable
from mastermind.heuristics.scores import (
    CRITERIA, TOLERANCE, Scorer, best_possible_key, lexicographic_minima, sorted_distributions,
)
from mastermind.heuristics.orbits import orbit_minima
from mastermind.symmetry import canonical_first_guesses
from mastermind.tree import History

POOLS = ("all", "consistent")
TIE_BREAKS = ("default", "sorted", "random")


def check_choice(what: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise MastermindError(f"unknown {what} {value!r}; use one of {', '.join(allowed)}")


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

    def __init__(self, criterion: str, table: CodeTable, *, pool: str = "all",
                 tie_break: str = "default", seed: int | None = None, name: str | None = None) -> None:
        check_choice("strategy", criterion, CRITERIA)
        check_choice("pool", pool, POOLS)
        check_choice("tie-break", tie_break, TIE_BREAKS)
        self.criterion, self.table, self.pool, self.tie_break = criterion, table, pool, tie_break
        self.name = name or criterion
        self.first_of_two = True  # see mastermind.heuristics.play
        self.deterministic = tie_break != "random"
        self._rng = np.random.default_rng(seed)
        self._first_guesses = np.array(canonical_first_guesses(table.rules), dtype=np.int32)
        self._scorer = Scorer(table, criterion)
        self._n_answers = len(table.rules.answers)
        self._class_sizes: dict[int, np.ndarray] = {}
        self._orbits: dict[int, np.ndarray | None] = {}

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        cands = _nonempty(candidates)
        if len(cands) <= 2:
            return int(cands[0])
        opening = not history and len(cands) == self.table.n
        if opening:
            guesses = self._first_guesses
        elif self.pool == "consistent":
            guesses = cands
        else:
            guesses = self._after_first_guess(cands, history)  # None: every code, guesses[j] == j
        if self.pool == "all" and not opening and self.tie_break != "sorted":
            # a candidate that splits as evenly as any code can wins the tie-break anyway:
            # scoring the candidates alone (n x n) then spares the N x n scan of all codes
            keys = self._scorer.keys(cands, cands)
            best = keys.min()
            if best <= self._best_possible(len(cands)) + TOLERANCE:
                return self._pick(cands[keys <= best + TOLERANCE])
        pool = self.table.all_codes if guesses is None else guesses
        keys = self._scorer.keys(cands, pool)
        limit = keys.min() + TOLERANCE
        if self.tie_break == "default" and guesses is None:
            # fast path over all N codes: candidates first, both in index order
            in_cands = keys[cands] <= limit
            if in_cands.any():
                return int(cands[np.argmax(in_cands)])
            return int(np.argmax(keys <= limit))
        tied = pool[keys <= limit]
        if self.tie_break == "sorted" and len(tied) > 1:
            tied = tied[lexicographic_minima(sorted_distributions(self.table, cands, tied))]
        if not opening and self.pool == "all":
            consistent = tied[np.isin(tied, cands)]
            if len(consistent):
                tied = consistent
        return self._pick(tied)

    def _after_first_guess(self, cands: np.ndarray, history: History) -> np.ndarray | None:
        """One code per orbit of the first guess's stabiliser, when ``cands`` is a whole
        class of the first guess (not a subset someone passed in); else None."""
        if len(history) != 1 or self.tie_break == "random":
            return None  # random ties must be drawn over codes, not orbits
        guess, answer = (int(x) for x in history[0])
        if guess not in self._class_sizes:
            self._class_sizes[guess] = self.table.partition(guess)
            self._orbits[guess] = orbit_minima(self.table, guess)
        if self._class_sizes[guess][answer] != len(cands):
            return None
        return self._orbits[guess]

    def _pick(self, tied: np.ndarray) -> Code:
        """The final choice among equally good guesses (sorted by index)."""
        if self.tie_break == "random":
            return int(tied[self._rng.integers(len(tied))])
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
    first_of_one = True  # one candidate left: it is the guess (see mastermind.heuristics.play)

    def __init__(self, table: CodeTable, seed: int | None = None, name: str = "random") -> None:
        self.table, self.name = table, name
        self._rng = np.random.default_rng(seed)

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        cands = _nonempty(candidates)
        return int(cands[self._rng.integers(len(cands))])
