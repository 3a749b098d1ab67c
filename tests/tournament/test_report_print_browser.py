"""The report in print, measured in Chromium (issue 25): a knockout's bracket stays on one A4 page,
and the prize lists and a pairs round read as tables.  Slow, skipped without Chromium."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tournament import open_event
from tournament.pages import report as rp

from tests.browser import CHROMIUM, MISSING, chromium, in_harness, screenshot

pytestmark = pytest.mark.slow

if CHROMIUM is None:
    pytest.skip(MISSING, allow_module_level=True)

A4_PRINTABLE = (703, 1031)  # (210 - 24) mm by (297 - 24) mm at 96 px an inch

MEASURE = """
window.addEventListener('load', function () {
  var w = document.getElementById('page').contentWindow, d = w.document, out = {brackets: []};
  d.querySelectorAll('.bracket').forEach(function (b) {
    var r = b.getBoundingClientRect();
    out.brackets.push({width: r.width, height: r.height, scroll: b.scrollWidth, client: b.clientWidth,
                       matches: b.querySelectorAll('.match').length});
  });
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
"""


def as_print(page: str) -> str:
    page = page.replace("@media print{", "@media all{").replace("@media screen", "@media (max-width:0px)")
    return page.replace("@page{", "@page{size:A4;")


def test_a_bracket_of_sixteen_stays_on_one_printed_page(tmp_path: Path) -> None:
    from tournament.event.simulate import simulate_event

    path = tmp_path / "cup.db"
    simulate_event(path, "competitive", "pairs", 32, 2, seed=4, name="Cup",
                   stage={"format": "single", "top": 16, "third_place": True})
    store = open_event(path)
    page = rp.html_page(rp.event_data(store))
    store.close()
    m = in_harness(as_print(page), A4_PRINTABLE[0], 2000, tmp_path / "harness.html", MEASURE, "measured",
                   budget_ms=3000)
    (bracket,) = m["brackets"]
    assert bracket["matches"] >= 15
    assert bracket["scroll"] <= bracket["client"] + 1, "the bracket is wider than the page"
    assert bracket["width"] <= A4_PRINTABLE[0] and bracket["height"] <= A4_PRINTABLE[1], bracket
    # Really printed: the bracket's first and last match keys on one page of the PDF.
    printed = tmp_path / "print.html"
    printed.write_text(page.replace("@page{", "@page{size:A4;"), encoding="utf-8")
    pdf = tmp_path / "cup.pdf"
    chromium("--no-pdf-header-footer", f"--print-to-pdf={pdf}", printed.as_uri())
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
        pages = text.split("\f")
        with_bracket = [i for i, p in enumerate(pages) if "R1-1" in p or "R4-1" in p]
        assert with_bracket and all("R1-1" in pages[i] and "R4-1" in pages[i] for i in with_bracket[:1]), \
            [p[:200] for p in pages]
    shot = tmp_path / "print-shot.html"
    shot.write_text(as_print(page), encoding="utf-8")
    screenshot(shot, A4_PRINTABLE[0], 1400, "report-print-bracket")


def test_prize_lists_and_a_pairs_round_on_a_phone_and_a_desktop(tmp_path: Path) -> None:
    from tests.tournament.test_prizes import PLAYERS, run

    (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
    path = tmp_path / "ev.db"
    run("new", path, "--name", "Club", "--game", "competitive", "--format", "rotating", "--seed", "3")
    run("add", path, "--csv", tmp_path / "p.csv")
    store = open_event(path)
    from tournament import enter_manual, pair_next_round
    for _ in range(2):
        pair_next_round(store)
        for t in store.tables(store.last_round()):
            sides = t.sides()
            enter_manual(store, t.number, {sides[0]: 100 + t.number, sides[1]: 80}, t.round)
    data = rp.event_data(store, ["sex", "club"], {"club": 2})  # --by sex --by club --best 2
    store.close()
    page = tmp_path / "prizes.html"
    page.write_text(rp.html_page(data), encoding="utf-8")
    screenshot(page, 390, 1800, "report-prizes-phone")
    screenshot(page, 1280, 1400, "report-prizes-desktop")
