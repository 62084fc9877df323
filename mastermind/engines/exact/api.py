"""Optimal strategies, proven: the public face of the exact search.

>>> from mastermind.engines.exact.api import solve
>>> from mastermind.engines.exact.options import Problem
>>> from mastermind.core.game import CodeTable, Rules
>>> result = solve(CodeTable(Rules(3, 3)))
>>> result.total, result.worst, result.status
(73, 4, <Status.OPTIMAL: 'optimal'>)
>>> solve(CodeTable(Rules(3, 3)), Problem(objective="worst")).worst
4
>>> solve(CodeTable(Rules(3, 3)), Problem(max_guesses=2)).status
<Status.NO_STRATEGY: 'no strategy'>
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from mastermind.core.cancel import INTERRUPTED, CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.pools import Pool
from mastermind.core.progress import Progress
from mastermind.engines.exact import memo_file
from mastermind.engines.exact.by_first_guess import ByFirstGuess
from mastermind.engines.exact.checkpoint import (
    RootBounds,
    check_made_for,
    checkpoint_objective,
    hold_folder,
    make_folder,
    search_made_for,
)
from mastermind.engines.exact.details import SearchDetails
from mastermind.engines.exact.memory import MemoryBudget
from mastermind.engines.exact.options import ONE_SEARCH_NODES, Execution, Limits, Problem, Tuning
from mastermind.engines.exact.reporting import ProgressReporter
from mastermind.engines.exact.search import INF, UNLIMITED
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.exact.strategy_thread import StrategyThread
from mastermind.engines.result import STARTED_FROM, Objective, Result, Status


def solve(
    table: CodeTable,
    problem: Problem | None = None,
    *,
    limits: Limits | None = None,
    execution: Execution | None = None,
    tuning: Tuning | None = None,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
) -> Result[SearchDetails]:
    """An optimal strategy for ``problem`` on the game of ``table`` (the plain total by default).

    The result's status is OPTIMAL (with the strategy tree), NO_STRATEGY (none meets
    ``problem.max_guesses`` or its first guess), or, when ``limits.time_limit`` passes or
    ``cancel`` is cancelled first, FEASIBLE or UNKNOWN: the result then says what is proven
    (``lower_bound``) and the best strategy found, if any, and ``stopped`` why it stopped.

    ``execution`` says where the search runs (threads, processes, a Dask cluster; a
    checkpoint) and whether as work units, ``tuning`` how the top of the tree is cut into
    units (see :mod:`mastermind.engines.exact.options`); ``progress`` is told what is done.

    >>> import mastermind as mm
    >>> table = mm.CodeTable(mm.Rules(3, 4))
    >>> best = mm.solve(table)
    >>> best.status.name, best.total, best.worst, mm.solve(table, mm.Problem(max_guesses=3)).status.name
    ('OPTIMAL', 206, 4, 'NO_STRATEGY')
    """
    problem = Problem() if problem is None else problem
    limits = Limits() if limits is None else limits
    execution = Execution() if execution is None else execution
    tuning = Tuning() if tuning is None else tuning
    _check_options(problem, limits, execution, tuning)
    _check_game(table, problem, cancel, progress)
    cancel = CancelToken() if cancel is None else cancel
    # one start-up from here to the search (the kernels load, the workers start, the memo is
    # made): a Ctrl-C meanwhile waits for it, then stops the search, which reports what it
    # proved; its gaps unmarked, a Ctrl-C that fell in one unwound with nothing said
    with contextlib.ExitStack() as held, cancel.starting():
        if execution.checkpoint is not None:
            # one run at a time, and the folder of another game or objective refused, before
            # any work: the solver's modules alone load in 1.5 s
            held.enter_context(hold_folder(execution.checkpoint))
            objective = checkpoint_objective(problem.objective)
            check_made_for(execution.checkpoint, search_made_for(table.rules, problem.pool, objective))
        # (the searches in this thread: each within the memory a search of its own gets)
        solver = ExactSolver(table, problem, memory=MemoryBudget.of(table, limits.memory).search_bytes)
        return _solve(solver, limits, execution, tuning, cancel, progress)


def _check_game(table: CodeTable, problem: Problem, cancel: object, progress: object) -> None:
    """The game a CodeTable, and a cancel token and a progress display of their kinds."""
    if not isinstance(table, CodeTable):
        raise MastermindError(
            f"table must be a CodeTable (CodeTable(Rules.parse('p4c6'))), got {type(table).__name__}"
        )
    if cancel is not None and not isinstance(cancel, CancelToken):
        raise MastermindError(f"cancel must be a CancelToken, got {type(cancel).__name__}")
    if progress is not None and not all(callable(getattr(progress, m, None)) for m in ("start", "advance")):
        raise MastermindError(f"progress must be a Progress (start, advance), got {type(progress).__name__}")


def _check_options(problem: Problem, limits: Limits, execution: Execution, tuning: Tuning) -> None:
    """Each option an object of its type, and a backend, a scheduler or a checkpoint only for
    a problem work units solve (with a fixed opening or a tie-break they were ignored)."""
    for name, value, kind in (
        ("problem", problem, Problem),
        ("limits", limits, Limits),
        ("execution", execution, Execution),
        ("tuning", tuning, Tuning),
    ):
        if not isinstance(value, kind):
            raise MastermindError(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
    if execution.distributed and not problem.in_units:
        raise MastermindError(
            "a backend, a scheduler and a checkpoint work on the optimum and the optimal worst case "
            "only: not with a first guess or a tie-break"
        )


def _solve(
    solver: ExactSolver,
    limits: Limits,
    execution: Execution,
    tuning: Tuning,
    cancel: CancelToken,
    progress: Progress | None,
) -> Result[SearchDetails]:
    from mastermind.engines.exact.warmup import SEARCH, load_kernels

    problem = solver.problem
    if (stopped := _stopped_before_work(solver, execution, tuning, cancel)) is not None:
        return stopped
    load_kernels([SEARCH])  # before any search's clock: the rounds load their own
    if (stopped := _stopped_before_work(solver, execution, tuning, cancel)) is not None:
        return stopped
    with cancel.child(limits.time_limit) as token:
        if problem.objective is Objective.TOTAL and problem.max_guesses is not None:
            # a cap no strategy meets is refuted first, by the search that only asks whether
            # a strategy exists, rather than by the total's search (p4c7 within 5 guesses:
            # about 1.1 s against 9 s); met, it costs a probe of a few thousand nodes
            start = time.perf_counter()
            reporter = ProgressReporter(progress)
            reporter.start(None, "optimal: is there a strategy within the guesses allowed")
            fits, counters = solver.fits(problem.max_guesses, token)
            if fits is False:  # (proven: no strategy exists, as the end line says)
                reporter.settle(INF, True, False, INF)
                reporter.finish(True)
                return solver.result(None, counters=counters, start=start, opening=problem.first_guess)
        units = execution.wants_units(token.deadline is not None, len(solver.cands))
        if execution.units is None and tuning.start is not None and problem.plain:
            units = True  # (a strategy to start from is the units' own: one search ignores it)
        if units:
            if problem.plain:
                return _solve_units(solver, limits, execution, tuning, token, progress)
            if problem.objective is Objective.WORST and not problem.tie_break and problem.first_guess is None:
                return _solve_worst_units(solver, limits, execution, tuning, token, progress)
        # (weighted, or on some secrets only, the units took 4.5 times the one search's time:
        # p4c4b with weights 0-3, 20.9 s against 4.6 s)
        if execution.units is None and problem.plain and solver.uniform and problem.candidates is None:
            result, outgrown = _one_search(solver, token, progress)
            if outgrown:  # (the units take over; the first search counted in)
                taken = _solve_units(solver, limits, execution, tuning, token, progress)
                return replace(
                    taken, counters=result.counters + taken.counters, seconds=result.seconds + taken.seconds
                )
        else:
            result = solver.run(token, progress)
        # (the memo of the total's search, which run made: the search keyed (1, 0))
        return solver.with_memo(result, solver.search().memo) if execution.keep_memo else result


OUTGROWN = "outgrown"
"""Why :func:`_one_search` stopped its search: past :data:`ONE_SEARCH_NODES` nodes."""
OUTGROWN_POLL = 0.02
"""Seconds between two looks at the one search's count of nodes."""


def _one_search(
    solver: ExactSolver, cancel: CancelToken, progress: Progress | None
) -> tuple[Result[SearchDetails], bool]:
    """The plain total as one compiled search in this thread, and whether that search was
    stopped (outgrown) once it had searched
    :data:`~mastermind.engines.exact.options.ONE_SEARCH_NODES` nodes without its proof: a
    long search goes on as work units, which show an ETA and report what they proved when
    stopped (one search stopped knows only its root's first bound). Its nodes are counted by
    a thread that reads the search's counters as it runs (the search holds no lock)."""
    with cancel.child() as probe:
        search = solver.search(cancel=probe)
        first = search.nodes
        done = threading.Event()

        def watch() -> None:
            while not done.wait(OUTGROWN_POLL):
                if search.nodes - first >= ONE_SEARCH_NODES:
                    probe.cancel(OUTGROWN)
                    return

        watcher = threading.Thread(target=watch, name="one-search-nodes", daemon=True)
        watcher.start()
        try:
            result = solver.run(probe, progress)
        finally:
            done.set()
            watcher.join()
            solver.search(cancel=cancel)  # (every search of the solver polls the run's token again)
    if probe.reason == OUTGROWN:  # (a Ctrl-C meanwhile: the units stop at once and report it)
        solver.drop_searches()  # (the units make memos of their own, within the budget)
        return result, True
    return result, False


def _stopped_before_work(
    solver: ExactSolver, execution: Execution, tuning: Tuning, cancel: CancelToken
) -> Result[SearchDetails] | None:
    """The result of a search stopped by Ctrl-C in its start-up, before it searched
    anything: said at once, rather than after loading the kernels, starting the workers and
    making the memo (a Ctrl-C at 1 s of `optimal -r p5c6` answered at 1.2 s on a busy
    machine). Only under a watcher that gives the stop a second (the command line's Ctrl-C):
    a time limit's report, and a library caller's, give the bounds a search knows at once
    (the worst case's by counting); nor with a checkpoint or a strategy to start from, whose
    bounds the search's own stop reports."""
    if cancel.reason != INTERRUPTED or cancel.watcher is None:
        return None
    if execution.checkpoint is not None or tuning.start is not None:
        return None
    from mastermind.engines.result import Counters

    return solver.result(
        None, counters=Counters(), start=time.perf_counter(), stopped=cancel.reason or INTERRUPTED
    )


def _solve_worst_units(
    solver: ExactSolver,
    limits: Limits,
    execution: Execution,
    tuning: Tuning,
    cancel: CancelToken,
    progress: Progress | None,
) -> Result[SearchDetails]:
    """The worst-case optimum with work units: the least depth in this thread (by the search
    that only asks whether a strategy exists, quick beside the total's), then the best total
    within that depth as the plain total's work units. Stopped in between, the result keeps
    the depth proven and a strategy of that depth."""
    start = time.perf_counter()
    problem = solver.problem
    limit = UNLIMITED if problem.max_guesses is None else problem.max_guesses
    if progress is not None:
        progress.start(None, "optimal: worst cases tried")
    # running from the first search to the units' set-up: a Ctrl-C in between waits for the answer
    with cancel.running():
        # (alone in this process until it ends: the memory of one search, as ``solve`` set it)
        # (a checkpoint keeps its memo too: a run stopped in it goes on where it was)
        store = None
        if execution.checkpoint is not None:
            # (a folder of another search was refused by solve, before the depth search)
            store = make_folder(execution.checkpoint) / memo_file.DEPTH_FILE
        least = solver.least_depth(cancel, limit=limit, progress=progress, store=store)
        depth, shallow = least.depth, least.tree
        if shallow is None:
            if cancel.cancelled:  # (with the shallowest strategy found, if any)
                return solver.result(
                    least.shallowest,
                    counters=least.counters,
                    start=start,
                    stopped=cancel.reason,
                    worst_lower_bound=depth,
                )
            return solver.result(None, counters=least.counters, start=start)  # none within max_guesses
        capped = ExactSolver(solver.table, replace(problem, objective=Objective.TOTAL, max_guesses=depth))
        result = _solve_units(capped, limits, execution, tuning, cancel, progress, objective="worst")
    if result.tree is None and result.stopped is None:
        raise AssertionError(f"no strategy within {depth} guesses, the least depth found")
    if result.tree is None:  # stopped before a strategy of the least depth was costed
        stopped = solver.result(
            shallow,
            counters=least.counters + result.counters,
            start=start,
            stopped=result.stopped,
            worst_lower_bound=depth,
            # (the checkpoint's seconds over all its runs, as a total's stopped run gives them)
            checkpoint_seconds=None if result.details is None else result.details.checkpoint_seconds,
        )
        # (what the best total within the depth proved so far, below the strategy's)
        if result.lower_bound is not None and stopped.upper_bound is not None:
            stopped = replace(stopped, lower_bound=min(result.lower_bound, stopped.upper_bound))
        return stopped
    assert result.details is not None
    return replace(
        result,
        objective=Objective.WORST,
        seconds=time.perf_counter() - start,
        counters=least.counters + result.counters,
        details=replace(
            result.details,
            max_guesses=problem.max_guesses,
            worst_lower_bound=None if result.proven else depth,
        ),
    )


def _made_for(solver: ExactSolver, objective: str) -> dict:
    """The keys of a checkpoint's fingerprint that a worst-case run can check before its
    depth search (the cap and the search's own key come with the depth)."""
    return search_made_for(solver.rules, solver.pool, objective)


def _solve_units(
    solver: ExactSolver,
    limits: Limits,
    execution: Execution,
    tuning: Tuning,
    cancel: CancelToken,
    progress: Progress | None,
    objective: str = "total",
) -> Result[SearchDetails]:
    """The plain-total optimum as work units over a backend: the root's bounds raised round
    by round (:mod:`.anytime`), beside the strategy search for cheaper strategies
    (:mod:`.strategy_search`) where it applies. ``objective``: what the checkpoint is for
    ("worst": the best total within the least depth, which a worst-case search runs)."""
    from mastermind.engines.exact._memo import new_memo
    from mastermind.engines.exact.anytime import SPLIT_SIZE, RoundSearch
    from mastermind.engines.exact.backends import make_backend, worker_count
    from mastermind.engines.exact.warmup import MEMO_FILE, ROUNDS, SEARCH, STRATEGY, load_kernels

    max_guesses = solver.problem.max_guesses
    r = UNLIMITED if max_guesses is None else max_guesses
    jobs = worker_count(execution.jobs)
    # the time limit as the token holds it (made from limits.time_limit by solve, within the
    # caller's): read from there alone, below solve
    timed = cancel.deadline is not None
    # the strategy search (which knows neither weights nor a cap on the guesses) runs beside
    # the rounds in a run that may stop before its proof, for the best strategy found then;
    # a proof needs none (the rounds find the optimal strategy), and runs faster without
    alongside = (
        solver.uniform
        and max_guesses is None
        and (timed or execution.checkpoint is not None or tuning.start is not None)
    )
    if tuning.start is not None and not alongside:
        raise MastermindError(
            "a strategy to start from applies to the plain total (no weights, no cap on the guesses)"
        )
    workers = max(1, jobs - 1) if alongside else jobs
    # big classes are asked through their guesses in every run: round by round where the run
    # may stop (small units keep what they prove), eldest guesses first in a proof
    # (a search capped in its guesses, as the best total within the worst case is, is asked
    # as a proof is: round by round it took 2.5 times the nodes, p4c8 within 6 guesses
    # 1.79 M against 718 k; see benchmarks/NOTES.md)
    may_stop = max_guesses is None and (timed or execution.checkpoint is not None)
    split_size = SPLIT_SIZE if tuning.split_size is None else tuning.split_size
    shared = execution.backend == "threads" and execution.scheduler is None
    budget = MemoryBudget.of(solver.table, limits.memory, workers, shared=shared, alongside=alongside)
    store = None
    if execution.checkpoint is not None:
        from mastermind.engines.exact.checkpoint import Checkpoint

        store = Checkpoint(
            execution.checkpoint,
            {
                **_made_for(solver, objective),
                "max_guesses": max_guesses,
                "problem": _search_key(solver),
            },
        )
    pool = None
    checkpoint_seconds = None
    strategy: StrategyThread | None = None
    started_from: float | None = None
    try:
        began = time.perf_counter()
        pool = make_backend(execution.backend, workers, execution.scheduler)
        pool.warm(str(solver.rules))
        # the rounds' own, and the units' where threads run them; the strategy search's
        # and a memo file's only where this run has them (a Ctrl-C meanwhile waits for them:
        # solve's start-up)
        load_kernels(
            [SEARCH, ROUNDS]
            + ([STRATEGY] if alongside else [])
            + ([MEMO_FILE] if store is not None and pool.shares_memory else [])
        )
        start = time.perf_counter()  # the search's clock: the workers' start-up is timed apart
        if store is not None:
            store.restart_clock()
        startup = None if pool.shares_memory else start - began  # threads share this process
        memo = None
        if pool.shares_memory:
            memo = new_memo(budget.memo_entries, shared=True, first=budget.first_entries(solver.table.n))
        units_memo = None
        if memo is not None and store is not None:  # what the last run's units proved
            units_memo = store.folder / memo_file.UNITS_FILE
            memo_file.load_memo(units_memo, memo, _units_memo_for(solver, objective))
        rounds = RoundSearch(
            solver,
            pool,
            progress=progress,
            checkpoint=store,
            cancel=cancel,
            memo=memo,
            memory=budget.search_bytes,
            round_seconds=tuning.round_seconds,
            split_size=split_size,
            eldest=None if may_stop else workers,
        )
        if alongside:
            strategy = StrategyThread(solver, cancel, budget.strategy_bytes, store, start=tuning.start)
            strategy.start()
        saving = None
        if units_memo is not None:
            saving = _saving_every(units_memo, memo, _units_memo_for(solver, objective), cancel)
        fresh = None if strategy is None else strategy.fresh
        state = rounds.run(solver.cands, r, solver.group, fresh=fresh, on_round=saving)
        # (not after Ctrl-C: scanning a memo of gigabytes would outlast the second a stop
        # has; the units are kept, the memo only saves time)
        if units_memo is not None and not state.proven and cancel.reason != INTERRUPTED:
            # (the pool's threads stopped first: a unit stopped writes nothing, and a slot
            # read while written is skipped as torn)
            pool.close(kill=bool(cancel.flag[0]))
            memo_file.save_memo(units_memo, memo, _units_memo_for(solver, objective))
        if strategy is not None:
            started_from = strategy.started_from
            found, strategy = strategy.finish(), None
            if found is not None and state.offer(*found) and store is not None:
                store.keep_bounds(RootBounds(state.lower, state.upper, state.tree))
    finally:
        if strategy is not None:  # (an error above: the thread is stopped all the same)
            strategy.token.cancel()
        if pool is not None:
            pool.close(kill=bool(cancel.flag[0]))
        if store is not None:
            checkpoint_seconds = store.close()
    counters = rounds.counters
    if state.lower == INF:  # no strategy within the guesses allowed
        return solver.result(None, counters=counters, start=start, checkpoint_seconds=checkpoint_seconds)
    if not state.proven:
        stopped = solver.result(
            state.tree,
            lower=state.lower,
            counters=counters,
            start=start,
            stopped=cancel.reason or INTERRUPTED,
            startup_seconds=startup,
            checkpoint_seconds=checkpoint_seconds,
        )
        if started_from is not None and state.upper == started_from:  # (nothing cheaper found)
            stopped = replace(stopped, found_by=STARTED_FROM)
        return stopped
    result = solver.result(
        state.tree,
        counters=counters,
        start=start,
        startup_seconds=startup,
        checkpoint_seconds=checkpoint_seconds,
    )
    # (threads share one memo, which the proof pass may read: the plain total's alone)
    kept = memo if objective == "total" and execution.keep_memo else None
    return solver.with_memo(solver.checked(result, state.upper), kept)


def _saving_every(path: Path, memo: object, made_for: dict, cancel: CancelToken) -> Callable[[object], None]:
    """What a run does after each round: save the units' memo to ``path`` once
    :data:`memo_file.SAVE_SECONDS` have passed since it last did (between rounds no unit
    runs, so no entry is read half written), so that a run killed, or stopped by Ctrl-C
    (which leaves no time to save), loses at most that much of what its units proved. Not
    once ``cancel`` is cancelled: a stop has a second, and the run saves at its end anyway."""
    last = time.perf_counter()

    def after_round(_state: object) -> None:
        nonlocal last
        if not cancel.cancelled and time.perf_counter() - last >= memo_file.SAVE_SECONDS:
            memo_file.save_memo(path, memo, made_for)
            last = time.perf_counter()

    return after_round


def _units_memo_for(solver: ExactSolver, objective: str) -> dict:
    """What the units' memo file holds entries for: the checkpoint's search, and the memo's
    key format."""
    return {"format": memo_file.FORMAT, **_made_for(solver, objective), "problem": _search_key(solver)}


def _search_key(solver: ExactSolver) -> str:
    from mastermind.engines.exact.units import SearchSpec

    return SearchSpec(
        str(solver.rules),
        solver.pool is Pool.CONSISTENT,
        1,
        0,
        len(solver.cands),
        None if solver.uniform else solver.search_weights,
    ).key


def solve_by_first_guess(
    table: CodeTable,
    problem: Problem | None = None,
    *,
    first_guesses: Sequence[Code] | None = None,
    limits: Limits | None = None,
    execution: Execution | None = None,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
) -> ByFirstGuess:
    """The optimum of ``problem`` for each canonical first guess (or each of
    ``first_guesses``), best first guesses not favoured: every result is exact. First guesses
    that cannot finish within ``problem.max_guesses`` are left out of the results, and listed
    as such (``none_within``). ``execution.jobs`` > 1: one thread per first guess; no other
    backend, and no checkpoint.

    When ``limits.time_limit`` passes or ``cancel`` is cancelled, the first guesses not
    finished are results not proven (FEASIBLE or UNKNOWN), with their lower bounds.

    The answer is a sequence of the results, with the table of every first guess and the
    best ones (see :class:`~mastermind.engines.exact.by_first_guess.ByFirstGuess`).

    >>> import mastermind as mm
    >>> table = mm.CodeTable(mm.Rules(3, 3))
    >>> found = mm.solve_by_first_guess(table)
    >>> [(table.rules.code_text(r.first_guess), r.total) for r in found]
    [('111', 86), ('112', 73), ('123', 80)]
    >>> [table.rules.code_text(g) for g in found.best_first_guesses], found.proven
    (['112'], True)
    """
    problem = Problem() if problem is None else problem
    limits = Limits() if limits is None else limits
    execution = Execution() if execution is None else execution
    if problem.first_guess is not None:
        raise MastermindError("give the first guesses to compare as first_guesses, not problem.first_guess")
    if execution.distributed:
        raise MastermindError(
            "the optimum by first guess runs on threads: no backend, scheduler or checkpoint"
        )
    began = time.perf_counter()
    cancel = CancelToken() if cancel is None else cancel
    with cancel.starting():  # (a Ctrl-C meanwhile stops the searches as they begin: see solve)
        return _by_first_guess(table, problem, first_guesses, limits, execution, cancel, progress, began)


def _by_first_guess(
    table: CodeTable,
    problem: Problem,
    first_guesses: Sequence[Code] | None,
    limits: Limits,
    execution: Execution,
    cancel: CancelToken,
    progress: Progress | None,
    began: float,
) -> ByFirstGuess:
    from mastermind.engines.exact.backends import worker_count

    solver = ExactSolver(table, problem)
    firsts = solver.first_guesses() if first_guesses is None else list(first_guesses)
    threads = 1 if execution.jobs == 1 or len(firsts) <= 1 else worker_count(execution.jobs)
    # the threads share one process: each one's searches get a share of the memory
    solver.memory = MemoryBudget.of(table, limits.memory, threads - 1).search_bytes // threads
    for guess in firsts:
        solver.check_first_guess(guess)
    if progress is not None:
        progress.start(len(firsts), "optimal: first guesses")

    def one(guess: Code, token: CancelToken) -> Result[SearchDetails] | None:
        result = solver.fork().run(token, first_guess=guess)
        if progress is not None:
            progress.advance(1)
        return None if result.status is Status.NO_STRATEGY else result

    with cancel.child(limits.time_limit) as token:
        jobs = execution.jobs
        if jobs is not None and jobs != 1 and len(firsts) > 1:
            # (threads of the standard library: joblib's leave semaphores registered, which
            # the resource tracker warns of when a results row's process is ended at its limit)
            from concurrent.futures import ThreadPoolExecutor

            workers = worker_count(jobs)
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mastermind-first") as pool:
                results = list(pool.map(lambda g: one(g, token), firsts))
        else:
            results = [one(g, token) for g in firsts]
    return ByFirstGuess(
        table.rules,
        problem,
        tuple(r for r in results if r is not None),
        tuple(g for g, r in zip(firsts, results) if r is None),
        time.perf_counter() - began,
    )
