"""Competitive dominoes: the line of play, laid out as a snake.

A line of twenty-eight tiles is far wider than a page, so it turns at the
page's edge as players turn it at a table: rows run left to right, then
right to left, and every tile keeps its matching halves side by side.
Doubles stand across the line, as they are played.  Drawn for a phone's room, the snake turns
at that width instead, so the line is never scaled down.
"""

from __future__ import annotations

from domrec.games.competitive import CompetitiveHand
from domrec.pictures import Board, for_room, legible, svg
from domrec.pictures.tiles import LAST, draw_tile
from domrec.record import Move

UNIT = 24.0          # the side of a half
ROW_WIDTH = 640.0    # where the snake turns


def snake(halves: list[tuple[int, int]], last: int | None, parent: object, unit: float = UNIT,
          row_width: float = ROW_WIDTH) -> tuple[float, float]:
    """Lay ``halves`` (each tile as the line reads it, left to right) in rows that turn at
    ``row_width``; the tile at index ``last`` is highlighted.  Returns the size used."""
    rows: list[list[tuple[int, int, int]]] = [[]]
    width = 0.0
    for i, (a, b) in enumerate(halves):
        w = unit if a == b else 2 * unit
        if rows[-1] and width + w > row_width:
            rows.append([])
            width = 0.0
        rows[-1].append((i, a, b))
        width += w + 2
    row_h = 2 * unit + 8
    widest = 0.0
    for r, row in enumerate(rows):
        forward = r % 2 == 0
        used = sum((unit if a == b else 2 * unit) + 2 for _, a, b in row) - 2
        widest = max(widest, used)
        x = 0.0 if forward else None
        x = 0.0 if forward else row_width - used if len(rows) > 1 else 0.0
        order = row if forward else list(reversed(row))
        for i, a, b in order:
            first, second = (a, b) if forward else (b, a)
            double = a == b
            y = r * row_h + (0 if double else unit / 2)
            draw_tile(parent, first, second, x, y, unit, vertical=double,
                      fill=LAST if i == last else "#fdfaf2", css="last" if i == last else "",
                      label=f"tile {i + 1} of the line: {a}-{b}")
            x += (unit if double else 2 * unit) + 2
    width = row_width if len(rows) > 1 else widest
    return max(width, 2 * unit), len(rows) * row_h - 8


def scene(state: CompetitiveHand, last: Move | None) -> dict:
    """What the picture shows, as plain values: the line as it reads (each tile's halves left to
    right) and which of its tiles was just played (its index, or ``None``)."""
    line = [list(halves) for halves in state.line]
    index = None
    play = getattr(last, "play", None)
    if play is not None and line:
        wanted = sorted(map(int, play.split("-")))
        if sorted(line[-1]) == wanted:
            index = len(line) - 1
        elif sorted(line[0]) == wanted:
            index = 0
    return {"line": line, "hot": index}


def _draw(scene: dict, room: float | None, scale: float) -> Board:
    """The board of :func:`scene`, the snake turning at ``room`` when one is given (the replay page's
    script draws it the same way: competitive.js)."""
    line = [tuple(halves) for halves in scene["line"]]
    group = svg.element("g", class_="line")
    if not line:
        svg.text(group, 0, 20, "The line is empty: the lead is still to be made.", font_size=legible(14, scale),
                 fill="#fff")
        return Board(group, 330, 28)
    turn = ROW_WIDTH if room is None else max(2 * UNIT, min(ROW_WIDTH, room))
    width, height = snake(line, scene["hot"], group, UNIT, turn)
    ends = f"open ends: {line[0][0]} and {line[-1][1]}"
    return Board(group, width, height, (f"The line: {len(line)} tile{'' if len(line) == 1 else 's'}, {ends}.",))


draw = for_room(_draw)


def board(state: CompetitiveHand, last: Move | None) -> Board:
    return draw(scene(state, last))
