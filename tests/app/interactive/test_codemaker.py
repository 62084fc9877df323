"""The codemaker game: the computer answers, invalid guesses cost nothing, hints and giving up."""

from mastermind.app.interactive.codemaker import Codemaker, pick_secret
from mastermind.core.game import Rules, score

from .conftest import FirstCandidate


def test_answers_are_the_feedback_and_a_win_ends_the_game(table46):
    r = table46.rules
    secret = r.parse_code("3632")
    game = Codemaker(table46, secret, seed=None)
    for text in ("1122", "1344", "3526", "1462"):
        assert game.handle(text) == str(score(r, secret, r.parse_code(text)))
        assert not game.done
    reply = game.handle("3 6 3 2")
    assert game.done and reply.startswith("4B0W - solved in 5 guesses.")
    assert [t.left for t in game.state.turns] == [256, 44, 7, 1, 0]


def test_invalid_guesses_do_not_cost_a_turn(table46):
    game = Codemaker(table46, 0)
    game.handle("1234")
    for text in ("12345", "7777", "12a4", "hello", "", "3B1W"):
        reply = game.handle(text)
        assert game.prompt() == "guess 2> " and len(game.state.turns) == 1, text
        assert reply
    assert "not counted as a guess" in game.handle("7777")
    assert Codemaker(table46, 0).handle("") == "type a guess of 4 colours 1-6, or help"


def test_hint_follows_the_strategy_and_is_built_once(table46):
    r = table46.rules
    built = []

    def make():
        built.append(FirstCandidate(table46))
        return built[-1]

    game = Codemaker(table46, r.parse_code("6543"), hint_strategy=make)
    assert built == []  # no strategy (and no big table) until a hint is asked for
    assert game.handle("hint") == "hint: 1111 (1296 candidates left, strategy first-candidate)"
    game.handle("1111")
    cands = game.state.candidates
    reply = game.handle("hint")
    assert (
        reply
        == f"hint: {r.code_text(int(cands[0]))} ({len(cands)} candidates left, strategy first-candidate)"
    )
    assert len(built) == 1 and len(game.state.turns) == 1
    assert Codemaker(table46, 0).handle("hint") == "no hints in this game"


def test_give_up_reveals_the_secret_and_seed(table46):
    r = table46.rules
    game = Codemaker(table46, pick_secret(r, 42), seed=42)
    game.handle("1122")
    reply = game.handle("Give  Up")
    assert game.done and game.gave_up
    assert reply == f"The secret was {r.code_text(pick_secret(r, 42))} (seed 42; replay with --seed 42)."
    assert game.to_dict()["secret"] == r.code_text(pick_secret(r, 42))


def test_quit_keeps_the_secret(table46):
    game = Codemaker(table46, 5, seed=9)
    reply = game.handle("quit")
    assert game.done and reply == "Stopped after 0 guesses; replay this secret with --seed 9."
    assert game.to_dict()["secret"] is None


def test_pick_secret_is_seeded_and_covers_the_codes():
    r = Rules(4, 6)
    picks = [pick_secret(r, s) for s in range(300)]
    assert picks == [pick_secret(r, s) for s in range(300)]
    assert all(0 <= p < r.n_codes for p in picks)
    assert len(set(picks)) > 200  # not stuck on a few codes
    small = Rules(2, 2)
    assert set(pick_secret(small, s) for s in range(100)) == set(range(4))


def test_help_gives_examples_of_the_game_played(table33, table46):
    """play -r p3c4's help showed a guess of 4 pegs (1123): every example is read as it is
    shown, in the game played."""
    from mastermind.app.interactive.assistant import Assistant
    from mastermind.app.interactive.text import examples
    from mastermind.core.game import Feedback

    for table in (table33, table46):
        rules = table.rules
        maker = Codemaker(table, 0)
        assistant = Assistant(FirstCandidate(table))
        ex = examples(rules)
        for text in (maker.handle("help"), assistant.handle("help")):
            assert ex["code"] in text and ("1123" in text) == (rules.pegs == 4)
        assert rules.parse_code(ex["code"]) == rules.parse_code(ex["spaced"])
        answers = {
            Feedback.parse(ex[k].strip("'"), rules.pegs) for k in ("feedback", "pair", "comma", "letters")
        }
        assert len(answers) == 1
    for rules in (Rules(2, 2), Rules(5, 8, False), Rules(1, 3)):
        ex = examples(rules)
        rules.parse_code(ex["code"])  # a code of the game (raises if not)
        assert Feedback.parse(ex["feedback"], rules.pegs) == Feedback.parse(ex["letters"] or "0", rules.pegs)


def test_list_why_and_history_as_assist_has_them(table46):
    """`list` in play was read as a bad code ("code 'list': colour 'l' is not one of 1-6")."""
    r = table46.rules
    game = Codemaker(table46, r.parse_code("3632"), hint_strategy=lambda: FirstCandidate(table46))
    assert game.handle("history") == "No guesses yet."
    game.handle("1122"), game.handle("1344")
    reply = game.handle("list")
    codes = reply.split()[2:]
    assert reply.startswith("44 candidates:") and len(codes) == 44 and "3632" in codes
    assert codes == [r.code_text(int(c)) for c in game.state.candidates]
    # why: how the hint's guess splits the 44 candidates
    hint = game.handle("hint")
    guess = r.code_text(int(game.state.candidates[0]))  # (the first candidate's strategy)
    why = game.handle("why")
    assert hint.startswith(f"hint: {guess} ") and why.startswith(f"how {guess} splits the candidates:")
    counts = table46.partition(r.parse_code(guess), game.state.candidates)
    rows = {line.split()[0]: int(line.split()[1]) for line in why.splitlines()[2:-1]}
    assert rows == {str(r.answer_feedbacks[i]): int(c) for i, c in enumerate(counts) if c}
    assert len(game.state.turns) == 2 and not game.done  # (commands: no guess counted)
    assert Codemaker(table46, 0).handle("why") == "no hints in this game"


def test_an_unknown_word_is_not_read_as_a_bad_code(table46):
    game = Codemaker(table46, 0)
    known = "the commands: hint, why, list, history, undo, give up, quit, help"
    for word in ("hello", "give  in"):
        assert game.handle(word) == f"{' '.join(word.split())!r} is not a command; {known}"
    # a word as long as a code may have been meant as one ('abc' in p3c3 said "not a command")
    assert game.handle("lsit") == f"'lsit' is not a command, nor a code of p4c6r; {known}"
    # a code mistyped is still a code mistyped
    reply = game.handle("12a4")
    assert reply.startswith("code '12a4': colour 'a' is not one of 1-6") and reply.endswith(
        "not counted as a guess"
    )
    assert game.state.turns == [] and not game.done
    assert game.handle("GIVE-UP").startswith("The secret was")  # (its other spellings still known)


def test_letters_that_are_colours_are_a_code():
    """With letter colours (p3c12: 1-9, A-C) a line of them is a guess, not a word."""
    from mastermind.core.game import CodeTable

    table = CodeTable(Rules(3, 12), full=False)
    game = Codemaker(table, table.rules.parse_code("ABC"))
    assert game.handle("cab") == "0B3W" and len(game.state.turns) == 1
    assert "colour 'Z'" in game.handle("CAZ")  # (a colour of the game in it: a code mistyped)
    assert "is not a command" in game.handle("hello")  # (no colour of the game in it: a word)


def test_both_sessions_know_the_same_shared_words(table46):
    """One vocabulary: the words both sessions know, each in its help and in its answer to an
    unknown word."""
    from mastermind.app.interactive.assistant import Assistant
    from mastermind.app.interactive.session import SHARED_HELP

    sessions = (Codemaker(table46, 0), Assistant(FirstCandidate(table46)))
    for session in sessions:
        words = list(session.commands())
        assert words[: len(SHARED_HELP)] == list(SHARED_HELP)
        help_words = [line.split("  ")[1] for line in session.handle("help").splitlines() if line[:2] == "  "]
        assert help_words == [*words, "quit"]
        assert session.handle("nonsense").endswith(", ".join([*words, "quit", "help"]))
