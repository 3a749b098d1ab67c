"""What is wrong with a link to NATS, in words: for a venue's sender (``serve --upstream``) and a hub.

nats-py tells little by its exceptions: a server that is down is an empty ``TimeoutError`` once its
own connect has waited long enough; a subject the credentials may not use is refused by the server
on the side (a ``-ERR`` the client hands to its error callback) while the request that needed it
times out as ``nats: timeout``.  A director reading ``TimeoutError: nats: timeout`` every second
learns nothing; so each connection keeps what its server said (:class:`Heard`), :func:`describe`
puts the two together in a sentence, and :class:`Said` logs each sentence once, when the problem
changes, not at every try.  A request refused so need not wait out its timeout: :class:`Answered`
(a JetStream context's requests through :meth:`Heard.answer`) ends it as soon as the refusal is heard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
from typing import Any, Awaitable, Callable, TypeVar

T = TypeVar("T")

#: How the server words a subject refused (nats-py lowercases it): the verb and the subject.
_VIOLATION = re.compile(r'permissions violation for (publish|subscription) to "?([^"\s]+)"?', re.IGNORECASE)


class Refused(Exception):
    """The server refused a subject these credentials need (its ``-ERR`` heard by :class:`Heard`)."""


class Unreachable(ConnectionError):
    """No connection was made to the NATS server: its message is :func:`describe`'s sentence (the
    address tried and why), for a command to say as it stands."""


class Heard:
    """nats-py's error callback for one connection: what its server said last (an exception), and
    ``now``, told at once (the venue's and the hub's state say why while a connect still waits)."""

    def __init__(self, now: Callable[[Exception], None] | None = None) -> None:
        self.last: Exception | None = None
        self._now = now
        #: The requests waiting on this connection (:meth:`answer`): a refusal heard ends them.
        self._waiting: set[asyncio.Future] = set()

    async def said(self, e: Exception) -> None:
        """nats-py's error callback (it takes coroutine functions only)."""
        self.last = e
        logging.getLogger("tournament.nats").debug("nats: %s", e)
        if self._now is not None:
            self._now(e)
        if _VIOLATION.search(str(e)):
            for waiting in self._waiting:
                if not waiting.done():
                    waiting.set_result(e)

    async def answer(self, request: Awaitable[T]) -> T:
        """``request`` (one JetStream request on this connection) awaited, or :class:`Refused` as soon
        as the server refuses a subject meanwhile: the server says so in milliseconds, on the side,
        while the request itself would only time out.  Nothing else ends it early: a slow answer
        waits its whole timeout, as before."""
        refused = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(request)
        self._waiting.add(refused)
        try:
            await asyncio.wait((task, refused), return_when=asyncio.FIRST_COMPLETED)
            if task.done():  # answered (or failed on its own) first: its answer stands
                return task.result()
            raise Refused(_refusal(refused.result()) or str(refused.result()))
        finally:
            self._waiting.discard(refused)
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    def refusal(self) -> str | None:
        """The server's last refusal of a subject, in words (None: none heard)."""
        return _refusal(self.last)


def _refusal(e: Exception | None) -> str | None:
    """A refusal of a subject, the server's ``-ERR``, in words (None: ``e`` is none)."""
    found = _VIOLATION.search(str(e or ""))
    if found is None:
        return None
    verb = "publish to" if found[1].lower() == "publish" else "subscribe to"
    return f"they may not {verb} {found[2]}"


class Answered:
    """A JetStream context whose every request is :meth:`Heard.answer`'s: a request the server refuses
    fails at once (:class:`Refused`), not at its timeout."""

    def __init__(self, js: Any, heard: Heard) -> None:
        self._js, self._heard = js, heard

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._js, name)
        if not asyncio.iscoroutinefunction(found):
            return found

        async def request(*args: Any, **kwargs: Any) -> Any:
            return await self._heard.answer(found(*args, **kwargs))

        return request


def describe(e: BaseException | None, url: str, heard: Heard, connected: bool, refused_hint: str = "") -> str:
    """What went wrong with the link to the NATS server at ``url``, in one sentence: ``e`` raised
    (None: only ``heard`` so far), ``connected``: whether the connection had been made.
    ``refused_hint``: what the caller adds when the server refused the credentials a subject."""
    from nats import errors

    refusal = heard.refusal()
    if refusal is not None and (e is None or isinstance(e, (errors.Error, Refused))):  # (not a link lost since)
        return f"nats at {url} refused these credentials: {refusal}" + (f" ({refused_hint})" if refused_hint else "")
    said = e if e is not None else heard.last
    if isinstance(said, errors.AuthorizationError) or "authorization violation" in str(said).lower() \
            or isinstance(heard.last, errors.AuthorizationError):
        return f"nats at {url} refused these credentials (authorization violation: a wrong user or password?)"
    if isinstance(said, errors.TimeoutError) and connected:
        return f"nats at {url} did not answer in time"
    if not connected and isinstance(said, (OSError, asyncio.TimeoutError, errors.NoServersError,
                                           errors.UnexpectedEOF)):
        reason = heard.last if isinstance(heard.last, OSError) else said
        return f"cannot reach nats at {url}: {_reason(reason)}"
    if isinstance(said, ConnectionError) or isinstance(said, errors.StaleConnectionError):
        return f"the link to nats at {url} was lost"
    text = str(said).strip() if said is not None else ""
    name = type(said).__name__ if said is not None else "no answer"
    return f"nats at {url}: {name}: {text}" if text else f"nats at {url}: {name}"


def _reason(e: BaseException) -> str:
    """Why a connection was not made, in the system's words: ``Connection refused`` (nothing listens
    there), the host's name not found (a resolver's error: its own words, not ``Unknown error -2``),
    or timed out (nothing answered)."""
    if isinstance(e, socket.gaierror):
        return f"the host's name was not found ({e.strerror or e})"
    if isinstance(e, OSError) and e.errno:
        return os.strerror(e.errno)
    if isinstance(e, asyncio.TimeoutError):
        return "timed out (no answer)"
    return str(e).strip() or type(e).__name__


class Said:
    """A problem logged once when it starts or changes, and once when it ends (not every second)."""

    def __init__(self, log: logging.Logger, prefix: str) -> None:
        self.log, self.prefix = log, prefix
        self.last: str | None = None

    def problem(self, text: str, retry: float | None) -> None:
        if text != self.last:
            again = f" (trying again every {retry:g} s)" if retry is not None else ""
            self.log.warning("%s: %s%s", self.prefix, text, again)
            self.last = text

    def fine(self, text: str) -> None:
        if self.last is not None:
            self.log.warning("%s: %s", self.prefix, text)
            self.last = None
