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
* counts against its client's address: at most :data:`PER_ADDRESS` are open at once from one
  address; one more is answered 429 and closed at once.  A hall's phone opens a handful.

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
"""

from __future__ import annotations

import asyncio
import collections
import gc
import json
from typing import Any

import uvicorn

#: Seconds a connection has to send a request's headers whole (after opening, after each answer).
HEADER_TIMEOUT = 10.0
#: Connections one client address may hold open at once.
PER_ADDRESS = 64
#: The addresses whose forwarded headers are believed with ``proxy_headers``: this computer's own.
PROXIES = ("127.0.0.1", "::1")
#: What a connection beyond :data:`PER_ADDRESS` is told before it is closed.
TOO_MANY = json.dumps({"error": "too many connections from this device: close some pages and try again",
                       "request_id": ""}).encode()
_TOO_MANY_ANSWER = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
                    b"x-content-type-options: nosniff\r\ncache-control: no-store\r\nretry-after: 5\r\n"
                    b"connection: close\r\ncontent-length: " + str(len(TOO_MANY)).encode() + b"\r\n\r\n" + TOO_MANY)


def config(app: Any, *, proxy_headers: bool = False, header_timeout: float = HEADER_TIMEOUT,
           per_address: int = PER_ADDRESS, **options: Any) -> uvicorn.Config:
    """uvicorn's settings for the venue's ASGI ``app``: the guarded connections above, forwarded
    headers believed only with ``proxy_headers``, no access log, no ``Server`` header, no lifespan;
    ``options`` are uvicorn's own (host, port, log_config, ...)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol  # httptools where installed, else h11

    options.setdefault("log_level", "warning")
    return uvicorn.Config(app, http=guarded(AutoHTTPProtocol, header_timeout, per_address,
                                            frozenset(PROXIES) if proxy_headers else frozenset()),
                          proxy_headers=proxy_headers, forwarded_allow_ips=list(PROXIES) if proxy_headers else [],
                          lifespan="off", access_log=False, server_header=False, **options)


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


def guarded(base: type[asyncio.Protocol], header_timeout: float, per_address: int,
            uncounted: frozenset[str] = frozenset()) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` (``HttpToolsProtocol`` or ``H11Protocol``: both keep
    ``client``, ``loop``, ``transport``, ``cycle`` and call ``on_response_complete``), with a
    deadline for each request's headers and a count of the connections open per address
    (``uncounted``: a trusted proxy's), shared by the connections of one server."""
    open_at: collections.Counter[str] = collections.Counter()

    class Guarded(base):  # type: ignore[valid-type, misc]
        #: Connections open per client address (for the curious and the tests).
        opened = open_at

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            transport = Coalesced(transport, self.loop)  # type: ignore[arg-type]
            super().connection_made(transport)  # type: ignore[arg-type]
            self._venue_timer: asyncio.TimerHandle | None = None
            client = getattr(self, "client", None)
            self._venue_address: str | None = client[0] if client and client[0] not in uncounted else None
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
