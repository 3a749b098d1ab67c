"""A board marked not played at one table of a duplicate-teams match, seen from the match's other
table (docs/duplicate.md, "A board not played in a match").

* A result entered at the other table is stored, by the director's page and the command line alike,
  without a reason (nothing there is replaced), and the answer says plainly that it does not count
  while the mark stands and counts once that mark is taken back.  Before, the page asked a reason
  "for entering its result instead" and then stored a result that did not count, unsaid; the
  command line stored it without a word.
* A mark made over the other table's play (``"replace"``: the board was taken off that table's
  phone) and taken back leaves the board due there, but its phone never plays a closed board
  again: the answer says the director enters its result there, and the table's state lists it
  (``to_enter``, server and phone's engine alike; not counted in ``boards_played``), as the
  director's overview does.  Before, nothing said so, and the table counted the board as in."""

from __future__ import annotations

import pytest

from tests.tournament.test_duplicate_teams import run
from tests.tournament.test_venue_duplicate import _auth
from tests.tournament.test_venue_duplicate_teams_not_played import _post, venue  # noqa: F401
from tests.tournament.test_venue_duplicate_not_played import dup  # noqa: F401

pytest.importorskip("starlette.testclient")
from tournament.event import phone  # noqa: E402
from tournament.web.app import PHRASES  # noqa: E402

NOTE = ("it does not count while board 2 is marked not played at table 1, the match's other table (the board is not "
        "scored in the match): it counts once that mark is taken back")


def test_a_result_at_the_other_table_is_stored_and_said_not_to_count(venue) -> None:  # noqa: F811
    event, server, client, tables, director = venue
    (url1, key1), (url2, key2) = tables[1], tables[2]
    r = _post(client, f"{url1}/result/not-played", director, {"board": 2, "reason": "ran out of time"})
    assert r.status_code == 200, r.text
    # The director's read of table 2 names the mark at the other table, for the page to say before a save.
    state = client.get(url2, headers=_auth(director)).json()
    assert state["marked_at_other"] == [{"board": 2, "table": 1}] and state["not_played"] == [2]
    assert client.get(url1, headers=_auth(director)).json()["marked_at_other"] == []
    # Saved at table 2 with no reason: stored, and said not to count while the mark stands.
    r = _post(client, f"{url2}/result", director, {"board": 2, "scores": {"NS": 20, "EW": 0}})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == ["round 1 table 2 board 2: NS 20, EW 0 (typed score, unverified) — stored", NOTE]
    # Corrected, in Spanish: the same, a sentence each.
    r = _post(client, f"{url2}/result", director, {"board": 2, "scores": {"NS": 25, "EW": 0}, "reason": "misread"},
              "es")
    assert r.status_code == 200, r.text
    assert r.json()["said"][1] == ("no cuenta mientras el tablero 2 esté marcado como no jugado en la mesa 1, la otra "
                                   "mesa del encuentro (el tablero no se puntúa en el encuentro): cuenta en cuanto se "
                                   "anule esa marca")
    assert "board_played_after_all" not in run("history", event, "--json")
    # The command line says the same (it stored it silently before).
    said = run("result", event, "--round", 1, "--table", 2, "--board", 2, "--score", "NS=30,EW=0", "--replace",
               "--reason", "misread")
    assert said.strip() == ("round 1 table 2 board 2: NS 30, EW 0 (typed score, unverified) — replaced; "
                            + NOTE)
    # At the table that has the mark itself a result still takes the mark's place only with a reason.
    r = _post(client, f"{url1}/result", director, {"board": 2, "scores": {"NS": 0, "EW": 0}})
    assert r.status_code == 422 and "give the reason for entering its result instead" in r.json()["error"]
    # The mark taken back: table 2's result counts in the match once table 1's is in.
    r = _post(client, f"{url1}/result/clear", director, {"board": 2, "reason": "they played it after all"})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == ["round 1 table 1 board 2: no longer marked not played; its result is to be entered"]
    said = run("result", event, "--round", 1, "--table", 1, "--board", 2, "--score", "NS=0,EW=0")
    assert "does not count" not in said
    assert "B2 NS 30 EW 0" in run("tables", event)


def test_the_command_line_says_it_at_either_table(venue) -> None:  # noqa: F811
    """``tournament result --board --score`` at a table whose match's other table has the board marked: the note."""
    event, server, client, tables, director = venue
    run("result", event, "--round", 1, "--table", 2, "--board", 2, "--not-played", "--reason", "a player left")
    said = run("result", event, "--round", 1, "--table", 1, "--board", 2, "--score", "NS=10,EW=0")
    assert said.strip() == ("round 1 table 1 board 2: NS 10, EW 0 (typed score, unverified) — stored; it does not "
                            "count while board 2 is marked not played at table 2, the match's other table (the board "
                            "is not scored in the match): it counts once that mark is taken back")
    # A board not marked anywhere: no note.
    said = run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=10,EW=0")
    assert "does not count" not in said


def _phone_state(client, url: str, key: str) -> tuple[dict, dict]:
    state = client.get(url, headers=_auth(key)).json()
    log = client.get(f"{url}?log=1", headers=_auth(key)).json()["log"]
    return state, phone.answer(log, {"path": "state"}, sentences=PHRASES)["body"]


def test_a_mark_over_the_other_tables_play_taken_back_leaves_its_board_to_enter(venue) -> None:  # noqa: F811
    event, server, client, tables, director = venue
    (url1, key1), (url2, key2) = tables[1], tables[2]
    state = client.get(url2, headers=_auth(key2)).json()
    r = client.post(f"{url2}/dgn", headers=_auth(key2), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url1}/result/not-played", director, {"board": 1, "reason": "time", "replace": True})
    assert r.status_code == 200, r.text
    assert "table 2's phone no longer plays board 1" in r.json()["said"][1]
    for state in _phone_state(client, url2, key2):
        assert (state["board"], state["not_played"], state["to_enter"], state["boards_played"]) == (2, [1], [], 1)
    # Taken back: board 1 is due at table 2 again, but its phone closed it and never plays it again.
    r = _post(client, f"{url1}/result/clear", director, {"board": 1, "reason": "marked by mistake"}, "es")
    assert r.status_code == 200, r.text
    assert r.json()["said"][1] == ("el teléfono de la mesa 2 no vuelve a jugar el tablero 1 (se cerró allí): el "
                                   "árbitro debe introducir su resultado")
    for state in _phone_state(client, url2, key2):  # the server's state and the phone's engine's alike
        assert (state["board"], state["not_played"], state["to_enter"], state["boards_played"]) == (2, [], [1], 0)
    for state in _phone_state(client, url1, key1):  # table 1's phone never had it: it plays it
        assert (state["board"], state["to_enter"]) == (1, [])
    overview = {t["table"]: t for t in client.get("/api/v1/director", headers=_auth(director)).json()["tables"]}
    assert overview[2]["to_enter"] == [1] and overview[1]["to_enter"] == []
    # The director enters it (no reason needed: nothing is replaced there); nothing is owed any more.
    r = _post(client, f"{url2}/result", director, {"board": 1, "scores": {"NS": 0, "EW": 12}})
    assert r.status_code == 200, r.text
    for state in _phone_state(client, url2, key2):
        assert (state["board"], state["to_enter"], state["boards_played"]) == (2, [], 1)


def test_a_mark_over_the_tables_own_play_taken_back_says_so_too(venue) -> None:  # noqa: F811
    """The table's own phone: the mark over its play closed the board there; taken back (here from
    the command line), the answer and the table's state say the director enters it."""
    event, server, client, tables, director = venue
    url1, key1 = tables[1]
    state = client.get(url1, headers=_auth(key1)).json()
    r = client.post(f"{url1}/dgn", headers=_auth(key1), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--replace", "--reason", "time")
    said = run("clear", event, "--round", 1, "--table", 1, "--board", 1, "--reason", "mistake")
    assert said.strip() == ("round 1 table 1 board 1: no longer marked not played; its result is to be entered; "
                            "table 1's phone does not play board 1 again (it was closed there): its result is to be "
                            "entered by the director")
    for state in _phone_state(client, url1, key1):
        assert (state["board"], state["to_enter"], state["boards_played"]) == (2, [1], 0)
    # Marked again at the other table: not due here, so not to enter.
    run("result", event, "--round", 1, "--table", 2, "--board", 1, "--not-played", "--reason", "time")
    for state in _phone_state(client, url1, key1):
        assert (state["to_enter"], state["not_played"]) == ([], [1])


def test_duplicate_pairs_too_a_board_closed_by_a_mark_and_taken_back_is_to_enter(dup) -> None:  # noqa: F811
    """The same words at a duplicate pairs table (one table: its own phone), from the director's page."""
    event, client, url, token, boards, director, server = dup
    first, second = boards
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url}/result/not-played", director, {"board": first, "reason": "time", "replace": True})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url}/result/clear", director, {"board": first, "reason": "mistake"})
    assert r.status_code == 200, r.text
    assert r.json()["said"][1] == (f"table 1's phone does not play board {first} again (it was closed there): its "
                                   f"result is to be entered by the director")
    for state in _phone_state(client, url, token):
        assert (state["board"], state["to_enter"], state["boards_played"]) == (second, [first], 0)
    # A result at a duplicate pairs table is never said not to count (no match, no other table).
    r = _post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 10, "EW": 0}})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == [f"round 1 table 1 board {first}: NS 10, EW 0 (typed score, unverified) — stored"]
    assert client.get(url, headers=_auth(token)).json()["to_enter"] == []
