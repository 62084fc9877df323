"""Every command fed hostile input: one line on standard error and exit code 2, never a traceback.

Most cases run in-process through :func:`mastermind.app.cli.main` (fast); a few go through a
subprocess, as a user would meet them. The commands and their options are read from the CLI
itself, so a new command or option is covered without editing this file.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mastermind.app.cli import build_app, main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = {**os.environ, "PYTHONPATH": ROOT}  # this checkout's code, whatever is installed

# values no option accepts: negative, not finite, not ASCII digits, empty, not numbers, too long
HOSTILE = ["-1", "nan", "inf", "³⁶³²", "", "9" * 5000, "10" * 20, "p4c6\x00"]
MORE_HOSTILE = HOSTILE + ["-inf", "1e999", "1.5e400", "\u202e12", "①②③④", "abc"]
# options whose hostile values may be fine (paths) are tested on their own below
PATH_OPTIONS = {
    "--out",
    "--plot",
    "--checkpoint",
    "--proof",
}  # --checkpoint: see tests/engines/exact/test_frontier.py
# a game small enough that valid options finish at once
# (results takes no --rules: given -r, every value was refused as an unknown option, unseen)
REQUIRED = {"plot": ["--out", "plot.svg"]}  # options a command cannot run without
SMALL = {
    "table": ["--games", "p2c2"],
    "results": ["--games", "p2c2", "--table", "optimal"],
    "plot": ["-r", "p2c2", *REQUIRED["plot"]],
}
SLOW_COMMANDS = {"table", "compare", "results"}  # start a solver process: only errors found before it


def commands() -> dict:
    group = typer.main.get_command(build_app())
    return dict(group.commands)


def value_options(command) -> list[str]:
    """The long names of the options of ``command`` that take a value."""
    names = []
    for param in command.params:
        if getattr(param, "is_flag", False) or param.param_type_name != "option":
            continue
        longs = [o for o in param.opts if o.startswith("--")]
        if longs and longs[0] not in PATH_OPTIONS:
            names.append(longs[0])
    return names


COMMANDS = commands()
GAME_OPTIONS = {"--rules", "--games"}


def run(argv: list[str], stdin: str = "", monkeypatch=None, capsys=None) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, argv) -> None:
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert code == 2, (argv, code, err)
    assert err.count("\n") == 1 and err.startswith("error: "), (argv, err)


def small_game(name: str) -> list[str]:
    return SMALL.get(name, ["-r", "p2c2"])


def test_every_command_is_covered():
    assert {
        "info",
        "score",
        "partition",
        "assist",
        "play",
        "solve",
        "export",
        "verify",
        "heuristics",
        "simulate",
        "table",
        "compare",
        "bounds",
        "cpsat",
        "static",
        "game-value",
        "optimal",
    } <= set(COMMANDS)


# ---- every option of every command, every hostile value ------------------------------------
CASES = [(name, option) for name, command in sorted(COMMANDS.items()) for option in value_options(command)]


@pytest.mark.parametrize("name, option", CASES)
def test_hostile_option_values(name, option, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # results writes into ./results when a value is accepted
    for value in HOSTILE:
        if option in GAME_OPTIONS:  # given alone: the value itself is what is wrong
            argv = [name, option, value, *REQUIRED.get(name, [])]
        else:
            argv = [name, *small_game(name), option, value]
        if name in ("score", "solve", "partition"):
            argv[1:1] = ["11"] * (2 if name == "score" else 1)
        if name == "verify":
            argv[1:1] = ["/dev/null"]
        code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
        assert_one_line_error(code, err, argv)
        # the value itself must be what is refused, not the command line around it
        assert "No such option" not in err and "Missing " not in err, argv
        # ... and the error names the option it was given to
        assert option in err or (option == "--rules" and "-r" in argv), (argv, err)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_and_conflicting_games(name, monkeypatch, capsys):
    for flag in ("-h", "--help"):
        code, out, err = run([name, flag], monkeypatch=monkeypatch, capsys=capsys)
        assert code == 0 and err == "" and "Usage: mastermind" in out
        assert "<bool>" not in out and "{" not in out.split("\n", 3)[1]
    options = {o for p in COMMANDS[name].params for o in p.opts}
    if "--rules" in options:  # a game given twice: refused, not the last one taken
        argv = [name, "--rules", "p2c2", "-r", "p2c3", *REQUIRED.get(name, [])]
        code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
        assert_one_line_error(code, err, argv)
        assert "--rules: given more than once" in err


def test_version(capsys, monkeypatch):
    code, out, err = run(["--version"], monkeypatch=monkeypatch, capsys=capsys)
    from mastermind import __version__
    from mastermind.app.version import version_string

    # one version string: the one results records (with the commit in a checkout)
    assert code == 0 and out == f"mastermind {version_string()}\n"
    assert version_string().split("+")[0] == __version__


# ---- the defects of issue 15, one by one ---------------------------------------------------
@pytest.mark.parametrize(
    "argv, needle",
    [
        (["heuristics", "--seed", "-1"], "--seed: must be at least 0, got -1"),
        (["simulate", "--seed", "-1"], "--seed"),
        (["export", "--seed", "-1"], "--seed"),
        (["assist", "--seed", "-1"], "--seed"),
        (["play", "--seed", "-1"], "--seed"),
        (["solve", "11", "--seed", "-1"], "--seed"),
        (["compare", "--seed", "-1"], "--seed"),
        (["score", "³⁶", "12"], "colour '³'"),
        (["score", "12", "①②"], "colour '①'"),
        (["solve", "①②"], "colour '①'"),
        (["optimal", "--first", "³⁶"], "colour '³'"),
        (["partition", "11", "--memory-limit", "nan"], "positive number of GiB, got nan"),
        (["partition", "11", "--memory-limit", "inf"], "got inf"),
        (["partition", "11", "--memory-limit", "-1"], "got -1"),
        (["partition", "11", "--memory-limit", "0"], "got 0"),
        (
            ["compare", "--time-limit", "inf"],
            "positive number of seconds, got inf (finite; for no time limit leave",
        ),
        (["compare", "--time-limit", "nan"], "got nan"),
        (["table", "--time-limit", "0"], "got 0"),
        (["table", "--row-time-limit", "-1"], "positive number of seconds, got -1"),
        (["cpsat", "--time-limit", "inf"], "got inf"),
        (["static", "--time-limit", "-1"], "got -1"),
        (["cpsat", "--jobs", "100000"], "--jobs: must be at most 1024, got 100000"),
        (["static", "--jobs", "-1"], "got -1"),
        (["table", "--jobs", "-1"], "got -1"),
        (["optimal", "--jobs", "100000"], "must be at most 1024"),
        (["optimal", "--max-guesses", "9" * 5000], "--max-guesses"),
        # one message for one limit (cpsat spoke of a "depth")
        (
            ["optimal", "-r", "p2c3", "--max-guesses", "10"],
            "--max-guesses: must be between 1 and the number of codes (9), got 10",
        ),
        (
            ["cpsat", "-r", "p2c3", "--max-guesses", "10"],
            "--max-guesses: must be between 1 and the number of codes (9), got 10",
        ),
        (["game-value", "-r", "p2c2", "--rules", "p3c3"], "given more than once"),
        (["game-value", "p2c2"], "unexpected extra argument"),
        (["info", "--rules", "p2c2", "--no-repeat"], "No such option: --no-repeat"),
        (["simulate", "--secrets", "1" + "0" * 30], "--secrets"),
        (["verify", ""], "the file name is empty"),
        (["score", "1" * 100000, "12"], "(100000 characters) has 100000 pegs"),  # not echoed whole
        # values checked in the command's body named no option (a new user's trial)
        (["optimal", "--first", "12345"], "--first: code '12345' has 5 pegs"),
        (["optimal", "--start-from", __file__], f"--start-from: {__file__}: "),
        (["optimal", "--out", "/"], "--out: cannot write /: it is a directory"),
        (["export", "--out", "/"], "--out: cannot write /: it is a directory"),
        (["optimal", "--proof", "/"], "--proof: cannot write /: it is a directory"),
        (["optimal", "--proof", "-", "--json"], "--proof - and --json both use standard output"),
        # (a proof went into any name as JSON, where --out refuses an ending that names no format)
        (["optimal", "-r", "p2c2", "--proof", "x.txt"], "--proof: x.txt: .txt names no proof file"),
        (["game-value", "-r", "p2c2", "--proof", "v.svg.gz"], "--proof: v.svg.gz: .svg.gz names no proof"),
        # (one refusal for the same mistake: export and plot said "--json prints a summary ...")
        (["export", "-r", "p2c2", "--json"], "--out - and --json both use standard output"),
        (["export", "-r", "p2c2", "--out", "-", "--json"], "--out - and --json both use standard output"),
        (["optimal", "-r", "p2c2", "--out", "-", "--json"], "--out - and --json both use standard output"),
        (["game-value", "-r", "p2c2", "--proof", "-", "--json"], "--proof - and --json both use standard"),
        (
            ["optimal", "--proof", "p.json.gz", "--max-guesses", "3"],
            "--proof: a proof certifies the plain optimum",
        ),
        (["plot", "-r", "p2c2", "--out", "/"], "--out: cannot write /: it is a directory"),
        # a trailing slash names a folder: "out/" not there was written as the file "out"
        (
            ["optimal", "--out", "not-there/"],
            "--out: cannot write not-there/: a name ending in / is a folder",
        ),
        (["export", "--out", "not-there/"], "--out: cannot write not-there/: a name ending in / is a folder"),
        (["export", "--out", "tree.png"], "--out: tree.png: .png names no tree format"),  # (written as JSON)
        (["results", "--games", "p4c2n"], "--games: p4c2n: without repetition"),
        (["optimal", "-r", "p4c3n"], "--rules: p4c3n: without repetition"),  # (it said "rules" twice)
        # an option that changes nothing was accepted as if it did (a new user's trial)
        (["bounds", "--levels", "0", "--refined"], "--refined bounds the classes below the lookahead"),
        # the colour as typed, the code quoted as everywhere (a new user's trial)
        (["score", "-r", "p4c6", "abcd", "1234"], "colour 'a' is not one of"),
        (["solve", "1123", "-r", "p4c6n"], "code '1123' repeats a colour"),
        (["info", "-r", "p4x6"], "use pPEGScCOLOURS"),
        # a word after an option's value named neither the option nor how to list (a trial)
        (
            ["results", "--games", "p2c3", "p3c3", "p4c4"],
            "--games takes one value each time; give several as --games p2c3,p3c3,p4c4",
        ),
        (["optimal", "-r", "p3c3", "--jobs", "1", "2"], "(2): --jobs takes one value"),
        # "-" is standard output elsewhere: it made a folder named "-" (a new user's trial)
        (["optimal", "--checkpoint", "-"], "--checkpoint: - would be a folder named '-'"),
        (["results", "--games", "p2c2", "--checkpoint", "-"], "--checkpoint: - would be a folder named '-'"),
    ],
)
def test_listed_defects_are_one_line_errors(argv, needle, monkeypatch, capsys):
    name = argv[0]
    if "-r" not in argv and "--rules" not in argv and name != "game-value":
        argv = [name, *small_game(name), *argv[1:]]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert needle in err


def test_out_of_reach_game_says_so_in_readable_units(monkeypatch, capsys):
    # optimal needs the whole score table (heuristics stream rows where the table is too big)
    code, out, err = run(["optimal", "-r", "p20c35"], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, "p20c35")
    assert "out of reach" in err and "about 10^31 codes" in err and "10^50 TiB" in err
    code, out, err = run(["optimal", "-r", "p6c9"], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, "p6c9")
    assert "263.0 GiB" in err and "--memory-limit" in err  # in reach: say how


@pytest.mark.parametrize("name", sorted(n for n, c in COMMANDS.items() if "--rules" in value_options(c)))
def test_a_game_out_of_reach_is_said_of_the_rules_option(name, monkeypatch, capsys):
    """``optimal -r p20c20`` said "p20c20r is out of reach" without naming the option, as
    every other bad value is named (``results --games`` did name it): a new user's trial."""
    code = "1" * 20
    extra = {
        "export": ["-s", "minimax"],
        "partition": [code],
        "score": [code, code],
        "solve": [code],
        "plot": ["--out", "-"],
        "verify": [Path(__file__).parents[1] / "data" / "p4c6r-knuth.txt"],
    }
    argv = [name, "-r", "p20c35", *extra.get(name, [])]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    if code == 0:  # (a command that needs no table: info, score)
        return
    assert_one_line_error(code, err, argv)
    assert err.startswith("error: --rules: p20c35r is out of reach"), err


@pytest.mark.parametrize("name", sorted(n for n, c in COMMANDS.items() if "--games" in value_options(c)))
def test_a_game_out_of_reach_is_said_of_the_games_option(name, monkeypatch, capsys, tmp_path):
    """``table -g p9c9`` said "--rules: ..." of a command that has no --rules."""
    extra = {"results": ["--out", str(tmp_path / "results")]}
    argv = [name, "--games", "p20c35", *extra.get(name, [])]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert err.startswith("error: --games: p20c35r is out of reach"), err


def test_a_memory_limit_too_small_for_the_search_names_what_it_needs(monkeypatch, capsys):
    # it said "needs more memory than 0.01 GiB: its score table alone takes 0.01 GiB"
    code, out, err = run(
        ["optimal", "-r", "p4c7", "--memory-limit", "0.01"], monkeypatch=monkeypatch, capsys=capsys
    )
    assert_one_line_error(code, err, "p4c7 --memory-limit 0.01")
    needed = re.search(r"needs at least ([0-9.]+) GiB of memory, got 0.01 GiB", err)
    assert needed is not None and "--memory-limit" in err
    code, out, err = run(
        ["optimal", "-r", "p4c7", "--memory-limit", needed.group(1), "--time-limit", "0.5", "--json"],
        monkeypatch=monkeypatch,
        capsys=capsys,
    )
    assert code == 0 and json.loads(out)["rules"] == "p4c7r"  # (what it named is enough)


@pytest.mark.parametrize(
    "argv",
    [
        ["optimal", "-r", "p4c6"],
        ["export", "-r", "p4c6", "-s", "optimal", "-o", "{tmp}/tree.json"],
        ["compare", "-r", "p4c6"],
        ["plot", "-r", "p4c6", "-o", "{tmp}/plot.svg"],
        ["table", "--games", "p4c6"],
        ["results", "--games", "p4c6", "--table", "optimal", "--out", "{tmp}/results"],
        ["assist", "-r", "p4c6", "-s", "optimal"],
    ],
)
def test_every_exact_search_keeps_within_the_memory_limit(argv, monkeypatch, capsys, tmp_path):
    """--memory-limit bounds the search as well as the score table, in every command that
    searches the optimum: a limit the table fits in but the search does not is refused before
    any work (export, compare and assist searched within 2 GiB whatever the limit said)."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv] + ["--memory-limit", "0.05"]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert "the exact search of p4c6r needs at least" in err and "got 0.05 GiB" in err, err
    assert err.rstrip().endswith("raise it with --memory-limit"), err
    assert not any(tmp_path.iterdir())  # (nothing written, no folder made)


def test_a_search_without_a_memory_limit_keeps_within_its_tables():
    """The library's search takes its table's memory limit when given none of its own."""
    from mastermind.core.errors import TableTooLarge
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.exact import solve

    with pytest.raises(TableTooLarge, match="got 0.05 GiB"):
        solve(CodeTable(Rules(3, 3), memory_limit=int(0.05 * 2**30)))
    assert solve(CodeTable(Rules(3, 3), memory_limit=2**29)).stats.total == 73


def test_cpsat_depth_100_is_refused_with_its_estimate(monkeypatch, capsys):
    code, out, err = run(["cpsat", "--depth", "100"], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, "cpsat --depth 100")
    assert "out of reach: about 10^110 nodes" in err and "TiB of memory" in err


# ---- files: --out, --plot and verify ------------------------------------------------------
@pytest.mark.parametrize("name", ["export", "optimal"])
def test_out_refusals(name, tmp_path, monkeypatch, capsys):
    locked = tmp_path / "locked.json"
    locked.write_text("keep")
    os.chmod(locked, 0o444)
    for target, needle in (
        (tmp_path, "is a directory"),
        (locked, "read-only"),
        (tmp_path / "no" / "x.json", "does not exist"),
    ):
        argv = [name, "-r", "p2c2", "--out", str(target)]
        code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
        assert_one_line_error(code, err, argv)
        assert needle in err and out == ""
    assert locked.read_text() == "keep"


@pytest.mark.parametrize("name", ["export", "optimal"])
def test_out_writes_with_the_usual_mode_through_symlinks(name, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "tree.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, out, err = run([name, "-r", "p2c2", "--out", str(link)], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 0 and link.is_symlink()
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(target).st_mode & 0o777 == 0o666 & ~umask
    assert json.loads(target.read_text())["rules"] == "p2c2r"
    code, out, err = run([name, "-r", "p2c2", "--out", "-"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 0 and json.loads(out)["rules"] == "p2c2r" and not os.path.exists("-")


def test_plot_refusals(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    for target, needle in (
        (tmp_path, "is a directory"),
        ("-", "--plot - and the table both use standard output: give --plot a .png or .svg file"),
        (tmp_path / "h.txt", "name it .png or .svg"),
    ):
        argv = ["compare", "-r", "p2c2", "--plot", str(target)]
        code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
        assert_one_line_error(code, err, argv)
        assert needle in err


def hostile_files(folder) -> dict:
    """Name -> (path, exit code): 1 when it is no strategy, binary as a cut gzip file (the
    binary file exited 2 and the cut gzip 1, a new user's trial)."""
    files = {
        "binary": (b"\x00\xff\xfe" * 50, 1),
        "truncated": (b'{"rules": "p2c2", "tree": {"candidates": 4,', 1),
        "deep list": (b'{"rules": "p2c2", "tree": ' + b"[" * 10**6 + b"]" * 10**6 + b"}", 1),
        "deep object": (b'{"rules": "p2c2", "tree": ' + b'{"a": ' * 10**6 + b"1" + b"}" * 10**6 + b"}", 1),
        "huge integer": (
            b'{"rules": "p2c2", "tree": {"candidates": ' + b"9" * 5000 + b', "guess": "11"}}',
            1,
        ),
        "huge Irving count": (b"9" * 5000 + b"(11: 0)", 1),
        "count past int64": (
            b'{"rules": "p2c2", "tree": {"candidates": ' + str(2**63).encode() + b', "guess": "11"}}',
            1,
        ),
        "count past the codes": (b'{"rules": "p2c2", "tree": {"candidates": 5, "guess": "11"}}', 1),
        "wrong types": (b'{"rules": 4, "tree": []}', 1),
        "empty": (b"", 1),
        "unicode digits": ("³⁶(①②: 0)".encode(), 1),
    }
    paths = {}
    for name, (data, code) in files.items():
        path = folder / (name.replace(" ", "-") + ".json")
        path.write_bytes(data)
        paths[name] = (path, code)
    paths["directory"] = (folder, 2)
    paths["missing"] = (folder / "missing.json", 2)
    return paths


def test_verify_hostile_files(tmp_path, monkeypatch, capsys):
    # verify's contract: 1 for a file that is no valid strategy, 2 for one it cannot open
    for name, (path, expected) in hostile_files(tmp_path).items():
        code, out, err = run(["verify", str(path)], monkeypatch=monkeypatch, capsys=capsys)
        assert "Traceback" not in err and "internal error" not in err, (name, err)
        assert code == expected and err.count("\n") == 1 and err.startswith("error: "), (name, code, err)


# ---- what people type at the prompts -------------------------------------------------------
TYPED = [
    "³⁶",
    "①②",
    "1B",
    "1W",
    "0",
    "B",
    "W",
    "-",
    "undo",
    "undo",
    "",
    "9" * 5000,
    "\x00",
    "1B1B1B",
    "help",
    "hint",
    "history",
    "12",
    "2B",
]


@pytest.mark.parametrize("name", ["assist", "play"])
def test_sessions_survive_anything_typed(name, monkeypatch, capsys):
    code, out, err = run(
        [name, "-r", "p2c2", "--seed", "3"],
        stdin="\n".join(TYPED) + "\n",
        monkeypatch=monkeypatch,
        capsys=capsys,
    )
    assert code == 0 and "Traceback" not in out + err and "internal error" not in err


# function-scoped fixtures shared by the examples, and no health check on the machine's speed
UNTIMED = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@given(st.lists(st.text(max_size=8), max_size=6))
@settings(max_examples=25, deadline=None, suppress_health_check=UNTIMED)
def test_assist_with_random_lines(monkeypatch, capsys, lines):
    code, out, err = run(
        ["assist", "-r", "p2c3"], stdin="\n".join(lines) + "\n", monkeypatch=monkeypatch, capsys=capsys
    )
    assert code == 0 and "Traceback" not in out + err


# ---- hypothesis over whole command lines ---------------------------------------------------
# commands that finish at once and take values (``strategies`` takes none)
FAST = sorted(name for name in set(COMMANDS) - SLOW_COMMANDS if value_options(COMMANDS[name]))
token = st.one_of(
    st.sampled_from(MORE_HOSTILE),
    st.text(max_size=6),
    st.integers(-(10**30), 10**30).map(str),
    st.floats().map(str),
)


@st.composite
def command_lines(draw):
    name = draw(st.sampled_from(FAST))
    options = value_options(COMMANDS[name])
    argv = [name, *small_game(name)]
    for _ in range(draw(st.integers(1, 3))):
        argv += [draw(st.sampled_from(options)), draw(token)]
    return argv


@given(command_lines())
@settings(max_examples=60, deadline=None, suppress_health_check=UNTIMED)
def test_random_command_lines(monkeypatch, capsys, tmp_path_factory, argv):
    monkeypatch.chdir(tmp_path_factory.getbasetemp())  # plot writes plot.svg: not into the work tree
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert code in (0, 1, 2), (argv, code)
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("error: "), (argv, err)


# ---- a few through a real process ----------------------------------------------------------
@pytest.mark.parametrize(
    "argv, stdin",
    [
        (["heuristics", "--seed", "-1"], ""),
        (["score", "³⁶³²", "1234"], ""),
        (["cpsat", "--depth", "100"], ""),
    ],
)
@pytest.mark.integration
def test_subprocess_one_line_exit_2(argv, stdin):
    result = subprocess.run(
        [sys.executable, "-m", "mastermind", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")


@pytest.mark.integration
def test_subprocess_out_dev_stdout_keeps_the_device(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mastermind", "export", "-r", "p2c2", "-o", "/dev/stdout"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=ENV,
    )
    assert result.returncode == 0 and json.loads(result.stdout)["rules"] == "p2c2r"
    assert os.path.islink("/dev/stdout") or not os.path.isfile("/dev/stdout")


# ---- found in the audit of issue 15 ----------------------------------------------------------
PATH_CASES = [
    (name, option)
    for name, command in sorted(COMMANDS.items())
    for param in command.params
    for option in param.opts
    if option in PATH_OPTIONS
]


@pytest.mark.parametrize("name, option", PATH_CASES)
def test_empty_path_options_are_refused(name, option, tmp_path, monkeypatch, capsys):
    # Path("") is the current folder: an empty name must not write there
    monkeypatch.chdir(tmp_path)
    game = ["--games", "p2c2", "--table", "optimal"] if name == "results" else ["-r", "p2c2"]
    argv = [name, *game, option, ""]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert "empty" in err and os.listdir(tmp_path) == []


def test_results_out_that_cannot_be_created(monkeypatch, capsys):
    argv = ["results", "--games", "p2c2", "--out", "/proc/no-such-folder"]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert "cannot create the folder" in err


@pytest.mark.integration
def test_an_unwritable_output_folder_is_refused_before_the_work(tmp_path):
    # a read-only mount (where root cannot write either): the search of p4c7 (seconds) and
    # the results rows used to be computed first, and lost
    folder = tmp_path / "ro"
    folder.mkdir()
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "optimal.json").write_text("not json")
    script = (
        f"mount -t tmpfs -o ro tmpfs {folder} || exit 99; "
        f"{sys.executable} -m mastermind optimal -r p4c7 --no-cache --out {folder}/x.json; echo $?; "
        f"{sys.executable} -m mastermind compare -r p4c7 --plot {folder}/x.png; echo $?; "
        f"{sys.executable} -m mastermind results --games p3c3 --out {folder}; echo $?; "
        f"{sys.executable} -m mastermind results --games p3c3 --out {tmp_path / 'results'}; echo $?"
    )
    try:
        proc = subprocess.run(
            ["unshare", "-m", "sh", "-c", script], env=ENV, capture_output=True, text=True, timeout=120
        )
    except FileNotFoundError:
        pytest.skip("needs unshare (util-linux) to mount a read-only folder")
    if proc.returncode == 99 or "unshare:" in proc.stderr:
        pytest.skip(f"cannot mount a read-only folder here: {proc.stderr.strip()[:100]}")
    assert proc.stdout.split() == ["2", "2", "2", "2"], proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 4 and all(line.startswith("error: ") for line in lines), lines
    assert sum("is not writable" in line for line in lines) == 3 and "is not JSON" in lines[3]


@pytest.mark.parametrize(
    "extra, needle",
    [
        (["--scheduler", "garbage"], "--scheduler: not a scheduler address: 'garbage' (give one such as"),
        (["--scheduler", "tcp://host:99999"], "--scheduler: not a scheduler address"),
        (["--scheduler", "http://host:8786"], "--scheduler: not a scheduler address"),
        (["--backend", "processes", "--scheduler", "host:8786"], "--scheduler needs --backend dask"),
        (["--backend", "threads", "--scheduler", "host:8786"], "--scheduler needs --backend dask"),
        (["--checkpoint", __file__], "is a file, not a checkpoint folder"),
    ],
)
def test_optimal_refuses_before_compiling_or_building(extra, needle, monkeypatch, capsys):
    """A first run compiles the kernels for half a minute: bad options are refused before."""
    from mastermind.engines.exact import warmup

    def must_not_run(*args, **kwargs):
        raise AssertionError("the kernels were compiled before the options were checked")

    monkeypatch.setattr(warmup, "ensure_compiled", must_not_run)
    argv = ["optimal", "-r", "p2c2", "--no-cache", *extra]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert needle in err


# counts of one in words: "1 pegs", "1 games", "1 best replies" were printed
ONE_PLURAL = re.compile(
    r"\b1 (pegs|colours|games|guesses|secrets|codes|nodes|trees|best replies|candidates|work units)\b"
)


@pytest.mark.parametrize(
    "argv, stdin",
    [
        (["info", "-r", "p1c1"], ""),
        (["simulate", "-r", "p1c2", "--secrets", "1"], ""),
        (["game-value", "-r", "p1c1"], ""),
        (["score", "1", "11", "-r", "p2c2"], ""),
        (["play", "-r", "p1c3", "--seed", "1"], "\n1\n2\n3\n"),
        (["assist", "-r", "p1c2"], "\n0\n"),
        (["heuristics", "-r", "p1c1", "-s", "minimax"], ""),
        (["cpsat", "-r", "p1c1"], ""),
        (["static", "-r", "p1c1"], ""),
        (["partition", "1", "-r", "p1c1"], ""),
        (["optimal", "-r", "p1c1", "--no-cache"], ""),
        (["verify", "-", "-r", "p1c1"], "1\n"),
        (["verify", "-", "-r", "p1c2"], "2 (1: 1)\n"),
    ],
)
def test_counts_of_one_are_singular(argv, stdin, monkeypatch, capsys):
    code, out, err = run(argv, stdin=stdin, monkeypatch=monkeypatch, capsys=capsys)
    assert "Traceback" not in err and "internal error" not in err, err
    assert ONE_PLURAL.search(out + err) is None, out + err
    assert "-0.0" not in out  # the entropy of a single class
    if argv[0] in ("cpsat", "static"):  # one code: the default depth fits, nothing is left blank
        assert code == 0 and not out.rstrip().endswith(":"), out


def test_plural_forms():
    from mastermind.core.words import plural

    assert [plural(n, w) for n, w in [(1, "peg"), (0, "peg"), (2, "guess"), (2, "best reply")]] == [
        "1 peg",
        "0 pegs",
        "2 guesses",
        "2 best replies",
    ]


def shell(command: str, **kwargs) -> subprocess.CompletedProcess:
    """``command`` through sh, with ``mastermind`` meaning this checkout's module."""
    return subprocess.run(
        ["sh", "-c", command.replace("mastermind", f"{sys.executable} -m mastermind", 1)],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
        **kwargs,
    )


@pytest.mark.parametrize(
    ("command", "code", "said"),
    [
        ("mastermind play -r p2c2 --seed 1 <&-", 0, None),  # standard input closed: like an empty one
        ("mastermind assist -r p2c2 <&-", 0, None),
        # standard output closed: the answer cannot be written, as on a full disk (exit 0, lost)
        (
            "mastermind export -r p2c2 --out - >&-",
            2,
            "error: cannot write the output: standard output is closed\n",
        ),
        ("mastermind info >&-", 2, "error: cannot write the output: standard output is closed\n"),
        ("mastermind info --json 1</dev/null", 2, None),  # (open for reading only: the same)
        # standard error closed: the refusal goes nowhere, its exit code stays (it gave 1 where
        # a wrapper script left the descriptor open for reading only)
        ("mastermind info --bogus 2>&-", 2, None),
        ("mastermind info --bogus 2</dev/null", 2, None),
    ],
)
@pytest.mark.integration
def test_closed_standard_streams(command, code, said):
    result = shell(command)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert result.returncode == code, result.stderr
    if said is not None:
        assert result.stderr == said


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["mastermind info -r p2c2", "mastermind export -r p2c2 --out -"])
@pytest.mark.integration
def test_full_disk_is_one_line(command):
    result = shell(command + " > /dev/full")
    assert result.returncode == 2, result.stderr
    assert result.stderr == "error: cannot write the output: No space left on device\n"


@pytest.mark.integration
def test_plot_to_dev_stdout_is_svg(tmp_path):
    pytest.importorskip("matplotlib", reason="plot needs the plot extra")
    result = shell("mastermind plot -r p2c2 -s minimax --out /dev/stdout", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("<?xml"), result.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("value", ["٢", "1_0", "+2", "2-٣", "2-1", "9" * 5000])
@pytest.mark.parametrize("name", ["table", "results"])
def test_game_ranges_read_ascii_numbers_only(value, name, monkeypatch, capsys):
    # int() reads "1_0" as 10 and "٢" as 2; every other option refuses them
    argv = [name, "--games", f"p{value}c2"]
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert err.startswith("error: --games: ") and out == ""


@pytest.mark.parametrize(
    "args",
    [
        ["heuristics", "-r", "p3c4"],  # a rich table (rich itself exited with 1)
        ["info", "-r", "p3c4"],
        ["heuristics", "-r", "p3c4", "--json"],
        ["score", "1234", "1243"],
        ["--help"],  # typer's and rich's own printing (both exited with 1)
        ["simulate", "--help"],
    ],
)
@pytest.mark.integration
def test_a_reader_that_left_is_no_error(args):
    """`mastermind ... | head -1`: the reader closed the pipe; exit code 0, nothing on stderr."""
    read, write = os.pipe()
    os.close(read)  # before the command writes anything: every write fails
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "mastermind", *args],
            cwd=ROOT,
            env=ENV,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (0, "")


@pytest.mark.parametrize("out", [["--out", "-"], []])
@pytest.mark.parametrize("unbuffered", ["1", ""])
@pytest.mark.integration
def test_a_file_on_standard_output_whose_reader_left_part_way_is_not_said_written(out, unbuffered):
    """`export --out - | (read 1000 bytes; exit)`: the write came back short (the part the pipe
    took) and Python's writer took it for the whole, so export said it wrote the tree. Now the
    rest of the tree meets the closed pipe: the reader left, exit code 0 and nothing said."""
    read, write = os.pipe()
    if hasattr(fcntl, "F_SETPIPE_SZ"):
        fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)  # (far less than the tree, on any machine)
    env = {**ENV, "PYTHONUNBUFFERED": unbuffered}
    args = [sys.executable, "-m", "mastermind", "export", "-r", "p4c6", "-s", "minimax", *out]
    try:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=write, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write)
    try:
        assert len(os.read(read, 1000)) > 0  # (the tree began: the command is writing it)
    finally:
        os.close(read)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, "")


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="needs /sys, where nobody may create a file")
@pytest.mark.parametrize(
    "argv",
    [
        ["optimal", "-r", "p3c3", "--no-cache", "--out", "/sys/x.json"],
        ["export", "-r", "p3c3", "-s", "optimal", "--out", "/sys/x.json"],
        ["compare", "-r", "p3c3", "--plot", "/sys/x.png"],
        ["plot", "-r", "p3c3", "--out", "/sys/x.png"],
        ["results", "-g", "p3c3", "--out", "/sys/kernel"],
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_work(argv, monkeypatch, capsys):
    """An unwritable --out (/sys/x.json, a read-only folder) was found after the work: the
    permission bits say nothing to root there; a file is tried before any work."""
    if argv[0] in ("compare", "plot"):
        pytest.importorskip("matplotlib", reason="drawing needs the plot extra")
    import mastermind.app.comparisons as comparisons
    import mastermind.engines.exact as exact

    def no_work(*args, **kwargs):
        raise AssertionError("the work started before the output was checked")

    monkeypatch.setattr(exact, "solve", no_work)
    monkeypatch.setattr(comparisons, "compare", no_work)
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert "/sys/" in err and "not writable" in err


def test_files_given_to_an_option_are_refused_in_its_name(tmp_path, monkeypatch, capsys):
    """A file of the wrong game, a tree the consistent pool cannot start from, a checkpoint
    of another search: said of --strategy, --start-from and --checkpoint (a new user's trial)."""
    tree = str(tmp_path / "p3c4.json")
    folder = str(tmp_path / "ck")
    for argv in (["optimal", "-r", "p3c4", "--out", tree], ["optimal", "-r", "p3c4", "--checkpoint", folder]):
        assert run(argv, monkeypatch=monkeypatch, capsys=capsys)[0] == 0
    for argv, needle in (
        (["export", "-r", "p3c3", "-s", tree], f"--strategy: {tree}: the file is a strategy for p3c4r"),
        (["simulate", "-r", "p3c3", "-s", tree], "--strategy: "),
        (["optimal", "-r", "p3c4", "--pool", "consistent", "--start-from", tree], "--start-from: the"),
        (["optimal", "-r", "p3c4", "--objective", "worst", "--checkpoint", folder], "--checkpoint: "),
    ):
        code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
        assert_one_line_error(code, err, argv)
        assert needle in err, (argv, err)


@pytest.mark.parametrize("debug", ["", "0", "false", "1"])
def test_a_bug_exits_70_whether_or_not_debugging(debug, monkeypatch, capsys):
    """MASTERMIND_DEBUG=0 turned debugging on, and debugging ended a bug with exit code 1
    (this tool's "no" answer) instead of 70."""
    import mastermind.app.commands.basics as basics

    def broken(*args, **kwargs):
        raise KeyError("planted")

    monkeypatch.setenv("MASTERMIND_DEBUG", debug)
    monkeypatch.setattr(basics, "canonical_first_guesses", broken)
    code = main(["info", "-r", "p2c2"])
    err = capsys.readouterr().err
    assert code == 70
    assert ("Traceback" in err) == (debug == "1")
    assert "KeyError" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["optimal", "-r", "p2c3", "--start-from"],
        ["heuristics", "-r", "p2c3", "-s"],
        ["simulate", "-r", "p2c3", "-s"],
    ],
)
def test_a_tree_file_whose_statistics_lie_is_refused_as_verify_refuses_it(
    argv, tmp_path, monkeypatch, capsys
):
    """``--start-from`` read files "as verify reads them", yet took one whose header says a
    total its tree does not give (a new user's trial)."""
    good = tmp_path / "t.json"
    assert run(["export", "-r", "p2c3", "--out", str(good)], monkeypatch=monkeypatch, capsys=capsys)[0] == 0
    doc = json.loads(good.read_text())
    doc["stats"]["total"] -= 1
    bad = tmp_path / "lies.json"
    bad.write_text(json.dumps(doc))
    assert run(["verify", str(bad)], monkeypatch=monkeypatch, capsys=capsys)[0] == 1
    code, out, err = run([*argv, str(bad)], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert "stats say total" in err


@pytest.mark.parametrize(
    ("argv", "advice"),
    [
        (
            ["optimal", "-r", "p2c2", "--time-limit", "inf"],
            "(finite; for no time limit leave the option out)",
        ),
        (["table", "--games", "p2c2", "--row-time-limit", "inf"], "(finite: at most 10,000,000 seconds)"),
        (["results", "--games", "p2c2", "--row-time-limit", "inf"], "(finite: at most 10,000,000 seconds)"),
        (["optimal", "-r", "p2c2", "--memory-limit", "inf"], "(finite: at most 1,048,576 GiB)"),
    ],
)
def test_an_endless_limit_is_refused_with_advice_that_holds(argv, advice, monkeypatch, capsys):
    """Left out, --row-time-limit is 600 s, not unlimited: it was advised as --time-limit is."""
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert err.rstrip().endswith(advice), err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["score", "12x4", "1234"], "SECRET"),
        (["score", "1234", "12x4"], "GUESS"),
        (["solve", "12x4"], "SECRET"),
        (["partition", "1234", "12x4"], "GUESSES"),
    ],
)
def test_a_bad_code_argument_is_named(argv, named, monkeypatch, capsys):
    """score said only "code '12x4': ...", not whether the secret or the guess was wrong."""
    code, out, err = run([*argv, "-r", "p4c6"], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert err.startswith(f"error: {named}: code '12x4': "), err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "1234", "-s", "optimal", "--tie-break", "random"],
        ["export", "-s", "optimal", "--tie-break", "sorted"],
        ["simulate", "-s", "random", "--tie-break", "sorted"],
        ["assist", "-s", "simple", "--tie-break", "random"],
        ["play", "-s", "random", "--tie-break", "sorted"],
        # (commands of several strategies given one: they took it, 0, as if it were used)
        ["heuristics", "-s", "simple", "--tie-break", "sorted"],
        ["compare", "-s", "random", "--tie-break", "random"],
        ["plot", "-o", "never.png", "-s", "optimal", "--tie-break", "sorted"],
    ],
)
def test_one_strategy_refuses_an_option_it_does_not_take(argv, monkeypatch, capsys):
    """`solve -s optimal --tie-break random --json` said "tie_break": "random" of a strategy
    that has no such tie-break; a command that plays one strategy now refuses it."""
    code, out, err = run([*argv, "-r", "p4c6"], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    option, value = argv[-2:]
    assert err.startswith(
        f"error: {option} {value}: the strategy {argv[argv.index('-s') + 1]} takes no {option}"
    )


@pytest.mark.parametrize("command", ["heuristics", "compare", "plot"])
def test_several_strategies_none_of_which_takes_the_tie_break_refuse_it(command, monkeypatch, capsys):
    argv = [command, "-s", "simple", "-s", "random", "-s", "optimal", "--tie-break", "sorted"]
    argv += ["-o", "never.png"] if command == "plot" else []
    code, out, err = run([*argv, "-r", "p3c3"], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    given = "simple, random, optimal"
    assert err == f"error: --tie-break sorted: none of the strategies given ({given}) takes a --tie-break\n"


def test_several_strategies_take_each_the_options_that_apply(capsys, tmp_path):
    """Among several strategies an option applies to those that take it (no refusal); and
    --pool consistent is what simple and random play anyway (no refusal either). (Only the
    exit codes were checked: each option is now seen to apply where it should, and only there.)"""

    def strategies(*options: str) -> dict:
        argv = ["heuristics", "-r", "p3c3", "-s", "minimax", "-s", "simple", *options, "--json", "--no-cache"]
        assert main(argv) == 0
        data = json.loads(capsys.readouterr().out)
        return {row["strategy"]: row for row in data["strategies"]}

    plain, tied = strategies(), strategies("--tie-break", "sorted")
    # minimax takes it: sorted class sizes first find Knuth's 73 on 3x3 where the default finds 74
    assert (plain["minimax"]["total"], tied["minimax"]["total"]) == (74, 73)
    assert tied["simple"] == plain["simple"] and plain["simple"]["total"] == 89  # simple has no ties
    trees = []
    for pool in ("consistent", "all"):
        assert main(["export", "-r", "p3c3", "-s", "simple", "--pool", pool, "-o", "-"]) == 0
        trees.append(capsys.readouterr().out)
    assert trees[0] == trees[1] and json.loads(trees[0])["stats"]["total"] == 89  # (the same tree)
    tree = tmp_path / "simple.json"
    tree.write_text(trees[0])
    assert main(["verify", str(tree), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["valid"] and verdict["pool"] == "consistent" and verdict["total"] == 89


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["optimal", "-r", "p2c2", "--time-limit", "abc"], "--time-limit: must be a number, got 'abc'"),
        (["export", "-r", "p2c2", "--seed", "abc"], "--seed: must be a whole number, got 'abc'"),
        (["optimal", "-r", "p2c2", "--jobs", "1.5"], "--jobs: must be a whole number, got '1.5'"),
    ],
)
def test_a_value_of_the_wrong_type_is_said_as_every_refusal_is(argv, said, monkeypatch, capsys):
    """Click said "'abc' is not a valid float.", unlike every other refusal of a value."""
    code, out, err = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, argv)
    assert err == f"error: {said}\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "-o", "never.json"],
        ["compare"],
        ["plot", "-o", "never.png"],
        ["solve", "123456789"],
        ["assist"],
        ["heuristics"],
    ],
)
def test_a_game_out_of_reach_named_by_a_strategy_file_is_said_of_the_file(
    argv, tmp_path, monkeypatch, capsys
):
    """`export -s FILE` of a 9x9 tree (no --rules) said "--rules: p9c9r is out of reach",
    naming an option not given; the game is the file's, and the refusal now says so."""
    tree = tmp_path / "p9c9.json"
    root = {"candidates": 9**9, "guess": "123456789"}
    tree.write_text(
        json.dumps({"format": "mastermind-strategy", "version": 1, "rules": "p9c9r", "tree": root})
    )
    command = [argv[0], "-s", str(tree), *argv[1:]]
    code, out, err = run(command, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, command)
    if argv[0] == "heuristics":  # (plays without the score table: its codes alone are too many)
        assert err.startswith("error: p9c9r needs about 10.1 GiB for its codes and the work over them"), err
        return
    assert err.startswith(f"error: --strategy: {tree}: p9c9r is out of reach: "), err
    code, out, err = run([*command, "-r", "p9c9"], monkeypatch=monkeypatch, capsys=capsys)
    assert err.startswith("error: --rules: p9c9r is out of reach: "), err


@pytest.mark.parametrize("argv", [["heuristics"], ["simulate", "-s", "minimax", "-n", "1"]])
def test_a_heuristic_without_the_table_counts_the_keys_of_every_code(argv, monkeypatch, capsys):
    """A heuristic keys every code as a guess (a float64 each): p8c8 at --memory-limit 0.44
    peaked at 629 MB of RSS, past the 416 MiB its codes and their work were counted."""
    from mastermind.core.game import GUESS_KEYS_BYTES, LEAN_WORK_BYTES, Rules

    command = [*argv, "-r", "p8c8", "--memory-limit", "0.44", "--json"]
    code, out, err = run(command, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, command)
    need = Rules(8, 8).lean_bytes(LEAN_WORK_BYTES + GUESS_KEYS_BYTES) / 1024**2
    assert err.startswith(f"error: p8c8r needs about {need:.1f} MiB for its codes and the work"), err


@pytest.mark.parametrize("command", ["assist", "play"])
def test_a_session_s_help_does_not_offer_standard_input_for_its_strategy(command, monkeypatch, capsys):
    """Their --help said "- reads standard input" of --strategy, which they refuse (standard
    input holds the session's moves)."""
    assert main([command, "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert "strategy file (JSON or Irving text)" in help_text and "- reads standard input" not in help_text
    code, out, err = run([command, "-s", "-"], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_line_error(code, err, [command, "-s", "-"])
    assert "standard input holds this session's moves" in err
