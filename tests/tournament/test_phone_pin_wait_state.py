"""The table's state tells its page the wait after wrong PINs (a tester's finding): after 5 wrong
PINs the phone said "confirmations wait 59 seconds more" and never changed it, left alone past the
wait or after the director's clear, since the state the page asks for every 5 seconds said nothing
of the wait.  Now ``GET /api/v1/tables/R/T`` (and its ``?log=1``, what the phone's engine is given)
carries ``pin_wait``, the seconds still to wait, while the table waits, and none once the wait is
over or the director cleared it; never without ``--pins``, and never in what the phone's engine
replays offline (it cannot know a wait).  A write's answer does not carry it (a move costs no
read more; the page's next refresh says it).  The venue's clock is the test's: no test waits."""

from __future__ import annotations

import pytest

from tests.tournament.test_venue import _auth, _event, _game_of, _key, _play, _server
from tests.tournament.test_venue_pins import Clock, _pins_of, _wrong_pins

starlette_testclient = pytest.importorskip("starlette.testclient")

TABLE = "/api/v1/tables/1/1"


def test_the_tables_state_carries_the_wait_until_it_ends_or_the_director_clears_it(tmp_path):
    path = _event(tmp_path)
    pins, sides, _ = _pins_of(path)
    clock = Clock()
    server = _server(path, pins=True, clock=clock)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        token, director = links["tables"][0]["token"], _key(links["director"])
        state = _play(client, token, 1, 1, _game_of(path, 1, 1, seed=3), whole_hands=True)
        assert "pin_wait" not in state

        def read(key: str = token, query: str = "") -> dict:
            r = client.get(TABLE + query, headers=_auth(key))
            assert r.status_code == 200, r.json()
            return r.json()

        def confirm(pin: str):
            return client.post(f"{TABLE}/confirm", headers=_auth(token),
                               json={"rev": state["rev"], "side": "NS", "pin": pin})

        wrong = _wrong_pins(pins, 6)
        for k, pin in enumerate(wrong[:5], 1):
            assert confirm(pin).status_code == 403
            if k < 5:  # (4 wrong PINs: no wait yet)
                assert "pin_wait" not in read()
        assert read()["pin_wait"] == 30
        clock.advance(11)
        assert read()["pin_wait"] == 19  # counted down by the server's clock, as the 429 says it
        r = confirm(pins[sides["NS"][0]])
        assert r.status_code == 429 and r.json()["pin_wait"] == 19
        assert read(query="?log=1")["pin_wait"] == 19  # (the page's first read with the engine's log)
        assert read(director)["pin_wait"] == 19  # (the director's key reads it too)
        clock.advance(18.5)
        assert read()["pin_wait"] == 1  # (rounded up: never 0 while it waits)
        clock.advance(0.5)
        assert "pin_wait" not in read()  # over: none
        # A sixth wrong PIN: 60 seconds; the director clears it, and the next read has none.
        assert confirm(wrong[5]).status_code == 403
        assert read()["pin_wait"] == 60
        r = client.post(f"{TABLE}/pins/clear", headers=_auth(director), json={})
        assert r.status_code == 200
        assert "pin_wait" not in read() and "pin_wait" not in read(query="?log=1")
        r = confirm(pins[sides["NS"][0]])
        assert r.status_code == 200 and "pin_wait" not in r.json()
    finally:
        server.close()


def test_without_pins_no_state_carries_a_wait(tmp_path):
    path = _event(tmp_path)
    server = _server(path, clock=Clock())
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = _play(client, token, 1, 1, _game_of(path, 1, 1, seed=3), whole_hands=True)
        assert "pin_wait" not in state
        assert "pin_wait" not in client.get(TABLE, headers=_auth(token)).json()
        assert "pin_wait" not in client.get(TABLE + "?log=1", headers=_auth(token)).json()
    finally:
        server.close()
