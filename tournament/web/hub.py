"""A federation's hub: every venue's public pages and feed, rebuilt from the NATS JetStream streams alone.

``tournament hub --nats nats://HOST:4222`` reads every event's stream (``DOMREC-<uuid>``:
:mod:`tournament.web.relay`) and serves the world what each venue serves its hall:

* ``/``: the events, live ones first, by federation, club and date;
* ``/e/ID/...``: the event's public pages, made by the venue's own page code
  (:mod:`tournament.pages.public`) from the pages' data the venue sent, with each table's status as
  the changes since then give it; ``/e/ID/live``, the live stream those pages follow;
* ``/api/v1/events`` and ``/api/v1/e/ID/{event,standings,rounds/N,games/R/T,changes}``: the venue's
  feed, the same documents.

The hub keeps nothing it cannot rebuild: its memory is a cache of the streams, read from their
first message when it starts.  Two hubs read the same streams and serve the same pages; a hub
started later catches up from the streams.  It writes nothing to NATS: its user may only read.

The streams are read on the server's event loop (:class:`StreamReader`): each event's stream from
the next message the hub lacks (``next_by_subj``, so a message replaced since is simply passed),
at once when a core subscription to the events' subjects hears of a message, and every
:data:`POLL` seconds besides; new streams are looked for every :data:`DISCOVER` seconds, and with
them the messages the hub could not read (a problem whose message the stream no longer holds is over).  When the
NATS server is down the hub serves what it has and tries again every :data:`RETRY` seconds.

It refuses as the venue does (:meth:`Hub._refused`; docs/hub.md, "Refusals"): one JSON line in the
client's language, or the refused page to a browser asking for a page; ``tournament hub`` serves it
through the venue's guarded connections (:mod:`tournament.web.connections`).  Its own sentences are
built in English, as the venue's are, and listed as patterns (:data:`REFUSALS`, with the feed's and
the league's that it says: :data:`PHRASES`), whose Spanish the tournament's catalog gives; what it
logs for its operator stays in English.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import gzip
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import jinja2

from domrec import notation, phrases
from domrec.errors import DomrecError, one_line
from domrec.i18n import N_
from domrec.reader import loads
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route

from tournament import i18n
from tournament.event import changes as kinds
from tournament.errors import UnusableInput
from tournament.event import feed, league
from tournament.event.public import NotPublic
from tournament.pages import public as pages
from tournament.pages import words
from tournament.web import encoding, relay
from tournament.web.files import WholeFiles
from tournament.web.link import Answered, Heard, Refused, Said, Unreachable, describe
from tournament.web.upstream import connect

log = logging.getLogger("tournament.hub")

#: Seconds between two reads of every stream when no message was heard of.
POLL = 1.0
#: Seconds between two looks for new streams.
DISCOVER = 2.0
#: Seconds between two attempts to reach NATS while it is unreachable.
RETRY = 1.0
#: Seconds a JetStream request (a stream's list, its messages) may take before the link is taken for
#: down; a request the server refuses fails as soon as its refusal is heard (:class:`Answered`).
ANSWER_TIMEOUT = 5.0
#: Seconds between keep-alive comments on an open live stream, and a stream's life.
KEEPALIVE = 15.0
LIFETIME = 600.0
#: Live streams open at once, at most (all events together).
MAX_STREAMS = 5000
#: Pages kept per event between two changes.
KEPT_PAGES = 64
#: Messages the hub could not read, looked for again on their streams at each look for new streams
#: (:meth:`StreamReader._still_there`), at most: a problem whose message is gone is cleared.
RECHECKED = 64

_SECURITY = {"x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "x-frame-options": "DENY",
             "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' "
                                        "'unsafe-inline'; frame-ancestors 'none'"}
_REPLAY_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
                  "frame-ancestors 'none'")

#: What the hub says to a client in its own words, as patterns (:mod:`domrec.phrases`), so that
#: :meth:`Hub._refused` says each in the client's language (the tournament's catalog gives the
#: Spanish).  A sentence is built in English where it is refused, as the venue's are; one whose
#: pattern is not here would reach a Spanish client in English (``tests/tournament/test_hub_words.py``
#: reads every refusal of this module from its code and fails on one not listed).
REFUSALS = (
    N_("no event %(event)s on this hub"),
    # %(detail)s: what could not be read of the event's stream, as the hub's log says it (English).
    N_("event %(event)s: the hub cannot show its pages: %(detail)s; its change log: %(address)s"),
    N_("this event has sent nothing yet"),
    N_("the hub could not do this; the detail is in the hub's log"),
    # A number in the address (Hub._number), by what it numbers.
    N_("player must be a whole number (not %(text)s)"),
    N_("team must be a whole number (not %(text)s)"),
    N_("board must be a whole number (not %(text)s)"),
    N_("pair must be a whole number (not %(text)s)"),
    N_("round must be a whole number (not %(text)s)"),
    N_("table must be a whole number (not %(text)s)"),
    N_("round %(n)s table %(n2)s has no confirmed game to replay"),
    N_("this game's record cannot be read: %(problem)s"),
    N_("too many pages are following live: this one refreshes itself every few seconds instead"),
    N_("no such league on this hub"),
    N_("round %(n)s table %(n2)s has no confirmed game on this hub"),
    N_("format is json or dgn (not %(text)s)"),
    N_("this record cannot be written as DGN (%(problem)s); ask for it as JSON"),
    N_("since %(n)s is past the last change the hub holds (%(n2)s)"),
)


@functools.cache
def phrases_of_the_hub() -> tuple[str, ...]:
    """Every sentence the hub may say to a client, as patterns: the venue's (its pages' and web
    refusals, the engines', the feed's), the league's that the hub says, and its own."""
    from tournament.web.app import PHRASES as VENUE

    return VENUE + league.REFUSALS + REFUSALS


class Unreadable(NotPublic):
    """An event the hub knows but whose pages' data it could not read (503: the venue's next data mends it)."""

    status = 503


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _public(doc: dict[str, Any]) -> dict[str, Any]:
    """The pages' data and feed's documents a venue sends (:func:`tournament.web.upstream._snapshot`),
    refused (:class:`relay.BadMessage`) when it lacks what the pages and the feed read of it: a message
    no venue sent would otherwise be taken, and every page of the event fail until the next."""
    public, docs = doc.get("public"), doc.get("feed")
    if not (_whole(doc.get("seq")) and _whole(doc.get("revision")) and isinstance(public, dict)
            and isinstance(public.get("rounds"), list) and isinstance(docs, dict)
            and isinstance(docs.get("event"), dict) and isinstance(docs.get("rounds"), list)
            and "standings" in docs and isinstance(doc.get("where"), (dict, type(None)))
            and isinstance(doc.get("started"), (str, type(None)))):
        raise relay.BadMessage("pages' data without its seq, revision, public data or feed's documents")
    return doc


def _digits(text: str) -> bool:
    """A number as a subject writes one: digits 0-9 alone (``int`` reads any script's digits)."""
    return text.isascii() and text.isdigit()


def _status(e: NotPublic) -> int:
    return getattr(e, "status", 404)


class EventCache:
    """One event as the hub knows it: its changes, its confirmed games and its last pages' data."""

    def __init__(self, event: str, created: Any = None) -> None:
        self.event = event
        #: When the event's stream was made (JetStream's ``created``): another time is another stream.
        self.created = created
        self.changes: dict[int, dict[str, Any]] = {}
        self.games: dict[tuple[int, int], tuple[str, str]] = {}
        self.snapshot: dict[str, Any] | None = None
        #: The next message of the stream to read (the stream's own numbering).
        self.next = 1
        #: (round, table) -> the status its last ``table_status`` change gave it.
        self.statuses: dict[tuple[int, int], tuple[int, str]] = {}
        self.pages: dict[tuple, tuple[int, bytes, bytes]] = {}
        self.moved = asyncio.Event()
        #: subject -> why its message could not be read (the hub keeps what it read before, and
        #: says so at /healthz and in /api/v1/events); cleared by a readable message on the subject,
        #: or once the stream no longer holds that message (:meth:`gone`).
        self.unreadable: dict[str, str] = {}
        #: subject -> the stream's number of the message :attr:`unreadable` tells of.
        self.unread_at: dict[str, int] = {}

    def read(self, seq: int, subject: str, data: bytes, headers: dict[str, str] | None = None) -> bool:
        """The stream's message ``seq``: taken (whether it changed anything shown), or kept as a
        problem of the event's when it cannot be read (a message no venue of this version sends):
        what the hub held stays as it was."""
        try:
            moved = self.take(subject, data, headers)
        except (relay.BadMessage, ValueError, UnicodeDecodeError, TypeError, KeyError, AttributeError) as e:
            # (the last three: a message shaped as no venue shapes one, met where it is read; one event's
            # message never stops the reading of every stream)
            problem = f"message {seq} ({subject}) cannot be read: {e}"
            if self.unreadable.get(subject) != problem:
                log.warning("hub: event %s: %s; what the hub holds of it is kept", self.event, problem)
            self.unreadable[subject] = problem
            self.unread_at[subject] = seq
            return False
        self.unreadable.pop(subject, None)
        self.unread_at.pop(subject, None)
        return moved

    def gone(self, subject: str, seq: int) -> None:
        """The stream no longer holds message ``seq`` (removed by the federation, ``nats stream rmm``;
        or replaced by a later one on its subject): its problem, if still that message's, is over."""
        if self.unread_at.get(subject) == seq:
            log.warning("hub: event %s: message %d (%s) is no longer on the stream: its problem is cleared",
                        self.event, seq, subject)
            self.unreadable.pop(subject, None)
            self.unread_at.pop(subject, None)

    @property
    def problem(self) -> str | None:
        """What the hub could not read of this event, in words (None: nothing)."""
        return "; ".join(self.unreadable[s] for s in sorted(self.unreadable)) or None

    # --- the stream's messages --------------------------------------------------------------

    def take(self, subject: str, data: bytes, headers: dict[str, str] | None = None) -> bool:
        """One message of the event's stream; whether it changed anything shown."""
        parts = subject.split(".")
        if len(parts) < 4 or ".".join(parts[:3]) != f"{relay.PREFIX}.{self.event}":
            raise relay.BadMessage(f"{subject}: not a subject of event {self.event}")
        what = parts[3:]
        if what[0] == "change" and len(what) == 2 and _digits(what[1]):
            c = relay.read_json(data, "change")
            seq = int(what[1])
            if c.get("seq") != seq:
                raise relay.BadMessage(f"{subject}: a change numbered {c.get('seq')!r}")
            if seq in self.changes:
                return False
            if c.get("kind") == kinds.TABLE_STATUS and c.get("round") is not None:
                # (checked before it is kept: a message no venue sent, held half taken, failed the
                # reading of every stream, the hub's whole link taken for down, once a start)
                if not (_whole(c["round"]) and _whole(c.get("table")) and isinstance(c.get("data"), dict)):
                    raise relay.BadMessage(f"{subject}: a table's status without its round, table and status")
                key = (c["round"], c["table"])
                if key not in self.statuses or self.statuses[key][0] < seq:
                    self.statuses[key] = (seq, c["data"].get("status"))
            self.changes[seq] = c
            return True
        if what[0] == "game" and len(what) == 3 and _digits(what[1]) and _digits(what[2]):
            text = data.decode("utf-8")
            json.loads(text)  # a record is JSON: anything else is refused here, not shown later
            digest = (headers or {}).get(relay.HASH_HEADER) or hashlib.sha256(data).hexdigest()
            self.games[(int(what[1]), int(what[2]))] = (text, digest)
            return True
        if what == ["public"]:
            # The stream's order is the venue's: the later pages' data replaces the one before, whatever
            # its number (a message forged with a venue's credentials, numbered past the venue's, would
            # otherwise hold the event's pages until the venue's numbers overtook it: never).
            self.snapshot = _public(relay.unpack(data))
            return True
        raise relay.BadMessage(f"{subject}: not a message a venue sends")

    # --- what is shown ----------------------------------------------------------------------

    @property
    def latest(self) -> int:
        """The event's last change the hub holds without a gap before it."""
        seq = 0
        while seq + 1 in self.changes:
            seq += 1
        return seq

    @property
    def revision(self) -> int:
        return self.snapshot["revision"] if self.snapshot else 0

    def seq(self, status: bool) -> int:
        """The number a page is as of: the pages' revision, or (``status``) the latest change."""
        return max(self.latest, self.snapshot["seq"] if self.snapshot else 0) if status else self.revision

    def _status_of(self, r: int, t: dict[str, Any]) -> str:
        found = self.statuses.get((r, t["table"]))
        return feed.status_of(feed.table_played(t), found[1] if found else None)

    def _rounds(self, rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**r, "tables": [{**t, "status": self._status_of(r["round"], t)} for t in r["tables"]]} for r in rounds]

    def data(self) -> dict[str, Any]:
        """The pages' data as the venue sent it, each table's status as the changes now give it."""
        if self.snapshot is None:
            raise NotPublic("this event has sent nothing yet")
        data = self.snapshot["public"]
        seq = self.seq(True)
        return {**data, "rounds": self._rounds(data["rounds"]), "seq": seq, "latest_seq": seq}

    def site(self) -> pages.Site:
        data = self.snapshot["public"] if self.snapshot else {"rounds": []}
        recorded = frozenset((r["round"], t["table"]) for r in data["rounds"] for t in r["tables"]
                             if t["result"] is not None and t["result"]["kind"] == "record"
                             and (r["round"], t["table"]) in self.games)
        return pages.Site(served=True, recorded=recorded, root=f"/e/{self.event}")

    def feed_doc(self, name: str) -> Any:
        if self.snapshot is None:
            raise feed.FeedNotFound("this event has sent nothing yet")
        doc = self.snapshot["feed"][name]
        if name == "event":
            return {**doc, "latest_seq": self.latest}
        if name == "rounds":
            return self._rounds(doc)
        return doc

    def summary(self) -> dict[str, Any]:
        doc = self.snapshot["feed"]["event"] if self.snapshot else {}
        where = (self.snapshot or {}).get("where") or {}
        return {"id": self.event, "name": doc.get("name"), "game": doc.get("game"), "format": doc.get("format"),
                "status": doc.get("status"), "players": doc.get("players"), "current_round": doc.get("current_round"),
                "club": where.get("club"), "federation": where.get("federation"),
                "started": (self.snapshot or {}).get("started"), "latest_seq": self.latest,
                "pages": f"/e/{self.event}/", "feed": f"/api/v1/e/{self.event}/event", "problem": self.problem}

    def changes_after(self, since: Any, limit: Any) -> dict[str, Any]:
        after = feed.whole_number(since, "since", 0)
        most = min(feed.whole_number(limit, "limit", kinds.MAX_LIMIT, least=1), kinds.MAX_LIMIT)
        latest = self.latest
        if after > latest:
            raise feed.BadQuery(f"since {after} is past the last change the hub holds ({latest})")
        found = [self.changes[s] for s in range(after + 1, min(latest, after + most) + 1)]
        uuid = self.snapshot["feed"]["event"]["uuid"] if self.snapshot else self.event
        return {"feed_version": feed.FEED_VERSION, "uuid": uuid, "since": after, "limit": most, "latest": latest,
                "next": found[-1]["seq"] if found else after, "changes": found}


class StreamReader:
    """Reads every event's stream into its :class:`EventCache`, on the server's event loop."""

    def __init__(self, url: str, options: dict[str, Any] | None = None) -> None:
        self.url = url
        self.options = options or {}
        self.events: dict[str, EventCache] = {}
        #: Whether the hub reads NATS just now (its streams listed once on this connection), and why
        #: not, in words (``/healthz``; the log says it once a change).
        self.connected = False
        self.problem: str | None = f"not connected to nats at {url} yet"
        #: Attempts to reach NATS, and their failures (a test waits on them).
        self.tries = 0
        self.failures = 0
        self._said = Said(log, f"hub: nats {url}")
        self._task: asyncio.Task | None = None
        self._heard = asyncio.Event()
        #: The events a message was heard on since their streams were last read.
        self._dirty: set[str] = set()
        self._stopping = False
        #: (event, subject, message) -> when :meth:`_still_there` last looked for it.
        self._checked: dict[tuple[str, str, int], float] = {}

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        self._stopping = True
        self._heard.set()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    async def _run(self) -> None:
        while not self._stopping:
            nc = None
            heard = Heard(self._heard_while_connecting)
            try:
                self.tries += 1
                nc = await connect({"servers": [self.url], **self.options}, "domrec hub", heard)
                js = Answered(nc.jetstream(timeout=ANSWER_TIMEOUT), heard)  # (refused: at once)

                async def heard_of(msg: Any) -> None:  # a message on an event's subjects: read that stream now
                    parts = msg.subject.split(".")
                    if len(parts) > 2:
                        self._dirty.add(parts[2])
                    self._heard.set()

                await nc.subscribe(f"{relay.PREFIX}.>", cb=heard_of)
                await nc.flush()  # the server's refusal of the subscription, if any, is heard by now
                if heard.refusal() is not None:
                    raise Refused(heard.refusal())
                looked, everything = 0.0, True
                while not self._stopping and nc.is_connected:
                    if time.monotonic() - looked >= DISCOVER:
                        self._dirty |= await self._discover(js)  # a new stream: read at once
                        await self._still_there(js)
                        looked = time.monotonic()
                        if not self.connected:  # the streams listed: the hub reads NATS
                            self.connected, self.problem = True, None
                            self._said.fine("reading the streams again")
                    due, self._dirty = (self._dirty if not everything else set(self.events)), set()
                    for event in due:
                        cache = self.events.get(event)
                        if cache is not None:
                            await self._read(js, cache)
                        else:
                            looked = 0.0  # a new event's first message: look for its stream at once
                    self._heard.clear()
                    everything = False
                    if not self._dirty:
                        try:
                            await asyncio.wait_for(self._heard.wait(), POLL)
                        except TimeoutError:
                            everything = True  # nothing heard for a while: read every stream anyway
                if self._stopping:  # the hub stops: nothing was lost, and nothing is to be said
                    return
                raise ConnectionError("the link to NATS was lost")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # NATS down or gone: serve what is held, try again
                self.failures += 1
                self.connected = False
                self.problem = describe(e, self.url, heard, nc is not None,
                                        "a hub's credentials read every stream: are these a venue's?")
                self._said.problem(self.problem, RETRY)
            finally:
                if nc is not None:
                    try:
                        await nc.close()
                    except Exception:
                        pass
            await asyncio.sleep(RETRY)

    def _heard_while_connecting(self, e: Exception) -> None:
        """The server's answer to a connect still waiting (refused, no such host): said at once."""
        if not self.connected:
            now = Heard()  # (what was heard before does not name this: a refusal of a subject does)
            now.last = e
            self.problem = describe(e, self.url, now, False,
                                    "a hub's credentials read every stream: are these a venue's?")

    async def _discover(self, js: Any) -> set[str]:
        """Every event's stream; the events new to the hub (or whose stream was made again)."""
        offset = 0
        new: set[str] = set()
        while True:
            found = await js.streams_info(offset)
            for info in found:
                event = relay.event_of_stream(info.config.name)
                if event is None:
                    continue
                held = self.events.get(event)
                made = getattr(info, "created", None)
                if held is None:
                    self.events[event] = EventCache(event, made)
                    new.add(event)
                elif (made is not None and held.created is not None and made != held.created) \
                        or info.state.last_seq < held.next - 1:
                    # The stream made again (deleted and sent again by a venue restored from an older
                    # copy, or its store lost): what the hub holds of it is another history's; drop
                    # it and read the stream from its start, as a hub started now would.
                    fresh = EventCache(event, made)
                    self.events[event] = fresh
                    held.pages.clear()
                    held.moved.set()  # its live followers look again, at the new cache
                    log.warning("hub: event %s: its stream was made again; read again from its start", event)
                    new.add(event)
            if len(found) < 256:
                return new
            offset += len(found)

    async def _still_there(self, js: Any) -> None:
        """Each message the hub could not read, looked for on its stream (:data:`RECHECKED` at most a
        look, the longest unchecked first): one no longer there has its problem cleared
        (:meth:`EventCache.gone`), so ``/healthz`` tells of what the streams hold now, not of a message
        the federation removed.  One still there is still a problem: a hub started now would meet it."""
        from nats.js.errors import NotFoundError

        held = [(cache, subject, seq) for cache in list(self.events.values())
                for subject, seq in list(cache.unread_at.items())]
        held.sort(key=lambda found: self._checked.get((found[0].event, found[1], found[2]), 0.0))
        for cache, subject, seq in held[:RECHECKED]:
            self._checked[(cache.event, subject, seq)] = time.monotonic()
            try:
                await js.get_msg(relay.stream_name(cache.event), seq)
            except NotFoundError:
                cache.gone(subject, seq)
        kept = {(c.event, subject, seq) for c, subject, seq in held}
        self._checked = {k: v for k, v in self._checked.items() if k in kept}

    async def _read(self, js: Any, cache: EventCache) -> None:
        from nats.js.errors import NotFoundError

        name = relay.stream_name(cache.event)
        moved = False
        while True:
            try:
                msg = await js.get_msg(name, cache.next, subject=relay.subjects(cache.event), next=True)
            except NotFoundError:  # nothing at or after cache.next: the hub holds all of it
                break
            moved = cache.read(msg.seq, msg.subject, msg.data or b"", msg.headers or {}) or moved
            cache.next = msg.seq + 1
        if moved:
            cache.pages.clear()
            cache.moved.set()
            cache.moved = asyncio.Event()


async def read_all(url: str, options: dict[str, Any] | None = None) -> dict[str, EventCache]:
    """Every event's stream read once, whole (``tournament archive``): what a hub starting now would hold."""
    reader = StreamReader(url, options)
    heard = Heard()
    try:
        nc = await connect({"servers": [url], **reader.options}, "domrec archive", heard)
    except Exception as e:  # (nats-py's connect waits on while refused: what it heard is why, in words)
        if heard.refusal() is not None:
            raise Refused(heard.refusal()) from None
        raise Unreachable(describe(e, url, heard, False)) from None
    try:
        js = Answered(nc.jetstream(timeout=10), heard)
        for event in sorted(await reader._discover(js)):
            await reader._read(js, reader.events[event])
    finally:
        await nc.close()
    return reader.events


def archive_lines(events: dict[str, EventCache]) -> Iterator[str]:
    """Each confirmed game's record of every event, a JSON line each (``domrec validate`` reads them),
    by event, round and table: the games whose table's result, as the event's pages last said, is
    that record.  The stream keeps every record a venue sent; a result cleared since, or amended
    to a typed score, no longer counts, and its record is left out, as the hub's pages leave it."""
    for event in sorted(events):
        cache = events[event]
        counted = cache.site().recorded
        for (round_no, table_no) in sorted(cache.games):
            if (round_no, table_no) not in counted:
                continue
            yield json.dumps(json.loads(cache.games[(round_no, table_no)][0]), ensure_ascii=False,
                             separators=(",", ":"))


# --- the web ------------------------------------------------------------------------------------


class Hub:
    """The hub's web application over a :class:`StreamReader`."""

    def __init__(self, url: str, options: dict[str, Any] | None = None, max_streams: int = MAX_STREAMS,
                 lifetime: float = LIFETIME, keepalive: float = KEEPALIVE,
                 league_tiebreaks: dict[str, tuple[str, ...]] | None = None) -> None:
        self.reader = StreamReader(url, options)
        #: The tie-breaks the federation named for each league (``--league NAME=won,diff``).
        self.league_tiebreaks = dict(league_tiebreaks or {})
        self.max_streams, self.lifetime, self.keepalive = max_streams, lifetime, keepalive
        self.streams = 0
        self.stopping = False
        #: The server's event loop, while it serves (:meth:`stop_streams` wakes the streams on it).
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The thread the pages and replays are made on, one at a time, off the event loop.
        self.drawer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="hub-pages")
        here = Path(__file__).parent
        loader = jinja2.FileSystemLoader(str(here / "templates"))
        self.templates = {lang: i18n.environment(loader, lang, trim_blocks=True, lstrip_blocks=True)
                          for lang in i18n.LANGUAGES}
        e = "/e/{event}"
        routes = [
            Route("/", self.index), Route("/api/v1/events", self.api_events),
            Route("/healthz", self.health),
            Route("/l/{league}", self.league_page), Route("/api/v1/leagues", self.api_leagues),
            Route("/api/v1/leagues/{league}", self.api_league),
            Route("/api/v1/e/{event}/event", self.api_feed),
            Route("/api/v1/e/{event}/standings", self.api_feed),
            Route("/api/v1/e/{event}/rounds/{round}", self.api_round),
            Route("/api/v1/e/{event}/games/{round}/{table}", self.api_game),
            Route("/api/v1/e/{event}/changes", self.api_changes),
            Route(f"{e}/live", self.live),
            Route(f"{e}/projector", self.projector),
            Route(f"{e}/games/{{round}}/{{table}}", self.replay),
            Route(f"{e}/players/{{number}}", self.numbered), Route(f"{e}/teams/{{number}}", self.numbered),
            Route(f"{e}/boards/{{number}}", self.numbered), Route(f"{e}/pairs/{{number}}", self.numbered),
            Route(f"{e}/matches/{{round}}/{{table}}", self.match),
            Route(f"{e}/", self.page), Route(e, self.page),
            Route(f"{e}/{{page}}", self.page),
            Mount("/static", WholeFiles(directory=str(here / "static")), name="static"),
        ]
        self.app = Starlette(routes=routes, lifespan=self._lifespan,
                             exception_handlers={HTTPException: self._not_here, Exception: self._crash})

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Any) -> AsyncIterator[None]:
        self._loop = asyncio.get_running_loop()
        self.reader.start()
        try:
            yield
        finally:
            self.stopping = True
            self._loop = None
            await self.reader.stop()

    def stop_streams(self) -> None:
        """The server is stopping (Ctrl-C or SIGTERM, heard on the main thread): every live stream
        ends now, rather than holding the stop for uvicorn's grace and being cancelled at its end."""
        self.stopping = True
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: no stream is left
                loop.call_soon_threadsafe(self._wake_streams)

    def _wake_streams(self) -> None:
        for cache in list(self.reader.events.values()):
            cache.moved.set()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k.encode(), v.encode()) for k, v in _SECURITY.items() if k.encode() not in names]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-cache"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)

    # --- helpers ---------------------------------------------------------------------------

    def _cache(self, request: Request, pages: bool = True) -> EventCache:
        """The event asked for; ``pages``: its pages' data is needed (the change log is not it)."""
        event = request.path_params["event"].lower()
        cache = self.reader.events.get(event)
        if cache is None or (cache.snapshot is None and not cache.unreadable):
            raise NotPublic(f"no event {event[:40]} on this hub")
        if pages and cache.snapshot is None:
            raise Unreadable(f"event {event[:40]}: the hub cannot show its pages: {cache.problem}; its change log: "
                             f"/api/v1/e/{cache.event}/changes")
        return cache

    @staticmethod
    def _lang(request: Request) -> str:
        from tournament.web.app import _kept_or_negotiated

        asked = i18n.known(request.query_params.get("lang"))
        if asked:
            return asked
        return _kept_or_negotiated(request.headers.get("cookie"), request.headers.get("accept-language"),
                                   i18n.DEFAULT)

    def _refused(self, request: Request, message: str, status: int, headers: dict[str, str] | None = None) -> Response:
        """A refusal as the venue gives one: its one line in the client's language (the venue's
        catalogs), on a short page to a browser asking for a page (GET or HEAD, ``Accept:
        text/html``, not under ``/api/``), else as one JSON line ``{"error": ...}``."""
        from tournament.web.app import wants_page

        lang = self._lang(request)
        said = phrases.translate(one_line(message), lang, phrases_of_the_hub(), i18n.FOLDERS)
        if wants_page(request):
            cache = self.reader.events.get(str(request.path_params.get("event", "")).lower())
            name = cache.summary()["name"] if cache is not None and cache.snapshot is not None else None
            languages = [(code, i18n.NAMES[code]) for code in sorted(i18n.LANGUAGES, key=lambda c: c != "es")]
            html = self.templates[lang].get_template("refused.html.j2").render(
                hub=True, event=name, home=f"/e/{cache.event}/" if name else "/", message=said, lang=lang,
                languages=languages, strings=None)
            return HTMLResponse(html, status_code=status,
                                headers={**(headers or {}), "vary": "Accept, Accept-Language, Cookie"})
        return JSONResponse({"error": said}, status_code=status, headers=headers)

    async def _not_here(self, request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (an address with nothing at it, 404; a method an address does
        not take, 405, with its ``Allow``), answered as the venue answers them (they were a line
        of English plain text)."""
        from tournament.web.app import not_here

        status, text = not_here(request.method, exc)
        return self._refused(request, text, status, dict(getattr(exc, "headers", None) or {}))

    async def _crash(self, request: Request, exc: Exception) -> Response:
        """Starlette's last resort (its "Internal Server Error" in plain text) answered as every
        refusal is; the detail goes to the hub's log (Starlette logs it), never to the client."""
        return self._refused(request, "the hub could not do this; the detail is in the hub's log", 500)

    @staticmethod
    def _number(text: str, what: str) -> int:
        if not (text.isascii() and text.isdigit() and len(text) < 10):
            raise NotPublic(f"{what} must be a whole number (not {text[:20]!r})")
        return int(text)

    async def _made(self, request: Request, cache: EventCache, key: tuple, status: bool, make: Any) -> Response:
        """A page made once per change of what it shows, whoever asks (``?part=main&since=SEQ``: 204
        while it is that same change); made on a thread, so that the streams' reading and the live
        streams never wait on a big event's page."""
        seq = cache.seq(status)
        part = "main" if request.query_params.get("part") == "main" else None
        since = request.query_params.get("since", "")
        if part and since == str(seq):
            return Response(status_code=204)
        key = (*key, part, self._lang(request))
        found = cache.pages.get(key)
        if found is None or found[0] != seq:
            data, site, lang = {**cache.data(), "seq": seq}, cache.site(), key[-1]

            def draw() -> tuple[int, bytes, bytes]:
                html = make(data, site, part, lang).encode("utf-8")
                return seq, html, gzip.compress(html, compresslevel=6, mtime=0)

            found = await asyncio.get_running_loop().run_in_executor(self.drawer, draw)
            if len(cache.pages) >= KEPT_PAGES:
                cache.pages.pop(next(iter(cache.pages)))
            cache.pages[key] = found
        headers = {"x-seq": str(seq), "vary": "Accept-Encoding, Accept-Language, Cookie"}
        if encoding.gzip_taken(request.headers.get("accept-encoding")):
            headers["content-encoding"] = "gzip"
            return Response(found[2], media_type="text/html; charset=utf-8", headers=headers)
        return Response(found[1], media_type="text/html; charset=utf-8", headers=headers)

    async def _page(self, request: Request, page: str, *args: Any) -> Response:
        try:
            cache = self._cache(request)
            query = request.query_params.get("q", "")[:100] if page == "index" else ""

            def make(data: dict[str, Any], site: pages.Site, part: str | None, lang: str) -> str:
                return pages.page_html(data, site, page, *args, query=query, part=part, lang=lang)

            return await self._made(request, cache, (page, args, query), page in pages.SHOWS_STATUS, make)
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))

    # --- the pages --------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        """Every event on the hub: live ones first, grouped by federation and club, the latest first."""
        lang = self._lang(request)
        groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for doc in self._events():
            groups.setdefault((doc["federation"] or "", doc["club"] or ""), []).append(doc)
        languages = [(code, i18n.NAMES[code]) for code in sorted(i18n.LANGUAGES, key=lambda c: c != "es")]
        html = self.templates[lang].get_template("hub.html.j2").render(
            groups=sorted(groups.items(), key=lambda kv: (kv[0] == ("", ""), kv[0])), lang=lang,
            leagues=sorted(self._leagues()),
            languages=languages, strings=None, game_name=lambda game: words.game_name(game, lang))
        return HTMLResponse(html, headers={"vary": "Accept-Language, Cookie"})

    def _events(self) -> list[dict[str, Any]]:
        docs = [c.summary() for c in self.reader.events.values() if c.snapshot is not None or c.unreadable]
        docs.sort(key=lambda d: (d["status"] == "finished", d["federation"] or "", d["club"] or "",
                                 [-ord(ch) for ch in (d["started"] or "")], d["name"] or ""))
        return docs

    async def page(self, request: Request) -> Response:
        name = request.path_params.get("page", "") or "index"
        if name not in (*pages.PAGES, "boards"):
            from tournament.web.app import NOTHING_HERE

            return self._refused(request, NOTHING_HERE, 404)
        return await self._page(request, name)

    async def numbered(self, request: Request) -> Response:
        page = request.url.path.rstrip("/").split("/")[-2][:-1]  # players -> player
        try:
            number = self._number(request.path_params["number"], page)
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))
        return await self._page(request, page, number)

    async def match(self, request: Request) -> Response:
        try:
            r, t = self._number(request.path_params["round"], "round"), self._number(request.path_params["table"], "table")
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))
        return await self._page(request, "match", r, t)

    async def projector(self, request: Request) -> Response:
        try:
            cache = self._cache(request)
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))
        seconds, size = pages.projector_settings(request.query_params.get("seconds"), request.query_params.get("size"))
        url = str(request.base_url).rstrip("/") + f"/e/{cache.event}/"

        def make(data: dict[str, Any], site: pages.Site, part: str | None, lang: str) -> str:
            return pages.projector_html(data, site, url, part, lang, seconds, size)

        return await self._made(request, cache, ("projector", seconds, size), False, make)

    async def replay(self, request: Request) -> Response:
        from domrec import replay_page

        try:
            cache = self._cache(request)
            r, t = self._number(request.path_params["round"], "round"), self._number(request.path_params["table"], "table")
            if (r, t) not in cache.site().recorded:
                raise NotPublic(f"round {r} table {t} has no confirmed game to replay")
            text, digest = cache.games[(r, t)]
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))
        lang = self._lang(request)
        key = ("replay", r, t, digest)
        found = cache.pages.get(key + (None, lang))
        if found is None:
            try:
                html = await asyncio.get_running_loop().run_in_executor(
                    self.drawer,
                    lambda: replay_page.page(loads(text), f"round {r} table {t}", digest, lang, switch=True))
            except DomrecError as e:
                return self._refused(request, f"this game's record cannot be read: {e}", 422)
            body = html.encode("utf-8")
            found = (0, body, gzip.compress(body, mtime=0))
            cache.pages[key + (None, lang)] = found
        return Response(found[1], media_type="text/html; charset=utf-8",
                        headers={"content-security-policy": _REPLAY_POLICY})

    async def live(self, request: Request) -> Response:
        """Server-Sent Events: the event's pages' revision (``follow=tables``: its latest change)."""
        try:
            cache = self._cache(request)
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))
        if self.streams >= self.max_streams:
            return self._refused(request, "too many pages are following live: this one refreshes itself every few "
                                          "seconds instead", 503, {"Retry-After": "30"})
        self.streams += 1
        tables = request.query_params.get("follow") == "tables"
        return StreamingResponse(self._events_of(cache, tables), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no", "cache-control": "no-store"})

    async def _events_of(self, cache: EventCache, tables: bool) -> AsyncIterator[bytes]:
        try:
            deadline = time.monotonic() + self.lifetime
            yield b"retry: 2000\n\n"
            sent: int | None = None
            while not self.stopping:
                cache = self.reader.events.get(cache.event, cache)  # (another, once its stream was made again)
                now = cache.seq(tables)
                if now != sent:
                    sent = now
                    yield f"id: {sent}\nevent: seq\ndata: {sent}\n\n".encode()
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                moved = cache.moved
                try:
                    await asyncio.wait_for(moved.wait(), min(self.keepalive, left))
                except TimeoutError:
                    yield b": keep-alive\n\n"
        finally:
            self.streams -= 1

    # --- the feed ---------------------------------------------------------------------------

    # --- a league across venues -----------------------------------------------------------

    def _leagues(self) -> dict[str, list[EventCache]]:
        out: dict[str, list[EventCache]] = {}
        for cache in self.reader.events.values():
            name = ((cache.snapshot or {}).get("where") or {}).get("league")
            if name:
                out.setdefault(name, []).append(cache)
        return out

    def _league(self, request: Request) -> dict[str, Any] | None:
        name = request.path_params["league"]
        caches = self._leagues().get(name)
        if not caches:
            return None
        asked = request.query_params.get("by")
        by = league.tiebreaks(asked) if asked else self.league_tiebreaks.get(name, league.DEFAULT_TIEBREAKS)
        rows = league.group(request.query_params.get("group"))
        return league.standings(name, [(c.event, c.feed_doc("standings"),
                                        ((c.snapshot or {}).get("where") or {}).get("club")) for c in caches], by, rows)

    async def league_page(self, request: Request) -> Response:
        """A league's standings over its venues' events (``?by=won,diff,for``: its tie-breaks)."""
        try:
            doc = self._league(request)
        except UnusableInput as e:
            return self._refused(request, str(e), 422)
        if doc is None:
            return self._refused(request, "no such league on this hub", 404)
        lang = self._lang(request)
        languages = [(code, i18n.NAMES[code]) for code in sorted(i18n.LANGUAGES, key=lambda c: c != "es")]
        words = i18n.translations(lang).gettext
        ranked_by = ", ".join(words(league.TIEBREAKS[k]) for k in doc["tiebreaks"])  # what each counts
        html = self.templates[lang].get_template("league.html.j2").render(
            league=doc, lang=lang, languages=languages, strings=None, ranked_by=ranked_by, no_club=league.NO_CLUB)
        return HTMLResponse(html, headers={"vary": "Accept-Language, Cookie"})

    async def api_leagues(self, request: Request) -> Response:
        return JSONResponse({"leagues": [{"league": name, "events": sorted(c.event for c in caches),
                                          "standings": f"/api/v1/leagues/{name}"}
                                         for name, caches in sorted(self._leagues().items())]})

    async def api_league(self, request: Request) -> Response:
        try:
            doc = self._league(request)
        except UnusableInput as e:
            return self._refused(request, str(e), 422)
        if doc is None:
            return self._refused(request, "no such league on this hub", 404)
        return JSONResponse(doc)

    async def health(self, request: Request) -> Response:
        unreadable = {c.event: c.problem for c in self.reader.events.values() if c.unreadable}
        return JSONResponse({"nats": self.reader.connected, "problem": self.reader.problem,
                             "events": len(self.reader.events), "unreadable": unreadable},
                            status_code=200 if self.reader.connected else 503)

    async def api_events(self, request: Request) -> Response:
        return JSONResponse({"feed_version": feed.FEED_VERSION, "events": self._events()})

    def _feed(self, request: Request, work: Any, pages: bool = True) -> Response:
        try:
            cache = self._cache(request, pages)
            return JSONResponse(work(cache), headers={"cache-control": "no-cache"})
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))
        except feed.FeedError as e:
            return self._refused(request, str(e), e.status)

    async def api_feed(self, request: Request) -> Response:
        name = request.url.path.rstrip("/").split("/")[-1]
        return self._feed(request, lambda cache: cache.feed_doc(name))

    async def api_round(self, request: Request) -> Response:
        def work(cache: EventCache) -> Any:
            number = feed.whole_number(request.path_params["round"], "round", 0)
            found = [r for r in cache.feed_doc("rounds") if r["round"] == number]
            if not found:
                raise feed.FeedNotFound(f"round {number} has not been paired")
            return found[0]

        return self._feed(request, work)

    async def api_changes(self, request: Request) -> Response:
        return self._feed(request, lambda cache: cache.changes_after(request.query_params.get("since"),
                                                                     request.query_params.get("limit")), False)

    async def api_game(self, request: Request) -> Response:
        form = request.query_params.get("format", "json")
        try:
            cache = self._cache(request)
            r = feed.whole_number(request.path_params["round"], "round", 0)
            t = feed.whole_number(request.path_params["table"], "table", 0)
            if (r, t) not in cache.site().recorded:
                raise feed.FeedNotFound(f"round {r} table {t} has no confirmed game on this hub")
            text, digest = cache.games[(r, t)]
            if form == "dgn":
                return PlainTextResponse(notation.dumps(loads(text)), headers={"etag": f'"{digest}"'})
            if form != "json":
                raise feed.BadQuery(f"format is json or dgn (not {form[:20]!r})")
            return Response(text, media_type="application/json", headers={"etag": f'"{digest}"'})
        except NotPublic as e:
            return self._refused(request, str(e), _status(e))
        except feed.FeedError as e:
            return self._refused(request, str(e), e.status)
        except DomrecError as e:
            return self._refused(request, f"this record cannot be written as DGN ({e}); ask for it as JSON", 422)


