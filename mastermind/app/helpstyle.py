"""How ``--help`` looks: flags without a type beside them, arguments as plain ``SECRET``.

typer prints ``--json <bool>`` for flags and ``{secret}`` for required arguments in the usage
line; :class:`Command` (given to every ``app.command`` as ``cls``) shows ``--json`` and
``SECRET`` instead, the way command-line tools usually do.
"""

from __future__ import annotations

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


class Group(TyperGroup):
    """The top-level ``mastermind`` group, with the same plain flags."""

    def format_help(self, ctx, formatter):
        _plain(self.get_params(ctx))
        return super().format_help(ctx, formatter)
