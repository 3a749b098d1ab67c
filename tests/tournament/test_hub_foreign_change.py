"""A change on an event's stream that its venue did not write (docs/hub.md, "When a part fails").

Someone with publish rights on the event's subjects (the venue's credentials, copied) puts a change
numbered past the event on its stream: ``change.<N+1000>``, its ``Domrec-Seq`` saying so.  A venue
restarting read where it had stopped off the stream's last change, took it for its own, and then
refused every second to send anything ("the stream holds change N+1000 but the event file's last is
N: … restored from a copy?"): the hub got nothing more of the event, and the director was told of a
copy that does not exist.

A venue stores its changes in order, each on an empty subject: its change K always after its change
K-1.  A change stored out of order is no venue's, not another history: the venue now resumes from the
last change of its own on the stream, sends what follows, and says (once in its log, and in the
director's API and page, ``upstream.warning``) how many changes it did not write the stream holds and
the first.  Only the change whose subject such a message holds cannot be sent: there the sending waits,
saying which message the federation removes (``nats stream rmm``), and goes on by itself once it is.

A real ``nats-server -js`` on 127.0.0.1 (tests/tournament/test_hub.py's); every wait a bounded poll on
a condition, never a sleep.  Skipped, saying why, where ``nats-server`` or ``nats-py`` is missing."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.in_memory import tmp_path  # noqa: F401  (files and databases written move by move: in memory)
from tests.tournament.test_hub import NATS_SERVER, Nats, confirm, creds, make_venue, nats, venue_view, wait_for
from tournament import open_event
from tournament.event import changes
from tournament.web import relay

pytestmark = [pytest.mark.skipif(NATS_SERVER is None, reason="nats-server is not installed (apt-get install nats-server)"),
              pytest.mark.skipif(nats is None, reason="the NATS client is not installed (pip install nats-py)"),
              pytest.mark.slow]


async def _as(url: str, user: str, work: Any) -> Any:
    """``work(js)`` on a connection of ``user`` (the test's NATS users: ``USER``/``USER-pw``)."""
    import nats as client

    nc = await client.connect(url, user=user, password=f"{user}-pw", allow_reconnect=False)
    try:
        return await work(nc.jetstream(timeout=10))
    finally:
        await nc.close()


def forge(url: str, event: str, seq: int) -> int:
    """A change ``seq`` published by hand with club A's credentials, as a venue would send it (its
    ``Domrec-Seq``, a digest, a change's JSON): its message's number on the stream."""
    body = json.dumps({"seq": seq, "at": "2026-12-07T09:00:00Z", "kind": "result_entered", "round": 2, "table": 1,
                       "data": {"kind": "score", "scores": {"NS": 999, "EW": 0}, "winner": "NS", "verified": True}})
    headers = {relay.SEQ_HEADER: str(seq), relay.DIGEST_HEADER: "0" * 64}
    ack = asyncio.run(_as(url, "club-a", lambda js: js.publish(relay.change_subject(event, seq), body.encode(),
                                                               headers=headers)))
    return ack.seq


def stored_change(url: str, event: str, seq: int) -> Any:
    return asyncio.run(_as(url, "admin", lambda js: js.get_msg(relay.stream_name(event),
                                                               subject=relay.change_subject(event, seq))))


def remove(url: str, event: str, message: int) -> None:
    """The federation removes one message (``nats stream rmm DOMREC-… MESSAGE``)."""
    asyncio.run(_as(url, "admin", lambda js: js.delete_msg(relay.stream_name(event), message)))


def digest_of(path: Path, seq: int) -> str:
    with open_event(path) as store:
        return relay.change_digest(changes.changes_since(store, seq - 1, 1)[0])


def in_step(feeder: Any, path: Path) -> bool:
    return feeder.connected and feeder.sent == venue_view(path)["latest"]


def settled(feeder: Any) -> bool:
    """The sender has either sent (connected) or tried twice and failed: its verdict is in."""
    return feeder.connected or feeder.failures >= 2 or feeder.stopped


def _sender(path: Path, server: Nats, tmp_path: Path) -> Any:
    from tournament.web.upstream import Upstream

    return Upstream(path, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()


def _club_a(tmp_path: Path) -> tuple[Path, str, Nats]:
    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    return a, event, server


def _warnings(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tournament.upstream" and text in r.getMessage()]


def test_a_change_forged_past_the_event_does_not_stop_a_restarting_venue_and_is_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="tournament.upstream")
    a, event, server = _club_a(tmp_path)
    stream = relay.stream_name(event)
    feeder = _sender(a, server, tmp_path)
    again = None
    try:
        wait_for("the venue to send its log", lambda: in_step(feeder, a))
        feeder.close()
        n = venue_view(a)["latest"]
        message = forge(server.url, event, n + 1000)

        again = _sender(a, server, tmp_path)
        wait_for("the venue started again to settle", lambda: settled(again))
        state = again.state()
        assert state["connected"] is True and state["problem"] is None and state["stopped"] is False, state
        assert state["sent"] == n
        said = (f"the federation's stream {stream} holds 1 change this venue did not write, out of order past its "
                f"own (the first: change {n + 1000}, the stream's message {message}; sent by hand with this venue's "
                f"credentials?): this venue sends on after its change {n}, and waits at change {n + 1000} until the "
                f"federation removes it (nats stream rmm {stream} {message}); see docs/hub.md")
        assert state["warning"] == said
        # What the venue logs next is sent, the forged change left where it is.
        confirm(a, 1, 150, 90)
        wait_for("the venue to send its new changes", lambda: in_step(again, a))
        assert venue_view(a)["latest"] > n
        for seq in range(n + 1, venue_view(a)["latest"] + 1):
            assert stored_change(server.url, event, seq).headers[relay.DIGEST_HEADER] == digest_of(a, seq)
        assert again.state()["warning"] == said and again.problem is None
        assert _warnings(caplog, "did not write") == [f"upstream {server.url}: {said}"]  # said once
    finally:
        feeder.close()
        if again is not None:
            again.close()
        server.stop()


def test_a_forged_change_on_a_subject_the_venue_needs_waits_until_it_is_removed(tmp_path: Path) -> None:
    """The forged change is numbered just past the venue's next: the venue sends up to it, then waits
    there, saying which message the federation removes; removed, it sends on by itself, its own change
    in its place, and the warning is over."""
    a, event, server = _club_a(tmp_path)
    stream = relay.stream_name(event)
    feeder = _sender(a, server, tmp_path)
    again = None
    try:
        wait_for("the venue to send its log", lambda: in_step(feeder, a))
        feeder.close()
        n = venue_view(a)["latest"]
        taken = n + 2
        message = forge(server.url, event, taken)

        again = _sender(a, server, tmp_path)
        wait_for("the venue started again to settle", lambda: settled(again))
        assert again.connected and again.sent == n and again.problem is None
        assert f"(the first: change {taken}, the stream's message {message};" in (again.warning or "")
        for table, ns in ((1, 150), (2, 80)):
            confirm(a, table, ns, 100)
        assert venue_view(a)["latest"] >= taken
        wait_for("the venue to wait at the forged change", lambda: not again.connected and again.failures >= 1
                 and again.sent == taken - 1)
        state = again.state()
        assert state["stopped"] is False  # waits: the federation can mend it
        assert state["problem"] == (
            f"the federation's stream {stream} holds a change {taken} this venue did not write (the stream's message "
            f"{message}, stored out of order: sent by hand with this venue's credentials?), on the subject of this "
            f"venue's own change {taken}: nothing from change {taken} on is sent until the federation removes it "
            f"(nats stream rmm {stream} {message}); this venue then sends on by itself; see docs/hub.md")

        remove(server.url, event, message)
        wait_for("the venue to send on", lambda: in_step(again, a))
        assert again.problem is None and again.warning is None and not again.stopped
        assert stored_change(server.url, event, taken).headers[relay.DIGEST_HEADER] == digest_of(a, taken)
    finally:
        feeder.close()
        if again is not None:
            again.close()
        server.stop()


def test_a_forged_change_met_while_sending_is_no_other_history(tmp_path: Path) -> None:
    """Forged while the venue runs, numbered two past what it has sent: the venue meets it as it sends
    (its subject taken) and says it is a change it did not write, not "a different change: is this event
    served from another laptop too?", and does not stop for good."""
    a, event, server = _club_a(tmp_path)
    feeder = _sender(a, server, tmp_path)
    try:
        wait_for("the venue to send its log", lambda: in_step(feeder, a))
        taken = venue_view(a)["latest"] + 2
        message = forge(server.url, event, taken)
        for table, ns in ((1, 150), (2, 80)):
            confirm(a, table, ns, 100)
        wait_for("the venue to meet the forged change", lambda: not feeder.connected and feeder.sent == taken - 1
                 and (feeder.failures >= 1 or feeder.stopped))
        assert not feeder.stopped
        assert feeder.problem is not None and f"holds a change {taken} this venue did not write" in feeder.problem
        assert f"nats stream rmm {relay.stream_name(event)} {message}" in feeder.problem
        assert "another laptop" not in feeder.problem
    finally:
        feeder.close()
        server.stop()


def test_the_directors_page_says_the_warning_while_the_hub_is_fed(tmp_path: Path) -> None:
    """The warning (changes on the stream the venue did not write) is on the director's page while the
    sending goes on, in the server's words after the page's own; nothing once it is over."""
    from tests.browser import CHROMIUM, MISSING, launched

    if CHROMIUM is None:
        pytest.skip(MISSING)
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")
    from tournament import add_players, create_event, make_settings, pair_next_round
    from tournament.web.background import BackgroundVenue
    from tournament.web.upstream import Foreign

    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    warning = Foreign(1, 1027, 33, 1027, 27).said("DOMREC-x")
    state = {"url": "nats://127.0.0.1:4222", "event": "x", "connected": True, "problem": None, "stopped": False,
             "sent": 27, "messages": 4, "warning": warning}
    venue = BackgroundVenue(path)
    venue.server.upstream_state = lambda: dict(state)
    try:
        with launched() as browser:
            page = browser.new_page()
            page.goto(venue.links["director"])
            page.wait_for_selector("#upstream[data-warning=yes]:not([hidden])", timeout=60_000)
            said = page.locator("#upstream").inner_text()
            assert said == f"Sent to the federation's hub, but: {warning}"
            assert page.locator("#upstream").get_attribute("data-stopped") == "no"
            state.update(warning=None)
            page.wait_for_selector("#upstream[hidden]", state="attached", timeout=60_000)
            page.close()
    finally:
        venue.close()
