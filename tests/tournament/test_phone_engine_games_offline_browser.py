"""Hands recorded offline on the table's page with the phone's real engine (engine.js: Pyodide and
domrec's own modules, served by the laptop), for all five games, and a Competitive table whose
server is killed in the middle of its game (issue 36's two remaining browser tests).

Each test opens the table's page, waits until the engine is ready and holds the table's log as
the page shows it (``data-engine-rev`` equals ``data-rev``), then cuts the phone off (the browser
context offline; or the server stopped), and records a hand by tapping the page's offers (the
legal moves the phone's engine drew) and by typing lines.  Back online the outbox sends it all.

What "the same as online" means is checked against the server itself, not against the engine: a
twin of the event, copied while no server holds it, is served apart afterwards, and the writes the
phone stored are sent to it one by one; the server's answer to each must be, word for word, the
table the phone drew offline after the same write (so the same taps, online, would have offered and
sent the same moves), and the illegal line the phone refused is refused by the twin in the same
sentence.  Waits are on the page's own marks (``data-engine``, ``data-engine-rev``, ``data-rev``,
``data-outbox``), never on time.  Slow, and skipped with the reason where Chromium or Playwright
is missing."""

from __future__ import annotations

import re

import json
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from domrec.session import PARTS
from domrec.validate import validate
from tournament import open_event

pytestmark = [pytest.mark.slow, pytest.mark.phone_engine]  # (the browser fixture lets its pages load the engine)

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament import test_venue_browser as harness  # noqa: E402
from tests.tournament.test_phone_engine_browser import _without_times  # noqa: E402
from tests.tournament.test_phone_engine_offline_browser import READY_MS, _local_page  # noqa: E402
from tests.tournament.test_venue_games_browser import _requests, _served_game, _tap  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

WAIT_MS = harness.WAIT_MS
_rev = harness._rev

#: The five games: the players of a table, the format, and a seed whose first hand is played here.
GAMES = {
    "competitive": (["Ana", "Bo", "Cy", "Di"], 21),
    "broadway": (["Ana", "Bo", "Cy", "Di"], 3),
    "horse-race": (["Ana", "Bo", "Cy"], 3),
    "castle-rock": (["Ana", "Bo", "Cy"], 5),
    "domino-roads": (["Ana", "Bo", "Cy", "Di"], 7),
}


def _made(tmp_path: Path, game: str):
    """A one-table event of ``game`` paired for round 1, and a game its table could play."""
    players, seed = GAMES[game]
    if game in ("competitive", "broadway"):
        path = harness._event(tmp_path, game, players)
        return path, harness._game(path, seed)
    return _served_game(tmp_path, game, players, seed)


def _twin(path: Path) -> Path:
    """A copy of the event file, made while no server holds it (SQLite's own backup: the WAL's
    pages too), to replay on a server of its own."""
    twin = path.with_name("twin-" + path.name)
    store = open_event(path)
    try:
        target = sqlite3.connect(twin)
        try:
            store.conn.backup(target)
        finally:
            target.close()
    finally:
        store.close()
    return twin


def _log(path: Path) -> list[tuple[int, str, str]]:
    store = open_event(path)
    try:
        return [tuple(r) for r in store.conn.execute("SELECT rev, kind, body FROM venue_log ORDER BY rev")]
    finally:
        store.close()


def _post(base: str, token: str, kind: str, body: dict) -> tuple[int, dict]:
    asked = urllib.request.Request(f"{base}/api/v1/tables/1/1/{kind}?lang=en", data=json.dumps(body).encode(),
                                   headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                                   method="POST")
    try:
        with urllib.request.urlopen(asked) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _get(base: str, token: str) -> dict:
    asked = urllib.request.Request(f"{base}/api/v1/tables/1/1", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(asked) as answer:
        return json.loads(answer.read())


def _words(rows) -> list[str]:
    """Each line's last word, the closing ``y`` left out: a move as typed (``6-4``) and as the page's
    offer sends it (``N 6-4``) read alike; the server's own answers are compared in :func:`_replayed`."""
    texts = [r[2] if isinstance(r, tuple) else r for r in rows]
    return [text.split()[-1] for text in texts if text != "y"]


def _view(page) -> dict:
    return page.evaluate("() => window.venue.table.view()")


def _ready_and_current(page) -> None:
    """The phone's engine loaded (from the laptop alone) and holding the table's log up to the
    revision the page shows: what a write made offline is checked against."""
    page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
    assert page.evaluate("() => document.body.dataset.engine") == "ready", page.evaluate(
        "() => window.domrecEngine.error")
    page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev", timeout=WAIT_MS)


def _outbox(page) -> int:
    return int(page.evaluate("() => document.body.dataset.outbox || 0"))


def _type_offline(page, text: str) -> None:
    """A line typed with the server out of reach: checked by the phone's engine, taken (the table
    drawn one revision on), and kept in the outbox."""
    before, waiting = _rev(page), _outbox(page)
    page.fill("#typed-text", text)
    page.click("#typed-form button[type=submit]")
    harness.wait_rev(page, before, WAIT_MS)
    assert _rev(page) == before + 1 and _outbox(page) == waiting + 1, (text, page.inner_text("#message"))


def _refused_offline(page, text: str) -> str:
    """A line the phone's engine refuses: the sentence shown, nothing kept, the line left to put right."""
    before, waiting = _rev(page), _outbox(page)
    page.fill("#typed-text", text)
    page.click("#typed-form button[type=submit]")
    page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)  # (said beside the box the line stays in)
    assert _rev(page) == before and _outbox(page) == waiting
    assert page.input_value("#typed-text") == text
    page.fill("#typed-text", "")
    return page.inner_text("#typed-message")


def _replayed(twin: Path, token: str, log: list[tuple[int, str, str]], start: int, drawn: dict[int, dict],
              refused: tuple[int, str, str] | None = None) -> None:
    """The stored writes sent, in order, to a server of the twin event (as it was before them): the
    server takes each; past revision ``start`` (the writes made offline) it answers, word for word,
    the table the phone drew after the same write (``drawn``, by revision).  ``refused``: (the
    revision it was typed at, the line, the sentence the phone showed): the server refuses that
    line there in the same sentence."""
    with BackgroundVenue(twin, rate=1e9, burst=10 ** 9) as server:
        held = _get(server.base_url, token)["rev"]  # (a twin copied when the server stopped holds the rows before)
        for rev, kind, body in log[held:]:
            if rev > start and refused and refused[0] == rev - 1:
                status, answer = _post(server.base_url, token, "dgn", {"rev": rev - 1, "text": refused[1]})
                # (the page shows a one-line write's refusal without its "1:1: " place)
                assert (status, re.sub(r"^1:[0-9]+: ", "", answer.get("error", ""))) == (422, refused[2]), answer
            status, answer = _post(server.base_url, token, kind, {"rev": rev - 1, "text": body} if kind == "dgn"
                                   else {"rev": rev - 1, "mode": body} if kind == "mode" else {"rev": rev - 1})
            assert status == 200, (rev, body, answer)
            if rev > start:
                assert _without_times(answer) == _without_times(drawn[rev]), (rev, body)


# -- 1. all five games ------------------------------------------------------------------------------


#: The games recorded offline in the default run: Broadway (the one game no other page test taps) and
#: Domino Roads (its dice tapped).  Each boots Pyodide on a page of its own, half a minute of a core;
#: the other three are recorded offline under ``pytest --long``.  In the default run every game's
#: engine still answers in the browser exactly as the server (test_phone_engine_browser.py), the
#: other individual games are tapped online (test_venue_games_browser.py), and Competitive is
#: recorded offline twice more (below, its server stopped, and test_phone_engine_offline_browser.py).
OFFLINE_BY_DEFAULT = ("broadway", "domino-roads")


@pytest.mark.parametrize("game", [g if g in OFFLINE_BY_DEFAULT else pytest.param(g, marks=pytest.mark.long)
                                  for g in GAMES])
def test_a_hand_recorded_offline_by_tapping_and_typing(game, browser, tmp_path):
    """The first hand of each game recorded with the phone offline: its part lines and one move
    typed, every other move tapped among the offers the phone's engine drew; the hand closed with
    the page's button.  Back online, every write is stored once, each as the server would have
    taken it online, and the page shows the server's table."""
    path, record = _made(tmp_path, game)
    harness._served(path).close()  # the venue's tables and their keys made, as the first serve makes them
    twin = _twin(path)  # the event as it is before play, with the same keys (no server holds it now)
    requests = _requests(record, keep_deal=True)
    first, _ = harness._split_at_hand(requests, 1)
    served = harness._served(path)
    url = served.links["tables"][0]["url"]
    token = url.rsplit("/", 1)[1]
    context, page = _in_play(browser, url)
    try:
        _ready_and_current(page)
        start = _rev(page)
        context.set_offline(True)
        drawn: dict[int, dict] = {}
        used: dict = {}
        typed = tapped = 0
        for k, text in enumerate(first):
            if text.split()[0] in PARTS:
                _type_offline(page, text)
            elif not typed and k + 1 < len(first) and first[k - 1].split()[0] not in PARTS:
                _type_offline(page, text)  # a move typed (the second of the hand, or later)
                typed += 1
            else:
                waiting = _outbox(page)
                _tap(page, text, used)
                tapped += 1
                assert _rev(page) == start + len(drawn) + 1 and _outbox(page) == waiting + 1, text
            drawn[_rev(page)] = _view(page)
        harness._close_hand_if_over(page)
        drawn[_rev(page)] = _view(page)
        offline_view = _view(page)
        assert typed == 1 and tapped >= 3, (typed, tapped)
        if game == "domino-roads":
            assert used.get("dice"), used  # the dice tapped, first die then second
        assert _outbox(page) == len(drawn) == _rev(page) - start
        assert offline_view["game"]["hands"] and not offline_view["game"]["in_hand"]
        assert page.inner_text("#outbox") == f"offline: {len(drawn)} lines waiting to be sent"
        harness._shot(page, f"offline-{game}")
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
        page.wait_for_function("() => document.getElementById('outbox').textContent === 'all sent'",
                               timeout=WAIT_MS)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {start + len(drawn)}",
                               timeout=WAIT_MS)
        server = _get(served.base_url, token)
        shown = _view(page)
        shown.pop("said", None), server.pop("said", None)  # (what the last write said, on the message line)
        assert _without_times(shown) == _without_times(server)  # the page shows the server's table
        assert _without_times(server["game"]) == _without_times(offline_view["game"])  # as the phone drew it
    finally:
        context.close()
        served.close()
    log = _log(path)
    assert [r[0] for r in log] == list(range(1, start + len(drawn) + 1))  # each write stored once, in order
    assert _words(log[start:]) == _words(first)  # the lines typed and the moves tapped (a tap names its seat)
    _replayed(twin, token, log, start, drawn)


# -- 2. Competitive with the deal, the server killed ------------------------------------------------


#: How the phone is cut off in the default run: the server stopped, the one way no other test of the
#: engine's pages takes.  The phone's own network lost (the browser context offline) is how every other
#: offline test here and in test_phone_engine_offline_browser.py cuts it; for this game, under ``--long``.
@pytest.mark.parametrize("cut", ["the server stops", pytest.param("the phone goes offline", marks=pytest.mark.long)])
def test_a_competitive_hand_tapped_while_the_server_is_down_then_the_game_confirmed(browser, tmp_path, cut):
    """Two hands online; the laptop's server stops (or, apart, the phone loses the network); the
    third hand tapped on the phone, an illegal move typed among its taps refused by the phone's
    engine in the server's own sentence (and not kept); the server starts again on the same port
    (the phone is back online): the outbox is sent, every move stored once; the rest played online
    and the game confirmed by both sides."""
    path = harness._event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = harness._game(path, seed=11)
    steps = harness._steps(record)
    online, rest = harness._split_at_hand(steps, 2)
    third, later = _hand(rest)
    served = harness._served(path)
    port = int(served.base_url.rsplit(":", 1)[1])
    url = served.links["tables"][0]["url"]
    token = url.rsplit("/", 1)[1]
    context, page = _in_play(browser, url)
    try:
        for text in harness.hand_by_hand(online):  # two hands online, each typed whole
            harness._type(page, text)
            harness._close_hand_if_over(page)
        _ready_and_current(page)
        start = _rev(page)
        served.close()  # the laptop's server stops (a crash, a restart)
        twin = _twin(path)  # the event as the phone left the server (no server holds it now)
        if cut == "the phone goes offline":  # the server back at once, and the phone's network gone instead
            served = BackgroundVenue(path, port=port, rate=1e9, burst=10 ** 9)
            context.set_offline(True)
        drawn: dict[int, dict] = {}
        moves = [k for k, text in enumerate(third) if text.split()[0] not in PARTS]
        refused = None
        for k, text in enumerate(third):
            if k == moves[3]:  # the hand's first move made again: refused on the phone, in the server's words
                again = third[moves[0]]
                refused = (_rev(page), again, _refused_offline(page, again))
                assert refused[2], "the phone's engine said nothing"
            if text.split()[0] in PARTS:
                _type_offline(page, text)
            else:
                waiting = _outbox(page)
                seat = page.locator(".players .to-move").first.inner_text().split()[0]
                harness._tap_move(page, seat, text, {})
                assert _outbox(page) == waiting + 1, text
            drawn[_rev(page)] = _view(page)
        harness._close_hand_if_over(page)
        drawn[_rev(page)] = _view(page)
        assert refused is not None and _outbox(page) == len(drawn) == _rev(page) - start
        assert page.inner_text("#outbox") == f"offline: {len(drawn)} lines waiting to be sent"
        if cut == "the phone goes offline":
            context.set_offline(False)  # and the phone is back
        else:
            served = BackgroundVenue(path, port=port, rate=1e9, burst=10 ** 9)  # and starts again
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {start + len(drawn)}",
                               timeout=WAIT_MS)
        server = _get(served.base_url, token)["game"]
        assert _without_times(server) == _without_times(drawn[start + len(drawn)]["game"])
        for text in harness.hand_by_hand(later):  # the rest online
            harness._type(page, text)
            harness._close_hand_if_over(page)
        harness._confirm_all(page, ["NS", "EW"])
        page.wait_for_selector("text=Confirmed", timeout=WAIT_MS)
    finally:
        context.close()
        served.close()
    log = _log(path)
    assert [r[0] for r in log] == list(range(1, len(log) + 1))
    assert _words(log[start:start + len(drawn)]) == _words(third)  # each write made offline, once
    store = open_event(path)
    try:
        result = store.result_for(store.tables(1)[0].id)
        assert result is not None and result.verified and result.scores == validate(record).scores
    finally:
        store.close()
    _replayed(twin, token, log[:start + len(drawn)], start, drawn, refused)


def _in_play(browser, url: str):
    """A phone that reaches 127.0.0.1 alone opens the table's link and chooses play by play: its
    browser context and page."""
    page = _local_page(browser)
    page.goto(url)
    page.click("#mode-play", timeout=WAIT_MS)
    page.wait_for_selector("#start-hand", timeout=WAIT_MS)
    return page.context, page


def _hand(steps: list[str]) -> tuple[list[str], list[str]]:
    """The first hand of ``steps`` (its part lines and moves), and the steps after it."""
    cut = next((k for k, text in enumerate(steps) if k and text.startswith("hand ")), len(steps))
    return steps[:cut], steps[cut:]
