"""The director's desk in the event file: changes to a paired round and to the player list, the
standing requests that pairing honours, and the trail of who changed what.  All of its SQL is here.

Schema 6 (issue 25).  An older file gets these tables, and becomes schema 6, in the transaction
of its first desk change (:func:`upgrade_for_desk`); until then it stays the file it was.

* ``desk_log``: one row a change of the desk (a round unpaired, seats swapped, a player renamed,
  removed, sitting out, returning; a pin or a keep-apart set or lifted): when, by whom, what
  (``action`` and ``detail``, JSON), why.  Never updated or deleted: the audit trail.
* ``desk_requests``: what pairing must honour: ``pin`` (player ``a`` at table ``table_no``),
  ``apart`` (players ``a`` and ``b`` at different tables through round ``until_round``, or
  always), ``sit_out`` (player ``a`` has a bye in round ``round_no``).  A pin's or a keep-apart's
  ``round_no`` is the first round it binds (the next round paired when it was made; NULL in a
  request made before it was kept: ``check`` then goes by its line in the trail).  A lifted request
  is deleted (its setting and its lifting stay in ``desk_log``).
* ``players.federation_id``: an optional id from outside the event (a federation number) that
  ratings match players on across events, before names.
* ``meta.last_player_id``: the highest player number ever given, so that a removed entry's number
  is never given to another player.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, Sequence

from tournament.store.event_store import EventStore
from tournament.store.sqlite import now
from tournament.values import SeatAssignment

DESK_SCHEMA_VERSION = 6
DESK_SCHEMA = (
    ("CREATE TABLE IF NOT EXISTS desk_log (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, "
     "changed_by TEXT, action TEXT NOT NULL, round INTEGER, detail TEXT NOT NULL, reason TEXT)"),
    ("CREATE TABLE IF NOT EXISTS desk_requests (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
     "a INTEGER NOT NULL REFERENCES players(id), b INTEGER REFERENCES players(id), table_no INTEGER, "
     "round_no INTEGER, until_round INTEGER)"),
)


def has_desk(store: EventStore) -> bool:
    return bool(store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'desk_log'")
                .fetchone())


def has_federation_ids(store: EventStore) -> bool:
    return any(r[1] == "federation_id" for r in store.conn.execute("PRAGMA table_info(players)").fetchall())


def upgrade_for_desk(store: EventStore) -> None:
    """Within a write: the desk's tables and ``players.federation_id`` for a file without them."""
    if has_desk(store) and has_federation_ids(store):
        return
    for sql in DESK_SCHEMA:
        store.conn.execute(sql)
    if not has_federation_ids(store):
        store.conn.execute("ALTER TABLE players ADD COLUMN federation_id TEXT")
    store._bump_schema(DESK_SCHEMA_VERSION)


# --- the trail ---------------------------------------------------------------------------------


def log(store: EventStore, action: str, round_no: int | None, detail: dict[str, Any], by: str | None,
        reason: str | None) -> int:
    """Within a write: one change of the desk in the trail."""
    upgrade_for_desk(store)
    cur = store.conn.execute("INSERT INTO desk_log(at, changed_by, action, round, detail, reason) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             [now(), by, action, round_no, json.dumps(detail, ensure_ascii=False, sort_keys=True),
                              reason])
    return int(cur.lastrowid)


def trail(store: EventStore) -> list[dict[str, Any]]:
    """Every change of the desk, oldest first."""
    if not has_desk(store):
        return []
    return [{"id": r[0], "at": r[1], "by": r[2], "action": r[3], "round": r[4], "detail": json.loads(r[5]),
             "reason": r[6]}
            for r in store.conn.execute("SELECT id, at, changed_by, action, round, detail, reason FROM desk_log "
                                        "ORDER BY id")]


# --- requests pairing honours ------------------------------------------------------------------


def requests(store: EventStore) -> list[dict[str, Any]]:
    if not has_desk(store):
        return []
    return [dict(zip(("id", "kind", "a", "b", "table_no", "round_no", "until_round"), r))
            for r in store.conn.execute("SELECT id, kind, a, b, table_no, round_no, until_round FROM desk_requests "
                                        "ORDER BY id")]


def sit_outs(store: EventStore) -> dict[int, set[int]]:
    """Round -> the players who asked to sit it out (``tournament sit-out``; in a pairs event the
    pair's first player): the standings score their bye as the event's ``sit_out``, not its ``bye``."""
    out: dict[int, set[int]] = {}
    for r in requests(store):
        if r["kind"] == "sit_out":
            out.setdefault(r["round_no"], set()).add(r["a"])
    return out


def add_request(store: EventStore, kind: str, a: int, b: int | None = None, table_no: int | None = None,
                round_no: int | None = None, until_round: int | None = None) -> int:
    upgrade_for_desk(store)
    cur = store.conn.execute("INSERT INTO desk_requests(kind, a, b, table_no, round_no, until_round) "
                             "VALUES (?, ?, ?, ?, ?, ?)", [kind, a, b, table_no, round_no, until_round])
    return int(cur.lastrowid)


def delete_request(store: EventStore, request_id: int) -> None:
    store.conn.execute("DELETE FROM desk_requests WHERE id = ?", [request_id])


# --- a paired round ------------------------------------------------------------------------------


def venue_rows(store: EventStore, table_ids: Sequence[int], every: bool = False) -> dict[int, int]:
    """Table id -> how many moves and confirmations its table phone has had accepted (0: none, or no
    venue): a table with any has a game in progress, whose players must not change under it.
    ``every``: every row its phone left (a mode chosen, the director called), which the venue's
    log keeps for ever and which keep the table itself in the file."""
    if not table_ids or not store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                               "name = 'venue_log'").fetchone():
        return {t: 0 for t in table_ids}
    marks = ",".join("?" * len(table_ids))
    which = "" if every else "AND kind IN ('dgn', 'confirm') "
    counts = dict(store.conn.execute(f"SELECT table_id, COUNT(*) FROM venue_log WHERE table_id IN ({marks}) "
                                     f"{which}GROUP BY table_id", list(table_ids)).fetchall())
    return {t: int(counts.get(t, 0)) for t in table_ids}


def venue_board_rows(store: EventStore, table_id: int) -> tuple[list[int], int]:
    """A duplicate table's phone: the boards closed there (confirmed, or entered over its play), in
    order, and how many moves and confirmations it has had accepted since the last of them (0:
    none, or no venue): with any,
    the board it is playing has a game in progress (:func:`venue_rows`, board by board)."""
    if not store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'venue_log'").fetchone():
        return [], 0
    played: list[int] = []
    since = 0
    for kind, body in store.conn.execute("SELECT kind, body FROM venue_log WHERE table_id = ? AND kind IN "
                                         "('dgn', 'confirm', 'board') ORDER BY rev", [table_id]):
        if kind == "board":
            with contextlib.suppress(ValueError, KeyError, TypeError):
                played.append(int(json.loads(body)["board"]))
            since = 0
        else:
            since += 1
    return played, since


def venue_taken_boards(store: EventStore) -> dict[int, set[int]]:
    """Duplicate tables: each table's id -> the boards the director closed on its phone (a result
    entered, or a mark "not played" made, over its play: the venue log's ``board`` rows marked
    ``"entered"``), which its phone never plays again.  One without a result or a mark now is the
    director's to enter (:func:`tournament.event.table_log.to_enter`, the table's ``to_enter``),
    which ``tournament tables`` says as the table's state does."""
    if not store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'venue_log'").fetchone():
        return {}
    out: dict[int, set[int]] = {}
    for table_id, body in store.conn.execute("SELECT table_id, body FROM venue_log WHERE kind = 'board'"):
        with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
            data = json.loads(body)
            if data.get("entered"):
                out.setdefault(table_id, set()).add(int(data["board"]))
    return out


def delete_round(store: EventStore, round_no: int) -> None:
    """Within a write: a round without results taken back: its tables, seats, byes, the standings it
    was paired on, and its tables' venue links (which would otherwise point at nothing).  A result
    cleared at one of its tables keeps its trail in the desk's (``result_change_of_unpaired_table``)."""
    row = store.conn.execute("SELECT id FROM rounds WHERE number = ?", [round_no]).fetchone()
    if row is None:
        return
    rid = row[0]
    tids = [r[0] for r in store.conn.execute("SELECT id FROM round_tables WHERE round_id = ?", [rid])]
    marks = ",".join("?" * len(tids))
    if tids:
        # A table whose result was cleared (``tournament clear``) keeps its trail: the audit rows,
        # old results and records whole, move to the desk's trail as they were, before the table goes.
        upgrade_for_desk(store)
        number = {t: n for t, n in store.conn.execute(
            f"SELECT id, number FROM round_tables WHERE id IN ({marks})", tids)}
        for aid, tid, old, new, at, reason, by in store.conn.execute(
                "SELECT id, table_id, old_result, new_result, replaced_at, reason, changed_by FROM result_audit "
                f"WHERE table_id IN ({marks}) ORDER BY id", tids).fetchall():
            detail = {"table": number.get(tid), "old_result": json.loads(old) if old else None,
                      "new_result": json.loads(new) if new else None}
            store.conn.execute("INSERT INTO desk_log(at, changed_by, action, round, detail, reason) "
                               "VALUES (?, ?, ?, ?, ?, ?)",
                               [at, by, "result_change_of_unpaired_table", round_no,
                                json.dumps(detail, ensure_ascii=False, sort_keys=True), reason])
            store.conn.execute("DELETE FROM result_audit WHERE id = ?", [aid])
        if store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'venue_tokens'").fetchone():
            store.conn.execute(f"DELETE FROM venue_tokens WHERE table_id IN ({marks})", tids)
        if store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'venue_pin_tries'").fetchone():
            store.conn.execute(f"DELETE FROM venue_pin_tries WHERE table_id IN ({marks})", tids)
        if store.has_table("venue_writes"):  # (the ids of writes its tables were answered: refusals, the director's)
            store.conn.execute(f"DELETE FROM venue_writes WHERE table_id IN ({marks})", tids)
        if store.has_table("venue_refusals_unkept"):  # (their refusals past the cap, counted)
            store.conn.execute(f"DELETE FROM venue_refusals_unkept WHERE table_id IN ({marks})", tids)
        store.conn.execute(f"DELETE FROM seats WHERE table_id IN ({marks})", tids)
        store.conn.execute(f"DELETE FROM round_tables WHERE id IN ({marks})", tids)
    store.conn.execute("DELETE FROM byes WHERE round_id = ?", [rid])
    store.conn.execute("DELETE FROM standings_used WHERE round_id = ?", [rid])
    store.conn.execute("DELETE FROM rounds WHERE id = ?", [rid])


def set_seat(store: EventStore, table_id: int, seat: str, player: int) -> None:
    """Within a write: who sits in one seat of a table (the seat keeps its side and position)."""
    store.conn.execute("UPDATE seats SET player_id = ? WHERE table_id = ? AND seat = ?", [player, table_id, seat])


def replace_bye(store: EventStore, round_no: int, old: int, new: int) -> None:
    """Within a write: the bye of round ``round_no`` that ``old`` had goes to ``new``."""
    store.conn.execute("UPDATE byes SET player_id = ? WHERE player_id = ? AND round_id = "
                       "(SELECT id FROM rounds WHERE number = ?)", [new, old, round_no])


def add_bye(store: EventStore, round_no: int, player: int) -> None:
    store.conn.execute("INSERT INTO byes(round_id, player_id) SELECT id, ? FROM rounds WHERE number = ?",
                       [player, round_no])


def seat_rows(store: EventStore, table_id: int) -> list[SeatAssignment]:
    return [SeatAssignment(r[0], r[1], r[2]) for r in store.conn.execute(
        "SELECT seat, side, player_id FROM seats WHERE table_id = ? ORDER BY position", [table_id])]


# --- the player list ------------------------------------------------------------------------------


def rename_player(store: EventStore, player: int, name: str) -> None:
    store.conn.execute("UPDATE players SET name = ? WHERE id = ?", [name, player])


def rename_team(store: EventStore, team: int, name: str) -> None:
    store.conn.execute("UPDATE teams SET name = ? WHERE id = ?", [name, team])


def has_played(store: EventStore, player: int) -> bool:
    """Seated at a table or given a bye in any round."""
    return bool(store.conn.execute("SELECT 1 FROM seats WHERE player_id = ? UNION ALL "
                                   "SELECT 1 FROM byes WHERE player_id = ? LIMIT 1", [player, player]).fetchone())


def remember_player_ids(store: EventStore, highest: int) -> None:
    """Within a write: the highest player number ever given, kept when the highest one is removed."""
    current = last_player_id(store)
    if highest > current:
        store.conn.execute("INSERT INTO meta(key, value) VALUES ('last_player_id', ?) ON CONFLICT(key) "
                           "DO UPDATE SET value = excluded.value", [str(highest)])


def last_player_id(store: EventStore) -> int:
    row = store.conn.execute("SELECT value FROM meta WHERE key = 'last_player_id'").fetchone()
    return int(row[0]) if row else 0


def delete_player(store: EventStore, player: int) -> None:
    """Within a write: an entry that never played, gone (its requests and venue PIN with it)."""
    remember_player_ids(store, player)
    if has_desk(store):
        store.conn.execute("DELETE FROM desk_requests WHERE a = ? OR b = ?", [player, player])
    if store.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'venue_pins'").fetchone():
        store.conn.execute("DELETE FROM venue_pins WHERE player_id = ?", [player])
    from tournament.store.fields import delete_fields

    delete_fields(store, player)
    store.conn.execute("DELETE FROM players WHERE id = ?", [player])


def delete_team(store: EventStore, team: int) -> None:
    store.conn.execute("DELETE FROM teams WHERE id = ?", [team])


def clear_withdrawn(store: EventStore, player: int) -> None:
    store.conn.execute("UPDATE players SET withdrawn_round = NULL WHERE id = ?", [player])


def clear_team_withdrawn(store: EventStore, team: int) -> None:
    store.conn.execute("UPDATE teams SET withdrawn_round = NULL WHERE id = ?", [team])
    store.conn.execute("UPDATE players SET withdrawn_round = NULL WHERE team_id = ?", [team])


def federation_ids(store: EventStore) -> dict[int, str]:
    """Player number -> federation id, for the players that have one."""
    if not has_federation_ids(store):
        return {}
    return {r[0]: r[1] for r in store.conn.execute("SELECT id, federation_id FROM players "
                                                   "WHERE federation_id IS NOT NULL")}


def set_federation_id(store: EventStore, player: int, federation_id: str | None) -> None:
    upgrade_for_desk(store)
    store.conn.execute("UPDATE players SET federation_id = ? WHERE id = ?", [federation_id, player])
