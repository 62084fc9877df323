"""Ctrl-C (SIGINT to a subprocess) in every long command: exit code 130 within seconds, and
what was proven so far printed; ``--time-limit`` reports the same way with exit code 0.

The target is to stop within 1 s; the tests allow 5 s so that a loaded machine does not fail
them. The signal comes at a point the command reports (a progress line, or a line saying that a
function was entered: see announcing.py), never after a number of seconds, and each command gets
a game whose remaining work takes far longer than the moment between that line and the signal,
so that the outcome is the same on a faster, a slower or a busier machine."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mastermind.app.cli import main

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).resolve().parent / "announcing.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
STOP_WITHIN = 5.0
REACH_WITHIN = 300.0  # seconds to reach the point: only against a hang (a loaded machine is slow)


def _event(line: str) -> dict | None:
    try:
        event = json.loads(line)
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


def progress(done: int | None = None, description: str = "") -> Callable[[dict], bool]:
    """The point where a progress line says ``done`` steps are finished (None: the start of
    the work), in work whose description contains ``description``."""

    def reached(event: dict) -> bool:
        if description not in event.get("description", ""):
            return False
        if done is None:
            return event.get("event") == "start"
        return event.get("event") == "advance" and event.get("done") == done

    return reached


def call(function: str, count: int = 1) -> Callable[[dict], bool]:
    """The point where ``function`` (announced with ``--announce``) is entered the ``count``-th time."""
    seen = [0]

    def reached(event: dict) -> bool:
        if event.get("event") == "call" and event.get("function") == function:
            seen[0] += 1
        return seen[0] == count

    return reached


def interrupted(args: list[str], at: Callable[[dict], bool], announce: tuple[str, ...] = ()):
    """Run the command, send SIGINT at the first line of standard error that is the point
    ``at``; its output and how long it took to exit after the signal (asserting exit code 130)."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), *(a for f in announce for a in ("--announce", f)), *args],
        cwd=ROOT,
        env=ENV,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    hang = threading.Timer(REACH_WITHIN, proc.kill)
    hang.start()
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            event = _event(line)
            if event is not None and at(event):
                break
        else:
            proc.wait()
            said = "".join(seen)[-3000:]
            pytest.fail(f"the command ended (exit {proc.returncode}) before the point:\n{said}")
    finally:
        hang.cancel()
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    elapsed = time.monotonic() - start
    err = "".join(seen) + err
    assert proc.returncode == 130, err[-3000:]
    assert elapsed < STOP_WITHIN, elapsed
    if "--json" in args and out.strip():  # what Ctrl-C leaves is the command's one JSON object too
        data = json.loads(out)
        SCHEMAS[args[0]].validate(data)
        assert data["stopped"] == "interrupted"
    return out, err, elapsed


SCHEMAS: dict = {}


@pytest.fixture(autouse=True)
def _schemas(validators) -> None:
    """``interrupted`` checks what a command prints with --json against its schema."""
    SCHEMAS.update(validators)


def said_beside_json(err: str) -> list[str]:
    """The lines of standard error other than the progress lines (and other than
    multiprocessing's resource-tracker warning, which a killed solver process may leave)."""
    lines = [line for line in err.strip().splitlines() if _event(line) is None]
    return [line for line in lines if "resource_tracker" not in line and "warnings.warn" not in line]


@pytest.mark.integration
def test_heuristics_stop_and_say_so():
    # a heuristic's tree half built proves nothing, but the report is the one a time limit
    # gives: no strategy finished (it was "interrupted" alone, no JSON); entropy on the 2
    # million codes of p7c8 takes hours
    args = ["heuristics", "-r", "p7c8", "-s", "entropy", "--json"]
    out, err, _ = interrupted(args, at=progress(None, "playing every secret"))
    data = json.loads(out)
    assert data["strategies"] == [] and data["unfinished"] == ["entropy"] and data["stopped"] == "interrupted"
    assert not said_beside_json(err)  # (its "stopped" says it, as every command's JSON does)


@pytest.mark.integration
def test_ctrl_c_in_the_start_up_still_gives_the_json():
    # Ctrl-C as the command reads its game, before its work: it said "interrupted" alone, no
    # JSON (a new user's trial); its work now begins, stops at once and reports
    # (p5c8: its codes are read in milliseconds, and entropy plays them for seconds)
    args = ["heuristics", "-r", "p5c8", "-s", "entropy", "--json", "--no-cache"]
    point = "mastermind.app.commands.heuristics:table_for"
    out, err, elapsed = interrupted(args, at=call(point), announce=(point,))
    data = json.loads(out)
    assert data["strategies"] == [] and data["unfinished"] == ["entropy"] and data["stopped"] == "interrupted"


@pytest.mark.integration
@pytest.mark.parametrize("command", ["simulate"])
def test_ctrl_c_while_the_score_table_is_built_still_gives_the_json(command):
    # Ctrl-C in the build of p5c8's score table (1 GiB, seconds): it said "interrupted" alone
    # (a new user's trial); the build stops within a row, and the commands that can go
    # without the table get the codes alone: their work stops at once and reports
    args = [command, "-r", "p5c8", "-s", "entropy", "--json"] + (
        ["--no-cache"] if command == "heuristics" else []
    )
    point = "mastermind.core._kernels:score_rows"
    out, err, elapsed = interrupted(args, at=call(point), announce=(point,))
    data = json.loads(out)
    assert data["stopped"] == "interrupted"
    if command == "heuristics":
        assert data["strategies"] == [] and data["unfinished"] == ["entropy"]
    else:
        assert data["secrets"] == 0


@pytest.mark.integration
def test_a_partition_without_the_table_stops_at_once():
    """p8c8 counts 16.7 million codes a guess, seconds of passes: a Ctrl-C in them let the
    command go on as in a start-up, and it printed its whole table with exit code 0 when it
    finished within the half second a start-up gets (a new user's trial)."""
    args = ["partition", "12345671", "11223344", "12341234", "11112222", "-r", "p8c8b", "--json"]
    point = "mastermind.core._kernels:answers_of"
    out, err, elapsed = interrupted(args, at=call(point, 2), announce=(point,))
    assert out == "" and err.strip().endswith("interrupted")


@pytest.mark.integration
def test_heuristics_report_the_strategies_finished():
    # Ctrl-C once simple has played every secret of p5c8; entropy takes many seconds more
    args = ["heuristics", "-r", "p5c8", "-s", "simple", "-s", "entropy", "--json", "--no-cache"]
    out, err, _ = interrupted(args, at=progress(1, "playing every secret"))
    data = json.loads(out)
    assert [row["strategy"] for row in data["strategies"]] == ["simple"] and data["unfinished"] == ["entropy"]
    assert data["stopped"] == "interrupted"
    assert not said_beside_json(err)


@pytest.mark.integration
def test_export_of_the_optimum_stopped_says_nothing_was_proven(tmp_path):
    # Ctrl-C as the search begins (its kernels perhaps still compiling): nothing written, and
    # not proven (it said "proven": true when the stop came before the search's answer)
    target = tmp_path / "tree.json"
    args = ["export", "-r", "p5c8n", "-s", "optimal", "--out", str(target), "--json"]
    out, _, _ = interrupted(
        args, at=call("mastermind.engines.exact:solve"), announce=("mastermind.engines.exact:solve",)
    )
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["proven"] is False
    assert data["total"] is None and (data["out"] is None) == (data["best_found"] is None)


@pytest.mark.integration
def test_the_optimal_worst_case_reports_the_depths_refuted():
    # Ctrl-C once 5 guesses are refuted on p5c8n: refuting 6 takes minutes. The first step
    # is the probe from above finding a strategy of 7 guesses at once; its probe of 6 gives
    # way after PROBE_SECONDS, then the search from below refutes 5 (the second step)
    args = ["optimal", "-r", "p5c8n", "-j", "1", "--objective", "worst", "--json", "--no-cache"]
    out, err, _ = interrupted(args, at=progress(2, "worst cases tried"))
    data = json.loads(out)
    assert data["proven"] is False and data["total"] is None and data["total_lower_bound"] is None
    assert data["worst_lower_bound"] == 6
    found = data["best_found"]  # the shallowest strategy found: the upper bound
    assert found["worst"] == data["worst_upper_bound"] > 6 and found["secrets"] == 6720


@pytest.mark.integration
def test_ctrl_c_in_the_proof_keeps_the_optimum(tmp_path):
    # Ctrl-C as the pass writing the proof begins (p4c7: seconds of facts after the search):
    # it printed "interrupted" alone and lost the optimum proven; now the optimum is reported,
    # no proof is written, and a line says so
    path = tmp_path / "p4c7.proof.json.gz"
    point = "mastermind.engines.exact.certify:write_proof"
    args = ["optimal", "-r", "p4c7", "-j", "1", "--no-cache", "--proof", str(path)]
    out, err, _ = interrupted(args, at=call(point), announce=(point,))
    assert "proven       yes" in out and "\ntotal        " in out and not path.exists()
    said = f"nothing written to {path}: the proof stopped (interrupted) before it was written"
    assert said_beside_json(err) == [f"{said}; a file already there is left as it was"]


@pytest.mark.integration
def test_ctrl_c_in_the_proof_keeps_the_game_value(tmp_path):
    # Ctrl-C as the pass writing the proof of the game value begins (p5c4: seconds of facts
    # after the column generation): the value is reported, no proof is written, exit 130
    path = tmp_path / "p5c4.gv.proof.json.gz"
    point = "mastermind.engines.exact.certify:write_weighted_proof"
    args = ["game-value", "-r", "p5c4", "-j", "1", "--proof", str(path), "--json"]
    out, _, _ = interrupted(args, at=call(point), announce=(point,))
    data = json.loads(out)
    assert data["proven"] and data["average_fraction"] == "325/84" and not path.exists()
    assert data["proof"] is None and data["stopped"] == "interrupted"


@pytest.mark.integration
@pytest.mark.parametrize("json_output", [True, False])
def test_verify_of_a_strategy_stopped_says_so(json_output):
    # Ctrl-C while 5x8's tree (33852 nodes, 2 s) is read: it said "interrupted" alone (with
    # --json, no object: a new user's trial); now the strategy's report, valid null, stopped
    point = "mastermind.core.formats.jsonfmt:_read_node"
    tree = "results/trees/p5c8.json.gz"
    out, err, _ = interrupted(
        ["verify", tree, *(["--json"] if json_output else [])], at=call(point, 2000), announce=(point,)
    )
    # (the reading goes on unheeded in its thread as the command reports: its announcements,
    # some cut by the report's lines or by the process's end, are left out, a cut one's tail
    # too: '...formats.jsonfmt:_read_node"}' alone on a line failed CI once)
    said = [line for line in said_beside_json(err) if point not in line and not _json_fragment(line, point)]
    report = f"stopped (interrupted): {tree} is not replayed to its end"
    if json_output:
        data = json.loads(out)
        assert (data["strategy"], data["valid"], data["stopped"], data["total"]) == (
            tree,
            None,
            "interrupted",
            None,
        )
        assert not said
        return
    # (the report once, whole; what else standard error holds, with the report and every
    # whole announcement taken out, is pieces of announcements: a report glued to one, on
    # one line, was left out with it above)
    assert out == "" and err.count(report) == 1
    rest = re.sub(r"\{[^{}\n]*\}", "", err.replace(report, ""))
    assert [line for line in said_beside_json(rest) if line.strip() and not _json_fragment(line, point)] == []


def _json_fragment(line: str, point: str) -> bool:
    """Pieces of announcements of ``point`` (JSON lines) cut by other output: the line is
    part of those lines run together, and nothing else (any quote or brace passed before,
    which would have hidden a message quoting a name)."""
    said = json.dumps({"event": "call", "function": point}, separators=(",", ":"))
    return bool(line) and line in said * (len(line) // len(said) + 2)


@pytest.mark.integration
@pytest.mark.parametrize("json_output", [True, False])
def test_verify_of_a_proof_reports_the_facts_checked(json_output):
    # Ctrl-C at the 300th fact of 4x8's proof (183,338 facts, a minute of one core): it said
    # "interrupted" alone (with --json, no object); now how many facts were checked, none
    # failing, and that the proof is not checked to its end
    point = "mastermind.proofcheck.check:FactChecker.check"
    proof = "results/proofs/p4c8.proof.json.gz"
    args = ["verify", proof, *(["--json"] if json_output else [])]
    out, err, _ = interrupted(args, at=call(point, 300), announce=(point,))
    said = said_beside_json(err)
    if json_output:
        data = json.loads(out)
        assert data["valid"] is None and data["errors"] == []  # (neither found valid nor invalid)
        assert (data["rules"], data["secrets"]) == ("p4c8r", 4096)  # (the game its header names)
        assert 299 <= data["facts"] < 183_338 and not said
        return
    assert out == "" and len(said) == 1
    assert said[0].startswith("stopped (interrupted) after ") and said[0].endswith(
        f" of 183338 facts checked, none failing: {proof} is not checked to its end"
    )


@pytest.mark.integration
def test_compare_reports_the_strategies_finished(tmp_path):
    # it printed nothing: Ctrl-C once the heuristics played and the bounds are computed, while the
    # exact search of p5c6 (hours) runs on (a new user's trial); the picture, which takes about
    # a second to draw, is not begun once Ctrl-C came (as in plot: a later trial)
    picture = tmp_path / "c.svg"
    argv = ["compare", "-r", "p5c6", "--json", "--plot", str(picture)]
    out, err, _ = interrupted(argv, at=progress(7, "compare"), announce=(DRAWING,))
    data = json.loads(out)
    assert data["plot"] is None and not picture.exists() and DRAWING not in err
    assert data["stopped"] == "interrupted" and data["optimal"] is None and len(data["strategies"]) == 6
    assert all(sum(row["histogram"]) == 7776 for row in data["strategies"])
    assert data["total_lower_bound"] > 0
    assert not said_beside_json(err)


DRAWING = "mastermind.app.plots:guesses_figure"


@pytest.mark.integration
def test_plot_stopped_draws_nothing(tmp_path):
    # Ctrl-C went on to draw the picture (about a second: exit 130 1.1-1.4 s after the
    # signal, a new user's trial), and one that came while drawing wrote nothing: once
    # interrupted, plot begins no picture, reports what it played and writes nothing.
    # (It drew the strategies finished after Ctrl-C before; its numbers are the answer now,
    # as they are where Ctrl-C lands while drawing.) Ctrl-C once the first of the six
    # heuristics of p4c6 has played: the other five and the bounds take seconds
    picture = tmp_path / "p.svg"
    args = ["plot", "-r", "p4c6", "-j", "1", "--out", str(picture), "--json"]
    out, err, _ = interrupted(args, at=progress(1, "compare"), announce=(DRAWING,))
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["out"] is None and data["drawn"] == []
    assert 1 <= len(data["strategies"]) <= 6 and data["total_lower_bound"] > 0
    assert not picture.exists() and DRAWING not in err  # (no drawing begun)
    assert not said_beside_json(err)


@pytest.mark.integration
@pytest.mark.parametrize("strategies, done", [([], 6), (["-s", "optimal"], None)])
def test_plot_stopped_before_its_strategies_or_bounds_still_reports(tmp_path, strategies, done):
    # Ctrl-C as the lower bounds of p4c6 are computed (about a second, which cannot be
    # stopped) gave "interrupted" alone 1.1 s later, as did one before any strategy finished
    # (-s optimal: as the comparison starts): the bounds are left unheeded, and what is
    # proven is reported at once
    picture = tmp_path / "p.svg"
    args = ["plot", "-r", "p4c6", "-j", "1", *strategies, "--out", str(picture), "--json"]
    out, err, _ = interrupted(args, at=progress(done, "compare"))
    data = json.loads(out)  # (it was empty)
    assert data["stopped"] == "interrupted" and data["out"] is None and not picture.exists()
    assert (
        len(data["strategies"]) == (done or 0) and data["total_lower_bound"] >= 4986
    )  # (the perfect tree's)


@pytest.mark.integration
def test_plot_stopped_while_drawing_writes_nothing(tmp_path):
    # Ctrl-C as the picture of p4c6's optimum and six heuristics is drawn: nothing written,
    # the numbers said, exit 130 within the second (the drawing is given up)
    picture = tmp_path / "p.png"
    args = ["plot", "-r", "p4c6", "-j", "1", "--out", str(picture)]
    out, err, elapsed = interrupted(args, at=call(DRAWING), announce=(DRAWING,))
    assert not picture.exists()
    said = f"nothing written to {picture}: interrupted while drawing (total >= "
    assert said in out and "minimax 5801" in out, out
    assert "interrupted: the optimum" not in err  # (it was proven: only the picture is missing)


@pytest.mark.integration
def test_results_reports_the_rows_finished(tmp_path):
    # the JSON document was missing although the finished rows were in the files: Ctrl-C once
    # p3c3 is done and p4c7 (seconds) has started
    args = ["results", "--games", "p3c3,p4c7", "--table", "optimal", "--row-time-limit", "60"]
    row = "mastermind.app.publishing.runner:Runner.optimal_row"
    out, err, _ = interrupted([*args, "--out", str(tmp_path), "--json"], at=call(row, 2), announce=(row,))
    data = json.loads(out)
    assert data["stopped"] == "interrupted"
    assert [row["game"] for row in data["tables"]["optimal"]] == ["p3c3"]
    assert data["kept"] is None  # (no checkpoint: nothing kept for a next run)
    assert not any(line.startswith("stopped") for line in said_beside_json(err))


@pytest.mark.integration
def test_simulate_reports_the_games_played():
    # it printed nothing of the games already played: Ctrl-C after the first games
    args = ["simulate", "-r", "p5c8", "-s", "entropy", "-n", "100000", "--json"]
    out, _, _ = interrupted(args, at=lambda event: event.get("event") == "advance")
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and 0 < data["secrets"] < data["secrets_asked"] == 100000
    assert sum(data["histogram"]) == data["secrets"]


@pytest.mark.integration
def test_bounds_reports_the_levels_finished():
    # Ctrl-C as level 3 starts (minutes on p4c8): levels 1 and 2 are reported
    level = "mastermind.engines.models.bounds:lookahead_worst_bound"
    args = ["bounds", "-r", "p4c8", "--levels", "3", "--json"]
    out, _, _ = interrupted(args, at=call(level, 3), announce=(level,))
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["proven"] is False  # (the bounds given are proven)
    totals = data["total_lower_bounds"]
    assert "lookahead_2" in totals and "lookahead_3" not in totals
    assert data["total_lower_bound"] == max(totals.values()) >= totals["perfect_tree"] == 17902


@pytest.mark.integration
def test_game_value_reports_its_bounds():
    # Ctrl-C after the first best reply (the value of p4c7 takes hours)
    out, _, _ = interrupted(["game-value", "-r", "p4c7", "--json"], at=progress(1, "game value"))
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["proven"] is False
    # the value is at least the best reply to uniform secrets, 11228/2401 = 4.676
    assert 1 <= data["average_lower_bound"] <= 11228 / 2401 and data["average"] is None
    assert data["average_upper_bound"] is None or data["average_upper_bound"] >= 11228 / 2401


@pytest.mark.integration
def test_cpsat_reports_its_bound_and_best_strategy():
    # Ctrl-C as the CP-SAT model is built (not proven within 120 s on p2c5)
    model = "mastermind.engines.models.cpsat_tree:solve_tree"
    args = ["cpsat", "-r", "p2c5", "--time-limit", "120", "--json"]
    out, _, _ = interrupted(args, at=call(model), announce=(model,))
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["proven"] is False
    assert (
        0 < data["total_lower_bound"] <= 79
    )  # the optimum of p2c5 within 5 guesses is 79 (the exact solver's)
    assert data["total_upper_bound"] is None or data["total_upper_bound"] >= 79
    assert data["total"] is None


@pytest.mark.integration
def test_static_reports_its_bound():
    # Ctrl-C as the model of p4c4 is built (seconds), before CP-SAT runs
    model = "mastermind.engines.models.static:solve_static"
    args = ["static", "-r", "p4c4", "--time-limit", "120"]
    out, _, _ = interrupted(args, at=call(model), announce=(model,))
    assert "stopped (interrupted)" in out and "not proven" in out and "at least" in out


@pytest.mark.integration
def test_table_prints_the_rows_finished():
    # Ctrl-C once the first row is done: p4c8 alone takes well over a minute of CPU
    out, _, _ = interrupted(["table", "--games", "p3-4c3-8", "--json"], at=progress(1, "table"))
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["proven"] is False
    done = [r["rules"] for r in data["rows"]]
    assert done and done + data["unfinished"] == [f"p{p}c{c}r" for p in (3, 4) for c in range(3, 9)]
    assert data["unfinished"]


def run(capsys, *args):
    code = main(list(args))
    out, _ = capsys.readouterr()
    return code, out


@pytest.mark.parametrize(
    "args, bound",
    [
        (["bounds", "-r", "p4c8", "--levels", "3", "--time-limit", "1"], "total_lower_bound"),
        (["game-value", "-r", "p4c7", "--time-limit", "1"], "average_lower_bound"),
    ],
)
def test_a_time_limit_reports_what_is_proven_with_exit_code_0(capsys, args, bound):
    code, out = run(capsys, *args, "--json")
    data = json.loads(out)
    assert code == 0 and data["stopped"] == "time limit" and data["proven"] is False
    assert bound in data


@pytest.mark.parametrize("command", ["bounds", "game-value"])
@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_bad_time_limit_is_refused(capsys, command, value):
    assert main([command, "-r", "p3c3", "--time-limit", value]) == 2


def test_an_interrupt_python_could_not_raise_is_not_printed(monkeypatch):
    """Ctrl-C inside a callback or finalizer (numba's compiler has both) is "ignored" by
    Python with a traceback on stderr; during a command the watchdog acts on it instead.
    Other exceptions there are still reported."""
    from mastermind.app.interrupts import interrupt_handling

    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(type(u.exc_value)))

    class RaisesOnDelete:
        def __init__(self, exc):
            self.exc = exc

        def __del__(self):
            raise self.exc

    with interrupt_handling():
        RaisesOnDelete(KeyboardInterrupt())
        RaisesOnDelete(ValueError("a bug"))
    assert reported == [ValueError]
    RaisesOnDelete(KeyboardInterrupt())  # outside a command: Python's own report again
    assert reported == [ValueError, KeyboardInterrupt]


@pytest.mark.integration
def test_ctrl_c_lets_a_rows_checkpointed_search_keep_what_it_proved(tmp_path, monkeypatch):
    """A `results` row's search runs in a child process, which Ctrl-C used to end at once: the
    hours of a frontier run kept their units but not their bounds nor the strategy search's
    pass. Now the child is asked to stop, keeps them, and the command says what it kept. The
    signal comes once the search has stored units (not after a number of seconds)."""
    import sqlite3

    from mastermind.app.interrupts import WIND_DOWN, interrupt_handling
    from mastermind.app.publishing import TablesStopped, run_tables
    from mastermind.engines.exact.checkpoint import FILE, RootBounds
    from mastermind.engines.workers import timed

    # (what is kept, not how fast: a loaded machine gets most of the watchdog's wind-down)
    monkeypatch.setattr(timed, "STOP_WAIT", WIND_DOWN - 2)

    folder = tmp_path / "ck"
    db = folder / "p5c6" / FILE

    def units() -> int:
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                return con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
        except sqlite3.Error:
            return 0

    def ctrl_c_once_units_are_stored() -> None:
        deadline = time.monotonic() + REACH_WITHIN
        while units() < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=ctrl_c_once_units_are_stored, daemon=True).start()
    with interrupt_handling(), pytest.raises(TablesStopped) as stop:
        run_tables(
            tmp_path, tables=("optimal",), games=["p5c6"], row_time_limit=3600, jobs=1, checkpoint=folder
        )
    assert stop.value.why == "interrupted" and units() >= 3
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        row = con.execute("SELECT value FROM meta WHERE name = 'bounds'").fetchone()
    assert row is not None  # (a child ended at once kept none)
    kept = RootBounds.decode(row[0])
    strategy = "" if kept.upper == float("inf") else f" and its strategy of {int(kept.upper)}"
    said = f"p5c6's checkpointed search kept the total >= {int(kept.lower)}{strategy}"
    assert stop.value.kept == f"{said} for the next run"
    upper = None if kept.upper == float("inf") else int(kept.upper)
    bounds = {"total_lower_bound": int(kept.lower), "total_upper_bound": upper}
    assert stop.value.bounds == {"game": "p5c6", **bounds}


@pytest.mark.parametrize(
    "part",
    [
        {"total_lower_bound": 171534, "total_upper_bound": 178849},
        {"total_lower_bound": 5, "total_upper_bound": None},
    ],
)
def test_results_json_gives_what_a_stopped_rows_search_kept(tmp_path, monkeypatch, capsys, part, validators):
    """`results --json` stopped by Ctrl-C during a checkpointed row said only "interrupted":
    the bounds its search kept for the next run were on the error stream alone."""
    from mastermind.app.publishing.runner import Runner, SearchStopped

    def stopped_row(self, rules, trees, clock=None):
        raise SearchStopped("p4c5", {**part, "seconds": 12.0})

    monkeypatch.setattr(Runner, "warm_up", lambda self: None)
    monkeypatch.setattr(Runner, "optimal_row", stopped_row)
    args = ["results", "--out", str(tmp_path), "-g", "p4c5", "--table", "optimal", "--json"]
    assert main(args) == 130
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    validators["results"].validate(data)
    assert data["kept"] == {"game": "p4c5", **part}
    assert "kept" not in captured.err  # (said in the JSON alone, as every command says it)
    assert main(args[:-1]) == 130  # the same in words, without --json
    said = f"p4c5's checkpointed search kept the total >= {part['total_lower_bound']}"
    assert said in capsys.readouterr().err
