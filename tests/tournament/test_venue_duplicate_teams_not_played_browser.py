"""The director's page, at a phone's size, marks a duplicate-teams table's board not played and takes
it back (Playwright driving the system's Chromium), reading the page's words; the phone of the
match's other table, open beside it, skips the board by itself (it is not scored in the match), and
once the rest is in the match's line says who won.  Before, the page hid *Mark the board not
played* at a team table and its *Take the result back* sent the director to the command line.
Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_teams import new_event, run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_duplicate_not_played_browser import _said  # noqa: E402


def test_the_director_marks_a_team_tables_board_not_played(tmp_path: Path, browser) -> None:
    path = tmp_path / "teams.db"
    new_event(path, 4, "--victory-points")
    run("boards", path, "--boards", 6, "--seed", 37)
    run("pair", path)
    served = _served(path)
    try:
        other = browser.new_page(viewport=PHONE)  # table 2's phone: the match's other table
        other.goto(next(x["url"] for x in served.links["tables"] if x["table"] == 2))
        other.wait_for_selector('#board-now[data-board="1"]', timeout=WAIT_MS)
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(served.links["director"])
        page.locator('#tables tbody tr[data-table="1"]').locator("button").click(timeout=WAIT_MS)
        page.wait_for_selector("#board-not-played", state="visible", timeout=WAIT_MS)
        assert page.inner_text("#clear-result") == "Take the board's result back"
        said = _said(page, "#board-not-played", "1", "ran out of time", "good")
        assert said == ("round 1 table 1 board 1: not played — the board is not scored in the match of tables 1-2 "
                        "(a result at the other table does not count)")
        page.wait_for_function("() => document.querySelector('#result-board option[value=\"1\"]').textContent"
                               " === 'Board 1 · not played'", timeout=WAIT_MS)
        # The other table's phone goes on to board 2 by itself: board 1 is not to be played there either.
        other.wait_for_selector('#board-now[data-board="2"]', timeout=WAIT_MS)
        _shot(page, "duplicate-teams-director-not-played")
        # Board 2 in at every table: the match of tables 1-2 is finished on it, and says who won.
        for t, (ns, ew) in {1: (30, 0), 2: (0, 10), 3: (0, 0), 4: (0, 0)}.items():
            run("result", path, "--round", 1, "--table", t, "--board", 2, "--score", f"NS={ns},EW={ew}")
        for t in (3, 4):
            run("result", path, "--round", 1, "--table", t, "--board", 1, "--score", "NS=0,EW=0")
        page.wait_for_selector('#matches li[data-tables="1-2"][data-finished="yes"] .match-outcome',
                               timeout=WAIT_MS)
        assert page.inner_text('#matches li[data-tables="1-2"] .match-outcome').endswith("wins the match)")
        # Taken back: awaited again, the match no longer finished.  (Table 1 is open already, its
        # button shown: its title emptied first, so that the wait is for the table drawn again after
        # the results above, not for what was shown before them.)
        page.evaluate("() => { document.getElementById('detail-title').textContent = ''; }")
        page.locator('#tables tbody tr[data-table="1"]').locator("button").click(timeout=WAIT_MS)
        page.wait_for_selector('#detail-title:text-matches("table 1:")', timeout=WAIT_MS)
        page.wait_for_selector("#board-not-played", state="visible", timeout=WAIT_MS)
        assert _said(page, "#clear-result", "1", "marked by mistake", "good") == \
            "round 1 table 1 board 1: no longer marked not played; its result is to be entered"
        page.wait_for_selector('#matches li[data-tables="1-2"][data-finished="no"]', timeout=WAIT_MS)
        page.close()
        other.close()
    finally:
        served.close()
    trail = [(x["action"], x["by"], x["reason"]) for x in json.loads(run("history", path, "--json"))
             if x["action"].startswith("board_")]
    assert trail == [("board_not_played", "the director's page", "ran out of time"),
                     ("board_cleared", "the director's page", "marked by mistake")]
