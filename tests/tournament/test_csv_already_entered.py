"""A players CSV naming someone the event already has (a tester's finding 7): every other refusal
of the file names it and the line (``p.csv, line 3: the name is empty``), but a name clashing
with one entered before said only ``error: a player named 'José Peña' is already entered; names
must be unique``, leaving the director to hunt for the row.  Now it is said at its line, in a
pairs, an individual and a team event's CSV (a player's, a pair's, a team's name, a look-alike,
a federation id), and nothing of the file is added (all or nothing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def run(*args: object, code: int = 0, stdin: str = "") -> str:
    r = runner.invoke(app, [str(a) for a in args], input=stdin)
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output
    return r.output


def _players(e: Path) -> list[str]:
    return [row["name"] for row in json.loads(run("players", e, "--json"))]


def test_the_finding_pairs_event(tmp_path: Path) -> None:
    e = tmp_path / "n.db"
    run("new", e, "--name", "N", "--game", "competitive", "--format", "pairs")
    run("add", e, "José Peña", "Ana Ruiz")
    p = tmp_path / "p.csv"
    p.write_text("name,partner\nZed One,Zed Two\nJosé Peña,Zed Three\n", encoding="utf-8")
    out = run("add", e, "--csv", p, code=1)
    assert out == (f"error: {p}, line 3: a player named 'José Peña' is already entered; names must be unique\n")
    assert _players(e) == ["José Peña", "Ana Ruiz"]  # Zed One and Zed Two of line 2 were not added
    # From standard input, as the reader names it; a partner, a pair's name and a look-alike too.
    said = run("add", e, "--csv", "-", code=1, stdin="name,partner\nZed One,Zed Two\nZed Four,Ana Ruiz\n")
    assert said.startswith("error: <stdin>, line 3: a player named 'Ana Ruiz' is already entered")
    q = tmp_path / "q.csv"
    q.write_text("name,partner,pair\nZed One,Zed Two,Los Zetas\n\nZed Four,Zed Five,José Peña & Ana Ruiz\n",
                 encoding="utf-8")
    assert run("add", e, "--csv", q, code=1).startswith(
        f"error: {q}, line 4: a partnership named 'José Peña & Ana Ruiz' is already entered")
    q.write_text("name,partner\nZed One,Zed Two\nJos\u00e9 Pe\u00f1a \u200b,Zed Five\n", encoding="utf-8")
    assert run("add", e, "--csv", q, code=1).startswith(f"error: {q}, line 3: ")
    assert _players(e) == ["José Peña", "Ana Ruiz"]


def test_a_federation_id_already_given(tmp_path: Path) -> None:
    e = tmp_path / "i.db"
    run("new", e, "--name", "I", "--game", "castle-rock", "--format", "individual", "--table-size", 2)
    run("add", e, "Ana", "--id", "F-7")
    p = tmp_path / "p.csv"
    p.write_text("name,id\nBo,F-1\nCy,\nDi,F-7\n", encoding="utf-8")
    assert run("add", e, "--csv", p, code=1) == (f"error: {p}, line 4: the player id 'F-7' is already #1's; an id "
                                                 f"names one player\n")
    p.write_text("name,id\nBo,F-1\nCy,F-1\n", encoding="utf-8")  # twice in the file: the second row
    assert run("add", e, "--csv", p, code=1).startswith(f"error: {p}, line 3: the player id 'F-1' is already #")
    p.write_text("name\nBo\nAna\n", encoding="utf-8")
    assert run("add", e, "--csv", p, code=1).startswith(f"error: {p}, line 3: a player named 'Ana' is already")
    assert _players(e) == ["Ana"]


@pytest.mark.parametrize("rows, line, said", [
    ("X1,Omega,1\nX2,Omega,1\nBeta3,Omega,2\nX4,Omega,2\n", 4, "a player named 'Beta3' is already entered"),
    ("X1,Omega,1\nX2,Omega,1\nX3,Omega,Alfa 1\nX4,Omega,Alfa 1\n", 4, "a partnership named 'Alfa 1' is already"),
    ("X1,Omega,1\nX2,Omega,1\nX3,Omega,2\nX4,Omega,2\nY1,Beta,1\nY2,Beta,1\nY3,Beta,2\nY4,Beta,2\n", 6,
     "a partnership named 'Beta 1' is already entered"),
])
def test_a_team_csv(tmp_path: Path, rows: str, line: int, said: str) -> None:
    csv = tmp_path / "eq.csv"
    csv.write_text("name,team,pair\n" + "".join(f"{t}{i},{t},{(i + 1) // 2}\n" for t in ("Alfa", "Beta")
                                                for i in range(1, 5)), encoding="utf-8")
    e = tmp_path / "t.db"
    run("new", e, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", 4)
    run("add", e, "--csv", csv)
    before = _players(e)
    more = tmp_path / "more.csv"
    more.write_text("name,team,pair\n" + rows, encoding="utf-8")
    assert run("add", e, "--csv", more, code=1).startswith(f"error: {more}, line {line}: {said}")
    # Without a pair column, a team's name already entered: said at the team's first row.
    more.write_text("name,team\nX1,Omega\nX2,Omega\nX3,Omega\nX4,Omega\nY1,Beta\nY2,Beta\nY3,Beta\nY4,Beta\n",
                    encoding="utf-8")
    assert run("add", e, "--csv", more, code=1).startswith(f"error: {more}, line 6: a team named 'Beta' is "
                                                           f"already entered")
    assert _players(e) == before  # nothing of either file (Omega's rows came first)
