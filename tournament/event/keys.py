"""The venue's keys: which there are, and new keys for old (issue 35).

A key is the secret part of a venue link: the director's (``/d/KEY``) opens everything, a table's
(``/t/KEY``) its own table of its own round.  A key does not run out by itself; when one gets where
it should not (a phone stolen, a sheet photographed, the director's link shared), the director
gives it a new key: ``tournament keys --rotate-table R/T``, ``--rotate-director``, ``--rotate`` (all
of them), or the director's page for a table.  The key's row in ``venue_tokens`` then holds the new
key (:func:`tournament.store.venue.replace_token`), so the old one opens nothing from the next
request on, in this process and in a ``tournament serve`` running beside it, which asks the file at
each request whether anything was written since it read its keys (SQLite's ``data_version``, and
its own connection's changes besides a table's moves) and reads them again if so.

Every change goes into the audit trail (the desk's, ``tournament history``) in the same write:
when, who and from where (the command line, the director's page), which key; never the key itself.
"""

from __future__ import annotations

from typing import Any

import attrs

from domrec.i18n import N_

from tournament.event.venue import NotFound, Venue, ensure_tokens
from tournament.store import desk as desk_sql
from tournament.store import venue as venue_sql
from tournament.store.event_store import EventStore
from tournament.store.sqlite import now

#: What the director's page is told, as patterns (:mod:`domrec.phrases`) for the page's language.
PHRASES = (
    N_("round %(n)s table %(n2)s: a new key; the old link no longer opens the table"),
)

#: The audit trail's action for a key changed (``tournament history``): its detail names the key
#: (``director``, ``table`` with its number, or ``all``), never the key itself.
KEY_CHANGED = "key_changed"


@attrs.frozen
class Key:
    """One key of the venue, without the key itself: whose it is and since when it holds."""

    kind: str  # ``director``, ``director_pin`` or ``table``
    round: int | None
    table: int | None
    since: str  # when it was made, or last changed

    def text(self) -> str:
        who = {"director": "the director's key", "director_pin": "the director's PIN"}.get(
            self.kind, f"round {self.round} table {self.table}")
        return f"{who}: since {self.since}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "table": self.table, "since": self.since}


def keys(store: EventStore) -> list[Key]:
    """Every key the venue has given out (the director's first, then the tables' by round and
    table), each with the time it was made or last changed; never a key itself (``tournament keys``)."""
    where = {t.id: (t.round, t.number) for t in store.tables()}
    found = []
    for kind, table_id, since in venue_sql.token_dates(store):
        rnd, number = where.get(table_id, (None, None)) if table_id is not None else (None, None)
        if kind == "table" and rnd is None:
            continue  # a table no longer in the event: its key opens nothing
        found.append(Key(kind, rnd, number, since))
    return sorted(found, key=lambda k: (k.kind == "table", k.kind != "director", k.round or 0, k.table or 0))


def _trail_key(store: EventStore, round_no: int | None, detail: dict[str, Any], by: str) -> None:
    """Within a write: a key changed, in the audit trail (the desk's): who, when, which key; never
    the key itself."""
    desk_sql.log(store, KEY_CHANGED, round_no, detail, by, None)


def rotate_keys(store: EventStore, by: str, director: bool = False, tables: Any = (),
                every: bool = False) -> list[Key]:
    """New keys for old, in one write: the director's (``director``), those of the tables ``tables``
    (``(round, table)`` pairs), or every key the venue has given out (``every``).  The old keys
    open nothing from then on, in this process and in a server running beside it, which reads its
    keys again at the first request after any write to the file.  Each change goes
    into the audit trail with ``by`` (who, and from where: the command line, the director's page)
    and which key, never the key.  A table given no key yet gets one, as ``links`` would make it.
    Returns the keys changed (the director's too when ``every``)."""
    wanted = []
    for round_no, table_no in () if every else tables:
        found = store.table(round_no, table_no)
        if found is None:
            if not 1 <= round_no <= store.last_round():
                raise NotFound(f"round {round_no} has not been paired")
            raise NotFound(f"round {round_no} has no table {table_no}")
        wanted.append(found)
    at = now()
    with store.write():
        venue_sql.upgrade_for_venue(store)
        if venue_sql.director_token(store) is None:
            venue_sql.insert_token(store, "director", None, at)
        if every:
            changed = sum(venue_sql.replace_token(store, kind, table_id, at) is not None
                          for kind, table_id, _ in venue_sql.token_dates(store))
            _trail_key(store, None, {"key": "all", "count": changed}, by)
        elif director:  # the director's link and PIN: both the director's, both changed
            venue_sql.replace_token(store, "director", None, at)
            venue_sql.replace_token(store, "director_pin", None, at)
            _trail_key(store, None, {"key": "director"}, by)
        for t in wanted:
            if venue_sql.replace_token(store, "table", t.id, at) is None:
                venue_sql.insert_token(store, "table", t.id, at)
            _trail_key(store, t.round, {"key": "table", "table": t.number}, by)
    done = keys(store)
    if every:
        return done
    named = {(t.round, t.number) for t in wanted}
    return [k for k in done if (k.kind in ("director", "director_pin") and director) or
            (k.kind == "table" and (k.round, k.table) in named)]


def table_link(store: EventStore, base: str, round_no: int, table_no: int) -> str:
    """The link of one table's page, with its key as it is now."""
    table = store.table(round_no, table_no)
    token = venue_sql.table_tokens(store, [table.id]).get(table.id) if table is not None else None
    if token is None:
        raise NotFound(f"round {round_no} has no table {table_no}")
    return f"{base.rstrip('/')}/t/{token}"


def director_pin(store: EventStore) -> str | None:
    """The director's PIN as it is now (``None`` before the venue's keys are made)."""
    return venue_sql.director_pin(store)


def director_link(store: EventStore, base: str) -> str:
    """The link of the director's page, with its key as it is now (made if missing)."""
    ensure_tokens(store, 0)
    return f"{base.rstrip('/')}/d/{venue_sql.director_token(store)}"


def new_table_key(venue: Venue, round_no: int, table_no: int, base: str,
                  by: str = "the director's page", cid: Any = None) -> dict[str, Any]:
    """The director gives a table a new key from the director's page (a phone stolen, a link
    shared): its old link opens nothing from the next request on.  ``{"round", "table", "url",
    "said"}``, ``url`` the table's new link.  On the venue's thread, under its lock.  ``cid``: the
    write's id, taken once by it (:meth:`Venue.once`): sent again, it is answered the same new
    link, and makes no third key (which would leave the link just shown dead)."""
    with venue.lock:
        table = venue.table(round_no, table_no)

        def rotate() -> dict[str, Any]:
            rotate_keys(venue.store, by, tables=[(round_no, table_no)])
            return {"round": round_no, "table": table_no, "url": table_link(venue.store, base, round_no, table_no),
                    "said": [f"round {round_no} table {table_no}: a new key; the old link no longer opens the table"]}

        return venue.once("key", cid, rotate, table)
