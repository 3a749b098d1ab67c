"""Validating sharded archives on Dask: a laptop's processes or a ``dask.distributed`` cluster.

Why Dask: it is the existing engine for this in the Python ecosystem, and the same
``dask.bag`` code runs on whatever scheduler is active — the local process pool, a
``LocalCluster`` of the machine's processes, or a cluster behind a scheduler address.
It is an optional dependency (``pip install 'domrec[dask]'``); nothing else in domrec
imports this module.

Every shard (a JSON Lines archive, a record file, a DGN text) is one partition; a JSON
Lines shard larger than ``block_bytes`` is cut at line starts into blocks, each knowing
the number of its first line, so a record is labelled ``shard.jsonl:LINE`` exactly as
``domrec validate`` labels it on one core.  The verdicts come back in shard order and
line order, and the summary rows are written through :mod:`domrec.summary`, so the
summary file is byte for byte the one ``domrec validate --summary`` writes.

A worker that dies: ``distributed`` runs its tasks again on another worker (a block is
read again from the shard, so no record is lost or counted twice).  When a block's task
keeps killing workers (``distributed`` gives up after ``distributed.scheduler.allowed-failures``
deaths), its records are reported as one *unusable* verdict naming the shard's lines that
were not checked — never silently dropped.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Iterator

import attrs

from domrec import output, reader
from domrec.errors import DomrecError
from domrec.validate import Problem, Report

#: A JSON Lines shard larger than this is checked in blocks of about this size.
BLOCK_BYTES = 16 * 1024 * 1024

#: How many partitions are computed ahead of the one being written (bounded memory).
AHEAD = 64


class ClusterError(DomrecError):
    """Dask is missing, or the scheduler cannot be reached or used."""


@attrs.frozen
class Task:
    """One partition: a whole input (``start`` None), or lines of a JSON Lines shard from byte
    ``start`` to ``end``, the first of them line number ``first``."""

    path: str
    label: str
    start: int | None = None
    end: int | None = None
    first: int = 1
    last: int = 0
    #: The files a folder's search leaves out (the summary being written: :func:`domrec.reader.writes`),
    #: for a worker that searches the folder again (an empty one, to say so in the single run's words).
    skip: tuple[tuple[int, int], ...] = ()

    def lines(self) -> str:
        """Where this task's records are: the shard, or ``shard:FIRST-LAST``."""
        if self.start is None:
            return self.label
        return f"{self.label}:{self.first}-{self.last}"


def tasks(paths: Iterable[str], block_bytes: int = BLOCK_BYTES) -> list[Task]:
    """The partitions for ``paths`` (files and folders, as ``domrec validate`` takes them),
    in the order ``domrec validate`` reads them."""
    found: list[Task] = []
    for arg in paths:
        if arg == "-":
            raise ClusterError("--dask reads shards from files, not standard input (-)")
        path = Path(arg)
        try:
            is_dir, exists = path.is_dir(), path.exists()
        except OSError:  # inside a folder that may not be searched: the worker says so
            is_dir = exists = False
        if is_dir:
            files = reader.folder_files(path)
            if not files:  # the worker reports the empty folder in the single run's words
                found.append(Task(arg, reader.display_name(path), skip=reader.written()))
            # A folder that cannot be listed is a task of its own, which the worker reports as
            # the single run does.
            found.extend(_file_tasks(p, block_bytes) if why is None else Task(str(p), reader.display_name(p))
                         for p, why in files)
        else:
            found.append(_file_tasks(path, block_bytes) if exists else Task(arg, reader.display_name(path)))
    return [t for group in found for t in (group if isinstance(group, list) else [group])]


def _file_tasks(path: Path, block_bytes: int) -> Task | list[Task]:
    label = reader.display_name(path)
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    if path.suffix not in (".jsonl", ".dgn") or size <= block_bytes:
        return Task(str(path), label)
    try:
        cuts, lines = (_cuts if path.suffix == ".jsonl" else _game_cuts)(path, size, block_bytes)
    except OSError:
        return Task(str(path), label)  # the worker reports why it cannot be read
    if len(cuts) == 1:
        return Task(str(path), label)
    return [Task(str(path), label, start, end, first, after - 1)
            for (start, first), (end, after) in zip(cuts, cuts[1:] + [(size, lines + 1)])]


def _cuts(path: Path, size: int, block_bytes: int) -> tuple[list[tuple[int, int]], int]:
    """``(byte offset, line number)`` of each block's first line (a line start at or after
    every ``block_bytes``), and the shard's number of lines.  Counting the lines reads the
    shard once, far cheaper than checking it."""
    cuts = [(0, 1)]
    pos = lines = 0
    cut = block_bytes
    last = b""
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            joined = last == b"\r" and chunk[:1] == b"\n"  # (a CRLF across two chunks: counted at its CR)
            while pos + len(chunk) > cut:
                j = chunk.find(b"\n", max(cut - pos, 0))
                if j < 0:
                    break  # the line goes on into the next chunk
                if pos + j + 1 < size:
                    cuts.append((pos + j + 1, lines + _line_ends(chunk, j + 1) - joined + 1))
                cut = pos + j + 1 + block_bytes
            lines += _line_ends(chunk, len(chunk)) - joined
            pos += len(chunk)
            last = chunk[-1:]
    return cuts, lines + (pos > 0 and last not in (b"\n", b"\r"))


def _line_ends(data: bytes, end: int) -> int:
    """The line ends in ``data[:end]`` as the reader counts them: a line feed, a carriage return
    and line feed, or a carriage return alone (``domrec.reader._Lines``), so that a block's first
    line has the number the whole file's reading gives it."""
    return data.count(b"\n", 0, end) + data.count(b"\r", 0, end) - data.count(b"\r\n", 0, end)


def _game_cuts(path: Path, size: int, block_bytes: int) -> tuple[list[tuple[int, int]], int]:
    """As :func:`_cuts`, for a DGN archive: each block starts where a game starts, as the
    reader cuts the archive into games (:func:`domrec.dgn_archive.iter_games`, which reads it
    once, a block at a time, without reading any game).  A file of one game, or one whose
    over-long games made the reader give up, is not cut (one block: the single run's reading)."""
    from domrec.dgn_archive import iter_games

    cuts = [(0, 1)]
    games = 0
    cut = block_bytes
    with path.open("rb") as f:
        counted = _Counted(f)
        for chunk in iter_games(counted, reader.MAX_DGN_GAME_BYTES, give_up=reader.MAX_RECORD_BYTES):
            if chunk.gave_up:
                return [(0, 1)], 0
            games += 1
            if chunk.offset >= cut and games > 1:
                cuts.append((chunk.offset, chunk.first_line))
                cut = chunk.offset + block_bytes
    return (cuts if games > 1 else [(0, 1)]), counted.lines


class _Counted:
    """A binary file read through, counting its lines as it goes (a last line without its
    line break counted too, as :func:`_cuts` counts them)."""

    def __init__(self, f: Any) -> None:
        self._f, self._breaks, self._last = f, 0, b"\n"

    def read(self, n: int) -> bytes:
        data = self._f.read(n)
        if data:
            self._breaks += data.count(b"\n")
            self._last = data[-1:]
        return data

    @property
    def lines(self) -> int:
        return self._breaks + (self._last != b"\n")


def check_task(task: Task) -> list[Report]:
    """The verdicts on one partition (runs on a worker)."""
    import io

    from domrec.parallel import reports_of
    from domrec.validate import batch_mode

    batch_mode()
    if task.start is None:
        sources: Iterator[reader.Source] = reader.iter_sources([task.path], skip=task.skip)
    else:
        try:
            with open(task.path, "rb") as f:
                f.seek(task.start)
                data = f.read(task.end - task.start)
        except OSError as e:
            return [reader_error(task, e)]
        if task.path.endswith(".dgn"):
            sources = reader.dgn_block_sources(data, task.label, task.first,
                                               at_end=task.end >= os.path.getsize(task.path))
        else:
            sources = reader._split_lines(io.BytesIO(data), task.label, task.first)
    return [r for src in sources for r in reports_of(src)]


def reader_error(task: Task, e: OSError) -> Report:
    problem = Problem("", f"cannot read: {e.strerror}", "", "input")
    return Report(task.label, None, "unusable", (problem,))


def unchecked(task: Task, why: str) -> Report:
    """The verdict standing for a partition whose task failed: its records were not checked."""
    where = (f"the records of {task.label}" if task.start is None
             else f"the records on lines {task.first} to {task.last} of {task.label}")
    problem = Problem("", f"{where} were not checked: {why}; check them again", "", "input")
    return Report(task.lines(), None, "unusable", (problem,))


def _stops(reports: list[Report]) -> bool:
    """The block ended the shard: a line over the size limit stops the single run's reading there."""
    return bool(reports) and reports[-1].problems[:1] != () and "the rest of the archive were not read" in \
        reports[-1].problems[0].message


def check(paths: Iterable[str], client: Any = None, block_bytes: int = BLOCK_BYTES,
          ahead: int = AHEAD) -> Iterator[Report]:
    """Every verdict on ``paths``, in the order ``domrec validate`` prints them.

    ``client``: a ``dask.distributed.Client`` (or None: Dask's active scheduler — a
    ``Client`` made earlier in this process, else the local process pool)."""
    try:
        import dask
        import dask.bag as db
    except ImportError:
        raise ClusterError("Dask is not installed: pip install 'domrec[dask]'") from None
    parts = tasks(paths, block_bytes)
    if not parts:
        return
    bag = db.from_sequence(parts, npartitions=len(parts)).map_partitions(lambda ts: [check_task(t) for t in ts])
    delayed = bag.to_delayed()
    stopped: set[str] = set()

    def results() -> Iterator[tuple[Task, list[Report]]]:
        if client is not None:
            futures: list[Any] = []
            done = 0
            for i, d in enumerate(delayed):
                futures.append(client.compute(d))
                if i - done >= ahead:
                    yield parts[done], _result(futures[done], parts[done])
                    futures[done] = None
                    done += 1
            for k in range(done, len(futures)):
                yield parts[k], _result(futures[k], parts[k])
            return
        scheduler = None if dask.config.get("scheduler", None) else "processes"
        for k in range(0, len(delayed), ahead):
            window = delayed[k:k + ahead]
            for task, result in zip(parts[k:k + ahead], dask.compute(*window, scheduler=scheduler)):
                yield task, result[0]

    for task, reports in results():
        if task.label in stopped:
            continue
        if task.start is not None and _stops(reports):
            stopped.add(task.label)
        yield from reports


def _result(future: Any, task: Task) -> list[Report]:
    try:
        return future.result()[0]
    except Exception as e:  # KilledWorker, a lost connection: the records are named, not dropped
        name = type(e).__name__
        why = ("the workers checking them died" if name == "KilledWorker"
               else f"the cluster failed ({name}: {str(e)[:200]})")
        return [unchecked(task, why)]


def validate_shards(shards: Iterable[str], summary: str | None = None, client: Any = None,
                    force: bool = False, block_bytes: int = BLOCK_BYTES) -> Iterator[Report]:
    """Validate sharded archives on Dask; yield the verdicts in shard order.

    ``summary``: also write one row per record to this ``*.csv`` or ``*.jsonl`` file (the
    columns and bytes of ``domrec validate --summary``), through :func:`domrec.output.writing`:
    the file appears once every verdict is in, and a file domrec did not write is replaced
    only with ``force``."""
    reports = check(shards, client, block_bytes)
    yield from (reports if summary is None else summarized(reports, summary, force))


def summarized(reports: Iterable[Report], summary: str, force: bool = False) -> Iterator[Report]:
    """``reports``, passed on as they come, each also written as a summary row to ``summary``
    (``*.csv`` or ``*.jsonl``; the file is replaced only once the last one is written)."""
    from domrec.summary import Writer, form_of

    form = form_of(summary)
    with output.writing(summary, SUMMARY, force) as stream:
        rows = Writer(stream, form)
        for report in reports:
            rows.write(report)
            yield report


SUMMARY = output.SUMMARY


def client_for(address: str) -> tuple[Any, Any]:
    """A ``(client, cluster)`` for ``--dask``: ``local`` starts a ``LocalCluster`` of the machine's
    processes (one thread each: checking is pure Python); anything else is a scheduler's address."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--dask needs Dask: pip install 'domrec[dask]'") from None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=":0")
            return Client(cluster), cluster
        return Client(address, timeout="10s"), None
    except (OSError, ValueError, TypeError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e}") from None
