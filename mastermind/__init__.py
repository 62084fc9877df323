"""mastermind: optimal and heuristic strategies for generalized Mastermind.

>>> from mastermind import Rules, CodeTable
>>> CodeTable(Rules.parse("p3c3")).n
27
"""

import os

# numba's coloured error messages init colorama, whose exit hook writes ESC[0m to a terminal
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")

from mastermind.core.errors import MastermindError  # noqa: E402
from mastermind.core.game import Code, CodeTable, Feedback, Rules, score  # noqa: E402
from mastermind.core.tree import Node, Stats, StrategyTree  # noqa: E402

__all__ = ["Code", "CodeTable", "Feedback", "MastermindError", "Node", "Rules", "Stats",
           "StrategyTree", "score"]
__version__ = "0.1.0"
