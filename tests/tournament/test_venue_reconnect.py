"""A hall whose Wi-Fi drops and comes back at once (issue 36's third measurement), small: the core
of ``benchmarks/bench_reconnect.py`` with seven tables and two seconds offline, against a real
``tournament serve``.  Each table's phone sends its outbox as the table page does, one of each
variation: an answer lost and the write sent again, a connection cut before the answer, a move
made online whose answer the drop ate (kept in the outbox, sent again), the whole outbox sent
twice, the page open in two tabs sending it at once, a plain one, and a conflict (another phone
wrote meanwhile).  Counts only, never times: every queued move stored once, nothing lost or
doubled, every retried id answered alike, the conflict's writes refused and listed, the director's
page counting the moves made offline, no fault in the server's log."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_reconnect.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_reconnect", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    bench = _bench()
    folder = tmp_path_factory.mktemp("reconnect")
    path, games, tokens, director, played = bench.make_event(folder, 7, seed=3, left=20)
    out = asyncio.run(bench.run_hall(path, games, tokens, director, played, offline=2.0, every=0.3, moves=3,
                                     conflicts=1, seed=3, bound=120.0))
    return out


def test_every_queued_move_is_stored_once_and_none_is_lost(outcome):
    assert outcome.queued > 7
    assert (outcome.lost, outcome.doubled, outcome.stuck) == (0, 0, [])
    assert outcome.stored == outcome.queued - outcome.refused - outcome.not_sent
    assert outcome.at_changed == 0  # each queued write's time kept as the phone sent it


def test_every_retried_id_is_answered_alike(outcome):
    assert outcome.differing == []
    # the lost answer and the dropped one at least, answered the very same; the outbox sent twice
    # and the two tabs answered again too
    assert outcome.retried_same >= 2
    assert outcome.retried > outcome.queued // 7


def test_a_conflict_refuses_the_queued_writes_and_nothing_else(outcome):
    assert outcome.refused == 1  # the first queued write: the table has moved on
    assert outcome.not_sent >= 1  # the writes made after it are not sent, listed to retype or drop


def test_no_request_failed_on_the_server(outcome):
    assert not [s for s in outcome.statuses if s >= 500]
    assert set(outcome.statuses) <= {200, 409}
    assert outcome.server_errors == []
    assert outcome.director_wrong == []


# --- A phone whose connection breaks halfway through sending a write ---------------------------

def _served(tmp_path: Path):
    from domrec.session import requests_for
    from domrec.simulate import play_game

    from tournament import add_players, create_event, make_settings, pair_next_round
    from tournament.event.tables import table_record
    from tournament.web.app import VenueServer

    path = tmp_path / "night.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=3))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    table = store.tables(1)[0]
    line = requests_for(play_game(table_record(store.settings, table, {p.id: p for p in store.players()}),
                                  __import__("random").Random(5)))[0]
    store.close()
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
    return path, server, token, line


def _post_scope(token: str, route: str, length: str) -> dict:
    """The ASGI scope of a phone's POST to table 1's ``route``, its body declared ``length`` long."""
    path = f"/api/v1/tables/1/1{route}"
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode()),
                        (b"content-type", b"application/json"), (b"content-length", length.encode())],
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}


def _cut_halfway(server, token: str, route: str, body: bytes) -> list[dict]:
    """``body`` posted to ``route`` straight to the server's ASGI application, the connection lost
    halfway through it (as uvicorn tells an application: ``http.disconnect``); what was sent back."""
    return _asgi_post(server, _post_scope(token, route, str(len(body))),
                      [{"type": "http.request", "body": body[: len(body) // 2], "more_body": True}])


def _asgi_post(server, scope: dict, messages: list[dict]) -> list[dict]:
    """``messages`` handed to the server's ASGI application, then ``http.disconnect``; what it sent."""
    messages = list(messages)

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(server.asgi(scope, receive, send))
    return sent


@pytest.mark.parametrize("route", ["/dgn", "/mode"])
def test_a_write_cut_halfway_is_no_fault_of_the_servers_and_the_same_write_sent_again_is_stored_once(
        tmp_path, caplog, route):
    import json
    import sqlite3

    starlette_testclient = pytest.importorskip("starlette.testclient")
    path, server, token, line = _served(tmp_path)
    try:
        body = {"rev": 0, "cid": "halfway-phone-1", "at": "2026-12-02T20:14:03.120Z",
                **({"text": line} if route == "/dgn" else {"mode": "play"})}
        with caplog.at_level("INFO", logger="tournament"):
            sent = _cut_halfway(server, token, route, json.dumps(body).encode())
        assert [m for m in sent if m["type"] == "http.response.start"] == []  # nobody to answer: no 500 either
        # The phone's Wi-Fi gone mid-request is no fault of the server's: no error, no traceback.
        assert [r for r in caplog.records if r.levelno >= 30] == []
        assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM venue_log").fetchone()[0] == 0
        client = starlette_testclient.TestClient(server.asgi)
        answers = [client.post(f"/api/v1/tables/1/1{route}", json=body, headers={"Authorization": f"Bearer {token}"})
                   for _ in range(2)]
        assert [a.status_code for a in answers] == [200, 200]
        assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM venue_log").fetchone()[0] == 1
    finally:
        server.close()


@pytest.mark.parametrize("route", ["/dgn", "/mode"])
@pytest.mark.parametrize("length", ["²", "١٢", "-1", "12x"])
def test_a_content_length_that_is_not_a_number_is_refused_never_a_fault(tmp_path, route, length):
    """``"²".isdigit()`` is true but ``int("²")`` fails: a declared length is read as ASCII digits
    or refused (413), on the light path of a move and on a route alike, never a 500."""
    import json

    path, server, token, line = _served(tmp_path)
    try:
        body = json.dumps({"rev": 0, "text": line} if route == "/dgn" else {"rev": 0, "mode": "play"}).encode()
        sent = _asgi_post(server, _post_scope(token, route, length),
                          [{"type": "http.request", "body": body, "more_body": False}])
        start = next(m for m in sent if m["type"] == "http.response.start")
        answer = json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))
        assert start["status"] == 413 and "at most" in answer["error"]
    finally:
        server.close()
