"""Shared by every test: commands keep their result cache in a folder of the test's own; the
published strategy files of tests/data; property tests that do not depend on the machine's speed."""

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

DATA = Path(__file__).resolve().parent / "data"

# the compiled bytecode of the package and of the tests is kept (in __pycache__, beside
# numba's cache) even where PYTHONDONTWRITEBYTECODE is set, as on this project's machines:
# else each test process compiles every module from its source again, 4.5 s of CPU of the
# 8.5 s a worker takes to collect the tests
sys.dont_write_bytecode = False

# no property test depends on the machine's speed: no deadline per example, and no health
# check failing because generating the examples was slow (a busy machine)
settings.register_profile("mastermind", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mastermind")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """tests/data: the published trees (Knuth 1977, Koyama and Lai 1993) in the Irving format."""
    return DATA


@pytest.fixture(scope="session")
def _result_caches(tmp_path_factory) -> Iterator[Path]:
    """The folder of every test's result cache, one folder a test."""
    yield tmp_path_factory.mktemp("xdg-cache")


_tests = itertools.count()


@pytest.fixture(autouse=True)
def _own_result_cache(_result_caches, monkeypatch):
    """A repeated command would otherwise answer from ~/.cache/mastermind (or from another
    test's run): each test starts with an empty cache that no user shares. (A folder of its
    own in one folder: tmp_path_factory.mktemp lists every folder made before to number the
    next one, which took 3 ms a test by the end of a run.)"""
    folder = _result_caches / str(next(_tests))
    folder.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every docstring example of the package runs with only what it imports itself (doctest
    gives it its module's namespace, where an example that forgot an import passes), as a
    reader who copies it runs it; pytest's doctest_namespace fixture still applies."""
    from _pytest.doctest import DoctestItem

    for item in items:
        if isinstance(item, DoctestItem) and item.dtest is not None:
            name = item.dtest.globs.get("__name__", "")
            if name.startswith("mastermind"):
                item.dtest.globs = {"__name__": name}
