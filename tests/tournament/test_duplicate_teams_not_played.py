"""A board not played in duplicate teams (docs/duplicate.md, "Duplicate teams"), at the command line.

A board marked not played at either table of a match (``tournament result --board B --not-played
--reason``) is not scored in that match, as a board cancelled in a bridge team match: no net, no
IMPs, a result at the other table kept but not counted; it is settled at both tables, so the match
finishes on its other boards, the round ends and the next one is paired.  The match's IMPs and
victory points are those of a match without that board, recomputed here by hand.  Refused as in
duplicate pairs (over a result, without a reason, a board not of the round), told once when marked
twice, kept in the history and the change log, and taken back with ``tournament clear --board``.
Before, duplicate teams refused both: "a board not played is for duplicate pairs"."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_teams import new_event, run, vp_by_hand
from tests.tournament.test_matchpoints import imps_by_hand


def _matches(event: Path) -> dict[int, tuple[str, str, int]]:
    """Round 1's matches by first table: (home team, visiting team, second table)."""
    doc = json.loads(run("tables", event, "--json"))
    at: dict[int, dict[str, str]] = {}
    for row in doc["rows"]:
        at.setdefault(row["table"], {})[row["side"]] = row["team"]
    return {t: (at[t]["NS"], at[t]["EW"], t + 1) for t in sorted(at)[::2]}


@pytest.fixture
def teams(tmp_path: Path) -> Path:
    """Four teams, victory points, a round robin, round 1 seated (tables 1-2 and 3-4, boards 1 and 2)."""
    event = tmp_path / "teams.db"
    new_event(event, 4, "--victory-points")
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    return event


def _score(event: Path, table: int, board: int, ns: int, ew: int) -> None:
    run("result", event, "--round", 1, "--table", table, "--board", board, "--score", f"NS={ns},EW={ew}")


def _not_played(event: Path, table: int, board: int, reason: str = "ran out of time", code: int = 0) -> str:
    return run("result", event, "--round", 1, "--table", table, "--board", board, "--not-played", "--reason",
               reason, code=code)


def test_a_board_not_played_at_one_table_is_not_scored_in_the_match(teams: Path, tmp_path: Path) -> None:
    event = teams
    (home, away, _), (home2, away2, _) = _matches(event)[1], _matches(event)[3]
    # Match of tables 1-2: board 1 is +30 for the home pair NS at table 1, +10 for the home pair EW at
    # table 2 (net +40); board 2 is not played at table 1, and table 2's 25-0 for the visitors is kept.
    # Match of tables 3-4, every board in: board 1 +45 for the home team, board 2 level.
    for table, board, ns, ew in ((3, 1, 45, 0), (4, 1, 0, 0), (3, 2, 0, 0), (4, 2, 0, 0)):
        _score(event, table, board, ns, ew)
    _score(event, 1, 1, 30, 0)
    _score(event, 2, 1, 0, 10)
    _score(event, 2, 2, 25, 0)
    assert "Tables 1-2, boards 1-2: " in run("tables", event) and "(1 of 2 boards in)" in run("tables", event)
    assert "round 1 is not finished: table 1 board 2 has no result yet" in run("pair", event, code=1)
    said = _not_played(event, 1, 2)
    assert said.strip() == ("round 1 table 1 board 2: not played — the board is not scored in the match of "
                            "tables 1-2 (a result at the other table does not count)")
    # By hand: the match of tables 1-2 is a match of one board, board 1 (net +40), as if board 2 did
    # not exist: its IMPs, and its victory points over one board; the other match over two.
    imps = imps_by_hand(Fraction(40))
    assert imps > 0
    vp = vp_by_hand(imps, 1)
    assert vp != vp_by_hand(imps, 2)  # (the scale is the one-board match's, not the two boards')
    imps2 = imps_by_hand(Fraction(45))
    vp2 = vp_by_hand(imps2, 2)
    doc = json.loads(run("standings", event, "--json"))
    rows = {r["team"]: r for r in doc["teams"]}
    assert not doc["provisional"]
    assert (rows[home]["imps_for"], rows[home]["imps_against"], rows[home]["victory_points"]) == (imps, 0, vp)
    assert (rows[away]["imps_for"], rows[away]["imps_against"], rows[away]["victory_points"]) == \
        (0, imps, round(20 - vp, 2))
    assert (rows[home2]["imps"], rows[home2]["victory_points"]) == (imps2, vp2)
    assert all(r["played"] == 1 for r in doc["teams"])
    # The tables' lines: the board not played said so, the other table's result kept; the match won.
    shown = run("tables", event)
    assert "B1 NS 30 EW 0 · B2 not played" in shown and "B1 NS 0 EW 10 · B2 NS 25 EW 0" in shown
    assert f"Tables 1-2, boards 1-2: {home} {imps} – 0 {away} IMPs, VP {vp}–{round(20 - vp, 2)} ({home} wins the " \
           f"match)" in shown
    assert f"({home} wins the match)" in run("standings", event)
    # The export: the board not scored in the match, the other table's result there; the mark and its reason.
    exported = json.loads(run("export", event, "-o", "-"))
    first = next(m for m in exported["duplicate_team_matches"] if m["tables"] == [1, 2])
    assert [b["board"] for b in first["boards"]] == [1] and first["finished"] and first["waiting"] == []
    assert first["not_scored"] == [{"board": 2, "first": None, "second": [25, 0], "not_played": [1]}]
    assert (first["home_imps"], first["away_imps"], first["home_vp"]) == (imps, 0, vp)
    listed = next(m for m in exported["team_matches"] if m["tables"] == [1, 2])
    # (the boards that count: board 1 in, of the one board the match scores; board 2 apart, not scored)
    assert (listed["boards_in"], listed["board_count"], listed["not_scored"][0]["board"]) == (1, 1, 2)
    [row] = exported["boards_not_played"]
    assert {k: row[k] for k in ("round", "table", "board", "ns", "ew", "reason")} == \
        {"round": 1, "table": 1, "board": 2, "ns": home, "ew": away, "reason": "ran out of time"}
    assert exported["duplicate_team_standings"] == doc
    feed_tables = {t["table"]: t for t in exported["rounds"][0]["tables"]}
    assert feed_tables[1]["not_played"] == [2] and feed_tables[2]["not_played"] == []
    assert all(t["status"] == "confirmed" for t in feed_tables.values())
    out = tmp_path / "csv"
    run("export", event, "-o", out, "--csv")
    boards = list(csv.DictReader(io.StringIO((out / "team_boards.csv").read_text())))
    marked = [b for b in boards if b["not_played"]]
    assert [(b["tables"], b["board"], b["second_ns"], b["net"], b["imps"], b["not_played"]) for b in marked] == \
        [("1-2", "2", "25", "", "", "1")]
    [line] = list(csv.DictReader(io.StringIO((out / "boards_not_played.csv").read_text())))
    assert (line["table"], line["board"], line["ns"], line["reason"]) == ("1", "2", home, "ran out of time")
    # Nothing awaited: check is clean, and round 2 is paired.
    checked = run("check", event)
    assert "0 errors" in checked and "without results" not in checked
    assert "boards 3-4" in run("pair", event)
    assert "table 1 board 2: not played — ran out of time" in run("history", event)
    changes = json.loads(run("export", event, "-o", "-"))["changes"]
    assert any(c["kind"] == "board_result" and (c.get("data") or {}).get("not_played") for c in changes), changes


def test_refused_as_in_duplicate_pairs_and_marked_once(teams: Path) -> None:
    event = teams
    _score(event, 2, 1, 0, 10)
    # Over a result: take it back first.
    said = _not_played(event, 2, 1, code=1)
    assert "round 1 table 2 board 1 has a result (NS 0, EW 10): take it back first (tournament clear EVENT " \
           "--round 1 --table 2 --board 1 --reason TEXT)" in said
    # Without a reason; a board not of the round; a table the round does not have; a round not seated.
    assert "say why the board was not played (--reason TEXT)" in run(
        "result", event, "--round", 1, "--table", 1, "--board", 2, "--not-played", code=2)
    assert "the tables of round 1 play boards 1, 2, not board 3" in _not_played(event, 1, 3, code=2)
    assert "round 1 has no table 9" in _not_played(event, 9, 1, code=2)
    assert "round 2 does not exist" in run("result", event, "--round", 2, "--table", 1, "--board", 3,
                                           "--not-played", "--reason", "x", code=2)
    # Marked twice: the first mark stands, said so.
    _not_played(event, 1, 2)
    again = _not_played(event, 1, 2, reason="another reason")
    assert "round 1 table 1 board 2 was already marked not played" in again and "ran out of time" in again
    assert "nothing was changed" in again
    # The match counts only the boards that count: board 1 still out at table 1, board 2 not scored
    # (said apart, not counted in).
    assert "(0 of 1 boards in; board 2 not scored)" in run("tables", event)
    # The match's other table has no result to come on it: a result entered there is kept, uncounted.
    _score(event, 2, 2, 25, 0)
    exported = json.loads(run("export", event, "-o", "-"))
    first = next(m for m in exported["duplicate_team_matches"] if m["tables"] == [1, 2])
    assert first["not_scored"][0]["second"] == [25, 0] and [b["board"] for b in first["boards"]] == []
    # Taken back there, it is not to be entered again: the board is not scored in the match.
    said = run("clear", event, "--round", 1, "--table", 2, "--board", 2, "--reason", "not needed")
    assert said.strip() == ("round 1 table 2 board 2: result NS 25, EW 0 taken back (kept in the history); the "
                            "board is not scored in the match (not played at table 1)")
    # Nothing of the refusals in the history: one mark, one result taken back.
    history = json.loads(run("history", event, "--json"))
    assert [x["action"] for x in history if x["action"].startswith("board_")] == ["board_not_played",
                                                                                  "board_cleared"]


def test_clear_takes_back_a_mark_and_a_result_at_a_team_table(teams: Path) -> None:
    event = teams
    _not_played(event, 1, 2)
    assert "not played" in run("tables", event)
    said = run("clear", event, "--round", 1, "--table", 1, "--board", 2, "--reason", "they played it after all")
    assert said.strip() == "round 1 table 1 board 2: no longer marked not played; its result is to be entered"
    assert "B2 not played" not in run("tables", event)
    # Awaited again, at both tables.
    for t in (1, 2, 3, 4):
        for b in (1, 2):
            if (t, b) != (1, 2):
                _score(event, t, b, 0, 0)
    assert "table 1 board 2 has no result yet" in run("pair", event, code=1)
    # A result taken back at a team table (refused before: "for duplicate pairs").
    said = run("clear", event, "--round", 1, "--table", 2, "--board", 1, "--reason", "entered for the wrong table")
    assert "round 1 table 2 board 1: result NS 0, EW 0 taken back (kept in the history)" in said
    assert run("clear", event, "--round", 1, "--table", 2, "--board", 1, "--reason", "again",
               code=1).strip().endswith("has no result: there is nothing to take back")
    assert "--reason" in run("clear", event, "--round", 1, "--table", 2, "--board", 2, code=2)
    # Without --board, a duplicate-teams table is cleared a board at a time: said so.
    assert "tournament clear EVENT --round R --table T --board B --reason TEXT" in run(
        "clear", event, "--round", 1, "--table", 2, "--reason", "x", code=1)
    history = run("history", event)
    assert "took back table 2 board 1: NS 0, EW 0 (typed score) — entered for the wrong table" in history
    trail = [x["action"] for x in json.loads(run("history", event, "--json")) if x["action"].startswith("board_")]
    assert trail == ["board_not_played", "board_cleared", "board_cleared"]


def test_a_match_with_no_board_scored_is_no_match_played(teams: Path) -> None:
    event = teams
    for board in (1, 2):  # every board of the match of tables 1-2 not played at table 2
        _not_played(event, 2, board, reason="a player had to leave")
    for t in (3, 4):
        for b in (1, 2):
            _score(event, t, b, 0, 0)
    home, away, _ = _matches(event)[1]
    shown = run("tables", event)
    assert "Tables 1-2, boards 1-2: " in shown and "(no board scored: not a match played)" in shown
    assert "B1 not played · B2 not played" in shown  # at both tables: nothing to come at either
    assert "(ningún tablero puntuado: no cuenta como encuentro jugado)" in run("tables", event, "--lang", "es")
    rows = {r["team"]: r for r in json.loads(run("standings", event, "--json"))["teams"]}
    assert rows[home]["played"] == rows[away]["played"] == 0
    assert rows[home]["victory_points"] == rows[away]["victory_points"] == 0
    # The hall's match page and crosstable say so too: no match played, neither won nor drawn.
    from tournament.event import public as pub
    from tournament.event.files import open_event
    from tournament.pages import public as pages

    store = open_event(event)
    try:
        data = pub.public_data(store, hall=True)
    finally:
        store.close()
    match = pages.page_html(data, pages.Site(), "match", 1, 1)
    assert "(no board scored: not a match played)" in match and "match drawn" not in match
    assert match.count("not played") >= 2 and "not scored" in match
    cells = [c for row in pub.team_crosstable(data)["rows"] if row["name"] in (home, away) for c in row["cells"]]
    assert cells and all(c["outcome"] is None for c in cells)
    assert "boards 3-4" in run("pair", event)
