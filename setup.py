"""Build hook: an editable install compiles the numba kernels once, ahead of the first command.

Everything else about the package is in pyproject.toml. ``pip install -e .`` builds in an
environment with numba (``build-system.requires``) and runs ``mastermind.app.precompile``
from the source tree, which fills numba's cache beside the sources; the installed command
then loads the kernels instead of compiling them. ``MASTERMIND_PRECOMPILE=0`` skips it, and a
failure only warns: the first command then compiles, as without this hook. A wheel is not
precompiled (numba's cache is valid for the machine and the source files that made it).
"""

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def precompile(root: Path = ROOT) -> bool:
    """Run the kernels' precompilation from the sources in ``root``; whether it worked."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "mastermind.app.precompile"]
    if subprocess.run(command, cwd=root, env=env, check=False).returncode == 0:
        return True
    print("warning: precompiling the kernels failed; the first command will compile them", file=sys.stderr)
    return False


class BuildPyPrecompiled(build_py):
    """setuptools' build_py, then (editable installs only) the kernels' precompilation."""

    def run(self) -> None:
        super().run()
        if self.editable_mode and os.environ.get("MASTERMIND_PRECOMPILE", "1") != "0":
            precompile()


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import it
    setup(cmdclass={"build_py": BuildPyPrecompiled})
