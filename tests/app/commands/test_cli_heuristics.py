"""``mastermind heuristics`` and ``mastermind simulate`` from the command line."""

import json

import pytest

from mastermind.app.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_heuristics_json_p4c6(capsys):
    code, out, err = run(capsys, "heuristics", "--json", "--seed", "0")
    data = json.loads(out)
    rows = data["strategies"]
    assert code == 0 and err == ""
    assert (data["rules"], data["codes"], data["seed"], data["stopped"]) == ("p4c6r", 1296, 0, None)
    assert [r["strategy"] for r in rows] == [
        "minimax",
        "expected-size",
        "entropy",
        "most-parts",
        "simple",
        "random",
    ]
    keys = {"strategy", "first_guess", "total", "secrets", "average", "worst", "histogram", "worst_secrets"}
    assert all(set(r) == keys for r in rows)
    by_name = {r["strategy"]: r for r in rows}
    assert by_name["minimax"]["first_guess"] == "1122" and by_name["minimax"]["total"] == 5801
    assert by_name["expected-size"]["worst_secrets"] == ["1652", "3442", "5533"]
    assert by_name["simple"]["histogram"] == [1, 4, 25, 108, 305, 602, 196, 49, 6]
    assert by_name["most-parts"]["average"] == round(5668 / 1296, 6)


def test_heuristics_selected_strategies_pool_and_table(capsys):
    code, out, _ = run(
        capsys,
        "heuristics",
        "-r",
        "p3c4",
        "--strategy",
        "entropy",
        "-s",
        "simple",
        "--pool",
        "consistent",
        "--json",
    )
    rows = json.loads(out)["strategies"]
    assert code == 0 and [r["strategy"] for r in rows] == ["entropy", "simple"]
    assert all(r["secrets"] == 64 for r in rows)
    code, out, _ = run(capsys, "heuristics", "-r", "p3c4", "-s", "minimax", "--tie-break", "sorted")
    assert code == 0 and "minimax" in out and "histogram" in out


def test_heuristics_random_is_seeded(capsys):
    argv = ("heuristics", "-s", "random", "--seed", "5", "--json", "--no-cache")  # played twice
    outs = [json.loads(run(capsys, *argv)[1]) for _ in range(2)]
    assert outs[0]["strategies"] == outs[1]["strategies"] and outs[0]["seed"] == 5


@pytest.mark.parametrize(
    "args, word",
    [
        (["heuristics", "-s", "knuth"], "--strategy: unknown value 'knuth'"),
        (["heuristics", "--pool", "most"], "--pool: unknown value 'most'"),
        (["heuristics", "--tie-break", "last"], "--tie-break: unknown value 'last'"),
        (["simulate", "-s", "nope"], "--strategy: unknown value 'nope'"),
        (["simulate", "--secrets", "0"], "--secrets: must be at least 1, got 0"),
        (["heuristics", "-r", "p4c6x"], "cannot read rules"),
        (["optimal", "-r", "p7c9", "--memory-limit", "1"], "memory-limit"),  # heuristics stream instead
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, word):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert word in err and err.count("\n") == 1 and err.startswith("error: ")


def test_simulate_json(capsys):
    argv = ("simulate", "-s", "minimax", "--secrets", "400", "--seed", "7", "--json")
    code, out, err = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and err == ""  # no progress bar when not on a terminal
    assert data["secrets"] == data["secrets_asked"] == 400 and sum(data["histogram"]) == 400
    assert data["seed"] == 7 and data["stopped"] is None
    assert data["ci95"][0] < data["average"] < data["ci95"][1] and data["worst"] <= 5
    assert data["total"] == sum(k * n for k, n in enumerate(data["histogram"], 1))
    again = json.loads(run(capsys, *argv)[1])
    assert {**again, "seconds": 0} == {**data, "seconds": 0}


def test_simulate_text(capsys):
    code, out, _ = run(capsys, "simulate", "-r", "p3c3", "-s", "random", "-n", "50")
    assert code == 0 and "95% interval" in out and "histogram" in out
    assert "drawn: --seed" in out  # the seed drawn, said so that the run can be repeated


def test_one_game_has_no_interval(capsys):
    """`simulate -n 1` printed a 95% interval of width 0."""
    code, out, _ = run(capsys, "simulate", "-n", "1", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["secrets"] == 1 and data["ci95"] is None and data["std"] is None
    code, out, _ = run(capsys, "simulate", "-n", "1", "--seed", "3")
    assert code == 0 and "95%" not in out and "no interval from one game" in out
    code, out, _ = run(capsys, "simulate", "-n", "2", "--seed", "3", "--json")
    assert json.loads(out)["ci95"] is not None


def test_the_interval_holds_only_possible_averages(capsys):
    """`simulate -r p1c2 -n 3 --seed 1` said 95% interval 0.6800 .. 1.9867: no game takes
    fewer than 1 guess, and a game of 2 codes never more than 2."""
    code, out, _ = run(capsys, "simulate", "-r", "p1c2", "-n", "3", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["histogram"] == [2, 1] and data["ci95"] == [1.0, 2.0]
    code, out, _ = run(capsys, "simulate", "-r", "p1c2", "-n", "3", "--seed", "1")
    assert "average          1.3333 guesses  (95% interval 1.0000 .. 2.0000)" in out


def test_two_games_take_students_t(capsys):
    """`simulate -r p3c3 -n 2` gave 1.5200 .. 3.4800, the normal's interval (t has 12.7, not 1.96)."""
    code, out, _ = run(capsys, "simulate", "-r", "p3c3", "-n", "2", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["histogram"] == [0, 1, 1] and data["std"] == pytest.approx(0.5**0.5)
    assert data["ci95"] == [1.0, pytest.approx(2.5 + 12.706205 * 0.5, abs=1e-6)]


def test_games_all_alike_give_no_interval(capsys):
    """Two games of 3 guesses each gave an interval of width 0."""
    code, out, _ = run(capsys, "simulate", "-r", "p3c3", "-n", "2", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["histogram"] == [0, 0, 2] and data["ci95"] is None and data["std"] == 0
    code, out, _ = run(capsys, "simulate", "-r", "p3c3", "-n", "2", "--seed", "3")
    assert "95%" not in out and "(no interval: every game took 3 guesses)" in out


def test_simulate_beyond_the_memory_limit_uses_rows(capsys):
    # 4096 codes need 16 MiB for the table; a 1 MiB limit forces computed answers
    code, out, err = run(
        capsys, "simulate", "-r", "p4c8", "-s", "simple", "-n", "20", "--memory-limit", "0.001", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["secrets"] == 20


@pytest.mark.integration
def test_simulate_shows_a_progress_bar_on_a_terminal():
    pexpect = pytest.importorskip("pexpect", reason="pexpect (extra: test) is not installed")
    import sys

    # random play has no shared positions to remember: enough work for the bar to show
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mastermind.app.cli", "simulate", "-s", "random", "-n", "3000"],
        encoding="utf-8",
        timeout=180,
        dimensions=(40, 120),
    )
    child.expect_exact("simulating random")
    child.expect_exact("95% interval")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before


def test_simulate_time_limit_covers_solving_the_game(capsys):
    """`simulate -s optimal --time-limit 3` on p4c8 ran on for minutes: the limit applied
    only to the games, not to solving the game for the optimal strategy (p4c8: about 40 s;
    p5c6 here: hours)."""
    assert main(["simulate", "-r", "p5c6", "-s", "optimal", "-n", "100", "--time-limit", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stopped"] == "time limit" and data["secrets"] == 0 and data["secrets_asked"] == 100
    assert data["histogram"] == [] and data["worst"] is None and data["average"] is None  # the usual fields
    assert main(["simulate", "-r", "p3c3", "-s", "optimal", "-n", "50", "--time-limit", "60", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stopped"] is None and sum(data["histogram"]) == 50 and data["worst"] <= 4


@pytest.mark.parametrize("command", [["simulate", "-n", "10"], ["heuristics", "-s", "minimax"]])
def test_a_solver_asked_for_once_the_time_limit_stopped_the_table_reports_stopped(capsys, command):
    """With the score table's build stopped by the time limit (a loaded machine, or a limit
    shorter than the build), the command got the codes alone, and the optimal strategy then
    refused them: "the exact solver needs the full score table", exit 2. It stops instead."""
    code, out, err = run(capsys, *command, "-r", "p4c6", "-s", "optimal", "--time-limit", "1e-9", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["stopped"] == "time limit"
    assert data.get("secrets", 0) == 0 and not data.get("strategies")


def test_what_applies_to_nothing_drawn_or_a_file_is_null(capsys, tmp_path):
    """A seed was reported for strategies that draw nothing, and a pool and a tie-break for a
    strategy file, which plays as it is written (a new user's trial)."""
    tree = str(tmp_path / "t.json")
    code, out, _ = run(capsys, "export", "-r", "p3c3", "-s", "minimax", "-o", tree, "--json")
    assert code == 0 and json.loads(out)["seed"] is None
    code, out, _ = run(capsys, "export", "-r", "p3c3", "-s", "random", "-o", tree, "--json", "--seed", "3")
    assert code == 0 and json.loads(out)["seed"] == 3
    data = json.loads(run(capsys, "heuristics", "-r", "p3c3", "-s", "entropy", "--json", "--no-cache")[1])
    assert data["seed"] is None and data["pool"] == "all"
    data = json.loads(run(capsys, "simulate", "-s", tree, "--secrets", "5", "--json", "--seed", "2")[1])
    assert (data["pool"], data["tie_break"], data["seed"]) == (None, None, 2)  # (the secrets drawn)
    data = json.loads(run(capsys, "simulate", "-r", "p3c3", "-s", "minimax", "--secrets", "5", "--json")[1])
    assert (data["pool"], data["tie_break"]) == ("all", "default")
    # every command that plays a strategy says the same (compare, plot and solve drew a seed)
    for args in (
        ["compare", "-r", "p3c3", "-s", "minimax", "-s", "entropy"],
        ["plot", "-r", "p3c3", "-s", "minimax", "-o", str(tmp_path / "p.svg")],
        ["solve", "-r", "p3c3", "123", "-s", "entropy"],
    ):
        assert json.loads(run(capsys, *args, "--json")[1])["seed"] is None, args
        data = json.loads(run(capsys, *args, "--json", "--tie-break", "random", "--seed", "4")[1])
        assert data["seed"] == 4, args


def test_the_strategies_table_keeps_its_columns_in_line(capsys):
    """Every row's summary starts where the header's does (the longest options ran one
    character past it: a new user's trial)."""
    assert main(["strategies", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["strategies"]
    assert main(["strategies"]) == 0
    lines = capsys.readouterr().out.splitlines()
    starts = {lines[0].index("summary")}
    starts |= {line.index(row["summary"]) for line, row in zip(lines[1 : len(rows) + 1], rows, strict=True)}
    assert len(rows) > 3 and len(starts) == 1
