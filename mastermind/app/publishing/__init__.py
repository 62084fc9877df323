"""The tables of ``results/``: proven optima and game values, computed by the tool, merged into files.

Every computed number comes from the solvers (:func:`mastermind.engines.exact.solve`,
:func:`~mastermind.engines.exact.solve_by_first_guess`,
:func:`mastermind.engines.gamevalue.game_value`); published values are typed in only as
references with their source (``literature.json``), and each row says whether the tool
agrees with them or the value is new. Each piece of work runs in a child process under the
row's time limit; a game whose optimum does not finish becomes an "open" row with the
bounds the tool proves quickly. Rows are merged into the existing files, so one game can be
recomputed without losing the others.

The modules: :mod:`.scope` (the games of each table), :mod:`.literature` (the references and
each row's verdict), :mod:`.parts` (the work in the child), :mod:`.runner` (rows under their
time limits), :mod:`.files` (reading, upgrading, merging, writing), :mod:`.markdown` and
:mod:`.black_peg` (the black-peg table's header) and :mod:`.tables` (the whole run).
"""

from mastermind.app.documents import TABLES
from mastermind.app.publishing.black_peg import render_black_peg
from mastermind.app.publishing.files import (
    BLACK_PEG_FORMAT,
    FILE_VERSION,
    GAME_VALUE_FORMAT,
    OPTIMAL_FORMAT,
    merge_rows,
    read_rows,
    upgrade_row,
    write_tables,
)
from mastermind.app.publishing.literature import PUBLISHED, QUANTITY_FIELDS, literature
from mastermind.app.publishing.markdown import render_game_values, render_optimal
from mastermind.app.publishing.runner import Runner, command_for, search_bounds
from mastermind.app.publishing.scope import (
    BLACK_PEG_SCOPE,
    FRONTIER,
    GAME_VALUE_SCOPE,
    OPTIMAL_SCOPE,
    game_id,
    scope_rules,
)
from mastermind.app.publishing.tables import TablesStopped, TablesUnwritten, run_tables

__all__ = [
    "BLACK_PEG_FORMAT",
    "BLACK_PEG_SCOPE",
    "FILE_VERSION",
    "FRONTIER",
    "GAME_VALUE_FORMAT",
    "GAME_VALUE_SCOPE",
    "OPTIMAL_FORMAT",
    "OPTIMAL_SCOPE",
    "PUBLISHED",
    "QUANTITY_FIELDS",
    "TABLES",
    "Runner",
    "TablesStopped",
    "TablesUnwritten",
    "command_for",
    "game_id",
    "literature",
    "merge_rows",
    "read_rows",
    "render_black_peg",
    "render_game_values",
    "render_optimal",
    "run_tables",
    "scope_rules",
    "search_bounds",
    "upgrade_row",
    "write_tables",
]
