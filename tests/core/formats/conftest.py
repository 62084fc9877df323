"""Shared fixtures of the strategy-file tests: the published trees and tree comparison."""

from __future__ import annotations

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import Node, StrategyTree, build_tree

# (file, total, worst, histogram) as published: Knuth 1977, Koyama and Lai 1993
PUBLISHED = {
    "p4c6r-knuth.txt": (5801, 5, [1, 6, 62, 533, 694]),
    "p4c6r-koyama-1.txt": (5625, 6, [1, 8, 86, 656, 544, 1]),
}


@pytest.fixture(scope="session")
def table46() -> CodeTable:
    return CodeTable(Rules(4, 6))


def first_candidate(table: CodeTable) -> StrategyTree:
    return build_tree(table, lambda cands, history: int(cands[0]), name="first-candidate")


def last_candidate(table: CodeTable) -> StrategyTree:
    # pairs guessed larger code first: the writer cannot use a bare 2 for them
    return build_tree(table, lambda cands, history: int(cands[-1]), name="last-candidate")


def smallest_largest_class(table: CodeTable) -> StrategyTree:
    """Minimax over every code: many guesses that are not remaining secrets."""
    win = table.rules.win_index

    def pick(cands: np.ndarray, history) -> int:
        if len(cands) <= 2:
            return int(cands[0])
        best, best_size = None, None
        for g in table.all_codes.tolist():
            counts = table.partition(g, cands)
            counts[win] = 0
            size = int(counts.max())
            if size < len(cands) and (best_size is None or size < best_size):
                best, best_size = g, size
        return best

    return build_tree(table, pick, name="minimax-all")


SIMPLE_STRATEGIES = {"first": first_candidate, "last": last_candidate, "minimax": smallest_largest_class}


def assert_same_tree(a: Node, b: Node, path: str = "root") -> None:
    """Same guess, count and children everywhere (not only the same statistics)."""
    assert (a.guess, a.candidates) == (b.guess, b.candidates), path
    assert sorted(a.children) == sorted(b.children), path
    for key in a.children:
        assert_same_tree(a.children[key], b.children[key], f"{path} {key}")


@pytest.fixture(scope="session")
def published() -> dict:
    return PUBLISHED


@pytest.fixture(scope="session")
def simple_strategies() -> dict:
    return SIMPLE_STRATEGIES


@pytest.fixture(scope="session")
def same_tree():
    return assert_same_tree
