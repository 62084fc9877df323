"""A proof file read piece by piece: its facts (millions in a big proof) are checked as they
are read, never all held at once as parsed JSON. The file is the same JSON object as
:func:`json.load` reads (any key order, gzip-compressed or not); each value but the list of
facts is parsed whole, at most ``MAX_VALUE`` characters long, as a strategy file is.

>>> import io
>>> from mastermind.proofcheck.reading import proof_items
>>> items = proof_items(io.BytesIO(b'{"total": 5, "facts": [{"path": []}, {"path": []}]}'))
>>> [(key, list(value) if key == "facts" else value) for key, value in items]
[('total', 5), ('facts', [{'path': []}, {'path': []}])]
"""

from __future__ import annotations

import codecs
import gzip
import json
import re
import zlib
from collections.abc import Iterator
from typing import IO, Any

from mastermind.proofcheck.game import ProofError

CHUNK = 1 << 20
MAX_VALUE = 256 << 20  # (characters: a strategy tree, as a strategy file's cap)
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_READ_ERRORS = (OSError, EOFError, zlib.error)


def open_proof(path: str) -> IO[bytes]:
    """The file's bytes, uncompressed as they are read when it is gzip-compressed (a file
    opened twice: a regular file, not a pipe)."""
    with open(path, "rb") as fh:
        compressed = fh.read(2) == b"\x1f\x8b"
    return gzip.open(path, "rb") if compressed else open(path, "rb")  # type: ignore[return-value]


class _Text:
    """The text of a stream, read in chunks as the values in it are parsed."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.stream, self.limit = stream, limit
        self.decode = codecs.getincrementaldecoder("utf-8-sig")().decode  # (a BOM dropped, as strategy files)
        self.text, self.pos, self.offset, self.eof = "", 0, 0, False

    def _more(self, at_least: int) -> None:
        try:
            raw = self.stream.read(max(CHUNK, at_least))
            more = self.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:
            raise ProofError(f"not UTF-8 text ({exc.reason})") from None
        except _READ_ERRORS as exc:
            raise ProofError(f"a damaged file ({exc})") from None
        self.eof = not raw
        self.offset += self.pos
        self.text, self.pos = self.text[self.pos :] + more, 0

    def peek(self) -> str:
        """The next character other than white space ('' at the end)."""
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.text) or self.eof:
                return self.text[self.pos : self.pos + 1]
            self._more(0)

    def take(self, allowed: str) -> str:
        """The next character, one of ``allowed``."""
        got = self.peek()
        if not got or got not in allowed:
            where = self.offset + self.pos
            raise ProofError(f"not JSON (expected {' or '.join(allowed)} at character {where})")
        self.pos += 1
        return got

    def value(self) -> Any:
        """The next JSON value (a number is taken once a character follows it, or the end)."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.pos)
                if end < len(self.text) or self.eof:
                    self.pos = end
                    return value
            except json.JSONDecodeError as exc:
                if self.eof:
                    at = "" if exc.msg.endswith(" at") else " at"  # ("Unterminated string starting at")
                    raise ProofError(f"not JSON ({exc.msg}{at} character {self.offset + exc.pos})") from None
            except ValueError as exc:  # Python's int() refuses numbers past 4300 digits
                if "digits" not in str(exc):
                    raise
                where = self.offset + self.pos
                raise ProofError(f"not JSON (a number too long to read, at character {where})") from None
            pending = len(self.text) - self.pos
            if pending > self.limit:
                where = self.offset + self.pos
                size = f"{self.limit >> 20} MiB" if self.limit >= 1 << 20 else f"{self.limit} characters"
                raise ProofError(f"a value longer than {size} at character {where}")
            self._more(pending)  # (as much again: a long value is parsed a few times at most)


class Facts:
    """The list of facts, read as it is iterated; what is left of it when the reader moves on
    to the next key is read and kept (a file whose facts come before its rules)."""

    def __init__(self, elements: Iterator[Any]) -> None:
        self.elements = elements
        self.kept: list[Any] | None = None

    def __iter__(self) -> Iterator[Any]:
        return self.elements if self.kept is None else iter(self.kept)

    def keep(self) -> None:
        self.kept = list(self.elements)


def proof_items(stream: IO[bytes]) -> Iterator[tuple[str, Any]]:
    """The keys of the file's JSON object and their values, in the file's order; the value of
    ``facts`` (when a list) is a :class:`Facts`, read as the caller iterates it."""
    text = _Text(stream, MAX_VALUE)
    text.take("{")
    closed = text.peek() == "}"
    if closed:  # (an empty object)
        text.take("}")
    while not closed:
        key = text.value()
        if not isinstance(key, str):
            raise ProofError(f"not JSON (a key must be a string, got {key!r})")
        text.take(":")
        if key == "facts" and text.peek() == "[":
            facts = Facts(_elements(text))
            yield key, facts
            facts.keep()
        else:
            yield key, text.value()
        closed = text.take(",}") == "}"
    if text.peek():
        raise ProofError(f"not JSON (more after the object, at character {text.offset + text.pos})")


def _elements(text: _Text) -> Iterator[Any]:
    text.take("[")
    if text.peek() == "]":
        text.take("]")
        return
    while True:
        yield text.value()
        if text.take(",]") == "]":
            return


def proof_rules(stream: IO[bytes]) -> object:
    """The value of ``rules`` when it comes before the facts (else None), the rest unread."""
    for key, value in proof_items(stream):
        if key == "facts":
            return None
        if key == "rules":
            return value
    return None


def count_facts(stream: IO[bytes]) -> int:
    """How many facts the file can hold at most, read without parsing it: every fact has a
    ``"path"`` key (a file that spells it otherwise is refused when checked, or takes more
    memory than this counts)."""
    count, tail = 0, b""
    try:
        while chunk := stream.read(CHUNK):
            joined = tail + chunk
            count += joined.count(b'"path"')
            tail = joined[-5:]  # (a key cut by the chunk's end is counted with the next one)
    except _READ_ERRORS as exc:
        raise ProofError(f"a damaged file ({exc})") from None
    return count
