"""Proofs written beside the tables by hand: a proven row the table computed without one
(over :data:`~mastermind.app.publishing.scope.PROOF_MAX_CODES` codes, which ``results`` does
not certify in a row's time) names the file ``proofs/GAME.proof.json.gz`` that ``mastermind
optimal --proof`` wrote there, when the file claims the row's game, total and worst case; an
open row whose optimal worst case is proven names ``proofs/GAME.worst.proof.json.gz``, the
proof of that worst case alone, when the file claims it (and no total).
The claim is read from the file's head; the proof itself is checked by ``mastermind verify``
(and by the tests of the committed proofs), not here."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mastermind.app.publishing.files import proof_stem, worst_proof_stem
from mastermind.core.game import Rules


def proof_claim(path: Path) -> dict | None:
    """The keys of a proof file before its facts (its ``format``, ``version``, ``rules``,
    ``total`` and ``worst``, where the writer puts them) and ``facts``, how many it holds (its
    ``"path"`` keys counted: exact for a file that checks); None when it is not a readable
    proof file, or one whose claims come after its facts (``verify`` still checks it; it is
    not named here, which would mean reading its facts)."""
    from mastermind.proofcheck import FORMAT, ProofError, count_facts, open_proof, proof_items

    claim: dict = {}
    try:
        with open_proof(str(path)) as stream:
            for key, value in proof_items(stream):
                if key == "facts":
                    break
                claim[key] = value
        with open_proof(str(path)) as stream:
            claim["facts"] = count_facts(stream)
    except (OSError, ProofError, ValueError):
        return None
    return claim if claim.get("format") == FORMAT else None


def _claims_row(claim: dict, row: dict) -> bool:
    """Whether the file's claim is the row's: a proof of optimal values (version 1: not a
    game value's, whose weighted total may equal a plain total by chance) of the same game,
    with the row's total and its optimal worst case (where the file claims one)."""
    from mastermind.proofcheck import VERSION

    if claim.get("version") != VERSION:
        return False
    try:
        same_game = str(Rules.parse(str(claim.get("rules")))) == str(Rules.parse(row["game"]))
    except ValueError:
        return False
    worst = claim.get("worst")
    return (
        same_game
        and claim.get("total") == row.get("total")
        and (worst is None or worst == row.get("optimal_worst"))
    )


def with_written_proofs(out: Path, rows: Sequence[dict], attach: bool = True, fresh: str = "") -> list[dict]:
    """``rows``, where a proven row without a proof entry gets one for the proof file in
    ``out/proofs`` that claims its values (file, bytes and facts, as ``results`` gives its
    own; not with ``attach`` False: a game value's table), and a row whose proof file is
    gone names none (a row kept from an earlier run still named a file deleted since); the
    row of game ``fresh`` as it is (its own proof is put in place after the tables)."""
    kept = []
    for row in rows:
        row = _with_worst_proof(out, row, attach, fresh)
        entry = row.get("proof") or {}
        path = out / "proofs" / f"{proof_stem(row['game'])}.json.gz"
        if row["game"] == fresh and entry:
            pass  # (its proof is put in place once the tables are written)
        elif entry.get("file") and not (out / entry["file"]).is_file():
            row = {**row, "proof": None}
        elif attach and row.get("status") == "proven" and not entry and path.is_file():
            claim = proof_claim(path)
            if claim is not None and _claims_row(claim, row):
                file = path.relative_to(out).as_posix()
                row = {**row, "proof": {"file": file, "bytes": path.stat().st_size, "facts": claim["facts"]}}
        kept.append(row)
    return kept


def _with_worst_proof(out: Path, row: dict, attach: bool, fresh: str) -> dict:
    """An open row with the proof of its optimal worst case alone named (``worst_proof``),
    where the file claims that worst case and no total; none where its file is gone."""
    entry = row.get("worst_proof") or {}
    worst = (row.get("bounds") or {}).get("optimal_worst")
    path = out / "proofs" / f"{worst_proof_stem(row['game'])}.json.gz"
    if row["game"] == fresh and entry:
        return row  # (its proof is put in place once the tables are written)
    if entry.get("file") and not (out / entry["file"]).is_file():
        return {**row, "worst_proof": None}
    if not attach or row.get("status") != "open" or entry or worst is None or not path.is_file():
        return row
    claim = proof_claim(path)
    alone = claim is not None and claim.get("total") is None  # (its total not claimed)
    if not alone or not _claims_row(claim, {**row, "optimal_worst": worst}):
        return row
    file = path.relative_to(out).as_posix()
    return {**row, "worst_proof": {"file": file, "bytes": path.stat().st_size, "facts": claim["facts"]}}
