"""Every proof committed under ``results/proofs`` checks, and proves what the published table
(optimal.json, or black-peg.json for a black-peg game) says: the optimal total and, where the
proof claims it, the optimal worst case; a game value's proof, the value game-values.json
gives."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from mastermind.proofcheck import check_proof, open_proof, proof_items

RESULTS = Path(__file__).resolve().parents[2] / "results"
GAME_VALUE_PROOFS = sorted((RESULTS / "proofs").glob("*.game-value.proof.json.gz"))
PROOFS = sorted(set((RESULTS / "proofs").glob("*.proof.json.gz")) - set(GAME_VALUE_PROOFS))
# a big proof takes seconds to a minute of one core (4x8: 48 s, 8x2's 1.6 MB: 10 s):
# checked in the slow tier; the quick one checks the small ones, 4x6's among them
SLOW_BYTES = 30_000
# 4x9's 13 MB: 4.5 minutes of one core (10 before its classes were counted once), which CI
# cannot spare (its run took 23 minutes with it): a tier of its own, run by hand (-m manual)
LONGEST_BYTES = 5_000_000


def _published() -> dict[str, dict]:
    """The rows of the tables of optimal rows: the standard game's and black-peg's."""
    rows = [
        row
        for stem in ("optimal", "black-peg")
        for row in json.loads((RESULTS / f"{stem}.json").read_text())["rows"]
    ]
    return {row["game"]: row for row in rows}


def _cases() -> list:
    cases = []
    for path in PROOFS:
        size = path.stat().st_size
        marks = [pytest.mark.slow] if size > SLOW_BYTES else []
        if size > LONGEST_BYTES:  # (beyond pytest-timeout's 10 minutes on a loaded machine)
            marks += [pytest.mark.manual, pytest.mark.timeout(1800)]
        cases.append(pytest.param(path, id=path.name.split(".")[0], marks=marks))
    return cases


def test_the_proofs_cover_every_proven_game_up_to_4x7():
    proven = {g for g, row in _published().items() if row["status"] == "proven" and row["codes"] <= 2401}
    assert proven <= {p.name.removesuffix(".proof.json.gz") for p in PROOFS}


@pytest.mark.parametrize("path", _cases())
def test_a_committed_proof_checks_and_proves_the_published_values(path):
    stem = path.name.removesuffix(".proof.json.gz")
    alone = stem.endswith(".worst")  # (an open game's optimal worst case alone)
    row = _published()[stem.removesuffix(".worst")]
    with open_proof(str(path)) as fh:  # (read as `verify` reads it: fact by fact)
        outcome = check_proof(proof_items(fh))
    assert outcome.game_value is None and outcome.total == row.get("total")  # (not a game value's)
    if alone:  # (no total claimed; the open row names it, with its optimal worst case)
        assert row["status"] == "open" and outcome.total is None
        assert outcome.worst == row["bounds"]["optimal_worst"]
        named = row["worst_proof"]
        assert named["file"] == f"proofs/{path.name}" and named["facts"] == outcome.facts
    else:
        assert outcome.worst is None or outcome.worst == row["optimal_worst"]
    assert outcome.facts > 0 or outcome.secrets <= 2


def test_a_committed_game_value_proof_proves_the_published_value():
    """Each game-value row's proof file (every proven row of at most 2401 codes has one)
    proves the row's value, the maker's side and the breaker's."""
    rows = json.loads((RESULTS / "game-values.json").read_text())["rows"]
    named = {row["proof"]["file"]: row for row in rows if row.get("proof")}
    assert {f"proofs/{p.name}" for p in GAME_VALUE_PROOFS} == set(named)
    assert {row["game"] for row in rows if row["status"] == "proven" and row["codes"] <= 2401} <= {
        row["game"] for row in named.values()
    }
    for path in GAME_VALUE_PROOFS:
        row = named[f"proofs/{path.name}"]
        with open_proof(str(path)) as fh:
            outcome = check_proof(proof_items(fh))
        value = Fraction(row["average_fraction"])
        assert outcome.rules == row["rules"] and outcome.game_value == value and outcome.breaker == value
        assert path.stat().st_size == row["proof"]["bytes"] and outcome.facts == row["proof"]["facts"]
