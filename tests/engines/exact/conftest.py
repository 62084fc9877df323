"""Shared by the tests of the exact engine: a strategy search stopped in the middle of a pass."""

from __future__ import annotations

import pytest

from mastermind.core.game import CodeTable, Rules

from .strategy_passes import stopped_in_a_pass


@pytest.fixture(scope="session")
def stopped_in_pass_3():
    """p4c6 stopped halfway through its third pass (254 sets: 129 to finish it against 250
    started again; p4c7's, 306 against 592, took a minute on a loaded machine), shared by
    the tests of the search and of its thread that read it (and change nothing of it)."""
    table = CodeTable(Rules(4, 6))
    return (table, *stopped_in_a_pass(table, 2))
