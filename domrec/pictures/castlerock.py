"""Castle Rock: the row, with each player's captured tiles set aside.

The row runs left to right from its blocked end (a grey wall) to its open end (a dashed slot
where the next tile goes), wrapping like lines of text.  Under it, one panel per player holds
the tiles they captured, counted (light tiles); then the boneyard, face down, with its size.
Yellow is the last move: the tile just placed, at the row's open end, or the tiles just taken,
in the capturer's panel; after a draw the boneyard line names the tile drawn (now in the rack).

Why a row wrapped like text and not a snake: the row is read, and written in records, from
the blocked end, so each line reads left to right as the record does; a tile's neighbours are
the tiles beside it, and the last of a line neighbours the first of the next.  Captured tiles
stay in the order taken, so the newest are always at the end of a panel.  Drawn for a phone's
room, the row and the panels wrap at that width, and the long lines (the row's heading, the tile
just drawn) become notes, which the page writes as text that wraps.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

from domrec import tiles as T
from domrec.games.castlerock import CastleRockHand
from domrec.pictures import Board, for_room, legible, svg
from domrec.pictures.tiles import FACE, LAST, MARKED, draw_back, draw_tile, has_numerals, numeral_half
from domrec.record import Capture, Draw, Move, Play

WIDTH = 620.0        # the board's width: the row wraps here, the panels share it
UNIT = 22.0          # the side of a half in the row
GAP = 4.0            # between the row's tiles
LINE_GAP = 10.0      # between the row's lines
WALL = 8.0           # the blocked end's wall
SMALL = 13.0         # the side of a half in a captured panel
SMALL_GAP = 2.0
PANEL_GAP = 8.0      # between panels
PANEL_PAD = 6.0
COLUMNS = 2          # captured panels side by side
TEXT = "#fff"
PANEL = "#245633"    # a captured panel: a little darker than the felt
WALL_COLOUR = "#9e9e9e"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _row(parent: ET.Element, row: list[list[int]], last: int | None, top: float, wrap: float,
         unit: float = UNIT) -> float:
    """The row from the blocked end, its halves ``unit`` px, wrapping at ``wrap``; returns the height used."""
    group = svg.sub(parent, "g", class_="row", data_tiles=len(row))
    step = 2 * unit + GAP
    per_line = max(1, int((wrap - WALL - GAP - unit + GAP) // step))
    svg.sub(group, "rect", class_="blocked-end", x=0, y=top, width=WALL, height=unit, rx=2,
            fill=WALL_COLOUR, stroke="#555")
    slots = len(row) + 1          # the tiles, then the open end's empty slot
    lines = -(-slots // per_line)
    for i in range(slots):
        line, col = divmod(i, per_line)
        x = WALL + GAP + col * step
        y = top + line * (unit + LINE_GAP)
        if i == len(row):
            slot = svg.sub(group, "rect", class_="open-end", x=x, y=y, width=2 * unit, height=unit, rx=unit * 0.14,
                           fill="none", stroke=TEXT, stroke_width=1.2, stroke_dasharray="4 3")
            svg.title(slot, "the open end: the next tile is placed here")
            continue
        high, low = row[i]
        where = "the blocked end" if i == 0 else "the open end" if i == len(row) - 1 else f"place {i + 1}"
        draw_tile(group, high, low, x, y, unit, fill=LAST if i == last else FACE,
                  css="last" if i == last else "", label=f"row, {where} ({i + 1} of {len(row)}): {high}-{low}")
    return lines * (unit + LINE_GAP) - LINE_GAP


def _panel(parent: ET.Element, seat: str, taken: list[list[int]], fresh: int, x: float, y: float,
           width: float, scale: float, small: float = SMALL) -> tuple[ET.Element, float]:
    """``seat``'s captured tiles, counted, the last ``fresh`` of them just taken, their halves ``small``
    px; returns the panel and its height (the frame is drawn by the caller once the row of panels is
    as tall as its tallest)."""
    group = svg.sub(parent, "g", class_="captured", data_seat=seat, data_tiles=len(taken))
    label = f"{seat} captured {len(taken)}" + (f" (+{fresh} now)" if fresh else "")
    svg.text(group, x + PANEL_PAD, y + PANEL_PAD + 11, label, font_size=legible(12, scale), fill=TEXT,
             font_weight="bold" if fresh else "normal", class_="captured-label")
    step = 2 * small + SMALL_GAP
    per_line = max(1, int((width - 2 * PANEL_PAD + SMALL_GAP) // step))
    top = y + PANEL_PAD + 18
    for i, (high, low) in enumerate(taken):
        line, col = divmod(i, per_line)
        new = i >= len(taken) - fresh
        draw_tile(group, high, low, x + PANEL_PAD + col * step, top + line * (small + SMALL_GAP), small,
                  fill=LAST if new else MARKED, css="last" if new else "taken",
                  label=f"captured by {seat}: {high}-{low}" + (" (just taken)" if new else ""))
    lines = -(-len(taken) // per_line)
    return group, top - y + lines * (small + SMALL_GAP) + PANEL_PAD - (SMALL_GAP if lines else 0)


def _just_placed(state: CastleRockHand, last: Move | None) -> int | None:
    """Where the tile just placed lies: at the open end, the row's last place."""
    if type(last) is Play and state.row and state.row[-1] is T.tile(last.play):
        return len(state.row) - 1
    return None


def _just_taken(state: CastleRockHand, last: Move | None) -> tuple[str | None, int]:
    """Who captured with the last move and how many tiles (the last ones in their pile)."""
    if type(last) is Capture and last.seat in state.captured:
        return last.seat, min(len(last.capture), len(state.captured[last.seat]))
    return None, 0


def _just_drawn(state: CastleRockHand, last: Move | None) -> str | None:
    """The tile the last move drew: the drawer's newest tile (a draw is always a known tile)."""
    if type(last) is Draw and state.hands.get(last.seat):
        return str(state.hands[last.seat][-1])
    return None


def scene(state: CastleRockHand, last: Move | None) -> dict:
    """What the picture shows, as plain values: the row from its blocked end, each player's captured
    tiles, the boneyard's count, and what the last move did (``just``): ``["placed"]``, the tile
    just placed (the row's last); ``["took", seat, count]``, the tiles just captured (the last of
    the seat's pile); ``["drew", seat, tile]``, the tile just drawn; or ``None``."""
    placed = _just_placed(state, last)
    taker, fresh = _just_taken(state, last)
    drawn = _just_drawn(state, last)
    just = (["placed"] if placed is not None else ["took", taker, fresh] if taker is not None
            else ["drew", last.seat, drawn] if drawn is not None and last is not None else None)
    seen = {"row": [[t.high, t.low] for t in state.row], "seats": list(state.seats),
            "captured": {s: [[t.high, t.low] for t in state.captured[s]] for s in state.seats},
            "bone": state.bone_left, "just": just}
    if _numerals(state.set_name):
        seen["numerals"] = True  # (said only of a set beyond nine: every other scene as it was)
    return seen


@functools.cache
def _numerals(set_name: str) -> bool:
    """Whether the set's halves beyond nine are drawn as numerals (double-twelve): then a phone's
    picture draws the tiles bigger, its racks (frame.draw_narrow) and the captured panels, so that a
    numeral is as legible as every other text."""
    return has_numerals(max(t.high for t in T.SETS[set_name]))


def _draw(scene: dict, room: float | None, scale: float) -> Board:
    """The row, the captured panels and the boneyard of :func:`scene`, as wide as ``room`` when one is
    given (the replay page's script draws them the same way: castlerock.js).

    Every tile on the table is drawn exactly once (the row and the panels), so the picture
    accounts for the whole set with the racks and the boneyard's count."""
    just = scene["just"] or [None, None, None]
    row = scene["row"]
    seats = scene["seats"]
    group = svg.element("g", class_="castle-rock")
    if row:
        head = f"The row: {_plural(len(row), 'tile')}, blocked end first (−1 each to every player at the end)"
    else:
        head = "The row is empty: the next tile placed starts it"
    wide = WIDTH if room is None else min(WIDTH, room)
    notes = [] if room is None else [head]
    numerals = bool(scene.get("numerals"))  # (numerals at least MIN_TEXT px as shown: bigger tiles)
    unit = numeral_half(UNIT, scale) if numerals else UNIT
    small = numeral_half(SMALL, scale) if numerals else SMALL
    y = 0.0
    if room is None:
        svg.text(group, 0, 14, head, font_size=legible(13, scale), fill=TEXT, class_="row-label")
        y = 24.0
    y += _row(group, row, len(row) - 1 if just[0] == "placed" else None, y, wide, unit) + 16

    taker, fresh = (just[1], just[2]) if just[0] == "took" else (None, 0)
    width = (wide - PANEL_GAP * (COLUMNS - 1)) / COLUMNS
    for start in range(0, len(seats), COLUMNS):
        line = seats[start:start + COLUMNS]
        made = []
        for k, seat in enumerate(line):
            x = k * (width + PANEL_GAP)
            frame = svg.sub(group, "rect", class_="panel", x=x, y=y, width=width, height=0, rx=6, fill=PANEL)
            made.append((frame, *_panel(group, seat, scene["captured"][seat], fresh if seat == taker else 0,
                                        x, y, width, scale, small)))
        tallest = max(h for _, _, h in made)
        for frame, _, _ in made:
            frame.set("height", f"{tallest:.2f}".rstrip("0").rstrip("."))
        y += tallest + PANEL_GAP

    bone = scene["bone"]
    pile = svg.sub(group, "g", class_="boneyard", data_tiles=bone)
    y += 4
    if bone:
        for k in range(min(3, bone)):
            draw_back(pile, k * 4.0, y + k * 2.0, 10.0, label=f"the boneyard: {_plural(bone, 'tile')}")
        words = f"Boneyard: {_plural(bone, 'tile')} to draw"
    else:
        words = "Boneyard: empty"
    if just[0] == "drew":
        drew = f"{just[1]} just drew {just[2]} (now in their rack)"
        if room is None:
            words += f" · {drew}"
        else:
            notes.append(drew + ".")
    svg.text(pile, 30 if bone else 0, y + 16, words, font_size=legible(12, scale), fill=TEXT,
             class_="boneyard-label")
    height = y + 26
    return Board(group, wide, height, tuple(notes))


draw = for_room(_draw)


def board(state: CastleRockHand, last: Move | None) -> Board:
    return draw(scene(state, last))
