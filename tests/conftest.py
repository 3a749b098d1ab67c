"""Shared test helpers: where the samples are, and a schema validator."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SCHEMA_PATH = ROOT / "schemas" / "domrec-1.schema.json"


@pytest.fixture(scope="session")
def schema_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check(doc: dict):
    """Validate a record given as a dict (shape check included)."""
    from domrec.reader import load_dict
    from domrec.validate import validate

    return validate(load_dict(doc))


def problem_at(report, pointer: str):
    """The first problem reported at ``pointer`` (the test fails if there is none)."""
    found = [p for p in report.problems if p.pointer == pointer]
    assert found, [p.text() for p in report.problems]
    return found[0]
