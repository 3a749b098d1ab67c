"""The ratings file's SQL: a small SQLite database of its own, separate from the event files.

One row per event imported (its uuid, name, game, where it came from) and one per table with a
result (the sides as player names, their ranks), keyed by the event's uuid and the table, so that
importing the same event twice counts its games once.  The ratings themselves are never stored:
:mod:`tournament.event.ratings` computes them from every game, whenever they are listed.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any, Iterator, Sequence

import attrs
import sqlite_utils

from tournament.errors import EventFileError, Refused
from tournament.store.schema import APPLICATION_ID
from tournament.store.sqlite import (BUSY_TIMEOUT_S, NotSQLite, OnWait, connect_existing, databases_opened,
                                     refuse_companions, transaction)

#: ``PRAGMA application_id`` of a ratings file ("DomR").
RATINGS_APPLICATION_ID = 0x446F6D52
RATINGS_APPLICATION = "domrec-ratings"
RATINGS_SCHEMA = 1


@attrs.frozen
class Imported:
    event: str
    name: str
    added: int
    updated: int
    unchanged: int
    new: bool = False
    #: Why the event gave no game to rate, where that is its kind (a duplicate event's boards).
    none_because: str | None = None

    def summary(self) -> str:
        if self.none_because:
            return f"{self.event}: {self.name}: nothing imported: {self.none_because}"
        if not self.added and not self.updated and not self.new:
            return f"{self.event}: {self.name}: already imported; nothing changed ({self.unchanged} games)"
        return (f"{self.event}: {self.name}: {self.added} games added, {self.updated} updated, "
                f"{self.unchanged} already there")


class RatingsFile:
    """An open ratings file: every read and write of it."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn
        self.db = sqlite_utils.Database(conn, execute_plugins=False)
        #: Told once when a write waits for another program holding the file (a command's way to
        #: say so: :func:`tournament.store.sqlite.begin`); the store never prints.
        self.on_wait: OnWait | None = None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "RatingsFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def write(self) -> contextlib.AbstractContextManager[None]:
        return transaction(self.conn, on_wait=self.on_wait)

    def import_games(self, event_uuid: str, name: str, game: str, label: str,
                     games: Sequence[dict[str, Any]]) -> Imported:
        """Copy an event's games with a result (one transaction): ``games`` as
        :func:`tournament.event.ratings.event_games` reads them from the event.  Idempotent."""
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        added = updated = unchanged = 0
        with self.write():
            games_of_file = {r["game"] for r in self.db.query("SELECT DISTINCT game FROM events")}
            if games_of_file and game not in games_of_file:
                raise Refused(f"{label} is a {game} event; this ratings file rates "
                              f"{', '.join(sorted(games_of_file))} (keep one ratings file per game)")
            row = list(self.db.query("SELECT seq FROM events WHERE uuid = ?", [event_uuid]))
            if row:
                seq = row[0]["seq"]
                self.db.execute("UPDATE events SET name = ?, source = ?, updated_at = ? WHERE uuid = ?",
                                [name, label, now, event_uuid])
            else:
                seq = int(self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events").fetchone()[0])
                self.db.execute("INSERT INTO events(uuid, seq, name, game, source, imported_at, updated_at) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                [event_uuid, seq, name, game, label, now, now])
            have = {r["table_id"]: r["sides"] + "|" + r["ranks"] for r in self.db.query(
                "SELECT table_id, sides, ranks FROM games WHERE event_uuid = ?", [event_uuid])}
            for g in games:
                sides, ranks = json.dumps(g["sides"], ensure_ascii=False), json.dumps(g["ranks"])
                if g["table_id"] not in have:
                    added += 1
                elif have[g["table_id"]] != sides + "|" + ranks:
                    updated += 1
                else:
                    unchanged += 1
                    continue
                self.db.execute("INSERT OR REPLACE INTO games(event_uuid, table_id, round, table_no, sides, ranks) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                [event_uuid, g["table_id"], g["round"], g["table_no"], sides, ranks])
            # A game rated before and no longer one (its record replaced by a manual score or a
            # forfeit, which are not rated): the event's games are what it holds now.
            gone = sorted(set(have) - {g["table_id"] for g in games})
            for table_id in gone:
                self.db.execute("DELETE FROM games WHERE event_uuid = ? AND table_id = ?", [event_uuid, table_id])
            updated += len(gone)
        return Imported(label, name, added, updated, unchanged, not row)

    def events(self) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT e.uuid, e.seq, e.name, e.game, e.source, e.imported_at, e.updated_at, "
                                  "(SELECT COUNT(*) FROM games g WHERE g.event_uuid = e.uuid) AS games "
                                  "FROM events e ORDER BY e.seq"))

    def game_tables(self) -> Iterator[tuple[str, int, list[list[Any]]]]:
        """Every game's event, table (its id in the event file) and sides, in rating order."""
        for r in self.db.query("SELECT g.event_uuid, g.table_id, g.sides FROM games g JOIN events e "
                               "ON e.uuid = g.event_uuid ORDER BY e.seq, g.round, g.table_no, g.table_id"):
            yield r["event_uuid"], r["table_id"], self._stored(r["sides"], _sides)

    def games(self) -> Iterator[tuple[str, list[list[str]], list[float]]]:
        for r in self.db.query("SELECT g.event_uuid, g.sides, g.ranks FROM games g JOIN events e "
                               "ON e.uuid = g.event_uuid ORDER BY e.seq, g.round, g.table_no, g.table_id"):
            sides, ranks = self._stored(r["sides"], _sides), self._stored(r["ranks"], _ranks)
            if len(ranks) != len(sides):
                raise EventFileError(f"{self.path} is damaged (a game's ranks do not match its sides); make "
                                     f"the ratings file again from the events: tournament ratings NEW.db --add "
                                     f"EVENT.db …")
            yield r["event_uuid"], sides, ranks

    def _stored(self, text: Any, shape: Any) -> Any:
        """A game's sides or ranks as :meth:`import_games` wrote them (JSON of the ``shape``), or the
        file refused as damaged in one line: it is made again from the events, never mended."""
        try:
            value = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            value = None
        if not shape(value):
            raise EventFileError(f"{self.path} is damaged (a game's {'sides' if shape is _sides else 'ranks'} "
                                 f"cannot be read: {str(text)[:40]!r}); make the ratings file again from the events: "
                                 f"tournament ratings NEW.db --add EVENT.db …")
        return value


def _sides(value: Any) -> bool:
    """Two sides or more, each of one player or more (a game rated), each player a name, or a
    federation id with the name (``{"id", "name"}``: :func:`tournament.event.ratings.event_games`)."""
    return isinstance(value, list) and len(value) >= 2 and all(
        isinstance(s, list) and s and all(isinstance(p, str) or (isinstance(p, dict) and isinstance(p.get("name"), str)
                                                                 and isinstance(p.get("id"), str)) for p in s)
        for s in value)


def _ranks(value: Any) -> bool:
    return isinstance(value, list) and all(type(x) in (int, float) for x in value)


def open_ratings(path: str | Path, create: bool = True) -> RatingsFile:
    """Open a ratings file; create it when missing (``create``).  Anything else is refused."""
    path = Path(path)
    if path.is_symlink() and not path.exists():
        raise EventFileError(f"{path} is a link to nothing; a ratings file is never created through a link")
    if path.exists() and not path.is_file():
        raise EventFileError(f"{path} is not a regular file, so not a ratings file")
    if path.exists():
        try:
            conn, app = connect_existing(path, autocommit=True)
        except NotSQLite:
            raise EventFileError(f"{path} is not a ratings file (not an SQLite database)") from None
        except OSError as e:
            raise EventFileError(f"cannot read {path}: {e.strerror}") from None
        except sqlite3.DatabaseError as e:
            raise EventFileError(f"{path} is damaged or not a ratings file: {e}") from None
        if app != RATINGS_APPLICATION_ID:
            conn.close()
            what = "a tournament event file" if app == APPLICATION_ID else "an SQLite database of another kind"
            raise EventFileError(f"{path} is {what}, not a ratings file")
        try:
            version = int(conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0])
        except (sqlite3.Error, TypeError, ValueError):  # (no meta table, no version, or not a number)
            conn.close()
            raise EventFileError(f"{path} is a damaged ratings file (its schema version cannot be read); make it "
                                 f"again from the events: tournament ratings NEW.db --add EVENT.db …") from None
        if version > RATINGS_SCHEMA:
            conn.close()
            raise EventFileError(f"{path} was written by a newer tournament tool (ratings schema {version})")
        return RatingsFile(path, conn)
    if not create:
        raise EventFileError(f"{path}: no such ratings file (import an event with --add to create it)")
    if not path.parent.is_dir():
        raise EventFileError(f"cannot create {path}: folder {path.parent} does not exist")
    refuse_companions(path, "ratings file")
    # Built in a scratch file and linked into place, as an event file is: a killed import leaves
    # nothing, and a file (or link) that appeared meanwhile is never overwritten.
    scratch = path.with_name(f".{path.name}.{uuid.uuid4().hex}.new")
    try:
        databases_opened()
        conn = sqlite3.connect(str(scratch), timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(f"PRAGMA application_id = {RATINGS_APPLICATION_ID}")
            conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            conn.execute("INSERT INTO meta VALUES ('application', ?), ('schema_version', ?)",
                         [RATINGS_APPLICATION, str(RATINGS_SCHEMA)])
            conn.execute("CREATE TABLE events (uuid TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, name TEXT NOT NULL, "
                         "game TEXT NOT NULL, source TEXT, imported_at TEXT NOT NULL, updated_at TEXT NOT NULL)")
            conn.execute("CREATE TABLE games (event_uuid TEXT NOT NULL REFERENCES events(uuid), table_id INTEGER NOT NULL, "
                         "round INTEGER NOT NULL, table_no INTEGER NOT NULL, sides TEXT NOT NULL, ranks TEXT NOT NULL, "
                         "PRIMARY KEY (event_uuid, table_id))")
            conn.execute("COMMIT")
        finally:
            conn.close()
        try:
            os.link(scratch, path)
        except FileExistsError:
            raise EventFileError(f"{path} appeared while the ratings file was being made; nothing was written") from None
    except sqlite3.Error as e:
        raise EventFileError(f"cannot create {path}: {e}") from None
    except OSError as e:
        raise EventFileError(f"cannot create {path}: {e.strerror}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(scratch)
    databases_opened()
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    return RatingsFile(path, conn)
