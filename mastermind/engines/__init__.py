"""What computes strategies and numbers: heuristics, the exact search, bounds and models, the
game value, and every strategy by name (:mod:`.registry`). Builds on :mod:`mastermind.core` only."""
