"""Reading records: JSON errors, versions, the shape check, archives and stdin."""

from __future__ import annotations

import io
import json

import pytest

from domrec import reader
from domrec.errors import NotJSONError, ShapeError, UnknownGameError, UnsupportedVersionError
from domrec.validate import validate_text

from tests.conftest import SAMPLES

GOOD = (SAMPLES / "valid" / "competitive" / "domino.json").read_text()


def doc():
    return json.loads(GOOD)


def verdict(text):
    return validate_text(text if isinstance(text, (str, bytes)) else json.dumps(text))


@pytest.mark.parametrize("text,phrase", [
    ("{", "truncated"),
    (GOOD[: len(GOOD) // 2], "truncated"),
    ("{'a': 1}", "not valid JSON"),
    ("", "not valid JSON"),
    (b"\xff\xfe{}", "not"),
    ("[" * 10000 + "]" * 10000, "nested too deeply"),
    ('{"a":' * 10000 + "1" + "}" * 10000, "nested too deeply"),
])
def test_not_json_is_unusable_with_one_line(text, phrase):
    report = verdict(text)
    assert report.status == "unusable"
    assert phrase in report.problems[0].message
    assert "\n" not in report.problems[0].message


@pytest.mark.parametrize("value,pointer", [([], ""), (3, ""), ("record", ""), (None, "")])
def test_json_that_is_not_a_record(value, pointer):
    report = verdict(value)
    assert report.status == "unusable" and report.problems[0].pointer == pointer


def test_missing_and_mistyped_fields():
    d = doc()
    del d["players"]
    assert "players" in verdict(d).problems[0].message
    d = doc()
    d["hands"][0]["moves"][2]["play"] = 63
    p = verdict(d).problems[0]
    assert p.pointer == "/hands/0/moves/2/play" and "tile" in p.message
    d = doc()
    d["hands"][0]["leader"] = 4
    assert verdict(d).problems[0].pointer == "/hands/0/leader"


def test_unknown_game():
    d = doc()
    d["game"] = "mexican-train"
    with pytest.raises(UnknownGameError) as e:
        reader.load_dict(d)
    assert "mexican-train" in e.value.message and "competitive" in e.value.message


def test_unknown_major_version_names_the_supported_ones():
    d = doc()
    d["version"] = "2.0"
    with pytest.raises(UnsupportedVersionError) as e:
        reader.load_dict(d)
    assert "1.x" in e.value.message and e.value.pointer == "/version"


def test_any_minor_of_a_known_major_is_read():
    d = doc()
    d["version"] = "1.7"
    assert verdict(d).valid


@pytest.mark.parametrize("version", ["1", "one", "1.x", 1.0, "0.9"])
def test_malformed_versions(version):
    d = doc()
    d["version"] = version
    assert verdict(d).status == "unusable"


def test_a_version_written_as_a_number_is_not_misquoted():
    """The reader keeps 1.0 as the whole number 1: the message must not say the file holds 1."""
    text = GOOD.replace('"version": "1.0"', '"version": 1.0')
    assert text != GOOD
    with pytest.raises(ShapeError) as e:
        reader.loads(text)
    assert e.value.pointer == "/version"
    assert e.value.message == 'version must be text in quotes, like "1.0", not a number'


def test_wrong_format_name():
    d = doc()
    d["format"] = "pgn"
    with pytest.raises(ShapeError):
        reader.load_dict(d)


def test_migrations_run_from_older_majors(monkeypatch):
    """A future 2.0 adds a step; here a fake major 0 shows the chain is followed."""
    monkeypatch.setattr(reader, "SUPPORTED_MAJORS", (0, 1))
    monkeypatch.setitem(reader.MIGRATIONS, 0, lambda d: {**d, "version": "1.0", "game": d["game"].lower()})
    d = doc()
    d["version"] = "0.3"
    d["game"] = "COMPETITIVE"
    assert reader.load_dict(d).game == "competitive"


def test_unknown_rule_option_is_unusable():
    d = doc()
    d["rules"] = {"options": {"first_lead": "any", "stake": 5}}
    report = verdict(d)
    assert report.status == "unusable" and report.problems[0].pointer == "/rules/options/stake"


def test_bad_option_value():
    d = doc()
    d["rules"] = {"options": {"first_lead": "highest"}}
    report = verdict(d)
    assert report.status == "unusable" and "first_lead" in report.problems[0].message


@pytest.mark.parametrize("mutate,pointer", [
    (lambda d: d["hands"][0]["deal"]["hands"]["N"].__setitem__(0, "7-3"), "/hands/0/deal/hands/N/0"),
    (lambda d: d["hands"][0]["deal"]["hands"]["E"].__setitem__(1, d["hands"][0]["deal"]["hands"]["N"][0]),
     "/hands/0/deal/hands/E/1"),
    (lambda d: d["hands"][0]["deal"]["hands"]["S"].pop(), "/hands/0/deal/hands/S"),
    (lambda d: d["hands"][0]["moves"][0].update(seat="Q"), "/hands/0/moves/0/seat"),
    (lambda d: d["hands"][0].update(leader="Q"), "/hands/0/leader"),
])
def test_rule_level_input_problems_are_invalid_not_unusable(mutate, pointer):
    d = doc()
    mutate(d)
    report = verdict(d)
    assert report.status == "invalid"
    assert report.problems[0].pointer == pointer


def test_jsonl_archive_checks_every_record(tmp_path):
    good = json.dumps(doc())
    bad_shape = json.dumps({**doc(), "players": 3})
    archive = tmp_path / "a.jsonl"
    archive.write_text("\n".join([good, "{nope", bad_shape, "", good]) + "\n")
    sources = list(reader.iter_sources([str(archive)]))
    assert [s.label.rsplit(":", 1)[1] for s in sources] == ["1", "2", "3", "5"]
    statuses = [validate_text(s.text, s.label).status for s in sources]
    assert statuses == ["valid", "unusable", "unusable", "valid"]


class CountingStream(io.BytesIO):
    """A stream that counts the lines handed out, to prove archives are streamed."""

    def __init__(self, data):
        super().__init__(data)
        self.lines_read = 0

    def __iter__(self):
        return self

    def readline(self, size=-1):  # the reader asks for lines with a size limit (MAX_RECORD_BYTES)
        line = super().readline(size)
        if line:
            self.lines_read += 1
        return line

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def test_archives_are_streamed_record_by_record():
    line = (json.dumps(doc()) + "\n").encode()
    stream = CountingStream(line * 1000)
    it = reader._split_lines(stream, "x")
    next(it)
    next(it)
    assert stream.lines_read == 2


def test_stdin_single_record_and_lines():
    one = list(reader.iter_sources(["-"], stdin=io.BytesIO(GOOD.encode())))
    assert len(one) == 1 and validate_text(one[0].text).valid
    lines = (json.dumps(doc()) + "\n") * 3
    many = list(reader.iter_sources(["-"], stdin=io.BytesIO(lines.encode())))
    assert len(many) == 3
    empty = list(reader.iter_sources(["-"], stdin=io.BytesIO(b"")))
    assert empty[0].error is not None


def test_folders_are_searched_recursively(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "x.json").write_text(GOOD)
    (tmp_path / "a" / "notes.txt").write_text("hello")
    (tmp_path / "y.jsonl").write_text(json.dumps(doc()) + "\n")
    labels = [s.label for s in reader.iter_sources([str(tmp_path)])]
    assert len(labels) == 2 and labels[0].endswith("x.json")


def test_missing_path_and_empty_folder(tmp_path):
    missing = list(reader.iter_sources([str(tmp_path / "nope.json")]))
    assert missing[0].error is not None and "no such file" in missing[0].error.message
    empty = list(reader.iter_sources([str(tmp_path)]))
    assert empty[0].error is not None


def test_parse_json_errors_are_domrec_errors():
    with pytest.raises(NotJSONError):
        reader.parse_json("nope")


def test_whole_numbers_written_with_a_point_are_integers():
    assert reader.parse_json("[3.0, 1e2, -4.0, 2.5]") == [3, 100, -4, 2.5]
    assert all(type(x) is int for x in reader.parse_json("[3.0, 1e2, 1e20]"))
    d = doc()
    d["hands"][0]["moves"][0]["score"] = 0.0
    text = json.dumps(d)
    assert '"score": 0.0' in text and verdict(text).valid


def test_a_number_of_thousands_of_digits_is_unusable_not_a_crash():
    text = GOOD.replace('"version": "1.0",', '"version": "1.0", "event": {"round": ' + "9" * 5000 + "},")
    report = verdict(text)
    assert report.status == "unusable" and "too long" in report.problems[0].message


@pytest.mark.parametrize("text,where", [
    ('{"broken":\n', "line 1, column 11"),  # (a JSON Lines line, its own newline after it)
    ('{"broken":', "line 1, column 11"),
    ('{"a":\n  [1,\n\n\n', "line 2, column 6"),
    ('[1,\n 2', "line 2, column 3"),
])
def test_a_text_that_ends_early_is_said_to_end_where_its_last_character_does(text, where):
    # (the report says the place as DGN's problems do, "1:11: not valid JSON: …", and gives it as
    # the problem's line and column; the reader's own message says it in words)
    problem = verdict(text).problems[0]
    line, column = where.removeprefix("line ").split(", column ")
    assert (problem.line, problem.column) == (int(line), int(column)), problem
    assert problem.text() == f"{line}:{column}: not valid JSON: the text ends before the JSON does (truncated?)"
    with pytest.raises(reader.NotJSONError) as e:
        reader.parse_json(text)
    assert f"at {where}: the text ends before the JSON does" in e.value.message, e.value.message


def test_an_sqlite_database_given_as_a_record_is_said_to_be_one():
    # (an event file named where its record belongs: its header is text, its pages are not)
    data = b"SQLite format 3\x00" + bytes(range(256)) * 4
    message = verdict(data).problems[0].message
    assert "SQLite database (an event file?)" in message and "UTF-8" not in message, message


@pytest.mark.parametrize("text,words", [
    ('{"a": 1 "b": 2}', "1, column 9: a comma is missing between two items"),
    ('{"a": 1}{"b": 2}', "1, column 9: more follows the end of the record"),
    ('{a: 1}', "1, column 2: a key in double quotes"),
    ('{"a": 1,}', "1, column 9: a key in double quotes"),
    ('{"a" 1}', "1, column 6: a colon is missing after the key"),
    ('{"a": "x\x01"}', "1, column 9: a text in double quotes holds a control character"),
    ('{"a": "x\\q"}', "1, column 9: a backslash starts an escape JSON does not have"),
    ('{"a": "\\u12"}', "1, column 9: a \\u escape needs four hexadecimal digits"),
    ('{"a": ]}', "1, column 7: a value is missing here"),
])
def test_broken_json_is_said_in_words_where_it_breaks(text, words):
    # Python's own words ("Expecting ',' delimiter") are not a club's: each is said as what to
    # put right, at its line and column.
    with pytest.raises(reader.NotJSONError) as e:
        reader.parse_json(text)
    said = e.value.message
    assert said.startswith("not valid JSON at line ") and words in said, said
    assert "Expecting" not in said and "delimiter" not in said


@pytest.mark.parametrize("text,where,words", [
    ('{"version": "1.0", "a": NaN}', "line 1, column 25", "NaN is not a JSON number"),
    ('{"x": "NaN -Infinity",\n "b": [1, -Infinity]}', "line 2, column 11", "-Infinity is not a JSON number"),
    ('{"a": [1,\n  1e400]}', "line 2, column 3", "the number 1e400 is too large"),
    ('{"a":\n  ' + "9" * 5000 + "}", "line 2, column 3", "a number too long to be read"),
])
def test_a_number_json_cannot_hold_is_said_where_it_is(text, where, words):
    # Python's reader gives its hooks no position: the token is found in the text (not inside a
    # text in quotes), so these are placed as every other broken JSON is.
    with pytest.raises(reader.NotJSONError) as e:
        reader.parse_json(text)
    assert e.value.message.startswith(f"not valid JSON at {where}: ") and words in e.value.message, e.value.message
