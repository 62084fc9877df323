"""Finished answers on disk: the same command asked again prints its stored JSON at once.

An exact optimum or a heuristics table does not change until the code does, yet computing
it again costs the start-up of numba (about a second) before any search. Each answer is a
JSON file under ``$XDG_CACHE_HOME/mastermind`` (``~/.cache/mastermind``), found by a key of
everything the answer depends on: the command, the rules, every option that changes the
answer, the package version and a digest of the package's source (a changed kernel or
solver never serves an old answer). Options that do not change the answer (``--jobs``,
``--memory-limit``, a time limit: only finished answers are kept) are not in the key. An
entry is written atomically (:func:`mastermind.core.fileio.write_atomic`) with a SHA-256 of
its answer, as the checkpoints keep theirs; one that cannot be read, is not JSON, holds
another key or an answer that does not match its checksum (an edited file) is ignored, and
the answer is computed and stored again.

>>> from mastermind.app.resultcache import ResultCache
>>> import tempfile
>>> cache = ResultCache(tempfile.mkdtemp())
>>> entry = cache.entry("optimal", "p2c3r", {"objective": "total"})
>>> entry.load() is None
True
>>> entry.store({"total": 21, "seconds": 0.01})
>>> cache.entry("optimal", "p2c3r", {"objective": "total"}).load()
{'total': 21, 'seconds': 0.01, 'cached': True}
>>> cache.entry("optimal", "p2c3r", {"objective": "worst"}).load() is None
True
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from mastermind.core.errors import MastermindError
from mastermind.core.fileio import write_atomic

FORMAT = 2  # of the entry files (2: with the answer's checksum); another number is another key
MAX_ENTRY_BYTES = 64 * 1024**2  # a by-first-guess table of a big game is a few MiB


def default_folder() -> Path:
    """``$XDG_CACHE_HOME/mastermind``, or ``~/.cache/mastermind`` (also when the variable is
    a relative path, which the XDG specification says to ignore)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mastermind"


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """SHA-256 of every Python source file of the package (names and contents)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def package_version() -> str:
    from mastermind import __version__

    return __version__


class ResultCache:
    """The folder of stored answers (:func:`default_folder` unless given)."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()

    def entry(self, command: str, rules: str, options: dict[str, Any]) -> CacheEntry:
        key = {
            "format": FORMAT,
            "command": command,
            "rules": rules,
            "options": options,
            "version": package_version(),
            "source": source_digest(),
        }
        return CacheEntry(self.folder, key)


class CacheEntry:
    """One answer: :meth:`load` it (None when absent or damaged), or :meth:`store` it."""

    def __init__(self, folder: Path, key: dict[str, Any]) -> None:
        self.key = json.loads(json.dumps(key, sort_keys=True))  # as it reads back from a file
        text = json.dumps(self.key, sort_keys=True)
        name = f"{key['command']}-{key['rules']}-{hashlib.sha256(text.encode()).hexdigest()[:32]}.json"
        self.path = folder / name

    def load(self) -> Any | None:
        """The stored answer, each row marked ``"cached": true``; None if there is none or
        the file is damaged (unreadable, not JSON, another key, no answer)."""
        try:
            with open(self.path, "rb") as fh:
                raw = fh.read(MAX_ENTRY_BYTES + 1)
            data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_ENTRY_BYTES else None
        except (OSError, ValueError):  # ValueError: bad UTF-8 or JSON
            return None
        if not isinstance(data, dict) or data.get("key") != self.key:
            return None
        answer = data.get("answer")
        if data.get("sha256") != _checksum(answer):  # edited or damaged: computed again
            return None
        rows = answer if isinstance(answer, list) else [answer]
        if not rows or not all(isinstance(row, dict) for row in rows):
            return None
        for row in rows:
            row["cached"] = True
        return answer

    def store(self, answer: Any) -> None:
        """Keep ``answer`` (JSON rows: a dict or a list of dicts); a cache that cannot be
        written is no error, the answer is only not kept."""
        # the answer's keys in their order
        text = json.dumps({"key": self.key, "answer": answer, "sha256": _checksum(answer)})
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, text)
        except (OSError, MastermindError):
            pass


def _checksum(answer: Any) -> str:
    """SHA-256 of an answer, as read back from its file (keys sorted: the order does not count)."""
    return hashlib.sha256(json.dumps(answer, sort_keys=True).encode()).hexdigest()
