"""``tournament add EVENT --csv -``: the players CSV read from standard input (a spreadsheet's
export piped in, a list another program makes), as a file is read: a pairs event's, a rotating
event's, a team event's; its refusals name it ``<stdin>`` (domrec's name for standard input) with
the line, as they name a file; bounded as a file is.  Before, ``-`` was taken for a file named
``-``: ``error: -: no such file``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def _run(*args: object, stdin: str | bytes = "", code: int = 0) -> str:
    r = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output
    return r.output


def _new(path: Path, *how: str) -> Path:
    _run("new", path, "--name", "Club", "--game", "competitive", *how)
    return path


def test_a_pairs_events_players_from_standard_input(tmp_path: Path) -> None:
    e = _new(tmp_path / "p.db", "--format", "pairs")
    out = _run("add", e, "--csv", "-", stdin="name,partner,pair,club\nAna,Bo,Primos,Norte\nCruz,Dani,,Sur\n")
    assert "added pair #1 Primos" in out and "added pair #2 Cruz & Dani" in out
    rows = json.loads(_run("players", e, "--json"))
    assert [(r["name"], r["pair"], r["club"]) for r in rows] == [
        ("Ana", "Primos", "Norte"), ("Bo", "Primos", "Norte"), ("Cruz", "Cruz & Dani", "Sur"),
        ("Dani", "Cruz & Dani", "Sur")]


def test_a_rotating_events_players_from_standard_input(tmp_path: Path) -> None:
    e = _new(tmp_path / "i.db", "--format", "rotating")
    out = _run("add", e, "--csv", "-", stdin="name;id\nAna;F-1\nBo;\nCruz;F-3\n".encode("utf-8-sig"))
    assert "added #1 Ana" in out and "added #3 Cruz" in out


def test_a_team_events_teams_from_standard_input(tmp_path: Path) -> None:
    e = _new(tmp_path / "t.db", "--format", "teams", "--team-size", "4")
    rows = "".join(f"{p}{t},Team {t}\n" for t in (1, 2) for p in "ABCD")
    out = _run("add", e, "--csv", "-", stdin="name,team\n" + rows + "R1,Team 1\n")
    assert "added team #1 Team 1: 2 pairs, 1 reserve" in out and "added team #2 Team 2: 2 pairs, 0 reserves" in out


def test_standard_input_is_refused_at_its_line_as_a_file_is(tmp_path: Path) -> None:
    e = _new(tmp_path / "p.db", "--format", "pairs")
    out = _run("add", e, "--csv", "-", stdin="name,partner\nAna,Bo\n,Dani\n", code=2)
    assert out.strip() == "error: <stdin>, line 3: the name is empty"
    out = _run("add", e, "--csv", "-", stdin=b"name,partner\n\xffna,Bo\n", code=2)
    assert out.startswith("error: <stdin>, line 2") and "not UTF-8" in out
    out = _run("add", e, "--csv", "-", stdin="", code=2)
    assert out.strip() == "error: <stdin> is empty"
    out = _run("add", e, "--csv", "-", stdin="name,partner\n" + "A,B\n" * 400_000, code=2)
    assert "<stdin> is larger than" in out and "the limit for a players CSV" in out
    assert json.loads(_run("players", e, "--json")) == []  # nothing was added
