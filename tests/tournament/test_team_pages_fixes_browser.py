"""What the tester found on the phone, in a real browser (Playwright driving the system's Chromium,
the venue served on 127.0.0.1 on a port the system picks, bound at once): a table whose result the
director entered over its game in play shows no seat to play and no hand in play; a set's phone
sends its players to the line's next game.  Slow; skipped with the reason where Chromium,
Playwright or uvicorn is missing."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser import keep, playwright_or_skip
from tests.tournament.test_teams import a_wins_next, run, set_of_two
from tests.tournament.test_venue import _event, _game_of, _requests

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue  # noqa: E402

PHONE = {"width": 390, "height": 844}
WAIT_MS = 60_000


def _api(base: str, token: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(f"{base}/api/v1/tables/1/1{path}", method="POST" if body is not None else "GET",
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def test_a_result_entered_over_the_phones_game_shows_nobody_to_play(tmp_path, browser):
    """Finding 20: the director's result over a hand in play: the phone shows the result, and
    neither the seat to play (◀) nor the hand's moves and line ("This hand")."""
    path = _event(tmp_path, "competitive")
    texts = _requests(_game_of(path, 1, 1, seed=5))
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        url = served.links["tables"][0]["url"]
        base, token = url.split("/t/")[0], url.rsplit("/", 1)[1]
        state = _api(base, token, "")
        state = _api(base, token, "/mode", {"rev": state["rev"], "mode": "play"})
        for text in texts[:9]:
            state = _api(base, token, "/dgn", {"rev": state["rev"], "text": text})
        assert state["status"] == "playing" and state["game"]["in_hand"]
        run("result", path, "--table", 1, "--score", "NS=200,EW=50", "--replace")
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => document.body.dataset.rev !== undefined", timeout=WAIT_MS)
        page.wait_for_selector("text=Confirmed: the result is in the event", timeout=WAIT_MS)
        keep(page, "team-fixes-director-result-phone")
        assert "◀" not in page.text_content("#players")
        assert page.query_selector_all("#players .to-move") == []
        assert page.is_hidden("#this-hand")
        context.close()


def test_a_sets_phone_says_where_the_lines_next_game_is(tmp_path, browser):
    """Finding 9: after a set's game is confirmed, the phone names the line's next game (seated
    at once in the same round), not "round 2 is not paired yet"."""
    event = set_of_two(tmp_path / "set.db")
    with BackgroundVenue(event, rate=1e9, burst=10 ** 9) as served:
        url = served.links["tables"][0]["url"]
        a_wins_next(event)  # table 1's result; table 3 seated
        for lang, heading in (("en", "Where to go next: the set's next game"),
                              ("es", "A dónde ir: la siguiente partida del set")):
            context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": lang})
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("#next li", timeout=WAIT_MS)
            keep(page, f"team-fixes-set-next-{lang}")
            text = page.text_content("#next")
            assert heading in text and "not paired" not in text and "3" in page.text_content("#next li b")
            context.close()


@pytest.mark.parametrize("lang, said", [("en", "Bye: Team 4"), ("es", "Descansa: Team 4")])
def test_the_directors_page_names_the_team_with_the_bye(tmp_path, browser, lang, said):
    """Finding 24: the director's page says which team has the bye this round, and each table's
    sides by their pair and team."""
    event = tmp_path / "five.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", 4, "--seed", 3)
    for t in range(1, 6):
        run("team", event, "add", f"Team {t}", "--pair", f"A{t},B{t}", "--pair", f"C{t},D{t}")
    run("pair", event)
    bye = [line for line in run("tables", event).splitlines() if line.startswith("bye: ")]
    assert bye and bye[0].startswith("bye: Team 4"), bye  # (the draw of seed 3)
    with BackgroundVenue(event, rate=1e9, burst=10 ** 9) as served:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, extra_http_headers={"Accept-Language": lang})
        page = context.new_page()
        page.goto(served.links["director"])
        page.wait_for_selector("#team-byes:not([hidden])", timeout=WAIT_MS)
        keep(page, f"team-fixes-director-bye-{lang}")
        assert page.text_content("#team-byes") == said
        # each table's sides, by pair and team (table 1 of seed 3's draw: Team 2 N-S, Team 5 E-W)
        units = [page.text_content(f'#tables tr[data-table="1"] .unit[data-side="{side}"]') for side in ("NS", "EW")]
        assert units == ["NS A2 & B2 · Team 2", "EW A5 & B5 · Team 5"], units
        context.close()
