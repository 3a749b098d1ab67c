"""The director's page (Playwright driving the system's Chromium) entering a duplicate board's score
whose answer is lost on its way back: the page sends it again with its same id (``cid``), and the
server, which stored it the first time, answers that again: the board is stored once, the page
says *stored*, and the second try is not refused as a correction of the first (*give the reason
for changing a result*).  The page's own retry is waited for through its marks (``data-tries``,
the message line), never a sleep.

Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_event import run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_director_page_dec7_browser import DESKTOP, _open  # noqa: E402
from tests.tournament.test_venue_browser import WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_duplicate_browser import _dealt, _seated  # noqa: E402,F401


def test_a_board_entry_whose_answer_was_lost_is_stored_once(tmp_path: Path, browser,
                                                              _dealt: Path) -> None:  # noqa: F811
    path = _seated(tmp_path, _dealt)
    served = _served(path)
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        sent: list[dict] = []

        def lose_the_first_answer(route) -> None:
            sent.append(json.loads(route.request.post_data or "{}"))
            if len(sent) == 1:
                route.fetch()  # the server takes it and answers; the answer never reaches the page
                route.abort("connectionreset")
            else:
                route.continue_()

        page.route("**/api/v1/tables/1/1/result", lose_the_first_answer)
        page.goto(served.links["director"])
        _open(page, 1)
        page.wait_for_selector("#result-board-state", state="visible", timeout=WAIT_MS)
        page.fill("#dir-score-NS", "46")
        page.fill("#dir-score-EW", "0")
        page.click("#result-form button[type=submit]", timeout=WAIT_MS)
        page.wait_for_selector("#detail-message.good", timeout=WAIT_MS)
        assert page.inner_text("#detail-message") == \
            "round 1 table 1 board 1: NS 46, EW 0 (typed score, unverified) — stored"
        assert page.evaluate("document.body.dataset.tries") == "2"
        assert len(sent) == 2 and sent[0] == sent[1] and sent[0]["board"] == 1 and sent[0]["cid"]
        _shot(page, "director-board-entry-sent-again")
        # Stored once: one board in at the table, and nothing replaced or corrected in the trail.
        assert "1 of 2" in run("tables", path, "--round", 1)
        actions = [x["action"] for x in json.loads(run("history", path, "--json"))]
        assert "board_replaced" not in actions and "board_corrected" not in actions
    finally:
        served.close()
