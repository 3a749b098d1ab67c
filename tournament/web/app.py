"""The venue server: an ASGI application (Starlette) over one event file.

A thin layer over :class:`tournament.event.venue.Venue`, which holds every operation: this
module turns requests into calls and answers into JSON or pages, and nothing else.  What it
adds is what a server owes its clients:

* **One line, never a traceback.**  A refusal is ``{"error": "...", "request_id": "..."}``
  with its status (403 a key that does not open this, 404 no such table, 409 the table has
  moved on or is confirmed, 413 a body too large, 422 a move that breaks a rule, 429 too many
  requests, 503 with ``Retry-After`` a write while another program holds the event file longer
  than the venue waits for it, :class:`Held`, or the server shutting down); anything unexpected is a 500 with the same one line, and the detail goes to the
  server's log under the request id.
* **Keys checked on every request** (``Authorization: Bearer KEY``; the pages carry their own
  key and send it so): a table's key reads and writes its own table of its own round only;
  the director's key everything; a table's key with the director's PIN (``X-Director-PIN``)
  reads and corrects its own table's game, as the director at the table.  No cookie carries a
  key (the one cookie, ``lang``, holds a language and nothing else), so a page of another site
  cannot make a browser act here (and a write whose ``Origin`` is not the served address,
  scheme, host and port, is refused anyway, as is a write whose body is not declared
  ``application/json``, 415: a form or ``text/plain``, which another site's page may send
  without asking first).  An HTTP/1.1 request without its one ``Host`` is refused (400).
* **The players' language** (:mod:`tournament.i18n`): ``?lang=es`` (the switch on every page,
  which also sets the ``lang`` cookie), then the cookie, then the browser's
  ``Accept-Language``, then the event's language.  Pages come from templates in that
  language, and the API's sentences (a refusal, what was said of a move, a move's label) are
  translated from the engines' English by :mod:`domrec.phrases`; such answers say ``Vary:
  Accept-Language, Cookie``.
* **Bounded**: request bodies at most :data:`MAX_BODY` bytes; each client address at most
  :data:`RATE` requests a second on average (bursts of :data:`BURST`), so one flooding phone
  is slowed down and the hall is not; the live streams open at once at most
  :data:`~tournament.web.public.MAX_STREAMS`, however many ask together.  (Connections are
  bounded below this, as uvicorn takes them: :mod:`tournament.web.connections`.)
* **Nothing from elsewhere**: scripts, styles and pictures are served from the package.

The tables use the event file from one thread only (:class:`VenueThread`): SQLite takes one
writer at a time anyway, and the venue's operations are short; requests waiting together are
committed together, one flush to disk for all of them.  The hall's pages and the public feed
read the file on threads and connections of their own (:mod:`tournament.web.public`): in a
process of their own as ``tournament serve`` runs them (:mod:`tournament.web.hall`, the same
:class:`HallSite`; this server then redirects the hall's paths there), or in this one.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import concurrent.futures
import contextlib
import functools
import itertools
import json
import logging
import mimetypes
import queue
import re
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl, urlsplit

import attrs
import jinja2
import markupsafe
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request, cookie_parser
import orjson
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.responses import JSONResponse as _JSONResponse
from starlette.routing import Match, Mount, Route

from domrec import phrases
from domrec.errors import DomrecError, clip, one_line
from domrec.i18n import N_, script_strings

from tournament import i18n, names
from tournament.errors import TournamentError
from tournament.event import changes, feed, keys, table_log
from tournament.event.files import open_event
from tournament.event.public import NotPublic
from tournament.event.players import shown_numbers
from tournament.names import plain_direction
from tournament.event.venue import (IDLE_MINUTES, REFUSALS, Forbidden, Unprocessable, Venue, VenueError,
                                    Waiting, hall_address, remember_printed)
from tournament.pages.public import projector_settings
from tournament.pages.sheets import boards_played, qr_data_uri, sheets_page, team_matches
from tournament.settings import Settings
from tournament.store.event_store import EventStore
from tournament.store.sqlite import Checkpointer, is_busy, not_waiting
from tournament.web import devices, encoding, engine_bundle
from tournament.web.engine_bundle import EngineFiles
from tournament.web.files import WholeFiles
from tournament.web.openapi import OPENAPI
from tournament.web.public import LIFETIME, LiveFeed, Made, PublicPages

HERE = Path(__file__).resolve().parent
# The static files' types are guessed from the system's tables, which may lack these two (an old
# /etc/mime.types): a browser compiles WebAssembly only from application/wasm, and runs a module
# script only with a JavaScript type.
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
#: The largest request body taken (a whole game typed in one request is a few kilobytes).
MAX_BODY = 64 * 1024
#: Seconds a request's body has to arrive whole once its headers have come: a body sent a byte at
#: a time would otherwise hold its connection and its request for ever (the header deadline of
#: :mod:`tournament.web.connections` ends when the headers are in).
BODY_SECONDS = 10.0
#: Requests a second each client address may make on average, and the burst it may save up.
RATE = 20.0
BURST = 60
#: Client addresses the rate limit keeps at most (the ones silent the longest are forgotten first).
ADDRESSES = 10_000
log = logging.getLogger("tournament.web")
#: The cookie that keeps a browser's language (set by the switch on a page: ``?lang=es``).
LANG_COOKIE = "lang"
#: The scripts each page runs, whose strings (``t("…")``) the page embeds in its language.
SCRIPTS = {"table.html.j2": ("dom.js", "table.js", "table_director.js"), "director.html.j2": ("dom.js", "director.js"),
           "table_gone.html.j2": ("dom.js", "kept.js")}
#: The header a table's phone sends the director's PIN in (the director at the table: lines, correct).
PIN_HEADER = "x-director-pin"

#: What a request that comes while the server is shutting down is answered (nothing of it done).
STOPPED = N_("the server is shutting down: nothing more is done on the event file; try again once the director "
             "has started it again")


#: What a write is answered when another program holds the event file longer than the venue waits
#: for it (:data:`VENUE_BUSY_S`): 503, nothing of it stored; the phone sends it again, its same id.
FILE_HELD = N_("another program is holding the event file: nothing was stored; this is sent again shortly")
#: Seconds the venue's thread waits for the event file while another program holds it (a command's
#: write, a ``BEGIN EXCLUSIVE`` of another tool) before it refuses the writes waiting (:data:`FILE_HELD`):
#: well above the second or two of a director's command beside the server, well below a command's
#: own wait (:data:`~tournament.store.sqlite.BUSY_TIMEOUT_S`), so that the reads and writes queued
#: behind one write are not held up for half a minute (:class:`VenueThread`).
VENUE_BUSY_S = 5.0
#: The ``Retry-After`` of a write refused so (seconds): when the phone's outbox tries again.
HELD_RETRY_S = 5


#: What a request for an address with nothing at it is answered (404).
NOTHING_HERE = N_("there is nothing at this address: check the link")

#: The server's own refusals, as patterns for :mod:`domrec.phrases` (the page shows them).
WEB_REFUSALS = (
    NOTHING_HERE,
    FILE_HELD,
    N_("this address does not take a %(word)s request"),
    N_("this address does not take an %(word)s request"),
    N_("this request is refused"),
    N_("too many requests from this device: wait a moment and try again"),
    N_("this event has no knockout, round robin or final"),
    N_("a duplicate event has no crosstable: its pairs play boards, each ranked against every table that played it "
       "(see the standings and each board's traveller)"),
    N_("a write from another site's page is refused"),
    N_("a write must be sent as JSON (Content-Type: application/json)"),
    N_("a request must name the host it asks (one Host header)"),
    N_("a request body may hold at most %(n)s KB"),
    N_("the request body did not arrive within %(n)s seconds: send it again"),
    N_("the request body is not JSON (send a JSON object)"),
    N_("the request body must be a JSON object"),
    N_("the request body gives the key %(key)s twice in one object (give each key once)"),
    N_("no such round: %(text)s"),
    N_("no such table: %(text)s"),
    N_("no such player: %(text)s"),
    N_("no such team: %(text)s"),
    N_("no such board: %(text)s"),
    N_("no such pair: %(text)s"),
    N_("no such %(what)s: %(text)s"),
    N_("no such file: %(text)s"),
    N_("too many pages are following the event live: this one refreshes itself every few seconds instead"),
    # The public pages' own (tournament.event.public, tournament.pages.public: NotPublic), which the
    # hub says too.
    N_("round %(n)s table %(n2)s has no result yet: its game is shown once it is in"),
    N_("round %(n)s table %(n2)s was entered as a score, without its moves: there is no game to replay"),
    N_("no player number %(n)s in this event"),
    N_("no team number %(n)s in this event"),
    N_("this is not a duplicate event: it has no boards"),
    N_("duplicate teams are scored by the team: there are no pairs' cards"),
    N_("there is no board %(n)s"),
    N_("there is no pair %(n)s"),
    N_("this is not a duplicate-teams event: its matches are its tables' games"),
    N_("round %(n)s has no match at table %(n2)s"),
    N_("no page %(text)s"),
    # A replay asked of a stored record damaged since (the hub says it too).
    N_("this game's record cannot be read: %(problem)s"),
    N_("format is json or dgn (not %(text)s)"),
    N_("the server could not do this (request %(word)s); the director can find the detail in the server's log"),
    N_("the request body holds half of a character (a lone \\ud800 to \\udfff escape): send whole characters"),
    # The director's pages: the score sheets before any round, a replay asked for an odd board.
    N_("no round has been paired yet"),
    N_("?board= takes the number of a board the table plays"),
    STOPPED,
)
#: Every sentence of the API that a page shows, as patterns: the engines', the venue's, the server's,
#: the feed's.
PHRASES = phrases.PHRASES + REFUSALS + keys.PHRASES + WEB_REFUSALS + feed.REFUSALS


class JSONResponse(_JSONResponse):
    """JSON written by orjson (a table's state goes back at every move: a third of the time of
    Python's writer), the same compact UTF-8 text; anything orjson will not write goes to Python's."""

    def render(self, content: Any) -> bytes:
        return _json_bytes(content)


def _json_bytes(content: Any) -> bytes:
    """``content`` as :class:`JSONResponse` writes it (the light path's answers too)."""
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":")).encode("utf-8")


class _NoAnswer(Response):
    """What a request whose client went away before its body had come whole is answered: nothing
    (there is nobody to answer; uvicorn asks nothing more of a request whose connection is gone)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        return None


class _Refusal(Exception):
    """A refusal made here, before the venue is asked (a body too large, a garbled request)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class _Buckets:
    """A token bucket per client address: :data:`RATE` a second, bursts of :data:`BURST`.

    ``device``: the device an address is counted as (the server's: :func:`tournament.web.devices.device`,
    an IPv6 client off the laptop's own network by its /64; by default each address is one).

    At most ``addresses`` are kept, in the order they were last heard from: when one more comes,
    the address silent the longest is forgotten (its bucket has long filled up again: forgetting
    it costs it nothing).  An address that keeps asking is never the one forgotten, however many
    others appear (an IPv6 device can make up thousands), so a flooder stays slowed down for as
    long as it floods."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic,
                 addresses: int = ADDRESSES, device: Callable[[str], str] = str) -> None:
        self.rate, self.burst, self.clock, self.addresses = rate, burst, clock, addresses
        self.device = device
        self._buckets: collections.OrderedDict[str, tuple[float, float]] = collections.OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def waits(self, who: str) -> bool:
        """Whether :meth:`take` would make ``who`` wait now (nothing taken: a look only)."""
        kept = self._buckets.get(self.device(who))
        if kept is None:
            return self.burst < 1
        level, then = kept
        return min(float(self.burst), level + (self.clock() - then) * self.rate) < 1

    def take(self, who: str) -> float:
        """0 if ``who`` may go on now, else how many seconds to wait."""
        who = self.device(who)
        now = self.clock()
        level, then = self._buckets.get(who, (float(self.burst), now))
        level = min(float(self.burst), level + (now - then) * self.rate)
        wait = 0.0 if level >= 1 else (1 - level) / self.rate
        self._buckets[who] = (level - 1 if not wait else level, now)
        self._buckets.move_to_end(who)  # heard from last: the last to be forgotten
        while len(self._buckets) > self.addresses:
            self._buckets.popitem(last=False)  # the address silent the longest
        return wait


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def _json_body(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > MAX_BODY):
        raise _Refusal(413, f"a request body may hold at most {MAX_BODY // 1024} KB")
    body = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise _Refusal(413, f"a request body may hold at most {MAX_BODY // 1024} KB")
    except TimeoutError:
        raise _Refusal(408, f"the request body did not arrive within {BODY_SECONDS:g} seconds: "
                            f"send it again") from None
    return _parsed(body)


async def _received_json(declared: str | None, receive: Any) -> dict[str, Any]:
    """:func:`_json_body` read straight from the ASGI ``receive`` (the hot requests' light path,
    :meth:`VenueServer._light`): the same limits, the same refusals, the same ClientDisconnect."""
    if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > MAX_BODY):
        raise _Refusal(413, f"a request body may hold at most {MAX_BODY // 1024} KB")
    body = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            while True:
                message = await receive()
                kind = message["type"]
                if kind == "http.request":
                    body += message.get("body", b"")
                    if len(body) > MAX_BODY:
                        raise _Refusal(413, f"a request body may hold at most {MAX_BODY // 1024} KB")
                    if not message.get("more_body", False):
                        break
                elif kind == "http.disconnect":
                    raise ClientDisconnect()
    except TimeoutError:
        raise _Refusal(408, f"the request body did not arrive within {BODY_SECONDS:g} seconds: "
                            f"send it again") from None
    return _parsed(body)


def _not_json(word: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``: Python's json reads them, but they are not JSON
    (RFC 8259), and no number a table or the director sends: the body is refused as not JSON."""
    raise ValueError(f"{word} is not JSON")


def _parsed(body: bytes) -> dict[str, Any]:
    """A request body as the JSON object it must be, or the refusal saying what it is not."""
    try:
        data = json.loads(body.decode("utf-8"), object_pairs_hook=_once, parse_constant=_not_json)
    except _KeyTwice as e:  # {"play": "6-6", "play": "5-2"}: which play was meant?
        raise _Refusal(400, f"the request body gives the key {e.key} twice in one object "
                            f"(give each key once)") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _Refusal(400, "the request body is not JSON (send a JSON object)") from None
    if not isinstance(data, dict):
        raise _Refusal(400, "the request body must be a JSON object")
    if b"\\u" in body:  # (only an escape can give a lone surrogate: raw UTF-8 cannot hold one)
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            # "\ud800" alone is valid JSON but no character: nothing could store or print it.
            raise _Refusal(400, "the request body holds half of a character (a lone \\ud800 to \\udfff escape): "
                                "send whole characters") from None
    return data


#: The longest ``Cookie`` or ``Accept-Language`` whose language is kept worked out (a browser's are
#: far shorter; a longer one is worked out at each request, not kept; a longer ``Accept-Language``
#: is read as no preference: ``domrec.i18n.MAX_HEADER``).
KEPT_HEADER = 512


def _kept_or_negotiated(cookie: str | None, accept: str | None, default: str) -> str:
    """The language a page's cookie keeps, else the best of the browser's for the event's own:
    worked out once for each phone's headers (they are the same at every move of a table).  Headers
    longer than :data:`KEPT_HEADER` are worked out each time, not kept: each of the 512 kept could be
    as long as a request's head (unbounded then: 30 made-up languages of 8 MB held 240 MB of the
    server's memory for good; now :data:`~tournament.web.connections.MAX_HEAD`, still 64 MB)."""
    if (cookie is not None and len(cookie) > KEPT_HEADER) or (accept is not None and len(accept) > KEPT_HEADER):
        return _language_of(cookie, accept, default)
    return _kept_language(cookie, accept, default)


def _language_of(cookie: str | None, accept: str | None, default: str) -> str:
    kept = i18n.known(cookie_parser(cookie).get(LANG_COOKIE)) if cookie else None
    return kept if kept is not None else i18n.negotiate(accept, default)


_kept_language = functools.lru_cache(maxsize=512)(_language_of)


def _plain_direction(value: Any) -> Any:
    if isinstance(value, markupsafe.Markup):  # markup already escaped (a translated sentence): kept so
        return markupsafe.Markup(plain_direction(str(value)))
    return plain_direction(value) if isinstance(value, str) else value


class _KeyTwice(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = clip(key, 30)


def _once(pairs: list) -> dict:
    """An object of a request body, refusing a key given twice: JSON readers differ on which of
    the two counts, and a move must mean one thing (docs/format.md, "One meaning per record")."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        raise _KeyTwice(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return obj


def _int(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise _Refusal(404, f"no such {what}: {one_line(text)[:20]}")
    return int(text)


#: What the guard adds to every answer (:meth:`Site._guarded`), after the request's id; and the two
#: it adds where the answer has none of its own.
_GUARD_HEADERS = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                  (b"x-frame-options", b"DENY"))
_NO_STORE = (b"cache-control", b"no-store")
_POLICY = (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                       b"frame-ancestors 'none'")
#: The table's page's policy, and its engine's worker's (static/engine_worker.js): the default's, but
#: for WebAssembly, which the phone's engine compiles (Pyodide). A worker runs under the policy its
#: own script is answered with, so the worker's script is served with this one by a route of its own.
_ENGINE_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
                  "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
#: The header a negotiated answer of the API says it varies by (:meth:`Site._negotiated`).
_VARY = (b"vary", b"Accept-Language, Cookie")
_JSON_TYPE = (b"content-type", b"application/json")

#: The paths of a table's move and read, as their routes match them (see VenueServer._hot).
_HOT = re.compile(r"/api/v1/tables/([^/]+)/([^/]+)(/dgn)?")
#: The most requests one group of the event file takes (see :class:`VenueThread`).
MAX_GROUP = 64
#: Seconds the browsing thread waits once a result is committed before it ranks the event for what
#: people browse (:class:`BrowsingThread`): the results of a round's last tables, confirmed within
#: it, are ranked once.
BROWSING_DELAY = 0.25
_NOTHING = object()
#: A request's ``Host``: a name or an IPv4 address, or an IPv6 one in brackets, and a port.
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.-]{1,253})(?::[0-9]{1,5})?")


@attrs.frozen
class _OnLoop:
    """A job's answer, wanted on an event loop (:meth:`VenueThread.submit_async`)."""

    loop: asyncio.AbstractEventLoop
    future: asyncio.Future

    def set_running_or_notify_cancel(self) -> bool:
        return not self.future.cancelled()  # a request given up before its turn is not made


class _Then:
    """Stands for a job's future where nothing awaits its answer (:meth:`VenueThread.submit_then`):
    the answer, settled on the event loop, goes straight to a callback, handed how to get it (its
    value, or its exception raised), with no future and no further turn of the loop."""

    __slots__ = ("_then",)

    def __init__(self, then: Callable[[Callable[[], Any]], None]) -> None:
        self._then = then

    def cancelled(self) -> bool:
        return False

    def set_result(self, value: Any) -> None:
        self._hand(_outcome(True, value))

    def set_exception(self, failure: BaseException) -> None:
        self._hand(_outcome(False, failure))

    def _hand(self, outcome: Callable[[], Any]) -> None:
        try:
            self._then(outcome)
        except Exception:  # noqa: BLE001 - never the end of the other answers of its group (_settle)
            log.exception("an answer of the venue's thread could not be handed over")


def _outcome(ok: bool, value: Any) -> Callable[[], Any]:
    """How to get a job's answer (as :class:`_Then` hands it): its value, or its exception raised."""
    if ok:
        return lambda: value

    def failed() -> Any:
        raise value
    return failed


def _settle(settled: list[tuple[asyncio.Future, bool, Any]]) -> None:
    """On the event loop: the answers of one group, each to the request that waits for it."""
    for future, ok, value in settled:
        if future.cancelled():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


class Stopped(VenueError):
    """A request that came after the venue's thread stopped (the server shutting down): refused in
    the client's language as a refusal, 503, not answered as a fault of the server's own."""

    status = 503


class PartlyWritten(RuntimeError):
    """A job that found the event file held by another program after part of it was written (see
    :meth:`VenueThread._one`): answered as any unexpected failure (500, its detail in the log),
    never as :class:`Held`'s "nothing was stored", and never made again."""


class Held(VenueError):
    """A write refused because another program held the event file for longer than the venue waits
    (:data:`VENUE_BUSY_S`): nothing of it stored, 503 with ``Retry-After``; the phone's page takes it
    as "busy" and sends the write again with its same id, taken once."""

    status = 503
    retry_after = HELD_RETRY_S


class VenueThread:
    """The one thread that uses the venue's connection to the event file.

    Requests waiting together are taken together: their writes are made in one group of the
    file (:meth:`~tournament.store.event_store.EventStore.group`), each all or nothing on its own,
    committed with one flush to disk, and only then is each answered.  A request alone is made
    and committed on its own, as before; a hundred tables' moves a second wait for one flush
    each, not for a flush per table ahead of them.  If a group cannot be committed, every write
    in it is refused and the tables' live games are made again from the file (:attr:`lost`).

    **The event file held by another program.**  A write waits for its turn up to the connection's
    busy timeout (the venue's is :data:`VENUE_BUSY_S`), and everything queued behind it waits with
    it: this thread is the connection's only user.  A write that did not get the file in that time
    is refused, nothing stored (:class:`Held`, 503), and the server's log says so in one line; from
    then on, while the file is still held, each write is tried at once and refused at once
    (:attr:`held`) instead of keeping the queue waiting again, until one gets the file.  A read needs
    no write lock (the file is in WAL mode: another program's write never blocks a read): a read
    that was grouped with writes refused so is made again alone, and answered."""

    def __init__(self) -> None:
        self.store: EventStore | None = None  # grouping starts once the venue is open
        self.lost: Callable[[], None] = lambda: None
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._shut = False
        #: Held to look at :attr:`_shut` and queue a job as one step: a job queued after the end
        #: mark (:meth:`shutdown`) would never be made nor answered, its request waiting for good.
        self._gate = threading.Lock()
        self._waiting: Any = _NOTHING  # a job taken from the queue, to run after the group before it
        #: Called on this thread after each group is committed (or refused) and answered.
        self.after: Callable[[], None] = lambda: None
        #: Held while the connection is in use: by this thread for each group, or by the event
        #: loop's for a job it makes itself while this thread is idle (:meth:`run_here`).
        self._busy = threading.Lock()
        #: Another program held the event file for this thread's whole wait: writes are tried at once
        #: (refused at once, :class:`Held`) until one is written.
        self.held = False
        #: What :attr:`held` waited (the venue's connection's busy timeout), for its line in the log.
        self.busy_seconds = VENUE_BUSY_S
        self._changes = 0  # the connection's total_changes before a group (a write got the file)
        self._thread = threading.Thread(target=self._loop, name="venue", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], *args: Any, grouped: bool = True) -> concurrent.futures.Future:
        """``fn(*args)`` on this thread, for a caller that blocks on the answer."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._queue((future, fn, args, grouped))
        return future

    def submit_async(self, loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> asyncio.Future:
        """``fn(*args)`` on this thread, answered on the event ``loop``: an asyncio future settled
        from here, the answers of one group handed to the loop together (one wake-up of the loop
        a group, not a wrapped future and a wake-up a move: the hand-off was a tenth of a move's
        CPU)."""
        future = loop.create_future()
        self._queue((_OnLoop(loop, future), fn, args, True))
        return future

    def submit_then(self, loop: asyncio.AbstractEventLoop, then: Callable[[Callable[[], Any]], None],
                    fn: Callable[..., Any], *args: Any) -> None:
        """``fn(*args)`` on this thread, its answer handed to ``then`` on the event ``loop`` (as
        :meth:`submit_async`, for a caller that awaits nothing: see :class:`_Then`)."""
        self._queue((_OnLoop(loop, _Then(then)), fn, args, True))  # type: ignore[arg-type]

    def _queue(self, job: tuple) -> None:
        with self._gate:
            if self._shut:
                raise Stopped(STOPPED)
            self._jobs.put(job)

    def run_here(self, fn: Callable[..., Any], *args: Any) -> tuple[bool, Any] | None:
        """``fn(*args)`` made at once on the calling thread (the event loop's) when this thread is
        idle, nothing queued for it: ``(True, value)`` or ``(False, exception)``; None when it is
        busy (the caller then gives the job to :meth:`submit_then`, as before).

        Why: on a hall's machine each wake-up of a sleeping thread costs a move more CPU than most
        of the move's own work (a move handed to this thread woke it, and its answer woke the loop
        again).  A move that finds nothing else to do is made where its request was read; moves
        that come together still wait here and share one commit.  The connection is used by one
        thread at a time (:attr:`_busy`), as before; the job's commit, a flush to disk of a few
        tenths of a millisecond, is waited for on the loop.  Never the wait for another process's
        write (the command line beside the server): a job that finds the file held fails at once,
        nothing written (:func:`~tournament.store.sqlite.not_waiting`), and is handed to this
        thread to wait for its turn there, the loop serving on meanwhile."""
        if self._shut or self.store is None or self._waiting is not _NOTHING or not self._jobs.empty():
            return None
        if not self._busy.acquire(blocking=False):
            return None
        try:
            self._changes = self.store.conn.total_changes
            try:
                with not_waiting(self.store.conn):
                    outcome: tuple[bool, Any] = (True, fn(*args))
            except Exception as e:  # a refusal (or a failure) of this request, as :meth:`_run` keeps it
                if is_busy(e) and self.store.conn.total_changes == self._changes:
                    return None  # (the file held elsewhere: nothing was written; the thread waits for it)
                if is_busy(e):  # (part of it written before: not made again, and not "nothing stored")
                    failed = PartlyWritten("another program took the event file part-way through this request")
                    failed.__cause__ = e
                    e = failed
                outcome = (False, e)
            self._free_again()
            try:
                self.after()
            except Exception:  # noqa: BLE001 - housekeeping: never the request's answer
                log.exception("the venue's work after a write made on the loop failed")
        finally:
            self._busy.release()
        return outcome

    def shutdown(self) -> None:
        """Stop once the jobs already given are done."""
        with self._gate:
            self._shut = True
            self._jobs.put(None)  # (after every job queued: each is made and answered first)
        self._thread.join()

    def _next(self, block: bool) -> tuple | None:
        if self._waiting is not _NOTHING:
            job, self._waiting = self._waiting, _NOTHING
            return job
        return self._jobs.get() if block else self._jobs.get_nowait()

    def _loop(self) -> None:
        while True:
            job = self._next(True)
            if job is None:
                return
            batch = [job]
            while job[3] and len(batch) < MAX_GROUP:
                try:
                    more = self._next(False)
                except queue.Empty:
                    break
                if more is None or not more[3]:  # the end, or a job that runs alone: after this group
                    self._waiting = more
                    break
                batch.append(more)
            with self._busy:
                self._run(batch)

    def _run(self, batch: list[tuple]) -> None:
        batch = [job for job in batch if job[0].set_running_or_notify_cancel()]
        self._changes = self.store.conn.total_changes if self.store is not None else 0
        if self.held and self.store is not None:
            with not_waiting(self.store.conn):
                outcomes = self._made(batch)
        else:
            outcomes = self._made(batch)
        outcomes = self._held_or_not(outcomes)
        self._answer(batch, outcomes)

    def _made(self, batch: list[tuple]) -> list[tuple[bool, Any]]:
        """Each job of ``batch`` made (a group of the file's writes for several): its value or its
        exception, in order."""
        outcomes: list[tuple[bool, Any]] = []
        if len(batch) == 1 or self.store is None:
            return [self._one(fn, args) for _, fn, args, _ in batch]
        try:
            with self.store.group():
                for _, fn, args, _ in batch:
                    try:
                        outcomes.append((True, fn(*args)))
                    except Exception as e:  # a refusal (or a failure) of this request alone
                        outcomes.append((False, e))
        except Exception as e:  # the group was not committed: none of its writes is in the file
            if is_busy(e) and not outcomes:
                # The file held elsewhere before any job was made: each is made alone, without
                # waiting again (its reads answered, its writes refused at once, nothing written).
                with not_waiting(self.store.conn):
                    return self._made_alone(batch)
            self.lost()
            outcomes = [(False, e)] * len(batch)
        return outcomes

    def _made_alone(self, batch: list[tuple]) -> list[tuple[bool, Any]]:
        return [self._one(fn, args) for _, fn, args, _ in batch]

    def _one(self, fn: Callable, args: tuple) -> tuple[bool, Any]:
        """One job made on its own: its value, or its exception.  A job that found the file held
        after it had written part of what it does (one of its transactions committed, the next
        refused) is not "nothing stored" (:class:`Held`): it fails as :class:`PartlyWritten`,
        a 500 whose detail is in the log, so that no answer says a write was not made that was."""
        conn = self.store.conn if self.store is not None else None
        before = conn.total_changes if conn is not None else 0
        try:
            return True, fn(*args)
        except BaseException as e:
            if conn is not None and is_busy(e) and conn.total_changes != before:
                failed = PartlyWritten("another program took the event file part-way through this request")
                failed.__cause__ = e
                return False, failed
            return False, e

    def _held_or_not(self, outcomes: list[tuple[bool, Any]]) -> list[tuple[bool, Any]]:
        """The writes that found the file held by another program refused as :class:`Held` (one
        line in the log as the file is first found held, one as it is free again: no traceback);
        :attr:`held` kept up to date."""
        refused = sum(1 for ok, value in outcomes if not ok and is_busy(value))
        if refused:
            if not self.held:
                log.warning("another program is holding the event file (not free within %g s): the tables' writes "
                            "are refused (503, nothing stored) until it is free; the phones send them again",
                            self.busy_seconds)
            self.held = True
            return [(False, Held(FILE_HELD)) if not ok and is_busy(value) else (ok, value) for ok, value in outcomes]
        self._free_again()
        return outcomes

    def _free_again(self) -> None:
        """:attr:`held` ends once a write got the file (the connection's changes moved)."""
        if not self.held or self.store is None:
            return
        try:
            changed = self.store.conn.total_changes != self._changes
        except sqlite3.ProgrammingError:  # (the connection closed: the venue shutting down)
            return
        if changed:
            self.held = False
            log.warning("the event file is free again: the tables' writes are taken")

    def _answer(self, batch: list[tuple], outcomes: list[tuple[bool, Any]]) -> None:
        on_loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, bool, Any]]] = {}
        for (future, *_), (ok, value) in zip(batch, outcomes):
            if isinstance(future, _OnLoop):
                on_loops.setdefault(future.loop, []).append((future.future, ok, value))
            elif ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        for loop, settled in on_loops.items():
            try:
                loop.call_soon_threadsafe(_settle, settled)
            except RuntimeError:  # the loop has closed: nobody is waiting for these answers any more
                pass
        try:
            self.after()
        except Exception:  # noqa: BLE001 - housekeeping: never the end of the venue's thread
            log.exception("the venue's thread: its work after a group failed")


class BrowsingThread:
    """Refreshes what people browse in the event file (its ``standings`` snapshot:
    :meth:`~tournament.store.event_store.EventStore.refresh_browsing_apart`) on a thread and a
    connection of its own, once results are committed, so that ranking a hall's event (50 to 100 ms
    for 400 players) never holds up the tables' moves on the venue's thread.  Results committed
    close together are ranked once (:data:`BROWSING_DELAY`); a result committed while a refresh
    reads asks for another, so the snapshot is never left behind the last result.  The tool itself
    never reads the snapshot back (``tournament standings`` ranks afresh); closing the venue's
    connection refreshes it once more in any case."""

    def __init__(self, path: Path, delay: float = 0.0) -> None:
        self.path, self.delay = Path(path), delay
        self._due = threading.Event()
        self._stop = threading.Event()
        #: How many refreshes were made (for tests and the curious).
        self.made = 0
        self._thread = threading.Thread(target=self._run, name="browsing", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """Results were committed: refresh soon."""
        self._due.set()

    def _run(self) -> None:
        store: EventStore | None = None
        try:
            while True:
                self._due.wait()
                if self._stop.is_set() or self._stop.wait(self.delay):
                    return
                self._due.clear()
                # (closed just now: its wake-up may be the one cleared above, and the next wait
                # would never end; a CI run hung ten minutes in ``close`` on it)
                if self._stop.is_set():
                    return
                try:
                    if store is None:
                        store = open_event(self.path)
                        store.defer_browsing = True  # (its own writes refresh nothing)
                    store.refresh_browsing_apart()
                    self.made += 1
                except Exception:  # noqa: BLE001 - left to the venue's connection, which refreshes at its close
                    log.exception("the standings people browse in the event file could not be refreshed")
        finally:
            if store is not None:
                with contextlib.suppress(Exception):
                    store.conn.close()  # (not store.close(): that would rank again, here, for nothing)

    def close(self) -> None:
        self._stop.set()
        self._due.set()
        self._thread.join()


#: Seconds between two scans of the event file for a row changed by hand, after faults (:meth:`Site._log_fault`).
DAMAGE_LOOK_EVERY = 60.0


class Site(abc.ABC):
    """What every answer of the venue's servers gets, whichever process serves it (the tables'
    server, :class:`VenueServer`, and the hall's own, :class:`tournament.web.hall.HallServer`): the
    guard (the rate limit, a write's origin, the security headers, one line for a fault), the
    players' language, pages from the templates.  A subclass gives its routes (:meth:`_routes`),
    the event's settings (:attr:`settings`), and may send its busiest requests straight to their
    endpoint (:meth:`_hot`); it calls :meth:`_start` once it holds what its routes need."""

    def __init__(self, base_url: str, rate: float = RATE, burst: int = BURST, also_at: Iterable[str] = ()) -> None:
        self.base_url = base_url
        #: The origins a browser's write may come from: the address the server is served at
        #: (its links' address) and ``also_at``, the addresses it listens on (127.0.0.1, localhost).
        self.origins = frozenset(o for o in map(origin_of, (base_url, *also_at)) if o is not None)
        self.buckets = _Buckets(rate, burst, device=devices.device)
        # A request's id ties a one-line refusal to its line in the server's log: unique in the
        # server's life (and unlike another run's), not a secret, so a counter after a random start.
        self._request_ids = map("{:012x}".format, itertools.count(secrets.randbits(47)))
        loader = jinja2.FileSystemLoader(str(HERE / "templates"))
        # Every value a page shows loses its direction controls (finalize): an old event's name
        # could hold one; names are isolated in the templates (<bdi>).
        self.templates = {lang: i18n.environment(loader, lang, trim_blocks=True, lstrip_blocks=True,
                                                 finalize=_plain_direction)
                          for lang in i18n.LANGUAGES}

    #: The event file the site serves (the subclass sets it): a fault met reading it is said in the log.
    event: Path | None = None
    #: The scan a fault started (:meth:`_log_fault`), for a caller that waits for its line.
    looked_at: threading.Thread | None = None
    _last_look = -DAMAGE_LOOK_EVERY

    def _log_fault(self, request_id: str, e: Exception) -> None:
        """A request that failed unexpectedly, logged with its detail.  An error that a value the
        tool never writes raises (a row of the event file changed by hand: a KeyError for a seat's
        side 'x') is then also said in one line where the file shows such a row, as the command
        line says it (``… holds a value the tool never writes (table seats: row 1: …): run
        tournament check …``), so that the director reading the log knows what to do; where it
        shows none, the failure is the server's own, and nothing more is said.  The file is scanned on a thread of its own, at
        most once every :data:`DAMAGE_LOOK_EVERY` seconds: a crowd meeting the same row on a
        public page neither waits for the scan nor repeats it."""
        log.exception("request %s failed", request_id)
        from tournament.store.damage import VALUE_ERRORS, unusable_value

        now = time.monotonic()
        if self.event is None or not isinstance(e, VALUE_ERRORS) or now - self._last_look < DAMAGE_LOOK_EVERY:
            return
        self._last_look = now
        event = self.event

        def look() -> None:
            said = unusable_value(event, e, "the server", found_only=True)
            if said is not None:
                log.error("request %s: %s", request_id, said)

        self.looked_at = threading.Thread(target=look, name="damage", daemon=True)
        self.looked_at.start()

    def _start(self) -> None:
        """The application and its guard, once the subclass holds what its routes need."""
        self.app = Starlette(routes=self._routes(),
                             exception_handlers={Exception: self._crash, HTTPException: self._not_here})
        self.asgi = self._guarded(self.app)

    @property
    @abc.abstractmethod
    def settings(self) -> Settings:
        """The event's settings (its name on a refused page, its language when the browser names none)."""

    @abc.abstractmethod
    def _routes(self) -> list:
        """Every route this site answers (the tables' server's, or the hall's process's)."""

    def _hot(self, scope: dict) -> tuple[Callable[[Request], Any], dict[str, str]] | None:
        """The endpoint of a request answered without Starlette's routing, or None (see
        :meth:`VenueServer._hot`)."""
        return None

    def _light(self, endpoint: Callable[[Request], Any], scope: dict) -> tuple[Callable[..., Any], Any] | None:
        """The light path of a hot request (see :meth:`VenueServer._light`), or None."""
        return None

    def _home(self, request: Request) -> str:
        """Where a refused page's link to the event's public page leads."""
        return "/"

    def _where(self, request: Request) -> tuple[int, int]:
        return _int(request.path_params["round"], "round"), _int(request.path_params["table"], "table")

    # --- what every response gets ---------------------------------------------------------

    def _guarded(self, app: Any) -> Any:
        buckets = self.buckets
        request_ids = self._request_ids
        routes = list(getattr(getattr(app, "router", None), "routes", None) or ())
        # (the static files' mount matches every method at its paths, but answers reads alone)
        writers = [r for r in routes if not (isinstance(r, Mount) and isinstance(r.app, WholeFiles))]

        def answered_here(scope: dict) -> bool:
            """Whether a route takes this write at this path.  A write no route takes (a DELETE of
            a page, a POST of a script) is the router's 405 or 404, and no endpoint reads its body:
            the guard's checks of a write (its origin, its JSON) are for the writes a route takes."""
            return not routes or any(route.matches(scope)[0] == Match.FULL for route in writers)

        async def asgi(scope: dict, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            request_id = next(request_ids)
            scope.setdefault("state", {})["request_id"] = request_id

            def said(text: str) -> str:  # the asker's language, worked out only for a refusal made here
                return self._said(text, self._language(Request(scope))[0])

            client = (scope.get("client") or ("?", 0))[0]
            wait = buckets.take(client)

            started = False

            async def send_with_headers(message: dict) -> None:
                nonlocal started
                if message["type"] == "http.response.start":
                    started = True
                    headers = list(message.get("headers", []))
                    headers += [(b"x-request-id", request_id.encode()), *_GUARD_HEADERS]
                    if not any(name.lower() == b"cache-control" for name, _ in headers):  # the feed sets its own
                        headers.append(_NO_STORE)
                    if not any(name.lower() == b"content-security-policy" for name, _ in headers):
                        headers.append(_POLICY)
                    message = {**message, "headers": headers}
                await send(message)

            if wait:
                response = JSONResponse({"error": said("too many requests from this device: wait a moment and try "
                                                       "again"), "request_id": request_id}, status_code=429,
                                        headers={"Retry-After": str(max(1, round(wait)))})
                await response(scope, receive, send_with_headers)
                return
            refusal = _refused_here(scope, self.origins)
            if refusal is not None and scope["method"] in _WRITES and refusal[0] != 400 and not answered_here(scope):
                refusal = None  # (looked up only for a write refused: the writes taken pay nothing for it)
            if refusal is not None:
                status, words = refusal
                response = JSONResponse({"error": said(words), "request_id": request_id}, status_code=status)
                await response(scope, receive, send_with_headers)
                return
            try:
                hot = self._hot(scope)
                if hot is None:
                    await app(scope, receive, send_with_headers)
                else:  # a table's move or read, the live stream: straight to its endpoint (see _hot)
                    endpoint, scope["path_params"] = hot
                    light = self._light(endpoint, scope)
                    if light is not None:  # answered below Starlette: see _light
                        answered = await light[0](scope, receive, request_id, light[1])
                        if answered is not None:  # (None: the client went away, nobody to answer)
                            status, headers, body = answered
                            started = True
                            headers += [(b"x-request-id", request_id.encode()), *_GUARD_HEADERS, _NO_STORE, _POLICY]
                            await send({"type": "http.response.start", "status": status, "headers": headers})
                            await send({"type": "http.response.body", "body": body})
                        return
                    response = await endpoint(Request(scope, receive, send_with_headers))
                    await response(scope, receive, send_with_headers)
            except Exception as e:  # never a traceback to a client: one line, the detail in the log
                self._log_fault(request_id, e)
                if not started:
                    await _crashed(request_id, said)(scope, receive, send_with_headers)

        # The hot requests answered below ASGI, by the connection itself (connections.guarded).
        asgi.light_request = self.light_request  # type: ignore[attr-defined]
        return asgi

    def light_request(self, method: bytes, path: str, query: bytes, headers: list[tuple[bytes, bytes]],
                      client: tuple[str, int] | None) -> Callable[[bytes, Callable[[Any], None]], None] | None:
        """A request the connection answers itself, below ASGI (see :meth:`VenueServer.light_request`),
        once its body has come whole: how, or None (the ASGI way, as every other request)."""
        return None


    async def _not_here(self, request: Request, exc: Exception) -> Response:
        """Starlette's own refusals (an address with nothing at it, 404; a method an address does
        not take, 405), answered as every refusal is: one line in the client's language, as JSON,
        or on the refused page to a browser asking for a page (they were a line of English text)."""
        status, text = not_here(request.method, exc)
        lang = self._language(request)[0]
        headers = dict(getattr(exc, "headers", None) or {})
        if wants_page(request):
            response = await self._refused_page(request, VenueError(text), status)
        else:
            response = JSONResponse({"error": self._said(text, lang),
                                     "request_id": request.scope.get("state", {}).get("request_id", "")},
                                    status_code=status)
        response.headers.update(headers)
        return response

    async def _crash(self, request: Request, exc: Exception) -> Response:
        """Starlette's last resort, made to answer as every refusal does (the guard logs it)."""
        lang = self._language(request)[0]
        return _crashed(request.scope.get("state", {}).get("request_id", ""), lambda text: self._said(text, lang))

    # --- the players' language ------------------------------------------------------------

    def _language(self, request: Request) -> tuple[str, str | None]:
        """The language to answer in, and the language to keep in the cookie (``?lang=`` asked
        for one the pages have), or ``None``."""
        asked = i18n.known(request.query_params.get("lang")) if request.scope.get("query_string") else None
        if asked is not None:
            return asked, asked
        headers = request.headers
        return _kept_or_negotiated(headers.get("cookie"), headers.get("accept-language"), self.settings.lang), None

    @staticmethod
    def _negotiated(response: Response, keep: str | None) -> Response:
        response.headers["vary"] = "Accept-Language, Cookie"
        if keep is not None:
            response.set_cookie(LANG_COOKIE, keep, max_age=365 * 24 * 3600, path="/", samesite="lax")
        return response

    @staticmethod
    def _said(text: str, lang: str) -> str:
        return phrases.translate(text, lang, PHRASES, i18n.FOLDERS)


    # --- pages ----------------------------------------------------------------------------

    def _page(self, request: Request, name: str, status: int = 200, **values: Any) -> Response:
        """A page from its template in the client's language, with the strings of its scripts."""
        lang, keep = self._language(request)
        scripts = [HERE / "static" / script for script in SCRIPTS.get(name, ())]
        strings = script_strings(scripts, lang, i18n.FOLDERS) if scripts else None
        languages = [(code, i18n.NAMES[code]) for code in sorted(i18n.LANGUAGES, key=lambda c: c != "es")]
        html = self.templates[lang].get_template(name).render(strings=strings, languages=languages, **values)
        return self._negotiated(HTMLResponse(html, status_code=status), keep)

    async def _refused_page(self, request: Request, e: Exception, status: int, kept: str | None = None) -> Response:
        """The refused page; ``kept``: a table link's key, whose lines kept unsent on the phone the
        page lists (``table_gone.html.j2``)."""
        lang, _ = self._language(request)
        return self._page(request, "refused.html.j2" if kept is None else "table_gone.html.j2", status,
                          event=self.settings.name, home=self._home(request), token=kept,
                          message=self._said(one_line(getattr(e, "message", str(e))), lang))


#: The hall's paths (no key, nothing written) and their endpoints: served by the hall's own process
#: (:mod:`tournament.web.hall`), or by the tables' server itself when it runs alone; where the
#: hall has a process of its own, the tables' server answers each of them with a redirect there.
#: The hall's pages whose path holds no number: a request for one goes straight to its endpoint.
_PLAIN_PAGES = frozenset(("/", "/tables", "/standings", "/games", "/crosstable", "/bracket"))
HALL_ROUTES = (
    ("/", "public_page"),
    ("/tables", "public_page"),
    ("/standings", "public_page"),
    ("/games", "public_page"),
    ("/crosstable", "public_page"),
    ("/bracket", "public_page"),
    ("/players/{player}", "player_page"),
    ("/teams/{team}", "team_page"),
    ("/boards", "public_page"),
    ("/boards/{board}", "board_page"),
    ("/pairs/{pair}", "pair_page"),
    ("/matches/{round}/{table}", "match_page"),
    ("/games/{round}/{table}", "public_replay"),
    ("/projector", "projector_page"),
    ("/live", "live_stream"),
    ("/api/v1/event", "feed_event"),
    ("/api/v1/standings", "feed_standings"),
    ("/api/v1/rounds/{round}", "feed_round"),
    ("/api/v1/games/{round}/{table}", "feed_game"),
    ("/api/v1/changes", "feed_changes"),
)


def _static() -> Mount:
    """Scripts, styles and pictures, from the package: served by both processes (a table's page
    runs its scripts from its own address, as its security policy has it)."""
    return Mount("/static", WholeFiles(directory=str(HERE / "static")), name="static")


async def _favicon(request: Request) -> Response:
    """``/favicon.ico``, which every browser asks for at each page opened: nothing, 204 (it was a
    404, a console error on every page), kept by the browser a day.  It costs what a static file
    costs (the guard's one token), no more."""
    return Response(status_code=204, headers={"Cache-Control": "max-age=86400"})


def _files() -> list:
    """The static files' mount, and the browsers' ``/favicon.ico`` beside it."""
    return [Route("/favicon.ico", _favicon), _static()]


class HallSite(Site):
    """The hall's side: the public pages, the live stream, the event's public feed (no key, nothing
    written), over :attr:`public` and :attr:`live` (:mod:`tournament.web.public`)."""

    public: PublicPages
    live: LiveFeed

    def _hall_routes(self) -> list:
        return [Route(path, getattr(self, name)) for path, name in HALL_ROUTES] + _files()

    def _hot(self, scope: dict) -> tuple[Callable[[Request], Any], dict[str, str]] | None:
        """The live stream and the public pages without a number in their path, straight to their
        endpoint (a hall's pages open the stream at once, and a burst of them must cost little;
        each result sends every live page's fetch: see :meth:`VenueServer._hot`)."""
        if scope["method"] != "GET" or scope.get("root_path"):
            return None
        path = scope["path"]
        if path == "/live":
            return self.live_stream, {}
        if path in _PLAIN_PAGES:
            return self.public_page, {}
        return None

    # --- the hall's pages (no key) ----------------------------------------------------------------

    def _made(self, request: Request, page: Made, headers: dict[str, str] | None = None) -> Response:
        """A public page as made for this change of the event: compressed where the browser takes
        it; ``X-Seq`` says which change it shows (the live script keeps it)."""
        out = {"x-seq": str(page.seq), **(headers or {})}
        if encoding.gzip_taken(request.headers.get("accept-encoding")):
            out["content-encoding"] = "gzip"
            response = Response(page.gzipped, media_type="text/html; charset=utf-8", headers=out)
        else:
            response = Response(page.body, media_type="text/html; charset=utf-8", headers=out)
        response = self._negotiated(response, self._language(request)[1])  # in the asker's language
        response.headers["vary"] = "Accept-Encoding, Accept-Language, Cookie"
        return response

    async def _public(self, request: Request, make: Callable[[str | None, int | None], Any]) -> Response:
        """``?part=main``: only the page's main region (what the live script swaps in); with
        ``since=SEQ``, nothing at all (204) while the page would show that same change."""
        part = "main" if request.query_params.get("part") == "main" else None
        text = request.query_params.get("since", "")
        since = int(text) if part and text.isascii() and text.isdigit() and len(text) < 19 else None
        try:
            page = await make(part, since)
            return Response(status_code=204) if page is None else self._made(request, page)
        except NotPublic as e:
            return await self._refused_page(request, e, 404)

    async def public_page(self, request: Request) -> Response:
        page = request.url.path.strip("/") or "index"
        query = request.query_params.get("q", "")[:100] if page == "index" else ""
        lang = self._language(request)[0]
        if not query and request.query_params.get("part") == "main":  # a live page's fetch, after a change
            text = request.query_params.get("since", "")
            if text.isascii() and text.isdigit() and len(text) < 19:
                kept = self.public.kept_for_live(self.live, page, int(text), lang)
                if kept is True:
                    return Response(status_code=204)
                if kept is not None:
                    return self._made(request, kept)
        return await self._public(request, lambda part, since: self.public.page(page, query=query, part=part,
                                                                                since=since, lang=lang))

    async def player_page(self, request: Request) -> Response:
        return await self._numbered_page(request, "player")

    async def team_page(self, request: Request) -> Response:
        """A team's page in a team event (a 404 page in any other, or for a team not there)."""
        return await self._numbered_page(request, "team")

    async def board_page(self, request: Request) -> Response:
        """A duplicate event's board: its traveller, and its deal once every table has played it."""
        return await self._numbered_page(request, "board")

    async def pair_page(self, request: Request) -> Response:
        """A duplicate event's pair: its card, board by board."""
        return await self._numbered_page(request, "pair")

    async def match_page(self, request: Request) -> Response:
        """A duplicate-teams match, board by board: by its round and its first table."""
        try:
            round_no, table_no = self._where(request)
        except _Refusal as e:
            return await self._refused_page(request, e, e.status)
        lang = self._language(request)[0]
        return await self._public(request, lambda part, since: self.public.page("match", round_no, table_no, part=part,
                                                                                since=since, lang=lang))

    async def _numbered_page(self, request: Request, page: str) -> Response:
        """A public page of one player or team, by the number in its path."""
        try:
            number = _int(request.path_params[page], page)
        except _Refusal as e:
            return await self._refused_page(request, e, e.status)
        lang = self._language(request)[0]
        return await self._public(request, lambda part, since: self.public.page(page, number, part=part,
                                                                                since=since, lang=lang))

    async def projector_page(self, request: Request) -> Response:
        """``?seconds=12&size=large``: the projector's settings (a bad value is the default, never a refusal)."""
        lang = self._language(request)[0]
        seconds, size = projector_settings(request.query_params.get("seconds"), request.query_params.get("size"))
        return await self._public(request, lambda part, since: self.public.projector(part, since, lang, seconds, size))

    async def public_replay(self, request: Request) -> Response:
        """A confirmed game's replay page (never a game still in play: its hidden tiles stay hidden)."""
        try:
            round_no, table_no = self._where(request)
            page = await self.public.replay(round_no, table_no, self._language(request)[0])
        except _Refusal as e:
            return await self._refused_page(request, e, e.status)
        except NotPublic as e:
            return await self._refused_page(request, e, 404)
        except DomrecError as e:  # a stored record damaged since it was entered: `tournament check` says where
            return await self._refused_page(request, TournamentError(f"this game's record cannot be read: {one_line(str(e))}"),
                                            422)
        # The replay page is one self-contained document: its script and styles are inline.
        return self._made(request, page, {"content-security-policy": "default-src 'none'; script-src 'unsafe-inline'; "
                                                                     "style-src 'unsafe-inline'; img-src data:; "
                                                                     "frame-ancestors 'none'"})

    async def live_stream(self, request: Request) -> Response:
        """Server-Sent Events: the number of the event's latest change, each time it moves on."""
        if request.method == "HEAD":  # (a GET's head without its stream: no place taken for its ten minutes)
            if self.live.full():
                return self._live_full(request.scope.get("state", {}).get("request_id", ""),
                                       self._language(request)[0])
            return Response(media_type="text/event-stream", headers={"x-accel-buffering": "no"})
        # Counted in before anything is awaited, so a thousand asked at once cannot all find room.
        if not self.live.reserve():
            return self._live_full(request.scope.get("state", {}).get("request_id", ""), self._language(request)[0])
        tables = request.query_params.get("follow") == "tables"
        return _live_answer(self.live.events(tables, reserved=True), self.live.release)

    def _live_full(self, request_id: str, lang: str) -> JSONResponse:
        """What a stream asked for when :data:`~tournament.web.public.MAX_STREAMS` are open is told,
        in the asker's language."""
        return JSONResponse({"error": self._said("too many pages are following the event live: this one refreshes "
                                                 "itself every few seconds instead", lang), "request_id": request_id},
                            status_code=503, headers={"Retry-After": "30", "vary": "Accept-Language, Cookie"})


    # --- the event's feed (public: no key) ----------------------------------------------------

    async def _feed(self, request: Request, read: Callable[[EventStore], Any], key: tuple) -> Response:
        """``read()`` (a function of :mod:`tournament.event.feed`) as JSON, public, with its ETag:
        the event and its last change's number, taken before the data in one read transaction,
        so an ETag is never newer than the data it is sent with.  ``key`` names the feed and its
        parameters: its answer is made once per change of the event and sent from memory to
        every follower until the next (:meth:`~tournament.web.public.PublicPages.feed`), so a
        crowd polling the standings costs the tables no more than one follower does.  A file
        whose log has not begun (made by an older tool, not written since) gets no ETag, and its
        answer is never kept: it could change unlogged."""
        seen = request.headers.get("if-none-match")
        gzipped = encoding.gzip_taken(request.headers.get("accept-encoding"))

        def known(uuid: str, seq: int) -> bool:  # (the tag of the body this request takes)
            return seen is not None and _etag_matches(seen, _feed_tag(uuid, seq, gzipped))

        try:  # on the hall's thread and connection: a program following the event never holds up a table
            uuid, seq, page = await self.public.feed(key, read, known)
        except TournamentError as e:  # FeedError with its status; a damaged file: 422, as every refusal
            return self._feed_refusal(request, getattr(e, "status", 422), one_line(e.message))
        headers = {**_feed_headers(_feed_tag(uuid, seq, gzipped) if seq else None), "vary": "Accept-Encoding"}
        if page is None:
            return Response(status_code=304, headers=headers)
        if gzipped:
            headers["content-encoding"] = "gzip"
            return Response(page.gzipped, media_type="application/json", headers=headers)
        return Response(page.body, media_type="application/json", headers=headers)

    def _feed_refusal(self, request: Request, status: int, message: str) -> Response:
        """A feed's refusal: one JSON line in the client's language (the feed's data stays in English)."""
        request_id = request.scope.get("state", {}).get("request_id", "")
        lang = self._language(request)[0]
        return JSONResponse({"error": self._said(message, lang), "request_id": request_id}, status_code=status,
                            headers={**_feed_headers(None), "vary": "Accept-Language, Cookie"})

    async def feed_event(self, request: Request) -> Response:
        return await self._feed(request, feed.event, ("event",))

    async def feed_standings(self, request: Request) -> Response:
        return await self._feed(request, feed.published_standings, ("standings",))

    async def feed_round(self, request: Request) -> Response:
        try:
            number = _int(request.path_params["round"], "round")
        except _Refusal as e:
            return self._feed_refusal(request, e.status, e.message)
        return await self._feed(request, lambda store: feed.round_(store, number), ("round", number))

    async def feed_changes(self, request: Request) -> Response:
        since, limit = request.query_params.get("since"), request.query_params.get("limit")
        return await self._feed(request, lambda store: feed.changes_after(store, since, limit),
                                ("changes", since, limit))

    async def feed_game(self, request: Request) -> Response:
        """A finished table's record: JSON as stored, or DGN with ``?format=dgn``.  Its ETag is the
        record's hash: an amended result is another record, another tag."""
        try:
            round_no, table_no = self._where(request)
        except _Refusal as e:
            return self._feed_refusal(request, e.status, e.message)
        form = request.query_params.get("format", "json")
        if form not in ("json", "dgn"):
            return self._feed_refusal(request, 422, f"format is json or dgn (not {one_line(form)[:20]!r})")
        def work(store: EventStore) -> tuple[str, str]:
            with store.reading():
                text, digest = feed.game_text(store, round_no, table_no)
                return (feed.game_dgn(store, round_no, table_no) if form == "dgn" else text), digest

        try:
            body, digest = await self.public.reader.run(work)
        except TournamentError as e:
            return self._feed_refusal(request, getattr(e, "status", 422), one_line(e.message))
        tag = f'"{digest}-{form}"' if digest else None
        headers = _feed_headers(tag)
        seen = request.headers.get("if-none-match")
        if tag is not None and seen is not None and _etag_matches(seen, tag):
            return Response(status_code=304, headers=headers)
        media = "text/plain; charset=utf-8" if form == "dgn" else "application/json"
        return Response(body.encode("utf-8"), media_type=media, headers=headers)


class VenueServer(HallSite):
    """The tables' server: the application and the one thread that uses the event file.

    With ``hall_port`` (``tournament serve``'s default) the hall has a process of its own on that
    port (:mod:`tournament.web.hall`): this server answers each of the hall's paths with a redirect
    there and tells it of each change it logs (:attr:`poke_hall`); without it (``--one-process``,
    the library's default) it serves the hall's pages itself, on threads of their own."""

    def __init__(self, event: Path, pins: bool = False, base_url: str = "http://127.0.0.1:8000",
                 rate: float = RATE, burst: int = BURST, stream_lifetime: float = LIFETIME,
                 idle_minutes: int = IDLE_MINUTES, clock: Callable[[], Any] | None = None,
                 also_at: Iterable[str] = (), hall_port: int | None = None, hall_url: str | None = None,
                 busy_seconds: float | None = None) -> None:
        super().__init__(base_url, rate, burst, also_at)
        #: How long the tables' writes wait for the event file held by another program before they
        #: are refused (:class:`Held`); None: :data:`VENUE_BUSY_S`.
        self.busy_seconds = VENUE_BUSY_S if busy_seconds is None else busy_seconds
        self.event = Path(event)
        self.clock = clock  # the venue's clock for the tables' waits after wrong PINs (a test's own)
        self.hall_port = hall_port
        #: The hall's address for the links (its own process's), or None: the hall is served here.
        #: Given (``serve --hall-url``: a reverse proxy sends the hall's paths to the hall), every
        #: redirect goes there; else to the host each phone asked for, on the hall's port.
        self.hall_url = (hall_url.rstrip("/") if hall_url else hall_address(base_url, hall_port)) \
            if hall_port is not None else None
        self._hall_given = hall_url is not None
        #: Tells the hall's own process that a change was logged (set by whoever started it).
        self.poke_hall: Callable[[], None] = lambda: None
        #: Told of each change this server logs besides (``serve --upstream``'s sender): each must
        #: return at once, never wait (it is called on the request's path).
        self.on_change: list[Callable[[], None]] = []
        #: The state of the sending to a federation's hub (``serve --upstream``: whether it reaches
        #: NATS, why not), shown by the director's API as ``upstream``; None: no upstream.
        self.upstream_state: Callable[[], dict[str, Any]] | None = None
        self.pins = pins
        self.idle_minutes = idle_minutes
        #: A table's move and read answered by the connection itself (:meth:`light_request`); False:
        #: every request the ASGI way (a test compares the two).
        self.light_below = True
        names.prepare()  # (the first result entered would read it: a table's confirmation waiting)
        self._executor = VenueThread()
        self.venue: Venue = self._executor.submit(self._open, grouped=False).result()
        self._executor.store, self._executor.lost = self.venue.store, self.venue.forget
        # The log is copied into the file beside the tables' writes, never inside one of them.
        self._executor.submit(self.venue.store.conn.execute, "PRAGMA wal_autocheckpoint = 0", grouped=False).result()
        # The tables' writes wait for the file less long than a command does (VENUE_BUSY_S).
        self._executor.submit(self.venue.store.conn.execute, f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}",
                              grouped=False).result()
        self._executor.busy_seconds = self.busy_seconds
        self.checkpointer = Checkpointer(self.event)
        self.browsing = BrowsingThread(self.event, BROWSING_DELAY)
        self.venue.browsing_apart = True
        self._executor.after = self._after_group
        if hall_port is None:  # the hall's pages and live stream here, on threads of their own, never this one's
            self.public = PublicPages(self.event, base_url)
            self.live = LiveFeed(self.event, lifetime=stream_lifetime)
        self._logged = 0  # the venue's changes logged, as the live stream was last told
        #: The phone's engine: the vendored Pyodide and domrec's modules as one zip (engine.js).
        self.engine = EngineFiles(PHRASES)
        self._start()

    @property
    def settings(self) -> Settings:
        return self.venue.store.settings

    @property
    def one_process(self) -> bool:
        """The hall's pages are served here (no process of their own)."""
        return self.hall_port is None

    def _open(self) -> Venue:
        venue = Venue(open_event(self.event, shared=True), pins=self.pins, idle_minutes=self.idle_minutes,
                      **({"clock": self.clock} if self.clock is not None else {}))
        venue.ensure_tokens()
        return venue

    def close(self) -> None:
        def shut() -> None:
            self.venue.store.close()

        if self.one_process:
            self.live.stop()
            self.live.close()
            self.public.close()
        self.checkpointer.close()
        self.browsing.close()
        self._executor.submit(shut, grouped=False).result()
        self._executor.shutdown()

    def _after_group(self) -> None:
        """On the venue's thread, once a group of writes is committed: results that landed in it
        are ranked for what people browse, on the browsing thread."""
        if self.venue.results_landed:
            self.venue.results_landed = False
            self.browsing.poke()

    def stop_streams(self) -> None:
        """End every live stream (the server is stopping: an open stream would hold it up)."""
        if self.one_process:
            self.live.stop()

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the venue's thread, waited for (for a caller outside the event loop)."""
        return self._executor.submit(fn, *args).result()

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the venue's thread."""
        return await self._executor.submit_async(asyncio.get_running_loop(), fn, *args)

    def _hot(self, scope: dict) -> tuple[Callable[[Request], Any], dict[str, str]] | None:
        """A table's move (``POST …/dgn``) or read (``GET`` of its state), the requests a hall
        makes most, and the live stream (a hall's pages open it at once, and a burst of them must
        cost the tables little): their endpoint and path parameters, found without Starlette's
        layers of middleware and its walk through the routes (they answer every refusal
        themselves, and this guard adds the headers and catches a fault, as for any route);
        ``None`` for every other request, which the application routes.  Matched as the routes
        match them."""
        if scope.get("root_path"):
            return None
        if self.one_process:
            hall = super()._hot(scope)
            if hall is not None:
                return hall
        found = _HOT.fullmatch(scope["path"])
        if found is None:
            return None
        round_no, table_no, dgn = found.groups()
        method = scope["method"]
        if dgn and method == "POST":
            return self.api_dgn, {"round": round_no, "table": table_no}
        if not dgn and method == "GET":
            return self.api_table, {"round": round_no, "table": table_no}
        return None

    def _light(self, endpoint: Callable[[Request], Any], scope: dict) -> tuple[Callable[..., Any], Any] | None:
        """A table's move and a read of its state, answered below Starlette: what they need read
        straight from the ASGI scope and body, the answer written with orjson, its headers made
        once (Starlette's request, response and headers objects were a good share of a move's CPU
        in the tables' process).  The same answers as their routes (the refusals, statuses and sentences:
        :meth:`_answered`; the language, :func:`_kept_or_negotiated`; the guard's headers).  Only
        for a query holding nothing but ``hands`` (the pages' own): one that names a language
        (``?lang=``, which sets the cookie) or anything else goes the routes' way.  The handler and
        the ``hands`` asked, or None."""
        own = getattr(endpoint, "__func__", None)  # the class's own endpoint (not one put in its place)
        if own is VenueServer.api_dgn:
            handler = self._light_move
        elif own is VenueServer.api_table:
            handler = self._light_state
        else:
            return None
        asked = _hands_asked(scope.get("query_string"))
        return None if asked is False else (handler, asked)

    def _light_asker(self, scope: dict) -> tuple[str | None, str, str | None]:
        """The key (``Authorization: Bearer``, as :func:`_bearer`), the language (as
        :meth:`_language` without ``?lang=``) and the declared length of a hot request: each
        header's first value, as Starlette's ``headers.get`` gives it."""
        auth = cookie = accept = length = None
        for name, value in scope["headers"]:
            if name == b"authorization":
                auth = auth if auth is not None else value.decode("latin-1")
            elif name == b"content-length":
                length = length if length is not None else value.decode("latin-1")
            elif name == b"cookie":
                cookie = cookie if cookie is not None else value.decode("latin-1")
            elif name == b"accept-language":
                accept = accept if accept is not None else value.decode("latin-1")
        token = None
        if auth:
            scheme, _, value = auth.partition(" ")
            token = value.strip() if scheme.lower() == "bearer" and value.strip() else None
        return token, _kept_or_negotiated(cookie, accept, self.settings.lang), length

    @staticmethod
    def _light_written(answered: tuple[Any, int, dict[str, str]] | None) -> tuple[int, list, bytes] | None:
        """An answer of :meth:`_answered` as :meth:`_answer`'s JSONResponse writes it: its status,
        its headers (before the guard's), its body."""
        if answered is None:
            return None
        body, status, extra = answered
        data = _json_bytes(body)
        headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in extra.items()]
        headers += [(b"content-length", str(len(data)).encode()), _JSON_TYPE, _VARY]
        return status, headers, data

    async def _light_move(self, scope: dict, receive: Any, request_id: str, known: str | None) -> Any:
        """A table's move (``POST …/dgn``) on the light path (see :meth:`_light`, :meth:`api_dgn`)."""
        token, lang, length = self._light_asker(scope)
        params = scope["path_params"]

        async def work() -> Any:
            round_no, table_no = _int(params["round"], "round"), _int(params["table"], "table")
            try:
                body: dict[str, Any] | _Refusal = await _received_json(length, receive)
            except _Refusal as e:
                body = e
            return await self.run(self._move_job(token, round_no, table_no, body))

        return self._light_written(await self._answered(request_id, lang, known, True, work))

    async def _light_state(self, scope: dict, receive: Any, request_id: str, known: str | None) -> Any:
        """A read of a table's state (``GET``, no ``log``) on the light path (see :meth:`api_table`)."""
        token, lang, _ = self._light_asker(scope)
        params = scope["path_params"]

        async def work() -> Any:
            round_no, table_no = _int(params["round"], "round"), _int(params["table"], "table")
            return await self.run(self.venue.authorized_state, token, round_no, table_no)

        return self._light_written(await self._answered(request_id, lang, known, False, work))

    def light_request(self, method: bytes, path: str, query: bytes, headers: list[tuple[bytes, bytes]],
                      client: tuple[str, int] | None) -> Callable[[bytes, Callable[[Any], None]], None] | None:
        """A table's move or a read of its state, answered by the connection itself below ASGI
        (:func:`tournament.web.connections.guarded`): no request-response cycle, task, ASGI
        messages or guard's wrapper a request, the venue's answer written to the socket from the
        callback of its trip to the venue's thread.  Asked once the request's headers are read;
        taken only when nothing in it is unusual, and the guard would let it through: a query
        holding nothing but ``hands`` (as :meth:`_light`), a move's body of a declared length
        within the limit (no chunks, no ``Expect``), a read with none, no refusal of the guard's
        due (its rate limit, the request's ``Host``, a write's origin and content type: those are
        answered the ASGI way, as is anything else).  The same answers, statuses and headers as the routes (:meth:`_settled`, the
        guard's headers; ``test_the_connection_answers_as_the_routes_do``).  Returns how to answer
        it once its body has come (``answer(body, done)``: ``done`` is handed the status, headers
        and body), or None."""
        if not self.light_below:
            return None
        found = _HOT.fullmatch(path)
        if found is None:
            return None
        round_text, table_text, dgn = found.groups()
        if method != (b"POST" if dgn else b"GET"):
            return None
        known = _hands_asked(query)
        if known is False:
            return None
        length = None
        for name, value in headers:
            if name == b"content-length":
                if length is not None:
                    return None
                length = value
            elif name in (b"transfer-encoding", b"expect"):
                return None
        if dgn:
            if length is None or not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY:
                return None
        elif length is not None:
            return None
        # (the connection takes only HTTP/1.1 here: tournament.web.connections)
        if _refused_here({"http_version": "1.1", "method": method.decode("latin-1"), "headers": headers},
                         self.origins) is not None:
            return None  # the guard's refusal, made the ASGI way
        who = (client or ("?", 0))[0]
        if self.buckets.waits(who):
            return None
        loop = asyncio.get_running_loop()

        def answer(body: bytes, done: Callable[[Any], None]) -> None:
            request_id = next(self._request_ids)
            lang = self.settings.lang

            def answered(outcome: Callable[[], Any]) -> None:
                done(self._light_answer(request_id, lang, known, bool(dgn), outcome))

            try:
                self.buckets.take(who)
                token, lang, _ = self._light_asker({"headers": headers})
                round_no, table_no = _int(round_text, "round"), _int(table_text, "table")
                job: tuple[Any, ...]
                if dgn:
                    try:
                        move: dict[str, Any] | _Refusal = _parsed(body)
                    except _Refusal as e:
                        move = e
                    job = (self._move_job(token, round_no, table_no, move),)
                else:
                    job = (self.venue.authorized_state, token, round_no, table_no)
                # Made here at once when the venue's thread is idle (no wake-up of it, none of the
                # loop after it); else handed to it, to share a commit with the moves waiting there.
                made = self._executor.run_here(*job)
                if made is None:
                    self._executor.submit_then(loop, answered, *job)
                    return
            except Exception as e:  # noqa: BLE001 - a refusal (no such table), or a fault: as the routes answer it
                made = (False, e)
            answered(_outcome(*made))

        return answer

    def _light_answer(self, request_id: str, lang: str, known: str | None, wrote: bool,
                      outcome: Callable[[], Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """What the connection writes for a request of :meth:`light_request`: its status, every
        header the guard adds, its body; a fault answered and logged as the guard does."""
        try:
            written = self._light_written(self._settled(request_id, lang, known, wrote, outcome))
            if written is None:
                raise RuntimeError("no answer for a request that had come whole")
            status, headers, body = written
        except Exception as e:  # never a traceback to a client: one line, the detail in the log
            self._log_fault(request_id, e)
            crashed = _crashed(request_id, lambda text: self._said(text, lang))
            status, headers, body = crashed.status_code, list(crashed.raw_headers), bytes(crashed.body)
        headers += [(b"x-request-id", request_id.encode()), *_GUARD_HEADERS, _NO_STORE, _POLICY]
        return status, headers, body

    def _move_job(self, token: str | None, round_no: int, table_no: int,
                  body: dict[str, Any] | _Refusal) -> Callable[[], Any]:
        """A move's one trip to the venue's thread: the key checked first, then the body's refusal
        (a body that is no JSON object) or the move recorded."""
        def authorized_record() -> Any:
            if isinstance(body, _Refusal):
                self.venue.authorize(token, round_no, table_no)
                raise body
            return self.venue.authorized_record(token, round_no, table_no, body.get("rev"),
                                                body.get("text"), body.get("cid"), body.get("at"))
        return authorized_record

    # --- routes ---------------------------------------------------------------------------

    def _routes(self) -> list:
        """Every route; a request tries them in order, so the tables' moves come first."""
        api = "/api/v1"
        hot = [Route(f"{api}/tables/{{round}}/{{table}}/dgn", self.api_dgn, methods=["POST"]),
               Route(f"{api}/tables/{{round}}/{{table}}", self.api_table)]
        hall = self._hall_routes() if self.one_process else self._to_hall_routes()
        # The phone's engine, before the static files' mount (their paths are under /static).
        engine = [Route("/static/pyodide/{version}/{name}", self.pyodide_file),
                  Route("/static/engine/{digest}/domrec.zip", self.engine_bundle),
                  Route("/static/engine_worker.js", self.engine_worker)]
        return hot + engine + hall + [
            Route("/t/{token}", self.table_page),
            Route("/sw.js", self.service_worker),
            Route("/d/{token}", self.director_page),
            Route("/d/{token}/sheets", self.sheets_page),
            Route("/d/{token}/replay/{round}/{table}", self.replay_page),
            Route(f"{api}/openapi.json", self.openapi),
            Route(f"{api}/tables/{{round}}/{{table}}/options", self.api_options),
            Route(f"{api}/tables/{{round}}/{{table}}/mode", self.api_mode, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/confirm", self.api_confirm, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/call", self.api_call, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/clear", self.api_clear, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/result", self.api_result, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/result/clear", self.api_clear_result, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/result/not-played", self.api_not_played, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/pins/clear", self.api_clear_pins, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/lines", self.api_lines),
            Route(f"{api}/tables/{{round}}/{{table}}/correct", self.api_correct, methods=["POST"]),
            Route(f"{api}/tables/{{round}}/{{table}}/key", self.api_new_key, methods=["POST"]),
            Route(f"{api}/director", self.api_director),
            Route(f"{api}/director/pair", self.api_pair, methods=["POST"]),
            Route(f"{api}/director/pins/clear", self.api_clear_director_pins, methods=["POST"]),
        ]


    # --- the hall elsewhere -----------------------------------------------------------------

    def _to_hall_routes(self) -> list:
        """Each of the hall's paths, redirected to the hall's process (old links and QR codes made
        for this port still lead there); the scripts and styles served here too."""
        every = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
        return [Route(path, self.to_hall, methods=every) for path, _ in HALL_ROUTES] + _files()

    def _hall_here(self, request: Request) -> str:
        """The hall's address as this phone reaches the server: the scheme and host it asked for
        (the ``Host`` it sent, if it is a host's name or address at all; else the served
        address's), on the hall's port; or the hall's address as given (``serve --hall-url``)."""
        if self._hall_given and self.hall_url is not None:
            return self.hall_url
        found = _HOST.fullmatch(request.headers.get("host", ""))
        host = found[1] if found else (urlsplit(self.base_url).hostname or "127.0.0.1")
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"{request.scope.get('scheme', 'http')}://{host}:{self.hall_port}"

    async def to_hall(self, request: Request) -> Response:
        """The same path and query on the hall's port: 303 for a read, 307 for anything else (the
        method and body kept)."""
        scope = request.scope
        path = scope.get("raw_path") or scope["path"].encode()
        query = scope.get("query_string") or b""
        target = self._hall_here(request) + path.decode("latin-1") + ("?" + query.decode("latin-1") if query else "")
        return RedirectResponse(target, status_code=303 if request.method in ("GET", "HEAD") else 307)

    def _home(self, request: Request) -> str:
        return "/" if self.one_process else self._hall_here(request) + "/"

    def _poke(self) -> None:
        """A change was logged: the live streams hear of it now, not at their next look."""
        if self.one_process:
            self.live.poke()
        else:
            self.poke_hall()
        for tell in self.on_change:
            tell()

    def _translated(self, data: Any, lang: str) -> Any:
        """An answer of the API with what a page shows of it in ``lang`` (the same function the
        phone's engine answers with: :func:`tournament.event.table_log.translated`)."""
        return table_log.translated(data, lang, lambda text: self._said(text, lang), i18n.DEFAULT)

    async def _answer(self, request: Request, work: Callable[[], Any], status: int = 200) -> Response:
        """JSON of ``await work()``, or the one-line refusal with its status; in the client's language."""
        request_id = request.scope.get("state", {}).get("request_id", "")
        lang, _ = self._language(request)
        known = request.query_params.get("hands")  # the closed hands the page holds (session.since)
        answered = await self._answered(request_id, lang, known, request.method == "POST", work, status)
        if answered is None:
            return _NoAnswer()
        body, status, headers = answered
        return self._negotiated(JSONResponse(body, status_code=status, headers=headers), None)

    async def _answered(self, request_id: str, lang: str, known: str | None, wrote: bool,
                        work: Callable[[], Any], status: int = 200) -> tuple[Any, int, dict[str, str]] | None:
        """What :meth:`_answer` sends, before it is written: the body, its status and its own headers
        (None: the client went away before its request had come whole, and nobody is answered).
        Shared by the routes and the hot requests' light path (:meth:`_light`), so both answer alike."""
        try:
            value = await work()
        except Exception as e:  # noqa: BLE001 - sorted by _settled as before (what it does not take, raised)
            failure = e

            def failed() -> Any:
                raise failure
            return self._settled(request_id, lang, known, wrote, failed, status)
        return self._settled(request_id, lang, known, wrote, lambda: value, status)

    def _settled(self, request_id: str, lang: str, known: str | None, wrote: bool, outcome: Callable[[], Any],
                 status: int = 200) -> tuple[Any, int, dict[str, str]] | None:
        """:meth:`_answered` once the work is done: ``outcome()`` gives its value or raises its
        refusal (the connection's own light path, :meth:`VenueServer.light_request`, hands it a
        future's ``result``)."""
        headers: dict[str, str] = {}
        try:
            body: dict[str, Any] = self._translated(_since(outcome(), known), lang)
            if wrote and self.venue.store.changes_logged != self._logged:
                self._logged = self.venue.store.changes_logged
                self._poke()  # the event changed: open pages hear of it now (a move alone logs nothing)
        except _Refusal as e:
            body, status = {"error": e.message, "request_id": request_id}, e.status
        except VenueError as e:
            body, status = table_log.refusal_body(e, request_id, known), e.status
            if isinstance(e, (Waiting, Held)):  # a table waiting after wrong PINs, the file held: for how long
                headers["retry-after"] = str(e.retry_after)
            if isinstance(e, Waiting):  # (told apart from the device's rate limit, also a 429: a page's
                body["pin_wait"] = e.retry_after  # confirmation kept on the phone is refused by this one only)
                if e.every_table:  # (the event's wait for the director's PIN: the page counts it in its words)
                    body["pin_wait_every_table"] = True
        except (TournamentError, DomrecError) as e:  # the operations' own refusals: one line each
            body, status = {"error": one_line(str(e)), "request_id": request_id}, 422
        except ClientDisconnect:
            # The phone's connection was lost while it sent its write (its Wi-Fi dropped): the write
            # had not come whole, so nothing was done, and the phone sends it again (the same id)
            # from its outbox.  No fault of the server's: not logged as one (it was, with a
            # traceback, whenever a hall's Wi-Fi dropped mid-request).
            log.info("request %s: the connection was lost before the request had come whole; nothing was done",
                     request_id)
            return None
        if "error" in body:
            body = self._translated({**body, "error": self._said(body["error"], lang)}, lang)
        return body, status, headers

    async def _authorized(self, request: Request, director: bool = False) -> tuple[int, int, str]:
        round_no, table_no = self._where(request)
        kind = await self.run(self.venue.authorize, _bearer(request), round_no, table_no)
        if director and kind != "director":
            raise Forbidden("only the director's link may do this")
        return round_no, table_no, kind

    # --- the table's API ------------------------------------------------------------------

    async def api_table(self, request: Request) -> Response:
        """The table's state; with ``?log=1``, also what the phone's engine replays it from (the
        table's template, facts and log rows: ``&after=REV``, only the rows after ``REV``); with
        ``?log=only``, that and the revision without the state (cheap: no game state made)."""
        async def work() -> Any:
            round_no, table_no = self._where(request)
            log = request.query_params.get("log")
            after = request.query_params.get("after", "")
            since = int(after) if after.isascii() and after.isdigit() and len(after) < 10 else 0
            token = _bearer(request)

            def authorized_state() -> Any:  # one trip to the venue's thread a read, the key checked first
                if log in ("1", "only"):
                    kind = self.venue.authorize(token, round_no, table_no)
                    return self.venue.state_with_log(round_no, table_no, since, log == "1", table_key=kind == "table")
                return self.venue.authorized_state(token, round_no, table_no)

            return await self.run(authorized_state)
        return await self._answer(request, work)

    async def api_options(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, kind = await self._authorized(request)
            return await self.run(self.venue.options, round_no, table_no, request.query_params.get("tile"),
                                  kind == "table")
        return await self._answer(request, work)

    async def api_dgn(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no = self._where(request)
            try:
                body: dict[str, Any] | _Refusal = await _json_body(request)
            except _Refusal as e:
                body = e

            return await self.run(self._move_job(_bearer(request), round_no, table_no, body))
        return await self._answer(request, work)

    async def api_mode(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request)
            body = await _json_body(request)
            return await self.run(self.venue.set_mode, round_no, table_no, body.get("rev"), body.get("mode"),
                                  body.get("cid"), body.get("at"))
        return await self._answer(request, work)

    async def api_confirm(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request)
            body = await _json_body(request)
            who = body.get("side", body.get("seat"))
            return await self.run(self.venue.confirm, round_no, table_no, body.get("rev"), who, body.get("pin"),
                                  body.get("cid"), body.get("at"))
        return await self._answer(request, work)

    async def api_call(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request)
            body = await _json_body(request)
            return await self.run(self.venue.call, round_no, table_no, body.get("rev"), body.get("cid"),
                                  body.get("at"))
        return await self._answer(request, work)

    async def api_clear(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, _ = await self._director_here(request)
            body = await _json_body(request)
            return await self.run(self.venue.clear_call, round_no, table_no, body.get("rev"), body.get("cid"),
                                  body.get("at"))
        return await self._answer(request, work)

    async def api_clear_pins(self, request: Request) -> Response:
        """The director clears a table's wrong PINs: its confirmations wait no more."""
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request, director=True)
            body = await _json_body(request)
            return await self.run(self.venue.clear_pin_tries, round_no, table_no, "the director's page",
                                  body.get("cid"))
        return await self._answer(request, work)

    async def api_result(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request, director=True)
            body = await _json_body(request)
            return await self.run(self.venue.director_result, round_no, table_no, body.get("scores"),
                                  body.get("reason"), body.get("winner"), body.get("board"), body.get("ended"),
                                  body.get("cid"))
        return await self._answer(request, work)

    async def api_clear_result(self, request: Request) -> Response:
        """(The director's key) a result taken back, with its reason: ``tournament clear``; at a
        duplicate pairs table, ``"board"``: that board's (``tournament clear --board``)."""
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request, director=True)
            body = await _json_body(request)
            return await self.run(self.venue.director_clear, round_no, table_no, body.get("reason"), body.get("cid"),
                                  body.get("board"))
        return await self._answer(request, work)

    async def api_not_played(self, request: Request) -> Response:
        """(The director's key) a duplicate pairs table's board marked not played, with its reason:
        ``tournament result --board B --not-played``."""
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request, director=True)
            body = await _json_body(request)
            return await self.run(self.venue.director_not_played, round_no, table_no, body.get("board"),
                                  body.get("reason"), body.get("cid"), body.get("replace", False))
        return await self._answer(request, work)

    async def _director_here(self, request: Request) -> tuple[int, int, str]:
        """The director, by the director's key, or at the table: the table's own key with the
        director's PIN (header ``X-Director-PIN``).  The round, the table, and who it is, as the
        audit trail names them.  A table's key for another table is refused before any PIN."""
        round_no, table_no = self._where(request)
        pin = request.headers.get(PIN_HEADER)

        def check() -> str:
            if self.venue.authorize(_bearer(request), round_no, table_no) == "director":
                return "the director's page"
            self.venue.check_director_pin(pin, round_no, table_no)
            return f"the director at table {round_no}/{table_no} (director's PIN)"

        return round_no, table_no, await self.run(check)

    async def api_lines(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, _ = await self._director_here(request)
            return await self.run(self.venue.lines, round_no, table_no)
        return await self._answer(request, work)

    async def api_correct(self, request: Request) -> Response:
        async def work() -> Any:
            round_no, table_no, by = await self._director_here(request)
            body = await _json_body(request)
            return await self.run(self.venue.correct, round_no, table_no, body.get("rev"), body.get("hand"),
                                  body.get("line"), body.get("text"), body.get("reason"), by, body.get("cid"),
                                  body.get("at"))
        return await self._answer(request, work)

    async def api_new_key(self, request: Request) -> Response:
        """(The director's key) a new key for the table: its old link opens nothing from now on;
        the answer carries the new link and its QR code (an SVG picture as a ``data:`` address)."""
        async def work() -> Any:
            round_no, table_no, _ = await self._authorized(request, director=True)
            body = await _json_body(request)
            done = await self.run(keys.new_table_key, self.venue, round_no, table_no, self.base_url,
                                  "the director's page", body.get("cid"))
            return {**done, "qr": qr_data_uri(done["url"])}
        return await self._answer(request, work)

    async def api_director(self, request: Request) -> Response:
        async def work() -> Any:
            await self.run(self.venue.authorize_director, _bearer(request))
            lang = self._language(request)[0]
            overview = await self.run(self.venue.overview, lang)
            if overview.get("finished"):  # (the session over, in the page's language)
                overview = {**overview, "finished": self._said(overview["finished"], lang)}
            if overview.get("waits"):  # (the round not finished yet, in the page's language too)
                overview = {**overview, "waits": self._said(overview["waits"], lang)}
            state = self.upstream_state
            return {**overview, "upstream": state() if state is not None else None}
        return await self._answer(request, work)

    async def api_clear_director_pins(self, request: Request) -> Response:
        """(The director's key) the wrong director's PINs at the tables together forgotten: the
        director's PIN waits at no table (``tournament pins --clear-director``)."""
        async def work() -> Any:
            await self.run(self.venue.authorize_director, _bearer(request))
            body = await _json_body(request)
            return await self.run(self.venue.clear_director_pins, "the director's page", body.get("cid"))
        return await self._answer(request, work)

    async def api_pair(self, request: Request) -> Response:
        async def work() -> Any:
            await self.run(self.venue.authorize_director, _bearer(request))
            body = await _json_body(request)
            return await self.run(self.venue.pair_next, body.get("seed"), body.get("cid"))
        return await self._answer(request, work)

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(OPENAPI)


    async def table_page(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            table = await self.run(self.venue.table_of_token, token)
        except VenueError as e:  # (a key changed: the lines this phone kept for it are listed)
            return await self._refused_page(request, e, e.status, kept=token[:200])
        engine = await asyncio.to_thread(self.engine.urls)  # the bundle is made once, off the event loop
        response = self._page(request, "table.html.j2", event=self.venue.store.settings.name, token=token,
                              round=table.round, table=table.number, engine=engine)
        # The phone's engine compiles WebAssembly (Pyodide): the one page that may.
        response.headers["content-security-policy"] = _ENGINE_POLICY
        return response

    # --- the phone's engine (static/engine.js) ---------------------------------------------

    @staticmethod
    def _immutable(request: Request, data: bytes, media: str, tag: str, gzipped: bool = False) -> Response:
        headers = {"cache-control": engine_bundle.IMMUTABLE, "etag": tag, "vary": "Accept-Encoding"}
        seen = request.headers.get("if-none-match")
        if seen is not None and _etag_matches(seen, tag):
            return Response(status_code=304, headers=headers)
        if gzipped:
            headers["content-encoding"] = "gzip"
        return Response(data, media_type=media, headers=headers)

    async def pyodide_file(self, request: Request) -> Response:
        """A file of the vendored Pyodide, under its version: cached by the phone for good."""
        gzipped = encoding.gzip_taken(request.headers.get("accept-encoding"))
        found = await asyncio.to_thread(self.engine.pyodide_file, request.path_params["version"],
                                        request.path_params["name"], gzipped)
        if found is None:
            return JSONResponse({"error": self._said(f"no such file: {one_line(request.path_params['name'])[:20]}",
                                                     self._language(request)[0]),
                                 "request_id": request.scope.get("state", {}).get("request_id", "")}, status_code=404)
        data, media, squeezed = found
        tag = f'"pyodide-{self.engine.version}-{request.path_params["name"]}{"-gz" if squeezed else ""}"'
        return self._immutable(request, data, media, tag, squeezed)

    async def engine_bundle(self, request: Request) -> Response:
        """domrec's engine modules as one zip, under its digest: cached by the phone for good."""
        data, digest = await asyncio.to_thread(self.engine.bundle)
        if request.path_params["digest"] != digest:  # an older server's bundle: the page asks for the new one
            return JSONResponse({"error": self._said("no such file: domrec.zip", self._language(request)[0]),
                                 "request_id": request.scope.get("state", {}).get("request_id", "")}, status_code=404)
        return self._immutable(request, data, "application/zip", f'"engine-{digest}"')

    async def engine_worker(self, request: Request) -> Response:
        """The phone's engine's worker (static/engine_worker.js), with the table page's policy: the
        worker compiles Pyodide's WebAssembly, which the static files' policy forbids.  Like the
        other scripts, never kept by a cache on the way (the tables' service worker keeps it)."""
        return Response((HERE / "static" / "engine_worker.js").read_bytes(), media_type="text/javascript",
                        headers={"cache-control": "no-store", "content-security-policy": _ENGINE_POLICY})

    async def service_worker(self, request: Request) -> Response:
        """The tables' pages' service worker (static/sw.js), from the root so that its scope takes
        in the table pages (/t/…), the scripts (/static/…) and the API's state reads; never kept by
        a cache on the way (a phone must find a new one at once)."""
        return Response((HERE / "static" / "sw.js").read_bytes(), media_type="text/javascript",
                        headers={"cache-control": "no-store", "service-worker-allowed": "/"})

    async def director_page(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            await self.run(self.venue.authorize_director, token)
        except VenueError as e:
            return await self._refused_page(request, e, e.status)
        pin = await self.run(self.venue.director_pin)
        settings = self.venue.store.settings
        # (a duplicate event's tables play boards: the page names a board where it would say a hand)
        return self._page(request, "director.html.j2", event=settings.name, token=token, director_pin=pin,
                          boards=settings.duplicate or settings.team_duplicate)

    async def sheets_page(self, request: Request) -> Response:
        token = request.path_params["token"]
        try:
            await self.run(self.venue.authorize_director, token)
            html = await self.run(self._sheets_html, self._language(request)[0])
        except (VenueError, TournamentError) as e:
            return await self._refused_page(request, e, getattr(e, "status", 422))
        return self._negotiated(HTMLResponse(html), self._language(request)[1])

    def _sheets_html(self, lang: str) -> str:
        """The last round's score sheets, each with its table's QR code (on the venue's thread)."""
        store = self.venue.store
        rnd = store.last_round()
        if not rnd:
            raise Unprocessable("no round has been paired yet")
        tables = store.tables(rnd)
        found = self.venue.links(self.base_url, rnd, hall=self.hall_url)
        with self.venue.lock:
            remember_printed(store, self.base_url)  # a later `serve` elsewhere says these point here
        urls = {t.id: x["url"] for t in tables for x in found["tables"] if x["table"] == t.number}
        players = {p.id: p for p in store.players()}
        return sheets_page(store.settings, tables, players, {t.id: t.name for t in store.teams()}, links=urls,
                           captains=team_matches(store, tables), boards=boards_played(store, rnd),
                           numbers=shown_numbers(store), public=found["public"], lang=lang)

    async def replay_page(self, request: Request) -> Response:
        """A table's game so far as domrec's replay page (every position, the verdict beside it)."""
        token = request.path_params["token"]
        try:
            await self.run(self.venue.authorize_director, token)
            round_no, table_no = self._where(request)
            asked = request.query_params.get("board") if request.scope.get("query_string") else None
            if asked is not None and not (asked.isascii() and asked.isdigit() and 0 < len(asked) < 6):
                raise Unprocessable("?board= takes the number of a board the table plays")
            html = await self.run(self.venue.replay_html, round_no, table_no, self._language(request)[0],
                                  None if asked is None else int(asked))
        except _Refusal as e:
            return await self._refused_page(request, e, e.status)
        except (VenueError, TournamentError, DomrecError) as e:  # DomrecError: a game too long for a page
            return await self._refused_page(request, e, getattr(e, "status", 422))
        # The replay page is one self-contained document: its script and styles are inline.
        policy = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
                  "frame-ancestors 'none'")
        response = HTMLResponse(html, headers={"content-security-policy": policy})
        return self._negotiated(response, self._language(request)[1])


def _live_answer(content: Any, release: Callable[[], None]) -> "_Stream":
    """The live stream's answer around ``content`` (its messages), its place given back by ``release``."""
    return _Stream(content, release, media_type="text/event-stream", headers={"x-accel-buffering": "no"})


class _Stream(StreamingResponse):
    """A live stream whose place (:meth:`LiveFeed.reserve`) is given back when it ends, however it
    ends: finished, the client gone, or never begun at all."""

    def __init__(self, content: Any, release: Callable[[], None], **kw: Any) -> None:
        super().__init__(content, **kw)
        self._release: Callable[[], None] | None = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()


#: The feed's ETags begin with this (and the feed's version), so a tool whose feed reads otherwise
#: never answers 304 to a copy made by another.
FEED_ETAG = f"feed{feed.FEED_VERSION}"


def _feed_tag(uuid: str, seq: int, gzipped: bool = False) -> str:
    """A feed answer's ETag: the event and the change it is as of, and ``gz`` for the gzipped body
    (another representation, whose tag a cache holding the plain one must not take for its own;
    the change's number stays last, where the docs show it)."""
    return f'"{FEED_ETAG}{"-gz" if gzipped else ""}-{uuid}-{seq}"'


def _feed_headers(tag: str | None) -> dict[str, str]:
    """The feed is public and read by other programs, in browsers too: any site may read it (it
    holds nothing a key protects); a cache may keep an answer but asks again before each use,
    with its ETag (a 304 costs one look at the change log), so a follower is never served old news."""
    headers = {"cache-control": "public, no-cache",
               "access-control-allow-origin": "*", "access-control-expose-headers": "ETag"}
    if tag is not None:
        headers["etag"] = tag
    return headers


def _etag_matches(header: str, tag: str) -> bool:
    """``If-None-Match`` names ``tag`` (or ``*``); weak and strong forms compare alike, as RFC 9110
    has it for this header."""
    for item in header.split(","):
        item = item.strip()
        if item == "*" or item.removeprefix("W/") == tag:
            return True
    return False


_since = table_log.since


def wants_page(request: Request) -> bool:
    """A browser asking for a page (GET or HEAD, ``Accept: text/html``, not under ``/api/``): its
    refusal is a page with the sentence, where a program gets the one JSON line (the venue's and
    the hub's alike)."""
    return request.method in ("GET", "HEAD") and not request.url.path.startswith("/api/") \
        and "text/html" in request.headers.get("accept", "")


def not_here(method: str, exc: Exception) -> tuple[int, str]:
    """The status and the sentence (English, as the catalogs know it) of one of Starlette's own
    refusals: an address with nothing at it (404), a method an address does not take (405), or
    another ``HTTPException``; the venue's and the hub's alike."""
    status = getattr(exc, "status_code", 404)
    if status == 404:
        return status, NOTHING_HERE
    if status == 405:
        word = one_line(method)[:10]
        article = "an" if word[:1].upper() in "AEIOU" else "a"  # (an OPTIONS request)
        return status, f"this address does not take {article} {word} request"
    return status, one_line(str(getattr(exc, "detail", "") or "")) or "this request is refused"


def _crashed(request_id: str, said: Callable[[str], str] = str) -> JSONResponse:
    return JSONResponse({"error": said(f"the server could not do this (request {request_id}); the director can "
                                       f"find the detail in the server's log"), "request_id": request_id},
                        status_code=500)


#: An origin as compared: scheme, host (lower case, IPv6 without brackets) and port (the scheme's own if none).
Origin = tuple[str, str, int]


def origin_of(url: str) -> Origin | None:
    """The origin of ``url`` (``http://club.example:8000/d/KEY`` → ``("http", "club.example",
    8000)``), or None for what is not an http(s) address."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:  # a port out of range, a broken IPv6 address
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or (443 if scheme == "https" else 80)


def _hands_asked(query: bytes | None) -> str | None | bool:
    """The ``hands`` a hot request's query asks for (the last one, as Starlette's
    ``query_params.get`` has it; None: no query), or False: the query holds something else (a
    language, ``log``), and the request goes the routes' way."""
    known = None
    if query:
        for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if key != "hands":
                return False
            known = value
    return known


#: The methods that write (a write comes from a page of this server's, as JSON).
_WRITES = frozenset(("POST", "PUT", "DELETE", "PATCH"))


def _refused_here(scope: dict, served: frozenset[Origin]) -> tuple[int, str] | None:
    """What the guard refuses of a request before any route sees it, as (status, words), or None.
    (A write refused for its origin or its type that no route takes at all, a DELETE of a page,
    is left to the router's 405 or 404 instead: nothing reads its body.)

    * An HTTP/1.1 request without exactly one ``Host`` (400): HTTP/1.1 requires it, and h11
      refuses such a request itself, but httptools (uvicorn's reader where installed) lets it
      through.  Its value is not compared with the addresses the server is served at: phones
      reach the laptop by its LAN address, a name, or a reverse proxy's name, and a request naming
      another host reads nothing a key does not open anyway (no cookie carries a key), while a
      write from another site's page is refused by its ``Origin`` below.
    * A write whose ``Origin`` is another site's (403): :func:`_same_origin`.
    * A write whose body is not declared JSON (415): a browser sends a form or ``text/plain``
      from any site's page without asking this server first (no CORS preflight), ``application/json``
      never; so a write sent as anything else is no page's of this server's, and is refused before
      its body is read."""
    if scope.get("http_version") == "1.1":
        hosts = [value for name, value in scope.get("headers") or [] if name == b"host"]
        if len(hosts) != 1 or not hosts[0].strip():
            return 400, "a request must name the host it asks (one Host header)"
    if scope["method"] in _WRITES:
        if not _same_origin(scope, served):
            return 403, "a write from another site's page is refused"
        if not _json_declared(scope.get("headers") or []):
            return 415, "a write must be sent as JSON (Content-Type: application/json)"
    return None


def _json_declared(headers: Iterable[tuple[bytes, bytes]]) -> bool:
    """The request declares its body JSON: one ``Content-Type``, ``application/json`` (its
    parameters, such as ``charset``, aside)."""
    types = [value for name, value in headers if name == b"content-type"]
    return len(types) == 1 and types[0].partition(b";")[0].strip().lower() == b"application/json"


def _same_origin(scope: dict, served: frozenset[Origin]) -> bool:
    """A write's ``Origin``, when a browser sends one, is one of the addresses this server is
    served at (``served``): scheme, host and port alike.  Never compared with the request's own
    ``Host``, which the sender writes as it likes (a page of another site, a name rebound to
    this computer's address)."""
    origin = next((value for name, value in scope.get("headers") or [] if name == b"origin"), None)
    if origin is None:
        return True  # not a browser's cross-site request (a device, a script, curl)
    text = origin.decode("latin-1")
    rest = text.partition("://")[2]
    if not rest or any(c in rest for c in "/?#@\\"):  # an origin is scheme://host[:port], nothing more
        return False
    return origin_of(text) in served
