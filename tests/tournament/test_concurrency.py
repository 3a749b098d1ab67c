"""Nothing lost, nothing doubled: concurrent writers in several processes, and a process killed mid-write."""

from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tournament import add_players, create_event, enter_manual, make_settings, open_event, pair_next_round, run_check
from tournament.store.sqlite import BUSY_TIMEOUT_S

from tests.tournament.conftest import play_table
from tests.in_memory import tmp_path  # noqa: E402,F401  (files and databases written move by move: in memory)

ROOT = Path(__file__).resolve().parents[2]


def _event_with_tables(tmp_path: Path, players: int) -> Path:
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Busy night", "competitive", "rotating", seed=1))
    add_players(store, [f"p{i}" for i in range(players)])
    pair_next_round(store)
    store.close()
    return path


@pytest.mark.slow
def test_concurrent_result_entry_all_lands(tmp_path: Path) -> None:
    path = _event_with_tables(tmp_path, 32)  # 8 tables
    store = open_event(path)
    files = []
    for t in store.tables(1):
        f = tmp_path / f"t{t.number}.json"
        f.write_text(play_table(store, t, seed=t.number), encoding="utf-8")
        files.append(f)
    store.close()
    start_at = time.time() + 1.5
    script = textwrap.dedent(f"""
        import sys, time
        from tournament import open_event, enter_record
        time.sleep(max(0, {start_at} - time.time()))
        store = open_event(sys.argv[1])
        text = open(sys.argv[2], 'rb').read()
        for _ in range(3):  # the same record again: idempotent, never doubled
            enter_record(store, text, sys.argv[2])
        store.close()
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(path), str(f)], cwd=ROOT,
                              stderr=subprocess.PIPE, text=True) for f in files]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert all(p.returncode == 0 for p in procs), errors
    store = open_event(path)
    results = store.results()
    assert len(results) == 8
    assert {t.id for t in store.tables(1)} == set(results)
    assert run_check(store).ok
    store.close()


@pytest.mark.slow
def test_concurrent_pairing_gives_one_round(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("x", "competitive", "rotating"))
    add_players(store, [f"p{i}" for i in range(40)])
    store.close()
    start_at = time.time() + 1.5
    script = textwrap.dedent(f"""
        import sys, time
        from tournament import open_event, pair_next_round, PairingError
        time.sleep(max(0, {start_at} - time.time()))
        store = open_event(sys.argv[1])
        try:
            print(pair_next_round(store).round)
        except PairingError:
            print("refused")
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True) for _ in range(4)]
    outs = sorted(p.communicate(timeout=120)[0].strip() for p in procs)
    assert outs == ["1", "refused", "refused", "refused"]
    store = open_event(path)
    assert [r.number for r in store.rounds()] == [1] and len(store.tables(1)) == 10
    store.close()


@pytest.mark.slow
@pytest.mark.parametrize("where", ["pairing", "result"])
def test_killed_mid_write_leaves_the_database_as_before(tmp_path: Path, where: str) -> None:
    path = _event_with_tables(tmp_path, 16)
    store = open_event(path)
    table = store.tables(1)[0]
    record = tmp_path / "t.json"
    record.write_text(play_table(store, table, seed=1), encoding="utf-8")
    if where == "pairing":
        from tournament import enter_manual
        for t in store.tables(1):
            enter_manual(store, t.number, {"NS": 200, "EW": 100})
    before = store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    rounds_before = store.last_round()
    store.close()
    marker = tmp_path / "inside"
    # The child writes part of its transaction, then says so and hangs inside it until killed.
    script = textwrap.dedent(f"""
        import sys, time, pathlib
        from tournament import open_event, enter_record, pair_next_round
        from tournament.store import event_store as st
        original = st.EventStore.{'insert_round' if where == 'pairing' else 'insert_result'}
        def slow(self, *a, **k):
            out = original(self, *a, **k)
            pathlib.Path({str(marker)!r}).write_text("x")
            time.sleep(60)
            return out
        setattr(st.EventStore, {'"insert_round"' if where == 'pairing' else '"insert_result"'}, slow)
        store = open_event(sys.argv[1])
        if {where!r} == "pairing":
            pair_next_round(store)
        else:
            enter_record(store, open(sys.argv[2], 'rb').read())
    """)
    proc = subprocess.Popen([sys.executable, "-c", script, str(path), str(record)], cwd=ROOT)
    deadline = time.time() + 60
    while not marker.exists():
        assert proc.poll() is None, "the child ended before reaching the write"
        assert time.time() < deadline
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = open_event(path)
    assert store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == before
    assert store.last_round() == rounds_before
    assert store.conn.execute("SELECT COUNT(*) FROM round_tables").fetchone()[0] == len(store.tables(1))
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert run_check(store).ok
    store.close()


def _holding(path: Path) -> sqlite3.Connection:
    """A connection of another program's holding the event file's write lock (BEGIN IMMEDIATE)."""
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_write_that_waits_for_its_turn_tells_whoever_asked_once_then_lands(tmp_path: Path) -> None:
    """The store never prints: it tells the callback it was given, once, and goes on waiting; the
    callback here lets the other program go, so no clock is involved."""
    path = _event_with_tables(tmp_path, 4)
    holder = _holding(path)
    told: list[float] = []

    def on_wait(limit: float) -> None:
        told.append(limit)
        holder.execute("COMMIT")  # the other program is done: the wait ends at once

    store = open_event(path)
    try:
        store.on_wait = on_wait
        table = store.tables(1)[0]
        enter_manual(store, table.number, {side: 10 * (k + 1) for k, side in enumerate(table.sides())})
        assert told == [BUSY_TIMEOUT_S]
        assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == int(BUSY_TIMEOUT_S * 1000)  # as it was
        with store.write():  # nobody holds the file: nothing said
            pass
        assert told == [BUSY_TIMEOUT_S]
        assert store.result_for(table.id) is not None
    finally:
        store.close()
        holder.close()


def _run_while_held(path: Path, *args: str) -> tuple[str, int, list[str], str]:
    """``tournament ARGS`` run while another program holds ``path``'s write lock: the first line it
    says on stderr (read before the lock is let go), then its exit code, the rest of its stderr and
    its output once it has ended."""
    holder = _holding(path)
    proc = subprocess.Popen([sys.executable, "-m", "tournament.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr], daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        said = lines.get(timeout=60)  # a limit that only turns a hang into a failure
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    out, _ = proc.communicate(timeout=60)
    reader.join(timeout=60)
    return said, proc.returncode, list(lines.queue), out


def test_a_command_waiting_for_the_event_file_says_so_once_then_does_its_work(tmp_path: Path) -> None:
    """`tournament result` run while another program holds the file: one line on stderr, seen by the
    test before it lets the file go; then the result is entered."""
    path = _event_with_tables(tmp_path, 4)
    said, code, rest, out = _run_while_held(path, "result", str(path), "--table", "1", "--score", "NS=200,EW=100")
    assert said == f"waiting for {path}: another program is writing it (up to {BUSY_TIMEOUT_S:g} s)\n", said
    assert code == 0 and rest == [], (code, rest)
    assert "NS 200, EW 100" in out
    with open_event(path) as store:
        assert store.result_for(store.tables(1)[0].id).scores == {"NS": 200, "EW": 100}


def test_ratings_waiting_for_its_ratings_file_says_so_once_then_imports(tmp_path: Path) -> None:
    """`tournament ratings FILE --add EVENT` while another program holds the ratings file: it waited
    in silence (the event's commands said so, the ratings file's did not); now the same one line on
    stderr, seen by the test before it lets the file go; then the event is imported."""
    path = _event_with_tables(tmp_path, 4)
    with open_event(path) as store:
        table = store.tables(1)[0]
        enter_manual(store, table.number, {"NS": 200, "EW": 100})
    book = tmp_path / "club-ratings.db"
    first = subprocess.run([sys.executable, "-m", "tournament.cli", "ratings", str(book), "--add", str(path)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    said, code, rest, out = _run_while_held(book, "ratings", str(book), "--add", str(path))
    assert said == f"waiting for {book}: another program is writing it (up to {BUSY_TIMEOUT_S:g} s)\n", said
    assert code == 0 and rest == [], (code, rest)
    assert "Busy night: already imported; nothing changed" in out, out
