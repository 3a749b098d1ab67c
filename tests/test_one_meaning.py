"""One meaning per record (issue 27, point 3): a key given twice in one object, a tile written
with a leading zero and a version written ``1.00`` are refused, so that no two programs can
read one record two ways."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from domrec import reader
from domrec.errors import DuplicateKeyError, pointer_token
from domrec.validate import validate_text

from tests.conftest import SAMPLES

GOOD = (SAMPLES / "valid" / "competitive" / "domino.json").read_text()
RECORD = json.loads(GOOD)


def verdict(text):
    return validate_text(text, "r")


# --- the probe's findings ----------------------------------------------------------------

def test_a_move_that_plays_twice_is_refused_with_its_pointer():
    doc = json.loads(GOOD)
    move = doc["hands"][0]["moves"][0]
    assert "play" in move
    text = json.dumps(doc).replace(json.dumps(move)[:-1], json.dumps(move)[:-1] + ', "play": "5-2"', 1)
    report = verdict(text)
    assert report.status == "unusable"
    assert report.problems[0].pointer == "/hands/0/moves/0/play"
    assert "given twice" in report.problems[0].message


@pytest.mark.parametrize("encode", [False, True])
def test_a_record_of_two_games_is_refused(encode):
    text = GOOD.replace('"game":', '"game": "broadway", "game":', 1)
    report = verdict(text.encode() if encode else text)
    assert report.status == "unusable"
    assert report.problems[0].pointer == "/game"
    assert report.problems[0].text().count("\n") == 0


def test_a_large_record_is_checked_as_it_is_read(monkeypatch):
    monkeypatch.setattr(reader, "_LEAN_FROM", 10)
    with pytest.raises(DuplicateKeyError) as e:
        reader.parse_json('{"a": [{"b": 1}, {"b": 2, "c": {"d": 1, "d": 1}}]}')
    assert e.value.pointer == "/a/1/c/d"
    assert reader.parse_json('{"a": [{"b": 1}, {"b": 2}]}') == {"a": [{"b": 1}, {"b": 2}]}
    assert type(reader.parse_json('{"a": {"b": 1}}')["a"]) is dict


def test_a_colon_written_as_an_escape_is_no_duplicate():
    assert reader.parse_json('{"a": "\\u003a", "b\\u003A": 1}') == {"a": ":", "b:": 1}
    with pytest.raises(DuplicateKeyError):
        reader.parse_json('{"a": "\\u003a", "a": 1}')


def test_without_orjson_duplicates_are_refused_too(monkeypatch):
    monkeypatch.setattr(reader, "orjson", None)
    assert verdict(GOOD.replace('"game":', '"game": "broadway", "game":', 1)).problems[0].pointer == "/game"
    assert verdict(GOOD).valid


@pytest.mark.parametrize("written", ["05-2", "5-02", "00-0", "06-06"])
def test_a_tile_with_a_leading_zero_is_refused(written):
    doc = json.loads(GOOD)
    move = next(m for m in doc["hands"][0]["moves"] if "play" in m)
    a, b = move["play"].split("-")
    move["play"] = written if written != "05-2" else f"0{a}-{b}"
    report = verdict(json.dumps(doc))
    assert not report.valid
    assert "leading zero" in report.problems[0].message, report.problems[0].text()


TYPED = (SAMPLES / "valid" / "competitive" / "typed-domino.dgn").read_text()


def dgn_verdict(text: str):
    from domrec import notation

    return next(iter(notation.read_games(text.encode(), "t.dgn"))).report


def _typed_verdict(old: str, new: str):
    """The typed sample with ``old`` (its first occurrence) written as ``new``; the line and
    column where ``new`` starts."""
    at = TYPED.index(old)
    line = TYPED.count("\n", 0, at) + 1
    column = at - (TYPED.rfind("\n", 0, at) + 1) + 1
    return dgn_verdict(TYPED.replace(old, new, 1)), line, column


@pytest.mark.parametrize("old, new, fixed, place", [
    ("5-2 6-5", "05-2 6-5", "5-2", "hand 1, move 1"),            # a move (the "05-2")
    ("5-2 6-5", "5-02 6-5", "5-2", "hand 1, move 1"),
    ("6-4@4-2", "6-4@04-2", "6-4@4-2", "hand 1, move 4"),        # the tile played on
    ("3-3; S", "03-3; S", "3-3", "hand 1"),                      # the tiles left at the end
])
def test_a_typed_tile_with_a_leading_zero_is_refused_at_its_line_and_column(old, new, fixed, place):
    assert dgn_verdict(TYPED).valid
    report, line, column = _typed_verdict(old, new)
    assert report.status == "unusable"
    problem = report.problems[0]
    word = new.split(" ")[0].rstrip(";")
    assert problem.text() == (f"{line}:{column}: {place}: {word!r}: a tile's numbers are written without a leading zero "
                              f"({fixed})"), problem.text()


@given(st.integers(0, 6), st.integers(0, 6), st.sampled_from(["-", ":", "|"]), st.sampled_from(["a", "b", "ab"]))
def test_any_typed_tile_with_a_leading_zero_is_refused_and_without_one_reads(a, b, dash, zeros):
    """Property: a move's tile written with a zero before either number is refused, naming the
    column; the same tile without it reads (the two-digit form ``52`` stays 5-2)."""
    head = TYPED.split("hand 1", 1)[0]
    plain = f"{a}{dash}{b}"
    zeroed = f"{'0' if 'a' in zeros else ''}{a}{dash}{'0' if 'b' in zeros else ''}{b}"
    report = dgn_verdict(f"{head}hand 1 lead N\nN {zeroed}\n")
    assert report.status == "unusable"
    assert report.problems[0].text().startswith(f"8:3: hand 1, move 1: {zeroed!r}: a tile's numbers are written without a "
                                                "leading zero"), report.problems[0].text()
    read = dgn_verdict(f"{head}hand 1 lead N\nN {plain}\n")
    assert "leading zero" not in " ".join(p.message for p in read.problems)


@pytest.mark.parametrize("version", ["1.00", "01.0", "1.01", "1.000"])
def test_a_version_with_a_leading_zero_is_refused(version):
    doc = json.loads(GOOD)
    doc["version"] = version
    report = verdict(json.dumps(doc))
    assert report.status == "unusable"
    assert report.problems[0].pointer == "/version"


def test_versions_and_tiles_as_written_still_read():
    for version in ("1.0", "1.1"):
        assert verdict(json.dumps({**RECORD, "version": version})).valid
    from domrec import tiles
    assert tiles.tile("0-0") is tiles.make(0, 0) and tiles.tile("10-0") is tiles.make(10, 0)


# --- any JSON value, a duplicate key at any depth --------------------------------------------

KEYS = st.text(st.sampled_from("ab:~/\"\\é 1"), max_size=4)
SCALARS = st.none() | st.booleans() | st.integers(-10 ** 20, 10 ** 20) | st.text(st.sampled_from("x:\"\\é"), max_size=4)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                      max_leaves=20)


def objects(value, pointer=""):
    """Every object of ``value`` with its pointer, in the order of the text."""
    if isinstance(value, dict):
        yield pointer, value
        for k, v in value.items():
            yield from objects(v, f"{pointer}/{pointer_token(k)}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from objects(v, f"{pointer}/{i}")


def write(value, escape_colons, target=None, extra=None, pointer=""):
    """JSON text of ``value``, each string's colons escaped as ``\\u003a`` when ``escape_colons``,
    and at the object at ``target`` one more pair ``extra`` = (key, value, position)."""
    def text(s):
        out = json.dumps(s)
        return out.replace(":", "\\u003a") if escape_colons else out

    if isinstance(value, dict):
        pairs = [f"{text(k)}: {write(v, escape_colons, target, extra, f'{pointer}/{pointer_token(k)}')}"
                 for k, v in value.items()]
        if pointer == target:
            key, v, at = extra
            pairs.insert(min(at, len(pairs)), f"{text(key)}: {write(v, escape_colons)}")
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(write(v, escape_colons, target, extra, f"{pointer}/{i}") for i, v in enumerate(value)) + "]"
    if isinstance(value, str):
        return text(value)
    return json.dumps(value)


@given(VALUES, st.booleans())
def test_any_value_without_duplicates_reads_as_json_reads_it(value, escape_colons):
    text = write(value, escape_colons)
    assert reader.parse_json(text) == json.loads(text)


@given(VALUES.filter(lambda v: any(o for _, o in objects(v))), st.data())
def test_any_value_with_a_key_given_twice_is_refused_with_its_pointer(value, data):
    found = [(p, o) for p, o in objects(value) if o]
    pointer, obj = data.draw(st.sampled_from(found))
    key = data.draw(st.sampled_from(sorted(obj)))
    extra = (key, data.draw(VALUES), data.draw(st.integers(0, len(obj))))
    text = write(value, data.draw(st.booleans()), pointer, extra)
    for lean in (False, True):
        saved = reader._LEAN_FROM
        reader._LEAN_FROM = 0 if lean else saved
        try:
            with pytest.raises(DuplicateKeyError) as e:
                reader.parse_json(text.encode() if data.draw(st.booleans()) else text)
        finally:
            reader._LEAN_FROM = saved
        assert e.value.pointer == f"{pointer}/{pointer_token(key)}"


@given(st.data())
def test_a_record_with_a_key_given_twice_anywhere_is_refused(data):
    pointer, obj = data.draw(st.sampled_from([(p, o) for p, o in objects(RECORD) if o]))
    key = data.draw(st.sampled_from(sorted(obj)))
    extra = (key, data.draw(st.sampled_from([obj[key], "5-2", 0, None])), data.draw(st.integers(0, len(obj))))
    report = verdict(write(RECORD, False, pointer, extra))
    assert report.status == "unusable"
    assert report.problems[0].pointer == f"{pointer}/{pointer_token(key)}"
