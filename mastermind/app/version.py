"""The one version string: what ``mastermind --version`` prints and ``results`` records.

The package version, and the git commit when the code runs from a checkout
(``0.1.0+bc28114``), so that a row of results/ names the code that computed it.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path


@functools.lru_cache(maxsize=1)
def version_string() -> str:
    """``0.1.0``, or ``0.1.0+COMMIT`` from a git checkout."""
    from mastermind import __version__

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return __version__
    sha = commit.stdout.strip()
    return f"{__version__}+{sha}" if commit.returncode == 0 and sha else __version__
