"""A small game's plain total runs as one search, and goes on as work units once that search
has outgrown its count of nodes (`optimal -r p4c5b` searched for minutes as one search, and
Ctrl-C then reported only its first bound and no strategy)."""

from __future__ import annotations

import pytest

from mastermind.core.cancel import INTERRUPTED, CancelToken
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Execution, api, solve
from mastermind.engines.result import Status

GAME = "p4c4b"  # 256 codes, about 30000 nodes as one search: the smallest slow one
OPTIMUM = 1301  # (results/black-peg.md)


@pytest.fixture(scope="module")
def table() -> CodeTable:
    return CodeTable(Rules.parse(GAME))


def test_a_search_within_the_count_is_one_search(table):
    result = solve(table, execution=Execution(jobs=1))
    assert result.status is Status.OPTIMAL and result.total == OPTIMUM
    assert result.counters.units == 0 and 0 < result.counters.nodes < api.ONE_SEARCH_NODES


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_search_past_the_count_goes_on_as_work_units(table, monkeypatch, jobs):
    monkeypatch.setattr(api, "ONE_SEARCH_NODES", 1000)
    result = solve(table, execution=Execution(jobs=jobs))
    assert result.status is Status.OPTIMAL and result.total == OPTIMUM
    assert result.counters.units > 0
    assert result.tree is not None and result.tree.stats(table).total == OPTIMUM


def test_units_refused_keep_the_one_search_past_the_count(table, monkeypatch):
    monkeypatch.setattr(api, "ONE_SEARCH_NODES", 1000)
    result = solve(table, execution=Execution(jobs=1, units=False))
    assert result.total == OPTIMUM and result.counters.units == 0


class _StopAfterUnits:
    """A progress object that cancels the run once ``units`` work units are reported."""

    def __init__(self, token: CancelToken, units: int) -> None:
        self.token, self.units, self.seen = token, units, 0

    def start(self, total: int | None, description: str = "") -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def report(self, fields: dict) -> None:
        self.seen += 1
        if self.seen >= self.units:
            self.token.cancel()


def test_a_stop_once_the_units_took_over_reports_what_they_proved(table, monkeypatch):
    monkeypatch.setattr(api, "ONE_SEARCH_NODES", 1000)
    stopped_at_once = solve(table, cancel=_cancelled())
    token = CancelToken()
    result = solve(table, execution=Execution(jobs=1), cancel=token, progress=_StopAfterUnits(token, 20))
    assert result.stopped == INTERRUPTED and result.status is not Status.OPTIMAL
    assert result.counters.units >= 20
    assert result.lower_bound is not None and result.lower_bound > stopped_at_once.lower_bound
    assert result.lower_bound <= OPTIMUM


def _cancelled() -> CancelToken:
    token = CancelToken()
    token.cancel()
    return token
