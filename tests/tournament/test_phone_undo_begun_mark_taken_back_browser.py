"""The table's phone (390x844, Playwright driving the system's Chromium) right after a hand's first
line, and after the director takes back a board's mark "not played".

1. Undo takes back a hand's first line in every game.  Castle Rock's *Start hand 1* (and, in any
   game, a first deal line typed before the hand line) leaves the hand waiting (``waiting`` in the
   game's state, ``announced`` null: it cannot start until its row, or the rest of the deal, is
   given); the page greyed its Undo there, the line kept on the table with no way to take it back
   but the director.
2. A duplicate table's phone that said "The director marked board 1 not played: ..." kept saying
   it after the director took the mark back (the board now the director's to enter), until the
   table's next write.

Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from domrec.session import PARTS, requests_for
from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_event import run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament import test_venue_browser as harness  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_duplicate_browser import _dealt, _seated, _tap_a_legal_move  # noqa: E402,F401
from tests.tournament.test_venue_games_browser import _served_game, _table_page  # noqa: E402

_rev, _wait_rev, _type = harness._rev, harness._wait_rev, harness._type

GAMES = [("competitive", ["Ana", "Bo", "Cy", "Di"]), ("horse-race", ["Ana", "Bo", "Cy"]),
         ("broadway", ["Ana", "Bo", "Cy", "Di"]), ("castle-rock", ["Ana", "Bo", "Cy"]),
         ("domino-roads", ["Ana", "Bo", "Cy", "Di"])]


def _game_state(page) -> dict:
    return page.evaluate("() => { const g = window.venue.table.view().game; return {hands: g.hands.length, "
                         "announced: g.announced, waiting: g.waiting, in_hand: g.in_hand}; }")


def _undo_back_to_nothing(page) -> None:
    """Undo is offered, and tapped takes the line back: the table as before it (nothing begun)."""
    assert page.is_enabled("#undo"), _game_state(page)
    before = _rev(page)
    page.click("#undo", timeout=WAIT_MS)
    _wait_rev(page, before)
    assert _game_state(page) == {"hands": 0, "announced": None, "waiting": None, "in_hand": False}
    assert page.locator("#waiting").count() == 0
    assert page.is_disabled("#undo")  # (nothing left to take back)


@pytest.mark.parametrize("game, players", GAMES, ids=[g for g, _ in GAMES])
def test_undo_takes_back_the_first_line_of_a_hand(tmp_path: Path, browser, game: str, players: list[str]) -> None:
    path, record = _served_game(tmp_path, game, players, 5)
    served = _served(path)
    try:
        page = _table_page(browser, served)
        assert page.is_disabled("#undo")  # nothing yet
        # *Start hand 1* tapped: Castle Rock's hand now waits for its row, the others' is announced.
        before = _rev(page)
        page.click("#start-hand", timeout=WAIT_MS)
        _wait_rev(page, before)
        state = _game_state(page)
        assert state["hands"] == 0 and not state["in_hand"]
        assert (state["waiting"] is not None) == (game == "castle-rock"), state
        if game == "castle-rock":
            page.wait_for_selector("#waiting", timeout=WAIT_MS)
            _shot(page, "undo-begun-castle-rock-waiting")
        _undo_back_to_nothing(page)
        # A deal line typed first (the deal may come before the hand line): one part of it, the hand
        # waiting for the rest (Competitive's lead draw announces it).
        part = next(text for text in requests_for(record) if text.split()[0] in PARTS and text.split()[0] != "hand")
        _type(page, part)
        _undo_back_to_nothing(page)
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
    finally:
        served.close()


def test_the_mark_taken_back_is_no_longer_said(tmp_path: Path, browser, _dealt: Path) -> None:  # noqa: F811
    """Board 1 marked not played over the phone's play, then the mark taken back: the phone's line
    says so (the director enters the board's result), in English and in Spanish, with no write of
    the table's."""
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
        page.wait_for_function("() => document.querySelector('#message').textContent === "
                               "\"The director marked board 1 not played: the table goes on with its next board.\"",
                               timeout=WAIT_MS)
        es.wait_for_function("() => document.querySelector('#message').textContent.startsWith("
                             "'El árbitro marcó el tablero 1 como no jugado')", timeout=WAIT_MS)
        rev = _rev(page)
        run("clear", path, "--round", 1, "--table", 1, "--board", 1, "--reason", "they came back")
        page.wait_for_selector('#to-enter[data-boards="1"]', timeout=WAIT_MS)
        page.wait_for_function("() => !document.querySelector('#message').textContent.includes('the table goes on')",
                               timeout=WAIT_MS)
        assert page.inner_text("#message") == ("Board 1 is no longer marked not played: the director "
                                               "enters its result.")
        assert _rev(page) == rev  # (no write of the table's)
        _shot(page, "duplicate-mark-taken-back")
        es.wait_for_selector('#to-enter[data-boards="1"]', timeout=WAIT_MS)
        es.wait_for_function("() => !document.querySelector('#message').textContent.includes('la mesa sigue')",
                             timeout=WAIT_MS)
        assert es.inner_text("#message") == ("El tablero 1 ya no está marcado como no jugado: el árbitro "
                                             "introduce su resultado.")
        _shot(es, "duplicate-mark-taken-back-es")
    finally:
        served.close()
