"""A table's phone whose Wi-Fi comes back to a server slow to answer, in a real browser at a
phone's 390x844 (Chromium with Playwright, never a downloaded browser).

docs/venue.md's rule: the page says "offline" only when a request fails, the browser says it is
offline, or the server has answered nothing for 10 seconds; a request unanswered for a moment and
a half is "waiting for the server".  Once the browser said it was online again, the page still
held on to the "offline" of before until some answer came: a line kept offline, sent at once as
the Wi-Fi came back, to a server that did not answer it yet, left the banner at "offline" for the
tens of seconds the page's later tries took.  The page now starts its link again as new when the
browser says it is online.

Nothing waits on time: the page's clock is installed (tests.browser.with_clock) and moved on by the
page's moment and a half once the line's sending is held, and the test waits on ``data-link``.
Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip, with_clock

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_phone_idb_hang_browser import _opened_without_storage  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _type  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _bodies, _competitive_table, _outbox, _type_offline  # noqa: E402

#: The page's moment and a half (window.venue.SLOW_MS).
SLOW_MS = 1500

WAITING = {
    "en": "waiting for the server: 1 line kept on this phone, sent when it answers",
    "es": "esperando al servidor: 1 línea guardada en este teléfono, se envía cuando responda",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_back_online_a_write_unanswered_is_waiting_for_the_server_not_offline(tmp_path, browser, lang):
    path, steps, served = _competitive_table(tmp_path, seed=5)
    held = []
    try:
        context = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        page = _opened_without_storage(context, served.links["tables"][0]["url"] + f"?lang={lang}", None)
        _type(page, steps[0])
        context.set_offline(True)
        _type_offline(page, steps[1])
        assert page.evaluate("() => document.body.dataset.link") == "offline"

        def hold(route) -> None:  # the line's sending, unanswered until the test lets it through
            if route.request.method == "POST":
                held.append(route)
            else:
                route.continue_()

        context.route("**/api/v1/tables/**", hold)
        with page.expect_request(lambda r: r.method == "POST", timeout=WAIT_MS):
            context.set_offline(False)  # (the outbox is sent at once as the browser says it is online)
        page.clock.fast_forward(SLOW_MS)
        shown = page.wait_for_function("""() => document.body.dataset.link !== 'offline'
            && document.body.dataset.outbox === '1' && [document.body.dataset.link,
               document.getElementById('outbox').innerText]""", timeout=WAIT_MS).json_value()
        assert shown == ["slow", WAITING[lang]]
        keep(page, f"venue-phone-back-online-waiting-{lang}")
        context.unroute("**/api/v1/tables/**")
        for route in held:
            route.continue_()
        _outbox(page, 0)
        page.wait_for_function("() => Number(document.body.dataset.rev) === 2 && document.body.dataset.link === 'ok'",
                               timeout=WAIT_MS)
    finally:
        served.close()
    assert _bodies(path) == steps[:2]
