"""Whether numba still has to compile a module's kernels, and saying so once on stderr.

Only numba's documented behaviour is relied on: kernels with ``cache=True`` are loaded from
its cache, and compiled again when their source file changes (numba's caching), and numba
broadcasts a ``"numba:compile"`` event whenever it compiles, never when it loads from the
cache (its event API, :mod:`numba.core.event`). Each kernel module has a tiny cached kernel,
``cache_probe``: a module whose import or probe compiles is cold, and then so are its other
kernels. A warm probe loads in about a millisecond.

>>> from mastermind.core.compiling import cold_modules
>>> cold_modules(["mastermind.core.errors"])  # no kernels: nothing to compile
[]
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TextIO

ESTIMATE_SECONDS = {
    # measured on a 2-core VM with an empty cache (benchmarks/bench_exact.py --compile)
    "mastermind.core._kernels": 4,
    "mastermind.core._symmetry_kernels": 4,
    "mastermind.engines.exact._kernels": 12,
    "mastermind.engines.exact._memo": 2,
    "mastermind.engines.exact._ranking": 2,
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
    "mastermind.engines.exact._ranking",
)
HEURISTIC_KERNELS = ("mastermind.core._kernels", "mastermind.engines.heuristics._kernels")
ALL_KERNELS = (*EXACT_KERNELS, "mastermind.engines.heuristics._kernels", "mastermind.engines.models._kernels")


@contextmanager
def _on_compile(callback: Callable[[], None]) -> Iterator[None]:
    """``callback`` each time numba starts compiling, in any thread, while the block runs."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            callback()

        def on_end(self, ev: event.Event) -> None:
            pass

    with event.install_listener("numba:compile", Listener()):
        yield


def _is_cold(name: str) -> bool:
    compiled: list[int] = []
    with _on_compile(lambda: compiled.append(1)):
        module = importlib.import_module(name)  # (kernels with signatures compile here)
        probe = getattr(module, "cache_probe", None)
        if probe is not None:
            probe()
    return bool(compiled)


def cold_modules(names: Iterable[str]) -> list[str]:
    """The modules of ``names`` whose kernels numba had to compile, not load from its cache
    (each is imported, and its probe kernel called)."""
    return [n for n in names if _is_cold(n)]


class CompileNotice:
    """Says on stderr that kernels are being compiled, when numba compiles them, and times it.

    On entry the modules of ``names`` are probed (``cold``: those numba had to compile); the
    notice is printed once, before numba's first compile in the block (probes included),
    or at once when a module is cold. ``seconds`` is None when nothing was compiled (warm
    cache), else the time spent inside the ``with`` block. ``quiet`` (machine-readable
    output, ``--json``) keeps stderr empty; ``json_lines`` (``--progress json``, whose
    standard error is JSON lines only) says it as a JSON line, event "compile".
    """

    def __init__(
        self,
        names: Iterable[str],
        what: str = "the search kernels",
        stream: TextIO | None = None,
        quiet: bool = False,
        json_lines: bool = False,
    ) -> None:
        self.names = tuple(names)
        self.json_lines = json_lines
        self.what = what
        self.stream = stream
        self.quiet = quiet
        self.cold: list[str] = []
        self.seconds: float | None = None
        self._start = 0.0
        self._said = False
        self._watching = ExitStack()

    def _say(self) -> None:
        if self._said:
            return
        self._said = True
        if self.json_lines or not self.quiet:
            known = self.cold or self.names  # (a compile while probing: all of them, as on a first run)
            estimate = sum(ESTIMATE_SECONDS.get(n, 5) for n in known)
            stream = self.stream or sys.stderr
            text = f"compiling {self.what} once, about {estimate} s"
            if self.json_lines:
                import json

                text = json.dumps({"event": "compile", "description": text}, separators=(",", ":"))
            print(text, file=stream, flush=True)

    def __enter__(self) -> CompileNotice:
        self._start = time.perf_counter()
        self._watching.enter_context(_on_compile(self._say))
        try:
            self.cold = cold_modules(self.names)
        except BaseException:
            self._watching.close()
            raise
        if self.cold:
            self._say()
        return self

    def __exit__(self, *exc: object) -> None:
        self._watching.close()
        if self._said:
            self.seconds = time.perf_counter() - self._start
