"""Optimal strategies, proven: the public face of the exact search.

>>> from mastermind.core.game import CodeTable, Rules
>>> result = solve(CodeTable(Rules(3, 3)))
>>> result.total, result.worst, result.proven
(73, 4, True)
>>> solve(CodeTable(Rules(3, 3)), objective="worst").worst
4
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.engines.exact.search import INF, UNLIMITED, Search
from mastermind.core.game import Code, CodeTable, Rules
from mastermind.core.progress import Progress
from mastermind.core.symmetry import canonical_codes, full_group, stabilizer_group
from mastermind.core.tree import Stats, StrategyTree

OBJECTIVES = ("total", "worst")
POOLS = ("all", "consistent")


@dataclass
class ExactResult:
    """An optimal strategy with its value and how the search went.

    ``total`` is the optimised value: the sum over the secrets of weight x guesses needed
    (weight 1 without weights, so it is the plain total such as 5625). ``fraction`` is the
    exact expected number of guesses, ``total / sum of weights``; ``guesses_total`` and
    ``stats`` describe the tree without weights.
    """

    rules: Rules
    objective: str
    total: int | float
    worst: int
    tree: StrategyTree
    stats: Stats
    proven: bool
    nodes: int
    memo_hits: int
    seconds: float
    first_guess: Code
    secrets: int
    weight_sum: int | float
    fraction: Fraction | None
    max_guesses: int | None = None
    pool: str = "all"
    weighted: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def guesses_total(self) -> int:
        return self.stats.total

    @property
    def histogram(self) -> list[int]:
        return self.stats.histogram

    @property
    def average(self) -> float:
        """Expected number of guesses (weighted when weights were given)."""
        return float(self.total) / float(self.weight_sum) if self.weight_sum else 0.0

    @property
    def expected(self) -> float:
        return self.average

    @property
    def memo_hit_rate(self) -> float:
        looks = self.nodes + self.memo_hits
        return self.memo_hits / looks if looks else 0.0

    def to_dict(self) -> dict:
        data = {
            "rules": str(self.rules),
            "objective": self.objective,
            "total": self.total,
            "secrets": self.secrets,
            "average": round(self.average, 6),
            "worst": self.worst,
            "histogram": self.histogram,
            "first_guess": self.rules.code_text(self.first_guess),
            "proven": self.proven,
            "seconds": round(self.seconds, 4),
        }
        if self.max_guesses is not None:
            data["max_guesses"] = self.max_guesses
        if self.pool != "all":
            data["pool"] = self.pool
        if self.weighted:
            data["guesses_total"] = self.guesses_total
            if self.fraction is not None:
                data["fraction"] = str(self.fraction)
        return data


class ExactSolver:
    """The set-up shared by several searches on one game (weights, group, memo)."""

    def __init__(
        self, table: CodeTable, *, pool: str = "all", weights: Sequence[float] | np.ndarray | None = None,
        candidates: Sequence[int] | np.ndarray | None = None,
    ) -> None:
        if table.scores is None:
            raise MastermindError(f"the exact solver needs the full score table of {table.rules}")
        if pool not in POOLS:
            raise MastermindError(f"pool must be one of {', '.join(POOLS)}, got {pool!r}")
        self.table, self.rules, self.pool = table, table.rules, pool
        n = table.n
        if candidates is None:
            cands = table.all_codes.copy()
        else:
            cands = np.unique(np.asarray(candidates, dtype=np.int64))
            if len(cands) == 0:
                raise MastermindError("candidates is empty: give at least one secret")
            if cands[0] < 0 or cands[-1] >= n:
                raise MastermindError(f"candidates must be code indices 0..{n - 1}")
            cands = cands.astype(np.int32)
        self.original_weights = None
        scale: int | float = 1
        uniform = True
        if weights is not None:
            w = np.asarray(weights)
            if w.shape != (n,):
                raise MastermindError(f"weights must have one entry per code ({n}), got shape {w.shape}")
            if w.dtype.kind not in "iuf" or not np.all(np.isfinite(w)) or np.any(w < 0):
                raise MastermindError("weights must be finite non-negative numbers")
            self.original_weights = w
            sub = w[cands]
            uniform = bool(np.all(sub == sub[0]))
            if uniform:
                scale = sub[0].item()
            else:
                w = w.astype(np.int64) if w.dtype.kind in "iu" else w.astype(np.float64)
        self.uniform = uniform
        self.scale = scale
        if uniform:
            search_weights = np.ones(n, dtype=np.int64)
        else:
            search_weights = w
            # heaviest first (ties by index) so that the bound kernels see classes in order
            cands = cands[np.lexsort((cands, -search_weights[cands]))]
        self.cands = cands
        self.search_weights = search_weights
        if candidates is None and uniform:
            self.group = full_group(self.rules)
        else:
            values = np.full(n, -1.0)
            values[cands] = search_weights[cands]
            self.group = stabilizer_group(self.rules, table.codes, values)
        self._searches: dict[tuple, Search] = {}

    def search(self, unit: int = 1, penalty: int = 0) -> Search:
        """The search of this cost unit and penalty, with the memo of earlier runs."""
        key = (unit, penalty)
        if key not in self._searches:
            self._searches[key] = self.new_search(unit, penalty)
        return self._searches[key]

    def new_search(self, unit: int = 1, penalty: int = 0) -> Search:
        """A search with an empty memo of its own (one per thread)."""
        return Search(self.table, self.search_weights, self.group, unit=unit, penalty=penalty,
                      consistent=self.pool == "consistent", max_set=len(self.cands))

    def fork(self) -> "ExactSolver":
        """This solver with searches of its own, for another thread."""
        other = copy.copy(self)
        other._searches = {}
        return other

    def first_guesses(self) -> list[Code]:
        """The first guesses worth comparing: canonical under the game's symmetries."""
        canon = canonical_codes(self.table.codes, *self.group)
        if self.pool == "consistent":
            canon = np.intersect1d(canon, self.cands)
        return [int(g) for g in canon]

    def run(
        self, *, objective: str = "total", max_guesses: int | None = None,
        first_guess: Code | None = None, tie_break: bool = False, progress: Progress | None = None,
    ) -> ExactResult:
        if objective not in OBJECTIVES:
            raise MastermindError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        if max_guesses is not None and max_guesses < 1:
            raise MastermindError(f"max guesses must be at least 1, got {max_guesses}")
        if first_guess is not None:
            self.rules.check_code(first_guess)
            if self.pool == "consistent" and first_guess not in set(self.cands.tolist()):
                raise MastermindError(
                    f"first guess {self.rules.code_text(first_guess)} is not a candidate, "
                    f"which --pool consistent does not allow")
        if tie_break and not self.uniform:
            raise MastermindError("tie-break works without weights only")
        start = time.perf_counter()
        limit = UNLIMITED if max_guesses is None else max_guesses
        only = None if first_guess is None else [first_guess]
        search = self.search()
        cands = self.cands
        if objective == "worst":
            depth = search._levels_needed(len(cands))
            value = INF
            while depth <= min(limit, len(cands)):
                value = search.solve(cands, depth, INF, only=only, progress=progress)
                if value < INF:
                    break
                depth += 1
            limit = depth
        else:
            value = search.solve(cands, limit, INF, only=only, progress=progress)
        if value == INF:
            raise MastermindError(
                f"no strategy solves every secret of {self.rules} within {max_guesses} guesses"
                + ("" if first_guess is None else f" starting with {self.rules.code_text(first_guess)}"))
        root_guess = search.root_guess if only is not None else None
        nodes, hits = search.nodes, search.memo_hits
        tree_search = search
        if tie_break:
            tree_search, limit, root_guess = self._tie_break(search, value, limit, only, root_guess)
            nodes += tree_search.nodes
            hits += tree_search.memo_hits
        root = tree_search.build(cands, limit, guess=root_guess)
        result = self.result(root, objective=objective, max_guesses=max_guesses, nodes=nodes,
                             memo_hits=hits, start=start)
        if self.uniform and not tie_break and value * self.scale != result.total and not result.weighted:
            raise AssertionError(f"search value {value} but the tree gives {result.total}")
        return result

    def result(self, root, *, objective: str, max_guesses: int | None, nodes: int, memo_hits: int,
               start: float) -> ExactResult:
        """The result of a search that found the strategy tree ``root``: everything reported
        is read off the tree replayed against every secret, not taken from the search."""
        tree = StrategyTree(self.rules, root, name="optimal")
        cands = np.sort(self.cands)
        depths = tree.depths(self.table, cands)
        stats = Stats.from_depths(depths)
        weighted = self.original_weights is not None
        if weighted:
            w = self.original_weights[cands]
            total = (w * depths).sum().item()
            weight_sum = w.sum().item()
            if w.dtype.kind in "iu":
                fraction = Fraction(int(total), int(weight_sum)) if weight_sum else None
            else:
                exact_total = sum((Fraction(x) * int(d) for x, d in zip(w.tolist(), depths.tolist())), Fraction(0))
                exact_sum = sum((Fraction(x) for x in w.tolist()), Fraction(0))
                fraction = exact_total / exact_sum if exact_sum else None
        else:
            total, weight_sum = stats.total, stats.secrets
            fraction = Fraction(total, weight_sum)
        return ExactResult(
            rules=self.rules, objective=objective, total=total, worst=stats.worst, tree=tree,
            stats=stats, proven=True, nodes=nodes, memo_hits=memo_hits,
            seconds=time.perf_counter() - start, first_guess=root.guess, secrets=stats.secrets,
            weight_sum=weight_sum, fraction=fraction, max_guesses=max_guesses, pool=self.pool,
            weighted=weighted,
        )

    def _tie_break(self, search: Search, value, limit: int, only, root_guess):
        """Among optimal strategies: the smallest worst case, then the fewest secrets at it."""
        cands = self.cands
        probe = search.build(cands, limit, guess=root_guess)
        worst = max_depth(probe)
        depth = search._levels_needed(len(cands))
        while depth < worst:
            if search.solve(cands, depth, value + 1, only=only) == value:
                break
            depth += 1
        unit = len(cands) + 1  # one guess more always outweighs every secret at the worst case
        fine = self.search(unit=unit, penalty=1)
        fine.solve(cands, depth, INF, only=only)
        return fine, depth, (fine.root_guess if only is not None else None)


def max_depth(node, depth: int = 1) -> int:
    return max([depth, *(max_depth(c, depth + 1) for c in node.children.values())])


def solve(
    table: CodeTable, *, objective: str = "total", max_guesses: int | None = None, pool: str = "all",
    first_guess: Code | None = None, weights=None, candidates=None, tie_break: bool = False,
    jobs: int = 1, progress: Progress | None = None,
) -> ExactResult:
    """An optimal strategy for the game (or for ``candidates`` with ``weights``).

    ``objective``: "total" (sum over secrets of weight x guesses) or "worst" (fewest guesses
    in the worst case, then the best total). ``max_guesses`` caps the worst case; ``pool``
    "consistent" only guesses codes still possible; ``first_guess`` fixes the opening;
    ``tie_break`` prefers, among optimal strategies, the smaller worst case and then fewer
    secrets at it. ``jobs`` > 1 (or 0: every core) splits the work over threads.
    """
    solver = ExactSolver(table, pool=pool, weights=weights, candidates=candidates)
    if jobs is not None and jobs != 1 and first_guess is None:
        from mastermind.engines.exact.parallel import solve_parallel

        return solve_parallel(solver, objective=objective, max_guesses=max_guesses,
                              tie_break=tie_break, jobs=jobs, progress=progress)
    return solver.run(objective=objective, max_guesses=max_guesses, first_guess=first_guess,
                      tie_break=tie_break, progress=progress)


def solve_by_first_guess(
    table: CodeTable, *, objective: str = "total", max_guesses: int | None = None, pool: str = "all",
    weights=None, candidates=None, tie_break: bool = False, jobs: int = 1,
    progress: Progress | None = None, first_guesses: Sequence[Code] | None = None,
) -> list[ExactResult]:
    """The optimum for each canonical first guess (or the given ones), best first guesses
    not favoured: every result is exact. First guesses that cannot finish within
    ``max_guesses`` are left out."""
    solver = ExactSolver(table, pool=pool, weights=weights, candidates=candidates)
    firsts = solver.first_guesses() if first_guesses is None else list(first_guesses)
    if jobs is not None and jobs != 1 and len(firsts) > 1:
        from mastermind.engines.exact.parallel import by_first_guess_parallel

        return by_first_guess_parallel(solver, firsts, objective=objective, max_guesses=max_guesses,
                                       tie_break=tie_break, jobs=jobs, progress=progress)
    if progress is not None:
        progress.start(len(firsts), "optimal: first guesses")
    results = []
    for g in firsts:
        try:
            results.append(solver.run(objective=objective, max_guesses=max_guesses,
                                      first_guess=g, tie_break=tie_break))
        except MastermindError:
            if max_guesses is None and objective == "total":
                raise
        if progress is not None:
            progress.advance(1)
    return results
