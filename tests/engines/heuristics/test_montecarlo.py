"""Monte Carlo games: reproducible, consistent with the full tree, honest intervals."""

import math

import numpy as np
import pytest

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.heuristics import monte_carlo, play_all
from mastermind.engines.heuristics.montecarlo import MonteCarloResult
from mastermind.engines.registry import make_strategy


@pytest.fixture(scope="module")
def p4c6():
    return CodeTable(Rules(4, 6))


def test_sampled_games_follow_the_tree(p4c6):
    # the same secrets, drawn again, played through the full tree give the same histogram
    strategy = make_strategy("expected-size", p4c6)
    result = monte_carlo(strategy, 3000, seed=42)
    depths = play_all(strategy).depths(p4c6)
    secrets = np.random.default_rng(42).integers(p4c6.n, size=3000)
    expected = np.bincount(depths[secrets])[1:].tolist()
    assert list(result.histogram) == expected
    assert result.games == 3000 and result.mean == pytest.approx(depths[secrets].mean())


def test_seeded_and_reproducible(p4c6):
    a = monte_carlo(make_strategy("random", p4c6, seed=1), 500, seed=9)
    b = monte_carlo(make_strategy("random", p4c6, seed=1), 500, seed=9)
    c = monte_carlo(make_strategy("random", p4c6, seed=2), 500, seed=9)
    assert a == b and a.histogram != c.histogram


def test_confidence_interval_covers_the_exact_average(p4c6):
    exact = play_all(make_strategy("minimax", p4c6)).stats(p4c6).average  # 5801 / 1296
    result = monte_carlo(make_strategy("minimax", p4c6), 2000, seed=123)
    low, high = result.ci95
    assert low < exact < high
    assert high - low == pytest.approx(2 * 1.96 * result.std / math.sqrt(2000), rel=1e-3)


def test_few_games_give_a_wider_interval_within_the_possible_means():
    """`simulate -r p1c2 -n 3` gave 0.68 .. 1.99 (no game takes under 1 guess), and two games
    had the normal's interval, far too narrow."""
    # depths 1, 1, 2 of a game of 2 codes: Student's t with 2 degrees of freedom reaches
    # 1.333 +- 4.303 * 0.333 = -0.10 .. 2.77, cut to the possible means 1 .. 2
    assert MonteCarloResult("x", 3, 0, (2, 1), codes=2).ci95 == (1.0, 2.0)
    two = MonteCarloResult("x", 2, 0, (0, 1, 1), codes=27)  # depths 2 and 3
    low, high = two.ci95
    assert low == 1.0 and high == pytest.approx(2.5 + 12.706205 * math.sqrt(0.5) / math.sqrt(2))
    # without the game's size only the lower end is cut
    assert MonteCarloResult("x", 3, 0, (2, 1)).ci95[1] == pytest.approx(4 / 3 + 4.302653 / 3)
    # from the same spread, more games narrow the interval; near 1000 games, t is the normal
    widths = [MonteCarloResult("x", 2 * n, 0, (0, n, n), codes=99).ci95 for n in (2, 5, 50, 500)]
    assert all(w1[1] - w1[0] > w2[1] - w2[0] for w1, w2 in zip(widths, widths[1:]))


def test_games_without_spread_have_no_interval():
    """Every game of the same length: a width of 0 would claim certainty."""
    assert MonteCarloResult("x", 1, 0, (0, 1), codes=9).ci95 is None
    assert MonteCarloResult("x", 40, 0, (0, 0, 40), codes=9).ci95 is None
    assert MonteCarloResult("x", 40, 0, (0, 0, 40), codes=9).to_dict(Rules(2, 3))["ci95"] is None


def test_the_t_quantiles():
    from mastermind.engines.heuristics.montecarlo import Z95, t95

    assert [t95(df) for df in (1, 2, 10, 30)] == [12.706205, 4.302653, 2.228139, 2.042272]
    # past the table: the expansion meets the table's end and falls towards the normal
    assert t95(31) < t95(30) and t95(31) == pytest.approx(2.039513, abs=1e-6)
    assert t95(120) == pytest.approx(1.979930, abs=1e-6) and t95(10**8) == pytest.approx(Z95, abs=1e-7)
    with pytest.raises(MastermindError, match="degrees of freedom"):
        t95(0)


def _within(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom, by the finite sums that are
    exact for a whole ``df`` (Abramowitz and Stegun 26.7.3 and 26.7.4), with the angle
    theta = atan(t / sqrt(df)): a reference computed apart from t95's table and expansion."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # 2/pi (theta + sin cos (1 + 2/3 cos^2 + 2.4/3.5 cos^4 + ...)), df - 2 the last power
        term, total = math.cos(theta), 0.0
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= c2 * (2 * k) / (2 * k + 1)
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term, total = 1.0, 0.0  # sin (1 + 1/2 cos^2 + 1.3/2.4 cos^4 + ...), df - 2 the last power
    for k in range(df // 2):
        total += term
        term *= c2 * (2 * k + 1) / (2 * k + 2)
    return math.sin(theta) * total


def _t_quantile(df: int, within: float = 0.95) -> float:
    low, high = 0.0, 100.0
    while high - low > 1e-10:  # (bisection: _within grows with t)
        middle = (low + high) / 2
        low, high = (middle, high) if _within(middle, df) < within else (low, middle)
    return (low + high) / 2


def test_the_t_quantiles_agree_with_students_distribution():
    """Checked against scipy where it was installed, which no extra declares (the test
    skipped on a fresh `.[test]` install): against the distribution's exact finite sums now."""
    from mastermind.engines.heuristics.montecarlo import t95

    assert _within(1.0, 1) == pytest.approx(0.5) and _within(2.0, 2) == pytest.approx(2 / math.sqrt(6))
    for df in (*range(1, 41), 60, 100, 1000, 10**5):
        assert t95(df) == pytest.approx(_t_quantile(df), abs=5e-7), df


def test_statistics_of_a_known_histogram():
    result = MonteCarloResult("x", 4, 0, [1, 0, 3])  # depths 1, 3, 3, 3
    assert (result.total, result.mean, result.worst) == (10, 2.5, 3)
    assert result.std == pytest.approx(np.std([1, 3, 3, 3], ddof=1))
    data = result.to_dict(Rules(2, 2))
    assert data["histogram"] == [1, 0, 3] and data["ci95"][0] < 2.5 < data["ci95"][1]


def test_without_score_matrix_same_games():
    rules = Rules(4, 5)
    full, rows_only = CodeTable(rules), CodeTable(rules, full=False)
    a = monte_carlo(make_strategy("most-parts", full), 300, seed=4)
    b = monte_carlo(make_strategy("most-parts", rows_only), 300, seed=4)
    assert a == b


def test_progress_is_reported(p4c6):
    class Counter:
        total = done = 0

        def start(self, total, description=""):
            self.total = total

        def advance(self, n=1):
            self.done += n

    bar = Counter()
    monte_carlo(make_strategy("simple", p4c6), 150, seed=0, progress=bar)
    assert bar.total == bar.done == 150


def test_bad_game_count(p4c6):
    with pytest.raises(MastermindError, match="games"):
        monte_carlo(make_strategy("simple", p4c6), 0)


def test_a_guess_that_never_splits_is_refused(p4c6):
    class Stubborn:
        name, table = "stubborn", p4c6

        def next_guess(self, candidates, history=()):
            return 0  # 1111 over and over

    with pytest.raises(MastermindError, match="never end"):
        monte_carlo(Stubborn(), 5, seed=0)


def test_a_cancel_ends_the_run_with_the_games_finished():
    from mastermind.core.cancel import CancelToken
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.heuristics.strategies import ScoredStrategy

    token = CancelToken()
    played: list[int] = []

    class StopAfterThree(ScoredStrategy):
        def next_guess(self, cands, history):
            if len(played) == 3:
                token.cancel()
            return super().next_guess(cands, history)

    strategy = StopAfterThree("minimax", CodeTable(Rules(3, 4)))
    strategy.deterministic = False  # asked at every position, so it sees the third game end
    result = monte_carlo(strategy, 50, seed=1, cancel=token, played=played)
    assert result.games == 4 == len(played) and sum(result.histogram) == 4  # the fourth is finished
    full = monte_carlo(ScoredStrategy("minimax", CodeTable(Rules(3, 4))), 4, seed=1)
    assert result.histogram == full.histogram  # the same secrets, in the same order


def test_a_cancel_stops_playing_every_secret():
    from mastermind.core.cancel import CancelToken, Stopped
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.heuristics import play_all, solve
    from mastermind.engines.heuristics.strategies import ScoredStrategy, SimpleStrategy

    table = CodeTable(Rules(3, 4))
    token = CancelToken()
    asked = []

    class Counting(ScoredStrategy):
        def next_guess(self, cands, history=()):
            asked.append(len(cands))
            if len(asked) == 3:
                token.cancel()
            return super().next_guess(cands, history)

    with pytest.raises(Stopped):
        play_all(Counting("minimax", table), cancel=token)
    assert len(asked) == 3  # nothing asked once cancelled

    class FirstCandidate:  # no shortcuts: the general recorder (core.tree.build_tree)
        name = "first"

        def __init__(self):
            self.table = table

        def next_guess(self, cands, history=()):
            return int(cands[0])

    with pytest.raises(Stopped):
        solve(FirstCandidate(), cancel=token)
    whole = play_all(FirstCandidate(), cancel=CancelToken()).stats(table).total
    assert whole == solve(SimpleStrategy(table)).value  # (simple: the first candidate, too)


def test_secrets_are_drawn_as_the_games_are_played():
    """`simulate -n 100000000 --time-limit 2` allocated 1.7 GB before its first game: every
    secret drawn, and an array of guesses per game, up front."""
    import tracemalloc

    from mastermind.core.cancel import CancelToken
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.heuristics.strategies import SimpleStrategy

    strategy = SimpleStrategy(CodeTable(Rules(2, 3)))
    token = CancelToken()
    played = []

    class StopAfter:  # the token cancelled after some games, as a time limit would
        def append(self, guesses):
            played.append(guesses)
            if len(played) == 1000:
                token.cancel("time limit")

    tracemalloc.start()
    try:
        result = monte_carlo(strategy, 10**7, seed=1, cancel=token, played=StopAfter())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.games == 1000 and sum(result.histogram) == 1000
    assert peak < 8 * 1024**2  # (it was 160 MB for 10**7 games: two arrays of 10**7 int64)


def test_no_games_is_refused_in_the_library_words():
    """The message named --games, an option no command has (simulate's is --secrets)."""
    from mastermind.engines.heuristics.strategies import SimpleStrategy

    with pytest.raises(MastermindError, match="^games must be at least 1, got 0$"):
        monte_carlo(SimpleStrategy(CodeTable(Rules(2, 2))), 0)


def test_a_strategy_stopped_inside_a_game_ends_the_run_with_the_games_finished():
    """simulate -r p8c8 --time-limit 5 ran past 90 s: the run stopped only between games,
    and one guess of the game being played scores every code over millions of candidates.
    The scorer now stops inside that guess (Stopped), and the run counts the games finished
    before it."""
    from mastermind.core.cancel import CancelToken
    from mastermind.engines.heuristics.strategies import ScoredStrategy

    table = CodeTable(Rules(4, 6))
    token = CancelToken()
    played: list[int] = []
    strategy = ScoredStrategy("entropy", table, cancel=token)
    strategy.deterministic = False  # every position asked: the fourth game asks the scorer
    scorer_keys = strategy._scorer.keys

    def keys(cands, guesses):
        if len(played) == 3 and len(cands) < table.n:  # inside the fourth game, past its opening
            token.cancel()
        return scorer_keys(cands, guesses)

    strategy._scorer.keys = keys
    result = monte_carlo(strategy, 50, seed=2, cancel=token, played=played)
    assert result.games == 3 == len(played) and sum(result.histogram) == 3
    full = monte_carlo(ScoredStrategy("entropy", table), 3, seed=2)
    assert result.histogram == full.histogram


def test_a_scorer_given_a_token_scores_in_parts_as_one_call_does(monkeypatch):
    from mastermind.core.cancel import CancelToken, Stopped
    from mastermind.engines.heuristics import scores
    from mastermind.engines.heuristics.scores import Scorer

    table = CodeTable(Rules(4, 6))
    rng = np.random.default_rng(5)
    cands = np.sort(rng.choice(table.n, size=300, replace=False)).astype(np.int32)
    # parts of 7 guesses (two blocks of 512 would be too long a part), then of two blocks
    for work, parts_asked in ((300 * 7, -(-1296 // 7)), (300 * 128, 2)):
        monkeypatch.setattr(scores, "STOP_WORK", work)
        for criterion in ("minimax", "expected-size", "entropy", "most-parts"):
            whole = Scorer(table, criterion).keys(cands, table.all_codes)
            asked: list[int] = []
            token = CancelToken()
            token.check = lambda asked=asked: asked.append(1)  # type: ignore[method-assign]
            parts = Scorer(table, criterion, cancel=token).keys(cands, table.all_codes)
            assert np.array_equal(parts, whole) and len(asked) == parts_asked
    monkeypatch.setattr(scores, "STOP_WORK", 1)  # (parts of one guess at least)
    cancelled = CancelToken()
    cancelled.cancel()
    with pytest.raises(Stopped):
        Scorer(table, "minimax", cancel=cancelled).keys(cands, table.all_codes)
