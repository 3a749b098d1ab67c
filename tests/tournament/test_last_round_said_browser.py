"""A confirmed table's phone after the event's last round, in a real browser at a phone's 390x844:
"That was the last round" and the director's sentence (the session is over), in English and
Spanish, never "Where to go next: round 4 … not paired yet" for a round that never comes
(tests/tournament/test_last_round_said.py checks the state it is drawn from)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_duplicate_event import run  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot  # noqa: E402


@pytest.mark.parametrize("lang, heading, said", [
    ("en", "That was the last round", "The session is over: the 3-table mitchell has 3 rounds, and all are seated."),
    ("es", "Esa fue la última ronda",
     "La sesión ha terminado: el mitchell de 3 mesas tiene 3 rondas, y todas están sentadas.")])
def test_the_last_rounds_phone_says_the_session_is_over(tmp_path, browser, lang, heading, said):
    event = tmp_path / "sim.db"
    run("simulate", event, "--format", "duplicate", "--tables", 3, "-q")
    served = _served(event)
    try:
        url = next(t for t in served.links["tables"] if t["round"] == 3)["url"] + f"?lang={lang}"
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        page.wait_for_selector("#event-over", timeout=WAIT_MS)
        assert page.inner_text("#event-over") == said
        assert page.inner_text("#next h2") == heading
        assert "round 4" not in page.inner_text("body").lower() and "ronda 4" not in page.inner_text("body").lower()
        _shot(page, f"last-round-{lang}")
        page.close()
    finally:
        served.close()
