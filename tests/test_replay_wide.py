"""The replay page on a desktop (1366x768) and a projector (1920x1080), in a browser (Playwright on
the system's Chromium): stepping through every position of a record of each game, every text of
the picture shows at least 11 px (its computed font size times the scale the browser draws it at:
the board's, the picture's in its box), and no two of its texts overlap (in the default run at a
sample of each hand's positions, every kind of move among them, on the desktop, and at each hand's
deal and end on the projector, whose picture is drawn for the same box; at every one under
``pytest --long``).  The picture's box is the
width tests/pictures/test_wide_text.py sizes the pictures for.

Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at.
Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from domrec import replay_page
from domrec.pictures import MIN_TEXT
from domrec.pictures.positions import replay

from tests.conftest import SAMPLES
from tests.pictures.test_wide_text import BOXES
from tests.test_replay_page import load

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=False)

from tests.replay_sample import _sample  # noqa: E402

SCREENS = {"desktop": {"width": 1366, "height": 768}, "projector": {"width": 1920, "height": 1080}}

#: A record of each game with what its picture words most: the coordinates and face-up tiles, counts
#: of 10 and more, captured panels, roads with bridges and road-blocks, three players' tall piles.
RECORDS = ["competitive/first-lead-double-six.json", "broadway/exposure-and-penalty-play.dgn",
           "horse-race/blocked-tied-lowest.json", "castle-rock/five-players-row-of-three.json",
           "domino-roads/figure-4-bridge-total-10.json", "domino-roads/simulated-game-3-players.json"]

#: Runs in the page: every position of every hand, from the deal on, each text of the picture as
#: drawn (its words, the px it shows at, its box on the screen), and the picture's box.  ``wanted``
#: (hand number -> positions), where it is not null: those positions alone, each opened by its link
#: in the move list.
STEP = """(wanted) => {
  const out = {box: null, positions: []};
  for (const sec of document.querySelectorAll('section.hand')) {
    const box = sec.querySelector('.picture');
    if (!box.querySelector('svg')) { continue; }
    out.box = box.clientWidth;
    const links = sec.querySelectorAll('.moves li > a[href^="#h"]');
    const chosen = wanted ? wanted[sec.getAttribute('data-hand')] : null;
    if (chosen) { links[chosen[0]].click(); } else { sec.querySelector('button[data-go=first]').click(); }
    for (let guard = 0; guard < 500; guard++) {
      const svg = box.querySelector('svg');
      const texts = [];
      for (const t of svg.querySelectorAll('text')) {
        if (!t.textContent.trim()) { continue; }
        const r = t.getBoundingClientRect();
        texts.push([t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
                    r.left, r.top, r.right, r.bottom, t.getAttribute('class') || '']);
      }
      out.positions.push({hand: sec.getAttribute('data-hand'), move: svg.getAttribute('data-move'),
                          narrow: box.classList.contains('narrow'), texts: texts});
      if (chosen) {
        if (guard + 1 >= chosen.length) { break; }
        links[chosen[guard + 1]].click();
        continue;
      }
      const next = sec.querySelector('button[data-go=next]');
      if (next.getAttribute('aria-disabled') === 'true') { break; }
      next.click();
    }
  }
  return out;
}"""


def _overlaps(texts: list) -> list:
    """Pairs of texts whose boxes overlap by more than a glyph's side bearing (2 px each way): a
    line's box holds its ascent and descent, so two lines one under the other touch by a pixel."""
    found = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            wide = min(a[4], b[4]) - max(a[2], b[2])
            tall = min(a[5], b[5]) - max(a[3], b[3])
            if wide > 2 and tall > 2 and "numeral" not in (a[6] + b[6]):
                found.append((a[0], b[0], round(wide, 1), round(tall, 1)))
    return found


@pytest.fixture(scope="module")
def tab(browser):
    """One tab for the module's pages: each test sizes it and loads its own page into it (a new
    document, the last one gone), instead of opening a tab of its own."""
    page = browser.new_page(viewport=SCREENS["desktop"])
    yield page
    page.close()


def _wanted(record, name: str, screen: str) -> dict[str, list[int]] | None:
    """The positions opened: every one under --long.  In the default run, on the desktop, the
    sample of each hand's positions that tests/test_replay_drawing.py compares (its deal and end,
    one in four, the first after each kind of move); on the projector, whose picture's box is the
    desktop's 952 px (BOXES: the same drawing, at the same scale, its texts at the same px), each
    hand's deal and end, the picture at the projector's screen all the same."""
    if os.environ.get("DOMREC_LONG_TESTS") == "1":
        return None
    hands = [h for h in replay(record, name)[0] if h.positions]
    if screen == "desktop":
        return _sample(hands)
    return {str(h.number): sorted({0, len(h.positions) - 1}) for h in hands}


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("name", RECORDS)
def test_every_text_of_the_picture_shows_at_least_11_px_and_none_overlaps(tab, tmp_path, name, screen):
    record = load(SAMPLES / "valid" / name)
    page_file = tmp_path / "page.html"
    page_file.write_text(replay_page.page(record, name), encoding="utf-8")
    wanted = _wanted(record, name, screen)
    tab.set_viewport_size(SCREENS[screen])
    tab.goto(page_file.as_uri())
    seen = tab.evaluate(STEP, wanted)
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        tab.locator(".picture").first.screenshot(path=str(Path(keep) / f"{screen}-{name.replace('/', '-')}.png"))
    width = SCREENS[screen]["width"]
    assert seen["box"] == BOXES[f"{screen} {width}x{SCREENS[screen]['height']}"], seen["box"]
    assert len(seen["positions"]) > (5 if screen == "desktop" or wanted is None else 1)
    seen_in = {hand: 0 for hand in (wanted or {})}
    for position in seen["positions"]:
        where = (name, screen, position["hand"], position["move"])
        assert not position["narrow"], where
        if wanted is not None:  # (the position opened is the one asked for)
            assert int(position["move"]) == wanted[position["hand"]][seen_in[position["hand"]]], where
            seen_in[position["hand"]] += 1
        smallest = min(position["texts"], key=lambda t: t[1])
        assert smallest[1] >= MIN_TEXT - 0.01, (*where, smallest[0], round(smallest[1], 2))
        assert not _overlaps(position["texts"]), (*where, _overlaps(position["texts"]))
