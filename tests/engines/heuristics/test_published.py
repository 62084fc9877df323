"""Published figures: the p4c6 heuristics (Kooi 2005, Knuth 1976, Irving 1978) and Knuth's
minimax worst case for every size of the published table, all exact."""

import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.heuristics import play_all
from mastermind.engines.registry import make_strategy


@pytest.fixture(scope="module")
def p4c6():
    return CodeTable(Rules(4, 6))


P4C6 = [
    # strategy, first guess, total, worst, histogram 1..worst, secrets needing the worst
    ("simple", "1111", 7471, 9, [1, 4, 25, 108, 305, 602, 196, 49, 6], None),
    ("minimax", "1122", 5801, 5, [1, 6, 62, 533, 694], None),
    ("expected-size", "1123", 5696, 6, [1, 10, 54, 645, 583, 3], ["1652", "3442", "5533"]),
    ("entropy", "1234", 5722, 6, [1, 4, 71, 612, 596, 12], None),
    (
        "most-parts",
        "1123",
        5668,
        6,
        [1, 12, 72, 635, 569, 7],
        ["3236", "3266", "5343", "6242", "6561", "6642", "6662"],
    ),
]


@pytest.mark.parametrize(
    "name, first, total, worst, histogram, worst_secrets", P4C6, ids=[row[0] for row in P4C6]
)
def test_p4c6_published(p4c6, name, first, total, worst, histogram, worst_secrets):
    tree = play_all(make_strategy(name, p4c6))
    stats = tree.stats(p4c6)  # replays every secret: the tree is complete and consistent
    assert p4c6.rules.code_text(tree.root.guess) == first
    assert (stats.total, stats.worst, list(stats.histogram)) == (total, worst, histogram)
    if worst_secrets is not None:
        assert [p4c6.rules.code_text(c) for c in stats.worst_secrets] == worst_secrets


def test_random_strategy_plays_p4c6_reproducibly(p4c6):
    """Random consistent guesses: seeded, only candidates, and no better than the optimum
    (total 5625, Koyama and Lai 1993; worst case 5, Knuth 1977)."""
    guesses = []

    class Recorder:
        def __init__(self, inner):
            self.inner, self.name, self.table = inner, inner.name, inner.table

        def next_guess(self, candidates, history=()):
            guess = self.inner.next_guess(candidates, history)
            guesses.append(guess in set(candidates.tolist()))
            return guess

    stats = play_all(Recorder(make_strategy("random", p4c6, seed=1))).stats(p4c6)
    assert guesses and all(guesses)
    assert stats.total >= 5625 and stats.worst >= 5
    assert play_all(make_strategy("random", p4c6, seed=1)).stats(p4c6) == stats


KNUTH_WORST = {
    (2, 2): 3,
    (2, 3): 4,
    (2, 4): 4,
    (2, 5): 5,
    (2, 6): 5,
    (3, 2): 4,
    (3, 3): 4,
    (3, 4): 4,
    (3, 5): 5,
    (3, 6): 5,
    (4, 2): 4,
    (4, 3): 4,
    (4, 4): 4,
    (4, 5): 5,
    (4, 6): 5,
}
KNUTH_FIRST = {
    (2, 2): ("11", 2),
    (2, 4): ("12", 6),
    (3, 3): ("112", 6),
    (3, 4): ("123", 15),
    (4, 4): ("1123", 46),
    (4, 5): ("1122", 120),
    (4, 6): ("1122", 256),
}


@pytest.mark.parametrize("size", sorted(KNUTH_WORST), ids=lambda s: f"{s[0]}x{s[1]}")
def test_knuth_minimax_table(size):
    table = CodeTable(Rules(*size))
    tree = play_all(make_strategy("minimax", table))
    assert tree.stats(table).worst == KNUTH_WORST[size]
    if size in KNUTH_FIRST:
        first, largest_class = KNUTH_FIRST[size]
        assert table.rules.code_text(tree.root.guess) == first
        assert int(table.partition(tree.root.guess).max()) == largest_class
