"""What every OR-Tools model reports: a :class:`Result` with the solver's status as its details."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mastermind.core.cancel import INTERRUPTED, CancelToken, StopReason
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.tree import Stats, StrategyTree
from mastermind.engines.result import Details, Objective, Result, Status


@dataclass(frozen=True)
class ModelRun(Details):
    """What a CP-SAT run adds to its :class:`Result`: the solver's status and, for the static
    model, the chosen guesses (the strategy-tree model's strategy is ``Result.tree``).

    ``Result.value`` is the best solution found (None if none), ``lower_bound`` the best
    proven bound on the objective (for a feasibility question: None), ``proven`` True when
    the solver closed the question within its limits (optimal, or infeasible).
    """

    status: str
    guesses: list[Code] | None = field(default=None, compare=False, repr=False)

    @property
    def infeasible(self) -> bool:
        return self.status == "INFEASIBLE"

    def result_dict(self, result: Result) -> dict:
        return {
            "status": self.status,
            "value": result.value,
            "bound": result.lower_bound,
            "proven": result.proven,
            "seconds": round(result.seconds, 3),
            **({"stopped": result.stopped} if result.stopped else {}),
        }


def run_of(result: Result[ModelRun]) -> ModelRun:
    """The solver's report of a model's result (every model's result has one)."""
    if result.details is None:
        raise MastermindError("a CP-SAT result without its solver's status")
    return result.details


def model_result(
    table: CodeTable,
    objective: str,
    status: str,
    *,
    value: int | None,
    bound: int | None,
    proven: bool,
    seconds: float,
    tree: StrategyTree | None = None,
    secrets: np.ndarray | None = None,
    guesses: list[Code] | None = None,
    stopped: str | None = None,
) -> Result[ModelRun]:
    """The :class:`Result` of one CP-SAT run (``tree`` replayed against every secret, or
    against ``secrets``)."""
    return Result(
        rules=table.rules,
        objective=Objective(objective),
        status=Status.of(proven=proven, found=value is not None),
        value=value,
        lower_bound=bound,
        upper_bound=value,
        tree=tree,
        stats=None if tree is None else Stats.from_depths(tree.depths(table, secrets)),
        seconds=seconds,
        stopped=stopped,
        details=ModelRun(status, guesses),
    )


def stopped_result(
    table: CodeTable, objective: str, bound: int | None, start: float, why: StopReason | str = INTERRUPTED
) -> Result[ModelRun]:
    """The result of a run stopped (by Ctrl-C, or its time limit while the model was built)
    before CP-SAT ran: ``bound`` (a lower bound known beforehand) is all it proves."""
    return model_result(
        table,
        objective,
        "UNKNOWN",
        value=None,
        bound=bound,
        proven=False,
        seconds=time.perf_counter() - start,
        stopped=why,
    )


def stop_seen(token: CancelToken) -> bool:
    """Whether ``token`` is cancelled; if so, the work tells its watcher that it saw the
    cancel and is reporting, so that a command's watchdog waits for the report rather than
    ending the process after its grace (on a loaded machine the report took longer, and a
    Ctrl-C as a model was built printed nothing)."""
    if not token.cancelled:
        return False
    token.wind_down()
    return True


def model_token(cancel: CancelToken | None, time_limit: float | None, workers: int) -> CancelToken:
    """The token a model runs under, made before the model is built (building a big model
    takes seconds that the solver's own limit does not see): a child of ``cancel`` with a
    deadline ``time_limit`` seconds from now (None: ``cancel``'s, if any), the one place the
    model's time limit is kept. Limits CP-SAT cannot use are refused first, in one line.
    Close it (``with``).

    >>> from mastermind.engines.models.result import model_token
    >>> with model_token(None, 60.0, workers=1) as token:
    ...     token.cancelled, 59.0 < token.remaining() <= 60.0
    (False, True)
    """
    if not workers >= 1:
        raise MastermindError(f"workers must be at least 1, got {workers}")
    return (CancelToken() if cancel is None else cancel).child(time_limit)


def make_solver(token: CancelToken, workers: int, seed: int = 0) -> Any:
    """A CP-SAT solver with a wall-time limit, the time left on ``token`` (none without a
    deadline), a worker count and a seed: the same seed and number of workers give the same
    answer (unless the time limit stops the search)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    left = token.remaining(1e-3)  # (a moment at least: the deadline may pass as this runs)
    if left is not None:
        solver.parameters.max_time_in_seconds = float(left)
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed) % 2**31  # (CP-SAT's seed is an int32)
    # workers racing each other return whichever solution one finds first: interleaved, the
    # search is deterministic for a given number of workers
    solver.parameters.interleave_search = True
    # Ctrl-C goes to the command line's handler (see run_solver), which reports it: CP-SAT's
    # own would end the search as if its time limit had passed
    solver.parameters.catch_sigint_signal = False
    return solver


POLL = 0.02  # seconds between looks at the cancel token while CP-SAT runs


def run_solver(solver: Any, model: Any, cancel: CancelToken | None = None) -> tuple[Any, str | None]:
    """``solver.solve(model)``, stopped by ``cancel`` (within ``POLL`` seconds) as by its
    time limit (``CpSolver.stop_search``). Returns the status and the token's reason when the
    token stopped it, else None."""
    token = CancelToken() if cancel is None else cancel
    done = threading.Event()

    def watch() -> None:
        # stop_search only reaches a running solve: ask again until it has ended
        while not done.wait(POLL):
            if token.cancelled:
                token.wind_down()  # the presolve may take most of a second to notice
                solver.stop_search()

    watcher = threading.Thread(target=watch, daemon=True, name="cpsat-stop")
    with token.running():
        watcher.start()
        try:
            status = solver.solve(model)
        finally:
            done.set()
            watcher.join()
    return status, token.reason
