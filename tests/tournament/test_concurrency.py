"""Nothing lost, nothing doubled: concurrent writers in several processes, and a process killed mid-write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round, run_check

from tests.tournament.conftest import play_table

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
