"""The table's phone page in a real browser at a phone's 390x844 (Chromium with Playwright, never
a downloaded browser): its outbox read late from IndexedDB, and the director's writes at the table
met by the device's rate limit.

* The phone's stored outbox (IndexedDB) answering only after the page went on without it (the page
  waits 3 seconds for the read, then draws the table and goes on: IndexedDB slow to open on a
  phone) is merged into the page's list of writes, by each write's id, in the order they were
  made, none twice: the lines kept offline by a tab closed before are sent, once, in order.  Before,
  the read's answer replaced the list when it came in time and was dropped when it came late: the
  lines were never sent by this page, and, had the page locked itself meanwhile (its link changed),
  never listed either;
* the director's correction and call cleared at the table (the Director button, the director's
  PIN) met by the device's rate limit (a 429 without ``pin_wait``) wait and are sent again by
  themselves with their same id, said as waiting (in English and Spanish), never refused with the
  rate limit's "try again"; a 429 with ``pin_wait`` (the wait after wrong director's PINs) is still
  refused, once.

IndexedDB's open is held by an init script that wraps ``indexedDB.open`` for the outbox's database
(its success reaches the page only when the test says); the rate limit is forced by Playwright's
``page.route``, answering 429 until the test lets the write through: nothing waits on time.  The
tab closed with lines kept is closed only once it can send nothing more (test_venue_outbox_browser's
``TAB``): Playwright's offline and routes end with a tab's DevTools session, and a tab being closed
was seen to send its first line kept offline past them (its "online" event, fired as it closed).
Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip, refresh_now, with_clock

playwright_api = playwright_or_skip(server=True)
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _type  # noqa: E402
from tests.tournament.test_venue_desk_browser import _event as _desk_event  # noqa: E402
from tests.tournament.test_venue_director_browser import _Phone  # noqa: E402
from tests.tournament.test_venue_outbox_browser import (KEPT, _bodies, _close_sending_nothing,  # noqa: E402
                                                       _competitive_table, _director_post, _NeverReaches,
                                                       _opened, _type_offline)
from tournament import open_event  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

#: ``indexedDB.open`` of the outbox's database, its success held from the page until the test calls
#: ``window.releaseOutbox()`` (the database opens; the page only hears of it then).
HOLD = """(() => {
  const open = IDBFactory.prototype.open;
  const held = [];
  let holding = true;
  window.releaseOutbox = () => { holding = false; for (const go of held.splice(0)) go(); };
  IDBFactory.prototype.open = function (name, version) {
    const real = open.call(this, name, version);
    if (name !== "domrec-outbox") return real;
    const shown = { onsuccess: null, onerror: null, onblocked: null, onupgradeneeded: null };
    Object.defineProperty(shown, "result", { get: () => real.result });
    Object.defineProperty(shown, "error", { get: () => real.error });
    const pass = (what) => (event) => shown[what] && shown[what].call(shown, event);
    real.onupgradeneeded = pass("onupgradeneeded");
    real.onerror = pass("onerror");
    real.onblocked = pass("onblocked");
    real.onsuccess = (event) => {
      const go = () => pass("onsuccess")(event);
      if (holding) held.push(go); else go();
    };
    return shown;
  };
})()"""

LIMIT = {
    "en": ("The server asks this phone to wait a moment (many requests from it in a short time): this is sent "
           "again shortly by itself. Keep this page open; there is no need to tap again."),
    "es": ("El servidor pide a este teléfono que espere un momento (muchas peticiones suyas en poco tiempo): esto "
           "se envía de nuevo en breve, por sí solo. Deje esta página abierta; no hace falta volver a tocar."),
}


def _log(path, kind: str) -> list[str]:
    """The bodies of the event's venue log of one kind (a correction, a call cleared), in order."""
    store = open_event(path)
    try:
        return [r[0] for r in store.conn.execute("SELECT body FROM venue_log WHERE kind = ? ORDER BY rev", (kind,))]
    finally:
        store.close()


class _Cut(_NeverReaches):
    """:class:`_NeverReaches` that also notes the page of each write it failed."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.pages: list = []

    def __call__(self, route) -> None:
        request = route.request
        if request.method == "POST" and self.text in (request.post_data or ""):
            self.pages.append(request.frame.page)
        super().__call__(route)


def _kept_by_a_closed_tab(context, url: str, steps: list[str]) -> list[_Cut]:
    """The table's first line typed online, the next two offline (kept in the phone's outbox), then
    the tab closed with them waiting, once it can send nothing more (:func:`_close_sending_nothing`:
    its requests still on their way answered or failed first, the routes still there).  The two
    lines' writes keep failing as offline ones until the test takes the routes returned away
    (:func:`_uncut`), and each route notes the page of every write it failed, so that the page
    opened again is shown to have sent none of them; and what the server has then is what that
    page sent."""
    page = _opened(context, url, to_close=True)
    _type(page, steps[0])
    cut = [_Cut(steps[1]), _Cut(steps[2])]
    for each in cut:
        context.route("**/api/v1/tables/**", each)
    context.set_offline(True)
    _type_offline(page, steps[1])
    _type_offline(page, steps[2])
    _close_sending_nothing(page)
    context.set_offline(False)
    return cut


def _uncut(context, cut: list[_Cut], page) -> None:
    """The routes of :func:`_kept_by_a_closed_tab` taken away, ``page`` (opened again) having sent
    none of the two lines meanwhile."""
    for each in cut:
        context.unroute("**/api/v1/tables/**", each)
    assert all(p is not page for each in cut for p in each.pages)


def _opened_while_the_outbox_is_held(context, url: str):
    """The table's page opened again, its outbox's IndexedDB held: the page goes on without it (its
    3 seconds for the read run out), the table drawn as the server holds it, nothing waiting."""
    page = context.new_page()
    page.add_init_script(HOLD)
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.outbox !== undefined && document.body.dataset.rev",
                           timeout=WAIT_MS)
    assert page.evaluate("() => document.body.dataset.outbox") == "0"
    return page


def test_an_outbox_read_answering_late_is_merged_and_its_lines_sent_once_in_order(tmp_path, browser):
    """Two lines kept offline by a tab closed before; the table's page opened again while IndexedDB
    is slow to open: the page draws the table without them.  When the read answers, the two lines
    join the page's list and are sent, in order, once: the server has the three lines, in the order
    typed, and the banner says all was sent.  Before, the late read was dropped: the lines stayed
    on the phone, never sent by this page."""
    path, steps, served = _competitive_table(tmp_path, seed=8)
    url = served.links["tables"][0]["url"]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        context.route("**/static/pyodide/**", lambda route: route.abort())
        cut = _kept_by_a_closed_tab(context, url, steps)
        page = _opened_while_the_outbox_is_held(context, url)
        assert _bodies(path) == steps[:1]
        _uncut(context, cut, page)
        page.evaluate("() => window.releaseOutbox()")
        page.wait_for_function("() => document.body.dataset.outbox === '0'"
                               " && document.getElementById('outbox').textContent === 'all sent'", timeout=WAIT_MS)
        assert page.evaluate(KEPT) == []
        assert page.locator("#refused-list li").count() == 0
    finally:
        served.close()
    assert _bodies(path) == steps[:3]  # each line once, in the order typed


def test_an_outbox_read_answering_after_the_page_locked_itself_lists_its_lines_not_sent(tmp_path, browser):
    """The same page, its outbox's read held, finds the table's link changed (the director gave the
    table a new key) and locks itself.  When the read answers, the two lines kept offline are listed
    on it as not sent, to type again on the new link, and stay on the phone; nothing is sent.
    Before, the late read was dropped: the lines were not listed, and the page said nothing of them."""
    path, steps, served = _competitive_table(tmp_path, seed=8)
    url = served.links["tables"][0]["url"]
    try:
        context = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        context.route("**/static/pyodide/**", lambda route: route.abort())
        cut = _kept_by_a_closed_tab(context, url, steps)
        page = _opened_while_the_outbox_is_held(context, url)
        _uncut(context, cut, page)
        _director_post(served, "/api/v1/tables/1/1/key", {})
        refresh_now(context, 5000)  # (the page's next refresh: refused for the key)
        page.wait_for_function("() => document.body.dataset.locked === 'yes'", timeout=WAIT_MS)
        page.evaluate("() => window.releaseOutbox()")
        page.wait_for_function("() => document.querySelectorAll('#refused:not([hidden]) #refused-list li')"
                               ".length === 2", timeout=WAIT_MS)
        items = page.locator("#refused-list li")
        for k, step in enumerate(steps[1:3]):
            text = items.nth(k).inner_text()
            assert text.startswith(step) and "not sent: this link no longer opens the table" in text, text
        assert page.inner_text("#outbox") == "2 lines made on this phone were not sent: they are listed below"
        assert page.evaluate(KEPT) == [[steps[1], True], [steps[2], True]]
    finally:
        served.close()
    assert _bodies(path) == steps[:1]


class _RateLimit:
    """A route answering a write of the director's at the table as the device's rate limit does (429,
    Retry-After 1, no ``pin_wait``), or, ``pin_wait``, as the wait after wrong director's PINs, until
    let through; every body it saw, and how many it let through."""

    def __init__(self, pin_wait: bool = False) -> None:
        self.through = False
        self.pin_wait = pin_wait
        self.bodies: list[str] = []
        self.passed = 0

    def __call__(self, route) -> None:
        self.bodies.append(route.request.post_data or "")
        if self.through:
            self.passed += 1
            route.continue_()
            return
        body = ({"error": "too many wrong director's PINs at the tables: the director's PIN waits 30 seconds more",
                 "pin_wait": 30, "request_id": "0"} if self.pin_wait else
                {"error": "too many requests from this device: wait a moment and try again", "request_id": "0"})
        route.fulfill(status=429, headers={"Retry-After": "30" if self.pin_wait else "1",
                                           "content-type": "application/json"}, body=json.dumps(body))


def _director_at_the_table(browser, served, lang: str):
    """The table's page with the director's view open (the Director button, the director's PIN)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
    context.route("**/static/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(served.links["tables"][0]["url"] + f"?lang={lang}")
    page.wait_for_selector("#add-sheet-hand", timeout=WAIT_MS)
    page.locator("#director").tap(timeout=WAIT_MS)
    page.fill("#td-pin", served.links["director_pin"])
    page.locator("#td-open").tap(timeout=WAIT_MS)
    page.wait_for_selector('#td-hands .hand[data-hand="3"] button.line', timeout=WAIT_MS)
    return page


def _sheet(client, served, call: bool = False) -> None:
    """Table 1 typing its hands' scores, hand 2 typed twice (a hand to take back); ``call``: the
    director called."""
    phone = _Phone(client, {t["table"]: t for t in served.links["tables"]}[1])
    phone.post("mode", mode="sheet")
    for n, end in enumerate(["NS 30 EW 0", "NS 0 EW 44", "NS 0 EW 44"], 1):
        phone.post("dgn", text=f"hand {n}\nend {end}")
    if call:
        phone.post("call")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_directors_correction_met_by_the_rate_limit_waits_and_is_made_once(tmp_path, browser, lang):
    """The director takes back hand 3 at the table; the server answers as the device's rate limit.
    The form says the correction waits and is sent again by itself (not the limit's "try again" in
    red); let through, it is sent again with its same id and made once."""
    path = _desk_event(tmp_path)
    limit = _RateLimit()
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        _sheet(client, served)
        page = _director_at_the_table(browser, served, lang)
        rev = int(page.evaluate("() => document.body.dataset.rev"))
        page.locator('#td-hands .hand[data-hand="3"] button[data-fix-hand="3"]').tap(timeout=WAIT_MS)
        page.fill("#td-fix-reason", "hand 2 was typed twice")
        page.route("**/api/v1/tables/1/1/correct*", limit)
        page.locator("#td-fix-remove").tap(timeout=WAIT_MS)
        # (the rate limit's own words waited for: at 1.5 s without an answer the line says the plain
        # "waiting for the server" first, and a wait for any words could read those)
        page.wait_for_function("""(want) => document.body.dataset.unanswered === '/correct'
            && document.getElementById('td-fix-message').innerText === want""", arg=LIMIT[lang], timeout=WAIT_MS)
        assert page.inner_text("#td-fix-message") == LIMIT[lang]
        assert page.get_attribute("#td-fix-message", "class") != "bad"
        page.locator("#td-fix-message").scroll_into_view_if_needed()
        keep(page, f"venue-director-correction-rate-limited-{lang}")
        limit.through = True
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {rev}"
                               " && document.body.dataset.unanswered === undefined", timeout=WAIT_MS)
        page.wait_for_selector("#td-fix", state="hidden", timeout=WAIT_MS)
        assert page.get_attribute("#td-message", "class") == "good"
    assert limit.passed == 1
    assert len(limit.bodies) >= 2 and len(set(limit.bodies)) == 1, limit.bodies  # (the same write: its same id)
    assert len(_log(path, "correct")) == 1


def test_a_call_cleared_at_the_table_waits_out_the_rate_limit_but_not_the_wait_after_wrong_pins(tmp_path, browser):
    """The director clears the table's call at the table.  The wait after wrong director's PINs (429
    with pin_wait) is its refusal, said once, nothing sent again; the device's rate limit (429
    without) is no refusal: said as waiting, sent again by itself, the call cleared once."""
    path = _desk_event(tmp_path)
    waits, limit = _RateLimit(pin_wait=True), _RateLimit()
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        _sheet(client, served, call=True)
        page = _director_at_the_table(browser, served, "en")
        page.route("**/api/v1/tables/1/1/clear*", waits)
        page.locator("#td-clear:not([hidden])").tap(timeout=WAIT_MS)
        page.wait_for_selector("#td-message.bad", timeout=WAIT_MS)
        assert page.inner_text("#td-message").startswith("too many wrong director's PINs at the tables")
        assert page.evaluate("() => document.body.dataset.unanswered") is None
        assert len(waits.bodies) == 1
        page.unroute("**/api/v1/tables/1/1/clear*", waits)
        page.route("**/api/v1/tables/1/1/clear*", limit)
        page.locator("#td-clear:not([hidden])").tap(timeout=WAIT_MS)
        page.wait_for_function("""(want) => document.body.dataset.unanswered === '/clear'
            && document.getElementById('td-message').innerText === want""", arg=LIMIT["en"], timeout=WAIT_MS)
        assert page.inner_text("#td-message") == LIMIT["en"]
        assert page.get_attribute("#td-message", "class") != "bad"
        keep(page, "venue-director-clear-rate-limited-en")
        limit.through = True
        page.wait_for_selector("#td-message.good", timeout=WAIT_MS)
        assert page.inner_text("#td-message") == "the call is cleared"
        page.wait_for_selector("#panel .state-called", state="detached", timeout=WAIT_MS)
    assert limit.passed == 1 and len(set(limit.bodies)) == 1, limit.bodies
    assert len(_log(path, "clear")) == 1
