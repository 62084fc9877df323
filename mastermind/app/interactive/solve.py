"""One game against a known secret: the probes a strategy makes, as published solvers print them.

>>> from mastermind.app.interactive.solve import solve_game
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(2, 3))
>>> class FirstCandidate:
...     name, table = "first", table
...     def next_guess(self, candidates, history=()):
...         return int(candidates[0])
>>> [str(p) for p in solve_game(FirstCandidate(), table.rules.parse_code("32"))]
['11 0B0W 4', '22 1B0W 2', '23 0B2W 1', '32 2B0W']
"""

from __future__ import annotations

from dataclasses import dataclass

from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, Feedback, Rules
from mastermind.core.strategy import Strategy


@dataclass(frozen=True)
class Probe:
    """A guess, its feedback, and how many secrets are still possible after it (0 once won)."""

    rules: Rules
    guess: Code
    feedback: Feedback
    left: int

    @property
    def won(self) -> bool:
        return self.rules.answer_index(self.feedback) == self.rules.win_index

    def __str__(self) -> str:
        text = f"{self.rules.code_text(self.guess)} {self.feedback}"
        return text if self.won else f"{text} {self.left}"

    def to_dict(self) -> dict:
        return {
            "guess": self.rules.code_text(self.guess),
            "feedback": str(self.feedback),
            "black": self.feedback.black,
            "white": self.feedback.white_told,
            "candidates_left": self.left,
        }


def solve_game(strategy: Strategy, secret: Code, probes: list[Probe] | None = None) -> list[Probe]:
    """Let ``strategy`` break ``secret``; every probe until the winning one (appended to
    ``probes`` as they are made, if given: what a stopped game had played).

    Raises :class:`MastermindError` if the strategy makes a guess that teaches it nothing,
    which would otherwise loop for ever.
    """
    table = strategy.table
    rules = table.rules
    rules.check_code(secret)
    candidates = table.all_codes
    history: list[tuple[Code, int]] = []
    probes = [] if probes is None else probes
    while True:
        guess = int(strategy.next_guess(candidates, tuple(history)))
        rules.check_code(guess)
        feedback = table.feedback(secret, guess)
        if rules.answer_index(feedback) == rules.win_index:
            probes.append(Probe(rules, guess, feedback, 0))
            return probes
        left = table.filter(candidates, guess, feedback)
        if len(left) == len(candidates):
            raise MastermindError(
                f"strategy {strategy.name} guessed {rules.code_text(guess)}, which does not narrow "
                f"the {len(candidates)} candidates: it would never finish"
            )
        candidates = left
        history.append((guess, rules.answer_index(feedback)))
        probes.append(Probe(rules, guess, feedback, len(candidates)))
