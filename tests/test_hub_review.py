"""A federation's secretary's review of the hub (docs/hub.md): a request the NATS server refuses (a
subject these credentials may not use) fails as soon as the server's refusal is heard, not at the
request's timeout, so the director (``GET /api/v1/director``'s ``upstream.problem``) and the hub's
operator (``/healthz``) read why at once; a slow answer, or another error heard meanwhile, still
waits for the answer.

The tests against a real ``nats-server`` give every JetStream request a timeout of ten minutes: the
refusal is reported long before it (each wait is a bounded poll on a condition, never a timing
assertion).  Skipped, saying why, where ``nats-server`` or the ``nats-py`` client is missing."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.in_memory import tmp_path  # noqa: F401  (files and databases written move by move: in memory)
from tests.tournament.test_hub import NATS_SERVER, Nats, creds, make_venue, nats, venue_view, wait_for



def with_a_server(test: Any) -> Any:
    """A test against a real nats-server: skipped, saying why, where it or the client is missing."""
    test = pytest.mark.skipif(NATS_SERVER is None,
                              reason="nats-server is not installed (apt-get install nats-server)")(test)
    test = pytest.mark.skipif(nats is None, reason="the NATS client is not installed (pip install nats-py)")(test)
    return pytest.mark.slow(test)


#: A request's timeout in these tests: never reached, the refusal ends the request first.
LONG = 600.0
#: How long a test waits for the refusal to be reported: only turns a hang into a failure.
GUARD = 60.0


@pytest.fixture
def long_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every JetStream context made meanwhile waits :data:`LONG` seconds for an answer, whatever its
    caller asked (the hub's, the venue's and the archive's alike)."""
    from nats.aio.client import Client

    made = Client.jetstream

    def jetstream(self: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs["timeout"] = LONG
        return made(self, *args, **kwargs)

    monkeypatch.setattr(Client, "jetstream", jetstream)
    from tournament.web import upstream

    monkeypatch.setattr(upstream, "ACK_TIMEOUT", LONG)


# --- Heard.answer, without a server ----------------------------------------------------------------


def test_a_refusal_heard_ends_the_request_at_once_and_nothing_else_does() -> None:
    from nats import errors

    from tournament.web.link import Heard, Refused

    async def scenario() -> None:
        heard = Heard()
        answer: asyncio.Future = asyncio.get_running_loop().create_future()
        cancelled = asyncio.Event()

        async def request() -> str:
            try:
                return await answer
            except asyncio.CancelledError:
                cancelled.set()
                raise

        # A slow answer, another error heard meanwhile (not a refusal): the request waits for its answer.
        waiting = asyncio.ensure_future(heard.answer(request()))
        await asyncio.sleep(0)
        await heard.said(errors.SlowConsumerError(subject="x", reply="", sid=1, sub=None))
        await asyncio.sleep(0)
        assert not waiting.done()
        answer.set_result("fine")
        assert await waiting == "fine"

        # A refusal heard while a request waits: Refused at once, in the server's words; the request ended.
        never: asyncio.Future = asyncio.get_running_loop().create_future()

        async def refused_request() -> None:
            try:
                await never
            except asyncio.CancelledError:
                cancelled.set()
                raise

        cancelled.clear()
        waiting = asyncio.ensure_future(heard.answer(refused_request()))
        await asyncio.sleep(0)
        await heard.said(errors.Error('nats: permissions violation for publish to "$js.api.stream.list"'))
        with pytest.raises(Refused, match=r"they may not publish to \$js.api.stream.list"):
            await asyncio.wait_for(waiting, GUARD)
        assert cancelled.is_set()

        # A refusal heard before a request began is not this request's: it waits for its answer.
        answer2: asyncio.Future = asyncio.get_running_loop().create_future()
        waiting = asyncio.ensure_future(heard.answer(answer2))
        await asyncio.sleep(0)
        assert not waiting.done()
        answer2.set_result(7)
        assert await waiting == 7

    asyncio.run(scenario())


# --- against a real server -------------------------------------------------------------------------


@with_a_server
def test_a_venue_given_another_events_credentials_says_so_at_once(tmp_path: Path, long_requests: None) -> None:
    """Club B's credentials on club A's event: the director reads the server's refusal long before a
    request's timeout, and it is tried again (each refusal reported at once too)."""
    from tournament.web.upstream import Upstream

    a, b = make_venue(tmp_path, "club-a", 3), make_venue(tmp_path, "club-b", 4)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event, "club-b": venue_view(b)["uuid"]})
    server.start()
    other = Upstream(a, server.url, creds(tmp_path, "club-b"), poll=0.1, retry=0.1).start()
    try:
        refused = (f"nats at {server.url} refused these credentials: they may not publish to "
                   f"$js.api.stream.info.domrec-{event} (are they this event's?")
        wait_for("two refusals, reported", lambda: other.failures >= 2
                 and (other.state()["problem"] or "").startswith(refused), GUARD)
        assert other.state()["connected"] is False and other.state()["stopped"] is False and other.messages == 0
    finally:
        other.close()
        server.stop()


@with_a_server
def test_a_hub_whose_user_may_not_list_the_streams_says_so_at_once(tmp_path: Path, long_requests: None) -> None:
    """A hub's user that may read the events' subjects but not ask JetStream for its streams (a
    federation's configuration missing ``$JS.API.STREAM.LIST``): the hub's problem is the refusal,
    said long before a request's timeout."""
    from tournament.web.hub import StreamReader

    a = make_venue(tmp_path, "club-a", 3)
    server = Nats(tmp_path, {"club-a": venue_view(a)["uuid"]})
    reader_permissions = json.dumps({"publish": {"allow": ["$JS.API.INFO"]},
                                     "subscribe": {"allow": ["_INBOX.>", "domrec.event.>"]}})
    text = server.config.read_text()
    server.config.write_text(text.replace('{user: "admin"', f'{{user: "reader", password: "reader-pw", '
                                                            f'permissions: {reader_permissions}}},\n  {{user: "admin"'))
    server.start()
    refused = f"nats at {server.url} refused these credentials: they may not publish to $js.api.stream.list"

    async def read() -> StreamReader:
        reader = StreamReader(server.url, {"user": "reader", "password": "reader-pw"})
        reader.start()
        end = time.monotonic() + GUARD
        while not (reader.failures >= 1 and (reader.problem or "").startswith(refused)) and time.monotonic() < end:
            assert not reader.connected
            await asyncio.sleep(0.05)
        await reader.stop()
        return reader

    try:
        reader = asyncio.run(read())
        assert reader.failures >= 1 and not reader.connected, reader.problem
        assert (reader.problem or "").startswith(refused), reader.problem
    finally:
        server.stop()


@with_a_server
def test_the_archive_with_a_venues_credentials_is_refused_at_once(tmp_path: Path, long_requests: None) -> None:
    """``tournament archive`` given a venue's credentials: the server's refusal in words, at once."""
    from tournament.web.hub import read_all
    from tournament.web.link import Refused

    a = make_venue(tmp_path, "club-a", 3)
    server = Nats(tmp_path, {"club-a": venue_view(a)["uuid"]})
    server.start()
    try:
        with pytest.raises(Refused, match=r"they may not publish to \$js.api.stream.list"):
            asyncio.run(asyncio.wait_for(read_all(server.url, {"user": "club-a", "password": "club-a-pw"}), GUARD))
    finally:
        server.stop()



# --- pages' data forged with a venue's credentials --------------------------------------------------


def test_pages_data_no_venue_sent_is_skipped_and_the_venues_next_mends_a_forged_one(tmp_path: Path) -> None:
    """A message on the event's ``public`` subject that is gzipped JSON but not the venue's pages'
    data (no ``feed``, no ``public``, numbered a billion): skipped, said as the event's problem, the
    pages served as before (it was taken, and every page and the change log failed); a forged one
    shaped as the venue's, numbered past the venue's, is taken (the stream's order is the venue's)
    and the venue's next pages' data replaces it (it held the event's pages for ever)."""
    import gzip

    from tournament import enter_manual, open_event, pair_next_round
    from tournament.event.simulate import simulate_event
    from tournament.web import relay
    from tournament.web.hub import EventCache
    from tournament.web.upstream import outgoing

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 8, 1, seed=5)
    with open_event(path) as store:
        pair_next_round(store)
        event = relay.event_id(store.uuid)
        sent = list(outgoing(store, event, 0, None))
    cache = EventCache(event)
    seq = 0
    for m in sent:
        seq += 1
        assert cache.read(seq, m.subject, m.body, m.headers) is not None
    before = cache.data()
    subject = relay.public_subject(event)

    forged = gzip.compress(json.dumps({"seq": 10 ** 9, "revision": 10 ** 9}).encode())
    seq += 1
    assert cache.read(seq, subject, forged) is False
    assert "cannot be read" in (cache.problem or "")
    assert cache.data() == before and cache.feed_doc("event")["uuid"] and cache.changes_after(0, 10)["latest"]

    shaped = json.loads(gzip.decompress(sent[-1].body))
    shaped["seq"] = shaped["revision"] = 10 ** 9
    shaped["feed"]["event"]["name"] = "Forged"
    seq += 1
    assert cache.read(seq, subject, gzip.compress(json.dumps(shaped).encode())) is True
    assert cache.problem is None and cache.summary()["name"] == "Forged"

    with open_event(path) as store:  # the venue's next result: its pages' data mends the event's pages
        enter_manual(store, 1, {"NS": 150, "EW": 90})
        more = list(outgoing(store, event, sent[-1].seq, sent[-1].revision))
    for m in more:
        seq += 1
        cache.read(seq, m.subject, m.body, m.headers)
    assert cache.summary()["name"] != "Forged"
    assert cache.snapshot is not None and cache.snapshot["seq"] == more[-1].seq


# --- the director's page says the hub is not fed, and that the sending stopped for good ----------------


def test_the_directors_page_says_the_sending_stopped_for_good(tmp_path: Path) -> None:
    """Two histories of one event stop the sending for good: the director's page (not only the log
    and ``GET /api/v1/director``) says so, in the server's words, and that it waits for the server to
    be started again; a link merely down is said as such; nothing while the hub is fed."""
    from tests.browser import CHROMIUM, MISSING, launched

    if CHROMIUM is None:
        pytest.skip(MISSING)
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")
    from tournament import add_players, create_event, make_settings, pair_next_round
    from tournament.web.background import BackgroundVenue
    from tournament.web.upstream import HistoryDiffers

    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    state = {"url": "nats://127.0.0.1:4222", "event": "x", "connected": True, "problem": None, "stopped": False,
             "sent": 3, "messages": 4}
    venue = BackgroundVenue(path)
    venue.server.upstream_state = lambda: dict(state)
    try:
        with launched() as browser:
            page = browser.new_page()
            page.goto(venue.links["director"])
            page.wait_for_selector("#tables tbody tr", timeout=GUARD * 1000)
            assert page.locator("#upstream").is_hidden()

            state.update(connected=False, problem="cannot reach nats at nats://127.0.0.1:4222: Connection refused")
            page.wait_for_selector("#upstream:not([hidden])", timeout=GUARD * 1000)
            said = page.locator("#upstream").inner_text()
            assert "Not sent to the federation's hub just now" in said and "Connection refused" in said

            state.update(problem=str(HistoryDiffers(19)), stopped=True)
            page.wait_for_selector("#upstream[data-stopped=yes]", timeout=GUARD * 1000)
            said = page.locator("#upstream").inner_text()
            assert "has stopped until this server is started again" in said
            assert "holds a different change 19" in said and "restored from an older copy" in said
            page.close()
    finally:
        venue.close()


# --- a change's subject taken by a message no venue sends ---------------------------------------------


@with_a_server
def test_a_changes_subject_taken_by_garbage_stops_the_sending_and_says_why(tmp_path: Path) -> None:
    """Someone with the venue's credentials publishes ``garbage{`` on the subject of the venue's next
    change: the venue's change is refused there (the subject taken), and the stream's message has no
    digest; it was taken for an earlier version's change and the sending went on, the hub's change log
    ending for ever before it.  Now it is no change of any version: the sending stops, saying so."""
    from tournament.web import relay
    from tournament.web.upstream import Upstream
    from tests.tournament.test_hub import confirm

    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
    try:
        wait_for("the venue to send", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"], GUARD)
        taken = venue_view(a)["latest"] + 1

        async def garbage() -> None:
            import nats as client

            nc = await client.connect(server.url, user="club-a", password="club-a-pw", allow_reconnect=False)
            await nc.jetstream(timeout=10).publish(relay.change_subject(event, taken), b"garbage{")
            await nc.close()

        asyncio.run(garbage())
        confirm(a, 1, 150, 90)
        wait_for("the venue to stop", lambda: feeder.stopped, GUARD)
        state = feeder.state()
        assert state["stopped"] is True and state["connected"] is False
        assert f"holds a message that is no change on change {taken}'s subject" in state["problem"]
        assert f"nats stream rm DOMREC-{event}" in state["problem"]
    finally:
        feeder.close()
        server.stop()


def test_a_forged_tables_status_is_skipped_and_the_hub_reads_on() -> None:
    """A change on the event's subjects shaped as a table's status but not as a venue shapes one
    (its data a list, its round a list, no table): skipped, said as the event's problem, not kept;
    it raised out of the reading of every stream (the hub's link taken for down for all events, its
    problem ``AttributeError: 'list' object has no attribute 'get'``)."""
    from tournament.web import relay
    from tournament.web.hub import EventCache

    event = "0b7bd2b6-3f7a-4e0b-9d55-6c3f1f4a9a10"
    cache = EventCache(event)
    forged = [{"seq": 5, "kind": "table_status", "round": 1, "table": 1, "data": []},
              {"seq": 6, "kind": "table_status", "round": [1], "table": 1, "data": {"status": "playing"}},
              {"seq": 7, "kind": "table_status", "round": 1, "data": {"status": "playing"}},
              {"seq": 8, "kind": "table_status", "round": 1, "table": "x", "data": {"status": "playing"}}]
    for n, change in enumerate(forged, 1):
        assert cache.read(n, relay.change_subject(event, change["seq"]), json.dumps(change).encode()) is False
    assert not cache.changes and not cache.statuses
    assert all(f"change.{c['seq']})" in (cache.problem or "") for c in forged), cache.problem
    good = {"seq": 5, "kind": "table_status", "round": 1, "table": 1, "at": "2026-12-07T00:00:00+00:00",
            "data": {"status": "playing"}}
    assert cache.read(9, relay.change_subject(event, 5), json.dumps(good).encode()) is True
    assert cache.statuses[(1, 1)] == (5, "playing") and cache.changes[5] == good


def test_a_public_document_too_big_unpacked_is_refused_before_it_is_unpacked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A message of a megabyte gzipped may hold a gigabyte (a club's credentials publish it on the
    event's ``public`` subject, and every hub unpacked it whole into memory): past
    :data:`relay.MAX_UNPACKED` it is refused, said, and the hub keeps what it held."""
    import gzip

    from tournament.web import relay
    from tournament.web.hub import EventCache

    monkeypatch.setattr(relay, "MAX_UNPACKED", 100_000, raising=False)
    bomb = gzip.compress(json.dumps({"seq": 1, "revision": 1, "padding": "0" * 1_000_000}).encode())
    assert len(bomb) < 10_000
    with pytest.raises(relay.BadMessage, match="more than 100,000 bytes unpacked"):
        relay.unpack(bomb)
    event = "0b7bd2b6-3f7a-4e0b-9d55-6c3f1f4a9a10"
    cache = EventCache(event)
    assert cache.read(1, relay.public_subject(event), bomb) is False
    assert "more than 100,000 bytes unpacked" in (cache.problem or "") and cache.snapshot is None
    small = {"a": {1: "b"}, "c": [1, 2]}
    assert relay.unpack(relay.pack(small)) == small  # (the venue's own, as before)


# --- the archive says what it could not read --------------------------------------------------------


def test_the_archive_says_each_message_it_could_not_read_and_exits_1(tmp_path: Path, monkeypatch) -> None:
    """An event's message the hub cannot read (forged with a venue's credentials) may have held what
    the archive should: ``tournament archive`` wrote what it could read and said nothing, exit 0 (only
    the log had it); now a line a message on stderr and exit 1, the archive still written."""
    pytest.importorskip("nats")
    from typer.testing import CliRunner

    from tournament.cli import app
    from tournament.event.simulate import simulate_event
    from tournament.web import hub, relay
    from tournament.web.hub import EventCache
    from tournament import open_event
    from tournament.web.upstream import outgoing

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 8, 2, seed=5)
    with open_event(path) as store:
        event = relay.event_id(store.uuid)
        sent = list(outgoing(store, event, 0, None))
    cache = EventCache(event)
    for seq, m in enumerate(sent, 1):
        cache.read(seq, m.subject, m.body, m.headers)
    cache.read(len(sent) + 1, relay.public_subject(event), b"not gzip")  # (a forged message)
    assert cache.unreadable

    async def read_all(url: str, options: Any) -> dict[str, EventCache]:
        return {event: cache}

    monkeypatch.setattr(hub, "read_all", read_all)
    out = tmp_path / "season.jsonl"
    result = CliRunner().invoke(app, ["archive", "--nats", "nats://127.0.0.1:4222", "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert f"error: event {event}: message {len(sent) + 1} (" in result.output
    assert "the archive may lack what it held" in result.output
    assert out.exists() and f"{out}: " in result.output and "records of 1 events" in result.output
    assert "Traceback" not in result.output

    cache.unreadable.clear()  # a stream read whole: exit 0, nothing said
    out.unlink()
    result = CliRunner().invoke(app, ["archive", "--nats", "nats://127.0.0.1:4222", "-o", str(out)])
    assert result.exit_code == 0 and "error:" not in result.output
