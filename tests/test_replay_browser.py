"""The replay page in a real browser: headless Chromium steps through a hand with the page's own
buttons and keys, and the move counter and scores it shows are checked against the engine's
positions; the page is laid out at a desktop's and a phone's width (no sideways scrolling), an
invalid record opens at its first problem, an address names a position, and without a script
each hand says its table needs the script and shows the rest.

As in tests/tournament/test_pages_browser.py, the driving is done from a harness page that holds
the page under test in a same-origin ``srcdoc`` frame of the exact width, acts on it (clicks the
buttons, sends key presses), and writes what it saw into its own DOM (a ``<pre>``), read back when
the harness has loaded.  A frame sandboxed without ``allow-scripts`` is the page without
JavaScript.  The harnesses and the screenshots are loaded, one after the other, into one tab of the
module's Chromium (Playwright's, the ``browser`` fixture), instead of a Chromium program started
for each (seconds a start).  Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set.

Slow, and skipped with the reason where Chromium or Playwright is missing.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from domrec import reader, replay_page
from domrec.pictures.positions import position, replay

from tests.browser import DESKTOP, PHONE, playwright_or_skip, tab_screenshot as screenshot
from tests.conftest import SAMPLES

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=False)

GAME = SAMPLES / "valid" / "competitive" / "game-to-200.json"

#: Runs in the harness once the frame has loaded: ``ACTIONS`` is a list of steps (a button to press
#: or a key to send, in a hand), and after each the hand's counter, scores and shown position are read.
DRIVE = """
function seen(w, sec) {
  var shown = [];
  sec.querySelectorAll('.picture svg').forEach(function (f) {
    var r = f.getBoundingClientRect();
    if (w.getComputedStyle(f).display !== 'none' && r.width > 0) { shown.push(f.getAttribute('data-move')); }
  });
  var cur = sec.querySelector('.moves li.current');
  var counter = sec.querySelector('.counter'), scores = sec.querySelector('.scores');
  var note = sec.ownerDocument.querySelector('.nojs-note');
  return {counter: counter && counter.textContent, scores: scores && scores.textContent,
          shown: shown, listed: cur ? String(Array.prototype.indexOf.call(cur.parentNode.children, cur)) : null,
          note: !!note && w.getComputedStyle(note).display !== 'none'};
}
window.addEventListener('load', function () {
  var w = document.getElementById('page').contentWindow, d = w.document, out = {steps: []};
  out.innerWidth = w.innerWidth;
  out.scrollWidth = d.documentElement.scrollWidth;
  out.js = d.documentElement.classList.contains('js');
  out.hands = [];
  d.querySelectorAll('section.hand').forEach(function (sec) {
    var s = seen(w, sec);
    s.hand = sec.getAttribute('data-hand');
    s.buttons = [];
    sec.querySelectorAll('.bar button').forEach(function (b) {
      var r = b.getBoundingClientRect();
      s.buttons.push({w: r.width, h: r.height, shown: w.getComputedStyle(b).display !== 'none'});
    });
    out.hands.push(s);
  });
  var problem = d.querySelector('section.hand[data-first-problem]');
  out.scrollY = w.scrollY;
  out.problemTop = problem ? problem.getBoundingClientRect().top : null;
  ACTIONS.forEach(function (a) {
    var sec = d.querySelector('section.hand[data-hand="' + a.hand + '"]');
    if (a.button) { sec.querySelector('button[data-go="' + a.button + '"]').click(); }
    if (a.key) {
      sec.querySelector('button[data-go="next"]').focus();
      d.activeElement.dispatchEvent(new w.KeyboardEvent('keydown', {key: a.key, bubbles: true, cancelable: true}));
    }
    if (a.link) { sec.querySelector('.moves a[href="#' + a.link + '"]').click(); }
    var s = seen(w, sec);
    s.action = a;
    out.steps.push(s);
  });
  var pre = document.createElement('pre');
  pre.id = 'seen';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
"""


def _harnessed(tab, harness: Path, width: int, height: int, address: str | None = None) -> dict:
    """What the harness ``harness`` (its frame ``width`` × ``height`` px) wrote into its ``<pre
    id="seen">``, loaded in ``tab`` at a window of the size Chromium was started with for it (the
    frame's, and 20 px more; never narrower than 520 px, as a headless window is never narrower
    than 500); at ``address`` where it is served from one."""
    tab.set_viewport_size({"width": max(width, 500) + 20, "height": height + 20})
    tab.goto(address or harness.as_uri())
    seen = tab.wait_for_selector("pre#seen", state="attached")
    return json.loads(seen.text_content())


def drive(tab, page: str, width: int, height: int, folder: Path, actions: list[dict], scripts: bool = True) -> dict:
    harness = folder / f"harness-{width}-{'js' if scripts else 'nojs'}.html"
    sandbox = ' sandbox="allow-same-origin"' if not scripts else ""
    harness.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'
                       f'<iframe id="page"{sandbox} style="border:0;width:{width}px;height:{height}px" '
                       f'srcdoc="{html.escape(page, quote=True)}"></iframe>'
                       f"<script>var ACTIONS = {json.dumps(actions)};{DRIVE}</script></body></html>",
                       encoding="utf-8")
    return _harnessed(tab, harness, width, height)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("replay-browser")


@pytest.fixture(scope="module")
def tab(browser):
    """One tab for the module's harnesses: each test loads its own into it, the last one's gone."""
    page = browser.new_page(viewport={"width": DESKTOP[0] + 20, "height": DESKTOP[1] + 20})
    yield page
    page.close()


def test_pressing_next_through_a_whole_hand_shows_the_engines_counter_and_scores(tab, folder):
    record = reader.load(str(GAME))
    hand = 2
    moves = len(record.hands[hand - 1].moves)
    actions = [{"hand": hand, "button": "first"}] + [{"hand": hand, "button": "next"}] * (moves + 1)
    seen = drive(tab, replay_page.page(record), *DESKTOP, folder, actions)
    assert seen["js"]
    steps = seen["steps"]
    for move in range(moves + 1):
        expected, _ = position(record, hand, move)
        step = steps[move]
        assert step["shown"] == [str(move)], step  # one picture at a time, the right one
        assert step["listed"] == str(move)
        assert step["counter"].startswith(f"move {move} of {moves}")
        assert step["scores"] == expected.header_lines()[2]
    # Past the end, "next" stays at the end; the hand's totals are the engine's.
    assert steps[-1]["shown"] == [str(moves)]
    hands, _ = replay(record)
    totals = hands[hand - 1].totals
    assert steps[-1]["scores"].startswith("Totals after the hand: " + " · ".join(f"{s} {n}" for s, n in totals.items()))


def test_the_keys_and_the_move_list_step_too(tab, folder):
    record = reader.load(str(GAME))
    moves = len(record.hands[0].moves)
    actions = [{"hand": 1, "key": "Home"}, {"hand": 1, "key": "ArrowRight"}, {"hand": 1, "key": "ArrowRight"},
               {"hand": 1, "key": "ArrowLeft"}, {"hand": 1, "key": "End"}, {"hand": 1, "link": "h1-m7"},
               {"hand": 1, "button": "prev"}]
    steps = drive(tab, replay_page.page(record), *DESKTOP, folder, actions)["steps"]
    assert [s["shown"] for s in steps] == [["0"], ["1"], ["2"], ["1"], [str(moves)], ["7"], ["6"]]
    assert [s["counter"].split(" (")[0] for s in steps] == [f"move {m} of {moves}" for m in (0, 1, 2, 1, moves, 7, 6)]


def test_without_javascript_every_hand_says_its_table_needs_the_script(tab, folder):
    record = reader.load(str(GAME))
    seen = drive(tab, replay_page.page(record), *DESKTOP, folder, [], scripts=False)
    assert not seen["js"]
    for shown, hand in zip(seen["hands"], record.hands):
        n = len(hand.moves)
        assert shown["shown"] == [] and shown["note"] and shown["counter"] == f"move {n} of {n}"
        assert shown["buttons"] == []  # nothing to press without a script


def test_an_invalid_record_opens_at_the_first_problem(tab, folder):
    record = reader.load(str(SAMPLES / "invalid" / "competitive" / "wrong-leader.json"))
    seen = drive(tab, replay_page.page(record), *DESKTOP, folder, [])
    # Hand 2's deal breaks a rule: the page has scrolled to it.
    assert seen["scrollY"] > 0 and abs(seen["problemTop"]) < 40
    record = reader.load(str(SAMPLES / "invalid" / "competitive" / "tile-not-in-hand.json"))
    seen = drive(tab, replay_page.page(record), *DESKTOP, folder, [])
    assert seen["hands"][0]["shown"] == ["2"] and seen["hands"][0]["counter"] == "move 2 of 25"  # before move 3


@pytest.mark.parametrize("size, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_layout_fits_without_sideways_scrolling(tab, folder, size, name):
    record = reader.load(str(GAME))
    page = replay_page.page(record)
    seen = drive(tab, page, *size, folder, [{"hand": 1, "button": "first"}])
    assert seen["innerWidth"] == size[0]
    assert seen["scrollWidth"] <= seen["innerWidth"], "the page scrolls sideways"
    for hand in seen["hands"]:
        for b in hand["buttons"]:
            assert b["w"] >= 44 and b["h"] >= 44  # large enough to tap
    bad = reader.load(str(SAMPLES / "invalid" / "competitive" / "pass-while-able.json"))
    seen = drive(tab, replay_page.page(bad), *size, folder, [])
    assert seen["scrollWidth"] <= seen["innerWidth"]
    page_file = folder / f"replay-{name}.html"
    page_file.write_text(page, encoding="utf-8")
    screenshot(tab, page_file, *size, f"replay-{name}")
    bad_file = folder / f"replay-invalid-{name}.html"
    bad_file.write_text(replay_page.page(bad), encoding="utf-8")
    screenshot(tab, bad_file, *size, f"replay-invalid-{name}")


def test_an_address_names_a_position(tab, folder):
    """A move list's address (``#h2-m3``) opens that position of that hand; the other hands show
    their final one."""
    record = reader.load(str(GAME))
    page_file = folder / "target.html"
    page_file.write_text(replay_page.page(record), encoding="utf-8")
    harness = folder / "harness-target.html"
    harness.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'
                       f'<iframe id="page" style="border:0;width:1280px;height:900px" '
                       f'src="{page_file.name}#h2-m3"></iframe><script>var ACTIONS = [];{DRIVE}</script></body></html>',
                       encoding="utf-8")
    # Served from one http origin (the frame's document is the harness's to read, as two files
    # are to a Chromium started with --allow-file-access-from-files), each file as it is.
    tab.route("http://replay.test/**",
              lambda route: route.fulfill(path=str(folder / route.request.url.split("/")[-1].split("#")[0])))
    try:
        seen = _harnessed(tab, harness, 1280, 900, f"http://replay.test/{harness.name}")
    finally:
        tab.unroute("http://replay.test/**")
    assert seen["js"]
    finals = [str(len(h.moves)) for h in record.hands]
    assert [h["shown"] for h in seen["hands"]] == [[finals[0]], ["3"], [finals[2]]]
