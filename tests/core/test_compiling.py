"""The first-run notice: which kernel modules numba still has to compile."""

import io
import os
import time
from pathlib import Path

from mastermind.core import compiling
from mastermind.core.compiling import EXACT_KERNELS, CompileNotice, cold_modules


def test_an_empty_cache_is_cold_and_the_notice_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert cold_modules(EXACT_KERNELS) == list(EXACT_KERNELS)
    out = io.StringIO()
    with CompileNotice(EXACT_KERNELS, "the search kernels", out) as notice:
        pass
    assert out.getvalue().startswith("compiling the search kernels once, about ")
    assert out.getvalue().count("\n") == 1
    assert notice.seconds is not None and notice.seconds >= 0


def test_an_index_newer_than_the_source_is_warm_and_an_older_one_cold(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    name = "mastermind.engines.exact._dfs"
    source = Path(compiling.importlib.util.find_spec(name).origin)
    folder = compiling._cache_dir(source)
    folder.mkdir(parents=True)
    index = folder / f"{source.stem}.dfs-1.py311.nbi"
    index.write_bytes(b"")
    assert cold_modules([name]) == []
    old = source.stat().st_mtime - 10
    os.utime(index, (old, old))
    assert cold_modules([name]) == [name]


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
