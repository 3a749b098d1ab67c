"""What the tool's SQLite files share (an event file, a ratings file): how a file is recognised, how
long a writer waits its turn, and one write transaction."""

from __future__ import annotations

import contextlib
import datetime
import errno
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

from domrec.reader import databases_opened
from tournament.errors import EventFileError

BUSY_TIMEOUT_S = 30.0
#: How long a write waits for its turn before whoever asked to hear of it is told (:func:`begin`).
NOTICE_AFTER_S = 1.0

#: Told once that a write is waiting for its turn, with how long at most it will wait (seconds): a
#: command's way to say so (the store never prints).
OnWait = Callable[[float], None]


_said_at: tuple[int, str] = (-1, "")

#: Write transactions of this process that committed a change (:func:`transaction`), and those
#: begun and taken back by an exception (a refusal, Ctrl-C): a command interrupted says by them whether its
#: writes were made (:func:`tournament.cli.app.guarded`).  Counts only ever grow.
#: ``snapshots_taken_back``: of those, the browsing snapshot's refresh as a command closes the event.
writes: dict[str, int] = {"committed": 0, "taken_back": 0, "snapshots_taken_back": 0}


def now() -> str:
    """The time in UTC to the second, as the file keeps it: made once a second (a venue writes it
    with every move of every table)."""
    global _said_at
    second = int(time.time())
    if _said_at[0] != second:
        _said_at = (second, datetime.datetime.fromtimestamp(second, datetime.timezone.utc).isoformat())
    return _said_at[1]


class NotSQLite(Exception):
    """The file is not an SQLite database at all; the message says what it is instead."""


def connect_existing(path: Path, autocommit: bool = False, shared: bool = False) -> tuple[sqlite3.Connection, int]:
    """A connection to the existing file at ``path`` and the application id in its header, both
    read through SQLite alone.

    Why not read the header with ``open()``: closing *any* descriptor of a file drops every POSIX
    lock the process holds on it, SQLite's included.  A server holding the event open would then
    look absent to a command run beside it, and that command, closing its own last connection,
    would delete the write-ahead log the server is still writing into: every write acknowledged
    after that would be lost on a crash.  SQLite keeps its descriptors open while it holds locks,
    so going through it is safe whatever else the process has open.  ``PRAGMA application_id``
    reads the header only, so a file whose other pages are damaged still says what it is.
    Raises :class:`NotSQLite` (an empty file, or not a database), ``OSError`` (unreadable), or
    ``sqlite3.Error``."""
    size = path.stat().st_size  # a stat opens no descriptor
    if size == 0:
        raise NotSQLite("an empty file")
    if not os.access(path, os.R_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    databases_opened()  # (from now on, a file this process reads is first looked for among those it holds)
    conn = sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True, timeout=BUSY_TIMEOUT_S,
                           check_same_thread=not shared, **({"isolation_level": None} if autocommit else {}))
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.DatabaseError as e:
        conn.close()
        if "not a database" in str(e):
            raise NotSQLite("not an SQLite database") from None
        raise
    return conn, app_id


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` is SQLite saying another connection holds the file (busy or locked), which
    leaves nothing written: what waits for its turn may simply be tried again."""
    return isinstance(error, sqlite3.OperationalError) and (
        getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
        or str(error) in ("database is locked", "database table is locked"))


@contextlib.contextmanager
def not_waiting(conn: sqlite3.Connection) -> Iterator[None]:
    """Within it, a statement that finds the file held by another connection fails at once
    (:func:`is_busy`) instead of waiting up to :data:`BUSY_TIMEOUT_S` for its turn: for a caller
    that has somewhere else to wait (the venue's event loop hands the job to its thread).  The
    connection's own wait is put back after (the venue's is shorter than a command's)."""
    before = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        yield
    finally:
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(before)}")
        except sqlite3.ProgrammingError:
            pass  # (the job closed the connection: the venue shutting down while the file was held)


def begin(conn: sqlite3.Connection, on_wait: OnWait | None = None) -> None:
    """BEGIN IMMEDIATE: the write lock, waited for up to the connection's busy timeout
    (:data:`BUSY_TIMEOUT_S`) while another connection holds it.  ``on_wait``: called once if the
    lock is still held after :data:`NOTICE_AFTER_S`, before the rest of the wait.  Python's sqlite3
    has no busy handler to call back from, so the wait is SQLite's own in two parts: a short busy
    timeout, then, refused busy (which takes nothing), the time left of the whole."""
    if on_wait is None:  # (the venue's moves: not one statement more)
        conn.execute("BEGIN IMMEDIATE")
        return
    limit_ms = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    notice_ms = int(NOTICE_AFTER_S * 1000)
    if limit_ms <= notice_ms:
        conn.execute("BEGIN IMMEDIATE")
        return
    started = time.monotonic()
    conn.execute(f"PRAGMA busy_timeout = {notice_ms}")
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as e:
            if not is_busy(e):
                raise
        on_wait(limit_ms / 1000)
        left_ms = max(0, limit_ms - int((time.monotonic() - started) * 1000))
        conn.execute(f"PRAGMA busy_timeout = {left_ms}")
        conn.execute("BEGIN IMMEDIATE")
    finally:
        conn.execute(f"PRAGMA busy_timeout = {limit_ms}")


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, within: bool = False, on_wait: OnWait | None = None) -> Iterator[None]:
    """One write transaction, taken with BEGIN IMMEDIATE so that concurrent
    writers queue (busy timeout) instead of failing half-way: all of it
    lands, or none of it.  ``within``: inside a transaction already open (a
    group of writes committed together): a savepoint of it, all or nothing on
    its own, committed with the group.  ``on_wait``: told once if the write
    has to wait for its turn (:func:`begin`)."""
    if within:
        if not conn.in_transaction:
            raise RuntimeError("a write within a group, but no group transaction is open")
        conn.execute("SAVEPOINT write")
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK TO write")
                conn.execute("RELEASE write")
            raise
        else:
            conn.execute("RELEASE write")
        return
    if conn.in_transaction:
        raise RuntimeError("nested write transaction")
    begin(conn, on_wait)
    changes = conn.total_changes
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
            writes["taken_back"] += 1
        raise
    else:
        conn.execute("COMMIT")
        if conn.total_changes != changes:
            writes["committed"] += 1


class Checkpointer:
    """Copies the write-ahead log into the event file on a thread and a connection of its own,
    once a second, so that the connection taking the tables' moves never does it.

    SQLite checkpoints by itself when the log passes 1,000 pages, inside the commit that passed
    it: with a hall's moves arriving a few hundred a second, that commit (and every move waiting
    behind it) waited for the whole copy and its flush to disk.  The writer turns that off
    (``PRAGMA wal_autocheckpoint = 0``) and this thread checkpoints PASSIVE, which never waits for
    a writer or a reader and never holds one up.  Nothing is less durable: a commit is in the log,
    flushed, before it is acknowledged; the copy into the file is only housekeeping, done in full
    when the last connection closes."""

    def __init__(self, path: Path, every: float = 1.0) -> None:
        self.path, self.every = Path(path), every
        self._stop = threading.Event()
        #: How many checkpoints were made (for tests and the curious).
        self.made = 0
        self._thread = threading.Thread(target=self._run, name="checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            conn, _ = connect_existing(self.path, autocommit=True)
        except (NotSQLite, OSError, sqlite3.Error):
            return  # SQLite's own checkpoints are left to do it
        try:
            while not self._stop.wait(self.every):
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.made += 1
        finally:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


#: The files SQLite keeps beside a database, named after it: a write-ahead log, its index, a journal.
COMPANIONS = ("-wal", "-shm", "-journal")


def refuse_companions(path: Path, what: str = "event file") -> None:
    """Refuses a new ``what``'s name (an event file's, a ratings file's) that SQLite gives to
    another file's companion (``club.db-wal``: opening ``club.db`` then deletes it as a log that
    is none), and a name whose companion is already there: ``club.db-wal`` (or ``-journal``) left
    by an earlier ``club.db`` (moved away, or deleted, after a crash) holds its last writes,
    which SQLite would read into the new file as its own (a new event holding the old one's
    players, and damaged)."""
    for suffix in COMPANIONS:
        if path.name.endswith(suffix) and len(path.name) > len(suffix):
            raise EventFileError(f"{path}: the name cannot end in {suffix}, which SQLite gives to a file it keeps "
                                 f"beside {path.name[:-len(suffix)]}; choose another name for the {what}")
    for suffix in ("-wal", "-journal"):  # (a -shm alone holds no writes: SQLite makes it again)
        companion = Path(f"{path}{suffix}")
        if companion.exists() or companion.is_symlink():
            raise EventFileError(f"{companion} is there already: the last writes of an earlier {what} named "
                                 f"{path.name}, which SQLite would read into the new one as its own; move it to "
                                 f"where that {what} is (or delete it, if that file is gone) and run this again")
