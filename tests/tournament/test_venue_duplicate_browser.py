"""A duplicate table's page in a real browser (Playwright driving the system's Chromium, at a
phone's size): the page names its board, *Start board* starts the board's deal (the page offers
only the legal tiles), one board tapped through to its end, both sides confirm, and the board's
result is in the event while the page moves on to the table's next board.  Slow; skipped where
Chromium or Playwright is missing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip, wait_rev
from tests.tournament.test_duplicate_event import new_event, run

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _confirm_all, _rev, _served, _shot  # noqa: E402
from tournament import open_event  # noqa: E402
from tournament.event import duplicate  # noqa: E402
from tournament.pairing import boards as B  # noqa: E402


def _tap_a_legal_move(page) -> None:
    """The first tile the page offers, then its first place where it asks for one."""
    before = _rev(page)
    page.locator("#panel .tiles button[data-tile]").first.click(timeout=WAIT_MS)
    wait_rev(page, before, WAIT_MS, also="document.querySelector('#panel .targets')")
    if _rev(page) > before:
        return
    page.locator("#panel .targets button[data-move]").first.click(timeout=WAIT_MS)
    wait_rev(page, before, WAIT_MS)


@pytest.fixture(scope="module")
def _dealt(tmp_path_factory) -> Path:
    """A 6-pair Mitchell event with its boards dealt (seed 38) and round 1 seated, made once for
    the module (six commands, a second of a core): each test serves a copy of its own."""
    path = tmp_path_factory.mktemp("duplicate") / "dup.db"
    new_event(path, 6, "mitchell")
    run("boards", path, "--boards", 6, "--seed", 38)
    run("pair", path)
    return path


def _seated(tmp_path: Path, dealt: Path) -> Path:
    """The event of :func:`_dealt`, copied for this test alone: its file."""
    path = tmp_path / "dup.db"
    shutil.copyfile(dealt, path)
    for suffix in ("-wal", "-shm"):  # (none once the commands closed the file, but a copy is whole)
        if dealt.with_name(dealt.name + suffix).exists():
            shutil.copyfile(dealt.with_name(dealt.name + suffix), path.with_name(path.name + suffix))
    return path


def test_one_board_tapped_through_and_confirmed(tmp_path: Path, browser, _dealt: Path) -> None:
    path = _seated(tmp_path, _dealt)
    boards = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", path, "--json"))}
    served = _served(path)
    try:
        page = browser.new_page(viewport=PHONE)
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_selector('#board-now[data-board="1"]', timeout=WAIT_MS)
        assert page.locator("#mode-play").count() == 0  # a duplicate table plays its boards' deals
        page.click('#start-hand[data-board="1"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .tiles button[data-tile]", timeout=WAIT_MS)
        # The deal is known: the tiles offered are the mover's own, and only those it may play.
        to_move = page.locator(".players .to-move").first.inner_text().split()[0]
        offered = page.locator("#panel .tiles button[data-tile]").evaluate_all("bs => bs.map(b => b.dataset.tile)")
        held = {str(t) for t in boards[1].deal.hands[to_move]}
        assert offered and set(offered) <= held
        _shot(page, "duplicate-board")
        assert "NS" in page.inner_text("#totals")  # (the board in play: its totals)
        taps = 0
        while not page.locator('#panel button[data-side="NS"]').count():
            if page.locator("#close-hand").count():
                before = _rev(page)
                page.click("#close-hand")
                wait_rev(page, before, WAIT_MS)
                continue
            _tap_a_legal_move(page)
            taps += 1
            assert taps < 60
        _confirm_all(page, ["NS", "EW"])
        page.wait_for_selector('#board-now[data-board="2"]', timeout=WAIT_MS)
        page.wait_for_selector('#start-hand[data-board="2"]', timeout=WAIT_MS)
        # Between boards there is no board's total to show: not "NS 0 EW 0" over the boards' scores.
        assert page.inner_text("#totals").strip() == ""
        _shot(page, "duplicate-next-board")
    finally:
        served.close()
    store = open_event(path)
    table = store.tables(1)[0]
    entered = duplicate.entered(store, table.id, 1)
    assert entered is not None and entered["verified"] and entered["ns_points"] + entered["ew_points"] > 0
    assert duplicate.entered(store, table.id, 2) is None
    store.close()


def test_the_halls_duplicate_pages_after_the_session_on_a_phone_and_a_laptop(tmp_path: Path, browser) -> None:
    """A whole session played (simulated): *find your table* shows the last round, not round 1 (a
    duplicate table has no result of its own: its boards' results end its round); the standings,
    the boards, a traveller and a pair's card fit a phone's width, their tables within their box
    (the columns a phone leaves out named under them)."""
    path = tmp_path / "sim.db"
    run("simulate", path, "--format", "duplicate", "--tables", 3, "--rounds", 3, "--seed", 5, "-q")
    served = _served(path)
    try:
        for view in (PHONE, {"width": 1366, "height": 768}):
            page = browser.new_page(viewport=view)
            page.goto(served.base_url + "/")
            page.wait_for_selector("#main", timeout=WAIT_MS)
            assert "Round 3" in page.inner_text("#main") and "Round 1" not in page.inner_text("#main")
            for name, url in (("standings", "/standings"), ("boards", "/boards"), ("board", "/boards/1"),
                              ("pair", "/pairs/2")):
                page.goto(served.base_url + url)
                page.wait_for_selector("#main", timeout=WAIT_MS)
                assert page.evaluate("() => document.documentElement.scrollWidth") <= view["width"], (view, url)
                # The scores' tables fit their box too: no column cut off at a phone's edge behind a
                # sideways scroll nobody sees (the IMPs, the matchpoints); what a phone leaves out is
                # named under the table ("On a wider screen…").
                wide = page.evaluate("() => [...document.querySelectorAll('#main .scroll')].filter(b => "
                                     "b.scrollWidth > b.clientWidth + 1).map(b => b.firstElementChild.className)")
                assert wide == [], (view, url, wide)
                if view is PHONE and name in ("standings", "board", "pair"):
                    assert "IMPs" in page.inner_text("#main table.std") and page.is_visible("#main .narrow"), url
                    _shot(page, f"duplicate-{name}-{view['width']}")
                    page.goto(served.base_url + url + "?lang=es")  # (Spanish headings are longer)
                    page.wait_for_selector("#main", timeout=WAIT_MS)
                    wide = page.evaluate("() => [...document.querySelectorAll('#main .scroll')].filter(b => "
                                         "b.scrollWidth > b.clientWidth + 1).map(b => b.firstElementChild.className)")
                    assert wide == [], (view, url, "es", wide)
                    _shot(page, f"duplicate-{name}-{view['width']}-es")
                    continue
                _shot(page, f"duplicate-{name}-{view['width']}")
            page.close()
    finally:
        served.close()


@pytest.mark.parametrize("lang, heading", [("en", "Board 1: its score"), ("es", "Tablero 1: sus puntos")])
def test_a_boards_score_typed_at_a_scores_only_table(tmp_path: Path, browser, _dealt: Path, lang: str,
                                                     heading: str) -> None:
    """A table that records scores only types board 1's score (the points and how the hand ended),
    both sides confirm it, and the page moves on to board 2's score; the event has board 1's typed
    score, unverified, with how it ended."""
    path = _seated(tmp_path, _dealt)
    served = _served(path)
    try:
        context = browser.new_context(viewport=PHONE, locale=lang)
        page = context.new_page()
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_selector('#board-now[data-board="1"]', timeout=WAIT_MS)
        before = _rev(page)
        page.click("#mode-sheet", timeout=WAIT_MS)
        wait_rev(page, before, WAIT_MS)
        page.wait_for_selector('#add-sheet-board[data-board="1"]', timeout=WAIT_MS)
        assert heading in page.inner_text("#panel")
        page.fill("#score-NS", "36")
        page.fill("#score-EW", "0")
        page.select_option("#board-ended", "blocked")
        before = _rev(page)
        page.click("#add-sheet-board")
        wait_rev(page, before, WAIT_MS)
        _shot(page, f"duplicate-board-score-{lang}")
        _confirm_all(page, ["NS", "EW"])
        page.wait_for_selector('#add-sheet-board[data-board="2"]', timeout=WAIT_MS)
        assert page.input_value("#score-NS") == ""  # board 2's boxes are its own
        context.close()
    finally:
        served.close()
    store = open_event(path)
    table = store.tables(1)[0]
    entered = duplicate.entered(store, table.id, 1)
    assert (entered["ns_points"], entered["ew_points"], entered["ended"], bool(entered["verified"])) == \
        (36, 0, "blocked", False)
    store.close()


def test_the_director_corrects_two_boards_in_turn_each_its_own(tmp_path: Path, browser, _dealt: Path) -> None:
    """On the director's page, board 2 of a table is picked and corrected, then corrected again:
    after the first save the board list stays on board 2, its boxes hold board 2's new score, and
    the second save corrects board 2 again.  (The list jumped back to board 1 after a save, its
    score in the boxes, and the second save silently replaced board 1.)"""
    path = _seated(tmp_path, _dealt)
    run("result", path, "-r", 1, "-t", 1, "-b", 1, "--score", "NS=30,EW=0")
    run("result", path, "-r", 1, "-t", 1, "-b", 2, "--score", "NS=0,EW=12")
    served = _served(path)
    try:
        page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        page.goto(served.links["director"])
        page.locator("#tables tbody tr").first.locator("button").click(timeout=WAIT_MS)
        page.wait_for_selector("#result-board", state="visible", timeout=WAIT_MS)
        assert page.input_value("#result-board") == "1" and page.get_attribute("#dir-score-NS", "placeholder") == "30"
        page.select_option("#result-board", "2")
        assert page.get_attribute("#dir-score-EW", "placeholder") == "12"
        for ew, reason in (("14", "recount"), ("16", "recount again")):
            page.fill("#dir-score-NS", "0")
            page.fill("#dir-score-EW", ew)
            page.fill("#result-reason", reason)
            page.evaluate("() => { const m = document.getElementById('detail-message'); m.textContent = ''; "
                          "m.className = ''; }")
            page.click("#result-form button[type=submit]", timeout=WAIT_MS)
            page.wait_for_selector("#detail-message.good", timeout=WAIT_MS)
            assert "board 2" in page.inner_text("#detail-message")
            assert page.input_value("#result-board") == "2"  # the board just corrected, still picked
            assert page.get_attribute("#dir-score-EW", "placeholder") == ew
        _shot(page, "duplicate-director-board-2")
        page.close()
    finally:
        served.close()
    store = open_event(path)
    table = store.tables(1)[0]
    got = {b: (duplicate.entered(store, table.id, b)["ns_points"], duplicate.entered(store, table.id, b)["ew_points"])
           for b in (1, 2)}
    store.close()
    assert got == {1: (30, 0), 2: (0, 16)}


def test_a_board_entered_over_the_page_and_the_table_goes_on(tmp_path: Path, browser, _dealt: Path) -> None:
    """Board 1 begun on the page, then entered by the director beside the server (``--replace``):
    the page moves on to board 2 by itself, says why, and *Start board 2* starts its deal (before,
    the page offered board 2 and refused to start it: board 1's hand was still in play)."""
    path = _seated(tmp_path, _dealt)
    served = _served(path)
    try:
        page = browser.new_page(viewport=PHONE)
        page.goto(served.links["tables"][0]["url"])
        page.click('#start-hand[data-board="1"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .tiles button[data-tile]", timeout=WAIT_MS)
        _tap_a_legal_move(page)
        run("result", path, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=50,EW=0", "--replace")
        page.wait_for_selector('#board-now[data-board="2"]', timeout=WAIT_MS)
        page.wait_for_function("() => document.querySelector('#message').textContent === "
                               "\"The director entered board 1's result: the table goes on with its next board.\"",
                               timeout=WAIT_MS)
        page.click('#start-hand[data-board="2"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .tiles button[data-tile]", timeout=WAIT_MS)
        _shot(page, "duplicate-board-entered-over-play")
    finally:
        served.close()
