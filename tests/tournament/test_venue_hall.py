"""The hall in a process of its own (issue 34, part 3: the hall costs the tables nothing).

``tournament serve`` serves the hall's pages, live stream and public feed from a second process
on a port of their own (:mod:`tournament.web.hall`).  Here: that process answers every public
page as the one process does, byte for byte; the tables' port sends each of the hall's paths
there; the hall holds no key and cannot write; it goes when ``serve`` is killed (``kill -9``),
and comes back by itself when it is killed, the tables none the wiser.

Against 127.0.0.1 only; every wait bounded by :data:`PATIENCE`, which only turns a hang into a
failure; nothing here asserts a time."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import sys
import time

import pytest

from tournament import open_event
from tournament.event.venue import hall_address, links
from tournament.web.app import HALL_ROUTES, VenueServer

from .served import alive, children, free_port, no_hall, serve, stop
from .test_public import _confirm
from .test_venue import _auth, _event, _game_of, _play, _raw, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")
httpx = pytest.importorskip("httpx")

HOST = "127.0.0.1"
PATIENCE = 120.0
#: Headers an answer carries that differ from one request to the next, whoever answers.
VARYING = {"date", "x-request-id"}


def _hall_venue(path, **kw):
    from tournament.web.background import BackgroundVenue

    return BackgroundVenue(path, hall=True, rate=1e9, burst=10 ** 9, **kw)


def _until(check, what: str):
    deadline = time.monotonic() + PATIENCE
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


# --- the same pages, byte for byte ---------------------------------------------------------------


def _asked(first_player: int, seq: int, rev: int) -> list[tuple[str, dict[str, str]]]:
    paths = ["/", "/?q=P1", "/?q=%3Cb%3E", "/tables", "/standings", "/games", "/crosstable", "/bracket",
             f"/players/{first_player}", "/players/999", "/players/x", "/games/1/1", "/games/1/2", "/games/9/9",
             "/projector", "/standings?part=main", f"/standings?part=main&since={seq}",
             f"/tables?part=main&since={rev}", "/?lang=es", "/standings?lang=xx",
             "/api/v1/event", "/api/v1/standings", "/api/v1/rounds/1", "/api/v1/rounds/x", "/api/v1/rounds/7",
             "/api/v1/games/1/1", "/api/v1/games/1/1?format=dgn", "/api/v1/games/1/2", "/api/v1/changes",
             "/api/v1/changes?since=1&limit=2", "/api/v1/changes?since=x", "/static/venue.css",
             "/static/live.js", "/static/nothing.js", "/nothing"]
    variants = [{}, {"accept-language": "es-AR,es;q=0.9"}, {"cookie": "lang=es"}, {"accept-encoding": "gzip"}]
    return [(p, {"accept-encoding": "identity", **v}) for p in paths for v in variants]


def _comparable(r) -> tuple:
    """An answer as compared: its request's own id (in a refusal's body too) left out."""
    headers = sorted((k, v) for k, v in r.headers.multi_items() if k not in VARYING)
    return r.status_code, headers, r.content.replace(r.headers["x-request-id"].encode(), b"ID")


def test_the_hall_process_answers_every_public_page_as_the_one_process_does(tmp_path):
    """Every public page, feed and script, in each language and encoding, from the hall's own
    process and from the one process (the tables' server serving the hall itself, at the same
    address): the same status, the same headers (ETags, ``X-Seq``, ``Vary``, the security
    headers) and the same bytes.  A game confirmed (its replay and feed public), another in play."""
    path = _event(tmp_path)
    finished, playing = _game_of(path, 1, 1, seed=5), _game_of(path, 1, 2, seed=6)
    with _hall_venue(path) as venue, httpx.Client(base_url=venue.base_url, timeout=PATIENCE) as tables:
        tokens = {t["table"]: t["token"] for t in venue.links["tables"]}
        state = _play(tables, tokens[1], 1, 1, finished, whole_hands=True)
        _confirm(tables, tokens[1], state)
        _play(tables, tokens[2], 1, 2, playing)
        one = VenueServer(path, base_url=venue.hall_url, rate=1e9, burst=10 ** 9)
        try:
            alone = starlette_testclient.TestClient(one.asgi, base_url=venue.hall_url)
            store = open_event(path)
            first = store.tables(1)[0].seats[0].player
            store.close()
            seq = int(alone.get("/standings").headers["x-seq"])
            rev = int(alone.get("/tables").headers["x-seq"])
            with httpx.Client(base_url=venue.hall_url, timeout=PATIENCE) as hall:
                for url, headers in _asked(first, seq, rev):
                    want = _comparable(alone.get(url, headers=headers))
                    assert want[0] < 500, url
                    assert _comparable(hall.get(url, headers=headers)) == want, (url, headers)
                # A feed's ETag, sent back: 304 from both.
                tag = alone.get("/api/v1/standings").headers["etag"]
                want = _comparable(alone.get("/api/v1/standings", headers={"if-none-match": tag}))
                assert want[0] == 304
                assert _comparable(hall.get("/api/v1/standings", headers={"if-none-match": tag})) == want
            # The live stream says the same revision as the pages.
            with socket.create_connection((HOST, venue.hall_port), timeout=PATIENCE) as sock:
                sock.sendall(b"GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                got = b""
                while b"event: spread" not in got:
                    chunk = sock.recv(4096)
                    assert chunk, got
                    got += chunk
            assert got.startswith(b"HTTP/1.1 200 ") and f"event: seq\ndata: {seq}\n".encode() in got
        finally:
            one.close()


# --- the tables' port sends the hall's paths on -----------------------------------------------------


def _redirecting(tmp_path, hall_port: int = 8765):
    path = _event(tmp_path)
    server = _server(path, hall_port=hall_port)
    return path, server, starlette_testclient.TestClient(server.asgi, follow_redirects=False)


def test_the_tables_port_redirects_every_hall_path_to_the_halls_port(tmp_path):
    """Each of the hall's paths (every route the hall has), with its query: 303 for a read, 307
    for anything else, to the same path on the hall's port of the host the phone asked for."""
    path, server, client = _redirecting(tmp_path)
    try:
        concrete = [re.sub(r"\{\w+\}", lambda m: {"{round}": "1", "{table}": "2"}.get(m.group(), "3"), p)
                    for p, _ in HALL_ROUTES]
        assert not any("{" in url for url in concrete)
        assert "/live" in concrete and "/api/v1/changes" in concrete and "/projector" in concrete
        for url in concrete:
            for query in ("", "?part=main&since=4&lang=es"):
                r = client.get(url + query)
                assert r.status_code == 303, url
                assert r.headers["location"] == f"http://testserver:8765{url}{query}", url
                assert r.headers["x-content-type-options"] == "nosniff"  # the guard's headers, as on every answer
        r = client.post("/standings", json={})
        assert r.status_code == 307 and r.headers["location"] == "http://testserver:8765/standings"
        # The host the phone used, its port swapped for the hall's: a name, an address, IPv6.
        for host, where in (("10.0.0.5:8000", "http://10.0.0.5:8765"), ("club.example", "http://club.example:8765"),
                            ("[::1]:8000", "http://[::1]:8765"), ("bad/host@x", "http://testserver:8765")):
            r = client.get("/standings?x=1", headers={"host": host})
            assert r.headers["location"] == f"{where}/standings?x=1", host
        # The tables' own pages stay here; their scripts too; a refused one links to the hall.
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        assert client.get(f"/t/{token}").status_code == 200
        assert client.get("/static/table.js").status_code == 200
        refused = client.get("/t/not-a-key")
        assert refused.status_code == 403 and 'href="http://testserver:8765/"' in refused.text
        assert client.get(f"/api/v1/tables/1/1", headers=_auth(token)).status_code == 200
    finally:
        server.close()


def test_the_links_name_the_halls_address(tmp_path):
    """``serve`` remembers where the hall is: the links (``links``, the score sheets, the
    director's page) give it as the public page; served in one process, the server's own."""
    from typer.testing import CliRunner

    from tournament.cli import app
    from tournament.event import venue as vn

    path = _event(tmp_path)
    store = open_event(path)
    try:
        vn.remember_url(store, "http://10.0.0.5:8000", hall=hall_address("http://10.0.0.5:8000", 8001))
        assert links(store, "http://10.0.0.5:8000")["public"] == "http://10.0.0.5:8001/"
        assert links(store, "http://10.0.0.9:8000")["public"] == "http://10.0.0.9:8000/"  # not where it ran
        vn.remember_url(store, "http://10.0.0.5:8000")  # --one-process
        assert links(store, "http://10.0.0.5:8000")["public"] == "http://10.0.0.5:8000/"
        vn.remember_url(store, "https://club.example", hall=hall_address("https://club.example", 8444))
    finally:
        store.close()
    r = CliRunner().invoke(app, ["links", str(path), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["public"] == "https://club.example:8444/", r.output
    assert hall_address("http://[::1]:8000/", 9) == "http://[::1]:9"


# --- no key, no write --------------------------------------------------------------------------------


def test_the_hall_holds_no_key_and_cannot_write(tmp_path):
    """The hall's process has no table, director or key route: a table's key, the director's,
    the API's table paths all answer 404 there (or 405: a write to a read's path), never the
    table; its connections to the event file refuse to write."""
    from tournament.web.hall import HallServer

    path = _event(tmp_path)
    with _hall_venue(path) as venue, httpx.Client(base_url=venue.hall_url, timeout=PATIENCE) as hall:
        table = venue.links["tables"][0]
        director = venue.links["director"].rsplit("/", 1)[1]
        for url in (f"/t/{table['token']}", f"/d/{director}", f"/d/{director}/sheets", "/api/v1/tables/1/1",
                    "/api/v1/tables/1/1/lines", "/api/v1/director", "/api/v1/openapi.json"):
            for token in (table["token"], director):
                r = hall.get(url, headers=_auth(token))
                assert r.status_code == 404, url
                assert table["token"] not in r.text and director not in r.text
        r = hall.post("/api/v1/tables/1/1/dgn", headers=_auth(table["token"]), json={"rev": 0, "text": "x"})
        assert r.status_code in (404, 405)
        assert hall.get("/standings").status_code == 200
    # In this process, watched: the hall opens the event file (or its -wal, -shm) through SQLite
    # alone, never with open(), whose close would drop the locks SQLite holds on it.
    opened: list[str] = []
    watching = [True]

    def audit(event: str, args: tuple) -> None:
        if watching[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            if os.fsdecode(args[0]).startswith(str(path)):
                opened.append(os.fsdecode(args[0]))

    sys.addaudithook(audit)  # (a hook stays for the process's life: it looks only while watching)
    try:
        server = HallServer(path, "http://127.0.0.1:1")
        try:
            client = starlette_testclient.TestClient(server.asgi)
            for url, _ in _asked(1, 1, 1)[::4]:
                assert client.get(url).status_code < 500, url
            for reader in (server.public.reader, server.live.reader):
                assert reader.call(lambda store: store.conn.execute("PRAGMA query_only").fetchone()[0]) == 1
                with pytest.raises(sqlite3.OperationalError, match="readonly"):
                    reader.call(lambda store: store.conn.execute("DELETE FROM meta"))
        finally:
            server.close()
    finally:
        watching[0] = False
    assert opened == []


# --- a child of serve ---------------------------------------------------------------------------------


def _get(port: int, url: str, method: str = "GET", body: bytes | None = None, headers=None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=PATIENCE)
    try:
        conn.request(method, url, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


@pytest.mark.slow
def test_the_hall_goes_when_serve_is_killed(tmp_path):
    path = _event(tmp_path)
    port, hall_port = free_port(), free_port()
    proc = serve(path, port, "--hall-port", str(hall_port))
    try:
        hall = _until(lambda: children(proc.pid), "serve started no hall")[0]
        assert _get(hall_port, "/standings")[0] == 200
        proc.send_signal(signal.SIGKILL)
        proc.wait(PATIENCE)
        _until(lambda: not alive(hall), "the hall outlived serve")
    finally:
        stop(proc)


@pytest.mark.slow
def test_a_hall_that_dies_is_started_again_and_the_tables_never_notice(tmp_path):
    """``kill -9`` of the hall: ``serve`` says so on its console and starts it again on the same
    port (a phone asking meanwhile waits, and is answered); the tables' moves are answered
    throughout, and the new hall shows them once confirmed."""
    path = _event(tmp_path)
    record = _game_of(path, 1, 1, seed=5)
    texts = _requests(record)
    port, hall_port = free_port(), free_port()
    proc = serve(path, port, "--hall-port", str(hall_port))
    try:
        store = open_event(path)
        token = links(store, "http://127.0.0.1")["tables"][0]["token"]
        store.close()
        first = _until(lambda: children(proc.pid), "serve started no hall")[0]
        status, before = _get(hall_port, "/standings", headers={"accept-encoding": "identity"})
        assert status == 200
        half = len(texts) // 2

        def move(text: str, rev: int) -> int:
            status, body = _get(port, "/api/v1/tables/1/1/dgn", "POST", json.dumps({"rev": rev, "text": text}).encode(),
                                {**_auth(token), "content-type": "application/json"})
            assert status == 200, body
            return json.loads(body)["rev"]

        rev = 0
        for text in texts[:half]:
            rev = move(text, rev)
        os.kill(first, signal.SIGKILL)
        for text in texts[half:]:  # the tables go on while the hall is away
            rev = move(text, rev)
        status, again = _get(hall_port, "/standings", headers={"accept-encoding": "identity"})
        assert status == 200 and again == before  # a move changes no public page
        second = _until(lambda: [p for p in children(proc.pid) if p != first], "no new hall")[0]
        assert alive(second) and not alive(first)
        state = json.loads(_get(port, "/api/v1/tables/1/1", headers=_auth(token))[1])
        assert state["game"]["over"]
        for side in state["sides"]:
            body = {"rev": state["rev"], ("seat" if state["by_seat"] else "side"): side}
            status, answer = _get(port, "/api/v1/tables/1/1/confirm", "POST", json.dumps(body).encode(),
                                  {**_auth(token), "content-type": "application/json"})
            assert status == 200, answer
            state = json.loads(answer)
        # The new hall shows the result (the redirect from the tables' port leads there too).
        assert _get(port, "/games")[0] == 303
        _until(lambda: b'href="/games/1/1"' in _get(hall_port, "/games")[1], "the new hall never showed the result")
        proc.send_signal(signal.SIGINT)
        proc.wait(PATIENCE)
        said = proc.stderr.read().decode()
    finally:
        stop(proc)
    assert "the hall's process stopped (killed by signal 9); starting it again" in said, said


# --- the hall's process is guarded as the tables' server is ---------------------------------------


def _closed(sock: socket.socket) -> bytes:
    """What the server said before it closed ``sock`` (waited for, within :data:`PATIENCE`)."""
    sock.settimeout(PATIENCE)
    got = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return got
        got += chunk


def test_the_halls_process_keeps_the_servers_guards(tmp_path):
    """The hall's own port: a connection silent past the header timeout is closed; one address
    holds at most ``per_address`` connections (one more is told 429 and closed); each address
    has its rate limit (429 once its burst is spent); every answer has the security headers."""
    path = _event(tmp_path)
    from tournament.web.background import BackgroundVenue

    with BackgroundVenue(path, hall=True, header_timeout=0.5) as venue:
        silent = socket.create_connection((HOST, venue.hall_port))
        try:
            assert _closed(silent) == b""
        finally:
            silent.close()
    with BackgroundVenue(path, hall=True, rate=0.01, burst=5, per_address=3, header_timeout=PATIENCE * 2) as venue:
        held = [socket.create_connection((HOST, venue.hall_port)) for _ in range(3)]
        extra = socket.create_connection((HOST, venue.hall_port))
        try:
            assert _closed(extra).startswith(b"HTTP/1.1 429 ")
        finally:
            for sock in (*held, extra):
                sock.close()
        answers = []
        conn = http.client.HTTPConnection(HOST, venue.hall_port, timeout=PATIENCE)  # one connection, kept alive
        try:
            for _ in range(8):
                conn.request("GET", "/standings")
                r = conn.getresponse()
                r.read()
                answers.append((r.status, dict(r.getheaders())))
        finally:
            conn.close()
        assert [s for s, _ in answers][:5] == [200] * 5 and answers[-1][0] == 429
        for _, headers in answers:
            assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
            assert "content-security-policy" in headers and headers["referrer-policy"] == "no-referrer"


def test_the_tables_server_tells_the_hall_of_a_change_at_once(tmp_path):
    """A result confirmed at the tables' port reaches a live stream open at the hall's port through
    the pipe between them, not by the hall's next look at the file: here the hall looks once an
    hour, and the stream hears of the result all the same."""
    from .test_venue_floods import _sse_numbers

    path = _event(tmp_path)
    record = _game_of(path, 1, 1, seed=5)
    with _hall_venue(path, hall_poll=3600.0) as venue, httpx.Client(base_url=venue.base_url, timeout=PATIENCE) as tables:
        token = venue.links["tables"][0]["token"]
        state = _play(tables, token, 1, 1, record, whole_hands=True)
        with socket.create_connection((HOST, venue.hall_port), timeout=PATIENCE) as stream:
            stream.sendall(b"GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            first = _sse_numbers(stream)
            _confirm(tables, token, state)
            assert _sse_numbers(stream, first) > first


def test_behind_a_proxy_the_halls_address_is_given_and_kept(tmp_path, monkeypatch):
    """``serve --url https://club.example --hall-url https://club.example/hall``: the links give
    the hall's address as given, every redirect goes there, and the next ``serve`` with the same
    ``--url`` keeps it; one given without the other is refused with one line."""
    import uvicorn
    from typer.testing import CliRunner

    from tournament.cli import app

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: None)
    served = no_hall(monkeypatch)
    path = _event(tmp_path)
    runner = CliRunner()
    r = runner.invoke(app, ["serve", str(path), "--url", "https://club.example", "--hall-url", "https://hall.example"])
    assert r.exit_code == 0 and "public page:     https://hall.example/" in r.stdout, r.output
    assert served == ["https://hall.example"]
    r = runner.invoke(app, ["links", str(path), "--json"])
    assert json.loads(r.stdout)["public"] == "https://hall.example/"
    r = runner.invoke(app, ["serve", str(path), "--port", "443"])  # --url's port: its hall kept too
    assert r.exit_code == 0 and "public page:     https://hall.example/" in r.stdout, r.output
    r = runner.invoke(app, ["serve", str(path), "--one-process", "--hall-url", "https://hall.example"])
    assert r.exit_code != 0 and "not with --one-process" in r.output
    server = VenueServer(path, base_url="https://club.example", hall_port=8001, hall_url="https://hall.example")
    try:
        client = starlette_testclient.TestClient(server.asgi, follow_redirects=False)
        r = client.get("/standings?lang=es", headers={"host": "10.0.0.5:8000"})
        assert r.status_code == 303 and r.headers["location"] == "https://hall.example/standings?lang=es"
    finally:
        server.close()


# --- a live page's fetch, answered by the connection itself ------------------------------------------


def _answers(port: int, data: bytes, count: int = 1) -> list[tuple[bytes, list, bytes]]:
    """Each answer read from one connection after writing ``data``: its status line, headers as
    written, body (none for a 204)."""
    return _raw(port, data, answers=count, timeout=PATIENCE)


def test_a_live_fetch_is_answered_by_the_connection_as_by_the_route(tmp_path, monkeypatch):
    """A live page's fetch of its main region (``?part=main&since=SEQ``) while a stream is open,
    answered by the hall's connection itself from the page kept for the change the stream
    announced (HallServer.light_request), is written as the ASGI way writes it: the same status
    line, headers (the request's id and the date aside) and bytes, in each language and encoding,
    the page and 'unchanged' (204); two fetches on one connection; anything else (a language or
    another field in the query, a page not made yet, no stream open) goes the ASGI way.  The
    live stream too (``/live``, ``?follow=tables``): the same head and messages, its end at its
    lifetime, and its place given back when its client goes."""
    import threading

    import uvicorn

    from tournament.web import connections
    from tournament.web.hall import HallServer, listening

    path = _event(tmp_path)
    with _hall_venue(path) as venue, httpx.Client(base_url=venue.base_url, timeout=PATIENCE) as tables:
        token = venue.links["tables"][0]["token"]
        _confirm(tables, token, _play(tables, token, 1, 1, _game_of(path, 1, 1, seed=5), whole_hands=True))
    sock = listening(HOST, 0)
    port = sock.getsockname()[1]
    hall = HallServer(path, f"http://{HOST}:{port}", rate=1e9, burst=10 ** 9)
    server = uvicorn.Server(connections.config(hall.asgi, log_config=None))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    taken = []
    light_answer = hall._light_answer
    monkeypatch.setattr(hall, "_light_answer", lambda *a: taken.append(1) or light_answer(*a))
    try:
        _until(lambda: server.started, "the hall started")

        def plain(answer):
            status, headers, body = answer
            return status, sorted((k, v) for k, v in headers if k not in (b"x-request-id", b"date")), body

        def both(data, light=True, count=1):
            del taken[:]
            below = [plain(a) for a in _answers(port, data, count)]
            assert bool(taken) is light, data
            hall.light_below = False
            try:
                asgi = [plain(a) for a in _answers(port, data, count)]
            finally:
                hall.light_below = True
            assert below == asgi, data
            return below

        def ask(where, *headers):
            return b"\r\n".join([f"GET {where} HTTP/1.1".encode(), b"host: 127.0.0.1",
                                 *(f"{k}: {v}".encode() for k, v in headers)]) + b"\r\n\r\n"

        both(ask("/standings?part=main&since=0"), light=False)  # no stream open: nobody watches the file
        with socket.create_connection((HOST, port), timeout=PATIENCE) as stream:
            stream.sendall(ask("/live"))
            got = b""
            while b"event: spread" not in got:
                more = stream.recv(4096)
                assert more, got
                got += more
            seq = int(got.split(b"event: seq\ndata: ")[1].split(b"\n")[0])
            both(ask("/bracket?part=main&since=0"), light=False)  # not made yet: made the usual way
            for headers in ([], [("accept-encoding", "gzip")], [("accept-language", "es-AR,es;q=0.9")],
                            [("cookie", "lang=es")], [("accept-encoding", "gzip, br"), ("accept-language", "fr")]):
                _answers(port, ask("/standings?part=main", *headers))  # made in this language (the ASGI way)
                page = both(ask("/standings?part=main&since=0", *headers))[0]
                assert page[0] == b"HTTP/1.1 200 OK" and (b"x-seq", str(seq).encode()) in page[1]
                assert both(ask(f"/standings?since={seq}&part=main", *headers))[0][0] == b"HTTP/1.1 204 No Content"
            assert len(both(ask("/standings?part=main&since=0") * 2, count=2)) == 2
            for where in ("/standings?part=main&since=0&lang=es", "/standings?part=main&since=x",
                          "/standings?part=main&since=%31", "/?part=main&since=0&q=P1", "/games?part=main&since=0",
                          "/standings?part=all&since=0", "/standings?since=0"):
                both(ask(where), light=False)
            assert hall.live.streams == 1

        # The stream itself, written by the connection: the same head and messages as the route's.
        def stream(where, light, until=b"event: spread"):
            hall.light_below = light
            try:
                with socket.create_connection((HOST, port), timeout=PATIENCE) as sock:
                    def read_until(marker: bytes, got: bytes, size: int = 65536) -> bytes:
                        while marker not in got:
                            more = sock.recv(size)
                            assert more, got
                            got += more
                        return got

                    sock.sendall(ask(where))
                    got = read_until(until, b"", 4096)
                    assert len(hall.live._listeners) == (light and until != b"0\r\n\r\n")  # written by the connection
                    if until == b"0\r\n\r\n":  # ended: the connection serves the next request
                        sock.sendall(ask("/standings?part=main&since=0"))
                        got = read_until(b"HTTP/1.1 200 OK", got)
                head, body = got.split(b"\r\n\r\n", 1)
                status, *lines = head.split(b"\r\n")
                kept = sorted(line for line in lines if not line.startswith((b"date:", b"x-request-id:")))
                _until(lambda: hall.live.streams == 0, "the stream's place given back")  # its client gone
                return status, kept, body.split(b"HTTP/1.1")[0]
            finally:
                hall.light_below = True

        for where in ("/live", "/live?follow=tables"):
            light = stream(where, True)
            assert light == stream(where, False) and light[0] == b"HTTP/1.1 200 OK"
            assert f"event: seq\ndata: {seq}\n".encode() in light[2] or where.endswith("tables")
        hall.live.lifetime = 0.5  # a stream's life over: its last chunk, the connection kept for more
        light, asgi = (stream("/live", way, until=b"0\r\n\r\n") for way in (True, False))
        quiet = b"e\r\n: keep-alive\n\n\r\n"  # (the route's may send one as its life ends: a race of its timer's)
        assert light[:2] == asgi[:2] and light[2].replace(quiet, b"") == asgi[2].replace(quiet, b"")
        assert light[2].endswith(b"0\r\n\r\n")
    finally:
        hall.stop_streams()
        server.should_exit = True
        thread.join(PATIENCE)
        hall.close()
        sock.close()
