"""What the venue server's guard refuses before any route sees a request (tournament.web.app,
``_refused_here``): a write whose body is not declared JSON (415: a form or ``text/plain``, which a
page of another site may send without asking first), and an HTTP/1.1 request without its one
``Host`` (400: httptools, uvicorn's reader, lets it through).  Each in one line, in the asker's
language, and nothing is written."""

from __future__ import annotations

import json

import pytest

from tests.tournament.test_venue import _auth, _event, _key, _raw, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

URL = "/api/v1/tables/1/1"
#: Every write of the venue's API (the path after the table's, or a path of its own), with a body
#: its route would take.
WRITES = (f"{URL}/dgn", f"{URL}/mode", f"{URL}/confirm", f"{URL}/call", f"{URL}/clear", f"{URL}/result",
          f"{URL}/result/clear", f"{URL}/pins/clear", f"{URL}/correct", f"{URL}/key", "/api/v1/director/pair")
NOT_JSON = (("text/plain", b'{"rev": 0, "mode": "sheet"}'), ("text/plain;charset=UTF-8", b'{"rev": 0, "mode": "sheet"}'),
            ("application/x-www-form-urlencoded", b"rev=0&mode=sheet"),
            ("multipart/form-data; boundary=x", b"--x\r\n\r\n{}\r\n--x--\r\n"), (None, b'{"rev": 0, "mode": "sheet"}'),
            ("application/jsonx", b'{"rev": 0, "mode": "sheet"}'))


@pytest.fixture
def served(tmp_path):
    path = _event(tmp_path)
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    try:
        yield server, client, links
    finally:
        server.close()


def _post(client, where, token, kind, body, **headers):
    sent = {**_auth(token), **headers, **({"Content-Type": kind} if kind is not None else {})}
    return client.post(where, headers=sent, content=body)


def test_a_write_not_declared_json_is_refused_whatever_its_key(served):
    """Every write route, with the table's key or the director's: a body sent as text, a form,
    multipart or with no type is refused 415 in one line (Spanish to a Spanish phone), and the
    table is as it was; the same body declared JSON (a charset besides) is taken."""
    server, client, links = served
    table, director = links["tables"][0]["token"], _key(links["director"])
    for where in WRITES:
        for token in (table, director):
            for kind, body in NOT_JSON:
                r = _post(client, where, token, kind, body)
                assert r.status_code == 415, (where, kind, r.text)
                data = r.json()
                assert set(data) == {"error", "request_id"} and "\n" not in data["error"]
                assert data["error"] == "a write must be sent as JSON (Content-Type: application/json)"
    r = _post(client, f"{URL}/mode", table, "text/plain", b'{"rev": 0, "mode": "sheet"}', **{"Accept-Language": "es"})
    assert r.status_code == 415
    assert r.json()["error"] == "una escritura debe enviarse como JSON (Content-Type: application/json)"
    assert server.call(server.venue.state, 1, 1)["rev"] == 0  # nothing refused was kept
    r = _post(client, f"{URL}/mode", table, "Application/JSON; charset=utf-8", b'{"rev": 0, "mode": "sheet"}')
    assert r.status_code == 200 and r.json()["rev"] == 1


def test_two_content_types_are_refused(served):
    """A write naming two types (one of them JSON) says nothing certain of its body: refused."""
    server, client, links = served
    token = links["tables"][0]["token"]
    r = client.post(f"{URL}/mode", headers=[*_auth(token).items(), ("content-type", "application/json"),
                                            ("content-type", "text/plain")], content=b'{"rev": 0, "mode": "sheet"}')
    assert r.status_code == 415
    assert server.call(server.venue.state, 1, 1)["rev"] == 0


def test_reads_need_no_content_type(served):
    """Only writes are asked for their type: a read (a table's state, a page) has no body."""
    _, client, links = served
    assert client.get(URL, headers=_auth(links["tables"][0]["token"])).status_code == 200
    assert client.get("/").status_code == 200


def test_a_write_no_route_takes_is_405_whatever_its_type(served):
    """A DELETE, PUT, PATCH or POST of a page (a table's page, the hall's, a write route asked with
    another method, a script of the static files) got 415 "a write must be sent as JSON", as if JSON would have been taken: the
    guard refused it before routing.  Now the router says the address does not take the method,
    405 in one line, JSON or not; a write a route takes is still asked for JSON (415), and one
    from another site's page is still refused (403)."""
    _, client, links = served
    token = links["tables"][0]["token"]
    for method in ("DELETE", "PUT", "PATCH", "POST"):
        for where in (f"/t/{token}", "/", "/standings", URL, "/static/table.js"):
            for kind in ("text/plain", "application/json"):
                r = client.request(method, where, headers={"Content-Type": kind}, content=b"{}")
                if method == "POST" and where == URL:
                    continue  # (no route posts there: the table's writes are below it)
                assert r.status_code == 405, (method, where, kind, r.text)
                assert r.json()["error"] == f"this address does not take a {method} request"
    assert _post(client, f"{URL}/mode", token, "text/plain", b'{"rev": 0, "mode": "sheet"}').status_code == 415
    assert _post(client, f"{URL}/mode", token, "application/json", b'{"rev": 0, "mode": "sheet"}',
                 Origin="https://elsewhere.example").status_code == 403


def _request(method: str, where: str, headers=(), body: bytes | None = None, version: bytes = b"1.1") -> bytes:
    lines = [f"{method} {where} HTTP/".encode() + version, *headers]
    if body is not None:
        lines.append(f"content-length: {len(body)}".encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")


@pytest.mark.parametrize("hall", [False, True], ids=["tables", "hall"])
def test_a_request_without_its_one_host_is_refused(tmp_path, hall):
    """On the real server (uvicorn reading with httptools, which lets such a request through):
    an HTTP/1.1 request without a ``Host``, with an empty one or with two is refused 400 in one
    line, a read or a write, on the tables' server and on the hall's own process; HTTP/1.0, which
    has no ``Host`` to send, and any ``Host`` at all (the laptop's LAN address, a name) are
    served."""
    from tournament.web.background import BackgroundVenue

    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9, hall=hall) as venue:
        token = venue.links["tables"][0]["token"]
        port = venue.port
        auth = f"authorization: Bearer {token}".encode()
        move = json.dumps({"rev": 0, "mode": "sheet"}).encode()
        asks = [("GET", URL, [auth], None), ("POST", f"{URL}/mode", [auth, b"content-type: application/json"], move)]
        if hall:  # the hall's own process, on its own port
            port = int(venue.hall_url.rsplit(":", 1)[1])
            asks = [("GET", "/", [], None), ("GET", "/api/v1/event", [], None)]
        for method, where, headers, body in asks:
            for host in ([], [b"host: "], [b"host: 127.0.0.1", b"host: elsewhere.example"]):
                [(status, _, answer)] = _raw(port, _request(method, where, [*host, *headers], body))
                assert status.startswith(b"HTTP/1.1 400 "), (where, host, status)
                data = json.loads(answer)
                assert data["error"] == "a request must name the host it asks (one Host header)"
        for host in (b"host: 192.168.1.20:8000", b"host: laptop.local"):
            [(status, _, _)] = _raw(port, _request("GET", asks[0][1], [host, *asks[0][2]]))
            assert status.startswith(b"HTTP/1.1 200 "), (host, status)
        [(status, _, _)] = _raw(port, _request("GET", asks[0][1], asks[0][2], version=b"1.0"))
        assert status.startswith(b"HTTP/1.1 200 ")
        if not hall:
            assert venue.server.call(venue.server.venue.state, 1, 1)["rev"] == 0  # nothing refused was kept


def test_a_tables_key_opens_no_other_table_on_any_route(served):
    """Table 1's key, on every route of table 2 (a read or a write, with the director's right PIN
    or without): refused 403, before any PIN is looked at (no wrong PIN counted, at either table
    or for the event), and table 2 is as it was; nor does it open the director's routes."""
    from tournament.store import venue as venue_sql

    server, client, links = served
    one, two = links["tables"][0]["token"], links["tables"][1]["token"]
    pin = links["director_pin"]
    other = "/api/v1/tables/1/2"
    bodies = {"dgn": {"rev": 0, "text": "hand 1"}, "mode": {"rev": 0, "mode": "sheet"}, "call": {"rev": 0},
              "confirm": {"rev": 0, "side": "NS"}, "clear": {"rev": 0}, "result": {"scores": {"NS": 1, "EW": 0},
                                                                                   "reason": "x"},
              "result/clear": {"reason": "x"}, "pins/clear": {}, "key": {},
              "correct": {"rev": 0, "hand": 1, "line": None, "text": "", "reason": "x"}}
    for typed in (None, pin, "000000" if pin != "000000" else "111111"):
        headers = {**_auth(one), "Content-Type": "application/json", **({"X-Director-PIN": typed} if typed else {})}
        for read in ("", "?log=1", "/options", "/lines"):
            assert client.get(other + read, headers=headers).status_code == 403, (read, typed)
        for route, body in bodies.items():
            r = client.post(f"{other}/{route}", headers=headers, json=body)
            assert r.status_code == 403, (route, typed, r.text)
        for where, body in (("/api/v1/director", None), ("/api/v1/director/pair", {})):
            r = client.get(where, headers=headers) if body is None else client.post(where, headers=headers, json=body)
            assert r.status_code == 403, where
    assert server.call(server.venue.state, 1, 2)["rev"] == 0
    assert client.get(other, headers=_auth(two)).status_code == 200  # table 2's own key still opens it
    store = server.venue.store
    assert server.call(lambda: (venue_sql.pin_tries(store, server.venue.table(1, 1).id),
                                venue_sql.pin_tries(store, server.venue.table(1, 2).id),
                                venue_sql.director_pin_misses(store))) == ((0, None), (0, None), (0, None))
