"""What the codebreaking and codemaking sessions share: reading one typed line, and the words
both know.

A line is a command word (any case and spacing) or a move of the game. ``quit`` and ``help``
mean the same in every session; ``hint``, ``why``, ``list``, ``history`` and ``undo`` are
known to both (each session says what its suggested guess is and how a step is taken back);
the other words are the session's own. A line of letters that is neither a command nor a
move is answered with the words known, not read as a bad code.

>>> from mastermind.app.interactive.session import Session
>>> from mastermind.core.game import CodeTable, Rules
>>> class Echo(Session):
...     help_text = "say anything"
...     rules = Rules(2, 3)
...     def own_commands(self):
...         return {"again": lambda: "once more"}
...     def move(self, text):
...         self.rules.parse_code(text)
...         return f"you said {text}"
...     def stop(self):
...         return "bye"
>>> [Echo().handle(line) for line in ("  HELP ", "again", "Quit", "1 3")]
['say anything', 'once more', 'bye', 'you said 1 3']
>>> Echo().handle("lsit")
"'lsit' is not a command; the commands: hint, why, list, history, undo, again, quit, help"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mastermind.app.interactive.explain import partition_text
from mastermind.app.interactive.text import code_list, plural
from mastermind.core.errors import MastermindError
from mastermind.core.game import SYMBOLS

if TYPE_CHECKING:
    from mastermind.app.interactive.state import GameState
    from mastermind.core.game import Code, CodeTable, Rules

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")
LIST_LIMIT = 50  # candidates ``list`` shows at most: more would scroll the game away

# what the words every session knows do, for a help text (a session may say more of its own)
SHARED_HELP = {
    "hint": "the suggested guess and how many candidates are left",
    "why": "how the suggested guess splits the candidates",
    "list": f"the candidates, the codes still possible (at most {LIST_LIMIT})",
    "history": "the guesses so far, each with its feedback and the candidates left",
    "undo": "take back the last guess",
}
QUIT_HELP = "stop (Ctrl-D and Ctrl-C too)"


def command_help(own: dict[str, str]) -> str:
    """The command lines of a help text: the shared words (``own`` may say them otherwise),
    then the session's own words, then ``quit``, aligned.

    >>> from mastermind.app.interactive.session import command_help
    >>> print(command_help({"undo": "take it back", "give up": "show the secret"}))
      hint     the suggested guess and how many candidates are left
      why      how the suggested guess splits the candidates
      list     the candidates, the codes still possible (at most 50)
      history  the guesses so far, each with its feedback and the candidates left
      undo     take it back
      give up  show the secret
      quit     stop (Ctrl-D and Ctrl-C too)
    """
    words = {**SHARED_HELP, **own, "quit": QUIT_HELP}
    width = max(map(len, words))
    return "\n".join(f"  {word:<{width}}  {text}" for word, text in words.items())


class Session:
    """One game driven line by line: ``handle(line)`` returns the text to show."""

    help_text = ""
    rules: Rules
    table: CodeTable
    state: GameState
    list_limit = LIST_LIMIT
    # why the game ended before it was over: "quit" (typed) or "end of input" (set by the
    # terminal); None for a game won, given up or going on
    ended_by: str | None = None
    # other spellings of a command word (the word in ``commands``)
    aliases: dict[str, str] = {}

    def commands(self) -> dict[str, Callable[[], str]]:
        """The command words and what each does: those every session knows, then its own."""
        shared = {
            "hint": self.hint,
            "why": self.why_text,
            "list": self.list_text,
            "history": self.history_text,
            "undo": self.undo,
        }
        return {**shared, **self.own_commands()}

    def own_commands(self) -> dict[str, Callable[[], str]]:
        """The session's own command words and what each does."""
        return {}

    def move(self, text: str) -> str:
        """A line that is not a command: a move of the game."""
        raise NotImplementedError

    def stop(self) -> str:
        raise NotImplementedError

    def suggested(self) -> Code:
        """The guess ``hint`` and ``why`` speak of."""
        raise NotImplementedError

    def hint(self) -> str:
        raise NotImplementedError

    def undo(self) -> str:
        raise NotImplementedError

    def handle(self, line: str) -> str:
        """React to one typed line; returns the text to show (may be empty). A refused line is
        one sentence naming what is wrong."""
        text = line.strip()
        word = " ".join(text.lower().split())
        word = self.aliases.get(word, word)
        try:
            if word in QUIT_WORDS:
                self.ended_by = "quit"
                return self.stop()
            if word in HELP_WORDS:
                return self.help_text
            action = self.commands().get(word)
            if action is not None:
                return action()
            try:
                return self.move(text)
            except MastermindError:
                if self._a_word(text):  # (a command mistyped or of the other session: say the words)
                    return self.unknown(word, code_length=len(text) == self.rules.pegs)
                raise
        except MastermindError as exc:
            return f"{exc}"

    def _a_word(self, text: str) -> bool:
        """Letters alone, none of them a colour of the game and not a feedback in letters
        (``BBW``): a word, not a move mistyped."""
        letters = "".join(text.replace("-", " ").split())
        if not (letters.isascii() and letters.isalpha()):
            return False
        colours = SYMBOLS[: self.rules.colors]
        if any(c.upper() in colours for c in letters):
            return False
        try:
            self.rules.variant.parse_answer(letters)
        except MastermindError:
            return True
        return False

    def unknown(self, word: str, code_length: bool = False) -> str:
        """The answer to a word the session does not know: the words it knows. A word as
        long as a code may have been meant as one (``abc`` in p3c3): the game is said too."""
        known = ", ".join([*self.commands(), QUIT_WORDS[0], HELP_WORDS[0]])
        nor = f", nor a code of {self.rules}" if code_length else ""
        return f"{word!r} is not a command{nor}; the commands: {known}"

    # ---- the commands both sessions know -------------------------------------------------
    def history_text(self) -> str:
        return self.state.table_text() if self.state.turns else "No guesses yet."

    def list_text(self) -> str:
        cands = self.state.candidates
        return f"{plural(len(cands), 'candidate')}:\n{code_list(self.rules, cands, self.list_limit)}"

    def why_text(self) -> str:
        return partition_text(self.table, self.suggested(), self.state.candidates)

    def take_back(self) -> str:
        """Take back the last turn: "Guess 1123 (1B2W) taken back" (refused when none)."""
        if not self.state.turns:
            raise MastermindError("Nothing to undo.")
        turn = self.state.undo()
        return f"Guess {self.rules.code_text(turn.guess)} ({self.state.feedback(turn)}) taken back"

    def closing(self) -> str:
        """Text when input ends before the game does (Ctrl-D)."""
        return self.stop()
