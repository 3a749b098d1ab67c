"""Headless Chromium for the page tests (the tournament report, the replay page).

The pages are measured and driven from a harness page that holds the page under test in a
same-origin ``srcdoc`` frame of the exact width (a phone's 390 px: a headless window is never
narrower than 500 px); a script in the harness acts on the frame and writes what it saw, as
JSON, into a ``<pre>`` of its own, which ``--dump-dom`` prints.  No DevTools client is needed.
Screenshots are kept under ``DOMREC_SCREENSHOTS`` when that is set, for a person to look at.
"""

from __future__ import annotations

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


def screenshot(page_file: Path, width: int, height: int, name: str) -> Path:
    png = page_file.parent / f"{name}.png"
    chromium(f"--window-size={width},{height}", f"--screenshot={png}", page_file.as_uri())
    assert png.exists() and png.stat().st_size > 1000
    keep = os.environ.get("DOMREC_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(png, Path(keep) / png.name)
    return png
