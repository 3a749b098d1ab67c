"""The director's page's line of a duplicate-teams match counts only the boards that count: a board
marked not played at one of its tables (a result stored at the other counts for nothing) is not
counted in, and is named apart, in the page's language, as ``tournament tables`` says it:
*(0 of 1 boards in; board 2 not scored)*.  Before, *(1 of 2 boards in)*.  Slow; skipped where
Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_teams import new_event, run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402


def test_the_directors_match_line_names_a_board_not_scored(tmp_path: Path, browser) -> None:
    path = tmp_path / "teams.db"
    new_event(path, 4, "--victory-points")
    run("boards", path, "--boards", 6, "--seed", 37)
    run("pair", path)
    run("result", path, "--round", 1, "--table", 1, "--board", 2, "--not-played", "--reason", "time")
    for t, b in ((2, 2), (2, 1)):
        run("result", path, "--round", 1, "--table", t, "--board", b, "--score", "NS=25,EW=0")
    served = _served(path)
    try:
        for lang, words in (("en", "(0 of 1 boards in; board 2 not scored)"),
                            ("es", "(0 de 1 tableros con resultado; tablero 2 sin puntuar)")):
            page = browser.new_context(viewport=PHONE, locale=lang).new_page()
            page.goto(served.links["director"])
            line = page.locator('#matches li[data-tables="1-2"][data-finished="no"]')
            line.wait_for(timeout=WAIT_MS)
            assert line.inner_text().endswith(words), line.inner_text()
            _shot(page, f"duplicate-teams-director-not-scored-{lang}")
    finally:
        served.close()
