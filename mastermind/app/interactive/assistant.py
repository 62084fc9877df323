"""The computer as codebreaker: it suggests each guess, a person reports the feedback.

The session takes one typed line at a time and returns the text to show, so a terminal,
a pipe and a test drive it alike (see :mod:`mastermind.app.interactive.terminal`).

>>> from mastermind.app.interactive.assistant import Assistant
>>> from mastermind.core.game import CodeTable, Rules
>>> class FirstCandidate:
...     name, table = "first-candidate", CodeTable(Rules(2, 3))
...     def next_guess(self, candidates, history=()):
...         return int(candidates[0])
>>> a = Assistant(FirstCandidate())
>>> print(a.turn_header())
Turn 1 - 9 candidates - suggested guess: 11
>>> a.prompt(), a.handle(""), a.prompt()
('guess [11]> ', '', 'feedback for 11> ')
>>> print(a.handle("1 0"))
Turn 2 - 4 candidates - suggested guess: 12
>>> print(a.handle("undo"))
Guess 11 (1B0W) taken back.
Turn 1 - 9 candidates - suggested guess: 11
>>> a.handle("give up")
"'give up' is not a command; the commands: hint, why, list, history, undo, quit, help"
"""

from __future__ import annotations

from mastermind.app.interactive.explain import conflicting_turns
from mastermind.app.interactive.session import LIST_LIMIT, Session, command_help
from mastermind.app.interactive.state import GameState
from mastermind.app.interactive.text import describe, examples, plural
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, Feedback, Rules
from mastermind.core.strategy import Strategy
from mastermind.core.tree import History

HELP = """\
At the guess prompt press Enter to play the suggested guess, or type the guess you played (e.g. {code});
you may add its feedback on the same line ({code} {feedback}), or type just the feedback to the suggestion.
At the feedback prompt type the answer: {answers}.
Commands at any prompt:
""" + command_help(
    {
        "hint": "the suggested guess again, and how many candidates are left",
        "why": "how the guess (the one typed, else the suggested) splits the candidates",
        "undo": "take back the last step (the guess just typed, else the last turn)",
    }
)


class Assistant(Session):
    """A codebreaking session: ``handle(line)`` for every line typed, until ``done``."""

    @property
    def help_text(self) -> str:  # type: ignore[override]
        return HELP.format(**examples(self.rules))  # (its examples in the game's pegs and colours)

    def __init__(
        self, strategy: Strategy, *, list_limit: int = LIST_LIMIT, seed_note: str | None = None
    ) -> None:
        """``seed_note``: how to repeat the session (a seed drawn for a strategy that draws), said first."""
        self.strategy = strategy
        self.seed_note = seed_note
        self.table = strategy.table
        self.rules = self.table.rules
        self.state = GameState(self.table)
        self.pending: Code | None = None  # the guess played this turn, awaiting its feedback
        self.list_limit = list_limit
        self.done = False
        self._suggestions: dict[History, Code] = {}

    # ---- what the person sees ------------------------------------------------------------
    def opening(self) -> str:
        seed = "" if self.seed_note is None else f" ({self.seed_note})"
        return (
            f"Think of a secret code ({describe(self.rules)}); I will break it with strategy "
            f"{self.strategy.name}{seed}. Type help for commands.\n{self.turn_header()}"
        )

    def turn_header(self) -> str:
        n = len(self.state.candidates)
        return (
            f"Turn {len(self.state.turns) + 1} - {plural(n, 'candidate')} - "
            f"suggested guess: {self.rules.code_text(self.suggestion())}{self._off_tree()}"
        )

    def _off_tree(self) -> str:
        """Where a strategy file's tree no longer covers the game (a guess of your own), who
        suggests instead."""
        guesser = getattr(self.strategy, "guesser", None)
        by = self.strategy.name if guesser is None else guesser(self.state.history)
        return "" if by == self.strategy.name else f" (by {by})"

    def prompt(self) -> str:
        if self.pending is None:
            return f"guess [{self.rules.code_text(self.suggestion())}]> "
        return f"feedback for {self.rules.code_text(self.pending)}> "

    def suggestion(self) -> Code:
        """The strategy's guess for the current position (asked once per position)."""
        key = self.state.history
        if key not in self._suggestions:
            self._suggestions[key] = int(self.strategy.next_guess(self.state.candidates, key))
        return self._suggestions[key]

    # ---- input ---------------------------------------------------------------------------
    def move(self, text: str) -> str:
        return self._take_guess(text) if self.pending is None else self._take_feedback(text)

    def _take_guess(self, text: str) -> str:
        if text == "":
            self.pending = self.suggestion()
            return ""
        try:
            self.pending = self.rules.parse_code(text)
            return ""
        except MastermindError as not_a_code:
            guess, feedback = self._split_guess_and_feedback(text)
            if feedback is None:
                raise not_a_code from None
        # a feedback, alone (to the suggestion) or after the guess played
        self.pending = guess
        try:
            return self._take_feedback(feedback)
        except MastermindError:
            self.pending = None  # refused at once: stay at the guess prompt
            raise

    def _split_guess_and_feedback(self, text: str) -> tuple[Code, str | None]:
        """Read ``1B0W`` (feedback to the suggestion) or ``1122 1B0W`` (guess, then feedback)."""
        try:
            self.rules.variant.parse_answer(text)
            return self.suggestion(), text
        except MastermindError as not_an_answer:
            if _standard_answer(text) and not _a_code(self.rules, text):
                raise not_an_answer from None  # (2B1W in black-peg: say what its answers are)
        head, _, tail = text.rpartition(" ")
        if head.strip():
            try:
                self.rules.variant.parse_answer(tail)
            except MastermindError as bad_feedback:
                try:
                    self.rules.parse_code(head)
                except MastermindError:
                    return self.suggestion(), None
                raise bad_feedback from None  # a guess, then something else: the feedback is wrong
            return self.rules.parse_code(head), tail  # a bad guess before a feedback: say why
        return self.suggestion(), None

    def _take_feedback(self, text: str) -> str:
        guess = self.pending
        assert guess is not None  # (the feedback prompt: a guess waits for its feedback)
        if text == "":
            example = examples(self.rules)["feedback"]
            return f"type the feedback for {self.rules.code_text(guess)}, e.g. {example} (help for more)"
        feedback = self.rules.parse_feedback(text)
        left = self.state.after(guess, feedback)
        if len(left) == 0:
            return self.contradiction(guess, feedback)
        self.state.play(guess, feedback)
        self.pending = None
        if self.state.won:
            self.done = True
            return self.finish_text()
        return self.turn_header()

    # ---- commands ------------------------------------------------------------------------
    def suggested(self) -> Code:
        """The guess typed, waiting for its feedback, else the suggestion."""
        return self.suggestion() if self.pending is None else self.pending

    def hint(self) -> str:
        return self.turn_header()  # (the suggestion heads every turn: said again)

    def undo(self) -> str:
        if self.pending is not None:
            guess, self.pending = self.pending, None
            return f"Guess {self.rules.code_text(guess)} taken back.\n{self.turn_header()}"
        return f"{self.take_back()}.\n{self.turn_header()}"

    def stop(self) -> str:
        self.done = True
        played = len(self.state.turns)
        left = plural(len(self.state.candidates), "candidate")
        text = f"Stopped after {plural(played, 'guess')}, {left} left."
        return f"{text}\n{self.state.table_text()}" if played else text

    def contradiction(self, guess: Code, feedback: Feedback) -> str:
        """Refuse feedback that leaves no candidate, naming the earlier answers it contradicts."""
        r = self.rules
        turns = self.state.turns
        earlier = [(t.guess, self.state.feedback(t)) for t in turns]
        culprits = conflicting_turns(self.table, earlier, (guess, feedback))
        said = f"{feedback} to {r.code_text(guess)}"
        if not culprits:
            return f"No code answers {said}: check the feedback and type it again."
        names = ", ".join(f"{earlier[i][1]} to {r.code_text(earlier[i][0])} (turn {i + 1})" for i in culprits)
        last = turns[-1]
        return (
            f"No code fits all the answers: {said} contradicts {names}.\n"
            f"Type the feedback for {r.code_text(guess)} again, or undo to change the guess; "
            f"a second undo takes back turn {len(turns)} "
            f"({r.code_text(last.guess)} {self.state.feedback(last)})."
        )

    def finish_text(self) -> str:
        n = len(self.state.turns)
        secret = self.rules.code_text(self.state.turns[-1].guess)
        return f"Solved: the secret is {secret}, found in {plural(n, 'guess')}.\n{self.state.table_text()}"

    def to_dict(self) -> dict:
        won = self.state.won
        return {
            "rules": str(self.rules),
            "strategy": self.strategy.name,
            "solved": won,
            "secret": self.rules.code_text(self.state.turns[-1].guess) if won else None,
            "guesses": len(self.state.turns),
            "candidates_left": 0 if won else len(self.state.candidates),
            "turns": self.state.to_dict(),
        }


def _standard_answer(text: str) -> bool:
    """Whether ``text`` reads as an answer of the standard game (black and white pegs)."""
    try:
        Feedback.parse(text)
    except MastermindError:
        return False
    return True


def _a_code(rules: Rules, text: str) -> bool:
    try:
        rules.parse_code(text)
    except MastermindError:
        return False
    return True
