"""Rows of ``results/``: the parts of each game run in a child process under the row's time
limit (:class:`Runner`), and put together with their bounds, tree and provenance.

A game whose optimum does not finish becomes an "open" row with the bounds the tool proves
quickly (and, with ``--checkpoint``, those of the checkpointed search, which continues when
run again).
"""

from __future__ import annotations

import gzip
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from fractions import Fraction
from pathlib import Path

from mastermind.app.interrupts import command_token
from mastermind.app.publishing.files import game_value_proof_stem, proof_stem, tree_stems, worst_proof_stem
from mastermind.app.publishing.literature import literature
from mastermind.app.publishing.parts import (
    bounds_part,
    depth_part,
    first_guesses_part,
    frontier_part,
    game_value_part,
    optimal_part,
    proof_part,
)
from mastermind.app.publishing.scope import FRONTIER, PROOF_MAX_CODES, game_id, optimal_table
from mastermind.app.version import version_string
from mastermind.core.cancel import INTERRUPTED, CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.fileio import staged_move, write_atomic
from mastermind.core.game import DEFAULT_MEMORY_LIMIT, Rules
from mastermind.core.symmetry import canonical_first_guesses
from mastermind.engines.gamevalue import fraction_text
from mastermind.engines.workers import RowTime, wait_for

TREE_LIMIT = 4 * 1024 * 1024  # bytes of gzipped JSON; larger trees are left out (and said so)
GAME_VALUE_GRACE = 60.0  # after the game value's own time limit: its last LP, sending the result
FRONTIER_GRACE = 300.0  # after a frontier search's own time limit: building and sending its tree
WARM_UP_SECONDS = 900.0  # a first numba compilation on a busy machine
MIN_SECONDS = 0.05  # a part given less of the row's time than this is past the time limit
DEPTH_SECONDS = 600.0
"""The most an open row gives the search for its optimal worst case (5x6, 6x5 and 6x7n find
it within 15 s; where it does not finish, the depths refuted still raise the lower bound)."""
OPEN_HEURISTICS = ("entropy", "expected-size", "most-parts")  # the best total: an open game's upper bound


def command_for(
    game: str,
    table: str,
    *,
    out: str = "results",
    jobs: int,
    row_time_limit: float | None,
    checkpoint: str | None = None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
) -> str:
    """The command that recomputes a row, or continues an open one: the options it was made
    with (``--out`` as given, ``--checkpoint`` where the row's search used it,
    ``--memory-limit`` when not the default; not the whole command's ``--time-limit``).

    >>> from mastermind.app.publishing.runner import command_for
    >>> command_for("p5c8", "optimal", jobs=2, row_time_limit=60, memory_limit=8 << 30).split(" --jobs ")[1]
    '2 --row-time-limit 60 --memory-limit 8'
    """
    line = ["mastermind", "results", "--out", out, "--table", table, "--games", game, "--jobs", str(jobs)]
    if row_time_limit is not None:
        line += ["--row-time-limit", f"{row_time_limit:g}"]
    if checkpoint is not None:
        line += ["--checkpoint", checkpoint]
    if memory_limit != DEFAULT_MEMORY_LIMIT:
        line += ["--memory-limit", f"{memory_limit / 1024**3:g}"]
    return shlex.join(line)


def _searched_total(search: dict, only: bool) -> dict:
    """The optimum as the checkpointed search proved it, as the quick path gives it: its
    one first guess's cost stands for every first guess when the game has ``only`` one up
    to symmetry."""
    by_first_guess = [
        {
            "first_guess": search["first_guess"],
            "total": search["total_upper_bound"],
            "worst": search["worst_upper_bound"],
        }
    ]
    return {
        "total": search["total_upper_bound"],
        "worst": search["worst_upper_bound"],
        "histogram": search["histogram"],
        "best_first_guesses": [search["first_guess"]],
        "by_first_guess": by_first_guess if only else None,
        "tree": search["tree"],
        "seconds": search["seconds"],
        "cpu_seconds": search["cpu_seconds"],
    }


def _base_row(rules: Rules) -> dict:
    return {
        "game": game_id(rules),
        "rules": str(rules),
        "pegs": rules.pegs,
        "colours": rules.colors,
        "repetition": rules.repeat,
        "codes": rules.n_codes,
    }


class SearchStopped(KeyboardInterrupt):
    """Ctrl-C stopped a row's checkpointed search, which kept what it proved in its
    checkpoint for the next run: ``kept`` says what (one phrase), ``bounds`` the same as
    data (the game and its search's own bounds, see :func:`kept_bounds`)."""

    def __init__(self, game: str, part: dict) -> None:
        self.kept = _kept_text(game, part)
        self.bounds = kept_bounds(game, part)
        super().__init__(self.kept)


def kept_bounds(game: str, part: dict) -> dict:
    """The bounds a search stopped by Ctrl-C kept, keyed as in every report.

    >>> from mastermind.app.publishing.runner import kept_bounds
    >>> kept_bounds("p5c8", {"total_lower_bound": 171232, "total_upper_bound": None, "seconds": 3})
    {'game': 'p5c8', 'total_lower_bound': 171232, 'total_upper_bound': None}
    >>> kept_bounds("p5c8", {"worst_lower_bound": 8})
    {'game': 'p5c8', 'worst_lower_bound': 8}
    """
    depth = "worst_lower_bound" in part
    keys = ("worst_lower_bound",) if depth else ("total_lower_bound", "total_upper_bound")
    return {"game": game, **{k: part.get(k) for k in keys}}


def _kept_text(game: str, part: dict) -> str:
    """What a search stopped by Ctrl-C kept in its checkpoint: its own lower bound and
    strategy, not the row's bounds (a heuristic's strategy may be cheaper than the search's:
    "kept the total in [36227, 37291]" read as a worse bound than the row's 37087).

    >>> from mastermind.app.publishing.runner import _kept_text
    >>> _kept_text("p5c8", {"total_lower_bound": 171232, "total_upper_bound": 178903})
    "p5c8's checkpointed search kept the total >= 171232 and its strategy of 178903 for the next run"
    >>> _kept_text("p5c8", {"total_lower_bound": 171232, "total_upper_bound": None})
    "p5c8's checkpointed search kept the total >= 171232 for the next run"
    >>> _kept_text("p5c8", {"worst_lower_bound": 8})
    "p5c8's depth search kept the worst case >= 8 for the next run"
    """
    if "worst_lower_bound" in part:
        return f"{game}'s depth search kept the worst case >= {part['worst_lower_bound']} for the next run"
    low, high = ("?" if part.get(k) is None else part[k] for k in ("total_lower_bound", "total_upper_bound"))
    strategy = "" if high == "?" else f" and its strategy of {high}"
    return f"{game}'s checkpointed search kept the total >= {low}{strategy} for the next run"


class Runner:
    """Runs the parts of each row in one child process, a row within ``row_time_limit``
    seconds (``None``: no limit, in this process) and all of them before ``token``'s deadline
    (the run's: default the command's token, no limit)."""

    def __init__(
        self,
        *,
        row_time_limit: float | None,
        jobs: int,
        solve_options: dict | None = None,
        checkpoint: Path | None = None,
        frontier: Sequence[str] = FRONTIER,
        out: str = "results",
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        token: CancelToken | None = None,
    ) -> None:
        from mastermind.engines.workers import TimedWorker

        self.row_time_limit = row_time_limit
        self.jobs = jobs
        # frontier games run the checkpointed search in checkpoint/GAME, stopped at the row's limit
        self.checkpoint = checkpoint
        self.frontier = frozenset(frontier)
        # forwarded to solve / solve_by_first_guess (e.g. a checkpoint once the search has one)
        self.solve_options = dict(solve_options or {})
        self.out = out
        self.memory_limit = memory_limit  # (the command's: --memory-limit in a continue command)
        self.token = command_token() if token is None else token
        self.capped = row_time_limit is not None or self.token.deadline is not None
        self.worker = TimedWorker() if self.capped else None
        from mastermind.engines.exact import child_memory, parent_bytes

        # timed rows run in a child beside this process (which waits, holding no table); a
        # row too big for what is left was refused before the run (check_fits_all)
        self.row_memory = child_memory(memory_limit, 0 if self.worker is None else parent_bytes())
        self._row = RowTime(self.token, None)
        self._lost = 0.0  # wall seconds of the row's parts that gave no answer (see _run)
        # each game's last tree, gzipped (see _write_tree), and its proof's staged file (_proof)
        self.trees: dict[str, bytes | Path] = {}
        self._staged: dict[Path, Path] = {}  # folder of the tables -> its staging folder

    def close(self) -> None:
        self._row.close()
        while self._staged:
            shutil.rmtree(self._staged.popitem()[1], ignore_errors=True)
        if self.worker is not None:
            self.worker.close(kill=True)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def warm_up(self) -> None:
        """Load (or compile) the kernels in the child, so that no row's time includes it."""
        if self.worker is not None:
            self.worker.run(optimal_part, ("p2c2", "total", 1, {}), WARM_UP_SECONDS)
        else:
            optimal_part("p2c2", "total", 1, {})

    def _start_row(self, clock: RowTime | None = None) -> None:
        """The row's clock (``clock``: the one the run of rows made for it): its own time
        limit, within what is left of the run's."""
        self._row.close()
        self._row = RowTime(self.token, self.row_time_limit) if clock is None else clock

    @property
    def cut_by_command(self) -> bool:
        """Whether the row under way was given less than its time: what was left of the
        command's --time-limit."""
        return self._row.cut

    def _left(self) -> float | None:
        return self._row.remaining()

    def _run(self, fn: Callable, args: tuple, grace: float = 0.0, stoppable: bool = False) -> dict | None:
        """``fn(*args)`` within the time left of the row (None: past it, its wall time added
        to :attr:`_lost`, which the row's ``seconds`` count).

        ``stoppable``: ``fn`` takes the command's cancel token (``cancel=``) and, stopped by
        Ctrl-C, keeps its checkpoint and answers with ``stopped``; this raises
        :class:`SearchStopped` then. Other parts are ended at once by Ctrl-C."""
        token = command_token() if stoppable else None
        game = str(args[0])
        status = (lambda: f"{game}: the checkpointed search is stopping") if token is not None else None
        # (the work marked running only once the child has it: a Ctrl-C while a fresh child
        # starts unwinds at once, as before any part)
        running = nullcontext() if token is None else token.running(status)
        try:
            if self.worker is None:
                with running:
                    out = fn(*args) if token is None else fn(*args, cancel=token)
            else:
                left = self._left()
                if left is not None and left < MIN_SECONDS:
                    return None
                began = time.perf_counter()
                limit = wait_for(left) + grace
                self.worker.submit(fn, args, limit, cancel=token)
                with running:
                    out = self.worker.result()
                if out is None:
                    self._lost += time.perf_counter() - began
        except MastermindError:
            if token is not None and token.cancelled:  # (failed while stopping: still Ctrl-C)
                raise KeyboardInterrupt from None
            raise
        if token is not None and token.cancelled:  # (Ctrl-C: the command stops)
            if out is not None and out.get("stopped") == INTERRUPTED:
                raise SearchStopped(game, out)
            raise KeyboardInterrupt  # (it did not answer in time, or answered just before)
        return out

    def _frontier(self, game: str) -> dict | None:
        """The checkpointed search of a game out of the quick path (a frontier game, or one whose
        every first guess did not finish within the row's time); None without a checkpoint folder."""
        if self.checkpoint is None:
            return None
        folder = self.checkpoint / game
        # the search stops itself at the row's limit; the grace covers building and sending its tree
        return self._run(
            frontier_part,
            (game, self.jobs, str(folder), self._left(), self.row_memory),
            grace=FRONTIER_GRACE,
            stoppable=True,
        )

    def _continues(self, game: str) -> bool:
        """Whether the game has a checkpointed search under way (a file in its checkpoint
        folder): it goes on from there, rather than spend the row on the quick path first."""
        if self.checkpoint is None:
            return False
        from mastermind.engines.exact import CHECKPOINT_FILE

        return (self.checkpoint / game / CHECKPOINT_FILE).is_file()

    def _limit_text(self) -> str:
        if self.cut_by_command:
            return "the time left of the command's --time-limit"
        return "no time limit" if self.row_time_limit is None else f"{self.row_time_limit:g} s"

    def _command(self, game: str, table: str, checkpointed: bool = False) -> str:
        return command_for(
            game,
            table,
            out=self.out,
            jobs=self.jobs,
            row_time_limit=self.row_time_limit,
            checkpoint=None if not checkpointed or self.checkpoint is None else str(self.checkpoint),
            memory_limit=self.memory_limit,
        )

    def _new_row(self, rules: Rules, table: str) -> dict:
        """A row's game columns and how it was made (jobs, time limit, version, the command)."""
        self._lost = 0.0
        return {
            **_base_row(rules),
            "jobs": self.jobs,
            "row_time_limit": self.row_time_limit,
            "version": version_string(),
            "command": self._command(game_id(rules), table),
        }

    def optimal_row(self, rules: Rules, trees: Path | None, clock: RowTime | None = None) -> dict:
        """The optimal-strategy row of one game (an open row when the optimum takes too long);
        ``clock``: the row's time, as the run of rows gives it (default: a row's time now)."""
        self._start_row(clock)
        game = game_id(rules)
        row = self._new_row(rules, optimal_table(rules))  # (a black-peg game's: its own table)
        search = None
        only = False  # the game has only one first guess up to symmetry
        options = (game, "total", self.jobs, self.solve_options, self.row_memory)
        quick = game not in self.frontier and not self._continues(game)
        total = self._run(optimal_part, options) if quick else None
        if total is None:  # a frontier game, or every first guess did not finish within the row's time
            if quick and self.checkpoint is not None:
                # a row's time of its own, as the open row's quick bounds get: the quick path
                # spent this one, and the search would store nothing for a run to continue
                self._start_row()
            search = self._frontier(game)
            if search is None or not search["proven"]:
                return self._open_row(row, rules, search, trees)
            row["command"] = self._command(game, optimal_table(rules), checkpointed=True)
            # one run proves the optimum, not every first guess reaching it, unless the game
            # has only one first guess up to symmetry (every game without repeated colours)
            only = len(canonical_first_guesses(rules)) == 1
            total = _searched_total(search, only)
        seconds, cpu = total["seconds"], total["cpu_seconds"]
        tree_text, tie_broken = total.pop("tree"), False
        complete = search is None or only
        # the optimal worst case before the tie-break: it is a column, the tie-break a refinement
        worst = self._worst(game, total, tree_text)
        if worst is not None:
            seconds += worst["seconds"]
            cpu += worst["cpu_seconds"]
        if not complete:  # every other first guess costed, as far as the row's time allows
            firsts = self._first_guesses(game, total)
            if firsts is not None:
                seconds += firsts["seconds"]
                cpu += firsts["cpu_seconds"]
                complete = firsts["complete"]
        tie = self._tie_break(game, total, worst)
        if tie is not None:
            if tie is not worst:
                seconds += tie["seconds"]
                cpu += tie["cpu_seconds"]
            tree_text, tie_broken = tie["tree"], True
            total.update(worst=tie["worst"], histogram=tie["histogram"])
        t = int(total["total"])
        avg = Fraction(t, rules.n_codes)
        row.update(
            status="proven",
            total=t,
            average=round(t / rules.n_codes, 6),
            average_fraction=fraction_text(avg),
            worst=total["worst"],
            tie_broken=tie_broken,
            histogram=total["histogram"],
            best_first_guesses=total["best_first_guesses"],
            first_guesses_complete=complete,
            by_first_guess=total["by_first_guess"],
            optimal_worst=None if worst is None else worst["worst"],
            worst_total=None if worst is None else worst["total"],
            # (the wall time of parts past the row's time counts too; their CPU time is not known)
            seconds=round(seconds + self._lost, 3),
            cpu_seconds=round(cpu, 3),
            # a checkpointed search's wall seconds over all its runs (None: earlier runs untimed)
            **({} if search is None else {"search_seconds": search.get("checkpoint_seconds")}),
            # parts past the row's time: the worst-case search, the tie-break
            unfinished=_unfinished(worst, tie),
        )
        row["tree"] = self._write_tree(trees, game, tree_text)
        if worst is not None and worst.get("tree") and worst["worst"] < total["worst"]:
            # the optimal worst case's own tree (the row's tree has a larger worst case)
            row["worst_tree"] = self._write_tree(trees, tree_stems(game)["worst_tree"], worst["tree"])
        row["proof"] = self._proof(trees, game, t, row["optimal_worst"], tree_text)
        row.update(literature(row))
        return row

    def _tie_break(self, game: str, total: dict, worst: dict | None) -> dict | None:
        """The tie-broken optimum (the least worst case among the total-optimal strategies),
        None past the row's time."""
        if worst is not None and worst["total"] == total["total"]:
            # the worst-case optimum is total-optimal too: no total-optimal strategy has a
            # smaller worst case, so it serves as the tie-broken tree (fewest secrets at the
            # worst case aside) and the tie-break search is not needed
            return worst
        tie = self._run(optimal_part, (game, "tie", self.jobs, self.solve_options, self.row_memory))
        if tie is not None and tie["total"] != total["total"]:
            raise AssertionError(f"{game}: tie-break total {tie['total']} != optimum {total['total']}")
        return tie

    def _proof(self, trees: Path | None, game: str, total: int, worst: int | None, tree: str) -> dict | None:
        """The row's entry for its proof file ``proofs/GAME.proof.json.gz`` (written beside
        ``trees`` when given, else kept in :attr:`trees` as the tree is: the staged file's
        path), for a game of at most :data:`PROOF_MAX_CODES` codes on the plain rules; None
        beyond, or past the row's time. The child streams it to a staging folder beside the
        tables (never held whole, as ``optimal --proof`` writes it); its worst case must be
        the row's ``worst`` (the optimal worst case, when the row found it)."""
        if self.solve_options or Rules.parse(game).n_codes > PROOF_MAX_CODES:
            return None
        # past the row's own time limit by as much as FRONTIER_GRACE, but never past the
        # run's (--time-limit: a 180 s run of 4x7n went on for 248 s writing its proof)
        left, run_left = self._left(), self.token.remaining()
        grace = FRONTIER_GRACE
        if run_left is not None:
            grace = max(0.0, min(grace, run_left - (left or 0.0)))
        stem = proof_stem(game)
        staged = self._staging(Path(self.out) if trees is None else trees.parent) / f"{stem}.json.gz"
        data = self._run(proof_part, (game, total, tree, str(staged), self.row_memory), grace=grace)
        if data is None:
            return None
        if worst is not None and data["worst"] != worst:
            raise AssertionError(f"{game}: the proof's worst case {data['worst']} != the row's {worst}")
        return self._staged_proof(trees, stem, staged, data["facts"])

    def _staged_proof(self, trees: Path | None, stem: str, staged: Path, facts: int) -> dict:
        """The row's entry for the proof staged at ``staged``, ``proofs/STEM.json.gz``: moved
        beside ``trees`` when given, else kept in :attr:`trees` under its stem, put in place
        with its row."""
        entry = {"file": f"proofs/{stem}.json.gz", "bytes": staged.stat().st_size, "facts": facts}
        if trees is None:
            self.trees[stem] = staged
        else:
            (trees.parent / "proofs").mkdir(parents=True, exist_ok=True)
            with staged_move(trees.parent / entry["file"], staged):
                pass
        return entry

    def _staging(self, folder: Path) -> Path:
        """The folder of this runner's staged proofs beside the tables in ``folder`` (made
        once, removed as the runner closes, with what a child stopped midway left there): a
        rename from there puts a proof in place without reading it."""
        if folder not in self._staged:
            try:
                self._staged[folder] = Path(tempfile.mkdtemp(prefix=".proofs.", dir=folder))
            except OSError as exc:
                raise MastermindError(f"--out: cannot write the proofs in {folder}: {exc.strerror}") from None
        return self._staged[folder]

    def _worst(self, game: str, total: dict, tree_text: str) -> dict | None:
        """The optimal worst case and the best total within it, as far as the row's time
        allows: the depth first (the search that only asks whether a strategy exists);
        when the optimal tree already stays within it, the best total within that depth is
        the optimum and that tree is the answer; else the total's search capped at the
        depth (stopped: the depth alone, ``total`` None). None: not even the depth."""
        args = (game, "depth", self.jobs, self.solve_options, self.row_memory, self._left())
        depth = self._run(optimal_part, args, grace=FRONTIER_GRACE)
        if depth is None:
            return None
        d = depth["worst"]
        if d is None:  # stopped at the row's time: its time counts all the same
            return {**depth, "total": None}
        if d == total["worst"]:
            worst = {"worst": d, "total": total["total"], "histogram": total["histogram"], "tree": tree_text}
        else:
            args = (game, "worst", self.jobs, self.solve_options, self.row_memory, self._left(), d)
            worst = self._run(optimal_part, args, grace=FRONTIER_GRACE) or {"worst": d, "total": None}
            if worst["worst"] != d:
                raise AssertionError(f"{game}: the best total within {d} guesses needs {worst['worst']}")
            if worst.get("tree") is None:  # (its total not reached: the depth search's tree)
                worst = {**worst, "tree": depth.get("tree")}
        return {
            **worst,
            "seconds": depth["seconds"] + worst.get("seconds", 0.0),
            "cpu_seconds": depth["cpu_seconds"] + worst.get("cpu_seconds", 0.0),
        }

    def _first_guesses(self, game: str, total: dict) -> dict | None:
        """The exact cost of every first guess of a game a checkpointed search proved,
        beside the one the proof costed; once all are known, ``total``'s first guesses
        are complete (None: past the row's time)."""
        [proven] = total["best_first_guesses"]
        firsts = self._run(
            first_guesses_part,
            (game, self.jobs, proven, self._left(), self.row_memory),
            grace=FRONTIER_GRACE,
        )
        if firsts is None or not firsts["complete"]:
            return firsts
        rules = Rules.parse(game)
        best = total["total"]
        by = [{"first_guess": proven, "total": best, "worst": total["worst"]}, *firsts["by_first_guess"]]
        by.sort(key=lambda f: rules.parse_code(f["first_guess"]))
        cheaper = [f for f in by if f["total"] < best]
        if cheaper:
            raise AssertionError(f"{game}: first guess {cheaper[0]} below the proven optimum {best}")
        total["by_first_guess"] = by
        total["best_first_guesses"] = [f["first_guess"] for f in by if f["total"] == best]
        return firsts

    def _open_row(
        self, row: dict, rules: Rules, search: dict | None = None, trees: Path | None = None
    ) -> dict:
        game = row["game"]
        if search is not None:
            reason = f"checkpointed search stopped after {self._limit_text()}; run again to continue"
            row["command"] = self._command(game, optimal_table(rules), checkpointed=True)
            row["search_seconds"] = search.get("checkpoint_seconds")
        elif self.checkpoint is not None:
            reason = f"the checkpointed search gave no answer within {self._limit_text()} and its grace"
            # (the one to continue)
            row["command"] = self._command(game, optimal_table(rules), checkpointed=True)
        elif game in self.frontier:
            reason = "needs the checkpointed search"
        else:
            reason = f"not proven within {self._limit_text()}"
        row.update(
            status="open", reason=reason, tree=None, published=[], literature="open", literature_note=reason
        )
        bounds: dict = {}
        seconds = cpu = 0.0
        # the quick bounds get a time of their own: the row's may be spent on the search
        self._start_row()
        for kind in ("lower", *OPEN_HEURISTICS):
            part = self._run(bounds_part, (game, kind, self.row_memory))
            if part is None:
                continue
            seconds += part.pop("seconds")
            cpu += part.pop("cpu_seconds")
            if "total_upper_bound" in part:  # the best heuristic gives the upper bound
                bounds.setdefault("heuristics", {})[kind] = part["total_upper_bound"]
                if "total_upper_bound" in bounds and bounds["total_upper_bound"] <= part["total_upper_bound"]:
                    continue
                part["upper_source"] = kind
            bounds.update(part)
        if search is not None:
            seconds += search["seconds"]
            cpu += search["cpu_seconds"]
            bounds.update(search_bounds(bounds, search))
            if bounds.get("upper_source") == "search":  # the upper bound is a tree, replayed
                row["tree"] = self._write_tree(trees, game, search["tree"])
        # the optimal worst case, as far as its share of the row's time allows
        left = self._left()
        share = DEPTH_SECONDS if left is None else min(left, DEPTH_SECONDS)
        folder = None if self.checkpoint is None else str(self.checkpoint / game)
        # the proof of the optimal worst case alone, once proven, in the same share of time
        # (a game the checker takes, on the plain rules: hard mode's strategies are fewer)
        from mastermind.proofcheck.game import MAX_CODES as CHECKER_MAX_CODES

        stem, staged = worst_proof_stem(game), None
        if not self.solve_options and rules.n_codes <= CHECKER_MAX_CODES:
            staged = self._staging(Path(self.out) if trees is None else trees.parent) / f"{stem}.json.gz"
        depth = self._run(
            depth_part,
            (game, share, self.row_memory, folder, None if staged is None else str(staged)),
            grace=FRONTIER_GRACE,
            stoppable=folder is not None,  # (what it proved is kept only in a checkpoint)
        )
        if depth is not None:
            seconds += depth["seconds"]
            cpu += depth["cpu_seconds"]
            bounds["worst_lower_bound"] = max(bounds.get("worst_lower_bound", 0), depth["worst_lower_bound"])
            if "depth_search_seconds" in depth:  # (over every run on its checkpoint's memo file)
                row["depth_search_seconds"] = depth["depth_search_seconds"]
            found = depth.get("worst_upper_bound")
            if found is not None and found < bounds.get("worst_upper_bound", found + 1):
                # a tree of its own, replayed
                bounds.update(worst_upper_bound=found, worst_upper_source="depth")
                stem = tree_stems(game)["worst_tree"]
                row["worst_tree"] = self._write_tree(trees, stem, depth["worst_tree"])
            if bounds["worst_lower_bound"] == bounds.get("worst_upper_bound"):  # (the bounds met:
                # the depth search's proof, or its strategy meeting another lower bound)
                bounds["optimal_worst"] = bounds["worst_lower_bound"]
            made = depth.get("worst_proof")
            if staged is not None and made is not None and made["worst"] == bounds.get("optimal_worst"):
                row["worst_proof"] = self._staged_proof(trees, stem, staged, made["facts"])
        row.update(bounds=bounds or None, seconds=round(seconds + self._lost, 3), cpu_seconds=round(cpu, 3))
        return row

    def _write_tree(self, trees: Path | None, stem: str, text: str) -> dict | None:
        """The row's entry for the tree ``trees/STEM.json.gz`` (stem: the game, or
        ``GAME.worst``); the tree is written into ``trees`` when given, and kept in
        :attr:`trees` under its stem for a caller that writes it once it knows the row is kept."""
        data = gzip.compress(text.encode("utf-8"), mtime=0)
        info = {"file": f"trees/{stem}.json.gz", "bytes": len(data)}
        if len(data) > TREE_LIMIT:
            return {**info, "file": None, "skipped": f"{len(data)} bytes gzipped, above {TREE_LIMIT}"}
        if trees is None:
            self.trees[stem] = data
        else:
            trees.mkdir(parents=True, exist_ok=True)
            write_atomic(trees / f"{stem}.json.gz", data)
        return info

    def game_value_row(self, rules: Rules, clock: RowTime | None = None) -> dict:
        self._start_row(clock)
        game = game_id(rules)
        row = self._new_row(rules, "game-values")
        # the proof of a value proven, for games of at most PROOF_MAX_CODES codes: staged
        # beside the tables, as an optimal row's proof is
        stem, staged = game_value_proof_stem(game), None
        if rules.n_codes <= PROOF_MAX_CODES:
            staged = self._staging(Path(self.out)) / f"{stem}.json.gz"
        # the column generation stops itself at the row's limit; the grace covers its last LP
        args = (game, self.jobs, self._left(), self.row_memory, None if staged is None else str(staged))
        data = self._run(game_value_part, args, grace=GAME_VALUE_GRACE)
        if data is None or not data["proven"]:
            row.update(
                status="open",
                reason=f"not proven within {self._limit_text()}",
                literature="open",
                published=[],
                # (a run past its grace sent nothing: the row's own wall time)
                seconds=round(self._row.elapsed() if data is None else data["seconds"], 3),
                cpu_seconds=None if data is None else round(data["cpu_seconds"], 3),
            )
            if data is not None:  # what the stopped run proved: the value lies between these
                row["bounds"] = {
                    "average_lower_bound_fraction": data[
                        "average_lower_bound_fraction"
                    ],  # None from a float LP
                    "average_lower_bound": data["average_lower_bound"],
                    "average_upper_bound": data["average_upper_bound"],
                    "iterations": data["iterations"],
                }
            return row
        value = Fraction(data["average_fraction"])
        uniform = Fraction(data["uniform_total"], rules.n_codes)
        row.update(
            status="proven",
            average_fraction=fraction_text(value),
            average=round(float(value), 6),
            uniform_total=data["uniform_total"],
            uniform_average_fraction=fraction_text(uniform),
            uniform_average=round(float(uniform), 6),  # (as game-value's JSON gives it)
            uniform_optimal=value == uniform,
            maker=[
                {
                    "pattern": m["pattern"],
                    "codes": m["codes"],
                    "example": m["example"],
                    "probability": m["probability"],
                    "probability_fraction": m["probability_fraction"],
                    "per_code_fraction": m["per_code_fraction"],
                }
                for m in data["maker"]
            ],
            maker_support=[m["pattern"] for m in data["maker"] if Fraction(m["probability_fraction"]) != 0],
            breaker_mix_size=len(data["breaker"]),
            breaker_first_guesses=data["breaker_first_guesses"],
            iterations=data["iterations"],
            seconds=round(data["seconds"], 3),
            cpu_seconds=round(data["cpu_seconds"], 3),
        )
        row["average_unreduced"] = _unreduced(value, row["maker"])
        row["proof"] = None
        if staged is not None and data["proof"] is not None:
            facts = data["proof"]["facts"]
            row["proof"] = {"file": f"proofs/{stem}.json.gz", "bytes": staged.stat().st_size, "facts": facts}
            self.trees[stem] = staged
        row.update(literature(row))
        return row


def search_bounds(bounds: dict, search: dict) -> dict:
    """The open row's bounds improved by a stopped search: its proven lower bound and the
    best strategy it found, where they beat the lookahead bound and the heuristics."""
    found = {
        "search": {
            key: search.get(key)
            for key in (
                "total_lower_bound",
                "total_upper_bound",
                "worst_upper_bound",
                "units",
                "seconds",
                "checkpoint_seconds",
            )
        }
    }
    lower = search.get("total_lower_bound")
    if lower is not None and lower > bounds.get("total_lower_bound", -1):
        found.update(total_lower_bound=lower, lower_source="search")
    upper = search.get("total_upper_bound")
    if upper is not None and upper < bounds.get("total_upper_bound", upper + 1):
        found.update(
            total_upper_bound=upper, worst_upper_bound=search["worst_upper_bound"], upper_source="search"
        )
    return found


def _unreduced(value: Fraction, maker: list[dict]) -> str:
    """The value over the number of codes the maker uses when he mixes them uniformly
    (5600/1290 for p4c6), else the reduced fraction."""
    per_code = {Fraction(m["per_code_fraction"]) for m in maker if Fraction(m["per_code_fraction"]) != 0}
    if len(per_code) == 1:
        support = sum(m["codes"] for m in maker if Fraction(m["per_code_fraction"]) != 0)
        return f"{value * support}/{support}" if (value * support).denominator == 1 else fraction_text(value)
    return fraction_text(value)


def _unfinished(worst: dict | None, tie: dict | None) -> list[str]:
    """The parts of a proven row past its time: the optimal worst case, the best total
    within it (a worst-case search stopped after proving the depth has only the depth),
    the tie-break."""
    out = []
    if worst is None or worst["worst"] is None:
        out.append("worst")
    if worst is None or worst["total"] is None:
        out.append("worst_total")
    if tie is None:
        out.append("tie")
    return out
