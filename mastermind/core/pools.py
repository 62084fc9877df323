"""Which guesses a strategy may make: any code, or only one that could still be the secret.

>>> from mastermind.core.pools import POOLS
>>> POOLS
('all', 'consistent')
"""

from __future__ import annotations

from mastermind.core.choices import Choice


class Pool(Choice):
    """``all``: any code of the game; ``consistent``: only a code that could still be the
    secret (hard mode)."""

    ALL = "all"
    CONSISTENT = "consistent"


POOLS: tuple[str, ...] = tuple(pool.value for pool in Pool)

POOL_WORDS = {
    "consistent": "every guess could still be the secret: hard mode",
    "all": "some guesses could no longer be the secret",
}
"""What a strategy keeping to each pool does, as messages say it."""
