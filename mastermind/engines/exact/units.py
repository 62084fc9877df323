"""Work units of the exact search: what a worker (thread, process or Dask worker) runs.

A unit is one subproblem: the secrets still possible, the guesses left, the symmetry group
fixing the guesses so far, optionally the guess to make first, and a budget. Its result (a
:class:`UnitResult`) is the exact cost (with an optimal subtree) when below the budget, else
a proven lower bound at least the budget, with the work it took.

Workers receive a small :class:`SearchSpec` (rules text, pool, weights, cost of a guess) and
build the score table once per rules from it (a cache of this process), so the table never
travels with a unit. Each worker thread keeps one search per spec and run, whose memo serves
every unit it runs. A run's units poll the run's stop flag: in this process the dispatcher's
cancel token's flag, in another process one the backend sets (:func:`run_flag`).
"""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mastermind.core.cancel import Stopped
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import Node
from mastermind.engines.exact.search import DEFAULT_MEMO_BYTES, Search

_lock = threading.Lock()
_tables: dict[str, CodeTable] = {}
_local = threading.local()
_run_flags: dict[str, np.ndarray] = {}
_run_memos: dict[str, Any] = {}  # the memo the threads of one run share


@dataclass(frozen=True)
class SearchSpec:
    """What every unit of one search shares: enough to rebuild the search on any machine.
    Each guess costs ``guess_cost`` per unit of weight, plus ``penalty`` at the last level
    (the tie-break's costs)."""

    rules: str
    consistent: bool
    guess_cost: int
    penalty: int
    max_set: int
    weights: np.ndarray | None = field(default=None, compare=False)  # None: every secret weighs 1
    memory: int | None = field(default=None, compare=False)  # each search's memo budget (bytes)

    @property
    def key(self) -> str:
        """A digest of everything a value depends on (checkpoints are checked against it)."""
        h = hashlib.sha256(
            f"{self.rules}|{self.consistent}|{self.guess_cost}|{self.penalty}|{self.max_set}".encode()
        )
        if self.weights is not None:
            h.update(str(self.weights.dtype).encode())
            h.update(np.ascontiguousarray(self.weights).tobytes())
        return h.hexdigest()


@dataclass(frozen=True, eq=False)
class Unit:
    """One work unit: a subproblem with its budget (arrays kept small: int32 codes, int8 group)."""

    cands: np.ndarray
    r: int
    budget: float
    perms: np.ndarray
    cmaps: np.ndarray
    guess: int | None = None

    def key(self) -> str:
        """The subproblem's identity, independent of when and where it runs (not the budget)."""
        h = hashlib.sha256()
        h.update(np.ascontiguousarray(self.cands, dtype=np.int32).tobytes())
        h.update(np.ascontiguousarray(self.perms, dtype=np.int8).tobytes())
        h.update(np.ascontiguousarray(self.cmaps, dtype=np.int8).tobytes())
        h.update(f"|{min(self.r, len(self.cands) + 1)}|{self.guess}|{self.perms.shape}".encode())
        return h.hexdigest()


@dataclass(frozen=True)
class UnitResult:
    """What one work unit found. ``proven``: ``value`` is exact when below the budget
    (``tree`` then holds an optimal subtree), else a lower bound at least the budget. Not
    proven (the run was stopped): ``value`` is a lower bound only. With the work it took
    (``reused``: taken from a checkpoint, not run)."""

    value: float
    proven: bool
    tree: Node | None
    nodes: int = 0
    memo_hits: int = 0
    seconds: float = 0.0
    reused: bool = False


def share_table(table: CodeTable) -> None:
    """Let the units of this process use a table already built (threads share the search's)."""
    with _lock:
        _tables.setdefault(str(table.rules), table)


def table_for(rules_text: str) -> CodeTable:
    """The score table of these rules, built once per process."""
    with _lock:
        table = _tables.get(rules_text)
    if table is None:
        table = CodeTable(Rules.parse(rules_text))
        with _lock:
            table = _tables.setdefault(rules_text, table)
    return table


def warm_worker(rules_text: str) -> int:
    """Load the search kernels and build the score table in this worker before any unit runs,
    so that a run's clock measures the search (the start-up is timed apart); its process id.
    A reused worker (loky, a running Dask cluster) has the kernels already."""
    import os

    from mastermind.engines.exact.warmup import SEARCH, load_kernels

    load_kernels([SEARCH])  # (a unit is one search: the rounds run in the process that sends it)
    table_for(rules_text)
    return os.getpid()


def run_flag(run_id: str) -> np.ndarray:
    """The stop flag of one run in this process (created on first use)."""
    with _lock:
        flag = _run_flags.get(run_id)
        if flag is None:
            flag = _run_flags[run_id] = np.zeros(1, dtype=np.uint8)
        return flag


def set_run_flag(run_id: str, flag: np.ndarray) -> None:
    """Make ``flag`` the stop flag of run ``run_id`` in this process (the dispatcher's own,
    for units on threads)."""
    with _lock:
        _run_flags[run_id] = flag


def set_run_memo(run_id: str, memo: Any) -> None:
    """Let every thread of this process that runs units of ``run_id`` share ``memo``."""
    with _lock:
        _run_memos[run_id] = memo


def forget_run(run_id: str) -> None:
    with _lock:
        _run_flags.pop(run_id, None)
        _run_memos.pop(run_id, None)


def _search_for(spec: SearchSpec, run_id: str) -> Search:
    searches = getattr(_local, "searches", None)
    if searches is None or searches[0] != run_id:
        # one run at a time per thread: the memo of an earlier run is let go
        searches = _local.searches = (run_id, {})  # key -> Search
    store: dict[Any, Search] = searches[1]
    key = spec.key
    search = store.get(key)
    if search is None:
        table = table_for(spec.rules)
        weights = np.ones(table.n, dtype=np.int64) if spec.weights is None else spec.weights
        identity = (
            np.arange(table.rules.pegs, dtype=np.int8)[None, :],
            np.arange(table.rules.colors, dtype=np.int8)[None, :],
        )  # every unit brings its group
        search = Search(
            table,
            weights,
            identity,
            unit=spec.guess_cost,
            penalty=spec.penalty,
            consistent=spec.consistent,
            max_set=spec.max_set,
            stop=run_flag(run_id),
            memory=DEFAULT_MEMO_BYTES if spec.memory is None else spec.memory,
            memo=_run_memos.get(run_id),
        )
        store[key] = search
    return search


def run_unit(spec: SearchSpec, run_id: str, unit: Unit) -> UnitResult:
    """Solve one unit (in whatever thread or process runs it)."""
    start = time.perf_counter()
    search = _search_for(spec, run_id)
    nodes0, hits0 = search.nodes, search.memo_hits
    group = (unit.perms, unit.cmaps)
    only = None if unit.guess is None else [unit.guess]
    value = search.solve(unit.cands, unit.r, unit.budget, group, only=only)
    proven = not search.stopped
    tree = None
    if proven and value < unit.budget:
        guess = search.root_guess if only is not None else None
        try:
            tree = search.build(unit.cands, unit.r, group, guess=guess)
        except Stopped:  # the build needed a search that was cut short
            proven, tree = False, None
    return UnitResult(
        value, proven, tree, search.nodes - nodes0, search.memo_hits - hits0, time.perf_counter() - start
    )
