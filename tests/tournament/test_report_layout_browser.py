"""The report's standings at a desktop's and a phone's width, in Spanish and in English (issue 39):
the page never scrolls sideways, the standings fit their box (the long Spanish headers are
abbreviated), and no player's name is broken inside a word.  Then, without a browser: the header
counts pairs for a pairs event, and a bracket's box lists its sides by place, the winner first.

Run with ``DOMREC_SCREENSHOTS=docs/screens`` to keep the screenshots of the Spanish report at 1280
and 390 px the docs show (docs/tournament.md, "The report in Spanish")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tournament import open_event
from tournament.event.roster import rename
from tournament.event.simulate import simulate_event
from tournament.pages import report as rp

#: Long names, as a Spanish club's are: two given names, two family names, some joined by a hyphen.
FIRST = ("María Fernanda", "José Antonio", "Guadalupe", "Juan Carlos", "Ana Lucía", "Francisco Javier",
         "Rosa María", "Maximiliano", "Esperanza", "Bartolomé")
LAST = ("Hernández Villalobos", "Rodríguez de la Fuente", "Fernández Castañeda", "Martínez Sepúlveda",
        "González Altamirano", "Domínguez Valenzuela", "Santamaría Echeverría", "Bustamante Peñalosa")


def long_names(path: Path) -> None:
    """Give every player of the event at ``path`` a long Spanish name (each a different one)."""
    store = open_event(path)
    try:
        for i, p in enumerate(store.players()):
            last = LAST[(i // len(FIRST)) % len(LAST)]
            if i % 7 == 0:
                last = f"{last}-{LAST[(i // len(FIRST) + 1) % len(LAST)].split()[0]}"
            rename(store, p.name, f"{FIRST[i % len(FIRST)]} {last}")
    finally:
        store.close()


def report_page(path: Path, lang: str) -> str:
    store = open_event(path)
    try:
        return rp.html_page(rp.event_data(store), lang=lang)
    finally:
        store.close()


#: What the page shows of its layout: the page's and the standings' widths, and each name cell's
#: words that the browser drew on more than one line (a word is a run of letters between spaces
#: and hyphens: a name may wrap after "Sepúlveda-", never inside "Hernández").
MEASURE = r"""() => {
  const root = document.documentElement;
  const box = document.querySelector('table.std').closest('.scroll');
  const broken = [];
  for (const cell of document.querySelectorAll('table.std td:nth-child(2)')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\s-]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return {page: [root.scrollWidth, root.clientWidth], standings: [box.scrollWidth, box.clientWidth],
          header: [...document.querySelectorAll('table.std th')].map(th => th.textContent), broken};
}"""


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("layout") / "club.db"
    simulate_event(path, "competitive", "rotating", 40, 3, seed=3, name="Torneo de la Peña Hernández")
    long_names(path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_standings_fit_a_desktop_and_a_phone_and_no_name_breaks_inside_a_word(event: Path, lang: str,
                                                                                  tmp_path: Path, browser) -> None:
    """(``browser`` skips the test where Chromium or Playwright is missing.)"""
    page_file = tmp_path / f"report-{lang}.html"
    page_file.write_text(report_page(event, lang), encoding="utf-8")
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    for width, height in ((1280, 800), (390, 844)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(page_file.as_uri())
        seen = page.evaluate(MEASURE)
        if keep and lang == "es":  # what the docs show: the top of the page, as a reader first sees it
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / f"report-es-{width}.png"))
        page.close()
        where = f"{lang} at {width} px"
        assert seen["page"][0] <= seen["page"][1], f"{where}: the page scrolls sideways {seen['page']}"
        assert seen["standings"][0] <= seen["standings"][1], \
            f"{where}: the standings scroll sideways {seen['standings']} (headers: {seen['header']})"
        assert not seen["broken"], f"{where}: names broken inside a word: {seen['broken'][:5]}"


def test_a_pairs_event_is_counted_in_pairs_and_an_individual_one_in_players(tmp_path: Path) -> None:
    pairs, rotating = tmp_path / "pairs.db", tmp_path / "rotating.db"
    simulate_event(pairs, "competitive", "pairs", 50, 1, seed=3)
    simulate_event(rotating, "competitive", "rotating", 8, 1, seed=3)
    assert " · 25 pairs · " in report_page(pairs, "en")
    assert " · 25 parejas · " in report_page(pairs, "es")
    assert " · 8 players · " in report_page(rotating, "en")
    assert " · 8 jugadores · " in report_page(rotating, "es")


def test_a_bracket_box_lists_its_sides_by_place_the_winner_first(tmp_path: Path) -> None:
    """A multi-player knockout's box: 1., 2., 3., 4. top-down, whatever the seats; the stage's
    default name in the page's language."""
    import re

    path = tmp_path / "ko.db"
    simulate_event(path, "horse-race", "individual", 24, 1, seed=3, table_size=4,
                   stage={"format": "multi"})
    es = report_page(path, "es")
    boxes = re.findall(r'<div class="match">(.*?)</div></div>', es)
    decided = [b for b in boxes if "decidido" in b]
    assert decided
    for box in decided:
        places = [int(n) for n in re.findall(r'<div class="[a-z]*">(\d)\. ', box)]
        assert places == sorted(places) and places[0] == 1, box
        assert re.search(r'<div class="win">1\. ', box), box
    assert "eliminatoria por mesas (desde la ronda 2)" in es
    assert "multi-player knockout" not in es
    assert "multi-player knockout (from round 2)" in report_page(path, "en")
