"""The projector's *Find your table* at a projector's size (1920x1080, 1280x720): the names fill the
screen in as many columns as fit, the whole list on as few screens as it can be, every column of a
screen about as long as the others, the type never smaller than it was (36 units of the 1920x1080
canvas), bigger where the screen has room (public.GROW).

32 players of long names took three screens of one column with a quarter of each screen empty
(rows 1.5 em high: 15 a column, the 32 spread 11, 11 and 10), and 32 of ordinary names two screens
of a full column beside a column of one name.  The narrow columns' rows are now 1.25 em high (18 a
column) and a screen's columns are even: 32 long names are two screens of 16, 32 ordinary ones one
screen of two columns of 16 (the first in type of 34 units: now 36 and more).  Counted through the page's DOM: each name's box, its column by its
left edge; no timing.

Slow, and skipped with the reason where Chromium or Playwright is missing.  Screenshots kept under
``DOMREC_SCREENSHOTS``."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.browser import keep, playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip()

from tournament import add_players, create_event, make_settings, pair_next_round  # noqa: E402
from tournament.event.public import public_data  # noqa: E402
from tournament.pages import public as pages  # noqa: E402

SIZES = [(1920, 1080), (1280, 720)]

#: Long names (30 characters and more), accented, some told apart by one confusable letter (l, I, 1).
LONG = [f"{first} {last}" for first, last in zip(
    ["María Fernanda", "José Guadalupe", "Guillermina", "Maximiliano", "Wenceslao Íñigo", "Ana Lucía",
     "Concepción", "Björn Ólafur", "Łukasz Wojciech", "Saoirse Nuala", "Zoë Ángeles", "Ñuño Valentín",
     "Illiana Isolda", "I1liana Isolda", "Ilse Lilliana", "Ilse LiIliana"] * 2,
    ["Hernández-Villalobos", "Rodríguez Montenegro", "Peña-Santamaría Ibáñez", "Domínguez Wolfenstein",
     "Gómez de la Torre", "O'Sullivan Lindqvist", "Kowalczyk Illingworth", "Echeverría Fernández"] * 2
    + ["Villaverde Montalbán", "de la Cruz Echeverría", "Santamaría Peñalver", "Wolfenstein Domínguez",
       "Lindqvist O'Sullivan", "Illingworth Kowalczyk", "Fernández Echeverría", "Montenegro Rodríguez"] * 2)]
#: Ordinary names: a first name and a surname.
ORDINARY = [f"{first} {last}" for last in ("Ruiz", "Chen", "Díaz", "Okafor", "Marte", "Soto", "Peña", "Vega")
            for first in ("Ana", "Bo", "Carmen", "Dani", "Elena", "Félix", "Gus", "Hilda", "Iván", "Juana",
                          "Kemal", "Lucía", "Marco", "Nora", "Omar")]

#: Each screen of *find your table* in turn made the one shown (its paging stopped): its names'
#: boxes (a column is the names that start at one left edge), their type, and the stage's box.
SCREENS = """() => { const ss = [...document.querySelectorAll('.screen')], out = [];
  for (const s of ss) {
    ss.forEach(o => { o.classList.toggle('on', o === s); o.style.animation = 'none';
                      o.style.visibility = o === s ? 'visible' : 'hidden'; });
    if (!s.querySelector('ul.find')) continue;
    const stage = s.getBoundingClientRect();
    const names = [...s.querySelectorAll('ul.find li:not(.head) .who')].map(e => {
      const r = e.getBoundingClientRect(), row = e.closest('li').getBoundingClientRect();
      return {text: e.textContent, left: Math.round(r.left), top: r.top, bottom: row.bottom, right: row.right,
              cut: e.scrollWidth > e.clientWidth + 1, font: parseFloat(getComputedStyle(e).fontSize)}; });
    const columns = {};
    for (const n of names) (columns[n.left] = columns[n.left] || []).push(n);
    out.push({index: Number(s.dataset.screen), names,
              columns: Object.keys(columns).map(Number).sort((a, b) => a - b).map(k => columns[k].length),
              stage: {left: stage.left, right: stage.right, top: stage.top, bottom: stage.bottom}});
  }
  return out; }"""

#: The screen ``k`` made the one shown.
SHOW = """(k) => document.querySelectorAll('.screen').forEach((o, i) => {
  o.style.animation = 'none'; o.classList.toggle('on', i === k); o.style.visibility = i === k ? 'visible' : 'hidden'; })"""


def _page_file(folder: Path, names: list[str], lang: str = "en") -> Path:
    """The projector's page of a club night whose first round is paired, written as a file."""
    settings = make_settings("Club night", "competitive", "rotating", seed=4)
    store = create_event(folder / f"club-{len(names)}-{lang}.db", settings)
    try:
        add_players(store, names)
        pair_next_round(store)
        data = public_data(store)
    finally:
        store.close()
    path = folder / f"projector-{len(names)}-{lang}.html"
    path.write_text(pages.projector_html(data, pages.Site(served=False, has_pages=False), lang=lang), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


def _screens(page, path: Path, size: tuple[int, int], name: str) -> list[dict]:
    """The find screens of ``path`` at ``size``, each checked: every name whole, in the page's
    type or bigger, inside the stage, no two names' boxes overlapping, the columns even."""
    width, height = size
    unit = min(width / 1920, height / 1080)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(path.as_uri())
    screens = page.evaluate(SCREENS)
    assert screens
    for s in screens:
        names = s["names"]
        assert [n["text"] for n in names if n["cut"]] == [], s["index"]
        assert min(n["font"] for n in names) >= 32 * unit - 0.5, s["index"]
        assert max(n["bottom"] for n in names) <= s["stage"]["bottom"] + 0.5, s["index"]
        assert max(n["right"] for n in names) <= s["stage"]["right"] + 0.5, s["index"]
        by_top = sorted(names, key=lambda n: (n["left"], n["top"]))
        assert all(b["top"] >= a["bottom"] - 1 for a, b in zip(by_top, by_top[1:]) if a["left"] == b["left"])
        # Every column of the screen about as long as the others (not a full column beside one name).
        assert max(s["columns"]) - min(s["columns"]) <= 1, (name, size, s["columns"])
    page.evaluate(SHOW, screens[0]["index"])  # (the first of find your table's screens, to look at)
    keep(page, f"projector-columns-{name}-{width}x{height}")
    return screens


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_32_players_of_long_names_take_two_screens_not_three(tmp_path, page, size):
    for lang in ("en", "es"):
        screens = _screens(page, _page_file(tmp_path, LONG, lang), size, f"32-long-{lang}")
        assert sorted(n["text"] for s in screens for n in s["names"]) == sorted(LONG)
        # Too long for two columns at the page's type: one column a screen, 16 and 16 (were 11, 11, 10).
        assert [s["columns"] for s in screens] == [[16], [16]], (lang, size)
        unit = min(size[0] / 1920, size[1] / 1080)
        assert min(n["font"] for s in screens for n in s["names"]) >= 36 * unit - 0.5


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_ordinary_names_fill_the_screen_in_columns(tmp_path, page, size):
    """8, 32, 64 and 120 players of ordinary names: as few screens as hold them, in columns."""
    unit = min(size[0] / 1920, size[1] / 1080)
    # (120: the names of the first screen fit two columns at the page's type, the others' three at
    # its smaller steps, as they did: 14 in each of three columns, where the last was 13 of 16)
    expected = {8: [[8]], 32: [[16, 16]], 64: [[16, 16]] * 2, 120: [[18, 18], [14, 14, 14], [14, 14, 14]]}
    for count, shape in expected.items():
        names = ORDINARY[:count]
        screens = _screens(page, _page_file(tmp_path, names), size, f"{count}-ordinary")
        assert sorted(n["text"] for s in screens for n in s["names"]) == sorted(names)
        assert [s["columns"] for s in screens] == shape, (count, size)
        if count <= 64:  # (the page's own type: two columns of 36 units hold them)
            assert min(n["font"] for s in screens for n in s["names"]) >= 36 * unit - 0.5
        # The fewest screens: the list would not fit on one screen fewer of the widest layout's room
        # (its columns of 18 rows: the stage's height at a row's height, less the column's heading).
        room = max(len(s["columns"]) for s in screens) * 18
        assert len(screens) <= math.ceil(count / room), (count, size)
