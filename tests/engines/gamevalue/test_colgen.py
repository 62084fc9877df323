from fractions import Fraction

import pytest

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.gamevalue import game_value
from mastermind.engines.gamevalue.bestreply import exact_solver_available
from mastermind.engines.gamevalue.bruteforce import brute_force_value, brute_force_value_glop, depth_vectors
from mastermind.engines.gamevalue.classes import code_classes

TINY = ["p2c2", "p2c3", "p3c2"]


def check_result(table, result):
    """The reported mixes prove the reported value, recomputed from the trees alone."""
    classes = code_classes(table)
    assert result.proven and result.lower_bound == result.value
    assert sum(m.probability for m in result.details.maker) == 1
    assert sum(b.weight for b in result.details.breaker) == 1
    per_code = [result.details.maker[k].per_code for k in classes.of_code.tolist()]
    # breaker guarantee: played under a random symmetry every code of a class costs the
    # class average, at most the value
    for k, size in enumerate(classes.sizes.tolist()):
        members = classes.members(k)
        cost = sum(
            b.weight * Fraction(int(b.tree.depths(table)[members].sum()), size)
            for b in result.details.breaker
        )
        assert cost <= result.value
    return per_code


@pytest.mark.parametrize("text", TINY + ["p2c3n", "p3c3n"])
def test_tiny_games_agree_with_brute_force(text):
    table = CodeTable(Rules.parse(text))
    result = game_value(table, solver="search")
    expected = brute_force_value(table)
    assert result.value == expected
    assert float(expected) == pytest.approx(brute_force_value_glop(table), abs=1e-9)
    per_code = check_result(table, result)
    # maker guarantee against every deterministic strategy, not only the symmetric ones
    vecs = depth_vectors(table)
    assert min(sum(p * int(d) for p, d in zip(per_code, v)) for v in vecs) == result.value
    # the value lies between the uniform optimum and the worst single secret
    assert Fraction(result.details.uniform_total, table.n) <= result.value


def test_pareto_pruning_keeps_the_value():
    table = CodeTable(Rules(2, 2))
    assert brute_force_value(table, pareto=False) == brute_force_value(table)


def test_to_dict_is_the_game_value_commands_json():
    """The library's JSON of a game value is the command's (it had a dialect of its own:
    value, lower_bound, value_numerator, ...; a new user's trial). test_schemas validates it."""
    result = game_value(CodeTable(Rules(2, 3)), solver="search")
    data = result.to_dict()
    assert Fraction(data["average_fraction"]) == result.value and data["average"] == round(
        float(result.value), 6
    )
    assert not {"value", "lower_bound", "upper_bound", "value_numerator"} & set(data)
    assert data["rules"] == "p2c3r" and data["iterations"] == result.details.iterations >= 2


@pytest.mark.parametrize("text", ["p2c3", "p3c2", "p3c3", "p2c5", "p3c4"])
def test_exact_solver_and_search_give_the_same_value(text):
    table = CodeTable(Rules.parse(text))
    fast = game_value(table, solver="exact")
    check_result(table, fast)
    if table.n <= 27:
        assert game_value(table, solver="search").value == fast.value


def test_p4c6_value_is_wiener_5600_over_1290():
    """Wiener's value of 4x6 Mastermind as a zero-sum game (runs in CI, not only with -m slow)."""
    assert exact_solver_available()  # the weighted exact solver is part of the package
    table = CodeTable(Rules(4, 6))
    result = game_value(table, solver="exact")
    assert result.value == Fraction(5600, 1290)
    assert result.details.uniform_total == 5625
    assert result.details.maker[0].name == "aaaa" and result.details.maker[0].probability == 0
    check_result(table, result)


@pytest.mark.parametrize("smoothing", [0.0, 0.5, 0.9])
def test_smoothing_changes_the_path_not_the_value(smoothing):
    table = CodeTable(Rules(3, 2))
    result = game_value(table, solver="search", smoothing=smoothing)
    assert result.value == Fraction(23, 10) == brute_force_value(table)
    check_result(table, result)


def test_bad_smoothing_and_partial_table():
    from mastermind.core.errors import MastermindError

    with pytest.raises(MastermindError, match="smoothing"):
        game_value(CodeTable(Rules(2, 2)), smoothing=1.0)
    with pytest.raises(MastermindError, match="full score table"):
        game_value(CodeTable(Rules(2, 2), full=False))


def test_iteration_limit_reports_bounds_without_proof():
    table = CodeTable(Rules(3, 2))
    result = game_value(table, solver="search", max_iterations=2, smoothing=0.0)
    assert not result.proven
    assert result.lower_bound <= brute_force_value(table) <= result.value
    assert result.stopped == "iteration limit"  # (it said None: no reason for an unfinished run)
    assert game_value(table, solver="search").stopped is None
    for few in (0, 1, 2.5, True):  # (the command line refused them; the library took them)
        with pytest.raises(MastermindError, match="max iterations must be a whole number of at least 2"):
            game_value(table, max_iterations=few)


def test_iteration_limit_reports_the_maker_mix_that_forces_its_lower_bound():
    """The last LP's maker mix was given beside the lower bound: on p4c6 with 2 iterations
    the best reply to it was 4.2895, below the 4.3403 claimed."""
    from mastermind.engines.gamevalue.bestreply import best_reply
    from mastermind.engines.gamevalue.classes import code_classes

    table = CodeTable(Rules(3, 4))
    result = game_value(table, solver="search", max_iterations=2)
    assert not result.proven
    classes = code_classes(table)
    per_code = {m.name: m.per_code for m in result.details.maker}
    weights = [float(per_code[classes.names[k]]) for k in classes.of_code.tolist()]
    forced, _ = best_reply(table, weights, solver="search")
    assert forced / sum(weights) >= float(result.lower_bound) - 1e-9


def test_progress_bar_is_driven():
    from mastermind.core.progress import progress_bar

    class Recorder:
        def __init__(self):
            self.starts, self.steps = [], 0

        def start(self, total, description=""):
            self.starts.append((total, description))

        def advance(self, n=1):
            self.steps += n

    bar = Recorder()
    result = game_value(CodeTable(Rules(2, 3)), solver="search", progress=bar)
    assert result.proven and bar.starts and bar.steps >= 1
    with progress_bar(True) as rich_bar:  # the rich bar takes the same calls
        assert game_value(CodeTable(Rules(2, 3)), solver="search", progress=rich_bar).proven


@pytest.mark.parametrize("solver", ["search", "exact"])
def test_a_time_limit_stops_either_best_reply_solver_with_a_bound(solver):
    # the pure-Python best-reply search used to run to its end whatever the time limit
    import time

    from mastermind.engines.models.bounds import perfect_tree_total

    table = CodeTable(Rules(4, 7))  # whose value takes either solver hours (p4c5: 0.5 s)
    start = time.monotonic()
    result = game_value(table, solver=solver, time_limit=0.3)
    assert time.monotonic() - start < 60  # not to the end
    assert not result.proven and result.stopped == "time limit"
    # at least what the maker's uniform mix forces, even before the first best reply
    assert result.lower_bound >= Fraction(perfect_tree_total(table.rules, table.n), table.n)


# (stopped after 5 best replies is slow, 2.2 s of CPU: after 1 and after 3 check the same
# mixes the same way)
@pytest.mark.parametrize("replies", [1, 3, pytest.param(5, marks=pytest.mark.slow)])
def test_a_stopped_run_reports_the_mixes_that_guarantee_its_bounds(monkeypatch, replies):
    """Stopped, the game value reported its bounds with empty mixes and 0 iterations; the
    maker's mix must force the lower bound against every tree, the breaker's keep every
    class within the upper bound."""
    from mastermind.core.cancel import Stopped
    from mastermind.engines.gamevalue import colgen
    from mastermind.engines.gamevalue.bestreply import best_reply
    from mastermind.engines.gamevalue.classes import code_classes

    calls = []

    def stopping_reply(*args, **kwargs):
        calls.append(1)
        if len(calls) > replies:
            raise Stopped()
        return best_reply(*args, **kwargs)

    monkeypatch.setattr(colgen, "best_reply", stopping_reply)
    table = CodeTable(Rules(3, 4))
    result = colgen.game_value(table, solver="search")
    game = result.details
    assert result.stopped and not result.proven and game.iterations == replies
    assert game.maker and game.breaker
    assert sum(m.per_code * m.size for m in game.maker) == pytest.approx(1)
    classes = code_classes(table)
    per_code = {m.name: m.per_code for m in game.maker}
    weights = [float(per_code[classes.names[k]]) for k in classes.of_code.tolist()]
    forced, _ = best_reply(table, weights, solver="search")  # the breaker's best against it
    assert forced / sum(weights) >= float(result.lower_bound) - 1e-9
    # the breaker's side exactly, even when stopped in the float phase (whose LP gave floats:
    # Ctrl-C lost the fractions that --max-iterations gives, a new user's trial)
    assert isinstance(result.upper_bound, Fraction)
    assert all(isinstance(b.weight, (Fraction, int)) for b in game.breaker)
    assert sum(b.weight for b in game.breaker) == 1
    for k, size in enumerate(int(z) for z in classes.sizes):
        kept = sum(b.weight * Fraction(b.class_totals[k], size) for b in game.breaker)
        assert kept <= result.upper_bound


def test_an_exact_bound_is_not_traded_for_the_same_one_from_the_float_lp():
    # p4c7 stopped with one tree showed its exact 793/168 as 4.720238 and weight "~" (float)
    from mastermind.engines.gamevalue.colgen import _Reached

    reached = _Reached(Fraction(1))
    reached.improve(high=Fraction(793, 168), breaker=["exact"])
    reached.improve(high=793 / 168 - 1e-15, breaker=["float"])
    assert reached.upper == Fraction(793, 168) and reached.breaker == ["exact"]
    reached.improve(high=4.7, breaker=["better"])
    assert reached.upper == 4.7 and reached.breaker == ["better"]
