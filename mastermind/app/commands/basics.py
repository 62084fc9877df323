"""``info``, ``score`` and ``partition``: the game model at the command line."""

from typing import Annotated

import typer

from mastermind.app.commands.common import (
    JsonOpt,
    LeanMemoryOpt,
    RulesOpt,
    command,
    command_work,
    console,
    game,
    memory_limit_bytes,
    naming,
    plural,
    print_json,
    table_for,
)
from mastermind.core import partitions
from mastermind.core.game import format_bytes, score
from mastermind.core.symmetry import canonical_first_guesses
from mastermind.core.variant import STANDARD

SecretArg = Annotated[str, typer.Argument(help="The secret code, e.g. 3632.")]


def register(app: typer.Typer) -> None:
    command(app, "info", help="Codes, possible answers, canonical first guesses.")(info)
    command(app, "score", help="Feedback of GUESS against SECRET.")(score_command)
    command(app, "partition", help="Answer frequencies of each guess over all codes.")(partition)


def info(rules: RulesOpt = None, json_output: JsonOpt = False) -> None:
    rules = game(rules)
    firsts = [rules.code_text(g) for g in canonical_first_guesses(rules)]
    feedbacks = [str(a) for a in rules.answers]
    data = {
        "rules": str(rules),
        "pegs": rules.pegs,
        "colours": rules.colors,
        "repetition": rules.repeat,
        "variant": rules.variant.name,
        "codes": rules.n_codes,
        "answers": len(feedbacks),
        "feedbacks": feedbacks,
        "canonical_first_guesses": firsts,
        "table_bytes": rules.table_bytes(),
    }
    if json_output:
        print_json(data)
        return
    out = console()
    out.print(
        f"rules            {rules} ({plural(rules.pegs, 'peg')}, {plural(rules.colors, 'colour')}, "
        f"{'repetition allowed' if rules.repeat else 'no repeated colour'}"
        f"{'' if rules.variant is STANDARD else ', ' + rules.variant.description})"
    )
    out.print(f"codes            {rules.n_codes}")
    out.print(f"answers          {len(feedbacks)}: {' '.join(feedbacks)}")
    out.print(f"first guesses    {' '.join(firsts)}")
    out.print(f"score table      {format_bytes(rules.table_bytes())}")


def score_command(
    secret: SecretArg,
    guess: Annotated[str, typer.Argument(help="The guess, e.g. 3526.")],
    rules: RulesOpt = None,
    json_output: JsonOpt = False,
) -> None:
    rules = game(rules)
    with naming("SECRET"):  # (which of the two codes is wrong)
        s = rules.parse_code(secret)
    with naming("GUESS"):
        g = rules.parse_code(guess)
    fb = score(rules, s, g)  # two codes: no table of every code, whatever the size of the game
    if json_output:
        print_json(
            {
                "rules": str(rules),
                "secret": rules.code_text(s),
                "guess": rules.code_text(g),
                "feedback": str(fb),
                "black": fb.black,
                "white": fb.white_told,
            }
        )
    else:
        typer.echo(str(fb))


def partition(
    guesses: Annotated[list[str], typer.Argument(help="One or more guesses, e.g. 1122 1123.")],
    rules: RulesOpt = None,
    json_output: JsonOpt = False,
    memory_limit: LeanMemoryOpt = None,
) -> None:
    rules = game(rules)
    with naming("GUESSES"):
        codes = [rules.parse_code(g) for g in guesses]
    # one row per guess is enough: no N x N table needed
    table = table_for(rules, memory_limit_bytes(memory_limit), full=False)
    from mastermind.app.interrupts import unwind_on_interrupt

    # (p8c8 counts 16.7 million codes a guess, seconds: a Ctrl-C that came meanwhile let it
    # finish and exit 0, or unwound it, by when it came; now it stops at once, exit 130)
    with command_work() as token, token.running(), unwind_on_interrupt():
        counts = [table.partition(g, cancel=token) for g in codes]
        token.check()  # (a Ctrl-C in the last pass: stopped all the same, not a full answer)
    data = {
        "rules": str(rules),
        "codes": rules.n_codes,
        "partitions": [
            {
                "guess": rules.code_text(g),
                "classes": [
                    {"feedback": str(fb), "size": int(c[rules.answer_index(fb)])} for fb in rules.answers
                ],
                "largest_class": partitions.largest(c),  # (as bounds' and table's knuth_largest_class)
                "expected_size": round(partitions.expected_size(c), 6),
                "entropy_bits": round(partitions.entropy_bits(c), 6),
                "parts": partitions.parts(c),
            }
            for g, c in zip(codes, counts)
        ],
    }
    if json_output:
        print_json(data)
        return
    from rich.table import Table

    parts = data["partitions"]
    t = Table(title=f"answers over {plural(rules.n_codes, 'code')} of {rules}")
    t.add_column("answer")
    for p in parts:
        t.add_column(p["guess"], justify="right")
    for i, fb in enumerate(rules.answers):
        t.add_row(str(fb), *(str(p["classes"][i]["size"]) for p in parts))
    t.add_section()
    t.add_row("largest", *(str(p["largest_class"]) for p in parts))
    t.add_row("expected size", *(f"{p['expected_size']:.3f}" for p in parts))
    t.add_row("entropy (bits)", *(f"{p['entropy_bits']:.4f}" for p in parts))
    t.add_row("parts", *(str(p["parts"]) for p in parts))
    console().print(t)
