"""Strategy trees as one self-contained HTML page: a collapsible, searchable tree explorer.

The page (template ``tree_explorer.html`` beside this module) needs no server and no network:
its script and styles are inline and the tree is embedded as compact JSON, a node being
``[guess, candidates]`` or ``[guess, candidates, [[answer, node], ...]]`` with the answers in
answer order. The script builds the rows of a level only when it is expanded, so trees of a
few thousand secrets open at once.

>>> from mastermind.core.formats.html import page_data, write_html
>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.core.tree import build_tree
>>> tree = build_tree(CodeTable(Rules(2, 2)), lambda cands, history: int(cands[0]), name="first")
>>> page_data(tree)["tree"]
['11', 4, [['0B0W', ['22', 1]], ['1B0W', ['12', 2, [['0B2W', ['21', 1]]]]]]]
>>> page_data(tree)["stats"]
{'total': 8, 'secrets': 4, 'average': 2.0, 'worst': 3, 'histogram': [1, 2, 1]}
>>> "<script" in write_html(tree) and "https://" not in write_html(tree)
True
"""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources
from typing import Any

import numpy as np

from mastermind.core.game import SYMBOLS
from mastermind.core.tree import Node, Stats, StrategyTree

TEMPLATE = "tree_explorer.html"
_DATA_MARK = "__TREE_DATA__"
# inside <script> the JSON must not close the element nor open a comment
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def write_html(tree: StrategyTree, stats: Stats | None = None) -> str:
    """The page for ``tree``; ``stats`` (else counted from the tree itself) fill its header."""
    template = resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8")
    payload = json.dumps(page_data(tree, stats), separators=(",", ":")).translate(_SCRIPT_SAFE)
    return template.replace(_DATA_MARK, payload, 1)


def page_data(tree: StrategyTree, stats: Stats | None = None) -> dict[str, Any]:
    """What the page embeds: the game, the strategy's name and statistics, the compact tree."""
    rules = tree.rules
    stats = stats if stats is not None else structural_stats(tree)
    return {
        "rules": str(rules),
        "pegs": rules.pegs,
        "colours": rules.colors,
        "repetition": rules.repeat,
        # the variant's answers: whether they tell white pegs, and the win as written
        "whites": rules.answer_feedbacks[rules.win_index].whites,
        "win": str(rules.answer_feedbacks[rules.win_index]),
        "symbols": SYMBOLS[: rules.colors],
        "name": tree.name,
        "stats": {
            "total": stats.total,
            "secrets": stats.secrets,
            "average": round(stats.average, 6),
            "worst": stats.worst,
            "histogram": list(stats.histogram),
        },
        "tree": _compact(tree, tree.root),
    }


def structural_stats(tree: StrategyTree) -> Stats:
    """Statistics from the tree's own counts (no replay): a guess that solves at depth d is a
    secret found with d guesses. Use them only for a tree already checked (read or built here).
    """
    solved: dict[int, int] = {}
    level = [tree.root]
    depth = 1
    while level:
        solved.update((node.guess, depth) for node in level if node.solves_here)
        level = [child for node in level for child in node.children.values()]
        depth += 1
    codes = sorted(solved)
    stats = Stats.from_depths(np.asarray([solved[c] for c in codes], dtype=np.int64))
    return replace(stats, worst_secrets=tuple(codes[i] for i in stats.worst_secrets))


def _compact(tree: StrategyTree, node: Node) -> list[Any]:
    rules = tree.rules
    out: list[Any] = [rules.code_text(node.guess), node.candidates]
    if node.children:
        out.append(
            [
                [str(rules.answer_feedbacks[a]), _compact(tree, node.children[a])]
                for a in sorted(node.children)
            ]
        )
    return out
