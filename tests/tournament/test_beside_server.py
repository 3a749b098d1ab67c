"""The command line run beside a live ``tournament serve``: nothing the server acknowledges is lost.

On POSIX, closing any descriptor of a file drops every lock the process holds on it, SQLite's
included.  A process that read the event file's header with ``open()`` while it held a connection
to it therefore looked absent to the others, and the next command to close its last connection
deleted the write-ahead log the server was still writing into: every write acknowledged after that
was lost on ``kill -9``.  These tests run the real server and the real commands side by side,
read every public page (which is what opened the file a second time in the server), write through
the API, kill the server, and look for every acknowledged write.  Slow: real processes, 127.0.0.1
only; the kills land wherever they land, and what is asserted holds for every such moment.

The server is always a process of its own.  The commands beside it are a process apart from the
server either way: the first of each test runs as the real program (``python -m tournament.cli``),
the others in this test's process (Typer's runner, the same entry point without an interpreter
started for each), which is checked to keep no descriptor of the event open once a command ends,
as a command's process leaves none when it exits; so the lock each command takes and drops is the
same as a process of its own would."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.served import free_port, serve, stop
from tournament import add_players, create_event, make_settings, open_event, pair_next_round

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from typer.testing import CliRunner  # noqa: E402

from tournament.cli import app  # noqa: E402

runner = CliRunner()

pytestmark = pytest.mark.slow

PUBLIC = ["/", "/tables", "/standings", "/games", "/crosstable", "/players/1", "/projector",
          "/api/v1/event", "/api/v1/standings", "/api/v1/rounds/1", "/api/v1/changes?since=0"]

#: Commands that only read the event.
READING = [["standings"], ["standings", "--json"], ["history"], ["tables"], ["pins"], ["info"], ["players"],
           ["links"], ["keys"], ["balance"], ["check"]]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The command as its own program, in a process of its own."""
    return subprocess.run([sys.executable, "-m", "tournament.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def _held(path: Path) -> list[str]:
    """The event's files this process has open (Linux's /proc)."""
    found = []
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # (the listing's own descriptor, closed meanwhile)
            continue
        if target.startswith(str(path)):
            found.append(target)
    return found


def _command(*args: str, path: Path) -> subprocess.CompletedProcess:
    """The command run here, through the program's own entry point (what :func:`_cli` runs, without
    an interpreter started for it), answered in :func:`_cli`'s form.  This process holds nothing of
    the event before or after it: the command opened and closed everything itself, as a process of
    its own does before it exits, so a command deleting what the server still writes into is seen
    here just as beside :func:`_cli`."""
    assert not _held(path), "the test process holds the event before the command"
    done = runner.invoke(app, list(args))
    assert done.exception is None or isinstance(done.exception, SystemExit), (args, repr(done.exception))
    assert not _held(path), ("the command left the event open", args)
    return subprocess.CompletedProcess(args, done.exit_code, done.stdout, done.stderr)


def _deleted_journal(proc: subprocess.Popen, path: Path) -> list[str]:
    """The event's files the server still holds although they were deleted (Linux's /proc)."""
    fds = Path(f"/proc/{proc.pid}/fd")
    found = []
    for fd in fds.iterdir() if fds.is_dir() else ():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith(str(path)) and target.endswith("(deleted)"):
            found.append(target)
    return found


def _event(tmp_path: Path, players: int = 8) -> tuple[Path, dict]:
    path = tmp_path / "w.db"
    store = create_event(path, make_settings("W", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(1, players + 1)])
    pair_next_round(store)
    from tournament.event.venue import links

    keys = links(store, "http://127.0.0.1")
    store.close()
    return path, keys


def _director(keys: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {keys['director'].rsplit('/', 1)[1]}"}


def test_commands_beside_the_server_lose_no_acknowledged_result(tmp_path):
    path, keys = _event(tmp_path)
    port = free_port()
    proc = serve(path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(timeout=60) as client:
            for page in PUBLIC:  # the public pages open the event a second time in the server
                assert client.get(base + page).status_code == 200, page
            for n, args in enumerate(READING):
                done = (_cli(*args, str(path), cwd=tmp_path) if n == 0  # (the first as its own program)
                        else _command(*args, str(path), path=path))
                assert done.returncode in (0, 1), (args, done.stderr)
                assert not _deleted_journal(proc, path), args
                assert Path(f"{path}-wal").exists(), args
            for page in PUBLIC:
                assert client.get(base + page).status_code == 200, page
            writing = [["rename", str(path), "P1", "Ann"],
                       ["result", str(path), "--table", "2", "--score", "NS=200,EW=120"],
                       ["amend", str(path), "--round", "1", "--table", "2", "--score", "NS=200,EW=150",
                        "--reason", "sheet misread"],
                       ["report", str(path), "-o", str(tmp_path / "report.html")],
                       ["export", str(path), "-o", str(tmp_path / "export.json")],
                       ["sheets", str(path), "-o", str(tmp_path / "sheets")]]
            for n, args in enumerate(writing):
                done = _cli(*args, cwd=tmp_path) if n == 0 else _command(*args, path=path)
                assert done.returncode == 0, (args, done.stderr)
                assert not _deleted_journal(proc, path), args
            # The director enters table 1's result through the server: acknowledged.
            r = client.post(f"{base}/api/v1/tables/1/1/result", headers=_director(keys),
                            json={"scores": {"NS": 90, "EW": 200}, "reason": "the sheet"})
            assert r.status_code == 200, r.text
            assert not _deleted_journal(proc, path)
            tables = _command("tables", str(path), path=path).stdout
            assert "90" in tables and "200" in tables, tables  # the command line sees it at once
    finally:
        stop(proc, kill=True)  # a power cut
    store = open_event(path)
    try:
        by_table = {t.number: store.result_for(t.id) for t in store.tables(1)}
        assert by_table[1] is not None and dict(by_table[1].scores) == {"NS": 90, "EW": 200}
        assert dict(by_table[2].scores) == {"NS": 200, "EW": 150}
        assert any(p.name == "Ann" for p in store.players())
    finally:
        store.close()


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.long), pytest.param(3, marks=pytest.mark.long)])
def test_the_whole_command_set_beside_a_server_killed_at_random_moments(tmp_path, seed):
    """Results go in through the director's API while commands run beside the server; the server
    is killed after a random number of them.  Every acknowledged result is in the file, none
    twice, and the feed and the command line agree afterwards."""
    rng = random.Random(seed)
    path, keys = _event(tmp_path, players=16)  # four tables
    commands = READING + [["rename", "{path}", "P3", "Cy{n}"], ["report", "{path}", "-o", "{dir}/r{n}.html"],
                          ["export", "{path}", "-o", "{dir}/e{n}.json"], ["standings", "--json", "{path}"]]
    acknowledged: dict[int, dict[str, int]] = {}
    n = 0
    for life in range(3):
        port = free_port()
        proc = serve(path, port)
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(timeout=60) as client:
                for page in rng.sample(PUBLIC, 4):
                    client.get(base + page)
                kill_after = rng.randrange(1, 5)
                for _ in range(kill_after):
                    n += 1
                    args = [a.format(path=path, dir=tmp_path, n=n) for a in rng.choice(commands)]
                    if args[0] not in ("standings", "history") or str(path) not in args:
                        args = args if str(path) in args else [*args, str(path)]
                    done = _cli(*args, cwd=tmp_path) if n == 1 else _command(*args, path=path)
                    assert done.returncode in (0, 1), (args, done.stderr)
                    table = rng.randrange(1, 5)
                    scores = {"NS": rng.randrange(0, 200), "EW": 200}
                    r = client.post(f"{base}/api/v1/tables/1/{table}/result", headers=_director(keys),
                                    json={"scores": scores, "reason": f"life {life}"})
                    assert r.status_code == 200, r.text
                    acknowledged[table] = scores
                    client.get(base + rng.choice(PUBLIC))
        finally:
            stop(proc, kill=True)
    store = open_event(path)
    try:
        found = {t.number: dict(store.result_for(t.id).scores) for t in store.tables(1) if store.result_for(t.id)}
    finally:
        store.close()
    assert found == acknowledged
    # The feed of a server started again and the command line say the same.
    port = free_port()
    proc = serve(path, port)
    try:
        with httpx.Client(timeout=60) as client:
            feed = client.get(f"http://127.0.0.1:{port}/api/v1/standings").json()
        cli = json.loads(_command("standings", "--json", str(path), path=path).stdout)
        assert {key: feed.get(key) for key in cli} == cli  # the feed adds the columns' descriptions
    finally:
        stop(proc)
