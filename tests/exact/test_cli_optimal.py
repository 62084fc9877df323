"""``mastermind optimal`` at the command line."""

import json

import pytest

from mastermind.app.cli import main
from mastermind.core.game import CodeTable, Rules


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output(capsys):
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert {"rules", "objective", "total", "secrets", "average", "worst", "histogram",
            "first_guess", "proven", "seconds"} <= set(data)
    assert (data["total"], data["secrets"], data["worst"], data["proven"]) == (73, 27, 4, True)
    assert sum(data["histogram"]) == 27


def test_by_first_guess_lists_every_canonical_first_guess(capsys):
    code, out, _ = run(capsys, "optimal", "-r", "p4c4", "--by-first-guess", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["first_guess"] for r in rows] == ["1111", "1112", "1122", "1123", "1234"]
    assert min(r["total"] for r in rows) == 905


def test_options_reach_the_solver(capsys):
    _, out, _ = run(capsys, "optimal", "-r", "p3c3", "--objective", "worst", "--pool",
                    "consistent", "--max-guesses", "4", "--tie-break", "--json")
    data = json.loads(out)
    assert data["worst"] <= 4 and data["pool"] == "consistent"
    _, out, _ = run(capsys, "optimal", "-r", "p3c3", "--first", "123", "--json")
    assert json.loads(out)["first_guess"] == "123"


def test_out_writes_the_tree(tmp_path, capsys):
    target = tmp_path / "tree.json"
    code, out, _ = run(capsys, "optimal", "-r", "p3c3", "--out", str(target))
    assert code == 0 and "73" in out
    from mastermind.app.formats.jsonfmt import read_json

    tree, header = read_json(target.read_text())
    assert tree.stats(CodeTable(Rules(3, 3))).total == 73
    assert header["stats"]["total"] == 73


def test_bad_input_exits_2_with_one_line(capsys):
    for args in (["--first", "9"], ["--objective", "mean"], ["--max-guesses", "0"],
                 ["--max-guesses", "10" * 30], ["--first", "123", "--by-first-guess"], ["--pool", "x"],
                 ["--tie-break", "x"], ["--jobs", "100000"], ["--jobs", "-1"]):
        code, out, err = run(capsys, "optimal", "-r", "p3c3", *args)
        assert code == 2, args
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)


@pytest.mark.parametrize("extra", [[], ["--by-first-guess"], ["--first", "123"]])
def test_no_strategy_within_max_guesses_is_an_answer_exit_1(capsys, extra):
    # p3c3 needs 3 guesses in the worst case: within 2 there is no strategy, with or without
    # --by-first-guess (which used to print an empty table and exit 0)
    code, out, err = run(capsys, "optimal", "-r", "p3c3", "--max-guesses", "2", *extra)
    assert code == 1 and out == ""
    assert err.strip() == "no strategy solves every secret of p3c3r within 2 guesses" + (
        " starting with 123" if extra[:1] == ["--first"] else "")


def test_tie_break_value_and_old_flag_spelling(capsys):
    results = {}
    for args in (["--tie-break"], ["--tie-break", "worst"], ["--tie-break", "none"], []):
        code, out, _ = run(capsys, "optimal", "-r", "p3c3", *args, "--json")
        assert code == 0
        results[" ".join(args)] = json.loads(out)["total"]
    assert set(results.values()) == {73}


def test_out_dash_is_standard_output(capsys):
    code, out, err = run(capsys, "optimal", "-r", "p2c3", "--out", "-")
    assert code == 0 and json.loads(out)["rules"] == "p2c3r"
    code, out, err = run(capsys, "optimal", "-r", "p2c3", "--out", "-", "--json")
    assert code == 2 and "standard output" in err
