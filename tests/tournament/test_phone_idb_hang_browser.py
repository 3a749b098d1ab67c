"""The table's phone page in a real browser at a phone's 390x844 (Chromium with Playwright, never a
downloaded browser) where the browser's IndexedDB never opens, or fails to: the page's outbox goes on
in the page's memory, and nothing typed waits on a storage that does not answer.

* IndexedDB never answering (``indexedDB.open`` fires neither success nor error: a WebKit failure,
  a private window in some Safari versions) or failing (its open fires an error): online, a line
  typed is sent and a confirmation is delivered; offline, a line is kept in the page's memory and
  sent, once, when the connection is back.  The page says once, plainly, that this phone cannot
  keep lines if the page is closed (in English and Spanish).  Before, the confirmation's first try
  and the line kept offline waited for IndexedDB with no time limit: the confirmation was never
  sent, the line never kept; and a phone without storage was never told that closing the page
  loses what waits;
* IndexedDB opening late after all (after the page's 3 seconds): the lines the page held in memory
  are written there then, each once, the note goes, and a page opened again sends them, once.

IndexedDB is made to hang or fail by an init script that replaces ``indexedDB.open`` for the
outbox's database before the page loads (the late opening: its success held until the test lets
it through, as test_phone_outbox_merge_browser does); nothing waits on time.  Slow, and skipped with
the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from domrec.session import requests_for  # noqa: E402
from tests.tournament.helpers import hand_by_hand  # noqa: E402
from tests.tournament.test_phone_outbox_merge_browser import HOLD  # noqa: E402
from tests.tournament.test_venue_browser import (PHONE, WAIT_MS, _confirm_all, _event, _game, _log,  # noqa: E402
                                                 _recorded, _served, _type)
from tests.tournament.test_venue_outbox_browser import (KEPT, TAB, _bodies, _close_sending_nothing,  # noqa: E402
                                                       _competitive_table, _outbox, _type_offline)

#: ``indexedDB.open`` of the outbox's database never answering: neither success nor error, ever.
NEVER = """(() => {
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name, version) {
    if (name !== "domrec-outbox") return open.call(this, name, version);
    return { result: undefined, error: null, onsuccess: null, onerror: null, onblocked: null, onupgradeneeded: null };
  };
})()"""

#: ``indexedDB.open`` of the outbox's database failing: its error fired, as a storage error does.
ERROR = """(() => {
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name, version) {
    if (name !== "domrec-outbox") return open.call(this, name, version);
    const req = { result: undefined, error: new DOMException("the storage failed", "UnknownError"),
                  onsuccess: null, onerror: null, onblocked: null, onupgradeneeded: null };
    setTimeout(() => req.onerror && req.onerror.call(req, new Event("error")), 0);
    return req;
  };
})()"""

STORAGE = {"never": NEVER, "error": ERROR}

SAID = {
    "en": ("This phone cannot keep lines if this page is closed (the browser's storage is not answering, as in a "
           "private window): keep this page open until everything is sent."),
    "es": ("Este teléfono no puede guardar las líneas si se cierra esta página (el almacenamiento del navegador no "
           "responde, como en una ventana privada): deje esta página abierta hasta que todo se haya enviado."),
}


def _opened_without_storage(context, url: str, script: str | None, to_close: bool = False):
    """The table's page, its IndexedDB replaced by ``script`` before it loads (none: the browser's
    own), without the phone's engine (a line made offline is kept unchecked whatever the timing);
    once it has drawn the table and said what its outbox holds.  ``to_close``: given
    test_venue_outbox_browser's ``TAB``, for a test that closes it with lines kept
    (``_close_sending_nothing``)."""
    context.route("**/static/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    if script:
        page.add_init_script(script)
    if to_close:
        page.add_init_script(TAB)
    page.goto(url)
    page.wait_for_selector("#typed-text", timeout=WAIT_MS)
    page.wait_for_function("() => document.body.dataset.outbox !== undefined && document.body.dataset.rev",
                           timeout=WAIT_MS)
    return page


def _said_once(page, lang: str) -> None:
    """The page says, once, under its banner, that this phone cannot keep lines if it is closed."""
    page.wait_for_selector("#unkept:not([hidden])", timeout=WAIT_MS)
    assert page.locator("#unkept").count() == 1
    assert page.inner_text("#unkept") == SAID[lang]
    assert page.evaluate("() => document.body.dataset.storage") == "memory"


@pytest.mark.parametrize("how, lang", [("never", "en"), ("error", "es")])
def test_without_storage_online_a_line_typed_is_sent_and_a_confirmation_delivered(tmp_path, browser, how, lang):
    """The game's last line typed on the page, then *Confirm for NS*: both reach the server, once.
    Before, where IndexedDB never answered, the confirmation waited for it (its first try was kept
    there first) and was never sent."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    texts = hand_by_hand(requests_for(_game(path, seed=5)))
    served = _served(path)
    try:
        _recorded(served, texts[:-1], mode="play")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened_without_storage(context, served.links["tables"][0]["url"] + f"?lang={lang}", STORAGE[how])
        _type(page, texts[-1])
        _confirm_all(page, ["NS"])
        _said_once(page, lang)
        keep(page, f"venue-phone-storage-{how}-confirmed-{lang}")
    finally:
        served.close()
    rows = _log(path)
    assert rows.count(("dgn", texts[-1])) == 1
    assert [kind for kind, _ in rows].count("confirm") == 1 and rows[-1][0] == "confirm"


@pytest.mark.parametrize("how, lang", [("never", "es"), ("error", "en")])
def test_without_storage_offline_lines_are_kept_in_memory_and_sent_once_back_online(tmp_path, browser, how, lang):
    """A line typed online, two offline: kept in the page's memory (the banner counts them), the page
    saying it cannot keep them if closed; back online they are sent, once, in order.  Before, where
    IndexedDB never answered, the first line typed offline waited for it and was never kept."""
    path, steps, served = _competitive_table(tmp_path, seed=3)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened_without_storage(context, served.links["tables"][0]["url"] + f"?lang={lang}", STORAGE[how])
        _type(page, steps[0])
        context.set_offline(True)
        _type_offline(page, steps[1])
        _type_offline(page, steps[2])
        _said_once(page, lang)
        keep(page, f"venue-phone-storage-{how}-offline-{lang}")
        context.set_offline(False)
        _outbox(page, 0)
        page.wait_for_function("() => Number(document.body.dataset.rev) === 3", timeout=WAIT_MS)
        _said_once(page, lang)  # (still true: nothing is kept if the page is closed)
    finally:
        served.close()
    assert _bodies(path) == steps[:3]


def test_storage_opening_late_keeps_what_the_page_held_in_memory_once(tmp_path, browser):
    """IndexedDB opens only after the page went on without it; two lines typed offline meanwhile, in
    memory.  When it opens, they are written there, each once, and the note goes; the tab closed
    and the link opened again online, they are sent, once, in order, and leave the phone.  Before,
    the first line typed offline waited for IndexedDB and was not kept until it opened."""
    path, steps, served = _competitive_table(tmp_path, seed=8)
    url = served.links["tables"][0]["url"]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened_without_storage(context, url, HOLD, to_close=True)
        _type(page, steps[0])
        context.set_offline(True)
        _type_offline(page, steps[1])
        _type_offline(page, steps[2])
        _said_once(page, "en")
        page.evaluate("() => window.releaseOutbox()")
        page.wait_for_function("() => document.body.dataset.storage === 'kept'", timeout=WAIT_MS)
        assert page.locator("#unkept").is_hidden()
        assert page.evaluate(KEPT) == [[steps[1], False], [steps[2], False]]
        assert page.evaluate("() => document.body.dataset.outbox") == "2"
        _close_sending_nothing(page)
        context.set_offline(False)
        again = _opened_without_storage(context, url, None)
        _outbox(again, 0)
        again.wait_for_function("() => Number(document.body.dataset.rev) === 3", timeout=WAIT_MS)
        assert again.evaluate(KEPT) == []
        assert again.locator("#unkept").count() == 0
    finally:
        served.close()
    assert _bodies(path) == steps[:3]
