"""The director's result form starts with empty score boxes, in every format (a real browser: the
system's Chromium driven by Playwright, the venue served on 127.0.0.1).

The boxes came filled with the table's running totals, 0 and 0 before a hand is played, so one tap
on *Save the result* stored a 0 – 0 draw.  docs/venue.md ("Blank boxes") says the form refuses a box
left empty: *type the score of NS as a whole number of points*.  Here, for pairs, rotating
partners, teams and individual tables of 3, 4 and 5, the opened table's boxes are empty (what is
stored is at most a greyed placeholder), an untouched form is refused with that line naming the
first side, and the event file holds no result after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import add_pairs, add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event import teams as tm

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip
from tests.tournament.test_duplicate_event import run

playwright_api = playwright_or_skip(server=False)
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402

WAIT_MS = 60_000
NAMES = [f"Player {n:02d}" for n in range(1, 21)]


def _individual(game: str, size: int):
    def make(path: Path) -> None:
        store = create_event(path, make_settings("Club", game, "individual", size, seed=4))
        add_players(store, NAMES[:size * 2])
        pair_next_round(store)
        store.close()
    return make


def _partners(fmt: str):
    def make(path: Path) -> None:
        store = create_event(path, make_settings("Club", "competitive", fmt, seed=4))
        if fmt == "pairs":
            add_pairs(store, [(NAMES[2 * k], NAMES[2 * k + 1], None) for k in range(4)])
        else:
            add_players(store, NAMES[:8])
        pair_next_round(store)
        store.close()
    return make


def _teams(path: Path) -> None:
    store = create_event(path, make_settings("Club", "competitive", "teams", team_size=4, seed=4))
    tm.add_teams(store, [(f"Team {t}", [(f"P{t}-{2 * k}", f"P{t}-{2 * k + 1}", f"T{t} pair {k + 1}")
                                        for k in range(2)], []) for t in range(1, 3)])
    pair_next_round(store)
    store.close()


EVENTS = {"pairs": (_partners("pairs"), "NS"), "rotating": (_partners("rotating"), "NS"), "teams": (_teams, "NS"),
          "horse-race-3": (_individual("horse-race", 3), "P1"),
          "castle-rock-4": (_individual("castle-rock", 4), "P1"),
          "castle-rock-5": (_individual("castle-rock", 5), "P1")}


def _results(path: Path) -> list:
    with open_event(path) as store:
        return [store.result_for(t.id) for t in store.tables(1)]


def _open_first_table(page) -> None:
    page.locator("#tables tbody tr button").first.click(timeout=WAIT_MS)
    page.wait_for_selector("#detail:not([hidden]) #result-scores input", timeout=WAIT_MS)


@pytest.mark.parametrize("kind", list(EVENTS))
def test_an_untouched_result_form_is_refused(tmp_path, browser, kind):
    make, first = EVENTS[kind]
    path = tmp_path / "club.db"
    make(path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(served.links["director"])
        _open_first_table(page)
        boxes = page.locator("#result-scores input")
        assert boxes.count() >= 2
        assert [boxes.nth(i).input_value() for i in range(boxes.count())] == [""] * boxes.count()
        assert boxes.first.get_attribute("id") == f"dir-score-{first}"
        page.click("#result-form button[type=submit]", timeout=WAIT_MS)
        page.wait_for_selector("#detail-message.bad", timeout=WAIT_MS)
        assert page.inner_text("#detail-message") == f"type the score of {first} as a whole number of points"
        page.screenshot(path=str(tmp_path / f"director-empty-{kind}.png"))
        page.close()
    assert not any(_results(path))


def test_a_stored_result_is_a_placeholder_not_a_value(tmp_path, browser):
    """A table with a result: its boxes are empty, the stored scores greyed in them, and an
    untouched form is refused (nothing resent, nothing changed)."""
    path = tmp_path / "club.db"
    _partners("pairs")(path)
    run("result", path, "--round", 1, "--table", 1, "--score", "NS=30,EW=12")
    before = _results(path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(served.links["director"])
        _open_first_table(page)
        assert page.input_value("#dir-score-NS") == "" and page.input_value("#dir-score-EW") == ""
        assert page.get_attribute("#dir-score-NS", "placeholder") == "30"
        assert page.get_attribute("#dir-score-EW", "placeholder") == "12"
        page.click("#result-form button[type=submit]", timeout=WAIT_MS)
        page.wait_for_selector("#detail-message.bad", timeout=WAIT_MS)
        assert page.inner_text("#detail-message") == "type the score of NS as a whole number of points"
        page.close()
    assert _results(path) == before
