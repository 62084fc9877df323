"""The JSON strategy format: round trips, the header and refusals with a position."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mastermind.core.formats import detect_format, read_tree, write_tree
from mastermind.core.formats.base import StrategyFileError
from mastermind.core.formats.irving import read_irving
from mastermind.core.formats.jsonfmt import check_header_stats, read_json, write_json
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import TreeError, build_tree


@pytest.fixture(scope="module")
def knuth(data_dir, table46):
    return read_irving((data_dir / "p4c6r-knuth.txt").read_text(), table46, "knuth")


def test_header_and_nodes(knuth, table46):
    stats = knuth.stats(table46)
    data = json.loads(write_json(knuth, stats))
    assert data["format"] == "mastermind-strategy" and data["version"] == 1
    assert data["rules"] == "p4c6r" and data["name"] == "knuth"
    assert data["stats"] == {
        "total": 5801,
        "secrets": 1296,
        "average": round(5801 / 1296, 6),
        "worst": 5,
        "histogram": [1, 6, 62, 533, 694],
    }
    root = data["tree"]
    assert (root["candidates"], root["guess"]) == (1296, "1122")
    assert root["children"]["0B0W"]["candidates"] == 256
    assert "4B0W" not in root["children"]
    assert list(root["children"]) == [str(a) for a in Rules(4, 6).answers if str(a) in root["children"]]


@pytest.mark.parametrize("name", ["p4c6r-knuth.txt", "p4c6r-koyama-1.txt"])
def test_published_round_trip(name, data_dir, table46, published, same_tree):
    tree = read_irving((data_dir / name).read_text(), table46)
    text = write_json(tree, tree.stats(table46))
    back, header = read_json(text)
    same_tree(tree.root, back.root)
    stats = back.stats(table46)
    assert (stats.total, stats.worst, list(stats.histogram)) == published[name]
    assert check_header_stats(header, stats) == []


@pytest.mark.parametrize("game", ["p4c6", "p4c6n", "p3c5n", "p5c3", "p1c3", "p3c2"])
@pytest.mark.parametrize("strategy", ["first", "last", "minimax"])
def test_built_trees_round_trip(game, strategy, simple_strategies, same_tree):
    rules = Rules.parse(game)
    if strategy == "minimax" and rules.n_codes > 300:
        pytest.skip("the all-codes minimax of the test is quadratic; small games suffice")
    table = CodeTable(rules)
    tree = simple_strategies[strategy](table)
    back, header = read_json(write_tree(tree, "json", tree.stats(table)))
    assert back.rules == rules and back.name == tree.name
    same_tree(tree.root, back.root)
    assert back.stats(table) == tree.stats(table)


def test_read_tree_dispatch_and_rules(knuth, table46):
    text = write_tree(knuth, "json")
    assert detect_format(text) == "json" and detect_format(" 1296(1122: ...") == "irving"
    assert detect_format("{", "x.txt") == "json" and detect_format("", "x.json") == "json"
    assert detect_format("", "x.txt") == detect_format("?", "x.tree") == "irving"
    # the formats only written are named, not read as a broken Irving text
    for content, name in (("?", "x.dot"), ("digraph strategy {", "x.txt"), ("<!DOCTYPE html>", None)):
        with pytest.raises(StrategyFileError, match="written in that format"):
            detect_format(content, name)
    tree, header = read_tree(text, "json")
    assert tree.rules == Rules(4, 6) and "stats" not in header
    with pytest.raises(Exception, match="strategy for p4c6r, not p4c6n") as info:
        read_tree(text, "json", Rules(4, 6, False))
    # no valid strategy of the game asked: verify says invalid (exit 1), as for an Irving file
    # read for another game; commands that play a file refuse it as any bad input (exit 2)
    assert isinstance(info.value, TreeError)


def test_header_stats_are_checked(knuth, table46):
    stats = knuth.stats(table46)
    data = json.loads(write_json(knuth, stats))
    data["stats"]["total"] = 5800
    tree, header = read_json(json.dumps(data))
    assert check_header_stats(header, tree.stats(table46)) == [
        "header: stats say total 5800, the tree gives 5801"
    ]


def test_a_wrong_count_is_found_by_the_replay(knuth, table46):
    data = json.loads(write_json(knuth))
    data["tree"]["children"]["0B0W"]["candidates"] = 255
    tree, _ = read_json(json.dumps(data))
    with pytest.raises(TreeError, match="path 1122 0B0W: node says 255 secrets, 256 reach it"):
        tree.stats(table46)


def test_a_missing_branch_is_found_by_the_replay(knuth, table46):
    data = json.loads(write_json(knuth))
    del data["tree"]["children"]["1B0W"]
    tree, _ = read_json(json.dumps(data))
    with pytest.raises(TreeError, match="root: no branch for answer 1B0W to 1122"):
        tree.stats(table46)


GOOD = {
    "rules": "p2c2",
    "tree": {
        "candidates": 4,
        "guess": "11",
        "children": {
            "0B0W": {"candidates": 1, "guess": "22"},
            "1B0W": {"candidates": 2, "guess": "12", "children": {"0B2W": {"candidates": 1, "guess": "21"}}},
        },
    },
}


def edited(change) -> str:
    data = json.loads(json.dumps(GOOD))
    change(data)
    return json.dumps(data)


def deep(levels: int) -> str:
    node = '{"candidates": 1, "guess": "11"}'
    for _ in range(levels):
        node = '{"candidates": 1, "guess": "11", "children": {"0B0W": ' + node + "}}"
    return '{"rules": "p2c2", "tree": ' + node + "}"


def test_the_small_example_is_valid():
    tree, _ = read_json(json.dumps(GOOD))
    assert tree.stats(CodeTable(Rules(2, 2))).total == 8
    tree, _ = read_json("\ufeff" + json.dumps(GOOD, indent=4).replace("\n", "\r\n"))
    assert tree.stats(CodeTable(Rules(2, 2))).total == 8


@pytest.mark.parametrize(
    "text, words",
    [
        (
            '{"rules": "p2c2", "tree": {"candidates": 4,\n "guess": "11",, }}',
            "line 2 column 16: not valid JSON",
        ),
        ("", "line 1 column 1: not valid JSON"),
        ("[1, 2]", "must hold an object"),
        (edited(lambda d: d.pop("rules")), "needs 'rules'"),
        (edited(lambda d: d.update(rules="p2c99")), "header: colours must be"),
        (edited(lambda d: d.pop("tree")), "no 'tree'"),
        (edited(lambda d: d.update(format="other")), "'format' is 'other'"),
        (edited(lambda d: d.update(version=2)), "knows version 1"),
        (edited(lambda d: d["tree"].update(guess="13")), "root: bad guess"),
        (edited(lambda d: d["tree"].update(guess=11)), "root: 'guess' must be a code as text"),
        (edited(lambda d: d["tree"].update(candidates="4")), "root: 'candidates' must be a positive integer"),
        (edited(lambda d: d["tree"].update(candidates=True)), "'candidates' must be a positive integer"),
        (edited(lambda d: d["tree"]["children"]["1B0W"].update(guess="1")), "path 11 1B0W: bad guess"),
        (
            edited(lambda d: d["tree"]["children"].update({"2B0W": {"candidates": 1, "guess": "11"}})),
            "the win 2B0W after 11 cannot have a child",
        ),
        (
            edited(lambda d: d["tree"]["children"].update({"1B1W": {"candidates": 1, "guess": "11"}})),
            "root: bad answer after 11: impossible feedback 1B1W",
        ),
        (edited(lambda d: d["tree"].update(children=[])), "'children' must be an object"),
        (
            edited(lambda d: d["tree"]["children"].update({"0B0W": 3})),
            "path 11 0B0W: a node must be an object",
        ),
        ('{"rules": "p2c2", "rules": "p2c3", "tree": {}}', "key 'rules' appears twice"),
        (deep(300), "nested deeper than 200"),
    ],
    ids=lambda v: v if len(v) < 40 else None,
)
def test_bad_json_is_refused_with_a_position(text, words):
    with pytest.raises(StrategyFileError) as info:
        read_json(text)
    message = str(info.value)
    assert words in message and "\n" not in message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_json_gives_a_tree_error(data):
    """Any damage is a one-line TreeError (reading or replaying), never another exception."""
    table = CodeTable(Rules(3, 3))
    text = write_json(build_tree(table, lambda cands, history: int(cands[-1])))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text) - 1))
        char = data.draw(st.sampled_from(list('0123456789{}[]":, BWtrue') + ["null", "-1", "1.5"]))
        text = text[:at] + char + text[at + 1 :]
    try:
        tree, _ = read_json(text)
        tree.stats(table)
    except TreeError as exc:
        assert "\n" not in str(exc)


def test_a_file_cut_off_in_a_string_says_where_the_string_starts():
    """json's message ends "starting at" and gives the position apart: the message ended
    "...starting at" with nothing after it (a new user's trial)."""
    with pytest.raises(StrategyFileError) as info:
        read_json('{"rules": "p2c2", "tree": {"gu')
    assert str(info.value) == "line 1 column 28: not valid JSON: Unterminated string starting"
