"""``info``, ``score`` and ``partition``: the game model at the command line."""

from __future__ import annotations

from typing import Annotated

import typer

from mastermind.app.commands.common import console, game_command, plural, print_json, table_for
from mastermind.core import partitions
from mastermind.core.game import CodeTable, Rules, format_bytes
from mastermind.core.symmetry import canonical_first_guesses


def register(app: typer.Typer) -> None:
    game_command(app, "info", memory=False, help="Codes, possible answers, canonical first guesses.")(info)
    game_command(app, "score", memory=False, help="Feedback of GUESS against SECRET.")(score)
    game_command(app, "partition", help="Answer frequencies of each guess over all codes.")(partition)


def info(rules: Rules, json_output: bool) -> None:
    firsts = [rules.code_text(g) for g in canonical_first_guesses(rules)]
    answers = [str(a) for a in rules.answers]
    data = {
        "rules": str(rules),
        "pegs": rules.pegs,
        "colors": rules.colors,
        "repeat": rules.repeat,
        "codes": rules.n_codes,
        "n_answers": len(answers),
        "answers": answers,
        "canonical_first_guesses": firsts,
        "table_bytes": rules.table_bytes(),
    }
    if json_output:
        print_json(data)
        return
    out = console()
    out.print(
        f"rules            {rules} ({plural(rules.pegs, 'peg')}, {plural(rules.colors, 'colour')}, "
        f"{'repetition allowed' if rules.repeat else 'no repeated colour'})"
    )
    out.print(f"codes            {rules.n_codes}")
    out.print(f"answers          {len(answers)}: {' '.join(answers)}")
    out.print(f"first guesses    {' '.join(firsts)}")
    out.print(f"score table      {format_bytes(rules.table_bytes())}")


def score(
    rules: Rules,
    json_output: bool,
    secret: Annotated[str, typer.Argument(help="The secret code, e.g. 3632.")],
    guess: Annotated[str, typer.Argument(help="The guess, e.g. 3526.")],
) -> None:
    s, g = rules.parse_code(secret), rules.parse_code(guess)
    table = CodeTable(rules, full=False, memory_limit=1 << 62)
    fb = table.feedback(s, g)
    if json_output:
        print_json(
            {
                "rules": str(rules),
                "secret": rules.code_text(s),
                "guess": rules.code_text(g),
                "black": fb.black,
                "white": fb.white,
                "feedback": str(fb),
            }
        )
    else:
        typer.echo(str(fb))


def partition(
    rules: Rules,
    json_output: bool,
    memory_limit: int,
    guesses: Annotated[list[str], typer.Argument(help="One or more guesses, e.g. 1122 1123.")],
) -> None:
    codes = [rules.parse_code(g) for g in guesses]
    # one row per guess is enough: no N x N table needed
    table = table_for(rules, memory_limit, full=False)
    counts = [table.partition(g) for g in codes]
    rows = [
        {"answer": str(fb), "counts": [int(c[rules.answer_index(fb)]) for c in counts]}
        for fb in rules.answers
    ]
    summary = {
        "largest": [partitions.largest(c) for c in counts],
        "expected_size": [round(partitions.expected_size(c), 6) for c in counts],
        "entropy_bits": [round(partitions.entropy_bits(c), 6) for c in counts],
        "parts": [partitions.parts(c) for c in counts],
    }
    texts = [rules.code_text(g) for g in codes]
    if json_output:
        print_json({"rules": str(rules), "guesses": texts, "rows": rows, **summary})
        return
    from rich.table import Table

    t = Table(title=f"answers over {plural(rules.n_codes, 'code')} of {rules}")
    t.add_column("answer")
    for text in texts:
        t.add_column(text, justify="right")
    for row in rows:
        t.add_row(row["answer"], *map(str, row["counts"]))
    t.add_section()
    t.add_row("largest", *map(str, summary["largest"]))
    t.add_row("expected size", *(f"{v:.3f}" for v in summary["expected_size"]))
    t.add_row("entropy (bits)", *(f"{v:.4f}" for v in summary["entropy_bits"]))
    t.add_row("parts", *map(str, summary["parts"]))
    console().print(t)
