"""The games each table of ``results/`` covers (issue 17), and the frontier beyond quick reach.

>>> from mastermind.app.publishing.scope import game_id, scope_rules
>>> from mastermind.core.game import Rules
>>> game_id(Rules.parse("p4c6r")), game_id(Rules.parse("p4c10n"))
('p4c6', 'p4c10n')
>>> [game_id(r) for r in scope_rules(["p3c2", "p2c9", "p4c4n"])]
['p3c2', 'p4c4n', 'p2c9']
"""

from __future__ import annotations

from collections.abc import Iterable

from mastermind.core.game import Rules


def game_id(rules: Rules) -> str:
    """``p4c6`` for a game with repetition, ``p4c10n`` without: a row's name (a variant's
    suffix after it, ``p4c6b``: never the name of a standard game's row).

    >>> from mastermind.app.publishing.scope import game_id
    >>> from mastermind.core.game import Rules
    >>> game_id(Rules.parse("p4c6rb")), game_id(Rules.parse("p4c10nb"))
    ('p4c6b', 'p4c10nb')
    """
    return f"p{rules.pegs}c{rules.colors}" + ("" if rules.repeat else "n") + rules.variant.suffix


def _games(spec: Iterable[tuple[int, Iterable[int], bool]]) -> tuple[str, ...]:
    return tuple(game_id(Rules(p, c, rep)) for p, colours, rep in spec for c in colours)


OPTIMAL_SCOPE = _games(
    [
        (2, range(2, 11), True),
        (3, range(2, 11), True),
        (4, range(2, 9), True),
        (5, range(2, 6), True),
        (6, range(2, 5), True),
        (7, range(2, 4), True),
        (8, [2], True),
        (3, range(3, 11), False),
        (4, range(4, 11), False),
        (5, range(5, 8), False),
        (6, range(6, 8), False),
    ]
)
# out of reach without the checkpointed search: published as open rows with quick bounds
FRONTIER = ("p4c9", "p5c6", "p6c5", "p5c8n", "p6c7n", "p6c8n", "p5c8")
GAME_VALUE_SCOPE = _games(
    [
        (2, range(2, 11), True),
        (3, range(2, 9), True),
        (4, range(2, 7), True),
        (5, range(2, 5), True),
    ]
)


def scope_rules(games: Iterable[str]) -> list[Rules]:
    """The games as rules, smallest first (codes, then pegs), each once."""
    rules = {game_id(r): r for r in (Rules.parse(g) for g in games)}
    return sorted(rules.values(), key=lambda r: (r.n_codes, r.pegs, r.colors, r.repeat))
