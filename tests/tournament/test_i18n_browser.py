"""The table page in Spanish in a real browser: Chromium with a Spanish locale (``es-ES``: the
``Accept-Language`` it sends) opens a table's link at a phone's 390x844 and reads Spanish, the
script's words included (from the strings the page embeds); a refused move comes back in Spanish
with its place; the switch "English" turns the page, and the next visits, into English.

Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set.  Slow, and skipped with the
reason where Chromium or Playwright is missing."""

from __future__ import annotations

import re

import pytest

from tournament import add_players, create_event, make_settings, pair_next_round

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip, wait_rev

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue  # noqa: E402

PHONE = {"width": 390, "height": 844}
#: Long enough for any page to answer on a busy machine: a wait that runs out is a failure, never a pass.
WAIT_MS = 60_000
DEAL = ("hand 1 lead N\ndeal N 6-6 6-5 6-4 6-3 6-2 6-1 6-0; E 5-5 5-4 5-3 5-2 5-1 5-0 4-4; "
        "S 4-3 4-2 4-1 4-0 3-3 3-2 3-1; W 3-0 2-2 2-1 2-0 1-1 1-0 0-0")


def _shot(page, name: str) -> None:
    keep(page, f"i18n-{name}")


def _rev(page) -> int:
    return int(page.evaluate("() => document.body.dataset.rev || -1"))


def test_a_spanish_phone_reads_spanish_and_the_switch_turns_it_english(tmp_path, browser):
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Noche del club", "competitive", "rotating", seed=4))
    add_players(store, ["Ana", "Beto", "Carla", "Dani", "Eva", "Fito", "Gabi", "Hugo"])
    pair_next_round(store)
    store.close()
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as venue:
        link = venue.links["tables"][0]["url"]
        context = browser.new_context(viewport=PHONE, locale="es-ES")
        page = context.new_page()
        page.goto(link)
        page.wait_for_selector("#mode-play", timeout=WAIT_MS)
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.inner_text("#mode-play") == "Jugada a jugada"
        assert page.inner_text("#mode-sheet") == "Solo los puntos"
        assert "¿Cómo anotará esta mesa su partida?" in page.inner_text("#panel")
        assert page.inner_text("#undo") == "Deshacer" and page.inner_text("#call") == "Llamar al árbitro"
        assert "ronda 1 · mesa 1" in page.inner_text("#title")
        _shot(page, "es-start")

        before = _rev(page)
        page.click("#mode-play")
        wait_rev(page, before, WAIT_MS)
        assert page.inner_text("#message") == "esta mesa anota jugada a jugada"
        assert page.inner_text("#start-hand") == "Empezar la mano 1"
        before = _rev(page)
        page.fill("#typed-text", DEAL)
        page.click("#typed-form button[type=submit]")
        wait_rev(page, before, WAIT_MS)
        assert "Juega N: toque una ficha" in page.inner_text("#panel")
        # a refusal, in Spanish, naming the move (one line sent: no "1:3: " place before it)
        page.fill("#typed-text", "E 5-5")
        page.click("#typed-form button[type=submit]")
        page.wait_for_function("() => document.querySelector('#typed-message').className === 'bad'", timeout=WAIT_MS)
        message = page.inner_text("#typed-message")  # (beside the box the line was typed in)
        assert message == ("E juega 5-5: E no puede salir en esta mano: el registro nombra a N como salida de "
                           "esta mano [competitivo: primera salida (sorteo de la salida)]"), message
        page.fill("#typed-text", "")
        page.click('#panel .tiles button[data-tile="6-6"]')
        page.wait_for_function("() => document.querySelector('#message').className === 'good'", timeout=WAIT_MS)
        # what the recorder said last: the forced passes after 6-6 (nobody else holds a six)
        assert page.inner_text("#message") == "E pasa (obligado)"
        assert "N 6-6" in page.inner_text("#moves")
        # the table's picture under "Esta mano": its words in Spanish, the tiles as they are
        assert page.inner_text("#layout").replace("\u200b", "").startswith("línea: [6-6]")
        _shot(page, "es-played")
        english_words = re.findall(r"\b(?:the|tap|to play|Hand|Undo|Call)\b", page.inner_text("main") +
                                   page.inner_text("footer"))
        assert not english_words, english_words

        # the switch: English, and it stays English on the next visit (the cookie)
        page.click('nav.langs a[data-lang="en"]')
        page.wait_for_function("() => document.documentElement.lang === 'en' && document.body.dataset.rev",
                               timeout=WAIT_MS)
        page.wait_for_selector("#panel .tiles", timeout=WAIT_MS)
        assert page.inner_text("#undo") == "Undo" and "N to play: tap a tile" in page.inner_text("#panel")
        assert page.inner_text('nav.langs [aria-current]') == "English"
        _shot(page, "en-after-switch")
        page.goto(link)
        page.wait_for_selector("#panel .tiles", timeout=WAIT_MS)
        assert page.evaluate("document.documentElement.lang") == "en" and page.inner_text("#undo") == "Undo"
        context.close()
