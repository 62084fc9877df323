"""What every OR-Tools model reports: status, best value, proven bound, and whether it is proven."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from mastermind.core.errors import MastermindError


@dataclass(frozen=True)
class ModelResult:
    """Outcome of one CP-SAT run.

    ``value`` is the best solution found (None if none), ``bound`` the best proven lower bound
    on the objective (for a feasibility question: None), ``proven`` is True when the solver
    closed the question within its limits (optimal, or infeasible).
    """

    status: str
    value: int | None
    bound: int | None
    proven: bool
    seconds: float
    solution: Any = field(default=None, compare=False, repr=False)
    stopped: str | None = None  # why an unproven run ended: "time limit" or "interrupted"

    @property
    def feasible(self) -> bool:
        return self.value is not None

    @property
    def infeasible(self) -> bool:
        return self.status == "INFEASIBLE"

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "value": self.value,
            "bound": self.bound,
            "proven": self.proven,
            "seconds": round(self.seconds, 3),
            **({"stopped": self.stopped} if self.stopped else {}),
        }


def check_limits(time_limit: float, workers: int) -> None:
    """Refuse limits CP-SAT cannot use, with a one-line message."""
    if not time_limit > 0:
        raise MastermindError(f"time limit must be positive seconds, got {time_limit}")
    if workers < 1:
        raise MastermindError(f"workers must be at least 1, got {workers}")


def make_solver(time_limit: float, workers: int, seed: int = 0):
    """A CP-SAT solver with a wall-time limit, a worker count and a fixed seed."""
    from ortools.sat.python import cp_model

    check_limits(time_limit, workers)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = seed
    # Ctrl-C goes to the command line's handler (see run_solver), which reports it: CP-SAT's
    # own would end the search as if its time limit had passed
    solver.parameters.catch_sigint_signal = False
    return solver


POLL = 0.02  # seconds between looks at the stop flag while CP-SAT runs


def run_solver(solver, model) -> tuple[Any, str | None]:
    """``solver.solve(model)``, stopped by Ctrl-C like by its time limit (within ``POLL``
    seconds). Returns the status and ``"interrupted"`` when Ctrl-C stopped it, else None."""
    from mastermind.core import cancel

    flag = cancel.new_flag()
    done = threading.Event()

    def watch() -> None:
        # stop_search only reaches a running solve: ask again until it has ended
        while not done.wait(POLL):
            if flag[0]:
                cancel.winding_down.set()  # the presolve may take most of a second to notice
                solver.stop_search()

    watcher = threading.Thread(target=watch, daemon=True, name="cpsat-stop")
    with cancel.running(flag):
        watcher.start()
        try:
            status = solver.solve(model)
        finally:
            done.set()
            watcher.join()
    return status, "interrupted" if flag[0] else None
