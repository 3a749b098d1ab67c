"""The replay page's script draws every position exactly as the picture modules draw it.

The page carries scenes, not pictures, and its script draws them with ports of the picture
modules (``domrec/pictures/*.js``).  Here a real browser (Playwright on the system's Chromium)
steps through every position of records of all five games (under ``pytest --long``; the default
run opens a sample of each hand's positions, every kind of move among them: ``_sample``), and each picture it drew is read
back and compared with the Python drawing of the same position, element by element, every
attribute and every text: the same SVG but for the tiles, which the page draws as a ``<use>``
of a face drawn once.  On a phone (390 px) the page draws each position for the width its box has
(frame.js's narrow, each board laid out for the felt's room), and it is held equal in the same way
to ``frame.draw_narrow`` of that position at that width.  Each ``<use>`` is put back as the tile tiles.py draws from what it names
(its face, place, fill), and each face drawn by the script is compared with tiles.py's.

Slow (a browser), and skipped with the reason where Chromium or Playwright is missing.
"""

from __future__ import annotations

import functools
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from domrec import replay_page, simulate as sim
from domrec.pictures import svg as svgmod
from domrec.pictures.positions import replay
from domrec.pictures import frame
from domrec.pictures.tiles import draw_back, draw_tile

from tests.conftest import SAMPLES
from tests.test_replay_page import load

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=False)

NS = "{http://www.w3.org/2000/svg}"
VALID = SAMPLES / "valid"

#: Records that between them take every path of every drawing: open hands (tiles face down),
#: exposures and penalty plays, a double-nine and a five-player row, three-player piles, bridges
#: and road-blocks, spinners, a set-apart tile, a blocked line.
RECORDS = [
    "competitive/game-to-200.json", "competitive/blocked.json",
    "broadway/exposure-and-penalty-play.dgn", "broadway/blocked-with-penalties.json",
    "broadway/comments-hand-being-recorded.dgn",
    "castle-rock/double-nine-three-players.json", "castle-rock/five-players-row-of-three.json",
    "castle-rock/four-players-named-draws.json",
    "domino-roads/figure-4-bridge-total-10.json", "domino-roads/road-of-ten-and-road-block.json",
    "domino-roads/three-players-pile-top-up.json",
    "horse-race/spinner-four-arms.json", "horse-race/typed-draws-and-chain.dgn", "horse-race/partnership-game.json",
    "domino-roads/typed-three-players.dgn", "competitive/typed-domino.dgn",
]

#: Runs in the page: every position of every hand, from the deal to the end, as the script drew it
#: (of the first ``kept`` hands, or of all where it is null; of the later ones, how many it drew:
#: each is drawn all the same, stepping through, but not written out and sent back for nothing).
#: ``wanted`` (hand number -> positions), where it is not null: those positions alone, each opened
#: by its link in the move list (as a reader's tap opens it) instead of stepped through with the
#: "next" button; with how many positions the hand offers, and whether at the last of them (the
#: hand's end, which is always wanted) the page says there is no next one.
COLLECT = """([kept, wanted]) => {
  const out = [];
  let width = null;
  for (const sec of document.querySelectorAll('section.hand')) {
    if (!sec.querySelector('.picture')) { continue; }
    const send = kept === null || out.length < kept;
    const hand = [];
    let count = 0;
    width = +sec.querySelector('.picture').getAttribute('data-width');
    if (wanted !== null) {
      const links = sec.querySelectorAll('.moves li > a[href^="#h"]');
      let end = null;
      for (const i of wanted[sec.getAttribute('data-hand')]) {
        links[i].click();
        const svg = sec.querySelector('.picture svg');
        if (+svg.getAttribute('data-move') !== i) { throw new Error('position ' + i + ' drawn as ' + svg.getAttribute('data-move')); }
        if (send) { hand.push(new XMLSerializer().serializeToString(svg)); }
        end = sec.querySelector('button[data-go="next"]').getAttribute('aria-disabled') === 'true';
      }
      out.push([+sec.getAttribute('data-hand'), send ? hand : links.length, links.length, end]);
      continue;
    }
    sec.querySelector('button[data-go="first"]').click();
    for (;;) {
      const svg = sec.querySelector('.picture svg');
      if (send) { hand.push(new XMLSerializer().serializeToString(svg)); }
      count += 1;
      const next = sec.querySelector('button[data-go="next"]');
      if (next.getAttribute('aria-disabled') === 'true') { break; }
      next.click();
    }
    out.push([+sec.getAttribute('data-hand'), send ? hand : count, count, true]);
  }
  const faces = [...document.querySelectorAll('#domrec-tile-faces symbol')].map(
    s => [s.id, new XMLSerializer().serializeToString(s)]);
  return {hands: out, faces: faces, width: width};
}"""

from tests.replay_sample import STRIDE, _move_kind, _sample  # noqa: E402,F401  (the sample, shared)


FACE = re.compile(r"dt-(\d+)-(\d+)([vh])(.+)$")
BACK = re.compile(r"db-([vh])(.+)$")


def _drawn(parent_tag: str, draw) -> list[ET.Element]:
    """What tiles.py draws inside a tile's group, its tooltip left out."""
    scratch = ET.Element(parent_tag)
    group = draw(scratch)
    for node in group.iter():  # as parsed from the picture's markup: in SVG's namespace
        node.tag = node.tag if node.tag.startswith("{") else NS + node.tag
    return [c for c in group if c.tag != f"{NS}title"]


def _expanded(group: ET.Element) -> None:
    """A page tile's ``<use>`` put back as the tile tiles.py draws."""
    use = group.find(f"{NS}use")
    if use is None:
        return
    group.remove(use)
    group.extend(_tile(use.get("href", "")[1:], float(use.get("x")), float(use.get("y")), use.get("fill")))


@functools.lru_cache(maxsize=None)
def _tile(href: str, x: float, y: float, fill: str | None) -> tuple[ET.Element, ...]:
    """What tiles.py draws for a ``<use>`` of ``href`` at (x, y): a pure function of these four,
    drawn once for all the positions that show the same tile at the same place (most of a
    position's tiles were in the one before it; drawing each again was most of the test's own
    time).  The elements are shared between the pages' trees, which the comparison only reads."""
    face, back = FACE.match(href), BACK.match(href)
    if face:
        first, second, way, size = int(face[1]), int(face[2]), face[3], float(face[4])
        parts = _drawn(f"{NS}g", lambda p: draw_tile(p, first, second, x, y, size, vertical=way == "v", fill=fill))
    else:
        assert back, href
        parts = _drawn(f"{NS}g", lambda p: draw_back(p, x, y, float(back[2]), vertical=back[1] == "v"))
    return tuple(parts)


def _same(python: ET.Element, page: ET.Element, where: str) -> None:
    assert python.tag == page.tag, f"{where}: <{python.tag}> drawn as <{page.tag}>"
    a = {k: v for k, v in python.attrib.items() if k != "xmlns"}
    b = {k: v for k, v in page.attrib.items() if k != "xmlns"}
    assert a == b, f"{where} <{python.tag.replace(NS, '')}>: {a} != {b}"
    assert (python.text or "") == (page.text or ""), f"{where}: text {python.text!r} != {page.text!r}"
    kids_a, kids_b = list(python), list(page)
    assert len(kids_a) == len(kids_b), (f"{where} <{python.tag.replace(NS, '')} class={python.get('class')}>: "
                                        f"{[c.tag for c in kids_a]} != {[c.tag for c in kids_b]}")
    for i, (ca, cb) in enumerate(zip(kids_a, kids_b)):
        _same(ca, cb, f"{where}/{i}")


def _check_face(ident: str, markup: str) -> None:
    symbol = ET.fromstring(markup)
    face, back = FACE.match(ident), BACK.match(ident)
    if face:
        first, second, way, size = int(face[1]), int(face[2]), face[3], float(face[4])
        parts = _drawn(f"{NS}g", lambda p: draw_tile(p, first, second, 0, 0, size, vertical=way == "v"))
        del parts[0].attrib["fill"]  # the <use> gives the face its fill
    else:
        assert back, ident
        parts = _drawn(f"{NS}g", lambda p: draw_back(p, 0, 0, float(back[2]), vertical=back[1] == "v"))
    expected = ET.Element(f"{NS}symbol", {"overflow": "visible", "id": ident})
    expected.extend(parts)
    _same(expected, symbol, ident)


@pytest.fixture(scope="module")
def tab(browser):
    """One tab for the module's pages: each test sizes it and loads its own page into it (a new
    document, the last one gone), instead of opening a tab of its own."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    yield page
    page.close()


@functools.lru_cache(maxsize=None)
def _sample_page(name: str) -> str:
    """The replay page of the valid sample ``name``: made once a module for the samples opened on a
    desktop and on a phone alike (a pure function of the record and its title)."""
    return replay_page.page(load(VALID / name), name)


def _compare(tab, record, name: str, tmp_path: Path, hands_compared: int | None = None,
             viewport: dict | None = None, page: str | None = None) -> tuple[int, int]:
    """How many positions the page drew exactly as the picture module draws them (every hand's
    count is checked; the drawings of the first ``hands_compared`` hands, or all: each of their
    positions under --long, a sample of them (``_sample``) in the default run), on a desktop's
    screen or in ``viewport`` (a phone's: then as ``frame.draw_narrow`` draws them); and how many
    positions those hands hold."""
    hands, _ = replay(record, name)
    positions = {h.number: h.positions for h in hands if h.positions}
    wanted = None if os.environ.get("DOMREC_LONG_TESTS") == "1" else _sample([h for h in hands if h.positions])
    page_file = tmp_path / "page.html"
    page_file.write_text(page if page is not None else replay_page.page(record, name), encoding="utf-8")
    tab.set_viewport_size(viewport or {"width": 1280, "height": 900})
    tab.goto(page_file.as_uri())
    seen = tab.evaluate(COLLECT, [hands_compared, wanted])

    width = seen["width"]
    narrow = width is not None and width < frame.NARROW
    assert narrow == (viewport is not None), (name, width)
    assert [n for n, *_ in seen["hands"]] == sorted(positions), name
    compared = held = 0
    for k, (number, drawn, count, ended) in enumerate(seen["hands"]):
        # as many positions as the picture module's, the last the hand's end
        assert count == len(positions[number]) and ended, f"{name} hand {number}: {count} positions"
        if hands_compared is not None and k >= hands_compared:
            assert drawn == len(positions[number]), f"{name} hand {number}"
            continue
        held += len(positions[number])
        chosen = range(len(positions[number])) if wanted is None else wanted[str(number)]
        assert len(drawn) == len(chosen), f"{name} hand {number}"
        for position, markup in zip([positions[number][i] for i in chosen], drawn):
            page = ET.fromstring(markup)
            for group in page.iter(f"{NS}g"):
                _expanded(group)
            python = frame.draw_narrow(position, width) if narrow else frame.draw(position, width)
            _same(ET.fromstring(svgmod.to_string(python)), page, f"{name} hand {number} move {position.move}")
            compared += 1
    for ident, markup in seen["faces"]:
        _check_face(ident, markup)
    return compared, held


@pytest.mark.parametrize("name", RECORDS)
def test_the_page_draws_every_position_of_a_sample_as_the_picture_module_does(tab, tmp_path, name):
    assert _compare(tab, load(VALID / name), name, tmp_path, page=_sample_page(name))[0] > 1


def _long(*values):
    return pytest.param(*values, marks=pytest.mark.long)


@pytest.mark.parametrize("game, players, options", [
    ("competitive", None, None), ("broadway", None, None), _long("horse-race", None, None), ("horse-race", 3, None),
    _long("castle-rock", None, None), ("castle-rock", 2, {"set": "double-twelve", "start_tiles": 20}),
    _long("domino-roads", None, None), ("domino-roads", 3, None)])
def test_the_page_draws_every_position_of_a_simulated_game_as_the_picture_module_does(tab, tmp_path, game, players,
                                                                                      options, request):
    """Simulated games with their accidents (seats other than the usual, draws written the other
    ways, tiles shown out of turn), and a double-twelve set (numerals beyond nine).  The first two
    hands' drawings are compared (every hand with --long; the samples' are compared whole): the later
    hands of a long simulated game mostly repeat what the first ones draw, and cost minutes of the
    default run.  For the same reason the default run draws one simulated game of each of the five
    (the individual games with their less usual player counts and set); the three games of the
    usual count for those games are drawn under --long, their samples above in the default run."""
    record = next(iter(sim.simulate(game, 1, 11, players=players, options=options)))
    hands = None if request.config.getoption("--long") else 2
    compared, held = _compare(tab, record, f"simulated {game}", tmp_path, hands_compared=hands)
    assert held > 20 and compared > (20 if hands is None else 5), (compared, held)


#: A record of each game whose boards the phone's room changes most: a long line, a tableau with
#: tiles face up, a layout wider than the room, captures and draws with five players, long roads
#: with a bridge and a road-block, three players' piles.
PHONE_RECORDS = ["competitive/first-lead-double-six.json", "broadway/exposure-and-penalty-play.dgn",
                 "broadway/sudden-death-mid-hand.json", "horse-race/draw-empties-boneyard.json",
                 "horse-race/spinner-four-arms.json", "castle-rock/five-players-row-of-three.json",
                 "castle-rock/four-players-named-draws.json", "domino-roads/simulated-game-4-players.json",
                 "domino-roads/figure-4-bridge-total-10.json", "domino-roads/three-players-pile-top-up.json"]


@pytest.mark.parametrize("name", PHONE_RECORDS)
def test_on_a_phone_the_page_draws_every_position_as_frame_draw_narrow_does(tab, tmp_path, name):
    assert _compare(tab, load(VALID / name), name, tmp_path, viewport={"width": 390, "height": 844},
                    page=_sample_page(name))[0] > 1


def test_on_a_phone_the_page_draws_a_double_twelve_game_as_frame_draw_narrow_does(tab, tmp_path):
    """A set with numerals (beyond nine): the phone's racks and captured panels hold bigger tiles,
    drawn by the script as by the picture module (the first two hands)."""
    record = next(iter(sim.simulate("castle-rock", 1, 11, players=2, options={"set": "double-twelve",
                                                                              "start_tiles": 20})))
    compared, held = _compare(tab, record, "simulated double-twelve", tmp_path, hands_compared=2,
                              viewport={"width": 390, "height": 844})
    assert held > 20 and compared > 5, (compared, held)
