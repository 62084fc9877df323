"""CP-SAT model of a whole strategy tree, for tiny games: an independent check of the exact search.

The tree is laid out in advance: one node per sequence of non-winning answers, up to
``max_depth`` guesses. Booleans ``x[v, g]`` ("node v guesses g") and ``y[s, v]`` ("secret s
reaches node v"). Every secret reaches the root; a secret at a node is either the node's guess
(solved there) or moves to the child of the answer it gives to that guess; at the deepest
level every secret must be the guess. The objective, the number of (secret, node) visits, is
the total number of guesses. With ``objective="feasible"`` the model only asks whether a
strategy of that depth exists, so an infeasible answer proves a worst-case lower bound.

>>> from mastermind.engines.models.cpsat_tree import depth_feasible, solve_tree
>>> from mastermind.core.game import CodeTable, Rules
>>> t = CodeTable(Rules(2, 2))
>>> r = solve_tree(t, max_depth=3, time_limit=10, workers=1)
>>> r.details.status, r.value, r.proven, r.worst
('OPTIMAL', 8, True, 3)
>>> depth_feasible(t, 2, time_limit=10, workers=1).details.status
'INFEASIBLE'
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

# (loaded with the module, as the command starts: imported inside the work, its half second,
# longer on a loaded machine, delayed the work's first look at a Ctrl-C past the watchdog's
# grace, which then ended the command with nothing printed)
from ortools.sat.python import cp_model

from mastermind.core.cancel import TIME_LIMIT, CancelToken
from mastermind.core.errors import MastermindError, TableTooLarge
from mastermind.core.game import CodeTable, check_max_guesses, format_bytes, format_count
from mastermind.core.symmetry import canonical_first_guesses
from mastermind.core.tree import Node, StrategyTree
from mastermind.engines.models.result import (
    ModelRun,
    make_solver,
    model_result,
    model_token,
    run_solver,
    stop_seen,
    stopped_result,
)
from mastermind.engines.result import Result

MAX_MODEL_SIZE = 3_000_000  # (node, secret, guess) triples; beyond this the model is hopeless


BYTES_PER_TERM = 250  # measured: peak memory per term building p3c3 depth 4 (206), p2c4 depth 6 (292)


@dataclass(frozen=True)
class ModelSize:
    """The size of the strategy-tree model, counted before building it (it grows as
    answers ** depth, so a large depth must be refused from its count, not its layout).

    >>> from mastermind.engines.models.cpsat_tree import ModelSize
    >>> size = ModelSize.estimate(answers=13, depth=100, secrets=1296, guesses=1296)
    >>> size.describe()
    'about 10^110 nodes, about 10^114 variables, about 10^115 constraints, about 10^107 TiB of memory'
    >>> ModelSize.estimate(answers=8, depth=4, secrets=27, guesses=27).describe()
    '585 nodes, 47970 variables, 175500 constraints, 101.7 MiB of memory'
    """

    nodes: int
    variables: int
    constraints: int
    terms: int

    @classmethod
    def estimate(cls, answers: int, depth: int, secrets: int, guesses: int) -> ModelSize:
        nodes = depth if answers == 1 else (answers**depth - 1) // (answers - 1)
        return cls(
            nodes=nodes,
            variables=nodes * (guesses + 2 * secrets + 1),
            constraints=nodes * (3 + secrets * (3 + answers)),
            terms=nodes * secrets * guesses,
        )

    @property
    def bytes(self) -> int:
        return self.terms * BYTES_PER_TERM

    def describe(self) -> str:
        return (
            f"{format_count(self.nodes)} nodes, {format_count(self.variables)} variables, "
            f"{format_count(self.constraints)} constraints, {format_bytes(self.bytes)} of memory"
        )


@dataclass(frozen=True)
class _Layout:
    """Nodes of the full answer tree: parent, answer from the parent, depth (root: depth 1)."""

    parent: list[int]
    depth: list[int]
    children: list[dict[int, int]]


def _layout(answers: list[int], max_depth: int) -> _Layout:
    parent, depth = [-1], [1]
    children: list[dict[int, int]] = [{}]
    frontier = [0]
    for d in range(2, max_depth + 1):
        nxt = []
        for v in frontier:
            for a in answers:
                parent.append(v)
                depth.append(d)
                children.append({})
                children[v][a] = len(parent) - 1
                nxt.append(len(parent) - 1)
        frontier = nxt
    return _Layout(parent, depth, children)


def model_size(
    table: CodeTable, max_depth: int, answers: int | None = None, secrets: int | None = None
) -> ModelSize:
    """The model's size (``answers``: the answers that may occur, default every one but the
    win; ``secrets``: default every code); counted, not built."""
    if answers is None:
        answers = len(table.rules.answers) - 1
    return ModelSize.estimate(answers, max_depth, table.n if secrets is None else secrets, table.n)


def deepest_model(table: CodeTable, up_to: int) -> int:
    """The largest depth, at most ``up_to``, whose model (every secret, every answer) is
    within reach; 0 if none is. (The size grows with the depth: the first too large ends it.)"""
    depth = 0
    while depth < up_to and within_reach(table, model_size(table, depth + 1)):
        depth += 1
    return depth


def within_reach(table: CodeTable, size: ModelSize) -> bool:
    """Whether a model of ``size`` can be built: at most :data:`MAX_MODEL_SIZE` terms, and
    its memory within the table's limit (``--memory-limit``)."""
    return size.terms <= MAX_MODEL_SIZE and size.bytes <= table.memory_limit


def check_model_size(
    table: CodeTable,
    max_depth: int,
    answers: int | None = None,
    secrets: int | None = None,
    *,
    advice: str = "use a smaller game or depth",
) -> ModelSize:
    """The model's size, or a one-line refusal with the estimate (and ``advice``) when it is
    out of reach.

    Counted, not built: the layout alone grows as ``answers ** depth``.
    """
    rules = table.rules
    check_max_guesses(rules, max_depth)  # (more than the codes: the count would not end)
    size = model_size(table, max_depth, answers, secrets)
    if size.terms > MAX_MODEL_SIZE:
        raise MastermindError(
            f"the strategy-tree model of {rules} with depth {max_depth} is out of reach: "
            f"{size.describe()} (limit {MAX_MODEL_SIZE} node x secret x guess terms); {advice}"
        )
    if size.bytes > table.memory_limit:  # (refused before the model is built)
        limit = format_bytes(table.memory_limit)
        raise TableTooLarge(
            f"the strategy-tree model of {rules} with depth {max_depth} needs about "
            f"{format_bytes(size.bytes)}, above the memory limit of {limit}; {advice}"
        )
    return size


def solve_tree(
    table: CodeTable,
    max_depth: int,
    *,
    objective: str = "total",
    candidates: np.ndarray | None = None,
    time_limit: float | None = None,
    workers: int = 1,
    lower_bound: int | None = None,
    cancel: CancelToken | None = None,
    seed: int = 0,
) -> Result[ModelRun]:
    """Best strategy tree of depth at most ``max_depth`` (``objective="total"``) or any such
    tree (``objective="feasible"``). ``value``: its total guesses; ``tree``: the strategy.

    ``lower_bound`` (for example a lookahead bound) is added as a bound on the objective; it
    must be a proven bound, or the model may wrongly become infeasible. ``cancel``: a token
    that stops the solver as its time limit does (the result then says why it stopped).
    ``time_limit``: seconds from now, the model's building counted in (None: ``cancel``'s
    deadline alone, if any), kept as the deadline of a child of ``cancel``; CP-SAT's own
    limit is the time that token has left.
    """
    if objective not in ("total", "feasible"):
        raise MastermindError(f"objective must be 'total' or 'feasible', got {objective!r}")
    if table.scores is None:
        raise MastermindError("the strategy-tree model needs the full score table")
    if max_depth < 1:
        raise MastermindError(f"max depth must be at least 1, got {max_depth}")
    rules = table.rules
    win = rules.win_index
    secrets = table.all_codes if candidates is None else np.asarray(candidates)
    secrets = np.asarray(secrets, dtype=np.int64)
    n_s, n_g = len(secrets), table.n
    sub = table.scores[:, secrets]  # sub[g, i]: answer of guess g for secret secrets[i]
    answers = sorted(int(a) for a in np.unique(sub) if a != win)
    check_model_size(table, max_depth, len(answers), n_s)
    layout = _layout(answers, max_depth)
    n_nodes = len(layout.parent)
    start = time.perf_counter()
    # made before the model is built, its work marked as running from the start (see
    # solve_static: a Ctrl-C before the first look at the token printed nothing)
    with model_token(cancel, time_limit, workers) as token, token.running():
        if objective == "total" and lower_bound is None:
            lower_bound = n_s  # every secret takes a guess at least: a bound to report if stopped early

        def stopped_early() -> Result[ModelRun]:
            return stopped_result(table, objective, lower_bound, start, why=token.reason or TIME_LIMIT)

        model = cp_model.CpModel()
        x: list[list[Any]] = []
        y: list[list[Any]] = []
        for rows, count, width, name in ((x, n_nodes, n_g, "x{}_{}"), (y, n_s, n_nodes, "y{}_{}")):
            for r in range(count):  # (tens of thousands of variables: a Ctrl-C seen between rows)
                if stop_seen(token):
                    return stopped_early()
                rows.append([model.new_bool_var(name.format(r, c)) for c in range(width)])
        first = set(canonical_first_guesses(rules)) if n_s == table.n else None
        for v in range(n_nodes):
            if stop_seen(token):
                return stopped_early()
            model.add_exactly_one(x[v])
            # an unreached node guesses code 0: removes symmetric copies of empty subtrees
            model.add_implication(~x[v][0], _reached(model, y, v, n_s))
        if first is not None:
            for g in range(n_g):
                if g not in first:
                    model.add(x[0][g] == 0)
        for i in range(n_s):
            if stop_seen(token):
                return stopped_early()
            s = int(secrets[i])
            model.add(y[i][0] == 1)
            by_answer: dict[int, list[int]] = {}
            for g in range(n_g):
                by_answer.setdefault(int(sub[g, i]), []).append(g)
            for v in range(n_nodes):
                solved = model.new_bool_var(f"w{i}_{v}")
                model.add_implication(solved, x[v][s])
                model.add_implication(solved, y[i][v])
                kids = layout.children[v]
                model.add(y[i][v] == solved + sum(y[i][c] for c in kids.values()))
                for a, c in kids.items():
                    gs = by_answer.get(a, [])
                    if gs:
                        model.add(y[i][c] <= sum(x[v][g] for g in gs))
                    else:
                        model.add(y[i][c] == 0)
        visits = sum(y[i][v] for i in range(n_s) for v in range(n_nodes))
        if lower_bound is not None:
            model.add(visits >= int(lower_bound))
        if objective == "total":
            model.minimize(visits)
        if stop_seen(token):
            return stopped_early()
        solver = make_solver(token, workers, seed)
        status, stopped = run_solver(solver, model, token)
        seconds = time.perf_counter() - start
        name = solver.status_name(status)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            value = int(sum(solver.value(y[i][v]) for i in range(n_s) for v in range(n_nodes)))
            tree = _extract(table, solver, x, y, layout, secrets)
            bound = _bound(solver, lower_bound) if objective == "total" else None
            proven = status == cp_model.OPTIMAL
            why = None if proven else stopped or TIME_LIMIT
            return model_result(
                table,
                objective,
                name,
                value=value,
                bound=bound,
                proven=proven,
                seconds=seconds,
                tree=tree,
                secrets=secrets,
                stopped=why,
            )
        bound = None
        if objective == "total" and status == cp_model.UNKNOWN:
            bound = _bound(solver, lower_bound)
        proven = status == cp_model.INFEASIBLE
        why = None if proven else stopped or TIME_LIMIT
        return model_result(
            table, objective, name, value=None, bound=bound, proven=proven, seconds=seconds, stopped=why
        )


def _bound(solver: Any, lower_bound: int | None) -> int:
    """The solver's proven bound on the total, or the given one if that is higher (a search
    stopped before its presolve ended reports 0)."""
    bound = int(round(solver.best_objective_bound))
    return bound if lower_bound is None else max(bound, int(lower_bound))


def _reached(model: Any, y: list[list[Any]], v: int, n_s: int) -> Any:
    """A boolean equal to "some secret reaches node v"."""
    r = model.new_bool_var(f"r{v}")
    lits = [y[i][v] for i in range(n_s)]
    model.add_max_equality(r, lits)
    return r


def _extract(
    table: CodeTable,
    solver: Any,
    x: list[list[Any]],
    y: list[list[Any]],
    layout: _Layout,
    secrets: np.ndarray,
) -> StrategyTree:
    def guess_at(v: int) -> int:
        return next(g for g, var in enumerate(x[v]) if solver.boolean_value(var))

    def reach(v: int) -> int:
        return sum(1 for i in range(len(secrets)) if solver.boolean_value(y[i][v]))

    def build(v: int) -> Node:
        node = Node(guess_at(v), reach(v))
        for a, c in layout.children[v].items():
            if reach(c):
                node.children[a] = build(c)
        return node

    return StrategyTree(table.rules, build(0), "cp-sat")


def depth_feasible(
    table: CodeTable,
    depth: int,
    *,
    candidates: np.ndarray | None = None,
    time_limit: float | None = None,
    workers: int = 1,
    cancel: CancelToken | None = None,
) -> Result[ModelRun]:
    """Does a strategy exist that solves every secret within ``depth`` guesses?

    ``INFEASIBLE`` (proven) means the optimal worst case is at least ``depth + 1``.
    ``time_limit`` and ``cancel``: as :func:`solve_tree` takes them.
    """
    return solve_tree(
        table,
        depth,
        objective="feasible",
        candidates=candidates,
        time_limit=time_limit,
        workers=workers,
        cancel=cancel,
    )


def worst_case_lower_bound(
    table: CodeTable,
    start: int,
    *,
    time_limit: float | None = None,
    workers: int = 1,
    max_depth: int | None = None,
    cancel: CancelToken | None = None,
) -> tuple[int, bool]:
    """Raise a proven worst-case lower bound ``start`` by refuting depths with CP-SAT.

    Returns ``(bound, exact)``: ``exact`` when a strategy of depth ``bound`` was also found.
    Stops at the first depth the solver cannot settle within ``time_limit`` seconds (shared
    by the depths: the deadline of a child of ``cancel``; None: ``cancel``'s alone), or once
    ``cancel`` is cancelled.
    """
    depth = start
    with (CancelToken() if cancel is None else cancel).child(time_limit) as token:
        while max_depth is None or depth <= max_depth:
            if stop_seen(token):
                return depth, False
            try:
                r = depth_feasible(table, depth, workers=workers, cancel=token)
            except MastermindError:
                return depth, False
            if r.details is not None and r.details.infeasible:
                depth += 1
                continue
            return depth, r.value is not None
    return depth, False
