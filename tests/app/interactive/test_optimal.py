"""Optimal advice: the exact solver's tree, and solving anew when the person leaves it."""

import json

import numpy as np
import pytest

from mastermind.app.interactive.assistant import Assistant
from mastermind.app.interactive.optimal import OptimalAdvisor
from mastermind.app.interactive.solve import solve_game
from mastermind.app.interactive.strategies import load_strategy
from mastermind.core.game import CodeTable, Rules
from mastermind.engines import exact


@pytest.fixture(scope="module")
def table34():
    return CodeTable(Rules(3, 4))


def play_on(advisor, table, cands, history, secret):
    """Guesses the advisor needs from this position to find ``secret`` (the winning one counts)."""
    cands, history = np.asarray(cands), tuple(history)
    for n in range(1, 20):
        guess = advisor.next_guess(cands, history)
        fb = table.feedback(secret, guess)
        if fb.black == table.rules.pegs:
            return n
        cands = table.filter(cands, guess, fb)
        history += ((guess, table.rules.answer_index(fb)),)
    raise AssertionError("no win")


def test_optimal_games_add_up_to_the_exact_total(table34):
    advisor = load_strategy("optimal", table34)
    assert isinstance(advisor, OptimalAdvisor)
    total = sum(len(solve_game(advisor, s)) for s in range(table34.n))
    assert total == exact.solve(table34).total == 206
    assert advisor.solves == 0  # never left the tree


def test_off_the_tree_the_rest_is_solved_optimally(table34):
    r = table34.rules
    advisor = load_strategy("optimal", table34)
    root = advisor.next_guess(table34.all_codes, ())
    detour = r.parse_code("444") if r.code_text(root) != "444" else r.parse_code("111")
    answers = table34.answer_indices(detour)
    for a in np.unique(answers).tolist():
        if a == r.win_index:
            continue
        cands = table34.all_codes[answers == a]
        used = sum(play_on(advisor, table34, cands, [(detour, a)], s) for s in cands.tolist())
        assert used == exact.solve(table34, exact.Problem(candidates=cands)).total
    solves = advisor.solves
    assert solves == len(set(answers.tolist()) - {r.win_index})
    # back on the tree (as after undo) the stored optimal tree is used again, nothing re-solved
    assert advisor.next_guess(table34.all_codes, ()) == root
    assert advisor.solves == solves


def test_assist_optimal_after_a_detour(table34):
    a = Assistant(load_strategy("optimal", table34))
    a.handle("123"), a.handle("0B0W")  # only colour 4 left: 444
    assert a.turn_header() == "Turn 2 - 1 candidate - suggested guess: 444"


def test_solve_command_optimal(cli):
    code, out, _ = cli(["solve", "4 3 1 1", "--rules", "p4c4", "--strategy", "optimal", "--json"])
    data = json.loads(out)["turns"]
    assert code == 0 and data[-1]["guess"] == "4311" and data[-1]["feedback"] == "4B0W"
