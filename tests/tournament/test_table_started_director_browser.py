"""The director's page of a table whose phone drew the lead and dealt nothing yet: *in play ·
hand 1, move 0* beside its last move, and *director called · in play · …* once it calls (it said
*not started* beside "last move …", and a result for it was refused as over a game in progress).
The API's side is in test_table_started_one_notion.  Slow, and skipped where Chromium or
Playwright is missing."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip

playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import WAIT_MS, _event, _served  # noqa: E402


def test_the_directors_page_says_in_play_once_the_lead_is_drawn(tmp_path, browser):
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        token = served.links["tables"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        url = f"{served.base_url}/api/v1/tables/1/1"
        rev = httpx.post(f"{url}/mode", headers=auth, json={"rev": 0, "mode": "play"}).json()["rev"]
        r = httpx.post(f"{url}/dgn", headers=auth, json={"rev": rev, "text": "hand 1 lead N"})
        assert r.status_code == 200 and r.json()["status"] == "playing", r.json()
        r = httpx.post(f"{url}/call", headers=auth, json={"rev": r.json()["rev"]})
        assert r.status_code == 200, r.json()
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(served.links["director"])
        row = '#tables tbody tr[data-table="1"][data-status="playing"][data-called="yes"]'
        page.wait_for_selector(row, timeout=WAIT_MS)
        text = page.inner_text(row)
        assert "director called · in play · hand 1, move 0" in text and "not started" not in text, text
        keep(page, "director-lead-drawn")
    finally:
        served.close()
