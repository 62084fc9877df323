"""Reading and writing the Irving text format: the published trees, corruptions, round trips."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mastermind.core.formats import read_tree, verify_text
from mastermind.core.formats.base import StrategyFileError
from mastermind.core.formats.irving import irving_rules, read_irving, write_irving
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import TreeError, build_tree

FILES = ["p4c6r-knuth.txt", "p4c6r-koyama-1.txt"]


def read(data_dir, name):
    return (data_dir / name).read_text()


@pytest.mark.parametrize("name", FILES)
def test_published_trees_have_their_published_numbers(name, data_dir, table46, published):
    tree = read_irving(read(data_dir, name), table46)
    stats = tree.stats(table46)
    assert (stats.total, stats.worst, list(stats.histogram)) == published[name]


def test_knuth_first_guesses_and_a_known_game(data_dir, table46):
    tree = read_irving(read(data_dir, "p4c6r-knuth.txt"), table46)
    rules = table46.rules
    assert rules.code_text(tree.root.guess) == "1122"
    # Knuth: after 1122 answered 0B0W (256 secrets) comes 3345 (label C in the file)
    child = tree.root.children[rules.answer_index(rules.parse_feedback("0B0W"))]
    assert (rules.code_text(child.guess), child.candidates) == ("3345", 256)
    game = tree.guesses_for(table46, rules.parse_code("3632"))
    assert game[-1][0] == rules.parse_code("3632") and len(game) <= 5


# ---- corruptions: each is refused with one line naming where ----------------------------
CORRUPTIONS = [
    # (what, old, new, words expected in the message)
    ("count changed", "16(1213", "17(1213", ["line 1 column 14", "path 1122 0B3W", "count 17", "16 secrets"]),
    ("leaf count changed", "4(1415),3(1145)", "4(1415),4(1145)", ["line 1 column", "count 4", "3 secrets"]),
    (
        "bare count changed",
        "0,1;0),96A",
        "0,2;0),96A",
        ["path 1122 0B3W 1213 3B0W", "count 2", "1 secret gives"],
    ),
    ("root guess changed", "1296(1122", "1296(1123", ["path 1123", "secrets give these answers"]),
    (
        "leaf guess changed",
        "4(1415)",
        "4(1111)",
        ["line 1 column 37", "path 1122 0B3W 1213 1B2W", "guess 1111 leaves 3 secrets"],
    ),
    ("bad guess text", "4(1415)", "4(14x5)", ["line 1 column 37", "bad guess", "14x5"]),
    ("guess too long", "4(1415)", "4(14151)", ["bad guess", "5 pegs"]),
    ("label missing", "\nA = (", "\nQ = (", ["line 1 column 78", "label A is not defined"]),
    ("label reference missing", "96A", "96", ["bare count of 96"]),
    ("group missing", "0,20I;1)", "0,20I)", ["answer groups", "need 5"]),
    ("entry missing", "1,16(1213", "16(1213", ["group for 0 black has 4 entries", "needs 5"]),
    ("win entry wrong", "0,20I;1)", "0,20I;0)", ["win entry", "must be 1"]),
]


@pytest.mark.parametrize("what, old, new, words", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_corrupted_knuth_is_refused(what, old, new, words, data_dir, table46):
    text = read(data_dir, "p4c6r-knuth.txt")
    assert old in text
    bad = text.replace(old, new, 1)
    with pytest.raises(TreeError) as info:
        read_irving(bad, table46)
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


@pytest.mark.parametrize("cut", [0, 5, 10, 100, 700, 1500, 2500, 3300])
def test_truncated_file_is_refused(cut, data_dir, table46):
    text = read(data_dir, "p4c6r-knuth.txt")[:cut]
    with pytest.raises(StrategyFileError) as info:
        read_irving(text, table46)
    message = str(info.value)
    assert "\n" not in message and re.match(r"line \d+ column \d+", message)
    assert "truncated" in message or "not defined" in message


def test_truncated_before_a_label_definition(data_dir, table46):
    text = read(data_dir, "p4c6r-koyama-1.txt")
    cut = text[: text.index("\nJ = (")]
    with pytest.raises(StrategyFileError, match=r"label J is not defined"):
        read_irving(cut, table46)


# ---- grammar details ---------------------------------------------------------------------
SMALL = "9(11: 0, 0, 4(22); 0, 4(12); 1)"  # p2c3, first candidate


def test_the_slot_p_minus_1_black_1_white_may_be_left_out():
    table = CodeTable(Rules(2, 3))
    with_slot = read_irving(SMALL, table)
    without = read_irving("9(11: 0, 0, 4(22); 4(12); 1)", table)
    assert with_slot.stats(table) == without.stats(table)
    with pytest.raises(StrategyFileError, match="needs 2"):
        read_irving("9(11: 0, 0, 4(22); 0, 0, 4(12); 1)", table)


@pytest.mark.parametrize("name", FILES)
def test_marks_whitespace_and_labels_are_free(name, data_dir, table46):
    text = read(data_dir, name)
    reference = read_irving(text, table46).stats(table46)
    spaced = re.sub(r"([,;:()=*])", r" \1\n  ", text)  # (Koyama's marks * apart from their guess)
    spaced = spaced.replace("x)", "X)")
    assert read_irving(spaced, table46).stats(table46) == reference
    squeezed = re.sub(r"\s+", "", text)
    squeezed = re.sub(r"\)([A-Z])=", r")\n\1=", squeezed)  # labels need a boundary
    assert read_irving(squeezed, table46).stats(table46) == reference


def test_knuths_x_marks_do_not_change_the_tree():
    """Knuth's x is a comment: his tree puts it on remaining secrets too (2256x)."""
    table = CodeTable(Rules(2, 3))
    plain = read_irving(SMALL, table)
    for marked in ("9(11x: 0, 0, 4(22x); 0, 4(12x); 1)", "9(11X: 0, 0, 4(22X); 0, 4(12x); 1)"):
        assert read_irving(marked, table).stats(table) == plain.stats(table)


# ---- the * mark: a guess that is no remaining secret ---------------------------------------
GUESS = re.compile(r"\((\d+)(\*?)")  # a guess, after the ( of its node or of a label's


@pytest.fixture(scope="module")
def written_p3c4(simple_strategies):
    """A tree written by the writer, with guesses that are remaining secrets (unmarked) and
    guesses that are not (marked *), in nested nodes, labels and leaf guesses alike."""
    table = CodeTable(Rules(3, 4))
    tree = simple_strategies["minimax"](table)
    text = write_irving(tree)
    assert "*" in text and any(not m.group(2) for m in GUESS.finditer(text))
    return table, text, tree.stats(table)


def test_a_star_on_a_guess_still_possible_is_refused_wherever_it_is(written_p3c4):
    """``3(241)`` made ``3(241*)``, 241 a remaining secret, was valid: a * must tell the truth,
    on every guess of the tree (leaf guesses, nested nodes, labels, the root)."""
    table, text, _ = written_p3c4
    unmarked = [m for m in GUESS.finditer(text) if not m.group(2)]
    for m in unmarked:
        at = m.end(1)
        wrong = text[:at] + "*" + text[at:]
        with pytest.raises(StrategyFileError) as info:
            read_irving(wrong, table)
        message = str(info.value)
        line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        assert message.startswith(f"line {line} column {column} ("), message
        assert f"guess {m.group(1)} is marked *, no remaining secret, but it could still be" in message
        assert "\n" not in message


def test_a_missing_star_is_no_error_and_right_stars_are_read(written_p3c4):
    """The published trees leave most guesses that are no remaining secret unmarked: the
    replay tells them, and a missing * is read as the writer's would be."""
    table, text, stats = written_p3c4
    assert read_irving(text, table).stats(table) == stats
    assert read_irving(text.replace("*", ""), table).stats(table) == stats
    assert read_irving(text.replace("*", " *"), table).stats(table) == stats


@pytest.mark.parametrize("name", FILES)
def test_the_published_marks_are_read(name, data_dir, table46, published):
    """Koyama's * marks are all right; Knuth's x marks, some on remaining secrets, are comments."""
    text = read(data_dir, name)
    assert read_irving(text, table46).stats(table46).total == published[name][0]


def test_a_wrong_star_in_a_published_tree_is_refused(data_dir, table46):
    text = read(data_dir, "p4c6r-knuth.txt").replace("16(3215:", "16(3215*:", 1)
    with pytest.raises(StrategyFileError, match=r"path 1122 0B2W 2344 0B2W\): guess 3215 is marked \*"):
        read_irving(text, table46)


@pytest.mark.parametrize(
    "text, words",
    [
        ("9(11: 0, 0, 4A; 0, 4(12); 1)\nA = (22)", "':' and the answers"),
        ("9(11: 0, 0, 4A; 0, 4A; 1)\nA = (22: 0, 0, 1; 0, 2; 1)", "used twice"),
        ("9(11: 0, 0, 4(22); 0, 4(12); 1)\nA = (22: 0, 0, 1; 0, 2; 1)", "label A is defined but never used"),
        ("9(11: 0, 0, 4A; 0, 4(12); 1)\nA = (22: 0,0,1;0,2;1)\nA = (22: 0,0,1;0,2;1)", "defined twice"),
        ("9(11: 0, 0, 4; 0, 4(12); 1)", "bare count of 4"),
        ("9(11: 0, 0, 4(22); 0, 4(12); 1) 7", "expected a label definition"),
        ("9(11: 0, 0, 4(22); 0, 4(12); 2)", "win entry"),
        ("9(11: 0, 0, 4(22); 0, 4(12); 1(11))", "win entry"),
        ("9(11: 0, 0, 4(22); 0, 4(1); 1)", "bad guess"),
        ("9(11: 0, 0, 4(22); 0, 4(); 1)", "expected a guess"),
        ("9(11: 0, 0, 4(22); 0, 4(12) 1)", "group"),
        ("(11: 0, 0, 4(22); 0, 4(12); 1)", "expected a count"),
        ("9(11: 0, 0, ²(22); 0, 4(12); 1)", "expected a count"),
        ("9(11 0, 0, 4(22); 0, 4(12); 1)", "expected ')'"),
        ("8(11: 0, 0, 4(22); 0, 4(12); 1)", "the root says 8 secrets, but p2c3r has 9 codes"),
    ],
)
def test_grammar_errors(text, words):
    table = CodeTable(Rules(2, 3))
    with pytest.raises(StrategyFileError) as info:
        read_irving(text, table)
    message = str(info.value)
    assert words in message and message.startswith("line ") and "\n" not in message


def test_leaf_guess_must_leave_at_most_two():
    table = CodeTable(Rules(2, 3))
    with pytest.raises(
        StrategyFileError, match=r"line 1 column 3 \(root\): guess 12 leaves 4 secrets with answer 1B0W"
    ):
        read_irving("9(12)", table)


def test_nesting_depth_is_limited():
    table = CodeTable(Rules(2, 3))
    text = "9(11: " * 300
    with pytest.raises(StrategyFileError, match="nested deeper"):
        read_irving(text, table)


# ---- round trips -------------------------------------------------------------------------
@pytest.mark.parametrize("name", FILES)
def test_published_round_trip(name, data_dir, table46, same_tree):
    tree = read_irving(read(data_dir, name), table46)
    text = write_irving(tree)
    back = read_irving(text, table46)
    same_tree(tree.root, back.root)
    assert back.stats(table46) == tree.stats(table46)
    assert write_irving(back) == text


def test_written_text_uses_the_compact_forms(data_dir, table46):
    tree = read_irving(read(data_dir, "p4c6r-koyama-1.txt"), table46)
    text = write_irving(tree)
    # bare 2 where the published file wrote 2 (2311); a leaf guess for its nested 5 (1321: ...)
    assert text.startswith(
        "1296(1123: 2, 44A, 222B, 276C, 81D; 4(1312), 84E, 230F, 182G; "
        "5(1321), 40H, 105I; 0, 20J; 1)\n\nA = (2345*: 0, 6(3412), 10(3612"
    )
    assert "(1515*)" in text  # a leaf guess that is not a remaining secret
    assert text.count("*") == sum(not node.solves_here for node in tree.root.walk())
    assert max(len(line) for line in text.splitlines()) <= 100


GAMES = ["p4c6", "p4c6n", "p3c5", "p3c5n", "p5c3", "p2c4", "p1c3", "p3c2", "p5c5n", "p1c1", "p3c3n", "p2c12"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("strategy", ["first", "last", "minimax"])
def test_built_trees_round_trip(game, strategy, simple_strategies, same_tree):
    rules = Rules.parse(game)
    if strategy == "minimax" and rules.n_codes > 300:
        pytest.skip("the all-codes minimax of the test is quadratic; small games suffice")
    table = CodeTable(rules)
    tree = simple_strategies[strategy](table)
    back = read_irving(write_irving(tree), table)
    same_tree(tree.root, back.root)
    assert back.stats(table) == tree.stats(table)


@pytest.mark.parametrize("strategy", ["last", "first"])
@pytest.mark.parametrize("game", GAMES + ["p2c2b", "p1c2b", "p1c3b", "p2c3b", "p3c3b", "p3c3nb", "p4c6b"])
def test_a_written_tree_is_read_back_for_its_own_game(game, strategy, simple_strategies):
    """A p3c4 tree exported as Irving text failed `verify` without -r (read as p4c6): the
    text does not name its game, but its root tells it. A black-peg root that fits the
    short form (p2c2b's "4(11)") told no variant and was read back as the standard game (a
    new user's trial): it is written whole."""
    rules = Rules.parse(game)
    if rules.n_codes == 1:
        pytest.skip("a game of one code is written '1', which tells no game")
    table = CodeTable(rules)
    text = write_irving(simple_strategies[strategy](table))
    assert irving_rules(text) == rules
    tree, _ = read_tree(text, "irving")
    assert tree.rules == rules
    assert verify_text(text, "irving").valid


@settings(max_examples=200, deadline=None)
@given(
    pegs=st.integers(1, 8),
    colours=st.integers(1, 35),
    repeat=st.booleans(),
    mark=st.sampled_from(["", "x", "*"]),
)
def test_the_root_tells_every_game(pegs, colours, repeat, mark):
    if not repeat and colours < pegs:
        return
    rules = Rules(pegs, colours, repeat or pegs == 1)  # (1 peg: the same game either way)
    head = f"{rules.n_codes}({rules.code_text(rules.n_codes - 1)}{mark}: 0, 1; 1)"
    assert irving_rules(head) == rules


def test_a_root_that_tells_no_game_says_so_and_no_root_is_read_for_p4c6():
    """Read as p4c6, a root of no game was refused for its pegs (``63(123: ...``: "code '123'
    has 3 pegs, p4c6r needs 4", a new user's trial), not for its count."""
    assert irving_rules("7(12: 0)") is None and irving_rules("(") is None and irving_rules("") is None
    for text, count, guess in (("7(12: 0)", 7, "12"), (" 63(123: 0)", 63, "123")):
        result = verify_text(text, "irving")
        assert result.rules is None and result.errors == [
            f"line 1: the root says {count} secrets, which is no game's number of codes for its first "
            f"guess {guess}; give the game's rules"
        ]
        with pytest.raises(StrategyFileError, match="no game's number of codes"):
            read_tree(text, "irving")
    assert verify_text("(", "irving").rules == Rules(4, 6)  # (no root: the literature's game)
    # with the game given, its root is checked against that game's codes
    assert (
        verify_text("7(12: 0)", "irving", Rules(2, 3)).errors[0].startswith("line 1 column 3: node 12 has 1")
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["p2c3", "p3c3", "p2c5", "p3c4n", "p4c2"]), seed=st.integers(0, 2**32 - 1))
def test_random_trees_round_trip(game, seed):
    """Random guesses among all codes that make progress, candidates or not."""
    import numpy as np

    table = CodeTable(Rules.parse(game))
    rng = np.random.default_rng(seed)

    def pick(cands, history):
        while True:
            g = int(rng.integers(table.n))
            if g in cands or len(np.unique(table.answer_indices(g, cands))) > 1:
                return g

    tree = build_tree(table, pick)
    back = read_irving(write_irving(tree), table)
    assert back.stats(table) == tree.stats(table)
    assert write_irving(back) == write_irving(tree)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_files_give_a_tree_error_or_a_valid_tree(data, data_dir, table46):
    """Never another exception: any damage is a one-line error with a position."""
    text = read(data_dir, "p4c6r-koyama-1.txt")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text) - 1))
        kind = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        char = data.draw(st.sampled_from(list("0123456789(),;:=xA* \n") + ["\ufeff", "7777"]))
        if kind == "delete":
            text = text[:at] + text[at + 1 :]
        elif kind == "insert":
            text = text[:at] + char + text[at:]
        else:
            text = text[:at] + char + text[at + 1 :]
    try:
        tree = read_irving(text, table46)
    except StrategyFileError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("line ")
    else:
        assert tree.stats(table46).secrets == 1296


def test_byte_order_mark_and_windows_line_ends(data_dir, table46):
    text = "\ufeff" + read(data_dir, "p4c6r-knuth.txt").replace("\n", "\r\n")
    assert read_irving(text, table46).stats(table46).total == 5801
