"""The one exception type for bad input; the CLI turns it into a one-line message and exit 2."""


class MastermindError(ValueError):
    """Bad input: rules, codes, feedback, files or sizes. The message is one line for a user."""
