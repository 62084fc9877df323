"""The table and compare reports: published columns, JSON keys, open cells, CLI errors."""

import json
import re
import sys
from fractions import Fraction

import pytest

from mastermind.app.cli import main
from mastermind.app.commands.common import floor_decimal, parse_games
from mastermind.app.comparisons import MAX_REFINED_CODES, best_found, compare, game_bounds, knuth_table_row
from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import ExactSolver, Problem, solve
from mastermind.engines.workers.timed import TimedWorker

# the published table of Knuth's algorithm: worst case, first guess and its largest class
KNUTH_WORST = {
    (2, 2): 3,
    (2, 3): 4,
    (2, 4): 4,
    (2, 5): 5,
    (2, 6): 5,
    (3, 2): 4,
    (3, 3): 4,
    (3, 4): 4,
    (3, 5): 5,
    (3, 6): 5,
    (4, 2): 4,
    (4, 3): 4,
    (4, 4): 4,
    (4, 5): 5,
    (4, 6): 5,
}
KNUTH_FIRST = {
    (2, 2): ("11", 2),
    (2, 4): ("12", 6),
    (3, 3): ("112", 6),
    (3, 4): ("123", 15),
    (4, 4): ("1123", 46),
    (4, 5): ("1122", 120),
    (4, 6): ("1122", 256),
}
JSON_KEYS = {
    "rules",
    "pegs",
    "colours",
    "repetition",
    "codes",
    "answers",
    "knuth_first_guess",
    "knuth_largest_class",
    "knuth_worst",
    "crude_worst_lower_bound",
    "worst_lower_bound",
    "optimal_worst",
    "optimal_total",
}


@pytest.fixture(scope="module")
def rows():
    """The whole published range, with the exact solver for the cells it finishes fast."""
    out = {}
    with TimedWorker() as worker:
        for pegs in (2, 3, 4):
            for colors in range(2, 7):
                rules = Rules(pegs, colors)
                quick = rules.n_codes <= 256
                with CancelToken(60 if quick else 0.001) as row:  # (the row's time)
                    out[pegs, colors] = knuth_table_row(rules, worker, token=row, max_refined=256).to_dict()
    return out


def test_knuths_tree_in_a_table_row_stops_with_the_run():
    """`table -g p5c8 --time-limit 5` took 34-51 s: Knuth's tree (28 s of p5c8) did not look
    at the run's time limit. It stops with the run's token now (Stopped: the row unfinished,
    which run_rows reports as not computed), at its first guess here."""
    from mastermind.core.cancel import Stopped, StopReason
    from mastermind.engines.registry import strategy_tree

    run = CancelToken()
    with TimedWorker() as worker, CancelToken(60) as row:
        knuth = strategy_tree("minimax", CodeTable(Rules(3, 3))).stats(CodeTable(Rules(3, 3))).total
        assert knuth_table_row(Rules(3, 3), worker, token=row, run=run).knuth_total == knuth == 74
        run.cancel(StopReason.TIME_LIMIT)
        with pytest.raises(Stopped):
            knuth_table_row(Rules(3, 3), worker, token=row, run=run)


def test_published_columns(rows):
    for (pegs, colors), row in rows.items():
        rules = Rules(pegs, colors)
        assert row["codes"] == colors**pegs
        assert row["answers"] == len(rules.answers)
        assert row["knuth_worst"] == KNUTH_WORST[pegs, colors], (pegs, colors)
        if (pegs, colors) in KNUTH_FIRST:
            assert (row["knuth_first_guess"], row["knuth_largest_class"]) == KNUTH_FIRST[pegs, colors]
        assert JSON_KEYS <= set(row)


def test_bounds_and_optimum_are_consistent(rows):
    for row in rows.values():
        assert row["crude_worst_lower_bound"] <= row["worst_lower_bound"] <= row["knuth_worst"]
        if row["optimal_worst"] is not None:
            assert row["worst_lower_bound"] <= row["optimal_worst"] <= row["knuth_worst"]
        if row["optimal_total"] is not None:
            assert row["total_lower_bound"] <= row["optimal_total"] <= row["knuth_total"]


def test_small_cells_are_solved_and_large_ones_stay_open(rows):
    assert rows[3, 3]["optimal_total"] == 73 and rows[3, 3]["optimal_worst"] == 4
    assert rows[2, 4]["optimal_total"] == 45
    # a time limit stops the exact search and the cell says so (None: open), the bound remains
    assert rows[4, 6]["optimal_total"] is None
    # (its worst case is proven all the same: Knuth's 5 meets the lower bound of 5)
    assert rows[4, 6]["optimal_worst"] == rows[4, 6]["worst_lower_bound"] == rows[4, 6]["knuth_worst"] == 5
    assert rows[4, 6]["total_lower_bound"] <= 5625


def test_table_cli_markdown_and_json(capsys):
    assert main(["table", "--games", "p2c2-3"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[0].startswith("| pegs | colours | repetition | codes | answers | Knuth first guess")
    assert lines[2] == "| 2 | 2 | yes | 4 | 4 | 11 | 2 | 3 | 8 | 3 | 3 | 3 | 8 | 2.0000 |"
    assert main(["table", "--games", "p2c3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (row,) = data["rows"]
    # the markdown shows Knuth's total as the JSON does (it had only his worst case)
    assert main(["table", "--games", "p2c3"]) == 0
    header, _, cells = (line.strip("| ").split(" | ") for line in capsys.readouterr().out.splitlines()[:3])
    assert dict(zip(header, cells))["Knuth total"] == str(row["knuth_total"])
    assert JSON_KEYS <= set(row) and row["optimal_total"] == 21 and row["proven"] is True
    assert data["games"] == ["p2c3r"] and data["proven"] is True and data["stopped"] is None


def test_table_open_cells_show_bounds(capsys):
    assert main(["table", "--games", "p4c5", "--row-time-limit", "0.001"]) == 0
    out = capsys.readouterr().out
    # Knuth's columns as published (KNUTH_*); the open cells show the library's lower bounds
    table = CodeTable(Rules(4, 5))
    bounds = game_bounds(table, max_refined=MAX_REFINED_CODES)
    low, total = bounds.worst, bounds.total
    average = floor_decimal(Fraction(bounds.total, 625))  # a lower bound: rounded down
    from mastermind.engines.registry import strategy_tree

    knuth_total = strategy_tree("minimax", table).stats(table).total
    knuth = f"| 4 | 5 | yes | 625 | 14 | 1122 | 120 | 5 | {knuth_total} |"
    # (Knuth's worst case meets the lower bound there: the optimal worst case, proven)
    worst = str(low) if low == 5 else f">= {low}"
    # (the total's cell: the bound, or more where the exact search, stopped, proved more)
    row = re.search(
        re.escape(f"{knuth} {bounds.crude} | {low} | {worst} | ") + r">= (\d+) \| >= ([\d.]+) \|", out
    )
    assert row is not None and total <= int(row.group(1)) < 2463  # (not proven: 2463 is the optimum)
    assert Fraction(row.group(2)) >= Fraction(average)
    assert "not proven within the row's time" in out and "p4c5r" in out


def test_a_cell_whose_lower_bound_meets_knuths_strategy_is_proven(capsys):
    """The exact search cut short left "optimal worst >= 3" on 2x2 where Knuth's strategy
    needs 3 guesses and 3 is the lower bound: the bounds meeting are a proof."""
    assert main(["table", "--games", "p2c2,p2c2n", "--row-time-limit", "0.001", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    for row in rows:
        worst_met = row["knuth_worst"] == row["worst_lower_bound"]
        total_met = row["knuth_total"] == row["total_lower_bound"]
        assert row["optimal_worst"] == (row["knuth_worst"] if worst_met else None)
        assert row["optimal_total"] == (row["knuth_total"] if total_met else None)
        assert row["proven"] == (worst_met and total_met)
    assert rows[0]["proven"]  # (2x2: Knuth's strategy is optimal, and the bounds say so)
    assert main(["table", "--games", "p2c2,p2c2n", "--row-time-limit", "0.001"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" | ")[2] for line in lines[2:4]] == ["yes", "no"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["table", "--games", "p2-xc2"], "--games: cannot read 'p2-xc2'"),
        (["table", "--games", "p2c0-3"], "colours must be between 1 and 35, got 0"),
        (["table", "--time-limit", "0"], "--time-limit: must be a positive number of seconds, got 0"),
        (["table", "--games", "p4c2-3n"], "holds no game: without repetition colours must be at least pegs"),
        (["compare", "-r", "p2c3", "--plot", "/nonexistent/dir/plot.png"], "plot"),
        (["cpsat", "-r", "p2c2", "--depth", "0"], "--max-guesses: must be at least 1, got 0"),
        (["static", "-r", "p4c6"], "static model for p4c6r"),
        # (models beyond --memory-limit, refused before they are built: p4c4's static model
        # peaked at 804 MB and p3c4's tree model at 469 MB under a limit of 51 MiB)
        (["static", "-r", "p4c4", "--memory-limit", "0.05"], "the static model of p4c4r needs about"),
        (["cpsat", "-r", "p3c4", "--memory-limit", "0.05"], "model of p3c4r with depth 4 needs about"),
        (["cpsat", "-r", "p3c4", "--memory-limit", "0.05", "--max-guesses", "4"], "above the memory limit"),
    ],
)
def test_bad_input_is_one_line(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_one_grammar_for_a_set_of_games():
    """table took --pegs 2-4 --colors 2-6 and refused --rules; results took --games p4c6,p3c5n:
    one grammar for both, a list with ranges."""
    assert parse_games(["p2-3c2-3"]) == ["p2c2r", "p2c3r", "p3c2r", "p3c3r"]
    assert parse_games(["p3c3,p4c6n", "p3c3r"]) == ["p3c3r", "p4c6n"]  # each game once
    assert parse_games(["p3-4c3-4n"]) == ["p3c3n", "p3c4n", "p4c4n"]  # a range skips p4c3n
    assert parse_games(["4x6n,2-3x2", "p4c6n"]) == ["p4c6n", "p2c2r", "p3c2r"]  # as --rules reads them
    for text in ("p2-c3", "p-3c3", "p2--3c3", "2c3", "p2c3x", "p2x3", "2x3c", "x3", "p2c3,,"):
        if text == "p2c3,,":
            assert parse_games([text]) == ["p2c3r"]
            continue
        with pytest.raises(MastermindError, match="--games: cannot read"):
            parse_games([text])
    with pytest.raises(MastermindError, match="--games: empty"):
        parse_games([" , "])
    # the end out of range is named, and a huge range is refused before it is listed
    with pytest.raises(MastermindError, match="colours must be between 1 and 35, got 99"):
        parse_games(["p2c1-99"])
    # a number too big is out of range, as --rules says, however many digits it has
    for text, shown in (("p2c1-1000000000000", "1000000000000"), ("p2c99999", "99999"), ("p99c2", "99")):
        with pytest.raises(
            MastermindError, match=f"--games: '{text}': .* between 1 and [0-9]+, got {shown}$"
        ):
            parse_games([text])
    with pytest.raises(
        MastermindError, match=re.escape("between 1 and 35, got 999999999999... (5000 digits)")
    ):
        parse_games(["p2c" + "9" * 5000])


def test_compare_small_game():
    result = compare(Rules(3, 3), time_limit=60, seed=0)
    data = result.to_dict()
    assert data["optimal"]["total"] == 73
    names = [r["strategy"] for r in data["strategies"]]
    assert names[0] == "minimax"
    for row in data["strategies"]:
        assert row["total"] >= 73 and row["gap"] == row["total"] - 73
        assert row["gap_percent"] == pytest.approx(100 * row["gap"] / 73, abs=1e-3)
        assert sum(row["histogram"]) == 27
        assert row["gap_to_lower_bound"] == row["gap"]  # proven: the bound is the optimum
    assert data["total_lower_bound"] == 73 == data["total_upper_bound"]
    assert data["proven"] is True and data["best_found"] is None and data["stopped"] is None


def test_compare_in_hard_mode_measures_against_the_hard_mode_optimum(capsys):
    """``compare --pool consistent`` played the heuristics in hard mode but measured them
    against the unrestricted optimum (5625 on 4x6 where hard mode's is 5660), and did not
    say which pool (a new user's trial). 3x5 differs as 4x6 does: 451 against 455."""
    rules = Rules(3, 5)
    table = CodeTable(rules)
    hard = solve(table, Problem(pool="consistent")).value
    assert hard > solve(table).value  # (else the test could not fail)
    data = compare(rules, pool="consistent", strategies=["minimax", "simple"], seed=0).to_dict()
    assert data["optimal"]["total"] == hard == data["total_upper_bound"]
    for row in data["strategies"]:
        assert row["gap"] == row["total"] - hard >= 0
    assert main(["compare", "-r", "p3c5", "--pool", "consistent", "-s", "simple", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pool"] == "consistent" and data["optimal"]["total"] == hard
    assert main(["compare", "-r", "p3c5", "--pool", "consistent", "-s", "simple"]) == 0
    out = capsys.readouterr().out
    assert "pool consistent" in out.splitlines()[0] and f" {hard} " in out


def test_compare_cli(capsys):
    assert main(["compare", "-r", "p2c3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["optimal"]["total"] == 21 and data["rules"] == "p2c3r"
    assert main(["compare", "-r", "p2c3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "optimal" in out and "minimax" in out and "lower bound" in out
    # piped: one line per row, however wide (rich wrapped at 80 columns before)
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) == 2 + 6 and all(line.count("│") == 8 for line in rows)
    optimal_row = next(line for line in rows if "optimal" in line)
    assert "optimal total" in optimal_row and "least possible worst case" in out


def test_plot_with_matplotlib(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib (extra: plot) is not installed")
    target = tmp_path / "h.png"
    assert main(["compare", "-r", "p2c3", "--plot", str(target)]) == 0
    assert target.read_bytes()[:4] == b"\x89PNG"


def test_plot_without_matplotlib_is_one_line(tmp_path, capsys, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    target = tmp_path / "h.png"
    assert main(["compare", "-r", "p2c3", "--plot", str(target)]) == 2
    err = capsys.readouterr().err
    assert "needs matplotlib" in err and err.count("\n") == 1
    assert not target.exists()


def test_bounds_cpsat_static_commands(capsys):
    assert main(["bounds", "-r", "p3c3", "--json", "--refined"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["worst_lower_bound"] <= 4 and data["total_lower_bound"] <= 73
    assert data["worst_lower_bound"] == max(data["worst_lower_bounds"].values())
    assert main(["cpsat", "-r", "p2c3", "--depth", "2", "--feasible", "--json"]) == 1  # no such strategy
    data = json.loads(capsys.readouterr().out)
    assert data["solver_status"] == "INFEASIBLE" and data["proven"] and data["exists"] is False
    assert data["worst_lower_bound"] >= 3 and data["worst_upper_bound"] is None


def test_cpsat_feasible_answers_the_question_it_asks(capsys):
    """A strategy found for --feasible bounds the worst case; its total was not optimised,
    so it is not given as the value (it said "proven": true beside a total of 55 on p2c4,
    whose optimum is 45)."""
    assert main(["cpsat", "-r", "p2c4", "--feasible", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exists"] is True and data["total"] is None and data["best_found"]["total"] >= 45
    found = data["best_found"]
    assert data["worst_lower_bound"] <= data["worst_upper_bound"] == found["worst"] <= data["max_guesses"]
    # ...but it bounds the total within the guesses (null beside it, a new user's trial)
    assert data["total_upper_bound"] == found["total"] and data["total_lower_bound"] is None
    # bounds that meet prove the worst case: it is the answer's (it was null beside them)
    met = data["worst_lower_bound"] == data["worst_upper_bound"]
    assert data["worst"] == (found["worst"] if met else None)
    # at the least worst case and a guess above it, on p2c3: the model grows with its depth
    # (p2c4 two guesses deeper took 40 s on a loaded machine, p2c3 one deeper under 1 s)
    optimal_worst = ExactSolver(CodeTable(Rules(2, 3))).least_depth(CancelToken()).depth
    for depth in (optimal_worst, optimal_worst + 1):
        assert main(["cpsat", "-r", "p2c3", "--feasible", "--depth", str(depth), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        met = data["worst_lower_bound"] == data["worst_upper_bound"]
        assert met == (data["worst"] is not None) == (depth == optimal_worst)
        assert data["worst"] in (None, optimal_worst) and data["total"] is None
    assert main(["cpsat", "-r", "p2c3", "--feasible", "--depth", str(optimal_worst + 1)]) == 0
    out = capsys.readouterr().out
    assert "exists" in out and "not optimised" in out and "OPTIMAL" not in out
    assert main(["static", "-r", "p2c4", "--json", "--jobs", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["guesses"] == 3 and data["proven"] and len(data["guess_set"]) == 3


def test_compare_stopped_reports_the_best_strategy_found(monkeypatch):
    """`compare -r p4c8 --time-limit 8` showed "not solved" and no best strategy, where
    `optimal` with the same limit reports one (and --help promised it): the child search ran
    without anytime, and the strategies compare had played were not used as optimal uses its
    heuristic."""
    from mastermind.app import comparisons
    from mastermind.app.comparisons import CompareRow

    rows = [
        CompareRow("entropy", 5722, 6, [1], 1296, None, None),
        CompareRow("simple", 7471, 9, [1], 1296, None, None),
    ]
    # the search stopped without a strategy: the best strategy played stands in
    found = best_found({"proven": False, "total_lower_bound": 5600}, rows)
    assert (found["total"], found["found_by"]) == (5722, "entropy")
    # the search's own, where it is better
    own = {
        "proven": False,
        "total_lower_bound": 5600,
        "total": 5700,
        "worst": 6,
        "histogram": [1],
        "found_by": "search",
    }
    assert best_found(own, rows)["found_by"] == "search"
    # the child's search reports what a stopped search proved and found, as optimal's does
    seen = {}

    def solve(table, **options):
        seen.update(options)
        raise RuntimeError("stop here")

    import mastermind.engines.exact as exact

    monkeypatch.setattr(exact, "solve", solve)
    import time

    with pytest.raises(RuntimeError):
        comparisons._optimal_job(Rules(2, 2), 1 << 30, time.time() + 1.0)
    # work units: a stopped search reports its bounds and its best strategy
    assert seen["execution"].wants_units(timed=True) and 0 < seen["limits"].time_limit <= 1.0
    assert seen["problem"].pool == "all"  # (the pool the strategies compared keep to)
    # the end is a moment: the child's start-up comes out of the time (compare overran by it)
    with pytest.raises(RuntimeError):
        comparisons._optimal_job(Rules(2, 2), 1 << 30, time.time() - 5.0)
    assert seen["limits"].time_limit == comparisons.MIN_SECONDS


def test_a_stopped_search_of_the_worst_case_bounds_no_total(monkeypatch):
    """A search of the least worst case bounds the best total within that worst case, not
    every strategy's total: its answer gives no total_lower_bound (it was one key for both)."""
    from types import SimpleNamespace

    import mastermind.engines.exact as exact
    from mastermind.app import comparisons

    def solve(table, **options):
        details = SimpleNamespace(worst_lower_bound=4)
        return SimpleNamespace(proven=False, lower_bound=99, details=details, stats=None)

    monkeypatch.setattr(exact, "solve", solve)
    worst = comparisons._optimal_job(Rules(2, 2), 1 << 30, None, objective="worst")
    total = comparisons._optimal_job(Rules(2, 2), 1 << 30, None, objective="total")
    assert (worst["total_lower_bound"], worst["worst_lower_bound"]) == (None, 4)
    assert total["total_lower_bound"] == 99


def test_finished_bounds_are_proven(capsys):
    """`bounds --json` said "proven": false on a finished run of proven bounds."""
    assert main(["bounds", "-r", "p3c3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["proven"] is True and data["stopped"] is None
    assert main(["bounds", "-r", "p3c3"]) == 0
    out = capsys.readouterr().out
    # people read the bounds' names, not identifiers (lookahead_1, perfect_tree, refined_2)
    assert "perfect tree" in out and "2-level lookahead" in out and "lookahead_" not in out


def test_bounds_stopped_keep_the_first_guesses_bounds_of_the_last_level_finished(capsys, monkeypatch):
    """Stopped in level 3, bounds gave no bound by first guess: they came after every level
    (a new user's trial). Each level's now come with it, named by the bound they refine."""
    import mastermind.engines.models.bounds as model

    real = model.lookahead_total_bound

    real_worst = model.lookahead_worst_bound

    def stops_at_level_3(table, levels=2, *args, **kwargs):
        if levels == 3:  # the time limit, as the token says it
            kwargs["cancel"].cancel("time limit")
            kwargs["cancel"].check()
        return real(table, levels, *args, **kwargs)

    def worst_of_level_3_at_once(table, levels=2, *args, **kwargs):
        # level 3's worst-case bound comes first and takes minutes on p4c6: a stand-in value,
        # which the stop in the level's total then drops with the rest of the level
        return 6 if levels == 3 else real_worst(table, levels, *args, **kwargs)

    monkeypatch.setattr(model, "lookahead_total_bound", stops_at_level_3)
    monkeypatch.setattr(model, "lookahead_worst_bound", worst_of_level_3_at_once)
    assert main(["bounds", "-r", "p4c6", "--levels", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stopped"] and data["by_first_guess_bound"] == "lookahead_2"
    assert "lookahead_3" not in data["worst_lower_bounds"] and data["worst_lower_bound"] == 5
    by_first = {e["first_guess"]: e["total_lower_bound"] for e in data["by_first_guess"]}
    assert sorted(by_first) == ["1111", "1112", "1122", "1123", "1234"]
    assert min(by_first.values()) == data["total_lower_bounds"]["lookahead_2"] == 5442


def test_lower_bounds_are_printed_rounded_down(capsys):
    """`bounds` showed `average >= 4.1991` for 5442/1296 = 4.19907: a bound rounded past what
    is proven."""
    assert main(["bounds", "-r", "p4c6"]) == 0
    out = capsys.readouterr().out
    assert "best: 5442 (average >= 4.1990)" in out
    assert main(["bounds", "-r", "p4c6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["average_lower_bound"] <= 5442 / 1296


def test_static_gives_the_same_guesses_for_the_same_seed(capsys):
    """`static` gave a different guess set on each run and had no --seed (CP-SAT's workers
    raced): the same seed and --jobs give the same answer."""
    for jobs in ("1", "2"):
        answers = set()
        for _ in range(3):
            assert main(["static", "-r", "p2c5", "--seed", "4", "-j", jobs, "--json"]) == 0
            data = json.loads(capsys.readouterr().out)
            assert data["proven"] and data["guesses"] == 4 and data["seed"] == 4
            answers.add(tuple(data["guess_set"]))
        assert len(answers) == 1, jobs


def test_cpsat_says_the_seed_it_drew(capsys):
    """The seed drawn was in cpsat's JSON but not its text: the line the other commands print."""
    assert main(["cpsat", "-r", "p2c2", "-j", "1"]) == 0
    out = capsys.readouterr().out
    drawn = re.search(r"^seed (\d+) drawn: --seed (\d+) repeats this run$", out, re.MULTILINE)
    assert drawn and drawn.group(1) == drawn.group(2), out
    assert main(["cpsat", "-r", "p2c2", "-j", "1", "--seed", drawn.group(1)]) == 0
    assert "seed" not in capsys.readouterr().out  # given, not drawn: nothing to repeat
    assert main(["cpsat", "-r", "p2c2", "-j", "1", "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out)["seed"], int)  # (the JSON alone)


def test_cpsat_json_uses_the_keys_of_optimal(capsys):
    """cpsat said "question": "total" where optimal says "objective", and gave no "secrets"."""
    assert main(["optimal", "-r", "p2c3", "--no-cache", "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    assert main(["cpsat", "-r", "p2c3", "-j", "1", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "question" not in data
    assert data["objective"] == exact["objective"] == "total"
    assert data["secrets"] == exact["secrets"] == data["codes"] == 9
    assert data["total"] == exact["total"]
    # as in optimal, the secrets are those the total is over: none without a total
    assert main(["cpsat", "-r", "p2c3", "-j", "1", "--seed", "1", "--feasible", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objective"] == "feasible" and data["total"] is None and data["secrets"] is None
    assert data["best_found"]["secrets"] == 9


def test_cpsat_refusal_names_max_guesses_and_one_that_fits(capsys):
    """It said "use a smaller game or depth": the option is --max-guesses."""
    assert main(["cpsat", "-r", "p3c4", "--max-guesses", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: --max-guesses: ")
    assert err.endswith("use --max-guesses 4 (the most within reach) or a smaller game\n")
    assert "or depth" not in err
    # (every p4c6 strategy needs 5 guesses, and no model deeper than 1 is within reach)
    assert main(["cpsat", "-r", "p4c6", "--depth", "100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: --max-guesses: ")
    assert "use a smaller game: every strategy needs at least 5 guesses" in err


def test_cpsat_default_depth_comes_within_reach(capsys):
    """The default (the lookahead bound + 1: 5 on p3c4) was out of reach, an exit 2 for an
    option never given; 4, the bound itself, fits: the optimum within 4 guesses is asked
    and said to be so. Stopped early here: the depth, not the answer, is under test."""
    args = ["cpsat", "-r", "p3c4", "-j", "1", "--seed", "1", "--time-limit", "0.5"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["max_guesses"] == 4 and data["objective"] == "total"
    assert data["total"] in (None, 206) and data["total_lower_bound"] <= 206  # 206: the optimum in 4
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "--max-guesses 4, not the default 5: the model of 5 is out of reach" in out
    # a default that fits is kept: the bound + 1 (p2c3: 3 + 1), and no note
    assert main(["cpsat", "-r", "p2c3", "-j", "1", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["max_guesses"] == 4
    assert main(["cpsat", "-r", "p2c3", "-j", "1", "--seed", "1"]) == 0
    assert "not the default" not in capsys.readouterr().out
    # where even the bound is out of reach (p3c5: 4), nothing smaller can hold a strategy
    assert main(["cpsat", "-r", "p3c5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "with depth 4 is out of reach" in err
    assert err.endswith("no --max-guesses within reach holds one: use a smaller game\n")


def test_infeasible_depth_exits_1_as_optimal_does(capsys):
    """ "No strategy within N guesses" exited 1 from optimal and 0 from cpsat --feasible."""
    assert main(["optimal", "-r", "p3c4", "--max-guesses", "2"]) == 1
    capsys.readouterr()
    for extra in (["--feasible"], []):
        assert main(["cpsat", "-r", "p3c3", "--depth", "3", *extra]) == 1
        out = capsys.readouterr().out
        assert "no strategy solves every secret of" not in out or "within 3 guesses" in out


def test_the_lower_bounds_are_waited_for_only_within_the_time_left():
    """They cannot be stopped: a comparison at its time limit waited for them (4x8: about
    1 s). No time left on the token gives none (the bounds that cost nothing stand in); no
    deadline, all."""
    from mastermind.app.comparisons import _bounds_within
    from mastermind.core.cancel import CancelToken

    with CancelToken(1e-9) as past:  # (its deadline passed as it was made)
        assert _bounds_within(CodeTable(Rules(4, 8)), MAX_REFINED_CODES, past) is None
    small = CodeTable(Rules(2, 3))
    assert _bounds_within(small, MAX_REFINED_CODES, CancelToken()) == game_bounds(
        small, max_refined=MAX_REFINED_CODES
    )


def test_a_proven_optimum_is_the_lower_bound_of_the_comparison():
    """4x4: the lookahead bound (903) is below the optimum (905), which the search proves."""
    data = compare(Rules(4, 4), time_limit=120, seed=0, strategies=["entropy"]).to_dict()
    assert data["proven"] and data["optimal"]["total"] == 905
    assert data["total_lower_bound"] == data["total_upper_bound"] == 905
    assert data["strategies"][0]["gap_to_lower_bound"] == data["strategies"][0]["gap"]


def test_compare_rows_say_what_heuristics_rows_say(capsys):
    """A strategy's row in compare (and plot) lacked the first guess and the worst case's
    secrets that heuristics gives for the same strategy: one vocabulary, the same values."""
    assert main(["heuristics", "-r", "p3c4", "-s", "minimax", "-s", "entropy", "--json"]) == 0
    played = {row["strategy"]: row for row in json.loads(capsys.readouterr().out)["strategies"]}
    assert main(["compare", "-r", "p3c4", "-s", "minimax", "-s", "entropy", "-j", "1", "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)["strategies"]
    assert [row["strategy"] for row in compared] == ["minimax", "entropy"]
    for row in compared:
        mine = played[row["strategy"]]
        assert (row["first_guess"], row["worst_secrets"]) == (mine["first_guess"], mine["worst_secrets"])
        assert row["worst_secrets"] and len(row["worst_secrets"]) == row["histogram"][-1]


@pytest.mark.parametrize("rows_done", [0, 1])
def test_a_table_cut_short_begins_with_its_first_block_not_a_blank_line(capsys, monkeypatch, rows_done):
    """An interrupted `table`, piped, printed a blank first line (its note on what was not
    computed began with one, for a table above that was not there): the report's blocks are
    separated by blank lines, never begun by one."""
    from mastermind.app import comparisons

    real, calls = comparisons.knuth_table_row, []

    def row(rules, *args, **kwargs):
        calls.append(rules)
        if len(calls) > rows_done:
            raise KeyboardInterrupt  # (Ctrl-C while the row is computed)
        return real(rules, *args, **kwargs)

    monkeypatch.setattr(comparisons, "knuth_table_row", row)
    assert main(["table", "--games", "p2c2,p2c3"]) == 130
    out = capsys.readouterr().out
    stopped = "stopped (interrupted), not computed: " + ("p2c2r, p2c3r" if rows_done == 0 else "p2c3r")
    if rows_done == 0:
        assert out == stopped + "\n"
    else:
        table, note = out.split("\n\n")
        assert table.startswith("| pegs |") and len(table.splitlines()) == 3 and note == stopped + "\n"


class _AnsweringWorker:
    """A worker whose exact searches answer as stopped ones do: ``total_job``'s answer to
    the job asking for the total, ``worst_job``'s to the one asking for the worst case."""

    def __init__(self, total_job: dict, worst_job: dict) -> None:
        self.answers = {"total": total_job, "worst": worst_job}
        self.asked: str | None = None

    def submit(self, fn, args, time_limit, **kwargs) -> None:
        self.asked = args[-1]  # (the objective, the job's last argument)

    def result(self) -> dict:
        assert self.asked is not None
        return self.answers[self.asked]

    def close(self, kill: bool = False) -> None:
        pass


def test_a_row_shows_the_bounds_its_stopped_search_proved():
    """`table --games p4c5b --row-time-limit 10` said total >= 3486 (the game's bounds) where
    the exact search had proved 3591 by then: the search stopped at the row's end now answers
    with its bounds (it was killed), and the row shows the greater."""
    rules = Rules.parse("p4c4")  # (Knuth's total, 919, above the game's bound, 903, and +1)
    bounds = game_bounds(CodeTable(rules), max_refined=MAX_REFINED_CODES)
    stopped_total = {"proven": False, "total_lower_bound": bounds.total + 1}
    stopped_worst = {"proven": False, "worst_lower_bound": bounds.worst + 1}
    with CancelToken(60) as row:
        data = knuth_table_row(rules, _AnsweringWorker(stopped_total, stopped_worst), token=row).to_dict()
    assert data["total_lower_bound"] == bounds.total + 1 and data["optimal_total"] is None
    assert data["worst_lower_bound"] == bounds.worst + 1
    # (below the game's bounds, the bounds stand)
    weaker = ({"proven": False, "total_lower_bound": 1}, {"proven": False, "worst_lower_bound": 1})
    with CancelToken(60) as row:
        data = knuth_table_row(rules, _AnsweringWorker(*weaker), token=row).to_dict()
    assert data["total_lower_bound"] == bounds.total and data["worst_lower_bound"] == bounds.worst
