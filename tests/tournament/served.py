"""A real ``tournament serve`` process for the tests that kill it: 127.0.0.1 only, a free port,
started and waited for with a generous limit that only turns a hang into a failure."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


#: The ports the tests' servers may take (127.0.0.1 only); ``DOMREC_TEST_PORTS=18900-18949`` another range
#: (a machine where other runs take these).
_FIRST, _LAST = (int(n) for n in os.environ.get("DOMREC_TEST_PORTS", "18800-18899").split("-"))
PORTS = range(_FIRST, _LAST + 1)


def ports():
    """The free ports of PORTS, from a place of this test worker's own (two workers never start
    from the same port)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    start = (int(worker[2:]) if worker[2:].isdigit() else 0) * 17 % len(PORTS)
    for port in [*PORTS[start:], *PORTS[:start]]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        yield port


def serve_here(path: Path, *options: str) -> tuple[subprocess.Popen, str]:
    """:func:`serve` on the first port of PORTS where it serves this event (its director's key
    answered: a port another program took meanwhile is left): its process and its base URL."""
    import urllib.error
    import urllib.request

    from tournament import open_event
    from tournament.event import venue as vn

    store = open_event(path)
    try:
        key = vn.links(store, "http://127.0.0.1")["director"].rsplit("/", 1)[1]
    finally:
        store.close()
    for port in ports():
        proc = serve(path, port, *options)
        asked = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/director",
                                       headers={"Authorization": f"Bearer {key}"})
        try:
            with urllib.request.urlopen(asked, timeout=60) as answer:
                mine = answer.status == 200
        except (OSError, urllib.error.URLError):
            mine = False
        if mine and proc.poll() is None:
            return proc, f"http://127.0.0.1:{port}"
        stop(proc)
    raise AssertionError(f"no port of {PORTS[0]}-{PORTS[-1]} free")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(path: Path, port: int, *options: str, rate: str = "1000") -> subprocess.Popen:
    """``tournament serve EVENT`` on ``port`` with ``options``, once it takes connections (its rate
    limit raised, so that a test posting fast is not slowed down as a phone tapping fast would be).
    One process, the hall's pages on ``port`` too, unless ``options`` give ``--hall-port`` (a port
    the test picked free: ``port + 1`` may not be)."""
    if "--hall-port" not in options and "--one-process" not in options:
        options = (*options, "--one-process")
    proc = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(path), "--port", str(port),
                             "--rate", rate, *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                raise AssertionError(f"the server did not start: {proc.stderr.read().decode()}") from None
            time.sleep(0.05)


def stop(proc: subprocess.Popen, kill: bool = False) -> None:
    """Never a server left behind: Ctrl-C (``kill``: ``kill -9``, a power cut), waited for."""
    if proc.poll() is None:
        if kill:
            proc.kill()
        else:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    proc.stderr.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (``serve``'s hall)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie, dead but not yet waited for by its parent, does not)."""
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except OSError:
        return False


def no_hall(monkeypatch) -> list[str]:
    """``serve`` (its uvicorn stubbed by the test) starts no hall's process and takes no port for
    it, nor the port given for the tables (a socket on a free port stands in: the test runs beside
    other programs, and port 8000 may be theirs; CI once failed on it); the hall's addresses it
    would have served are listed in the list returned."""
    import socket as sockets

    from tournament.cli import venue as venue_cli
    from tournament.web import hall

    started: list[str] = []

    class NoHall:
        def __init__(self, event, sock, host, url, *args, **kw) -> None:
            sock.close()
            started.append(url)

        def poke(self) -> None:
            pass

        def close(self) -> None:
            pass

    monkeypatch.setattr(hall, "listening", lambda host, port: sockets.create_server((host, 0)))
    monkeypatch.setattr(venue_cli, "listening_or_refused", lambda host, port, advice: sockets.create_server((host, 0)))
    monkeypatch.setattr(hall, "HallProcess", NoHall)
    return started
