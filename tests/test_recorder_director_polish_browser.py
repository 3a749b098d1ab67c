"""The director's page in a real browser (Playwright driving the system's Chromium against the
venue served on 127.0.0.1): a table whose result the director entered over the game its phone was
recording says "confirmed · result entered by the director" (in Spanish too), not the phone's
progress ("confirmed · 2 hands"), which a table confirmed at its phone keeps."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=False)
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402
from tests.tournament.test_venue_desk_browser import _event  # noqa: E402
from tests.tournament.test_venue_director_browser import DESKTOP, WAIT_MS, _Phone, _row, _shot  # noqa: E402


def test_the_directors_page_says_whose_result_a_table_has(tmp_path, browser):
    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        links = {t["table"]: t for t in served.links["tables"]}
        phone = _Phone(client, links[1])
        phone.post("mode", mode="sheet")
        for n, end in enumerate(["NS 30 EW 0", "NS 0 EW 44"], 1):
            phone.post("dgn", text=f"hand {n}\nend {end}")
        director = {"Authorization": f"Bearer {served.links['director'].rsplit('/', 1)[1]}"}
        r = client.post("/api/v1/tables/1/1/result", headers=director,
                        json={"scores": {"NS": 100, "EW": 44}, "reason": "the game stopped at the break"})
        assert r.status_code == 200, r.text
        context = browser.new_context(viewport=DESKTOP)
        try:
            for lang, words in (("en", "confirmed · result entered by the director"),
                                ("es", "confirmada · resultado introducido por el árbitro")):
                desk = context.new_page()
                desk.goto(served.links["director"] + f"?lang={lang}")
                row = f'{_row(desk, 1)}[data-status="confirmed"]'
                desk.wait_for_selector(row, timeout=WAIT_MS)
                said = desk.inner_text(f"{row} td:nth-child(3)").splitlines()[0]
                assert said == words, said
                _shot(desk, tmp_path, f"entered-{lang}")
                desk.close()
        finally:
            context.close()
