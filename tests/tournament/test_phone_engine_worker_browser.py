"""The phone's engine runs in a worker of its own (static/engine_worker.js), never on the table
page's thread: Pyodide's boot held a tap while it ran there (a part at a time, still a fifth of a
second a part on a laptop), and every write answered offline replayed the table's log there too.

The page fetches none of Pyodide's files itself and holds no Python; an offline write is checked
by the worker all the same, refused in the server's words or drawn one revision on.  The worker's
script is served with the table page's policy (WebAssembly allowed, nothing wider), without which
it cannot boot.  A browser without workers says the engine failed and keeps an offline write
unchecked; and a worker that breaks once ready refuses the answer it was asked, which the page keeps
unchecked.  Every host but 127.0.0.1 is refused.  Slow, and skipped with the reason where Chromium
or Playwright is missing."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.phone_engine]  # (the browser fixture lets its pages load the engine)

from tests.browser import keep, playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _event, _game, _rev, _served, _steps, _type  # noqa: E402

READY_MS = 180_000
UNCHECKED = "kept on this phone, unchecked: it is checked when it is sent"
#: The table page's policy, and so its engine's worker's.
ENGINE_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
                 "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")


def _local_only(route) -> None:
    if urlsplit(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        route.abort()


def _competitive(tmp_path: Path):
    path = _event(tmp_path, "competitive", ["Ana", "Bo", "Cy", "Di"])
    return path, _steps(_game(path, seed=12)), _served(path)


def _page(browser, init: str | None = None):
    """A phone's page reaching 127.0.0.1 alone, without the service worker; ``init``: a script run
    before the page's own."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.route("**/*", _local_only)
    page = context.new_page()
    if init:
        page.add_init_script(init)
    return page


def _settled(page) -> str:
    page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=READY_MS)
    return page.evaluate("() => document.body.dataset.engine")


def _send(page, text: str) -> None:
    page.fill("#typed-text", text)
    page.click("#typed-form button[type=submit]", timeout=WAIT_MS)


def _ready(browser, served, steps: list[str]):
    """The table's page with its first two lines typed, its engine ready and holding the table's log."""
    page = _page(browser)
    page.goto(served.links["tables"][0]["url"])
    for step in steps[:2]:
        _type(page, step)
    assert _settled(page) == "ready", page.evaluate("() => window.domrecEngine.error")
    page.wait_for_function("() => document.body.dataset.engineRev === document.body.dataset.rev", timeout=WAIT_MS)
    return page


def _moves(steps: list[str]) -> list[int]:
    return [k for k in range(2, len(steps)) if steps[k].split()[0] not in ("hand", "deal", "leaddraw")]


def test_the_engine_answers_from_its_worker_and_checks_an_offline_write(tmp_path, browser):
    path, steps, served = _competitive(tmp_path)
    try:
        page = _ready(browser, served, steps)
        # the page fetched the worker's script and none of Pyodide's files; the worker fetched them
        fetched = page.evaluate("""() => performance.getEntriesByType('resource')
            .map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/static/'))""")
        assert "/static/engine_worker.js" in fetched
        assert not [p for p in fetched if p.startswith(("/static/pyodide/", "/static/engine/"))], fetched
        assert [urlsplit(w.url).path for w in page.workers] == ["/static/engine_worker.js"]
        in_worker = page.workers[0].evaluate("""() => performance.getEntriesByType('resource')
            .map((e) => new URL(e.name).pathname)""")
        assert any(p.endswith("/pyodide.asm.wasm") for p in in_worker) and any(p.endswith("/domrec.zip") for p in in_worker)
        # and the page's window holds no Python: no Pyodide, no object of it
        assert page.evaluate("""() => typeof loadPyodide === 'undefined' && typeof pyodide === 'undefined'
            && !Object.getOwnPropertyNames(window).some((k) => {
              try { const v = window[k]; return Boolean(v) && typeof v.pyimport === 'function'; } catch (e) { return false; }
            })""")
        page.context.set_offline(True)
        moves = _moves(steps)
        for k in range(2, moves[0] + 1):  # up to the first move, each checked on the phone: one revision on
            before = _rev(page)
            _send(page, steps[k])
            page.wait_for_function(f"() => Number(document.body.dataset.rev) === {before + 1}", timeout=WAIT_MS)
            assert "unchecked" not in page.inner_text("#message"), (k, page.inner_text("#message"))
        keep(page, "phone-engine-worker-checked")
        # the same move again: refused on the phone, nothing kept
        before, outbox = _rev(page), page.evaluate("() => document.body.dataset.outbox")
        _send(page, steps[moves[0]])
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)
        refusal = page.inner_text("#typed-message")
        assert _rev(page) == before and page.evaluate("() => document.body.dataset.outbox") == outbox
        keep(page, "phone-engine-worker-refused")
        page.context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
        # the server refuses the same line in the phone's words (the page shows it without its "1:1: ")
        key = served.links["tables"][0]["token"]
        r = httpx.post(f"{served.base_url}/api/v1/tables/1/1/dgn", json={"rev": before, "text": steps[moves[0]]},
                       headers={"Authorization": f"Bearer {key}", "Origin": served.base_url})
        assert r.status_code == 422 and re.sub(r"^1:[0-9]+: ", "", r.json()["error"]) == refusal
    finally:
        served.close()


def test_the_worker_is_served_with_the_engine_policy_and_cannot_boot_without_it(tmp_path, browser):
    path, steps, served = _competitive(tmp_path)
    try:
        worker = httpx.get(f"{served.base_url}/static/engine_worker.js")
        page = httpx.get(served.links["tables"][0]["url"])
        assert worker.status_code == 200 and worker.headers["content-type"].startswith("text/javascript")
        # the table page's policy, word for word: WebAssembly compiled, nothing else let in
        assert worker.headers["content-security-policy"] == page.headers["content-security-policy"] == ENGINE_POLICY
        assert worker.headers["cache-control"] == "no-store"
        # the other scripts keep the default policy, which forbids it
        other = httpx.get(f"{served.base_url}/static/engine.js").headers["content-security-policy"]
        assert "wasm-unsafe-eval" not in other and "default-src 'self'" in other
        # served with the default policy, the worker cannot compile Pyodide: the engine fails
        tab = _page(browser)
        tab.route("**/static/engine_worker.js", lambda route: route.fulfill(
            status=200, body=worker.content,
            headers={"Content-Type": "text/javascript", "Cache-Control": "no-store", "Content-Security-Policy": other}))
        tab.goto(served.links["tables"][0]["url"])
        assert _settled(tab) == "failed"
        # (said so: Pyodide's own start, refused WebAssembly, never ends, and the page waited for good)
        assert "security policy" in tab.evaluate("() => window.domrecEngine.error")
    finally:
        served.close()


def test_a_browser_without_workers_says_the_engine_failed_and_keeps_a_write_unchecked(tmp_path, browser):
    path, steps, served = _competitive(tmp_path)
    try:
        page = _page(browser, "Object.defineProperty(window, 'Worker', {value: undefined});")
        page.goto(served.links["tables"][0]["url"])
        for step in steps[:2]:
            _type(page, step)
        assert _settled(page) == "failed"
        assert "worker" in page.evaluate("() => window.domrecEngine.error")
        # (nothing of Pyodide fetched at all)
        assert not page.evaluate("""() => performance.getEntriesByType('resource')
            .some((e) => new URL(e.name).pathname.startsWith('/static/pyodide/'))""")
        page.context.set_offline(True)
        _send(page, steps[2])
        page.wait_for_function("() => document.body.dataset.outbox === '1'", timeout=WAIT_MS)
        assert page.inner_text("#message") == UNCHECKED
        keep(page, "phone-engine-no-worker")
        page.context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
    finally:
        served.close()


def test_a_worker_broken_once_ready_refuses_its_answer_and_the_write_is_kept_unchecked(tmp_path, browser):
    path, steps, served = _competitive(tmp_path)
    try:
        page = _ready(browser, served, steps)
        # the worker breaks as it answers: its answer never sent, an error thrown instead
        page.workers[0].evaluate("""() => { self.postMessage = () => { setTimeout(() => {
            throw new Error('broken'); }); }; }""")
        page.context.set_offline(True)
        _send(page, steps[2])
        page.wait_for_function("() => document.body.dataset.outbox === '1'", timeout=WAIT_MS)
        assert page.inner_text("#message") == UNCHECKED
        assert page.evaluate("() => [document.body.dataset.engine, window.domrecEngine.error]") == [
            "failed", "the engine's worker stopped: Uncaught Error: broken"]
        page.context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=WAIT_MS)
    finally:
        served.close()
