"""The director's page, at a phone's size, marks a duplicate pairs table's board not played and
takes a board's result back (Playwright driving the system's Chromium), reading the page's words;
the table's own phone, open beside it, moves to its next board and back by itself.  Before, the
page had no *Mark the board not played*, and *Take the result back* at a duplicate table sent the
director to the command line.  Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_event import run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_duplicate_browser import _dealt, _seated  # noqa: E402,F401


def _said(page, button: str, board: str, reason: str, kind: str) -> str:
    """The board picked, the reason typed, ``button`` tapped: the line the page says beside it."""
    page.select_option("#result-board", board)
    page.fill("#result-reason", reason)
    page.evaluate("() => { const m = document.getElementById('detail-message'); m.textContent = ''; "
                  "m.className = ''; }")
    page.click(button, timeout=WAIT_MS)
    page.wait_for_selector(f"#detail-message.{kind}", timeout=WAIT_MS)
    return page.inner_text("#detail-message")


def test_the_director_marks_a_board_not_played_and_takes_results_back(tmp_path: Path, browser,
                                                                        _dealt: Path) -> None:  # noqa: F811
    path = _seated(tmp_path, _dealt)
    served = _served(path)
    try:
        phone = browser.new_page(viewport=PHONE)
        phone.goto(served.links["tables"][0]["url"])
        phone.wait_for_selector('#board-now[data-board="1"]', timeout=WAIT_MS)
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(served.links["director"])
        page.locator('#tables tbody tr[data-table="1"]').locator("button").click(timeout=WAIT_MS)
        page.wait_for_selector("#board-not-played", state="visible", timeout=WAIT_MS)
        assert page.inner_text("#board-not-played") == "Mark the board not played"
        assert page.inner_text("#clear-result") == "Take the board's result back"
        # No reason: said on the page, nothing sent.
        assert _said(page, "#board-not-played", "1", "", "bad") == \
            "give the reason for marking a board not played (it goes into the audit trail)"
        said = _said(page, "#board-not-played", "1", "a pair left", "good")
        assert said == ("round 1 table 1 board 1: not played — no score there; the board is scored over the "
                        "tables that played it")
        assert page.input_value("#result-board") == "1" and page.input_value("#result-reason") == ""
        # the board list says which board is marked (it read "Board 1" as any other)
        page.wait_for_function("() => document.querySelector('#result-board option[value=\"1\"]').textContent"
                               " === 'Board 1 · not played'", timeout=WAIT_MS)
        assert page.inner_text('#result-board option[value="2"]') == "Board 2"
        _shot(page, "duplicate-director-not-played")
        # The table's phone goes on with its next board by itself (its revision did not move).
        phone.wait_for_selector('#board-now[data-board="2"]', timeout=WAIT_MS)
        # Taken back: the board is the table's to play again, and its phone goes back to it.
        assert _said(page, "#clear-result", "1", "they came back", "good") == \
            "round 1 table 1 board 1: no longer marked not played; its result is to be entered"
        phone.wait_for_selector('#board-now[data-board="1"]', timeout=WAIT_MS)
        # A result entered at the command line: refused as not played (take it back first), then taken back.
        run("result", path, "--round", 1, "--table", 1, "--board", 2, "--score", "NS=30,EW=0")
        refused = _said(page, "#board-not-played", "2", "slip", "bad")
        assert refused == ("round 1 table 1 board 2 has a result (NS 30, EW 0): take it back first (Take the "
                           "board's result back)")  # the page's button, not the command line's `tournament clear`
        assert _said(page, "#clear-result", "2", "entered for the wrong table", "good") == \
            ("round 1 table 1 board 2: result NS 30, EW 0 taken back (kept in the history); the board is to be "
             "entered again")
        assert _said(page, "#clear-result", "2", "again", "bad") == \
            "round 1 table 1 board 2 has no result: there is nothing to take back"
        _shot(page, "duplicate-director-taken-back")
        page.close()
        phone.close()
    finally:
        served.close()
    trail = [(x["action"], x["by"], x["reason"]) for x in json.loads(run("history", path, "--json"))]
    assert trail == [("board_not_played", "the director's page", "a pair left"),
                     ("board_cleared", "the director's page", "they came back"),
                     ("board_cleared", "the director's page", "entered for the wrong table")]
