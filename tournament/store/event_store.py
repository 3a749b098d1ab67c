"""One open event file: every read and every write of an event, as plain SQL over sqlite-utils.

Reads are plain; every write is one transaction (:meth:`EventStore.write`).  After a write that
changed something, what people browse with any SQLite browser is brought up to date in the same
transaction (:meth:`EventStore.refresh_browsing`): the ``tables_view`` view, made here, and the
``standings`` snapshot, whose rows the event layer computes (:attr:`EventStore.browsing`) — the
store never ranks anything itself.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any, Callable, Collection, Iterator, Sequence

import sqlite_utils

from tournament.errors import AmbiguousPlayer, DamagedEventFile, Refused, UnknownPlayer
from tournament.names import did_you_mean, name_key, normalise_name
from tournament.settings import Settings
from tournament.store.damage import Damage, find_damage
from tournament.store.schema import (AUDIT_COLUMNS, AUDIT_SCHEMA_VERSION, SNAPSHOT_NAMES, create_audit_schema,
                                     create_stage_schema, quote, tables_view_sql, audit_view_sql)
from tournament.store.sqlite import OnWait, now, transaction, writes as sqlite_writes
from tournament.values import Player, Result, Round, SeatAssignment, Table, Team

#: What people browse, computed above the store: the ``standings`` snapshot of an open event as its
#: columns (data keys) and rows, or None when the event cannot be ranked (no snapshot is kept then).
Browsing = Callable[["EventStore"], "tuple[list[str], list[tuple[Any, ...]]] | None"]


class EventStore:
    """One open event file.  Reads are plain; writes go through :meth:`write`."""

    def __init__(self, path: Path, conn: sqlite3.Connection, settings: Settings, event_uuid: str,
                 browsing: Browsing | None = None) -> None:
        self.path = path
        self.conn = conn
        self.db = sqlite_utils.Database(conn, execute_plugins=False)
        self.settings = settings
        self.uuid = event_uuid
        self.conn.execute("PRAGMA foreign_keys = ON")
        self._sound = False  # checked with quick_check before the first write
        #: Set by a bulk writer (``simulate``: hundreds of results in a row) that refreshes what people
        #: browse once at its end (:meth:`refresh_browsing`) instead of after every write.
        self.defer_browsing = False
        #: Who is entering results through this connection (a command's ``--by``, the venue's phone
        #: or director's page): kept with each result as first entered (:mod:`tournament.store.entries`);
        #: None: the login name.
        self.author: str | None = None
        self._browsing_stale = False
        #: How many changes of the event's log were appended through this connection (rolled back or
        #: not): the venue's live stream looks at the file at once when it moves, not at every move.
        self.changes_logged = 0
        self._tables_seen: set[str] = set()
        #: Within :meth:`read_once`: the whole event's players and tables as first read in it.
        self._once: dict[str, list[Any]] | None = None
        self._group = False  # within :meth:`group`: each write a savepoint of the group's transaction
        #: Computes the ``standings`` snapshot people browse (:meth:`refresh_browsing`): set by the
        #: event layer, which opens and creates every event (:mod:`tournament.event.files`); a
        #: store opened without it keeps no snapshot.
        self.browsing = browsing
        #: Told once a write has to wait for its turn, another program holding the file
        #: (:func:`tournament.store.sqlite.begin`): a command says so; None: waited in silence.
        self.on_wait: OnWait | None = None

    def close(self) -> None:
        """Close the file, bringing what people browse up to date first if writes were deferred."""
        with contextlib.suppress(sqlite3.Error):  # never lose a command's success to the snapshot
            self.bring_browsing_up_to_date()
        self.conn.close()

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @contextlib.contextmanager
    def write(self) -> Iterator["EventStore"]:
        """One write transaction: all of it lands, or none of it.

        Before the first write, the file is checked (``PRAGMA quick_check``):
        nothing is ever written into a damaged event file."""
        if not self._sound:
            try:
                verdict = [r[0] for r in self.conn.execute("PRAGMA quick_check").fetchall()]
            except sqlite3.DatabaseError as e:
                raise DamagedEventFile(f"{self.path} is damaged ({e}); nothing was written — run `tournament "
                                       f"check {self.path}` to see what is affected") from None
            if verdict != ["ok"]:
                detail = " ".join(verdict[0].replace("*** in database main ***", "").split())
                raise DamagedEventFile(f"{self.path} is damaged ({detail}); nothing was written — "
                                     f"run `tournament check`, and restore it from a copy")
            self._sound = True
        try:
            with transaction(self.conn, within=self._group, on_wait=self.on_wait):
                changes = self.conn.total_changes
                yield self
                if self.conn.total_changes != changes:
                    if self.defer_browsing:
                        self._browsing_stale = True
                    else:
                        self.refresh_browsing()
        except BaseException:
            self._tables_seen.clear()  # a table this write made is gone with it
            raise

    @contextlib.contextmanager
    def group(self) -> Iterator["EventStore"]:
        """Writes made within it are committed together at its end, each still all or nothing on
        its own (a savepoint of the group's transaction): one flush to disk for many writes, where
        a flush a write would queue each behind the others' (the venue: a hundred tables' moves a
        second).  Whoever answers for a write made within it answers once the group is over: a
        group that fails to commit takes every write in it back."""
        try:
            with transaction(self.conn, on_wait=self.on_wait):
                self._group = True
                try:
                    yield self
                finally:
                    self._group = False
        except BaseException:
            self._tables_seen.clear()  # a table a write of the group made is gone with it
            raise

    @contextlib.contextmanager
    def together(self) -> Iterator["EventStore"]:
        """Writes made within it land together or not at all, each still its own :meth:`write`: a
        savepoint of the group already open (the venue's thread groups the writes waiting together),
        else a :meth:`group` of their own.  For an operation made of several writes whose answer is
        kept with them (the director's writes taken once by their id, :mod:`tournament.event.venue`)."""
        if self._group:
            with self.write():
                yield self
        else:
            with self.group():
                yield self

    @contextlib.contextmanager
    def read_once(self) -> Iterator["EventStore"]:
        """One read transaction (:meth:`reading`) in which the event's players and its tables,
        all of them, are read once and handed again to whoever asks for them again (a copy of the
        list each time; a round's tables taken from all of them): the hall's read of the whole
        event at a result asked for the players four times and the tables once and then once a
        round, a thousand players' rows each time.  Nothing can change them within the
        transaction, and nothing of it is kept after."""
        if self._once is not None or self.conn.in_transaction:  # within a write: its own reads may change them
            with self.reading():
                yield self
            return
        with self.reading():
            self._once = {}
            try:
                yield self
            finally:
                self._once = None

    @contextlib.contextmanager
    def reading(self) -> Iterator["EventStore"]:
        """Reads that must agree with each other (a page of the feed and the change number it is
        as of): one read transaction, so a write committed meanwhile by another process is seen
        by all of them or by none (WAL gives each reader its snapshot).  Within a write, the
        write's own transaction already is one."""
        if self.conn.in_transaction:
            yield self
            return
        self.conn.execute("BEGIN")
        try:
            yield self
        finally:
            if self.conn.in_transaction:
                self.conn.execute("COMMIT")

    # --- what people browse (datasette, any SQLite browser) -----------------------------------

    def bring_browsing_up_to_date(self) -> None:
        """After writes made with :attr:`defer_browsing` (a bulk writer; every ``tournament``
        command, which writes result after result): one refresh, in one transaction, so that a
        command entering 200 results ranks the event once, not 200 times.  :meth:`close` calls it."""
        if not self._browsing_stale:
            return
        try:
            with transaction(self.conn, within=self._group, on_wait=self.on_wait):
                self.refresh_browsing()
        except BaseException:
            sqlite_writes["snapshots_taken_back"] += 1  # (an interrupted command says which write it was)
            raise
        self._browsing_stale = False

    def refresh_browsing_apart(self) -> None:
        """:meth:`refresh_browsing` for a connection of its own beside a writer that must not wait
        for it (the venue's tables): the snapshot computed in a read transaction (the ranking is
        most of its cost, in Python), then written in a short write of its own.  A result
        committed meanwhile is not in it: whoever committed it asks for this again."""
        with self.reading():
            snapshot = self.browsing(self) if self.browsing is not None else None
        with transaction(self.conn):
            self._view("tables_view", tables_view_sql(self.settings))
            desk = bool(self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'desk_log'")
                        .fetchone())
            self._view("audit_view", audit_view_sql(self.has_audit_columns(), desk))
            if snapshot is not None:
                self.write_snapshot(*snapshot)
            else:
                self.db.execute("DROP TABLE IF EXISTS standings")

    def refresh_browsing(self) -> None:
        """Within :meth:`write`, last: the ``tables_view`` view (made again each time, as this
        version of the tool makes it; an older file gets it in its first write) and the
        ``standings`` snapshot, recomputed from scratch by :attr:`browsing` (the event layer's
        :func:`tournament.event.browsing.snapshot`: tie-breaks are computed in Python, not SQL)
        in the same transaction as the write that changed the results, so it is never out of step
        with them.  Nothing reads them back: they are for people, and the tool always computes
        afresh."""
        self._view("tables_view", tables_view_sql(self.settings))
        desk = bool(self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'desk_log'")
                    .fetchone())
        self._view("audit_view", audit_view_sql(self.has_audit_columns(), desk))
        # None: results that cannot be ranked (a damaged file: `check` says where) leave no
        # snapshot rather than a wrong one, and never block the write, which may be the repair.
        snapshot = self.browsing(self) if self.browsing is not None else None
        if snapshot is not None:
            self.write_snapshot(*snapshot)
        else:
            self.db.execute("DROP TABLE IF EXISTS standings")

    def _view(self, name: str, sql: str) -> None:
        """The view ``name`` as ``sql`` makes it, made again only if it is made otherwise: a change
        of the file's schema makes every connection to it (a venue's tables, its hall) prepare
        each of its statements again, and a venue refreshes these at every result."""
        found = self.conn.execute("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", [name]).fetchone()
        if found is not None and found[0] == sql.strip():
            return
        self.db.execute(f"DROP VIEW IF EXISTS {name}")
        self.db.execute(sql)

    def write_snapshot(self, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Within :meth:`write`: the ``standings`` table made again with these columns (data keys;
        those that would read like a neighbour get the names :data:`SNAPSHOT_NAMES` gives them)
        and rows."""
        names = [SNAPSHOT_NAMES.get(c, c) for c in columns]
        have = [r[1] for r in self.conn.execute("PRAGMA table_info(standings)").fetchall()]
        if have == names:  # emptied, not made again: no change of the file's schema (see _view)
            self.db.execute("DELETE FROM standings")
        else:
            self.db.execute("DROP TABLE IF EXISTS standings")
            self.db.execute(f"CREATE TABLE standings ({', '.join(quote(c) for c in names)})")
        self.conn.executemany(f"INSERT INTO standings VALUES ({', '.join('?' * len(names))})", rows)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """A read's rows as dicts, straight from the connection (a venue reads a table at every
        move: no wrapping savepoint, no second pass over the names)."""
        cur = self.conn.execute(sql, list(params))
        names = [d[0] for d in cur.description or ()]
        return [dict(zip(names, row)) for row in cur]

    def has_table(self, name: str) -> bool:
        """The file has the table ``name``.  Once seen it is taken as there for good: the tool adds
        tables to an event file (an older file's upgrade) and never drops one."""
        if name in self._tables_seen:
            return True
        found = self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).fetchone()
        if found:
            self._tables_seen.add(name)  # forgotten if the write that made it is rolled back (:meth:`write`)
        return bool(found)

    # --- soundness (``tournament check``) ----------------------------------------------------

    def damage(self) -> Damage:
        """What SQLite finds damaged in the file (:func:`tournament.store.damage.find_damage`)."""
        return find_damage(self.conn)

    def foreign_key_problems(self) -> int:
        """How many rows point at rows that do not exist (``PRAGMA foreign_key_check``)."""
        return len(self.conn.execute("PRAGMA foreign_key_check").fetchall())

    @contextlib.contextmanager
    def lenient_text(self) -> Iterator[None]:
        """Reads within it give text that is not UTF-8 with U+FFFD in place of its bad bytes
        (``check`` reads on past what it has reported damaged), instead of failing."""
        self.conn.text_factory = lambda b: b.decode("utf-8", "replace")
        try:
            yield
        finally:
            self.conn.text_factory = str

    def tables_of_results(self, result_ids: Collection[int]) -> set[int]:
        """The tables of these results (``check``: of the damaged ones it has reported)."""
        return {r["table_id"] for r in self.db.query("SELECT id, table_id FROM results") if r["id"] in result_ids}

    # --- meta ------------------------------------------------------------------

    def meta(self) -> dict[str, str]:
        return {r["key"]: r["value"] for r in self._rows("SELECT key, value FROM meta")}

    # --- players and partnerships ------------------------------------------------

    def players(self) -> list[Player]:
        once = self._once
        if once is not None:
            if "players" not in once:
                once["players"] = self._players()
            return list(once["players"])
        return self._players()

    def _players(self) -> list[Player]:
        away = self.rounds_away()
        return [Player(r["id"], r["name"], r["team_id"], r["entered_round"], r["withdrawn_round"],
                       away.get(r["id"], ()))
                for r in self._rows("SELECT id, name, team_id, entered_round, withdrawn_round FROM players "
                                    "ORDER BY id")]

    def players_by_id(self, ids: Collection[int]) -> dict[int, Player]:
        """Only these players (a result names four of ten thousand: read four rows, not all)."""
        wanted = sorted({i for i in ids if type(i) is int and abs(i) < 2 ** 63})
        out: dict[int, Player] = {}
        away = self.rounds_away() if wanted else {}
        for start in range(0, len(wanted), 500):  # well within SQLite's bound on parameters
            chunk = wanted[start:start + 500]
            for r in self._rows("SELECT id, name, team_id, entered_round, withdrawn_round FROM players "
                                f"WHERE id IN ({', '.join('?' * len(chunk))})", chunk):
                out[r["id"]] = Player(r["id"], r["name"], r["team_id"], r["entered_round"], r["withdrawn_round"],
                       away.get(r["id"], ()))
        return out

    def players_named(self, names: Collection[str]) -> list[Player]:
        """The players whose stored name is exactly one of these (by the unique index on names;
        names that only look alike are the caller's to compare, :func:`tournament.names.name_key`)."""
        wanted = sorted(set(names))
        if not wanted:
            return []
        away = self.rounds_away()
        return [Player(r["id"], r["name"], r["team_id"], r["entered_round"], r["withdrawn_round"],
                       away.get(r["id"], ()))
                for r in self._rows("SELECT id, name, team_id, entered_round, withdrawn_round FROM players "
                                    f"WHERE name IN ({', '.join('?' * len(wanted))})", wanted)]

    def teams(self) -> list[Team]:
        members: dict[int, list[int]] = {}
        for r in self._rows("SELECT id, team_id FROM players WHERE team_id IS NOT NULL ORDER BY id"):
            members.setdefault(r["team_id"], []).append(r["id"])
        away = self.rounds_away()
        return [Team(r["id"], r["name"], tuple(members.get(r["id"], ())), r["entered_round"], r["withdrawn_round"],
                     away.get(members[r["id"]][0], ()) if members.get(r["id"]) else ())
                for r in self._rows("SELECT id, name, entered_round, withdrawn_round FROM teams ORDER BY id")]

    def rounds_away(self) -> dict[int, tuple[tuple[int, int], ...]]:
        """Player -> the rounds they were out of before each return (:attr:`Player.away`), read from
        the desk's trail: a return (``player_returned``, ``pair_returned``: a pair's two players)
        keeps the round the withdrawal took effect from and the round the player is back from.
        Read from the trail, not a column, so that a file whose returns were made before the rounds
        away were kept is read right too (its returns are in its trail)."""
        if not self._rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'desk_log'"):
            return {}
        out: dict[int, list[tuple[int, int]]] = {}
        # (a few rows, read as they are: a join of every return with every player cost a scan of
        # the players for each return)
        for r in self._rows("SELECT action, round AS back, json_extract(detail, '$.withdrawn_from') AS out_from, "
                            "json_extract(detail, '$.player') AS player, json_extract(detail, '$.pair') AS pair "
                            "FROM desk_log WHERE action IN ('player_returned', 'pair_returned') ORDER BY id"):
            if not (isinstance(r["back"], int) and isinstance(r["out_from"], int) and r["out_from"] < r["back"]):
                continue
            if r["action"] == "player_returned":
                who = [r["player"]] if isinstance(r["player"], int) else []
            else:
                who = [m["id"] for m in self._rows("SELECT id FROM players WHERE team_id = ? ORDER BY id",
                                                   [r["pair"]])] if isinstance(r["pair"], int) else []
            for pid in who:
                out.setdefault(pid, []).append((r["out_from"], r["back"]))
        return {p: tuple(spans) for p, spans in out.items()}

    def insert_player(self, name: str, entered: int, team: int | None = None) -> int:
        """Within :meth:`write`.  Names are unique: records without ids are matched by name
        (names that only look alike are refused before, by :mod:`tournament.event.players`)."""
        if self._rows("SELECT id FROM players WHERE name = ?", [name]):
            raise Refused(f"a player named {name!r} is already entered; names must be unique")
        # A removed entry's number is never given again (``meta.last_player_id``, kept by the desk).
        row = self._rows("SELECT (SELECT MAX(id) FROM players) AS top, (SELECT value FROM meta WHERE "
                         "key = 'last_player_id') AS removed")[0]
        number = max(int(row["top"] or 0), int(row["removed"] or 0)) + 1
        cur = self.db.execute("INSERT INTO players(id, name, team_id, entered_round, added_at) "
                              "VALUES (?, ?, ?, ?, ?)", [number, name, team, entered, now()])
        return int(cur.lastrowid)

    def insert_team(self, name: str, entered: int) -> int:
        if self._rows("SELECT id FROM teams WHERE name = ?", [name]):
            raise Refused(f"a partnership named {name!r} is already entered; names must be unique")
        cur = self.db.execute("INSERT INTO teams(name, entered_round) VALUES (?, ?)", [name, entered])
        return int(cur.lastrowid)

    def set_withdrawn(self, player: int, from_round: int) -> None:
        self.db.execute("UPDATE players SET withdrawn_round = ? WHERE id = ?", [from_round, player])

    def set_team_withdrawn(self, team: int, from_round: int) -> None:
        self.db.execute("UPDATE teams SET withdrawn_round = ? WHERE id = ?", [from_round, team])
        self.db.execute("UPDATE players SET withdrawn_round = ? WHERE team_id = ?", [from_round, team])

    def find_player(self, key: str) -> Player:
        """A player by name (as :func:`tournament.names.name_key` compares names), or by number
        (``12`` or ``#12``).  When the text is one player's name and another's number, which one
        is meant cannot be guessed: that is refused, saying how to name each."""
        players = self.players()
        # The name as stored first: an event made before spaces stopped counting may hold both
        # "Li Na" and "Lina", and each is still found by its own name.
        named = next((p for p in players if p.name == normalise_name(key)), None)
        named = named or next((p for p in players if name_key(p.name) == name_key(key)), None)
        text = key.strip()
        text = text[1:] if text.startswith("#") else text
        numbered = None
        if text.isascii() and text.isdigit() and len(text) <= 18:
            numbered = next((p for p in players if p.id == int(text)), None)
        if named is not None and numbered is not None and named.id != numbered.id:
            raise AmbiguousPlayer(f"{key!r} is ambiguous: it is the name of player #{named.id} and the number "
                                  f"of player #{numbered.id} ({numbered.name}); write #{named.id} for the first, "
                                  f"or the name {numbered.name!r} for the second")
        found = named or numbered
        if found is None:
            raise UnknownPlayer(f"no player named or numbered {key!r} in this event"
                                + did_you_mean(key, [p.name for p in players]))
        return found

    # --- rounds and tables -------------------------------------------------------

    def rounds(self) -> list[Round]:
        return [Round(r["id"], r["number"], r["stage_id"], r["seed"] or "", r["paired_at"])
                for r in self._rows("SELECT id, number, stage_id, seed, paired_at FROM rounds ORDER BY number")]

    def last_round(self) -> int:
        row = self._rows("SELECT MAX(number) AS n FROM rounds")
        return int(row[0]["n"] or 0)

    def tables(self, round_no: int | None = None) -> list[Table]:
        once = self._once
        if once is not None:  # every round's tables read at once, a round's taken from them
            if "tables" not in once:
                once["tables"] = self._tables("", [])
            found = once["tables"]
            return list(found) if round_no is None else [t for t in found if t.round == round_no]
        where, params = ("WHERE r.number = ?", [round_no]) if round_no is not None else ("", [])
        return self._tables(where, params)

    def table(self, round_no: int, table_no: int) -> Table | None:
        """One table of a round (the venue reads one table a request, not the round's hundred)."""
        found = self._tables("WHERE r.number = ? AND t.number = ?", [round_no, table_no])
        return found[0] if found else None

    def table_of_player(self, round_no: int, player: int) -> Table | None:
        """The table of ``round_no`` where ``player`` sits (by the index on seats' players: a
        result finds its table without reading the round's thousands)."""
        found = self._tables("WHERE t.id = (SELECT s2.table_id FROM seats s2 JOIN round_tables t2 ON t2.id = "
                             "s2.table_id JOIN rounds r2 ON r2.id = t2.round_id WHERE s2.player_id = ? AND "
                             "r2.number = ? ORDER BY t2.number LIMIT 1)", [player, round_no])
        return found[0] if found else None

    def table_by_id(self, table_id: int) -> Table | None:
        found = self._tables("WHERE t.id = ?", [table_id])
        return found[0] if found else None

    def _tables(self, where: str, params: list[Any]) -> list[Table]:
        rows = self.conn.execute(  # rows as tuples: a standings of 10,000 players reads 40,000 seats a round
            "SELECT t.id, r.number, t.number, s.seat, s.side, s.player_id "
            "FROM round_tables t JOIN rounds r ON r.id = t.round_id JOIN seats s ON s.table_id = t.id "
            f"{where} ORDER BY r.number, t.number, s.position", params)
        out: list[Table] = []
        current: list[SeatAssignment] = []
        key: tuple[int, int, int] | None = None
        for tid, rnd, tno, seat, side, player in rows:
            k = (tid, rnd, tno)
            if k != key:
                if key is not None:
                    out.append(Table(key[0], key[1], key[2], tuple(current)))
                key, current = k, []
            current.append(SeatAssignment(seat, side, player))
        if key is not None:
            out.append(Table(key[0], key[1], key[2], tuple(current)))
        return out

    def byes(self, round_no: int | None = None) -> dict[int, list[int]]:
        """Round number -> players with a bye (in pairs events, both players of the pair)."""
        where, params = ("WHERE r.number = ?", [round_no]) if round_no is not None else ("", [])
        out: dict[int, list[int]] = {}
        for r in self._rows("SELECT r.number AS rnd, b.player_id FROM byes b JOIN rounds r ON r.id = b.round_id "
                            f"{where} ORDER BY r.number, b.player_id", params):
            out.setdefault(r["rnd"], []).append(r["player_id"])
        return out

    def insert_round(self, number: int, seed: str, tables: Sequence[Sequence[SeatAssignment]],
                     byes: Sequence[int], standings_used: Sequence[tuple[int, int, dict[str, Any]]],
                     numbers: Sequence[int] | None = None) -> int:
        """Within :meth:`write`: a round, its numbered tables and seats, its byes, and the
        standings it was paired on (so ``check`` can tell when they have changed since).  Tables
        are numbered 1, 2, … unless ``numbers`` gives each its own (a duplicate movement's, where a
        pair sits out: the room is laid out by them, so the round's numbers may have a gap)."""
        if numbers is not None and (len(numbers) != len(tables) or len(set(numbers)) != len(numbers)):
            raise ValueError(f"{len(tables)} tables need as many different numbers, not {list(numbers)}")
        cur = self.db.execute("INSERT INTO rounds(stage_id, number, seed, paired_at) VALUES (1, ?, ?, ?)",
                              [number, seed, now()])
        round_id = int(cur.lastrowid)
        for tno, seats in zip(numbers if numbers is not None else range(1, len(tables) + 1), tables):
            tid = int(self.db.execute("INSERT INTO round_tables(round_id, number) VALUES (?, ?)",
                                      [round_id, tno]).lastrowid)
            self.conn.executemany(
                "INSERT INTO seats(table_id, seat, side, player_id, position) VALUES (?, ?, ?, ?, ?)",
                [(tid, s.seat, s.side, s.player, i) for i, s in enumerate(seats)])
        self.conn.executemany("INSERT INTO byes(round_id, player_id) VALUES (?, ?)",
                              [(round_id, p) for p in byes])
        self.conn.executemany('INSERT INTO standings_used(round_id, unit, rank, "values") VALUES (?, ?, ?, ?)',
                              [(round_id, unit, rank, json.dumps(values, sort_keys=True))
                               for unit, rank, values in standings_used])
        return round_id

    def standings_used(self, round_no: int) -> dict[int, tuple[int, dict[str, Any]]]:
        rows = self._rows('SELECT u.unit, u.rank, u."values" FROM standings_used u JOIN rounds r '
                          'ON r.id = u.round_id WHERE r.number = ?', [round_no])
        return {r["unit"]: (r["rank"], json.loads(r["values"])) for r in rows}

    # --- results -------------------------------------------------------------------

    def _result(self, r: dict[str, Any]) -> Result:
        try:
            scores = json.loads(r["scores"])
        except (TypeError, ValueError, RecursionError):  # (RecursionError: nested past the interpreter's depth)
            scores = None
        # Scores are written by insert_result only, as side -> whole number; anything else was not.
        if not isinstance(scores, dict) or not all(isinstance(k, str) and type(v) is int for k, v in scores.items()):
            raise DamagedEventFile(f"{self.path} is damaged: result {r['id']} has unreadable scores "
                                   f"({str(r['scores'])[:60]!r}); run `tournament check {self.path}` to see "
                                   f"what is affected")
        return Result(r["id"], r["table_id"], r["kind"], bool(r["verified"]), scores,
                      r["winner"], r["record_hash"], r["entered_at"], r["note"])

    _RESULT_COLUMNS = "id, table_id, kind, verified, scores, winner, record_hash, entered_at, note"

    def results(self, skip: Collection[int] = ()) -> dict[int, Result]:
        """Table id -> its current result (but the results ``skip`` names: ``check`` leaves out
        the damaged ones it has reported)."""
        return {r["table_id"]: self._result(r)
                for r in self._rows(f"SELECT {self._RESULT_COLUMNS} FROM results") if r["id"] not in skip}

    def result_for(self, table_id: int) -> Result | None:
        rows = self._rows(f"SELECT {self._RESULT_COLUMNS} FROM results WHERE table_id = ?", [table_id])
        return self._result(rows[0]) if rows else None

    def result_with_hash(self, record_hash: str) -> Result | None:
        rows = self._rows(f"SELECT {self._RESULT_COLUMNS} FROM results WHERE record_hash = ?", [record_hash])
        return self._result(rows[0]) if rows else None

    def record_text(self, result_id: int) -> str | None:
        rows = self._rows("SELECT record FROM results WHERE id = ?", [result_id])
        return rows[0]["record"] if rows else None

    def records(self, skip: Collection[int] = ()) -> Iterator[tuple[Result, str]]:
        """Every stored record with its result row (streamed: the archive may be large)."""
        for r in self.db.query(f"SELECT {self._RESULT_COLUMNS}, record FROM results "
                               "WHERE record IS NOT NULL ORDER BY id"):
            if r["id"] not in skip:
                yield self._result(r), r["record"]

    def insert_result(self, table_id: int, kind: str, verified: bool, scores: dict[str, int],
                      winner: str | None, record: str | None, record_hash: str | None,
                      note: str | None = None) -> int:
        cur = self.db.execute(
            "INSERT INTO results(table_id, kind, verified, scores, winner, record, record_hash, entered_at, note) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [table_id, kind, int(verified), json.dumps(scores, sort_keys=True), winner, record, record_hash,
             now(), note])
        return int(cur.lastrowid)

    def move_result_to_audit(self, old: Result, reason: str | None, by: str | None = None) -> int:
        """Within :meth:`write`: keep the replaced result, record and all, in ``result_audit``
        with who replaced it and why; delete it from ``results``.  An older file gets the audit
        columns first, in this same transaction."""
        self.upgrade_for_audit()
        row = self._rows("SELECT * FROM results WHERE id = ?", [old.id])[0]
        cur = self.db.execute("INSERT INTO result_audit(table_id, old_result, replaced_at, reason, changed_by) "
                              "VALUES (?, ?, ?, ?, ?)",
                              [old.table, json.dumps(row, sort_keys=True), now(), reason, by])
        self.db.execute("DELETE FROM results WHERE id = ?", [old.id])
        return int(cur.lastrowid)

    def link_audit(self, audit_id: int, new_result_id: int) -> None:
        """Within :meth:`write`: the result that replaced the audited one, and its values."""
        row = self._rows("SELECT kind, verified, scores, winner, record_hash, entered_at, note FROM results "
                         "WHERE id = ?", [new_result_id])[0]
        row = {**row, "id": new_result_id, "scores": json.loads(row["scores"])}
        self.db.execute("UPDATE result_audit SET new_result_id = ?, new_result = ? WHERE id = ?",
                        [new_result_id, json.dumps(row, sort_keys=True), audit_id])

    def has_audit_columns(self) -> bool:
        have = {r["name"] for r in self._rows("PRAGMA table_info(result_audit)")}
        return all(name in have for name, _ in AUDIT_COLUMNS)

    def upgrade_for_audit(self) -> None:
        """Within :meth:`write`: give an older file the audit columns and mark it schema 3."""
        if self.has_audit_columns():
            return
        create_audit_schema(self.db)
        self._bump_schema(AUDIT_SCHEMA_VERSION)

    def _bump_schema(self, version: int) -> None:
        """Mark the file as needing a tool of at least ``version`` (never lower it)."""
        current = int(self.meta().get("schema_version", "1"))
        if current < version:
            self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(version)])
            self.conn.execute(f"PRAGMA user_version = {version}")

    def audit(self) -> list[dict[str, Any]]:
        """Every audit row, oldest first; ``changed_by`` and ``new_result`` are None in a file
        whose rows were written before schema 3."""
        extra = "changed_by, new_result" if self.has_audit_columns() else "NULL AS changed_by, NULL AS new_result"
        return self._rows(f"SELECT id, table_id, old_result, new_result_id, replaced_at, reason, {extra} "
                          "FROM result_audit ORDER BY id")

    def result_row(self, result_id: int) -> dict[str, Any] | None:
        """A current result's stored values (no record text), for the audit trail."""
        rows = self._rows("SELECT id, kind, verified, scores, winner, record_hash, entered_at, note FROM results "
                          "WHERE id = ?", [result_id])
        return rows[0] if rows else None

    # --- stages (knockouts, round robins) ---------------------------------------------

    def has_stage_tables(self) -> bool:
        return bool(self._rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'match_tables'"))

    def upgrade_for_stages(self) -> None:
        """Within :meth:`write`: give a schema-1 file the stage tables and mark it schema 2."""
        if int(self.meta().get("schema_version", "1")) >= 2 and self.has_stage_tables():
            return
        create_stage_schema(self.db)
        self._bump_schema(2)

    def stages(self) -> list[dict[str, Any]]:
        """Every stage: id, name, format, settings (parsed), first and last event round."""
        out = []
        for r in self._rows("SELECT s.id, s.name, s.format, s.settings, MIN(r.number) AS first, "
                            "MAX(r.number) AS last FROM stages s LEFT JOIN rounds r ON r.stage_id = s.id "
                            "GROUP BY s.id ORDER BY s.id"):
            out.append({**r, "settings": json.loads(r["settings"]) if r["settings"] else {}})
        return out

    def insert_stage(self, name: str, format: str, settings: dict[str, Any]) -> int:
        """Within :meth:`write`."""
        cur = self.db.execute("INSERT INTO stages(name, format, settings) VALUES (?, ?, ?)",
                              [name, format, json.dumps(settings, sort_keys=True, ensure_ascii=False)])
        return int(cur.lastrowid)

    def insert_matches(self, stage_id: int, rows: Sequence[tuple[str, int, int, str, str]]) -> None:
        """Within :meth:`write`: the draw, as (key, event round, position, label, sources JSON)."""
        self.conn.executemany("INSERT INTO matches(stage_id, key, round_number, position, label, sources) "
                              "VALUES (?, ?, ?, ?, ?, ?)", [(stage_id, *row) for row in rows])

    def matches(self, stage_id: int) -> dict[str, dict[str, Any]]:
        if not self.has_stage_tables():
            return {}
        return {r["key"]: r for r in self._rows(
            "SELECT id, key, round_number, position, label, sources FROM matches WHERE stage_id = ? "
            "ORDER BY round_number, position", [stage_id])}

    def match_tables(self, stage_id: int) -> list[dict[str, Any]]:
        """The stage's tables: table id, match key, game number, event round, table number."""
        if not self.has_stage_tables():
            return []
        return self._rows("SELECT mt.table_id, m.key, mt.game, r.number AS round, t.number AS tno "
                          "FROM match_tables mt JOIN matches m ON m.id = mt.match_id "
                          "JOIN round_tables t ON t.id = mt.table_id JOIN rounds r ON r.id = t.round_id "
                          "WHERE m.stage_id = ? ORDER BY m.round_number, m.position, mt.game", [stage_id])

    def round_stage(self) -> dict[int, int]:
        """Event round number -> its stage."""
        return {r["number"]: r["stage_id"] for r in self._rows("SELECT number, stage_id FROM rounds")}

    def insert_stage_table(self, stage_id: int, round_number: int, table_number: int,
                           seats: Sequence[SeatAssignment], match_id: int, game: int) -> int:
        """Within :meth:`write`: one table of a stage (its round is made when first needed)."""
        rows = self._rows("SELECT id, stage_id FROM rounds WHERE number = ?", [round_number])
        if rows and rows[0]["stage_id"] != stage_id:
            raise Refused(f"round {round_number} belongs to another stage")
        if rows:
            round_id = rows[0]["id"]
        else:
            round_id = int(self.db.execute("INSERT INTO rounds(stage_id, number, seed, paired_at) "
                                           "VALUES (?, ?, ?, ?)", [stage_id, round_number,
                                                                   f"stage:{stage_id}", now()]).lastrowid)
        tid = int(self.db.execute("INSERT INTO round_tables(round_id, number) VALUES (?, ?)",
                                  [round_id, table_number]).lastrowid)
        self.conn.executemany(
            "INSERT INTO seats(table_id, seat, side, player_id, position) VALUES (?, ?, ?, ?, ?)",
            [(tid, s.seat, s.side, s.player, i) for i, s in enumerate(seats)])
        self.db.execute("INSERT INTO match_tables(table_id, match_id, game) VALUES (?, ?, ?)", [tid, match_id, game])
        return tid

    def reseat_table(self, table_id: int, seats: Sequence[SeatAssignment]) -> None:
        """Within :meth:`write`: new players for a table that has no result (a knockout game
        whose sides a corrected result changed)."""
        if self._rows("SELECT 1 FROM results WHERE table_id = ?", [table_id]):
            raise Refused("a table with a result is never re-seated")
        self.db.execute("DELETE FROM seats WHERE table_id = ?", [table_id])
        self.conn.executemany(
            "INSERT INTO seats(table_id, seat, side, player_id, position) VALUES (?, ?, ?, ?, ?)",
            [(table_id, s.seat, s.side, s.player, i) for i, s in enumerate(seats)])

    def table_numbers(self, round_number: int) -> list[int]:
        return [r["number"] for r in self._rows(
            "SELECT t.number FROM round_tables t JOIN rounds r ON r.id = t.round_id WHERE r.number = ?",
            [round_number])]
