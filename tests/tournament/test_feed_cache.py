"""The public feed costs the tables one answer a change, whoever follows it: each feed and its
parameters (``/api/v1/event``, ``/standings``, ``/rounds/N``, ``/changes?since=…``) is made once
per change of the event and sent from memory to every follower until the next change; a change
makes it again; a file whose log has not begun (it could change unlogged) is made for each asker.

No test here measures time: each counts the calls of the feed's functions."""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

import pytest

from tournament import add_players, create_event, enter_manual, make_settings, open_event, pair_next_round
from tournament.event import changes as ch, feed
from tournament.event import venue as vn
from tournament.web import public

from tests.tournament.test_changes import as_schema_4
from tests.tournament.test_venue import _server

starlette_testclient = pytest.importorskip("starlette.testclient")

#: Followers polling the feed between two changes.
CROWD = 20


def _event(path: Path) -> Path:
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=3))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    pair_next_round(store)
    store.close()
    return path


def _counted(monkeypatch, name: str) -> list[int]:
    """``feed.<name>`` counting its calls (the venue looks it up at each request)."""
    calls: list[int] = []
    real = getattr(feed, name)

    def counting(*args, **kw):
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(feed, name, counting)
    return calls


def test_a_crowd_at_one_change_costs_one_answer_and_a_change_makes_it_again(tmp_path, monkeypatch):
    calls = {name: _counted(monkeypatch, name) for name in ("published_standings", "event", "round_",
                                                              "changes_after")}
    server = _server(_event(tmp_path / "club.db"))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        asks = ("/api/v1/standings", "/api/v1/event", "/api/v1/rounds/1", "/api/v1/changes?since=0")
        first = {url: [client.get(url) for _ in range(CROWD)] for url in asks}
        for url, answers in first.items():
            assert {(a.status_code, a.headers["etag"], a.content) for a in answers} == \
                {(200, answers[0].headers["etag"], answers[0].content)}, url
        assert {name: len(c) for name, c in calls.items()} == dict.fromkeys(calls, 1)
        # Compressed for a follower that takes it, the same answer (made once, too).
        squeezed = client.get("/api/v1/standings", headers={"Accept-Encoding": "gzip"})
        assert squeezed.headers["content-encoding"] == "gzip" and "accept-encoding" in squeezed.headers["vary"].lower()
        assert squeezed.content == first["/api/v1/standings"][0].content  # (the client unpacks it)
        plain = client.get("/api/v1/standings", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == squeezed.content
        # The same JSON Starlette wrote before: the answer's bytes did not change.
        assert plain.json() == server.call(feed.published_standings, server.venue.store)
        calls["published_standings"].clear()
        # Another round, another since: each its own answer, each made once.
        for _ in range(3):
            assert client.get("/api/v1/changes?since=1").status_code == 200
            assert client.get("/api/v1/rounds/2").status_code == 404  # a refusal is not kept: it costs little
        assert len(calls["changes_after"]) == 2 and len(calls["round_"]) == 4

        tag = first["/api/v1/standings"][0].headers["etag"]
        assert client.get("/api/v1/standings", headers={"If-None-Match": tag}).status_code == 304
        assert not calls["published_standings"]  # a 304 makes nothing

        server.call(enter_manual, server.venue.store, 1, {"NS": 100, "EW": 50})
        after = [client.get("/api/v1/standings", headers={"If-None-Match": tag}) for _ in range(CROWD)]
        assert {a.status_code for a in after} == {200} and len({a.headers["etag"] for a in after}) == 1
        assert after[0].headers["etag"] != tag and after[0].content != first["/api/v1/standings"][0].content
        assert after[0].json() == server.call(feed.published_standings, server.venue.store)
        assert len(calls["published_standings"]) == 2  # once for the crowd, once just above
        seq = server.call(ch.latest_seq, server.venue.store)
        assert after[0].headers["etag"].endswith(f'-{seq}"')
        assert server.public.feeds_made >= 1
    finally:
        server.close()


def test_the_answers_kept_are_the_latest_changes_and_few(tmp_path):
    """Only the latest change's answers are kept, and at most ``KEPT_FEEDS`` of them (a follower
    making up ``since`` values cannot fill the server's memory)."""
    server = _server(_event(tmp_path / "club.db"))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        for since in range(public.KEPT_FEEDS * 3):
            client.get(f"/api/v1/changes?since={since % 5}&limit={since + 1}")
        assert len(server.public._feeds) == public.KEPT_FEEDS
        server.call(enter_manual, server.venue.store, 1, {"NS": 100, "EW": 50})
        assert client.get("/api/v1/event").status_code == 200
        assert list(server.public._feeds) == [("event",)]
    finally:
        server.close()


def test_a_file_whose_log_has_not_begun_is_never_answered_from_memory(tmp_path, monkeypatch):
    """Changed by another program without a log (an older tool), the feed shows the change at once:
    no ETag, nothing kept."""
    path = _event(tmp_path / "old.db")
    store = open_event(path)
    vn.ensure_tokens(store)  # a served file: schema 4 with the venue's tables
    store.close()
    as_schema_4(path)
    calls = _counted(monkeypatch, "published_standings")
    server = _server(path)
    try:
        assert server.call(ch.latest_seq, server.venue.store) == 0, "the server began the log: the test needs none"
        client = starlette_testclient.TestClient(server.asgi)
        before = [client.get("/api/v1/standings") for _ in range(3)]
        assert all("etag" not in a.headers for a in before) and len(calls) == 3
        assert "Ana" in before[0].text
        conn = sqlite3.connect(path)  # an older tool renames a player: no change logged
        conn.execute("UPDATE players SET name = 'Anabel' WHERE name = 'Ana'")
        conn.commit()
        conn.close()
        after = client.get("/api/v1/standings")
        assert "etag" not in after.headers and "Anabel" in after.text and len(calls) == 4
        assert not server.public._feeds
    finally:
        server.close()


def test_the_compressed_answer_is_the_answer() -> None:
    page = public.made_json({"name": "Añá", "n": [1, 2]}, 7)
    assert page.body == '{"name":"Añá","n":[1,2]}'.encode() and gzip.decompress(page.gzipped) == page.body
    assert page.seq == 7
