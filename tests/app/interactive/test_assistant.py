"""The codebreaking assistant, driven line by line as a person would."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind.app.interactive.assistant import Assistant
from mastermind.app.interactive.explain import conflicting_turns
from mastermind.app.interactive.solve import solve_game
from mastermind.core.game import CodeTable, Rules

from .conftest import FirstCandidate


def answer_truthfully(assistant, secret, limit=20):
    """Press Enter at every guess prompt and type the true feedback; the replies."""
    table = assistant.table
    replies = []
    for _ in range(limit):
        if assistant.done:
            return replies
        assert assistant.handle("") == ""
        fb = table.feedback(secret, assistant.pending)
        replies.append(assistant.handle(str(fb)))
    raise AssertionError("the assistant did not finish")


def test_full_games_agree_with_solve(table46):
    rng = np.random.default_rng(1)
    for secret in rng.choice(table46.n, 25, replace=False).tolist():
        a = Assistant(FirstCandidate(table46))
        replies = answer_truthfully(a, secret)
        probes = solve_game(FirstCandidate(table46), secret)
        assert a.state.won and a.done
        assert [(t.guess, t.left) for t in a.state.turns] == [(p.guess, p.left) for p in probes]
        secret_text = table46.rules.code_text(secret)
        assert f"the secret is {secret_text}, found in {len(probes)} gues" in replies[-1]


def test_turn_header_and_feedback_forms(table46):
    a = Assistant(FirstCandidate(table46))
    assert a.turn_header() == "Turn 1 - 1296 candidates - suggested guess: 1111"
    assert a.prompt() == "guess [1111]> "
    a.handle("1122")  # the guess actually played, not the suggestion
    assert a.prompt() == "feedback for 1122> "
    reply = a.handle("B")  # one black: BWW-style
    assert reply.startswith("Turn 2 - 256 candidates - suggested guess: ")
    a.handle("")
    before = len(a.state.candidates)
    reply = a.handle("0 1")
    assert a.state.turns[-1].answer == table46.rules.answer_index(table46.rules.parse_feedback("0B1W"))
    assert len(a.state.candidates) < before


def test_feedback_at_the_guess_prompt_answers_the_suggestion(table46):
    a, b = Assistant(FirstCandidate(table46)), Assistant(FirstCandidate(table46))
    a.handle("")
    a.handle("1B0W")
    b.handle("1B0W")
    assert a.state.history == b.state.history and np.array_equal(a.state.candidates, b.state.candidates)
    # the guess played and its feedback on one line
    c, d = Assistant(FirstCandidate(table46)), Assistant(FirstCandidate(table46))
    c.handle("1 2 3 4"), c.handle("0B2W")
    d.handle("1 2 3 4 0B2W")
    assert c.state.history == d.state.history and len(d.state.turns) == 1
    assert "colour '7'" in d.handle("1274 0B2W") and len(d.state.turns) == 1
    # a good guess and a bad feedback: the feedback is what is wrong, not the code
    assert "cannot read feedback 'zz'" in d.handle("1123 zz") and len(d.state.turns) == 1


@pytest.mark.parametrize(
    "rules", [Rules(1, 3), Rules(2, 3), Rules(3, 2), Rules(4, 4, False), Rules(5, 5, False)]
)
def test_the_feedback_hint_gives_a_feedback_the_game_can_give(rules):
    a = Assistant(FirstCandidate(CodeTable(rules)))
    a.handle("")
    hint = a.handle("")
    example = hint.split("e.g. ", 1)[1].split(" ", 1)[0]
    assert rules.parse_feedback(example) in rules.answers


def test_undo_pending_guess_then_turns(table46):
    a = Assistant(FirstCandidate(table46))
    start = a.state.candidates.copy()
    a.handle("")
    a.handle("1B0W")
    after_one = a.state.candidates.copy()
    a.handle("1234")
    reply = a.handle("undo")
    assert reply.startswith("Guess 1234 taken back.") and a.pending is None
    assert len(a.state.turns) == 1
    a.handle("")
    a.handle("0B1W")
    assert len(a.state.turns) == 2
    reply = a.handle("undo")
    assert "taken back" in reply and f"Turn 2 - {len(after_one)} candidates" in reply
    assert np.array_equal(a.state.candidates, after_one)
    a.handle("undo")
    assert np.array_equal(a.state.candidates, start) and a.state.turns == []
    assert a.handle("undo") == "Nothing to undo."


def test_impossible_feedback_is_refused_at_once(table46):
    a = Assistant(FirstCandidate(table46))
    for text in ("3B1W", "BBBW", "5B0W", "2B3W", "hello"):
        reply = a.handle(text)  # at the guess prompt
        assert a.state.turns == [] and a.pending is None, text
        assert reply and "Turn" not in reply
    assert "3 black and 1 white never occurs" in a.handle("3B1W")
    a.handle("")
    reply = a.handle("3 1")  # at the feedback prompt
    assert "impossible feedback 3B1W" in reply
    assert a.pending is not None and a.state.turns == []


def test_inconsistent_feedback_names_the_answers_it_contradicts(table46):
    r = table46.rules
    a = Assistant(FirstCandidate(table46))
    a.handle("1122"), a.handle("1B0W")
    a.handle("1344"), a.handle("0B1W")
    cands = a.state.candidates.copy()
    a.handle("1111")
    reply = a.handle("4B0W")  # 1111 cannot be the secret: 1344 got 0B1W, 1122 got 1B0W
    assert "4B0W to 1111 contradicts 0B1W to 1344 (turn 2)" in reply
    assert "undo" in reply and "second undo takes back turn 2" in reply
    assert len(a.state.turns) == 2 and np.array_equal(a.state.candidates, cands)
    assert a.prompt() == "feedback for 1111> "
    assert "No code answers 1B1W to 1111" in a.handle("1B1W")  # no code at all fits this
    assert a.handle("1B0W").startswith("Turn 4 - ")  # a consistent answer is accepted
    a.handle("undo"), a.handle("undo")
    assert [r.code_text(t.guess) for t in a.state.turns] == ["1122"]


def test_list_and_why(table46):
    r = table46.rules
    a = Assistant(FirstCandidate(table46))
    a.handle("1122"), a.handle("1B0W")
    reply = a.handle("list")
    assert reply.startswith("256 candidates:")
    assert reply.endswith("... and 206 more")
    assert len(reply.split()) - len("256 candidates: ... and 206 more".split()) == 50
    a.handle("1344"), a.handle("0B1W")
    reply = a.handle("list")
    codes = reply.split()[2:]
    assert reply.startswith("44 candidates:") and len(codes) == 44 and "3632" in codes
    # why: the partition of the suggestion over the 44 candidates
    why = a.handle("why")
    counts = table46.partition(a.suggestion(), a.state.candidates)
    rows = {line.split()[0]: int(line.split()[1]) for line in why.splitlines()[2:-1]}
    assert sum(rows.values()) == 44
    assert rows == {str(r.answer_feedbacks[i]): int(c) for i, c in enumerate(counts) if c}
    assert "is a candidate" in why.splitlines()[-1]


def test_quit_and_closing(table46):
    a = Assistant(FirstCandidate(table46))
    a.handle(""), a.handle("0B0W")
    reply = a.handle("quit")
    assert a.done and reply.startswith("Stopped after 1 guess, 625 candidates left.")
    assert "   1  1111   0B0W       625" in reply
    assert Assistant(FirstCandidate(table46)).closing() == "Stopped after 0 guesses, 1296 candidates left."


def test_the_strategy_is_asked_once_per_position(table46):
    strategy = FirstCandidate(table46)
    a = Assistant(strategy)
    for line in ("", "why", "list", "undo", "", "2B0W", "help"):
        a.handle(line)
    assert strategy.calls == 2


def test_to_dict(table46):
    a = Assistant(FirstCandidate(table46))
    answer_truthfully(a, table46.rules.parse_code("3632"))
    d = a.to_dict()
    assert d["solved"] and d["secret"] == "3632" and d["guesses"] == len(d["turns"])
    assert d["turns"][-1]["feedback"] == "4B0W" and d["candidates_left"] == 0


TABLE = CodeTable(Rules(3, 4))


@settings(max_examples=60, deadline=None)
@given(
    secret=st.integers(0, TABLE.n - 1),
    guesses=st.lists(st.integers(0, TABLE.n - 1), min_size=1, max_size=4),
    new_guess=st.integers(0, TABLE.n - 1),
    wrong=st.integers(0, 20),
)
def test_conflicting_turns_is_an_irreducible_explanation(secret, guesses, new_guess, wrong):
    rules = TABLE.rules
    earlier = [(g, TABLE.feedback(secret, g)) for g in guesses]
    cands = TABLE.all_codes
    for g, fb in earlier:
        cands = TABLE.filter(cands, g, fb)
    lies = [fb for fb in rules.answers if len(TABLE.filter(cands, new_guess, fb)) == 0]
    if not lies:
        return
    new = (new_guess, lies[wrong % len(lies)])

    def fits(indices):
        codes = TABLE.filter(TABLE.all_codes, *new)
        for i in indices:
            codes = TABLE.filter(codes, *earlier[i])
        return len(codes) > 0

    named = conflicting_turns(TABLE, earlier, new)
    assert not fits(named)
    for i in named:
        assert fits([j for j in named if j != i])


def test_history_and_hint_as_play_has_them(table46):
    """assist knew list and why but not history, which play knew (and play not list or why)."""
    a = Assistant(FirstCandidate(table46))
    assert a.handle("history") == "No guesses yet."
    assert a.handle("hint") == a.turn_header() == "Turn 1 - 1296 candidates - suggested guess: 1111"
    a.handle(""), a.handle("0B0W")
    assert a.handle("History") == "turn  guess  feedback  left\n   1  1111   0B0W       625"
    assert a.handle("hint").startswith("Turn 2 - 625 candidates")
    assert len(a.state.turns) == 1 and a.pending is None  # (commands, not moves)


def test_an_unknown_word_is_answered_with_the_words_known(table46):
    a = Assistant(FirstCandidate(table46))
    known = "the commands: hint, why, list, history, undo, quit, help"
    # (as long as a code: perhaps meant as one, so the game is said too)
    assert a.handle("lsit") == f"'lsit' is not a command, nor a code of p4c6r; {known}"
    assert a.handle("Give Up") == f"'give up' is not a command; {known}"  # (play's: there is no secret)
    a.handle("")
    assert a.handle("banana") == f"'banana' is not a command; {known}"  # at the feedback prompt too
    # letters that are a feedback stay a feedback, and a code with a bad colour a bad code
    assert a.handle("b").startswith("Turn 2 - ") and len(a.state.turns) == 1  # (1B0W to 1111)
    assert "colour '7'" in a.handle("1237") and a.pending is None
