"""``table``: Knuth's algorithm for many games against lower bounds and the optimum."""

import time
from typing import TYPE_CHECKING

import typer

from mastermind.app.commands.common import (
    DEFAULT_ROW_SECONDS,
    GamesOpt,
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    ProgressOpt,
    RowTimeLimitOpt,
    TimeLimitOpt,
    command,
    command_work,
    cores,
    echo_blocks,
    exit_if_interrupted,
    floor_decimal,
    fraction,
    memory_limit_bytes,
    parse_games,
    print_json,
    stopped_text,
)
from mastermind.core.game import Rules
from mastermind.core.progress import progress_bar, progress_mode

if TYPE_CHECKING:
    from mastermind.app.comparisons import TableRow
    from mastermind.engines.workers import RowTime


def register(app: typer.Typer) -> None:
    command(
        app,
        "table",
        help="Knuth's algorithm for many games against lower bounds and the optimum "
        "(markdown; --json for rows).",
    )(table)


DEFAULT_TABLE_GAMES = "p2-4c2-6"


TABLE_HEADERS = [
    "pegs",
    "colours",
    "repetition",
    "codes",
    "answers",
    "Knuth first guess",
    "largest class",
    "Knuth worst",
    "Knuth total",
    "crude bound",
    "worst lower bound",
    "optimal worst",
    "optimal total",
    "optimal average",
]


def table(
    games: GamesOpt = None,
    time_limit: TimeLimitOpt = None,
    row_time_limit: RowTimeLimitOpt = DEFAULT_ROW_SECONDS,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.app.comparisons import knuth_table_row
    from mastermind.app.publishing.tables import check_fits_all
    from mastermind.engines.workers import TimedWorker, run_rows

    start = time.perf_counter()
    limit = memory_limit_bytes(memory_limit)
    chosen = [Rules.parse(g) for g in parse_games(games or [DEFAULT_TABLE_GAMES])]
    # refuse sizes beyond memory before any work: tables, searches (in a child beside this)
    check_fits_all(chosen, limit, cores(jobs), parent_plays=True)
    with (
        progress_bar(progress_mode(progress, json_output)) as bar,
        TimedWorker() as worker,
        command_work(time_limit) as token,
    ):
        bar.start(len(chosen), "table")

        def row(rules: Rules, clock: "RowTime") -> "TableRow":
            return knuth_table_row(
                rules, worker, token=clock.token, run=clock.run, memory_limit=limit, jobs=cores(jobs)
            )

        # (a row cut by the command's time limit stops the table, unless it proved its cells;
        # the bar steps once the row is kept: Ctrl-C at the step lost the row)
        run = run_rows(
            chosen,
            row,
            token=token,
            row_time_limit=row_time_limit,
            worker=worker,
            finished=_proven,
            kept=lambda done: bar.advance(1),
        )
    rows, stopped = run.rows, run.stopped
    unfinished = [str(r) for r in chosen[len(rows) :]]
    data = {
        "games": [str(r) for r in chosen],
        "row_time_limit": row_time_limit,
        "rows": [r.to_dict() for r in rows],
        "unfinished": unfinished,
        "proven": not unfinished and all(r.proven for r in rows),
        "stopped": stopped,
        "seconds": round(time.perf_counter() - start, 3),
    }
    if json_output:
        print_json(data)
        exit_if_interrupted(stopped)
        return
    open_cells = [r["rules"] for r in data["rows"] if not r["proven"]]
    echo_blocks(
        markdown_table(data["rows"]) if rows else None,
        "not proven within the row's time (bounds shown as >=): " + ", ".join(open_cells)
        if open_cells
        else None,
        f"{stopped_text(stopped)}, not computed: " + (", ".join(unfinished) or "none") if stopped else None,
    )
    exit_if_interrupted(stopped)


def _proven(row: "TableRow") -> bool:
    return row.proven


def markdown_table(rows: list[dict]) -> str:
    """The rows as a markdown table; unproven optimum cells show the lower bound as ``>= b``;
    a column of variants where some game is not the standard one."""
    variants = [d["variant"] for d in rows]
    shown = any(v != "standard" for v in variants)
    headers = TABLE_HEADERS[:3] + ["variant"] * shown + TABLE_HEADERS[3:]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---:" for _ in headers) + "|"]
    for d, variant in zip(rows, variants):
        worst = str(d["optimal_worst"]) if d["optimal_worst"] is not None else f">= {d['worst_lower_bound']}"
        if d["optimal_total"] is not None:
            total, avg = str(d["optimal_total"]), f"{d['optimal_average']:.4f}"
        else:
            total = f">= {d['total_lower_bound']}"
            avg = f">= {floor_decimal(fraction(d['total_lower_bound'], d['codes']))}"
        cells = [
            d["pegs"],
            d["colours"],
            "yes" if d["repetition"] else "no",
            *[variant] * shown,
            d["codes"],
            d["answers"],
            d["knuth_first_guess"],
            d["knuth_largest_class"],
            d["knuth_worst"],
            d["knuth_total"],
            d["crude_worst_lower_bound"],
            d["worst_lower_bound"],
            worst,
            total,
            avg,
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)
