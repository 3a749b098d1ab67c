"""Creating and opening an event file at the SQL level: its identity checked, never a file overwritten.

A file without the event's ``application_id`` and ``meta`` table is refused: it may be somebody's
other database, and must never be written to.  :func:`open_store` never creates a file;
:func:`create_store` never overwrites one (it builds the event in a scratch file and links it
into place, so a killed ``new`` leaves nothing behind).  The operations open events through
:mod:`tournament.event.files`, which hands the store what it needs to keep the browsing snapshot
(:attr:`~tournament.store.event_store.EventStore.browsing`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import sqlite_utils

from tournament.errors import DamagedEventFile, EventFileError
from tournament.settings import Settings
from tournament.store.changes import insert_change
from tournament.store.event_store import Browsing, EventStore
from tournament.store.schema import APPLICATION, APPLICATION_ID, CREATED_VERSION, SCHEMA_VERSION, create_schema
from tournament.store.sqlite import (BUSY_TIMEOUT_S, NotSQLite, connect_existing, databases_opened, now,
                                     refuse_companions, writes)


def create_store(path: str | Path, settings: Settings, browsing: Browsing | None = None,
                 first_change: tuple[str, dict[str, Any]] | None = None) -> EventStore:
    """A new event file at ``path``; refuses to touch an existing file.  ``browsing`` computes the
    ``standings`` snapshot (:attr:`EventStore.browsing`); ``first_change`` (kind, data), the change
    log's first row, is written with the rest of the new file (the event layer says what it is)."""
    path = Path(path)
    _named(path)
    if path.exists() or path.is_symlink():
        raise EventFileError(f"{path} already exists; tournament new never overwrites a file")
    refuse_companions(path)
    if not path.parent.is_dir():
        raise EventFileError(f"cannot create {path}: folder {path.parent} does not exist")
    scratch = path.with_name(f".{path.name}.{uuid.uuid4().hex}.new")
    try:
        # Made by the system first, so that a folder that cannot be written is said in its words;
        # readable by its owner alone (0600, whatever the umask): the file holds every table's key,
        # the director's key and PIN and the players' PINs, and SQLite gives its -wal and -shm files
        # the same mode.  (No connection is open yet: nothing's locks are dropped by this close.)
        try:
            os.close(os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as e:
            raise EventFileError(f"cannot create {path}: {e.strerror} (cannot write in the folder "
                                 f"{path.parent})") from None
        databases_opened()
        conn = sqlite3.connect(str(scratch), timeout=BUSY_TIMEOUT_S)
        try:
            db = sqlite_utils.Database(conn, execute_plugins=False)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {CREATED_VERSION}")
            with db.atomic():
                create_schema(db)
                meta = {"application": APPLICATION, "schema_version": str(CREATED_VERSION),
                        "event_uuid": str(uuid.uuid4()), "created_at": now(), "settings": settings.to_json()}
                for key, value in meta.items():
                    db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", [key, value])
                db.execute("INSERT INTO stages(id, name, format, settings) VALUES (1, ?, ?, ?)",
                           ["main", settings.format, settings.to_json()])
                if first_change is not None:
                    insert_change(conn, first_change[0], None, None, first_change[1], meta["created_at"])
        finally:
            conn.close()
        try:
            os.link(scratch, path)  # fails if path appeared meanwhile: never overwrite
        except FileExistsError:
            raise EventFileError(f"{path} already exists; tournament new never overwrites a file") from None
        except OSError as e:
            raise EventFileError(f"cannot create {path}: {e.strerror}") from None
        # The whole new file, in place under its name, is the command's write: a Ctrl-C from here
        # on says it was made (it is complete: the snapshot below is brought up to date by any write).
        writes["committed"] += 1
    except sqlite3.Error as e:
        raise EventFileError(f"cannot create {path}: {e}") from None
    except OSError as e:
        raise EventFileError(f"cannot create {path}: {e.strerror}") from None
    finally:
        with contextlib.suppress(OSError):
            scratch.unlink()
    store = open_store(path, browsing)
    with contextlib.suppress(sqlite3.Error):
        store.db.execute("PRAGMA journal_mode=WAL")  # persistent; refused on some file systems
    with store.write():
        store.refresh_browsing()
    return store


def _named(path: Path) -> None:
    """Refuses a new file's path that names a folder: an empty name (``tournament new ""`` is
    the current folder, ``.``) or a folder's, before its being there is taken for a file."""
    if not path.is_dir():
        return
    if path == Path("."):
        raise EventFileError("the event file's name is missing: give one, e.g. club.db")
    raise EventFileError(f"{path} is a folder: give the event file's name, e.g. {path / 'club.db'}")


def building_path(path: str | Path) -> Path:
    """Where an event made in one go (``tournament simulate``) is built before it is published at
    ``path`` (:func:`publish`): a hidden file beside it, so an event stopped half-made (killed,
    the machine down) never lies at ``path`` looking like a whole one.  Refuses an existing ``path``
    before any work is done."""
    path = Path(path)
    _named(path)
    if path.exists() or path.is_symlink():
        raise EventFileError(f"{path} already exists; tournament never overwrites a file")
    refuse_companions(path)
    if not path.parent.is_dir():
        raise EventFileError(f"cannot create {path}: folder {path.parent} does not exist")
    return path.with_name(f".{path.name}.building-{os.getpid()}")


def publish(building: Path, path: str | Path) -> None:
    """Give the finished event at ``building`` (closed) its name ``path``, never overwriting."""
    try:
        os.link(building, path)
    except FileExistsError:
        raise EventFileError(f"{path} already exists; tournament never overwrites a file "
                             f"(the event made is left at {building})") from None
    except OSError as e:
        raise EventFileError(f"cannot create {path}: {e.strerror} (the event made is left at {building})") from None
    discard(building)


def discard(building: Path) -> None:
    """Remove an event file that was being built, and its SQLite companions."""
    for companion in (building, Path(f"{building}-wal"), Path(f"{building}-shm"), Path(f"{building}-journal")):
        with contextlib.suppress(OSError):
            companion.unlink()


def open_store(path: str | Path, browsing: Browsing | None = None, shared: bool = False) -> EventStore:
    """Open an existing event; refuse anything that is not one.  ``browsing`` computes the
    ``standings`` snapshot (:attr:`EventStore.browsing`).  ``shared``: the connection may be used
    by more than one thread, one at a time (the venue's: its own thread, or the event loop's when
    that thread is idle; whoever uses it holds the lock that says so)."""
    path = Path(path)
    if not path.exists():
        raise EventFileError(f"{path}: no such event file (create one with `tournament new`)")
    if path == Path("."):  # an empty name ("" is the current folder): said as `tournament new ""` says it
        raise EventFileError("the event file's name is missing (an empty name is this folder, not a file): give "
                             "one, e.g. club.db")
    if not path.is_file():
        raise EventFileError(f"{path} is not a file")
    app_id: int | None = None
    try:
        conn, app_id = connect_existing(path, shared=shared)
    except NotSQLite as e:
        raise EventFileError(f"{path} is {e}, so not a tournament event file") from None
    except OSError as e:
        raise EventFileError(f"cannot read {path}: {e.strerror}") from None
    except sqlite3.Error as e:
        raise _refusal(path, e, app_id) from None
    try:
        has_meta = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
        if app_id != APPLICATION_ID or not has_meta:
            raise EventFileError(f"{path} is an SQLite database of another kind, not a tournament event file")
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("application") != APPLICATION:
            raise EventFileError(f"{path} is an SQLite database of another kind, not a tournament event file")
        try:
            version = int(meta.get("schema_version", "0"))
        except (ValueError, TypeError):
            raise DamagedEventFile(f"{path} is a damaged tournament event file (its schema version, "
                                   f"{str(meta.get('schema_version'))[:20]!r}, is not a number); run "
                                   f"`tournament check {path}`") from None
        if version > SCHEMA_VERSION:
            raise EventFileError(f"{path} was written by a newer tournament tool (schema {version}; this one "
                                 f"reads up to {SCHEMA_VERSION})")
        if version < 1 or "settings" not in meta or "event_uuid" not in meta:
            raise DamagedEventFile(f"{path} is a damaged tournament event file (its meta table is incomplete); "
                                   f"run `tournament check {path}`")
        settings = Settings.from_json(meta["settings"])
    except EventFileError:
        conn.close()
        raise
    except sqlite3.DatabaseError as e:
        conn.close()
        raise _refusal(path, e, app_id) from None
    except (ValueError, TypeError, KeyError) as e:
        conn.close()
        said = f"they lack {e}" if isinstance(e, KeyError) else str(e)
        raise DamagedEventFile(f"{path} is a damaged tournament event file (its settings cannot be read: "
                               f"{said}); run `tournament check {path}`") from None
    return EventStore(path, conn, settings, meta["event_uuid"], browsing)


def _refusal(path: Path, e: sqlite3.Error, app_id: int | None) -> EventFileError:
    """What to say of an event file SQLite could not read: read-only, damaged, or another file."""
    if isinstance(e, sqlite3.OperationalError) and ("readonly" in str(e) or "unable to open" in str(e)):
        # A WAL-mode event is read through its -wal and -shm files, which SQLite makes beside it.
        return EventFileError(f"cannot open {path}: the file or its folder is read-only, and SQLite needs to "
                              f"write {path.name}-wal and {path.name}-shm beside the event file ({e})")
    if app_id == APPLICATION_ID:
        return DamagedEventFile(f"{path} is a damaged tournament event file ({e}); run `tournament check "
                                f"{path}` to see what is affected")
    return EventFileError(f"{path} is damaged or not a tournament event file: {e}")
