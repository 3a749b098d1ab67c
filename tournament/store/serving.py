"""One ``tournament serve`` at a time on an event file: the claim a server holds while it runs.

Two servers on one event file both ran before, each answering its own phones: their writes
went through SQLite and so stayed whole, but each kept its own view of the tables, the
director followed one of them, and the hall's links led to whichever had printed them last.
Nothing warned the director that a second server had been started by mistake (a second
terminal, a laptop woken from sleep with the first still running).

So ``tournament serve`` claims the event first: an advisory lock (``flock``) on a small file
beside it, ``EVENT-serving``, held as long as the server runs.  The operating system lets the
lock go when the process ends, however it ends (Ctrl-C, ``kill -9``, a power cut), so a claim
never outlives its server; the file itself is removed when the server stops and is otherwise
harmless.  It holds one line a field (the process, the address it serves, since when), which
the server refused reads back to the director.  The lock is never taken on the event file
itself: SQLite is the only thing that opens that, as its own locks need (closing any other
descriptor of it would drop them).

Where the operating system has no ``flock`` (Windows), no claim is made and a second server
is not refused, as before.
"""

from __future__ import annotations

import os
from pathlib import Path

from tournament.errors import UnusableInput

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: The claim file's first line: what tells it from a file of somebody else's of the same name.
MARK = "tournament serve"


class AlreadyServed(UnusableInput):
    """Another ``tournament serve`` holds the event: the director is told which and where."""


def claim_path(event: str | Path) -> Path:
    """The claim file of ``event``, beside it (the event's real path: a second name for the same
    file, a link or another way of writing the path, names the same claim)."""
    real = Path(event).resolve()
    return real.with_name(real.name + "-serving")


class Claim:
    """A server's claim on an event (:func:`claim`), let go by :meth:`release` (or by the end of
    the process)."""

    def __init__(self, path: Path | None, fd: int | None) -> None:
        self.path, self._fd = path, fd

    def say(self, url: str, since: str) -> None:
        """What the claim file tells a second server: this process, where it serves, since when."""
        if self._fd is None:
            return
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{MARK}\nprocess {os.getpid()}\nurl {url}\nsince {since}\n".encode("utf-8"), 0)

    def release(self) -> None:
        """The claim file removed, then its lock let go (in that order: a server starting meanwhile
        finds either this lock held or no file, never a file no lock will ever guard)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if self.path is not None and _same_file(fd, self.path):
                self.path.unlink()
        except OSError:
            pass  # (left behind, it claims nothing: no lock holds it)
        finally:
            os.close(fd)


def claim(event: str | Path, url: str, since: str) -> Claim:
    """Claim ``event`` for the server about to serve it at ``url`` (from ``since``, a time).

    Raises :class:`AlreadyServed` while another process holds it, saying which process and where
    it serves, and :class:`~tournament.errors.UnusableInput` where the claim file cannot be made
    or is somebody else's file."""
    if fcntl is None:  # pragma: no cover - Windows
        return Claim(None, None)
    path = claim_path(event)
    for _ in range(10):  # (a claim file removed between its opening and its lock: opened again)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise UnusableInput(f"cannot make {path.name} beside the event ({e.strerror or e}): the server "
                                f"writes in the event's folder") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held = _read(fd)
            os.close(fd)
            raise AlreadyServed(_served_already(event, held)) from None
        except OSError:  # a file system without locks (some network shares): served unclaimed, as before
            empty = _read(fd) == ""
            os.close(fd)
            if empty:
                path.unlink(missing_ok=True)
            return Claim(None, None)
        if not _same_file(fd, path):
            os.close(fd)
            continue
        before = _read(fd)
        if before and not before.startswith(MARK):
            os.close(fd)
            raise UnusableInput(f"{path} is not tournament serve's file, and tournament serve never replaces a "
                                f"file it did not write: move it away, then serve again")
        made = Claim(path, fd)
        made.say(url, since)
        return made
    raise UnusableInput(f"cannot claim {path.name} beside the event: it keeps being removed")


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 4096, 0).decode("utf-8", "replace")
    except OSError:
        return ""


def _served_already(event: str | Path, held: str) -> str:
    """The refusal of a second server, in one line: who serves the event, and what to do."""
    fields = dict(line.split(" ", 1) for line in held.splitlines()[1:] if " " in line) if held.startswith(MARK) else {}
    who = ", ".join(part for part in (
        f"process {fields['process']}" if "process" in fields else "",
        f"at {fields['url']}" if "url" in fields else "",
        f"since {fields['since']}" if "since" in fields else "") if part)
    return (f"{event} is being served already ({who or 'by another process'}): one server at a time "
            f"takes an event's moves; use that one (its links and pages), or stop it (Ctrl-C where it "
            f"runs) and serve again")
