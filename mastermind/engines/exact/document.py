"""The JSON of an exact search, the one layout the library's ``Result.to_dict()`` and the
``optimal`` command give: the optimum when proven (never a value that is not), else the
bounds and the best strategy found."""

from __future__ import annotations

from typing import Any

from mastermind.core.cancel import INTERRUPTED
from mastermind.engines.result import EXACT_SEARCH, Counters, json_number, strategy_fields


def work_fields(counters: Counters, done: int | None = None, planned: int | None = None) -> dict[str, Any]:
    """A search's work: nodes, memo hits, work units (``done`` and ``planned``: as a progress
    display counted them, where one did)."""
    return {
        "nodes": counters.nodes,
        "memo_hits": counters.memo_hits,
        "units": {
            "done": done,
            "planned": planned,
            "run": counters.units - counters.reused,
            "reused": counters.reused,
        },
    }


def no_strategy_fields(
    max_guesses: int | None, seconds: float, counters: Counters | None = None
) -> dict[str, Any]:
    """No strategy within ``max_guesses``: proven, so every strategy needs one guess more in
    its worst case."""
    return {
        "exists": False,
        "proven": True,
        "total": None,
        "average": None,
        "worst": None,
        "histogram": [],
        "secrets": None,
        "first_guess": None,
        "total_lower_bound": None,
        "total_upper_bound": None,
        "worst_lower_bound": None if max_guesses is None else max_guesses + 1,
        "worst_upper_bound": None,
        "best_found": None,
        "stopped": None,
        "seconds": round(seconds, 4),
        **({} if counters is None else work_fields(counters)),
    }


def optimum_fields(
    result, objective: str | None = None, done: int | None = None, planned: int | None = None
) -> dict[str, Any]:
    """One search's answer (``objective``: the result's own by default): the optimum when
    proven, else its bounds and the best strategy found; ``done``/``planned``: its work
    units as a progress display counted them."""
    objective = result.objective if objective is None else objective
    found = strategy_fields(result) if result.tree is not None and result.stats is not None else None
    proven = bool(result.proven) and found is not None
    headline = found if proven else None
    if found is not None and not proven:
        found["found_by"] = result.found_by or EXACT_SEARCH
    details = result.details
    worst_low = None if details is None else details.worst_lower_bound
    if proven and objective == "worst":
        worst_low = found["worst"]  # type: ignore[index]
    capped = details is not None and details.max_guesses is not None and objective != "worst"
    depth_proven = worst_low is not None and found is not None and found["worst"] == worst_low
    data: dict[str, Any] = {
        # within a cap on the guesses a strategy may not exist: unknown (null) until one is found
        "exists": True if found is not None or not capped else None,
        "proven": proven,
        "total": None if headline is None else headline["total"],
        "average": None if headline is None else headline["average"],
        # the optimal worst case, once proven, even where its best total is not yet
        "worst": worst_low
        if headline is None and objective == "worst" and depth_proven
        else (None if headline is None else headline["worst"]),
        "histogram": [] if headline is None else headline["histogram"],
        "secrets": None if headline is None else headline["secrets"],
        "first_guess": None if headline is None else headline["first_guess"],
        "total_lower_bound": None if result.lower_bound is None else json_number(result.lower_bound),
        "total_upper_bound": None if found is None else found["total"],
        "worst_lower_bound": None if worst_low is None else int(worst_low),
        "worst_upper_bound": None if found is None else found["worst"],
        "best_found": None if proven else found,
        "stopped": None if proven else (result.stopped or INTERRUPTED),
        "seconds": round(result.seconds, 4),
        **work_fields(result.counters, done, planned),
    }
    if objective == "worst" and not depth_proven:
        # the lower bound on the total is of the best total within the optimal worst case:
        # none before that worst case is proven
        data["total_lower_bound"] = data["total"]
    if details is not None and details.startup_seconds is not None:
        data["startup_seconds"] = round(details.startup_seconds, 3)
    if details is not None and details.checkpoint_seconds is not None:
        data["checkpoint_seconds"] = round(details.checkpoint_seconds, 3)
    return data


def search_document(
    result,
    objective: str | None = None,
    *,
    done: int | None = None,
    planned: int | None = None,
    head: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole JSON of one exact search: the problem it solved, then its answer (the
    keys of the ``optimal`` command, less those of its options and files). ``objective``,
    ``done`` and ``planned``: as :func:`optimum_fields` takes them; ``head``: the problem in
    the caller's words (the ``optimal`` command's options), in place of the result's."""
    details = result.details
    max_guesses = None if details is None else details.max_guesses
    if head is None:
        head = {
            "rules": str(result.rules),
            "codes": result.rules.n_codes,
            "objective": result.objective,
            "max_guesses": max_guesses,
            "pool": "all" if details is None else details.pool,
        }
    if result.status.name == "NO_STRATEGY":
        return {**head, **no_strategy_fields(max_guesses, result.seconds, result.counters)}
    data = {**head, **optimum_fields(result, objective, done, planned)}
    if details is not None and details.weighted:
        data["guesses_total"] = result.guesses_total
        if result.fraction is not None:
            data["fraction"] = str(result.fraction)
    return data
