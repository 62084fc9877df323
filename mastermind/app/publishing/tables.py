"""The whole run of ``mastermind results``: every row of the tables asked for, each merged into
the files as soon as it is done (so that a stopped run keeps the rows it finished)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from pathlib import Path

from mastermind.app.publishing.files import (
    BLACK_PEG,
    EARLIER_KEPT,
    FORMATS,
    GAME_VALUE_FORMAT,
    GAME_VALUES,
    OPTIMAL,
    OPTIMAL_FORMAT,
    STEMS,
    combined,
    game_value_proof_stem,
    merge_rows,
    proof_stem,
    read_rows,
    row_order,
    tree_stems,
    worst_proof_stem,
    write_tables,
)
from mastermind.app.publishing.literature import literature
from mastermind.app.publishing.markdown import _value_bounds
from mastermind.app.publishing.runner import Runner, SearchStopped
from mastermind.app.publishing.scope import (
    BLACK_PEG_SCOPE,
    FRONTIER,
    GAME_VALUE_SCOPE,
    OPTIMAL_SCOPE,
    TABLE_VARIANTS,
    game_id,
    scope_rules,
)
from mastermind.app.publishing.written_proofs import with_written_proofs
from mastermind.core.cancel import INTERRUPTED, Stopped
from mastermind.core.errors import MastermindError, naming
from mastermind.core.fileio import check_writable, folder_lock, staged_move, staged_write
from mastermind.core.game import DEFAULT_MEMORY_LIMIT, CodeTable, Rules
from mastermind.engines.workers import Rows, RowTime, run_rows

OPTIMAL_ROWS = (OPTIMAL, BLACK_PEG)
"""The tables of optimal rows (strategy trees and proofs beside them)."""


class TablesStopped(Exception):
    """The run stopped (Ctrl-C, or its time limit) before every row: the rows finished
    (already in the files), why, and where it was (``working``: "during p4c6 (optimal)",
    "between rows" ...)."""

    def __init__(
        self,
        done: dict[str, list[dict]],
        working: str,
        why: str,
        kept: str | None = None,
        bounds: dict | None = None,
    ) -> None:
        super().__init__(working)
        self.done, self.working, self.why = in_table_order(done), working, why
        # what the stopped row's checkpointed search kept, as a phrase and as data (see SearchStopped)
        self.kept, self.bounds = kept, bounds


class TablesUnwritten(Exception):
    """A row was computed but could not go into the files (a full disk, a file size limit):
    the rows finished before it (in the files), that row as the files would have kept it,
    and why (a :class:`MastermindError` said of ``--out``)."""

    def __init__(self, done: dict[str, list[dict]], row: dict, error: MastermindError) -> None:
        super().__init__(str(error))
        self.done, self.row, self.error = in_table_order(done), row, error


def run_tables(
    out: Path,
    *,
    tables: Sequence[str],
    games: Sequence[str] | None,
    row_time_limit: float | None,
    jobs: int,
    solve_options: dict | None = None,
    checkpoint: Path | None = None,
    time_limit: float | None = None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    out_text: str | None = None,
    progress=None,
    report: Callable[[str], None] = lambda line: None,
) -> dict[str, list[dict]]:
    """Compute the rows of ``tables`` ("optimal", "game-values", "black-peg") for ``games``
    (each table those of its variant; default: each table's scope, smallest first) and merge
    each into the files as soon as it is done.
    ``checkpoint``: a folder where the frontier games' searches keep their work (one
    subfolder per game), so that a later run continues them. Stopped by Ctrl-C or by
    ``time_limit`` (seconds, the whole run: in a command, counted from the command's start), it raises
    :class:`TablesStopped`.

    ``out`` is made if missing, once nothing else refuses the run: games that cannot fit in
    ``memory_limit``, files that cannot be merged into or written, a checkpoint folder that
    cannot be used: a refused run leaves no empty folder behind."""
    from mastermind.app.interrupts import command_work

    work = planned_work(tables, games)
    named = out_text or str(out)  # (as the user typed it)
    _refuse_before_work(out, named, tables, work, checkpoint, memory_limit, jobs)
    made = _make_folders(out, named, tables, work)
    done: dict[str, list[dict]] = {t: [] for t in tables}
    if progress is not None:
        progress.start(len(work), "results")
    run: Rows | None = None  # (None: still starting; else the rows, as the runner closes)
    try:
        with (
            command_work(time_limit) as token,
            Runner(
                row_time_limit=row_time_limit,
                jobs=jobs,
                solve_options=solve_options,
                checkpoint=checkpoint,
                out=named,
                memory_limit=memory_limit,
                token=token,
            ) as runner,
        ):
            runner.warm_up()

            def row(item: tuple[str, Rules], clock: RowTime) -> tuple[tuple[str, Rules], bool]:
                table, rules = item
                _, cut = _table_row(out, runner, table, rules, clock, done, report)
                if progress is not None:
                    progress.advance(1)
                return item, cut

            run = run_rows(
                work,
                row,
                token=token,
                row_time_limit=row_time_limit,
                worker=runner.worker,
                finished=lambda done_row: not done_row[1],
            )
    except KeyboardInterrupt:  # in the warm-up, or as the runner closed after the rows
        if run is None:
            run = Rows(stopped=INTERRUPTED, interrupt=KeyboardInterrupt())
        elif run.stopped is None:  # (every row done and written: only the closing stopped)
            run = Rows(run.rows, INTERRUPTED, None, KeyboardInterrupt(), closing=True)
    finally:
        for folder in made:  # stopped before any tree (or none written), or before any row
            if any(folder.iterdir()):
                break
            folder.rmdir()
    return _outcome(run, done)


def _row_name(table: str, rules: Rules) -> str:
    """A row as the stop's line names it: ``p4c6 (optimal)``, ``p4c6 (game value)``."""
    return f"{game_id(rules)} ({'game value' if table == GAME_VALUES else 'optimal'})"


def _outcome(run: Rows, done: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The rows of every table when the run ended; else :class:`TablesStopped`, saying where
    the run was: during the row under way, before the next one (stopped between rows), during
    the last row written (cut short: written with what it proved), or while it started."""
    if run.stopped is None:
        return in_table_order(done)
    if run.closing:
        where = "after the last row, as the run closed"
    elif run.at is not None:
        where = f"{'during' if run.begun else 'before'} {_row_name(*run.at)}"
    elif run.rows and run.rows[-1][1]:  # (the last row kept, cut short)
        where = f"during {_row_name(*run.rows[-1][0])}, written as far as it got"
    elif run.rows:  # (a Ctrl-C as a row was kept)
        where = "between rows"
    else:
        where = "while starting"
    if isinstance(run.interrupt, SearchStopped):  # (what the row's checkpointed search kept)
        raise TablesStopped(done, where, run.stopped, run.interrupt.kept, run.interrupt.bounds)
    raise TablesStopped(done, where, run.stopped)


def _table_row(
    out: Path,
    runner: Runner,
    table: str,
    rules: Rules,
    clock: RowTime,
    done: dict[str, list[dict]],
    report: Callable[[str], None],
) -> tuple[dict, bool]:
    """One row computed and merged into the files (and into ``done``): the row as the files
    keep it, and whether the run's time limit cut it short (the run then stops after it).
    A row that proved nothing in what was left of the run's time is not written: it raises
    :class:`~mastermind.core.cancel.Stopped`."""
    row = (
        runner.optimal_row(rules, None, clock=clock)
        if table in OPTIMAL_ROWS
        else runner.game_value_row(rules, clock=clock)
    )
    # cut short by the command's --time-limit: stopped, as between rows; and a row that
    # proved nothing in what was left is not written (it would say less than none) (a proven
    # row whose later parts it cut, too: `--time-limit 3` on p4c6 left the optimal worst case
    # unfinished and said nothing had stopped)
    cut = (
        (row["status"] == "open" or bool(row.get("unfinished")) or row.get("first_guesses_complete") is False)
        and runner.cut_by_command
        and runner.token.cancelled
    )
    if cut and row["status"] == "open" and not row.get("bounds"):
        raise Stopped()
    line = _optimal_line(row) if table in OPTIMAL_ROWS else _game_value_line(row)
    try:  # (a file unwritable only now keeps the row's report: see TablesUnwritten)
        with naming("--out"):
            fmt = FORMATS[table] if table in OPTIMAL_ROWS else GAME_VALUE_FORMAT
            kept = _merge_optimal(out, row, runner.trees, fmt)
    except MastermindError as exc:
        report(line + " (not written)")
        raise TablesUnwritten(done, {**row, **literature(row)}, exc) from None
    report(line + _kept_note(row, kept))
    # what the file keeps of the game (the command's output is the file's row)
    stored = next(r for r in kept if r["game"] == row["game"])
    done[table].append({**stored, **literature(stored)})
    return stored, cut


def _refuse_before_work(
    out: Path,
    named: str,
    tables: Sequence[str],
    work: list[tuple[str, Rules]],
    checkpoint: Path | None,
    memory_limit: int,
    jobs: int,
) -> None:
    """What refuses a run before its work (and before its folder is made): games that cannot
    fit in ``memory_limit``, an ``out`` that is no folder, files that cannot be merged into
    or written, a checkpoint folder that cannot be used."""
    check_fits_all((rules for _, rules in work), memory_limit, jobs)
    if (out.exists() or out.is_symlink()) and not out.is_dir():
        raise MastermindError(f"--out: {named} is not a folder")
    # files that could not be merged into or written: refused before the work
    if out.is_dir():
        with naming("--out"):
            for fmt, name in STEMS.items():
                if name in tables:
                    read_rows(out / f"{name}.json", fmt)
                    for suffix in (".json", ".md"):
                        check_writable(out / f"{name}{suffix}")
    if checkpoint is not None:  # (refused before the work, as optimal refuses it, even where
        # no game of the run is searched there)
        from mastermind.engines.exact import CheckpointFileError, make_folder

        with naming("--checkpoint", CheckpointFileError):
            make_folder(checkpoint)
        # what the games' folders hold, which a row reads only as it runs
        _check_checkpoints(checkpoint, [rules for table, rules in work if table in OPTIMAL_ROWS])


def _make_folders(out: Path, named: str, tables: Sequence[str], work: list[tuple[str, Rules]]) -> list[Path]:
    """Make ``out`` and its trees' folder where missing; the folders made, deepest first
    (trees, out and its missing parents: not left behind empty by a run that stops)."""
    made = [d for d in (out, *out.parents) if not (d.exists() or d.is_symlink())]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MastermindError(f"--out: {named}: cannot create the folder ({exc.strerror})") from None
    trees = out / "trees"
    optimal_rows = any(t in OPTIMAL_ROWS for t in tables)  # (its trees go in trees/)
    if optimal_rows and not (trees.exists() or trees.is_symlink()):
        try:  # (its trees' folder, made now rather than once the first row is computed)
            trees.mkdir()
            made.insert(0, trees)
        except OSError as exc:
            raise MastermindError(f"--out: {out}: cannot make the folder {trees}: {exc.strerror}") from None
    if optimal_rows and trees.exists() and not trees.is_dir():
        raise MastermindError(f"--out: {out}: {trees} is not a folder (the trees go there)")
    proofs = out / "proofs"
    if (proofs.exists() or proofs.is_symlink()) and not proofs.is_dir():
        raise MastermindError(f"--out: {out}: {proofs} is not a folder (the proofs go there)")
    if trees.exists() or trees.is_symlink():  # (and a tree that could not be written: it was
        # refused only once its row was computed)
        with naming("--out"):
            for table, rules in work:
                if table in OPTIMAL_ROWS:
                    for stem in tree_stems(game_id(rules)).values():
                        check_writable(trees / f"{stem}.json.gz")
                    if (out / "proofs").is_dir():
                        check_writable(out / "proofs" / f"{proof_stem(game_id(rules))}.json.gz")
                elif (out / "proofs").is_dir():  # (a game value's proof)
                    check_writable(out / "proofs" / f"{game_value_proof_stem(game_id(rules))}.json.gz")
    return made


def planned_work(tables: Sequence[str], games: Sequence[str] | None) -> list[tuple[str, Rules]]:
    """The rows a run computes, in order: (table, rules), each table's scope by default."""
    work = []
    if "optimal" in tables:
        work += [
            ("optimal", r) for r in scope_rules(games if games is not None else OPTIMAL_SCOPE + FRONTIER)
        ]
    if "game-values" in tables:
        work += [("game-values", r) for r in scope_rules(games if games is not None else GAME_VALUE_SCOPE)]
    if "black-peg" in tables:
        work += [("black-peg", r) for r in scope_rules(games if games is not None else BLACK_PEG_SCOPE)]
    # (given games: each table takes those of its variant)
    return [(table, rules) for table, rules in work if rules.variant is TABLE_VARIANTS[table]]


def check_fits_all(
    games: Iterable[Rules], memory_limit: int, jobs: int = 1, *, parent_plays: bool = False
) -> None:
    """Refuse, before any work (and before the folder of the tables is made), a game whose
    table or exact search cannot fit in ``memory_limit`` bytes (a game out of reach said of
    ``--games``, the search's room of ``--memory-limit``: with ``jobs``, in a child process
    beside this one, which holds the game's table too where it ``parent_plays`` on it)."""
    from mastermind.engines.exact import MemoryBudget, parent_bytes

    for rules in games:
        if rules.table_bytes() > memory_limit:
            with naming("--games"):
                CodeTable(rules, memory_limit=memory_limit)
        # (said of --memory-limit, which it names)
        parent = parent_bytes(rules if parent_plays else None)
        MemoryBudget.check(rules, memory_limit, jobs, parent=parent)


def in_table_order(done: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The rows of each table in the order its files give them (they run smallest first)."""
    return {table: sorted(rows, key=row_order) for table, rows in done.items()}


def _merge_optimal(
    out: Path, row: dict, trees: dict[str, bytes | Path], fmt: str = OPTIMAL_FORMAT
) -> list[dict]:
    """Merge an optimal row into the files in ``out``, with its trees (taken from ``trees``,
    keyed by stem: their bytes, or a staged file's path, moved into place); all the rows
    afterwards. The tree goes in only with its row: an open row's best strategy must not
    replace the tree of a proven row the file keeps. Under the folder's lock, as
    :func:`~mastermind.app.publishing.files.merge_into` is."""
    game = row["game"]
    with folder_lock(out), ExitStack() as staged:
        earlier = read_rows(out / f"{STEMS[fmt]}.json", fmt)
        old = next((r for r in earlier if r["game"] == game), None)
        stored = combined(row, old)
        dropped = []
        stems = (
            {"proof": game_value_proof_stem(game)}
            if fmt == GAME_VALUE_FORMAT
            else {**tree_stems(game), "proof": proof_stem(game), "worst_proof": worst_proof_stem(game)}
        )
        for key, stem in stems.items():
            tree, data = row.get(key) or {}, trees.pop(stem, None)
            if stored is old or stored.get(key) is not row.get(key):
                continue  # (the file's tree stays: its row, or its bound, is kept)
            if tree.get("file") and data is not None:
                (out / tree["file"]).parent.mkdir(parents=True, exist_ok=True)
                # in place once the tables are written: a tree whose row could not be
                # written would not be the tree of the row the file keeps
                staged.enter_context(
                    staged_move(out / tree["file"], data)
                    if isinstance(data, Path)
                    else staged_write(out / tree["file"], data)
                )
            elif key == "worst_tree":  # (no longer the row's: not left behind)
                dropped.append(out / "trees" / f"{stem}.json.gz")
        # (a proof optimal --proof wrote names its row; one deleted is named no more)
        fresh = "" if stored is old else game  # (its proof, if any, put in place below)
        kept = with_written_proofs(out, merge_rows(earlier, [row]), fmt != GAME_VALUE_FORMAT, fresh)
        write_tables(out, fmt, kept)
        for path in dropped:  # (under the lock: another run's new tree is not removed)
            path.unlink(missing_ok=True)
    return kept


def _kept_note(row: dict, rows: Sequence[dict]) -> str:
    """What the file says of the game when it kept an earlier row over this one (a proven
    row, or an open one with better bounds)."""
    kept = next((r for r in rows if r is not row and r["game"] == row["game"]), None)
    if row["status"] == "proven" or kept is None:
        return ""
    if kept["status"] == "proven":
        return "; the proven row already in the file is kept"
    if EARLIER_KEPT in kept.get("reason", "") and (kept.get("command"), kept.get("seconds")) == (
        row.get("command"),
        row.get("seconds"),
    ):  # (this run's row, with bounds of the file's row)
        return f"; {EARLIER_KEPT} (where they are better)"
    return "; the open row already in the file, whose bounds are better, is kept"


def _optimal_line(row: dict) -> str:
    if row["status"] != "proven":
        b = row.get("bounds") or {}
        low, high = b.get("total_lower_bound"), b.get("total_upper_bound")
        low, high = ("?" if x is None else x for x in (low, high))
        return f"{row['game']}: open ({row['reason']}); total in [{low}, {high}]"
    return (
        f"{row['game']}: total {row['total']} (average {row['average']:.4f}), worst {row['worst']}, "
        f"{_optimal_worst_text(row)}, first "
        f"{' '.join(row['best_first_guesses'])}; {row['literature']}; {row['seconds']:.1f} s"
    )


def _optimal_worst_text(row: dict) -> str:
    """The optimal worst case and its best total, as far as the row's time reached (it said
    "optimal worst None with total None").

    >>> from mastermind.app.publishing.tables import _optimal_worst_text
    >>> _optimal_worst_text({"optimal_worst": 5, "worst_total": 5626})
    'optimal worst 5 with total 5626'
    >>> _optimal_worst_text({"optimal_worst": 5, "worst_total": None})
    'optimal worst 5 (its best total not reached)'
    >>> _optimal_worst_text({"optimal_worst": None, "worst_total": None})
    'optimal worst case not reached'
    """
    if row.get("optimal_worst") is None:
        return "optimal worst case not reached"
    if row.get("worst_total") is None:
        return f"optimal worst {row['optimal_worst']} (its best total not reached)"
    return f"optimal worst {row['optimal_worst']} with total {row['worst_total']}"


def _game_value_line(row: dict) -> str:
    if row["status"] != "proven":
        inside = _value_bounds(row)
        return f"{row['game']}: game value open ({row['reason']})" + (f"; in {inside}" if inside else "")
    return (
        f"{row['game']}: game value {row['average_unreduced']} = {row['average']:.6f}, uniform "
        f"{'optimal' if row['uniform_optimal'] else 'not optimal'}, breaker mix "
        f"{row['breaker_mix_size']}; {row['literature']}; {row['seconds']:.1f} s"
    )


def _check_checkpoints(checkpoint: Path, games: list[Rules]) -> None:
    """Refuse, before any work, the checkpoint folder of a game the run will search when
    another run holds it, or it holds another game's search or a damaged memo file (a depth
    search's is read only once the row's other search has run, hours at the frontier)."""
    from mastermind.engines.exact import (
        DEPTH_FILE,
        UNITS_FILE,
        CheckpointFileError,
        check_checkpoint,
        check_intact,
    )

    with naming("--checkpoint", CheckpointFileError):
        for rules in games:
            folder = checkpoint / game_id(rules)
            # (a row's search: the plain total over every code; see parts.frontier_part)
            check_checkpoint(folder, rules, "all", "total")
            for name in (DEPTH_FILE, UNITS_FILE):
                check_intact(folder / name)
