"""The venue server in a thread of the calling program, on 127.0.0.1 only.

``tournament serve`` runs the venue in the foreground until Ctrl-C.  Some programs need it beside
them instead, started and stopped from Python: the browser tests drive its pages in Chromium,
``tools/venue_pictures.py`` takes the screenshots in docs/venue.md, and a club may embed the
venue in a program of its own (a kiosk, a club's own front desk).  Each of them would otherwise
write the same dozen lines (a free port, uvicorn in a thread, waiting until it listens, stopping
it so that the event file is closed), and each copy would get one of them subtly wrong; this
module is that code, once::

    with BackgroundVenue(Path("club.db")) as venue:
        print(venue.links["director"])
        ...                                     # the venue answers at venue.base_url meanwhile

It listens on 127.0.0.1 only, on a port the system picks (or the one given): the laptop itself,
never the hall.  Opening the venue to the players' phones is what ``tournament serve --host``
is for, with its warning.  The socket is bound before uvicorn starts, so the port cannot be
taken by another program between choosing it and listening on it.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from tournament.errors import TournamentError
from tournament.web.app import BURST, RATE, VenueServer

#: The one address a background venue listens on.
HOST = "127.0.0.1"
#: How long starting (and, separately, stopping) may take before it is called a failure: far
#: longer than either takes on a busy machine, so that the limit only turns a hang into an error.
DEADLINE = 60.0


class VenueNotServing(TournamentError):
    """The background venue did not start listening (the reason, from uvicorn, is in the message)."""


class BackgroundVenue:
    """``tournament serve``'s application under uvicorn in a daemon thread, on 127.0.0.1.

    Constructing it starts the server and returns once it listens (or raises
    :class:`VenueNotServing`); :meth:`close` (or leaving the ``with`` block) stops uvicorn and
    closes the event file, and may be called more than once.  ``rate`` and ``burst`` are the
    per-client request limits of :class:`~tournament.web.app.VenueServer`: a program that sends
    requests as fast as it can (a test, the pictures tool) raises them.  ``proxy_headers``,
    ``per_address`` and ``header_timeout`` are those of :func:`tournament.web.connections.config`
    (forwarded headers believed from this computer; connections an address may hold open; seconds
    a connection has to send a request's headers).  ``hall``: the hall's pages in a process of
    their own, as ``tournament serve`` runs them (:mod:`tournament.web.hall`), on ``hall_port``
    (default: one the system picks): :attr:`hall_url`, :attr:`hall`; ``hall_poll``: seconds between
    the hall's looks at the file while a live stream is open (a test's own: without the tables'
    server's word, a change is heard of only then).
    """

    def __init__(self, event: Path, *, pins: bool = False, port: int = 0, rate: float = RATE,
                 burst: int = BURST, deadline: float = DEADLINE, proxy_headers: bool = False,
                 per_address: int | None = None, header_timeout: float | None = None,
                 hall: bool = False, hall_port: int = 0, hall_poll: float | None = None) -> None:
        import uvicorn  # here, not at the top: the rest of the web layer does not need it loaded

        from tournament.web import connections
        from tournament.web.hall import HallProcess, listening

        self.deadline = deadline
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._hall_socket: socket.socket | None = None
        #: The hall's own process (``hall``), or None: the hall is served at :attr:`base_url` too.
        self.hall: HallProcess | None = None
        try:
            try:
                # A venue started again on the port it had (a restart, a test's): its old connections
                # waiting out TIME_WAIT do not keep it from listening, as they do not keep uvicorn.
                self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                self._socket.bind((HOST, port))
                self._socket.listen(2048)  # uvicorn's own backlog: a burst of phones waits, not refused
            except OSError as e:
                raise VenueNotServing(f"cannot listen on {HOST}:{port}: {e.strerror or e}") from None
            if hall:
                try:
                    self._hall_socket = listening(HOST, hall_port)
                except OSError as e:
                    raise VenueNotServing(f"cannot listen on {HOST}:{hall_port} for the hall: {e.strerror or e}") \
                        from None
            self.port: int = self._socket.getsockname()[1]
            self.base_url = f"http://{HOST}:{self.port}"
            #: Where the hall's pages are: the hall's own port (``hall``), else :attr:`base_url`.
            self.hall_port: int | None = self._hall_socket.getsockname()[1] if self._hall_socket else None
            self.hall_url = f"http://{HOST}:{self.hall_port}" if self.hall_port else self.base_url
            self.server = VenueServer(Path(event), pins=pins, base_url=self.base_url, rate=rate, burst=burst,
                                      also_at=connections.served_origins(HOST, self.port), hall_port=self.hall_port)
        except BaseException:
            self._socket.close()
            if self._hall_socket is not None:
                self._hall_socket.close()
            raise
        # log_config=None: uvicorn leaves the calling program's logging as it is (its warnings go
        # to the program's own handlers); otherwise as ``tournament serve`` (tournament.web.connections).
        config = connections.config(
            self.server.asgi, log_config=None, proxy_headers=proxy_headers,
            per_address=connections.PER_ADDRESS if per_address is None else per_address,
            header_timeout=connections.HEADER_TIMEOUT if header_timeout is None else header_timeout)
        self._uvicorn = uvicorn.Server(config)
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=f"venue-{self.port}", daemon=True)
        self._closed = False
        self._thread.start()
        try:
            if self._hall_socket is not None:
                self.hall = HallProcess(Path(event), self._hall_socket, HOST, self.hall_url, rate=rate, burst=burst,
                                        proxy_headers=proxy_headers, per_address=per_address,
                                        header_timeout=header_timeout, poll=hall_poll)
                self.server.poke_hall = self.hall.poke
            self._wait_until_started()
            #: Every link of the venue: ``{"director", "public", "tables": [{round, table, url, token}]}``
            #: for the last paired round, made with :attr:`base_url`.
            self.links: dict[str, Any] = self.server.call(self.server.venue.links, self.base_url, None,
                                                          self.hall_url)
        except BaseException:
            self.close()
            raise

    def _run(self) -> None:
        try:
            self._uvicorn.run(sockets=[self._socket])
        # uvicorn's failure (it exits when it cannot start), kept for the caller who waits
        except (Exception, SystemExit) as e:  # noqa: BLE001
            self._failure = e

    def _wait_until_started(self) -> None:
        until = time.monotonic() + self.deadline
        while not self._uvicorn.started:
            if not self._thread.is_alive():
                why = f": {self._failure}" if self._failure is not None else ""
                raise VenueNotServing(f"the venue server on {self.base_url} stopped while starting{why}")
            if time.monotonic() > until:
                raise VenueNotServing(f"the venue server on {self.base_url} did not start within "
                                      f"{self.deadline:g} seconds")
            time.sleep(0.02)

    def refresh_links(self) -> dict[str, Any]:
        """The links again, for the round paired last (after the director paired the next one)."""
        self.links = self.server.call(self.server.venue.links, self.base_url, None, self.hall_url)
        return self.links

    def close(self) -> None:
        """Stop uvicorn (connections still open are closed once the deadline passes), then close
        the event file.  Every acknowledged write is already in the file: nothing is lost."""
        if self._closed:
            return
        self._closed = True
        self.server.stop_streams()  # the hall's live streams end now: uvicorn waits for no page
        self._uvicorn.should_exit = True
        self._thread.join(self.deadline)
        if self._thread.is_alive():  # a client holding a connection open: stop without waiting for it
            self._uvicorn.force_exit = True
            self._thread.join(self.deadline)
        self._socket.close()
        if self.hall is not None:
            self.hall.close(self.deadline)
        elif self._hall_socket is not None:
            self._hall_socket.close()
        self.server.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
