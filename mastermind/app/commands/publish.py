"""``results``: recompute rows of the published tables in results/ and merge them into the files."""

import time
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    DEFAULT_ROW_SECONDS,
    CheckpointOpt,
    GamesOpt,
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    ProgressOpt,
    RowTimeLimitOpt,
    TimeLimitOpt,
    choice,
    command,
    cores,
    fail,
    memory_limit_bytes,
    out_option,
    parse_games,
    plural,
    print_json,
    stopped_text,
    wrote,
)
from mastermind.app.documents import TABLES
from mastermind.core.cancel import StopReason
from mastermind.core.errors import MastermindError, naming

HELP = (
    "Recompute the tables of proven optima and game values (results/optimal.md and .json, "
    "results/game-values.md and .json, results/black-peg.md and .json for black-peg games, "
    "strategy trees) for some games or all of them, "
    "merging the new rows into the existing files."
)


def register(app: typer.Typer) -> None:
    command(app, "results", help=HELP)(results)


TableOpt = Annotated[
    Optional[str],
    typer.Option(
        "--table",
        metavar="|".join(TABLES),
        callback=choice(TABLES),
        help="Only this table (default: every table; a game goes to the tables of its variant).",
        show_default=False,
    ),
]


def results(
    out: Annotated[str, out_option("Folder of the tables (created if missing).", metavar="DIR")] = "results",
    games: GamesOpt = None,
    table: TableOpt = None,
    row_time_limit: RowTimeLimitOpt = DEFAULT_ROW_SECONDS,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    checkpoint: CheckpointOpt = None,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    """Without --games: the whole scope of each table. A row past --row-time-limit is open
    with the bounds proven (and gets as long again for its quick bounds); with --checkpoint
    the frontier games (4x9, 5x6, ...) run the checkpointed search, one subfolder per game,
    and the same command run again continues them."""
    from pathlib import Path

    from mastermind.app.publishing import TablesStopped, TablesUnwritten, run_tables
    from mastermind.app.publishing.scope import check_table_games
    from mastermind.core.progress import progress_bar, progress_mode

    start = time.perf_counter()
    chosen = parse_games(games) if games is not None else None
    check_table_games(chosen or (), table)  # (each game in a table of its variant)
    limit = memory_limit_bytes(memory_limit)
    store = _check_places(out, checkpoint)
    folder = Path(out)  # (made by run_tables once nothing refuses the run)

    def say(line: str) -> None:
        if not json_output:
            typer.echo(line)

    stopped, bounds, unwritten, error = None, None, None, None
    with progress_bar(progress_mode(progress, json_output)) as bar:
        try:
            done = run_tables(
                folder,
                tables=TABLES if table is None else (table,),
                games=chosen,
                row_time_limit=row_time_limit,
                time_limit=time_limit,
                jobs=cores(jobs),
                checkpoint=store,
                memory_limit=limit,
                out_text=out,
                progress=bar,
                report=say,
            )
        except TablesStopped as stop:  # the rows finished are in the files: say which
            done, stopped, working, kept = stop.done, stop.why, stop.working, stop.kept
            bounds = stop.bounds
        except TablesUnwritten as failed:  # the rows before it are in the files; this one is
            done, unwritten, error = failed.done, failed.row, failed.error  # reported alone
    data = {
        "out": out,
        "tables": done,
        "unwritten": unwritten,
        "stopped": stopped,
        "kept": bounds,  # (what a row's checkpointed search stopped by Ctrl-C kept for the next run)
        "seconds": round(time.perf_counter() - start, 3),
    }
    if json_output:
        print_json(data)
    else:  # (the tables a row went into: each as JSON and markdown, its trees beside them)
        for name, rows in done.items():
            if rows:
                say(wrote(f"{plural(len(rows), 'row')} of the {name} table", f"{folder / name}.json and .md"))
    if error is not None:
        _fail_unwritten(error, unwritten)
    if stopped:
        written = sum(len(r) for r in done.values())
        if not json_output:  # (with --json, its "stopped" and "kept" say it)
            typer.echo(
                f"{stopped_text(stopped)} {working}: {plural(written, 'row')} written"
                + ("" if kept is None else f"; {kept}"),
                err=True,
            )
        if stopped == StopReason.INTERRUPTED:
            raise typer.Exit(130)


def _check_places(out: str, checkpoint: str | None):
    """``--out`` a folder's name and ``--checkpoint`` a folder (checked: None if not given)."""
    from mastermind.engines.exact import CheckpointFileError, check_folder

    if not out:
        raise MastermindError("--out: empty: give a folder, e.g. results/")
    if out == "-":  # (elsewhere standard output; the tables are files in a folder)
        raise MastermindError("--out: - would be a folder named '-': give a folder, e.g. results/")
    if checkpoint is None:
        return None
    with naming("--checkpoint", CheckpointFileError):
        return check_folder(checkpoint)


def _fail_unwritten(error, unwritten: dict | None) -> None:
    """A row that could not be written: one line, and the exit code of a failure."""
    assert unwritten is not None
    kept_search = "--checkpoint" in unwritten["command"]  # (its search used the checkpoint)
    fail(
        f"{error}; the row of {unwritten['game']} was not written, the files are left as they were"
        + ("; its search is kept in its checkpoint, and this command continues it" if kept_search else "")
    )
