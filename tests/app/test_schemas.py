"""Every command's ``--json`` is one object that validates against its schema in ``schemas/``,
on a few games and on a stopped run; the schemas share ``schemas/common.schema.json``, where
a key means one thing with one type in every command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mastermind.app.cli import COMMANDS, main

jsonschema = pytest.importorskip("jsonschema", reason="the schema tests need jsonschema (extra: test)")

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
EVERY_COMMAND = [name for names in COMMANDS.values() for name in names]


def load(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text())


def test_one_schema_per_command_and_no_other():
    names = {p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json")}
    assert names == set(EVERY_COMMAND) | {"common"}
    jsonschema.Draft202012Validator.check_schema(load("common"))


def _properties(schema, path=""):
    """Every (path, key, definition) of the objects a schema describes, nested ones too."""
    if isinstance(schema, dict):
        for key, value in (schema.get("properties") or {}).items():
            yield path, key, value
            yield from _properties(value, f"{path}.{key}")
        for word in ("items", "additionalProperties"):
            if isinstance(schema.get(word), dict):
                yield from _properties(schema[word], f"{path}[]")
        for word in ("oneOf", "anyOf", "allOf"):
            for i, part in enumerate(schema.get(word) or []):
                yield from _properties(part, f"{path}/{word}{i}")


# keys of the common vocabulary that a command defines its own way, and why
OWN = {
    ("verify", "rules"),  # null when the file could not be read as a strategy of any game
    ("compare", "optimal"),  # (not a common key)
}


@pytest.mark.parametrize("name", EVERY_COMMAND)
def test_a_key_of_the_vocabulary_is_the_common_definition(name):
    """A key named like a common definition (rules, total, average, worst, proven, stopped,
    total_lower_bound, ...) refers to it: the same meaning and type in every command."""
    defs = load("common")["$defs"]
    common = set(defs)
    for path, key, definition in _properties(load(name)):
        if key not in common or (name, key) in OWN:
            continue
        refs = json.dumps(definition)
        # (or a common definition built on it: strategy_seed, a seed or null)
        assert f"common.schema.json#/$defs/{key}" in refs or any(
            f"common.schema.json#/$defs/{other}" in refs and f'"#/$defs/{key}"' in json.dumps(defs[other])
            for other in common
        ), f"{name}{path}.{key} does not use the common definition"


def run_json(argv: list[str], capsys, monkeypatch, stdin: str = "", *, quiet: bool = False) -> dict:
    """The one JSON object the command prints; ``quiet``: and nothing on standard error."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 1), (argv, code, err)
    assert not (quiet and err), (argv, err)
    data = json.loads(out)  # one JSON document ...
    assert isinstance(data, dict), argv  # ... and the top level is always an object
    return data


def _needs_matplotlib(name: str) -> None:
    if name == "plot":
        pytest.importorskip("matplotlib", reason="plot needs the plot extra")


# (command line, standard input) per command: a few games each
RUNS = {
    "info": [["info", "-r", g] for g in ("p2c2", "p4c6", "p5c8n")],
    "score": [["score", "12", "21", "-r", "p2c2"], ["score", "123456781", "123456718", "-r", "p9c9"]],
    "partition": [["partition", "11", "12", "-r", "p2c3"], ["partition", "1122", "-r", "p4c6"]],
    "assist": [["assist", "-r", "p2c2"], ["assist", "-r", "p3c3", "-s", "entropy", "--seed", "1"]],
    "play": [["play", "-r", "p2c2", "--seed", "1"], ["play", "-r", "p3c4n", "-s", "random"]],
    "solve": [
        ["solve", "23", "-r", "p2c3"],
        ["solve", "3632", "-s", "random"],
        ["solve", "11", "-r", "p2c2", "-s", "optimal"],
    ],
    "export": [
        ["export", "-r", "p2c3", "-o", "{tmp}/a.json"],
        ["export", "-r", "p3c3", "-s", "optimal", "-o", "{tmp}/b.txt"],
    ],
    "verify": [
        ["verify", "{data}/p4c6r-knuth.txt"],
        ["verify", "{data}/p4c6r-knuth.txt", "-r", "p3c3"],
        ["verify", "{data}/../../results/proofs/p3c4.proof.json.gz"],
    ],
    "heuristics": [
        ["heuristics", "-r", "p2c3"],
        ["heuristics", "-r", "p3c3", "-s", "minimax", "--pool", "consistent"],
    ],
    "strategies": [["strategies"]],
    "simulate": [
        ["simulate", "-r", "p2c3", "-n", "20"],
        ["simulate", "-n", "1"],
        ["simulate", "-r", "p3c3", "-s", "optimal", "-n", "5"],
    ],
    "table": [["table", "-g", "p2c2,p2c3"]],
    "compare": [["compare", "-r", "p2c3"], ["compare", "-r", "p3c3", "-s", "minimax", "-s", "random"]],
    "plot": [["plot", "-r", "p2c3", "-o", "{tmp}/p.svg"]],
    "bounds": [["bounds", "-r", "p2c3"], ["bounds", "-r", "p3c4", "--refined"]],
    "cpsat": [
        ["cpsat", "-r", "p2c3"],
        ["cpsat", "-r", "p3c3", "--depth", "3", "--feasible"],
        ["cpsat", "-r", "p2c4", "--feasible"],
    ],
    "static": [["static", "-r", "p2c3"], ["static", "-r", "p2c4b"]],
    "game-value": [["game-value", "-r", "p2c3"], ["game-value", "-r", "p3c3", "--solver", "search"]],
    "optimal": [
        ["optimal", "-r", "p2c3"],
        ["optimal", "-r", "p3c3", "--objective", "worst"],
        ["optimal", "-r", "p3c4", "--by-first-guess"],
        ["optimal", "-r", "p3c3", "--max-guesses", "2"],  # no such strategy: exit 1, still one object
        ["optimal", "-r", "p2c3", "--out", "{tmp}/o.json"],
        ["optimal", "-r", "p3c3", "--proof", "{tmp}/o.proof.json.gz"],
    ],
    "results": [["results", "--out", "{tmp}/res", "-g", "p2c2,p2c3"]],
}
STDIN = {"assist": "\n0B0W\n\n\n\n\n\n\n\n\n", "play": "11\nhint\ngive up\n"}
# a run stopped by its limits, for every command that can stop early
STOPPED = {
    "solve": ["solve", "1234", "-r", "p4c6", "-s", "optimal", "--time-limit", "0.001"],
    "export": ["export", "-r", "p4c6", "-o", "{tmp}/s.json", "--time-limit", "0.001"],
    "heuristics": ["heuristics", "-r", "p4c6", "--time-limit", "0.001"],
    "simulate": ["simulate", "-r", "p4c6", "-n", "100000", "--time-limit", "0.001"],
    "table": ["table", "-g", "p3c3,p4c4", "--time-limit", "0.001"],
    "compare": ["compare", "-r", "p4c6", "--time-limit", "0.001"],
    "plot": ["plot", "-r", "p4c6", "-o", "{tmp}/q.svg", "--time-limit", "0.001"],
    "bounds": ["bounds", "-r", "p4c6", "--levels", "3", "--time-limit", "0.001"],
    "cpsat": ["cpsat", "-r", "p3c3", "--time-limit", "0.001"],
    "static": ["static", "-r", "p4c3", "--time-limit", "0.001"],
    "game-value": ["game-value", "-r", "p4c5", "--max-iterations", "2"],
    "optimal": ["optimal", "-r", "p4c6", "--time-limit", "0.001", "--no-cache"],
    "results": ["results", "--out", "{tmp}/stop", "-g", "p3c3,p4c4", "--time-limit", "0.001"],
}


def _argv(argv: list[str], tmp_path, data_dir) -> list[str]:
    return [a.format(tmp=tmp_path, data=data_dir) for a in argv] + ["--json"]


@pytest.mark.parametrize("name", EVERY_COMMAND)
def test_every_command_json_validates_on_a_few_games(
    name, validators, tmp_path, data_dir, capsys, monkeypatch
):
    _needs_matplotlib(name)
    for argv in RUNS[name]:
        data = run_json(_argv(argv, tmp_path, data_dir), capsys, monkeypatch, STDIN.get(name, ""))
        errors = sorted(validators[name].iter_errors(data), key=str)
        assert not errors, (argv, [f"{list(e.path)}: {e.message}" for e in errors[:5]])


@pytest.mark.parametrize("name", sorted(STOPPED))
def test_a_stopped_run_validates_and_says_why(name, validators, tmp_path, data_dir, capsys, monkeypatch):
    _needs_matplotlib(name)
    # (and says it there alone: compare, plot, heuristics and results also wrote a line on
    # standard error, which the other commands leave to their JSON)
    data = run_json(_argv(STOPPED[name], tmp_path, data_dir), capsys, monkeypatch, quiet=True)
    errors = sorted(validators[name].iter_errors(data), key=str)
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    assert data["stopped"] in ("time limit", "iteration limit"), data["stopped"]
    if "proven" in data:  # what stopped is never given as proven
        assert data["proven"] is False


def test_every_command_with_json_has_runs_here():
    assert set(RUNS) == set(EVERY_COMMAND)
    # every command that takes --time-limit has a stopped run
    import typer

    from mastermind.app.cli import build_app

    group = typer.main.get_command(build_app())
    limited = {
        name for name, cmd in group.commands.items() if any("--time-limit" in p.opts for p in cmd.params)
    }
    assert limited <= set(STOPPED)


def test_the_rows_of_results_validate_as_results_prints_them(validators):
    """The files of results/ hold the rows `results --json` prints: the same vocabulary."""
    tables = {}
    for stem in ("optimal", "game-values", "black-peg"):
        tables[stem] = json.loads((SCHEMAS.parent / "results" / f"{stem}.json").read_text())["rows"]
    doc = {
        "out": "results",
        "tables": tables,
        "unwritten": None,
        "stopped": None,
        "kept": None,
        "seconds": 0.0,
    }
    errors = sorted(validators["results"].iter_errors(doc), key=str)
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


def test_the_librarys_game_value_json_is_the_commands(validators):
    """``Result.to_dict()`` of a game value had a dialect of its own (value, lower_bound, ...)."""
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.gamevalue import game_value

    for iterations in (2, 500):  # (stopped by its iteration limit, and proven)
        validators["game-value"].validate(
            game_value(CodeTable(Rules(3, 3)), max_iterations=iterations).to_dict()
        )


@pytest.mark.parametrize(
    "problem, limit",
    [
        ({}, None),  # proven
        ({"max_guesses": 2}, None),  # no strategy within the cap
        ({"objective": "worst"}, None),
        ({}, 0.05),  # stopped by its time limit: bounds and the best strategy found
    ],
)
def test_the_librarys_exact_search_json_is_the_commands(problem, limit, validators, capsys):
    """``Result.to_dict()`` of the exact search had keys of its own (lower_bound,
    upper_bound, a total not proven); it is now the optimal command's JSON, less the keys
    of the command's own options and files."""
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.exact import Execution, Limits, Problem, solve

    rules = Rules(3, 4) if limit is None else Rules(4, 6)
    execution = Execution(units=True) if limit is not None else None
    result = solve(CodeTable(rules), Problem(**problem), limits=Limits(time_limit=limit), execution=execution)
    mine = result.to_dict()
    command_only = {"first": None, "tie_break": "default", "cached": False, "out": None}
    validators["optimal"].validate({**mine, **command_only})
    if limit is None:  # (a time limit stops a run at no fixed point)
        argv = ["optimal", "-r", str(rules), "--no-cache", "--json"]
        argv += [f"--{k.replace('_', '-')}={v}" for k, v in problem.items()]
        main(argv)
        theirs = json.loads(capsys.readouterr().out)
        timing = {"seconds", "units", "compile_seconds", "memo_hits", "nodes"}
        assert {k: v for k, v in theirs.items() if k not in command_only and k not in timing} == {
            k: v for k, v in mine.items() if k not in timing
        }
    else:
        assert mine["stopped"] == "time limit" and not mine["proven"] and mine["total"] is None
        upper = mine["total_upper_bound"]
        assert upper is None or mine["total_lower_bound"] <= upper
