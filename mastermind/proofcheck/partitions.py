"""The checker's inner loops: how many secrets of a set give each answer to each guess, and
the orbits of the codes under a group given by generators. Each is compiled with numba and
has a plain-Python twin, the reference the tests hold the compiled one to. The compiled ones
read the answer of secret s to guess g as ``answers[s, g]`` (the table is symmetric: the
score of g against s is that of s against g): weighing every guess on a small set then reads
the set's few rows from end to end, not one row of the table a guess; the most classes and
the guesses' values are then read off the counts of each guess's classes.

>>> import numpy as np
>>> from mastermind.proofcheck.partitions import class_counts_reference, orbit_minima_reference
>>> answers = np.array([[2, 0], [0, 2]], dtype=np.uint8)
>>> class_counts_reference(answers, np.array([0, 1]), np.array([1]), 3).tolist()
[[1, 0, 1]]
>>> orbit_minima_reference(np.array([[1, 0, 2]])).tolist()
[0, 0, 2]
"""

from __future__ import annotations

import numba as nb
import numpy as np

from mastermind.proofcheck.bounds import weighted_floor


def class_counts_reference(
    answers: np.ndarray, secrets: np.ndarray, guesses: np.ndarray, n_answers: int
) -> np.ndarray:
    """``counts[k, a]``: the secrets that answer ``a`` to ``guesses[k]``."""
    counts = np.zeros((len(guesses), n_answers), dtype=np.int64)
    for k, g in enumerate(guesses.tolist()):
        for s in secrets.tolist():
            counts[k, answers[g, s]] += 1
    return counts


@nb.njit(cache=True)
def class_counts(answers, secrets, guesses, n_answers):  # pragma: no cover - compiled
    """Compiled twin of :func:`class_counts_reference` (the set's rows read one after the
    other, each at every guess: a guess's counts are a short row, where reading a guess's
    answers from the set's rows would jump from row to row)."""
    counts = np.zeros((guesses.shape[0], n_answers), dtype=np.int32)
    for j in range(secrets.shape[0]):
        row = answers[secrets[j]]
        for k in range(guesses.shape[0]):
            counts[k, row[guesses[k]]] += 1
    return counts


def orbit_minima_reference(maps: np.ndarray) -> np.ndarray:
    """For every code, the least code of its orbit under the group the rows of ``maps``
    generate (row: the image of every code under one generator)."""
    n = maps.shape[1]
    least = list(range(n))
    changed = True
    while changed:  # each code takes the least label of its images, until nothing moves
        changed = False
        for row in maps.tolist():
            for x in range(n):
                low = min(least[x], least[row[x]])
                if low < least[x] or low < least[row[x]]:
                    least[x] = least[row[x]] = low
                    changed = True
    return np.array(least, dtype=np.int64)


@nb.njit(cache=True)
def _root(parent, x):  # pragma: no cover - compiled
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@nb.njit(cache=True)
def orbit_minima(maps):  # pragma: no cover - compiled
    """Compiled twin of :func:`orbit_minima_reference` (union-find, the least code the root)."""
    n = maps.shape[1]
    parent = np.arange(n)
    for e in range(maps.shape[0]):
        for x in range(n):
            a = _root(parent, x)
            b = _root(parent, maps[e, x])
            if a < b:
                parent[b] = a
            elif b < a:
                parent[a] = b
    out = np.empty(n, dtype=np.int64)
    for x in range(n):
        out[x] = _root(parent, x)
    return out


def member_bounds_reference(
    answers: np.ndarray, secrets: np.ndarray, guesses: np.ndarray, b: int, win: int, n_answers: int
) -> np.ndarray:
    """``out[k, a]``: a lower bound on the total of the class of secrets answering ``a`` to
    ``guesses[k]``, for classes of three or more (0 for the others). Every class C of a set
    costs at least 2|C| - 1 (one secret at most is found with one guess), so a first guess
    on a class of m that is one of its secrets and splits the others into c classes leaves at
    least m + 2(m - 1) - c, and one that is none of them at least m + 2m - min(m, b)."""
    out = np.zeros((len(guesses), n_answers), dtype=np.int64)
    for k, g in enumerate(guesses.tolist()):
        for a in range(n_answers):
            part = [s for s in secrets.tolist() if answers[g, s] == a]
            m = len(part)
            if a == win or m < 3:
                continue
            most = max(len({int(answers[x, y]) for y in part if y != x}) for x in part)
            out[k, a] = min(3 * m - 2 - most, 3 * m - min(m, b))
    return out


@nb.njit(cache=True)
def member_bounds(answers, secrets, guesses, b, win, n_answers):  # pragma: no cover - compiled
    """Compiled twin of :func:`member_bounds_reference`."""
    n = secrets.shape[0]
    out = np.zeros((guesses.shape[0], n_answers), dtype=np.int64)
    members = np.empty(n, dtype=np.int64)
    starts = np.zeros(n_answers + 1, dtype=np.int64)
    seen = np.zeros(n_answers, dtype=np.int64)
    stamp = 0
    for k in range(guesses.shape[0]):
        g = guesses[k]
        starts[:] = 0
        for j in range(n):  # the secrets bucketed by their answer
            starts[answers[secrets[j], g] + 1] += 1
        for a in range(n_answers):
            starts[a + 1] += starts[a]
        fill = starts[:-1].copy()
        for j in range(n):
            a = answers[secrets[j], g]
            members[fill[a]] = secrets[j]
            fill[a] += 1
        for a in range(n_answers):
            lo, m = starts[a], starts[a + 1] - starts[a]
            if a == win or m < 3:
                continue
            most = 0
            for x in range(lo, lo + m):
                stamp += 1
                classes = 0
                near = answers[members[x]]
                for y in range(lo, lo + m):
                    if y != x and seen[near[members[y]]] != stamp:
                        seen[near[members[y]]] = stamp
                        classes += 1
                most = max(most, classes)
            out[k, a] = min(3 * m - 2 - most, 3 * m - min(m, b))
    return out


def most_classes_reference(answers: np.ndarray, secrets: np.ndarray, guesses: np.ndarray, win: int) -> int:
    """The most non-winning classes any of the guesses makes on the secrets."""
    return max(
        (len({int(answers[g, s]) for s in secrets.tolist()} - {win}) for g in guesses.tolist()), default=0
    )


def guess_values_reference(
    answers: np.ndarray, secrets: np.ndarray, guesses: np.ndarray, floors: np.ndarray, total: bool, win: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per guess, what the classes' own bounds ``floors[size]`` give (``total``: the set's
    size plus their sum; else 1 plus their most), and whether the guess splits the set at
    all (a win or two classes)."""
    derived = np.zeros(len(guesses), dtype=np.int64)
    useful = np.zeros(len(guesses), dtype=bool)
    for k, g in enumerate(guesses.tolist()):
        sizes: dict[int, int] = {}
        for s in secrets.tolist():
            sizes[int(answers[g, s])] = sizes.get(int(answers[g, s]), 0) + 1
        rest = [m for a, m in sizes.items() if a != win]
        useful[k] = max(rest, default=0) < len(secrets)
        own = [int(floors[m]) for m in rest]
        derived[k] = len(secrets) + sum(own) if total else 1 + max(own, default=0)
    return derived, useful


@nb.njit(cache=True)
def most_classes(counts, win):  # pragma: no cover - compiled
    """Compiled twin of :func:`most_classes_reference`, from the guesses' :func:`class_counts`."""
    most = 0
    for k in range(counts.shape[0]):
        classes = 0
        for a in range(counts.shape[1]):
            classes += (counts[k, a] > 0) & (a != win)
        most = max(most, classes)
    return most


@nb.njit(cache=True)
def guess_values(counts, floors, total, win, n):  # pragma: no cover - compiled
    """Compiled twin of :func:`guess_values_reference`, from the guesses' :func:`class_counts`
    on a set of ``n`` secrets (an answer no secret gives adds ``floors[0]``, nothing)."""
    derived = np.zeros(counts.shape[0], dtype=np.int64)
    useful = np.zeros(counts.shape[0], dtype=np.bool_)
    for k in range(counts.shape[0]):
        value = n if total else 1
        largest = 0
        for a in range(counts.shape[1]):
            if a != win:
                m = counts[k, a]
                largest = max(largest, m)
                value = value + floors[m] if total else max(value, 1 + floors[m])
        derived[k] = value
        useful[k] = largest < n
    return derived, useful


def weighted_floors_reference(
    answers: np.ndarray, secrets: np.ndarray, weights: np.ndarray, guesses: np.ndarray, b: int, n_answers: int
) -> np.ndarray:
    """``out[k, a]``: the weighted counting bound
    (:func:`~mastermind.proofcheck.bounds.weighted_floor`) of the class of secrets answering
    ``a`` to ``guesses[k]``, ``weights[s]`` the weight of secret s."""
    out = np.zeros((len(guesses), n_answers), dtype=np.int64)
    for k, g in enumerate(guesses.tolist()):
        for a in range(n_answers):
            part = [int(weights[s]) for s in secrets.tolist() if answers[g, s] == a]
            out[k, a] = weighted_floor(part, b) if part else 0
    return out


@nb.njit(cache=True)
def weighted_floors(answers, heaviest, weights, guesses, depths, n_answers):  # pragma: no cover - compiled
    """Compiled twin of :func:`weighted_floors_reference`: ``heaviest`` is the set sorted by
    weight, heaviest first, and ``depths`` the perfect profile of the set's size
    (:func:`~mastermind.proofcheck.bounds.slot_depths`): the j-th heaviest secret of a class
    takes the class's j-th depth (the rows read one secret at a time, as class_counts does)."""
    out = np.zeros((guesses.shape[0], n_answers), dtype=np.int64)
    filled = np.zeros((guesses.shape[0], n_answers), dtype=np.int64)
    for j in range(heaviest.shape[0]):
        s = heaviest[j]
        row = answers[s]
        w = weights[s]
        for k in range(guesses.shape[0]):
            a = row[guesses[k]]
            out[k, a] += w * depths[filled[k, a]]
            filled[k, a] += 1
    return out
