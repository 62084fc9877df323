"""numba kernels of the symmetry group; each has a pure-Python twin in
:mod:`mastermind.core.symmetry` that the tests compare."""

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def restrict_group_kernel(perms, cmaps, guess):  # pragma: no cover - compiled
    """Twin of :func:`mastermind.core.symmetry.restrict_group_reference`."""
    k, p = perms.shape
    c = cmaps.shape[1]
    used = np.zeros(c, dtype=np.bool_)
    for col in range(c):
        used[col] = cmaps[0, col] >= 0
    new = cmaps.copy()
    keep = np.zeros(k, dtype=np.bool_)
    for e in range(k):
        ok = True
        for j in range(p):
            a = guess[perms[e, j]]
            b = guess[j]
            t = new[e, a]
            if t >= 0:
                if t != b:
                    ok = False
            else:
                if used[b]:
                    ok = False
                else:
                    for col in range(c):
                        if new[e, col] == b:
                            ok = False
                    new[e, a] = b
            if not ok:
                break
        keep[e] = ok
    return keep, new


@nb.njit(cache=True, nogil=True)
def stabilizer_mask(codes, lookup, values, perms, colour_perms, colors):  # pragma: no cover
    """``out[e, f]``: (position perm e, colour perm f) keeps ``values`` of every code."""
    n, p = codes.shape
    out = np.zeros((perms.shape[0], colour_perms.shape[0]), dtype=np.bool_)
    for e in range(perms.shape[0]):
        for f in range(colour_perms.shape[0]):
            good = True
            for i in range(n):
                flat = 0
                for j in range(p):
                    flat = flat * colors + colour_perms[f, codes[i, perms[e, j]]]
                image = lookup[flat]
                if image < 0 or values[image] != values[i]:
                    good = False
                    break
            out[e, f] = good
    return out


@nb.njit(cache=True, nogil=True)
def canonical_mask_blocks(codes, perms, cmaps, block, block_colours):  # pragma: no cover
    """``out[i]``: no group element maps code i to a lexicographically smaller code, where
    the group is the listed elements times every permutation inside each block of colours
    (``block[col]`` >= 0; ``block_colours[b]`` lists block b ascending, -1 padded).
    A colour without a map (free) stays put before its block renames it.

    Twin of :func:`mastermind.core.symmetry.is_canonical_reference`."""
    n, p = codes.shape
    k = perms.shape[0]
    c = cmaps.shape[1]
    n_blocks = block_colours.shape[0]
    out = np.ones(n, dtype=np.bool_)
    rename = np.empty(c, dtype=np.int8)
    used = np.empty(max(n_blocks, 1), dtype=np.int64)
    for i in range(n):
        for e in range(k):
            for col in range(c):
                rename[col] = -1
            for bl in range(n_blocks):
                used[bl] = 0
            cmp = 0
            for j in range(p):
                a = codes[i, perms[e, j]]
                b = cmaps[e, a]
                if b < 0:
                    b = a
                bl = block[b]
                if bl >= 0:
                    r = rename[b]
                    if r < 0:
                        r = block_colours[bl, used[bl]]
                        used[bl] += 1
                        rename[b] = r
                    b = r
                x = codes[i, j]
                if b < x:
                    cmp = -1
                    break
                if b > x:
                    cmp = 1
                    break
            if cmp < 0:
                out[i] = False
                break
    return out


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
