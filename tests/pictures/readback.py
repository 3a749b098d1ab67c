"""Reading a picture back: which tiles it shows, with their pips counted, and its text.

The golden pictures are checked for what they show, not for their bytes: a
tile is ``g.tile`` whose two ``g.half`` children hold ``circle.pip`` (up to
nine) or a ``text.numeral``; each value is read from the drawing itself,
not from the ``data-`` marks, so a half drawn with the wrong pips fails.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def _classes(node: ET.Element) -> set[str]:
    return set((node.get("class") or "").split())


def half_value(half: ET.Element) -> int:
    """The number a half shows: its pips counted, or its numeral read."""
    pips = list(half.iter(f"{NS}circle"))
    numerals = [t for t in half.iter(f"{NS}text") if "numeral" in _classes(t)]
    if numerals:
        assert not pips, "a half shows pips and a numeral"
        return int(numerals[0].text or "")
    return len(pips)


def tiles(svg_text: str, within: str | None = None) -> list[tuple[int, int]]:
    """Every face-up tile drawn (in document order) as (first half, second half), read from its pips.

    ``within`` limits it to the elements under a group with that class
    (``board`` for the table, ``rack`` for the players' tiles)."""
    root = ET.fromstring(svg_text)
    scopes = [root] if within is None else [g for g in root.iter(f"{NS}g") if within in _classes(g)]
    return [t for scope in scopes for t in tiles_under(scope)]


def tiles_under(node: ET.Element) -> list[tuple[int, int]]:
    """The face-up tiles under an element already parsed, in document order, read from their pips
    (a property test parses each position once and reads several parts of it)."""
    found = []
    for g in node.iter(f"{NS}g"):
        if "tile" in _classes(g):
            halves = [h for h in g if h.tag == f"{NS}g" and "half" in _classes(h)]
            assert len(halves) == 2, f"a tile with {len(halves)} halves"
            values = (half_value(halves[0]), half_value(halves[1]))
            assert g.get("data-tile") == f"{values[0]}-{values[1]}", (g.get("data-tile"), values)
            found.append(values)
    return found


def texts(svg_text: str) -> list[str]:
    """Every text line of the picture (tooltips excluded)."""
    root = ET.fromstring(svg_text)
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text") if "numeral" not in _classes(t)]


def racks(svg_text: str) -> dict[str, list[tuple[int, int]]]:
    """Each seat's rack as drawn, seat -> tiles."""
    root = ET.fromstring(svg_text)
    out = {}
    for g in root.iter(f"{NS}g"):
        if "rack" in _classes(g):
            out[g.get("data-seat")] = tiles(ET.tostring(g, encoding="unicode"))
    return out
