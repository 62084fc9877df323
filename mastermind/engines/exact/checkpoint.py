"""Checkpoints of the exact search: every finished work unit, kept in one SQLite file.

Why SQLite (standard library): each unit is one transaction, atomic and durable across a
kill (write-ahead log), in one file that many runs can share; lookups by key are indexed.
joblib.Memory would write one pickle per call, keyed by the call's arguments, budget
included, so a unit rerun with another budget would miss its stored bound.

A unit is stored under its subproblem key (candidate set, guesses left, symmetry group,
first guess) with its value, whether the value is exact or a lower bound, the optimal
subtree, and a SHA-256 checksum of the row. The file also records what the search was made
for (rules, pool, weights, cost unit, objective...); a checkpoint for anything else, or a
damaged file or row, is refused with a one-line error, never used. It also adds up the wall
seconds its runs searched (a killed run's last seconds after its last unit are not counted),
so that a result proven over several runs can say what it cost, and the best bounds on the
whole game its runs proved (the greatest lower bound, the cheapest strategy found), so that a
run stopped before it reaches the units it reuses still reports them. And it keeps where
the strategy search stood (:meth:`Checkpoint.keep_strategy_sets`), so that its next run
goes on with the pass under way instead of starting it again.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TypeVar

from mastermind.core.fileio import folder_lock, unwritable
from mastermind.core.tree import Node
from mastermind.engines.exact.memo_file import FORMAT as KEY_FORMAT
from mastermind.engines.exact.memo_file import CheckpointFileError, describe

T = TypeVar("T")

FILE = "checkpoint.sqlite"
FORMAT = 1

SetRow = tuple[int, int, int, int, bool]
"""One set of the strategy search: its key (two unsigned 64-bit halves), the total of the
cheapest strategy found for it and that strategy's first guess (-1 and -1: none), and
whether the pass under way searched it (see :meth:`.StrategySearch.pass_state`)."""


class KeptPass(NamedTuple):
    """The strategy search's pass under way as a checkpoint keeps it."""

    passes: int
    rows: list[SetRow]
    plan: list[int] | None  # (:meth:`.Plan.encode`; None: kept by a version without plans)


def _signed(half: int) -> int:
    """An unsigned 64-bit key half as SQLite's signed integer (and back: :func:`_unsigned`).

    >>> from mastermind.engines.exact.checkpoint import _signed, _unsigned
    >>> _signed(2**64 - 1), _unsigned(_signed(2**64 - 1)), _signed(5)
    (-1, 18446744073709551615, 5)
    """
    return half - (1 << 64) if half >= 1 << 63 else half


def _unsigned(half: int) -> int:
    return half + (1 << 64) if half < 0 else half


class CheckpointError(CheckpointFileError):
    """A checkpoint that cannot be used: wrong place, other problem, damaged.

    >>> from mastermind.engines.exact.checkpoint import check_folder
    >>> check_folder("/dev/null")
    Traceback (most recent call last):
    ...
    mastermind.engines.exact.checkpoint.CheckpointError: ...
    """


@dataclass(frozen=True)
class RootBounds:
    """What runs proved about the whole game: ``lower`` <= optimum <= ``upper``, ``tree`` a
    strategy costing ``upper`` (None with ``upper`` infinite).

    >>> from mastermind.core.tree import Node
    >>> from mastermind.engines.exact.checkpoint import RootBounds
    >>> a = RootBounds(10.0, 14.0, Node(0, 3))
    >>> a.merge(RootBounds(11.0, float("inf"), None))
    RootBounds(lower=11.0, upper=14.0, tree=Node(guess=0, candidates=3, children={}))
    """

    lower: float
    upper: float = float("inf")
    tree: Node | None = None

    def merge(self, other: RootBounds) -> RootBounds:
        """The better of each bound."""
        best = other if other.upper < self.upper else self
        return RootBounds(max(self.lower, other.lower), best.upper, best.tree)

    def encode(self) -> str:
        body = json.dumps(
            {
                "lower": self.lower,
                "upper": None if self.upper == float("inf") else self.upper,
                "tree": None if self.tree is None else encode_tree(self.tree),
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        return json.dumps({"bounds": body, "checksum": hashlib.sha256(body.encode()).hexdigest()})

    @staticmethod
    def decode(text: str) -> RootBounds:
        """Raises ValueError (also for a failed checksum), TypeError or KeyError when damaged."""
        outer = json.loads(text)
        body = outer["bounds"]
        if hashlib.sha256(body.encode()).hexdigest() != outer["checksum"]:
            raise ValueError("the bounds fail their checksum")
        data = json.loads(body)
        upper = float("inf") if data["upper"] is None else float(data["upper"])
        tree = None if data["tree"] is None else decode_tree(data["tree"])
        return RootBounds(float(data["lower"]), upper, tree)


@dataclass(frozen=True)
class Paces:
    """How fast the classes of the first guesses rose in the runs so far: ``seconds`` their
    asks took for ``work`` (secrets times rises), and ``classes`` the seconds per rise of the
    last ask of each class asked, by :meth:`key`. A continued run paces its first round by
    them, rather than asking every open class (see :func:`.anytime.paced_shares`).

    >>> from mastermind.engines.exact.checkpoint import Paces
    >>> Paces.decode(Paces(3.0, 12.0, {Paces.key(7, 2): 1.5}).encode())
    Paces(seconds=3.0, work=12.0, classes={'7:2': 1.5})
    """

    seconds: float
    work: float
    classes: dict[str, float]

    @staticmethod
    def key(guess: int, answer: int) -> str:
        """The name of the class of ``answer`` to the first guess ``guess``."""
        return f"{int(guess)}:{int(answer)}"

    def encode(self) -> str:
        return json.dumps({"seconds": self.seconds, "work": self.work, "classes": self.classes})

    @staticmethod
    def decode(text: str) -> Paces:
        data = json.loads(text)
        paces = Paces(float(data["seconds"]), float(data["work"]), dict(data["classes"]))
        numbers = [paces.seconds, paces.work, *paces.classes.values()]
        if not all(isinstance(x, (int, float)) and math.isfinite(x) and x >= 0 for x in numbers):
            raise ValueError("a pace that is not a finite number of seconds")
        return paces


def encode_tree(node: Node) -> list:
    return [
        int(node.guess),
        int(node.candidates),
        [[int(a), encode_tree(c)] for a, c in sorted(node.children.items())],
    ]


def decode_tree(data: list) -> Node:
    guess, n, children = data
    return Node(int(guess), int(n), {int(a): decode_tree(c) for a, c in children})


def _checksum(key: str, value: float, exact: int, tree: str) -> str:
    return hashlib.sha256(f"{key}|{value!r}|{exact}|{tree}".encode()).hexdigest()


def check_folder(folder: str | os.PathLike) -> Path:
    """Refuse, before any work, a checkpoint folder that cannot be one: an empty name (which
    would be the current folder), ``-`` (standard output elsewhere) or an existing file."""
    if not os.fspath(folder):
        raise CheckpointError("the checkpoint folder's name is empty: give a folder, e.g. runs/p4c7")
    if os.fspath(folder) == "-":  # (elsewhere standard output: not a folder's name by mistake)
        raise CheckpointError("- would be a folder named '-': give a folder, e.g. runs/p4c7")
    path = Path(folder)
    if path.exists() and not path.is_dir():
        from mastermind.core.fileio import not_a_folder

        raise CheckpointError(f"{folder} is {not_a_folder(path)}, not a checkpoint folder")
    store = path / FILE
    if store.exists() and not store.is_file():
        # (else sqlite said "damaged: unable to open database file")
        raise CheckpointError(f"{store} is not a file: the checkpoint folder holds something else there")
    return path


@contextmanager
def _held(folder: str | os.PathLike, path: Path) -> Iterator[None]:
    """The folder's lock, or the one-line refusal of a folder another run holds."""
    with ExitStack() as held:
        try:
            held.enter_context(folder_lock(path, wait=False))
        except BlockingIOError:
            raise CheckpointError(
                f"{folder}: the checkpoint folder is in use by another run: wait for it to end, "
                "or give another folder"
            ) from None
        yield


def make_folder(folder: str | os.PathLike) -> Path:
    """A checkpoint folder, created if missing, refused (one line) when it cannot be one or
    cannot be written."""
    path = check_folder(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CheckpointError(f"{folder}: cannot create the checkpoint folder ({exc.strerror})") from None
    why = unwritable(path, FILE)
    if why is not None:
        raise CheckpointError(f"{folder}: the checkpoint folder is {why}")
    return path


@contextmanager
def hold_folder(folder: str | os.PathLike) -> Iterator[Path]:
    """Make (see :func:`make_folder`) and hold a checkpoint folder for one run: a second run
    on it at the same time would overwrite the least depth's memo file that this one saves
    (the last writer wins) and count its units and seconds as its own, so it is refused in
    one line before any work. The lock (``flock`` on the folder) goes with the process, even
    a killed one."""
    path = make_folder(folder)
    with _held(folder, path):
        yield path


def search_made_for(rules: object, pool: str, objective: str) -> dict:
    """The keys of a checkpoint's fingerprint that can be checked before any work (the cap
    and the search's own key come with its solver): its game, pool and objective."""
    return {"rules": str(rules), "pool": pool, "objective": objective}


def check_checkpoint(folder: str | os.PathLike, rules: object, pool: str, objective: object) -> None:
    """Refuse, before any work (the game's table, the kernels), a checkpoint folder this
    search cannot run in: one that cannot be a folder (:func:`check_folder`), another run's,
    or one made for another game, pool or objective (:func:`check_made_for`). ``objective``:
    the problem's (its checkpoint is the plain total's but for the optimal worst case)."""
    path = check_folder(folder)
    if path.is_dir():  # (a probe, not held: the run holds it as it starts, see solve)
        with _held(folder, path):
            pass
    check_made_for(folder, search_made_for(rules, pool, checkpoint_objective(objective)))


def checkpoint_objective(objective: object) -> str:
    """The objective a problem's checkpoint is made for: "worst" for the optimal worst case
    (its depth search, then the best total within it), "total" for every other."""
    return "worst" if str(getattr(objective, "value", objective)) == "worst" else "total"


def check_made_for(folder: str | os.PathLike, expected: dict) -> None:
    """Refuse, before any work, a folder whose checkpoint was made for a search that differs
    from ``expected`` in one of its keys (a folder without one is fine)."""
    path = Path(folder) / FILE
    if not path.is_file():
        return
    try:
        # closed here, not by ``with`` (which only ends a transaction): a reader left open in
        # the parent kept the searching child's writes in the -wal file git does not commit
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            text = _made_for(db, path)
    except sqlite3.DatabaseError as exc:
        raise CheckpointError(f"checkpoint {path} is damaged: {exc}") from None
    if text is None:
        return
    try:
        made = json.loads(text)
    except ValueError:
        made = None
    if not isinstance(made, dict) or any(made.get(k) != v for k, v in expected.items()):
        raise _another_search(path, text, expected)


def _another_search(path: Path, made: object, expected: object) -> CheckpointError:
    """The error for a checkpoint made for another search than ``expected``. Where the two
    read the same, they differ in their secrets or weights (the problem's long form, which
    :func:`describe` leaves out): said, rather than two identical descriptions."""
    was, now = describe(made), describe(expected)
    if was == now:
        return CheckpointError(
            f"checkpoint {path} was made for another search: the same game and options ({now}), "
            "but other secrets or weights"
        )
    return CheckpointError(f"checkpoint {path} was made for another search ({was}), not this one ({now})")


def _meta_text(db: sqlite3.Connection, name: str) -> str | None:
    """The text a checkpoint keeps under ``name`` in its meta table (None: none)."""
    row = db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
    return None if row is None else str(row[0])


def _made_for(db: sqlite3.Connection, path: Path) -> str | None:
    """The fingerprint of the search a checkpoint file was made for; None for a file that
    holds nothing yet. A file that holds work without it is damaged: its units and bounds
    would be taken for any game's (another game's strategy crashed the search)."""
    made = _meta_text(db, "problem")
    if made is not None:
        return made
    if db.execute("SELECT EXISTS (SELECT 1 FROM units) OR EXISTS (SELECT 1 FROM meta)").fetchone()[0]:
        raise CheckpointError(
            f"checkpoint {path} is damaged: it holds work but not the search it was made for"
        )
    return None


def _check_seconds(db: sqlite3.Connection, path: Path) -> None:
    """A count of seconds that is not a number of seconds is damage (it would be added to
    and published)."""
    text = _meta_text(db, "seconds")
    if text is None:
        return
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (0.0 <= seconds < math.inf):
        raise CheckpointError(f"checkpoint {path} is damaged: its seconds are {text!r}")


class Checkpoint:
    """The units of one search stored in ``folder`` (created if missing)."""

    def __init__(self, folder: str | os.PathLike, fingerprint: dict) -> None:
        self.folder = make_folder(folder)
        self.path = self.folder / FILE
        self.fingerprint = json.dumps({"format": FORMAT, **fingerprint}, sort_keys=True)
        self.stored = 0
        self._clock = time.monotonic()  # the search starts as the checkpoint opens
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            self._open()
        except sqlite3.DatabaseError as exc:
            raise CheckpointError(f"checkpoint {self.path} is damaged: {exc}") from None

    def _open(self) -> None:
        db = self.db
        if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise sqlite3.DatabaseError("integrity check failed")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # with WAL: a killed process loses nothing committed
        db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS units (key TEXT PRIMARY KEY, value REAL NOT NULL, "
            "exact INTEGER NOT NULL, tree TEXT NOT NULL, checksum TEXT NOT NULL)"
        )
        # the classes whose unit a stop cut short (see :meth:`mark_cut`)
        db.execute("CREATE TABLE IF NOT EXISTS cut (key TEXT PRIMARY KEY)")
        # the strategy search's sets (see :meth:`keep_strategy_sets`)
        db.execute(
            "CREATE TABLE IF NOT EXISTS strategy_sets (k1 INTEGER NOT NULL, k2 INTEGER NOT NULL, "
            "total INTEGER NOT NULL, guess INTEGER NOT NULL, done INTEGER NOT NULL, "
            "PRIMARY KEY (k1, k2)) WITHOUT ROWID"
        )
        made = _made_for(db, self.path)
        if made is None:
            db.execute("INSERT INTO meta VALUES ('problem', ?)", (self.fingerprint,))
        elif made != self.fingerprint:
            raise _another_search(self.path, made, self.fingerprint)
        _check_seconds(db, self.path)
        timed = _meta_text(db, "seconds") is not None
        # a checkpoint made before its runs were timed holds units of unknown cost: not timed
        self._timed = timed or db.execute("SELECT COUNT(*) FROM units").fetchone()[0] == 0
        if not timed and self._timed:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('seconds', '0.0')")

    def get(self, key: str) -> tuple[float, bool, Node | None] | None:
        """``(value, exact, tree)`` of a stored unit, or None."""
        try:
            row = self.db.execute(
                "SELECT value, exact, tree, checksum FROM units WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise CheckpointError(f"checkpoint {self.path} is damaged: {exc}") from None
        if row is None:
            return None
        value, exact, tree, checksum = row
        if checksum != _checksum(key, value, exact, tree):
            raise CheckpointError(f"checkpoint {self.path} is damaged: unit {key[:12]} fails its checksum")
        try:
            node = decode_tree(json.loads(tree)) if tree != "null" else None
        except (ValueError, TypeError) as exc:
            raise CheckpointError(f"checkpoint {self.path} is damaged: unit {key[:12]}: {exc}") from None
        return value, bool(exact), node

    def put(self, key: str, value: float, exact: bool, tree: Node | None) -> None:
        """Store one finished unit (one transaction)."""
        text = json.dumps(None if tree is None else encode_tree(tree), separators=(",", ":"))
        value = float(value)
        flag = int(exact)
        try:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?, ?)",
                (key, value, flag, text, _checksum(key, value, flag, text)),
            )
            self._add_seconds()
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise CheckpointError(f"checkpoint {self.path}: cannot store a unit: {exc}") from None
        self.stored += 1

    def mark_cut(self, key: str) -> None:
        """Remember that a run stopped while the unit ``key`` ran: a unit that runs into the
        end of a run may need far longer than one run, and proves nothing until it ends
        (6x8n: a class of 265 secrets asked for 1 more ran through whole rows), so the next
        run asks it through its guesses (see :meth:`was_cut`)."""
        try:
            self.db.execute("INSERT OR IGNORE INTO cut VALUES (?)", (key,))
        except sqlite3.DatabaseError as exc:
            raise CheckpointError(f"checkpoint {self.path}: cannot note a unit cut short: {exc}") from None

    def was_cut(self, key: str) -> bool:
        """Whether a run stopped while the unit ``key`` ran (see :meth:`mark_cut`)."""
        try:
            return self.db.execute("SELECT 1 FROM cut WHERE key = ?", (key,)).fetchone() is not None
        except sqlite3.DatabaseError as exc:
            raise CheckpointError(f"checkpoint {self.path} is damaged: {exc}") from None

    def restart_clock(self) -> None:
        """The search starts now (what came before, such as starting workers, is not counted)."""
        self._clock = time.monotonic()

    def _add_seconds(self) -> None:
        now = time.monotonic()
        elapsed, self._clock = now - self._clock, now
        if not self._timed:
            return
        self.db.execute(
            "INSERT INTO meta VALUES ('seconds', ?) ON CONFLICT(name) DO UPDATE SET "
            "value = CAST(CAST(value AS REAL) + CAST(excluded.value AS REAL) AS TEXT)",
            (repr(elapsed),),
        )

    def _meta(self, name: str, what: str, parse: Callable[[str], T]) -> T | None:
        """The meta value ``name`` as ``parse`` reads it (None: none kept); one that does not
        parse is damage, named by ``what``."""
        try:
            text = _meta_text(self.db, name)
            return None if text is None else parse(text)
        except KeyError as exc:
            raise CheckpointError(f"checkpoint {self.path} is damaged: its {what} lack {exc}") from None
        except (sqlite3.DatabaseError, ValueError, TypeError, AttributeError) as exc:
            raise CheckpointError(f"checkpoint {self.path} is damaged: its {what}: {exc}") from None

    def _keep_meta(self, name: str, text: str, what: str) -> None:
        """Keep ``text`` as the meta value ``name`` (replacing it), ``what`` naming it in errors."""
        try:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, text))
        except sqlite3.DatabaseError as exc:
            raise CheckpointError(f"checkpoint {self.path}: cannot keep {what}: {exc}") from None

    def seconds(self) -> float | None:
        """Wall seconds searched by every run so far (None: made before they were counted)."""
        if not self._timed:
            return None
        text = _meta_text(self.db, "seconds")
        return None if text is None else float(text)

    def bounds(self) -> RootBounds | None:
        """The best bounds on the whole game that runs kept here (None: none yet)."""
        return self._meta("bounds", "bounds", RootBounds.decode)

    def strategy_passes(self) -> int:
        """How many passes of the strategy search found the strategy kept (0: none yet)."""
        passes = self._meta("strategy_passes", "strategy passes", int)
        return 0 if passes is None else passes

    def started_from(self) -> float | None:
        """The least total of the strategies runs were given to start from (None: none)."""
        return self._meta("started_from", "strategy started from", float)

    def keep_started_from(self, total: float) -> None:
        """Record the total of a strategy given to start from (the least of those given):
        the strategy kept is that one when it costs as much (a later run reported it as
        found by the search)."""
        known = self.started_from()
        if known is None or total < known:
            self._keep_meta("started_from", repr(float(total)), "the strategy started from")

    def keep_strategy_passes(self, passes: int) -> None:
        """Record the passes of the strategy search behind the strategy kept (never fewer)."""
        if passes > self.strategy_passes():
            self._keep_meta("strategy_passes", str(int(passes)), "the strategy passes")

    def keep_strategy_sets(self, passes: int, rows: list[SetRow], plan: list[int] | None = None) -> None:
        """Keep the strategy search's sets (:meth:`.StrategySearch.pass_state`), ``passes``
        the pass it was in and ``plan`` that pass's plan (:meth:`.Plan.encode`), in one
        transaction, replacing those kept before (they include them)."""
        signed = [(_signed(k1), _signed(k2), int(t), int(g), int(d)) for k1, k2, t, g, d in rows]
        fields: dict[str, object] = {"pass": int(passes), "key_format": KEY_FORMAT, "rows": len(signed)}
        if plan is not None:
            fields["plan"] = [int(x) for x in plan]
        about = json.dumps(fields)
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM strategy_sets")
            self.db.executemany("INSERT INTO strategy_sets VALUES (?, ?, ?, ?, ?)", signed)
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('strategy_sets', ?)", (about,))
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise CheckpointError(
                f"checkpoint {self.path}: cannot keep the strategy search's sets: {exc}"
            ) from None

    def strategy_sets(self) -> KeptPass | None:
        """The strategy search's sets kept by :meth:`keep_strategy_sets`, the pass it was
        in and its plan (None: kept by a version without plans); None when none were kept, or
        kept with another key for a set (an older version's: its keys would name other sets)."""
        kept = self._meta("strategy_sets", "strategy sets", self._kept_pass)
        return None if kept is None or kept.passes < 0 else kept

    def _kept_pass(self, text: str) -> KeptPass:
        """The pass described by ``text`` with the sets kept (passes -1: kept with another
        key format)."""
        about = json.loads(text)
        if about.get("key_format") != KEY_FORMAT:
            return KeptPass(-1, [], None)
        rows = [
            (_unsigned(k1), _unsigned(k2), int(t), int(g), bool(d))
            for k1, k2, t, g, d in self.db.execute("SELECT k1, k2, total, guess, done FROM strategy_sets")
        ]
        if len(rows) != about["rows"]:
            raise ValueError(f"{len(rows)} sets where {about['rows']} were kept")
        plan = about.get("plan")
        if plan is not None and (not isinstance(plan, list) or not all(isinstance(x, int) for x in plan)):
            raise ValueError(f"plan {plan!r}")
        return KeptPass(int(about["pass"]), rows, plan)

    def paces(self) -> Paces | None:
        """How fast the classes rose in the runs so far (None: no run recorded it)."""
        return self._meta("paces", "paces", Paces.decode)

    def keep_paces(self, paces: Paces) -> None:
        """Record how fast the classes rose (replacing what was kept: it includes it)."""
        self._keep_meta("paces", paces.encode(), "the paces")

    def keep_bounds(self, found: RootBounds) -> RootBounds:
        """Keep what a run proved, merged with what earlier runs kept (one transaction, so
        that runs sharing the file keep the best of both); the merged bounds."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            known = self.bounds()
            merged = found if known is None else known.merge(found)
            if merged != known:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('bounds', ?)", (merged.encode(),))
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise CheckpointError(f"checkpoint {self.path}: cannot keep the bounds: {exc}") from None
        except CheckpointError:
            self.db.execute("ROLLBACK")
            raise
        return merged

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM units").fetchone()[0]

    def close(self) -> float | None:
        """Close the file; the wall seconds of every run so far (see :meth:`seconds`)."""
        total = None
        try:
            if self.stored:  # the time after its last unit; a run that stored nothing new
                self._add_seconds()  # (answered from the file) leaves the count as it was
            total = self.seconds()
        except sqlite3.Error:
            pass  # a read-only or damaged file: the count is only informative
        try:
            # everything into the file itself, even if another process still has it open (a
            # last close does this anyway): the folder holds the whole checkpoint without -wal
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass  # read-only, or a reader in the middle of a read: the last close folds it in
        self.db.close()
        return total
