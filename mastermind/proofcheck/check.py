"""Check a proof file: the strategy (the upper bound) by replaying every secret, then the
facts (the lower bound) one by one, each from the checker's own partitions and counting
bound and the facts checked before it. See ``docs/proofs.md`` for the format.

A fact says of the set S of secrets left after a path of (guess, answer) pairs that every
strategy needs at least ``total`` guesses summed over S, or at least ``worst`` guesses for
some secret of S. It holds when every guess g (one per orbit of the symmetries the fact
lists, each checked to map S onto S) that splits S leaves a cost of at least the bound:
|S| plus, over its non-winning classes, the best of the class's counting bound, its member
bound (totals: see :func:`~mastermind.proofcheck.partitions.member_bounds_reference`) and a
fact referenced for it (for ``worst``: 1 plus the most over its classes of the counting
bound or the fact). A guess that leaves S whole is never worth playing (a strategy without
it is no worse), so it is skipped.

A proof of version 2 certifies the value of the game between code maker and code breaker:
it gives every code an integer weight (the maker's mix times its common denominator), and
its facts claim weighted totals (``sum weight * guesses`` over S), checked as above with the
weight of S for its size, the weighted counting bound
(:func:`~mastermind.proofcheck.bounds.weighted_floor`) for the counting bound and no member
bound; every symmetry must keep the weights of S. Its root fact bounds what any strategy
averages against the maker's mix; the breaker's mix, when given, is replayed against every
class of secrets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeGuard

import numpy as np

from mastermind.proofcheck.bounds import depth_floors, slot_depths, total_floors
from mastermind.proofcheck.game import MAX_CODES, Game, ProofError, unknown_key
from mastermind.proofcheck.partitions import (
    class_counts,
    guess_values,
    member_bounds,
    most_classes,
    orbit_minima,
    weighted_floors,
)
from mastermind.proofcheck.reading import Facts
from mastermind.proofcheck.strategies import breaker_guarantee, fraction, replay

FORMAT = "mastermind-proof"
VERSION = 1
GAME_VALUE_VERSION = 2
"""A proof of the value of the game between code maker and code breaker (weighted facts)."""
VERSIONS = (VERSION, GAME_VALUE_VERSION)
KINDS = ("total", "worst")
CACHE_BYTES = 256 << 20
FACT_BYTES = 1024
"""Memory each fact checked keeps (its path, its set, its claim): 390 to 570 bytes measured
on the proofs of 6x4, 4x10n and 4x8; twice that for room."""
HEADER = ("format", "version", "rules", "total", "worst", "strategy", "worst_strategy")
"""The keys read before the facts are checked (the writer puts them first)."""
GAME_VALUE_HEADER = (*HEADER, "weights", "game_value", "breaker")
"""Those of a proof of a game value: the weight of every code, the value, the breaker's mix."""
KEYS = frozenset((*GAME_VALUE_HEADER, "facts"))
"""Every key a proof file has (a key it does not have is refused: a misspelt key would
otherwise be read as absent)."""
FACT_KEYS = frozenset(("path", *KINDS, "symmetries", "refs"))
SYMMETRY_KEYS = frozenset(("pegs", "colours"))


@dataclass(frozen=True)
class Outcome:
    """What a proof proved: the optimal total (and worst case, when claimed) of the game."""

    rules: str
    secrets: int
    total: int | None
    worst: int | None
    facts: int
    game_value: Fraction | None = None
    """The value of the game a version-2 proof proves (None: a proof of optimal values)."""
    weight: int | None = None
    """The weights' sum: the maker's mix is the weights over it."""
    breaker: Fraction | None = None
    """The most the breaker's mix averages on any secret (None: no mix in the file)."""
    breaker_class: str | None = None


class CheckStopped(Exception):
    """The check was told to stop (see :func:`check_proof`) before its end: ``facts`` were
    checked by then, none of them failing; the proof's claims are not established."""

    def __init__(self, facts: int) -> None:
        super().__init__(f"stopped after {facts} facts checked")
        self.facts = facts


def is_proof(data: object) -> bool:
    """True for an object that says it is a proof file."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def check_proof(
    data: Any,
    rules: str | None = None,
    stop: Callable[[], bool] | None = None,
    checked: Callable[[int], None] | None = None,
) -> Outcome:
    """Check a proof: the parsed JSON object, or its keys and values as
    :func:`~mastermind.proofcheck.reading.proof_items` reads them from a file (then its facts
    are checked as they are read). ``rules``: the game the caller expects, if any.
    :class:`ProofError` names what fails. ``stop``: asked before the strategy is replayed and
    before every fact; once it says True, :class:`CheckStopped` ends the check. ``checked``:
    told the number of facts checked after each one (a progress bar)."""
    if not isinstance(data, (dict, Iterator)):
        raise ProofError(f'not a proof file: no "format": "{FORMAT}"')
    items = iter(data.items()) if isinstance(data, dict) else data
    fields: dict[str, Any] = {}
    for key, value in items:  # up to the facts, once what comes before them is read
        _keep(fields, key, value)
        header = GAME_VALUE_HEADER if fields.get("version") == GAME_VALUE_VERSION else HEADER
        if key == "facts" and all(k in fields for k in header):
            break
    if not is_proof(fields):
        raise ProofError(f'not a proof file: no "format": "{FORMAT}"')
    if fields.get("version") not in VERSIONS:
        readable = " and ".join(map(str, VERSIONS))
        raise ProofError(f"proof format version {fields.get('version')!r}; this checker reads {readable}")
    if rules is not None and fields.get("rules") != rules:
        raise ProofError(f"it is a proof for {fields.get('rules')}, not {rules}")
    game = Game.parse(fields.get("rules"))
    total, worst = fields.get("total"), fields.get("worst")
    if total is None and worst is None:
        raise ProofError("the proof claims nothing: give total, worst or both")
    if not all(v is None or _count(v) for v in (total, worst)):
        raise ProofError("total and worst must be whole numbers (or null)")
    if stop is not None and stop():
        raise CheckStopped(0)
    everyone = np.arange(game.n)
    weights = game_value = None
    if fields["version"] == GAME_VALUE_VERSION:
        weights, game_value = _game_value_claims(game, fields)
    got_total, got_worst = replay(game, fields.get("strategy"), everyone, "strategy", weights)
    if total is not None and got_total != total:
        raise ProofError(f"strategy: its total is {got_total}, the proof claims {total}")
    if worst is not None and got_worst != worst:
        if fields.get("worst_strategy") is None:  # (null: the strategy's worst case is the claim)
            raise ProofError(f"strategy: its worst case is {got_worst}, the proof claims {worst}")
        got_worst = replay(game, fields.get("worst_strategy"), everyone, "worst_strategy")[1]
        if got_worst != worst:
            raise ProofError(f"worst_strategy: its worst case is {got_worst}, the proof claims {worst}")
    checker = FactChecker(game, weights)
    facts = fields.get("facts")
    if not isinstance(facts, (list, Facts)):
        raise ProofError("facts: expected a list")
    count = 0
    for count, fact in enumerate(facts, 1):
        if stop is not None and stop():
            raise CheckStopped(count - 1)
        checker.check(count - 1, fact)
        if checked is not None:
            checked(count)
    for key, value in items:  # (what follows the facts: read to its end, as JSON)
        _keep(fields, key, value)
    extra = sorted(set(fields) - {*HEADER, "facts"})
    if fields["version"] != GAME_VALUE_VERSION and extra:
        raise ProofError(f"the key {extra[0]!r} belongs to a proof of a game value (version 2)")
    for kind, value in (("total", total), ("worst", worst)):
        if value is not None and (kind, value) not in checker.root_claims:
            raise ProofError(f"no fact claims {kind} >= {value} of every secret (path [])")
    if weights is None or game_value is None:
        return Outcome(str(game), game.n, total, worst, count)
    breaker, breaker_class = None, None
    if fields.get("breaker") is not None:
        breaker, breaker_class = breaker_guarantee(game, fields["breaker"])
        if breaker > game_value:
            raise ProofError(
                f"breaker: its mix takes {breaker} guesses on average on a secret of class "
                f"{breaker_class}, above the game value {game_value} claimed"
            )
    weight = int(weights.sum())
    return Outcome(str(game), game.n, total, worst, count, game_value, weight, breaker, breaker_class)


def _game_value_claims(game: Game, fields: dict[str, Any]) -> tuple[np.ndarray, Fraction]:
    """The weights of a version-2 proof (one whole number a code, in the codes' order) and
    the game value it claims: its total (the least weighted total of any strategy) over the
    weights' sum."""
    raw = fields.get("weights")
    if not (isinstance(raw, list) and len(raw) == game.n and all(_count(w) for w in raw)):
        raise ProofError(f"weights: expected {game.n} whole numbers, one a code in the codes' order")
    if sum(raw) == 0:
        raise ProofError("weights: every weight is 0")
    # (every weighted sum the check makes is at most the weights' sum times the most guesses,
    # n: kept within 64 bits, where numpy would wrap around silently)
    if sum(raw) * game.n >= 1 << 62:
        raise ProofError(f"weights: their sum {sum(raw)} is too large for this checker")
    weights = np.asarray(raw, dtype=np.int64)
    value = fraction(fields.get("game_value"), "game_value")
    if fields.get("worst") is not None or fields.get("total") is None:
        raise ProofError("a proof of a game value claims the weighted total alone (worst: null)")
    weight = int(weights.sum())
    if value * weight != fields["total"]:
        raise ProofError(
            f"game_value: {value} times the weights' sum {weight} is not the total {fields['total']}"
        )
    return weights, value


def memory_needed(facts: int, codes: int = MAX_CODES) -> int:
    """The most memory, in bytes, the checker takes on a proof of ``facts`` facts of a game
    of ``codes`` codes: the table of answers as it is built (five tables of bytes), its two
    caches, room for Python, numba and the strategy trees, and what each fact keeps."""
    caches = 2 * min(CACHE_BYTES, facts * 8 * codes)
    return 5 * codes**2 + caches + (256 << 20) + facts * FACT_BYTES


def _keep(fields: dict[str, Any], key: str, value: Any) -> None:
    if key not in KEYS:
        raise ProofError(f"the key {key!r} is not one of a proof file")
    if key in fields:  # (a file read piece by piece: json.load would take the last silently)
        raise ProofError(f"the key {key!r} is given twice")
    fields[key] = value


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


Symmetry = tuple[tuple[int, ...], tuple[int, ...]]  # (pegs, colours)


class FactChecker:
    """Checks facts in order, keeping the set and claim of each one checked."""

    def __init__(self, game: Game, weights: np.ndarray | None = None) -> None:
        self.game = game
        self.weights = weights  # (a proof of a game value: the weight of every code)
        self.sets: dict[tuple[tuple[int, int], ...], np.ndarray] = {(): np.arange(game.n)}
        self.checked: list[tuple[str, int, np.ndarray]] = []  # (kind, bound, set) by id
        self.root_claims: set[tuple[str, int]] = set()
        # the image of every code under each symmetry, and the orbits of each list of them:
        # caches of at most CACHE_BYTES each, emptied when full (a big proof names thousands)
        self.room = max(16, CACHE_BYTES // (8 * game.n))
        self.images: dict[tuple[tuple[int, ...], tuple[int, ...]], np.ndarray] = {}
        self.orbits: dict[
            tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], tuple[np.ndarray, np.ndarray]
        ] = {}
        self.floors: dict[tuple[str, int, int], np.ndarray] = {}

    def set_of(self, path: tuple[tuple[int, int], ...]) -> np.ndarray:
        """The secrets that give each answer of the path to its guess, in index order."""
        if path not in self.sets:
            parent = self.set_of(path[:-1])
            guess, answer = path[-1]
            self.sets[path] = parent[self.game.answers[guess, parent] == answer]
        return self.sets[path]

    def check(self, i: int, fact: object) -> None:
        """Check fact ``i``; raises :class:`ProofError` naming it and what was derived."""
        if not isinstance(fact, dict) or sum(k in fact for k in KINDS) != 1:
            raise ProofError(f"fact {i}: expected an object with a path and one of total, worst", i)
        if (unknown := unknown_key(fact, FACT_KEYS)) is not None:
            raise ProofError(f"fact {i}: the key {unknown!r} is not one of a fact", i)
        kind = "total" if "total" in fact else "worst"
        bound = fact[kind]
        path = self._path(i, fact.get("path"))
        try:
            secrets = self._weigh(kind, bound, path, fact)
        except ProofError as exc:  # (the fact named only when it fails: most never do)
            where = f"fact {i} (path {self._path_text(path)}; claims {kind} >= {bound})"
            raise ProofError(f"{where}: {exc}", i) from None
        self.checked.append((kind, bound, secrets))
        if not path:
            self.root_claims.add((kind, bound))

    def _weigh(self, kind: str, bound: Any, path: tuple[tuple[int, int], ...], fact: dict) -> np.ndarray:
        """The fact's set, once every guess is found to leave at least its bound."""
        game = self.game
        if not _count(bound):
            raise ProofError("the bound must be a whole number, 0 or more")
        secrets = self.set_of(path)
        if len(secrets) == 0:
            raise ProofError("no secret gives these answers")
        least, guesses = self._orbits(secrets, fact.get("symmetries", []))
        if self.weights is not None and kind == "total":
            return self._weigh_weighted(bound, secrets, least, guesses, fact)
        win = game.win_slot  # (the classes counted by slot: the answers the game has)
        counts = class_counts(game.slots, secrets, guesses, game.n_slots)
        b = most_classes(counts, win)
        floors = self._floors(kind, len(secrets), b)
        total = kind == "total"
        derived, useful = guess_values(counts, floors, total, win, len(secrets))
        refs = self._refs(fact.get("refs", []), least, kind)
        # the guesses the counting bound leaves short, weighed class by class: the member
        # bound (total), then the facts referenced
        short = np.flatnonzero(useful & (derived < bound))
        counts = counts[short]
        counts[:, win] = 0
        values = floors[counts]
        if total:
            members = member_bounds(game.slots, secrets, guesses[short], b, win, game.n_slots)
            values = np.maximum(values, members)
        self._raise(refs, secrets, guesses[short], values)
        derived = len(secrets) + values.sum(axis=1) if total else 1 + values.max(axis=1, initial=0)
        self._refute(kind, bound, derived, guesses[short], counts, b)
        return secrets

    def _weigh_weighted(
        self, bound: int, secrets: np.ndarray, least: np.ndarray, guesses: np.ndarray, fact: dict
    ) -> np.ndarray:
        """:meth:`_weigh` of a weighted total: the weight of S for its size, each class's
        weighted counting bound, and the facts referenced (no member bound)."""
        game, weights = self.game, self.weights
        assert weights is not None
        win = game.win_slot
        counts = class_counts(game.slots, secrets, guesses, game.n_slots)
        b = most_classes(counts, win)
        heaviest = secrets[np.argsort(-weights[secrets], kind="stable")]
        depths = slot_depths(len(secrets), b)
        values = weighted_floors(game.slots, heaviest, weights, guesses, depths, game.n_slots)
        counts[:, win] = 0
        values[:, win] = 0
        useful = counts.max(axis=1) < len(secrets)  # (a guess that leaves S whole: skipped)
        weight = int(weights[secrets].sum())
        refs = self._refs(fact.get("refs", []), least, "total")
        short = np.flatnonzero(useful & (weight + values.sum(axis=1) < bound))
        values = values[short]
        self._raise(refs, secrets, guesses[short], values)
        self._refute("total", bound, weight + values.sum(axis=1), guesses[short], counts[short], b)
        return secrets

    def _raise(
        self, refs: list[tuple[int, int, int]], secrets: np.ndarray, guesses: np.ndarray, values: np.ndarray
    ) -> None:
        """Each class a fact is referenced for raised to its claim (``values[k, slot]`` of
        the class answering to ``guesses[k]``), once the class is found to be its set."""
        game = self.game
        for guess, answer, ref in refs:
            part = secrets[game.answers[guess, secrets] == answer]
            ref_set = self.checked[ref][2]
            if not np.array_equal(part, ref_set):
                raise ProofError(
                    f"the secrets answering {game.answer_text(answer)} to {game.code_text(guess)} "
                    f"({len(part)}) are not those of fact {ref} ({len(ref_set)})"
                )
            k = int(np.searchsorted(guesses, guess))
            if k < len(guesses) and guesses[k] == guess:
                slot = game.slot_of[answer]
                values[k, slot] = max(values[k, slot], self.checked[ref][1])

    def _refute(
        self, kind: str, bound: int, derived: np.ndarray, guesses: np.ndarray, counts: np.ndarray, b: int
    ) -> None:
        """Refuse the fact when some guess leaves less than its bound."""
        if np.any(derived < bound):
            k = int(np.flatnonzero(derived < bound)[0])
            raise ProofError(
                f"guess {self.game.code_text(int(guesses[k]))} leaves {kind} >= {int(derived[k])} "
                f"only (classes {sorted(counts[k][counts[k] > 0].tolist(), reverse=True)}, "
                f"at most {b} per guess)"
            )

    def _floors(self, kind: str, m: int, b: int) -> np.ndarray:
        """The counting bound of every k <= m secrets (kept: a proof asks the same few often)."""
        key = (kind, m, b)
        if key not in self.floors:
            if len(self.floors) >= 4096:
                self.floors.clear()
            self.floors[key] = (total_floors if kind == "total" else depth_floors)(m, b)
        return self.floors[key]

    def _path(self, i: int, raw: object) -> tuple[tuple[int, int], ...]:
        if not isinstance(raw, list) or not all(isinstance(s, list) and len(s) == 2 for s in raw):
            raise ProofError(f"fact {i}: path: expected a list of [guess, answer]", i)
        try:
            return tuple((self.game.code(g), self.game.answer(a)) for g, a in raw)
        except ProofError as exc:
            raise ProofError(f"fact {i}: path: {exc}", i) from None

    def _path_text(self, path: tuple[tuple[int, int], ...]) -> str:
        steps = [f"{self.game.code_text(g)} {self.game.answer_text(a)}" for g, a in path]
        return "[" + ", ".join(steps) + "]"

    def _orbits(self, secrets: np.ndarray, raw: object) -> tuple[np.ndarray, np.ndarray]:
        """The least code of each code's orbit under the symmetries, each checked to be a
        permutation of the pegs and of the colours that maps the fact's set onto itself, and
        the codes that are the least of theirs (the guesses weighed)."""
        game = self.game
        if not isinstance(raw, list):
            raise ProofError("symmetries: expected a list")
        keys, maps = [], []
        inside = np.zeros(game.n, dtype=bool)
        inside[secrets] = True
        for s, sym in enumerate(raw):
            pegs = sym.get("pegs") if isinstance(sym, dict) else None
            colours = sym.get("colours") if isinstance(sym, dict) else None
            if not _permutation(pegs, game.pegs) or not _permutation(colours, game.colours):
                raise ProofError(f"symmetry {s}: pegs and colours must be permutations")
            if (unknown := unknown_key(sym, SYMMETRY_KEYS)) is not None:
                raise ProofError(f"symmetry {s}: the key {unknown!r} is not one of a symmetry")
            key = (tuple(pegs), tuple(colours))
            if key not in self.images:
                if len(self.images) >= self.room:
                    self.images.clear()
                self.images[key] = game.permute(pegs, colours)
            # (a permutation of the codes: mapping the set into itself, it maps it onto itself)
            if not inside[self.images[key][secrets]].all():
                raise ProofError(f"symmetry {s} does not map the set onto itself")
            # (weighted: a strategy's image must cost what it costs, each secret's weight kept)
            if self.weights is not None and not np.array_equal(
                self.weights[self.images[key][secrets]], self.weights[secrets]
            ):
                raise ProofError(f"symmetry {s} does not keep the weights of the set")
            keys.append(key)
            maps.append(self.images[key])
        group = tuple(keys)
        if group not in self.orbits:
            if len(self.orbits) >= self.room // 2:  # (two arrays each)
                self.orbits.clear()
            least = orbit_minima(np.array(maps)) if keys else np.arange(game.n)
            self.orbits[group] = least, np.flatnonzero(least == np.arange(game.n))
        return self.orbits[group]

    def _refs(self, raw: object, least: np.ndarray, kind: str) -> list[tuple[int, int, int]]:
        """The references ``[guess, answer, fact]``: one per class at most, each to an
        earlier fact of the same kind, for a guess the check weighs (its orbit's least)."""
        if not isinstance(raw, list):
            raise ProofError("refs: expected a list")
        out, seen = [], set()
        for item in raw:
            if not (isinstance(item, list) and len(item) == 3):
                raise ProofError(f"refs: expected [guess, answer, fact], got {item!r}")
            guess, answer, ref = self.game.code(item[0]), self.game.answer(item[1]), item[2]
            if not (isinstance(ref, int) and 0 <= ref < len(self.checked)):
                raise ProofError(f"refs: {ref!r} is no fact checked before it")
            if least[guess] != guess or (guess, answer) in seen or answer == self.game.win:
                raise ProofError(f"refs: {item[0]} {item[1]} is no class the check weighs, or twice")
            if self.checked[ref][0] != kind:
                raise ProofError(f"refs: fact {ref} claims {self.checked[ref][0]}, not {kind}")
            seen.add((guess, answer))
            out.append((guess, answer, ref))
        return out


def _permutation(values: object, n: int) -> TypeGuard[list[int]]:
    """A list of the numbers 0..n-1, each once (whole numbers only: a float or a flag
    would pass the comparison, and a map that is no permutation merges orbits)."""
    return (
        isinstance(values, list) and all(type(v) is int for v in values) and sorted(values) == list(range(n))
    )


def load_proof(path: str) -> Any:
    """The JSON object of a proof file, gzip-compressed or not."""
    import gzip
    import json

    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        return json.loads(raw)
    except ValueError as exc:  # (Python's int() refuses numbers past 4300 digits)
        why = "a number too long to read" if "digits" in str(exc) else str(exc).splitlines()[0]
        raise ProofError(f"{path}: not JSON ({why})") from None
