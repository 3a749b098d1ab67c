"""The replay page's move list, clicked (Playwright on the system's Chromium), on a phone (390 px)
and on a desktop: a move's whole line is its link, the player's name and the points included
(a tester clicked a long name beside a move and nothing happened), with one link a move that
the keyboard reaches and opens.  Skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import json

import pytest

from domrec import reader, replay_page

from tests.conftest import SAMPLES

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip  # noqa: E402

playwright_api = playwright_or_skip(server=False)

LONG = "Maximiliana Wilhelmina von Hohenzollern-Sigmaringen"

STATE = """(hand) => {
  const sec = document.querySelector(`section.hand[data-hand="${hand}"]`);
  return {counter: sec.querySelector('.counter').textContent, hash: location.hash,
          current: [...sec.querySelectorAll('.moves > li')].findIndex(li => li.classList.contains('current'))};
}"""


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    doc = json.loads((SAMPLES / "valid" / "competitive" / "domino.json").read_text())
    for p in doc["players"]:
        p["name"] = f"{LONG} {p['seat']}"
    path = tmp_path_factory.mktemp("click") / "long-names.html"
    path.write_text(replay_page.page(reader.load_dict(doc), "long names"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def tab(browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    yield page
    page.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_clicking_the_players_name_beside_a_move_shows_the_table_after_it(tab, page_file, width):
    tab.set_viewport_size({"width": width, "height": 900})
    tab.goto(page_file.as_uri())
    name = tab.locator('section.hand[data-hand="1"] .moves > li').nth(3).locator("small")
    assert name.inner_text().startswith(LONG)
    name.scroll_into_view_if_needed()
    name.click()
    seen = tab.evaluate(STATE, 1)
    assert seen["counter"].startswith("move 3 of") and seen["hash"] == "#h1-m3" and seen["current"] == 3, seen
    # the line's blank space, beyond its words and name (the link is as wide as the list)
    item = tab.locator('section.hand[data-hand="1"] .moves > li').nth(5)
    box = item.bounding_box()
    item.click(position={"x": box["width"] - 8, "y": box["height"] - 6})
    seen = tab.evaluate(STATE, 1)
    assert seen["counter"].startswith("move 5 of") and seen["current"] == 5, seen


def test_one_link_a_move_its_name_the_whole_line_and_the_keyboard_opens_it(tab, page_file):
    tab.set_viewport_size({"width": 390, "height": 844})
    tab.goto(page_file.as_uri())
    links = tab.evaluate("""() => [...document.querySelectorAll('section.hand[data-hand="1"] .moves > li')].slice(1)
        .map(li => ({links: li.querySelectorAll('a[href^="#h1-m"]').length,
                     text: (li.querySelector('a[href^="#h1-m"]') || {}).textContent || '',
                     name: (li.querySelector('small') || {}).textContent || ''}))""")
    assert links and all(m["links"] == 1 for m in links), links
    assert all(m["name"] and m["name"] in m["text"] for m in links), links
    # one line a move, the number beside its first line: the link starts where the item's text does
    tops = tab.evaluate("""() => [...document.querySelectorAll('section.hand[data-hand="1"] .moves > li')].slice(1)
        .map(li => li.getBoundingClientRect().top - li.querySelector('a').getBoundingClientRect().top)""")
    assert all(abs(t) < 1 for t in tops), tops
    # the picture's "Last:" line still names the move's words and its player apart
    last = tab.evaluate("""() => document.querySelector('section.hand[data-hand="1"] .picture').textContent""")
    assert LONG in last
    link = tab.locator('section.hand[data-hand="1"] a[href="#h1-m2"]')
    link.focus()
    tab.keyboard.press("Enter")
    seen = tab.evaluate(STATE, 1)
    assert seen["counter"].startswith("move 2 of") and seen["current"] == 2, seen
