"""Horse Race, Castle Rock and Domino Roads tapped through on a phone (390x844) in a real
browser, with the deal and without it: every move a tap (a tile, then where it goes; the dice,
first die then second; a capture; a tile drawn), every player or side confirming at the end.
The Competitive and Broadway pages are driven in ``test_venue_browser.py``; this file shares its
harness.  Slow, and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import re

import pytest

from domrec.session import PARTS, requests_for
from domrec.validate import validate
from domrec import tiles as T
from tests.browser import wait_rev
from tests.tournament import test_venue_browser as harness
from tournament import (
    add_players,
    create_event,
    make_settings,
    open_event,
    pair_next_round,
)
from tournament.store import venue as venue_sql

pytestmark = pytest.mark.slow
WAIT_MS = harness.WAIT_MS
_rev, _wait_rev, _type, _shot = harness._rev, harness._wait_rev, harness._type, harness._shot
_close_hand_if_over = harness._close_hand_if_over
hand_by_hand = harness.hand_by_hand


def _requests(record, keep_deal: bool) -> list[str]:
    """The game as the page sends it, a seat written before its move kept with the move."""
    out: list[str] = []
    for text in requests_for(record, keep_deal=keep_deal):
        if out and out[-1] in record.seats:
            out[-1] += " " + text
        else:
            out.append(text)
    return [text for text in out if text != "y"]  # the page's own button closes a hand


def _named_draws(requests: list[str], record) -> list[str]:
    """Castle Rock as a sheet gives it without the boneyard's order: no ``boneyard`` line, each
    draw naming its tile (the first hand's)."""
    order = list(record.hands[0].deal.boneyard or ())
    out = []
    for text in requests:
        if text.startswith("boneyard "):
            continue
        if text.startswith("hand ") and text != requests[0]:
            return out + [text]
        out.append(f"+{order.pop(0)}" if text == "+" else text)
    return out


def _tap(page, text: str, used: dict) -> None:
    """One move tapped as a scorer taps it; the page must send exactly this move."""
    words = text.split()
    if len(words) == 2:
        seat = words[0]
    else:
        page.wait_for_selector(".players .to-move", timeout=WAIT_MS, state="attached")
        seat = page.locator(".players .to-move").first.inner_text().split()[0]
    word = words[-1]
    full = f"{seat} {word}"
    before = _rev(page)
    roll = re.fullmatch(r"r(\d)\+?(\d)", word)
    drawn = re.fullmatch(r"\+(\d+-\d+)", word)
    tile = re.match(r"[*!sb#]?(\d+-\d+)", word)
    if roll:
        if page.locator("#roller").count():
            page.select_option("#roller", seat)
        page.click(f'#dice button[data-die="{roll[1]}"]', timeout=WAIT_MS)
        page.click(f'#dice button[data-die="{roll[2]}"]', timeout=WAIT_MS)
        used["dice"] = used.get("dice", 0) + 1
    elif drawn:
        page.click(f'#panel .draws button[data-tile="{T.tile(drawn[1])}"]', timeout=WAIT_MS)
        used["drawn"] = used.get("drawn", 0) + 1
    elif tile:
        page.click(f'#panel .tiles:not(.draws) button[data-tile="{T.tile(tile[1])}"]', timeout=WAIT_MS)
        wait_rev(page, before, WAIT_MS, also="document.querySelector('#panel .targets')")
        if _rev(page) == before:
            page.click(f'#panel .targets button[data-move="{full}"]', timeout=WAIT_MS)
            used["targets"] = used.get("targets", 0) + 1
    else:  # a capture, a pass, a draw in the written order, a reuse of the dice
        page.click(f'#panel button[data-move="{full}"]', timeout=WAIT_MS)
        used[word[0]] = used.get(word[0], 0) + 1
    _wait_rev(page, before)


def _kind(text: str) -> str:
    """Which way :func:`_tap` taps a request (a part line typed: its part), and whether the seat
    is written before it (the tap then names the seat instead of taking the one to move)."""
    words = text.split()
    if words[0] in PARTS:
        return words[0]
    word = words[-1]
    if re.fullmatch(r"r(\d)\+?(\d)", word):
        kind = "dice"
    elif re.fullmatch(r"\+(\d+-\d+)", word):
        kind = "drawn"
    elif re.match(r"[*!sb#]?(\d+-\d+)", word):
        kind = "tile" + ("@" if "@" in word else "") + (word[0] if word[0] in "*!sb#" else "")
    else:
        kind = word[0]
    return kind + (" with its seat" if len(words) == 2 else "")


def _play(page, record, keep_deal: bool, used: dict, hands: int | None = None, named: bool = False,
          shot: str = "", tapped: int | None = None, typed: tuple[int, int] | None = None) -> None:
    """The game tapped (its part lines typed); a hand that is over is closed with the page's
    button once nothing more of it is to come (closing captures, the tiles left).  Past hand
    ``tapped``, each hand is typed whole into the page's box and sent at once, as a scorer
    catching up from a paper sheet does (the taps of every hand are in the run with --long).
    ``typed``: the requests ``typed[0]`` to ``typed[1]`` (not included) typed into the box at once
    instead of tapped, the taps before and after them taking every way of tapping the requests
    tapped take (checked here)."""
    requests = _requests(record, keep_deal)
    if named:
        requests = _named_draws(requests, record)
    requests, rest = harness._split_at_hand(requests, tapped)
    if typed:
        a, b = typed
        assert {_kind(t) for t in requests[:a] + requests[b:]} == {_kind(t) for t in requests}, \
            "the taps kept do not take every way of tapping"
        requests = [*requests[:a], "\n".join(requests[a:b]), *requests[b:]]
    for k, text in enumerate(requests):
        if typed and k == typed[0]:
            _type(page, text)
        elif text.split()[0] in PARTS:
            if hands is not None and text.startswith("hand ") and int(text.split()[1]) > hands:
                return
            _type(page, text)
        else:
            try:
                _tap(page, text, used)
            except Exception as e:
                raise AssertionError(f"tapping {text!r} (request {k + 1}): {page.locator('#message').inner_text()!r}; "
                                     f"{page.locator('#panel').inner_text()[:300]!r}") from e
        if k == 14 and shot:
            _shot(page, shot)  # mid-hand: the offers as a player sees them
        following = requests[k + 1] if k + 1 < len(requests) else "hand"
        if following == "hand" or following.startswith("hand "):
            _close_hand_if_over(page)
    for text in hand_by_hand(rest):
        _type(page, text)
        _close_hand_if_over(page)


def _served_game(tmp_path, game: str, players: list[str], seed: int):
    """A one-table event of ``players`` (individual play: rotating partners are Competitive and
    Broadway's) paired for round 1, and a game its table could play."""
    path = tmp_path / f"{game}.db"
    fmt = "individual" if game not in ("domino-roads", "competitive", "broadway") else "rotating"
    store = create_event(path, make_settings("Club night", game, fmt, table_size=len(players), seed=4))
    add_players(store, players)
    pair_next_round(store)
    store.close()
    return path, harness._game(path, seed)


def _table_page(browser, served):
    """Table 1's page on a phone, play by play chosen."""
    page = browser.new_page(viewport=harness.PHONE)
    page.goto(served.links["tables"][0]["url"])
    page.click("#mode-play", timeout=WAIT_MS)
    page.wait_for_selector("#start-hand", timeout=WAIT_MS)
    return page


def _start_hand(page) -> None:
    """*Start hand 1* tapped (the lead as the rules say), and the table drawn after it."""
    before = _rev(page)
    page.click("#start-hand", timeout=WAIT_MS)
    _wait_rev(page, before)


def _confirm_and_check(page, path, record, sides: list[str]) -> None:
    """Every side (or player) confirms; the event then holds the game as played, entered by the
    table's page."""
    harness._confirm_all(page, sides)
    page.wait_for_selector("text=Confirmed", timeout=WAIT_MS)
    store = open_event(path)
    try:
        table = store.tables(1)[0]
        stored = store.result_for(table.id)
        assert stored is not None and stored.kind == "record" and stored.verified
        assert venue_sql.entered_via(store, table.id) == "table"
        assert stored.scores == dict(validate(record).scores)
    finally:
        store.close()


@pytest.mark.parametrize("game, players, seed, typed", [
    ("horse-race", ["Ana", "Bo", "Cy"], 3, (6, 14)),
    ("castle-rock", ["Ana", "Bo", "Cy"], 5, (11, 58)),
    ("domino-roads", ["Ana", "Bo", "Cy", "Di"], 7, (11, 41)),
])
def test_a_whole_game_tapped_with_the_deal_and_confirmed(tmp_path, browser, game, players, seed, typed, request):
    """The first hand tapped, the rest typed whole (every hand tapped with --long).  Hand 1 of each
    game's seed already takes every kind of tap its whole game takes (Horse Race: tiles and their
    places, tiles drawn; Castle Rock: tiles with and without their seat, captures, draws; Domino
    Roads: the dice, tiles and their roads with and without their seat, the moves tapped by their
    words), and is closed with the page's button; a second hand tapped took the same paths again.
    The default run taps hand 1's first moves and its last, which take every way of tapping the
    hand's moves take (checked by :func:`_play`), and types the moves between them at once
    (``typed``: they are tapped as the ones around them are); --long taps every move of every hand."""
    path, record = _served_game(tmp_path, game, players, seed)
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        used: dict = {}
        every = request.config.getoption("--long")
        _play(page, record, True, used, shot=f"{game}-playing", tapped=None if every else 1,
              typed=None if every else typed)
        _shot(page, f"{game}-over")
        sides = [s for s in page.evaluate("() => [...document.querySelectorAll('#panel button[data-side]')]"
                                           ".map(b => b.dataset.side)")]
        assert sides
        # Each for himself (Horse Race, Castle Rock of three): no sides, every player confirms for a seat.
        by_seat = set(sides) == set(record.seats)
        assert ("Each player taps their seat." if by_seat else "One player of each side taps their side.") \
            in page.inner_text("#panel")
        _confirm_and_check(page, path, record, sides)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= harness.PHONE["width"]
        if game == "domino-roads":
            assert used.get("dice")
        if game == "castle-rock":
            assert used.get("x"), used  # captures tapped
    finally:
        served.close()


@pytest.mark.parametrize("game, players, seed, typed", [
    ("castle-rock", ["Ana", "Bo", "Cy"], 5, (7, 57)),
    ("domino-roads", ["Ana", "Bo", "Cy", "Di"], 7, (7, 37)),
])
def test_the_first_hand_tapped_without_the_deal(tmp_path, browser, game, players, seed, typed, request):
    """No deal entered: the page offers every move that may be legal (captures, draws by tile,
    the dice, places of a tile the mover may hold), and each tap is checked by the engine.  The
    default run taps the hand's first moves and its last, which take every way of tapping its
    moves take (a tile, a capture, a draw by tile, a tile with its seat written before it; the
    dice, tiles on roads, the spinner, doubles, passes and the dice reused), and types the moves
    between them at once (``typed``: they are tapped as the ones around them are); --long taps
    every move."""
    path, record = _served_game(tmp_path, game, players, seed)
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        used: dict = {}
        _play(page, record, False, used, hands=1, named=game == "castle-rock", shot=f"{game}-no-deal-playing",
              typed=None if request.config.getoption("--long") else typed)
        _shot(page, f"{game}-no-deal")
        assert page.locator("#moves").inner_text().strip() or page.locator("#start-hand").count()
        if game == "castle-rock":
            assert used.get("x") and used.get("drawn"), used
        else:
            assert used.get("dice") and used.get("targets", 0) + used.get("s", 0) >= 0, used
    finally:
        served.close()


def test_start_hand_at_castle_rock_says_the_row_is_missing(tmp_path, browser):
    """*Start hand 1* at a Castle Rock table with nothing typed: the page says, under the button,
    that the hand waits for its starting row (the page once stayed as it was, silently); the
    row typed in the box, the first move is offered."""
    path, record = _served_game(tmp_path, "castle-rock", ["Ana", "Bo", "Cy"], 5)
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        page.select_option("#lead", "P2")
        _start_hand(page)
        page.wait_for_selector("#waiting", timeout=WAIT_MS)
        assert "starting row" in page.locator("#waiting").inner_text()
        assert page.input_value("#lead") == "P2"  # the lead typed stays shown while the hand waits
        # Said once on the screen, under the button: not again at the top (it was, in bold, the
        # same words twice), and not in a refusal's colour nor a move taken's (the line was stored).
        assert "starting row" not in page.locator("#message").inner_text()
        assert page.locator("#message").get_attribute("class") in (None, "")
        red = page.evaluate("() => getComputedStyle(document.documentElement).getPropertyValue('--bad').trim()")
        colour = page.evaluate("() => getComputedStyle(document.getElementById('waiting')).color")
        assert colour != page.evaluate("(c) => { const p = document.createElement('p'); p.style.color = c; "
                                       "document.body.append(p); const x = getComputedStyle(p).color; p.remove(); return x; }", red)
        # What to type there is said in full beside the field (its placeholder alone was cut on a phone).
        hint = page.locator("#row-hint")
        assert hint.is_visible() and "4-0 5-3 3-1 4-2" in hint.inner_text()
        box, field = hint.bounding_box(), page.locator("#row-tiles").bounding_box()
        assert box["x"] + box["width"] <= page.viewport_size["width"] and field["x"] >= 0
        # The row laid through its own field (as it lies, blocked end first), sent as the row line.
        row = next(t for t in requests_for(record, keep_deal=True) if t.startswith("row "))
        before = _rev(page)
        page.fill("#row-tiles", row.removeprefix("row "))
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/dgn"), timeout=WAIT_MS) as answer:
            page.click("#row-form button[type=submit]")
        assert answer.value.status == 200, answer.value.json()
        _wait_rev(page, before)
        page.wait_for_selector("#panel .tiles button", timeout=WAIT_MS)
        # The row laid is shown before the first move, to be checked against the table (it was
        # in the page, hidden, until the first move).
        assert page.locator("#layout").is_visible() and page.locator("#this-hand").is_visible()
        assert page.locator("#layout").inner_text().replace("\u200b", "").count("[") == len(row.split()) - 1
        assert page.locator("#waiting").count() == 0 and page.locator("#start-hand").count() == 0
    finally:
        served.close()


@pytest.mark.parametrize("game, players, seed", [
    ("competitive", ["Ana", "Bo", "Cy", "Di"], 11),
    ("horse-race", ["Ana", "Bo", "Cy", "Di"], 3),
    ("broadway", ["Ana", "Bo", "Cy", "Di"], 2),
    ("castle-rock", ["Ana", "Bo", "Cy", "Di"], 5),
    ("domino-roads", ["Ana", "Bo", "Cy", "Di"], 7),
    ("domino-roads", ["Ana", "Bo", "Cy"], 7),  # three alone: piles, roads named P1-1
])
def test_the_tables_picture_fits_a_phone_without_a_tile_cut(tmp_path, browser, game, players, seed):
    """The table's picture (the line of play, the roads, the row) as a phone shows it, deep into
    the first hand: no line runs past the screen's edge (a Competitive line of play of a dozen
    tiles once had to be scrolled sideways), a long line goes on under its own start, and the
    picture holds every tile of the engine's lines, none broken across two lines."""
    path = tmp_path / f"{game}.db"
    fmt = "rotating" if game in ("competitive", "broadway", "domino-roads") and len(players) == 4 else "individual"
    store = create_event(path, make_settings("Club night", game, fmt, table_size=len(players), seed=4))
    add_players(store, players)
    pair_next_round(store)
    store.close()
    record = harness._game(path, seed)
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        first_hand = harness._split_at_hand(_requests(record, True), 1)[0]
        deep = first_hand[: max(2, len(first_hand) * 2 // 3)]
        _type(page, "\n".join(deep))
        page.wait_for_selector("#layout:not([hidden])", timeout=WAIT_MS)
        _shot(page, f"{game}-picture")
        box = page.evaluate("() => { const l = document.getElementById('layout');"
                            " return { scroll: l.scrollWidth, client: l.clientWidth,"
                            " lines: [...l.children].map(c => ({ text: c.textContent, rects: c.getClientRects().length,"
                            " height: c.getBoundingClientRect().height })) }; }")
        assert box["scroll"] <= box["client"], box
        state = page.evaluate("() => window.venue.table.view().game.table")
        assert [c["text"].replace("\u200b", "") for c in box["lines"]] == [line.lstrip() for line in state]
        # Where the page broke a line, it broke it between tiles: each visual row of the line
        # starts and ends on a whole tile (the range's rows read back as the text split at its breaks).
        rows = page.evaluate("""() => [...document.getElementById('layout').children].map((line) => {
            const rows = []; let top = null, row = "";
            const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
            for (let text = walk.nextNode(); text; text = walk.nextNode()) {
              for (let i = 0; i < text.length; i++) {
                const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
                const rect = r.getClientRects()[0];
                if (rect && top !== null && rect.top > top + 2) { rows.push(row); row = ""; }
                if (rect) top = rect.top;
                row += text.data[i];
              }
            }
            rows.push(row); return rows; })""")
        for line_rows in rows:
            for before, after in zip(line_rows, line_rows[1:]):
                joint = before.rstrip("\u200b")[-1:] + after.lstrip("\u200b")[:1]
                assert not re.fullmatch(r"[\d|-]{2}", joint), line_rows  # "6-" then "4", "6" then "-4"
        if game == "competitive":
            assert any(len(r) > 1 for r in rows), rows  # the long line of play did wrap, and stayed whole
        # The box's example is this game's, with this table's seats (P1... at Castle Rock and Horse Race).
        # (its tiles' hyphens, and a road's such as P1-1, non-breaking ones: never cut on a phone)
        example = page.get_attribute("#typed-text", "placeholder").replace("\u2011", "-")
        seats = page.evaluate("() => window.venue.table.view().game.seats")
        assert (seats[1] if game == "castle-rock" else seats[0]) in example.split(), (example, seats)
        road = "NS1" if "N" in seats else f"{seats[0]}-1"  # the road as the page's own moves name it
        assert ("row " in example) == (game == "castle-rock") and (f"@{road}" in example) == (game == "domino-roads")
    finally:
        served.close()


def test_a_horse_race_score_sheet_typed_line_by_line_waits_for_its_end_line(tmp_path, browser, request):
    """A club's Horse Race sheet (no ends, no seats, no deal, each hand's scores on its end line)
    typed into the phone's box line by line: hand 4's left line leaves readings with different
    scores, and the page says the hand waits for its end line; the end line settles it, and the
    game confirmed is the game as scored.  The default run types hand 4 line by line (the one that
    waits; its lines are of every kind the sheet has: the hand's line, the boneyard, the tiles, the
    left and end lines) and every other hand a hand a request, as a scorer catching up from the
    sheet; under --long every line is typed alone."""
    from domrec import notation

    path, record = _served_game(tmp_path, "horse-race", ["Ana", "Bo"], 1)
    lines = [line for line in notation.dumps_typed(record, keep_deal=False, ends=False, seats=False,
                                                     scores=True).splitlines()
             if line.strip() and not line.startswith("[")]
    every = request.config.getoption("--long")
    lines, rest = harness._split_at_hand(lines, None if every else 4)
    earlier, lines = ([], lines) if every else harness._split_at_hand(lines, 3)
    assert every or (lines[0] == "hand 4 lead P1" and lines[1].startswith("boneyard "))
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        for text in hand_by_hand(earlier):
            _type(page, text)
        waited = False
        for line in lines:
            _type(page, line)
            if "waits for its end line" in page.inner_text("#message"):
                waited = True
                assert line.startswith("left "), line
                assert "type its end line with the scores" in page.inner_text("#panel")
                assert page.locator("#close-hand").count() == 0  # (closing would take the first reading)
                # The hand as typed: no end, no point and no line of play of a reading the end
                # line may rule out.
                shown = page.inner_text("#moves")
                assert shown.strip() and "@" not in shown and "(+" not in shown, shown
                assert page.locator("#layout").is_hidden()
                _shot(page, "horse-race-sheet-waits")
        assert waited
        for text in hand_by_hand(rest):
            _type(page, text)
        _close_hand_if_over(page)
        sides = page.evaluate("() => [...document.querySelectorAll('#panel button[data-side]')].map(b => b.dataset.side)")
        assert sides
        _confirm_and_check(page, path, record, sides)
    finally:
        served.close()


@pytest.mark.parametrize("game, players, seed", [
    ("competitive", ["Ana", "Bo", "Cy", "Di"], 11),
    ("horse-race", ["Ana", "Bo", "Cy", "Di"], 3),
    ("broadway", ["Ana", "Bo", "Cy", "Di"], 2),
])
def test_the_first_tile_without_the_deal_asks_who_played_it(tmp_path, browser, game, players, seed):
    """No deal entered, *Start hand 1* with the lead as the rules say: nobody is to move until
    the first tile, whose player leads (the deal's, which the page cannot know).  Tapping it asks
    who played it, and the move is sent with that seat; the tile alone was sent, and the reading
    gave it to the first seat ("N 6-6", then "W to play") until the hand's end said otherwise."""
    path, record = _served_game(tmp_path, game, players, seed)
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        _start_hand(page)
        first = record.hands[0].moves[0]
        seat, tile = first.seat, str(T.tile(first.play))
        assert page.locator(".players .to-move").count() == 0
        page.click(f'#panel .tiles:not(.draws) button[data-tile="{tile}"]', timeout=WAIT_MS)
        page.wait_for_selector("#panel .targets button", timeout=WAIT_MS)
        assert f"Who played {tile}? Tap the seat" in page.locator("#panel").inner_text()
        assert page.locator("#panel .targets button").count() == len(players)
        _shot(page, f"{game}-who-played-the-first-tile")
        before = _rev(page)
        page.click(f'#panel .targets button[data-move="{seat} {tile}"]', timeout=WAIT_MS)
        _wait_rev(page, before)
        store = open_event(path)
        try:
            rows = venue_sql.log(store, store.tables(1)[0].id)
        finally:
            store.close()
        assert rows[-1][1] == "dgn" and rows[-1][2] == f"{seat} {tile}", rows[-1]
        assert f"{seat} plays {tile}" in page.locator("#message").inner_text()
    finally:
        served.close()


def test_a_tile_that_fits_nowhere_is_not_sent_as_a_draw_at_the_tap(tmp_path, browser):
    """Horse Race without the deal: after P1's 5-5, 6-0 tapped as played fits no open end; the
    one thing the engine accepts for it is a draw, and the page sent that at the tap ("P1 draws
    6-0": a player's slip recorded as a draw).  Now it asks whether it was drawn, nothing sent."""
    path, _ = _served_game(tmp_path, "horse-race", ["Ana", "Bo", "Cy", "Di"], 3)
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        _start_hand(page)
        page.click('#panel .tiles:not(.draws) button[data-tile="5-5"]', timeout=WAIT_MS)
        before = _rev(page)
        page.click('#panel .targets button[data-move="P1 5-5"]', timeout=WAIT_MS)
        _wait_rev(page, before)
        before = _rev(page)
        page.click('#panel .tiles:not(.draws) button[data-tile="6-0"]', timeout=WAIT_MS)
        page.wait_for_selector('#panel .targets button[data-move="P1 +6-0"]', timeout=WAIT_MS)
        assert "6-0 cannot be played now: was it drawn?" in page.locator("#panel").inner_text()
        assert _rev(page) == before  # nothing sent
        _shot(page, "horse-race-a-tile-that-fits-nowhere")
        page.click('#panel .targets button[data-move="P1 +6-0"]', timeout=WAIT_MS)
        _wait_rev(page, before)
        assert "P1 draws 6-0" in page.locator("#message").inner_text()
    finally:
        served.close()


def test_the_hint_at_a_hands_end_names_the_tables_own_seats(tmp_path, browser):
    """Horse Race of three, without the deal: at the hand's end the page asks for the tiles still
    held with an example in this table's seats (it said "left N 6-6; E …" to players P1 to P3)."""
    path, record = _served_game(tmp_path, "horse-race", ["Ana", "Bo", "Cy"], 3)
    served = harness._served(path)
    try:
        page = _table_page(browser, served)
        hand = []
        for text in _requests(record, False):  # (typed, at once: the hint is what is looked at here)
            if text.startswith("left "):
                break
            hand.append(text)
        _type(page, "\n".join(hand))
        page.wait_for_selector("#close-hand", timeout=WAIT_MS)
        panel = page.inner_text("#panel")
        assert "(left P1 6-6; P2 …)" in panel and "left N" not in panel, panel
    finally:
        served.close()
