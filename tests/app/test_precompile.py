"""Compiling the kernels at install time (setup.py's hook, mastermind.app.precompile)."""

import importlib.util
import json
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


# What pip's isolated build environment has: build-system.requires (setuptools, numpy, numba)
# and what they bring (llvmlite); the precompilation runs there, so it may import nothing else
BUILD_PACKAGES = {
    "setuptools",
    "pkg_resources",
    "_distutils_hack",
    "numpy",
    "numba",
    "llvmlite",
    "mastermind",
}
BUILD_ENVIRONMENT = f"""
import importlib.abc, importlib.machinery, sys, sysconfig
ALLOWED = {sorted(BUILD_PACKAGES)!r}
SITE = {{sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}}

class BuildEnvironment(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if path is not None or top in ALLOWED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(top)
        origin = (spec.origin or "") if spec else ""
        if any(origin.startswith(site) for site in SITE):
            raise ModuleNotFoundError(f"{{name}} is not in the build environment", name=name)
        return None

sys.meta_path.insert(0, BuildEnvironment())
"""


def _precompile_imports() -> list[str]:
    """Every module that precompile.py imports, at any depth of its code."""
    import ast

    tree = ast.parse((ROOT / "mastermind" / "app" / "precompile.py").read_text())
    names = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    names |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    return sorted(names)


def test_the_precompilation_imports_only_what_the_build_environment_has():
    """The install's precompilation imported the command line's module for one helper, and
    typer with it: in pip's build environment it failed, and every kernel was compiled by the
    first command (80 s) with only a warning pip hides."""
    modules = _precompile_imports()
    assert "mastermind.engines.exact" in modules  # the parse found the body's imports (none at the top)
    script = BUILD_ENVIRONMENT + "".join(f"import {m}\n" for m in modules)
    script += "print('every module imported')\n"
    script += "import typer\n"  # the check itself must refuse what the build environment lacks
    # (one child for both: the modules import, then typer is refused)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.stdout == "every module imported\n", done.stderr
    assert done.returncode == 1 and "typer is not in the build environment" in done.stderr, done.stderr


@pytest.mark.integration
@pytest.mark.timeout(1800)
def test_a_fresh_editable_install_leaves_no_kernel_to_compile(tmp_path):
    """As the README says: ``pip install -e .`` in a fresh clone, then the main job compiles
    nothing. The copy is installed in a new virtual environment (which sees this one's
    packages, so that only the build environment is downloaded) with pip's build isolation,
    as a new user's install is; the main job then runs from the copy's sources."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    source = tmp_path / "clone"
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    assert not list(source.rglob("*.nbi"))
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "MASTERMIND_", "PYTHON"))}

    def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [str(venv / "bin" / "python"), *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=1500,
        )
        assert done.returncode == 0, done.stderr
        return done

    install = run("-m", "pip", "install", "--quiet", "--no-deps", "-e", str(source), cwd=tmp_path)
    assert "precompiling the kernels failed" not in install.stderr
    kernels = source / "mastermind"
    before = _indexes(kernels)
    assert len(before) >= 40, f"the install compiled {len(before)} kernels"
    done = run("-m", "mastermind", "compare", "-r", "p4c6", "--json", cwd=source)
    assert json.loads(done.stdout)["optimal"]["total"] == 5625
    assert _indexes(kernels) == before, "the first compare compiled kernels the install left"
