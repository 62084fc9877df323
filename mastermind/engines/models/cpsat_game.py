"""One game through the CP-SAT strategy-tree model (``mastermind cpsat``): the depth to model
(:func:`plan_depth`), then the model solved and what it proves (:func:`solve_cpsat`), with
the worst-case bound a refuted depth adds."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import naming
from mastermind.core.game import CodeTable
from mastermind.core.words import plural
from mastermind.engines.models.bounds import lookahead_total_bound, lookahead_worst_bound
from mastermind.engines.models.cpsat_tree import check_model_size, deepest_model, model_size, solve_tree
from mastermind.engines.models.result import ModelRun, run_of, stopped_result
from mastermind.engines.result import CPSAT, Objective, Result, strategy_fields


@dataclass(frozen=True)
class DepthPlan:
    """The depth to model: ``depth``; ``worst_bound``, the one-level lookahead bound on the
    worst case (no strategy exists below it); ``wanted`` and ``wanted_bytes``, the default
    depth first wanted and its model's memory, where its model is out of reach and a
    smaller depth is used (else None)."""

    depth: int
    worst_bound: int
    wanted: int | None = None
    wanted_bytes: int | None = None


def plan_depth(table: CodeTable, depth: int | None = None, feasible: bool = False) -> DepthPlan:
    """``depth`` checked within the model's reach, or, when None, one more than the
    worst-case bound, to leave room to optimise the total (the bound itself if
    ``feasible``), never more than the codes; if that model is out of reach, the deepest
    within reach that can still hold a strategy. Refuses (:class:`MastermindError`) a depth
    out of reach, with one that fits if any can hold a strategy."""
    worst_bound = lookahead_worst_bound(table, 1)
    if depth is not None:
        _check_depth(table, depth, worst_bound)
        return DepthPlan(depth, worst_bound)
    wanted = min(worst_bound + (0 if feasible else 1), table.n)
    depth = deepest_model(table, wanted)
    if depth < worst_bound:  # below the bound no strategy exists: nothing to optimise
        check_model_size(
            table,
            worst_bound,
            advice=f"every strategy needs at least {plural(worst_bound, 'guess')}, so no "
            "--max-guesses within reach holds one: use a smaller game",
        )
    if depth == wanted:
        return DepthPlan(depth, worst_bound)
    return DepthPlan(depth, worst_bound, wanted, model_size(table, wanted).bytes)


def _check_depth(table: CodeTable, depth: int, worst_bound: int) -> None:
    fits = deepest_model(table, min(depth, table.n))
    if fits >= worst_bound:
        advice = f"use --max-guesses {fits} (the most within reach) or a smaller game"
    else:
        advice = (
            f"use a smaller game: every strategy needs at least {plural(worst_bound, 'guess')}, "
            f"and no model of more than {plural(fits, 'guess')} is within reach"
        )
    with naming("--max-guesses"):
        check_model_size(table, depth, advice=advice)


@dataclass(frozen=True)
class TreeModelAnswer:
    """What :func:`solve_cpsat` proves: the model's ``result``, at ``plan.depth``, for the
    ``objective`` ("total": the optimal total within the depth; "feasible": whether a
    strategy within it exists), with the ``seed`` CP-SAT ran with."""

    plan: DepthPlan
    objective: Objective
    result: Result[ModelRun]
    seed: int

    @property
    def exists(self) -> bool | None:
        """Whether a strategy within the depth exists (None: not known)."""
        if self.result.tree is not None:
            return True
        return False if run_of(self.result).infeasible else None

    @property
    def optimal(self) -> bool:
        """The optimal total within the depth, proven."""
        return self.objective is Objective.TOTAL and self.result.proven and self._found() is not None

    @property
    def worst_lower_bound(self) -> int:
        """The lookahead bound, or one more than the depth the model refuted."""
        bound = self.plan.worst_bound
        return max(bound, self.plan.depth + 1) if run_of(self.result).infeasible else bound

    def _found(self) -> dict[str, Any] | None:
        result = self.result
        return None if result.tree is None or result.stats is None else strategy_fields(result)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``mastermind cpsat`` (schemas/cpsat.schema.json)."""
        result, found, optimal = self.result, self._found(), self.optimal
        n = result.rules.n_codes
        worst_low = self.worst_lower_bound
        # a feasible answer whose bounds meet proves the optimal worst case: the answer's own
        worst_known = (
            self.objective is Objective.FEASIBLE and found is not None and found["worst"] == worst_low
        )
        return {
            "rules": str(result.rules),
            "codes": n,
            "objective": self.objective,
            "max_guesses": self.plan.depth,
            "solver_status": run_of(result).status,
            "proven": result.proven,
            "exists": self.exists,
            "total": found["total"] if optimal and found else None,
            "average": found["average"] if optimal and found else None,
            "worst": found["worst"] if found and (optimal or worst_known) else None,
            "histogram": found["histogram"] if optimal and found else [],
            "secrets": n if optimal else None,  # (as optimal gives it: beside the total it is over)
            "first_guess": found["first_guess"] if optimal and found else None,
            "total_lower_bound": None if self.objective is Objective.FEASIBLE else result.lower_bound,
            # (a strategy found bounds the total within the guesses, its total not optimised or not)
            "total_upper_bound": None if found is None else found["total"],
            "worst_lower_bound": worst_low,
            "worst_upper_bound": None if found is None else found["worst"],
            "best_found": None if optimal or found is None else {**found, "found_by": CPSAT},
            "seed": self.seed,
            "stopped": result.stopped,
            "seconds": round(result.seconds, 3),
        }


def solve_cpsat(
    table: CodeTable,
    plan: DepthPlan,
    feasible: bool = False,
    *,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int = 0,
    cancel: CancelToken | None = None,
) -> TreeModelAnswer:
    """The strategy-tree model of the game at ``plan.depth``: the optimal total within it,
    bounded below by the lookahead (two levels up to 256 codes, else one), or, if
    ``feasible``, whether a strategy within it exists. Stopped (``cancel``, its deadline or
    ``time_limit`` seconds as :func:`solve_tree` takes them, or Ctrl-C before CP-SAT ran),
    it reports what it proved."""
    objective = Objective.FEASIBLE if feasible else Objective.TOTAL
    start = time.perf_counter()
    lower = None
    try:
        lower = None if feasible else lookahead_total_bound(table, 2 if table.n <= 256 else 1)
        result = solve_tree(
            table,
            plan.depth,
            objective=objective,
            time_limit=time_limit,
            workers=workers,
            lower_bound=lower,
            seed=seed,
            cancel=cancel,
        )
    except KeyboardInterrupt:  # before CP-SAT ran: the lookahead bound is all there is
        result = stopped_result(table, objective, lower, start)
    return TreeModelAnswer(plan, objective, result, seed)
