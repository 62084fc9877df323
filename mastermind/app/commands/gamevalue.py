"""``game-value``: the value of the game when the code maker may choose the secret's odds."""

from fractions import Fraction
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    JobsOpt,
    JsonOpt,
    MemoryOpt,
    ProgressOpt,
    RulesOpt,
    TimeLimitOpt,
    both_on_stdout,
    ceil_decimal,
    check_proof_name,
    choice,
    command,
    console,
    exit_if_interrupted,
    fail_after_report,
    floor_decimal,
    game,
    jobs_value,
    limit_note,
    memory_limit_bytes,
    plural,
    print_json,
    say_proof,
    stop_words,
    table_for,
    whole_range,
    write_proof_file,
)
from mastermind.core.errors import naming
from mastermind.core.fileio import check_writable, is_stdout
from mastermind.core.progress import progress_bar, progress_mode
from mastermind.engines.gamevalue import game_value_document

MAX_ITERATIONS = 10**6  # each best reply solves a game exactly: more is a typing error
SOLVERS = ("auto", "exact", "search")
HELP = (
    "Value of the zero-sum game: the code maker picks the secret with any probabilities, the "
    "code breaker may randomise over strategies; exact fraction, both optimal mixes."
)


ProofOpt = Annotated[
    Optional[str],
    typer.Option(
        "--proof",
        metavar="FILE",
        help="Write a proof file of the proven value (atomically; gzip-compressed when the name "
        "ends with .gz; - for standard output, the report then on standard error): the maker's "
        "mix as whole weights with a "
        "certificate that no strategy averages less against it, and the breaker's mix, that "
        "`mastermind verify FILE` checks with code of its own (docs/proofs.md).",
        show_default=False,
    ),
]


def register(app: typer.Typer) -> None:
    command(app, "game-value", help=HELP)(game_value)


def game_value(
    rules: RulesOpt = None,
    solver: Annotated[
        str,
        typer.Option(
            "--solver",
            metavar="|".join(SOLVERS),
            callback=choice(SOLVERS),
            help="Best replies from: auto (the exact solver), exact, or search (slow reference, tiny games).",
        ),
    ] = "auto",
    max_iterations: Annotated[
        int,
        typer.Option(
            "--max-iterations",
            metavar="N",
            callback=whole_range(2, MAX_ITERATIONS),
            help="Stop after this many best replies and report the bounds reached (exit 0).",
        ),
    ] = 500,
    time_limit: TimeLimitOpt = None,
    jobs: JobsOpt = 0,
    progress: ProgressOpt = "auto",
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
    proof: ProofOpt = None,
) -> None:
    from mastermind.app.interrupts import command_work
    from mastermind.engines.gamevalue import game_value as solve_game

    rules = game(rules)
    if proof is not None:  # (refused before the work: a result is never lost for want of a place)
        with naming("--proof"):
            if is_stdout(proof) and json_output:
                raise both_on_stdout("--proof", "--json")
            check_proof_name(proof)
            check_writable(proof)
    memory = memory_limit_bytes(memory_limit)
    table = table_for(rules, memory)
    from mastermind.core.compiling import EXACT_KERNELS, CompileNotice

    mode = progress_mode(progress, json_output)
    with (
        CompileNotice(EXACT_KERNELS, "the search kernels", quiet=json_output, json_lines=mode == "json"),
        progress_bar(mode) as bar,
        command_work(time_limit) as work,  # (Ctrl-C, and --time-limit from the command's start)
    ):
        result = solve_game(
            table,
            solver=solver,
            max_iterations=max_iterations,
            jobs=jobs_value(jobs),
            progress=bar,
            cancel=work,
        )
        written, late, stopped = None, None, None
        if proof is not None and result.proven:
            written, late, stopped = _write_proof(table, result, proof, work, memory)
    data = game_value_document(result)
    if proof is not None:
        data["proof"] = written
        if stopped is not None:
            data["stopped"] = stopped
    if json_output:
        print_json(data)
    else:
        _print(result, data, stderr=proof is not None and is_stdout(proof))
        if proof is not None and late is None:  # (else the line saying why it was not written)
            _print_proof(proof, data)
    fail_after_report(late)
    exit_if_interrupted(data["stopped"])


def _write_proof(table, result, path: str, token, memory: int | None):
    """The proof of the proven value written to ``path`` (see
    :func:`~mastermind.app.commands.common.write_proof_file`), the pass within the memory
    the exact search would take."""
    from mastermind.engines.exact import MemoryBudget
    from mastermind.engines.gamevalue import write_game_value_proof

    room = MemoryBudget.of(table, memory).proof_bytes
    return write_proof_file(
        path, token, lambda put: write_game_value_proof(put, table, result, memory=room, token=token)
    )


def _print_proof(path: str, data: dict) -> None:
    """What became of the proof's file (on standard error where standard output holds it)."""
    written = data["proof"]
    why = (
        f"the proof stopped ({data['stopped']}) before it was written"
        if data["proven"]
        else "the game value is not proven"
    )
    claims = "" if written is None else f"weighted total {written['total']}"
    say_proof(path, written, claims, why)


def _print(result, data: dict, stderr: bool = False) -> None:
    """The report (``stderr``: on standard error, where standard output holds the proof)."""
    from rich.table import Table

    rules, details = result.rules, result.details
    out = console(stderr=stderr)
    v = result.value
    if result.proven:
        out.print(f"game value of {rules}: {_number(v)} expected guesses (proven)")
    else:
        why = f"not proven: {stop_words(data['stopped'])} after {result.seconds:.2f} s"
        why += limit_note(data["stopped"])
        if data["average_upper_bound"] is None:
            low = (
                "nothing proven yet" if result.lower_bound is None else f"at least {_low(result.lower_bound)}"
            )
            out.print(
                f"game value of {rules}: {low} expected guesses ({why}, before the first strategy tree: "
                "a uniformly random secret forces that much)"
            )
            return
        out.print(
            f"game value of {rules}: between {_between(result.lower_bound, v)} expected "
            f"guesses ({why}; the maker's mix below forces the lower bound, the breaker's keeps to the upper)"
        )
    # (the total over the codes, as 5625/1296 is written; and reduced, as --json gives it)
    uniform = Fraction(details.uniform_total, rules.n_codes)
    reduced = "" if uniform.denominator == rules.n_codes else f"{uniform.numerator}/{uniform.denominator} = "
    out.print(
        f"uniformly random secret instead: {details.uniform_total}/{rules.n_codes} = {reduced}"
        f"{float(uniform):.6f}"
    )
    t = Table(title="code maker: probability per class of codes (equal within a class)")
    for col, just in (
        ("pattern", "left"),
        ("codes", "right"),
        ("example", "left"),
        ("class", "right"),
        ("each code", "right"),
        ("class prob.", "right"),
    ):
        t.add_column(col, justify=just)
    for m in details.maker:
        t.add_row(
            m.name,
            str(m.size),
            rules.code_text(m.example),
            _shown(m.probability),
            _shown(m.per_code),
            f"{float(m.probability):.6f}",
        )
    out.print(t)
    t = Table(
        title="code breaker: mix of strategy trees (each played under a random colour "
        "and position permutation)"
    )
    for col in ("weight", "first guess", "total", "worst", "guesses per class"):
        t.add_column(col, justify="left" if col == "first guess" else "right", no_wrap=True)
    for b in details.breaker:
        t.add_row(
            f"{_shown(b.weight)} ({float(b.weight):.4f})",
            rules.code_text(b.tree.root.guess),
            str(b.stats.total),
            str(b.stats.worst),
            " ".join(map(str, b.class_totals)),
        )
    out.print(t)
    unused = details.columns - len(details.breaker)  # (the mix lists the trees of weight above 0)
    out.print(
        f"{plural(details.iterations, 'best reply')}, {plural(details.columns, 'tree')} in the final LP"
        + (f" ({unused} at weight 0, not in the mix)" if unused > 0 else "")
        + f", {result.seconds:.2f} s"
    )


def _shown(x) -> str:
    """A probability as a fraction; one from the float LP of a stopped run has none."""
    return str(x) if isinstance(x, (Fraction, int)) else "~"


def _number(x) -> str:
    """``a/b = 4.340278`` for an exact number (the decimal rounded to nearest)."""
    return f"{x.numerator}/{x.denominator} = {float(x):.6f}"


def _between(low, high) -> str:
    """Both bounds written alike: as fractions when both are exact, else as decimals (the
    lower rounded down, the upper up, so that what is printed is still proven)."""
    if isinstance(low, Fraction) and isinstance(high, Fraction):
        return (
            f"{low.numerator}/{low.denominator} = {floor_decimal(low, 6)} and "
            f"{high.numerator}/{high.denominator} = {ceil_decimal(high, 6)}"
        )
    return f"{floor_decimal(low, 6)} and {ceil_decimal(high, 6)}"


def _low(x) -> str:
    """A lower bound alone: as a fraction where exact, and its decimal rounded down."""
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator} = {floor_decimal(x, 6)}"
    return floor_decimal(x, 6)
