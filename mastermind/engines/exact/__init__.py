"""Exact optimal strategies: memoized depth-first branch and bound with symmetry at every level.

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.exact import Execution, Problem, solve
>>> solve(CodeTable(Rules(2, 3))).total
21
>>> solve(CodeTable(Rules(2, 3)), Problem(objective="worst"), execution=Execution(jobs=2)).worst
3

The names below are the engine's public face, the only names the app uses; each is loaded on
first use (PEP 562): importing a light module of the engine (:mod:`.memory`, :mod:`.options`,
:mod:`.document`) runs this package first, and a command answered from its result cache or
refusing its options must not load the search and numba (a second of imports) for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mastermind.core.lazy import lazy_names

_WHERE = {
    "solve": "api",
    "solve_by_first_guess": "api",
    "ByFirstGuess": "by_first_guess",
    "ExactSolver": "solver",
    "Problem": "options",
    "Limits": "options",
    "Execution": "options",
    "Tuning": "options",
    "SearchDetails": "details",
    "no_strategy_text": "details",
    "StartError": "options",
    "MemoryBudget": "memory",
    "parent_bytes": "memory",
    "child_memory": "memory",
    "SchedulerError": "options",
    "check_scheduler": "options",
    "CHECKPOINT_FILE": "checkpoint:FILE",
    "CheckpointError": "checkpoint",
    "check_folder": "checkpoint",
    "make_folder": "checkpoint",
    "hold_folder": "checkpoint",
    "check_made_for": "checkpoint",
    "check_checkpoint": "checkpoint",
    "search_made_for": "checkpoint",
    "CheckpointFileError": "memo_file",
    "DEPTH_FILE": "memo_file",
    "UNITS_FILE": "memo_file",
    "check_intact": "memo_file",
    "ensure_compiled": "warmup",
    "compile_kernels": "warmup",
    "plan_root": "warmup",
    "tiny_table": "warmup",
    "prove": "certify",
    "write_proof": "certify",
    "GameClaims": "certify",
    "prove_weighted": "certify",
    "write_weighted_proof": "certify",
    "no_strategy_fields": "document",
    "optimum_fields": "document",
    "search_document": "document",
}

__all__ = [
    "ByFirstGuess",
    "CHECKPOINT_FILE",
    "CheckpointError",
    "CheckpointFileError",
    "DEPTH_FILE",
    "ExactSolver",
    "GameClaims",
    "Execution",
    "Limits",
    "MemoryBudget",
    "child_memory",
    "parent_bytes",
    "Problem",
    "SchedulerError",
    "SearchDetails",
    "StartError",
    "Tuning",
    "UNITS_FILE",
    "check_folder",
    "check_intact",
    "check_checkpoint",
    "check_made_for",
    "check_scheduler",
    "compile_kernels",
    "ensure_compiled",
    "hold_folder",
    "make_folder",
    "no_strategy_fields",
    "no_strategy_text",
    "optimum_fields",
    "plan_root",
    "prove",
    "prove_weighted",
    "search_document",
    "search_made_for",
    "solve",
    "solve_by_first_guess",
    "tiny_table",
    "write_proof",
    "write_weighted_proof",
]

if TYPE_CHECKING:
    from mastermind.engines.exact.api import solve, solve_by_first_guess
    from mastermind.engines.exact.by_first_guess import ByFirstGuess
    from mastermind.engines.exact.certify import (
        GameClaims,
        prove,
        prove_weighted,
        write_proof,
        write_weighted_proof,
    )
    from mastermind.engines.exact.checkpoint import (
        FILE as CHECKPOINT_FILE,
    )
    from mastermind.engines.exact.checkpoint import (
        CheckpointError,
        check_checkpoint,
        check_folder,
        check_made_for,
        hold_folder,
        make_folder,
        search_made_for,
    )
    from mastermind.engines.exact.details import SearchDetails, no_strategy_text
    from mastermind.engines.exact.document import no_strategy_fields, optimum_fields, search_document
    from mastermind.engines.exact.memo_file import DEPTH_FILE, UNITS_FILE, CheckpointFileError, check_intact
    from mastermind.engines.exact.memory import MemoryBudget, child_memory, parent_bytes
    from mastermind.engines.exact.options import (
        Execution,
        Limits,
        Problem,
        SchedulerError,
        StartError,
        Tuning,
        check_scheduler,
    )
    from mastermind.engines.exact.solver import ExactSolver
    from mastermind.engines.exact.warmup import compile_kernels, ensure_compiled, plan_root, tiny_table

__getattr__, __dir__ = lazy_names(__name__, _WHERE)
