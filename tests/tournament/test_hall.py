"""The hall costs the tables nothing (issue 34, part 3): a public page hears only of the changes
that alter what it shows, its parts are made once per such change for every reader, and a
table's move costs the event file a handful of statements.

No test here measures time: each counts what the server did (streams woken, pages made, the
event read, statements run), and a wait for something to happen has a generous limit that only
turns a hang into a failure."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tournament import add_players, open_event
from tournament.event.changes import latest_public_seq, latest_seq
from tournament.event.venue import Venue
from tournament.web.public import LiveFeed, PublicPages

from .test_venue import _auth, _event, _game_of, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

#: The longest any wait here lasts before it fails (it only turns a hang into a failure).
PATIENCE = 60.0


async def _until(done, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while not done():
        assert loop.time() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.01)


def _data(message: bytes) -> int:
    first = message.decode().split("\n\n")[0]  # a spread for the fetches may follow the number
    fields = dict(line.split(": ", 1) for line in first.strip().split("\n"))
    assert fields["event"] == "seq" and fields["id"] == fields["data"]
    return int(fields["data"])


def _first_moves(path: Path) -> list[str]:
    """Table 1's game as its phone sends it, a move a request, up to the hand's fourth move."""
    texts = _requests(_game_of(path, 1, 1, seed=5))
    first_move = next(k for k, text in enumerate(texts) if text.split()[0] not in ("hand", "deal", "leaddraw"))
    return texts[:first_move + 4]


def test_a_tables_moves_wake_no_public_reader_and_a_result_does(tmp_path):
    """The live stream of the public pages follows their revision: a table's moves (and its status,
    playing) wake none of its readers; the stream of a page that shows the tables' statuses hears
    the status; a result wakes both."""
    path = _event(tmp_path)
    venue = Venue(open_event(path))

    async def scenario() -> None:
        feed = LiveFeed(path, poll=3600.0, keepalive=3600.0)  # it looks only when poked
        try:
            public, tables = feed.events(), feed.events(tables=True)
            assert (await anext(public)).startswith(b"retry:") and (await anext(tables)).startswith(b"retry:")
            revision, latest = _data(await anext(public)), _data(await anext(tables))
            assert revision == latest_public_seq(venue.store) and latest == latest_seq(venue.store)
            heard_public = asyncio.ensure_future(anext(public))
            heard_tables = asyncio.ensure_future(anext(tables))

            rev = 0
            for text in _first_moves(path):  # the table starts: moves, and its status "playing"
                rev = venue.record(1, 1, rev, text)["rev"]
            assert latest_seq(venue.store) > latest and latest_public_seq(venue.store) == revision
            looks = feed.looks
            feed.poke()
            await _until(lambda: feed.looks > looks, "the watcher to look")
            assert _data(await asyncio.wait_for(heard_tables, PATIENCE)) == latest_seq(venue.store)
            for _ in range(50):  # the loop turns: a stream woken by that look would have spoken by now
                await asyncio.sleep(0)
            assert not heard_public.done() and feed.revision == revision

            venue.director_result(1, 1, {"NS": 150, "EW": 90}, "the table stopped")  # a result: the standings change
            feed.poke()
            assert _data(await asyncio.wait_for(heard_public, PATIENCE)) == latest_public_seq(venue.store) > revision
        finally:
            feed.stop()
            for stream in (public, tables):
                await stream.aclose()
            feed.close()

    try:
        asyncio.run(scenario())
    finally:
        venue.store.close()


def test_a_live_pages_fetch_is_answered_from_the_page_made_for_the_change_the_stream_announced(tmp_path):
    """While a stream is open, a live page's fetch (``?part=main&since=SEQ``) is answered from the
    page already made as of the watcher's last look (no read of the file): nothing when that is
    ``SEQ``; after a result the watcher has seen, the page made again for it; with no stream
    open, never (nobody watches the file then)."""
    path = _event(tmp_path)
    venue = Venue(open_event(path))

    async def scenario() -> None:
        feed = LiveFeed(path, poll=3600.0, keepalive=3600.0)  # it looks only when poked
        pages = PublicPages(path, "http://testserver")
        stream = feed.events()
        try:
            assert pages.kept_for_live(feed, "standings", 0, "en") is None  # no stream yet
            assert (await anext(stream)).startswith(b"retry:")
            revision = _data(await anext(stream))
            assert pages.kept_for_live(feed, "standings", 0, "en") is None  # not made yet
            made = await pages.page("standings", part="main", lang="en")
            assert made is not None and made.seq == revision
            assert pages.kept_for_live(feed, "standings", 0, "en") is made
            assert pages.kept_for_live(feed, "standings", revision, "en") is True  # the asker has it
            assert pages.kept_for_live(feed, "standings", 0, "es") is None  # another language: not made
            assert pages.kept_for_live(feed, "tables", 0, "en") is None  # follows the latest change: not made

            heard = asyncio.ensure_future(anext(stream))
            venue.director_result(1, 1, {"NS": 150, "EW": 90}, "the table stopped")  # a result: the standings change
            assert pages.kept_for_live(feed, "standings", 0, "en") is made  # the watcher has not looked yet
            feed.poke()
            now = _data(await asyncio.wait_for(heard, PATIENCE))
            assert now == latest_public_seq(venue.store) > revision
            assert pages.kept_for_live(feed, "standings", revision, "en") is None  # made the usual way
            again = await pages.page("standings", part="main", since=revision, lang="en")
            assert again is not None and again.seq == now and "150" in again.body.decode()
            assert pages.kept_for_live(feed, "standings", revision, "en") is again
        finally:
            await stream.aclose()
        assert pages.kept_for_live(feed, "standings", revision, "en") is None  # the last stream ended
        feed.stop()
        feed.close()
        pages.close()

    try:
        asyncio.run(scenario())
    finally:
        venue.store.close()


def test_a_pages_parts_are_made_once_per_public_change_whatever_the_readers(tmp_path):
    """Ten phones reading the standings' main region cost one read of the event and one page; the
    tables' moves (their statuses too) make no standings page again and read the event's statuses
    alone; a result makes each page once more."""
    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        token, director = links["tables"][0]["token"], links["director"].rsplit("/", 1)[1]
        pages = server.public

        # The pages that show the tables' statuses follow every change of the event; the others do not.
        assert 'data-follow="tables"' in client.get("/tables").text and "data-follow" not in client.get("/").text
        pages.made = pages.reads = pages.status_reads = 0  # counted from here
        answers = [client.get("/standings?part=main") for _ in range(10)]
        seq = answers[0].headers["x-seq"]
        assert {(a.status_code, a.headers["x-seq"], a.text) for a in answers} == {(200, seq, answers[0].text)}
        assert (pages.made, pages.reads) == (1, 0)  # the event read once already, for the two pages above

        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        for text in _first_moves(path):
            r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
            assert r.status_code == 200, r.json()
            state = r.json()
        assert state["status"] == "playing"
        for _ in range(10):  # the standings have not changed: nothing to send, nothing made, nothing read whole
            assert client.get(f"/standings?part=main&since={seq}").status_code == 204
        assert (pages.made, pages.reads) == (1, 0) and pages.status_reads == 1
        # The round's tables show the status: made once for its readers, as a fresh server makes it.
        tables = [client.get("/tables?part=main") for _ in range(10)]
        assert len({t.text for t in tables}) == 1 and "playing" in tables[0].text
        assert int(tables[0].headers["x-seq"]) == server.call(lambda: latest_seq(server.venue.store))
        assert pages.made == 2
        fresh = _server(path)
        try:
            assert starlette_testclient.TestClient(fresh.asgi).get("/tables?part=main").text == tables[0].text
        finally:
            fresh.close()

        r = client.post("/api/v1/tables/1/2/result", headers=_auth(director), json={"scores": {"NS": 150, "EW": 90}})
        assert r.status_code == 200, r.json()
        after = [client.get(f"/standings?part=main&since={seq}") for _ in range(10)]
        assert {(a.status_code, a.headers["x-seq"]) for a in after} == {(200, after[0].headers["x-seq"])}
        assert int(after[0].headers["x-seq"]) == server.call(lambda: latest_public_seq(server.venue.store))
        assert int(after[0].headers["x-seq"]) > int(seq) and "150" in after[0].text
        assert (pages.made, pages.reads) == (3, 1)
    finally:
        server.close()


def test_a_move_costs_the_event_file_a_handful_of_statements(tmp_path):
    """A move through the venue: the table, its revision, its result, the move appended, the
    commit; it never reads the change log (the table's status logged is kept with its game)."""
    path = _event(tmp_path)
    venue = Venue(open_event(path))
    try:
        texts = _first_moves(path)
        rev = 0
        for text in texts[:-1]:
            rev = venue.record(1, 1, rev, text)["rev"]
        statements: list[str] = []
        venue.store.conn.set_trace_callback(statements.append)
        try:
            venue.record(1, 1, rev, texts[-1])
        finally:
            venue.store.conn.set_trace_callback(None)
        assert len(statements) <= 8, statements
        assert not any("FROM changes" in s or "sqlite_master" in s for s in statements), statements
        assert statements.count("COMMIT") == 1  # acknowledged once committed, one transaction a write
    finally:
        venue.store.close()


def test_moves_waiting_together_are_committed_together_each_on_its_own(tmp_path):
    """The venue's thread takes the requests waiting together in one group of the event file: one
    commit for all, each write still all or nothing on its own (a refused one leaves the others),
    each answered once the group is committed; a group that cannot commit refuses every write in
    it and the live games are made again from the file."""
    import threading

    from tournament.event.venue import Stale
    from tournament.web.app import VenueThread

    path = _event(tmp_path)
    worker = VenueThread()
    venue = worker.submit(lambda: Venue(open_event(path)), grouped=False).result()
    worker.store, worker.lost = venue.store, venue.forget
    texts = _first_moves(path)
    try:
        held, go = threading.Event(), threading.Event()

        def hold() -> None:  # the thread busy: the requests after it wait together
            held.set()
            go.wait(PATIENCE)

        statements: list[str] = []
        worker.submit(lambda: venue.store.conn.set_trace_callback(statements.append)).result()
        first = worker.submit(hold)
        assert held.wait(PATIENCE)
        table1 = [worker.submit(venue.record, 1, 1, rev, text) for rev, text in enumerate(texts[:3])]
        stale = worker.submit(venue.record, 1, 2, 5, texts[0])  # an old revision: refused alone
        table2 = worker.submit(venue.record, 1, 2, 0, texts[0])
        go.set()
        first.result(PATIENCE)
        assert [f.result(PATIENCE)["rev"] for f in table1] == [1, 2, 3] and table2.result(PATIENCE)["rev"] == 1
        with pytest.raises(Stale):
            stale.result(PATIENCE)
        assert statements.count("COMMIT") == 1 and statements.count("BEGIN IMMEDIATE") == 1
        other = open_event(path)  # another connection: all of it is in the file
        try:
            assert other.conn.execute("SELECT COUNT(*) FROM venue_log").fetchone()[0] == 4
        finally:
            other.conn.close()

        # A group that cannot commit: every write in it refused, the live games forgotten.
        held.clear(), go.clear()
        first = worker.submit(hold)
        assert held.wait(PATIENCE)
        breaks = worker.submit(lambda: venue.store.conn.execute("ROLLBACK"))  # the group's transaction gone
        lost = worker.submit(venue.record, 1, 1, 3, texts[3])
        go.set()
        with pytest.raises(Exception):
            lost.result(PATIENCE)
        breaks.exception(PATIENCE)
        assert worker.submit(lambda: venue._live).result() == {}
        state = worker.submit(venue.state, 1, 1).result(PATIENCE)
        assert state["rev"] == 3  # the file's revision: the refused move is not there
    finally:
        worker.submit(venue.store.close, grouped=False).result()
        worker.shutdown()


def test_a_move_finding_the_venues_thread_idle_is_made_where_it_was_read(tmp_path):
    """``run_here``: with nothing queued and nothing running, a job is made at once on the calling
    thread (the event loop's: no wake-up of the venue's thread and of the loop after it), its
    refusal handed back as the thread would; while the thread is busy, or a job waits for it, the
    caller is told to hand the job over, and the connection is never used by two threads at once."""
    import threading

    from tournament.event.venue import Stale
    from tournament.web.app import VenueThread

    path = _event(tmp_path)
    worker = VenueThread()
    venue = worker.submit(lambda: Venue(open_event(path, shared=True)), grouped=False).result()
    worker.store, worker.lost = venue.store, venue.forget
    texts = _first_moves(path)
    afters: list[str] = []
    worker.after = lambda: afters.append(threading.current_thread().name)
    try:
        here = threading.current_thread().name
        ok, state = worker.run_here(venue.record, 1, 1, 0, texts[0])
        assert ok and state["rev"] == 1 and afters == [here]
        ok, refusal = worker.run_here(venue.record, 1, 1, 0, texts[1])  # an old revision: refused, as on the thread
        assert not ok and isinstance(refusal, Stale)

        held, go = threading.Event(), threading.Event()

        def hold() -> None:
            held.set()
            go.wait(PATIENCE)

        busy = worker.submit(hold)
        assert held.wait(PATIENCE)
        assert worker.run_here(venue.record, 1, 1, 1, texts[1]) is None  # the thread is busy: hand it over
        queued = worker.submit(venue.record, 1, 1, 1, texts[1])
        go.set()
        busy.result(PATIENCE)
        assert queued.result(PATIENCE)["rev"] == 2

        # The thread waits for a job made on the caller's thread before it uses the connection.
        inside, release = threading.Event(), threading.Event()
        order: list[str] = []

        def slow() -> str:
            inside.set()
            release.wait(PATIENCE)
            order.append("here")
            return "done"

        made: list = []
        maker = threading.Thread(target=lambda: made.append(worker.run_here(slow)))
        maker.start()
        assert inside.wait(PATIENCE)
        after = worker.submit(lambda: order.append("thread"))
        release.set()
        after.result(PATIENCE)
        maker.join(PATIENCE)
        assert order == ["here", "thread"] and made == [(True, "done")]

        # Another process's write holding the file: the loop is not made to wait for it; the
        # move is handed to the thread (nothing written meanwhile), which waits for its turn.
        holder = open_event(path)
        holder.conn.execute("BEGIN IMMEDIATE")
        said: list[str] = []
        venue.store.conn.set_trace_callback(said.append)
        assert worker.run_here(venue.record, 1, 1, 2, texts[2]) is None
        venue.store.conn.set_trace_callback(None)
        # The write was tried with no wait for its turn (not SQLite's 30 s), and nothing was written.
        assert "PRAGMA busy_timeout = 0" in said and said.index("PRAGMA busy_timeout = 0") < said.index("BEGIN IMMEDIATE")
        assert "COMMIT" not in said
        waiting = worker.submit(venue.record, 1, 1, 2, texts[2])
        holder.conn.execute("COMMIT")
        holder.conn.close()
        assert waiting.result(PATIENCE)["rev"] == 3
        ok, state = worker.run_here(venue.state, 1, 1)  # and the connection waits as before once back
        assert ok and state["rev"] == 3
        other = open_event(path)  # every move made either way is in the file
        try:
            assert other.conn.execute("SELECT COUNT(*) FROM venue_log").fetchone()[0] == 3
            assert other.conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0
        finally:
            other.conn.close()
        assert worker.submit(lambda: venue.store.conn.execute("PRAGMA busy_timeout").fetchone()[0]).result() > 0
    finally:
        worker.submit(venue.store.close, grouped=False).result()
        worker.shutdown()


def test_the_phones_spread_their_fetches_over_longer_in_a_larger_hall(tmp_path):
    """The stream tells the pages over how long to spread their fetches after a change: a club's
    hall the least, a championship's hall longer, never more than the most."""
    from tournament.web.public import SPREAD_MS, LiveFeed

    feed = LiveFeed(tmp_path / "none.db")
    spreads = []
    for streams in (1, 100, 300, 500, 5000):
        feed.streams = streams
        spreads.append(feed.spread_ms())
    assert spreads[0] == SPREAD_MS[0] and spreads[-1] == SPREAD_MS[1] and spreads == sorted(spreads)
    assert spreads[3] > spreads[1]


def test_the_log_is_copied_into_the_file_beside_the_tables_writes_never_inside_them(tmp_path):
    """The venue's writing connection never checkpoints (a commit that did waited for the copy
    and its flush, and every move behind it); the checkpointer's own connection does."""
    import sqlite3

    from tournament.store.sqlite import Checkpointer
    from tournament.web.app import VenueServer

    path = _event(tmp_path)
    server = VenueServer(path)
    try:
        auto = server._executor.submit(lambda: server.venue.store.conn.execute(
            "PRAGMA wal_autocheckpoint").fetchone()[0], grouped=False).result()
        assert auto == 0
    finally:
        server.close()
    store = open_event(path)
    checkpointer = Checkpointer(path, every=0.01)
    try:
        add_players(store, [f"late {i}" for i in range(200)])  # frames in the log
        made = checkpointer.made
        deadline = time.monotonic() + 60
        while checkpointer.made < made + 2:
            assert time.monotonic() < deadline, "the checkpointer never ran"
            time.sleep(0.01)
        conn = sqlite3.connect(path)
        busy, logged, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        conn.close()
        assert busy == 0 and logged == copied  # all of it was copied already
    finally:
        checkpointer.close()
        store.close()


class _Sink:
    """A stream's connection as :meth:`LiveFeed.listen` writes to it: what it was sent, whether it ended."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.ended = False
        self.gone = None

    def send(self, framed: bytes) -> None:
        size, _, rest = framed.partition(b"\r\n")
        assert rest.endswith(b"\r\n") and len(rest) - 2 == int(size, 16)  # one chunk, framed
        self.sent.append(rest[:-2])

    def end(self) -> None:
        self.ended = True

    def numbers(self) -> list[int]:
        return [_data(m) for m in self.sent if m.startswith(b"id:")]


def test_the_streams_written_by_their_connections_hear_what_they_follow(tmp_path):
    """The hall's streams written by the connection itself (LiveFeed.listen) say what the route's
    streams say: the revision at once, a table's moves and status to the streams that follow the
    tables only, a result to both, one message made for all; a keep-alive to a silent stream; the
    stream ends at its lifetime and when the server stops; a client gone gives its place back."""
    path = _event(tmp_path)
    venue = Venue(open_event(path))

    async def scenario() -> None:
        feed = LiveFeed(path, poll=3600.0, keepalive=0.4, lifetime=3600.0)  # it looks only when poked
        try:
            public, tables, gone = _Sink(), _Sink(), _Sink()
            for sink, follows in ((public, False), (tables, True), (gone, False)):
                assert feed.reserve()
                feed.listen(sink, tables=follows)
            assert feed.streams == 3
            await _until(lambda: public.numbers() and tables.numbers(), "the first numbers")
            assert public.sent[0] == tables.sent[0] == b"retry: 2000\n\n"
            assert public.numbers() == [latest_public_seq(venue.store)] and tables.numbers() == [latest_seq(venue.store)]
            gone.gone()  # its client went away
            assert feed.streams == 2
            told = len(gone.sent)

            rev = 0
            for text in _first_moves(path):  # the table starts: its status "playing"
                rev = venue.record(1, 1, rev, text)["rev"]
            feed.poke()
            await _until(lambda: len(tables.numbers()) == 2, "the tables' stream to hear the status")
            assert tables.numbers()[-1] == latest_seq(venue.store) and len(public.numbers()) == 1

            venue.director_result(1, 1, {"NS": 150, "EW": 90}, "the table stopped")  # a result: both hear it
            feed.poke()
            await _until(lambda: len(public.numbers()) == 2 and len(tables.numbers()) == 3, "the result heard")
            assert public.numbers()[-1] == latest_public_seq(venue.store) and tables.numbers()[-1] == latest_seq(venue.store)
            await _until(lambda: b": keep-alive\n\n" in public.sent, "a keep-alive")
            assert len(gone.sent) == told and not gone.ended  # the one gone hears nothing more

            short = _Sink()
            feed.lifetime = 0.2
            assert feed.reserve()
            feed.listen(short)
            await _until(lambda: short.ended, "the stream's end at its lifetime")
            assert feed.streams == 2 and not public.ended
        finally:
            feed.stop()
        await _until(lambda: public.ended and tables.ended, "the streams ended as the server stops")
        assert feed.streams == 0
        feed.close()

    try:
        asyncio.run(scenario())
    finally:
        venue.store.close()
