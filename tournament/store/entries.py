"""Who entered each result, as first entered: ``results.entered_by`` (schema 7, issue 25).

A correction keeps its own author in ``result_audit.changed_by``; this column answers the other
question a director asks at the end of the night: who typed (or which phone sent) the result
that was there first.  A file made before gets the column, and becomes schema 7, in the
transaction of its first result entered by this version; results entered before say nothing
(shown as unknown).  A file made by this version has the column from its creation (an older tool
leaves it alone, so such a file stays at the version it was made at).  All of its SQL is here.
"""

from __future__ import annotations

from tournament.store.event_store import EventStore

ENTRIES_SCHEMA_VERSION = 7


def has_entered_by(store: EventStore) -> bool:
    return any(r[1] == "entered_by" for r in store.conn.execute("PRAGMA table_info(results)").fetchall())


def set_entered_by(store: EventStore, table_id: int, by: str | None) -> None:
    """Within the write that stored the table's result: who entered it."""
    if not has_entered_by(store):
        store.conn.execute("ALTER TABLE results ADD COLUMN entered_by TEXT")
        store._bump_schema(ENTRIES_SCHEMA_VERSION)
    store.conn.execute("UPDATE results SET entered_by = ? WHERE table_id = ?", [by, table_id])


def entries(store: EventStore) -> list[dict[str, object]]:
    """Every result's first entry as a row: round, table, when, by (None: not known), kind; and,
    for a result replaced since, the first entry is the oldest one in the audit trail."""
    by_col = "x.entered_by" if has_entered_by(store) else "NULL"
    return [{"round": r[0], "table": r[1], "at": r[2], "by": r[3], "kind": r[4]}
            for r in store.conn.execute(
                f"SELECT r.number, t.number, x.entered_at, {by_col}, x.kind FROM results x "
                "JOIN round_tables t ON t.id = x.table_id JOIN rounds r ON r.id = t.round_id "
                "ORDER BY r.number, t.number")]
