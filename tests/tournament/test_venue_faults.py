"""``kill -9`` of a real ``tournament serve`` in the middle of a table's game, then ``serve`` again:
every write the server acknowledged is in the event file, none twice, and the table carries on
from where it was to the end of the game.

The kill lands wherever it lands (a request may be in flight, or being committed): what is
asserted holds for every such moment, so the test does not depend on timing.  Slow: it starts
the server several times.  Only 127.0.0.1 is used."""

from __future__ import annotations

import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from domrec.session import requests_for
from domrec.simulate import play_game
from domrec.validate import validate

from tests.tournament.served import free_port, serve, stop
from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.tables import table_record

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

pytestmark = pytest.mark.slow



def _log(path: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT rev, body FROM venue_log ORDER BY rev").fetchall()
    finally:
        conn.close()


def _session(path, port, proc, headers, steps, acknowledged, kills, rng):
    """One life of the server: check what the file holds, then post moves until the end of the game
    or until the server is killed under them."""
    base = f"http://127.0.0.1:{port}/api/v1/tables/1/1"
    with httpx.Client(timeout=60) as client:
        state = client.get(base, headers=headers).json()
        done = state["rev"]
        # What the file holds: every acknowledged write, in order, and at most the one that was
        # in flight when the server was killed (committed, its answer lost).
        logged = [body for _, body in _log(path)]
        assert logged[:len(acknowledged)] == acknowledged
        assert len(logged) - len(acknowledged) in (0, 1)
        assert [rev for rev, _ in _log(path)] == list(range(1, done + 1))
        acknowledged = logged
        killer = None
        if kills < 3:
            killer = threading.Timer(rng.uniform(0.05, 0.6), lambda: os.kill(proc.pid, signal.SIGKILL))
            killer.start()
            kills += 1
        try:
            for text in steps[len(acknowledged):]:
                r = client.post(f"{base}/dgn", headers=headers, json={"rev": done, "text": text})
                while r.status_code == 429:  # slowed down, as a phone tapping fast would be: wait, send again
                    time.sleep(float(r.headers["retry-after"]))
                    r = client.post(f"{base}/dgn", headers=headers, json={"rev": done, "text": text})
                assert r.status_code == 200, r.json()
                acknowledged.append(text)
                done = r.json()["rev"]
        except httpx.TransportError:
            pass  # the server was killed: what it acknowledged must be in the file
        finally:
            if killer is not None:
                killer.join()
    return acknowledged, kills


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.long), pytest.param(3, marks=pytest.mark.long)])
def test_kill_9_loses_no_acknowledged_move_and_doubles_none(tmp_path, seed):
    """(Seed 1 in the default run, three kills at moments of its own and four servers started: a
    quarter of a minute; seeds 2 and 3 under ``pytest --long``.)"""
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=seed))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    table = store.tables(1)[0]
    record = play_game(table_record(store.settings, table, {p.id: p for p in store.players()}),
                       random.Random(seed))
    from tournament.event.venue import links

    token = links(store, "http://127.0.0.1")["tables"][0]["token"]
    store.close()
    steps = requests_for(record)
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(seed)
    acknowledged: list[str] = []  # every write the server said 200 to, in order
    kills = 0
    while len(acknowledged) < len(steps):
        port = free_port()
        proc = serve(path, port)
        try:
            acknowledged, kills = _session(path, port, proc, headers, steps, acknowledged, kills, rng)
        finally:  # never a server left behind, whatever failed
            stop(proc)
    assert [body for _, body in _log(path)] == steps
    store = open_event(path)
    from tournament.event.venue import Venue

    state = Venue(store).state(1, 1)
    assert state["game"]["over"] and state["game"]["totals"] == validate(record).scores
    store.close()


@pytest.mark.skipif(__import__("shutil").which("tmux") is None, reason="tmux is not installed")
def test_serve_in_a_terminal_prints_its_links_and_stops_cleanly_on_ctrl_c(tmp_path):
    """In a real terminal (tmux): the links, a warning when open to the network, and Ctrl-C stops
    it with one line, no traceback, the event file intact."""
    import shlex
    import uuid

    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=1))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    socket_name = f"domrec-venue-{uuid.uuid4().hex[:8]}"
    port, hall_port = free_port(), free_port()
    status = tmp_path / "status"
    command = (shlex.join([sys.executable, "-m", "tournament.cli", "serve", str(path), "--host", "0.0.0.0",
                           "--port", str(port), "--url", f"http://127.0.0.1:{port}", "--hall-port", str(hall_port)])
               + f"; echo $? > {shlex.quote(str(status))}")

    conf = tmp_path / "tmux.conf"
    conf.write_text("set -g remain-on-exit on\nset -g history-limit 20000\n")

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", socket_name, "-f", str(conf), *args], capture_output=True, text=True,
                              timeout=120).stdout

    def screen() -> str:
        return tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "main")

    def wait(test, what: str) -> str:
        deadline = time.monotonic() + 120
        while not test(screen()):
            assert time.monotonic() < deadline, f"waited for {what}; the pane shows:\n{screen()}"
            time.sleep(0.05)
        return screen()

    tmux("new-session", "-d", "-s", "main", "-x", "160", "-y", "40", command)
    try:
        # (the warning comes on standard error after the links: waited for too, not read at once)
        shown = wait(lambda s: "round 1 table 1:" in s and "warning: open to every device" in s,
                     "the links and the warning")
        assert "public page:     http://127.0.0.1:" in shown and "director's page:" in shown
        assert "warning: open to every device" in shown
        deadline = time.monotonic() + 120
        while True:  # it answers (its port is taken before the links are printed; it answers once it runs)
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).close()
                break
            except urllib.error.HTTPError:  # (an answer all the same)
                break
            except OSError:
                assert time.monotonic() < deadline, screen()
                time.sleep(0.05)
        tmux("send-keys", "-t", "main", "C-c")
        deadline = time.monotonic() + 120
        while not (status.exists() and status.read_text().endswith("\n")):
            assert time.monotonic() < deadline, screen()
            time.sleep(0.05)
        shown = screen()
        assert "stopped; every acknowledged move is in the event file" in shown
        assert "Traceback" not in shown and status.read_text().strip() == "0"
        with pytest.raises(OSError):  # the hall's process stopped with it
            socket.create_connection(("127.0.0.1", hall_port), timeout=30).close()
    finally:
        tmux("kill-server")
    store = open_event(path)
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store.close()
