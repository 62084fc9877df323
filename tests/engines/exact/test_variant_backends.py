"""Workers of their own rebuild the game from its rules text: a black-peg game must stay one.

A worker that rebuilt the standard game's table would prove the standard optimum (p3c3: 73)
where black-peg's is higher; every backend must find the optimum the search in this thread finds.
"""

import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import solve
from mastermind.engines.exact.options import Execution


# worker processes of their own, each importing numba and loading the kernels: integration
@pytest.mark.integration
@pytest.mark.parametrize("text", ["p3c3b", "p3c4nb"])
@pytest.mark.parametrize("backend", ["processes", "dask"])
def test_workers_of_their_own_solve_the_variant(text, backend):
    table = CodeTable(Rules.parse(text))
    here = solve(table, execution=Execution(units=False))
    standard = solve(CodeTable(Rules(table.rules.pegs, table.rules.colors, table.rules.repeat)))
    assert here.total != standard.total  # (the check below could tell them apart)
    result = solve(table, execution=Execution(jobs=2, backend=backend))
    assert result.proven and result.counters.units > 1
    assert result.total == here.total
    assert result.tree.stats(table).total == here.total
