"""Codes that are interchangeable after the first guess.

A symmetry (position permutation, colour permutation) that maps the first guess onto itself
maps each of its answer classes onto itself, so two guesses in one orbit of this
stabiliser split the class alike: scoring one per orbit is enough. Taking the smallest
code of each orbit keeps the "lowest index" tie-break exact, and an orbit lies inside a
class or outside it as a whole, so "prefer a candidate" is kept too.

>>> from mastermind.game import CodeTable, Rules
>>> table = CodeTable(Rules(4, 6))
>>> reps = orbit_minima(table, table.rules.parse_code("1122"))
>>> len(reps), [table.rules.code_text(c) for c in reps[:4]]
(39, ['1111', '1112', '1113', '1121'])
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from mastermind.game import Code, CodeTable
from mastermind.symmetry import apply, position_permutations

MAX_WORK = 60_000_000  # position permutations x codes x pegs: beyond this, no orbits

_CACHE: "weakref.WeakKeyDictionary[CodeTable, dict[Code, np.ndarray | None]]" = weakref.WeakKeyDictionary()


def _index_lookup(table: CodeTable) -> np.ndarray | None:
    """Maps the base-``colors`` number of a code's digits to the code's index."""
    rules = table.rules
    size = rules.colors**rules.pegs
    if rules.repeat:
        return None  # the number is the index
    if size > 50_000_000:
        raise OverflowError
    lookup = np.full(size, -1, dtype=np.int64)
    lookup[_numbers(table.codes, rules.colors)] = np.arange(table.n)
    return lookup


def _numbers(codes: np.ndarray, colors: int) -> np.ndarray:
    out = np.zeros(len(codes), dtype=np.int64)
    for pos in range(codes.shape[1]):
        out = out * colors + codes[:, pos]
    return out


def stabiliser_images(table: CodeTable, guess: Code) -> list[np.ndarray]:
    """Index images of every code under generators of the stabiliser of ``guess``."""
    rules = table.rules
    digits = [int(d) for d in table.codes[guess]]
    used = sorted(set(digits))
    unused = [c for c in range(rules.colors) if c not in used]
    lookup = _index_lookup(table)
    moves = []
    for perm in position_permutations(rules.pegs).tolist():
        # out[i] = cmap[code[perm[i]]] must give the guess back: cmap[guess[perm[i]]] = guess[i]
        forced: dict[int, int] = {}
        if all(forced.setdefault(digits[src], digits[i]) == digits[i] for i, src in enumerate(perm)) \
                and len(set(forced.values())) == len(forced):
            cmap = list(range(rules.colors))
            for have, want in forced.items():
                cmap[have] = want
            moves.append((perm, cmap))
    identity = list(range(rules.pegs))
    for a, b in zip(unused, unused[1:]):  # swapping two unused colours fixes the guess too
        cmap = list(range(rules.colors))
        cmap[a], cmap[b] = b, a
        moves.append((identity, cmap))
    images = []
    for perm, cmap in moves:
        numbers = _numbers(apply(table.codes, perm, cmap), rules.colors)
        images.append(numbers if lookup is None else lookup[numbers])
    return images


def orbit_minima(table: CodeTable, guess: Code) -> np.ndarray | None:
    """The smallest code of every orbit of the stabiliser of ``guess`` (sorted int32), or
    None when the game is too large to enumerate its position permutations. Cached per table."""
    known = _CACHE.setdefault(table, {})
    if guess not in known:
        known[guess] = _orbit_minima(table, guess)
    return known[guess]


def _orbit_minima(table: CodeTable, guess: Code) -> np.ndarray | None:
    rules = table.rules
    if math.factorial(rules.pegs) * table.n * rules.pegs > MAX_WORK:
        return None
    try:
        images = stabiliser_images(table, guess)
    except OverflowError:
        return None
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
