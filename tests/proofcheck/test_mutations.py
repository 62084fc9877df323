"""Soundness: every mutation of a valid proof is refused, naming the fact that fails (or the
claim the strategies do not meet). Proofs of small games are written by the certificate
pass; the 4x6 one is the committed ``results/proofs/p4c6.proof.json.gz``."""

from __future__ import annotations

import copy
import gzip
import json
from functools import cache
from pathlib import Path

import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Problem, solve
from mastermind.engines.exact.certify import certify
from mastermind.proofcheck import ProofError, check_proof
from mastermind.proofcheck.game import Game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["p3c3", "p3c4", "p4c4", "p3c3b"]  # (and black-peg Mastermind)


@cache
def _proof(rules: str) -> str:
    table = CodeTable(Rules.parse(rules))
    total, worst = solve(table).total, solve(table, Problem(objective="worst")).worst
    return json.dumps(certify(table, total, worst))


def proof(rules: str) -> dict:
    """A fresh copy of a valid proof of the game (checked here first)."""
    data = json.loads(_proof(rules))
    check_proof(copy.deepcopy(data))
    return data


def referrers(facts: list[dict], i: int) -> list[int]:
    return [j for j, f in enumerate(facts) if any(ref[2] == i for ref in f.get("refs", []))]


@pytest.mark.parametrize("rules", GAMES)
def test_a_bound_raised_by_one_fails_at_that_fact_or_holds(rules):
    """A fact claims more only of its own set (the facts resting on it only gain): it fails
    there or still holds; the optimum's own facts fail."""
    facts = proof(rules)["facts"]
    failed = set()
    for i, fact in enumerate(facts):
        data = proof(rules)
        kind = "total" if "total" in fact else "worst"
        data["facts"][i][kind] += 1
        try:
            check_proof(data)
        except ProofError as exc:
            assert exc.fact == i and f"claims {kind} >= {fact[kind] + 1})" in str(exc)
            failed.add(i)
    roots = {i for i, f in enumerate(facts) if not f["path"]}
    assert len(roots) == 2 and roots <= failed


@pytest.mark.parametrize("rules", GAMES)
def test_a_fact_removed_fails_the_fact_resting_on_it(rules, refused):
    facts = proof(rules)["facts"]
    used = [i for i in range(len(facts)) if referrers(facts, i)]
    assert used or rules == "p3c3"
    for i in used:
        data = proof(rules)
        del data["facts"][i]
        for f in data["facts"]:  # (the ids after it renumbered, its references dropped)
            f["refs"] = [[g, a, r - (r > i)] for g, a, r in f.get("refs", []) if r != i]
        first = referrers(facts, i)[0]
        assert refused(data).fact == first - 1


@pytest.mark.parametrize("rules", GAMES)
def test_a_secret_dropped_from_a_set_is_caught(rules, refused):
    """A fact's path made one step longer, leaving secrets out of its set (as few as a step
    can: one where some guess singles one out): the fact or the one resting on it fails."""
    from mastermind.proofcheck.check import FactChecker

    facts = proof(rules)["facts"]
    game = Game.parse(str(Rules.parse(rules)))
    checked = 0
    for i in [i for i in range(len(facts)) if referrers(facts, i)]:
        data = proof(rules)
        secrets = FactChecker(game).set_of(FactChecker(game)._path(i, facts[i]["path"]))
        kept, step = max(
            (
                (int((game.answers[g, secrets] == a).sum()), [game.code_text(g), game.answer_text(a)])
                for g in range(game.n)
                for a in range(game.n_answers)
            ),
            key=lambda c: (c[0] < len(secrets), c[0]),
        )
        assert 0 < kept < len(secrets)
        data["facts"][i]["path"].append(step)
        assert refused(data).fact in [i, *referrers(facts, i)]
        checked += 1
    assert checked or rules == "p3c3"


def test_an_answer_changed_in_a_path_is_caught(refused):
    facts = proof("p4c4")["facts"]
    i = next(i for i, f in enumerate(facts) if f["path"] and referrers(facts, i))
    data = proof("p4c4")
    guess, answer = data["facts"][i]["path"][-1]
    data["facts"][i]["path"][-1] = [guess, "0B0W" if answer != "0B0W" else "1B0W"]
    assert refused(data).fact in [i, *referrers(facts, i)]


@pytest.mark.parametrize("rules", ["p3c4", "p4c4"])
def test_a_symmetry_that_does_not_hold_is_refused(rules, refused):
    facts = proof(rules)["facts"]
    i = next(i for i, f in enumerate(facts) if f["path"] and f.get("symmetries"))
    pegs, colours = Rules.parse(rules).pegs, Rules.parse(rules).colors
    refusals = 0
    for a in range(colours):
        for b in range(a + 1, colours):
            swap = list(range(colours))
            swap[a], swap[b] = b, a
            data = proof(rules)
            data["facts"][i]["symmetries"].append({"pegs": list(range(pegs)), "colours": swap})
            try:
                check_proof(data)
            except ProofError as exc:
                assert exc.fact == i and "does not map the set onto itself" in str(exc)
                refusals += 1
    assert refusals > 0
    data = proof(rules)
    data["facts"][i]["symmetries"].append({"pegs": [0] * pegs, "colours": list(range(colours))})
    error = refused(data)
    assert error.fact == i and "must be permutations" in str(error)


@pytest.mark.parametrize(
    "colours",
    [
        [0, 0.0, 2, 3, 1],  # (its whole numbers a permutation: colour 1 read as 0.0, merged with 0)
        [0, 1, 2, 3, 0.5],  # (an entry too many)
        [1, True, 2, 3, 0],  # (a flag)
        [0, 1, 2, 3, None],
    ],
)
def test_a_map_that_is_no_permutation_is_refused(colours, refused):
    # a reviewer's forgery: maps that merge colours put every guess in the orbit of one bad
    # guess, and a root fact claiming far too much checked (total 266 of 3x4, optimum 206)
    data = proof("p3c4")
    i = next(i for i, f in enumerate(data["facts"]) if not f["path"] and "total" in f)
    data["facts"][i]["symmetries"] = [{"pegs": [0, 1, 2], "colours": colours}]
    error = refused(data)
    assert error.fact == i and "must be permutations" in str(error)


@pytest.mark.parametrize("rules", GAMES)
def test_a_strategy_with_one_guess_more_is_refused(rules, refused):
    data = proof(rules)
    table = CodeTable(Rules.parse(rules))
    node = data["strategy"]
    while node.get("children"):  # down to a node whose guess is the last secret left
        node = next(iter(node["children"].values()))
    secret = table.rules.parse_code(node["guess"])
    other = (secret + 1) % table.n
    said = str(table.rules.answer_feedbacks[table.scores[other, secret]])
    leaf = dict(node)
    node.clear()
    node.update({"candidates": 1, "guess": table.rules.code_text(other), "children": {said: leaf}})
    total = data["total"]
    assert (
        str(refused(copy.deepcopy(data))) == f"strategy: its total is {total + 1}, the proof claims {total}"
    )
    data["total"] = total + 1
    assert str(refused(data)) == f"no fact claims total >= {total + 1} of every secret (path [])"


def _committed(name: str) -> dict:
    return json.loads(gzip.decompress((ROOT / "results" / "proofs" / name).read_bytes()))


def test_4x6_claiming_5624_is_refused(refused):
    data = _committed("p4c6.proof.json.gz")
    assert check_proof(copy.deepcopy(data)).total == 5625
    lower = copy.deepcopy(data)
    lower["total"] = 5624
    assert str(refused(lower)) == "strategy: its total is 5625, the proof claims 5624"
    root = next(i for i, f in enumerate(data["facts"]) if not f["path"] and "total" in f)
    data["facts"][root]["total"] = 5626
    message = str(refused(data))
    assert message.startswith(f"fact {root} (path []; claims total >= 5626): guess ")
    assert "leaves total >= 5625 only" in message


def test_a_worst_case_its_strategy_does_not_have_is_named_as_the_strategy_s(refused):
    # worst_strategy null (the strategy's worst case is the claim): said of the strategy, not
    # "worst_strategy: expected a node" (a new user's trial)
    data = proof("p3c4")
    data["worst"] -= 1
    assert (
        str(refused(data))
        == f"strategy: its worst case is {data['worst'] + 1}, the proof claims {data['worst']}"
    )


def test_a_negative_bound_is_named_as_such(refused):
    data = proof("p3c4")
    data["facts"][0]["total"] = -5
    assert str(refused(data)).endswith("the bound must be a whole number, 0 or more")
