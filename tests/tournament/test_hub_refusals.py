"""The hub, which faces the internet behind its TLS proxy, refuses as the venue does (docs/hub.md,
"Refusals").  An unknown address or a wrong method was Starlette's plain-text "Not Found" / "Method
Not Allowed", and the hub's own refusals of a page a line of plain text: now the venue's one JSON
line in the client's language, or a short page with that sentence to a browser asking for a page.
A request that is not HTTP was uvicorn's plain text: now the venue's JSON line, through the venue's
guarded connections (with their header deadline and their count of connections per address).
SIGTERM (a service manager's stop) ended the hub by the signal's own action, before its
``finally``: now it ends with exit status 143, "stopped" said, no traceback, its live streams ended
first (they held the stop, then were cancelled, a traceback each).

The application's tests need no NATS server (the hub serves what it holds, here nothing); the
real ``tournament hub`` processes read a real ``nats-server -js`` on 127.0.0.1 and are skipped,
saying why, where it or the ``nats-py`` client is missing.  Every wait is bounded and only turns a
hang into a failure; nothing here asserts a time."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from tournament.web.hub import Hub

from .served import ports, serve, stop

starlette_testclient = pytest.importorskip("starlette.testclient")

ROOT = Path(__file__).resolve().parents[2]
NATS_SERVER = shutil.which("nats-server") or ("/usr/sbin/nats-server" if Path("/usr/sbin/nats-server").exists() else None)
#: Generous: only turns a hang into a failure.
PATIENCE = 60.0
SECURITY = {"x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "no-referrer"}
NOTHING_HERE = "there is nothing at this address: check the link"
NOTHING_HERE_ES = "no hay nada en esta dirección: compruebe el enlace"
BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture
def client() -> Iterator[Any]:
    """The hub's application, its stream reader not started (no lifespan): it holds no event."""
    yield starlette_testclient.TestClient(Hub("nats://127.0.0.1:9"), raise_server_exceptions=False)


def _one_json_line(r: Any) -> str:
    assert r.headers["content-type"] == "application/json", (r.status_code, r.headers, r.text)
    assert "\n" not in r.text.strip()
    for name, value in SECURITY.items():
        assert r.headers[name] == value, name
    said = r.json()
    assert list(said) == ["error"], said
    return said["error"]


def test_an_unknown_address_and_a_wrong_method_are_the_venues_one_json_line(client: Any) -> None:
    r = client.get("/no/such/address")
    assert r.status_code == 404 and _one_json_line(r) == NOTHING_HERE
    r = client.get("/api/v1/nothing", headers={"accept-language": "es"})
    assert r.status_code == 404 and _one_json_line(r) == NOTHING_HERE_ES
    r = client.post("/api/v1/events", json={})
    assert r.status_code == 405 and _one_json_line(r) == "this address does not take a POST request"
    assert set(r.headers["allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}
    r = client.delete("/", headers={"accept-language": "es"})
    assert r.status_code == 405 and _one_json_line(r) == "esta dirección no admite una petición DELETE"
    r = client.options("/api/v1/events")
    assert r.status_code == 405 and _one_json_line(r) == "this address does not take an OPTIONS request"
    r = client.options("/api/v1/events", headers={"accept-language": "es"})
    assert r.status_code == 405 and _one_json_line(r) == "esta dirección no admite una petición OPTIONS"
    assert "GET" in r.headers["allow"]
    r = client.get("/static/no-such-file.css", params={"lang": "es"})
    assert r.status_code == 404 and _one_json_line(r) == NOTHING_HERE_ES


@pytest.mark.parametrize("asked", ["bytes=abc", "bytes=5-2", "items=0-1", "bytes=99999999-", "bytes=0-9"])
def test_a_static_file_is_sent_whole_whatever_range_is_asked(client: Any, asked: str) -> None:
    """As the venue's (tournament.web.files.WholeFiles): a ``Range`` is not read, so none is refused
    in Starlette's plain English or met in parts; the file comes whole (200)."""
    whole = (ROOT / "tournament" / "web" / "static" / "venue.css").read_bytes()
    for headers in ({"Range": asked}, {"Range": asked, "If-Range": '"x"', "Accept-Language": "es"}):
        r = client.get("/static/venue.css", headers=headers)
        assert r.status_code == 200 and r.content == whole, (r.status_code, r.text[:200])
        assert "accept-ranges" not in r.headers and "content-range" not in r.headers


def test_a_fault_of_the_hubs_own_is_one_json_line_without_its_detail(client: Any, monkeypatch) -> None:
    """An exception the hub did not foresee was Starlette's "Internal Server Error" in plain text."""
    def broken(*args: Any) -> Any:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(client.app, "_events", broken)
    r = client.get("/api/v1/events")
    assert r.status_code == 500 and _one_json_line(r) == "the hub could not do this; the detail is in the hub's log"
    assert "secret" not in r.text


def test_a_browser_asking_for_a_page_gets_a_page_with_the_sentence(client: Any) -> None:
    r = client.get("/no/such/address", headers=BROWSER)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert NOTHING_HERE in r.text and '<a href="/">' in r.text and "Traceback" not in r.text
    for name, value in SECURITY.items():
        assert r.headers[name] == value, name
    r = client.get("/nowhere", headers={**BROWSER, "accept-language": "es"})
    assert r.status_code == 404 and NOTHING_HERE_ES in r.text and '<html lang="es">' in r.text
    # The hub's own refusals of a page: the sentence, escaped, on the same page.
    r = client.get("/e/%3Cb%3Eno/standings", headers=BROWSER)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "no event &lt;b&gt;no on this hub" in r.text and "<b>" not in r.text
    # The API, a wrong method, or a client that does not ask for HTML: the JSON line.
    assert _one_json_line(client.get("/api/v1/nowhere", headers=BROWSER)) == NOTHING_HERE
    assert _one_json_line(client.post("/", headers=BROWSER)) == "this address does not take a POST request"
    assert _one_json_line(client.get("/e/abc/standings")) == "no event abc on this hub"


@pytest.mark.parametrize("path", ["/e/abc/", "/e/abc/players/x", "/e/abc/matches/1/x", "/e/abc/projector",
                                  "/e/abc/games/1/1", "/e/abc/live", "/e/abc/no-such-page", "/l/no-league"])
def test_the_hubs_own_page_refusals_are_one_json_line_or_a_page(client: Any, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    said = _one_json_line(r)
    assert "on this hub" in said or "whole number" in said or said == NOTHING_HERE, said
    page = client.get(path, headers=BROWSER)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert json.dumps(said)[1:-1].replace("'", "&#39;") in page.text


# --- a real hub: what is not HTTP, the connections per address, SIGTERM ----------------------------

try:
    import nats  # noqa: F401
except ImportError:  # pragma: no cover - where the client is not installed
    nats = None

_REAL = (pytest.mark.skipif(NATS_SERVER is None, reason="nats-server is not installed (apt-get install nats-server)"),
         pytest.mark.skipif(nats is None, reason="the NATS client is not installed (pip install nats-py)"),
         pytest.mark.slow)


def real(test: Any) -> Any:
    """A test of a real hub's process: slow, and skipped without nats-server or the client."""
    for mark in _REAL:
        test = mark(test)
    return test


def _wait(what: str, check: Any) -> Any:
    end = time.monotonic() + PATIENCE
    last: Any = None
    while time.monotonic() < end:
        try:
            last = check()
        except (OSError, ValueError) as e:
            last = e
        else:
            if last:
                return last
        time.sleep(0.05)
    raise AssertionError(f"waited {PATIENCE} s for {what}; last: {last!r}")


@pytest.fixture(scope="module")
def nats_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A nats-server for the module's hubs, holding no event: a test that publishes one to NATS
    (a venue upstream) has a server of its own (:func:`own_nats_url`), so that the hubs of the
    tests after it, in whatever order they run, still hold nothing."""
    yield from _nats_server(tmp_path_factory.mktemp("nats"))


@pytest.fixture
def own_nats_url(tmp_path: Path) -> Iterator[str]:
    """A nats-server for this test alone."""
    yield from _nats_server(tmp_path / "nats")


def _nats_server(folder: Path) -> Iterator[str]:
    if NATS_SERVER is None or nats is None:
        pytest.skip("nats-server or the NATS client is not installed")
    folder.mkdir(exist_ok=True)
    for port in ports():  # (a port taken between its choice and nats-server's start: the next one)
        log = folder / f"nats-{port}.log"
        process = subprocess.Popen([NATS_SERVER, "-js", "-a", "127.0.0.1", "-p", str(port), "-sd",
                                    str(folder / "store")], stdout=subprocess.DEVNULL, stderr=open(log, "ab"))

        def listening() -> bool:
            if process.poll() is not None:
                return True  # (it ended: said below)
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True

        _wait("nats-server to listen", listening)
        if process.poll() is None:
            break
        assert "address already in use" in log.read_text(), log.read_text()
    else:
        raise AssertionError("no port of the tests' range was free")
    try:
        yield f"nats://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class HubProcess:
    """``tournament hub`` on the first port of the tests' range where it starts, its output in files
    (read once it has ended), reading NATS (``/healthz``) before it is used."""

    def __init__(self, folder: Path, url: str, *options: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        for port in ports():
            self.out, self.err = folder / f"hub-{port}.out", folder / f"hub-{port}.err"
            self.process = subprocess.Popen([sys.executable, "-m", "tournament.cli", "hub", "--nats", url,
                                             "--port", str(port), *options],
                                            stdout=open(self.out, "wb"), stderr=open(self.err, "wb"), env=env, cwd=ROOT)
            self.port, self.base = port, f"http://127.0.0.1:{port}"
            try:
                _wait("the hub to read nats", self._reading)
                return
            except _Elsewhere:  # the port was taken meanwhile: the next one
                continue
        raise AssertionError("no port of the tests' range was free")

    def _reading(self) -> bool:
        if self.process.poll() is not None:
            if "cannot listen" in self.err.read_text():
                raise _Elsewhere
            raise AssertionError(f"the hub ended: {self.err.read_text()}")
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=10) as r:
                return json.loads(r.read())["nats"] is True
        except urllib.error.HTTPError:
            return False

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=PATIENCE) as r:
            return r.status, json.loads(r.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(PATIENCE)


class _Elsewhere(Exception):
    pass


@pytest.fixture
def hub(tmp_path: Path, nats_url: str) -> Iterator[HubProcess]:
    served = HubProcess(tmp_path, nats_url)
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def asked_hub(tmp_path_factory: pytest.TempPathFactory, nats_url: str) -> Iterator[HubProcess]:
    """One hub for the module's tests that only send it requests (each on a connection of its own,
    which the hub closes) and never stop it: started once for them, not once a test.  A test that
    stops the hub, or sets its options, has a hub of its own (:func:`hub`)."""
    served = HubProcess(tmp_path_factory.mktemp("hub"), nats_url)
    try:
        yield served
    finally:
        served.stop()


def _answer_of(sock: socket.socket) -> bytes:
    sock.settimeout(PATIENCE)
    answer = b""
    while chunk := sock.recv(4096):  # until the hub closes it
        answer += chunk
    sock.close()
    return answer


@pytest.mark.parametrize("garbage", [b"NOT HTTP AT ALL\r\n\r\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad header\r\n\r\n",
                                     b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"])
@real
def test_a_request_that_is_not_http_is_told_in_the_one_json_line(asked_hub: HubProcess, garbage: bytes) -> None:
    hub = asked_hub
    sock = socket.create_connection(("127.0.0.1", hub.port), timeout=PATIENCE)
    sock.sendall(garbage)
    answer = _answer_of(sock)
    assert answer.startswith(b"HTTP/1.1 400 "), answer
    head, body = answer.split(b"\r\n\r\n", 1)
    assert b"content-type: application/json" in head.lower()
    for name, value in SECURITY.items():
        assert f"{name}: {value}".lower().encode() in head.lower(), head
    said = json.loads(body)
    assert said["error"] == "the server could not read this request as HTTP: check the address and send it again"
    assert b"\n" not in body
    status, events = hub.get("/api/v1/events")  # the hub still serves
    assert status == 200 and events["events"] == []


@real
def test_one_address_holds_at_most_its_connections_and_this_computers_are_not_counted(
        tmp_path: Path, nats_url: str) -> None:
    served = HubProcess(tmp_path, nats_url, "--connections-per-device", "2")
    held: list[socket.socket] = []
    try:
        for _n in range(2):  # another device (127.0.0.2): two connections, each answered and kept open
            sock = socket.socket()
            sock.bind(("127.0.0.2", 0))
            sock.settimeout(PATIENCE)
            sock.connect(("127.0.0.1", served.port))
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: hub\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.1 200 ")
            held.append(sock)
        third = socket.socket()
        third.bind(("127.0.0.2", 0))
        third.connect(("127.0.0.1", served.port))
        answer = _answer_of(third)
        assert answer.startswith(b"HTTP/1.1 429 "), answer
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"].startswith("too many connections from this device")
        # This computer (a TLS proxy's address) is not counted: more than two at once are answered.
        mine = [socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE) for _n in range(4)]
        held += mine
        for sock in mine:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: hub\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.1 200 ")
    finally:
        for sock in held:
            sock.close()
        served.stop()


@real
def test_a_hub_stopped_with_sigterm_exits_143_after_saying_stopped(hub: HubProcess) -> None:
    hub.process.send_signal(signal.SIGTERM)
    assert hub.process.wait(timeout=PATIENCE) == 143
    out, err = hub.out.read_text(), hub.err.read_text()
    assert "Traceback" not in err, err
    assert out.splitlines()[-1] == "stopped", out


@real
def test_a_hub_stopped_with_sigterm_while_pages_follow_live_ends_their_streams_first(
        tmp_path: Path, own_nats_url: str) -> None:
    """The live streams open at the stop held it for uvicorn's grace, then were cancelled, each
    with a traceback in the hub's log.  Now the stop ends them at once (as Ctrl-C): 143, no
    traceback, "stopped"."""
    from tournament import open_event, pair_next_round
    from tournament.event.simulate import simulate_event

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 16, 1, seed=3)
    with open_event(path) as store:
        pair_next_round(store)
        event = store.uuid
    venue = serve(path, next(ports()), "--upstream", own_nats_url)
    hub = HubProcess(tmp_path, own_nats_url)
    try:
        _wait("the hub to hold the venue's event", lambda: hub.get("/api/v1/events")[1]["events"])
        followers = [urllib.request.urlopen(f"{hub.base}/e/{event}/live", timeout=PATIENCE) for _n in range(3)]
        for stream in followers:
            assert any(line.startswith(b"data: ") for line in stream)  # (the first number: it follows)
        hub.process.send_signal(signal.SIGTERM)
        assert hub.process.wait(timeout=PATIENCE) == 143
        for stream in followers:
            stream.close()
        out, err = hub.out.read_text(), hub.err.read_text()
        assert "Traceback" not in err, err
        assert "was lost" not in err, err  # (a stop is not a link lost: its reader is not warned of)
        assert out.splitlines()[-1] == "stopped", out
    finally:
        hub.stop()
        stop(venue)
