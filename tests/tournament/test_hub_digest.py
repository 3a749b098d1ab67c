"""Two histories of one event on one stream (docs/hub.md, "When a part fails"): an event file copied to
a second laptop and served there with ``--upstream`` too, or restored from an older copy and changed
since, sends other changes at numbers the stream already holds.  JetStream took the second change N
for a duplicate of the first (one message id a number) and the hub mixed the two histories without
a word.  Each change now carries its digest: the venue compares it with the stream's copy when it
resumes and when a change it sends is already there, and on another digest stops sending for good,
saying so in its log and in the director's API; a venue restarted on its own history says nothing.

A real ``nats-server -js`` on 127.0.0.1 (tests/tournament/test_hub.py's); every wait a bounded
poll, never a sleep.  Skipped, saying why, where ``nats-server`` or ``nats-py`` is missing."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.test_hub import NATS_SERVER, Nats, confirm, creds, make_venue, nats, venue_view, wait_for
from tournament import open_event
from tournament.event import changes
from tournament.web import relay

pytestmark = [pytest.mark.skipif(NATS_SERVER is None, reason="nats-server is not installed (apt-get install nats-server)"),
              pytest.mark.skipif(nats is None, reason="the NATS client is not installed (pip install nats-py)"),
              pytest.mark.slow]


def copy_of(path: Path, to: Path) -> Path:
    """The event file as a director copies it (SQLite's backup: the file whole, its WAL included)."""
    with sqlite3.connect(path) as source, sqlite3.connect(to) as copy:
        source.backup(copy)
    return to


def log_of(path: Path) -> list[dict[str, Any]]:
    with open_event(path) as store:
        return changes.changes_since(store, 0)


def in_step(feeder: Any, path: Path) -> bool:
    return feeder.connected and feeder.sent == venue_view(path)["latest"]


async def _stored(url: str, event: str, seq: int | None = None) -> Any:
    """The stream's change ``seq`` (None: the stream's state), read as the federation's admin."""
    import nats as client

    nc = await client.connect(url, user="admin", password="admin-pw", allow_reconnect=False)
    try:
        js = nc.jetstream(timeout=10)
        if seq is None:
            return (await js.stream_info(relay.stream_name(event))).state
        return await js.get_msg(relay.stream_name(event), subject=relay.change_subject(event, seq))
    finally:
        await nc.close()


def stored(url: str, event: str, seq: int | None = None) -> Any:
    return asyncio.run(_stored(url, event, seq))


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tournament.upstream" and r.levelno >= logging.ERROR]



def _club_a(tmp_path: Path) -> tuple[Path, str, Nats]:
    """Club A's event (three tables), its id, and a NATS server that takes its stream, started."""
    a = make_venue(tmp_path, "club-a", 3)
    event = venue_view(a)["uuid"]
    server = Nats(tmp_path, {"club-a": event})
    server.start()
    return a, event, server


def _sender(event_file: Path, server: Nats, tmp_path: Path):
    """A venue's upstream for ``event_file`` on club A's credentials, started (quick to try again)."""
    from tournament.web.upstream import Upstream

    return Upstream(event_file, server.url, creds(tmp_path, "club-a"), poll=0.1, retry=0.2).start()


def test_two_laptops_serving_one_event_the_second_to_send_a_change_is_stopped(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="tournament.upstream")
    a, event, server = _club_a(tmp_path)
    b = copy_of(a, tmp_path / "club-a-second-laptop.db")
    first = _sender(a, server, tmp_path)
    second = None
    try:
        wait_for("the first laptop to send its log", lambda: in_step(first, a))
        # The same history so far: the second laptop joins without a word.
        second = _sender(b, server, tmp_path)
        wait_for("the second laptop to find the stream in step", lambda: in_step(second, b))
        assert second.problem is None and not second.stopped
        n = venue_view(a)["latest"] + 1
        confirm(a, 1, 150, 90)
        wait_for("the first laptop to send change n", lambda: in_step(first, a))
        theirs = stored(server.url, event, n)
        before = log_of(b)
        confirm(b, 2, 80, 160)  # another change n, on the second laptop
        wait_for("the second laptop to stop", lambda: second.stopped)
        said = (f"the federation's copy of this event holds a different change {n}: is this event served from "
                f"another laptop too, or restored from an older copy? Publishing stopped; see docs/hub.md")
        assert second.problem == said and second.state()["problem"] == said and not second.state()["connected"]
        assert refusals(caplog) == [f"upstream {server.url}: {said}"]  # one line, said once
        assert second.sent == n - 1
        # The stream keeps the first laptop's change n, and the first laptop goes on.
        assert stored(server.url, event, n).data == theirs.data
        confirm(a, 3, 60, 200)
        wait_for("the first laptop to send on", lambda: in_step(first, a))
        assert first.problem is None and not first.stopped
        # The second laptop's file is its own: nothing of it changed by the refusal.
        assert log_of(b)[:len(before)] == before and len(log_of(b)) > len(before)
        wait_for("the second laptop's sender to end", lambda: not second._thread.is_alive())  # not trying again
        assert refusals(caplog) == [f"upstream {server.url}: {said}"]
    finally:
        first.close()
        if second is not None:
            second.close()
        server.stop()


def test_a_change_already_on_the_stream_after_the_duplicate_window_is_compared_too(tmp_path: Path) -> None:
    """Past JetStream's duplicate window a change with the same id is no duplicate: it would replace
    the stream's change on its subject.  The change asks for an empty subject; refused, the venue
    compares: here another laptop's change n, sent long ago (another message id stands for it)."""
    from tournament.web.upstream import outgoing

    a, event, server = _club_a(tmp_path)
    feeder = _sender(a, server, tmp_path)
    try:
        wait_for("the venue to send its log", lambda: in_step(feeder, a))
        feeder.close()
        n = venue_view(a)["latest"] + 1
        confirm(a, 1, 150, 90)
        with open_event(a) as store:
            ours = next(m for m in outgoing(store, event, n - 1, None) if m.change and m.seq == n)
        # Sent up to n - 1 as far as its Domrec-Seq says: the venue resumes in step, then sends n.
        other = {**ours.headers, "Nats-Msg-Id": "another-laptop-long-ago", relay.SEQ_HEADER: str(n - 1),
                 relay.DIGEST_HEADER: "0" * 64}

        async def publish() -> None:
            import nats as client

            nc = await client.connect(server.url, user="admin", password="admin-pw", allow_reconnect=False)
            await nc.jetstream(timeout=10).publish(ours.subject, ours.body, headers=other)
            await nc.close()

        asyncio.run(publish())
        again = _sender(a, server, tmp_path)
        try:
            wait_for("the venue to stop", lambda: again.stopped)
            assert f"different change {n}:" in (again.problem or "") and again.sent == n - 1
            assert stored(server.url, event, n).headers[relay.DIGEST_HEADER] == "0" * 64  # not replaced
        finally:
            again.close()
    finally:
        feeder.close()
        server.stop()


def test_a_restored_older_copy_changed_past_its_old_end_is_stopped_when_it_resumes(tmp_path: Path) -> None:
    a, event, server = _club_a(tmp_path)
    older = copy_of(a, tmp_path / "club-a-older.db")
    feeder = _sender(a, server, tmp_path)
    restored = None
    try:
        confirm(a, 1, 150, 90)
        confirm(a, 2, 80, 160)
        wait_for("the venue to send its results", lambda: in_step(feeder, a))
        feeder.close()  # the laptop dies
        held = venue_view(a)["latest"]
        state = stored(server.url, event)
        # The older copy, restored, goes on: its results differ, and its log grows past the stream's.
        for table, ns in ((3, 60), (4, 100), (1, 200), (2, 30)):
            confirm(older, table, ns, 120)
        assert venue_view(older)["latest"] > held
        restored = _sender(older, server, tmp_path)
        wait_for("the restored venue to stop", lambda: restored.stopped)
        assert restored.problem is not None and f"a different change {held}:" in restored.problem
        assert "restored from an older copy" in restored.state()["problem"]
        assert restored.messages == 0 and stored(server.url, event).last_seq == state.last_seq  # nothing sent
    finally:
        feeder.close()
        if restored is not None:
            restored.close()
        server.stop()


def test_a_venue_restarted_on_its_own_history_resumes_without_a_word(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="tournament.upstream")
    a, event, server = _club_a(tmp_path)
    feeder = _sender(a, server, tmp_path)
    try:
        confirm(a, 1, 150, 90)
        wait_for("the venue to send", lambda: in_step(feeder, a))
        feeder.close()
        for tables in ((), (2, 3)):  # restarted with nothing new, then with changes made meanwhile
            for table in tables:
                confirm(a, table, 100, 120)
            feeder = _sender(a, server, tmp_path)
            wait_for("the restarted venue to send the rest", lambda: in_step(feeder, a))
            assert feeder.problem is None and not feeder.stopped
            feeder.close()
        latest = venue_view(a)["latest"]
        assert stored(server.url, event, latest).headers[relay.DIGEST_HEADER] == relay.change_digest(log_of(a)[-1])
        assert not refusals(caplog)
    finally:
        feeder.close()
        server.stop()


def test_changes_sent_by_an_earlier_version_without_a_digest_are_not_refused(tmp_path: Path) -> None:
    """A stream filled by a venue of an earlier version (no ``Domrec-Digest``): unknown, never taken
    for another history; the venue sends the rest, each with its digest."""
    from tournament.web.upstream import outgoing

    a, event, server = _club_a(tmp_path)
    with open_event(a) as store:
        earlier = list(outgoing(store, event, 0, None))

    async def as_an_earlier_version() -> None:
        import nats as client

        nc = await client.connect(server.url, user="admin", password="admin-pw", allow_reconnect=False)
        js = nc.jetstream(timeout=10)
        await js.add_stream(name=relay.stream_name(event), subjects=[relay.subjects(event)], max_msgs_per_subject=1,
                            duplicate_window=relay.DUPLICATE_WINDOW)
        for m in earlier:
            old = {k: v for k, v in m.headers.items() if k not in (relay.DIGEST_HEADER, relay.EXPECTED_HEADER)}
            await js.publish(m.subject, m.body, headers=old)
        await nc.close()

    asyncio.run(as_an_earlier_version())
    confirm(a, 1, 150, 90)
    feeder = _sender(a, server, tmp_path)
    try:
        wait_for("the venue to send the rest", lambda: in_step(feeder, a))
        assert feeder.problem is None and not feeder.stopped
        assert relay.DIGEST_HEADER in stored(server.url, event, venue_view(a)["latest"]).headers
    finally:
        feeder.close()
        server.stop()


def play(path: Path, table: int, seed: int) -> None:
    """Table ``table`` of the round in play, played to its end and entered as a record (``seed``: which game)."""
    import random

    from domrec.simulate import dumps, play_game
    from tournament.event.results import enter_record
    from tournament.event.simulate import game_record

    with open_event(path) as store:
        names = {p.id: p.name for p in store.players()}
        found = next(t for t in store.tables(store.last_round()) if t.number == table)
        record = play_game(game_record(store.settings, found, names), random.Random(seed))
        enter_record(store, dumps(record), f"table {table}")


def test_the_second_laptops_game_record_does_not_replace_the_firsts(tmp_path: Path) -> None:
    """A game's record goes before the change that tells of it, and replaces the stream's record of
    its table: the second laptop's record of a table the first has sent is not sent at all."""
    a, event, server = _club_a(tmp_path)
    b = copy_of(a, tmp_path / "club-a-second-laptop.db")
    first = _sender(a, server, tmp_path)
    second = _sender(b, server, tmp_path)
    try:
        wait_for("both laptops in step", lambda: in_step(first, a) and in_step(second, b))
        play(a, 1, 11)
        wait_for("the first laptop to send its record", lambda: in_step(first, a))
        with open_event(a) as store:
            round_no = store.last_round()

        async def record() -> Any:
            import nats as client

            nc = await client.connect(server.url, user="admin", password="admin-pw", allow_reconnect=False)
            try:
                return await nc.jetstream(timeout=10).get_msg(relay.stream_name(event),
                                                              subject=relay.game_subject(event, round_no, 1))
            finally:
                await nc.close()

        ours = asyncio.run(record())
        play(b, 1, 12)  # another game at the same table, on the second laptop
        wait_for("the second laptop to stop", lambda: second.stopped)
        assert asyncio.run(record()).data == ours.data
    finally:
        first.close()
        second.close()
        server.stop()


def _admin(url: str, what: str, event: str) -> None:
    """The federation's admin purges (``purge``) or deletes (``delete``) the event's stream."""
    import nats as client

    async def run() -> None:
        nc = await client.connect(url, user="admin", password="admin-pw", allow_reconnect=False)
        try:
            js = nc.jetstream(timeout=10)
            name = relay.stream_name(event)
            await (js.purge_stream(name) if what == "purge" else js.delete_stream(name))
        finally:
            await nc.close()

    asyncio.run(run())


def test_a_stream_whose_messages_are_gone_is_said_in_words_and_sent_whole_once_deleted(tmp_path: Path) -> None:
    """A stream purged (or past an age limit set on it) still numbers its next message after the
    last it held, but holds none: where the venue stopped is not known.  It said a bare "not found"
    and tried again every second; it now says what is wrong and what the federation does, and once
    the stream is deleted the venue sends the event whole again."""
    a, event, server = _club_a(tmp_path)
    feeder = _sender(a, server, tmp_path)
    again = None
    try:
        confirm(a, 1, 150, 90)
        wait_for("the venue to send its log", lambda: in_step(feeder, a))
        feeder.close()
        last = stored(server.url, event).last_seq
        _admin(server.url, "purge", event)
        again = _sender(a, server, tmp_path)
        name = relay.stream_name(event)
        said = (f"the federation's stream {name} no longer holds its last message ({last}), so where this venue "
                f"stopped sending is not known: the federation deletes the stream (nats stream rm {name}) and this "
                f"venue sends the event whole again; see docs/hub.md")
        wait_for("the venue to say why it cannot resume", lambda: again.problem == said)
        assert not again.stopped and again.state()["problem"] == said and stored(server.url, event).messages == 0
        _admin(server.url, "delete", event)
        wait_for("the venue to send the event whole again", lambda: in_step(again, a))
        assert again.problem is None
        assert stored(server.url, event, venue_view(a)["latest"]).headers[relay.SEQ_HEADER] == str(venue_view(a)["latest"])
    finally:
        feeder.close()
        if again is not None:
            again.close()
        server.stop()
