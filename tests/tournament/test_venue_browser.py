"""The venue's pages in a real browser: Playwright for Python driving the system's Chromium (never a
downloaded browser) against ``tournament serve``'s application on 127.0.0.1, at a phone's 390x844:
a whole Competitive game tapped through and confirmed by both sides, Broadway placements tapped on
the tableau, a game kept by its scores only, and two phones racing on one table.

Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at.
Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from domrec.session import PARTS, requests_for
from domrec.simulate import play_game
from domrec.validate import validate
from domrec import tiles as T

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.tables import table_record

pytestmark = pytest.mark.slow

from tests.browser import keep, playwright_or_skip, wait_rev
from tests.tournament.helpers import hand_by_hand

playwright_api = playwright_or_skip(server=True)

from tournament.web.background import BackgroundVenue  # noqa: E402

PHONE = {"width": 390, "height": 844}
#: Long enough for any page to answer on a busy machine: a wait that runs out is a failure, never a pass.
WAIT_MS = 60_000


def _served(path: Path) -> BackgroundVenue:
    """The venue on 127.0.0.1, taking requests as fast as the browser sends them."""
    return BackgroundVenue(path, rate=1e9, burst=10 ** 9)


def _event(tmp_path: Path, game: str, players: list[str]) -> Path:
    path = tmp_path / f"{game}.db"
    store = create_event(path, make_settings("Club night", game, "rotating", seed=4))
    add_players(store, players)
    pair_next_round(store)
    store.close()
    return path


def _game(path: Path, seed: int):
    store = open_event(path)
    table = store.tables(1)[0]
    template = table_record(store.settings, table, {p.id: p for p in store.players()})
    store.close()
    return play_game(template, random.Random(seed))


def _steps(record) -> list[str]:
    return [text for text in requests_for(record) if text != "y"]  # the page's own button closes a hand


def _shot(page, name: str) -> None:
    keep(page, f"venue-{name}")


def _rev(page) -> int:
    return int(page.evaluate("() => document.body.dataset.rev || -1"))


def _wait_rev(page, before: int) -> None:
    wait_rev(page, before, WAIT_MS)


def _drawn(page) -> None:
    """Wait until the page has drawn its table (a write tapped before names no revision)."""
    page.wait_for_function("() => document.body.dataset.rev !== undefined", timeout=WAIT_MS)


def _type(page, text: str) -> None:
    """Type a line into the page's box and send it; the server must take it (a line sent on a view
    older than the table is refused as the table having moved on, and that is a failure here).
    The table is drawn first: a line sent before is sent nowhere (a busy CI machine clicked
    before the first read was answered, and waited a minute for an answer never asked for)."""
    _drawn(page)
    before = _rev(page)
    page.fill("#typed-text", text)
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
        page.click("#typed-form button[type=submit]")
    assert answer.value.status == 200, (text, answer.value.json())
    _wait_rev(page, before)


def _tap_move(page, seat: str, word: str, used: dict) -> None:
    """Tap the move's tile, then where it goes: a numbered cell of the tableau where the page draws
    one, else the target in words.  A tile with one place to go is sent at the tap."""
    text = f"{seat} {word}"
    tile = str(T.tile(word.split("@")[0].lstrip("*!")))  # (a button a domino: 6-3 for a 3-6 laid)
    before = _rev(page)
    page.click(f'#panel .tiles button[data-tile="{tile}"]', timeout=WAIT_MS)
    wait_rev(page, before, WAIT_MS, also="document.querySelector('#panel .targets')")
    if _rev(page) > before:
        return
    cell = page.locator(f'#panel .grid button.cell[data-move="{text}"]')
    if cell.count():
        cell.first.click()
        used["cells"] = used.get("cells", 0) + 1
    else:
        page.click(f'#panel .targets button[data-move="{text}"]', timeout=WAIT_MS)
    _wait_rev(page, before)


def _play_through(page, record, used: dict, tapped: int | None = None) -> None:
    """Every move tapped; past hand ``tapped``, each hand typed whole into the page's box."""
    steps, rest = _split_at_hand(_steps(record), tapped)
    for step in steps:
        words = step.split()
        if words[0] in PARTS:
            _type(page, step)
            continue
        seat = page.locator(".players .to-move").first.inner_text().split()[0]
        _tap_move(page, seat, step, used)
        _close_hand_if_over(page)
    for text in hand_by_hand(rest):
        _type(page, text)
        _close_hand_if_over(page)


def _split_at_hand(steps: list[str], tapped: int | None) -> tuple[list[str], list[str]]:
    """The steps up to hand ``tapped + 1``, and the rest (none where ``tapped`` is ``None``)."""
    if tapped is None:
        return steps, []
    cut = next((k for k, step in enumerate(steps) if step.startswith(f"hand {tapped + 1} ")
                or step == f"hand {tapped + 1}"), len(steps))
    return steps[:cut], steps[cut:]


def _close_hand_if_over(page) -> None:
    if page.locator("#close-hand").count():
        before = _rev(page)
        page.click("#close-hand")
        _wait_rev(page, before)


def _confirm_all(page, sides: list[str]) -> None:
    """Each side taps its button once the page shows the table after the last tap, as a player
    does: a tap on the panel as it stood before the answer came carries that older revision, and
    is refused as the table having moved on (the answer arrives before the page has drawn it)."""
    for side in sides:
        button = page.locator(f'#panel button[data-side="{side}"]')
        button.wait_for(timeout=WAIT_MS)
        before = _rev(page)
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/confirm"), timeout=WAIT_MS) as answer:
            button.click()
        assert answer.value.status == 200, answer.value.json()
        _wait_rev(page, before)


def _first_table_in_mode(browser, served, mode: str):
    """The first table's page on a phone, with its way of recording chosen (``play`` or ``sheet``)."""
    page = browser.new_page(viewport=PHONE)
    page.goto(served.links["tables"][0]["url"])
    page.wait_for_function("() => Number(document.body.dataset.rev) >= 0", timeout=WAIT_MS)  # (the table drawn)
    before = _rev(page)
    page.click(f"#mode-{mode}", timeout=WAIT_MS)
    # The choice answered before the test goes on: a line sent at once went with the revision the
    # page held before the choice's answer, and was refused as the table having moved on (a
    # player's tap a moment too soon is told so, and taps again; a test must not race its server).
    _wait_rev(page, before)
    return page


def test_a_competitive_game_tapped_through_and_confirmed_on_a_phone(tmp_path, browser, request):
    """The first hand tapped, the rest typed whole (every hand tapped with --long): hand 1 takes
    every kind of tap the game takes (a lone tile sent at the tap, tiles and their places), and is
    closed with the page's button; a second hand tapped took the same paths again."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=11)
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "play")
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
        _shot(page, "competitive-start")
        used: dict = {}
        _play_through(page, record, used, tapped=None if request.config.getoption("--long") else 1)
        page.wait_for_selector('#panel button[data-side="NS"]', timeout=WAIT_MS)
        _shot(page, "competitive-confirm")
        _confirm_all(page, ["NS", "EW"])
        page.wait_for_selector("text=Confirmed", timeout=WAIT_MS)
        _shot(page, "competitive-confirmed")
        # One-handed: nothing wider than the phone, every button a 44-pixel target.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        small = page.evaluate("() => [...document.querySelectorAll('button')].filter(b => b.offsetParent)"
                              ".map(b => b.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length")
        assert small == 0
        for width, height, name in ((360, 740, "narrow-phone"), (820, 1180, "tablet")):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(100)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
            _shot(page, f"competitive-{name}")
    finally:
        served.close()
    store = open_event(path)
    result = store.result_for(store.tables(1)[0].id)
    assert result is not None and result.verified and result.scores == validate(record).scores
    store.close()


def test_broadway_placements_are_tapped_on_the_tableau(tmp_path, browser):
    path = _event(tmp_path, "broadway", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=3)
    steps = _steps(record)
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "play")
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)  # the choice taken: a line typed before is refused
        used: dict = {}
        moves = 0
        for step in steps:
            if step.split()[0] in PARTS:
                if moves:
                    break  # the first hand is enough to show the tableau at work
                _type(page, step)
                continue
            seat = page.locator(".players .to-move").first.inner_text().split()[0]
            _tap_move(page, seat, step, used)
            moves += 1
            if moves == 3:
                tile = str(T.tile(steps[steps.index(step) + 1].split("@")[0].lstrip("*!")))
                page.click(f'#panel .tiles button[data-tile="{tile}"]')
                page.wait_for_selector("#panel .grid", timeout=WAIT_MS)
                _shot(page, "broadway-tableau")
                page.click(f'#panel .tiles button[data-tile="{tile}"]')
            if moves >= 8:
                break
        assert used.get("cells", 0) >= 1, "no placement was tapped on the tableau"
    finally:
        served.close()


def test_every_broadway_placement_has_a_cell_to_tap(tmp_path, browser):
    """Two placements may cover the same cells (one tile the two ways round): the tableau showed one
    number a cell, so a placement whose both cells were numbered for others had none to tap.  Each
    cell lists every placement covering it; a cell of several offers them, to tap the one meant."""
    path = _event(tmp_path, "broadway", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "play")
        before = _rev(page)
        page.click("#start-hand", timeout=WAIT_MS)
        _wait_rev(page, before)
        _type(page, "N 6-6")
        page.click('#panel .tiles button[data-tile="6-2"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .grid button.cell.can", timeout=WAIT_MS)
        listed = page.locator("#panel .targets > button").count()
        numbers = page.evaluate("() => [...document.querySelectorAll('#panel .grid button.cell.can')]"
                                ".flatMap((b) => b.textContent.split(' '))")
        assert listed >= 2 and set(numbers) == {f"#{k}" for k in range(1, listed + 1)}, (listed, numbers)
        shared = page.locator("#panel .grid button.cell.shared").first
        moves = shared.get_attribute("data-moves").split("|")
        assert len(moves) >= 2 and shared.get_attribute("data-move") is None
        shared.click()
        page.wait_for_selector("#cell-choices", timeout=WAIT_MS)
        offered = page.evaluate("() => [...document.querySelectorAll('#cell-choices button')].map((b) => b.dataset.move)")
        assert offered == moves, (offered, moves)
        _shot(page, "broadway-shared-cell")
        before = _rev(page)
        page.click(f'#cell-choices button[data-move="{moves[-1]}"]')
        _wait_rev(page, before)
        assert page.locator("#cell-choices").count() == 0
    finally:
        served.close()


def test_a_game_kept_by_its_scores_only(tmp_path, browser):
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=5)
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "sheet")
        for k, hand in enumerate(record.hands):
            # The next hand's boxes show as soon as a hand is sent; its button waits for the answer.
            page.wait_for_selector(f'#add-sheet-hand[data-hand="{k + 1}"]', timeout=WAIT_MS)
            assert page.inner_text("#add-sheet-hand").strip() == f"Record hand {k + 1}"
            for side in ("NS", "EW"):
                page.fill(f"#score-{side}", str(hand.result.scores.get(side, 0)))
            if k == 0:  # the page's own refresh finds the table as it was: what was typed stays
                refreshed = int(page.evaluate("Number(document.body.dataset.refreshed) || 0"))
                page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
                deadline = time.monotonic() + WAIT_MS / 1000  # (the page's CSP allows no eval: asked from here)
                while int(page.evaluate("Number(document.body.dataset.refreshed) || 0")) <= refreshed:
                    assert time.monotonic() < deadline, "the page's refresh did not finish"
                    page.wait_for_timeout(50)
                for side in ("NS", "EW"):
                    assert page.input_value(f"#score-{side}") == str(hand.result.scores.get(side, 0))
            with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
                page.click("#add-sheet-hand")
            assert answer.value.status == 200, answer.value.json()
        _shot(page, "sheet-over")
        _confirm_all(page, ["NS", "EW"])
        page.wait_for_selector("text=Confirmed", timeout=WAIT_MS)
    finally:
        served.close()
    store = open_event(path)
    result = store.result_for(store.tables(1)[0].id)
    assert result is not None and result.scores == validate(record).scores
    store.close()


def test_scores_typed_while_the_hand_before_is_on_its_way_are_kept(tmp_path, browser):
    """Scores only: a hand sent, its answer slow to come back; the scorer types the next hand's
    numbers at once.  They go into the next hand's boxes (shown as soon as the hand is sent) and
    survive the answer's redraw; the button waits for the answer.  A refused hand shows again with
    the numbers sent."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=5)
    first, second = (dict(hand.result.scores) for hand in record.hands[:2])
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "sheet")
        page.wait_for_selector('#add-sheet-hand[data-hand="1"]', timeout=WAIT_MS)
        held = []
        page.route("**/dgn*", lambda route: held.append(route))
        for side in ("NS", "EW"):
            page.fill(f"#score-{side}", str(first.get(side, 0)))
        page.click("#add-sheet-hand")
        page.wait_for_selector('#add-sheet-hand[data-hand="2"][disabled]', timeout=WAIT_MS)
        for side in ("NS", "EW"):
            page.fill(f"#score-{side}", str(second.get(side, 0)))
        page.wait_for_function("() => true")  # let the route handler run
        assert len(held) == 1
        before = _rev(page)
        held[0].continue_()
        page.unroute("**/dgn*")
        _wait_rev(page, before)
        page.wait_for_selector('#add-sheet-hand[data-hand="2"]:not([disabled])', timeout=WAIT_MS)
        for side in ("NS", "EW"):
            assert page.input_value(f"#score-{side}") == str(second.get(side, 0))
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
            page.click("#add-sheet-hand")
        assert answer.value.status == 200, answer.value.json()
        page.wait_for_selector('#add-sheet-hand[data-hand="3"]:not([disabled])', timeout=WAIT_MS)
        page.fill("#score-NS", "10")  # both sides scoring in one hand: refused, the numbers stay
        page.fill("#score-EW", "20")
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
            page.click("#add-sheet-hand")
        assert answer.value.status == 422
        page.wait_for_selector('#add-sheet-hand[data-hand="3"]:not([disabled])', timeout=WAIT_MS)
        assert (page.input_value("#score-NS"), page.input_value("#score-EW")) == ("10", "20")
    finally:
        served.close()
    store = open_event(path)
    try:
        bodies = [r[0] for r in store.conn.execute("SELECT body FROM venue_log WHERE kind = 'dgn' ORDER BY rev")]
    finally:
        store.close()
    assert len(bodies) == 2 and bodies[0].startswith("hand 1\n") and bodies[1].startswith("hand 2\n")


def test_two_phones_racing_on_one_table(tmp_path, browser):
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        url = served.links["tables"][0]["url"]
        one, two = browser.new_page(viewport=PHONE), browser.new_page(viewport=PHONE)
        one.goto(url)
        two.goto(url)
        one.wait_for_selector("#mode-play", timeout=WAIT_MS)
        two.wait_for_selector("#mode-play", timeout=WAIT_MS)
        with one.expect_response(lambda r: r.url.split("?")[0].endswith("/mode"), timeout=WAIT_MS) as first:
            one.click("#mode-play")
        assert first.value.status == 200
        with two.expect_response(lambda r: r.url.split("?")[0].endswith("/mode"), timeout=WAIT_MS) as second:
            two.click("#mode-sheet")  # made on the view before the first phone's choice
        assert second.value.status == 409
        two.wait_for_selector("#message.bad", timeout=WAIT_MS)
        said = two.inner_text("#message")  # in a player's words, no revision numbers
        assert said.startswith("another phone or tab of this table wrote first") and "revision" not in said, said
        two.wait_for_selector("#start-hand", timeout=WAIT_MS)  # it shows the table as it now is
        _shot(two, "race-moved-on")
    finally:
        served.close()
    store = open_event(path)
    rows = store.conn.execute("SELECT kind, body FROM venue_log").fetchall()
    assert rows == [("mode", "play")]
    store.close()


def _hold_the_first(page, pattern: str) -> list:
    """The first request matching ``pattern`` held (the server's answer kept back) until the test
    continues it; the rest go as they come.  The list holds the held route once it is held."""
    held: list = []

    def hold(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(pattern, hold)
    return held


def _until_held(page, held: list) -> None:
    """Wait (on the held list, not on a time) until the page's request is held."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not held:
        assert time.monotonic() < deadline, "the page's request never came"
        page.wait_for_timeout(20)  # (lets Playwright hand the route over; the wait is on the list)


def _log(path: Path) -> list[tuple[str, str]]:
    store = open_event(path)
    try:
        return store.conn.execute("SELECT kind, body FROM venue_log ORDER BY rev").fetchall()
    finally:
        store.close()


def test_a_tap_made_before_this_phones_own_tap_was_answered_is_not_blamed_on_another_phone(tmp_path, browser):
    """One phone at the table: the mode tapped and, before its answer comes back, a line typed; the
    line carries the revision the page showed (the one before the mode), so the server refuses it
    and nothing is applied twice, but the page says that the phone's own tap before it was taken
    first, not that "another phone or tab of this table wrote first" (there is none).  Then a true double
    tap (the same line sent twice before the first answer) is taken once: the second is the first's
    twin (the very line the table took on that revision), said to have come twice, never refused."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    steps = _steps(_game(path, seed=3))
    served = _served(path)
    try:
        page = browser.new_page(viewport=PHONE)
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_selector("#mode-play", timeout=WAIT_MS)
        page.wait_for_function("() => Number(document.body.dataset.rev) >= 0", timeout=WAIT_MS)
        shown = _rev(page)
        held = _hold_the_first(page, "**/mode*")
        page.click("#mode-play")
        _until_held(page, held)
        page.fill("#typed-text", steps[0])  # made on the table as shown: the mode's answer not in yet
        page.click("#typed-form button[type=submit]")
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as second:
            held[0].continue_()
        assert second.value.status == 409
        assert second.value.request.post_data_json["rev"] == shown  # (the guard: made on the older revision)
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)
        said = page.inner_text("#typed-message")
        assert said == ("your tap before this one was taken first; this one was made before the table showed it, "
                        "so nothing was changed; here is the table now, tap again"), said
        assert "another phone" not in said
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)  # the table as it now is: the mode taken
        assert _rev(page) == shown + 1
        assert _log(path) == [("mode", "play")]
        _shot(page, "own-tap-first")
        page.unroute("**/mode*")

        # A true double tap: the same line sent twice on one revision, the first answer held.
        before = _rev(page)
        held = _hold_the_first(page, "**/dgn*")
        page.fill("#typed-text", steps[0])
        page.click("#typed-form button[type=submit]")
        _until_held(page, held)
        page.fill("#typed-text", steps[0])
        page.click("#typed-form button[type=submit]")
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn") and r.json().get("twin"),
                                  timeout=WAIT_MS) as twice:
            held[0].continue_()
        assert twice.value.status == 200 and twice.value.request.post_data_json["rev"] == before
        page.wait_for_function("() => document.getElementById('message').textContent.startsWith('the same tap')",
                               timeout=WAIT_MS)
        assert page.inner_text("#message") == "the same tap came twice: it was taken once, not twice"
        assert page.get_attribute("#message", "class") == "good"
        assert page.locator("#typed-message.bad").count() == 0
        assert _rev(page) == before + 1
        page.unroute("**/dgn*")
    finally:
        served.close()
    assert _log(path) == [("mode", "play"), ("dgn", steps[0])]  # each write once; the ones refused none


def test_a_phone_that_loses_its_connection_keeps_the_line_and_sends_it_once(tmp_path, browser):
    """The table's Wi-Fi drops: the line typed is kept on the phone (its outbox), the page says so
    and counts it; back online, the page sends it by itself, and the table's log holds it once
    (tests/tournament/test_venue_outbox_browser.py goes further)."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    steps = _steps(_game(path, seed=3))
    served = _served(path)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = context.new_page()
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_selector("#typed-text", timeout=WAIT_MS)
        _type(page, steps[0])
        before = _rev(page)
        context.set_offline(True)
        page.fill("#typed-text", steps[1])
        page.click("#typed-form button[type=submit]")
        page.wait_for_function("() => document.body.dataset.outbox === '1'", timeout=WAIT_MS)
        assert page.inner_text("#message") == "kept on this phone, unchecked: it is checked when it is sent"
        assert page.inner_text("#outbox") == "offline: 1 line waiting to be sent"
        _shot(page, "offline")
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {before + 1}", timeout=WAIT_MS)
    finally:
        served.close()
    store = open_event(path)
    rows = [r[0] for r in store.conn.execute("SELECT body FROM venue_log ORDER BY rev")]
    store.close()
    assert rows[-2:] == steps[:2] and rows.count(steps[1]) == 1  # sent once, taken once


def test_undo_after_start_hand_takes_back_the_hand_not_the_move_before(tmp_path, browser):
    """Hand 1 typed and closed, *Start hand 2* tapped, then *Undo*: the page offers *Start hand 2*
    again with hand 1 closed as it was (the undo had reopened hand 1 and taken its last move
    back, leaving hand 2 announced: docs/recording.md, Undo); a second Undo then reopens hand 1."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=5)
    assert len(record.hands) >= 2
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "play")
        steps, _ = _split_at_hand(_steps(record), 1)
        for text in hand_by_hand(steps):
            _type(page, text)
            _close_hand_if_over(page)
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
        # Hand 1 closed: it is among the hands so far, no longer listed as "this hand" under *Start hand 2*.
        assert page.locator("#moves").inner_text().strip() == "" and page.locator("#earlier").is_visible()
        assert page.locator("#this-hand").count() == 1 and page.locator("#this-hand").is_hidden()
        closed = len(record.hands[0].moves)
        before = _rev(page)
        page.click("#start-hand")
        _wait_rev(page, before)
        before = _rev(page)
        page.click("#undo")
        _wait_rev(page, before)
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
        assert "Start hand 2" in page.inner_text("#start-hand")
        _shot(page, "undo-start-hand")
        game = _table_state(served)["game"]
        assert game["hand"] == 1 and not game["in_hand"] and game["announced"] is None
        assert len(game["hands"][0]["moves"]) >= closed  # (the passes the recorder made are moves too)
        before = _rev(page)
        page.click("#undo")
        _wait_rev(page, before)
        game = _table_state(served)["game"]
        assert game["hand"] == 1 and game["in_hand"]
    finally:
        served.close()


def _recorded(served: BackgroundVenue, texts: list[str], mode: str | None = None) -> int:
    """Round 1 table 1's game written through the table's API (its key from its link), ``mode``
    chosen first, then each of ``texts`` a write of its own, as its phone sends them: for a test
    about what the page does after them, which opens the page once they are in (the page typing
    them one by one is what the tests that tap or type a game are about).  The table's revision."""
    import json
    import urllib.request

    link = served.links["tables"][0]["url"]
    headers = {"Authorization": f"Bearer {link.rsplit('/', 1)[1]}", "Content-Type": "application/json"}
    api = f"{served.base_url}/api/v1/tables/1/1"
    rev = _table_state(served)["rev"]
    writes = ([("mode", {"mode": mode})] if mode else []) + [("dgn", {"text": text}) for text in texts]
    for what, body in writes:
        asked = urllib.request.Request(f"{api}/{what}", data=json.dumps({"rev": rev, **body}).encode(),
                                       method="POST", headers=headers)
        with urllib.request.urlopen(asked, timeout=60) as answer:
            rev = json.loads(answer.read())["rev"]
    return rev


def _table_state(served: BackgroundVenue) -> dict:
    """Round 1 table 1's state as its phone reads it (its key from its link)."""
    import json
    import urllib.request

    link = served.links["tables"][0]["url"]
    asked = urllib.request.Request(f"{served.base_url}/api/v1/tables/1/1",
                                   headers={"Authorization": f"Bearer {link.rsplit('/', 1)[1]}"})
    with urllib.request.urlopen(asked, timeout=60) as answer:
        return json.loads(answer.read())


def test_undo_takes_back_start_hand_1(tmp_path, browser):
    """*Start hand 1* with the wrong lead: *Undo* takes it back (the button was greyed until the
    game had a hand, so only a typed ``undo`` could), and the page offers *Start hand 1* again."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "play")
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
        assert page.locator("#undo").is_disabled()  # (nothing to take back yet)
        page.select_option("#lead", "E")
        before = _rev(page)
        page.click("#start-hand")
        _wait_rev(page, before)
        assert not page.locator("#undo").is_disabled()
        before = _rev(page)
        page.click("#undo")
        _wait_rev(page, before)
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
        assert "Start hand 1" in page.inner_text("#start-hand")
        game = _table_state(served)["game"]
        assert not game["in_hand"] and not game["announced"] and not game["hands"]
    finally:
        served.close()


def test_a_refused_tap_is_said_without_a_line_and_column(tmp_path, browser):
    """A tap (or one typed line) refused: its words name the move, and the "1:1: " before them
    meant nothing to a player who typed nothing; several lines keep the place of the one refused."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        page = _first_table_in_mode(browser, served, "play")
        page.wait_for_selector("#start-hand", timeout=WAIT_MS)
        before = _rev(page)
        page.click("#start-hand")
        _wait_rev(page, before)
        _type(page, "N 6-6")
        page.fill("#typed-text", "N 5-5")  # N plays twice in a row: refused
        page.click("#typed-form button[type=submit]")
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)
        said = page.inner_text("#typed-message")
        assert said.startswith("N plays 5-5: ") and not said[0].isdigit(), said
        page.fill("#typed-text", "W 6-5\nW 5-5")  # (W follows N: the second line is refused)
        page.click("#typed-form button[type=submit]")
        page.wait_for_function("() => /^2:/.test(document.querySelector('#typed-message').textContent)", timeout=WAIT_MS)
    finally:
        served.close()


def test_send_or_a_call_before_the_table_is_drawn_says_nothing_was_sent(tmp_path, browser):
    """Send pressed (or *Call the director* tapped) while the table's first read is still on its
    way: the page holds no revision for the write to name, and the tap did nothing, silently (an
    error in the page's script).  It now says nothing was sent, beside the box for a typed line;
    once the table shows, the same line is taken."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    steps = _steps(_game(path, seed=3))
    served = _served(path)
    held = []
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        errors = []
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        context.route("**/api/v1/tables/**", lambda route: held.append(route) if route.request.method == "GET"
                      and not held else route.continue_())
        posted = []
        page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
        page.goto(served.links["tables"][0]["url"])
        for _ in range(WAIT_MS // 100):
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the page did not read its table"
        page.fill("#typed-text", steps[0])
        page.click("#typed-form button[type=submit]")
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)
        assert page.inner_text("#typed-message") == "the table is not shown yet: nothing was sent; try again once it is"
        assert page.input_value("#typed-text") == steps[0]  # kept in the box, to send again
        page.click("#call")
        page.wait_for_selector("#message.bad", timeout=WAIT_MS)
        assert "nothing was sent" in page.inner_text("#message")
        assert not posted and not errors, (posted, errors)
        held[0].continue_()
        _drawn(page)  # the table shows: what was said of the taps before it is over
        assert page.inner_text("#typed-message") == "" and page.inner_text("#message") == ""
        _type(page, steps[0])
    finally:
        served.close()
    store = open_event(path)
    rows = [r[0] for r in store.conn.execute("SELECT body FROM venue_log ORDER BY rev")]
    store.close()
    assert rows == steps[:1]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_result_the_director_entered_is_what_the_confirmed_table_shows(tmp_path, browser, lang):
    """The director enters a result for a game the table has not finished (NS 100, EW 50): the
    table's phone said "Confirmed: the result is in the event" above totals of 0 – 0, the moves'
    own, as if the game counted for nothing.  Its last row is now the result the event holds,
    said to be the director's."""
    import httpx

    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        director = {"Authorization": f"Bearer {served.links['director'].rsplit('/', 1)[1]}"}
        r = httpx.post(f"{served.base_url}/api/v1/tables/1/1/result", headers=director,
                       json={"scores": {"NS": 100, "EW": 50}, "reason": "the game stopped at the break"}, timeout=60)
        assert r.status_code == 200, r.text
        page = browser.new_page(viewport=PHONE)
        page.goto(served.links["tables"][0]["url"] + f"?lang={lang}")
        row = page.wait_for_selector("#entered-result", timeout=WAIT_MS)
        cells = [c.inner_text() for c in row.query_selector_all("th")]
        said = "result entered by the director" if lang == "en" else "resultado introducido por el árbitro"
        assert cells == [said, "100", "50"], cells
        assert page.inner_text("#totals").split() == ["NS", "100", "EW", "50"]  # (the page's head too)
        _shot(page, f"director-result-confirmed-{lang}")
    finally:
        served.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_result_the_director_enters_replaces_the_tables_last_refusal(tmp_path, browser, lang):
    """A move refused at the table (in red), then the director enters the game's result from the
    director's page: the phone, refreshing by itself, showed "Confirmed" under the old refusal,
    still in red, as if the result were refused too.  The line now says what happened."""
    import httpx

    from tests.browser import refresh_now, with_clock

    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        context = with_clock(browser.new_context(viewport=PHONE))
        page = context.new_page()
        page.goto(served.links["tables"][0]["url"] + f"?lang={lang}")
        _drawn(page)
        page.fill("#typed-text", "N 9-9")
        page.click("#typed-form button[type=submit]")
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)
        director = {"Authorization": f"Bearer {served.links['director'].rsplit('/', 1)[1]}"}
        r = httpx.post(f"{served.base_url}/api/v1/tables/1/1/result", headers=director,
                       json={"scores": {"NS": 100, "EW": 50}, "reason": "the game stopped at the break"}, timeout=60)
        assert r.status_code == 200, r.text
        refresh_now(context, 5000)  # the table page's next refresh
        page.wait_for_selector("#entered-result", timeout=WAIT_MS)
        page.wait_for_selector("#message.good", timeout=WAIT_MS)
        said = {"en": "The director entered the game's result: it is in the event.",
                "es": "El árbitro introdujo el resultado de la partida: está en el torneo."}[lang]
        assert page.inner_text("#message") == said
        assert page.inner_text("#typed-message") == ""  # (the refusal beside the box was of the game before)
        _shot(page, f"director-result-after-refusal-{lang}")
        context.close()
    finally:
        served.close()


def test_a_result_entered_at_the_command_line_is_said_to_be_the_directors(tmp_path, browser):
    """The director enters the table's result at the command line (`tournament result --score`,
    which leaves the result's "via" empty): the phone's last row said "result in the event", as
    though nobody had entered it; the command line is the director's, as the docs say."""
    from tournament import enter_manual

    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    served = _served(path)
    try:
        store = open_event(path)
        try:
            enter_manual(store, 1, {"NS": 120, "EW": 80})
        finally:
            store.close()
        page = browser.new_page(viewport=PHONE)
        page.goto(served.links["tables"][0]["url"] + "?lang=en")
        row = page.wait_for_selector("#entered-result", timeout=WAIT_MS)
        cells = [c.inner_text() for c in row.query_selector_all("th")]
        assert cells == ["result entered by the director", "120", "80"], cells
    finally:
        served.close()
