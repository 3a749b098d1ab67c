"""An SQLite database (an event file) given where a record is expected, whatever its name: one
line that says what it is, never a stray part of a sentence or a verdict for every page of it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec.cli import app

runner = CliRunner()


def database(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("line\n" * 200 + str(i),) for i in range(200)])
    conn.commit()
    conn.close()
    assert path.read_bytes().count(b"\n") > 10  # pages a JSON Lines reader would cut into "records"
    return path


@pytest.mark.parametrize("name", ["event.dgn", "event.jsonl", "event.json"])
def test_a_database_named_as_a_record_is_one_unusable_line_saying_so(tmp_path: Path, name: str) -> None:
    """Named ``.dgn``, the sentence lost its first half ("1:1: give the record's own file"); named
    ``.jsonl``, every page cut at a line feed was a record of its own, said not to be UTF-32 or JSON."""
    path = database(tmp_path / name)
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 2, r.output
    assert r.output.count("UNUSABLE") == 1, r.output
    assert "this is an SQLite database (an event file?), not" in r.output, r.output
    assert "1 record: 0 valid, 0 invalid, 1 unusable" in r.output
