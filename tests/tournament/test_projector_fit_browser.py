"""The projector in a real browser at the hall's screens (issue 39): at 1280x720, 1280x800, 1366x768
and 1920x1080 no name on any screen is cut (its box as wide as its text), no type under the floor
(32 units of the 1920x1080 canvas), nothing below the screen's bottom; ``?seconds=12&size=large``
taken, a bad value the default (never an error).  Screenshots kept under ``DOMREC_SCREENSHOTS``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue  # noqa: E402

from .test_projector_fit import _event  # noqa: E402

SCREENS = [(1280, 720), (1280, 800), (1366, 768), (1920, 1080)]
WAIT_MS = 90_000

#: Every name's box on every screen: cut (its text wider than its box), its type, its bottom.
MEASURE = """() => [...document.querySelectorAll('.screen .who, .screen td.name, .screen .t, .screen .s, .screen .b')]
  .filter(e => !e.closest('li.head')).map(e => ({text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1,
    font: parseFloat(getComputedStyle(e).fontSize), bottom: e.getBoundingClientRect().bottom}))"""


#: The tops of the line boxes the address's host and port are laid out in (None: no address shown).
ADDRESS_LINES = """() => { const p = document.querySelector('.screen.on aside.qr .url') || document.querySelector('aside.qr .url');
  if (!p) return null;
  const node = [...p.childNodes].find(n => n.nodeType === 3 && /:[0-9]+/.test(n.textContent));
  if (!node) return null;
  const range = document.createRange(); range.selectNodeContents(node);
  return [...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)); }"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The event of ``test_projector_fit`` served once for the module's tests, which only read it."""
    with BackgroundVenue(_event(tmp_path_factory.mktemp("served")), rate=1e9, burst=10 ** 9) as venue:
        yield venue


@pytest.fixture(scope="module")
def one_page(browser):
    """One page for the module's tests: each sets its own viewport and loads its own address into it.
    Its clock is Playwright's (time flows as it does anyway; a test may move it on)."""
    page = browser.new_page()
    page.clock.install()
    yield page
    page.close()


def _page(one_page, width: int, height: int):
    """The module's page at ``width`` x ``height``, without the cookies an earlier test's pages left
    (``?lang=`` keeps its language in one, for every port of 127.0.0.1): as a new page would be."""
    one_page.context.clear_cookies()
    one_page.set_viewport_size({"width": width, "height": height})
    return one_page


@pytest.mark.parametrize("size", SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_no_name_is_cut_at_the_halls_screens(served, one_page, size):
    width, height = size
    unit = min(width / 1920, height / 1080)
    page = _page(one_page, width, height)
    for query in ("", "?seconds=12&size=large"):
        page.goto(served.base_url + "/projector" + query)
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        boxes = page.evaluate(MEASURE)
        assert len([b for b in boxes if b["text"].strip()]) >= 12
        assert [b["text"] for b in boxes if b["cut"]] == [], (size, query)
        assert min(b["font"] for b in boxes) >= 32 * unit - 0.5, (size, query)
        assert max(b["bottom"] for b in boxes) <= height, (size, query)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        # The public address under the QR code: broken after its scheme if at all, never inside
        # its host and port ("http://127.0.0.1:8" on one line, "955/" on the next).
        lines = page.evaluate(ADDRESS_LINES)
        assert lines is not None and len(set(lines)) == 1, (size, query, lines)
        keep = os.environ.get("DOMREC_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / f"projector-{width}x{height}{'-large' if query else ''}.png"))
    assert page.evaluate("() => document.body.dataset.seconds") == "12"
    for bad in ("?seconds=abc&size=huge", "?seconds=-1", "?size=%00", "?seconds=99999999999999999999"):
        answer = page.goto(served.base_url + "/projector" + bad)
        assert answer.status == 200, bad
        assert page.evaluate("() => document.body.dataset.seconds") == "8", bad


#: Every row and cell that would cut its text (ellipsis): a find list's row, a standings cell.
CUT_ROWS = """() => [...document.querySelectorAll('.screen ul.find li, .screen td, .screen .who')]
  .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow === 'ellipsis')
  .map(e => e.textContent)"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=["1920x1080", "1280x720"])
def test_a_name_longer_than_the_screen_wraps_and_is_never_cut(tmp_path, one_page, size):
    """An 82-character name is wider than the screen even alone at the floor's type: its screens
    are one column whose rows wrap; it was cut ("…Fernández-Villaverde y …")."""
    from tournament import add_players, create_event, make_settings, pair_next_round

    width, height = size
    path = tmp_path / "long.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, ["Maximiliano Alejandro de la Santísima Trinidad Fernández-Villaverde y Montenegro",
                        "Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"])
    pair_next_round(store)
    store.close()
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        page = _page(one_page, width, height)
        page.goto(served.base_url + "/projector")
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        assert page.locator(".screen.wraps").count() >= 1
        assert page.evaluate(CUT_ROWS) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        keep = os.environ.get("DOMREC_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / f"projector-longest-name-{width}x{height}.png"))


#: The standings' column headings that would cut their text.
CUT_HEADINGS = """() => [...document.querySelectorAll('.screen th')]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_standings_headings_are_never_cut(served, one_page, lang):
    """The standings' numeric columns are 3.1 em wide: the Spanish headings were cut ("pu…",
    "ga…"); a language whose word is long shows its short form there, the whole word its title."""
    page = _page(one_page, 1920, 1080)
    standings = "() => document.querySelector('.screen.on th') !== null"
    for size in ("small", "normal", "large"):
        page.goto(served.base_url + f"/projector?lang={lang}&size={size}&seconds=3")
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        # The screens before the standings' passed at once: the page's clock moved on by its 3 seconds
        # a screen (it paged through them by itself, as before, without the test sitting through them).
        for _ in range(page.locator(".screen").count()):
            if page.evaluate(standings):
                break
            page.clock.run_for(3_000)
        page.wait_for_function("() => document.querySelector('.screen.on th') !== null", timeout=WAIT_MS)
        assert page.evaluate(CUT_HEADINGS) == [], (lang, size)


#: Each screen in turn made the one shown (its cycling stopped): every name's box as MEASURE has it.
EACH_SCREEN = """() => { const ss = [...document.querySelectorAll('.screen')], out = [];
  for (const s of ss) {
    ss.forEach(o => { o.classList.toggle('on', o === s); o.style.animation = 'none';
                      o.style.visibility = o === s ? 'visible' : 'hidden'; });
    const names = [...s.querySelectorAll('.who, td.name, .t, .s, .b')].filter(e => !e.closest('li.head'));
    out.push({wraps: s.classList.contains('wraps'), columns: s.querySelectorAll('ul.find, table').length,
              rows: names.filter(e => e.matches('.who, td.name')).length,
              cut: names.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent),
              font: Math.min(...names.map(e => parseFloat(getComputedStyle(e).fontSize))),
              bottom: Math.max(...names.map(e => e.getBoundingClientRect().bottom)),
              long: s.textContent.includes('Santísima Trinidad')});
  }
  return out; }"""


@pytest.fixture(scope="module")
def two_hundred(tmp_path_factory) -> tuple[Path, int]:
    """The projector's page of 200 players, one named longer than the screen (written once for the
    module: its tests only load it), and how many screens the same field has with a plain name there."""
    from tournament.pages import public as pages

    from .test_projector_fit import LONGEST, _field

    folder = tmp_path_factory.mktemp("two-hundred")
    names = [f"Jugador {i:03d} Pérez" for i in range(199)]
    names.insert(117, LONGEST)
    page_file = folder / "projector.html"
    page_file.write_text(pages.projector_html(_field(folder, names, True), pages.Site(served=False, has_pages=False)),
                         encoding="utf-8")
    plain = pages.projector_screens(_field(folder, [*names[:117], "Jugador 199 Pérez", *names[118:]], True))
    return page_file, len(plain)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=["1920x1080", "1280x720"])
def test_200_players_one_name_longer_than_the_screen_wraps_on_its_own_screen(two_hundred, one_page, size):
    """200 players, one of them named longer than the screen: the screens around that name keep
    their columns (all 50 screens were one column of two-line rows), and on every screen, its own
    too, no name is cut, no type is under the floor and nothing is below the screen's bottom."""
    width, height = size
    unit = min(width / 1920, height / 1080)
    page_file, plain = two_hundred
    page = _page(one_page, width, height)
    page.goto(page_file.as_uri())
    screens = [s for s in page.evaluate(EACH_SCREEN) if s["rows"]]
    assert len(screens) <= plain + 2, len(screens)  # a screen more at most, of each list
    assert [s["long"] for s in screens if s["wraps"]] == [True, True], screens  # its find screen, its standings'
    find = [s["columns"] for s in screens if not s["wraps"] and s["columns"] > 1]
    assert len(find) >= 6 and set(find) == {2}, screens  # "find your table": two columns but on its screen
    assert sum(s["rows"] for s in screens) == 400
    for s in screens:
        assert s["cut"] == [] and s["font"] >= 32 * unit - 0.5 and s["bottom"] <= height, s
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for k, s in enumerate(page.evaluate(EACH_SCREEN)):
            if s["long"] or k in (0, 1):
                page.evaluate("""(k) => { const ss = [...document.querySelectorAll('.screen')];
                    ss.forEach((o, i) => { o.style.animation = 'none'; o.classList.toggle('on', i === k);
                                           o.style.visibility = i === k ? 'visible' : 'hidden'; }); }""", k)
                page.screenshot(path=str(Path(keep) / f"projector-200-screen{k}-{width}x{height}.png"))


#: Each screen in turn made the one shown: its headings (the standings' columns, the range of names)
#: that would cut their text.
CUT_ON_EACH_SCREEN = """() => { const ss = [...document.querySelectorAll('.screen')], out = [];
  for (const s of ss) {
    ss.forEach(o => { o.classList.toggle('on', o === s); o.style.animation = 'none';
                      o.style.visibility = o === s ? 'visible' : 'hidden'; });
    out.push(...[...s.querySelectorAll('th, h2 .range')].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent));
  }
  return out; }"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=["1920x1080", "1280x720"])
def test_the_spanish_placement_heading_and_the_range_of_names_are_never_cut(tmp_path, one_page, size):
    """A Horse Race played each for himself, in Spanish: the placement points' heading (then "pts. pto.", now "pts. puesto")
    was cut to "pts…" beside "pts.", and "find your table"'s range of names to "Guillermina
    Altagracia Peña-Santamaría – W…" where a long name began it."""
    from tournament import open_event, pair_next_round
    from tournament.event.simulate import simulate_event

    from .test_projector_fit import LONG

    width, height = size
    path = tmp_path / "horses.db"
    simulate_event(path, "horse-race", "individual", 12, 2, seed=3, table_size=4)
    with open_event(path) as store:
        ids = [row[0] for row in store.conn.execute("SELECT id FROM players ORDER BY name").fetchall()]
        with store.conn:
            for number, name in zip(ids, [LONG[6], LONG[0], LONG[4], LONG[1], LONG[8]]):
                store.conn.execute("UPDATE players SET name = ? WHERE id = ?", [name, number])
        pair_next_round(store)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        page = _page(one_page, width, height)
        page.goto(served.base_url + "/projector?lang=es")
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        assert "pts. puesto" in page.evaluate("() => [...document.querySelectorAll('.screen th')].map(e => e.textContent)")
        assert page.locator(".screen h2 .range").count() >= 1
        assert page.evaluate(CUT_ON_EACH_SCREEN) == []
        keep = os.environ.get("DOMREC_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / f"projector-horses-es-{width}x{height}.png"))
