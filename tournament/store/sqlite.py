"""What the tool's SQLite files share (an event file, a ratings file): how a file is recognised, how
long a writer waits its turn, and one write transaction."""

from __future__ import annotations

import contextlib
import datetime
import sqlite3
from pathlib import Path
from typing import Iterator

SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_S = 30.0


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def header_application_id(path: Path) -> int | None:
    """The application id in the file's 100-byte header (bytes 68-71), read without SQLite: a
    file whose pages are damaged still says whether it is an event file."""
    try:
        with path.open("rb") as f:
            head = f.read(100)
    except OSError:
        return None
    return int.from_bytes(head[68:72], "big") if len(head) == 100 else None


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, taken with BEGIN IMMEDIATE so that concurrent
    writers queue (busy timeout) instead of failing half-way: all of it
    lands, or none of it."""
    if conn.in_transaction:
        raise RuntimeError("nested write transaction")
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")
