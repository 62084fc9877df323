"""An independent checker of proof files: optimal values of Mastermind checked with nothing
from the search that found them (its own codes, scoring, partitions, symmetries and counting
bound; numpy and numba only). ``docs/proofs.md`` describes the format.

>>> from mastermind.proofcheck import check_proof
"""

from mastermind.proofcheck.check import (
    FORMAT,
    VERSION,
    CheckStopped,
    Outcome,
    check_proof,
    is_proof,
    load_proof,
    memory_needed,
)
from mastermind.proofcheck.game import ProofError
from mastermind.proofcheck.reading import count_facts, open_proof, proof_items, proof_rules

__all__ = [
    "FORMAT",
    "VERSION",
    "CheckStopped",
    "Outcome",
    "ProofError",
    "check_proof",
    "count_facts",
    "is_proof",
    "load_proof",
    "memory_needed",
    "open_proof",
    "proof_items",
    "proof_rules",
]
