"""Codes that are interchangeable given the guesses made so far.

A symmetry (position permutation, colour permutation) that maps every guess made so far
onto itself maps the set of secrets consistent with their answers onto itself, so two
guesses in one orbit of this stabiliser split that set alike: scoring one per orbit is
enough. Taking the smallest code of each orbit keeps the "lowest index" tie-break exact,
and an orbit lies inside the candidate set or outside it as a whole, so "prefer a
candidate" is kept too.

>>> from mastermind.engines.heuristics.orbits import orbit_minima
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(4, 6))
>>> reps = orbit_minima(table, [table.rules.parse_code("1122")])
>>> len(reps), [table.rules.code_text(c) for c in reps[:4]]
(39, ['1111', '1112', '1113', '1122'])
"""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from collections.abc import Iterable

import numpy as np

from mastermind.core.game import Code, CodeTable
from mastermind.core.symmetry import canonical_codes, free_colours, full_group, restrict_group

MAX_PERMUTATIONS = 5040  # pegs! beyond this (8 pegs and more) no orbits are computed
CACHE_SIZE = 256  # guess sets remembered per table

_CACHE: weakref.WeakKeyDictionary[CodeTable, OrderedDict] = weakref.WeakKeyDictionary()


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
    if math.factorial(rules.pegs) > MAX_PERMUTATIONS:
        return None
    perms, cmaps = full_group(rules)
    for g in guesses:
        perms, cmaps = restrict_group(perms, cmaps, table.codes[g])
    if len(perms) == 1 and len(free_colours(cmaps)) <= 1:
        return None  # only the identity fixes the guesses
    # canonical = no symmetry maps the code to a smaller one = the smallest of its orbit
    return canonical_codes(table.codes, perms, cmaps)
