"""The event's change log in the event file: an append-only table, one row a change people can see.

Schema 5 (issue 24).  ``changes(seq, at, kind, round, table_no, data)``: ``seq`` is an
``AUTOINCREMENT`` key, so numbers only grow and a row once written is never given another's
number; ``data`` is JSON.  A row is appended by the operation whose change it describes, inside
that operation's own write transaction (:meth:`~tournament.store.event_store.EventStore.write`),
so the change and its row land together or not at all: a refused or killed write leaves neither.
Nothing here ever updates or deletes a row.

A rolled-back transaction takes its row back with it, and SQLite's ``sqlite_sequence`` with it
too, so the next committed change takes the number the rolled-back one had: readers only ever see
committed rows, so the numbers they see run 1, 2, 3, … without a gap.

A file made by this version has the table from its creation (:func:`create_changes_schema`, called
by :func:`~tournament.store.schema.create_schema`).  An older file gets it, and becomes schema 5,
in the transaction of its first change (:func:`upgrade_for_changes`); reading it never upgrades it
(:func:`has_changes` is False until then, and the log is empty).  What the rows mean (the kinds,
their data) is decided above, in :mod:`tournament.event.changes`.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from tournament.store.event_store import EventStore
from tournament.store.schema import CHANGES_SCHEMA_VERSION, create_changes_schema
from tournament.store.sqlite import now


def has_changes(store: EventStore) -> bool:
    return store.has_table("changes")


def upgrade_for_changes(store: EventStore) -> int | None:
    """Within a write: the ``changes`` table for a file without it, marked schema 5.  The schema
    the file had when the table was made now (the caller then says the log starts here), else None."""
    if has_changes(store):
        return None
    old = int(store.meta().get("schema_version", "1"))
    create_changes_schema(store.conn)
    store._bump_schema(CHANGES_SCHEMA_VERSION)
    return old


def insert_change(conn: sqlite3.Connection, kind: str, round_no: int | None, table_no: int | None,
                  data: dict[str, Any], at: str | None = None) -> int:
    """Within a write: one change appended; its sequence number."""
    cur = conn.execute("INSERT INTO changes(at, kind, round, table_no, data) VALUES (?, ?, ?, ?, ?)",
                       [at or now(), kind, round_no, table_no,
                        json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))])
    return int(cur.lastrowid)


def latest(store: EventStore) -> int:
    """The last change's number; 0 when there is none (or no log yet)."""
    if not has_changes(store):
        return 0
    row = store.conn.execute("SELECT MAX(seq) FROM changes").fetchone()
    return int(row[0] or 0)


def latest_except(store: EventStore, kinds: tuple[str, ...]) -> int:
    """The number of the last change not of one of ``kinds``; 0 when there is none.  Read from the
    end of the log backwards (by its key), so it stops at the first such change: the changes left
    out (a table's status) lie between the others, a few at a time."""
    if not has_changes(store):
        return 0
    marks = ",".join("?" * len(kinds))
    row = store.conn.execute(f"SELECT seq FROM changes WHERE kind NOT IN ({marks}) ORDER BY seq DESC LIMIT 1",
                             list(kinds)).fetchone()
    return int(row[0]) if row else 0


def since(store: EventStore, after: int, limit: int) -> list[tuple[int, str, str, int | None, int | None, str]]:
    """Up to ``limit`` changes numbered above ``after``, oldest first, as stored
    (seq, at, kind, round, table_no, data text)."""
    if not has_changes(store):
        return []
    return [tuple(r) for r in store.conn.execute(  # type: ignore[misc]
        "SELECT seq, at, kind, round, table_no, data FROM changes WHERE seq > ? ORDER BY seq LIMIT ?",
        [after, limit])]


def last_of_kinds(store: EventStore, kinds: tuple[str, ...]) -> tuple[int, str, str] | None:
    """The latest change of one of ``kinds``: (seq, kind, data text), or None."""
    if not has_changes(store):
        return None
    marks = ",".join("?" * len(kinds))
    row = store.conn.execute(f"SELECT seq, kind, data FROM changes WHERE kind IN ({marks}) ORDER BY seq DESC "
                             f"LIMIT 1", list(kinds)).fetchone()
    return (int(row[0]), row[1], row[2]) if row else None


def table_statuses(store: EventStore, kind: str, round_no: int | None = None) -> dict[tuple[int, int], str]:
    """(round, table) -> the data text of the latest change of ``kind`` about that table (of one
    round, or of every round)."""
    if not has_changes(store):
        return {}
    where, params = ("AND round = ?", [kind, round_no]) if round_no is not None else ("", [kind])
    rows = store.conn.execute(
        "SELECT round, table_no, data FROM changes WHERE seq IN (SELECT MAX(seq) FROM changes WHERE kind = ? "
        f"{where} AND table_no IS NOT NULL GROUP BY round, table_no)", params).fetchall()
    return {(int(r[0]), int(r[1])): r[2] for r in rows}


def last_about_table(store: EventStore, kind: str, round_no: int, table_no: int) -> str | None:
    """The data text of the latest change of ``kind`` about one table, or None."""
    if not has_changes(store):
        return None
    row = store.conn.execute("SELECT data FROM changes WHERE kind = ? AND round = ? AND table_no = ? "
                             "ORDER BY seq DESC LIMIT 1", [kind, round_no, table_no]).fetchone()
    return row[0] if row else None


def of_kind_in_round(store: EventStore, kind: str, round_no: int) -> list[str]:
    """The data texts of every change of ``kind`` about round ``round_no``, oldest first."""
    if not has_changes(store):
        return []
    return [r[0] for r in store.conn.execute("SELECT data FROM changes WHERE kind = ? AND round = ? ORDER BY seq",
                                             [kind, round_no])]
