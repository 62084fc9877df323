"""Graphviz output: a structural parse of the text, and a render where Graphviz is installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from mastermind.core.formats import write_tree
from mastermind.core.formats.irving import read_irving
from mastermind.core.game import CodeTable, Rules

NODE = re.compile(r'^\s*(\w+) \[(shape=box, )?label="([^"]*)"\];$')
EDGE = re.compile(r'^\s*(\w+) -> (\w+) \[label="(\d+B\d+W)"\];$')


def parse_dot(text: str) -> tuple[dict[str, tuple[bool, str]], list[tuple[str, str, str]]]:
    """Nodes (id -> (is_leaf, label)) and edges of the dot subset the writer produces."""
    assert text.count("{") == text.count("}") == 1
    lines = text.strip().splitlines()
    assert re.match(r'^digraph "[^"]*" \{$', lines[0]) and lines[-1] == "}"
    assert "  ordering=out;" in lines
    nodes, edges = {}, []
    for line in lines[1:-1]:
        if m := NODE.match(line):
            assert m.group(1) not in nodes, f"node {m.group(1)} declared twice"
            nodes[m.group(1)] = (bool(m.group(2)), m.group(3))
        elif m := EDGE.match(line):
            edges.append(m.groups())
        else:
            assert line.strip() in ("ordering=out;", 'node [fontname="monospace"];'), line
    return nodes, edges


@pytest.mark.parametrize("name", ["p4c6r-knuth.txt", "p4c6r-koyama-1.txt"])
def test_published_tree_as_dot(name, data_dir, table46):
    rules = table46.rules
    tree = read_irving((data_dir / name).read_text(), table46, name)
    nodes, edges = parse_dot(write_tree(tree, "dot"))
    guesses = [label for leaf, label in nodes.values() if not leaf]
    leaves = sorted(label for leaf, label in nodes.values() if leaf)
    last_secrets = sum(1 for n in tree.root.walk() if not n.children and n.candidates == 1)
    assert len(guesses) == tree.n_nodes() - last_secrets  # a last secret is drawn once, as a box
    assert all(not label.endswith(r"\n1") for label in guesses)
    assert leaves == sorted(rules.code_text(c) for c in range(rules.n_codes))  # each secret once
    assert len(edges) == len(nodes) - 1  # a tree
    assert all(a in nodes and b in nodes for a, b, _ in edges)
    assert {b for _, b, _ in edges} == set(nodes) - {"n0"}  # one parent each, n0 the root
    assert nodes["n0"] == (False, r"1122\n1296" if "knuth" in name else r"1123\n1296")
    wins = [e for e in edges if e[2] == "4B0W"]
    assert len(wins) == rules.n_codes - last_secrets and all(nodes[b][0] for _, b, _ in wins)
    # edges out of the root in answer order (ordering=out draws them so)
    root_labels = [label for a, _, label in edges if a == "n0"]
    order = [str(f) for f in rules.answer_feedbacks]
    assert root_labels == sorted(root_labels, key=order.index)


def test_small_tree_as_dot(simple_strategies):
    table = CodeTable(Rules(3, 3, False))
    tree = simple_strategies["last"](table)
    nodes, edges = parse_dot(write_tree(tree, "dot"))
    last_secrets = sum(1 for n in tree.root.walk() if not n.children and n.candidates == 1)
    assert sum(1 for leaf, _ in nodes.values() if leaf) == 6
    assert len(nodes) == tree.n_nodes() - last_secrets + 6 and len(edges) == len(nodes) - 1


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz (dot) is not installed")
@pytest.mark.parametrize("rules", [Rules(3, 3), Rules(1, 1), Rules(2, 4, False)])
@pytest.mark.integration
def test_dot_itself_reads_each_secret_once(simple_strategies, rules):
    # small games: Graphviz needs about half a minute for the 2,600 nodes of a p4c6 tree
    tree = simple_strategies["minimax"](CodeTable(rules))
    result = subprocess.run(
        ["dot", "-Tjson"], input=write_tree(tree, "dot"), capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    graph = json.loads(result.stdout)
    objects = graph["objects"]
    boxes = sorted(o["label"] for o in objects if o.get("shape") == "box")
    ellipses = [o["label"] for o in objects if o.get("shape") != "box"]
    assert boxes == sorted(rules.code_text(c) for c in range(rules.n_codes))  # no secret twice
    last_secrets = sum(1 for n in tree.root.walk() if not n.children and n.candidates == 1)
    assert len(ellipses) == tree.n_nodes() - last_secrets
    assert len(graph.get("edges", [])) == len(objects) - 1  # connected: a tree
