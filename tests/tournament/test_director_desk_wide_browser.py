"""The director's desk on a wide screen (Playwright driving the system's Chromium): the tables' list
takes the width of a laptop's screen, and a table's seats take two lines, not four, so that twice the
tables fit a screen: partners side by side where the seats are N E S W (N beside S, E beside W), else
half the seats a line in seat order (Castle Rock at five: P1 P2 P3, then P4 P5).  On a phone the
seats stay a name a line, nothing wider than the screen.

Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import keep, playwright_or_skip

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tournament import add_players, create_event, make_settings, pair_next_round  # noqa: E402

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served  # noqa: E402

NAMES = ["María José Fernández", "Bo Andersson", "Cy Twombly", "Di Okonkwo", "Ed Müller-Lüdenscheidt", "Flo",
         "Gus Grissom", "Hal Abelson", "Ike Turner", "Jo March", "Kay Ryan", "Lu Xun", "Mo Farah", "Ned Kelly",
         "Oz Perkins", "Pia Zadora"]
LAPTOP = {"width": 1280, "height": 800}


def _event(tmp_path: Path, game: str, format: str, players: int, size: int | None = None) -> Path:
    path = tmp_path / f"{game}.db"
    store = create_event(path, make_settings("Club night", game, format, table_size=size, seed=4))
    add_players(store, NAMES[:players])
    pair_next_round(store)
    store.close()
    return path


def _seat_lines(page, table: int) -> list[list[str]]:
    """The seats of a table's row as the page lays them out: the seat letters a line, top to bottom,
    each line left to right (by where each seat's box is drawn)."""
    boxes = page.evaluate("""(table) => [...document.querySelectorAll(
        `#tables tbody tr[data-table="${table}"] .seats [data-seat]`)].map((d) => {
          const r = d.getBoundingClientRect(); return [d.dataset.seat, Math.round(r.top), Math.round(r.left)]; })""",
                          table)
    lines: dict[int, list[tuple[int, str]]] = {}
    for seat, top, left in boxes:
        lines.setdefault(top, []).append((left, seat))
    return [[seat for _, seat in sorted(line)] for _, line in sorted(lines.items())]


def _desk(browser, served, viewport: dict):
    page = browser.new_page(viewport=viewport)
    page.goto(served.links["director"])
    page.wait_for_selector("#tables tbody tr .seats [data-seat]", timeout=WAIT_MS)
    return page


def test_partners_side_by_side_on_a_laptop_and_a_name_a_line_on_a_phone(tmp_path, browser):
    with _served(_event(tmp_path, "competitive", "rotating", 16)) as served:
        page = _desk(browser, served, LAPTOP)
        keep(page, "venue-director-desk-wide")
        for table in (1, 2, 3, 4):
            assert _seat_lines(page, table) == [["N", "S"], ["E", "W"]]
        # the list takes the laptop's width (it was held to 760 px), nothing wider than the screen
        width = page.evaluate("() => document.getElementById('tables').getBoundingClientRect().width")
        assert width > 1000
        assert page.evaluate("() => document.documentElement.scrollWidth") <= LAPTOP["width"]
        # each row two lines of names high, not four: the seats' box is two of its lines tall
        high = page.evaluate("""() => { const s = document.querySelector('#tables .seats');
            return s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight); }""")
        assert high < 2.5
        page.close()

        phone = _desk(browser, served, PHONE)
        keep(phone, "venue-director-desk-phone")
        assert _seat_lines(phone, 1) == [["N"], ["E"], ["S"], ["W"]]
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        phone.close()


def test_five_seats_half_a_line_in_seat_order(tmp_path, browser):
    with _served(_event(tmp_path, "castle-rock", "individual", 10, size=5)) as served:
        page = _desk(browser, served, LAPTOP)
        keep(page, "venue-director-desk-wide-five")
        for table in (1, 2):
            assert _seat_lines(page, table) == [["P1", "P2", "P3"], ["P4", "P5"]]
        page.close()
