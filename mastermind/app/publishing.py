"""The tables of ``results/``: proven optima and game values, computed by the tool, merged into files.

Every computed number comes from the solvers (:func:`mastermind.engines.exact.solve`,
:func:`~mastermind.engines.exact.solve_by_first_guess`,
:func:`mastermind.engines.gamevalue.game_value`); published values are typed in only as
references with their source, and each row says whether the tool agrees with them or the
value is new. Each piece of work runs in a child process under a time cap
(:class:`~mastermind.engines.models.timed.TimedWorker`); a game whose optimum does not finish
becomes an "open" row with the bounds the tool proves quickly. Rows are merged into the
existing files, so one game can be recomputed without losing the others.

>>> game_id(Rules.parse("p4c6r")), game_id(Rules.parse("p4c10n"))
('p4c6', 'p4c10n')
>>> [game_id(r) for r in scope_rules(["p3c2", "p2c9", "p4c4n"])]
['p3c2', 'p4c4n', 'p2c9']
"""

from __future__ import annotations

import gzip
import json
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from mastermind.core.errors import MastermindError
from mastermind.core.fileio import check_writable, read_text, write_atomic
from mastermind.core.game import CodeTable, Rules

OPTIMAL_FORMAT = "mastermind-results"
GAME_VALUE_FORMAT = "mastermind-game-values"
STEMS = {OPTIMAL_FORMAT: "optimal", GAME_VALUE_FORMAT: "game-values"}  # each table's file name
FILE_VERSION = 1
TREE_LIMIT = 4 * 1024 * 1024  # bytes of gzipped JSON; larger trees are left out (and said so)
GAME_VALUE_GRACE = 60.0  # after the game value's own time limit: its last LP, sending the result
FRONTIER_GRACE = 300.0  # after a frontier search's own time limit: building and sending its tree
WARM_UP_SECONDS = 900.0  # a first numba compilation on a busy machine
OPEN_HEURISTICS = ("entropy", "expected-size", "most-parts")  # the best total: an open game's upper bound


def game_id(rules: Rules) -> str:
    """``p4c6`` for a game with repetition, ``p4c10n`` without: what ``--rules`` reads."""
    return f"p{rules.pegs}c{rules.colors}" + ("" if rules.repeat else "n")


def _games(spec: Iterable[tuple[int, Iterable[int], bool]]) -> tuple[str, ...]:
    return tuple(game_id(Rules(p, c, rep)) for p, colours, rep in spec for c in colours)


# issue 17: the games every table should have
OPTIMAL_SCOPE = _games(
    [
        (2, range(2, 11), True),
        (3, range(2, 11), True),
        (4, range(2, 9), True),
        (5, range(2, 6), True),
        (6, range(2, 5), True),
        (7, range(2, 4), True),
        (8, [2], True),
        (3, range(3, 11), False),
        (4, range(4, 11), False),
        (5, range(5, 8), False),
        (6, range(6, 8), False),
    ]
)
# out of reach without the checkpointed search: published as open rows with quick bounds
FRONTIER = ("p4c9", "p5c6", "p6c5", "p5c8n", "p6c8n")
GAME_VALUE_SCOPE = _games(
    [
        (2, range(2, 11), True),
        (3, range(2, 9), True),
        (4, range(2, 7), True),
        (5, range(2, 5), True),
    ]
)


@dataclass(frozen=True)
class Reference:
    """A value as published (never computed here) and where."""

    value: str
    source: str


GODDARD = "Goddard 2004, r(n,k) to three decimals (as tabulated in S. Pokutta's blog, 2011)"

# (game, quantity) -> reference; quantities: total (optimal total guesses), average (optimal
# average, to the published decimals), worst (optimal worst case), worst_total (best total
# among worst-case-optimal strategies)
PUBLISHED: dict[tuple[str, str], Reference] = {
    ("p4c6", "total"): Reference("5625", "Koyama and Lai 1993"),
    ("p4c6", "worst"): Reference("5", "Knuth 1977"),
    ("p4c6", "worst_total"): Reference("5626", "Koyama and Lai 1993"),
    ("p4c7", "total"): Reference("11228", "Ville 2013"),
    ("p4c8", "total"): Reference("20471", "the 2023 computer proof for 4x8 (as cited in issue 17)"),
    ("p4c10n", "total"): Reference("26274", "Tanaka 1996 (Bulls and Cows)"),
    **{
        (game, "average"): Reference(value, GODDARD)
        for game, value in (
            ("p2c2", "2.000"),
            ("p3c2", "2.250"),
            ("p4c2", "2.750"),
            ("p5c2", "3.031"),
            ("p6c2", "3.500"),
            ("p7c2", "3.875"),
            ("p2c3", "2.333"),
            ("p3c3", "2.704"),
            ("p4c3", "3.037"),
            ("p5c3", "3.358"),
            ("p2c4", "2.813"),
            ("p3c4", "3.219"),
            ("p4c4", "3.535"),
            ("p2c5", "3.240"),
            ("p3c5", "3.608"),
            ("p4c5", "3.941"),
        )
    },
}
# the row field each quantity is compared with
QUANTITY_FIELDS = {
    "total": "total",
    "average": "average_fraction",
    "worst": "optimal_worst",
    "worst_total": "worst_total",
}
GAME_VALUE_PUBLISHED: dict[str, Reference] = {
    "p4c6": Reference("5600/1290", "Wiener"),
}
NOT_TRANSCRIBED = "published, not transcribed here"


def literature_range(rules: Rules) -> str | None:
    """The papers whose range covers this game although no value of theirs is typed in here."""
    if rules.repeat and rules.pegs == 2:
        return "Goddard 2004 (exact values for 2 pegs)"
    if rules.repeat and rules.pegs <= 4 and rules.n_codes <= 7**4:
        return "Goddard 2004 / Ville 2013 (small games)"
    return None


def game_value_literature_range(rules: Rules) -> str | None:
    if rules.repeat and rules.pegs <= 4 and rules.colors <= 6:
        return "Bonnet and Viennot 2016 (p <= 4, c <= 6)"
    return None


def scope_rules(games: Iterable[str]) -> list[Rules]:
    """The games as rules, smallest first (codes, then pegs), each once."""
    rules = {game_id(r): r for r in (Rules.parse(g) for g in games)}
    return sorted(rules.values(), key=lambda r: (r.n_codes, r.pegs, r.colors, r.repeat))


def parse_games(text: str) -> list[str]:
    """``p4c6,p3c5n`` -> game ids (bad names raise MastermindError)."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise MastermindError("--games is empty: give games such as p4c6,p3c5n")
    return [game_id(Rules.parse(name)) for name in names]


def tool_version() -> str:
    """The package version, with the git commit when run from a checkout."""
    from mastermind import __version__

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return __version__
    sha = commit.stdout.strip()
    return f"{__version__}+{sha}" if commit.returncode == 0 and sha else __version__


def command_for(game: str, table: str, jobs: int, *, checkpoint_cap: float | None = None) -> str:
    """The command that recomputes a row (with the cap of a checkpointed search's runs)."""
    line = f"mastermind results --out results/ --table {table} --games {game} --jobs {jobs}"
    if checkpoint_cap is None:
        return line
    return line + f" --checkpoint results/checkpoints --max-seconds {checkpoint_cap:g}"


def _fraction(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


# ---- the work, run in a child process (module-level functions: the child imports them) ----


def optimal_part(game: str, part: str, jobs: int, solve_options: dict) -> dict:
    """One piece of an optimal row: ``total`` (optimum after every canonical first guess),
    ``tie`` (an optimal tree with the smallest worst case, then fewest secrets at it) or
    ``worst`` (optimal worst case and the best total within it)."""
    from mastermind.core.formats import write_tree
    from mastermind.engines.exact import Execution, Problem, solve, solve_by_first_guess

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules)
    execution = Execution(jobs=jobs)
    if part == "total":
        results = solve_by_first_guess(
            table, Problem(objective="total", **solve_options), execution=execution
        )
        best = min(r.total for r in results)
        firsts = [
            {"guess": rules.code_text(r.first_guess), "total": int(r.total), "worst": int(r.worst)}
            for r in results
        ]
        chosen = next(r for r in results if r.total == best)
        return {
            "total": int(best),
            "worst": int(chosen.worst),
            "histogram": chosen.histogram,
            "best_first_guesses": [f["guess"] for f in firsts if f["total"] == best],
            "by_first_guess": firsts,
            "tree": write_tree(chosen.tree, "json", chosen.stats),
            "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu,
        }
    if part not in ("tie", "worst"):
        raise MastermindError(f"unknown part {part!r}")
    if part == "tie":
        r = solve(table, Problem(objective="total", tie_break=True, **solve_options), execution=execution)
    else:
        r = solve(table, Problem(objective="worst", **solve_options), execution=execution)
    return {
        "total": int(r.total),
        "worst": int(r.worst),
        "histogram": r.histogram,
        "tree": write_tree(r.tree, "json", r.stats),
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
    }


def frontier_part(game: str, jobs: int, checkpoint: str, time_limit: float) -> dict:
    """The checkpointed total optimum of a frontier game, stopped after ``time_limit`` seconds:
    the proven bounds so far (``proven`` False), or the optimum with its tree. A run started
    again with the same ``checkpoint`` folder reuses every unit the earlier runs finished."""
    from mastermind.core.formats import write_tree
    from mastermind.engines.exact import Execution, Limits, solve

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    r = solve(
        CodeTable(rules),
        limits=Limits(time_limit=time_limit),
        execution=Execution(jobs=jobs, checkpoint=checkpoint),
    )
    data: dict = {
        "proven": bool(r.proven),
        "lower_total": None if r.lower_bound is None else int(r.lower_bound),
        "units": r.counters.units,
        "reused_units": r.counters.reused,
        "checkpoint_seconds": r.details.checkpoint_seconds,  # every run's search (None: not timed)
    }
    if r.tree is not None:  # the best strategy found so far (the optimum once proven)
        data.update(
            upper_total=int(r.total),
            upper_worst=int(r.worst),
            histogram=r.histogram,
            first_guess=rules.code_text(r.first_guess),
            tree=write_tree(r.tree, "json", r.stats),
        )
    return {**data, "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def bounds_part(game: str, kind: str) -> dict:
    """Quick proven bounds of a game out of reach: ``lower`` (lookahead lower bounds of the
    total and the worst case) or a heuristic's name (its strategy's total and worst case,
    every secret played: a strategy that exists, so an upper bound)."""
    from mastermind.engines.models.bounds import (
        counting_worst_bound,
        lookahead_total_bound,
        lookahead_worst_bound,
    )
    from mastermind.engines.models.lower_bounds import MAX_LOOKAHEAD_CODES
    from mastermind.engines.registry import strategy_tree

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    table = CodeTable(rules)
    if kind == "lower":
        levels = 2 if table.n <= MAX_LOOKAHEAD_CODES else 1
        data = {
            "lower_total": int(lookahead_total_bound(table, levels)),
            "lookahead_levels": levels,
            "lower_worst": int(
                max(counting_worst_bound(rules, table.n), lookahead_worst_bound(table, levels))
            ),
        }
    else:
        stats = strategy_tree(kind, table).stats(table)
        data = {"upper_total": int(stats.total), "upper_worst": int(stats.worst), "heuristic": kind}
    return {**data, "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def game_value_part(game: str, jobs: int, time_limit: float | None = None) -> dict:
    """The game value of ``game``, or (stopped after ``time_limit`` seconds) its bounds."""
    from mastermind.engines.gamevalue import game_value

    rules = Rules.parse(game)
    start, cpu = time.perf_counter(), time.process_time()
    result = game_value(CodeTable(rules), jobs=jobs, time_limit=time_limit)
    data = result.to_dict()
    data["seconds"] = time.perf_counter() - start
    data["cpu_seconds"] = time.process_time() - cpu
    data["breaker_first_guesses"] = sorted(
        {rules.code_text(b.tree.root.guess) for b in result.details.breaker}
    )
    return data


# ---- rows ------------------------------------------------------------------------------------


def _base_row(rules: Rules) -> dict:
    return {
        "game": game_id(rules),
        "rules": str(rules),
        "pegs": rules.pegs,
        "colours": rules.colors,
        "repetition": rules.repeat,
        "codes": rules.n_codes,
    }


def _agrees(ref: Reference, computed: Any) -> bool:
    """Equal as published: integers exactly, decimals after rounding the exact computed value."""
    if "." in ref.value:  # within half a unit of the last published decimal (2.8125 is 2.813)
        digits = len(ref.value.split(".")[1])
        return abs(Fraction(computed) - Fraction(ref.value)) <= Fraction(1, 2 * 10**digits)
    return str(computed) == ref.value


def literature(row: dict) -> dict:
    """The row's comparison with the typed-in references and its status (agrees, DIFFERS,
    new, or in the range of a paper not transcribed), from its computed values; worked out
    again whenever the tables are written, so that a new reference reaches every row."""
    rules = Rules.parse(row["game"])
    if row.get("status") != "proven":
        return _open_literature(row)
    checks = []
    if "value" in row:  # a game-value row
        ref = GAME_VALUE_PUBLISHED.get(row["game"])
        if ref is not None:
            checks.append(
                {
                    "quantity": "value",
                    "value": ref.value,
                    "source": ref.source,
                    "agrees": Fraction(ref.value) == Fraction(row["value"]),
                }
            )
        range_of = game_value_literature_range
    else:
        for quantity, field in QUANTITY_FIELDS.items():
            ref = PUBLISHED.get((row["game"], quantity))
            if ref is not None and row.get(field) is not None:
                checks.append(
                    {
                        "quantity": quantity,
                        "value": ref.value,
                        "source": ref.source,
                        "agrees": _agrees(ref, row[field]),
                    }
                )
        range_of = literature_range
    status, note = _status(rules, checks, range_of)
    return {"published": checks, "literature": status, "literature_note": note}


def _open_literature(row: dict) -> dict:
    """An open row against the typed-in references: each must lie within the bounds the row
    proves ("DIFFERS" if one does not: a contradiction to look into); still "open" otherwise."""
    b = row.get("bounds") or {}
    checks = []
    if "lower_decimal" in b:  # a game value stopped at the cap
        ref = GAME_VALUE_PUBLISHED.get(row["game"])
        if ref is not None:
            value, high = float(Fraction(ref.value)), b.get("upper_decimal")
            within = b["lower_decimal"] - 1e-6 <= value and (high is None or value <= high + 1e-6)
            checks.append({"quantity": "value", "value": ref.value, "source": ref.source, "agrees": within})
    elif b.get("lower_total") is not None:  # an optimum with its proven bounds
        ref = PUBLISHED.get((row["game"], "total"))
        if ref is not None:
            value, high = int(ref.value), b.get("upper_total")
            within = b["lower_total"] <= value and (high is None or value <= high)
            checks.append({"quantity": "total", "value": ref.value, "source": ref.source, "agrees": within})
    note = row.get("reason", "")
    if checks:
        said = "; ".join(f"{c['quantity']} {c['value']} ({c['source']})" for c in checks)
        inside = all(c["agrees"] for c in checks)
        note += f"; published {said} {'within' if inside else 'OUTSIDE'} the bounds proven"
        return {"published": checks, "literature": "open" if inside else "DIFFERS", "literature_note": note}
    return {"published": [], "literature": "open", "literature_note": note}


def _status(rules: Rules, checks: list[dict], range_of: Callable[[Rules], str | None]) -> tuple[str, str]:
    """``(status, note)``: agrees / DIFFERS with the typed-in references, else new or in the
    range of a paper whose values are not transcribed."""
    if checks:
        ok = all(c["agrees"] for c in checks)
        return ("agrees" if ok else "DIFFERS"), "; ".join(
            f"{c['quantity']} {c['value']} ({c['source']})" for c in checks
        )
    paper = range_of(rules)
    if paper:
        return NOT_TRANSCRIBED, paper
    return "new", "no published value found"


class Runner:
    """Runs the parts of each row in one child process, each under ``max_seconds``
    (``None``: no cap, in this process)."""

    def __init__(
        self,
        *,
        max_seconds: float | None,
        jobs: int,
        solve_options: dict | None = None,
        checkpoint: Path | None = None,
        frontier: Sequence[str] = FRONTIER,
    ) -> None:
        from mastermind.engines.models.timed import TimedWorker

        self.max_seconds = max_seconds
        self.jobs = jobs
        # frontier games run the checkpointed search in checkpoint/GAME, stopped at max_seconds
        self.checkpoint = checkpoint
        self.frontier = frozenset(frontier)
        # forwarded to solve / solve_by_first_guess (e.g. a checkpoint once the search has one)
        self.solve_options = dict(solve_options or {})
        self.worker = TimedWorker() if max_seconds is not None else None

    def close(self) -> None:
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

    def _run(self, fn: Callable, args: tuple, grace: float = 0.0) -> dict | None:
        if self.worker is None or self.max_seconds is None:
            return fn(*args)
        return self.worker.run(fn, args, self.max_seconds + grace)

    def _frontier(self, game: str) -> dict | None:
        """The checkpointed search of a game out of the quick path (a frontier game, or one whose
        every first guess did not finish within the cap); None without a checkpoint folder."""
        if self.checkpoint is None:
            return None
        folder = self.checkpoint / game
        # the search stops itself at the cap; the grace covers building and sending its tree
        return self._run(
            frontier_part, (game, self.jobs, str(folder), self.max_seconds), grace=FRONTIER_GRACE
        )

    def _cap_seconds(self) -> float:
        return 3600.0 if self.max_seconds is None else self.max_seconds

    def _cap(self) -> str:
        return "no time cap" if self.max_seconds is None else f"{self.max_seconds:g} s"

    def _new_row(self, rules: Rules, command: str) -> dict:
        """A row's game columns and how it was made (jobs, cap, version, the command)."""
        return {
            **_base_row(rules),
            "jobs": self.jobs,
            "max_seconds": self.max_seconds,
            "version": tool_version(),
            "command": command_for(game_id(rules), command, self.jobs),
        }

    def optimal_row(self, rules: Rules, trees: Path | None) -> dict:
        """The optimal-strategy row of one game (an open row when the optimum takes too long)."""
        game = game_id(rules)
        row = self._new_row(rules, "optimal")
        search = None
        total = (
            None
            if game in self.frontier
            else self._run(optimal_part, (game, "total", self.jobs, self.solve_options))
        )
        if total is None:  # a frontier game, or every first guess did not finish within the cap
            search = self._frontier(game)
            if search is None or not search["proven"]:
                return self._open_row(row, rules, search)
            row["command"] = command_for(game, "optimal", self.jobs, checkpoint_cap=self._cap_seconds())
            total = {
                "total": search["upper_total"],
                "worst": search["upper_worst"],
                "histogram": search["histogram"],
                # one run proves the optimum, not every first guess reaching it
                "best_first_guesses": [search["first_guess"]],
                "by_first_guess": None,
                "tree": search["tree"],
                "seconds": search["seconds"],
                "cpu_seconds": search["cpu_seconds"],
            }
        seconds, cpu = total["seconds"], total["cpu_seconds"]
        tree_text, tie_broken = total.pop("tree"), False
        # the optimal worst case before the tie-break: it is a column, the tie-break a refinement
        worst = self._run(optimal_part, (game, "worst", self.jobs, self.solve_options))
        if worst is not None:
            seconds += worst["seconds"]
            cpu += worst["cpu_seconds"]
        if worst is not None and worst["total"] == total["total"]:
            # the worst-case optimum is total-optimal too: no total-optimal strategy has a
            # smaller worst case, so it serves as the tie-broken tree (fewest secrets at the
            # worst case aside) and the tie-break search is not needed
            tie = worst
        else:
            tie = self._run(optimal_part, (game, "tie", self.jobs, self.solve_options))
        if tie is worst and tie is not None:
            tree_text, tie_broken = tie["tree"], True
            total.update(worst=tie["worst"], histogram=tie["histogram"])
        elif tie is not None:
            if tie["total"] != total["total"]:
                raise AssertionError(f"{game}: tie-break total {tie['total']} != optimum {total['total']}")
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
            average_fraction=_fraction(avg),
            worst=total["worst"],
            tie_broken=tie_broken,
            histogram=total["histogram"],
            best_first_guesses=total["best_first_guesses"],
            first_guesses_complete=search is None,
            by_first_guess=total["by_first_guess"],
            optimal_worst=None if worst is None else worst["worst"],
            worst_total=None if worst is None else worst["total"],
            seconds=round(seconds, 3),
            cpu_seconds=round(cpu, 3),
            # a checkpointed search's wall seconds over all its runs (None: earlier runs untimed)
            **({} if search is None else {"search_seconds": search.get("checkpoint_seconds")}),
            # parts past the cap (their time is not in seconds): the worst-case search, the tie-break
            unfinished=[name for name, part in (("worst", worst), ("tie", tie)) if part is None],
        )
        row["tree"] = self._write_tree(trees, game, tree_text)
        row.update(literature(row))
        return row

    def _open_row(self, row: dict, rules: Rules, search: dict | None = None) -> dict:
        game = row["game"]
        if search is not None:
            reason = f"checkpointed search stopped after {self._cap()}; run again to continue"
            row["command"] = command_for(game, "optimal", self.jobs, checkpoint_cap=self._cap_seconds())
            row["search_seconds"] = search.get("checkpoint_seconds")
        elif self.checkpoint is not None:
            reason = f"the checkpointed search gave no answer within {self._cap()} and its grace"
        elif game in self.frontier:
            reason = "needs the checkpointed search"
        else:
            reason = f"not proven within {self._cap()}"
        row.update(
            status="open", reason=reason, tree=None, published=[], literature="open", literature_note=reason
        )
        bounds: dict = {}
        seconds = cpu = 0.0
        for kind in ("lower", *OPEN_HEURISTICS):
            part = self._run(bounds_part, (game, kind))
            if part is None:
                continue
            seconds += part.pop("seconds")
            cpu += part.pop("cpu_seconds")
            if "upper_total" in part:  # the best heuristic gives the upper bound
                bounds.setdefault("heuristics", {})[kind] = part["upper_total"]
                if "upper_total" in bounds and bounds["upper_total"] <= part["upper_total"]:
                    continue
                part["upper_source"] = kind
            bounds.update(part)
        if search is not None:
            seconds += search["seconds"]
            cpu += search["cpu_seconds"]
            bounds.update(_search_bounds(bounds, search))
        row.update(bounds=bounds or None, seconds=round(seconds, 3), cpu_seconds=round(cpu, 3))
        return row

    def _write_tree(self, trees: Path | None, game: str, text: str) -> dict | None:
        data = gzip.compress(text.encode("utf-8"), mtime=0)
        info = {"file": f"trees/{game}.json.gz", "bytes": len(data)}
        if len(data) > TREE_LIMIT:
            return {**info, "file": None, "skipped": f"{len(data)} bytes gzipped, above {TREE_LIMIT}"}
        if trees is not None:
            trees.mkdir(parents=True, exist_ok=True)
            write_atomic(trees / f"{game}.json.gz", data)
        return info

    def game_value_row(self, rules: Rules) -> dict:
        game = game_id(rules)
        row = self._new_row(rules, "game-values")
        # the column generation stops itself at the cap; the grace covers its last LP
        data = self._run(game_value_part, (game, self.jobs, self.max_seconds), grace=GAME_VALUE_GRACE)
        if data is None or data.get("stopped"):
            row.update(
                status="open",
                reason=f"not proven within {self._cap()}",
                literature="open",
                published=None,
                seconds=None if data is None else round(data["seconds"], 3),
                cpu_seconds=None if data is None else round(data["cpu_seconds"], 3),
            )
            if data is not None:  # what the stopped run proved: the value lies between these
                row["bounds"] = {
                    "lower": data["lower_bound_fraction"],  # None where a float LP gave it
                    "lower_decimal": round(data["lower_bound"], 6),
                    "upper_decimal": None if data["upper_bound"] is None else round(data["upper_bound"], 6),
                    "iterations": data["iterations"],
                }
            return row
        value = Fraction(data["value_numerator"], data["value_denominator"])
        uniform = Fraction(data["uniform_total"], rules.n_codes)
        row.update(
            status="proven" if data["proven"] else "bounds",
            value=_fraction(value),
            value_decimal=round(float(value), 6),
            uniform_total=data["uniform_total"],
            uniform_average=_fraction(uniform),
            uniform_optimal=value == uniform,
            maker=[
                {
                    "pattern": m["pattern"],
                    "codes": m["codes"],
                    "example": m["example"],
                    "class_probability": m["probability_fraction"],
                    "per_code": m["per_code_fraction"],
                }
                for m in data["maker"]
            ],
            maker_support=[m["pattern"] for m in data["maker"] if m["probability_fraction"] != "0"],
            breaker_mix_size=len(data["breaker"]),
            breaker_first_guesses=data["breaker_first_guesses"],
            iterations=data["iterations"],
            seconds=round(data["seconds"], 3),
            cpu_seconds=round(data["cpu_seconds"], 3),
        )
        row["value_unreduced"] = _unreduced(value, row["maker"])
        row.update(literature(row))
        return row


def _search_bounds(bounds: dict, search: dict) -> dict:
    """The open row's bounds improved by a stopped search: its proven lower bound and the
    best strategy it found, where they beat the lookahead bound and the heuristics."""
    found = {
        "search": {
            key: search.get(key)
            for key in (
                "lower_total",
                "upper_total",
                "upper_worst",
                "units",
                "reused_units",
                "seconds",
                "checkpoint_seconds",
            )
        }
    }
    lower = search.get("lower_total")
    if lower is not None and lower > bounds.get("lower_total", -1):
        found.update(lower_total=lower, lower_source="search")
    upper = search.get("upper_total")
    if upper is not None and upper < bounds.get("upper_total", upper + 1):
        found.update(upper_total=upper, upper_worst=search["upper_worst"], upper_source="search")
    return found


def _unreduced(value: Fraction, maker: list[dict]) -> str:
    """The value over the number of codes the maker uses when he mixes them uniformly
    (5600/1290 for p4c6), else the reduced fraction."""
    per_code = {Fraction(m["per_code"]) for m in maker if m["per_code"] != "0"}
    if len(per_code) == 1:
        support = sum(m["codes"] for m in maker if m["per_code"] != "0")
        return f"{value * support}/{support}" if (value * support).denominator == 1 else _fraction(value)
    return _fraction(value)


# ---- files -------------------------------------------------------------------------------------


def _sort_key(row: dict) -> tuple:
    return (not row["repetition"], row["pegs"], row["colours"])


def read_rows(path: Path, fmt: str) -> list[dict]:
    """The rows of a results JSON file (none when it does not exist yet)."""
    if not path.exists():
        return []
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise MastermindError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != fmt or not isinstance(data.get("rows"), list):
        raise MastermindError(f"{path} is not a {fmt} file")
    if data.get("version") != FILE_VERSION:
        raise MastermindError(f"{path}: version {data.get('version')!r}, this tool writes {FILE_VERSION}")
    for i, row in enumerate(data["rows"]):
        if not (isinstance(row, dict) and ROW_KEYS <= row.keys()):
            raise MastermindError(
                f"{path}: row {i + 1} is not a row of this table (needs {', '.join(sorted(ROW_KEYS))})"
            )
    return data["rows"]


ROW_KEYS = {"game", "pegs", "colours", "repetition", "status"}  # what merging and sorting read


def merge_rows(old: Sequence[dict], new: Sequence[dict]) -> list[dict]:
    """``old`` with the rows of the games in ``new`` replaced or added, in table order; a
    proven row is kept against a new one that is not (a shorter cap, an interrupted run)."""
    rows = {r["game"]: r for r in old}
    for r in new:
        kept = rows.get(r["game"])
        if kept is None or r["status"] == "proven" or kept["status"] != "proven":
            rows[r["game"]] = r
    return sorted(rows.values(), key=_sort_key)


def write_tables(out: Path, fmt: str, rows: Sequence[dict]) -> None:
    """``rows`` (all of them, merged) as JSON and markdown."""
    stem = STEMS[fmt]
    rows = [{**row, **literature(row)} for row in rows]
    doc = {"format": fmt, "version": FILE_VERSION, "rows": rows}
    write_atomic(out / f"{stem}.json", json.dumps(doc, indent=1) + "\n")
    render = render_optimal if fmt == OPTIMAL_FORMAT else render_game_values
    write_atomic(out / f"{stem}.md", render(rows))


def merge_into(out: Path, fmt: str, new_rows: Sequence[dict]) -> list[dict]:
    stem = STEMS[fmt]
    rows = merge_rows(read_rows(out / f"{stem}.json", fmt), new_rows)
    write_tables(out, fmt, rows)
    return rows


# ---- markdown ----------------------------------------------------------------------------------


def _repetition(row: dict) -> str:
    return "yes" if row["repetition"] else "no"


def _seconds(row: dict) -> str:
    s, cpu = row.get("seconds"), row.get("cpu_seconds")
    if s is None:
        return ""
    if "search_seconds" in row:  # proven by a checkpointed search, maybe over several runs
        total = row["search_seconds"]
        if total is None:
            return f"{s:.1f} this run; earlier runs untimed"
        return f"{total:.1f} searching over all runs; {s:.1f} this run"
    return f"{s:.1f}" if cpu is None else f"{s:.1f} ({cpu:.1f})"


def _published_cell(row: dict) -> str:
    refs = row.get("published") or []
    if refs:
        return "; ".join(f"{r['quantity']} {r['value']} ({r['source']})" for r in refs)
    return row.get("literature_note", "") if row.get("literature") == NOT_TRANSCRIBED else ""


def render_optimal(rows: Sequence[dict]) -> str:
    proven = [r for r in rows if r["status"] == "proven"]
    open_rows = [r for r in rows if r["status"] != "proven"]
    lines = [
        "# Optimal Mastermind strategies",
        "",
        "Every number in the computed columns was proven by this tool (`mastermind results`); the",
        "*published* column only quotes the literature, and *status* says whether the tool",
        "agrees, or that the value is new (no published value found), or that the game lies in",
        "the range of a paper whose values are not transcribed here.",
        "",
        "- **total**: fewest guesses summed over all secrets (each secret equally likely);",
        "  **average** = total / codes.",
        "- **worst**: the worst case of that optimal strategy: the smallest among total-optimal",
        "  strategies, except where marked `*` (the tie-break did not finish within the cap).",
        "- **opt. worst**: the optimal worst case; **total at opt. worst**: the best total among",
        "  strategies with that worst case.",
        "- **best first guesses**: every canonical first guess that reaches the optimal total.",
        "- **histogram**: secrets solved with 1, 2, 3, ... guesses.",
        "- **s**: wall seconds of the whole row (CPU seconds in brackets; `jobs` threads) on a",
        "  shared 2-core machine, so wall times vary with its load; trees: `trees/GAME.json.gz`.",
        "",
        (
            "| game | pegs | colours | repetition | codes | total | average | worst | opt. worst "
            "| total at opt. worst | best first guesses | histogram | published | status | s | jobs |"
        ),
        "|---|---:|---:|---|---:|---:|---|---:|---:|---:|---|---|---|---|---:|---:|",
    ]
    for r in proven:
        worst = f"{r['worst']}" + ("" if r.get("tie_broken") else "*")
        late = "past the cap"
        ow = late if r.get("optimal_worst") is None else str(r["optimal_worst"])
        wt = late if r.get("worst_total") is None else str(r["worst_total"])
        avg = f"{r['total']}/{r['codes']} = {r['average']:.4f}"
        lines.append(
            f"| {r['game']} | {r['pegs']} | {r['colours']} | {_repetition(r)} | {r['codes']} | {r['total']} "
            f"| {avg} | {worst} | {ow} | {wt} | {_first_guesses(r)} "
            f"| {' '.join(map(str, r['histogram']))} | {_published_cell(r)} | {r['literature']} "
            f"| {_seconds(r)} | {r['jobs']} |"
        )
    if open_rows:
        lines += [
            "",
            "## Open games",
            "",
            "Not proven by this tool yet. *lower*: proven lower bounds (lookahead bounds of",
            "`mastermind bounds`, or `(search)`: proven by the stopped checkpointed search);",
            "*upper*: the total and worst case of a strategy played on every secret (a strategy that",
            "exists, not the optimum): the best heuristic, or `(search)`, the best strategy the",
            "stopped search found. A frontier game's checkpoint is kept in `checkpoints/GAME/` where",
            "it is small enough: the command in its JSON entry continues the search from it.",
            "",
            (
                "| game | pegs | colours | repetition | codes | total lower | total upper "
                "| worst lower | worst upper | why open | s |"
            ),
            "|---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|",
        ]
        for r in open_rows:
            b = r.get("bounds") or {}
            source = b.get("upper_source", b.get("heuristic"))
            upper = f"{b['upper_total']} ({source})" if "upper_total" in b else ""
            lower = ""  # (none when the bounds did not finish within the cap)
            if "lower_total" in b:
                lower = f"{b['lower_total']}" + (" (search)" if b.get("lower_source") == "search" else "")
            lines.append(
                f"| {r['game']} | {r['pegs']} | {r['colours']} | {_repetition(r)} | {r['codes']} "
                f"| {lower} | {upper} | {b.get('lower_worst', '')} "
                f"| {b.get('upper_worst', '')} | {_why_open(r)} | {_seconds(r)} |"
            )
    skipped = [r for r in proven if r.get("tree") and r["tree"].get("skipped")]
    if skipped:
        lines += [
            "",
            "Trees left out (too large): "
            + ", ".join(f"{r['game']} ({r['tree']['skipped']})" for r in skipped)
            + ".",
        ]
    lines += _reproduce(rows)
    return "\n".join(lines) + "\n"


def _first_guesses(row: dict) -> str:
    text = " ".join(row["best_first_guesses"])
    # a checkpointed run proves the optimum through one first guess, not every one reaching it
    return text if row.get("first_guesses_complete", True) else f"{text} (others not searched)"


def _reproduce(rows: Sequence[dict]) -> list[str]:
    if not rows:
        return []
    versions = sorted({r["version"] for r in rows if r.get("version")})
    return [
        "",
        f"Reproduce a row with the command in its JSON entry, e.g. `{rows[0]['command']}`",
        f"(tool version{'s' if len(versions) > 1 else ''} {', '.join(versions)}).",
    ]


def render_game_values(rows: Sequence[dict]) -> str:
    lines = [
        "# Game values of Mastermind",
        "",
        "The code maker picks the secret with probabilities of his choice, the code breaker may",
        "randomise over strategies; the value is the expected number of guesses when both play",
        "optimally, proven exactly by `mastermind game-value` (column generation with a rational",
        "certificate). The maker's mix is equal within a class of codes (a colour pattern);",
        "*uniform optimal* says whether the uniformly random secret is an optimal mix (value =",
        "optimal average; the mix shown may then be another optimal one). *value* is written over",
        "the number of codes the maker uses when he mixes them uniformly (5600/1290), else reduced.",
        "*breaker mix*: trees in the breaker's optimal mix, each played under",
        "a random colour and position permutation. *s*: wall seconds (CPU seconds in brackets)",
        "on a shared 2-core machine. An open row gives, as its decimal, the interval its run proved",
        "before the time cap stopped it (the maker's and the breaker's best mixes so far).",
        "",
        (
            "| game | codes | value | decimal | uniform average | uniform optimal | maker's mix "
            "(class: probability) | breaker mix | published | status | s | jobs |"
        ),
        "|---|---:|---|---:|---|---|---|---:|---|---|---:|---:|",
    ]
    for r in rows:
        if r["status"] != "proven":
            lines.append(
                f"| {r['game']} | {r['codes']} | open | {_value_bounds(r)} | | | {_why_open(r)} "
                f"| | | {r.get('literature', 'open')} | {_seconds(r)} | {r['jobs']} |"
            )
            continue
        mix = ", ".join(f"{m['pattern']}: {m['class_probability']}" for m in r["maker"])
        lines.append(
            f"| {r['game']} | {r['codes']} | {r['value_unreduced']} | {r['value_decimal']:.6f} "
            f"| {r['uniform_total']}/{r['codes']} | {'yes' if r['uniform_optimal'] else 'no'} | {mix} "
            f"| {r['breaker_mix_size']} | {_published_cell(r)} | {r['literature']} | {_seconds(r)} "
            f"| {r['jobs']} |"
        )
    lines += _reproduce(rows)
    return "\n".join(lines) + "\n"


# ---- the whole run -----------------------------------------------------------------------------


def run_tables(
    out: Path,
    *,
    tables: Sequence[str],
    games: Sequence[str] | None,
    max_seconds: float | None,
    jobs: int,
    solve_options: dict | None = None,
    checkpoint: Path | None = None,
    report: Callable[[str], None] = lambda line: None,
) -> dict[str, list[dict]]:
    """Compute the rows of ``tables`` ("optimal", "game-values") for ``games`` (default: each
    table's scope, smallest first) and merge each into the files as soon as it is done.
    ``checkpoint``: a folder where the frontier games' searches keep their work (one
    subfolder per game), so that a later run continues them."""
    if not out.is_dir():
        raise MastermindError(f"--out {out} is not a folder")
    for fmt, name in STEMS.items():  # files that could not be merged into or written: refused before the work
        if name in tables:
            read_rows(out / f"{name}.json", fmt)
            for suffix in (".json", ".md"):
                check_writable(out / f"{name}{suffix}")
    done: dict[str, list[dict]] = {t: [] for t in tables}
    working = "starting"
    try:
        with Runner(
            max_seconds=max_seconds, jobs=jobs, solve_options=solve_options, checkpoint=checkpoint
        ) as runner:
            runner.warm_up()
            if "optimal" in tables:
                chosen = scope_rules(games if games is not None else OPTIMAL_SCOPE + FRONTIER)
                for rules in chosen:
                    working = f"{game_id(rules)} (optimal)"
                    row = runner.optimal_row(rules, out / "trees")
                    kept = merge_into(out, OPTIMAL_FORMAT, [row])
                    done["optimal"].append(row)
                    report(_optimal_line(row) + _kept_note(row, kept))
            if "game-values" in tables:
                for rules in scope_rules(games if games is not None else GAME_VALUE_SCOPE):
                    working = f"{game_id(rules)} (game value)"
                    row = runner.game_value_row(rules)
                    kept = merge_into(out, GAME_VALUE_FORMAT, [row])
                    done["game-values"].append(row)
                    report(_game_value_line(row) + _kept_note(row, kept))
    except KeyboardInterrupt:
        raise TablesInterrupted(done, working) from None
    return done


class TablesInterrupted(KeyboardInterrupt):
    """Ctrl-C in :func:`run_tables`: the rows finished (already in the files) and the game
    it was working on."""

    def __init__(self, done: dict[str, list[dict]], working: str) -> None:
        super().__init__(working)
        self.done, self.working = done, working


def _kept_note(row: dict, rows: Sequence[dict]) -> str:
    """What the file says of the game when it kept an earlier proven row over this one."""
    if row["status"] == "proven" or not any(r is not row and r["game"] == row["game"] for r in rows):
        return ""
    return "; the proven row already in the file is kept"


def _optimal_line(row: dict) -> str:
    if row["status"] != "proven":
        b = row.get("bounds") or {}
        return (
            f"{row['game']}: open ({row['reason']}); total in [{b.get('lower_total', '?')}, "
            f"{b.get('upper_total', '?')}]"
        )
    return (
        f"{row['game']}: total {row['total']} (avg {row['average']:.4f}), worst {row['worst']}, "
        f"optimal worst {row['optimal_worst']} with total {row['worst_total']}, first "
        f"{' '.join(row['best_first_guesses'])}; {row['literature']}; {row['seconds']:.1f} s"
    )


def _why_open(row: dict) -> str:
    """Why a row is open, and whether the published values lie within its bounds."""
    return row.get("literature_note") or row.get("reason", "")


def _value_bounds(row: dict) -> str:
    """Where an open game value lies, as far as a stopped run proved ("" if it proved nothing)."""
    b = row.get("bounds")
    if not b:
        return ""
    upper = "" if b.get("upper_decimal") is None else f"{b['upper_decimal']:.6f}"
    return f"[{b['lower_decimal']:.6f}, {upper or '?'}]"


def _game_value_line(row: dict) -> str:
    if row["status"] != "proven":
        inside = _value_bounds(row)
        return f"{row['game']}: game value open ({row['reason']})" + (f"; in {inside}" if inside else "")
    return (
        f"{row['game']}: game value {row['value_unreduced']} = {row['value_decimal']:.6f}, uniform "
        f"{'optimal' if row['uniform_optimal'] else 'not optimal'}, breaker mix "
        f"{row['breaker_mix_size']}; {row['literature']}; {row['seconds']:.1f} s"
    )
