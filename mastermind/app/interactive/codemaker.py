"""The computer as codemaker: it picks a seeded secret and answers a person's guesses.

>>> from mastermind.app.interactive.codemaker import Codemaker
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(2, 3))
>>> game = Codemaker(table, table.rules.parse_code("32"), seed=7)
>>> game.prompt(), game.handle("12"), game.handle("1 2 3")
('guess 1> ', '1B0W', "code '1 2 3' has 3 pegs, p2c3r needs 2 (colours 1-3); not counted as a guess")
>>> game.handle("undo"), game.handle("12")
('Guess 12 (1B0W) taken back; 0 guesses so far.', '1B0W')
>>> print(game.handle("list"))
4 candidates:
11 13 22 32
>>> print(game.handle("32"))
2B0W - solved in 2 guesses.
turn  guess  feedback  left
   1  12     1B0W         4
   2  32     2B0W         0
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

import numpy as np

from mastermind.app.interactive.session import Session, command_help
from mastermind.app.interactive.state import GameState
from mastermind.app.interactive.text import describe, examples, plural
from mastermind.core.errors import MastermindError
from mastermind.core.game import SYMBOLS, Code, CodeTable, Rules
from mastermind.core.strategy import Strategy

HELP = """\
Type a guess (e.g. {code}, or {spaced}); I answer with {pegs_told}, e.g. {feedback}.
Commands:
""" + command_help(
    {
        "hint": "the strategy's suggested guess and how many candidates are left",
        "why": "how the hint's guess splits the candidates",
        "give up": "show the secret",
    }
)


def new_seed() -> int:
    """A fresh seed, shown to the player so that the game can be replayed."""
    return secrets.randbelow(2**31)


def seed_streams(seed: int) -> tuple[int, int]:
    """Two independent seeds from one: the secret's and the hint strategy's. Drawn from the
    same stream, a random strategy's first hint would be the secret itself.

    >>> from mastermind.app.interactive.codemaker import seed_streams
    >>> a, b = seed_streams(7); a != b and seed_streams(7) == (a, b)
    True
    """
    secret, strategy = np.random.SeedSequence(seed).generate_state(2)
    return int(secret), int(strategy)


def pick_secret(rules: Rules, seed: int) -> Code:
    """The secret for ``seed``: the same rules and seed always give the same code.

    >>> from mastermind.app.interactive.codemaker import pick_secret
    >>> from mastermind.core.game import Rules
    >>> pick_secret(Rules(4, 6), 1) == pick_secret(Rules(4, 6), 1)
    True
    """
    return int(np.random.default_rng(seed_streams(seed)[0]).integers(rules.n_codes))


class Codemaker(Session):
    """A session where a person breaks ``secret``: ``handle(line)`` for every line, until ``done``.

    ``hint_strategy`` builds the strategy behind ``hint`` the first time one is asked for
    (building it may need the full score table).
    """

    aliases = {"giveup": "give up", "give-up": "give up"}

    @property
    def help_text(self) -> str:  # type: ignore[override]
        return HELP.format(**examples(self.rules))  # (its examples in the game's pegs and colours)

    def __init__(
        self,
        table: CodeTable,
        secret: Code,
        *,
        seed: int | None = None,
        hint_strategy: Callable[[], Strategy] | None = None,
    ) -> None:
        self.table = table
        self.rules = table.rules
        self.rules.check_code(secret)
        self.secret = secret
        self.seed = seed
        self.state = GameState(table)
        self.done = False
        self.gave_up = False
        self._make_strategy = hint_strategy
        self._strategy: Strategy | None = None

    def opening(self) -> str:
        return (
            f"I have picked a secret code ({describe(self.rules)}). "
            f"Type your guesses; help lists the commands."
        )

    def prompt(self) -> str:
        return f"guess {len(self.state.turns) + 1}> "

    def own_commands(self) -> dict[str, Callable[[], str]]:
        return {"give up": self.give_up}

    def move(self, text: str) -> str:
        if text == "":
            colours = plural(self.rules.pegs, "colour")
            return f"type a guess of {colours} 1-{SYMBOLS[self.rules.colors - 1]}, or help"
        try:
            guess = self.rules.parse_code(text)
        except MastermindError as exc:
            raise MastermindError(f"{exc}; not counted as a guess") from None
        return self.guess(guess)

    def guess(self, guess: Code) -> str:
        feedback = self.table.feedback(self.secret, guess)
        self.state.play(guess, feedback)
        if self.state.won:
            self.done = True
            return (
                f"{feedback} - solved in {plural(len(self.state.turns), 'guess')}.\n{self.state.table_text()}"
            )
        return str(feedback)

    def undo(self) -> str:
        return f"{self.take_back()}; {plural(len(self.state.turns), 'guess')} so far."

    def _hint_strategy(self) -> Strategy:
        if self._make_strategy is None:
            raise MastermindError("no hints in this game")
        if self._strategy is None:
            self._strategy = self._make_strategy()
        return self._strategy

    def suggested(self) -> Code:
        """The hint: the strategy's guess for the position."""
        return int(self._hint_strategy().next_guess(self.state.candidates, self.state.history))

    def hint(self) -> str:
        suggestion = self.suggested()
        strategy = self._hint_strategy()
        guesser = getattr(strategy, "guesser", None)  # (a strategy file's tree, or off it)
        by = strategy.name if guesser is None else guesser(self.state.history)
        left = plural(len(self.state.candidates), "candidate")
        return f"hint: {self.rules.code_text(suggestion)} ({left} left, strategy {by})"

    def reveal(self) -> str:
        seed = "" if self.seed is None else f" (seed {self.seed}; replay with --seed {self.seed})"
        return f"The secret was {self.rules.code_text(self.secret)}{seed}."

    def give_up(self) -> str:
        self.done = self.gave_up = True
        return self.reveal()

    def stop(self) -> str:
        self.done = True
        played = plural(len(self.state.turns), "guess")
        seed = "" if self.seed is None else f"; replay this secret with --seed {self.seed}"
        return f"Stopped after {played}{seed}."

    def to_dict(self) -> dict:
        won = self.state.won
        return {
            "rules": str(self.rules),
            "seed": self.seed,
            "solved": won,
            "gave_up": self.gave_up,
            "secret": self.rules.code_text(self.secret) if (won or self.gave_up) else None,
            "guesses": len(self.state.turns),
            "turns": self.state.to_dict(),
        }
