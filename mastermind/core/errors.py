"""The one exception type for bad input; the CLI turns it into a one-line message and exit 2."""


class MastermindError(ValueError):
    """Bad input: rules, codes, feedback, files or sizes. The message is one line for a user.

    >>> from mastermind.core.game import Rules
    >>> Rules(4, 6).parse_code("1279")
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: ...
    """


class NoStrategy(MastermindError):
    """Not bad input but an answer: no strategy meets the limit asked for (a number of
    guesses, a first guess); the CLI reports it with exit code 1."""


class TableTooLarge(MastermindError):
    """A game whose tables would exceed the memory limit (the CLI says how to raise it, where
    the command has the option)."""
