"""The benchmarks still run against the code as it is (they are not run by CI otherwise)."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted((ROOT / "benchmarks").glob("bench_*.py"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.stem)
def test_each_benchmark_parses_its_options(path):
    done = run(str(path), "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")


def test_the_exact_benchmark_measures_a_small_game():
    done = run("benchmarks/bench_exact.py", "--games", "p3c3", "--no-baseline", "--startup-runs", "0")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("p3c3"))
    assert row.split()[2] == "73"  # the optimal total of 3 pegs x 3 colours (the exact tests' value)
    assert "failed" not in done.stdout


def test_the_cost_model_fits_the_5x8_history():
    """benchmarks/cost_model.py on the history it ships with (docs/cluster.md quotes it)."""
    done = run("benchmarks/cost_model.py", "benchmarks/data/p5c8-history.csv", "--target", "178624")
    assert done.returncode == 0, done.stderr
    assert "fitted 25 points" in done.stdout and "reaches 178624 at 29,787,067 s" in done.stdout
