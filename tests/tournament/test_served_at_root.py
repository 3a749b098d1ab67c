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


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999", "http://127.0.0.1:abc", "http://",
                                 "http://:8000"])
def test_an_address_that_is_no_address_is_refused_in_one_line(tmp_path: Path, url: str) -> None:
    """A bracket left open (``http://[::1``) ended in "internal error (ValueError: Invalid IPv6
    URL)"; a port past 65535, a port that is no number, or no host at all was printed on every
    link and QR code, where no phone could reach it."""
    path = _event(tmp_path)
    for command in ("links", "sheets"):
        r = CliRunner().invoke(app, [command, str(path), "--url", url])
        assert r.exit_code == 2 and "internal error" not in r.output, r.output
        assert r.output.strip() == f"error: --url is an address such as http://192.168.1.20:8000, not {url!r}"
    with open_event(path) as store:
        assert vn.served_before(store) is False


def test_an_address_with_a_user_name_or_password_is_refused(tmp_path: Path) -> None:
    path = _event(tmp_path)
    url = "http://director:secret@192.168.1.20:8000"
    r = CliRunner().invoke(app, ["links", str(path), "--url", url])
    assert r.exit_code == 2 and r.output.strip() == (f"error: --url {url}: an address for the phones holds no user "
                                                     f"name or password (it is printed on every table's link and "
                                                     f"QR code)")


def test_serve_refuses_an_empty_host_before_listening_on_every_address(tmp_path: Path) -> None:
    """``--host ''`` listened on every address of every network (as 0.0.0.0) and printed links
    to ``http://:PORT``, which no phone can open."""
    path = _event(tmp_path)
    with socket.socket() as s:  # (a port another program holds: a server started by mistake stops at once)
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        done = _run("serve", str(path), "--port", str(s.getsockname()[1]), "--host", "")
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert done.stderr.strip() == ("error: --host is an address of this machine, such as 127.0.0.1 (this computer "
                                   "only) or 0.0.0.0 (every device on the network), not ''")
    with open_event(path) as store:
        assert vn.served_before(store) is False


def test_the_links_of_a_server_on_an_ipv6_address_bracket_it() -> None:
    from tournament.cli.venue import _reachable

    assert _reachable("::1") == "[::1]" and _reachable("127.0.0.1") == "127.0.0.1"
    assert vn.hall_address(f"http://{_reachable('::1')}:8000", 8001) == "http://[::1]:8001"
