"""The table's page keeps the wait after wrong PINs true by itself (a tester's finding), in a real
browser at a phone's 390x844 (Chromium with Playwright, never a downloaded browser), in English and
Spanish:

* five wrong PINs typed and Confirm tapped, then Confirm again: the message line says *too many
  wrong PINs at this table: confirmations wait 30 seconds more*, and counts it down second by
  second (20, then 1 second), and once the wait is over says confirmations are taken again.
  Before, the line said "30 seconds more" however long it stood;
* a sixth wrong PIN starts a 60-second wait: the page's next refresh (every 5 s) finds it in the
  table's state (``pin_wait``) and says it counting; the director clears the wrong PINs on the
  director's side, and the next refresh says so (before, the line still said the seconds of the
  wait, until a new tap);
* after a key rotation, a line queued offline and never sent is listed under *Lines made offline
  that were not sent*, not under "… that the server refused".

Time is the test's on both sides: the venue's clock is a clock the test moves, and the page's is
Playwright's, paused and moved on by the same seconds (``fast_forward``: the page's countdown and
its 5-second refresh fire as they would after that wait).  Nothing waits on real time.
Screenshots under ``DOMREC_SCREENSHOTS``.  Slow, and skipped without Chromium or Playwright."""

from __future__ import annotations

import datetime
import json
import urllib.error
import urllib.request

import pytest

from domrec.session import requests_for

from tournament import open_event
from tournament.event import venue as vn

from tests.browser import playwright_or_skip, with_clock

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import (  # noqa: E402
    PHONE, WAIT_MS, _event, _game, _recorded, _shot, _steps, _wait_rev)
from tournament.web.background import BackgroundVenue  # noqa: E402

PLAYERS = ["Ana", "Bo", "Cy", "Di"]

#: The message line's words, as the page says them in each language.
WORDS = {
    "en": {
        "left": "too many wrong PINs at this table: confirmations wait {n} seconds more (the director can clear them)",
        "one": "too many wrong PINs at this table: confirmations wait 1 second more (the director can clear them)",
        "over": "the wait after wrong PINs is over: confirmations are taken again",
        "cleared": "the director cleared the wrong PINs: confirmations are taken again",
    },
    "es": {
        "left": ("demasiados PIN incorrectos en esta mesa: las confirmaciones esperan {n} segundos más (el árbitro "
                 "puede borrar los PIN incorrectos)"),
        "one": ("demasiados PIN incorrectos en esta mesa: las confirmaciones esperan 1 segundo más (el árbitro puede "
                "borrar los PIN incorrectos)"),
        "over": "terminó la espera tras los PIN incorrectos: se aceptan de nuevo las confirmaciones",
        "cleared": "el árbitro borró los PIN incorrectos: se aceptan de nuevo las confirmaciones",
    },
}


class Clock:
    """The venue's clock, moved by the test (from the real time it starts at)."""

    def __init__(self) -> None:
        self.now = datetime.datetime.now(datetime.timezone.utc)

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


def _post(served: BackgroundVenue, path: str, key: str, body: dict) -> tuple[int, dict]:
    asked = urllib.request.Request(served.base_url + path, data=json.dumps(body).encode(), method="POST",
                                   headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(asked, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _line(page, text: str, kind: str) -> None:
    """Wait until the message line says ``text`` in ``kind`` (its class); fail saying what it said."""
    try:
        page.wait_for_function("([text, kind]) => { const m = document.getElementById('message');"
                               " return m.textContent === text && m.className === kind; }",
                               arg=[text, kind], timeout=WAIT_MS)
    except Exception as e:
        said = page.evaluate("() => [document.getElementById('message').className,"
                             " document.getElementById('message').textContent]")
        raise AssertionError(f"the message line said {said!r}, not {[kind, text]!r}") from e


def _counts(page, seconds: int | None) -> None:
    """Wait until <body data-pin-wait> is ``seconds`` (None: gone)."""
    want = "undefined" if seconds is None else f"'{seconds}'"
    page.wait_for_function(f"() => document.body.dataset.pinWait === {want}", timeout=WAIT_MS)


def _tap_confirm(page, side: str, pin: str) -> str:
    """``pin`` typed and ``side``'s Confirm tapped, the message line emptied first: what it says
    then, once the confirmation is answered and done with (its button drawn again, not greyed: the
    page sends nothing more, so that a refresh the test brings on is not skipped for it)."""
    button = f'#panel button[data-side="{side}"]'
    page.wait_for_selector(f"{button}:not([disabled])", timeout=WAIT_MS)
    page.evaluate("() => { document.getElementById('message').textContent = ''; }")
    page.fill("#pin", pin)
    page.click(button)
    page.wait_for_function("() => document.getElementById('message').textContent !== ''", timeout=WAIT_MS)
    page.wait_for_selector(f"{button}:not([disabled])", timeout=WAIT_MS)
    return page.inner_text("#message")


def _both(page, clock: Clock, seconds: int) -> None:
    """The venue's time and the page's moved on by ``seconds`` together; from 5 seconds on, the
    page's refresh (every 5 s) fires once meanwhile, and is waited for (<body data-refreshed>), so
    that no answer of it arrives after the next step."""
    before = int(page.evaluate("() => Number(document.body.dataset.refreshed) || 0"))
    clock.advance(seconds)
    page.context.clock.fast_forward(seconds * 1000)
    if seconds >= 5:
        page.wait_for_function(f"() => Number(document.body.dataset.refreshed) > {before}", timeout=WAIT_MS)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_wait_after_wrong_pins_counts_down_ends_and_is_cleared_by_the_director(tmp_path, browser, lang):
    path = _event(tmp_path, "competitive", PLAYERS)
    store = open_event(path)
    try:
        pins = vn.make_pins(store)
        table = store.tables(1)[0]
        ns = [s.player for s in table.seats if s.side == "NS"]
    finally:
        store.close()
    wrong = [p for p in (f"{k:04d}" for k in range(10_000)) if p not in set(pins.values())][:6]
    words = WORDS[lang]
    served = BackgroundVenue(path, pins=True, rate=1e9, burst=10 ** 9)
    clock = Clock()
    served.server.venue.clock = clock  # (the venue's thread reads it at each request)
    try:
        _recorded(served, list(requests_for(_game(path, seed=5))), mode="play")
        context = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        page = context.new_page()
        page.goto(served.links["tables"][0]["url"] + f"?lang={lang}")
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        # From now on the page's time moves only as the test moves it (and the venue's with it).
        context.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
        for pin in wrong[:5]:
            _tap_confirm(page, "NS", pin)  # (refused: a wrong PIN; the fifth starts a 30-second wait)
        said = _tap_confirm(page, "NS", pins[ns[0]])  # the right PIN, refused unread: the table waits
        assert said == words["left"].format(n=30)
        assert page.get_attribute("#message", "class") == "bad"
        _shot(page, f"pin-wait-30-{lang}")
        _both(page, clock, 10)
        _line(page, words["left"].format(n=20), "bad")  # (before: still "30 seconds more")
        _counts(page, 20)
        _shot(page, f"pin-wait-20-{lang}")
        _both(page, clock, 19)
        _line(page, words["one"], "bad")
        _both(page, clock, 1)
        _line(page, words["over"], "good")
        _counts(page, None)
        _shot(page, f"pin-wait-over-{lang}")
        # A sixth wrong PIN: 60 seconds.  The page's next refresh finds the wait in the table's
        # state and says it, counting; the director clears it, and the refresh after says so.
        _tap_confirm(page, "NS", wrong[5])
        _both(page, clock, 5)
        _line(page, words["left"].format(n=55), "bad")
        _counts(page, 55)
        director = served.links["director"].rsplit("/", 1)[1]
        status, answer = _post(served, "/api/v1/tables/1/1/pins/clear", director, {})
        assert status == 200, answer
        _both(page, clock, 5)
        _line(page, words["cleared"], "good")
        _counts(page, None)
        _shot(page, f"pin-wait-cleared-{lang}")
        # Confirmations are taken again: the right PIN confirms.
        page.fill("#pin", pins[ns[0]])
        page.click('#panel button[data-side="NS"]')
        page.wait_for_selector('#panel button[data-side="NS"].chosen', timeout=WAIT_MS)
    finally:
        served.close()


def test_a_line_never_sent_after_a_new_key_is_not_listed_as_refused(tmp_path, browser):
    """A line typed offline waits in the outbox; the director gives the table a new key; back online
    the page locks and lists the line, never sent: under *Lines made offline that were not sent*,
    with a note to type it on the new link (no Retype here), not under "… that the server refused"."""
    path = _event(tmp_path, "competitive", PLAYERS)
    steps = _steps(_game(path, seed=8))
    served = BackgroundVenue(path, rate=1e9, burst=10 ** 9)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        context.route("**/static/pyodide/**", lambda route: route.abort())  # (no engine: kept unchecked)
        page = context.new_page()
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_function("() => document.body.dataset.outbox !== undefined && document.body.dataset.rev",
                               timeout=WAIT_MS)
        before = int(page.evaluate("() => document.body.dataset.rev"))
        page.fill("#typed-text", steps[0])
        page.click("#typed-form button[type=submit]")
        _wait_rev(page, before)
        context.set_offline(True)
        page.fill("#typed-text", steps[1])
        page.click("#typed-form button[type=submit]")
        page.wait_for_function("() => document.body.dataset.outbox === '1'", timeout=WAIT_MS)
        director = served.links["director"].rsplit("/", 1)[1]
        status, answer = _post(served, "/api/v1/tables/1/1/key", director, {})
        assert status == 200, answer
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.locked === 'yes'", timeout=WAIT_MS)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        assert page.locator("#refused-list li").count() == 1
        assert "not sent: this link no longer opens the table" in page.inner_text("#refused-list li")
        assert page.inner_text("#refused-title") == "Lines made offline that were not sent"
        assert page.inner_text("#refused-note") == ("The table's stored moves stand. Type these lines again on the "
                                                    "table's new link, then drop them here.")
        _shot(page, "pin-wait-new-key-not-sent")
    finally:
        served.close()
