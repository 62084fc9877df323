"""The one exception type for bad input; the CLI turns it into a one-line message and exit 2."""


class MastermindError(ValueError):
    """Bad input: rules, codes, feedback, files or sizes. The message is one line for a user.

    >>> from mastermind.core.game import Rules
    >>> Rules(4, 6).parse_code("1279")
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: ...
    """


class TableTooLarge(MastermindError):
    """A game whose tables would exceed the memory limit (the CLI says how to raise it, where
    the command has the option).

    >>> from mastermind.core.game import CodeTable, Rules
    >>> CodeTable(Rules(6, 9), memory_limit=2**20)
    Traceback (most recent call last):
    ...
    mastermind.core.errors.TableTooLarge: ...
    """
