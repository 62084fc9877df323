"""Headless Chromium driven over the DevTools protocol on a pipe: no driver, no extra package.

``--remote-debugging-pipe`` makes Chromium read protocol commands from file descriptor 3 and
write answers and events to descriptor 4, each message JSON ended by a NUL byte.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]
KEY_CODES = {
    "Enter": 13,
    "Escape": 27,
    " ": 32,
    "End": 35,
    "Home": 36,
    "ArrowLeft": 37,
    "ArrowUp": 38,
    "ArrowRight": 39,
    "ArrowDown": 40,
    "Tab": 9,
}


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class ProtocolError(RuntimeError):
    pass


class Chromium:
    """One headless browser with one page; ``call`` sends a command to the page's session."""

    def __init__(
        self, executable: str, profile: Path, width: int = 1280, height: int = 900, timeout: float = 30.0
    ) -> None:
        self.timeout = timeout
        to_child, self._to_browser = os.pipe()
        self._from_browser, from_child = os.pipe()

        def on_descriptors_3_and_4() -> None:  # runs in the child before exec
            # out of the way first: a pipe end may itself be descriptor 3 or 4
            high_in = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            high_out = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(high_in, 3)  # inheritable: it survives exec
            os.dup2(high_out, 4)

        self.proc = subprocess.Popen(
            [
                executable,
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=on_descriptors_3_and_4,
        )
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session = None
        page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)[
            "sessionId"
        ]
        self.call("Page.enable")
        self.call("Runtime.enable")  # the page's uncaught exceptions arrive as events
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    # ---- protocol ------------------------------------------------------------------------
    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self.session is not None:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise ProtocolError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError(f"no answer from chromium within {self.timeout} s")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise ProtocolError("chromium closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    # ---- page ----------------------------------------------------------------------------
    def open(self, url: str, ready: str = "document.documentElement.dataset.ready === 'true'") -> None:
        self.call("Page.navigate", url=url)
        self.wait_for(ready)

    def wait_for(self, expression: str) -> None:
        deadline = time.monotonic() + self.timeout
        guarded = f"(() => {{ try {{ return !!({expression}); }} catch (e) {{ return false; }} }})()"
        while not self.evaluate(guarded):
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {self.timeout} s: {expression}")
            time.sleep(0.05)

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise ProtocolError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def page_errors(self) -> list[str]:
        """Uncaught exceptions of the page so far."""
        return [
            e["params"]["exceptionDetails"].get("exception", {}).get("description", "?")
            for e in self.events
            if e.get("method") == "Runtime.exceptionThrown"
        ]

    def press(self, key: str, shift: bool = False) -> None:
        """A key as a person types it: keydown (with its text for a character), keyup."""
        down: dict[str, Any] = {"type": "keyDown", "key": key, "modifiers": 8 if shift else 0}
        if key in KEY_CODES:
            down.update(code=key, windowsVirtualKeyCode=KEY_CODES[key])
            if key in ("Enter", " "):
                down["text"] = "\r" if key == "Enter" else " "
        else:
            down.update(text=key, windowsVirtualKeyCode=ord(key.upper()))
        self.call("Input.dispatchKeyEvent", **down)
        self.call(
            "Input.dispatchKeyEvent",
            type="keyUp",
            key=key,
            windowsVirtualKeyCode=down["windowsVirtualKeyCode"],
            modifiers=down["modifiers"],
        )

    def type(self, text: str) -> None:
        for ch in text:
            self.press(ch)

    def screenshot(self, path: Path, full_page: bool = False) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", **params)["data"]))

    def close(self) -> None:
        try:
            self.session = None
            self.call("Browser.close")
        except (ProtocolError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
