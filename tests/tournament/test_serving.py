"""One ``tournament serve`` at a time on an event file (tournament.store.serving, docs/venue.md).

A second server on the same event is refused before it writes anything or listens anywhere,
saying which process serves the event and where; a server stopped or killed lets the event go."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.served import free_port, serve, stop
from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.errors import UnusableInput
from tournament.event import venue as vn
from tournament.store import serving

pytestmark = pytest.mark.skipif(serving.fcntl is None, reason="no flock here: a second server is not refused")


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "w.db"
    store = create_event(path, make_settings("W", "competitive", "rotating", seed=1))
    add_players(store, ["A", "B", "C", "D"])
    pair_next_round(store)
    store.close()
    return path


def test_a_claim_is_held_once_and_let_go(tmp_path):
    path = _event(tmp_path)
    first = serving.claim(path, "http://127.0.0.1:8000", "2026-12-04T10:00:00+00:00")
    claim_file = tmp_path / "w.db-serving"
    assert claim_file.read_text().startswith("tournament serve\n")
    with pytest.raises(serving.AlreadyServed) as refused:  # (another descriptor: as another process)
        serving.claim(tmp_path / "." / "w.db", "http://127.0.0.1:9000", "2026-12-04T11:00:00+00:00")
    said = refused.value.message
    assert f"process {os.getpid()}, at http://127.0.0.1:8000, since 2026-12-04T10:00:00+00:00" in said
    assert refused.value.exit_code == 2 and "\n" not in said
    first.release()
    assert not claim_file.exists()
    again = serving.claim(path, "http://127.0.0.1:9000", "2026-12-04T11:00:00+00:00")
    assert "url http://127.0.0.1:9000" in claim_file.read_text()
    again.release()
    again.release()  # (twice: nothing more)


def test_a_claim_left_by_a_killed_server_holds_nothing(tmp_path):
    path = _event(tmp_path)
    (tmp_path / "w.db-serving").write_text("tournament serve\nprocess 1\nurl http://x\nsince then\n")
    claim = serving.claim(path, "http://127.0.0.1:8000", "now")
    assert "process 1\n" not in (tmp_path / "w.db-serving").read_text()
    claim.release()


def test_a_file_of_somebody_elses_is_never_replaced(tmp_path):
    path = _event(tmp_path)
    theirs = tmp_path / "w.db-serving"
    theirs.write_text("my notes\n")
    with pytest.raises(UnusableInput, match="is not tournament serve's file"):
        serving.claim(path, "http://127.0.0.1:8000", "now")
    assert theirs.read_text() == "my notes\n"


def test_a_second_server_on_the_event_is_refused_and_changes_nothing(tmp_path):
    """The first server runs; a second one (another port, the same event by another path) exits
    with 2 and one line naming the first, and the event still holds the first's address; once
    the first is killed (kill -9: the claim file stays, unlocked), a server starts again."""
    path = _event(tmp_path)
    port = free_port()
    first = serve(path, port)
    try:
        other = free_port()
        done = subprocess.run([sys.executable, "-m", "tournament.cli", "serve", str(tmp_path / "." / "w.db"),
                               "--port", str(other), "--one-process"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert f"is being served already (process {first.pid}, at http://127.0.0.1:{port}, since " in lines[0]
        with open_event(path) as store:
            assert vn.venue_url(store) == f"http://127.0.0.1:{port}"
    finally:
        stop(first, kill=True)
    assert (tmp_path / "w.db-serving").exists()  # (killed: nobody removed it, and no lock holds it)
    port = free_port()
    again = serve(path, port)
    try:
        assert f"process {again.pid}\n" in (tmp_path / "w.db-serving").read_text()
        import urllib.request

        # (serving, not still starting: a Ctrl-C as the port opens, before the server has its
        # signals, was seen once to leave the claim file behind; see the SIGTERM test below)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/openapi.json", timeout=120) as answer:
            assert answer.status == 200
    finally:
        stop(again)
    assert not (tmp_path / "w.db-serving").exists()  # (stopped: its claim file removed)


@pytest.mark.parametrize("separate_hall", [False, True])
def test_a_server_stopped_with_sigterm_removes_its_claim_and_stops_its_hall(tmp_path, separate_hall):
    """``kill`` (SIGTERM, what a service manager sends) stopped the server gracefully, then uvicorn
    raised the signal again with its default action, which ended the process before
    ``tournament serve``'s ``finally``: the claim file stayed (docs say it is removed), and the
    hall's process was not stopped by it.  Now the stop ends as an exit with status 143 after
    every ``finally``: the claim file is gone, the hall's process with it, no traceback."""
    import signal

    from tests.tournament.served import alive, children

    path = _event(tmp_path)
    port = free_port()
    options = ("--hall-port", str(free_port())) if separate_hall else ()
    proc = serve(path, port, *options)
    try:
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/openapi.json", timeout=120) as answer:
            assert answer.status == 200  # (serving: uvicorn has its signals; before, SIGTERM is a kill)
        halls = children(proc.pid)
        assert (tmp_path / "w.db-serving").exists()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 143
        assert b"Traceback" not in proc.stderr.read()
    finally:
        stop(proc, kill=True)
    assert not (tmp_path / "w.db-serving").exists()
    assert not any(alive(pid) for pid in halls), halls


def test_serving_what_is_no_file_makes_nothing_beside_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tournament.cli", "serve", str(tmp_path / "none.db"),
                           "--port", str(free_port()), "--one-process"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
