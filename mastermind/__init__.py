"""mastermind: optimal and heuristic strategies for generalized Mastermind.

>>> from mastermind import Rules, CodeTable
>>> CodeTable(Rules.parse("p3c3")).n
27
"""

from mastermind.errors import MastermindError
from mastermind.game import Code, CodeTable, Feedback, Rules, score
from mastermind.tree import Node, Stats, StrategyTree

__all__ = ["Code", "CodeTable", "Feedback", "MastermindError", "Node", "Rules", "Stats",
           "StrategyTree", "score"]
__version__ = "0.1.0"
