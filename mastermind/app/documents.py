"""What a command and the publisher of ``results/`` share (below both: no import cycle)."""

from __future__ import annotations

from mastermind.core.variant import BLACK_PEG

TABLES = ("optimal", "game-values", BLACK_PEG.name)
"""The tables that ``results`` publishes, each as results/NAME.md and results/NAME.json
(``black-peg``: the optimal table's rows for black-peg Mastermind, named after its variant)."""
