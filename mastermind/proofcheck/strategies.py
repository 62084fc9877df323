"""Strategies replayed by the checker: the guesses a strategy tree takes on every secret (the
upper bound of a proof), and the breaker's mix of trees of a game-value proof, each played
under a random permutation of the pegs and colours.

>>> import numpy as np
>>> from mastermind.proofcheck.game import Game
>>> from mastermind.proofcheck.strategies import replay
>>> game = Game.parse("p2c2")
>>> tree = {"guess": "11", "children": {"1B0W": {"guess": "12", "children": {"0B2W": {"guess": "21"}}},
...         "0B0W": {"guess": "22"}}}
>>> replay(game, tree, np.arange(game.n), "strategy")
(8, 3)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from mastermind.proofcheck.game import Game, ProofError, unknown_key


def guesses_taken(game: Game, node: object, secrets: np.ndarray, where: str) -> np.ndarray:
    """``out[s]``: the guesses the strategy tree takes to find secret s, for every s of
    ``secrets`` (0 elsewhere); refused unless it finds every one. A node:
    ``{"guess": "1122", "candidates": N, "children": {"1B0W": node}}``."""
    out = np.zeros(game.n, dtype=np.int64)
    _fill(game, node, secrets, where, 1, out)
    return out


NODE_KEYS = frozenset(("guess", "candidates", "children"))


def _fill(game: Game, node: object, secrets: np.ndarray, where: str, level: int, out: np.ndarray) -> None:
    if not isinstance(node, dict) or not isinstance(node.get("children", {}), dict):
        raise ProofError(f"{where}: expected a node {{guess, candidates, children}}")
    if (unknown := unknown_key(node, NODE_KEYS)) is not None:
        raise ProofError(f"{where}: the key {unknown!r} is not one of a node")
    try:
        guess = game.code(node.get("guess"))
        children = {game.answer(a): child for a, child in node.get("children", {}).items()}
    except ProofError as exc:
        raise ProofError(f"{where}: {exc}") from None
    if node.get("candidates", len(secrets)) != len(secrets):
        raise ProofError(f"{where}: {len(secrets)} secrets reach it, it says {node.get('candidates')}")
    answers = game.answers[guess, secrets]
    given = set(np.unique(answers).tolist()) - {game.win}
    if set(children) != given:
        wrong = sorted(set(children) ^ given)[0]
        raise ProofError(
            f"{where}: answer {game.answer_text(wrong)} to {game.code_text(guess)} "
            f"{'has no child' if wrong in given else 'cannot occur'}"
        )
    out[secrets[answers == game.win]] = level
    for answer, child in children.items():
        part = secrets[answers == answer]
        _fill(
            game, child, part, f"{where} {game.code_text(guess)} {game.answer_text(answer)}", level + 1, out
        )


def replay(
    game: Game, node: object, secrets: np.ndarray, where: str, weights: np.ndarray | None = None
) -> tuple[int, int]:
    """The total (``sum weight * guesses`` with ``weights``, one per code) and worst case of
    a strategy tree on ``secrets``; refused unless it finds every one."""
    taken = guesses_taken(game, node, secrets, where)[secrets]
    # (summed in Python's whole numbers: a tree may repeat a useless guess, so its depths are
    # not bounded by the number of codes, and a weighted sum in int64 could wrap around)
    if weights is None:
        total = sum(taken.tolist())
    else:
        total = sum(w * t for w, t in zip(weights[secrets].tolist(), taken.tolist()))
    return total, int(taken.max(initial=0))


def fraction(raw: object, where: str) -> Fraction:
    """A number written as a fraction ``"p/q"`` (or a whole number)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return Fraction(raw)
    try:
        if isinstance(raw, str) and raw.strip() == raw and "." not in raw and "e" not in raw.lower():
            return Fraction(raw)
    except (ValueError, ZeroDivisionError):
        pass
    raise ProofError(f'{where}: expected a fraction such as "5600/1290", got {raw!r}')


def pattern_classes(game: Game) -> tuple[np.ndarray, list[str]]:
    """The class of every code under the permutations of the pegs and of the colours (its
    colours' multiplicities: ``aabc``), and the classes' names."""
    names: dict[str, int] = {}
    of_code = np.empty(game.n, dtype=np.int64)
    for i, code in enumerate(game.codes.tolist()):
        counts = sorted((code.count(c) for c in set(code)), reverse=True)
        name = "".join("abcdefghijklmnopqrstuvwxyz"[j] * m for j, m in enumerate(counts))
        of_code[i] = names.setdefault(name, len(names))
    return of_code, list(names)


def breaker_guarantee(game: Game, raw: object) -> tuple[Fraction, str]:
    """The most guesses the breaker's mix (``[{"weight": "p/q", "strategy": node}, ...]``, the
    weights summing to 1, each tree played under a permutation of the pegs and colours drawn
    at random) takes on average on any one secret, and that secret's class. A permuted tree
    takes on secret s what the tree takes on the permuted s, and a random permutation makes
    that a uniformly random code of the class of s: the mix's average on s is its average
    over s's class."""
    if not isinstance(raw, list) or not raw:
        raise ProofError("breaker: expected a list of {weight, strategy}")
    of_code, names = pattern_classes(game)
    sizes = np.bincount(of_code, minlength=len(names))
    everyone = np.arange(game.n)
    spent = [Fraction(0)] * len(names)
    mass = Fraction(0)
    for t, item in enumerate(raw):
        if not isinstance(item, dict) or set(item) != {"weight", "strategy"}:
            raise ProofError(f"breaker {t}: expected {{weight, strategy}}")
        weight = fraction(item["weight"], f"breaker {t}: weight")
        if weight <= 0:
            raise ProofError(f"breaker {t}: its weight must be above 0")
        mass += weight
        taken = guesses_taken(game, item["strategy"], everyone, f"breaker {t}")
        per_class = np.zeros(len(names), dtype=np.int64)
        np.add.at(per_class, of_code, taken)
        for k in range(len(names)):
            spent[k] += weight * int(per_class[k])
    if mass != 1:
        raise ProofError(f"breaker: the weights sum to {mass}, not 1")
    averages = [spent[k] / int(sizes[k]) for k in range(len(names))]
    worst = max(range(len(names)), key=averages.__getitem__)
    return averages[worst], names[worst]
