"""``python -m mastermind`` and the ``mastermind`` console script: the command line."""

import os
import sys


def main() -> None:
    """Run the command line. A Ctrl-C in its start-up, while Python imports the command line
    itself (before the commands' own handling of Ctrl-C), ends it as a Ctrl-C in a command
    does: the one line "interrupted" and exit code 130, not a traceback."""
    try:
        from mastermind.app.cli import run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
        os._exit(130)
    run()


if __name__ == "__main__":  # not again in worker processes that import the main module
    main()
