"""solve_game and ``mastermind solve``: the probes against one secret."""

import json

import pytest

from mastermind.app.interactive.solve import solve_game
from mastermind.core.errors import MastermindError

from .conftest import FirstCandidate

KNUTH_3632 = ["1122 1B0W 256", "1344 0B1W 44", "3526 1B2W 7", "1462 1B1W 1", "3632 4B0W"]


def test_every_secret_is_solved_and_counts_shrink(table33):
    strategy = FirstCandidate(table33)
    rules = table33.rules
    for secret in range(rules.n_codes):
        probes = solve_game(strategy, secret)
        assert probes[-1].guess == secret and probes[-1].won and probes[-1].left == 0
        assert all(not p.won for p in probes[:-1])
        lefts = [rules.n_codes] + [p.left for p in probes[:-1]]
        assert all(a > b >= 1 for a, b in zip(lefts, lefts[1:]))
        # each count is the number of codes that give every answer so far
        cands = table33.all_codes
        for p in probes[:-1]:
            cands = table33.filter(cands, p.guess, p.feedback)
            assert len(cands) == p.left and secret in cands


def test_a_guess_that_teaches_nothing_is_refused(table33):
    class Repeats(FirstCandidate):
        def next_guess(self, candidates, history=()):
            return 0  # 111 again and again: after its first answer it teaches nothing

    with pytest.raises(MastermindError, match="does not narrow"):
        solve_game(Repeats(table33), table33.rules.parse_code("333"))


@pytest.mark.parametrize(
    ("name", "tie_break"), [("random", "default"), ("entropy", "random"), ("minimax", "random")]
)
def test_a_seeded_strategy_plays_every_secret_as_its_tree_does(name, tie_break):
    """A strategy that draws is one fixed strategy for its seed: the game ``solve`` plays
    against a secret is the tree's path to it (``export`` and ``heuristics`` build that tree),
    whatever was played before. Drawn from one generator in turn, they parted after a guess or
    two (a new user's trial: p3c4 random --seed 5, 333 421 124 412 241 against the tree's
    333 421 124 241)."""
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.heuristics.play import play_all
    from mastermind.engines.registry import make_strategy

    table = CodeTable(Rules(3, 4))
    for seed in (5, 6):
        root = play_all(make_strategy(name, table, tie_break=tie_break, seed=seed)).root
        reused = make_strategy(name, table, tie_break=tie_break, seed=seed)  # one for every game
        for secret in range(table.n)[::-1]:
            node, path = root, []
            while True:
                path.append(node.guess)
                if node.guess == secret:
                    break
                node = node.children[int(table.scores[node.guess, secret])]
            alone = make_strategy(name, table, tie_break=tie_break, seed=seed)
            assert [p.guess for p in solve_game(alone, secret)] == path, (seed, secret)
            assert [p.guess for p in solve_game(reused, secret)] == path, (seed, secret)

    # the seed matters: another seed is another strategy
    def guesses(node):
        return (node.guess, *(guesses(node.children[a]) for a in sorted(node.children)))

    trees = {
        guesses(play_all(make_strategy(name, table, tie_break=tie_break, seed=s)).root) for s in range(8)
    }
    assert len(trees) > 1


def test_solve_3632_minimax_knuth(cli):
    code, out, err = cli(["solve", "3632", "--strategy", "minimax"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:5] == KNUTH_3632
    assert lines[5] == "5 guesses"


def test_solve_json_is_one_object(cli):
    code, out, _ = cli(["solve", "3 6 3 2", "--json"])
    data = json.loads(out)
    assert code == 0 and isinstance(data, dict)  # (it was a list)
    assert (data["rules"], data["secret"], data["strategy"], data["guesses"]) == (
        "p4c6r",
        "3632",
        "minimax",
        5,
    )
    assert data["solved"] is True and data["stopped"] is None
    probes = data["turns"]
    assert [f"{d['guess']} {d['feedback']} {d['candidates_left']}" for d in probes[:4]] == KNUTH_3632[:4]
    assert probes[-1] == {
        "turn": 5,
        "guess": "3632",
        "feedback": "4B0W",
        "black": 4,
        "white": 0,
        "candidates_left": 0,
    }
    # the record of a game has the same keys in play and assist (solve's were probes)
    code, out, _ = cli(["play", "-r", "p4c6", "--seed", "1", "--json"], "1122\nquit\n")
    assert list(json.loads(out)["turns"][0]) == list(probes[0])


@pytest.mark.parametrize("name", ["expected-size", "entropy", "most-parts", "simple", "random"])
def test_solve_with_each_heuristic_wins(cli, name):
    code, out, _ = cli(["solve", "2 5 5 1", "--strategy", name, "--seed", "3", "--json"])
    data = json.loads(out)["turns"]
    assert code == 0 and data[-1]["guess"] == "2551" and data[-1]["feedback"] == "4B0W"
    lefts = [1296] + [d["candidates_left"] for d in data[:-1]]
    assert all(a > b for a, b in zip(lefts, lefts[1:]))


def test_solve_other_rules(cli):
    code, out, _ = cli(["solve", "3 1 2", "--rules", "p3c5n", "--json"])
    assert code == 0 and json.loads(out)["turns"][-1]["guess"] == "312"


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "3637"], "colour '7'"),
        (["solve", "363"], "has 3 pegs"),
        (["solve", "3632", "--strategy", "clever"], "--strategy: unknown value 'clever'"),
        (["solve", "1123", "--rules", "p4c6n"], "repeats a colour"),
    ],
)
def test_solve_bad_input_is_one_line(cli, args, message):
    code, out, err = cli(args)
    assert code == 2 and out == ""
    assert message in err and err.startswith("error: ") and err.count("\n") == 1
