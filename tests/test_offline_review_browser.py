"""A club table's phone used offline, reviewed in a real browser at a phone's 390x844 (Chromium with
Playwright, never a downloaded browser): what the phone says of its lines made offline when the
director entered the table's result meanwhile.

Without the phone's engine (its files refused: a write made offline is kept unchecked, whatever the
timing), as in tests/tournament/test_venue_outbox_browser.py.  Waits are on the page's own marks
(``data-outbox``, ``data-rev``, the refused list), never on time.  Slow, and skipped with the reason
where Chromium or Playwright is missing."""

from __future__ import annotations

import pytest

from tournament import open_event

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _event, _game, _recorded, _served, _shot, _steps  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _bodies, _director_post, _opened, _outbox, _type_offline  # noqa: E402

SAID = {
    "en": "the director entered the game's result meanwhile: nothing was changed; the result is in the event",
    "es": "el árbitro introdujo el resultado de la partida entretanto: no se cambió nada; el resultado está en el torneo",
}
NOT_SENT = {"en": "not sent: a line made before it was refused", "es": "no enviado: se rechazó una línea hecha antes"}


def _entered_at_the_command_line(path) -> None:
    """``tournament result EVENT --table 1 --score NS=200,EW=143 --replace`` while the server runs
    (its result's "via" left empty, as the command line leaves it)."""
    from typer.testing import CliRunner

    from tournament.cli import app

    got = CliRunner().invoke(app, ["result", str(path), "--table", "1", "--score", "NS=200,EW=143", "--replace"])
    assert got.exit_code == 0, got.output


@pytest.mark.parametrize("lang, where", [("en", "the director's page"), ("es", "the command line")])
def test_lines_made_offline_refused_after_the_directors_result_say_the_director_entered_it(tmp_path, browser,
                                                                                             lang, where):
    """The table's one phone is offline with two lines waiting; the director enters the game's
    result (from the director's page, or with ``tournament result --replace`` at the laptop).  Back
    online, the server refuses them, and the phone lists them saying that the director entered the
    result, not the server's "round 1 table 1 is confirmed: only the director can change its result
    now": nobody at the table confirmed anything, and nothing said the director had entered it."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    steps = _steps(_game(path, seed=6))
    served = _served(path)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        _recorded(served, steps[:9])
        page = _opened(context, served.links["tables"][0]["url"] + f"?lang={lang}")
        context.set_offline(True)
        _type_offline(page, steps[9])
        _type_offline(page, steps[10])
        if where == "the director's page":
            _director_post(served, "/api/v1/tables/1/1/result",
                           {"scores": {"NS": 200, "EW": 143}, "reason": "the game stopped at the break"})
        else:
            _entered_at_the_command_line(path)
        context.set_offline(False)
        _outbox(page, 0)
        page.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
        items = page.locator("#refused-list li")
        assert items.count() == 2
        first = items.nth(0).inner_text()
        assert steps[9] in first and SAID[lang] in first, first
        assert "confirm" not in first.split(SAID[lang])[1]  # (the server's "is confirmed" said nowhere)
        assert NOT_SENT[lang] in items.nth(1).inner_text()
        assert not page.locator("#outbox").is_visible()  # (nothing taken: no "the rest were sent")
        _shot(page, f"offline-lines-after-directors-result-{lang}")
    finally:
        served.close()
    assert _bodies(path) == steps[:9]  # (the lines made offline stored nowhere)
    store = open_event(path)
    try:
        assert store.result_for(store.tables(1)[0].id).scores == {"NS": 200, "EW": 143}
    finally:
        store.close()


WAITS = {"en": "Confirming waits for the connection to the server.",
         "es": "La confirmación espera a la conexión con el servidor."}
WAITS_SENT_FIRST = "Confirming waits for the connection to the server: the moves made offline are sent first."


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_phone_with_nothing_queued_is_not_told_its_moves_made_offline_are_sent_first(tmp_path, browser, lang):
    """The game is over and recorded; the table's second phone (the one the other side confirms on)
    loses the Wi-Fi before confirming.  Its Confirm buttons wait, saying that confirming waits for
    the connection, and no longer that "the moves made offline are sent first": it made none.  A
    write it then keeps (a call of the director, made offline) is one: the note says so again."""
    from domrec.session import requests_for

    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=5)
    served = _served(path)
    try:
        _recorded(served, list(requests_for(record)), mode="play")
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"] + f"?lang={lang}")
        page.wait_for_selector('#panel button[data-side="EW"]', timeout=WAIT_MS)
        context.set_offline(True)
        page.wait_for_selector("#confirm-waits", timeout=WAIT_MS)
        assert page.inner_text("#confirm-waits") == WAITS[lang]
        assert page.is_disabled('#panel button[data-side="EW"]')
        _shot(page, f"offline-confirm-waits-nothing-queued-{lang}")
        if lang == "en":
            page.click("#call")
            _outbox(page, 1)
            page.wait_for_function("() => (document.getElementById('confirm-waits') || {}).textContent === "
                                   f"{WAITS_SENT_FIRST!r}", timeout=WAIT_MS)
    finally:
        served.close()
