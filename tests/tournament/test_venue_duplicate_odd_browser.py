"""Five duplicate pairs at the venue, in a real browser (Playwright driving the system's Chromium, at
a phone's size), reading the pages' words (docs/duplicate.md, "At the venue"):

* the director's page says who sits the round out, by the pair's players, and the table not
  played (before: tables 1 and 2 listed, and a silent gap at 3);
* a table's phone counts the boards the table plays: a board marked not played is not one of
  them, so *Board 1 (1 of 1 this round)* (before: *Board 1 (2 of 2 this round)*, the mark counted
  as a board done before board 1 was started);
* once confirmed, its summary lists the board marked not played, *board 2: not played* (before:
  only the boards with a result);
* *Where to go next: round 2* tells the pair sitting round 2 out *sits out round 2* (before: *sits
  out this round*, which reads as the round just played).

Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.request import urlopen

import pytest

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_event import new_event, run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402


def _text_is(page, selector: str, text: str) -> str:
    """Waits until ``selector``'s text is ``text`` (the pages ask the server again every few
    seconds), then gives it: a page that never says it fails here, with what it says."""
    try:
        page.wait_for_function("([s, t]) => { const e = document.querySelector(s); return !!e && !e.hidden && "
                               "e.textContent.trim() === t; }", arg=[selector, text], timeout=WAIT_MS)
    except Exception:
        said = page.evaluate("(s) => { const e = document.querySelector(s); return e && e.textContent; }", selector)
        raise AssertionError(f"{selector} says {said!r}, not {text!r}") from None
    return text


def test_five_pairs_a_board_not_played_and_the_pair_sitting_out(tmp_path: Path, browser) -> None:
    path = tmp_path / "odd.db"
    new_event(path, 5, "mitchell")
    run("boards", path, "--boards", 6, "--seed", 38)
    run("pair", path)
    served = _served(path)
    try:
        feed = json.load(urlopen(served.hall_url + "/api/v1/rounds/1"))
        assert [t["table"] for t in feed["tables"]] == [1, 2] and feed["sits_out"]["pair"] == 3
        first, second = feed["tables"][0]["boards"]
        desk = browser.new_context(viewport=PHONE).new_page()
        desk.goto(served.links["director"])
        _text_is(desk, "#sits-out", "Pair 3 Pair 3 (North 3, South 3) sits out this round (table 3 is not played).")
        phone = browser.new_page(viewport=PHONE)
        phone.goto(next(x for x in served.links["tables"] if x["table"] == 1)["url"])
        _text_is(phone, "#board-now", f"Board {first} (1 of 2 this round)")
        # The round's second board marked not played before the first is started: one board to play.
        run("result", path, "--round", 1, "--table", 1, "--board", second, "--not-played", "--reason", "time")
        _text_is(phone, "#board-now", f"Board {first} (1 of 1 this round)")
        _shot(phone, "duplicate-odd-board-not-played")
        # The first entered beside the server: the table is confirmed, its summary lists both boards.
        run("result", path, "--round", 1, "--table", 1, "--board", first, "--score", "NS=30,EW=0")
        phone.wait_for_selector("#boards-played", timeout=WAIT_MS)
        rows = phone.evaluate("() => Array.from(document.querySelectorAll('#boards-played tr[data-board]'), "
                              "(r) => Array.from(r.cells, (c) => c.textContent))")
        assert rows == [[f"board {first}", "30", "0"], [f"board {second}", "not played"]]
        # Table 2's boards marked not played too, and round 2 paired: pair 1 (table 1's NS) sits it out.
        for board in feed["tables"][1]["boards"]:
            run("result", path, "--round", 1, "--table", 2, "--board", board, "--not-played", "--reason", "time")
        run("pair", path)
        for seat in ("N", "S"):
            _text_is(phone, f'#next li[data-seat="{seat}"] b', "sits out round 2")
        assert "table" in phone.inner_text('#next li[data-seat="E"] b')
        _shot(phone, "duplicate-odd-where-next")
        _text_is(desk, "#sits-out", "Pair 1 Pair 1 (North 1, South 1) sits out this round (table 1 is not played).")
        _shot(desk, "duplicate-odd-director")
        phone.close()
        desk.close()
    finally:
        served.close()
