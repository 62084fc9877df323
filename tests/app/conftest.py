"""Shared by the tests of the app: the validators of every command's ``--json`` schema; the
solver's child process kept from one command to the next."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mastermind.app.cli import COMMANDS

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.fixture(scope="session")
def validators() -> dict:
    """A Draft 2020-12 validator of ``schemas/COMMAND.schema.json`` for every command, by
    command name, resolving ``common.schema.json``; each schema is checked as a schema too.
    Without jsonschema (extra: test) the tests that ask for it skip, saying why."""
    jsonschema = pytest.importorskip("jsonschema", reason="the schema checks need jsonschema (extra: test)")
    referencing = pytest.importorskip("referencing", reason="jsonschema's referencing library is missing")
    from referencing.jsonschema import DRAFT202012

    registry = referencing.Registry().with_resources(
        (path.name, referencing.Resource.from_contents(json.loads(path.read_text()), DRAFT202012))
        for path in SCHEMAS.glob("*.schema.json")
    )
    out = {}
    for name in (name for names in COMMANDS.values() for name in names):
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        out[name] = jsonschema.Draft202012Validator(schema, registry=registry)
    return out


@pytest.fixture(scope="session", autouse=True)
def _solver_child_kept_between_commands():
    """compare, table, plot and results run their solver in a child process (TimedWorker),
    started for each command: a new Python whose first job imports the package and loads its
    kernels, a second or two on an idle machine, over 5 s on a loaded one. Here a child that
    has answered its last job, when its command closes it (compare ends it at once,
    close(kill=True), to spare the second a graceful exit takes), waits for the next command
    instead of ending (moved to the folder a new child would start in). Nothing else
    changes: a child still at work when closed (a job past its time limit, Ctrl-C) is ended
    as before and the next command starts a fresh one; a child never saw the parent's
    monkeypatches anyway (spawned), and the jobs read no environment.
    tests/engines/workers/test_timed.py tests the worker's own life, unpooled."""
    from mastermind.engines.workers.timed import TimedWorker

    idle: list[tuple] = []  # (process, connection, stop event): one at most
    start, close, submit, result = (
        TimedWorker._start,
        TimedWorker.close,
        TimedWorker.submit,
        TimedWorker.result,
    )
    answered: set[int] = set()  # the ids of the workers whose child has answered its last job

    started_in: dict[int, str] = {}  # a child's working folder (its parent's when started), by pid

    def pooled_start(self: TimedWorker) -> None:
        while idle:
            proc, conn, stop = idle.pop()
            self._proc, self._conn, self._stop = proc, conn, stop
            if not proc.is_alive():
                close(self, True)
                continue
            if started_in.get(proc.pid) != os.getcwd():  # in the folder a new child would be
                submit(self, os.chdir, (os.getcwd(),), 60.0)
                result(self)
                started_in[proc.pid] = os.getcwd()
            return
        start(self)
        assert self._proc is not None
        started_in[self._proc.pid] = os.getcwd()

    def pooled_submit(self: TimedWorker, *args, **kwargs) -> None:
        answered.discard(id(self))
        submit(self, *args, **kwargs)

    def pooled_result(self: TimedWorker):
        value = result(self)  # (a job not answered in time: its child ended in there)
        if self._proc is not None:
            answered.add(id(self))
        return value

    def pooled_close(self: TimedWorker, kill: bool = False) -> None:
        proc, conn, idle_child = self._proc, self._conn, id(self) in answered
        answered.discard(id(self))
        if (
            idle
            or self._pending is not None
            or proc is None
            or conn is None
            or not proc.is_alive()
            or (kill and not idle_child)
            or conn.poll(0)  # (an answer never read: not reused)
        ):
            close(self, kill)
            return
        self._proc = self._conn = None
        idle.append((proc, conn, self._stop))

    with pytest.MonkeyPatch.context() as patch:
        for name, fn in (
            ("_start", pooled_start),
            ("submit", pooled_submit),
            ("result", pooled_result),
            ("close", pooled_close),
        ):
            patch.setattr(TimedWorker, name, fn)
        yield
    for proc, conn, _ in idle:
        kept = TimedWorker()
        kept._proc, kept._conn = proc, conn
        close(kept)
