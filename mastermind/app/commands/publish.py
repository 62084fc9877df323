"""``results``: recompute rows of the published tables in results/ and merge them into the files.

No ``from __future__ import annotations`` here: typer reads the option annotations at run
time and they must be objects.
"""

from typing import Annotated

import typer

from mastermind.app.commands.common import (
    MAX_THREADS,
    one_line_errors,
    plural,
    print_json,
    seconds_option,
    whole_range,
)
from mastermind.app.helpstyle import Command
from mastermind.core.errors import MastermindError

TABLES = ("optimal", "game-values")
HELP = (
    "Recompute the tables of proven optima and game values (results/optimal.md and .json, "
    "results/game-values.md and .json, strategy trees) for some games or all of them, "
    "merging the new rows into the existing files."
)

OutOpt = Annotated[str, typer.Option("--out", "-o", help="Folder of the tables (created if missing).")]
GamesOpt = Annotated[
    str | None,
    typer.Option(
        "--games",
        help="Comma-separated games, e.g. p4c6,p3c5n (default: the whole scope of each table).",
        show_default=False,
    ),
]
TableOpt = Annotated[
    str | None,
    typer.Option(
        "--table", help="Only this table: optimal or game-values (default: both).", show_default=False
    ),
]
MaxSecondsOpt = Annotated[
    float,
    seconds_option(
        "--max-seconds",
        help="Time cap of each piece of work of a game; an optimum past it becomes an open row with bounds.",
    ),
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        callback=whole_range(0, MAX_THREADS),
        help="Threads of each solver run (0: all cores).",
    ),
]
CheckpointOpt = Annotated[
    str | None,
    typer.Option(
        "--checkpoint",
        help=(
            "Folder where the frontier games (4x9, 5x6, ...) run the checkpointed search, one "
            "subfolder per game, each stopped at --max-seconds with its proven bounds; the same "
            "command run again continues them."
        ),
        show_default=False,
    ),
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print the new rows as one JSON document instead of one line per game.")
]


def register(app: typer.Typer) -> None:
    app.command("results", cls=Command, help=HELP)(results)


def results(
    out: OutOpt = "results",
    games: GamesOpt = None,
    table: TableOpt = None,
    max_seconds: MaxSecondsOpt = 600.0,
    jobs: JobsOpt = 1,
    checkpoint: CheckpointOpt = None,
    json_output: JsonOpt = False,
) -> None:
    from pathlib import Path

    from mastermind.app.publishing import TablesInterrupted, parse_games, run_tables
    from mastermind.engines.exact.checkpoint import check_folder

    with one_line_errors():
        if table is not None and table not in TABLES:
            raise MastermindError(f"--table must be one of {', '.join(TABLES)}, got {table!r}")
        chosen = parse_games(games) if games is not None else None
        if not out:
            raise MastermindError("--out is empty: give a folder, e.g. results/")
        if out == "-":  # (elsewhere standard output; the tables are files in a folder)
            raise MastermindError("--out - would be a folder named '-': give a folder, e.g. results/")
        folder = Path(out)
        if folder.exists() and not folder.is_dir():
            raise MastermindError(f"--out {out} is not a folder")
        store = None if checkpoint is None else check_folder(checkpoint)  # before making --out
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise MastermindError(f"--out {out}: cannot create the folder ({exc.strerror})") from None

        def say(line: str) -> None:
            if not json_output:
                typer.echo(line)

        stopped = None
        try:
            done = run_tables(
                folder,
                tables=TABLES if table is None else (table,),
                games=chosen,
                max_seconds=max_seconds,
                jobs=-1 if jobs == 0 else jobs,
                checkpoint=store,
                report=say,
            )
        except TablesInterrupted as stop:  # the rows finished are in the files: say which
            done, stopped = stop.done, f"interrupted during {stop.working}"
    if json_output:
        print_json({**done, "stopped": stopped} if stopped else done)
    if stopped:
        rows = sum(len(r) for r in done.values())
        typer.echo(f"{stopped}: {plural(rows, 'row')} finished and written", err=True)
        raise typer.Exit(130)
