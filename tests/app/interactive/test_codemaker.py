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
