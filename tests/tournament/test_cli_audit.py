"""Findings of an audit of the command line by a scorer with fat fingers: each test failed on the code
before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import open_event
from tournament.cli import app

runner = CliRunner()


def run(*args: object):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "Club", "--game", "competitive", "--format", "rotating",
               "--seed", "3").exit_code == 0
    assert run("add", path, *"Ana Bo Cy Di Ed Fi Gu Ha".split()).exit_code == 0
    assert run("pair", path).exit_code == 0
    return path


@pytest.mark.parametrize("command", [
    ("result", "--round", "0", "--table", "1", "--score", "NS=100,EW=50"),
    ("result", "--round", "0", "--table", "1", "--forfeit", "NS"),
    ("tables", "--round", "0"),
    ("sheets", "--round", "0", "-o", "{tmp}/sheets"),
    ("sheets", "--round", "0", "--table", "1", "-o", "{tmp}/sheets"),
    ("record", "--round", "0", "--table", "1"),
])
def test_round_zero_is_no_round_not_the_last_one(event: Path, command: tuple[str, ...]) -> None:
    """``--round 0`` was taken for "no round given": a score typed for round 0 was stored in round 1,
    and `tables`/`sheets`/`record` said no round had been paired yet while round 1 was."""
    args = [a.replace("{tmp}", str(event.parent)) for a in command]
    r = run(args[0], event, *args[1:])
    assert r.exit_code == 2, r.output
    assert "round 0" in r.output and "the last round" in r.output, r.output
    assert "no round has been paired yet" not in r.output
    with open_event(event) as store:
        assert store.results() == {}
    assert not (event.parent / "sheets").exists()


def _opens_of(link: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The list of every ``open()`` of ``link`` by its name (``builtins.open``, ``Path.open``) from now on."""
    import builtins

    opened: list[str] = []
    real_open = builtins.open

    def watching(file, *args, **kwargs):
        if isinstance(file, (str, Path)) and Path(file).name == link.name:
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", watching)
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: watching(self, *a, **k))
    return opened


@pytest.mark.parametrize("command", [("result", "{link}"), ("add", "--csv", "{link}"),
                                     ("record", "--table", "1", "-o", "{link}")])
def test_a_link_to_the_event_in_use_is_never_opened(event: Path, command: tuple[str, ...],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A link to the event file, given as the record (or CSV, or game file) of a command that holds the
    event open, was opened and closed with ``open()``: closing it dropped the command's SQLite locks on
    the event (the same file), so a server closing meanwhile could delete the log the command was
    writing into.  It is now known as a database in use by the log beside the file it leads to."""
    link = event.parent / ("link.dgn" if command[0] == "record" else "link.db")
    link.symlink_to(event.name)
    opened = _opens_of(link, monkeypatch)
    args = [a.replace("{link}", str(link)) for a in command]
    with open_event(event):  # a server holding the event, as the command's own connection does
        r = run(args[0], event, *args[1:])
    assert r.exit_code == 2, r.output
    assert opened == []
    # (``result`` says what the file is: the event itself, given as a record; finding 12 of Dec 7)
    said = "it is the event file itself, given where a game record was expected" if command[0] == "result" else \
        "SQLite database in use"
    assert said in r.output, r.output


@pytest.mark.parametrize("command", [("result", "{link}"), ("add", "--csv", "{link}")])
def test_a_hard_link_to_the_event_in_use_is_never_opened(event: Path, command: tuple[str, ...],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A hard link is the event file itself under another name, with no log beside that name: it was
    opened and closed with ``open()`` by the command holding the event (its SQLite locks dropped, as
    by a symbolic link before).  It is now known by the descriptors the command holds: refused,
    unopened, in one line."""
    import os

    link = event.parent / "other-name.db"
    os.link(event, link)
    opened = _opens_of(link, monkeypatch)
    args = [a.replace("{link}", str(link)) for a in command]
    r = run(args[0], event, *args[1:])
    assert r.exit_code == 2, r.output
    assert opened == []
    # (``result`` says what the file is: the event itself, given as a record; finding 12 of Dec 7)
    said = "it is the event file itself, given where a game record was expected" if command[0] == "result" else \
        "SQLite database in use"
    assert said in r.output, r.output
    with open_event(event) as store:
        assert store.results() == {} and len(store.players()) == 8


def test_a_command_never_writes_over_the_event_it_reads_not_even_with_force(event: Path, tmp_path: Path) -> None:
    """``tournament export EVENT -o EVENT --force`` replaced the event with its own export (the
    event closed before the export was written, so nothing held it "in use").  The file a command
    reads is never what it writes, not even with --force: refused in one line, exit 2, the event
    whole; another command of the same process may then write there (a test runs many)."""
    before = event.read_bytes()
    for command in (("export", event, "-o", event, "--force"), ("report", event, "-o", event, "--force")):
        done = run(*command)
        assert done.exit_code == 2, done.output
        assert done.output.strip().splitlines()[-1] == (
            f"error: {event} is the file this command reads: never replaced by what it writes, not even with "
            f"--force; choose another file"), done.output
    assert event.read_bytes() == before
    with open_event(event) as store:
        assert len(store.players()) == 8
    other = tmp_path / "copy.db"
    other.write_bytes(b"x")
    assert run("export", event, "-o", other, "--force").exit_code == 0  # (another file, with --force: replaced)
