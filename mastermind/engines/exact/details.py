"""What the exact search reports beyond the common result: its problem, and its work units.

>>> from mastermind.engines.exact.details import no_strategy_text
>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.exact import Problem, solve
>>> result = solve(CodeTable(Rules(3, 3)), Problem(max_guesses=4))
>>> result.details.max_guesses, result.to_dict()["max_guesses"]
(4, 4)
>>> no_strategy_text(Rules(3, 3), 2, None)
'no strategy solves every secret of p3c3r within 2 guesses'
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    run's search seconds: a checkpointed search's cost; None when not known). ``memo``: the
    memo of the one search in this thread that proved a plain total (no weights, cap, pool
    or opening), for the proof pass (:func:`~mastermind.engines.exact.certify.prove`'s
    ``memo``) not to search again what it proved; None otherwise, and in a copy pickled to
    another process (it is this process's memory, up to the search's memo budget)."""

    max_guesses: int | None = None
    pool: str = "all"
    weighted: bool = False
    opening: Code | None = None  # type: ignore[misc]  # (a field here, a class default in Details)
    worst_lower_bound: int | None = None
    startup_seconds: float | None = None
    checkpoint_seconds: float | None = None
    memo: object | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "memo": None}

    def result_dict(self, result: Result) -> dict[str, Any]:
        # (the optimal command's JSON: one layout, in the library's words too)
        from mastermind.engines.exact.document import search_document

        return search_document(result)


def no_strategy_text(rules: Rules, max_guesses: int | None, first_guess: Code | None) -> str:
    """What a result with status NO_STRATEGY means, in words."""
    within = "any number of guesses" if max_guesses is None else plural(max_guesses, "guess")
    start = "" if first_guess is None else f" starting with {rules.code_text(first_guess)}"
    return f"no strategy solves every secret of {rules} within {within}{start}"
