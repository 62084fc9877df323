"""Proof files: a proven optimum with a certificate of its lower bound that a checker
sharing no code with the search verifies (:mod:`mastermind.proofcheck`; the format is in
``docs/proofs.md``).

The certificate is written by a pass after the search. A fact claims that every strategy for
the set S of secrets left after a path of (guess, answer) pairs needs at least ``total``
guesses summed over S (or ``worst`` guesses for some secret). For each guess, one per orbit
of the symmetries that fix S, the counting bound of each class (a perfect tree whose
branching is the most non-winning classes any guess makes on S) is added up; where that
falls short of the claim, classes are raised to what the search proves of them, smallest
first, each by a fact of its own certified the same way (written before the fact that
refers to it). Only the truth of the search's values matters: the checker derives the rest.

>>> from mastermind.engines.exact.certify import certify
>>> from mastermind.core.game import CodeTable, Rules
>>> proof = certify(CodeTable(Rules(3, 3)), 73, 4)
>>> proof["total"], proof["worst"], len(proof["facts"]) > 0
(73, 4, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numba as nb
import numpy as np

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.symmetry import full_group
from mastermind.core.tree import Node
from mastermind.engines.exact._dfs import LOWER, memo_get, set_key
from mastermind.engines.exact._memo import capacity_for, memo_reach, memo_store, new_memo
from mastermind.engines.exact.search import INF, UNLIMITED, Search, compiled_entry

FORMAT = "mastermind-proof"
SEPARATORS = (",", ":")  # the file's JSON, as compact as it goes
EMPTY_TAIL = "[]}"  # the end of a document without facts: its facts, the file's last key
TAIL = "]}"  # the end of a file after its facts
VERSION = 1
GAME_VALUE_VERSION = 2
"""The version of a proof of a game value: weighted facts, and the keys of :class:`GameClaims`."""
PROOF_MEMORY = 1 << 29
"""The bytes of a pass given no budget: its memos and its index of the sets certified, and
the search's memo handed to it besides."""
WORST_KEY = 0
"""The guesses left in the index's key of a worst-case fact (the total's: ``UNLIMITED``; the
memo's key counts at most the set's size plus one, so the two never meet)."""


def _index_key(kind: str) -> int:
    """The guesses left in the index's key of a fact of ``kind`` (see :data:`WORST_KEY`)."""
    return UNLIMITED if kind == "total" else WORST_KEY


PROOF_INDEX_LEAST = 1 << 20
"""The least room for a proof pass's index of the sets certified: without it a set met again
is certified again, with every fact under it (valid, but the file may grow without end)."""

Path = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class GameClaims:
    """What a proof of a game value adds to the file before its facts: the weight of every
    code, the value (``"p/q"``: the total over the weights' sum) and the breaker's mix
    (``[{"weight": "p/q", "strategy": node}, ...]``, or None)."""

    weights: list[int]
    game_value: str
    breaker: list[tuple[str, Node]] | None  # (weight "p/q", tree)


@dataclass(frozen=True)
class ProofShares:
    """How a proof pass of ``memory`` bytes shares them out: the memo of its total search
    (0: the search's memo, of ``handed`` bytes at most, is handed to it), the memo of its
    search for strategies within a depth, and its index of the sets certified.

    >>> from mastermind.engines.exact.certify import ProofShares
    >>> ProofShares.of(1 << 29, 0)
    ProofShares(totals=268435456, depths=134217728, index=134217728)
    >>> ProofShares.of(1 << 30, 768 << 20)
    ProofShares(totals=0, depths=134217728, index=134217728)
    >>> ProofShares.of(1 << 20, 1 << 30).index >> 10
    1024
    """

    totals: int
    depths: int
    index: int

    @staticmethod
    def of(memory: int, handed: int) -> ProofShares:
        """The shares of ``memory`` bytes, ``handed`` of them the search's memo (0: none)."""
        left = max(int(memory) - int(handed), 0)
        if handed:
            depths = left // 2
            return ProofShares(0, depths, max(left - depths, PROOF_INDEX_LEAST))
        totals, depths = left // 2, left // 4
        return ProofShares(totals, depths, max(left - totals - depths, PROOF_INDEX_LEAST))


@dataclass
class Fact:
    """One claim of the certificate, with the symmetries and references its check uses."""

    kind: str  # "total" or "worst"
    bound: int
    path: Path
    symmetries: list[tuple[list[int], list[int]]]
    refs: list[tuple[int, int, int]] = field(default_factory=list)  # (guess, answer, fact id)


def perfect_floors(m: int, b: int, kind: str) -> np.ndarray:
    """The counting bound of k = 0..m secrets when no guess makes more than ``b`` non-winning
    classes: the least total (``kind`` "total") or the least worst case ("worst")."""
    depths = np.zeros(m, dtype=np.int64)
    k, depth, width = 0, 1, 1
    while k < m:
        depths[k : k + width] = depth
        k, depth, width = k + width, depth + 1, width * max(b, 1)
    if kind == "total":
        return np.concatenate(([0], np.cumsum(depths)))
    return np.concatenate(([0], depths))


@nb.njit(cache=True)
def member_floors(scores, cands, guesses, b, win, n_slots):  # pragma: no cover - compiled
    """``out[k, a]``: the bound the checker gives the class of ``cands`` answering ``a`` to
    ``guesses[k]`` from its members (three or more; 0 for the others): every set C costs at
    least 2|C| - 1, so a first guess that is one of the m secrets and splits the others into
    c classes leaves at least 3m - 2 - c, and any other guess at least 3m - min(m, b)."""
    n = cands.shape[0]
    out = np.zeros((guesses.shape[0], n_slots), dtype=np.int64)
    order = np.empty(n, dtype=np.int64)  # the candidates by answer (a counting sort)
    ends = np.zeros(n_slots + 1, dtype=np.int64)
    mark = np.zeros(n_slots, dtype=np.int64)  # answers told by the member ``stamp``
    stamp = 0
    for k in range(guesses.shape[0]):
        row = scores[guesses[k]]
        ends[:] = 0
        for j in range(n):
            ends[row[cands[j]] + 1] += 1
        for a in range(n_slots):
            ends[a + 1] += ends[a]
        for j in range(n):
            a = row[cands[j]]
            order[ends[a]] = cands[j]
            ends[a] += 1
        lo = 0
        for a in range(n_slots):  # (``ends[a]``: the end of class a now)
            hi = ends[a]
            m = hi - lo
            if a != win and m >= 3:
                most = 0
                for x in range(lo, hi):
                    stamp += 1
                    told = 0
                    near = scores[order[x]]
                    for y in range(lo, hi):
                        c = near[order[y]]
                        if y != x and mark[c] != stamp:
                            mark[c] = stamp
                            told += 1
                    most = max(most, told)
                out[k, a] = min(3 * m - 2 - most, 3 * m - min(m, b))
            lo = hi
    return out


@nb.njit(cache=True)
def class_sizes(by_secret, cands, guesses, win, counts):  # pragma: no cover - compiled
    """Fill ``counts[k, a]`` (zeros, of the caller's width) with the size of the class of
    ``cands`` answering ``a`` to ``guesses[k]``, the win's left at 0; answers the largest
    class of each guess and the most non-winning classes any guess makes. ``by_secret[s, g]``:
    the answer of secret s to guess g, read a candidate's row at a time."""
    g_count, n_slots = counts.shape
    for j in range(cands.shape[0]):
        row = by_secret[cands[j]]
        for k in range(g_count):
            counts[k, row[guesses[k]]] += 1
    largest = np.zeros(g_count, dtype=np.int64)
    most = 0
    for k in range(g_count):
        counts[k, win] = 0
        classes, big = 0, 0
        for a in range(n_slots):
            classes += counts[k, a] > 0
            big = max(big, counts[k, a])
        largest[k] = big
        most = max(most, classes)
    return largest, most


@nb.njit(cache=True)
def weigh_guesses(by_secret, cands, guesses, total, win, n_slots, bound):  # pragma: no cover - compiled
    """The most non-winning classes any of the guesses makes on ``cands`` (``b``); per guess
    what the counting bounds of its classes give (see :func:`perfect_floors`: the set's size
    plus their sum, ``total``, or 1 plus their most) and its largest class; the floors; and
    the guesses that split the set with less than ``bound`` (their indices, ``weak``) with
    their class sizes by answer (``counts[i, a]``; the win's left at 0).
    ``by_secret[s, g]``: the answer of secret s to guess g (the score table, transposed when
    not symmetric), read a candidate's row at a time; the sums below have no branches (a
    fact's classes differ from the last one's: branches on them were mispredicted)."""
    n = cands.shape[0]
    g_count = guesses.shape[0]
    counts = np.zeros((g_count, n_slots), dtype=np.int32)
    largest, most = class_sizes(by_secret, cands, guesses, win, counts)
    # the counting bound of 0..n secrets: slot depths 1, then b of depth 2, b**2 of depth 3 ...
    floors = np.zeros(n + 1, dtype=np.int64)
    depth, width, filled = 1, 1, 0
    for m in range(1, n + 1):
        if filled == width:
            depth, width, filled = depth + 1, width * max(most, 1), 0
        filled += 1
        floors[m] = floors[m - 1] + depth if total else depth
    derived = np.zeros(g_count, dtype=np.int64)
    for k in range(g_count):  # (floors[0] = 0: the empty classes add nothing)
        value = 0
        for a in range(n_slots):
            value = value + floors[counts[k, a]] if total else max(value, floors[counts[k, a]])
        derived[k] = n + value if total else 1 + value
    weak = np.empty(g_count, dtype=np.int64)
    n_weak = 0
    for k in range(g_count):
        weak[n_weak] = k
        n_weak += (largest[k] < n) & (derived[k] < bound)
    weak = weak[:n_weak]
    short = np.zeros((n_weak, n_slots), dtype=np.int64)
    for i in range(n_weak):
        short[i] = counts[weak[i]]
    return most, derived, largest, floors, weak, short


@nb.njit(cache=True)
def short_guesses(by_secret, scores, cands, guesses, total, win, n_slots, bound):  # pragma: no cover
    """The guesses whose classes' own bounds (counting, and member for ``total``: as the
    checker derives them) leave the claim ``bound`` short, as (guesses, class sizes by
    answer, the classes' bounds by answer, what they derive): one call a fact (the numpy
    steps between the kernels cost as much as the kernels)."""
    n = cands.shape[0]
    b, _, _, floors, weak, counts = weigh_guesses(by_secret, cands, guesses, total, win, n_slots, bound)
    weak_guesses = guesses[weak]
    values = np.zeros(counts.shape, dtype=np.int64)
    for i in range(counts.shape[0]):
        for a in range(n_slots):
            values[i, a] = floors[counts[i, a]]
    if total and weak.shape[0] > 0:
        members = member_floors(scores, cands, weak_guesses, b, win, n_slots)
        for i in range(counts.shape[0]):
            for a in range(n_slots):
                values[i, a] = max(values[i, a], members[i, a])
    derived = np.zeros(counts.shape[0], dtype=np.int64)
    keep = np.zeros(counts.shape[0], dtype=np.bool_)
    for i in range(counts.shape[0]):
        value = 0
        for a in range(n_slots):
            value = value + values[i, a] if total else max(value, values[i, a])
        derived[i] = n + value if total else 1 + value
        keep[i] = derived[i] < bound
    return weak_guesses[keep], counts[keep], values[keep], derived[keep]


@nb.njit(cache=True)
def weighted_short_guesses(by_secret, weights, cands, guesses, win, n_slots, bound):  # pragma: no cover
    """:func:`short_guesses` of a weighted total (a game value's proof): ``cands`` heaviest
    first (as the weighted search keeps them), every class bounded by the weighted counting
    bound the checker derives (its heaviest secret at depth 1, the next b at depth 2, b**2 at
    depth 3 ..., b the most non-winning classes any of the guesses makes; no member bound),
    a guess deriving the weight of the set plus their sum."""
    n = cands.shape[0]
    g_count = guesses.shape[0]
    counts = np.zeros((g_count, n_slots), dtype=np.int64)
    largest, most = class_sizes(by_secret, cands, guesses, win, counts)
    depths = np.zeros(max(n, 1), dtype=np.int64)
    depth, width, filled = 1, 1, 0
    for m in range(n):
        if filled == width:
            depth, width, filled = depth + 1, width * max(most, 1), 0
        filled += 1
        depths[m] = depth
    values = np.zeros((g_count, n_slots), dtype=np.int64)
    taken = np.zeros((g_count, n_slots), dtype=np.int64)
    weight = 0
    for j in range(n):  # (heaviest first: the j-th heaviest of a class takes its j-th slot)
        row = by_secret[cands[j]]
        w = weights[cands[j]]
        weight += w
        for k in range(g_count):
            a = row[guesses[k]]
            values[k, a] += w * depths[taken[k, a]]
            taken[k, a] += 1
    derived = np.zeros(g_count, dtype=np.int64)
    keep = np.zeros(g_count, dtype=np.bool_)
    for k in range(g_count):
        values[k, win] = 0
        derived[k] = weight + values[k].sum()
        keep[k] = (largest[k] < n) & (derived[k] < bound)
    return guesses[keep], counts[keep], values[keep], derived[keep]


@nb.njit(cache=True)
def index_get(index, cands, r):  # pragma: no cover - compiled
    """``(found, bound, fact id)`` of the fact the index holds for ``cands`` (``r``: the
    kind's key, see :data:`WORST_KEY`)."""
    return memo_get(index, cands, r)


@nb.njit(cache=True)
def index_put(index, cands, r, bound, fact):  # pragma: no cover - compiled
    """Keep fact ``fact`` of ``cands``, claiming ``bound``, in the index (a table as the
    search's memo is: full, it drops the smallest sets' entries; a set lost is certified
    again when met again). Keyed by the set's 128-bit hash: two sets meeting would make a
    reference to the other set's fact, which the checker refuses, never a wrong proof."""
    k1, k2 = set_key(cands, r)
    memo_store(index, k1, k2, np.float64(bound), np.int64(fact), np.int64(cands.shape[0]))


@nb.njit(cache=True)
def memo_classes(memo, index, scores, cands, guesses, counts, r, win):  # pragma: no cover - compiled
    """What the memo holds, with ``r`` guesses left, of each class of three or more secrets
    (``counts[k, a]``) that ``guesses[k]`` makes of ``cands``, and which fact of the index
    (total facts) certifies it: (found, cost, tag, bound, fact) arrays by (k, answer), the
    fact -1 where none, one call for every class of a fact."""
    g_count, n_slots = counts.shape
    n = cands.shape[0]
    found = np.zeros((g_count, n_slots), dtype=np.bool_)
    cost = np.zeros((g_count, n_slots), dtype=np.float64)
    tag = np.zeros((g_count, n_slots), dtype=np.int64)
    proved = np.zeros((g_count, n_slots), dtype=np.float64)
    fact = np.full((g_count, n_slots), -1, dtype=np.int64)
    part = np.empty(n, dtype=np.int32)
    for k in range(g_count):
        row = scores[guesses[k]]
        for a in range(n_slots):
            if a == win or counts[k, a] < 3:
                continue
            m = 0
            for j in range(n):
                if row[cands[j]] == a:
                    part[m] = cands[j]
                    m += 1
            hit, value, kind = memo_get(memo, part[:m], r)
            found[k, a], cost[k, a], tag[k, a] = hit, value, kind
            hit, value, kind = memo_get(index, part[:m], r)
            if hit:
                proved[k, a], fact[k, a] = value, kind
    return found, cost, tag, proved, fact


class Certifier:
    """Writes the facts of one game's certificate, asking the exact search (two searches:
    the total's, and the one that asks whether a strategy of some depth exists) for the
    values of the sets whose counting bounds fall short. ``weights``: a whole number a code,
    kept by every symmetry of the game (a game value's proof: its totals are weighted, the
    sets given heaviest first, see :func:`weighted_short_guesses`); ``memory``: the bytes of the pass
    (its memos and its index of the sets certified, see :class:`ProofShares`; None:
    :data:`PROOF_MEMORY` beside the memo handed); ``memo``: the
    memo of the search that proved the plain total (``SearchDetails.memo``), counted within
    ``memory``, which the total's search reads and adds to rather than proving again what
    it holds (p4c7: the pass's searches of classes 1.85 -> 0.67 CPU s)."""

    def __init__(
        self,
        table: CodeTable,
        memory: int | None = None,
        token: CancelToken | None = None,
        write: Callable[[str], None] | None = None,
        memo: object | None = None,
        weights: np.ndarray | None = None,
    ) -> None:
        if table.scores is None:
            raise MastermindError(f"a proof needs the full score table of {table.rules}")
        self.table, self.rules = table, table.rules
        self.scores = table.scores
        # (scores are symmetric in every variant so far: the table itself, else its transpose)
        symmetric = np.array_equal(table.scores, table.scores.T)
        self.by_secret = table.scores if symmetric else np.ascontiguousarray(table.scores.T)
        # ``token``: checked between facts; its flag stops the searches at once (their
        # values are then lower bounds only, and the pass raises Stopped)
        self.token = token
        stop = None if token is None else token.flag
        self.win = table.rules.win_index
        self.n_slots = table.rules.n_answer_slots
        digits = np.asarray(table.codes, dtype=np.int64)
        self.digits = digits
        self.radix = table.rules.colors ** np.arange(table.rules.pegs - 1, -1, -1, dtype=np.int64)
        self.by_value = np.full(table.rules.colors**table.rules.pegs, -1, dtype=np.int64)
        self.by_value[digits @ self.radix] = np.arange(table.n)
        group = full_group(table.rules)
        self.weights = None if weights is None else np.ascontiguousarray(weights, dtype=np.int64)
        if self.weights is not None:
            self._check_symmetric(self.weights)
        self.group = group
        handed = 0 if memo is None else memo_reach(memo)
        # (no budget: the pass's default beside the memo handed, which was the search's)
        self.shares = ProofShares.of(PROOF_MEMORY + handed if memory is None else memory, handed)
        ones = np.ones(table.n, dtype=np.int64)
        totals = ones if self.weights is None else self.weights
        self.totals = Search(table, totals, group, unit=1, memory=self.shares.totals, stop=stop, memo=memo)
        self.depths = Search(table, ones, group, unit=0, memory=self.shares.depths, stop=stop)
        # ``write``: each fact's text goes to it as the fact is made (after a comma from the
        # second on), none kept: 5x8n's 4.4 million facts held took about 9 GB; else kept
        self.write = write
        self.facts: list[Fact] = []
        self.count = 0  # the facts made: the next one's id
        # the index of the sets certified, for later facts to refer to: (bound, fact id) by
        # the set's key (see index_put); a table of the memo's kind, within its share
        self.index = new_memo(capacity_for(self.shares.index))
        self._index_get: Any = None  # (their compiled entries, once called: see compiled_entry)
        self._index_put: Any = None
        self._orbits: dict[tuple[bytes, bytes, int], tuple[list, np.ndarray]] = {}
        self.colour_bits = np.bitwise_or.reduce(1 << digits, axis=1)
        self.code_texts = [table.rules.code_text(i) for i in range(table.n)]
        self.answer_texts = [str(f) for f in table.rules.answer_feedbacks]
        self._children: dict[tuple[bytes, bytes, int], tuple[np.ndarray, np.ndarray]] = {}
        self._memo_classes = None

    # ---- symmetry --------------------------------------------------------------------------
    def _check_symmetric(self, weights: np.ndarray) -> None:
        """Weights every symmetry of the game keeps (the group's generators checked): the
        pass's symmetries are the game's, which the checker must find keep them."""
        perms, cmaps = full_group(self.rules)
        colours = self.rules.colors
        for e in range(len(perms)):
            cmap = [c if cmaps[e, c] < 0 else int(cmaps[e, c]) for c in range(colours)]
            moves = [(list(perms[e]), cmap)]
            free = [c for c in range(colours) if cmaps[e, c] < 0]
            for a, b in zip(free, free[1:]):
                swap = list(range(colours))
                swap[a], swap[b] = b, a
                moves.append((list(range(self.rules.pegs)), swap))
            for pegs, cm in moves:
                image = self.by_value[np.asarray(cm)[self.digits[:, pegs]] @ self.radix]
                if np.any(image < 0) or not np.array_equal(weights[image], weights):
                    raise MastermindError(
                        "the weights of a proof must be the same on codes a symmetry maps together"
                    )

    def ordered(self, cands: np.ndarray) -> np.ndarray:
        """``cands`` as the search keeps a set: heaviest first, ties by index (a weighted
        pass's sets are its root's filtered, so in that order too)."""
        cands = np.asarray(cands, dtype=np.int32)
        if self.weights is None:
            return np.sort(cands)
        return cands[np.lexsort((cands, -self.weights[cands]))]

    def symmetries(self, cands: np.ndarray, group) -> list[tuple[list[int], list[int]]]:
        """Generators of symmetries mapping ``cands`` onto itself: the group fixing the
        guesses so far (its listed elements, and swaps of its free colours) and swaps of the
        colours no candidate has."""
        perms, cmaps = group
        colours = self.rules.colors
        free = [c for c in range(colours) if cmaps[0, c] < 0]
        present = np.zeros(colours, dtype=bool)
        present[np.unique(self.digits[cands])] = True
        absent = [c for c in range(colours) if not present[c]]
        out: list[tuple[list[int], list[int]]] = []
        seen = set()
        identity = (tuple(range(self.rules.pegs)), tuple(range(colours)))

        def add(pegs: tuple[int, ...], cmap: tuple[int, ...]) -> None:
            if (pegs, cmap) != identity and (pegs, cmap) not in seen:
                seen.add((pegs, cmap))
                out.append((list(pegs), list(cmap)))

        for e in range(len(perms)):  # (a free colour stays where it is)
            cmap = tuple(c if cmaps[e, c] < 0 else int(cmaps[e, c]) for c in range(colours))
            add(tuple(int(x) for x in perms[e]), cmap)
        for block in (free, absent):
            for a, b in zip(block, block[1:]):
                swap = list(range(colours))
                swap[a], swap[b] = b, a
                add(identity[0], tuple(swap))
        return out

    def orbits(self, cands: np.ndarray, group) -> tuple[list[tuple[list[int], list[int]]], np.ndarray]:
        """The symmetries fixing ``cands`` (see :meth:`symmetries`) and the least code of each
        orbit of the group they generate (kept by group and absent colours)."""
        # (the colours present as one bit mask: np.unique per fact took a tenth of the pass)
        present = int(np.bitwise_or.reduce(self.colour_bits[cands]))
        key = (group[0].tobytes(), group[1].tobytes(), present)
        if key not in self._orbits:
            symmetries = self.symmetries(cands, group)
            self._orbits[key] = (symmetries, self.representatives(symmetries))
        return self._orbits[key]

    def child_group(self, group, guess: int):
        """The group fixing one more guess (kept by group and guess; a trivial group is its own)."""
        perms, cmaps = group
        if len(perms) == 1 and int((cmaps[0] < 0).sum()) <= 1:
            return group
        key = (perms.tobytes(), cmaps.tobytes(), guess)
        if key not in self._children:
            self._children[key] = self.totals.child_group(group, guess)
        return self._children[key]

    def representatives(self, symmetries: list[tuple[list[int], list[int]]]) -> np.ndarray:
        """The least code of each orbit of the group the symmetries generate."""
        n = self.table.n
        least = np.arange(n)
        maps = [self.by_value[np.asarray(c)[self.digits[:, p]] @ self.radix] for p, c in symmetries]
        while maps:
            before = least.copy()
            for m in maps:
                least = np.minimum(least, least[m])
                least[m] = np.minimum(least[m], least)
            if np.array_equal(before, least):
                break
        return np.flatnonzero(least == np.arange(n))

    # ---- facts -------------------------------------------------------------------------------
    def certify(self, kind: str, cands: np.ndarray, bound: int, path: Path = (), group=None) -> int:
        """The id of a fact claiming ``kind`` >= ``bound`` of ``cands`` (written with the facts
        it rests on first, or one already written)."""
        group = self.group if group is None else group
        held, claimed, held_id = self.indexed(cands, kind)
        if held and claimed >= bound:
            return held_id
        if self.token is not None:
            self.token.check()
        symmetries, guesses = self.orbits(cands, group)
        n = len(cands)
        if self.weights is not None and kind == "total":
            guesses, counts, values, derived = weighted_short_guesses(
                self.by_secret, self.weights, cands, guesses, self.win, self.n_slots, bound
            )
        else:
            guesses, counts, values, derived = short_guesses(
                self.by_secret, self.scores, cands, guesses, kind == "total", self.win, self.n_slots, bound
            )
        fact = Fact(kind, int(bound), path, symmetries)
        if len(guesses) and kind == "total":
            args = (self.totals.memo, self.index, self.scores, cands, guesses, counts, UNLIMITED, self.win)
            if self._memo_classes is None:  # (then its compiled entry: see compiled_entry)
                found, cost, tag, proved, facts = memo_classes(*args)
                self._memo_classes = compiled_entry(memo_classes, args)
            else:
                found, cost, tag, proved, facts = self._memo_classes(*args)
        for k in range(len(guesses)):
            g = int(guesses[k])
            short = bound - int(derived[k])
            order = np.flatnonzero(counts[k])
            # the total: the classes a fact written already raises first (no new fact: p4c7
            # with the search's memo 21817 facts against 25730), then those the memo holds
            # (no search: p4c7 610 searches against 15819, 21901 facts against 26569), then
            # the smallest; the worst case: the biggest first (the likeliest to need the
            # most guesses)
            if kind == "total":
                # (a fact raising less than the class may prove is free only once the
                # memo says it claims all there is: else the class is raised as it was)
                exact = found[k] & (tag[k] != LOWER)
                free = (facts[k] >= 0) & (proved[k] > values[k])
                free &= (proved[k] >= values[k] + short) | (exact & (proved[k] >= cost[k]))
                usable = found[k] & ((tag[k] != LOWER) | (cost[k] >= values[k] + short))
                order = order[np.lexsort((counts[k][order], ~found[k][order], ~usable[order], ~free[order]))]
            else:
                order = order[np.argsort(-counts[k][order], kind="stable")]
            child = self.child_group(group, g)
            answers = self.scores[g, cands]
            for a in order.tolist():
                floor = int(values[k, a])
                if kind == "total":
                    if counts[k, a] <= 2:  # (its counting bound is its cost)
                        continue
                    if free[a]:  # (a fact of the class's set, written before: all it raises)
                        fact.refs.append((g, a, int(facts[k, a])))
                        short -= int(proved[k, a]) - floor
                        if short <= 0:
                            break
                        continue
                    part = cands[answers == a]
                    known = (cost[k, a], tag[k, a]) if found[k, a] else None
                    value = self.least_total(part, floor + short, child, known)
                    if value <= floor:
                        continue
                    claim = min(value, floor + short)
                else:
                    part = cands[answers == a]
                    if floor < bound - 1 and self.solvable(part, bound - 2, child):
                        continue
                    claim = bound - 1
                fact.refs.append((g, a, self.certify(kind, part, claim, (*path, (g, a)), child)))
                short -= claim - floor
                if short <= 0:
                    break
            if short > 0:
                self._refuse(kind, bound, n)
        self._emit(fact)
        keep = (self.index, cands, _index_key(kind), float(bound), self.count - 1)
        if self._index_put is None:
            index_put(*keep)
            self._index_put = compiled_entry(index_put, keep)
        else:
            self._index_put(*keep)
        return self.count - 1

    def indexed(self, cands: np.ndarray, kind: str) -> tuple[bool, int, int]:
        """Whether the index holds a ``kind`` fact of ``cands``, with its bound and id."""
        args = (self.index, cands, _index_key(kind))
        if self._index_get is None:
            held, proved, fact = index_get(*args)
            self._index_get = compiled_entry(index_get, args)
        else:
            held, proved, fact = self._index_get(*args)
        return (True, int(proved), int(fact)) if held else (False, 0, -1)

    def _emit(self, fact: Fact) -> None:
        if self.write is None:
            self.facts.append(fact)
        else:
            self.write(("," if self.count else "") + json.dumps(self.fact_json(fact), separators=SEPARATORS))
        self.count += 1

    def _refuse(self, kind: str, bound: int, n: int) -> None:
        """A claim the search does not prove; or, once the token is cancelled, a stop (the
        searches' values are then lower bounds only)."""
        if self.token is not None:
            self.token.check()
        raise AssertionError(f"{kind} >= {bound} of {n} secrets is not what the search proves")

    def least_total(self, cands: np.ndarray, beta: int, group, known=None) -> int:
        """The least total of ``cands`` if below ``beta``, else a lower bound at least ``beta``:
        from what the memo holds (``known``: its (cost, tag), looked up before), else a search."""
        if known is not None:
            cost, tag = known
            if tag != LOWER or cost >= beta:
                return int(cost) if cost < INF else UNLIMITED
        value = self.totals.solve(cands, UNLIMITED, beta, group)
        return int(value) if value < INF else UNLIMITED

    def solvable(self, cands: np.ndarray, guesses: int, group) -> bool:
        """Whether some strategy finds every secret of ``cands`` within ``guesses``."""
        return bool(self.depths.solve(cands, guesses, 1, group) == 0)

    # ---- the file ----------------------------------------------------------------------------
    def fact_json(self, fact: Fact) -> dict[str, Any]:
        code, answer = self.code_texts.__getitem__, self.answer_texts.__getitem__
        out: dict[str, Any] = {"path": [[code(g), answer(a)] for g, a in fact.path], fact.kind: fact.bound}
        if fact.symmetries:
            out["symmetries"] = [{"pegs": p, "colours": c} for p, c in fact.symmetries]
        if fact.refs:
            out["refs"] = [[code(g), answer(a), i] for g, a, i in fact.refs]
        return out

    def document(
        self,
        total: int | None,
        worst: int | None,
        strategy: Node,
        worst_strategy: Node | None,
        game: GameClaims | None = None,
    ) -> dict[str, Any]:
        """The proof file of the facts written so far (``game``: a game value's, version 2)."""
        out = {
            "format": FORMAT,
            "version": VERSION if game is None else GAME_VALUE_VERSION,
            "rules": str(self.rules),
            "total": total,
            "worst": worst,
            "strategy": self.node_json(strategy),
            "worst_strategy": None if worst_strategy is None else self.node_json(worst_strategy),
        }
        if game is not None:
            mix = game.breaker
            breaker = None if mix is None else [{"weight": w, "strategy": self.node_json(t)} for w, t in mix]
            out.update(weights=game.weights, game_value=game.game_value, breaker=breaker)
        out["facts"] = [self.fact_json(f) for f in self.facts]
        return out

    def head_text(
        self,
        total: int | None,
        worst: int | None,
        strategy: Node,
        worst_strategy: Node | None,
        game: GameClaims | None = None,
    ) -> str:
        """The file's text before its first fact: :meth:`document`'s, which ends with the
        facts (the text of a streamed file is the same, the facts written in between)."""
        assert not self.facts  # (none held: they are written after it)
        text = json.dumps(self.document(total, worst, strategy, worst_strategy, game), separators=SEPARATORS)
        assert text.endswith(EMPTY_TAIL)
        return text[: -len(EMPTY_TAIL) + 1]

    def node_json(self, node: Node) -> dict[str, Any]:
        out: dict[str, Any] = {"candidates": node.candidates, "guess": self.rules.code_text(node.guess)}
        if node.children:
            said = self.rules.answer_feedbacks
            out["children"] = {str(said[a]): self.node_json(node.children[a]) for a in sorted(node.children)}
        return out


def certify(
    table: CodeTable,
    total: int | None,
    worst: int | None,
    strategy: Node | None = None,
    worst_strategy: Node | None = None,
    memory: int | None = None,
) -> dict[str, Any]:
    """The proof file (a JSON object) that ``total`` is the optimal total and ``worst`` the
    optimal worst case (either None: not claimed) of the game of ``table``. ``strategy``
    must meet the claims (``worst_strategy`` the worst case, where ``strategy`` does not);
    without them, the search builds them. A claim the search does not prove raises
    AssertionError."""
    certifier = Certifier(table, memory)
    everyone = table.all_codes.astype(np.int32)
    if strategy is None:
        strategy = (certifier.totals if total is not None else certifier.depths).build(
            everyone, UNLIMITED if total is not None else int(worst or 0)
        )
    if worst is not None and worst_strategy is None and _depth(strategy) != worst:
        worst_strategy = certifier.depths.build(everyone, worst)
    if total is not None:
        certifier.certify("total", everyone, total)
    if worst is not None:
        certifier.certify("worst", everyone, worst)
    return certifier.document(total, worst, strategy, worst_strategy)


def prove(
    table: CodeTable,
    strategy: Node,
    total: int | None,
    memory: int | None = None,
    token: CancelToken | None = None,
    memo: object | None = None,
) -> dict[str, Any]:
    """The proof file of an optimum the search has proven: ``total`` (the optimal total,
    ``strategy`` an optimal strategy) and the optimal worst case, which the search that asks
    whether a strategy within some depth exists finds below the strategy's own; or, with
    ``total`` None, the optimal worst case alone (``strategy``'s, which the search proved).
    Raises :class:`~mastermind.core.cancel.Stopped` once ``token`` is cancelled (Ctrl-C, a
    time limit): no proof, since a stopped search's values are lower bounds only. Every
    fact is held: :func:`write_proof` writes the same file as it goes. ``memory``: the
    pass's bytes; ``memo``: the memo of the search that proved the optimum, where it has
    one (``result.details.memo``; see :class:`Certifier`), which the pass adds to."""
    certifier = Certifier(table, memory, token, memo=memo)
    worst, worst_strategy = _claims(certifier, strategy, total, token)
    return certifier.document(total, worst, strategy, worst_strategy)


def write_proof(
    write: Callable[[str], None],
    table: CodeTable,
    strategy: Node,
    total: int | None,
    memory: int | None = None,
    token: CancelToken | None = None,
    memo: object | None = None,
) -> dict[str, Any]:
    """The text of :func:`prove`'s file, the same, given to ``write`` piece by piece as its
    facts are made (none kept in memory: only the ids of the sets certified, which later
    facts refer to); answers its ``total``, ``worst`` and count of ``facts``. A stop raises
    :class:`~mastermind.core.cancel.Stopped` midway: the writer must then drop what it got
    (see :func:`mastermind.core.fileio.streamed_write`)."""
    certifier = Certifier(table, memory, token, write, memo)
    # (the claims and strategies come first in the file, and are known before any fact)
    worst, worst_strategy = _claims(certifier, strategy, total, token)
    write(TAIL)
    return {"total": total, "worst": worst, "facts": certifier.count}


def prove_weighted(
    table: CodeTable,
    game: GameClaims,
    total: int,
    strategy: Node | None = None,
    memory: int | None = None,
    token: CancelToken | None = None,
) -> dict[str, Any]:
    """The proof file (held whole) that ``total`` is the least weighted total
    (``sum weight * guesses``, ``game.weights`` one whole number a code, kept by the game's
    symmetries) of any strategy: a game value's proof (version 2). ``strategy`` must meet
    it (None: the weighted search builds one). A claim the search does not prove raises
    AssertionError; a stop, :class:`~mastermind.core.cancel.Stopped`."""
    certifier = Certifier(table, memory, token, weights=np.asarray(game.weights, dtype=np.int64))
    strategy = _weighted_claims(certifier, game, total, strategy)
    return certifier.document(total, None, strategy, None, game)


def write_weighted_proof(
    write: Callable[[str], None],
    table: CodeTable,
    game: GameClaims,
    total: int,
    strategy: Node | None = None,
    memory: int | None = None,
    token: CancelToken | None = None,
) -> dict[str, Any]:
    """The text of :func:`prove_weighted`'s file, the same, given to ``write`` piece by
    piece as its facts are made (see :func:`write_proof`); answers its ``total`` and count
    of ``facts``."""
    certifier = Certifier(table, memory, token, write, weights=np.asarray(game.weights, dtype=np.int64))
    _weighted_claims(certifier, game, total, strategy)
    write(TAIL)
    return {"total": total, "facts": certifier.count}


def _weighted_claims(certifier: Certifier, game: GameClaims, total: int, strategy: Node | None) -> Node:
    """The facts of a least weighted total made (after the file's head, written first when
    the certifier writes as it goes); answers the strategy of the file."""
    everyone = certifier.ordered(certifier.table.all_codes)
    if strategy is None:
        strategy = certifier.totals.build(everyone, UNLIMITED)
    if certifier.write is not None:
        certifier.write(certifier.head_text(total, None, strategy, None, game))
    certifier.certify("total", everyone, total)
    if certifier.token is not None:
        certifier.token.check()
    return strategy


def _claims(
    certifier: Certifier, strategy: Node, total: int | None, token: CancelToken | None
) -> tuple[int, Node | None]:
    """The certificate of :func:`prove`'s claims made (its facts written after the file's
    head when the certifier writes them as it goes): the optimal worst case, and a strategy meeting it where
    ``strategy`` does not (else None)."""
    everyone = certifier.table.all_codes.astype(np.int32)
    worst = _depth(strategy)
    worst_strategy = None
    if total is not None:
        while worst > 1 and certifier.solvable(everyone, worst - 1, certifier.group):
            worst -= 1
        if worst < _depth(strategy):
            worst_strategy = certifier.depths.build(everyone, worst)
    if certifier.write is not None:
        certifier.write(certifier.head_text(total, worst, strategy, worst_strategy))
    if total is not None:
        certifier.certify("total", everyone, total)
    certifier.certify("worst", everyone, worst)
    if token is not None:  # (a search stopped on the way answered lower bounds: no file)
        token.check()
    return worst, worst_strategy


def _depth(node: Node) -> int:
    """The most guesses a strategy takes."""
    return 1 + max((_depth(c) for c in node.children.values()), default=0)
