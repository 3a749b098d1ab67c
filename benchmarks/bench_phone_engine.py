"""The engine in the phone, measured in headless Chromium (the stand-in phone) against 127.0.0.1.

    python benchmarks/bench_phone_engine.py [--games 3] [--seed 1]

What it prints:

* the bytes the engine adds to a table's page, once per phone: each vendored Pyodide file and the
  engine's bundle (domrec's modules), as stored and as sent (gzipped where the server gzips);
* seconds from opening the table's page to the first tap being possible (the table drawn:
  ``data-rev`` set) and to the engine being ready (``data-engine="ready"``), cold (an empty
  browser cache) and warm (the page opened again in the same browser: Pyodide and the bundle
  are cached for good under their versioned addresses);
* the page's longest task while the engine boots (its main thread held: a tap made then waits that
  long; Chromium reports tasks over 50 ms), the boot as it is, in the engine's worker, beside the
  reference: the boot before the worker, on the page's thread a part at a time (engine.js as it
  was at commit ``REFERENCE``, read from git and served in its place: the row is skipped, said so,
  where git or the history is missing), in the same run, nothing cached, best of three each;
* for each of the five games, ``--games`` simulated games answered move by move by the phone's
  engine alone (``domrecEngine.answer``, the table's rows growing as the phone keeps them
  offline, the closed hands the page holds named as the page names them, in Spanish): p50, p99
  and max per request (goal: p99 under 50 ms).

Every host but 127.0.0.1 is refused, so nothing comes from the internet.  The figures depend on
the machine and on what else runs on it: measure on an idle one.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domrec.session import requests_for  # noqa: E402
from domrec.simulate import play_game  # noqa: E402
from tournament import add_players, create_event, make_settings, open_event, pair_next_round  # noqa: E402
from tournament.event.tables import table_record  # noqa: E402
from tournament.web import engine_bundle  # noqa: E402
from tournament.web.app import PHRASES  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

GAMES = {"competitive": ("rotating", None, 4), "broadway": ("rotating", None, 4), "horse-race": ("individual", 3, 3),
         "castle-rock": ("individual", 5, 5), "domino-roads": ("individual", 3, 3)}

TIMED = """async ([requests]) => {
  const table = await window.domrecEngine.table();
  const times = [];
  let rev = 0, refused = 0, keys = [];
  for (const text of requests) {
    // the closed hands the page holds, named as the page names them (?hands=KEY.N): only the rest is sent
    const hands = keys.length ? `${keys[keys.length - 1]}.${keys.length}` : undefined;
    const t0 = performance.now();
    const got = await window.domrecEngine.answer(table, {path: "dgn", body: {rev, text}, hands}, "es");
    times.push(performance.now() - t0);
    if (got.status === 200) {
      table.rows.push(got.row);
      rev = got.body.rev;
      const g = got.body.game;
      keys = (g.hands_from !== undefined && g.hands_from !== null ? keys.slice(0, g.hands_from) : []).concat(g.hands_keys || []);
    } else refused += 1;
  }
  return {times, refused};
}"""


def _event(folder: Path, game: str) -> Path:
    fmt, size, count = GAMES[game]
    path = folder / f"{game}.db"
    store = create_event(path, make_settings("Bench", game, fmt, table_size=size, seed=1))
    add_players(store, [f"P{i}" for i in range(1, count + 1)])
    pair_next_round(store)
    store.close()
    return path


def _games(path: Path, count: int, seed: int) -> list[list[str]]:
    import random

    store = open_event(path)
    table = store.tables(1)[0]
    template = table_record(store.settings, table, {p.id: p for p in store.players()})
    store.close()
    return [list(requests_for(play_game(template, random.Random(f"{seed}:{k}")))) for k in range(count)]


def _local(route) -> None:
    if urlsplit(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        route.abort()


def _open(context, url: str) -> tuple[float, float]:
    """Seconds to the first tap (the table drawn) and to the engine ready, from opening the page."""
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.rev !== undefined", timeout=120_000, polling=10)
    drawn = time.perf_counter() - start
    page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=300_000, polling=20)
    ready = time.perf_counter() - start
    state = page.evaluate("() => document.body.dataset.engine")
    if state != "ready":
        raise SystemExit(f"the engine did not load: {page.evaluate('() => window.domrecEngine.error')}")
    page.close()
    return drawn, ready


#: The page's long tasks (over 50 ms, as Chromium reports them), kept from the page's start.
LONG_TASKS = """(() => { window.longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries())
  window.longTasks.push(e.duration); }).observe({ type: "longtask", buffered: true }); })()"""

#: The last commit whose engine.js booted Pyodide on the page's own thread (a part at a time, the
#: page's taps answered between the parts): the reference the worker is measured against.
REFERENCE = "2a5cc803"


def _reference_script() -> str:
    """engine.js as it was at :data:`REFERENCE`; :class:`LookupError` saying why where it cannot be
    read (the row is skipped, not the run)."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "show", f"{REFERENCE}:tournament/web/static/engine.js"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise LookupError(f"git could not be run ({e})") from None
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["?"])[-1]
        raise LookupError(f"no git history holding commit {REFERENCE} here ({said})")
    return done.stdout


def _longest_task(browser, url: str, script: str | None) -> float:
    """Milliseconds of the page's longest task (over 50 ms; 0: none) from its opening to its engine
    ready; ``script``: engine.js served in the page's own's place (the reference).  A context of
    its own, without the service worker (which would serve engine.js from its cache, past the
    page's route), so nothing is cached."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    context.route("**/*", _local)
    page = context.new_page()
    page.add_init_script(LONG_TASKS)
    if script is not None:
        page.route("**/static/engine.js", lambda route: route.fulfill(
            status=200, body=script, headers={"Content-Type": "text/javascript; charset=utf-8",
                                              "Cache-Control": "no-store"}))
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.engine !== 'loading'", timeout=300_000, polling=20)
    state = page.evaluate("() => [document.body.dataset.engine, window.domrecEngine.error]")
    if state[0] != "ready":
        raise SystemExit(f"the engine did not load{' (reference)' if script is not None else ''}: {state[1]}")
    longest = max(page.evaluate("() => window.longTasks") or [0.0])
    context.close()
    return longest


def _ms(value: float) -> str:
    return f"{value:7.0f}" if value else "    <50"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="simulated games a game (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright
    from tests.browser import CHROMIUM

    if CHROMIUM is None:
        raise SystemExit("Chromium is not installed")
    files = engine_bundle.EngineFiles(PHRASES)
    print(f"load average at the start: {_load()}")
    print(f"Pyodide {files.version}: the bytes the engine adds to a phone, once")
    total_raw = total_sent = 0
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        raw = (engine_bundle.PYODIDE / name).read_bytes()
        sent = len(gzip.compress(raw, 6)) if Path(name).suffix in engine_bundle.COMPRESSED else len(raw)
        total_raw, total_sent = total_raw + len(raw), total_sent + sent
        print(f"  {name:<20} {len(raw) / 1e6:7.2f} MB stored  {sent / 1e6:7.2f} MB sent")
    bundle = files.bundle()[0]
    total_raw, total_sent = total_raw + len(bundle), total_sent + len(bundle)
    print(f"  {'domrec.zip':<20} {len(bundle) / 1e6:7.2f} MB stored  {len(bundle) / 1e6:7.2f} MB sent (a zip)")
    print(f"  {'in all':<20} {total_raw / 1e6:7.2f} MB stored  {total_sent / 1e6:7.2f} MB sent")

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu",
                                                                    "--disable-background-networking"])
        try:
            first = True
            for game in GAMES:
                path = _event(Path(tmp), game)
                games = _games(path, args.games, args.seed)
                with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as venue:
                    url = venue.links["tables"][0]["url"]
                    context = browser.new_context(viewport={"width": 390, "height": 844})
                    context.route("**/*", _local)
                    if first:
                        cold = _open(context, url)
                        warm = _open(context, url)
                        print("\nseconds from opening the table's page (to the first tap possible / to the engine ready)")
                        print(f"  cold (nothing cached)   {cold[0]:6.2f} / {cold[1]:6.2f}")
                        print(f"  warm (engine cached)    {warm[0]:6.2f} / {warm[1]:6.2f}")
                        in_worker = min(_longest_task(browser, url, None) for _ in range(3))
                        print("\nthe page's longest task while the engine boots (ms: a tap made then waits that long), "
                              "best of 3, nothing cached")
                        print(f"  the engine in its worker (engine.js)              {_ms(in_worker)}")
                        try:
                            before = _reference_script()
                        except LookupError as e:
                            print(f"  reference skipped: {e}")
                        else:
                            page_thread = min(_longest_task(browser, url, before) for _ in range(3))
                            print(f"  reference, on the page's thread ({REFERENCE})      {_ms(page_thread)}")
                        print("\nan answer of the phone's engine, per request (ms), "
                              f"{args.games} simulated games a game")
                        first = False
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_function("() => document.body.dataset.engine === 'ready'", timeout=300_000)
                    times: list[float] = []
                    refused = 0
                    for requests in games:
                        got = page.evaluate(TIMED, [requests])
                        times += got["times"]
                        refused += got["refused"]
                    context.close()
                print(f"  {game:<14} {len(times):5d} requests  p50 {statistics.median(times):6.1f}  "
                      f"p99 {_pct(times, 0.99):6.1f}  max {max(times):6.1f}" + (f"  ({refused} refused!)" if refused else ""))
        finally:
            browser.close()
    print(f"load average at the end: {_load()}")


if __name__ == "__main__":
    main()
