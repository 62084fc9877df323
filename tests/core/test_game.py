"""Rules, codes, feedback and the score table."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind.core.errors import MastermindError
from mastermind.core.game import (
    CodeTable,
    Feedback,
    Rules,
    all_digit_tuples,
    colour_counts,
    score,
)
from mastermind.core.symmetry import canonical_first_guesses

SMALL_RULES = [
    Rules(p, c, r)
    for p in range(1, 5)
    for c in range(1, 7)
    for r in (True, False)
    if (r or c >= p) and (c**p if r else 1) <= 1296
]


@st.composite
def rules_and_pair(draw):
    pegs = draw(st.integers(1, 7))
    repeat = draw(st.booleans())
    colors = draw(st.integers(1 if repeat else pegs, 12))
    rules = Rules(pegs, colors, repeat)
    a = draw(st.integers(0, rules.n_codes - 1))
    b = draw(st.integers(0, rules.n_codes - 1))
    return rules, a, b


def slow_score(secret, guess):
    """Pegs matched one by one: blacks first, then each guess peg takes an unused secret peg."""
    secret, guess = list(secret), list(guess)
    used_s = [False] * len(secret)
    used_g = [False] * len(guess)
    black = white = 0
    for i, (s, g) in enumerate(zip(secret, guess)):
        if s == g:
            black += 1
            used_s[i] = used_g[i] = True
    for i, g in enumerate(guess):
        if used_g[i]:
            continue
        for j, s in enumerate(secret):
            if not used_s[j] and s == g:
                used_s[j] = True
                white += 1
                break
    return Feedback(black, white)


@given(rules_and_pair())
@settings(max_examples=300, deadline=None)
def test_score_properties(case):
    rules, a, b = case
    fb = score(rules, a, b)
    assert fb == score(rules, b, a)
    assert fb.black + fb.white <= rules.pegs
    assert fb in rules.answers
    assert fb == slow_score(rules.code_digits(a), rules.code_digits(b))


@given(rules_and_pair(), st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_score_invariant_under_symmetry(case, rnd):
    rules, a, b = case
    pos = list(range(rules.pegs))
    col = list(range(rules.colors))
    rnd.shuffle(pos)
    rnd.shuffle(col)

    def move(code):
        d = rules.code_digits(code)
        return rules.code_from_digits(col[d[pos[i]]] for i in range(rules.pegs))

    assert score(rules, move(a), move(b)) == score(rules, a, b)


BLACK_PEG_RULES = [Rules(r.pegs, r.colors, r.repeat, "black-peg") for r in SMALL_RULES]
# p5c8n (6720 codes: 17 s on a loaded machine) is slow; p4c10n (5040 codes, no repetition
# either) checks a table of that size the same way, and p5c8nb the black-peg variant's
LARGE_RULES = [pytest.param(Rules(5, 8, False), marks=pytest.mark.slow), Rules(4, 10, False)]


@pytest.mark.parametrize(
    "rules",
    SMALL_RULES + BLACK_PEG_RULES + LARGE_RULES + [Rules(5, 8, False, "b")],
    ids=str,
)
def test_table_matches_reference(rules):
    table = CodeTable(rules)
    assert table.codes.dtype == np.int8 and table.scores.dtype == np.uint8
    assert table.scores.shape == (rules.n_codes, rules.n_codes)
    assert np.array_equal(table.scores, table.scores.T)
    # every cell (a sample in the larger games) against the variant's pure-Python scorer
    rng = np.random.default_rng(1)
    n = rules.n_codes
    pairs = [(g, s) for g in range(n) for s in range(n)] if n <= 100 else rng.integers(0, n, size=(3000, 2))
    for g, s in pairs:
        fb = rules.variant.score_digits(rules.code_digits(int(s)), rules.code_digits(int(g)))
        assert rules.answer_feedbacks[table.scores[g, s]] == fb
    # without the table, rows are computed by the same kernel
    lean = CodeTable(rules, full=False)
    for g in rng.integers(0, n, size=5):
        assert np.array_equal(lean.answer_indices(int(g)), table.scores[g])
    # the answers that occur are exactly rules.answers
    seen = {rules.answer_feedbacks[a] for a in np.unique(table.scores)}
    assert seen == set(rules.answers)


def test_codes_in_lexicographic_order():
    for rules in SMALL_RULES:
        expected = list(all_digit_tuples(rules))
        assert [tuple(r) for r in rules.codes_array().tolist()] == expected
        assert [rules.code_digits(i) for i in range(rules.n_codes)] == expected
        assert all(rules.code_from_digits(d) == i for i, d in enumerate(expected))


def test_colour_counts_of_all_codes_count_each_codes_pegs():
    for rules in [*SMALL_RULES, Rules(1, 5), Rules(5, 1), Rules(3, 7), Rules(3, 6, repeat=False)]:
        digits = list(all_digit_tuples(rules))
        expected = [[d.count(colour) for colour in range(rules.colors)] for d in digits]
        assert rules.colour_counts_array().tolist() == expected
        assert colour_counts(rules.codes_array(), rules.colors).tolist() == expected


@pytest.mark.parametrize(
    "rules,count",
    [("p4c6", 1296), ("p4c6n", 360), ("p4c8n", 1680), ("p5c8n", 6720), ("p4c10n", 5040), ("p5c8", 32768)],
)
def test_sizes(rules, count):
    r = Rules.parse(rules)
    assert r.n_codes == count == len(r.codes_array())
    last = r.code_text(count - 1)
    assert r.parse_code(last) == count - 1


def test_answer_counts():
    for p in range(1, 8):
        assert len(Rules(p, 8).answers) == (p + 1) * (p + 2) // 2 - 1
    assert len(Rules(4, 6).answers) == 14
    assert Feedback(3, 1) not in Rules(4, 6).answers
    # without repetition 4 of 6 colours always share at least 2
    assert min(a.black + a.white for a in Rules(4, 6, False).answers) == 2


def test_rules_text():
    assert Rules.parse("p4c6") == Rules.parse("p4c6r") == Rules(4, 6, True)
    assert Rules.parse("P4C6N") == Rules(4, 6, False)
    assert str(Rules(4, 10, False)) == "p4c10n"
    # the games as the README and the literature write them (a new user typed -r 4x6)
    assert Rules.parse("4x6") == Rules.parse(" 4X6r ") == Rules(4, 6, True)
    assert Rules.parse("5x8n") == Rules(5, 8, False)
    for bad in ["p0c6", "p5c4n", "4x", "x6", "p4x6", "4c6", "4x6x", "0x6", "p4", "p4c99", ""]:
        with pytest.raises(MastermindError):
            Rules.parse(bad)


def test_code_text():
    r = Rules(4, 6)
    assert r.parse_code("1123") == r.parse_code("1 1 2 3") == r.parse_code("1,1,2,3")
    assert r.code_text(r.parse_code("6543")) == "6543"
    big = Rules(3, 12)
    assert big.code_text(big.parse_code("9ab")) == "9AB"
    assert big.parse_code("9 10 11") == big.parse_code("9AB")
    for bad in ["112", "11234", "1173", "0123", "11x3", ""]:
        with pytest.raises(MastermindError):
            r.parse_code(bad)
    with pytest.raises(MastermindError, match="repeats"):
        Rules(4, 6, False).parse_code("1123")


def test_feedback_text():
    for text in ["2B1W", "2b1w", "2 1", "2,1", "BBW.", "BBW", "2A1B", " 2B1W "]:
        assert Feedback.parse(text, 4) == Feedback(2, 1), text
    assert str(Feedback(1, 2)) == "1B2W"
    assert Feedback.parse("....", 4) == Feedback(0, 0)
    # bulls and cows: 2A is 2A0B, as 2B is 2B0W (a new user's 2A was refused)
    assert Feedback.parse("2A", 4) == Feedback.parse("2a0b", 4) == Feedback(2, 0)
    for bad in ["3B1W", "4B1W", "2B3W", "BBBBB", "xyz", "", "5A", "2A1W", "A"]:
        with pytest.raises(MastermindError):
            Feedback.parse(bad, 4)


def test_published_partition_table():
    r = Rules(4, 6)
    t = CodeTable(r, full=False)
    published = {
        "0B0W": [625, 256, 256, 81, 16],
        "0B1W": [0, 308, 256, 276, 152],
        "0B2W": [0, 61, 96, 222, 312],
        "0B3W": [0, 0, 16, 44, 136],
        "0B4W": [0, 0, 1, 2, 9],
        "1B0W": [500, 317, 256, 182, 108],
        "1B1W": [0, 156, 208, 230, 252],
        "1B2W": [0, 27, 36, 84, 132],
        "1B3W": [0, 0, 0, 4, 8],
        "2B0W": [150, 123, 114, 105, 96],
        "2B1W": [0, 24, 32, 40, 48],
        "2B2W": [0, 3, 4, 5, 6],
        "3B0W": [20, 20, 20, 20, 20],
        "4B0W": [1, 1, 1, 1, 1],
    }
    guesses = [r.parse_code(g) for g in ["1111", "1112", "1122", "1123", "1234"]]
    for text, counts in published.items():
        idx = r.answer_index(Feedback.parse(text))
        assert [int(t.partition(g)[idx]) for g in guesses] == counts


def test_canonical_first_guesses():
    r = Rules(4, 6)
    assert [r.code_text(g) for g in canonical_first_guesses(r)] == ["1111", "1112", "1122", "1123", "1234"]
    assert len(canonical_first_guesses(Rules(4, 3))) == 4  # aaaa aaab aabb aabc (abcd needs 4 colours)
    assert [Rules(5, 8, False).code_text(g) for g in canonical_first_guesses(Rules(5, 8, False))] == ["12345"]
    # every code is equivalent to exactly one canonical guess: same pattern
    from mastermind.core.symmetry import pattern

    for rules in SMALL_RULES:
        firsts = canonical_first_guesses(rules)
        pats = {pattern(rules.code_digits(g)) for g in firsts}
        assert len(pats) == len(firsts)
        assert pats == {pattern(d) for d in all_digit_tuples(rules)}


def test_filter_and_partition_without_table():
    r = Rules(4, 6)
    full, lazy = CodeTable(r), CodeTable(r, full=False)
    g = r.parse_code("1344")
    cands = full.all_codes[::7]
    assert np.array_equal(full.answer_indices(g, cands), lazy.answer_indices(g, cands))
    fb = Feedback(1, 1)
    kept = full.filter(full.all_codes, g, fb)
    assert all(score(r, int(s), g) == fb for s in kept)
    assert len(kept) == full.partition(g)[r.answer_index(fb)]


@pytest.mark.parametrize("rules", [Rules(5, 6), Rules(5, 7, repeat=False), Rules(5, 6, variant="black-peg")])
def test_answers_without_the_table_over_many_blocks_are_the_tables(rules):
    # the computed answers are gathered ANSWER_BLOCK candidates at a time: every code (7776,
    # 2520: one and two blocks), and subsets whose sizes fall on and beside the block's edge
    from mastermind.core._kernels import ANSWER_BLOCK

    full, lazy = CodeTable(rules), CodeTable(rules, full=False)
    rng = np.random.default_rng(11)
    for guess in rng.choice(full.n, 4).tolist():
        assert np.array_equal(lazy.answer_indices(guess), full.scores[guess])
        for size in (0, 1, ANSWER_BLOCK - 1, ANSWER_BLOCK, ANSWER_BLOCK + 1, 2 * ANSWER_BLOCK + 5):
            cands = rng.choice(full.n, size).astype(np.int32)
            assert np.array_equal(lazy.answer_indices(guess, cands), full.scores[guess, cands])
        assert np.array_equal(lazy.partition(guess), full.partition(guess))


@given(
    st.sampled_from([Rules(3, 4), Rules(4, 6), Rules(4, 5, repeat=False), Rules(3, 5, variant="black-peg")]),
    st.data(),
)
@settings(max_examples=60, deadline=None)
def test_the_classes_of_a_guess_are_the_candidates_grouped_as_a_stable_sort_groups_them(rules, data):
    """CodeTable.classes groups by a compiled counting sort (no int64 indices: p8c8's
    heuristics went past --memory-limit on an argsort's); its twin is the stable argsort."""
    full, lazy = _tables(rules)
    guess = data.draw(st.integers(0, full.n - 1))
    cands = np.array(sorted(data.draw(st.sets(st.integers(0, full.n - 1), max_size=200))), dtype=np.int64)
    for table in (full, lazy):
        answers = full.scores[guess, cands]
        twin = cands[np.argsort(answers, kind="stable")]
        classes = table.classes(guess, cands)
        assert [a for a, _ in classes] == sorted(set(answers.tolist()))
        for a, part in classes:  # each class int32, and every one of its candidates gives its answer
            assert part.dtype == np.int32 and set(full.scores[guess, part].tolist()) == {a}
        grouped = np.concatenate([part for _, part in classes]) if classes else np.zeros(0, np.int32)
        assert np.array_equal(grouped, twin)


_TABLES: dict = {}


def _tables(rules):
    if rules not in _TABLES:
        _TABLES[rules] = (CodeTable(rules), CodeTable(rules, full=False))
    return _TABLES[rules]


def test_a_partition_of_every_code_without_the_table_is_counted_in_passes(monkeypatch):
    # counted PASS_CODES at a time (p8c8's one bincount held 8 bytes a code): the same sizes
    from mastermind.core import game

    rules = Rules(5, 6)
    full, lazy = CodeTable(rules), CodeTable(rules, full=False)
    monkeypatch.setattr(game, "PASS_CODES", 1000)  # (7776 codes: 8 passes, the last short)
    for guess in (0, 1234, 7775):
        assert np.array_equal(lazy.partition(guess), full.partition(guess))
        assert lazy.partition(guess).sum() == rules.n_codes


def test_a_partition_of_every_code_without_the_table_stops_between_its_passes(monkeypatch):
    from mastermind.core import game
    from mastermind.core.cancel import CancelToken, Stopped

    lazy = CodeTable(Rules(5, 6), full=False)
    monkeypatch.setattr(game, "PASS_CODES", 1000)
    token = CancelToken()
    assert lazy.partition(7, cancel=token).sum() == lazy.n  # (not cancelled: every pass)
    token.cancel()
    with pytest.raises(Stopped):
        lazy.partition(7, cancel=token)


def test_the_memory_of_a_game_without_the_table_counts_the_work_over_its_codes():
    from mastermind.core.game import LEAN_WORK_BYTES, TableTooLarge, check_fits

    rules = Rules(5, 8)  # 32768 codes
    need = rules.n_codes * (5 + 8 + LEAN_WORK_BYTES)
    assert rules.lean_bytes() == need
    check_fits(rules, need, full=False)
    with pytest.raises(TableTooLarge, match="for its codes and the work over them"):
        check_fits(rules, need - 1, full=False)
    # more work a code (a heuristic keys every code as a guess): more memory, and refused
    more = rules.lean_bytes(LEAN_WORK_BYTES + 9)
    assert more == need + 9 * rules.n_codes
    with pytest.raises(TableTooLarge):
        check_fits(rules, more - 1, full=False, work=LEAN_WORK_BYTES + 9)
    with pytest.raises(TableTooLarge):
        CodeTable(rules, full=False, memory_limit=more - 1, work=LEAN_WORK_BYTES + 9)


def test_memory_limit_refuses_with_estimate():
    with pytest.raises(MastermindError, match="GiB"):
        CodeTable(Rules(6, 9), memory_limit=2 * 1024**3)
    with pytest.raises(MastermindError, match="limit"):
        CodeTable(Rules(4, 6), memory_limit=1000)


def test_possible_answers_match_enumeration():
    # every guess is equivalent to a canonical first guess, so these see every answer
    for p in range(1, 7):
        for c in range(1, 9):
            for rep in (True, False):
                if (not rep and c < p) or (c**p if rep else 1) > 20000:
                    continue
                rules = Rules(p, c, rep)
                table = CodeTable(rules, full=False)
                seen = set()
                for g in canonical_first_guesses(rules):
                    seen |= {rules.answer_feedbacks[a] for a in np.unique(table.answer_indices(g))}
                assert seen == set(rules.answers), rules


@pytest.mark.parametrize(
    "typed, black, white",
    [
        ("1B", 1, 0),
        ("1b", 1, 0),
        ("1W", 0, 1),
        ("0", 0, 0),
        ("-", 0, 0),
        ("none", 0, 0),
        ("B", 1, 0),
        ("W", 0, 1),
        ("2B1W", 2, 1),
        ("1W2B", 2, 1),
        ("BBW", 2, 1),
        ("2 1", 2, 1),
        ("1B 2W", 1, 2),
        ("B B W", 2, 1),
        ("b, w", 1, 1),
        ("1, 2", 1, 2),
        ("1 , 2", 1, 2),
        ("1\t2", 1, 2),
    ],
)
def test_feedback_as_people_type_it(typed, black, white):
    assert Rules(4, 6).parse_feedback(typed) == Feedback(black, white)


@pytest.mark.parametrize("typed", ["³B", "①", "1B²W", "9" * 5000 + "B", "p"])
def test_feedback_refuses_non_ascii_digits_in_one_line(typed):
    with pytest.raises(MastermindError) as info:
        Feedback.parse(typed)
    assert "\n" not in str(info.value) and "cannot read feedback" in str(info.value)


@pytest.mark.parametrize("pegs", range(1, 7))
@pytest.mark.parametrize(
    "colours, repeat", [(2, True), (3, True), (9, True), (3, False), (5, False), (7, False)]
)
def test_the_spellings_a_bad_feedback_is_told_occur_in_its_game(pegs, colours, repeat):
    """Each example the message gives reads as a feedback the game can give (2B1W cannot
    occur with 3 pegs, nor 1B2W in p4c4n)."""
    if not repeat and colours < pegs:
        return
    rules = Rules(pegs, colours, repeat)
    with pytest.raises(MastermindError) as info:
        rules.parse_feedback("xx")
    spellings = str(info.value).split(": use ", 1)[1].replace(" or ", ", ").split(", ")
    for text in spellings:
        assert rules.parse_feedback(text.strip("'")) == rules.feedback_example, text
    assert str(rules.feedback_example) in spellings


@pytest.mark.parametrize("text", ["³⁶³²", "①②③④", "٣٦٣٢", "１２３４"])
def test_codes_and_rules_refuse_non_ascii_digits(text):
    with pytest.raises(MastermindError, match="colour"):
        Rules(4, 6).parse_code(text)
    with pytest.raises(MastermindError, match="cannot read rules"):
        Rules.parse(f"p{text[0]}c6")


# (each example is cheap, but 200 of them took 1 s of CPU beside the 1.2 s of compiling the
# four key types: 60 lists of 200 keys or fewer, of 7 values, tie plenty)
@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-3, 3), max_size=200),
    st.sampled_from([np.int64, np.int32, np.uint32, np.float64]),
)
def test_the_compiled_stable_argsort_is_numpys(keys, dtype):
    """Few distinct keys: many ties, whose order is what "stable" promises."""
    from mastermind.core._kernels import stable_argsort

    array = np.array(keys).astype(dtype)
    assert stable_argsort(array).tolist() == np.argsort(array, kind="stable").tolist()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("p4c99999999999999999999", "colours must be between 1 and 35, got 99999999999999999999"),
        ("p" + "7" * 5000 + "c6", "pegs must be between 1 and"),
        ("p4c" + "9" * 5000, "(5000 digits)"),
    ],
)
def test_rules_with_a_huge_number_name_its_range_in_one_short_line(text, named):
    with pytest.raises(MastermindError) as info:
        Rules.parse(text)
    message = str(info.value)
    assert named in message and "\n" not in message and len(message) < 200


def test_rules_with_leading_zeros_are_read_as_their_number():
    assert Rules.parse("p0000000000004c3") == Rules(4, 3)


@pytest.mark.parametrize(
    "args, message",
    [
        ((3, 4, "no"), "repeat must be True or False, got 'no'"),  # (it was a game with repetition)
        ((3.0, 4), "pegs must be a whole number, got 3.0"),  # (it printed as p3.0c4r)
        ((True, 4), "pegs must be a whole number, got True"),
        ((3, "4"), "colours must be a whole number, got '4'"),
    ],
)
def test_rules_of_the_wrong_type_are_refused(args, message):
    with pytest.raises(MastermindError, match=re.escape(message)):
        Rules(*args)


def test_rules_take_numpy_numbers_as_plain_ones():
    rules = Rules(np.int64(3), np.int32(4), np.bool_(False))
    assert rules == Rules(3, 4, False) and type(rules.pegs) is int and type(rules.repeat) is bool


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Rules.parse(33), "rules must be text such as p4c6, got 33"),
        (lambda: Rules(3, 3).parse_code(112), "a code must be text such as '1123', got 112"),
        (lambda: CodeTable("p3c3"), "rules must be a Rules"),
    ],
)
def test_values_of_the_wrong_type_are_one_line_errors(make, message):
    """They were AttributeErrors ('int' object has no attribute 'strip'; trial 52)."""
    with pytest.raises(MastermindError, match=message):
        make()


@pytest.mark.parametrize("game", ["p5c8", "p4c6", "p6c9"])
@pytest.mark.parametrize("short", [1, 1000, 1 << 20])
def test_a_table_too_large_is_said_with_numbers_that_differ(game, short):
    """``--memory-limit 1`` on 5x8 said "needs about 1.00 GiB ..., above the memory limit of
    1.00 GiB" (a new user's trial): the need and the limit are shown with as many digits as
    tell them apart."""
    import re

    from mastermind.core.errors import TableTooLarge
    from mastermind.core.game import check_fits

    rules = Rules.parse(game)
    need = rules.table_bytes()
    assert short < need  # (the games above: 1.6 MiB at least)
    check_fits(rules, need)  # (exactly enough fits)
    with pytest.raises(TableTooLarge) as caught:
        check_fits(rules, need - short)
    shown = re.search(r"needs about (.+) for .*above the memory limit of (.+)$", str(caught.value))
    assert shown is not None, str(caught.value)
    assert shown.group(1) != shown.group(2), str(caught.value)


@pytest.mark.parametrize("typed", ["1,,2,3,4", ",1,2,3,4", "1,2,3,4,", "1, ,2,3,4"])
def test_a_code_with_a_comma_and_no_colour_beside_it_is_refused(typed):
    # "1,,2,3,4" was read as 1234: a colour left out, or a comma too many
    with pytest.raises(MastermindError, match="a comma with no colour on one side"):
        Rules(4, 6).parse_code(typed)
    assert Rules(4, 6).parse_code("1, 2 ,3 , 4") == Rules(4, 6).parse_code("1234")


@pytest.mark.parametrize("typed", ["1,,2", ",1,2", "1,2,"])
def test_feedback_with_a_comma_and_no_number_beside_it_is_refused(typed):
    with pytest.raises(MastermindError, match="cannot read feedback"):
        Rules(4, 6).parse_feedback(typed)


def test_the_score_table_build_stops_between_its_blocks():
    # a flag read inside the compiled parallel loop was read once: p5c8's 1 GiB was built to
    # its end whatever the token said; now the token is looked at between blocks of rows
    from mastermind.core.cancel import CancelToken, Stopped
    from mastermind.core.game import SCORE_BLOCKS

    class CancelledAtItsThirdLook(CancelToken):
        looks = 0

        def check(self) -> None:
            self.looks += 1
            if self.looks == 3:
                self.cancel()
            super().check()

    rules = Rules(4, 6)
    token = CancelledAtItsThirdLook()
    with pytest.raises(Stopped):
        CodeTable(rules, cancel=token)
    assert token.looks == 3 < SCORE_BLOCKS
    built = CodeTable(rules, cancel=CancelToken())
    assert np.array_equal(built.scores, CodeTable(rules).scores)
