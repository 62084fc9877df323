"""Proven lower bounds on the worst case and on the total number of guesses.

Every bound here holds for every strategy, adaptive and allowed to guess any code:

- *crude*: after the first guess at least ``mu`` secrets remain (``mu``: the smallest possible
  largest class, the one of Knuth's first guess); each later guess splits a set into at most
  ``k`` answers, and the last guess must be right, so ``k ** (n - 2) >= mu``.
- *counting*: a node solves at most one secret and has at most ``B`` non-winning answers, so
  within ``D`` guesses at most ``1 + B + ... + B ** (D - 1)`` secrets are solved.
- *perfect tree*: the same count gives the least possible sum of depths of ``n`` secrets.
- *lookahead*: try every guess for real for ``k`` levels and apply the bound above to the
  classes below: ``1 + min_g max_a W(S_a)`` for the worst case, ``n + min_g sum_a T(S_a)`` for
  the total. At the root only one first guess per symmetry class is needed.
- *branching of the parent* (default): a subset of ``S`` splits into no more classes under any
  guess than ``S`` does, so below the last guess tried for real on ``S`` the classes are
  bounded with ``B_S``, the most non-winning answers any code gets on ``S``, instead of ``B``.
  This is the bound of the published table: 5442 for p4c6 (1111: 6040, 1112: 5611,
  1122: 5513, 1123: 5442, 1234: 5515).
- *refined* (optional, stronger and slower): each bottom class uses its own branching.

>>> from mastermind.engines.models.bounds import (
...     counting_worst_bound,
...     lookahead_total_bound,
...     perfect_tree_total,
... )
>>> from mastermind.core.game import CodeTable, Rules
>>> t = CodeTable(Rules(3, 3))
>>> counting_worst_bound(t.rules, 27), perfect_tree_total(t.rules, 27)
(3, 71)
>>> lookahead_total_bound(t, 1) >= perfect_tree_total(t.rules, 27)
True
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable, Rules
from mastermind.core.symmetry import canonical_first_guesses

if TYPE_CHECKING:
    from mastermind.engines.models._kernels import BoundTables


def branching(rules: Rules) -> int:
    """``B``: the number of answers other than the win, the most children a node can have."""
    return len(rules.answers) - 1


def knuth_first_guess(table: CodeTable) -> tuple[Code, int]:
    """Knuth's first guess and its largest class.

    The canonical first guess (one per colour pattern) whose largest answer class is smallest,
    ties to the lowest code; its largest class is the smallest possible over all guesses.

    >>> from mastermind.engines.models.bounds import knuth_first_guess
    >>> from mastermind.core.game import CodeTable, Rules
    >>> t = CodeTable(Rules(4, 6))
    >>> g, mu = knuth_first_guess(t)
    >>> t.rules.code_text(g), mu
    ('1122', 256)
    """
    best: tuple[int, Code] | None = None
    for g in canonical_first_guesses(table.rules):
        mu = int(table.partition(g).max())
        if best is None or (mu, g) < best:
            best = (mu, g)
    assert best is not None
    return best[1], best[0]


def crude_worst_bound(rules: Rules, largest_class: int) -> int:
    """Smallest ``n`` with ``k ** (n - 2) >= mu`` (``k`` answers, ``mu`` the largest class).

    >>> from mastermind.core.game import Rules
    >>> from mastermind.engines.models.bounds import crude_worst_bound
    >>> crude_worst_bound(Rules(4, 6), 256), crude_worst_bound(Rules(4, 4), 46)
    (5, 4)
    """
    if rules.n_codes == 1:
        return 1
    k = len(rules.answers)
    if largest_class <= 1:
        # one secret left after the first guess: one more guess (or none if the first won,
        # but some secret is not the first guess when there are two or more codes)
        return 2
    n, reach = 2, 1
    while reach < largest_class:
        n += 1
        reach *= k
    return n


def solved_within(rules: Rules, depth: int) -> int:
    """At most ``1 + B + ... + B ** (depth - 1)`` secrets are solved within ``depth`` guesses."""
    b = branching(rules)
    return sum(b**i for i in range(depth))


def counting_worst_bound(rules: Rules, n: int) -> int:
    """The least worst case for ``n`` secrets allowed by counting alone.

    >>> from mastermind.core.game import Rules
    >>> from mastermind.engines.models.bounds import counting_worst_bound
    >>> counting_worst_bound(Rules(4, 6), 1296), counting_worst_bound(Rules(4, 6), 14)
    (4, 2)
    """
    if n <= 0:
        return 0
    depth = 1
    while solved_within(rules, depth) < n:
        depth += 1
    return depth


def perfect_tree_table(rules: Rules, n_max: int, children: int | None = None) -> np.ndarray:
    """``out[n]``: the least sum of depths of ``n`` secrets in a tree where every node solves
    at most one secret and has at most ``children`` (default ``B``) children (level ``d`` holds
    ``children ** (d - 1)``).

    >>> from mastermind.core.game import Rules
    >>> from mastermind.engines.models.bounds import perfect_tree_table
    >>> perfect_tree_table(Rules(3, 3), 6, 2).tolist()
    [0, 1, 3, 5, 8, 11, 14]
    """
    b = max(branching(rules) if children is None else children, 1)
    out = np.zeros(n_max + 1, dtype=np.int64)
    level, width, placed, acc = 1, 1, 0, 0
    for n in range(1, n_max + 1):
        if placed == width:
            level, width, placed = level + 1, width * b, 0
        placed += 1
        acc += level
        out[n] = acc
    return out


def perfect_tree_value(n: int, b: int) -> int:
    """Least sum of depths of ``n`` secrets when every node solves one and has ``b`` children.

    >>> from mastermind.engines.models.bounds import perfect_tree_value
    >>> perfect_tree_value(6, 2), perfect_tree_value(6, 5)
    (14, 11)
    """
    total, level, width, left = 0, 1, 1, n
    b = max(b, 1)
    while left > 0:
        k = min(width, left)
        total += k * level
        left -= k
        level += 1
        width *= b
    return total


def counting_value(n: int, b: int) -> int:
    """Least depth holding ``n`` secrets when every node solves one and has ``b`` children."""
    depth, reach, width = 0, 0, 1
    b = max(b, 1)
    while reach < n:
        depth += 1
        reach += width
        width *= b
    return depth


def perfect_tree_total(rules: Rules, n: int) -> int:
    """Perfect-tree lower bound on the total guesses for ``n`` secrets.

    >>> from mastermind.core.game import Rules
    >>> from mastermind.engines.models.bounds import perfect_tree_total
    >>> perfect_tree_total(Rules(4, 6), 1296)
    4986
    """
    return int(perfect_tree_table(rules, n)[n])


SIZES_BLOCK = 1 << 22  # (guess, candidate) pairs counted at once: 32 MiB of int64


class _Lookahead:
    """Shared state of the lookahead bounds on one table: class sizes of every guess, memos."""

    def __init__(self, table: CodeTable, refined: bool = False, cancel: CancelToken | None = None) -> None:
        if table.scores is None:
            raise MastermindError("lookahead bounds need the full score table (full=True)")
        self.table = table
        self.scores: np.ndarray = table.scores
        self.rules = table.rules
        self.slots = self.rules.n_answer_slots
        self.win = self.rules.win_index
        self.perfect = perfect_tree_table(self.rules, table.n)
        self.counting = np.array(
            [counting_worst_bound(self.rules, n) for n in range(table.n + 1)], dtype=np.int64
        )
        self._total: dict[tuple[int, bytes], int] = {}
        self._worst: dict[tuple[int, bytes], int] = {}
        self.refined = refined
        self._branching: dict[bytes, int] = {}
        self.all_codes = table.all_codes.astype(np.int64)
        self.cancel = CancelToken() if cancel is None else cancel  # once cancelled: Stopped

    @cached_property
    def kernel_tables(self) -> BoundTables:
        """What the kernels read: the scores and the perfect-tree totals of every branching."""
        from mastermind.engines.models._kernels import bound_tables

        n, most = self.table.n, branching(self.rules)
        trees = np.stack([perfect_tree_table(self.rules, n, b) for b in range(most + 1)])
        return bound_tables(self.scores, trees, self.win, self.slots)

    def branching(self, cands: np.ndarray) -> int:
        """Most non-winning answers any code gets on ``cands``: a bound on children below it.

        Capped at ``n - 1``: from there on the refined bounds equal the plain ones.
        """
        from mastermind.engines.models._kernels import most_answers

        key = cands.tobytes()
        if key not in self._branching:
            cap = min(branching(self.rules), len(cands) - 1)
            self._branching[key] = int(most_answers(self.kernel_tables, cands, cap))
        return self._branching[key]

    def leaf_branching(self, cands: np.ndarray, parent: np.ndarray | None) -> int | None:
        """Branching that bounds the tree below ``cands``: its own (refined) or its parent's."""
        if self.refined:
            return self.branching(cands)
        if parent is not None:
            return self.branching(parent)
        return None

    def leaf_total(self, cands: np.ndarray, parent: np.ndarray | None = None) -> int:
        n = len(cands)
        b = None if n <= 2 else self.leaf_branching(cands, parent)
        return int(self.perfect[n]) if b is None else perfect_tree_value(n, b)

    def leaf_worst(self, cands: np.ndarray, parent: np.ndarray | None = None) -> int:
        n = len(cands)
        b = None if n <= 2 else self.leaf_branching(cands, parent)
        return int(self.counting[n]) if b is None else counting_value(n, b)

    def class_sizes(self, cands: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """(len(guesses), slots): how many candidates give each answer to each guess."""
        # in blocks of guesses: bounded memory, and a cancel is seen within a fraction of a second
        step = max(1, SIZES_BLOCK // max(1, len(cands)))
        blocks = []
        for at in range(0, len(guesses), step):
            self.cancel.check()
            part = guesses[at : at + step]
            sub = self.scores[np.ix_(part, cands)].astype(np.int64)
            sub += (np.arange(len(part), dtype=np.int64) * self.slots)[:, None]
            blocks.append(np.bincount(sub.ravel(), minlength=len(part) * self.slots).reshape(-1, self.slots))
        return blocks[0] if len(blocks) == 1 else np.concatenate(blocks)

    def classes(self, cands: np.ndarray, guess: Code) -> list[np.ndarray]:
        answers = self.scores[guess, cands]
        return [cands[answers == a] for a in np.unique(answers).tolist() if a != self.win]

    def guesses(self, cands: np.ndarray) -> np.ndarray:
        if len(cands) == self.table.n:
            return np.array(canonical_first_guesses(self.rules), dtype=np.int64)
        return self.all_codes

    # ---- total -------------------------------------------------------------------------
    def total(self, cands: np.ndarray, level: int, parent: np.ndarray | None = None) -> int:
        n = len(cands)
        if n <= 1:
            return int(self.perfect[n])
        if level == 0:
            return self.leaf_total(cands, parent)
        key = (level, cands.tobytes())
        if key in self._total:
            return self._total[key]
        self.cancel.check()
        guesses = self.guesses(cands)
        if level == 1:
            self._total[key] = self.level_one_total(cands, guesses)
            return self._total[key]
        sizes = self.class_sizes(cands, guesses)
        sizes[:, self.win] = 0
        # the (level-1) bound of a class is at least its perfect-tree bound: use that to order
        # the guesses and to skip those that cannot beat the best found so far
        cheap = self.perfect[sizes].sum(axis=1)
        best = None
        for i in np.argsort(cheap, kind="stable").tolist():
            if best is not None and n + int(cheap[i]) >= best:
                break
            value = n
            for part in self.classes(cands, int(guesses[i])):
                value += self.total(part, level - 1, cands)
                if best is not None and value >= best:
                    break  # this guess cannot beat the best one: its exact sum is not needed
            if best is None or value < best:
                best = value
        assert best is not None
        self._total[key] = best
        return best

    def level_one_total(self, cands: np.ndarray, guesses: np.ndarray) -> int:
        """:meth:`total` at level 1, in a kernel: each class below is bounded by :meth:`leaf_total`
        with ``cands`` as its parent."""
        from mastermind.engines.models._kernels import level_one_total

        leaf_branching = -1 if self.refined else self.branching(cands)  # -1: each class its own
        return int(level_one_total(self.kernel_tables, cands, guesses, leaf_branching))

    def total_after(self, cands: np.ndarray, guess: Code, level: int) -> int:
        """``n + sum`` of the (level-1) bound over the classes of ``guess``."""
        return len(cands) + sum(self.total(part, level - 1, cands) for part in self.classes(cands, guess))

    # ---- worst case --------------------------------------------------------------------
    def worst(self, cands: np.ndarray, level: int, parent: np.ndarray | None = None) -> int:
        n = len(cands)
        if n <= 1:
            return int(self.counting[n])
        if level == 0:
            return self.leaf_worst(cands, parent)
        key = (level, cands.tobytes())
        if key in self._worst:
            return self._worst[key]
        self.cancel.check()
        guesses = self.guesses(cands)
        sizes = self.class_sizes(cands, guesses)
        sizes[:, self.win] = 0
        cheap = self.counting[sizes].max(axis=1)
        best = None
        for i in np.argsort(cheap, kind="stable").tolist():
            if best is not None and 1 + int(cheap[i]) >= best:
                break
            value = 1 + max(
                (self.worst(part, level - 1, cands) for part in self.classes(cands, int(guesses[i]))),
                default=0,
            )
            if best is None or value < best:
                best = value
        assert best is not None
        self._worst[key] = best
        return best


def _candidates(table: CodeTable, candidates: np.ndarray | None) -> np.ndarray:
    return table.all_codes.astype(np.int64) if candidates is None else np.asarray(candidates, dtype=np.int64)


def lookahead_total_bound(
    table: CodeTable,
    levels: int = 2,
    candidates: np.ndarray | None = None,
    first_guess: Code | None = None,
    refined: bool = False,
    cancel: CancelToken | None = None,
) -> int:
    """Lower bound on the total guesses: ``levels`` levels of real guesses, then perfect trees.

    With ``first_guess`` the root guess is fixed (a bound for strategies opening with it).
    Level 0 is :func:`perfect_tree_total`; ``refined`` bounds the classes at the bottom with
    their own branching (stronger, slower: about 1 s for the two levels of p4c6). ``cancel``: a
    token; once it is cancelled, :class:`~mastermind.core.cancel.Stopped` is raised.
    """
    if levels < 0:
        raise MastermindError(f"lookahead levels must be at least 0, got {levels}")
    look = _Lookahead(table, refined, cancel)
    cands = _candidates(table, candidates)
    if first_guess is not None:
        if levels == 0:
            raise MastermindError("a fixed first guess needs at least one lookahead level")
        return look.total_after(cands, first_guess, levels)
    return look.total(cands, levels)


def lookahead_totals_by_first_guess(
    table: CodeTable,
    levels: int = 2,
    refined: bool = False,
    cancel: CancelToken | None = None,
    into: dict[Code, int] | None = None,
) -> dict[Code, int]:
    """The ``levels``-level total bound for each canonical first guess (shared memo).

    ``into``: a dict that receives each first guess's bound as it is found (what a stopped
    run finished)."""
    look = _Lookahead(table, refined, cancel)
    cands = _candidates(table, None)
    out = {} if into is None else into
    for g in canonical_first_guesses(table.rules):
        out[g] = look.total_after(cands, g, levels)
    return out


def lookahead_worst_bound(
    table: CodeTable,
    levels: int = 1,
    candidates: np.ndarray | None = None,
    refined: bool = False,
    cancel: CancelToken | None = None,
) -> int:
    """Lower bound on the worst case: ``levels`` levels of real guesses, then counting."""
    if levels < 0:
        raise MastermindError(f"lookahead levels must be at least 0, got {levels}")
    return _Lookahead(table, refined, cancel).worst(_candidates(table, candidates), levels)
