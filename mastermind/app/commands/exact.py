"""``optimal``: the exact solver at the command line."""

from collections.abc import Sequence
from typing import Annotated, Any, Optional

import typer

from mastermind.app.commands.common import (
    HISTOGRAM_WORDS,
    CheckpointOpt,
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    NoCacheOpt,
    OptimalTieBreakOpt,
    PoolOpt,
    ProgressOpt,
    RulesOpt,
    StartFromOpt,
    TimeLimitOpt,
    both_on_stdout,
    check_proof_name,
    check_reach,
    choice,
    command,
    console,
    exit_if_interrupted,
    fail_after_report,
    game,
    histogram_text,
    jobs_value,
    limit_note,
    memory_limit_bytes,
    naming,
    nothing_written,
    out_option,
    plural,
    print_json,
    say_proof,
    say_wrote,
    table_for,
    write_after_work,
    write_proof_file,
)
from mastermind.core.errors import MastermindError
from mastermind.core.fileio import (
    check_writable,
    gzipped_by_name,
    input_name,
    is_stdout,
    same_file,
    write_atomic,
)
from mastermind.core.game import Rules, check_max_guesses
from mastermind.core.tree import StrategyTree
from mastermind.engines.result import EXACT_SEARCH, STARTED_FROM, Counters

OBJECTIVES = ("total", "worst")
BACKENDS = ("threads", "processes", "dask")
ObjectiveOpt = Annotated[
    str,
    typer.Option(
        "--objective",
        metavar="|".join(OBJECTIVES),
        callback=choice(OBJECTIVES),
        help="total (optimal average) or worst (fewest guesses in the worst case, then the best total).",
    ),
]
MaxGuessesOpt = Annotated[
    Optional[int],
    typer.Option(
        "--max-guesses",
        metavar="N",
        help="Only strategies that never need more guesses than this (exit 1: there is none).",
        show_default=False,
    ),
]
FirstOpt = Annotated[
    Optional[str],
    typer.Option("--first", metavar="CODE", help="Fix the first guess, e.g. 1123.", show_default=False),
]
ByFirstOpt = Annotated[
    bool, typer.Option("--by-first-guess", help="The optimum for each canonical first guess, as a table.")
]
BackendOpt = Annotated[
    Optional[str],
    typer.Option(
        "--backend",
        metavar="|".join(BACKENDS),
        callback=choice(BACKENDS),
        help="Where work units run: threads, processes (loky) or dask "
        "(a local cluster of --jobs processes, or --scheduler).  [default: threads; dask with --scheduler]",
        show_default=False,
    ),
]
SchedulerOpt = Annotated[
    Optional[str],
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --backend dask).",
        show_default=False,
    ),
]
OutOpt = Annotated[
    Optional[str],
    out_option(
        "Write the strategy tree to this file, in the format its name ends with (.json, .txt for "
        "Irving text, .dot, .html, each perhaps .gz; JSON without one); - for standard output "
        "(JSON). A search stopped early writes the best strategy it found.",
        show_default=False,
    ),
]


ProofOpt = Annotated[
    Optional[str],
    typer.Option(
        "--proof",
        metavar="FILE",
        help="Write a proof file of the optimum (atomically; gzip-compressed when the name ends "
        "with .gz; - for standard output, the report then on standard error): the strategy and "
        "a certificate of the lower bound, "
        "and of the optimal worst case, that `mastermind verify FILE` checks with code of its "
        "own (docs/proofs.md). The plain optimum or --objective worst only.",
        show_default=False,
    ),
]


def register(app: typer.Typer) -> None:
    command(app, "optimal", help="Optimal strategy, proven: exact branch and bound with symmetry.")(optimal)


class _Recorded:
    """A progress object that remembers the last count of work units the search reported, so
    that the report counts the units the progress lines counted."""

    def __init__(self, bar) -> None:
        self._bar = bar
        self.done: int | None = None
        self.steps: int | None = None

    def start(self, total: int | None, description: str = "") -> None:
        self._bar.start(total, description)

    def advance(self, n: int = 1) -> None:
        self._bar.advance(n)

    def _note(self, fields: dict) -> None:
        if "done" in fields:
            self.done, self.steps = fields.get("done"), fields.get("steps")

    def report(self, fields: dict) -> None:
        self._note(fields)
        inner = getattr(self._bar, "report", None)
        if inner is None:
            self._bar.advance(1)
        else:
            inner(fields)

    def finish(self, fields: dict) -> None:
        self._note(fields)
        inner = getattr(self._bar, "finish", None)
        if inner is not None:
            inner(fields)


def optimal(
    rules: RulesOpt = None,
    objective: ObjectiveOpt = "total",
    max_guesses: MaxGuessesOpt = None,
    pool: PoolOpt = "all",
    first: FirstOpt = None,
    by_first_guess: ByFirstOpt = False,
    tie_break: OptimalTieBreakOpt = "default",
    out: OutOpt = None,
    proof: ProofOpt = None,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None,
    start_from: StartFromOpt = None,
    progress: ProgressOpt = "auto",
    no_cache: NoCacheOpt = False,
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    rules = game(rules)
    # every refusal of the options, then the game's size, then the result cache: all before
    # the search and numba are loaded (a second of imports; see test_cached_answers_load_no_numba)
    if backend is None:  # given, --backend threads with --scheduler is refused, not overridden
        backend = "threads" if scheduler is None else "dask"
    if first is not None and by_first_guess:
        raise MastermindError("give either --first or --by-first-guess, not both")
    _refuse_placement(
        rules, pool, backend, scheduler, checkpoint, by_first_guess, first, objective, tie_break
    )
    limit, first_code = _check_game(rules, memory_limit, max_guesses, first, jobs, backend)
    start = _start_from(start_from, rules, by_first_guess, first, objective, tie_break, max_guesses)
    _check_files(out, proof, json_output, by_first_guess, max_guesses, pool, first, tie_break)
    options = dict(
        objective=objective,
        max_guesses=max_guesses,
        pool=pool,
        first=None if first_code is None else rules.code_text(first_code),
        tie_break=tie_break,
    )
    # a plain search asked again is answered from the result cache, before numba is loaded;
    # with --out, its tree too (kept beside the answer: a plain answer is read without it);
    # a proof is written by a search, never from the cache
    cache = kept_tree = None
    if not no_cache and proof is None and backend == "threads" and scheduler is None and checkpoint is None:
        cache, kept_tree = _cache_entries(rules, options, by_first_guess, start)
    if cache is not None and (answer := _cached(cache, kept_tree if out is not None else None, out)):
        from mastermind.core.progress import progress_mode, say_answered

        answer, late = answer
        say_answered(progress_mode(progress, json_output), "optimal: from the result cache")
        _report(answer, json_output, out, late is not None)
        fail_after_report(late)
        return
    data, late, tree = _search(
        rules,
        options,
        first_code,
        by_first_guess,
        out,
        proof,
        time_limit,
        jobs,
        backend,
        scheduler,
        checkpoint,
        progress,
        json_output,
        limit,
        start,
    )
    if cache is not None and data["proven"] and data.get("exists", True):
        _keep(cache, kept_tree, data, tree)
    _report(data, json_output, out, late is not None, proof)
    fail_after_report(late)
    exit_if_interrupted(data["stopped"])
    if data.get("exists", True) is False:  # an answer, not bad input: exit 1
        raise typer.Exit(1)


def _check_game(
    rules: Rules,
    memory_limit: float | None,
    max_guesses: int | None,
    first: str | None,
    jobs: int,
    backend: str,
) -> tuple[int, int | None]:
    """The game within reach of ``--memory-limit`` (the score table's and the search's), and
    ``--max-guesses`` and ``--first`` for it: before the result cache, whose answer may not
    depend on what it holds. The limit in bytes, and the first guess's code (None if not
    given)."""
    limit = memory_limit_bytes(memory_limit)
    check_reach(rules, limit)
    from mastermind.engines.exact import MemoryBudget

    MemoryBudget.check(rules, limit, jobs_value(jobs), shared=backend == "threads")  # (the search's room too)
    if max_guesses is not None:
        with naming("--max-guesses"):
            check_max_guesses(rules, max_guesses)
    with naming("--first"):
        return limit, (rules.parse_code(first) if first is not None else None)


def _keep(cache, kept_tree, data: dict, tree: tuple | None) -> None:
    """A proven answer kept in the result cache, its tree first (the answer is never kept
    without it)."""
    if kept_tree is not None and tree is not None:
        kept_tree.store(_tree_entry(*tree))
    # (the file this run wrote is not the next run's; an answer by first guess has no "out")
    kept = {k: v for k, v in data.items() if k != "compile_seconds"}
    cache.store(kept | ({"out": None} if "out" in kept else {}))


def _start_from(
    start_from: str | None,
    rules: Rules,
    by_first_guess: bool,
    first: str | None,
    objective: str,
    tie_break: str,
    max_guesses: int | None,
) -> StrategyTree | None:
    """``--start-from``: the strategy read (and its game checked) before any work."""
    if start_from is None:
        return None
    from mastermind.app.strategy_files import read_strategy_file

    if by_first_guess or first is not None or objective != "total" or tie_break != "default":
        raise MastermindError(
            "--start-from works on the plain optimum "
            "(not with --by-first-guess, --first, --tie-break worst or --objective worst)"
        )
    if max_guesses is not None:
        raise MastermindError("--start-from works without --max-guesses")
    with naming("--start-from"):
        start = read_strategy_file(start_from, rules)
    if start.rules != rules:
        named = input_name(start_from)
        raise MastermindError(f"--start-from: {named} is a strategy for {start.rules}, not {rules}")
    return start


def _check_files(
    out: str | None,
    proof: str | None,
    json_output: bool,
    by_first_guess: bool,
    max_guesses: int | None,
    pool: str,
    first: str | None,
    tie_break: str,
) -> None:
    """``--out`` and ``--proof`` refused before the search: a result is never lost for want
    of a place."""
    if out is not None and by_first_guess:
        raise MastermindError("--out writes one strategy: use it with --first or alone, not --by-first-guess")
    if out is not None:
        if is_stdout(out) and json_output:
            raise both_on_stdout("--out", "--json")
        with naming("--out"):
            if not is_stdout(out):
                from mastermind.core.formats import written_format

                written_format(out)  # (o.png was written as JSON)
            check_writable(out)
    if proof is not None:
        with naming("--proof"):
            if is_stdout(proof) and (json_output or (out is not None and is_stdout(out))):
                other = "--json" if json_output else "--out -"
                raise both_on_stdout("--proof", other)
            plain = max_guesses is None and pool == "all" and first is None and tie_break == "default"
            if not plain or by_first_guess:
                raise MastermindError(
                    "a proof certifies the plain optimum or the optimal worst case: not with "
                    "--max-guesses, --pool consistent, --first, --by-first-guess or --tie-break worst"
                )
            check_proof_name(proof)
            check_writable(proof)  # before the search, as --out
        if out is not None and same_file(out, proof):  # (the proof replaced the tree)
            raise MastermindError("--out and --proof name the same file: give each a file of its own")


def _cache_entries(rules: Rules, options: dict, by_first_guess: bool, start: StrategyTree | None) -> tuple:
    """The result cache's entries of a plain search (its answer, and its tree: None by first
    guess); (None, None) for a search from a strategy given, never kept. A time limit,
    --jobs and --memory-limit do not change a proven answer: only the options are its key."""
    if start is not None:
        return None, None
    from mastermind.app.resultcache import ResultCache

    key = {**options, "by_first_guess": by_first_guess}
    kept_tree = None if by_first_guess else ResultCache().entry(TREE_ENTRY, str(rules), key)
    return ResultCache().entry("optimal", str(rules), key), kept_tree


def _refuse_placement(
    rules: Rules,
    pool: str,
    backend: str,
    scheduler: str | None,
    checkpoint: str | None,
    by_first_guess: bool,
    first: str | None,
    objective: str,
    tie_break: str,
) -> None:
    """Refuse, before the game is built or the search loaded, where the search is asked to
    run (a backend, a scheduler, a checkpoint) when that cannot be: the library's rule,
    :attr:`Problem.in_units <mastermind.engines.exact.options.Problem.in_units>`, said in the
    options' names (the optimal worst case: its depth search keeps its memo in the
    checkpoint, then the best total within that depth runs as the plain optimum's units)."""
    if scheduler is not None:
        from mastermind.engines.exact import check_scheduler

        if backend != "dask":
            raise MastermindError("--scheduler needs --backend dask")
        with naming("--scheduler"):  # its form; whether it answers is known when connecting
            check_scheduler(scheduler, backend)
    units = backend != "threads" or checkpoint is not None or scheduler is not None
    in_units = objective in ("total", "worst") and tie_break != "worst" and first is None
    if units and (by_first_guess or not in_units):
        given = [
            name
            for name, used in (
                (f"--backend {backend}", backend != "threads"),
                ("--scheduler", scheduler is not None),
                ("--checkpoint", checkpoint is not None),
            )
            if used
        ]
        against = [
            name
            for name, used in (
                ("--by-first-guess", by_first_guess),
                ("--first", first is not None),
                ("--tie-break worst", tie_break == "worst"),
            )
            if used
        ]
        raise MastermindError(
            f"{' and '.join(given)} cannot go with {' and '.join(against)}: --backend, --scheduler and "
            "--checkpoint work on the optimum and the optimal worst case only"
        )
    if checkpoint is not None:  # (sqlite and the checkpoint's module only for a checkpoint)
        from mastermind.engines.exact import check_checkpoint

        with naming("--checkpoint"):  # (another run's, or another game's: before the kernels load)
            check_checkpoint(checkpoint, rules, pool, objective)


def _search(*args: Any, **kwargs: Any) -> tuple[dict, MastermindError | None, tuple | None]:
    """:func:`_run_search`, its errors of the checkpoint and of the strategy to start from
    said of their options."""
    from mastermind.engines.exact import CheckpointFileError, SchedulerError, StartError

    with (
        naming("--checkpoint", CheckpointFileError),
        naming("--start-from", StartError),
        naming("--scheduler", SchedulerError),
    ):
        return _run_search(*args, **kwargs)


def _run_search(
    rules: Rules,
    options: dict,
    first_code,
    by_first_guess: bool,
    out: str | None,
    proof: str | None,
    time_limit: float | None,
    jobs: int,
    backend: str,
    scheduler: str | None,
    checkpoint: str | None,
    progress: str,
    json_output: bool,
    limit: int,
    start: StrategyTree | None = None,
) -> tuple[dict, MastermindError | None, tuple | None]:
    """The search's document, the error that kept its tree from ``out`` (the tree is
    written only once the search ended: see :func:`write_after_work`), and the optimum's
    tree and statistics (None: by first guess, or no strategy found)."""
    from mastermind.app.interrupts import command_work
    from mastermind.core.progress import progress_mode
    from mastermind.engines.exact import Execution, Limits, Problem

    problem = Problem(
        objective=options["objective"],
        max_guesses=options["max_guesses"],
        pool=options["pool"],
        first_guess=first_code,
        tie_break=options["tie_break"] == "worst",
    )
    mode = progress_mode(progress, json_output)
    from mastermind.engines.exact import ensure_compiled

    # a first run compiles here, out of the timed search
    compile_seconds = ensure_compiled(quiet=json_output, json_lines=mode == "json")
    table = table_for(rules, limit)
    # --memory-limit: the score table's and the search's (the engine's memo keeps within it)
    limits = Limits(memory=limit)
    # the library's choice of work units (a time limit, a checkpoint, another backend, or
    # more jobs than one on a game big enough for them), not one of the command's own
    # (a proof's pass reads the search's memo: kept with the result for it)
    execution = Execution(
        jobs=jobs_value(jobs),
        backend=backend,
        scheduler=scheduler,
        checkpoint=checkpoint,
        keep_memo=proof is not None,
    )
    # --time-limit, from the command's start: the deadline of the token the search and the
    # proof's pass after it are given (Ctrl-C cancels it too), the one place they read it from
    with command_work(time_limit) as work:
        answer, recorder = _solve(table, problem, limits, execution, by_first_guess, start, mode, work)
        if by_first_guess:  # (no tree, no proof: refused with --by-first-guess)
            data, late, found = _by_first_guess_answer(table, options, answer), None, None
        else:
            data, late, found = _answer(table, options, answer, recorder, out, proof, work, limit)
    data["cached"] = False
    if compile_seconds is not None:
        data["compile_seconds"] = round(compile_seconds, 2)
    return data, late, found


def _solve(
    table, problem, limits, execution, by_first_guess: bool, start: StrategyTree | None, mode: str, work
):
    """The library's search under a progress display, stopped by the token ``work``: its
    result (by first guess, the table of every first guess) and the progress recorder."""
    from mastermind.core.progress import progress_bar
    from mastermind.engines.exact import Execution, Tuning, solve_by_first_guess
    from mastermind.engines.optimum import solve_optimum

    with progress_bar(mode) as bar:
        recorder = _Recorded(bar)
        if by_first_guess:  # (the table of every first guess: one result, the library's)
            found = solve_by_first_guess(
                table,
                problem,
                limits=limits,
                execution=Execution(jobs=execution.jobs),
                cancel=work,
                progress=bar,
            )
            return found, recorder
        # (export -s optimal searches by the same call: the same best strategy when stopped)
        result = solve_optimum(
            table,
            problem,
            limits=limits,
            execution=execution,
            tuning=Tuning(start=None if start is None else start.root),
            cancel=work,
            progress=recorder,
        )
    return result, recorder


def _by_first_guess_answer(table, options: dict, answer) -> dict:
    """The document of ``--by-first-guess``: the command's options, then the library's table
    (no strategy within --max-guesses for any first guess: an answer, exit 1)."""
    base = {"rules": str(table.rules), "codes": table.rules.n_codes, **options}
    data = answer.to_dict(head=base)
    if not answer.results:
        data["out"] = None  # (as a search with no strategy says it)
    return data


def _answer(
    table,
    options: dict,
    r,
    recorder: _Recorded,
    out: str | None,
    proof: str | None,
    work,
    memory: int | None = None,
) -> tuple[dict, MastermindError | None, tuple | None]:
    """The search's document from its result ``r`` (the tree written to ``out`` and the
    proof to ``proof``, once the search ended, within what is left of the token ``work``
    and within ``memory`` bytes, --memory-limit),
    the error that kept the tree or the proof from its file, and the optimum's tree and
    statistics."""
    from mastermind.engines.exact import search_document
    from mastermind.engines.result import Status

    rules = table.rules
    base = {"rules": str(rules), "codes": rules.n_codes, **options}
    if r.status is Status.NO_STRATEGY:  # no strategy within --max-guesses: an answer (exit 1)
        return {**base, **_no_strategy(options["max_guesses"], r.seconds, [r])}, None, None
    written = late = found = None
    if r.tree is not None:
        found = (r.tree, r.stats)
    if out is not None and found is not None:
        late = _write_tree(out, *found)
        written = None if late is not None else out
    counted = {"done": recorder.done, "planned": recorder.steps}
    data = {**search_document(r, options["objective"], head=base, **counted), "out": written}
    if proof is not None:
        data["proof"], late_proof, stopped = _write_proof(table, r, options["objective"], proof, work, memory)
        late = late or late_proof
        if stopped is not None:  # (the optimum stays proven: the pass after it stopped)
            data["stopped"] = stopped
    return data, late, found


TREE_ENTRY = "optimal_tree"
"""The result cache's name for an optimum's tree, kept beside its answer (under the same key)."""


def _write_tree(out: str, tree: StrategyTree, stats) -> MastermindError | None:
    """Write ``tree`` to ``out`` in the format its name says (- : JSON on standard output);
    the error that kept it from there (a full disk is known only now: see
    :func:`write_after_work`)."""
    from mastermind.core.formats import write_tree, written_format

    fmt = "json" if is_stdout(out) else written_format(out)
    return write_after_work(
        "--out", lambda: write_atomic(out, gzipped_by_name(out, write_tree(tree, fmt, stats)))
    )


def _tree_entry(tree: StrategyTree, stats) -> dict:
    """An optimum's tree as the result cache keeps it: its JSON file and its statistics."""
    from mastermind.core.formats import write_tree

    numbers = {k: getattr(stats, k) for k in ("total", "secrets", "worst", "histogram", "worst_secrets")}
    return {"tree": write_tree(tree, "json", stats), "stats": numbers}


def _cached(answer_entry, tree_entry, out: str | None) -> tuple[dict, MastermindError | None] | None:
    """The answer kept in the result cache, and the error of writing its tree to ``out``
    (given: the tree kept beside it, else None); None when the search must run: no answer,
    or ``out`` given and no tree kept (a plain ``optimal`` keeps both, so rarely)."""
    answer = answer_entry.load()
    if answer is None or out is None:
        return None if answer is None else (answer, None)
    kept = None if tree_entry is None else tree_entry.load()
    if kept is None:
        return None
    from mastermind.core.formats import read_tree
    from mastermind.core.tree import Stats

    try:
        tree, _ = read_tree(kept["tree"], "json")
        stats = Stats(**kept["stats"])
    except (KeyError, TypeError, MastermindError):  # (damaged: searched again)
        return None
    late = _write_tree(out, tree, stats)
    return {**answer, "out": None if late is not None else out}, late


def _write_proof(
    table, r, objective: str, path: str, token, memory: int | None = None
) -> tuple[dict | None, MastermindError | None, str | None]:
    """The proof file of a proven optimum written to ``path`` (``proof`` of the report: the
    file, its facts and the seconds it took; None when the search proved nothing or the pass
    stopped), the error that kept it from the file, and why the pass stopped (Ctrl-C, or
    ``token``'s deadline, --time-limit; None: it ended). The file is written as its facts
    are made (none held: 5x8n has millions) and put in place only once the pass ended: a
    pass stopped writes nothing. The pass reads the search's memo where the result has one
    (the plain total in this process), and keeps within ``memory`` (None: the table's default)
    as the search did."""
    from mastermind.engines.result import Status

    if r.status is not Status.OPTIMAL or r.tree is None:
        return None, None, None
    from mastermind.engines.exact import MemoryBudget, write_proof

    room = MemoryBudget.of(table, memory).proof_bytes
    memo = getattr(r.details, "memo", None)
    total = r.total if objective == "total" else None
    # under the command's work token (Ctrl-C, and --time-limit counted from the command's
    # start): checked between the facts, and its flag stops the pass's searches at once
    tree = r.tree.root
    return write_proof_file(
        path, token, lambda put: write_proof(put, table, tree, total, memory=room, token=token, memo=memo)
    )


def _no_strategy(max_guesses: int | None, seconds: float, searched: Sequence = ()) -> dict:
    """No strategy within --max-guesses: proven (exit 1), with the work of the ``searched``
    results that proved it, as an answer found gives its own (they were left out)."""
    from mastermind.engines.exact import no_strategy_fields

    counters = sum((r.counters for r in searched), Counters()) if searched else None
    return {**no_strategy_fields(max_guesses, seconds, counters), "out": None, "cached": False}


# ---- the report: text or JSON, from the document alone (also for an answer from the cache) ----
def _report(
    data: dict, json_output: bool, out: str | None, failed: bool = False, proof: str | None = None
) -> None:
    """``failed``: the tree or the proof could not be written (the line saying so follows)."""
    if json_output:
        print_json(data)
        return
    # with --out - (or --proof -) standard output holds the strategy (or the proof) alone: the
    # report goes to standard error
    to_stdout_tree = any(path is not None and is_stdout(path) for path in (out, proof))
    printer = console(stderr=to_stdout_tree)
    rules = data["rules"]
    if data.get("exists", True) is False:
        start = "" if data["first"] is None else f" starting with {data['first']}"
        typer.echo(
            f"no strategy solves every secret of {rules} within "
            f"{plural(data['max_guesses'] or 0, 'guess')}{start} (proven)",
            err=to_stdout_tree,  # (an answer, as cpsat's: on standard output)
        )
        if out is not None:
            typer.echo(nothing_written(out, "no strategy"), err=True)
        return
    if "by_first_guess" in data:
        _print_by_first_guess(data, printer)
        return
    printer.print(f"rules        {rules}  ({_options_text(data)})")
    if data["proven"]:
        _print_proven(data, printer)
    else:
        _print_stopped(data, printer)
    _print_files(data, out, proof, to_stdout_tree, failed)


def _print_proven(data: dict, printer) -> None:
    printer.print(f"first guess  {data['first_guess']}")
    printer.print(
        f"total        {data['total']} over {plural(data['secrets'], 'secret')}  "
        f"(average {data['average']:.4f})"
    )
    printer.print(f"worst case   {plural(data['worst'], 'guess')}")
    printer.print(f"histogram    {histogram_text(data['histogram'])}  ({HISTOGRAM_WORDS})")
    printer.print(f"proven       yes  ({_work(data)})")


def _print_stopped(data: dict, printer) -> None:
    """A search stopped early: what it proved, and the best strategy it found."""
    printer.print(
        f"proven       no: stopped ({data['stopped']}) after {_work(data)}{limit_note(data['stopped'])}"
    )
    if data["objective"] == "worst":
        low, total_low = data["worst_lower_bound"], data["total_lower_bound"]
        if low is not None and low == data["worst_upper_bound"]:  # the depth proven
            printer.print(f"worst case   {plural(low, 'guess')}  (proven: every smaller one refuted)")
            if total_low is not None:
                printer.print(f"lower bound  total >= {total_low} within {plural(low, 'guess')}")
        else:
            printer.print(
                "lower bound  "
                + (
                    "none yet"
                    if low is None
                    else f"worst case >= {plural(low, 'guess')}  (every smaller one refuted)"
                )
            )
    else:
        low = data["total_lower_bound"]
        printer.print(
            "lower bound  "
            + ("none yet" if low is None else f"total >= {low}  (no strategy has a smaller total)")
        )
    found = data["best_found"]
    if found is None:
        printer.print("best found   none yet")
        return
    by = found["found_by"]
    printer.print(
        f"best found   total {found['total']} over {plural(found['secrets'], 'secret')} (average "
        f"{found['average']:.4f}), worst case {found['worst']}, first guess {found['first_guess']}"
        + (
            ""
            if by == EXACT_SEARCH
            else " (the --start-from strategy)"
            if by == STARTED_FROM
            else f" (the {by} heuristic)"
        )
    )


def _print_files(data: dict, out: str | None, proof: str | None, to_stdout_tree: bool, failed: bool) -> None:
    """What became of the tree's file and the proof's; ``failed``: one of them could not be
    written (the line saying why follows the report): the file that was not is not spoken of
    here, the other one is."""
    # (a proof is written only of an optimum, which has a tree, so a failure there was the
    # tree's, unless the tree was written; an optimum's proof missing, its pass not stopped:
    # the proof's)
    tree_failed = failed and out is not None and data["out"] is None
    proof_failed = failed and proof is not None and data.get("proof") is None and data["stopped"] is None
    if out is not None and not tree_failed:
        if data["out"] is not None:
            tree = "the strategy tree" + ("" if data["proven"] else " (the best found, not proven)")
            say_wrote(tree, out, err=to_stdout_tree)
        else:
            why = f"the search stopped ({data['stopped']}) before it found a strategy"
            typer.echo(nothing_written(out, why), err=True)
    if proof is not None and not proof_failed:
        written = data["proof"]
        why = (
            f"the proof stopped ({data['stopped']}) before it was written"
            if data["proven"]
            else "the search stopped before its proof"
        )
        claims = " and ".join(
            f"{name} {written[key]}"
            for name, key in (("total", "total"), ("worst case", "worst"))
            if written is not None and written[key] is not None
        )
        # (on standard error where standard output holds the strategy tree alone)
        say_proof(proof, written, claims, why, err=to_stdout_tree)


def _work(data: dict) -> str:
    """The work of a search, counted as its progress lines count it."""
    cached = "from the result cache: " if data.get("cached") else ""
    parts = [f"{cached}{data['seconds']:.2f} s" + (" when computed" if cached else "")]
    parts.append(plural(data["nodes"], "node"))
    parts.append(plural(data["memo_hits"], "memo hit"))
    units = data.get("units") or {}
    if units.get("planned"):
        done, total, run, reused = units["done"], units["planned"], units["run"], units["reused"]
        cut = max(0, (done or 0) - run - reused)
        detail = [f"{run} searched"]
        if reused:
            detail.append(f"{reused} reused from the checkpoint")
        if cut:
            detail.append(f"{cut} cut by their bounds")
        if data.get("proven"):
            parts.append(f"{done} of {plural(total, 'work unit')} done ({', '.join(detail)})")
        else:  # (a run plans its units round by round: "115 of 115 done" read as all of them)
            parts.append(f"{plural(done, 'work unit')} done ({', '.join(detail)}), {total} planned so far")
    return ", ".join(parts)


def _options_text(data: dict) -> str:
    """The options that shaped the answer: "objective total, at most 5 guesses, pool consistent"."""
    return (
        f"objective {data['objective']}"
        + (f", at most {plural(data['max_guesses'], 'guess')}" if data["max_guesses"] else "")
        + (f", pool {data['pool']}" if data["pool"] != "all" else "")
        + (f", first guess {data['first']}" if data["first"] else "")
        + (f", tie-break {data['tie_break']}" if data["tie_break"] != "default" else "")
    )


def _print_by_first_guess(data: dict, printer) -> None:
    from rich.table import Table

    t = Table(
        title=f"{data['rules']}: optimum for each first guess ({_options_text(data)})",
        caption=f"histogram: {HISTOGRAM_WORDS}; * the best first guesses",
    )
    for column in ("first guess", "total", "average", "worst", "histogram", "seconds"):
        t.add_column(column, justify="left" if column in ("first guess", "histogram") else "right")
    best = set(data["best_first_guesses"])
    for r in data["by_first_guess"]:
        if r["exists"] is False:
            within = plural(data["max_guesses"] or 0, "guess")
            t.add_row(r["first_guess"], "none", "", "", f"no strategy within {within}", "")
            continue
        if not r["proven"]:
            low = r["total_lower_bound"]
            at_least = "?" if low is None else f">= {low}"
            t.add_row(r["first_guess"], at_least, "", "", f"not proven ({r['stopped']})", "")
            continue
        t.add_row(
            r["first_guess"] + (" *" if r["first_guess"] in best else ""),
            str(r["total"]),
            f"{r['average']:.4f}",
            str(r["worst"]),
            histogram_text(r["histogram"]),
            f"{r['seconds']:.2f}",
        )
    printer.print(t)
