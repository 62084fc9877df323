"""The least depth's memo kept in a file between runs: what is written reads back as it was,
a file for another search or a damaged one is refused, and a search continued from the file
gives the answer a fresh search gives, with less work."""

import numpy as np
import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import StrategyTree
from mastermind.engines.exact import Problem
from mastermind.engines.exact._memo import memo_export, memo_lookup, memo_size, memo_store, new_memo
from mastermind.engines.exact.memo_file import MemoFileError, fingerprint, load_memo, save_memo
from mastermind.engines.exact.solver import ExactSolver

from .reference import reference_worst
from .test_least_depth import _StopAt

MADE_FOR = fingerprint("p4c6r", "all", 0, 0)


def _filled(entries: list[tuple[int, int, float, int, int]]):
    memo = new_memo(1 << 12)
    for k1, k2, cost, tag, size in entries:
        memo_store(memo, np.uint64(k1), np.uint64(k2), np.float64(cost), np.int64(tag), np.int64(size))
    return memo


def _random_entries(seed: int, count: int) -> list[tuple[int, int, float, int, int]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        k1, k2 = (int(x) for x in rng.integers(0, 2**64, size=2, dtype=np.uint64))
        cost = float(rng.choice([0.0, np.inf, float(rng.integers(1, 10**6))]))
        tag = int(rng.choice([-2, -1, int(rng.integers(0, 40000))]))
        out.append((k1, k2, cost, tag, int(rng.integers(1, 500))))
    return out


@pytest.mark.parametrize("most", [10**6, 120, 7])
def test_export_is_the_slots_read_in_python(most):
    entries = _random_entries(1, 300)
    memo = _filled(entries)
    rows = memo_export(memo, np.int64(40), np.int64(most))
    kept = [s for s in memo[0][0] if s[2] != 0 and s[2] >> 32 >= 40]
    # the biggest sets that fit: the least size kept raised until at most ``most`` are left
    sizes = sorted((s[2] >> 32 for s in kept), reverse=True)
    least = next((sizes[k] + 1 for k in range(len(sizes)) if k >= most), 40)
    while least in sizes[most:]:
        least += 1
    expected = sorted(
        (int(s[0]), int(s[1] ^ s[2] ^ s[3]), int(s[2]), int(s[3])) for s in kept if s[2] >> 32 >= least
    )
    assert sorted(tuple(int(x) for x in r) for r in rows) == expected
    assert 0 < len(expected) <= min(most, len(entries) - 1)  # (the size filter kept some, dropped some)


def test_a_memo_saved_reads_back_entry_by_entry(tmp_path):
    entries = _random_entries(2, 500)
    path = tmp_path / "memo.npz"
    written = save_memo(path, _filled(entries), MADE_FOR, min_size=100)
    memo = new_memo(1 << 12)
    assert load_memo(path, memo, MADE_FOR) == written == memo_size(memo)
    for k1, k2, cost, tag, size in entries:
        found, value, got = memo_lookup(memo, np.uint64(k1), np.uint64(k2))
        assert found == (size >= 100)
        if found:
            assert (value, got) == (cost, tag)


def test_a_memo_saved_keeps_its_biggest_sets_within_the_entries_allowed(tmp_path):
    entries = _random_entries(4, 400)
    path = tmp_path / "memo.npz"
    written = save_memo(path, _filled(entries), MADE_FOR, min_size=1, max_entries=50)
    memo = new_memo(1 << 12)
    assert load_memo(path, memo, MADE_FOR) == written
    found = [memo_lookup(memo, np.uint64(k1), np.uint64(k2))[0] for k1, k2, *_ in entries]
    kept = [e[4] for e, f in zip(entries, found) if f]
    dropped = [e[4] for e, f in zip(entries, found) if not f]
    # at most 50, every set kept bigger than every set dropped, and as many as fit
    assert 40 <= len(kept) == written <= 50 and min(kept) > max(dropped)


def test_no_file_loads_nothing(tmp_path):
    assert load_memo(tmp_path / "none.npz", new_memo(64), MADE_FOR) == 0


def test_a_file_for_another_search_or_damaged_is_refused(tmp_path):
    path = tmp_path / "memo.npz"
    save_memo(path, _filled(_random_entries(3, 50)), MADE_FOR, min_size=1)
    for other in (fingerprint("p4c7r", "all", 0, 0), fingerprint("p4c6r", "consistent", 0, 0)):
        with pytest.raises(MemoFileError, match="made for another search"):
            load_memo(path, new_memo(64), other)
    good = path.read_bytes()
    # any byte changed (its header, the zip's structure, the rows): damaged, in one line
    for at in range(0, len(good), 7):
        data = bytearray(good)
        data[at] ^= 0x5A
        path.write_bytes(bytes(data))
        try:
            load_memo(path, new_memo(64), MADE_FOR)
        except MemoFileError as exc:
            assert "damaged" in str(exc) or "another search" in str(exc)
    for cut in (0, 10, len(good) // 2, len(good) - 1):
        path.write_bytes(good[:cut])
        with pytest.raises(MemoFileError, match="damaged"):
            load_memo(path, new_memo(64), MADE_FOR)
    path.write_bytes(b"not a memo")
    with pytest.raises(MemoFileError, match="damaged"):
        load_memo(path, new_memo(64), MADE_FOR)


@pytest.mark.parametrize("pool", ["all", "consistent"])
@pytest.mark.parametrize("text", ["p3c4", "p4c4n", "p2c6", "p4c5"])
def test_the_least_depth_continued_from_its_file_is_the_fresh_answer_with_less_work(tmp_path, text, pool):
    table = CodeTable(Rules.parse(text))
    problem = Problem(pool=pool)
    fresh = ExactSolver(table, problem).least_depth(CancelToken())
    if table.n <= 100:  # (the exhaustive minimax of test_least_depth, on the games it can take)
        assert fresh.depth == reference_worst(table, range(table.n), pool=pool)
    store = tmp_path / "least-depth.npz"
    # stopped once its first depth is refuted (or found), then continued from the file
    token = CancelToken()
    first = ExactSolver(table, problem).least_depth(token, progress=_StopAt(token, 1), store=store)
    assert store.exists() and first.depth <= fresh.depth
    again = ExactSolver(table, problem).least_depth(CancelToken(), store=store)
    assert again.depth == fresh.depth
    assert again.tree is not None
    assert StrategyTree(table.rules, again.tree).stats(table).worst == fresh.depth
    # and once more: the depths settled now read from the file, less work than afresh
    third = ExactSolver(table, problem).least_depth(CancelToken(), store=store)
    assert third.depth == fresh.depth and third.counters.nodes < fresh.counters.nodes


def test_a_store_for_another_pool_is_refused_before_any_work(tmp_path):
    table = CodeTable(Rules.parse("p3c3"))
    store = tmp_path / "least-depth.npz"
    ExactSolver(table).least_depth(CancelToken(), store=store)
    with pytest.raises(MemoFileError, match="made for another search"):
        ExactSolver(table, Problem(pool="consistent")).least_depth(CancelToken(), store=store)


@pytest.mark.parametrize("pool", ["all", "consistent"])
def test_a_search_stopped_at_any_moment_then_continued_gives_the_fresh_answer(tmp_path, pool):
    """Stopped after ``delay`` seconds (within a depth or between two: wherever it is), then
    continued from its file, run after run: whatever was saved, the answer is the fresh one."""
    import threading

    table = CodeTable(Rules.parse("p4c6"))
    problem = Problem(pool=pool)
    fresh = ExactSolver(table, problem).least_depth(CancelToken())
    store = tmp_path / "least-depth.npz"
    for delay in (0.001, 0.01, 0.03, 0.1, 0.3):
        token = CancelToken()
        timer = threading.Timer(delay, token.cancel)
        timer.start()
        part = ExactSolver(table, problem).least_depth(token, store=store)
        timer.cancel()
        assert part.depth <= fresh.depth
        assert part.tree is None or StrategyTree(table.rules, part.tree).stats(table).worst == part.depth
    done = ExactSolver(table, problem).least_depth(CancelToken(), store=store)
    assert done.depth == fresh.depth and done.tree is not None
    assert StrategyTree(table.rules, done.tree).stats(table).worst == fresh.depth


def test_a_store_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    from mastermind.core.errors import MastermindError

    table = CodeTable(Rules.parse("p3c3"))
    store = tmp_path / "least-depth.npz"
    ExactSolver(table).least_depth(CancelToken(), store=store)
    store.chmod(0o444)
    solver = ExactSolver(table)
    with pytest.raises(MastermindError, match="read-only"):
        solver.least_depth(CancelToken(), store=store)
    assert solver.search().nodes == 0


@pytest.mark.parametrize("pool", ["all", "consistent"])
def test_a_search_saving_its_file_as_it_runs_gives_the_fresh_answer(tmp_path, monkeypatch, pool):
    """Saved every millisecond (each slice of the search stopped, the file written, the
    search asked again from what it settled), the answer is the fresh one, and the file was
    written while it ran, not only at its end."""
    from mastermind.engines.exact import memo_file

    table = CodeTable(Rules.parse("p4c7"))
    problem = Problem(pool=pool)
    fresh = ExactSolver(table, problem).least_depth(CancelToken())
    saves = []
    save = memo_file.save_memo

    def counted(*args, **kw):
        saves.append(1)
        return save(*args, **kw)

    monkeypatch.setattr(memo_file, "SAVE_SECONDS", 0.001)
    monkeypatch.setattr(memo_file, "save_memo", counted)
    store = tmp_path / "least-depth.npz"
    sliced = ExactSolver(table, problem).least_depth(CancelToken(), store=store)
    assert (sliced.depth, sliced.upper) == (fresh.depth, fresh.upper) and sliced.tree is not None
    assert StrategyTree(table.rules, sliced.tree).stats(table).worst == fresh.depth
    assert len(saves) > 1 and store.is_file()


@pytest.mark.parametrize("objective", ["total", "worst"])
def test_a_checkpoint_folder_in_use_by_another_run_is_refused_before_any_work(tmp_path, objective):
    """Two runs on one folder at once: the second is refused (the last writer of the memo
    file would win, and each would count the other's units and seconds as its own), and the
    folder is free again once the first ends."""
    from mastermind.app.publishing.parts import depth_part
    from mastermind.engines.exact import Execution, solve
    from mastermind.engines.exact.checkpoint import CheckpointError, hold_folder

    table = CodeTable(Rules.parse("p3c3"))
    folder = tmp_path / "ck"
    execution = Execution(units=True, checkpoint=str(folder))
    with hold_folder(folder):
        with pytest.raises(CheckpointError, match="in use by another run"):
            solve(table, Problem(objective=objective), execution=execution)
        with pytest.raises(CheckpointError, match="in use by another run"):
            depth_part("p3c3", None, 1 << 30, str(folder))
        assert list(folder.iterdir()) == []
    assert solve(table, Problem(objective=objective), execution=execution).proven
    assert (folder / "checkpoint.sqlite").is_file()


def test_check_checkpoint_refuses_a_folder_held_or_made_for_another_search_and_holds_nothing(tmp_path):
    from mastermind.engines.exact import Execution, check_checkpoint, solve
    from mastermind.engines.exact.checkpoint import CheckpointError, hold_folder

    folder = tmp_path / "ck"
    rules = Rules.parse("p3c3")
    check_checkpoint(folder, rules, "all", "total")  # (none yet: fine, and nothing made)
    assert not folder.exists()
    with hold_folder(folder):
        with pytest.raises(CheckpointError, match="in use by another run"):
            check_checkpoint(folder, rules, "all", "total")
    check_checkpoint(folder, rules, "all", "total")
    check_checkpoint(folder, rules, "all", "total")  # (the probe let it go)
    solve(CodeTable(rules), Problem(), execution=Execution(units=True, checkpoint=str(folder)))
    check_checkpoint(folder, rules, "all", "total")
    for other in [
        (Rules.parse("p3c4"), "all", "total"),
        (rules, "consistent", "total"),
        (rules, "all", "worst"),
    ]:
        with pytest.raises(CheckpointError, match="made for another search"):
            check_checkpoint(folder, *other)


def test_the_file_says_how_long_every_run_on_it_searched(tmp_path):
    from mastermind.engines.exact.memo_file import seconds_spent

    store = tmp_path / "least-depth.npz"
    assert seconds_spent(store) == 0.0
    save_memo(store, new_memo(64), MADE_FOR, seconds=12.5)
    assert seconds_spent(store) == 12.5
    table = CodeTable(Rules.parse("p4c5"))
    made_for = fingerprint("p4c5r", "all", 0, 0)
    # a file that does not say (made before runs were timed): untimed for good, not counted
    # from 0 as if the runs before had cost nothing
    save_memo(store, new_memo(64), made_for)
    assert seconds_spent(store) is None
    assert ExactSolver(table).least_depth(CancelToken(), store=store).searched_seconds is None
    assert seconds_spent(store) is None
    store.unlink()
    assert ExactSolver(table).least_depth(CancelToken()).searched_seconds is None
    first = ExactSolver(table).least_depth(CancelToken(), store=store)
    assert (
        first.searched_seconds == pytest.approx(seconds_spent(store), abs=0.1) and first.searched_seconds > 0
    )
    again = ExactSolver(table).least_depth(CancelToken(), store=store)
    assert again.searched_seconds > first.searched_seconds  # this run's seconds added to the file's
    assert seconds_spent(store) > first.searched_seconds
