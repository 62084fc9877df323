"""Exact value of a small matrix game: a dense simplex in rational arithmetic.

The row player maximises, the column player minimises ``payoff[row][col]``. With every payoff
positive the game is the linear program ``max sum z  s.t.  payoff @ z <= 1, z >= 0``: its
optimum is ``1 / value``, ``z * value`` is the column player's mix and the dual prices of the
rows, times the value, are the row player's mix. Bland's rule keeps the simplex from cycling.

>>> from mastermind.engines.gamevalue.rational import solve_matrix_game
>>> v, rows, cols = solve_matrix_game([[3, 1], [1, 3]])  # matching pennies, shifted
>>> v, rows, cols
(Fraction(2, 1), [Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)])
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from mastermind.core.errors import MastermindError

Number = int | Fraction


def solve_matrix_game(
    payoff: Sequence[Sequence[Number]],
) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """``(value, row mix, column mix)`` of the zero-sum game, exactly."""
    n_rows = len(payoff)
    n_cols = len(payoff[0]) if n_rows else 0
    if n_rows == 0 or n_cols == 0 or any(len(r) != n_cols for r in payoff):
        raise MastermindError("a matrix game needs a non-empty rectangular payoff matrix")
    a = [[Fraction(x) for x in row] for row in payoff]
    shift = 1 - min(min(row) for row in a)  # makes every entry at least 1
    shift = max(shift, Fraction(0))
    if shift:
        a = [[x + shift for x in row] for row in a]

    # tableau rows: [A | I | 1]; objective row: [-1 ... -1 | 0 ... 0 | 0]
    width = n_cols + n_rows
    tab = [row + [Fraction(int(i == r)) for i in range(n_rows)] + [Fraction(1)] for r, row in enumerate(a)]
    obj = [Fraction(-1)] * n_cols + [Fraction(0)] * n_rows + [Fraction(0)]
    basis = [n_cols + r for r in range(n_rows)]
    while True:
        entering = next((j for j in range(width) if obj[j] < 0), None)
        if entering is None:
            break
        best = None
        for r in range(n_rows):
            if tab[r][entering] > 0:
                ratio = tab[r][-1] / tab[r][entering]
                if best is None or ratio < best[0] or (ratio == best[0] and basis[r] < basis[best[1]]):
                    best = (ratio, r)
        if best is None:  # pragma: no cover - impossible with positive payoffs
            raise AssertionError("unbounded matrix game LP")
        r = best[1]
        pivot = tab[r][entering]
        tab[r] = [x / pivot for x in tab[r]]
        for other in range(n_rows):
            f = tab[other][entering]
            if other != r and f:
                tab[other] = [x - f * y for x, y in zip(tab[other], tab[r])]
        f = obj[entering]
        obj = [x - f * y for x, y in zip(obj, tab[r])]
        basis[r] = entering
    total = obj[-1]
    value = 1 / total
    cols = [Fraction(0)] * n_cols
    for r, j in enumerate(basis):
        if j < n_cols:
            cols[j] = tab[r][-1] * value
    rows = [obj[n_cols + r] * value for r in range(n_rows)]
    return value - shift, rows, cols
