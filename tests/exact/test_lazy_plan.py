"""The lazy node planner against the full one, and the capped refined bound against its twin."""

import numpy as np
import pytest

from mastermind.exact._kernels import (
    plan_node, plan_node_lazy, refined_bound, refined_bound_capped, partition_counts,
)
from mastermind.exact.kernels_reference import evaluate_guesses_reference
from mastermind.exact.search import Search
from mastermind.game import CodeTable, Rules
from mastermind.symmetry import full_group

INF = float("inf")


def _setup(rules_text, seed, weighted):
    table = CodeTable(Rules.parse(rules_text))
    rng = np.random.default_rng(seed)
    cands = np.sort(rng.choice(table.n, size=min(table.n, int(rng.integers(4, 40))), replace=False)).astype(np.int32)
    if weighted:
        w_all = rng.integers(0, 9, size=table.n).astype(np.int64)
        cands = cands[np.lexsort((cands, -w_all[cands]))]
    else:
        w_all = np.ones(table.n, dtype=np.int64)
    search = Search(table, w_all, full_group(table.rules), max_set=table.n)
    return table, search, cands, w_all[cands]


def _labels(table, guesses, cands, w):
    rules = table.rules
    rank = np.ones(len(cands), dtype=np.int64)
    ref = evaluate_guesses_reference(table.scores, np.asarray(guesses), cands, w, rank,
                                     rules.n_answer_slots, rules.win_index)
    return ref["labels"]


@pytest.mark.parametrize("rules_text", ["p3c4", "p4c4n", "p3c5"])
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("levels", [2, 3, 4])
def test_lazy_plan_matches_full_plan(rules_text, seed, weighted, levels):
    table, search, cands, w = _setup(rules_text, seed, weighted)
    guesses = table.all_codes
    own = w.sum().item()
    ranks, sizes = search.node_tables(levels)
    refine = levels >= 3
    args = (table.scores, guesses, cands, w, ranks, sizes, own)
    full0 = plan_node(*args, INF, search.win, search.weighted, search.unit, refine)
    betas = [INF]
    if len(full0[1]):
        betas.append(float(full0[1][len(full0[1]) // 2]) + 1)
    for beta in betas:
        full = plan_node(*args, beta, search.win, search.weighted, search.unit, refine)
        lazy = plan_node_lazy(*args, beta, search.win, search.weighted, search.unit, refine, 10**6, 0)
        full_exact = full[3] if full[2] >= 0 else INF
        lazy_exact = lazy[3] if lazy[2] >= 0 else INF
        assert min(full_exact, beta) == min(lazy_exact, beta)
        assert lazy[5] == full[5]
        cutoff = min(beta, lazy_exact)
        keep = lazy[1] < cutoff
        assert lazy[0][keep].tolist() == full[0].tolist()
        assert lazy[1][keep].tolist() == full[1].tolist()
        assert len(lazy[6]) == 0
        # in small steps, each continuing on the tail: the same partitions, bounds in order
        got, got_bounds = [], []
        plan, bounds, eg, ev, _, most, tail, tail_min = plan_node_lazy(
            *args, beta, search.win, search.weighted, search.unit, refine, 2, 0)
        while True:
            got += plan.tolist()
            got_bounds += bounds.tolist()
            if len(tail) == 0:
                break
            assert tail_min >= (got_bounds[-1] if got_bounds else -INF)
            plan, bounds, eg, ev, _, _, tail, tail_min = plan_node_lazy(
                table.scores, tail, cands, w, ranks, sizes, own, beta, search.win,
                search.weighted, search.unit, refine, 2, most)
            assert eg < 0  # guesses solved exactly by their bound are never left in a tail
        assert got_bounds == sorted(got_bounds)
        kept = [(g, b) for g, b in zip(got, got_bounds) if b < cutoff]
        by_label = dict(zip(_labels(table, [g for g, _ in kept], cands, w), [b for _, b in kept]))
        expect = dict(zip(_labels(table, full[0].tolist(), cands, w), full[1].tolist()))
        assert by_label == expect


@pytest.mark.parametrize("seed", range(10))
def test_capped_refined_bound_matches_refined_bound(seed):
    table, search, cands, w = _setup("p4c4n", seed, weighted=False)
    rules = table.rules
    n_slots, win = rules.n_answer_slots, rules.win_index
    rank, _ = search.rank_cost(3, 8)
    n = len(cands)
    local = table.scores[np.ix_(cands, cands)].copy()
    buf, buf_w = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    start, pos = np.empty(n_slots + 1, dtype=np.int64), np.empty(n_slots, dtype=np.int64)
    seen = np.zeros(n_slots + 1, dtype=np.int64)
    counts, *_ = partition_counts(table.scores, table.all_codes, cands, n_slots, win)
    for g in range(table.n):
        full = refined_bound(table.scores, g, cands, w, rank, n_slots, win, 1, True, buf, buf_w,
                             start, pos, seen, local)
        if np.any(counts[g][np.arange(n_slots) != win] > len(rank)):
            continue
        base = sum(int(rank[:m].sum()) for a, m in enumerate(counts[g].tolist()) if a != win)
        for limit in (base, base + 1, base + 2, full, full + 1, 10**9):
            got = refined_bound_capped(table.scores, g, cands, w, rank, counts[g], win, 1, base,
                                       limit, buf, buf_w, seen, local)
            if full < limit:
                assert got == full
            else:
                assert limit <= got <= full
