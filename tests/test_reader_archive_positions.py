"""A tester's findings on reading archives (``domrec validate`` / ``convert``):

* a broken line of a JSON Lines archive was placed inside its record (``line 1, column 20``):
  it is placed at the file's own line and column, ``7:20:``, as a DGN archive's problems are,
  and ``--json`` gives them as the problem's ``line`` and ``column``;
* a ``.jsonl`` file whose lines end with a carriage return alone (old Mac editors) was one
  line, one UNUSABLE record: such a line end is a line end;
* a pretty-printed record saved as ``.jsonl`` was an UNUSABLE verdict for each of its lines:
  it is said once, that the file holds one record written over many lines (exit 2), while an
  archive with broken lines is read a line at a time as ever;
* a ``.json`` file of binary junk was "not UTF-16-BE": bytes that are no text are said to be
  none, at their byte, and real UTF-16 files still read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import errors, reader
from domrec import simulate as sim
from domrec.cli import app
from domrec.validate import validate_text

runner = CliRunner()

#: Line 7 of the tester's archive: its key is not in double quotes, at the line's column 20.
BROKEN = '{"version": "1.0", x: 1}'


def records(n: int = 8) -> list[str]:
    return [sim.dumps(r) for r in sim.simulate("competitive", n, 11)]


def archive(tmp_path: Path, lines: list[str], end: str = "\n", name: str = "games.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes("".join(line + end for line in lines).encode("utf-8"))
    return path


def reports(*args: str, input: bytes | None = None) -> tuple[int, list[dict]]:
    result = runner.invoke(app, ["validate", "--json", *args], input=input)
    return result.exit_code, [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]


# --- 1. a broken line is placed at the file's line and column ---------------------------------

def test_a_broken_line_of_an_archive_is_placed_at_the_files_line_and_column(tmp_path):
    lines = records()
    lines[6] = BROKEN
    path = archive(tmp_path, lines)
    result = runner.invoke(app, ["validate", "-q", str(path)])
    assert result.exit_code == 2, result.output
    said = result.output.splitlines()
    assert said[0] == f"{path}:7: UNUSABLE (1 problem)", said
    assert said[1].startswith("  7:20: not valid JSON: a key in double quotes"), said
    assert "line 1" not in result.output
    code, out = reports(str(path))
    (bad,) = [r for r in out if r["status"] == "unusable"]
    problem = bad["problems"][0]
    assert bad["source"] == f"{path}:7" and (problem["line"], problem["column"]) == (7, 20), bad
    assert problem["message"].startswith("not valid JSON: a key in double quotes"), problem


def test_workers_and_standard_input_place_it_the_same_way(tmp_path):
    lines = records()
    lines[6] = BROKEN
    path = archive(tmp_path, lines)
    for args, given in (((str(path), "-j", "2"), None), (("-",), path.read_bytes())):
        code, out = reports(*args, input=given)
        (bad,) = [r for r in out if r["status"] == "unusable"]
        assert code == 2 and (bad["problems"][0]["line"], bad["problems"][0]["column"]) == (7, 20), (args, bad)


@pytest.mark.parametrize("line,column,words", [
    (b'{"version": "1.0"', 18, "not valid JSON: the text ends before the JSON does"),
    (b'{"name": "Jos\xe9"}', 14, "the text is not UTF-8 (byte 0xE9)"),
    (b'{"version": "1.0", "a": NaN}', 25, "not valid JSON: NaN is not a JSON number"),
    (b'{"a"\x00: 1}', 5, "this line is not text: its byte 0x00 is in no text"),
])
def test_every_problem_at_a_place_of_a_line_is_placed_in_the_file(tmp_path, line, column, words):
    lines = [r.encode() for r in records(4)]
    lines[2] = line
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    code, out = reports(str(path))
    (bad,) = [r for r in out if r["status"] == "unusable"]
    problem = bad["problems"][0]
    assert (bad["source"], problem["line"], problem["column"]) == (f"{path}:3", 3, column), bad
    assert problem["message"].startswith(words) and "line 1" not in problem["message"], problem


def test_convert_places_it_too(tmp_path):
    lines = records(3)
    lines[1] = BROKEN
    path = archive(tmp_path, lines)
    result = runner.invoke(app, ["convert", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2 and "2:20: not valid JSON: a key in double quotes" in result.output, result.output


def test_the_reader_says_the_files_line_in_its_own_words_too():
    with pytest.raises(reader.NotJSONError) as e:
        reader.loads(BROKEN + "\n", line=7)
    assert (e.value.line, e.value.column) == (7, 20)
    assert e.value.message.startswith("not valid JSON at line 7, column 20: "), e.value.message
    report = validate_text(BROKEN, "games.jsonl:7", line=7)
    assert report.problems[0].text().startswith("7:20: not valid JSON: "), report.problems


# --- 2. a carriage return alone ends a line ------------------------------------------------------

@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"], ids=["CR", "CRLF", "LF"])
def test_a_carriage_return_alone_ends_a_line_as_the_others_do(tmp_path, end):
    lines = records(5)
    lines[3] = BROKEN
    path = archive(tmp_path, lines, end)
    code, out = reports(str(path))
    assert [r["source"] for r in out] == [f"{path}:{n}" for n in range(1, 6)], out
    assert [r["status"] for r in out] == ["valid"] * 3 + ["unusable", "valid"], out
    assert (out[3]["problems"][0]["line"], out[3]["problems"][0]["column"]) == (4, 20)
    code, piped = reports("-", input=path.read_bytes())
    assert [r["status"] for r in piped] == [r["status"] for r in out], piped


def test_line_ends_may_be_mixed_and_are_numbered_as_an_editor_shows_them(tmp_path):
    a, b, c, d = records(4)
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(f"{a}\r{b}\n\n{c}\r\n\r{d}".encode())
    code, out = reports(str(path))
    assert code == 0 and [r["source"] for r in out] == [f"{path}:{n}" for n in (1, 2, 4, 6)], out


# --- 3. one record written over many lines, saved as .jsonl ----------------------------------------

def pretty(tmp_path: Path, text: str, name: str = "game.jsonl") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    return result.exit_code, result.output


def test_a_pretty_printed_record_saved_as_jsonl_is_said_once(tmp_path):
    (record,) = records(1)
    code, said = pretty(tmp_path, json.dumps(json.loads(record), indent=2) + "\n")
    assert code == 2, said
    assert said.count("UNUSABLE") == 1 and "1 record: 0 valid, 0 invalid, 1 unusable" in said, said
    assert "holds one JSON record written over many lines" in said and "name it game.json" in said, said
    renamed = tmp_path / "game.json"
    (tmp_path / "game.jsonl").rename(renamed)
    assert runner.invoke(app, ["validate", str(renamed)]).exit_code == 0


def test_so_is_one_broken_and_one_written_with_old_mac_line_ends(tmp_path):
    (record,) = records(1)
    text = json.dumps(json.loads(record), indent=2)
    broken = text.replace('"format": "domrec",', '"format": "domrec"', 1)
    code, said = pretty(tmp_path, broken + "\n")
    assert code == 2 and said.count("UNUSABLE") == 1 and "its first line is \"{\" alone" in said, said
    code, said = pretty(tmp_path, text.replace("\n", "\r") + "\r", "mac.jsonl")
    assert code == 2 and said.count("UNUSABLE") == 1 and "one JSON record written over many lines" in said, said


@pytest.mark.parametrize("head", [
    ["{", '  "format": "domrec",'],  # a record cut after its second line, then whole records
    ["garbage", "more garbage"],
    [BROKEN, BROKEN],
])
def test_an_archive_whose_first_lines_are_broken_is_still_read_a_line_at_a_time(tmp_path, head):
    path = archive(tmp_path, head + records(3))
    code, out = reports(str(path))
    assert [r["status"] for r in out] == ["unusable", "unusable", "valid", "valid", "valid"], out
    assert "written over many lines" not in json.dumps(out)


# --- 4. bytes that are no text -------------------------------------------------------------

@pytest.mark.parametrize("data,byte,offset", [
    (bytes([0x00, 0x41, 0x9F, 0x22, 0x10, 0xD8, 0x00, 0x00, 0xDC, 0x12]) * 5, 0x00, 0),  # "UTF-16-BE"
    (bytes([0x8F, 0x00, 0x13, 0xFE, 0x99, 0x01, 0x02, 0x88, 0xFF, 0x00]) * 10, 0x8F, 0),  # "UTF-16-LE"
    (bytes(range(256)) * 4, 0x00, 0),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(200)), 0x89, 0),
    (b"\x00" * 64, 0x00, 0),
    (b'{"version": "1.0"}' + b"\x00" * 100, 0x00, 18),  # a copy padded with NULs
])
def test_bytes_that_are_no_text_are_said_to_be_none(tmp_path, data, byte, offset):
    path = tmp_path / "junk.json"
    path.write_bytes(data)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    assert f"this is not a text file: its byte 0x{byte:02X}, at offset {offset}, is in no text" in result.output
    assert "UTF-16" not in result.output and "UTF-32" not in result.output, result.output
    with pytest.raises(errors.NotTextError):
        reader.parse_json(data)


@pytest.mark.parametrize("encoding,bom", [
    ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-16-le", b""), ("utf-16-be", b""),
    ("utf-32-le", b"\xff\xfe\x00\x00"),
], ids=["16le-bom", "16be-bom", "16le", "16be", "32le-bom"])
def test_real_utf16_and_utf32_records_still_read(tmp_path, encoding, bom):
    (record,) = records(1)
    path = tmp_path / "wide.json"
    path.write_bytes(bom + record.encode(encoding))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0 and "valid competitive" in result.output, result.output


def test_text_in_another_encoding_is_still_said_to_be_not_utf8(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes('{"version": "1.0", "event": "Peña"}'.encode("latin-1"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "1:32: the text is not UTF-8 (byte 0xF1); save the file as UTF-8" in result.output


def test_blocks_of_a_large_archive_number_lines_as_the_whole_files_reading(tmp_path):
    # (--dask cuts a large archive into blocks at line feeds, and numbered each block's first
    # line by the line feeds before it: after lines ended by a carriage return alone, too low)
    from domrec import cluster
    from domrec.parallel import reports_of

    lines = records(12)
    lines[9] = BROKEN
    path = tmp_path / "mixed.jsonl"
    ends = ["\r", "\n", "\r\n"]
    path.write_bytes("".join(line + ends[i % 3] for i, line in enumerate(lines)).encode())
    whole = [r.to_dict() for src in reader.iter_sources([str(path)]) for r in reports_of(src)]
    assert [r["source"] for r in whole] == [f"{path}:{n}" for n in range(1, 13)]
    parts = cluster.tasks([str(path)], block_bytes=len(lines[0]) * 2)
    assert len(parts) > 2
    assert [r.to_dict() for part in parts for r in cluster.check_task(part)] == whole
