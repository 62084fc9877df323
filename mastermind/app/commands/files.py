"""``export`` and ``verify``: strategy trees to and from files (JSON, dot, Irving text, HTML)."""

# no "from __future__ import annotations": game_command hands these annotations to typer as
# they are, and typer cannot resolve names of this module from strings

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from mastermind.app.commands.common import (
    DRAWN_SEED_HELP,
    STRATEGY_OR_FILE_HELP,
    ColorsOpt,
    JsonOpt,
    MemoryOpt,
    NoRepeatOpt,
    PegsOpt,
    RulesOpt,
    game_command,
    histogram_text,
    memory_limit_bytes,
    one_line_errors,
    plural,
    print_json,
    resolve_rules,
    seed_option,
    table_for,
)
from mastermind.app.helpstyle import Command
from mastermind.app.strategy_files import names_a_file, read_strategy_file
from mastermind.core.errors import MastermindError
from mastermind.core.fileio import check_writable, is_stdout, read_text, write_atomic
from mastermind.core.formats import (
    FORMATS,
    READABLE,
    check_format,
    detect_format,
    format_for_path,
    verify_text,
    write_tree,
)
from mastermind.core.game import CodeTable, Rules
from mastermind.core.progress import Progress, progress_bar, wants_progress
from mastermind.core.tree import StrategyTree


def register(app: typer.Typer) -> None:
    game_command(
        app,
        "export",
        help="Write a strategy's tree as JSON, Graphviz dot, Irving text or an HTML explorer page.",
    )(export)
    app.command(
        "verify", cls=Command, help="Replay every secret through a strategy file and print its statistics."
    )(verify)


# ---- export -------------------------------------------------------------------------------
def export(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    rules_given: bool,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help=STRATEGY_OR_FILE_HELP.rstrip(".") + " to convert.",
        ),
    ] = "minimax",
    fmt: Annotated[
        Optional[str],
        typer.Option(
            "--format",
            "-f",
            help=f"{', '.join(FORMATS)} (default: from --out, else json).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Optional[str],  # not Path: Path("") would be the current folder
        typer.Option(
            "--out",
            "-o",
            help="File to write (atomically); standard output if omitted or -.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[Optional[int], seed_option(DRAWN_SEED_HELP, show_default=False)] = None,
) -> None:
    from mastermind.app.interactive.codemaker import new_seed
    from mastermind.engines.registry import check_names
    from mastermind.engines.registry import strategy as registry_strategy

    if names_a_file(strategy):
        if not rules_given:  # the game of the file, not the default one
            rules = read_strategy_file(strategy, None).rules
    else:
        check_names([strategy])
    fmt = check_format(fmt) if fmt is not None else (format_for_path(out) or "json")
    if out is not None and is_stdout(out):
        out = None  # the tree is the output
    if json_output and out is None:
        raise MastermindError("--json prints a summary of the file written: give --out FILE")
    if out is not None:
        check_writable(out)
    table = table_for(rules, memory_limit)
    drawn = seed is None and not names_a_file(strategy) and registry_strategy(strategy).draws()
    seed = new_seed() if drawn else seed  # drawn here, so that it can be said
    with progress_bar(wants_progress(json_output)) as progress:
        tree = strategy_tree_for(strategy, table, progress, seed)
    stats = tree.stats(table)
    text = write_tree(tree, fmt, stats)
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_atomic(out, text)
    summary = {
        "rules": str(rules),
        "strategy": tree.name,
        "format": fmt,
        "out": str(out),
        **{k: v for k, v in stats.to_dict(rules).items() if k != "worst_secrets"},
        **({"seed": seed} if drawn else {}),
    }
    if json_output:
        print_json(summary)
    else:
        replay = f"; seed {seed} drawn: --seed {seed} builds it again" if drawn else ""
        typer.echo(
            f"wrote {fmt} tree of {tree.name} for {rules} to {out} "
            f"(total {stats.total}, average {stats.average:.4f}, worst {stats.worst}{replay})"
        )


def strategy_tree_for(
    name: str, table: CodeTable, progress: Progress | None = None, seed: int | None = None
) -> StrategyTree:
    """The tree of a named heuristic, of the optimal strategy (``optimal``) or of a strategy file."""
    if names_a_file(name):
        return read_strategy_file(name, table.rules)  # export replays it: a wrong tree is refused there
    from mastermind.app.interrupts import command_token, unwind_on_interrupt
    from mastermind.engines.registry import strategy_tree

    with unwind_on_interrupt():  # (the optimal strategy's search stopped by Ctrl-C)
        return strategy_tree(name, table, seed=seed, progress=progress, cancel=command_token())


# ---- verify -------------------------------------------------------------------------------
def verify(
    file: Annotated[str, typer.Argument(help="Strategy file: Irving text or JSON; - reads standard input.")],
    fmt: Annotated[
        Optional[str],
        typer.Option(
            "--format",
            "-f",
            help="irving or json (default: from the name, else the content).",
            show_default=False,
        ),
    ] = None,
    rules_text: RulesOpt = None,
    pegs: PegsOpt = None,
    colors: ColorsOpt = None,
    no_repeat: NoRepeatOpt = False,
    json_output: JsonOpt = False,
    memory_limit: MemoryOpt = None,
) -> None:
    """Exit 0 for a valid tree, 1 for an invalid one, 2 for unreadable input or bad options."""
    with one_line_errors():
        explicit = rules_text is not None or pegs is not None or colors is not None or no_repeat
        rules = resolve_rules(rules_text, pegs, colors, no_repeat) if explicit else None
        limit = memory_limit_bytes(memory_limit)
        text = read_text(file)
        fmt = (
            check_format(fmt, READABLE)
            if fmt is not None
            else detect_format(text, None if file == "-" else file)
        )
        name = "" if file == "-" else Path(file).stem
        result = verify_text(text, fmt, rules, name=name, memory_limit=limit)
    if json_output:
        print_json({"file": file, **result.to_dict()})
    elif result.errors:
        typer.echo(f"error: {file} is not a valid strategy: {result.errors[0]}", err=True)
    else:
        stats = result.stats
        typer.echo(f"valid      {file}: {result.rules} strategy ({fmt}), {plural(stats.secrets, 'secret')}")
        typer.echo(f"total      {stats.total}")
        typer.echo(f"average    {stats.average:.4f}")
        typer.echo(f"worst      {stats.worst}")
        typer.echo(f"histogram  {histogram_text(stats.histogram)}  (secrets solved in 1, 2, ... guesses)")
    if not result.valid:
        raise typer.Exit(1)
