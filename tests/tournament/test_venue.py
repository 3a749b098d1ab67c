"""The venue server through its API, in-process (an ASGI test client): keys and what they open,
every game recorded move by move and confirmed into the event, refusals that change nothing,
stale revisions, a server made again from the file (as after ``kill -9``), and the guards every
request passes (body size, garbled JSON, writes from another site, floods)."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path

import attrs
import pytest

from domrec.reader import loads
from domrec.session import PARTS, requests_for
from domrec.simulate import play_game
from domrec.validate import validate

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event import venue as vn
from tournament.event.tables import table_record

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402
from tournament.web.openapi import OPENAPI  # noqa: E402
from tests.in_memory import tmp_path  # noqa: E402,F401  (files and databases written move by move: in memory)

#: (game, format, table size, players): one event of each game, a round of one or two tables.
EVENTS = {
    "competitive": ("competitive", "rotating", None, 8),
    "horse-race": ("horse-race", "individual", 3, 3),
    "broadway": ("broadway", "rotating", None, 4),
    "castle-rock": ("castle-rock", "individual", 5, 5),
    "domino-roads": ("domino-roads", "individual", 3, 3),
}


def _event(tmp_path: Path, key: str = "competitive") -> Path:
    game, fmt, size, count = EVENTS[key]
    path = tmp_path / f"{key}.db"
    store = create_event(path, make_settings("Club <night>", game, fmt, table_size=size, seed=3))
    add_players(store, [f"P{i} {key}" for i in range(1, count + 1)])
    pair_next_round(store)
    store.close()
    return path


@pytest.fixture
def venue(tmp_path):
    path = _event(tmp_path)
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    yield path, server, client, links
    server.close()


def _server(path: Path, **kw) -> VenueServer:
    """A server for a test that sends requests as fast as it can (one test floods on purpose)."""
    kw.setdefault("rate", 1e9)
    kw.setdefault("burst", 10 ** 9)
    return VenueServer(path, base_url="http://testserver", **kw)


def _table_one(path: Path, **kw):
    """A server for ``path``, a client of it, and the key of round 1's first table."""
    server = _server(path, **kw)
    client = starlette_testclient.TestClient(server.asgi)
    return server, client, server.call(server.venue.links, "http://testserver")["tables"][0]["token"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _key(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _game_of(path: Path, round_no: int, table_no: int, seed: int):
    """A finished game of that table, as domrec's simulator plays it (the table's own template)."""
    store = open_event(path)
    table = next(t for t in store.tables(round_no) if t.number == table_no)
    template = table_record(store.settings, table, {p.id: p for p in store.players()})
    store.close()
    return play_game(template, random.Random(seed))


def _requests(record) -> list[str]:
    """The typed form of a game (its deal written, forced passes left out), a move a request."""
    return requests_for(record, keep_deal=True)


def _play(client, token: str, round_no: int, table_no: int, record, whole_hands: bool = False) -> dict:
    """The game sent through the API, a move a request (``whole_hands``: a hand a request, for the
    tests that need the game in the event but are not about its moves)."""
    from tests.tournament.helpers import hand_by_hand

    url = f"/api/v1/tables/{round_no}/{table_no}"
    state = client.get(url, headers=_auth(token)).json()
    texts = _requests(record)
    for text in hand_by_hand(texts) if whole_hands else texts:
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, (text, r.json())
        state = r.json()
        assert state["rev"] > 0
    return state


# --- links and keys -------------------------------------------------------------------------


def test_links_json_and_keys(venue):
    path, server, client, links = venue
    assert set(links) == {"director", "director_pin", "public", "tables"} and links["public"] == "http://testserver/"
    tokens = [t["token"] for t in links["tables"]] + [_key(links["director"])]
    assert len(set(tokens)) == len(tokens) and all(len(t) >= 22 for t in tokens)  # >= 128 bits, url-safe
    assert [(t["round"], t["table"]) for t in links["tables"]] == [(1, 1), (1, 2)]
    assert all(t["url"] == f"http://testserver/t/{t['token']}" for t in links["tables"])
    store = open_event(path)
    assert vn.links(store, "http://testserver") == links  # printed again: the same keys
    store.close()


def test_a_table_key_opens_its_own_table_only(venue):
    path, server, client, links = venue
    one, two = links["tables"][0]["token"], links["tables"][1]["token"]
    assert client.get("/api/v1/tables/1/1", headers=_auth(one)).status_code == 200
    for headers in (_auth(two), _auth("x" * 32), {}, {"Authorization": one}):
        r = client.get("/api/v1/tables/1/1", headers=headers)
        assert r.status_code == 403 and "\n" not in r.json()["error"] and r.json()["request_id"]
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(two), json={"rev": 0, "text": "hand 1"})
    assert r.status_code == 403
    assert client.get("/api/v1/tables/1/9", headers=_auth(one)).status_code in (403, 404)
    assert client.get("/api/v1/director", headers=_auth(one)).status_code == 403
    director = _key(links["director"])
    assert client.get("/api/v1/tables/1/2", headers=_auth(director)).status_code == 200
    assert client.get("/api/v1/director", headers=_auth(director)).status_code == 200
    r = client.post("/api/v1/tables/1/1/clear", headers=_auth(one), json={"rev": 0})
    assert r.status_code == 403  # clearing a call is the director's
    assert client.get(f"/t/{two}").status_code == 200 and client.get("/t/nope").status_code == 403
    assert client.get(f"/d/{one}").status_code == 403 and client.get(f"/d/{director}").status_code == 200


def test_a_round_key_does_not_open_the_next_round(tmp_path):
    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        old = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        for t in server.call(server.venue.links, "http://testserver")["tables"]:
            r = client.post(f"/api/v1/tables/1/{t['table']}/result", headers=_auth(director),
                            json={"scores": {"NS": 100, "EW": 50}})
            assert r.status_code == 200, r.json()
        r = client.post("/api/v1/director/pair", headers=_auth(director), json={})
        assert r.status_code == 200 and r.json()["round"] == 2
        assert client.get("/api/v1/tables/2/1", headers=_auth(old)).status_code == 403
        new = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        assert new != old and client.get("/api/v1/tables/2/1", headers=_auth(new)).status_code == 200
    finally:
        server.close()


# --- recording and confirming, every game ---------------------------------------------------------


@pytest.mark.parametrize("key", list(EVENTS))
def test_a_whole_game_recorded_and_confirmed_enters_the_event(tmp_path, key):
    path = _event(tmp_path, key)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        token = links["tables"][0]["token"]
        record = _game_of(path, 1, 1, seed=5)
        state = _play(client, token, 1, 1, record)
        game = state["game"]
        assert game["over"] and state["status"] == "waiting"
        assert game["totals"] == validate(record).scores
        url = "/api/v1/tables/1/1/confirm"
        sides = state["sides"]
        for k, side in enumerate(sides):
            body = {"rev": state["rev"], ("seat" if state["by_seat"] else "side"): side}
            r = client.post(url, headers=_auth(token), json=body)
            assert r.status_code == 200, r.json()
            state = r.json()
            assert state["status"] == ("confirmed" if k == len(sides) - 1 else "waiting")
        assert state["result"]["verified"] and state["result"]["via"] == "table"
        assert state["result"]["scores"] == validate(record).scores
        # From now on only the director changes it.
        r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "undo"})
        assert r.status_code == 409 and "only the director" in r.json()["error"]
    finally:
        server.close()
    store = open_event(path)
    result = store.result_for(store.tables(1)[0].id)
    assert result is not None and result.kind == "record" and result.verified
    stored = loads(store.record_text(result.id))
    assert validate(stored).scores == validate(record).scores
    store.close()


def test_the_standings_people_browse_are_ranked_off_the_tables_thread(tmp_path, monkeypatch):
    """A confirmation that enters a result does not rank the event on the venue's thread (the
    tables' moves would wait behind it): the browsing thread does, and the file's ``standings``
    snapshot is then the event's standings, as a fresh ranking makes them."""
    import threading
    import time

    from tournament.event import files, standings

    ranked_on: list[str] = []

    def snapshot(store):
        ranked_on.append(threading.current_thread().name)
        return standings.snapshot(store)

    monkeypatch.setattr(files, "snapshot", snapshot)
    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = _play(client, token, 1, 1, _game_of(path, 1, 1, seed=5), whole_hands=True)
        for side in state["sides"]:
            r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
            assert r.status_code == 200, r.json()
            state = r.json()
        assert state["status"] == "confirmed"
        deadline = time.monotonic() + 60  # a wait for the other thread, not a measure of its speed
        while server.browsing.made < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.browsing.made >= 1
        assert "venue" not in ranked_on and "browsing" in ranked_on
        conn = sqlite3.connect(path)
        kept = [tuple(r) for r in conn.execute("SELECT * FROM standings")]
        conn.close()
    finally:
        server.close()
    store = open_event(path)
    assert kept == [tuple(r) for r in standings.snapshot(store)[1]]
    assert any(r for r in kept)
    store.close()


def test_a_confirmation_before_the_end_and_a_wrong_side_are_refused(venue):
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json={"rev": state["rev"], "side": "NS"})
    assert r.status_code == 422 and "not over" in r.json()["error"]
    r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json={"rev": state["rev"], "side": "XX"})
    assert r.status_code == 422 and "NS, EW" in r.json()["error"]


# --- refusals change nothing; stale revisions; restarts ------------------------------------------


def _log_rows(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT table_id, rev, kind, body FROM venue_log ORDER BY table_id, rev").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()


def test_a_refused_request_stores_nothing_and_names_line_and_column(venue):
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    record = _game_of(path, 1, 1, seed=2)
    steps = _requests(record)
    first_move = next(k for k, s in enumerate(steps) if s.split()[0] not in PARTS)
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    for text in steps[:first_move]:
        state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                            json={"rev": state["rev"], "text": text}).json()
    before = _log_rows(path)
    text = f"{steps[first_move]}\n   9-9"  # the first move is fine; the second is not a tile of the set
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
    assert r.status_code == 422
    body = r.json()
    assert (body["line"], body["column"]) == (2, 4) and body["error"].startswith("2:4: ")
    assert _log_rows(path) == before
    again = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    assert again["rev"] == state["rev"] and again["game"] == state["game"]


@pytest.mark.parametrize("body", [{"rev": 0}, {"text": "hand 1"}, {"rev": "0", "text": "hand 1"},
                                  {"rev": True, "text": "hand 1"}, {"rev": 0, "text": 7}])
def test_garbled_writes_are_refused_in_one_line(venue, body):
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json=body)
    assert r.status_code in (409, 422) and "\n" not in r.json()["error"]
    assert _log_rows(path) == []


def test_not_json_and_too_large_bodies(venue):
    path, server, client, links = venue
    headers = {**_auth(links["tables"][0]["token"]), "Content-Type": "application/json"}
    r = client.post("/api/v1/tables/1/1/dgn", headers=headers, content=b"{not json")
    assert r.status_code == 400 and r.json()["error"].startswith("the request body is not JSON")
    r = client.post("/api/v1/tables/1/1/dgn", headers=headers, content=b"[1, 2]")
    assert r.status_code == 400
    for word in (b"NaN", b"Infinity", b"-Infinity"):  # (Python's json reads them; they are not JSON)
        r = client.post("/api/v1/tables/1/1/call", headers=headers, content=b'{"rev": %s}' % word)
        assert r.status_code == 400 and r.json()["error"].startswith("the request body is not JSON"), r.text
    big = json.dumps({"rev": 0, "text": "x" * 70_000}).encode()
    r = client.post("/api/v1/tables/1/1/dgn", headers=headers, content=big)
    assert r.status_code == 413 and "64 KB" in r.json()["error"]
    assert _log_rows(path) == []


def test_a_body_that_gives_a_key_twice_is_refused(venue):
    # Issue 27: {"text": "6-6", "text": "5-2"} would be read as its last text; which was meant?
    path, server, client, links = venue
    headers = {**_auth(links["tables"][0]["token"]), "Content-Type": "application/json"}
    r = client.post("/api/v1/tables/1/1/dgn", headers=headers, content=b'{"rev": 0, "text": "hand 1", "text": "x"}')
    assert r.status_code == 400 and r.json()["error"].startswith("the request body gives the key text twice")
    assert _log_rows(path) == []


def test_two_phones_on_one_table_the_second_is_told_it_moved_on(venue):
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    url = "/api/v1/tables/1/1/dgn"
    seen = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()["rev"]
    first = client.post(url, headers=_auth(token), json={"rev": seen, "text": "hand 1"})
    # (not the very same line: that one is taken as the first's twin, test_venue_twin_line.py)
    second = client.post(url, headers=_auth(token), json={"rev": seen, "text": "hand 1 {the other phone}"})
    assert first.status_code == 200 and second.status_code == 409
    assert "moved on" in second.json()["error"] and second.json()["state"]["rev"] == seen + 1
    assert [row[2:] for row in _log_rows(path)] == [("dgn", "hand 1")]  # once, never twice


def test_a_line_made_before_a_call_of_the_director_is_taken_over_it(venue):
    """The other phone calls the director (or the director clears the call) while a phone records
    on the view before it, offline: a call changes nothing a move is judged on, so the line is
    taken, and the answer says over how many calls (the page moves the lines it made after it on,
    by as many).  A move of the other phone between is still the table moving on."""
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    url = "/api/v1/tables/1/1"
    seen = client.get(url, headers=_auth(token)).json()["rev"]
    assert client.post(f"{url}/call", headers=_auth(token), json={"rev": seen}).status_code == 200
    first = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": seen, "text": "hand 1"})
    assert first.status_code == 200, first.json()
    assert first.json()["rev"] == seen + 2 and first.json()["over_calls"] == 1
    # the next line made offline, on the view after the first: as sent, the call is behind it
    stale = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": seen + 1, "text": "N 6-6"})
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    moved = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": seen + 2, "text": "N 6-6"})
    assert moved.status_code == 200 and "over_calls" not in moved.json(), moved.json()
    # a call, then a move: a line made before both is refused
    now = moved.json()["rev"]
    assert client.post(f"{url}/call", headers=_auth(token), json={"rev": now}).status_code == 200
    taken = [client.post(f"{url}/dgn", headers=_auth(token), json={"rev": now + 1, "text": f"{seat} 6-5"}).status_code
             for seat in "EW"]
    assert 200 in taken
    late = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": now, "text": "S 5-5"})
    assert late.status_code == 409 and "moved on" in late.json()["error"]
    assert [row[2:] for row in _log_rows(path)][:3] == [("call", ""), ("dgn", "hand 1"), ("dgn", "N 6-6")]


def test_a_server_made_again_from_the_file_is_where_the_table_was(tmp_path):
    """What ``kill -9`` and ``tournament serve`` again give: the state is the log replayed."""
    path = _event(tmp_path)
    record = _game_of(path, 1, 1, seed=7)
    steps = _requests(record)
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    for text in steps[:20]:
        state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                            json={"rev": state["rev"], "text": text}).json()
    server.close()  # the connection dropped with nothing in flight, as a killed process leaves it
    again = _server(path)
    try:
        client = starlette_testclient.TestClient(again.asgi)
        resumed = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        assert resumed["rev"] == state["rev"] and resumed["game"] == state["game"]
        for text in steps[20:]:
            resumed = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                                  json={"rev": resumed["rev"], "text": text}).json()
        assert resumed["game"]["totals"] == validate(record).scores or resumed["game"]["in_hand"]
    finally:
        again.close()


# --- the director -------------------------------------------------------------------------------


def test_the_director_sees_calls_enters_and_amends_with_a_reason(venue):
    path, server, client, links = venue
    token, director = links["tables"][0]["token"], _key(links["director"])
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    state = client.post("/api/v1/tables/1/1/call", headers=_auth(token), json={"rev": state["rev"]}).json()
    overview = client.get("/api/v1/director", headers=_auth(director)).json()
    assert overview["tables"][0]["called"] and not overview["can_pair"]
    r = client.post("/api/v1/tables/1/1/clear", headers=_auth(director), json={"rev": state["rev"]})
    assert r.status_code == 200 and not r.json()["called"]
    # The reason given with a first result is the trail's as a change's is: one line, no control
    # or direction character (it was stored as sent: a terminal's escape, a right-to-left override).
    for bad in ("\x1b]0;pwned\x07 x", "two\nlines", "\u202eexe.txt", "x" * 5000):
        r = client.post("/api/v1/tables/1/1/result", headers=_auth(director),
                        json={"scores": {"NS": 150, "EW": 90}, "reason": bad})
        assert r.status_code == 422 and "\n" not in r.json()["error"], r.text
    r = client.post("/api/v1/tables/1/1/result", headers=_auth(director), json={"scores": {"NS": 150, "EW": 90}})
    assert r.status_code == 200 and r.json()["result"]["via"] == "director"
    r = client.post("/api/v1/tables/1/1/result", headers=_auth(director), json={"scores": {"NS": 150, "EW": 95}})
    assert r.status_code == 422 and "reason" in r.json()["error"]
    r = client.post("/api/v1/tables/1/1/result", headers=_auth(director),
                    json={"scores": {"NS": 150, "EW": 95}, "reason": "sheet misread"})
    assert r.status_code == 200 and r.json()["result"]["scores"] == {"NS": 150, "EW": 95}
    store = open_event(path)
    assert [row["reason"] for row in store.audit()] == ["sheet misread"]
    store.close()
    r = client.post("/api/v1/director/pair", headers=_auth(director), json={})
    assert r.status_code == 422 and "table 2" in r.json()["error"]



def test_the_overview_keeps_a_called_tables_status(venue):
    """A call of the director is a field of its own in the overview: a table that calls while its
    game waits for confirmation (a dispute over the result) still shows as waiting."""
    path, server, client, links = venue
    one, two, director = links["tables"][0]["token"], links["tables"][1]["token"], _key(links["director"])
    state = _play(client, one, 1, 1, _game_of(path, 1, 1, seed=5))
    assert state["status"] == "waiting"
    state = client.post("/api/v1/tables/1/1/call", headers=_auth(one), json={"rev": state["rev"]}).json()
    assert state["status"] == "called" and state["called"]  # the table's own state says "called", as before
    rev = client.get("/api/v1/tables/1/2", headers=_auth(two)).json()["rev"]
    assert client.post("/api/v1/tables/1/2/call", headers=_auth(two), json={"rev": rev}).status_code == 200
    overview = client.get("/api/v1/director", headers=_auth(director)).json()
    assert [(t["table"], t["status"], t["called"]) for t in overview["tables"]] == [
        (1, "waiting", True), (2, "not started", True)]
    r = client.post("/api/v1/tables/1/1/clear", headers=_auth(director), json={"rev": state["rev"]})
    assert r.status_code == 200 and r.json()["status"] == "waiting"
    overview = client.get("/api/v1/director", headers=_auth(director)).json()
    assert [(t["status"], t["called"]) for t in overview["tables"]] == [("waiting", False), ("not started", True)]


def test_the_public_page_shows_a_result_in_the_tables_order_of_sides(venue):
    path, server, client, links = venue
    director = _key(links["director"])
    r = client.post("/api/v1/tables/1/2/result", headers=_auth(director), json={"scores": {"EW": 80, "NS": 120}})
    assert r.status_code == 200
    page = client.get("/tables").text
    assert page.index("<th>NS</th>") < page.index("<th>EW</th>")
    row = re.search(r'<tr><td class="n">2</td>(.*?)</tr>', page).group(1)
    assert row.index('<span class="sc">120</span>') < row.index('<span class="sc">80</span>') and "NS won" in row
    assert page.count("to play") == 1  # table 1 has no result yet


def test_pins_confirm_only_with_a_players_own_pin(tmp_path):
    path = _event(tmp_path, "horse-race")
    store = open_event(path)
    pins = vn.make_pins(store)
    table = store.tables(1)[0]
    seat_of = {s.player: s.seat for s in table.seats}
    store.close()
    server = _server(path, pins=True)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = _play(client, token, 1, 1, _game_of(path, 1, 1, seed=3))
        player, pin = next(iter(pins.items()))
        seat = seat_of[player]
        wrong = f"{(int(pin) + 1) % 10_000:04d}"
        url = "/api/v1/tables/1/1/confirm"
        r = client.post(url, headers=_auth(token), json={"rev": state["rev"], "seat": seat, "pin": wrong})
        assert r.status_code == 403
        r = client.post(url, headers=_auth(token), json={"rev": state["rev"], "seat": seat})
        assert r.status_code == 422 and "PIN" in r.json()["error"]
        r = client.post(url, headers=_auth(token), json={"rev": state["rev"], "seat": seat, "pin": pin})
        assert r.status_code == 200 and seat in r.json()["confirmations"]
    finally:
        server.close()


# --- what every request passes ----------------------------------------------------------------


def test_a_write_from_another_sites_page_is_refused(venue):
    path, server, client, links = venue
    headers = {**_auth(links["tables"][0]["token"]), "Origin": "http://evil.example"}
    r = client.post("/api/v1/tables/1/1/dgn", headers=headers, json={"rev": 0, "text": "hand 1"})
    assert r.status_code == 403 and _log_rows(path) == []
    same = {**_auth(links["tables"][0]["token"]), "Origin": "http://testserver"}
    assert client.post("/api/v1/tables/1/1/dgn", headers=same, json={"rev": 0, "text": "hand 1"}).status_code == 200


def test_a_flooding_client_is_slowed_down(tmp_path):
    path = _event(tmp_path)
    server = _server(path, rate=1.0, burst=5)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        codes = [client.get("/").status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and 429 in codes[5:]
        r = client.get("/")
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    finally:
        server.close()


def test_pages_escape_names_and_carry_their_guards(venue):
    path, server, client, links = venue
    for url in ("/", f"/t/{links['tables'][0]['token']}", f"/d/{_key(links['director'])}"):
        r = client.get(url)
        assert r.status_code == 200
        assert "Club <night>" not in r.text and "Club &lt;night&gt;" in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff" and "set-cookie" not in r.headers
        assert "http://" not in r.text.replace("http://testserver", "")  # nothing from elsewhere


def test_an_unexpected_failure_is_one_line_with_a_request_id(venue, monkeypatch):
    path, server, client, links = venue

    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(server.venue, "state", broken)
    r = client.get("/api/v1/tables/1/1", headers=_auth(links["tables"][0]["token"]))
    assert r.status_code == 500 and "boom" not in r.text and "Traceback" not in r.text
    assert r.json()["request_id"] in r.json()["error"]


def test_a_fault_met_on_a_row_changed_by_hand_names_the_row_in_the_log(tmp_path, caplog, monkeypatch):
    """A row of the event file changed by hand (a player's id) made a table's read fail with the
    one-line 500 and a KeyError in the log, and nothing more.  Now the log also says, in one line
    as the command line does, which row holds a value the tool never writes and to run check;
    the file is scanned once for faults that come close together, on a thread of its own."""
    import logging

    from tournament.web import app as web

    path = _event(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE players SET id = -1 WHERE rowid = 1")
    conn.commit()
    conn.close()
    server, client, token = _table_one(path)
    try:
        caplog.set_level(logging.ERROR, logger="tournament")
        r = client.get("/api/v1/tables/1/1", headers=_auth(token))
        assert r.status_code == 500 and "Traceback" not in r.text and r.json()["request_id"] in r.json()["error"]
        server.looked_at.join()
        said = [x.getMessage() for x in caplog.records if "never writes" in x.getMessage()]
        assert said == [f"request {r.json()['request_id']}: {path} holds a value the tool never writes (table seats: "
                        f"row 2 points at a row of players that is not there): run `tournament check {path}` to see "
                        f"every one, and restore the event from a copy"], said
        first = server.looked_at
        assert client.get("/api/v1/tables/1/1", headers=_auth(token)).status_code == 500
        assert server.looked_at is first  # (the file is not scanned again at once)
        monkeypatch.setattr(web, "DAMAGE_LOOK_EVERY", 0.0)

        def broken(*args, **kwargs):
            raise RuntimeError("not an error a value raises")

        monkeypatch.setattr(server.venue, "state", broken)
        assert client.get("/api/v1/tables/1/1", headers=_auth(token)).status_code == 500
        assert server.looked_at is first
    finally:
        server.close()
    # A KeyError of the server's own, on a sound file: the file is looked at, and nothing more is said.
    (tmp_path / "sound").mkdir()
    sound = _event(tmp_path / "sound")
    server, client, token = _table_one(sound)
    try:
        caplog.clear()

        def missing(*args, **kwargs):
            raise KeyError("a fault of the server's own")

        monkeypatch.setattr(server.venue, "state", missing)
        assert client.get("/api/v1/tables/1/1", headers=_auth(token)).status_code == 500
        server.looked_at.join()
        assert [x.getMessage() for x in caplog.records if str(sound) in x.getMessage()] == []
    finally:
        server.close()


def test_every_route_is_described_in_the_openapi_document(venue):
    path, server, client, links = venue
    described = set(OPENAPI["paths"])
    routes = {getattr(r, "path", "") for r in server.app.routes if getattr(r, "path", "").startswith("/api/")}
    assert routes == described
    assert client.get("/api/v1/openapi.json").json()["openapi"].startswith("3.1")


def test_a_game_stopped_by_the_clock_is_confirmed_and_entered(tmp_path):
    path = tmp_path / "clock.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=3, time_limit=40))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    record = _game_of(path, 1, 1, seed=4)
    first_hand = attrs.evolve(record, hands=record.hands[:1], result=None)
    server, client, token = _table_one(path)
    try:
        url = "/api/v1/tables/1/1"
        state = client.get(url, headers=_auth(token)).json()
        assert state["time_limit"] == 40
        for text in _requests(first_hand):
            state = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text}).json()
        state = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "time"}).json()
        assert state["game"]["over"] and state["status"] == "waiting", state
        for side in ("NS", "EW"):
            state = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side}).json()
        assert state["status"] == "confirmed" and "ended on time" in state["said"][-1]
    finally:
        server.close()


def test_time_is_refused_where_the_event_has_no_clock(venue):
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": 0, "text": "hand 1\n time"})
    assert r.status_code == 422 and r.json()["error"] == "2:2: this event has no time limit: a game ends by its rules"
    assert _log_rows(path) == []


def test_the_director_opens_a_tables_game_as_a_replay_page(venue):
    path, server, client, links = venue
    token, director = links["tables"][0]["token"], _key(links["director"])
    record = _game_of(path, 1, 1, seed=6)
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    for text in _requests(record)[:15]:
        state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                            json={"rev": state["rev"], "text": text}).json()
    r = client.get(f"/d/{director}/replay/1/1")
    assert r.status_code == 200 and 'name="generator" content="domrec replay page"' in r.text
    assert "Club &lt;night&gt;" in r.text and "Club <night>" not in r.text
    assert client.get(f"/d/{token}/replay/1/1").status_code == 403
    assert client.get(f"/d/{director}/replay/1/99").status_code == 404


def test_a_result_with_no_game_behind_it_has_no_replay(venue):
    """A forfeit, or a score typed by hand, has no game to show: the director's replay says so in
    one line (404), as the hall's /games does, never an empty game "0 hands, game not finished"."""
    from typer.testing import CliRunner

    from tournament.cli import app

    path, server, client, links = venue
    director = _key(links["director"])
    assert CliRunner().invoke(app, ["result", str(path), "--table", "1", "--forfeit", "EW"]).exit_code == 0
    r = client.get(f"/d/{director}/replay/1/1")
    assert r.status_code == 404 and "round 1 table 1 has no game to show: its result is a forfeit" in r.text, r.text
    assert "0 hands" not in r.text
    r = client.post("/api/v1/tables/1/2/result", headers=_auth(director), json={"scores": {"NS": 100, "EW": 60}})
    assert r.status_code == 200, r.text
    r = client.get(f"/d/{director}/replay/1/2")
    assert r.status_code == 404 and "its result is a score typed by hand" in r.text
    assert client.get(f"/d/{director}/replay/1/2?board=1").status_code == 404  # (no boards in this event)


def test_the_command_line_works_on_the_file_while_the_server_runs(venue):
    """A result entered at the command line (another connection) is seen by the server at once: the
    table is confirmed, and its page refuses further moves."""
    from tournament import enter_manual

    path, server, client, links = venue
    token = links["tables"][1]["token"]
    state = client.get("/api/v1/tables/1/2", headers=_auth(token)).json()
    store = open_event(path)
    enter_manual(store, 2, {"NS": 120, "EW": 80})
    store.close()
    now = client.get("/api/v1/tables/1/2", headers=_auth(token)).json()
    assert now["status"] == "confirmed" and now["result"]["via"] is None  # entered at the command line
    r = client.post("/api/v1/tables/1/2/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 409


def test_sheets_carry_the_tables_qr_codes_once_the_event_was_served(tmp_path):
    from tournament.event import venue as venue_ops
    from tournament.pages.sheets import write_sheets

    path = _event(tmp_path)
    store = open_event(path)
    plain = write_sheets(store, tmp_path / "plain")
    page = [f for f in plain.files if f.suffix == ".html"][0].read_text()
    assert "<svg" not in page
    venue_ops.remember_url(store, "http://192.0.2.7:8000")
    served = write_sheets(store, tmp_path / "served", url=venue_ops.venue_url(store))
    page = [f for f in served.files if f.suffix == ".html"][0].read_text()
    urls = [t["url"] for t in venue_ops.links(store, "http://192.0.2.7:8000")["tables"]]
    assert all(u in page for u in urls)
    # Each sheet: its table's code, and the code of the event's public page (standings, results).
    assert page.count("QR code of this table's page") == len(urls)
    assert page.count("QR code of the event's public page") == len(urls) and "http://192.0.2.7:8000/</code>" in page
    assert page.count("<svg") == 2 * len(urls)
    store.close()


def test_links_and_pins_at_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from tournament.cli import app

    path = _event(tmp_path)
    runner = CliRunner()
    r = runner.invoke(app, ["links", str(path), "--json", "--url", "http://10.0.0.5:8000/"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert set(doc) == {"director", "director_pin", "public", "tables"} and doc["public"] == "http://10.0.0.5:8000/"
    assert [sorted(t) for t in doc["tables"]] == [["round", "table", "token", "url"]] * 2
    again = json.loads(runner.invoke(app, ["links", str(path), "--json", "--url", "http://10.0.0.5:8000"]).stdout)
    assert again == doc
    r = runner.invoke(app, ["pins", str(path)])
    lines = r.stdout.splitlines()
    assert r.exit_code == 0 and len(lines) == 8 and all(line.split("\t")[2].isdigit() and
                                                        len(line.split("\t")[2]) == 4 for line in lines)
    assert runner.invoke(app, ["pins", str(path)]).stdout == r.stdout  # made once
    for args in (["links", str(tmp_path / "missing.db")], ["serve", str(tmp_path / "missing.db")],
                 ["links", str(path), "--url", "not a url"]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2 and "Traceback" not in r.output and r.output.count("\n") == 1, r.output


def test_the_directors_sheets_carry_each_tables_qr_code(venue):
    path, server, client, links = venue
    director = _key(links["director"])
    r = client.get(f"/d/{director}/sheets")
    assert r.status_code == 200 and r.text.count("QR code of this table's page") == len(links["tables"])
    assert all(t["url"] in r.text for t in links["tables"])
    assert r.text.count("QR code of the event's public page") == len(links["tables"]) and links["public"] in r.text
    assert client.get(f"/d/{links['tables'][0]['token']}/sheets").status_code == 403


def test_where_a_tapped_tile_may_go(venue):
    """Without the deal the page asks the server where the tile tapped may go: every place the
    engine takes it, each one a DGN word the table's write then takes."""
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    record = _game_of(path, 1, 1, seed=8)
    url = "/api/v1/tables/1/1"
    state = client.get(url, headers=_auth(token)).json()
    tried = 0
    for text in requests_for(record, keep_deal=False):
        word = text.split()[-1]
        if text.split()[0] not in PARTS and word[0].isdigit() and state["game"]["to_move"]:
            tile = word.split("@")[0]
            found = client.get(f"{url}/options", params={"tile": tile}, headers=_auth(token)).json()
            assert found["rev"] == state["rev"] and found["tile"] == tile
            assert any(o["text"].split()[-1] == word or o["text"].split()[-1] == tile for o in found["options"])
            tried += 1
        state = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text}).json()
        assert "error" not in state, state
    assert tried > 10
    r = client.get(f"{url}/options", params={"tile": "x" * 20}, headers=_auth(token))
    assert r.status_code == 422
    assert client.get(f"{url}/options", params={"tile": "6-4"}, headers=_auth("nope")).status_code == 403


# --- the venue in a thread (tests, the pictures tool, a club's own program) ------------------------


def test_a_background_venue_serves_on_127_0_0_1_and_closes_the_event_file(tmp_path):
    import urllib.error
    import urllib.request

    from tournament.web.background import BackgroundVenue, VenueNotServing

    path = _event(tmp_path)
    with BackgroundVenue(path) as served:
        assert served.base_url == f"http://127.0.0.1:{served.port}" and served.port > 0
        assert served.links["public"] == served.base_url + "/"
        assert [t["url"].startswith(served.base_url + "/t/") for t in served.links["tables"]] == [True, True]
        with urllib.request.urlopen(served.links["public"], timeout=60) as r:
            assert r.status == 200 and "Club &lt;night&gt;" in r.read().decode()
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(served.base_url + "/api/v1/tables/1/1", timeout=60)
        assert refused.value.code == 403 and "\n" not in json.loads(refused.value.read())["error"]
        with pytest.raises(VenueNotServing, match=f"cannot listen on 127.0.0.1:{served.port}: "):
            BackgroundVenue(path, port=served.port)  # the port is taken: one line, nothing left open
    served.close()  # a second close does nothing
    with pytest.raises(OSError):
        urllib.request.urlopen(served.links["public"], timeout=60)
    from tournament.web.app import Stopped

    with pytest.raises(Stopped, match="shutting down"):  # the venue's thread, the one that used the event file, is gone
        served.server.call(served.server.venue.overview)


def test_a_tables_move_and_read_go_straight_to_their_endpoint_with_every_guard(venue, monkeypatch):
    """The hall's most frequent requests skip Starlette's routing (the server's CPU a move), and
    keep every header, check and refusal the other routes have."""
    path, server, client, links = venue
    token = links["tables"][0]["token"]

    routed = []

    async def unrouted(scope, receive, send):  # the application's routing, reached only as said below
        routed.append(f"{scope['method']} {scope['path']}")
        await send({"type": "http.response.start", "status": 418, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    monkeypatch.setattr(server, "app", unrouted)
    server.asgi = server._guarded(unrouted)
    client = starlette_testclient.TestClient(server.asgi)
    url = "/api/v1/tables/1/1"
    r = client.get(url, headers=_auth(token))
    assert r.status_code == 200 and r.json()["rev"] == 0
    for answer in (r, client.post(f"{url}/dgn", headers=_auth(token), json={"rev": 0, "text": "hand 1"})):
        assert answer.headers["x-content-type-options"] == "nosniff" and answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["cache-control"] == "no-store" and answer.headers["referrer-policy"] == "no-referrer"
        assert "default-src 'self'" in answer.headers["content-security-policy"] and answer.headers["x-request-id"]
        assert answer.headers["vary"] == "Accept-Language, Cookie"
    assert client.get(url, headers=_auth(token)).json()["rev"] == 1
    # Refused as before: another site's page, a wrong key, a bad round, a body that is not JSON.
    r = client.post(f"{url}/dgn", headers={**_auth(token), "Origin": "http://elsewhere"}, json={"rev": 1, "text": "y"})
    assert r.status_code == 403
    assert client.post(f"{url}/dgn", headers=_auth("nope"), json={"rev": 1, "text": "y"}).status_code == 403
    assert client.get("/api/v1/tables/x/1", headers=_auth(token)).status_code == 404
    r = client.post(f"{url}/dgn", headers={**_auth(token), "Content-Type": "application/json"}, content=b"{")
    assert r.status_code == 400 and "error" in r.json()
    r = client.post(f"{url}/dgn", headers={**_auth(token), "Content-Type": "text/plain"}, content=b'{"rev": 1}')
    assert r.status_code == 415 and "error" in r.json()
    # A fault is one line with its request id, as on every route.
    monkeypatch.setattr(server, "api_table", lambda request: 1 / 0)
    r = client.get(url, headers=_auth(token))
    assert r.status_code == 500 and r.json()["request_id"] in r.json()["error"]
    assert routed == []
    # Every other request is routed.
    for method, where in (("GET", f"{url}/dgn"), ("GET", f"{url}/options"), ("POST", url), ("GET", f"{url}/")):
        assert client.request(method, where, headers={**_auth(token), "Content-Type": "application/json"}).status_code == 418
    assert routed == [f"GET {url}/dgn", f"GET {url}/options", f"POST {url}", f"GET {url}/"]


def test_the_light_path_answers_as_the_routes_do(venue, monkeypatch):
    """A table's move and read answered below Starlette (VenueServer._light) get what their routes
    answer: the same status, body and headers (the request's own id aside), in every language,
    for a move taken, a read, and each refusal."""
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    url = "/api/v1/tables/1/1"
    routed = starlette_testclient.TestClient(server.asgi)

    def both(method, where, **kw):
        light = client.request(method, where, **kw)
        monkeypatch.setattr(server, "_light", lambda endpoint, scope: None)  # every request through Starlette
        try:
            slow = routed.request(method, where, **kw)
        finally:
            monkeypatch.undo()
        return light, slow

    def headers_of(answer):
        return sorted((k, v) for k, v in answer.headers.items() if k != "x-request-id")

    def same(light, slow):
        assert light.status_code == slow.status_code
        a, b = light.json(), slow.json()
        assert ("request_id" in a) == ("request_id" in b) == ("error" in a)
        a.pop("request_id", None), b.pop("request_id", None)
        assert a == b and headers_of(light) == headers_of(slow)

    es = {**_auth(token), "Accept-Language": "es"}
    for headers in (_auth(token), es, {**_auth(token), "Cookie": "lang=es"}):
        same(*both("GET", url, headers=headers))
        same(*both("GET", f"{url}?hands=x.1", headers=headers))
    # A move taken: the same write sent again (its id) is answered what it was first.
    first = client.post(f"{url}/dgn", headers=es, json={"rev": 0, "text": "hand 1", "cid": "move-0001"})
    monkeypatch.setattr(server, "_light", lambda endpoint, scope: None)
    again = routed.post(f"{url}/dgn", headers=es, json={"rev": 0, "text": "hand 1", "cid": "move-0001"})
    monkeypatch.undo()
    same(first, again)
    assert first.json()["rev"] == 1
    for headers in (_auth(token), es):
        same(*both("POST", f"{url}/dgn", headers=headers, json={"rev": 0, "text": "y"}))  # 409: the table moved on
        same(*both("POST", f"{url}/dgn", headers=headers, json={"rev": 1, "text": "9-9"}))  # 422: no such move
        same(*both("POST", f"{url}/dgn", headers=headers, content=b"{"))  # 400: not JSON
        same(*both("POST", f"{url}/dgn", headers=headers, content=b'{"rev": 1, "rev": 2}'))  # a key twice
        same(*both("POST", f"{url}/dgn", headers=headers, content=b"[1]"))  # not an object
        same(*both("POST", f"{url}/dgn", headers={**headers, "Content-Length": "999999"}, content=b"{}"))  # 413
        same(*both("POST", "/api/v1/tables/1/x/dgn", headers=headers, json={"rev": 1, "text": "y"}))  # 404
        same(*both("POST", "/api/v1/tables/1/2/dgn", headers=headers, json={"rev": 1, "text": "y"}))  # 403
        same(*both("GET", "/api/v1/tables/9/1", headers=headers))  # 403: a table's key, another round
    same(*both("POST", f"{url}/dgn", headers=_auth("nope"), json={"rev": 1, "text": "y"}))  # 403
    same(*both("GET", url))  # no key at all
    assert client.get(url, headers=_auth(token)).json()["rev"] == 1  # nothing refused was kept


def test_a_move_written_by_another_process_is_seen_by_the_next_move(venue):
    """A move takes the table as the server's own last move left it only while nothing else was
    written to the file: a move another process wrote between is seen (the table moved on)."""
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    texts = _requests(_game_of(path, 1, 1, 5))
    url = "/api/v1/tables/1/1/dgn"
    for rev, text in enumerate(texts[:3]):
        assert client.post(url, headers=_auth(token), json={"rev": rev, "text": text}).json()["rev"] == rev + 1
    other = vn.Venue(open_event(path))  # as another process writing to the file would
    try:
        assert other.record(1, 1, 3, texts[3])["rev"] == 4
    finally:
        other.store.close()
    r = client.post(url, headers=_auth(token), json={"rev": 3, "text": texts[3] + " {here}"})
    assert r.status_code == 409  # the table moved on
    r = client.post(url, headers=_auth(token), json={"rev": 3, "text": texts[3]})
    assert r.status_code == 200 and r.json()["twin"] and r.json()["rev"] == 4  # the other's twin: not taken twice
    r = client.post(url, headers=_auth(token), json={"rev": 4, "text": texts[4]})
    assert r.status_code == 200 and r.json()["rev"] == 5
    with sqlite3.connect(path) as conn:
        rows = [body for (body,) in conn.execute("SELECT body FROM venue_log ORDER BY rev")]
    assert rows == texts[:5]


def test_the_server_reads_the_look_alike_table_as_it_starts(tmp_path):
    """The first table to confirm its game does not wait for the names' look-alike table."""
    from tournament import names

    names._prototypes.cache_clear()
    server = _server(_event(tmp_path))
    try:
        assert names._prototypes.cache_info().currsize == 1
    finally:
        server.close()


# --- a table's page sent only the hands it lacks -------------------------------------------------


def _merged(held: dict | None, sent: dict) -> dict:
    """What table.js does with a state sent without the closed hands it held (``hands_from``)."""
    game = sent["game"]
    if "hands_from" not in game:
        return sent
    n = game["hands_from"]
    game = {k: v for k, v in game.items() if k != "hands_from"}
    game["hands"] = held["game"]["hands"][:n] + game["hands"]
    game["hands_keys"] = held["game"]["hands_keys"][:n] + game["hands_keys"]
    return {**sent, "game": game}


def _asked(held: dict | None) -> str:
    keys = held["game"]["hands_keys"] if held else []
    return f"?hands={keys[-1]}.{len(keys)}" if keys else ""


@pytest.mark.parametrize("key", sorted(EVENTS))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_page_that_holds_the_closed_hands_is_sent_the_rest(tmp_path, key, lang, request):
    """The table page sends back the key of the closed hands it holds (``?hands=KEY.N``, on its
    reads and its writes alike) and is sent only the hands after them: what it puts together is,
    at every move, the state a page that holds nothing is sent, in either language; a stale
    phone's 409 carries the state the same way; a server made again from the file gives the same
    keys (a page open across a restart keeps its hands); a tampered key gets the whole state.
    In English the game's first four hands are sent (three of them closed and held, the key
    growing; the whole of Domino Roads' game of four, to its end), every hand with --long; in
    Spanish its first two hands (one of them closed and held), which take the same path in the
    other language at a fraction of the requests."""
    path = _event(tmp_path, key)
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    headers = {**_auth(server.call(server.venue.links, "http://testserver")["tables"][0]["token"]),
               "Accept-Language": lang}
    url = "/api/v1/tables/1/1"
    held = client.get(url, headers=headers).json()
    lean = 0
    requests = _requests(_game_of(path, 1, 1, seed=5))
    kept = 2 if lang != "en" else None if request.config.getoption("--long") else 4
    starts = [k for k, text in enumerate(requests) if text.startswith("hand ")]
    if kept is not None and len(starts) > kept:
        requests = requests[:starts[kept]]  # the first hands
    for text in requests:
        answer = client.post(f"{url}/dgn{_asked(held)}", headers=headers, json={"rev": held["rev"], "text": text})
        assert answer.status_code == 200, answer.json()
        lean += "hands_from" in answer.json()["game"]
        held = _merged(held, answer.json())
        whole = client.get(url, headers=headers).json()
        assert held == {**whole, "said": held["said"]}
        again = client.get(f"{url}{_asked(held)}", headers=headers).json()
        assert _merged(held, again) == whole
    assert lean > 0 and held["game"]["hands_keys"]
    stale = client.post(f"{url}/dgn{_asked(held)}", headers=headers, json={"rev": 0, "text": "undo"})
    assert stale.status_code == 409 and stale.json()["state"]["game"]["hands_from"] == len(held["game"]["hands_keys"])
    assert _merged(held, stale.json()["state"])["game"] == held["game"]
    keys = held["game"]["hands_keys"]
    assert "hands_from" not in client.get(f"{url}?hands=ffff{keys[-1][4:]}.{len(keys)}", headers=headers).json()["game"]
    server.close()
    restarted = _server(path)
    client = starlette_testclient.TestClient(restarted.asgi)
    after = client.get(f"{url}{_asked(held)}", headers=headers).json()
    assert after["game"]["hands_from"] == len(keys) and _merged(held, after)["game"] == held["game"]
    restarted.close()


def _raw(port: int, *sends: bytes, answers: int = 1,
         timeout: float = 60) -> list[tuple[bytes, list[tuple[bytes, bytes]], bytes]]:
    """Each answer read from one connection to 127.0.0.1:``port`` after writing ``sends`` (each in a
    write of its own): its status line, its headers as written, its body (none without a length:
    a 204).  The hall's tests read its light answers with it too (test_venue_hall.py)."""
    import socket
    import time

    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        for i, data in enumerate(sends):
            if i:
                time.sleep(0.2)  # (a read of its own on the server's side)
            sock.sendall(data)
        got, out = b"", []
        while len(out) < answers:
            while b"\r\n\r\n" not in got:
                more = sock.recv(65536)
                assert more, got
                got += more
            head, got = got.split(b"\r\n\r\n", 1)
            status, *lines = head.split(b"\r\n")
            headers = [tuple(line.split(b": ", 1)) for line in lines]
            length = int(dict(headers).get(b"content-length", b"0"))
            while len(got) < length:
                more = sock.recv(65536)
                assert more
                got += more
            out.append((status, headers, got[:length]))
            got = got[length:]
        return out


def test_the_connection_answers_as_the_routes_do(tmp_path, monkeypatch):
    """A table's move and read answered by the connection itself, below ASGI
    (VenueServer.light_request, connections.guarded), are written as the ASGI way writes them: the
    same status line, headers (the request's id and the date aside) and body, for a move taken, a
    read, and each refusal; a body that comes in two reads, a request behind another on the
    connection, a write from another site's page, HTTP/1.0 and a query naming a language go the
    ASGI way and are answered alike, as do a move not declared JSON and a request without its
    ``Host``, which the guard refuses."""
    from tournament.web.background import BackgroundVenue

    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        server, port = served.server, served.port
        token = served.links["tables"][0]["token"]
        taken = []
        light_answer = server._light_answer
        monkeypatch.setattr(server, "_light_answer", lambda *a: taken.append(1) or light_answer(*a))

        def request(method, where, headers=(), body=None, version=b"1.1", host=b"host: 127.0.0.1",
                    kind=b"content-type: application/json"):
            lines = [f"{method} {where} HTTP/".encode() + version, *([host] if host else [])]
            lines += [f"{k}: {v}".encode() for k, v in headers]
            if body is not None:
                lines += [*([kind] if kind else []), f"content-length: {len(body)}".encode()]
            return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")

        def plain(answer):
            status, headers, body = answer
            kept = sorted((k, v) for k, v in headers if k not in (b"x-request-id", b"date"))
            data = json.loads(body)
            data.pop("request_id", None)
            return status, kept, data

        def both(*sends, answers=1, light=True):
            del taken[:]
            below = [plain(a) for a in _raw(port, *sends, answers=answers)]
            assert bool(taken) is light, sends
            server.light_below = False
            try:
                asgi = [plain(a) for a in _raw(port, *sends, answers=answers)]
            finally:
                server.light_below = True
            assert below == asgi
            return below

        auth = ("authorization", f"Bearer {token}")
        es = [auth, ("accept-language", "es")]
        url = "/api/v1/tables/1/1"
        for headers in ([auth], es, [auth, ("cookie", "lang=es")]):
            assert both(request("GET", url, headers))[0][0] == b"HTTP/1.1 200 OK"
            both(request("GET", f"{url}?hands=x.1", headers))
        move = json.dumps({"rev": 0, "text": "hand 1", "cid": "move-0001"}).encode()
        first = both(request("POST", f"{url}/dgn", es, move))  # taken once, answered alike again
        assert first[0][0] == b"HTTP/1.1 200 OK" and first[0][2]["rev"] == 1
        for headers in ([auth], es):
            for body in (b'{"rev": 0, "text": "y"}', b'{"rev": 1, "text": "9-9"}', b"{", b'{"rev": 1, "rev": 2}',
                         b"[1]", b'{"rev": 1, "text": "\xff"}'):
                assert both(request("POST", f"{url}/dgn", headers, body))[0][0] != b"HTTP/1.1 200 OK"
            both(request("POST", "/api/v1/tables/1/x/dgn", headers, b"{}"))  # 404
            both(request("POST", "/api/v1/tables/1/2/dgn", headers, b"{}"))  # 403: another table's key
            both(request("GET", "/api/v1/tables/9/1", headers))
        both(request("POST", f"{url}/dgn", [("authorization", "Bearer nope")], b"{}"))
        both(request("GET", url))  # no key at all
        # Two reads on one connection, one behind the other; a move's body in a read of its own.
        both(request("GET", url, [auth]) + request("GET", url, es), answers=2)
        whole = request("POST", f"{url}/dgn", [auth], b'{"rev": 1, "text": "9-9"}')
        cut = whole.index(b"\r\n\r\n") + 6
        both(whole[:cut], whole[cut:], light=False)
        # The ASGI way: a write from another site's page, too large a body, HTTP/1.0, a language asked.
        both(request("POST", f"{url}/dgn", [auth, ("origin", "http://elsewhere.example")], b"{}"), light=False)
        both(request("POST", f"{url}/dgn", [auth], b"{" * (64 * 1024 + 1)), light=False)
        assert both(request("GET", url, [auth], version=b"1.0"), light=False)[0][1].count((b"connection", b"close"))
        both(request("GET", f"{url}?lang=es", [auth]), light=False)
        # The ASGI way, refused by the guard: a move not declared JSON (415), a request without its Host (400).
        move = b'{"rev": 1, "text": "9-9"}'
        for kind in (b"content-type: text/plain", b"content-type: application/x-www-form-urlencoded", None):
            assert both(request("POST", f"{url}/dgn", [auth], move, kind=kind), light=False)[0][0].startswith(
                b"HTTP/1.1 415 ")
        for host in (None, b"host: "):
            assert both(request("POST", f"{url}/dgn", [auth], move, host=host), light=False)[0][0].startswith(
                b"HTTP/1.1 400 ")
            assert both(request("GET", url, [auth], host=host), light=False)[0][0].startswith(b"HTTP/1.1 400 ")
        assert server.call(server.venue.state, 1, 1)["rev"] == 1  # nothing refused was kept


def test_half_a_character_is_refused_not_a_fault(venue):
    """``"\\ud800"`` alone is valid JSON but no character: a table's comment holding it was
    answered "a fault of its own" (a traceback in the log at every try), a director's reason 500.
    Refused at once, 400, one line, nothing stored."""
    path, server, client, links = venue
    table = {**_auth(links["tables"][0]["token"]), "Content-Type": "application/json"}
    director = {**_auth(_key(links["director"])), "Content-Type": "application/json"}
    for url, headers, body in (
            ("/api/v1/tables/1/1/dgn", table, b'{"rev": 0, "text": "hand 1 {\\ud800}"}'),
            ("/api/v1/tables/1/1/dgn", table, b'{"rev": 0, "text": "hand 1 {\\uDC00 x}"}'),
            ("/api/v1/tables/1/2/result", director, b'{"scores": {"NS": 150, "EW": 0}, "reason": "x\\ud800"}')):
        r = client.post(url, headers=headers, content=body)
        assert r.status_code == 400, (url, r.status_code, r.text)
        assert r.json()["error"].startswith("the request body holds half of a character"), r.json()
    r = client.post("/api/v1/tables/1/1/dgn", headers=table, content='{"rev": 0, "text": "hand 1 {\\u00e9 \\ud83c\\udfb2}"}')
    assert r.status_code == 200, r.json()  # (escapes of whole characters, a pair among them, are characters)
    assert len(_log_rows(path)) == 1


@pytest.mark.parametrize("text,where,code", [
    ("hand 1 {\x1b]0;pwned\x07}", (1, 9), "001B"),
    ("hand 1\n{ok \u202eRLO}", (2, 5), "202E"),
    ("hand 1 {a\x00b}", (1, 10), "0000"),
    ("hand 1 {\u2028}", (1, 9), "2028"),
])
def test_a_tables_text_with_a_control_character_is_refused(venue, text, where, code):
    """A comment typed at a table reaches the director's terminal (``tournament correct`` lists
    the game's lines) and the game's DGN: an escape sequence there would clear the screen or
    retitle the window, a direction control make a line read as another.  Refused at its
    line:column, nothing stored; a tab is whitespace and is taken."""
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": 0, "text": text})
    assert r.status_code == 422, r.json()
    assert r.json()["error"] == (f"{where[0]}:{where[1]}: the text holds a control character (U+{code}): type letters, "
                                 f"digits and signs only")
    assert _log_rows(path) == []
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": 0, "text": "hand 1\t{a\tb}"})
    assert r.status_code == 200, r.json()


def test_a_tables_game_is_refused_more_text_than_a_game_may_be_sent(venue, monkeypatch):
    """Comment after comment, each post taken: the table's log, and the work of each new post and
    of every replay, grew without end.  Past the game's bound (here made 3 requests) the post is
    refused (422, in the phone's language), nothing added to the log; the table's moves go on
    being read from what it holds."""
    from domrec import session

    monkeypatch.setattr(session, "MAX_GAME_REQUESTS", 3)
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    rev = 0
    for k in range(3):
        r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": rev, "text": f"{{note {k}}}"})
        assert r.status_code == 200, r.text
        rev = r.json()["rev"]
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": rev, "text": "{one more}"})
    assert r.status_code == 422 and r.json()["error"].startswith(
        "1:1: this table's game has been sent the most text a game may be sent"), r.text
    r = client.post("/api/v1/tables/1/1/dgn", headers={**_auth(token), "Accept-Language": "es"},
                    json={"rev": rev, "text": "{one more}"})
    assert r.status_code == 422 and r.json()["error"].startswith("1:1: esta mesa ya ha enviado todo el texto"), r.text
    assert len(_log_rows(path)) == 3


def test_a_long_post_is_refused_before_it_is_read(venue, monkeypatch):
    """A table's phone may post 64 KB of DGN: 30,000 passes on one line, or ``[`` and a tag name of
    60,000 letters, each held the venue's one thread (every table's moves waiting) for seconds, the
    tag name for twenty.  A text past 20,000 characters is refused at the first character past the
    bound (422, its line and column, in the phone's language), unread: the recorder is never asked."""
    from domrec import session

    path, server, client, links = venue
    token = links["tables"][0]["token"]
    read = []
    real = session._feed
    monkeypatch.setattr(session, "_feed", lambda *a: read.append(1) or real(*a))  # (the recorder reading a line)
    for text in ("- " * 30_000, "[" + "a" * 60_000 + ' "x"]', "{x}\n" * 100 + "+ " * 20_000):
        r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": 0, "text": text})
        assert r.status_code == 422, r.text[:200]
        line = text.count("\n", 0, 20_000) + 1
        column = 20_000 - (text.rfind("\n", 0, 20_000) + 1) + 1
        assert r.json()["error"] == f"{line}:{column}: a request holds at most 20000 characters: send the rest in another"
        assert (r.json()["line"], r.json()["column"]) == (line, column)
    r = client.post("/api/v1/tables/1/1/dgn", headers={**_auth(token), "Accept-Language": "es"},
                    json={"rev": 0, "text": "- " * 30_000})
    assert r.json()["error"] == "1:20001: una petición tiene como máximo 20000 caracteres: envíe el resto en otra"
    assert read == [] and _log_rows(path) == []


def test_an_address_with_nothing_at_it_and_a_method_not_taken_are_refused_in_one_line(venue):
    """Starlette answered an unknown address ("Not Found") and a method an address does not take
    ("Method Not Allowed") in a line of English text, unlike every other refusal.  Now: the one
    JSON line in the client's language, the status kept (404, 405 with its ``Allow``), and a
    browser asking for a page gets the refused page; the security headers as on every answer."""
    path, server, client, links = venue
    token = links["tables"][0]["token"]
    r = client.get("/api/v1/no/such/thing", headers=_auth(token))
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/json"), r.text
    assert r.json()["error"] == "there is nothing at this address: check the link"
    r = client.get("/api/v1/no/such/thing", headers={"Accept-Language": "es"})
    assert r.json()["error"] == "no hay nada en esta dirección: compruebe el enlace"
    r = client.get("/api/v1/tables/1/1/dgn", headers=_auth(token))  # (a write's address, asked with GET)
    assert r.status_code == 405 and "POST" in r.headers["allow"], r.text
    assert r.json()["error"] == "this address does not take a GET request"
    r = client.put("/api/v1/tables/1/1", headers={**_auth(token), "Content-Type": "application/json",
                                                  "Accept-Language": "es"}, content=b"{}")
    assert r.status_code == 405 and r.json()["error"] == "esta dirección no admite una petición PUT", r.text
    r = client.get("/static/no-such-file.js")
    assert r.status_code == 404 and r.json()["error"] == "there is nothing at this address: check the link"
    r = client.get("/no-such-page", headers={"Accept": "text/html", "Accept-Language": "es"})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "no hay nada en esta dirección: compruebe el enlace" in r.text
    assert r.headers["x-content-type-options"] == "nosniff" and "content-security-policy" in r.headers


@pytest.mark.parametrize("asked", ["bytes=abc", "bytes=5-2", "items=0-1", "bytes=99999999-", "bytes=-0",
                                   "bytes=0-1,2-3", "bytes=0-9"])
def test_a_static_file_is_sent_whole_whatever_range_is_asked(tmp_path, asked):
    """Starlette answered a ``Range`` on the scripts and styles it could not read or meet in its own
    plain text, in English (400 "Range header: range must be requested", 416 with no body), unlike
    every other answer; and one it could meet in parts. The venue's pages fetch them whole: a range
    is not read, the file is sent whole (200), on the tables' port and the hall's."""
    from tournament.web.hall import HallServer

    path = _event(tmp_path)
    whole = (Path(vn.__file__).parents[1] / "web" / "static" / "venue.css").read_bytes()
    tables = _server(path)
    hall = HallServer(path, "http://testserver", rate=1e9, burst=10 ** 9)
    try:
        for server in (tables, hall):
            client = starlette_testclient.TestClient(server.asgi)
            for headers in ({"Range": asked}, {"Range": asked, "If-Range": '"x"', "Accept-Language": "es"}):
                r = client.get("/static/venue.css", headers=headers)
                assert r.status_code == 200 and r.content == whole, (r.status_code, r.text[:200])
                assert "accept-ranges" not in r.headers and "content-range" not in r.headers
                assert r.headers["x-content-type-options"] == "nosniff"
    finally:
        tables.close()
        hall.close()


def test_the_favicon_is_an_empty_answer_not_a_refusal(tmp_path):
    """Every page opened asks for ``/favicon.ico``: it was a 404 (a console error on every page).
    It is an empty 204, on the tables' port (alone, or with the hall elsewhere) and the hall's, and
    it costs the rate limit what a static file costs: one request's token, no more."""
    from tournament.web.hall import HallServer

    path = _event(tmp_path)
    servers = (_server(path), _server(path, hall_port=8765), HallServer(path, "http://testserver", rate=1e9, burst=10 ** 9))
    try:
        for server in servers:
            client = starlette_testclient.TestClient(server.asgi, follow_redirects=False)
            for method in (client.get, client.head):
                r = method("/favicon.ico")
                assert r.status_code == 204 and r.content == b"", (server, r.status_code, r.text[:200])
                assert r.headers["x-content-type-options"] == "nosniff"
    finally:
        for server in servers:
            server.close()
    limited = _server(path, rate=1e-6, burst=3)
    try:
        client = starlette_testclient.TestClient(limited.asgi)
        assert [client.get(url).status_code for url in ("/favicon.ico", "/static/venue.css", "/favicon.ico")] == [204, 200, 204]
        assert client.get("/favicon.ico").status_code == 429  # (three requests, three tokens: as three scripts)
    finally:
        limited.close()
