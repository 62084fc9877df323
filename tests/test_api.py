"""The public API: ``import mastermind`` is light, and every name in ``__all__`` is documented."""

import doctest
import subprocess
import sys

import pytest

import mastermind

# covered by the package's own doctest (their modules belong to engines with their own tests)
DOCTESTED_IN_PACKAGE = {"STRATEGY_NAMES"}  # (a constant: its doctest is the package's)


@pytest.mark.integration
def test_import_is_light():
    code = (
        "import sys, mastermind; print(' '.join(m for m in ('numba', 'ortools', 'rich', 'typer', "
        "'matplotlib', 'dask', 'joblib', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == []


@pytest.mark.integration
def test_import_changes_no_environment():
    """Settings for numba are the command line's business (see app.cli.run), not a library's."""
    code = (
        "import os; before = dict(os.environ); import mastermind; mastermind.Rules; "
        "print(sorted(set(os.environ.items()) ^ set(before.items())))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", mastermind.__all__)
def test_every_public_name_has_a_docstring_and_a_doctest(name):
    value = getattr(mastermind, name)
    if name in DOCTESTED_IN_PACKAGE:
        assert f">>> mm.{name}" in mastermind.__doc__ or f"= mm.{name}" in mastermind.__doc__, name
        return
    assert (value.__doc__ or "").strip(), name
    assert doctest.DocTestParser().get_examples(value.__doc__), f"{name} has no doctest"


def test_names_resolve_lazily_and_unknown_names_fail():
    assert set(mastermind.__all__) <= set(dir(mastermind))
    assert mastermind.STRATEGY_NAMES[-1] == "optimal"
    with pytest.raises(AttributeError, match="no_such_name"):
        mastermind.no_such_name  # noqa: B018


def test_all_lists_exactly_the_lazy_names():
    assert sorted(mastermind.__all__) == sorted(mastermind._WHERE)


@pytest.mark.parametrize("name", ["solve", "solve_by_first_guess"])
def test_the_solvers_examples_run_as_a_reader_types_them(name):
    """`help(mm.solve)` showed an example using a name it did not import (Problem), reaching
    into mastermind.core.game for the rest: run with nothing but what it imports itself (not
    its module's names, as --doctest-modules gives them), it works, through ``mm.``."""
    import mastermind as mm

    (test,) = doctest.DocTestFinder(recurse=False).find(getattr(mm, name), name, globs={})
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda text: None)
    assert test.examples and runner.failures == 0
    assert "import mastermind as mm" in test.docstring and "mastermind.core" not in test.docstring


def test_a_result_and_a_tree_say_what_they_are_in_one_short_line():
    """`repr(Result)` printed the whole tree (kilobytes): a result and a tree now say what
    they are, their nodes left to their fields."""
    import mastermind as mm

    table = mm.CodeTable(mm.Rules(3, 4))
    result = mm.solve(table)
    text = repr(result)
    assert len(text) < 300 and "\n" not in text, text
    assert text.startswith("Result(rules=p3c4r, objective='total', status=OPTIMAL, value=206, ")
    assert f"tree=<{result.tree.n_nodes()} nodes>" in text and "worst=4" in text
    nodes = result.tree.n_nodes()
    assert repr(result.tree) == f"StrategyTree(rules=p3c4r, first_guess='112', nodes={nodes}, name='optimal')"
