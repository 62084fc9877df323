"""How a command reads its command line: flags without a type beside them in ``--help``,
arguments as plain ``SECRET``, and an option given twice refused.

typer prints ``--json <bool>`` for flags and ``{secret}`` for required arguments in the usage
line; :class:`Command` (given to every ``app.command`` as ``cls``) shows ``--json`` and
``SECRET`` instead, the way command-line tools usually do. An option that takes one value
and is given twice (``--rules p2c3 --rules p2c4``) would keep the last one without a word:
it is refused instead (options that take a list, ``--games`` and ``--strategy`` where it
takes several, add up).
"""

from __future__ import annotations

from collections import Counter

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption


def _plain(params) -> None:
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""  # typer shows the metavar in place of the type: nothing
        elif isinstance(param, TyperArgument) and param.metavar is None:
            param.metavar = (param.name or "").upper()


class Command(TyperCommand):
    """A typer command with conventional help (see the module)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _plain(self.params)

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                if param.nargs != 1:
                    name += "..."
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_help(self, ctx, formatter):
        _plain(self.get_params(ctx))  # the help option is made only when first asked for
        return super().format_help(ctx, formatter)

    def parse_args(self, ctx, args):
        _refuse_repeated(self.make_parser(ctx), list(args))
        return super().parse_args(ctx, args)


def _refuse_repeated(parser, args: list[str]) -> None:
    """Refuse an option of one value given more than once (see the module)."""
    try:
        _, _, order = parser.parse_args(args=args)
    except Exception:  # a malformed command line: the usual parse says what is wrong
        return
    for param, times in Counter(order).items():
        if times < 2 or not isinstance(param, TyperOption) or param.multiple or param.count:
            continue
        if param.is_flag and not param.secondary_opts:  # --json --json: said twice, meant once
            continue
        raise typer.BadParameter("given more than once; give it once", param=param)


class Group(TyperGroup):
    """The top-level ``mastermind`` group, with the same plain flags."""

    def format_help(self, ctx, formatter):
        _plain(self.get_params(ctx))
        return super().format_help(ctx, formatter)
