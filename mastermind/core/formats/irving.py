"""The Irving text format of the literature's strategy trees (Knuth 1977, Koyama and Lai 1993).

A node is ``N(GUESS: e, e, ...; e, ...; ...)``: ``N`` secrets remain, ``GUESS`` is played, and
the entries run over black = 0..pegs (groups separated by ``;``) and, inside a group, over
white = pegs-black down to 0 (separated by ``,``). The slot (pegs-1 black, 1 white) may be
written or left out. The last group is the win: ``1`` when the guess is a remaining secret,
else ``0``. In black-peg Mastermind (``p4c6b``), whose answers tell no white pegs, each group
is one entry, ``9(11: 4(22); 4(12); 1)``: the groups are the variant's
(:meth:`~mastermind.core.variant.Variant.irving_groups`), and the root's shape tells the
variant of a file (:func:`irving_rules`). An entry is

- ``0``: no secret gives that answer;
- ``1`` or ``2``: those secrets are guessed in turn (smallest code first);
- ``N(GUESS)``: after GUESS every answer leaves at most 2 secrets, guessed in turn;
- a nested node ``N(GUESS: ...)``;
- ``N`` and a label, ``44A``, whose node ``A = (GUESS: ...)`` follows the root.

A guess followed by ``*`` is not one of the remaining secrets: the writer marks exactly those
guesses, and the reader refuses a ``*`` on a guess that is a remaining secret (``3(241*)``
where 241 could still be the secret). A missing ``*`` is no error: the published trees leave
most such guesses unmarked (Koyama and Lai's marks 11 of its 37, Knuth's none with ``*``), and
the replay tells them anyway. Knuth's own mark, ``x``, is read as a comment: his tree puts it
on a few guesses that are remaining secrets (``15(2256x)`` after 1122 0B2W, 2344 1B0W) as well
as on guesses that are not. Whitespace is free.

Reading replays the candidate sets with a :class:`CodeTable`, so every count is checked
while the tree is built; errors name the line and column and the path of answers.

>>> from mastermind.core.formats.irving import read_irving, write_irving
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(2, 3))
>>> tree = read_irving("9(11: 0, 0, 4(22); 0, 4(12); 1)", table)
>>> tree.stats(table).histogram
(1, 2, 5, 1)
>>> write_irving(tree)
'9(11: 0, 0, 4(22); 0, 4(12); 1)\\n'
>>> read_irving("9(11: 0, 0, 4(22); 0, 5(12); 1)", table)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mastermind.core.formats.base.StrategyFileError: line 1 column 23 (path 11 1B0W): count 5, but 4 secrets ...
"""

from __future__ import annotations

import math
import re
import string
import textwrap
from dataclasses import dataclass, field
from typing import NoReturn

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.formats.base import StrategyFileError, where
from mastermind.core.game import MAX_COLORS, MAX_PEGS, AnswerIndex, Code, CodeTable, Feedback, Rules
from mastermind.core.tree import Node, StrategyTree
from mastermind.core.variant import BLACK_PEG, STANDARD
from mastermind.core.words import plural

MAX_NESTING = 200
"""Deeper files are refused (keeps the recursive reader far from Python's stack limit)."""

MAX_COUNT_DIGITS = 40
_DIGITS = frozenset("0123456789")  # not str.isdigit: it accepts digits int() refuses

NOT_A_SECRET_MARK = "*"
"""What the writer appends to a guess that is not a remaining secret (``x`` is read too)."""


@dataclass
class _Entry:
    """One entry as written, before the candidate sets are known."""

    count: int
    offset: int
    guess: Code | None = None
    guess_offset: int = 0
    # the mark after the guess: "" (none), "x" (Knuth's, a comment) or NOT_A_SECRET_MARK
    # (checked), and where it is
    mark: str = ""
    mark_offset: int = 0
    # answer index -> entry; None for a bare count or a leaf guess
    slots: dict[AnswerIndex, _Entry] | None = None
    label: str | None = None


@dataclass
class _Definition:
    name: str
    offset: int
    node: _Entry
    used_at: list[int] = field(default_factory=list)


class _Parser:
    def __init__(self, text: str, rules: Rules) -> None:
        self.text, self.rules, self.pos = text, rules, 0

    # ---- scanning --------------------------------------------------------------------
    def fail(self, message: str, offset: int | None = None) -> NoReturn:
        raise StrategyFileError(f"{where(self.text, self.pos if offset is None else offset)}: {message}")

    def peek(self) -> str:
        text = self.text
        while self.pos < len(text) and text[self.pos].isspace():
            self.pos += 1
        return text[self.pos] if self.pos < len(text) else ""

    def expect(self, char: str, what: str) -> None:
        found = self.peek()
        if found != char:
            self.fail(f"expected {what}, {self.found(found)}")
        self.pos += 1

    @staticmethod
    def found(char: str) -> str:
        return "but the file ends (truncated?)" if not char else f"found {char!r}"

    def word(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isalnum():
            self.pos += 1
        return self.text[start : self.pos]

    # ---- grammar ---------------------------------------------------------------------
    def parse(self) -> tuple[_Entry, dict[str, _Definition]]:
        root = self.entry(0)
        definitions: dict[str, _Definition] = {}
        while (char := self.peek()) != "":
            offset = self.pos
            name = self.word() if char.isalpha() else ""
            if not name:
                self.fail(f"expected a label definition like 'A = (GUESS: ...)', found {char!r}")
            if name in definitions:
                self.fail(
                    f"label {name} is defined twice (first at {where(self.text, definitions[name].offset)})",
                    offset,
                )
            self.expect("=", f"'=' after label {name}")
            self.expect("(", f"'(' to open the node of label {name}")
            node = _Entry(count=-1, offset=offset)
            self.guess_into(node)
            self.expect(":", f"':' and the answers after the guess of label {name}")
            node.slots = self.groups(node, 1)
            self.expect(")", f"')' closing the node of label {name}")
            definitions[name] = _Definition(name, offset, node)
        return root, definitions

    def entry(self, depth: int) -> _Entry:
        if depth > MAX_NESTING:
            self.fail(f"nodes nested deeper than {MAX_NESTING} levels")
        char = self.peek()
        if char not in _DIGITS:
            self.fail(f"expected a count of secrets, {self.found(char)}")
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
            self.pos += 1
        if self.pos - start > MAX_COUNT_DIGITS:  # int() refuses past 4300 digits; no game is near
            self.pos = start
            self.fail(f"a count of more than {MAX_COUNT_DIGITS} digits")
        entry = _Entry(count=int(self.text[start : self.pos]), offset=start)
        char = self.peek()
        if char == "(":
            self.pos += 1
            self.guess_into(entry)
            if self.peek() == ":":
                self.pos += 1
                entry.slots = self.groups(entry, depth + 1)
            self.expect(")", "')' closing the node")
        elif char.isalpha():
            entry.label = self.word()
        return entry

    def guess_into(self, entry: _Entry) -> None:
        rules = self.rules
        self.peek()
        entry.guess_offset = offset = self.pos
        word = self.word()
        if not word:
            self.fail(f"expected a guess, {self.found(self.peek())}")
        if len(word) == rules.pegs + 1 and word[-1] in "xX":
            word, entry.mark, entry.mark_offset = word[:-1], "x", offset + len(word) - 1
        if self.peek() == NOT_A_SECRET_MARK:
            entry.mark, entry.mark_offset = NOT_A_SECRET_MARK, self.pos
            self.pos += 1
        try:
            entry.guess = rules.parse_code(word)
        except MastermindError as exc:
            self.fail(f"bad guess: {exc}", offset)

    def groups(self, node: _Entry, depth: int) -> dict[AnswerIndex, _Entry]:
        """The answers of one node: groups by black, entries by white, checked for shape."""
        rules, p = self.rules, self.rules.pegs
        starts = [self.pos]
        groups: list[list[_Entry]] = [[self.entry(depth)]]
        while (char := self.peek()) in (",", ";"):
            self.pos += 1
            if char == ";":
                self.peek()
                starts.append(self.pos)
                groups.append([])
            groups[-1].append(self.entry(depth))
        assert node.guess is not None  # groups follow a guess
        guess = rules.code_text(node.guess)
        if self.peek() == "":
            self.fail(f"the file ends inside the node of {guess} (truncated?)")
        if len(groups) != p + 1:
            self.fail(
                f"node {guess} has {len(groups)} answer groups separated by ';', "
                f"{plural(p, 'peg')} need {p + 1} (black 0..{p})",
                node.guess_offset,
            )
        slots: dict[AnswerIndex, _Entry] = {}
        for black, (group, start, answers) in enumerate(zip(groups, starts, rules.variant.irving_groups(p))):
            if len(group) == len(answers) - 1 and answers[0] == Feedback(p - 1, 1):
                answers = answers[1:]  # the impossible slot (p-1 black, 1 white) left out
            if len(group) != len(answers):
                whites = f" (white {answers[0].white}..0)" if answers[0].whites else ""
                self.fail(
                    f"node {guess}: the group for {black} black has {len(group)} "
                    f"{'entry' if len(group) == 1 else 'entries'}, {rules} needs {len(answers)}{whites}",
                    start,
                )
            for fb, entry in zip(answers, group):
                slots[rules.answer_index(fb)] = entry
        return slots


def _path_text(path: tuple[str, ...]) -> str:
    return "(root)" if not path else "(path " + " ".join(path) + ")"


class _Builder:
    """Turns the parsed entries into nodes by replaying the candidate sets."""

    def __init__(self, text: str, table: CodeTable, definitions: dict[str, _Definition]) -> None:
        self.text, self.table, self.definitions = text, table, definitions
        self.rules = table.rules

    def fail(self, offset: int, path: tuple[str, ...], message: str) -> NoReturn:
        raise StrategyFileError(f"{where(self.text, offset)} {_path_text(path)}: {message}")

    def build(self, entry: _Entry, cands: np.ndarray, path: tuple[str, ...]) -> Node | None:
        if entry.count != len(cands) and not path:
            self.fail(
                entry.offset,
                path,
                f"the root says {plural(entry.count, 'secret')}, but {self.rules} "
                f"has {plural(len(cands), 'code')} (wrong rules?)",
            )
        if entry.count != len(cands):
            self.fail(
                entry.offset,
                path,
                f"count {entry.count}, but {plural(len(cands), 'secret')} give"
                f"{'s' if len(cands) == 1 else ''} these answers",
            )
        if entry.label is not None:
            return self.build_label(entry, cands, path)
        if entry.guess is None:
            return self.bare(entry, cands, path)
        return self.node(entry, entry.count, cands, path)

    def build_label(self, entry: _Entry, cands: np.ndarray, path: tuple[str, ...]) -> Node:
        assert entry.label is not None  # called for a label only
        definition = self.definitions.get(entry.label)
        if definition is None:
            self.fail(
                entry.offset,
                path,
                f"label {entry.label} is not defined "
                f"(expected '{entry.label} = (GUESS: ...)' after the root)",
            )
        if definition.used_at:
            self.fail(
                entry.offset,
                path,
                f"label {entry.label} is used twice (first at {where(self.text, definition.used_at[0])})",
            )
        definition.used_at.append(entry.offset)
        return self.node(definition.node, entry.count, cands, path)

    def bare(self, entry: _Entry, cands: np.ndarray, path: tuple[str, ...]) -> Node | None:
        if len(cands) == 0:
            return None
        if len(cands) > 2:
            self.fail(
                entry.offset,
                path,
                f"a bare count of {len(cands)} leaves the secrets unguessed; write N(GUESS) or a nested node",
            )
        return _guess_in_turn(self.table, cands)

    def node(self, entry: _Entry, count: int, cands: np.ndarray, path: tuple[str, ...]) -> Node:
        rules, table = self.rules, self.table
        guess = entry.guess
        assert guess is not None  # called for an entry with a guess only
        text = rules.code_text(guess)
        answers = table.answer_indices(guess, cands)
        win = rules.win_index
        is_secret = bool(np.any(answers == win))
        if is_secret and entry.mark == NOT_A_SECRET_MARK:
            self.fail(
                entry.mark_offset,
                path,
                f"guess {text} is marked {NOT_A_SECRET_MARK}, no remaining secret, but it could "
                "still be the secret (drop the mark)",
            )
        node = Node(guess, count)
        if entry.slots is None:  # leaf guess: every answer leaves at most 2 secrets
            for a in np.unique(answers).tolist():
                if a == win:
                    continue
                part = cands[answers == a]
                if len(part) > 2:
                    self.fail(
                        entry.guess_offset,
                        path,
                        f"guess {text} leaves {plural(len(part), 'secret')} with answer "
                        f"{rules.answer_feedbacks[a]}; more than 2 need a nested node",
                    )
                node.children[a] = _guess_in_turn(table, part)
            return node
        for a, sub in entry.slots.items():
            if a == win:
                if sub.guess is not None or sub.label is not None or sub.count != int(is_secret):
                    self.fail(
                        sub.offset,
                        path,
                        f"the win entry after {text} must be {int(is_secret)}: the guess is "
                        f"{'' if is_secret else 'not '}a remaining secret",
                    )
                continue
            child = self.build(sub, cands[answers == a], (*path, text, str(rules.answer_feedbacks[a])))
            if child is not None:
                node.children[a] = child
        return node


def _guess_in_turn(table: CodeTable, cands: np.ndarray) -> Node:
    """One or two secrets guessed in turn, the smallest code first."""
    first = int(cands[0])
    node = Node(first, len(cands))
    if len(cands) == 2:
        node.children[int(table.answer_indices(first, cands[1:])[0])] = Node(int(cands[1]), 1)
    return node


_HEAD = re.compile(r"\s*([0-9]{1,40})\s*\(\s*([^\s:;,()]+)")


def irving_root(text: str) -> tuple[int, str] | None:
    """The count and first guess an Irving text starts with, or None if it starts otherwise.

    >>> from mastermind.core.formats.irving import irving_root
    >>> irving_root(" 1296(1122: ..."), irving_root("{}")
    ((1296, '1122'), None)
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    m = _HEAD.match(text)
    return None if m is None else (int(m.group(1)), m.group(2))


def irving_rules(text: str) -> Rules | None:
    """The game an Irving file is for, as its root tells it: the first guess has one symbol
    per peg and the count is every code, ``colours ** pegs`` with repetition or
    ``colours! / (colours - pegs)!`` without (no number is both, for 2 pegs or more); a
    root whose first group (0 black) is one entry is black-peg Mastermind's (the standard
    game's has one per white peg, pegs + 1). None when the root tells no game.

    >>> from mastermind.core.formats.irving import irving_rules
    >>> irving_rules("1296(1122: ..."), irving_rules(" 6720(12345*: ..."), irving_rules("7(12: ...")
    (Rules(pegs=4, colours=6, repeat=True), Rules(pegs=5, colours=8, repeat=False), None)
    >>> irving_rules("9(11: 4(22: 0; 1(12); 2(33); 1); 4(12); 1)")
    Rules(pegs=2, colours=3, repeat=True, variant='black-peg')
    """
    root = irving_root(text)
    if root is None:
        return None
    count, word = root
    variant = BLACK_PEG if _first_group_entries(text) == 1 else STANDARD
    pegs = [len(word)]
    if word[-1] in "xX*":  # a guess marked as no remaining secret (x may also be a colour)
        pegs = [len(word) - 1] if word[-1] == "*" else [len(word) - 1, len(word)]
    for p in pegs:
        if not 1 <= p <= MAX_PEGS:
            continue
        for c in range(1, MAX_COLORS + 1):
            if c**p == count:
                return Rules(p, c, True, variant)
            if c >= p and math.perm(c, p) == count:
                return Rules(p, c, False, variant)
    return None


def _first_group_entries(text: str) -> int | None:
    """The entries of the root's first group (up to its first ``;`` outside parentheses), or
    None for a root without groups or whose first group does not end (a text cut short).

    >>> from mastermind.core.formats.irving import _first_group_entries
    >>> _first_group_entries("9(11: 0, 1(12), 4(22: 1; 2, 3); 0, 4(12); 1)"), _first_group_entries("2(11)")
    (3, None)
    """
    start = text.find("(")
    colon = text.find(":", start)
    if start < 0 or colon < 0 or "(" in text[start + 1 : colon] or ")" in text[start + 1 : colon]:
        return None
    depth, entries = 0, 1
    for char in text[colon + 1 :]:
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and char == ",":
            entries += 1
        elif depth == 0 and char == ";":
            return entries
    return None


def read_irving(text: str, table: CodeTable, name: str = "") -> StrategyTree:
    """Read a tree in the Irving format, checking it against every secret of ``table``."""
    if text.startswith("\ufeff"):  # a byte order mark; a space keeps the columns right
        text = " " + text[1:]
    parser = _Parser(text, table.rules)
    root, definitions = parser.parse()
    builder = _Builder(text, table, definitions)
    try:
        node = builder.build(root, table.all_codes, ())
    except RecursionError:  # labels used inside labels, hundreds deep
        raise StrategyFileError(f"{where(text, root.offset)}: the tree is nested too deeply") from None
    for definition in definitions.values():
        if not definition.used_at:
            raise StrategyFileError(
                f"{where(text, definition.offset)}: label {definition.name} is defined but never used"
            )
    if node is None:  # only an empty game could get here
        raise StrategyFileError(f"{where(text, root.offset)}: the tree has no guess")
    return StrategyTree(table.rules, node, name)


# ---- writing ------------------------------------------------------------------------------
def _is_single(node: Node) -> bool:
    """A bare ``1``: one secret, guessed at once."""
    return node.candidates == 1 and not node.children


def _is_pair(node: Node) -> bool:
    """A bare ``2``: the smaller secret guessed first, then the other."""
    if node.candidates != 2 or len(node.children) != 1:
        return False
    child = next(iter(node.children.values()))
    return _is_single(child) and node.guess < child.guess


def _is_bare(node: Node) -> bool:
    return _is_single(node) or _is_pair(node)


def _label_name(i: int) -> str:
    """A, B, ..., Z, AA, AB, ...

    >>> from mastermind.core.formats.irving import _label_name
    >>> [_label_name(i) for i in (0, 25, 26, 27)]
    ['A', 'Z', 'AA', 'AB']
    """
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = string.ascii_uppercase[r] + name
    return name


class _Writer:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.labelled: list[tuple[str, Node]] = []

    def guess(self, node: Node) -> str:
        mark = "" if node.solves_here else NOT_A_SECRET_MARK
        return self.rules.code_text(node.guess) + mark

    def entry(self, node: Node | None, labels: bool = False) -> str:
        if node is None:
            return "0"
        if _is_bare(node):
            return str(node.candidates)
        if all(_is_bare(child) for child in node.children.values()):
            return f"{node.candidates}({self.guess(node)})"
        if labels:
            name = _label_name(len(self.labelled))
            self.labelled.append((name, node))
            return f"{node.candidates}{name}"
        return f"{node.candidates}({self.body(node)})"

    def body(self, node: Node, labels: bool = False) -> str:
        rules, p = self.rules, self.rules.pegs
        groups = []
        for answers in rules.variant.irving_groups(p):
            entries = []
            for fb in answers:
                a = rules.answer_index(fb)
                if a == rules.win_index:
                    entries.append(str(int(node.solves_here)))
                else:
                    entries.append(self.entry(node.children.get(a), labels))
            groups.append(", ".join(entries))
        return f"{self.guess(node)}: " + "; ".join(groups)


def write_irving(tree: StrategyTree, width: int = 100) -> str:
    """The tree in the Irving format; the root's nested children go after it under labels."""
    writer = _Writer(tree.rules)
    root = tree.root
    # another variant's root is written whole, whatever its size: its groups are what tell
    # the variant (irving_rules); p2c2b's "4(11)" was read back as the standard game's
    whole = tree.rules.variant is not STANDARD and bool(root.children)
    if not whole and (_is_bare(root) or all(_is_bare(c) for c in root.children.values())):
        first = writer.entry(root)
    else:
        first = f"{root.candidates}({writer.body(root, labels=True)})"
    blocks = [first] + [f"{name} = ({writer.body(node)})" for name, node in writer.labelled]
    return (
        "\n\n".join(
            textwrap.fill(
                b, width=width, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False
            )
            for b in blocks
        )
        + "\n"
    )
