"""The table and compare reports: published columns, JSON keys, open cells, CLI errors."""

import json
import sys

import pytest

from mastermind.app.cli import main
from mastermind.app.comparisons import MAX_REFINED_CODES, compare, game_bounds, knuth_table_row, parse_range
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.models.timed import TimedWorker

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
    "pegs",
    "colors",
    "repeat",
    "codes",
    "answers",
    "knuth_first_guess",
    "knuth_max_error",
    "knuth_worst",
    "crude_lower_bound",
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
                out[pegs, colors] = knuth_table_row(
                    rules, worker, time_limit=60 if quick else 0.001, cpsat_time=1.0, max_refined=256
                ).to_dict()
    return out


def test_published_columns(rows):
    for (pegs, colors), row in rows.items():
        rules = Rules(pegs, colors)
        assert row["codes"] == colors**pegs
        assert row["answers"] == len(rules.answers)
        assert row["knuth_worst"] == KNUTH_WORST[pegs, colors], (pegs, colors)
        if (pegs, colors) in KNUTH_FIRST:
            assert (row["knuth_first_guess"], row["knuth_max_error"]) == KNUTH_FIRST[pegs, colors]
        assert JSON_KEYS <= set(row)


def test_bounds_and_optimum_are_consistent(rows):
    for row in rows.values():
        assert row["crude_lower_bound"] <= row["worst_lower_bound"] <= row["knuth_worst"]
        if row["optimal_worst"] is not None:
            assert row["worst_lower_bound"] <= row["optimal_worst"] <= row["knuth_worst"]
        if row["optimal_total"] is not None:
            assert row["total_lower_bound"] <= row["optimal_total"] <= row["knuth_total"]


def test_small_cells_are_solved_and_large_ones_stay_open(rows):
    assert rows[3, 3]["optimal_total"] == 73 and rows[3, 3]["optimal_worst"] == 4
    assert rows[2, 4]["optimal_total"] == 45
    # a time limit stops the exact search and the cell says so (None: open), the bound remains
    assert rows[4, 6]["optimal_total"] is None and rows[4, 6]["optimal_worst"] is None
    assert rows[4, 6]["total_lower_bound"] <= 5625


def test_table_cli_markdown_and_json(capsys):
    assert main(["table", "--pegs", "2", "--colors", "2-3", "--cpsat-time", "0"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[0].startswith("| pegs | colours | codes | answers | Knuth first guess")
    assert lines[2] == "| 2 | 2 | 4 | 4 | 11 | 2 | 3 | 3 | 3 | 3 | 8 | 2.0000 |"
    assert main(["table", "--pegs", "2", "--colors", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 1 and JSON_KEYS <= set(data[0]) and data[0]["optimal_total"] == 21


def test_table_open_cells_show_bounds(capsys):
    assert main(["table", "--pegs", "4", "--colors", "5", "--time-limit", "0.001", "--cpsat-time", "0"]) == 0
    out = capsys.readouterr().out
    # Knuth's columns as published (KNUTH_*); the open cells show the library's lower bounds
    table = CodeTable(Rules(4, 5))
    bounds = game_bounds(table, max_refined=MAX_REFINED_CODES)
    low, total, average = bounds.worst, bounds.total, f"{bounds.total / 625:.4f}"
    knuth = "| 4 | 5 | 625 | 14 | 1122 | 120 | 5 |"
    assert f"{knuth} {bounds.crude} | {low} | >= {low} | >= {total} | >= {average} |" in out
    assert "open" in out and "p4c5r" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["table", "--pegs", "2-x"], "cannot read pegs"),
        (["table", "--colors", "0-3"], "colors 0 (in '0-3') out of range"),
        (["table", "--time-limit", "0"], "'--time-limit': must be a positive number of seconds, got 0"),
        (["table", "--pegs", "4", "--colors", "2-3", "--no-repeat"], "no game in that range"),
        (["compare", "-p", "2", "-c", "3", "--plot", "/nonexistent/dir/plot.png"], "plot"),
        (["cpsat", "-p", "2", "-c", "2", "--depth", "0"], "--depth must be at least 1, got 0"),
        (["static", "-p", "4", "-c", "6"], "static model for p4c6r"),
    ],
)
def test_bad_input_is_one_line(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_parse_range():
    assert parse_range("2-4,6", "colors", 1, 35) == [2, 3, 4, 6]
    assert parse_range("3", "colors", 1, 35) == [3]
    for text in ("2-", "-3", "2--3"):
        with pytest.raises(MastermindError, match="cannot read colors"):
            parse_range(text, "colors", 1, 35)
    # the end out of range is named (it named the first value past the limit, 36 for 1-99),
    # and a huge range is refused before it is listed
    with pytest.raises(MastermindError, match=r"colors 99 \(in '1-99'\) out of range 1..35"):
        parse_range("1-99", "colors", 1, 35)
    with pytest.raises(MastermindError, match="colors 1000000000000"):
        parse_range("1-1000000000000", "colors", 1, 35)


def test_compare_small_game():
    result = compare(Rules(3, 3), time_limit=60)
    data = result.to_dict()
    assert data["optimal"]["total"] == 73
    names = [r["strategy"] for r in data["strategies"]]
    assert names[0] == "minimax"
    for row in data["strategies"]:
        assert row["total"] >= 73 and row["gap"] == row["total"] - 73
        assert row["gap_percent"] == pytest.approx(100 * row["gap"] / 73, abs=1e-3)
        assert sum(row["histogram"]) == 27
        assert row["total"] >= data["lower_bounds"]["total"]
    assert data["lower_bounds"]["total"] <= 73


def test_compare_cli(capsys):
    assert main(["compare", "-p", "2", "-c", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["optimal"]["total"] == 21 and data["rules"] == "p2c3r"
    assert main(["compare", "-p", "2", "-c", "3"]) == 0
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
    assert main(["compare", "-p", "2", "-c", "3", "--plot", str(target)]) == 0
    assert target.read_bytes()[:4] == b"\x89PNG"


def test_plot_without_matplotlib_is_one_line(tmp_path, capsys, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    target = tmp_path / "h.png"
    assert main(["compare", "-p", "2", "-c", "3", "--plot", str(target)]) == 2
    err = capsys.readouterr().err
    assert "needs matplotlib" in err and err.count("\n") == 1
    assert not target.exists()


def test_bounds_cpsat_static_commands(capsys):
    assert main(["bounds", "-p", "3", "-c", "3", "--json", "--refined"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["worst"]["best"] <= 4 and data["total"]["best"] <= 73
    assert main(["cpsat", "-p", "2", "-c", "3", "--depth", "2", "--feasible", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "INFEASIBLE" and data["proven"] and data["exists"] is False
    assert data["worst_lower_bound"] >= 3 and data["worst_upper_bound"] is None


def test_cpsat_feasible_answers_the_question_it_asks(capsys):
    """A strategy found for --feasible bounds the worst case; its total was not optimised,
    so it is not given as the value (it said "proven": true beside a total of 55 on p2c4,
    whose optimum is 45)."""
    assert main(["cpsat", "-r", "p2c4", "--feasible", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exists"] is True and data["value"] is None and data["total"] >= 45
    assert data["worst_lower_bound"] <= data["worst_upper_bound"] == data["worst"] <= data["depth"]
    assert main(["cpsat", "-r", "p2c4", "--feasible", "--depth", "5"]) == 0
    out = capsys.readouterr().out
    assert "exists" in out and "not optimised" in out and "OPTIMAL" not in out
    assert main(["static", "-p", "2", "-c", "4", "--json", "--workers", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == 3 and data["proven"] and len(data["guesses"]) == 3
