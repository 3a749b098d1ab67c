"""A server that is slow, or hangs, under a table's phone: the real ``tournament serve`` in a process
of its own, paused with SIGSTOP (the laptop asleep with the Wi-Fi up; a director's command holding
the event file, for as long as the test likes) and woken with SIGCONT.

* A confirmation tapped while the server hangs: within a moment and a half the page says that the
  server is not answering and that the confirmation is sent as soon as it answers (its buttons
  greyed); it is sent again with its same id while the server sleeps, and once the server wakes it
  is taken exactly once (the event's log holds one confirmation a side, one result), and the page
  draws the table confirmed.  The same write sent once more by hand is answered the same, nothing
  added.  For all five games (sides, or a seat each).  The page before waited 10 seconds, then said
  "nothing was sent" (which a server waking with the request in its queue could belie).
* A move tapped while the server hangs: answered by the phone's engine and kept in the outbox, the
  banner says "waiting for the server" (``data-link="slow"``), not "offline", which the page before
  said at once; "offline" comes when the server has answered nothing for 10 seconds, and at once
  when the network goes (``set_offline``).  Every move is stored once.

Every wait is on the page's own marks (``data-link``, ``data-unanswered``, ``data-tries``,
``data-outbox``); nothing is asserted of time.  Slow, and skipped with the reason where Chromium,
Playwright or uvicorn is missing."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from pathlib import Path

import pytest

from tournament import open_event
from tournament.event import venue as vn

pytestmark = [pytest.mark.slow, pytest.mark.phone_engine]  # (the browser fixture lets its pages load the engine)

from tests.browser import keep, playwright_or_skip, with_clock

playwright_api = playwright_or_skip(server=True)
httpx = pytest.importorskip("httpx")

from tests.tournament import served  # noqa: E402
from tests.tournament.helpers import hand_by_hand  # noqa: E402
from tests.tournament.test_phone_engine_offline_browser import READY_MS, _engine_ready, _local_only  # noqa: E402
from tests.tournament.test_venue import EVENTS, _auth, _event, _game_of, _requests  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _game, _rev, _steps, _type  # noqa: E402
from tests.tournament.test_venue_browser import _event as _named_event  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _bodies  # noqa: E402

from domrec import tiles as T  # noqa: E402

PORTS, _ports = served.PORTS, served.ports


@contextlib.contextmanager
def _serving(path: Path):
    """``tournament serve`` on the event, in a process of its own: (its base URL, its process), the
    server answering with this event's table (a port another program took meanwhile is left).
    Never left paused or running."""
    token = _links(path, "http://127.0.0.1")["tables"][0]["token"]
    for port in _ports():
        proc = served.serve(path, port)
        try:
            mine = httpx.get(f"http://127.0.0.1:{port}/api/v1/tables/1/1", headers=_auth(token), timeout=60)
        except httpx.HTTPError:
            mine = None
        if proc.poll() is None and mine is not None and mine.status_code == 200:
            break
        served.stop(proc)
    else:
        raise AssertionError(f"no port of {PORTS[0]}-{PORTS[-1]} free")
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGCONT)
        served.stop(proc)


def _links(path: Path, base: str) -> dict:
    store = open_event(path)
    try:
        return vn.links(store, base)
    finally:
        store.close()


def _phone(browser, url: str, engine: bool):
    """A phone's page on the table (127.0.0.1 alone, no service worker); ``engine``: its engine
    loaded (else its files refused, as where they cannot be fetched).  Playwright's clock is
    installed before the page loads: its time flows as it does anyway, and a test moves it on
    (``page.clock.fast_forward``) past the page's 10-second limit instead of waiting it out."""
    context = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
    context.route("**/*", _local_only)
    if not engine:
        context.route("**/static/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.rev && document.body.dataset.outbox !== undefined", timeout=WAIT_MS)
    return page


#: The page's "a moment and a half" (window.venue.SLOW_MS): a request unanswered this long is said
#: to wait for the server.
SLOW_MS = 1500


def _asleep_tap(page, path_end: str, tap) -> None:
    """``tap()`` (a tap whose write or read goes to the sleeping server), and, once its request is on
    its way (the page's timers for it set before it is sent), the page's clock moved on by SLOW_MS:
    what the page says when the server has not answered for a moment and a half it says now, not a
    moment and a half later.  Only how long the test sat waiting changes: the page's time passes as
    it did (its clock installed, :func:`tests.browser.with_clock`), and the test then waits on the
    page's own marks, as before."""
    with page.expect_request(lambda r: r.url.split("?")[0].endswith(path_end), timeout=WAIT_MS):
        tap()
    page.clock.fast_forward(SLOW_MS)


def _log(path: Path, kind: str) -> list[str]:
    store = open_event(path)
    try:
        return [r[0] for r in store.conn.execute("SELECT body FROM venue_log WHERE kind = ? ORDER BY rev", (kind,))]
    finally:
        store.close()


@pytest.mark.parametrize("game", list(EVENTS))
def test_a_confirmation_tapped_while_the_server_hangs_is_said_to_wait_and_taken_once(tmp_path, browser, game):
    path = _event(tmp_path, game)
    with _serving(path) as (base, proc):
        table = _links(path, base)["tables"][0]
        token = table["token"]
        api = f"{base}/api/v1/tables/1/1"
        rev = httpx.get(api, headers=_auth(token)).json()["rev"]
        for text in hand_by_hand(_requests(_game_of(path, 1, 1, seed=3))):
            r = httpx.post(f"{api}/dgn", headers=_auth(token), json={"rev": rev, "text": text}, timeout=60)
            assert r.status_code == 200, r.text
            rev = r.json()["rev"]
        page = _phone(browser, table["url"], engine=False)
        page.wait_for_selector("#panel button[data-side]", timeout=WAIT_MS)
        sides = page.evaluate("() => window.venue.table.view().sides")
        # Every side but the last confirms while the server answers.
        for side in sides[:-1]:
            before = _rev(page)
            page.click(f'#panel button[data-side="{side}"]', timeout=WAIT_MS)
            page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
        last = sides[-1]
        sent: list = []
        page.on("request", lambda r: sent.append(r) if r.url.split("?")[0].endswith("/confirm") else None)
        os.kill(proc.pid, signal.SIGSTOP)
        _asleep_tap(page, "/confirm", lambda: page.click(f'#panel button[data-side="{last}"]', timeout=WAIT_MS))
        # The page says the server is not answering, and that the confirmation goes when it answers.
        shown = page.wait_for_function("""() => document.body.dataset.unanswered === '/confirm'
            && document.body.dataset.link === 'slow' && document.getElementById('confirm-pending')
            && [document.getElementById('confirm-pending').innerText, document.getElementById('outbox').innerText,
                [...document.querySelectorAll('#panel button[data-side]')].map((b) => b.disabled)]""",
                                       timeout=WAIT_MS).json_value()
        assert shown[0] == ("The server is not answering: this confirmation is sent as soon as it answers. "
                            "Keep this page open; there is no need to tap again."), shown
        assert shown[1] == "waiting for the server: it is slow to answer", shown
        assert shown[2] == [True] * len(sides), shown  # (no second tap meanwhile)
        if game == "competitive":
            keep(page, "venue-confirm-waiting")
            # The server still asleep: the first try is given up and the confirmation sent again (its
            # same id), and the banner now says the connection is lost; the confirmation still waits.
            page.clock.fast_forward(WAIT_MS)  # (the page's 10 s limit passed at once, not waited for)
            page.wait_for_function("() => Number(document.body.dataset.tries) >= 2"
                                   " && document.body.dataset.link === 'offline'", timeout=WAIT_MS)
            assert page.locator("#confirm-pending").is_visible()
            assert page.inner_text("#outbox") == "offline: no connection to the server"
            keep(page, "venue-confirm-waiting-offline")
        os.kill(proc.pid, signal.SIGCONT)
        page.wait_for_function("""() => window.venue.table.view().status === 'confirmed'
            && !document.getElementById('confirm-pending') && document.body.dataset.unanswered === undefined
            && document.body.dataset.link === 'ok'""", timeout=WAIT_MS)
        assert page.locator("#panel h2").first.inner_text() == "Confirmed: the result is in the event"
        if game == "competitive":
            keep(page, "venue-confirm-taken")
        bodies = [json.loads(r.post_data) for r in sent]
        assert len({b["cid"] for b in bodies}) == 1, bodies  # every try the same write
        assert len(bodies) >= (2 if game == "competitive" else 1)
        # The same write sent once more: answered the same, nothing added.
        again = httpx.post(f"{api}/confirm", headers={**_auth(token), "Content-Type": "application/json"},
                           content=sent[0].post_data, timeout=60)
        assert again.status_code == 200 and again.json()["status"] == "confirmed", again.text
        assert again.json()["rev"] == page.evaluate("() => window.venue.table.view().rev")
    assert sorted(_log(path, "confirm")) == sorted(sides)  # each side (or seat) once
    store = open_event(path)
    try:
        assert len(store.results()) == 1  # one result entered
    finally:
        store.close()


def _tap(page, word: str) -> str:
    """Tap the move ``word`` of the seat to move (its tile, then where it goes if asked); the page
    draws it (from the server or the phone's engine).  The move as sent."""
    seat = page.locator(".players .to-move").first.inner_text().split()[0]
    text = f"{seat} {word}"
    tile = str(T.tile(word.split("@")[0].lstrip("*!")))
    before = _rev(page)
    page.click(f'#panel .tiles button[data-tile="{tile}"]', timeout=WAIT_MS)
    page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before} || document.querySelector('#panel .targets')",
                           timeout=WAIT_MS)
    if _rev(page) == before:
        page.click(f'#panel .targets button[data-move="{text}"]', timeout=WAIT_MS)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
    return text


def test_a_slow_server_is_waited_for_and_a_lost_one_is_offline(tmp_path, browser):
    path = _named_event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    steps = _steps(_game(path, seed=12))
    first = next(k for k, step in enumerate(steps) if step.split()[0] not in ("hand", "deal", "leaddraw"))
    with _serving(path) as (base, proc):
        page = _phone(browser, _links(path, base)["tables"][0]["url"], engine=True)
        for step in steps[:first]:  # the hand started and its deal typed: the page offers the legal moves
            _type(page, step)
        page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
        _engine_ready(page)
        page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev",
                               timeout=WAIT_MS)
        tapped = []
        os.kill(proc.pid, signal.SIGSTOP)
        tapped.append(_tap(page, steps[first]))
        # The move answered by the phone's engine and kept: the banner, as it stood the moment it was
        # kept, says the server is waited for, not that the phone is offline.
        shown = page.wait_for_function("""() => document.body.dataset.outbox === '1'
            && [document.body.dataset.link, document.getElementById('outbox').innerText,
                document.getElementById('outbox').className]""", timeout=WAIT_MS).json_value()
        assert shown == ["slow", "waiting for the server: 1 line kept on this phone, sent when it answers",
                         "outbox slow"], shown
        keep(page, "venue-move-waiting-for-the-server")
        # No answer for 10 seconds: the connection is taken as lost.
        page.clock.fast_forward(WAIT_MS)  # (those 10 seconds passed at once on the page's clock)
        page.wait_for_function("() => document.body.dataset.link === 'offline'", timeout=WAIT_MS)
        assert page.inner_text("#outbox") == "offline: 1 line waiting to be sent"
        os.kill(proc.pid, signal.SIGCONT)
        page.wait_for_function("() => document.body.dataset.outbox === '0' && document.body.dataset.link === 'ok'",
                               timeout=WAIT_MS)
        assert page.inner_text("#outbox") == "all sent"
        # The network gone (the phone's Wi-Fi): offline at once, no slow state first.
        page.context.set_offline(True)
        tapped.append(_tap(page, steps[first + 1]))
        shown = page.wait_for_function("""() => document.body.dataset.outbox === '1'
            && [document.body.dataset.link, document.getElementById('outbox').innerText]""",
                                       timeout=WAIT_MS).json_value()
        assert shown == ["offline", "offline: 1 line waiting to be sent"], shown
        page.context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0' && document.body.dataset.link === 'ok'",
                               timeout=WAIT_MS)
        want = first + len(tapped)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {want}", timeout=WAIT_MS)
    assert _bodies(path) == steps[:first] + tapped  # every move once, in order


def _played(path, base) -> tuple[dict, str]:
    """The event's links (its first table's, and the director's PIN) and that table's API address,
    the table holding three hands typed as a sheet (hand 2 typed twice: lines to read and correct)."""
    links = _links(path, base)
    table = links["tables"][0]
    api = f"{base}/api/v1/tables/1/1"
    rev = httpx.get(api, headers=_auth(table["token"])).json()["rev"]
    for what, body in [("mode", {"mode": "sheet"}), *(("dgn", {"text": f"hand {n}\nend {end}"})
                                                   for n, end in enumerate(["NS 30 EW 0", "NS 0 EW 44", "NS 0 EW 44"], 1))]:
        r = httpx.post(f"{api}/{what}", headers=_auth(table["token"]), json={"rev": rev, **body}, timeout=60)
        assert r.status_code == 200, r.text
        rev = r.json()["rev"]
    return links, api


def test_a_directors_correction_at_the_table_waits_for_a_hung_server_and_is_made_once(tmp_path, browser):
    """The director at the table (the director's PIN) takes back a hand typed twice while the server
    hangs: the director's panel says within a moment and a half that the server is not answering and
    the correction goes when it answers; woken, the server makes it once."""
    path = _named_event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    with _serving(path) as (base, proc):
        links, api = _played(path, base)
        table, pin = links["tables"][0], links["director_pin"]
        rev = httpx.get(api, headers=_auth(table["token"])).json()["rev"]
        page = _phone(browser, table["url"], engine=False)
        page.click("#director", timeout=WAIT_MS)
        page.fill("#td-pin", pin)
        page.click("#td-open", timeout=WAIT_MS)
        page.click('#td-hands .hand[data-hand="3"] button[data-fix-hand="3"]', timeout=WAIT_MS)
        page.fill("#td-fix-reason", "hand 2 was typed twice")
        os.kill(proc.pid, signal.SIGSTOP)
        _asleep_tap(page, "/correct", lambda: page.click("#td-fix-remove", timeout=WAIT_MS))
        said = page.wait_for_function("""() => document.body.dataset.unanswered === '/correct'
            && document.getElementById('td-fix-message').innerText""", timeout=WAIT_MS).json_value()
        assert said == ("The server is not answering: this is sent as soon as it answers. "
                        "Keep this page open; there is no need to tap again.")
        keep(page, "venue-director-correction-waiting")
        os.kill(proc.pid, signal.SIGCONT)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {rev}"
                               " && document.body.dataset.unanswered === undefined"
                               " && document.getElementById('td-message').innerText.includes('hand 3 corrected')",
                               timeout=WAIT_MS)
        assert page.locator("#td-fix").is_hidden()
        assert " ".join(page.inner_text("#totals").split()) == "NS 30 EW 44"
    assert len(_log(path, "correct")) == 1
