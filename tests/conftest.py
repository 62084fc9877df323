"""Shared by every test: commands keep their result cache in a folder of the test's own."""

import pytest


@pytest.fixture(autouse=True)
def _own_result_cache(tmp_path_factory, monkeypatch):
    """A repeated command would otherwise answer from ~/.cache/mastermind (or from another
    test's run): each test starts with an empty cache that no user shares."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
