"""What the tester of Dec 7's club night found on the pages (Playwright driving the system's
Chromium; phones at 390x844, the director's page at 1366x768), each in English and in Spanish:

* the director's row said "sent 0 lines made offline, just now · 1 refused (another phone had moved
  the table on)" of a phone that sent one line made offline, refused: it sent one (taken or refused,
  each is a line the server had); "1 rechazadas" is "1 rechazada";
* a table recording scores only, its game over, offline with a write kept: the note under the
  greyed Confirm buttons spoke of the moves made offline; it says the scores, as the banner does;
* round 1's seeding offered "rating (the players' rating column)" where no player has a rating: it
  is greyed, saying so, and the draw stays chosen;
* "Pair the next round" was greyed with no reason while a table had no result: the reason is said
  beside it, in the words its tap is refused with;
* the last action's line stayed at the top for the whole round: it stays through the refreshes
  while the round stands as it was, and goes once the round moves on (a table starts playing).

Waits are on the pages' own marks (``data-refreshed``, ``data-said``, ``data-outbox``, text), never
on time.  Slow; skipped where Chromium or Playwright is missing."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip

pytestmark = pytest.mark.slow

playwright_api = playwright_or_skip(server=True)

from domrec.session import requests_for  # noqa: E402
from tournament import add_players, create_event, make_settings  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _event, _game, _recorded, _served, _shot  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _director_post, _opened, _outbox  # noqa: E402

DESK = {"width": 1366, "height": 768}
PLAYERS = ["Ana", "Bo", "Cy", "Di"]


def _table_post(served, path: str, body: dict) -> tuple[int, dict]:
    """A write of round 1 table 1's phone, by the table's key, as its outbox sends one."""
    key = served.links["tables"][0]["url"].rsplit("/", 1)[1]
    asked = urllib.request.Request(f"{served.base_url}/api/v1/tables/1/1/{path}", data=json.dumps(body).encode(),
                                   method="POST",
                                   headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(asked, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _refreshed(page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.refreshed || 0)"))


def _after_refreshes(page, n: int) -> None:
    """Wait until the director's page has read the overview ``n`` more times (its 3 s refresh)."""
    before = _refreshed(page)
    page.wait_for_function(f"() => Number(document.body.dataset.refreshed || 0) >= {before + n}", timeout=WAIT_MS)


@pytest.mark.parametrize("lang, words", [
    ("en", "sent 1 line made offline, just now · 1 refused (another phone had moved the table on)"),
    ("es", "envió 1 línea hecha sin conexión, ahora mismo · 1 rechazada (otro teléfono había avanzado la mesa)")])
def test_a_line_made_offline_and_refused_is_counted_as_sent(tmp_path: Path, browser, lang: str, words: str) -> None:
    path = _event(tmp_path, "competitive", PLAYERS)
    steps = [s for s in requests_for(_game(path, seed=5)) if s != "y"]
    served = _served(path)
    try:
        # Another phone records the first line; this phone's line made offline on the table as it
        # was before (revision 0) arrives after it: refused, "the table has moved on".
        assert _table_post(served, "dgn", {"rev": 0, "text": steps[0]})[0] == 200
        status, said = _table_post(served, "dgn", {"rev": 0, "text": steps[1], "cid": "phone-abc-1",
                                                   "at": "2026-12-07T20:15:00Z"})
        assert status == 409, said
        page = browser.new_context(viewport=DESK).new_page()
        page.goto(served.links["director"] + f"?lang={lang}")
        page.wait_for_selector('#tables tbody tr[data-table="1"] .state-offline', timeout=WAIT_MS)
        line = page.locator('#tables tbody tr[data-table="1"] .state-offline')
        # (how long ago, "just now" on any machine but one stalled a minute, is not what is tested)
        sent, ago, refused = words.partition("just now" if lang == "en" else "ahora mismo")
        assert line.inner_text().startswith(sent) and line.inner_text().endswith(refused), line.inner_text()
        assert line.get_attribute("data-offline") == "1" and line.get_attribute("data-refused") == "1"
        _shot(page, f"dec7-tester-director-offline-refused-{lang}")
        page.context.close()
    finally:
        served.close()


SCORES_FIRST = {
    "en": "Confirming waits for the connection to the server: the scores made offline are sent first.",
    "es": "La confirmación espera a la conexión con el servidor: primero se envían los tanteos hechos sin conexión."}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_scores_only_table_waits_on_its_scores_not_its_moves(tmp_path: Path, browser, lang: str) -> None:
    """Every hand's score typed (scores only), the game over; the phone loses the Wi-Fi and keeps a
    write (a call of the director): the note under the greyed Confirm buttons says the scores made
    offline are sent first, as the banner says "scores waiting to be sent", never moves."""
    path = _event(tmp_path, "competitive", PLAYERS)
    served = _served(path)
    try:
        hands = [f"hand {n}\nend NS {50 + n} EW 0" for n in range(1, 5)]  # 51 + 52 + 53 + 54 >= 200
        _recorded(served, hands, mode="sheet")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"] + f"?lang={lang}")
        page.wait_for_selector('#panel button[data-side="EW"]', timeout=WAIT_MS)
        context.set_offline(True)
        page.click("#call")
        _outbox(page, 1)
        page.wait_for_function("() => (document.getElementById('confirm-waits') || {}).textContent === "
                               f"{SCORES_FIRST[lang]!r}", timeout=WAIT_MS)
        assert page.is_disabled('#panel button[data-side="EW"]')
        note = page.inner_text("#confirm-waits")
        assert ("moves" not in note) and ("jugadas" not in note)
        _shot(page, f"dec7-tester-scores-only-confirm-waits-{lang}")
        context.close()
    finally:
        served.close()


@pytest.mark.parametrize("rated", [False, True])
def test_round_one_is_offered_by_rating_only_where_a_player_has_one(tmp_path: Path, browser, rated: bool) -> None:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4))
    add_players(store, [f"{p} {n}" for n in (1, 2) for p in PLAYERS],
                fields=[{"rating": str(1500 + i), "club": "Norte"} if rated else {"club": "Norte"} for i in range(8)])
    store.close()
    served = _served(path)
    try:
        for lang, words in (("en", ("rating (the players' rating column)", "rating (no player has a rating)")),
                            ("es", ("rating (la columna rating de los jugadores)", "rating (ningún jugador tiene rating)"))):
            page = browser.new_context(viewport=DESK).new_page()
            page.goto(served.links["director"] + f"?lang={lang}")
            page.wait_for_selector("#seed-row:not([hidden]) option[value='column:club']", state="attached",
                                   timeout=WAIT_MS)
            options = page.eval_on_selector_all("#seed option", "os => os.map(o => [o.value, o.textContent, o.disabled])")
            assert [v for v, _, _ in options] == ["draw", "rating", "column:club"]
            assert options[1][1:] == ([words[0], False] if rated else [words[1], True]), options
            assert page.input_value("#seed") == "draw"
            # (drawn as a list for the picture: a closed select shows its choice alone)
            page.evaluate("() => { const s = document.getElementById('seed'); s.size = s.options.length; }")
            _shot(page, f"dec7-tester-director-seeding-{'rated' if rated else 'unrated'}-{lang}")
            page.context.close()
    finally:
        served.close()


@pytest.mark.parametrize("lang, waits, paired", [
    ("en", "round 1 is not finished: table 1 has no confirmed result yet", "round 2 is paired"),
    ("es", "la ronda 1 no ha terminado: la mesa 1 aún no tiene resultado confirmado", "la ronda 2 está emparejada")])
def test_pairing_says_why_it_waits_and_the_last_line_goes_once_the_round_moves_on(tmp_path: Path, browser, lang: str,
                                                                                  waits: str, paired: str) -> None:
    path = _event(tmp_path, "competitive", PLAYERS)
    served = _served(path)
    try:
        page = browser.new_context(viewport=DESK).new_page()
        page.goto(served.links["director"] + f"?lang={lang}")
        # The round in play: the button greyed, and why, in the words of its refusal.
        page.wait_for_selector("#pair-waits", state="visible", timeout=WAIT_MS)
        assert page.is_disabled("#pair") and page.inner_text("#pair-waits") == waits
        _shot(page, f"dec7-tester-director-pair-waits-{lang}")
        _director_post(served, "/api/v1/tables/1/1/result", {"scores": {"NS": 200, "EW": 100}})
        page.wait_for_selector("#pair:not([disabled])", timeout=WAIT_MS)
        assert not page.is_visible("#pair-waits")
        page.click("#pair")
        page.wait_for_selector("#message.good", timeout=WAIT_MS)
        assert page.inner_text("#message").startswith(paired)
        # The line stays while the round stands as it was: through refreshes that find nothing new.
        _after_refreshes(page, 3)
        assert page.inner_text("#message").startswith(paired)
        assert page.evaluate("() => document.body.dataset.said") == "kept"
        _shot(page, f"dec7-tester-director-said-kept-{lang}")
        # Round 2's table starts playing: the round moved on, and the line goes.
        key = next(t["token"] for t in served.refresh_links()["tables"] if t["round"] == 2)
        asked = urllib.request.Request(f"{served.base_url}/api/v1/tables/2/1/dgn",
                                       data=json.dumps({"rev": 0, "text": "hand 1"}).encode(), method="POST",
                                       headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        with urllib.request.urlopen(asked, timeout=60) as answer:
            assert answer.status == 200
        page.wait_for_function("() => document.body.dataset.said === 'cleared'", timeout=WAIT_MS)
        assert page.inner_text("#message") == ""
        _shot(page, f"dec7-tester-director-said-cleared-{lang}")
        page.context.close()
    finally:
        served.close()
