"""Many tabs of the hall in one browser (Playwright driving the system's Chromium).  A tester
opened six pages of the hall as tabs (a spectator following several players, the director's
laptop), then a seventh: it never loaded, and the open pages' updates stalled.  Each page held
a live stream of its own, and over HTTP/1.1 Chromium opens at most six connections to a host.
The tabs of a hall now share one stream: one tab holds it and passes its messages on to the
others; when that tab closes, another opens it.  Slow, and skipped with the reason where
Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)

from tournament import add_players, create_event, make_settings, pair_next_round  # noqa: E402
from tournament.event.changes import latest_public_seq  # noqa: E402
from tournament.event.results import enter_manual  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

from .test_public_browser import LAPTOP, WAIT_MS  # noqa: E402

#: More tabs than the six connections a browser opens to one host.
PAGES = ["/players/1", "/players/2", "/players/3", "/players/4", "/players/5", "/players/6", "/standings", "/games"]
#: The hall's pages that show a table's status follow their own stream (``?follow=tables``).
TABLES_PAGES = ["/tables", "/tables"]


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4, time_limit=45))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo", "Jo", "Kim", "Lu"])
    pair_next_round(store)
    store.close()
    return path


def _result(served, table_no: int, ns: int) -> int:
    """A table's result entered by the director (the library, on the venue's thread); the public
    pages' revision it makes."""
    server = served.server
    server.call(enter_manual, server.venue.store, table_no, {"NS": ns, "EW": 40})
    return server.call(lambda: latest_public_seq(server.venue.store))


def _all_show(pages, seq: int) -> None:
    """Every page shows the event as of the change ``seq`` (the tables' pages count every change,
    the table's status after the result too: a number as large or larger)."""
    for page in pages:
        page.wait_for_function(f"() => Number(document.getElementById('main').dataset.seq) >= {seq}", timeout=WAIT_MS)


def test_more_tabs_than_the_browsers_connections_all_load_and_follow_the_event(tmp_path, browser):
    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9, hall=True) as served:
        context = browser.new_context(viewport=LAPTOP)
        try:
            pages = []
            for url in PAGES + TABLES_PAGES:
                page = context.new_page()
                page.goto(served.hall_url + url, timeout=WAIT_MS)  # the 7th and later never loaded
                page.wait_for_selector("#main", timeout=WAIT_MS)
                pages.append(page)
            # One tab holds each stream, the others wait their turn: the lock the pages share.
            held = pages[0].evaluate("() => navigator.locks.query()")
            names = sorted(lock["name"] for lock in held["held"])
            assert names == ["domrec-live /live", "domrec-live /live?follow=tables"], held
            assert len(held["pending"]) == len(PAGES + TABLES_PAGES) - 2, held
            for page in pages:
                page.evaluate("() => { window.notReloaded = true; }")  # gone if the page were loaded again

            want = _result(served, 1, 150)
            _all_show(pages, want)
            assert "150" in pages[PAGES.index("/games")].inner_text("#main")
            players = [p.locator("h1").inner_text() for p in pages[:6]]
            assert all(players), players

            # The tab that holds the stream closes (the first opened took the lock): the next one opens it.
            pages[0].close()
            pages[len(PAGES)].close()  # and the first of the tables' pages
            rest = pages[1:len(PAGES)] + pages[len(PAGES) + 1:]
            want = _result(served, 2, 160)
            _all_show(rest, want)
            assert "160" in pages[PAGES.index("/games")].inner_text("#main")
            held = rest[0].evaluate("() => navigator.locks.query()")
            assert len(held["held"]) == 2 and len(held["pending"]) == len(rest) - 2, held
            # A page opened now loads, and hears the next result as the others do.
            late = context.new_page()
            late.goto(served.hall_url + "/standings", timeout=WAIT_MS)
            want = _result(served, 3, 170)
            _all_show(rest + [late], want)
            for page in rest:
                assert page.evaluate("() => window.notReloaded === true"), "the page was loaded again"
        finally:
            context.close()
