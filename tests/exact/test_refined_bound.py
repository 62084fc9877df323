"""The capped refined bound against the full one."""

import numpy as np
import pytest

from mastermind.exact._kernels import partition_counts, refined_bound, refined_bound_capped
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
                                       limit, buf, buf_w, start, pos, seen, local)
            if full < limit:
                assert got == full
            else:
                assert limit <= got <= full
