"""The director's page entering a duplicate board's score (``POST …/result`` with ``"board"``).

1. Whether the board already has a result at the table is read in the entry's own write
   transaction, under the venue's lock: a result that lands first (the table's phone confirming
   the board, ``tournament result --board`` beside the server) makes the entry a correction,
   refused without a reason, never a first result put over it.  Before, the check was made before
   the write's transaction was taken: a result landing between was replaced as an entry (with the
   reason of an entry over the phone's play: a ``board_replaced`` line where a correction says why).
   Tested by hooking the check (:func:`duplicate.entered`): at that point another writer of the
   file tries to store the board, not waiting for the file; it must find the file held.
2. Sent again with its id (``cid``: the page's answer lost, the request sent again), stored once
   and answered as the first time, never refused as a correction of itself.
3. The hall's status of the table (``table_status``, the feed's ``status``) counts the boards the
   director entered or marked not played as the phone's confirmed ones: *playing* between boards
   (and *waiting* once a board's hand is played out, as the phone says).
4. The director's page names a board, not a hand, at a duplicate event (its lines' heading and
   the PIN's fold), in English and Spanish."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tournament.event import changes, duplicate
from tournament.event.files import open_event
from tournament.event.venue import Unprocessable, Venue
from tournament.store.sqlite import is_busy, not_waiting

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_venue import _auth  # noqa: E402
from tests.tournament.test_venue_duplicate import _play_board  # noqa: E402
# The served 3-table Mitchell (6 boards, 2 a table) and its helpers.
from tests.tournament.test_venue_duplicate_not_played import _post, _refused, dup  # noqa: E402,F401


@pytest.fixture
def seated(tmp_path: Path):
    """A 3-table Mitchell seated, its venue in this thread (no server: the test calls it in the
    order it needs) and a second connection to the file, another writer (as the command line
    beside the server): the event, the venue, the other store, table 1's boards."""
    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    venue = Venue(open_event(event))
    other = open_event(event)
    try:
        table = venue.table(1, 1)
        yield event, venue, other, duplicate.boards_of(venue.store, table)
    finally:
        other.close()
        venue.store.close()


def _land_at_the_check(monkeypatch, venue: Venue, other, board: int) -> list[str]:
    """At the venue's first reading of whether ``board`` has a result at table 1, after it has
    read it: another writer stores the board's score there (20 to 0), not waiting for the file.
    What became of it: ``["stored"]``, or ``["held"]`` (the file was held by the entry's write)."""
    real = duplicate.entered
    became: list[str] = []

    def check_then_land(store, table_id: int, board_no: int):
        answer = real(store, table_id, board_no)
        if store is venue.store and board_no == board and not became:
            try:
                with not_waiting(other.conn):
                    duplicate.enter_score(other, 1, 1, board, {"NS": 20, "EW": 0}, by="table 1's phone",
                                          from_phone=True)
                became.append("stored")
            except sqlite3.OperationalError as e:
                assert is_busy(e), e
                became.append("held")
        return answer

    monkeypatch.setattr(duplicate, "entered", check_then_land)
    return became


def _trail(event: Path) -> list[tuple[str, dict]]:
    return [(x["action"], x["detail"]) for x in json.loads(run("history", event, "--json"))]


def test_a_result_landing_at_the_check_is_never_replaced_by_the_entry(seated, monkeypatch) -> None:
    event, venue, other, (first, _) = seated
    became = _land_at_the_check(monkeypatch, venue, other, first)
    said = venue.director_result(1, 1, {"NS": 30, "EW": 0}, "the phone broke", board=first)["said"]
    # The check and the write are one step: nothing else could write between them.
    assert became == ["held"]
    assert said[0] == f"round 1 table 1 board {first}: NS 30, EW 0 (typed score, unverified) — stored"
    assert not [a for a, _ in _trail(event) if a == "board_replaced"]
    # The other writer, once the file is free, finds the board's result there (as a phone's
    # confirmation does: the director's stands).
    monkeypatch.undo()
    with pytest.raises(Exception, match="already has a result"):
        duplicate.enter_score(other, 1, 1, first, {"NS": 20, "EW": 0}, by="table 1's phone", from_phone=True)
    stored = duplicate.entered(venue.store, venue.table(1, 1).id, first)
    assert (stored["ns_points"], stored["ew_points"]) == (30, 0)


def test_without_a_reason_nothing_lands_at_the_check_either(seated, monkeypatch) -> None:
    event, venue, other, (first, _) = seated
    became = _land_at_the_check(monkeypatch, venue, other, first)
    said = venue.director_result(1, 1, {"NS": 30, "EW": 0}, None, board=first)["said"]
    assert became == ["held"] and said[0].endswith("— stored")


def test_a_result_stored_first_makes_the_entry_a_correction(seated) -> None:
    """The phone's (here another writer's) result is in before the entry reads the table: the
    entry is a correction, the usual line without a reason, kept as a correction with one."""
    event, venue, other, (first, _) = seated
    duplicate.enter_score(other, 1, 1, first, {"NS": 20, "EW": 0}, by="table 1's phone", from_phone=True)
    with pytest.raises(Unprocessable, match="give the reason for changing a result"):
        venue.director_result(1, 1, {"NS": 30, "EW": 0}, None, board=first)
    venue.director_result(1, 1, {"NS": 30, "EW": 0}, "scored wrong", board=first)
    actions = [a for a, _ in _trail(event)]
    assert "board_corrected" in actions and "board_replaced" not in actions


def test_the_same_entry_sent_again_with_its_id_is_stored_once(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, second = boards
    body = {"board": second, "scores": {"NS": 30, "EW": 0}, "cid": "board-2-entered-once"}
    sent = _post(client, f"{url}/result", director, body)
    again = _post(client, f"{url}/result", director, body)  # (the answer lost: the page sends it again)
    assert sent.status_code == again.status_code == 200, again.text
    assert sent.json()["said"] == again.json()["said"] == \
        [f"round 1 table 1 board {second}: NS 30, EW 0 (typed score, unverified) — stored"]
    assert "1 of 2" in run("tables", event, "--round", 1)
    assert not [a for a, _ in _trail(event) if a in ("board_replaced", "board_corrected")]
    # Another entry of the same board (another id) is a correction: refused without a reason.
    _refused(_post(client, f"{url}/result", director, {**body, "cid": "board-2-entered-twice"}), 422,
             "give the reason for changing a result")
    # The same id with another write is refused, as every one of the director's writes.
    assert _post(client, f"{url}/result/not-played", director,
                 {"board": first, "reason": "x", "cid": body["cid"]}).status_code == 422


def _status(client, table: int = 1) -> str:
    doc = client.get("/api/v1/rounds/1").json()
    return next(t["status"] for t in doc["tables"] if t["table"] == table)


def test_the_halls_status_counts_the_directors_boards(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, second = boards

    def done(path: str, body: dict) -> None:
        r = _post(client, f"{url}/{path}", director, body)
        assert r.status_code == 200, r.text

    assert _status(client) == "not started"
    done("result", {"board": first, "scores": {"NS": 30, "EW": 0}})
    assert _status(client) == "playing"  # (it said "not started": only the phone's hands counted)
    assert server.call(changes.table_status, server.venue.store, 1, 1) == "playing"
    done("result/not-played", {"board": second, "reason": "no time"})
    assert _status(client) == "confirmed"  # every board in
    done("result/clear", {"board": second, "reason": "played"})
    assert _status(client) == "playing"
    done("result/clear", {"board": first, "reason": "slip"})
    assert _status(client) == "not started"
    # A board marked not played, alone: the table is under way as with a board entered.
    done("result/not-played", {"board": second, "reason": "no time"})
    assert _status(client) == "playing"


def test_between_the_phones_boards_the_table_is_playing(dup) -> None:
    event, client, url, token, boards, director, server = dup
    state = client.get(url, headers=_auth(token)).json()
    # The board's hand played out: waiting for its confirmations, as the phone and the director's
    # overview say (it was logged "playing": the game of one board is not over by its rules).
    rng = random.Random(3)
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    while not r.json()["game"]["over"]:
        legal = r.json()["game"]["legal"]
        text = rng.choice(legal)["text"] if legal else "y"
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": r.json()["rev"], "text": text})
        assert r.status_code == 200, r.text
    assert r.json()["status"] == "waiting" and _status(client) == "waiting"
    for side in ("NS", "EW"):
        r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": r.json()["rev"], "side": side})
        assert r.status_code == 200, r.text
    state = r.json()
    assert state["boards_played"] == 1
    assert _status(client) == "playing"  # (it was logged "not started" again once the board was confirmed)
    # The next board played out and confirmed the same way: the table's round is over.
    state = _play_board(client, url, token, state, random.Random(4))
    assert state["boards_played"] == 2 and _status(client) == "confirmed"


def test_the_directors_page_names_a_board_at_a_duplicate_event(dup) -> None:
    event, client, url, token, boards, director, server = dup
    page = client.get(f"/d/{director}", headers={"Accept-Language": "en"}).text
    assert "The board in play, move by move: tap a line to correct it" in page
    assert "The director's PIN, to correct a board at a table" in page
    assert "hand by hand" not in page and "correct a hand" not in page and "or a hand there" not in page
    es = client.get(f"/d/{director}?lang=es").text
    assert "El tablero en juego, jugada a jugada" in es and "para corregir un tablero en la mesa" in es
    assert "mano a mano" not in es and "corregir una mano" not in es


def test_the_directors_page_still_says_hand_elsewhere(tmp_path: Path) -> None:
    from tests.tournament.test_venue import _event, _server

    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        key = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
        page = client.get(f"/d/{key}", headers={"Accept-Language": "en"}).text
        assert "The game, hand by hand: tap a line to correct it" in page
        assert "The director's PIN, to correct a hand at a table" in page
        assert "The board in play" not in page and "correct a board" not in page
    finally:
        server.close()


def test_a_mark_in_duplicate_teams_moves_both_tables_of_the_match(tmp_path: Path) -> None:
    """A board marked not played at a team table is not played at the match's other table either:
    both are under way on the hall once it is marked, and neither once it is taken back."""
    from tests.tournament.test_duplicate_teams import new_event as new_teams_event
    from tests.tournament.test_venue_duplicate import served

    event = tmp_path / "teams.db"
    new_teams_event(event, 4, "--victory-points")
    for event, server, client in served(event, 6, 37):
        director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
        assert [_status(client, t) for t in (1, 2, 3)] == ["not started"] * 3
        r = _post(client, "/api/v1/tables/1/1/result/not-played", director, {"board": 2, "reason": "no time"})
        assert r.status_code == 200, r.text
        assert [_status(client, t) for t in (1, 2, 3)] == ["playing", "playing", "not started"]
        r = _post(client, "/api/v1/tables/1/1/result/clear", director, {"board": 2, "reason": "they played it"})
        assert r.status_code == 200, r.text
        assert [_status(client, t) for t in (1, 2, 3)] == ["not started"] * 3
