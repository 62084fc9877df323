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
        theirs = class_counts(game.slots, cands.astype(np.int64), guesses, game.n_slots)
        assert b == most_classes(theirs, game.win_slot)
        ours_all = class_counts(table.scores, cands.astype(np.int64), guesses, slots)
        # (answers are numbered apart: each guess's class sizes compared as a multiset)
        assert [sorted(row[row > 0].tolist()) for row in ours_all] == [
            sorted(row[row > 0].tolist()) for row in theirs
        ]
        others = ours_all * (np.arange(slots) != win)
        assert np.array_equal(counts, others[weak])
        assert np.array_equal(largest, others.max(axis=1))
        assert np.array_equal(weak, np.flatnonzero(largest < len(cands)))
        secrets = cands.astype(np.int64)
        values, _ = guess_values(theirs, floors, True, game.win_slot, len(secrets))
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


def _facts_begun(monkeypatch, cancel_at: int = 0, cancel=None) -> list[int]:
    """Counts the facts the pass begins (the list's one item); the ``cancel_at``-th calls
    ``cancel()`` as it begins."""
    from mastermind.engines.exact.certify import Certifier

    seen = [0]
    original = Certifier.certify

    def certify(self, *args, **kwargs):
        seen[0] += 1
        if seen[0] == cancel_at and cancel is not None:
            cancel()
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Certifier, "certify", certify)
    return seen


@pytest.mark.parametrize("share", [0.0, 0.5, 1.0])
def test_a_cancelled_token_stops_the_pass_without_a_proof(monkeypatch, share):
    from mastermind.core.cancel import CancelToken, Stopped
    from mastermind.engines.exact import Execution, solve
    from mastermind.engines.exact.certify import prove

    table = CodeTable(Rules(4, 4))
    result = solve(table, execution=Execution(jobs=1))
    with monkeypatch.context() as patch:
        begun = _facts_begun(patch)
        prove(table, result.tree.root, result.total, token=CancelToken())
    token = CancelToken()  # cancelled as the first fact begins, one halfway, the last
    _facts_begun(monkeypatch, 1 + int(share * (begun[0] - 1)), token.cancel)
    with pytest.raises(Stopped):
        prove(table, result.tree.root, result.total, token=token)


def test_the_searches_of_the_pass_poll_its_token():
    from mastermind.core.cancel import CancelToken
    from mastermind.engines.exact.certify import Certifier
    from mastermind.engines.exact.search import UNLIMITED

    table = CodeTable(Rules(4, 6))
    token = CancelToken()
    certifier = Certifier(table, token=token)
    token.cancel()
    everyone = table.all_codes.astype(np.int32)
    # stopped at once: a lower bound only, far below the optimum of 5625
    assert certifier.totals.solve(everyone, UNLIMITED, 10**9) < 5625
    assert certifier.totals.stopped and certifier.depths.stopped


@pytest.mark.parametrize(
    "game, objective",
    [("p3c3", "total"), ("p3c4", "total"), ("p4c4", "total"), ("p3c4b", "total"), ("p3c4", "worst")],
)
def test_the_streamed_file_is_the_held_one(tmp_path, game, objective):
    # the file written as its facts are made is the text of the document held whole, byte
    # for byte (the format does not change: every committed proof and the checker hold)
    import gzip
    import json

    from mastermind.core.fileio import gzipped_by_name, streamed_write
    from mastermind.engines.exact import Execution, solve
    from mastermind.engines.exact.certify import prove, write_proof

    table = CodeTable(Rules.parse(game))
    result = solve(table, execution=Execution(jobs=1))
    total = result.total if objective == "total" else None
    held = json.dumps(prove(table, result.tree.root, total), separators=(",", ":"))
    path = tmp_path / "streamed.proof.json.gz"
    with streamed_write(path) as write:
        made = write_proof(write, table, result.tree.root, total)
    assert path.read_bytes() == gzipped_by_name(path, held)  # (what the file was, held whole)
    assert gzip.decompress(path.read_bytes()).decode() == held
    document = json.loads(held)
    assert made == {"total": total, "worst": document["worst"], "facts": len(document["facts"])}
    assert made["facts"] >= 1 and [p.name for p in tmp_path.iterdir()] == [path.name]
