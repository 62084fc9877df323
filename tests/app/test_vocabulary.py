"""One vocabulary: an idea has one option name, one meaning and one default in every command.

IDEAS is the table of the README's "One vocabulary": each option and the commands that take
it. A new command or option must find its place here, with the name the others use.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import typer

from mastermind.app.cli import build_app, main

GROUP = typer.main.get_command(build_app())
COMMANDS = dict(GROUP.commands)
LONG = {"heuristics", "simulate", "export", "solve", "table", "compare", "plot", "bounds", "cpsat"}
LONG |= {"static", "game-value", "optimal", "results"}  # the commands that can run long
A_GAME = {"info", "score", "partition", "assist", "play", "solve", "export", "verify", "heuristics"}
A_GAME |= {"simulate", "compare", "plot", "bounds", "cpsat", "static", "game-value", "optimal"}
PLAYS = {"assist", "play", "solve", "export", "heuristics", "simulate", "compare", "plot"}  # a strategy
TABLES = A_GAME - {"info", "score"} | {"table", "results"}  # build a table of codes
CHANCE = {"assist", "play", "solve", "export", "heuristics", "simulate", "compare", "plot", "cpsat", "static"}
PARALLEL = {"optimal", "game-value", "compare", "plot", "table", "results", "cpsat", "static", "export"}

# option -> (short flag, the commands that take it)
IDEAS = {
    "--rules": ("-r", A_GAME),  # one game
    "--games": ("-g", {"table", "results"}),  # a set of games
    "--json": (None, set(COMMANDS)),
    "--time-limit": (None, LONG),  # the whole command, default none
    "--row-time-limit": (None, {"table", "results"}),  # one game's row
    "--jobs": ("-j", PARALLEL),  # every kind of parallelism, default 0: every core
    "--seed": (None, CHANCE),  # drawn and reported when not given
    "--strategy": ("-s", PLAYS),  # NAME or FILE
    "--pool": (None, PLAYS | {"optimal"}),
    "--tie-break": (None, PLAYS | {"optimal"}),
    # (verify shows the facts it checks, with no --time-limit: a check cut short proves nothing,
    # and exit code 0, a time limit's, would read as valid)
    "--progress": (None, (LONG - {"table"}) | {"table", "assist", "play", "verify"}),
    "--memory-limit": (None, TABLES),
    "--no-cache": (None, {"optimal", "heuristics"}),  # the commands with a result cache
    "--out": ("-o", {"export", "optimal", "plot", "results"}),
    "--checkpoint": (None, {"optimal", "results"}),
    "--format": ("-f", {"export", "verify"}),
    "--max-guesses": (None, {"optimal", "cpsat"}),  # a cap on the guesses (cpsat's --depth before)
    "--proof": (None, {"optimal", "game-value"}),  # a proof file that verify checks
}
# options whose help differs from command to command, and why
VARIANTS = {
    "--out": "what each command writes (a tree, a picture, the folder of tables)",
    "--strategy": "one strategy, or several with their own default",
    "--tie-break": "among a heuristic's equal guesses, or among optimal strategies",
    "--format": "export writes four formats, verify reads two",
    "--rules": "the same game option; verify's defaults to the game its file names",
    "--max-guesses": "no cap in optimal; cpsat's model needs one, from the lookahead bound",
    "--proof": "what each proves: optimal's optimum, game-value's value of the game (which may go to -)",
    # (a new user took the limit for ignored where these commands quietly played without the
    # table: their help says so)
    "--memory-limit": "the commands that can go without the score table do, where it does not fit",
}


def options_of(command) -> dict:
    return {
        next(o for o in p.opts if o.startswith("--")): p
        for p in command.params
        if p.param_type_name == "option" and any(o.startswith("--") for o in p.opts)
    }


@pytest.mark.parametrize("option", sorted(IDEAS))
def test_each_idea_has_one_option_wherever_it_applies(option):
    short, expected = IDEAS[option]
    having = {name for name, cmd in COMMANDS.items() if option in options_of(cmd)}
    assert having == expected, (option, sorted(having ^ expected))
    for name in having:
        param = options_of(COMMANDS[name])[option]
        shorts = {o for o in param.opts if not o.startswith("--")}
        assert shorts == ({short} if short else set()), (name, option, shorts)


def test_an_option_means_the_same_in_every_command():
    seen: dict[str, set] = {}
    for cmd in COMMANDS.values():
        for option, param in options_of(cmd).items():
            seen.setdefault(option, set()).add((param.help, repr(param.default), param.metavar))
    differing = {option for option, forms in seen.items() if len(forms) > 1}
    assert differing == set(VARIANTS)


@pytest.mark.parametrize("option", ["--time-limit", "--seed", "--memory-limit"])
def test_one_default(option):
    """No time limit, a drawn seed and 2 GiB unless given, in every command."""
    for name, cmd in COMMANDS.items():
        param = options_of(cmd).get(option)
        if param is not None:
            assert param.default is None, (name, option)
    jobs = {options_of(cmd)["--jobs"].default for cmd in COMMANDS.values() if "--jobs" in options_of(cmd)}
    assert jobs == {0}  # every core


def test_no_option_of_another_dialect_is_left():
    gone = {"--pegs", "--colors", "--colours", "--no-repeat", "--workers", "--cpsat-time", "--max-seconds"}
    for name, cmd in COMMANDS.items():
        assert not gone & {o for p in cmd.params for o in p.opts}, name


CHOICES = {
    "--pool": ["heuristics"],
    "--tie-break": ["simulate", "optimal"],
    "--objective": ["optimal"],
    "--backend": ["optimal"],
    "--solver": ["game-value"],
    "--progress": ["bounds"],
    "--format": ["export", "verify"],
    "--table": ["results"],
    "--strategy": ["solve", "compare"],
}


@pytest.mark.parametrize("option", sorted(CHOICES))
def test_an_unknown_choice_is_said_one_way(option, capsys):
    """`--pool bogus`, `--backend bogus`, `--solver bogus`, ... got four styles of message."""
    for name in CHOICES[option]:
        argv = [name, option, "bogus"]
        if name in ("solve", "verify"):
            argv.insert(1, "11" if name == "solve" else "-")
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert re.fullmatch(rf"error: {option}: unknown value 'bogus'; use one of [\w, ().-]+\n", err), err


def test_an_option_given_twice_is_refused(capsys):
    for argv in (["info", "-r", "p2c2", "--rules", "p2c3"], ["optimal", "-j", "1", "--jobs", "2"]):
        assert main(argv) == 2
        assert "given more than once; give it once" in capsys.readouterr().err


def _strings(path: Path):
    """The string constants of a module that are not docstrings (messages, help, JSON keys)."""
    tree = ast.parse(path.read_text())
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def test_colours_are_spelt_one_way():
    """Messages said "colors must be" where everything else says "colours"; keys said colors."""
    root = Path(__file__).resolve().parents[2] / "mastermind"
    found = [
        f"{path.relative_to(root)}:{line}: {text[:60]!r}"
        for path in sorted(root.rglob("*.py"))
        for line, text in _strings(path)
        if re.search(r"\bcolors?\b", text)
    ]
    assert not found


@pytest.mark.parametrize(
    "argv",
    [
        ["heuristics", "-r", "p2c3", "--seed", "1"],
        ["optimal", "-r", "p2c3", "--no-cache"],
        ["optimal", "-r", "p3c3", "--by-first-guess", "--no-cache"],
        ["verify", "{data}/p4c6r-knuth.txt"],
        ["simulate", "-r", "p2c3", "-n", "10", "--seed", "1"],
        ["compare", "-r", "p2c3", "--seed", "1"],
    ],
)
def test_one_histogram_caption(argv, capsys, data_dir):
    """The histogram caption changed from command to command."""
    assert main([a.format(data=data_dir) for a in argv]) == 0
    out = capsys.readouterr().out
    assert "secrets solved with 1, 2, 3, ... guesses" in out
    assert "games won with" not in out and "(1, 2, ... guesses)" not in out


@pytest.mark.parametrize(
    "argv, unwanted",
    [
        (["optimal", "-r", "p4c6", "--time-limit", "0.001", "--no-cache"], "no (not proven)"),
        (["static", "-r", "p2c3", "--seed", "1"], "OPTIMAL"),
        (["optimal", "-r", "p3c3", "--no-cache"], "1 work units"),
        (["bounds", "-r", "p3c3"], "lookahead_1"),
    ],
)
def test_words_said_once_and_plainly(argv, unwanted, capsys):
    """ "proven no (not proven)", "(proven optimal, OPTIMAL, 0.02 s)", "1 work units",
    identifiers printed to people."""
    main(argv)
    out, err = capsys.readouterr()
    assert unwanted not in out + err


def test_the_readme_shows_the_vocabulary():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    table = readme.split("### One vocabulary", 1)[1].split("\n\n", 2)[1]
    for option, (short, _) in IDEAS.items():
        assert f"`{option}" in table, option
        if short:
            assert f"`{option}/{short}" in table, option
    assert "schemas/" in readme
