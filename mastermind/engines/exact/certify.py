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

from dataclasses import dataclass, field
from typing import Any

import numba as nb
import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.symmetry import full_group
from mastermind.core.tree import Node
from mastermind.engines.exact._dfs import LOWER, memo_get
from mastermind.engines.exact.search import INF, UNLIMITED, Search

FORMAT = "mastermind-proof"
VERSION = 1

Path = tuple[tuple[int, int], ...]


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
    for k in range(guesses.shape[0]):
        row = scores[guesses[k]]
        for a in range(n_slots):
            if a == win:
                continue
            part = np.empty(n, dtype=np.int64)
            m = 0
            for j in range(n):
                if row[cands[j]] == a:
                    part[m] = cands[j]
                    m += 1
            if m < 3:
                continue
            most = 0
            for x in range(m):
                told = np.zeros(n_slots, dtype=np.bool_)
                for y in range(m):
                    if y != x:
                        told[scores[part[x], part[y]]] = True
                most = max(most, int(told.sum()))
            out[k, a] = min(3 * m - 2 - most, 3 * m - min(m, b))
    return out


@nb.njit(cache=True)
def weigh_guesses(scores, cands, guesses, total, win, n_slots):  # pragma: no cover - compiled
    """The most non-winning classes any of the guesses makes on ``cands`` (``b``), and per
    guess what the counting bounds of its classes give (see :func:`perfect_floors`: the
    set's size plus their sum, ``total``, or 1 plus their most) and its largest class."""
    n = cands.shape[0]
    g_count = guesses.shape[0]
    largest = np.zeros(g_count, dtype=np.int64)
    derived = np.zeros(g_count, dtype=np.int64)
    sizes = np.zeros(n_slots, dtype=np.int64)
    # each guess's classes, as (first answer index in ``seen``, count) runs: O(|S|) a guess
    seen = np.empty(g_count * min(n, n_slots), dtype=np.int64)
    runs = np.zeros(g_count + 1, dtype=np.int64)
    most = 0
    for k in range(g_count):
        row = scores[guesses[k]]
        start = runs[k]
        top = start
        for j in range(n):
            a = row[cands[j]]
            if sizes[a] == 0:
                seen[top] = a
                top += 1
            sizes[a] += 1
        runs[k + 1] = top
        classes = 0
        for t in range(start, top):
            a = seen[t]
            if a != win:
                classes += 1
                largest[k] = max(largest[k], sizes[a])
            sizes[a] = 0
        most = max(most, classes)
    # the counting bound of 0..n secrets: slot depths 1, then b of depth 2, b**2 of depth 3 ...
    floors = np.zeros(n + 1, dtype=np.int64)
    depth, width, filled = 1, 1, 0
    for m in range(1, n + 1):
        if filled == width:
            depth, width, filled = depth + 1, width * max(most, 1), 0
        filled += 1
        floors[m] = floors[m - 1] + depth if total else depth
    for k in range(g_count):
        row = scores[guesses[k]]
        for j in range(n):
            sizes[row[cands[j]]] += 1
        value = n if total else 1
        for t in range(runs[k], runs[k + 1]):
            a = seen[t]
            if a != win:
                value = value + floors[sizes[a]] if total else max(value, 1 + floors[sizes[a]])
            sizes[a] = 0
        derived[k] = value
    return most, derived, largest, floors


@nb.njit(cache=True)
def memo_values(memo, parts, starts, r):  # pragma: no cover - compiled
    """What the memo holds of each part ``parts[starts[i]:starts[i + 1]]`` with ``r`` guesses
    left: (found, cost, tag) arrays (one call for many sets)."""
    count = starts.shape[0] - 1
    found = np.zeros(count, dtype=np.bool_)
    cost = np.zeros(count, dtype=np.float64)
    tag = np.zeros(count, dtype=np.int64)
    for i in range(count):
        hit, value, kind = memo_get(memo, parts[starts[i] : starts[i + 1]], r)
        found[i], cost[i], tag[i] = hit, value, kind
    return found, cost, tag


class Certifier:
    """Writes the facts of one game's certificate, asking the exact search (two searches
    with memos of their own: the total's, and the one that asks whether a strategy of some
    depth exists) for the values of the sets whose counting bounds fall short."""

    def __init__(self, table: CodeTable, memory: int = 1 << 28) -> None:
        if table.scores is None:
            raise MastermindError(f"a proof needs the full score table of {table.rules}")
        self.table, self.rules = table, table.rules
        self.scores = table.scores
        self.win = table.rules.win_index
        self.n_slots = table.rules.n_answer_slots
        digits = np.asarray(table.codes, dtype=np.int64)
        self.digits = digits
        self.radix = table.rules.colors ** np.arange(table.rules.pegs - 1, -1, -1, dtype=np.int64)
        self.by_value = np.full(table.rules.colors**table.rules.pegs, -1, dtype=np.int64)
        self.by_value[digits @ self.radix] = np.arange(table.n)
        weights = np.ones(table.n, dtype=np.int64)
        group = full_group(table.rules)
        self.group = group
        self.totals = Search(table, weights, group, unit=1, memory=memory)
        self.depths = Search(table, weights, group, unit=0, memory=memory)
        self.facts: list[Fact] = []
        self.known: dict[tuple[str, bytes], tuple[int, int]] = {}  # (kind, set) -> (bound, id)
        self._orbits: dict[tuple[bytes, bytes, bytes], tuple[list, np.ndarray]] = {}
        self._children: dict[tuple[bytes, bytes, int], tuple[np.ndarray, np.ndarray]] = {}

    # ---- symmetry --------------------------------------------------------------------------
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
        present = np.zeros(self.rules.colors, dtype=bool)
        present[np.unique(self.digits[cands])] = True
        key = (group[0].tobytes(), group[1].tobytes(), present.tobytes())
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
        key = (kind, cands.tobytes())
        if key in self.known and self.known[key][0] >= bound:
            return self.known[key][1]
        symmetries, guesses = self.orbits(cands, group)
        n = len(cands)
        b, derived, largest, floors = weigh_guesses(
            self.scores, cands, guesses, kind == "total", self.win, self.n_slots
        )
        useful = largest < n
        weak = np.flatnonzero(useful & (derived < bound))
        # the guesses the counting bound leaves short, class by class
        guesses = guesses[weak]
        answers = self.scores[np.ix_(guesses, cands)].astype(np.int64)
        rows = np.arange(len(guesses))[:, None] * self.n_slots
        counts = np.bincount((rows + answers).ravel(), minlength=len(guesses) * self.n_slots)
        counts = counts.reshape(len(guesses), self.n_slots)
        counts[:, self.win] = 0
        values = floors[counts]
        if kind == "total":  # (as the checker: the member bound where the counting bound is short)
            members = member_floors(self.scores, cands, guesses, b, self.win, self.n_slots)
            values = np.maximum(values, members)
            derived = n + values.sum(axis=1)
        else:
            derived = 1 + values.max(axis=1, initial=0)
        fact = Fact(kind, int(bound), path, symmetries)
        known = self.memo_known(cands, answers, counts) if kind == "total" else {}
        for k in np.flatnonzero(derived < bound).tolist():
            g = int(guesses[k])
            short = bound - int(derived[k])
            order = np.flatnonzero(counts[k])
            # the total: smallest classes first (as the search explores them); the worst case:
            # the biggest first (the likeliest to need the most guesses)
            order = order[np.argsort(counts[k][order] * (1 if kind == "total" else -1), kind="stable")]
            child = self.child_group(group, g)
            for a in order.tolist():
                part = cands[answers[k] == a]
                floor = int(values[k, a])
                if kind == "total":
                    if len(part) <= 2:  # (its counting bound is its cost)
                        continue
                    value = self.least_total(part, floor + short, child, known.get((k, a)))
                    if value <= floor:
                        continue
                    claim = min(value, floor + short)
                elif floor < bound - 1 and self.solvable(part, bound - 2, child):
                    continue
                else:
                    claim = bound - 1
                fact.refs.append((g, a, self.certify(kind, part, claim, (*path, (g, a)), child)))
                short -= claim - floor
                if short <= 0:
                    break
            if short > 0:
                raise AssertionError(f"{kind} >= {bound} of {n} secrets is not what the search proves")
        self.facts.append(fact)
        self.known[key] = (int(bound), len(self.facts) - 1)
        return len(self.facts) - 1

    def memo_known(self, cands: np.ndarray, answers: np.ndarray, counts: np.ndarray) -> dict:
        """What the total's memo holds of the classes of three or more of each guess (row k of
        ``answers``), by (k, answer), looked up in one call."""
        where = [(k, a) for k, a in zip(*np.nonzero(counts >= 3))]
        if not where:
            return {}
        parts = [cands[answers[k] == a] for k, a in where]
        starts = np.concatenate(([0], np.cumsum([len(p) for p in parts])))
        found, cost, tag = memo_values(self.totals.memo, np.concatenate(parts), starts, UNLIMITED)
        return {(int(k), int(a)): (c, t) for (k, a), f, c, t in zip(where, found, cost, tag) if f}

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
        rules = self.rules
        code, answer = rules.code_text, (lambda a: str(rules.answer_feedbacks[a]))
        out: dict[str, Any] = {"path": [[code(g), answer(a)] for g, a in fact.path], fact.kind: fact.bound}
        if fact.symmetries:
            out["symmetries"] = [{"pegs": p, "colours": c} for p, c in fact.symmetries]
        if fact.refs:
            out["refs"] = [[code(g), answer(a), i] for g, a, i in fact.refs]
        return out

    def document(
        self, total: int | None, worst: int | None, strategy: Node, worst_strategy: Node | None
    ) -> dict[str, Any]:
        """The proof file of the facts written so far."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": str(self.rules),
            "total": total,
            "worst": worst,
            "strategy": self.node_json(strategy),
            "worst_strategy": None if worst_strategy is None else self.node_json(worst_strategy),
            "facts": [self.fact_json(f) for f in self.facts],
        }

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
    memory: int = 1 << 28,
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


def prove(table: CodeTable, strategy: Node, total: int | None, memory: int = 1 << 28) -> dict[str, Any]:
    """The proof file of an optimum the search has proven: ``total`` (the optimal total,
    ``strategy`` an optimal strategy) and the optimal worst case, which the search that asks
    whether a strategy within some depth exists finds below the strategy's own; or, with
    ``total`` None, the optimal worst case alone (``strategy``'s, which the search proved)."""
    certifier = Certifier(table, memory)
    everyone = table.all_codes.astype(np.int32)
    worst = _depth(strategy)
    worst_strategy = None
    if total is not None:
        while worst > 1 and certifier.solvable(everyone, worst - 1, certifier.group):
            worst -= 1
        if worst < _depth(strategy):
            worst_strategy = certifier.depths.build(everyone, worst)
        certifier.certify("total", everyone, total)
    certifier.certify("worst", everyone, worst)
    return certifier.document(total, worst, strategy, worst_strategy)


def _depth(node: Node) -> int:
    """The most guesses a strategy takes."""
    return 1 + max((_depth(c) for c in node.children.values()), default=0)
