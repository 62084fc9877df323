"""The one result type of the engines: a status, a value with its bounds, the strategy, the work.

Every engine's solve function returns a :class:`Result`: the exact search
(:func:`mastermind.engines.exact.solve`), the heuristics (:func:`mastermind.engines.heuristics.solve`),
the CP-SAT models (``solve_tree``, ``depth_feasible``, ``solve_static``) and the game value
(:func:`mastermind.engines.gamevalue.game_value`). What only one engine has (the exact
search's problem and work units, the models' solver status, the game value's mixes) is its
``details``, a :class:`Details`.

A result is immutable: an engine builds it once, and a changed copy is made with
:func:`dataclasses.replace`. Its :class:`Status` says how sure it is:

* ``OPTIMAL``: proven; ``lower_bound == upper_bound == value``;
* ``NO_STRATEGY``: proven that no strategy meets the limits asked for (a number of guesses,
  a first guess); ``value`` is None;
* ``FEASIBLE``: a strategy (or a value reached) that is not proven optimal, for example from
  a search stopped by a time limit or Ctrl-C (``stopped`` says why), or from a heuristic;
  ``upper_bound`` is its cost and ``lower_bound`` what is proven (None: nothing);
* ``UNKNOWN``: stopped before anything was found; ``lower_bound`` may still be proven.

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.exact import solve
>>> result = solve(CodeTable(Rules(3, 3)))
>>> result.status, result.value, result.lower_bound, result.upper_bound, result.worst
(<Status.OPTIMAL: 'optimal'>, 73, 73, 73, 4)
>>> result.value = 0
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'value'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from mastermind.core.choices import Choice
from mastermind.core.game import Code, Rules
from mastermind.core.tree import Stats, StrategyTree


class Objective(Choice):
    """What an engine optimised (``Result.objective``, the JSON's ``objective``): the total
    guesses, the worst case (then the total), whether a strategy within a depth exists
    (CP-SAT), the fewest guesses fixed in advance (static), the game value."""

    TOTAL = "total"
    WORST = "worst"
    FEASIBLE = "feasible"
    STATIC = "static"
    GAME_VALUE = "game value"


class Status(enum.Enum):
    """How sure a :class:`Result` is.

    >>> from mastermind.engines.result import Status
    >>> Status.OPTIMAL.proven, Status.NO_STRATEGY.proven, Status.FEASIBLE.proven
    (True, True, False)
    >>> Status.of(proven=False, found=False)
    <Status.UNKNOWN: 'unknown'>
    """

    OPTIMAL = "optimal"  # proven optimal
    FEASIBLE = "feasible"  # a strategy or value, not proven optimal
    NO_STRATEGY = "no strategy"  # proven: no strategy meets the limits
    UNKNOWN = "unknown"  # nothing found (stopped early)

    @property
    def proven(self) -> bool:
        """Whether the question is settled (an optimum, or that there is no strategy)."""
        return self in (Status.OPTIMAL, Status.NO_STRATEGY)

    @staticmethod
    def of(*, proven: bool, found: bool) -> Status:
        """The status of an answer that is ``proven`` or not, with a value ``found`` or not."""
        if proven:
            return Status.OPTIMAL if found else Status.NO_STRATEGY
        return Status.FEASIBLE if found else Status.UNKNOWN


@dataclass(frozen=True)
class Counters:
    """The work a search did: nodes expanded, memo hits, work units run (and reused from a
    checkpoint).

    >>> from mastermind.engines.result import Counters
    >>> Counters(nodes=5, units=1) + Counters(nodes=2, reused=1)
    Counters(nodes=7, memo_hits=0, units=1, reused=1)
    """

    nodes: int = 0
    memo_hits: int = 0
    units: int = 0
    reused: int = 0

    def __add__(self, other: Counters) -> Counters:
        return Counters(
            self.nodes + other.nodes,
            self.memo_hits + other.memo_hits,
            self.units + other.units,
            self.reused + other.reused,
        )


class Details:
    """What one engine reports beyond :class:`Result` (``Result.details``)."""

    opening: ClassVar[Code | None] = None  # a first guess the engine was held to (no tree to show it)

    def result_dict(self, result: Result) -> dict | None:
        """The JSON of ``result`` when this engine lays it out its own way (else None)."""
        return None

    def json_fields(self, result: Result) -> dict[str, Any]:
        """Fields this engine adds to the common JSON layout (placed as :data:`JSON_ORDER` says)."""
        return {}


D = TypeVar("D", bound=Details)
Number = int | float | Fraction

# the keys of Result.to_dict in their order, the engines' own fields included
JSON_ORDER = (
    "rules",
    "objective",
    "total",
    "secrets",
    "average",
    "worst",
    "histogram",
    "first_guess",
    "proven",
    "total_lower_bound",
    "total_upper_bound",
    "seconds",
    "nodes",
    "units",
    "startup_seconds",
    "checkpoint_seconds",
    "units_reused",
    "stopped",
    "found_by",
    "worst_lower_bound",
    "max_guesses",
    "pool",
    "guesses_total",
    "fraction",
)


# who found a strategy (``found_by``): one word each, as the results files name the source
# of a bound (``upper_source``); a heuristic is named as ``--strategy`` names it
EXACT_SEARCH = "search"
"""``found_by``: the exact search (its rounds or its strategy search)."""
STARTED_FROM = "start-from"
"""``found_by``: the strategy given to start from (``--start-from``), which the search did
not better."""
CPSAT = "cpsat"
"""``found_by``: the CP-SAT model (``mastermind cpsat``, ``static``)."""


@dataclass(frozen=True)
class Result(Generic[D]):
    """What an engine found for one game.

    ``value`` is the optimised quantity (for the exact search the total: the sum over the
    secrets of weight x guesses, 5625 for the classic game; for the game value the expected
    guesses as a fraction); when not proven it is the value of the best strategy found
    (``upper_bound``) or None. ``stats`` describes ``tree`` replayed against every secret,
    without weights; ``fraction`` is the exact expected number of guesses,
    ``value / weight_sum``. ``stopped``: why an unfinished engine ended ("time limit",
    "interrupted"), None when it finished. ``found_by``: the heuristic whose strategy is
    reported, when it is not the engine's own. ``details``: what only this engine reports.

    >>> from mastermind.engines.result import Result, Status
    >>> from mastermind.core.game import Rules
    >>> found = Result(Rules(2, 3), "total", Status.FEASIBLE, 22, 20, 22, stopped="time limit")
    >>> found.proven, found.total, found.to_dict()["stopped"]
    (False, 22, 'time limit')
    >>> import dataclasses
    >>> dataclasses.replace(found, status=Status.OPTIMAL, lower_bound=22, stopped=None).proven
    True
    """

    rules: Rules
    objective: Objective
    status: Status
    value: Number | None
    lower_bound: Number | None
    upper_bound: Number | None
    tree: StrategyTree | None = None
    stats: Stats | None = None
    counters: Counters = field(default_factory=Counters)
    seconds: float = 0.0
    weight_sum: int | float = 0
    fraction: Fraction | None = None
    stopped: str | None = None
    found_by: str | None = None
    details: D | None = None

    def __post_init__(self) -> None:
        # (an engine may name its objective by its word: "total")
        object.__setattr__(self, "objective", Objective(self.objective))

    def __repr__(self) -> str:
        """The answer in one line: its tree, statistics and details are read from their fields
        (the whole tree was printed, kilobytes of it).

        >>> from mastermind.engines.result import Result, Status
        >>> from mastermind.core.game import Rules
        >>> Result(Rules(2, 3), "total", Status.FEASIBLE, 22, 20, 22, stopped="time limit")
        Result(rules=p2c3r, objective='total', status=FEASIBLE, value=22, lower_bound=20, upper_bound=22, \
worst=None, first_guess=None, tree=None, stopped='time limit', found_by=None, seconds=0.0)
        """
        first = None if self.first_guess is None else self.rules.code_text(self.first_guess)
        tree = None if self.tree is None else f"<{self.tree.n_nodes()} nodes>"
        return (
            f"Result(rules={self.rules}, objective={self.objective.value!r}, status={self.status.name}, "
            f"value={self.value!r}, lower_bound={self.lower_bound!r}, upper_bound={self.upper_bound!r}, "
            f"worst={self.worst!r}, first_guess={first!r}, tree={tree}, stopped={self.stopped!r}, "
            f"found_by={self.found_by!r}, seconds={round(self.seconds, 3)!r})"
        )

    # ---- the names callers read ------------------------------------------------------------
    @property
    def proven(self) -> bool:
        return self.status.proven

    @property
    def total(self) -> Number | None:
        return self.value

    @property
    def worst(self) -> int | None:
        return None if self.stats is None else self.stats.worst

    @property
    def histogram(self) -> tuple[int, ...]:
        return () if self.stats is None else self.stats.histogram

    @property
    def secrets(self) -> int | None:
        """Secrets the strategy plays (None without one)."""
        return None if self.stats is None else self.stats.secrets

    @property
    def guesses_total(self) -> int | None:
        return None if self.stats is None else self.stats.total

    @property
    def first_guess(self) -> Code | None:
        if self.tree is not None:
            return self.tree.root.guess
        return None if self.details is None else self.details.opening

    @property
    def nodes(self) -> int:
        return self.counters.nodes

    @property
    def memo_hits(self) -> int:
        return self.counters.memo_hits

    @property
    def average(self) -> float | None:
        """Expected number of guesses (weighted when weights were given); None without a
        value, or when every weight is zero."""
        if self.value is None or not self.weight_sum:
            return None
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
            "secrets": self.secrets,  # (no strategy yet: null)
            "average": None if self.average is None else round(self.average, 6),
            "worst": self.worst,
            "histogram": list(self.histogram),
            "first_guess": None if self.first_guess is None else self.rules.code_text(self.first_guess),
            "proven": self.proven,
            "total_lower_bound": self.lower_bound,
            "total_upper_bound": self.upper_bound,
            "seconds": round(self.seconds, 4),
            "nodes": self.nodes,
            "units": self.counters.units,
        }
        if self.counters.reused:
            data["units_reused"] = self.counters.reused
        if self.stopped:
            data["stopped"] = self.stopped
        if self.found_by:
            data["found_by"] = self.found_by
        if self.details is not None:
            data.update(self.details.json_fields(self))
        ordered = {key: data[key] for key in JSON_ORDER if key in data}
        return ordered | data  # (a key JSON_ORDER lacks comes last)


def json_number(x) -> int | float:
    """A total as JSON gives it: whole numbers as integers."""
    return int(x) if float(x).is_integer() else float(x)


def strategy_fields(result) -> dict[str, Any]:
    """A strategy's numbers (the result's tree), as every command gives them: with weights,
    its total and average are weighted, as the bounds are (``guesses_total`` then counts
    the guesses over the secrets)."""
    stats = result.stats
    # (an exact search's details say whether it was weighted; other engines' never are)
    weighted = bool(getattr(result.details, "weighted", False)) and result.upper_bound is not None
    total = json_number(result.upper_bound) if weighted else int(stats.total)
    # (weighted: the result's value, that of its strategy; every weight 0: no average, 0/0)
    average = result.average if weighted else stats.average
    return {
        "total": total,
        "secrets": stats.secrets,
        "average": None if average is None else round(average, 6),
        "worst": stats.worst,
        "histogram": list(stats.histogram),
        "first_guess": result.rules.code_text(result.tree.root.guess),
    }
