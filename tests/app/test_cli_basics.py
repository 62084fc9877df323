"""info, score, partition and the shared error handling of the CLI."""

import json
import os
import subprocess
import sys

import pytest

from mastermind.app.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_score(capsys):
    assert run(capsys, "score", "3632", "3526") == (0, "1B2W\n", "")
    code, out, _ = run(capsys, "score", "1 2 3 4", "4,3,2,1", "--json")
    assert code == 0 and json.loads(out)["feedback"] == "0B4W"


def test_info_json(capsys):
    code, out, _ = run(capsys, "info", "--rules", "p4c6", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["codes"] == 1296 and data["answers"] == len(data["feedbacks"]) == 14
    assert data["canonical_first_guesses"] == ["1111", "1112", "1122", "1123", "1234"]
    code, out, _ = run(capsys, "info", "--rules", "p5c8n", "--json")
    data = json.loads(out)
    assert data["rules"] == "p5c8n" and data["codes"] == 6720 and data["canonical_first_guesses"] == ["12345"]
    assert (data["pegs"], data["colours"], data["repetition"]) == (5, 8, False)


def test_partition_json(capsys):
    code, out, _ = run(capsys, "partition", "1111", "1112", "1122", "1123", "1234", "--json")
    data = json.loads(out)
    assert code == 0 and data["rules"] == "p4c6r"
    parts = data["partitions"]
    assert [p["guess"] for p in parts] == ["1111", "1112", "1122", "1123", "1234"]
    sizes = [{c["feedback"]: c["size"] for c in p["classes"]} for p in parts]
    assert [s["0B0W"] for s in sizes] == [625, 256, 256, 81, 16]
    assert [s["1B1W"] for s in sizes] == [0, 156, 208, 230, 252]
    assert all(len(s) == 14 and sum(s.values()) == 1296 for s in sizes)
    assert [p["largest_class"] for p in parts] == [625, 317, 256, 276, 312]
    assert [p["parts"] for p in parts] == [5, 11, 13, 14, 14]
    assert parts[2]["expected_size"] == pytest.approx(204.535, abs=1e-3)
    assert parts[4]["entropy_bits"] == pytest.approx(3.0567, abs=1e-4)


def test_partition_table_text(capsys):
    code, out, _ = run(capsys, "partition", "1122", "--rules", "p4c6")
    assert code == 0 and "256" in out and "largest" in out


@pytest.mark.parametrize(
    "args,needle",
    [
        (["info", "--rules", "p0c6"], "pegs"),
        (["info", "--rules", "p5c4n"], "colours must be at least pegs"),
        (["info", "--rules", "banana"], "banana"),
        (["score", "1123", "11234"], "11234"),
        (["score", "1173", "1123"], "'7'"),
        (["partition", "1123", "--rules", "p4c6n"], "repeats"),
        (["info", "--rules", "p4c6", "--rules", "p3c3"], "--rules: given more than once"),
        (["info", "--pegs", "3"], "No such option: --pegs"),
        (["partition", "1111", "--rules", "p9c9", "--memory-limit", "0"], "memory-limit"),
        (["nosuchcommand"], "nosuchcommand"),
        (["score", "1234"], "Missing"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, args, needle):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err
    assert "Traceback" not in err


@pytest.mark.integration
def test_console_script_exit_code():
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind.app.cli", "score", "3632", "3B1W"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error:")


def test_no_command_prints_the_help_and_nothing_on_stderr(capsys):
    code, out, err = run(capsys)
    assert code == 2 and "Commands" in out and err == ""  # (it wrote an empty line there)


def test_the_memory_limit_is_advised_only_where_the_command_has_it(capsys, tmp_path):
    code, out, err = run(capsys, "optimal", "-r", "p6c6")
    assert code == 2 and "2.03 GiB" in err and "above the memory limit of 2.00 GiB" in err
    assert err.rstrip().endswith("raise it with --memory-limit")
    code, out, err = run(capsys, "score", "1234567891", "1234567891", "-r", "p10c10")
    assert code == 0 and out == "10B0W\n"  # (score builds no table: nothing to advise)
    code, out, err = run(capsys, "results", "--games", "p6c6", "--table", "optimal", "--out", str(tmp_path))
    assert code == 2 and "above the memory limit" in err and "--memory-limit" in err  # (results has it now)


def test_score_builds_nothing_whatever_the_game(capsys, monkeypatch):
    """`score 123456781 123456718 -r p9c9` grew to 9.5 GB: it built every code to score two."""
    import mastermind.core.game as game

    def no_table(*args, **kwargs):
        raise AssertionError("a table of every code was built to score two codes")

    monkeypatch.setattr(game.CodeTable, "__init__", no_table)
    monkeypatch.setattr(game.Rules, "codes_array", no_table)
    code, out, err = run(capsys, "score", "123456781", "123456718", "-r", "p9c9")
    assert (code, out, err) == (0, "7B2W\n", "")
    secret, guess = "1" * 10 + "Z" * 10, "Z" + "1" * 19
    code, out, _ = run(capsys, "score", secret, guess, "-r", "p20c35", "--json")  # 35^20 codes
    assert code == 0 and json.loads(out)["feedback"] == "9B2W"


def test_the_command_line_turns_numba_colours_off_before_numba_loads(monkeypatch):
    """numba's coloured error messages init colorama, whose exit hook writes ESC[0m to the
    terminal: the console script turns them off (``import mastermind`` leaves them alone)."""
    from mastermind.app import cli

    monkeypatch.delenv("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", raising=False)
    monkeypatch.setattr(cli, "main", lambda: 0)
    with pytest.raises(SystemExit) as done:
        cli.run()
    assert done.value.code == 0 and os.environ["NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"] == "1"


def _long_options(command: str) -> list[str]:
    import typer

    from mastermind.app.cli import build_app

    group = typer.main.get_group(build_app())
    ctx = group.make_context("mastermind", [command], resilient_parsing=True)
    sub = group.get_command(ctx, command)
    return sorted(
        {o for p in sub.get_params(ctx) for o in (*p.opts, *p.secondary_opts) if o.startswith("--")}
    )


def _every_command() -> list[str]:
    from mastermind.app.cli import COMMANDS

    return [name for names in COMMANDS.values() for name in names]


@pytest.mark.parametrize("command", _every_command())
def test_a_mistyped_option_is_told_its_closest_names_or_none(capsys, command):
    """`optimal --bogus` suggested "Possible options: --jobs, --out" (difflib, fooled by the
    dashes): an unknown option is told the command's options within a few edits of it, the
    nearest first, or none, for every command."""
    code, out, err = run(capsys, command, "--bogus")
    assert (code, out, err) == (2, "", "error: No such option: --bogus\n")
    for option in _long_options(command):
        word = option[2:]
        if len(word) < 4:
            continue
        swapped = "--" + word[0] + word[2] + word[1] + word[3:]  # two letters swapped
        if swapped == option:
            continue
        code, out, err = run(capsys, command, swapped)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith(f"error: No such option: {swapped} (Possible options: {option}")
