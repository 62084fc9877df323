"""The one result type of the engines: a value with how sure it is, the strategy, the work.

Every engine's solve function returns a :class:`Result`: the exact search
(:func:`mastermind.engines.exact.solve`), the heuristics (:func:`mastermind.engines.heuristics.solve`),
the CP-SAT models (``solve_tree``, ``depth_feasible``, ``solve_static``) and the game value
(:func:`mastermind.engines.gamevalue.game_value`). What only one engine has (the models'
solver status, the game value's mixes) is its ``details``, a :class:`Details`.

A search that finished has ``proven`` True and ``lower_bound == upper_bound == value``. One
that was stopped (time limit, Ctrl-C) still says what it proved: ``lower_bound`` is at most
the true optimum (None when nothing is proven), ``upper_bound`` the cost of the best strategy
found (``tree``), None when there is none yet. A heuristic proves no optimum: its value is
only an upper bound.

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.exact import solve
>>> result = solve(CodeTable(Rules(3, 3)))
>>> result.value, result.proven, result.lower_bound, result.upper_bound, result.worst
(73, True, 73, 73, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from mastermind.core.game import Code, Rules
from mastermind.core.tree import Stats, StrategyTree


@dataclass
class Counters:
    """The work a search did: nodes expanded, memo hits, work units run (and reused from a
    checkpoint)."""

    nodes: int = 0
    memo_hits: int = 0
    units: int = 0
    reused: int = 0

    def add(self, nodes: int = 0, memo_hits: int = 0, units: int = 0, reused: int = 0) -> None:
        self.nodes += nodes
        self.memo_hits += memo_hits
        self.units += units
        self.reused += reused


class Details:
    """What one engine reports beyond :class:`Result` (``Result.details``)."""

    def result_dict(self, result: Result) -> dict | None:
        """The JSON of ``result`` when this engine lays it out its own way (else None)."""
        return None


D = TypeVar("D", bound=Details)
Number = int | float | Fraction


@dataclass
class Result(Generic[D]):
    """What an engine found for one game.

    ``value`` is the optimised quantity (for the exact search the total: the sum over the
    secrets of weight x guesses, 5625 for the classic game; for the game value the expected
    guesses as a fraction); when not proven it is the value of the best strategy found
    (``upper_bound``) or None. ``stats`` describes ``tree`` replayed against every secret,
    without weights; ``fraction`` is the exact expected number of guesses,
    ``value / weight_sum``. ``details``: what only this engine reports.
    """

    rules: Rules
    objective: str
    value: Number | None
    proven: bool
    lower_bound: Number | None
    upper_bound: Number | None
    tree: StrategyTree | None
    stats: Stats | None
    counters: Counters = field(default_factory=Counters)
    seconds: float = 0.0
    weight_sum: int | float = 0
    fraction: Fraction | None = None
    max_guesses: int | None = None
    pool: str = "all"
    weighted: bool = False
    stopped: str | None = None  # why an unproven search ended: "time limit" or "interrupted"
    startup_seconds: float | None = None  # starting the workers of a backend, outside ``seconds``
    checkpoint_seconds: float | None = None  # every run's search seconds, a checkpointed search's cost
    found_by: str | None = None  # a stopped search's best strategy came from this heuristic
    worst_lower_bound: int | None = None  # a stopped search for the least worst case: proven so far
    opening: Code | None = None  # the first guess a search was held to (a stopped one has no tree)
    details: D | None = None

    # ---- the names callers read ------------------------------------------------------------
    @property
    def total(self):
        return self.value

    @property
    def worst(self) -> int | None:
        return None if self.stats is None else self.stats.worst

    @property
    def histogram(self) -> list[int]:
        return [] if self.stats is None else self.stats.histogram

    @property
    def secrets(self) -> int:
        return 0 if self.stats is None else self.stats.secrets

    @property
    def guesses_total(self) -> int | None:
        return None if self.stats is None else self.stats.total

    @property
    def first_guess(self) -> Code | None:
        return self.opening if self.tree is None else self.tree.root.guess

    @property
    def nodes(self) -> int:
        return self.counters.nodes

    @property
    def memo_hits(self) -> int:
        return self.counters.memo_hits

    @property
    def average(self) -> float:
        """Expected number of guesses (weighted when weights were given)."""
        if self.value is None or not self.weight_sum:
            return 0.0
        return float(self.value) / float(self.weight_sum)

    def to_dict(self) -> dict:
        """The JSON of the result (the engine's own layout when its details have one)."""
        own = None if self.details is None else self.details.result_dict(self)
        if own is not None:
            return own
        data: dict = {
            "rules": str(self.rules),
            "objective": self.objective,
            "total": self.value,
            "secrets": self.secrets if self.stats is not None else None,  # (no strategy yet: null)
            "average": round(self.average, 6) if self.value is not None else None,
            "worst": self.worst,
            "histogram": self.histogram,
            "first_guess": None if self.first_guess is None else self.rules.code_text(self.first_guess),
            "proven": self.proven,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "seconds": round(self.seconds, 4),
            "nodes": self.nodes,
            "units": self.counters.units,
        }
        if self.startup_seconds is not None:
            data["startup_seconds"] = round(self.startup_seconds, 3)
        if self.checkpoint_seconds is not None:
            data["checkpoint_seconds"] = round(self.checkpoint_seconds, 3)
        if self.counters.reused:
            data["units_reused"] = self.counters.reused
        if self.stopped:
            data["stopped"] = self.stopped
        if self.found_by:
            data["found_by"] = self.found_by
        if self.worst_lower_bound is not None:
            data["worst_lower_bound"] = self.worst_lower_bound
        if self.max_guesses is not None:
            data["max_guesses"] = self.max_guesses
        if self.pool != "all":
            data["pool"] = self.pool
        if self.weighted:
            data["guesses_total"] = self.guesses_total
            if self.fraction is not None:
                data["fraction"] = str(self.fraction)
        return data
