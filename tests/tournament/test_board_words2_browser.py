"""How the director's corrections name a duplicate table's board (Playwright driving the system's
Chromium), where the heading already said "Board N" and the buttons and forms under it still said
"hand 1" (a duplicate pairs table plays each board as a one-hand game started by ``hand 1``):

* at the table (a phone's 390x844), the director's view: "Correct board N", its form "Board N:
  type the whole hand…" with "Take back board N's hand", and a line's "Board N, line 1: …";
* on the director's page (a desktop), the open table's "Take back board N's hand", its form "Take
  back board N's hand: the table starts the board again" (taken back: the table is on the same
  board, nothing played), and a line's "Board N, line 1: …";

in English and in Spanish; an ordinary event's table still says "hand 1" in both places.

Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import playwright_or_skip

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_director_page_dec7_browser import DESKTOP, _get, _post  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_desk_browser import _event  # noqa: E402
from tests.tournament.test_venue_duplicate_browser import _dealt, _seated  # noqa: E402,F401

#: What the director reads, by language: at a duplicate table (``board``) and at an ordinary one (``hand``).
WORDS = {
    "en": {
        "board": {"correct": "Correct board {n}",
                  "whole": "Board {n}: type the whole hand as it should be, a move a line (empty: taken back)",
                  "take back": "Take back board {n}'s hand",
                  "line": "Board {n}, line 1: type it as it should be (empty: removed)",
                  "desk": "Take back board {n}'s hand: the table starts the board again"},
        "hand": {"correct": "Correct hand 1",
                 "whole": "Hand 1: type the whole hand as it should be, a move a line (empty: taken back)",
                 "take back": "Take back hand 1",
                 "line": "Hand 1, line 1: type it as it should be (empty: removed)",
                 "desk": "Take back hand 1: the later hands move up"},
    },
    "es": {
        "board": {"correct": "Corregir el tablero {n}",
                  "whole": "Tablero {n}: escriba la mano entera como debe ser, una jugada por línea (vacía: se anula)",
                  "take back": "Anular la mano del tablero {n}",
                  "line": "Tablero {n}, línea 1: escríbala como debe ser (vacía: se quita)",
                  "desk": "Anular la mano del tablero {n}: la mesa vuelve a empezar el tablero"},
        "hand": {"correct": "Corregir la mano 1",
                 "whole": "Mano 1: escriba la mano entera como debe ser, una jugada por línea (vacía: se anula)",
                 "take back": "Anular la mano 1",
                 "line": "Mano 1, línea 1: escríbala como debe ser (vacía: se quita)",
                 "desk": "Anular la mano 1: las manos siguientes suben un puesto"},
    },
}


def _started(served, text: str = "hand 1") -> tuple[dict, int | None]:
    """Table 1's link, its game started with ``text`` through the API (an ordinary table's as a
    score sheet: a hand and its score); the board it is on (None at an ordinary event's table)."""
    link = next(x for x in served.links["tables"] if x["table"] == 1)
    state = _get(served.base_url, link["token"], "1/1")
    if state.get("board") is None:
        status, said = _post(served.base_url, link["token"], "1/1/mode", {"rev": state["rev"], "mode": "sheet"})
        assert status == 200, said
        state = _get(served.base_url, link["token"], "1/1")
    status, said = _post(served.base_url, link["token"], "1/1/dgn", {"rev": state["rev"], "text": text})
    assert status == 200, said
    return link, state.get("board")


def _at_the_table(browser, served, link: dict, lang: str, words: dict, name: str) -> None:
    """The director's view on the table's phone: the hand's button, its form, a line's form."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
    context.route("**/static/pyodide/**", lambda route: route.abort())  # (the director's view needs no engine)
    page = context.new_page()
    page.goto(link["url"] + f"?lang={lang}")
    # (the table drawn, its scripts listening, before the Director button is tapped)
    page.wait_for_function("() => Number(document.body.dataset.rev) >= 0", timeout=WAIT_MS)
    page.locator("#director").tap(timeout=WAIT_MS)
    page.wait_for_selector("#td:not([hidden]) #td-pin", timeout=WAIT_MS)
    page.fill("#td-pin", served.links["director_pin"])
    page.locator("#td-open").tap(timeout=WAIT_MS)
    page.wait_for_selector('#td-hands .hand[data-hand="1"] button[data-fix-hand="1"]', timeout=WAIT_MS)
    assert page.inner_text('#td-hands button[data-fix-hand="1"]') == words["correct"]
    page.locator('#td-hands button[data-fix-hand="1"]').tap(timeout=WAIT_MS)
    page.wait_for_selector("#td-fix:not([hidden])", timeout=WAIT_MS)
    assert page.inner_text("#td-fix-title") == words["whole"]
    assert page.inner_text("#td-fix-remove") == words["take back"]
    page.locator("#td-fix").scroll_into_view_if_needed()
    _shot(page, f"{name}-whole")
    page.locator('#td-hands .hand[data-hand="1"] button.line[data-line="1"]').tap(timeout=WAIT_MS)
    page.wait_for_function(f"() => document.getElementById('td-fix-title').textContent === {words['line']!r}",
                           timeout=WAIT_MS)
    context.close()


def _on_the_desk(browser, served, lang: str, words: dict, name: str) -> None:
    """The director's page, table 1 opened: its take-back button, its form, a line's form."""
    context = browser.new_context(viewport=DESKTOP, locale="es-ES" if lang == "es" else "en-US")
    page = context.new_page()
    page.goto(served.links["director"])
    page.wait_for_selector('#tables tbody tr[data-table="1"] button', timeout=WAIT_MS)
    page.locator('#tables tbody tr[data-table="1"]').locator("button").click(timeout=WAIT_MS)
    page.wait_for_selector('#detail-moves[data-table="1/1"] .hand[data-hand="1"] button.take-back', timeout=WAIT_MS)
    assert page.inner_text("#detail-moves button.take-back") == words["take back"]
    page.locator('#detail-moves .hand[data-hand="1"] button.line[data-line="1"]').click(timeout=WAIT_MS)
    page.wait_for_selector("#fix-form:not([hidden])", timeout=WAIT_MS)
    assert page.inner_text("#fix-title") == words["line"]
    page.locator("#detail-moves button.take-back").click(timeout=WAIT_MS)
    page.wait_for_function(f"() => document.getElementById('fix-title').textContent === {words['desk']!r}",
                           timeout=WAIT_MS)
    page.fill("#fix-reason", "started by mistake")
    _shot(page, f"{name}-take-back")
    context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_view_at_a_duplicate_table_names_the_board(tmp_path: Path, browser, _dealt: Path,  # noqa: F811
                                                                 lang: str) -> None:
    served = _served(_seated(tmp_path, _dealt))
    try:
        link, board = _started(served)
        assert board is not None
        words = {k: v.format(n=board) for k, v in WORDS[lang]["board"].items()}
        _at_the_table(browser, served, link, lang, words, f"board-words2-table-director-{lang}")
    finally:
        served.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_page_at_a_duplicate_table_names_the_board(tmp_path: Path, browser, _dealt: Path,  # noqa: F811
                                                                 lang: str) -> None:
    served = _served(_seated(tmp_path, _dealt))
    try:
        link, board = _started(served)
        words = {k: v.format(n=board) for k, v in WORDS[lang]["board"].items()}
        _on_the_desk(browser, served, lang, words, f"board-words2-director-{lang}")
        # What the form says is so: its hand taken back, the table is on the same board, nothing played.
        director = served.links["director"].rsplit("/", 1)[1]
        state = _get(served.base_url, link["token"], "1/1")
        status, said = _post(served.base_url, director, "1/1/correct",
                             {"rev": state["rev"], "hand": 1, "line": None, "text": "", "reason": "started by mistake"})
        assert status == 200, said
        after = _get(served.base_url, link["token"], "1/1")
        assert after["board"] == board and not after["game"]["hands"]
    finally:
        served.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_ordinary_table_still_says_hand(tmp_path: Path, browser, lang: str) -> None:
    served = _served(_event(tmp_path))
    try:
        link, board = _started(served, "hand 1\nend NS 30 EW 0")
        assert board is None
        words = WORDS[lang]["hand"]
        _at_the_table(browser, served, link, lang, words, f"board-words2-ordinary-table-director-{lang}")
        _on_the_desk(browser, served, lang, words, f"board-words2-ordinary-director-{lang}")
    finally:
        served.close()
