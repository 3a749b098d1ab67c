"""Duplicate teams, two follow-ups of a board marked not played in a match (docs/duplicate.md,
"A board not played in a match"):

* ``tournament tables`` says a board the director has to enter (closed on its phone by a mark
  over its play, the mark then taken back: the table's state's ``to_enter``) as such, ``B1 to be
  entered by the director``; before, ``B1 to play``, which sent the director to wait for a phone
  that never plays it again.  A duplicate pairs table's row, which counts its boards (``0 of 2``),
  names it after the count (``0 of 2, board 3 to be entered by the director``).
* A match's line (``tables``, the director's API and page, the hall) counts only the boards that
  count: a board not scored in the match (marked not played at one of its tables, a result stored
  at the other or not) is not counted in, and the command line and the director's page name it
  apart (``(0 of 1 boards in; board 2 not scored)``).  Before, ``(1 of 2 boards in)``, the board
  whose stored result counts for nothing counted as one in."""

from __future__ import annotations

import pytest

from tests.tournament.test_duplicate_teams import run
from tests.tournament.test_venue_duplicate import _auth
from tests.tournament.test_venue_duplicate_not_played import dup  # noqa: F401
from tests.tournament.test_venue_duplicate_teams_not_played import _post, _text, venue  # noqa: F401

pytest.importorskip("starlette.testclient")


def test_tables_says_a_board_the_director_has_to_enter(venue) -> None:  # noqa: F811
    event, server, client, tables, director = venue
    (url1, key1), (url2, key2) = tables[1], tables[2]
    state = client.get(url2, headers=_auth(key2)).json()
    r = client.post(f"{url2}/dgn", headers=_auth(key2), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url1}/result/not-played", director, {"board": 1, "reason": "time", "replace": True})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url1}/result/clear", director, {"board": 1, "reason": "marked by mistake"})
    assert r.status_code == 200, r.text
    assert client.get(url2, headers=_auth(key2)).json()["to_enter"] == [1]
    shown = run("tables", event, "--wide")
    assert "B1 to be entered by the director · B2 to play" in shown, shown
    assert shown.count("to be entered by the director") == 1, shown  # (table 1's phone plays it: to play)
    run("result", event, "--round", 1, "--table", 2, "--board", 1, "--score", "NS=0,EW=12")
    shown = run("tables", event, "--wide")
    assert "to be entered" not in shown and "B1 NS 0 EW 12 · B2 to play" in shown, shown


def test_a_match_counts_only_the_boards_that_count(venue) -> None:  # noqa: F811
    event, server, client, tables, director = venue
    # Board 2: marked not played at table 1, a result stored at table 2 (it counts for nothing), in
    # at tables 3 and 4 (so every table of the round is settled on it: the hall may count it).
    # Board 1 still out at table 1.
    run("result", event, "--round", 1, "--table", 1, "--board", 2, "--not-played", "--reason", "time")
    for t, b, ns, ew in ((2, 2, 25, 0), (2, 1, 0, 10), (3, 2, 0, 0), (4, 2, 0, 0)):
        run("result", event, "--round", 1, "--table", t, "--board", b, "--score", f"NS={ns},EW={ew}")
    shown = " ".join(run("tables", event, "--wide").split())
    assert "Tables 1-2, boards 1-2: " in shown and "(0 of 1 boards in; board 2 not scored)" in shown, shown
    assert "1 of 2 boards in" not in shown.split("Tables 3-4")[0]
    assert "(0 of 1 boards in; board 2 not scored)" in " ".join(run("standings", event).split())
    # The director's API: the same numbers, and the board not scored apart (the page says it so).
    overview = client.get("/api/v1/director", headers=_auth(director)).json()
    match = next(m for m in overview["matches"] if m["tables"] == [1, 2])
    assert (match["done"], match["count"], match["not_scored"], match["finished"]) == (0, 1, [2], False)
    other = next(m for m in overview["matches"] if m["tables"] == [3, 4])
    assert (other["done"], other["count"], other["not_scored"]) == (1, 2, [])
    # The hall: the round's tables and the match's page count so too.
    assert "0 of 1 boards in" in _text(client.get("/tables").text)
    page = _text(client.get("/matches/1/1").text)
    assert "0 of 1 boards in" in page and "1 of 2 boards in" not in page
    # In Spanish, the command line names the board apart in its words.
    said = " ".join(run("tables", event, "--wide", "--lang", "es").split())
    assert "0 de 1 tableros con resultado; tablero 2 sin puntuar" in said, said
    # Board 1 in at table 1: the match is finished, and says who won.
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=30,EW=0")
    assert "wins the match" in run("tables", event, "--wide").split("Tables 3-4")[0]


def test_duplicate_pairs_tables_says_it_too(dup) -> None:  # noqa: F811
    """A duplicate pairs table's row counts its boards (``1 of 2``): a board the director has to
    enter is named after the count, as its state lists it (before, nothing said it)."""
    event, client, url, token, boards, director, server = dup
    first, second = boards
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url}/result/not-played", director, {"board": first, "reason": "time", "replace": True})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url}/result/clear", director, {"board": first, "reason": "mistake"})
    assert r.status_code == 200, r.text
    assert client.get(url, headers=_auth(token)).json()["to_enter"] == [first]
    shown = " ".join(run("tables", event, "--round", 1, "--wide").split())
    assert f"0 of 2, board {first} to be entered by the director" in shown, shown
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=10,EW=0")
    shown = " ".join(run("tables", event, "--round", 1, "--wide").split())
    assert "to be entered" not in shown and "1 of 2" in shown, shown
