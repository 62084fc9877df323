"""``export`` and ``verify``: strategy trees to and from files (JSON, dot, Irving text, HTML)."""

import re
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Optional

import typer

from mastermind.app.commands.common import (
    HISTOGRAM_WORDS,
    FileRulesOpt,
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    PoolOpt,
    ProgressOpt,
    SeedOpt,
    StrategyOpt,
    StrategyRulesOpt,
    TieBreakOpt,
    TimeLimitOpt,
    both_on_stdout,
    choice,
    command,
    command_work,
    draw_seed,
    exit_if_interrupted,
    fail_after_report,
    game,
    histogram_text,
    jobs_value,
    memory_limit_bytes,
    naming,
    nothing_written,
    out_option,
    plural,
    print_json,
    say_wrote,
    seed_note,
    stopped_text,
    table_for,
    write_after_work,
)
from mastermind.app.strategy_files import check_strategy, game_option, played_options
from mastermind.core.cancel import StopReason
from mastermind.core.errors import DamagedFile, MastermindError, OutOfReach, TableTooLarge
from mastermind.core.fileio import (
    check_writable,
    gzipped_by_name,
    input_name,
    is_stdout,
    read_text,
    write_atomic,
    write_stdout,
)
from mastermind.core.formats import (
    FORMATS,
    READABLE,
    check_format,
    detect_format,
    format_for_path,
    write_tree,
    written_format,
)
from mastermind.core.game import Rules
from mastermind.core.pools import POOL_WORDS
from mastermind.core.progress import JsonProgress, progress_bar, progress_mode

FormatOpt = Annotated[
    Optional[str],
    typer.Option(
        "--format",
        "-f",
        metavar="|".join(FORMATS),
        callback=choice(FORMATS),
        help=f"{', '.join(FORMATS)} (default: from --out, else json).",
        show_default=False,
    ),
]


def register(app: typer.Typer) -> None:
    command(
        app,
        "export",
        help="Write a strategy's tree as JSON, Graphviz dot, Irving text or an HTML explorer page.",
    )(export)
    command(
        app,
        "verify",
        help="Replay every secret through a strategy file and print its statistics, or check a "
        "proof file (exit 1: not a valid strategy of the game, or a proof that fails).",
    )(verify)


# ---- export -------------------------------------------------------------------------------
ExportOutOpt = Annotated[
    Optional[str],  # not Path: Path("") would be the current folder
    out_option("File to write (atomically); standard output if omitted or -.", show_default=False),
]


def export(
    rules: StrategyRulesOpt = None,
    strategy: StrategyOpt = "minimax",
    pool: PoolOpt = "all",
    tie_break: TieBreakOpt = "default",
    seed: SeedOpt = None,
    fmt: FormatOpt = None,
    out: ExportOutOpt = None,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    from mastermind.app.players import draws, tree_of
    from mastermind.core.cancel import Stopped

    named_by = game_option(rules is not None, strategy)
    rules = check_strategy(
        strategy, game(rules), rules is not None, pool=pool, tie_break=tie_break, alone=True
    )
    fmt, out = _export_file(fmt, out, json_output)
    table = table_for(rules, memory_limit_bytes(memory_limit), option=named_by)
    seed, drawn = draw_seed(seed)
    stopped, tree, best_found = None, None, None
    proven = strategy != "optimal"  # (the optimum proven once the search says so)
    late = None
    mode = progress_mode(progress, json_output or out is None)
    with progress_bar(mode) as bar, command_work(time_limit) as token:
        try:
            if strategy == "optimal":  # a search stopped early writes its best strategy
                tree, proven, stopped, best_found = _optimal_tree(table, pool, token, bar, jobs_value(jobs))
            else:
                bar.start(1, f"export: the tree of {input_name(strategy)}")  # (one tree)
                with token.running():  # (half a tree is no strategy: nothing is written)
                    tree = tree_of(strategy, table, pool=pool, tie_break=tie_break, seed=seed, cancel=token)
                bar.advance()
        except (Stopped, KeyboardInterrupt):
            stopped = token.reason or StopReason.INTERRUPTED
    summary: dict = {
        "rules": str(rules),
        "codes": rules.n_codes,  # (the game's, tree or none: as optimal gives it)
        "strategy": strategy,
        **played_options(strategy, pool, tie_break),
        "format": fmt,
        "out": None,
        "seed": seed if draws(strategy, tie_break) else None,  # (null: a strategy that draws nothing)
        "total": None,
        "secrets": None,  # (those the tree's numbers are over: none without a tree)
        "average": None,
        "worst": None,
        "histogram": [],
        # whether the answer is established: the optimum (else the best found, whose numbers
        # are then under best_found, as optimal --json gives them), a heuristic's whole tree
        "proven": proven if strategy == "optimal" else stopped is None,
        "best_found": None,
        "stopped": stopped,
    }
    if tree is not None:
        stats = tree.stats(table)
        late = _write_export(write_tree(tree, fmt, stats), out)
        written = None if late is not None or out is None else str(out)
        numbers = {k: v for k, v in stats.to_dict(rules).items() if k != "worst_secrets"}
        if strategy == "optimal" and not proven:  # never given as the optimum's numbers
            summary.update(out=written, best_found=best_found)
        else:
            summary.update(out=written, **numbers)
    if json_output:
        print_json(summary)
    else:
        chance = f"; {seed_note(seed, drawn)}" if draws(strategy, tie_break) and drawn else ""
        _print_export(summary, strategy, out, late, mode, chance, tree is not None, proven)
    fail_after_report(late)
    exit_if_interrupted(stopped)


def _export_file(fmt: str | None, out: str | None, json_output: bool) -> tuple[str, str | None]:
    """``--format`` (else the one ``--out``'s name ends with, else JSON) and ``--out`` (None:
    standard output), refused before any work; a name ending in another format than the one
    asked too (``--format irving --out tree.json`` wrote Irving text into a .json file)."""
    if fmt is not None:
        fmt = check_format(fmt)
        named = None if out is None or is_stdout(out) else format_for_path(out)
        if named is not None and named != fmt:
            raise MastermindError(
                f"--out: {out} names the {named} format, --format asks for {fmt}: "
                "give the file a name that agrees, or leave --format out"
            )
    elif out is not None and not is_stdout(out):
        with naming("--out"):
            try:
                fmt = written_format(out)
            except MastermindError as exc:  # (export, unlike optimal, writes any format asked)
                raise MastermindError(f"{exc}: give --format") from None
    else:
        fmt = "json"
    if out is not None and is_stdout(out):
        out = None  # the tree is the output
    if json_output and out is None:
        # (no --out is standard output, as --out - is)
        raise both_on_stdout("--out", "--json")
    if out is not None:
        with naming("--out"):
            check_writable(out)
    return fmt, out


def _write_export(text: str, out: str | None) -> MastermindError | None:
    """The tree's text to ``out`` (None: standard output, the tree alone, the line saying so
    on standard error); the error that kept it from there (a full disk is known only now)."""
    if out is None:
        write_stdout(text)
        return None
    return write_after_work("--out", lambda: write_atomic(out, gzipped_by_name(out, text)))


def _print_export(
    summary: dict, strategy: str, out: str | None, late, mode: str, chance: str, written: bool, proven: bool
) -> None:
    """What ``export`` says of the tree written (``written``: there is one), or of why there
    is none; ``chance``: the seed drawn, said where the strategy draws."""
    rules, stopped, fmt = summary["rules"], summary["stopped"], summary["format"]
    if not written:
        typer.echo(
            nothing_written(
                out or "-",
                f"{stopped_text(stopped)} before the tree of {input_name(strategy)} for {rules} was complete",
            ),
            err=out is None,  # (standard output holds the tree alone, or nothing)
        )
        return
    s = summary if summary["best_found"] is None else summary["best_found"]
    found = "" if proven else f"; not proven optimal: the best found before it {stopped_text(stopped)}"
    what = f"the {fmt} tree of {input_name(strategy)} for {rules}"
    detail = f" (total {s['total']}, average {s['average']:.4f}, worst {s['worst']}{found}{chance})"
    if late is None:
        say_wrote(what, out or "-", detail, json_lines=mode == "json")
    else:
        typer.echo(what + detail)


def _optimal_tree(table, pool: str, token, bar, jobs: int):
    """The optimal tree, or (stopped) the best one found, by ``jobs`` threads, searched as
    ``optimal`` searches it (:func:`~mastermind.engines.optimum.solve_optimum`: a heuristic beside
    a search told of a time limit, whose tree is the best found when the search has none),
    within ``token``'s deadline (--time-limit): (tree, proven, stopped, the best found as
    ``optimal --json`` gives it: None when proven)."""
    from mastermind.core.compiling import EXACT_KERNELS, CompileNotice
    from mastermind.engines.exact import Execution, Problem
    from mastermind.engines.optimum import solve_optimum

    with CompileNotice(
        EXACT_KERNELS, "the search kernels", quiet=True, json_lines=isinstance(bar, JsonProgress)
    ):
        # (optimal's call and execution: a stopped search reports its best strategy; its
        # token's deadline, the time limit, makes it search as ``optimal --time-limit`` does,
        # in work units)
        result = solve_optimum(
            table,
            Problem(pool=pool),
            execution=Execution(jobs=jobs),
            cancel=token,
            progress=bar,
        )
    from mastermind.engines.exact import optimum_fields

    return result.tree, result.proven, result.stopped, optimum_fields(result)["best_found"]


# ---- verify -------------------------------------------------------------------------------


def verify(
    file: Annotated[
        str,
        typer.Argument(
            help="Strategy file (Irving text or JSON) or proof file (docs/proofs.md); - reads standard input."
        ),
    ],
    rules: FileRulesOpt = None,
    fmt: Annotated[
        Optional[str],
        typer.Option(
            "--format",
            "-f",
            metavar="|".join(READABLE),
            callback=choice(READABLE),
            help="irving or json (default: from the content, else the name).",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
    progress: ProgressOpt = "auto",
) -> None:
    """A proof file (told by its content) is checked by the independent checker, fact by
    fact as it is read (a bar of the facts checked on a terminal): exit 0 when it proves its
    claims, 1 naming the first fact that fails, 2 before any work when the check needs more
    than --memory-limit (about 1 KiB a fact).

    Exit 0 for a valid strategy, 1 for one that is not a valid strategy of the game (a
    wrong tree, a tree of another game, bytes that are no text, a dot file or an HTML
    page), 2 for a file that cannot be opened or bad options. The game: --rules, else the one
    a JSON file names (for Irving text, the one its root tells, else p4c6)."""
    from mastermind.core.formats import Verification, WrittenOnly

    limit = memory_limit_bytes(memory_limit)
    mode = progress_mode(progress, json_output)
    # (a proof is JSON: -f json does not make it a strategy file)
    maybe_proof = fmt is None or fmt == "json"
    if maybe_proof and file != "-" and _names_a_proof(file):  # (read as it is checked: no cap)
        _verify_proof(file, None, rules, json_output, limit, mode)
        return
    damaged = None
    try:
        text = read_text(file)
    except DamagedFile as exc:  # (binary, or cut short as a cut tree is): not a valid strategy, exit 1
        text, damaged = "", exc.reason
    if damaged is None and maybe_proof and _is_proof_text(text):
        _verify_proof(file, text.encode("utf-8"), rules, json_output, limit, mode)
        return
    if fmt is not None:
        fmt = check_format(fmt, READABLE)
    else:
        try:
            fmt = detect_format(text, None if file == "-" else file)
        except WrittenOnly as exc:  # (dot, HTML: no strategy to read in it) not a valid one, exit 1
            fmt, damaged = exc.format, damaged or exc.reason
    stopped = None
    if damaged is None:
        result, stopped = _replay(text, fmt, rules, file, limit, mode)
    else:
        result = Verification(fmt, rules, file, errors=[damaged])
    _render_verification(result, file, fmt, json_output, stopped)
    exit_if_interrupted(stopped)
    if not result.valid:
        raise typer.Exit(1)


def _replay(text: str, fmt: str, rules, file: str, limit: int, mode: str):
    """A strategy file's tree read and every secret replayed through it: the verification,
    and why it stopped before its end (None: it did not)."""
    from mastermind.app.interrupts import unless_cancelled
    from mastermind.core.formats import Verification, verify_text

    # (a game out of reach: said of --rules, or of the file that names it)
    with (
        naming("--rules" if rules is not None else input_name(file), OutOfReach),
        progress_bar(mode) as bar,
        command_work() as token,
    ):
        bar.start(None, "verify: the strategy replayed")  # (one step, of unknown length)
        # (Ctrl-C in the reading or the replay, which do not stop, p5c8's 2 s: it said
        # "interrupted" alone)
        with token.running():
            done = unless_cancelled(
                lambda: verify_text(text, fmt, rules, name=file, memory_limit=limit), token, "replay"
            )
    if done is None:
        return Verification(fmt, rules, file), token.reason or StopReason.INTERRUPTED
    return done, None


def _render_verification(result, file: str, fmt: str, json_output: bool, stopped: str | None) -> None:
    """A strategy file's verification: its JSON object, or its lines (or the first error);
    ``stopped``: why it ended before its end (valid null, as a proof's check stopped says)."""
    numbers = result.to_dict()
    data = {
        "strategy": file,
        "valid": None if stopped is not None else result.valid,
        "format": fmt,
        "rules": numbers["rules"],
        **{k: numbers[k] for k in ("total", "secrets", "average", "worst", "histogram", "pool")},
        "errors": result.errors,
        "stopped": stopped,
    }
    if data["histogram"] is None:
        data["histogram"] = []
    if json_output:
        print_json(data)
    elif stopped is not None:
        typer.echo(f"{stopped_text(stopped)}: {input_name(file)} is not replayed to its end", err=True)
    elif result.errors:
        typer.echo(f"error: {input_name(file)} is not a valid strategy: {result.errors[0]}", err=True)
    else:
        stats = result.stats
        secrets = plural(stats.secrets, "secret")
        typer.echo(f"valid      {input_name(file)}: {result.rules} strategy ({fmt}), {secrets}")
        typer.echo(f"total      {stats.total}")
        typer.echo(f"average    {stats.average:.4f}")
        typer.echo(f"worst      {stats.worst}")
        typer.echo(f"histogram  {histogram_text(stats.histogram)}  ({HISTOGRAM_WORDS})")
        typer.echo(f"pool       {result.pool}  ({POOL_WORDS[result.pool]})")


def _game_value_fields(outcome: Any) -> dict[str, str | None]:
    """The game value a proof proves, in the keys of ``game-value --json``: the value (null
    unless both mixes are in the file and proven), the maker's guarantee, the breaker's."""
    from fractions import Fraction

    def text(x: Fraction | None) -> str | None:
        return None if x is None else f"{x.numerator}/{x.denominator}"

    value = None if outcome is None else outcome.game_value
    breaker = None if outcome is None else outcome.breaker
    return {
        "average_fraction": text(value) if breaker is not None and breaker == value else None,
        "average_lower_bound_fraction": text(value),
        "average_upper_bound_fraction": text(breaker),
    }


def _print_game_value(outcome: Any) -> None:
    """The line of a proof of a game value: what the maker's mix guarantees, and the
    breaker's, when the file gives it."""
    value = outcome.game_value
    maker = (
        f"the maker's mix (weights summing to {outcome.weight}) guarantees at least that many guesses "
        f"on average against every strategy (weighted total {outcome.total} is optimal)"
    )
    shown = f"{value} = {float(value):.6f}"
    if outcome.breaker is None:
        typer.echo(f"game value at least {shown} is proven: {maker}; the breaker's mix is not in the file")
    else:  # (the breaker's at most V, and at least V against the maker's mix: exactly V)
        typer.echo(
            f"game value {shown} is proven: {maker}, and the breaker's mix at most that against every secret"
        )


FORMAT_NAMED = re.compile(r'"format"\s*:\s*"([^"\\]*)"')


def _format_named(chunks: Iterable[str]) -> str | None:
    """The format a JSON object (its text in ``chunks``) names: the first one named decides
    (no node of a strategy or a proof has one, so it is the object's), wherever its key is
    (any key order is read): a strategy file names its own as it begins, so its rest is
    seldom read. None: not a JSON object, or one that names none."""
    text, first = "", True
    for chunk in chunks:
        text += chunk
        if first and not text.lstrip("\ufeff \t\r\n").startswith("{"):
            return None
        first = False
        named = FORMAT_NAMED.search(text)
        if named is not None:
            return named.group(1)
        text = text[-64:]  # (a key cut by the chunk's end is read with the next one)
    return None


def _is_proof_text(text: str) -> bool:
    """A JSON object that says it is a proof file."""
    from mastermind.proofcheck.reading import CHUNK

    chunks = (text[i : i + CHUNK] for i in range(0, max(len(text), 1), CHUNK))
    return _format_named(chunks) == "mastermind-proof"


def _names_a_proof(file: str) -> bool:
    """A file whose text (uncompressed) says it is a proof file: read until the first format
    named, most often in its first bytes. One whose content names no format (damaged, cut
    short, no JSON object) is a proof when its name says so (``.proof.json``,
    ``.proof.json.gz``: the checker then says what is wrong with it), else not (read_text
    says why)."""
    import os
    import zlib

    from mastermind.proofcheck import open_proof
    from mastermind.proofcheck.reading import CHUNK

    if not os.path.isfile(file):  # (a pipe or a device is read once, whole, by read_text)
        return False
    named = None
    try:
        with open_proof(file) as fh:
            named = _format_named(iter(lambda: fh.read(CHUNK).decode("utf-8", errors="replace"), ""))
    except (OSError, EOFError, zlib.error):
        pass
    if named is None:
        return os.path.basename(file).endswith((".proof.json", ".proof.json.gz"))
    return named == "mastermind-proof"


def _proof_size(stream: Any, file: str, limit: int) -> tuple[int, str | None, Rules | None]:
    """The facts of a proof (``stream()`` opens it), counted without parsing them, what
    makes it no proof (None: nothing yet), and the game its header names (None: none that
    is a game); one whose check would not fit in ``limit`` bytes is refused before any work
    (exit 2)."""
    from mastermind.core.game import format_bytes
    from mastermind.proofcheck import ProofError, count_facts, memory_needed, proof_rules
    from mastermind.proofcheck.game import Game

    codes, error, named = 0, None, None
    try:  # (the game and the facts counted, read without parsing the facts)
        with stream() as fh:
            facts = count_facts(fh)
        with stream() as fh:
            game = proof_rules(fh)
        # (a header naming no game fails before any table is built)
        codes = 0 if game is None else Game.parse(game).n
        named = _game_named(game)
    except ProofError as exc:
        facts, error = 0, str(exc)
    need = memory_needed(facts, codes)
    if need > limit:
        raise TableTooLarge(
            f"checking {input_name(file)} ({facts:,} facts) needs about {format_bytes(need)}, "
            f"above the memory limit of {format_bytes(limit)}"
        )
    return facts, error, named


def _game_named(text: object) -> Rules | None:
    """The game a proof's header names, if it is one (a failed check still says it)."""
    try:
        return Rules.parse(text) if isinstance(text, str) else None
    except MastermindError:
        return None


def _in_steps(bar: Any, facts: int, steps: int = 200) -> Callable[[int], None]:
    """Told the facts checked after each one, advances ``bar`` in about ``steps`` steps (a
    line a fact was 183,338 lines of --progress json for 4x8's proof), and at the last fact."""
    step, shown = max(1, facts // steps), [0]

    def checked(count: int) -> None:
        if count - shown[0] >= step or count == facts:
            bar.advance(count - shown[0])
            shown[0] = count

    return checked


def _verify_proof(
    file: str, raw: bytes | None, rules: object, json_output: bool, limit: int, mode: str = "none"
) -> None:
    """Check a proof file (``raw``: its bytes, read from standard input; None: read from the
    file as it is checked) with :mod:`mastermind.proofcheck` (which shares no code with the
    search), the facts checked shown as ``mode`` says (see :func:`progress_bar`): exit 0 when
    it proves its claims, 1 naming the first fact that fails. One that would not fit in
    ``limit`` bytes is refused before any work (exit 2)."""
    import io

    from mastermind.app.interrupts import command_work
    from mastermind.proofcheck import CheckStopped, ProofError, check_proof, open_proof, proof_items

    def stream():
        return io.BytesIO(raw) if raw is not None else open_proof(file)

    outcome, failing = None, None
    stopped, checked = None, None  # (Ctrl-C: why, and the facts checked by then)
    facts, error, named = _proof_size(stream, file, limit)
    try:
        if error is None:
            # (Ctrl-C stops the check between two facts, which then says how far it got)
            with command_work() as token, token.running(), stream() as fh, progress_bar(mode) as bar:
                expected = None if rules is None else str(rules)
                bar.start(facts, "verify: facts checked")
                outcome = check_proof(
                    proof_items(fh), expected, stop=lambda: token.cancelled, checked=_in_steps(bar, facts)
                )
    except CheckStopped as exc:
        stopped, checked = token.reason or StopReason.INTERRUPTED, exc.facts
    except ValueError as exc:
        error = f"not JSON ({exc})"
    except ProofError as exc:
        error, failing = str(exc), exc.fact
    except RecursionError:
        error = "a strategy tree nested too deep"
    if json_output:
        print_json(
            {
                "proof": file,
                # (a check stopped before its end has not found the proof valid, nor invalid)
                "valid": None if stopped is not None else outcome is not None,
                "format": "proof",
                # (a check that failed: the game its header names, as a strategy's verify says)
                "rules": (None if named is None else str(named)) if outcome is None else outcome.rules,
                "secrets": (None if named is None else named.n_codes) if outcome is None else outcome.secrets,
                "total": None if outcome is None else outcome.total,
                # (a game value's total is over the weights, not the secrets: 5600 / 1290)
                "weight_sum": None if outcome is None else outcome.weight,
                "worst": None if outcome is None else outcome.worst,
                "facts": checked if outcome is None else outcome.facts,
                **_game_value_fields(outcome),
                "failing_fact": failing,
                "errors": [] if error is None else [error],
                "stopped": stopped,
            }
        )
    elif stopped is not None:
        typer.echo(
            f"{stopped_text(stopped)} after {checked} of {plural(facts, 'fact')} checked, none failing: "
            f"{input_name(file)} is not checked to its end",
            err=True,
        )
    elif outcome is None:
        typer.echo(f"error: {input_name(file)} is not a valid proof: {error}", err=True)
    else:
        typer.echo(
            f"valid      {input_name(file)}: {outcome.rules} proof, {plural(outcome.secrets, 'secret')}, "
            f"{plural(outcome.facts, 'fact')} checked"
        )
        if outcome.game_value is not None:
            _print_game_value(outcome)
        elif outcome.total is not None:
            typer.echo(f"total      {outcome.total} is optimal")
        if outcome.worst is not None:
            typer.echo(f"worst      worst case {outcome.worst} is optimal")
    exit_if_interrupted(stopped)
    if outcome is None:
        raise typer.Exit(1)
