"""A confirmation tapped on the table's phone (sent live, not from the outbox) met by the device's
rate limit, and one met by the table's new key, in a real browser at a phone's 390x844 (Chromium
with Playwright, never a downloaded browser):

* the rate limit's 429 (no ``pin_wait`` in its body) is no refusal of it: the page says it waits
  ("the server asks this phone to wait a moment … sent again shortly by itself"), in English and
  Spanish, and sends it again by itself after the Retry-After, with its same id; the server has it
  once.  Before, the rate limit's "try again" stood on the line in red and the player had to tap
  again, while a confirmation kept in the outbox was sent again by itself;
* a 429 with ``pin_wait`` (the table waits after wrong PINs) is still its refusal: said once, not
  sent again;
* the table given a new key while it waits (out the rate limit, or for a server that does not
  answer): its next try is refused for the key, which the page cannot know before (nothing it holds
  changes with the key, and it asks nothing else while a confirmation is on its way); nothing is
  applied, the message line says one thing, that the link no longer opens the table (the server's
  words about the key stood there first, until a read replaced them), and the confirmation is
  listed once, to confirm again on the new link.

One game is enough: a confirmation's request is the same in every game (the page's resultPanel
sends ``/confirm`` with its side, or its seat in a game without sides, through the same deliver
and request); the Spanish run is a game confirmed by seat (Castle Rock), the English one by side.
The rate limit is forced by Playwright's ``page.route``, answering 429 until the test lets the
confirmation through: nothing waits on time.  Slow, and skipped with the reason where Chromium or
Playwright is missing."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.test_phone_confirm_kept_browser import CONFIRM, WORDS, _confirm_rows, _first_side  # noqa: E402
from tests.test_phone_polish_browser import played  # noqa: E402,F401  (the finished game, written once, copied)
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _director_post, _opened  # noqa: E402

LIMIT = {
    "en": ("The server asks this phone to wait a moment (many requests from it in a short time): this "
           "confirmation is sent again shortly by itself. Keep this page open; there is no need to tap again."),
    "es": ("El servidor pide a este teléfono que espere un momento (muchas peticiones suyas en poco tiempo): "
           "esta confirmación se envía de nuevo en breve, sola. Deje esta página abierta; no hace falta volver "
           "a tocar."),
}
GONE_LINE = ("This table's link has been changed: it no longer opens the table. Ask the director for its new "
             "link (a new QR code).")

#: Every line the message line showed from now on, with its class (a MutationObserver's list).
WATCH = """() => {
  const line = document.getElementById("message");
  window.saidLines = [];
  new MutationObserver(() => window.saidLines.push([line.className, line.textContent]))
    .observe(line, { childList: true, subtree: true, characterData: true, attributes: true });
}"""


def _said(page) -> list[str]:
    """The lines said in red since WATCH, each once, in order."""
    out: list[str] = []
    for kind, text in page.evaluate("() => window.saidLines"):
        if kind == "bad" and text and text not in out:
            out.append(text)
    return out


class _RateLimit:
    """A route answering the confirmation as the device's rate limit does (429, Retry-After 1, no
    ``pin_wait``; or with ``pin_wait``, as the table's wait after wrong PINs; or, ``lost``, finding
    no server) until let through; every body it saw, and how many it let through."""

    def __init__(self, pin_wait: bool = False, lost: bool = False) -> None:
        self.through = False
        self.bodies: list[str] = []
        self.passed = 0
        self.pin_wait, self.lost = pin_wait, lost

    def __call__(self, route) -> None:
        self.bodies.append(route.request.post_data or "")
        if self.through:
            self.passed += 1
            route.continue_()
            return
        if self.lost:
            route.abort("internetdisconnected")
            return
        body = ({"error": "too many wrong PINs at this table: confirmations wait 30 seconds more (the director can "
                          "clear them)", "pin_wait": 30, "request_id": "0"} if self.pin_wait else
                {"error": "too many requests from this device: wait a moment and try again", "request_id": "0"})
        route.fulfill(status=429, headers={"Retry-After": "30" if self.pin_wait else "1",
                                           "content-type": "application/json"}, body=json.dumps(body))


@pytest.mark.parametrize("game, lang", [("competitive", "en"), ("castle-rock", "es")])
def test_a_confirmation_met_by_the_rate_limit_waits_and_is_sent_again_by_itself(tmp_path, browser, played, game, lang):
    """The side taps Confirm; the server answers as the device's rate limit (429, no pin_wait).
    The page says the confirmation waits and is sent again by itself (its buttons greyed), never
    the rate limit's "try again" in red; let through, it is sent again with its same id, and the
    side is confirmed: the server has one confirmation, nothing is listed."""
    path, _ = played(tmp_path, game)  # (the game over, written a move a request)
    served = _served(path)
    limit = _RateLimit()
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"] + f"?lang={lang}")
        side = _first_side(page)
        page.evaluate(WATCH)
        context.route(CONFIRM, limit)
        page.click(f'#panel button[data-side="{side}"]')
        # (the rate limit's own words: at 1.5 s without an answer the line says the plain "waiting
        # for the server" first, and a wait for the line alone could read that)
        page.wait_for_function("(want) => (document.getElementById('confirm-pending') || {}).innerText === want",
                               arg=LIMIT[lang], timeout=WAIT_MS)
        assert page.inner_text("#confirm-pending") == LIMIT[lang]
        assert page.evaluate("() => document.body.dataset.unanswered") == "/confirm"
        assert page.locator(f'#panel button[data-side="{side}"]:not([disabled])').count() == 0
        assert page.get_attribute("#message", "class") != "bad"
        _shot(page, f"phone-confirm-rate-limited-{lang}")
        limit.through = True
        page.wait_for_selector(f'#panel button[data-side="{side}"].chosen', timeout=WAIT_MS)
        page.wait_for_function("() => document.body.dataset.unanswered === undefined", timeout=WAIT_MS)
        assert page.locator("#confirm-pending").count() == 0
        assert page.locator("#refused-list li").count() == 0
        assert _said(page) == []
    finally:
        served.close()
    assert len(limit.bodies) >= 2 and len(set(limit.bodies)) == 1, limit.bodies  # (the same write: its same id)
    assert [row[0] for row in _confirm_rows(path)] == ["confirm"]


def test_a_confirmations_429_with_pin_wait_is_still_its_refusal(tmp_path, browser, played):
    """The table waits after wrong PINs (429 with pin_wait): the confirmation is refused, in the
    server's words, once; it is not sent again by itself, and its side may confirm again later."""
    path, _ = played(tmp_path, "competitive")  # (the game over, written a move a request)
    served = _served(path)
    waits = _RateLimit(pin_wait=True)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        side = _first_side(page)
        context.route(CONFIRM, waits)
        page.click(f'#panel button[data-side="{side}"]')
        page.wait_for_selector("#message.bad", timeout=WAIT_MS)
        assert page.inner_text("#message").startswith("too many wrong PINs at this table")
        page.wait_for_selector(f'#panel button[data-side="{side}"]:not([disabled])', timeout=WAIT_MS)
        assert page.locator("#confirm-pending").count() == 0
        assert len(waits.bodies) == 1
    finally:
        served.close()
    assert _confirm_rows(path) == []


@pytest.mark.parametrize("waiting", ["rate limit", "no server"])
def test_a_confirmation_waiting_when_the_table_gets_a_new_key_is_said_once_and_listed_once(tmp_path, browser, played, waiting):
    """NS taps Confirm; it waits (the rate limit's 429, or tries that find no server).  The
    director gives the table a new key; the confirmation's next try reaches the server with the old
    key, which refuses it and applies nothing.  The message line says only that the link no longer
    opens the table (never the server's refusal of the key first), the confirmation is listed once,
    not sent, to confirm again on the new link, and nothing more is sent."""
    path, _ = played(tmp_path, "competitive")  # (the game over, written a move a request)
    served = _served(path)
    limit = _RateLimit(lost=waiting == "no server")
    words = WORDS["en"]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        page.evaluate(WATCH)
        context.route(CONFIRM, limit)
        page.click('#panel button[data-side="NS"]')
        page.wait_for_function("() => document.body.dataset.unanswered === '/confirm'", timeout=WAIT_MS)
        _director_post(served, "/api/v1/tables/1/1/key", {})
        limit.through = True
        page.wait_for_function("() => document.body.dataset.locked === 'yes'", timeout=WAIT_MS)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        assert page.locator("#refused-list li").count() == 1
        item = page.inner_text("#refused-list li")
        assert item.startswith(words["item"].format(side="NS")) and words["not sent"] in item, item
        assert page.inner_text("#outbox") == words["gone"].format(side="NS")
        assert page.inner_text("#message") == GONE_LINE
        assert _said(page) == [GONE_LINE]
    finally:
        served.close()
    assert limit.passed == 1  # (the one try with the old key, refused for it; none after)
    assert len(set(limit.bodies)) == 1, limit.bodies  # (every try the same write: its same id)
    assert _confirm_rows(path) == []
