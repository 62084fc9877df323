"""Playing one game at a time: the computer as codebreaker or codemaker, or one secret solved.

The sessions here know nothing about terminals: :class:`~mastermind.interactive.assistant.Assistant`
and :class:`~mastermind.interactive.codemaker.Codemaker` take each typed line and return the
text to show, so they are driven the same way by a person, a pipe or a test.
:mod:`mastermind.interactive.terminal` is the thin loop that reads lines and prints replies.
"""
