"""What the codebreaking and codemaking sessions share: reading one typed line.

A line is a command word (any case and spacing) or a move of the game; ``quit`` and ``help``
mean the same in every session, the other words are the session's own.

>>> class Echo(Session):
...     help_text = "say anything"
...     def commands(self):
...         return {"again": lambda: "once more"}
...     def move(self, text):
...         return f"you said {text}"
...     def stop(self):
...         return "bye"
>>> [Echo().handle(line) for line in ("  HELP ", "again", "Quit", "12 34")]
['say anything', 'once more', 'bye', 'you said 12 34']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mastermind.core.errors import MastermindError

if TYPE_CHECKING:
    from mastermind.app.interactive.state import GameState
    from mastermind.core.game import Rules

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")


class Session:
    """One game driven line by line: ``handle(line)`` returns the text to show."""

    help_text = ""
    rules: Rules
    state: GameState
    # why the game ended before it was over: "quit" (typed) or "end of input" (set by the
    # terminal); None for a game won, given up or going on
    ended_by: str | None = None

    def commands(self) -> dict[str, Callable[[], str]]:
        """The session's own command words and what each does."""
        return {}

    def move(self, text: str) -> str:
        """A line that is not a command: a move of the game."""
        raise NotImplementedError

    def stop(self) -> str:
        raise NotImplementedError

    def handle(self, line: str) -> str:
        """React to one typed line; returns the text to show (may be empty). A refused line is
        one sentence naming what is wrong."""
        text = line.strip()
        word = " ".join(text.lower().split())
        try:
            if word in QUIT_WORDS:
                self.ended_by = "quit"
                return self.stop()
            if word in HELP_WORDS:
                return self.help_text
            action = self.commands().get(word)
            return action() if action is not None else self.move(text)
        except MastermindError as exc:
            return f"{exc}"

    def take_back(self) -> str:
        """Take back the last turn: "Guess 1123 (1B2W) taken back" (refused when none)."""
        if not self.state.turns:
            raise MastermindError("Nothing to undo.")
        turn = self.state.undo()
        return f"Guess {self.rules.code_text(turn.guess)} ({self.state.feedback(turn)}) taken back"

    def closing(self) -> str:
        """Text when input ends before the game does (Ctrl-D)."""
        return self.stop()
