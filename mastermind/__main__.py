"""``python -m mastermind``: the command line."""

from mastermind.app.cli import run

if __name__ == "__main__":  # not again in worker processes that import the main module
    run()
