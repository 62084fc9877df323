"""``mastermind bounds`` stopped part way: what it reports of the levels it finished."""

import json
import re

import pytest

from mastermind.app.cli import main
from mastermind.core.cancel import Stopped

# (the function that stops, the level it stops at): each part of a level in turn, the
# refined step last; where a time limit lands depends on the machine, so the stop is put there
STOPS = [
    ("lookahead_worst_bound", 1, False),
    ("lookahead_total_bound", 1, False),  # "4 (1-level lookahead)" with "0 of 2 levels finished"
    ("lookahead_totals_by_first_guess", 1, False),
    ("lookahead_total_bound", 2, False),
    ("lookahead_totals_by_first_guess", 2, False),  # a total of level 2, by first guess of level 1
    ("lookahead_total_bound", 2, True),
]


def stop_at(monkeypatch, function: str, level: int, refined: bool) -> None:
    """``function`` of ``level`` (refined or not) stops as a time limit stops it."""
    from mastermind.engines.models import bounds

    real = getattr(bounds, function)

    def stopping(table, levels, *args, refined=False, cancel=None, **kwargs):
        if (levels, refined) == (level, want_refined):
            cancel.cancel("time limit")
            raise Stopped()
        return real(table, levels, *args, refined=refined, cancel=cancel, **kwargs)

    want_refined = refined
    monkeypatch.setattr(bounds, function, stopping)


@pytest.mark.parametrize("function, level, refined", STOPS)
def test_a_stopped_run_reports_whole_levels_alone(monkeypatch, capsys, validators, function, level, refined):
    stop_at(monkeypatch, function, level, refined)
    args = ["bounds", "-r", "p3c4", "--levels", "2", *(["--refined"] if refined else [])]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    validators["bounds"].validate(data)
    assert data["stopped"] == "time limit" and data["proven"] is False
    finished = level - 1 if not refined else 2
    keys = [f"lookahead_{k}" for k in range(1, finished + 1)]
    deeper = {"perfect_tree"} | set(keys)
    assert set(data["total_lower_bounds"]) == deeper
    assert set(data["worst_lower_bounds"]) == {"crude", "counting"} | set(keys)
    assert data["by_first_guess_bound"] == (keys[-1] if keys else None)  # the deepest level finished
    assert bool(data["by_first_guess"]) == bool(keys)
    assert data["worst_lower_bound"] == max(data["worst_lower_bounds"].values())
    assert data["total_lower_bound"] == max(data["total_lower_bounds"].values())

    assert main(args) == 0
    out = capsys.readouterr().out
    shown = set(re.findall(r"\((\d)-level lookahead\)", out))
    assert shown == {str(k) for k in range(1, finished + 1)}
    assert f"with {finished} of 2 lookahead levels finished" in out
    assert ("refined" in out.split("stopped")[0]) is False  # (no part of the refined step)
