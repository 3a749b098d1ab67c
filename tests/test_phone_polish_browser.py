"""The table's phone page, polished, in a real browser at a phone's 390x844 (Chromium with
Playwright, never a downloaded browser):

* a table that types its hands' scores (scores only) is told its *scores* wait to be sent
  offline, not "moves", in English and Spanish, in each of the five games;
* a confirmation that found no server is kept on the phone: the page reloaded offline still holds
  it, says so, and sends it once the connection is back; the server has it once (also when its
  first try had reached the server and only the answer was lost);
* each side's pair, and team, named under the scores in a pairs or team event, as text (a name
  that looks like HTML is shown as typed, never run);
* the outbox sent at once when the browser says it is online again (the page's own timers held
  still: nothing but the ``online`` event can send it).

Without the phone's engine (its files refused), as in tests/tournament/test_venue_outbox_browser.py:
a write made offline is kept unchecked, whatever the timing.  Waits are on the page's own marks
(``data-outbox``, ``data-rev``, the banner), never on time.  Slow, and skipped with the reason
where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament import add_pairs, add_players, create_event, make_settings, open_event, pair_next_round

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _game, _recorded, _served, _shot  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _bodies, _opened, _outbox  # noqa: E402
from domrec.session import requests_for  # noqa: E402

#: (format, table size, players) of one event of each game, as tests/tournament/test_venue.py's.
GAMES = {
    "competitive": ("rotating", None, 4),
    "horse-race": ("individual", 3, 3),
    "broadway": ("rotating", None, 4),
    "castle-rock": ("individual", 5, 5),
    "domino-roads": ("individual", 3, 3),
}

SCORES = {
    "en": ("offline: 1 score waiting to be sent", "offline: 2 scores waiting to be sent"),
    "es": ("sin conexión: 1 tanteo esperando a enviarse", "sin conexión: 2 tanteos esperando a enviarse"),
}

HOSTILE = "<img src=x onerror=alert(1)>"


def _event(tmp_path: Path, game: str) -> Path:
    fmt, size, count = GAMES[game]
    path = tmp_path / f"{game}.db"
    store = create_event(path, make_settings("Club night", game, fmt, table_size=size, seed=4))
    add_players(store, [f"P{i}" for i in range(1, count + 1)])
    pair_next_round(store)
    store.close()
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """``played(tmp_path, kind, pins=False)``: a copy, in ``tmp_path``, of an event whose round 1
    table 1 holds a whole game (seed 5), written a move a request through the table's API in play
    mode, as the tests about what the page does with a finished game (its confirmation) wrote it
    before opening their page, each test its own game.  Written once a module for each kind of
    event, and copied for each test (``copy_event``: SQLite's backup, the same rows), so every test
    still has its own event file and its own server, and starts from the same table as before,
    without writing the game again (a second or more of the server's and the test's time a test);
    its keys (the tables', the director's and the director's PIN) made again for each copy, as
    each test's own event had keys of its own.
    ``kind``: a game of GAMES (the event of :func:`_event`), or ``"named"`` (a Competitive event of
    Ana, Bo, Cy and Di: tests/tournament/test_venue_browser.py's).  ``pins``: its players' PINs made
    before the game and the game written to a server asking for them, as those tests did.  The
    copy's path and the PINs made (None without ``pins``)."""
    from tests.tournament.helpers import copy_event
    from tests.tournament.test_venue_browser import _event as _named
    from tournament.event import venue as vn
    from tournament.store import venue as venue_sql
    from tournament.store.sqlite import now
    from tournament.web.background import BackgroundVenue

    made: dict = {}

    def copy(tmp_path: Path, kind: str, pins: bool = False):
        if (kind, pins) not in made:
            where = tmp_path_factory.mktemp("played")
            template = _named(where, "competitive", ["Ana", "Bo", "Cy", "Di"]) if kind == "named" else _event(where, kind)
            made_pins = None
            if pins:
                store = open_event(template)
                try:
                    made_pins = vn.make_pins(store)
                finally:
                    store.close()
            served = BackgroundVenue(template, pins=pins, rate=1e9, burst=10 ** 9)
            try:
                _recorded(served, list(requests_for(_game(template, seed=5))), mode="play")
            finally:
                served.close()
            made[kind, pins] = (template, made_pins)
        template, made_pins = made[kind, pins]
        path = copy_event(template, tmp_path / template.name)
        store = open_event(path)
        try:  # keys of its own, as an event made for the test had: a page an earlier test left open
            with store.write():  # (its context closed only with the module's) never opens this one
                for key, table_id, _ in venue_sql.token_dates(store):
                    venue_sql.replace_token(store, key, table_id, now())
        finally:
            store.close()
        return path, made_pins

    return copy


def _sides(page) -> list[str]:
    return [i.split("-", 1)[1] for i in page.eval_on_selector_all("#panel input[id^='score-']", "xs => xs.map(x => x.id)")]


@pytest.mark.parametrize("game, lang", [(g, "en") for g in GAMES] + [("competitive", "es"), ("castle-rock", "es")])
def test_hand_scores_kept_offline_are_called_scores(tmp_path, browser, game, lang):
    """A table recording its game by its scores only: a hand's score typed offline is kept, and the
    banner says "1 score waiting to be sent", then "2 scores" (it said "moves": the table made
    none).  Back online, both are sent, once each."""
    path = _event(tmp_path, game)
    record = _game(path, seed=5)
    served = _served(path)
    try:
        _recorded(served, [], mode="sheet")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"] + f"?lang={lang}")
        page.wait_for_selector('#add-sheet-hand[data-hand="1"]', timeout=WAIT_MS)
        sides = _sides(page)
        scores = [record.hands[k].result.scores for k in range(2)]
        context.set_offline(True)
        for side in sides:
            page.fill(f"#score-{side}", str(scores[0].get(side, 0)))
        page.click("#add-sheet-hand")
        _outbox(page, 1)
        assert page.inner_text("#outbox") == SCORES[lang][0]
        # (hand 2 typed: the phone without its engine keeps the first one unchecked, its table as it was)
        page.fill("#typed-text", "hand 2\nend " + " ".join(f"{s} {scores[1].get(s, 0)}" for s in sides))
        page.click("#typed-form button[type=submit]")
        _outbox(page, 2)
        assert page.inner_text("#outbox") == SCORES[lang][1]
        _shot(page, f"phone-polish-scores-offline-{game}-{lang}")
        context.set_offline(False)
        _outbox(page, 0)
        page.wait_for_function("() => ['all sent', 'todo enviado'].includes(document.getElementById('outbox').textContent)",
                               timeout=WAIT_MS)
    finally:
        served.close()
    assert len(_bodies(path)) == 2


def _confirm_rows(path: Path) -> list[tuple[str, str]]:
    store = open_event(path)
    try:
        return [(r[0], r[1]) for r in store.conn.execute(
            "SELECT kind, body FROM venue_log WHERE kind IN ('confirm', 'board') ORDER BY rev")]
    finally:
        store.close()


@pytest.mark.parametrize("first_try", ["lost", "answer lost"])
def test_a_confirmation_that_found_no_server_survives_a_reload_and_is_stored_once(tmp_path, browser, played, first_try):
    """The game is over; NS taps Confirm as the Wi-Fi drops (its request fails: "lost", or it
    reached the server and only the answer was lost).  The page is reloaded offline (the phone's
    browser killed and opened again): it still holds the confirmation and says so.  Back online, it
    is sent, with its same id: the server holds NS's confirmation once, and the table waits for
    EW's.  Before, it was kept in the page's memory only: reloaded, it was gone (the server never
    had it), and nothing on the page said so."""
    path, _ = played(tmp_path, "named")  # (the game over, written a move a request)
    served = _served(path)
    url = served.links["tables"][0]["url"]
    try:
        context = browser.new_context(viewport=PHONE)
        page = _opened(context, url)
        page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=WAIT_MS)
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)

        def dropped(route):
            if first_try == "answer lost":
                route.fetch()  # the server takes it; its answer never comes back
            route.abort("internetdisconnected")

        context.route("**/api/v1/tables/1/1/confirm*", dropped)
        page.click('#panel button[data-side="NS"]')
        page.wait_for_function("() => document.body.dataset.unanswered === '/confirm'", timeout=WAIT_MS)
        context.set_offline(True)
        context.unroute("**/api/v1/tables/1/1/confirm*")
        page.reload()  # offline: the page from the service worker, the confirmation from the phone's storage
        page.wait_for_selector("#confirm-kept", timeout=WAIT_MS)
        _outbox(page, 1)
        # (the page may first try to send it, "sending the confirmation kept on this phone…", and be
        # told it is offline: the line it settles on is the one waited for)
        said = "offline: the confirmation kept on this phone is sent when the connection is back"
        page.wait_for_function("(said) => document.getElementById('outbox').innerText === said", arg=said,
                               timeout=WAIT_MS)
        assert "The confirmation for NS is kept on this phone" in page.inner_text("#confirm-kept")
        assert page.is_disabled('#panel button[data-side="NS"]') and page.is_disabled('#panel button[data-side="EW"]')
        _shot(page, f"phone-polish-confirmation-kept-{first_try.replace(' ', '-')}")
        context.set_offline(False)
        _outbox(page, 0)
        page.wait_for_selector('#panel button[data-side="NS"].chosen', timeout=WAIT_MS)
        page.wait_for_selector('#panel button[data-side="EW"]:not([disabled])', timeout=WAIT_MS)
        assert page.locator("#confirm-kept").count() == 0
    finally:
        served.close()
    assert _confirm_rows(path) == [("confirm", "NS")]


def _pairs_event(tmp_path: Path, game: str, hostile: bool) -> Path:
    path = tmp_path / f"pairs-{game}.db"
    store = create_event(path, make_settings("Pairs cup", game, "pairs", seed=3))
    add_pairs(store, [("Ana", "Bo", HOSTILE if hostile else "Los Primos"), ("Cy", "Di", None),
                      ("Ed", "Flo", "Las Fichas"), ("Gus", "Hal", None)])
    pair_next_round(store)
    store.close()
    return path


def _units(page) -> dict[str, str]:
    page.wait_for_selector("#units:not([hidden]) div[data-side]", timeout=WAIT_MS)
    return {d.get_attribute("data-side"): d.inner_text() for d in page.query_selector_all("#units div[data-side]")}


@pytest.mark.parametrize("game", ["competitive", "broadway"])
def test_each_sides_pair_is_named_under_the_scores_as_text(tmp_path, browser, game):
    """A pairs event's table names each side's pair under the scores (the seats name the players);
    a pair named like HTML is shown as typed, and nothing of it runs (no image, no alert)."""
    path = _pairs_event(tmp_path, game, hostile=True)
    served = _served(path)
    store = open_event(path)
    try:
        table = store.tables(1)[0]
        names = {x.id: x.name for x in store.teams()}
        players = store.players_by_id([s.player for s in table.seats])
        expected = {s.side: names[players[s.player].team] for s in table.seats}
    finally:
        store.close()
    alerts: list[str] = []
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
        shown = _units(page)
        assert set(shown) == set(expected)
        for side, pair in expected.items():
            assert shown[side] == f"{side} {pair}"
        assert HOSTILE in shown.values() or any(HOSTILE in v for v in shown.values())
        assert page.locator("#units img, header img").count() == 0
        _shot(page, f"phone-polish-pair-names-{game}")
    finally:
        served.close()
    assert alerts == []


def test_a_team_events_sides_are_named_by_pair_and_team(tmp_path, browser):
    """A team event (duplicate teams): each side's pair and its team under the scores."""
    from tests.tournament.test_duplicate_teams import new_event, run

    event = tmp_path / "teams.db"
    new_event(event, 4)
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    served = _served(event)
    try:
        state = _table_json(served)
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        shown = _units(page)
        assert set(shown) == {"NS", "EW"}
        for side, unit in state["units"].items():
            assert unit["team"] and shown[side] == f"{side} {unit['pair']} · {unit['team']}"
        _shot(page, "phone-polish-team-names")
    finally:
        served.close()


def _table_json(served) -> dict:
    import urllib.request

    link = served.links["tables"][0]["url"]
    asked = urllib.request.Request(f"{served.base_url}/api/v1/tables/1/1",
                                   headers={"Authorization": f"Bearer {link.rsplit('/', 1)[1]}"})
    with urllib.request.urlopen(asked, timeout=60) as answer:
        return json.loads(answer.read())


def test_the_outbox_is_sent_as_soon_as_the_browser_is_online_again(tmp_path, browser):
    """A line typed offline waits in the outbox.  The Wi-Fi comes back a moment and drops again: the
    outbox's try made in that moment hangs (its request held, never answered).  The page's clock is
    held still (Playwright's clock: no timer of the page fires unless the test runs it), so neither
    the outbox's own tries (1, 2, 4 … seconds apart) nor the 10 seconds after which a request is
    given up ever come: only the browser's ``online`` event can send the line.  Back online, the
    hung try is given up and the line sent at once; the banner says "all sent".  Before, the
    ``online`` event's try waited behind the hung one, until its 10 seconds ran out."""
    from datetime import datetime, timedelta

    path = _event(tmp_path, "competitive")
    steps = [t for t in requests_for(_game(path, seed=3)) if t != "y"]
    served = _served(path)
    held: list = []
    try:
        _recorded(served, [], mode="play")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        page.clock.install()
        page.clock.pause_at(datetime.now() + timedelta(seconds=1))
        context.set_offline(True)
        page.fill("#typed-text", steps[0])
        page.click("#typed-form button[type=submit]")
        _outbox(page, 1)
        # The first try after the Wi-Fi's moment back is held (never answered); any later one passes.
        context.route("**/api/v1/tables/1/1/dgn*", lambda route: held.append(route) if not held else route.continue_())
        context.set_offline(False)
        for _ in range(1200):  # (the route is the test's own: asked of it, not of the page)
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the outbox's try did not start"
        context.set_offline(True)
        _outbox(page, 1)
        context.set_offline(False)
        _outbox(page, 0)
        page.wait_for_function("() => document.getElementById('outbox').textContent === 'all sent'", timeout=WAIT_MS)
    finally:
        served.close()
    assert _bodies(path) == steps[:1]


def test_a_kept_confirmation_refused_for_its_pin_is_listed_and_the_page_goes_on(tmp_path, browser, played):
    """With PINs: the confirmation kept through the reload carried a wrong PIN.  Sent once the
    connection is back, the server refuses it (403, its own refusal): it is listed under the board
    with the reason, to drop, the page goes on (a 403 to the outbox's write was taken for the link's
    key having changed, the table shut out), and NS confirms again with the right PIN."""
    from tournament.web.background import BackgroundVenue

    path, pins = played(tmp_path, "named", pins=True)  # (PINs made, then the game written a move a request)
    store = open_event(path)
    try:
        ns = [s.player for s in store.tables(1)[0].seats if s.side == "NS"]
    finally:
        store.close()
    wrong = next(p for p in (f"{k:04d}" for k in range(10_000)) if p not in set(pins.values()))
    served = BackgroundVenue(path, pins=True, rate=1e9, burst=10 ** 9)
    url = served.links["tables"][0]["url"]
    try:
        context = browser.new_context(viewport=PHONE)
        page = _opened(context, url)
        page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=WAIT_MS)
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        context.route("**/api/v1/tables/1/1/confirm*", lambda route: route.abort("internetdisconnected"))
        page.fill("#pin", wrong)
        page.click('#panel button[data-side="NS"]')
        page.wait_for_function("() => document.body.dataset.unanswered === '/confirm'", timeout=WAIT_MS)
        context.set_offline(True)
        context.unroute("**/api/v1/tables/1/1/confirm*")
        page.reload()
        page.wait_for_selector("#confirm-kept", timeout=WAIT_MS)
        context.set_offline(False)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        item = page.inner_text("#refused-list li")
        assert item.startswith("confirmation for NS") and "that PIN is not the PIN of a player of NS" in item, item
        assert page.locator("#refused-list li button.retype").count() == 0
        assert page.evaluate("() => document.body.dataset.locked") is None
        _shot(page, "phone-polish-kept-confirmation-refused")
        page.click("#refused-list li button.drop")
        page.fill("#pin", pins[ns[0]])
        page.click('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        page.wait_for_selector('#panel button[data-side="NS"].chosen', timeout=WAIT_MS)
    finally:
        served.close()
    assert _confirm_rows(path) == [("confirm", "NS")]
