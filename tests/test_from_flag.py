"""``--from`` says what a file named by no record suffix holds (``three.txt``), for ``convert`` and
``validate`` alike: json, jsonl or dgn (a tester's finding: ``convert --from jsonl three.txt`` read
the archive as one JSON record and refused it, ``convert --from json g.txt`` converted a DGN text
as DGN, and ``validate`` refused ``--from jsonl``; standard input was read right).  A file named
``*.json``, ``*.jsonl`` or ``*.dgn`` is read by its name, as the docs say."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from domrec import simulate as sim
from domrec.cli import app

from tests.conftest import SAMPLES

runner = CliRunner()


def _archive(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_text("".join(sim.dumps(r) + "\n" for r in sim.simulate("competitive", 3, 5)), encoding="utf-8")
    return path


def test_convert_reads_a_json_lines_archive_named_txt_with_from_jsonl(tmp_path):
    source = _archive(tmp_path, "three.txt")
    out = tmp_path / "three.dgn"
    result = runner.invoke(app, ["convert", "--from", "jsonl", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    again = runner.invoke(app, ["validate", str(out)])
    assert again.exit_code == 0 and "3 records: 3 valid" in again.output


def test_validate_takes_from_jsonl_for_a_file_and_for_standard_input(tmp_path):
    source = _archive(tmp_path, "three.txt")
    result = runner.invoke(app, ["validate", "--from", "jsonl", str(source)])
    assert result.exit_code == 0, result.output
    assert "three.txt:3: valid" in result.output
    piped = runner.invoke(app, ["validate", "--from", "jsonl", "-"], input=source.read_bytes())
    assert piped.exit_code == 0 and "<stdin>:3: valid" in piped.output
    wrong = runner.invoke(app, ["validate", "--from", "csv", str(source)])
    assert wrong.exit_code == 2 and "--from is json, jsonl or dgn, not 'csv'" in wrong.output


def test_convert_obeys_from_json_for_a_dgn_text_named_txt(tmp_path):
    source = tmp_path / "g.txt"
    source.write_bytes((SAMPLES / "valid" / "competitive" / "comments.dgn").read_bytes())
    out = tmp_path / "g.json"
    said = runner.invoke(app, ["convert", "--from", "json", str(source), "-o", str(out)])
    assert said.exit_code == 2 and "not valid JSON" in said.output and not out.exists()
    # read by its start without --from, as the docs say
    plain = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert plain.exit_code == 0, plain.output


def test_a_file_named_by_its_suffix_is_read_by_it_whatever_from_says(tmp_path):
    source = _archive(tmp_path, "three.jsonl")
    result = runner.invoke(app, ["validate", "--from", "json", str(source)])
    assert result.exit_code == 0 and "3 records: 3 valid" in result.output
