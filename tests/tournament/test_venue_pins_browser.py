"""The director's page and a table's wrong PINs, in Chromium (issue 35): the row says how many and
how long the table's confirmations wait; a tap clears them, into the audit trail, and the table
confirms again.  The table's phone is played by an HTTP client through its API.  Slow; skipped
without Chromium or Playwright."""

from __future__ import annotations

import pytest

from domrec.session import requests_for

from tournament import open_event
from tournament.event import audit
from tournament.event import venue as vn

from tests.browser import playwright_or_skip

playwright_or_skip()
pytestmark = pytest.mark.slow
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tests.tournament.test_venue_director_browser import (  # noqa: E402
    DESKTOP, WAIT_MS, _event, _games, _message, _Phone, _row, _shot)
from tournament.web.background import BackgroundVenue  # noqa: E402


def test_the_director_sees_and_clears_a_tables_wrong_pins(tmp_path, browser):
    path = _event(tmp_path)
    games = _games(path)
    store = open_event(path)
    pins = vn.make_pins(store)
    table = next(t for t in store.tables(1) if t.number == 2)
    ns = [s.player for s in table.seats if s.side == "NS"]
    store.close()
    wrong = [p for p in (f"{k:04d}" for k in range(10_000)) if p not in set(pins.values())][:5]
    with BackgroundVenue(path, pins=True, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        link = next(t for t in served.links["tables"] if t["table"] == 2)
        phone = _Phone(client, link)
        phone.post("mode", mode="play")
        phone.record(requests_for(games[2]))
        rev = phone.state()["rev"]
        for pin in wrong:
            r = client.post(f"{phone.url}/confirm", headers=phone.headers, json={"rev": rev, "side": "NS", "pin": pin})
            assert r.status_code == 403
        r = client.post(f"{phone.url}/confirm", headers=phone.headers, json={"rev": rev, "side": "NS", "pin": pins[ns[0]]})
        assert r.status_code == 429 and 0 < int(r.headers["retry-after"]) <= 30
        page = browser.new_page(viewport=DESKTOP)
        try:
            page.goto(served.links["director"])
            line = f"{_row(page, 2)} .state-pins"
            page.wait_for_selector(line, timeout=WAIT_MS)
            text = page.inner_text(line)
            assert text.startswith("wrong PINs: 5 · confirmations wait") and "s more" in text, text
            assert page.locator(f"{_row(page, 1)} .state-pins").count() == 0  # only the table that had them
            _shot(page, tmp_path, "director-wrong-pins")
            page.locator(f"{line} button.clear-pins").click(timeout=WAIT_MS)
            said = _message(page, "good")
            assert said == "round 1 table 2: 5 wrong PINs cleared; its confirmations wait no more"
            page.wait_for_selector(line, state="detached", timeout=WAIT_MS)
        finally:
            page.close()
        r = client.post(f"{phone.url}/confirm", headers=phone.headers, json={"rev": rev, "side": "NS", "pin": pins[ns[0]]})
        assert r.status_code == 200 and "NS" in r.json()["confirmations"]
    store = open_event(path)
    try:
        cleared = [d for d in audit.desk_history(store) if d.action == "wrong_pins_cleared"]
        assert [(d.by, d.detail["table"], d.detail["wrong"]) for d in cleared] == [("the director's page", 2, 5)]
    finally:
        store.close()
