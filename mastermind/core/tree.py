"""Strategy trees: what to guess after every sequence of answers, and their statistics.

A node holds the number of secrets that reach it, the guess made there and one child per
non-winning answer. The guess solves one secret at the node when it is itself one of the
secrets that reach it, so ``candidates == solved_here + sum(child.candidates)``.

>>> from mastermind.core.tree import build_tree
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(2, 2))
>>> tree = build_tree(table, lambda cands, history: int(cands[0]))
>>> s = tree.stats(table)
>>> s.total, s.worst, s.histogram
(8, 3, (1, 2, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import AnswerIndex, Code, CodeTable, Rules
from mastermind.core.words import plural

History = Sequence[tuple[Code, AnswerIndex]]
"""The guesses made so far with their answers."""


class TreeError(MastermindError):
    """A strategy tree that is incomplete or inconsistent; the message names where."""


@dataclass(frozen=True)
class Node:
    """One position of a strategy: the ``guess`` made there, how many secrets (``candidates``)
    reach it, and the position after each non-winning answer (``children``, keyed by answer
    index). Frozen: a tree is built by filling ``children``; a changed node is a new one
    (``dataclasses.replace``) put in its parent's place.

    >>> from mastermind.core.tree import Node
    >>> from mastermind.core.game import Rules
    >>> rules = Rules(2, 2)                   # codes 11 12 21 22 are indices 0 1 2 3
    >>> root = Node(0, 4, {rules.answer_index(rules.parse_feedback("1B0W")): Node(1, 2, {
    ...     rules.answer_index(rules.parse_feedback("0B2W")): Node(2, 1)}),
    ...     rules.answer_index(rules.parse_feedback("0B0W")): Node(3, 1)})
    >>> root.solves_here, [n.guess for n in root.walk()]
    (True, [0, 1, 2, 3])
    """

    guess: Code
    candidates: int
    children: dict[AnswerIndex, Node] = field(default_factory=dict)

    @property
    def solves_here(self) -> bool:
        """True when the guess is one of the secrets that reach this node."""
        return self.candidates - sum(c.candidates for c in self.children.values()) == 1

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children.values():
            yield from child.walk()


@dataclass(frozen=True)
class Stats:
    """Guesses needed over all secrets (the final, correct guess counts).

    >>> from mastermind.core.tree import build_tree
    >>> from mastermind.core.game import CodeTable, Rules
    >>> table = CodeTable(Rules(2, 2))
    >>> build_tree(table, lambda cands, history: int(cands[0])).stats(table)
    Stats(total=8, secrets=4, worst=3, histogram=(1, 2, 1), worst_secrets=(2,))
    """

    total: int
    secrets: int
    worst: int
    # (tuples: a result is frozen, and a list in it could still be changed)
    histogram: tuple[int, ...]  # histogram[i]: secrets solved with i + 1 guesses
    worst_secrets: tuple[Code, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "histogram", tuple(self.histogram))
        object.__setattr__(self, "worst_secrets", tuple(self.worst_secrets))

    @property
    def average(self) -> float:
        """Guesses per secret."""
        return self.total / self.secrets if self.secrets else 0.0

    @classmethod
    def from_depths(cls, depths: np.ndarray) -> Stats:
        """The statistics of the guesses each secret needs.

        >>> import numpy as np
        >>> from mastermind.core.tree import Stats
        >>> s = Stats.from_depths(np.array([1, 2, 2, 3]))
        >>> s.total, s.worst, s.histogram, s.worst_secrets, s.average
        (8, 3, (1, 2, 1), (3,), 2.0)
        """
        depths = np.asarray(depths)
        if depths.size == 0:
            return cls(0, 0, 0, (), ())
        worst = int(depths.max())
        hist = tuple(np.bincount(depths, minlength=worst + 1)[1:].tolist())
        return cls(
            int(depths.sum()), int(depths.size), worst, hist, tuple(np.flatnonzero(depths == worst).tolist())
        )

    def to_dict(self, rules: Rules) -> dict[str, Any]:
        return {
            "total": self.total,
            "secrets": self.secrets,
            "average": round(self.average, 6),
            "worst": self.worst,
            "histogram": list(self.histogram),
            "worst_secrets": [rules.code_text(c) for c in self.worst_secrets],
        }


@dataclass(frozen=True)
class StrategyTree:
    """A complete strategy for one game: the :class:`Node` of the first guess (``root``),
    the ``rules`` and a ``name``. :meth:`stats` replays every secret and checks the counts.
    Frozen, as the results that hold it are: renamed by :func:`dataclasses.replace`.

    >>> from mastermind.core.tree import build_tree
    >>> from mastermind.core.game import CodeTable, Rules
    >>> table = CodeTable(Rules(2, 2))
    >>> tree = build_tree(table, lambda cands, history: int(cands[-1]), name="last")
    >>> tree.rules.code_text(tree.root.guess), tree.stats(table).total
    ('22', 8)
    """

    rules: Rules
    root: Node
    name: str = ""

    def depths(self, table: CodeTable, secrets: np.ndarray | None = None) -> np.ndarray:
        """Guesses needed by every secret (all codes by default), indexed like ``secrets``.

        Replays every secret through the tree and raises :class:`TreeError` naming the path
        of answers to the first node where the tree is incomplete or its counts are wrong.
        """
        secrets = table.all_codes if secrets is None else np.asarray(secrets)
        flat = self._flat(table)
        if flat is not None:
            from mastermind.core._kernels import replay_depths

            scores = np.zeros((0, 0), dtype=np.uint8) if table.scores is None else table.scores
            extra = (table.codes, table.counts, table.rules.answer_lut)
            ok, out = replay_depths(scores, *extra, *flat, secrets.astype(np.int64), table.rules.win_index)
            if ok:
                return out[secrets]
        # the tree does not fit the secrets: find out where
        out = np.zeros(table.n, dtype=np.int64)
        self._replay(table, self.root, secrets, 1, (), out)
        return out[secrets]

    def _flat(self, table: CodeTable) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The tree as arrays for :func:`mastermind.core._kernels.replay_depths` (guess, children by
        answer, count per node; root first), or None when a guess or an answer is out of range."""
        slots = table.rules.n_answer_slots
        nodes = [self.root]
        guesses, counts, links = [], [], []
        i = 0
        while i < len(nodes):
            node = nodes[i]
            if not 0 <= node.guess < table.n:
                return None
            guesses.append(node.guess)
            counts.append(node.candidates)
            for a, child in node.children.items():
                if not 0 <= a < slots or a == table.rules.win_index:
                    return None
                links.append((i, a, len(nodes)))
                nodes.append(child)
            i += 1
        children = np.full((len(nodes), slots), -1, dtype=np.int64)
        for parent, a, index in links:
            children[parent, a] = index
        return (np.asarray(guesses, dtype=np.int64), children, np.asarray(counts, dtype=np.int64))

    def _replay(
        self,
        table: CodeTable,
        node: Node,
        secrets: np.ndarray,
        depth: int,
        path: tuple[tuple[Code, AnswerIndex], ...],
        out: np.ndarray,
    ) -> None:
        # ``path``: the (guess, answer) pairs from the root, turned into text only for errors
        rules = table.rules
        if not 0 <= node.guess < table.n:
            raise TreeError(f"{_where(rules, path)}: guess index {node.guess} is not a code of {rules}")
        if node.candidates != len(secrets):
            raise TreeError(
                f"{_where(rules, path)}: node says {plural(node.candidates, 'secret')}, "
                f"{len(secrets)} reach it"
            )
        answers = table.answer_indices(node.guess, secrets)
        win = rules.win_index
        order = np.argsort(answers, kind="stable")
        ordered = answers[order]
        cuts = np.flatnonzero(np.diff(ordered)) + 1
        starts = [0, *cuts.tolist()]
        ends = [*cuts.tolist(), len(ordered)]
        used = set()
        for lo, hi in zip(starts, ends):
            if hi == lo:
                continue
            a = int(ordered[lo])
            if a == win:
                out[node.guess] = depth
                continue
            child = node.children.get(a)
            if child is None:
                raise TreeError(
                    f"{_where(rules, path)}: no branch for answer {rules.answer_feedbacks[a]} to "
                    f"{rules.code_text(node.guess)}, which {plural(hi - lo, 'secret')} give"
                    f"{'s' if hi - lo == 1 else ''}"
                )
            used.add(a)
            self._replay(table, child, secrets[order[lo:hi]], depth + 1, (*path, (node.guess, a)), out)
        if len(used) != len(node.children):
            a = min(set(node.children) - used)
            raise TreeError(
                f"{_where(rules, path)}: branch for answer {rules.answer_feedbacks[a]} to "
                f"{rules.code_text(node.guess)} that no secret reaches"
            )

    def stats(self, table: CodeTable) -> Stats:
        return Stats.from_depths(self.depths(table))

    def guesses_for(self, table: CodeTable, secret: Code) -> list[tuple[Code, AnswerIndex, int]]:
        """The game against one secret: (guess, answer index, secrets left after it)."""
        node, out = self.root, []
        while True:
            a = int(table.answer_indices(node.guess, np.array([secret]))[0])
            if a == table.rules.win_index:
                out.append((node.guess, a, 0))
                return out
            child = node.children.get(a)
            if child is None:
                raise TreeError(f"the tree has no branch for secret {table.rules.code_text(secret)}")
            out.append((node.guess, a, child.candidates))
            node = child

    def n_nodes(self) -> int:
        return sum(1 for _ in self.root.walk())

    def __repr__(self) -> str:
        """What the tree is, not its nodes (those of p5c8 are megabytes of text).

        >>> from mastermind.core.tree import build_tree
        >>> from mastermind.core.game import CodeTable, Rules
        >>> build_tree(CodeTable(Rules(2, 2)), lambda cands, history: int(cands[-1]), name="last")
        StrategyTree(rules=p2c2r, first_guess='22', nodes=4, name='last')
        """
        first, nodes = self.rules.code_text(self.root.guess), self.n_nodes()
        return f"StrategyTree(rules={self.rules}, first_guess={first!r}, nodes={nodes}, name={self.name!r})"


NextGuess = Callable[[np.ndarray, History], Code]


def build_tree(
    table: CodeTable,
    next_guess: NextGuess,
    candidates: np.ndarray | None = None,
    name: str = "",
) -> StrategyTree:
    """Play every candidate secret with ``next_guess(candidates, history)`` and record the tree."""
    cands = table.all_codes if candidates is None else np.asarray(candidates)
    win = table.rules.win_index

    def grow(cands: np.ndarray, history: tuple[tuple[Code, AnswerIndex], ...]) -> Node:
        guess = int(next_guess(cands, history))
        node = Node(guess, len(cands))
        for a, part in table.classes(guess, cands):
            if a == win:
                continue
            if len(part) == len(cands):
                raise MastermindError(
                    f"strategy guessed {table.rules.code_text(guess)}, which does not split "
                    f"{len(cands)} candidates: it would never finish"
                )
            node.children[a] = grow(part, (*history, (guess, a)))
        return node

    return StrategyTree(table.rules, grow(cands, ()), name)


def _where(rules: Rules, path: History) -> str:
    """The error location of a node: "root", or the guesses and answers leading to it."""
    if not path:
        return "root"
    return "path " + " ".join(f"{rules.code_text(g)} {rules.answer_feedbacks[a]}" for g, a in path)
