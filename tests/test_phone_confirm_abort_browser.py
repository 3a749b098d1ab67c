"""A kept confirmation whose refusal is given up mid-read, in a real browser (Chromium with
Playwright) at a phone's size.

The phone's outbox sends a confirmation kept through an offline reload once the connection is
back.  When the browser says "online" while the server's answer to it is still being read (the
page gives up the tries on their way then, to send at once), that answer was taken for a refusal
without a reason: the list under the board said "refused (403)" and never why (the clean-clone CI
caught it once, by timing).  An answer not read whole is no answer: the confirmation is sent again,
and its refusal listed with the server's reason.  The moment is made, never waited for: the
page's reading of that answer is the one that says "online" (an init script), so the test does
not depend on timing.  The same holds for a confirmation tapped online (its refusal read as the
browser says "online": it said "the server's answer could not be read").  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import pytest

from tournament import add_players, create_event, make_settings, pair_next_round

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _game, _recorded  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _opened  # noqa: E402
from tests.test_phone_polish_browser import _confirm_rows  # noqa: E402
from domrec.session import requests_for  # noqa: E402

#: The first refusal of a confirmation read by the page: the browser says "online" as it is read
#: (the page then gives up the tries on their way: this one, mid-read).
ONLINE_MID_READ = """(() => {
  const json = Response.prototype.json;
  let done = false;
  Response.prototype.json = function () {
    if (!done && this.status === 403 && this.url.includes('/confirm')) {
      done = true;
      document.documentElement.dataset.onlineMidRead = '1';
      window.dispatchEvent(new Event('online'));
    }
    return json.call(this);
  };
})();"""


def _with_pins(tmp_path):
    """A four-player Competitive event served with PINs, its one game recorded to the end: the
    event file, the PINs, NS's players, a PIN that is nobody's, the record and the server."""
    from tournament.event import venue as vn
    from tournament.web.background import BackgroundVenue

    path = tmp_path / "competitive.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    pins = vn.make_pins(store)
    ns = [s.player for s in store.tables(1)[0].seats if s.side == "NS"]
    store.close()
    wrong = next(p for p in (f"{k:04d}" for k in range(10_000)) if p not in set(pins.values()))
    record = _game(path, seed=5)
    return path, pins, ns, wrong, record, BackgroundVenue(path, pins=True, rate=1e9, burst=10 ** 9)


def test_a_refusal_given_up_mid_read_is_asked_again_and_listed_with_its_reason(tmp_path, browser):
    path, pins, ns, wrong, record, served = _with_pins(tmp_path)
    url = served.links["tables"][0]["url"]
    try:
        _recorded(served, list(requests_for(record)), mode="play")
        context = browser.new_context(viewport=PHONE)
        context.add_init_script(ONLINE_MID_READ)
        page = _opened(context, url)
        page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=WAIT_MS)
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        context.route("**/api/v1/tables/1/1/confirm*", lambda route: route.abort("internetdisconnected"))
        page.fill("#pin", wrong)
        page.click('#panel button[data-side="NS"]')
        page.wait_for_function("() => document.body.dataset.unanswered === '/confirm'", timeout=WAIT_MS)
        context.set_offline(True)
        context.unroute("**/api/v1/tables/1/1/confirm*")
        page.reload()
        page.wait_for_selector("#confirm-kept", timeout=WAIT_MS)
        context.set_offline(False)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        assert page.evaluate("() => document.documentElement.dataset.onlineMidRead") == "1"  # (the moment was made)
        item = page.inner_text("#refused-list li")
        assert item.startswith("confirmation for NS") and "that PIN is not the PIN of a player of NS" in item, item
        assert page.evaluate("() => document.body.dataset.locked") is None
        page.click("#refused-list li button.drop")
        page.fill("#pin", pins[ns[0]])
        page.click('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        page.wait_for_selector('#panel button[data-side="NS"].chosen', timeout=WAIT_MS)
    finally:
        served.close()
    assert _confirm_rows(path) == [("confirm", "NS")]


def test_a_live_confirmation_refused_mid_read_is_asked_again_and_says_why(tmp_path, browser):
    path, pins, ns, wrong, record, served = _with_pins(tmp_path)
    url = served.links["tables"][0]["url"]
    try:
        _recorded(served, list(requests_for(record)), mode="play")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        context.add_init_script(ONLINE_MID_READ)
        page = _opened(context, url)
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        page.fill("#pin", wrong)
        page.click('#panel button[data-side="NS"]')
        page.wait_for_function("() => document.documentElement.dataset.onlineMidRead === '1'"
                               " && document.getElementById('message').textContent.includes('PIN')", timeout=WAIT_MS)
        said = page.inner_text("#message")
        assert "that PIN is not the PIN of a player of NS" in said, said
        assert page.evaluate("() => document.body.dataset.locked") is None
    finally:
        served.close()
    assert _confirm_rows(path) == []
