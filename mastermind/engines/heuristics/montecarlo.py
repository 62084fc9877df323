"""Monte Carlo: play games against uniformly random secrets, for games too big to play
every secret and for strategies that are random themselves.

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.heuristics.strategies import ScoredStrategy
>>> table = CodeTable(Rules(3, 4))
>>> result = monte_carlo(ScoredStrategy("minimax", table), 200, seed=1)
>>> result.games, sum(result.histogram), result.ci_low <= result.mean <= result.ci_high
(200, 200, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable, Rules
from mastermind.core.progress import NoProgress, Progress
from mastermind.core.strategy import Strategy

Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
SECRETS_BLOCK = 1 << 16  # secrets drawn at a time


@dataclass(frozen=True)
class MonteCarloResult:
    """Guesses needed in ``games`` games; ``histogram[i]``: games won with i + 1 guesses."""

    strategy: str
    games: int
    seed: int | None
    histogram: tuple[int, ...]

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
    def ci_low(self) -> float:
        return self.mean - Z95 * self.std / math.sqrt(max(self.games, 1))

    @property
    def ci_high(self) -> float:
        return self.mean + Z95 * self.std / math.sqrt(max(self.games, 1))

    def to_dict(self, rules: Rules) -> dict:
        return {
            "rules": str(rules),
            "strategy": self.strategy,
            "games": self.games,
            "seed": self.seed,
            # no games (a run stopped before the first ended): no mean to speak of
            "mean": round(self.mean, 6) if self.games else None,
            "std": round(self.std, 6) if self.games else None,
            # one game has no spread to speak of: no interval (not one of width 0)
            "ci95": [round(self.ci_low, 6), round(self.ci_high, 6)] if self.games > 1 else None,
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
    played: list[int] | None = None,
) -> MonteCarloResult:
    """Play ``games`` games against secrets drawn uniformly (with replacement, seeded).

    A deterministic strategy (``strategy.deterministic``, true unless said otherwise) is
    asked once per position: games that share their first guesses share the work. A
    cancelled ``cancel`` token ends the run after the game being played: the result then
    counts the games finished (``games`` is fewer). ``played``,
    if given, holds the guesses of each finished game as they end (for a status line).

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
                node = (int(strategy.next_guess(cands, history)), cands)
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
        guesses = len(history)
        counts.extend([0] * (guesses - len(counts)))
        counts[guesses - 1] += 1
        if played is not None:
            played.append(len(history))
        if k % 64 == 63 or k == games - 1:
            progress.advance(k % 64 + 1)
    return MonteCarloResult(strategy.name, finished, seed, tuple(counts))
