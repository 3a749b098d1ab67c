"""A team event's reserve who has not played has no rank among the players
(``tournament standings --by player``, the ``players`` of ``standings --json``, the hall's and the
report's players' ranking, the export's ``player_standings``).

Before, a reserve with no game was ranked with the players: all zeros, above every player who
had lost their games (rank 9 of 18 after a round where half the field lost), and pushing those
players a place down.  Now the players who played (a seat at a table, or a bye, in the rounds
counted) are ranked among themselves, and a reserve who has not is listed after them without a
rank (``rank`` null; an empty cell, and a line under the table saying why).  A reserve brought
into a pair is ranked from the first round they sit in."""

from __future__ import annotations

import json
from pathlib import Path

from tournament import open_event
from tournament.event import public, teams as tm

from tests.tournament.test_duplicate_rounds import ok


def _cup(tmp_path: Path) -> Path:
    """Four teams of two pairs; Team 1 and Team 2 each have a reserve (R1, R2); round 1 played,
    every NS pair winning."""
    e = tmp_path / "cup.db"
    ok("new", e, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", "4", "--seed", 5)
    for t in range(1, 5):
        ok("team", e, "add", f"Team {t}", "--pair", f"A{t},B{t}", "--pair", f"C{t},D{t}",
           *(["--reserve", f"R{t}"] if t <= 2 else []))
    ok("pair", e)
    for table in range(1, 5):
        ok("result", e, "--round", 1, "--table", table, "--score", "NS=100,EW=50")
    return e


def test_a_reserve_who_has_not_played_is_listed_last_without_a_rank(tmp_path: Path) -> None:
    e = _cup(tmp_path)
    doc = json.loads(ok("standings", e, "--by", "player", "--json"))
    rows = doc["rows"]
    assert [(r["player"], r["rank"], r["played"]) for r in rows[-2:]] == [("R1", None, 0), ("R2", None, 0)]
    # Eight winners share rank 1; the eight who lost are 9th (a reserve no longer ranks between them).
    assert [r["rank"] for r in rows[:16]] == [1] * 8 + [9] * 8
    assert all(r["played"] == 1 for r in rows[:16])
    assert [r["player"] for r in json.loads(ok("standings", e, "--json"))["players"]] == [r["player"] for r in rows]
    out = ok("standings", e, "--by", "player")
    assert "no rank: a reserve who has not played" in out
    line = next(x for x in out.splitlines() if " R1 " in x)
    assert line.split("│")[1].strip() == "" and out.index(" R1 ") > out.index(" B4 ")
    assert ok("standings", e, "--by", "player", "--csv").splitlines()[-2].startswith(",R1,")
    with open_event(e) as store:
        assert [p.name for p in tm.idle_reserves(store)] == ["R1", "R2"]
        data = public.event_data(store)
        assert [r["rank"] for r in data["player_standings"]["standings"]][-2:] == [None, None]


def test_a_reserve_brought_in_is_ranked_from_the_round_they_sit_in(tmp_path: Path) -> None:
    e = _cup(tmp_path)
    ok("team", e, "sub", "Team 2", "--out", "A2", "--in", "R2")
    ok("pair", e)  # round 2: R2 sits in A2's place
    rank = {r["player"]: r["rank"] for r in json.loads(ok("standings", e, "--by", "player", "--json"))["rows"]}
    assert rank["R2"] is not None and rank["R1"] is None
    before = {r["player"]: r["rank"] for r in json.loads(ok("standings", e, "--by", "player", "--round", 1,
                                                            "--json"))["rows"]}
    assert before["R1"] is None and before["R2"] is None


def test_an_event_without_idle_reserves_says_nothing_of_them(tmp_path: Path) -> None:
    e = tmp_path / "pairs.db"
    ok("new", e, "--name", "P", "--game", "competitive", "--format", "pairs", "--seed", 1)
    for i in range(4):
        ok("add", e, f"N{i}", f"S{i}")
    ok("pair", e)
    doc = json.loads(ok("standings", e, "--by", "player", "--json"))
    assert len(doc["rows"]) == 8 and all(r["rank"] == 1 for r in doc["rows"])
    assert "no rank" not in ok("standings", e, "--by", "player")
