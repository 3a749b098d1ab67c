"""After the last confirmation the table's page says where each player goes next, once the next
round is paired; the director's page flags a table with no move for N minutes (``serve --idle``)
(issue 34).  Through the API in-process; the page's side is in the browser tests."""

from __future__ import annotations

import pytest

from tournament import open_event
from tournament.event import venue as vn
from tests.tournament.test_venue import _auth, _event, _game_of, _key, _play, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


def _confirmed(client, token, table, state):
    for side in state["sides"]:
        r = client.post(f"/api/v1/tables/1/{table}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.json()
        state = r.json()
    return state


def test_each_player_is_told_the_next_table_and_seat_once_paired(tmp_path):
    path = _event(tmp_path, "competitive")
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        tokens = {t["table"]: t["token"] for t in links["tables"]}
        for table, seed in ((1, 5), (2, 6)):
            state = _play(client, tokens[table], 1, table, _game_of(path, 1, table, seed), whole_hands=True)
            assert state["next"] is None  # not before the result is in
            state = _confirmed(client, tokens[table], table, state)
            assert state["next"] == {"round": 2, "paired": False, "seats": {}}
        r = client.post("/api/v1/director/pair", headers=_auth(_key(links["director"])), json={})
        assert r.status_code == 200, r.json()
        state = client.get("/api/v1/tables/1/1", headers=_auth(tokens[1])).json()
        assert state["next"]["paired"]
    finally:
        server.close()
    store = open_event(path)
    where = {s.player: (t.number, s.seat) for t in store.tables(2) for s in t.seats}
    first = store.tables(1)[0]
    assert state["next"]["seats"] == {s.seat: {"table": where[s.player][0], "seat": where[s.player][1]}
                                      for s in first.seats}
    store.close()


def test_a_table_with_no_move_for_n_minutes_is_flagged(tmp_path, monkeypatch):
    path = _event(tmp_path, "competitive")
    server = _server(path, idle_minutes=15)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        director = _auth(_key(links["director"]))
        token = links["tables"][0]["token"]
        client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": 0, "text": "hand 1 lead N\n6-6"})
        overview = client.get("/api/v1/director", headers=director).json()
        assert overview["idle_after"] == 15 and not any(t["idle"] for t in overview["tables"])
        # The clock moves on 16 minutes (the server's, by which the times are kept).
        real = vn._minutes_since
        monkeypatch.setattr(vn, "_minutes_since", lambda at: None if at is None else real(at) + 16)
        overview = client.get("/api/v1/director", headers=director).json()
        flags = {t["table"]: (t["status"], t["idle"], t["idle_minutes"]) for t in overview["tables"]}
        assert flags[1] == ("playing", True, 16)
        assert flags[2] == ("not started", False, None)  # nothing recorded yet: not a table gone quiet
        monkeypatch.setattr(vn, "_minutes_since", lambda at: None if at is None else real(at) + 14)
        assert not client.get("/api/v1/director", headers=director).json()["tables"][0]["idle"]
    finally:
        server.close()


def test_serve_takes_the_idle_minutes(tmp_path):
    from typer.testing import CliRunner

    from tournament.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert "--idle" in result.output
