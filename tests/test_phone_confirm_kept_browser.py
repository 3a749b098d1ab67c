"""A confirmation kept on the table's phone (tapped as the connection failed: kept with the
phone's queued lines, sent once when the server answers), in a real browser at a phone's 390x844
(Chromium with Playwright, never a downloaded browser):

* refused alone once sent (a wrong PIN), it is said as a confirmation ("the confirmation for NS
  was refused: …", listed under "A confirmation the server did not take", to drop), not as "1 line
  made offline", in English and Spanish, in each of the five games;
* the table given a new key while it is kept: it is not sent with the old key; the page still
  open lists it to confirm again on the new link, and the old link opened again (the refusal page)
  lists it beside the lines, for its side;
* its request hanging as the browser says it is online again: given up and sent again at once,
  its same id, as the outbox's moves are; the server has it once (also when the hanging try had
  reached it).

Set up as tests/test_phone_polish_browser.py: the phone's engine refused, waits on the page's own
marks (``data-outbox``, ``data-locked``, ``data-kept``, the lists), the page's clock held still
where only the ``online`` event may send.  A confirmation is kept by a page whose confirmation
found no server (its requests aborted) and was closed: the same phone's next page finds it in the
outbox.  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import open_event

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402
from tests.test_phone_polish_browser import GAMES, _event, played  # noqa: E402,F401  (one event of each game, set up alike)
from tests.tournament.test_venue_outbox_browser import (_close_sending_nothing, _director_post, _opened,  # noqa: E402
                                                       _outbox)
from tournament.web.background import BackgroundVenue  # noqa: E402

CONFIRM = "**/api/v1/tables/1/1/confirm*"

WORDS = {
    "en": {
        "refused": "the confirmation for {side} was refused: that PIN is not the PIN of a player of {side}",
        "title": "A confirmation the server did not take",
        "note": ("The game's result is not confirmed by it: confirm again (with a right PIN, where the "
                 "event uses PINs), or drop it."),
        "item": "confirmation for {side}",
        "gone": "the confirmation for {side} tapped on this phone was not sent: it is listed below",
        "gone note": "The game's result is not confirmed by it: confirm again on the table's new link, then drop it here.",
        "not sent": "not sent: this link no longer opens the table; confirm again on the table's new link",
    },
    "es": {
        "refused": "se rechazó la confirmación de {side}: ese PIN no es el de ningún jugador de {side}",
        "title": "Una confirmación que el servidor no aceptó",
        "note": ("El resultado de la partida no queda confirmado con ella: confirme de nuevo "
                 "(con un PIN correcto, donde el torneo usa PIN), o descártela."),
        "item": "confirmación de {side}",
        "gone": "la confirmación de {side} tocada en este teléfono no se envió: está en la lista de abajo",
        "gone note": ("El resultado de la partida no queda confirmado con ella: confirme de nuevo en el enlace nuevo "
                      "de la mesa y luego descártela aquí."),
        "not sent": "no enviada: este enlace ya no abre la mesa; confirme de nuevo en el enlace nuevo de la mesa",
    },
}


def _confirm_rows(path: Path) -> list[tuple[str, str]]:
    store = open_event(path)
    try:
        return [(r[0], r[1]) for r in store.conn.execute(
            "SELECT kind, body FROM venue_log WHERE kind IN ('confirm', 'board') ORDER BY rev")]
    finally:
        store.close()


def _first_side(page) -> str:
    page.wait_for_selector("#panel button[data-side]:not([disabled])", timeout=WAIT_MS)
    return page.get_attribute("#panel button[data-side]", "data-side")


def _kept_by_a_closed_page(context, url: str, pin: str | None = None) -> str:
    """The game is over; the first side taps its Confirm (with ``pin``) as the connection fails
    (every try aborted), and the page is closed (the phone's browser killed): the confirmation is
    kept in the phone's outbox only.  Its side.  The page is closed once it can send nothing more
    (test_venue_outbox_browser's ``_close_sending_nothing``): the route failing its tries ends with
    the tab's DevTools session, and a try made as it closes would reach the server."""
    page = _opened(context, url, to_close=True)
    side = _first_side(page)
    context.route(CONFIRM, lambda route: route.abort("internetdisconnected"))
    if pin is not None:
        page.fill("#pin", pin)
    page.click(f'#panel button[data-side="{side}"]')
    page.wait_for_function("() => document.body.dataset.unanswered === '/confirm'", timeout=WAIT_MS)
    _close_sending_nothing(page)
    return side


@pytest.mark.parametrize("game, lang", [(g, "en") for g in GAMES] + [("competitive", "es"), ("castle-rock", "es")])
def test_a_kept_confirmation_refused_alone_is_said_as_a_confirmation(tmp_path, browser, played, game, lang):
    """With PINs: the kept confirmation carried a wrong PIN.  Sent from the outbox once the
    server answers, it is refused (403): the message line says "the confirmation for NS was
    refused: that PIN is not …", the list's heading and note speak of a confirmation to confirm
    again or drop (they said "1 line made offline was refused" and "Retype a line").  Dropped, the
    side confirms again with the right PIN: the server has one confirmation."""
    path, pins = played(tmp_path, game, pins=True)  # (PINs made, then the game written a move a request)
    store = open_event(path)
    try:
        seats = store.tables(1)[0].seats
    finally:
        store.close()
    wrong = next(p for p in (f"{k:04d}" for k in range(10_000)) if p not in set(pins.values()))
    served = BackgroundVenue(path, pins=True, rate=1e9, burst=10 ** 9)
    url = served.links["tables"][0]["url"] + f"?lang={lang}"
    words = WORDS[lang]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        side = _kept_by_a_closed_page(context, url, wrong)
        context.unroute(CONFIRM)
        page = _opened(context, url)  # (the outbox found, and sent: the server refuses it)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        _outbox(page, 0)
        assert page.inner_text("#message") == words["refused"].format(side=side)
        assert page.inner_text("#refused-title") == words["title"]
        assert page.inner_text("#refused-note") == words["note"]
        item = page.inner_text("#refused-list li")
        assert item.startswith(words["item"].format(side=side)), item
        assert page.locator("#refused-list li button.retype").count() == 0
        assert page.locator("#refused-list li button.drop").count() == 1
        assert page.evaluate("() => document.body.dataset.locked") is None
        _shot(page, f"phone-confirm-kept-refused-{game}-{lang}")
        page.click("#refused-list li button.drop")
        page.wait_for_selector("#refused", state="hidden", timeout=WAIT_MS)
        right = next(pins[s.player] for s in seats if side in (s.side, s.seat))
        page.fill("#pin", right)
        page.click(f'#panel button[data-side="{side}"]:not([disabled])', timeout=WAIT_MS)
        page.wait_for_selector(f'#panel button[data-side="{side}"].chosen', timeout=WAIT_MS)
    finally:
        served.close()
    assert [row[0] for row in _confirm_rows(path)] == ["confirm"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_confirmation_kept_when_the_table_gets_a_new_key_is_listed_not_sent(tmp_path, browser, played, lang):
    """A confirmation kept on the phone (its tries found no server) when the director gives the
    table a new key.  The page still open learns that its link opens the table no more: the
    confirmation is listed, "not sent: … confirm again on the table's new link", under a heading
    that names a confirmation, and the banner says the confirmation for NS was not sent (it said
    "1 line made on this phone was not sent", the item "type it again", or the server's refusal of
    the key as if the confirmation had been judged).  The old link opened again (the refusal page)
    lists it too, for its side (it listed typed lines only).  The server never has it."""
    path, _ = played(tmp_path, "competitive")  # (the game over, written a move a request)
    served = _served(path)
    url = served.links["tables"][0]["url"]
    words = WORDS[lang]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        side = _kept_by_a_closed_page(context, url)
        page = _opened(context, url + f"?lang={lang}")  # (the outbox's tries still find no server)
        _outbox(page, 1)
        page.wait_for_selector("#confirm-kept", timeout=WAIT_MS)
        _director_post(served, "/api/v1/tables/1/1/key", {})
        posted: list[str] = []  # (the confirmation sent with the old key: never)
        page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and "/confirm" in r.url else None)
        context.unroute(CONFIRM)
        context.set_offline(True)
        context.set_offline(False)  # (the browser online again: the outbox tried at once)
        page.wait_for_function("() => document.body.dataset.locked === 'yes'", timeout=WAIT_MS)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        item = page.inner_text("#refused-list li")
        assert item.startswith(words["item"].format(side=side)) and words["not sent"] in item, item
        assert page.locator("#refused-list li button.retype").count() == 0
        assert page.inner_text("#outbox") == words["gone"].format(side=side)
        assert page.inner_text("#refused-title") == words["title"]
        assert page.inner_text("#refused-note") == words["gone note"]
        assert posted == []
        _shot(page, f"phone-confirm-kept-new-key-{lang}")
        page.close()
        again = context.new_page()
        answer = again.goto(url + f"?lang={lang}")
        assert answer.status == 403
        again.wait_for_function("() => document.body.dataset.kept === '1'", timeout=WAIT_MS)
        assert again.inner_text("#kept-said") == words["gone"].format(side=side)
        assert [again.locator("#kept-list li").nth(k).inner_text() for k in range(again.locator("#kept-list li").count())] \
            == [words["item"].format(side=side)]
        assert again.inner_text("#kept-note") == words["not sent"]
        _shot(again, f"phone-confirm-kept-old-link-{lang}")
    finally:
        served.close()
    assert _confirm_rows(path) == []


def test_the_old_link_lists_kept_lines_and_a_kept_confirmation_together(tmp_path, browser, played):
    """A phone that kept both a line (typed offline, its key changed) and a confirmation: the old
    link's refusal page says both, lines first, and lists both, in the order they were made."""
    path, _ = played(tmp_path, "competitive")  # (the game over, written a move a request)
    served = _served(path)
    url = served.links["tables"][0]["url"]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        side = _kept_by_a_closed_page(context, url)
        page = _opened(context, url, to_close=True)
        _outbox(page, 1)
        _close_sending_nothing(page)  # (its tries still failed by the route)
        _director_post(served, "/api/v1/tables/1/1/key", {})
        # (a line kept for the same key, as table.js keeps one, marked not to send)
        again = context.new_page()
        again.goto(url)
        again.wait_for_function("() => document.body.dataset.kept === '1'", timeout=WAIT_MS)
        again.evaluate("""() => new Promise((done) => {
          const opened = indexedDB.open("domrec-outbox", 1);
          opened.onsuccess = () => {
            const tx = opened.result.transaction("writes", "readwrite");
            tx.objectStore("writes").add({ key: document.getElementById("kept").dataset.key, path: "/dgn",
              body: { rev: 1, text: "undo" }, refused: "not sent" });
            tx.oncomplete = () => { opened.result.close(); done(); };
          };
        })""")
        again.reload()
        again.wait_for_function("() => document.body.dataset.kept === '2'", timeout=WAIT_MS)
        assert again.inner_text("#kept-said") == (
            "1 line made on this phone was not sent: it is listed below "
            f"the confirmation for {side} tapped on this phone was not sent: it is listed below")
        assert sorted(again.locator("#kept-list li").nth(k).inner_text() for k in range(2)) \
            == sorted([f"confirmation for {side}", "undo"])
        assert again.inner_text("#kept-note") == (
            "not sent: this link no longer opens the table; type it again on the table's new link "
            "not sent: this link no longer opens the table; confirm again on the table's new link")
    finally:
        served.close()
    assert _confirm_rows(path) == []


@pytest.mark.parametrize("first_try", ["hung before the server", "taken, its answer hung"])
def test_a_confirmation_hanging_when_the_browser_is_online_again_is_sent_again_at_once(tmp_path, browser, played, first_try):
    """NS taps Confirm; its request hangs (held, never answered: before the server, or after the
    server took it).  The page's clock is held still, so the 10 seconds after which a try is given
    up never come: only the browser's ``online`` event can send it again.  The Wi-Fi drops and
    comes back: the hanging try is given up and the confirmation sent again at once with its same
    id, as the outbox's moves are; the server holds NS's confirmation once (a repeated id is
    answered from its store, never applied again).  Before, it waited behind the hanging try."""
    from datetime import datetime, timedelta

    path, _ = played(tmp_path, "competitive")  # (the game over, written a move a request)
    served = _served(path)
    held: list = []
    bodies: list[str] = []

    def hold_the_first(route):
        bodies.append(route.request.post_data or "")
        if held:
            route.continue_()
            return
        if first_try == "taken, its answer hung":
            route.fetch()  # the server takes it; its answer never comes back
        held.append(route)

    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        page.clock.install()
        page.clock.pause_at(datetime.now() + timedelta(seconds=1))
        context.route(CONFIRM, hold_the_first)
        page.click('#panel button[data-side="NS"]')
        for _ in range(1200):  # (the route is the test's own: asked of it, not of the page)
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the confirmation's try did not start"
        context.set_offline(True)
        context.set_offline(False)
        page.wait_for_selector('#panel button[data-side="NS"].chosen', timeout=WAIT_MS)
        assert page.evaluate("() => document.body.dataset.tries") == "2"
        _shot(page, f"phone-confirm-sent-again-online-{first_try.split(',')[0].replace(' ', '-')}")
    finally:
        served.close()
    assert len(bodies) == 2 and bodies[0] == bodies[1]  # (the same write: its same id)
    assert _confirm_rows(path) == [("confirm", "NS")]


def test_a_confirmation_this_page_is_sending_when_the_table_gets_a_new_key_is_kept_and_listed(tmp_path, browser, played):
    """NS taps Confirm; its tries find no server, and this page goes on sending it.  The director
    gives the table a new key meanwhile: the next try is refused for the key (403), which is not
    taken for a wrong PIN.  The page says its link opens the table no more and lists the
    confirmation, to confirm again on the new link; it stays on the phone (before, it was dropped
    as refused, with the server's words about the key, and nothing listed it)."""
    path, _ = played(tmp_path, "competitive")  # (the game over, written a move a request)
    served = _served(path)
    url = served.links["tables"][0]["url"]
    words = WORDS["en"]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, url)
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        context.route(CONFIRM, lambda route: route.abort("internetdisconnected"))
        page.click('#panel button[data-side="NS"]')
        page.wait_for_function("() => document.body.dataset.unanswered === '/confirm'", timeout=WAIT_MS)
        _director_post(served, "/api/v1/tables/1/1/key", {})
        context.unroute(CONFIRM)
        page.wait_for_function("() => document.body.dataset.locked === 'yes'", timeout=WAIT_MS)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        item = page.inner_text("#refused-list li")
        assert item.startswith(words["item"].format(side="NS")) and words["not sent"] in item, item
        assert page.inner_text("#outbox") == words["gone"].format(side="NS")
        page.close()
        again = context.new_page()
        assert again.goto(url).status == 403
        again.wait_for_function("() => document.body.dataset.kept === '1'", timeout=WAIT_MS)
        assert again.inner_text("#kept-list li") == words["item"].format(side="NS")
    finally:
        served.close()
    assert _confirm_rows(path) == []
