"""What the exact search reports beyond the common result: its problem, and its work units.

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.exact import Problem, solve
>>> result = solve(CodeTable(Rules(3, 3)), Problem(max_guesses=4))
>>> result.details.max_guesses, result.to_dict()["max_guesses"]
(4, 4)
>>> no_strategy_text(Rules(3, 3), 2, None)
'no strategy solves every secret of p3c3r within 2 guesses'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mastermind.core.game import Code, Rules
from mastermind.core.words import plural
from mastermind.engines.result import Details, Result


@dataclass(frozen=True)
class SearchDetails(Details):
    """The exact search's own numbers: the problem it solved (``max_guesses``, ``pool``,
    whether ``weighted``; ``opening``, the first guess it was held to, for a result without
    a tree), ``worst_lower_bound`` (a search for the least worst case stopped early: every
    smaller worst case is refuted), and for work units ``startup_seconds`` (starting the
    workers of a backend, outside ``Result.seconds``) and ``checkpoint_seconds`` (every
    run's search seconds: a checkpointed search's cost; None when not known)."""

    max_guesses: int | None = None
    pool: str = "all"
    weighted: bool = False
    opening: Code | None = None  # type: ignore[misc]  # (a field here, a class default in Details)
    worst_lower_bound: int | None = None
    startup_seconds: float | None = None
    checkpoint_seconds: float | None = None

    def json_fields(self, result: Result) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.startup_seconds is not None:
            data["startup_seconds"] = round(self.startup_seconds, 3)
        if self.checkpoint_seconds is not None:
            data["checkpoint_seconds"] = round(self.checkpoint_seconds, 3)
        if self.worst_lower_bound is not None:
            data["worst_lower_bound"] = self.worst_lower_bound
        if self.max_guesses is not None:
            data["max_guesses"] = self.max_guesses
        if self.pool != "all":
            data["pool"] = self.pool
        if self.weighted:
            data["guesses_total"] = result.guesses_total
            if result.fraction is not None:
                data["fraction"] = str(result.fraction)
        return data


def no_strategy_text(rules: Rules, max_guesses: int | None, first_guess: Code | None) -> str:
    """What a result with status NO_STRATEGY means, in words."""
    within = "any number of guesses" if max_guesses is None else plural(max_guesses, "guess")
    start = "" if first_guess is None else f" starting with {rules.code_text(first_guess)}"
    return f"no strategy solves every secret of {rules} within {within}{start}"
