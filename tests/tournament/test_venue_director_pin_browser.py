"""The director at the table, in a real browser at a phone's 390x844 (Playwright driving the
system's Chromium against the venue served on 127.0.0.1): on a table's own page the director
taps the quiet *Director* button, a wrong PIN is refused in one line, the right one opens the
table's game hand by hand (and clears the table's call); a hand recorded twice is taken back and a hand's score corrected, each
with its reason, and the table's page shows the corrected game at once (the trail, read back from
the event file, names the director at that table).  A correction made from the director's page is
then told on the table's message line (it used to keep its last, stale line).  And the director's
page in Spanish says its table states, progress and buttons in Spanish, with the director's PIN
on it.

The table's other writes are made by an HTTP client through the same API the page uses.
Screenshots go to the test's folder (and ``DOMREC_SCREENSHOTS`` when set), for a person to look at."""

from __future__ import annotations


import pytest

from tournament import open_event
from tournament.event.audit import desk_history

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip, refresh_now

playwright_api = playwright_or_skip(server=False)
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402
from tests.tournament.test_venue_desk_browser import _event  # noqa: E402
from tests.tournament.test_venue_director_browser import (PHONE, WAIT_MS, _Phone, _message, _one_screen_wide,  # noqa: E402
                                                          _row, _shot, _tap)


def _totals(page) -> str:
    return " ".join(page.inner_text("#totals").split())


def test_the_director_corrects_a_hand_on_the_tables_phone(tmp_path, browser):
    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        links = {t["table"]: t for t in served.links["tables"]}
        pin = served.links["director_pin"]
        phone = _Phone(client, links[1])
        phone.post("mode", mode="sheet")
        for n, end in enumerate(["NS 30 EW 0", "NS 0 EW 44", "NS 0 EW 44"], 1):  # hand 2 typed twice
            phone.post("dgn", text=f"hand {n}\nend {end}")
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        context.clock.install()  # (the page's refresh run at once where the test waits for it)
        page = context.new_page()
        page.goto(links[1]["url"] + "?lang=en")
        page.wait_for_selector("#add-sheet-hand", timeout=WAIT_MS)
        assert _totals(page) == "NS 30 EW 88"
        assert page.locator("#td").is_hidden()

        # The table calls the director; the director comes, taps the quiet Director button, which
        # opens the PIN's box; a wrong PIN is refused in one line.
        _tap(page, "#call")
        page.wait_for_selector("#panel .state-called", timeout=WAIT_MS)
        _tap(page, "#director")
        page.wait_for_selector("#td:not([hidden]) #td-pin", timeout=WAIT_MS)
        wrong = str((int(pin) + 1) % 10 ** len(pin)).zfill(len(pin))
        page.fill("#td-pin", wrong)
        _tap(page, "#td-open")
        assert _message(page, "bad", "#td-message") == "that is not the director's PIN"
        assert page.locator("#td-desk").is_hidden()
        _shot(page, tmp_path, "td-wrong-pin", whole=False)

        # The right PIN: the table's game hand by hand, each hand's score in words.
        page.fill("#td-pin", pin)
        _tap(page, "#td-open")
        page.wait_for_selector('#td-hands .hand[data-hand="3"] button.line', timeout=WAIT_MS)
        assert page.input_value("#td-pin") == ""  # not left on the screen
        assert [x.strip() for x in page.locator("#td-hands .hand-score").all_inner_texts()] == [
            "NS 30 · EW 0", "NS 0 · EW 44", "NS 0 · EW 44"]
        _one_screen_wide(page)
        _shot(page, tmp_path, "td-open")
        # The call is cleared here.
        _tap(page, "#td-clear:not([hidden])")
        assert _message(page, "good", "#td-message") == "the call is cleared"
        page.wait_for_selector("#panel .state-called", state="detached", timeout=WAIT_MS)
        assert page.locator("#td-clear").is_hidden()

        # Hand 3 (hand 2 typed twice) taken back, with its reason; the table shows it at once.
        before = int(page.evaluate("() => document.body.dataset.rev"))
        _tap(page, '#td-hands .hand[data-hand="3"] button[data-fix-hand="3"]')
        page.wait_for_selector("#td-fix:not([hidden])", timeout=WAIT_MS)
        assert page.inner_text("#td-fix-remove") == "Take back hand 3"
        _tap(page, "#td-fix-remove")  # no reason yet: refused beside the form, nothing changed
        assert "reason" in _message(page, "bad", "#td-fix-message")
        assert int(page.evaluate("() => document.body.dataset.rev")) == before
        page.fill("#td-fix-reason", "hand 2 was typed twice")
        _shot(page, tmp_path, "td-take-back", whole=False)
        _tap(page, "#td-fix-remove")
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
        assert "hand 3 corrected" in _message(page, "good")
        page.wait_for_function("() => document.querySelectorAll('#td-hands .hand').length === 2", timeout=WAIT_MS)
        assert _totals(page) == "NS 30 EW 44"

        # Hand 2's score tapped and typed again.
        before = int(page.evaluate("() => document.body.dataset.rev"))
        _tap(page, '#td-hands .hand[data-hand="2"] button.line[data-line="2"]')
        page.wait_for_selector("#td-fix:not([hidden])", timeout=WAIT_MS)
        assert page.input_value("#td-fix-text") == "end NS 0 EW 44"
        assert page.inner_text("#td-fix-remove") == "Take back this move"
        page.fill("#td-fix-text", "end NS 0 EW 40")
        page.fill("#td-fix-reason", "the sheet said 40")
        _tap(page, "#td-fix-save")
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
        assert _totals(page) == "NS 30 EW 40"
        page.wait_for_function("() => [...document.querySelectorAll('#td-hands .hand-score')].map((x) => "
                               "x.textContent.trim()).join('|') === 'NS 30 · EW 0|NS 0 · EW 40'", timeout=WAIT_MS)
        _one_screen_wide(page)
        _shot(page, tmp_path, "td-corrected")

        # Done: the PIN is forgotten; the table records on.
        _tap(page, "#td-lock")
        page.wait_for_selector("#td", state="hidden", timeout=WAIT_MS)  # (a tap's click: waited for, not read at once)
        assert page.evaluate("() => document.getElementById('td-hands').children.length") == 0

        # The director corrects hand 1 from the director's page: the table's message line, which
        # told of its own last write, now says the game was corrected (the page refreshes itself).
        director = {"Authorization": f"Bearer {served.links['director'].rsplit('/', 1)[1]}"}
        state = phone.state()
        r = client.post("/api/v1/tables/1/1/correct", headers=director,
                        json={"rev": state["rev"], "hand": 1, "line": 2, "text": "end NS 31 EW 0", "reason": "misread"})
        assert r.status_code == 200, r.text
        refresh_now(context, 5000)  # the table page's next refresh
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {state['rev']}", timeout=WAIT_MS)
        assert _message(page, "good") == "The director corrected hand 1: the game is recorded again."
        assert _totals(page) == "NS 31 EW 40"
        _shot(page, tmp_path, "td-corrected-elsewhere", whole=False)

        # The director's page in Spanish: its PIN, the tables' states and buttons in Spanish.
        desk = context.new_page()
        desk.goto(served.links["director"] + "?lang=es")
        desk.wait_for_selector(f'{_row(desk, 1)}[data-status="playing"]', timeout=WAIT_MS)
        assert desk.text_content("#director-pin-value") == pin  # (folded away until tapped)
        assert desk.inner_text("#sound") == "Sonido de las llamadas: sí"  # said as the page loads
        row = desk.inner_text(f"{_row(desk, 1)} td:nth-child(3)")
        assert row.startswith("en juego · 2 manos"), row
        assert desk.inner_text(f"{_row(desk, 2)} td:nth-child(3)").startswith("sin empezar")
        assert desk.inner_text(f"{_row(desk, 1)} td:last-child button") == "Abrir"  # (a wrong PIN above: its clear button too)
        assert desk.inner_text("#summary").split() == ["ronda", "1", "confirmadas", "0/2"]
        _tap(desk, f"{_row(desk, 1)} td:last-child button")
        desk.wait_for_selector("#detail:not([hidden])", timeout=WAIT_MS)
        assert desk.inner_text("#detail-title") == "Ronda 1, mesa 1: en juego"
        _shot(desk, tmp_path, "td-desk-es")
        context.close()
    store = open_event(path)
    try:
        trail = [(d.by, d.reason) for d in desk_history(store) if d.action == "hand_corrected"]
    finally:
        store.close()
    at_table = "the director at table 1/1 (director's PIN)"
    assert trail == [(at_table, "hand 2 was typed twice"), (at_table, "the sheet said 40"), ("the director's page", "misread")]
