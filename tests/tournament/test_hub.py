"""A federation's hub over NATS JetStream (issue 41, docs/hub.md): two venues, each its event, publish to
a real ``nats-server -js`` on 127.0.0.1 that the test starts; a hub (``tournament hub``, a process of its
own) serves their pages and feed from the streams alone.  Results confirmed at the venues appear on the
hub; the NATS server stopped while the venues go on confirming, then started again: the hub catches up,
nothing lost, nothing doubled; the hub killed, a second one serves the same pages; a venue's credentials
refused on another venue's subject.  Every wait is a bounded poll on a condition, never a sleep.

Skipped, saying why, where ``nats-server`` or the ``nats-py`` client is missing."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable

import pytest

from tournament import enter_manual, open_event, pair_next_round
from tournament.event import feed
from tournament.event.simulate import simulate_event
from tests.tournament.helpers import copy_event
from tests.in_memory import tmp_path  # noqa: E402,F401  (files and databases written move by move: in memory)

NATS_SERVER = shutil.which("nats-server") or ("/usr/sbin/nats-server" if Path("/usr/sbin/nats-server").exists() else None)
try:
    import nats  # noqa: F401
except ImportError:  # pragma: no cover - where the client is not installed
    nats = None

pytestmark = [pytest.mark.skipif(NATS_SERVER is None, reason="nats-server is not installed (apt-get install nats-server)"),
              pytest.mark.skipif(nats is None, reason="the NATS client is not installed (pip install nats-py)"),
              pytest.mark.slow]

#: Generous: only turns a hang into a failure.
DEADLINE = 60.0
ROOT = Path(__file__).resolve().parents[2]


def wait_for(what: str, check: Callable[[], Any], deadline: float = DEADLINE) -> Any:
    end = time.monotonic() + deadline
    last: Any = None
    while time.monotonic() < end:
        try:
            last = check()
        except (OSError, ValueError, KeyError) as e:
            last = e
        else:
            if last:
                return last
        time.sleep(0.05)
    raise AssertionError(f"waited {deadline} s for {what}; last: {last!r}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def venue_permissions(event: str) -> str:
    stream = f"DOMREC-{event}"
    allowed = [f"domrec.event.{event}.>", "$JS.API.INFO", f"$JS.API.STREAM.CREATE.{stream}",
               f"$JS.API.STREAM.INFO.{stream}", f"$JS.API.STREAM.MSG.GET.{stream}"]
    return json.dumps({"publish": {"allow": allowed}, "subscribe": {"allow": ["_INBOX.>"]}})


HUB_PERMISSIONS = json.dumps({"publish": {"allow": ["$JS.API.INFO", "$JS.API.STREAM.LIST", "$JS.API.STREAM.NAMES",
                                                    "$JS.API.STREAM.INFO.*", "$JS.API.STREAM.MSG.GET.*"]},
                              "subscribe": {"allow": ["_INBOX.>", "domrec.event.>"]}})


class Nats:
    """A nats-server with JetStream on 127.0.0.1, a user a venue and a read-only hub."""

    def __init__(self, folder: Path, events: dict[str, str]) -> None:
        self.port = free_port()
        self.folder = folder
        users = [f'{{user: "{name}", password: "{name}-pw", permissions: {venue_permissions(event)}}}'
                 for name, event in events.items()]
        users.append(f'{{user: "hub", password: "hub-pw", permissions: {HUB_PERMISSIONS}}}')
        users.append('{user: "admin", password: "admin-pw"}')  # the federation's own: deletes a stream
        self.config = folder / "nats.conf"
        self.config.write_text(f'listen: "127.0.0.1:{self.port}"\n'
                               f'jetstream {{ store_dir: "{folder / "store"}" }}\n'
                               f'authorization {{ users: [\n  ' + ",\n  ".join(users) + "\n] }\n")
        self.url = f"nats://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([NATS_SERVER, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=open(self.folder / "nats.log", "ab"))

        def listening() -> bool:
            assert self.process is not None and self.process.poll() is None, (self.folder / "nats.log").read_text()
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True

        wait_for("nats-server to listen", listening)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
            self.process = None


def creds(folder: Path, user: str) -> Path:
    path = folder / f"{user}.creds"
    path.write_text(f"{user}:{user}-pw\n")
    return path


class HubProcess:
    def __init__(self, folder: Path, url: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen([sys.executable, "-m", "tournament.cli", "hub", "--nats", url, "--port",
                                         str(self.port), "--creds", str(creds(folder, "hub"))],
                                        stdout=subprocess.DEVNULL, stderr=open(folder / f"hub-{self.port}.log", "ab"),
                                        env=env, cwd=ROOT)
        wait_for("the hub to answer", lambda: self.get("/api/v1/events") is not None)

    def get(self, path: str) -> Any:
        assert self.process.poll() is None, "the hub has stopped"
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            body = r.read()
        return json.loads(body) if path.startswith("/api/") else body.decode("utf-8")

    def get_or_none(self, path: str) -> Any:
        try:
            return self.get(path)
        except urllib.error.HTTPError:
            return None

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(30)


#: The venues made in this module's process, by (name, seed): each test is given a copy of its own
#: (a venue's event is simulated once, not at every test that asks for it).  See :func:`_made`.
_MADE: dict[tuple[str, int], Path] = {}


@pytest.fixture(scope="module", autouse=True)
def _made(tmp_path_factory):
    """The folder of the venues made once for the module's tests (copied for each test)."""
    _MADE.clear()
    _MADE[("", 0)] = tmp_path_factory.mktemp("venues")
    yield
    _MADE.clear()


def make_venue(folder: Path, name: str, seed: int) -> Path:
    """A competitive rotating event of 16 players, round 1 played and round 2 paired: a copy, for
    this test alone, of the one simulated for ``(name, seed)`` the first time a test asked."""
    path = folder / f"{name}.db"
    made = _MADE.get((name, seed))
    if made is None:
        # (another module importing this helper has no folder of made venues: simulated for the test)
        made = _MADE[("", 0)] / f"{name}-{seed}.db" if ("", 0) in _MADE else path
        simulate_event(made, "competitive", "rotating", 16, 1, seed=seed)
        with open_event(made) as store:
            pair_next_round(store)
        if made == path:
            return path
        _MADE[(name, seed)] = made
    return copy_event(made, path)


def confirm(path: Path, table: int, ns: int, ew: int) -> None:
    with open_event(path) as store:
        enter_manual(store, table, {"NS": ns, "EW": ew})


def venue_view(path: Path) -> dict[str, Any]:
    with open_event(path) as store:
        return {"uuid": store.uuid, "standings": feed.standings(store), "changes": feed.all_changes(store),
                "latest": feed.event(store)["latest_seq"]}


def caught_up(hub: HubProcess, path: Path) -> bool:
    """The hub's feed of the venue's event says what the venue's says: every change, the standings."""
    venue = venue_view(path)
    event = venue["uuid"]
    got = hub.get_or_none(f"/api/v1/e/{event}/changes?since=0")
    if got is None or got["latest"] != venue["latest"]:
        return False
    standings = hub.get(f"/api/v1/e/{event}/standings")
    return got["changes"] == venue["changes"] and standings == json.loads(json.dumps(venue["standings"]))


def test_two_venues_a_hub_the_link_cut_and_a_second_hub(tmp_path: Path) -> None:
    from tournament.web.upstream import Upstream

    a, b = make_venue(tmp_path, "club-a", 3), make_venue(tmp_path, "club-b", 4)
    ids = {"club-a": venue_view(a)["uuid"], "club-b": venue_view(b)["uuid"]}
    server = Nats(tmp_path, ids)
    server.start()
    feeders = [Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2, club="Club A",
                        federation="FED").start(),
               Upstream(b, server.url, creds(tmp_path, "club-b"), poll=0.1, retry=0.2, club="Club B",
                        federation="FED").start()]
    hub = second = None
    try:
        hub = HubProcess(tmp_path, server.url)
        # Results confirmed at the venues appear on the hub: its feed and its pages.
        confirm(a, 1, 150, 90)
        confirm(b, 2, 80, 160)
        for path in (a, b):
            wait_for(f"the hub to hold {path.name}", lambda path=path: caught_up(hub, path))
        events = hub.get("/api/v1/events")["events"]
        assert sorted(e["id"] for e in events) == sorted(ids.values())
        assert {e["club"] for e in events} == {"Club A", "Club B"}
        index = hub.get("/")
        assert f'/e/{ids["club-a"]}/' in index and f'/e/{ids["club-b"]}/' in index
        standings = hub.get(f'/e/{ids["club-a"]}/standings')
        assert f'href="/e/{ids["club-a"]}/players/' in standings  # the venue's own page, its links under /e/ID
        # Round 1's games were recorded: their records are on the hub, and their replays.
        record = hub.get(f'/api/v1/e/{ids["club-a"]}/games/1/1')
        with open_event(a) as store:
            assert record == feed.game(store, 1, 1)
            text, digest = feed.game_text(store, 1, 1)
        from domrec import replay_page
        from domrec.reader import loads

        assert hub.get(f'/e/{ids["club-a"]}/games/1/1') == replay_page.page(loads(text), "round 1 table 1", digest,
                                                                                  switch=True)

        # The link cut: the venues go on confirming; back: the hub catches up, nothing lost or doubled.
        server.stop()
        wait_for("the venues to notice the link is down", lambda: not any(f.connected for f in feeders))
        confirm(a, 2, 120, 100)
        confirm(a, 3, 60, 200)
        confirm(b, 1, 210, 40)
        assert hub.get(f'/api/v1/e/{ids["club-a"]}/event')["latest_seq"] < venue_view(a)["latest"]
        server.start()
        for path in (a, b):
            wait_for(f"the hub to catch up with {path.name}", lambda path=path: caught_up(hub, path))
        page = hub.get(f'/e/{ids["club-a"]}/standings')

        # A hub killed: a second one, started now, serves the same pages from the streams alone.
        hub.kill()
        second = HubProcess(tmp_path, server.url)
        for path in (a, b):
            wait_for(f"the second hub to hold {path.name}", lambda path=path: caught_up(second, path))
        assert second.get(f'/e/{ids["club-a"]}/standings') == page

        # The federation's archive: every confirmed record, from the streams, validated by domrec.
        # (Both commands run in this process, through Typer's runner: the one-command form below runs
        # the archive and domrec's validate as real processes, with their exit code and summary.)
        from typer.testing import CliRunner

        from domrec.cli import app as domrec_app
        from tournament.cli import app as tournament_app

        season = tmp_path / "season.jsonl"
        made = CliRunner().invoke(tournament_app, ["archive", "--nats", server.url, "--creds",
                                                   str(creds(tmp_path, "hub")), "-o", str(season)])
        assert made.exit_code == 0, made.output
        recorded = 0
        for path in (a, b):
            with open_event(path) as store:
                recorded += sum(1 for r in feed.rounds(store) for t in r["tables"]
                                if t["result"] is not None and t["result"]["kind"] == "record")
        assert recorded and len(season.read_text().splitlines()) == recorded
        checked = CliRunner().invoke(domrec_app, ["validate", "-q", str(season)])
        assert checked.exit_code == 0, checked.output
        # In one command: the archive written and checked, domrec's summary and exit code.
        again = subprocess.run([sys.executable, "-m", "tournament.cli", "archive", "--nats", server.url, "--creds",
                                str(creds(tmp_path, "hub")), "-o", str(tmp_path / "again.jsonl"), "--validate"],
                               cwd=ROOT, capture_output=True, text=True)
        assert again.returncode == 0, again.stdout + again.stderr
        assert f"{recorded} records: {recorded} valid, 0 invalid, 0 unusable" in again.stderr
    finally:
        for f in feeders:
            f.close()
        for h in (hub, second):
            if h is not None and h.process.poll() is None:
                h.kill()
        server.stop()


def test_a_venue_cannot_write_another_venues_event(tmp_path: Path) -> None:
    from tournament.web.upstream import Upstream

    a, b = make_venue(tmp_path, "club-a", 3), make_venue(tmp_path, "club-b", 4)
    ids = {"club-a": venue_view(a)["uuid"], "club-b": venue_view(b)["uuid"]}
    server = Nats(tmp_path, ids)
    server.start()
    feeder = Upstream(b, server.url, creds(tmp_path, "club-b"), poll=0.1, retry=0.2).start()
    try:
        wait_for("club B's stream", lambda: feeder.connected and feeder.sent == venue_view(b)["latest"])
        asyncio.run(_refused(server.url, ids))
    finally:
        feeder.close()
        server.stop()


async def _refused(url: str, ids: dict[str, str]) -> None:
    import nats as client
    from nats.errors import TimeoutError as NatsTimeout

    problems: list[str] = []

    async def said(e: Exception) -> None:
        problems.append(str(e))

    nc = await client.connect(url, user="club-a", password="club-a-pw", error_cb=said, allow_reconnect=False)
    js = nc.jetstream(timeout=2)
    theirs = f'domrec.event.{ids["club-b"]}.change.999999'
    with pytest.raises((NatsTimeout, client.errors.NoRespondersError, client.js.errors.APIError)):
        await js.publish(theirs, b'{"seq": 999999}')
    for _ in range(200):  # the server's refusal arrives on its own (bounded)
        if problems:
            break
        await asyncio.sleep(0.01)
    assert any("permissions violation" in p.lower() for p in problems), problems
    with pytest.raises(Exception):  # nor may it read or make another venue's stream
        await js.stream_info(f'DOMREC-{ids["club-b"]}')
    await nc.close()
    hub = await client.connect(url, user="hub", password="hub-pw", allow_reconnect=False)
    info = await hub.jetstream(timeout=2).stream_info(f'DOMREC-{ids["club-b"]}')
    assert all(m is None for m in [await _lookup(hub, ids["club-b"], 999999)])
    assert info.state.messages > 0
    await hub.close()


async def _lookup(nc: Any, event: str, seq: int) -> Any:
    from nats.js.errors import NotFoundError

    try:
        return await nc.jetstream(timeout=2).get_msg(f"DOMREC-{event}", subject=f"domrec.event.{event}.change.{seq}")
    except NotFoundError:
        return None


def test_serve_upstream_feeds_the_hub_and_the_hubs_live_stream_hears_it(tmp_path: Path) -> None:
    """The venue as a director runs it (``tournament serve --upstream``), and a page on the hub
    following the event live: it hears of a result confirmed at the venue."""
    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    port = free_port()
    venue = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(a), "--port", str(port),
                              "--one-process", "--upstream", server.url, "--upstream-creds",
                              str(creds(tmp_path, "club-a")), "--club", "Club A"],
                             stdout=subprocess.DEVNULL, stderr=open(tmp_path / "venue.log", "ab"), cwd=ROOT)
    hub = None
    try:
        hub = HubProcess(tmp_path, server.url)
        wait_for("the hub to hold the venue's event", lambda: caught_up(hub, a))
        assert hub.get("/api/v1/events")["events"][0]["club"] == "Club A"
        with urllib.request.urlopen(f"{hub.base}/e/{event}/live", timeout=DEADLINE) as stream:
            first = _next_seq(stream)
            confirm(a, 4, 100, 120)
            assert _next_seq(stream) > first
        wait_for("the hub to hold the result", lambda: caught_up(hub, a))
        # The hub only reads: its user may not write an event's subjects.
        asyncio.run(_hub_cannot_write(server.url, event))
    finally:
        venue.terminate()
        venue.wait(30)
        if hub is not None:
            hub.kill()
        server.stop()


def _next_seq(stream: Any) -> int:
    """The next number a live stream sends (bounded by the stream's socket timeout)."""
    for line in stream:
        if line.startswith(b"data: "):
            return int(line[6:])
    raise AssertionError("the live stream ended")


async def _hub_cannot_write(url: str, event: str) -> None:
    import nats as client

    problems: list[str] = []

    async def said(e: Exception) -> None:
        problems.append(str(e))

    nc = await client.connect(url, user="hub", password="hub-pw", error_cb=said, allow_reconnect=False)
    with pytest.raises(Exception):
        await nc.jetstream(timeout=2).publish(f"domrec.event.{event}.change.999999", b"{}")
    assert await _lookup(nc, event, 999999) is None
    await nc.close()


def test_a_venue_started_while_nats_is_down_sends_everything_once_it_is_up(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from tournament.web import upstream
    from tournament.web.upstream import Upstream

    # A connection to a server that is not there is given up after CONNECT_DEADLINE (nats-py's own
    # connect waits on while it is refused): 5 s of the test doing nothing, for the same path
    # (the venue finds its upstream down, then tries again).  One second is still long beside a
    # connection to this computer once the server listens; a try that ran out is tried again.
    monkeypatch.setattr(upstream, "CONNECT_DEADLINE", 1.0)
    a = make_venue(tmp_path, "club-a", 3)
    server = Nats(tmp_path, {"club-a": venue_view(a)["uuid"]})
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
    try:
        confirm(a, 1, 150, 90)
        wait_for("the venue to find its upstream down", lambda: feeder.problem is not None)
        assert not feeder.connected and feeder.messages == 0
        server.start()
        wait_for("the venue to send its whole log", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"])
    finally:
        feeder.close()
        server.stop()


def _said(caplog: pytest.LogCaptureFixture, logger: str, text: str) -> int:
    """How many lines of ``logger`` said ``text``; and no line of it says what the one before it said
    (a problem is said when it changes, not at every try: a try that meets another problem on a
    loaded machine, a connection given up, is a change)."""
    lines = [r.getMessage() for r in caplog.records if r.name == logger]
    assert all(a != b for a, b in zip(lines, lines[1:])), lines
    return sum(1 for line in lines if text in line)


def test_a_venue_says_in_words_why_it_does_not_reach_its_upstream_once_a_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Down: "cannot reach nats at URL: Connection refused", not an empty TimeoutError; another
    club's credentials: the server's refusal, not "nats: timeout"; each said once however often
    it is tried again, and its end said once."""
    import logging

    from tournament.web import upstream
    from tournament.web.upstream import Upstream

    caplog.set_level(logging.WARNING, logger="tournament.upstream")
    # Each try while the server is down waits out CONNECT_DEADLINE (nats-py's own connect waits on
    # while it is refused), three of them before the server starts: one second a try, as in
    # test_a_venue_started_while_nats_is_down_sends_everything_once_it_is_up, not two.  The words
    # are the same (the refusal heard while connecting; a try that ran out once the server
    # listens is "no answer", a change said once, and is tried again).
    monkeypatch.setattr(upstream, "CONNECT_DEADLINE", 1.0)
    monkeypatch.setattr(upstream, "ACK_TIMEOUT", 2.0)
    a, b = make_venue(tmp_path, "club-a", 3), make_venue(tmp_path, "club-b", 4)
    server = Nats(tmp_path, {"club-a": venue_view(a)["uuid"], "club-b": venue_view(b)["uuid"]})
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.1).start()
    other = None
    try:
        down = f"cannot reach nats at {server.url}: Connection refused"
        wait_for("three tries", lambda: feeder.failures >= 3)
        assert feeder.problem == down and not feeder.connected
        assert feeder.state()["problem"] == down
        assert _said(caplog, "tournament.upstream", down) >= 1
        server.start()
        # (the line is logged just after ``connected`` is set, from the feeder's thread: waited for too)
        wait_for("the venue to send", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"]
                 and _said(caplog, "tournament.upstream", "sending again") >= 1)
        assert feeder.problem is None and _said(caplog, "tournament.upstream", "sending again") == 1

        # Club B's credentials on club A's event: the server refuses them; said once, in words.
        other = Upstream(a, server.url, creds(tmp_path, "club-b"), poll=0.1, retry=0.1).start()
        refused = (f"nats at {server.url} refused these credentials: they may not publish to "
                   f"$js.api.stream.info.domrec-{venue_view(a)['uuid']}")
        wait_for("three refusals", lambda: other.failures >= 3 and (other.problem or "").startswith(refused))
        assert _said(caplog, "tournament.upstream", refused) >= 1
        assert not any("TimeoutError" in r.getMessage() for r in caplog.records)
    finally:
        feeder.close()
        if other is not None:
            other.close()
        server.stop()


def test_a_hub_says_in_words_why_it_does_not_read_nats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    """A hub started while NATS is down says so at /healthz at once (not ``problem: null``); a hub
    given a venue's credentials is not healthy: the server's refusal, at /healthz and once in its log."""
    import logging

    from tournament.web import hub as hub_module, upstream
    from tournament.web.hub import StreamReader

    a = make_venue(tmp_path, "club-a", 3)
    server = Nats(tmp_path, {"club-a": venue_view(a)["uuid"]})
    hub = HubProcess(tmp_path, server.url)  # NATS not started
    try:
        def health() -> dict[str, Any]:
            try:
                urllib.request.urlopen(hub.base + "/healthz", timeout=10)
            except urllib.error.HTTPError as e:
                return json.loads(e.read())
            raise AssertionError("/healthz said the hub is healthy")

        assert health()["problem"] is not None
        found = wait_for("the hub to say why", lambda: (health()["problem"] or "").startswith("cannot reach") and health())
        assert found["nats"] is False and found["problem"] == f"cannot reach nats at {server.url}: Connection refused"
    finally:
        hub.kill()

    caplog.set_level(logging.WARNING, logger="tournament.hub")
    monkeypatch.setattr(upstream, "CONNECT_DEADLINE", 2.0)
    # Three refusals in a row, a tenth of a second apart rather than the hub's second: the same
    # attempts, the same words, without waiting out the pauses between them.
    monkeypatch.setattr(hub_module, "RETRY", 0.1)
    server.start()

    refused = f"nats at {server.url} refused these credentials: they may not subscribe to domrec.event.>"

    async def with_a_venues_credentials() -> StreamReader:
        reader = StreamReader(server.url, {"user": "club-a", "password": "club-a-pw"})
        reader.start()
        end = time.monotonic() + DEADLINE
        while (reader.failures < 3 or not (reader.problem or "").startswith(refused)) and time.monotonic() < end:
            assert not reader.connected
            await asyncio.sleep(0.05)
        await reader.stop()
        return reader

    try:
        reader = asyncio.run(with_a_venues_credentials())
        assert reader.failures >= 3 and not reader.connected
        assert reader.problem is not None and reader.problem.startswith(refused), reader.problem
        assert _said(caplog, "tournament.hub", refused) >= 1
    finally:
        server.stop()


def test_the_directors_api_says_whether_the_hub_is_fed(tmp_path: Path) -> None:
    """``GET /api/v1/director`` of ``serve --upstream``: ``upstream``, connected or the problem in words."""
    from tournament.event.venue import links

    a, b = make_venue(tmp_path, "club-a", 3), make_venue(tmp_path, "club-b", 4)
    server = Nats(tmp_path, {"club-a": venue_view(a)["uuid"], "club-b": venue_view(b)["uuid"]})
    server.start()
    port = free_port()
    venue = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(a), "--port", str(port),
                              "--one-process", "--upstream", server.url, "--upstream-creds",
                              str(creds(tmp_path, "club-b"))],  # another club's
                             stdout=subprocess.DEVNULL, stderr=open(tmp_path / "venue.log", "ab"), cwd=ROOT)
    try:
        with open_event(a) as store:
            token = links(store, f"http://127.0.0.1:{port}")["director"].rsplit("/", 1)[1]

        def upstream() -> dict[str, Any]:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/director",
                                             headers={"Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(request, timeout=10) as r:
                return json.loads(r.read())["upstream"]

        said = wait_for("the refusal", lambda: "refused these credentials" in (upstream()["problem"] or "") and upstream())
        assert said["connected"] is False and said["url"] == server.url and said["event"] == venue_view(a)["uuid"]
    finally:
        venue.terminate()
        venue.wait(30)
        server.stop()


def test_a_running_hub_drops_an_event_whose_stream_was_made_again(tmp_path: Path) -> None:
    """docs/hub.md's recovery for a venue restored from an older copy: the federation deletes the
    event's stream and the venue sends its log again.  A hub that was running then shows the
    restored venue's data, as a hub started afterwards does, not the stale results it held."""
    import sqlite3

    from tournament.web.upstream import Upstream

    a = make_venue(tmp_path, "club-a", 3)
    older = tmp_path / "club-a-older.db"
    with sqlite3.connect(a) as source, sqlite3.connect(older) as copy:
        source.backup(copy)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
    restored = hub = None
    try:
        hub = HubProcess(tmp_path, server.url)
        confirm(a, 1, 150, 90)
        confirm(a, 2, 80, 160)
        wait_for("the hub to hold the venue's results", lambda: caught_up(hub, a))
        feeder.close()

        async def delete() -> None:
            import nats as client

            nc = await client.connect(server.url, user="admin", password="admin-pw", allow_reconnect=False)
            await nc.jetstream(timeout=10).delete_stream(f"DOMREC-{event}")
            await nc.close()

        asyncio.run(delete())
        restored = Upstream(older, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
        wait_for("the restored venue to send its log", lambda: restored.connected and
                 restored.sent == venue_view(older)["latest"])
        wait_for("the running hub to show the restored venue's data", lambda: caught_up(hub, older))
    finally:
        feeder.close()
        if restored is not None:
            restored.close()
        if hub is not None:
            hub.kill()
        server.stop()
