"""The black-peg table of ``results/`` (results/black-peg.md): the optimal table's rows and
columns for black-peg Mastermind, under a header of its own (the variant, the games it
covers and the time they took, the literature on its worst cases).

>>> from mastermind.app.publishing.black_peg import render_black_peg
>>> text = render_black_peg([])
>>> text.splitlines()[0], "No game of this file is proven yet." in text
('# Optimal strategies for black-peg Mastermind', True)
"""

from __future__ import annotations

from collections.abc import Sequence

from mastermind.app.publishing.markdown import render_optimal

TITLE = "# Optimal strategies for black-peg Mastermind"


def render_black_peg(rows: Sequence[dict]) -> str:
    """The markdown of the black-peg table: its header, then the optimal table's text after
    its title (the same columns and notes, which hold as they are for this variant)."""
    _, body = render_optimal(rows).split("\n", 1)
    lines = [
        TITLE,
        "",
        "Black-peg Mastermind (`--rules p4c6b`; `p4c6nb` without repetition): each guess is",
        "answered with the number of black pegs alone (right colour, right place), no white",
        "pegs. The rows are those of [optimal.md](optimal.md) for the games of this variant,",
        "computed by `mastermind results --table black-peg`; a game's trees and proof are",
        "`trees/GAME.json.gz` and `proofs/GAME.proof.json.gz` with GAME such as `p3c3b`.",
        "",
        *_scope(rows),
        "",
        'Worst cases in the literature: G. Jäger and M. Peczarski, "The number of pessimistic',
        'guesses in Generalized Black-peg Mastermind", Information Processing Letters 111',
        "(2011) 933-940, give exact formulas for the optimal worst case b(p,c) with 2, 3 and",
        "4 pegs and bounds with 5 and 6. Only the paper's abstract could be consulted here,",
        "not its formulas (nor whether b(p,c) counts the final guess), so no value of theirs",
        "is transcribed: the games in their range say so in the *status* column.",
    ]
    return "\n".join(lines) + "\n" + body


def _scope(rows: Sequence[dict]) -> list[str]:
    """The games the file holds and the time they took, from its rows.

    >>> from mastermind.app.publishing.black_peg import _scope
    >>> _scope([{"game": "p2c2b", "status": "proven", "seconds": 0.25, "cpu_seconds": 0.2},
    ...         {"game": "p2c3b", "status": "open", "seconds": 1.0, "cpu_seconds": None}])[1]
    '1 proven, 1 open; 1.2 s of wall time over the rows (0.2 s of CPU time in the parts that'
    """
    if not rows:
        return ["No game yet."]
    proven = sum(r["status"] == "proven" for r in rows)
    wall = sum(r.get("seconds") or 0.0 for r in rows)
    cpu = sum(r.get("cpu_seconds") or 0.0 for r in rows)
    return [
        f"Games: {', '.join(r['game'] for r in rows)};",
        f"{proven} proven, {len(rows) - proven} open; {wall:.1f} s of wall time over the rows"
        f" ({cpu:.1f} s of CPU time in the parts that",
        "finished; the *s* column summed). The scope (`BLACK_PEG_SCOPE` in",
        "`mastermind/app/publishing/scope.py`) is the games whose optimal total and worst case",
        "were proven within the row's time limit on the shared 2-core machine; README (Black-peg",
        "Mastermind) gives how it was measured and the whole run's time, proofs included.",
    ]
