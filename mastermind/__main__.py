"""``python -m mastermind``: the command line."""

from mastermind.app.cli import run

run()
