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


def _searches_of_the_pass(monkeypatch) -> list[int]:
    """Counts the searches the pass's total search runs (the list's one item)."""
    from mastermind.engines.exact.certify import Certifier

    seen = [0]
    original = Certifier.least_total

    def least_total(self, cands, beta, group, known=None):
        runs = self.totals.nodes
        value = original(self, cands, beta, group, known)
        seen[0] += self.totals.nodes > runs
        return value

    monkeypatch.setattr(Certifier, "least_total", least_total)
    return seen


@pytest.mark.parametrize("game, units", [("p4c4", False), ("p4c5", False), ("p4c5", True)])
def test_the_pass_reads_the_memo_of_the_search(monkeypatch, game, units):
    # the memo of the one search (units=False) or of the units on threads: the pass's proof
    # is valid, and the pass searches less than it does with a memo of its own
    from mastermind.engines.exact import Execution, solve
    from mastermind.engines.exact.certify import prove
    from mastermind.proofcheck import check_proof

    table = CodeTable(Rules.parse(game))
    result = solve(table, execution=Execution(jobs=1, units=units, keep_memo=True))
    memo = result.details.memo
    assert memo is not None
    searched = _searches_of_the_pass(monkeypatch)
    alone = prove(table, result.tree.root, result.total)
    searched_alone, searched[0] = searched[0], 0
    handed = prove(table, result.tree.root, result.total, memo=memo)
    assert searched[0] < searched_alone
    for document in (alone, handed):
        outcome = check_proof(document, str(table.rules))
        assert (outcome.total, outcome.worst) == (result.total, result.worst)


def test_a_result_carries_its_memo_only_when_asked_and_plain():
    import pickle

    from mastermind.engines.exact import Execution, Problem, solve

    table = CodeTable(Rules(3, 4))
    assert solve(table, execution=Execution(jobs=1)).details.memo is None
    kept = solve(table, execution=Execution(jobs=1, keep_memo=True))
    assert kept.details.memo is not None
    # (a copy in another process has none: the memo is this process's memory)
    assert pickle.loads(pickle.dumps(kept)).details.memo is None
    assert pickle.loads(pickle.dumps(kept)).total == kept.total
    # the proof pass asks what the plain total's search answers: no other search's memo
    for problem in (Problem(objective="worst"), Problem(max_guesses=5), Problem(pool="consistent")):
        assert solve(table, problem, execution=Execution(jobs=1, keep_memo=True)).details.memo is None


def test_keep_memo_is_a_flag():
    from mastermind.core.errors import MastermindError
    from mastermind.engines.exact import Execution

    with pytest.raises(MastermindError, match="keep_memo must be True or False"):
        Execution(keep_memo="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("handed", [False, True])
def test_the_pass_keeps_within_its_memory(handed):
    # its memos and its index sized from its budget, the search's memo handed to it counted
    # at what it may reach: doubling by itself to its limit, half that again (it was counted
    # at its limit)
    from mastermind.engines.exact import Execution, solve
    from mastermind.engines.exact._memo import ENTRY_BYTES, memo_bytes, memo_limit, memo_reach
    from mastermind.engines.exact.certify import PROOF_MEMORY, Certifier

    table = CodeTable(Rules(4, 4))
    memo = solve(table, execution=Execution(jobs=1, keep_memo=True)).details.memo if handed else None
    if handed:  # (a small game's memo is far below its limit: it may still double)
        assert memo_bytes(memo) < memo_limit(memo) * ENTRY_BYTES
        assert memo_reach(memo) == memo_limit(memo) * ENTRY_BYTES * 3 // 2
    room = 8 << 20
    handed_bytes = memo_reach(memo) if handed else 0
    memory = room + handed_bytes
    certifier = Certifier(table, memory, memo=memo)
    memos = [certifier.totals.memo, certifier.depths.memo, certifier.index]
    assert (certifier.totals.memo is memo) == handed
    # a memo at its peak: doubling to its limit, its old half beside it
    peak = sum(memo_limit(m) * ENTRY_BYTES * 3 // 2 for m in memos if m is not memo)
    assert room // 2 < peak <= room
    assert peak + handed_bytes <= memory
    # given no budget, the pass's default is its own, beside the memo handed (which the
    # search sized: the pass's memos were squeezed to their least beside 4x8's)
    default = Certifier(table, memo=memo)
    own = [default.depths.memo, default.index] + ([] if handed else [default.totals.memo])
    assert PROOF_MEMORY // 2 < sum(memo_limit(m) * ENTRY_BYTES * 3 // 2 for m in own) <= PROOF_MEMORY


def test_a_full_index_costs_facts_not_validity(monkeypatch):
    # an index of one window: sets met again are certified again, and the proof still checks
    from mastermind.engines.exact import Execution, solve
    from mastermind.engines.exact import certify as module
    from mastermind.engines.exact._memo import ENTRY_BYTES
    from mastermind.proofcheck import check_proof

    table = CodeTable(Rules(4, 5))
    result = solve(table, execution=Execution(jobs=1))
    roomy = module.prove(table, result.tree.root, result.total)
    tiny = module.ProofShares(1 << 24, 1 << 24, 16 * ENTRY_BYTES)
    monkeypatch.setattr(module.ProofShares, "of", staticmethod(lambda memory, handed: tiny))
    cramped = module.prove(table, result.tree.root, result.total)
    assert len(cramped["facts"]) > len(roomy["facts"])
    assert check_proof(cramped, str(table.rules)).total == result.total
