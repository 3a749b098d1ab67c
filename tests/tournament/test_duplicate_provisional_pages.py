"""The hall's ``/standings`` and ``tournament report`` say a duplicate pairs event's standings are
provisional while board results are missing, as ``standings`` ("PROVISIONAL — results still
missing"), ``/api/v1/standings`` (``"provisional": true``) and every other event's pages do.
They said nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_duplicate_not_played import _howell, ok

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402

SAID = {"en": "Provisional: results still missing (round 1: 2 board results)",
        "es": "Provisional: faltan resultados (ronda 1: 2 resultados de tablero)"}


def test_the_report_and_the_halls_standings_say_provisional(tmp_path: Path) -> None:
    e = _howell(tmp_path)  # table 3 has not entered its two boards
    for lang, words in SAID.items():
        page = tmp_path / f"r-{lang}.html"
        ok("report", e, "-o", page, "--lang", lang)
        assert words in page.read_text(encoding="utf-8"), lang
    server = VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        assert client.get("/api/v1/standings").json()["provisional"] is True
        for lang, words in SAID.items():
            assert words in client.get("/standings", headers={"Accept-Language": lang}).text, lang
        for b in (1, 2):
            ok("result", e, "--round", 1, "--table", 3, "--board", b, "--score", "NS=20,EW=0")
        assert "Provisional" not in client.get("/standings").text
    finally:
        server.close()
    ok("report", e, "-o", tmp_path / "done.html")
    assert "Provisional" not in (tmp_path / "done.html").read_text(encoding="utf-8")
