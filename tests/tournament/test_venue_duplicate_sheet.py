"""Scores only at a duplicate table (docs/duplicate.md: at the venue): a table that records its
boards' scores, not their play, types each board's score (the points of each side and how the hand
ended) board by board; each is checked as a hand's score is (the game's rules: one side scores a
hand) and as ``tournament result --board --score`` checks it, confirmed by both sides as a played
board is, and enters the event as the board's typed score (unverified)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_venue_duplicate import _auth, _play_board

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402


@pytest.fixture
def sheet(tmp_path):
    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    client = starlette_testclient.TestClient(server.asgi)
    link = server.call(server.venue.links, "http://testserver")["tables"][0]
    url, token = f"/api/v1/tables/1/{link['table']}", link["token"]
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"})
    assert r.status_code == 200, r.text
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    yield event, client, url, token, r.json(), director
    server.close()


def _confirm(client, url, token, state):
    for side in ("NS", "EW"):
        r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


@pytest.mark.parametrize("lang, words", [("en", "only one side scores a hand"), ("es", "anota una sola")])
def test_a_boards_score_is_checked_as_a_hands(sheet, lang, words):
    event, client, url, token, state, director = sheet
    r = client.post(f"{url}/dgn", headers={**_auth(token), "Accept-Language": lang},
                    json={"rev": state["rev"], "text": "hand 1\nend blocked NS 10 EW 20"})
    assert r.status_code == 422 and words in r.json()["error"] and "\n" not in r.json()["error"]
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1\nend out NS -5 EW 0"})
    assert r.status_code == 422
    assert client.get(url, headers=_auth(token)).json()["rev"] == state["rev"]  # nothing stored


def test_boards_typed_and_confirmed_board_by_board(sheet):
    event, client, url, token, state, director = sheet
    assert state["mode"] == "sheet" and state["board"] == 1
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1\nend blocked NS 30 EW 0"})
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["game"]["over"] and state["status"] == "waiting" and not state["game"]["deal_known"]
    # The next board waits for this one's confirmation.
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1\nend out NS 0 EW 12"})
    assert r.status_code == 422 and "confirmed before the next board" in r.json()["error"]
    state = _confirm(client, url, token, state)
    assert "board 1: NS 30, EW 0 (typed score, unverified) — stored" in state["said"][-1]
    assert state["board"] == 2 and state["boards_played"] == 1 and state["status"] != "confirmed"
    # The table may play its next board instead: the mode is the table's, switched as an ordinary table's.
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1\nend out NS 0 EW 12"})
    assert r.status_code == 200, r.text
    state = _confirm(client, url, token, r.json())
    assert state["status"] == "confirmed" and state["board"] is None
    assert state["result"]["boards"] == [{"board": 1, "NS": 30, "EW": 0}, {"board": 2, "NS": 0, "EW": 12}]
    assert state["result"]["scores_only"] and not state["result"]["verified"]
    with sqlite3.connect(event) as db:
        rows = db.execute("SELECT board, ns_points, ew_points, ended, verified, record FROM board_results "
                          "ORDER BY board").fetchall()
    assert rows == [(1, 30, 0, "blocked", 0, None), (2, 0, 12, "out", 0, None)]
    doc = json.loads(run("export", event, "-o", "-"))
    first = doc["rounds"][0]["tables"][0]["board_results"]
    assert [(r["board"], r["ended"]) for r in first][:2] == [(1, "blocked"), (2, "out")]


def test_a_table_may_switch_to_play_between_boards(sheet):
    event, client, url, token, state, director = sheet
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1\nend blocked NS 30 EW 0"})
    state = _confirm(client, url, token, r.json())
    r = client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "play"})
    assert r.status_code == 200, r.text
    import random
    state = _play_board(client, url, token, r.json(), random.Random(1))
    assert "verified record" in state["said"][-1] and state["status"] == "confirmed"


def test_the_director_corrects_a_confirmed_boards_score(sheet):
    """The director's page corrects a confirmed board's score at a table, with a reason into the audit
    trail; the old result is kept whole; the standings, the board's traveller and the feed follow."""
    event, client, url, token, state, director = sheet
    for text in ("hand 1\nend blocked NS 30 EW 0", "hand 1\nend out NS 0 EW 12"):
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        state = _confirm(client, url, token, r.json())
    assert state["status"] == "confirmed"
    correct = {"scores": {"NS": 20, "EW": 0}, "board": 1}
    r = client.post(f"{url}/result", headers=_auth(director), json={**correct, "reason": None})
    assert r.status_code == 422 and "reason" in r.json()["error"]
    r = client.post(f"{url}/result", headers=_auth(director), json={**correct, "board": 3, "reason": "slip"})
    assert r.status_code == 422 and "not board 3" in r.json()["error"]
    r = client.post(f"{url}/result", headers=_auth(director),
                    json={**correct, "scores": {"NS": -4, "EW": 0}, "reason": "slip"})
    assert r.status_code == 422  # checked as tournament result --board --score checks it
    r = client.post(f"{url}/result", headers=_auth(token), json={**correct, "reason": "slip"})
    assert r.status_code == 403  # the table's own key does not correct
    r = client.post(f"{url}/result", headers=_auth(director), json={**correct, "reason": "NS counted 30, not 20"})
    assert r.status_code == 200, r.text
    state = r.json()
    assert "board 1: NS 20, EW 0 (typed score, unverified) — replaced" in state["said"][-1]
    assert state["result"]["boards"][0] == {"board": 1, "NS": 20, "EW": 0}
    with sqlite3.connect(event) as db:
        trail = db.execute("SELECT action, detail, reason, changed_by FROM desk_log WHERE action = 'board_corrected'"
                           ).fetchall()
        kept = db.execute("SELECT board, old_result FROM board_result_audit").fetchall()
    assert len(trail) == 1 and trail[0][2] == "NS counted 30, not 20" and trail[0][3] == "the director's page"
    assert json.loads(trail[0][1])["was"] == {"NS": 30, "EW": 0}
    assert [(b, json.loads(o)["ns_points"]) for b, o in kept] == [(1, 30)]
    traveller = json.loads(run("export", event, "-o", "-"))["travellers"][0]
    assert traveller["board"] == 1 and traveller["results"][0]["ns_points"] == 20
    # The hall shows no table's score on board 1 while other tables still have it to play.
    assert 'id="results-later"' in client.get("/boards/1").text and "<td>20</td>" not in client.get("/boards/1").text
    doc = json.loads(run("standings", event, "--json"))
    assert sum(r["unscored"] for r in doc["pairs"]) > 0  # the director's standings count board 1 at once
    # Public standings count it once every table that plays it has played it (docs/duplicate.md).
    # No pair has a board scored there yet, so none is ranked: the feed lists ranked pairs only,
    # and names every pair's players in its members.
    feed = client.get("/api/v1/standings").json()
    assert feed["pairs"] == [], feed["pairs"]
    assert {int(p) for p in feed["members"]} == {r["pair"] for r in doc["pairs"]}, feed["members"]


def test_a_directors_correction_keeps_how_the_hand_ended_and_is_checked_against_it(sheet):
    """The director's correction of a board typed as blocked keeps "blocked" (it used to store
    no end at all, and so let through a score no block can give: a block scores an even number);
    the page may say how the hand ended instead, and the score is checked against that."""
    event, client, url, token, state, director = sheet
    for text in ("hand 1\nend blocked NS 0 EW 20", "hand 1\nend out NS 0 EW 12"):
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        state = _confirm(client, url, token, r.json())
    r = client.post(f"{url}/result", headers=_auth(director),
                    json={"scores": {"NS": 0, "EW": 21}, "board": 1, "reason": "recount"})
    assert r.status_code == 422 and "board 1:" in r.json()["error"] and "\n" not in r.json()["error"], r.text
    r = client.post(f"{url}/result", headers=_auth(director),
                    json={"scores": {"NS": 0, "EW": 22}, "board": 1, "reason": "recount"})
    assert r.status_code == 200, r.text
    r = client.post(f"{url}/result", headers=_auth(director),
                    json={"scores": {"NS": 0, "EW": 21}, "board": 1, "reason": "it went out", "ended": "out"})
    assert r.status_code == 200, r.text
    r = client.post(f"{url}/result", headers=_auth(director),
                    json={"scores": {"NS": 0, "EW": 21}, "board": 1, "reason": "x", "ended": "sideways"})
    assert r.status_code == 422 and '"ended"' in r.json()["error"]
    with sqlite3.connect(event) as db:
        ended = dict(db.execute("SELECT board, ended FROM board_results").fetchall())
    assert ended == {1: "out", 2: "out"}


@pytest.mark.parametrize("lang, words", [("en", "board 3: NS is claimed 1, but a hand scores 0 or between 3 and 137"),
                                         ("es", "NS declara 1, pero una mano anota 0 o entre 3 y 137")])
def test_a_directors_correction_of_a_board_typed_beside_the_server_is_checked_as_any_hand(sheet, lang, words):
    """A board typed with ``tournament result --board --score`` has no end stored: the director's
    correction of it to a score no hand can make (NS 1) was stored, checked only where the end was
    known.  Now refused as the table's phone refuses it, in the page's language, nothing stored."""
    event, client, url, token, state, director = sheet
    run("result", event, "--round", 1, "--table", 2, "--board", 3, "--score", "NS=30,EW=0")
    r = client.post("/api/v1/tables/1/2/result", headers={**_auth(director), "Accept-Language": lang},
                    json={"scores": {"NS": 1, "EW": 0}, "board": 3, "reason": "recount"})
    assert r.status_code == 422 and words in r.json()["error"] and "\n" not in r.json()["error"], r.text
    with sqlite3.connect(event) as db:
        assert db.execute("SELECT ns_points, ew_points, ended FROM board_results").fetchall() == [(30, 0, None)]
