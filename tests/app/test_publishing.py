"""The committed tables in results/: quick rows recomputed and compared, merging, rendering."""

import gzip
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from mastermind.app.cli import main
from mastermind.app.publishing import (
    FRONTIER,
    GAME_VALUE_FORMAT,
    OPTIMAL_FORMAT,
    PUBLISHED,
    QUANTITY_FIELDS,
    Runner,
    literature,
    merge_rows,
    read_rows,
    render_optimal,
    run_tables,
    write_tables,
)
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules

RESULTS = Path(__file__).resolve().parents[2] / "results"
# rows that take well under 10 s each (a second or less on one core)
QUICK_OPTIMAL = ["p3c4", "p2c6", "p4c4n", "p5c3"]
QUICK_VALUES = ["p3c4", "p2c5", "p3c3"]
OPTIMAL_FIELDS = (
    "codes",
    "total",
    "average_fraction",
    "worst",
    "histogram",
    "best_first_guesses",
    "by_first_guess",
    "optimal_worst",
    "worst_total",
    "literature",
)
VALUE_FIELDS = (
    "codes",
    "value",
    "value_unreduced",
    "uniform_total",
    "uniform_optimal",
    "maker",
    "maker_support",
    "literature",
)


def committed(stem: str, fmt: str) -> dict:
    return {r["game"]: r for r in read_rows(RESULTS / f"{stem}.json", fmt)}


@pytest.fixture(scope="module")
def runner():
    with Runner(max_seconds=None, jobs=1) as r:
        yield r


@pytest.mark.parametrize("game", QUICK_OPTIMAL)
def test_quick_optimal_rows_match_the_committed_table(runner, game, tmp_path):
    row = runner.optimal_row(Rules.parse(game), tmp_path)
    old = committed("optimal", OPTIMAL_FORMAT)[game]
    assert row["status"] == old["status"] == "proven"
    for field in OPTIMAL_FIELDS:
        assert row[field] == old[field], field
    # the committed tree is a valid strategy with the optimal total
    text = gzip.decompress((RESULTS / old["tree"]["file"]).read_bytes()).decode()
    from mastermind.core.formats.jsonfmt import read_json

    tree, _ = read_json(text)
    assert tree.stats(CodeTable(Rules.parse(game))).total == old["total"]


@pytest.mark.parametrize("game", QUICK_VALUES)
def test_quick_game_values_match_the_committed_table(runner, game):
    row = runner.game_value_row(Rules.parse(game))
    old = committed("game-values", GAME_VALUE_FORMAT)[game]
    assert row["status"] == old["status"] == "proven"
    for field in VALUE_FIELDS:
        assert row[field] == old[field], field


def test_every_published_value_agrees_with_the_tool():
    rows = committed("optimal", OPTIMAL_FORMAT)
    checked = 0
    for (game, quantity), ref in PUBLISHED.items():
        row = rows.get(game)
        field = QUANTITY_FIELDS[quantity]
        if row is None or row["status"] != "proven" or row.get(field) is None:
            continue
        computed = row[field]
        if "." in ref.value:  # published to three decimals: the exact average, rounded half up
            assert abs(Fraction(computed) - Fraction(ref.value)) <= Fraction(1, 2000), game
        else:
            assert str(computed) == ref.value, (game, quantity)
        assert row["literature"] == "agrees"
        checked += 1
    assert checked >= 19  # Knuth, Koyama and Lai for p4c6, Goddard's 16 averages, Ville for p4c7
    values = committed("game-values", GAME_VALUE_FORMAT)
    assert Fraction(values["p4c6"]["value"]) == Fraction(5600, 1290)
    assert values["p4c6"]["literature"] == "agrees"


def test_a_new_reference_reaches_the_rows_when_the_tables_are_written(tmp_path):
    row = dict(committed("optimal", OPTIMAL_FORMAT)["p3c4"])
    row.update(literature="new", published=[])  # as written before the reference was typed in
    write_tables(tmp_path, OPTIMAL_FORMAT, [row])
    (again,) = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)
    assert again["literature"] == "agrees" and again["published"][0]["value"] == "3.219"
    assert literature({**row, "average_fraction": "16/5"})["literature"] == "DIFFERS"


def test_tables_cover_the_frontier_as_open_rows():
    rows = committed("optimal", OPTIMAL_FORMAT)
    for game in FRONTIER:
        row = rows.get(game)
        if row is None:
            continue
        if row["status"] == "proven":  # by the checkpointed search: one first guess, its tree
            assert row["first_guesses_complete"] is False and row["literature"] in ("new", "agrees")
            assert (RESULTS / row["tree"]["file"]).exists()
            continue
        assert row["status"] == "open" and row["literature"] == "open"
        b = row["bounds"] or {}
        if "lower_total" in b and "upper_total" in b:
            assert b["lower_total"] <= b["upper_total"] and b["lower_worst"] <= b["upper_worst"]


def test_one_row_merges_into_existing_files(tmp_path):
    for name in ("optimal.json", "game-values.json"):
        shutil.copy(RESULTS / name, tmp_path / name)
    before = committed("optimal", OPTIMAL_FORMAT)
    before_values = committed("game-values", GAME_VALUE_FORMAT)
    run_tables(tmp_path, tables=("optimal", "game-values"), games=["p2c3"], max_seconds=None, jobs=1)
    after = {r["game"]: r for r in read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)}
    after_values = {r["game"]: r for r in read_rows(tmp_path / "game-values.json", GAME_VALUE_FORMAT)}
    assert set(after) == set(before) | {"p2c3"}
    assert set(after_values) == set(before_values) | {"p2c3"}
    for game, row in before.items():
        if game != "p2c3":
            assert after[game] == row
    assert after["p2c3"]["total"] == 21 and after["p2c3"]["max_seconds"] is None
    assert (tmp_path / "trees" / "p2c3.json.gz").exists()
    md = (tmp_path / "optimal.md").read_text()
    assert all(f"| {game} |" in md for game in after)
    assert "| p2c3 |" in (tmp_path / "game-values.md").read_text()


def test_merge_replaces_and_orders_rows():
    old = [
        {"game": "p3c2", "repetition": True, "pegs": 3, "colours": 2, "total": 1, "status": "proven"},
        {"game": "p4c4n", "repetition": False, "pegs": 4, "colours": 4, "total": 2, "status": "proven"},
    ]
    new = [
        {"game": "p3c2", "repetition": True, "pegs": 3, "colours": 2, "total": 3, "status": "proven"},
        {"game": "p2c5", "repetition": True, "pegs": 2, "colours": 5, "total": 4, "status": "open"},
    ]
    assert [(r["game"], r["total"]) for r in merge_rows(old, new)] == [("p2c5", 4), ("p3c2", 3), ("p4c4n", 2)]
    # a row not proven (a shorter cap, an interrupted run) never replaces a proven one
    weaker = {**old[1], "total": None, "status": "open"}
    assert merge_rows(old, [weaker])[1] is old[1]
    assert merge_rows([{**old[1], "status": "open"}], [old[1]]) == [old[1]]


def test_a_shorter_rerun_keeps_the_proven_row_and_says_so(tmp_path):
    said: list[str] = []
    run_tables(tmp_path, tables=("optimal",), games=["p3c3"], max_seconds=60, jobs=1)
    # a cap that no job meets, however fast the machine: it has to cross between processes
    run_tables(tmp_path, tables=("optimal",), games=["p3c3"], max_seconds=1e-6, jobs=1, report=said.append)
    row = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)[0]
    assert row["status"] == "proven" and row["total"] == 73
    assert said and "the proven row already in the file is kept" in said[0]


def test_an_open_row_without_bounds_is_rendered():
    # the bounds did not finish within the cap either: a KeyError left the files half written
    row = {"game": "p9c9", "pegs": 9, "colours": 9, "repetition": True, "codes": 9**9, "status": "open"}
    row.update(reason="not proven within 1 s", version="x", command="c", jobs=1, seconds=None, bounds=None)
    assert "| p9c9 | 9 | 9 | yes |" in render_optimal([row])


@pytest.mark.parametrize(
    "doc, message",
    [
        ({"format": OPTIMAL_FORMAT, "version": 1, "rows": [{"game": "p9c9"}]}, "row 1 is not a row"),
        ({"format": OPTIMAL_FORMAT, "version": 1, "rows": [1]}, "row 1 is not a row"),
        ({"format": OPTIMAL_FORMAT, "version": 99, "rows": []}, "version 99"),
    ],
)
def test_a_damaged_results_file_is_one_line_before_the_work(doc, message, tmp_path, capsys):
    (tmp_path / "optimal.json").write_text(json.dumps(doc))
    assert main(["results", "--out", str(tmp_path), "--games", "p4c5", "--table", "optimal"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_open_rows_are_rendered_apart_with_their_bounds():
    row = {
        "game": "p9c9",
        "pegs": 9,
        "colours": 9,
        "repetition": True,
        "codes": 9**9,
        "status": "open",
        "reason": "needs the checkpointed search",
        "version": "x",
        "command": "c",
        "jobs": 1,
        "bounds": {
            "lower_total": 10,
            "upper_total": 20,
            "lower_worst": 3,
            "upper_worst": 4,
            "heuristic": "entropy",
        },
        "seconds": 1.0,
    }
    md = render_optimal([row])
    assert "## Open games" in md and "| p9c9 |" in md and "20 (entropy)" in md


def test_a_file_of_another_kind_is_refused(tmp_path):
    (tmp_path / "optimal.json").write_text(json.dumps({"format": "something-else", "rows": []}))
    with pytest.raises(MastermindError, match="not a mastermind-results file"):
        read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--table", "nope"], "--table must be one of"),
        (["--games", "p3x2"], "cannot read rules"),
        (["--max-seconds", "0"], "'--max-seconds': must be a positive number of seconds, got 0"),
        (["--max-seconds", "inf"], "'--max-seconds': must be a positive number of seconds, got inf"),
        (["--jobs", "-1"], "'--jobs' / '-j': must be at least 0, got -1"),
        (["--out", "-"], "would be a folder named '-'"),
    ],
)
def test_bad_options_are_one_line_errors(args, message, tmp_path, capsys):
    assert main(["results", "--out", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_frontier_game_stopped_is_open_with_search_bounds_and_continues_from_its_checkpoint(tmp_path):
    """p4c7 (11228) as a stand-in frontier game: stopped after 1 s it is an open row whose
    bounds enclose the optimum; run again with the same checkpoint it is proven, reusing units."""
    store = tmp_path / "checkpoints"
    with Runner(max_seconds=1.0, jobs=1, checkpoint=store, frontier=["p4c7"]) as capped:
        row = capped.optimal_row(Rules.parse("p4c7"), tmp_path / "trees")
    assert row["status"] == "open" and "checkpointed search stopped" in row["reason"]
    b, search = row["bounds"], row["bounds"]["search"]
    # the quick bounds past the 1 s cap are missing; the search's lower bound is always there
    assert b["lower_total"] <= 11228 <= b.get("upper_total", 11228)
    assert search["lower_total"] <= 11228 and search["units"] > 0
    assert "--checkpoint results/checkpoints" in row["command"]
    assert (store / "p4c7").is_dir()
    with Runner(max_seconds=None, jobs=1, checkpoint=store, frontier=["p4c7"]) as free:
        row = free.optimal_row(Rules.parse("p4c7"), tmp_path / "trees")
    assert row["status"] == "proven" and row["total"] == 11228 and row["literature"] == "agrees"
    assert row["first_guesses_complete"] is False and len(row["best_first_guesses"]) == 1
    assert "(others not searched)" in render_optimal([row])
    # the search's seconds add up over both runs
    assert row["search_seconds"] > 0 and row["search_seconds"] >= search["checkpoint_seconds"]
    assert "searching over all runs" in render_optimal([row])
    tree = json.loads(gzip.decompress((tmp_path / "trees" / "p4c7.json.gz").read_bytes()))
    assert tree["stats"]["total"] == 11228


def test_search_bounds_improve_an_open_row_only_where_they_are_better():
    from mastermind.app.publishing import _search_bounds

    quick = {"lower_total": 100, "upper_total": 200, "upper_worst": 7, "upper_source": "entropy"}
    better = _search_bounds(quick, {"lower_total": 120, "upper_total": 190, "upper_worst": 6, "units": 3})
    assert better["lower_total"] == 120 and better["lower_source"] == "search"
    assert better["upper_total"] == 190 and better["upper_worst"] == 6 and better["upper_source"] == "search"
    worse = _search_bounds(quick, {"lower_total": 90, "upper_total": None, "units": 0})
    assert "lower_total" not in worse and "upper_total" not in worse and worse["search"]["lower_total"] == 90


def test_a_game_value_stopped_by_the_cap_is_open_with_its_bounds(tmp_path):
    """The game value stopped at the cap published "open" with nothing of what it proved."""
    from mastermind.app.publishing import render_game_values

    with Runner(max_seconds=1.0, jobs=1) as capped:
        row = capped.game_value_row(Rules.parse("p4c7"))  # hours of work (p4c6: 2 s)
    assert row["status"] == "open" and row["seconds"] is not None
    b = row["bounds"]
    # the value of p4c7 lies between 1604/343 and 793/168, the bounds of a longer run
    assert b["lower"] is None or Fraction(b["lower"]) <= Fraction(793, 168)
    assert b["lower_decimal"] <= 793 / 168
    assert b["upper_decimal"] is None or b["upper_decimal"] >= 1604 / 343 - 1e-6
    assert f"[{b['lower_decimal']:.6f}, " in render_game_values([row])


def test_an_open_row_checks_the_published_values_against_its_bounds(tmp_path):
    """Open rows left the published values out; one outside the bounds proven is a
    contradiction, said as DIFFERS."""
    row = {"game": "p4c7", "pegs": 4, "colours": 7, "repetition": True, "codes": 2401, "status": "open"}
    row.update(reason="not proven within 3 s", version="x", command="c", jobs=1, seconds=1.0)
    row["bounds"] = {"lower_total": 10819, "upper_total": 11378, "upper_source": "entropy"}
    said = literature(row)
    assert said["literature"] == "open" and said["published"][0]["agrees"]
    assert "11228 (Ville 2013) within the bounds proven" in said["literature_note"]
    assert literature({**row, "bounds": {"lower_total": 11300}})["literature"] == "DIFFERS"
    write_tables(tmp_path, OPTIMAL_FORMAT, [row])
    assert "within the bounds proven" in (tmp_path / "optimal.md").read_text()
    value_row = {**row, "game": "p4c6", "codes": 1296}
    value_row["bounds"] = {"lower": "625/144", "lower_decimal": 4.340278, "upper_decimal": 4.342815}
    assert literature(value_row)["published"][0]["agrees"]  # 5600/1290 = 4.341085
    value_row["bounds"] = {"lower": None, "lower_decimal": 4.3420, "upper_decimal": None}
    assert literature(value_row)["literature"] == "DIFFERS"
