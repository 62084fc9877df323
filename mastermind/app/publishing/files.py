"""The files of ``results/``: rows read (older versions brought to this one), merged, written.

Each table is one JSON file (``{"format", "version", "rows"}``) and its markdown; a new row
replaces the row of its game, except that a proven row is kept against one that is not.

Version 2 speaks the one vocabulary of the command line (``total_lower_bound``,
``average_fraction``, ``row_time_limit``, ...); a version-1 file is read and brought to it
(:func:`upgrade_row`), and written as version 2 the next time a row is merged into it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path

from mastermind.app.documents import TABLES
from mastermind.app.publishing.literature import literature
from mastermind.core.errors import MastermindError
from mastermind.core.fileio import folder_lock, read_text, staged_write, write_atomic

OPTIMAL_FORMAT = "mastermind-results"
GAME_VALUE_FORMAT = "mastermind-game-values"
BLACK_PEG_FORMAT = "mastermind-black-peg"  # (rows of the optimal table's kind, black-peg games)
OPTIMAL, GAME_VALUES, BLACK_PEG = TABLES
STEMS = {OPTIMAL_FORMAT: OPTIMAL, GAME_VALUE_FORMAT: GAME_VALUES, BLACK_PEG_FORMAT: BLACK_PEG}  # file names
FORMATS = {stem: fmt for fmt, stem in STEMS.items()}  # each table's format
FILE_VERSION = 2
ROW_KEYS = {"game", "pegs", "colours", "repetition", "status"}  # what merging and sorting read

# version 1 -> 2: the keys of the one vocabulary
_V1_ROW = {
    "max_seconds": "row_time_limit",
    "value": "average_fraction",
    "value_decimal": "average",
    "value_unreduced": "average_unreduced",
    "uniform_average": "uniform_average_fraction",
}
_V1_BOUNDS = {
    "lower_total": "total_lower_bound",
    "upper_total": "total_upper_bound",
    "lower_worst": "worst_lower_bound",
    "upper_worst": "worst_upper_bound",
    "lower": "average_lower_bound_fraction",
    "lower_decimal": "average_lower_bound",
    "upper_decimal": "average_upper_bound",
}


_V1_MAKER = {"class_probability": "probability_fraction", "per_code": "per_code_fraction"}


def upgrade_row(row: dict) -> dict:
    """A version-1 row in the keys of version 2 (values unchanged; ``--max-seconds`` in the
    command to reproduce it becomes ``--row-time-limit``).

    >>> from mastermind.app.publishing.files import upgrade_row
    >>> upgrade_row({"game": "p4c6", "max_seconds": 60, "bounds": {"lower_total": 5}})
    {'game': 'p4c6', 'row_time_limit': 60, 'bounds': {'total_lower_bound': 5}}
    """
    new = {_V1_ROW.get(k, k): v for k, v in row.items()}
    bounds = new.get("bounds")
    if isinstance(bounds, dict):
        bounds = {_V1_BOUNDS.get(k, k): v for k, v in bounds.items()}
        search = bounds.get("search")
        if isinstance(search, dict):
            search = {_V1_BOUNDS.get(k, k): v for k, v in search.items()}
            if isinstance(search.get("units"), int):  # units run (reused ones among them), as optimal says
                run, reused = search["units"], search.pop("reused_units", 0) or 0
                search["units"] = {"run": run - reused, "reused": reused}
            bounds["search"] = search
        new["bounds"] = bounds
    if isinstance(new.get("maker"), list):  # the maker's mix in the keys of game-value
        new["maker"] = [
            {_V1_MAKER.get(k, k): v for k, v in m.items()} if isinstance(m, dict) else m for m in new["maker"]
        ]
    if isinstance(new.get("by_first_guess"), list):
        new["by_first_guess"] = [
            {("first_guess" if k == "guess" else k): v for k, v in f.items()} if isinstance(f, dict) else f
            for f in new["by_first_guess"]
        ]
    if isinstance(new.get("command"), str):
        new["command"] = new["command"].replace("--max-seconds", "--row-time-limit")
    return new


def tree_stems(game: str) -> dict[str, str]:
    """The stems of a game's trees in ``trees/`` (``STEM.json.gz``), by the row key that
    names each: the best total's strategy and the optimal worst case's.

    >>> from mastermind.app.publishing.files import tree_stems
    >>> tree_stems("p5c8")
    {'tree': 'p5c8', 'worst_tree': 'p5c8.worst'}
    """
    return {"tree": game, "worst_tree": f"{game}.worst"}


def proof_stem(game: str) -> str:
    """The stem of a game's proof file in ``proofs/`` (``STEM.json.gz``).

    >>> from mastermind.app.publishing.files import proof_stem
    >>> proof_stem("p4c6")
    'p4c6.proof'
    """
    return f"{game}.proof"


def worst_proof_stem(game: str) -> str:
    """The stem of the proof of an open game's optimal worst case alone in ``proofs/``
    (``STEM.json.gz``; its total is not claimed).

    >>> from mastermind.app.publishing.files import worst_proof_stem
    >>> worst_proof_stem("p6c5")
    'p6c5.worst.proof'
    """
    return f"{game}.worst.proof"


def game_value_proof_stem(game: str) -> str:
    """The stem of the proof of a game's value in ``proofs/`` (``STEM.json.gz``).

    >>> from mastermind.app.publishing.files import game_value_proof_stem
    >>> game_value_proof_stem("p4c6")
    'p4c6.game-value.proof'
    """
    return f"{game}.game-value.proof"


def row_order(row: dict) -> tuple:
    """Where a row goes in a table: games with repetition first, then by pegs and colours."""
    return (not row["repetition"], row["pegs"], row["colours"])


def read_rows(path: Path, fmt: str) -> list[dict]:
    """The rows of a results JSON file (none when it does not exist yet)."""
    if not path.exists():
        return []
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise MastermindError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != fmt or not isinstance(data.get("rows"), list):
        raise MastermindError(f"{path} is not a {fmt} file")
    version = data.get("version")
    if version not in (1, FILE_VERSION):
        raise MastermindError(f"{path}: version {version!r}, this tool reads 1 and {FILE_VERSION}")
    for i, row in enumerate(data["rows"]):
        if not (isinstance(row, dict) and ROW_KEYS <= row.keys()):
            raise MastermindError(
                f"{path}: row {i + 1} is not a row of this table (needs {', '.join(sorted(ROW_KEYS))})"
            )
    rows = [upgrade_row(r) for r in data["rows"]] if version == 1 else data["rows"]
    rows = [_fractions_in_one_form(_with_decimals(r)) for r in rows]
    for i, row in enumerate(rows):
        _check_kinds(path, i, row)
        _check_variant(path, fmt, i, row)
        _check_renders(path, fmt, i, row)
    return rows


def _check_variant(path: Path, fmt: str, i: int, row: dict) -> None:
    """Refuse a row of a game of another variant than the table's (a black-peg row in the
    standard game's table would be compared with the standard game's literature)."""
    from mastermind.app.publishing.scope import TABLE_VARIANTS
    from mastermind.core.game import Rules

    variant = TABLE_VARIANTS[STEMS[fmt]]
    found = Rules.parse(row["game"]).variant
    if found is not variant:
        raise MastermindError(
            f"{path}: row {i + 1} ({row['game']}) is a game of {found.name} Mastermind, "
            f"this table holds {variant.name} games"
        )


# the kind of each value a row holds, by key at any depth (the one vocabulary: a key means
# one thing everywhere); keys not listed are the row's own text, shown as they are
_COUNTS = frozenset(
    "pegs colours codes jobs total worst optimal_worst worst_total total_lower_bound total_upper_bound "
    "worst_lower_bound worst_upper_bound uniform_total iterations breaker_mix_size bytes "
    "lookahead_levels reused run".split()
)
_NUMBERS = frozenset(
    "average uniform_average probability seconds cpu_seconds checkpoint_seconds depth_search_seconds "
    "search_seconds row_time_limit average_lower_bound average_upper_bound".split()
)
_FLAGS = frozenset("repetition tie_broken agrees beaten first_guesses_complete uniform_optimal".split())
_TEXTS = frozenset("game rules status command version first_guess".split())
_TEXT_LISTS = frozenset("best_first_guesses breaker_first_guesses maker_support unfinished".split())
_ROW_LISTS = frozenset("by_first_guess maker published".split())
_PARTS = frozenset("bounds search tree units worst_tree proof worst_proof".split())


def _kind_error(key: str, value: object) -> str | None:
    """What is wrong with ``value`` under ``key`` (None: nothing).

    >>> from mastermind.app.publishing.files import _kind_error
    >>> _kind_error("total", "x"), _kind_error("histogram", [1, 2]), _kind_error("average_fraction", "1/0")
    ("a count (a whole number, at least 0), got 'x'", None, "a fraction such as '905/256', got '1/0'")
    """
    from fractions import Fraction

    def count(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    if key in _COUNTS and not (value is None or count(value)):
        return f"a count (a whole number, at least 0), got {value!r}"

    def number(v: object) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and v >= 0

    if key in _NUMBERS and not (value is None or number(value)):
        return f"a number (at least 0), got {value!r}"
    if key in _FLAGS and not isinstance(value, bool):
        return f"true or false, got {value!r}"
    if key in _TEXTS and not (value is None or isinstance(value, str)):
        return f"text, got {value!r}"
    if key == "histogram" and not (isinstance(value, list) and all(count(v) for v in value)):
        return f"a list of counts, got {value!r}"
    if key in _TEXT_LISTS and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        return f"a list of texts, got {value!r}"
    # (None: not known, as a proven row's by_first_guess when the row's time ran out first)
    if key in _ROW_LISTS and not (
        value is None or (isinstance(value, list) and all(isinstance(v, dict) for v in value))
    ):
        return f"a list of objects, got {value!r}"
    if (key in _PARTS and not (value is None or isinstance(value, dict))) or (
        key == "heuristics" and not (isinstance(value, dict) and all(count(v) for v in value.values()))
    ):
        return f"an object, got {value!r}"
    if key.endswith("_fraction") and value is not None:
        try:
            Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            return f"a fraction such as '905/256', got {value!r}"
    return None


def _check_kinds(path: Path, i: int, row: dict) -> None:
    """Refuse a row holding a value of the wrong kind (a hand edit, a damaged file), or whose
    game its numbers contradict: merged as it was, ``"total": "x"`` was published as a total
    (a new user's trial)."""
    from mastermind.core.game import Rules

    where = f"{path}: row {i + 1} ({row.get('game')})"

    def walk(part: object, key: str) -> None:
        if isinstance(part, dict):
            for k, v in part.items():
                why = _kind_error(k, v)
                if why is not None:
                    raise MastermindError(f"{where}: {key}{k} must be {why}")
                walk(v, f"{key}{k}.")
        elif isinstance(part, list):
            for v in part:
                walk(v, key)

    walk(row, "")
    try:
        rules = Rules.parse(row["game"])
    except MastermindError as exc:
        raise MastermindError(f"{where}: game {row['game']!r} is not a game: {exc}") from None
    said = {key: row.get(key) for key in ("pegs", "colours", "repetition", "codes") if key in row}
    truth = {"pegs": rules.pegs, "colours": rules.colors, "repetition": rules.repeat, "codes": rules.n_codes}
    wrong = [key for key, value in said.items() if value != truth[key]]
    if wrong:
        raise MastermindError(
            f"{where}: {wrong[0]} is {said[wrong[0]]!r}, but {row['game']} has {truth[wrong[0]]!r}"
        )


def _with_decimals(row: dict) -> dict:
    """A game-value row written before it gave the decimals beside its fractions (as
    game-value's JSON does): ``uniform_average`` and each maker class's ``probability``, from
    the fractions it holds.

    >>> from mastermind.app.publishing.files import _with_decimals
    >>> row = _with_decimals({"uniform_average_fraction": "29/9", "maker": [{"probability_fraction": "1/3"}]})
    >>> row["uniform_average"], row["maker"]
    (3.222222, [{'probability_fraction': '1/3', 'probability': 0.333333}])
    """
    from fractions import Fraction

    def decimal(text: object) -> float | None:
        try:
            return round(float(Fraction(str(text))), 6)
        except (ValueError, ZeroDivisionError):
            return None

    row = dict(row)
    if "uniform_average_fraction" in row and "uniform_average" not in row:
        row["uniform_average"] = decimal(row["uniform_average_fraction"])
    if isinstance(row.get("maker"), list):
        row["maker"] = [
            {**m, "probability": decimal(m.get("probability_fraction"))}
            if isinstance(m, dict) and "probability" not in m
            else m
            for m in row["maker"]
        ]
    return row


def _fractions_in_one_form(row: dict) -> dict:
    """A row written when a whole number was a fraction without its denominator ("0"; now
    "0/1", the one form of ``fraction_text``).

    >>> from mastermind.app.publishing.files import _fractions_in_one_form
    >>> _fractions_in_one_form({"average_fraction": "2", "maker": [{"per_code_fraction": "0"}]})
    {'average_fraction': '2/1', 'maker': [{'per_code_fraction': '0/1'}]}
    >>> _fractions_in_one_form({"bounds": {"average_lower_bound_fraction": "4"}})
    {'bounds': {'average_lower_bound_fraction': '4/1'}}
    """
    from fractions import Fraction

    from mastermind.engines.gamevalue import fraction_text

    def one_form(part: object, key: str = "") -> object:
        # (at any depth: the maker's classes, the breaker's strategies, the bounds)
        if isinstance(part, dict):
            return {k: one_form(v, k) for k, v in part.items()}
        if isinstance(part, list):
            return [one_form(v) for v in part]
        if key.endswith("_fraction") and isinstance(part, str):
            try:
                return fraction_text(Fraction(part))
            except (ValueError, ZeroDivisionError):
                pass  # (refused where the row is checked, with its file and key named)
        return part

    out = one_form(row)
    assert isinstance(out, dict)
    return out


def _check_renders(path: Path, fmt: str, i: int, row: dict) -> None:
    """Refuse a row its table cannot show (a key gone or of the wrong kind, a hand edit):
    found once the run is over, it failed half-way through writing the table's two files."""
    try:
        _renderer(fmt)([row])
    except KeyError as exc:
        why = f"it has no {exc.args[0]!r}"
    except (TypeError, ValueError, AttributeError, IndexError, ArithmeticError) as exc:
        why = f"a value of the wrong kind ({exc})"
    else:
        return
    raise MastermindError(f"{path}: row {i + 1} ({row.get('game')}) cannot be shown: {why}")


def merge_rows(old: Sequence[dict], new: Sequence[dict]) -> list[dict]:
    """``old`` with the rows of the games in ``new`` replaced, combined or added (see
    :func:`combined`), in table order."""
    rows = {r["game"]: r for r in old}
    for r in new:
        rows[r["game"]] = combined(r, rows.get(r["game"]))
    return sorted(rows.values(), key=row_order)


EARLIER_KEPT = "the better bounds of an earlier run kept"

# each bound with what comes with it: in its bounds, and in the row (its tree)
_LOWER = {
    "total_lower_bound": ("lower_source",),
    "worst_lower_bound": (),
    "average_lower_bound": ("average_lower_bound_fraction",),
}
_UPPER = {
    "total_upper_bound": ("upper_source",),
    "worst_upper_bound": ("worst_upper_source",),
    "average_upper_bound": (),
}
_UPPER_TREE = {"total_upper_bound": "tree", "worst_upper_bound": "worst_tree"}


def combined(new: dict, old: dict | None) -> dict:
    """The row a file keeps of a game, given its ``old`` row (None: none) and a ``new`` one:
    the new one, unless only the old one is proven, or both are open and the new one proves
    no bound better (then the old one); where each is better in some bound, the new row with
    every bound the old one had better, with its source and tree (a run without the
    checkpoint found a greater lower bound than the earlier run's, but a worse upper bound
    and no tree: both bounds hold)."""
    if old is None:
        return new
    if new["status"] == "proven":
        return new if old["status"] != "proven" else _proven_again(new, old)
    if old["status"] == "proven":
        return old
    better, worse = _compare(new, old)
    if not worse:  # (it proves every bound at least as well)
        return new
    if not better:
        return old
    a, b = dict(new.get("bounds") or {}), old.get("bounds") or {}
    row = dict(new)
    for keys, better in ((_LOWER, lambda x, y: x > y), (_UPPER, lambda x, y: x < y)):
        for key, companions in keys.items():
            if b.get(key) is None or (a.get(key) is not None and not better(b[key], a[key])):
                continue
            a[key] = b[key]
            for companion in companions:
                if companion in b:
                    a[companion] = b[companion]
                else:
                    a.pop(companion, None)
            if key in _UPPER_TREE:
                row[_UPPER_TREE[key]] = old.get(_UPPER_TREE[key])
    if a.get("worst_lower_bound") is not None and a.get("worst_lower_bound") == a.get("worst_upper_bound"):
        a["optimal_worst"] = a["worst_lower_bound"]
    row["bounds"] = a
    row["reason"] = f"{new.get('reason', 'open')}; {EARLIER_KEPT}"
    return row


# what a proven row may know beyond its optimum, each with the keys that come with it, and
# whether the row knows it
_PROVEN_EXTRAS = (
    (("optimal_worst", "worst_total"), lambda row: row.get("optimal_worst") is not None),
    (
        ("by_first_guess", "best_first_guesses", "first_guesses_complete"),
        lambda row: bool(row.get("first_guesses_complete")),
    ),
)


def _proven_again(new: dict, old: dict) -> dict:
    """A game proven again: the new row, with what the old one knew that the new one did
    not reach in its time (the optimal worst case, the cost of every first guess), where both
    prove the same optimum. A rerun with a shorter row time dropped those from the
    published row, and wrote ``by_first_guess: null``.

    >>> from mastermind.app.publishing.files import _proven_again
    >>> old = {"total": 5, "optimal_worst": 3, "worst_total": 6, "first_guesses_complete": False}
    >>> _proven_again({"total": 5, "optimal_worst": None, "worst_total": None}, old)["optimal_worst"]
    3
    """
    if new.get("total") != old.get("total"):
        return new  # (another optimum: what the old row knew was of another search's making)
    row = dict(new)
    for keys, knows in _PROVEN_EXTRAS:
        if knows(old) and not knows(new):
            row.update({key: old.get(key) for key in keys})
    return row


_LOWER_KEYS = tuple(_LOWER)
_UPPER_KEYS = tuple(_UPPER)


def _compare(new: dict, old: dict) -> tuple[bool, bool]:
    """Whether the open row ``new`` proves some bound better than ``old``, and some worse (a
    bound not known counts as the weakest).

    >>> from mastermind.app.publishing.files import _compare
    >>> old = {"bounds": {"total_lower_bound": 10819, "total_upper_bound": 11378}}
    >>> _compare({"bounds": None}, old), _compare({"bounds": {"total_lower_bound": 10900}}, old)
    ((False, True), (True, True))
    """
    a, b = new.get("bounds") or {}, old.get("bounds") or {}

    def known(bounds: dict, key: str, weakest: float) -> float:
        value = bounds.get(key)
        return weakest if value is None else value

    low = [(known(a, k, -math.inf), known(b, k, -math.inf)) for k in _LOWER_KEYS]
    high = [(known(a, k, math.inf), known(b, k, math.inf)) for k in _UPPER_KEYS]
    better = any(x > y for x, y in low) or any(x < y for x, y in high)
    worse = any(x < y for x, y in low) or any(x > y for x, y in high)
    return better, worse


def write_tables(out: Path, fmt: str, rows: Sequence[dict]) -> None:
    """``rows`` (all of them, merged) as JSON and markdown."""
    stem = STEMS[fmt]
    rows = [{**row, **literature(row)} for row in rows]
    doc = {"format": fmt, "version": FILE_VERSION, "rows": rows}
    markdown = _renderer(fmt)(rows)  # both made before either is written: the pair stays in step
    # the markdown goes in place once the JSON is written: a full disk that stops either
    # leaves both as they were
    with staged_write(out / f"{stem}.md", markdown):
        write_atomic(out / f"{stem}.json", json.dumps(doc, indent=1) + "\n")


def _renderer(fmt: str) -> Callable[[Sequence[dict]], str]:
    """The markdown of table ``fmt``'s rows."""
    from mastermind.app.publishing.black_peg import render_black_peg
    from mastermind.app.publishing.markdown import render_game_values, render_optimal

    return {OPTIMAL_FORMAT: render_optimal, BLACK_PEG_FORMAT: render_black_peg}.get(fmt, render_game_values)


def merge_into(out: Path, fmt: str, new_rows: Sequence[dict]) -> list[dict]:
    """Merge rows into the table's files in ``out``; all the rows of the table afterwards.
    The folder is held meanwhile (see :func:`~mastermind.core.fileio.folder_lock`): two runs
    on one folder, each on its own games, take turns, and neither writes a file read before
    the other wrote its row (which would lose that row)."""
    stem = STEMS[fmt]
    with folder_lock(out):
        rows = merge_rows(read_rows(out / f"{stem}.json", fmt), new_rows)
        write_tables(out, fmt, rows)
    return rows
