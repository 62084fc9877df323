"""The proof file of a game value: the maker's mix as a whole number a code (its
probabilities times their common denominator D), the claim that no strategy takes fewer than
``V * D`` guesses weighted by it (a certificate of weighted facts, written by the proof pass
of the exact search, :mod:`mastermind.engines.exact.certify`) and the breaker's mix, which
the checker replays against every class of secrets. ``mastermind verify`` checks it
(``docs/proofs.md``).

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.gamevalue import game_value
>>> from mastermind.engines.gamevalue.proof import game_value_proof
>>> table = CodeTable(Rules(2, 2))
>>> proof = game_value_proof(table, game_value(table, solver="search"))
>>> proof["version"], proof["game_value"], proof["weights"], proof["total"]
(2, '2/1', [1, 1, 1, 1], 8)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.engines.gamevalue.bestreply import weighted_value
from mastermind.engines.gamevalue.classes import code_classes
from mastermind.engines.gamevalue.document import fraction_text


def game_claims(table: CodeTable, result: Any) -> tuple[Any, int, Any]:
    """The file's claims of a proven game value ``result``: (:class:`GameClaims`, the
    weighted total ``V * D``, a tree of the breaker's mix that meets it, else None)."""
    from mastermind.engines.exact import GameClaims

    if not result.proven or not isinstance(result.value, Fraction):
        raise MastermindError("a proof needs a proven game value")
    classes = code_classes(table)
    per_code = {m.name: Fraction(m.per_code) for m in result.details.maker}
    shares = [per_code.get(name, Fraction(0)) for name in classes.names]
    scale = math.lcm(*(p.denominator for p in shares))
    weights = [int(shares[k] * scale) for k in classes.of_code.tolist()]
    total = result.value * sum(weights)
    if total.denominator != 1:  # (a best reply's weighted total is whole: this cannot be)
        raise MastermindError(
            f"the game value {result.value} times the weights' sum {sum(weights)} is not whole"
        )
    mix = [(fraction_text(b.weight), b.tree.root) for b in result.details.breaker]
    strategy = next(
        (b.tree.root for b in result.details.breaker if weighted_value(table, b.tree, weights) == total), None
    )
    return GameClaims(weights, fraction_text(result.value), mix), int(total), strategy


def game_value_proof(
    table: CodeTable, result: Any, memory: int | None = None, token: CancelToken | None = None
) -> dict[str, Any]:
    """The proof file (held whole) of the proven game value ``result``."""
    from mastermind.engines.exact import prove_weighted

    claims, total, strategy = game_claims(table, result)
    return prove_weighted(table, claims, total, strategy, memory, token)


def write_game_value_proof(
    write: Callable[[str], None],
    table: CodeTable,
    result: Any,
    memory: int | None = None,
    token: CancelToken | None = None,
) -> dict[str, Any]:
    """:func:`game_value_proof`'s text given to ``write`` piece by piece as its facts are
    made; answers its ``total`` and count of ``facts``."""
    from mastermind.engines.exact import write_weighted_proof

    claims, total, strategy = game_claims(table, result)
    return write_weighted_proof(write, table, claims, total, strategy, memory, token)
