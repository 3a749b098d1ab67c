"""Headless Chromium for the page tests (the tournament report, the replay page, the venue).

Two ways in.  Chromium run as a program (:func:`chromium`, :func:`in_harness`, :func:`screenshot`)
for pages read as files; and Playwright for Python driving the same system Chromium (never a
downloaded browser: :func:`playwright_or_skip`, :func:`launched`, and the ``browser`` fixture of
``tests/conftest.py``) for pages that are tapped and typed into.

The pages are measured and driven from a harness page that holds the page under test in a
same-origin ``srcdoc`` frame of the exact width (a phone's 390 px: a headless window is never
narrower than 500 px); a script in the harness acts on the frame and writes what it saw, as
JSON, into a ``<pre>`` of its own, which ``--dump-dom`` prints.  No DevTools client is needed.
Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), shutil.which("chrome"))
                 if p), None)
MISSING = "Chromium is not installed (Debian: apt-get install chromium)"

PHONE = (390, 844)
DESKTOP = (1280, 900)


def playwright_or_skip(server: bool = False):
    """``playwright.sync_api``, called at a test module's top: the module is skipped, with the
    reason, where Chromium or Playwright for Python (or, with ``server``, uvicorn) is missing."""
    import pytest

    if CHROMIUM is None:
        pytest.skip(MISSING, allow_module_level=True)
    api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    if server:
        pytest.importorskip("uvicorn")
    return api


@contextlib.contextmanager
def launched():
    """The system's Chromium under Playwright, headless, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            yield browser
        finally:
            browser.close()


class WithoutEngine:
    """A launched browser whose pages never load the phone's engine: its Pyodide files are refused
    (route-aborted), as on a phone where they cannot be fetched, and the table's page says so
    (``data-engine="failed"``) and goes on without it, as it is made to.  Online the page never
    asks the engine anything; a write made offline is then kept unchecked, whatever the timing.
    Everything else is the browser's own."""

    ENGINE_FILES = "**/static/pyodide/**"

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.route(self.ENGINE_FILES, lambda route: route.abort())
        return context

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        # (on its context: a page's own routes miss what the service worker fetches for it)
        page.context.route(self.ENGINE_FILES, lambda route: route.abort())
        return page

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


class WithEngine:
    """A launched browser whose pages load the phone's engine (the modules marked ``phone_engine``).
    Pyodide boots in the engine's worker, some seconds of both cores, and a page drawn or a tap
    answered meanwhile shares the machine with it: on a machine busy with other work, beyond
    Playwright's default 30 seconds for an action.  Each context opened here waits up to :data:`ACTION_MS` for an action
    (a limit on a wait, never a pause: an action goes on as soon as the page takes it); a test's
    own timeouts are kept."""

    ACTION_MS = 120_000

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.set_default_timeout(self.ACTION_MS)
        return context

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        page.context.set_default_timeout(self.ACTION_MS)
        return page

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


def keep(page, name: str) -> None:
    """A Playwright page's screenshot (the whole page) kept under ``DOMREC_SCREENSHOTS`` when set."""
    folder = os.environ.get("DOMREC_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def wait_rev(page, before: int, timeout_ms: int, also: str = "") -> None:
    """Wait until a venue page has drawn a revision after ``before`` (or ``also``, a JavaScript
    condition, holds).  A wait that runs out fails saying what the page showed (its message line
    and the start of its panel), so a failure under load can be read, not guessed."""
    condition = f"Number(document.body.dataset.rev) > {before}" + (f" || {also}" if also else "")
    try:
        page.wait_for_function(f"() => {condition}", timeout=timeout_ms)
    except Exception as e:
        shown = page.evaluate("() => [document.body.dataset.rev, (document.getElementById('message') || {}).textContent,"
                              " (document.getElementById('panel') || {}).innerText]")
        raise AssertionError(f"the page stayed at rev {shown[0]} (waiting for more than {before}); "
                             f"message {shown[1]!r}; panel {str(shown[2])[:300]!r}") from e


def with_clock(context):
    """``context`` (a Playwright browser context) with Playwright's clock installed before any of its
    pages loads: their time flows as it does anyway, but :func:`refresh_now` can move it on."""
    context.clock.install()
    return context


def refresh_now(context, every_ms: int) -> None:
    """The time of ``context``'s pages (its clock installed: :func:`with_clock`) moved on by
    ``every_ms`` at once: a page's own timer that refreshes it every ``every_ms`` (the table's 5 s, the
    director's 3 s) fires now instead of some seconds later, and the page fetches and draws what the
    server now says, by itself, as it would have after that wait.  The test then waits on the page's
    own mark, as before; a refresh already under way, or the next one, does the same, so only how long
    the test sat waiting changes."""
    context.clock.fast_forward(every_ms)


def chromium(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    assert CHROMIUM is not None, MISSING
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--no-first-run", "--disable-extensions", "--mute-audio", *args],
                          capture_output=True, text=True, timeout=timeout)


def in_harness(page: str, width: int, height: int, harness: Path, script: str, out_id: str,
               sandbox: str = "", budget_ms: int = 5000) -> dict:
    """Load ``page`` in a frame ``width`` × ``height`` px, run ``script`` in the harness once it has
    loaded, and return the JSON the script wrote into ``<pre id=out_id>``."""
    harness.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'
                       f'<iframe id="page"{sandbox} style="border:0;width:{width}px;height:{height}px" '
                       f'srcdoc="{html.escape(page, quote=True)}"></iframe>'
                       f"<script>{script}</script></body></html>", encoding="utf-8")
    done = chromium(f"--window-size={max(width, 500) + 20},{height + 20}", f"--virtual-time-budget={budget_ms}",
                    "--dump-dom", harness.as_uri())
    found = re.search(rf'<pre id="{out_id}">(.*?)</pre>', done.stdout, re.S)
    assert found, f"Chromium saw nothing: {done.stderr[-800:]}"
    return json.loads(html.unescape(found.group(1)))


def _kept(png: Path) -> Path:
    """A screenshot taken: a picture of the page, not an empty one; copied under
    ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at."""
    assert png.exists() and png.stat().st_size > 1000
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(png, Path(keep) / png.name)
    return png


def screenshot(page_file: Path, width: int, height: int, name: str) -> Path:
    png = page_file.parent / f"{name}.png"
    chromium(f"--window-size={width},{height}", f"--screenshot={png}", page_file.as_uri())
    return _kept(png)


def tab_screenshot(tab, page_file: Path, width: int, height: int, name: str) -> Path:
    """:func:`screenshot` in ``tab``, a Playwright page the module keeps (no Chromium started): the
    file opened at ``width`` x ``height``, its screen kept as a PNG beside it."""
    png = page_file.parent / f"{name}.png"
    tab.set_viewport_size({"width": width, "height": height})
    tab.goto(page_file.as_uri())
    tab.screenshot(path=str(png))
    return _kept(png)
