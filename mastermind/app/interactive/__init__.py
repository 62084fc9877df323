"""Playing one game at a time: the computer as codebreaker or codemaker, or one secret solved.

The sessions know nothing about terminals: :class:`~mastermind.app.interactive.assistant.Assistant`
(``mastermind assist``) and :class:`~mastermind.app.interactive.codemaker.Codemaker`
(``mastermind play``) take each typed line and return the text to show, so a person, a pipe
and a test drive them alike; :mod:`~mastermind.app.interactive.terminal` is the thin loop that
reads lines and prints replies. :mod:`~mastermind.app.interactive.solve` plays one secret
(``mastermind solve``); :mod:`~mastermind.app.interactive.optimal` keeps optimal advice going when
a person leaves the optimal tree; :mod:`~mastermind.app.interactive.explain` says how a guess splits
the candidates and which answers contradict each other.
"""
