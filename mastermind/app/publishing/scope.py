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

from mastermind.core.errors import MastermindError
from mastermind.core.game import Rules
from mastermind.core.variant import BLACK_PEG, STANDARD, Variant

PROOF_MAX_CODES = 2401
"""The largest game whose proven row gets a proof file from ``results`` (4x7: about 5 s of
CPU to write, 11 s to check; bigger games by ``optimal --proof``: benchmarks/bench_proofs.py)."""


def game_id(rules: Rules) -> str:
    """``p4c6`` for a game with repetition, ``p4c10n`` without: a row's name (a variant's
    suffix after it, ``p4c6b``: never the name of a standard game's row).

    >>> from mastermind.app.publishing.scope import game_id
    >>> from mastermind.core.game import Rules
    >>> game_id(Rules.parse("p4c6rb")), game_id(Rules.parse("p4c10nb"))
    ('p4c6b', 'p4c10nb')
    """
    return f"p{rules.pegs}c{rules.colors}" + ("" if rules.repeat else "n") + rules.variant.suffix


def _games(spec: Iterable[tuple[int, Iterable[int], bool]], variant: Variant = STANDARD) -> tuple[str, ...]:
    return tuple(game_id(Rules(p, c, rep, variant)) for p, colours, rep in spec for c in colours)


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


BLACK_PEG_SCOPE = _games(
    [
        (2, range(2, 11), True),
        (3, range(2, 7), True),
        (4, range(2, 5), True),
        (5, range(2, 4), True),
        (6, [2], True),
        (7, [2], True),
        (8, [2], True),
        (3, range(3, 9), False),
        (4, range(4, 7), False),
        (5, range(5, 7), False),
        (6, [6], False),
    ],
    BLACK_PEG,
)
"""The black-peg table's games: those whose row (the optimal total by every first guess, the
optimal worst case, the tie-break, the proof) finished within minutes of one core on the busy
2-core machine. Measured with ``results --table black-peg -j 1 --row-time-limit 150``: 3x7, 4x5
and 5x4 stayed open (3x7 not proven by 240 s of ``optimal``), 3x9n too, and 4x6 is
further out; 3x8n took 126 s with its 1.8 MB proof, 8x2 56 s with its 2.7 MB one, 4x7n
over 4 minutes."""

TABLE_VARIANTS = {"optimal": STANDARD, "game-values": STANDARD, BLACK_PEG.name: BLACK_PEG}
"""The variant of the games each table holds (its rows are named by :func:`game_id`): the
standard game's tables, then each other variant's optimal table, named after the variant."""


def tables_of(rules: Rules) -> tuple[str, ...]:
    """The tables that can hold a row of this game (none: a variant no table publishes).

    >>> from mastermind.app.publishing.scope import tables_of
    >>> from mastermind.core.game import Rules
    >>> tables_of(Rules.parse("p4c6")), tables_of(Rules.parse("p4c6b"))
    (('optimal', 'game-values'), ('black-peg',))
    """
    return tuple(table for table, variant in TABLE_VARIANTS.items() if variant is rules.variant)


def optimal_table(rules: Rules) -> str:
    """The table whose optimal rows hold this game: ``optimal``, or the variant's own table,
    named after it (:attr:`~mastermind.core.variant.Variant.name`, as in :data:`TABLE_VARIANTS`).

    >>> from mastermind.app.publishing.scope import optimal_table
    >>> from mastermind.core.game import Rules
    >>> optimal_table(Rules.parse("p4c6")), optimal_table(Rules.parse("p4c6b"))
    ('optimal', 'black-peg')
    """
    return "optimal" if rules.variant is STANDARD else rules.variant.name


def check_table_games(games: Iterable[str], table: str | None) -> None:
    """Refuse, said of ``--games``, a game that no table asked for can hold: a variant no
    table publishes, or a game of another variant than ``table``'s (None: every table).

    >>> from mastermind.app.publishing.scope import check_table_games
    >>> from mastermind.core.errors import MastermindError
    >>> try:
    ...     check_table_games(["p2c3rb"], "optimal")
    ... except MastermindError as exc:
    ...     print(exc)
    --games: p2c3rb is black-peg Mastermind: its rows go to --table black-peg, not optimal
    """
    for game in games:
        rules = Rules.parse(game)
        holders = tables_of(rules)
        name = rules.variant.name
        if not holders:
            raise MastermindError(f"--games: {game} is {name} Mastermind: no table of results holds it")
        if table is not None and table not in holders:
            kind = "the standard game" if rules.variant is STANDARD else f"{name} Mastermind"
            where = " or ".join(f"--table {t}" for t in holders)
            raise MastermindError(f"--games: {game} is {kind}: its rows go to {where}, not {table}")
