"""On a phone, the link of a table whose round is over (its result in, a later round paired)
greys *Call the director* and says why, instead of offering a call the server then refuses in
one line; the current round's table offers it.  In Chromium at a phone's size (the state's side is
in test_phone_call_closed).  Slow, and skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import httpx
import pytest

from tournament import open_event
from tournament.event import results

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip

playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _event, _served  # noqa: E402


def _drawn(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => Number(document.body.dataset.drawn) > 0", timeout=WAIT_MS)


def test_an_old_rounds_table_greys_its_call_and_says_why(tmp_path, browser):
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        old = served.links["tables"][0]
        page = browser.new_page(viewport=PHONE)
        _drawn(page, old["url"])
        assert page.is_enabled("#call") and page.locator("#call-closed").count() == 0
        store = open_event(path)
        results.enter_manual(store, 1, {"NS": 200, "EW": 100})
        store.close()
        director = served.links["director"].rsplit("/", 1)[1]
        r = httpx.post(f"{served.base_url}/api/v1/director/pair", headers={"Authorization": f"Bearer {director}"},
                       json={}, timeout=WAIT_MS / 1000)
        assert r.status_code == 200, r.text
        _drawn(page, old["url"])
        page.wait_for_selector("#call-closed", timeout=WAIT_MS)
        assert page.is_disabled("#call")
        assert page.text_content("#call-closed") == "Round 1 is over: call the director from the table you play at now."
        keep(page, "phone-call-closed")
        now = served.refresh_links()["tables"][0]
        assert now["round"] == 2
        _drawn(page, now["url"])
        assert page.is_enabled("#call") and page.locator("#call-closed").count() == 0
    finally:
        served.close()
