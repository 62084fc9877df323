"""A search's memo kept in a file, so that a long search stopped (time limit, Ctrl-C) starts
again where it was: the entries of its bigger sets, reloaded into the next run's memo.

Used by the search for the least depth (:meth:`ExactSolver.least_depth`), whose runs at the
frontier last hours and which has no work units to checkpoint: its entries say whether a set
has a strategy within some number of guesses, facts that hold whatever run found them. A run
that reloads them answers at once every set an earlier run settled, so it goes on from the
edge of what was explored (a memo entry is never wrong, only possibly missing).

Only sets of at least ``min_size`` candidates are kept: they hold most of the work saved, and
the small ones, found again quickly, would make the file many times larger. The file is an
``.npz`` (no pickles) with the entries and a header: what the search was made for (rules,
pool, costs, the memo key's format) and a SHA-256 of the entries. A file made for anything
else, or damaged, is refused with a one-line error, never used; it is written atomically.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.fileio import check_writable, write_atomic


class CheckpointFileError(MastermindError):
    """A file of a checkpoint folder that cannot be used: its database
    (:class:`~mastermind.engines.exact.checkpoint.CheckpointError`) or a memo kept beside it
    (:class:`MemoFileError`), both said of ``--checkpoint`` on the command line."""


class MemoFileError(CheckpointFileError):
    """A memo file that cannot be used: made for another search, or damaged."""


FORMAT = 1
"""Bumped when the memo's key (``_dfs.set_key``: the candidate sequence and guesses left) or
its rows change: a file of another format would map sets to other sets' entries."""

DEPTH_FILE = "least-depth.npz"
"""The least depth's memo, in a checkpoint folder beside the work units' SQLite file."""

UNITS_FILE = "units-memo.npz"
"""The memo the work units of a checkpointed run shared (threads of one process), in its
checkpoint folder: a continued run's units start from the bounds the last run's units
proved for the bigger sets, rather than prove them again."""

MIN_SIZE = 8
"""The smallest set whose entry is kept (see the module's docstring and benchmarks/NOTES.md)."""

MAX_ENTRIES = 1 << 18
"""The most entries kept, those of the biggest sets: 8 MB (their keys, random bits, do not
compress), small enough for a checkpoint kept under version control. 6x8n's depth search
held 11.5 M entries after 5000 s, 84 k of sets of 16 or more (see benchmarks/NOTES.md)."""


SAVE_SECONDS = 600.0
"""How often a search that keeps its memo in a file saves it while it runs (besides at its
end), so that a run killed loses at most this much work (saving takes under a second)."""


def fingerprint(rules: str, pool: str, unit: int, penalty: int) -> dict:
    """What the entries are about: they hold only for this game, pool and costs."""
    return {"format": FORMAT, "rules": rules, "pool": pool, "unit": unit, "penalty": penalty}


def save_memo(
    path: str | os.PathLike[str],
    memo: object,
    made_for: dict,
    min_size: int = MIN_SIZE,
    max_entries: int = MAX_ENTRIES,
    seconds: float | None = None,
) -> int:
    """Write the entries of ``memo``'s sets of at least ``min_size`` candidates to ``path``
    (atomically), at most ``max_entries`` of them, the biggest sets first; the number
    written. ``seconds``: how long the runs that made it searched, all together (see
    :func:`seconds_spent`). Uncompressed: a Ctrl-C leaves well under a second to save (2^20
    entries: see benchmarks/NOTES.md), and the keys, random bits, would not compress anyway."""
    from mastermind.engines.exact._memo import memo_export  # (numba: only once a memo is written)

    rows = np.ascontiguousarray(memo_export(memo, np.int64(min_size), np.int64(max_entries)))
    header = {"made_for": made_for, "entries": int(rows.shape[0]), "sha256": _digest(rows)}
    if seconds is not None:
        header["seconds"] = float(seconds)
    buffer = io.BytesIO()
    np.savez(buffer, rows=rows, header=np.array(json.dumps(header, sort_keys=True)))
    write_atomic(path, buffer.getvalue())
    return int(rows.shape[0])


def seconds_spent(path: str | os.PathLike[str]) -> float | None:
    """The seconds that the runs which made the file at ``path`` searched, all together: 0
    without a file, None for a file that does not say (made before its runs were timed, or
    by a run that did not know: untimed for good, as a checkpoint of untimed units is).
    :func:`load_memo` checks the file itself."""
    try:
        with np.load(path, allow_pickle=False) as arrays:
            seconds = json.loads(str(arrays["header"])).get("seconds")
    except FileNotFoundError:
        return 0.0
    except Exception:  # (a damaged file: refused by load_memo, with its own message)
        return None
    return None if seconds is None else float(seconds)


def load_memo(path: str | os.PathLike[str], memo: object, made_for: dict) -> int:
    """Put the entries kept in ``path`` into ``memo``; the number loaded (0: no such file).
    Raises :class:`MemoFileError` for a file made for another search, or damaged, and
    refuses (before any work) a file that could not be written again."""
    rows = _read(Path(path), made_for)
    check_writable(path)
    if rows is None:
        return 0
    from mastermind.engines.exact._memo import memo_import  # (numba: only once a memo is read)

    memo_import(memo, rows)
    return int(rows.shape[0])


def check_intact(path: str | os.PathLike[str]) -> None:
    """Refuse (:class:`MemoFileError`) a memo file that is damaged, before any work that would
    use it (a results row reads its depth search's file only after hours of other search);
    no file is fine. Whom it was made for is checked when it is loaded."""
    _read(Path(path), None)


def _read(path: Path, made_for: dict | None) -> np.ndarray | None:
    """The rows of a memo file made for ``made_for`` (None: no such file; ``made_for`` None:
    made for any search)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise MemoFileError(f"cannot read {path}: {exc.strerror}") from None
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            header = json.loads(str(arrays["header"]))
            rows = np.ascontiguousarray(arrays["rows"], dtype=np.int64)
        ok = rows.ndim == 2 and rows.shape[1] == 4 and header["sha256"] == _digest(rows)
        theirs = header["made_for"]
    except Exception:  # (whatever a damaged zip, array or header raises: zlib, numpy, json...)
        ok = False
    if not ok:
        # (deleting it loses only the memo: the units and bounds are in the folder's database)
        raise MemoFileError(f"{path} is damaged: delete it to go on without the memo it kept")
    if made_for is not None and theirs != made_for:
        raise MemoFileError(
            f"{path} was made for another search ({describe(theirs)}), not this one ({describe(made_for)})"
        )
    return rows


def _digest(rows: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(rows, dtype="<i8").tobytes()).hexdigest()


def describe(made_for: object) -> str:
    """What a search was made for, for an error message: a fingerprint as a dict or as the
    JSON text a file stores (its problem's long form left out).

    >>> from mastermind.engines.exact.memo_file import describe
    >>> describe({"rules": "p4c6r", "pool": "all"}), describe("[1"), describe('{"unit": 0}')
    ('pool all, rules p4c6r', 'unreadable', 'unit 0')
    """
    if isinstance(made_for, str):
        try:
            made_for = json.loads(made_for)
        except ValueError:
            return "unreadable"
    if not isinstance(made_for, dict):
        return "unreadable"
    return ", ".join(f"{k} {made_for[k]}" for k in sorted(made_for) if k != "problem")
