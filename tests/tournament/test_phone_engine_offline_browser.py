"""The table page offline with the phone's real engine (engine.js, Pyodide and domrec's modules from
the laptop): each line typed offline is checked on the phone, drawn as the server would draw it,
an illegal move is refused there in the server's own words (and not kept), and back online the
outbox sends every move once, as if played online.  Every host but 127.0.0.1 is refused.  Slow,
and skipped with the reason where Chromium or Playwright is missing."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import httpx
import pytest

from domrec.session import PARTS
from tournament import open_event

pytestmark = [pytest.mark.slow, pytest.mark.phone_engine]  # (the browser fixture lets its pages load the engine)

from tests.browser import playwright_or_skip, refresh_now, with_clock

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _event, _game, _rev, _served, _steps, _type  # noqa: E402
from tests.tournament.test_venue_outbox_browser import _bodies  # noqa: E402

READY_MS = 180_000


def _local_only(route) -> None:
    if urlsplit(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        route.abort()


def _competitive(tmp_path: Path) -> tuple[Path, list[str], object]:
    """A Competitive table's event, its simulated game's lines, and its server."""
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    return path, _steps(_game(path, seed=12)), _served(path)


def _local_page(browser):
    """A phone's page that reaches 127.0.0.1 alone, without the service worker."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.route("**/*", _local_only)
    return context.new_page()


def _engine_ready(page) -> None:
    """Wait for the phone's engine (Pyodide) to have loaded, and say why where it could not."""
    page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
    assert page.evaluate("() => document.body.dataset.engine") == "ready", page.evaluate(
        "() => window.domrecEngine.error")


@pytest.mark.long
@pytest.mark.parametrize("lang", ["en", "es"])
def test_offline_the_real_engine_checks_each_line_and_refuses_an_illegal_one(tmp_path, browser, lang):
    """Under ``pytest --long`` only, in English and in Spanish: a page of its own, Pyodide booted
    again, for paths the default run takes elsewhere with the same engine on the same page.  There,
    lines typed offline are each checked on the phone and drawn one revision on, one more in the
    outbox each (test_phone_engine_games_offline_browser.py, Broadway and Domino Roads with the phone
    offline); an illegal move typed offline is refused on the phone, not kept, and left in the box,
    and the server refuses the same line on the same table in the phone's very sentence (the same
    module's Competitive hand, its twin replayed; and, offline, test_the_wifi_dropping_again_... below);
    back online the outbox is sent and play goes on.  The engine's answers in both languages are
    held to the server's word for word in a real browser (test_phone_engine_browser.py)."""
    path, steps, served = _competitive(tmp_path)
    try:
        page = _local_page(browser)
        page.goto(served.links["tables"][0]["url"] + f"?lang={lang}")
        page.wait_for_function("() => document.body.dataset.rev", timeout=WAIT_MS)
        for step in steps[:2]:
            _type(page, step)
        _engine_ready(page)
        # the engine holds the table's log up to what the page shows
        page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev",
                               timeout=WAIT_MS)
        page.context.set_offline(True)
        moves = [k for k in range(2, 8) if steps[k].split()[0] not in ("hand", "deal", "leaddraw")]
        for k in range(2, 8):
            before = _rev(page)
            page.fill("#typed-text", steps[k])
            page.click("#typed-form button[type=submit]", timeout=WAIT_MS)
            page.wait_for_function(f"() => Number(document.body.dataset.rev) === {before + 1}", timeout=WAIT_MS)
            assert page.evaluate("() => document.body.dataset.outbox") == str(k - 1)
        # an illegal move: the first move made offline, made again
        again = steps[moves[0]]
        before = _rev(page)
        page.fill("#typed-text", again)
        page.click("#typed-form button[type=submit]", timeout=WAIT_MS)
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)  # (said beside the box the line stays in)
        refusal = page.inner_text("#typed-message")
        assert _rev(page) == before and page.evaluate("() => document.body.dataset.outbox") == "6"
        assert page.input_value("#typed-text") == again  # left in the box, to put right
        page.context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
        page.wait_for_function("() => Number(document.body.dataset.rev) === 8", timeout=WAIT_MS)
        # the server refuses the same line on the same table in the same words
        r = page.evaluate("""async ([text, lang]) => {
          const d = document.body.dataset;
          const r = await fetch(`/api/v1/tables/${d.round}/${d.table}/dgn?lang=${lang}`, {method: "POST",
            headers: {"Authorization": "Bearer " + d.token, "Content-Type": "application/json"},
            body: JSON.stringify({rev: 8, text})});
          return {status: r.status, body: await r.json()};
        }""", [again, lang])
        # (the page shows a one-line write's refusal without its "1:1: " place)
        assert r["status"] == 422 and re.sub(r"^1:[0-9]+: ", "", r["body"]["error"]) == refusal
        _type(page, steps[8])  # and play goes on, online
    finally:
        served.close()
    assert _bodies(path) == steps[:9]


@pytest.fixture(scope="module")
def log_page(browser, tmp_path_factory):
    """One phone's page of a Competitive table (127.0.0.1 alone, no service worker, its timers on
    Playwright's clock), its engine booted once for the two tests below, which each go on from the
    table as they find it (every one of its writes the page's own, the engine holding the log it
    shows), and leave it so.  Its first read of the table's log was refused, as by a server too busy
    to answer as the page opened (``failed``: the refused read); ``reads``: every read of the log
    the page made.  The table does not move until the engine holds the log: nothing but the engine
    itself may read it again."""
    path, steps, served = _competitive(tmp_path_factory.mktemp("log"))
    context = None
    try:
        page = _local_page(browser)
        context = with_clock(page.context)
        failed: list[str] = []

        def first_fails(route) -> None:
            if not failed:
                failed.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        page.route("**/*log=only*", first_fails)
        reads: list[str] = []
        page.on("request", lambda r: reads.append(r.url) if "log=" in r.url else None)
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_function("() => document.body.dataset.rev", timeout=WAIT_MS)
        _engine_ready(page)
        page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev",
                               timeout=WAIT_MS)
        yield SimpleNamespace(path=path, steps=steps, served=served, page=page, failed=failed, reads=reads)
    finally:
        if context is not None:
            context.close()
        served.close()


def _settled(page) -> None:
    """The module's page as a test leaves it for the next: the engine holding the server's log (no
    row of its own), up to the revision the page shows, so that it reads the log no more."""
    page.wait_for_function("""() => {
        const kept = JSON.parse(localStorage.getItem('domrec.log.' + document.body.dataset.token));
        return document.body.dataset.engineRev === document.body.dataset.rev && kept
            && kept.served === kept.held.rows.length;
    }""", timeout=WAIT_MS)


def test_the_engine_keeps_its_log_from_the_pages_own_writes_without_reading_it_again(log_page):
    """Online, each move the page makes is a row of the table's log the engine can write down from
    the server's answer (the text sent, the revision and time answered): reading the log again
    after every move cost the server a second request a move.  Another phone's write (a revision
    the kept log does not leave) is read from the server once the table is still.  (On the module's
    page: from the revision the table is at, ``start``, 0 where this test runs alone.)"""
    path, steps, served, page, reads = log_page.path, log_page.steps, log_page.served, log_page.page, log_page.reads
    _settled(page)
    start = _rev(page)
    assert _bodies(path) == steps[:start]

    def refused(route) -> None:
        route.abort()

    try:
        first = len(reads)
        for step in steps[start:start + 6]:
            _type(page, step)
            page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev",
                                   timeout=WAIT_MS)
        assert len(reads) == first, reads[first:]  # six moves, no read of the log
        store = open_event(path)
        try:
            rows = [list(r) for r in store.conn.execute("SELECT rev, kind, body, at FROM venue_log ORDER BY rev")]
        finally:
            store.close()
        assert int(page.evaluate("() => document.body.dataset.engineRev")) == rows[-1][0]
        # (the rows it wrote down are the server's: the offline tests here answer from them as the server does)
        # another phone's move: the page draws it at its refresh, and the engine reads the log again
        key = served.links["tables"][0]["token"]
        r = httpx.post(f"{served.base_url}/api/v1/tables/1/1/dgn", json={"rev": rows[-1][0], "text": steps[start + 6]},
                       headers={"Authorization": f"Bearer {key}", "Origin": served.base_url})
        assert r.status_code == 200, r.text
        refresh_now(page.context, 5000)  # the page's next refresh
        page.wait_for_function(f"() => Number(document.body.dataset.engineRev) === {rows[-1][0] + 1}",
                               timeout=WAIT_MS)
        assert len(reads) > first
        # Another phone's move that the engine cannot read (the server too slow to give the log, then
        # the Wi-Fi gone): a line typed now is not checked against the log the engine has, which is
        # not the table drawn (it once was, and refused a legal move); it is kept unchecked.
        page.route("**/*log=only*", refused)
        r = httpx.post(f"{served.base_url}/api/v1/tables/1/1/dgn",
                       json={"rev": rows[-1][0] + 1, "text": steps[start + 7]},
                       headers={"Authorization": f"Bearer {key}", "Origin": served.base_url})
        assert r.status_code == 200, r.text
        refresh_now(page.context, 5000)
        page.wait_for_function(f"() => Number(document.body.dataset.rev) === {rows[-1][0] + 2}", timeout=WAIT_MS)
        assert int(page.evaluate("() => document.body.dataset.engineRev")) == rows[-1][0] + 1
        page.context.set_offline(True)
        page.fill("#typed-text", steps[start + 8])
        page.click("#typed-form button[type=submit]", timeout=WAIT_MS)
        page.wait_for_function("() => document.body.dataset.outbox === '1'", timeout=WAIT_MS)
        assert page.inner_text("#message") == "kept on this phone, unchecked: it is checked when it is sent"
    finally:
        page.unroute("**/*log=only*", refused)  # (the server gives the log again: the page left as found)
        page.context.set_offline(False)
    page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
    assert _bodies(path) == steps[:start + 9]
    # (once sent, the engine reads the server's log again: the table as the next test finds it)
    page.wait_for_function(f"() => document.body.dataset.rev === '{start + 9}'", timeout=WAIT_MS)
    _settled(page)


def test_the_engines_first_read_of_the_log_is_tried_again_until_it_comes(log_page):
    """A first read of the table's log that fails (a server too busy to answer as the page opened)
    was not tried again: nothing else reads the log while the table does not move, so the engine
    held none, and every play made offline was kept unchecked.  It is tried again until it comes.
    (The module's page, whose first read was refused: its engine loaded and then held the log,
    the table still meanwhile.)"""
    page, steps = log_page.page, log_page.steps
    assert log_page.failed  # (the first read was refused, and the engine read the log all the same)
    page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev", timeout=WAIT_MS)
    start = _rev(page)
    _type(page, steps[start])  # and the table goes on
    page.wait_for_function(f"() => document.body.dataset.engineRev === '{start + 1}'", timeout=WAIT_MS)
    assert _bodies(log_page.path) == steps[:start + 1]
    _settled(page)


#: How the phone is cut off at each tile that fits two ends, in turn, on one page (one boot of its engine).
CUTS = ("the phone goes offline", "the server never answers")


def test_offline_a_tile_that_fits_two_ends_is_placed_by_tapping(tmp_path, browser):
    """Without the deal, where a tapped tile may go is asked of the server; offline the page sent
    the tile alone, and a tile that fits two ends was refused ("say which it is played on … in
    DGN"), leaving the player to type notation.  The phone's engine now answers where it may go.
    A server that never answers (the laptop asleep, the hall's Wi-Fi still up) is given a moment
    and a half where the engine is ready (10 seconds where it is not), as a write is: the question
    had no limit, and the tap did nothing for minutes.

    Both cuts on one page, whose engine boots once (each case had a page of its own): the game's
    first tile that fits two ends tapped with the phone offline, and (once the outbox is sent and
    the engine holds the server's log again) the next such tile tapped while the server never
    answers."""
    import attrs

    from domrec.session import Session, requests_for

    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    record = _game(path, seed=12)
    steps = [t for t in requests_for(record, keep_deal=False) if t != "y"]
    probe = Session(attrs.evolve(record, hands=(), result=None))
    twice: list[tuple[int, list[dict]]] = []  # (where in the steps, the places offered) of each such tile
    for k, step in enumerate(steps):
        offered = probe.options(step.split("@")[0]) if "@" in step else []
        if len(offered) > 1:
            twice.append((k, offered))
        if len(twice) == len(CUTS):
            break
        probe.take(step)
    assert len(twice) == len(CUTS), twice
    served = _served(path)
    sent: list[str] = []
    try:
        page = _local_page(browser)
        page.goto(served.links["tables"][0]["url"])
        page.wait_for_function("() => document.body.dataset.rev", timeout=WAIT_MS)
        for cut, (k, offered) in zip(CUTS, twice):
            for typed in steps[len(sent):k]:
                _type(page, typed)
                sent.append(typed)
            if cut == CUTS[0]:
                page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
                assert page.evaluate("() => document.body.dataset.engine") == "ready"
            else:  # the writes made offline sent: the engine holds the server's log again, every row of it
                page.wait_for_function("""() => {
                    const kept = JSON.parse(localStorage.getItem('domrec.log.' + document.body.dataset.token));
                    return kept.served === kept.held.rows.length;
                }""", timeout=WAIT_MS)
            page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev",
                                   timeout=WAIT_MS)
            step = steps[k]
            chosen = next(o["text"] for o in offered if o["text"].endswith(" " + step))
            held = []
            if cut == "the phone goes offline":
                page.context.set_offline(True)
            else:  # every request to the table held, never answered
                page.context.route("**/api/v1/tables/**", lambda route: held.append(route))
            before = _rev(page)
            page.click(f'#panel .tiles button[data-tile="{step.split("@")[0]}"]', timeout=WAIT_MS)
            page.wait_for_selector("#panel .targets button", timeout=WAIT_MS)
            targets = page.evaluate(
                "() => [...document.querySelectorAll('#panel .targets button')].map(b => b.dataset.move)")
            assert sorted(targets) == sorted(o["text"] for o in offered), (cut, targets)
            page.click(f'#panel .targets button[data-move="{chosen}"]', timeout=WAIT_MS)
            page.wait_for_function(f"() => Number(document.body.dataset.rev) === {before + 1}", timeout=WAIT_MS)
            assert page.evaluate("() => document.body.dataset.outbox") == "1", cut
            if cut == "the phone goes offline":
                page.context.set_offline(False)
            else:
                page.context.unroute("**/api/v1/tables/**")
                for route in held:
                    route.abort()
            page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
            sent.append(chosen)
    finally:
        served.close()
    assert _bodies(path) == sent


def test_a_link_opened_once_opens_again_offline_with_its_engine(tmp_path, browser):
    """The link opened once, as a player opens it: the engine loads at once, before the service
    worker has taken the page (held back here until the engine is ready, so that the order is the
    same on every machine), so the worker never saw Pyodide's files.  The page opened again with
    the laptop out of reach drew the table, but its engine failed ("Failed to fetch dynamically
    imported module …/pyodide.mjs") and every play was kept unchecked.  The engine now names its
    files to the worker, which keeps them.

    And what the engine checks against is kept too: it kept the table's log in memory alone, so a
    page opened again with the laptop out of reach drew the table it had kept, but its engine had
    nothing to check against, and every play was kept unchecked (the board frozen; back online, the
    plays that needed an end refused).  The log is kept on the phone with the table drawn from it:
    the page opened again offline checks two plays, each drawn one revision on, both sent once back
    online.  (Once a test of its own, whose page's engine booted twice more, its files kept by the
    worker as the page fetched them through it: the worker's cache-first code for every file under
    /static/, the page's scripts' own.)"""
    path, steps, served = _competitive(tmp_path)
    url = served.links["tables"][0]["url"]
    held = []
    try:
        context = browser.new_context(viewport=PHONE)
        context.route("**/*", _local_only)
        context.route("**/sw.js", lambda route: held.append(route))  # the worker's script waits (held)
        page = context.new_page()
        page.goto(url)
        for step in steps[:2]:
            _type(page, step)
        page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
        assert page.evaluate("() => document.body.dataset.engine") == "ready"
        page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev",
                               timeout=WAIT_MS)
        assert held, "the page asked for no service worker"
        held[0].fallback()  # now the worker installs and takes the page
        page.wait_for_function("() => document.body.dataset.offline === 'kept'", timeout=WAIT_MS)
        # every file the engine fetched (in its own worker, engine_worker.js: the page fetched its
        # script alone), kept by the service worker (its cache read until it holds them all)
        files = """() => performance.getEntriesByType('resource').map((e) => new URL(e.name))
            .filter((u) => u.pathname.startsWith('/static/pyodide/') || u.pathname.startsWith('/static/engine'))
            .map((u) => u.pathname)"""
        fetched = page.evaluate(files) + [f for worker in page.workers for f in worker.evaluate(files)]
        assert [f for f in fetched if f.startswith("/static/pyodide/")] and "/static/engine_worker.js" in fetched
        kept = """async () => {
            const cache = await caches.open((await caches.keys())[0]);
            return (await cache.keys()).map((r) => new URL(r.url).pathname);
        }"""
        for _ in range(WAIT_MS // 100):
            if set(fetched) <= set(page.evaluate(kept)):
                break
            page.wait_for_timeout(100)
        assert set(fetched) <= set(page.evaluate(kept)), (fetched, page.evaluate(kept))
        context.set_offline(True)
        page.close()
        again = context.new_page()
        again.goto(url)  # offline: the page, its table, its engine and the engine's log, all kept on the phone
        again.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
        assert again.evaluate("() => [document.body.dataset.engine, window.domrecEngine.error]") == ["ready", None]
        again.wait_for_function("() => document.body.dataset.rev === '2' && document.body.dataset.engineRev === '2'",
                                timeout=WAIT_MS)
        for k in (2, 3):  # checked on the phone: the table drawn one revision on each time
            again.fill("#typed-text", steps[k])
            again.click("#typed-form button[type=submit]", timeout=WAIT_MS)
            again.wait_for_function(f"() => Number(document.body.dataset.rev) === {k + 1}", timeout=WAIT_MS)
            assert "unchecked" not in again.inner_text("#message"), (k, again.inner_text("#message"))
        assert again.evaluate("() => document.body.dataset.outbox") == "2"
        context.set_offline(False)
        again.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
        again.wait_for_function("() => Number(document.body.dataset.rev) === 4", timeout=WAIT_MS)
    finally:
        served.close()
    assert _bodies(path) == steps[:4]


def test_the_wifi_dropping_again_after_the_outbox_is_sent_still_checks_each_play(log_page):
    """Moves made offline, sent when the Wi-Fi came back; then the Wi-Fi drops again.  The engine's
    log still held its own rows of the moves it had answered offline (the phone's times, where the
    server logged its own), so it was not the table drawn: the next play was kept unchecked, the
    board frozen, and an illegal move kept too (refused only when sent).  Once the outbox is sent,
    the engine reads the server's log.  (On the module's page, its engine booted once: from the
    table as the test finds it, the lines up to three moves in a row of the hand typed online.)"""
    path, steps, page = log_page.path, log_page.steps, log_page.page
    _settled(page)
    start = _rev(page)
    assert _bodies(path) == steps[:start]
    # the first of three moves in a row (no part line among them) from where the table is
    first = next(k for k in range(start, len(steps) - 2)
                 if all(steps[j].split()[0] not in PARTS for j in range(k, k + 3)))
    try:
        for step in steps[start:first]:  # the hand's lines (and its moves) before them, online
            _type(page, step)
        page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev",
                               timeout=WAIT_MS)
        for k, online in ((first, False), (first + 1, True), (first + 2, False)):  # offline, back, and offline again
            page.context.set_offline(not online)
            if online:
                page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
                # the engine holds the log as the server wrote it (every row of it the server's)
                try:
                    page.wait_for_function("""() => {
                        const kept = JSON.parse(localStorage.getItem('domrec.log.' + document.body.dataset.token));
                        return kept.served === kept.held.rows.length;
                    }""", timeout=15_000)
                except playwright_api.TimeoutError:
                    pass  # (the play below says what that costs)
            before = _rev(page)
            page.fill("#typed-text", steps[k])
            page.click("#typed-form button[type=submit]", timeout=WAIT_MS)
            page.wait_for_function(f"() => Number(document.body.dataset.rev) === {before + 1}", timeout=WAIT_MS)
            assert "unchecked" not in page.inner_text("#message"), (k, page.inner_text("#message"))
        # an illegal move (the first made again), refused on the phone and not kept
        before = _rev(page)
        page.fill("#typed-text", steps[first])
        page.click("#typed-form button[type=submit]", timeout=WAIT_MS)
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)  # (said beside the box the line stays in)
        assert _rev(page) == before and page.evaluate("() => document.body.dataset.outbox") == "1"
    finally:
        page.fill("#typed-text", "")  # (the line refused, left in the box: the page left as found)
        page.context.set_offline(False)
    page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
    assert _bodies(path) == steps[:first + 3]
    # (once sent, the engine reads the server's log again: the table as the next test finds it)
    page.wait_for_function(f"() => document.body.dataset.rev === '{first + 3}'", timeout=WAIT_MS)
    _settled(page)
