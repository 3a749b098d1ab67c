"""Drawing one tile, for every picture of every game.

A tile is two square halves.  Halves up to nine show pips in the usual
domino faces (a 3×3 grid); beyond nine (double-twelve and larger sets) a
numeral is clearer than a crowd of dots, as printed sets do.  Every tile is
a ``<g class="tile" data-tile="a-b">`` whose halves are ``<g class="half"
data-value="n">`` holding one ``circle`` a pip or a ``text.numeral``: the tests read
the pictures back through these marks, and so can anyone scripting them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domrec.pictures import legible, svg

#: Pip positions on a half, in a 3×3 grid (column, row).
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: tuple((c, r) for r in range(3) for c in range(3)),
}

#: A numeral's font size, as a part of its half's side.
NUMERAL = 0.5


def has_numerals(highest: int) -> bool:
    """Whether a set whose highest number is ``highest`` has halves drawn as numerals (beyond nine)."""
    return highest not in PIPS


def numeral_half(size: float, scale: float | None) -> float:
    """The side of a half, ``size`` as drawn on the desktop, for a set with numerals on a picture
    drawn for a phone's width at ``scale`` (``None``: the desktop's, ``size`` itself): big enough for
    a numeral to show at least :data:`~domrec.pictures.MIN_TEXT` px (a rack's 13 px half becomes 22)."""
    return legible(size * NUMERAL, scale) / NUMERAL


FACE = "#fdfaf2"
LAST = "#ffd54f"      # the tile just played
MARKED = "#f3e5d0"    # a tile the game sets apart (a penalty play, a captured tile)
INK = "#222"


def draw_half(parent: ET.Element, value: int, x: float, y: float, size: float) -> ET.Element:
    """One square half at (x, y), ``size`` wide: pips up to nine, a numeral beyond."""
    half = svg.sub(parent, "g", class_="half", data_value=value, fill=INK)
    if value in PIPS:
        step = size / 4
        r = size * 0.085
        for c, row in PIPS[value]:  # the pips take the half's fill: a replay page holds thousands of them
            svg.sub(half, "circle", cx=x + step * (c + 1), cy=y + step * (row + 1), r=r)
    else:
        svg.text(half, x + size / 2, y + size * 0.68, str(value), class_="numeral", text_anchor="middle",
                 font_size=size * NUMERAL, font_weight="bold", fill=INK)
    return half


def draw_tile(parent: ET.Element, first: int, second: int, x: float, y: float, size: float, *,
              vertical: bool = False, fill: str = FACE, label: str | None = None,
              css: str = "") -> ET.Element:
    """A tile with its top-left corner at (x, y): ``first`` on the left (or top), ``second`` after.

    ``size`` is the side of one half, so a tile is ``2*size`` by ``size``
    (``vertical`` turns it upright).  ``label`` becomes its tooltip.
    """
    w, h = (size, 2 * size) if vertical else (2 * size, size)
    group = svg.sub(parent, "g", class_=("tile " + css).strip(), data_tile=f"{first}-{second}")
    if label:
        svg.title(group, label)
    pad = max(size * 0.04, 0.5)
    svg.sub(group, "rect", x=x + pad, y=y + pad, width=w - 2 * pad, height=h - 2 * pad, rx=size * 0.14,
            fill=fill, stroke=INK, stroke_width=max(size * 0.04, 0.8))
    if vertical:
        svg.sub(group, "line", x1=x + size * 0.18, y1=y + size, x2=x + size * 0.82, y2=y + size,
                stroke=INK, stroke_width=max(size * 0.03, 0.6))
        draw_half(group, first, x, y, size)
        draw_half(group, second, x, y + size, size)
    else:
        svg.sub(group, "line", x1=x + size, y1=y + size * 0.18, x2=x + size, y2=y + size * 0.82,
                stroke=INK, stroke_width=max(size * 0.03, 0.6))
        draw_half(group, first, x, y, size)
        draw_half(group, second, x + size, y, size)
    return group


BACK = "#37474f"


def draw_back(parent: ET.Element, x: float, y: float, size: float, *, vertical: bool = True,
              label: str | None = None) -> ET.Element:
    """A tile face down: held by a player whose tiles the record does not show."""
    w, h = (size, 2 * size) if vertical else (2 * size, size)
    group = svg.sub(parent, "g", class_="tile-back")
    if label:
        svg.title(group, label)
    pad = max(size * 0.04, 0.5)
    svg.sub(group, "rect", x=x + pad, y=y + pad, width=w - 2 * pad, height=h - 2 * pad, rx=size * 0.14,
            fill=BACK, stroke=INK, stroke_width=max(size * 0.04, 0.8))
    return group
