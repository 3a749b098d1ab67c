"""The director's requests while the server hangs: the real ``tournament serve`` paused with SIGSTOP
and woken with SIGCONT (as ``test_venue_slow_server_browser.py`` does to the table's phone).

* The director's PIN typed at a table (its "Director" button): the page reads the table's lines
  with the table's own time limit, and says beside the PIN what the banner says, "waiting for the
  server: it is slow to answer" after a moment and a half, then "offline: no connection to the
  server" when the read is given up (10 s); the PIN typed again once the server is awake opens the
  table's game.  The page before sent the PIN with no time limit and said nothing while it waited.
* The director's own page: on a hung server its banner and ``<body data-link>`` say "waiting for
  the server", then "offline", as the table's page does; a call cleared and a result saved while it
  hangs are said to wait beside their buttons, a second tap sends nothing, and once the server wakes
  each is made once (one request each; the call's clearing carries its own id, ``cid``, and sent
  again by hand it is answered the same, nothing added).  The page before had no such state.
* "Pair the next round" tapped twice while the server hangs: one request, one round paired, and
  the same request sent again by hand answered the same round; its answer lost on the way back
  (the request failed after the server had paired), the page sends it again with its same id
  until answered, and the server pairs no second round (the page before said "no connection to
  the server" and left the director to tap again).

English and Spanish.  Every wait is on the page's own marks; nothing is asserted of time.  Slow, and
skipped with the reason where Chromium, Playwright or uvicorn is missing."""

from __future__ import annotations

import json
import os
import signal

import pytest

from tournament import open_event
from tournament.store import venue as venue_sql

pytestmark = [pytest.mark.slow]

from tests.browser import DESKTOP, PHONE, keep, playwright_or_skip, refresh_now, with_clock

playwright_api = playwright_or_skip(server=True)
httpx = pytest.importorskip("httpx")

from tests.tournament.test_phone_engine_offline_browser import _local_only  # noqa: E402
from tests.tournament.test_venue import _auth  # noqa: E402
from tests.tournament.test_venue_browser import WAIT_MS  # noqa: E402
from tests.tournament.test_venue_browser import _event as _named_event  # noqa: E402
from tests.tournament.test_venue_slow_server_browser import (_asleep_tap, _links, _log, _phone, _played,  # noqa: E402
                                                             _serving)

#: The page's words, in each language (the catalogs' own).
WORDS = {
    "en": {"slow": "waiting for the server: it is slow to answer",
           "offline": "offline: no connection to the server",
           "waits": "The server is not answering: this is sent as soon as it answers. "
                    "Keep this page open; there is no need to tap again."},
    "es": {"slow": "esperando al servidor: tarda en responder",
           "offline": "sin conexión con el servidor",
           "waits": "El servidor no responde: esto se envía en cuanto responda. "
                    "Deje esta página abierta; no hace falta volver a tocar."},
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_pin_at_a_table_waits_for_a_hung_server_and_works_once_it_wakes(tmp_path, browser, lang):
    words = WORDS[lang]
    path = _named_event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    with _serving(path) as (base, proc):
        links, _ = _played(path, base)
        table, pin = links["tables"][0], links["director_pin"]
        page = _phone(browser, f"{table['url']}?lang={lang}", engine=False)
        page.click("#director", timeout=WAIT_MS)
        page.fill("#td-pin", pin)
        sent: list = []
        page.on("request", lambda r: sent.append(r) if r.url.split("?")[0].endswith("/lines") else None)
        os.kill(proc.pid, signal.SIGSTOP)
        _asleep_tap(page, "/lines", lambda: page.click("#td-open", timeout=WAIT_MS))
        # Said beside the PIN as the banner says it: the server is waited for...
        shown = page.wait_for_function("""() => document.body.dataset.link === 'slow'
            && document.getElementById('td-message').innerText
            && [document.getElementById('td-message').innerText, document.getElementById('outbox').innerText,
                document.getElementById('td-open').disabled]""", timeout=WAIT_MS).json_value()
        assert shown == [words["slow"], words["slow"], True], shown  # (the PIN not sent twice meanwhile)
        keep(page, f"venue-director-pin-waiting-{lang}")
        # ... then, the read given up, the connection taken as lost; the desk stays shut.  (The
        # read's 10 s limit passed at once on the page's clock, not waited for.)
        page.clock.fast_forward(WAIT_MS)
        shown = page.wait_for_function("""() => document.body.dataset.link === 'offline'
            && !document.getElementById('td-open').disabled
            && [document.getElementById('td-message').innerText, document.getElementById('td-message').className,
                document.getElementById('outbox').innerText]""", timeout=WAIT_MS + 5000).json_value()
        assert shown == [words["offline"], "bad", words["offline"]], shown
        assert page.locator("#td-desk").is_hidden() and page.locator("#td-unlock").is_visible()
        assert page.input_value("#td-pin") == ""
        keep(page, f"venue-director-pin-offline-{lang}")
        page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        keep(page, f"venue-director-pin-offline-{lang}-desktop")
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        os.kill(proc.pid, signal.SIGCONT)
        # The PIN typed again, the server awake: the table's game opens, hand by hand.
        page.fill("#td-pin", pin)
        page.click("#td-open", timeout=WAIT_MS)
        page.wait_for_selector('#td-hands .hand[data-hand="3"]', timeout=WAIT_MS)
        assert page.locator("#td-desk").is_visible() and page.inner_text("#td-message") == ""
        page.wait_for_function("() => document.body.dataset.link === 'ok'", timeout=WAIT_MS)
        assert len(sent) == 2, [r.url for r in sent]  # the PIN sent once a tap
    store = open_event(path)
    try:  # the PIN that reached the server late was right: no wrong PIN counted
        assert venue_sql.pin_tries(store, store.tables(1)[0].id)[0] == 0
    finally:
        store.close()


def _director(browser, url: str, clock: bool = False):
    """The director's page (127.0.0.1 alone, no service worker), its tables drawn; ``clock``:
    Playwright's clock installed before it loads (its time flows as it does anyway; the test moves
    it on past the page's 10-second limit instead of waiting it out)."""
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, service_workers="block")
    if clock:
        with_clock(context)
    context.route("**/*", _local_only)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('#tables tr[data-table="1"]', timeout=WAIT_MS)
    page.wait_for_function("() => document.body.dataset.link === 'ok'", timeout=WAIT_MS)
    return page


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_page_tells_a_hung_server_and_makes_each_write_once(tmp_path, browser, lang):
    words = WORDS[lang]
    path = _named_event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    with _serving(path) as (base, proc):
        links = _links(path, base)
        table = links["tables"][0]
        api = f"{base}/api/v1/tables/1/1"
        rev = httpx.get(api, headers=_auth(table["token"])).json()["rev"]
        r = httpx.post(f"{api}/call", headers=_auth(table["token"]), json={"rev": rev}, timeout=60)
        assert r.status_code == 200, r.text
        page = _director(browser, f"{links['director']}?lang={lang}", clock=True)
        assert page.locator("#link").is_hidden()
        page.click('#tables tr[data-table="1"] button', timeout=WAIT_MS)
        # (the table open, its call shown: the button was enabled before the table's answer came, and
        # a test that paused the server then had paused the table's opening, never drawn)
        page.wait_for_function("""() => !document.getElementById('detail').hidden
            && !document.getElementById('clear-call').disabled""", timeout=WAIT_MS)
        writes: list = []
        page.on("request", lambda r: writes.append(r) if r.method == "POST" else None)

        # The server hangs: the page's refresh is waited for, then the connection taken as lost.
        os.kill(proc.pid, signal.SIGSTOP)
        # the page's next refresh, at once, finding the server asleep
        _asleep_tap(page, "/api/v1/director", lambda: refresh_now(page.context, 3000))
        shown = page.wait_for_function("""() => document.body.dataset.link === 'slow'
            && [document.getElementById('link').innerText, document.getElementById('link').className]""",
                                       timeout=WAIT_MS).json_value()
        assert shown == [words["slow"], "outbox slow"], shown
        keep(page, f"venue-desk-waiting-{lang}")
        # The call cleared meanwhile: said to wait beside the button; a second tap sends nothing.
        _asleep_tap(page, "/clear", lambda: page.click("#clear-call", timeout=WAIT_MS))
        said = page.wait_for_function("""() => document.body.dataset.unanswered
            && document.getElementById('detail-message').innerText""", timeout=WAIT_MS).json_value()
        assert said == words["waits"], said
        page.click("#clear-call", timeout=WAIT_MS)
        assert page.inner_text("#detail-message") == words["waits"]
        page.clock.fast_forward(WAIT_MS)  # (the page's 10 s without an answer passed at once)
        shown = page.wait_for_function("""() => document.body.dataset.link === 'offline'
            && document.getElementById('link').innerText""", timeout=WAIT_MS + 5000).json_value()
        assert shown == words["offline"], shown
        assert page.inner_text("#detail-message") == words["waits"]  # (still on its way)
        keep(page, f"venue-desk-offline-{lang}")
        page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        keep(page, f"venue-desk-offline-{lang}-desktop")
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        os.kill(proc.pid, signal.SIGCONT)
        page.wait_for_function("""() => document.body.dataset.link === 'ok' && document.body.dataset.unanswered === undefined
            && document.getElementById('detail-message').className === 'good'
            && document.getElementById('clear-call').disabled""", timeout=WAIT_MS)
        assert page.locator("#link").is_hidden()
        cleared = [r for r in writes if r.url.endswith("/clear")]
        assert len(cleared) == 1, [r.url for r in writes]
        body = json.loads(cleared[0].post_data)
        assert isinstance(body.get("cid"), str) and len(body["cid"]) >= 8, body
        again = httpx.post(f"{api}/clear", headers=_auth(links["director"].rsplit("/", 1)[1]),
                           json=body, timeout=60)
        assert again.status_code == 200 and not again.json()["called"], again.text
        assert len(_log(path, "clear")) == 1  # cleared once

        # A result saved while the server hangs: sent once (with its own id too), in one request that
        # waits for the server, made once when it wakes.
        sides = page.evaluate("() => [...document.querySelectorAll('#result-scores input')].map((x) => x.id.slice(10))")
        for side, score in zip(sides, ["150", "90"]):
            page.fill(f"#dir-score-{side}", score)
        page.fill("#result-reason", "score sheet")
        os.kill(proc.pid, signal.SIGSTOP)
        _asleep_tap(page, "/result", lambda: page.click("#result-form button[type=submit]", timeout=WAIT_MS))
        said = page.wait_for_function("""() => document.body.dataset.unanswered
            && document.getElementById('detail-message').innerText""", timeout=WAIT_MS).json_value()
        assert said == words["waits"], said
        page.click("#result-form button[type=submit]", timeout=WAIT_MS)
        page.click("#clear-result", timeout=WAIT_MS)  # (nor any other write)
        keep(page, f"venue-desk-result-waiting-{lang}")
        page.clock.fast_forward(WAIT_MS)
        page.wait_for_function("() => document.body.dataset.link === 'offline'", timeout=WAIT_MS + 5000)
        os.kill(proc.pid, signal.SIGCONT)
        page.wait_for_function("""() => document.body.dataset.link === 'ok' && document.body.dataset.unanswered === undefined
            && document.getElementById('detail-message').className === 'good'""", timeout=WAIT_MS)
        posted = [r.url.split(base, 1)[1] for r in writes if not r.url.endswith("/clear")]
        assert posted == ["/api/v1/tables/1/1/result"], posted
    store = open_event(path)
    try:
        assert len(store.results()) == 1
    finally:
        store.close()


def _ready_to_pair(path, base) -> tuple[dict, dict]:
    """The event's links and the director's key as a header, round 1's one table's result in."""
    links = _links(path, base)
    director = _auth(links["director"].rsplit("/", 1)[1])
    r = httpx.post(f"{base}/api/v1/tables/1/1/result", headers=director, json={"scores": {"NS": 150, "EW": 90}},
                   timeout=60)
    assert r.status_code == 200, r.text
    return links, director


def _last_round(path) -> int:
    store = open_event(path)
    try:
        return store.last_round()
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_pair_next_round_tapped_while_the_server_hangs_pairs_one_round(tmp_path, browser, lang):
    """"Pair the next round" tapped, and tapped again, while the server hangs: said to wait, the
    second tap sends nothing; woken, the server pairs one round, not two.  The write carries its
    id (``cid``): the same request sent once more is answered the same round, and pairs none."""
    words = WORDS[lang]
    path = _named_event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    with _serving(path) as (base, proc):
        links, director = _ready_to_pair(path, base)
        page = _director(browser, f"{links['director']}?lang={lang}", clock=True)
        page.wait_for_function("() => !document.getElementById('pair').disabled", timeout=WAIT_MS)
        writes: list = []
        page.on("request", lambda r: writes.append(r) if r.method == "POST" else None)
        os.kill(proc.pid, signal.SIGSTOP)
        _asleep_tap(page, "/director/pair", lambda: page.click("#pair", timeout=WAIT_MS))
        said = page.wait_for_function("""() => document.body.dataset.unanswered
            && document.getElementById('message').innerText""", timeout=WAIT_MS).json_value()
        assert said == words["waits"], said
        page.click("#pair", timeout=WAIT_MS)  # the director, not knowing, taps again: nothing is sent
        assert page.inner_text("#message") == words["waits"]
        keep(page, f"venue-desk-pair-waiting-{lang}")
        os.kill(proc.pid, signal.SIGCONT)
        page.wait_for_function("""() => document.body.dataset.link === 'ok' && document.body.dataset.unanswered === undefined
            && document.getElementById('message').className === 'good'""", timeout=WAIT_MS)
        paired = [r for r in writes if r.url.endswith("/director/pair")]
        assert len(paired) == 1, [r.url for r in writes]
        body = json.loads(paired[0].post_data)
        assert isinstance(body.get("cid"), str) and len(body["cid"]) >= 8, body
        again = httpx.post(f"{base}/api/v1/director/pair", headers=director, json=body, timeout=60)
        assert again.status_code == 200 and again.json()["round"] == 2, again.text
    assert _last_round(path) == 2  # one round paired, not two


def test_pair_next_round_whose_answer_is_lost_is_sent_again_with_its_id_and_pairs_one_round(tmp_path, browser):
    """The request reaches the server, which pairs round 2, but its answer is lost on the way back
    (the page's request fails): the page sends it again, the same id, until answered, and the
    server answers it round 2, pairing no other.  The page before said "no connection to the
    server" and left the director to tap again, which paired round 3 once round 2 was in."""
    path = _named_event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    with _serving(path) as (base, proc):
        links, director = _ready_to_pair(path, base)
        page = _director(browser, links["director"])
        page.wait_for_function("() => !document.getElementById('pair').disabled", timeout=WAIT_MS)
        sent: list = []

        def lose_the_first_answer(route) -> None:
            sent.append(json.loads(route.request.post_data))
            if len(sent) == 1:
                route.fetch()  # (the server takes it and answers; the answer never reaches the page)
                route.abort("connectionreset")
            else:
                route.continue_()
        page.route("**/api/v1/director/pair", lose_the_first_answer)
        page.click("#pair", timeout=WAIT_MS)
        said = page.wait_for_function("""() => document.getElementById('message').className === 'good'
            && document.body.dataset.unanswered === undefined
            && document.getElementById('message').innerText""", timeout=WAIT_MS).json_value()
        assert said == "round 2 is paired", said
        assert len(sent) == 2 and sent[0]["cid"] == sent[1]["cid"], sent
        assert page.evaluate("() => document.body.dataset.tries") == "2"
    assert _last_round(path) == 2


def test_a_double_tap_before_the_page_says_it_waits_is_one_write(tmp_path, browser):
    """Two taps of one button in the same instant (a double tap), before the page has said that the
    server is not answering: one request, not two writes with an id each.  Before, the second went
    behind the first with an id of its own: "new key" tapped twice made two keys (the link the page
    showed already dead), "pair" tapped twice was sent twice.  The server hangs meanwhile (SIGSTOP)
    so that the first is surely unanswered at the second tap."""
    path = _named_event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    with _serving(path) as (base, proc):
        links, _ = _ready_to_pair(path, base)
        page = _director(browser, links["director"])
        page.click('#tables tr[data-table="1"] button', timeout=WAIT_MS)
        page.wait_for_selector("#detail:not([hidden]) #new-key", timeout=WAIT_MS)
        page.wait_for_function("() => !document.getElementById('pair').disabled", timeout=WAIT_MS)
        writes: list = []
        page.on("request", lambda r: writes.append(r.url.split(base, 1)[1]) if r.method == "POST" else None)
        page.click("#new-key", timeout=WAIT_MS)
        os.kill(proc.pid, signal.SIGSTOP)
        page.evaluate("() => { const yes = document.getElementById('new-key-yes'); yes.click(); yes.click(); }")
        os.kill(proc.pid, signal.SIGCONT)
        page.wait_for_selector("#key-done:not([hidden])", timeout=WAIT_MS)
        page.wait_for_function("() => document.body.dataset.unanswered === undefined", timeout=WAIT_MS)
        link = page.inner_text("#key-link")
        os.kill(proc.pid, signal.SIGSTOP)
        page.evaluate("() => { const pair = document.getElementById('pair'); pair.click(); pair.click(); }")
        os.kill(proc.pid, signal.SIGCONT)
        said = page.wait_for_function("""() => document.getElementById('message').className === 'good'
            && document.body.dataset.unanswered === undefined
            && document.getElementById('message').innerText""", timeout=WAIT_MS).json_value()
        assert said == "round 2 is paired", said
        assert writes == ["/api/v1/tables/1/1/key", "/api/v1/director/pair"], writes
        # The link the page shows is the table's key now (no second key made it dead).
        token = link.rsplit("/t/", 1)[1]
        assert httpx.get(f"{base}/api/v1/tables/1/1", headers=_auth(token), timeout=60).status_code == 200
    assert _last_round(path) == 2
