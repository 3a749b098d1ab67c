"""The director's page writes a table's times in the page's language, not the browser's: a
Spanish page (``?lang=es``) opened by a browser set to American English reads ``17:39:40``, the
24-hour clock Spanish writes, never ``5:39:40 PM``; the same browser's English page keeps its
``PM``.  At a phone's 390x844 and a laptop's 1280x800, in a real browser (Playwright driving the
system's Chromium against the venue served on 127.0.0.1).

Screenshots go to the test's folder (and ``DOMREC_SCREENSHOTS`` when set), for a person to look
at.  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=False)
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402
from tests.tournament.test_venue_director_browser import DESKTOP, PHONE, WAIT_MS, _Phone, _row, _shot  # noqa: E402
from tests.tournament.test_venue_desk_browser import _event  # noqa: E402

#: A time of day as Spanish writes it (hours 0 to 23, no AM or PM), and as American English does.
SPANISH_CLOCK = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d:[0-5]\d")
ENGLISH_CLOCK = re.compile(r"(?:1[0-2]|[1-9]):[0-5]\d:[0-5]\d\s[AP]M")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_directors_page_shows_times_in_its_own_language(tmp_path, browser, size) -> None:
    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        link = next(t for t in served.links["tables"] if t["table"] == 1)
        _Phone(client, link).post("mode", mode="play")  # a write: the table has a time of its last move
        # A browser set to American English, in a time zone with afternoons: its own clock says "PM".
        context = browser.new_context(viewport=size, locale="en-US", timezone_id="America/New_York",
                                      has_touch=size is PHONE, is_mobile=size is PHONE)
        try:
            desk = context.new_page()
            cell = f"{_row(desk, 1)} td:nth-child(4)"
            for lang, clock, last in (("es", SPANISH_CLOCK, "última jugada "), ("en", ENGLISH_CLOCK, "last move ")):
                desk.goto(served.links["director"] + f"?lang={lang}")
                desk.wait_for_function(f"() => (document.querySelector('{cell}') || {{}}).textContent",
                                       timeout=WAIT_MS)
                assert desk.evaluate("document.documentElement.lang") == lang
                shown = desk.inner_text(cell).replace("\u202f", " ").strip()
                assert clock.fullmatch(shown), (lang, shown)
                said = desk.inner_text(f"{_row(desk, 1)} td:nth-child(3) .when").replace("\u202f", " ")
                assert said.startswith(last) and clock.fullmatch(said[len(last):].strip()), (lang, said)
                _shot(desk, tmp_path, f"clock-{lang}-{size['width']}")
        finally:
            context.close()
