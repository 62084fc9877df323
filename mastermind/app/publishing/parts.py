"""The work of a row, run in a child process (module-level functions: the child imports them).

Each part returns a plain dict with its ``seconds`` and ``cpu_seconds``; the keys are those of
the one vocabulary (``total_lower_bound``, ``total_upper_bound``, ``worst_upper_bound``, ...).
"""

from __future__ import annotations

import contextlib
import time

from mastermind.core.cancel import INTERRUPTED, CancelToken
from mastermind.core.errors import MastermindError, naming
from mastermind.core.game import DEFAULT_MEMORY_LIMIT, CodeTable, Rules


def proof_part(game: str, total: int, tree: str, path: str, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> dict:
    """The proof file of a proven row written to ``path`` as ``optimal --proof`` writes it
    (:func:`mastermind.engines.exact.write_proof`: streamed fact by fact, none held; the
    same bytes): the optimal ``total`` and the optimal worst case the pass proves, the
    row's tree (JSON text) as the strategy. Answers the proof's ``total``, ``worst`` and
    count of ``facts``."""
    from mastermind.core.fileio import streamed_write
    from mastermind.core.formats import read_tree
    from mastermind.engines.exact import write_proof

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules, memory_limit=memory_limit)
    strategy, _ = read_tree(tree, "json", rules)
    with streamed_write(path) as put:
        made = write_proof(put, table, strategy.root, total)
    return {**made, "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def optimal_part(
    game: str,
    part: str,
    jobs: int,
    solve_options: dict,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    time_limit: float | None = None,
    depth: int | None = None,
) -> dict:
    """One piece of an optimal row: ``total`` (optimum after every canonical first guess),
    ``tie`` (an optimal tree with the smallest worst case, then fewest secrets at it),
    ``depth`` (the optimal worst case alone: ``worst``, None if stopped first) or ``worst``
    (the optimal worst case and the best total within it; given ``depth``, the optimal worst
    case already found, only that total). ``depth`` and ``worst`` stop after ``time_limit``
    seconds; ``worst`` stopped keeps its worst case, once proven, with ``total`` None."""
    from mastermind.core.formats import write_tree
    from mastermind.engines.exact import (
        Execution,
        Limits,
        Problem,
        solve,
    )
    from mastermind.engines.result import Status

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules, memory_limit=memory_limit)
    execution = Execution(jobs=jobs)
    memory = Limits(memory=memory_limit)  # (every search of the row within --memory-limit)

    def timed(data: dict) -> dict:
        return {**data, "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}

    if part == "total":
        return timed(_total_part(table, solve_options, memory, execution))
    if part == "depth":
        return timed(_least_depth(table, solve_options, memory_limit, time_limit))
    if part not in ("tie", "worst"):
        raise MastermindError(f"unknown part {part!r}")
    if part == "tie":
        r = solve(
            table,
            Problem(objective="total", tie_break=True, **solve_options),
            limits=memory,
            execution=execution,
        )
    else:
        problem = (
            Problem(objective="worst", **solve_options)
            if depth is None
            else Problem(objective="total", max_guesses=depth, **solve_options)
        )
        r = solve(
            table, problem, execution=execution, limits=Limits(time_limit=time_limit, memory=memory_limit)
        )
        if r.status is not Status.OPTIMAL:  # stopped: the worst case alone, once proven
            if depth is None:
                low = r.details.worst_lower_bound if r.details is not None else None
                depth = low if r.tree is not None and r.worst == low else None
            return timed({"total": None, "worst": depth})
    return timed(
        {
            "total": int(r.total),
            "worst": int(r.worst),
            "histogram": list(r.histogram),
            "tree": write_tree(r.tree, "json", r.stats),
        }
    )


def _least_depth(table: CodeTable, solve_options: dict, memory_limit: int, time_limit: float | None) -> dict:
    """The optimal worst case alone (``worst``: None if stopped first) and its tree, replayed:
    the row's tree of the optimal worst case when the total's search within that depth does
    not finish (a proven 6x7n lost its tree of worst case 7)."""
    from mastermind.core.formats import verify_text, write_tree
    from mastermind.core.tree import StrategyTree
    from mastermind.engines.exact import ExactSolver, MemoryBudget, Problem

    solver = ExactSolver(table, Problem(**solve_options))
    search_bytes = MemoryBudget.of(table, memory_limit).search_bytes
    with CancelToken().child(time_limit) as token:
        least = solver.least_depth(token, memory=search_bytes)
    if least.tree is None:
        return {"worst": None}
    tree = StrategyTree(table.rules, least.tree, name="least depth")
    text = write_tree(tree, "json", tree.stats(table))
    replay = verify_text(text, "json", memory_limit=memory_limit)
    if not replay.valid or replay.stats is None or replay.stats.worst != least.depth:
        raise AssertionError(f"{table.rules}: the depth search's tree does not replay to {least.depth}")
    return {"worst": least.depth, "tree": text}


def _total_part(table: CodeTable, solve_options: dict, memory, execution) -> dict:
    """The optimum after every canonical first guess: the best total, its tree, and every
    first guess's total and worst case."""
    from mastermind.core.formats import write_tree
    from mastermind.engines.exact import Problem, solve_by_first_guess

    rules = table.rules
    results = solve_by_first_guess(
        table, Problem(objective="total", **solve_options), limits=memory, execution=execution
    )
    best = min(r.total for r in results)
    firsts = [
        {"first_guess": rules.code_text(r.first_guess), "total": int(r.total), "worst": int(r.worst)}
        for r in results
    ]
    chosen = next(r for r in results if r.total == best)
    return {
        "total": int(best),
        "worst": int(chosen.worst),
        "histogram": list(chosen.histogram),
        "best_first_guesses": [f["first_guess"] for f in firsts if f["total"] == best],
        "by_first_guess": firsts,
        "tree": write_tree(chosen.tree, "json", chosen.stats),
    }


def first_guesses_part(
    game: str,
    jobs: int,
    known: str,
    time_limit: float | None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
) -> dict:
    """The exact total and worst case of every canonical first guess but ``known`` (the one
    a proof already costed), stopped after ``time_limit`` seconds: ``by_first_guess`` holds
    those finished, ``complete`` says whether that is all of them."""
    from mastermind.engines.exact import ExactSolver, Execution, Limits, Problem, solve_by_first_guess

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules, memory_limit=memory_limit)
    skip = rules.parse_code(known)
    others = [g for g in ExactSolver(table).first_guesses() if g != skip]
    results = solve_by_first_guess(
        table,
        Problem(),
        first_guesses=others,
        limits=Limits(time_limit=time_limit, memory=memory_limit),
        execution=Execution(jobs=jobs),
    )
    done = [r for r in results if r.proven]
    return {
        "by_first_guess": [
            {"first_guess": rules.code_text(r.first_guess), "total": int(r.total), "worst": int(r.worst)}
            for r in done
        ],
        "complete": len(done) == len(others),
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
    }


def frontier_part(
    game: str,
    jobs: int,
    checkpoint: str,
    time_limit: float | None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    cancel: CancelToken | None = None,
) -> dict:
    """The checkpointed total optimum of a frontier game, stopped after ``time_limit`` seconds:
    the proven bounds so far (``proven`` False), or the optimum with its tree. A run started
    again with the same ``checkpoint`` folder reuses every unit the earlier runs finished.
    Stopped through ``cancel`` (Ctrl-C), it keeps its checkpoint and answers at once with its
    bounds (``stopped``), without a tree: replaying one takes seconds."""
    from mastermind.core.formats import verify_text, write_tree
    from mastermind.engines.exact import CheckpointFileError, Execution, Limits, solve

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules, memory_limit=memory_limit)
    with naming("--checkpoint", CheckpointFileError):
        r = solve(
            table,
            limits=Limits(time_limit=time_limit, memory=memory_limit),  # (--memory-limit bounds the memo too)
            execution=Execution(jobs=jobs, checkpoint=checkpoint, units=True),
            cancel=cancel,
        )
    if r.stopped == INTERRUPTED:
        return {
            "proven": bool(r.proven),
            "stopped": r.stopped,
            "total_lower_bound": None if r.lower_bound is None else int(r.lower_bound),
            "total_upper_bound": None if r.upper_bound is None else int(r.upper_bound),
        }
    data: dict = {
        "proven": bool(r.proven),
        "total_lower_bound": None if r.lower_bound is None else int(r.lower_bound),
        "units": {"run": r.counters.units - r.counters.reused, "reused": r.counters.reused},
        # every run's search (None: not timed), to the millisecond as every time in the files
        "checkpoint_seconds": None
        if r.details.checkpoint_seconds is None
        else round(r.details.checkpoint_seconds, 3),
    }
    if r.tree is not None:  # the best strategy found so far (the optimum once proven)
        text = write_tree(r.tree, "json", r.stats)
        # the published upper bound is the total of the tree as written, replayed on every secret
        replay = verify_text(text, "json", memory_limit=memory_limit)
        if not replay.valid or replay.stats is None or replay.stats.total != r.total:
            raise AssertionError(f"{game}: the search's tree does not replay to {r.total}: {replay.errors}")
        data.update(
            total_upper_bound=int(replay.stats.total),
            worst_upper_bound=int(replay.stats.worst),
            histogram=list(replay.stats.histogram),
            first_guess=rules.code_text(r.first_guess),
            tree=text,
            replayed=True,
        )
    return {**data, "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def bounds_part(game: str, kind: str, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> dict:
    """Quick proven bounds of a game out of reach: ``lower`` (lookahead lower bounds of the
    total and the worst case) or a heuristic's name (its strategy's total and worst case,
    every secret played: a strategy that exists, so an upper bound)."""
    from mastermind.engines.models import (
        MAX_LOOKAHEAD_CODES,
        counting_worst_bound,
        lookahead_total_bound,
        lookahead_worst_bound,
    )
    from mastermind.engines.registry import strategy_tree

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules, memory_limit=memory_limit)
    if kind == "lower":
        levels = 2 if table.n <= MAX_LOOKAHEAD_CODES else 1
        data = {
            "total_lower_bound": int(lookahead_total_bound(table, levels)),
            "lookahead_levels": levels,
            "worst_lower_bound": int(
                max(counting_worst_bound(rules, table.n), lookahead_worst_bound(table, levels))
            ),
        }
    else:
        stats = strategy_tree(kind, table).stats(table)
        data = {
            "total_upper_bound": int(stats.total),
            "worst_upper_bound": int(stats.worst),
            "heuristic": kind,
        }
    return {**data, "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def depth_part(
    game: str,
    time_limit: float | None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    checkpoint: str | None = None,
    proof: str | None = None,
    cancel: CancelToken | None = None,
) -> dict:
    """The optimal worst case of an open game, as far as ``time_limit`` seconds allow: the
    search that only asks whether a strategy of each depth exists. ``worst_lower_bound``:
    the least depth not refuted; ``worst_upper_bound``: the depth of the shallowest strategy
    found, given as ``worst_tree`` (JSON, replayed on every secret before it is given); once
    the two meet, ``optimal_worst`` too.
    ``checkpoint``: the game's checkpoint folder, where that search keeps its memo between
    runs (so that each run goes on where the last one stopped); ``depth_search_seconds``:
    how long every run on it searched, this one included. Stopped through ``cancel``
    (Ctrl-C), it keeps its memo file and answers with the depth proven (``stopped``).
    ``proof``: where to write, once the optimal worst case is proven and within the same
    time, the proof of that worst case alone (its total not claimed; ``worst_proof``: its
    ``worst`` and count of ``facts``, None when nothing was written: the time left was less
    than the depth search had taken, or ran out first)."""
    from mastermind.core.formats import verify_text, write_tree
    from mastermind.core.tree import StrategyTree
    from mastermind.engines.exact import (
        DEPTH_FILE,
        CheckpointFileError,
        ExactSolver,
        MemoryBudget,
        hold_folder,
    )

    written: dict | None = None

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules, memory_limit=memory_limit)
    memory = MemoryBudget.of(table, memory_limit).search_bytes
    with contextlib.ExitStack() as held, (cancel or CancelToken()).child(time_limit) as token:
        store = None
        with naming("--checkpoint", CheckpointFileError):
            if checkpoint is not None:  # (one run at a time on the folder)
                store = held.enter_context(hold_folder(checkpoint)) / DEPTH_FILE
            least = ExactSolver(table).least_depth(token, memory=memory, store=store)
        # the pass redoes the depth search's work at least (it is handed none of its memo):
        # tried only where that took, over every run, no more than the time left (5x8's
        # took hours: its pass would only spend the row's share and stop)
        spent = time.perf_counter() - start if least.searched_seconds is None else least.searched_seconds
        left = token.remaining()
        if proof is not None and least.tree is not None and least.shallowest is not None:
            if left is None or spent <= left:
                written = _worst_proof(table, least.shallowest, proof, token, memory_limit)
    data: dict = {"worst_lower_bound": int(least.depth)}
    if least.searched_seconds is not None:  # (every run on the folder's memo file)
        data["depth_search_seconds"] = round(least.searched_seconds, 3)
    if cancel is not None and cancel.reason == INTERRUPTED:
        return {**data, "stopped": INTERRUPTED}
    if least.shallowest is not None and least.upper is not None:
        tree = StrategyTree(rules, least.shallowest, name="shallowest found")
        text = write_tree(tree, "json", tree.stats(table))
        replay = verify_text(text, "json", memory_limit=memory_limit)
        if not replay.valid or replay.stats is None or replay.stats.worst != least.upper:
            raise AssertionError(f"{game}: the depth search's tree does not replay to {least.upper}")
        data.update(worst_upper_bound=int(least.upper), worst_tree=text)
        if least.tree is not None:
            data["optimal_worst"] = int(least.depth)
            if proof is not None:
                data["worst_proof"] = written
    return {**data, "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def _worst_proof(
    table: CodeTable, tree: object, path: str, token: CancelToken, memory_limit: int
) -> dict | None:
    """The proof of the optimal worst case of ``tree`` alone, streamed to ``path`` as
    ``optimal --proof`` writes one (``facts``: its count); None, and nothing written, when
    ``token`` stopped it first."""
    from mastermind.core.cancel import Stopped
    from mastermind.core.fileio import streamed_write
    from mastermind.engines.exact import MemoryBudget, write_proof

    room = MemoryBudget.of(table, memory_limit).proof_bytes
    try:
        with streamed_write(path) as put:
            made = write_proof(put, table, tree, None, memory=room, token=token)
    except Stopped:
        return None
    return {"facts": made["facts"], "worst": made["worst"]}


def game_value_part(
    game: str,
    jobs: int,
    time_limit: float | None = None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    proof: str | None = None,
) -> dict:
    """The game value of ``game`` (the document of ``mastermind game-value --json``), or
    (stopped after ``time_limit`` seconds) its bounds. ``proof``: where to write the proof
    of a value proven, as ``game-value --proof`` writes it (its ``total`` and ``facts`` in
    ``proof`` of the answer; None when not written)."""
    from mastermind.core.fileio import streamed_write
    from mastermind.engines.gamevalue import game_value, game_value_document, write_game_value_proof

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules, memory_limit=memory_limit)
    result = game_value(table, jobs=jobs, time_limit=time_limit)
    data = game_value_document(result)
    data["seconds"] = time.perf_counter() - start  # (the value's: the row's time, as ever)
    data["cpu_seconds"] = time.process_time() - cpu
    data["proof"] = None
    if proof is not None and result.proven:
        with streamed_write(proof) as put:
            data["proof"] = write_game_value_proof(put, table, result)
    data["breaker_first_guesses"] = sorted(
        {rules.code_text(b.tree.root.guess) for b in result.details.breaker}
    )
    return data


def _millis(seconds: float | None) -> float | None:
    """Seconds to the millisecond (None stays None)."""
    return None if seconds is None else round(seconds, 3)
