"""Shared by every test: commands keep their result cache in a folder of the test's own; the
published strategy files of tests/data."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """tests/data: the published trees (Knuth 1977, Koyama and Lai 1993) in the Irving format."""
    return DATA


@pytest.fixture(autouse=True)
def _own_result_cache(tmp_path_factory, monkeypatch):
    """A repeated command would otherwise answer from ~/.cache/mastermind (or from another
    test's run): each test starts with an empty cache that no user shares."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
