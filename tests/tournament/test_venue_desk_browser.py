"""What issue 34 asked of the tables and the director's desk, seen in a real browser at a phone's
390x844 (Playwright driving the system's Chromium against the venue served on 127.0.0.1):

* a table sees its earlier hands while it plays, and its move list wraps between moves, never
  through one;
* scores only, in Spanish: a refused hand's score is told in words, without line:column or the
  rule's tag; after the last confirmation the page says where each player sits next, and shows
  it by itself once the next round is paired;
* the director's page rings when a table calls (and counts the calls in the tab's title), the
  sound is turned off and stays off after a reload; a quiet table is flagged; a hand's score is
  shown in words ("NS 0 · EW 44") and corrected by tapping its line, with a reason that the
  event's trail keeps.

The table phones that are not on screen are played by an HTTP client through the same API.
Screenshots go to the test's folder (and ``DOMREC_SCREENSHOTS`` when set), for a person to look at."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from domrec.session import PARTS, requests_for
from domrec.simulate import play_game

from tournament import open_event
from tournament.event.audit import desk_history
from tournament.event.tables import table_record

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip, refresh_now, with_clock

playwright_api = playwright_or_skip(server=False)
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402
from tests.tournament.helpers import hand_by_hand  # noqa: E402
from tests.tournament.test_venue_director_browser import (PHONE, WAIT_MS, _Phone, _row, _shot,  # noqa: E402
                                                          _one_screen_wide, _tap)
from tournament import add_players, create_event, make_settings, pair_next_round  # noqa: E402


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Quinevere Featherstonehaugh"])
    pair_next_round(store)
    store.close()
    return path


def _game(path: Path, table: int):
    store = open_event(path)
    try:
        t = next(x for x in store.tables(1) if x.number == table)
        return play_game(table_record(store.settings, t, {p.id: p for p in store.players()}), random.Random(11))
    finally:
        store.close()


def test_the_tables_and_the_desk_on_a_phone(tmp_path, browser):
    path = _event(tmp_path)
    game = _game(path, 1)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        links = {t["table"]: t for t in served.links["tables"]}
        phones = {n: _Phone(client, link) for n, link in links.items()}
        # (the pages' clock: their refresh every few seconds is run at once where a test waits for it)
        context = with_clock(browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True))

        # Table 1 plays by play: its first hand closed, the second under way.
        hands = hand_by_hand(requests_for(game))
        starts = [k for k, x in enumerate(hands) if x.startswith("hand ")]
        assert len(starts) >= 2, "the game has one hand only"
        phones[1].post("mode", mode="play")
        for text in hands[:starts[1]]:
            phones[1].post("dgn", text=text)
        second = hands[starts[1]].split("\n")
        movelines = [x for x in second if x.split()[0] not in PARTS]
        closing = [x for x in second if x.split()[0] in PARTS and x.split()[0] not in ("hand", "deal")]
        phones[1].post("dgn", text="\n".join([x for x in second if x.split()[0] in ("hand", "deal")]))
        for word in " ".join(movelines).split()[:14]:
            phones[1].post("dgn", text=word)
        table1 = context.new_page()
        table1.goto(links[1]["url"] + "?lang=en")
        table1.wait_for_selector("#earlier:not([hidden]) table.result", timeout=WAIT_MS)
        rows = table1.locator("#earlier-table tr").all_inner_texts()
        assert rows[1].split()[:2] == ["hand", "1"] and rows[-1].split()[0] == "total"
        moves = table1.locator("#moves .mv")
        assert moves.count() >= 10
        # Each move is one unit on one line: the list wraps between moves, never through one.
        assert table1.evaluate("() => [...document.querySelectorAll('#moves .mv')].every("
                               "(m) => m.getClientRects().length === 1 && m.getBoundingClientRect().height < 30)")
        _one_screen_wide(table1)
        _shot(table1, tmp_path, "desk-table-earlier-hands")

        # Table 2 records scores only, in Spanish: a wrong score is told in words.
        table2 = context.new_page()
        table2.goto(links[2]["url"] + "?lang=es")
        _tap(table2, "#mode-sheet")
        table2.wait_for_selector("#score-NS", timeout=WAIT_MS)
        table2.fill("#score-NS", "10")
        table2.fill("#score-EW", "20")
        _tap(table2, "#add-sheet-hand")
        table2.wait_for_selector("#message.bad", timeout=WAIT_MS)
        said = table2.inner_text("#message")
        assert said.startswith("se declaran puntos para las dos parejas (NS 10, EW 20)"), said
        assert not re.search(r"\d+:\d+", said) and "[" not in said
        _shot(table2, tmp_path, "desk-sheet-refused-es")
        for n, (ns, ew) in enumerate([(0, 44), (30, 0), (0, 44)], 1):
            before = int(table2.evaluate("() => document.body.dataset.rev"))
            table2.fill("#score-NS", str(ns))
            table2.fill("#score-EW", str(ew))
            _tap(table2, "#add-sheet-hand")
            table2.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
        assert table2.locator("#earlier-table tr").count() == 5  # the heading, three hands, the totals

        # The director's page: table 1 calls; the page rings and the title counts the call.
        desk = context.new_page()
        desk.goto(served.links["director"] + "?lang=en")
        desk.wait_for_selector(f'{_row(desk, 1)}[data-status="playing"]', timeout=WAIT_MS)
        title = desk.title()
        phones[1].post("call")
        refresh_now(context, 3000)  # the desk's next refresh
        desk.wait_for_function("() => document.body.dataset.rings === '1'", timeout=WAIT_MS)
        assert desk.title() == "calls: 1 · " + title
        assert desk.inner_text("#sound") == "Sound of calls: on"
        _shot(desk, tmp_path, "desk-called")
        _tap(desk, "#sound")
        assert desk.inner_text("#sound") == "Sound of calls: off"
        desk.reload()
        desk.wait_for_selector(f'{_row(desk, 1)}[data-called="yes"]', timeout=WAIT_MS)
        assert desk.inner_text("#sound") == "Sound of calls: off"  # remembered by this browser
        assert desk.title() == "calls: 1 · " + title

        # Table 2's hands with their scores in words; hand 3's score corrected by tapping its line.
        _tap(desk, f"{_row(desk, 2)} button")
        desk.wait_for_selector('#detail-moves .hand[data-hand="3"] button.line', timeout=WAIT_MS)
        assert [x.strip() for x in desk.locator("#detail-moves .hand-score").all_inner_texts()] == [
            "NS 0 · EW 44", "NS 30 · EW 0", "NS 0 · EW 44"]
        _tap(desk, '#detail-moves .hand[data-hand="3"] button.line[data-line="2"]')
        desk.wait_for_selector("#fix-form:not([hidden])", timeout=WAIT_MS)
        assert desk.input_value("#fix-text") == "end NS 0 EW 44"
        desk.fill("#fix-text", "end NS 0 EW 40")
        desk.fill("#fix-reason", "the sheet said 40")
        _shot(desk, tmp_path, "desk-correcting", whole=False)
        _tap(desk, "#fix-save")
        desk.wait_for_selector("#detail-message.good", timeout=WAIT_MS)
        assert "hand 3 corrected" in desk.inner_text("#detail-message")
        assert desk.get_attribute("#dir-score-EW", "placeholder") == "84"  # the new totals, greyed in the empty box
        desk.wait_for_function("() => [...document.querySelectorAll('#detail-moves .hand-score')].map((x) => "
                               "x.textContent.trim()).join('|') === 'NS 0 · EW 44|NS 30 · EW 0|NS 0 · EW 40'",
                               timeout=WAIT_MS)
        _one_screen_wide(desk)
        _shot(desk, tmp_path, "desk-corrected")

        # A table gone quiet is flagged (the overview as the server would send it 12 minutes on).
        def quiet(route):
            data = route.fetch().json()
            for t in data["tables"]:
                if t["table"] == 2:
                    t["idle"], t["idle_minutes"] = True, 12
            route.fulfill(body=json.dumps(data), content_type="application/json")

        desk.route("**/api/v1/director", quiet)
        refresh_now(context, 3000)
        desk.wait_for_selector(f'{_row(desk, 2)}[data-idle="yes"] .state-idle', timeout=WAIT_MS)
        assert desk.inner_text(f"{_row(desk, 2)} .state-idle") == "no move for 12 minutes"
        _shot(desk, tmp_path, "desk-idle")
        desk.unroute("**/api/v1/director")

        # Both games end and are confirmed; table 2's page says where to go once round 2 is paired.
        state = phones[2].state()
        n = len(state["game"]["hands"])
        while not state["game"]["over"]:
            n += 1
            state = phones[2].post("dgn", text=f"hand {n}\nend NS 60 EW 0")
        phones[2].post("confirm", side="NS")
        phones[2].post("confirm", side="EW")
        refresh_now(context, 5000)  # the table's next refresh
        table2.wait_for_selector("#next", timeout=WAIT_MS)
        assert "aún no está sorteada" in table2.inner_text("#next")
        rest = hands[starts[1]:]
        left = " ".join(movelines).split()[14:]
        for k in range(0, len(left), 40):
            phones[1].post("dgn", text=" ".join(left[k:k + 40]))
        if closing:
            phones[1].post("dgn", text="\n".join(closing))
        for text in rest[1:]:
            phones[1].post("dgn", text=text)
        phones[1].post("confirm", side="NS")
        phones[1].post("confirm", side="EW")
        director = {"Authorization": f"Bearer {served.links['director'].rsplit('/', 1)[1]}"}
        assert client.post("/api/v1/director/pair", headers=director, json={}).status_code == 200
        refresh_now(context, 5000)
        table2.wait_for_selector("#next .next-seats li", timeout=WAIT_MS)
        seats = table2.locator("#next .next-seats li").all_inner_texts()
        assert len(seats) == 4 and all(re.search(r"→ mesa \d+, asiento [NESW]$", x) for x in seats), seats
        _one_screen_wide(table2)
        _shot(table2, tmp_path, "desk-next-seats-es")
        context.close()
    store = open_event(path)
    trail = [d for d in desk_history(store) if d.action == "hand_corrected"]
    assert [(d.reason, d.detail["was"], d.detail["now"]) for d in trail] == [
        ("the sheet said 40", "end NS 0 EW 44", "end NS 0 EW 40")]
    store.close()
