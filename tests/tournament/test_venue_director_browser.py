"""The director's page and the public page in a real browser: Playwright for Python driving the
system's Chromium (never a downloaded browser) against the venue served on 127.0.0.1
(:class:`tournament.web.background.BackgroundVenue`).

The director works by taps and typing, at a laptop's 1280x800 and at a phone's 390x844 (a touch
screen): every table's status at a glance, a call from a table's phone seen and cleared, a
table's game so far and its replay, a result entered with a reason and one amended (both read
back from the event file through the ``tournament`` library and its audit trail), bad results
refused in one line with the event unchanged, the next round paired once every table is
confirmed, and its score sheets with their QR codes.  The table phones are played by an HTTP
client through the same API their page uses.  The public page is read without a key.

Screenshots go to ``DOMREC_SCREENSHOTS`` (and the test's own folder) when that is set, for a person
to look at.  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import os
import random
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from domrec.session import PARTS, requests_for
from domrec.simulate import play_game

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.audit import history
from tournament.event.tables import table_record

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip, refresh_now

playwright_api = playwright_or_skip(server=False)
httpx = pytest.importorskip("httpx", reason="httpx (the table phones' client here) is not installed")
pytest.importorskip("uvicorn", reason="uvicorn (the venue's server) is not installed")

from tournament.web.background import BackgroundVenue  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: Long enough for any page to answer, and for the director's page to refresh itself (every 3
#: seconds), on a busy machine: a wait that runs out is a failure, never a pass.
WAIT_MS = 60_000
#: Twenty players, five tables; a name that would be markup if a page did not escape it, and a long one.
PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu", "Mo", "Ned", "Oz",
           "Pia", "Quinevere Featherstonehaugh", "Ros", "Sam", "Tess <b>"]


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club <night>", "competitive", "rotating", seed=4))
    add_players(store, PLAYERS)
    pair_next_round(store)
    store.close()
    return path


def _games(path: Path) -> dict[int, object]:
    """A finished game for each table of round 1 (domrec's simulator, seeded), by table number."""
    store = open_event(path)
    players = {p.id: p for p in store.players()}
    games = {t.number: play_game(table_record(store.settings, t, players), random.Random(t.number))
             for t in store.tables(1)}
    store.close()
    return games


class _Phone:
    """A table's phone: the table's API with its own key, as its page uses it."""

    def __init__(self, client: httpx.Client, link: dict) -> None:
        self.client, self.url = client, f"/api/v1/tables/{link['round']}/{link['table']}"
        self.headers = {"Authorization": f"Bearer {link['token']}"}

    def state(self) -> dict:
        r = self.client.get(self.url, headers=self.headers)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, what: str, **body) -> dict:
        r = self.client.post(f"{self.url}/{what}", headers=self.headers, json={"rev": self.state()["rev"], **body})
        assert r.status_code == 200, r.text
        return r.json()

    def record(self, texts: list[str]) -> None:
        """DGN requests, sent a hundred lines at a time (each request all or nothing)."""
        lines = "\n".join(texts).split("\n")
        for k in range(0, len(lines), 100):
            self.post("dgn", text="\n".join(lines[k:k + 100]))


def _shot(page, tmp_path: Path, name: str, whole: bool = True) -> None:
    """A screenshot kept under ``DOMREC_SCREENSHOTS`` when that is set (and then under the test's
    folder too), for a person to look at: the whole page, or (``whole=False``) the screen as the
    director sees it at that moment.  (Nothing is measured on it: without that folder none is taken,
    a second and more of a test's time; the page is scrolled to the top as for the picture, either
    way, so that the test goes on from the same place.)"""
    if whole:
        page.evaluate("() => window.scrollTo(0, 0)")  # the sticky header at the top of the picture
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if not keep:
        return
    path = tmp_path / "screenshots" / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=whole)
    Path(keep).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, Path(keep) / f"venue-{name}.png")


def _tap(page, selector: str) -> None:
    """A tap on a touch screen (the phone), a click with the mouse (the laptop)."""
    target = page.locator(selector)
    if page.viewport_size["width"] < 600:
        target.tap(timeout=WAIT_MS)
    else:
        target.click(timeout=WAIT_MS)


def _row(page, table: int) -> str:
    return f'#tables tbody tr[data-table="{table}"]'


def _wait_row(page, table: int, status: str, called: bool = False) -> str:
    """Wait (the page refreshes itself) until the row says ``status``; its text."""
    row = f'{_row(page, table)}[data-status="{status}"][data-called="{"yes" if called else "no"}"]'
    page.wait_for_selector(row, timeout=WAIT_MS)
    return page.inner_text(f"{row} td:nth-child(3)")


def _message(page, kind: str, where: str = "#message") -> str:
    """The one line the page said (``where``: the top of the page, or beside the open table's buttons)."""
    page.wait_for_selector(f"{where}.{kind}", timeout=WAIT_MS)
    text = page.inner_text(where)
    assert text and "\n" not in text and "Traceback" not in text and "internal error" not in text, text
    return text


def _one_screen_wide(page) -> None:
    """Nothing wider than the screen: no sideways scrolling on a phone."""
    width = page.viewport_size["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def _result(path: Path, table: int):
    store = open_event(path)
    try:
        return store.result_for(next(t for t in store.tables(1) if t.number == table).id)
    finally:
        store.close()


def _log(path: Path, table: int) -> list[str]:
    """The kinds of the table's accepted writes, in order, as the event file holds them."""
    store = open_event(path)
    try:
        table_id = next(t for t in store.tables(1) if t.number == table).id
        return [kind for kind, in store.conn.execute("SELECT kind FROM venue_log WHERE table_id = ? ORDER BY rev",
                                                     [table_id])]
    finally:
        store.close()


def _history(path: Path) -> list:
    store = open_event(path)
    try:
        return history(store)
    finally:
        store.close()


def _save_result(page, scores: dict[str, str], reason: str) -> None:
    for side, typed in scores.items():
        page.fill(f"#dir-score-{side}", typed)
    page.fill("#result-reason", reason)
    page.evaluate("() => { const m = document.getElementById('detail-message'); m.textContent = ''; m.className = ''; }")
    _tap(page, "#result-form button[type=submit]")


def _said(page, kind: str) -> str:
    """What the open table's panel said, in view beside its buttons (where the director's eyes are)."""
    text = _message(page, kind, "#detail-message")
    assert page.locator("#detail-message").is_visible()
    box = page.locator("#detail-message").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"], box
    return text


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_directors_desk_driven_by_taps(tmp_path, browser, size):
    path = _event(tmp_path)
    games = _games(path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        links = {t["table"]: t for t in served.links["tables"]}
        assert sorted(links) == [1, 2, 3, 4, 5]
        phones = {n: _Phone(client, link) for n, link in links.items()}
        steps = {n: requests_for(games[n]) for n in links}
        # Table 1 has not started; 2 is in play; 3 and 5 wait for confirmation; 4 is confirmed.
        phones[2].post("mode", mode="play")
        phones[2].record(steps[2][:12])
        for n in (3, 4, 5):
            phones[n].record(steps[n])
        phones[4].post("confirm", side="NS")
        phones[4].post("confirm", side="EW")

        if size == "phone":
            context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        else:
            context = browser.new_context(viewport=DESKTOP)
        # The page's clock runs as usual, until a step needs the page's own refresh held still.
        context.clock.install()
        page = context.new_page()
        page.goto(served.links["director"])
        assert "not started" in _wait_row(page, 1, "not started")
        assert _wait_row(page, 2, "playing").startswith("in play · hand 1, move ")
        assert _wait_row(page, 3, "waiting").startswith("waiting for confirmation")
        assert _wait_row(page, 4, "confirmed").startswith("confirmed")
        assert _wait_row(page, 5, "waiting").startswith("waiting for confirmation")
        assert page.inner_text("#summary").split() == ["round", "1", "confirmed", "1/5"]
        assert page.is_disabled("#pair")
        assert "Tess <b>" in page.inner_text("#tables")  # a name shown as text, never as markup
        _shot(page, tmp_path, f"director-{size}-tables")
        _one_screen_wide(page)

        # Table 5's phone calls the director (it waits for confirmation: a dispute over the result).
        phones[5].post("call")
        refresh_now(context, 3000)  # the page's next refresh, at once (its clock moved on)
        assert _wait_row(page, 5, "waiting", called=True).startswith("director called · waiting for confirmation")
        assert page.get_attribute(f"{_row(page, 5)} td:nth-child(3)", "class") == "state-called"
        _shot(page, tmp_path, f"director-{size}-called")
        _tap(page, f"{_row(page, 5)} button")
        page.wait_for_selector("#detail:not([hidden])", timeout=WAIT_MS)
        page.wait_for_function("() => !document.getElementById('clear-call').disabled", timeout=WAIT_MS)
        assert page.inner_text("#detail-title") == "Round 1, table 5: director called"
        # The phone calls again while the director looks (its page's refresh held still, and nothing
        # in flight): the tap, made on the older view, is told the table moved on and shows it as it
        # is now; the second tap clears the call.
        page.clock.pause_at(datetime.fromtimestamp(page.evaluate("() => Date.now()") / 1000 + 1))
        page.wait_for_load_state("networkidle", timeout=WAIT_MS)
        phones[5].post("call")
        _tap(page, "#clear-call")
        assert _said(page, "bad").startswith("the table has moved on")
        assert page.inner_text("#detail-title") == "Round 1, table 5: director called"
        _tap(page, "#clear-call")
        assert _said(page, "good") == "the call is cleared"
        assert _log(path, 5)[-3:] == ["call", "call", "clear"]
        page.clock.resume()
        refresh_now(context, 3000)
        _wait_row(page, 5, "waiting", called=False)
        assert page.is_disabled("#clear-call") and not phones[5].state()["called"]

        # Table 2's game so far, and its replay page.
        _tap(page, f"{_row(page, 2)} button")
        page.wait_for_selector('#detail-title:text-matches("table 2:")', timeout=WAIT_MS)
        so_far = phones[2].state()["game"]["hands"]
        assert len(so_far) == 1 and len(so_far[0]["moves"]) >= 6
        # Its hand line by line (as a correction numbers them): the hand's parts, then a move a line.
        page.wait_for_selector('#detail-moves[data-table="1/2"] .hand[data-hand="1"] button.line', timeout=WAIT_MS)
        shown = page.locator('#detail-moves .hand[data-hand="1"] button.line').all_inner_texts()
        assert [x for x in shown if x.split()[0] not in PARTS] == [f"{m['seat']} {m['text']}" for m in so_far[0]["moves"]]
        _shot(page, tmp_path, f"director-{size}-open-table")
        with context.expect_page(timeout=WAIT_MS) as opened:
            _tap(page, "#detail-replay")
        replay = opened.value
        replay.wait_for_load_state()
        assert replay.get_attribute('meta[name="generator"]', "content") == "domrec replay page"
        seated = [line.split(" ", 1)[1] for line in page.inner_text(f"{_row(page, 2)} td:nth-child(2)").splitlines()]
        assert replay.title().startswith("Competitive dominoes · Club <night>: ") and all(
            name in replay.title() for name in seated)
        _shot(replay, tmp_path, f"director-{size}-replay")
        replay.close()

        # Table 1 played on paper: the director types its result, with a reason.
        _tap(page, f"{_row(page, 1)} button")
        page.wait_for_selector('#detail-title:text-matches("table 1:")', timeout=WAIT_MS)
        assert not page.is_visible("#result-board")  # (no boards in this event: no empty board list)
        _save_result(page, {"NS": "150", "EW": "90"}, "played on paper: the sheet was handed in")
        assert "NS 150" in _said(page, "good")
        _shot(page, tmp_path, f"director-{size}-entered", whole=False)
        _wait_row(page, 1, "confirmed")
        entered = _result(path, 1)
        assert entered.scores == {"NS": 150, "EW": 90} and entered.kind == "manual" and not entered.verified
        assert entered.note == "played on paper: the sheet was handed in"

        # Table 4's confirmed result amended, with a reason: into the audit trail.
        before = _result(path, 4)
        assert before.verified and before.kind == "record"
        _tap(page, f"{_row(page, 4)} button")
        page.wait_for_selector('#detail-title:text-matches("table 4:")', timeout=WAIT_MS)
        sides = {"NS": str(before.scores["NS"] + 10), "EW": str(before.scores["EW"])}
        _save_result(page, sides, "a hand's score was misread")
        assert "amended" in _said(page, "good")
        page.wait_for_function(f"() => document.getElementById('dir-score-NS').placeholder === '{sides['NS']}'",
                               timeout=WAIT_MS)
        changes = _history(path)
        assert [(c.round, c.table, c.by, c.reason) for c in changes] == [
            (1, 4, "director's page", "a hand's score was misread")]
        assert changes[0].old.scores == before.scores and changes[0].new.scores == {
            "NS": before.scores["NS"] + 10, "EW": before.scores["EW"]}
        _shot(page, tmp_path, f"director-{size}-amended")

        # Bad results: one line each, and the event as it was.
        amended = _result(path, 4)
        _save_result(page, {"NS": "100", "EW": "100"}, "")
        assert "reason" in _said(page, "bad")
        _save_result(page, {"NS": "", "EW": "100"}, "a typo")
        assert _said(page, "bad") == "type the score of NS as a whole number of points"
        _save_result(page, {"NS": "12.5", "EW": "100"}, "a typo")
        assert _said(page, "bad") == "type the score of NS as a whole number of points"
        _tap(page, f"{_row(page, 3)} button")
        page.wait_for_selector('#detail-title:text-matches("table 3:")', timeout=WAIT_MS)
        _save_result(page, {"NS": "2000000", "EW": "0"}, "")
        assert "past the limit" in _said(page, "bad")
        _shot(page, tmp_path, f"director-{size}-refused", whole=False)
        assert _result(path, 4) == amended and _result(path, 3) is None and len(_history(path)) == 1
        _one_screen_wide(page)

        # Every table confirmed (2 plays on to the end; 3 and 5 confirm): pair the next round.
        phones[2].record(steps[2][12:])
        for n in (2, 3, 5):
            phones[n].post("confirm", side="NS")
            phones[n].post("confirm", side="EW")
        refresh_now(context, 3000)
        for n in (2, 3, 5):
            _wait_row(page, n, "confirmed")
        page.wait_for_function("() => !document.getElementById('pair').disabled", timeout=WAIT_MS)
        _tap(page, "#pair")
        assert _message(page, "good") == "round 2 is paired"
        page.wait_for_function("() => document.getElementById('summary').textContent.startsWith('round 2')",
                               timeout=WAIT_MS)
        assert page.is_hidden("#detail") and page.is_disabled("#pair")
        store = open_event(path)
        names = {p.id: p.name for p in store.players()}
        paired = {t.number: sorted(names[s.player] for s in t.seats) for t in store.tables(2)}
        store.close()
        for n, players in paired.items():
            assert _wait_row(page, n, "not started") == "not started"
            shown = page.inner_text(f"{_row(page, n)} td:nth-child(2)").splitlines()
            assert sorted(line.split(" ", 1)[1] for line in shown) == players
        _shot(page, tmp_path, f"director-{size}-round-2")
        _one_screen_wide(page)

        # The next round's score sheets, each with its table's QR code.
        round_two = served.refresh_links()["tables"]
        assert [t["round"] for t in round_two] == [2] * len(paired)
        with context.expect_page(timeout=WAIT_MS) as opened:
            _tap(page, "#sheets")
        sheets = opened.value
        sheets.wait_for_load_state()
        html = sheets.content()
        # Each sheet: its table's QR code and the public page's (standings, results, where to sit next).
        assert sheets.locator("svg").count() == 2 * len(round_two)
        assert all(t["url"] in html for t in round_two) and html.count(served.links["public"] + "<") == len(round_two)
        text = sheets.inner_text("body")
        assert all(f"Round 2 · Table {n}" in text for n in paired) and "Round 1" not in text
        _shot(sheets, tmp_path, f"director-{size}-sheets")
        context.close()


def test_the_public_page_on_a_phone_without_a_key(tmp_path, browser):
    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served, \
            httpx.Client(base_url=served.base_url, timeout=60) as client:
        links = served.links["tables"]
        director = {"Authorization": f"Bearer {served.links['director'].rsplit('/', 1)[1]}"}
        assert client.post("/api/v1/tables/1/2/result", headers=director,
                           json={"scores": {"NS": 120, "EW": 80}}).status_code == 200
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(served.links["public"])
        assert page.title() == "Club <night> · Find your table"
        assert page.inner_text("h1") == "Club <night>"
        assert page.inner_text("h2") == "Round 1: find your table"
        store = open_event(path)
        names = {p.id: p.name for p in store.players()}
        tables = store.tables(1)
        store.close()
        assert page.locator("#seating li").count() == sum(len(t.seats) for t in tables)
        # The round's tables: a row a table, a column a side (seat and name), the result once it is in.
        page.goto(served.links["public"] + "tables")
        rows = page.locator("table.rnd tbody tr")
        assert rows.count() == len(links) == 5
        expected = {t.number: {side: [f"{s.seat} {names[s.player]}" for s in t.seats if s.side == side]
                               for side in ("NS", "EW")} for t in tables}
        for k in range(rows.count()):
            cells = rows.nth(k).locator("td")
            number = int(cells.nth(0).inner_text())
            for column, side in ((1, "NS"), (2, "EW")):
                shown = cells.nth(column).inner_text().splitlines()
                assert shown[:2] == expected[number][side]
                assert shown[2:] == ([{"NS": "120", "EW": "80"}[side]] if number == 2 else [])
            assert cells.nth(3).inner_text() == ("NS won (manual)" if number == 2 else "to play")
        assert "Tess <b>" in page.inner_text("body")
        _shot(page, tmp_path, "public-phone")
        _one_screen_wide(page)
        # No key: the tables' API and the director's refuse, in one line, from the page itself too.
        for url, method in (("/api/v1/tables/1/1", "GET"), ("/api/v1/director", "GET"),
                            ("/api/v1/tables/1/1/call", "POST"), ("/api/v1/director/pair", "POST")):
            answer = page.evaluate("""async ([url, method]) => {
                const r = await fetch(url, { method, headers: { "Content-Type": "application/json" },
                                             body: method === "POST" ? JSON.stringify({ rev: 0 }) : undefined });
                return { status: r.status, body: await r.json() };
            }""", [url, method])
            assert answer["status"] in (401, 403), (url, answer)
            assert answer["body"]["error"] and "\n" not in answer["body"]["error"], answer
        context.close()
    store = open_event(path)
    assert store.result_for(store.tables(1)[0].id) is None  # nothing a keyless request did reached the event
    assert [t.number for t in store.tables(1) if store.result_for(t.id)] == [2]
    store.close()


def test_the_director_seeds_round_one_from_the_page(tmp_path, browser):
    """Before round 1 the page offers its seeding, as ``tournament pair --seed`` does: the draw,
    the rating, and each other column the players came with; the director picks the ``elo`` column
    and pairs, and the round is the one ``pair --seed column:elo`` makes (its seeding kept with it)."""
    path, twin = tmp_path / "seeded.db", tmp_path / "twin.db"
    store = create_event(path, make_settings("Seeded", "competitive", "rotating", seed=4))
    add_players(store, PLAYERS[:12], fields=[{"rating": str(1500 + i % 3), "elo": str(2100 - 9 * i)}
                                              for i in range(12)])
    store.close()
    shutil.copyfile(path, twin)
    store = open_event(twin)
    pair_next_round(store, "column:elo")
    kept = store.standings_used(1)
    store.close()
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        page.goto(served.links["director"])
        page.wait_for_selector("#seed-row:not([hidden]) option[value='column:elo']", state="attached",
                               timeout=WAIT_MS)
        options = page.eval_on_selector_all("#seed option", "os => os.map(o => [o.value, o.textContent])")
        assert [v for v, _ in options] == ["draw", "rating", "column:elo"] and "elo" in options[2][1]
        page.select_option("#seed", "column:elo")
        _tap(page, "#pair")
        assert "round 1 is paired" in _message(page, "good")
        page.wait_for_selector("#seed-row[hidden]", state="attached", timeout=WAIT_MS)
        _shot(page, tmp_path, "director-seeded-round-1")
        context.close()
    store = open_event(path)
    assert store.standings_used(1) == kept
    store.close()
