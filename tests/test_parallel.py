"""``domrec validate -j N``: worker processes give the single-process run's output, byte for byte,
in input order; a dead worker loses no record; Ctrl-C stops cleanly; ``--summary``."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from domrec import output as outputs, parallel, reader, summary
from domrec.simulate import dumps, simulate

from tests.conftest import SAMPLES
from tests.in_memory import tmp_path  # noqa: E402,F401  (files and databases written move by move: in memory)

DOMREC = [sys.executable, "-m", "domrec.cli"]
GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")


def _domrec(*args, env=None, cwd=None):
    return subprocess.run([*DOMREC, *map(str, args)], capture_output=True, env=env, cwd=cwd, timeout=600)


def _here(*args, input: bytes | None = None) -> subprocess.CompletedProcess:
    """The same command in this process (Typer's runner), said as a process would: for the
    single-process runs a test sets beside a real ``-j 2`` one (``input``: its standard input),
    the refusals made before any record is read (a process started for each was most of their
    time), and the archive's simulated games.  Each test keeps a real process where what it
    shows is a process's: the workers, their output on a pipe."""
    from typer.testing import CliRunner

    from domrec.cli import app

    r = CliRunner().invoke(app, [str(a) for a in args], input=input)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return subprocess.CompletedProcess(args, r.exit_code, r.stdout_bytes, r.stderr_bytes)


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """A folder holding a mixed JSON Lines archive (every game, valid and invalid records, broken
    lines, a truncated record, blank lines) and a DGN archive of many games."""
    folder = tmp_path_factory.mktemp("archive")
    lines = []
    for k, game in enumerate(GAMES):
        for record in simulate(game, 12, seed=k):
            lines.append(dumps(record))
    text = lines[3]
    lines.insert(5, text.replace('"score"', '"scroe"', 1))  # a wrong field: unusable
    lines.insert(9, "this is not json")
    lines.insert(14, text[: len(text) // 2])  # truncated
    lines.insert(20, "")
    lines.insert(30, text.replace("6-6", "6-7", 1))
    (folder / "mixed.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = _here("simulate", "competitive", "-n", "25", "--seed", "7", "-o", folder / "many.dgn")
    assert r.returncode == 0, r.stderr
    return folder


def _inputs(archive: Path) -> list[str]:
    return [str(SAMPLES), str(archive / "mixed.jsonl"), str(archive / "many.dgn"), str(archive / "missing.json")]


#: ``domrec validate -j 1`` of the archive, text and JSON, run once a module: what one process
#: says, which several tests compare the workers' output with (the same command each time).
_ONE_PROCESS: dict[tuple[str, ...], subprocess.CompletedProcess] = {}


def _one_process(archive: Path, form: str) -> subprocess.CompletedProcess:
    args = ("validate", *(["--json"] if form == "json" else []), "-j", "1", *_inputs(archive))
    if args not in _ONE_PROCESS:
        _ONE_PROCESS[args] = _here(*args)
    return _ONE_PROCESS[args]


@pytest.mark.parametrize("form", ["text", "json"])
def test_jobs_output_is_byte_identical_to_one_process(archive, form):
    extra = ["--json"] if form == "json" else []
    one = _one_process(archive, form)
    two = _domrec("validate", "-j", "2", *extra, *_inputs(archive))
    assert one.returncode == 2  # the missing file, and the broken lines
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)
    assert b"mixed.jsonl:10" in one.stdout  # the broken line, by file and line number
    assert b"Traceback" not in two.stderr


def test_library_check_keeps_input_order_over_many_chunks(archive, monkeypatch):
    monkeypatch.setattr(parallel, "CHUNK_BYTES", 3000)  # many small chunks, many in flight
    paths = _inputs(archive)
    alone = [r.to_dict() for r in parallel.check(reader.iter_sources(paths), 1)]
    stats = parallel.Stats()
    together = [r.to_dict() for r in parallel.check(reader.iter_sources(paths), 2, stats=stats)]
    assert together == alone
    assert len(alone) > 80
    assert stats.worker_maxrss and all(v > 0 for v in stats.worker_maxrss.values())
    assert stats.deaths == 0


def test_summary_is_the_same_with_one_and_many_jobs(archive, tmp_path):
    for suffix in ("csv", "jsonl"):
        a, b = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
        r1 = _here("validate", "-q", "-j", "1", "--summary", a, *_inputs(archive))
        r2 = _domrec("validate", "-q", "-j", "2", "--summary", b, *_inputs(archive))
        assert r1.returncode == r2.returncode == 2, r1.stderr
        assert a.read_bytes() == b.read_bytes()
    rows = list(csv.DictReader(io.StringIO((tmp_path / "a.csv").read_text(encoding="utf-8"))))
    jsonl = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["source"] for r in rows] == [r["source"] for r in jsonl]
    assert rows[0].keys() == set(summary.COLUMNS)
    assert {r["status"] for r in rows} == {"valid", "invalid", "unusable"}
    assert rows[-1]["source"].endswith("missing.json") and rows[-1]["status"] == "unusable"
    # The summary is domrec's own: written again without --force.
    again = _here("validate", "-q", "-j", "1", "--summary", tmp_path / "a.csv", SAMPLES / "valid")
    assert again.returncode == 0, again.stderr


def test_summary_never_replaces_somebody_elses_file(tmp_path):
    theirs = tmp_path / "results.csv"
    theirs.write_text("name,score\nAna,3\n", encoding="utf-8")
    r = _here("validate", "--summary", theirs, SAMPLES / "valid")
    assert r.returncode == 2
    assert r.stderr.decode().count("\n") == 1 and "--force" in r.stderr.decode()
    assert theirs.read_text(encoding="utf-8") == "name,score\nAna,3\n"
    assert r.stdout == b""  # refused before anything was checked
    forced = _here("validate", "--force", "--summary", theirs, SAMPLES / "valid")
    assert forced.returncode == 0
    assert theirs.read_text(encoding="utf-8").splitlines()[0] == summary.CSV_HEADER


def test_summary_kind_knows_its_own_files(tmp_path):
    csv_file, jsonl_file, other = tmp_path / "s.csv", tmp_path / "s.jsonl", tmp_path / "o.jsonl"
    csv_file.write_text(summary.CSV_HEADER + "\n", encoding="utf-8")
    buf = io.StringIO()
    summary.Writer(buf, "jsonl").write_row(dict.fromkeys(summary.COLUMNS, "x" * 9000))
    jsonl_file.write_text(buf.getvalue(), encoding="utf-8")
    other.write_text('{"source": "a", "game": "b"}\n', encoding="utf-8")
    assert outputs.SUMMARY.own(csv_file) and outputs.SUMMARY.own(jsonl_file)
    assert not outputs.SUMMARY.own(other)


@pytest.mark.parametrize("bad", ["x", "-1", "2.5", "9999"])
def test_jobs_refuses_what_is_not_a_number_of_workers(bad):
    # ("x" from a real process: its exit code and its one line on a pipe; the others in this one.)
    r = (_domrec if bad == "x" else _here)("validate", "-j", bad, SAMPLES / "valid")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().count("\n") == 1 and "--jobs" in r.stderr.decode()


def test_default_jobs_one_for_small_inputs_and_stdin(tmp_path):
    assert parallel.jobs_for([str(SAMPLES)], None) == 1
    assert parallel.jobs_for(["-"], None) == 1
    assert parallel.jobs_for(["-"], 3) == 3
    assert parallel.jobs_for([str(SAMPLES)], 0) == (os.cpu_count() or 1)
    big = tmp_path / "big.jsonl"
    with big.open("wb") as f:
        f.truncate(parallel.LARGE_BYTES + 1)
    assert parallel.jobs_for([str(big)], None) == (os.cpu_count() or 1)


def _env(hook: str) -> dict:
    return {**os.environ, parallel.KILL_HOOK: hook}


def test_a_worker_that_dies_once_loses_nothing(archive, tmp_path):
    one = _one_process(archive, "text")
    hook = f"{archive / 'mixed.jsonl'}:7@{tmp_path / 'died'}"
    two = _domrec("validate", "-j", "2", *_inputs(archive), env=_env(hook))
    assert (tmp_path / "died").exists()  # the hook did kill a worker
    assert two.stdout == one.stdout and two.returncode == one.returncode
    warnings = [x for x in two.stderr.decode().splitlines() if x.startswith("warning:")]
    assert len(warnings) == 1 and "worker process died" in warnings[0] and "checked again" in warnings[0]
    assert "Traceback" not in two.stderr.decode()


def test_a_record_that_kills_its_worker_twice_is_named_not_checked(archive):
    label = f"{archive / 'mixed.jsonl'}:7"
    one = _one_process(archive, "json")
    two = _domrec("validate", "--json", "-j", "2", *_inputs(archive), env=_env(label))
    before = [json.loads(x) for x in one.stdout.splitlines()]
    after = [json.loads(x) for x in two.stdout.splitlines()]
    assert [r["source"] for r in after] == [r["source"] for r in before]
    changed = [(b, a) for b, a in zip(before, after) if a != b]
    assert len(changed) == 1
    _, killed = changed[0]
    assert killed["source"] == label and killed["status"] == "unusable"
    assert killed["problems"][0]["message"] == parallel.DIED_TWICE
    assert two.returncode == 2
    assert len([x for x in two.stderr.decode().splitlines() if x.startswith("warning:")]) == 2


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """An archive long enough to kill a worker or press Ctrl-C in mid-run: 2,000 records, 400 of
    each game, made of 4 simulated games of each written a hundred times (simulating is the slow
    part; what the workers are given to check is as long as before)."""
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    lines = [dumps(record) + "\n" for k, game in enumerate(GAMES) for record in simulate(game, 4, seed=k,
                                                                                           accidents=False)]
    path.write_text("".join(lines * 100), encoding="utf-8")
    return path


def _children(pid: int) -> list[int]:
    """The child processes of ``pid``, whichever of its threads started them."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def _workers(pid: int) -> list[int]:
    """The worker processes of a ``domrec validate -j`` (its only child processes)."""
    return _children(pid)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the workers")
def test_kill_9_of_a_real_worker_loses_no_record(tmp_path, big):
    """A worker killed in mid-run loses no record.  The records come through a pipe held open until
    the kill, so that the run is in mid-run whatever the machine's speed (the whole archive, read
    from its file, was only long enough on a machine slow enough): half of them before the kill,
    the other half after it (more chunks than the worker left alive can take on its own, so a
    chunk is handed to the dead worker if it held none when it was killed), then the end of the
    input.  A quarter of :func:`big`: 500 records, 100 of each game, some seven chunks."""
    lines = big.read_bytes().splitlines(keepends=True)[:500]
    first, rest = b"".join(lines[:250]), b"".join(lines[250:])
    one = _here("validate", "-q", "--summary", tmp_path / "one.csv", "-j", "1", "-", input=first + rest)
    proc = subprocess.Popen([*DOMREC, "validate", "-q", "-j", "2", "--summary", str(tmp_path / "two.csv"), "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    feeding = _feed(proc, first)  # the pipe stays open: the run cannot end before the kill
    workers: list[int] = []

    def both_working() -> bool:
        workers[:] = _workers(proc.pid)
        return len(workers) == 2

    _wait_for(both_working, "both workers started", proc)
    time.sleep(0.5)  # let them start on their chunks
    os.kill(workers[0], signal.SIGKILL)
    feeding.join(600)
    out, err = proc.communicate(input=rest, timeout=600)  # (the rest, then the end of the input)
    assert proc.returncode == one.returncode
    assert out == one.stdout
    assert (tmp_path / "two.csv").read_bytes() == (tmp_path / "one.csv").read_bytes()
    assert len((tmp_path / "one.csv").read_text(encoding="utf-8").splitlines()) == 1 + 500  # (every record)
    lines = err.decode().splitlines()
    assert any(x.startswith("warning: a worker process died") for x in lines), err
    assert "Traceback" not in err.decode()


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie waiting for its parent to collect it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the workers")
def test_kill_9_of_the_main_process_leaves_no_worker(tmp_path, big):
    """Issue 27: ``validate -j 2 … & kill -9 $!`` left both workers (and multiprocessing's resource
    tracker) running for good.  Every child of the killed run must end by itself."""
    proc = subprocess.Popen([*DOMREC, "validate", "-q", "-j", "2", "--summary", str(tmp_path / "out.csv"), "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _feed(proc, big.read_bytes())  # the pipe stays open: the run is still going when it is killed
    children: list[int] = []

    def both_working() -> bool:
        children[:] = _children(proc.pid)
        return len(children) >= 2

    _wait_for(both_working, "both workers started", proc)
    proc.kill()
    proc.wait(timeout=60)
    deadline = time.monotonic() + 120
    while any(_alive(c) for c in children):
        assert time.monotonic() < deadline, f"still running 120 s after their parent was killed: {children}"
        time.sleep(0.1)
    assert not (tmp_path / "out.csv").exists()


def _in_a_terminal_group() -> None:
    """In the child before ``exec``: a process group of its own, as a terminal's foreground job
    has, and Ctrl-C's default action, whatever the test run inherited (a run started in the
    background by a non-interactive shell ignores SIGINT, and its children would too)."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _ctrl_c(proc: subprocess.Popen) -> None:
    """Ctrl-C as a terminal sends it: SIGINT to every process of the foreground group."""
    os.killpg(proc.pid, signal.SIGINT)


def _feed(proc: subprocess.Popen, data: bytes) -> threading.Thread:
    """Write ``data`` to the child's standard input from a thread and leave the pipe open: the run
    cannot end before the test presses Ctrl-C, however fast or slow the machine is."""
    def write() -> None:
        with contextlib.suppress(OSError):
            proc.stdin.write(data)
            proc.stdin.flush()

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _wait_for(test, what: str, proc: subprocess.Popen, limit: float = 300) -> None:
    """Poll until ``test()`` holds; the limit only turns a hung run into a failure."""
    deadline = time.monotonic() + limit
    while not test():
        assert proc.poll() is None, f"the run ended before {what}: {proc.stderr.read().decode()}"
        assert time.monotonic() < deadline, f"waited {limit}s for {what}"
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the workers")
def test_ctrl_c_stops_workers_and_leaves_no_summary(tmp_path, big):
    """Ctrl-C in mid-run, the records still coming through a pipe (so the run is in mid-run
    whatever the machine's speed): exit 2, one line, no summary, no temporary file, no worker left."""
    target = tmp_path / "summary.csv"
    proc = subprocess.Popen([*DOMREC, "validate", "-q", "-j", "2", "--summary", str(target), "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_in_a_terminal_group)
    _feed(proc, big.read_bytes())  # about twenty chunks: both workers get some
    workers: list[int] = []

    def both_working() -> bool:
        workers[:] = _workers(proc.pid)
        return len(workers) == 2

    _wait_for(both_working, "both workers started", proc)
    _ctrl_c(proc)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 2
    text = err.decode()
    assert text.splitlines() == ["error: interrupted: nothing written; " + str(target) + " is as it was"], text
    assert not target.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".summary.csv")]  # no temporary left
    for w in workers:
        assert not Path(f"/proc/{w}").exists() or "Z" in Path(f"/proc/{w}/stat").read_text().split()[2]


def test_a_worker_whose_parent_is_gone_before_sending_the_path_ends_quietly():
    """Ctrl-C just as the pool starts: the parent ends before it sends the worker its path, and the
    worker reads the end of its input.  Its standard error is the user's terminal: nothing on it."""
    r = subprocess.run([sys.executable, "-c", parallel._WORKER_CODE, str(os.getpid()), parallel.WORKER_MARK],
                       input=b"", capture_output=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")


def test_ctrl_c_while_the_pool_starts_its_workers_leaves_none(monkeypatch):
    """Ctrl-C lands while the pool starts its second worker's thread: the first worker, already
    started, is stopped before the interruption goes on to the caller."""
    real_start = threading.Thread.start
    started: list[threading.Thread] = []

    def start(self) -> None:
        if started:
            raise KeyboardInterrupt
        started.append(self)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    made: list[parallel._Pool] = []
    real_init = parallel._Pool.__init__

    def init(self, jobs: int) -> None:
        made.append(self)
        real_init(self, jobs)

    monkeypatch.setattr(parallel._Pool, "__init__", init)
    with pytest.raises(KeyboardInterrupt):
        list(parallel.check(iter([]), 2))
    monkeypatch.undo()
    pool, = made
    started[0].join(60)
    assert not started[0].is_alive()
    for proc in pool._procs:  # started (or not) before the stop: none is left running
        assert proc.wait(60) is not None


#: Put on a worker's path (``sitecustomize`` runs first in every Python process): in a worker of
#: ``validate -j`` only, say so in a file, then take a while to start, as on a busy machine.
SLOW_START = """
import os, sys, time
if "--domrec-worker" in sys.argv:
    with open(os.path.join(os.environ["DOMREC_TEST_STARTING"], str(os.getpid())), "w"):
        pass
    time.sleep(3)
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the workers")
def test_ctrl_c_while_the_workers_start_is_one_line(tmp_path, big):
    """Ctrl-C reaches every process of the terminal's group, workers included; a worker that was
    still starting died of it with a multiprocessing traceback on the screen.  Here each worker
    is held in its start-up until the test has pressed Ctrl-C."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SLOW_START)
    starting = tmp_path / "starting"
    starting.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])),
           "DOMREC_TEST_STARTING": str(starting)}
    target = tmp_path / "summary.csv"
    proc = subprocess.Popen([*DOMREC, "validate", "-q", "-j", "2", "--summary", str(target), "-"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_in_a_terminal_group)
    _feed(proc, big.read_bytes())
    _wait_for(lambda: any(starting.iterdir()), "a worker started", proc)
    _ctrl_c(proc)
    out, err = proc.communicate(timeout=300)
    text = err.decode()
    assert proc.returncode == 2, text
    assert text.splitlines() == ["error: interrupted: nothing written; " + str(target) + " is as it was"], text
    assert not target.exists()


def test_jobs_on_standard_input_is_the_same(archive):
    data = (archive / "mixed.jsonl").read_bytes()
    one = _here("validate", "-", input=data)  # (the single-process run, in this process: its standard input)
    two = subprocess.run([*DOMREC, "validate", "-j", "2", "-"], input=data, capture_output=True, timeout=600)
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)
    assert b"<stdin>:10: UNUSABLE" in one.stdout
