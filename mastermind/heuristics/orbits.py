"""Codes that are interchangeable given the guesses made so far.

A symmetry (position permutation, colour permutation) that maps every guess made so far
onto itself maps the set of secrets consistent with their answers onto itself, so two
guesses in one orbit of this stabiliser split that set alike: scoring one per orbit is
enough. Taking the smallest code of each orbit keeps the "lowest index" tie-break exact,
and an orbit lies inside the candidate set or outside it as a whole, so "prefer a
candidate" is kept too.

>>> from mastermind.game import CodeTable, Rules
>>> table = CodeTable(Rules(4, 6))
>>> reps = orbit_minima(table, [table.rules.parse_code("1122")])
>>> len(reps), [table.rules.code_text(c) for c in reps[:4]]
(39, ['1111', '1112', '1113', '1122'])
"""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from typing import Iterable

import numpy as np

from mastermind.game import Code, CodeTable
from mastermind.symmetry import apply, position_permutations

MAX_PERMUTATIONS = 5040  # pegs! beyond this (8 pegs and more) no orbits are computed
MAX_LOOKUP = 50_000_000  # base-colours numbers of codes without repetition
CACHE_SIZE = 256  # guess sets remembered per table

_CACHE: "weakref.WeakKeyDictionary[CodeTable, OrderedDict]" = weakref.WeakKeyDictionary()


def _numbers(codes: np.ndarray, colors: int) -> np.ndarray:
    out = np.zeros(len(codes), dtype=np.int64)
    for pos in range(codes.shape[1]):
        out = out * colors + codes[:, pos]
    return out


def _index_lookup(table: CodeTable) -> np.ndarray | None:
    """Maps the base-``colors`` number of a code's digits to the code's index (None: the
    number is the index, as with repetition)."""
    rules = table.rules
    if rules.repeat:
        return None
    lookup = np.full(rules.colors**rules.pegs, -1, dtype=np.int64)
    lookup[_numbers(table.codes, rules.colors)] = np.arange(table.n)
    return lookup


def _closure(moves: list[tuple[tuple, tuple]]) -> set[tuple]:
    """Every product of the moves: (g then h) acts as perm g[h], colour map h[g]."""
    seen = set(moves)
    frontier = list(moves)
    while frontier:
        p1, c1 = frontier.pop()
        for p2, c2 in moves:
            item = (tuple(p1[i] for i in p2), tuple(c2[c] for c in c1))
            if item not in seen:
                seen.add(item)
                frontier.append(item)
    return seen


def stabiliser_generators(table: CodeTable, guesses: Iterable[Code]) -> list[tuple[tuple, tuple]]:
    """Generators (position permutation, colour map) of the symmetries fixing every guess.

    A symmetry acts as ``out[i] = cmap[code[perm[i]]]``. The position permutations that
    fix the guesses, each with the colour map it forces (identity on colours no guess
    uses), are added while they are new to the group generated so far; then swaps of
    neighbouring unused colours. Empty when only the identity fixes the guesses.
    """
    rules = table.rules
    rows = [[int(d) for d in table.codes[g]] for g in guesses]
    used = sorted({d for row in rows for d in row})
    unused = [c for c in range(rules.colors) if c not in used]
    moves: list[tuple[tuple, tuple]] = []
    group: set[tuple] = set()
    identity = tuple(range(rules.pegs))
    for perm in position_permutations(rules.pegs).tolist():
        # cmap[guess[perm[i]]] must be guess[i] for every guess and position
        forced: dict[int, int] = {}
        if not all(forced.setdefault(row[src], row[i]) == row[i]
                   for row in rows for i, src in enumerate(perm)):
            continue
        if len(set(forced.values())) != len(forced):
            continue
        cmap = list(range(rules.colors))
        for have, want in forced.items():
            cmap[have] = want
        move = (tuple(perm), tuple(cmap))
        if move not in group and move != (identity, tuple(range(rules.colors))):
            moves.append(move)
            group = _closure(moves)
    for a, b in zip(unused, unused[1:]):
        cmap = list(range(rules.colors))
        cmap[a], cmap[b] = b, a
        moves.append((identity, tuple(cmap)))
    return moves


def orbit_minima(table: CodeTable, guesses: Iterable[Code]) -> np.ndarray | None:
    """The smallest code of every orbit of the symmetries fixing all ``guesses`` (sorted
    int32), or None when only the identity fixes them or the game is too large. Cached."""
    key = tuple(sorted({int(g) for g in guesses}))
    known = _CACHE.setdefault(table, OrderedDict())
    if key in known:
        known.move_to_end(key)
        return known[key]
    result = _orbit_minima(table, key)
    known[key] = result
    if len(known) > CACHE_SIZE:
        known.popitem(last=False)
    return result


def _orbit_minima(table: CodeTable, guesses: tuple[Code, ...]) -> np.ndarray | None:
    rules = table.rules
    if math.factorial(rules.pegs) > MAX_PERMUTATIONS or (
            not rules.repeat and rules.colors**rules.pegs > MAX_LOOKUP):
        return None
    moves = stabiliser_generators(table, guesses)
    if not moves:
        return None
    lookup = _index_lookup(table)
    images = []
    for perm, cmap in moves:
        numbers = _numbers(apply(table.codes, perm, cmap), rules.colors)
        images.append(numbers if lookup is None else lookup[numbers])
    label = np.arange(table.n, dtype=np.int64)
    changed = True
    while changed:  # every generator is a permutation: forward steps reach the whole orbit
        changed = False
        for image in images:
            pulled = np.minimum(label, label[image])
            if not np.array_equal(pulled, label):
                label, changed = pulled, True
        label = label[label]  # jump to the label's label: fewer rounds
    return np.flatnonzero(label == np.arange(table.n)).astype(np.int32)
