"""A table waiting after wrong PINs answers 429 as the device's rate limit does: its body says
``pin_wait`` (the seconds), so that a phone's kept confirmation tells the table's refusal (listed,
to confirm again) from the rate limit's (sent again after ``Retry-After``).  The venue's clock is
the test's: no test waits."""

from __future__ import annotations

import pytest

from tests.tournament.test_venue import _auth, _event, _game_of, _play, _server
from tests.tournament.test_venue_pins import Clock, _pins_of, _wrong_pins

starlette_testclient = pytest.importorskip("starlette.testclient")


def test_a_table_waiting_after_wrong_pins_says_pin_wait_and_the_rate_limit_does_not(tmp_path):
    path = _event(tmp_path)
    pins, sides, _ = _pins_of(path)
    clock = Clock()
    server = _server(path, pins=True, clock=clock)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = _play(client, token, 1, 1, _game_of(path, 1, 1, seed=3), whole_hands=True)

        def confirm(pin: str):
            return client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                               json={"rev": state["rev"], "side": "NS", "pin": pin})

        for wrong in _wrong_pins(pins, 5):
            assert confirm(wrong).status_code == 403
        r = confirm(pins[sides["NS"][0]])
        assert r.status_code == 429 and r.json()["pin_wait"] == 30 and r.headers["retry-after"] == "30", r.json()
    finally:
        server.close()
    # The device's rate limit: a 429 without pin_wait.
    limited = _server(path, pins=True, clock=clock, rate=0.001, burst=1)
    try:
        client = starlette_testclient.TestClient(limited.asgi)
        token = limited.call(limited.venue.links, "http://testserver")["tables"][0]["token"]
        answers = [client.get("/api/v1/tables/1/1", headers=_auth(token)) for _ in range(3)]
        busy = [a for a in answers if a.status_code == 429]
        assert busy and all("pin_wait" not in a.json() for a in busy), [a.status_code for a in answers]
    finally:
        limited.close()
