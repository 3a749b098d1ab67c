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


def test_a_database_this_process_holds_is_in_use_by_any_name_in_any_journal_mode(tmp_path: Path, monkeypatch) -> None:
    """An event in rollback-journal mode has no log beside it to be known by, and a hard link to an
    event has none beside its own name: a process holding the database opened and closed either
    with ``open()`` when asked to read it, dropping its own SQLite locks.  Once the process has
    opened a database, a file it holds a descriptor of is in use by whatever name; the descriptor
    closed, it no longer is; a process that never opened one is not slowed by the search."""
    import os

    from domrec import reader

    monkeypatch.setattr(reader, "_DATABASES_OPENED", False)
    path = database(tmp_path / "old.db")
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode = DELETE").fetchone() == ("delete",)
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (200,)
        hard = tmp_path / "another-name.dgn"
        os.link(path, hard)
        assert not (tmp_path / "old.db-wal").exists() and not reader.database_in_use(hard)
        reader.databases_opened()
        assert reader.database_in_use(path) and reader.database_in_use(hard)
        with pytest.raises(OSError, match="a file this command holds open .an SQLite database in use"):
            reader.read_bytes(hard)
        assert not reader.database_in_use(tmp_path / "elsewhere.db")
    finally:
        conn.close()
    assert not reader.database_in_use(hard)
    assert reader.read_bytes(hard) == path.read_bytes()


def test_a_pipe_this_process_holds_is_not_a_database_in_use(tmp_path: Path, monkeypatch) -> None:
    """``tournament add club.db --csv <(…)``: the shell hands the command a pipe (/dev/fd/63), which
    the process holds open, so it matched one of its own descriptors and was refused as "a file
    this command holds open (an SQLite database in use…)".  A pipe is never a database: it is read."""
    import os

    from domrec import reader

    monkeypatch.setattr(reader, "_DATABASES_OPENED", True)
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"name1,name2\nAna,Bo\n")
        os.close(write_end)
        write_end = -1
        path = f"/proc/self/fd/{read_end}" if os.path.isdir("/proc/self/fd") else f"/dev/fd/{read_end}"
        assert not reader.held_here(path) and not reader.database_in_use(path)
        assert reader.read_bytes(path, what="a players CSV") == b"name1,name2\nAna,Bo\n"
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
