"""Names of a package loaded on first use (PEP 562), so that importing the package, or a light
module of it, loads none of its heavy modules (numba, OR-Tools) until a name is asked for."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, where: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose public names are ``where``'s
    keys: each is found in the submodule its value names ("module" or "module:name" where the
    package gives it another name), imported on first use and kept in the package."""

    def __getattr__(name: str) -> Any:
        # (a submodule's name is not one of them: ``from package import module`` imports it)
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = where[name].partition(":")
        value = getattr(importlib.import_module(f"{package}.{module}"), attribute or name)
        vars(sys.modules[package])[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__
