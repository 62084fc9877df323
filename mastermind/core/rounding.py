"""Numbers as people read them: a bound never rounds past what is proven (a lower bound is
rounded down, an upper bound up), in text and in JSON alike."""

from __future__ import annotations

import math
from fractions import Fraction


def floor_decimal(x: float | Fraction, digits: int = 4) -> str:
    """A lower bound as a decimal, rounded down (what is printed is still a lower bound).

    >>> from mastermind.core.rounding import Fraction, ceil_decimal, floor_decimal
    >>> floor_decimal(Fraction(5442, 1296)), ceil_decimal(Fraction(5442, 1296))
    ('4.1990', '4.1991')
    """
    return _fixed(math.floor(_exact(x) * 10**digits), digits)


def ceil_decimal(x: float | Fraction, digits: int = 4) -> str:
    """An upper bound as a decimal, rounded up."""
    return _fixed(math.ceil(_exact(x) * 10**digits), digits)


def _fixed(q: int, digits: int) -> str:
    """``q / 10**digits`` written with ``digits`` decimals (exactly, no float on the way)."""
    whole, frac = divmod(abs(q), 10**digits)
    sign = "-" if q < 0 else ""
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"


def floor_float(x: float | Fraction | None, digits: int = 6) -> float | None:
    """A lower bound for JSON: rounded down to ``digits`` decimals."""
    return None if x is None else float(floor_decimal(x, digits))


def ceil_float(x: float | Fraction | None, digits: int = 6) -> float | None:
    """An upper bound for JSON: rounded up to ``digits`` decimals."""
    return None if x is None else float(ceil_decimal(x, digits))


def _exact(x: float | Fraction) -> Fraction:
    """A float as the decimal it prints as (4.379008, not the binary 4.3790079999...), so that
    a bound already rounded outwards is not rounded again; a fraction as it is."""
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)
