"""The hall's pages in a real browser: Playwright for Python driving the system's Chromium against
``tournament serve``'s application on 127.0.0.1.

* A result confirmed through the API appears on an open standings page without a reload (the live
  stream tells the page; it swaps its main region in).  The test waits generously and measures no
  delay: the delay is measured by ``benchmarks/bench_venue.py``.
* The projector pages by itself through a thousand names (an event made by ``tournament simulate``),
  no visible text under 32 px.
* Screenshots at 390x844 (a phone), 1280x800 (a laptop) and 1920x1080 (the projector), kept under
  ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at.

Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round

from .test_pages import run

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue

from .test_venue import _auth, _game_of

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}
#: Long enough for any page to answer on a busy machine: a wait that runs out is a failure, never a pass.
WAIT_MS = 90_000

#: Visible elements with text of their own set in type under 32 px (the projector's rule).
SMALL_TEXT = """() => [...document.querySelectorAll('body *')].filter(e => {
  const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' &&
    [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) && parseFloat(cs.fontSize) < 32;
}).map(e => e.tagName + ' ' + getComputedStyle(e).fontSize + ' ' + e.textContent.trim().slice(0, 40))"""


def _shot(page, name: str) -> None:
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(keep) / f"public-{name}.png"))


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4, time_limit=45))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo", "Jo", "Kim", "Lu"])
    pair_next_round(store)
    store.close()
    return path


@pytest.mark.parametrize("hall, spanish", [(False, False), (True, False), (True, True)],
                         ids=["one-process", "hall-process", "spanish-kept-by-the-cookie"])
def test_a_confirmed_result_appears_on_an_open_standings_page_without_a_reload(tmp_path, browser, hall, spanish):
    """(``hall-process``: the hall's pages in their own process, as ``serve`` runs them; the page
    opened at the tables' port, as an old QR code would, and sent on to the hall's.
    ``spanish-kept-by-the-cookie``: the language chosen with the switch, then the standings
    reached without ``?lang=``: the page's update was fetched without the cookie, and came in
    the hall's default language.)"""
    from domrec.session import requests_for

    from tests.tournament.helpers import hand_by_hand

    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9, hall=hall) as served:
        page = browser.new_page(viewport=PHONE)
        if spanish:
            page.goto(served.hall_url + "/?lang=es")  # the switch: the cookie keeps the language
        page.goto(served.base_url + "/standings")
        page.wait_for_selector("table.std", timeout=WAIT_MS)
        assert page.url == served.hall_url + "/standings"
        assert page.evaluate("() => document.documentElement.lang") == ("es" if spanish else "en")
        seq = page.evaluate("() => document.getElementById('main').dataset.seq")
        page.evaluate("() => { window.notReloaded = true; }")  # gone if the page were loaded again
        assert "Provisional" in page.inner_text("#main")
        # Wait until the page listens (its stream open), then confirm a whole game through the API.
        page.wait_for_function("() => performance.getEntriesByType('resource').some(e => e.name.includes('/live'))",
                               timeout=WAIT_MS)
        import httpx

        token = served.links["tables"][0]["token"]
        record = _game_of(path, 1, 1, seed=5)
        with httpx.Client(base_url=served.base_url, timeout=60) as client:
            state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
            for text in hand_by_hand(requests_for(record, keep_deal=True)):
                state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                                    json={"rev": state["rev"], "text": text}).json()
            for side in state["sides"]:
                state = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                                    json={"rev": state["rev"], "side": side}).json()
        assert state["status"] == "confirmed"
        from tournament.event.changes import latest_public_seq

        # The standings follow the public pages' revision: the result (not the table's status after it).
        want = served.server.call(lambda: latest_public_seq(served.server.venue.store))
        assert want > int(seq)
        # The page catches up by itself: its main region shows the event as of the result.
        page.wait_for_function(f"() => document.getElementById('main').dataset.seq === '{want}'", timeout=WAIT_MS)
        assert page.evaluate("() => window.notReloaded === true"), "the page was loaded again"
        winners = [s for s, v in state["result"]["scores"].items() if s == state["result"]["winner"]]
        assert winners
        table = served.server.call(lambda: served.server.venue.store.tables(1)[0])
        store = open_event(path)
        names = {p.id: p.name for p in store.players()}
        store.close()
        won = [names[s.player] for s in table.seats if s.side == winners[0]]
        rows = page.locator("table.std tbody tr")
        first_two = {rows.nth(k).locator("td.name").inner_text() for k in range(2)}
        assert first_two == set(won)  # the winners lead the standings now
        if spanish:  # the region swapped in is the Spanish page's own
            fresh = browser.new_page(viewport=PHONE)
            fresh.goto(served.hall_url + "/standings?lang=es")
            assert page.inner_text("#main") == fresh.inner_text("#main")
            fresh.close()
        _shot(page, "standings-live-phone" + ("-es" if spanish else ""))


def test_screenshots_of_every_public_page_at_a_phone_a_laptop_and_the_projector(tmp_path, browser):
    path = _event(tmp_path)
    store = open_event(path)
    from tournament.event.results import enter_manual

    enter_manual(store, 1, {"NS": 150, "EW": 90})
    store.close()
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        for size, view in (("phone", PHONE), ("laptop", LAPTOP)):
            page = browser.new_page(viewport=view)
            for name, url in (("find", "/"), ("tables", "/tables"), ("standings", "/standings"), ("results", "/games"),
                              ("player", "/players/1"), ("crosstable", "/crosstable")):
                page.goto(served.base_url + url)
                page.wait_for_selector("#main", timeout=WAIT_MS)
                if name != "crosstable":  # the crosstable scrolls sideways in its own box
                    assert page.evaluate("() => document.documentElement.scrollWidth") <= view["width"], (size, url)
                _shot(page, f"{name}-{size}")
            if size == "phone":
                page.goto(served.base_url + "/")
                page.fill("#find", "ana")
                page.click("form.find button")
                page.wait_for_selector("#found", timeout=WAIT_MS)
                assert page.locator("#seating li").count() == 1
                _shot(page, "find-ana-phone")
            page.close()
        page = browser.new_page(viewport=PROJECTOR)
        page.goto(served.base_url + "/projector")
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        assert page.evaluate(SMALL_TEXT) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PROJECTOR["width"]
        assert "Round 1" in page.inner_text("#clock") and "left" in page.inner_text("#clock")
        _shot(page, "projector")


def test_the_projector_pages_itself_through_a_thousand_names(tmp_path, browser):
    path = tmp_path / "big.db"
    r = run("simulate", path, "--game", "competitive", "--players", "1000", "--rounds", "1", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert run("pair", path).exit_code == 0  # round 2 is being played: its seating is what the room needs
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        page = browser.new_page(viewport=PROJECTOR)
        page.clock.install()  # the page's own clock, moved on by the test: no waiting for its 8 seconds
        page.goto(served.base_url + "/projector")
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        names = page.evaluate("() => [...document.querySelectorAll('.screen ul.find li:not(.head) .who')]"
                              ".map(e => e.textContent)")
        assert len(names) == 1000 and len(set(names)) == 1000
        screens = page.locator(".screen").count()
        assert screens > 20
        seen = []
        for _ in range(3):  # it moves on by itself, with no input: three screens in turn
            now = int(page.get_attribute(".screen.on", "data-screen"))
            seen.append(now)
            assert page.evaluate(SMALL_TEXT) == [], now
            # Nothing of the screen on show is cut off at the bottom of the 1080 pixels.
            assert page.evaluate("() => Math.max(...[...document.querySelectorAll('.screen.on li, .screen.on tr')]"
                                 ".map(e => e.getBoundingClientRect().bottom))") <= PROJECTOR["height"]
            _shot(page, f"projector-1000-{len(seen)}")
            page.clock.run_for(8_000)
            page.wait_for_function(f"() => document.querySelector('.screen.on').dataset.screen !== '{now}'",
                                   timeout=WAIT_MS)
        assert seen == sorted(seen) and len(set(seen)) == 3
        # The standings come after the names, a screen at a time too.
        page.evaluate("() => document.querySelectorAll('.screen').forEach((s, k, all) => "
                      "s.classList.toggle('on', k === all.length - 1))")
        assert "Standings after round" in page.inner_text(".screen.on")
        assert page.evaluate(SMALL_TEXT) == []
        _shot(page, "projector-1000-standings")


def test_the_standings_print_without_the_pages_menu(tmp_path, browser):
    """Printed, a hall page is the event as it stands: its menu (a flex box, which outranked the
    print rule hiding nav), the language switch and the live note are left off the paper."""
    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        page = browser.new_page(viewport=LAPTOP)
        page.goto(served.hall_url + "/standings")
        page.wait_for_selector("table.std", timeout=WAIT_MS)
        assert page.locator("nav.pages").is_visible()
        page.emulate_media(media="print")
        for hidden in ("nav.pages", "nav.langs", "#live-note"):
            assert page.locator(hidden).count() == 0 or not page.locator(hidden).first.is_visible(), hidden
        assert page.locator("table.std").is_visible()
        page.close()


def test_a_long_name_without_spaces_wraps_on_the_players_pages_of_a_phone(tmp_path, browser):
    """A 200-character name without a space (its heading, the names linked in its table's and its
    games' lines) wraps on a 390 px phone, as on the other pages: the page never scrolls sideways."""
    long = "Maximiliano" + "X" * 189
    path = tmp_path / "long.db"
    store = create_event(path, make_settings("Long names", "competitive", "rotating", seed=4))
    add_players(store, [long, "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    pair_next_round(store)
    mates = next(t.players for t in store.tables(1) if 1 in t.players)
    store.close()
    assert len(mates) == 4 and 1 in mates
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9, hall=True) as served:
        page = browser.new_page(viewport=PHONE)
        for n in mates:
            page.goto(served.hall_url + f"/players/{n}")
            assert long in page.content()
            width = page.evaluate("document.documentElement.scrollWidth")
            _shot(page, f"long-name-player-{n}")
            assert width <= PHONE["width"], (n, width)
        page.close()
