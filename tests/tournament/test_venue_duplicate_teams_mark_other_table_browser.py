"""The director's page and a table's phone at a duplicate-teams match whose board is marked not
played at one table (Playwright driving the system's Chromium), reading the pages' words:

* a mark made over the other table's play (``--not-played --replace`` beside the server) and taken
  back on the page: the answer, the overview's row and the board's line say the director enters
  that board's result there, and that table's phone, open beside it, says so too (it closed the
  board and never plays it again: it plays its next board, and once none is left it offers nothing
  to start or type); once the director saves it, nothing is owed.  Before, nothing said so, and the
  phone offered "Board null" to start once its other boards were in;
* the other table's board says, before any save, that it is marked at the match's other table and
  that a result saved here is kept but counts only once that mark is taken back; saved with no
  reason, the answer says it does not count yet (before, the page asked a reason "for entering its
  result instead" and said nothing of its not counting).
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

#: What table 2's phone says of board 1 once the mark is taken back.
OWED = "Board 1 is not played again at this table: the director enters its result."


def _open(page, table: int) -> None:
    page.locator(f'#tables tbody tr[data-table="{table}"]').locator("button").click(timeout=WAIT_MS)
    page.wait_for_selector(f'#detail-title:text-matches("table {table}:")', timeout=WAIT_MS)
    page.wait_for_selector("#board-not-played", state="visible", timeout=WAIT_MS)


def _save(page, board: str, ns: str, ew: str) -> str:
    """Board ``board``'s scores typed, no reason, *Save the result* tapped: what the page says."""
    page.select_option("#result-board", board)
    page.fill("#dir-score-NS", ns)
    page.fill("#dir-score-EW", ew)
    page.fill("#result-reason", "")
    page.evaluate("() => { const m = document.getElementById('detail-message'); m.textContent = ''; "
                  "m.className = ''; }")
    page.click('#result-form button[type="submit"]', timeout=WAIT_MS)
    page.wait_for_selector("#detail-message.good, #detail-message.bad", timeout=WAIT_MS)
    return page.inner_text("#detail-message")


def test_the_director_sees_what_a_mark_at_the_other_table_means(tmp_path: Path, browser) -> None:
    path = tmp_path / "teams.db"
    new_event(path, 4, "--victory-points")
    run("boards", path, "--boards", 6, "--seed", 37)
    run("pair", path)
    served = _served(path)
    try:
        venue = served.server.venue
        # Table 2's phone starts board 1; the command line beside the server marks it not played at
        # table 1 over that hand (time ran out), taking it off table 2's phone too.
        phone = browser.new_page(viewport=PHONE)
        phone.goto(next(x["url"] for x in served.links["tables"] if x["table"] == 2))
        phone.wait_for_selector('#board-now[data-board="1"]', timeout=WAIT_MS)
        rev = served.server.call(venue.state, 1, 2)["rev"]
        served.server.call(venue.record, 1, 2, rev, "hand 1")
        run("result", path, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--replace",
            "--reason", "ran out of time")
        phone.wait_for_selector('#board-now[data-board="2"]', timeout=WAIT_MS)
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(served.links["director"])
        # Board 1's mark at table 1 taken back on the page: table 2's phone closed the board and plays
        # board 2, so the director enters board 1 there; the answer, the overview, the board's line and
        # the phone say so.
        _open(page, 1)
        said = _said(page, "#clear-result", "1", "marked by mistake", "good")
        assert said == ("round 1 table 1 board 1: no longer marked not played; its result is to be entered; table 2's "
                        "phone does not play board 1 again (it was closed there): its result is to be entered by the "
                        "director")
        owed = page.locator('#tables tbody tr[data-table="2"] .to-enter[data-to-enter="1"]')
        owed.wait_for(timeout=WAIT_MS)
        assert owed.inner_text() == "board 1: enter its result (its phone does not play it again)"
        assert page.locator('#tables tbody tr[data-table="1"] .to-enter').count() == 0
        phone.wait_for_selector('#to-enter[data-boards="1"]', timeout=WAIT_MS)
        assert phone.get_attribute("#board-now", "data-board") == "2"
        assert phone.inner_text("#to-enter") == OWED
        assert phone.locator("#start-hand").count() == 1  # board 2 is played as ever
        _open(page, 2)
        page.select_option("#result-board", "1")
        line = page.locator("#result-board-state")
        page.wait_for_selector('#result-board-state[data-board="1"][data-to-enter="yes"]', timeout=WAIT_MS)
        assert page.inner_text('#result-board option[value="1"]') == "Board 1 · to enter"
        assert line.inner_text() == ("Board 1 has no result here, and the table's phone does not play it again (it "
                                     "was closed there): enter its result; saving enters it.")
        _shot(page, "duplicate-teams-board-to-enter")
        # Table 1 marks board 2 not played (nobody plays it there); table 2's board 2 says what a result
        # saved there would be, and saved with no reason it is stored, said not to count yet.
        _open(page, 1)
        said = _said(page, "#board-not-played", "2", "a player left", "good")
        assert said.startswith("round 1 table 1 board 2: not played")
        _open(page, 2)
        page.select_option("#result-board", "2")
        page.wait_for_selector('#result-board-state[data-board="2"][data-marked-at="1"]', timeout=WAIT_MS)
        assert line.inner_text() == ("Board 2 is marked not played at table 1, the match's other table: it is not "
                                     "scored in the match. A result saved here is kept, but counts only once that "
                                     "mark is taken back.")
        _shot(page, "duplicate-teams-marked-at-the-other-table")
        assert _save(page, "2", "20", "0") == (
            "round 1 table 2 board 2: NS 20, EW 0 (typed score, unverified) — stored; it does not count while board "
            "2 is marked not played at table 1, the match's other table (the board is not scored in the match): it "
            "counts once that mark is taken back")
        # Table 2's phone: board 2 is in, board 1 the director's: nothing to start there.
        phone.wait_for_selector("#boards-done", timeout=WAIT_MS)
        assert phone.locator("#board-now, #start-hand").count() == 0 and phone.locator("#typed").is_hidden()
        assert phone.inner_text("#to-enter") == OWED
        _shot(phone, "duplicate-teams-phone-board-to-enter")
        # Board 1 saved at table 2 (no reason: nothing there is replaced): nothing is owed, the table is done.
        said = _save(page, "1", "0", "12")
        assert said == "round 1 table 2 board 1: NS 0, EW 12 (typed score, unverified) — stored"
        page.wait_for_selector('#tables tbody tr[data-table="2"]:not(:has(.to-enter))', timeout=WAIT_MS)
        page.wait_for_selector('#result-board-state[data-board="1"][data-stored="yes"]', timeout=WAIT_MS)
        phone.wait_for_selector("#to-enter", state="detached", timeout=WAIT_MS)
        assert phone.locator("#boards-done").count() == 0 and phone.locator("#typed").is_hidden()  # (confirmed)
        page.close()
        phone.close()
    finally:
        served.close()
    trail = [(x["action"], x["reason"]) for x in json.loads(run("history", path, "--json"))
             if x["action"].startswith("board_")]
    assert trail == [("board_not_played", "ran out of time"), ("board_cleared", "marked by mistake"),
                     ("board_not_played", "a player left")]
