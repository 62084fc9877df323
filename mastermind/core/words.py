"""Words for messages: counts (how many of something there are) and the user's own input."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``1 candidate``, ``2 candidates``, ``3 guesses``, ``2 best replies``.

    >>> from mastermind.core.words import plural
    >>> plural(1, "candidate"), plural(2, "candidate"), plural(3, "guess"), plural(0, "peg")
    ('1 candidate', '2 candidates', '3 guesses', '0 pegs')
    >>> plural(1, "best reply"), plural(2, "best reply"), plural(2, "key")
    ('1 best reply', '2 best replies', '2 keys')
    """
    if n == 1:
        return f"{n} {word}"
    if word.endswith("s"):
        return f"{n} {word}es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return f"{n} {word[:-1]}ies"
    return f"{n} {word}s"


def quoted(text: str, limit: int = 40) -> str:
    """What the user typed, quoted for a one-line message: at most ``limit`` characters of it
    (a pasted megabyte would bury the message).

    >>> from mastermind.core.words import quoted
    >>> quoted("1123"), quoted("9" * 100, 8)
    ("'1123'", "'99999999'... (100 characters)")
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
