"""One position of a hand as a whole picture: the board in its frame.

What every game shows the same way lives here, once: the title line (game,
hand, move), the last move and who made it, the running scores, the player
to move, and each player's remaining tiles, face up because a replay hides
nothing.  Seats named by the compass sit around the board (north above,
west left, east right, south below); other seats (``P1``…) sit below it in
their order of play.

:func:`draw` is the whole picture (``explain --svg``, the replay page on a wide screen: drawn for
the box the page shows it in, every text at least :data:`~domrec.pictures.MIN_TEXT` px as shown);
:func:`draw_narrow` is the replay page's picture on a phone, drawn for the width it has: the
board laid out for that room (each game's ``draw(scene, room)``), its texts at least
:data:`~domrec.pictures.MIN_TEXT` px, the racks at their own size round it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from domrec.pictures import Board, fit, legible, svg
from domrec.pictures.tiles import draw_back, draw_tile, numeral_half

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
#: Below this width (CSS px) the replay page draws a position with :func:`draw_narrow`: a phone, a
#: phone turned, a small tablet (at 600 px the picture's box is 584 px wide) and a screen up to
#: about 1,190 px, where the move list beside it leaves the picture less than 800 px.  The wide
#: picture, up to 900 px and more, scaled down to such a box, showed its texts at 7 to 10 px.
NARROW = 800


def _rack(seat: str, name: str, tiles: tuple, hidden: int, width: float,
          to_move: bool, size: float = RACK_TILE, shown: float = 1.0) -> tuple[ET.Element, float, float]:
    """A seat's label (seat and count, then the name) and its tiles, halves ``size`` px, standing
    in rows no wider than ``width`` (face down when the record does not show them); the words sized
    for a picture shown at ``shown`` (the lines lower by as much as they grow: only the height changes)."""
    count = len(tiles) + hidden
    group = svg.element("g", class_="rack", data_seat=seat, data_tiles=count)
    svg.title(group, (f"{seat}: {name}" if name else seat) + (", to play" if to_move else ""))
    label = ("▶ " if to_move else "") + f"{seat} · {count} tile{'' if count == 1 else 's'}"
    big, small = legible(13, shown), legible(12, shown)
    svg.text(group, 0, big, label, font_size=big, fill=TEXT, font_weight="bold" if to_move else "normal",
             class_="seat-label")
    shown_name = svg.fit_text(name, width, small) if name else ""
    svg.text(group, 0, big + small + 4, shown_name, font_size=small, fill="#444", class_="name")
    top = big + small + 11
    step = size + GAP
    per_row = max(1, int((width + GAP) // step))
    for i, t in enumerate(tiles):
        row, col = divmod(i, per_row)
        draw_tile(group, t.high, t.low, col * step, top + row * (2 * size + GAP), size, vertical=True)
    for i in range(len(tiles), count):
        row, col = divmod(i, per_row)
        draw_back(group, col * step, top + row * (2 * size + GAP), size, label=f"{seat}: a tile not shown")
    rows = max(1, -(-count // per_row)) if count else 0
    used = min(count, per_row) * step - GAP if count else 0
    return group, min(width, max(used, 7.2 * len(label), svg.text_width(shown_name, small))), top + rows * (2 * size + GAP)


def _place(parent: ET.Element, child: ET.Element, x: float, y: float, scale: float = 1.0) -> None:
    transform = f"translate({x:.1f},{y:.1f})" + (f" scale({scale:.4f})" if scale != 1.0 else "")
    child.set("transform", transform)
    parent.append(child)


def _fits(board: Board) -> float:
    """The scale the frame draws ``board`` at: never wider than BOARD_MAX_WIDTH nor taller than BOARD_MAX_HEIGHT."""
    return min(1.0, BOARD_MAX_WIDTH / max(board.width, 1.0), BOARD_MAX_HEIGHT / max(board.height, 1.0))


def _width(position: Position, board: Board, scale: float) -> float:
    """The whole picture's width, the board drawn at ``scale``: it never depends on the texts' sizes."""
    seats = tuple(position.holdings)
    side_w = SIDE_WIDTH if set(seats) <= set(COMPASS) else 0.0
    inner_w = max(board.width * scale + 2 * MARGIN, 300.0)
    header = position.header_lines()
    # Text is not measured by SVG: allow a generous average glyph width so no line runs off the picture.
    texts = max([len(header[0]) * 8.6] + [len(line) * 7.4 for line in (*header[1:], *board.notes)])
    return max(inner_w + 2 * side_w + 2 * MARGIN, 360.0, texts + 2 * MARGIN)


#: The times the board is drawn again for its texts at most (a set with numerals has bigger tiles
#: on a board drawn smaller, so the board can grow and be drawn smaller still: twice is the most seen).
AGAIN = 4


def draw(position: Position, box: float | None = None) -> ET.Element:
    """The whole picture of ``position`` as an ``<svg>`` element, for a box ``box`` px wide (the replay
    page's picture on a wide screen: a picture wider than its box is shown smaller, at
    ``box / width``), or shown at its own size (``None``: ``explain --svg``).

    Every text shows at least :data:`~domrec.pictures.MIN_TEXT` px as shown: the board's texts are
    sized for the scale the frame draws the board at times the scale the picture is shown at, the
    frame's own for the latter (:func:`~domrec.pictures.legible`).  Neither scale depends on the
    texts' sizes (the widths are worked out without them), except that a set's numerals are on
    bigger tiles: then the board is drawn again for the scale it now has, until it holds."""
    board = position.board
    scale = _fits(board)
    shown = 1.0 if box is None else fit(box, _width(position, board, scale))
    sized = 1.0
    for _ in range(AGAIN):
        if scale * shown >= sized:
            break
        sized = scale * shown
        board = position.board_at(sized)
        scale = _fits(board)
        shown = 1.0 if box is None else fit(box, _width(position, board, scale))
    bw, bh = board.width * scale, board.height * scale
    seats = tuple(position.holdings)
    names = position.names
    compass = set(seats) <= set(COMPASS)

    side_w = SIDE_WIDTH if compass else 0.0
    header = position.header_lines()
    width = _width(position, board, scale)
    # (the words of the frame, sized for the scale the picture is shown at, and its lines as far apart)
    title_size, words = legible(15, shown), legible(13, shown)
    line = max(LINE, words + 7)
    size = numeral_half(RACK_TILE, shown) if position.scene.get("numerals") else RACK_TILE
    racks: dict[str, tuple[ET.Element, float, float]] = {}
    for seat in seats:
        room = (side_w - 10) if compass and seat in ("W", "E") else width - 2 * MARGIN
        racks[seat] = _rack(seat, names.get(seat, ""), position.holdings[seat], position.hidden.get(seat, 0), room,
                            seat == position.to_move, size, shown)

    y = MARGIN + line * len(header)
    top = racks["N"][2] + GAP * 2 if compass and "N" in racks else 0.0
    middle_h = max(bh + 2 * MARGIN, max((racks[s][2] for s in ("W", "E") if compass and s in racks), default=0))
    below = [s for s in seats if not compass or s == "S"]
    below_h = sum(racks[s][2] + GAP * 3 for s in below)
    notes_h = line * len(board.notes)
    height = y + top + middle_h + GAP * 2 + below_h + notes_h + MARGIN

    root = svg.document(width, height, position.label())
    root.set("class", "position")
    root.set("data-game", position.game)
    root.set("data-hand", str(position.hand))
    root.set("data-move", str(position.move))
    svg.sub(root, "rect", width=width, height=height, fill="#fafaf7")
    for i, text in enumerate(header):
        svg.text(root, MARGIN, MARGIN + line * i + line - 6, text, font_size=title_size if i == 0 else words,
                 fill=TEXT, font_weight="bold" if i == 0 else "normal",
                 class_=("title", "last-move", "scores")[min(i, 2)])
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
    for text in board.notes:
        svg.text(root, MARGIN, y + line - 6, text, font_size=words, fill=TEXT, class_="note")
        y += line
    return root


def draw_narrow(position: Position, width: float) -> ET.Element:
    """The picture of ``position`` for a phone's box ``width`` px wide (the replay page draws it,
    with frame.js, below :data:`NARROW`): the north rack, the felt as wide as the box with the
    board drawn for its room (scaled to it only where it cannot fit, its texts enlarged by as
    much), then the south rack (or every rack, seats not named by the compass), then west and east
    side by side, each rack at its own size (of a set with numerals, beyond nine, its tiles big
    enough for a numeral of :data:`~domrec.pictures.MIN_TEXT` px: the scene says ``numerals``).
    The header lines and the board's notes are not in it: the page writes them as text that
    wraps, above and under it."""
    room = width - 2 * MARGIN
    board = position.board_in(room)
    seats = tuple(position.holdings)
    compass = set(seats) <= set(COMPASS)
    half = (width - 2 * MARGIN - GAP * 3) / 2
    size = numeral_half(RACK_TILE, 1.0) if position.scene.get("numerals") else RACK_TILE
    racks = {}
    for seat in seats:
        side = compass and seat in ("W", "E") and "W" in seats and "E" in seats
        racks[seat] = _rack(seat, position.names.get(seat, ""), position.holdings[seat], position.hidden.get(seat, 0),
                            half if side else width - 2 * MARGIN, seat == position.to_move, size)
    scale = fit(room, board.width)
    bw, bh = board.width * scale, board.height * scale
    root = svg.element("svg", xmlns=svg.NS, role="img")
    root.set("aria-label", position.label())
    root.set("class", "position")
    root.set("data-game", position.game)
    root.set("data-hand", str(position.hand))
    root.set("data-move", str(position.move))
    background = svg.sub(root, "rect", width=float(width), fill="#fafaf7")
    y = GAP * 2
    if compass and "N" in racks:
        _place(root, racks["N"][0], MARGIN, y)
        y += racks["N"][2] + GAP * 2
    felt_h = bh + 2 * MARGIN
    svg.sub(root, "rect", x=0, y=y, width=float(width), height=felt_h, rx=10, fill=FELT, class_="felt")
    holder = board.element
    holder.set("class", (holder.get("class", "") + " board").strip())
    _place(root, holder, (width - bw) / 2, y + MARGIN, scale)
    y += felt_h + GAP * 3
    for seat in (("S",) if compass else seats):
        if seat in racks:
            _place(root, racks[seat][0], MARGIN, y)
            y += racks[seat][2] + GAP * 3
    if compass:
        pair = [s for s in ("W", "E") if s in racks]
        for k, seat in enumerate(pair):
            _place(root, racks[seat][0], MARGIN + (k * (half + GAP * 3) if len(pair) > 1 else 0), y)
        y += max((racks[s][2] for s in pair), default=0) + (GAP * 3 if pair else 0)
    height = y + GAP
    background.set("height", svg.number(height))
    root.set("viewBox", f"0 0 {width:.0f} {height:.0f}")
    return root
