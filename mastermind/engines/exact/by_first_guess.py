"""The optimum by first guess as one result: every first guess's search, the first guesses with
no strategy within the cap, and the table the ``optimal --by-first-guess`` command prints (its
JSON: :meth:`ByFirstGuess.to_dict`), as :func:`~mastermind.engines.exact.solve_by_first_guess`
returns it.

>>> import mastermind as mm
>>> table = mm.CodeTable(mm.Rules(3, 4))
>>> found = mm.solve_by_first_guess(table, mm.Problem(max_guesses=4))
>>> [table.rules.code_text(g) for g in found.best_first_guesses], found.proven, len(found)
(['112'], True, 2)
>>> [(row["first_guess"], row["exists"], row["total"]) for row in found.rows]
[('111', False, None), ('112', True, 206), ('123', True, 208)]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from mastermind.core.cancel import StopReason
from mastermind.core.game import Code, Rules
from mastermind.engines.exact.details import SearchDetails
from mastermind.engines.exact.document import no_strategy_fields, optimum_fields
from mastermind.engines.exact.options import Problem
from mastermind.engines.result import Result

_NOT_IN_A_ROW = ("first_guess", "first_guess_of_tree", "units", "memo_hits")
"""A search's keys a first guess's row leaves out: the whole run's, or the row's own key."""


@dataclass(frozen=True, repr=False)
class ByFirstGuess(Sequence[Result[SearchDetails]]):
    """The optimum of ``problem`` after each first guess: ``results``, one per first guess a
    strategy starts from within ``problem.max_guesses`` (exact, or, stopped, the bounds
    proven; in the order searched), ``none_within``, the first guesses proven to have none,
    and ``seconds``, the wall time of the searches (side by side: not the sum of theirs).

    A sequence of its ``results`` (``for r in found``, ``found[0]``, ``len(found)``); the
    table of every first guess is :attr:`rows`.
    """

    rules: Rules
    problem: Problem
    results: tuple[Result[SearchDetails], ...]
    none_within: tuple[Code, ...] = ()
    seconds: float = 0.0

    # ---- the results, as a sequence ------------------------------------------------------------
    @overload
    def __getitem__(self, index: int) -> Result[SearchDetails]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Result[SearchDetails]]: ...

    def __getitem__(self, index: int | slice) -> Result[SearchDetails] | Sequence[Result[SearchDetails]]:
        return self.results[index]

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[Result[SearchDetails]]:
        return iter(self.results)

    def __repr__(self) -> str:
        state = "proven" if self.proven else f"stopped ({self.stopped})"
        return f"<ByFirstGuess {self.rules}: {len(self.rows)} first guesses, {state}>"

    # ---- the table -----------------------------------------------------------------------------
    @property
    def rows(self) -> list[dict[str, Any]]:
        """A row per first guess, in the order of the codes: its search's answer (the keys of
        the ``optimal`` command's JSON, less those of the whole run), or, for the first
        guesses in :attr:`none_within`, that no strategy exists within the cap."""
        code_text = self.rules.code_text
        rows = [_row(code_text(_first_guess(r)), optimum_fields(r, r.objective)) for r in self.results]
        none = {**no_strategy_fields(self.problem.max_guesses, 0.0), "nodes": None}
        rows += [_row(code_text(g), none) for g in self.none_within]
        rows.sort(key=lambda row: self.rules.parse_code(row["first_guess"]))
        return rows

    @property
    def exists(self) -> bool | None:
        """Whether a strategy within the cap exists: True once a first guess has one; else
        what the last result says (False: none, proven; None: not known)."""
        exists: bool | None = None
        for r in self.results:
            exists = exists or optimum_fields(r, r.objective)["exists"]
        return exists

    @property
    def proven(self) -> bool:
        """Every first guess's answer proven (its optimum, or that it has no strategy)."""
        return all(row["proven"] for row in self.rows)

    @property
    def stopped(self) -> StopReason | str | None:
        """Why the first search (in the order of the codes) that stopped before its proof
        stopped (None: none did)."""
        return next((row["stopped"] for row in self.rows if row["stopped"]), None)

    @property
    def best_first_guesses(self) -> list[Code]:
        """The first guesses of the least proven total, once no first guess left unfinished
        could beat it (its lower bound at least that total); else none."""
        rows = self.rows
        proven = [row["total"] for row in rows if row["proven"] and row["total"] is not None]
        floors = [row["total_lower_bound"] for row in rows if not row["proven"]]
        if not proven or any(f is None or f < min(proven) for f in floors):
            return []
        return [self.rules.parse_code(row["first_guess"]) for row in rows if row["total"] == min(proven)]

    def to_dict(self, head: dict[str, Any] | None = None) -> dict[str, Any]:
        """The JSON of ``optimal --by-first-guess`` (schemas/optimal.schema.json): ``head``
        (the problem, the command's options; default: the rules, the objective, the cap and
        the pool) and the table; no strategy within the cap for any first guess: that,
        proven."""
        if head is None:
            head = {
                "rules": str(self.rules),
                "codes": self.rules.n_codes,
                "objective": self.problem.objective,
                "max_guesses": self.problem.max_guesses,
                "pool": self.problem.pool,
            }
        if not self.results:
            return {**head, **no_strategy_fields(self.problem.max_guesses, self.seconds)}
        return {
            **head,
            "exists": self.exists,
            "proven": self.proven,
            "by_first_guess": self.rows,
            "best_first_guesses": [self.rules.code_text(g) for g in self.best_first_guesses],
            "stopped": self.stopped,
            "seconds": round(self.seconds, 4),
        }


def _first_guess(result: Result[SearchDetails]) -> Code:
    """The first guess a result was held to (every result by first guess has one)."""
    if result.first_guess is None:
        raise ValueError("a result by first guess without its first guess")
    return result.first_guess


def _row(code: str, fields: dict[str, Any]) -> dict[str, Any]:
    return {"first_guess": code, **{k: v for k, v in fields.items() if k not in _NOT_IN_A_ROW}}
