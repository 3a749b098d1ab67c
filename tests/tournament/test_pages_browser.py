"""Every page in a real browser: headless Chromium lays out the report (desktop, phone, print on A4
and Letter) and the projector page, and the layout facts the issue asks for are measured there.

The pages carry no script, so the measuring is done from outside: a harness page holds the page
under test in a same-origin ``srcdoc`` frame of the exact width (a phone's 390 px), measures it
once it has loaded, and writes the figures into its own DOM, read back from there.  Print is
measured the same way, with the page's print rules switched on at the printable width of an A4
page (210 mm less 12 mm margins: 703 px), and also really printed (Chromium's own printing to PDF,
A4 and Letter).  The screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a
person to look at.  The harness, the pages and the printing are loaded, one after another, into one
tab of the worker's Chromium under Playwright (the ``browser`` fixture): a Chromium started for
each of them took seconds each.

Slow, and skipped where Chromium (or Playwright for Python) is not installed.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tournament.pages import report as rp
from tournament import open_event

from tests.browser import CHROMIUM, DESKTOP, MISSING, PHONE, tab_screenshot as screenshot

from .test_pages import long_names_event

pytestmark = pytest.mark.slow

if CHROMIUM is None:
    pytest.skip(MISSING, allow_module_level=True)

PROJECTOR = (1920, 1080)
A4_PRINTABLE = 703  # (210 - 2 * 12) mm at 96 px an inch
LETTER_PRINTABLE = 725  # 8.5 in less 24 mm
RANKING = ("rank", "name", "wins", "diff")

MEASURE = """
window.addEventListener('load', function () {
  var w = document.getElementById('page').contentWindow, d = w.document, out = {
    innerWidth: w.innerWidth, scrollWidth: d.documentElement.scrollWidth, tables: []};
  d.querySelectorAll('table').forEach(function (t) {
    var ths = [];
    t.querySelectorAll('th').forEach(function (th) {
      var r = th.getBoundingClientRect(), cs = w.getComputedStyle(th);
      ths.push({text: th.textContent, left: r.left, right: r.right,
                shown: cs.display !== 'none' && cs.visibility !== 'hidden' && r.width > 0});
    });
    var box = t.parentElement;
    out.tables.push({cls: t.className, boxScroll: box.scrollWidth, boxClient: box.clientWidth, ths: ths});
  });
  var li = d.querySelector('.find li');
  if (li) { out.findFontPx = parseFloat(w.getComputedStyle(li).fontSize); }
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
"""


def as_print(page: str, size: str = "A4") -> str:
    """The page as a printer lays it out: its print rules on, its screen-only rules off."""
    page = page.replace("@media print{", "@media all{").replace("@media screen", "@media (max-width:0px)")
    return page.replace("@page{", f"@page{{size:{size};")


#: Long enough for any page to load on a busy machine: a wait that runs out is a failure, never a pass.
WAIT_MS = 60_000


@pytest.fixture(scope="module")
def tab(browser):
    """One tab for the module's tests: each loads its harness, page or print into it in turn, at its
    own size."""
    page = browser.new_page()
    yield page
    page.close()


def measure(tab, page: str, width: int, height: int, folder: Path) -> dict:
    """``page`` in a frame ``width`` x ``height`` px of a harness page loaded into ``tab`` (as
    :func:`tests.browser.in_harness` lays it out), measured by MEASURE once it has loaded."""
    harness = folder / f"harness-{width}.html"
    harness.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'
                       f'<iframe id="page" style="border:0;width:{width}px;height:{height}px" '
                       f'srcdoc="{html.escape(page, quote=True)}"></iframe>'
                       f"<script>{MEASURE}</script></body></html>", encoding="utf-8")
    tab.set_viewport_size({"width": width + 20, "height": height + 20})
    tab.goto(harness.as_uri())
    tab.wait_for_selector("#measured", state="attached", timeout=WAIT_MS)
    return json.loads(tab.evaluate("() => document.getElementById('measured').textContent"))


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("browser")
    event = long_names_event(folder / "copa.db")
    store = open_event(event)
    from tournament import enter_forfeit
    enter_forfeit(store, 1, ("EW",))  # (a result in words, "NS won (forfeit: EW …)": it wraps on a phone, never clipped)
    data = rp.event_data(store)
    store.close()
    out = {"folder": folder}
    for name, text in (("report", rp.html_page(data)), ("screen", rp.screen_page(data))):
        out[name] = folder / f"{name}.html"
        out[name].write_text(text, encoding="utf-8")
    return out


def standings_of(m: dict) -> dict:
    return next(t for t in m["tables"] if "std" in t["cls"])


def test_phone_shows_the_ranking_columns_without_sideways_scrolling(pages: dict[str, Path], tab) -> None:
    page = pages["report"].read_text(encoding="utf-8")
    m = measure(tab, page, *PHONE, pages["folder"])
    assert m["innerWidth"] == PHONE[0]
    assert m["scrollWidth"] <= m["innerWidth"], "the page scrolls sideways on a phone"
    std = standings_of(m)
    shown = {th["text"]: th for th in std["ths"] if th["shown"]}
    for column in RANKING:
        assert column in shown and shown[column]["right"] <= m["innerWidth"], column
    assert std["boxScroll"] <= std["boxClient"], "the standings scroll sideways in their box"
    for t in m["tables"]:  # the rounds' tables too: a side a column, names wrap
        assert t["boxScroll"] <= t["boxClient"], t["cls"]
    screenshot(tab, pages["report"], *PHONE, "report-phone")


def test_desktop_shows_every_column(pages: dict[str, Path], tab) -> None:
    m = measure(tab, pages["report"].read_text(encoding="utf-8"), *DESKTOP, pages["folder"])
    assert m["scrollWidth"] <= m["innerWidth"]
    std = standings_of(m)
    assert all(th["shown"] and th["right"] <= m["innerWidth"] for th in std["ths"])
    assert std["boxScroll"] <= std["boxClient"]
    screenshot(tab, pages["report"], *DESKTOP, "report-desktop")


@pytest.mark.parametrize("size, width", [("A4", A4_PRINTABLE), ("letter", LETTER_PRINTABLE)])
def test_print_has_every_column_and_nothing_cut_off(pages: dict[str, Path], tab, size: str, width: int) -> None:
    page = as_print(pages["report"].read_text(encoding="utf-8"), size)
    m = measure(tab, page, width, 1000, pages["folder"])
    assert m["scrollWidth"] <= m["innerWidth"], "something is wider than the printed page"
    for t in m["tables"]:
        assert all(th["shown"] for th in t["ths"]), (t["cls"], [th["text"] for th in t["ths"] if not th["shown"]])
        assert all(th["right"] <= m["innerWidth"] + 0.5 for th in t["ths"]), t["cls"]
        assert t["boxScroll"] <= t["boxClient"], t["cls"]
    headers = [th["text"] for th in standings_of(m)["ths"]]
    assert headers[:4] == list(RANKING) and "against" in headers and "Buchholz" in headers
    # And really printed (the page itself, on paper of that size): every column's header in the PDF.
    printed = pages["folder"] / f"print-{size}.html"
    printed.write_text(pages["report"].read_text(encoding="utf-8").replace("@page{", f"@page{{size:{size};"),
                       encoding="utf-8")
    pdf = pages["folder"] / f"report-{size}.pdf"
    tab.goto(printed.as_uri())
    tab.pdf(path=str(pdf), prefer_css_page_size=True)  # (no header or footer: Playwright prints none)
    assert pdf.exists() and pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              timeout=60).stdout
        for header in headers:
            assert header in text, header
    if shutil.which("pdftoppm") and os.environ.get("DOMREC_SCREENSHOTS"):
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "2", str(pdf),
                        str(Path(os.environ["DOMREC_SCREENSHOTS"]) / f"report-{size}")], timeout=60)


def test_projector_page_is_large_and_fits(pages: dict[str, Path], tab) -> None:
    page = pages["screen"].read_text(encoding="utf-8")
    m = measure(tab, page, *PROJECTOR, pages["folder"])
    assert m["scrollWidth"] <= m["innerWidth"]
    assert m["findFontPx"] >= 32  # read from the back of the room
    std = m["tables"][0]  # on a later screen (the screens page themselves, one at a time)
    assert [th["text"] for th in std["ths"]][:4] == list(RANKING)
    screenshot(tab, pages["screen"], *PROJECTOR, "screen-projector")
    phone = measure(tab, page, *PHONE, pages["folder"])  # a player looking it up on a phone
    assert phone["scrollWidth"] <= phone["innerWidth"]


def test_phone_and_print_of_groups_then_a_knockout(tmp_path: Path, tab) -> None:
    """A pairs event of groups then a knockout: every standings table (the event's and each
    group's) keeps its ranking columns on a phone; the bracket scrolls in its own box, never the
    page; in print every column of every table is there."""
    from tournament.event.simulate import simulate_event

    path = tmp_path / "cup.db"
    simulate_event(path, "competitive", "pairs", 16, 0, seed=3, name="Cup",
                   stage={"format": "roundrobin", "groups": 2, "seeding": "random"},
                   then={"format": "single", "seeding": "groups", "per_group": 2})
    store = open_event(path)
    page = rp.html_page(rp.event_data(store))
    store.close()
    m = measure(tab, page, *PHONE, tmp_path)
    assert m["scrollWidth"] <= m["innerWidth"]
    standings = [t for t in m["tables"] if "std" in t["cls"]]
    assert len(standings) == 3
    for t in standings:
        shown = {th["text"]: th for th in t["ths"] if th["shown"]}
        assert all(c in shown and shown[c]["right"] <= m["innerWidth"] for c in RANKING)
        assert t["boxScroll"] <= t["boxClient"]
    printed = measure(tab, as_print(page), A4_PRINTABLE, 1000, tmp_path)
    assert printed["scrollWidth"] <= printed["innerWidth"]
    for t in printed["tables"]:
        assert all(th["shown"] for th in t["ths"]) and t["boxScroll"] <= t["boxClient"], t["cls"]


def test_federation_ranking_columns_fit_a_phone_and_a_desktop(tmp_path: Path, tab) -> None:
    """Ranked by wins, head-to-head and efectividad, with a forfeit: more columns than the default
    ranking.  The ranking keys still fit a phone (their headers wrap at the hyphens), and a
    desktop shows every column without scrolling sideways."""
    from tournament import add_players, create_event, enter_forfeit, enter_manual, make_settings, pair_next_round

    from .test_pages import NAMES

    store = create_event(tmp_path / "fed.db", make_settings("Abierto de la Federación", "competitive", "rotating",
                                                            seed=5, forfeit_score=200,
                                                            tiebreaks=("wins", "head-to-head", "efectividad")))
    add_players(store, NAMES[:20])
    for _ in range(3):
        plan = pair_next_round(store)
        for k in range(1, len(plan.tables)):
            enter_manual(store, k, {"NS": 100 + 13 * k, "EW": 90 + 29 * k})
        enter_forfeit(store, len(plan.tables), ("EW",))
    text = rp.html_page(rp.event_data(store))
    store.close()
    page = tmp_path / "fed.html"
    page.write_text(text, encoding="utf-8")
    m = measure(tab, text, *PHONE, tmp_path)
    assert m["scrollWidth"] <= m["innerWidth"]
    std = standings_of(m)
    shown = {th["text"]: th for th in std["ths"] if th["shown"]}
    for column in ("rank", "name", "wins", "head-to-head", "efectividad"):
        assert column in shown and shown[column]["right"] <= m["innerWidth"], column
    assert std["boxScroll"] <= std["boxClient"]
    m = measure(tab, text, *DESKTOP, tmp_path)
    std = standings_of(m)
    assert "forfeits" in {th["text"] for th in std["ths"]}
    assert all(th["shown"] and th["right"] <= m["innerWidth"] for th in std["ths"])
    assert std["boxScroll"] <= std["boxClient"], "the standings scroll sideways on a desktop"
    screenshot(tab, page, *PHONE, "federation-phone")
