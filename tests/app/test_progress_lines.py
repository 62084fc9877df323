"""``--progress json``: every command that has it ends its standard error with an end line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import typer

from mastermind.app.cli import build_app, main

PROOFS = Path(__file__).resolve().parents[2] / "results" / "proofs"
ARGS = {
    "assist": ["-r", "p2c2", "-s", "optimal"],
    "play": ["-r", "p2c2", "-s", "optimal"],
    "solve": ["11", "-r", "p2c2", "-s", "optimal"],
    "export": ["-r", "p2c2", "-s", "optimal"],
    "heuristics": ["-r", "p2c2", "--no-cache"],
    "simulate": ["-r", "p2c2", "--secrets", "3"],
    "table": ["--games", "p2c2"],
    "compare": ["-r", "p2c2"],
    "plot": ["-r", "p2c2", "--out", "{tmp}/x.svg"],
    "bounds": ["-r", "p2c2"],
    "cpsat": ["-r", "p2c2"],
    "static": ["-r", "p2c2"],
    "game-value": ["-r", "p2c2"],
    "optimal": ["-r", "p2c2", "--no-cache"],
    "results": ["--out", "{tmp}", "--games", "p2c2", "--table", "optimal"],
    "verify": [str(PROOFS / "p3c3.proof.json.gz")],
}
NEEDS = {"plot": "matplotlib", "cpsat": "ortools", "static": "ortools"}
STDIN = {"play": "hint\n"}  # (play solves its strategy when a hint is first asked)


def with_progress() -> list[str]:
    group = typer.main.get_command(build_app())
    return sorted(n for n, c in group.commands.items() if any("--progress" in p.opts for p in c.params))


def test_every_command_with_progress_is_tried():
    assert set(with_progress()) == set(ARGS)


@pytest.mark.parametrize("name", with_progress())
def test_the_last_line_is_an_end_line(name, tmp_path, monkeypatch, capsys):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name], reason=f"{name} needs the {NEEDS[name]} extra")
    from mastermind.core import compiling

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(STDIN.get(name, "")))
    # as on a first run, when numba compiles: the notice is a JSON line too (it was text)
    monkeypatch.setattr(compiling, "cold_modules", lambda names: list(names))
    argv = [name, *(a.replace("{tmp}", str(tmp_path)) for a in ARGS[name]), "--progress", "json"]
    code = main(argv)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 0 and lines, (argv, code, err)
    events = [json.loads(line) for line in lines]  # every line a JSON event: nothing else
    assert events[-1]["event"] == "end", events
    assert all(e["description"] for e in events), events
    work = [e for e in events if e["event"] != "compile"]
    assert work[0]["event"] == "start", events


def test_export_of_a_heuristic_says_what_it_builds(tmp_path, capsys):
    code = main(
        ["export", "-r", "p3c3", "-s", "minimax", "-o", str(tmp_path / "t.json"), "--progress", "json"]
    )
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert code == 0 and [e["event"] for e in events] == ["start", "advance", "end"]
    assert all("minimax" in e["description"] for e in events)
    # one tree to build, counted (the end line said "done": 0, "total": null: a new user's trial)
    assert (events[0]["steps"], events[-1]["done"], events[-1]["steps"]) == (1, 1, 1)


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_the_end_line_says_proven_when_the_answer_is(cap, capsys):
    """With no strategy within the guesses allowed, the answer is proven (none exists), and
    the end line said it was not."""
    argv = ["optimal", "-r", "p3c3", "--max-guesses", str(cap), "--no-cache", "--json", "--progress", "json"]
    assert main(argv) == 1  # (the exit code of no strategy)
    out, err = capsys.readouterr()
    answer, end = json.loads(out), json.loads(err.splitlines()[-1])
    assert answer["exists"] is False
    assert end["event"] == "end" and end["proven"] is answer["proven"] is True


@pytest.mark.parametrize("name", ["optimal", "heuristics"])
def test_an_answer_from_the_result_cache_has_its_end_line_too(name, monkeypatch, capsys):
    argv = [name, "-r", "p2c3", "--json"]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv, "--progress", "json"]) == 0
    out, err = capsys.readouterr()
    events = [json.loads(line) for line in err.splitlines()]
    assert json.loads(out)["cached"] is True or name == "heuristics"
    assert [e["event"] for e in events] == ["start", "end"] and "result cache" in events[-1]["description"]


@pytest.mark.parametrize("name", ["optimal", "heuristics", "compare"])
def test_a_bar_asked_by_name_is_drawn_off_a_terminal(name, capsys):
    """``--progress bar`` into a pipe or a log wrote one blank line and no bar, the same as
    none: a bar asked for by name is drawn wherever standard error goes."""
    assert main([name, *ARGS[name], "--progress", "bar"]) == 0
    err = capsys.readouterr().err
    assert "\x1b[" in err and "0:00:00" in err, err  # (drawn, with its clock)


@pytest.mark.parametrize("proof", ["p3c3.proof.json.gz", "p4c6.proof.json.gz"])
def test_verify_counts_the_facts_checked_in_about_200_steps(proof, capsys):
    # verify showed nothing while it checked (a new user's trial: 11 s for 4x7's proof);
    # a line a fact would be 183,338 lines for 4x8's
    code = main(["verify", str(PROOFS / proof), "--progress", "json"])
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    facts = events[0]["steps"]
    assert code == 0 and events[0]["event"] == "start" and facts > 0
    done = [e["done"] for e in events if e["event"] == "advance"]
    assert done == sorted(done) and done[-1] == facts and len(done) <= 201
    assert events[-1] == {
        "event": "end",
        "description": "verify: facts checked",
        "done": facts,
        "steps": facts,
    }


def test_verify_of_a_strategy_file_starts_and_ends(tmp_path, capsys):
    path = tmp_path / "t.json"
    assert main(["export", "-r", "p3c3", "-s", "minimax", "--out", str(path)]) == 0
    capsys.readouterr()
    assert main(["verify", str(path), "--progress", "json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [e["event"] for e in events] == ["start", "end"]
