"""The variant seam: one scoring per variant, its answers, its rules text and its symmetry."""

import json
import re
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from mastermind.core._kernels import peg_keys
from mastermind.core.errors import MastermindError
from mastermind.core.game import (
    CodeTable,
    Rules,
    all_digit_tuples,
    colour_counts,
    rules_grammar,
    rules_schema_pattern,
    score_matrix,
)
from mastermind.core.symmetry import canonical_first_guesses, full_group, stabilizer_group
from mastermind.core.variant import (
    BLACK_PEG,
    STANDARD,
    VARIANTS,
    Feedback,
    Standard,
    find_variant,
    peg_counts,
)

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("pegs,colours", [(1, 3), (4, 6), (5, 8), (16, 2), (20, 3)])
def test_compiled_peg_counts_match_the_reference(pegs, colours):
    rng = np.random.default_rng(pegs * 100 + colours)
    codes = rng.integers(0, colours, size=(300, pegs), dtype=np.int8)
    counts = colour_counts(codes, colours)
    codes_t, counts_t = np.ascontiguousarray(codes.T), np.ascontiguousarray(counts.T)
    for g in range(0, 300, 37):
        key = np.empty(300, dtype=np.uint16)
        black, common = np.empty(300, dtype=np.int8), np.empty(300, dtype=np.int8)
        peg_keys(codes[g], counts[g], codes_t, counts_t, 0, 300, pegs, key, black, common)
        for s in range(300):
            black, white = peg_counts(codes[s].tolist(), codes[g].tolist())
            assert key[s] == black * (pegs + 1) + white


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=lambda v: v.name)
def test_wide_keys_give_the_table_of_many_pegs(variant):
    """16 pegs and more: the table's keys go past one byte."""
    rules = Rules(16, 2, variant=variant)
    codes = rules.codes_array()[::997].copy()
    counts = colour_counts(codes, 2)
    table = score_matrix(codes, counts, rules.answer_lut)
    for g, s in [(0, 1), (3, 40), (65, 65), (12, 7)]:
        fb = variant.score_digits(codes[s].tolist(), codes[g].tolist())
        assert rules.answer_feedbacks[table[g, s]] == fb


def brute_answers(rules: Rules) -> set:
    codes = list(all_digit_tuples(rules))
    return {rules.variant.score_digits(s, g) for s, g in product(codes, codes)}


GAMES = [
    (p, c, r)
    for p in range(1, 5)
    for c in range(1, 6)
    for r in (True, False)
    if (r or c >= p) and c**p <= 1024
]


@pytest.mark.parametrize(
    "games",
    [
        pytest.param([g for g in GAMES if g != (4, 5, True)], id="up-to-256-codes"),
        # (its 390625 pairs are slow, 0.9 s of CPU a variant, as much as all the others)
        pytest.param([(4, 5, True)], id="p4c5", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=lambda v: v.name)
def test_possible_answers_are_those_some_pair_gives(variant, games):
    for p, c, r in games:
        rules = Rules(p, c, r, variant)
        assert set(rules.answers) == brute_answers(rules), rules
        assert list(rules.answers) == sorted(rules.answers, key=rules.answer_index)
        assert rules.answer_feedbacks[rules.win_index] == variant.win(p)
        assert all(rules.answer_feedbacks[rules.answer_index(f)] == f for f in rules.answers)


def test_black_peg_answers_are_black_pegs_only():
    rules = Rules.parse("p4c6b")
    assert [str(f) for f in rules.answers] == ["0B", "1B", "2B", "3B", "4B"]
    assert rules.n_answer_slots == 5 and rules.win_index == 4
    table = CodeTable(rules)
    standard = CodeTable(Rules(4, 6))
    blacks = np.array([f.black for f in standard.rules.answer_feedbacks], dtype=np.uint8)
    assert np.array_equal(table.scores, blacks[standard.scores])


@pytest.mark.parametrize(
    "text,black", [("2", 2), ("2B", 2), (" 2 b ", 2), ("BB", 2), ("0", 0), ("-", 0), ("0B", 0), ("4", 4)]
)
def test_black_peg_answers_are_read(text, black):
    assert Rules.parse("p4c6b").parse_feedback(text) == Feedback(black, 0, False)


@pytest.mark.parametrize("text", ["2B1W", "2 1", "BBW", "5", "x", ""])
def test_black_peg_refuses_other_answers(text):
    with pytest.raises(MastermindError, match="feedback"):
        Rules.parse("p4c6b").parse_feedback(text)


def test_black_peg_refuses_an_answer_the_game_never_gives():
    with pytest.raises(MastermindError, match="cannot occur in p3c3nb"):
        Rules.parse("p3c3nb").parse_feedback("2")


@pytest.mark.parametrize(
    "text,written",
    [
        ("p4c6", "p4c6r"),
        ("p4c6b", "p4c6rb"),
        ("P4C6RB", "p4c6rb"),
        ("p4c6nb", "p4c6nb"),
        ("4x6b", "p4c6rb"),
        ("4x6nb", "p4c6nb"),
        ("4x6n", "p4c6n"),
    ],
)
def test_rules_text_round_trips_the_variant(text, written):
    rules = Rules.parse(text)
    assert str(rules) == written
    assert Rules.parse(str(rules)) == rules
    assert re.fullmatch(rules_schema_pattern(), str(rules))
    assert hash(Rules.parse(written)) == hash(rules)


@pytest.mark.parametrize("text", ["p4c6bn", "p4c6x", "p4c6bb", "p4c6 b", "b"])
def test_rules_text_refuses_other_suffixes(text):
    with pytest.raises(MastermindError, match="cannot read rules"):
        Rules.parse(text)


def test_the_variants_are_told_apart():
    assert Rules(4, 6) != Rules(4, 6, variant=BLACK_PEG)
    assert Rules(4, 6, variant="b") == Rules(4, 6, variant=BLACK_PEG)
    assert Rules(4, 6).variant is STANDARD
    with pytest.raises(MastermindError, match="unknown variant"):
        find_variant("white-peg")
    with pytest.raises(MastermindError, match="variant must be"):
        Rules(4, 6, variant=3)


def test_repr_spells_colours():
    assert repr(Rules(4, 6)) == "Rules(pegs=4, colours=6, repeat=True)"
    assert eval(repr(Rules(3, 5, False, "black-peg"))) == Rules(3, 5, False, BLACK_PEG)


def test_the_schema_holds_the_grammar_of_the_rules():
    """One grammar: the schemas' pattern is the one the rules text is written in."""
    schema = json.loads((SCHEMAS / "common.schema.json").read_text())
    assert schema["$defs"]["rules"]["pattern"] == rules_schema_pattern()
    assert schema["$defs"]["variant"]["enum"] == list(VARIANTS)
    for name in ("info", "table"):  # (their variant is the common one)
        text = (SCHEMAS / f"{name}.schema.json").read_text()
        assert '"$ref": "common.schema.json#/$defs/variant"' in text
    assert re.fullmatch(rules_grammar(), "p2-4c2-6nb") is None  # (ranges are --games' only)
    assert re.fullmatch(rules_grammar(r"([0-9]+)(?:-([0-9]+))?"), "p2-4c2-6nb")


@dataclass(frozen=True, repr=False)
class _Rigid(Standard):
    """A made-up variant that keeps no symmetry (the seam must honour it)."""

    name: ClassVar[str] = "rigid"
    permutes_pegs: ClassVar[bool] = False
    permutes_colours: ClassVar[bool] = False


def test_a_variant_without_symmetry_gets_the_identity_group():
    rules = Rules(3, 3, variant=_Rigid())
    perms, cmaps = full_group(rules)
    assert perms.tolist() == [[0, 1, 2]] and cmaps.tolist() == [[0, 1, 2]]
    assert canonical_first_guesses(rules) == list(range(rules.n_codes))
    perms, cmaps = stabilizer_group(rules, rules.codes_array(), np.zeros(rules.n_codes))
    assert len(perms) == 1


def test_black_peg_keeps_the_symmetries_of_mastermind():
    rules = Rules(4, 6, variant=BLACK_PEG)
    firsts = [rules.code_text(c) for c in canonical_first_guesses(rules)]
    assert firsts == ["1111", "1112", "1122", "1123", "1234"]
    perms, _ = stabilizer_group(rules, rules.codes_array(), np.zeros(rules.n_codes))
    assert len(perms) == 24 * 720
