"""The schema of an event file: its tables, the upgrades of older files, and the views people browse.

The file's identity (``application_id``, the ``meta`` table, the schema version) is checked by
:mod:`tournament.store.files`.  The schema is ready for the later stages of an event (brackets,
round robin): rounds belong to a *stage* with its own format, and a table is the unit a result
belongs to, so a knockout match can reference its tables.
"""

from __future__ import annotations

import sqlite3

import sqlite_utils

from tournament.settings import PARTNERSHIP_SIDES, Settings

#: SQLite ``PRAGMA application_id`` of an event file ("DomT").
APPLICATION_ID = 0x446F6D54
APPLICATION = "domrec-tournament"
#: The newest version of the store's schema this tool reads and writes (kept in the ``meta`` table).
#: Schema 6 (issue 25) adds the director's desk: its trail, its requests, players' federation ids
#: (:mod:`tournament.store.desk`), made by the first change of the desk.  Schema 7 (issue 25, prize
#: lists) adds the players' other columns (:mod:`tournament.store.fields`), made by the first players
#: CSV that has one.  Schema 8 (issue 36) adds the answers given to the phones' writes by their ids
#: (``venue_writes``, :mod:`tournament.store.venue`), made by the first write that carries one (the
#: director's page's writes are kept there too, with no change of schema).
#: Schema 9 (issue 37) adds a team event's teams, their pairs and reserves and the rounds' line-ups
#: (:mod:`tournament.store.squads`), made by the first team entered.  Schema 10 (issue 38) adds a
#: duplicate event's boards, its movement's pairs, each table's boards and each board's result there
#: (:mod:`tournament.store.boards`), made by the first boards stored.
SCHEMA_VERSION = 10
#: The version a new event file starts at: schema 5, as it holds the change log from its creation
#: (:data:`CHANGES_SCHEMA`; every later write appends to it, so a file of this tool would be schema 5
#: after its first change anyway).  The venue's tables (schema 4, :mod:`tournament.store.venue`) are
#: still added by the first venue write: a version says what a file may hold, not that it holds it.
CREATED_VERSION = 5


def create_schema(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key", not_null={"value"})
    db["stages"].create({"id": int, "name": str, "format": str, "settings": str}, pk="id",
                        not_null={"name", "format"})
    db["teams"].create({"id": int, "name": str, "entered_round": int, "withdrawn_round": int}, pk="id",
                       not_null={"name", "entered_round"})
    db["players"].create({"id": int, "name": str, "team_id": int, "entered_round": int, "withdrawn_round": int,
                          "added_at": str}, pk="id", not_null={"name", "entered_round", "added_at"},
                         foreign_keys=[("team_id", "teams", "id")])
    db["rounds"].create({"id": int, "stage_id": int, "number": int, "seed": str, "paired_at": str}, pk="id",
                        not_null={"stage_id", "number", "paired_at"},
                        foreign_keys=[("stage_id", "stages", "id")])
    db["round_tables"].create({"id": int, "round_id": int, "number": int}, pk="id",
                              not_null={"round_id", "number"}, foreign_keys=[("round_id", "rounds", "id")])
    db["seats"].create({"table_id": int, "seat": str, "side": str, "player_id": int, "position": int},
                       pk=("table_id", "seat"), not_null={"side", "player_id", "position"},
                       foreign_keys=[("table_id", "round_tables", "id"), ("player_id", "players", "id")])
    db["byes"].create({"round_id": int, "player_id": int}, pk=("round_id", "player_id"),
                      foreign_keys=[("round_id", "rounds", "id"), ("player_id", "players", "id")])
    # AUTOINCREMENT: a replaced result's id is never given to another (the audit refers to ids).
    db.execute("CREATE TABLE results (id INTEGER PRIMARY KEY AUTOINCREMENT, "
               "table_id INTEGER NOT NULL REFERENCES round_tables(id), kind TEXT NOT NULL, "
               "verified INTEGER NOT NULL, scores TEXT NOT NULL, winner TEXT, record TEXT, record_hash TEXT, "
               "entered_at TEXT NOT NULL, note TEXT, entered_by TEXT)")
    db["result_audit"].create({"id": int, "table_id": int, "old_result": str, "new_result_id": int,
                               "replaced_at": str, "reason": str}, pk="id",
                              not_null={"table_id", "old_result", "replaced_at"},
                              foreign_keys=[("table_id", "round_tables", "id")])
    create_audit_schema(db)
    db["standings_used"].create({"round_id": int, "unit": int, "rank": int, "values": str},
                                pk=("round_id", "unit"), foreign_keys=[("round_id", "rounds", "id")])
    create_stage_schema(db)
    create_changes_schema(db.conn)
    db.execute("CREATE UNIQUE INDEX ux_players_name ON players(name)")
    db.execute("CREATE UNIQUE INDEX ux_teams_name ON teams(name)")
    db.execute("CREATE UNIQUE INDEX ux_rounds_number ON rounds(stage_id, number)")
    db.execute("CREATE UNIQUE INDEX ux_tables_number ON round_tables(round_id, number)")
    db.execute("CREATE UNIQUE INDEX ux_results_table ON results(table_id)")
    db.execute("CREATE INDEX ix_results_hash ON results(record_hash)")
    db.execute("CREATE INDEX ix_seats_player ON seats(player_id)")


#: Schema 2 (issue 8): knockout and round-robin stages.  ``matches`` lists a stage's draw (the
#: matches of a bracket, the pairings of a round robin); ``match_tables`` says which match each of a
#: stage's tables is a game of.  A schema-1 file gets them, in the transaction that adds its first
#: stage (:meth:`EventStore.upgrade_for_stages`); until then it stays a schema-1 file.
STAGE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS matches (id INTEGER PRIMARY KEY, stage_id INTEGER NOT NULL REFERENCES stages(id), "
    "key TEXT NOT NULL, round_number INTEGER NOT NULL, position INTEGER NOT NULL, label TEXT NOT NULL, "
    "sources TEXT NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS ux_matches_key ON matches(stage_id, key)",
    "CREATE TABLE IF NOT EXISTS match_tables (table_id INTEGER PRIMARY KEY REFERENCES round_tables(id), "
    "match_id INTEGER NOT NULL REFERENCES matches(id), game INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS ux_match_tables_game ON match_tables(match_id, game)",
)


#: The ``standings`` snapshot's columns where the data key would read like its neighbour ("won"
#: beside "wins"): these count games.
SNAPSHOT_NAMES = {"won": "games_won", "drawn": "games_drawn", "lost": "games_lost", "id": "number"}


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def tables_view_sql(settings: Settings) -> str:
    """``tables_view``: a row a table, as a person reads it: round, stage, table, each seat's
    player by name (a column a seat, in seating order), the result's kind, each side's score as a
    number (a column a side, in seating order; not the JSON text ``results`` keeps), the winning
    side, and whether a record backs the result.  The event's seats never change, so the view is
    made for them; a view cannot take parameters, so a label goes into its SQL only when it is
    letters and digits (every engine's seats and sides are)."""
    seats = settings.seats()
    sides = list(PARTNERSHIP_SIDES) if settings.partnership else list(seats)
    seat_cols = [f"(SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id WHERE s.table_id = t.id "
                 f"AND s.seat = '{seat}') AS {quote(seat)}" for seat in seats if seat.isalnum()]
    score_cols = [f"json_extract(x.scores, '$.{side}') AS {quote(side + ' score')}" for side in sides
                  if side.isalnum()]
    return ("CREATE VIEW tables_view AS SELECT r.number AS round, r.stage_id AS stage, "
            't.number AS "table", ' + ", ".join(seat_cols + ["x.kind AS result"] + score_cols) +
            ", x.winner AS winner, x.verified AS verified, x.entered_at AS entered_at "
            "FROM round_tables t JOIN rounds r ON r.id = t.round_id LEFT JOIN results x ON x.table_id = t.id "
            "ORDER BY r.number, t.number")


def audit_view_sql(audit_columns: bool, desk: bool) -> str:
    """``audit_view``: the whole audit trail, a row a change, oldest first, as a person reads it:
    ``at``, ``by``, ``action`` (``result_replaced``, or the desk's: ``round_unpaired``,
    ``player_renamed``, …), ``round``, ``table``, ``before`` and ``after`` (a replaced result's
    kind and scores; the desk's change as its JSON detail, in ``after``), ``reason``.  Made for the
    tables the file has (a file without the desk's trail has no desk rows; one from before schema 3
    names nobody)."""
    by = "a.changed_by" if audit_columns else "NULL"
    after = ("json_extract(a.new_result, '$.kind') || ' ' || json_extract(a.new_result, '$.scores')"
             if audit_columns else "NULL")
    parts = [f"SELECT a.replaced_at AS at, {by} AS by, 'result_replaced' AS action, r.number AS round, "
             "t.number AS \"table\", json_extract(a.old_result, '$.kind') || ' ' || "
             f"json_extract(a.old_result, '$.scores') AS before, {after} AS after, a.reason AS reason "
             "FROM result_audit a LEFT JOIN round_tables t ON t.id = a.table_id LEFT JOIN rounds r ON r.id = t.round_id"]
    if desk:
        parts.append("SELECT d.at, d.changed_by, d.action, d.round, NULL, NULL, d.detail, d.reason FROM desk_log d")
    return "CREATE VIEW audit_view AS " + " UNION ALL ".join(parts) + " ORDER BY at"


def create_stage_schema(db: sqlite_utils.Database) -> None:
    for sql in STAGE_SCHEMA:
        db.execute(sql)


#: Schema 3 (issue 14): the audit trail says who changed a result and what it became.
#: ``changed_by`` is the director's name (``--by``, else the login name); ``new_result`` the new
#: values (kind, verified, scores, winner, record hash) as JSON, so that the trail reads on its own
#: even once that result is amended again.  An older file gets the two columns, and becomes schema
#: 3, in the transaction of its first replaced result (:meth:`EventStore.upgrade_for_audit`); its
#: earlier audit rows keep no name (shown as unknown) and their new values are looked up.
AUDIT_SCHEMA_VERSION = 3
AUDIT_COLUMNS = (("changed_by", "TEXT"), ("new_result", "TEXT"))


def create_audit_schema(db: sqlite_utils.Database) -> None:
    have = {r[1] for r in db.execute("PRAGMA table_info(result_audit)").fetchall()}
    for name, kind in AUDIT_COLUMNS:
        if name not in have:
            db.execute(f"ALTER TABLE result_audit ADD COLUMN {name} {kind}")


#: Schema 5 (issue 24): the change log, one row a change people can see (:mod:`tournament.store.changes`).
#: ``seq`` AUTOINCREMENT: numbers only grow, and a number once committed is never another row's.
#: A file made before gets it, and becomes schema 5, in the transaction of its first change.
CHANGES_SCHEMA_VERSION = 5
CHANGES_SCHEMA = (
    ("CREATE TABLE IF NOT EXISTS changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, "
     "kind TEXT NOT NULL, round INTEGER, table_no INTEGER, data TEXT NOT NULL)"),
    # A round's tables' statuses are read by (kind, round, table): one small index.
    "CREATE INDEX IF NOT EXISTS ix_changes_kind_round ON changes(kind, round, table_no)",
)


def create_changes_schema(conn: sqlite3.Connection) -> None:
    for sql in CHANGES_SCHEMA:
        conn.execute(sql)
