"""A tile in a sentence is one unbroken box on every page that writes sentences, at a phone's 390 px.

The table's page kept a tile of its message line whole ("N does not hold 6-6" never cut at the
hyphen: a span that does not break), but the director's lines did not: the director at the table
(the PIN's view on a table's phone) wrote its messages as plain text, and the director's page
wrote the server's sentences through ``venue.sentence`` with their tiles as plain text, so a
correction refused for "[6|4]" could show "[6|" on one line and "4]" on the next.  Every page now
writes its sentences through ``venue.sentence``, which keeps each tile whole (dom.js).

Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import pytest

from tests.browser import keep, playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402
from tests.tournament.test_venue_desk_browser import _event  # noqa: E402
from tests.tournament.test_venue_director_browser import PHONE, WAIT_MS, _Phone, _row, _tap  # noqa: E402

#: A line the server refuses naming a tile twice, and a reason for it.
WRONG, REASON = "N [6|4]", "the sheet said so"

#: Each tile of the sentence in ``id`` ("6-4", "6|4", "[6|4]"): the text of the element it is drawn
#: in, whether that element does not break (white-space nowrap), and how many boxes (lines) it is
#: drawn over.  A tile left in a text node of ordinary text: its element is the whole line.
TILES = r"""(id) => {
  const box = document.getElementById(id), out = [];
  const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const m of n.data.matchAll(/\d+[-|]\d+/g)) {
      const e = n.parentElement, range = document.createRange();
      range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
      out.push({tile: m[0], element: e.textContent, nowrap: getComputedStyle(e).whiteSpace === "nowrap",
                boxes: new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size,
                lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size});
    }
  }
  return out;
}"""


def _whole(page, where: str) -> list[dict]:
    """The tiles of the sentence in ``where``, asserted each one unbroken box that cannot break."""
    tiles = page.evaluate(TILES, where)
    assert len(tiles) >= 2, tiles  # the sentence names the tile (the line quoted, and the move)
    for t in tiles:
        assert t["nowrap"] and t["boxes"] == 1 and t["lines"] == 1, tiles
        assert t["element"].strip("[]") == t["tile"], tiles  # the box is the tile's, not the line's
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    return tiles


@pytest.fixture
def table(tmp_path):
    """Table 1 of a club night served, one hand typed from its score sheet."""
    with BackgroundVenue(_event(tmp_path), rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        phone = _Phone(client, served.links["tables"][0])
        phone.post("mode", mode="sheet")
        phone.post("dgn", text="hand 1\nend NS 30 EW 0")
        yield served


def test_a_tile_in_the_director_at_the_tables_sentence_is_one_box(table, browser):
    """The director's PIN view on the table's phone: a correction refused for its tile."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(table.links["tables"][0]["url"] + "?lang=en")
    page.wait_for_selector("#add-sheet-hand", timeout=WAIT_MS)
    _tap(page, "#director")
    page.wait_for_selector("#td:not([hidden]) #td-pin", timeout=WAIT_MS)
    page.fill("#td-pin", table.links["director_pin"])
    _tap(page, "#td-open")
    page.wait_for_selector('#td-hands .hand[data-hand="1"] button.line', timeout=WAIT_MS)
    _tap(page, '#td-hands .hand[data-hand="1"] button.line[data-line="2"]')
    page.wait_for_selector("#td-fix:not([hidden])", timeout=WAIT_MS)
    page.fill("#td-fix-text", WRONG)
    page.fill("#td-fix-reason", REASON)
    _tap(page, "#td-fix-save")
    page.wait_for_selector("#td-fix-message.bad", timeout=WAIT_MS)
    assert "[6|4]" in page.inner_text("#td-fix-message")
    _whole(page, "td-fix-message")
    page.locator("#td-fix-message").scroll_into_view_if_needed()
    keep(page, "tiles-whole-director-at-table-390")
    context.close()


def test_a_tile_in_the_directors_page_sentence_is_one_box(table, browser):
    """The director's page at a phone: the same correction refused beside its form."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(table.links["director"] + "?lang=en")
    page.wait_for_selector(f"{_row(page, 1)} button", timeout=WAIT_MS)
    _tap(page, f"{_row(page, 1)} button")
    page.wait_for_selector('#detail-moves .hand[data-hand="1"] button.line[data-line="2"]', timeout=WAIT_MS)
    _tap(page, '#detail-moves .hand[data-hand="1"] button.line[data-line="2"]')
    page.wait_for_selector("#fix-form:not([hidden])", timeout=WAIT_MS)
    page.fill("#fix-text", WRONG)
    page.fill("#fix-reason", REASON)
    _tap(page, "#fix-save")
    page.wait_for_selector("#fix-message.bad", timeout=WAIT_MS)
    assert "[6|4]" in page.inner_text("#fix-message")
    _whole(page, "fix-message")
    page.locator("#fix-message").scroll_into_view_if_needed()
    keep(page, "tiles-whole-directors-page-390")
    context.close()
