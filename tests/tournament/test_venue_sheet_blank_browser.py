"""Scores only on a phone: a form left blank and tapped ("Record hand 1") records nothing and says
what to do, in the director's form's words; a box left blank beside a typed one is 0; a typed 0 is
a score (a blocked hand tied at 0 – 0); a box holding what is not a whole number is refused.  The
same form serves every game (a box a side, or a box a player): Competitive and Horse Race here.
Before, a blank form was sent as "end NS 0 EW 0", a hand nobody typed.  Slow, and skipped where
Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _rev, _served, _wait_rev

playwright_api = playwright_or_skip(server=True)


def _event(tmp_path: Path, game: str) -> tuple[Path, list[str]]:
    """A one-table event of ``game`` and its sides, in seating order."""
    fmt, size, players = {"competitive": ("rotating", None, 4), "horse-race": ("individual", 3, 3)}[game]
    path = tmp_path / f"{game}.db"
    store = create_event(path, make_settings("Club night", game, fmt, table_size=size, seed=4))
    add_players(store, [f"Player {k}" for k in range(1, players + 1)])
    pair_next_round(store)
    sides = list(store.tables(1)[0].sides())
    store.close()
    return path, sides


def _record(page, hand: int, typed: dict[str, str]) -> None:
    """Type the boxes (a blank one emptied) and tap "Record hand N": the server must take it."""
    for side, value in typed.items():
        page.fill(f"#score-{side}", value)
    before = _rev(page)
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
        page.click(f'#add-sheet-hand[data-hand="{hand}"]')
    assert answer.value.status == 200, answer.value.json()
    _wait_rev(page, before)
    page.wait_for_selector(f'#add-sheet-hand[data-hand="{hand + 1}"]:not([disabled])', timeout=WAIT_MS)


def _refused(page, hand: int, typed: dict[str, str], lang: str) -> str:
    """Type the boxes, tap: the page says why in one line and the hand's button stays."""
    for side, value in typed.items():
        page.fill(f"#score-{side}", value)
    page.evaluate("() => { const m = document.getElementById('message'); m.textContent = ''; m.className = ''; }")
    page.click(f'#add-sheet-hand[data-hand="{hand}"]')
    # Said, or (as before) sent: the next hand's boxes shown.  Whichever comes first.
    page.wait_for_selector(f'#message.bad, #add-sheet-hand[data-hand="{hand + 1}"]', timeout=WAIT_MS)
    assert page.locator(f'#add-sheet-hand[data-hand="{hand}"]').count() == 1, "the hand was sent"
    page.wait_for_selector(f'#add-sheet-hand[data-hand="{hand}"]:not([disabled])', timeout=WAIT_MS)
    return page.inner_text("#message.bad")


@pytest.mark.parametrize("game, lang", [("competitive", "en"), ("horse-race", "en"), ("competitive", "es")])
def test_a_blank_score_sheet_records_nothing(tmp_path, browser, game, lang):
    path, sides = _event(tmp_path, game)
    served = _served(path)
    try:
        page = browser.new_page(viewport=PHONE)
        page.goto(served.links["tables"][0]["url"] + f"?lang={lang}")
        page.wait_for_function("() => Number(document.body.dataset.rev) >= 0", timeout=WAIT_MS)
        before = _rev(page)
        page.click("#mode-sheet", timeout=WAIT_MS)
        _wait_rev(page, before)
        page.wait_for_selector('#add-sheet-hand[data-hand="1"]', timeout=WAIT_MS)
        first, last = sides[0], sides[-1]
        words = {"en": "type the score of {} as a whole number of points",
                 "es": "escriba los puntos de {} como un número entero"}[lang]
        # Every box blank: nothing sent, the first box named (the director's form's sentence).
        said = _refused(page, 1, {s: "" for s in sides}, lang)
        assert said == words.format(first), said
        # What is not a whole number: that box named, nothing sent.
        said = _refused(page, 1, {**{s: "" for s in sides}, last: "1.5"}, lang)
        assert said == words.format(last), said
        # One box typed, the others blank: they are 0.
        _record(page, 1, {**{s: "" for s in sides}, first: "10"})
        # Every box typed 0: a hand of no points, recorded as typed.
        _record(page, 2, {s: "0" for s in sides})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        served.close()
    store = open_event(path)
    try:
        bodies = [r[0] for r in store.conn.execute("SELECT body FROM venue_log WHERE kind = 'dgn' ORDER BY rev")]
    finally:
        store.close()
    zero = " ".join(f"{s} 0" for s in sides)
    assert bodies == ["hand 1\nend " + " ".join(f"{s} {10 if s == first else 0}" for s in sides),
                      "hand 2\nend " + zero], bodies
