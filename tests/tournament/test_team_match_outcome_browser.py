"""The director's page in a real browser (Playwright driving the system's Chromium, the venue
served on 127.0.0.1 on a port the system picks, bound at once): a team match whose tables are
all in ends its line with its outcome, in the page's language, as ``tournament tables`` words it.
Slow; skipped with the reason where Chromium, Playwright or uvicorn is missing."""

from __future__ import annotations

import pytest

from tournament import open_event
from tournament.event import teams

from tests.browser import playwright_or_skip
from tests.tournament.test_teams import run, write_csv

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue  # noqa: E402


@pytest.mark.parametrize("lang, words", [("en", "match drawn"), ("es", "encuentro empatado")])
def test_the_directors_page_shows_the_match_drawn(tmp_path, browser, lang, words) -> None:
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--seed", "5")
    run("add", event, "--csv", write_csv(tmp_path / "equipos.csv", 2))
    run("pair", event)
    run("result", event, "--round", 1, "--table", 1, "--score", "NS=200,EW=100")
    run("result", event, "--round", 1, "--table", 2, "--score", "NS=200,EW=90")
    with open_event(event) as store:
        (m,) = teams.match_docs(store, 1)
    if m["home_games"] != m["away_games"]:  # the same team sat NS at both tables: the other way round
        run("amend", event, "--round", 1, "--table", 2, "--score", "NS=90,EW=200", "--reason", "swapped")
    with BackgroundVenue(event, rate=1e9, burst=10 ** 9) as served:
        context = browser.new_context(extra_http_headers={"Accept-Language": lang})
        page = context.new_page()
        page.goto(served.links["director"])
        page.wait_for_selector("#matches .match-outcome", timeout=60_000)
        assert page.text_content("#matches .match-outcome") == f"({words})"
        context.close()
