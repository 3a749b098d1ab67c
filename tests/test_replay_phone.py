"""The replay page on a phone (Playwright on the system's Chromium, 390x844): the board is as wide
as the screen (less the page's margins) for every game, nothing scrolls sideways, an invalid
record opens with its problem on the first screen above the table its player faced, and what
a record says stays text in the pictures the script draws.

Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at.
Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest

from domrec import reader, replay_page, simulate as sim
from domrec.pictures.positions import replay

from tests.conftest import SAMPLES
from tests.test_replay_page import EVIL, _everything_evil, load

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=False)

from tests.replay_sample import _sample  # noqa: E402

PHONE = {"width": 390, "height": 844}
MARGIN = 8   # the page's padding each side on a narrow screen (replay.html.j2)

#: The largest sample of each game (the most positions, the widest boards).
GAMES = ["competitive/first-lead-double-six.json", "broadway/sudden-death-mid-hand.json",
         "horse-race/draw-empties-boneyard.json", "castle-rock/double-nine-three-players.json",
         "domino-roads/simulated-game-4-players.json"]

#: An invalid record of each game, with where its first problem is: at a move, or a claimed score.
INVALID = ["competitive/pass-while-able.json", "broadway/wrong-claimed-score.json",
           "horse-race/tile-does-not-match.json", "castle-rock/capture-score-claim.json",
           "domino-roads/wrong-hand-score-claim.dgn"]

MEASURE = """() => {
  const out = {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
               innerHeight: window.innerHeight, hands: []};
  for (const sec of document.querySelectorAll('section.hand')) {
    const svg = sec.querySelector('.picture svg'), felt = svg && svg.querySelector('.felt');
    if (!svg) { continue; }
    const f = felt.getBoundingClientRect(), s = svg.getBoundingClientRect();
    out.hands.push({hand: sec.getAttribute('data-hand'), felt: f.width, svg: s.width,
                    narrow: sec.querySelector('.picture').classList.contains('narrow'),
                    move: svg.getAttribute('data-move')});
  }
  const problem = document.querySelector('.problem.first');
  if (problem) {
    const p = problem.getBoundingClientRect(), sec = problem.closest('section.hand');
    const felt = sec && sec.querySelector('.picture .felt');
    out.problem = {top: p.top, bottom: p.bottom, feltTop: felt ? felt.getBoundingClientRect().top : null,
                   open: sec && sec.getAttribute('data-open'),
                   shown: sec && sec.querySelector('.picture svg').getAttribute('data-move'),
                   bad: sec ? [...sec.querySelectorAll('.moves li.bad')].map(li => li.textContent) : []};
  }
  return out;
}"""


@functools.lru_cache(maxsize=None)
def _record(name: str, folder: str = "valid"):
    """The sample ``name``, read once a module (only read by the tests)."""
    return load(SAMPLES / folder / name)


@functools.lru_cache(maxsize=None)
def _page(name: str, title: str, folder: str = "valid") -> str:
    """The replay page of the sample ``name`` titled ``title``: made once a module for the tests that
    open the same sample at several widths (the page is a pure function of the record and its title)."""
    return replay_page.page(_record(name, folder), title)


@pytest.fixture(scope="module")
def tab(browser):
    """One tab for the module's pages: each test sets the screen's size and loads its own page into
    it (a new document, the last one gone), instead of opening a tab of its own each time."""
    page = browser.new_page(viewport=PHONE)
    yield page
    page.close()


def _load(tab, path: Path, viewport: dict) -> None:
    """``path`` loaded into ``tab`` on a screen of ``viewport``."""
    tab.set_viewport_size(viewport)
    tab.goto(path.as_uri())


def _open(tab, page: str, folder: Path, name: str, screenshot: bool = True) -> dict:
    path = folder / f"{name}.html"
    path.write_text(page, encoding="utf-8")
    _load(tab, path, PHONE)
    seen = tab.evaluate(MEASURE)
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep and screenshot:
        Path(keep).mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(Path(keep) / f"phone-{name}.png"))
    return seen


@pytest.mark.parametrize("name", GAMES)
def test_on_a_phone_the_board_is_as_wide_as_the_screen(tab, tmp_path, name):
    seen = _open(tab, _page(name, name), tmp_path, name.split("/")[0])
    assert seen["innerWidth"] == PHONE["width"] and seen["scrollWidth"] <= PHONE["width"], "the page scrolls sideways"
    assert seen["hands"]
    for hand in seen["hands"]:
        assert hand["narrow"]
        assert abs(hand["felt"] - (PHONE["width"] - 2 * MARGIN)) <= 1, hand  # the felt spans the screen
        assert abs(hand["svg"] - hand["felt"]) <= 1, hand


@pytest.mark.parametrize("name", INVALID)
def test_on_a_phone_an_invalid_record_opens_with_its_problem_in_view(tab, tmp_path, name):
    seen = _open(tab, _page(name, name, "invalid"), tmp_path,
                 "invalid-" + name.split("/")[0])
    problem = seen["problem"]
    assert 0 <= problem["top"] and problem["bottom"] <= PHONE["height"], problem  # on the first screen
    assert problem["bottom"] <= problem["feltTop"] < PHONE["height"], problem     # the table starts below it
    assert problem["shown"] == problem["open"]
    assert problem["bad"] or "score" in name  # a move's problem: the move is marked in the list


def test_what_a_record_says_stays_text_in_the_pictures(tab, tmp_path):
    doc = json.loads((SAMPLES / "valid" / "competitive" / "game-to-200.json").read_text())
    record = reader.load_dict(_everything_evil(doc))
    path = tmp_path / "evil.html"
    path.write_text(replay_page.page(record, EVIL), encoding="utf-8")
    for viewport in (PHONE, {"width": 1280, "height": 900}):
        _load(tab, path, viewport)
        found = tab.evaluate("""() => ({
          scripts: document.querySelectorAll('script').length,
          bold: document.querySelectorAll('b[onmouseover], svg b, svg script').length,
          names: [...document.querySelectorAll('.picture svg .rack .name, .picture svg .rack title')]
            .map(n => n.textContent)})""")
        assert found["scripts"] == 2 and found["bold"] == 0
        assert any(EVIL[:20] in n for n in found["names"]), found["names"][:4]


#: Runs in the page: every position of every hand stepped through, and the smallest text of the
#: picture as it shows on the screen (each <text>'s font size times the scale the SVG and the
#: board's transform give it, a tile's numeral too, the text of the face its <use> shows; the
#: last move and the notes the page writes as text, at their own size), with where it was.
#: ``wanted`` (hand number -> positions), where it is not null: those positions alone, each opened
#: by its link in the move list.
SMALLEST_TEXT = """(wanted) => {
  let least = null;
  const seen = (px, words, where) => { if (least === null || px < least.px) { least = {px, words, where}; } };
  const measure = (sec, i) => {
    const where = 'hand ' + sec.getAttribute('data-hand') + ' position ' + i;
    for (const t of sec.querySelectorAll('.picture svg text')) {
      if (!t.textContent.trim()) { continue; }
      const m = t.getScreenCTM();
      seen(parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b), t.textContent, where);
    }
    // A tile is a <use> of its face, drawn once in the page's sprite: a numeral (beyond nine) is
    // the face's text, shown at the scale of the <use>.
    for (const u of sec.querySelectorAll('.picture svg use')) {
      const face = document.getElementById(u.getAttribute('href').slice(1)), m = u.getScreenCTM();
      for (const t of face.querySelectorAll('text')) {
        seen(parseFloat(t.getAttribute('font-size')) * Math.hypot(m.a, m.b), 'tile ' + t.textContent, where);
      }
    }
    for (const e of sec.querySelectorAll('.picture > p.last, .picture .notes li')) {
      seen(parseFloat(getComputedStyle(e).fontSize), e.textContent, where);
    }
  };
  for (const sec of document.querySelectorAll('section.hand')) {
    if (!sec.querySelector('.picture')) { continue; }
    if (wanted) {
      const links = sec.querySelectorAll('.moves li > a[href^="#h"]');
      for (const i of wanted[sec.getAttribute('data-hand')]) {
        links[i].click();
        if (+sec.querySelector('.picture svg').getAttribute('data-move') !== i) { throw new Error('position ' + i + ' not shown'); }
        measure(sec, i);
      }
      continue;
    }
    sec.querySelector('button[data-go="first"]').click();
    for (let i = 0; ; i++) {
      measure(sec, i);
      const next = sec.querySelector('button[data-go="next"]');
      if (next.getAttribute('aria-disabled') === 'true') { break; }
      next.click();
    }
  }
  return least;
}"""


@pytest.mark.parametrize("name", GAMES + ["domino-roads/three-players-pile-top-up.json",
                                          "castle-rock/four-players-named-draws.json",
                                          "broadway/exposure-and-penalty-play.dgn"])
def test_on_a_phone_every_text_of_the_picture_is_at_least_11_px(tab, tmp_path, name):
    """The numbers and names on the felt (coordinates, counts, road names, captured and boneyard
    labels) as well as the racks' labels: at least 11 CSS px at 390 px wide, at every position under
    --long; in the default run at a sample of each hand's (tests/replay_sample.py: its deal, whose
    racks are fullest, its end, whose board is biggest, one in four, the first after each kind of
    move), as at the wider screens below."""
    least = _smallest(tab, tmp_path, _record(name), name, PHONE, sample=True, page=_page(name, name))
    assert least["px"] >= 11 - 1e-6, least


def _smallest(tab, tmp_path, record, name: str, viewport: dict, sample: bool = False,
              page: str | None = None) -> dict:
    """The smallest text of the page's pictures at every position (``sample``: in the default run,
    at the positions ``tests/replay_sample._sample`` opens; at every one under --long).
    ``page``: the record's page titled ``name``, where the test has it made already."""
    wanted = None
    if sample and os.environ.get("DOMREC_LONG_TESTS") != "1":
        wanted = _sample([h for h in replay(record, name)[0] if h.positions])
    path = tmp_path / "page.html"
    path.write_text(page if page is not None else replay_page.page(record, name), encoding="utf-8")
    _load(tab, path, viewport)
    least = tab.evaluate(SMALLEST_TEXT, wanted)
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        tab.locator("section.hand .picture").first.scroll_into_view_if_needed()
        tab.screenshot(path=str(Path(keep) / f"{name.replace('/', '-')}-{viewport['width']}.png"))
    assert least is not None
    return least


def test_on_a_phone_a_double_twelve_sets_numerals_are_at_least_11_px(tab, tmp_path):
    """Beyond nine a half is a numeral (double-twelve, Castle Rock's largest set): on a phone the
    racks' tiles and the captured panels' are drawn big enough for it to show at 11 px, as every
    other text (a rack's 13 px half showed it at 6.5 px).  Every position under --long; in the
    default run a sample of the hand's (its deal, whose racks hold every tile dealt, its end, whose
    captured panels hold every capture, one in four and the first after each kind of move), as the
    tests of wider screens below."""
    record = next(iter(sim.simulate("castle-rock", 1, 11, players=2, options={"set": "double-twelve",
                                                                              "start_tiles": 20})))
    least = _smallest(tab, tmp_path, record, "double-twelve", PHONE, sample=True)
    assert least["px"] >= 11 - 1e-6, least


#: The default run's screens for each game (every width met by two games or more, every game at one
#: width or two; the phone's 390 px above measures every game at a box narrower than all of them):
#: every game at every width under --long.
TABLET_WIDTHS = [600, 820, 1000]
TABLETS = {"competitive": (600,), "broadway": (820,), "horse-race": (1000,), "castle-rock": (600,),
           "domino-roads": (820, 1000)}


@pytest.mark.parametrize("name, width", [
    (name, width) if width in TABLETS[name.split("/")[0]] else pytest.param(name, width, marks=pytest.mark.long)
    for name in GAMES for width in TABLET_WIDTHS])
def test_on_a_small_tablet_or_a_phone_turned_every_text_is_at_least_11_px(tab, tmp_path, name, width):
    """Screens between a phone's and a desktop's: at 600 px the picture's box is 584 px wide (one
    column), at 820 px 428 px (the move list beside it), at 1000 px 608 px.  The wide picture,
    scaled down to such a box, showed its texts at 7 to 10 px; below ``frame.NARROW`` (800 px) the
    position is drawn for the box's width, as on a phone.  Every position under --long; in the
    default run a sample of each hand's, every kind of move among them, as tests/test_replay_drawing.py
    compares them (and as the phone's 390 px above measures them).  The default run measures each
    game at one of the widths or two (``TABLETS``: each width for two games or more, the widest
    boards, Domino Roads', at two); --long every game at every width."""
    game = name.split("/")[0]
    least = _smallest(tab, tmp_path, _record(name), game, {"width": width, "height": 900}, sample=True,
                      page=_page(name, game))
    assert least["px"] >= 11 - 1e-6, least


@pytest.mark.parametrize("name", GAMES)
def test_screenshots_on_a_phone_a_desktop_and_a_projector(tab, tmp_path, name):
    """Each game's page at 390x844, 1280x800 and 1920x1080 (kept under ``DOMREC_SCREENSHOTS``, for a
    person to look at), at the hand's busiest position: its last.  The page at 390x844 is opened
    only to be kept: that it does not scroll sideways there is
    :func:`test_on_a_phone_the_board_is_as_wide_as_the_screen`'s check, on the same page."""
    path = tmp_path / "page.html"
    path.write_text(_page(name, name), encoding="utf-8")
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    for size in ((PHONE,) if keep else ()) + ({"width": 1280, "height": 800}, {"width": 1920, "height": 1080}):
        _load(tab, path, size)
        if keep:
            tab.locator("section.hand .picture").first.scroll_into_view_if_needed()
            Path(keep).mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=str(Path(keep) / f"{name.split('/')[0]}-{size['width']}.png"))
        assert tab.evaluate("document.documentElement.scrollWidth") <= size["width"]
