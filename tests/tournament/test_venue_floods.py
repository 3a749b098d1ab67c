"""A hostile phone in the hall (issue 35, points 2, 4 and 5): the rate limit cannot be dodged with
made-up forwarded addresses nor made to forget a flooder; a burst of live streams holds their cap;
a connection slow to send its headers is closed, and one address cannot hold the server's
connections (the burst against the hall's own process, as ``serve`` runs it); a write's ``Origin`` must be the served address, scheme, host and port.

Against 127.0.0.1 only (a second loopback address, 127.0.0.2, plays another device), every wait
bounded by :data:`PATIENCE`, which only turns a hang into a failure; nothing here asserts a time."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tournament import open_event
from tournament.event.venue import links
from tournament.web.app import _Buckets
from tournament.web.connections import PER_ADDRESS, YOUNG_COLLECTION, served_origins
from tournament.web.public import MAX_STREAMS

from .served import children, free_port, serve, stop
from .test_venue import _auth, _event, _game_of, _requests

starlette_testclient = pytest.importorskip("starlette.testclient")

HOST = "127.0.0.1"
#: The longest any wait here lasts before it fails (only a hang reaches it).
PATIENCE = 120.0


def _background(path, **kw):
    from tournament.web.background import BackgroundVenue

    return BackgroundVenue(path, **kw)


# --- the rate limit ----------------------------------------------------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_flooder_stays_slowed_down_however_many_other_addresses_appear():
    """Once 10,000 addresses had been seen, the limiter forgot every count, the flooder's too: now
    it forgets the address silent the longest, never one that keeps asking."""
    clock = _Clock()
    buckets = _Buckets(rate=1.0, burst=5, clock=clock, addresses=10_000)
    assert [buckets.take("flooder") for _ in range(5)] == [0.0] * 5
    assert buckets.take("flooder") > 0
    for k in range(25_000):  # an IPv6 device making up addresses, the flooder asking all along
        assert buckets.take(f"2001:db8::{k:x}") == 0.0
        if k % 100 == 0:
            assert buckets.take("flooder") > 0, f"the flooder was let through after {k} other addresses"
        assert len(buckets) <= 10_000
    assert buckets.take("flooder") > 0


def test_the_address_forgotten_is_the_one_silent_the_longest():
    clock = _Clock()
    buckets = _Buckets(rate=1.0, burst=2, clock=clock, addresses=3)
    for who in ("a", "b", "a", "a"):  # a: limited now (its burst of 2 spent)
        buckets.take(who)
    assert buckets.take("a") > 0
    buckets.take("c")
    buckets.take("d")  # a fourth address: b, silent the longest, is forgotten; a is kept
    assert len(buckets) == 3 and buckets.take("a") > 0
    clock.now += 10  # a's bucket fills up again with time, as before
    assert buckets.take("a") == 0.0


# --- forwarded headers ---------------------------------------------------------------------------------


def _flood(port: int, count: int, forwarded=lambda k: f"10.0.{k // 250}.{k % 250 + 1}") -> list[int]:
    """``count`` requests on one keep-alive connection, each with an ``X-Forwarded-For`` of its own."""
    conn = http.client.HTTPConnection(HOST, port, timeout=PATIENCE)
    codes = []
    try:
        for k in range(count):
            conn.request("GET", "/api/v1/openapi.json", headers={"X-Forwarded-For": forwarded(k),
                                                                 "X-Forwarded-Proto": "https"})
            r = conn.getresponse()
            r.read()
            codes.append(r.status)
    finally:
        conn.close()
    return codes


def test_made_up_forwarded_addresses_do_not_dodge_the_rate_limit(tmp_path):
    """uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: 200 requests with as
    many made-up addresses each got a rate limit of their own.  Now they are one device's."""
    path = _event(tmp_path)
    with _background(path, rate=0.01, burst=5) as served:  # a token back every 100 s: no refill here
        codes = _flood(served.port, 200)
    assert codes[:5] == [200] * 5 and codes.count(429) >= 190, codes


def test_with_proxy_headers_a_proxy_on_this_computer_is_believed(tmp_path):
    path = _event(tmp_path)
    with _background(path, rate=0.01, burst=5, proxy_headers=True) as served:
        assert _flood(served.port, 200) == [200] * 200  # 200 devices behind the proxy, each its own limit
        codes = _flood(served.port, 8, forwarded=lambda k: "10.9.9.9")  # one device behind it, flooding
        assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3


@pytest.mark.slow
def test_tournament_serve_believes_forwarded_headers_only_with_proxy_headers(tmp_path):
    path = _event(tmp_path)
    for options, flooded in (((), True), (("--proxy-headers",), False)):
        port = free_port()
        proc = serve(path, port, *options, rate="0.1")  # a burst of 60, then a request every 10 s
        try:
            codes = _flood(port, 200)
        finally:
            stop(proc)
        if flooded:
            assert codes[:60] == [200] * 60 and codes.count(429) >= 120, codes
        else:
            assert codes == [200] * 200, codes


# --- the live stream's cap, under a burst ---------------------------------------------------------------


async def _status(reader: asyncio.StreamReader) -> int:
    line = await reader.readline()
    assert line.startswith(b"HTTP/1.1 "), line
    return int(line.split()[1])


def _cpu(pid: int) -> float:
    """User and system CPU seconds of a process, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else float("nan")


#: A table moving once every 10 ms until told to stop (a line on its input): each move's start
#: (``time.perf_counter``, the same clock in every process of a machine) and how long its answer
#: took, as JSON, at the end.
_MOVER = """
import http.client, json, sys, threading, time
host, port, token, texts = sys.argv[1], int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
conn = http.client.HTTPConnection(host, port, timeout=120)
rev, times, said = 0, [], False
for k, text in enumerate(texts):
    if k == 3:
        print("moving", flush=True)
        said = True
    if stop.is_set() and k >= 3:
        break
    began = time.perf_counter()
    conn.request("POST", "/api/v1/tables/1/1/dgn", body=json.dumps({"rev": rev, "text": text}),
                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    r = conn.getresponse()
    state = json.loads(r.read())
    assert r.status == 200, state
    times.append((began, time.perf_counter() - began))
    rev = state["rev"]
    time.sleep(0.01)
if not said:
    print("moving", flush=True)
stop.wait(120)
print(json.dumps(times), flush=True)
"""


@pytest.mark.slow
def test_a_burst_of_live_streams_holds_the_cap_and_the_tables_keep_answering(tmp_path, record_property, capsys):
    """2,000 ``/live`` asked for at once all got 200: each was counted only once its answer began,
    after every other had found room.  Now at most :data:`MAX_STREAMS` are held (the streams that
    got 200 all stay open: a stream lasts ten minutes), the rest are told 503, and a table moving
    meanwhile (from a process of its own) is answered: its latency is reported, not judged here.

    ``tournament serve`` itself as it runs in a hall, in a process of its own (so that the 2,000
    clients' work here is not counted as the server's), the hall's pages in the second process it
    starts: the burst goes to the hall's port, the table's moves to the tables' port.  Every
    connection from 127.0.0.1: its per-device limits raised."""
    path = _event(tmp_path)
    texts = _requests(_game_of(path, 1, 1, seed=5))
    port, hall_port = free_port(), free_port()
    proc = serve(path, port, "--connections-per-device", "10000", "--hall-port", str(hall_port), rate="1000000")
    try:
        hall = _until_child(proc.pid)
        store = open_event(path)
        token = links(store, "http://127.0.0.1")["tables"][0]["token"]
        store.close()
        # The table moves from a process of its own, so that the burst's 2,000 clients here (one
        # interpreter) never hold its requests back: what it measures is the server's answer.
        mover = subprocess.Popen([sys.executable, "-c", _MOVER, HOST, str(port), token, json.dumps(texts)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert mover.stdout is not None and mover.stdin is not None
        assert mover.stdout.readline().strip() == "moving"

        async def burst() -> list[int]:
            writers: list[asyncio.StreamWriter] = []

            async def follow() -> int:
                reader, writer = await asyncio.open_connection(HOST, hall_port)
                writers.append(writer)
                writer.write(b"GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return await _status(reader)

            try:
                return await asyncio.wait_for(asyncio.gather(*(follow() for _ in range(2000))), PATIENCE)
            finally:
                for writer in writers:
                    writer.close()

        began, cpu, hall_cpu = time.perf_counter(), _cpu(proc.pid), _cpu(hall)
        statuses = asyncio.run(burst())
        ended, cpu, hall_cpu = time.perf_counter(), _cpu(proc.pid) - cpu, _cpu(hall) - hall_cpu
        out, _ = mover.communicate("stop\n", timeout=PATIENCE)
        assert mover.returncode == 0, out
        times = [tuple(x) for x in json.loads(out.strip().splitlines()[-1])]
        assert statuses.count(200) == MAX_STREAMS and statuses.count(503) == 2000 - MAX_STREAMS
        # The streams' places are given back as their clients go: a new one finds room again.
        deadline = time.monotonic() + PATIENCE
        while True:
            conn = http.client.HTTPConnection(HOST, hall_port, timeout=PATIENCE)
            conn.request("GET", "/live")
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                break
            assert time.monotonic() < deadline, "the live streams' places were not given back"
            time.sleep(0.05)
    finally:
        stop(proc)
    during = [t for at, t in times if began <= at <= ended] or [t for _, t in times]
    p50, p99 = _percentile(during, 50) * 1000, _percentile(during, 99) * 1000
    record_property("table_move_p50_ms", round(p50, 1))
    record_property("table_move_p99_ms", round(p99, 1))
    with capsys.disabled():
        print(f"\n  a table's moves during the burst of 2,000 /live at the hall's port ({ended - began:.1f} s, "
              f"the tables' process's CPU {cpu:.2f} s, the hall's {hall_cpu:.2f} s, load "
              f"{os.getloadavg()[0]:.1f}): {len(during)} moves, p50 {p50:.0f} ms, "
              f"p99 {p99:.0f} ms, the slowest {max(during) * 1000:.0f} ms")


def _until_child(pid: int) -> int:
    """The hall's process ``serve`` (``pid``) started."""
    deadline = time.monotonic() + PATIENCE
    while not children(pid):
        assert time.monotonic() < deadline, "serve started no hall"
        time.sleep(0.05)
    return children(pid)[0]


# --- slow headers, and connections held by one address ---------------------------------------------


@pytest.fixture(params=["httptools", "h11"])
def protocol(request, monkeypatch) -> str:
    """uvicorn reads HTTP with httptools where it is installed, else with h11: the guards hold with both."""
    import uvicorn.protocols.http.auto as auto

    if request.param == "h11":
        from uvicorn.protocols.http.h11_impl import H11Protocol

        monkeypatch.setattr(auto, "AutoHTTPProtocol", H11Protocol)
    else:
        pytest.importorskip("httptools")
    return request.param


def _closed_by_server(sock: socket.socket, trickle: bool) -> bytes:
    """Read until the server closes ``sock`` (what it sent before); with ``trickle``, a byte more of a
    header that never ends each time nothing came for a moment (a slowloris)."""
    sock.settimeout(0.05)
    got = b""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            data = sock.recv(4096)
        except TimeoutError:
            assert time.monotonic() < deadline, "the server kept a connection that never finished its headers"
            if trickle:
                try:
                    sock.sendall(b"x")
                except OSError:  # closed under it
                    return got
            continue
        except OSError:  # reset: closed
            return got
        if not data:
            return got
        got += data


def _sse_numbers(sock: socket.socket, after: int | None = None) -> int:
    """The next ``data:`` number of a live stream read on ``sock`` (after ``after``)."""
    sock.settimeout(PATIENCE)
    buffer = b""
    deadline = time.monotonic() + PATIENCE
    while True:
        assert time.monotonic() < deadline, "the live stream said nothing new"
        chunk = sock.recv(4096)
        assert chunk, "the live stream was closed"
        buffer += chunk
        for line in buffer.split(b"\n"):
            if line.startswith(b"data: ") and line[6:].strip().isdigit():
                number = int(line[6:])
                if after is None or number > after:
                    return number


def test_a_connection_slow_to_send_its_headers_is_closed_and_a_long_answer_is_not(tmp_path, protocol):
    """uvicorn times nothing before a connection's first request: one that sent nothing, or a header
    a byte at a time, was held for ever.  Now each has ``header_timeout`` seconds; a request being
    answered (a live stream, ten minutes long) is not timed."""
    path = _event(tmp_path)
    texts = _requests(_game_of(path, 1, 1, seed=5))
    with _background(path, rate=1e9, burst=10 ** 9, header_timeout=0.5) as served:
        token = served.links["tables"][0]["token"]
        stream = socket.create_connection((HOST, served.port))
        stream.sendall(b"GET /live?follow=tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = _sse_numbers(stream)
        silent = socket.create_connection((HOST, served.port))
        slow = socket.create_connection((HOST, served.port))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        again = socket.create_connection((HOST, served.port))  # answered once, then slow on its next request
        again.sendall(b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            assert _closed_by_server(silent, trickle=False) == b""
            assert _closed_by_server(slow, trickle=True) == b""
            answered = again.recv(1 << 20)
            assert answered.startswith(b"HTTP/1.1 200")
            again.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            _closed_by_server(again, trickle=True)
            # The live stream, opened before all of them, is still open and still hears of a change:
            # the table starts (its status, playing).
            conn = http.client.HTTPConnection(HOST, served.port, timeout=PATIENCE)
            rev = 0
            for text in texts:
                conn.request("POST", "/api/v1/tables/1/1/dgn", body=json.dumps({"rev": rev, "text": text}),
                             headers={**_auth(token), "Content-Type": "application/json"})
                r = conn.getresponse()
                state = json.loads(r.read())
                assert r.status == 200, state
                rev = state["rev"]
                if state["status"] != "not started":
                    break
            conn.close()
            assert _sse_numbers(stream, first) > first
        finally:
            for sock in (stream, silent, slow, again):
                sock.close()


def test_a_body_sent_a_byte_at_a_time_is_answered_408_and_the_table_goes_on(tmp_path, protocol, monkeypatch):
    """Once a request's headers are in, its body was not timed: a write whose body came a byte at a
    time held its request for ever.  Now the body has ``BODY_SECONDS`` to arrive whole; then the
    request is answered 408 in one line, nothing of it is taken, and the table's next write is."""
    import tournament.web.app as web_app

    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.5)
    path = _event(tmp_path)
    texts = _requests(_game_of(path, 1, 1, seed=5))
    with _background(path, rate=1e9, burst=10 ** 9) as served:
        token = served.links["tables"][0]["token"]
        body = json.dumps({"rev": 0, "text": texts[0]}).encode()
        slow = socket.create_connection((HOST, served.port))
        slow.sendall(b"POST /api/v1/tables/1/1/dgn HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Authorization: Bearer " + token.encode() + b"\r\nContent-Type: application/json\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:5])
        slow.settimeout(PATIENCE)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = slow.recv(4096)
            assert chunk, answer
            answer += chunk
        slow.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer
        said = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert said["error"] == "the request body did not arrive within 0.5 seconds: send it again"
        conn = http.client.HTTPConnection(HOST, served.port, timeout=PATIENCE)
        conn.request("POST", "/api/v1/tables/1/1/dgn", body=body,
                     headers={**_auth(token), "Content-Type": "application/json"})
        r = conn.getresponse()
        state = json.loads(r.read())
        conn.close()
        assert r.status == 200 and state["rev"] == 1, state


@pytest.mark.parametrize("garbage", [b"NOT HTTP AT ALL\r\n\r\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad header\r\n\r\n",
                                     b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"])
def test_a_request_that_is_not_http_is_told_in_the_venues_one_json_line(tmp_path, protocol, garbage):
    """uvicorn answered what its parser refuses (a line of nonsense, a header without its colon, a
    phone speaking TLS to the plain port) in a line of plain text.  Now it is the venue's one JSON
    line, status 400, as every other refusal; the connection is closed and the tables go on."""
    path = _event(tmp_path)
    with _background(path, rate=1e9, burst=10 ** 9) as served:
        token = served.links["tables"][0]["token"]
        sock = socket.create_connection((HOST, served.port))
        sock.settimeout(PATIENCE)
        sock.sendall(garbage)
        answer = b""
        while chunk := sock.recv(4096):  # until the server closes it
            answer += chunk
        sock.close()
        assert answer.startswith(b"HTTP/1.1 400 "), answer
        head, body = answer.split(b"\r\n\r\n", 1)
        assert b"content-type: application/json" in head.lower()
        for header in (b"x-content-type-options: nosniff", b"x-frame-options: deny", b"referrer-policy: no-referrer",
                       b"content-security-policy: default-src 'none'"):  # (as on every answer of the venue)
            assert header in head.lower(), head
        said = json.loads(body)
        assert said["error"] == "the server could not read this request as HTTP: check the address and send it again"
        assert b"\n" not in body
        conn = http.client.HTTPConnection(HOST, served.port, timeout=PATIENCE)
        conn.request("GET", "/api/v1/tables/1/1", headers=_auth(token))
        assert conn.getresponse().status == 200
        conn.close()


def _answer_until_closed(sock: socket.socket) -> bytes:
    answer = b""
    try:
        while chunk := sock.recv(65536):  # until the server closes it
            answer += chunk
    except ConnectionResetError:  # (closed with the rest of a long head still unread)
        pass
    return answer


def test_a_request_with_headers_past_their_bound_is_refused_unread(tmp_path, protocol):
    """httptools kept a request's headers however long they were: 30 requests of an 8 MB
    ``Accept-Language`` each were answered 200, and the server's process held 240 MB more after
    them (and a phone may hold 64 connections). Now a request's line and headers may hold
    ``MAX_HEAD`` bytes: past them it is refused (httptools: 431 in the venue's one JSON line; h11,
    bounded the same across reads, as a request it cannot read: 400) and its connection closed; a move whose
    headers and 60 KB body come in one read is taken, and the tables go on."""
    from tournament.web.connections import MAX_HEAD

    path = _event(tmp_path)
    with _background(path, rate=1e9, burst=10 ** 9) as served:
        token = served.links["tables"][0]["token"]
        heads = [b"Accept-Language: " + b"e" * 8_000_000 + b"\r\n"]  # in many reads
        if protocol == "httptools":  # (h11 bounds only a head still incomplete at the end of a read)
            heads += [b"Accept-Language: " + b"e" * (MAX_HEAD + 1) + b"\r\n",  # just past it, maybe in one read
                      b"X-A: b\r\n" * (MAX_HEAD // 8 + 1)]  # many short headers
        for head in heads:
            sock = socket.create_connection((HOST, served.port))
            sock.settimeout(PATIENCE)
            request = (b"GET /api/v1/tables/1/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                       + token.encode() + b"\r\n" + head + b"\r\n")
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                sock.sendall(request)
            answer = _answer_until_closed(sock)
            sock.close()
            status = b"431" if protocol == "httptools" else b"400"
            assert answer.startswith(b"HTTP/1.1 " + status + b" "), answer[:200]
            said = json.loads(answer.split(b"\r\n\r\n", 1)[1])
            assert set(said) == {"error", "request_id"} and "\n" not in said["error"]
            if protocol == "httptools":
                assert said["error"] == ("a request's address and headers may hold at most 64 KB: "
                                         "this one was refused unread")
        # A head within the bound with a body near its own, in one read, is an ordinary move.
        conn = http.client.HTTPConnection(HOST, served.port, timeout=PATIENCE)
        body = json.dumps({"rev": 0, "text": "hand 1 " + "{" + "x" * 60_000 + "}"}).encode()
        conn.request("POST", "/api/v1/tables/1/1/dgn", body=body,
                     headers={**_auth(token), "Content-Type": "application/json", "X-Pad": "p" * 30_000})
        r = conn.getresponse()
        assert r.status in (200, 422), r.read()[:300]  # (read, and judged by the engine)
        r.read()
        conn.request("GET", "/api/v1/tables/1/1", headers={**_auth(token), "X-Pad": "p" * 60_000})
        r = conn.getresponse()
        assert r.status == 200
        r.read()
        conn.close()


def test_the_languages_kept_worked_out_are_those_of_short_headers():
    """The language of each phone's ``Cookie`` and ``Accept-Language`` is worked out once and kept
    (512 of them): a phone sending a new long header at every request had each kept whole. A header
    longer than a browser's is now worked out each time and not kept, with the same answer."""
    from tournament.web import app

    app._kept_language.cache_clear()
    long_accept = "es;q=0.9,x" + "x" * 60_000
    for n in range(20):
        assert app._kept_or_negotiated(None, f"{long_accept}{n}", "en") == "en"  # (read as no preference)
        assert app._kept_or_negotiated(f"lang=es; pad={n}{'p' * 60_000}", None, "en") == "es"
    assert app._kept_language.cache_info().currsize == 0
    assert app._kept_or_negotiated("lang=es", "en", "en") == "es"
    assert app._kept_or_negotiated(None, "es-MX,es;q=0.9", "en") == "es"
    assert app._kept_language.cache_info().currsize == 2


def test_one_address_cannot_hold_the_servers_connections(tmp_path, protocol):
    """19,900 connections from one address were held open.  Now one address holds at most
    ``per_address`` (64 by default); one more is told 429 and closed; the tables, from another
    address, are answered meanwhile; a connection closed makes room again."""
    path = _event(tmp_path)
    with _background(path, rate=1e9, burst=10 ** 9, header_timeout=PATIENCE * 2) as served:
        token = served.links["tables"][0]["token"]
        assert protocol.lower() in served._uvicorn.config.http_protocol_class.__name__.lower()
        opened = served._uvicorn.config.http_protocol_class.opened
        socks = []
        try:
            for _ in range(300):  # another device of the hall (127.0.0.2), its connections sending nothing
                sock = socket.socket()
                sock.bind(("127.0.0.2", 0))
                sock.connect((HOST, served.port))
                sock.setblocking(False)
                socks.append(sock)
            told, closed = [], set()
            deadline = time.monotonic() + PATIENCE
            while len(closed) < 300 - PER_ADDRESS:
                assert time.monotonic() < deadline, f"{300 - len(closed)} connections of one address held open"
                for k, sock in enumerate(socks):
                    if k in closed:
                        continue
                    try:
                        data = sock.recv(4096)
                    except BlockingIOError:
                        continue
                    except OSError:
                        data = b""
                    if data:
                        told.append(data)
                    else:
                        closed.add(k)
                time.sleep(0.02)
            assert opened["127.0.0.2"] == PER_ADDRESS
            assert len(told) == 300 - PER_ADDRESS and all(t.startswith(b"HTTP/1.1 429 ") for t in told)
            assert b"too many connections from this device" in told[0]
            # The tables, at their own address, are answered all along.
            conn = http.client.HTTPConnection(HOST, served.port, timeout=PATIENCE)
            conn.request("GET", "/api/v1/tables/1/1", headers=_auth(token))
            assert conn.getresponse().status == 200
            conn.close()
        finally:
            for sock in socks:
                sock.close()
        deadline = time.monotonic() + PATIENCE
        while "127.0.0.2" in opened:
            assert time.monotonic() < deadline, "closed connections still counted"
            time.sleep(0.02)
        conn = http.client.HTTPConnection(HOST, served.port, timeout=PATIENCE, source_address=("127.0.0.2", 0))
        conn.request("GET", "/api/v1/openapi.json")
        assert conn.getresponse().status == 200
        conn.close()


# --- a write's Origin ---------------------------------------------------------------------------------


def _origin_client(tmp_path, base_url: str, also_at=()):
    from tournament.web.app import VenueServer

    path = _event(tmp_path)
    server = VenueServer(path, base_url=base_url, rate=1e9, burst=10 ** 9, also_at=also_at)
    token = server.call(server.venue.links, base_url)["tables"][0]["token"]
    return server, starlette_testclient.TestClient(server.asgi, base_url="http://testserver"), token


def _write(client, token: str, origin: str | None, host: str | None = None) -> int:
    """A write that reaches the venue only past the Origin check: a stale ``rev``, so 409 there."""
    headers = _auth(token)
    if origin is not None:
        headers["Origin"] = origin
    if host is not None:
        headers["Host"] = host
    r = client.post("/api/v1/tables/1/1/dgn", headers=headers, json={"rev": 99, "text": "hand 1"})
    if r.status_code == 403:
        assert r.json()["error"] == "a write from another site's page is refused"
    return r.status_code


def test_a_writes_origin_must_be_the_served_address_scheme_host_and_port(tmp_path):
    server, client, token = _origin_client(tmp_path, "http://club.example:8000")
    try:
        assert _write(client, token, "http://club.example:8000") == 409  # the served address: let through
        assert _write(client, token, "http://CLUB.example:8000") == 409
        assert _write(client, token, None) == 409  # no Origin: a device, a script, curl, as before
        assert _write(client, token, "https://club.example:8000") == 403  # another scheme
        assert _write(client, token, "http://club.example:8001") == 403  # another port
        assert _write(client, token, "http://club.example") == 403
        assert _write(client, token, "http://evil.example:8000") == 403
        assert _write(client, token, "null") == 403  # a sandboxed page, a file
        assert _write(client, token, "http://club.example:8000/d/x") == 403  # not an origin
        assert _write(client, token, "http://evil@club.example:8000") == 403
        # A forged Host no longer helps: the Origin is compared with the served address, not with it.
        assert _write(client, token, "http://evil.example", host="evil.example") == 403
        assert _write(client, token, "https://club.example:8000", host="club.example:8000") == 403
        assert _write(client, token, "http://club.example:8000", host="evil.example") == 409
    finally:
        server.close()


def test_the_default_ports_and_the_computers_own_addresses_are_the_served_address(tmp_path):
    server, client, token = _origin_client(tmp_path, "https://club.example", served_origins("127.0.0.1", 8000))
    try:
        assert _write(client, token, "https://club.example") == 409
        assert _write(client, token, "https://club.example:443") == 409
        assert _write(client, token, "http://club.example") == 403
        assert _write(client, token, "http://localhost:8000") == 409  # the director on the laptop itself
        assert _write(client, token, "http://127.0.0.1:8000") == 409
        assert _write(client, token, "http://[::1]:8000") == 409
        assert _write(client, token, "http://localhost:8001") == 403
    finally:
        server.close()
    assert served_origins("0.0.0.0", 80) == ("http://127.0.0.1:80", "http://localhost:80", "http://[::1]:80")
    assert served_origins("192.168.1.20", 8000) == ("http://192.168.1.20:8000",)
    assert served_origins("fe80::1", 8000) == ("http://[fe80::1]:8000",)


def test_a_servers_process_sets_what_it_started_with_aside_from_the_collector():
    """collect_less (what `serve` and the hall's process call once started): what the process holds
    then is frozen out of the cyclic collector, whose youngest generation runs after
    YOUNG_COLLECTION new objects; a cycle made afterwards is still collected.  In a process of its
    own: the tests' process keeps Python's defaults."""
    script = ("import gc\nfrom tournament.web import connections\nconnections.collect_less()\n"
              "frozen = gc.get_freeze_count()\nclass C: pass\nc = C(); c.me = c; del c\n"
              "print(gc.get_threshold()[0], frozen > 0, gc.collect() >= 1)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(YOUNG_COLLECTION), "True", "True"]
