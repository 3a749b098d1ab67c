"""``tournament serve`` and ``tournament hub`` on a port another program already listens on: one
line, ``error: cannot listen on HOST:PORT: …``, exit 2, before anything is printed or written (no
links and PIN printed for a server that never answers, no address kept in the event file)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.test_serving import _event
from tournament import open_event
from tournament.event import venue as vn

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def taken() -> int:
    """A port somebody else listens on, for the test's length."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        yield s.getsockname()[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tournament.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("layout", [("--one-process",), ()], ids=["one-process", "with-hall"])
def test_serve_on_a_taken_port_says_so_in_one_line_and_writes_nothing(tmp_path: Path, taken: int,
                                                                      layout: tuple[str, ...]) -> None:
    path = _event(tmp_path)
    with open_event(path) as store:
        before = vn.served_before(store)
    done = _run("serve", str(path), "--port", str(taken), *layout)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""  # no links, no PIN
    assert done.stderr.startswith(f"error: cannot listen on 127.0.0.1:{taken}: ")
    assert "--port" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    with open_event(path) as store:
        assert vn.served_before(store) == before is False  # the address was not kept
    assert not (tmp_path / "w.db-serving").exists()


def test_serve_on_a_taken_hall_port_still_says_it_as_before(tmp_path: Path, taken: int) -> None:
    path = _event(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = _run("serve", str(path), "--port", str(port), "--hall-port", str(taken))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: cannot listen on 127.0.0.1:{taken} for the hall's pages"), done.stderr


def test_hub_on_a_taken_port_says_so_in_one_line(tmp_path: Path, taken: int) -> None:
    pytest.importorskip("nats", reason="the NATS client is not installed (pip install nats-py)")
    done = _run("hub", "--nats", "nats://127.0.0.1:4333", "--port", str(taken))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(f"error: cannot listen on 127.0.0.1:{taken}: ")
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_port_claimed_for_one_server_is_refused_to_a_second_started_beside_it():
    """Two servers starting at the same moment: the first's port, claimed before it prints
    anything, is refused to the second in one line.  (Bound without listening, two sockets with
    SO_REUSEADDR could both take it, and the second failed later, its links already printed.)"""
    from tournament.cli.venue import listening_or_refused
    from tournament.errors import UnusableInput

    first = listening_or_refused("127.0.0.1", 0, "give another port with --port")
    try:
        port = first.getsockname()[1]
        with pytest.raises(UnusableInput) as e:
            listening_or_refused("127.0.0.1", port, "give another port with --port").close()
        assert e.value.message.startswith(f"cannot listen on 127.0.0.1:{port}: ")
    finally:
        first.close()


@pytest.mark.parametrize("host, why", [("999.1.1.1", "cannot be found"), ("192.0.2.1", "not an address of this machine")],
                         ids=["unresolved", "not-this-machine"])
def test_a_host_that_cannot_be_listened_on_is_named_not_the_port(host: str, why: str) -> None:
    """``--host 999.1.1.1`` (no such address) or an address of another machine (TEST-NET-1): the
    port was never the problem, so the hint names --host."""
    from tournament.cli.venue import listening_or_refused
    from tournament.errors import UnusableInput

    with pytest.raises(UnusableInput) as e:
        listening_or_refused(host, 0, "give another port with --port").close()
    assert f"cannot listen on {host}:0: " in str(e.value) and why in str(e.value), str(e.value)
    assert "--host" in str(e.value) and "--port" not in str(e.value)


def test_serve_on_a_host_not_found_says_give_another_host(tmp_path: Path) -> None:
    path = _event(tmp_path)
    done = _run("serve", str(path), "--port", "18722", "--host", "999.1.1.1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: cannot listen on 999.1.1.1:18722: "), done.stderr
    assert "--host" in done.stderr and "--port" not in done.stderr and len(done.stderr.splitlines()) == 1
