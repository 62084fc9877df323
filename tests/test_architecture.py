"""The package's shape, as import-linter enforces it: no import cycles, layers inside the exact
engine; and the exact engine's public face."""

import shutil
import subprocess
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="Python 3.11 reads TOML")

ROOT = Path(__file__).resolve().parents[1]


def lint(config: Path, path: Path, capsys, monkeypatch) -> tuple[bool, str]:
    """import-linter in this process (a second or so, as lint-imports without its cache):
    whether every contract of ``config`` is kept, and its report. The package is found on
    ``path``; one this process has imported is read where it was imported from."""
    pytest.importorskip("importlinter", reason="import-linter (the test extra) is not installed")
    from importlinter import configuration
    from importlinter.application import use_cases

    configuration.configure()
    monkeypatch.syspath_prepend(str(path))
    capsys.readouterr()
    kept = use_cases.lint_imports(config_filename=str(config), cache_dir=None, no_logo=True)
    return kept, capsys.readouterr().out


def contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_cycles_are_forbidden_in_every_package():
    acyclic = [c for c in contracts() if c["type"] == "acyclic_siblings"]
    assert acyclic and acyclic[0]["ancestors"] == ["mastermind"]


def test_the_exact_engine_is_layered_from_solve_down_to_the_kernels():
    (layers,) = [c for c in contracts() if c.get("containers") == ["mastermind.engines.exact"]]
    assert layers["type"] == "layers" and layers["exhaustive"] is True
    assert layers["layers"][0] == "api" and "_kernels" in layers["layers"][-1].split(" | ")


def test_the_proof_checker_shares_no_code_with_the_package():
    """mastermind.proofcheck imports nothing else of mastermind, and nothing of mastermind
    below the app imports it (import-linter checks both)."""
    forbidden = {
        tuple(c["source_modules"]): set(c["forbidden_modules"])
        for c in contracts()
        if c["type"] == "forbidden"
    }
    assert forbidden[("mastermind.proofcheck",)] == {
        "mastermind.engines",
        "mastermind.core",
        "mastermind.app",
    }
    assert forbidden[("mastermind.engines", "mastermind.core")] == {"mastermind.proofcheck"}


def test_import_linter_keeps_every_contract(capsys, monkeypatch):
    kept, out = lint(ROOT / "pyproject.toml", ROOT, capsys, monkeypatch)
    assert kept, out[-3000:]
    assert "BROKEN" not in out and f"{len(contracts())} kept, 0 broken" in out


def test_a_cycle_would_break_the_contract(tmp_path, capsys, monkeypatch):
    """The acyclic-siblings contract is not vacuous: two modules of a package importing
    each other break it."""
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loop import b\n")
    (package / "b.py").write_text("from loop import a\n")
    (package / "c.py").write_text("from loop import a\n")
    (tmp_path / "setup.cfg").write_text(
        "[importlinter]\nroot_package = loop\n\n"
        "[importlinter:contract:acyclic]\nname = acyclic\ntype = acyclic_siblings\nancestors = loop\n"
    )
    kept, out = lint(tmp_path / "setup.cfg", tmp_path, capsys, monkeypatch)
    assert not kept and "BROKEN" in out


# the checkout's top level: the project's own files; runs write elsewhere (.gitignore)
TOP_LEVEL = {".ci", ".gitignore", "LICENSE", "README.md", "benchmarks", "docs", "mastermind",
             "pyproject.toml", "results", "schemas", "setup.py", "tests"}  # fmt: skip


def test_no_run_leftovers_are_tracked_at_the_top_level(tmp_path):
    """A checkpoint folder (ckdbl/) and a plot (plot.svg) were committed with other work;
    git now ignores what runs leave at the top, and nothing else is tracked there."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a checkout")
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    tracked = {line.split("/")[0] for line in listed.splitlines() if line}
    assert tracked <= TOP_LEVEL, sorted(tracked - TOP_LEVEL)
    for leftover in ("ckdbl/checkpoint.sqlite", "ckdbl/units-memo.npz", "plot.svg", "s.json", "t.json.gz"):
        ignored = subprocess.run(["git", "check-ignore", "-q", leftover], cwd=ROOT)
        assert ignored.returncode == 0, f"{leftover} would not be ignored"
    kept = subprocess.run(
        ["git", "check-ignore", "-q", "results/checkpoints/p5c8/checkpoint.sqlite"], cwd=ROOT
    )
    assert kept.returncode == 1  # the frontier's checkpoints are still committed
