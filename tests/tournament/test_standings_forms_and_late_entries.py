"""Standings said the same way in every form, and late entries listed last.

A tester ran a team event and a pairs event from the docs and found:

* ``standings --csv`` of a team event printed the *pairs'* standings ("wins, diff, for") where the
  screen showed the teams'; ``--by team --csv`` gave the teams without the ``provisional`` and
  ``ranked_by`` columns; the JSON's own table (``standings``, ``ranked_by``) was the pairs'.  Now
  every form of a team event's ``standings`` is the teams' (the CSV the very rows of ``--by team
  --csv``), and every ``--by`` form says whether it is provisional and what ranks it.
* A pair entered after round 1 was paired ranked, on its zeros, above a pair that had lost its
  game, in standings "after round 1", a round it was not in; after round 0 it read
  ``withdrawn``.  A late team the same.  Now a late entry is listed after everyone entered by
  then, its status ``from round K`` (docs/tournament.md, "Late entry"), in every output.
* A team event's terminal standings said only "(provisional)"; they now say which tables are
  missing, as a pairs event's do.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from tournament import open_event
from tournament.cli import app
from tournament.event import feed, standings as st

runner = CliRunner()


def run(*args: object, width: int = 200) -> str:
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.output


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _cup(tmp_path: Path) -> Path:
    """The tester's team event: four teams of two pairs, round 1's four tables in (one a forfeit)."""
    players = tmp_path / "eq.csv"
    players.write_text("name,team,pair\n" + "".join(f"{t}{i},{t},{(i + 1) // 2}\n" for t in ("Alfa", "Beta", "Gama",
                                                                                             "Delta")
                                                    for i in range(1, 5)))
    e = tmp_path / "t.db"
    run("new", e, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", 4, "--seed", 5)
    run("add", e, "--csv", players)
    run("pair", e)
    run("result", e, "--table", 1, "--score", "NS=200,EW=150")
    run("result", e, "--table", 2, "--score", "NS=100,EW=100")
    run("result", e, "--table", 3, "--score", "NS=150,EW=120")
    run("result", e, "--table", 4, "--forfeit", "EW")
    return e


def test_a_team_events_standings_are_the_teams_in_every_form(tmp_path: Path) -> None:
    e = _cup(tmp_path)
    screen = run("standings", e)
    assert "standings of the teams after round 1" in screen and "ranked by games, then efectividad" in screen
    plain = run("standings", e, "--csv")
    assert plain == run("standings", e, "--by", "team", "--csv")  # the same rows, the same columns
    teams = rows_of(plain)
    order = [r["team"] for r in teams]
    assert sorted(order) == ["Alfa", "Beta", "Delta", "Gama"]
    assert [screen.index(f" {t} ") for t in order] == sorted(screen.index(f" {t} ") for t in order)
    assert {(r["provisional"], r["ranked_by"]) for r in teams} == {("", "games, efectividad")}
    # The pairs' and players' rankings say the same of themselves.
    for by in ("pair", "player"):
        got = rows_of(run("standings", e, "--by", by, "--csv"))
        assert {(r["provisional"], r["ranked_by"]) for r in got} == {("", "wins, diff, for")}, by
    # The JSON: its own table is the teams', and says what ranks it; the other lists beside it.
    doc = json.loads(run("standings", e, "--json"))
    assert [r["team"] for r in doc["standings"]] == [r["team"] for r in doc["teams"]] == order
    assert (doc["format"], doc["ranked_by"], doc["tiebreaks"], doc["provisional"]) == (
        "teams", "ranked by games, then efectividad", ["games", "efectividad"], False)
    assert len(doc["pairs"]) == 8 and len(doc["players"]) == 16
    for by, keys in (("team", ["games", "efectividad"]), ("pair", ["wins", "diff", "for"])):
        one = json.loads(run("standings", e, "--by", by, "--json"))
        assert (one["tiebreaks"], one["provisional"], one["missing"]) == (keys, False, {}), by
        assert one["ranked_by"].startswith("ranked by "), by


def test_a_team_events_terminal_says_which_tables_are_missing(tmp_path: Path) -> None:
    e = _cup(tmp_path)
    run("pair", e)  # round 2: two matches, four tables, none in
    run("result", e, "--round", 2, "--table", 1, "--score", "NS=200,EW=150")
    line = "PROVISIONAL — results still missing (round 2: 3 tables missing)"
    for args in ((), ("--by", "team"), ("--by", "pair")):
        out = run("standings", e, *args)
        assert "(provisional)" in out and line in out, (args, out)
    assert "Provisional: faltan resultados (ronda 2: 3)" in run("standings", e, "--lang", "es")
    assert rows_of(run("standings", e, "--csv"))[0]["provisional"] == "yes"
    doc = json.loads(run("standings", e, "--json"))
    assert (doc["provisional"], doc["missing"]) == (True, {"2": 3})


def _late_pair(tmp_path: Path) -> Path:
    """The tester's pairs event: Ana & Bo beat Cy & Di in round 1; Eli & Fa entered after it."""
    q = tmp_path / "q.db"
    run("new", q, "--name", "Q", "--game", "competitive", "--format", "pairs")
    run("add", q, "Ana", "Bo")
    run("add", q, "Cy", "Di")
    run("pair", q)
    run("result", q, "--table", 1, "--score", "NS=150,EW=120")
    run("add", q, "Eli", "Fa")
    return q


def test_a_late_pair_is_listed_after_those_entered_by_then(tmp_path: Path) -> None:
    q = _late_pair(tmp_path)
    for args in ((), ("--round", 1)):
        got = [(r["rank"], r["name"], r["status"]) for r in rows_of(run("standings", q, *args, "--csv"))]
        assert got == [("1", "Ana & Bo", "active"), ("2", "Cy & Di", "active"), ("3", "Eli & Fa", "from round 2")]
    before = [(r["rank"], r["name"], r["status"]) for r in rows_of(run("standings", q, "--round", 0, "--csv"))]
    assert before == [("1", "Ana & Bo", "active"), ("1", "Cy & Di", "active"), ("3", "Eli & Fa", "from round 2")]
    players = [(r["player"], r["rank"], r["status"]) for r in rows_of(run("standings", q, "--by", "player", "--csv"))]
    assert players[-2:] == [("Eli", "5", "from round 2"), ("Fa", "5", "from round 2")]
    assert [r["rank"] for r in rows_of(run("standings", q, "--by", "player", "--csv"))][:4] == ["1", "1", "3", "3"]
    out = run("standings", q)
    assert "from round 2: a late entry, in none of the rounds counted here (through round 1)" in out
    assert "Eli & Fa (from round 2)" in run("standings", q, width=80)  # compact: on the name
    doc = json.loads(run("standings", q, "--json"))
    assert [(r["name"], r["status"]) for r in doc["standings"]][-1] == ("Eli & Fa", "from round 2")
    assert [(r["pair"], r["rank"]) for r in doc["pairs"]] == [("Ana & Bo", 1), ("Cy & Di", 2), ("Eli & Fa", 3)]
    with open_event(q) as store:  # the hall's, the feed's and the browsing snapshot's standings agree
        published = feed.standings(store)
        assert [(r["name"], r["rank"], r["status"]) for r in published["standings"]] == [
            ("Ana & Bo", 1, "active"), ("Cy & Di", 2, "active"), ("Eli & Fa", 3, "from round 2")]
        columns, snap = st.snapshot(store)
        assert [(r[columns.index("name")], r[columns.index("status")]) for r in snap][-1] == ("Eli & Fa",
                                                                                             "from round 2")
    # Once round 2 is paired, the pair is in the standings like anyone; after round 1 it stays last.
    run("pair", q)
    now = {r["name"]: r["status"] for r in rows_of(run("standings", q, "--csv"))}
    assert now["Eli & Fa"] == "active"
    assert rows_of(run("standings", q, "--round", 1, "--csv"))[-1]["status"] == "from round 2"


def test_a_late_team_is_listed_after_the_teams_entered_by_then(tmp_path: Path) -> None:
    e = _cup(tmp_path)
    run("team", e, "add", "Late", "--pair", "L1,L2", "--pair", "L3,L4")
    for args in (("--round", 0), ("--round", 1), ()):
        got = rows_of(run("standings", e, *args, "--csv", "--by", "team"))
        assert (got[-1]["team"], got[-1]["rank"], got[-1]["status"]) == ("Late", "5", "from round 2"), args
        assert {r["status"] for r in got[:-1]} == {"active"}, args
    pairs = rows_of(run("standings", e, "--by", "pair", "--csv"))
    assert [(r["pair"], r["status"]) for r in pairs[-2:]] == [("L1 & L2", "from round 2"), ("L3 & L4", "from round 2")]
    assert pairs[-3]["rank"] == "8" and {r["rank"] for r in pairs[-2:]} == {"9"}
    doc = json.loads(run("standings", e, "--json"))
    assert (doc["teams"][-1]["team"], doc["teams"][-1]["status"]) == ("Late", "from round 2")
    assert "desde la ronda 2: una inscripción tardía" in run("standings", e, "--lang", "es")
    with open_event(e) as store:
        assert feed.standings(store)["teams"][-1]["status"] == "from round 2"
