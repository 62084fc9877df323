"""The value of Mastermind as a zero-sum game between code maker and code breaker."""

from mastermind.engines.gamevalue.bestreply import best_reply, search_best_reply
from mastermind.engines.gamevalue.classes import CodeClasses, code_classes
from mastermind.engines.gamevalue.colgen import BreakerTree, GameValue, MakerClass, game_value

__all__ = [
    "BreakerTree",
    "CodeClasses",
    "GameValue",
    "MakerClass",
    "best_reply",
    "code_classes",
    "game_value",
    "search_best_reply",
]
