"""A venue feeds its federation's hub: the event's public change log, sent over NATS JetStream.

``tournament serve EVENT --upstream nats://HOST:4222`` starts an :class:`Upstream` beside the
venue: a thread of its own, with its own event loop and its own read connection to the event file
(WAL: it never waits for the tables' writes, nor they for it).  Nothing of the tables' or the
hall's requests ever waits on it: a request never calls it, and it only reads the file.

It looks at the event's latest change every :data:`POLL` seconds (at once when the venue logs
one: :meth:`Upstream.poke`) and sends what the stream lacks (:mod:`tournament.web.relay` says
what and how): each new change, each newly confirmed game's record, and the public pages' data
when it has moved on.  When the link is down the venue goes on serving its hall; this thread
tries again every :data:`RETRY` seconds and, once connected, asks the stream where it stopped
(its last change's ``Domrec-Seq``: a message forged on another subject does not move it) and sends the
rest.  A message sent twice is stored once.

The venue makes its stream when the federation has not (:func:`tournament.web.relay.stream_limits`):
bounded in bytes and in a message's size, so that its credentials cannot fill the federation's disk.
A stream full, or a message larger than it takes, is said in words (:class:`StreamFull`) and tried
again every :data:`RETRY` seconds: only the sending waits; the event file, the event, is untouched.

A change number is a place in one history, and a stream takes one history only.  An event file
copied to a second laptop and served there with ``--upstream`` too, or restored from an older copy
and changed since, makes other changes at numbers the stream already holds.  So the venue compares
each change's digest (``Domrec-Digest``, :func:`tournament.web.relay.change_digest`) with the
stream's copy: when it resumes, that of the last change the file and the stream share; when a
change it sends is already there (a duplicate, or its subject taken), that one.  Another digest
stops the sending for good (:class:`HistoryDiffers`: said once in the log and in :meth:`Upstream.state`);
the event file is not touched, and the hall goes on.  A change sent by an earlier version has no
digest: unknown, so the sending goes on.

A venue stores its changes in order, each on an empty subject: its change N is always stored after its
change N-1.  A change on the stream that is not (stored before change N-1, or with no change N-1 at all)
is no venue's sending: someone with publish rights on the event's subjects wrote it by hand (a foreign
writer).  It is not another history, and the venue's own log is whole; so when the stream's last change
is such a one (a change numbered past the event, say), the venue resumes from the last change of its
own the stream holds, sends what follows, and tells the director how many changes it did not write the
stream holds, and the first (:attr:`Upstream.warning`, once in the log).  Only the change whose subject
such a message holds cannot be sent: there the sending waits (:class:`ForeignChange`, tried again every
:data:`RETRY` seconds), and goes on by itself once the federation removes the message (``nats stream rmm``).

Only the public feed's data leaves: the changes, the pages' data (``public_data(hall=True)``, what
the hall shows: a duplicate board's results withheld until every table has played it) and the
confirmed records; never a key, a PIN, nor a game in play.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from pathlib import Path
from typing import Any, Iterator

import attrs

from tournament.errors import TournamentError, UnusableInput
from tournament.event import changes, feed
from tournament.event.files import open_event
from tournament.event.public import public_data
from tournament.store.event_store import EventStore
from tournament.web import relay
from tournament.web.link import Answered, Heard, Said, describe

log = logging.getLogger("tournament.upstream")

#: Seconds between two looks at the event file for changes to send.
POLL = 0.5
#: Seconds between two attempts to reach the upstream while it is unreachable.
RETRY = 1.0
#: Seconds a connection to the upstream may take before it is tried again.
CONNECT_DEADLINE = 5.0
#: Seconds a message's acknowledgement may take before the link is taken for down (a request the server
#: refuses, a subject these credentials may not use, fails as soon as the refusal is heard).
ACK_TIMEOUT = 5.0
#: The changes that may change a confirmed game's record (its record is sent with them).
_GAME_KINDS = frozenset((changes.RESULT_ENTERED, changes.RESULT_AMENDED, changes.GAME_CORRECTED))


class UpstreamRefused(TournamentError):
    """The upstream refused what the venue sent (its credentials do not allow the event's subjects)."""


class StreamFull(UpstreamRefused):
    """The event's stream refused a message for its limits (it is full, or the message is larger than
    it takes): the hub lacks what follows, the event file keeps it, and it is sent once the federation
    raises the limit (tried again every :data:`RETRY` seconds)."""

    @classmethod
    def full(cls, stream: str, sent: int) -> "StreamFull":
        return cls(f"the federation's stream {stream} is full (it holds the most bytes the federation allows it): "
                   f"what this event logged after change {sent} is not on the hub. Nothing is lost: the event file "
                   f"keeps it all, and it is sent once the federation raises the stream's limit (tournament stream "
                   f"--max-bytes); see docs/hub.md")

    @classmethod
    def too_big(cls, stream: str, subject: str, size: int, server: bool = False) -> "StreamFull":
        most, raised = ("the NATS server's max_payload", "its NATS server's max_payload") if server else \
            ("its largest message", "the limit (tournament stream --max-message)")
        return cls(f"a message of {size:,} bytes ({subject}) is larger than the federation's stream {stream} takes "
                   f"({most}): it and what follows are not on the hub. Nothing is lost: the event file keeps it "
                   f"all, and it is sent once the federation raises {raised}; see docs/hub.md")


class HistoryDiffers(TournamentError):
    """The stream holds another change at a number the event file has: two histories of one event
    (a second laptop serving a copy, or a file restored from an older copy).  Trying again cannot
    mend it, and sending on would mix the two on the hub: the sending stops for good."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"the federation's copy of this event holds a different change {seq}: is this event served "
                         f"from another laptop too, or restored from an older copy? Publishing stopped; see docs/hub.md")
        self.seq = seq


class NoChange(HistoryDiffers):
    """The stream holds, on a change's subject, a message no venue sends (not that change, of any
    version): the hub cannot read the change, and no try mends it: the sending stops for good."""

    def __init__(self, seq: int, stream: str) -> None:
        TournamentError.__init__(
            self, f"the federation's stream {stream} holds a message that is no change on change {seq}'s subject "
                  f"(sent by hand with this venue's credentials?), so the hub cannot read change {seq}: the "
                  f"federation deletes the stream (nats stream rm {stream}) and this venue, started again, sends "
                  f"the event whole. Publishing stopped; see docs/hub.md")
        self.seq = seq


class ForeignChange(UpstreamRefused):
    """The stream holds, on the subject of one of this venue's changes, a change it did not write: stored
    out of order (before the change numbered one less, or with none), so no venue's sending.  Not another
    history (:class:`HistoryDiffers`: the venue's log is whole), and one message the federation can
    remove: the sending waits at that change and is tried again every :data:`RETRY` seconds."""

    def __init__(self, seq: int, message: int, stream: str) -> None:
        super().__init__(f"the federation's stream {stream} holds a change {seq} this venue did not write (the "
                         f"stream's message {message}, stored out of order: sent by hand with this venue's "
                         f"credentials?), on the subject of this venue's own change {seq}: nothing from change {seq} "
                         f"on is sent until the federation removes it (nats stream rmm {stream} {message}); this "
                         f"venue then sends on by itself; see docs/hub.md")
        self.seq, self.stored = seq, message


@attrs.frozen
class Foreign:
    """The changes a venue found on its stream, past the last of its own, that it did not write: how
    many, the first's number and its message on the stream (what the federation removes), the last's
    number, and the change the venue sends on from."""

    count: int
    first: int
    message: int
    last: int
    resumed: int

    def said(self, stream: str) -> str:
        changes_ = "1 change" if self.count == 1 else f"{self.count:,} changes"
        on = f"sends on after its change {self.resumed}" if self.resumed else "sends its log from its first change"
        return (f"the federation's stream {stream} holds {changes_} this venue did not write, out of order past its "
                f"own (the first: change {self.first}, the stream's message {self.message}; sent by hand with this "
                f"venue's credentials?): this venue {on}, and waits at change {self.first} until the federation "
                f"removes it (nats stream rmm {stream} {self.message}); see docs/hub.md")


def connect_options(url: str, creds: Path | None, url_option: str = "--upstream",
                    creds_option: str = "--upstream-creds") -> dict[str, Any]:
    """nats-py's options for the upstream: ``creds`` is a NATS credentials file (a user's JWT and
    key, as ``nsc`` writes them) or a file whose first line is ``USER:PASSWORD`` (a user of the
    server's own configuration).  The password stays off the command line (and out of ``ps``).
    ``url_option`` and ``creds_option``: the options a refusal names, those of the command that
    gave them (``serve``'s, or the hub's and the archive's ``--nats`` and ``--creds``)."""
    from urllib.parse import urlsplit

    try:  # (nats-py refuses what this refuses only when it connects, and the command retried it for ever)
        parts = urlsplit(url)
        parts.port  # (a port that is no number, or past 65535, is a ValueError here)
    except ValueError:
        parts = None
    if parts is None or not url.startswith(("nats://", "tls://")) or not parts.hostname \
            or any(c.isspace() for c in url):
        raise UnusableInput(f"{url_option} {url!r}: a NATS server's address is nats://HOST:PORT (or tls://HOST:PORT)")
    options: dict[str, Any] = {"servers": [url]}
    if creds is None:
        return options
    try:
        text = creds.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UnusableInput(f"{creds_option} {creds}: cannot be read ({getattr(e, 'strerror', None) or e})") from None
    if "BEGIN NATS USER JWT" in text:
        options["user_credentials"] = str(creds)
        return options
    first = text.strip().splitlines()[0] if text.strip() else ""
    user, sep, password = first.partition(":")
    if not sep or not user or not password:
        raise UnusableInput(f"{creds_option} {creds}: neither a NATS credentials file nor a line USER:PASSWORD")
    options.update(user=user, password=password)
    return options


class Upstream:
    """The thread that sends the event's public log to the upstream; :meth:`close` stops it."""

    def __init__(self, event: Path, url: str, creds: Path | None = None, poll: float = POLL, retry: float = RETRY,
                 club: str | None = None, federation: str | None = None, league: str | None = None,
                 max_bytes: int = relay.MAX_STREAM_BYTES, max_message: int = relay.MAX_MESSAGE_BYTES) -> None:
        self.event = Path(event)
        #: The limits of the event's stream, when this venue makes it (the federation's, when it made it).
        self.limits = {"max_bytes": max_bytes, "max_message": max_message}
        self.options = connect_options(url, creds)
        self.url = url
        self.poll, self.retry = poll, retry
        self.where = {"club": club, "federation": federation, "league": league}
        #: The last change the stream holds, as far as this thread knows (None: not asked yet).
        self.sent: int | None = None
        #: The public pages' revision last sent.
        self.revision: int | None = None
        #: Whether the upstream is reachable just now, and why not, in words (the log says it once
        #: a change; the director's API, ``GET /api/v1/director``, shows it as ``upstream``).
        self.connected = False
        self.problem: str | None = f"not connected to nats at {url} yet"
        #: Attempts to reach the upstream, and their failures (a test waits on them).
        self.tries = 0
        self.failures = 0
        self._said = Said(log, f"upstream {url}")
        #: Messages sent (each acknowledged by the stream).
        self.messages = 0
        #: The sending stopped for good (:class:`HistoryDiffers`); :attr:`problem` says why.
        self.stopped = False
        #: Changes on the stream this venue did not write (:class:`Foreign`), in words, while it sends on
        #: (None: none found); said once in the log, and in :meth:`state`.
        self.warning: str | None = None
        self._foreign: Foreign | None = None
        self._store: EventStore | None = None
        self._stopping = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._poke: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="upstream", daemon=True)
        self.event_uuid: str | None = None

    def start(self) -> "Upstream":
        with open_event(self.event) as store:  # refuses what is not an event file, before the thread starts
            self.event_uuid = relay.event_id(store.uuid)
        self._thread.start()
        return self

    def poke(self) -> None:
        """The venue logged a change: look now, not at the next turn (safe from any thread)."""
        loop, poke = self._loop, self._poke
        if loop is not None and poke is not None:
            try:
                loop.call_soon_threadsafe(poke.set)
            except RuntimeError:  # the loop has closed
                pass

    def state(self) -> dict[str, Any]:
        """What the director's API says of the sending (``upstream``): where to, whether it
        reaches it, why not in words, whether it has stopped for good (:class:`HistoryDiffers`), the
        last change the stream holds, and ``warning``: changes on the stream it did not write (:class:`Foreign`),
        while it sends on.  The director's page shows the problem, the stop and the warning."""
        return {"url": self.url, "event": self.event_uuid, "connected": self.connected, "problem": self.problem,
                "stopped": self.stopped, "sent": self.sent, "messages": self.messages, "warning": self.warning}

    def close(self, deadline: float = 10.0) -> None:
        self._stopping.set()
        self.poke()
        self._thread.join(deadline)

    # --- on the thread ----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        finally:
            if self._store is not None:
                self._store.conn.close()  # a reader's connection: nothing of its own to write back

    def _read(self) -> EventStore:
        if self._store is None:
            store = open_event(self.event)
            store.conn.execute("PRAGMA query_only = ON")
            self._store = store
        return self._store

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._poke = asyncio.Event()
        nc = None
        heard = Heard()
        while not self._stopping.is_set():
            try:
                if nc is not None and not nc.is_connected:
                    raise ConnectionError("the link to the upstream was lost")
                if nc is None:
                    self.tries += 1
                    heard = Heard(self._heard_while_connecting)
                    nc = await connect(self.options, "domrec venue", heard)
                    self.sent = None  # ask the stream where it stopped
                js = Answered(nc.jetstream(timeout=ACK_TIMEOUT), heard)  # (refused: at once)
                if self.sent is None:
                    await self._resume(js)
                await self._send(js)
                self.connected, self.problem = True, None
                self._said.fine(f"sending again (event {self.event_uuid}, up to change {self.sent})")
                await self._wait(self.poll)
            except HistoryDiffers as e:  # two histories: no try mends it (docs/hub.md)
                self.connected, self.problem, self.stopped = False, str(e), True
                log.error("upstream %s: %s", self.url, e)
                break
            except Exception as e:  # the link down, the server gone, refused: the hall goes on; try again
                self.failures += 1
                self.connected = False
                self.problem = str(e) if isinstance(e, UpstreamRefused) else \
                    describe(e, self.url, heard, nc is not None, "are they this event's? a venue's credentials "
                                                                "publish its own event only")
                self._said.problem(self.problem, self.retry)
                if nc is not None:
                    try:
                        await nc.close()
                    except Exception:  # closing a dead link: nothing more to do
                        pass
                nc = None
                await self._wait(self.retry)
        if nc is not None:
            try:
                await nc.close()
            except Exception:
                pass

    def _heard_while_connecting(self, e: Exception) -> None:
        """The server's answer to a connect still waiting (refused, no such host): said at once."""
        if not self.connected:
            now = Heard()  # (what was heard before does not name this: a refusal of a subject does)
            now.last = e
            self.problem = describe(e, self.url, now, False,
                                    "are they this event's? a venue's credentials publish its own event only")

    async def _wait(self, seconds: float) -> None:
        assert self._poke is not None
        try:
            await asyncio.wait_for(self._poke.wait(), seconds)
        except TimeoutError:
            pass
        self._poke.clear()

    async def _resume(self, js: Any) -> None:
        """Where the stream stopped (:meth:`_stopped_at`; the stream made if missing, with its limits);
        and that the last change the file and the stream share is the same change in both."""
        from nats.js.errors import NotFoundError

        assert self.event_uuid is not None
        name = relay.stream_name(self.event_uuid)
        try:
            info = await js.stream_info(name)
        except NotFoundError:
            info = await js.add_stream(**relay.stream_limits(self.event_uuid, self.limits["max_bytes"],
                                                             self.limits["max_message"]))
        last = info.state.last_seq
        self.sent, self.revision = 0, None
        if last:
            self.sent = await self._stopped_at(js, name, last)
        latest = changes.latest_seq(self._read())
        if self.sent and not await self._follows_on(js, self.sent):
            # The stream's last change is no venue's (a change numbered past the event, written by hand):
            # where this venue stopped is the last change of its own the stream holds.
            self.sent = await self._past_foreign(js, name, latest)
        shared = min(self.sent, latest)
        if shared:
            await self._compare(js, shared)

    async def _stopped_at(self, js: Any, name: str, last: int) -> int:
        """The change the venue had sent up to: the ``Domrec-Seq`` of the stream's last change (the venue
        sends its changes in order; a game's record and the pages' data carry the last change sent
        before them, so the stream's last message, when the venue's, says the same), else of its last
        message, when either is a venue's (:func:`relay.sent_by`) and the stream holds a change; else 0:
        the whole log sent again (each change the stream holds compared, never doubled).  A message forged with the venue's
        credentials on another subject (without a ``Domrec-Seq``, with one that is no number, or with
        any number) is not taken for where it stopped."""
        from nats.js.errors import NotFoundError

        assert self.event_uuid is not None
        try:
            msg = await js.get_msg(name, last)
        except NotFoundError:  # (purged, past an age limit set on the stream, or deleted by hand)
            raise UpstreamRefused(
                f"the federation's stream {name} no longer holds its last message ({last}), so where this "
                f"venue stopped sending is not known: the federation deletes the stream (nats stream rm "
                f"{name}) and this venue sends the event whole again; see docs/hub.md") from None
        said = relay.sent_by(msg.subject, msg.headers, self.event_uuid)
        if said is not None and msg.subject == relay.change_subject(self.event_uuid, said):
            return said  # (the last message is a change: the last change)
        try:  # the last message on the change subjects (JetStream's last by a subject with a wildcard)
            change = await js.get_msg(name, subject=relay.changes_subject(self.event_uuid))
        except NotFoundError:  # no change on the stream: the venue sent none (its games and pages' data follow
            return 0           # its changes), whatever a message on another subject says, forged or not
        return relay.sent_by(change.subject, change.headers, self.event_uuid) or said or 0

    async def _follows_on(self, js: Any, seq: int, message: int | None = None) -> bool:
        """Whether the stream's change ``seq`` (its message ``message``: None, read here) was stored after
        the stream's change ``seq - 1``, as a venue stores its changes; True when the stream has no change
        ``seq`` (nothing to judge: as before)."""
        from nats.js.errors import NotFoundError

        assert self.event_uuid is not None
        name = relay.stream_name(self.event_uuid)
        if message is None:
            try:
                message = (await js.get_msg(name, subject=relay.change_subject(self.event_uuid, seq))).seq
            except NotFoundError:
                return True
        if seq <= 1:
            return True
        try:
            before = await js.get_msg(name, subject=relay.change_subject(self.event_uuid, seq - 1))
        except NotFoundError:
            return False
        return before.seq < message

    async def _past_foreign(self, js: Any, name: str, latest: int) -> int:
        """The change this venue sends on from when the stream's last change is not a venue's: the last of
        the stream's changes numbered 1, 2, 3, … without a gap (a venue's sending; past the file's end, the
        stream carries on a later copy of the event, refused by :meth:`_send` as before).  The changes past
        them are said (:class:`Foreign`): once in the log, and in :attr:`warning`."""
        assert self.event_uuid is not None
        info = await js.stream_info(name, subjects_filter=relay.changes_subject(self.event_uuid))
        prefix = relay.change_subject(self.event_uuid, 0)[:-1]
        held = {int(s[len(prefix):]) for s in (info.state.subjects or {})
                if s.startswith(prefix) and s[len(prefix):].isascii() and s[len(prefix):].isdigit()
                and len(s) - len(prefix) < 19}
        run = 0
        while run + 1 in held:
            run += 1
        past = sorted(n for n in held if n > run)
        if run <= latest and past:
            first = await js.get_msg(name, subject=relay.change_subject(self.event_uuid, past[0]))
            self._foreign = Foreign(len(past), past[0], first.seq, past[-1], run)
            said = self._foreign.said(name)
            if said != self.warning:
                log.warning("upstream %s: %s", self.url, said)
            self.warning = said
        return run

    async def _compare(self, js: Any, seq: int) -> None:
        """The stream's change ``seq`` against the file's: :class:`HistoryDiffers` when their digests
        differ; :class:`ForeignChange` when it is not the file's and was stored out of order (no
        venue's: :meth:`_follows_on`).  Nothing is said when the stream has no digest (sent by an
        earlier version) or no such change (made by hand, or trimmed): unknown is not another history."""
        from nats.js.errors import NotFoundError

        assert self.event_uuid is not None
        try:
            stored = await js.get_msg(relay.stream_name(self.event_uuid),
                                      subject=relay.change_subject(self.event_uuid, seq))
        except NotFoundError:
            log.debug("upstream %s: the stream has no change %d to compare", self.url, seq)
            return
        theirs = (stored.headers or {}).get(relay.DIGEST_HEADER)
        found = changes.changes_since(self._read(), seq - 1, 1)
        if theirs is not None and found and found[0]["seq"] == seq and relay.change_digest(found[0]) == theirs:
            return  # this file's change: the same history
        if not await self._follows_on(js, seq, stored.seq):
            # Stored out of order: no venue's change, not another history; waits until the federation removes it.
            raise ForeignChange(seq, stored.seq, relay.stream_name(self.event_uuid))
        if theirs is None:
            if not _a_change(stored.data, seq):
                # Not a change of any version's (published by hand with this venue's credentials): it holds
                # the subject, so the hub would never read this change.  No try mends it: stopped, as for
                # another history, until the federation deletes the stream and the venue starts again.
                raise NoChange(seq, relay.stream_name(self.event_uuid))
            log.debug("upstream %s: the stream's change %d has no digest (an earlier version's)", self.url, seq)
            return
        raise HistoryDiffers(seq)

    async def _send(self, js: Any) -> None:
        """Everything after :attr:`sent`, up to the public data's change, and that data if it moved."""
        assert self.sent is not None and self.event_uuid is not None
        store = self._read()
        latest = changes.latest_seq(store)
        if latest == self.sent and self.revision is not None:
            return
        if latest < self.sent:
            raise UpstreamRefused(f"the stream holds change {self.sent} but the event file's last is {latest}: the "
                                  f"file is not the one published (restored from a copy?)")
        checked: int | None = None
        for m in outgoing(store, self.event_uuid, self.sent, self.revision, self.where):
            if not m.change and m.revision is None and checked != m.seq:
                # A game's record goes before the changes after m.seq, and replaces the stream's on
                # its subject: the first of them is compared first (another laptop's record kept).
                await self._compare(js, m.seq + 1)
                checked = m.seq
            await self._publish(js, m)
            if m.change:
                self.sent = m.seq
                if self._foreign is not None and self.sent >= self._foreign.last:
                    # Each change it did not write removed, and this venue's own stored in its place: over.
                    log.warning("upstream %s: the changes this venue did not write are no longer on its stream",
                                self.url)
                    self._foreign = self.warning = None
            if m.revision is not None:
                self.revision = m.revision

    async def _publish(self, js: Any, m: "Message") -> None:
        """One message, acknowledged; a change the stream already holds (a duplicate, or its subject
        taken after the duplicate window) is compared with the stream's (:meth:`_compare`)."""
        from nats.errors import MaxPayloadError, NoRespondersError
        from nats.js.errors import APIError

        assert self.event_uuid is not None
        stream = relay.stream_name(self.event_uuid)
        try:
            ack = await js.publish(m.subject, m.body, headers=m.headers)
        except NoRespondersError:
            raise UpstreamRefused(f"no stream takes {m.subject}") from None
        except MaxPayloadError:  # (the NATS server's own bound, told by the client before it is sent)
            raise StreamFull.too_big(stream, m.subject, len(m.body), server=True) from None
        except APIError as e:
            if e.err_code == relay.STREAM_FULL:
                raise StreamFull.full(stream, self.sent or 0) from None
            if e.err_code == relay.MESSAGE_TOO_BIG:
                raise StreamFull.too_big(stream, m.subject, len(m.body)) from None
            if not (m.change and e.err_code == relay.WRONG_LAST_SEQUENCE):
                raise
            await self._compare(js, m.seq)  # held already: the same change, or HistoryDiffers
            return
        if m.change and ack.duplicate:
            await self._compare(js, m.seq)
        self.messages += 1


@attrs.frozen
class Message:
    """One message for the event's stream: where, what, its headers; ``seq``: the change it is or
    the venue had sent up to; ``change``: it is a change of the log; ``revision``: it is the pages'
    data at that revision."""

    subject: str
    body: bytes
    headers: dict[str, str]
    seq: int
    change: bool = False
    revision: int | None = None


def outgoing(store: EventStore, event: str, sent: int, revision: int | None,
             where: dict[str, Any] | None = None) -> Iterator[Message]:
    """What the stream lacks when it holds the changes up to ``sent`` and the pages' data at
    ``revision`` (None: not known), in the order to send it: each change after ``sent`` up to the
    pages' data's own change, a confirmed game's record before the change that tells of it, then
    the pages' data if its revision moved on.  Read from one look at the file for the data, and the
    log up to the data's change: what a later change brings is sent at the next look."""
    snapshot = _snapshot(store, where or {})
    upto = snapshot["seq"]
    while sent < upto:
        batch = [c for c in changes.changes_since(store, sent) if c["seq"] <= upto]
        if not batch:
            break
        games = {(c["round"], c["table"]) for c in batch
                 if c["kind"] in _GAME_KINDS and c["round"] is not None and c["table"] is not None}
        for round_no, table_no in sorted(games):
            try:
                text, digest = feed.game_text(store, round_no, table_no)
            except feed.FeedError:  # taken back since, a forfeit, a typed score: no record to send
                continue
            yield Message(relay.game_subject(event, round_no, table_no), text.encode("utf-8"),
                          relay.headers(f"{event}:game:{round_no}:{table_no}:{digest}", sent, digest), sent)
        for c in batch:
            yield Message(relay.change_subject(event, c["seq"]), json.dumps(c, separators=(",", ":")).encode("utf-8"),
                          relay.headers(f"{event}:change:{c['seq']}", c["seq"], change=relay.change_digest(c)),
                          c["seq"], change=True)
        sent = batch[-1]["seq"]
    if snapshot["revision"] != revision:
        yield Message(relay.public_subject(event), relay.pack(snapshot),
                      relay.headers(f"{event}:public:{snapshot['seq']}", upto), upto, revision=snapshot["revision"])


def _snapshot(store: EventStore, where: dict[str, Any]) -> dict[str, Any]:
    """The public pages' data and the feed's documents, from one read of the file."""
    with store.reading():
        data = public_data(store, hall=True)
        return {"seq": data["seq"], "revision": changes.latest_public_seq(store), "public": data,
                "feed": {"event": feed.event(store), "standings": feed.published_standings(store),
                         "rounds": feed.rounds(store, withhold=True)},
                "where": dict(where), "started": _started(store)}


async def connect(options: dict[str, Any], name: str, heard: Heard | None = None) -> Any:
    """A connection to the NATS server, or an exception within :data:`CONNECT_DEADLINE` seconds
    (nats-py's own connect waits on while the server refuses: the caller tries again itself).
    ``heard`` keeps what the server says on the side (a refusal), for :func:`describe`."""
    import nats

    return await asyncio.wait_for(nats.connect(**options, connect_timeout=2, allow_reconnect=False,
                                               max_reconnect_attempts=0, name=name, error_cb=heard.said if heard is not None else _quiet,
                                               disconnected_cb=_nothing, closed_cb=_nothing), CONNECT_DEADLINE)


async def _quiet(e: Exception) -> None:
    """nats-py's own errors: said once a turn by the loop that tries again (it would print a traceback)."""
    log.debug("nats: %s", e)


async def _nothing() -> None:
    pass


def _a_change(data: bytes | None, seq: int) -> bool:
    """Whether a message is a change numbered ``seq`` as a venue of any version sends one (a JSON
    object whose ``seq`` is its subject's), whatever else it holds."""
    try:
        return relay.read_json(data or b"", "change").get("seq") == seq
    except (relay.BadMessage, UnicodeDecodeError):
        return False


def _started(store: EventStore) -> str | None:
    """When the event began: its first change's time (the hub lists events by date)."""
    first = changes.changes_since(store, 0, 1)
    return first[0]["at"] if first else None
