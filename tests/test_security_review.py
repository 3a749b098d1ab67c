"""A security review's findings (a hostile user in the hall), each with the test that failed before
its fix.

* The page of score sheets ``tournament sheets`` writes with the tables' links carries every
  table's key of the round (a QR code and the link a sheet): it was written as a report is,
  readable by every account of the laptop (0644 under the usual umask), while the event file and
  the PIN slips are kept from them (0600) because they hold the keys.  Another account could read
  the page and record, or confirm, at any table.  Now written 0600; a page without links (no key in
  it) is written as before.

And what was checked and found sound, kept as regression tests: hostile names (markup, quotes, a
textarea's end, template braces) inert on every page the venue serves, in English and Spanish; a
table's key opening nothing of another table's nor of the director's, and the director's PIN no key.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _event(tmp_path: Path) -> Path:
    event = tmp_path / "club.db"
    assert runner.invoke(app, ["new", str(event), "--name", "Club", "--game", "competitive",
                               "--format", "rotating"]).exit_code == 0
    assert runner.invoke(app, ["add", str(event), "Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]).exit_code == 0
    assert runner.invoke(app, ["pair", str(event)]).exit_code == 0
    return event


def test_score_sheets_with_the_tables_keys_are_the_owners_alone(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        event = _event(tmp_path)
        folder = tmp_path / "sheets"
        r = runner.invoke(app, ["sheets", str(event), "-o", str(folder), "--url", "http://10.0.0.5:8000"])
        assert r.exit_code == 0, r.output
        page = folder / "round1-score-sheets.html"
        text = page.read_text(encoding="utf-8")
        keys = re.findall(r"/t/([A-Za-z0-9_-]{32})", text)
        assert len(set(keys)) == 2  # both tables' keys are on the page
        assert _mode(page) == 0o600
        # The game files hold no key: readable as before (0666 less the umask).
        for dgn in folder.glob("*.dgn"):
            assert "/t/" not in dgn.read_text(encoding="utf-8")
            assert _mode(dgn) == 0o644
        # Printed again over a page another tool left readable: the keys are still the owner's alone.
        os.chmod(page, 0o644)
        r = runner.invoke(app, ["sheets", str(event), "-o", str(folder), "--url", "http://10.0.0.5:8000", "--force"])
        assert r.exit_code == 0, r.output
        assert _mode(page) == 0o600
    finally:
        os.umask(old)


def test_score_sheets_without_links_are_written_as_before(tmp_path: Path) -> None:
    """No venue yet (no link, no key on the page): the page is a printout like a report."""
    old = os.umask(0o022)
    try:
        event = _event(tmp_path)
        folder = tmp_path / "sheets"
        from tournament import open_event
        from tournament.pages import sheets as sh

        store = open_event(event)
        try:
            sh.write_sheets(store, folder)  # (no url: no links)
        finally:
            store.close()
        page = folder / "round1-score-sheets.html"
        assert "/t/" not in page.read_text(encoding="utf-8")
        assert _mode(page) == 0o644
    finally:
        os.umask(old)


# --- what was checked and found sound, kept as regression tests ----------------------------------

#: Names a hostile entrant might give: markup, quotes, a textarea's end, a template's braces.
HOSTILE = ('<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "O'Brien </textarea><b>x</b>",
           "{{7*7}} ${7*7}")
#: What must never reach a page as markup (each is escaped there).
RAW = (b"<script>alert", b"<img src=x", b"</textarea><b>", b"<b>x</b>")


def _served_hostile(tmp_path: Path):
    import pytest

    starlette_testclient = pytest.importorskip("starlette.testclient")
    from tournament import add_players, create_event, make_settings, pair_next_round
    from tournament.web.app import VenueServer

    path = tmp_path / "hostile.db"
    store = create_event(path, make_settings('<script>alert("ev")</script> & "q" \'s</textarea>', "competitive",
                                             "rotating", seed=3))
    add_players(store, [*HOSTILE, "Ana", "Bea", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    return server, starlette_testclient.TestClient(server.asgi)


def test_hostile_names_are_inert_on_every_page_in_both_languages(tmp_path: Path) -> None:
    """The table's page, the director's page, its sheets and replay, the refused pages and the hall's
    pages, in English and Spanish: no name or event name reaches them as markup; the JSON answers
    carry them as data (application/json, nosniff)."""
    server, client = _served_hostile(tmp_path)
    try:
        links = server.call(server.venue.links, "http://testserver")
        director = links["director"].rsplit("/", 1)[1]
        table = links["tables"][0]["token"]
        pages = ["/", "/tables", "/standings", "/games", "/crosstable", "/projector", "/players/1", "/players/2",
                 "/players/3", f"/t/{table}", f"/d/{director}", f"/d/{director}/sheets", f"/d/{director}/replay/1/1",
                 "/t/%3Cscript%3Ex", "/players/99"]
        for lang in ("en", "es"):
            for page in pages:
                r = client.get(f"{page}?lang={lang}", headers={"Accept": "text/html"})
                assert r.status_code in (200, 403, 404), (page, r.status_code)
                assert r.headers["x-content-type-options"] == "nosniff"
                assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
                leaked = [raw for raw in RAW if raw in r.content]
                assert not leaked, (lang, page, leaked)
        r = client.get("/api/v1/tables/1/1", headers={"Authorization": f"Bearer {table}"})
        assert r.headers["content-type"].startswith("application/json")
    finally:
        server.close()


def test_a_tables_key_opens_nothing_of_the_directors_nor_another_tables(tmp_path: Path) -> None:
    """A table's key on another table's every address, on the director's API and pages: 403 in one
    line (a page to a browser), nothing done; the director's PIN is not a key."""
    server, client = _served_hostile(tmp_path)
    try:
        links = server.call(server.venue.links, "http://testserver")
        one, two = (t["token"] for t in links["tables"][:2])
        pin = server.call(server.venue.director_pin)
        auth = {"Authorization": f"Bearer {one}"}
        for path in ("", "/options?tile=6-4", "/lines"):
            r = client.get(f"/api/v1/tables/1/2{path}", headers=auth)
            assert r.status_code == 403 and set(r.json()) == {"error", "request_id"}, (path, r.text)
        for path in ("/dgn", "/mode", "/confirm", "/call", "/clear", "/result", "/result/clear", "/pins/clear",
                     "/correct", "/key"):
            r = client.post(f"/api/v1/tables/1/2{path}", headers=auth, json={"rev": 0, "text": "hand 1"})
            assert r.status_code == 403, (path, r.text)
        for path in ("/result", "/result/clear", "/pins/clear", "/key"):  # the director's alone, even at its own table
            r = client.post(f"/api/v1/tables/1/1{path}", headers=auth, json={"scores": {"NS": 1, "EW": 0}, "reason": "x"})
            assert r.status_code == 403, (path, r.text)
        assert client.get("/api/v1/director", headers=auth).status_code == 403
        assert client.post("/api/v1/director/pair", headers=auth, json={}).status_code == 403
        for page in (f"/d/{one}", f"/d/{one}/sheets", f"/d/{one}/replay/1/1", f"/d/{pin}"):
            assert client.get(page).status_code == 403, page
        assert client.get("/api/v1/tables/1/1", headers={"Authorization": f"Bearer {pin}"}).status_code == 403
        assert server.call(server.venue.state, 1, 2)["rev"] == 0  # nothing was written to table 2
        assert client.get("/api/v1/tables/1/2", headers={"Authorization": f"Bearer {two}"}).status_code == 200
    finally:
        server.close()
