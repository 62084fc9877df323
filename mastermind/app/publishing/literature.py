"""The published values (``literature.json``, data with its sources) and each row's verdict.

Every number of the tables is computed by the tool; the literature only ever appears as a
reference with its source, and each row says whether the tool agrees, or that the value is
new, or that the game lies in the range of a paper whose values are not typed in here.

>>> from mastermind.app.publishing.literature import PUBLISHED, literature_range
>>> from mastermind.core.game import Rules
>>> PUBLISHED[("p4c6", "total")]
Reference(value='5625', source='Koyama and Lai 1993')
>>> literature_range(Rules(2, 9)), literature_range(Rules(5, 5))
('Goddard 2004 (exact values for 2 pegs)', None)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any

from mastermind.core.game import Rules


@dataclass(frozen=True)
class Reference:
    """A value as published (never computed here) and where."""

    value: str
    source: str


def _load() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("literature.json").read_text(encoding="utf-8"))


_DATA = _load()


def _references(entries: list[dict[str, str]]) -> dict[tuple[str, str], Reference]:
    sources = _DATA["sources"]
    return {
        (e["game"], e["quantity"]): Reference(e["value"], sources.get(e["source"], e["source"]))
        for e in entries
    }


# (game, quantity) -> reference: see literature.json for the quantities
PUBLISHED: dict[tuple[str, str], Reference] = _references(_DATA["optimal"])
GAME_VALUE_PUBLISHED: dict[str, Reference] = {
    game: ref for (game, _), ref in _references(_DATA["game_values"]).items()
}
# the row field each quantity is compared with
QUANTITY_FIELDS = {
    "total": "total",
    "average": "average_fraction",
    "worst": "optimal_worst",
    "worst_total": "worst_total",
}
NOT_TRANSCRIBED = "published, not transcribed here"


def _in_range(rules: Rules, cond: dict[str, Any]) -> bool:
    if rules.variant.name != cond.get("variant", "standard"):  # (the values are of one variant)
        return False
    if "repetition" in cond and rules.repeat != cond["repetition"]:
        return False
    for key, value in (("pegs", rules.pegs), ("colours", rules.colors)):
        if key in cond and not cond[key][0] <= value <= cond[key][1]:
            return False
    return "most_codes" not in cond or rules.n_codes <= cond["most_codes"]


def _range_of(table: str) -> Callable[[Rules], str | None]:
    def range_of(rules: Rules) -> str | None:
        for cond in _DATA["ranges"][table]:
            if _in_range(rules, cond):
                return str(cond["source"])
        return None

    return range_of


literature_range = _range_of("optimal")
"""The papers whose range covers this optimal row although no value of theirs is typed in."""
game_value_literature_range = _range_of("game_values")


def _agrees(ref: Reference, computed: Any) -> bool:
    """Equal as published: integers exactly (as numbers: 5625, 5625.0 and "5625/1" are one
    value), decimals after rounding the exact computed value.

    >>> from mastermind.app.publishing.literature import _agrees, Reference
    >>> _agrees(Reference("5625", "x"), 5625.0), _agrees(Reference("2", "x"), "2/1")
    (True, True)
    >>> _agrees(Reference("2.813", "x"), "45/16"), _agrees(Reference("5626", "x"), 5625)
    (True, False)
    """
    if "." in ref.value:  # within half a unit of the last published decimal (2.8125 is 2.813)
        digits = len(ref.value.split(".")[1])
        return abs(Fraction(computed) - Fraction(ref.value)) <= Fraction(1, 2 * 10**digits)
    return Fraction(computed) == Fraction(ref.value)


def literature(row: dict) -> dict:
    """The row's comparison with the typed-in references and its status (agrees, DIFFERS,
    new, or in the range of a paper not transcribed), from its computed values; worked out
    again whenever the tables are written, so that a new reference reaches every row."""
    rules = Rules.parse(row["game"])
    if row.get("status") != "proven":
        return _open_literature(row)
    checks = []
    if "average_unreduced" in row:  # a game-value row
        ref = GAME_VALUE_PUBLISHED.get(row["game"])
        if ref is not None:
            checks.append(
                {
                    "quantity": "value",
                    "value": ref.value,
                    "source": ref.source,
                    "agrees": Fraction(ref.value) == Fraction(row["average_fraction"]),
                }
            )
        range_of = game_value_literature_range
    else:
        for quantity, field in QUANTITY_FIELDS.items():
            ref = PUBLISHED.get((row["game"], quantity))
            if ref is not None and row.get(field) is not None:
                checks.append(
                    {
                        "quantity": quantity,
                        "value": ref.value,
                        "source": ref.source,
                        "agrees": _agrees(ref, row[field]),
                    }
                )
        range_of = literature_range
    status, note = _status(rules, checks, range_of)
    return {"published": checks, "literature": status, "literature_note": note}


def _open_literature(row: dict) -> dict:
    """An open row against the typed-in references: each must lie within the bounds the row
    proves ("DIFFERS" if one does not: a contradiction to look into); still "open" otherwise."""
    b = row.get("bounds") or {}
    checks = []
    if "average_lower_bound" in b:  # a game value stopped at the cap
        ref = GAME_VALUE_PUBLISHED.get(row["game"])
        if ref is not None:
            value, high = float(Fraction(ref.value)), b.get("average_upper_bound")
            within = b["average_lower_bound"] - 1e-6 <= value and (high is None or value <= high + 1e-6)
            checks.append({"quantity": "value", "value": ref.value, "source": ref.source, "agrees": within})
    elif b.get("total_lower_bound") is not None:  # an optimum with its proven bounds
        ref = PUBLISHED.get((row["game"], "total"))
        if ref is not None:
            value, high = int(ref.value), b.get("total_upper_bound")
            within = b["total_lower_bound"] <= value and (high is None or value <= high)
            checks.append({"quantity": "total", "value": ref.value, "source": ref.source, "agrees": within})
        ref = PUBLISHED.get((row["game"], "strategy_total"))
        if ref is not None:  # a published strategy: at least the optimum, so at least our lower bound
            value, high = int(ref.value), b.get("total_upper_bound")
            checks.append(
                {
                    "quantity": "strategy_total",
                    "value": ref.value,
                    "source": ref.source,
                    "agrees": b["total_lower_bound"] <= value,
                    "beaten": high is not None and high < value,
                }
            )
    note = row.get("reason", "")
    if checks:
        said = "; ".join(_said(c) for c in checks)
        inside = all(c["agrees"] for c in checks)
        note += f"; published {said} {'within' if inside else 'OUTSIDE'} the bounds proven"
        return {"published": checks, "literature": "open" if inside else "DIFFERS", "literature_note": note}
    return {"published": [], "literature": "open", "literature_note": note}


def _said(check: dict) -> str:
    """A reference as the notes quote it (a strategy's total says whether ours beats it)."""
    if check["quantity"] != "strategy_total":
        return f"{check['quantity']} {check['value']} ({check['source']})"
    verdict = "beaten by the strategy in trees/" if check["beaten"] else "not beaten yet"
    return f"best strategy {check['value']} ({check['source']}), {verdict}"


def _status(rules: Rules, checks: list[dict], range_of: Callable[[Rules], str | None]) -> tuple[str, str]:
    """``(status, note)``: agrees / DIFFERS with the typed-in references, else new or in the
    range of a paper whose values are not transcribed."""
    if checks:
        ok = all(c["agrees"] for c in checks)
        return ("agrees" if ok else "DIFFERS"), "; ".join(
            f"{c['quantity']} {c['value']} ({c['source']})" for c in checks
        )
    paper = range_of(rules)
    if paper:
        return NOT_TRANSCRIBED, paper
    return "new", "no published value found"
