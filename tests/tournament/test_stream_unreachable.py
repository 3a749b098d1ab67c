"""``tournament stream`` against a NATS server it cannot reach: one line naming the address tried and
why (the connection refused, the host's name not found, timed out), exit 2, as for any unusable
input; it said only ``cannot reach nats at …: no answer``, whatever the reason (docs/hub.md, "Limits
of a stream").

Nothing listens on the port tried: one found free by binding a socket and closing it.  No timing is
asserted.  No ``nats-server`` is needed (nothing is reached); skipped, saying why, where the
``nats-py`` client the command needs is missing."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("nats", reason="the NATS client is not installed (pip install nats-py)")

ROOT = Path(__file__).resolve().parents[2]
EVENT = "4b738ec1-5927-4bc7-875d-c2537b31b070"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_stream_says_the_address_it_tried_and_that_the_connection_was_refused() -> None:
    url = f"nats://127.0.0.1:{free_port()}"
    done = subprocess.run([sys.executable, "-m", "tournament.cli", "stream", EVENT, "--nats", url], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.strip() == f"error: cannot reach nats at {url}: Connection refused"
    assert "Traceback" not in done.stderr


def test_each_reason_a_connection_is_not_made_is_said_in_words() -> None:
    """The reasons nats-py hands its error callback while it connects, as the stream command (and a
    venue's sender, and a hub) says them: a name the resolver does not know was ``Unknown error -2``,
    a connection that timed out ``no answer``."""
    from nats import errors

    from tournament.web.link import Heard, describe

    def said(heard_last: BaseException) -> str:
        heard = Heard()
        asyncio.run(heard.said(heard_last))  # (nats-py's error callback, as while it connects)
        return describe(asyncio.TimeoutError(), "nats://fed.example:4222", heard, False)

    assert said(ConnectionRefusedError(111, "Connection refused")) == \
        "cannot reach nats at nats://fed.example:4222: Connection refused"
    assert said(socket.gaierror(socket.EAI_NONAME, "Name or service not known")) == \
        "cannot reach nats at nats://fed.example:4222: the host's name was not found (Name or service not known)"
    assert said(asyncio.TimeoutError()) == "cannot reach nats at nats://fed.example:4222: timed out (no answer)"
    assert describe(errors.NoServersError(), "nats://fed.example:4222", Heard(), False).startswith(
        "cannot reach nats at nats://fed.example:4222: ")


def test_archive_says_the_address_it_tried_and_why(tmp_path: Path) -> None:
    """``tournament archive`` said ``cannot read the streams at …: no answer`` whatever the reason;
    it says the address and the reason as ``stream`` does, and writes no file."""
    url = f"nats://127.0.0.1:{free_port()}"
    out = tmp_path / "season.jsonl"
    done = subprocess.run([sys.executable, "-m", "tournament.cli", "archive", "--nats", url, "-o", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == f"error: cannot reach nats at {url}: Connection refused"
    assert not out.exists()
