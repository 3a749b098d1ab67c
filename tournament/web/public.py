"""The hall's side of the venue server: the public pages, made once per change, and the live stream.

Two hundred phones reading the standings must not slow the tables recording their games, so
nothing here runs on the venue's thread (the one that writes the event file):

* **Pages are read on a thread of their own**, through a connection of their own (the event
  file is in WAL mode: a reader never waits for the writer, nor the writer for it), in one read
  transaction (:func:`tournament.event.public.public_data`).  A page is made once per change of
  what it shows and kept, compressed as well, until the next: the event is read whole when the
  public pages' revision moves on (:func:`tournament.event.changes.latest_public_seq`: a result,
  a round paired, a correction, a name), only the tables' statuses when a table starts or waits
  for its confirmation, and not at all when a table makes a move.  A hundred phones asking for
  the standings after a result cost one read and one page.  The JSON feed (``/api/v1/…``) is
  kept the same way (:meth:`PublicPages.feed`): each feed and its parameters made once per change
  of the event, as of which its ETag says, and sent from memory to every follower until the next.
* **The live stream** (``GET /live``, Server-Sent Events): one watcher a process, not a client,
  looks at the file every :data:`POLL` seconds (at once after this server logged a change) on a
  third thread with its own connection, and wakes the open streams that follow what moved.  A
  stream sends the public pages' revision (``/live?follow=tables``: the event's latest change,
  for the pages that show the tables' statuses), a keep-alive comment every :data:`KEEPALIVE`
  seconds, and ends after :data:`LIFETIME` seconds (the browser opens a new one by itself); at
  most :data:`MAX_STREAMS` are open at once (more are told to wait: 503, and the page refreshes
  itself every few seconds instead).  In the hall's own process each stream is written by its
  connection itself (:meth:`LiveFeed.listen`): a message is made once for all the streams it goes
  to, with no task, generator or timer a stream, and the watcher's look that finds nothing new is
  one ``PRAGMA data_version`` on the event loop.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import gzip
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import attrs

from tournament.errors import TournamentError
from tournament.event.changes import latest_public_seq, latest_seq
from tournament.event.files import open_event
from tournament.event.public import confirmed_record, public_data, with_statuses
from tournament.pages import public as pages
from tournament.store.event_store import EventStore
from tournament.web.connections import chunk

#: Seconds between two looks at the event's ``seq`` while a stream is open.
POLL = 0.5
#: Seconds between keep-alive comments on an open stream (proxies and phones drop silent ones).
KEEPALIVE = 15.0
#: Seconds a stream stays open before it ends (the browser reconnects at once, by itself).
LIFETIME = 600.0
#: Live streams open at once, at most.
MAX_STREAMS = 500
#: How long the browser waits before it opens a new stream (ms), sent as the stream's ``retry``.
RETRY_MS = 2000
#: The least and the most the phones spread their fetches over after a change, in ms
#: (:meth:`LiveFeed.spread_ms`), and how it grows with the streams open.
SPREAD_MS = (400, 1500)
SPREAD_PER_STREAM_MS = 3
#: Pages kept between changes (each kept as text and compressed).
KEPT_PAGES = 64
#: Replay pages kept (a replay is the heaviest page: every position of every hand drawn).
KEPT_REPLAYS = 16
#: Feed answers kept, all as of the event's latest change (a feed and its parameters each: the
#: event, the standings, a round, a page of the change log): the older are made again if asked.
KEPT_FEEDS = 32


@attrs.frozen
class Made:
    """A page as it is sent: its bytes, the same compressed, and the ``seq`` it was made at."""

    body: bytes
    gzipped: bytes
    seq: int


def made(html: str, seq: int) -> Made:
    body = html.encode("utf-8")
    return Made(body, gzip.compress(body, compresslevel=6, mtime=0), seq)


def made_json(data: Any, seq: int) -> Made:
    """A feed's answer as it is sent: JSON as Starlette's ``JSONResponse`` writes it (the same bytes)."""
    return made(json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")), seq)


def kept(pages: collections.OrderedDict[tuple, Made], key: tuple, seq: int, make: Callable[[], Made], most: int,
         keep: bool = True) -> tuple[Made, bool]:
    """The answer kept under ``key`` if it was made at ``seq``, else ``make()``'s (kept, unless
    ``keep`` is false, and the least lately asked dropped past ``most``); and whether it was made
    now.  The one way the hall keeps what it made between two changes: its pages, its feed."""
    found = pages.get(key)
    if found is not None and found.seq == seq:
        pages.move_to_end(key)
        return found, False
    page = make()
    if keep:
        pages[key] = page
        pages.move_to_end(key)
        while len(pages) > most:
            pages.popitem(last=False)
    return page, True


class _Reader:
    """One thread and its own read connection to the event file (opened on that thread);
    ``read_only``: a connection that cannot write at all (``PRAGMA query_only``: the hall's own
    process, which has no write path)."""

    def __init__(self, event: Path, name: str, read_only: bool = False) -> None:
        self.event = event
        self.read_only = read_only
        self.executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=name)
        self.store: EventStore | None = None

    def _store(self) -> EventStore:
        if self.store is None:
            store = open_event(self.event)
            if self.read_only:
                store.conn.execute("PRAGMA query_only = ON")
            self.store = store
        return self.store

    async def run(self, fn: Callable[[EventStore], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, lambda: fn(self._store()))

    def call(self, fn: Callable[[EventStore], Any]) -> Any:
        """``fn(store)`` on the reader's thread, waited for (for a caller outside the event loop)."""
        return self.executor.submit(lambda: fn(self._store())).result()

    def close(self) -> None:
        def shut() -> None:
            if self.store is not None:
                self.store.conn.close()  # a reader's connection: nothing of its own to write back

        self.executor.submit(shut).result()
        self.executor.shutdown(wait=True)


class PublicPages:
    """The public pages of one event file, each made once per change of what it shows."""

    def __init__(self, event: Path, base_url: str, read_only: bool = False) -> None:
        self.base_url = base_url.rstrip("/")
        self.reader = _Reader(Path(event), "public", read_only)
        # A replay draws every position of a game: a thread of its own, so the pages never wait for one.
        self.drawer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="replays")
        self._data: dict[str, Any] | None = None
        self._site: pages.Site | None = None
        #: The event's latest change and the public pages' revision the data is as of.
        self.latest = self.revision = -1
        #: How many times the event was read whole, and the statuses alone (for tests and the curious).
        self.reads = self.status_reads = 0
        #: How many pages were made (each kept and served to every asker until what it shows changes).
        self.made = 0
        self._pages: collections.OrderedDict[tuple, Made] = collections.OrderedDict()
        self._replays: collections.OrderedDict[tuple, Made] = collections.OrderedDict()
        #: The feed's answers (on the reader's thread alone), all as of one change of one event.
        self._feeds: collections.OrderedDict[tuple, Made] = collections.OrderedDict()
        self._feeds_at: tuple[str, int] | None = None
        #: How many feed answers were made (each sent to every follower until the event changes).
        self.feeds_made = 0

    def close(self) -> None:
        self.reader.close()
        self.drawer.shutdown(wait=True, cancel_futures=True)

    # --- on the reader's thread -------------------------------------------------------------

    def _current(self, store: EventStore) -> tuple[dict[str, Any], pages.Site]:
        """The event as of its latest change, read again only when it has changed: whole when the
        public pages' revision moved on (a result, a round, a correction, a name), else (a
        table's status alone) only the tables' statuses.  A table's move changes neither."""
        with store.reading():  # the two numbers and the data they label, from one snapshot
            latest = latest_seq(store)
            if self._data is None or latest != self.latest:
                revision = latest_public_seq(store)
                if self._data is None or revision != self.revision:
                    data = public_data(store, hall=True)
                    recorded = frozenset((r["round"], t["table"]) for r in data["rounds"] for t in r["tables"]
                                         if t["result"] is not None and t["result"]["kind"] == "record")
                    self._site = pages.Site(served=True, recorded=recorded)
                    self.reads += 1
                else:
                    data = with_statuses(store, self._data)
                    self.status_reads += 1
                self._data, self.latest, self.revision = data, latest, revision
        assert self._data is not None and self._site is not None
        return self._data, self._site

    def _page(self, store: EventStore, key: tuple, make: Callable[[dict[str, Any], pages.Site], str],
              keep: bool = True, since: int | None = None, status: bool = False) -> Made | None:
        """The page ``make`` makes, as of the public pages' revision (``status``: of the event's
        latest change, for a page that shows the tables' statuses); None when that is ``since``
        (the asker has it already).  Made once per revision, whoever asks."""
        data, site = self._current(store)
        seq = self.latest if status else self.revision
        if since is not None and since == seq:
            return None
        page, new = kept(self._pages, key, seq, lambda: made(make({**data, "seq": seq}, site), seq), KEPT_PAGES, keep)
        self.made += new
        return page

    def _feed(self, store: EventStore, key: tuple, read: Callable[[EventStore], Any],
              known: Callable[[str, int], bool]) -> tuple[str, int, Made | None]:
        """The event's uuid and latest change, and the feed ``read`` makes as of them (None when
        ``known(uuid, seq)``: the asker has it already), taken in one read transaction.  Made once
        per change of the event under ``key`` (the feed and its parameters), and sent to every
        asker until the next; only the latest change's are kept.  A file whose log has not begun
        (``seq`` 0) could change unlogged: its feed is made for each asker, never kept."""
        with store.reading():
            uuid, seq = store.uuid, latest_seq(store)
            if seq and known(uuid, seq):
                return uuid, seq, None
            if (uuid, seq) != self._feeds_at:  # another change (or another file): the old answers go
                self._feeds.clear()
                self._feeds_at = (uuid, seq)
            page, new = kept(self._feeds, key, seq, lambda: made_json(read(store), seq), KEPT_FEEDS, keep=seq > 0)
        self.feeds_made += new
        return uuid, seq, page

    def kept_for_live(self, live: "LiveFeed", page: str, since: int, lang: str) -> Made | None | bool:
        """A live page's fetch of its main region (``?part=main&since=SEQ``, what live.js asks when
        the stream told it of a change) answered from what is already made, on the event loop: no
        trip to the reader's thread, no look at the file.  The stream told the phone of
        ``live``'s last look at the file (its watcher looks at least every :data:`POLL` seconds,
        and at once when told of a change), so the page made as of that look is the one the phone
        waits for: True when that is ``since`` (nothing to send), the page when it is made,
        else None (made the usual way).  None too while no stream is open (nobody watches the
        file then)."""
        seq = live.watched(status=page in pages.SHOWS_STATUS)
        if seq is None:
            return None
        if since == seq:
            return True
        found = self._pages.get((page, (), "main", "", lang))
        return found if found is not None and found.seq == seq else None

    # --- what the routes ask ------------------------------------------------------------------

    async def page(self, page: str, *args: Any, query: str = "", part: str | None = None,
                   since: int | None = None, lang: str = "en") -> Made | None:
        """A public page (:data:`tournament.pages.public.PAGES`, ``player`` with a number), or None
        if it would show the change ``since``; :class:`tournament.event.public.NotPublic` for one
        that is not there."""
        def make(data: dict[str, Any], site: pages.Site) -> str:
            return pages.page_html(data, site, page, *args, query=query, part=part, lang=lang)

        # A search is somebody's own: made for them, not kept.
        return await self.reader.run(lambda store: self._page(store, (page, args, part, query, lang), make, not query,
                                                              since, page in pages.SHOWS_STATUS))

    async def feed(self, key: tuple, read: Callable[[EventStore], Any],
                   known: Callable[[str, int], bool]) -> tuple[str, int, Made | None]:
        """:meth:`_feed` on the reader's thread (a follower of the feed never holds up a table)."""
        return await self.reader.run(lambda store: self._feed(store, key, read, known))

    async def projector(self, part: str | None = None, since: int | None = None, lang: str = "en",
                        seconds: int = pages.SCREEN_SECONDS, size: str = "normal") -> Made | None:
        def make(data: dict[str, Any], site: pages.Site) -> str:
            return pages.projector_html(data, site, self.base_url + "/", part, lang, seconds, size)

        return await self.reader.run(lambda store: self._page(store, ("projector", part, lang, seconds, size), make,
                                                              True, since))

    async def replay(self, round_no: int, table_no: int, lang: str = "en") -> Made:
        """The replay page of a table's game once its result is in (never of a game in play)."""
        from domrec import replay_page
        from domrec.reader import loads

        text, identity = await self.reader.run(lambda store: confirmed_record(store, round_no, table_no))
        key = (round_no, table_no, identity or text, lang)
        found = self._replays.get(key)
        if found is None:
            def draw() -> Made:
                return made(replay_page.page(loads(text), f"round {round_no} table {table_no}", identity, lang,
                                             switch=True), 0)

            found = await asyncio.get_running_loop().run_in_executor(self.drawer, draw)
            self._replays[key] = found
            while len(self._replays) > KEPT_REPLAYS:
                self._replays.popitem(last=False)
        return found


def _stamper_of(event: Path) -> EventStore:
    """The watcher's connection to ``event``: shared (opened on a thread, read on the event loop),
    unable to write (``PRAGMA query_only``) whichever process holds it, and never waiting for a
    lock (``busy_timeout`` 0: the event loop does not wait; a busy file is looked at the usual way)."""
    store = open_event(event, shared=True)
    store.conn.execute("PRAGMA query_only = ON")
    store.conn.execute("PRAGMA busy_timeout = 0")
    return store


_RETRY = f"retry: {RETRY_MS}\n\n".encode()
_KEEPALIVE = b": keep-alive\n\n"


def _message(seq: int, spread: int | None) -> bytes:
    """A stream's message: the number it follows, and (``spread``) over how long to spread the fetch."""
    message = f"id: {seq}\nevent: seq\ndata: {seq}\n\n"
    if spread is not None:  # said after the number, and again when it changes
        message += f"event: spread\ndata: {spread}\n\n"
    return message.encode()


class _Listener:
    """A stream written by its connection itself (:meth:`LiveFeed.listen`): where it goes, what it
    follows, and what it was last told."""

    __slots__ = ("sink", "tables", "sent", "spread", "quiet_since", "timer")

    def __init__(self, sink: Any, tables: bool, now: float) -> None:
        self.sink = sink
        self.tables = tables
        self.sent: int | None = None
        self.spread: int | None = None
        self.quiet_since = now  # when it was last written to
        self.timer: asyncio.TimerHandle | None = None  # its end, at its lifetime


class LiveFeed:
    """The public pages' revision and the event's latest change, watched once for every open stream
    (every :data:`POLL` seconds, and at once when this server logged a change: :meth:`poke`).

    A stream follows the public pages' revision (:func:`tournament.event.changes.latest_public_seq`):
    it hears of a result, a round paired, a correction, a name, never of a table's move.  A stream
    opened with ``follow=tables`` (the pages that show the tables' statuses in play,
    :data:`tournament.pages.public.SHOWS_STATUS`) follows every change of the event."""

    def __init__(self, event: Path, max_streams: int = MAX_STREAMS, lifetime: float = LIFETIME,
                 keepalive: float = KEEPALIVE, poll: float = POLL, read_only: bool = False) -> None:
        self.reader = _Reader(Path(event), "live", read_only)
        self.max_streams, self.lifetime, self.keepalive, self.poll = max_streams, lifetime, keepalive, poll
        #: The event's latest change and the public pages' revision, as last looked at.
        self.seq: int | None = None
        self.revision: int | None = None
        self.streams = 0
        self.stopping = False
        #: How many times the watcher looked at the file (for tests and the curious).
        self.looks = 0
        self._changed: asyncio.Event | None = None  # set when the public pages' revision moves on
        self._moved: asyncio.Event | None = None  # set when any change is logged
        self._poke: asyncio.Event | None = None
        self._watcher: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.event = Path(event)
        #: A connection of the watcher's own, read on the event loop: only ``PRAGMA data_version``
        #: (:meth:`_moved_since`), and the file's ``data_version`` as it last said.
        self._stamper: EventStore | None = None
        self._stamp: int | None = None
        #: The streams written by their connections themselves (:meth:`listen`), and their keep-alive's timer.
        self._listeners: set[_Listener] = set()
        self._beat: asyncio.TimerHandle | None = None

    def close(self) -> None:
        self.reader.close()
        stamper, self._stamper = self._stamper, None
        if stamper is not None:
            stamper.conn.close()  # (opened shared: closed from whichever thread stops the feed)

    # --- the watcher ---------------------------------------------------------------------------

    def _start(self) -> None:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._changed, self._moved, self._poke = asyncio.Event(), asyncio.Event(), asyncio.Event()
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.ensure_future(self._watch())

    @staticmethod
    def _look(store: EventStore) -> tuple[int, int]:
        with store.reading():
            return latest_seq(store), latest_public_seq(store)

    async def _moved_since(self) -> bool:
        """Whether anything may have been written to the file since the last look: SQLite's
        ``data_version`` (it moves when another connection commits), read on the event loop on
        the watcher's own connection, one statement that never waits for a lock (busy: True).
        The watcher looks every :data:`POLL` seconds for as long as a stream is open, a few
        hundred phones or none: a look that finds nothing new costs that one statement, not a
        trip to the reader's thread and a read transaction there.  True when it cannot tell."""
        try:
            if self._stamper is None:  # opened on the reader's thread (it reads the file's header)
                self._stamper = await self.reader.run(lambda _: _stamper_of(self.event))
            stamp = self._stamper.conn.execute("PRAGMA data_version").fetchone()[0]
        except (sqlite3.Error, TournamentError):
            self._stamp = None
            return True
        moved, self._stamp = stamp != self._stamp, stamp
        return moved

    def _look_here(self) -> tuple[int, int] | None:
        """:meth:`_look` on the event loop, on the watcher's own connection (two reads by the log's
        key, in one read transaction that never waits for a lock): no trip to the reader's thread
        and back, each a wake-up of both.  None when the file is busy (the thread looks then)."""
        stamper = self._stamper
        if stamper is None:
            return None
        try:
            return self._look(stamper)
        except sqlite3.OperationalError:
            if stamper.conn.in_transaction:
                stamper.conn.rollback()
            return None

    async def _watch(self) -> None:
        assert self._poke is not None
        while self.streams > 0 and not self.stopping:
            if not await self._moved_since():
                seq, revision = self.seq, self.revision
            else:
                try:
                    found = self._look_here()
                    seq, revision = found if found is not None else await self.reader.run(self._look)
                    self.looks += 1
                except (sqlite3.Error, TournamentError):  # the file busy for a moment: look again at the next turn
                    seq, revision = self.seq, self.revision
                    self._stamp = None
            if seq != self.seq or revision != self.revision:
                public = revision != self.revision
                self.seq, self.revision = seq, revision
                self._wake(public)
            try:
                await asyncio.wait_for(self._poke.wait(), self.poll)
            except TimeoutError:
                pass
            self._poke.clear()

    def _wake(self, public: bool = True) -> None:
        """Every stream waiting for a change it follows looks again; every listener following it
        is told, each message made once for all of them (or ended: the server is stopping)."""
        assert self._changed is not None and self._moved is not None
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()
        if public:
            changed, self._changed = self._changed, asyncio.Event()
            changed.set()
        if self._listeners:
            if self.stopping:
                for listener in list(self._listeners):
                    self._end(listener)
                return
            made: dict[tuple[int, int | None], bytes] = {}
            now = time.monotonic()
            for listener in self._listeners:
                if public or listener.tables:
                    self._tell(listener, made, now)

    def _tell(self, listener: _Listener, made: dict[tuple[int, int | None], bytes], now: float) -> None:
        """The number ``listener`` follows, if it has not been told it (as :meth:`events` says it)."""
        seq = self.seq if listener.tables else self.revision
        if seq is None or seq == listener.sent:
            return
        spread = self.spread_ms()
        key = (seq, spread if spread != listener.spread else None)
        framed = made.get(key)
        if framed is None:
            framed = made[key] = chunk(_message(*key))
        listener.sent, listener.spread, listener.quiet_since = seq, spread, now
        listener.sink.send(framed)

    def listen(self, sink: Any, tables: bool = False) -> None:
        """A stream written by its connection itself (the hall's, :meth:`tournament.web.hall.
        HallServer.light_request`): the same messages as :meth:`events`, byte for byte, each
        made once for every listener it goes to and written straight to their connections, with
        no task, generator, timer or ASGI message a stream.  Its place was taken with
        :meth:`reserve`; it is given back when the stream ends (its lifetime, the server stopping)
        or its client goes away.  Keep-alives: every listener silent for half of :data:`KEEPALIVE`
        or more gets one at the next beat (one timer for all, every half of it): none is ever
        silent for longer than :data:`KEEPALIVE`."""
        self._start()
        assert self._loop is not None
        now = time.monotonic()
        listener = _Listener(sink, tables, now)
        self._listeners.add(listener)
        sink.gone = lambda: self._drop(listener)
        listener.timer = self._loop.call_later(self.lifetime, self._end, listener)
        sink.send(chunk(_RETRY))
        if self.stopping:
            self._end(listener)
            return
        self._tell(listener, {}, now)
        if self._beat is None:
            self._beat = self._loop.call_later(self.keepalive / 2, self._keep_alive)

    def _keep_alive(self) -> None:
        self._beat = None
        if not self._listeners or self._loop is None:
            return
        now = time.monotonic()
        framed = chunk(_KEEPALIVE)
        for listener in self._listeners:
            if now - listener.quiet_since >= self.keepalive / 2:
                listener.quiet_since = now
                listener.sink.send(framed)
        self._beat = self._loop.call_later(self.keepalive / 2, self._keep_alive)

    def _drop(self, listener: _Listener) -> None:
        """A listener's client went away: its place is free."""
        if listener in self._listeners:
            self._listeners.discard(listener)
            if listener.timer is not None:
                listener.timer.cancel()
            self.release()

    def _end(self, listener: _Listener) -> None:
        """A listener's stream ends (its lifetime is over, or the server stops): its place is free."""
        if listener in self._listeners:
            self._drop(listener)
            listener.sink.end()

    def poke(self) -> None:
        """This server logged a change: look at the file now, not at the next turn."""
        if self._poke is not None:
            self._poke.set()

    def stop(self) -> None:
        """End every stream (the server is stopping); safe from a signal handler or another thread."""
        self.stopping = True
        if self._loop is not None and self._changed is not None:
            try:
                self._loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the loop has closed: no stream is left to end
                pass

    def watched(self, status: bool = False) -> int | None:
        """The public pages' revision (``status``: the event's latest change) as the watcher last
        looked, while it is watching (a stream is open); else None: nobody is looking at the file."""
        if self.streams <= 0 or self.stopping or self._watcher is None or self._watcher.done():
            return None
        return self.seq if status else self.revision

    # --- a stream ---------------------------------------------------------------------------------

    def full(self) -> bool:
        return self.streams >= self.max_streams

    def reserve(self) -> bool:
        """A place for one more stream, if there is room: looked at and taken in one step, with
        nothing awaited between (on the event loop's one thread), so streams asked for all at once
        cannot all see room before any of them is counted.  Given back with :meth:`release`."""
        if self.streams >= self.max_streams:
            return False
        self.streams += 1
        return True

    def release(self) -> None:
        """A place taken with :meth:`reserve` is free again (its stream ended, or never began)."""
        self.streams -= 1

    def spread_ms(self) -> int:
        """Over how long the phones following the hall spread their fetches after a change: each
        waits a random moment up to this.  A club's hall (a hundred phones) waits at most
        :data:`SPREAD_MS`'s least; a championship's (500 phones) up to its most, so that a result
        never sends the whole hall's fetches in the same instant, ahead of the tables' moves."""
        least, most = SPREAD_MS
        return max(least, min(most, SPREAD_PER_STREAM_MS * self.streams))

    async def events(self, tables: bool = False, reserved: bool = False) -> AsyncIterator[bytes]:
        """One client's stream: the number it follows at once (the public pages' revision, or with
        ``tables`` the event's latest change), then each new one, keep-alives between, until
        :data:`LIFETIME` or the server stops.  ``reserved``: its place was taken with
        :meth:`reserve` (and is given back by whoever took it); else the stream counts itself."""
        if not reserved:
            self.streams += 1
        try:
            self._start()
            deadline = time.monotonic() + self.lifetime
            yield _RETRY
            sent: int | None = None
            spread: int | None = None
            while not self.stopping:
                assert self._changed is not None and self._moved is not None
                changed = self._moved if tables else self._changed
                now = self.seq if tables else self.revision
                if now is not None and now != sent:
                    sent = now
                    said = self.spread_ms()
                    yield _message(sent, said if said != spread else None)
                    spread = said
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(changed.wait(), min(self.keepalive, left))
                except TimeoutError:
                    if time.monotonic() < deadline:
                        yield _KEEPALIVE
        finally:
            if not reserved:
                self.streams -= 1
