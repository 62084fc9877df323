"""Strategy trees as Graphviz ``dot`` graphs, ready for ``dot -Tsvg``.

One ellipse per guess (the guess and how many secrets remain), edges labelled with the
answer in answer order, and one box per secret: reached by the winning answer from the
guess that solves it, or, when a single secret is left, by the answer that leaves it (its
guess is then not drawn a second time).

>>> from mastermind.core.formats.dot import write_dot
>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.core.tree import build_tree
>>> tree = build_tree(CodeTable(Rules(1, 2)), lambda cands, history: int(cands[0]))
>>> print(write_dot(tree), end="")
digraph "p1c2r" {
  ordering=out;
  node [fontname="monospace"];
  n0 [label="1\\n2"];
  n0 -> s0 [label="0B0W"];
  s0 [shape=box, label="2"];
  n0 -> s1 [label="1B0W"];
  s1 [shape=box, label="1"];
}
"""

from __future__ import annotations

import itertools
import json

from mastermind.core.tree import Node, StrategyTree


def write_dot(tree: StrategyTree) -> str:
    """The tree as a dot digraph (nodes ``n<i>`` for guesses, ``s<i>`` for solved secrets)."""
    rules = tree.rules
    title = f"{rules} {tree.name}".strip()
    lines = [f"digraph {json.dumps(title)} {{", "  ordering=out;", '  node [fontname="monospace"];']
    guesses, solved = itertools.count(), itertools.count()
    win = str(rules.answer_feedbacks[rules.win_index])

    def box(parent: str | None, answer: str, code: str) -> None:
        leaf = f"s{next(solved)}"
        if parent is not None:
            lines.append(f'  {parent} -> {leaf} [label="{answer}"];')
        lines.append(f'  {leaf} [shape=box, label="{code}"];')

    def emit(node: Node, parent: str | None, answer: str) -> None:
        code = rules.code_text(node.guess)
        if not node.children and node.candidates == 1:  # the last secret: one box, not two
            box(parent, answer, code)
            return
        ident = f"n{next(guesses)}"
        if parent is not None:  # the edge before the node: the text reads top-down
            lines.append(f'  {parent} -> {ident} [label="{answer}"];')
        lines.append(f'  {ident} [label="{code}\\n{node.candidates}"];')
        for a in sorted(node.children):
            emit(node.children[a], ident, str(rules.answer_feedbacks[a]))
        if node.solves_here:
            box(ident, win, code)

    emit(tree.root, None, "")
    lines.append("}")
    return "\n".join(lines) + "\n"
