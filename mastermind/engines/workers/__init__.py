"""Running engine work in a child process under a time limit (:mod:`.timed`), and a run of
rows, each with a time limit of its own, within one cancel token (:mod:`.rows`).

The names below are the package's public face (what the app may import)."""

from mastermind.engines.workers.rows import Rows, RowTime, run_rows
from mastermind.engines.workers.timed import FOREVER, TimedWorker, run_with_time_limit, wait_for

__all__ = ["FOREVER", "Rows", "RowTime", "TimedWorker", "run_rows", "run_with_time_limit", "wait_for"]
