"""How the venue server takes connections: uvicorn's settings, the same for ``tournament serve``
and :class:`~tournament.web.background.BackgroundVenue`, and the guards uvicorn lacks.

uvicorn holds a connection open for as long as its client likes until the first request's
headers have come (its keep-alive timeout starts only after an answer), and takes any number of
connections from one address: one phone in the hall could open thousands and send nothing, or a
header a byte at a time, and hold the server's sockets until the tables' phones find none.  So
here every connection

* has :data:`HEADER_TIMEOUT` seconds to send a request's headers whole, from the moment it opens
  and again from each answer (while a request is being answered, however long, nothing is
  timed): a connection that has not is closed;
* counts against its client's device: at most :data:`PER_ADDRESS` are open at once from one
  address (an IPv6 client off this computer's own network by its /64, as the rate limit counts
  it: :func:`tournament.web.devices.device`); one more is answered 429 and closed at once.  A
  hall's phone opens a handful;
* may send at most :data:`MAX_HEAD` bytes of a request's line and headers: past them the request
  is answered 431 in the venue's one JSON line and the connection closed.  httptools (uvicorn's
  reader where installed) keeps a request's headers, however long, until they end: one phone
  sending a header of a hundred megabytes within the header timeout, on each of its connections,
  held that much of the laptop's memory (h11 is given the same bound, and answers past it as a
  request it cannot read).

A reverse proxy's forwarded headers (``X-Forwarded-For``, ``X-Forwarded-Proto``) are believed only
when asked for (``proxy_headers``, ``tournament serve --proxy-headers``), and then only from a
proxy on this computer (:data:`PROXIES`): without it, any client could write a made-up address in
them and get a rate limit of its own for every request.  Behind such a proxy every connection
comes from the proxy's address, so the per-address count leaves that address alone (the proxy
holds the phones' connections; the rate limit counts each phone by its forwarded address).

And an answer goes out in one write to the socket, not two: uvicorn writes a response's status
line and headers, then its body, each straight to the socket; here the writes made in one turn
of the event loop are joined and sent together at its end (:class:`Coalesced`).  Each write to a
socket is a system call and, on the phone's side, a packet and a wake-up: a table's move cost the
server two of them.

And the two requests a hall makes most, a table's move and a read of its state, are answered by
the connection itself when the application offers it (``light_request``, set on the ASGI
application by :meth:`tournament.web.app.Site._guarded`): once such a request has come whole in
what the socket handed over, the venue's answer is written to the socket from the callback of its
trip to the venue's thread, without uvicorn's request-response cycle, its task, the ASGI messages
and the guard's wrapper (0.1 to 0.2 ms of a move's CPU, measured apart by
``benchmarks/bench_venue_split.py``).  Anything unusual (a body in several reads, ``Expect``,
chunks, HTTP/1.0, an upgrade, a request behind another on the connection, a forwarded address
believed) goes uvicorn's way, as every other request.  An answer may be a stream
(:class:`LightStream`: the hall's live stream): its head is written at once, and its chunks by
whoever holds its :class:`StreamSink`, until that ends it or the client goes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import json
import logging
import signal
from typing import Any, Callable

import uvicorn

from tournament.web.devices import device

try:
    import httptools
except ImportError:  # uvicorn reads with h11 then, and every request goes the ASGI way
    httptools = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

#: Seconds a connection has to send a request's headers whole (after opening, after each answer).
HEADER_TIMEOUT = 10.0
#: Connections one client address may hold open at once.
PER_ADDRESS = 64
#: The addresses whose forwarded headers are believed with ``proxy_headers``: this computer's own.
PROXIES = ("127.0.0.1", "::1")
#: What a connection beyond :data:`PER_ADDRESS` is told before it is closed.
TOO_MANY = json.dumps({"error": "too many connections from this device: close some pages and try again",
                       "request_id": ""}).encode()
#: The headers every answer of the venue carries (the guard's, :mod:`tournament.web.app`), on the
#: answers written here before any application is asked.
_SECURITY = (b"x-content-type-options: nosniff\r\nreferrer-policy: no-referrer\r\nx-frame-options: DENY\r\n"
             b"content-security-policy: default-src 'none'; frame-ancestors 'none'\r\ncache-control: no-store\r\n")
_TOO_MANY_ANSWER = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n" + _SECURITY +
                    b"retry-after: 5\r\n"
                    b"connection: close\r\ncontent-length: " + str(len(TOO_MANY)).encode() + b"\r\n\r\n" + TOO_MANY)
#: The most a request's line and headers may hold (bytes): a browser sends a few kilobytes.
MAX_HEAD = 64 * 1024
#: What a request whose line and headers go past :data:`MAX_HEAD` is told before its connection
#: closes (its headers unread: no language to answer in but the venue's first).
TOO_LONG = json.dumps({"error": f"a request's address and headers may hold at most {MAX_HEAD // 1024} KB: "
                                "this one was refused unread", "request_id": ""}).encode()
_TOO_LONG_ANSWER = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n" + _SECURITY +
                    b"connection: close\r\ncontent-length: " + str(len(TOO_LONG)).encode() + b"\r\n\r\n" + TOO_LONG)
#: What a request uvicorn cannot read as HTTP is told (uvicorn's own answer is a line of plain
#: text): the one JSON line every other refusal of the venue gives, before the connection closes.
NOT_HTTP = json.dumps({"error": "the server could not read this request as HTTP: check the address and send it again",
                       "request_id": ""}).encode()
_NOT_HTTP_ANSWER = (b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n" + _SECURITY +
                    b"connection: close\r\ncontent-length: " + str(len(NOT_HTTP)).encode() + b"\r\n\r\n" + NOT_HTTP)


def config(app: Any, *, proxy_headers: bool = False, header_timeout: float = HEADER_TIMEOUT,
           per_address: int = PER_ADDRESS, uncounted: frozenset[str] | None = None,
           **options: Any) -> uvicorn.Config:
    """uvicorn's settings for the venue's ASGI ``app``: the guarded connections above, forwarded
    headers believed only with ``proxy_headers``, no access log, no ``Server`` header, no lifespan
    unless ``options`` ask for it (``lifespan="on"``: the hub's, which starts its stream reader);
    ``uncounted``: the addresses the per-address count leaves alone (default: a proxy's on this
    computer with ``proxy_headers``, else none); ``options`` are uvicorn's own (host, port,
    log_config, ...)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol  # httptools where installed, else h11

    options.setdefault("log_level", "warning")
    options.setdefault("lifespan", "off")
    options.setdefault("h11_max_incomplete_event_size", MAX_HEAD)  # (httptools: the Guarded protocol's count)
    if uncounted is None:
        uncounted = frozenset(PROXIES) if proxy_headers else frozenset()
    # Behind a proxy the client's address is the forwarded one, which only the ASGI way reads.
    light = None if proxy_headers else getattr(app, "light_request", None)
    return uvicorn.Config(app, http=guarded(AutoHTTPProtocol, header_timeout, per_address, uncounted, light),
                          proxy_headers=proxy_headers, forwarded_allow_ips=list(PROXIES) if proxy_headers else [],
                          access_log=False, server_header=False, **options)


def _terminated(sig: int, frame: Any) -> None:
    """SIGTERM raised again by uvicorn once it has stopped (:meth:`QuietServer.capture_signals`)."""
    raise SystemExit(128 + signal.SIGTERM)


#: Seconds between two ticks of a venue server's main loop (uvicorn's is 0.1; see :class:`QuietServer`).
TICK = 1.0


class QuietServer(uvicorn.Server):
    """uvicorn's server, its own loop ticking every :data:`TICK` seconds rather than ten times a
    second.  Its tick updates the ``Date`` header once a second and looks whether to stop: the
    other nine were each a wake-up of an idle process, which on a virtual machine costs about as
    much CPU as a table's move (``docs/venue-speed.md``).  A stop is seen at once: the exit's
    signal wakes the loop (:meth:`_wake`).  ``stopping``: called first on that signal (the
    hall's live streams end at once, so that Ctrl-C waits for no phone)."""

    def __init__(self, config: uvicorn.Config, stopping: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self._stopping = stopping
        self._woken: asyncio.Event | None = None
        self._running: asyncio.AbstractEventLoop | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Any:
        """uvicorn's, but a stop asked with SIGTERM (``kill``, a service manager) ends as an
        exception, not by the signal's own action: uvicorn stops gracefully, then raises the signal
        again with the handler it found, and the default one ended the process there, before the
        ``finally`` of ``tournament serve`` (its claim file was left behind, and the hall's process
        was not stopped by it).  Raised as ``SystemExit(143)``, the exit status a shell gives a
        process ended by SIGTERM, after every ``finally`` has run."""
        import threading

        if threading.current_thread() is not threading.main_thread():
            with super().capture_signals():
                yield
            return
        before = signal.signal(signal.SIGTERM, _terminated)
        try:
            with super().capture_signals():
                yield
        finally:
            signal.signal(signal.SIGTERM, before)

    def handle_exit(self, sig: int, frame: Any) -> None:
        if self._stopping is not None:
            self._stopping()
        super().handle_exit(sig, frame)
        self._wake()

    def _wake(self) -> None:
        """The main loop looks at ``should_exit`` now, not at its next tick."""
        woken, loop = self._woken, self._running
        if woken is not None and loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing left to wake
                loop.call_soon_threadsafe(woken.set)

    async def main_loop(self) -> None:
        self._woken, self._running = asyncio.Event(), asyncio.get_running_loop()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 10) % 864000  # each tick ten of uvicorn's: the date moves on each
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), TICK)
            should_exit = await self.on_tick(counter)


#: Allocations (less deallocations) between two runs of the cyclic collector's youngest generation
#: in a server's process, where Python's default is 700 (see :func:`collect_less`).
YOUNG_COLLECTION = 20_000


def collect_less() -> None:
    """Once a server's process has started (its modules, templates and event read): what it holds
    then is set aside from the cyclic garbage collector for good (``gc.freeze``), and the
    collector runs after :data:`YOUNG_COLLECTION` new objects rather than 700.  A table's move
    makes a few thousand short-lived objects (its request, its answer, the game's views): with the
    defaults, a collection ran every few moves and walked the live games of every table, a fifth
    of the venue's work on a move measured in one process.  Nothing is kept longer: each object
    is still freed when its last reference goes, and a cycle at the next collection."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, oldest)


def served_origins(host: str, port: int, scheme: str = "http") -> tuple[str, ...]:
    """The addresses a browser on this computer may reach a server listening on ``host:port`` by,
    besides its links' address: a write from a page at one of them is this server's own
    (``scheme`` ``https`` for a server with a certificate: ``serve --certfile``)."""
    loopback = ("127.0.0.1", "localhost", "[::1]")
    if host in ("0.0.0.0", "::", "127.0.0.1", "localhost", "::1"):
        names: tuple[str, ...] = loopback
    else:
        names = (f"[{host}]" if ":" in host else host,)
    return tuple(f"{scheme}://{name}:{port}" for name in names)


class Coalesced:
    """A connection's transport whose writes made in one turn of the event loop go out as one.

    The first write of a turn schedules the flush (``call_soon``: after everything the loop is
    running now); the writes after it are kept beside it.  Closing, or ending the writing side,
    sends what is kept first, as the transport itself would; aborting drops it, as the transport
    does.  A connection closing meanwhile (the phone gone) drops it too: nobody is there to
    read it.  Everything else is the transport's own (flow control, addresses, TLS)."""

    __slots__ = ("_transport", "_loop", "_kept")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._kept: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not self._kept:
            self._loop.call_soon(self._flush)
        self._kept.append(bytes(data) if type(data) is not bytes else data)

    def writelines(self, lines: Any) -> None:
        for data in lines:
            self.write(data)

    def _flush(self) -> None:
        kept, self._kept = self._kept, []
        if kept and not self._transport.is_closing():
            self._transport.write(kept[0] if len(kept) == 1 else b"".join(kept))

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._kept))

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._kept = []
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _NoEvent:
    """What uvicorn sets on a connection's lost (a request's body it waits for): nothing waits."""

    __slots__ = ()

    def set(self) -> None:
        pass


class LightCycle:
    """What stands for uvicorn's request-response cycle while a request answered by the connection
    itself (see :func:`guarded`) is being answered: what uvicorn's protocol reads of a cycle
    (whether its answer is complete, whether the connection stays open after it, whether the
    client went away)."""

    __slots__ = ("keep_alive", "response_complete", "disconnected", "message_event")

    def __init__(self, keep_alive: bool) -> None:
        self.keep_alive = keep_alive
        self.response_complete = False
        self.disconnected = False
        self.message_event: _NoEvent | StreamSink = _NoEvent()


def write_now(transport: Any, data: bytes) -> None:
    """``data`` written to the connection: straight to its socket when nothing of this turn waits
    there to go with it (a :class:`Coalesced` transport holding nothing), else joined to it."""
    if type(transport) is Coalesced and not transport._kept:
        transport._transport.write(data)
    else:
        transport.write(data)


def chunk(data: bytes) -> bytes:
    """``data`` as one chunk of a chunked answer's body, as uvicorn frames it (made once, written
    to as many streams as need it)."""
    return b"%x\r\n" % len(data) + data + b"\r\n"


#: What a stream's connection may hold unsent before the stream is ended (a phone that stopped reading).
MAX_UNSENT = 64 * 1024


class LightStream:
    """The body of a light request's answer that is a stream (``transfer-encoding: chunked``, as
    uvicorn sends an answer of no declared length): once the status line and headers are written,
    ``opened`` is handed the stream's :class:`StreamSink`, and whoever holds it writes the chunks
    and ends it."""

    __slots__ = ("opened",)

    def __init__(self, opened: Callable[["StreamSink"], None]) -> None:
        self.opened = opened


class StreamSink:
    """An open stream of a light request, as its writer sees it: :meth:`send` a chunk (framed once
    with :func:`chunk` for every stream), :meth:`end` it; ``gone`` is called once if the client
    goes away first.  It stands as the cycle's ``message_event`` too: uvicorn's protocol sets that
    when the connection is lost."""

    __slots__ = ("_protocol", "_cycle", "gone")

    def __init__(self, protocol: Any, cycle: "LightCycle") -> None:
        self._protocol = protocol
        self._cycle = cycle
        self.gone: Callable[[], None] | None = None

    def send(self, framed: bytes) -> None:
        """Write one framed chunk; a connection that holds too much unsent is ended (its client
        stopped reading: it opens a new stream when it reads again)."""
        if self._cycle.response_complete:
            return
        transport = self._protocol.transport
        if transport.is_closing():
            return
        write_now(transport, framed)
        if transport.get_write_buffer_size() > MAX_UNSENT:
            transport.abort()

    def end(self) -> None:
        """The stream's last chunk: the answer is complete (the connection then serves its next
        request, or closes when the server is stopping or the request asked it)."""
        cycle = self._cycle
        if cycle.response_complete:
            return
        self.gone = None
        transport = self._protocol.transport
        cycle.response_complete = True
        if transport.is_closing():
            return
        transport.write(b"0\r\n\r\n")
        if not cycle.keep_alive:
            transport.close()
        self._protocol.on_response_complete()

    def set(self) -> None:
        """The connection is lost (uvicorn's protocol says so): the writer hears of it, once."""
        gone, self.gone = self.gone, None
        if gone is not None and not self._cycle.response_complete:
            gone()


def _status_lines() -> dict[int, bytes]:
    try:
        from uvicorn.protocols.http.httptools_impl import STATUS_LINE
    except ImportError:  # (no httptools: no light path either)
        return {}
    return STATUS_LINE


Light = Callable[[bytes, str, bytes, list, Any], Callable[[bytes, Callable[[Any], None]], None] | None]


def guarded(base: type[asyncio.Protocol], header_timeout: float, per_address: int,
            uncounted: frozenset[str] = frozenset(), light: Light | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` (``HttpToolsProtocol`` or ``H11Protocol``: both keep
    ``client``, ``loop``, ``transport``, ``cycle`` and call ``on_response_complete``), with a
    deadline for each request's headers and a count of the connections open per address
    (``uncounted``: a trusted proxy's), shared by the connections of one server.

    With ``light`` (the application's ``light_request``) and httptools' protocol, a request the
    application takes is answered here (:meth:`Guarded._venue_light_of`): ``light(method, path,
    query, headers, client)``, asked once its headers are read, gives how to answer it once its
    body has come whole in the same read from the socket (else it goes uvicorn's way after all,
    as it would have)."""
    open_at: collections.Counter[str] = collections.Counter()
    status_lines = _status_lines()
    counted_head = hasattr(base, "on_headers_complete")  # (h11 bounds a head itself: see config)
    if not status_lines or not counted_head:
        light = None

    class Guarded(base):  # type: ignore[valid-type, misc]
        #: Connections open per client address (for the curious and the tests).
        opened = open_at
        #: The request being read that the connection answers itself: how, and its body so far.
        _venue_pending: tuple[Callable[[bytes, Callable[[Any], None]], None], bytearray] | None = None

        if light is not None:
            def _venue_light_of(self) -> Callable[[bytes, Callable[[Any], None]], None] | None:
                """How the application answers the request whose headers were just read, or None."""
                cycle = self.cycle
                if (cycle is not None and not cycle.response_complete) or self.pipeline or self.expect_100_continue \
                        or self.root_path:
                    return None
                parser = self.parser
                try:
                    if parser.should_upgrade() or parser.get_http_version() != "1.1":
                        return None
                    url = httptools.parse_url(self.url)
                except Exception:  # noqa: BLE001 - uvicorn's way says what is wrong with it
                    return None
                path = url.path
                if b"%" in path:
                    return None
                try:
                    return light(parser.get_method(), path.decode("ascii"), url.query or b"", self.headers,
                                 self.client)
                except Exception:  # noqa: BLE001 - a fault of the light path's: the request goes uvicorn's way
                    log.exception("a request could not be looked at for the light path; it goes the ASGI way")
                    return None

            def _venue_answered(self, cycle: LightCycle, answered: tuple[int, list, bytes]) -> None:
                """The application's answer of a request taken by :meth:`_venue_light_of`, written
                as uvicorn writes one (its default headers, ``connection: close`` when the
                connection ends with it), in one write."""
                if cycle.disconnected or self.transport.is_closing():
                    cycle.response_complete = True
                    return
                status, headers, body = answered
                content = [status_lines[status]]
                for name, value in self.server_state.default_headers:
                    content += (name, b": ", value, b"\r\n")
                for name, value in headers:
                    content += (name, b": ", value, b"\r\n")
                if not cycle.keep_alive:
                    content.append(b"connection: close\r\n")
                if type(body) is LightStream:  # its head now, its chunks from whoever it is handed to
                    content.append(b"transfer-encoding: chunked\r\n\r\n")
                    self.transport.write(b"".join(content))
                    sink = StreamSink(self, cycle)
                    cycle.message_event = sink  # type: ignore[assignment]
                    body.opened(sink)
                    return
                content += (b"\r\n", body)
                write_now(self.transport, b"".join(content))
                cycle.response_complete = True
                if not cycle.keep_alive:
                    self.transport.close()
                self.on_response_complete()

        if counted_head:  # httptools' protocol: its callbacks say where each request's head ends
            #: The request being read is still in its line and headers; the bytes read of them so far.
            _venue_heading = True
            _venue_head = 0
            #: A head past MAX_HEAD was refused: nothing more of the connection is read.
            _venue_refused = False

            def _venue_refuse(self) -> None:
                self._venue_refused = True
                if not self.transport.is_closing():
                    write_now(self.transport, _TOO_LONG_ANSWER)
                    self.transport.close()

            def on_headers_complete(self) -> None:
                self._venue_heading = False
                if self._venue_refused:
                    return
                # (a head that came whole in one read: its size as read, the request line's words
                # and each header's colon, spaces and line end counted)
                if len(self.url) + 16 + sum(len(name) + len(value) + 4 for name, value in self.headers) > MAX_HEAD:
                    self._venue_refuse()
                    return
                taken = self._venue_light_of() if light is not None else None
                if taken is None:
                    super().on_headers_complete()
                else:
                    self._venue_pending = (taken, bytearray())

            def on_body(self, body: bytes) -> None:
                if self._venue_refused:
                    return
                if self._venue_pending is not None:
                    self._venue_pending[1].extend(body)
                else:
                    super().on_body(body)

            def on_message_complete(self) -> None:
                self._venue_heading, self._venue_head = True, 0  # the next request's head, if any, from here
                if self._venue_refused:
                    return
                if self._venue_pending is None:
                    super().on_message_complete()
                    return
                answer, body = self._venue_pending
                self._venue_pending = None
                cycle = LightCycle(self.parser.should_keep_alive())
                self.cycle = cycle  # type: ignore[assignment]
                answer(bytes(body), lambda answered: self._venue_answered(cycle, answered))

            def data_received(self, data: bytes) -> None:
                if self._venue_refused:
                    return
                if self._venue_heading:
                    self._venue_head += len(data)
                try:
                    super().data_received(data)
                finally:
                    pending, self._venue_pending = self._venue_pending, None
                    if pending is not None and self.parser is not None and not self.transport.is_closing():
                        # Its body comes in more than one read: uvicorn's way after all, the part
                        # already read handed over as uvicorn would have.
                        super().on_headers_complete()
                        if pending[1]:
                            super().on_body(bytes(pending[1]))
                # Still in a request's head past the bound, over several reads (what a read held
                # besides a head that ended in it is cleared with it): refused before more is read.
                if self._venue_heading and self._venue_head > MAX_HEAD:
                    self._venue_refuse()

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            transport = Coalesced(transport, self.loop)  # type: ignore[arg-type]
            super().connection_made(transport)  # type: ignore[arg-type]
            self._venue_timer: asyncio.TimerHandle | None = None
            client = getattr(self, "client", None)
            self._venue_address: str | None = (device(client[0]) if client and client[0] not in uncounted
                                               else None)  # (an IPv6 device by its /64, as the rate limit)
            if self._venue_address is not None:
                open_at[self._venue_address] += 1
                if open_at[self._venue_address] > per_address:
                    transport.write(_TOO_MANY_ANSWER)  # type: ignore[attr-defined]
                    transport.close()
                    return
            self._venue_arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._venue_disarm()
            address, self._venue_address = getattr(self, "_venue_address", None), None
            if address is not None:
                open_at[address] -= 1
                if open_at[address] <= 0:
                    del open_at[address]
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():  # kept alive: the next request's headers are timed
                self._venue_arm()

        def send_400_response(self, msg: str) -> None:
            """A request that is not HTTP (uvicorn's parser refused it): the venue's JSON line,
            not uvicorn's plain text, then the connection is closed as uvicorn closes it."""
            write_now(self.transport, _NOT_HTTP_ANSWER)
            self.transport.close()

        def _venue_arm(self) -> None:
            self._venue_disarm()
            self._venue_timer = self.loop.call_later(header_timeout, self._venue_late)

        def _venue_disarm(self) -> None:
            timer, self._venue_timer = getattr(self, "_venue_timer", None), None
            if timer is not None:
                timer.cancel()

        def _venue_late(self) -> None:
            self._venue_timer = None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                return  # a request's headers came in time: it is being answered, for as long as it takes
            if not self.transport.is_closing():
                self.transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded
