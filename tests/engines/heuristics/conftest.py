"""Shared by the heuristics tests: the issue's decision rule written plainly."""

import numpy as np
import pytest

from mastermind.core import partitions
from mastermind.core.symmetry import canonical_first_guesses

# scores as the textbooks state them, in floating point: bigger is better
MEASURES = {
    "minimax": lambda c: -partitions.largest(c),
    "expected-size": lambda c: -partitions.expected_size(c),
    "entropy": partitions.entropy_bits,
    "most-parts": partitions.parts,
}


def _reference_rule(table, criterion, pool="all", sort_classes=False):
    """The issue's decision rule written plainly: no kernel, no shortcuts, no symmetry
    beyond the canonical first guesses."""
    firsts = canonical_first_guesses(table.rules)

    def next_guess(cands, history):
        cands = [int(c) for c in cands]
        if len(cands) <= 2:
            return cands[0]
        if not history and len(cands) == table.n:
            codes = firsts
        elif pool == "consistent":
            codes = cands
        else:
            codes = range(table.n)
        dist = {g: table.partition(g, np.array(cands)) for g in codes}
        value = {g: MEASURES[criterion](d) for g, d in dist.items()}
        top = max(value.values())
        best = [g for g in codes if value[g] >= top - 1e-9]
        if sort_classes:
            key = {g: sorted(dist[g].tolist(), reverse=True) for g in best}
            smallest = min(key.values())
            best = [g for g in best if key[g] == smallest]
        preferred = [g for g in best if g in set(cands)]
        return min(preferred or best)

    return next_guess


@pytest.fixture
def reference_rule():
    return _reference_rule
