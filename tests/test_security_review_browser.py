"""A security review, in a real browser: names a hostile entrant might give (markup, an image whose
error runs a script, a textarea's end) stay text on the venue's pages as the browser draws them,
scripts and all (the table's page, the director's page with a table opened, the hall's pages, a
replay), in English and Spanish; no dialog opens, no element of a name's is made, and nothing is
fetched from anywhere but the laptop.

Served by ``tournament serve``'s application on 127.0.0.1 to Playwright driving the system's
Chromium.  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, pair_next_round

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue  # noqa: E402

WAIT_MS = 60_000
HOSTILE = ('<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "O'Brien </textarea><b>x</b>",
           "{{7*7}} ${7*7}")
#: What the page made of the names: images whose source is "x", bold elements reading "x", scripts
#: holding "alert" outside a JSON data block.
MADE = """() => [
  [...document.querySelectorAll('img')].filter((i) => i.getAttribute('src') === 'x').length,
  [...document.querySelectorAll('b')].filter((b) => b.textContent === 'x').length,
  [...document.querySelectorAll('script')].filter((s) => s.type !== 'application/json' && /alert/.test(s.textContent)).length]"""


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.db"
    store = create_event(path, make_settings('<script>alert("ev")</script> & "q" \'s</textarea>', "competitive",
                                             "rotating", seed=3))
    add_players(store, [*HOSTILE, "Ana", "Bea", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    return path


def test_hostile_names_stay_text_in_the_browser(tmp_path: Path, browser) -> None:
    served = BackgroundVenue(_event(tmp_path), rate=1e9, burst=10 ** 9)
    try:
        links = served.links
        director, table = links["director"], links["tables"][0]["url"]
        context = browser.new_context()
        dialogs: list[str] = []
        elsewhere: list[str] = []
        context.on("request", lambda r: elsewhere.append(r.url)
                   if not r.url.startswith((served.base_url, "data:", "blob:")) else None)
        try:
            # Every page loaded first, each in a tab of its own, then each looked at once its network
            # is quiet (its scripts' fetches answered and drawn): the tabs wait out their quiet half
            # second together, not one after the other.
            pages = []
            for lang in ("en", "es"):
                for url in (f"{table}?lang={lang}", f"{director}?lang={lang}", f"{served.base_url}/?lang={lang}",
                            f"{served.base_url}/tables?lang={lang}", f"{served.base_url}/standings?lang={lang}",
                            f"{served.base_url}/players/2?lang={lang}", f"{director}/replay/1/1?lang={lang}"):
                    page = context.new_page()
                    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                    page.goto(url, wait_until="load", timeout=WAIT_MS)
                    pages.append((url, page))
            for url, page in pages:
                page.wait_for_load_state("networkidle", timeout=WAIT_MS)
                if url.startswith(director) and "/replay/" not in url:
                    page.locator("td button").first.click()  # a table opened: its players drawn by the script
                    page.wait_for_selector("#detail:not([hidden])", timeout=WAIT_MS)
                assert page.evaluate(MADE) == [0, 0, 0], url
                if url.startswith(table):
                    shown = page.locator("body").inner_text()
                    assert "<script>alert(1)</script>" in shown or "onerror=alert(2)" in shown, url
                page.close()
        finally:
            context.close()
        assert dialogs == []
        assert elsewhere == []
    finally:
        served.close()
