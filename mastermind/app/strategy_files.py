"""Strategies given as files: ``-s tree.json`` wherever a command plays a strategy.

A name is a file when it is no strategy name and the file exists, ends like a strategy file
(``.json``, ``.txt``) or holds a path separator; ``-`` is standard input (read once: a
command reads the file for its game, then plays it). A JSON file names its game, which a command
takes when the game was not given; an Irving file is read for the game given, else the one
its root tells (its count and first guess).
"""

from __future__ import annotations

import os
from pathlib import Path

from mastermind.core.errors import MastermindError, naming
from mastermind.core.fileio import input_name, read_text
from mastermind.core.formats import READABLE, WrittenOnly, detect_format, format_for_path, read_tree
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import StrategyTree


def names_a_file(name: str) -> bool:
    """True when ``name`` (an ``-s`` value) means a strategy file rather than a strategy.

    >>> from mastermind.app.strategy_files import names_a_file
    >>> names_a_file("minimax"), names_a_file("trees/knuth.txt"), names_a_file("-")
    (False, True, True)
    """
    from mastermind.engines.registry import NAMES

    if name == "-":
        return True
    if name in NAMES or not name.strip():  # ("" would be the current folder)
        return False
    try:
        exists = Path(name).exists()
    except OSError:  # a name too long for a path is no file
        exists = False
    return exists or format_for_path(name) in READABLE or "/" in name or "\\" in name


def read_strategy_file(name: str, rules: Rules | None) -> StrategyTree:
    """The tree in file ``name``, for ``rules`` (None: the game the file names, p4c6 for an
    Irving file whose root tells none); errors name the file."""
    try:
        text = _stdin_text() if name == "-" else read_text(name)
    except MastermindError:  # (itself a ValueError: its own message says what is wrong)
        raise
    except ValueError as exc:  # a name no file can have ("embedded null byte")
        raise MastermindError(f"{name!r} is not a file name: {exc}") from None
    try:
        stdin = name == "-"
        tree, header = read_tree(
            text,
            detect_format(text, None if stdin else name),
            rules,
            name="stdin" if stdin else Path(name).stem,
        )
        if header.get("stats") is not None:  # as verify reads it: statistics that lie are refused
            from mastermind.core.formats.jsonfmt import check_header_stats

            errors = check_header_stats(header, tree.stats(CodeTable(tree.rules, full=False)), tree.rules)
            if errors:
                raise MastermindError(f"not a valid strategy: {errors[0]}")
    except WrittenOnly as exc:  # (its message names the file already)
        raise MastermindError(f"{input_name(name)}: {exc.reason}") from None
    except MastermindError as exc:
        raise MastermindError(f"{input_name(name)}: {exc}") from None
    return tree


_STDIN: list[tuple[object, str]] = []  # (the stream read, its text): one stream is read once


def _stdin_text() -> str:
    """Standard input's text, read at the first call for the stream now in ``sys.stdin``."""
    import sys

    if not _STDIN or _STDIN[0][0] is not sys.stdin:
        _STDIN[:] = [(sys.stdin, read_text("-"))]
    return _STDIN[0][1]


def game_of(name: str, rules: Rules, rules_given: bool) -> Rules:
    """The game a command plays with strategy ``name``: the one given, else a file's own.
    A file is read here, before any work, so that a missing or wrong one is refused first."""
    if names_a_file(name):
        return read_strategy_file(name, rules if rules_given else None).rules
    return rules


def check_files_found(names: list[str] | tuple[str, ...] | str) -> None:
    """A strategy file that is not there is said first, as reading it says it: a refusal of
    an option for it ("the strategy nonexist.json takes no --tie-break") hid the typo."""
    for name in [names] if isinstance(names, str) else names:
        if name != "-" and names_a_file(name) and not os.path.lexists(name):
            raise MastermindError(f"--strategy: file not found: {name}")


def check_file_options(name: str, **options: tuple[str, str]) -> None:
    """Refuse options that shape a heuristic (``pool="consistent"``) for a strategy file,
    which plays its tree as it is; ``options`` maps each option to its value and default,
    as ``pool=("consistent", "all")``."""
    check_files_found(name)
    for option, (value, default) in options.items():
        if value != default:
            flag = "--" + option.replace("_", "-")
            raise MastermindError(
                f"{flag} {value} shapes a heuristic; the strategy file {input_name(name)} plays its tree"
            )


def game_option(rules_given: bool, names: list[str] | tuple[str, ...] | str | None) -> str:
    """What named the game, for a refusal of its size: ``--rules`` when given (or nothing
    did: the default game), else the strategy file whose game it is, said as its other
    refusals are (``--strategy: FILE``).

    >>> from mastermind.app.strategy_files import game_option
    >>> game_option(True, ["tree.json"]), game_option(False, ["minimax", "tree.json"])
    ('--rules', '--strategy: tree.json')
    """
    if not rules_given:
        for name in [names] if isinstance(names, str) else names or []:
            if names_a_file(name):
                return f"--strategy: {input_name(name)}"
    return "--rules"


def check_tie_break_taken(names: list[str] | tuple[str, ...], tie_break: str) -> None:
    """Refuse a --tie-break that no strategy of ``names`` takes: it would be reported as
    used (``"tie_break": "sorted"``) and change nothing. Strategy files take none (refused
    apart: :func:`check_file_options`). A --pool is never refused: the strategies that take
    none, simple and random, play only codes still possible, --pool consistent's own rule."""
    from mastermind.engines.registry import strategy

    if tie_break == "default":
        return
    check_files_found(names)
    heuristics = [name for name in names if not names_a_file(name)]
    if any(strategy(name).takes("tie_break") for name in heuristics):
        return
    if len(names) == 1:
        solver = " (the command optimal takes --tie-break worst)" if names[0] == "optimal" else ""
        raise MastermindError(
            f"--tie-break {tie_break}: the strategy {names[0]} takes no --tie-break{solver}"
        )
    given = ", ".join(map(input_name, names))
    raise MastermindError(
        f"--tie-break {tie_break}: none of the strategies given ({given}) takes a --tie-break"
    )


def played_options(name: str, pool: str, tie_break: str) -> dict[str, str | None]:
    """The ``pool`` and ``tie_break`` a report gives for strategy ``name``: null for a file,
    whose tree plays as it is written (no pool, no ties to break).

    >>> from mastermind.app.strategy_files import played_options
    >>> played_options("minimax", "all", "sorted")
    {'pool': 'all', 'tie_break': 'sorted'}
    >>> played_options("-", "all", "default")
    {'pool': None, 'tie_break': None}
    """
    if names_a_file(name):
        return {"pool": None, "tie_break": None}
    return {"pool": pool, "tie_break": tie_break}


def check_strategy(
    name: str,
    rules: Rules,
    rules_given: bool,
    *,
    pool: str = "all",
    tie_break: str = "default",
    alone: bool = False,
) -> Rules:
    """Refuse an unknown strategy name, or options a strategy file cannot take, before any
    work; the game to play: ``rules``, or a strategy file's own when none was given.
    ``alone``: the command plays this one strategy, which must take the --tie-break given
    (among several, each takes what applies to it)."""
    from mastermind.engines.registry import check_names

    if not names_a_file(name):
        check_names([name], pool=pool, tie_break=tie_break)
        if alone:  # (solve -s optimal --tie-break random said "tie_break": "random", unused)
            check_tie_break_taken([name], tie_break)
        return rules
    check_file_options(name, pool=(pool, "all"), tie_break=(tie_break, "default"))
    with naming("--strategy"):
        return game_of(name, rules, rules_given)
