"""The certificate pass (engines/exact/certify.py): its own copy of the checker's bounds
agrees with the checker's, and it refuses to certify what the search does not prove."""

from __future__ import annotations

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact.certify import certify, member_floors, perfect_floors, weigh_guesses
from mastermind.proofcheck.bounds import depth_floors, total_floors
from mastermind.proofcheck.game import Game
from mastermind.proofcheck.partitions import class_counts, guess_values, member_bounds, most_classes


@pytest.mark.parametrize("m, b", [(1, 1), (7, 1), (30, 3), (100, 13)])
def test_its_counting_bounds_are_the_checkers(m, b):
    assert np.array_equal(perfect_floors(m, b, "total"), total_floors(m, b))
    assert np.array_equal(perfect_floors(m, b, "worst"), depth_floors(m, b))


@pytest.mark.parametrize("rules", ["p3c4", "p4c4n"])
def test_its_weighing_and_member_bounds_are_the_checkers(rules):
    table, game = CodeTable(Rules.parse(rules)), Game.parse(str(Rules.parse(rules)))
    rng = np.random.default_rng(5)
    guesses = np.arange(table.n)
    for _ in range(5):
        cands = np.sort(rng.choice(table.n, size=rng.integers(3, table.n), replace=False)).astype(np.int32)
        win, slots = table.rules.win_index, table.rules.n_answer_slots
        big = 1 << 40  # (every guess that splits the set is short of it)
        b, derived, largest, floors, weak, counts = weigh_guesses(
            table.scores, cands, guesses, True, win, slots, big
        )
        assert b == most_classes(game.answers, cands.astype(np.int64), guesses, game.win, game.n_answers)
        theirs = class_counts(game.answers, cands.astype(np.int64), guesses, game.n_answers)
        ours_all = class_counts(table.scores, cands.astype(np.int64), guesses, slots)
        # (answers are numbered apart: each guess's class sizes compared as a multiset)
        assert [sorted(row[row > 0].tolist()) for row in ours_all] == [
            sorted(row[row > 0].tolist()) for row in theirs
        ]
        others = ours_all * (np.arange(slots) != win)
        assert np.array_equal(counts, others[weak])
        assert np.array_equal(largest, others.max(axis=1))
        assert np.array_equal(weak, np.flatnonzero(largest < len(cands)))
        values, _ = guess_values(game.answers, cands.astype(np.int64), guesses, floors, True, game.win, game.n_answers)
        assert np.array_equal(derived, values)
        assert np.array_equal(floors, perfect_floors(len(cands), b, "total"))
        ours = member_floors(table.scores, cands, guesses, b, win, slots)
        theirs = member_bounds(game.answers, cands.astype(np.int64), guesses, b, game.win, game.n_answers)
        # (answers are numbered apart: each guess's bounds compared as a multiset)
        for mine, its in zip(ours, theirs):
            assert sorted(mine[mine > 0].tolist()) == sorted(its[its > 0].tolist())


def test_a_claim_the_search_does_not_prove_is_refused():
    table = CodeTable(Rules(3, 3))
    with pytest.raises(AssertionError, match="not what the search proves"):
        certify(table, 74, None)
