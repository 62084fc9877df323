"""The value of Mastermind as a zero-sum game between code maker and code breaker."""

from mastermind.engines.gamevalue.bestreply import best_reply, search_best_reply
from mastermind.engines.gamevalue.classes import CodeClasses, code_classes
from mastermind.engines.gamevalue.colgen import BreakerTree, GameValue, MakerClass, game_value
from mastermind.engines.gamevalue.document import fraction_text, game_value_document
from mastermind.engines.gamevalue.proof import game_value_proof, write_game_value_proof

__all__ = [
    "BreakerTree",
    "CodeClasses",
    "GameValue",
    "MakerClass",
    "best_reply",
    "code_classes",
    "fraction_text",
    "game_value",
    "game_value_document",
    "game_value_proof",
    "search_best_reply",
    "write_game_value_proof",
]
