"""The players' other columns: what a players CSV brought beside the names and ids (club, sex,
category, birth year, …), kept as typed so that the export gives them back and prize lists can be
drawn by any of them.  All of their SQL is here.

Schema 7 (issue 25, prize lists): ``player_fields``, one row a player and column (``field`` is the
CSV header as typed, lower-cased and trimmed like every header; ``value`` the cell, trimmed; an
empty cell is no row).  An older file gets the table, and becomes schema 7, in the transaction of
the first players CSV that has such a column; until then it stays the file it was.
"""

from __future__ import annotations

from typing import Mapping

from tournament.store.event_store import EventStore

FIELDS_SCHEMA_VERSION = 7
FIELDS_SCHEMA = ("CREATE TABLE IF NOT EXISTS player_fields (player_id INTEGER NOT NULL REFERENCES players(id), "
                 "field TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (player_id, field))")


def has_fields(store: EventStore) -> bool:
    return bool(store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'player_fields'")
                .fetchone())


def set_fields(store: EventStore, player: int, values: Mapping[str, str]) -> None:
    """Within a write: a player's other columns (empty values are left out)."""
    kept = {k: v for k, v in values.items() if v}
    if not kept:
        return
    if not has_fields(store):
        store.conn.execute(FIELDS_SCHEMA)
        store._bump_schema(FIELDS_SCHEMA_VERSION)
    store.conn.executemany("INSERT INTO player_fields(player_id, field, value) VALUES (?, ?, ?) "
                           "ON CONFLICT(player_id, field) DO UPDATE SET value = excluded.value",
                           [(player, k, v) for k, v in kept.items()])


def field_names(store: EventStore) -> list[str]:
    """The columns any player has, in the order they were first given."""
    if not has_fields(store):
        return []
    return [r[0] for r in store.conn.execute("SELECT field FROM player_fields GROUP BY field ORDER BY MIN(rowid)")]


def fields(store: EventStore) -> dict[int, dict[str, str]]:
    """Player number -> their columns (only players with at least one)."""
    out: dict[int, dict[str, str]] = {}
    if not has_fields(store):
        return out
    for pid, field, value in store.conn.execute("SELECT player_id, field, value FROM player_fields ORDER BY rowid"):
        out.setdefault(pid, {})[field] = value
    return out


def delete_fields(store: EventStore, player: int) -> None:
    """Within a write: a removed entry's columns go with it."""
    if has_fields(store):
        store.conn.execute("DELETE FROM player_fields WHERE player_id = ?", [player])
