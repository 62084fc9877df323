"""The memoized depth-first branch and bound behind :func:`mastermind.engines.exact.solve`.

``cost(S, r)`` is the least total cost of finishing the secrets in S with at most r more
guesses: every secret pays ``unit * weight`` per guess it needs, plus ``penalty * weight`` if
it is solved by the r-th guess (the tie-break counts secrets at the worst case this way).

* Bounds: a guess costs ``unit * W(S)`` plus, for each of its non-winning classes, at least
  the perfect-tree bound: the heaviest secret of a class at depth 1, the next B at depth 2,
  B^2 at depth 3 ... (B = the most classes any guess makes on S, since no guess splits a
  subset of S into more). Classes that fit in two levels get one more unit when no member
  tells the others apart. A guess whose classes have at most two secrets (three with that
  refinement) is solved exactly by its bound; a set with a heaviest member that tells all
  others apart is solved at once. A set of at most 64 secrets (no weights) is first bounded
  from the most classes a member, and a guess that is no member, makes (each class of k
  secrets costs 2k - 1 at least): settled where such a guess meets its bound, refuted where
  the bounds reach the budget, with no guess weighed (see :func:`mastermind.engines.exact._dfs.dfs`).
* Planning is lazy: every guess gets its plain bound, but the refined bound and the partition
  check are computed in bound order only as the search reaches each guess, under the budget
  then in force.
* The whole search runs in one compiled function (:func:`mastermind.engines.exact._dfs.dfs`); this
  module sets it up, reads results out of its memo and builds the strategy tree.
* Budget: ``solve(S, r, beta)`` returns the exact cost when it is below ``beta``, else a
  proven lower bound that is at least ``beta``; both go into the memo.
* Symmetry: the group of (position, colour) permutations fixing every guess so far maps S
  onto itself, so only guesses canonical under it are tried; colours absent from S join the
  freely permuted ones; guesses with the same partition (up to renaming classes) are tried
  once; a non-candidate that does not split S is never tried.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mastermind.core import cancel
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.tree import Node
from mastermind.engines.exact._dfs import (
    CHOOSE,
    LAST_GUESS,
    LOWER,
    MEMO_HITS,
    NODES,
    REFINE_PAIRS_MAX,
    ROOT_GUESS,
    SearchState,
    child_group,
    dfs,
    memo_get,
    new_mask_cache,
    node_guesses,
)
from mastermind.engines.exact._kernels import plan_node, split_classes
from mastermind.engines.exact._memo import capacity_for, memo_limit, memo_size, new_memo

INF = math.inf
UNLIMITED = 1 << 20
DEFAULT_MEMO_BYTES = 1 << 30
"""The memo's budget when none is given: 16 M entries (a table of 512 MiB, 768 MiB while it
doubles; see ``_memo.capacity_for``), most of a long run's worth."""


@dataclass
class NodePlan:
    """The planned guesses of a node with their bounds (own cost included), the best guess
    solved exactly by its bound (-1: none) and its cost, the smallest bound of the guesses
    left out, and the most non-winning classes any guess makes on the set."""

    guesses: list[int]
    bounds: list
    exact_guess: int
    exact_value: float
    rest_min: float
    most: int


class Search:
    """One search configuration (weights, cost unit, penalty, pool) with its memo.

    The memo (a numba typed dict, see :mod:`mastermind.engines.exact._dfs`) is keyed by a 128-bit hash
    of the candidate set and ``min(r, |S| + 1)``; values are ``(cost, tag)``: the optimal
    guess of an exact cost, or a mark that the cost is a proven lower bound from a search that
    ran out of budget. Not thread-safe: one search per thread.
    """

    def __init__(
        self,
        table: CodeTable,
        weights: np.ndarray,
        group: tuple[np.ndarray, np.ndarray],
        *,
        unit: int = 1,
        penalty: int = 0,
        consistent: bool = False,
        max_set: int | None = None,
        stop: np.ndarray | None = None,
        memory: int = DEFAULT_MEMO_BYTES,
        memo=None,
    ) -> None:
        rules = table.rules
        if table.n > 65535:
            # the node kernels count class sizes in 16 bits
            raise MastermindError(f"the exact search handles at most 65535 codes, {rules} has {table.n}")
        self.table = table
        self.scores = table.scores
        self.codes = table.codes
        self.weights = weights
        self.weighted = not (weights.dtype.kind == "i" and bool(np.all(weights == 1)))
        self.unit = unit
        self.float_weights = weights.dtype.kind == "f"
        self.penalty = penalty
        self.consistent = consistent
        self.n_slots = rules.n_answer_slots
        self.win = rules.win_index
        self.slots = np.asarray(rules.answer_slots, dtype=np.int64)  # (the answers that occur)
        self.branching = max(1, len(rules.answers) - 1)
        self.max_set = table.n if max_set is None else max_set
        # ``memo``: a table shared with the searches of other threads (see ``_memo``)
        self.memo = new_memo(capacity_for(memory)) if memo is None else memo
        self.masks = new_mask_cache()
        self.stats = np.zeros(4, dtype=np.int64)
        # shared by every search of one run, so that one write stops them all
        self.stop = np.zeros(1, dtype=np.uint8) if stop is None else stop
        self.root_guess = -1
        # the compiled dfs for this search's argument types, called without numba's typing
        # of the state (a namedtuple: 0.9 ms a call, most of a small solve; see compiled_entry)
        self._dfs_entry = None
        self._rank_tables: dict[tuple, tuple] = {}
        self._node_tables: dict[int, tuple] = {}
        self.colour_bits = (table.counts > 0).astype(np.int64) @ (
            1 << np.arange(rules.colors, dtype=np.int64)
        )
        if not rules.variant.permutes_colours:  # (no colour is ever absent: none may be swapped)
            self.colour_bits[:] = (1 << rules.colors) - 1
        self.group = (
            np.ascontiguousarray(group[0], dtype=np.int8),
            np.ascontiguousarray(group[1], dtype=np.int8),
        )
        self.state = SearchState(
            self.scores,
            self.codes,
            self.colour_bits,
            table.all_codes,
            int(unit),
            int(penalty),
            bool(consistent),
            bool(self.weighted),
            self.slots,
            int(self.branching),
            self.memo,
            self.masks,
            self.stats,
            self.stop,
        )

    # ---- bounds ----------------------------------------------------------------------------
    def _levels_needed(self, n: int) -> int:
        """Fewest levels of a perfect tree that hold n secrets."""
        levels, room, width = 0, 0, 1
        while room < n:
            levels += 1
            room += width
            width = self.branching if levels == 1 else width * self.branching
        return levels

    def rank_cost(self, levels: int, branching: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Perfect-tree slot costs with ``levels`` guesses left and at most ``branching``
        non-winning classes per guess: ``rank[k]`` is the cheapest cost of the k-th secret
        of a class, ``size[m]`` the cheapest total of m secrets (-1: no room). Depth 1 holds
        one secret, depth d >= 2 holds branching^(d-1)."""
        b = self.branching if branching is None else max(1, min(branching, self.branching))
        levels = max(0, min(levels, self.max_set + 1))
        key = (levels, b)
        tables = self._rank_tables.get(key)
        if tables is None:
            rank = np.full(self.max_set, -1, dtype=np.int64)
            k, depth, width = 0, 1, 1
            while k < self.max_set and depth <= levels:
                cost = self.unit * depth + (self.penalty if depth == levels else 0)
                stop = min(self.max_set, k + width)
                rank[k:stop] = cost
                k = stop
                depth += 1
                width = b if depth == 2 else width * b
            size = np.zeros(self.max_set + 1, dtype=np.int64)
            size[1:] = np.cumsum(rank)
            bad = np.flatnonzero(rank < 0)
            if len(bad):
                size[bad[0] + 1 :] = -1
            tables = self._rank_tables[key] = (rank, size)
        return tables

    def node_tables(self, levels: int) -> tuple[np.ndarray, np.ndarray]:
        """``rank_cost(levels, b)`` for every b = 0..B stacked, as the node kernel wants them."""
        levels = max(0, min(levels, self.max_set + 1))
        tables = self._node_tables.get(levels)
        if tables is None:
            rows = [self.rank_cost(levels, max(1, b)) for b in range(self.branching + 1)]
            tables = (np.stack([r for r, _ in rows]), np.stack([s for _, s in rows]))
            self._node_tables[levels] = tables
        return tables

    def small_cost(self, cands: np.ndarray, r: int):
        """Exact cost of one or two secrets: guess the heavier first."""
        rank, _ = self.rank_cost(r)
        n = len(cands)
        if n > len(rank) or np.any(rank[:n] < 0):
            return INF
        w = self.weights[cands]
        return (w * rank[:n]).sum().item()

    # ---- search ----------------------------------------------------------------------------
    def child_group(self, group: tuple[np.ndarray, np.ndarray], guess: int) -> tuple[np.ndarray, np.ndarray]:
        """The group fixing one more guess (the group depends on the set of guesses)."""
        return child_group(group[0], group[1], self.codes[guess])

    def guesses(self, cands: np.ndarray, group) -> np.ndarray:
        """The guesses a node of ``cands`` weighs: canonical under ``group`` (and the
        colours no candidate has)."""
        return node_guesses(
            self.codes,
            self.colour_bits,
            self.table.all_codes,
            np.asarray(cands, dtype=np.int32),
            group[0],
            group[1],
            self.consistent,
            self.masks,
        )

    def plan(self, cands: np.ndarray, r: int, beta, group=None, guesses=None) -> NodePlan:
        """The guesses worth trying on ``cands`` below ``beta``, most promising (lowest bound)
        first, one per partition, as the search orders them (see ``plan_node``)."""
        group = self.group if group is None else group
        cands = np.asarray(cands, dtype=np.int32)
        if guesses is None:
            guesses = self.guesses(cands, group)
        w = self.weights[cands]
        own = self.unit * w.sum().item()
        rank_tables, size_tables = self.node_tables(r - 1)
        plan, bounds, exact_guess, exact_value, rest_min, most = plan_node(
            self.scores,
            np.asarray(guesses, dtype=np.int32),
            cands,
            w,
            rank_tables,
            size_tables,
            float(own),  # a float, as in the search: one compiled plan_node, not two
            float(beta),
            self.weighted,
            self.unit,
            r - 1 >= 3 and len(cands) <= REFINE_PAIRS_MAX,
            self.slots,
        )
        return NodePlan(
            plan.tolist(),
            [self._as_cost(b) for b in bounds.tolist()],
            int(exact_guess),
            self._as_cost(float(exact_value)),
            self._as_cost(float(rest_min)),
            int(most),
        )

    def solve(self, cands, r, beta, group=None, only=None):
        """Exact cost of ``cands`` with ``r`` guesses left if below ``beta``, else a lower
        bound at least ``beta``. ``group``: the symmetries fixing the guesses so far (the
        game's by default); ``only`` restricts the first guess (root use: the choice goes
        to ``root_guess`` and the root stays out of the memo). Once :attr:`stopped`, the
        value is only a lower bound (at most the true cost)."""
        group = self.group if group is None else group
        value = self._run(cands, r, beta, group, only)
        if only is not None:
            self.root_guess = -1 if self.stopped else int(self.stats[ROOT_GUESS])
        return value

    def _run(self, cands, r, beta, group, only):
        only_arr = np.zeros(0, dtype=np.int32) if only is None else np.asarray(only, dtype=np.int32)
        cands = np.ascontiguousarray(cands, dtype=np.int32)
        args = (
            self.state,
            cands,
            np.ascontiguousarray(self.weights[cands]),
            int(min(r, UNLIMITED)),
            float(beta),
            np.ascontiguousarray(group[0], dtype=np.int8),
            np.ascontiguousarray(group[1], dtype=np.int8),
            only_arr,
        )
        if self._dfs_entry is None:
            value = dfs(*args)
            self._dfs_entry = compiled_entry(dfs, args)
        else:
            value = self._dfs_entry(*args)
        return self._as_cost(value)

    @property
    def stopped(self) -> bool:
        """True once the stop flag is set: values from then on are lower bounds only."""
        return bool(self.stop[0])

    @property
    def memo_limit(self) -> int:
        """The most entries the memo may hold."""
        return int(memo_limit(self.memo))

    @property
    def memo_entries(self) -> int:
        """Entries the memo holds now."""
        return int(memo_size(self.memo))

    @property
    def nodes(self) -> int:
        return int(self.stats[NODES])

    @property
    def memo_hits(self) -> int:
        return int(self.stats[MEMO_HITS])

    def _as_cost(self, value):
        """A cost from the search (float) as an int unless weights are floats."""
        return value if value == INF or self.float_weights else int(value)

    def memo_bound(self, cands: np.ndarray, r: int) -> float:
        """What the memo proved of ``cands`` with ``r`` guesses left (its cost, or a lower bound
        of it), or 0 where it knows nothing."""
        found, cost, _ = memo_get(self.memo, cands, r)
        return self._as_cost(float(cost)) if found else 0

    # ---- the tree of an exact solution -------------------------------------------------------
    def build(self, cands: np.ndarray, r: int, group=None, guess: int | None = None) -> Node:
        """The optimal strategy tree of a solved set (subsets the memo lacks are solved).

        Raises :class:`~mastermind.core.cancel.Stopped` when such a search is stopped: its
        memo entries are then lower bounds, not a strategy."""
        group = self.group if group is None else group
        n = len(cands)
        if guess is None:
            if n <= 2:
                order = np.argsort(-self.weights[cands], kind="stable")
                cands = cands[order]
                guess = int(cands[0])
            else:
                found, _, tag = memo_get(self.memo, cands, r)
                if not found or tag == LOWER:
                    self._run(cands, r, INF, group, None)
                    if self.stopped:
                        raise cancel.Stopped()
                    # the search's own answer for the set: a full memo may have lost the entry
                    tag = self.stats[LAST_GUESS]
                if tag == CHOOSE:  # its cost known, its guess not: weighed here as a node is
                    self._run(cands, r, INF, group, self.guesses(cands, group))
                    if self.stopped:
                        raise cancel.Stopped()
                    tag = self.stats[ROOT_GUESS]
                guess = int(tag)
        if guess < 0:
            if self.stopped:  # a stopped search (e.g. the tie-break's) has no root guess
                raise cancel.Stopped()
            raise AssertionError("no strategy for a set the search called solvable")
        node = Node(int(guess), n)
        w = self.weights[cands]
        out, _, starts, sizes, answers, _ = split_classes(
            self.scores, guess, cands, w, np.ones(n, dtype=np.int64), self.n_slots, self.win, self.unit, False
        )
        child = self.child_group(group, guess)
        for c in range(len(sizes)):
            sub = out[int(starts[c]) : int(starts[c]) + int(sizes[c])]
            node.children[int(answers[c])] = self.build(sub, r - 1, child)
        return node


def compiled_entry(dispatcher, args: tuple):
    """The machine code ``dispatcher`` compiled for ``args``' types, called directly: numba
    types a namedtuple argument in Python on every call (0.9 ms for the search's state, where
    a small set is solved in microseconds). The arguments of later calls must have the same
    types (:meth:`Search._run` makes them so). The dispatcher itself where none is found."""
    try:
        return dispatcher.get_overload(tuple(dispatcher.typeof_pyval(a) for a in args))
    except KeyError:  # pragma: no cover - compiled for other types than numba says
        return dispatcher
