"""Shared pieces: the 4x6 table, a strategy that needs no heuristics, and driving the CLI."""

import io
import sys

import numpy as np
import pytest

from mastermind.app.cli import main
from mastermind.core.game import CodeTable, Rules


class FirstCandidate:
    """Guess the first code still possible: the simplest strategy, for session mechanics."""

    name = "first-candidate"

    def __init__(self, table):
        self.table = table
        self.calls = 0

    def next_guess(self, candidates, history=()):
        self.calls += 1
        return int(np.asarray(candidates)[0])


@pytest.fixture(scope="session")
def table46():
    return CodeTable(Rules(4, 6))


@pytest.fixture(scope="session")
def table33():
    return CodeTable(Rules(3, 3))


@pytest.fixture
def cli(monkeypatch, capsys):
    """Run ``mastermind ARGS`` with ``text`` on standard input: (exit code, stdout, stderr)."""

    def run(args, text=""):
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run
