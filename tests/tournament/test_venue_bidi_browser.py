"""Issue 27, point 4, in a real browser: the names the venue's scripts draw are isolated, each in a
``<bdi>`` of its own, and shown without direction controls, so that a player stored with a
right-to-left override (``\\u202e1 reyalP``, which would show as "Player 1") or a Hebrew name
never reorders the seats and the other names around them.

The table page (a phone, 390x844) and the director's page (a laptop, 1280x900), served by
``tournament serve``'s application on 127.0.0.1 to Playwright driving the system's Chromium.
Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set.  Slow, and skipped with the
reason where Chromium or Playwright is missing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from domrec.errors import BIDI_CONTROLS, plain_direction

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.tables import table_record

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue  # noqa: E402

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
WAIT_MS = 60_000
RLO = "\u202e1 reyalP"
HEBREW = "\u05e9\u05e8\u05d4 \u05dc\u05d5\u05d9"  # a right-to-left name of two words


def _event(tmp_path: Path) -> tuple[Path, list[str]]:
    """One table of four; Bo's name then holds an override and Cy's is Hebrew (written into the
    file, as an event made before overrides were refused).  Returns the names by seat, as shown."""
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE players SET name = ? WHERE name = 'Bo'", [RLO])
    db.execute("UPDATE players SET name = ? WHERE name = 'Cy'", [HEBREW])
    db.commit()
    db.close()
    store = open_event(path)
    table = store.tables(1)[0]
    record = table_record(store.settings, table, {p.id: p for p in store.players()})
    store.close()
    return path, [f"{p.seat} {plain_direction(p.name)}" for p in record.players]


def _no_controls(text: str) -> bool:
    return not any(ch in BIDI_CONTROLS for ch in text)


def test_the_table_and_the_director_isolate_every_name(tmp_path, browser):
    path, shown = _event(tmp_path)
    assert "1 reyalP" in " ".join(shown) and HEBREW in " ".join(shown)
    served = BackgroundVenue(path, rate=1e9, burst=10 ** 9)
    try:
        page = browser.new_page(viewport=PHONE)
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_selector("#players bdi", timeout=WAIT_MS)
        # Each player a line: the seat, then the name in its own <bdi>, in seat order.
        rows = page.evaluate("() => [...document.querySelectorAll('#players > div')].map(d => ["
                             "d.firstChild.textContent, d.querySelector('bdi').textContent])")
        assert [seat + name for seat, name in rows] == shown
        lines = page.inner_text("#players").replace(" \u25c0", "").splitlines()
        assert lines == shown  # as read: seat, name; the Hebrew name moves nothing else
        title = page.evaluate("() => document.querySelector('#title bdi').textContent")
        assert title == "Club night" and page.inner_text("#title").startswith("Club night")
        assert _no_controls(page.evaluate("() => document.body.textContent"))
        # The lead list (a <select> holds plain text only): the names without controls, last.
        page.click("#mode-play", timeout=WAIT_MS)
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
        options = page.evaluate("() => [...document.querySelectorAll('#lead option')].map(o => o.textContent)")
        assert options[1:] == [f"lead: {line}" for line in shown]
        assert _no_controls(page.evaluate("() => document.body.textContent"))
        keep(page, "venue-bidi-table")

        page = browser.new_page(viewport=LAPTOP)
        page.goto(served.links["director"])
        page.wait_for_selector("#tables tbody tr td bdi", timeout=WAIT_MS)
        cells = page.evaluate("() => [...document.querySelectorAll('#tables tbody tr:first-child td:nth-child(2) .seats > div')]"
                              ".map(d => [d.firstChild.textContent, d.querySelector('bdi').textContent, d.innerText])")
        assert [seat + name for seat, name, _ in cells] == shown
        # each seat's line reads as typed (on a laptop two seats a line: partners side by side)
        assert [line for _, _, line in cells] == shown
        assert _no_controls(page.evaluate("() => document.body.textContent"))
        keep(page, "venue-bidi-director")
    finally:
        served.close()


HEBREW_EVENT = "\u05dc\u05d9\u05dc \u05de\u05d5\u05e2\u05d3\u05d5\u05df 5"  # "club night 5", right to left


def test_the_event_name_is_isolated_on_the_server_made_pages_too(tmp_path, browser):
    """Issue 35, point 6: the event's name as the server writes it into the venue's pages (the
    director's heading, which the script never draws again; the table's heading before the script
    runs; the refusal of an unknown key) is a <bdi> of its own, as the scripts draw it, and the
    words after it stay where they are read: to its right, on the heading's line."""
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings(HEBREW_EVENT, "competitive", "rotating", seed=4))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    served = BackgroundVenue(path, rate=1e9, burst=10 ** 9)

    def isolated_then(page, after: str) -> None:
        # The heading begins with the name's <bdi>; the text after it is drawn to the right of the
        # whole name (the page is left to right).
        found = page.evaluate("""() => {
            const h1 = document.querySelector('h1');
            const bdi = h1.querySelector('bdi');
            if (!bdi) return null;
            const before = document.createRange();
            before.setStart(h1, 0);
            before.setEndBefore(bdi);
            const rest = document.createRange();
            rest.setStartAfter(bdi);
            rest.setEndAfter(h1.lastChild);
            return {first: before.toString() === '', name: bdi.textContent, rest: rest.toString(),
                    nameRight: bdi.getBoundingClientRect().right,
                    restLeft: Math.min(...[...rest.getClientRects()].map(r => r.left))};
        }""")
        assert found is not None, page.inner_html("h1")
        assert found["first"] and found["name"] == HEBREW_EVENT, (page.inner_html("h1"), found)
        assert found["rest"] == after, found
        assert found["restLeft"] >= found["nameRight"] - 1, found

    try:
        page = browser.new_page(viewport=LAPTOP)
        page.goto(served.links["director"])
        page.wait_for_selector("#tables tbody tr td bdi", timeout=WAIT_MS)
        isolated_then(page, " · the director's desk")
        keep(page, "venue-bidi-director-event")

        quiet = browser.new_context(java_script_enabled=False, viewport=PHONE)
        page = quiet.new_page()
        page.goto(served.links["tables"][0]["url"])
        isolated_then(page, " · round 1 · table 1")
        page.goto(served.links["director"].rsplit("/", 1)[0] + "/not-a-key")
        isolated_then(page, "")
        quiet.close()

        page = browser.new_page(viewport=PHONE)  # the script draws the table's heading the same way
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_selector("#players bdi", timeout=WAIT_MS)
        isolated_then(page, " · round 1 · table 1")
    finally:
        served.close()


def test_a_sentence_of_the_servers_naming_a_player_isolates_the_name(tmp_path, browser):
    """Issue 35, point 6: the one-line messages the scripts draw (the server's sentences: a side
    confirmed, a result entered) put each player's name they hold in a <bdi> of its own, without
    direction controls, so that a right-to-left name never moves the words and numbers after it."""
    path, shown = _event(tmp_path)
    served = BackgroundVenue(path, rate=1e9, burst=10 ** 9)
    said = f"{HEBREW} confirmed for EW, 12 points; {RLO} next"
    draw = """(text) => {
        window.venue.say(text, 'good');
        const m = document.getElementById('message');
        return {names: [...m.querySelectorAll('bdi')].map(b => b.textContent), text: m.textContent};
    }"""
    try:
        for url, ready, viewport in ((served.links["tables"][0]["url"], "#players bdi", PHONE),
                                     (served.links["director"], "#tables tbody tr td bdi", LAPTOP)):
            page = browser.new_page(viewport=viewport)
            page.goto(url)
            page.wait_for_selector(ready, timeout=WAIT_MS)
            got = page.evaluate(draw, said)
            assert got["names"] == [HEBREW, "1 reyalP"], got
            assert got["text"] == plain_direction(said) and _no_controls(got["text"])
            # The words after the Hebrew name stay after it: drawn to its right on a left-to-right page.
            boxes = page.evaluate("""() => {
                const bdi = document.querySelector('#message bdi');
                const rest = document.createRange();
                rest.setStartAfter(bdi);
                rest.setEnd(bdi.nextSibling, 10);
                return [bdi.getBoundingClientRect().right, rest.getClientRects()[0].left];
            }""")
            assert boxes[1] >= boxes[0] - 1, boxes
    finally:
        served.close()
