"""Pure-Python twins of the numba kernels in :mod:`mastermind.engines.exact._kernels` (for tests)."""

from __future__ import annotations


def evaluate_guesses_reference(scores, guesses, cands, weights, rank_cost, n_slots, win):
    """What ``class_table`` and ``guess_bounds`` compute, per guess; instead
    of the signature of ``partition_signature`` the canonical label sequence of the partition
    (a tuple), so tests can check that equal signatures mean equal partitions."""
    out = {k: [] for k in ("bound", "ok", "candidate", "parts", "largest", "spread", "labels")}
    for g in list(guesses):
        seen: dict[int, int] = {}
        labels = []
        count: dict[int, int] = {}
        total = weights.dtype.type(0)
        fits = True
        is_cand = False
        for j, s in enumerate(list(cands)):
            a = int(scores[g, s])
            if a == win:
                is_cand = True
                labels.append(-1)
                continue
            k = count.get(a, 0)
            count[a] = k + 1
            if k >= len(rank_cost) or rank_cost[k] < 0:
                fits = False
            else:
                total += weights[j] * rank_cost[k]
            labels.append(seen.setdefault(a, len(seen)))
        sizes = list(count.values()) + ([1] if is_cand else [])
        out["bound"].append(total)
        out["ok"].append(fits)
        out["candidate"].append(is_cand)
        out["parts"].append(len(count))
        out["largest"].append(max(sizes, default=0))
        out["spread"].append(sum(c * c for c in sizes))
        out["labels"].append(tuple(labels))
    return out


def split_classes_reference(row, cands, weights, rank_cost, win):
    """List of (answer, class codes in order, class weights, perfect-tree bound)."""
    classes: dict[int, list[int]] = {}
    for j, s in enumerate(list(cands)):
        a = int(row[s])
        if a != win:
            classes.setdefault(a, []).append(j)
    result = []
    for a in sorted(classes):
        idx = classes[a]
        bound = sum(weights[j] * rank_cost[k] for k, j in enumerate(idx))
        result.append((a, [int(cands[j]) for j in idx], [weights[j] for j in idx], bound))
    return result
