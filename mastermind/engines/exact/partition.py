"""The classes a guess splits a set into, with their lower bounds: what the top-level search
expands and what the warm-up compiles."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mastermind.engines.exact._kernels import split_classes

if TYPE_CHECKING:
    from mastermind.engines.exact.search import Search

Group = tuple[np.ndarray, np.ndarray]
Class = tuple[np.ndarray, int, Group]  # its secrets, the answer that leads to it, its group


def guess_classes(
    search: Search, cands: np.ndarray, r: int, group: Group, guess: int, most: int
) -> tuple[list[Class], list[float], float]:
    """The non-winning classes of ``guess`` on ``cands`` (``r`` guesses left, ``most``: the
    most classes any guess makes there), each class's lower bound, and the guess's own cost."""
    w = search.weights[cands]
    table = search.node_tables(r - 1)[0][min(most, search.branching)]
    out, _, starts, sizes, answers, bounds = split_classes(
        search.scores, guess, cands, w, table, search.n_slots, search.win, search.unit, r - 1 >= 3
    )
    child = search.child_group(group, guess)
    classes = [(out[int(s) : int(s) + int(m)], int(a), child) for s, m, a in zip(starts, sizes, answers)]
    return classes, [search._as_cost(b) for b in bounds.tolist()], search.unit * w.sum().item()
