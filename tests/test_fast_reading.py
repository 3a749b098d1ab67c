"""reader.loads reads a record's text with orjson first; every verdict and message must be
exactly what Python's reader (parse_json) gives.  Numbers are where the two differ: orjson
keeps ``3.0``, ``1e2`` and integers too long for a float as floats, where parse_json makes
whole ones ints and reads long integers exactly.  Those records must be read again."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domrec import reader
from domrec.reader import load_dict, parse_json
from domrec.record import unstructure
from domrec.validate import validate_text

from tests.conftest import SAMPLES

pytestmark = pytest.mark.skipif(reader.orjson is None, reason="orjson is not installed")

TEXTS = [p.read_text() for p in sorted((SAMPLES / "valid").rglob("*.json"))]
BAD_TEXTS = [p.read_text() for p in sorted((SAMPLES / "invalid").rglob("*.json"))]


def slow_verdict(text: str) -> dict:
    """The verdict with Python's reader alone."""
    orjson, reader.orjson = reader.orjson, None
    try:
        return validate_text(text, "r").to_dict()
    finally:
        reader.orjson = orjson


def test_the_fast_reading_serves_the_samples():
    # Not a vacuous fast path: every good sample is read by orjson alone, to the same record.
    for text in TEXTS:
        fast = reader._loads_fast(text)
        assert fast is not None
        assert fast == load_dict(parse_json(text))


# Numbers written in every way JSON allows, where a record has numbers (and where it has not).
NUMBERS = ["3", "3.0", "-0", "-0.0", "1e2", "1E+2", "100e-2", "2.5", "12345678901234567890123",
           "12345678901234567890123.0", "1e400", "-1e400", "1" + "0" * 400, "0.1e1", "true", "null", '"3"']


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_numbers_written_any_way_get_the_slow_readings_verdict(data):
    text = data.draw(st.sampled_from(TEXTS + BAD_TEXTS))
    for _ in range(data.draw(st.integers(1, 3))):
        spots = [m.span() for m in re.finditer(r"(?<=[:\[,])\s*-?[0-9]+", text)]
        if not spots:
            break
        start, end = data.draw(st.sampled_from(spots))
        text = text[:start] + data.draw(st.sampled_from(NUMBERS)) + text[end:]
    assert validate_text(text, "r").to_dict() == slow_verdict(text)


@pytest.mark.parametrize("edit", [
    lambda d: d.setdefault("event", {}).update(round=2.0),          # a float in the free-form event
    lambda d: d.setdefault("event", {}).update(extra={"x": [1.5]}),
    lambda d: d["hands"][0].setdefault("result", {}).update(scores={"NS": 10 ** 30}),  # no float can hold it
    lambda d: d.setdefault("result", {}).update(scores={"NS": 3.0}),
])
def test_floats_anywhere_are_read_again(edit):
    for text in TEXTS:
        doc = json.loads(text)
        edit(doc)
        written = json.dumps(doc)
        assert validate_text(written, "r").to_dict() == slow_verdict(written)
        # The record itself, as written back: 2 and 2.0 are equal in Python, not in a file.
        assert json.dumps(unstructure(reader.loads(written))) == json.dumps(unstructure(load_dict(parse_json(written))))


@pytest.mark.parametrize("text", [
    '{"a": 1, "a": 2}', "[1e400]", '["\\ud800"]', "\ufeff{}", '{"format": "domrec", "version": "1.0"} x',
    "[" * 2000 + "]" * 2000, '{"format": "domrec", "version": NaN}', "", "   ", "\x00",
])
def test_texts_orjson_refuses_or_reads_otherwise_get_the_same_words(text):
    assert validate_text(text, "r").to_dict() == slow_verdict(text)
    assert validate_text(text.encode("utf-8", "surrogatepass"), "r").to_dict() == slow_verdict(
        text.encode("utf-8", "surrogatepass"))
