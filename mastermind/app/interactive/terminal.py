"""The loop that connects a session to standard input and output.

Prompts go to the terminal: on a terminal they are shown (on standard error when standard
output is redirected, so a log holds only the game); with piped input each prompt is echoed
with the line read, so the output reads like the session would on screen. End of input
(Ctrl-D) ends the session cleanly with exit code 0, Ctrl-C with 130; never a traceback.
"""

from __future__ import annotations

import sys
from typing import Protocol, TextIO


class Session(Protocol):
    done: bool
    ended_by: str | None  # "end of input" when input ended before the game did

    def opening(self) -> str: ...

    def prompt(self) -> str: ...

    def handle(self, line: str) -> str: ...

    def closing(self) -> str: ...


class LineReader:
    """Reads one line per prompt; raises EOFError at the end of input."""

    def __init__(self, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.interactive = _isatty(stdin)
        self.use_input = self.interactive and _isatty(stdout) and stdin is sys.stdin and stdout is sys.stdout
        if self.use_input:
            try:
                import readline  # noqa: F401  - line editing and history for input()
            except ImportError:  # pragma: no cover - platforms without readline
                pass

    def read(self, prompt: str) -> str:
        from mastermind.app.interrupts import reading_input

        with reading_input():  # (Ctrl-C while a line is awaited: out at once)
            return self._read(prompt)

    def _read(self, prompt: str) -> str:
        if self.use_input:
            return input(prompt)
        if self.interactive:
            self.stderr.write(prompt)
            self.stderr.flush()
        line = self.stdin.readline()
        if line == "":
            raise EOFError
        line = line.rstrip("\r\n")
        if not self.interactive:
            self.stdout.write(f"{prompt}{line}\n")
        return line


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def run_session(
    session: Session, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Play ``session`` until it is done or input ends; returns the exit code."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr

    def say(text: str) -> None:
        if text:
            stdout.write(text + "\n")
            stdout.flush()

    reader = LineReader(stdin, stdout, stderr)
    try:
        say(session.opening())
        while not session.done:
            try:
                line = reader.read(session.prompt())
            except EOFError:
                if reader.interactive:
                    stderr.write("\n")
                session.ended_by = "end of input"
                say(session.closing())
                return 0
            say(session.handle(line))
    except KeyboardInterrupt:  # (the game so far, as at the end of input: a drawn seed is not lost)
        stderr.write("\n")
        say(session.closing())
        stderr.write("interrupted\n")
        stderr.flush()
        return 130
    return 0
