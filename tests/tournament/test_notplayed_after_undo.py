"""A board a table's phone started and took back (``hand 1``, then Undo, no move made) is not in play:
``tournament result --board B --not-played`` and the director's page mark it as any other board
(tester's finding 2: both refused it, "table 1's phone is playing board 6", and the only way out was
a placeholder score entered with --replace, taken back, then the mark).  A board that is in play
(a move made) is marked over its hand with ``--not-played --replace`` (the page: ``"replace": true``),
as ``--score … --replace`` enters a score over it: the phone's hand taken off (its moves kept in the
venue's log), the history saying so.  Before, ``--replace`` beside ``--not-played`` was a usage error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_venue import _auth, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


@pytest.fixture
def dup(tmp_path: Path):
    """A 3-table Mitchell seated (6 boards, 2 a table), its venue in this process: the event, the
    client, table 1's URL, its key, its boards, the director's key."""
    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    server = _server(event)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        link = next(x for x in links["tables"] if x["table"] == 1)
        url, token = "/api/v1/tables/1/1", link["token"]
        boards = client.get(url, headers=_auth(token)).json()["boards"]
        yield event, client, url, token, boards, _key(links["director"])
    finally:
        server.close()


def _send(client, url: str, token: str, text: str) -> dict:
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_hand_taken_back_whole_is_not_in_play_at_the_command_line(dup) -> None:
    event, client, url, token, boards, _ = dup
    first = boards[0]
    _send(client, url, token, "hand 1")  # the phone's Start board: the board's deal
    _send(client, url, token, "undo")  # "took back what was typed of hand 1 (no move of it was made)"
    out = run("result", event, "--round", 1, "--table", 1, "--board", first, "--not-played",
              "--reason", "ran out of time")
    assert f"round 1 table 1 board {first}: not played" in out
    assert "phone" not in out  # nothing was taken off the phone: nothing of the hand was there
    assert f"table 1 board {first}: not played — ran out of time" in run("history", event)
    # The phone goes on with its next board.
    assert client.get(url, headers=_auth(token)).json()["board"] == boards[1]


def test_a_hand_taken_back_whole_is_not_in_play_on_the_directors_page(dup) -> None:
    event, client, url, token, boards, director = dup
    first = boards[0]
    client.post(f"{url}/mode", headers=_auth(token),
                json={"rev": client.get(url, headers=_auth(token)).json()["rev"], "mode": "sheet"})
    _send(client, url, token, "hand 1")  # a scores-only table's start of the hand, taken back
    _send(client, url, token, "undo")
    r = client.post(f"{url}/result/not-played", headers=_auth(director), json={"board": first, "reason": "time"})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == [f"round 1 table 1 board {first}: not played — no score there; the board is scored "
                                f"over the tables that played it"]


def test_a_hand_in_play_is_marked_not_played_with_replace(dup) -> None:
    event, client, url, token, boards, _ = dup
    first = boards[0]
    started = _send(client, url, token, "hand 1")
    _send(client, url, token, started["game"]["legal"][0]["text"])  # a move made: the hand is in play
    # Still in play: refused without --replace, the refusal naming it.
    said = run("result", event, "--round", 1, "--table", 1, "--board", first, "--not-played", "--reason", "x",
               code=1)
    assert f"table 1's phone is playing board {first}" in said and "--replace to mark it not played" in said
    out = run("result", event, "--round", 1, "--table", 1, "--board", first, "--not-played", "--replace",
              "--reason", "ran out of time")
    assert out.splitlines()[0] == (f"round 1 table 1 board {first}: not played — no score there; the board is "
                                   f"scored over the tables that played it; table 1's phone no longer plays board "
                                   f"{first} (its moves stay in the venue's log)")
    assert (f"table 1 board {first}: not played (marked over the hand table 1's phone was playing) — ran out of "
            f"time") in run("history", event)
    after = client.get(url, headers=_auth(token)).json()
    assert after["board"] == boards[1] and after["entered"]["board"] == first and after["entered"]["not_played"]
    trail = [x for x in json.loads(run("history", event, "--json")) if x["action"] == "board_not_played"]
    assert trail[0]["detail"] == {"table": 1, "board": first, "over_play": [1]}


def test_the_directors_page_marks_a_hand_in_play_with_replace(dup) -> None:
    event, client, url, token, boards, director = dup
    first = boards[0]
    _send(client, url, token, "hand 1")
    marked = f"{url}/result/not-played"
    r = client.post(marked, headers=_auth(director), json={"board": first, "reason": "time"})
    assert r.status_code == 422 and f"table 1's phone is playing board {first}" in r.json()["error"]
    r = client.post(marked, headers=_auth(director), json={"board": first, "reason": "time", "replace": "yes"})
    assert r.status_code == 422 and '"replace" must be true or false' in r.json()["error"]
    r = client.post(marked, headers=_auth(director), json={"board": first, "reason": "time", "replace": True})
    assert r.status_code == 200, r.text
    assert r.json()["said"][1] == (f"table 1's phone no longer plays board {first} (its moves stay in the "
                                        f"venue's log)")
    assert client.get(url, headers=_auth(token)).json()["board"] == boards[1]


def test_the_phone_taken_off_is_said_in_spanish_on_the_directors_page(dup) -> None:
    event, client, url, token, boards, director = dup
    first = boards[0]
    _send(client, url, token, "hand 1")
    r = client.post(f"{url}/result/not-played", headers={**_auth(director), "Accept-Language": "es"},
                    json={"board": first, "reason": "tiempo", "replace": True})
    assert r.status_code == 200, r.text
    assert r.json()["said"][1] == (f"el teléfono de la mesa 1 ya no juega el tablero {first} (sus jugadas quedan en "
                                   f"el registro de la sala)")
