"""Whether numba still has to compile a module's kernels, and saying so once on stderr.

numba caches compiled kernels beside their module (``__pycache__/<module>.<function>-<line>
.py<ver>.nbi`` index files, or under ``NUMBA_CACHE_DIR``); an index older than its source is
stale. The check reads file names and times only: it imports nothing, so it can run before
the modules whose import compiles eagerly (kernels with explicit signatures).

>>> cold_modules(["mastermind.core.errors"])  # no kernels: nothing to compile
[]
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

ESTIMATE_SECONDS = {
    # measured on a 2-core VM with an empty cache (benchmarks/bench_exact.py --compile)
    "mastermind.core._kernels": 4,
    "mastermind.core._symmetry_kernels": 4,
    "mastermind.engines.exact._kernels": 12,
    "mastermind.engines.exact._memo": 2,
    "mastermind.engines.exact._dfs": 20,
    "mastermind.engines.heuristics._kernels": 6,
    "mastermind.engines.models._kernels": 4,
}
EXACT_KERNELS = (
    "mastermind.core._kernels",
    "mastermind.core._symmetry_kernels",
    "mastermind.engines.exact._kernels",
    "mastermind.engines.exact._memo",
    "mastermind.engines.exact._dfs",
)
HEURISTIC_KERNELS = ("mastermind.core._kernels", "mastermind.engines.heuristics._kernels")
ALL_KERNELS = (*EXACT_KERNELS, "mastermind.engines.heuristics._kernels", "mastermind.engines.models._kernels")


def _cache_dir(source: Path) -> Path:
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:
        # numba's layout there: <folder name>_<sha1 of the folder's absolute path>
        folder = os.path.dirname(os.path.abspath(source))
        digest = hashlib.sha1(folder.encode()).hexdigest()
        return Path(override) / f"{os.path.basename(folder)}_{digest}"
    return source.parent / "__pycache__"


def _is_cold(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return False
    source = Path(spec.origin)
    text = source.read_text(encoding="utf-8")
    if "cache=True" not in text:
        return False
    folder = _cache_dir(source)
    stem = source.stem + "."
    try:
        indexes = [p for p in folder.iterdir() if p.name.startswith(stem) and p.suffix == ".nbi"]
    except OSError:
        return True
    mtime = source.stat().st_mtime
    return not any(p.stat().st_mtime >= mtime for p in indexes)


def cold_modules(names: Iterable[str]) -> list[str]:
    """The modules of ``names`` whose compiled kernels are missing or older than the source."""
    return [n for n in names if _is_cold(n)]


class CompileNotice:
    """Says on stderr that kernels are being compiled, when the cache lacks them, and times it.

    ``seconds`` is None when nothing was compiled (warm cache), else the time spent inside
    the ``with`` block. ``quiet`` (machine-readable output, ``--json``) keeps stderr empty.
    """

    def __init__(
        self,
        names: Iterable[str],
        what: str = "the search kernels",
        stream: TextIO | None = None,
        quiet: bool = False,
    ) -> None:
        self.cold = cold_modules(names)
        self.what = what
        self.stream = stream
        self.quiet = quiet
        self.seconds: float | None = None
        self._start = 0.0

    def __enter__(self) -> CompileNotice:
        if self.cold and not self.quiet:
            estimate = sum(ESTIMATE_SECONDS.get(n, 5) for n in self.cold)
            stream = self.stream or sys.stderr
            print(f"compiling {self.what} once, about {estimate} s", file=stream, flush=True)
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.cold:
            self.seconds = time.perf_counter() - self._start
