"""The state of one game in progress: the turns played and the candidates after each.

>>> from mastermind.app.interactive.state import GameState
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(2, 3))
>>> state = GameState(table)
>>> state.play(table.rules.parse_code("12"), table.rules.parse_feedback("1B0W"))
Turn(guess=1, answer=3, left=4)
>>> state.code_texts(state.candidates), state.history
(['11', '13', '22', '32'], ((1, 3),))
>>> print(state.table_text())
turn  guess  feedback  left
   1  12     1B0W         4
>>> state.undo().guess, len(state.candidates)
(1, 9)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mastermind.app.interactive.text import columns
from mastermind.core.game import AnswerIndex, Code, CodeTable, Feedback
from mastermind.core.tree import History


@dataclass(frozen=True)
class Turn:
    """A guess, its answer, and the number of codes still possible after it (0 once won)."""

    guess: Code
    answer: AnswerIndex
    left: int


class GameState:
    """Turns so far and the candidate set after each one, so that turns can be taken back."""

    def __init__(self, table: CodeTable) -> None:
        self.table = table
        self.rules = table.rules
        self.turns: list[Turn] = []
        self._candidates: list[np.ndarray] = [table.all_codes]

    @property
    def candidates(self) -> np.ndarray:
        """The codes consistent with every answer so far."""
        return self._candidates[-1]

    @property
    def history(self) -> History:
        return tuple((t.guess, t.answer) for t in self.turns)

    @property
    def won(self) -> bool:
        return bool(self.turns) and self.turns[-1].answer == self.rules.win_index

    def after(self, guess: Code, feedback: Feedback) -> np.ndarray:
        """The candidates that would remain if ``guess`` got ``feedback``."""
        return self.table.filter(self.candidates, guess, feedback)

    def play(self, guess: Code, feedback: Feedback) -> Turn:
        """Record a turn; the caller has checked that some candidate remains."""
        left = self.after(guess, feedback)
        answer = self.rules.answer_index(feedback)
        turn = Turn(guess, answer, 0 if answer == self.rules.win_index else len(left))
        self.turns.append(turn)
        self._candidates.append(left)
        return turn

    def undo(self) -> Turn:
        """Take back the last turn and return it."""
        self._candidates.pop()
        return self.turns.pop()

    def feedback(self, turn: Turn) -> Feedback:
        return self.rules.answer_feedbacks[turn.answer]

    def code_texts(self, codes) -> list[str]:
        return [self.rules.code_text(int(c)) for c in codes]

    def table_text(self) -> str:
        """The history table: turn, guess, feedback, candidates left."""
        rows = [["turn", "guess", "feedback", "left"]]
        for k, t in enumerate(self.turns, 1):
            rows.append([str(k), self.rules.code_text(t.guess), str(self.feedback(t)), str(t.left)])
        return columns(rows, right=(0, 3))

    def to_dict(self) -> list[dict]:
        # (solve's turns too: the same keys, black and white beside the feedback's text)
        return [
            {
                "turn": k,
                "guess": self.rules.code_text(t.guess),
                "feedback": str(feedback := self.feedback(t)),
                "black": feedback.black,
                "white": feedback.white_told,
                "candidates_left": t.left,
            }
            for k, t in enumerate(self.turns, 1)
        ]
