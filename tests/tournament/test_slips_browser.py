"""The PIN slips in Chromium at A4 (issue 35): twelve slips a printed page, none cut across two
pages, each name inside its slip (a long name, a right-to-left one), the PIN beside it where the
name pushes nothing.  Slow; skipped without Chromium or Playwright."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings
from tournament.event import venue as vn
from tournament.pages import slips as sl

from tests.browser import keep, playwright_or_skip

playwright_or_skip()

pytestmark = pytest.mark.slow

MM = 96 / 25.4  # CSS pixels a millimetre
PRINTABLE = ((210 - 20) * MM, (297 - 20) * MM)  # within the page's 10 mm margins

NAMES = ["María José Fernández de la Torre y Villalobos del Castillo", "عليّ بن أبي طالب الهاشمي",
         "<b>Bold</b> & co", "Ana"] + [f"Jugador {k}" for k in range(1, 22)]

MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  return {
    pages: [...document.querySelectorAll('.page')].map((p) => {  // the slips' extent on each page
      const boxes = [...p.querySelectorAll('.slip')].map(box);
      const left = Math.min(...boxes.map((b) => b[0])), top = Math.min(...boxes.map((b) => b[1]));
      return [left, top, Math.max(...boxes.map((b) => b[0] + b[2])) - left, Math.max(...boxes.map((b) => b[1] + b[3])) - top];
    }),
    slips: [...document.querySelectorAll('.slip')].map((s) => ({
      slip: box(s), name: box(s.querySelector('.name')), pin: box(s.querySelector('.pin')),
      text: s.querySelector('.name').textContent, dir: getComputedStyle(s.querySelector('.name')).direction})),
  };
}"""


def _inside(inner, outer, slack=0.5) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and
            inner[0] + inner[2] <= outer[0] + outer[2] + slack and inner[1] + inner[3] <= outer[1] + outer[3] + slack)


def test_slips_print_twelve_to_an_a4_page(tmp_path: Path, browser) -> None:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=3))
    add_players(store, NAMES + [f"Filler {k}" for k in range(-len(NAMES) % 4)])
    pins = vn.make_pins(store)
    page_html = sl.slips_page(store.settings, store.players(), pins)
    count = len(store.players())
    store.close()
    # Laid out as a printed page is: the width within its margins.
    page = browser.new_page(viewport={"width": round(PRINTABLE[0]), "height": round(PRINTABLE[1])})
    try:
        page.set_content(page_html)
        page.emulate_media(media="print")
        m = page.evaluate(MEASURE)
        keep(page, "pin-slips-a4")
        assert len(m["slips"]) == count == 28 and len(m["pages"]) == 3
        for box in m["pages"]:  # each page's slips fit the printable part of an A4 sheet
            assert box[0] >= -0.5 and box[2] <= PRINTABLE[0] + 1 and box[3] <= PRINTABLE[1] + 1, box
        for s in m["slips"]:
            assert abs(s["slip"][2] - 95 * MM) < 2 and abs(s["slip"][3] - 40 * MM) < 2, s
            assert _inside(s["name"], s["slip"]) and _inside(s["pin"], s["slip"]), s
            assert s["pin"][1] >= s["name"][1] + s["name"][3] - 0.5, s  # the PIN under the name, never over it
        rtl = next(s for s in m["slips"] if s["text"].startswith("عليّ"))
        assert rtl["dir"] == "rtl"  # the name sets its own direction, isolated (<bdi>)
        assert any(s["text"] == "<b>Bold</b> & co" for s in m["slips"])  # shown as text
        # Printed: three A4 pages, twelve PINs on each of the first two.
        pdf = page.pdf(format="A4", prefer_css_page_size=True)
    finally:
        page.close()
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 3
    if shutil.which("pdftotext"):
        file = tmp_path / "slips.pdf"
        file.write_bytes(pdf)
        text = subprocess.run(["pdftotext", "-layout", str(file), "-"], capture_output=True, text=True).stdout
        printed = [p for p in text.split("\f") if p.strip()]
        assert [len(re.findall(r"PIN\s+\d\s*\d\s*\d\s*\d", p)) for p in printed] == [12, 12, 4], printed
