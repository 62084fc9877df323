"""numba's error messages without colours, for the command line and the install's precompilation.

A module of its own, importing nothing but :mod:`os`: ``python -m mastermind.app.precompile``
runs in pip's isolated build environment, which has numpy and numba but not typer or rich, so
it must not reach this through the command line's module (it did, and the install's
precompilation failed with a warning pip hides).
"""

from __future__ import annotations

import os


def quiet_numba_colours() -> None:
    """For the command line only, before numba is imported (it reads this then): numba's
    coloured error messages init colorama, whose exit hook writes ESC[0m to the terminal.
    A program that imports the library keeps numba's own setting."""
    os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
