"""The tables of ``results/`` as markdown: what a person reads (the JSON beside them is the data)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from mastermind.app.publishing.literature import NOT_TRANSCRIBED
from mastermind.app.publishing.scope import PROOF_MAX_CODES
from mastermind.core.rounding import ceil_decimal, floor_decimal


def _repetition(row: dict) -> str:
    return "yes" if row["repetition"] else "no"


def _seconds(row: dict) -> str:
    s, cpu = row.get("seconds"), row.get("cpu_seconds")
    if s is None:
        return ""
    depth = row.get("depth_search_seconds")  # the depth search's, over every run on its file
    depth_text = "" if depth is None else f"; the depth search {depth:.1f} over all runs"
    if "search_seconds" in row:  # proven by a checkpointed search, maybe over several runs
        total = row["search_seconds"]
        if total is None:
            return f"{s:.1f} this run; earlier runs untimed{depth_text}"
        return f"{total:.1f} searching over all runs; {s:.1f} this run{depth_text}"
    return (f"{s:.1f}" if cpu is None else f"{s:.1f} ({cpu:.1f})") + depth_text


def _proof_cell(row: dict) -> str:
    """The row's proof file, or why it has none."""
    proof = row.get("proof") or {}
    if proof.get("file"):
        return f"`{proof['file']}`"
    if row.get("status") != "proven":
        worst = row.get("worst_proof") or {}
        if worst.get("file"):  # (its optimal worst case proven: that alone)
            return f"of the worst case {row['bounds']['optimal_worst']}: `{worst['file']}`"
        return "none"
    if row.get("codes", 0) > PROOF_MAX_CODES:  # (written by `optimal --proof`)
        return f"none: over {PROOF_MAX_CODES} codes, see the README"
    return "none: not written in the row's time"


def _game_value_proof_cell(row: dict) -> str:
    """A proven game value's proof file, or why it has none."""
    if "proof" not in row:  # (a row computed before results wrote them)
        return "none: the row predates proofs of game values"
    return _proof_cell(row)


def _published_cell(row: dict) -> str:
    refs = row.get("published") or []
    if refs:
        return "; ".join(f"{r['quantity']} {r['value']} ({r['source']})" for r in refs)
    return row.get("literature_note", "") if row.get("literature") == NOT_TRANSCRIBED else ""


def render_optimal(rows: Sequence[dict]) -> str:
    proven = [r for r in rows if r["status"] == "proven"]
    open_rows = [r for r in rows if r["status"] != "proven"]
    lines = [
        "# Optimal Mastermind strategies",
        "",
        "Every number in the computed columns was proven by this tool (`mastermind results`); the",
        "*published* column only quotes the literature, and *status* says whether the tool",
        "agrees, or that the value is new (no published value found), or that the game lies in",
        "the range of a paper whose values are not transcribed here.",
        "",
    ]
    lines += _proven_section(proven)
    lines += _open_section(open_rows)
    skipped = [r for r in proven if r.get("tree") and r["tree"].get("skipped")]
    if skipped:
        lines += [
            "",
            "Trees left out (too large): "
            + ", ".join(f"{r['game']} ({r['tree']['skipped']})" for r in skipped)
            + ".",
        ]
    lines += _reproduce(rows)
    return "\n".join(lines) + "\n"


def _proven_section(proven: Sequence[dict]) -> list[str]:
    """The table of the proven games (a line saying there is none, else)."""
    lines: list[str] = []
    if proven:
        lines += [
            "- **total**: fewest guesses summed over all secrets (each secret equally likely);",
            "  **average** = total / codes.",
            "- **worst**: the worst case of that optimal strategy: the smallest among total-optimal",
            "  strategies, except where marked `*` (the tie-break did not finish within the row's"
            " time limit).",
            "- **opt. worst**: the optimal worst case; **total at opt. worst**: the best total among",
            "  strategies with that worst case.",
            "- **best first guesses**: every canonical first guess that reaches the optimal total.",
            "- **histogram**: secrets solved with 1, 2, 3, ... guesses.",
            "- **s**: wall seconds of the whole row, parts stopped at its time limit included (CPU",
            "  seconds of the parts that finished in brackets; `jobs` threads) on a shared 2-core",
            "  machine, so wall times vary with its load; an open row adds the seconds of its",
            "  checkpointed searches over all runs; trees: `trees/GAME.json.gz`.",
            "- **proof**: a proof file of the optimal total and worst case that `mastermind verify`",
            "  checks with a checker of its own (`proofs/GAME.proof.json.gz`, docs/proofs.md), or why",
            "  the row has none (`results` writes them up to 2401 codes; `optimal --proof` beyond).",
            "",
            (
                "| game | pegs | colours | repetition | codes | total | average | worst | opt. worst "
                "| total at opt. worst | best first guesses | histogram | published | status | s | jobs "
                "| proof |"
            ),
            "|---|---:|---:|---|---:|---:|---|---:|---:|---:|---|---|---|---|---:|---:|---|",
        ]
    else:  # (a table of its header alone read as a table left empty by mistake)
        lines.append("No game of this file is proven yet.")
    for r in proven:
        worst = f"{r['worst']}" + ("" if r.get("tie_broken") else "*")
        late = "past the time limit"
        ow = late if r.get("optimal_worst") is None else str(r["optimal_worst"])
        wt = late if r.get("worst_total") is None else str(r["worst_total"])
        avg = f"{r['total']}/{r['codes']} = {r['average']:.4f}"
        lines.append(
            f"| {r['game']} | {r['pegs']} | {r['colours']} | {_repetition(r)} | {r['codes']} | {r['total']} "
            f"| {avg} | {worst} | {ow} | {wt} | {_first_guesses(r)} "
            f"| {' '.join(map(str, r['histogram']))} | {_published_cell(r)} | {r['literature']} "
            f"| {_seconds(r)} | {r['jobs']} | {_proof_cell(r)} |"
        )
    return lines


def _open_section(open_rows: Sequence[dict]) -> list[str]:
    """The table of the open games, with their bounds."""
    if not open_rows:
        return []
    lines = [
        "",
        "## Open games",
        "",
        "Not proven by this tool yet. *lower*: proven lower bounds (lookahead bounds of",
        "`mastermind bounds`, or `(search)`: proven by the stopped checkpointed search);",
        "*upper*: the total and worst case of a strategy played on every secret (a strategy that",
        "exists, not the optimum): the best heuristic, or `(search)`, the best strategy the",
        "stopped search found. A frontier game's checkpoint is kept in `checkpoints/GAME/` where",
        "it is small enough: the command in its JSON entry continues the search from it. The",
        "search's strategy is in `trees/GAME.json.gz` (`mastermind verify` replays it to its",
        "total). *gap*: (upper - lower) / lower, rounded up. *worst*: the fewest guesses in",
        "the worst case; its lower bound counts the depths the depth search refuted, and",
        "`(depth)` marks a strategy of the least depth that search found",
        "(`trees/GAME.worst.json.gz`); lower = upper is the optimal worst case. *proof*: the",
        "proof file of that worst case alone, where it is proven (`mastermind verify` checks it).",
        "",
        (
            "| game | pegs | colours | repetition | codes | total lower | total upper | gap "
            "| worst lower | worst upper | why open | s | proof |"
        ),
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    for r in open_rows:
        b = r.get("bounds") or {}
        source = b.get("upper_source", b.get("heuristic"))
        upper = f"{b['total_upper_bound']} ({source})" if b.get("total_upper_bound") is not None else ""
        lower = ""  # (none when the bounds did not finish in time)
        if b.get("total_lower_bound") is not None:
            lower = f"{b['total_lower_bound']}" + (" (search)" if b.get("lower_source") == "search" else "")
        lines.append(
            f"| {r['game']} | {r['pegs']} | {r['colours']} | {_repetition(r)} | {r['codes']} "
            f"| {lower} | {upper} | {_gap(b)} | {_blank(b.get('worst_lower_bound'))} "
            f"| {_worst_upper(b)} | {_why_open(r)} | {_seconds(r)} | {_proof_cell(r)} |"
        )
    return lines


def _worst_upper(bounds: dict) -> str:
    text = _blank(bounds.get("worst_upper_bound"))
    return f"{text} (depth)" if bounds.get("worst_upper_source") == "depth" else text


def _first_guesses(row: dict) -> str:
    text = " ".join(row["best_first_guesses"])
    # a checkpointed run proves the optimum through one first guess, not every one reaching it
    return text if row.get("first_guesses_complete", True) else f"{text} (others not searched)"


def _reproduce(rows: Sequence[dict]) -> list[str]:
    if not rows:
        return []
    versions = sorted({r["version"] for r in rows if r.get("version")})
    return [
        "",
        f"Reproduce a row with the command in its JSON entry, e.g. `{rows[0]['command']}`",
        f"(tool version{'s' if len(versions) > 1 else ''} {', '.join(versions)}).",
    ]


def render_game_values(rows: Sequence[dict]) -> str:
    lines = [
        "# Game values of Mastermind",
        "",
        "The code maker picks the secret with probabilities of his choice, the code breaker may",
        "randomise over strategies; the value is the expected number of guesses when both play",
        "optimally, proven exactly by `mastermind game-value` (column generation with a rational",
        "certificate). The maker's mix is equal within a class of codes (a colour pattern);",
        "*uniform optimal* says whether the uniformly random secret is an optimal mix (value =",
        "optimal average; the mix shown may then be another optimal one). *value* is written over",
        "the number of codes the maker uses when he mixes them uniformly (5600/1290), else reduced.",
        "*breaker mix*: trees in the breaker's optimal mix, each played under",
        "a random colour and position permutation. *s*: wall seconds (CPU seconds in brackets)",
        "on a shared 2-core machine. An open row gives, as its decimal, the interval its run proved",
        "before the row's time limit stopped it (the maker's and the breaker's best mixes so far).",
        "*proof*: a proof file of the value (the maker's mix as whole weights with a certificate",
        "that no strategy averages less against it, and the breaker's mix) that `mastermind verify`",
        "checks with a checker of its own (`proofs/GAME.game-value.proof.json.gz`, docs/proofs.md).",
        "",
        (
            "| game | codes | value | decimal | uniform average | uniform optimal | maker's mix "
            "(class: probability) | breaker mix | published | status | s | jobs | proof |"
        ),
        "|---|---:|---|---:|---|---|---|---:|---|---|---:|---:|---|",
    ]
    for r in rows:
        if r["status"] != "proven":
            lines.append(
                f"| {r['game']} | {r['codes']} | open | {_value_bounds(r)} | | | {_why_open(r)} "
                f"| | | {r.get('literature', 'open')} | {_seconds(r)} | {r['jobs']} | none: not proven |"
            )
            continue
        # (as a reader writes them: 0, not the JSON's 0/1)
        mix = ", ".join(f"{m['pattern']}: {Fraction(m['probability_fraction'])}" for m in r["maker"])
        lines.append(
            f"| {r['game']} | {r['codes']} | {r['average_unreduced']} | {r['average']:.6f} "
            f"| {r['uniform_total']}/{r['codes']} | {'yes' if r['uniform_optimal'] else 'no'} | {mix} "
            f"| {r['breaker_mix_size']} | {_published_cell(r)} | {r['literature']} | {_seconds(r)} "
            f"| {r['jobs']} | {_game_value_proof_cell(r)} |"
        )
    lines += _reproduce(rows)
    return "\n".join(lines) + "\n"


def _why_open(row: dict) -> str:
    """Why a row is open, and whether the published values lie within its bounds."""
    return row.get("literature_note") or row.get("reason", "")


def _value_bounds(row: dict) -> str:
    """Where an open game value lies, as far as a stopped run proved ("" if it proved nothing)."""
    b = row.get("bounds")
    if not b:
        return ""
    low, high = b.get("average_lower_bound"), b.get("average_upper_bound")
    lower = "?" if low is None else floor_decimal(low, 6)  # a bound never rounds past what is proven
    upper = "?" if high is None else ceil_decimal(high, 6)
    return f"[{lower}, {upper}]"


def _gap(bounds: dict) -> str:
    """How far apart the total's bounds are, relative to the lower one, rounded up.

    >>> from mastermind.app.publishing.markdown import _gap
    >>> _gap({"total_lower_bound": 35747, "total_upper_bound": 37087}), _gap({})
    ('3.75%', '')
    """
    low, high = bounds.get("total_lower_bound"), bounds.get("total_upper_bound")
    if not low or high is None:
        return ""
    return f"{ceil_decimal(Fraction(100 * (high - low), low), 2)}%"


def _blank(value) -> str:
    return "" if value is None else str(value)
