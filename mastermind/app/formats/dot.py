"""Strategy trees as Graphviz ``dot`` graphs, ready for ``dot -Tsvg``.

One ellipse per guess (the guess and how many secrets remain), edges labelled with the
answer in answer order, and one box per solved secret, reached by the winning answer.

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.core.tree import build_tree
>>> tree = build_tree(CodeTable(Rules(1, 2)), lambda cands, history: int(cands[0]))
>>> print(write_dot(tree), end="")
digraph "p1c2r" {
  ordering=out;
  node [fontname="monospace"];
  n0 [label="1\\n2"];
  n0 -> n1 [label="0B0W"];
  n1 [label="2\\n1"];
  n1 -> s0 [label="1B0W"];
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

    def emit(node: Node, parent: str | None, answer: str) -> None:
        ident = f"n{next(guesses)}"
        if parent is not None:  # the edge before the node: the text reads top-down
            lines.append(f'  {parent} -> {ident} [label="{answer}"];')
        lines.append(f'  {ident} [label="{rules.code_text(node.guess)}\\n{node.candidates}"];')
        for a in sorted(node.children):
            emit(node.children[a], ident, str(rules.answer_feedbacks[a]))
        if node.solves_here:
            leaf = f"s{next(solved)}"
            lines.append(f'  {ident} -> {leaf} [label="{win}"];')
            lines.append(f'  {leaf} [shape=box, label="{rules.code_text(node.guess)}"];')

    emit(tree.root, None, "")
    lines.append("}")
    return "\n".join(lines) + "\n"
