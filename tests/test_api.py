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
