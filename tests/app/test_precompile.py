"""Compiling the kernels at install time (setup.py's hook, mastermind.app.precompile)."""

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _setup_module():
    spec = importlib.util.spec_from_file_location("mastermind_setup_py", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # setup() itself runs only as __main__
    return module


def _indexes(folder: Path) -> dict:
    """numba's index files under ``folder`` and their bytes (one more signature changes them)."""
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*.nbi")}


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.timeout(3600)  # six processes, each allowed 900 s
def test_after_precompiling_the_main_commands_compile_nothing(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def run(*args):
        done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr
        return done

    run("-m", "mastermind.app.precompile")
    before = _indexes(tmp_path)
    assert len(before) >= 40  # every kernel of the six modules, not a few
    for path in tmp_path.rglob("*.nbi"):
        # one signature per kernel: a second is a twin from a literal or another dtype (seconds
        # of compiling), and processes compiling two of them at once race on numba's index
        assert len(list(path.parent.glob(path.name.removesuffix(".nbi") + ".*.nbc"))) == 1, path.name
    for command in (
        ["compare", "-r", "p4c6", "--json"],
        ["optimal", "-r", "p3c5", "--json", "--no-cache"],
        ["optimal", "-r", "p3c4", "-j", "2", "--json", "--no-cache"],
        ["optimal", "-r", "p3c4", "--tie-break", "worst", "--json", "--no-cache"],
        ["heuristics", "-r", "p4c5", "--json", "--no-cache"],
    ):
        run("-m", "mastermind", *command)
    assert _indexes(tmp_path) == before


@pytest.mark.parametrize(
    ("editable", "setting", "runs"),
    [(True, None, True), (False, None, False), (True, "0", False), (True, "1", True)],
)
def test_the_build_hook_precompiles_editable_installs_unless_told_not(monkeypatch, editable, setting, runs):
    from setuptools.command.build_py import build_py
    from setuptools.dist import Distribution

    module = _setup_module()
    calls = []
    monkeypatch.setattr(module, "precompile", lambda: calls.append(1))
    monkeypatch.setattr(build_py, "run", lambda self: None)  # copying the sources is setuptools' business
    if setting is None:
        monkeypatch.delenv("MASTERMIND_PRECOMPILE", raising=False)
    else:
        monkeypatch.setenv("MASTERMIND_PRECOMPILE", setting)
    command = module.BuildPyPrecompiled(Distribution())
    command.editable_mode = editable
    command.run()
    assert calls == ([1] if runs else [])


def test_a_failed_precompilation_warns_and_does_not_fail_the_install(tmp_path, capfd):
    app = tmp_path / "mastermind" / "app"
    app.mkdir(parents=True)
    for init in (tmp_path / "mastermind" / "__init__.py", app / "__init__.py"):
        init.write_text("")
    (app / "precompile.py").write_text("raise SystemExit(3)\n")  # sources whose precompile fails
    assert _setup_module().precompile(tmp_path) is False
    assert "the first command will compile them" in capfd.readouterr().err


def test_the_module_takes_no_arguments_and_explains_itself(capsys):
    from mastermind.app.precompile import main

    assert main(["--help"]) == 0
    assert "pip install -e ." in capsys.readouterr().out
    assert main(["--fast"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'--fast'" in err


@pytest.mark.parametrize("point", ["started", "saving kernels"])
@pytest.mark.integration
def test_ctrl_c_stops_it_in_one_line(tmp_path, point):
    """Ctrl-C at a terminal reaches the whole process group, the compiling child included:
    one line from the parent, nothing from the child, exit code 130; whether it comes while
    the child starts (at once after the first line), or while both compile and numba saves
    kernels to its cache (once the first is saved: a callback, where Python cannot raise it;
    it once went unnoticed, exit code 0). Dozens more are still to compile then."""
    import pexpect

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # empty: minutes of compiling ahead
    child = pexpect.spawn(
        sys.executable, ["-m", "mastermind.app.precompile"], env=env, encoding="utf-8", timeout=300
    )
    child.expect("compiling the mastermind kernels once")
    if point == "saving kernels":
        while not any(tmp_path.rglob("*.nbi")):
            time.sleep(0.01)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "interrupted" in child.before
    assert "Traceback" not in child.before and "Process " not in child.before
