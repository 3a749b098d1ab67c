"""The projector's standings screens at a projector's size (1920x1080, 1280x720) fill the screen as
*Find your table*'s do: rows lower (public.STANDINGS_LINE) so that a screen holds more of them at
the same type, each screen in the biggest type its names let it have (up to public.GROW times the
page's), its rows spread evenly over its columns and as tall as the screen lets them (up to 1.5 em),
nothing cut, no type smaller than it was (34 units of the 1920x1080 canvas).

32 players of long names (31 to 45 characters) took three standings screens of 11, 11 and 10 rows,
the bottom third of each empty, in the page's type; 12 players were set in that type too, a quarter
of the screen empty below them.  Now 32 are two screens of 16 and 12 one screen in bigger type.
Counted through the page's DOM: each row's box, its column by its table's left edge; no timing.

Slow, and skipped with the reason where Chromium or Playwright is missing.  Screenshots kept under
``DOMREC_SCREENSHOTS``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import keep, playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip()

from tournament.pages import public as pages  # noqa: E402

# (the projector's page of a paired club night, its standings after round 1, provisional; the screen shown)
from .test_projector_columns_browser import LONG, SHOW, _page_file  # noqa: E402

SIZES = [(1920, 1080), (1280, 720)]

#: Each standings screen in turn made the one shown (its paging stopped): its rows' boxes (a column
#: is a table, by its left edge), the names cut or not, their type, the stage's box.
SCREENS = """() => { const ss = [...document.querySelectorAll('.screen')], out = [];
  const stage = document.querySelector('.stage').getBoundingClientRect();
  for (const s of ss) {
    ss.forEach(o => { o.classList.toggle('on', o === s); o.style.animation = 'none';
                      o.style.visibility = o === s ? 'visible' : 'hidden'; });
    if (!s.querySelector('table.std:not(.duplicate)')) continue;
    const rows = [...s.querySelectorAll('table.std tbody tr')].map(tr => {
      const r = tr.getBoundingClientRect(), name = tr.querySelector('td.name');
      return {left: Math.round(tr.closest('table').getBoundingClientRect().left), top: r.top, bottom: r.bottom,
              right: r.right, text: name.textContent,
              cut: [...tr.querySelectorAll('td')].some(td => td.scrollWidth > td.clientWidth + 1),
              font: parseFloat(getComputedStyle(name).fontSize)}; });
    const columns = {};
    for (const r of rows) (columns[r.left] = columns[r.left] || []).push(r);
    const heads = [...s.querySelectorAll('th')].filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent);
    out.push({index: Number(s.dataset.screen), rows, heads,
              columns: Object.keys(columns).map(Number).sort((a, b) => a - b).map(k => columns[k].length),
              stage: {left: stage.left, right: stage.right, top: stage.top, bottom: stage.bottom}});
  }
  return out; }"""

@pytest.fixture(scope="module")
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


def _screens(page, path: Path, size: tuple[int, int], name: str, least: float = 34) -> list[dict]:
    """The standings screens of ``path`` at ``size``, each checked: every cell and heading whole,
    the names in ``least`` units (the page's type) or bigger, inside the stage, no two rows overlapping,
    the columns even; each with its ``fill``: the share of the stage's height down to its last row."""
    width, height = size
    unit = min(width / 1920, height / 1080)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(path.as_uri())
    screens = page.evaluate(SCREENS)
    assert screens
    for s in screens:
        rows, stage = s["rows"], s["stage"]
        assert [r["text"] for r in rows if r["cut"]] == [] and s["heads"] == [], (name, size, s["index"])
        assert min(r["font"] for r in rows) >= least * unit - 0.5, (name, size, s["index"])
        assert max(r["bottom"] for r in rows) <= stage["bottom"] + 0.5, (name, size, s["index"])
        assert max(r["right"] for r in rows) <= stage["right"] + 0.5, (name, size, s["index"])
        by_top = sorted(rows, key=lambda r: (r["left"], r["top"]))
        assert all(b["top"] >= a["bottom"] - 1 for a, b in zip(by_top, by_top[1:]) if a["left"] == b["left"])
        assert max(s["columns"]) - min(s["columns"]) <= 1, (name, size, s["columns"])
        s["fill"] = (max(r["bottom"] for r in rows) - stage["top"]) / (stage["bottom"] - stage["top"])
        s["font"] = min(r["font"] for r in rows) / unit
    page.evaluate(SHOW, screens[0]["index"])
    keep(page, f"projector-standings-{name}-{width}x{height}")
    return screens


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_32_players_of_long_names_take_two_full_screens_not_three(tmp_path, page, size, lang):
    screens = _screens(page, _page_file(tmp_path, LONG, lang), size, f"32-long-{lang}")
    assert sorted(r["text"] for s in screens for r in s["rows"]) == sorted(LONG)
    # Too long for two columns: one column a screen, 16 and 16 (were 11, 11 and 10).
    assert [s["columns"] for s in screens] == [[16], [16]], (lang, size)
    # Each screen filled down to its bottom (were two thirds of it), the type no smaller.
    assert min(s["fill"] for s in screens) >= 0.9, [round(s["fill"], 3) for s in screens]
    assert min(s["font"] for s in screens) >= 34 - 0.5


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_12_players_fill_their_screen_in_bigger_type(tmp_path, page, size, lang):
    names = LONG[:12]
    screens = _screens(page, _page_file(tmp_path, names, lang), size, f"12-long-{lang}")
    assert sorted(r["text"] for s in screens for r in s["rows"]) == sorted(names)
    assert [s["columns"] for s in screens] == [[12]], (lang, size)
    # The type grown into the room (was the page's 34 units), the rows down to the screen's bottom.
    assert min(s["font"] for s in screens) >= 34 * 1.1, [s["font"] for s in screens]
    assert min(s["fill"] for s in screens) >= 0.8, [round(s["fill"], 3) for s in screens]


def test_ordinary_names_spread_evenly_over_two_columns(tmp_path, page):
    """40 players of short names: one screen, two columns of 20 (two screens of columns of 15 and
    5 before), in the type the widest of them had (its two columns at the floor's 32 units)."""
    names = [f"{first} {last}" for last in ("Ruiz", "Chen", "Díaz", "Okafor", "Marte")
             for first in ("Ana", "Bo", "Carmen", "Dani", "Elena", "Félix", "Gus", "Hilda")]
    path = _page_file(tmp_path, names, "en")
    for size in SIZES:
        screens = _screens(page, path, size, "40-ordinary", pages.TYPE_FLOOR)
        assert sorted(r["text"] for s in screens for r in s["rows"]) == sorted(names)
        assert [s["columns"] for s in screens] == [[20, 20]], size
        assert min(s["fill"] for s in screens) >= 0.9, [round(s["fill"], 3) for s in screens]
