"""The phone's engine in a real browser: Pyodide and domrec's modules served by the laptop alone,
and every write answered by the phone exactly as the server answers it, for all five games.

The table's page is opened from ``BackgroundVenue`` on 127.0.0.1 with every other host refused
(route-aborted): the engine must reach ``data-engine="ready"`` with nothing from the internet.
Then a game is played write by write: before each write goes to the server, the page's engine
(``domrecEngine.answer``) answers it from the table's log, and the two answers must be the same
JSON (but for the request's id and the time of the last write, which are the server's alone):
legal moves, whole hands typed, an illegal move, a line that cannot be read, an old revision, a
mode that is none, a call of the director, in English and in Spanish.  Slow, and skipped with the
reason where Chromium or Playwright is missing."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from domrec.session import PARTS, requests_for
from tests.browser import playwright_or_skip
from tests.tournament.helpers import hand_by_hand

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue import EVENTS, _event, _game_of  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

READY_MS = 180_000

#: One write: the engine's answer from the table's log, then the server's, both returned.
BOTH = """async ([path, body, lang]) => {
  const table = await window.domrecEngine.table();
  const mine = await window.domrecEngine.answer(table, {path, body}, lang);
  const r = await fetch(`/api/v1/tables/${document.body.dataset.round}/${document.body.dataset.table}/${path}?lang=${lang}`,
    {method: "POST", headers: {"Authorization": "Bearer " + document.body.dataset.token,
                               "Content-Type": "application/json"}, body: JSON.stringify(body), cache: "no-store"});
  return {mine, server: {status: r.status, body: await r.json()}, rows: table.rows.length};
}"""


#: The same, the engine given the table as the page holds it ({round, table, state}): it keeps the log itself.
KEPT = """async ([path, body, lang, state]) => {
  const d = document.body.dataset;
  const mine = await window.domrecEngine.answer({round: Number(d.round), table: Number(d.table), state}, {path, body}, lang);
  const r = await fetch(`/api/v1/tables/${d.round}/${d.table}/${path}?lang=${lang}`,
    {method: "POST", headers: {"Authorization": "Bearer " + d.token, "Content-Type": "application/json"},
     body: JSON.stringify(body), cache: "no-store"});
  return {mine, server: {status: r.status, body: await r.json()}};
}"""


def _without_times(data):
    if isinstance(data, dict):
        return {k: _without_times(v) for k, v in data.items() if k not in ("request_id", "last_at")}
    if isinstance(data, list):
        return [_without_times(x) for x in data]
    return data


def _local_only(route) -> None:
    """Anything not asked of the laptop (127.0.0.1) is refused: the engine needs no internet."""
    if urlsplit(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        _local_only.refused.append(route.request.url)
        route.abort()


_local_only.refused = []


@pytest.fixture(scope="module")
def browser():
    from tests.browser import launched

    with launched() as b:
        yield b


@pytest.mark.parametrize("game", list(EVENTS))
def test_the_phone_answers_as_the_server(game, browser, tmp_path):
    path = _event(tmp_path, game)
    record = _game_of(path, 1, 1, 5)
    texts = list(requests_for(record))
    hands = hand_by_hand(texts)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as venue:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.route("**/*", _local_only)
        page = context.new_page()
        try:
            page.goto(venue.links["tables"][0]["url"])
            page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
            assert page.evaluate("() => [document.body.dataset.engine, window.domrecEngine.status, "
                                 "window.domrecEngine.error]") == ["ready", "ready", None]
            assert not _local_only.refused, _local_only.refused
            rev = 0
            seen: dict[str, int] = {}

            def both(path: str, body: dict, lang: str) -> dict:
                got = page.evaluate(BOTH, [path, body, lang])
                mine, server = got["mine"], got["server"]
                assert mine["status"] == server["status"], (path, body, lang, mine, server)
                assert _without_times(mine["body"]) == _without_times(server["body"]), (path, body, lang)
                seen[str(server["status"])] = seen.get(str(server["status"]), 0) + 1
                return server

            # the first hand write by write, alternately in English and Spanish, with refusals between
            first = hand_by_hand(texts)[0].split("\n")
            moved = next(k for k, text in enumerate(first) if text.split()[0] not in PARTS)
            for k, text in enumerate(first):
                lang = "es" if k % 2 else "en"
                if k == 3:
                    both("dgn", {"rev": rev, "text": "zz 9-9"}, lang)  # a line that cannot be read
                    both("dgn", {"rev": rev, "text": "N 0-0@9-9"}, "es")  # a move that is no move here
                    both("dgn", {"rev": rev + 5, "text": text}, lang)  # an old (here: a future) revision
                    both("mode", {"rev": rev, "mode": "x"}, "es")
                if k and k == moved + 2:  # the first move of the hand made again: refused by the rules
                    assert both("dgn", {"rev": rev, "text": first[moved]}, "es")["status"] == 422
                    assert both("dgn", {"rev": rev, "text": first[moved]}, "en")["status"] == 422
                server = both("dgn", {"rev": rev, "text": text}, lang)
                if server["status"] == 200:
                    rev = server["body"]["rev"]
            server = both("call", {"rev": 0}, "es")  # a call, from any view
            rev = server["body"]["rev"]
            for k, text in enumerate(hands[1:3]):  # then whole hands typed at once
                server = both("dgn", {"rev": rev, "text": text}, "es" if k % 2 else "en")
                rev = server["body"]["rev"] if server["status"] == 200 else rev
            # the table as the page holds it: the engine reads the log it lacks, then answers
            for k, text in enumerate(hands[3:5]):
                lang = "es" if k % 2 else "en"
                got = page.evaluate(KEPT, ["dgn", {"rev": rev, "text": text}, lang, server["body"]])
                assert got["mine"]["status"] == got["server"]["status"], (text, got)
                assert _without_times(got["mine"]["body"]) == _without_times(got["server"]["body"]), (text, lang)
                server = got["server"]
                rev = server["body"]["rev"] if server["status"] == 200 else rev
            assert seen.get("200", 0) >= len(first) // 2 and seen.get("422") and seen.get("409"), seen
            assert not _local_only.refused, _local_only.refused
        finally:
            context.close()
