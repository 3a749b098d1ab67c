"""What a venue sends a federation's hub over NATS JetStream, and how it is named (docs/hub.md).

One stream an event, ``DOMREC-<uuid>``, over the event's subjects ``domrec.event.<uuid>.>``:

* ``domrec.event.<uuid>.change.<seq>``: one change of the event's log
  (:mod:`tournament.event.changes`), as the feed's ``/changes`` gives it;
* ``domrec.event.<uuid>.game.<round>.<table>``: a confirmed game's record (JSON text), as the
  feed's ``/games/{round}/{table}`` gives it; an amended record replaces it;
* ``domrec.event.<uuid>.public``: the public pages' data and the feed's documents (event,
  standings, rounds) as of a change, gzipped; each replaces the one before.

Each subject keeps only its last message (``max_msgs_per_subject`` 1): a change has a subject of its
own, so the log is kept whole, while a page's data and an amended game keep only their latest.
Every message carries its id (``Nats-Msg-Id``: the event, what it is, and its change number), so
a message sent twice within the stream's window is stored once, and a later one replaces its twin
on the same subject (a change's is refused instead, its subject taken: below): never doubled.  ``Domrec-Seq`` says up to which change the venue had sent
when it sent it: the venue, back online, reads it off the stream's last change (:func:`sent_by`: a
message forged on another subject does not count) and sends the rest.

The stream is bounded (:func:`stream_limits`): its bytes, and a message's size; full, it refuses the
newest message, and the venue says so and waits (docs/hub.md, "Limits of a stream").

A change's message carries ``Domrec-Digest``, the sha256 of the change itself (:func:`change_digest`),
and asks the stream to store it only on an empty subject (``Nats-Expected-Last-Subject-Sequence``
0): a change number names a place in one history, and two venues serving copies of one event file
(or a venue restored from an older copy) would each send their own change 23.  JetStream answers
the second as a duplicate (within its window) or refuses it (after): the venue then reads the
stream's change 23 and compares digests (:mod:`tournament.web.upstream`).  A change sent by a venue
of an earlier version has no digest: unknown, never taken for another history.

Only what the venue's public feed serves is ever here: never a key, a PIN, nor a game in play.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import zlib
from typing import Any

#: The prefix of every subject; a venue's NATS user publishes under its own event's only.
PREFIX = "domrec.event"
#: Seconds within which JetStream drops a message whose id it has stored already.
DUPLICATE_WINDOW = 120.0
SEQ_HEADER = "Domrec-Seq"
#: A change's digest (:func:`change_digest`): two venues' change N told apart.
DIGEST_HEADER = "Domrec-Digest"
#: JetStream's own: store the message only if its subject's last message is this one (0: none).
EXPECTED_HEADER = "Nats-Expected-Last-Subject-Sequence"
#: JetStream's error code when :data:`EXPECTED_HEADER` does not hold (the subject has a message).
WRONG_LAST_SEQUENCE = 10071
#: A game's record hash (the venue's, so that the hub's replay page is the venue's, byte for byte).
HASH_HEADER = "Domrec-Hash"
#: JetStream's error codes when a stream made with :func:`stream_limits` refuses a message: the stream
#: holds its most bytes (its discard policy ``new`` refuses the newest: the event's first changes stay),
#: or the message is larger than the stream takes.
STREAM_FULL = 10077
MESSAGE_TOO_BIG = 10054

#: The most an event's stream holds, in bytes, unless the federation says otherwise (docs/hub.md,
#: "Limits of a stream").  A 250-table event of 1,000 players sends about 13 KB a game (its record,
#: the largest 22 KB) and 0.4 KB a change: six rounds were 21 MB on the stream (measured), 15 rounds,
#: 3,750 games, some 60 MB (80 MB were every game as long as the longest).  1 GiB is more than ten
#: times that, and bounds what a venue's credentials, misused, can make the federation's server keep
#: (the stream had no bound).
MAX_STREAM_BYTES = 1024 * 1024 * 1024
#: The largest message an event's stream takes, in bytes, unless the federation says otherwise: a
#: game's record is at most some 22 KB, the pages' data of that 250-table event 0.11 MB packed after two
#: rounds and 0.18 MB after six (some 0.35 MB after 15).  NATS's own ``max_payload`` (1 MB unless the
#: server's configuration raises it) refuses a larger message first.
MAX_MESSAGE_BYTES = 8 * 1024 * 1024

_UUID = re.compile(r"^[0-9a-fA-F-]{8,64}$")


class BadMessage(ValueError):
    """A message on the event's subjects that is not one a venue sends (the hub skips it)."""


def event_id(uuid: str) -> str:
    """The event's name on the federation (subjects, stream, the hub's ``/e/ID/``): its uuid."""
    if not _UUID.match(uuid):
        raise BadMessage(f"{uuid!r} is not an event's id")
    return uuid.lower()


def stream_name(event: str) -> str:
    return f"DOMREC-{event}"


def event_of_stream(name: str) -> str | None:
    """The event a stream carries (None: not an event's stream)."""
    if not name.startswith("DOMREC-"):
        return None
    try:
        return event_id(name[len("DOMREC-"):])
    except BadMessage:
        return None


def subjects(event: str) -> str:
    return f"{PREFIX}.{event}.>"


def stream_limits(event: str, max_bytes: int = MAX_STREAM_BYTES,
                  max_message: int = MAX_MESSAGE_BYTES) -> dict[str, Any]:
    """The event's stream as a venue (or ``tournament stream``) makes it, JetStream's names for it:
    its subjects, one message a subject, the duplicate window, and its limits: ``max_bytes`` in all,
    ``max_message`` a message, the newest refused once full (``discard`` new: a stream that dropped
    its oldest instead would lose the event's first changes without a word)."""
    return {"name": stream_name(event), "subjects": [subjects(event)], "max_msgs_per_subject": 1,
            "duplicate_window": DUPLICATE_WINDOW, "max_bytes": max_bytes, "max_msg_size": max_message,
            "discard": "new"}


def change_subject(event: str, seq: int) -> str:
    return f"{PREFIX}.{event}.change.{seq}"


def changes_subject(event: str) -> str:
    """Every change's subject (a wildcard: JetStream's last message on it is the last change stored)."""
    return f"{PREFIX}.{event}.change.*"


def game_subject(event: str, round_no: int, table_no: int) -> str:
    return f"{PREFIX}.{event}.game.{round_no}.{table_no}"


def public_subject(event: str) -> str:
    return f"{PREFIX}.{event}.public"


def headers(msg_id: str, seq: int, digest: str | None = None, change: str | None = None) -> dict[str, str]:
    """A message's headers: its id, the change sent up to, a game's record hash (``digest``); for a
    change, its digest (``change``, :func:`change_digest`) and the demand that its subject be empty."""
    out = {"Nats-Msg-Id": msg_id, SEQ_HEADER: str(seq)}
    if digest is not None:
        out[HASH_HEADER] = digest
    if change is not None:
        out[DIGEST_HEADER] = change
        out[EXPECTED_HEADER] = "0"
    return out


def sent_by(subject: str, headers: dict[str, str] | None, event: str) -> int | None:
    """The change a venue had sent up to when it sent this message (its ``Domrec-Seq``), or None when
    the message is no venue's: not on one of the event's subjects a venue sends (a change's, a game's,
    the pages' data's), or without a ``Domrec-Seq`` that is a whole number, its change's own number on
    a change's subject.  A message forged with a venue's credentials is not where the venue stopped."""
    said = (headers or {}).get(SEQ_HEADER, "")
    if not (said.isascii() and said.isdigit() and len(said) < 19):
        return None
    seq = int(said)
    what = subject.split(".")[3:] if subject.startswith(f"{PREFIX}.{event}.") else []
    if what == ["public"] or (len(what) == 3 and what[0] == "game"
                              and all(w.isascii() and w.isdigit() for w in what[1:])):
        return seq
    if len(what) == 2 and what[0] == "change" and what[1] == said:
        return seq
    return None


#: What a change's digest covers: the log's row, as :func:`tournament.event.changes.changes_since`
#: gives it (a field a later version adds to the feed's change does not make a new history).
_DIGESTED = ("seq", "at", "kind", "round", "table", "data")


def change_digest(change: dict[str, Any]) -> str:
    """The sha256 (hex) of a change's canonical JSON (keys sorted, no spaces, UTF-8): the same for
    the same row of the same log on any laptop, another for another change at the same number
    (its time alone differs: a result entered on two laptops is two changes)."""
    row = {k: change.get(k) for k in _DIGESTED}
    text = json.dumps(row, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- the public data as JSON ----------------------------------------------------------------------
# The pages' data has dicts keyed by numbers (a player's unit, a round's time): JSON would turn
# their keys into text, and the hub's pages would then be another page than the venue's.


def _tag(value: Any) -> Any:
    if isinstance(value, dict):
        if value and all(isinstance(k, int) and not isinstance(k, bool) for k in value):
            return {"__int_keys__": [[k, _tag(v)] for k, v in value.items()]}
        return {str(k): _tag(v) for k, v in value.items() if not str(k).startswith("_")}
    if isinstance(value, (list, tuple)):
        return [_tag(v) for v in value]
    return value


def _untag(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"__int_keys__"}:
            return {int(k): _untag(v) for k, v in value["__int_keys__"]}
        return {k: _untag(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untag(v) for v in value]
    return value


def pack(doc: dict[str, Any]) -> bytes:
    """The public document as gzipped JSON (a thousand players' pages' data: a few hundred KB of
    text, a tenth of that sent)."""
    return gzip.compress(json.dumps(_tag(doc), separators=(",", ":")).encode("utf-8"), mtime=0)


#: The most a public document may hold unpacked, in bytes (a thousand players' pages' data is a few
#: hundred KB): past it, refused before more is unpacked; a message of a megabyte packed may hold a
#: gigabyte (published with a club's credentials, it took every hub's memory).
MAX_UNPACKED = 64 * 1024 * 1024


def unpack(body: bytes) -> dict[str, Any]:
    unpacking = zlib.decompressobj(16 + zlib.MAX_WBITS)  # (gzip's header and trailer)
    try:
        text = unpacking.decompress(body, MAX_UNPACKED + 1)
    except zlib.error:
        raise BadMessage("a public document that is not gzipped JSON") from None
    if len(text) > MAX_UNPACKED:
        raise BadMessage(f"a public document of more than {MAX_UNPACKED:,} bytes unpacked")
    try:
        if not unpacking.eof:
            raise EOFError
        doc = json.loads(text)
    except (ValueError, EOFError):
        raise BadMessage("a public document that is not gzipped JSON") from None
    if not isinstance(doc, dict):
        raise BadMessage("a public document that is not a JSON object")
    return _untag(doc)


def read_json(body: bytes, what: str) -> dict[str, Any]:
    try:
        doc = json.loads(body)
    except ValueError:
        raise BadMessage(f"a {what} that is not JSON") from None
    if not isinstance(doc, dict):
        raise BadMessage(f"a {what} that is not a JSON object")
    return doc
