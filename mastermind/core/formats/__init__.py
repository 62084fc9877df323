"""Strategy files: JSON, Graphviz dot, the Irving text format of the literature, an HTML page.

:func:`write_tree` writes any of them; :func:`read_tree` reads JSON and Irving back into a
:class:`~mastermind.core.tree.StrategyTree`, checking the counts as it goes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mastermind.core.errors import MastermindError
from mastermind.core.formats.base import StrategyFileError, WrittenOnly
from mastermind.core.game import DEFAULT_MEMORY_LIMIT, CodeTable, Rules
from mastermind.core.tree import Stats, StrategyTree, TreeError

FORMATS = ("json", "irving", "dot", "html")
READABLE = ("json", "irving")
_SUFFIXES = {
    ".json": "json",
    ".dot": "dot",
    ".gv": "dot",
    ".txt": "irving",
    ".irving": "irving",
    ".html": "html",
    ".htm": "html",
}

__all__ = [
    "FORMATS",
    "READABLE",
    "StrategyFileError",
    "WrittenOnly",
    "check_format",
    "format_for_path",
    "detect_format",
    "write_tree",
    "read_tree",
    "Verification",
    "verify_text",
]


def check_format(fmt: str, allowed: tuple[str, ...] = FORMATS) -> str:
    name = fmt.strip().lower()
    if name not in allowed:
        raise MastermindError(f"unknown format {fmt!r}: use one of {', '.join(allowed)}")
    return name


def format_for_path(path: str | os.PathLike[str] | None) -> str | None:
    """The format a file name suggests (``.json``, ``.dot``/``.gv``, ``.txt``, each perhaps
    followed by ``.gz``), else None.

    >>> from mastermind.core.formats import format_for_path
    >>> format_for_path("knuth.txt"), format_for_path("tree.gv"), format_for_path("x.json.gz")
    ('irving', 'dot', 'json')
    """
    if path is None:
        return None
    return _SUFFIXES.get(tree_suffix(path))


def written_format(path: str | os.PathLike[str]) -> str:
    """The format of a tree written to ``path``: its ending's, JSON without one. An ending
    that names no tree format is refused (``tree.png`` was quietly written as JSON), ``.gz``
    alone too (``tree.gz`` was gzipped JSON, where ``tree.xyz.gz`` was refused).

    >>> from mastermind.core.formats import written_format
    >>> written_format("t.dot.gz"), written_format("tree")
    ('dot', 'json')
    >>> written_format("t.gz")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: t.gz: .gz names no tree format (.json, .txt, ...
    """
    fmt = format_for_path(path)
    suffix = tree_suffix(path)
    if not suffix and os.fspath(path).lower().endswith(".gz"):  # (gzipped, as gzipped_by_name tells)
        suffix = ".gz"
    if fmt is None and suffix:
        raise MastermindError(
            f"{os.fspath(path)}: {suffix} names no tree format (.json, .txt, .dot or .gv, .html, "
            "each perhaps .gz)"
        )
    return fmt or "json"


def tree_suffix(path: str | os.PathLike[str]) -> str:
    """A file name's ending that tells its format, in lower case, a ``.gz`` after it
    passed over ("" for none).

    >>> from mastermind.core.formats import tree_suffix
    >>> tree_suffix("x.JSON.gz"), tree_suffix("tree.png"), tree_suffix("notes")
    ('.json', '.png', '')
    """
    name = Path(path)
    if name.suffix.lower() == ".gz":  # (tree.json.gz: gzipped JSON)
        name = name.with_suffix("")
    return name.suffix.lower()


def detect_format(text: str, path: str | os.PathLike[str] | None = None) -> str:
    """JSON or Irving: from the first character (``{`` or a digit), else from the file name.

    >>> from mastermind.core.formats import detect_format
    >>> detect_format('{"rules": "p4c6"}', "tree.txt"), detect_format(" 1296(1122: ...")
    ('json', 'irving')
    """
    body = text.lstrip("\ufeff \t\r\n")
    start = body[:1]
    if start == "{":
        return "json"
    if start.isdigit():
        return "irving"
    by_name = format_for_path(path)
    written_only = {"dot": "a Graphviz dot file", "html": "an HTML page"}
    if body.startswith(("digraph", "strict digraph")):
        by_name = "dot"
    elif body[:15].lower().startswith(("<!doctype html", "<html")):
        by_name = "html"
    if by_name in written_only:
        named = "" if path is None else f"{os.fspath(path)} is "
        reason = (
            f"{written_only[by_name]}: strategies are written in that format, read from JSON or Irving text"
        )
        raise WrittenOnly(named + reason, by_name, reason)
    return by_name if by_name in READABLE else "irving"


def write_tree(tree: StrategyTree, fmt: str, stats: Stats | None = None) -> str:
    """The tree as text in ``fmt`` (json, irving, dot or html); JSON and HTML show ``stats``.

    >>> from mastermind.core.formats import write_tree
    >>> from mastermind.core.game import CodeTable, Rules
    >>> from mastermind.core.tree import build_tree
    >>> table = CodeTable(Rules(2, 3))
    >>> write_tree(build_tree(table, lambda cands, history: int(cands[0])), "irving")
    '9(11: 0, 0, 4(22); 0, 4(12); 1)\\n'
    """
    fmt = check_format(fmt)
    if fmt == "json":
        from mastermind.core.formats.jsonfmt import write_json

        return write_json(tree, stats)
    if fmt == "irving":
        from mastermind.core.formats.irving import write_irving

        return write_irving(tree)
    if fmt == "html":
        from mastermind.core.formats.html import write_html

        return write_html(tree, stats)
    from mastermind.core.formats.dot import write_dot

    return write_dot(tree)


def irving_game(text: str) -> Rules:
    """The game an Irving text is read for when none is given: the one its root tells
    (:func:`~mastermind.core.formats.irving.irving_rules`), else p4c6, the literature's, for
    a text that starts with no root. A root whose count is no game's for its first guess is
    an error that says so: read as p4c6, ``63(123: ...`` was refused for its 3 pegs.

    >>> from mastermind.core.formats import irving_game
    >>> irving_game("63(123: ...")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mastermind.core.formats.base.StrategyFileError: line 1: the root says 63 secrets, which is ...
    """
    from mastermind.core.formats.irving import irving_root, irving_rules

    rules = irving_rules(text)
    if rules is not None:
        return rules
    root = irving_root(text)
    if root is not None:
        raise StrategyFileError(
            f"line 1: the root says {root[0]} secrets, which is no game's number of codes for its "
            f"first guess {root[1]}; give the game's rules"
        )
    return Rules()


def read_tree(
    text: str,
    fmt: str,
    rules: Rules | None = None,
    *,
    name: str = "",
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
) -> tuple[StrategyTree, dict[str, Any]]:
    """Read a JSON or Irving tree; returns the tree and the JSON header (empty for Irving).

    Irving files do not name their game, so they are read for ``rules`` (default: the game
    their root's count and first guess tell, else p4c6); JSON files carry their rules, and a
    different ``rules`` given here is an error.

    >>> from mastermind.core.formats import read_tree
    >>> from mastermind.core.game import CodeTable, Rules
    >>> tree, header = read_tree("9(11: 0, 0, 4(22); 0, 4(12); 1)", "irving", Rules(2, 3))
    >>> tree.rules.code_text(tree.root.guess), tree.stats(CodeTable(tree.rules)).total, header
    ('11', 24, {})
    """
    fmt = check_format(fmt, READABLE)
    if fmt == "json":
        from mastermind.core.formats.jsonfmt import read_json

        tree, header = read_json(text)
        if rules is not None and rules != tree.rules:  # no strategy of the game asked: invalid
            raise TreeError(f"the file is a strategy for {tree.rules}, not {rules}")
        return tree, header
    from mastermind.core.formats.irving import read_irving

    table = CodeTable(rules or irving_game(text), full=False, memory_limit=memory_limit)
    return read_irving(text, table, name), {}


@dataclass
class Verification:
    """The verdict on a strategy file: its statistics, or the problems found."""

    format: str
    rules: Rules | None
    name: str = ""
    stats: Stats | None = None
    errors: list[str] = field(default_factory=list)
    # the smallest pool the strategy keeps to: "consistent" when every guess could still be
    # the secret (hard mode), else "all"; None for a tree not replayed
    pool: str | None = None

    @property
    def valid(self) -> bool:
        return not self.errors and self.stats is not None

    def to_dict(self) -> dict[str, Any]:
        numbers: dict[str, Any] = {}
        if self.stats is not None:
            assert self.rules is not None  # a file read (statistics known) has its rules
            numbers = self.stats.to_dict(self.rules)
        return {
            "valid": self.valid,
            "format": self.format,
            "rules": None if self.rules is None else str(self.rules),
            "name": self.name,
            **{k: numbers.get(k) for k in ("total", "secrets", "average", "worst", "histogram")},
            "pool": self.pool,
            "errors": self.errors,
        }


def verify_text(
    text: str,
    fmt: str,
    rules: Rules | None = None,
    *,
    name: str = "",
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
) -> Verification:
    """Read a tree and replay every secret through it.

    A wrong tree (syntax, counts, a secret left unsolved, a JSON header whose statistics
    disagree) is reported in ``errors``; bad arguments raise :class:`MastermindError`.

    >>> from mastermind.core.formats import verify_text
    >>> from mastermind.core.game import Rules
    >>> v = verify_text("9(11: 0, 0, 4(22); 0, 4(12); 1)", "irving", Rules(2, 3))
    >>> v.valid, v.stats.total, v.stats.histogram
    (True, 24, (1, 2, 5, 1))
    >>> verify_text("9(11: 0, 0, 4(22); 0, 5(12); 1)", "irving", Rules(2, 3)).errors
    ['line 1 column 23 (path 11 1B0W): count 5, but 4 secrets give these answers']
    >>> v.pool  # (every guess could still be the secret: hard mode)
    'consistent'
    """
    fmt = check_format(fmt, READABLE)
    result = Verification(fmt, rules or (_read_for(text) if fmt == "irving" else None), name)
    try:
        tree, header = read_tree(text, fmt, rules, name=name, memory_limit=memory_limit)
        result.rules, result.name = tree.rules, tree.name
        result.stats = tree.stats(CodeTable(tree.rules, full=False, memory_limit=memory_limit))
        from mastermind.core.formats.jsonfmt import check_header_stats

        result.errors = check_header_stats(header, result.stats, tree.rules)
        result.pool = pool_kept(tree.n_nodes(), result.stats.secrets)
    except TreeError as exc:
        result.errors = [str(exc)]
    return result


def _read_for(text: str) -> Rules | None:
    """The game an Irving text is read for (:func:`irving_game`), None if its root tells none."""
    try:
        return irving_game(text)
    except StrategyFileError:
        return None


def pool_kept(nodes: int, secrets: int) -> str:
    """The smallest pool a valid tree of ``nodes`` guesses over ``secrets`` secrets keeps to.

    Each secret is won at one node, the one whose guess it is; a node whose guess could no
    longer be the secret wins none. So every guess is consistent (hard mode) exactly when
    there are as many nodes as secrets.

    >>> from mastermind.core.formats import pool_kept
    >>> pool_kept(4, 4), pool_kept(5, 4)
    ('consistent', 'all')
    """
    return "consistent" if nodes == secrets else "all"
