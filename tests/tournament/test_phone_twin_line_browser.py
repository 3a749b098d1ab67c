"""Two phones of one table recording the very same line, in a real browser at a phone's 390x844:
the second is taken as the first's twin (docs/venue.md, "When both phones recorded the same
line"), never listed as refused, and the game holds the line once.

* One phone offline makes two lines while the other, online, records the first of them alike:
  back online, the first is the other's twin and the second is taken after it: nothing listed,
  "all sent", the log holds each line once.  Before, the first was refused ("another phone or tab
  of this table wrote first") and the second not sent, both listed to retype.
* Two phones on the same view, online, tap the same line one after the other (the second's page
  not yet refreshed: Playwright's clock holds its timers): the second is told, in green, that the
  other phone recorded it first, in English and in Spanish.  Before, it was refused in red."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip, with_clock

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _shot, _type  # noqa: E402
from tests.tournament.test_venue_outbox_browser import (_bodies, _competitive_table, _opened, _outbox,  # noqa: E402
                                                        _type_offline)

SAID = {"en": "another phone of this table recorded this same line first: it is in the game once",
        "es": "otro teléfono de esta mesa registró antes esta misma línea: está en la partida una sola vez"}


def test_lines_made_offline_that_the_other_phone_recorded_alike_are_taken_once(tmp_path, browser):
    path, steps, served = _competitive_table(tmp_path, seed=6)
    url = served.links["tables"][0]["url"]
    try:
        one = browser.new_context(viewport=PHONE, service_workers="block")
        two = browser.new_context(viewport=PHONE, service_workers="block")
        first = _opened(one, url)
        _type(first, steps[0])
        second = _opened(two, url)
        one.set_offline(True)
        _type_offline(first, steps[1])
        _type_offline(first, steps[2])
        _type(second, steps[1])  # the other phone records the very same line meanwhile
        one.set_offline(False)
        _outbox(first, 0)
        first.wait_for_function("() => document.getElementById('outbox').textContent === 'all sent'", timeout=WAIT_MS)
        assert first.locator("#refused").is_hidden()
        assert "refused" not in first.inner_text("#message")
        _shot(first, "phone-twin-offline")
        one.close()
        two.close()
    finally:
        served.close()
    assert _bodies(path) == steps[:3]  # each line once


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_same_tap_on_two_phones_is_said_taken_not_refused(tmp_path, browser, lang):
    path, steps, served = _competitive_table(tmp_path, seed=6)
    url = served.links["tables"][0]["url"] + f"?lang={lang}"
    try:
        one = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        two = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        first = _opened(one, url)
        second = _opened(two, url)
        _type(first, steps[0])
        _type(second, steps[0])  # the second page's view was older: the very same line, its twin
        second.wait_for_function("(said) => document.getElementById('message').textContent === said",
                                 arg=SAID[lang], timeout=WAIT_MS)
        assert second.get_attribute("#message", "class") == "good"
        assert second.locator("#refused").is_hidden()
        _shot(second, f"phone-twin-online-{lang}")
        one.close()
        two.close()
    finally:
        served.close()
    assert _bodies(path) == steps[:1]
