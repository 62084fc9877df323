"""The proof checker on its own: its kernels against their plain-Python twins, its scoring
against the game model's, and its verdicts against a plain exhaustive search on tiny games
(proofs written by the exact search's certificate pass, then checked)."""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.variant import BLACK_PEG, STANDARD
from mastermind.engines.exact.certify import certify
from mastermind.proofcheck import ProofError, check_proof
from mastermind.proofcheck.game import Game
from mastermind.proofcheck.partitions import (
    class_counts,
    class_counts_reference,
    guess_values,
    guess_values_reference,
    member_bounds,
    member_bounds_reference,
    most_classes,
    most_classes_reference,
    orbit_minima,
    orbit_minima_reference,
)


def test_class_counts_matches_its_reference():
    rng = np.random.default_rng(1)
    answers = rng.integers(0, 9, size=(40, 40)).astype(np.uint8)
    answers = np.triu(answers) + np.triu(answers, 1).T  # (symmetric, as every game's table is)
    for _ in range(20):
        secrets = np.sort(rng.choice(40, size=rng.integers(1, 40), replace=False))
        guesses = np.sort(rng.choice(40, size=rng.integers(1, 40), replace=False))
        got = class_counts(answers, secrets, guesses, 9)
        assert np.array_equal(got, class_counts_reference(answers, secrets, guesses, 9))
        assert got.sum() == len(secrets) * len(guesses)


@pytest.mark.parametrize("rules", ["p3c4r", "p4c4n"])
def test_member_bounds_matches_its_reference(rules):
    game = Game.parse(rules)
    rng = np.random.default_rng(3)
    for _ in range(5):
        secrets = np.sort(rng.choice(game.n, size=rng.integers(3, game.n), replace=False))
        guesses = np.sort(rng.choice(game.n, size=6, replace=False))
        args = (game.answers, secrets, guesses, 5, game.win, game.n_answers)
        assert np.array_equal(member_bounds(*args), member_bounds_reference(*args))


@pytest.mark.parametrize("total", [True, False])
@pytest.mark.parametrize("rules", ["p3c4r", "p3c4n", "p3c4rb"])
def test_guess_values_and_most_classes_match_their_references(total, rules):
    game = Game.parse(rules)
    rng = np.random.default_rng(4)
    floors = np.arange(game.n + 1) * 3
    for _ in range(10):
        secrets = np.sort(rng.choice(game.n, size=rng.integers(1, game.n), replace=False))
        guesses = np.sort(rng.choice(game.n, size=min(10, game.n), replace=False))
        counts = class_counts(game.slots, secrets, guesses, game.n_slots)
        got = guess_values(counts, floors, total, game.win_slot, len(secrets))
        want = guess_values_reference(game.answers, secrets, guesses, floors, total, game.win)
        assert all(np.array_equal(a, b) for a, b in zip(got, want))
        most = most_classes(counts, game.win_slot)
        assert most == most_classes_reference(game.answers, secrets, guesses, game.win)


@pytest.mark.parametrize("rules", ["p4c6r", "p4c6rb", "p3c3n", "p2c5r"])
def test_the_slots_number_the_answers_the_game_gives(rules):
    game = Game.parse(rules)
    given = sorted({int(a) for a in game.answers.ravel()})
    assert [int(game.slot_of[a]) for a in given] == list(range(len(given))) == list(range(game.n_slots))
    assert (game.slot_of >= 0).sum() == game.n_slots
    assert np.array_equal(game.slots, game.slot_of[game.answers])
    assert game.win_slot == game.slot_of[game.win]


def test_orbit_minima_matches_its_reference():
    rng = np.random.default_rng(2)
    for _ in range(20):
        maps = np.array([rng.permutation(30) for _ in range(rng.integers(1, 4))])
        assert np.array_equal(orbit_minima(maps), orbit_minima_reference(maps))


@pytest.mark.parametrize("rules", ["p3c4r", "p4c4n", "p2c5r", "p3c4rb", "p4c4nb"])
def test_the_checkers_answers_are_the_games(rules):
    """Its own scoring agrees with the game model's on every pair of codes."""
    game, table = Game.parse(rules), CodeTable(Rules.parse(rules))
    assert game.n == table.n and [game.code_text(i) for i in range(game.n)] == [
        table.rules.code_text(i) for i in range(table.n)
    ]
    said = [str(table.rules.answer_feedbacks[a]) for a in range(table.rules.n_answer_slots)]
    ours = np.vectorize(game.answer_text)(game.answers)
    assert np.array_equal(ours, np.array(said)[table.scores])
    assert np.array_equal(game.answers, game.answers.T)  # (the kernels read a secret's row)


def brute_force(pegs: int, colours: int, black_peg: bool = False) -> tuple[int, int]:
    """The optimal total and worst case by plain recursion over every guess and secret set
    (``black_peg``: the answer is the black pegs alone)."""
    codes = [tuple(int(d) for d in np.base_repr(i, colours).zfill(pegs)) for i in range(colours**pegs)]

    def answer(g, s):
        black = sum(a == b for a, b in zip(g, s))
        if black_peg:
            return black
        return black, sum(min(g.count(c), s.count(c)) for c in range(colours)) - black

    def parts(g, secrets):
        out: dict = {}
        for s in secrets:
            if s != g:
                out.setdefault(answer(g, s), []).append(s)
        return [frozenset(p) for p in out.values()]

    @cache
    def cost(secrets: frozenset) -> tuple[int, int]:  # (least total, least worst case)
        if len(secrets) == 1:
            return 1, 1
        total = worst = 10**9
        for g in codes:
            split = parts(g, secrets)
            if len(split) == 1 and len(split[0]) == len(secrets):
                continue  # (no information)
            costs = [cost(p) for p in split]
            total = min(total, len(secrets) + sum(t for t, _ in costs))
            worst = min(worst, 1 + max((w for _, w in costs), default=0))
        return total, worst

    return cost(frozenset(codes))


@pytest.mark.parametrize(
    "pegs, colours, black_peg",
    [(2, 2, False), (2, 3, False), (3, 2, False), (2, 4, False), (2, 3, True), (3, 2, True), (2, 4, True)],
)
def test_proofs_of_tiny_games_agree_with_brute_force(pegs, colours, black_peg):
    total, worst = brute_force(pegs, colours, black_peg)
    rules = Rules(pegs, colours, variant=BLACK_PEG if black_peg else STANDARD)
    proof = certify(CodeTable(rules), total, worst)
    assert proof["rules"] == str(rules)
    outcome = check_proof(copy.deepcopy(proof))
    assert (outcome.total, outcome.worst) == (total, worst)
    facts = proof["facts"]
    root = {k: i for i, f in enumerate(facts) for k in ("total", "worst") if k in f and not f["path"]}
    for kind, value in (("total", total), ("worst", worst)):
        # one more than the optimum: the fact fails (the checker derives the optimum itself)
        wrong = copy.deepcopy(proof)
        wrong["facts"][root[kind]][kind] = value + 1
        named = rf"^fact {root[kind]} \(path \[\]; claims {kind} >= {value + 1}\)"
        with pytest.raises(ProofError, match=named):
            check_proof(wrong)
