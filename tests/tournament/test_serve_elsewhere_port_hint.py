"""``serve`` where the links and sheets made before point elsewhere: the way to serve at their
address it names is the one that works, and it says so before its links (docs/venue.md, "Sheets
point where they were made for").  Before, links made at port 8100 and ``serve --port 8110`` ended
"or serve at that address (--url http://127.0.0.1:8100)", and following it (listening on 8110,
links naming 8100) gave links leading nowhere; and the warning came after the links."""

from __future__ import annotations

import pytest

from tournament.event import venue as vn
from tests.tournament.test_venue import _event

from .served import no_hall


@pytest.fixture
def cli(monkeypatch):
    """The ``tournament`` command, its ``serve`` returning at once instead of listening."""
    import uvicorn
    from typer.testing import CliRunner

    from tournament.cli import app

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: None)
    no_hall(monkeypatch)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def test_only_the_port_differs_the_hint_is_port_and_it_comes_before_the_links(tmp_path, cli):
    path = _event(tmp_path)
    r = cli("links", path, "--url", "http://127.0.0.1:8100")
    assert r.exit_code == 0, r.output
    r = cli("serve", path, "--port", "8110")
    assert r.exit_code == 0, r.output
    warning = next(line for line in r.stderr.splitlines() if "point to" in line)
    assert warning.endswith("or serve at that address (--port 8100)"), warning
    assert "--url" not in warning
    # said before the links, so that it is read before them (and before the server starts)
    assert r.output.index("point to http://127.0.0.1:8100") < r.output.index("public page:"), r.output
    # Followed, the links are those made before, and nothing is said.
    r = cli("serve", path, "--port", "8100")
    assert r.exit_code == 0 and "http://127.0.0.1:8100/t/" in r.stdout and "point to" not in r.stderr, r.output


@pytest.mark.parametrize("printed, served, way", [
    ("http://127.0.0.1:8100", "http://127.0.0.1:8110", "(--port 8100)"),
    ("http://192.0.2.7:8000", "http://127.0.0.1:8000", "(--url http://192.0.2.7:8000)"),
    ("http://192.0.2.7:8000", "http://127.0.0.1:8123", "(--url http://192.0.2.7:8000 --port 8000)"),
    # (links printed as https:// are a TLS proxy's: the server behind it takes --url, not --port 443)
    ("https://club.example", "https://club.example:8443", "(--url https://club.example)"),
])
def test_the_way_named_is_the_one_that_serves_at_that_address(printed, served, way):
    assert vn.elsewhere_warning(printed, served).endswith(f"or serve at that address {way}")
