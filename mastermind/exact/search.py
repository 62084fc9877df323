"""The memoized depth-first branch and bound behind :func:`mastermind.exact.solve`.

``cost(S, r)`` is the least total cost of finishing the secrets in S with at most r more
guesses: every secret pays ``unit * weight`` per guess it needs, plus ``penalty * weight`` if
it is solved by the r-th guess (the tie-break counts secrets at the worst case this way).

* Bounds: a guess costs ``unit * W(S)`` plus, for each of its non-winning classes, at least
  the perfect-tree bound: the heaviest secret of a class at depth 1, the next B at depth 2,
  B^2 at depth 3 ... (B = the most classes any guess makes on S, since no guess splits a
  subset of S into more). Classes that fit in two levels get one more unit when no member
  tells the others apart. A guess whose classes have at most two secrets (three with that
  refinement) is solved exactly by its bound; a set with a heaviest member that tells all
  others apart is solved at once.
* Planning is lazy (``plan_node_lazy``): every guess gets its plain bound, but the refined
  bound and the partition check are computed in bound order only for the first few guesses;
  the rest are planned when the search gets to them, under the budget then in force.
* Budget: ``solve(S, r, beta)`` returns the exact cost when it is below ``beta``, else a
  proven lower bound that is at least ``beta``; both go into the memo.
* Symmetry: the group of (position, colour) permutations fixing every guess so far maps S
  onto itself, so only guesses canonical under it are tried; colours absent from S join the
  freely permuted ones; guesses with the same partition (up to renaming classes) are tried
  once; a non-candidate that does not split S is never tried.
"""

from __future__ import annotations

import math

import numpy as np

from mastermind.exact._kernels import perfect_member, plan_node_lazy, split_classes
from mastermind.errors import MastermindError
from mastermind.game import CodeTable
from mastermind.symmetry import canonical_codes, free_colours, restrict_group
from mastermind.tree import Node

INF = math.inf
UNLIMITED = 1 << 20


class Search:
    """One search configuration (weights, cost unit, penalty, pool) with its memo.

    The memo is keyed by ``(min(r, |S| + 1), sorted S as bytes)``: exact sets, no hashing, so
    keys never collide. Values are ``(cost, exact, guess)``; an inexact cost is a proven lower
    bound from a search that ran out of budget.
    """

    def __init__(
        self, table: CodeTable, weights: np.ndarray, group: tuple[np.ndarray, np.ndarray], *,
        unit: int = 1, penalty: int = 0, consistent: bool = False, max_set: int | None = None,
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
        self.branching = max(1, len(rules.answers) - 1)
        self.max_set = table.n if max_set is None else max_set
        self.memo: dict = {}
        # guesses planned per kernel call: a search mostly stops after the first few
        self.plan_limit = 16
        self.nodes = 0
        self.memo_hits = 0
        self._rank_tables: dict[tuple, tuple] = {}
        self._node_tables: dict[int, tuple] = {}
        self._groups: dict[tuple, tuple] = {}
        self._canon_cache: dict[tuple, np.ndarray] = {}
        self.colour_bits = (table.counts > 0).astype(np.int64) @ (1 << np.arange(rules.colors, dtype=np.int64))
        self.all_colours = (1 << rules.colors) - 1
        self._set_group((), group)

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
                size[bad[0] + 1:] = -1
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

    # ---- symmetry --------------------------------------------------------------------------
    def _set_group(self, key: tuple, group: tuple[np.ndarray, np.ndarray]) -> None:
        perms, cmaps = group
        trivial = len(perms) == 1 and len(free_colours(cmaps)) <= 1
        if trivial:
            mask = None
            canon = None
        else:
            canon = canonical_codes(self.codes, perms, cmaps)
            mask = np.zeros(self.table.n, dtype=bool)
            mask[canon] = True
        free_bits = int(sum(1 << int(c) for c in free_colours(cmaps)))
        self._groups[key] = (perms, cmaps, canon, mask, trivial, free_bits)

    def child_key(self, key: tuple, guess: int) -> tuple:
        """History key after one more guess (the group depends on the set of guesses)."""
        child = tuple(sorted((*key, guess))) if guess not in key else key
        if child not in self._groups:
            perms, cmaps, _, _, trivial, _ = self._groups[key]
            if trivial:
                self._groups[child] = self._groups[key]
            else:
                self._set_group(child, restrict_group(perms, cmaps, self.codes[guess]))
        return child

    def guesses(self, key: tuple, cands: np.ndarray) -> np.ndarray:
        """The guesses to try on ``cands`` after the guesses in ``key``: canonical under the
        group fixing those guesses, with the colours absent from every candidate (they never
        score, so any permutation of them leaves every answer unchanged) added to it."""
        perms, cmaps, canon, mask, trivial, free_bits = self._groups[key]
        if self.consistent:
            return cands if trivial else cands[mask[cands]]
        present = int(np.bitwise_or.reduce(self.colour_bits[cands]))
        absent = self.all_colours & ~present
        extra = absent & ~free_bits
        if extra == 0 or (extra == absent and extra & (extra - 1) == 0):
            return self.table.all_codes if trivial else canon
        # a trivial group is the identity alone: the answer depends only on the colour blocks
        ckey = (None, free_bits, absent) if trivial else (key, absent)
        found = self._canon_cache.get(ckey)
        if found is None:
            colours = [c for c in range(self.table.rules.colors) if absent >> c & 1]
            found = canonical_codes(self.codes, perms, cmaps, colours)
            self._canon_cache[ckey] = found
        return found

    def group_size(self, key: tuple = ()) -> tuple[int, int]:
        """(listed elements, free colours) of the group after the guesses in ``key``."""
        perms, cmaps, *_ = self._groups[key]
        return len(perms), len(free_colours(cmaps))

    # ---- search ----------------------------------------------------------------------------
    def memo_key(self, cands: np.ndarray, r: int) -> tuple:
        data = np.sort(cands).tobytes() if self.weighted else cands.tobytes()
        return (min(r, len(cands) + 1), data)

    def solve(self, cands, r, beta, key=(), only=None, progress=None):
        """Exact cost of ``cands`` with ``r`` guesses left if below ``beta``, else a lower
        bound at least ``beta``. ``only`` restricts the first guess (root use)."""
        n = len(cands)
        if n <= 2 and only is None:
            return self.small_cost(cands, r)
        mkey = self.memo_key(cands, r)
        entry = self.memo.get(mkey)
        if entry is not None and only is None:
            value, exact, _ = entry
            if exact or value >= beta:
                self.memo_hits += 1
                return value
        w = self.weights[cands]
        own = self.unit * w.sum().item()
        if n <= self.branching + 1 and only is None and r >= 2:
            # a candidate as heavy as any that tells the others apart meets the perfect-tree
            # bound (heaviest secret at depth 1, all others at depth 2): optimal
            j = perfect_member(self.scores, cands, self.n_slots)
            if j >= 0 and w[j] == w[0]:
                value = own + (w.sum() - w[j]).item() * self.rank_cost(r - 1)[0][0].item()
                self.memo[mkey] = (value, True, int(cands[j]))
                return value
        self.nodes += 1
        guesses = self.guesses(key, cands) if only is None else np.asarray(only, dtype=np.int32)
        rank_tables, size_tables = self.node_tables(r - 1)
        limit = len(guesses) if progress is not None else self.plan_limit
        plan, plan_bound, exact_guess, exact_value, rest_min, most, tail, tail_min = plan_node_lazy(
            self.scores, guesses, cands, w, rank_tables, size_tables, own, float(beta),
            self.win, self.weighted, self.unit, r - 1 >= 3, limit, 0)
        best, best_guess, lower = beta, -1, INF
        if r >= 1:
            if exact_guess >= 0 and exact_value < best:
                best, best_guess = exact_value, int(exact_guess)
            lower = self._as_cost(rest_min)
            table = rank_tables[min(most, self.branching)]
            if progress is not None:
                progress.start(len(plan), "optimal: first guesses")
            while True:
                stopped = False
                for g, lb in zip(plan.tolist(), plan_bound.tolist()):
                    if lb >= best:
                        lower = min(lower, lb)
                        stopped = True
                        break
                    value = self.explore(cands, w, g, own, best, r, key, table)
                    if value < best:
                        best, best_guess = value, g
                    else:
                        lower = min(lower, value)
                    if progress is not None:
                        progress.advance(1)
                if stopped or len(tail) == 0:
                    break
                if tail_min >= best:
                    lower = min(lower, self._as_cost(tail_min))
                    break
                # the plan so far is used up: plan the guesses left with the budget now in force
                plan, plan_bound, exact_guess, exact_value, rest_min, _, tail, tail_min = plan_node_lazy(
                    self.scores, tail, cands, w, rank_tables, size_tables, own, float(best),
                    self.win, self.weighted, self.unit, r - 1 >= 3, self.plan_limit, most)
                if exact_guess >= 0 and exact_value < best:
                    best, best_guess = exact_value, int(exact_guess)
                lower = min(lower, self._as_cost(rest_min))
        if only is not None:
            # a restricted root is not the set's own value: keep it out of the memo
            self.root_guess = best_guess
            return best if best_guess >= 0 else lower
        if best_guess >= 0:
            self.memo[mkey] = (best, True, best_guess)
            return best
        if lower == INF:
            self.memo[mkey] = (INF, True, -1)
            return INF
        old = entry[0] if entry is not None else -INF
        self.memo[mkey] = (max(old, lower), False, -1)
        return max(old, lower)

    def _as_cost(self, bound):
        """A bound from a kernel (float) as a cost: an int unless weights are floats."""
        return bound if bound == INF or self.float_weights else int(bound)

    def explore(self, cands, w, guess, own, best, r, key, table):
        """Cost of ``guess`` on ``cands`` if below ``best``, else a lower bound >= best
        (``own``: the cost of the guess itself; ``table``: the perfect-tree slot costs)."""
        out, _, starts, sizes, _, bounds = split_classes(
            self.scores, guess, cands, w, table, self.n_slots, self.win, self.unit, r - 1 >= 3)
        child = self.child_key(key, guess)
        # classes of two (and of three when the bound is refined) are bounded exactly
        exact_size = 3 if r - 1 >= 3 and len(table) > 2 and table[2] == table[1] else 2
        acc = own + bounds.sum().item()
        if acc >= best:
            return acc
        for c in np.argsort(-sizes, kind="stable").tolist():
            size = int(sizes[c])
            if size <= exact_size:
                break
            start = int(starts[c])
            sub_bound = bounds[c].item()
            value = self.solve(out[start:start + size], r - 1, best - acc + sub_bound, child)
            acc += value - sub_bound
            if acc >= best:
                return acc
        return acc

    # ---- the tree of an exact solution -------------------------------------------------------
    def build(self, cands: np.ndarray, r: int, key: tuple = (), guess: int | None = None) -> Node:
        n = len(cands)
        if guess is None:
            if n <= 2:
                order = np.argsort(-self.weights[cands], kind="stable")
                cands = cands[order]
                guess = int(cands[0])
            else:
                entry = self.memo.get(self.memo_key(cands, r))
                if entry is None or not entry[1]:
                    self.solve(cands, r, INF, key)
                    entry = self.memo[self.memo_key(cands, r)]
                guess = entry[2]
        if guess < 0:
            raise AssertionError("no strategy for a set the search called solvable")
        node = Node(int(guess), n)
        w = self.weights[cands]
        out, _, starts, sizes, answers, _ = split_classes(
            self.scores, guess, cands, w, self.rank_cost(r - 1)[0], self.n_slots, self.win,
            self.unit, False)
        child = self.child_key(key, guess)
        for c in range(len(sizes)):
            sub = out[int(starts[c]):int(starts[c]) + int(sizes[c])]
            node.children[int(answers[c])] = self.build(sub, r - 1, child)
        return node
