"""A strategy search stopped in the middle of a pass, for the tests of the search and of its
thread (tests/engines/exact/conftest.py shares one such search between them)."""

from __future__ import annotations

from mastermind.core.cancel import CancelToken
from mastermind.core.game import CodeTable
from mastermind.engines.exact.strategy_search import Found, StrategySearch


class StopsAfter(StrategySearch):
    """A search whose token is cancelled once it has searched ``stop_after`` sets."""

    stop_after = 10**9
    reason = "time limit"

    def _candidates(self, *args):
        if self.sets_searched >= self.stop_after:
            self.token.cancel(self.reason)
        return super()._candidates(*args)


def stopped_in_a_pass(table: CodeTable, passes: int) -> tuple[StopsAfter, Found, int, int]:
    """A search stopped halfway through the pass after ``passes`` passes; that pass's sets
    when not stopped and its total."""
    whole = StrategySearch(table)
    whole.run(passes=passes)
    before = whole.sets_searched
    total = whole.run(passes=1).total
    in_pass = whole.sets_searched - before
    cut = StopsAfter(table, cancel=CancelToken())
    cut.run(passes=passes)
    cut.stop_after = cut.sets_searched + in_pass // 2
    stopped = cut.run(passes=1)
    assert stopped.passes == passes  # (stopped within the pass)
    return cut, stopped, in_pass, total
