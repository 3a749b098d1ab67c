"""What the table's phone says of a line it keeps where its outbox is in the page's memory alone
(IndexedDB never answering, or failing: test_phone_idb_hang_browser makes that state the same way),
in a real browser at a phone's 390x844 (Chromium with Playwright, never a downloaded browser).

The page already said once, under its banner, that this phone cannot keep lines if the page is
closed; but its message line still said of each line made offline "kept on this phone", and its
banner, while the server was slow, "1 line kept on this phone": untrue there, closing the page
loses them.  Now, for a write kept in memory, the message line says "kept in this page only ...
(closing the page loses it)" and the banner "kept in this page only" (English and Spanish); a
phone whose IndexedDB keeps the write still says "kept on this phone", and so does one whose
IndexedDB opened late, once what it held is written there.

Nothing waits on time: each wait is on the page's own marks (``data-outbox``, ``data-storage``,
``data-link``, ``data-rev``).  Slow, and skipped with the reason where Chromium or Playwright is
missing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_phone_idb_hang_browser import (STORAGE, _opened_without_storage,  # noqa: E402
                                                          _said_once)
from tests.tournament.test_phone_outbox_merge_browser import HOLD  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _type  # noqa: E402
from tests.tournament.test_venue_outbox_browser import (_bodies, _competitive_table, _outbox,  # noqa: E402
                                                       _type_offline)

#: The message line for a line kept offline, unchecked (the phone's engine not loaded), by where it is kept.
IN_PAGE = {
    "en": "kept in this page only, unchecked: it is checked when it is sent (closing the page loses it)",
    "es": ("guardado solo en esta página, sin comprobar: se comprueba cuando se envíe "
           "(si se cierra la página, se pierde)"),
}
ON_PHONE = {
    "en": "kept on this phone, unchecked: it is checked when it is sent",
    "es": "guardado en este teléfono, sin comprobar: se comprueba cuando se envíe",
}
#: The banner while the server does not answer the line kept in memory (sent again once back online).
SLOW_IN_PAGE = {
    "en": "waiting for the server: 1 line kept in this page only, sent when it answers",
    "es": "esperando al servidor: 1 línea guardada solo en esta página, se envía cuando responda",
}


def _message(page) -> str:
    return page.inner_text("#message")


@pytest.mark.parametrize("how, lang", [("never", "en"), ("error", "es"), ("never", "es"), ("error", "en")])
def test_a_line_kept_in_memory_is_said_kept_in_this_page_only(tmp_path, browser, how, lang):
    """IndexedDB never answering (or failing): two lines typed offline, each said kept in this page
    only, never on this phone; back online they are sent, once, in order."""
    path, steps, served = _competitive_table(tmp_path, seed=3)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened_without_storage(context, served.links["tables"][0]["url"] + f"?lang={lang}", STORAGE[how])
        _type(page, steps[0])
        context.set_offline(True)
        for step in steps[1:3]:
            _type_offline(page, step)
            assert _message(page) == IN_PAGE[lang]
            assert "phone" not in _message(page) and "teléfono" not in _message(page)
        _said_once(page, lang)
        keep(page, f"venue-phone-memory-kept-words-{how}-{lang}")
        context.set_offline(False)
        _outbox(page, 0)
        page.wait_for_function("() => Number(document.body.dataset.rev) === 3", timeout=WAIT_MS)
    finally:
        served.close()
    assert _bodies(path) == steps[:3]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_phone_that_keeps_its_lines_still_says_so(tmp_path, browser, lang):
    """IndexedDB answering: the line typed offline is kept on this phone, and said so (as before)."""
    path, steps, served = _competitive_table(tmp_path, seed=3)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened_without_storage(context, served.links["tables"][0]["url"] + f"?lang={lang}", None)
        _type(page, steps[0])
        context.set_offline(True)
        _type_offline(page, steps[1])
        assert _message(page) == ON_PHONE[lang]
        assert page.evaluate("() => document.body.dataset.storage") == "kept"
        context.set_offline(False)
        _outbox(page, 0)
    finally:
        served.close()
    assert _bodies(path) == steps[:2]


@pytest.mark.parametrize("how, lang", [("never", "en"), ("error", "es")])
def test_the_banner_says_a_line_kept_in_memory_waits_in_this_page_only(tmp_path, browser, how, lang):
    """A line kept in memory offline; back online, the server does not answer its sending (the test
    holds the request): the banner says the server is waited for and that the move is kept in this
    page only.  Let through, the line is sent, once."""
    path, steps, served = _competitive_table(tmp_path, seed=5)
    held = []
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened_without_storage(context, served.links["tables"][0]["url"] + f"?lang={lang}", STORAGE[how])
        _type(page, steps[0])
        context.set_offline(True)
        _type_offline(page, steps[1])

        def hold(route) -> None:  # the line's sending, unanswered until the test lets it through
            if route.request.method == "POST":
                held.append(route)
            else:
                route.continue_()

        context.route("**/api/v1/tables/**", hold)
        context.set_offline(False)
        shown = page.wait_for_function("""() => document.body.dataset.link === 'slow'
            && document.body.dataset.outbox === '1' && document.getElementById('outbox').innerText""",
                                       timeout=WAIT_MS).json_value()
        assert shown == SLOW_IN_PAGE[lang]
        keep(page, f"venue-phone-memory-slow-words-{how}-{lang}")
        context.unroute("**/api/v1/tables/**")
        for route in held:
            route.continue_()
        _outbox(page, 0)
        page.wait_for_function("() => Number(document.body.dataset.rev) === 2", timeout=WAIT_MS)
    finally:
        served.close()
    assert _bodies(path) == steps[:2]


def test_once_storage_opens_late_a_line_is_said_kept_on_this_phone_again(tmp_path, browser):
    """IndexedDB opening only after the page went on without it: a line typed offline meanwhile is
    said kept in this page only; once storage opens (what the page held written there), the next
    line typed offline is said kept on this phone."""
    path, steps, served = _competitive_table(tmp_path, seed=8)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened_without_storage(context, served.links["tables"][0]["url"], HOLD)
        _type(page, steps[0])
        context.set_offline(True)
        _type_offline(page, steps[1])
        assert _message(page) == IN_PAGE["en"]
        page.evaluate("() => window.releaseOutbox()")
        page.wait_for_function("() => document.body.dataset.storage === 'kept'", timeout=WAIT_MS)
        _type_offline(page, steps[2])
        assert _message(page) == ON_PHONE["en"]
        context.set_offline(False)
        _outbox(page, 0)
        page.wait_for_function("() => Number(document.body.dataset.rev) === 3", timeout=WAIT_MS)
    finally:
        served.close()
    assert _bodies(path) == steps[:3]
