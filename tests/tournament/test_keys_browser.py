"""The director's page and the venue's keys in a real browser (issue 35, point 3): Playwright for
Python driving the system's Chromium against the venue served on 127.0.0.1 (BackgroundVenue).

The director opens a table, asks for a new key, says no, asks again and says yes: the page shows
the table's new link and its QR code, the table's old key answers 403 and the new one opens the
table, the phone still open with the old key stops and says why, and the audit trail names the
director's page.  Then the director's own key is changed
beside the server (as ``tournament keys --rotate-director`` does, on a connection of its own): the
open page says in words that its key was changed, and stops.  Slow; skipped with the reason where
Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event import keys as ks
from tournament.event.audit import desk_history

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip, refresh_now, with_clock

playwright_api = playwright_or_skip(server=False)
httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from tournament.web.background import BackgroundVenue  # noqa: E402

#: Long enough for any page to answer and to refresh itself (every 3 seconds) on a busy machine:
#: a wait that runs out is a failure, never a pass.
WAIT_MS = 60_000


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=5))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    pair_next_round(store)
    store.close()
    return path


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_new_key_from_the_directors_page_and_the_page_stopped_by_its_own(tmp_path, browser, lang):
    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        old = {t["table"]: t["token"] for t in served.links["tables"]}
        # (the pages' clock: their refresh every few seconds is run at once where the test waits for it)
        context = with_clock(browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                                 is_mobile=True))
        # The table's phone, open on the table's page with its key (soon the old one).
        phone = context.new_page()
        table_link = next(x["url"] for x in served.links["tables"] if x["table"] == 2)
        phone.goto(table_link + f"?lang={lang}")
        phone.wait_for_selector("body[data-rev]", timeout=WAIT_MS)
        page = context.new_page()
        page.goto(served.links["director"] + f"?lang={lang}")
        page.wait_for_selector('#tables tbody tr[data-table="2"] button', timeout=WAIT_MS)
        # What the page's script says as it loads is in the page's language too (its strings come
        # before it: the sound button was once drawn again in English).
        assert page.inner_text("#sound") == ("Sound of calls: on" if lang == "en" else "Sonido de las llamadas: sí")
        page.locator('#tables tbody tr[data-table="2"] button').tap(timeout=WAIT_MS)
        page.wait_for_selector("#detail:not([hidden]) #new-key", timeout=WAIT_MS)

        # Asked once more; "Cancel" changes nothing.
        page.locator("#new-key").tap()
        page.wait_for_selector("#key-confirm", state="visible", timeout=WAIT_MS)  # (a tap's click: waited for)
        asked = page.inner_text("#key-confirm")
        assert ("stop working at once" in asked) if lang == "en" else ("dejan de funcionar" in asked)
        page.locator("#new-key-no").tap()
        page.wait_for_selector("#key-confirm", state="hidden", timeout=WAIT_MS)
        assert client.get("/api/v1/tables/1/2", headers={"Authorization": f"Bearer {old[2]}"}).status_code == 200

        page.locator("#new-key").tap()
        page.locator("#new-key-yes").tap()
        page.wait_for_selector("#key-done:not([hidden])", timeout=WAIT_MS)
        link = page.inner_text("#key-link")
        new = link.rsplit("/t/", 1)[1]
        assert link == f"{served.base_url}/t/{new}" and new != old[2]
        said = page.inner_text("#key-said")
        assert ("a new key" in said) if lang == "en" else ("clave nueva" in said)
        # The QR code is a picture the browser drew (an SVG in a data: address).
        assert page.eval_on_selector("#key-qr", "img => img.src.startsWith('data:image/svg+xml') && "
                                                "img.complete && img.naturalWidth > 0")
        assert client.get("/api/v1/tables/1/2", headers={"Authorization": f"Bearer {old[2]}"}).status_code == 403
        assert client.get("/api/v1/tables/1/2", headers={"Authorization": f"Bearer {new}"}).status_code == 200
        assert client.get("/api/v1/tables/1/1", headers={"Authorization": f"Bearer {old[1]}"}).status_code == 200
        # The phone with the old key stops at its next refresh, saying why, and shows nothing more.
        refresh_now(context, 5000)
        phone.wait_for_selector("body[data-locked=yes]", timeout=WAIT_MS)
        told = phone.inner_text("#message")
        assert ("link has been changed" in told) if lang == "en" else ("enlace de esta mesa ha cambiado" in told), told
        assert phone.inner_text("#panel") == "" and phone.inner_text("#players") == ""
        assert phone.locator("#call").is_disabled()
        store = open_event(path)
        trail = [(d.by, d.round, d.detail) for d in desk_history(store) if d.action == ks.KEY_CHANGED]
        store.close()
        assert trail == [("the director's page", 1, {"key": "table", "table": 2})]

        # The director's key changed beside the server: the open page stops, saying why.
        store = open_event(path)
        ks.rotate_keys(store, "Ana (command line)", director=True)
        store.close()
        refresh_now(context, 3000)
        page.wait_for_selector("body[data-locked=yes]", timeout=WAIT_MS)
        message = page.inner_text("#message")
        assert ("key has been changed" in message) if lang == "en" else ("clave de esta página ha cambiado" in message), message
        assert "\n" not in message and "Traceback" not in message
        assert page.locator("#pair").is_disabled() and page.locator("#detail").is_hidden()
        assert page.locator("#tables tbody tr").count() == 0
        context.close()
