"""The director's page, in a real browser (the system's Chromium driven by Playwright, the venue
served on 127.0.0.1): a Horse Race table of three given a typed result with two players level at the
top (P1 61, P2 61, P3 0).  Saved, the page says who is level, in words that name no command-line
flag, and offers the choice of the winner among those two (each with the player's name); the one
picked goes with the next save, and the event file holds the result with that winner.  At a phone's
390x844 in English, and on a laptop in Spanish.  Screenshots go to the test's folder (and
``DOMREC_SCREENSHOTS`` when set), for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=False)
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402
from tests.tournament.test_venue_director_browser import (DESKTOP, PHONE, WAIT_MS, _one_screen_wide,  # noqa: E402
                                                          _row, _said, _save_result, _shot, _tap)

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Quinevere Featherstonehaugh"]

WORDS = {
    "en": {"level": "P1 and P2 are level on 61 at the top of table 2: say who won by the game's rules; "
                    "nothing was stored",
           "legend": "Who won? They are level at the top: the game's rules decide",
           "pick": "choose who won: they are level at the top",
           "stored": "round 1 table 2: P1 61, P2 61, P3 0; winner P2 (manual entry, unverified) — stored"},
    "es": {"level": "P1 y P2 empatan a 61 en cabeza de la mesa 2: diga quién ganó según las reglas del juego; "
                    "no se guardó nada",
           "legend": "¿Quién ganó? Empatan en cabeza: deciden las reglas del juego",
           "pick": "elija quién ganó: empatan en cabeza",
           "stored": "ronda 1, mesa 2: P1 61, P2 61, P3 0; gana P2 (entrada manual, sin comprobar) — guardado"},
}


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "horse-race", "individual", 3, seed=4))
    add_players(store, PLAYERS)
    pair_next_round(store)
    store.close()
    return path


def _table_two(path: Path):
    """Table 2 of round 1: its result as the event file holds it, and its players by seat."""
    with open_event(path) as store:
        table = next(t for t in store.tables(1) if t.number == 2)
        names = {p.id: p.name for p in store.players()}
        return store.result_for(table.id), {s.seat: names[s.player] for s in table.seats}


@pytest.mark.parametrize("size, lang", [("phone", "en"), ("desktop", "es")])
def test_a_level_top_is_settled_by_choosing_the_winner(tmp_path, browser, size, lang):
    path = _event(tmp_path)
    words = WORDS[lang]
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        context = (browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) if size == "phone"
                   else browser.new_context(viewport=DESKTOP))
        page = context.new_page()
        page.goto(served.links["director"] + f"?lang={lang}")
        page.wait_for_selector(f"{_row(page, 2)} button", timeout=WAIT_MS)
        _tap(page, f"{_row(page, 2)} button")
        page.wait_for_selector("#detail:not([hidden]) #dir-score-P3", timeout=WAIT_MS)
        assert page.locator("#result-winner").is_hidden()

        # Level at the top: refused, in words without --winner, and the choice offered.
        _save_result(page, {"P1": "61", "P2": "61", "P3": "0"}, "")
        assert _said(page, "bad") == words["level"]
        page.wait_for_selector("#result-winner:not([hidden])", timeout=WAIT_MS)
        assert page.inner_text("#result-winner legend") == words["legend"]
        _, seated = _table_two(path)
        choices = page.locator("#result-winner-choices label").all_inner_texts()
        assert [" ".join(c.split()) for c in choices] == [f"P1 {seated['P1']}", f"P2 {seated['P2']}"]
        assert page.locator("#result-winner input:checked").count() == 0
        _one_screen_wide(page)
        _shot(page, tmp_path, f"level-top-{size}-{lang}-choice", whole=False)
        assert _table_two(path)[0] is None

        # Saved again without a choice: asked to choose, nothing sent.
        _save_result(page, {}, "")
        assert _said(page, "bad") == words["pick"]

        # A score typed again takes the choice away (the server asks again if still level).
        page.fill("#dir-score-P3", "1")
        page.wait_for_selector("#result-winner[hidden]", state="attached", timeout=WAIT_MS)
        _save_result(page, {"P3": "0"}, "")
        assert _said(page, "bad") == words["level"]
        page.wait_for_selector("#result-winner:not([hidden])", timeout=WAIT_MS)

        # P2 picked (the second of them, not the first) and saved: stored with P2 the winner.
        _tap(page, "label:has(#dir-winner-P2)")
        # (a tap's click: waited for, not read at once)
        page.wait_for_selector("#dir-winner-P2:checked", state="attached", timeout=WAIT_MS)
        _save_result(page, {}, "")
        assert _said(page, "good") == words["stored"]
        page.wait_for_selector("#result-winner[hidden]", state="attached", timeout=WAIT_MS)
        _shot(page, tmp_path, f"level-top-{size}-{lang}-stored", whole=False)
        result, _ = _table_two(path)
        assert result is not None and result.kind == "manual"
        assert (result.scores, result.winner) == ({"P1": 61, "P2": 61, "P3": 0}, "P2")
        context.close()
