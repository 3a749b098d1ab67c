"""The hall's public pages in a real browser (Playwright driving the system's Chromium), as a
review at a phone (390x844), a desktop (1280x800) and the projector (1920x1080), in English and
Spanish, found them:

* the crosstable on a phone scrolled sideways with no sign that it did (a player saw the first
  columns and took them for the whole table): it now says so in words, shades the edge it
  scrolls towards, and keeps the name column in view while it scrolls;
* right-to-left names on the projector's *find your table* list: in the dense layout an Arabic
  or Hebrew name was set against the right of its column (far from its table, away from every
  other name); the range of names a screen runs from and to, and the partners of the plain
  layout (and of the phones' *find your table*), were not isolated, so two right-to-left names
  side by side swapped places;
* words cut on the projector: a Spanish bye (*descanso*) in the dense list, the provisional note
  beside the standings' heading, the duplicate standings' *Matchpoints* heading.

Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set.  Slow, and skipped with the
reason where Chromium or Playwright is missing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.browser import keep, playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)

from tournament import add_players, create_event, make_settings, pair_next_round  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

from .test_projector_fit_browser import CUT_HEADINGS, CUT_ROWS  # noqa: E402
from .test_public_browser import LAPTOP, PHONE, PROJECTOR, WAIT_MS  # noqa: E402
from .test_teams import run  # noqa: E402

LONG_NAME = "Maximiliano Alejandro de la Santísima Trinidad Fernández-Villaverde"
NOTE = {"en": "scroll sideways", "es": "hacia los lados"}

#: The crosstable's scrolling box: how far it scrolls, whether its note is shown and what it says,
#: whether its edges are shaded.
SCROLL = """(sel) => { const box = document.querySelector(sel).closest('.scroll');
  const note = box.previousElementSibling && box.previousElementSibling.matches('.scroll-note')
    ? box.previousElementSibling : null;
  return {over: box.scrollWidth - box.clientWidth,
          note: note && note.getBoundingClientRect().height > 0 && getComputedStyle(note).display !== 'none'
                ? note.textContent.trim() : null,
          shade: getComputedStyle(box).backgroundImage}; }"""

#: The first body row's name cell, against its scrolling box, with the box scrolled to ``x``.
NAME_AT = """([sel, x]) => { const box = document.querySelector(sel).closest('.scroll'); box.scrollLeft = x;
  const cell = document.querySelector(sel + ' tbody tr td.name').getBoundingClientRect(), b = box.getBoundingClientRect();
  return {scrolled: box.scrollLeft, left: cell.left - b.left, right: b.right - cell.right, width: cell.width}; }"""


def _crosstable_checks(page, sel: str, lang: str) -> bool:
    """A crosstable at a phone: where it is wider than the phone it says it scrolls, shades its
    edge, and keeps the names in view.  Whether it scrolled."""
    got = page.evaluate(SCROLL, sel)
    if got["over"] <= 0:
        return False
    assert got["note"] is not None and NOTE[lang] in got["note"].lower(), got
    assert "gradient" in got["shade"], got
    at_start = page.evaluate(NAME_AT, [sel, 0])
    at_end = page.evaluate(NAME_AT, [sel, 100_000])
    assert at_end["scrolled"] > 0, at_end
    # The name stays in view, whole: once the table is scrolled past it, at the box's left edge.
    expected = max(0.0, at_start["left"] - at_end["scrolled"])
    assert abs(at_end["left"] - expected) <= 1 and at_end["right"] >= 0, (at_start, at_end)
    # ...and leaves most of the phone to the rounds.
    assert at_end["width"] <= PHONE["width"] * 0.45, at_end
    page.evaluate(NAME_AT, [sel, 0])
    return True


def test_the_crosstable_on_a_phone_says_it_scrolls_and_keeps_the_names(tmp_path, browser):
    event = tmp_path / "night.db"
    run("simulate", event, "--players", "16", "--rounds", "5", "-q")
    db = sqlite3.connect(event)  # a long name, as a Spanish club's list has them
    db.execute("UPDATE players SET name = ? WHERE id = 3", [LONG_NAME])
    db.commit()
    db.close()
    teams = tmp_path / "copa.db"
    run("simulate", teams, "--format", "teams", "--teams", "8", "--rounds", "3", "-q")
    for path in (event, teams):
        with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
            page = browser.new_page(viewport=PHONE)  # (one page, each view loaded into it afresh)
            for lang in ("en", "es"):
                page.set_viewport_size(PHONE)
                page.goto(served.base_url + f"/crosstable?lang={lang}")
                page.wait_for_selector("table.cross", timeout=WAIT_MS)
                count = page.locator("table.cross").count()
                scrolled = []
                for k in range(count):
                    page.evaluate("(k) => document.querySelectorAll('table.cross')[k].id = 'x' + k", k)
                    scrolled.append(_crosstable_checks(page, f"#x{k}", lang))
                assert scrolled[-1], (path.stem, lang)  # the players' (the pairs') crosstable is wider than a phone
                assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
                keep(page, f"hall-crosstable-{path.stem}-phone-{lang}")
            # At a desktop the table fits: it neither scrolls nor says it does.
            page.set_viewport_size(LAPTOP)
            page.goto(served.base_url + "/crosstable?lang=es")
            page.wait_for_selector("table.cross", timeout=WAIT_MS)
            for k in range(page.locator("table.cross").count()):
                page.evaluate("(k) => document.querySelectorAll('table.cross')[k].id = 'x' + k", k)
                got = page.evaluate(SCROLL, f"#x{k}")
                assert got["over"] <= 0 and got["note"] is None, got
            keep(page, f"hall-crosstable-{path.stem}-desktop")
            page.close()


HEBREW, HEBREW_2 = "\u05e9\u05e8\u05d4 \u05dc\u05d5\u05d9", "\u05e2\u05de\u05d9\u05ea 2"
ARABIC, ARABIC_12 = "\u0645\u062d\u0645\u062f \u0639\u0628\u062f \u0627\u0644\u0631\u062d\u0645\u0646", "\u0639\u0627\u0626\u0634\u0629 12"
RTL = [HEBREW, ARABIC, HEBREW_2, ARABIC_12, "Ana", "Bo Smith", "\u05d9\u05d5\u05e1\u05e3 \u05d1\u05df \u05d3\u05d5\u05d3", "Di"]

#: Every name of every find screen: where its text starts and ends against its own box, and the
#: row's left edge.
NAMES = """() => [...document.querySelectorAll('.screen ul.find li:not(.head) .who')].map(e => {
  const r = document.createRange(); r.selectNodeContents(e);
  const t = [...r.getClientRects()], box = e.getBoundingClientRect(), row = e.closest('li').getBoundingClientRect();
  return {text: e.textContent, start: Math.min(...t.map(x => x.left)) - box.left, boxLeft: box.left - row.left}; })"""

#: The names a screen runs from and to, as drawn: each one's box (an isolated name), left to right.
RANGES = """() => [...document.querySelectorAll('.screen h2 .range:not(.prov)')].map(e => ({
  names: [...e.querySelectorAll('bdi')].map(b => [b.textContent, b.getBoundingClientRect().left])}))"""


def _event(path: Path, names: list[str]) -> Path:
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, names)
    pair_next_round(store)
    store.close()
    return path


def _show_every_screen(page) -> None:
    """Every screen laid out at once (measured, never paged through): the page's clock stopped."""
    page.evaluate("() => document.querySelectorAll('.screen').forEach(s => s.classList.add('on'))")


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=["1920x1080", "1280x720"])
def test_right_to_left_names_on_the_projectors_find_list(tmp_path, browser, size):
    width, height = size
    dense = _event(tmp_path / "dense.db", RTL + [f"Player {i}" for i in range(40)])
    plain = _event(tmp_path / "plain.db", RTL)
    for path in (dense, plain):
        with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.clock.install()
            page.goto(served.base_url + "/projector")
            page.wait_for_selector(".screen.on", timeout=WAIT_MS)
            assert (page.locator(".screen ul.find.dense").count() > 0) == (path == dense)
            _show_every_screen(page)
            names = page.evaluate(NAMES)
            assert {n["text"] for n in names} >= set(RTL), names
            # Every name, left to right or right to left, starts at its column's left edge, as
            # the rest of the list does (a right-to-left name was pushed to the right of its column).
            assert [n["text"] for n in names if abs(n["start"]) > 1 or abs(n["boxLeft"]) > 1] == [], names
            # The screen's range: each name isolated, the first drawn to the left of the last.
            for r in page.evaluate(RANGES):
                assert len(r["names"]) == 2, r
                assert r["names"][0][1] < r["names"][1][1], r
            if path == plain:
                # Partners: each isolated, after the word "with".
                partners = page.evaluate("() => [...document.querySelectorAll('.screen ul.find .with')].map(w => ["
                                         "w.querySelectorAll('bdi').length, w.textContent.trim()])")
                assert partners and all(n == 1 for n, _ in partners), partners
            page.evaluate("""() => { const ss = [...document.querySelectorAll('.screen')];
                const rtl = ss.filter(s => s.querySelector('ul.find') && /[\u0590-\u06ff]/.test(s.textContent)).pop();
                ss.forEach(s => { s.classList.toggle('on', s === rtl); s.style.animation = 'none';
                                  s.style.visibility = s === rtl ? 'visible' : 'hidden'; }); }""")  # one screen, to look at
            keep(page, f"hall-projector-rtl-{path.stem}-{width}x{height}")
            page.close()


#: The phone's find-your-table: each row's opponents, each name's box left to right.
OPPONENTS = """() => [...document.querySelectorAll('#seating li')].map(li => {
  const vs = li.querySelector('.vs');
  return vs ? [...vs.querySelectorAll('bdi')].map(b => [b.textContent, b.getBoundingClientRect().left]) : null; })"""


def test_the_phones_find_list_isolates_partners_and_opponents(tmp_path, browser):
    """Two right-to-left opponents side by side ("against A, B") were one right-to-left run: B
    was drawn first, and a reader took the list backwards."""
    path = _event(tmp_path / "plain.db", RTL)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        page = browser.new_page(viewport=PHONE)
        page.goto(served.base_url + "/")
        page.wait_for_selector("#seating li", timeout=WAIT_MS)
        rows = [r for r in page.evaluate(OPPONENTS) if r is not None]
        assert rows and all(len(r) == 2 for r in rows), rows
        assert all(r[0][1] < r[1][1] for r in rows), rows  # the first named is drawn first (left)
        assert page.evaluate("() => [...document.querySelectorAll('#seating .with')].every("
                             "w => w.querySelectorAll('bdi').length === 1)")
        keep(page, "hall-find-rtl-phone")
        page.close()


def test_the_projectors_words_are_never_cut_in_spanish(tmp_path, browser):
    """A team event's round with byes, its standings provisional; a duplicate event's standings."""
    teams = tmp_path / "copa.db"
    run("simulate", teams, "--format", "teams", "--teams", "9", "--rounds", "3", "-q")
    run("pair", teams)  # round 4 paired, nothing in: a team has a bye, the standings are provisional
    dup = tmp_path / "dup.db"
    run("simulate", dup, "--format", "duplicate", "--tables", "7", "-q")
    for path in (teams, dup):
        with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
            page = browser.new_page()  # (one page, each view loaded into it afresh)
            page.clock.install()  # (before any load: every document of the page has its clock stopped)
            for lang in ("en", "es"):
                for view in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}):
                    page.set_viewport_size(view)
                    page.goto(served.base_url + f"/projector?lang={lang}")
                    page.wait_for_selector(".screen.on", timeout=WAIT_MS)
                    _show_every_screen(page)
                    assert page.evaluate(CUT_ROWS) == [], (path.stem, lang, view)
                    assert page.evaluate(CUT_HEADINGS) == [], (path.stem, lang, view)
                    cut_notes = page.evaluate("() => [...document.querySelectorAll('.screen h2 .prov')]"
                                              ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
                    assert cut_notes == [], (path.stem, lang, view)
            page.close()
