"""Shared by the tests of the app: the validators of every command's ``--json`` schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mastermind.app.cli import COMMANDS

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.fixture(scope="session")
def validators() -> dict:
    """A Draft 2020-12 validator of ``schemas/COMMAND.schema.json`` for every command, by
    command name, resolving ``common.schema.json``; each schema is checked as a schema too.
    Without jsonschema (extra: test) the tests that ask for it skip, saying why."""
    jsonschema = pytest.importorskip("jsonschema", reason="the schema checks need jsonschema (extra: test)")
    referencing = pytest.importorskip("referencing", reason="jsonschema's referencing library is missing")
    from referencing.jsonschema import DRAFT202012

    registry = referencing.Registry().with_resources(
        (path.name, referencing.Resource.from_contents(json.loads(path.read_text()), DRAFT202012))
        for path in SCHEMAS.glob("*.schema.json")
    )
    out = {}
    for name in (name for names in COMMANDS.values() for name in names):
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        out[name] = jsonschema.Draft202012Validator(schema, registry=registry)
    return out
