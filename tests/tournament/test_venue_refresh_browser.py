"""The table page's refresh in a real browser: it draws the page again only when the table has
moved on, so a choice in progress (a leader picked, a tile tapped and its places shown) survives
the refresh every few seconds; a change made elsewhere (another phone, the director) is drawn.

The refresh is driven the way the page itself runs it (its ``visibilitychange`` handler calls
the same function as its five-second timer), and the test waits for the page to count it done:
never a real wait that a slow machine could lose.  Slow, and skipped where Chromium or Playwright
is missing."""

from __future__ import annotations

import time

import httpx
import pytest

from domrec import tiles as T
from domrec.session import PARTS

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _event, _game, _served, _steps, _type  # noqa: E402


def _count(page, name: str) -> int:
    return int(page.evaluate(f"() => Number(document.body.dataset.{name}) || 0"))


def _refreshed(page) -> None:
    """The page's own refresh, run once to its end (the page counts each one it finishes)."""
    before = _count(page, "refreshed")
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    deadline = time.monotonic() + WAIT_MS / 1000
    while _count(page, "refreshed") <= before:
        assert time.monotonic() < deadline, "the page's refresh did not finish"
        page.wait_for_timeout(20)


def _playing(browser, served):
    """Table 1's page on a phone, the table recording play by play, waiting for its first hand."""
    page = browser.new_page(viewport=PHONE)
    page.goto(served.links["tables"][0]["url"])
    page.click("#mode-play", timeout=WAIT_MS)
    page.wait_for_selector("#start-hand", timeout=WAIT_MS)
    return page


def test_a_leader_picked_survives_a_refresh_and_a_change_elsewhere_is_drawn(tmp_path, browser):
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        link = served.links["tables"][0]
        page = _playing(browser, served)
        page.select_option("#lead", "W")
        drawn = _count(page, "drawn")
        for _ in range(3):
            _refreshed(page)
        assert page.input_value("#lead") == "W"
        assert _count(page, "drawn") == drawn, "a refresh that found the table as it was drew the page again"
        # Another phone calls the director: the table moved on, and the page draws it.
        base = link["url"].split("/t/")[0]
        r = httpx.post(f"{base}/api/v1/tables/1/1/call", json={}, headers={"Authorization": f"Bearer {link['token']}"})
        assert r.status_code == 200, r.text
        # (the page's own 5 s refresh, under way as the call was made, may bring the table as it was)
        for _ in range(3):
            _refreshed(page)
            if _count(page, "drawn") > drawn:
                break
        assert _count(page, "drawn") > drawn
        page.wait_for_selector("#panel .state-called", timeout=WAIT_MS)
    finally:
        served.close()


def test_a_tile_tapped_survives_a_refresh(tmp_path, browser):
    """Broadway with the deal: a tile tapped shows where it may go (the tableau's cells); the
    refresh leaves the tile chosen and its places shown, and a tap on one of them is taken."""
    path = _event(tmp_path, "broadway", ["Ana", "Bo", "Cy", "Di"])
    steps = _steps(_game(path, seed=3))
    served = _served(path)
    try:
        page = _playing(browser, served)
        k = 0
        while steps[k].split()[0] in PARTS:  # the hand line and the deal, typed
            _type(page, steps[k])
            k += 1
        tile = str(T.tile(steps[k].split("@")[0].lstrip("*!").split()[-1]))
        page.click(f'#panel .tiles button[data-tile="{tile}"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .targets", timeout=WAIT_MS)
        drawn = _count(page, "drawn")
        for _ in range(3):
            _refreshed(page)
        assert _count(page, "drawn") == drawn
        assert page.locator(f'#panel .tiles button.chosen[data-tile="{tile}"]').count() == 1
        target = page.locator("#panel .targets button").first
        before = int(page.evaluate("() => document.body.dataset.rev"))
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
            target.click()
        assert answer.value.status == 200, answer.value.json()
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
    finally:
        served.close()


def test_the_deal_typed_before_the_hand_line_opens_a_hand_any_seat_may_lead(tmp_path, browser):
    """The issue's 500 on a phone: Horse Race, the deal typed in the box before *Start hand 1*
    with the lead left to the rules (by lot).  The page offers the tiles, whoever holds the one
    tapped leads, and the table goes on."""
    from tests.tournament.test_venue import _event as venue_event, _game_of

    path = venue_event(tmp_path, "horse-race")
    deal = [text for text in _steps(_game_of(path, 1, 1, 5)) if text.startswith("deal ")][:3]  # the first hand's
    served = _served(path)
    try:
        page = _playing(browser, served)
        _type(page, "\n".join(deal))
        page.wait_for_selector("#panel .tiles button", timeout=WAIT_MS)
        assert "Tap the tile played" in page.inner_text("#panel h2")
        tile = deal[1].split()[2]  # a tile of the second seat's: it leads
        before = int(page.evaluate("() => document.body.dataset.rev"))
        page.click(f'#panel .tiles button[data-tile="{tile}"]')
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
        assert tile in page.inner_text("#moves") and page.inner_text("#message") != ""
        _refreshed(page)
        assert page.locator(".players .to-move").count() == 1
    finally:
        served.close()
