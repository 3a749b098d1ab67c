"""A write answered *busy* (503 with ``Retry-After``: another program holding the event file past
the venue's wait, docs/venue.md "The event file held by another program for longer") in a real
browser: the table's page and the director's page take it as busy, never as a refusal, and send
the same write again with its same id once the Retry-After has passed; the server stores it once.

No lock is taken here: the page's first request of the write is answered 503 by the browser's
route (the server never sees it), the ones after it go through.  What the page showed meanwhile is
recorded in the page itself (a MutationObserver), so that nothing depends on the test looking at
the right moment; waits are on the page's own marks (``data-outbox``, ``data-rev``, an answer),
never on time.  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament import open_event

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip, with_clock

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import (PHONE, WAIT_MS, _event, _game, _log,  # noqa: E402
                                                 _recorded, _rev, _served, _steps, _type)
from tests.tournament.helpers import hand_by_hand  # noqa: E402
from domrec.session import requests_for  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _bodies, _opened, _outbox  # noqa: E402

HELD = "another program is holding the event file: nothing was stored; this is sent again shortly"
BUSY_BANNER = "the server is busy: 1 line waiting to be sent again shortly"

#: What the page shows, recorded at each change of it: <body>'s marks, the outbox's banner, the
#: message lines (the table's, the director's beside the open table).
RECORD = """() => {
  window.__seen = [];
  const text = (id) => { const e = document.getElementById(id); return e ? [e.textContent, e.className] : null; };
  const snap = () => {
    const d = document.body.dataset;
    window.__seen.push({link: d.link, outbox: d.outbox, unanswered: d.unanswered, rev: d.rev, tries: d.tries,
                        banner: text('outbox'), message: text('message'), detail: text('detail-message'),
                        pending: text('confirm-pending')});
  };
  snap();
  new MutationObserver(snap).observe(document.body, {attributes: true, childList: true, subtree: true,
                                                     characterData: true});
}"""


def _record(page) -> None:
    page.evaluate(RECORD)


def _seen(page) -> list[dict]:
    return page.evaluate("() => window.__seen")


def _answered(page, pattern: str, plan: list[str]) -> list[dict]:
    """The POSTs matching ``pattern`` answered as ``plan`` says, one each in order: ``"busy"`` (503
    ``Retry-After: 1``, as the venue answers a write while another program holds the event file),
    ``"lost"`` (no answer: the connection fails); the ones after it go to the server."""
    sent: list[dict] = []

    def answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.post_data_json)
        how = plan[len(sent) - 1] if len(sent) <= len(plan) else "server"
        if how == "busy":
            route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": "application/json"},
                          body=json.dumps({"error": HELD}))
        elif how == "lost":
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route(pattern, answer)
    return sent


def _pause_passed(page, shown: str, ms: int) -> None:
    """Once the page shows ``shown`` (a JavaScript condition: what it says of a try answered busy, or
    of one that found no answer, said as it sets its pause before the next try), its clock moved on
    by ``ms``, the pause (the Retry-After's second, or 1, 2 … seconds after a try that failed): the
    next try goes now, not that long later.  The page's time passes as it did (its clock installed
    before it loaded: :func:`tests.browser.with_clock`); only how long the test sat waiting changes,
    and what the page showed meanwhile is recorded in the page as before."""
    page.wait_for_function(f"() => {shown}", timeout=WAIT_MS)
    page.clock.fast_forward(ms)


def _detail_is(text: str) -> str:
    return f"document.getElementById('detail-message').textContent === {json.dumps(text)}"


def _pending_is(text: str) -> str:
    return f"(document.getElementById('confirm-pending') || {{}}).textContent === {json.dumps(text)}"


def _is_response(path_end: str, status: int):
    return lambda r: r.url.split("?")[0].endswith(path_end) and r.request.method == "POST" and r.status == status


def test_a_line_answered_busy_waits_in_the_outbox_and_is_sent_again_with_its_id(tmp_path, browser):
    """The line is not refused nor dropped: it goes into the outbox (the banner says the server is
    busy, ``data-link="busy"``), is sent again with its same id after the Retry-After, stored once,
    and the table is drawn at the revision after it; play goes on."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    steps = _steps(_game(path, seed=3))
    served = _served(path)
    try:
        context = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        page = _opened(context, served.links["tables"][0]["url"])  # (without the engine: kept unchecked)
        _type(page, steps[0])
        at = _rev(page)
        _record(page)
        sent = _answered(page, "**/dgn*", ["busy"])
        page.fill("#typed-text", steps[1])
        with page.expect_response(_is_response("/dgn", 200), timeout=WAIT_MS) as again:
            page.click("#typed-form button[type=submit]")
            _pause_passed(page, "document.body.dataset.link === 'busy' && document.body.dataset.outbox === '1'", 1000)
        assert again.value.request.post_data_json["cid"] == sent[0]["cid"]
        _outbox(page, 0)
        page.wait_for_function("() => document.getElementById('outbox').textContent === 'all sent'", timeout=WAIT_MS)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {at + 1} && document.body.dataset.link === 'ok'",
                               timeout=WAIT_MS)
        seen = _seen(page)
        assert len(sent) == 2, sent
        assert sent[0]["cid"] == sent[1]["cid"] and sent[0]["text"] == sent[1]["text"] == steps[1]
        assert sent[0]["rev"] == sent[1]["rev"] == at
        busy = [s for s in seen if s["link"] == "busy"]
        assert busy and all(s["outbox"] == "1" for s in busy), seen
        assert any(s["banner"] and s["banner"][0] == BUSY_BANNER for s in busy), seen
        # Never said as a refusal: neither the server's line in red nor "try again".
        assert not any(s["message"] and s["message"][1] == "bad" for s in seen), seen
        assert page.input_value("#typed-text") == ""  # (kept, not left in the box to type again)
        _type(page, steps[2])  # and play goes on, online
    finally:
        served.close()
    assert _bodies(path) == steps[:3]  # the line answered busy stored once, in its place


def test_a_confirmation_answered_busy_is_sent_again_with_its_id_and_taken_once(tmp_path, browser):
    """A confirmation is never kept in the outbox: answered 503 it is said to wait
    (``data-unanswered="/confirm"``, the banner busy) and ``deliver`` sends it again with its id
    after the Retry-After; the server takes it once and the table is drawn after it."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=5)
    served = _served(path)
    try:
        context = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        # (the game written a hand a request before the page opens: what is looked at is its confirmation)
        _recorded(served, hand_by_hand(requests_for(record)), mode="play")
        page = _opened(context, served.links["tables"][0]["url"])
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        over = _rev(page)
        _record(page)
        sent = _answered(page, "**/confirm*", ["busy"])
        with page.expect_response(_is_response("/confirm", 200), timeout=WAIT_MS) as again:
            page.click('#panel button[data-side="NS"]')
            _pause_passed(page, "document.body.dataset.unanswered === '/confirm' && document.body.dataset.link === 'busy'",
                          1000)
        assert again.value.request.post_data_json["cid"] == sent[0]["cid"]
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {over + 1} "
                               "&& document.body.dataset.unanswered === undefined", timeout=WAIT_MS)
        seen = _seen(page)
        assert len(sent) == 2 and sent[0] == sent[1], sent  # the same write: its id, its side, its revision
        assert sent[0]["side"] == "NS" and sent[0]["rev"] == over
        assert any(s["unanswered"] == "/confirm" and s["link"] == "busy" for s in seen), seen
        assert not any(s["message"] and s["message"][1] == "bad" for s in seen), seen
        assert page.evaluate("() => document.body.dataset.tries") == "2"
        page.unroute("**/confirm*")
        button = page.locator('#panel button[data-side="EW"]')
        button.wait_for(timeout=WAIT_MS)
        with page.expect_response(_is_response("/confirm", 200), timeout=WAIT_MS):
            button.click()
        # (the table's own heading once confirmed: "Confirmed" alone is met at once by NS's button,
        # "NS confirmed", drawn before EW's tap)
        page.wait_for_selector("text=Confirmed: the result is in the event", timeout=WAIT_MS)
    finally:
        served.close()
    rows = _log(path)
    assert [kind for kind, _ in rows].count("confirm") == 2 and len(rows) == over + 2  # NS once, EW once
    store = open_event(path)
    try:
        result = store.result_for(store.tables(1)[0].id)
        assert result is not None and result.verified
    finally:
        store.close()


def test_a_directors_result_answered_busy_is_said_and_sent_again_with_its_id(tmp_path, browser):
    """The director's page shows the server's line beside the open table (not as a refusal), and
    sends the result again with its same id once the Retry-After has passed; entered once."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        page = _director_with_table_open(browser, served)
        row = '#tables tbody tr[data-table="1"]'
        page.fill("#dir-score-NS", "150")
        page.fill("#dir-score-EW", "90")
        page.fill("#result-reason", "played on paper: the sheet was handed in")
        _record(page)
        sent = _answered(page, "**/tables/1/1/result", ["busy"])
        with page.expect_response(_is_response("/result", 200), timeout=WAIT_MS) as again:
            page.click("#result-form button[type=submit]")
            _pause_passed(page, _detail_is(HELD), 1000)
        assert again.value.request.post_data_json["cid"] == sent[0]["cid"]
        page.wait_for_selector("#detail-message.good", timeout=WAIT_MS)
        assert "NS 150" in page.inner_text("#detail-message")
        page.wait_for_selector(f'{row}[data-status="confirmed"]', timeout=WAIT_MS)
        seen = _seen(page)
        assert len(sent) == 2 and sent[0] == sent[1], sent  # the same write, its same id
        said = [s for s in seen if s["detail"] and s["detail"][0] == HELD]
        assert said and all(s["detail"][1] != "bad" for s in said), seen  # said, not as a refusal
        assert any(s["detail"][0] == HELD and s["unanswered"] for s in said), seen
        assert not any(s["detail"] and s["detail"][1] == "bad" for s in seen), seen
        assert page.evaluate("() => [document.body.dataset.unanswered, document.body.dataset.tries]") == [None, "2"]
    finally:
        served.close()
    store = open_event(path)
    try:
        table = store.tables(1)[0]
        result = store.result_for(table.id)
        assert result.scores == {"NS": 150, "EW": 90} and result.kind == "manual"
        kept = store.conn.execute("SELECT cid FROM venue_writes WHERE table_id = ?", [table.id]).fetchall()
        assert kept == [(sent[0]["cid"],)]  # the result taken once, by its id
    finally:
        store.close()


# --- what a write waiting is said to wait for: the server's last answer to it ------------------------

NOT_ANSWERING = "The server is not answering: this is sent as soon as it answers. Keep this page open; there is no need to tap again."
BUSY = {
    "en": "The server is busy (another program is holding the event file): this confirmation is sent again shortly. "
          "Keep this page open; there is no need to tap again.",
    "es": "El servidor está ocupado (otro programa tiene ocupado el archivo del torneo): esta confirmación se envía de "
          "nuevo en breve. Deje esta página abierta; no hace falta volver a tocar.",
}
SILENT = {
    "en": "The server is not answering: this confirmation is sent as soon as it answers. Keep this page open; there is "
          "no need to tap again.",
    "es": "El servidor no responde: esta confirmación se envía en cuanto responda. Deje esta página abierta; no hace "
          "falta volver a tocar.",
}


def _said_in_turn(seen: list[dict], key: str) -> list[str]:
    """The texts ``key`` showed, each change once, in order (nothing shown: left out)."""
    out: list[str] = []
    for s in seen:
        text = s[key][0] if s[key] else ""
        if text and (not out or out[-1] != text):
            out.append(text)
    return out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_confirmation_answered_busy_says_the_server_is_busy_and_then_what_its_next_try_found(tmp_path, browser, lang):
    """The server answered 503 busy: the confirmation's note says the server is busy (the event file
    held), not that it is not answering; the next try finding no answer says "not answering"; the
    answer at last takes the note away.  In the page's language."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=5)
    served = _served(path)
    try:
        context = with_clock(browser.new_context(viewport=PHONE, service_workers="block"))
        _recorded(served, hand_by_hand(requests_for(record)), mode="play")  # (a hand a request, before the page opens)
        page = _opened(context, served.links["tables"][0]["url"] + f"?lang={lang}")
        page.wait_for_selector('#panel button[data-side="NS"]:not([disabled])', timeout=WAIT_MS)
        over = _rev(page)
        _record(page)
        sent = _answered(page, "**/confirm*", ["busy", "lost"])
        with page.expect_response(_is_response("/confirm", 200), timeout=WAIT_MS):
            page.click('#panel button[data-side="NS"]')
            _pause_passed(page, _pending_is(BUSY[lang]), 1000)  # (the Retry-After's second)
            _pause_passed(page, _pending_is(SILENT[lang]), 2000)  # (the second pause after a try)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {over + 1} "
                               "&& document.body.dataset.unanswered === undefined", timeout=WAIT_MS)
        seen = _seen(page)
        assert len(sent) == 3 and sent[0] == sent[1] == sent[2], sent
        assert _said_in_turn(seen, "pending") == [BUSY[lang], SILENT[lang]], seen
        assert page.locator("#confirm-pending").count() == 0
    finally:
        served.close()


def _director_with_table_open(browser, served):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    with_clock(page.context)
    page.goto(served.links["director"])
    row = '#tables tbody tr[data-table="1"]'
    page.wait_for_selector(f'{row}[data-status="not started"]', timeout=WAIT_MS)
    page.click(f"{row} button", timeout=WAIT_MS)
    page.wait_for_selector('#detail-title:text-matches("table 1:")', timeout=WAIT_MS)
    return page


@pytest.mark.parametrize("plan, said", [(["busy", "lost"], [HELD, NOT_ANSWERING]),
                                        (["lost", "busy"], [NOT_ANSWERING, HELD])], ids=["busy-then-lost", "lost-then-busy"])
def test_the_directors_page_says_what_the_last_try_of_a_write_found(tmp_path, browser, plan, said):
    """A result answered busy, then finding no answer (or the other way round): the line beside
    the form says each in turn, the latest, never the one before it held; the answer ends it."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        page = _director_with_table_open(browser, served)
        page.fill("#dir-score-NS", "150")
        page.fill("#dir-score-EW", "90")
        page.fill("#result-reason", "played on paper: the sheet was handed in")
        _record(page)
        sent = _answered(page, "**/tables/1/1/result", plan)
        with page.expect_response(_is_response("/result", 200), timeout=WAIT_MS):
            page.click("#result-form button[type=submit]")
            # (the first pause a second, the Retry-After's or the first after a failed try; the next two)
            for text, ms in zip(said, (1000, 2000)):
                _pause_passed(page, _detail_is(text), ms)
        page.wait_for_selector("#detail-message.good", timeout=WAIT_MS)
        seen = _seen(page)
        assert len(sent) == 3 and sent[0] == sent[1] == sent[2], sent
        waited = [text for text in _said_in_turn(seen, "detail") if text in (HELD, NOT_ANSWERING)]
        assert waited == said, _said_in_turn(seen, "detail")
        assert "NS 150" in page.inner_text("#detail-message")
    finally:
        served.close()


def test_a_directors_write_answered_at_last_clears_what_was_said_of_its_waiting(tmp_path, browser):
    """A new key answered busy, then given: the line that said the server was busy goes (the new
    link is shown below it); it does not stay, as if the key still waited."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        page = _director_with_table_open(browser, served)
        _record(page)
        sent = _answered(page, "**/tables/1/1/key", ["busy"])
        page.click("#new-key")
        with page.expect_response(_is_response("/key", 200), timeout=WAIT_MS):
            page.click("#new-key-yes")
            _pause_passed(page, _detail_is(HELD), 1000)
        page.wait_for_selector("#key-done:not([hidden])", timeout=WAIT_MS)
        assert len(sent) == 2 and sent[0] == sent[1], sent
        assert HELD in _said_in_turn(_seen(page), "detail")
        assert page.inner_text("#detail-message") == ""
    finally:
        served.close()
