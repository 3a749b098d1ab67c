"""The event-wide wait for the director's PIN, in a real browser at a phone's 390x844 (Chromium
with Playwright, never a downloaded browser), in English and Spanish (a tester's finding):

* the director's page says, over its tables, that the director's PIN waits at every table after
  ten wrong director's PINs at the tables together, with the seconds left counted down by the
  page's own clock (gone once over, the count staying), and its button clears them.  Before, the
  page said nothing: every table's row showed no wait;
* on a table's page, the director's box (*Director*) says the wait beside the PIN, counted down
  as the table's page counts its confirmations' wait, and once it is over, or cleared on the
  director's side, says the PIN is taken again.  Before, the line kept the seconds it was said
  with ("waits 30 seconds more") however long it stood.

Time is the test's on both sides: the venue's clock is a clock the test moves, and the page's is
Playwright's, paused from the start and moved on by the same seconds (``fast_forward``: the
page's countdown and its refresh, every 3 s on the director's page and 5 s on a table's, fire as
they would after that wait).  Nothing waits on real time.  Screenshots under ``DOMREC_SCREENSHOTS``.
Slow, and skipped without Chromium or Playwright."""

from __future__ import annotations

import time

import pytest

from tests.browser import keep, playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)
httpx = pytest.importorskip("httpx", reason="httpx (the other tables' phones here) is not installed")

from tests.tournament.test_director_pin_wait_event import _sixteen  # noqa: E402
from tests.tournament.test_phone_pin_wait_browser import Clock  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

#: What the pages say, in each language.
WORDS = {
    "en": {
        "desk": "wrong director's PINs at the tables: {wrong} · the director's PIN waits {n} s more at every table",
        "desk_over": "wrong director's PINs at the tables: {wrong}",
        "desk_cleared": "{wrong} wrong director's PINs at the tables cleared: the director's PIN waits at no table",
        "box": ("too many wrong director's PINs at the tables: the director's PIN waits {n} seconds more at every "
                "table (the director's page clears it)"),
        "box_one": ("too many wrong director's PINs at the tables: the director's PIN waits 1 second more at every "
                    "table (the director's page clears it)"),
        "box_over": "the wait after wrong PINs is over: the director's PIN is taken again",
        "box_cleared": "the wrong PINs were cleared: the director's PIN is taken again",
    },
    "es": {
        "desk": "PIN del árbitro incorrectos en las mesas: {wrong} · el PIN del árbitro espera {n} s más en todas las mesas",
        "desk_over": "PIN del árbitro incorrectos en las mesas: {wrong}",
        "desk_cleared": ("{wrong} PIN del árbitro incorrectos en las mesas borrados: el PIN del árbitro ya no espera "
                         "en ninguna mesa"),
        "box": ("demasiados PIN del árbitro incorrectos en las mesas: el PIN del árbitro espera {n} segundos más en "
                "todas las mesas (la página del árbitro lo borra)"),
        "box_one": ("demasiados PIN del árbitro incorrectos en las mesas: el PIN del árbitro espera 1 segundo más en "
                    "todas las mesas (la página del árbitro lo borra)"),
        "box_over": "terminó la espera tras los PIN incorrectos: se acepta de nuevo el PIN del árbitro",
        "box_cleared": "se borraron los PIN incorrectos: se acepta de nuevo el PIN del árbitro",
    },
}


class _Hall:
    """The event served, its venue's clock the test's; ten wrong director's PINs typed at tables
    1-3 (4, 4 and 2: each table under its own five), the event's 30-second wait begun."""

    def __init__(self, tmp_path) -> None:
        self.served = BackgroundVenue(_sixteen(tmp_path), rate=1e9, burst=10 ** 9)
        self.clock = Clock()
        self.served.server.venue.clock = self.clock  # (the venue's thread reads it at each request)
        self.client = httpx.Client(base_url=self.served.base_url, timeout=60)
        self.pin = self.served.links["director_pin"]
        self.tables = self.served.links["tables"]
        self.director = self.served.links["director"].rsplit("/", 1)[1]
        self.wrong = iter(f"{k:06d}" for k in range(1000) if f"{k:06d}" != self.pin)
        assert [self.lines(n, next(self.wrong)) for n in (1, 1, 1, 1, 2, 2, 2, 2, 3, 3)] == [403] * 10

    def lines(self, n: int, typed: str) -> int:
        return self.client.get(f"/api/v1/tables/1/{n}/lines", headers={
            "Authorization": f"Bearer {self.tables[n - 1]['token']}", "X-Director-PIN": typed}).status_code

    def close(self) -> None:
        self.client.close()
        self.served.close()


def _paused(browser):
    """A phone's browser context whose clock stands still from before its first page: the page's
    time moves only as the test moves it (no engine: its files refused)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
    context.route("**/static/pyodide/**", lambda route: route.abort())
    context.clock.install()
    context.clock.pause_at(int(time.time() * 1000) + 1000)
    return context


def _both(page, clock: Clock, seconds: int, refresh_every: int) -> None:
    """The venue's time and the page's moved on by ``seconds`` together; from ``refresh_every``
    seconds on, the page's refresh fires meanwhile and is waited for (<body data-refreshed>)."""
    before = int(page.evaluate("() => Number(document.body.dataset.refreshed) || 0"))
    clock.advance(seconds)
    page.context.clock.fast_forward(seconds * 1000)
    if seconds >= refresh_every:
        page.wait_for_function(f"() => Number(document.body.dataset.refreshed) > {before}", timeout=WAIT_MS)


def _says(page, selector: str, text: str, kind: str | None = None) -> None:
    """Wait until ``selector`` says ``text`` (and has the class ``kind``); fail saying what it said."""
    try:
        page.wait_for_function("([sel, text, kind]) => { const m = document.querySelector(sel);"
                               " return m && m.textContent === text && (kind === null || m.className === kind); }",
                               arg=[selector, text, kind], timeout=WAIT_MS)
    except Exception as e:
        said = page.evaluate("(sel) => { const m = document.querySelector(sel); return m && [m.className, m.textContent]; }",
                             selector)
        raise AssertionError(f"{selector} said {said!r}, not {[kind, text]!r}") from e


def _counts(page, seconds: int | None) -> None:
    """Wait until <body data-director-pin-wait> is ``seconds`` (None: gone)."""
    want = "undefined" if seconds is None else f"'{seconds}'"
    page.wait_for_function(f"() => document.body.dataset.directorPinWait === {want}", timeout=WAIT_MS)


def _fits(page) -> None:
    """Nothing of the page wider than the phone."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_page_counts_the_event_wide_wait_down_and_clears_it(tmp_path, browser, lang):
    words = WORDS[lang]
    hall = _Hall(tmp_path)
    try:
        context = _paused(browser)
        page = context.new_page()
        page.goto(hall.served.links["director"] + f"?lang={lang}")
        page.wait_for_selector('#tables tr[data-table="4"]', timeout=WAIT_MS)
        _says(page, "#director-pins-words", words["desk"].format(wrong=10, n=30))
        _counts(page, 30)
        assert page.get_attribute("#director-pins", "class") == "state-pins state-called"
        assert page.locator("#clear-director-pins").is_visible()
        _fits(page)
        keep(page, f"director-pin-wait-30-{lang}")
        _both(page, hall.clock, 10, 3)
        _says(page, "#director-pins-words", words["desk"].format(wrong=10, n=20))  # counted down
        _counts(page, 20)
        _both(page, hall.clock, 1, 3)  # (between two refreshes: the page's own count)
        _says(page, "#director-pins-words", words["desk"].format(wrong=10, n=19))
        _both(page, hall.clock, 19, 3)
        _says(page, "#director-pins-words", words["desk_over"].format(wrong=10))  # over: the wait gone
        _counts(page, None)
        assert page.get_attribute("#director-pins", "class") == "state-pins"
        keep(page, f"director-pin-wait-over-{lang}")
        # An 11th wrong director's PIN, at the table that had none: 60 seconds, heard at the next refresh.
        assert hall.lines(4, next(hall.wrong)) == 403
        _both(page, hall.clock, 3, 3)
        _says(page, "#director-pins-words", words["desk"].format(wrong=11, n=57))
        _counts(page, 57)
        # The director clears them: said, and the box gone; the PIN opens every table again.
        page.click("#clear-director-pins")
        _says(page, "#message", words["desk_cleared"].format(wrong=11))
        page.wait_for_selector("#director-pins", state="hidden", timeout=WAIT_MS)
        _counts(page, None)
        keep(page, f"director-pin-wait-cleared-{lang}")
        assert hall.lines(4, hall.pin) == 200
    finally:
        hall.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_box_at_a_table_counts_the_wait_down(tmp_path, browser, lang):
    words = WORDS[lang]
    hall = _Hall(tmp_path)
    try:
        context = _paused(browser)
        page = context.new_page()
        page.goto(hall.tables[3]["url"] + f"?lang={lang}")
        page.wait_for_selector("#director", timeout=WAIT_MS)
        page.wait_for_function("() => Number(document.body.dataset.refreshed) > 0", timeout=WAIT_MS)
        # The box opened: the wait is said before a PIN is typed (the table's state says it).
        page.click("#director")
        page.wait_for_selector("#td:not([hidden]) #td-pin", timeout=WAIT_MS)
        _says(page, "#td-message", words["box"].format(n=30), "bad")
        _counts(page, 30)
        # The right PIN, refused unread while it waits (429): the same line.
        page.fill("#td-pin", hall.pin)
        page.click("#td-open")
        page.wait_for_function("() => !document.getElementById('td-open').disabled"
                               " && document.getElementById('td-pin').value === ''", timeout=WAIT_MS)
        _says(page, "#td-message", words["box"].format(n=30), "bad")
        _fits(page)
        keep(page, f"td-pin-wait-30-{lang}")
        _both(page, hall.clock, 10, 5)
        _says(page, "#td-message", words["box"].format(n=20), "bad")  # (before: still 30)
        _counts(page, 20)
        keep(page, f"td-pin-wait-20-{lang}")
        _both(page, hall.clock, 19, 5)
        _says(page, "#td-message", words["box_one"], "bad")
        _both(page, hall.clock, 1, 5)
        _says(page, "#td-message", words["box_over"], "good")
        _counts(page, None)
        keep(page, f"td-pin-wait-over-{lang}")
        # A wrong PIN typed here, the event's 11th: refused; the next refresh finds the 60-second
        # wait and says it counting.  The director clears it on the director's side: said here.
        page.fill("#td-pin", next(hall.wrong))
        page.click("#td-open")
        page.wait_for_function("() => document.getElementById('td-pin').value === ''", timeout=WAIT_MS)
        _both(page, hall.clock, 5, 5)
        _says(page, "#td-message", words["box"].format(n=55), "bad")
        _counts(page, 55)
        answer = hall.client.post("/api/v1/director/pins/clear", json={},
                                  headers={"Authorization": f"Bearer {hall.director}"})
        assert answer.status_code == 200, answer.text
        _both(page, hall.clock, 5, 5)
        _says(page, "#td-message", words["box_cleared"], "good")
        _counts(page, None)
        keep(page, f"td-pin-wait-cleared-{lang}")
        # The PIN opens the table again.
        page.fill("#td-pin", hall.pin)
        page.click("#td-open")
        page.wait_for_selector("#td-desk:not([hidden])", timeout=WAIT_MS)
    finally:
        hall.close()
