"""``mastermind optimal`` at the command line."""

import json
import re

import numpy as np
import pytest

from mastermind.app.cli import main
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Problem, solve

from ...engines.exact.reference import reference_solve, reference_worst


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output(capsys):
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert {
        "rules",
        "objective",
        "total",
        "secrets",
        "average",
        "worst",
        "histogram",
        "first_guess",
        "proven",
        "seconds",
    } <= set(data)
    assert (data["total"], data["secrets"], data["worst"], data["proven"]) == (73, 27, 4, True)
    assert data["total"] == reference_solve(CodeTable(Rules(3, 3)))[0]  # exhaustive search
    assert sum(k * n for k, n in enumerate(data["histogram"], 1)) == data["total"]


@pytest.mark.parametrize("extra, units", [([], False), (["--time-limit", "600"], True)])
def test_the_command_takes_the_librarys_path(capsys, monkeypatch, extra, units):
    """A small game with every core (the default) is one search, as ``solve`` runs it; a
    time limit wants work units (what a stopped run has proven): the command asks for
    neither itself (it asked for units always: 4x6 took 161 units of the rounds). The path
    is what the library chose, not how many units ran: the rounds may run none when the
    strategy thread's tree meets the root's bound before the first round is planned (CI
    failed on a count of units run, once in many runs)."""
    from mastermind.engines.exact import api

    asked: list[bool | None] = []
    took: list[bool] = []
    real_wants, real_units = api.Execution.wants_units, api._solve_units

    def wants(self, timed=False, secrets=None):
        asked.append(self.units)
        return real_wants(self, timed, secrets)

    def solve_units(*args, **kwargs):
        took.append(True)
        return real_units(*args, **kwargs)

    monkeypatch.setattr(api.Execution, "wants_units", wants)
    monkeypatch.setattr(api, "_solve_units", solve_units)
    code, out, _ = run(capsys, "optimal", "-r", "p3c4", "--json", "--no-cache", *extra)
    data = json.loads(out)
    assert code == 0 and data["total"] == 206 and data["proven"]
    assert asked == [None]  # the command left the choice to the library
    assert bool(took) is units
    if not units:
        assert data["units"]["run"] == 0


def test_by_first_guess_lists_every_canonical_first_guess(capsys):
    import time

    began = time.perf_counter()
    code, out, _ = run(capsys, "optimal", "-r", "p4c4", "--by-first-guess", "--json", "--no-cache")
    wall = time.perf_counter() - began
    assert code == 0
    data = json.loads(out)
    # the guesses' searches side by side: the wall time, not the sum of theirs (it was more)
    assert max(r["seconds"] for r in data["by_first_guess"]) <= data["seconds"] <= wall
    assert data["best_first_guesses"] == ["1123"] and data["proven"] is True
    rows = data["by_first_guess"]
    assert [r["first_guess"] for r in rows] == ["1111", "1112", "1122", "1123", "1234"]
    # no published or exhaustive value for p4c4 here (the reference search does not finish in
    # minutes and the CP-SAT tree model is too large): each row is checked against the
    # one-thread search with that opening fixed, and the best against the whole game's optimum
    table = CodeTable(Rules(4, 4))
    for row in rows:
        assert (
            row["total"]
            == solve(table, Problem(first_guess=table.rules.parse_code(row["first_guess"]))).total
        )
    assert min(r["total"] for r in rows) == solve(table).total == 905


def optimal_json(capsys, *args):
    code, out, err = run(capsys, "optimal", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_options_reach_the_solver(capsys):
    """Each option changes the answer on a game where it matters; the expected values come
    from the exhaustive reference search (no pruning, no symmetry)."""
    p2c5, p2c6 = CodeTable(Rules(2, 5)), CodeTable(Rules(2, 6))
    plain = optimal_json(capsys, "-r", "p2c5")
    assert (plain["total"], plain["worst"]) == (reference_solve(p2c5)[0], 5) == (81, 5)
    worst = optimal_json(capsys, "-r", "p2c5", "--objective", "worst")
    assert worst["worst"] == reference_worst(p2c5, range(p2c5.n)) == 4
    assert worst["total"] == reference_solve(p2c5, objective="worst")[0]
    capped = optimal_json(capsys, "-r", "p2c5", "--max-guesses", "4")
    assert capped["worst"] <= 4 and capped["total"] == reference_solve(p2c5, max_guesses=4)[0]
    tied = optimal_json(capsys, "-r", "p2c5", "--tie-break", "worst")  # same total, smaller worst case
    assert (tied["total"], tied["worst"]) == (81, 4)
    consistent = optimal_json(capsys, "-r", "p2c6", "--pool", "consistent")
    assert consistent["pool"] == "consistent"
    assert consistent["total"] == reference_solve(p2c6, pool="consistent")[0] == 134
    assert optimal_json(capsys, "-r", "p2c6")["total"] == 132


def test_first_guess_option_fixes_the_opening(capsys):
    table = CodeTable(Rules(3, 3))
    first = table.rules.parse_code("123")
    data = optimal_json(capsys, "-r", "p3c3", "--first", "123")
    assert data["first_guess"] == "123"
    # one guess for every secret, then the best play on each class 123 leaves (exhaustively)
    answers = table.answer_indices(first)
    classes = [np.flatnonzero(answers == a) for a in set(answers.tolist()) if a != table.rules.win_index]
    assert data["total"] == table.n + sum(reference_solve(table, candidates=c)[0] for c in classes)


def test_out_writes_the_tree(tmp_path, capsys):
    target = tmp_path / "tree.json"
    code, out, _ = run(capsys, "optimal", "-r", "p3c3", "--out", str(target))
    assert code == 0 and "73" in out
    from mastermind.core.formats.jsonfmt import read_json

    tree, header = read_json(target.read_text())
    assert tree.stats(CodeTable(Rules(3, 3))).total == 73
    assert header["stats"]["total"] == 73


@pytest.mark.parametrize(
    "name, start", [("t.dot", "digraph"), ("t.txt", "27("), ("t.html", "<!DOCTYPE"), ("t", "{")]
)
def test_out_writes_the_format_its_name_says_as_export_does(tmp_path, capsys, name, start):
    """``optimal -o t.dot`` wrote JSON into t.dot where ``export -o t.dot`` writes dot (a new
    user's trial); an ending of no tree format is refused before the search."""
    target = tmp_path / name
    assert run(capsys, "optimal", "-r", "p3c3", "--out", str(target), "--no-cache")[0] == 0
    assert target.read_text().lstrip().startswith(start)
    if name.endswith((".txt", ".json")) or "." not in name:
        assert run(capsys, "verify", str(target), "-r", "p3c3", "--json")[0] == 0
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--out", str(tmp_path / "t.png"))
    assert code == 2 and ".png names no tree format" in err and not (tmp_path / "t.png").exists()


def test_bad_input_exits_2_with_one_line(capsys):
    for args in (
        ["--first", "9"],
        ["--objective", "mean"],
        ["--max-guesses", "0"],
        ["--max-guesses", "10" * 30],
        ["--first", "123", "--by-first-guess"],
        ["--pool", "x"],
        ["--tie-break", "x"],
        ["--jobs", "100000"],
        ["--jobs", "-1"],
    ):
        code, out, err = run(capsys, "optimal", "-r", "p3c3", *args)
        assert code == 2, args
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)


def test_a_first_guess_with_no_strategy_within_the_cap_has_its_row(capsys):
    """--by-first-guess --max-guesses 5 on 4x6 left 1111 out of the table without a word
    (--first 1111 --max-guesses 5 says there is none); the title left out the cap."""
    args = ["optimal", "-r", "p4c6", "--by-first-guess", "--max-guesses", "5", "--no-cache"]
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0
    rows = {r["first_guess"]: r for r in json.loads(out)["by_first_guess"]}
    assert list(rows) == ["1111", "1112", "1122", "1123", "1234"]
    none = rows.pop("1111")
    assert none["exists"] is False and none["proven"] is True and none["total"] is None
    assert none["worst_lower_bound"] == 6  # (every strategy from 1111 needs 6 guesses)
    assert all(r["exists"] and r["worst"] <= 5 for r in rows.values())
    assert run(capsys, "optimal", "-r", "p4c6", "--first", "1111", "--max-guesses", "5")[0] == 1
    code, out, _ = run(capsys, *args)
    assert "(objective total, at most 5 guesses)" in out and "no strategy within 5 guesses" in out


@pytest.mark.parametrize("extra", [[], ["--by-first-guess"], ["--first", "123"]])
def test_no_strategy_within_max_guesses_is_an_answer_exit_1(capsys, extra):
    # p3c3 needs 3 guesses in the worst case: within 2 there is no strategy, with or without
    # --by-first-guess (which used to print an empty table and exit 0)
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--max-guesses", "2", *extra)
    assert code == 1 and err == ""  # an answer: on standard output, as cpsat gives it
    assert (
        out.strip()
        == "no strategy solves every secret of p3c3r within 2 guesses"
        + (" starting with 123" if extra[:1] == ["--first"] else "")
        + " (proven)"
    )
    # with --json the answer is a JSON document too
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--max-guesses", "2", *extra, "--json")
    data = json.loads(out)
    assert code == 1 and err == "" and data["exists"] is False and data["max_guesses"] == 2
    # proven: every strategy needs 3 guesses at least (it said null), and the search's time (0.0)
    assert data["worst_lower_bound"] == 3 and data["seconds"] > 0
    if not extra:  # the search's work, as an answer found gives it (the keys were left out)
        found = json.loads(run(capsys, "optimal", "-r", "p3c3", "--json", "--no-cache")[1])
        assert {"nodes", "memo_hits", "units"} <= set(data) and set(data) == set(found)
        # (p3c3 within 2 is refuted before any guess is weighed: no guess tells its 27 secrets
        # apart; 4x4 within 3 weighs the guesses of its root)
        code, out, _ = run(capsys, "optimal", "-r", "p4c4", "--max-guesses", "3", "--json", "--no-cache")
        assert code == 1 and json.loads(out)["nodes"] >= 1


def test_no_strategy_within_max_guesses_says_nothing_is_written(capsys, tmp_path):
    keep = tmp_path / "keep.json"
    keep.write_text("an earlier tree")
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--max-guesses", "2", "--out", str(keep))
    assert code == 1 and keep.read_text() == "an earlier tree"
    assert f"nothing written to {keep}: no strategy; a file already there is left as it was" in err
    # standard output is named as export and the other commands name it (it said "to -")
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--max-guesses", "2", "--out", "-")
    assert code == 1 and out == ""
    assert err.splitlines()[-1] == "nothing written to standard output: no strategy"


def test_bad_input_under_max_guesses_is_refused_not_called_infeasible(capsys, tmp_path):
    # every error used to read as "no strategy within N guesses" once --max-guesses was given
    folder = str(tmp_path / "ck")
    assert run(capsys, "optimal", "-r", "p3c4", "--checkpoint", folder)[0] == 0
    code, out, err = run(capsys, "optimal", "-r", "p3c4", "--checkpoint", folder, "--max-guesses", "6")
    assert code == 2 and "another search" in err and err.count("\n") == 1
    (tmp_path / "afile").write_text("x")
    code, out, err = run(
        capsys, "optimal", "-r", "p3c4", "--checkpoint", str(tmp_path / "afile"), "--max-guesses", "6"
    )
    assert code == 2 and "is a file, not a checkpoint folder" in err


def test_tie_break_takes_a_value_as_on_heuristics(capsys):
    results = {}
    for args in (["--tie-break", "worst"], ["--tie-break", "default"], []):
        code, out, _ = run(capsys, "optimal", "-r", "p3c3", *args, "--json")
        assert code == 0
        results[" ".join(args)] = json.loads(out)["total"]
    assert set(results.values()) == {73}
    # one form on every command: the old bare flag is refused like heuristics' (no value)
    for name in ("optimal", "heuristics"):
        code, out, err = run(capsys, name, "-r", "p2c2", "--tie-break")
        assert code == 2 and err.count("\n") == 1 and "--tie-break" in err


def test_out_dash_is_standard_output(capsys):
    code, out, err = run(capsys, "optimal", "-r", "p2c3", "--out", "-")
    assert code == 0 and json.loads(out)["rules"] == "p2c3r"
    code, out, err = run(capsys, "optimal", "-r", "p2c3", "--out", "-", "--json")
    assert code == 2 and "standard output" in err


def test_a_stopped_search_for_the_least_worst_case_reports_that_bound(capsys):
    # it used to report a total lower bound of 0, 0 secrets and an average of 0.0. p6c8n:
    # 5 guesses by counting, refuted at once; 6 takes over a minute (7 is open), so no run
    # finds a strategy within 1 s, however fast or loaded the machine
    code, out, err = run(
        capsys, "optimal", "-r", "p6c8n", "--objective", "worst", "--time-limit", "1", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["proven"] is False and data["stopped"] == "time limit"
    assert data["total_lower_bound"] is None and data["secrets"] is None and data["average"] is None
    assert data["worst"] is None  # the headline of --objective worst: not proven, so not given
    assert data["worst_lower_bound"] in (5, 6)
    # (the probes from above may find a strategy in that time: never below the bound)
    found = data["best_found"]
    assert found is None or (found["worst"] > data["worst_lower_bound"] and found["secrets"] == 20160)
    code, out, err = run(capsys, "optimal", "-r", "p6c8n", "--objective", "worst", "--time-limit", "1")
    assert code == 0 and re.search(r"worst case >= [56] guesses", out) and "total >=" not in out


def test_a_worst_case_stopped_once_its_depth_is_proven_says_so_with_its_total_bound(capsys, monkeypatch):
    """Stopped after the depth search proved the worst case, before the best total within
    it: the report said only "worst case >= 6" and dropped the total's lower bound."""
    from mastermind.core.cancel import TIME_LIMIT, CancelToken
    from mastermind.engines import exact
    from mastermind.engines.exact import Execution
    from mastermind.engines.exact.solver import ExactSolver

    from ...engines.exact.test_least_depth import _Count, _StopAt

    # p3c3: 3 levels needed, worst case 4, two depths tried, as p3c4 (whose reference best
    # total within the depth took 30 s on a loaded machine)
    table = CodeTable(Rules.parse("p3c3"))
    count = _Count()
    ExactSolver(table).least_depth(CancelToken(), progress=count)  # (the depths it tries)
    real = exact.solve

    def stopped_once_the_depth_is_proven(table, problem, **kw):
        token = kw["cancel"].child()  # (stopped as a time limit would: exit 0)
        stop = _StopAt(token, count.steps, TIME_LIMIT)
        kw.update(cancel=token, progress=stop, execution=Execution(units=True))
        return real(table, problem, **kw)

    monkeypatch.setattr(exact, "solve", stopped_once_the_depth_is_proven)  # (what the command calls)
    best = reference_worst(table, range(table.n))
    value, _ = reference_solve(table, objective="worst")
    data = optimal_json(capsys, "-r", "p3c3", "--objective", "worst", "--no-cache")
    assert data["proven"] is False and data["worst_lower_bound"] == data["worst_upper_bound"] == best
    assert data["worst"] == best  # (the headline of --objective worst, proven: it was null)
    assert data["total_lower_bound"] <= value <= data["total_upper_bound"]
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--objective", "worst", "--no-cache")
    assert f"worst case   {best} guesses  (proven: every smaller one refuted)" in out
    assert f"lower bound  total >= {data['total_lower_bound']} within {best} guesses" in out


def test_a_capped_search_stopped_before_any_strategy_does_not_say_one_exists(capsys, monkeypatch):
    """Within --max-guesses a strategy may not exist: a run stopped before it found one said
    "exists": true, where the same run to its end proves that none does (exit 1)."""
    from mastermind.core.cancel import TIME_LIMIT
    from mastermind.engines import exact

    real = exact.solve

    def stopped_at_once(table, problem, **kw):
        token = kw["cancel"].child()
        token.cancel(TIME_LIMIT)
        return real(table, problem, **{**kw, "cancel": token})

    monkeypatch.setattr(exact, "solve", stopped_at_once)
    code, out, err = run(capsys, "optimal", "-r", "p4c7", "--max-guesses", "5", "--no-cache", "--json")
    data = json.loads(out)
    assert code == 0 and data["proven"] is False and data["exists"] is None
    code, out, err = run(capsys, "optimal", "-r", "p4c7", "--max-guesses", "5", "--no-cache")
    assert code == 0 and "no strategy solves" not in out + err


def test_by_first_guess_honours_the_time_limit(capsys):
    import time

    start = time.monotonic()
    code, out, err = run(capsys, "optimal", "-r", "p5c6", "--by-first-guess", "--time-limit", "1", "--json")
    assert time.monotonic() - start < 60  # it used to run to the end (many minutes)
    data = json.loads(out)
    rows = data["by_first_guess"]
    assert code == 0 and len(rows) == 7 and not any(r["proven"] for r in rows)
    assert data["proven"] is False and data["stopped"] == "time limit" and data["best_first_guesses"] == []
    assert {r["stopped"] for r in rows} == {"time limit"} and all(r["total_lower_bound"] > 0 for r in rows)
    assert {r["first_guess"] for r in rows} == {"11111", "11112", "11122", "11123", "11223", "11234", "12345"}


def test_a_stopped_search_that_found_nothing_says_out_is_not_written(capsys, tmp_path, monkeypatch):
    """`optimal --time-limit 1 --out keep.json` with nothing found left the old file and said
    nothing about it."""
    import mastermind.engines.exact as exact
    from mastermind.engines.result import Result, Status

    def stopped_before_any_strategy(table, problem=None, **options):
        return Result(table.rules, "total", Status.UNKNOWN, None, 60, None, stopped="time limit")

    monkeypatch.setattr(exact, "solve", stopped_before_any_strategy)
    # (no heuristic beside it either: its tree would be written, once it finished in time)
    monkeypatch.setattr("mastermind.engines.optimum.wanted", lambda *args: False)
    keep = tmp_path / "keep.json"
    keep.write_text("an earlier tree")
    code, out, err = run(
        capsys, "optimal", "-r", "p3c3", "--time-limit", "1", "--out", str(keep), "--no-cache"
    )
    assert code == 0 and keep.read_text() == "an earlier tree"
    assert f"nothing written to {keep}: the search stopped (time limit) before it found a strategy" in err
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--out", str(keep), "--no-cache", "--json")
    data = json.loads(out)
    assert code == 0 and data["out"] is None and data["best_found"] is None and data["total"] is None
    assert data["total_lower_bound"] == 60 and data["stopped"] == "time limit"


def test_every_write_is_said_the_same_way(capsys, tmp_path):
    """export said "wrote", plot and compare "written", optimal --out nothing."""
    for argv in (
        ["optimal", "-r", "p2c3", "--out", str(tmp_path / "o.json")],
        ["export", "-r", "p2c3", "--out", str(tmp_path / "e.json")],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 0 and f"to {argv[-1]}" in out + err
        line = next(
            line for line in (out + err).splitlines() if line.endswith(argv[-1]) or f"to {argv[-1]}" in line
        )
        assert line.startswith("wrote "), line


def test_start_from_a_strategy_file(capsys, tmp_path):
    """--start-from reads what verify reads (here a .json.gz written by --out) and the search
    proves the optimum from it; a file of another game, or an option the plain optimum does
    not take, is one line and exit 2 before any work."""
    import gzip
    from pathlib import Path

    knuth = str(Path(__file__).resolve().parents[2] / "data" / "p4c6r-knuth.txt")
    code, out, _ = run(capsys, "optimal", "-r", "p3c4", "--out", str(tmp_path / "t.json"), "--json")
    assert code == 0
    packed = tmp_path / "t.json.gz"
    packed.write_bytes(gzip.compress((tmp_path / "t.json").read_bytes()))
    code, out, _ = run(capsys, "optimal", "-r", "p3c4", "--start-from", str(packed), "-j", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["proven"] and data["total"] == 206
    # stopped at once, the best found is the file's (Knuth's 5801), credited to it, not to the
    # search (which names the strategies it found cheaper)
    quick = ("--time-limit", "0.01", "--no-cache", "--json")
    code, out, _ = run(capsys, "optimal", "--start-from", knuth, *quick)
    found = json.loads(out)["best_found"]
    assert code == 0 and found["total"] <= 5801
    assert (found["found_by"] == "start-from") is (found["total"] == 5801), found["found_by"]
    # a checkpoint keeps where its strategy came from: the next run, not given the file,
    # credited the same tree to the search (a new user's trial)
    # (Koyama and Lai's optimal tree: no heuristic and no search stopped at once betters it)
    koyama = knuth.replace("knuth", "koyama-1")
    ck = ("-j", "1", "--no-cache", "--json", "--checkpoint", str(tmp_path / "ck"), "--time-limit", "0.01")
    for given in (["--start-from", koyama], []):
        code, out, _ = run(capsys, "optimal", *given, *ck)
        data = json.loads(out)
        assert code == 0 and data["proven"] is False
        assert (data["best_found"]["total"], data["best_found"]["found_by"]) == (5625, "start-from")
    for args, message in (
        (["-r", "p4c7", "--start-from", knuth], "wrong rules"),
        (["--start-from", knuth, "--first", "1122"], "plain optimum"),
        (["--start-from", knuth, "--max-guesses", "6"], "without --max-guesses"),
        (["--start-from", str(tmp_path / "missing.json")], "missing.json"),
    ):
        code, out, err = run(capsys, "optimal", *args)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, (args, err)


def test_the_optimal_worst_case_keeps_its_depth_search_in_the_checkpoint(capsys, tmp_path):
    folder = tmp_path / "ck"
    # (--no-cache: the second run is to read the checkpoint, not the stored answer)
    args = (
        "optimal",
        "-r",
        "p4c5",
        "--objective",
        "worst",
        "--checkpoint",
        str(folder),
        "--json",
        "--no-cache",
    )
    code, out, err = run(capsys, *args)
    first = json.loads(out)
    assert code == 0 and first["proven"] and (folder / "least-depth.npz").is_file()
    plain = solve(CodeTable(Rules(4, 5)), Problem(objective="worst"))  # the search in this thread
    assert (first["total"], first["worst"]) == (plain.total, plain.worst)
    # continued from the checkpoint: the same answer with fewer nodes (the depths settled are read)
    code, out, err = run(capsys, *args)
    again = json.loads(out)
    assert code == 0 and (again["total"], again["worst"]) == (first["total"], first["worst"])
    assert again["nodes"] < first["nodes"]
    # a folder another run is using is refused in one line (its saves would be overwritten)
    from mastermind.engines.exact.checkpoint import hold_folder

    with hold_folder(folder):
        code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and "in use by another run" in err and err.count("\n") == 1
    # a damaged memo file is refused in one line, before any work
    (folder / "least-depth.npz").write_bytes(b"damaged")
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and "least-depth.npz is damaged" in err and err.count("\n") == 1
    assert err.startswith("error: --checkpoint: ") and "delete it to go on without the memo it kept" in err
    # a checkpoint's memo of another game is refused too (--no-cache: an answer from the
    # result cache would not use the folder)
    other = tmp_path / "other"
    assert (
        run(
            capsys, "optimal", "-r", "p3c4", "--objective", "worst", "--checkpoint", str(other), "--no-cache"
        )[0]
        == 0
    )
    code, out, err = run(
        capsys, "optimal", "-r", "p3c5", "--objective", "worst", "--checkpoint", str(other), "--no-cache"
    )
    assert code == 2 and "another search" in err and err.count("\n") == 1
    # the folder of a plain optimum: refused before the depth search (it writes nothing)
    plain = tmp_path / "plain"
    assert run(capsys, "optimal", "-r", "p3c4", "--checkpoint", str(plain), "--no-cache")[0] == 0
    code, out, err = run(
        capsys, "optimal", "-r", "p3c4", "--objective", "worst", "--checkpoint", str(plain), "--no-cache"
    )
    assert code == 2 and "objective total" in err and err.count("\n") == 1
    assert not (plain / "least-depth.npz").exists()
    # what a checkpoint cannot hold is named
    code, out, err = run(
        capsys, "optimal", "-r", "p3c4", "--tie-break", "worst", "--checkpoint", str(plain), "--no-cache"
    )
    assert code == 2 and err.startswith("error: --checkpoint cannot go with --tie-break worst: ")


def test_a_stopped_run_counts_its_units_as_planned_so_far():
    """A stopped p4c6 said "115 of 115 work units done", read as all the work, where its
    rounds would have planned more (a new user's trial)."""
    from mastermind.app.commands.exact import _work

    units = {"done": 115, "planned": 115, "run": 115, "reused": 0}
    data = {"seconds": 1.0, "nodes": 5, "memo_hits": 0, "units": units}
    assert "115 work units done (115 searched), 115 planned so far" in _work({**data, "proven": False})
    assert "115 of 115 work units done (115 searched)" in _work({**data, "proven": True})


def test_a_time_limit_stop_says_the_limit_counts_the_whole_command(capsys):
    """The search's own seconds (0.07 s) under ``--time-limit 1`` read as a limit not kept:
    the stop line says what the limit counts and how long the command has run."""
    code, out, err = run(capsys, "optimal", "-r", "p4c7", "--no-cache", "--time-limit", "0.001")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("proven"))
    assert "stopped (time limit)" in line and "--time-limit 0.001 s counts the whole command" in line


@pytest.mark.parametrize("extra", [[], ["--by-first-guess"]])
def test_the_time_limit_reaches_the_search_as_its_tokens_deadline_alone(capsys, monkeypatch, extra):
    """--time-limit is stored once: the deadline of the token the library is given (from
    the command's start), not a number beside it in Limits."""
    import mastermind.engines.exact as exact

    name = "solve_by_first_guess" if extra else "solve"
    real = getattr(exact, name)
    told = []

    def spy(*args, **kwargs):
        told.append((kwargs["limits"].time_limit, kwargs["cancel"].remaining()))
        return real(*args, **kwargs)

    monkeypatch.setattr(exact, name, spy)
    code, out, err = run(
        capsys, "optimal", "-r", "p3c3", "--no-cache", "--json", "--time-limit", "600", *extra
    )
    assert code == 0, err
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--no-cache", "--json", *extra)
    assert code == 0, err
    (limited, left), unlimited = told
    assert limited is None and 0 < left <= 600 and unlimited == (None, None)
