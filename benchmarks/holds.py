"""What holds a frontier game's lower bound (issue 63 item 3): a checkpoint's root rebuilt as a
continued run starts it, then, per first guess, its bound and its open classes (secrets,
bound, how many of a split class's guesses share its least bound, the seconds a rise took),
and for the first guess of the strategy known, what each class costs in it.

    python benchmarks/holds.py p6c5 results/checkpoints/p6c5
    python benchmarks/holds.py p5c8 results/checkpoints/p5c8-consistent --pool consistent

The checkpoint is copied to a temporary folder first (a run rebuilding its root writes to
it), and nothing is searched beyond what a continued run does before its first round: the
root planned, the classes earlier runs split split again, and their guesses raised to their
two-level floors (at most ``FLOOR_SECONDS``), so the rebuilt bound meets the checkpoint's.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import api
from mastermind.engines.exact.anytime import SPLIT_SIZE, ClassBound, GuessBound, RoundSearch
from mastermind.engines.exact.backends import make_backend
from mastermind.engines.exact.checkpoint import Checkpoint
from mastermind.engines.exact.options import Pool, Problem
from mastermind.engines.exact.search import UNLIMITED
from mastermind.engines.exact.solver import ExactSolver


def rebuild(game: str, folder: Path, pool: Pool) -> tuple[RoundSearch, object, CodeTable]:
    """The rounds and the root's state as a run continued from ``folder`` starts them."""
    table = CodeTable(Rules.parse(game))
    solver = ExactSolver(table, Problem(pool=pool), memory=2 << 30)
    made_for = {**api._made_for(solver, "total"), "max_guesses": None, "problem": api._search_key(solver)}
    store = Checkpoint(folder, made_for)
    rounds = RoundSearch(
        solver, make_backend("threads", 1, None), checkpoint=store, memory=1 << 30, split_size=SPLIT_SIZE
    )
    known = store.bounds()
    rounds.units.start_run(solver.table)
    state = rounds.root(solver.cands, UNLIMITED, solver.group)
    rounds._restore_paces(state)
    rounds._split_kept(state)
    state.offer_exact()
    rounds._floor_splits(state)
    if known is not None:
        state.floor = known.lower
        state.offer(known.upper, known.tree)
    return rounds, state, table


def class_line(rounds: RoundSearch, c: ClassBound, played) -> str:
    line = f"   answer {c.answer}: {c.size} secrets, bound {c.lower:.0f}"
    if c.inner is not None:
        bounds = sorted(g.lower for g in c.inner)
        tied = sum(1 for b in bounds if b == bounds[0])
        line += f", {len(c.inner)} guesses, {tied} of them at the least"
    if c.pace is not None:
        line += f", {c.pace:.1f} s a rise"
    if played is not None:
        cost = rounds.price(played, c)
        line += f"; played in {cost:.0f} (gap {cost - c.lower:.0f})"
    return line


def report(rounds: RoundSearch, state, table: CodeTable) -> None:
    tree = state.tree
    print(f"floor {state.floor:.0f}, derived {state.derived:.0f}, upper {state.upper:.0f}")
    guesses: list[GuessBound] = sorted(state.guesses, key=lambda g: g.lower)
    for g in guesses:
        open_ = [c for c in g.classes if not c.exact]
        strategy = tree is not None and tree.guess == g.guess
        text = table.rules.code_text(g.guess)
        mark = " (the strategy's)" if strategy else ""
        exact = f"{len(g.classes) - len(open_)}/{len(g.classes)}"
        print(f"first guess {text}{mark}: bound {g.lower:.0f}, {exact} classes exact")
        for c in sorted(open_, key=lambda c: -c.size):
            played = tree.children.get(c.answer) if strategy else None
            print(class_line(rounds, c, played))
        if strategy:
            excess = sum(rounds.price(tree.children[c.answer], c) - c.lower for c in g.classes if c.exact)
            print(f"   the exact classes cost {excess:.0f} more in the strategy than their optimum")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("checkpoint", type=Path)
    parser.add_argument("--pool", choices=["all", "consistent"], default="all")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / "checkpoint"
        shutil.copytree(args.checkpoint, copy, ignore=shutil.ignore_patterns("*.npz"))
        began = time.process_time()
        rounds, state, table = rebuild(args.game, copy, Pool(args.pool))
        print(f"{args.game}: rebuilt in {time.process_time() - began:.1f} CPU s")
        report(rounds, state, table)
        rounds.units.end_run()


if __name__ == "__main__":
    main()
