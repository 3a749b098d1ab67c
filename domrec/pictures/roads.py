"""Domino Roads: the dice, each side's roads, the bridges and road-blocks, the piles.

At the top, the last toss as two dice with pips, the play total and whose turn it is (an unused
toss is faded and says who may reuse it).  Below, a band per side (NS and EW, or each of three
players): a road is a row, named on the left, its starter then its spans as the engine holds them
(touching halves meet; the road shows its right-most half).  A road-block stands upright at the end
of the road it blocks, tinted ``MARKED``; two joined roads sit one above the other, shifted so the
bridged halves line up, with the 0-0 upright between them.  Three players' piles come last, next
top-up first (face down when an open hand does not know them).  The tile just played is ``LAST``.

Rows rather than a map of the table: a record says how roads are built, not where on the table
they lie, and rows make the one thing that matters readable at a glance, the number each road
shows against the dice.  The stocks are the players' racks, drawn by the shared frame.

On a wide picture a road's column gives its name and length (blocked and joined are drawn: the
road-block standing at its end, the bridge; the tooltip says them too), every word at least
``MIN_TEXT`` px as shown.  Drawn for a phone's room there is no names' column: each road's name and length stand on a line
above it (the lower of two joined roads: below it), each pile's seat above the pile, and what
the dice are worth is a note; a road longer than the room is scaled to it, its words enlarged by
as much.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domrec.errors import clip
from domrec.games.roads import PARTNER, ROLL, Road, RoadsHand
from domrec.pictures import Board, for_room, legible, svg
from domrec.pictures.tiles import FACE, INK, LAST, MARKED, PIPS, draw_back, draw_tile
from domrec.record import Block, Bridge, Move, Reuse, Span, Starter

UNIT = 24.0                  # the side of a half on a road
STEP = 2 * UNIT + 2          # from one road tile to the next
LABEL_W = 96.0               # the road names' column
ROW_GAP = 12.0               # between two roads that are not joined
BRIDGE = 0.75 * UNIT         # a bridge's half: the 0-0 standing between two joined roads
BLOCK = 0.7 * UNIT           # a road-block's half: a double standing across the road's end
DIE = 30.0
PILE_UNIT = 16.0
WHITE = "#fff"
PALE = "#dcefe0"             # secondary text on the felt


def _die(parent: ET.Element, value: int, x: float, y: float, faded: bool) -> None:
    """One die showing ``value`` as pips (``g.die`` holding ``circle.pip``: the tests count them)."""
    die = svg.sub(parent, "g", class_="die", data_value=value, opacity="0.55" if faded else None)
    svg.sub(die, "rect", x=x, y=y, width=DIE, height=DIE, rx=DIE * 0.18, fill=WHITE, stroke=INK, stroke_width=1.2)
    step = DIE / 4
    for c, r in PIPS.get(value, ()):
        svg.sub(die, "circle", class_="pip", cx=x + step * (c + 1), cy=y + step * (r + 1), r=DIE * 0.08, fill=INK)


def _dice_words(state: RoadsHand, last: Move | None) -> str:
    """Whose dice, and what the toss is worth now, as ``render()`` says it, for a club player."""
    nxt = state.next_roller_now()
    if not state.turn_no:
        return f"No dice rolled yet: {nxt} rolls first." if nxt else "No dice rolled yet."
    total = f"total {state.total}"
    if state.over:
        return f"Last toss: {total}. Hand over: {state.out_seat} went out."
    if state.phase == ROLL:
        if state.used:
            return f"Last toss: {total}, used. {nxt} rolls next."
        return f"Unused toss: {total}. {nxt} may reuse it or roll again."
    took = "reused the toss" if isinstance(last, Reuse) and last.seat == state.roller else "has the dice"
    who = state.to_move if state.phase == PARTNER else state.roller
    return f"Turn {state.turn_no}: {state.roller} {took}, {total}; {who} playing."


def _draw_dice(group: ET.Element, scene: dict, scale: float, wide: bool) -> tuple[float, float]:
    """The dice and their total, and (on a wide picture: ``wide``) what they are worth in words."""
    dice = svg.sub(group, "g", class_="dice", data_total=scene["total"] if scene["dice"] else None)
    x = 0.0
    faded = scene["faded"]
    if scene["dice"] is not None:
        if faded:
            dice.set("class", "dice unused")
        for value in scene["dice"]:
            _die(dice, value, x, 0, faded)
            x += DIE + 6
        svg.text(dice, x + 4, 20, f"= {scene['total']}", font_size=legible(18, scale), font_weight="bold",
                 fill=WHITE, class_="total")
        x += 56
    if not wide:
        return x, DIE
    words = scene["words"]
    svg.text(dice, x, 20, words, font_size=legible(13, scale), fill=WHITE, class_="dice-words")
    return x + 6.6 * len(words), DIE


def _last_tile(state: RoadsHand, last: Move | None) -> list | None:
    """Which tile on the table the last move laid: (kind, the road's name, or the two joined roads' names)."""
    if isinstance(last, (Starter, Span, Block)):
        road = state.roads.get(last.road)
        kind = "starter" if isinstance(last, Starter) else "span" if isinstance(last, Span) else "block"
        return [kind, road.name if road is not None else None]
    if isinstance(last, Bridge):
        return ["bridge", sorted({j.road for j in last.join})]
    return None


def _tile(parent: ET.Element, a: int, b: int, x: float, y: float, size: float, label: str, css: str,
          last: bool, vertical: bool = False, fill: str = FACE) -> None:
    draw_tile(parent, a, b, x, y, size, vertical=vertical, fill=LAST if last else fill,
              css=(css + " last") if last else css, label=label)


def _named(a: int, b: int) -> str:
    """A tile as it is named (high half first), from its two halves in any order."""
    return f"{max(a, b)}-{min(a, b)}"


def _half_x(road: dict, span: int, half: int) -> float:
    """Where, from the road's first tile, the middle of the half a bridge touches lies."""
    _, out = road["spans"][span - 1]
    return span * STEP + (1.5 * UNIT if half == out else 0.5 * UNIT)


def _label_x(size: float, name: str) -> float:
    """Where the words after a name on a line of its own start (a bold name at ``size``)."""
    return size * (0.75 * len(name) + 0.6)


def _draw_road(parent: ET.Element, road: dict, x: float, y: float, hot: list | None, scale: float,
               label: float | None) -> float:
    """One road as a row from (x, y), its name and length in the column on its left (``label`` None: a
    wide picture's), or on a line whose baseline is at ``label`` (a phone's room, the name and all its
    details); returns where it ends on the right."""
    kind, target = hot if hot else (None, None)
    mine = kind != "bridge" and target is not None and target == road["name"]
    name = road["name"]
    details = [f"length {road['length']}"] + (["blocked"] if road["blocked"] else []) + (
        [f"joined to {clip(road['joined'], 20)}"] if road["joined"] is not None else [])
    group = svg.sub(parent, "g", class_="road", data_road=name, data_side=road["side"], data_length=road["length"],
                    data_spans=len(road["spans"]), data_blocked="yes" if road["blocked"] else "no",
                    data_joined=road["joined"])
    svg.title(group, f"road {clip(name, 30)} of {road['side']}: " + ", ".join(details))
    short = f"length {road['length']}" + (", blocked" if road["blocked"] else ", joined" if road["joined"] else "")
    if label is None:  # (the column is 96 px: "length 12, blocked" at 11 px is wider)
        size, small = legible(13, scale), legible(9.5, scale)
        svg.text(group, 0, y + size - 2, clip(name, 8), font_size=size, font_weight="bold", fill=WHITE,
                 class_="road-name")
        svg.text(group, 0, y + size + small - 1, f"length {road['length']}", font_size=small, fill=PALE,
                 class_="road-details")
    else:
        size = legible(13, scale)
        svg.text(group, 0, label, clip(name, 8), font_size=size, font_weight="bold", fill=WHITE, class_="road-name")
        svg.text(group, _label_x(size, clip(name, 8)), label, short, font_size=legible(9.5, scale), fill=PALE,
                 class_="road-details")
    other, facing = road["starter"]
    _tile(group, other, facing, x, y, UNIT, f"starter {_named(other, facing)} of {clip(name, 30)}, facing "
          f"{facing}", "starter", mine and kind == "starter")
    cx = x + STEP
    count = len(road["spans"])
    for i, (touch, out) in enumerate(road["spans"], 1):
        _tile(group, touch, out, cx, y, UNIT, f"span {i} of {clip(name, 30)}: {_named(touch, out)}", "span",
              mine and kind == "span" and i == count)
        cx += STEP
    end = cx - 2
    if road["block"] is not None:
        high, low = road["block"]
        _tile(group, high, low, end + 4, y + UNIT / 2 - BLOCK, BLOCK, f"road-block {high}-{low} on "
              f"{clip(name, 30)}", "block", mine and kind == "block", vertical=True, fill=MARKED)
        end += 4 + BLOCK
    return end


def _draw_side(parent: ET.Element, scene: dict, side: str, y: float, scale: float,
               wide: bool) -> tuple[float, float]:
    """A side's band: its heading and its roads, joined pairs together.  Returns (width, bottom)."""
    band = svg.sub(parent, "g", class_="side", data_side=side)
    roads = scene["roads"][side]
    hot = scene["hot"]
    by_name = {r["name"]: r for rs in scene["roads"].values() for r in rs}
    if scene["four"]:
        heading = f"{side} roads ({side[0]} and {side[1]})"
    else:
        heading = f"{side}'s roads"
    heading += f": {len(roads)}" if roads else ": none yet"
    svg.text(band, 0, y + 14, heading, font_size=legible(14, scale), font_weight="bold", fill=WHITE,
             class_="side-heading")
    y += 22 if wide else legible(14, scale) + 8
    width = 7.5 * len(heading)
    left = LABEL_W if wide else 0.0
    line = 0.0 if wide else legible(13, scale) + 5  # a road's line of words, with a room
    placed: set[str] = set()
    for road in roads:
        if road["name"] in placed:
            continue
        placed.add(road["name"])
        partner = by_name.get(road["joined"]) if road["joined"] is not None else None
        if partner is None or road["bridge"] is None or partner["bridge"] is None:
            width = max(width, _draw_road(band, road, left, y + line, hot, scale, None if wide else y + line - 5))
            y += line + UNIT + ROW_GAP
            continue
        placed.add(partner["name"])
        ha = _half_x(road, *road["bridge"])
        hb = _half_x(partner, *partner["bridge"])
        shift = min(ha, hb)
        xa, xb = left + hb - shift, left + ha - shift  # so that xa + ha == xb + hb
        pair = svg.sub(band, "g", class_="joined", data_roads=f"{road['name']} {partner['name']}")
        y += line
        width = max(width, _draw_road(pair, road, xa, y, hot, scale, None if wide else y - 5))
        below = y + UNIT + 2 * BRIDGE
        kind, target = hot if hot else (None, None)
        (span_a, half_a), (span_b, half_b) = road["bridge"], partner["bridge"]
        bridge = svg.sub(pair, "g", class_="bridge", data_join=f"{road['name']}:{span_a}:{half_a} "
                         f"{partner['name']}:{span_b}:{half_b}")
        _tile(bridge, 0, 0, xa + ha - BRIDGE / 2, y + UNIT, BRIDGE,
              f"bridge 0-0 joining the {half_a} of span {span_a} of {clip(road['name'], 30)} to "
              f"the {half_b} of span {span_b} of {clip(partner['name'], 30)}",
              "bridge-tile", kind == "bridge" and set(target) == {road["name"], partner["name"]}, vertical=True)
        width = max(width, _draw_road(pair, partner, xb, below, hot, scale,
                                      None if wide else below + UNIT + line - 3))
        y = below + UNIT + line + ROW_GAP
    return width, y


def _draw_piles(parent: ET.Element, scene: dict, y: float, scale: float, wide: bool) -> tuple[float, float]:
    """Three players: each pile in top-up order (face down when an open hand does not know it), its
    seat on its left (``wide``: a wide picture's), or above it (a phone's room)."""
    group = svg.sub(parent, "g", class_="piles")
    svg.text(group, 0, y + 14, "Piles (next top-up first)", font_size=legible(14, scale), font_weight="bold",
             fill=WHITE, class_="side-heading")
    y += 22 if wide else legible(14, scale) + 8
    width = 180.0
    for seat in scene["seats"]:
        pile = scene["piles"].get(seat, [])
        row = svg.sub(group, "g", class_="pile", data_seat=seat, data_tiles=len(pile))
        size = legible(13, scale)
        svg.text(row, 0, y + 12 if wide else y + size, clip(seat, 8), font_size=size, font_weight="bold",
                 fill=WHITE, class_="pile-seat")
        x = LABEL_W
        if not wide:
            x = _label_x(size, clip(seat, 8)) if not pile else 0.0
            y += size + 4 if pile else size - 12
        if not pile:
            svg.text(row, x, y + 12, "empty", font_size=legible(12, scale), fill=PALE)
        for i, t in enumerate(pile):
            if t is None:
                draw_back(row, x, y, PILE_UNIT, vertical=False, label=f"{seat}'s pile, tile {i + 1}: not known")
            else:
                draw_tile(row, t[0], t[1], x, y, PILE_UNIT, label=f"{seat}'s pile, tile {i + 1}: {t[0]}-{t[1]}")
            x += 2 * PILE_UNIT + 3
        width = max(width, x)
        y += PILE_UNIT + 6
    return width, y


def _summary(scene: dict) -> str:
    parts = []
    for side in scene["sides"]:
        roads = scene["roads"][side]
        joined = sum(1 for r in roads if r["joined"] is not None) // 2
        blocked = sum(1 for r in roads if r["block"] is not None)
        bits = ([f"{joined} joined pair{'s' if joined > 1 else ''}"] if joined else []) + (
            [f"{blocked} blocked"] if blocked else [])
        parts.append(f"{side} {len(roads)}" + (f" ({', '.join(bits)})" if bits else ""))
    return "Roads: " + " · ".join(parts) + "."


def _road(road: Road) -> dict:
    return {"name": road.name, "side": road.side, "length": road.length, "blocked": road.blocked,
            "joined": road.joined.name if road.joined is not None else None,
            "starter": [road.starter.other(road.facing), road.facing],
            "spans": [[touch, out] for _, touch, out in road.spans],
            "block": [road.block_tile.high, road.block_tile.low] if road.block_tile is not None else None,
            "bridge": list(road.bridge_at) if road.bridge_at is not None else None}


def scene(state: RoadsHand, last: Move | None) -> dict:
    """What the picture shows, as plain values: the dice and what they are worth now (in words),
    each side's roads (starter, spans, block, bridge), the tile just laid, the piles."""
    return {"dice": list(state.dice) if state.dice is not None else None, "total": state.total,
            "faded": state.dice is not None and state.phase == ROLL and not state.used and not state.over,
            "words": _dice_words(state, last), "four": state.four, "sides": list(state.sides),
            "roads": {side: [_road(r) for r in state.side_roads[side]] for side in state.sides},
            "hot": _last_tile(state, last), "seats": list(state.seats),
            "piles": {seat: [[t.high, t.low] if t is not None else None for t in pile]
                      for seat, pile in state.piles.items()} if state.piles else None}


def _draw(scene: dict, room: float | None, scale: float) -> Board:
    """The dice, the roads and the piles of :func:`scene`, for ``room`` when one is given (the replay
    page's script draws them the same way: roads.js)."""
    group = svg.element("g", class_="roads")
    wide = room is None
    width, _ = _draw_dice(group, scene, scale, wide)
    y = DIE + 14
    for side in scene["sides"]:
        w, y = _draw_side(group, scene, side, y, scale, wide)
        width = max(width, w)
        y += 6
    if scene["piles"]:
        w, y = _draw_piles(group, scene, y, scale, wide)
        width = max(width, w)
    notes = (_summary(scene),) if room is None else (scene["words"], _summary(scene))
    return Board(group, max(width, 330.0 if room is None else 0.0), y, notes)


draw = for_room(_draw)


def board(state: RoadsHand, last: Move | None) -> Board:
    return draw(scene(state, last))
