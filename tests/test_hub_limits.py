"""The federation's streams bounded, a venue not fooled by a forged last message, and the hub's
``/healthz`` telling of what the streams hold now (docs/hub.md, "Limits of a stream" and "When a part
fails").

* A venue makes its event's stream with limits (the most it holds, its largest message, the newest
  refused once full): a venue's credentials could fill the federation's disk before.  A stream full,
  or a message larger than it takes, is said in words to the director (``upstream.problem``) and once
  in the log; the event file is untouched, and the rest is sent once the federation raises the limit
  (``tournament stream``, which also makes a stream before its venue sends).
* A message forged with a venue's credentials, last on its stream, without a ``Domrec-Seq`` (or with
  one that is no number, or numbered past the event) made the restarting venue send its whole log
  again (or fail every second): it now resumes where its last change stopped.
* A message the hub could not read is a problem at ``/healthz`` while the stream holds it: once the
  federation removes it, the problem is cleared.

The tests against a real ``nats-server`` are marked slow and skipped, saying why, where it or the
``nats-py`` client is missing; every wait is a bounded poll on a condition, never a timing assertion."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.in_memory import tmp_path  # noqa: F401  (files and databases written move by move: in memory)
from tests.tournament.test_hub import (NATS_SERVER, HubProcess, Nats, confirm, creds, make_venue, nats, venue_view,
                                       wait_for)


def with_a_server(test: Any) -> Any:
    """A test against a real nats-server: skipped, saying why, where it or the client is missing."""
    test = pytest.mark.skipif(NATS_SERVER is None,
                              reason="nats-server is not installed (apt-get install nats-server)")(test)
    test = pytest.mark.skipif(nats is None, reason="the NATS client is not installed (pip install nats-py)")(test)
    return pytest.mark.slow(test)


async def _as(url: str, user: str, work: Any) -> Any:
    """``work(js)`` on a connection of ``user`` (the test's NATS users: ``USER``/``USER-pw``)."""
    import nats as client

    nc = await client.connect(url, user=user, password=f"{user}-pw", allow_reconnect=False)
    try:
        return await work(nc.jetstream(timeout=10))
    finally:
        await nc.close()


def _info(url: str, event: str) -> Any:
    from tournament.web import relay

    return asyncio.run(_as(url, "admin", lambda js: js.stream_info(relay.stream_name(event))))


def _said(caplog: pytest.LogCaptureFixture, text: str) -> int:
    return sum(1 for r in caplog.records if r.name == "tournament.upstream" and text in r.getMessage())


# --- without a server ---------------------------------------------------------------------------------


def test_where_a_venue_stopped_is_read_off_its_own_messages_only() -> None:
    """``Domrec-Seq`` counts on a venue's subjects, a whole number, a change's its own number; a
    message forged on another subject, or without a number, is no venue's."""
    from tournament.web import relay

    e = "4b738ec1-5927-4bc7-875d-c2537b31b070"
    seq = relay.SEQ_HEADER
    assert relay.sent_by(relay.change_subject(e, 12), {seq: "12"}, e) == 12
    assert relay.sent_by(relay.public_subject(e), {seq: "12"}, e) == 12
    assert relay.sent_by(relay.game_subject(e, 2, 3), {seq: "11"}, e) == 11
    assert relay.sent_by(relay.change_subject(e, 12), {seq: "13"}, e) is None  # a change says its own number
    assert relay.sent_by(relay.change_subject(e, 12), None, e) is None
    assert relay.sent_by(f"domrec.event.{e}.junk", {seq: "12"}, e) is None
    for forged in ("", "abc", "-1", "1e3", "١٢", "9" * 40):
        assert relay.sent_by(relay.public_subject(e), {seq: forged}, e) is None, forged
    assert relay.sent_by(relay.public_subject("00000000-0000-0000-0000-000000000000"), {seq: "12"}, e) is None


def test_a_stream_is_made_bounded_and_sizes_are_read_as_a_federation_writes_them() -> None:
    from tournament.cli.hub import size_of
    from tournament.errors import UnusableInput
    from tournament.web import relay

    e = "4b738ec1-5927-4bc7-875d-c2537b31b070"
    made = relay.stream_limits(e)
    assert made["max_bytes"] == relay.MAX_STREAM_BYTES and made["max_msg_size"] == relay.MAX_MESSAGE_BYTES
    assert made["discard"] == "new" and made["max_msgs_per_subject"] == 1 and made["subjects"] == [relay.subjects(e)]
    # A 250-table event's whole log is some 60 MB, its largest message some 0.35 MB: far inside.
    assert relay.MAX_STREAM_BYTES >= 10 * 60_000_000 and relay.MAX_MESSAGE_BYTES >= 10 * 350_000
    assert [size_of(t, "--max-bytes") for t in ("1GiB", "500MB", "64 KB", "8388608", "2kib")] == \
        [1024 ** 3, 500_000_000, 64_000, 8_388_608, 2048]
    for bad in ("", "lots", "0", "1.5GB", "-1MB", "12 parsecs"):
        with pytest.raises(UnusableInput, match="--max-bytes"):
            size_of(bad, "--max-bytes")


def test_a_problem_is_cleared_once_its_message_is_gone_from_the_stream() -> None:
    """The hub looks again for each message it could not read: one the stream no longer holds (the
    federation removed it) has its problem cleared; one still there stays a problem, as does one
    read again since on the same subject (another message: its own problem)."""
    from nats.js.errors import NotFoundError

    from tournament.web import relay
    from tournament.web.hub import EventCache, StreamReader

    e = "4b738ec1-5927-4bc7-875d-c2537b31b070"
    held = {5, 9}

    class Stream:
        asked: list[int] = []

        async def get_msg(self, name: str, seq: int) -> Any:
            assert name == relay.stream_name(e)
            self.asked.append(seq)
            if seq not in held:
                raise NotFoundError()
            return object()

    async def scenario() -> None:
        reader = StreamReader("nats://127.0.0.1:4333")
        cache = reader.events[e] = EventCache(e)
        assert cache.read(5, f"domrec.event.{e}.junk", b"garbage{") is False
        assert cache.read(7, f"domrec.event.{e}.other", b"garbage{") is False
        assert cache.read(9, relay.public_subject(e), b"garbage{") is False
        assert len(cache.unreadable) == 3
        await reader._still_there(Stream())
        assert sorted(Stream.asked) == [5, 7, 9]
        assert set(cache.unreadable) == {f"domrec.event.{e}.junk", relay.public_subject(e)}
        held.discard(5)  # the federation removes message 5 (nats stream rmm)
        await reader._still_there(Stream())
        assert set(cache.unreadable) == {relay.public_subject(e)} and "message 9" in (cache.problem or "")
        cache.gone(relay.public_subject(e), 8)  # another message than the one that could not be read
        assert set(cache.unreadable) == {relay.public_subject(e)}

    asyncio.run(scenario())


def test_the_hub_looks_again_for_a_bounded_number_of_messages_the_longest_unchecked_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tournament.web import hub as hub_module
    from tournament.web.hub import EventCache, StreamReader

    e = "4b738ec1-5927-4bc7-875d-c2537b31b070"
    monkeypatch.setattr(hub_module, "RECHECKED", 2)
    asked: list[int] = []

    class Stream:
        async def get_msg(self, name: str, seq: int) -> Any:
            asked.append(seq)
            return object()

    async def scenario() -> None:
        reader = StreamReader("nats://127.0.0.1:4333")
        cache = reader.events[e] = EventCache(e)
        for seq in (1, 2, 3):
            cache.read(seq, f"domrec.event.{e}.junk{seq}", b"x")
        for _ in range(3):
            await reader._still_there(Stream())

    asyncio.run(scenario())
    assert len(asked) == 6 and sorted(asked[:2]) == [1, 2] and asked[2] == 3 and set(asked) == {1, 2, 3}


# --- against a real server ------------------------------------------------------------------------------


@with_a_server
def test_a_venue_makes_its_stream_bounded(tmp_path: Path) -> None:
    from tournament.web import relay
    from tournament.web.upstream import Upstream

    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
    try:
        wait_for("the venue to send its log", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"])
        config = _info(server.url, event).config
        assert config.max_bytes == relay.MAX_STREAM_BYTES and config.max_msg_size == relay.MAX_MESSAGE_BYTES
        assert getattr(config.discard, "value", config.discard) == "new" and config.max_msgs_per_subject == 1
    finally:
        feeder.close()
        server.stop()


@with_a_server
def test_a_full_stream_is_said_plainly_the_file_kept_and_the_rest_sent_once_raised(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The venue's stream made small: it fills part way through the log.  The director reads why (the
    stream full, nothing lost), the log says it once, the sending waits (not stopped for good), the
    event file is as it was; the federation raises the limit (``tournament stream``): the rest is sent."""
    from typer.testing import CliRunner

    from tournament.cli import app
    from tournament.event import feed
    from tournament import open_event
    from tournament.web.upstream import Upstream

    caplog.set_level(logging.WARNING, logger="tournament.upstream")
    a = make_venue(tmp_path, "club-a", 3)
    before = venue_view(a)
    event = before["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.1, max_bytes=30_000).start()
    try:
        full = f"the federation's stream DOMREC-{event} is full"
        wait_for("the venue to find its stream full, three times",
                 lambda: feeder.failures >= 3 and (feeder.state()["problem"] or "").startswith(full))
        state = feeder.state()
        assert state["connected"] is False and state["stopped"] is False
        assert "Nothing is lost: the event file keeps it all" in state["problem"]
        assert (state["sent"] or 0) < before["latest"] and f"after change {state['sent']} " in state["problem"]
        assert _info(server.url, event).state.bytes <= 30_000
        assert _said(caplog, full) == 1  # said once, not at every try
        with open_event(a) as store:
            assert feed.all_changes(store) == before["changes"]  # the event file: untouched
        confirm(a, 1, 150, 90)  # the hall goes on; its result waits in the file too

        raised = CliRunner().invoke(app, ["stream", event, "--nats", server.url, "--creds",
                                          str(creds(tmp_path, "admin")), "--max-bytes", "10MB"])
        assert raised.exit_code == 0, raised.output
        assert f"DOMREC-{event}: changed: it holds at most 10,000,000 bytes" in raised.output
        wait_for("the rest to be sent", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"])
        assert feeder.state()["problem"] is None
    finally:
        feeder.close()
        server.stop()


@with_a_server
def test_a_message_larger_than_the_stream_takes_is_said_plainly(tmp_path: Path) -> None:
    from tournament.web.upstream import Upstream

    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.1, max_message=4_000).start()
    try:
        said = wait_for("the venue to say a message is too large",
                        lambda: "is larger than the federation's stream" in (feeder.state()["problem"] or "")
                        and feeder.state())
        assert said["problem"].startswith("a message of ") and f"domrec.event.{event}.game." in said["problem"]
        assert f"DOMREC-{event} takes (its largest message)" in said["problem"]
        assert said["connected"] is False and said["stopped"] is False
    finally:
        feeder.close()
        server.stop()


@with_a_server
def test_a_message_larger_than_the_nats_server_takes_is_said_plainly(tmp_path: Path) -> None:
    """The server's own ``max_payload`` (1 MB unless raised), met before the stream's: said as such."""
    from tournament.web.upstream import Upstream

    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.config.write_text("max_payload: 4000\n" + server.config.read_text())
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.1).start()
    try:
        said = wait_for("the venue to say a message is too large",
                        lambda: "(the NATS server's max_payload)" in (feeder.state()["problem"] or "")
                        and feeder.state())
        assert said["problem"].startswith("a message of ") and "raises its NATS server's max_payload" in said["problem"]
        assert said["connected"] is False and said["stopped"] is False
    finally:
        feeder.close()
        server.stop()


@with_a_server
def test_the_federation_makes_a_stream_before_its_venue_sends(tmp_path: Path) -> None:
    """``tournament stream``: the federation makes the stream with its own limits; the venue (whose
    user then needs no right to make streams) sends into it."""
    from typer.testing import CliRunner

    from tournament.cli import app
    from tournament.web.upstream import Upstream

    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.config.write_text(server.config.read_text().replace(f'"$JS.API.STREAM.CREATE.DOMREC-{event}", ', ""))
    server.start()
    feeder = None
    try:
        made = CliRunner().invoke(app, ["stream", event.upper(), "--nats", server.url, "--creds",
                                        str(creds(tmp_path, "admin")), "--max-bytes", "2GiB", "--max-message", "1MiB"])
        assert made.exit_code == 0, made.output
        assert made.output.startswith(f"DOMREC-{event}: made: it holds at most 2,147,483,648 bytes, a message at "
                                      f"most 1,048,576 bytes")
        feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
        wait_for("the venue to send its log", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"])
        held = _info(server.url, event)
        assert held.config.max_bytes == 2 * 1024 ** 3
        # A limit below what the stream holds is refused (JetStream would drop the event's first messages).
        lower = CliRunner().invoke(app, ["stream", event, "--nats", server.url, "--creds",
                                         str(creds(tmp_path, "admin")), "--max-bytes", "1KB"])
        assert lower.exit_code == 2 and f"DOMREC-{event} holds {held.state.bytes:,} bytes already" in lower.output
        assert _info(server.url, event).state == held.state
    finally:
        if feeder is not None:
            feeder.close()
        server.stop()


@with_a_server
@pytest.mark.parametrize("forged", [None, "abc", "999999"], ids=["no-seq", "not-a-number", "past-the-event"])
def test_a_forged_last_message_does_not_make_a_restarting_venue_send_its_log_again(
        tmp_path: Path, forged: str | None) -> None:
    """A message published with the venue's credentials on a subject of its event, last on the stream:
    without ``Domrec-Seq`` (the venue sent its whole log again), with one that is no number (it failed
    every second), with one past the event (it took the file for an older copy).  The venue started
    again sends only the pages' data, as after any restart, and no change or game again."""
    from tournament.web import relay
    from tournament.web.upstream import Upstream

    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
    again = None
    try:
        wait_for("the venue to send its log", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"]
                 and feeder.revision is not None)
        feeder.close()
        headers = None if forged is None else {relay.SEQ_HEADER: forged}
        asyncio.run(_as(server.url, "club-a",
                        lambda js: js.publish(f"domrec.event.{event}.junk", b"garbage{", headers=headers)))
        last = _info(server.url, event).state.last_seq

        again = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
        wait_for("the venue started again to send", lambda: again.connected and again.revision is not None
                 and again.sent == venue_view(a)["latest"])
        assert again.problem is None
        # Its pages' data alone (stored once: within the duplicate window, the same message id is a duplicate);
        # before, every change and game of the log again (each acknowledged as a duplicate, or refused).
        assert again.messages == 1 and _info(server.url, event).state.last_seq <= last + 1
    finally:
        feeder.close()
        if again is not None:
            again.close()
        server.stop()


@with_a_server
def test_healthz_clears_a_problem_once_the_federation_removes_its_message(tmp_path: Path) -> None:
    """A message no venue sends, on a subject the venue never sends to: the hub says so at /healthz
    while the stream holds it, and no longer once the federation removes it (nats stream rmm)."""
    from tournament.web import relay
    from tournament.web.upstream import Upstream

    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    feeder = Upstream(a, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()
    hub = None
    try:
        wait_for("the venue to send its log", lambda: feeder.connected and feeder.sent == venue_view(a)["latest"])
        hub = HubProcess(tmp_path, server.url)

        def health() -> dict[str, Any]:
            with urllib.request.urlopen(hub.base + "/healthz", timeout=10) as r:
                return json.loads(r.read())

        ack = asyncio.run(_as(server.url, "club-a", lambda js: js.publish(f"domrec.event.{event}.junk", b"garbage{")))
        said = wait_for("the hub to say it cannot read it", lambda: event in health()["unreadable"] and health())
        assert f"message {ack.seq} (domrec.event.{event}.junk) cannot be read" in said["unreadable"][event]
        assert hub.get("/api/v1/events")["events"][0]["problem"] == said["unreadable"][event]

        asyncio.run(_as(server.url, "admin", lambda js: js.delete_msg(relay.stream_name(event), ack.seq)))
        wait_for("the problem to be cleared", lambda: health()["unreadable"] == {})
        assert hub.get("/api/v1/events")["events"][0]["problem"] is None
    finally:
        feeder.close()
        if hub is not None:
            hub.kill()
        server.stop()
