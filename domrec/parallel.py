"""Checking an archive on every core: worker processes, verdicts in input order.

``domrec validate -j N`` and Python callers use :func:`check`.  The main process
reads the sources (:func:`domrec.reader.iter_sources`: files, folders, JSON Lines
lines, DGN texts) and groups them into chunks of about :data:`CHUNK_BYTES`; at most
:data:`WINDOW_PER_WORKER` chunks per worker are in flight at a time, so memory is
bounded by the window, never by the archive's size.  Each worker checks a chunk with
the very function the single-process run uses (:func:`reports_of`), and the main
process hands the verdicts on in the order the sources were read, so the output of
``-j N`` is the output of ``-j 1``, byte for byte.

A worker that dies (killed, out of memory) must not lose records: the chunks it was
checking are checked again, one record at a time, in a fresh process; a record that
kills that process too is reported as unusable ("not checked: the worker process
checking it died twice").  Each death is told in one line through ``on_death``.

Workers are plain child processes (:class:`_Pool`), each fed through two pipes by a
thread of the main process.  They end when the main process ends, however it ends
(``kill -9`` included: on Linux the kernel kills them, ``PR_SET_PDEATHSIG``), and they
run in a session of their own, so a terminal's Ctrl-C reaches the main process alone,
which terminates them and lets :class:`KeyboardInterrupt` through to its caller.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import os
import pickle
import queue
import resource
import signal
import subprocess
import sys
import threading
import time
from typing import Callable, Iterable, Iterator

import attrs

from domrec import reader
from domrec.validate import Problem, Report, batch_mode, unusable, validate_text

#: About this many bytes of record text go to a worker at a time: large enough that the
#: cost of sending them is small beside checking them, small enough to keep memory low.
CHUNK_BYTES = 1024 * 1024
#: Chunks in flight per worker: one being checked, one waiting, so no worker idles.
WINDOW_PER_WORKER = 2
#: Inputs larger than this (in total) are checked on every core unless ``-j`` says otherwise.
LARGE_BYTES = 16 * 1024 * 1024
#: ... and so are more files than this.
LARGE_FILES = 2000
#: The one line a record gets when checking it killed a worker process twice.
DIED_TWICE = "not checked: the worker process checking it died twice"
#: Test hook: a worker checking the source with this label kills itself (``kill -9``).  With
#: ``LABEL@FILE`` it does so only while FILE does not exist, creating it: it dies once.
KILL_HOOK = "DOMREC_TEST_KILL_WORKER"


def _internal(label: str, e: Exception) -> Report:
    problem = Problem("", f"domrec could not check this record because of an internal error "
                          f"({type(e).__name__}: {e}); please report it", "", "internal")
    return Report(label, None, "unusable", (problem,))


def reports_of(src: reader.Source) -> Iterator[Report]:
    """The verdicts on one source: one record, or each game of a DGN text.

    The one function every way of checking an archive goes through (one process, worker
    processes), so the verdicts are the same whichever is used."""
    if src.error:
        yield unusable(src.label, src.error)
    elif src.form == "dgn":
        from domrec import notation

        games_ = notation.read_source(src)
        while True:
            try:
                game = next(games_)
            except StopIteration:
                return
            except Exception as e:  # a reader bug must not stop a whole archive
                yield _internal(src.label, e)
                return
            yield game.report
    else:
        try:
            yield validate_text(src.text, src.label, src.archive_line)
        except Exception as e:  # an engine bug must not stop a whole archive
            yield _internal(src.label, e)


def jobs_for(paths: list[str], jobs: int | None) -> int:
    """How many worker processes to use: ``jobs`` if given (0: every core); otherwise every
    core for a large input (over :data:`LARGE_BYTES` or :data:`LARGE_FILES` files), and one
    for a small input or standard input, where starting workers costs more than it saves."""
    cores = os.cpu_count() or 1
    if jobs is not None:
        return cores if jobs == 0 else jobs
    if "-" in paths:
        return 1
    size = files = 0
    for one in reader.input_files(paths):
        size, files = size + one, files + 1
        if size > LARGE_BYTES or files > LARGE_FILES:
            return cores
    return 1


@attrs.define
class Stats:
    """What a run cost: the peak memory (maxrss, KiB) of each worker process, by pid."""

    worker_maxrss: dict[int, int] = attrs.Factory(dict)
    deaths: int = 0


# --- in the worker ----------------------------------------------------------------------

def _kill_hook(label: str) -> None:
    wanted = os.environ.get(KILL_HOOK)
    if not wanted:
        return
    name, _, once = wanted.partition("@")
    if label != name:
        return
    if once:
        try:
            os.close(os.open(once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
    os.kill(os.getpid(), signal.SIGKILL)


def _check_chunk(items: list[tuple[str, bytes, str, int]]) -> tuple[list[list[Report]], int, int]:
    """Each source's verdicts, and this worker's pid and peak memory so far."""
    out = []
    for label, text, form, first_line in items:
        _kill_hook(label)
        out.append(list(reports_of(reader.Source(label, text, form=form, first_line=first_line))))
    return out, os.getpid(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# --- the worker processes -----------------------------------------------------------------

#: What a worker process runs: it reads the parent's ``sys.path`` (so it imports the same domrec),
#: then serves chunks until its input ends.  The last argument marks it for tools and tests.
#: A parent interrupted before it sent the path (Ctrl-C as the pool starts) closes the pipe at
#: once: the worker then ends quietly, since its standard error is the user's terminal.
_WORKER_CODE = ("import pickle, sys\n"
                "try:\n    sys.path[:] = pickle.load(sys.stdin.buffer)\n"
                "except EOFError:\n    raise SystemExit(0)\n"
                "from domrec.parallel import _serve; _serve(int(sys.argv[1]))")
#: The argument that marks a worker process on its command line (``ps``, /proc).
WORKER_MARK = "--domrec-worker"


class BrokenPool(Exception):
    """A worker process died: every chunk in flight is lost (and checked again)."""


def _die_with(parent: int) -> None:
    """End this worker when ``parent`` dies, however it dies (``kill -9`` included).

    On Linux the kernel does it: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``.  A parent that died
    before this ran has already given the worker to another process: then it ends at once.
    Elsewhere a thread looks for the parent every second."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:
                os._exit(1)
            return
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _serve(parent: int) -> None:
    """A worker's life: chunks in on standard input, their verdicts out on standard output
    (pickled), until the parent closes the pipe or dies."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    batch_mode()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the verdicts' pipe
    while True:
        try:
            items = pickle.load(stdin)
        except EOFError:
            return
        pickle.dump(_check_chunk(items), stdout, pickle.HIGHEST_PROTOCOL)
        stdout.flush()


class _Pool:
    """``jobs`` worker processes, each fed by a thread of this process.

    Not :mod:`multiprocessing`: its ``spawn`` workers need a resource tracker process, which
    outlived a parent killed with ``kill -9`` (as did the workers), and printed a traceback when
    a worker was killed.  These are plain child processes with two pipes each, in a session of
    their own (a terminal's Ctrl-C reaches the main process alone, which stops them), that end
    when the main process ends (:func:`_die_with`).  As with a process pool, a worker that dies
    breaks the pool: every chunk in flight fails with :class:`BrokenPool`."""

    def __init__(self, jobs: int) -> None:
        self._tasks: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._pending: set[cf.Future] = set()
        self._procs: list[subprocess.Popen] = []
        self._broken = False
        self._threads = [threading.Thread(target=self._feed, daemon=True) for _ in range(jobs)]
        try:
            for t in self._threads:
                t.start()
        except BaseException:  # Ctrl-C while the workers start: none may outlive the pool
            self.stop()
            raise

    def submit(self, items: list) -> cf.Future:
        future: cf.Future = cf.Future()
        with self._lock:
            if self._broken:
                future.set_exception(BrokenPool())
                return future
            self._pending.add(future)
        self._tasks.put((future, items))
        return future

    def _start(self) -> subprocess.Popen | None:
        with self._lock:
            if self._broken:
                return None
            proc = subprocess.Popen([sys.executable, "-c", _WORKER_CODE, str(os.getpid()), WORKER_MARK],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
            self._procs.append(proc)
        return proc

    def _feed(self) -> None:
        """One worker's thread: it starts the worker (so the worker's life is tied to a thread that
        lives as long as it is wanted) and hands it chunks one at a time."""
        try:
            proc = self._start()
        except OSError:
            proc = None
        if proc is None:
            self._break()
            return
        try:
            pickle.dump(sys.path, proc.stdin)
            proc.stdin.flush()
            while True:
                task = self._tasks.get()
                if task is None:
                    break
                future, items = task
                pickle.dump(items, proc.stdin, pickle.HIGHEST_PROTOCOL)
                proc.stdin.flush()
                result = pickle.load(proc.stdout)
                with self._lock:
                    self._pending.discard(future)
                    if not future.done():
                        future.set_result(result)
        except Exception:  # the worker died (EOF, a broken pipe, half a message)
            self._break()
        finally:
            with contextlib.suppress(OSError):
                proc.stdin.close()

    def _break(self) -> None:
        with self._lock:
            self._broken = True
            pending, self._pending = self._pending, set()
        for future in pending:
            if not future.done():
                future.set_exception(BrokenPool())
        for _ in self._threads:
            self._tasks.put(None)

    def stop(self) -> None:
        """Terminate the workers at once (the end, Ctrl-C, an error) and wait for them and their threads."""
        self._break()
        with self._lock:
            procs = list(self._procs)
        for p in procs:
            with contextlib.suppress(OSError):
                p.kill()
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(30)
        for t in self._threads:
            if t.ident is not None:  # started
                t.join(30)
        for p in procs:
            with contextlib.suppress(OSError):
                p.stdout.close()


# --- in the main process ----------------------------------------------------------------

def _chunks(sources: Iterable[reader.Source]) -> Iterator[list[reader.Source]]:
    chunk: list[reader.Source] = []
    size = 0
    for src in sources:
        chunk.append(src)
        size += len(src.text or b"") + 64
        if size >= CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _pool(jobs: int) -> _Pool:
    return _Pool(jobs)


def _stop(pool: _Pool) -> None:
    """Terminate the workers at once (the end, Ctrl-C, an error): nothing they would still say is wanted."""
    pool.stop()


def lost_said(in_flight: list[tuple[list[reader.Source], object]]) -> str:
    """The line that tells of a worker's death: which records lost their verdicts with it, and how
    many, so that the stretch named and the count agree.  ``in_flight``: the chunks the pool held,
    in input order, each with its verdicts, or None where they were lost (the first always is).

    Every chunk the pool held is lost with it but those another worker had finished: the lost ones
    are one stretch of the input (named from its first record to its last), or, where a finished
    chunk lies between them, only some of the records between the first lost and the last."""
    lost = [k for k, (_, verdicts) in enumerate(in_flight) if verdicts is None]
    count = sum(len(in_flight[k][0]) for k in lost)
    first, last = in_flight[lost[0]][0][0].label, in_flight[lost[-1]][0][-1].label
    if count == 1:
        return f"warning: a worker process died while checking {first}; it is checked again, in a process of its own"
    if lost[-1] - lost[0] + 1 == len(lost):
        return (f"warning: a worker process died while checking {first} to {last}; those {count:,} records are "
                f"checked again, one at a time")
    return (f"warning: a worker process died while checking records between {first} and {last}; the {count:,} of "
            f"them whose verdicts were lost are checked again, one at a time")


def _default_death(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def check(sources: Iterable[reader.Source], jobs: int,
          on_death: Callable[[str], None] = _default_death, stats: Stats | None = None) -> Iterator[Report]:
    """The verdicts on ``sources``, in their order, checked by ``jobs`` worker processes.

    With ``jobs`` 1 or less the sources are checked in this process (no worker is started).
    ``on_death`` is told, in one line, of each worker that died; ``stats`` (if given) is
    filled with the workers' peak memory."""
    stats = stats if stats is not None else Stats()
    if jobs <= 1:
        for src in sources:
            yield from reports_of(src)
        return
    pool: _Pool | None = None
    window: collections.deque = collections.deque()
    chunks = _chunks(sources)
    try:
        pool = _pool(jobs)  # in the try: Ctrl-C just after the workers start still stops them
        more = True
        while more or window:
            while more and len(window) < jobs * WINDOW_PER_WORKER:
                chunk = next(chunks, None)
                if chunk is None:
                    more = False
                    break
                window.append((chunk, _submit(pool, chunk)))
            if not window:
                break
            chunk, future = window.popleft()
            try:
                results = _results(chunk, future, stats)
            except BrokenPool:
                # Every chunk in flight is lost with the pool; the dead worker's is among them.
                lost = [(chunk, future)] + list(window)
                window.clear()
                _stop(pool)
                stats.deaths += 1
                settled: list[tuple[list[reader.Source], list[list[Report]] | None]] = []
                for c, f in lost:
                    try:
                        settled.append((c, _results(c, f, stats)))
                    except BrokenPool:
                        settled.append((c, None))
                on_death(lost_said(settled))
                pool = _pool(jobs)
                for c, res in settled:
                    if res is None:
                        res = _one_at_a_time(c, stats, on_death)
                    for reports in res:
                        yield from reports
                continue
            for reports in results:
                yield from reports
    finally:
        if pool is not None:
            _stop(pool)


def _submit(pool: _Pool, chunk: list[reader.Source]) -> cf.Future:
    return pool.submit([(s.label, s.text, s.form, s.first_line) for s in chunk if not s.error])


def _results(chunk: list[reader.Source], future: cf.Future, stats: Stats) -> list[list[Report]]:
    """The chunk's verdicts, source by source: those of sources that could not be read are made
    here (their errors need no worker), the others come from the worker."""
    checked, pid, maxrss = future.result()
    stats.worker_maxrss[pid] = max(maxrss, stats.worker_maxrss.get(pid, 0))
    it = iter(checked)
    return [[unusable(s.label, s.error)] if s.error else next(it) for s in chunk]


def _one_at_a_time(chunk: list[reader.Source], stats: Stats,
                   on_death: Callable[[str], None]) -> list[list[Report]]:
    """A lost chunk checked again in a process of its own, record by record: a record that kills
    that process too is named as not checked, and the rest go on in a new process."""
    out: list[list[Report]] = []
    pool = _pool(1)
    try:
        for src in chunk:
            if src.error:
                out.append([unusable(src.label, src.error)])
                continue
            try:
                out.append(_results([src], _submit(pool, [src]), stats)[0])
            except BrokenPool:
                _stop(pool)
                stats.deaths += 1
                on_death(f"warning: a worker process died again while checking {src.label}; "
                         f"it is reported as not checked")
                out.append([Report(src.label, None, "unusable", (Problem("", DIED_TWICE, "", "input"),))])
                pool = _pool(1)
    finally:
        _stop(pool)
    return out
