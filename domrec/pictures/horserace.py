"""Horse Race: the layout tree, every double a spinner with arms on its four sides.

The layout lies as on a table: the lead in the middle, each tile against the half it matches,
every double across its arm as a spinner whose sides (along the arm) fill before its ends (across
it); an arm with no room ahead turns a corner, a boxed-in tile is set apart on a dashed line.  The
last tile set is yellow.  A white disc past each open end shows what it counts (a spinner with a
side free counts both halves: its disc is at that side); a dashed ring is a free spinner place
that adds nothing yet.  Under the board: the engine's count of the open ends and what it pegs.

Why a grid and a greedy walk: the engine keeps the layout as a tree (who was set on whom,
on a side or an end), not as places on a table, so the picture must choose the places.  The
tiles are laid in the order they were played, each where the ones before it leave room, so
a tile keeps its place among the others from one picture of the hand to the next (a replay
steps through them); the grid (half a tile's half to a cell) makes "is there room?" a few
set look-ups.  Horse Race is played with a double-six set only, so every half shows pips.

The layout is the scene's, whatever the width: drawn for a phone's room, the board is not widened
for its notes (the page writes them as text), and when it is scaled to the room the discs and
their counts are enlarged by as much, so a count still reads at the size of the page's text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Iterator

import attrs

from domrec import tiles as T
from domrec.games.horserace import HorseRaceHand, Node, peg_rule
from domrec.pictures import Board, for_room, legible, svg
from domrec.pictures.tiles import FACE, INK, LAST, draw_tile
from domrec.record import Move, Play
from domrec.tiles import Tile

#: Pixels per grid cell.  A tile's half is two cells (24 px, as in the other pictures), a tile 4 × 2.
CELL = 12.0
#: Where arms should turn (cells from the lead, either way): the board then fits the frame unscaled.
REACH_X = 30
REACH_Y = 24
#: How many straight tiles ahead make an arm's way "clear" (more room than that is not preferred).
CLEAR = 2
#: The longest note line wanted (characters), and the board is made wide enough for its notes.
NOTE_CHARS = 90
NOTE_CHAR_WIDTH = 7.2
DISC = "#ffffff"
RING = "#e8f5e9"


@attrs.frozen
class Spot:
    """An open place: the point on a tile's edge where the next tile goes, and the way it goes.

    ``ahead(a, b)`` is the point ``a`` cells along the way and ``b`` across it (to the way's
    right, turned clockwise on the page)."""

    x: int
    y: int
    dx: int
    dy: int

    def ahead(self, a: int, b: int = 0) -> tuple[int, int]:
        return self.x + a * self.dx - b * self.dy, self.y + a * self.dy + b * self.dx

    def box(self, a0: int, a1: int, b0: int, b1: int) -> tuple[int, int, int, int]:
        """The rectangle from ``a0`` to ``a1`` along the way and ``b0`` to ``b1`` across it."""
        (x0, y0), (x1, y1) = self.ahead(a0, b0), self.ahead(a1, b1)
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)

    def turned(self, side: int) -> tuple[int, int]:
        """The way across this one, to its right (``side`` 1) or left (-1)."""
        return -side * self.dy, side * self.dx

    @property
    def forward(self) -> bool:
        """Does the way run right or down (so a tile's first half, on the left or top, is the near one)?"""
        return self.dx + self.dy > 0


Rect = tuple[int, int, int, int]


@attrs.define
class Laid:
    """A tile placed on the grid, and the open places it still offers."""

    node: Node
    rect: Rect
    first: int
    second: int
    vertical: bool
    parent: int | None
    #: A non-double's open places, by the number they show.
    ends: dict[int, Spot] = attrs.Factory(dict)
    #: A double's free sides and ends, in the order they are taken.
    sides: list[Spot] = attrs.Factory(list)
    spinner_ends: list[Spot] = attrs.Factory(list)
    #: Set apart (boxed in): the open place it belongs to and where it was set instead.
    link: tuple[Spot, Spot] | None = None
    how: str = ""


@attrs.frozen
class Choice:
    """A way to lay a tile, and how good it is (higher is better, compared item by item)."""

    laid: Laid
    score: tuple[int, ...]


class Layout:
    """The tiles of a layout placed in the order they were played."""

    def __init__(self) -> None:
        self.laid: list[Laid] = []
        self.cells: dict[tuple[int, int], int] = {}
        #: Every open place's way out (the cells a tile set straight on it would take), kept clear
        #: of other arms where possible, so that a spinner's ends are not walled in by its sides.
        self.reserved: dict[Spot, Rect] = {}

    # --- room ---------------------------------------------------------------------------

    def free(self, rect: Rect, parent: int | None, gap: int = 1) -> bool:
        """Is ``rect`` empty, with ``gap`` cells to every tile but ``parent`` (so arms do not touch)?"""
        x0, y0, x1, y1 = rect
        cells = self.cells
        for x in range(x0 - gap, x1 + gap):
            for y in range(y0 - gap, y1 + gap):
                owner = cells.get((x, y))
                if owner is not None and (owner != parent or (x0 <= x < x1 and y0 <= y < y1)):
                    return False
        return True

    def blocks(self, rect: Rect, own: Spot) -> bool:
        """Would ``rect`` (with its gap) take the way out of an open place other than ``own``?"""
        x0, y0, x1, y1 = rect[0] - 1, rect[1] - 1, rect[2] + 1, rect[3] + 1
        for spot, (a0, b0, a1, b1) in self.reserved.items():
            if spot != own and a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1:
                return True
        return False

    @staticmethod
    def within(rect: Rect) -> bool:
        x0, y0, x1, y1 = rect
        return -REACH_X <= x0 and x1 <= REACH_X and -REACH_Y <= y0 and y1 <= REACH_Y

    def room(self, spot: Spot | None, own: Spot) -> int:
        """How many tiles could go on straight from ``spot`` (up to one more than is called clear),
        for a tile about to take the open place ``own``."""
        n = 0
        while spot is not None and n <= CLEAR:
            rect = spot.box(0, 4, -2, 2)  # wide enough for a double laid across
            if not self.within(rect) or not self.free(rect, None) or self.blocks(rect, own):
                break
            n += 1
            spot = Spot(*spot.ahead(4), spot.dx, spot.dy)
        return n

    # --- placing ------------------------------------------------------------------------

    def add(self, laid: Laid) -> None:
        index = len(self.laid)
        self.laid.append(laid)
        x0, y0, x1, y1 = laid.rect
        for x in range(x0, x1):
            for y in range(y0, y1):
                self.cells[(x, y)] = index
        for spot in (*laid.ends.values(), *laid.sides, *laid.spinner_ends):
            self.reserved[spot] = spot.box(0, 4, -2, 2)

    def lead(self, node: Node) -> Laid:
        t = node.tile
        if node.double:
            return Laid(node, (-1, -2, 1, 2), t.high, t.low, True, None,
                        sides=[Spot(1, 0, 1, 0), Spot(-1, 0, -1, 0)],
                        spinner_ends=[Spot(0, -2, 0, -1), Spot(0, 2, 0, 1)], how="the lead, a spinner")
        return Laid(node, (-2, -1, 2, 1), t.high, t.low, False, None,
                    ends={t.high: Spot(-2, 0, -1, 0), t.low: Spot(2, 0, 1, 0)}, how="the lead")

    def candidates(self, node: Node, spot: Spot, parent: int) -> Iterator[Laid]:
        """The ways ``node`` can lie at ``spot``: straight on, or (a non-double) turning a corner."""
        n = node.number if node.number is not None else node.tile.high
        if node.double:
            yield Laid(node, spot.box(0, 2, -2, 2), n, n, spot.dy == 0, parent,
                       sides=[Spot(*spot.ahead(2), spot.dx, spot.dy)],
                       spinner_ends=[Spot(*spot.ahead(1, -2), *spot.turned(-1)),
                                     Spot(*spot.ahead(1, 2), *spot.turned(1))])
            return
        o = node.tile.other(n)
        near_first = (n, o) if spot.forward else (o, n)
        yield Laid(node, spot.box(0, 4, -1, 1), *near_first, spot.dy != 0, parent,
                   ends={o: Spot(*spot.ahead(4), spot.dx, spot.dy)})
        for side in (1, -1):
            dx, dy = spot.turned(side)
            way = Spot(*spot.ahead(1, 3 * side), dx, dy)
            first = (n, o) if way.forward else (o, n)
            yield Laid(node, spot.box(0, 2, -1, 3) if side == 1 else spot.box(0, 2, -3, 1), *first, dy != 0,
                       parent, ends={o: way})

    def best(self, node: Node, spot: Spot, parent: int, gap: int) -> Choice | None:
        """The way to lie at ``spot`` that leaves the most room ahead, straight on when that is as good."""
        found: Choice | None = None
        for rank, laid in enumerate(self.candidates(node, spot, parent)):
            if not self.free(laid.rect, parent, gap):
                continue
            ahead = laid.sides[0] if laid.sides else next(iter(laid.ends.values()))
            room = self.room(ahead, spot)
            score = (int(not self.blocks(laid.rect, spot)), int(self.within(laid.rect)), min(room, CLEAR),
                     int(rank == 0), room, -rank)
            if found is None or score > found.score:
                found = Choice(laid, score)
        return found

    def apart(self, node: Node, spot: Spot, parent: int) -> Laid:
        """A boxed-in tile: set straight on, as near its open place as there is room."""
        for dist in range(2, 400):
            for lateral in sorted(range(-dist, dist + 1), key=lambda b: (abs(b), b)):
                moved = Spot(*spot.ahead(dist, lateral), spot.dx, spot.dy)
                laid = next(self.candidates(node, moved, parent))
                if self.free(laid.rect, None):
                    laid.link = (spot, moved)
                    return laid
        raise AssertionError("no room anywhere on an unbounded grid")  # pragma: no cover

    def join(self, node: Node, parent: int, slot: object) -> Laid:
        """Place ``node``, set on tile ``parent`` at ``slot`` ("side", "end" or the number)."""
        host = self.laid[parent]
        if isinstance(slot, int) and not host.node.double:
            spots = [host.ends.pop(slot)] if slot in host.ends else []
            how = f"set on {host.node.tile}"
        else:
            spots = host.sides if slot == "side" else host.spinner_ends
            how = f"set on {'a side' if slot == 'side' else 'an end'} of the spinner {host.node.tile}"
        if not spots:  # pragma: no cover - the engine never joins a taken place
            spots = [Spot(*host.rect[2:], 1, 0)]
        picked: tuple[int, Choice] | None = None
        for gap in (1, 0):  # touching another arm only when there is no other way
            for i, spot in enumerate(spots):
                choice = self.best(node, spot, parent, gap)
                if choice is not None and (picked is None or choice.score > picked[1].score):
                    picked = (i, choice)
            if picked is not None:
                break
        if picked is None:
            laid = self.apart(node, spots[0], parent)
            used = 0
            how += ", set apart for room (the dashed line)"
        else:
            used, laid = picked[0], picked[1].laid
        self.reserved.pop(spots[used], None)
        if not (isinstance(slot, int) and not host.node.double):
            del spots[used]
        laid.how = how
        return laid


def lay_out(state: HorseRaceHand) -> Layout:
    """Every tile on the table placed, in the order played (``state.nodes`` keeps it)."""
    layout = Layout()
    index: dict[Tile, int] = {}
    parent_of: dict[Tile, tuple[Tile, object]] = {}
    for node in state.nodes.values():
        for slot, child in node.children:
            parent_of[child.tile] = (node.tile, slot)
    for t, node in state.nodes.items():
        if t not in parent_of:
            laid = layout.lead(node)
        else:
            host, slot = parent_of[t]
            laid = layout.join(node, index[host], slot)
        index[t] = len(layout.laid)
        layout.add(laid)
    return layout


# --- drawing -------------------------------------------------------------------------------


#: What each kind of mark says (its tooltip), from the tile it belongs to and its count.
MARK_WORDS = {
    "end": "open end {count} of {tile}: counts {count}",
    "spinner": "{tile} is a spinner with a side free: it counts both halves, {count}",
    "side": "a free side of the spinner {tile} (counted with the spinner)",
    "spinner-end": "a free end of the spinner {tile}: it counts nothing until a tile is set on it",
}


@attrs.frozen
class Mark:
    """A disc (an open end and its count) or a ring (a free spinner place counting nothing).

    ``kind`` is one of :data:`MARK_WORDS`: an open end, a spinner with a side free, another
    free side of it, a free end of a spinner."""

    cx: float
    cy: float
    count: int | None
    kind: str
    tile: str

    @property
    def label(self) -> str:
        return MARK_WORDS[self.kind].format(count=self.count, tile=self.tile)


def _marks(layout: Layout, taken: set[tuple[int, int]]) -> Iterator[Mark]:
    """The open places of the layout, as the engine holds them, each placed where it is seen."""

    def place(spot: Spot, count: int | None, kind: str, tile: Tile) -> Mark:
        box = spot.box(0, 2, -1, 1)
        cells = {(x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3])}
        if not cells & taken:
            taken.update(cells)
            cx, cy = spot.ahead(1)
        else:  # the place faces a tile: the mark sits on the open half itself
            cx, cy = spot.ahead(-1)
        return Mark(cx + 0.0, cy + 0.0, count, kind, str(tile))

    for laid in layout.laid:
        node = laid.node
        t = node.tile
        if node.double:
            d = t.high
            if node.sides_free:
                free = laid.sides[:node.sides_free]
                yield place(free[0], 2 * d, "spinner", t)
                for spot in free[1:]:
                    yield place(spot, None, "side", t)
            else:
                for spot in laid.spinner_ends[:node.ends_free]:
                    yield place(spot, None, "spinner-end", t)
        else:
            for n in node.free:
                if n in laid.ends:
                    yield place(laid.ends[n], n, "end", t)


def count_parts(state: HorseRaceHand) -> list[tuple[int, str]]:
    """What each open end adds to the count, as the engine's rules say it (docs/rules/horse-race.md,
    "The count"), in the order the tiles were played."""
    parts = []
    for t, node in state.nodes.items():
        if node.double:
            if node.sides_free:
                parts.append((2 * t.high, f"{t} spinner"))
        else:
            parts.extend((n, str(t)) for n in node.free)
    return parts


def _last_tile(state: HorseRaceHand, last: Move | None) -> Tile | None:
    if type(last) is not Play:
        return None
    try:
        t = T.tile(last.play)
    except T.TileError:  # pragma: no cover - the replay refuses such a move before a picture
        return None
    return t if t in state.nodes else None


def _notes(scene: dict) -> list[str]:
    """The count as the engine sums it (what scores), the table in numbers, and what the marks mean."""
    parts = scene["parts"]
    verdict = f" = {scene['count']} ({scene['pegs']})."
    sums = " + ".join(f"{n} ({what})" for n, what in parts) or "0"
    if len(sums) > NOTE_CHARS - 24:  # many ends: the discs show which is which
        sums = " + ".join(str(n) for n, _ in parts)
    count = [f"Count of the open ends: {sums}{verdict}"]
    if len(count[0]) > NOTE_CHARS:
        count = [f"Count of the open ends: {sums}", verdict.lstrip()]
    tiles = scene["tiles"]
    spinners = [f"{t[3]}-{t[4]}" for t in tiles if t[6]]
    stock = scene["stock"]
    table = (f"{len(tiles)} tile{'' if len(tiles) == 1 else 's'} on the table"
             + (f"; spinner{'' if len(spinners) == 1 else 's'} {', '.join(spinners)}" if spinners else "")
             + f"; boneyard: {stock} tile{'' if stock == 1 else 's'}.")
    legend = "Discs: open ends and what they count"
    if any(m[2] is None for m in scene["marks"]):
        legend += "; rings: free spinner places (they add nothing)"
    return [*count, table, legend + "."]


def _extent(scene: dict, notes: list[str], room: float | None) -> tuple[float, float, float, float]:
    """The board's left and top (in cells) and its width and height (in pixels): the tiles and marks
    with a cell round them, widened (centred) when the notes under it are wider (without a room)."""
    left, top = scene["x0"], scene["y0"]
    width, height = (scene["x1"] - left) * CELL, (scene["y1"] - top) * CELL
    wanted = max(len(line) for line in notes) * NOTE_CHAR_WIDTH - 24  # the notes sit under the board
    if width < wanted and room is None:  # a small layout: widen the board (centred) so its notes stay on the picture
        left -= (wanted - width) / 2 / CELL
        width = wanted
    return left, top, width, height


def scene(state: HorseRaceHand, last: Move | None) -> dict:
    """What the picture shows, as plain values: each tile where the layout puts it (its corner in grid
    cells, upright or not, its halves, its words, a spinner or not), the dashed links, the open
    places' marks, the extent of it all in cells, and what the notes count (the engine's parts of
    the count, the count and how it pegs, the boneyard).

    The layout is worked out here, once: a tile keeps its place from one position to the next, so
    a hand's scenes differ by a tile and a few marks."""
    stock = state.stock
    if state.lead is None:
        return {"tiles": [], "stock": stock}
    layout = lay_out(state)
    marks = list(_marks(layout, set(layout.cells)))
    xs = [v for laid in layout.laid for v in (laid.rect[0], laid.rect[2])] + [m.cx + s for m in marks for s in (-1, 1)]
    ys = [v for laid in layout.laid for v in (laid.rect[1], laid.rect[3])] + [m.cy + s for m in marks for s in (-1, 1)]
    for laid in layout.laid:
        if laid.link:
            for spot in laid.link:
                xs.append(spot.x)
                ys.append(spot.y)
    newest = _last_tile(state, last)
    return {"tiles": [[*laid.rect[:2], laid.vertical, laid.first, laid.second, f"{laid.node.text()}: {laid.how}",
                       laid.node.double] for laid in layout.laid],
            "last": next((i for i, laid in enumerate(layout.laid) if laid.node.tile is newest), None),
            "links": [[laid.link[0].x, laid.link[0].y, laid.link[1].x, laid.link[1].y]
                      for laid in layout.laid if laid.link],
            "marks": [[int(m.cx), int(m.cy), m.count, m.kind, m.tile] for m in marks],
            "x0": int(min(xs)) - 1, "y0": int(min(ys)) - 1, "x1": int(max(xs)) + 1, "y1": int(max(ys)) + 1,
            "parts": [[n, what] for n, what in count_parts(state)], "count": state.count,
            "pegs": peg_rule(state.count, state.rules.celko), "stock": stock}


def _draw(scene: dict, room: float | None, scale: float) -> Board:
    """The layout of :func:`scene`, for ``room`` when one is given (the replay page's script draws it
    the same way: horserace.js)."""
    group = svg.element("g", class_="layout")
    if not scene["tiles"]:
        svg.text(group, 0, 20, "The layout is empty: the lead is still to be set.", font_size=legible(14, scale),
                 fill="#fff")
        stock = scene["stock"]
        return Board(group, 360, 28, (f"Boneyard: {stock} tile{'' if stock == 1 else 's'}.",))
    notes = _notes(scene)
    left, top, width, height = _extent(scene, notes, room)

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - left) * CELL, (y - top) * CELL

    for x1, y1, x2, y2 in scene["links"]:
        (a, b), (c, d) = px(x1, y1), px(x2, y2)
        svg.sub(group, "line", class_="link", x1=a, y1=b, x2=c, y2=d, stroke="#fff",
                stroke_width=2.0, stroke_dasharray="4 3")
    for i, (x0, y0, vertical, first, second, words, spinner) in enumerate(scene["tiles"]):
        x, y = px(x0, y0)
        is_last = i == scene["last"]
        css = " ".join(c for c in ("spinner" if spinner else "", "last" if is_last else "") if c)
        draw_tile(group, first, second, x, y, 2 * CELL, vertical=vertical, fill=LAST if is_last else FACE,
                  label=words + (" (the last tile set)" if is_last else ""), css=css)
    for cx, cy, count, kind, tile in scene["marks"]:
        _draw_mark(group, Mark(cx, cy, count, kind, tile), *px(cx, cy), scale)
    return Board(group, width, height, tuple(notes))


draw = for_room(_draw)


def board(state: HorseRaceHand, last: Move | None) -> Board:
    return draw(scene(state, last))


def _draw_mark(parent: ET.Element, mark: Mark, cx: float, cy: float, scale: float) -> None:
    if mark.count is None:
        node = svg.sub(parent, "g", class_="free-place")
        svg.title(node, mark.label)
        svg.sub(node, "circle", cx=cx, cy=cy, r=CELL * 0.55, fill="none", stroke=RING, stroke_width=1.6,
                stroke_dasharray="3 2")
        return
    node = svg.sub(parent, "g", class_="open-end", data_count=mark.count)
    svg.title(node, mark.label)
    size = legible(CELL, scale)  # a disc and its one-digit count, enlarged together on a scaled board
    svg.sub(node, "circle", cx=cx, cy=cy, r=size * 0.8, fill=DISC, stroke=INK, stroke_width=1.0)
    svg.text(node, cx, cy + size * 0.36, str(mark.count), class_="count", text_anchor="middle",
             font_size=size if mark.count < 10 else legible(CELL * 0.85, scale), font_weight="bold", fill=INK)
