"""Broadway: the tableau on the record's own grid, north up, coordinates on the margins.

The grid shows one free row and column round the tableau (where the next tile may go), x
along the bottom, y up the left.  The last tile laid is yellow, the halves it matched are
ringed in orange (the segments that scored), penalty plays are tan.  Tiles lying face up
(exposed and fitting nowhere, or waiting for the penalty play) sit in a row under the grid,
by seat; the notes give the points made in play this hand and each seat's axis.

Why the record's coordinates: an arbiter compares the picture with a record that says
``3-5 at (1,0)-(1,1)``, so the grid must be the record's, unmoved.  The marks are the
engine's (:meth:`BroadwayHand.last_marks`): the picture never works out a rule itself.
The last tile stays marked after a pass or an exposure, as explain's text grid marks it.
In a hand recorded without its deal the racks are face down, so the row under the grid is
where the tiles known to be held show.

The axes' legend is a note (the grid's corner held it at 9 px, and at 11 px it would run into the
first x number).  Drawn for a phone's room, the face-up tiles' words stand on a line above their
tiles; a tableau wider than the room is scaled to it, its coordinates enlarged by as much (every
other column numbered when a number would be wider than its column).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domrec.games.broadway import OPPONENTS, SEATS, BroadwayHand, Cell
from domrec.pictures import Board, for_room, legible, svg
from domrec.pictures.tiles import FACE, LAST, MARKED, draw_tile
from domrec.record import Move

UNIT = 26.0            # the side of a cell: one half of a tile
GUTTER = 26.0          # room left of the grid for the y numbers
AXIS_ROW = 18.0        # room under the grid for the x numbers
SHOWN_TILE = 15.0      # half size of a tile shown face up under the grid
MATCHED = "#e65100"    # the ring round a half the last tile matched
GRID = "#ffffff"
LABEL = "#e8f5e9"

#: The axis each seat lays its tiles along, in words for the legend.
AXES = "N and S lay tiles east-west, E and W north-south"
#: The axes' legend, a note of every picture.
COORDINATES = "Coordinates: x along the bottom, y up the left."


def _origin(cells: list[Cell]) -> tuple[int, int, int, int]:
    """The grid drawn: the tableau's extent and one free cell all round."""
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1


def _grid(group: ET.Element, x0: int, x1: int, y0: int, y1: int, scale: float) -> None:
    """Faint cell lines and the coordinates: x along the bottom, y up the left (north is up)."""
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    lines = svg.sub(group, "g", class_="grid", stroke=GRID, stroke_opacity="0.18", stroke_width="1")
    for i in range(cols + 1):
        x = GUTTER + i * UNIT
        svg.sub(lines, "line", x1=x, y1=0.0, x2=x, y2=rows * UNIT)
    for j in range(rows + 1):
        y = j * UNIT
        svg.sub(lines, "line", x1=GUTTER, y1=y, x2=GUTTER + cols * UNIT, y2=y)
    labels = svg.sub(group, "g", class_="coordinates")
    size = legible(10, scale)
    every = 1 if size <= 13 else 2  # a number like -10 is about 1.9 sizes wide; a column is 26
    for i, x in enumerate(range(x0, x1 + 1)):
        if x % every == 0:
            svg.text(labels, GUTTER + (i + 0.5) * UNIT, rows * UNIT + 13, str(x), font_size=size, fill=LABEL,
                     text_anchor="middle", class_="x")
    for j, y in enumerate(range(y1, y0 - 1, -1)):
        svg.text(labels, GUTTER - 4, (j + 0.5) * UNIT + 4, str(y), font_size=size, fill=LABEL,
                 text_anchor="end", class_="y")


def _tile(group: ET.Element, p: list, at: dict[Cell, tuple[float, float]], last: bool) -> None:
    """One placement where its cells are, halves in the grid's own reading (west or north first)."""
    seat, fx, fy, sx, sy, first_pips, second_pips, matches, penalty = p
    first, second = (fx, fy), (sx, sy)
    horizontal = fy == sy
    if horizontal:
        ahead = fx < sx
    else:
        ahead = fy > sy
    (c1, v1), (c2, v2) = ((first, first_pips), (second, second_pips))
    if not ahead:
        (c1, v1), (c2, v2) = (c2, v2), (c1, v1)
    x, y = at[c1]
    css = " ".join(word for word, on in (("last", last), ("penalty", penalty)) if on)
    fill = LAST if last else MARKED if penalty else FACE
    how = f", {matches} matched" if matches else ", the lead"
    label = (f"{seat} laid {first_pips}-{second_pips} at ({fx},{fy})-({sx},{sy}){how}"
             + (" (penalty play)" if penalty else ""))
    tile = draw_tile(group, v1, v2, x, y, UNIT, vertical=not horizontal, fill=fill, css=css, label=label)
    tile.set("data-seat", seat)
    tile.set("data-cells", f"{fx},{fy} {sx},{sy}")


def _face_up(state: BroadwayHand) -> list[list]:
    """Tiles lying face up: exposed and fitting nowhere (by seat), and one waiting for its penalty play,
    as rows of (seat, words, tiles, kind).

    An open hand's racks are face down, so this row is the only place its face-up tiles show;
    in a known deal they are in the racks too, and here as they lie on the table."""
    rows: list[list] = []
    for seat in SEATS:
        face_up = sorted(state.face_up[seat], key=lambda t: (t.high, t.low), reverse=True)
        if face_up:
            rows.append([seat, f"{seat} holds face up (exposed):", [[t.high, t.low] for t in face_up], "face-up"])
    if state.pending is not None:
        owner, t = state.pending
        rows.append([owner, f"{owner} exposed, for {' or '.join(OPPONENTS[owner])} to lay:", [[t.high, t.low]],
                     "pending"])
    return rows


def _shown(group: ET.Element, rows: list[list], top: float, scale: float, beside: bool) -> tuple[float, float]:
    """The rows of :func:`_face_up` under the grid, each row's words before its tiles (``beside``: a
    wide picture's) or above them (a phone's room); returns their width and height."""
    if not rows:
        return 0.0, 0.0
    width = 0.0
    y = top
    for seat, words, tiles, kind in rows:
        row = svg.sub(group, "g", class_=f"exposed {kind}", data_seat=seat)
        if beside:
            svg.text(row, 0, y + SHOWN_TILE * 0.5 + 5, words, font_size=legible(12, scale), fill=LABEL)
            x = 7.0 * len(words) + 6
        else:
            size = legible(12, scale)
            svg.text(row, 0, y + size, words, font_size=size, fill=LABEL)
            y += size + 5
            x = 0.0
        for high, low in tiles:
            draw_tile(row, high, low, x, y, SHOWN_TILE, label=f"{seat}'s {high}-{low}, face up")
            x += 2 * SHOWN_TILE + 4
        width = max(width, x)
        y += SHOWN_TILE + 8
    return width, y - top


def scene(state: BroadwayHand, last: Move | None) -> dict:
    """What the picture shows, as plain values: the placements in order (seat, the two cells, their
    pips, segments matched, penalty), the cells the last tile matched, the tiles lying face up,
    and the points made in play."""
    _, matched = state.last_marks()
    return {"tiles": [[p.seat, *p.first, *p.second, p.first_pips, p.second_pips, p.matches, p.penalty]
                      for p in state.placements],
            "matched": [list(c) for c in sorted(matched)], "shown": _face_up(state),
            "lead": str(state.lead), "leader": state.leader, "sudden": state.sudden_totals is not None,
            "points": dict(state.points)}


def _draw(scene: dict, room: float | None, scale: float) -> Board:
    """The tableau of :func:`scene`, for ``room`` when one is given (the replay page's script draws it
    the same way: broadway.js)."""
    group = svg.element("g", class_="tableau-board")
    notes = [_points(scene), AXES + ".", COORDINATES]
    placements = scene["tiles"]
    if not placements:
        lead = scene["lead"]
        who = f"{scene['leader']} leads {lead}" if scene["leader"] else f"the holder of {lead} leads it"
        svg.text(group, 0, 18, f"The tableau is empty: {who}.", font_size=legible(14, scale), fill="#fff",
                 class_="empty")
        width, height = 320.0, 28.0
        shown_w, shown_h = _shown(group, scene["shown"], height + 6, scale, room is None)
        return Board(group, max(width, shown_w), height + (shown_h + 6 if shown_h else 0), tuple(notes))

    cells = [c for p in placements for c in ((p[1], p[2]), (p[3], p[4]))]
    x0, x1, y0, y1 = _origin(cells)
    at = {(x, y): (GUTTER + (x - x0) * UNIT, (y1 - y) * UNIT) for x, y in cells}
    _grid(group, x0, x1, y0, y1, scale)
    table = svg.sub(group, "g", class_="tableau")
    for i, p in enumerate(placements):
        _tile(table, p, at, i == len(placements) - 1)
    matched = [tuple(c) for c in scene["matched"]]
    rings = svg.sub(group, "g", class_="matches")
    for c in matched:
        x, y = at[c]
        ring = svg.sub(rings, "rect", class_="matched", x=x + 1.5, y=y + 1.5, width=UNIT - 3, height=UNIT - 3,
                       rx=5.0, fill="none", stroke=MATCHED, stroke_width=3.0)
        ring.set("data-cell", f"{c[0]},{c[1]}")
    grid_w = GUTTER + (x1 - x0 + 1) * UNIT
    grid_h = (y1 - y0 + 1) * UNIT + AXIS_ROW
    shown_w, shown_h = _shown(group, scene["shown"], grid_h + 6, scale, room is None)
    notes.insert(1, "Yellow: the last tile laid" + ("; orange rings: the halves it matched." if matched else "."))
    if any(p[8] for p in placements):
        notes.insert(2, "Tan: penalty plays (an exposed tile laid by an opponent).")
    return Board(group, max(grid_w, shown_w), grid_h + (shown_h + 6 if shown_h else 0), tuple(notes))


draw = for_room(_draw)


def board(state: BroadwayHand, last: Move | None) -> Board:
    return draw(scene(state, last))


def _points(scene: dict) -> str:
    """The points made in play this hand (before the tiles still held are counted off)."""
    made = f"Points made in play this hand: NS {scene['points']['NS']} · EW {scene['points']['EW']}"
    where = f" (built on {scene['lead']}" + ("; sudden death" if scene["sudden"] else "") + ")"
    return made + where + "."
