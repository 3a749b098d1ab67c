"""A duplicate event's boards in the event file: the deals, the movement's pairs, each table's boards
and each board's result there.

Schema 10 (issue 38).  ``boards`` keeps each board as :func:`tournament.pairing.boards.board_json`
writes it (the deal, the leader, the rules), so that any reader (the venue's table page starting a
board's deal, the report's hand record) reads a board back with ``board_from_json``.
``duplicate_pairs`` numbers the event's pairs as the movement numbers them (1 … 2T, fixed when round
1 is seated).  ``board_tables`` says, for each table of a round, which movement pairs sit NS and EW
and which boards it plays, in order (``[3, 4]``): a table's boards for a round are one row, read by
the table's id.  ``board_results`` holds a table's result on one board: the points each side won,
how the hand ended, and the record it came from (its JSON and hash) when it came from one; a result
replaced is kept whole in ``board_result_audit``.  A file
gets these tables, and becomes schema 10, in the transaction of its first boards.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from tournament.store.event_store import EventStore

BOARDS_SCHEMA_VERSION = 10
BOARDS_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS boards (number INTEGER PRIMARY KEY, game TEXT NOT NULL, board TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS duplicate_pairs (number INTEGER PRIMARY KEY, "
    "pair_id INTEGER NOT NULL UNIQUE REFERENCES teams(id))",
    "CREATE TABLE IF NOT EXISTS board_tables (table_id INTEGER PRIMARY KEY REFERENCES round_tables(id), "
    "ns INTEGER NOT NULL, ew INTEGER NOT NULL, boards TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS board_results (table_id INTEGER NOT NULL REFERENCES round_tables(id), "
    "board INTEGER NOT NULL REFERENCES boards(number), ns_points INTEGER NOT NULL, ew_points INTEGER NOT NULL, "
    "ended TEXT, verified INTEGER NOT NULL, record TEXT, record_hash TEXT, entered_at TEXT NOT NULL, "
    "entered_by TEXT, PRIMARY KEY (table_id, board))",
    # A replaced board result, kept whole (nothing acknowledged is lost): its row as JSON, when and by whom.
    "CREATE TABLE IF NOT EXISTS board_result_audit (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "table_id INTEGER NOT NULL REFERENCES round_tables(id), board INTEGER NOT NULL, old_result TEXT NOT NULL, "
    "replaced_at TEXT NOT NULL, changed_by TEXT)",
)


def upgrade(store: "EventStore") -> None:
    """Within a write: the boards' tables, and schema 10."""
    if store.has_table("board_results"):
        return
    for sql in BOARDS_SCHEMA:
        store.conn.execute(sql)
    store._bump_schema(BOARDS_SCHEMA_VERSION)


def boards(store: "EventStore") -> list[dict[str, Any]]:
    """Every board's JSON (``board_json``'s), by number."""
    if not store.has_table("boards"):
        return []
    return [json.loads(r["board"]) for r in store._rows("SELECT board FROM boards ORDER BY number")]


def board(store: "EventStore", number: int) -> dict[str, Any] | None:
    """One board's JSON (the venue starting its deal reads one board, not all)."""
    if not store.has_table("boards"):
        return None
    found = store._rows("SELECT board FROM boards WHERE number = ?", [number])
    return json.loads(found[0]["board"]) if found else None


def replace_boards(store: "EventStore", items: Sequence[dict[str, Any]]) -> None:
    """Within a write: the event's boards are these (any earlier ones are gone)."""
    upgrade(store)
    store.conn.execute("DELETE FROM boards")
    store.conn.executemany("INSERT INTO boards(number, game, board) VALUES (?, ?, ?)",
                           [(b["board"], b["game"], json.dumps(b, ensure_ascii=False))  # in order: the seats are the hands' order
                            for b in items])


def boards_seed(store: "EventStore") -> str | None:
    """The seed the event's boards were dealt with (``tournament boards --boards N``), None when they
    were read from a file of deals or dealt before the seed was kept."""
    found = store._rows("SELECT value FROM meta WHERE key = 'boards_seed'")
    return found[0]["value"] if found else None


def set_boards_seed(store: "EventStore", seed: int | str | None) -> None:
    """Within a write: the boards were dealt with ``seed`` (None: read from a file, no seed)."""
    if seed is None:
        store.conn.execute("DELETE FROM meta WHERE key = 'boards_seed'")
    else:
        store.conn.execute("INSERT INTO meta(key, value) VALUES ('boards_seed', ?) "
                           "ON CONFLICT(key) DO UPDATE SET value = excluded.value", [str(seed)])


def pair_numbers(store: "EventStore") -> dict[int, int]:
    """The movement's pair number -> the event's pair (partnership) id; empty before round 1."""
    if not store.has_table("duplicate_pairs"):
        return {}
    return {r["number"]: r["pair_id"] for r in store._rows("SELECT number, pair_id FROM duplicate_pairs")}


def insert_pair_numbers(store: "EventStore", numbers: dict[int, int]) -> None:
    """Within a write."""
    upgrade(store)
    store.conn.executemany("INSERT INTO duplicate_pairs(number, pair_id) VALUES (?, ?)", sorted(numbers.items()))


def insert_board_table(store: "EventStore", table_id: int, ns: int, ew: int, numbers: Sequence[int]) -> None:
    """Within a write: which movement pairs sit at a table and which boards it plays."""
    upgrade(store)
    store.conn.execute("INSERT INTO board_tables(table_id, ns, ew, boards) VALUES (?, ?, ?, ?)",
                       [table_id, ns, ew, json.dumps(list(numbers))])


def board_tables(store: "EventStore", round_no: int | None = None) -> list[dict[str, Any]]:
    """Each table's movement pairs and boards: ``round``, ``table``, ``table_id``, ``ns``, ``ew``,
    ``boards`` (a list), for one round or all, in order."""
    if not store.has_table("board_tables"):
        return []
    where, params = ("WHERE r.number = ?", [round_no]) if round_no is not None else ("", [])
    rows = store._rows("SELECT r.number AS round, t.number AS \"table\", t.id AS table_id, b.ns, b.ew, b.boards "
                       "FROM board_tables b JOIN round_tables t ON t.id = b.table_id JOIN rounds r ON r.id = t.round_id "
                       f"{where} ORDER BY r.number, t.number", params)
    for r in rows:
        r["boards"] = json.loads(r["boards"])
    return rows


def results(store: "EventStore") -> list[dict[str, Any]]:
    """Every board result: ``table_id``, ``board``, ``ns_points``, ``ew_points``, ``ended``,
    ``verified``, ``record_hash``, ``entered_at``, ``entered_by`` (not the record's text)."""
    if not store.has_table("board_results"):
        return []
    return store._rows("SELECT table_id, board, ns_points, ew_points, ended, verified, record_hash, entered_at, "
                       "entered_by FROM board_results ORDER BY table_id, board")


def results_at(store: "EventStore", table_ids: set[int]) -> set[tuple[int, int]]:
    """The (table id, board) pairs with a result among the tables ``table_ids`` (a few tables'
    rows, not the event's thousands: :func:`tournament.event.duplicate.not_played_boards`)."""
    if not table_ids or not store.has_table("board_results"):
        return set()
    ids = sorted(table_ids)
    found: set[tuple[int, int]] = set()
    for at in range(0, len(ids), 500):  # (SQLite's limit on a statement's parameters, kept well under)
        part = ids[at:at + 500]
        rows = store.conn.execute(f"SELECT table_id, board FROM board_results WHERE table_id IN "
                                  f"({', '.join('?' * len(part))})", part).fetchall()
        found.update((r[0], r[1]) for r in rows)
    return found


def played_tables(store: "EventStore") -> set[int]:
    """The ids of the duplicate tables with a result (or marked not played) on every board they play:
    their round is over there, as an ordinary table's is with its game's result."""
    done: dict[int, set[int]] = {}
    for table_id, board in settled(store):  # a board not played there is over there too
        done.setdefault(table_id, set()).add(board)
    return {t["table_id"] for t in board_tables(store) if set(t["boards"]) <= done.get(t["table_id"], set())}


#: A board a table did not play (``tournament result --board B --not-played``): no result, and none to
#: come, so the round can end there; a row of its own, not a result, so that nothing that scores or
#: shows results reads it as one.  Made by the first board marked so (an older file has none).
NOT_PLAYED_SCHEMA = ("CREATE TABLE IF NOT EXISTS board_not_played (table_id INTEGER NOT NULL "
                     "REFERENCES round_tables(id), board INTEGER NOT NULL REFERENCES boards(number), "
                     "reason TEXT NOT NULL, marked_at TEXT NOT NULL, marked_by TEXT, PRIMARY KEY (table_id, board))")


def not_played(store: "EventStore") -> list[dict[str, Any]]:
    """Every board marked not played at a table: ``table_id``, ``board``, ``reason``, ``marked_at``,
    ``marked_by``."""
    if not store.has_table("board_not_played"):
        return []
    return store._rows("SELECT table_id, board, reason, marked_at, marked_by FROM board_not_played "
                       "ORDER BY table_id, board")


def settled(store: "EventStore") -> set[tuple[int, int]]:
    """The (table id, board) pairs with nothing more to come: a result, or marked not played (in
    duplicate teams, at either table of the match: :func:`not_scored`)."""
    return {(r["table_id"], r["board"]) for r in results(store)} | not_scored(store)


def not_scored(store: "EventStore") -> set[tuple[int, int]]:
    """The (table id, board) pairs a mark "not played" takes out of the scoring: the marked table's,
    and in duplicate teams its match's other table's too.  A team match scores a board on both its
    tables together (the home team's net is the two tables' sum), so a board one table did not play
    is not scored in the match at all, as a board cancelled in a bridge team match: nothing is awaited
    at the other table either (a result it has there stays stored, and counts for nothing)."""
    marked = {(r["table_id"], r["board"]) for r in not_played(store)}
    if not marked or not store.settings.team_duplicate:
        return marked
    other = match_tables(store)
    return marked | {(other[t], b) for t, b in marked if t in other}


def match_tables(store: "EventStore", tables: "list | None" = None) -> dict[int, int]:
    """Duplicate teams: a table's id -> the id of its match's other table (the same round, the same
    two teams, in opposite directions); a table of no two-table match is left out.  ``tables``:
    of these tables only (one round's, which holds a table's match: not the event's every table,
    read for one table's partner)."""
    from tournament.pairing.teams import squad_of_players, table_sides
    from tournament.store.squads import squads

    squad_of = squad_of_players(squads(store), store.teams())
    found: dict[tuple[int, ...], list[int]] = {}
    for t in store.tables() if tables is None else tables:
        if all(s.player in squad_of for s in t.seats):
            sides = table_sides(t, squad_of)
            if len(sides) == 2:
                found.setdefault((t.round, *sorted(sides.values())), []).append(t.id)
    return {a: b for ids in found.values() if len(ids) == 2 for a, b in (ids, ids[::-1])}


def mark_not_played(store: "EventStore", table_id: int, number: int, reason: str, at: str, by: str | None) -> None:
    """Within a write: the table did not play the board (it has no result there)."""
    upgrade(store)
    store.conn.execute(NOT_PLAYED_SCHEMA)
    store.conn.execute("INSERT OR REPLACE INTO board_not_played(table_id, board, reason, marked_at, marked_by) "
                       "VALUES (?, ?, ?, ?, ?)", [table_id, number, reason, at, by])


def unmark_not_played(store: "EventStore", table_id: int, number: int) -> bool:
    """Within a write: the board is no longer marked not played at the table (its result comes);
    whether it was.  A mark a pair's withdrawal made is no longer that withdrawal's either: a mark
    made again by hand is the director's, which the pair's return leaves alone."""
    if not store.has_table("board_not_played"):
        return False
    if store.has_table("board_withdrawal_marks"):
        store.conn.execute("DELETE FROM board_withdrawal_marks WHERE table_id = ? AND board = ?", [table_id, number])
    return store.conn.execute("DELETE FROM board_not_played WHERE table_id = ? AND board = ?",
                              [table_id, number]).rowcount > 0


#: Which boards marked not played a pair's withdrawal marked (:mod:`tournament.event.duplicate_withdrawal`),
#: so that its return takes back those marks and no other.  Made by the first withdrawal that marks one.
WITHDRAWAL_MARKS_SCHEMA = ("CREATE TABLE IF NOT EXISTS board_withdrawal_marks (table_id INTEGER NOT NULL "
                           "REFERENCES round_tables(id), board INTEGER NOT NULL, pair_id INTEGER NOT NULL "
                           "REFERENCES teams(id), PRIMARY KEY (table_id, board))")


def mark_withdrawn(store: "EventStore", table_id: int, number: int, pair_id: int, reason: str, at: str,
                   by: str | None) -> None:
    """Within a write: the board marked not played at the table because the pair ``pair_id`` has
    withdrawn (:func:`mark_not_played`, and which withdrawal marked it)."""
    mark_not_played(store, table_id, number, reason, at, by)
    store.conn.execute(WITHDRAWAL_MARKS_SCHEMA)
    store.conn.execute("INSERT OR REPLACE INTO board_withdrawal_marks(table_id, board, pair_id) VALUES (?, ?, ?)",
                       [table_id, number, pair_id])


def pass_withdrawal_mark(store: "EventStore", table_id: int, number: int, pair_id: int, reason: str) -> None:
    """Within a write: the board's mark, made by one pair's withdrawal, kept as the withdrawal of
    ``pair_id`` (the other pair of the table, still gone while the first comes back), with its reason."""
    store.conn.execute("UPDATE board_not_played SET reason = ? WHERE table_id = ? AND board = ?",
                       [reason, table_id, number])
    store.conn.execute("UPDATE board_withdrawal_marks SET pair_id = ? WHERE table_id = ? AND board = ?",
                       [pair_id, table_id, number])


def withdrawal_mark_pairs(store: "EventStore") -> dict[tuple[int, int], int]:
    """(table id, board) -> the pair whose withdrawal marked the board not played there."""
    if not store.has_table("board_withdrawal_marks"):
        return {}
    return {(r["table_id"], r["board"]): r["pair_id"] for r in store._rows(
        "SELECT w.table_id, w.board, w.pair_id FROM board_withdrawal_marks w JOIN board_not_played n "
        "ON n.table_id = w.table_id AND n.board = w.board")}


def withdrawal_marks(store: "EventStore", pair_id: int) -> set[tuple[int, int]]:
    """The (table id, board) pairs still marked not played because the pair ``pair_id`` withdrew."""
    if not store.has_table("board_withdrawal_marks"):
        return set()
    return {(r["table_id"], r["board"]) for r in store._rows(
        "SELECT w.table_id, w.board FROM board_withdrawal_marks w JOIN board_not_played n "
        "ON n.table_id = w.table_id AND n.board = w.board WHERE w.pair_id = ?", [pair_id])}


def delete_result(store: "EventStore", table_id: int, number: int, at: str, by: str | None) -> None:
    """Within a write: take a table's result on a board back, kept whole in the audit table first."""
    old = store._rows("SELECT * FROM board_results WHERE table_id = ? AND board = ?", [table_id, number])
    if not old:
        return
    store.conn.execute("INSERT INTO board_result_audit(table_id, board, old_result, replaced_at, changed_by) "
                       "VALUES (?, ?, ?, ?, ?)", [table_id, number, json.dumps(old[0], ensure_ascii=False), at, by])
    store.conn.execute("DELETE FROM board_results WHERE table_id = ? AND board = ?", [table_id, number])


def result(store: "EventStore", table_id: int, number: int) -> dict[str, Any] | None:
    if not store.has_table("board_results"):
        return None
    found = store._rows("SELECT table_id, board, ns_points, ew_points, ended, verified, record_hash FROM "
                        "board_results WHERE table_id = ? AND board = ?", [table_id, number])
    return found[0] if found else None


def audit(store: "EventStore") -> list[dict[str, Any]]:
    """Every replaced board result, oldest first (``old_result`` its row as JSON)."""
    if not store.has_table("board_result_audit"):
        return []
    return store._rows("SELECT id, table_id, board, old_result, replaced_at, changed_by FROM board_result_audit "
                       "ORDER BY id")


def record_text(store: "EventStore", table_id: int, number: int) -> str | None:
    """The record a board result came from, as stored (None: a typed score)."""
    if not store.has_table("board_results"):
        return None
    found = store._rows("SELECT record FROM board_results WHERE table_id = ? AND board = ?", [table_id, number])
    return found[0]["record"] if found else None


def put_result(store: "EventStore", table_id: int, number: int, ns: int, ew: int, ended: str | None,
               verified: bool, record: str | None, digest: str | None, at: str, by: str | None) -> None:
    """Within a write: a table's result on a board; an earlier one there is kept in the audit table."""
    upgrade(store)
    old = store._rows("SELECT * FROM board_results WHERE table_id = ? AND board = ?", [table_id, number])
    if old:
        store.conn.execute("INSERT INTO board_result_audit(table_id, board, old_result, replaced_at, changed_by) "
                           "VALUES (?, ?, ?, ?, ?)", [table_id, number, json.dumps(old[0], ensure_ascii=False),
                                                      at, by])
    store.conn.execute("INSERT OR REPLACE INTO board_results(table_id, board, ns_points, ew_points, ended, verified, "
                       "record, record_hash, entered_at, entered_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [table_id, number, ns, ew, ended, int(verified), record, digest, at, by])
