"""Writing files atomically: a reader never sees half a file, a failure leaves the old one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from mastermind.core.errors import MastermindError


def write_atomic(path: str | os.PathLike, text: str | bytes) -> None:
    """Write ``text`` (str, or bytes written as they are) to ``path`` through a temporary
    file in the same folder and a rename."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise MastermindError(f"cannot write {target}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        binary = isinstance(text, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def read_text(path: str | os.PathLike) -> str:
    """Read a text file, turning a missing or unreadable file into a one-line error."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MastermindError(f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MastermindError(f"cannot read {path}: {exc}") from None
