"""The JSON of a game value, the one layout the library's ``Result.to_dict()``, the
``game-value`` command and the publisher of ``results/`` all give."""

from __future__ import annotations

import math
from fractions import Fraction

from mastermind.core.rounding import ceil_float, floor_float


def fraction_text(x: Fraction | int) -> str:
    """An exact number as a fraction, always with its denominator (the one form of every
    ``*_fraction`` key).

    >>> from mastermind.engines.gamevalue.document import Fraction, fraction_text
    >>> fraction_text(Fraction(438, 136)), fraction_text(2)
    ('219/68', '2/1')
    """
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def _exact(x) -> str | None:
    """An exact number as a fraction ("219/68"); None for one a float LP gave (a stopped run)."""
    return fraction_text(x) if isinstance(x, (Fraction, int)) else None


def game_value_document(result) -> dict:
    """The JSON of a game value: the value is an expected number of guesses, an average."""
    rules, game_ = result.rules, result.details
    proven = result.proven
    value = result.value
    upper = value if value is not None and (not isinstance(value, float) or math.isfinite(value)) else None
    lower = result.lower_bound
    if lower is not None and not lower and upper is None:
        lower = None  # (nothing computed yet)
    stopped = result.stopped
    n = rules.n_codes
    return {
        "rules": str(rules),
        "codes": n,
        "proven": proven,
        "average": round(float(value), 6) if proven else None,  # (the fraction is exact)
        "average_fraction": _exact(value) if proven else None,
        "average_lower_bound": floor_float(lower),
        "average_upper_bound": ceil_float(upper),
        "average_lower_bound_fraction": _exact(lower),
        "average_upper_bound_fraction": _exact(upper),
        "uniform_total": game_.uniform_total or None,  # None: a run stopped before it
        "uniform_average": round(game_.uniform_total / n, 6) if game_.uniform_total else None,
        "uniform_average_fraction": _exact(Fraction(game_.uniform_total, n)) if game_.uniform_total else None,
        "maker": [
            {
                "pattern": m.name,
                "codes": m.size,
                "example": rules.code_text(m.example),
                "probability": round(float(m.probability), 6),  # (the fraction is exact)
                "probability_fraction": _exact(m.probability),
                "per_code_fraction": _exact(m.per_code),
            }
            for m in game_.maker
        ],
        "breaker": [
            {
                "weight": round(float(b.weight), 6),
                "weight_fraction": _exact(b.weight),
                "first_guess": rules.code_text(b.tree.root.guess),
                "class_totals": list(b.class_totals),
                **{k: v for k, v in b.stats.to_dict(rules).items() if k != "worst_secrets"},
            }
            for b in game_.breaker
        ],
        "iterations": game_.iterations,
        "stopped": stopped,
        "seconds": round(result.seconds, 3),
    }
