"""The director's page marks a duplicate pairs table's board not played, and takes a board's result
back, through the command line's own operations (``tournament result --board B --not-played``,
``tournament clear --board B``): ``POST /api/v1/tables/R/T/result/not-played`` and
``…/result/clear`` with ``"board"``.  Refused as the command line refuses, in one line (422, the
request's language), the reason required; the director's key only (403); kept in the history as
the command line keeps them; the table's phone finds the board it is on moved at its next read,
and the hall hears of the change.  Before, the page could do neither: ``…/result/clear`` at a
duplicate table sent the director to the command line, and there was no ``…/not-played``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_venue import _auth, _event, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


@pytest.fixture
def dup(tmp_path: Path):
    """A 3-table Mitchell seated (6 boards, 2 a table), its venue in this process: the event, the
    client, table 1's URL, its key, its boards, the director's key and the server."""
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
        yield event, client, url, token, boards, _key(links["director"]), server
    finally:
        server.close()


def _post(client, url, token, body, lang="en"):
    return client.post(url, headers={**_auth(token), "Accept-Language": lang}, json=body)


def _refused(r, status: int, words: str) -> str:
    assert r.status_code == status, r.text
    said = r.json()["error"]
    assert words in said and "\n" not in said and "Traceback" not in said, said
    return said


def test_the_director_marks_a_board_not_played_and_takes_it_back(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, second = boards
    phone = client.get(url, headers=_auth(token)).json()
    assert (phone["board"], phone["boards_played"]) == (first, 0)
    seen = server.venue.store.changes_logged
    r = _post(client, f"{url}/result/not-played", director, {"board": second, "reason": "ran out of time"})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == [f"round 1 table 1 board {second}: not played — no score there; the board is scored "
                                f"over the tables that played it"]
    assert r.json()["boards_played"] == 1
    assert server.venue.store.changes_logged != seen  # the hall is told, as after the director's correction
    # The table's phone, at its next read: the board marked is done (the revision is the same).
    after = client.get(url, headers=_auth(token)).json()
    assert (after["board"], after["boards_played"], after["rev"]) == (first, 1, phone["rev"])
    assert f"table 1 board {second}: not played — ran out of time" in run("history", event)
    assert "1 not played" in run("tables", event, "--round", 1)
    # Marked again: nothing more (as the command line's second mark).
    assert _post(client, f"{url}/result/not-played", director, {"board": second, "reason": "again"}).status_code == 200
    # Taken back: the board is to be entered again, said in the history as `clear --board` says it.
    r = _post(client, f"{url}/result/clear", director, {"board": second, "reason": "they played it after all"})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == [f"round 1 table 1 board {second}: no longer marked not played; its result is to be "
                                f"entered"]
    assert client.get(url, headers=_auth(token)).json()["boards_played"] == 0
    # A result entered at the command line beside the server, then taken back from the page.
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=20,EW=0")
    assert client.get(url, headers=_auth(token)).json()["board"] == second
    r = _post(client, f"{url}/result/clear", director, {"board": first, "reason": "entered for the wrong table"})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == [f"round 1 table 1 board {first}: result NS 20, EW 0 taken back (kept in the "
                                f"history); the board is to be entered again"]
    assert client.get(url, headers=_auth(token)).json()["board"] == first  # the phone offers it again
    history = run("history", event)
    assert f"took back table 1 board {first}: NS 20, EW 0 (typed score) — entered for the wrong table" in history
    trail = json.loads(run("history", event, "--json"))
    assert [(x["action"], x["by"]) for x in trail] == [("board_not_played", "the director's page"),
                                                       ("board_cleared", "the director's page"),
                                                       ("board_cleared", "the director's page")]


def test_the_pages_writes_are_refused_as_the_command_line_refuses_them(dup) -> None:
    event, client, url, token, boards, director, _ = dup
    first, second = boards
    marked, cleared = f"{url}/result/not-played", f"{url}/result/clear"
    # Only the director's key: a table's own key, or none of the event's, is refused (403).
    for key in (token, "not-a-key"):
        _refused(_post(client, marked, key, {"board": first, "reason": "slip"}), 403, "")
        _refused(_post(client, cleared, key, {"board": first, "reason": "slip"}), 403, "")
    # The reason required, as the command line's --reason.
    for reason in (None, " "):
        _refused(_post(client, marked, director, {"board": first, "reason": reason}), 422,
                 "give the reason for marking a board not played")
        _refused(_post(client, cleared, director, {"board": first, "reason": reason}), 422,
                 "give the reason for taking a board's result back")
    _refused(_post(client, marked, director, {"board": "1", "reason": "slip"}), 422, '"board" must be the number')
    _refused(_post(client, marked, director, {"reason": "slip"}), 422, '"board" must be the number')
    # A board the table does not play; nothing to take back.
    _refused(_post(client, marked, director, {"board": 9, "reason": "slip"}), 422, "not board 9")
    _refused(_post(client, cleared, director, {"board": first, "reason": "slip"}), 422, "nothing to take back")
    # A board already settled: one with a result is taken back first (the command line's words).
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=20,EW=0")
    said = _refused(_post(client, marked, director, {"board": first, "reason": "slip"}), 422,
                    f"board {first} has a result (NS 20, EW 0): take it back first")
    cli = run("result", event, "--round", 1, "--table", 1, "--board", first, "--not-played", "--reason", "x", code=1)
    # The same refusal, its advice in each one's terms: the page's button, the command line's command.
    assert said == (f"round 1 table 1 board {first} has a result (NS 20, EW 0): take it back first (Take the "
                    f"board's result back)")
    assert (f"round 1 table 1 board {first} has a result (NS 20, EW 0): take it back first (tournament clear "
            f"EVENT --round 1 --table 1 --board {first} --reason TEXT)") in cli
    # Spanish, in one line, as every refusal of the director's page.
    es = _refused(_post(client, marked, director, {"board": first, "reason": "slip"}, "es"), 422, "anúlelo primero")
    assert "take it back" not in es and "(Anular el resultado del tablero)" in es
    es = _refused(_post(client, marked, director, {"board": second, "reason": ""}, "es"), 422, "no jugado")
    # The board the table's phone is playing: finished there first.
    state = client.get(url, headers=_auth(token)).json()
    assert state["board"] == second
    client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"})
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    said = _refused(_post(client, marked, director, {"board": second, "reason": "slip"}), 422,
                    f"table 1's phone is playing board {second}")
    # The page has no --replace: its advice says what the page does (its save corrects a board's
    # result, enters none) and names the command line as such; the command line keeps its own words.
    assert said == (f"table 1's phone is playing board {second}: finish the hand there and confirm it (this page "
                    f"then corrects its score: Save the result), or enter its score at the command line "
                    f"(tournament result EVENT --round 1 --table 1 --board {second} --score NS=..,EW=.. --replace)")
    cli = run("result", event, "--round", 1, "--table", 1, "--board", second, "--not-played", "--reason", "x", code=1)
    assert f"table 1's phone is playing board {second}: finish the hand there, or give --replace to mark it not played over the hand" in cli
    es = _refused(_post(client, marked, director, {"board": second, "reason": "slip"}, "es"), 422,
                  "terminen la mano allí y confírmenla")
    assert "Guardar el resultado" in es and "finish" not in es
    # Nothing of it stored: the history holds no mark, no board taken back.
    history = run("history", event)
    assert "not played" not in history and "took back" not in history


def test_not_a_duplicate_pairs_event_is_refused_in_one_line(tmp_path: Path) -> None:
    server = _server(_event(tmp_path))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        for path, words in (("not-played", "a board not played is for a duplicate event"),
                            ("clear", "taking back a board's result is for a duplicate event")):
            _refused(_post(client, f"/api/v1/tables/1/1/result/{path}", director, {"board": 1, "reason": "slip"}),
                     422, words)
            es = _refused(_post(client, f"/api/v1/tables/1/1/result/{path}", director,
                                {"board": 1, "reason": "slip"}, "es"), 422, "torneo duplicado")
            assert "is for" not in es
    finally:
        server.close()


def test_a_write_sent_again_with_its_id_is_done_once(dup) -> None:
    """As every one of the director's writes (``cid``): sent again, answered again, done once."""
    event, client, url, token, boards, director, _ = dup
    body = {"board": boards[1], "reason": "ran out of time", "cid": "mark-board-2-once"}
    first = _post(client, f"{url}/result/not-played", director, body)
    again = _post(client, f"{url}/result/not-played", director, body)
    assert first.status_code == again.status_code == 200
    assert first.json()["said"] == again.json()["said"]
    marks = [x for x in json.loads(run("history", event, "--json")) if x["action"] == "board_not_played"]
    assert [(x["by"], x["reason"], x["detail"]) for x in marks] == \
        [("the director's page", "ran out of time", {"board": boards[1], "table": 1})]
