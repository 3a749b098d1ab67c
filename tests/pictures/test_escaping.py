"""Names, comments and event text from a record are only ever text in a picture.

A record is written by anyone; a player called ``</text><script>…`` must not
become markup.  Every text field of a sample of each game is filled with
markup, and each picture must still parse, hold no element it did not draw,
and show the name as the characters typed.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from domrec.pictures import MODULES
from domrec.pictures.positions import picture
from domrec.reader import load_dict
from tests.pictures.readback import NS

SAMPLES = Path(__file__).parents[2] / "samples" / "valid"
HOSTILE = "</text></svg><script>alert('x')</script>&amp;<b onload=\"x()\">"
DRAWN_TAGS = {f"{NS}{t}" for t in ("svg", "title", "rect", "g", "circle", "line", "text", "path", "polygon",
                                   "polyline", "ellipse")}
RECORDS = {
    "competitive": "competitive/domino.json",
    "horse-race": "horse-race/spinner-four-arms.json",
    "castle-rock": "castle-rock/three-players.json",
    "domino-roads": "domino-roads/figure-4-bridge-total-10.json",
    "broadway": "broadway/sample-hand.json",
}


def _poisoned(doc: object, text: str = HOSTILE) -> object:
    """``doc`` with every free-text field (names, ids, comments, the event's values) set to ``text``
    (markup)."""
    if isinstance(doc, dict):
        out = {}
        for key, value in doc.items():
            if key in ("name", "id", "comment") and isinstance(value, str):
                out[key] = text + value
            elif key == "event" and isinstance(value, dict):
                out[key] = {k: text for k in value} | {"name": text}
            else:
                out[key] = _poisoned(value, text)
        return out
    if isinstance(doc, list):
        return [_poisoned(v, text) for v in doc]
    return doc


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_markup_in_every_text_field_stays_text(game):
    pytest.importorskip(MODULES[game])
    doc = json.loads((SAMPLES / RECORDS[game]).read_text())
    for move in doc["hands"][0].get("moves", [])[:3]:
        move["comment"] = HOSTILE
    record = load_dict(_poisoned(doc))
    for move in (None, 0, 1):
        svg, report = picture(record, 1, move)
        assert report.status == "valid"
        root = ET.fromstring(svg)  # well formed
        tags = {node.tag for node in root.iter()}
        assert tags <= DRAWN_TAGS, tags - DRAWN_TAGS
        assert "<script" not in svg and "<b " not in svg
        words = "".join(root.itertext())
        assert HOSTILE[:12] in words  # the names, as typed (cut to fit, but the characters themselves)


#: Text XML cannot hold at all, not even as a character reference: a terminal's escape sequence
#: (ESC, BEL), NUL, a form feed.  A record may hold any of them in a name or a comment.
UNREADABLE = "\x1b]0;title\x07\x1b[2J\x00\x0c"


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_control_characters_in_every_text_field_keep_the_picture_readable(game):
    pytest.importorskip(MODULES[game])
    doc = json.loads((SAMPLES / RECORDS[game]).read_text())
    record = load_dict(_poisoned(doc, UNREADABLE))
    for move in (None, 0, 1):
        svg, report = picture(record, 1, move)
        assert report.status == "valid"
        svg.encode("utf-8")  # a file can hold it
        root = ET.fromstring(svg)  # well formed: a browser draws it
        assert "\\x1b]0;title\\x07" in "".join(root.itertext())  # shown, as the terminal shows it
