"""The cluster recipe of docs/cluster.md, run here on loopback: a ``dask scheduler`` process and
two ``dask worker`` processes (one thread each, no nanny: killing one is losing a machine),
``mastermind optimal --scheduler ADDRESS --checkpoint DIR`` on them, and one of them killed
in the middle of the run.

The kill comes at a point the command reports (its tenth unit's progress line, of about 200
units on p4c7), never after a number of seconds, so that the outcome does not depend on how
fast or how busy the machine is (see announcing.py and test_ctrl_c.py)."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
GAME, OPTIMUM = "p4c7", 11228  # results/optimal.json; about 200 units, seconds on 2 workers
KILL_AT = 10  # units done when the machine is lost
REACH_WITHIN = 300.0  # seconds for anything to happen: only against a hang


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and workers on 127.0.0.1, each its own process, logging to ``logs``."""

    def __init__(self, logs: Path) -> None:
        self.logs = open(logs, "a")
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.scheduler = self._start(
            "scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1], "--no-dashboard"
        )
        self.workers = [
            self._start(
                "worker",
                self.address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
            )
            for _ in range(2)
        ]
        from distributed import Client

        with Client(self.address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=REACH_WITHIN)

    def _start(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen(["dask", *args], env=ENV, stdout=self.logs, stderr=self.logs)

    def close(self) -> None:
        for proc in [*self.workers, self.scheduler]:
            if proc.poll() is None:
                proc.kill()
        for proc in [*self.workers, self.scheduler]:
            proc.wait(timeout=30)
        self.logs.close()


@pytest.fixture
def clusters(tmp_path: Path) -> Iterator[list[Cluster]]:
    """Start clusters with ``Cluster(...)`` appended here; all are ended after the test."""
    pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    started: list[Cluster] = []
    try:
        yield started
    finally:
        for cluster in started:
            cluster.close()


def optimal(
    address: str, checkpoint: Path, kill: list[subprocess.Popen] | None = None
) -> tuple[int, dict | None, str, int]:
    """Run ``optimal`` on the cluster at ``address`` with ``checkpoint``, SIGKILL the
    processes ``kill`` as the progress lines reach :data:`KILL_AT` units done; the exit code,
    the JSON report (None if there is none), standard error, and the units done when ``kill``
    was killed (-1: not)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind", "optimal", "-r", GAME, "--scheduler", address,
         "--checkpoint", str(checkpoint), "--json", "--progress", "json", "--no-cache"],
        cwd=ROOT,
        env=ENV,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    hang = threading.Timer(REACH_WITHIN, proc.kill)
    hang.start()
    killed_at, lines = -1, []
    try:
        assert proc.stderr is not None and proc.stdout is not None
        for line in proc.stderr:
            lines.append(line)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            done = event.get("done") if isinstance(event, dict) and event.get("event") == "unit" else None
            if kill is not None and killed_at < 0 and done is not None and done >= KILL_AT:
                for doomed in kill:
                    os.kill(doomed.pid, signal.SIGKILL)
                for doomed in kill:
                    doomed.wait(timeout=30)
                killed_at = done
        out = proc.stdout.read()
        proc.wait()
    finally:
        hang.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    try:
        report = json.loads(out)
    except ValueError:
        report = None
    return proc.returncode, report, "".join(lines), killed_at


def stored_units(checkpoint: Path) -> int:
    with sqlite3.connect(checkpoint / "checkpoint.sqlite") as db:
        return db.execute("SELECT COUNT(*) FROM units").fetchone()[0]


def test_a_lost_worker_has_its_units_redone_and_the_proof_ends(clusters, tmp_path):
    """One of two worker machines lost mid-run: its units go to the other, the run proves
    the optimum, and the checkpoint keeps the units it finished."""
    cluster = Cluster(tmp_path / "dask.log")
    clusters.append(cluster)
    code, report, err, killed_at = optimal(cluster.address, tmp_path / "ck", kill=[cluster.workers[0]])
    assert code == 0, err[-2000:]
    assert killed_at >= KILL_AT, "the worker was not killed during the run"
    assert report is not None and (report["total"], report["proven"]) == (OPTIMUM, True)
    assert report["units"]["done"] > killed_at  # the run went on after the loss
    assert stored_units(tmp_path / "ck") > 0


def test_a_lost_scheduler_ends_the_run_and_a_new_cluster_continues_it(clusters, tmp_path):
    """The scheduler lost mid-run (its workers end with it): one line, exit 2, every unit
    finished kept; the same command on a new scheduler and new workers reuses them and
    proves the optimum."""
    first = Cluster(tmp_path / "dask.log")
    clusters.append(first)
    # the scheduler's machine lost with its workers, as they end with it: a worker left running
    # a few seconds more answered the units already sent, and a run of few units outlived the
    # scheduler (a full run under load ended proven, exit 0)
    code, report, err, killed_at = optimal(
        first.address, tmp_path / "ck", kill=[first.scheduler, *first.workers]
    )
    assert killed_at >= KILL_AT, "the scheduler was not killed during the run"
    assert code == 2 and report is None, err[-2000:]
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: ") and f"lost the Dask scheduler at {first.address}" in last, last
    assert "run the same command again" in last
    kept = stored_units(tmp_path / "ck")
    assert kept > 0

    second = Cluster(tmp_path / "dask.log")  # a new scheduler elsewhere (another port)
    clusters.append(second)
    code, report, err, _ = optimal(second.address, tmp_path / "ck")
    assert code == 0, err[-2000:]
    assert report is not None and (report["total"], report["proven"]) == (OPTIMUM, True)
    assert report["units"]["reused"] > 0
    assert stored_units(tmp_path / "ck") >= kept
