"""Files domrec and tournament write: whole or not at all, and never over what must not be replaced.

Every command that writes a file goes through :func:`writing` (or :func:`write_text`),
so one set of rules holds everywhere:

* **Whole or not at all.**  The text goes to a temporary file in the target's own folder
  (``.NAME.<random letters>.tmp``), is flushed to disk, and is renamed over the target.  A reader
  never sees half a file; a failure (a full disk, an I/O error, Ctrl-C) removes the
  temporary file and leaves the old file exactly as it was.
* **Several files as one** (:class:`Together`: a report's page and the folders beside it, an
  export's CSV files, a round's sheets): each made under a temporary name beside its target,
  all moved into place only when all are complete; until then every target is as it was.
* **Never replaced, even with --force:** anything that is not a regular file (a folder, a
  device such as ``/dev/null``, a FIFO, a socket), a symbolic link (to a file or a folder),
  and the ``-wal``/``-shm``/``-journal`` file of an SQLite database (replacing one would
  corrupt the database beside it, which is never what --force means).  A link is not followed because the file it points to may be anyone's; a device is not
  written into because ``-o -`` does that job (``-o - > /dev/null``).
* **Never replaced, even with --force:** the file the command reads (:func:`reads`: its event,
  its records): ``export EVENT -o EVENT --force`` would replace the event with its own export.
* **Never read by the command that writes it:** the file :func:`writing` replaces (and its
  temporary file) is left out of every folder the command reads (:func:`domrec.reader.writes`,
  by identity), so that ``validate sub --summary sub/sum.jsonl`` does not check, on its next
  run, the summary of the run before as records.
* **Never replaced, even with --force:** an SQLite database in use (its ``-wal`` or ``-shm``
  beside it): a server writing it would go on writing into the file replaced, and every move
  and result it acknowledged from then on would be lost.
* **A file domrec did not write is replaced only with --force.**  domrec recognises its own
  outputs by a mark each :class:`Kind` knows (a generator mark in HTML, SVG and JSON
  exports, the exact CSV header, a ``generator`` field in every simulated record).  Records
  (typed, recorded, converted) carry no such mark: they are somebody's games, and replacing
  one always needs --force.  An SQLite database (an event or ratings file) is the clearest case:
  the refusal names it as a database, so that --force is a decision, not a reflex.

Errors are :class:`OutputError` (an :class:`~domrec.errors.InputError`: exit 2), one line each.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import stat
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO, Any, Callable, Iterator

import attrs

from domrec.errors import InputError, one_line
from domrec.reader import database_in_use, file_identity, forget_writes, writes

SQLITE_MAGIC = b"SQLite format 3\x00"
#: How much of an existing file is read to find a generator mark near its start.
HEAD_BYTES = 4096


class OutputError(InputError):
    """A file that cannot or must not be written; nothing was written."""


class NotReplaced(OutputError):
    """The target exists and is not to be replaced (not a regular file, a database, or not domrec's own)."""


class NeedsForce(NotReplaced):
    """An existing regular file domrec did not write (or a record): --force would replace it."""


class WriteFailed(OutputError):
    """Writing failed (a full disk, an I/O error, no permission); the target is as it was."""


@attrs.frozen
class Kind:
    """What a command writes, and how a file it wrote earlier is recognised.

    ``own`` answers "did a command of this kind write this file?" from the file itself;
    ``None`` means files of this kind are never taken for domrec's own (records).  ``private``:
    the file holds secrets (players' PINs), so a new one is readable by its owner alone (0600),
    not by every account of the laptop as a report is."""

    name: str
    own: Callable[[Path], bool] | None = None
    private: bool = False


def _head(path: Path, size: int = HEAD_BYTES) -> bytes:
    try:
        with path.open("rb") as f:
            return f.read(size)
    except OSError:
        return b""


def marked(mark: str, within: int = HEAD_BYTES) -> Callable[[Path], bool]:
    """A file of this kind holds ``mark`` near its start (a generator meta tag, an SVG comment)."""
    needle = mark.encode("utf-8")
    return lambda path: needle in _head(path, within)


def first_line(header: str) -> Callable[[Path], bool]:
    """A CSV file of this kind starts with exactly this header line."""
    line = header.rstrip("\n").encode("utf-8")
    return lambda path: _head(path, len(line) + 2).splitlines()[:1] == [line]


#: The mark :func:`mark_simulated` puts in a simulated record's ``event``.
SIMULATED_MARK = {"generator": "domrec simulate"}
_JSONL_MARK = b'"event":{"generator":"domrec simulate"}'
_DGN_MARK = b'[generator "domrec simulate"]'


def _simulated(path: Path) -> bool:
    """Every record of the file is marked as simulated (JSON Lines: every line; DGN: every game).

    A record typed or recorded by a person and added to a simulated archive makes the whole
    file somebody's: it is then replaced only with --force."""
    records = marks = 0
    kind = None
    try:
        with path.open("rb") as f:
            for line in f:
                stripped = line.strip()
                if not stripped:
                    continue
                if kind is None:
                    kind = "jsonl" if stripped.startswith(b"{") else "dgn"
                if kind == "jsonl":
                    records += 1
                    marks += _JSONL_MARK in stripped
                elif stripped.startswith(b"[Game "):
                    records += 1
                elif stripped == _DGN_MARK:
                    marks += 1
    except OSError:
        return False
    return records > 0 and marks == records


#: Records: typed, recorded, converted.  Never domrec's to replace without --force.
RECORDS = Kind("records")
#: ``domrec simulate``'s archives (JSON Lines or DGN), every record marked by :data:`SIMULATED_MARK`.
SIMULATED = Kind("domrec simulate's records", _simulated)
#: ``domrec explain --svg``'s picture.
def _summary(path: Path) -> bool:
    """A summary ``domrec validate --summary`` wrote: a CSV whose first line is exactly
    :data:`domrec.summary.CSV_HEADER`, or JSON Lines whose first line is an object with exactly
    the summary's columns, in their order.  An empty file is not known to be one (a file made
    empty by another program, or by a command that failed, may be someone's): it is replaced
    only with ``--force``, as any file domrec did not write."""
    from domrec.summary import COLUMNS, CSV_HEADER

    head = _head(path)
    if not head:
        return False
    first = head.split(b"\n", 1)[0]
    if first.rstrip(b"\r") == CSV_HEADER.encode():
        return True
    if not head.count(b"\n") and len(head) == HEAD_BYTES:
        head = _head(path, 1 << 20)  # a long first problem: read its whole line
        first = head.split(b"\n", 1)[0]
    try:
        value = json.loads(first)
    except ValueError:
        return False
    return isinstance(value, dict) and tuple(value) == COLUMNS


#: ``domrec validate --summary``'s files (CSV or JSON Lines, see :mod:`domrec.summary`).
SUMMARY = Kind("a summary written by domrec validate", _summary)

SVG_MARK = "<!-- generator: domrec explain -->"
PICTURE = Kind("a picture by domrec explain --svg", marked(SVG_MARK))


#: Replay pages: ``explain --html``, and the pages ``tournament report`` writes beside its report.
REPLAY_MARK = '<meta name="generator" content="domrec replay page">'
REPLAY = Kind("a replay page written by domrec", marked(REPLAY_MARK))


def mark_svg(svg: str) -> str:
    """The picture with :data:`SVG_MARK` just inside its root element, so it still starts ``<svg``."""
    end = svg.find(">", svg.find("<svg"))
    return svg if end < 0 else svg[:end + 1] + SVG_MARK + svg[end + 1:]


def _label(path: Path) -> str:
    """A file name fit for one line: bytes that are not UTF-8 shown as ``\\xff``, line breaks escaped."""
    return one_line(os.fsencode(path).decode("utf-8", "backslashreplace"))


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _is_database_companion(path: Path) -> bool:
    """A database's write-ahead log, shared memory or rollback journal (by SQLite's own names)."""
    return path.name.endswith(("-wal", "-shm", "-journal"))


def _is_database(path: Path) -> bool:
    """An SQLite database.  One with a write-ahead log or shared memory beside it is known without
    opening it: it may be the event this very process holds open (``tournament report EVENT -o
    EVENT``), and closing any descriptor of a file drops all the process's locks on it, SQLite's
    included, which lets another process delete the live log."""
    if database_in_use(path):
        return True
    return _head(path, len(SQLITE_MAGIC)) == SQLITE_MAGIC


#: The files this process's command reads (its event, its records), as (device, inode): never
#: replaced by what the command writes, not even with --force (``tournament export EVENT -o EVENT
#: --force`` replaced the event with its own export).  Known by ``os.stat``, which opens nothing.
_READ: set[tuple[int, int]] = set()


def new_command() -> None:
    """A command starts, or ends: the files it read are forgotten (the command lines' callbacks;
    a test, or a program calling the library, runs many commands in one process)."""
    _READ.clear()
    forget_writes()


def reads(path: str | Path) -> None:
    """Say that this process's command reads ``path`` (an event file, a record): :func:`check`
    then never lets the command write over it.  A path that is no file (``-``, standard input;
    a folder) is let be."""
    identity = file_identity(path)
    if identity is not None:
        _READ.add(identity)


def check(path: str | Path, kind: Kind, force: bool = False, has_force: bool = True) -> None:
    """Raise :class:`NotReplaced` if writing ``kind`` to ``path`` would replace what it must not.
    ``has_force``: whether the command has a --force to name (``record``, continuing its own
    file, has none).

    A missing target is fine (whether its folder exists is found out when writing)."""
    never = "never replaced, not even with --force" if has_force else "never replaced"
    target = Path(path)
    label = _label(target)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return
    except OSError as e:
        raise WriteFailed(f"cannot write {label}: {e.strerror}") from None
    if (st.st_dev, st.st_ino) in _READ:
        raise NotReplaced(f"{label} is the file this command reads: never replaced by what it writes"
                          f"{', not even with --force' if has_force else ''}; choose another file")
    if stat.S_ISLNK(st.st_mode):
        raise NotReplaced(f"{label} is a symbolic link, not a regular file: {never} "
                          f"(write to the file itself, or remove the link)")
    if not stat.S_ISREG(st.st_mode):
        hint = " (- writes to standard output)" if stat.S_ISCHR(st.st_mode) else ""
        raise NotReplaced(f"{label} is {_what(st.st_mode)}, not a regular file: {never}{hint}")
    if _is_database_companion(target):
        raise NotReplaced(f"{label} is an SQLite database's -wal, -shm or -journal file: {never}; "
                          f"choose another file")
    if database_in_use(target):
        raise NotReplaced(f"{label} is an SQLite database in use (its -wal or -shm file is beside it: a server "
                          f"or a command has it open): {never}; what it writes "
                          f"would go on into the file replaced, and be lost")
    if not force and _is_database(target):
        raise NeedsForce(f"{label} is an SQLite database (an event or ratings file?): not replaced "
                         f"(use --force if it is really to be replaced)")
    if force or (kind.own is not None and kind.own(target)):
        return
    if kind.own is None:
        raise NeedsForce(f"{label} already exists: not replaced (use --force to replace it)")
    raise NeedsForce(f"{label} already exists and is not {kind.name}: not replaced (use --force to replace it)")


def _new_file_mode(target: Path) -> int:
    """The mode of the file replaced, or the usual one for a new file (0666 less the umask):
    mkstemp makes the file private, and a report or a record is meant to be read by others."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


@contextlib.contextmanager
def _terminations_raise() -> Iterator[None]:
    """While a temporary file is being written, SIGTERM and SIGHUP (``kill``, ``timeout``, a
    closed terminal) exit through Python, as Ctrl-C does, so that the temporary file is removed:
    their default action ends the process at once and left ``.NAME.xxxx.tmp`` behind.  Only the
    main thread can set handlers; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def leave(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    saved = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) == signal.SIG_DFL:
            saved[number] = signal.signal(number, leave)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def writing(path: str | Path, kind: Kind, force: bool = False) -> Iterator[IO[str]]:
    """A text stream whose contents replace ``path`` once the ``with`` block ends without error.

    ``-`` is standard output.  Inside the block the text goes to a temporary file beside the
    target; any exception (a full disk, Ctrl-C, an error of the caller) removes it and leaves
    the target as it was.  :class:`OutputError` says in one line why nothing was written."""
    if str(path) == "-":
        yield from _to_stdout()
        return
    target = Path(path)
    label = _label(target)
    check(target, kind, force)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise WriteFailed(f"cannot write {label}: folder {_label(folder)} does not exist")
    writes(file_identity(target))  # (never read as one of the command's inputs: see domrec.reader.writes)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise WriteFailed(f"cannot write in {_label(folder)}: {e.strerror}") from None
    writes(file_identity(tmp))
    with _terminations_raise():
        try:
            os.chmod(tmp, 0o600 if kind.private else _new_file_mode(target))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n", errors="surrogateescape") as out:
                yield out
                out.flush()
                os.fsync(out.fileno())
            check(target, kind, force)  # again: something may have appeared there meanwhile
            os.replace(tmp, target)
        except BaseException as e:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(e, OSError):
                raise WriteFailed(f"cannot write {label}: {e.strerror or e}; nothing was written") from None
            raise


class ReaderGone(Exception):
    """Standard output's reader has gone (``| head``), said by :func:`to_stdout`: not an
    ``OSError``, so that a file being written meanwhile (``validate --summary``) is not said to
    have failed, only left as it was."""


@contextlib.contextmanager
def to_stdout() -> Iterator[IO[str]]:
    """Standard output for a command that prints as it goes (``validate``'s verdicts), by
    :func:`writing`'s rules for ``-``: a write error (``> /dev/full``, a closed standard output)
    is one line, :class:`WriteFailed`; a reader that has gone is :class:`ReaderGone`, for the
    command to end quietly."""
    try:
        yield from _to_stdout()
    except BrokenPipeError:
        raise ReaderGone from None


def _to_stdout() -> Iterator[IO[str]]:
    """Standard output, with a write error (``> /dev/full``) turned into one line.  A reader
    that has gone (``| head``) is not an error: the rest is dropped quietly."""
    try:
        yield sys.stdout
        sys.stdout.flush()
    except OSError as e:
        if e.errno == errno.EPIPE:
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise
        with contextlib.suppress(OSError):  # what is left in the buffer cannot be written either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise WriteFailed(f"cannot write to standard output: {e.strerror or e}") from None


def write_text(path: str | Path, text: str, kind: Kind = RECORDS, force: bool = False) -> None:
    """``text`` into ``path`` (``-``: standard output) by :func:`writing`'s rules."""
    with writing(path, kind, force) as out:
        out.write(text)


class Together:
    """Files and folders written as one (``tournament report``'s page and the folders beside it,
    ``export --csv``'s files): each is made under a temporary name beside its target, and only
    when every one is complete are they moved into place (:meth:`commit`), Ctrl-C held off
    meanwhile (a few renames).  Until then nothing of the targets has changed; a failure or
    Ctrl-C before it (:meth:`discard`, or leaving the ``with`` block with an error) removes
    the temporary ones, so nothing half made is left behind, not even a new empty folder.

    A folder is never replaced as a whole: its new files are moved into it one by one, each
    over a file of the same name only where :func:`check` allows it (one this kind of command
    wrote, or --force), and whatever else it holds (a file the command did not write, a page
    it wrote for a player since removed) is left as it was.  A folder that did not exist is
    moved into place whole."""

    def __init__(self) -> None:
        self._folders: list[tuple[Path, Path, Kind, bool]] = []  # (target, temporary folder, kind, force)
        self._files: list[tuple[Path, Path, Kind, bool]] = []  # (target, temporary file, kind, force)
        self._terminations = contextlib.ExitStack()

    def __enter__(self) -> "Together":
        self._terminations.enter_context(_terminations_raise())  # (kill, timeout: the temporary ones removed)
        return self

    def __exit__(self, kind: Any, error: Any, tb: Any) -> None:
        try:
            if error is None:
                self.commit()
        finally:
            self.discard()
            self._terminations.close()

    def folder(self, target: Path, kind: Kind, force: bool = False) -> Path:
        """The temporary folder beside the folder ``target`` to write its new files in, by
        :func:`write_text` as ever; :meth:`commit` moves them into ``target``, each over a file
        of the same name by :func:`check`'s rules for ``kind`` (and ``force``)."""
        parent = target.parent if str(target.parent) else Path(".")
        try:
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
        except OSError as e:
            raise WriteFailed(f"cannot write in {_label(parent)}: {e.strerror}; nothing was written") from None
        self._folders.append((target, staging, kind, force))
        return staging

    def file(self, target: Path, text: str, kind: Kind, force: bool = False) -> None:
        """``text`` written to a temporary file beside ``target``, moved over it by :meth:`commit`."""
        check(target, kind, force)
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir():
            raise WriteFailed(f"cannot write {_label(target)}: folder {_label(folder)} does not exist")
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        except OSError as e:
            raise WriteFailed(f"cannot write in {_label(folder)}: {e.strerror}") from None
        self._files.append((target, Path(tmp), kind, force))
        try:
            os.chmod(tmp, 0o600 if kind.private else _new_file_mode(target))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n", errors="surrogateescape") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
        except OSError as e:
            raise WriteFailed(f"cannot write {_label(target)}: {e.strerror or e}; nothing was written") from None

    def commit(self, then: Callable[[], None] | None = None) -> None:
        """Every target checked again (something may have appeared meanwhile), then everything moved
        into place with Ctrl-C (and SIGTERM, SIGHUP) held off until the moves are made; ``then()``
        (what the command says it has done) is called before a Ctrl-C held off is raised."""
        moves: list[tuple[Path, Path]] = []
        whole: list[tuple[Path, Path]] = []  # (temporary folder, the folder it becomes)
        emptied: list[tuple[Path, Path]] = []  # (temporary folder, the folder its files move into)
        for target, staging, kind, force in self._folders:
            try:
                st = os.lstat(target)
            except FileNotFoundError:
                whole.append((staging, target))
                continue
            except OSError as e:
                raise WriteFailed(f"cannot write in {_label(target)}: {e.strerror}; nothing was written") from None
            if not stat.S_ISDIR(st.st_mode):
                raise NotReplaced(f"{_label(target)} is not a folder: its files cannot be written there; "
                                  f"nothing was written")
            for entry in sorted(staging.iterdir()):
                check(target / entry.name, kind, force)
                moves.append((entry, target / entry.name))
            emptied.append((staging, target))
        for target, tmp, kind, force in self._files:
            check(target, kind, force)
            moves.append((tmp, target))
        with _signals_held() as held:
            try:
                for staging, target in whole:
                    os.chmod(staging, _new_folder_mode())
                    os.rename(staging, target)
                for source, target in moves:
                    os.replace(source, target)
            except OSError as e:
                raise WriteFailed(f"cannot move {_label(target)} into place: {e.strerror or e}") from None
            for staging, _ in emptied:
                with contextlib.suppress(OSError):
                    os.rmdir(staging)
            self._folders, self._files = [], []
            if then is not None:
                then()
        held.deliver()

    def discard(self) -> None:
        """The temporary files and folders removed (those not moved into place)."""
        import shutil

        for _, staging, _, _ in self._folders:
            shutil.rmtree(staging, ignore_errors=True)
        for _, tmp, _, _ in self._files:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        self._folders, self._files = [], []


def _new_folder_mode() -> int:
    """The usual mode of a new folder (0777 less the umask): mkdtemp makes its folder private."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o777 & ~mask


class _Held:
    """The signals that came while :func:`_signals_held` held them off."""

    def __init__(self) -> None:
        self.came: list[int] = []

    def deliver(self) -> None:
        """Each signal held off, raised now as its handler would have: Ctrl-C as
        KeyboardInterrupt, SIGTERM and SIGHUP as the exit :func:`_terminations_raise` makes."""
        if signal.SIGINT in self.came:
            raise KeyboardInterrupt
        if self.came:
            raise SystemExit(128 + self.came[0])


@contextlib.contextmanager
def _signals_held() -> Iterator[_Held]:
    """Ctrl-C, SIGTERM and SIGHUP noted, not acted on, while the block runs (the renames that move a
    :class:`Together` into place: milliseconds); the caller delivers them after.  Only the main
    thread can set handlers; elsewhere nothing changes."""
    held = _Held()
    if threading.current_thread() is not threading.main_thread():
        yield held
        return
    saved = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) != signal.SIG_IGN:  # (nohup's SIGHUP stays ignored)
            saved[number] = signal.signal(number, lambda signum, frame: held.came.append(signum))
    try:
        yield held
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
