"""The strategy search beside the rounds of the exact search, in a thread of its own: the
rounds take each cheaper strategy it finds as their upper bound (and target), and the run
reports the cheapest found, a proven strategy or not."""

from __future__ import annotations

import threading

from mastermind.core.cancel import CancelToken, Stopped
from mastermind.core.tree import Node, StrategyTree
from mastermind.engines.exact.checkpoint import Checkpoint, CheckpointError
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.exact.strategy_search import FINISHED, Found, Plan, StrategySearch

NICENESS = 10
"""How far the strategy search's thread lowers its priority once it holds a strategy: on a
core it shares with the rounds' units it gets about a tenth (see
:mod:`mastermind.core.priority`), on an idle one all of it. The lower bound, which only the
units raise, is what a frontier run lacks most: with two rows of one job each on two cores,
each unit got half a core beside it, while the 5x8 strategy search found nothing cheaper for
several sessions."""
BUILD_SHARE = 0.01  # of a time limit: the most a tree built after it may overrun it...
MIN_BUILD_ALLOWANCE = 0.05  # ...or this many seconds (see StrategySearch.build_allowance)


class StrategyThread:
    """Runs ``passes`` passes of the strategy search (None: until cancelled), started from
    the strategy kept in ``checkpoint``, if any, and from where its pass stood there; memo of
    ``memory`` bytes; its thread at a lower priority once it holds a strategy
    (:data:`NICENESS`)."""

    def __init__(
        self,
        solver: ExactSolver,
        cancel: CancelToken,
        memory: int,
        checkpoint: Checkpoint | None = None,
        *,
        passes: int | None = None,
        start: Node | None = None,
    ) -> None:
        self.token = cancel.child()
        self.search = StrategySearch(
            solver.table, pool=solver.pool, cancel=self.token, memory=memory, niceness=NICENESS
        )
        left = cancel.remaining()  # (the run's deadline, as its token holds it)
        if left is not None:  # the time left, overrun by a last build of a tree
            self.search.build_allowance = max(MIN_BUILD_ALLOWANCE, BUILD_SHARE * left)
        self.passes = passes
        self.checkpoint = checkpoint
        seeded = float("inf")
        if checkpoint is not None:
            kept = checkpoint.bounds()
            if kept is not None and kept.tree is not None:
                seeded = float(self.search.seed(kept.tree, checkpoint.strategy_passes()))
            self.search.passes = max(self.search.passes, checkpoint.strategy_passes())
            sets = checkpoint.strategy_sets()
            self.search.plan = Plan.of_alternation(self.search.passes)  # (unless its pass's is kept)
            if sets is not None:  # the pass under way goes on where the last run left it
                try:
                    plan = None if sets.plan is None else Plan.decode(sets.plan)
                except ValueError as exc:
                    raise CheckpointError(
                        f"checkpoint {checkpoint.path} is damaged: its strategy sets' {exc}"
                    ) from None
                self.search.resume(sets.rows, sets.passes, plan)
        self._lock = threading.Lock()
        self._latest: Found | None = None
        if checkpoint is not None:
            # a strategy the last runs found in their pass but never built (Ctrl-C): the
            # first upper bound of this one, not only of its end
            try:
                self._latest = self.search.kept_cheaper(seeded)
            except Stopped:  # (Ctrl-C as the run starts: the sets keep it for the next)
                pass
        self.started_from: float | None = None
        """The total of the strategy given to start from (in this run or, kept by the
        checkpoint, an earlier one): a run whose best strategy costs that much reports it as
        found by that strategy, not by the search."""
        if start is not None:  # a strategy given: the first upper bound, and one to improve on
            total = self.search.seed(start)
            if self._latest is None or total < self._latest.total:
                self._latest = Found(StrategyTree(solver.rules, start), total, self.search.passes, 0.0)
            self.started_from = float(total)
            if checkpoint is not None:
                checkpoint.keep_started_from(float(total))
        if checkpoint is not None:
            kept_start = checkpoint.started_from()
            if kept_start is not None and (self.started_from is None or kept_start < self.started_from):
                self.started_from = kept_start
        self._given: float = float("inf")
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="strategy search", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            found = self.search.run(passes=self.passes, on_found=self._keep)
            self._keep(found)
        except Stopped:
            pass
        except BaseException as exc:  # reported by finish(), in the caller's thread
            self.error = exc

    def _keep(self, found: Found) -> None:
        with self._lock:
            if self._latest is None or found.total < self._latest.total:
                self._latest = found

    def fresh(self) -> tuple[float, Node] | None:
        """A strategy cheaper than any handed out before, or None."""
        with self._lock:
            found = self._latest
            if found is None or found.total >= self._given:
                return None
            self._given = found.total
            return float(found.total), found.tree.root

    def finish(self) -> tuple[float, Node] | None:
        """Stop the search (if it still runs) and wait for it; the cheapest strategy found,
        whose passes, and where the pass under way stands, the checkpoint (if any) then
        records."""
        self.token.cancel(FINISHED)
        if self._thread.ident is not None:
            self._thread.join()
        if self.checkpoint is not None:
            self.checkpoint.keep_strategy_passes(self.search.passes)
            self.checkpoint.keep_strategy_sets(
                self.search.passes, self.search.pass_state(), self.search.plan.encode()
            )
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        with self._lock:
            found = self._latest
        return None if found is None else (float(found.total), found.tree.root)
