"""What computes strategies and numbers: heuristics, the exact search, bounds and models, the
game value. Builds on :mod:`mastermind.core` only."""
