"""Monte Carlo: play games against uniformly random secrets, for games too big to play
every secret and for strategies that are random themselves.

>>> from mastermind.engines.heuristics.montecarlo import monte_carlo
>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.heuristics.strategies import ScoredStrategy
>>> table = CodeTable(Rules(3, 4))
>>> result = monte_carlo(ScoredStrategy("minimax", table), 200, seed=1)
>>> low, high = result.ci95
>>> result.games, sum(result.histogram), 1 <= low <= result.mean <= high <= table.n
(200, 200, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from mastermind.core.cancel import CancelToken, Stopped
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable, Rules
from mastermind.core.progress import NoProgress, Progress
from mastermind.core.strategy import Strategy

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
# two-sided 95% quantiles of Student's t with 1, 2, ..., 30 degrees of freedom (no scipy at run time)
T95 = (
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
    2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
    2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
)  # fmt: skip
SECRETS_BLOCK = 1 << 16  # secrets drawn at a time


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom: the table up
    to 30, then the Cornish-Fisher expansion around the normal (off by less than 1e-7).

    >>> from mastermind.engines.heuristics.montecarlo import Z95, t95
    >>> t95(1), t95(30), round(t95(1000), 4), round(t95(10**9), 6) == round(Z95, 6)
    (12.706205, 2.042272, 1.9623, True)
    """
    if df < 1:
        raise MastermindError(f"degrees of freedom must be at least 1, got {df}")
    if df <= len(T95):
        return T95[df - 1]
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4)
    )


class Recorder(Protocol):
    """Where the guesses of each finished game go (a list will do)."""

    def append(self, guesses: int, /) -> None: ...


@dataclass(frozen=True)
class MonteCarloResult:
    """Guesses needed in ``games`` games; ``histogram[i]``: games won with i + 1 guesses.

    ``codes``, the number of codes of the game, bounds the guesses of any game: a guess that
    does not win removes at least one candidate (``monte_carlo`` refuses one that does not).
    """

    strategy: str
    games: int
    seed: int | None
    histogram: tuple[int, ...]
    codes: int | None = None  # (None: no bound known above)

    def __post_init__(self) -> None:
        object.__setattr__(self, "histogram", tuple(self.histogram))  # (frozen all through)

    @property
    def total(self) -> int:
        return sum((i + 1) * h for i, h in enumerate(self.histogram))

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else 0.0

    @property
    def worst(self) -> int:
        return len(self.histogram)

    @property
    def std(self) -> float:
        """Sample standard deviation of the guesses per game (0 for fewer than 2 games)."""
        if self.games < 2:
            return 0.0
        squares = sum((i + 1) ** 2 * h for i, h in enumerate(self.histogram))
        var = (squares - self.games * self.mean**2) / (self.games - 1)
        return math.sqrt(max(var, 0.0))

    @property
    def ci95(self) -> tuple[float, float] | None:
        """The 95% confidence interval of the mean: Student's t (few games have a wider one
        than the normal's), cut to the means possible, from 1 guess to ``codes``. None when
        the games show no spread (one game, or every game the same length): a width of 0
        would claim a certainty that a few games do not give.

        >>> from mastermind.engines.heuristics.montecarlo import MonteCarloResult
        >>> MonteCarloResult("x", 3, 0, (2, 1), codes=2).ci95  # depths 1, 1, 2: t says -0.10 .. 2.77
        (1.0, 2.0)
        >>> MonteCarloResult("x", 3, 0, (0, 3), codes=9).ci95 is None
        True
        """
        if sum(1 for h in self.histogram if h) < 2:  # (counted, not a float std compared with 0)
            return None
        half = t95(self.games - 1) * self.std / math.sqrt(self.games)
        high = self.mean + half if self.codes is None else min(self.mean + half, float(self.codes))
        return max(self.mean - half, 1.0), high

    def to_dict(self, rules: Rules) -> dict:
        return {
            "rules": str(rules),
            "strategy": self.strategy,
            "games": self.games,
            "seed": self.seed,
            # no games (a run stopped before the first ended): no mean to speak of
            "mean": round(self.mean, 6) if self.games else None,
            "std": round(self.std, 6) if self.games else None,
            # no spread to speak of (one game, or all alike): no interval (not one of width 0)
            "ci95": None if (ci := self.ci95) is None else [round(ci[0], 6), round(ci[1], 6)],
            "worst": self.worst,
            "histogram": list(self.histogram),
        }


def _answer(table: CodeTable, guess: Code, secret: Code) -> int:
    if table.scores is not None:
        return int(table.scores[guess, secret])
    return int(table.answer_indices(guess, np.array([secret]))[0])


def monte_carlo(
    strategy: Strategy,
    games: int,
    seed: int | None = None,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    played: Recorder | None = None,
) -> MonteCarloResult:
    """Play ``games`` games against secrets drawn uniformly (with replacement, seeded).

    A deterministic strategy (``strategy.deterministic``, true unless said otherwise) is
    asked once per position: games that share their first guesses share the work. A
    cancelled ``cancel`` token ends the run after the game being played, or inside it when
    the strategy stops on the same token (:class:`~mastermind.core.cancel.Stopped`): the
    result then counts the games finished (``games`` is fewer). ``played``,
    if given, holds the guesses of each finished game as they end (for a status line).

    >>> from mastermind.engines.heuristics.montecarlo import monte_carlo
    >>> from mastermind.core.game import CodeTable, Rules
    >>> from mastermind.engines.heuristics.strategies import SimpleStrategy
    >>> monte_carlo(SimpleStrategy(CodeTable(Rules(2, 2))), 50, seed=3).worst
    3
    """
    if games < 1:
        raise MastermindError(f"games must be at least 1, got {games}")
    table = strategy.table
    progress = progress or NoProgress()
    rng = np.random.default_rng(seed)
    memo: dict[tuple, tuple[Code, np.ndarray]] | None = (
        {} if getattr(strategy, "deterministic", True) else None
    )
    win = table.rules.win_index
    counts: list[int] = []  # games won with 1, 2, ... guesses: memory does not grow with ``games``
    progress.start(games, f"simulating {strategy.name}")
    finished = games
    secrets: list[int] = []
    for k in range(games):
        if cancel is not None and cancel.cancelled:
            finished = k
            break
        if not secrets:  # drawn as the games are played, a block at a time
            secrets = rng.integers(table.n, size=min(SECRETS_BLOCK, games - k)).tolist()[::-1]
        secret = secrets.pop()
        cands = table.all_codes
        history: tuple[tuple[int, int], ...] = ()
        while True:
            node = memo.get(history) if memo is not None else None
            if node is None:
                try:
                    guess = strategy.next_guess(cands, history)
                except Stopped:  # (a strategy stopped by the same token: this game is not counted)
                    if cancel is None or not cancel.cancelled:
                        raise
                    break
                node = (int(guess), cands)
                if memo is not None:
                    memo[history] = node
            guess, cands = node
            answer = _answer(table, guess, secret)
            history = (*history, (guess, answer))
            if answer == win:
                break
            if memo is not None and history in memo:
                continue
            left = cands[table.answer_indices(guess, cands) == answer]
            if len(left) == len(cands):
                raise MastermindError(
                    f"strategy {strategy.name} guessed {table.rules.code_text(guess)}, which does "
                    f"not split {len(cands)} candidates: the game would never end"
                )
            cands = left
        if cancel is not None and cancel.cancelled and (not history or history[-1][1] != win):
            finished = k  # (stopped inside this game)
            break
        guesses = len(history)
        counts.extend([0] * (guesses - len(counts)))
        counts[guesses - 1] += 1
        if played is not None:
            played.append(len(history))
        if k % 64 == 63 or k == games - 1:
            progress.advance(k % 64 + 1)
    return MonteCarloResult(strategy.name, finished, seed, tuple(counts), codes=table.n)
