"""The venue is served at the root of its address, never under a path: the pages link to each
other, to their scripts and to the API from the root (``/standings``, ``/static/live.js``,
``/api/v1/…``) and the server routes them there, so behind a reverse proxy that put the hall under
``https://club.example/hall/`` every page answered 404 (the proxy passing the path on) or lost its
links (the proxy taking it off).  An address with a path given as ``--url`` or ``--hall-url`` is
refused in one line, exit 2, before anything is served, printed or kept (docs/venue.md, "Behind a
reverse proxy"); the root of an address is taken as before."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournament.test_serve_port_taken import _run
from tests.tournament.test_serving import _event
from tournament import open_event
from tournament.cli import app
from tournament.event import venue as vn


def _said(url: str, option: str = "--url") -> str:
    return (f"error: {option} {url}: the venue is served at the root of an address (a scheme, a host and a port, "
            f"no path): behind a reverse proxy, give it a host name or a port of its own "
            f"(https://hall.club.example), not a path under another site")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/hall", "https://club.example/hall/", "http://h:1/?x=1"])
def test_links_refuse_an_address_under_a_path(tmp_path: Path, url: str) -> None:
    path = _event(tmp_path)
    r = CliRunner().invoke(app, ["links", str(path), "--url", url])
    assert r.exit_code == 2, r.output
    assert r.output.strip() == _said(url)
    with open_event(path) as store:
        assert vn.served_before(store) is False


def test_links_take_the_root_of_an_address(tmp_path: Path) -> None:
    path = _event(tmp_path)
    r = CliRunner().invoke(app, ["links", str(path), "--url", "https://club.example/"])
    assert r.exit_code == 0, r.output
    assert "https://club.example/projector" in r.output


@pytest.mark.parametrize("option", ["--url", "--hall-url"])
def test_serve_refuses_an_address_under_a_path_before_listening(tmp_path: Path, option: str) -> None:
    """On a port another program holds, so that a server started by mistake stops at once."""
    path = _event(tmp_path)
    url = "https://club.example/hall"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        done = _run("serve", str(path), "--port", str(s.getsockname()[1]), option, url)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and done.stderr.strip() == _said(url, option)
