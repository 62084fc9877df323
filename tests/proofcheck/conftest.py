"""Shared by the checker's tests: how a refusal is read."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mastermind.proofcheck import ProofError, check_proof


def _refused(data: dict) -> ProofError:
    with pytest.raises(ProofError) as caught:
        check_proof(data)
    error = caught.value
    assert error.fact is None or re.match(rf"fact {error.fact}\b", str(error)), error
    return error


@pytest.fixture
def refused() -> Callable[[dict], ProofError]:
    """The checker's refusal of a proof (parsed JSON): the error it raises, which names the
    fact it gives as failing."""
    return _refused
