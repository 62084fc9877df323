"""What :func:`mastermind.engines.exact.solve` is asked: the problem, and how to run it.

Each group of options is a small frozen object, checked when it is made (a one-line
:class:`~mastermind.core.errors.MastermindError` for a bad value):

* :class:`Problem`: what to optimise (objective, cap on guesses, pool, first guess, weights,
  candidates, tie-break); the answer depends on it;
* :class:`Limits`: when to stop (a time limit) and how much memory the search may use;
* :class:`Execution`: where the work runs (threads, processes, a Dask cluster; a checkpoint);
* :class:`Tuning`: how the top of the tree is cut into work units.

Only the problem changes the answer: limits can stop the search before it is proven, and
execution and tuning change how long it takes.

>>> from mastermind.engines.exact.options import Execution, Limits, Problem
>>> problem = Problem(objective="worst", max_guesses=5)  # (the words, or the members)
>>> problem.objective, problem.pool, problem.max_guesses
(<Objective.WORST: 'worst'>, <Pool.ALL: 'all'>, 5)
>>> Execution(jobs=2).wants_units()
True
>>> Problem(objective="average")
Traceback (most recent call last):
...
mastermind.core.errors.MastermindError: objective must be one of total, worst, got 'average'
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Union

import numpy as np

from mastermind.core.cancel import check_time_limit
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code
from mastermind.core.pools import POOLS, Pool
from mastermind.core.tree import Node
from mastermind.engines.result import Objective

OBJECTIVES: tuple[str, ...] = (Objective.TOTAL.value, Objective.WORST.value)
Weights = Union[Sequence[float], np.ndarray]
BackendName = Literal["threads", "processes", "dask"]
BACKENDS: tuple[BackendName, ...] = ("threads", "processes", "dask")
SCHEDULER_PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def check_backend(name: str) -> str:
    """``name`` if it names a backend, else a one-line error listing them."""
    if name not in BACKENDS:
        raise MastermindError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}")
    return name


class StartError(MastermindError):
    """A strategy to start from that the search cannot take (a code no longer possible in
    the consistent pool). (Here, not beside the strategy search: the commands name its
    errors before the search's kernels load.)"""


class SchedulerError(MastermindError):
    """A Dask scheduler address that is no address, or that does not answer."""


def check_scheduler(address: str, backend: str = "dask") -> str:
    """A Dask scheduler address, refused before any work unless it has the form
    ``[PROTOCOL://]HOST:PORT`` (whether it answers is known only when connecting).

    >>> from mastermind.engines.exact.options import check_scheduler
    >>> check_scheduler("tcp://10.0.0.5:8786"), check_scheduler("localhost:8786")
    ('tcp://10.0.0.5:8786', 'localhost:8786')
    >>> check_scheduler("garbage")
    Traceback (most recent call last):
    ...
    mastermind.engines.exact.options.SchedulerError: not a scheduler address: 'garbage' (give one such as ...
    """
    if backend != "dask":
        raise SchedulerError(f"a scheduler needs the dask backend, not {backend!r}")
    protocol, _, rest = address.rpartition("://")
    host, colon, port = rest.rpartition(":")
    well_formed = (
        address.isprintable()
        and not any(c.isspace() for c in address)
        and (protocol == "" or protocol in SCHEDULER_PROTOCOLS)
        and (
            protocol == "inproc"  # an in-process address names no port
            or (bool(colon) and host != "" and port.isascii() and port.isdigit() and 0 < int(port) < 65536)
        )
    )
    if not well_formed:
        raise SchedulerError(f"not a scheduler address: {address!r} (give one such as tcp://10.0.0.5:8786)")
    return address


MAX_JOBS = 1024
"""The most workers asked for: more is a typing error, not a machine."""
MAX_GUESSES = 2**31
"""The largest cap on the guesses taken (a cap beyond the codes is no cap)."""
MAX_MEMORY = 2**60
"""The largest memory limit taken, in bytes (an exbibyte): more is a typing error."""
ONE_SEARCH_SECRETS = 1300
"""A search of fewer secrets than this runs as one compiled search in this thread when
nothing but its jobs asks for work units (see :meth:`Execution.wants_units`): it proves in a
fraction of a second what the rounds of units prove with several times the work (4x6: 128
nodes in 0.08 CPU s, against 474 nodes and 161 units in 0.30 CPU s with 2 jobs; see
benchmarks/NOTES.md)."""
ONE_SEARCH_NODES = 100_000
"""A plain total run as one search (see :data:`ONE_SEARCH_SECRETS`) that has searched this
many nodes without its proof goes on as work units (when :attr:`Execution.units` is None):
the small games prove within a few thousand (4x6 128, 6x6n 4833, 3x6b 51015, about a second
of one core), but a black-peg game of a few hundred codes can search for minutes (4x5b:
about 400 s), and only units show an ETA, use every job and report their bounds when
stopped. A count of nodes, not of seconds, so that the same game takes the same road on any
machine."""


@dataclass(frozen=True, eq=False)
class Problem:
    """What to optimise.

    ``objective``: "total" (the sum over the secrets of weight x guesses) or "worst" (the
    fewest guesses in the worst case, then the best total). ``max_guesses`` caps the worst
    case (None: no cap); ``pool`` "consistent" only guesses codes still possible;
    ``first_guess`` fixes the opening; ``weights`` (one non-negative number per code) and
    ``candidates`` (code indices) make it a game against some secrets only, some more likely
    than others; ``tie_break`` prefers, among optimal strategies, the smaller worst case and
    then fewer secrets at it.

    >>> from mastermind.engines.exact.options import Problem
    >>> Problem().plain, Problem(tie_break=True).plain
    (True, False)
    """

    objective: Objective = Objective.TOTAL
    max_guesses: int | None = None
    pool: Pool = Pool.ALL
    first_guess: Code | None = None
    weights: Weights | None = field(default=None, repr=False)
    candidates: Sequence[int] | np.ndarray | None = field(default=None, repr=False)
    tie_break: bool = False

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise MastermindError(f"objective must be one of {', '.join(OBJECTIVES)}, got {self.objective!r}")
        if self.pool not in POOLS:
            raise MastermindError(f"pool must be one of {', '.join(POOLS)}, got {self.pool!r}")
        # (given by their words, "total" and "all", as the commands and JSON spell them)
        object.__setattr__(self, "objective", Objective(self.objective))
        object.__setattr__(self, "pool", Pool(self.pool))
        if self.max_guesses is not None and (
            not isinstance(self.max_guesses, numbers.Integral) or isinstance(self.max_guesses, bool)
        ):
            raise MastermindError(f"max guesses must be a whole number, got {self.max_guesses!r}")
        if self.max_guesses is not None and self.max_guesses < 1:
            raise MastermindError(f"max guesses must be at least 1, got {self.max_guesses}")
        if self.max_guesses is not None and self.max_guesses > MAX_GUESSES:
            # (no game has that many codes; a larger one crashed the compiled search)
            raise MastermindError(f"max guesses must be at most 2**31, got {self.max_guesses}")
        if self.first_guess is not None and (
            not isinstance(self.first_guess, numbers.Integral) or isinstance(self.first_guess, bool)
        ):
            raise MastermindError(
                f"first guess must be a code's index (Rules.parse_code reads one), got {self.first_guess!r}"
            )
        if not isinstance(self.tie_break, (bool, np.bool_)):  # ("default" was true: the worst case's)
            raise MastermindError(f"tie_break must be True or False, got {self.tie_break!r}")

    @property
    def plain(self) -> bool:
        """The plain total (no worst case, tie-break or fixed opening): what work units solve."""
        return self.objective is Objective.TOTAL and not self.tie_break and self.first_guess is None

    @property
    def in_units(self) -> bool:
        """Whether work units can solve it (and so a backend, a scheduler or a checkpoint
        apply): the plain total, or the worst case with no tie-break or fixed opening.

        >>> from mastermind.engines.exact.options import Problem
        >>> Problem(objective="worst").in_units, Problem(first_guess=6).in_units
        (True, False)
        """
        return self.objective in OBJECTIVES and not self.tie_break and self.first_guess is None


@dataclass(frozen=True)
class Limits:
    """When to stop. ``time_limit``: seconds, after which the search stops and reports what
    it has proven (None: none). ``memory``: bytes the whole search may use, its score
    table, memos and scratch (None: the table's ``memory_limit``, 2 GiB by default); what
    cannot fit is refused before any work.

    The time limit is how a caller asks for one: the entry point (``solve``,
    ``solve_by_first_guess``) turns it into the deadline of its cancel token (a child of the
    caller's ``cancel``, the earlier of the two deadlines), and nothing below reads it
    again: the search reads the time left from the token. A caller holding a token with a
    deadline already (the command line's) passes that token and no time limit.

    >>> from mastermind.engines.exact.options import Limits
    >>> Limits(time_limit=0.5)
    Limits(time_limit=0.5, memory=None)
    """

    time_limit: float | None = None
    memory: int | None = None

    def __post_init__(self) -> None:
        check_time_limit(self.time_limit)
        if self.memory is not None:
            if isinstance(self.memory, bool) or not isinstance(self.memory, numbers.Integral):
                raise MastermindError(f"memory must be a whole number of bytes, got {self.memory!r}")
            if not 0 < self.memory <= MAX_MEMORY:
                raise MastermindError(
                    f"memory must be a positive number of bytes, at most 2**60, got {self.memory}"
                )


@dataclass(frozen=True)
class Execution:
    """Where the search runs.

    ``jobs``: workers (0 or -1: every core, -2 all but one); ``backend``: "threads",
    "processes" (loky) or "dask" (a local cluster of ``jobs`` processes, or the running
    cluster at ``scheduler``, an address such as tcp://10.0.0.5:8786); ``checkpoint``: a
    folder keeping every finished work unit, reused by the next run.

    ``units`` chooses how: True, the top of the tree is cut into work units (see
    :mod:`mastermind.engines.exact.anytime`), which report progress unit by unit and, when
    stopped, a lower bound and the best strategy found; False, one compiled search from the
    root in this thread; None (the default), work units when they are needed or help: another
    backend, a scheduler, a checkpoint, a deadline (``timed``), or a search of at least
    :data:`ONE_SEARCH_SECRETS` secrets (with one job too: a long search then shows its
    progress with an ETA; of unknown size, more than one job). Work units solve the plain total only: other
    problems always run in this thread.

    ``keep_memo``: the result of a plain total proven in this process (one search, or units
    on threads) carries the search's memo (``details.memo``), for a proof pass to read rather
    than prove again what the search proved (:func:`~mastermind.engines.exact.certify.prove`);
    the memo's memory is then held as long as the result.

    >>> from mastermind.engines.exact.options import Execution
    >>> Execution().wants_units(), Execution().wants_units(timed=True)
    (False, True)
    >>> two = Execution(jobs=2)
    >>> two.wants_units(secrets=1296), two.wants_units(secrets=2401)
    (False, True)
    >>> Execution(jobs=1).wants_units(secrets=2401)
    True
    """

    jobs: int = 1
    backend: BackendName = "threads"
    scheduler: str | None = None
    checkpoint: str | os.PathLike[str] | None = None
    units: bool | None = None
    keep_memo: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, numbers.Integral):
            raise MastermindError(f"jobs must be a whole number, got {self.jobs!r}")
        if self.jobs > MAX_JOBS:
            raise MastermindError(f"jobs must be at most {MAX_JOBS} (a number of workers), got {self.jobs}")
        if self.units is not None and not isinstance(self.units, (bool, np.bool_)):
            raise MastermindError(f"units must be True, False or None, got {self.units!r}")
        if not isinstance(self.keep_memo, (bool, np.bool_)):
            raise MastermindError(f"keep_memo must be True or False, got {self.keep_memo!r}")
        if self.checkpoint is not None and not isinstance(self.checkpoint, (str, os.PathLike)):
            raise MastermindError(f"checkpoint must be a folder's path, got {self.checkpoint!r}")
        if self.scheduler is not None and not isinstance(self.scheduler, str):
            raise MastermindError(
                f"scheduler must be an address such as tcp://10.0.0.5:8786, got {self.scheduler!r}"
            )
        check_backend(self.backend)
        if self.scheduler is not None:  # its form; whether it answers is known when connecting
            check_scheduler(self.scheduler, self.backend)
        if self.units is False and self.distributed:
            raise MastermindError("a backend, a scheduler and a checkpoint need work units (units=False)")

    @property
    def distributed(self) -> bool:
        """Whether anything but this process's threads, or a checkpoint, is asked for."""
        return self.backend != "threads" or self.scheduler is not None or self.checkpoint is not None

    def wants_units(self, timed: bool = False, secrets: int | None = None) -> bool:
        """Whether the plain total runs as work units, ``timed`` (its cancel token has a
        deadline: a stopped run reports what its units proved), on a search of ``secrets``
        secrets (None: as many as it takes for more than one job to ask for units)."""
        if self.units is not None:
            return self.units
        if self.distributed or timed:
            return True
        if secrets is None:  # (a size not known: more jobs than one want units)
            return self.jobs != 1
        # big enough for units with any jobs: a long search shows its progress unit by unit,
        # with an ETA, and keeps the bounds it proved when stopped
        return secrets >= ONE_SEARCH_SECRETS


@dataclass(frozen=True)
class Tuning:
    """How the work is cut: ``round_seconds``, the wall time a round of work units aims at
    (see :mod:`mastermind.engines.exact.anytime`): shorter rounds lose less to a stop and
    show the bounds move more often, longer ones plan less. ``start``: the root of a
    strategy to start from (the plain total only): its total is the first upper bound, the
    strategy search improves on it, and a stop reports it if nothing cheaper was found.
    ``split_size``: classes of at least this many secrets are asked through their own
    guesses, one unit each, rather than as one unit (see
    :meth:`~mastermind.engines.exact.anytime.RoundSearch.split`); None: 1000. In a run that
    may stop (a time limit or a checkpoint) small units keep what they prove; a proof splits
    only the classes of the one first guess left, its most promising guesses first, so that
    the workers share a class that would keep one of them busy alone.

    >>> from mastermind.engines.exact.options import Tuning
    >>> Tuning(round_seconds=0)
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: round seconds must be a positive number, got 0
    """

    round_seconds: float = 20.0
    start: Node | None = field(default=None, repr=False)
    split_size: int | None = None

    def __post_init__(self) -> None:
        if not (self.round_seconds > 0 and self.round_seconds < float("inf")):
            raise MastermindError(f"round seconds must be a positive number, got {self.round_seconds}")
        if self.split_size is not None and (
            isinstance(self.split_size, bool) or not isinstance(self.split_size, int) or self.split_size < 1
        ):
            raise MastermindError(f"split size must be a whole number of secrets, got {self.split_size!r}")
