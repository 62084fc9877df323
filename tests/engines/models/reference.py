"""A plain memoized exhaustive search: the slow, obvious reference for tiny games."""

from __future__ import annotations

from functools import cache

from mastermind.core.game import CodeTable

INF = 10**9


def reference_optimum(table: CodeTable, max_depth: int | None = None) -> tuple[int, int]:
    """(least total guesses within ``max_depth`` guesses, least worst case), by brute force.

    The total is INF when no strategy of that depth exists.
    """
    scores = table.scores
    win = table.rules.win_index
    n = table.n
    depth_cap = n if max_depth is None else max_depth

    def classes(cands: tuple[int, ...], g: int) -> list[tuple[int, ...]]:
        groups: dict[int, list[int]] = {}
        for s in cands:
            a = int(scores[g, s])
            if a != win:
                groups.setdefault(a, []).append(s)
        return [tuple(v) for v in groups.values()]

    @cache
    def best_total(cands: tuple[int, ...], depth: int) -> int:
        if not cands:
            return 0
        if depth == 0:
            return INF
        if len(cands) == 1:
            return 1
        best = INF
        for g in range(n):
            parts = classes(cands, g)
            if len(parts) == 1 and len(parts[0]) == len(cands):
                continue  # no information and not a candidate
            value = len(cands)
            for part in parts:
                value += best_total(part, depth - 1)
                if value >= best:
                    break
            best = min(best, value)
        return best

    @cache
    def best_worst(cands: tuple[int, ...]) -> int:
        if len(cands) <= 1:
            return len(cands)
        best = INF
        for g in range(n):
            parts = classes(cands, g)
            if len(parts) == 1 and len(parts[0]) == len(cands):
                continue
            best = min(best, 1 + max((best_worst(p) for p in parts), default=0))
        return best

    everything = tuple(range(n))
    return best_total(everything, depth_cap), best_worst(everything)
