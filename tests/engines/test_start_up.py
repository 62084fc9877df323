"""The engines' start-up as a Ctrl-C watchdog sees it: from the entry of the exact search (or
the game value's columns) to its answer, work is always either starting up or running under
the token. A gap between the two
(the kernels loaded, the memo being made) let a Ctrl-C that came at the entry unwind the command
with nothing said, whenever the gap fell at the watchdog's moment (a loaded machine)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Execution, Problem, solve, solve_by_first_guess
from mastermind.engines.gamevalue.colgen import game_value
from mastermind.engines.result import Objective


class Busy:
    """A watcher counting the blocks of start-up and of running work, with the least count
    seen between the first block's beginning and the last one's end."""

    def __init__(self) -> None:
        self.blocks = 0
        self.events = 0
        self.gaps = 0  # times the count fell to 0 with more blocks to come

    def _step(self, by: int) -> None:
        self.events += 1
        self.blocks += by
        if self.blocks == 0:
            self.gaps += 1

    def begin(self, status: Callable[[], str] | None) -> None:
        self._step(1)

    def end(self, status: Callable[[], str] | None) -> None:
        self._step(-1)

    def wind_down(self) -> None:
        pass

    def begin_start_up(self) -> None:
        self._step(1)

    def end_start_up(self) -> None:
        self._step(-1)


TABLE = CodeTable(Rules.parse("p3c4"))


@pytest.mark.parametrize(
    "run",
    [
        lambda cancel: solve(TABLE, cancel=cancel),
        lambda cancel: solve(TABLE, execution=Execution(units=True), cancel=cancel),
        lambda cancel: solve(
            TABLE, Problem(objective=Objective.WORST), execution=Execution(units=True), cancel=cancel
        ),
        lambda cancel: solve(TABLE, Problem(max_guesses=4), cancel=cancel),
        lambda cancel: solve_by_first_guess(TABLE, cancel=cancel),
        lambda cancel: game_value(TABLE, cancel=cancel),
    ],
    ids=["one-search", "units", "worst-units", "capped", "by-first-guess", "game-value"],
)
def test_the_search_is_marked_busy_from_entry_to_answer(run):
    busy = Busy()
    run(CancelToken(watcher=busy))
    assert busy.events >= 4 and busy.blocks == 0  # (a start-up and a search, each ended)
    assert busy.gaps == 1  # the count fell to 0 once: at the very end


@pytest.mark.parametrize("reason, loads", [("interrupted", False), ("time limit", True)])
def test_a_search_stopped_by_ctrl_c_before_it_began_says_so_without_loading_its_kernels(
    reason, loads, monkeypatch
):
    """A Ctrl-C at 1 s of `optimal -r p5c6` was answered at 1.2 s on a busy machine: the
    search loaded its kernels, started its workers and made its memo, then stopped. A time
    limit still gives the bounds a search knows at once."""
    from mastermind.engines.exact import warmup

    loaded: list = []
    real = warmup.load_kernels

    def counted(parts=warmup.PARTS):
        loaded.append(parts)
        real(parts)

    monkeypatch.setattr(warmup, "load_kernels", counted)
    token = CancelToken(watcher=Busy())  # (the command line's: its watchdog gives a second)
    token.cancel(reason)
    result = solve(CodeTable(Rules(3, 3)), Problem(), cancel=token)
    assert result.stopped == reason and result.tree is None and result.total is None
    assert bool(loaded) == loads
    # a library caller's token, without a watcher: the bounds known at once, as before
    plain = CancelToken()
    plain.cancel(reason)
    assert solve(CodeTable(Rules(3, 3)), Problem(), cancel=plain).lower_bound is not None
