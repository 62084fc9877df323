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

>>> from mastermind.core.game import CodeTable, Rules
>>> proof = certify(CodeTable(Rules(3, 3)), 73, 4)
>>> proof["total"], proof["worst"], len(proof["facts"]) > 0
(73, 4, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.symmetry import full_group
from mastermind.core.tree import Node
from mastermind.engines.exact.search import UNLIMITED, Search

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

        for e in range(len(perms)):
            add(tuple(int(x) for x in perms[e]), tuple(c if cmaps[e, c] < 0 else int(cmaps[e, c]) for c in range(colours)))
        for block in (free, absent):
            for a, b in zip(block, block[1:]):
                swap = list(range(colours))
                swap[a], swap[b] = b, a
                add(identity[0], tuple(swap))
        return out

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
        symmetries = self.symmetries(cands, group)
        guesses = self.representatives(symmetries)
        answers = self.scores[np.ix_(guesses, cands)].astype(np.int64)
        counts = np.zeros((len(guesses), self.n_slots), dtype=np.int64)
        np.add.at(counts, (np.arange(len(guesses))[:, None], answers), 1)
        counts[:, self.win] = 0
        b = int((counts > 0).sum(axis=1).max())
        floors = perfect_floors(len(cands), b, kind)
        values = floors[counts]
        n = len(cands)
        fact = Fact(kind, int(bound), path, symmetries)
        for k in np.flatnonzero(counts.max(axis=1) < n):
            derived = n + values[k].sum() if kind == "total" else 1 + values[k].max()
            if derived >= bound:
                continue
            g = int(guesses[k])
            child = self.totals.child_group(group, g)
            raise_order = np.flatnonzero(counts[k])
            raise_order = raise_order[np.argsort(counts[k][raise_order], kind="stable")]
            if kind == "worst":
                raise_order = raise_order[::-1]
            short = bound - derived
            for a in raise_order.tolist():
                part = cands[answers[k] == a]
                sub_path = (*path, (g, a))
                if kind == "total":
                    floor = int(floors[len(part)])
                    if len(part) <= 2:
                        continue
                    value = self.totals.solve(part, UNLIMITED, floor + short, child)
                    if value <= floor:
                        continue
                    claim = int(min(value, floor + short))
                    fact.refs.append((g, a, self.certify(kind, part, claim, sub_path, child)))
                    short -= claim - floor
                elif self.depths.solve(part, bound - 2, 1, child) > 0:  # no strategy within bound - 2
                    fact.refs.append((g, a, self.certify(kind, part, bound - 1, sub_path, child)))
                    short = 0
                if short <= 0:
                    break
            if short > 0:
                raise AssertionError(f"{kind} >= {bound} of {n} secrets is not what the search proves")
        self.facts.append(fact)
        self.known[key] = (int(bound), len(self.facts) - 1)
        return len(self.facts) - 1

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

    def node_json(self, node: Node) -> dict[str, Any]:
        out: dict[str, Any] = {"candidates": node.candidates, "guess": self.rules.code_text(node.guess)}
        if node.children:
            out["children"] = {
                str(self.rules.answer_feedbacks[a]): self.node_json(node.children[a]) for a in sorted(node.children)
            }
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
    without it, the search builds one."""
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
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": str(table.rules),
        "total": total,
        "worst": worst,
        "strategy": certifier.node_json(strategy),
        "worst_strategy": None if worst_strategy is None else certifier.node_json(worst_strategy),
        "facts": [certifier.fact_json(f) for f in certifier.facts],
    }


def _depth(node: Node) -> int:
    """The most guesses a strategy takes."""
    return 1 + max((_depth(c) for c in node.children.values()), default=0)
