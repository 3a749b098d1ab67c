"""How the venue's pages name a duplicate table's boards (Playwright driving the system's Chromium):

* at the table (a phone's 390x844), the director's view (the Director button, the director's PIN)
  heads the board in play by its board, "Board 1" ("Tablero 1"), as the director's own page does,
  not "Hand 1";
* on the director's page (a desktop), a table whose board the director entered (``tournament
  result --board B --score``, or the page's own "Save the result") with no hand played at its
  phone is in play with "1 of 2 boards in" ("1 de 2 tableros con resultado"), not "not started".

Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_event import run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_director_page_dec7_browser import DESKTOP, _get, _post  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_duplicate_browser import _dealt, _seated  # noqa: E402,F401

HEADING = {"en": "Board {n}", "es": "Tablero {n}"}
IN = {"en": "in play · 1 of 2 boards in", "es": "en juego · 1 de 2 tableros con resultado"}
NOT_STARTED = {"en": "not started", "es": "sin empezar"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_view_at_the_table_names_the_board(tmp_path: Path, browser, _dealt: Path,  # noqa: F811
                                                         lang: str) -> None:
    served = _served(_seated(tmp_path, _dealt))
    try:
        link = next(x for x in served.links["tables"] if x["table"] == 1)
        state = _get(served.base_url, link["token"], "1/1")
        assert _post(served.base_url, link["token"], "1/1/dgn", {"rev": state["rev"], "text": "hand 1"})[0] == 200
        board = state["board"]
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
        context.route("**/static/pyodide/**", lambda route: route.abort())  # (the director's view needs no engine)
        page = context.new_page()
        page.goto(link["url"] + f"?lang={lang}")
        page.wait_for_selector("#board-now", timeout=WAIT_MS)
        page.locator("#director").tap(timeout=WAIT_MS)
        page.fill("#td-pin", served.links["director_pin"])
        page.locator("#td-open").tap(timeout=WAIT_MS)
        page.wait_for_selector('#td-hands .hand[data-hand="1"] h3', timeout=WAIT_MS)
        heading = page.inner_text('#td-hands .hand[data-hand="1"] h3')
        assert heading.startswith(HEADING[lang].format(n=board)), heading
        assert "Hand" not in heading and "Mano" not in heading
        page.locator("#td").scroll_into_view_if_needed()
        _shot(page, f"board-words-table-director-{lang}")
    finally:
        served.close()


def test_a_board_the_director_entered_is_a_table_in_play(tmp_path: Path, browser, _dealt: Path) -> None:  # noqa: F811
    path = _seated(tmp_path, _dealt)
    # Table 1: a board entered at the command line, beside the server, before the evening's page opens.
    run("result", path, "--round", 1, "--table", 1, "--board", 2, "--score", "NS=30,EW=0")
    served = _served(path)
    try:
        # Table 2: a board entered as the director's page enters it (its "Save the result").
        director = served.links["director"].rsplit("/", 1)[1]
        board = _get(served.base_url, next(x["token"] for x in served.links["tables"] if x["table"] == 2), "1/2")["board"]
        status, said = _post(served.base_url, director, "1/2/result", {"board": board, "scores": {"NS": 0, "EW": 25}})
        assert status == 200, said
        for lang in ("en", "es"):
            page = browser.new_context(viewport=DESKTOP, locale="es-ES" if lang == "es" else "en-US").new_page()
            page.goto(served.links["director"])
            page.wait_for_selector('#tables tbody tr[data-table="3"]', timeout=WAIT_MS)
            for table in (1, 2):
                row = page.locator(f'#tables tbody tr[data-table="{table}"]')
                assert row.get_attribute("data-status") == "playing"
                assert IN[lang] in row.inner_text(), row.inner_text()
                assert NOT_STARTED[lang] not in row.inner_text()
            # (a table with nothing in is still not started)
            assert NOT_STARTED[lang] in page.locator('#tables tbody tr[data-table="3"]').inner_text()
            _shot(page, f"board-words-director-{lang}")
    finally:
        served.close()
