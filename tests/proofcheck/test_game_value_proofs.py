"""Proofs of game values (version 2: weighted facts): written by the proof pass with the
maker's mix as weights, checked by the independent checker; every mutation refused; the
weighted verdicts held to a brute force on tiny games."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import GameClaims, prove_weighted
from mastermind.engines.gamevalue import game_value
from mastermind.engines.gamevalue.proof import game_value_proof
from mastermind.proofcheck import ProofError, check_proof
from mastermind.proofcheck.bounds import slot_depths, weighted_floor
from mastermind.proofcheck.check import FactChecker
from mastermind.proofcheck.game import Game
from mastermind.proofcheck.partitions import weighted_floors, weighted_floors_reference
from mastermind.proofcheck.strategies import pattern_classes

GAMES = ["p2c2", "p2c3", "p3c2", "p3c3", "p3c4", "p3c3n", "p3c4b"]


@cache
def _solved(rules: str) -> tuple[str, Fraction]:
    table = CodeTable(Rules.parse(rules))
    result = game_value(table)
    assert result.proven
    return json.dumps(game_value_proof(table, result)), result.value


def proof(rules: str) -> dict:
    """A fresh copy of the game value's proof (checked valid here first)."""
    data = json.loads(_solved(rules)[0])
    check_proof(copy.deepcopy(data))
    return data


def check_facts(rules: str, facts: list[dict], weights: np.ndarray) -> None:
    """The facts alone, under ``weights`` (the file's header left out)."""
    checker = FactChecker(Game.parse(str(Rules.parse(rules))), weights)
    for i, fact in enumerate(facts):
        checker.check(i, fact)


@pytest.mark.parametrize("rules", GAMES)
def test_the_proof_proves_the_game_value_both_ways(rules):
    data = proof(rules)
    value = _solved(rules)[1]
    outcome = check_proof(copy.deepcopy(data))
    assert outcome.game_value == value and outcome.breaker == value
    assert outcome.weight == sum(data["weights"]) and Fraction(outcome.total, outcome.weight) == value
    # the weights are the maker's mix, whole: equal within a class, of common divisor 1
    assert np.gcd.reduce(np.asarray(data["weights"])) == 1
    assert data["version"] == 2 and data["worst"] is None and data["worst_strategy"] is None


@pytest.mark.parametrize("rules", ["p3c4", "p3c4b"])
def test_a_weight_lowered_by_one_refutes_the_root(rules):
    """The root claims the least weighted total: with one secret's weight lowered, the
    optimal strategy costs less by its guesses, so the facts (read with those weights) must
    fail somewhere, whichever secret it is."""
    data = proof(rules)
    weights = np.asarray(data["weights"], dtype=np.int64)
    check_facts(rules, data["facts"], weights)  # (as written: they hold)
    for s in range(len(weights)):
        lowered = weights.copy()
        lowered[s] -= 1
        with pytest.raises(ProofError):
            check_facts(rules, data["facts"], lowered)


def test_a_weight_changed_in_the_file_is_refused(refused):
    data = proof("p3c4")
    data["weights"][5] += 1
    assert "game_value:" in str(refused(data))
    data["game_value"] = f"{data['total']}/{sum(data['weights'])}"  # (the header agreeing)
    assert str(refused(data)).startswith("strategy: its total is ")


@pytest.mark.parametrize("rules", ["p3c4", "p3c4b"])
def test_a_bound_raised_by_one_fails_at_that_fact_or_holds(rules):
    facts = proof(rules)["facts"]
    roots = [i for i, f in enumerate(facts) if not f["path"]]
    failed = set()
    # (some 20 facts spread over the file, and the root: each mutant is a whole check)
    for i in sorted({*range(0, len(facts), max(1, len(facts) // 20)), *roots}):
        fact = facts[i]
        data = proof(rules)
        data["facts"][i]["total"] += 1
        try:
            check_proof(data)
        except ProofError as exc:
            assert exc.fact == i and f"claims total >= {fact['total'] + 1})" in str(exc)
            failed.add(i)
    assert len(roots) == 1 and roots[0] in failed


def test_the_value_claimed_higher_by_one_over_the_denominator_is_refused(refused):
    data = proof("p3c4")
    weight = sum(data["weights"])
    higher = Fraction(data["game_value"]) + Fraction(1, weight)
    data["game_value"] = f"{higher.numerator}/{higher.denominator}"
    assert "is not the total" in str(refused(copy.deepcopy(data)))
    data["total"] += 1  # (the header agreeing: the strategy does not meet it)
    assert str(refused(copy.deepcopy(data))).startswith("strategy: its total is ")
    root = next(i for i, f in enumerate(data["facts"]) if not f["path"])
    data["facts"][root]["total"] += 1  # (nor do the facts prove it)
    check = FactChecker(Game.parse(data["rules"]), np.asarray(data["weights"]))
    with pytest.raises(ProofError, match=rf"^fact {root} \(path \[\]; claims total >= {data['total']}\)"):
        for i, fact in enumerate(data["facts"]):
            check.check(i, fact)


def test_a_symmetry_that_does_not_keep_the_weights_is_refused():
    """A fact's symmetry moves some secret of its set: with that secret's weight raised
    (which only raises what every fact claims of its set, so no other check fails first),
    the symmetry no longer keeps the weights."""
    rules = "p4c4"
    data = proof(rules)
    game = Game.parse(data["rules"])
    weights = np.asarray(data["weights"], dtype=np.int64)
    checker = FactChecker(game, weights)
    refusals = 0
    for i, fact in enumerate(data["facts"]):
        for sym in fact.get("symmetries", [])[:1]:
            secrets = checker.set_of(checker._path(i, fact["path"]))
            image = game.permute(sym["pegs"], sym["colours"])
            moved = secrets[image[secrets] != secrets]
            if len(moved) == 0:
                continue
            raised = weights.copy()
            raised[moved[0]] += 1
            with pytest.raises(ProofError, match="does not keep the weights of the set"):
                check_facts(rules, data["facts"][: i + 1], raised)
            refusals += 1
        if refusals >= 5:
            break
    assert refusals > 0


def test_a_breaker_mix_that_is_not_optimal_is_refused(refused):
    """Each tree of the breaker's p3c4 mix alone: refused when some class of secrets takes
    it more than the value on average (computed here from the game value's class totals)."""
    table = CodeTable(Rules.parse("p3c4"))
    result = game_value(table)
    sizes = {m.name: m.size for m in result.details.maker}
    names = [m.name for m in result.details.maker]
    data = proof("p3c4")
    assert len(data["breaker"]) > 1
    refusals = 0
    for t, tree in enumerate(data["breaker"]):
        alone = copy.deepcopy(data)
        alone["breaker"] = [{"weight": "1/1", "strategy": tree["strategy"]}]
        totals = result.details.breaker[t].class_totals
        worst = max(Fraction(total, sizes[name]) for name, total in zip(names, totals))
        if worst > result.value:
            assert str(refused(alone)).startswith("breaker: its mix takes ")
            refusals += 1
        else:
            assert check_proof(alone).breaker == worst
    assert refusals > 0
    data["breaker"][0]["weight"] = "1/2"  # (the weights no longer summing to 1)
    assert "the weights sum to" in str(refused(data))


# ---- the checker's weighted bound against brute force ---------------------------------------


def test_the_weighted_floor_is_the_least_over_every_profile():
    """weighted_floor is the least ``sum w * depth`` over every assignment of depths that a
    tree of at most b classes per guess allows (at most b**(d-1) secrets at depth d)."""
    rng = np.random.default_rng(7)
    for _ in range(60):
        m, b = int(rng.integers(1, 7)), int(rng.integers(1, 4))
        w = rng.integers(0, 9, m)
        best = min(
            int(w @ np.asarray(depths))
            for depths in product(range(1, m + 1), repeat=m)
            if all(sum(x == d for x in depths) <= b ** (d - 1) for d in range(1, m + 1))
        )
        assert weighted_floor(w.tolist(), b) == best
    assert weighted_floor([3, 3, 3], 2) == 3 * int(slot_depths(3, 2).sum())


@pytest.mark.parametrize("rules", ["p3c3", "p2c4b"])
def test_weighted_floors_matches_its_reference(rules):
    game = Game.parse(str(Rules.parse(rules)))
    rng = np.random.default_rng(3)
    for _ in range(5):
        weights = rng.integers(0, 6, game.n)
        secrets = np.sort(rng.choice(game.n, int(rng.integers(2, game.n)), replace=False))
        guesses = np.arange(game.n)
        b = int(rng.integers(1, 5))
        heaviest = secrets[np.argsort(-weights[secrets], kind="stable")]
        got = weighted_floors(
            game.slots, heaviest, weights, guesses, slot_depths(len(secrets), b), game.n_slots
        )
        assert np.array_equal(
            got, weighted_floors_reference(game.slots, secrets, weights, guesses, b, game.n_slots)
        )


def brute_force(game: Game, weights: np.ndarray):
    """The least weighted total of every set of secrets, by plain recursion over every guess."""

    @cache
    def cost(secrets: frozenset) -> int:
        weight = sum(int(weights[s]) for s in secrets)
        if len(secrets) == 1:
            return weight
        best = None
        members = sorted(secrets)
        for g in range(game.n):
            parts: dict[int, list[int]] = {}
            for s in members:
                if s != g:
                    parts.setdefault(int(game.answers[g, s]), []).append(s)
            if len(parts) == 1 and len(next(iter(parts.values()))) == len(secrets):
                continue  # (no information)
            value = weight + sum(cost(frozenset(p)) for p in parts.values())
            best = value if best is None else min(best, value)
        assert best is not None
        return best

    return cost


@pytest.mark.parametrize("rules", ["p2c2", "p2c3", "p3c2", "p2c3b"])
def test_weighted_verdicts_agree_with_brute_force(rules):
    """Random weights, any (the checker's own symmetries left out): a lone fact of a set
    after one guess is accepted only when it holds (sound), and accepted at the bound the
    checker derives itself, from the reference kernels."""
    game = Game.parse(str(Rules.parse(rules)))
    rng = np.random.default_rng(11)
    for _ in range(4):
        weights = rng.integers(0, 5, game.n)
        weights[rng.integers(game.n)] += 1  # (not all 0)
        least = brute_force(game, weights)
        for g in range(game.n):
            for a in sorted(set(game.answers[g].tolist()) - {game.win}):
                secrets = np.flatnonzero(game.answers[g] == a)
                path = [[game.code_text(g), game.answer_text(a)]]
                true = least(frozenset(secrets.tolist()))
                derived = lone_bound(game, secrets, weights)
                assert derived <= true
                FactChecker(game, weights).check(0, {"path": path, "total": derived})
                with pytest.raises(ProofError):
                    FactChecker(game, weights).check(0, {"path": path, "total": derived + 1})


def lone_bound(game: Game, secrets: np.ndarray, weights: np.ndarray) -> int:
    """What a fact without references derives of a set: the least over the guesses that
    split it of its weight plus its classes' weighted counting bounds (reference kernels)."""
    guesses = np.arange(game.n)
    b = max(len(set(game.answers[g, secrets].tolist()) - {game.win}) for g in guesses)
    floors = weighted_floors_reference(game.answers, secrets, weights, guesses, b, game.n_answers)
    out = None
    for g in guesses:
        answers = game.answers[g, secrets]
        if len(set(answers.tolist())) == 1 and answers[0] != game.win:
            continue
        value = int(weights[secrets].sum()) + sum(
            int(floors[g, a]) for a in set(answers.tolist()) - {game.win}
        )
        out = value if out is None else min(out, value)
    assert out is not None
    return out


@pytest.mark.parametrize("rules", ["p2c2", "p2c3", "p3c2", "p2c3b", "p3c2b"])
def test_proofs_of_symmetric_weights_claim_the_brute_force_optimum(rules):
    """Random weights equal within each class of codes: the pass proves the brute force's
    least weighted total, the checker accepts it, and not one more."""
    table = CodeTable(Rules.parse(rules))
    game = Game.parse(str(table.rules))
    of_code, names = pattern_classes(game)
    rng = np.random.default_rng(5)
    for _ in range(3):
        weights = rng.integers(1, 6, len(names))[of_code].tolist()
        total = brute_force(game, np.asarray(weights))(frozenset(range(game.n)))
        claims = GameClaims(weights, f"{total}/{sum(weights)}", None)
        data = json.loads(json.dumps(prove_weighted(table, claims, total)))
        outcome = check_proof(copy.deepcopy(data))
        assert outcome.total == total and outcome.breaker is None
        root = next(i for i, f in enumerate(data["facts"]) if not f["path"])
        data["facts"][root]["total"] += 1
        with pytest.raises(ProofError, match=rf"^fact {root} \(path \[\]; claims total >= {total + 1}\)"):
            check_facts(rules, data["facts"], np.asarray(weights))


def test_weights_no_symmetry_keeps_are_refused_by_the_writer():
    """The pass's symmetries are the game's: weights that differ on codes a symmetry maps
    together are refused before any fact (the checker would refuse the facts)."""
    from mastermind.core.errors import MastermindError

    table = CodeTable(Rules.parse("p2c3"))
    weights = [1] * table.n
    weights[0] = 2  # (code 11 alone: 22 and 33 are of its class)
    with pytest.raises(MastermindError, match="the same on codes a symmetry maps together"):
        prove_weighted(table, GameClaims(weights, "1/1", None), 1)


def test_a_stopped_pass_writes_nothing():
    from mastermind.core.cancel import CancelToken, Stopped
    from mastermind.engines.gamevalue import write_game_value_proof

    table = CodeTable(Rules.parse("p3c4"))
    result = game_value(table)
    token = CancelToken()
    token.cancel()
    pieces: list[str] = []
    with pytest.raises(Stopped):
        write_game_value_proof(pieces.append, table, result, token=token)


@pytest.mark.parametrize(
    "key, value, said",
    [
        ("weights", "1 1 1", "weights: expected 64 whole numbers"),
        ("weights", [1] * 63, "weights: expected 64 whole numbers"),
        ("weights", [-1] + [1] * 63, "weights: expected 64 whole numbers"),
        ("weights", [0] * 64, "weights: every weight is 0"),
        ("weights", [1 << 60] * 64, "weights: their sum 73786976294838206464 is too large"),
        ("game_value", "3.22", 'game_value: expected a fraction such as "5600/1290"'),
        ("game_value", "219/0", "game_value: expected a fraction"),
        ("worst", 4, "claims the weighted total alone"),
        ("breaker", {}, "breaker: expected a list of {weight, strategy}"),
        ("breaker", [{"weight": "1/1"}], "breaker 0: expected {weight, strategy}"),
        ("breaker", [{"weight": "0/1", "strategy": {}}], "breaker 0: its weight must be above 0"),
        ("version", 3, "proof format version 3; this checker reads 1 and 2"),
    ],
)
def test_a_malformed_game_value_header_is_one_proof_error(key, value, said, refused):
    data = proof("p3c4")
    data[key] = value
    assert said in str(refused(data))


def test_facts_before_the_weights_are_kept_and_checked_all_the_same():
    import io

    from mastermind.proofcheck import proof_items

    data = proof("p3c4")
    reordered = {"facts": data.pop("facts"), **data}
    outcome = check_proof(proof_items(io.BytesIO(json.dumps(reordered).encode())))
    assert outcome.game_value == Fraction(219, 68) and outcome.facts == len(reordered["facts"])
    reordered["facts"][-1]["total"] += 1  # (and still refused where a fact fails)
    with pytest.raises(ProofError, match=r"^fact \d+ \(path \[\]; claims total >= 220\)"):
        check_proof(proof_items(io.BytesIO(json.dumps(reordered).encode())))


def test_a_strategy_s_weighted_total_is_counted_without_wrapping_around(refused):
    # a reviewer's forgery: weights of 2**57 (within the weights' guard) and a strategy that
    # repeats a useless guess 124 times, so that its weighted total, 33 * 2**59, wrapped
    # around int64 to 2**59: the file claimed that 2**59 (a game value of 1) was optimal
    inner: dict = {"guess": "22"}
    for _ in range(124):
        inner = {"guess": "11", "children": {"0B0W": inner}}
    found = {"1B0W": {"guess": "12", "children": {"0B2W": {"guess": "21"}}}, "0B0W": inner}
    data = {
        "format": "mastermind-proof",
        "version": 2,
        "rules": "p2c2r",
        "total": 1 << 59,
        "worst": None,
        "strategy": {"guess": "11", "children": found},
        "worst_strategy": None,
        "weights": [1 << 57] * 4,
        "game_value": "1",
        "breaker": None,
        "facts": [{"path": [], "total": 1 << 59}],
    }
    assert str(refused(data)) == f"strategy: its total is {33 << 59}, the proof claims {1 << 59}"
