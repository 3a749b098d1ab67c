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

Workers are started with ``spawn`` (the same on every platform, and safe whatever
threads the caller runs) and ignore Ctrl-C: the main process alone receives it,
terminates them and lets :class:`KeyboardInterrupt` through to its caller.  A terminal
sends Ctrl-C to every process of the foreground group, workers included, and a worker
that is still starting (importing domrec, before its initializer runs) would die of it
with a multiprocessing traceback on the screen: so Ctrl-C is blocked in the main thread
while a worker is started, the worker inherits the blocked signal, and its initializer
ignores it before unblocking it.  A Ctrl-C that arrives meanwhile waits, and reaches the
main process as soon as the worker is started.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import resource
import signal
import sys
import threading
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
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

        games_ = notation.read_games(src.text, src.label)
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
            yield validate_text(src.text, src.label)
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
    for arg in paths:
        p = Path(arg)
        if p.is_file():
            size, files = size + p.stat().st_size, files + 1
        elif p.is_dir():
            for f in p.rglob("*"):
                if f.suffix in reader.RECORD_SUFFIXES and f.is_file():
                    size, files = size + f.stat().st_size, files + 1
        if size > LARGE_BYTES or files > LARGE_FILES:
            return cores
    return 1


@attrs.define
class Stats:
    """What a run cost: the peak memory (maxrss, KiB) of each worker process, by pid."""

    worker_maxrss: dict[int, int] = attrs.Factory(dict)
    deaths: int = 0


# --- in the worker ----------------------------------------------------------------------

def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    if hasattr(signal, "pthread_sigmask"):  # blocked since the worker was started (see _starting)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    batch_mode()


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


def _check_chunk(items: list[tuple[str, bytes, str]]) -> tuple[list[list[Report]], int, int]:
    """Each source's verdicts, and this worker's pid and peak memory so far."""
    out = []
    for label, text, form in items:
        _kill_hook(label)
        out.append(list(reports_of(reader.Source(label, text, form=form))))
    return out, os.getpid(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


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


def _pool(jobs: int) -> cf.ProcessPoolExecutor:
    return cf.ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker)


def _stop(pool: cf.ProcessPoolExecutor) -> None:
    """Terminate the workers at once (Ctrl-C, an error): nothing they would still say is wanted.

    The pool's manager thread is waited for too: left running, it could be closing its wake-up
    pipe at the moment the interpreter exits and writes to that pipe (``concurrent.futures``
    does so for every pool at exit), which printed an "Exception ignored … Bad file descriptor"
    traceback after the verdicts."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(5)
    if manager is not None:
        manager.join(30)


def _said_where(chunk: list[reader.Source]) -> str:
    first, last = chunk[0].label, chunk[-1].label
    return first if first == last else f"{first} to {last}"


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
    pool = _pool(jobs)
    window: collections.deque = collections.deque()
    chunks = _chunks(sources)
    try:
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
            except BrokenProcessPool:
                # Every chunk in flight is lost with the pool; the dead worker's is among them.
                lost = [(chunk, future)] + list(window)
                window.clear()
                _stop(pool)
                stats.deaths += 1
                settled = []
                failed = []
                for c, f in lost:
                    try:
                        settled.append((c, _results(c, f, stats)))
                    except BrokenProcessPool:
                        settled.append((c, None))
                        failed.append(c)
                count = sum(len(c) for c in failed)
                on_death(f"warning: a worker process died while checking {_said_where(failed[0])}"
                         f"{' (and more)' if len(failed) > 1 else ''}; its {count} record"
                         f"{'s are' if count != 1 else ' is'} checked again, one at a time")
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
        _stop(pool)


@contextlib.contextmanager
def _starting() -> Iterator[None]:
    """Ctrl-C blocked in this thread while workers may be started (the pool starts them in
    :meth:`~concurrent.futures.ProcessPoolExecutor.submit`): a new worker inherits the blocked
    signal and cannot die of a Ctrl-C before its initializer ignores it.  A Ctrl-C that came
    meanwhile is delivered here when the block ends, as :class:`KeyboardInterrupt`."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _submit(pool: cf.ProcessPoolExecutor, chunk: list[reader.Source]) -> cf.Future:
    items = [(s.label, s.text, s.form) for s in chunk if not s.error]
    with _starting():
        return pool.submit(_check_chunk, items)


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
            except BrokenProcessPool:
                _stop(pool)
                stats.deaths += 1
                on_death(f"warning: a worker process died again while checking {src.label}; "
                         f"it is reported as not checked")
                out.append([Report(src.label, None, "unusable", (Problem("", DIED_TWICE, "", "input"),))])
                pool = _pool(1)
    finally:
        _stop(pool)
    return out
