"""Every bundled sample, against the JSON Schema and against the validator.

Valid samples (samples/valid/<game>/*.json) must validate; invalid ones
(samples/invalid/<game>/NAME.json) must fail exactly as their sidecar
NAME.expect says (status, pointer, and rule when given).
"""

from __future__ import annotations

import json

import pytest

from domrec.reader import load_dict, parse_json
from domrec.record import unstructure
from domrec.validate import validate_text

from tests.conftest import SAMPLES

VALID = sorted((SAMPLES / "valid").rglob("*.json"))
INVALID = sorted((SAMPLES / "invalid").rglob("*.json"))


def _id(path):
    return str(path.relative_to(SAMPLES))


def test_there_are_samples():
    assert len(VALID) >= 5 and len(INVALID) >= 10


@pytest.mark.parametrize("path", VALID, ids=_id)
def test_valid_sample_validates(path):
    report = validate_text(path.read_bytes(), str(path))
    assert report.valid, [p.text() for p in report.problems]
    assert report.problems == ()


@pytest.mark.parametrize("path", VALID, ids=_id)
def test_valid_sample_matches_schema(path, schema_validator):
    errors = list(schema_validator.iter_errors(json.loads(path.read_text())))
    assert errors == [], [e.message for e in errors]


@pytest.mark.parametrize("path", VALID, ids=_id)
def test_valid_sample_round_trips(path):
    doc = json.loads(path.read_text())
    again = unstructure(load_dict(doc))
    assert json.dumps(again, sort_keys=True) == json.dumps(doc, sort_keys=True)


@pytest.mark.parametrize("path", INVALID, ids=_id)
def test_invalid_sample_fails_as_expected(path):
    expect = json.loads(path.with_suffix(".expect").read_text())
    report = validate_text(path.read_bytes(), str(path))
    assert report.status == expect["status"], [p.text() for p in report.problems]
    pointers = [p.pointer for p in report.problems]
    assert expect["pointer"] in pointers, pointers
    if "rule" in expect:
        found = [p for p in report.problems if p.pointer == expect["pointer"]]
        assert any(p.rule == expect["rule"] for p in found), [p.rule for p in found]
    for problem in report.problems:
        assert problem.message and "\n" not in problem.message


@pytest.mark.parametrize("path", INVALID, ids=_id)
def test_invalid_sample_schema_verdict_matches_status(path, schema_validator):
    """Unusable-by-shape samples break the schema; rule-breaking ones do not."""
    expect = json.loads(path.with_suffix(".expect").read_text())
    try:
        doc = parse_json(path.read_bytes())
    except Exception:
        assert expect["status"] == "unusable"
        return
    schema_ok = schema_validator.is_valid(doc)
    if expect["status"] == "invalid":
        assert schema_ok
    else:
        assert not schema_ok


def test_every_invalid_sample_has_a_sidecar():
    for path in INVALID:
        assert path.with_suffix(".expect").exists(), path


def test_the_package_ships_the_published_schema():
    from importlib import resources

    from tests.conftest import SCHEMA_PATH

    shipped = resources.files("domrec").joinpath("schema/domrec-1.schema.json").read_text()
    assert json.loads(shipped) == json.loads(SCHEMA_PATH.read_text())
