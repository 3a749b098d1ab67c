"""The command line's words, from a tester's team and duplicate events (finding 12): each line says
what is wrong, or what was done, in the number it is.

* ``tournament standings ""`` said ``error: . is not a file``: the name typed was empty.
* ``tournament result copa.db copa.db`` said ``it is an SQLite database in use (an event file?)``
  though nothing else had it open: the event file was given where a record was expected.
* ``1 round, 1 results`` (check), ``boards 1 to 1`` (boards, info), ``round 5: 1 board results``
  (the report's provisional standings).
* A ``pair`` interrupted while it printed its tables said ``what the command had left to do after
  it was not done``, not that the round was stored nor how to see it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app, rounds as cli_rounds

from tests.tournament.test_cli_wording_dec7 import _seated
from tests.tournament.test_duplicate_event import run

runner = CliRunner()


def _copa(tmp_path: Path) -> Path:
    e = tmp_path / "copa.db"
    run("new", e, "--name", "Copa", "--game", "competitive", "--format", "pairs")
    for i in range(1, 5):
        run("add", e, f"North {i}", f"South {i}")
    return e


def test_an_empty_event_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for command in ("standings", "check", "tables"):
        assert run(command, "", code=2) == ("error: the event file's name is missing (an empty name is this folder, "
                                            "not a file): give one, e.g. club.db\n")
    assert run("standings", tmp_path, code=2) == f"error: {tmp_path} is not a file\n"


def test_the_event_file_given_as_its_own_record(tmp_path: Path) -> None:
    e = _copa(tmp_path)
    run("pair", e)
    said = f"error: {e}: it is the event file itself, given where a game record was expected; not read\n"
    assert run("result", e, e, code=2) == said
    assert run("amend", e, e, "--round", 1, "--table", 1, code=2) == said
    link = tmp_path / "link.db"
    link.symlink_to(e.name)
    assert run("result", e, link, code=2) == said.replace(f"{e}:", f"{link}:", 1)


def test_one_of_each_is_said_in_the_singular(tmp_path: Path) -> None:
    e = _copa(tmp_path)
    run("pair", e)
    run("result", e, "--table", 1, "--score", "NS=200,EW=100")
    assert f"{e}: 1 round, 1 result (0 records re-validated): 0 errors" in run("check", e)
    run("result", e, "--table", 2, "--score", "NS=200,EW=100")
    assert f"{e}: 1 round, 2 results (0 records re-validated): 0 errors" in run("check", e)
    d = tmp_path / "one.db"
    run("new", d, "--name", "One", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    assert run("boards", d, "--boards", 1, "--seed", 3) == (
        "stored 1 board (competitive): board 1, dealt with seed 3 (--seed 3 deals it again)\n")
    assert "boards: 1 (1), dealt with seed 3" in run("info", d)


def test_a_round_with_one_board_result_missing(tmp_path: Path) -> None:
    e = _seated(tmp_path)  # six pairs, a Mitchell of three tables, two boards a round
    for table in (1, 2, 3):
        for board in (2 * table - 1, 2 * table):  # (a Mitchell's table T starts with boards 2T-1, 2T)
            if (table, board) != (3, 6):
                run("result", e, "--round", 1, "--table", table, "--board", board, "--score", "NS=20,EW=0")
    page = run("report", e, "-o", "-")
    assert "round 1: 1 board result)" in page and "1 board results" not in page
    spanish = run("report", e, "-o", "-", "--lang", "es")
    assert "ronda 1: 1 resultado de tablero)" in spanish


def test_an_interrupted_pair_says_the_round_is_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    e = _copa(tmp_path)

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_rounds, "_print_round", interrupted)
    r = runner.invoke(app, ["pair", str(e)])
    assert r.exit_code == 2
    assert r.stderr == (f"error: interrupted after the write was made: round 1 is paired and stored, but its tables "
                        f"were not all printed: tournament tables {e} shows them\n")
    monkeypatch.undo()
    assert "North 1" in run("tables", e)
