"""The table page's Undo right after the ``left`` line that closed a hand, in a real browser at a
phone's 390x844 (Chromium with Playwright, never a downloaded browser).

The state says the last hand was closed so (``game.left_closed``), and the page's Undo sends
``undo left``: the left line is taken back with the deal worked out from it, the page asks for the
tiles each player still holds again, and the table's log keeps the line as sent (a plain ``undo``
keeps the meaning the venue's logs were written with: tests/tournament/test_undo_left_log.py).
Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import pytest

from tournament import open_event

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from domrec.session import UNDO_LEFT, requests_for  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _event, _game, _recorded, _served, _shot  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _opened  # noqa: E402


def _last_rows(path, n: int) -> list[tuple[str, str]]:
    store = open_event(path)
    try:
        rows = store.conn.execute("SELECT kind, body FROM venue_log ORDER BY rev DESC LIMIT ?", (n,)).fetchall()
        return [(r[0], r[1]) for r in reversed(rows)]
    finally:
        store.close()


@pytest.mark.parametrize("how", ["button", "typed"])
def test_undo_after_the_closing_left_line_asks_for_it_again(tmp_path, browser, how):
    """Undo tapped, or ``undo`` typed in the page's box (the button's word, which means what the
    button does: it was sent as a plain ``undo``, the hand's last move taken back, the deal kept)."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    texts = None
    for seed in range(40):
        typed = requests_for(_game(path, seed), keep_deal=False)
        second = next((k for k, t in enumerate(typed) if k and t.startswith("hand ")), len(typed))
        at = next((k for k, t in enumerate(typed[:second]) if t.startswith("left ")), None)
        if at is not None:
            texts = typed[:at + 1]
            break
    assert texts is not None, "no game of the table whose first hand ends with a left line"
    served = _served(path)
    try:
        rev = _recorded(served, texts)
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {rev}", timeout=WAIT_MS)
        if how == "typed":
            page.fill("#typed-text", " Undo ")
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
            page.click("#undo" if how == "button" else "#typed-form button[type=submit]")
        assert answer.value.status == 200, answer.value.json()
        assert answer.value.request.post_data_json["text"] == UNDO_LEFT
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {rev + 1}", timeout=WAIT_MS)
        assert answer.value.json()["said"][0] == "took back the left line of hand 1", answer.value.json()["said"]
        said = page.inner_text("#message")  # (the page shows the last thing said: what the hand waits for)
        assert said.startswith("hand 1 is over: give the tiles still held"), said
        panel = page.inner_text("#panel")
        assert "Type the tiles each player still holds" in panel, panel
        _shot(page, f"undo-left-{how}")
        assert _last_rows(path, 2) == [("dgn", texts[-1]), ("dgn", UNDO_LEFT)]
        # the left line typed again closes the hand again
        before = rev + 1
        page.fill("#typed-text", texts[-1])
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
            page.click("#typed-form button[type=submit]")
        assert answer.value.status == 200, answer.value.json()
        page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before}", timeout=WAIT_MS)
        assert "Type the tiles each player still holds" not in page.inner_text("#panel")
        context.close()
    finally:
        served.close()
