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
