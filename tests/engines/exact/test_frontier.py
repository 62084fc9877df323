"""Frontier runs: work units on every backend, checkpoints, stopping with proven bounds."""

import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress as Bar

from mastermind.app.cli import main
from mastermind.core.cancel import TIME_LIMIT, CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.core.progress import RichProgress
from mastermind.core.tree import Node
from mastermind.engines.exact import Execution, solve
from mastermind.engines.exact.search import INF, UNLIMITED
from mastermind.engines.exact.solver import ExactSolver

ROOT = Path(__file__).resolve().parents[3]
OPTIMA = {"p3c5": 451, "p4c5": 2463, "p3c5n": 196}  # each also checked against the one-thread search
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli(*args, **kw):
    return subprocess.Popen(
        [sys.executable, "-m", "mastermind", *args],
        cwd=ROOT,
        env=ENV,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kw,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the compiled search stops with a valid bound ----------------------------------------------


@pytest.mark.parametrize("delay", [0.0, 0.002, 0.01, 0.05])
def test_a_stopped_search_gives_a_lower_bound_and_a_sound_memo(delay):
    table = CodeTable(Rules(4, 6))
    solver = ExactSolver(table)
    search = solver.new_search()
    timer = threading.Timer(delay, lambda: search.stop.__setitem__(0, 1))
    timer.start()
    value = search.solve(solver.cands, UNLIMITED, INF)
    timer.join()
    if search.stopped:
        assert value <= 5625
    else:
        assert value == 5625
    # nothing unproven was stored: the same memo, run to the end, finds the optimum
    search.stop[0] = 0
    assert search.solve(solver.cands, UNLIMITED, INF) == 5625
    assert max(_depths(search.build(solver.cands, UNLIMITED), table)) >= 1


def _depths(node, table):
    from mastermind.core.tree import StrategyTree

    tree = StrategyTree(table.rules, node)
    depths = tree.depths(table, table.all_codes)
    assert depths.sum() == 5625
    return depths


# ---- every backend finds the same optimum ----------------------------------------------------


@pytest.mark.parametrize("text", sorted(OPTIMA))
# (worker processes of their own, each importing numba and loading the kernels: 3 s of CPU in
# children with test_variant_backends, the integration tier's)
@pytest.mark.parametrize("backend", ["threads", pytest.param("processes", marks=pytest.mark.integration)])
def test_backends_find_the_optimum(text, backend):
    table = CodeTable(Rules.parse(text))
    assert solve(table).total == OPTIMA[text]
    # (units asked for: on games this small the library's own choice is one search)
    result = solve(table, execution=Execution(jobs=2, backend=backend, units=True))
    assert (result.total, result.proven, result.lower_bound) == (OPTIMA[text],) * 1 + (True, OPTIMA[text])
    assert result.counters.units > 1
    assert result.tree.stats(table).total == OPTIMA[text]
    # workers of their own load the kernels before the search's clock starts: timed apart
    assert (result.details.startup_seconds is None) == (backend == "threads")
    assert backend == "threads" or result.details.startup_seconds > 0


@pytest.fixture(scope="module")
def local_cluster():
    distributed = pytest.importorskip(
        "distributed", reason="the cluster extra (dask[distributed]) is not installed"
    )
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    yield cluster
    cluster.close()


@pytest.mark.integration
def test_dask_batches_hand_each_unit_its_own_answer(local_cluster):
    """Many waiting units go out several to a task; each future still gets its own result,
    and a failing unit fails alone."""
    import operator

    from mastermind.engines.exact.backends.dask import DaskBackend

    backend = DaskBackend(2, scheduler=local_cluster.scheduler_address)
    try:
        futures = [backend.submit(operator.floordiv, 100, d) for d in range(-6, 7)]
        for d, future in zip(range(-6, 7), futures):
            if d == 0:
                with pytest.raises(ZeroDivisionError):
                    future.result(timeout=60)
            else:
                assert future.result(timeout=60) == 100 // d
    finally:
        backend.close()


@pytest.mark.integration
def test_a_stopped_run_stops_its_units_on_a_cluster_that_goes_on(local_cluster, tmp_path):
    """A cluster given by address outlives the run: its workers are told to stop the run's
    units (their flag), not left to run them to the end (60 s here). Each unit is stopped once
    it says it runs (a file of its own), however long the cluster took to start it."""
    import time as clock

    from mastermind.engines.exact.backends.dask import DaskBackend

    def until_stopped(run_id, started):  # as a unit polls its run's flag
        from mastermind.engines.exact.units import run_flag

        open(started, "w").close()
        start = clock.perf_counter()
        while not run_flag(run_id)[0] and clock.perf_counter() - start < 60:
            clock.sleep(0.01)
        return clock.perf_counter() - start

    def wait_until_running(*names):
        while not all((tmp_path / name).exists() for name in names):
            clock.sleep(0.01)

    backend = DaskBackend(2, scheduler=local_cluster.scheduler_address)
    try:
        running = [backend.submit(until_stopped, "run-a", str(tmp_path / f"a{k}")) for k in range(2)]
        other = backend.submit(until_stopped, "run-b", str(tmp_path / "b"))  # sent ahead: waits for a thread
        wait_until_running("a0", "a1")
        assert not (tmp_path / "b").exists()
        backend.stop_run("run-a")
        assert all(f.result(timeout=120) < 30 for f in running)
        wait_until_running("b")
        backend.stop_run("run-b")
        assert other.result(timeout=120) < 30
    finally:
        backend.close()


@pytest.mark.parametrize("text", sorted(OPTIMA))
@pytest.mark.integration
def test_a_local_dask_cluster_finds_the_optimum(local_cluster, text):
    table = CodeTable(Rules.parse(text))
    execution = Execution(backend="dask", scheduler=local_cluster.scheduler_address)
    result = solve(table, execution=execution)
    assert (result.total, result.proven) == (OPTIMA[text], True)
    assert result.tree.stats(table).total == OPTIMA[text]


@pytest.mark.integration
def test_dask_backend_starts_its_own_cluster():
    pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    result = solve(
        CodeTable(Rules.parse("p3c5n")),
        execution=Execution(jobs=2, backend="dask"),
    )
    assert result.total == 196


@pytest.mark.integration
def test_dask_scheduler_and_workers_from_the_command_line(tmp_path):
    pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = open(tmp_path / "dask.log", "w")
    scheduler = subprocess.Popen(
        ["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        env=ENV,
        stdout=logs,
        stderr=logs,
    )
    worker = subprocess.Popen(
        ["dask", "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
        env=ENV,
        stdout=logs,
        stderr=logs,
    )
    try:
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        proc = cli("optimal", "-r", "p4c5", "--scheduler", address, "--json")
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        data = json.loads(out)
        assert (data["total"], data["proven"]) == (2463, True)
        assert data["units"]["run"] > 1
    finally:
        for p in (worker, scheduler):
            p.terminate()
        for p in (worker, scheduler):
            p.wait(timeout=30)
        logs.close()


# (worker processes of their own, each loading the kernels, one of them killed: the
# integration tier; test_backends keeps a killed worker's futures in the quick one)
@pytest.mark.integration
@pytest.mark.parametrize("backend", ["processes", "dask"])
def test_a_dead_worker_has_its_units_run_again(monkeypatch, tmp_path, backend):
    """A worker killed mid-run (a loky process; a Dask worker, its actor with it): its units
    are run again by the others (and by the runner started on the restarted Dask worker);
    the optimum unchanged."""
    if backend == "dask":
        pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    from mastermind.engines.exact import dispatch, units

    marker = str(tmp_path / "killed")
    real = units.run_unit

    def dying(problem, run_id, unit):  # sent by value (cloudpickle), with the marker path
        if len(unit.cands) > 60 and not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return real(problem, run_id, unit)

    monkeypatch.setattr(dispatch, "run_unit", dying)
    table = CodeTable(Rules.parse("p4c5"))
    result = solve(table, execution=Execution(jobs=2, backend=backend))
    assert os.path.exists(marker) and (result.total, result.proven) == (2463, True)


@pytest.mark.integration
def test_workers_that_join_a_running_cluster_get_units(monkeypatch):
    """A cluster grown during a run: its new worker gets a runner and takes units."""
    distributed = pytest.importorskip(
        "distributed", reason="the cluster extra (dask[distributed]) is not installed"
    )
    import operator
    import time as clock

    from mastermind.engines.exact.backends import dask as dask_backend

    monkeypatch.setattr(dask_backend, "WORKER_LOOK", 0.0)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        backend = dask_backend.DaskBackend(1, scheduler=cluster.scheduler_address)
        try:
            assert backend.submit(operator.add, 1, 2).result(timeout=60) == 3
            assert backend.slots == 2
            cluster.scale(2)
            backend.client.wait_for_workers(2, timeout=60)
            deadline = clock.monotonic() + 60
            while backend.slots < 4 and clock.monotonic() < deadline:
                assert backend.submit(operator.mul, 3, 4).result(timeout=60) == 12
                clock.sleep(0.2)
            assert backend.slots == 4  # two workers of one thread, each with a runner
        finally:
            backend.close()


def test_a_cancelled_unit_wakes_whoever_waits_for_it():
    """The driver waits with ``concurrent.futures.wait``, which counts a cancelled future as
    done only once cancelling it has been reported (it waited out its timeout before)."""
    from concurrent.futures import Future, wait

    from mastermind.engines.exact.backends import cancel_future

    future: Future = Future()
    cancel_future(future)
    cancel_future(future)  # twice, as two paths of a closing backend may: not an error
    done, _ = wait([future], timeout=0)
    assert done == {future} and future.cancelled()


def test_a_checkpoint_is_reused(tmp_path, capsys):
    folder = tmp_path / "ck"
    code, out, _ = run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder), "--json")
    first = json.loads(out)
    assert code == 0 and first["total"] == 2463 and first["units"]["reused"] == 0
    code, out, _ = run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder), "--json")
    again = json.loads(out)
    # the optimum proven by the first run is answered at once, with its tree
    assert code == 0 and again["total"] == 2463 and again["proven"] and again["nodes"] == 0
    # a run killed before it kept the game's bounds left its units: they serve the next run
    import sqlite3

    with sqlite3.connect(folder / "checkpoint.sqlite") as db:
        db.execute("DELETE FROM meta WHERE name = 'bounds'")
    code, out, _ = run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder), "--json")
    third = json.loads(out)
    assert code == 0 and third["total"] == 2463 and third["proven"]
    # (nodes are no measure here: the threads share a memo, and their counts vary run to run)
    # (the root takes what the units proved of each class: here every class, so no unit runs)
    assert third["units"]["run"] < first["units"]["run"]
    # the checkpoint adds up its runs' search seconds
    assert first["checkpoint_seconds"] > 0
    assert third["checkpoint_seconds"] >= again["checkpoint_seconds"] >= first["checkpoint_seconds"]


def test_a_checkpoint_made_before_runs_were_timed_says_its_cost_is_unknown(tmp_path, capsys):
    folder = tmp_path / "ck"
    assert run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder), "--json")[0] == 0
    with sqlite3.connect(folder / "checkpoint.sqlite") as db:  # as an older version wrote it
        db.execute("DELETE FROM meta WHERE name = 'seconds'")
        # units of unknown cost (a run solved at its root plan alone keeps none: nothing unknown)
        assert db.execute("SELECT COUNT(*) FROM units").fetchone()[0] > 0
    code, out, _ = run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder), "--json")
    again = json.loads(out)
    assert code == 0 and again["total"] == 2463 and "checkpoint_seconds" not in again


def test_a_checkpoint_for_other_rules_is_refused(tmp_path, capsys):
    folder = tmp_path / "ck"
    assert run(capsys, "optimal", "-r", "p3c5", "--checkpoint", str(folder))[0] == 0
    code, out, err = run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder))
    assert code == 2 and err.count("\n") == 1 and "another search" in err and "p3c5" in err


def test_a_damaged_checkpoint_is_refused(tmp_path, capsys):
    folder = tmp_path / "ck"
    assert run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder))[0] == 0
    db = sqlite3.connect(folder / "checkpoint.sqlite")
    db.execute("UPDATE units SET value = value - 1")  # a changed value fails its checksum
    db.execute("DELETE FROM meta WHERE name = 'bounds'")  # (else the proven optimum answers at once)
    db.commit()
    db.close()
    code, _, err = run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder))
    assert code == 2 and err.count("\n") == 1 and "damaged" in err
    (folder / "checkpoint.sqlite").write_bytes(b"not a database at all" * 100)
    for extra in ("checkpoint.sqlite-wal", "checkpoint.sqlite-shm"):
        (folder / extra).unlink(missing_ok=True)
    code, _, err = run(capsys, "optimal", "-r", "p4c5", "--checkpoint", str(folder))
    assert code == 2 and err.count("\n") == 1 and "damaged" in err


@pytest.fixture(scope="module")
def p4c5_checkpoint(tmp_path_factory) -> Path:
    """The checkpoint folder of `optimal -r p4c5 --checkpoint DIR`, run once for the tests
    that damage copies of it."""
    import contextlib

    folder = tmp_path_factory.mktemp("p4c5") / "ck"
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(io.StringIO()):
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))  # (no user's cache)
        assert main(["optimal", "-r", "p4c5", "--checkpoint", str(folder)]) == 0
    return folder


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        # its units and bounds would be taken for any game's: another game's strategy crashed
        # the search (p4c5's checkpoint run as p3c5: a segmentation fault)
        ("DELETE FROM meta WHERE name = 'problem'", "not the search it was made for"),
        ("UPDATE meta SET value = 'abc' WHERE name = 'seconds'", "its seconds are 'abc'"),
        ("UPDATE meta SET value = '-1e308' WHERE name = 'seconds'", "its seconds are '-1e308'"),
        ("""INSERT OR REPLACE INTO meta VALUES ('paces', '{"seconds": 1}')""", "its paces lack 'work'"),
        (
            "INSERT OR REPLACE INTO meta VALUES "
            """('paces', '{"seconds": 1, "work": 2, "classes": {"a": -5}}')""",
            "its paces: a pace that is not",
        ),
        ("""INSERT OR REPLACE INTO meta VALUES ('paces', '[1, 2]')""", "its paces"),
    ],
)
def test_a_checkpoint_with_damaged_facts_is_refused(damage, message, p4c5_checkpoint, tmp_path, capsys):
    import shutil

    folder = tmp_path / "ck"
    shutil.copytree(p4c5_checkpoint, folder)  # (a copy of one run's: each test damages its own)
    db = sqlite3.connect(folder / "checkpoint.sqlite")
    db.execute(damage)
    db.commit()
    db.close()
    games = ("p4c5", "p3c5") if "problem" in damage else ("p4c5",)  # (else: "made for another search")
    for game in games:
        code, out, err = run(capsys, "optimal", "-r", game, "--checkpoint", str(folder), "--json")
        assert code == 2 and out == "" and err.count("\n") == 1 and "damaged" in err and message in err


def test_a_checkpoint_must_be_a_writable_folder(tmp_path, capsys):
    afile = tmp_path / "file"
    afile.write_text("x")
    code, _, err = run(capsys, "optimal", "-r", "p3c5", "--checkpoint", str(afile))
    assert code == 2 and "is a file, not a checkpoint folder" in err and err.count("\n") == 1
    if os.path.exists("/dev/full"):  # (a device was called a file)
        code, _, err = run(capsys, "optimal", "-r", "p3c5", "--checkpoint", "/dev/full")
        assert (code, err) == (2, "error: --checkpoint: /dev/full is a device, not a checkpoint folder\n")
    code, _, err = run(capsys, "optimal", "-r", "p3c5", "--checkpoint", str(afile / "below"))
    assert code == 2 and err.count("\n") == 1
    # a folder where the checkpoint's database would be (it read as a damaged database)
    (tmp_path / "ck" / "checkpoint.sqlite").mkdir(parents=True)
    code, _, err = run(capsys, "optimal", "-r", "p3c5", "--checkpoint", str(tmp_path / "ck"))
    assert code == 2 and "checkpoint.sqlite is not a file" in err and err.count("\n") == 1


@pytest.mark.integration
def test_a_killed_run_resumes_from_its_checkpoint(tmp_path):
    folder = tmp_path / "ck"
    args = ("optimal", "-r", "p4c6", "-j", "1", "--checkpoint", str(folder), "--progress", "json", "--json")
    proc = cli(*args)
    units = 0
    for line in proc.stderr:
        if '"event":"unit"' in line and json.loads(line).get("unit", {}).get("exact"):
            units += 1
            if units == 3:
                break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    stored = sqlite3.connect(folder / "checkpoint.sqlite").execute("SELECT COUNT(*) FROM units").fetchone()[0]
    assert stored >= 3
    proc = cli(*args)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    data = json.loads(out)
    assert data["total"] == 5625 and data["proven"] and data["units"]["reused"] >= 3


class _StopAfter:
    """A progress object that stops the search after ``n`` work units."""

    def __init__(self, token, n: int, reason: str = "interrupted") -> None:
        self.token, self.n, self.seen, self.reason = token, n, 0, reason

    def start(self, total, description=""):
        pass

    def advance(self, n=1):
        self.seen += n
        if self.seen >= self.n:
            self.token.cancel(self.reason)


def _stopped_after(table: CodeTable, folder, units: int, tuning=None, reason: str = "interrupted"):
    """A one-job run with a checkpoint in ``folder``, stopped after ``units`` work units (by
    Ctrl-C, or the ``reason`` given)."""
    token = CancelToken()
    return solve(
        table,
        execution=Execution(jobs=1, checkpoint=str(folder)),
        tuning=tuning,
        cancel=token,
        progress=_StopAfter(token, units, reason),
    )


def _cancelled() -> CancelToken:
    token = CancelToken()
    token.cancel()
    return token


def test_a_run_stopped_before_its_first_unit_reports_what_its_checkpoint_proved(tmp_path):
    # e.g. a time limit spent starting a cluster's workers: the run reaches no unit it would
    # reuse, yet the bounds its checkpoint's runs proved still hold
    table = CodeTable(Rules(4, 6))
    folder = str(tmp_path / "ck")
    token = CancelToken()
    first = solve(table, execution=Execution(checkpoint=folder), cancel=token, progress=_StopAfter(token, 3))
    floor = 2 * table.n - 1  # every secret needs a guess, all but one a second
    assert not first.proven and first.lower_bound > floor
    again = solve(table, execution=Execution(checkpoint=folder), cancel=_cancelled())
    # no unit run (the classes the checkpoint knew are reused units)
    assert not again.proven and again.counters.units == again.counters.reused
    assert again.lower_bound == first.lower_bound and again.upper_bound == first.upper_bound
    # a finished run keeps the optimum: a rerun stopped at once still has it, with its strategy
    folder = str(tmp_path / "p4c5")
    assert solve(CodeTable(Rules(4, 5)), execution=Execution(checkpoint=folder)).total == 2463
    again = solve(CodeTable(Rules(4, 5)), execution=Execution(checkpoint=folder), cancel=_cancelled())
    assert again.proven and again.total == 2463 and again.tree is not None


def test_checkpoint_bounds_keep_the_best_of_every_run_and_refuse_damage(tmp_path):
    from mastermind.engines.exact.checkpoint import Checkpoint, CheckpointError, RootBounds

    store = Checkpoint(tmp_path, {"rules": "p3c3"})
    assert store.bounds() is None
    a = RootBounds(10.0, 20.0, Node(1, 3))
    assert store.keep_bounds(a) == a
    assert store.keep_bounds(RootBounds(12.0)) == RootBounds(12.0, 20.0, Node(1, 3))
    assert store.keep_bounds(RootBounds(11.0, 15.0, Node(2, 3))) == RootBounds(12.0, 15.0, Node(2, 3))
    store.close()
    again = Checkpoint(tmp_path, {"rules": "p3c3"})
    assert again.bounds() == RootBounds(12.0, 15.0, Node(2, 3))
    again.db.execute("UPDATE meta SET value = replace(value, '12.0', '13.0') WHERE name = 'bounds'")
    with pytest.raises(CheckpointError, match="damaged"):
        again.bounds()
    again.close()


def test_a_run_stopped_once_planned_reports_the_roots_bound():
    from mastermind.engines.models.bounds import lookahead_total_bound

    table = CodeTable(Rules(5, 6))
    token = CancelToken()

    class StopWhenPlanned:
        def start(self, total, description=""):
            if total is not None:  # the units are counted: the root and its classes are planned
                token.cancel()

        def advance(self, n=1):
            pass

    result = solve(table, execution=Execution(units=True), cancel=token, progress=StopWhenPlanned())
    assert not result.proven and result.counters.nodes == 0
    # the one-level bounds of its first guesses, below any strategy's total
    assert lookahead_total_bound(table, 1) <= result.lower_bound <= 37087  # entropy's total


# ---- stopping ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_bad_time_limits_exit_2(capsys, value):
    code, _, err = run(capsys, "optimal", "-r", "p3c3", "--time-limit", value)
    assert code == 2 and "--time-limit" in err and err.count("\n") == 1


def test_unknown_backend_lists_the_backends(capsys):
    code, _, err = run(capsys, "optimal", "-r", "p3c3", "--backend", "mpi")
    assert code == 2 and "threads, processes, dask" in err


@pytest.mark.integration
def test_unreachable_scheduler_exits_2_naming_it():
    pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    address = f"tcp://127.0.0.1:{free_port()}"
    start = time.monotonic()
    proc = cli("optimal", "-r", "p3c3", "--scheduler", address)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and address in err and err.strip().count("\n") == 0, err
    assert err.startswith("error: --scheduler: cannot reach the Dask scheduler at "), err
    assert time.monotonic() - start < 30  # 5 s connect timeout plus start-up, generously


@pytest.mark.integration
def test_a_scheduler_without_workers_exits_2_saying_so(tmp_path):
    pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    with open(tmp_path / "dask.log", "w") as logs:
        scheduler = subprocess.Popen(
            ["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            env=ENV,
            stdout=logs,
            stderr=logs,
        )
    try:
        from distributed import Client

        with Client(address, timeout="30s"):
            pass  # the scheduler answers
        proc = cli("optimal", "-r", "p3c3", "--scheduler", address)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 2 and err.strip().count("\n") == 0, err
        assert address in err and "no workers" in err
    finally:
        scheduler.terminate()
        scheduler.wait(timeout=30)


def test_a_time_limit_reports_proven_bounds(capsys):
    code, out, _ = run(capsys, "optimal", "-r", "p5c6", "--time-limit", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["proven"] is False and data["stopped"] == "time limit"
    assert 0 < data["total_lower_bound"] and (
        data["total_upper_bound"] is None or data["total_upper_bound"] >= data["total_lower_bound"]
    )
    assert data["total"] is None  # not proven: never given as the value


def test_time_limit_leaves_a_quick_solve_proven(capsys):
    code, out, _ = run(capsys, "optimal", "-r", "p3c5", "--time-limit", "60", "--json")
    data = json.loads(out)
    assert code == 0 and data["proven"]
    assert data["total"] == data["total_lower_bound"] == data["total_upper_bound"] == 451


@pytest.mark.parametrize(
    ("backend", "to"),
    [
        ("threads", "group"),
        ("processes", "run"),
        ("processes", "group"),
        ("dask", "run"),
        ("dask", "group"),
    ],
)
@pytest.mark.integration
def test_ctrl_c_stops_a_big_solve_with_bounds(backend, to):
    """``to``: the run's process only (kill), or its whole process group, as Ctrl-C at a
    terminal does: the workers get it too (they printed loky's and Dask's tracebacks)."""
    if backend == "dask":
        pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    args = ("optimal", "-r", "p5c6", "--progress", "json", "--backend", backend, "-j", "2")
    proc = cli(*args, start_new_session=True)
    for line in proc.stderr:  # Ctrl-C once the first unit is done: the workers are busy
        if line.startswith('{"event":"unit"'):
            break
    start = time.monotonic()
    if to == "group":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    elapsed = time.monotonic() - start
    assert proc.returncode == 130, err
    assert elapsed < 5, err  # the target is 1 s; generous so that a busy machine does not fail it
    assert "lower bound" in out and "proven       no: stopped (interrupted)" in out
    assert "Traceback" not in err and "Error" not in err, err  # the workers shut down quietly


@pytest.fixture(scope="module")
def p4c7_with_json_progress(tmp_path_factory):
    """`optimal -r p4c7 -j 2 --progress json --json`: its exit code, its JSON and its progress
    lines (a game of 1300 secrets or more: with nothing else asking for them, a smaller one is
    one search, without units), run once for the tests that read it."""
    import contextlib

    err, out = io.StringIO(), io.StringIO()
    args = ["optimal", "-r", "p4c7", "-j", "2", "--progress", "json", "--json", "--no-cache"]
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))  # (no user's cache)
        code = main(args)
    return code, json.loads(out.getvalue()), [json.loads(line) for line in err.getvalue().splitlines()]


def test_json_progress_ends_with_the_final_bounds(p4c7_with_json_progress):
    code, data, events = p4c7_with_json_progress
    assert code == 0 and data["total"] == 11228
    units = [e for e in events if e["event"] == "unit"]
    assert units and all(e["lower_bound"] is None or e["lower_bound"] <= 11228 for e in units)
    assert all(e["upper_bound"] is None or e["upper_bound"] >= 11228 for e in units)
    end = events[-1]
    assert end["event"] == "end" and end["proven"] is True
    assert end["lower_bound"] == end["upper_bound"] == 11228 and end["done"] == end["steps"]


def test_a_stopped_search_counts_only_the_units_it_settled(monkeypatch):
    """The progress said 157/157 at the end of a stopped run where the report said 83: the
    units the search never reached were counted as done."""
    from mastermind.core.cancel import CancelToken
    from mastermind.engines.exact import Execution, dispatch

    token = CancelToken()
    run_unit, ran = dispatch.run_unit, []

    def stop_after_three(*args):
        # stopped in the worker as its third unit ends (as a time limit or Ctrl-C would),
        # not when the search's thread reports it: that thread may lag behind the worker
        result = run_unit(*args)
        ran.append(result)
        if len(ran) == 3:
            token.cancel()
        return result

    monkeypatch.setattr(dispatch, "run_unit", stop_after_three)

    class Lines:
        def __init__(self):
            self.lines: list[dict] = []
            self.end: dict = {}

        def start(self, total, description=""):
            pass

        def advance(self, n=1):
            pass

        def report(self, fields):
            self.lines.append(fields)

        def finish(self, fields):
            self.end = fields

    bar = Lines()
    # one worker: the units queued behind the one running when the stop comes are never run
    result = solve(
        CodeTable(Rules.parse("p4c7")), execution=Execution(jobs=1, units=True), progress=bar, cancel=token
    )
    assert not result.proven
    end = bar.end
    assert end["done"] < end["steps"]  # the units not reached are not done
    assert end["done"] == len(bar.lines)  # one line per unit settled (run, reused or cut)
    # every unit the search ran is among them
    assert result.counters.units <= end["done"]


def test_the_report_counts_the_units_the_progress_counted(p4c7_with_json_progress):
    code, data, events = p4c7_with_json_progress
    end = events[-1]
    assert code == 0 and end["event"] == "end"
    assert (data["units"]["done"], data["units"]["planned"]) == (end["done"], end["steps"])
    assert data["units"]["run"] + data["units"]["reused"] <= data["units"]["done"]


def test_a_continued_run_starts_from_what_its_checkpoint_proved_of_each_class(tmp_path):
    """A class asked again for more within a run is kept again, and a run continued from the
    checkpoint starts every class at what earlier runs proved of it: without the game's
    bounds row, a run stopped at once still has the bound the first run reached (issue 28:
    the extra 100 s of a continued 5x6 run left its bound where it was)."""
    import sqlite3

    table = CodeTable(Rules(4, 6))
    folder = tmp_path / "ck"
    first = _stopped_after(table, folder, 60)
    assert not first.proven and first.lower_bound < 5625
    with sqlite3.connect(folder / "checkpoint.sqlite") as db:
        db.execute("DELETE FROM meta WHERE name = 'bounds'")  # the game's bound: gone

    class StopAtTheFirstRound(_StopAfter):  # (the classes restored while planning advance too)
        def start(self, total, description=""):
            if "work units" in description:
                self.token.cancel()

    def stopped_at_once(folder):  # the root planned, then stopped before its first round
        token = CancelToken()
        execution = Execution(jobs=1, checkpoint=str(folder))
        return solve(table, execution=execution, cancel=token, progress=StopAtTheFirstRound(token, 10**9))

    again = stopped_at_once(folder)
    assert not again.proven and first.lower_bound <= again.lower_bound <= 5625
    assert stopped_at_once(tmp_path / "fresh").lower_bound < first.lower_bound  # (the classes' doing)


# slow (4 s of CPU, two jobs): the next test keeps, restores and counts the split classes'
# guesses the same way, on one job
@pytest.mark.slow
def test_a_continued_run_starts_each_split_class_from_its_guesses_kept(tmp_path):
    """The guesses of a split class are kept in the checkpoint as they rise: a run continued
    starts them there (counted as reused) and proves the same optimum."""
    from mastermind.engines.exact import Limits, Tuning

    table = CodeTable(Rules(4, 6))
    tuning = Tuning(split_size=200)
    token = CancelToken()
    rounds_seen = []

    class StopAfterUnits:
        def start(self, total, description=""):
            pass

        def advance(self, n=1, **fields):
            rounds_seen.append(n)
            if len(rounds_seen) == 40:  # (of about 110 units in all)
                token.cancel("stop")

    first = solve(
        table,
        execution=Execution(jobs=2, checkpoint=tmp_path),
        tuning=tuning,
        cancel=token,
        progress=StopAfterUnits(),
    )
    assert first.status.name in ("FEASIBLE", "UNKNOWN")
    again = solve(table, execution=Execution(jobs=2, checkpoint=tmp_path), tuning=tuning, limits=Limits())
    assert again.total == solve(table).total and again.status.name == "OPTIMAL"
    assert again.counters.reused > 0


def test_a_continued_run_plans_each_round_from_the_split_classes_kept(tmp_path, monkeypatch):
    """A class split starts at what its guesses prove, in a continued run far above its
    plan's bound: a round is planned from there, and asks only the classes of first guesses
    still below its target. It was planned before the classes were split, and asked every
    class of the first guess of least plan bound for a little more, some for minutes (5x8:
    182 s for one class), although the guess was already proven above the target."""
    from mastermind.engines.exact import Tuning, anytime

    table = CodeTable(Rules(4, 6))
    tuning = Tuning(split_size=200)
    targets: list[float] = []
    late: list[float] = []  # bounds of first guesses asked although at their round's target
    plain_plan, plain_round = anytime.plan_round, anytime.RoundSearch._round

    def plan_round(state, step, paced=False, prior=None):
        plan = plain_plan(state, step, paced, prior)
        targets.append(INF if plan is None else plan.target)
        return plan

    def each_round(self, state, asks, fresh=None):
        asked = {id(c) for c, _, _ in asks}
        late.extend(
            g.lower for g in state.guesses if g.lower >= targets[-1] and asked & {id(c) for c in g.classes}
        )
        plain_round(self, state, asks, fresh)

    monkeypatch.setattr(anytime, "plan_round", plan_round)
    monkeypatch.setattr(anytime.RoundSearch, "_round", each_round)
    first = _stopped_after(table, tmp_path, 40, tuning)
    assert not first.proven
    token = CancelToken()
    again = solve(table, execution=Execution(jobs=1, checkpoint=tmp_path), tuning=tuning, cancel=token)
    assert again.proven and again.total == 5625
    assert len(targets) > 3 and late == []


def test_a_continued_run_splits_its_big_classes_before_its_first_round(tmp_path, monkeypatch):
    """A continued run splits at once the classes earlier runs asked through their guesses:
    its first round is planned from what their guesses proved (kept in the checkpoint as they
    rose, counted as reused), and it proves the same optimum. Left whole, they started at
    their plans' bounds far below, and paced rounds never asked them
    (6x8n: 107308 against 109936; 6300 s of rounds left the bound where it was)."""
    from mastermind.engines.exact import Tuning, anytime

    table = CodeTable(Rules(4, 6))
    tuning = Tuning(split_size=200)
    first_plans: list[float] = []
    whole: list = []  # big classes still whole at the first plan
    split: list = []
    kept: list = []  # their guesses whose answers the checkpoint held
    plain_plan = anytime.plan_round

    def plan_round(state, step, paced=False, prior=None):
        if not first_plans:
            first_plans.append(state.derived)
            big = [c for g in state.guesses for c in g.classes if c.size >= 200 and not c.exact]
            whole.extend(c for c in big if c.inner is None and not c.whole)
            split.extend(c for c in big if c.inner is not None)
            kept.extend(g for c in split for g in c.inner or () if g.guess in c.kept)
        return plain_plan(state, step, paced, prior)

    first = _stopped_after(table, tmp_path, 40, tuning)
    assert not first.proven and first.lower_bound is not None
    monkeypatch.setattr(anytime, "plan_round", plan_round)
    again = solve(table, execution=Execution(jobs=1, checkpoint=tmp_path), tuning=tuning)
    assert first_plans and split and whole == [] and kept
    assert again.proven and again.total == 5625 and again.counters.reused > 0


def test_a_class_whose_unit_a_stop_cut_short_is_asked_through_its_guesses_next_time(tmp_path, monkeypatch):
    """A unit that runs into the end of a run may need many runs, and proves nothing until it
    ends (6x8n: a 265-secret class ran through whole rows): the next run splits its class
    whatever its size. Units queued behind it, cut before they ran long, are not marked."""
    from dataclasses import replace

    from mastermind.engines.exact import Tuning, anytime, dispatch

    table = CodeTable(Rules(4, 5))  # (p4c6 took 3 s of CPU; p4c5 has classes of 100 too)
    tuning = Tuning(split_size=10**6)  # (no class is split for its size)
    token = CancelToken()
    cut: list[int] = []
    real_run_unit = dispatch.run_unit

    def cut_the_first_big_class(spec, run_id, unit):
        if not cut and unit.guess is None and len(unit.cands) >= 100:
            cut.append(len(unit.cands))
            token.cancel("stop")  # (the stop comes while it runs, as after a long run)
            return replace(real_run_unit(spec, run_id, unit), seconds=dispatch.CUT_SECONDS)
        return real_run_unit(spec, run_id, unit)

    monkeypatch.setattr(dispatch, "run_unit", cut_the_first_big_class)
    first = solve(table, execution=Execution(jobs=2, checkpoint=tmp_path), tuning=tuning, cancel=token)
    assert not first.proven and cut
    split: list[int] = []
    real_split = anytime.RoundSearch.split

    def each_split(self, c):
        split.append(c.size)
        return real_split(self, c)

    monkeypatch.setattr(anytime.RoundSearch, "split", each_split)
    again = solve(table, execution=Execution(jobs=2, checkpoint=tmp_path), tuning=tuning)
    assert again.proven and again.total == 2463
    assert split == cut  # that class, and no other


def test_a_search_capped_in_its_guesses_is_asked_as_a_proof_even_when_it_may_stop(monkeypatch):
    """A capped search (the best total within the worst case is one) asked round by round,
    as a run that may stop asks the plain total, took 2.5 times the nodes (p4c8 within 6
    guesses: 1.79 M against 718 k); it is asked as a proof is (its split classes' eldest
    guesses first), time limit or not, with the same answer, where the uncapped total is
    asked round by round once it may stop. (It compared the nodes of the two capped runs,
    which the units' shared memo made differ by 1% on a loaded machine.)"""
    from mastermind.engines.exact import Execution, Limits, Problem, Tuning, anytime

    eldest: list[int | None] = []
    plain_init = anytime.RoundSearch.__init__

    def init(self, *args, **kwargs):
        eldest.append(kwargs.get("eldest"))
        plain_init(self, *args, **kwargs)

    monkeypatch.setattr(anytime.RoundSearch, "__init__", init)
    table = CodeTable(Rules.parse("p4c5"))
    tuning = Tuning(split_size=20)  # (the big classes of a small game split, as 4x8's are)
    runs = {}
    for cap in (5, None):
        for limits in (Limits(), Limits(time_limit=1000)):
            eldest.clear()
            r = solve(
                table,
                Problem(max_guesses=cap),
                limits=limits,
                execution=Execution(jobs=1, units=True),
                tuning=tuning,
            )
            assert r.proven and len(eldest) == 1
            runs[cap, limits.time_limit] = (r.total, eldest[0])
    capped = solve(table, Problem(max_guesses=5), execution=Execution(units=False)).total
    assert runs[5, None] == runs[5, 1000] == (capped, 1)  # a proof's, one job: one eldest guess
    assert runs[None, None] == (2463, 1) and runs[None, 1000] == (2463, None)  # round by round


class _Last(RichProgress):
    """The bar, remembering the last count the search reported."""

    done: int | None = None

    def report(self, fields):
        self.done = fields.get("done", self.done)
        super().report(fields)

    def finish(self, fields):
        self.done = fields.get("done", self.done)
        super().finish(fields)


def test_the_bar_of_a_search_run_in_rounds_ends_at_the_units_its_report_counts(tmp_path):
    # before: each round started the line afresh with the total of every round, so a 4x7
    # search stopped after 185 of 205 units showed 8/205
    bar = Bar(console=Console(file=io.StringIO()), auto_refresh=False)
    progress = _Last(bar)
    result = solve(
        CodeTable(Rules(3, 5)), execution=Execution(checkpoint=str(tmp_path / "ck")), progress=progress
    )
    assert result.proven and progress.done is not None and progress.done > 1
    (task,) = [t for t in bar.tasks if t.description == "optimal: work units"]
    assert task.completed == progress.done and task.total >= progress.done


def test_a_run_that_may_stop_asks_the_classes_by_their_pace_once_each_was_asked(tmp_path, monkeypatch):
    """Any class that rises raises its first guess: once every class of a first guess has
    been asked (its pace known), a round asks only as many rises as the guess lacks, of the
    classes where they cost least, rather than one more of every class (5x8: 563 units,
    some of minutes, for a rise of 1). A proof asks every class, as before: it needs the
    optimal first guess's classes exact in the end. Either way the optimum is the same."""
    from mastermind.engines.exact import Limits, anytime

    table = CodeTable(Rules(4, 6))
    rounds: list[tuple[int, int, bool]] = []  # (classes asked, open classes of the guesses asked, paced)
    plain_plan = anytime.plan_round

    def plan_round(state, step, paced=False, prior=None):
        plan = plain_plan(state, step, paced, prior)
        if plan is not None:
            open_ = sum(1 for g in plan.guesses for c in g.classes if not c.exact)
            rounds.append((len(plan.asks), open_, paced))
        return plan

    monkeypatch.setattr(anytime, "plan_round", plan_round)
    may_stop = solve(table, execution=Execution(jobs=1, checkpoint=tmp_path), limits=Limits(time_limit=3600))
    assert may_stop.proven and may_stop.total == 5625
    assert rounds and all(paced for _, _, paced in rounds)
    assert any(asked < open_ for asked, open_, _ in rounds)
    rounds.clear()
    proof = solve(table, execution=Execution(jobs=1, units=True))
    assert proof.proven and proof.total == 5625
    assert rounds and all(asked == open_ and not paced for asked, open_, paced in rounds)


def test_a_worst_case_run_stopped_in_its_best_total_gives_its_checkpoints_seconds(tmp_path):
    """Stopped once its depth was proven, while the best total within it ran as units, the
    result kept the depth but lost the checkpoint's seconds (a total's stopped run has them)."""
    from mastermind.engines.exact import Problem

    token = CancelToken()

    class StopInTheUnits:
        units = False

        def start(self, total, description=""):
            self.units = description == "optimal: work units"

        def advance(self, n=1):
            if self.units:
                token.cancel()

    table = CodeTable(Rules(4, 6))
    stopped = solve(
        table,
        Problem(objective="worst"),
        execution=Execution(checkpoint=tmp_path),
        cancel=token,
        progress=StopInTheUnits(),
    )
    assert not stopped.proven and stopped.details.worst_lower_bound == 5
    assert stopped.details.checkpoint_seconds is not None and stopped.details.checkpoint_seconds > 0


def test_a_continued_run_paces_its_first_round_by_the_paces_its_checkpoint_kept(tmp_path, monkeypatch):
    """A continued run knew no class's pace before its own asks: its first round asked one
    more of every open class (5x8: hundreds of units, most of a row's hour). The paces are
    kept in the checkpoint; the next run's first round is paced by them, and proves the same
    optimum."""
    import sqlite3

    from mastermind.engines.exact import Limits, anytime
    from mastermind.engines.exact.checkpoint import Paces

    table = CodeTable(Rules(4, 6))
    folder = tmp_path / "ck"
    first = _stopped_after(table, folder, 60)
    assert not first.proven
    with sqlite3.connect(folder / "checkpoint.sqlite") as db:
        kept = Paces.decode(db.execute("SELECT value FROM meta WHERE name = 'paces'").fetchone()[0])
    assert kept.seconds > 0 and kept.work > 0 and kept.classes

    firsts: list[tuple[float | None, int]] = []  # each run's first round: its prior, classes paced
    plain_plan = anytime.plan_round

    def plan_round(state, step, paced=False, prior=None):
        if not firsts:
            firsts.append((prior, sum(1 for g in state.guesses for c in g.classes if c.pace is not None)))
        return plain_plan(state, step, paced, prior)

    monkeypatch.setattr(anytime, "plan_round", plan_round)
    again = solve(table, execution=Execution(jobs=1, checkpoint=str(folder)), limits=Limits(time_limit=3600))
    assert again.proven and again.total == solve(table).total
    prior, paced = firsts[0]
    assert prior == pytest.approx(kept.seconds / kept.work) and paced > 0


# p4c6 is slow (15 s on a loaded machine), and p5c4 (1.4 s of CPU where p3c6 takes 0.7); p3c6
# keeps, loads and answers from the memo the same way
@pytest.mark.parametrize(
    "text", [pytest.param(t, marks=pytest.mark.slow) for t in ("p4c6", "p5c4")] + ["p3c6"]
)
def test_a_continued_run_starts_from_the_memo_its_units_kept_and_proves_the_same_optimum(
    tmp_path, text, monkeypatch
):
    """The units' shared memo is kept in the checkpoint folder at the end of a run that did
    not finish: the next run's units answer from it what the last run proved (6x5: 14% more
    bound in 300 s, see benchmarks/NOTES.md), and the optimum is the same."""
    import shutil

    from mastermind.engines.exact import _memo, api
    from mastermind.engines.exact._memo import new_memo
    from mastermind.engines.exact.memo_file import UNITS_FILE, load_memo

    table = CodeTable(Rules.parse(text))
    optimum = solve(table).total
    folder = tmp_path / "ck"
    first = _stopped_after(table, folder, 20, reason=TIME_LIMIT)
    assert not first.proven and (folder / UNITS_FILE).is_file()
    # (not after Ctrl-C: a memo of gigabytes takes seconds to scan)
    assert not _stopped_after(table, tmp_path / "ctrl-c", 20).proven
    assert not (tmp_path / "ctrl-c" / UNITS_FILE).exists()
    # what it holds is what the units proved: a search of the whole game from it answers more
    # sets from the memo, and weighs no more of them, than from an empty memo, for the same
    # optimum (one thread: the same search; 4x6 weighs 142 sets either way, the sets its
    # memo answers being settled from their candidates alone otherwise)
    solver = ExactSolver(table)
    kept = new_memo(1 << 16)
    assert load_memo(folder / UNITS_FILE, kept, api._units_memo_for(solver, "total")) > 0
    nodes, hits = {}, {}
    for name, memo in (("kept", kept), ("empty", new_memo(1 << 16))):
        search = solver.new_search(memo=memo)
        assert search.solve(solver.cands, UNLIMITED, INF, solver.group) == optimum
        nodes[name], hits[name] = search.nodes, search.memo_hits
    assert nodes["kept"] <= nodes["empty"] and hits["kept"] > hits["empty"]
    # the run continued from it loads it into the memo its units share, proves the optimum,
    # and keeps no memo once proven
    plain = tmp_path / "plain"
    shutil.copytree(folder, plain)
    (plain / UNITS_FILE).unlink()
    loaded, shared = [], []
    monkeypatch.setattr(
        api.memo_file, "load_memo", lambda *a: loaded.append((a[1], load_memo(*a))) or loaded[-1][1]
    )
    real_new_memo = _memo.new_memo
    monkeypatch.setattr(
        _memo, "new_memo", lambda *a, **k: shared.append(real_new_memo(*a, **k)) or shared[-1]
    )
    again = solve(table, execution=Execution(jobs=1, checkpoint=str(folder)))
    assert again.proven and again.total == optimum
    assert len(shared) == 1 and [(m is shared[0], n > 0) for m, n in loaded] == [(True, True)]
    assert solve(table, execution=Execution(jobs=1, checkpoint=str(plain))).proven
    assert not (plain / UNITS_FILE).exists()
    # a file made for another search is refused, before any work
    other = tmp_path / "other"
    _stopped_after(CodeTable(Rules.parse("p3c4")), other, 3, reason=TIME_LIMIT)
    shutil.copy(folder / UNITS_FILE, other / UNITS_FILE)
    with pytest.raises(MastermindError, match="made for another search"):
        solve(CodeTable(Rules.parse("p3c4")), execution=Execution(jobs=1, checkpoint=str(other)))


def test_a_run_saves_its_units_memo_between_rounds_as_it_goes(tmp_path, monkeypatch):
    """A run killed, or stopped by Ctrl-C (no time to save at its end), keeps what its units
    proved up to its last save: every :data:`memo_file.SAVE_SECONDS` the memo is saved, between
    two rounds (when no unit writes to it), never once the stop has come (a stop has a
    second, and the save scans the whole memo), and the file holds what the run proved."""
    from mastermind.engines.exact import anytime, api
    from mastermind.engines.exact._memo import new_memo
    from mastermind.engines.exact.memo_file import UNITS_FILE, load_memo

    monkeypatch.setattr(api.memo_file, "SAVE_SECONDS", 0.0)
    token = CancelToken()
    in_round, saves = [False], []
    real_round, real_save = anytime.RoundSearch._round, api.memo_file.save_memo

    def round_(self, *a):
        in_round[0] = True
        try:
            return real_round(self, *a)
        finally:
            in_round[0] = False

    def save(*a, **k):
        saves.append((in_round[0], token.cancelled))
        return real_save(*a, **k)

    monkeypatch.setattr(anytime.RoundSearch, "_round", round_)
    monkeypatch.setattr(api.memo_file, "save_memo", save)
    table = CodeTable(Rules(4, 6))
    folder = tmp_path / "ck"
    stopped = solve(
        table,
        execution=Execution(jobs=1, checkpoint=str(folder)),
        cancel=token,
        progress=_StopAfter(token, 60),  # Ctrl-C: no save at the end of the run
    )
    assert not stopped.proven and token.cancelled
    assert saves and set(saves) == {(False, False)}
    solver = ExactSolver(table)
    assert load_memo(folder / UNITS_FILE, new_memo(1 << 16), api._units_memo_for(solver, "total")) > 0
