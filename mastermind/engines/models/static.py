"""Static (non-adaptive) Mastermind as a CP-SAT set-cover model.

All guesses are fixed in advance; afterwards the answers must tell every secret apart, and
one final guess (not counted here) names it. Minimise the number of chosen guesses such that
every pair of secrets gets different answers from at least one chosen guess. The answers are
the game's variant's (black-peg Mastermind, ``p4c6b``: the number of black pegs alone).

Symmetry: mapping a chosen guess to the smallest code of its orbit (a colour and position
permutation applied to the whole set) keeps the set separating, so some optimal set contains
a canonical first guess; the model asks for one.

>>> from mastermind.engines.models.static import separates, solve_static
>>> from mastermind.core.game import CodeTable, Rules
>>> r = solve_static(CodeTable(Rules(2, 3)), time_limit=10, workers=1)
>>> r.details.status, r.value, r.proven, separates(CodeTable(Rules(2, 3)), r.details.guesses)
('OPTIMAL', 2, True, True)
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

# (loaded with the module, as the command starts: imported inside the work, its half second,
# longer on a loaded machine, delayed the work's first look at a Ctrl-C past the watchdog's
# grace, which then ended the command with nothing printed)
from ortools.sat.python import cp_model

from mastermind.core.cancel import TIME_LIMIT, CancelToken
from mastermind.core.errors import MastermindError, TableTooLarge
from mastermind.core.game import Code, CodeTable, format_bytes
from mastermind.core.symmetry import canonical_first_guesses
from mastermind.engines.models.result import (
    ModelRun,
    make_solver,
    model_result,
    model_token,
    run_of,
    run_solver,
    stop_seen,
    stopped_result,
)
from mastermind.engines.result import CPSAT, Result

MAX_PAIRS_TERMS = 20_000_000
BYTES_PER_PAIRS_TERM = 80
"""Peak memory per (pair, guess) term of the model: 67 bytes measured on p4c4 (8.4 M terms,
804 MB peak against 250 MB for p3c4's 0.13 M), rounded up."""


def answer_matrix(table: CodeTable) -> np.ndarray:
    """``m[g, s]``: what guess g tells about secret s (the answer index of the game's variant)."""
    if table.scores is None:
        raise MastermindError("the static model needs the full score table")
    return table.scores


def separates(table: CodeTable, guesses: list[Code]) -> bool:
    """True when the answers to ``guesses`` differ for every pair of distinct secrets."""
    m = answer_matrix(table)[list(guesses)]
    return len({tuple(col) for col in m.T.tolist()}) == table.n


def counting_static_bound(table: CodeTable) -> int:
    """``k ** m >= N``: m guesses with k possible answers each tell at most k ** m secrets apart."""
    k = len(np.unique(answer_matrix(table)))
    if table.n <= 1:
        return 0
    return max(1, math.ceil(math.log(table.n) / math.log(k) - 1e-12)) if k > 1 else table.n


def solve_static(
    table: CodeTable,
    *,
    time_limit: float | None = None,
    workers: int = 1,
    cancel: CancelToken | None = None,
    seed: int = 0,
) -> Result[ModelRun]:
    """Fewest guesses fixed in advance whose answers identify every secret.

    ``value``: the best number found, ``lower_bound``: proven, ``details.guesses``: the
    guesses (the same for the same ``seed`` and ``workers``). ``cancel``: a token that stops
    the solver as its time limit does. ``time_limit``: seconds from now, the model's
    building counted in (None: ``cancel``'s deadline alone, if any), kept as the deadline of
    a child of ``cancel``; CP-SAT's own limit is the time that token has left.
    """
    n = table.n
    terms = n * (n - 1) // 2 * n
    if terms > MAX_PAIRS_TERMS:
        raise MastermindError(
            f"static model for {table.rules} has {n} codes: {n * (n - 1) // 2} pairs x {n} "
            f"guesses is above {MAX_PAIRS_TERMS} terms; use a smaller game"
        )
    if terms * BYTES_PER_PAIRS_TERM > table.memory_limit:  # (refused before the model is built)
        raise TableTooLarge(
            f"the static model of {table.rules} needs about {format_bytes(terms * BYTES_PER_PAIRS_TERM)}, "
            f"above the memory limit of {format_bytes(table.memory_limit)}"
        )
    start = time.perf_counter()
    # made before the model is built, and the work under it marked as running from the
    # start: a Ctrl-C then waits for it to stop and report, where one before the first
    # look at the token (the answer matrix, on a loaded machine) was unwound with nothing
    with model_token(cancel, time_limit, workers) as token, token.running():
        return _solve_static(table, answer_matrix(table), token, workers, seed, start)


def _solve_static(
    table: CodeTable, m: np.ndarray, token: CancelToken, workers: int, seed: int, start: float
) -> Result[ModelRun]:
    """:func:`solve_static` under ``token``, which holds its deadline."""
    n = table.n
    least = counting_static_bound(table)
    model = cp_model.CpModel()
    u = [model.new_bool_var(f"u{g}") for g in range(n)]
    # the build (seconds on p4c4) is work that stops by itself: Ctrl-C, seen between two
    # secrets' rows, reports the counting bound at once (the command's watchdog waited for
    # its unwinding, and ended it with nothing on a loaded machine)
    with token.running():
        for s in range(n):
            if stop_seen(token):
                return stopped_result(table, "static", least, start, why=token.reason or TIME_LIMIT)
            # differs[g, t]: guess g tells s and t apart
            differs = m[:, s][:, None] != m[:, s + 1 :]
            for j in range(differs.shape[1]):
                model.add_bool_or([u[g] for g in np.flatnonzero(differs[:, j]).tolist()])
    if n > 1:
        model.add_bool_or([u[g] for g in canonical_first_guesses(table.rules)])
    model.add(sum(u) >= least)
    model.minimize(sum(u))
    if stop_seen(token):
        return stopped_result(table, "static", least, start, why=token.reason or TIME_LIMIT)
    solver = make_solver(token, workers, seed)
    status, stopped = run_solver(solver, model, token)
    seconds = time.perf_counter() - start
    name = solver.status_name(status)
    # a search stopped before its presolve ended reports a bound of 0: the counting bound holds
    bound = max(least, int(round(solver.best_objective_bound)))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = [g for g in range(n) if solver.boolean_value(u[g])]
        proven = status == cp_model.OPTIMAL
        return model_result(
            table,
            "static",
            name,
            value=len(chosen),
            bound=bound,
            proven=proven,
            seconds=seconds,
            guesses=chosen,
            stopped=None if proven else stopped or TIME_LIMIT,
        )
    proven = status == cp_model.INFEASIBLE
    return model_result(
        table,
        "static",
        name,
        value=None,
        bound=None if proven else bound,
        proven=proven,
        seconds=seconds,
        stopped=None if proven else stopped or TIME_LIMIT,
    )


def static_answer(
    table: CodeTable,
    *,
    time_limit: float | None = None,
    workers: int = 1,
    cancel: CancelToken | None = None,
    seed: int = 0,
) -> Result[ModelRun]:
    """:func:`solve_static`, which, stopped by Ctrl-C while the model is built, reports the
    counting bound, all it knows then."""
    start = time.perf_counter()
    try:
        return solve_static(table, time_limit=time_limit, workers=workers, cancel=cancel, seed=seed)
    except KeyboardInterrupt:
        return stopped_result(table, "static", counting_static_bound(table), start)


def static_document(result: Result[ModelRun], seed: int) -> dict[str, Any]:
    """The JSON of ``mastermind static`` (schemas/static.schema.json): the guesses and the
    set, proven, or their bounds and the best set found."""
    rules, run = result.rules, run_of(result)
    chosen = run.guesses
    guess_set = None if chosen is None else [rules.code_text(g) for g in chosen]
    found = (
        None if guess_set is None else {"guesses": result.value, "guess_set": guess_set, "found_by": CPSAT}
    )
    return {
        "rules": str(rules),
        "codes": rules.n_codes,
        "solver_status": run.status,
        "proven": result.proven,
        "guesses": result.value if result.proven else None,
        "guess_set": guess_set if result.proven else None,
        "guesses_lower_bound": result.lower_bound,
        "guesses_upper_bound": result.value,
        "best_found": None if result.proven else found,
        "seed": seed,
        "stopped": result.stopped,
        "seconds": round(result.seconds, 3),
    }
