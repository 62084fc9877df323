"""Explanations for a person: how a guess splits the candidates, and why answers contradict.

>>> from mastermind.app.interactive.explain import conflicting_turns
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(4, 6))
>>> r = table.rules
>>> turns = [(r.parse_code("1122"), r.parse_feedback("1B0W")),
...          (r.parse_code("1344"), r.parse_feedback("0B1W"))]
>>> conflicting_turns(table, turns, (r.parse_code("1111"), r.parse_feedback("4B0W")))
[1]
>>> conflicting_turns(table, turns, (r.parse_code("1111"), r.parse_feedback("1B1W")))
[]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mastermind.app.interactive.text import code_list, columns, plural
from mastermind.core import partitions
from mastermind.core.game import Code, CodeTable, Feedback

Answer = tuple[Code, Feedback]


def _consistent(table: CodeTable, answers: Sequence[Answer], codes: np.ndarray) -> bool:
    for guess, feedback in answers:
        codes = table.filter(codes, guess, feedback)
        if len(codes) == 0:
            return False
    return True


def conflicting_turns(table: CodeTable, earlier: Sequence[Answer], new: Answer) -> list[int]:
    """Indices of a smallest-by-deletion set of ``earlier`` answers that no code fits with ``new``.

    Every answer left in the set is needed: dropping any one of them leaves some code that
    fits the rest and ``new``. Earlier answers are dropped first, so the explanation names
    the most recent turns it can. Empty when ``new`` alone fits no code. Assumes that all of
    ``earlier`` together with ``new`` fit no code.
    """
    fits_new = table.filter(table.all_codes, *new)
    if len(fits_new) == 0:
        return []
    keep = list(range(len(earlier)))
    for i in range(len(earlier)):
        trial = [j for j in keep if j != i]
        if not _consistent(table, [earlier[j] for j in trial], fits_new):
            keep = trial
    return keep


def partition_text(table: CodeTable, guess: Code, candidates: np.ndarray, examples: int = 6) -> str:
    """The partition table of ``guess`` over ``candidates``: each answer, its count, a few codes."""
    rules = table.rules
    answers = table.answer_indices(guess, candidates)
    counts = np.bincount(answers, minlength=rules.n_answer_slots)
    rows = [["answer", "count", "codes"]]
    for a in np.flatnonzero(counts).tolist():
        members = candidates[answers == a]
        rows.append(
            [
                str(rules.answer_feedbacks[a]),
                str(int(counts[a])),
                code_list(rules, members, limit=examples, per_line=examples).replace("\n", " "),
            ]
        )
    in_set = "is" if np.any(candidates == guess) else "is not"
    n = len(candidates)
    summary = (
        f"{rules.code_text(guess)} {in_set} a candidate; largest class {partitions.largest(counts)}, "
        f"{plural(partitions.parts(counts), 'class')}, expected size {partitions.expected_size(counts):.3f}, "
        f"entropy {partitions.entropy_bits(counts) + 0.0:.3f} bits over {plural(n, 'candidate')}"
    )
    return f"how {rules.code_text(guess)} splits the candidates:\n{columns(rows, right=(1,))}\n{summary}"
