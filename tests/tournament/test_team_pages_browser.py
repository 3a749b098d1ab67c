"""A team event's hall pages in a real browser (Playwright driving the system's Chromium): the team
standings at a phone (390x844) and the projector's size (1920x1080), a team's page at a phone, the
projector's team standings; nothing wider than the screen, the projector's text no smaller than
32 px.  Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a person to look
at.  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip, refresh_now

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue

from .test_public_browser import PHONE, PROJECTOR, SMALL_TEXT, WAIT_MS
from .test_team_pages import _post
from .test_teams import run


def _shot(page, name: str) -> None:
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(keep) / f"teams-{name}.png"), full_page=True)


def test_the_team_standings_at_a_phone_and_on_the_projector(tmp_path, browser):
    event = tmp_path / "copa.db"
    run("simulate", event, "--format", "teams", "--teams", "9", "--rounds", "3", "-q")
    run("team", event, "rename", "Team 001", "Club Dominó Los Primos de Santo Domingo Este")
    run("pair", event)  # round 4 paired, nothing in yet: its matches show 0 of 2 tables in
    with BackgroundVenue(event, rate=1e9, burst=10 ** 9) as served:
        for size, view in (("phone", PHONE), ("projector-size", PROJECTOR)):
            page = browser.new_page(viewport=view)
            page.goto(served.base_url + "/standings")
            page.wait_for_selector("table.teams", timeout=WAIT_MS)
            assert page.locator("table.teams tbody tr").count() == 9
            heads = page.locator("table.teams thead th").all_inner_texts()
            assert heads[:4] == ["rank", "team", "games won", "efectividad"]
            assert page.locator("table.teams thead th").nth(1).is_visible()
            assert page.evaluate("() => document.documentElement.scrollWidth") <= view["width"], size
            _shot(page, f"standings-{size}")
            page.close()
        page = browser.new_page(viewport=PHONE)
        page.goto(served.base_url + "/teams/1")
        page.wait_for_selector("ol.games", timeout=WAIT_MS)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        assert "Los Primos" in page.inner_text("h2")
        _shot(page, "team-phone")
        page.goto(served.base_url + "/tables")
        page.wait_for_selector("tr.match", timeout=WAIT_MS)
        assert "0 of 2 tables in" in page.inner_text("tr.match >> nth=0")
        _shot(page, "tables-phone")
        page.close()
        page = browser.new_page(viewport=PROJECTOR)
        page.clock.install()
        page.goto(served.base_url + "/projector")
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        shown = page.evaluate("() => [...document.querySelectorAll('.screen h2')].map(e => e.textContent)")
        assert any("Team standings after round" in h for h in shown), shown
        screen = page.evaluate("() => [...document.querySelectorAll('.screen')].findIndex("
                               "s => s.textContent.includes('Team standings'))")
        for _ in range(20):  # to the team standings' screen, moving the page's own clock on
            if int(page.get_attribute(".screen.on", "data-screen")) == screen:
                break
            page.clock.run_for(8_000)
        assert int(page.get_attribute(".screen.on", "data-screen")) == screen
        assert page.evaluate(SMALL_TEXT) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PROJECTOR["width"]
        _shot(page, "projector")
        page.close()
        # The director's page: the round's matches, filling in as a table's result comes in.
        page = browser.new_page(viewport=PROJECTOR)
        page.clock.install()  # (the page's refresh run at once where the test waits for it)
        page.goto(served.links["director"])
        page.wait_for_selector("#matches li", timeout=WAIT_MS)
        assert page.locator("#matches li").count() == 4
        first = page.locator('#matches li[data-tables="1-2"]')
        assert "0 – 0" in first.inner_text() and "0 of 2 tables in" in first.inner_text()
        director = served.links["director"].rsplit("/", 1)[1]
        _post(f"{served.base_url}/api/v1/tables/4/1/result", director, {"scores": {"NS": 200, "EW": 120}})
        refresh_now(page.context, 3000)  # the director's page's next refresh
        page.wait_for_selector('#matches li[data-tables="1-2"]:text-matches("1 of 2 tables in")', timeout=WAIT_MS)
        assert "1 – 0" in first.inner_text()
        _shot(page, "director")


def test_the_directors_page_shows_a_set_as_a_set_in_both_languages(tmp_path, browser):
    """An event of sets (``--team-set``): the director's page says each match's set, in progress
    (in Spanish here) and, in another event, won, never "n of m tables in"."""
    event = tmp_path / "sets.db"
    run("simulate", event, "--format", "teams", "--teams", "4", "--rounds", "1", "--team-set", "3", "-q")
    run("pair", event)  # round 2: its sets not begun
    with BackgroundVenue(event, rate=1e9, burst=10 ** 9) as served:
        page = browser.new_page(viewport=PROJECTOR)
        page.clock.install()
        page.goto(served.links["director"] + "?lang=es")
        page.wait_for_selector("#matches li", timeout=WAIT_MS)
        assert page.locator("#matches li").count() == 2
        first = page.locator('#matches li[data-tables="1-2"]')
        assert "(set a 3, en juego)" in first.inner_text() and "mesas" not in first.inner_text()
        director = served.links["director"].rsplit("/", 1)[1]
        _post(f"{served.base_url}/api/v1/tables/2/1/result", director, {"scores": {"NS": 200, "EW": 120}})
        refresh_now(page.context, 3000)
        page.wait_for_function("""() => document.querySelector('#matches li[data-tables="1-2"] .match-score')
                                         .textContent === '1 – 0'""", timeout=WAIT_MS)
        assert "(set a 3, en juego)" in first.inner_text()
        page.close()
    done = tmp_path / "done.db"
    run("simulate", done, "--format", "teams", "--teams", "2", "--rounds", "1", "--team-set", "2", "-q")
    with BackgroundVenue(done, rate=1e9, burst=10 ** 9) as served:
        page = browser.new_page(viewport=PROJECTOR)
        page.goto(served.links["director"] + "?lang=en")
        page.wait_for_selector("#matches li", timeout=WAIT_MS)
        text = page.locator('#matches li[data-tables="1-2"]').inner_text()
        assert " wins the set 2–" in text and "tables in" not in text and "in progress" not in text
        _shot(page, "director-set")
        page.close()
