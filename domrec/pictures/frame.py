"""One position of a hand as a whole picture: the board in its frame.

What every game shows the same way lives here, once: the title line (game,
hand, move), the last move and who made it, the running scores, the player
to move, and each player's remaining tiles, face up because a replay hides
nothing.  Seats named by the compass sit around the board (north above,
west left, east right, south below); other seats (``P1``…) sit below it in
their order of play.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from domrec.errors import clip
from domrec.pictures import svg
from domrec.pictures.tiles import draw_back, draw_tile

if TYPE_CHECKING:
    from domrec.pictures.positions import Position

#: The widest the board is drawn; a bigger layout is scaled down to fit (the SVG scales again on a phone).
BOARD_MAX_WIDTH = 760.0
BOARD_MAX_HEIGHT = 620.0
RACK_TILE = 13.0          # half size of a tile in a player's rack
GAP = 3.0
MARGIN = 12.0
LINE = 20.0               # height of a line of text in the frame
SIDE_WIDTH = 112.0        # room for a west or east rack (five tiles a row, a short name)
FELT = "#2e6b3f"
TEXT = "#111"

COMPASS = ("N", "E", "S", "W")


def _rack(seat: str, name: str, tiles: tuple, hidden: int, width: float,
          to_move: bool) -> tuple[ET.Element, float, float]:
    """A seat's label (seat and count, then the name) and its tiles standing in rows no wider
    than ``width`` (face down when the record does not show them)."""
    count = len(tiles) + hidden
    group = svg.element("g", class_="rack", data_seat=seat, data_tiles=count)
    svg.title(group, (f"{seat}: {name}" if name else seat) + (", to play" if to_move else ""))
    label = ("▶ " if to_move else "") + f"{seat} · {count} tile{'' if count == 1 else 's'}"
    svg.text(group, 0, 13, label, font_size=13, fill=TEXT, font_weight="bold" if to_move else "normal",
             class_="seat-label")
    fits = max(6, int(width // 7.2))
    svg.text(group, 0, 29, clip(name, fits) if name else "", font_size=12, fill="#444", class_="name")
    top = 36.0
    step = RACK_TILE + GAP
    per_row = max(1, int((width + GAP) // step))
    for i, t in enumerate(tiles):
        row, col = divmod(i, per_row)
        draw_tile(group, t.high, t.low, col * step, top + row * (2 * RACK_TILE + GAP), RACK_TILE, vertical=True)
    for i in range(len(tiles), count):
        row, col = divmod(i, per_row)
        draw_back(group, col * step, top + row * (2 * RACK_TILE + GAP), RACK_TILE, label=f"{seat}: a tile not shown")
    rows = max(1, -(-count // per_row)) if count else 0
    used = min(count, per_row) * step - GAP if count else 0
    return group, min(width, max(used, 7.2 * len(label))), top + rows * (2 * RACK_TILE + GAP)


def _place(parent: ET.Element, child: ET.Element, x: float, y: float, scale: float = 1.0) -> None:
    transform = f"translate({x:.1f},{y:.1f})" + (f" scale({scale:.4f})" if scale != 1.0 else "")
    child.set("transform", transform)
    parent.append(child)


def draw(position: Position) -> ET.Element:
    """The whole picture of ``position`` as an ``<svg>`` element."""
    board = position.board
    scale = min(1.0, BOARD_MAX_WIDTH / max(board.width, 1.0), BOARD_MAX_HEIGHT / max(board.height, 1.0))
    bw, bh = board.width * scale, board.height * scale
    seats = tuple(position.holdings)
    names = position.names
    compass = set(seats) <= set(COMPASS)

    side_w = SIDE_WIDTH if compass else 0.0
    inner_w = max(bw + 2 * MARGIN, 300.0)
    header = position.header_lines()
    # Text is not measured by SVG: allow a generous average glyph width so no line runs off the picture.
    texts = max([len(header[0]) * 8.6] + [len(line) * 7.4 for line in (*header[1:], *board.notes)])
    width = max(inner_w + 2 * side_w + 2 * MARGIN, 360.0, texts + 2 * MARGIN)
    racks: dict[str, tuple[ET.Element, float, float]] = {}
    for seat in seats:
        room = (side_w - 10) if compass and seat in ("W", "E") else width - 2 * MARGIN
        racks[seat] = _rack(seat, names.get(seat, ""), position.holdings[seat], position.hidden.get(seat, 0), room,
                            seat == position.to_move)

    y = MARGIN + LINE * len(header)
    top = racks["N"][2] + GAP * 2 if compass and "N" in racks else 0.0
    middle_h = max(bh + 2 * MARGIN, max((racks[s][2] for s in ("W", "E") if compass and s in racks), default=0))
    below = [s for s in seats if not compass or s == "S"]
    below_h = sum(racks[s][2] + GAP * 3 for s in below)
    notes_h = LINE * len(board.notes)
    height = y + top + middle_h + GAP * 2 + below_h + notes_h + MARGIN

    root = svg.document(width, height, position.label())
    root.set("class", "position")
    root.set("data-game", position.game)
    root.set("data-hand", str(position.hand))
    root.set("data-move", str(position.move))
    svg.sub(root, "rect", width=width, height=height, fill="#fafaf7")
    for i, line in enumerate(header):
        svg.text(root, MARGIN, MARGIN + LINE * i + 14, line, font_size=15 if i == 0 else 13, fill=TEXT,
                 font_weight="bold" if i == 0 else "normal", class_=("title", "last-move", "scores")[min(i, 2)])
    if compass and "N" in racks:
        _place(root, racks["N"][0], (width - racks["N"][1]) / 2, y)
    y += top
    felt_x = MARGIN + side_w
    felt_w = width - 2 * (MARGIN + side_w)
    svg.sub(root, "rect", x=felt_x, y=y, width=felt_w, height=middle_h, rx=10, fill=FELT, class_="felt")
    holder = board.element
    holder.set("class", (holder.get("class", "") + " board").strip())
    _place(root, holder, felt_x + (felt_w - bw) / 2, y + (middle_h - bh) / 2, scale)
    if compass:
        if "W" in racks:
            _place(root, racks["W"][0], MARGIN, y)
        if "E" in racks:
            _place(root, racks["E"][0], width - MARGIN - side_w + 10, y)
    y += middle_h + GAP * 2
    for seat in below:
        group, w, h = racks[seat]
        _place(root, group, (width - w) / 2 if compass else MARGIN, y)
        y += h + GAP * 3
    for line in board.notes:
        svg.text(root, MARGIN, y + 14, line, font_size=13, fill=TEXT, class_="note")
        y += LINE
    return root
