"""The code maker's classes: codes that a colour and position permutation maps onto each other.

Such codes are interchangeable as secrets, so the maker's best mix can be taken equal within a
class (averaging an optimal mix over the symmetry group keeps it optimal). Under the full
group a class is a colour pattern.

>>> from mastermind.engines.gamevalue.classes import code_classes
>>> from mastermind.core.game import CodeTable, Rules
>>> k = code_classes(CodeTable(Rules(4, 6), full=False))
>>> list(zip(k.names, k.sizes.tolist()))
[('aaaa', 6), ('aaab', 120), ('aabb', 90), ('aabc', 720), ('abcd', 360)]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mastermind.core.game import Code, CodeTable
from mastermind.core.symmetry import code_patterns


@dataclass(frozen=True)
class CodeClasses:
    """Pattern classes of a game: names, the class of every code, sizes, smallest members."""

    names: tuple[str, ...]
    of_code: np.ndarray  # int64 (N,): class index of every code
    sizes: np.ndarray  # int64 (K,)
    examples: tuple[Code, ...]

    def __len__(self) -> int:
        return len(self.names)

    def totals(self, depths: np.ndarray) -> tuple[int, ...]:
        """Exact per-class sums of an integer per-code array (guesses of a tree, say)."""
        out = np.zeros(len(self), dtype=np.int64)
        np.add.at(out, self.of_code, np.asarray(depths, dtype=np.int64))
        return tuple(int(v) for v in out)

    def members(self, k: int) -> np.ndarray:
        return np.flatnonzero(self.of_code == k)


def _multiplicities(name: str) -> tuple[int, ...]:
    return tuple(name.count(ch) for ch in sorted(set(name)))


def code_classes(table: CodeTable) -> CodeClasses:
    """Group the codes of ``table`` by colour pattern, most repetitive pattern first."""
    patterns = code_patterns(table.rules, table.codes)
    names = sorted(set(patterns), key=_multiplicities, reverse=True)
    index = {name: k for k, name in enumerate(names)}
    of_code = np.array([index[p] for p in patterns], dtype=np.int64)
    sizes = np.bincount(of_code, minlength=len(names)).astype(np.int64)
    examples = tuple(int(np.flatnonzero(of_code == k)[0]) for k in range(len(names)))
    return CodeClasses(tuple(names), of_code, sizes, examples)
