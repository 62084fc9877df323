"""Strategy trees as JSON: a header with the rules and the statistics, then nested nodes.

::

    {"format": "mastermind-strategy", "version": 1, "rules": "p4c6r", "name": "minimax",
     "stats": {"total": 5801, "secrets": 1296, "average": 4.476, "worst": 5, ...},
     "tree": {"candidates": 1296, "guess": "1122", "children": {
         "0B0W": {"candidates": 256, "guess": "3344", "children": {...}}, ...}}}

A node has the number of secrets that reach it, the guess made there and one child per answer
other than the win (key: the answer as ``1B2W``); a node without children has no
``children`` key. The guess solves a secret at the node when ``candidates`` exceeds the sum
of its children's by one. ``stats`` is optional; when present, reading checks it.

>>> from mastermind.core.formats.jsonfmt import read_json, write_json
>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.core.tree import build_tree
>>> table = CodeTable(Rules(2, 2))
>>> tree = build_tree(table, lambda cands, history: int(cands[0]), name="first")
>>> text = write_json(tree)
>>> print(text)  # doctest: +NORMALIZE_WHITESPACE
{"format": "mastermind-strategy", "version": 1, "rules": "p2c2r", "name": "first",
 "tree": {"candidates": 4, "guess": "11", "children": {
  "0B0W": {"candidates": 1, "guess": "22"},
  "1B0W": {"candidates": 2, "guess": "12", "children": {
   "0B2W": {"candidates": 1, "guess": "21"}}}}}}
>>> back, header = read_json(text)
>>> back.stats(table) == tree.stats(table), header["name"]
(True, 'first')
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

from mastermind.core.errors import MastermindError
from mastermind.core.formats.base import StrategyFileError
from mastermind.core.game import Rules
from mastermind.core.tree import Node, Stats, StrategyTree

FORMAT = "mastermind-strategy"
VERSION = 1
MAX_NESTING = 200


def write_json(tree: StrategyTree, stats: Stats | None = None) -> str:
    """The tree as JSON text; with ``stats``, the header records them."""
    rules = tree.rules
    header: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": str(rules), "name": tree.name}
    if stats is not None:
        s = stats.to_dict(rules)
        header["stats"] = {k: s[k] for k in ("total", "secrets", "average", "worst", "histogram")}
    head = json.dumps(header)[:-1]
    lines = [f"{head},", ' "tree": ' + _node_text(rules, tree.root, 1) + "}"]
    return "\n".join(lines) + "\n"


def _node_text(rules: Rules, node: Node, depth: int) -> str:
    # one node per line, leaves closed on their line: readable and diff-friendly
    text = f'{{"candidates": {node.candidates}, "guess": "{rules.code_text(node.guess)}"'
    if not node.children:
        return text + "}"
    indent = "\n" + " " * (depth + 1)
    parts = [
        f'{indent}"{rules.answer_feedbacks[a]}": {_node_text(rules, node.children[a], depth + 1)}'
        for a in sorted(node.children)
    ]
    return text + ', "children": {' + ",".join(parts) + "}}"


def read_json(text: str) -> tuple[StrategyTree, dict[str, Any]]:
    """Read a tree and its header; the header's rules define the game."""
    if text.startswith("\ufeff"):  # a byte order mark, which json refuses
        text = text[1:]
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        # (json's "Unterminated string starting at" means the position said first)
        why = exc.msg.removesuffix(" at")
        raise StrategyFileError(f"line {exc.lineno} column {exc.colno}: not valid JSON: {why}") from None
    except RecursionError:
        raise StrategyFileError("the JSON is nested too deeply") from None
    except ValueError as exc:  # Python's int() refuses numbers past 4300 digits
        why = "a number too long to read" if "digits" in str(exc) else str(exc).splitlines()[0]
        raise StrategyFileError(f"not valid JSON: {why}") from None
    if not isinstance(data, dict):
        raise StrategyFileError("the JSON file must hold an object with 'rules' and 'tree'")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise StrategyFileError(f"'format' is {fmt!r}, expected {FORMAT!r}")
    version = data.get("version", VERSION)
    if version != VERSION:
        raise StrategyFileError(f"'version' is {version!r}; this reader knows version {VERSION}")
    if not isinstance(data.get("rules"), str):
        raise StrategyFileError('the header needs \'rules\' as text, e.g. "rules": "p4c6r"')
    try:
        rules = Rules.parse(data["rules"])
    except MastermindError as exc:
        raise StrategyFileError(f"header: {exc}") from None
    if "tree" not in data:
        raise StrategyFileError("the file has no 'tree'")
    name = data.get("name") or ""
    if not isinstance(name, str):
        raise StrategyFileError("'name' must be text")
    root = _read_node(rules, data["tree"], ())
    header = {k: v for k, v in data.items() if k != "tree"}
    return StrategyTree(rules, root, name), header


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrategyFileError(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


def _where(path: tuple[str, ...]) -> str:
    return "root" if not path else "path " + " ".join(path)


def _read_node(rules: Rules, obj: Any, path: tuple[str, ...]) -> Node:
    here = _where(path)
    if len(path) > 2 * MAX_NESTING:
        raise StrategyFileError(f"{here}: nodes nested deeper than {MAX_NESTING} levels")
    if not isinstance(obj, dict):
        raise StrategyFileError(f"{here}: a node must be an object with 'candidates' and 'guess'")
    count = obj.get("candidates")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise StrategyFileError(f"{here}: 'candidates' must be a positive integer, got {count!r}")
    if count > rules.n_codes:  # (and so within the integers the replay counts with)
        raise StrategyFileError(
            f"{here}: 'candidates' is {count}, more than the {rules.n_codes} codes of {rules}"
        )
    guess_text = obj.get("guess")
    if not isinstance(guess_text, str):
        raise StrategyFileError(f"{here}: 'guess' must be a code as text, got {guess_text!r}")
    try:
        guess = rules.parse_code(guess_text)
    except MastermindError as exc:
        raise StrategyFileError(f"{here}: bad guess: {exc}") from None
    node = Node(guess, count)
    children = obj.get("children", {})
    if not isinstance(children, dict):
        raise StrategyFileError(f"{here}: 'children' must be an object keyed by answers like 1B2W")
    for key, child in children.items():
        try:
            fb = rules.parse_feedback(key)
        except MastermindError as exc:
            raise StrategyFileError(f"{here}: bad answer after {guess_text}: {exc}") from None
        a = rules.answer_index(fb)
        if a == rules.win_index:
            raise StrategyFileError(f"{here}: the win {fb} after {guess_text} cannot have a child")
        if a in node.children:
            raise StrategyFileError(f"{here}: answer {fb} after {guess_text} appears twice")
        node.children[a] = _read_node(rules, child, (*path, rules.code_text(guess), str(fb)))
    return node


def check_header_stats(header: dict[str, Any], stats: Stats, rules: Rules | None = None) -> list[str]:
    """Where the header's recorded statistics disagree with the tree's."""
    recorded = header.get("stats")
    if recorded is None:
        return []
    if not isinstance(recorded, dict):
        return ["header: 'stats' must be an object"]
    actual = {
        "total": stats.total,
        "secrets": stats.secrets,
        "worst": stats.worst,
        "histogram": list(stats.histogram),
    }
    errors = [
        f"header: 'stats' has an unknown field {key!r}"
        for key in recorded
        if key not in (*actual, "average", "worst_secrets")
    ]
    errors += [
        f"header: stats say {key} {_short(recorded[key])}, the tree gives {value}"
        for key, value in actual.items()
        if key in recorded and (recorded[key] != value or isinstance(recorded[key], bool))
    ]
    if "average" in recorded:
        average = recorded["average"]
        if (
            not isinstance(average, (int, float))
            or isinstance(average, bool)
            or not _average_agrees(average, stats.total, stats.secrets)
        ):
            error = f"header: stats say average {_short(average)}, the tree gives {stats.average:.6f}"
            if isinstance(average, (int, float)) and _decimals(average) < AVERAGE_DECIMALS[0]:
                error += f" (to {AVERAGE_DECIMALS[0]} decimals at least: {stats.average:.4f})"
            errors.append(error)
    if "worst_secrets" in recorded and rules is not None:
        actual_worst = sorted(rules.code_text(c) for c in stats.worst_secrets)
        given = recorded["worst_secrets"]
        if not isinstance(given, list) or sorted(map(str, given)) != actual_worst:
            errors.append(
                f"header: stats say worst_secrets {_short(given)}, the tree gives {_short(actual_worst)}"
            )
    return errors


# an average is checked to as many decimals as the file gives, within these: 4 as the tool
# shows it (2.7407 for 74/27), 6 as it writes it; fewer than 4 would let through the averages
# of other totals (2.7 fits 72, 73 and 74 guesses over 27 secrets)
AVERAGE_DECIMALS = (4, 6)


def _decimals(value: float) -> int:
    """Decimals of a number as written (JSON numbers arrive as floats: 2.7400 is 2.74, 2)."""
    if isinstance(value, int) or not math.isfinite(value):
        return 0
    exponent = Decimal(repr(value)).as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def _average_agrees(stated: float, total: int, secrets: int) -> bool:
    """Whether ``stated`` is the average ``total / secrets`` rounded to its own decimals
    (within :data:`AVERAGE_DECIMALS`); either way at a tie, rounding rules differ.

    >>> from mastermind.core.formats.jsonfmt import _average_agrees
    >>> [_average_agrees(a, 74, 27) for a in (2.7407, 2.74074, 2.740741, 74 / 27, 2.7408, 2.7, 2.741)]
    [True, True, True, True, False, False, False]
    >>> _average_agrees(4.5, 9, 2), _average_agrees(float("nan"), 9, 2), _average_agrees(10**400, 9, 2)
    (True, False, False)
    """
    if isinstance(stated, float) and not math.isfinite(stated):
        return False
    low, high = AVERAGE_DECIMALS
    places = min(max(_decimals(stated), low), high)
    exact = Fraction(total, secrets) if secrets else Fraction(0)
    # (exact fractions: the decimal text against the true average; a trace of relative slack
    # for an average written in full, a float's digits past the sixth decimal)
    given = Fraction(stated) if isinstance(stated, int) else Fraction(repr(stated))
    return abs(given - exact) <= Fraction(1, 2 * 10**places) + exact / 10**12


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
