"""The first-run notice: which kernel modules numba still has to compile, asked of numba itself."""

import importlib
import io
import os
import subprocess
import sys
import time

import pytest

from mastermind.core import compiling
from mastermind.core.compiling import ALL_KERNELS, EXACT_KERNELS, CompileNotice, cold_modules

PROBED = """
import numba

@numba.njit(cache=True)
def twice(x):
    return 2 * x

@numba.njit(cache=True)
def cache_probe():
    return 0
"""


@pytest.mark.integration
def test_a_module_is_cold_until_numba_has_cached_it_and_again_once_its_source_changes(tmp_path):
    """What numba documents, through our probe: a fresh process finds the kernels in the cache
    once they were compiled, and compiles them again after the source file changed."""
    (tmp_path / "probed.py").write_text(PROBED)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": os.pathsep.join(sys.path)}
    ask = "from mastermind.core.compiling import cold_modules; print(cold_modules(['probed']))"

    def cold() -> str:
        done = subprocess.run(
            [sys.executable, "-c", ask], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert cold() == "['probed']"
    assert cold() == "[]"
    (tmp_path / "probed.py").write_text(PROBED.replace("2 * x", "3 * x"))
    assert cold() == "['probed']"


def test_every_kernel_module_has_a_probe():
    for name in ALL_KERNELS:
        assert callable(importlib.import_module(name).cache_probe), name


def test_a_compile_in_the_block_is_said_once_before_it_and_timed():
    import numba

    @numba.njit
    def add(a, b):
        return a + b

    out = io.StringIO()
    with CompileNotice(["mastermind.core.errors"], "the test kernels", out) as notice:
        assert notice.cold == [] and out.getvalue() == ""
        add(1, 2)
        add(1.0, 2.0)  # a second compile: no second line
    assert out.getvalue() == "compiling the test kernels once, about 5 s\n"
    assert notice.seconds is not None and notice.seconds >= 0
    quiet = io.StringIO()
    with CompileNotice([], "the test kernels", quiet, quiet=True) as notice:
        add(1, 2.0)
    assert quiet.getvalue() == "" and notice.seconds is not None


def test_a_warm_cache_prints_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(compiling, "cold_modules", lambda names: [])
    out = io.StringIO()
    with CompileNotice(EXACT_KERNELS, "the search kernels", out) as notice:
        time.sleep(0)
    assert out.getvalue() == "" and notice.seconds is None


def test_modules_without_kernels_are_never_cold():
    assert cold_modules(["mastermind.core.errors", "mastermind.core.game"]) == []


def test_json_output_keeps_stderr_empty_even_when_kernels_compile(capsys, monkeypatch):
    """The notice is for a person; ``--json`` output is read by programs (stderr too)."""
    from mastermind.app.cli import main

    monkeypatch.setattr(compiling, "cold_modules", lambda names: list(names))
    # (--no-cache: an answer from the result cache compiles nothing)
    for args in (
        ["optimal", "-r", "p2c3", "--no-cache"],
        ["heuristics", "-r", "p2c3", "-s", "minimax", "--no-cache"],
    ):
        assert main([*args, "--json"]) == 0
        out, err = capsys.readouterr()
        assert err == "" and out.lstrip().startswith(("{", "["))
        assert main(args) == 0
        out, err = capsys.readouterr()
        assert err.startswith("compiling the ")
