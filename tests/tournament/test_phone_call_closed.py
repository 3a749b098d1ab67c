"""A table of a round that is over (a later round paired), its result in, takes no call of the
director from its phone (tournament.event.table_log.check_open): its state says so
(``call_closed``), so that its page greys *Call the director* and says why, instead of offering a
call the server then refuses in one line.  The page's side is in test_phone_call_closed_browser."""

from __future__ import annotations

import pytest

from tournament import open_event
from tournament.event import results
from tests.tournament.test_venue import _auth, _event, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


def test_an_old_rounds_table_says_its_call_is_closed_and_the_current_ones_do_not(tmp_path):
    path = _event(tmp_path, "competitive")
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        old = {t["table"]: t["token"] for t in links["tables"]}
        state = client.get("/api/v1/tables/1/1", headers=_auth(old[1])).json()
        assert state["call_closed"] is False  # its round in play: a call is taken
        store = open_event(path)
        for table in (1, 2):
            results.enter_manual(store, table, {"NS": 200, "EW": 100})
        store.close()
        assert client.get("/api/v1/tables/1/1", headers=_auth(old[1])).json()["call_closed"] is False
        r = client.post("/api/v1/director/pair", headers=_auth(_key(links["director"])), json={})
        assert r.status_code == 200, r.json()
        state = client.get("/api/v1/tables/1/1", headers=_auth(old[1])).json()
        assert state["call_closed"] is True
        r = client.post("/api/v1/tables/1/1/call", headers=_auth(old[1]), json={"rev": state["rev"]})
        assert r.status_code == 409 and r.json()["error"] == (
            "round 1 is over: call the director from the table you play at now"), r.json()
        now = server.call(server.venue.links, "http://testserver")["tables"][0]
        assert now["round"] == 2
        assert client.get(f"/api/v1/tables/2/{now['table']}", headers=_auth(now["token"])).json()["call_closed"] is False
    finally:
        server.close()
