"""The PIN of a confirmation kept on the table's phone (tapped as the connection failed) leaves the
phone once the confirmation will never be sent: refused (a wrong PIN) or its link gone (a new key);
and the device's rate limit (a 429 without ``pin_wait``) is no refusal of it: it is sent again.

In Chromium at a phone's size, set up as tests/test_phone_confirm_kept_browser.py.  Slow, and
skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.test_phone_confirm_kept_browser import (CONFIRM, _confirm_rows, _event,  # noqa: E402
                                                   _kept_by_a_closed_page)
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _game, _recorded, _served  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _director_post, _opened, _outbox  # noqa: E402
from domrec.session import requests_for  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

#: Every entry of the phone's outbox, as kept in IndexedDB (table.js's store).
KEPT = """() => new Promise((done) => {
  const opened = indexedDB.open("domrec-outbox", 1);
  opened.onsuccess = () => {
    const all = opened.result.transaction("writes").objectStore("writes").getAll();
    all.onsuccess = () => { opened.result.close(); done(all.result); };
  };
})"""


def _pins(path):
    from tournament import open_event
    from tournament.event import venue as vn

    store = open_event(path)
    try:
        return vn.make_pins(store)
    finally:
        store.close()


def test_a_kept_confirmation_refused_for_its_pin_keeps_no_pin_on_the_phone(tmp_path, browser):
    path = _event(tmp_path, "competitive")
    pins = _pins(path)
    wrong = next(p for p in (f"{k:04d}" for k in range(10_000)) if p not in set(pins.values()))
    record = _game(path, seed=5)
    served = BackgroundVenue(path, pins=True, rate=1e9, burst=10 ** 9)
    url = served.links["tables"][0]["url"]
    try:
        _recorded(served, list(requests_for(record)), mode="play")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        _kept_by_a_closed_page(context, url, wrong)
        context.unroute(CONFIRM)
        page = _opened(context, url)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        kept = page.evaluate(KEPT)
        assert len(kept) == 1 and kept[0]["path"] == "/confirm" and kept[0]["refused"], kept
        assert "pin" not in kept[0]["body"], kept  # (it stayed, the wrong PIN in it, until Drop)
    finally:
        served.close()
    assert _confirm_rows(path) == []


def test_a_kept_confirmation_whose_link_is_gone_keeps_no_pin_on_the_phone(tmp_path, browser):
    path = _event(tmp_path, "competitive")
    pins = _pins(path)
    right = sorted(pins.values())[0]
    record = _game(path, seed=5)
    served = BackgroundVenue(path, pins=True, rate=1e9, burst=10 ** 9)
    url = served.links["tables"][0]["url"]
    try:
        _recorded(served, list(requests_for(record)), mode="play")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        _kept_by_a_closed_page(context, url, right)
        page = _opened(context, url)
        _outbox(page, 1)
        page.wait_for_selector("#confirm-kept", timeout=WAIT_MS)
        assert page.evaluate(KEPT)[0]["body"].get("pin") == right  # (kept while it may be sent)
        _director_post(served, "/api/v1/tables/1/1/key", {})
        context.unroute(CONFIRM)
        context.set_offline(True)
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.locked === 'yes'", timeout=WAIT_MS)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        # (read after the list is drawn: the put made before it is in an earlier transaction)
        kept = page.evaluate(KEPT)
        assert len(kept) == 1 and kept[0]["refused"] and "pin" not in kept[0]["body"], kept
    finally:
        served.close()
    assert _confirm_rows(path) == []


def test_a_kept_confirmation_met_by_the_devices_rate_limit_is_sent_again_not_refused(tmp_path, browser):
    """Its first try from the outbox is answered as the rate limit answers (429, Retry-After 1, no
    ``pin_wait``): it stays in the outbox and goes again; the server has it once, nothing listed."""
    path = _event(tmp_path, "competitive")
    record = _game(path, seed=5)
    served = _served(path)
    url = served.links["tables"][0]["url"]
    limited: list[str] = []

    def rate_limit_once(route):
        if not limited:
            limited.append(route.request.url)
            route.fulfill(status=429, headers={"Retry-After": "1", "content-type": "application/json"},
                          body=json.dumps({"error": "too many requests from this device: wait a moment and try again",
                                           "request_id": "0"}))
        else:
            route.continue_()

    try:
        _recorded(served, list(requests_for(record)), mode="play")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        side = _kept_by_a_closed_page(context, url)
        context.unroute(CONFIRM)
        context.route(CONFIRM, rate_limit_once)
        page = _opened(context, url)
        page.wait_for_selector(f'#panel button[data-side="{side}"].chosen', timeout=WAIT_MS)
        _outbox(page, 0)
        assert limited and page.locator("#refused-list li").count() == 0
    finally:
        served.close()
    assert [row[0] for row in _confirm_rows(path)] == ["confirm"]
