"""What a duplicate event with an odd number of pairs says of itself (docs/duplicate.md, "An odd number
of pairs: a sit-out" and "Running a session"; docs/tournament.md's feed and export): a refused table
names the pair sitting out there, or the tables the round has (a gap among them); a board marked not
played twice says it was marked already; `clear` of a duplicate table asks for a board before a
reason; the tables' footer says an odd number of tables in words; a pair that has only sat out has
its direction; the feed and the export call the event duplicate, ranked by matchpoints, and count a
round's tables done."""

from __future__ import annotations

import json
from pathlib import Path

from tournament import open_event
from tournament.event import duplicate as dup, feed

from tests.tournament.test_duplicate_event import new_event, run


def five_pairs(tmp_path: Path) -> Path:
    """Five pairs, a 3-table Mitchell with a phantom: round 1 seated, pair 3 sitting out at table 3."""
    path = tmp_path / "five.db"
    new_event(path, 5, "mitchell")
    run("boards", path, "--boards", 6, "--seed", 3)
    run("pair", path)
    doc = json.loads(run("tables", path, "--json"))
    assert doc["sits_out"]["pair"] == 3 and doc["sits_out"]["table"] == 3
    assert [r["table"] for r in doc["rows"]] == [1, 2]
    return path


def test_a_sit_out_table_is_refused_naming_who_sits_out(tmp_path: Path) -> None:
    path = five_pairs(tmp_path)
    said = "round 1 has no table 3: pair 3 (Pair 3) sits out this round, table 3 is not played"
    out = run("record", path, "--table", 3, code=2)
    assert said in out and "tables 1 to 3" not in out
    assert said in run("sheets", path, "--table", 3, "-o", tmp_path / "sheets", code=2)
    assert said in run("result", path, "--table", 3, "--board", 1, "--score", "NS=50,EW=0", code=2)
    assert said in run("result", path, "--round", 1, "--table", 3, "--board", 1, "--not-played", "--reason",
                       "x", code=2)
    # a table past the movement's: the tables there are, named (no table 3 among them)
    assert "round 1 has no table 4 (it has tables 1, 2)" in run("record", path, "--table", 4, code=2)
    assert "round 1 has no table 4 (it has tables 1, 2)" in run("result", path, "--table", 4, "--board", 1,
                                                                "--score", "NS=50,EW=0", code=2)


def test_a_board_marked_not_played_twice_says_so_and_keeps_the_first_reason(tmp_path: Path) -> None:
    path = five_pairs(tmp_path)
    first = run("result", path, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--reason", "time")
    assert "not played — no score there" in first
    again = run("result", path, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--reason", "left")
    assert "round 1 table 1 board 1 was already marked not played, " in again
    assert "— time; nothing was changed" in again and "no score there" not in again
    history = run("history", path)
    assert "not played — time" in history and "left" not in history
    assert history.count("board 1: not played") == 1


def test_clear_of_a_duplicate_table_asks_for_the_board_before_the_reason(tmp_path: Path) -> None:
    path = five_pairs(tmp_path)
    out = run("clear", path, "--round", 1, "--table", 1, code=1)
    assert "take one back with tournament clear EVENT --round R --table T --board B" in out
    assert "--reason TEXT): it goes into the audit trail" not in out


def test_the_footer_says_an_odd_number_of_tables_in_words(tmp_path: Path) -> None:
    path = five_pairs(tmp_path)
    out = run("tables", path)
    assert "3-table mitchell (odd number of tables), round 1 of 3" in out and "(odd)" not in out


def test_a_pair_that_sat_out_round_1_has_its_direction(tmp_path: Path) -> None:
    path = five_pairs(tmp_path)
    pairs = {r["pair"]: r for r in json.loads(run("standings", path, "--json"))["pairs"]}
    assert pairs[3]["direction"] == "NS"  # a Mitchell's NS pair sits out
    assert {p: r["direction"] for p, r in pairs.items()} == {1: "NS", 2: "NS", 3: "NS", 4: "EW", 5: "EW"}
    line = next(x for x in run("standings", path).splitlines() if "Pair 3" in x)
    assert "NS" in line


def test_the_feed_and_the_export_call_it_duplicate(tmp_path: Path) -> None:
    path = five_pairs(tmp_path)
    run("result", path, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=50,EW=0")
    store = open_event(path)
    try:
        doc = feed.event(store)
        assert doc["rounds"][0]["results"] == 0  # table 1 has one of its two boards
        row = next(t for t in dup.table_boards(store, 1) if t.table == 1)
        other = next(b for b in row.boards if b != 1)
    finally:
        store.close()
    assert doc["format"] == "duplicate" and doc["ranking"] == "matchpoints" and doc["tiebreaks"] == []
    run("result", path, "--round", 1, "--table", 1, "--board", other, "--not-played", "--reason", "time")
    store = open_event(path)
    try:
        doc = feed.event(store)
    finally:
        store.close()
    assert doc["rounds"][0]["tables"] == 2 and doc["rounds"][0]["results"] == 1  # every board of table 1 settled
    event = json.loads(run("export", path, "-o", "-"))["event"]
    assert event["format"] == "duplicate" and event["ranking"] == "matchpoints" and event["tiebreaks"] == []


def test_duplicate_teams_are_told_apart_in_the_feed(tmp_path: Path) -> None:
    path = tmp_path / "teams.db"
    run("simulate", path, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--victory-points", "-q")
    store = open_event(path)
    try:
        doc = feed.event(store)
    finally:
        store.close()
    assert doc["format"] == "duplicate-teams" and doc["ranking"] == "victory-points" and doc["tiebreaks"] == []
    assert all(r["results"] == r["tables"] > 0 for r in doc["rounds"])
