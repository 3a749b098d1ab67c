"""The venue's tables in the event file: tokens, each table's log of accepted requests, calls
to the director, players' PINs.  All of the venue's SQL is here.

Schema 4 (issue 23).  An older file gets these tables, and becomes schema 4, in the
transaction of its first venue write (:func:`upgrade_for_venue`: ``tournament links``,
``pins`` or ``serve``); until then it stays the file it was, and older tools still read it.

* ``venue_tokens``: the unguessable keys of the venue's pages: one for the director, one
  per table of a round (its row names the table).  Kept in clear: ``tournament links`` prints
  them again at any time, and the event file is the director's.  The director's PIN (kind
  ``director_pin``, typed on a table's page to correct that table's game there) is kept among
  them; it is not a key, and :func:`token_rows` never lists it as one.  A key changed (``tournament
  keys --rotate…``, the director's page) is its row with another key and ``created_at`` the time
  of the change: the old key is in no row, so it opens nothing from the next request on.
* ``venue_log``: each table's accepted writes, in order, one row each; the primary key
  (table, rev) is the table's revision, so a write is stored once or not at all, never
  twice.  ``kind`` is ``dgn`` (DGN lines the table recorded, ``undo`` among them), ``mode``
  (play by play or scores only), ``confirm`` (a side or seat confirmed the result), ``call``
  and ``clear`` (the director called and the call cleared), ``correct`` (the director's
  correction of the game) and, at a duplicate table, ``board`` (a board closed: confirmed by
  the table, ``{"board", "side"}``, or its result entered over the phone's play of it,
  ``{"board", "entered": "director"}``).  Nothing is ever updated or
  deleted: a table's state is its log replayed.
* ``venue_pins``: each player's 4-digit PIN for confirming with ``serve --pins``.
* ``venue_pin_tries``: each table's wrong PINs (``wrong``) and, after too many, until when its
  confirmations wait (``wait_until``, UTC).  Made by the first wrong PIN (:func:`add_wrong_pin`,
  within the write that answers it), so that a server killed and started again still makes the
  table wait; a file without it has had no wrong PIN.  Older tools ignore it.
* ``results.entered_via``: where a result came from (``table`` page, ``director`` page; a
  result entered at the command line leaves it empty).
* ``venue_writes`` (schema 8, issue 36): each write a phone sent with its own id (``cid``), and
  what it was answered: the revision it became in ``venue_log`` and what was said of it, or the
  refusal.  A write sent again with the same id (a retry after a lost answer, a queued write sent
  twice) is answered from here and applied nothing again.  A table's own refused writes are kept
  up to 1,000 refusals a table (``table_log.MAX_REFUSALS``): past that one is answered but not
  kept, and sent again it is judged again (and refused again); a write taken is always kept.
  The director's page's writes that are no write of the table's log (a result entered or taken
  back, wrong PINs cleared, a new key, the next round paired) are kept here too, their answer
  naming the write (``{"write": "key", …}``) and their ``rev`` empty: each with its table; the
  next round paired with the first table (lowest id) of the round it made, a refusal of it with
  the last round's (:func:`answered_by_a_round`).  A round taken back (``tournament unpair``)
  takes its tables' rows with it.  ``made_at`` is when a queued write was made, by the phone's clock (kept as sent, never used to order anything); ``at`` when the server
  took it.  Made, and the file becomes schema 8, in the transaction of the first write that
  carries an id; older tools ignore it.
* ``venue_refusals_unkept``: each table's refused writes past that cap, counted (``refused``; those
  made offline, ``offline``, and when the last of them came, ``offline_at``), so that the director's
  page counts a table's refused offline writes truly however many came (:func:`queued_writes`).
  Made by the first refusal not kept, within the write that counts it; older tools ignore it.
* ``meta`` rows ``venue_director_pin_misses`` and ``venue_director_pin_wait_until``: the wrong
  director's PINs typed at all the event's tables together, and until when the director's PIN
  waits at every table (:func:`director_pin_misses`); kept in the file for the same reason as
  ``venue_pin_tries``.  Older tools ignore them.
"""

from __future__ import annotations

import json
import secrets

from tournament.store.event_store import EventStore

VENUE_SCHEMA_VERSION = 4
VENUE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS venue_tokens (token TEXT PRIMARY KEY, kind TEXT NOT NULL, "
    "table_id INTEGER REFERENCES round_tables(id), created_at TEXT NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS ux_venue_tokens_table ON venue_tokens(table_id) WHERE table_id IS NOT NULL",
    "CREATE TABLE IF NOT EXISTS venue_log (table_id INTEGER NOT NULL REFERENCES round_tables(id), "
    "rev INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, rev))",
    "CREATE TABLE IF NOT EXISTS venue_pins (player_id INTEGER PRIMARY KEY REFERENCES players(id), pin TEXT NOT NULL)",
)
#: 128 bits at least, as the venue requires: 24 random bytes, 32 URL-safe characters.
TOKEN_BYTES = 24



def has_venue(store: EventStore) -> bool:
    return store.has_table("venue_log")


def upgrade_for_venue(store: EventStore) -> None:
    """Within a write: the venue's tables, and ``results.entered_via``, for a file without them."""
    if has_venue(store):
        return
    for sql in VENUE_SCHEMA:
        store.db.execute(sql)
    have = {r[1] for r in store.conn.execute("PRAGMA table_info(results)").fetchall()}
    if "entered_via" not in have:
        store.db.execute("ALTER TABLE results ADD COLUMN entered_via TEXT")
    store._bump_schema(VENUE_SCHEMA_VERSION)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def director_token(store: EventStore) -> str | None:
    row = store.conn.execute("SELECT token FROM venue_tokens WHERE kind = 'director'").fetchone()
    return row[0] if row else None


def insert_token(store: EventStore, kind: str, table_id: int | None, at: str) -> str:
    token = new_token()
    store.db.execute("INSERT INTO venue_tokens(token, kind, table_id, created_at) VALUES (?, ?, ?, ?)",
                     [token, kind, table_id, at])
    return token


def table_tokens(store: EventStore, table_ids: list[int]) -> dict[int, str]:
    if not table_ids or not has_venue(store):
        return {}
    marks = ",".join("?" * len(table_ids))
    return {r[0]: r[1] for r in store.conn.execute(
        f"SELECT table_id, token FROM venue_tokens WHERE kind = 'table' AND table_id IN ({marks})", table_ids)}


def replace_token(store: EventStore, kind: str, table_id: int | None, at: str) -> str | None:
    """Within a write: the director's key (``kind`` ``director``), the director's PIN
    (``director_pin``) or a table's key, replaced by a new one made ``at``; ``None`` if there was
    none to replace."""
    token = new_token()
    if kind in ("director", "director_pin"):  # the director's PIN is changed with the director's key
        if kind == "director_pin":
            token = f"{secrets.randbelow(10 ** DIRECTOR_PIN_DIGITS):0{DIRECTOR_PIN_DIGITS}d}"
        cur = store.db.execute("UPDATE venue_tokens SET token = ?, created_at = ? WHERE kind = ?",
                               [token, at, kind])
    else:
        cur = store.db.execute("UPDATE venue_tokens SET token = ?, created_at = ? WHERE kind = 'table' "
                               "AND table_id = ?", [token, at, table_id])
    return token if cur.rowcount else None


def token_dates(store: EventStore) -> list[tuple[str, int | None, str]]:
    """Every key there is, without the key itself: (kind, table id, when it was made or last changed)."""
    if not has_venue(store):
        return []
    return [(r[0], r[1], r[2]) for r in store.conn.execute(
        "SELECT kind, table_id, created_at FROM venue_tokens ORDER BY kind = 'table', table_id")]


def file_stamp(store: EventStore) -> tuple[int, int]:
    """What moves whenever the file may have changed: SQLite's ``data_version`` (another connection,
    another process, committed something) and the rows this connection has changed (its own
    writes, rolled back or not).  The same stamp twice: nothing was written between."""
    return store.conn.execute("PRAGMA data_version").fetchone()[0], store.conn.total_changes


def token_rows(store: EventStore) -> dict[str, tuple[str, int | None]]:
    """Every key and what it opens: key -> (kind, table id).  The director's PIN, kept beside
    the keys, opens nothing as a key and is not among them.

    A key given by a request is looked up in this dictionary, never by ``WHERE token = ?``: an
    index's comparisons stop at the first byte that differs, and the time they take could tell
    a patient guesser how much of a key was right.  A dictionary compares strings only once their
    hashes (keyed afresh in every process) agree, which a guess does not choose."""
    if not has_venue(store):
        return {}
    return {r[0]: (r[1], r[2]) for r in store.conn.execute(
        "SELECT token, kind, table_id FROM venue_tokens WHERE kind IN ('director', 'table')")}


#: The director's PIN: six digits, typed on a table's phone (a player's PIN has four).
DIRECTOR_PIN_DIGITS = 6


def director_pin(store: EventStore) -> str | None:
    """The director's PIN, or ``None`` before it was made."""
    if not has_venue(store):
        return None
    row = store.conn.execute("SELECT token FROM venue_tokens WHERE kind = 'director_pin'").fetchone()
    return row[0] if row else None


def insert_director_pin(store: EventStore, at: str) -> str:
    """Within a write: the director's PIN made (once: :func:`director_pin` first)."""
    pin = f"{secrets.randbelow(10 ** DIRECTOR_PIN_DIGITS):0{DIRECTOR_PIN_DIGITS}d}"
    store.db.execute("INSERT INTO venue_tokens(token, kind, table_id, created_at) VALUES (?, 'director_pin', NULL, ?)",
                     [pin, at])
    return pin


def log(store: EventStore, table_id: int, after: int = 0) -> list[tuple[int, str, str, str]]:
    """A table's accepted writes in order: (rev, kind, body, at); those after revision ``after``."""
    if not has_venue(store):
        return []
    return [tuple(r) for r in store.conn.execute(
        "SELECT rev, kind, body, at FROM venue_log WHERE table_id = ? AND rev > ? ORDER BY rev", [table_id, after])]


def row(store: EventStore, table_id: int, rev: int) -> tuple[int, str, str, str] | None:
    """A table's accepted write number ``rev`` (rev, kind, body, at), or ``None``: one lookup of the
    primary key."""
    if not has_venue(store):
        return None
    found = store.conn.execute("SELECT rev, kind, body, at FROM venue_log WHERE table_id = ? AND rev = ?",
                               [table_id, rev]).fetchone()
    return tuple(found) if found else None


def revision(store: EventStore, table_id: int) -> int:
    if not has_venue(store):
        return 0
    row = store.conn.execute("SELECT MAX(rev) FROM venue_log WHERE table_id = ?", [table_id]).fetchone()
    return row[0] or 0


def append(store: EventStore, table_id: int, rev: int, kind: str, body: str, at: str) -> None:
    """Within a write: the table's write number ``rev`` (its primary key refuses a second one)."""
    store.conn.execute("INSERT INTO venue_log(table_id, rev, kind, body, at) VALUES (?, ?, ?, ?, ?)",
                       [table_id, rev, kind, body, at])


def close_board(store: EventStore, table_id: int, board: int, at: str, not_played: bool = False) -> None:
    """Within a write: a duplicate table's board closed in its log because its result was entered
    over the phone's play of it (``tournament result --board B --replace``): a ``board`` row, as
    the phone's second confirmation writes, at the table's next revision, saying so (``entered``)
    in place of the side that confirmed (see :func:`tournament.event.duplicate._put`).
    ``not_played``: marked not played over the phone's play of it (``--not-played --replace``:
    time ran out mid-hand), said in the row (``"not_played": true``) for the phone to tell."""
    body = {"board": board, "entered": "director", **({"not_played": True} if not_played else {})}
    append(store, table_id, revision(store, table_id) + 1, "board", json.dumps(body), at)


def last_writes(store: EventStore) -> dict[int, tuple[int, str]]:
    """Every table's revision and the time of its last write."""
    if not has_venue(store):
        return {}
    return {r[0]: (r[1], r[2]) for r in store.conn.execute(
        "SELECT table_id, MAX(rev), MAX(at) FROM venue_log GROUP BY table_id")}


def pins(store: EventStore) -> dict[int, str]:
    if not has_venue(store):
        return {}
    return {r[0]: r[1] for r in store.conn.execute("SELECT player_id, pin FROM venue_pins")}


def insert_pin(store: EventStore, player_id: int, pin: str) -> None:
    store.db.execute("INSERT INTO venue_pins(player_id, pin) VALUES (?, ?)", [player_id, pin])


PIN_TRIES_SCHEMA = ("CREATE TABLE IF NOT EXISTS venue_pin_tries (table_id INTEGER PRIMARY KEY "
                    "REFERENCES round_tables(id), wrong INTEGER NOT NULL, wait_until TEXT)")


def pin_tries(store: EventStore, table_id: int) -> tuple[int, str | None]:
    """A table's wrong PINs so far and until when its confirmations wait (``None``: they do not)."""
    if not store.has_table("venue_pin_tries"):
        return 0, None
    row = store.conn.execute("SELECT wrong, wait_until FROM venue_pin_tries WHERE table_id = ?",
                             [table_id]).fetchone()
    return (int(row[0]), row[1]) if row else (0, None)


def every_pin_tries(store: EventStore, table_ids: list[int]) -> dict[int, tuple[int, str | None]]:
    """:func:`pin_tries` of each table that has had a wrong PIN, among ``table_ids``."""
    if not table_ids or not store.has_table("venue_pin_tries"):
        return {}
    marks = ",".join("?" * len(table_ids))
    return {r[0]: (int(r[1]), r[2]) for r in store.conn.execute(
        f"SELECT table_id, wrong, wait_until FROM venue_pin_tries WHERE table_id IN ({marks})", table_ids)}


def add_wrong_pin(store: EventStore, table_id: int) -> int:
    """Within a write: one more wrong PIN at the table; how many it has had now."""
    store.db.execute(PIN_TRIES_SCHEMA)
    store.db.execute("INSERT INTO venue_pin_tries(table_id, wrong) VALUES (?, 1) "
                     "ON CONFLICT(table_id) DO UPDATE SET wrong = wrong + 1", [table_id])
    return int(store.conn.execute("SELECT wrong FROM venue_pin_tries WHERE table_id = ?", [table_id]).fetchone()[0])


def set_pin_wait(store: EventStore, table_id: int, until: str | None) -> None:
    """Within a write, after :func:`add_wrong_pin`: until when the table's confirmations wait."""
    store.db.execute("UPDATE venue_pin_tries SET wait_until = ? WHERE table_id = ?", [until, table_id])


def clear_pin_tries(store: EventStore, table_id: int) -> None:
    """Within a write: the table's wrong PINs forgotten (the director cleared them)."""
    if store.has_table("venue_pin_tries"):
        store.db.execute("DELETE FROM venue_pin_tries WHERE table_id = ?", [table_id])


#: The ``meta`` keys of the event-wide count of wrong director's PINs (see :func:`director_pin_misses`).
_DIRECTOR_MISSES, _DIRECTOR_WAIT = "venue_director_pin_misses", "venue_director_pin_wait_until"


def director_pin_misses(store: EventStore) -> tuple[int, str | None]:
    """Wrong director's PINs at all the event's tables together since the director last cleared a
    table's, and until when the director's PIN waits at every table (UTC; ``None``: it does not).
    Kept in the file (two ``meta`` rows, made by the first wrong one), as each table's count is,
    so that a server killed and started again still makes every table wait."""
    misses = _meta(store, _DIRECTOR_MISSES)
    wrong = int(misses) if misses is not None and misses.isascii() and misses.isdigit() else 0
    return wrong, _meta(store, _DIRECTOR_WAIT) or None


def add_director_pin_miss(store: EventStore) -> int:
    """Within a write: one more wrong director's PIN at the event's tables; how many there were now."""
    wrong = director_pin_misses(store)[0] + 1
    _set_meta(store, _DIRECTOR_MISSES, str(wrong))
    return wrong


def set_director_pin_wait(store: EventStore, until: str) -> None:
    """Within a write, after :func:`add_director_pin_miss`: until when every director's PIN waits."""
    _set_meta(store, _DIRECTOR_WAIT, until)


def clear_director_pin_misses(store: EventStore) -> None:
    """Within a write: the event-wide wrong director's PINs forgotten (the director cleared a table's)."""
    store.db.execute("DELETE FROM meta WHERE key IN (?, ?)", [_DIRECTOR_MISSES, _DIRECTOR_WAIT])


WRITES_SCHEMA_VERSION = 8
WRITES_SCHEMA = ("CREATE TABLE IF NOT EXISTS venue_writes (table_id INTEGER NOT NULL REFERENCES round_tables(id), "
                 "cid TEXT NOT NULL, rev INTEGER, status INTEGER NOT NULL, answer TEXT NOT NULL, made_at TEXT, "
                 "at TEXT NOT NULL, PRIMARY KEY (table_id, cid)) WITHOUT ROWID")


def answered(store: EventStore, table_id: int, cid: str) -> tuple[int | None, int, str] | None:
    """What the write ``cid`` of the table was answered, if it came before: (the revision it became,
    or ``None`` for a refusal; the status; the answer as JSON).  One lookup of the primary key."""
    if not store.has_table("venue_writes"):
        return None
    row = store.conn.execute("SELECT rev, status, answer FROM venue_writes WHERE table_id = ? AND cid = ?",
                             [table_id, cid]).fetchone()
    return (row[0], int(row[1]), row[2]) if row else None


def answered_by_a_round(store: EventStore, cid: str) -> tuple[int | None, int, str] | None:
    """:func:`answered` for a write of the whole event (the director's page pairing the next round),
    kept with the first table (the lowest id) of a round: looked up there in every round, one
    lookup of the primary key a round."""
    if not store.has_table("venue_writes"):
        return None
    row = store.conn.execute("SELECT rev, status, answer FROM venue_writes WHERE cid = ? AND table_id IN "
                             "(SELECT MIN(id) FROM round_tables GROUP BY round_id)", [cid]).fetchone()
    return (row[0], int(row[1]), row[2]) if row else None


def remember_answer(store: EventStore, table_id: int, cid: str, rev: int | None, status: int, answer: str,
                    made_at: str | None, at: str) -> None:
    """Within the write it answers (or, for a refusal, a write of its own): the write ``cid`` was
    answered so (the file becomes schema 8 at the first)."""
    if not store.has_table("venue_writes"):
        store.conn.execute(WRITES_SCHEMA)
        store._bump_schema(WRITES_SCHEMA_VERSION)
    store.conn.execute("INSERT INTO venue_writes(table_id, cid, rev, status, answer, made_at, at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", [table_id, cid, rev, status, answer, made_at, at])


def refusals_kept(store: EventStore, table_id: int) -> int:
    """How many refused writes are kept with the table: its own, its wrong PINs, the director's
    writes at it (the cap on a table's own: :data:`tournament.event.table_log.MAX_REFUSALS`)."""
    if not store.has_table("venue_writes"):
        return 0
    return int(store.conn.execute("SELECT COUNT(*) FROM venue_writes WHERE table_id = ? AND status != 200",
                                  [table_id]).fetchone()[0])


UNKEPT_SCHEMA = ("CREATE TABLE IF NOT EXISTS venue_refusals_unkept (table_id INTEGER PRIMARY KEY "
                 "REFERENCES round_tables(id), refused INTEGER NOT NULL, offline INTEGER NOT NULL, offline_at TEXT)")


def add_unkept_refusal(store: EventStore, table_id: int, made_at: str | None, at: str) -> None:
    """Within a write: one more refused write of the table past the cap of those kept (made
    offline when it has ``made_at``; ``at``, when the server had it): counted, so the count the
    director sees stays true.  One small row a table, however many come."""
    offline = made_at is not None
    store.conn.execute(UNKEPT_SCHEMA)
    store.conn.execute("INSERT INTO venue_refusals_unkept(table_id, refused, offline, offline_at) "
                       "VALUES (?, 1, ?, ?) ON CONFLICT(table_id) DO UPDATE SET refused = refused + 1, "
                       "offline = offline + excluded.offline, offline_at = COALESCE(excluded.offline_at, offline_at)",
                       [table_id, int(offline), at if offline else None])


def unkept_refusals(store: EventStore, table_id: int) -> int:
    """How many of the table's refused writes came past the cap and were not kept (0: none)."""
    if not store.has_table("venue_refusals_unkept"):
        return 0
    row = store.conn.execute("SELECT refused FROM venue_refusals_unkept WHERE table_id = ?", [table_id]).fetchone()
    return int(row[0]) if row else 0


def queued_writes(store: EventStore, table_ids: list[int]) -> dict[int, tuple[int, int, str]]:
    """Each table's writes made offline on its phone (sent with ``made_at``), among ``table_ids``:
    (how many were taken, how many refused, when the server last had one).  The refused count
    those past the cap of refusals kept too (:func:`add_unkept_refusal`)."""
    if not table_ids or not store.has_table("venue_writes"):
        return {}
    marks = ",".join("?" * len(table_ids))
    found = {r[0]: (int(r[1]), int(r[2]), r[3]) for r in store.conn.execute(
        f"SELECT table_id, SUM(status = 200), SUM(status != 200), MAX(at) FROM venue_writes "
        f"WHERE table_id IN ({marks}) AND made_at IS NOT NULL GROUP BY table_id", table_ids)}
    if store.has_table("venue_refusals_unkept"):
        for table_id, offline, at in store.conn.execute(
                f"SELECT table_id, offline, offline_at FROM venue_refusals_unkept "
                f"WHERE table_id IN ({marks}) AND offline > 0", table_ids):
            taken, refused, last = found.get(table_id, (0, 0, at))
            found[table_id] = (taken, refused + int(offline), max(last, at))
    return found


def set_entered_via(store: EventStore, table_id: int, via: str) -> None:
    store.db.execute("UPDATE results SET entered_via = ? WHERE table_id = ?", [via, table_id])


def entered_via(store: EventStore, table_id: int) -> str | None:
    if not has_venue(store):
        return None
    row = store.conn.execute("SELECT entered_via FROM results WHERE table_id = ?", [table_id]).fetchone()
    return row[0] if row else None


def remembered_url(store: EventStore) -> str | None:
    """The address ``tournament serve`` last printed its links with (``links`` and ``sheets`` reuse it)."""
    return _meta(store, "venue_url")


def remember_url(store: EventStore, url: str) -> None:
    _set_meta(store, "venue_url", url)


def remembered_hall_url(store: EventStore, given: bool = False) -> str | None:
    """The hall's address ``tournament serve`` last printed (its own process's, or the server's own);
    ``given``: the one given to it with ``--hall-url`` beside ``--url`` ("": none)."""
    return _meta(store, "venue_hall_url_given" if given else "venue_hall_url")


def remember_hall_url(store: EventStore, url: str, given: bool = False) -> None:
    _set_meta(store, "venue_hall_url_given" if given else "venue_hall_url", url)


def given_url(store: EventStore) -> str | None:
    """The address last given to ``serve`` with ``--url`` (kept for the next ``serve`` without it)."""
    return _meta(store, "venue_url_given")


def remember_given_url(store: EventStore, url: str) -> None:
    _set_meta(store, "venue_url_given", url)


def printed_url(store: EventStore) -> str | None:
    """The address the links and score sheets last made (``links``, ``sheets``) point to."""
    return _meta(store, "venue_printed_url")


def remember_printed_url(store: EventStore, url: str) -> None:
    _set_meta(store, "venue_printed_url", url)


def _meta(store: EventStore, key: str) -> str | None:
    row = store.conn.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def _set_meta(store: EventStore, key: str, value: str) -> None:
    store.db.execute("INSERT INTO meta(key, value) VALUES (?, ?) "
                     "ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value])
