"""The director's count of a table's refused offline writes is true past the cap of refusals kept
(``table_log.MAX_REFUSALS``): a refusal past it is not kept with its id, but it is counted, in the
event file, within the write that counts it (a server started again counts on from there); a round
taken back takes its count with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import open_event, pair_next_round
from tournament.event import desk, table_log
from tournament.store import venue as venue_sql

from tests.tournament.test_venue import _auth, _event, _game_of, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

#: The cap the tests set (the real one is 1,000: sending a thousand takes long).
CAP = 5
URL = "/api/v1/tables/1/1"
#: A line no game takes (there is no 9-9 in a double-six set).
BAD = "N 9-9"
PAST = 7


def _director(client, server) -> dict:
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    return client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]


@pytest.fixture
def capped(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(table_log, "MAX_REFUSALS", CAP)
    return _event(tmp_path)


def test_refused_offline_writes_past_the_cap_are_counted_truly(capped) -> None:
    path = capped
    moves = _requests(_game_of(path, 1, 1, seed=5))
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        first = client.post(f"{URL}/dgn", headers=_auth(token),
                            json={"rev": 0, "text": moves[0], "cid": "taken-000001", "at": "2026-12-02T20:15:00Z"})
        assert first.status_code == 200
        refused = CAP + PAST
        for k in range(refused):  # made offline, each refused when it came
            r = client.post(f"{URL}/dgn", headers=_auth(token),
                            json={"rev": 1, "text": BAD, "cid": f"offline-{k:06d}", "at": "2026-12-02T20:16:00Z"})
            assert r.status_code == 422, r.text
        for k in range(3):  # refused live (no time of making): not offline, counted apart
            assert client.post(f"{URL}/dgn", headers=_auth(token),
                               json={"rev": 1, "text": BAD, "cid": f"live-{k:06d}"}).status_code == 422
        seen = _director(client, server)["offline"]
        assert seen["taken"] == 1 and seen["refused"] == refused and seen["at"]
        table_id = server.venue.table(1, 1).id
        assert server.call(venue_sql.refusals_kept, server.venue.store, table_id) == CAP  # no more kept
        assert server.call(venue_sql.unkept_refusals, server.venue.store, table_id) == PAST + 3
    finally:
        server.close()
    again = _server(path)  # the server started again: the count was in the file
    try:
        client = starlette_testclient.TestClient(again.asgi)
        assert _director(client, again)["offline"]["refused"] == refused
    finally:
        again.close()


def test_a_table_refused_only_offline_past_the_cap_is_shown_and_a_round_taken_back_takes_its_count(
        capped) -> None:
    """A table whose kept refusals were all live ones, then refused offline past the cap: shown with
    its offline refusals, though no offline write of it is kept.  Taken back (its phone never took
    a write), the round's count goes with it: the round paired again starts from none."""
    path = capped
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        for k in range(CAP):
            assert client.post(f"{URL}/dgn", headers=_auth(token),
                               json={"rev": 0, "text": BAD, "cid": f"live-{k:06d}"}).status_code == 422
        assert _director(client, server)["offline"] is None
        for k in range(2):
            assert client.post(f"{URL}/dgn", headers=_auth(token),
                               json={"rev": 0, "text": BAD, "cid": f"offline-{k:06d}",
                                     "at": "2026-12-02T20:16:00Z"}).status_code == 422
        seen = _director(client, server)["offline"]
        assert seen["taken"] == 0 and seen["refused"] == 2 and seen["at"]
    finally:
        server.close()
    store = open_event(path)
    try:
        desk.unpair(store)
        assert not store.conn.execute("SELECT COUNT(*) FROM venue_refusals_unkept").fetchone()[0]
        pair_next_round(store)
        assert venue_sql.queued_writes(store, [t.id for t in store.tables(1)]) == {}
    finally:
        store.close()
