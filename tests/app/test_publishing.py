"""The committed tables in results/: quick rows recomputed and compared, merging, rendering."""

import gzip
import json
import shutil
import threading
from fractions import Fraction
from pathlib import Path

import pytest

from mastermind.app.cli import main
from mastermind.app.publishing import (
    BLACK_PEG_FORMAT,
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
from mastermind.core.symmetry import canonical_first_guesses

RESULTS = Path(__file__).resolve().parents[2] / "results"
# rows that take well under 10 s each (a second or less on one core)
QUICK_OPTIMAL = ["p3c4", "p2c6", "p4c4n", "p5c3", "p3c4b", "p4c4nb"]  # (black-peg: results/black-peg.json)
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
    "average_fraction",
    "average_unreduced",
    "uniform_total",
    "uniform_average",
    "uniform_average_fraction",
    "uniform_optimal",
    "maker",
    "maker_support",
    "literature",
)


def committed(stem: str, fmt: str) -> dict:
    return {r["game"]: r for r in read_rows(RESULTS / f"{stem}.json", fmt)}


@pytest.fixture(scope="module")
def runner():
    with Runner(row_time_limit=None, jobs=1) as r:
        yield r


@pytest.mark.parametrize("game", QUICK_OPTIMAL)
def test_quick_optimal_rows_match_the_committed_table(runner, game, tmp_path):
    row = runner.optimal_row(Rules.parse(game), tmp_path)
    black = Rules.parse(game).variant.name == "black-peg"
    old = (
        committed("black-peg", BLACK_PEG_FORMAT)[game]
        if black
        else committed("optimal", OPTIMAL_FORMAT)[game]
    )
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


def test_a_game_value_row_speaks_as_game_value_does(runner, capsys):
    """The rows had uniform_average_fraction without uniform_average and maker classes
    without probability, game-value's JSON the other way round (a new user's trial)."""
    import json

    from mastermind.app.cli import main

    row = runner.game_value_row(Rules.parse("p2c3"))
    assert main(["game-value", "-r", "p2c3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for key in (
        "average",
        "average_fraction",
        "uniform_total",
        "uniform_average",
        "uniform_average_fraction",
    ):
        assert row[key] == doc[key], key
    common = ("pattern", "codes", "example", "probability", "probability_fraction", "per_code_fraction")
    assert [{k: m[k] for k in common} for m in row["maker"]] == [
        {k: m[k] for k in common} for m in doc["maker"]
    ]


def test_every_published_value_agrees_with_the_tool():
    rows = committed("optimal", OPTIMAL_FORMAT)
    checked = 0
    for (game, quantity), ref in PUBLISHED.items():
        row = rows.get(game)
        if quantity == "strategy_total":  # a published strategy, not an optimum: see the open rows
            assert row is None or row["status"] != "proven" or row["total"] <= int(ref.value)
            continue
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
    assert Fraction(values["p4c6"]["average_fraction"]) == Fraction(5600, 1290)
    assert values["p4c6"]["literature"] == "agrees"


def test_a_new_reference_reaches_the_rows_when_the_tables_are_written(tmp_path):
    row = dict(committed("optimal", OPTIMAL_FORMAT)["p3c4"])
    row.update(literature="new", published=[])  # as written before the reference was typed in
    write_tables(tmp_path, OPTIMAL_FORMAT, [row])
    (again,) = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)
    assert again["literature"] == "agrees" and again["published"][0]["value"] == "3.219"
    assert literature({**row, "average_fraction": "16/5"})["literature"] == "DIFFERS"


def _replayed(file: str):
    """A tree results/ publishes, every secret played through it."""
    from mastermind.core.formats import verify_text

    return verify_text(gzip.decompress((RESULTS / file).read_bytes()).decode(), "json")


def test_tables_cover_the_frontier_as_open_rows():
    """Every frontier row holds together, and its numbers are those its trees replay to."""
    rows = committed("optimal", OPTIMAL_FORMAT)
    for game in FRONTIER:
        row = rows.get(game)
        if row is None:
            continue
        if row["status"] == "proven":  # by the checkpointed search, then every other first guess
            rules = Rules.parse(game)
            firsts = {rules.code_text(int(g)) for g in canonical_first_guesses(rules)}
            assert row["literature"] in ("new", "agrees")
            if row["first_guesses_complete"]:
                by = row["by_first_guess"]
                assert {f["first_guess"] for f in by} == firsts
                assert min(f["total"] for f in by) == row["total"]
                best = [f["first_guess"] for f in by if f["total"] == row["total"]]
                assert row["best_first_guesses"] == best
            else:  # (one first guess up to symmetry is always complete)
                assert len(firsts) > 1 and row["by_first_guess"] is None
            if row["optimal_worst"] is not None:
                assert row["optimal_worst"] <= row["worst"]
            replay = _replayed(row["tree"]["file"])
            assert replay.valid and (replay.stats.total, replay.stats.worst) == (row["total"], row["worst"])
            if row.get("worst_tree"):  # the optimal worst case's own tree
                replay = _replayed(row["worst_tree"]["file"])
                assert replay.valid and replay.stats.worst == row["optimal_worst"]
            continue
        assert row["status"] == "open" and row["literature"] == "open"
        b = row["bounds"] or {}
        if "total_lower_bound" in b and "total_upper_bound" in b:
            assert b["total_lower_bound"] <= b["total_upper_bound"]
            assert b["worst_lower_bound"] <= b["worst_upper_bound"]
        if b.get("upper_source") == "search":  # the search's strategy: replayed to the upper bound
            replay = _replayed(row["tree"]["file"])
            assert replay.valid and replay.stats.total == b["total_upper_bound"]
            assert replay.stats.worst >= b["worst_upper_bound"]
        if row.get("worst_tree"):  # a shallowest strategy: its own tree, replayed to its depth
            replay = _replayed(row["worst_tree"]["file"])
            assert replay.valid and replay.stats.worst == b["worst_upper_bound"]
            assert b.get("optimal_worst") in (None, b["worst_upper_bound"])


def test_one_row_merges_into_existing_files(tmp_path):
    for name in ("optimal.json", "game-values.json"):
        shutil.copy(RESULTS / name, tmp_path / name)
    # (the proofs the rows name, there as links: a row whose proof is gone names it no more)
    (tmp_path / "proofs").mkdir()
    for proof in (RESULTS / "proofs").iterdir():
        if not proof.name.startswith("p2c3."):  # (the row merged writes its own)
            (tmp_path / "proofs" / proof.name).symlink_to(proof)
    before = committed("optimal", OPTIMAL_FORMAT)
    before_values = committed("game-values", GAME_VALUE_FORMAT)
    run_tables(tmp_path, tables=("optimal", "game-values"), games=["p2c3"], row_time_limit=None, jobs=1)
    after = {r["game"]: r for r in read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)}
    after_values = {r["game"]: r for r in read_rows(tmp_path / "game-values.json", GAME_VALUE_FORMAT)}
    assert set(after) == set(before) | {"p2c3"}
    assert set(after_values) == set(before_values) | {"p2c3"}
    for game, row in before.items():
        if game != "p2c3":
            assert after[game] == row
    assert after["p2c3"]["total"] == 21 and after["p2c3"]["row_time_limit"] is None
    assert (tmp_path / "trees" / "p2c3.json.gz").exists()
    md = (tmp_path / "optimal.md").read_text()
    assert all(f"| {game} |" in md for game in after)
    assert "| p2c3 |" in (tmp_path / "game-values.md").read_text()


@pytest.mark.parametrize("stem, fmt", [("optimal", OPTIMAL_FORMAT), ("game-values", GAME_VALUE_FORMAT)])
def test_two_runs_on_one_folder_take_turns_and_keep_both_rows(stem, fmt, tmp_path):
    # another run holds the folder: it has read the file and will write it with its row
    from mastermind.app.publishing.files import merge_into
    from mastermind.app.publishing.tables import _merge_optimal
    from mastermind.core.fileio import folder_lock

    rows = committed(stem, fmt)
    mine, theirs, *rest = rows.values()
    write_tables(tmp_path, fmt, rest)
    merge = (
        (lambda: _merge_optimal(tmp_path, mine, {}))
        if fmt == OPTIMAL_FORMAT
        else (lambda: merge_into(tmp_path, fmt, [mine]))
    )
    with folder_lock(tmp_path):
        read = read_rows(tmp_path / f"{stem}.json", fmt)
        merging = threading.Thread(target=merge)
        merging.start()
        merging.join(0.3)
        assert merging.is_alive()  # (waiting for the folder)
        write_tables(tmp_path, fmt, merge_rows(read, [theirs]))
    merging.join()
    assert {r["game"] for r in read_rows(tmp_path / f"{stem}.json", fmt)} == set(rows)


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


def test_an_open_row_does_not_replace_an_open_row_with_better_bounds():
    """A shorter rerun, or one without the checkpoint, proves less: the row the file has is
    kept, and the command says so (a 0.5 s rerun replaced p4c7's bounds 10819-11378 with
    none). A rerun better in one bound replaces it; so does one as good (it is newer)."""
    from mastermind.app.publishing.tables import _kept_note

    base = {"game": "p4c7", "repetition": True, "pegs": 4, "colours": 7, "status": "open"}
    old = {**base, "bounds": {"total_lower_bound": 10819, "total_upper_bound": 11378, "worst_lower_bound": 6}}
    for weaker in (
        {**base, "bounds": None},
        {**base, "bounds": {"total_lower_bound": 10819, "total_upper_bound": 11400, "worst_lower_bound": 6}},
        {**base, "bounds": {"total_lower_bound": 10800, "total_upper_bound": 11378}},
    ):
        kept = merge_rows([old], [weaker])
        assert kept == [old]
        assert "whose bounds are better, is kept" in _kept_note(weaker, kept)
    values = {**base, "bounds": {"average_lower_bound": 4.438567, "average_upper_bound": None}}
    assert merge_rows([values], [{**base, "bounds": {"average_lower_bound": 4.379008}}]) == [values]
    for better in (
        {**base, "bounds": {**old["bounds"], "total_lower_bound": 10820}},
        {**base, "bounds": {**old["bounds"], "total_upper_bound": 11377}},
        {**base, "bounds": dict(old["bounds"])},
    ):
        kept = merge_rows([old], [better])
        assert kept == [better] and _kept_note(better, kept) == ""


def test_open_rows_each_better_in_some_bound_are_combined_with_their_trees(tmp_path):
    """A rerun without the checkpoint proved a greater lower bound but gave a worse upper
    bound (a heuristic's) and no tree: it replaced the whole row, and the file lost its
    search's tree, its upper bound and its proven worst case (a new user's trial)."""
    from mastermind.app.publishing.files import EARLIER_KEPT
    from mastermind.app.publishing.tables import _kept_note, _merge_optimal

    base = {"game": "p4c7", "repetition": True, "pegs": 4, "colours": 7, "status": "open", "reason": "r"}
    base.update(codes=2401, command="c", seconds=1.0, version="x", jobs=1)
    tree = {"file": "trees/p4c7.json.gz", "bytes": 3}
    old = {
        **base,
        "tree": tree,
        "bounds": {
            "total_lower_bound": 10000,
            "lower_source": "lookahead",
            "total_upper_bound": 11343,
            "upper_source": "search",
            "worst_lower_bound": 6,
            "worst_upper_bound": 6,
            "optimal_worst": 6,
        },
    }
    write_tables(tmp_path, OPTIMAL_FORMAT, [old])
    (tmp_path / "trees").mkdir()
    (tmp_path / "trees" / "p4c7.json.gz").write_bytes(b"old")
    new = {
        **base,
        "seconds": 0.8,
        "command": "c2",
        "tree": None,
        "bounds": {
            "total_lower_bound": 10819,
            "lower_source": "lookahead",
            "total_upper_bound": 11378,
            "upper_source": "entropy",
            "worst_lower_bound": 5,
        },
    }
    kept = _merge_optimal(tmp_path, new, {})
    (row,) = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)
    b = row["bounds"]
    assert (b["total_lower_bound"], b["total_upper_bound"], b["upper_source"]) == (10819, 11343, "search")
    assert (b["worst_lower_bound"], b["worst_upper_bound"], b["optimal_worst"]) == (6, 6, 6)
    assert row["tree"] == tree and (tmp_path / "trees" / "p4c7.json.gz").read_bytes() == b"old"
    assert row["command"] == "c2" and EARLIER_KEPT in row["reason"] and EARLIER_KEPT in _kept_note(new, kept)


def test_a_shorter_rerun_keeps_the_proven_row_and_says_so(tmp_path):
    said: list[str] = []
    run_tables(tmp_path, tables=("optimal",), games=["p3c3"], row_time_limit=60, jobs=1)
    # a time limit that no job meets, however fast the machine: it has to cross between processes
    run_tables(tmp_path, tables=("optimal",), games=["p3c3"], row_time_limit=1e-6, jobs=1, report=said.append)
    row = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)[0]
    assert row["status"] == "proven" and row["total"] == 73
    assert said and "the proven row already in the file is kept" in said[0]


def test_an_open_rerun_writes_its_tree_only_where_its_row_is_kept(tmp_path, monkeypatch):
    """A stopped search's strategy is the tree of an open row; it must not replace the tree of
    a proven row that the file keeps (the 5x8n tree was replaced by a worse one this way)."""
    from mastermind.core.formats import write_tree
    from mastermind.engines.exact import solve_by_first_guess

    worse = next(r for r in solve_by_first_guess(CodeTable(Rules(3, 3))) if r.total == 86)  # 111 first

    def open_row(self, rules, trees, clock=None):
        search = {
            "proven": False,
            "total_lower_bound": 70,
            "total_upper_bound": 86,
            "worst_upper_bound": worse.worst,
            "units": {"run": 1, "reused": 0},
            "tree": write_tree(worse.tree, "json", worse.stats),
            "seconds": 1.0,
            "cpu_seconds": 1.0,
        }
        row = self._open_row(self._new_row(rules, "optimal"), rules, search, trees)
        # (its tree whatever the heuristics' bounds: as when the search's strategy is the best)
        row["tree"] = self._write_tree(trees, "p3c3", search["tree"])
        return row

    fresh = tmp_path / "fresh"
    (fresh / "trees").mkdir(parents=True)
    # a shallowest strategy an earlier open row left: replaced, or removed with that row
    (fresh / "trees" / "p3c3.worst.json.gz").write_bytes(b"stale")
    run_tables(tmp_path, tables=("optimal",), games=["p3c3"], row_time_limit=60, jobs=1)
    proven_tree = (tmp_path / "trees" / "p3c3.json.gz").read_bytes()
    monkeypatch.setattr(Runner, "optimal_row", open_row)
    for out in (tmp_path, fresh):
        run_tables(out, tables=("optimal",), games=["p3c3"], row_time_limit=60, jobs=1)
    assert (tmp_path / "trees" / "p3c3.json.gz").read_bytes() == proven_tree
    assert read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)[0]["status"] == "proven"
    # with no proven row to keep, the open row and its tree go in together
    row = read_rows(fresh / "optimal.json", OPTIMAL_FORMAT)[0]
    assert row["status"] == "open"
    tree = json.loads(gzip.decompress((fresh / "trees" / "p3c3.json.gz").read_bytes()))
    assert tree["stats"]["total"] == 86 != 73
    shallow = fresh / "trees" / "p3c3.worst.json.gz"
    assert shallow.exists() is bool(row.get("worst_tree"))
    if shallow.exists():
        assert json.loads(gzip.decompress(shallow.read_bytes()))["stats"]["worst"] == 4


def test_an_open_row_without_bounds_is_rendered():
    # the bounds did not finish within the cap either: a KeyError left the files half written
    row = {"game": "p9c9", "pegs": 9, "colours": 9, "repetition": True, "codes": 9**9, "status": "open"}
    row.update(reason="not proven within 1 s", version="x", command="c", jobs=1, seconds=None, bounds=None)
    assert "| p9c9 | 9 | 9 | yes |" in render_optimal([row])


@pytest.mark.parametrize(
    "doc, message",
    [
        ({"format": OPTIMAL_FORMAT, "version": 2, "rows": [{"game": "p9c9"}]}, "row 1 is not a row"),
        ({"format": OPTIMAL_FORMAT, "version": 1, "rows": [1]}, "row 1 is not a row"),
        ({"format": OPTIMAL_FORMAT, "version": 99, "rows": []}, "version 99"),
    ],
)
def test_a_damaged_results_file_is_one_line_before_the_work(doc, message, tmp_path, capsys):
    (tmp_path / "optimal.json").write_text(json.dumps(doc))
    assert main(["results", "--out", str(tmp_path), "--games", "p4c5", "--table", "optimal"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "stem, key, value",
    [
        ("optimal", "total", None),
        ("optimal", "worst", None),
        ("optimal", "codes", None),
        ("optimal", "best_first_guesses", None),
        ("optimal", "histogram", "null"),
        ("game-values", "maker", None),
        ("game-values", "maker", "null"),
    ],
)
def test_a_row_its_table_cannot_show_is_one_line_before_the_work(stem, key, value, tmp_path, capsys):
    """A hand-edited row (a key gone, or null): the run ended in an internal error after
    writing the table's JSON and not its markdown (a new user's trial)."""
    doc = json.loads((RESULTS / f"{stem}.json").read_text())
    row = next(r for r in doc["rows"] if r["status"] == "proven")
    doc["rows"] = [row]
    if value is None:
        del row[key]
    else:
        row[key] = None
    text = json.dumps(doc)
    (tmp_path / f"{stem}.json").write_text(text)
    assert main(["results", "--out", str(tmp_path), "--games", "p2c2", "--table", stem, "-j", "1"]) == 2
    err = capsys.readouterr().err
    shown = f"row 1 ({row['game']}) cannot be shown" in err and (repr(key) in err or "wrong kind" in err)
    assert shown or f"row 1 ({row['game']}): {key} must be " in err, err
    assert len(err.strip().splitlines()) == 1
    assert (tmp_path / f"{stem}.json").read_text() == text and not (tmp_path / f"{stem}.md").exists()


@pytest.mark.parametrize(
    "stem, change, message",
    [
        ("optimal", {"total": "x"}, "total must be a count (a whole number, at least 0), got 'x'"),
        ("optimal", {"histogram": "oops"}, "histogram must be a list of counts, got 'oops'"),
        ("optimal", {"histogram": [1, -2]}, "histogram must be a list of counts"),
        ("optimal", {"average": float("nan")}, "average must be a number (at least 0), got nan"),
        ("optimal", {"repetition": "yes"}, "repetition must be true or false, got 'yes'"),
        ("optimal", {"best_first_guesses": [1123]}, "best_first_guesses must be a list of texts"),
        ("optimal", {"average_fraction": "905/0"}, "average_fraction must be a fraction"),
        ("optimal", {"pegs": 5}, "pegs is 5, but p4c4 has 4"),
        ("optimal", {"codes": 255}, "codes is 255, but p4c4 has 256"),
        ("optimal", {"game": "p4c"}, "game 'p4c' is not a game"),
        ("game-values", {"iterations": 2.5}, "iterations must be a count"),
    ],
)
def test_a_row_holding_a_value_of_the_wrong_kind_is_one_line_before_the_work(
    stem, change, message, tmp_path, capsys
):
    """A hand-edited row whose table could still show it (``"total": "x"``) was merged and
    published as it was: ``| p3c4 | ... | x | x/64 = 3.2188 |`` (a new user's trial). Every
    value is checked for its kind, at any depth, and the game for its numbers."""
    doc = json.loads((RESULTS / f"{stem}.json").read_text())
    game = "p4c4" if stem == "optimal" else "p3c3"
    row = next(r for r in doc["rows"] if r["game"] == game)
    row.update(change)
    doc["rows"] = [row]
    text = json.dumps(doc)
    (tmp_path / f"{stem}.json").write_text(text)
    assert main(["results", "--out", str(tmp_path), "--games", "p2c2", "--table", stem, "-j", "1"]) == 2
    err = capsys.readouterr().err
    assert f"row 1 ({row['game']}" in err and message in err, err
    assert len(err.strip().splitlines()) == 1
    assert (tmp_path / f"{stem}.json").read_text() == text and not (tmp_path / f"{stem}.md").exists()


@pytest.mark.parametrize("stem", ["p4c5", "p4c5.worst"])
def test_a_tree_that_cannot_be_written_is_one_line_before_the_work(stem, tmp_path, capsys, monkeypatch):
    # it was refused only once the row was computed
    import os

    from mastermind.app.publishing.runner import Runner

    trees = tmp_path / "trees"
    trees.mkdir()
    (trees / f"{stem}.json.gz").write_bytes(b"")
    os.chmod(trees / f"{stem}.json.gz", 0o444)
    monkeypatch.setattr(Runner, "optimal_row", lambda *a: pytest.fail("the row was computed"))
    assert main(["results", "--out", str(tmp_path), "--games", "p4c5", "--table", "optimal"]) == 2
    err = capsys.readouterr().err
    assert f"{stem}.json.gz: the file is read-only" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "optimal.json").exists()


def test_an_open_row_whose_checkpointed_search_gave_no_answer_gives_the_command_to_continue(
    tmp_path, monkeypatch
):
    # its command left out --checkpoint
    from mastermind.app.publishing.runner import Runner

    monkeypatch.setattr(Runner, "_frontier", lambda self, game: None)  # (no answer in time)
    monkeypatch.setattr(Runner, "_run", lambda self, fn, args, grace=0.0, stoppable=False: None)
    folder = tmp_path / "ck"
    run_tables(tmp_path, tables=("optimal",), games=["p4c6"], row_time_limit=1, jobs=1, checkpoint=folder)
    row = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)[0]
    assert row["status"] == "open" and "gave no answer" in row["reason"]
    assert f"--checkpoint {folder}" in row["command"] and "--row-time-limit 1" in row["command"]


def test_a_checkpointed_row_searches_after_the_quick_path_and_continues_without_it(tmp_path, monkeypatch):
    """A game out of the quick path's reach: the checkpointed search gets a row's time of
    its own (the quick path had spent the row's, so the search stored nothing and every
    rerun started from the quick bounds), and a game with a search under way goes straight
    to it."""
    from mastermind.app.publishing import parts
    from mastermind.app.publishing.runner import Runner
    from mastermind.engines.exact import solve

    quick: list[str] = []
    real_run = Runner._run

    def run(self, fn, args, grace=0.0, stoppable=False):
        if fn is parts.optimal_part and args[1] == "total":
            quick.append(args[0])
            self._row.token.cancel("time limit")  # it spent the row's time and finished nothing
            return None
        return real_run(self, fn, args, grace, stoppable)

    monkeypatch.setattr(Runner, "_run", run)
    folder = tmp_path / "ck"
    run_tables(tmp_path, tables=("optimal",), games=["p3c4"], row_time_limit=None, jobs=1, checkpoint=folder)
    assert quick == ["p3c4"] and (folder / "p3c4" / "checkpoint.sqlite").is_file()
    row = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)[0]
    assert row["status"] == "proven" and row["total"] == solve(CodeTable(Rules(3, 4))).total
    run_tables(tmp_path, tables=("optimal",), games=["p3c4"], row_time_limit=None, jobs=1, checkpoint=folder)
    assert quick == ["p3c4"]  # (not asked again)
    assert read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)[0]["total"] == row["total"]


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
            "total_lower_bound": 10,
            "total_upper_bound": 20,
            "worst_lower_bound": 3,
            "worst_upper_bound": 4,
            "heuristic": "entropy",
        },
        "seconds": 1.0,
    }
    md = render_optimal([row])
    assert "## Open games" in md and "| p9c9 |" in md and "20 (entropy)" in md
    # no proven row: no table of its header alone (a new user's trial)
    assert "| total at opt. worst |" not in md and "No game of this file is proven yet." in md


def test_a_file_of_another_kind_is_refused(tmp_path):
    (tmp_path / "optimal.json").write_text(json.dumps({"format": "something-else", "rows": []}))
    with pytest.raises(MastermindError, match="not a mastermind-results file"):
        read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--table", "nope"], "--table: unknown value 'nope'; use one of optimal, game-values, black-peg"),
        (["--games", "p3x2"], "--games: cannot read 'p3x2'"),
        (["--row-time-limit", "0"], "--row-time-limit: must be a positive number of seconds, got 0"),
        (["--row-time-limit", "inf"], "--row-time-limit: must be a positive number of seconds, got inf"),
        (["--jobs", "-1"], "--jobs: must be at least 0, got -1"),
        (["--out", "-"], "would be a folder named '-'"),
        # refused before the work, as optimal refuses it, although p2c2 is not searched there
        (
            ["--games", "p2c2", "--checkpoint", "/proc/no/such"],
            "--checkpoint: /proc/no/such: cannot create the checkpoint folder",
        ),
        (["--games", "p2c2", "--checkpoint", __file__], "is a file, not a checkpoint folder"),
        # (it failed once the row was computed: "/proc/self/trees: No such file or directory")
        (["--games", "p2c2", "--out", "/proc/self"], "--out: cannot write /proc/self/optimal.json: folder"),
        (["--games", "p9c9"], "--games: p9c9r is out of reach"),
        # (root may write where the permission bits say no: sqlite then failed to make its
        # file there, "checkpoint .../checkpoint.sqlite is damaged: unable to open database file")
        pytest.param(
            ["--games", "p2c2", "--checkpoint", "/sys/kernel"],
            "--checkpoint: /sys/kernel: the checkpoint folder is not writable",
            marks=pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="no /sys/kernel here"),
        ),
    ],
)
def test_bad_options_are_one_line_errors(args, message, tmp_path, capsys):
    out = [] if "--out" in args else ["--out", str(tmp_path)]
    assert main(["results", *out, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["least-depth.npz", "units-memo.npz"])
def test_a_damaged_memo_file_in_a_checkpoint_is_refused_before_any_row(name, tmp_path, capsys):
    """A row reads its depth search's memo only after its other search has run (hours at the
    frontier): a damaged one is refused before any work, said of --checkpoint, and the
    advice is true (deleting it loses that memo only)."""
    folder = tmp_path / "ck"
    (folder / "p2c3").mkdir(parents=True)
    (folder / "p2c3" / name).write_bytes(b"damaged")
    out = tmp_path / "out"
    out.mkdir()
    args = ["results", "--out", str(out), "--table", "optimal", "--games", "p2c2,p2c3"]
    assert main([*args, "--checkpoint", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"--checkpoint: {folder / 'p2c3' / name} is damaged: delete it to go on without the memo" in err
    assert len(err.strip().splitlines()) == 1 and not (out / "optimal.json").exists()
    assert not (out / "trees").exists()
    (folder / "p2c3" / name).unlink()
    assert main([*args, "--checkpoint", str(folder)]) == 0


def test_a_checkpoint_folder_holding_another_games_search_is_refused_before_any_row(tmp_path, capsys):
    """It was refused only once the row's search started, after the rows before it."""
    from mastermind.engines.exact import Execution, solve

    folder = tmp_path / "ck"
    solve(CodeTable(Rules.parse("p3c3")), execution=Execution(jobs=1, checkpoint=str(folder / "p2c3")))
    out = tmp_path / "out"
    out.mkdir()
    args = ["results", "--out", str(out), "--table", "optimal", "--games", "p2c2,p2c3"]
    assert main([*args, "--checkpoint", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --checkpoint: ") and "was made for another search" in err and "p3c3r" in err
    assert len(err.strip().splitlines()) == 1 and not (out / "optimal.json").exists()
    assert not (out / "trees").exists()


def test_a_checkpoint_folder_another_run_holds_is_refused_before_any_row(tmp_path, capsys):
    """It was refused only when its row came, after the kernels loaded (2.3 s for one row)."""
    from mastermind.engines.exact import hold_folder

    folder, out = tmp_path / "ck", tmp_path / "out"
    out.mkdir()
    args = ["results", "--out", str(out), "--table", "optimal", "--games", "p2c2,p2c3", "--checkpoint"]
    with hold_folder(folder / "p2c3"):
        assert main([*args, str(folder)]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"error: --checkpoint: {folder / 'p2c3'}: the checkpoint folder is in use by another run: "
        + ("wait for it to end, or give another folder\n")
    )
    assert list(out.iterdir()) == [] and list(folder.iterdir()) == [folder / "p2c3"]
    assert main([*args, str(folder)]) == 0


@pytest.mark.slow
def test_a_frontier_game_stopped_is_open_with_search_bounds_and_continues_from_its_checkpoint(tmp_path):
    """p4c7 (11228) as a stand-in frontier game: stopped after 1 s it is an open row whose
    bounds enclose the optimum; run again with the same checkpoint it is proven, reusing units."""
    store = tmp_path / "checkpoints"
    with Runner(row_time_limit=1.0, jobs=1, checkpoint=store, frontier=["p4c7"], out="res") as capped:
        row = capped.optimal_row(Rules.parse("p4c7"), tmp_path / "trees")
    assert row["status"] == "open" and "checkpointed search stopped" in row["reason"]
    b, search = row["bounds"], row["bounds"]["search"]
    # the quick bounds past the 1 s cap are missing; the search's lower bound is always there
    assert b["total_lower_bound"] <= 11228 <= b.get("total_upper_bound", 11228)
    # (how many units finish within the second depends on the machine: not asserted)
    assert search["total_lower_bound"] <= 11228
    assert (
        f"--out res --table optimal --games p4c7 --jobs 1 --row-time-limit 1 --checkpoint {store}"
        in row["command"]
    )
    assert (store / "p4c7").is_dir()
    with Runner(row_time_limit=None, jobs=1, checkpoint=store, frontier=["p4c7"]) as free:
        row = free.optimal_row(Rules.parse("p4c7"), tmp_path / "trees")
    assert row["status"] == "proven" and row["total"] == 11228 and row["literature"] == "agrees"
    # with no time limit every other first guess is costed after the proof: the same as the
    # quick path's search of every first guess
    from mastermind.app.publishing.parts import optimal_part

    quick = optimal_part("p4c7", "total", 1, {})
    assert row["first_guesses_complete"] is True
    assert [(f["first_guess"], f["total"]) for f in row["by_first_guess"]] == [
        (f["first_guess"], f["total"]) for f in quick["by_first_guess"]
    ]
    assert row["best_first_guesses"] == quick["best_first_guesses"]
    assert "(others not searched)" not in render_optimal([row])
    # the worst case: by the search that only asks whether a strategy exists, then the total within it
    assert (row["optimal_worst"], row["worst_total"], row["unfinished"]) == (6, 11228, [])
    # the search's seconds add up over both runs
    assert row["search_seconds"] > 0 and row["search_seconds"] >= search["checkpoint_seconds"]
    assert "searching over all runs" in render_optimal([row])
    tree = json.loads(gzip.decompress((tmp_path / "trees" / "p4c7.json.gz").read_bytes()))
    assert tree["stats"]["total"] == 11228


def test_a_frontier_game_with_one_first_guess_has_its_first_guesses_complete(tmp_path):
    """Without repeated colours every first guess is the same up to symmetry: the proof of
    the checkpointed search covers them all (p4c6n, 1446, as a stand-in frontier game)."""
    with Runner(row_time_limit=None, jobs=1, checkpoint=tmp_path / "ck", frontier=["p4c6n"]) as runner:
        row = runner.optimal_row(Rules.parse("p4c6n"), tmp_path / "trees")
    assert row["status"] == "proven" and row["total"] == 1446
    assert row["first_guesses_complete"] is True
    assert [(f["first_guess"], f["total"]) for f in row["by_first_guess"]] == [("1234", 1446)]
    assert "(others not searched)" not in render_optimal([row])


def test_search_bounds_improve_an_open_row_only_where_they_are_better():
    from mastermind.app.publishing import search_bounds

    quick = {
        "total_lower_bound": 100,
        "total_upper_bound": 200,
        "worst_upper_bound": 7,
        "upper_source": "entropy",
    }
    better = search_bounds(
        quick,
        {
            "total_lower_bound": 120,
            "total_upper_bound": 190,
            "worst_upper_bound": 6,
            "units": {"run": 3, "reused": 0},
        },
    )
    assert better["total_lower_bound"] == 120 and better["lower_source"] == "search"
    assert better["total_upper_bound"] == 190 and better["worst_upper_bound"] == 6
    assert better["upper_source"] == "search"
    worse = search_bounds(
        quick, {"total_lower_bound": 90, "total_upper_bound": None, "units": {"run": 0, "reused": 0}}
    )
    assert "total_lower_bound" not in worse and "total_upper_bound" not in worse
    assert worse["search"]["total_lower_bound"] == 90


def test_a_game_value_stopped_by_the_cap_is_open_with_its_bounds(tmp_path):
    """The game value stopped at the cap published "open" with nothing of what it proved."""
    from mastermind.app.publishing import render_game_values

    with Runner(row_time_limit=1.0, jobs=1) as capped:
        row = capped.game_value_row(Rules.parse("p4c7"))  # hours of work (p4c6: 2 s)
    assert row["status"] == "open" and row["seconds"] is not None
    b = row["bounds"]
    # the value of p4c7 lies between 1604/343 and 793/168, the bounds of a longer run
    low = b["average_lower_bound_fraction"]
    assert low is None or Fraction(low) <= Fraction(793, 168)
    assert b["average_lower_bound"] <= 793 / 168
    assert b["average_upper_bound"] is None or b["average_upper_bound"] >= 1604 / 343
    assert f"[{b['average_lower_bound']:.6f}, " in render_game_values([row])


def test_an_open_row_checks_the_published_values_against_its_bounds(tmp_path):
    """Open rows left the published values out; one outside the bounds proven is a
    contradiction, said as DIFFERS."""
    row = {"game": "p4c7", "pegs": 4, "colours": 7, "repetition": True, "codes": 2401, "status": "open"}
    row.update(reason="not proven within 3 s", version="x", command="c", jobs=1, seconds=1.0)
    row["bounds"] = {"total_lower_bound": 10819, "total_upper_bound": 11378, "upper_source": "entropy"}
    said = literature(row)
    assert said["literature"] == "open" and said["published"][0]["agrees"]
    assert "11228 (Ville 2013) within the bounds proven" in said["literature_note"]
    assert literature({**row, "bounds": {"total_lower_bound": 11300}})["literature"] == "DIFFERS"
    write_tables(tmp_path, OPTIMAL_FORMAT, [row])
    assert "within the bounds proven" in (tmp_path / "optimal.md").read_text()
    value_row = {**row, "game": "p4c6", "codes": 1296}
    value_row["bounds"] = {
        "average_lower_bound_fraction": "625/144",
        "average_lower_bound": 4.340277,
        "average_upper_bound": 4.342815,
    }
    assert literature(value_row)["published"][0]["agrees"]  # 5600/1290 = 4.341085
    value_row["bounds"] = {
        "average_lower_bound_fraction": None,
        "average_lower_bound": 4.3420,
        "average_upper_bound": None,
    }
    assert literature(value_row)["literature"] == "DIFFERS"


def test_games_given_twice_are_both_computed(tmp_path, capsys):
    """`results --games p2c3 --games p2c4` computed only p2c4 and said nothing: a list option
    given twice adds up (every other option given twice is refused)."""
    argv = ["results", "--out", str(tmp_path), "--table", "optimal", "--games", "p2c3", "--games", "p2c4"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["game"] for r in data["tables"]["optimal"]] == ["p2c3", "p2c4"]
    assert main(["results", "--out", str(tmp_path), "--table", "optimal", "--table", "game-values"]) == 2
    assert "--table: given more than once" in capsys.readouterr().err


def test_the_rows_printed_come_in_the_files_order(tmp_path, capsys):
    """`results --json` listed its rows in the order they ran (smallest game first), the
    files in theirs (games with repetition first, then by pegs and colours)."""
    argv = ["results", "--out", str(tmp_path), "--table", "optimal", "--games", "p3c3n,p2c4,p2c3"]
    assert main([*argv, "--json"]) == 0
    printed = [r["game"] for r in json.loads(capsys.readouterr().out)["tables"]["optimal"]]
    filed = [r["game"] for r in read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)]
    assert printed == filed == ["p2c3", "p2c4", "p3c3n"]


def test_the_command_to_reproduce_a_row_is_the_one_run(tmp_path, monkeypatch, capsys):
    """`results --out res` recorded `--out results/` in the command to reproduce the row."""
    monkeypatch.chdir(tmp_path)
    argv = [
        "results",
        "--out",
        "res",
        "--table",
        "optimal",
        "--games",
        "p2c2",
        "-j",
        "1",
        "--row-time-limit",
        "30",
    ]
    assert main(argv) == 0
    (row,) = read_rows(tmp_path / "res" / "optimal.json", OPTIMAL_FORMAT)
    assert (
        row["command"]
        == "mastermind results --out res --table optimal --games p2c2 --jobs 1 --row-time-limit 30"
    )
    assert row["row_time_limit"] == 30 and row["jobs"] == 1
    assert main([*argv, "--memory-limit", "3"]) == 0  # an option not at its default is said too
    (row,) = read_rows(tmp_path / "res" / "optimal.json", OPTIMAL_FORMAT)
    assert row["command"].endswith("--row-time-limit 30 --memory-limit 3")
    from mastermind.app.version import version_string

    assert row["version"] == version_string()  # the one version string, as --version says


def test_a_version_1_file_is_read_in_the_keys_of_version_2(tmp_path):
    """The files of results/ speak the one vocabulary (version 2); a version-1 file is read
    and written again as version 2."""
    old = {
        "format": OPTIMAL_FORMAT,
        "version": 1,
        "rows": [
            {
                "game": "p9c9",
                "pegs": 9,
                "colours": 9,
                "repetition": True,
                "codes": 9**9,
                "status": "open",
                "reason": "r",
                "version": "x",
                "command": "mastermind results --max-seconds 60",
                "jobs": 1,
                "max_seconds": 60,
                "seconds": 1.0,
                "bounds": {
                    "lower_total": 10,
                    "upper_total": 20,
                    "lower_worst": 3,
                    "upper_worst": 4,
                    "search": {"lower_total": 10, "upper_total": None},
                },
            }
        ],
    }
    (tmp_path / "optimal.json").write_text(json.dumps(old))
    (row,) = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)
    assert row["row_time_limit"] == 60 and "max_seconds" not in row
    assert row["command"] == "mastermind results --row-time-limit 60"
    b = row["bounds"]
    assert (
        b["total_lower_bound"],
        b["total_upper_bound"],
        b["worst_lower_bound"],
        b["worst_upper_bound"],
    ) == (10, 20, 3, 4)
    assert b["search"]["total_lower_bound"] == 10
    write_tables(tmp_path, OPTIMAL_FORMAT, [row])
    assert json.loads((tmp_path / "optimal.json").read_text())["version"] == 2


def test_the_committed_files_speak_the_one_vocabulary():
    for stem in ("optimal", "game-values", "black-peg"):
        data = json.loads((RESULTS / f"{stem}.json").read_text())
        assert data["version"] == 2
        keys = {k for row in data["rows"] for k in row} | {
            k for row in data["rows"] for k in (row.get("bounds") or {})
        }
        assert not keys & {"max_seconds", "value", "value_decimal", "lower_total", "upper_total", "colors"}


def test_the_literature_is_data_with_its_sources():
    from importlib import resources

    data = json.loads(resources.files("mastermind.app.publishing").joinpath("literature.json").read_text())
    assert all(e["source"] for e in data["optimal"] + data["game_values"])
    assert PUBLISHED[("p4c6", "total")].value == "5625" and "Koyama" in PUBLISHED[("p4c6", "total")].source
    assert len(PUBLISHED) == len(data["optimal"])


def _stopped_search(best: dict) -> dict:
    """What a frontier search stopped just short of its proof reports: ``best`` (an optimal
    part's answer) as its strategy, a lower bound 5 below it."""
    return {
        "proven": False,
        "total_lower_bound": best["total"] - 5,
        "total_upper_bound": best["total"],
        "worst_upper_bound": best["worst"],
        "units": {"run": 1, "reused": 0},
        "tree": best["tree"],
        "seconds": 1.0,
        "cpu_seconds": 1.0,
    }


def test_an_open_row_upper_bound_from_the_search_is_its_tree_replayed(tmp_path):
    """A stopped search's strategy beats the heuristics: the row publishes it as a tree in
    trees/GAME.json.gz, and `verify` replays that file to the row's upper bound."""
    from mastermind.app.publishing.parts import optimal_part

    best = optimal_part("p3c4", "total", 1, {}, 1 << 30)  # the optimum is below every heuristic
    search = _stopped_search(best)
    with Runner(row_time_limit=None, jobs=1) as runner:
        row = runner._open_row(
            runner._new_row(Rules.parse("p3c4"), "optimal"), Rules.parse("p3c4"), search, tmp_path
        )
    b = row["bounds"]
    assert b["upper_source"] == "search" and b["total_upper_bound"] == best["total"]
    assert row["tree"]["file"] == "trees/p3c4.json.gz"
    path = tmp_path / "p3c4.json.gz"
    assert main(["verify", str(path), "--json"]) == 0
    assert f" | {best['total']} (search) | " in render_optimal([row])


def test_a_published_strategy_is_beaten_only_by_a_cheaper_tree():
    """5x8 has a published strategy (an upper bound), not an optimum: an open row says
    whether its own strategy beats it, and a lower bound above it is a contradiction."""
    row = {"game": "p5c8", "pegs": 5, "colours": 8, "repetition": True, "codes": 32768, "status": "open"}
    row.update(reason="stopped", version="x", command="c", jobs=1, seconds=1.0)
    ref = int(PUBLISHED[("p5c8", "strategy_total")].value)
    row["bounds"] = {"total_lower_bound": ref - 1000, "total_upper_bound": ref - 1}
    said = literature(row)
    check = said["published"][0]
    assert said["literature"] == "open" and check["agrees"] and check["beaten"]
    assert "beaten by the strategy" in said["literature_note"]
    said = literature({**row, "bounds": {"total_lower_bound": ref - 1000, "total_upper_bound": ref}})
    assert not said["published"][0]["beaten"] and "not beaten yet" in said["literature_note"]
    assert literature({**row, "bounds": {"total_lower_bound": ref + 1}})["literature"] == "DIFFERS"


def test_the_worst_part_on_work_units_agrees_with_the_search_in_this_thread():
    from mastermind.app.publishing.parts import optimal_part
    from mastermind.engines.exact import Problem, solve

    for game in ("p3c4", "p4c4n"):
        here = solve(CodeTable(Rules.parse(game)), Problem(objective="worst"))
        part = optimal_part(game, "worst", 2, {}, 1 << 30, time_limit=600.0)
        assert (part["worst"], part["total"]) == (here.worst, here.total)
        # the depth alone, then the best total within that depth (how a row asks for them)
        depth = optimal_part(game, "depth", 1, {}, 1 << 30, time_limit=600.0)
        assert depth["worst"] == here.worst
        within = optimal_part(game, "worst", 2, {}, 1 << 30, 600.0, depth["worst"])
        assert (within["worst"], within["total"]) == (here.worst, here.total)


def test_every_search_of_a_row_keeps_within_the_memory_limit(tmp_path, monkeypatch):
    import mastermind.engines.exact as exact
    from mastermind.app.publishing.parts import first_guesses_part, frontier_part, optimal_part

    seen = []

    def solve(table, problem=None, *, limits=None, **kw):
        seen.append(limits.memory if limits is not None else None)
        raise RuntimeError("stop here")

    monkeypatch.setattr(exact, "solve", solve)
    monkeypatch.setattr(exact, "solve_by_first_guess", solve)
    calls = [lambda: frontier_part("p3c3", 1, str(tmp_path / "ck"), 5.0, 3 << 30)]
    calls += [
        lambda part=part: optimal_part("p3c3", part, 1, {}, 3 << 30, 5.0)
        for part in ("total", "tie", "worst")
    ]
    calls += [lambda: first_guesses_part("p3c3", 1, "123", 5.0, 3 << 30)]
    for call in calls:
        with pytest.raises(RuntimeError, match="stop here"):
            call()
    assert seen == [3 << 30] * 5


def test_the_depth_part_continued_from_its_checkpoint_gives_the_same_answer(tmp_path):
    from mastermind.app.publishing.parts import depth_part
    from mastermind.core.formats import verify_text

    fresh = depth_part("p4c5", None, 1 << 30)
    first = depth_part("p4c5", None, 1 << 30, str(tmp_path / "ck"))
    memo = tmp_path / "ck" / "least-depth.npz"
    assert memo.is_file()
    again = depth_part("p4c5", None, 1 << 30, str(tmp_path / "ck"))
    assert "depth_search_seconds" not in fresh  # (no file: nothing to add up)
    assert again["depth_search_seconds"] > first["depth_search_seconds"] > 0  # every run's
    for part in (first, again):
        got = (part["worst_lower_bound"], part["optimal_worst"])
        assert got == (fresh["worst_lower_bound"], fresh["optimal_worst"])
        replay = verify_text(part["worst_tree"], "json")
        assert replay.valid and replay.stats.worst == fresh["optimal_worst"]
    # the second run read the file: a file of another game there is refused
    from mastermind.engines.exact._memo import new_memo
    from mastermind.engines.exact.memo_file import fingerprint, save_memo

    save_memo(memo, new_memo(64), fingerprint("p4c6r", "all", 0, 0))
    with pytest.raises(MastermindError, match="^--checkpoint: .* was made for another search"):
        depth_part("p4c5", None, 1 << 30, str(tmp_path / "ck"))


def test_a_worst_case_part_stopped_at_the_row_time_still_counts_its_seconds(monkeypatch):
    depth = {"worst": None, "seconds": 3.0, "cpu_seconds": 2.0}
    with Runner(row_time_limit=None, jobs=1) as runner:
        monkeypatch.setattr(runner, "_run", lambda fn, args, grace=0.0, stoppable=False: dict(depth))
        worst = runner._worst("p3c3", {"total": 73, "worst": 4, "histogram": [1]}, "{}")
    assert worst == {"worst": None, "total": None, "seconds": 3.0, "cpu_seconds": 2.0}


def test_a_row_names_what_its_worst_case_part_did_not_reach():
    from mastermind.app.publishing.runner import _unfinished

    done = {"worst": 6, "total": 100}
    assert _unfinished(done, done) == []
    assert _unfinished({"worst": 6, "total": None}, None) == ["worst_total", "tie"]
    assert _unfinished({"worst": None, "total": None}, done) == ["worst", "worst_total"]
    assert _unfinished(None, None) == ["worst", "worst_total", "tie"]


def test_an_open_row_gives_the_optimal_worst_case_with_a_tree_of_its_own(tmp_path):
    """p4c6 as a stand-in open game whose best strategy (the optimum, worst case 6) is not
    the shallowest: the depth search proves 5 and publishes its strategy, which replays."""
    from mastermind.app.publishing.parts import optimal_part
    from mastermind.core.formats import verify_text

    rules = Rules.parse("p4c6")
    best = optimal_part("p4c6", "total", 1, {}, 1 << 30)
    assert best["worst"] == 6
    search = _stopped_search(best)
    with Runner(row_time_limit=None, jobs=1, checkpoint=tmp_path / "ck") as runner:
        row = runner._open_row(runner._new_row(rules, "optimal"), rules, search, tmp_path)
    # the depth search keeps its memo in the game's checkpoint folder, for the next run, with
    # how long it searched
    assert (tmp_path / "ck" / "p4c6" / "least-depth.npz").is_file()
    assert row["depth_search_seconds"] > 0
    b = row["bounds"]
    assert (b["optimal_worst"], b["worst_lower_bound"], b["worst_upper_bound"]) == (5, 5, 5)
    assert b["worst_upper_source"] == "depth" and b["total_upper_bound"] == 5625
    assert row["worst_tree"]["file"] == "trees/p4c6.worst.json.gz"
    replay = verify_text(gzip.decompress((tmp_path / "p4c6.worst.json.gz").read_bytes()).decode(), "json")
    assert replay.valid and replay.stats.worst == 5 and replay.stats.secrets == 1296
    assert "| 5 | 5 (depth) |" in render_optimal([row])


def test_an_open_row_whose_worst_case_is_proven_gets_its_proof(tmp_path):
    """An open game's optimal worst case comes with the proof of it alone (no total
    claimed), checked by the independent checker and named in the table (6x5's was
    proven and had none)."""
    from mastermind.app.publishing.parts import optimal_part
    from mastermind.app.publishing.written_proofs import with_written_proofs
    from mastermind.proofcheck import check_proof, load_proof

    rules = Rules.parse("p4c5")
    search = _stopped_search(optimal_part("p4c5", "total", 1, {}, 1 << 30))
    trees = tmp_path / "trees"
    with Runner(row_time_limit=None, jobs=1) as runner:
        row = runner._open_row(runner._new_row(rules, "optimal"), rules, search, trees)
    assert row["bounds"]["optimal_worst"] == 5
    entry = row["worst_proof"]
    assert entry["file"] == "proofs/p4c5.worst.proof.json.gz" and entry["facts"] > 1
    path = tmp_path / entry["file"]
    outcome = check_proof(load_proof(str(path)), "p4c5r")
    assert (outcome.total, outcome.worst, outcome.facts) == (None, 5, entry["facts"])
    assert f"| of the worst case 5: `{entry['file']}` |\n" in render_optimal([row])
    # a row that does not name it (an earlier run's) gets it from the file, and loses it
    # once the file is gone
    bare = {**row, "worst_proof": None}
    assert with_written_proofs(tmp_path, [bare])[0]["worst_proof"] == entry
    path.unlink()
    assert with_written_proofs(tmp_path, [row])[0]["worst_proof"] is None


def test_the_worst_case_proof_is_not_tried_in_less_time_than_its_depth_search_took(monkeypatch, tmp_path):
    """The proof pass redoes the depth search's work: where that took (over every run on
    its memo file) more than the time left, it is not started (5x8's took hours), and the
    part says so with no file; given the time, the same part writes it."""
    from dataclasses import replace

    from mastermind.app.publishing.parts import depth_part
    from mastermind.engines.exact.solver import ExactSolver

    least_depth = ExactSolver.least_depth

    def slow(self, *args, **kwargs):  # (as if its memo file held hours of earlier runs)
        return replace(least_depth(self, *args, **kwargs), searched_seconds=10_000.0)

    path = tmp_path / "p4c5.worst.proof.json.gz"
    monkeypatch.setattr(ExactSolver, "least_depth", slow)
    part = depth_part("p4c5", 60.0, 1 << 30, None, str(path))
    assert part["optimal_worst"] == 5 and part["worst_proof"] is None and not path.exists()
    monkeypatch.setattr(ExactSolver, "least_depth", least_depth)
    part = depth_part("p4c5", 60.0, 1 << 30, None, str(path))
    assert part["worst_proof"]["worst"] == 5 and path.is_file()


def _stop_after_first_probe(monkeypatch):
    """Every search stops from its second ask on: the depth search keeps its first probe's
    strategy (from above) and refutes nothing."""
    from mastermind.engines.exact.search import Search

    solve, calls = Search.solve, []

    def stopping(self, *args, **kw):
        calls.append(1)
        if len(calls) > 1:
            self.stop[0] = 1
        return solve(self, *args, **kw)

    monkeypatch.setattr(Search, "solve", stopping)


def test_a_depth_part_stopped_gives_the_shallowest_strategy_found_as_an_upper_bound(monkeypatch, tmp_path):
    """Stopped before it proves the least depth, the depth part gives the strategy its
    probes found (replayed), and the row takes it as the worst case's upper bound, with no
    optimal worst case claimed."""
    from mastermind.app.publishing.parts import depth_part, optimal_part
    from mastermind.core.formats import verify_text

    rules = Rules.parse("p4c6")
    best = optimal_part("p4c6", "total", 1, {}, 1 << 30)
    with monkeypatch.context() as patch:
        _stop_after_first_probe(patch)
        part = depth_part("p4c6", None, 1 << 30)
    assert "optimal_worst" not in part
    replay = verify_text(part["worst_tree"], "json")
    assert replay.valid and replay.stats.secrets == 1296
    assert replay.stats.worst == part["worst_upper_bound"] >= 5 >= part["worst_lower_bound"]
    # in a row whose best strategy is deeper, a shallower one is the upper bound (the probe's
    # strategy of 5 guesses, as if the search had stopped before refuting 4)
    whole = depth_part("p4c6", None, 1 << 30)
    assert whole["optimal_worst"] == whole["worst_upper_bound"] == 5 < best["worst"]
    worse = {**whole, "worst_lower_bound": part["worst_lower_bound"]}
    del worse["optimal_worst"]
    with Runner(row_time_limit=None, jobs=1) as runner:
        run = runner._run
        monkeypatch.setattr(
            runner,
            "_run",
            lambda fn, args, grace=0.0, stoppable=False: (
                dict(worse) if fn is depth_part else run(fn, args, grace, stoppable)
            ),
        )
        row = runner._open_row(runner._new_row(rules, "optimal"), rules, _stopped_search(best), tmp_path)
    b = row["bounds"]
    assert part["worst_lower_bound"] <= b["worst_lower_bound"] <= 5
    # (proven all the same where the lookahead's lower bound meets it)
    assert b.get("optimal_worst") == (5 if b["worst_lower_bound"] == 5 else None)
    assert (b["worst_upper_bound"], b["worst_upper_source"]) == (5, "depth")
    assert row["worst_tree"]["file"] == "trees/p4c6.worst.json.gz"
    replay = verify_text(gzip.decompress((tmp_path / "p4c6.worst.json.gz").read_bytes()).decode(), "json")
    assert replay.valid and replay.stats.worst == 5
    assert f"| {b['worst_lower_bound']} | 5 (depth) |" in render_optimal([row])
    # the depth search's seconds over every run on its file, beside the row's own
    row["depth_search_seconds"] = 1234.5
    assert "; the depth search 1234.5 over all runs |" in render_optimal([row])


def test_a_trees_name_that_is_a_file_is_refused_before_the_work(tmp_path, capsys, monkeypatch):
    from mastermind.app.publishing.runner import Runner

    monkeypatch.setattr(Runner, "optimal_row", lambda *a: pytest.fail("a row was computed"))
    (tmp_path / "trees").write_text("not a folder")
    assert main(["results", "--out", str(tmp_path), "--games", "p2c2"]) == 2
    err = capsys.readouterr().err
    assert f"--out: {tmp_path}: {tmp_path / 'trees'} is not a folder" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("proved", [True, False])
def test_a_row_cut_short_by_the_commands_time_limit_stops_the_run_and_says_so(tmp_path, monkeypatch, proved):
    """--time-limit spent inside a row left it open and the run said nothing ("stopped":
    null); a row that proved nothing in what was left was written with no bounds."""
    import time

    from mastermind.app.publishing import TablesStopped
    from mastermind.app.publishing.runner import Runner

    def optimal_row(self, rules, trees, clock=None):
        self._start_row(clock)
        while not self.token.cancelled:  # (the row's work, past the command's limit)
            time.sleep(0.01)
        row = self._open_row(self._new_row(rules, "optimal"), rules)
        if proved:
            row["bounds"] = {"total_lower_bound": 10}
        return row

    monkeypatch.setattr(Runner, "warm_up", lambda self: None)
    monkeypatch.setattr(Runner, "optimal_row", optimal_row)
    with pytest.raises(TablesStopped) as stop:
        games = ["p2c2", "p2c3"]
        run_tables(tmp_path, tables=("optimal",), games=games, row_time_limit=60, jobs=1, time_limit=1)
    # (a row cut short is written with what it proved, or not at all when that is nothing)
    written_cut = ", written as far as it got" if proved else ""
    assert stop.value.why == "time limit" and stop.value.working == f"during p2c2 (optimal){written_cut}"
    written = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)
    assert stop.value.done["optimal"] == written
    assert [(r["game"], r["status"], r["bounds"]) for r in written] == (
        [("p2c2", "open", {"total_lower_bound": 10})] if proved else []
    )


@pytest.mark.parametrize(
    "phase, where",
    [
        ("warm_up", "while starting"),
        ("second_row", "during p2c3 (optimal)"),
        ("close", "after the last row, as the run closed"),
    ],
)
def test_a_ctrl_c_is_said_where_it_fell(tmp_path, monkeypatch, phase, where):
    """A Ctrl-C as the runner closed, after every row, was said "while starting"; each
    phase of a run is named, and the rows written before it are kept."""
    from mastermind.app.publishing import TablesStopped
    from mastermind.app.publishing.runner import Runner
    from mastermind.app.publishing.scope import game_id

    real_row, real_close = Runner.optimal_row, Runner.close

    def warm_up(self):
        if phase == "warm_up":
            raise KeyboardInterrupt

    def optimal_row(self, rules, trees, clock=None):
        if phase == "second_row" and game_id(rules) == "p2c3":
            raise KeyboardInterrupt
        return real_row(self, rules, trees, clock=clock)

    def close(self):
        real_close(self)
        if phase == "close":
            raise KeyboardInterrupt

    monkeypatch.setattr(Runner, "warm_up", warm_up)
    monkeypatch.setattr(Runner, "optimal_row", optimal_row)
    monkeypatch.setattr(Runner, "close", close)
    with pytest.raises(TablesStopped) as stop:
        run_tables(tmp_path, tables=("optimal",), games=["p2c2", "p2c3"], row_time_limit=None, jobs=1)
    assert (stop.value.why, stop.value.working) == ("interrupted", where)
    kept = {"warm_up": [], "second_row": ["p2c2"], "close": ["p2c2", "p2c3"]}[phase]
    assert [r["game"] for r in stop.value.done["optimal"]] == kept


def test_a_proven_row_whose_later_parts_the_commands_time_limit_cut_stops_the_run(tmp_path, monkeypatch):
    """`results --time-limit 3` on p4c6 proved the optimum, left the optimal worst case and
    the tie-break unfinished, and said nothing had stopped ("stopped": null)."""
    from mastermind.app.publishing import TablesStopped
    from mastermind.app.publishing.runner import Runner
    from mastermind.core.cancel import StopReason

    real = Runner._run

    def run(self, fn, args, grace=0.0, stoppable=False):
        if args[1] == "total":
            return real(self, fn, args, grace, stoppable)
        self.token.cancel(StopReason.TIME_LIMIT)  # (the command's time ran out after the optimum)
        return None

    monkeypatch.setattr(Runner, "_run", run)
    with pytest.raises(TablesStopped) as stop:
        run_tables(tmp_path, tables=("optimal",), games=["p3c3"], row_time_limit=None, jobs=1, time_limit=600)
    assert stop.value.why == "time limit"
    assert stop.value.working == "during p3c3 (optimal), written as far as it got"
    written = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)
    assert stop.value.done["optimal"] == written
    assert [(r["game"], r["status"]) for r in written] == [("p3c3", "proven")] and written[0]["unfinished"]


@pytest.mark.parametrize("finished", [True, False])
def test_the_rows_a_run_returns_are_the_rows_its_files_hold(tmp_path, monkeypatch, finished):
    """The command's JSON gave an open p4c7 row "published": [] where the file cites Ville
    2013 beside its bounds, and an open game value "published": null."""
    from mastermind.app.publishing.runner import Runner

    if not finished:  # (no part answers: open rows)
        monkeypatch.setattr(Runner, "_run", lambda self, fn, args, grace=0.0, stoppable=False: None)
    tables = ("optimal", "game-values")
    # (no row time limit where the rows must finish: a loaded machine may take over a second)
    limit = None if finished else 1
    done = run_tables(tmp_path, tables=tables, games=["p3c2"], row_time_limit=limit, jobs=1)
    for table, fmt in (("optimal", OPTIMAL_FORMAT), ("game-values", GAME_VALUE_FORMAT)):
        (row,) = done[table]
        assert (row["status"] == "proven") is finished
        assert [row] == read_rows(tmp_path / f"{table}.json", fmt)


def test_a_run_whose_row_the_file_does_not_take_returns_the_row_the_file_keeps(tmp_path, monkeypatch):
    """The command's JSON gave the open row the file had not taken (a new user's trial)."""
    from mastermind.app.publishing.runner import Runner

    tables = ("optimal", "game-values")
    first = run_tables(tmp_path, tables=tables, games=["p3c2"], row_time_limit=None, jobs=1)
    monkeypatch.setattr(
        Runner, "_run", lambda self, fn, args, grace=0.0, stoppable=False: None
    )  # (open rows)
    said: list[str] = []
    again = run_tables(tmp_path, tables=tables, games=["p3c2"], row_time_limit=1, jobs=1, report=said.append)
    assert again == first and all(r["status"] == "proven" for rows in again.values() for r in rows)
    assert len(said) == 2 and all("already in the file is kept" in line for line in said)


def test_an_open_row_counts_the_wall_time_of_a_part_stopped_at_its_limit():
    """An open row's seconds counted only the parts that answered: the depth search stopped
    at the row's limit (no answer) added nothing, though the row spent its time on it."""
    import time

    from mastermind.app.publishing.parts import depth_part

    answered = []

    class Worker:  # the depth search runs past the row's time; every other part answers
        def submit(self, fn, args, time_limit, cancel=None):
            self.job = (fn, args)

        def result(self):
            return self.run(*self.job, None)

        def run(self, fn, args, time_limit, cancel=None):
            if fn is depth_part:
                time.sleep(0.3)
                return None
            out = fn(*args)
            answered.append(out["seconds"])
            return out

        def close(self, kill=False):
            pass

    with Runner(row_time_limit=100.0, jobs=1) as runner:
        runner.worker.close(kill=True)
        runner.worker = Worker()
        runner._start_row()
        row = runner._open_row(runner._new_row(Rules.parse("p3c3"), "optimal"), Rules.parse("p3c3"))
    assert row["status"] == "open" and len(answered) == 4  # the lower bound and three heuristics
    assert row["seconds"] >= sum(answered) + 0.3 - 0.001


def test_the_hard_mode_reports_are_what_their_trees_replay():
    """results/hard-mode/GAME.json is `optimal --pool consistent --json` of a checkpointed
    run (the command that continues it is in the README); its upper bound is the tree beside
    it, replayed, and that tree guesses only codes still possible."""
    reports = sorted((RESULTS / "hard-mode").glob("*.json"))
    assert reports  # (5x8 at least)
    for report in reports:
        data = json.loads(report.read_text())
        assert data["pool"] == "consistent" and data["rules"] == str(Rules.parse(report.stem))
        assert data["out"] == f"results/hard-mode/{report.stem}.tree.json.gz"
        replay = _replayed(f"hard-mode/{report.stem}.tree.json.gz")
        assert replay.valid and replay.pool == "consistent"
        assert (
            replay.stats.total == data["total_upper_bound"]
            and replay.stats.worst == data["worst_upper_bound"]
        )
        assert data["total_lower_bound"] <= data["total_upper_bound"]
        if not data["proven"]:
            assert data["best_found"]["total"] == data["total_upper_bound"]


def test_a_first_run_stopped_before_its_first_row_leaves_no_empty_out_folder(tmp_path, monkeypatch, capsys):
    """The tables' folder is made before the work (to refuse one that cannot be): a first
    run interrupted before its first row left it behind, empty."""
    from mastermind.app.publishing import runner

    def interrupted(self, rules, first, clock=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner.Runner, "optimal_row", interrupted)
    out = tmp_path / "new" / "results"
    args = ["results", "--out", str(out), "--games", "p2c2", "--table", "optimal", "-j", "1"]
    assert main(args) == 130
    assert not (tmp_path / "new").exists()  # (nor the parent made for it)
    out.mkdir(parents=True)  # one that was there stays, empty or not
    assert main(args) == 130
    assert out.is_dir()


def test_a_run_stopped_before_its_first_tree_leaves_no_empty_trees_folder(tmp_path, monkeypatch, capsys):
    """The trees' folder is made before the work (to refuse one that cannot be): a run
    stopped before writing a tree left it behind, empty (a new user's trial)."""
    from mastermind.app.publishing import runner

    def interrupted(self, rules, first, clock=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner.Runner, "optimal_row", interrupted)
    assert (
        main(["results", "--out", str(tmp_path), "--games", "p2c2", "--table", "optimal", "-j", "1"]) == 130
    )
    assert not (tmp_path / "trees").exists()
    (tmp_path / "trees").mkdir()  # one that was there stays, empty or not
    assert (
        main(["results", "--out", str(tmp_path), "--games", "p2c2", "--table", "optimal", "-j", "1"]) == 130
    )
    assert (tmp_path / "trees").is_dir()


def test_a_run_refused_for_its_memory_makes_no_folder_and_names_the_option(tmp_path, capsys):
    """`results --memory-limit 0.01` was refused once its row ran, without the advice, and
    left the --out folder behind, empty (trial 52)."""
    out = tmp_path / "r1"
    assert main(["results", "--games", "p2c2", "--out", str(out), "-j", "1", "--memory-limit", "0.01"]) == 2
    err = capsys.readouterr().err
    assert "needs at least" in err and "raise it with --memory-limit" in err and err.count("\n") == 1
    assert not out.exists()


def test_run_tables_makes_its_folder_only_once_nothing_refuses_the_run(tmp_path):
    """The library call makes a missing folder itself, after its checks (the command no longer
    checks the memory a second time before it): a refused run leaves nothing behind."""
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    for out, options, why in (
        (tmp_path / "a", {"memory_limit": 10_000}, "needs at least"),
        (tmp_path / "b", {"checkpoint": not_a_folder}, "--checkpoint"),
        (not_a_folder, {}, "is not a folder"),
    ):
        with pytest.raises(MastermindError, match=why):
            run_tables(out, tables=("optimal",), games=["p2c2"], row_time_limit=None, jobs=1, **options)
        assert out == not_a_folder or not out.exists()
    out = tmp_path / "c" / "d"
    run_tables(out, tables=("optimal",), games=["p2c2"], row_time_limit=None, jobs=1)
    assert [r["game"] for r in read_rows(out / "optimal.json", OPTIMAL_FORMAT)] == ["p2c2"]


def test_the_text_output_says_what_it_wrote(tmp_path, capsys):
    argv = ["results", "--games", "p2c2,p2c3", "--out", str(tmp_path), "-j", "1", "--table", "optimal"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"wrote 2 rows of the optimal table to {tmp_path / 'optimal'}.json and .md" in out


@pytest.mark.integration
def test_a_results_row_leaves_its_checkpoint_closed_and_whole(tmp_path):
    """What git commits of a checkpoint folder (not the -wal and -shm files, which
    .gitignore leaves out) is the whole checkpoint once a row has run: the command's own
    check of the folder kept a reader open while the row's child wrote, so the child's
    writes stayed in checkpoint.sqlite-wal and the committed file was stale. The row runs as
    the command runs it: in a child process, within a row's time."""
    import sqlite3
    import subprocess
    import sys
    from contextlib import closing

    from mastermind.engines.exact import Execution, solve

    folder = tmp_path / "ck"
    solve(CodeTable(Rules.parse("p3c4")), execution=Execution(jobs=1, checkpoint=str(folder / "p3c4")))
    with closing(sqlite3.connect(folder / "p3c4" / "checkpoint.sqlite")) as db:
        # a search half done: the row has units to prove and store, as at the frontier
        db.execute("DELETE FROM units WHERE rowid > 1")
        db.execute("DELETE FROM meta WHERE name = 'bounds'")
        # as the committed frontier checkpoints, made before these tables: the row adds them
        db.execute("DROP TABLE cut")
        db.execute("DROP TABLE strategy_sets")
        db.execute("DELETE FROM meta WHERE name = 'strategy_sets'")
        db.commit()
    out = tmp_path / "out"
    out.mkdir()
    for name in ("optimal.json", "optimal.md"):  # as `--out results`: the row replaces its own
        shutil.copy(Path(__file__).resolve().parents[2] / "results" / name, out)
    done = subprocess.run(
        [sys.executable, "-m", "mastermind", "results", "--out", str(out), "--table", "optimal",
         "--games", "p3c4", "--checkpoint", str(folder), "--row-time-limit", "300", "--jobs", "1"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [row] = [r for r in json.loads((out / "optimal.json").read_text())["rows"] if r["game"] == "p3c4"]
    assert row["total"] == 206
    left = sorted(p.name for p in (folder / "p3c4").iterdir())
    assert left == ["checkpoint.sqlite"], left  # no -wal or -shm beside it
    committed_copy = tmp_path / "committed"
    committed_copy.mkdir()
    shutil.copy(folder / "p3c4" / "checkpoint.sqlite", committed_copy)
    # the row's writes are in the file git commits: the bounds it proved (deleted above;
    # whether it also ran units depends on how soon its strategy thread found 206)
    count = "SELECT COUNT(*) FROM units", "SELECT COUNT(*) FROM meta WHERE name = 'bounds'"
    with closing(sqlite3.connect(committed_copy / "checkpoint.sqlite")) as db:
        kept = [db.execute(q).fetchone()[0] for q in count]
    with closing(sqlite3.connect(folder / "p3c4" / "checkpoint.sqlite")) as db:
        assert kept == [db.execute(q).fetchone()[0] for q in count] and kept[1] == 1


def test_a_game_proven_again_in_less_time_keeps_what_the_file_knew_and_reads_back(tmp_path):
    """A rerun of p4c9 with a 15 s row time proved the total again from its checkpoint but
    reached neither the optimal worst case nor the other first guesses: its row replaced the
    published one, losing both, and wrote ``by_first_guess: null``, which the next run
    refused to read."""
    [published] = [r for r in read_rows(RESULTS / "optimal.json", OPTIMAL_FORMAT) if r["game"] == "p4c9"]
    assert published["first_guesses_complete"] and published["optimal_worst"] is not None
    rerun = {
        **published,
        "optimal_worst": None,
        "worst_total": None,
        "by_first_guess": None,
        "best_first_guesses": published["best_first_guesses"][:1],
        "first_guesses_complete": False,
    }
    [row] = merge_rows([published], [rerun])
    for key in ("optimal_worst", "worst_total", "by_first_guess", "first_guesses_complete"):
        assert row[key] == published[key], key
    write_tables(tmp_path, OPTIMAL_FORMAT, [rerun])  # a row the runner writes reads back
    assert read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)[0]["by_first_guess"] is None
    [other] = merge_rows([published], [{**rerun, "total": 34665}])  # another optimum: the new row
    assert other["total"] == 34665 and other["optimal_worst"] is None


@pytest.mark.integration
def test_a_proven_row_keeps_the_tree_of_its_optimal_worst_case(tmp_path):
    """p4c6: the optimum's tree has worst case 6, the optimal worst case is 5. The row kept
    no tree of worst case 5 (a proven 6x7n dropped the one its open row had published)."""
    from mastermind.core.formats import verify_text

    run_tables(tmp_path, tables=("optimal",), games=["p4c6"], row_time_limit=None, jobs=1)
    (row,) = read_rows(tmp_path / "optimal.json", OPTIMAL_FORMAT)
    assert row["status"] == "proven" and (row["worst"], row["optimal_worst"]) == (6, 5)
    assert row["worst_tree"]["file"] == "trees/p4c6.worst.json.gz"
    text = gzip.decompress((tmp_path / row["worst_tree"]["file"]).read_bytes()).decode()
    replay = verify_text(text, "json")
    assert replay.valid and (replay.stats.worst, replay.stats.total) == (5, row["worst_total"]) == (5, 5626)


def test_a_stop_between_rows_names_the_row_it_did_not_begin(tmp_path, monkeypatch):
    """`results --games p4c4,p4c5,p4c6` stopped by Ctrl-C just after p4c5's row said "stopped
    (interrupted) during p4c5 (optimal)", a row finished and written: it named the last row
    begun, not where the run was."""
    from mastermind.app.publishing import TablesStopped
    from mastermind.app.publishing.runner import Runner

    real = Runner.optimal_row

    def optimal_row(self, rules, trees, clock=None):
        row = real(self, rules, trees, clock=clock)
        self.token.cancel()  # (Ctrl-C once the row is done)
        return row

    monkeypatch.setattr(Runner, "optimal_row", optimal_row)
    with pytest.raises(TablesStopped) as stop:
        run_tables(tmp_path, tables=("optimal",), games=["p2c2", "p2c3"], row_time_limit=60, jobs=1)
    assert stop.value.why == "interrupted" and stop.value.working == "before p2c3 (optimal)"
    assert [row["game"] for row in stop.value.done["optimal"]] == ["p2c2"]
