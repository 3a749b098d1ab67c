"""The hall's own process: the public pages, the live stream and the event's public feed, served on a
port of their own, so that the tables never wait on the hall.

A thousand phones reading the standings, and five hundred following them live, cost the process
that makes and sends their pages a good share of its interpreter: in the tables' own process, a
table's move waited behind a page being made or sent (a move's p99 at 0.5 s at a championship's
load).  ``tournament serve`` therefore runs the hall here, in a second process it starts
(:class:`HallProcess`), and its own port answers each of the hall's paths with a redirect to this
one.  What this process is:

* **No key, no write.**  It reads the event file through SQLite alone, on read-only connections
  (``PRAGMA query_only``), and has no route to a table, the director or any key: ``/t/KEY`` here
  is a 404.  It is :class:`tournament.web.app.HallSite` over :class:`~tournament.web.public.
  PublicPages` and :class:`~tournament.web.public.LiveFeed`, the very code the tables' server
  runs when it serves the hall itself, so every page, ETag and stream is the same, byte for byte.
* **The guard of every answer**: the same rate limit, security headers, header timeout,
  per-address connection cap and ``--proxy-headers`` as the tables' server
  (:class:`~tournament.web.app.Site`, :mod:`tournament.web.connections`).
* **A child of** ``serve``: started by it on a socket ``serve`` bound (so the port is held while
  the hall starts again, and a phone's connection waits meanwhile instead of being refused);
  started again if it dies; and gone by itself when ``serve`` is, however it went (``kill -9``
  included): it reads a pipe from its parent, and the pipe's end is the parent's.  The parent
  writes a byte on it when it logs a change, so the live streams hear of it at once, not at
  their next look at the file.
* **Light on the hall's busiest requests**: the live stream and a live page's fetch after a
  change are answered by the connection itself, below ASGI (:meth:`HallServer.light_request`),
  from what is already made; and uvicorn's loop ticks once a second, not ten times: an idle hall
  with a hundred phones following it wakes a few times a second.

By hand (to try it, or behind a program of one's own)::

    python -m tournament.web.hall EVENT --port 8001 [--host 0.0.0.0] [--url http://10.0.0.5:8001]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from tournament.errors import TournamentError
from tournament.settings import Settings
from tournament.web.app import (_GUARD_HEADERS, _NO_STORE, _PLAIN_PAGES, _POLICY, BURST, RATE, HallSite,
                                _kept_or_negotiated, _live_answer)
from tournament.web.encoding import gzip_taken
from tournament.web.public import LIFETIME, POLL, LiveFeed, Made, PublicPages

log = logging.getLogger("tournament.web.hall")
#: Seconds the hall waits for its streams and answers to end when told to stop, before it just exits.
STOP_GRACE = 5.0
#: Seconds between two starts of a hall that keeps dying at once (doubling up to the most).
RESTART_WAIT = (0.2, 5.0)
#: A hall that lived this long before it died is started again at once.
LIVED = 10.0


class HallServer(HallSite):
    """The hall's application over one event file: its pages, live stream and feed, nothing else."""

    def __init__(self, event: Path, base_url: str, rate: float = RATE, burst: int = BURST,
                 stream_lifetime: float = LIFETIME, also_at: Iterable[str] = (), poll: float = POLL) -> None:
        super().__init__(base_url, rate, burst, also_at)
        self.event = Path(event)
        self.public = PublicPages(self.event, base_url, read_only=True)
        self.live = LiveFeed(self.event, lifetime=stream_lifetime, read_only=True, poll=poll)
        # The event's settings, read once (as the tables' server reads them when it opens the file).
        self._settings: Settings = self.public.reader.call(lambda store: store.settings)
        #: A live page's fetch and the live stream answered by the connection itself
        #: (:meth:`light_request`); False: every request the ASGI way (a test compares the two).
        self.light_below = True
        #: The headers of a kept page as the ASGI way sends them, by the page and whether gzipped.
        self._light_headers: dict[tuple[int, bool], tuple[Made, list[tuple[bytes, bytes]]]] = {}
        #: The live stream's headers as the route sends them (before the guard's).
        self._stream_head = list(_live_answer(iter(()), lambda: None).raw_headers)
        self._start()

    @property
    def settings(self) -> Settings:
        return self._settings

    def _routes(self) -> list:
        return self._hall_routes()

    def stop_streams(self) -> None:
        self.live.stop()

    def light_request(self, method: bytes, path: str, query: bytes, headers: list[tuple[bytes, bytes]],
                      client: tuple[str, int] | None) -> Callable[[bytes, Callable[[Any], None]], None] | None:
        """A live page's fetch of its main region (``GET /standings?part=main&since=SEQ``, what
        live.js asks when the stream told it of a change: after a result, a hundred phones ask it
        within a second or two), answered by the connection itself below ASGI
        (:func:`tournament.web.connections.guarded`) when the page is already made for the change
        the stream announced (:meth:`PublicPages.kept_for_live`): the kept bytes and headers
        written at once, no request-response cycle, task, Starlette request or response.
        Taken only when nothing in it is unusual: a plain page's path, a query of exactly
        ``part=main`` and ``since`` (a language asked in the query, a search, anything else: the
        ASGI way), no body, and no refusal of the guard's due (its rate limit).  The same status,
        headers and body as the route (:meth:`public_page`; ``test_a_live_fetch_is_answered_by_the_
        connection_as_by_the_route``), the request's own id aside.  The live stream too
        (:meth:`_light_live`).  None: the ASGI way."""
        if not self.light_below or method != b"GET":
            return None
        if path == "/live":
            return self._light_live(query, headers, client)
        if path not in _PLAIN_PAGES:
            return None
        since = _live_since(query)
        if since is None:
            return None
        cookie = accept = encoding = None
        for name, value in headers:
            if name == b"cookie":
                cookie = value if cookie is None else cookie  # the first, as Starlette's headers read it
            elif name == b"accept-language":
                accept = value if accept is None else accept
            elif name == b"accept-encoding":
                encoding = value if encoding is None else encoding
            elif name in (b"content-length", b"transfer-encoding", b"expect"):
                return None
        who = (client or ("?", 0))[0]
        if self.buckets.waits(who):
            return None
        lang = _kept_or_negotiated(None if cookie is None else cookie.decode("latin-1"),
                                   None if accept is None else accept.decode("latin-1"), self.settings.lang)
        kept = self.public.kept_for_live(self.live, path.strip("/") or "index", since, lang)
        if kept is None:
            return None
        gzipped = gzip_taken(encoding)  # (as the route reads the header: the same answer)

        def answer(body: bytes, done: Callable[[Any], None]) -> None:
            self.buckets.take(who)
            done(self._light_answer(kept, gzipped))

        return answer

    def _light_live(self, query: bytes, headers: list[tuple[bytes, bytes]],
                    client: tuple[str, int] | None) -> Callable[[bytes, Callable[[Any], None]], None] | None:
        """``GET /live`` (``?follow=tables``), answered by the connection itself: its head written
        as the route writes it, its messages by :meth:`LiveFeed.listen` (one made for every
        stream it goes to, written straight to each connection).  The ASGI way for anything
        unusual: another query, a body, the guard's rate limit due, no room (the route's 503),
        the server stopping."""
        if query not in (b"", b"follow=tables"):
            return None
        if any(name in (b"content-length", b"transfer-encoding", b"expect") for name, _ in headers):
            return None
        who = (client or ("?", 0))[0]
        if self.buckets.waits(who) or self.live.full() or self.live.stopping:
            return None
        tables = query == b"follow=tables"

        def answer(body: bytes, done: Callable[[Any], None]) -> None:
            self.buckets.take(who)
            done(self._light_stream(tables, headers))

        return answer

    def _light_stream(self, tables: bool,
                      headers: list[tuple[bytes, bytes]]) -> tuple[int, list[tuple[bytes, bytes]], Any]:
        """What the connection writes for a stream of :meth:`_light_live`: the route's head and the
        stream (or, no room left after all, the route's 503, in the language ``headers`` ask for)."""
        from tournament.web.connections import LightStream

        request_id = next(self._request_ids)
        guard = [(b"x-request-id", request_id.encode()), *_GUARD_HEADERS, _NO_STORE, _POLICY]
        if not self.live.reserve():
            full = self._live_full(request_id, self._asked_language(headers))
            return full.status_code, [*full.raw_headers, *guard], bytes(full.body)
        return 200, [*self._stream_head, *guard], LightStream(lambda sink: self.live.listen(sink, tables))

    def _asked_language(self, headers: list[tuple[bytes, bytes]]) -> str:
        """The language a request's headers ask for (its first ``Cookie`` and ``Accept-Language``, as
        Starlette's headers read them), as :meth:`_language` works it out without ``?lang=``."""
        cookie = next((value.decode("latin-1") for name, value in headers if name == b"cookie"), None)
        accept = next((value.decode("latin-1") for name, value in headers if name == b"accept-language"), None)
        return _kept_or_negotiated(cookie, accept, self.settings.lang)

    def _light_answer(self, kept: Made | bool, gzipped: bool) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """What the connection writes for a fetch of :meth:`light_request`: 204 when the phone has
        the page (``kept`` True), else the kept page; every header the route and the guard send."""
        request_id = next(self._request_ids)
        if isinstance(kept, Made):
            status, head, content = 200, self._kept_headers(kept, gzipped), kept.gzipped if gzipped else kept.body
        else:  # the page as the phone has it: nothing to send
            status, head, content = 204, [], b""
        return status, [*head, (b"x-request-id", request_id.encode()), *_GUARD_HEADERS, _NO_STORE, _POLICY], content

    def _kept_headers(self, page: Made, gzipped: bool) -> list[tuple[bytes, bytes]]:
        """The headers the route sends with ``page`` (:meth:`_made`, before the guard's), made by
        that very code once for each kept page, so the two ways never say otherwise."""
        found = self._light_headers.get((id(page), gzipped))
        if found is not None and found[0] is page:
            return found[1]
        from starlette.requests import Request

        asked = [(b"accept-encoding", b"gzip")] if gzipped else []
        scope = {"type": "http", "method": "GET", "path": "/", "query_string": b"", "headers": asked}
        head = list(self._made(Request(scope), page).raw_headers)
        if len(self._light_headers) >= 16:  # pages of earlier changes: made again if ever asked for
            self._light_headers.clear()
        self._light_headers[(id(page), gzipped)] = (page, head)
        return head

    def close(self) -> None:
        self.live.stop()
        self.live.close()
        self.public.close()


def _live_since(query: bytes) -> int | None:
    """``SEQ`` of a query that is exactly ``part=main`` and ``since=SEQ`` (in either order), as
    live.js asks; else None (a query the route reads otherwise goes its way)."""
    fields = query.split(b"&")
    if len(fields) != 2:
        return None
    found = dict(field.partition(b"=")[::2] for field in fields)
    since = found.get(b"since")
    if len(found) != 2 or found.get(b"part") != b"main" or since is None:
        return None
    if not (since.isascii() and since.isdigit() and len(since) < 19):
        return None
    return int(since)


# --- the child: run by ``python -m tournament.web.hall`` ------------------------------------------


def _serve(hall: HallServer, sock: socket.socket, *, parent: bool, proxy_headers: bool, per_address: int,
           header_timeout: float, tls: dict[str, str] | None = None) -> None:
    """uvicorn on ``sock`` until Ctrl-C, or (``parent``) until this process's input ends: the
    parent is gone.  A byte on the input: a change was logged, the live streams look now."""
    from tournament.web import connections

    config = connections.config(hall.asgi, proxy_headers=proxy_headers, per_address=per_address,
                                header_timeout=header_timeout, timeout_graceful_shutdown=STOP_GRACE, **(tls or {}))

    class Hall(connections.QuietServer):
        async def serve(self, sockets: list[socket.socket] | None = None) -> None:
            watching = asyncio.ensure_future(self._parent()) if parent else None
            try:
                await super().serve(sockets)
            finally:
                if watching is not None:
                    watching.cancel()

        async def _parent(self) -> None:
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader()
            await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
            while await reader.read(4096):
                hall.live.poke()
            # The parent is gone (or closed the pipe: it stops): so does the hall, whatever holds it.
            hall.stop_streams()
            self.should_exit = True
            self._wake()
            last_resort = threading.Timer(STOP_GRACE * 2, os._exit, (0,))
            last_resort.daemon = True  # it ends the process only if stopping hangs, never holds it up
            last_resort.start()

    connections.collect_less()
    Hall(config, stopping=hall.stop_streams).run(sockets=[sock])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tournament.web.hall",
                                     description="The venue's hall alone: the public pages, the live stream and "
                                                 "the public feed of an event file, read only.")
    parser.add_argument("event", type=Path, help="the event file")
    parser.add_argument("--port", type=int, required=True, help="the port to listen on")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--url", help="the hall's address as phones reach it (the projector's QR code)")
    parser.add_argument("--fd", type=int, help="a listening socket handed down by `tournament serve`")
    parser.add_argument("--parent", action="store_true",
                        help="started by `tournament serve`: stop when its pipe (this process's input) ends")
    parser.add_argument("--rate", type=float, default=RATE)
    parser.add_argument("--burst", type=int, default=BURST)
    parser.add_argument("--proxy-headers", action="store_true")
    parser.add_argument("--connections-per-device", type=int, default=None)
    parser.add_argument("--header-timeout", type=float, default=None)
    parser.add_argument("--certfile", help="serve https with this certificate (PEM), as `serve --certfile`")
    parser.add_argument("--keyfile", help="the certificate's private key (PEM)")
    parser.add_argument("--poll", type=float, default=POLL,
                        help="seconds between two looks at the file while a live stream is open (default %(default)s)")
    args = parser.parse_args(argv)
    from tournament.web import connections

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    tls = {"ssl_certfile": args.certfile, "ssl_keyfile": args.keyfile} if args.certfile and args.keyfile else {}
    scheme = "https" if tls else "http"
    url = (args.url or f"{scheme}://{args.host}:{args.port}").rstrip("/")
    try:
        if args.fd is not None:
            sock = socket.socket(fileno=args.fd)
        else:
            sock = listening(args.host, args.port)
    except OSError as e:
        print(f"error: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    try:
        hall = HallServer(args.event, url, rate=args.rate, burst=args.burst,
                          also_at=connections.served_origins(args.host, args.port, scheme), poll=args.poll)
    except TournamentError as e:
        print(f"error: {e.message}", file=sys.stderr)
        return 1
    # The pages' templates compiled beside the serving, the event's language first (see prepare).
    threading.Thread(target=_prepare_pages, args=(hall.settings.lang,), name="templates", daemon=True).start()
    try:
        _serve(hall, sock, parent=args.parent, proxy_headers=args.proxy_headers,
               per_address=args.connections_per_device or connections.PER_ADDRESS,
               header_timeout=args.header_timeout or connections.HEADER_TIMEOUT, tls=tls)
    except KeyboardInterrupt:
        pass
    finally:
        hall.close()
        sock.close()
    return 0


def _prepare_pages(first: str) -> None:
    """Every public page's template compiled, in the event's language and then the others."""
    from tournament import i18n
    from tournament.pages import public as pages

    try:
        for lang in sorted(i18n.LANGUAGES, key=lambda code: code != first):
            pages.prepare(lang)
    except Exception:  # noqa: BLE001 - a template that does not compile is refused when it is asked for
        log.exception("the public pages' templates could not be compiled in advance")


def listening(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (a burst of phones waits in its backlog, not refused)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


# --- the parent's side ------------------------------------------------------------------------------


class HallProcess:
    """The hall's process, as ``tournament serve`` (or :class:`~tournament.web.background.
    BackgroundVenue`) runs it: started on ``sock`` (bound by the caller with :func:`listening`
    before the tables' server opened the event, so that server knows the hall's port), started
    again when it dies (``say`` says so), told of each change (:meth:`poke`), stopped with
    :meth:`close`.

    The listening socket stays open here while the hall runs (and while it starts again): a
    phone's connection waits in its backlog for the hall to take it, never refused."""

    def __init__(self, event: Path, sock: socket.socket, host: str, url: str, *, rate: float = RATE,
                 burst: int = BURST, proxy_headers: bool = False, per_address: int | None = None,
                 header_timeout: float | None = None, poll: float | None = None,
                 tls: dict[str, str] | None = None, say: Callable[[str], None] = log.warning) -> None:
        self.socket = sock  # bound with :func:`listening`: closed by :meth:`close`
        self.port: int = sock.getsockname()[1]
        self.say = say
        options = ["--url", url, "--rate", repr(rate), "--burst", str(burst)]
        if proxy_headers:
            options.append("--proxy-headers")
        if per_address is not None:
            options += ["--connections-per-device", str(per_address)]
        if header_timeout is not None:
            options += ["--header-timeout", repr(header_timeout)]
        if poll is not None:
            options += ["--poll", repr(poll)]
        if tls:  # the tables' certificate: the hall is served at the same host, https too
            options += ["--certfile", tls["ssl_certfile"], "--keyfile", tls["ssl_keyfile"]]
        self.command = [sys.executable, "-m", "tournament.web.hall", str(event), "--host", host,
                        "--port", str(self.port), "--fd", str(self.socket.fileno()), "--parent", *options]
        #: How many times the hall was started again after it died.
        self.restarts = 0
        self._stopping = False
        self._lock = threading.Lock()
        self.proc = self._spawn()
        self._watcher = threading.Thread(target=self._watch, name="hall-watcher", daemon=True)
        self._watcher.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _spawn(self) -> subprocess.Popen:
        # Its own session: Ctrl-C at the terminal stops `serve`, which stops the hall (never the
        # hall first, taken for a crash and started again).
        proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, pass_fds=(self.socket.fileno(),),
                                start_new_session=True)
        assert proc.stdin is not None
        os.set_blocking(proc.stdin.fileno(), False)
        return proc

    def _watch(self) -> None:
        wait = RESTART_WAIT[0]
        while True:
            began = time.monotonic()
            code = self.proc.wait()
            with self._lock:
                if self._stopping:
                    return
            lived = time.monotonic() - began
            wait = RESTART_WAIT[0] if lived > LIVED else min(RESTART_WAIT[1], wait * 2)
            self.say(f"the hall's process stopped ({_how(code)}); starting it again: the tables went on as before")
            time.sleep(wait if lived <= LIVED else 0)
            with self._lock:
                if self._stopping:
                    return
                old = self.proc
                self.proc = self._spawn()
                self.restarts += 1
            with contextlib.suppress(OSError):
                assert old.stdin is not None
                old.stdin.close()

    def poke(self) -> None:
        """A change was logged: the hall's live streams hear of it now (never waited for: a pipe
        full of earlier pokes says as much)."""
        stdin = self.proc.stdin
        try:
            if stdin is not None:
                os.write(stdin.fileno(), b"!")
        except (OSError, ValueError):  # full (it has been told), or the hall is starting again
            pass

    def close(self, deadline: float = 30.0) -> None:
        """Stop the hall (its pipe closed: it ends its streams and exits), waited for."""
        with self._lock:
            if self._stopping:
                return
            self._stopping = True
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        try:
            self.proc.wait(deadline)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.socket.close()


def _how(code: int) -> str:
    return f"killed by signal {-code}" if code < 0 else f"exit code {code}"


if __name__ == "__main__":
    sys.exit(main())
