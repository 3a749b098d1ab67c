"""Every word of a Spanish replay page's pictures is Spanish, in a browser (Playwright on the
system's Chromium), on a projector (1920x1080) and a phone (390x844).

A tester opened a hall's replay page in Spanish (``/games/1/1?lang=es``) and found its picture in
English: "Dominó competitivo · hand 1 · move 25 of 25 · hand over (out)", "Last: N juega 5-5 (Ana
Ruiz)", "W · 3 tiles", "The line: 23 tiles, open ends: 5 and 0.".  The pictures' scripts wrote
their own English words; they now say each through the page's words (``D.frame.say``:
:data:`domrec.replay_page.PICTURE_PHRASES`, and the texts a position holds, :data:`SCENE_PHRASES`).
Here every position of a record of each game is drawn, on both screens, and every text of its
picture is read: the words drawn, each element's title (a tile's, a rack's: what a pointer's
tooltip and a screen reader say), the picture's accessible name, and a phone's last-move line and
notes.  None may hold an English word of the pictures.

Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at.
Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from domrec import replay_page

from tests.conftest import SAMPLES
from tests.test_replay_page import load

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip  # noqa: E402

playwright_api = playwright_or_skip(server=False)

SCREENS = {"projector": {"width": 1920, "height": 1080}, "phone": {"width": 390, "height": 844}}

#: A record of each game whose pictures say the most: coordinates, face-up tiles and a penalty
#: play, a spinner's free places, captured panels and a draw, bridges and road-blocks, three
#: players' piles.
RECORDS = ["competitive/first-lead-double-six.json", "broadway/exposure-and-penalty-play.dgn",
           "horse-race/blocked-tied-lowest.json", "castle-rock/five-players-row-of-three.json",
           "domino-roads/figure-4-bridge-total-10.json", "domino-roads/simulated-game-3-players.json"]

#: English words of the pictures (the scripts' own and the engines' scene texts).  "spinner" is
#: not among them: Spanish-speaking clubs say it so (docs/venue.md, "Languages").
ENGLISH = re.compile(
    r"\b(hand|move|deal|Last|Nothing|played|scoring|to play|tiles?|not shown|line|open|ends?|empty|laid|matched|"
    r"leads?|penalty|face up|Points|built|sudden|Coordinates|bottom|tableau|holder|Yellow|orange|rings|halves|Tan|"
    r"exposed|opponent|row|blocked|first|every|player|next|placed|captured|just|taken|boneyard|Boneyard|draw|drew|"
    r"rack|counts?|free|side|set|layout|Discs|nothing|length|joined|road|roads|Roads|starter|facing|span|"
    r"road-block|none|bridge|joining|Piles|top-up|pile|known|pairs?|Turn|dice|playing|toss|rolled|rolls|went|"
    r"pegs|score|holds|the|of|and|or)\b")

#: Runs in the page: every position of every hand drawn in turn (the step buttons), and every text
#: of each picture: its words, its elements' titles, its accessible name, the phone's last-move
#: line and notes.
TEXTS = """() => {
  const seen = new Set();
  for (const sec of document.querySelectorAll('section.hand')) {
    const box = sec.querySelector('.picture');
    if (!box.querySelector('svg')) { continue; }
    sec.querySelector('button[data-go=first]').click();
    const next = sec.querySelector('button[data-go=next]');
    for (let guard = 0; guard < 1000; guard++) {
      for (const t of box.querySelectorAll('text, title, .last, .notes li')) { seen.add(t.textContent); }
      for (const t of box.querySelectorAll('[aria-label]')) { seen.add(t.getAttribute('aria-label')); }
      if (next.getAttribute('aria-disabled') === 'true') { break; }
      next.click();
    }
  }
  return [...seen];
}"""


@pytest.fixture(scope="module")
def tab(browser):
    page = browser.new_page(viewport=SCREENS["phone"])
    yield page
    page.close()


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("name", RECORDS)
def test_every_word_of_a_spanish_pages_pictures_is_spanish(tab, tmp_path: Path, name: str, screen: str) -> None:
    path = tmp_path / "page.html"
    path.write_text(replay_page.page(load(SAMPLES / "valid" / name), name, lang="es"), encoding="utf-8")
    tab.set_viewport_size(SCREENS[screen])
    tab.goto(path.as_uri())
    tab.wait_for_selector("section.hand .picture svg")
    texts = tab.evaluate(TEXTS)
    assert texts
    title = tab.evaluate("() => JSON.parse(document.getElementById('replay-data').textContent).title")
    english = sorted({t for t in texts if ENGLISH.search(t.replace(title, ""))})  # ("Domino Roads" is a name)
    assert not english, f"{name} ({screen}): English in the pictures: {english[:12]}"
    folder = os.environ.get("DOMREC_SCREENSHOTS")
    if folder:  # the first hand's picture at its end, as the screen shows it
        Path(folder).mkdir(parents=True, exist_ok=True)
        tab.locator("section.hand .bar").first.scroll_into_view_if_needed()
        tab.evaluate("() => document.querySelector('section.hand .bar').scrollIntoView({block: 'start'})")
        tab.screenshot(path=str(Path(folder) / f"replay-es-{name.replace('/', '-')}-{screen}.png"))
