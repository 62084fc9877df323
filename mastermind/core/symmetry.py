"""Colour and position permutations of codes, colour patterns and canonical guesses.

A symmetry of Mastermind is a pair (position permutation, colour permutation); applied to
both the secret and the guess it leaves the feedback unchanged, so codes in one orbit are
interchangeable as first guesses and as secrets. Which of them a game keeps is its variant's
(:attr:`~mastermind.core.variant.Variant.permutes_pegs`,
:attr:`~mastermind.core.variant.Variant.permutes_colours`; the standard game and black-peg
Mastermind keep both): the group of a variant that keeps neither is the identity alone.

>>> from mastermind.core.symmetry import pattern
>>> from mastermind.core.game import Rules
>>> r = Rules(4, 6)
>>> pattern(r.code_digits(r.parse_code("3632")))
'aabc'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations

import numpy as np

from mastermind.core.game import Code, Rules


def pattern(digits: Sequence[int]) -> str:
    """The colour pattern of a code: multiplicities in descending order, as letters.

    ``aabc`` is a code with one colour twice and two other colours once each.
    """
    counts = sorted((list(digits).count(c) for c in set(digits)), reverse=True)
    return "".join(chr(ord("a") + i) * m for i, m in enumerate(counts))


def code_patterns(rules: Rules, codes: np.ndarray) -> list[str]:
    """The pattern of every row of an int8 code array."""
    return [pattern(tuple(row)) for row in codes.tolist()]


def canonical_first_guesses(rules: Rules) -> list[Code]:
    """The smallest code of each orbit under all colour and position permutations.

    Under the full group a code's orbit is fixed by its pattern, and the smallest member
    colours the largest block 1, the next 2, and so on: 1111, 1112, 1122, 1123, 1234. A
    variant that keeps fewer symmetries has the canonical codes of its smaller group.
    """
    if not (rules.variant.permutes_pegs and rules.variant.permutes_colours):
        return canonical_codes(rules.codes_array(), *full_group(rules)).tolist()
    if not rules.repeat:
        return [rules.code_from_digits(range(rules.pegs))]
    result = []
    for parts in integer_partitions(rules.pegs, rules.colors):
        digits = [colour for colour, size in enumerate(parts) for _ in range(size)]
        result.append(rules.code_from_digits(digits))
    return sorted(result)


def integer_partitions(n: int, max_parts: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Partitions of n into at most ``max_parts`` parts, parts in descending order."""
    largest = n if largest is None else largest
    if n == 0:
        return [()]
    if max_parts == 0:
        return []
    out = []
    for first in range(min(n, largest), 0, -1):
        for rest in integer_partitions(n - first, max_parts - 1, first):
            out.append((first, *rest))
    return out


def position_permutations(pegs: int) -> np.ndarray:
    """Every permutation of the positions, shape (pegs!, pegs)."""
    return np.array(list(permutations(range(pegs))), dtype=np.int8).reshape(-1, pegs)


def apply(codes: np.ndarray, position_perm: Sequence[int], colour_perm: Sequence[int]) -> np.ndarray:
    """Map codes (int8 rows of 0-based colours): ``out[:, i] = colour_perm[codes[:, position_perm[i]]]``."""
    cp = np.asarray(colour_perm, dtype=np.int8)
    return cp[codes[:, list(position_perm)]]


# ---- the group that fixes the guesses made so far ------------------------------------------
#
# A group is stored as ``(perms, cmaps)``: row e is the symmetry (position permutation
# ``perms[e]``, colour map ``cmaps[e]``) acting as ``out[i] = cmap[code[perm[i]]]``.
# ``cmaps[e, col] == -1`` marks a *free* colour: the group holds every permutation of the free
# colours on top of the listed elements, so colours never guessed need no enumeration.
# Every element maps the used colours (those with a map) onto themselves.


def full_group(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The whole symmetry group of the game: every position permutation, every colour free.

    >>> from mastermind.core.game import Rules
    >>> from mastermind.core.symmetry import full_group
    >>> perms, cmaps = full_group(Rules(3, 4))
    >>> perms.shape, int(cmaps.max())
    ((6, 3), -1)
    """
    perms = _position_group(rules)
    if rules.variant.permutes_colours:
        cmaps = np.full((len(perms), rules.colors), -1, dtype=np.int8)
    else:  # every colour mapped to itself
        cmaps = np.tile(np.arange(rules.colors, dtype=np.int8), (len(perms), 1))
    return perms, cmaps


def _position_group(rules: Rules) -> np.ndarray:
    """The position permutations the game's variant keeps: all, or the identity."""
    if rules.variant.permutes_pegs:
        return position_permutations(rules.pegs)
    return np.arange(rules.pegs, dtype=np.int8)[None, :]


def restrict_group_reference(
    perms: np.ndarray, cmaps: np.ndarray, guess: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The elements that map ``guess`` (0-based colours) onto itself, with their colour maps
    extended to the guess's colours. Pure-Python twin of the numba kernel.

    >>> from mastermind.core.game import Rules
    >>> from mastermind.core.symmetry import full_group, restrict_group_reference
    >>> perms, cmaps = full_group(Rules(4, 6))
    >>> keep, new = restrict_group_reference(perms, cmaps, (0, 0, 1, 2))
    >>> int(keep.sum()), new[keep][:, :3].tolist()
    (4, [[0, 1, 2], [0, 2, 1], [0, 1, 2], [0, 2, 1]])
    """
    used = cmaps[0] >= 0
    keep = np.zeros(len(perms), dtype=bool)
    new = cmaps.copy()
    for e in range(len(perms)):
        cmap = new[e]
        ok = True
        for j in range(len(guess)):
            a, b = guess[perms[e, j]], guess[j]
            if cmap[a] >= 0:
                ok = cmap[a] == b
            else:
                # a free colour may only go to a colour not used before and not yet taken
                ok = not used[b] and b not in cmap.tolist()
                cmap[a] = b
            if not ok:
                break
        keep[e] = ok
    return keep, new


def restrict_group(
    perms: np.ndarray, cmaps: np.ndarray, guess: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The subgroup fixing ``guess`` (0-based colours), as a new ``(perms, cmaps)``."""
    from mastermind.core._symmetry_kernels import restrict_group_kernel

    keep, new = restrict_group_kernel(perms, cmaps, np.asarray(guess, dtype=np.int8))
    return perms[keep], new[keep]


def free_colours(cmaps: np.ndarray) -> np.ndarray:
    """The colours no guess has used yet (interchangeable under the group), ascending."""
    return np.flatnonzero(cmaps[0] < 0).astype(np.int8)


def colour_blocks(cmaps: np.ndarray, absent: Sequence[int] = ()) -> list[list[int]]:
    """Sets of colours the group may permute freely: the free colours, and the ``absent``
    colours (in no remaining candidate, so they never score); merged when they overlap,
    since the two symmetric groups then generate the one on the union."""
    free = set(free_colours(cmaps).tolist())
    absent_set = set(int(a) for a in absent)
    if free & absent_set:
        return [sorted(free | absent_set)]
    return [sorted(b) for b in (free, absent_set) if len(b) > 0]


def is_canonical_reference(
    digits: Sequence[int], perms: np.ndarray, cmaps: np.ndarray, absent: Sequence[int] = ()
) -> bool:
    """True when no group element maps the code to a lexicographically smaller one.

    The group: the listed elements times every permutation within each colour block (see
    :func:`colour_blocks`). The smallest image a block's permutations give renames its
    colours in order of first appearance to the block's smallest colours.

    >>> from mastermind.core.game import Rules
    >>> from mastermind.core.symmetry import full_group, is_canonical_reference
    >>> r = Rules(4, 6)
    >>> perms, cmaps = full_group(r)
    >>> [r.code_text(c) for c in range(r.n_codes)
    ...  if is_canonical_reference(r.code_digits(c), perms, cmaps)]
    ['1111', '1112', '1122', '1123', '1234']
    """
    blocks = colour_blocks(cmaps, absent)
    block_of = {col: i for i, b in enumerate(blocks) for col in b}
    code = list(digits)
    for e in range(len(perms)):
        rename: dict[int, int] = {}
        taken = [0] * len(blocks)
        image = []
        for j in range(len(code)):
            a = code[perms[e, j]]
            b = int(cmaps[e, a])
            if b < 0:
                b = a
            if b in block_of:
                if b not in rename:
                    i = block_of[b]
                    rename[b] = blocks[i][taken[i]]
                    taken[i] += 1
                b = rename[b]
            image.append(b)
        if image < code:
            return False
    return True


def canonical_codes(
    codes: np.ndarray, perms: np.ndarray, cmaps: np.ndarray, absent: Sequence[int] = ()
) -> np.ndarray:
    """Indices of the codes (rows of ``codes``) that are canonical under the group."""
    return np.flatnonzero(canonical_mask(codes, perms, cmaps, absent)).astype(np.int32)


def canonical_mask(
    codes: np.ndarray, perms: np.ndarray, cmaps: np.ndarray, absent: Sequence[int] = ()
) -> np.ndarray:
    """Boolean mask of the canonical codes (see :func:`is_canonical_reference`)."""
    from mastermind.core._symmetry_kernels import canonical_mask_blocks

    c = cmaps.shape[1]
    blocks = colour_blocks(cmaps, absent)
    block = np.full(c, -1, dtype=np.int8)
    table = np.full((max(1, len(blocks)), c), -1, dtype=np.int8)
    for i, b in enumerate(blocks):
        block[b] = i
        table[i, : len(b)] = b
    return canonical_mask_blocks(codes, perms, cmaps, block, table[: len(blocks)] if blocks else table[:0])


def all_colour_permutations(colors: int) -> np.ndarray:
    """Every permutation of the colours, shape (colors!, colors)."""
    return np.array(list(permutations(range(colors))), dtype=np.int8).reshape(-1, colors)


def code_lookup(rules: Rules, codes: np.ndarray) -> np.ndarray:
    """Index of every digit tuple read in base ``colors`` (-1 where it is not a code)."""
    c, p = rules.colors, rules.pegs
    lookup = np.full(c**p, -1, dtype=np.int32)
    flat = np.zeros(len(codes), dtype=np.int64)
    for pos in range(p):
        flat = flat * c + codes[:, pos]
    lookup[flat] = np.arange(len(codes), dtype=np.int32)
    return lookup


MAX_STABILIZER_WORK = 50_000_000


def stabilizer_group(rules: Rules, codes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The symmetries that keep ``values`` (one number per code; e.g. weights, with -1 for
    codes outside the candidate set) unchanged, as a group with every colour mapped.

    For games whose full group is too large to enumerate it falls back to the identity,
    which is always correct (only slower to search).

    >>> import numpy as np
    >>> from mastermind.core.game import Rules
    >>> from mastermind.core.symmetry import stabilizer_group
    >>> r = Rules(2, 3)
    >>> perms, cmaps = stabilizer_group(r, r.codes_array(), np.arange(9.0))
    >>> len(perms)
    1
    """
    p, c = rules.pegs, rules.colors
    identity = (np.arange(p, dtype=np.int8)[None, :], np.arange(c, dtype=np.int8)[None, :])
    work = math.factorial(p) * math.factorial(c)
    if c > 9 or work * 4 > MAX_STABILIZER_WORK or c**p > 50_000_000:
        return identity
    from mastermind.core._symmetry_kernels import stabilizer_mask

    perms = _position_group(rules)
    colour_perms = all_colour_permutations(c) if rules.variant.permutes_colours else identity[1]
    lookup = code_lookup(rules, codes)
    values = np.asarray(values, dtype=np.float64)
    # values kept by generators of the whole group (a swap and a cycle of the positions, of
    # the colours) are kept by all of it: skip checking every element (the game value asks
    # this of every best reply, with weights equal within pattern classes)
    peg_gens = _generators(p) if rules.variant.permutes_pegs else perms
    colour_gens = _generators(c) if rules.variant.permutes_colours else colour_perms
    if stabilizer_mask(codes, lookup, values, peg_gens, colour_gens, np.int64(c)).all():
        return np.repeat(perms, len(colour_perms), axis=0), np.tile(colour_perms, (len(perms), 1))
    mask = stabilizer_mask(codes, lookup, values, perms, colour_perms, np.int64(c))
    pi, ci = np.nonzero(mask)
    return perms[pi].copy(), colour_perms[ci].copy()


def _generators(n: int) -> np.ndarray:
    """The identity, a swap and an n-cycle of range(n): the last two generate every permutation."""
    ident = np.arange(n, dtype=np.int8)
    rows = [ident]
    if n >= 2:
        rows += [np.concatenate([ident[1::-1], ident[2:]]), np.roll(ident, 1)]
    return np.stack(rows)


def stabilizer_reference(rules: Rules, values: Sequence[float]) -> int:
    """Size of the stabilizer of ``values`` by brute force (for tests)."""
    codes = rules.codes_array()
    index = {tuple(row): i for i, row in enumerate(codes.tolist())}
    size = 0
    for perm in permutations(range(rules.pegs)):
        for cperm in permutations(range(rules.colors)):
            image = apply(codes, perm, cperm)
            if all(values[index[tuple(row)]] == values[i] for i, row in enumerate(image.tolist())):
                size += 1
    return size
