"""The director's page marks a board not played over the hand a table's phone is playing (tester's
finding 2: time ran out mid-hand; the page refused it, "table 1's phone is playing board 1", and
pointed to the command line's placeholder score).  "Mark the board not played" on the board in play
asks first (the hand is taken off the phone) and, said yes, sends ``"replace": true``, as
``tournament result --board B --not-played --replace``; said no, nothing is sent.  A board whose
hand the phone took back whole (Undo, no move) is marked with no question: it is not in play.

Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_event import run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_duplicate_browser import _dealt, _seated, _tap_a_legal_move  # noqa: E402,F401

DESKTOP = {"width": 1280, "height": 900}


def _call(base: str, token: str, path: str, body: dict | None = None) -> dict:
    asked = urllib.request.Request(f"{base}/api/v1/tables/{path}", data=None if body is None else
                                   json.dumps(body).encode(),
                                   headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                                   method="GET" if body is None else "POST")
    with urllib.request.urlopen(asked, timeout=60) as answer:
        return json.loads(answer.read())


def _open_table_one(page) -> None:
    page.locator('#tables tbody tr[data-table="1"]').locator("button").click(timeout=WAIT_MS)
    page.wait_for_function("() => document.getElementById('detail-title').textContent.startsWith("
                           "'Round 1, table 1:')", timeout=WAIT_MS)


def test_the_page_marks_the_board_in_play_once_the_director_says_so(tmp_path: Path, browser,
                                                                    _dealt: Path) -> None:  # noqa: F811
    path = _seated(tmp_path, _dealt)
    served = _served(path)
    try:
        token = next(x["token"] for x in served.links["tables"] if x["table"] == 1)
        state = _call(served.base_url, token, "1/1")
        board = state["board"]
        _call(served.base_url, token, "1/1/dgn", {"rev": state["rev"], "text": "hand 1"})  # the hand begun
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(served.links["director"])
        _open_table_one(page)
        page.select_option("#result-board", str(board))
        page.fill("#result-reason", "time ran out")
        asked: list[str] = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.click("#board-not-played", timeout=WAIT_MS)
        page.wait_for_function("() => true")
        assert asked == [f"Table 1's phone is playing board {board}: mark it not played all the same, taking the "
                         f"hand off the phone?"]
        assert "not played" not in run("history", path)  # said no: nothing sent
        page.once("dialog", lambda d: d.accept())
        page.click("#board-not-played", timeout=WAIT_MS)
        page.wait_for_selector("#detail-message.good", timeout=WAIT_MS)
        assert page.inner_text("#detail-message") == (
            f"round 1 table 1 board {board}: not played — no score there; the board is scored over the tables that "
            f"played it; table 1's phone no longer plays board {board} (its moves stay in the venue's log)")
        assert f"table 1 board {board}: not played (marked over the hand table 1's phone was playing)" in \
            run("history", path)
    finally:
        served.close()


def test_a_hand_taken_back_whole_is_marked_with_no_question(tmp_path: Path, browser,
                                                            _dealt: Path) -> None:  # noqa: F811
    path = _seated(tmp_path, _dealt)
    served = _served(path)
    try:
        token = next(x["token"] for x in served.links["tables"] if x["table"] == 1)
        state = _call(served.base_url, token, "1/1")
        board = state["board"]
        state = _call(served.base_url, token, "1/1/dgn", {"rev": state["rev"], "text": "hand 1"})
        _call(served.base_url, token, "1/1/dgn", {"rev": state["rev"], "text": "undo"})
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(served.links["director"])
        _open_table_one(page)
        page.select_option("#result-board", str(board))
        page.fill("#result-reason", "time ran out")
        asked: list[str] = []
        page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.click("#board-not-played", timeout=WAIT_MS)
        page.wait_for_selector("#detail-message.good", timeout=WAIT_MS)
        assert asked == []
        assert page.inner_text("#detail-message") == (
            f"round 1 table 1 board {board}: not played — no score there; the board is scored over the tables that "
            f"played it")
    finally:
        served.close()


def test_the_phone_says_its_board_was_marked_not_played(tmp_path: Path, browser, _dealt: Path) -> None:  # noqa: F811
    """Board 1 begun on the phone, then marked not played over its hand (``--not-played --replace``):
    the phone moves on to board 2 saying the board was marked not played (not that its result was
    entered), in English and in Spanish."""
    path = _seated(tmp_path, _dealt)
    served = _served(path)
    try:
        url = next(x["url"] for x in served.links["tables"] if x["table"] == 1)
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        page.click('#start-hand[data-board="1"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .tiles button[data-tile]", timeout=WAIT_MS)
        _tap_a_legal_move(page)
        es = browser.new_context(viewport=PHONE, locale="es-ES").new_page()
        es.goto(url)
        es.wait_for_selector("#panel .tiles button[data-tile]", timeout=WAIT_MS)
        run("result", path, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--replace", "--reason", "time")
        page.wait_for_selector('#board-now[data-board="2"]', timeout=WAIT_MS)
        page.wait_for_function("() => document.querySelector('#message').textContent === "
                               "\"The director marked board 1 not played: the table goes on with its next board.\"",
                               timeout=WAIT_MS)
        _shot(page, "duplicate-board-not-played-over-play")
        es.wait_for_selector('#board-now[data-board="2"]', timeout=WAIT_MS)
        es.wait_for_function("() => document.querySelector('#message').textContent === "
                             "'El árbitro marcó el tablero 1 como no jugado: la mesa sigue con su siguiente tablero.'",
                             timeout=WAIT_MS)
        _shot(es, "duplicate-board-not-played-over-play-es")
        page.click('#start-hand[data-board="2"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .tiles button[data-tile]", timeout=WAIT_MS)
    finally:
        served.close()
