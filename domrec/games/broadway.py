"""Broadway, Clark D. Rodeffer's two-dimensional partnership game (docs/rules/broadway.md).

Four players, N-S against E-W, a double-six set dealt out completely.  Tiles
are laid on a square grid: N and S lay every tile along x (east-west), E and W
along y (north-south), and a tile is legal only where at least one of its
halves touches an equal half already on the table.  Points are made as tiles
are placed (two matched segments 1, three 5, four or more 10) and every tile
still held at the end of a hand costs its partnership one point.  Seven hands
are built on 6-6 down to 0-0; a tie goes to sudden-death hands that stop the
moment one side leads by two.

Speed matters here (a replay must stay near a microsecond or two a move), so
the tableau is a flat ``bytearray`` grid, ``grid``, holding each covered cell's
pips plus one (0: empty), indexed by one integer per cell.  Reading a byte of it
by index costs a third of a dict look-up, and a move reads eight (its two cells
and their neighbours besides each other); a fresh grid is one zeroed
allocation per hand.

Cells are keyed by their place in that grid, which is centred on the lead's
first cell.  Every tile must touch the tableau, so no legal cell lies more
than 55 steps from the lead (28 tiles, each reaching at most two cells
further): the grid reaches :data:`SPAN` cells across, and a cell beyond it can
only be rejected, and is judged on its coordinates alone.  The grid has a
margin beyond that reach, so that the neighbours of every cell within it are
in the grid too and are read without a bounds check.

"Can this player play at all?" is answered from ``near`` (:meth:`BroadwayHand._near`),
every empty cell next to the tableau with the bitmask of the pips beside it: a
tile fits along an axis exactly when one of its numbers is beside some empty
cell whose neighbour on that axis is empty too (the matched half goes in the
first cell, the other half in the free neighbour), so only cells next to the
tableau ever need looking at.  Only a pass, a block and the simulator ask it,
so it is worked out when asked, not kept up to date on every move.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, NoReturn

import attrs

from domrec import tiles as T
from domrec.errors import DealError, IllegalMove, RuleViolation, SetupError, clip, pointer_token, HiddenTiles
from domrec.games import base
from domrec.games.base import HandOutcome, partnership_side
from domrec.record import Deal, Exposed, Hand, Move, Pass, Play, Record
from domrec.tiles import Tile

SET = frozenset(T.DOUBLE_SIX)
SEATS = base.PARTNERSHIP_SEATS
SIDES = base.SIDES
#: Hands in the regular game; after them a tie is settled by sudden death.
REGULAR_HANDS = 7
#: The lead a sudden-death hand needs to stop the game.
SUDDEN_DEATH_LEAD = 2
#: Points for 0, 1, 2, 3 and 4-or-more matched segments.
POINTS = (0, 0, 1, 5, 10)
#: The ways a hand ends (a hand result's ``end``).
HAND_ENDS = ("out", "blocked", "sudden-death")
#: Tiles a partnership is dealt: the most it can be left holding, one point off each.
HAND_TILES = 14
#: The most points a hand can make in play: 27 tiles besides the lead, at most 10 each.
MOST_POINTS = 27 * 10

# Rule names, as the paragraphs of docs/rules/broadway.md are titled; they appear in every message.
R_PLAYERS = "broadway: four players, two partnerships"
R_GAME = "broadway: game (the hand's double leads)"
R_DEAL = "broadway: game (the deal)"
R_ORDER = "broadway: turn order (clockwise)"
R_HOLD = "broadway: playing from hand"
R_GEOMETRY = "broadway: geometry"
R_MATCH = "broadway: matching and scoring"
R_PASS = "broadway: passing"
R_END = "broadway: end of hand"
R_EXPOSED = "broadway: exposed tile"
R_WIN = "broadway: winning (sudden death)"

Cell = tuple[int, int]

#: The cells within reach: a square SPAN cells a side, HALF of them west and south of the lead's
#: first cell.  No cell beyond can touch the tableau (at most 55 steps from the lead).  A power
#: of two, so that one test tells whether four numbers all lie in 0 … SPAN - 1 (see apply).
SPAN = 128
HALF = SPAN // 2
#: Cells of the grid beyond reach on every side: a cell's neighbours, and theirs along an axis.
MARGIN = 2
#: The grid's width: a cell's key is ``BASE + u * STRIDE + v`` for a cell (u, v) steps east and
#: north of the corner of the reach (:attr:`BroadwayHand.corner`).
STRIDE = SPAN + 2 * MARGIN
BASE = MARGIN * STRIDE + MARGIN
#: Points by matched segments (a cell has three neighbours besides the tile's other half: at most 6).
POINTS_BY_MATCHES = (0, 0, 1, 5, 10, 10, 10)

#: The axis a seat lays its tiles along: the step from a tile's first cell to its second.
AXIS: dict[str, Cell] = {"N": (1, 0), "S": (1, 0), "E": (0, 1), "W": (0, 1)}
AXIS_NAME = {(1, 0): "along x (east-west)", (0, 1): "along y (north-south)"}
#: The key step along each seat's axis, and both directions of it.
STEP: dict[str, int] = {s: dx * STRIDE + dy for s, (dx, dy) in AXIS.items()}
#: The key step along each seat's axis and the one across it.
STEP_ACROSS: dict[str, tuple[int, int]] = {s: (k, STRIDE + 1 - k) for s, k in STEP.items()}
NEXT = {s: base.seat_after(SEATS, s) for s in SEATS}
SIDE = {s: partnership_side(s) for s in SEATS}
OPPONENTS = {"N": ("E", "W"), "S": ("E", "W"), "E": ("N", "S"), "W": ("N", "S")}
OTHER_SIDE = {"NS": "EW", "EW": "NS"}

_HALVES: dict[str, tuple[int, int, Tile]] = {}


def _halves(text: str) -> tuple[int, int, Tile]:
    """The written halves of a tile string and its tile (cached: the replay's hot path)."""
    found = _HALVES.get(text)
    if found is None:
        a, b = T.halves(text)
        found = _HALVES[text] = (a, b, T.make(a, b))
    return found


#: The doubles the regular hands are built on, in order.
DOUBLES = tuple(T.make(n, n) for n in range(6, -1, -1))


def double_for(hand_no: int) -> Tile:
    """The double hand ``hand_no`` (1-based) is built on: 6-6 … 0-0, then again from 6-6."""
    return DOUBLES[(hand_no - 1) % REGULAR_HANDS]


def points_for(matches: int) -> int:
    """Matched segments to points: 1 → 0, 2 → 1, 3 → 5, 4 or more → 10."""
    return POINTS[matches if matches < 4 else 4]


def cell_text(c: Cell) -> str:
    return f"({c[0]},{c[1]})"


def cells_text(c1: Cell, c2: Cell) -> str:
    return f"({c1[0]},{c1[1]})-({c2[0]},{c2[1]})"


@attrs.frozen
class Placement:
    """One tile on the table: which tile, where each number lies, who laid it and what it matched."""

    tile: Tile
    first: Cell
    first_pips: int
    second: Cell
    second_pips: int
    seat: str
    matches: int
    penalty: bool = False


class BroadwayHand:
    """One hand: the tableau, the four hands, whose turn, the points made so far."""

    #: A hand whose deal is known (see :class:`OpenBroadwayHand` for one whose deal is not).
    open = False

    #: What :meth:`position_key` leaves out: the caches the checks keep (each made again from the
    #: grid and the tiles laid where it is missing).
    position_skip = frozenset({"_legal_cache", "_legal_points", "_near_map", "_near_at",
                               "_blocked_at", "_blocked", "_axis_pips"})

    def position_key(self) -> tuple:
        """What decides the rest of the hand, as a value: two states with equal keys accept the
        same moves from here on, with the same points and the same end (the whole state but its
        caches), so that the DGN reader reads a hand's equal positions once
        (:mod:`domrec.notation.readings`)."""
        return base.state_key(self, self.position_skip)

    def clone(self, memo: dict[int, Any] | None = None) -> "BroadwayHand":
        """A copy of this hand state whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, hands: dict[str, set[Tile]], leader: str, lead: Tile,
                 totals: dict[str, int] | None) -> None:
        self.hands = hands
        self.leader = leader
        self.lead = lead
        #: The match totals before this hand during sudden death (``None`` in the regular hands).
        self.sudden_totals = totals
        self.to_move: str | None = leader
        #: The lead's first cell, and the corner of the cells within reach (see SPAN): the
        #: origin of the internal cell keys.
        self.origin: Cell = (0, 0)
        self.corner: Cell = (-HALF, -HALF)
        #: The tableau: by cell key, the pips of a covered cell plus one; 0 for an empty cell.
        self.grid = bytearray(STRIDE * STRIDE)
        #: Tiles laid, in order, as plain tuples (the fields of :class:`Placement`): the hot path
        #: builds no objects; :attr:`placements` gives them as values.
        self._laid: list[tuple[Tile, int, int, int, int, str, int, bool]] = []
        self.points = {"NS": 0, "EW": 0}
        self.face_up: dict[str, set[Tile]] = {"N": set(), "E": set(), "S": set(), "W": set()}
        #: An exposed tile waiting for the opponents' penalty play: (owner, tile).
        self.pending: tuple[str, Tile] | None = None
        self.passes = 0  # passes in a row since the last tile was laid
        self.held = sum(map(len, hands.values()))
        self._end: str | None = None
        self._blocked_at = -1  # len(placements) when the block check last ran
        self._blocked = False
        #: Each axis's step -> the numbers a tile laid along it can match (:meth:`_playable_pips`),
        #: as the block check last worked them out (for :meth:`only_pass`).
        self._axis_pips: dict[int, int] = {}
        self._near_at = 0  # how many of the tiles laid ``near`` last took in (see _near)
        self._near_map: dict[int, int] = {}
        self._legal_cache: dict[tuple, Play] = {}
        #: For the moves of the last legal_moves() list (by id): (points, occupied neighbours).
        self._legal_points: dict[int, tuple[int, int]] = {}

    # --- the state the protocol reads -------------------------------------------------

    @property
    def over(self) -> bool:
        """Out, stopped by sudden death, or blocked (nobody holding tiles can lay one)."""
        if self._end is not None:
            return True
        return self._is_blocked()

    @property
    def end(self) -> str | None:
        if self._end is not None:
            return self._end
        return "blocked" if self._is_blocked() else None

    def _is_blocked(self) -> bool:
        """Nobody can play: closing passes may then be written or left out (docs/format.md)."""
        laid = len(self._laid)
        if not laid or self.pending is not None:
            return False
        if self._blocked_at != laid:
            self._blocked_at = laid
            # The player to move's axis first: they can most often lay a tile, and then the
            # table is not blocked and the other axis is not worked out (it is asked every move).
            self._axis_pips = {}
            hands, can = self.hands, self._axis_can
            first = self.to_move
            blocked = True
            for s in (first, *hands) if first is not None else hands:
                held = hands[s]
                if held and _fits_mask(held, can(STEP[s])):
                    blocked = False
                    break
            self._blocked = blocked
        return self._blocked

    def _axis_can(self, step: int) -> int:
        """:meth:`_playable_pips` of ``step``'s axis, worked out once for the tiles laid (the block
        check's, and :meth:`only_pass`'s, which asks every move of a walk)."""
        can = self._axis_pips.get(step)
        if can is None:
            can = self._axis_pips[step] = self._playable_pips(step)
        return can

    # --- the tableau --------------------------------------------------------------

    # Keys and cells: the writer's coordinates are only looked at on the way in and out.

    def key(self, c: Cell) -> int | None:
        """The internal key of cell ``c``; ``None`` when it is too far away to touch the tableau."""
        u, v = c[0] - self.corner[0], c[1] - self.corner[1]
        if 0 <= u < SPAN and 0 <= v < SPAN:
            return BASE + u * STRIDE + v
        return None

    def cell(self, k: int) -> Cell:
        u, v = divmod(k - BASE, STRIDE)
        return (self.corner[0] + u, self.corner[1] + v)

    @property
    def board(self) -> dict[int, int]:
        """Covered cells (by key) -> pips, in the order they were covered."""
        board: dict[int, int] = {}
        for _, k1, a, k2, b, *_ in self._laid:
            board[k1] = a
            board[k2] = b
        return board

    @property
    def near(self) -> dict[int, int]:
        """Empty cells next to the tableau (by key) -> bitmask of the pips beside them."""
        return self._near()

    def _near(self) -> dict[int, int]:
        """``near``, brought up to date with the tiles laid since it was last asked for.

        A copy takes in each new tile (the one just given out is never changed:
        a caller may hold it).  Its cells are no longer near; its empty
        neighbours are, with its numbers.  Taking in several tiles at once, a
        neighbour covered by a later one is simply left out: the map is the
        one a tile at a time would give, in the same order (a cell's place is
        where a tile first laid beside it put it), and the simulator's legal
        moves, and so its games, follow that order."""
        laid = self._laid
        done = self._near_at
        if done != len(laid):
            grid = self.grid
            near = dict(self._near_map)
            get = near.get
            for _, k1, a, k2, b, *_ in laid[done:]:
                near.pop(k1, None)
                near.pop(k2, None)
                for k, bit in ((k1, 1 << a), (k2, 1 << b)):
                    for n in (k + STRIDE, k - STRIDE, k + 1, k - 1):
                        if not grid[n]:
                            near[n] = get(n, 0) | bit
            self._near_map, self._near_at = near, len(laid)
        return self._near_map

    def _playable_pips(self, step: int) -> int:
        """Bitmask of the numbers a tile laid along ``step``'s axis can match somewhere.

        A half matches beside an empty cell that has a neighbour with its number;
        the tile fits there when the cell's neighbour along the axis (either way)
        is empty for the other half.  Only cells next to the tableau can matter."""
        grid = self.grid
        mask = 0
        for k, m in self._near().items():
            if m & ~mask and (not grid[k + step] or not grid[k - step]):
                mask |= m
        return mask

    def _matches(self, k1: int, a: int, k2: int, b: int) -> int:
        """Matched segments of ``a`` at ``k1`` and ``b`` at ``k2`` (both cells empty).

        The tile's own other cell is empty, so it never counts: all four
        neighbours of each cell can be looked at.  (The grid holds pips plus one.)"""
        g = self.grid
        a += 1
        b += 1
        return ((g[k1 + STRIDE] == a) + (g[k1 - STRIDE] == a) + (g[k1 + 1] == a) + (g[k1 - 1] == a)
                + (g[k2 + STRIDE] == b) + (g[k2 - STRIDE] == b) + (g[k2 + 1] == b) + (g[k2 - 1] == b))

    def _lay(self, k1: int, a: int, k2: int, b: int) -> None:
        grid = self.grid
        grid[k1] = a + 1
        grid[k2] = b + 1

    @property
    def placements(self) -> list[Placement]:
        """The tiles on the table in the order they were laid."""
        cell = self.cell
        return [Placement(t, cell(k1), a, cell(k2), b, seat, matches, penalty)
                for t, k1, a, k2, b, seat, matches, penalty in self._laid]

    def _find_fit(self, tiles: Iterable[Tile], seat: str) -> tuple[str, Cell, Cell] | None:
        """One placement of one of ``tiles`` by ``seat`` (for messages): tile text, cells; or None."""
        grid, near = self.grid, self._near()
        step = STEP[seat]
        for t in sorted(tiles, key=lambda t: (-t.high, -t.low)):
            for k in sorted(near):
                m = near[k]
                for v in (t.high, t.low):
                    if not m >> v & 1:
                        continue
                    for p in (k + step, k - step):
                        if not grid[p]:
                            w = t.other(v)
                            if k < p:
                                return f"{v}-{w}", self.cell(k), self.cell(p)
                            return f"{w}-{v}", self.cell(p), self.cell(k)
        return None

    # --- moves --------------------------------------------------------------------

    def apply(self, move: Move) -> int:
        """Check and make one move; the points it makes.

        Nearly every move is a tile laid in turn (``seat`` is the player to move, no
        exposure waits), and that move is written out here with local names, as the
        replay's per-move cost: the tile look-up, the geometry (checked on keys;
        :meth:`_cells` says what is wrong only when that fails), the count of matched
        segments (:meth:`_matches`), laying the tile (:meth:`_lay`), the score and the
        turn (:meth:`_score`, :meth:`_advance`).  A change to one of those rules must
        be made in both places.  Every other move is :meth:`_other_move`'s."""
        seat = move.seat
        # (to_move is None once the hand is over, so a move built in Python with no seat is not in turn.)
        if (type(move) is not Play or seat != self.to_move or seat is None or self.pending is not None
                or move.penalty):
            return self._other_move(move)
        text = move.play
        found = _HALVES.get(text)
        a, b, t = found if found is not None else _halves(text)
        hand = self.hands[seat]
        if t not in hand:
            raise IllegalMove(self._not_held(seat, t, text), R_HOLD, "/play")
        laid = self._laid
        (x1, y1), (x2, y2) = move.at
        if laid:
            cx, cy = self.corner
        else:
            if t is not self.lead:
                raise IllegalMove(f"this hand is built on {self.lead}: {seat} must lead it, not {text}",
                                  R_GAME, "/play")
            self.origin = x1, y1
            self.corner = cx, cy = x1 - HALF, y1 - HALF
        u1, v1, u2, v2 = x1 - cx, y1 - cy, x2 - cx, y2 - cy
        g = self.grid
        # Both cells within reach: all four numbers in 0 … SPAN - 1, exactly when their bitwise or
        # is (SPAN a power of two; a negative number makes the or negative): key()'s test, at once.
        if 0 <= u1 | v1 | u2 | v2 < SPAN:
            k1 = BASE + u1 * STRIDE + v1
            k2 = BASE + u2 * STRIDE + v2
            d = k2 - k1
            step, across = STEP_ACROSS[seat]
            if (d != step and d != -step) or g[k1] or g[k2]:
                self._cells(seat, move)  # says which part of the geometry is broken
        else:
            self._cells(seat, move)
            raise self._no_match(move)  # right shape, but far from every tile on the table
        # The grid holds pips plus one.  The tile's own other cell is empty, so only each cell's
        # three other neighbours are read: beyond it along the axis (d), and on either side.
        a1, b1 = a + 1, b + 1
        if laid:
            matches = ((g[k1 - d] == a1) + (g[k1 + across] == a1) + (g[k1 - across] == a1)
                       + (g[k2 + d] == b1) + (g[k2 + across] == b1) + (g[k2 - across] == b1))
            if not matches:
                raise self._no_match(move)
        else:
            matches = 0
        g[k1] = a1
        g[k2] = b1
        laid.append((t, k1, a, k2, b, seat, matches, False))
        hand.discard(t)
        face_up = self.face_up[seat]
        if face_up:
            face_up.discard(t)
        self.held -= 1
        self.passes = 0
        points = POINTS_BY_MATCHES[matches]
        if points:
            self.points[SIDE[seat]] += points
            if self.sudden_totals is not None and self._sudden_death():
                return points
        if not self.held:
            self._end = "out"
            self.to_move = None
        else:
            hands = self.hands
            nxt = NEXT[seat]
            while not hands[nxt]:
                nxt = NEXT[nxt]
            self.to_move = nxt
        return points

    def _other_move(self, move: Move) -> int:
        """A seat out of turn, a pass, an exposure, a penalty play, a move after the end."""
        kind = type(move)
        seat = move.seat
        if seat not in AXIS:
            raise IllegalMove(f"{seat} is not a seat at this table (seats: N, E, S, W)", R_ORDER, "/seat")
        if self._end is not None:
            raise IllegalMove(self._over_message(), R_END)
        if kind is Play:
            if self.pending is not None or move.penalty:
                return self._penalty_play(move)
            self._wrong_turn(seat)  # (the player to move laying a tile is apply's own)
        if kind is Pass:
            return self._pass(seat)
        if kind is Exposed:
            return self._expose(move)
        raise IllegalMove("a Broadway move is a placement, a pass, or an exposed tile",
                          R_GEOMETRY, base.kind_pointer(move))

    def _over_message(self) -> str:
        if self._end == "out":
            return "the hand is already over: every tile has been played"
        if self._end == "sudden-death":
            return "the game is already over: a partnership leads by two in sudden death"
        return "the hand is already over: nobody can play (blocked)"

    def _wrong_turn(self, seat: str) -> NoReturn:
        if not self._laid:
            raise IllegalMove(f"{self.leader} holds {self.lead} and leads this hand, not {seat}", R_GAME, "/seat")
        if not self.hands[seat]:
            raise IllegalMove(f"{seat} has no tiles left and is skipped; it is {self.to_move}'s turn", R_ORDER, "/seat")
        raise IllegalMove(f"it is {self.to_move}'s turn, not {seat}'s (play goes clockwise N → E → S → W)",
                          R_ORDER, "/seat")

    def _cells(self, seat: str, move: Play) -> tuple[int | None, int | None]:
        """The move's two cell keys, checked against the geometry (adjacent, the seat's axis, empty).

        A key is ``None`` for a cell too far away to touch the tableau."""
        c1, c2 = move.at
        dx, dy = c2[0] - c1[0], c2[1] - c1[1]
        if c1 == c2:
            raise IllegalMove(f"{move.play} is given the same cell {cell_text(c1)} twice: a tile covers two "
                              f"neighbouring cells", R_GEOMETRY, "/at/1")
        if abs(dx) + abs(dy) != 1:
            raise IllegalMove(f"cells {cell_text(c1)} and {cell_text(c2)} are not side by side: a tile covers "
                              f"two edge-adjacent cells", R_GEOMETRY, "/at/1")
        axis = AXIS[seat]
        if (abs(dx), abs(dy)) != axis:
            raise IllegalMove(f"{seat} lays every tile {AXIS_NAME[axis]}, but {move.play} at "
                              f"{cells_text(c1, c2)} lies {AXIS_NAME[(abs(dx), abs(dy))]}", R_GEOMETRY, "/at")
        keys = self.key(c1), self.key(c2)
        for i, (c, k) in enumerate(zip((c1, c2), keys)):
            if k is not None and self.grid[k]:
                raise IllegalMove(f"cell {cell_text(c)} is already covered by {self._tile_at(k)}: {move.play} must "
                                  f"go on empty cells", R_GEOMETRY, f"/at/{i}")
        return keys

    def _tile_at(self, k: int) -> Tile:
        for laid in reversed(self._laid):
            if laid[1] == k or laid[3] == k:
                return laid[0]
        raise KeyError(k)  # unreachable: every covered cell belongs to a placement

    def _no_match(self, move: Play) -> IllegalMove:
        if self._is_blocked():
            return IllegalMove(self._over_message(), R_END)
        return IllegalMove(f"{move.play} at {cells_text(*move.at)} touches no equal half: a placement needs at "
                           f"least one matched segment", R_MATCH, "/at")

    def _score(self, side: str, points: int) -> None:
        self.points[side] += points
        if self.sudden_totals is not None:
            self._sudden_death()

    def _sudden_death(self) -> bool:
        """In a sudden-death hand, stop the game the moment a side leads by two (``True`` if so)."""
        tot = self.sudden_totals
        if tot is None:
            return False
        ns = tot["NS"] + self.points["NS"]
        ew = tot["EW"] + self.points["EW"]
        if abs(ns - ew) >= SUDDEN_DEATH_LEAD:
            self._end = "sudden-death"
            self.to_move = None
            return True
        return False

    def _advance(self, seat: str) -> None:
        """The turn passes clockwise to the next player still holding tiles."""
        if not self.held:
            self._end = "out"
            self.to_move = None
            return
        hands = self.hands
        nxt = NEXT[seat]
        while not hands[nxt]:
            nxt = NEXT[nxt]
        self.to_move = nxt

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        return _not_among(seat, t, text, self.hands)

    def _pass(self, seat: str) -> int:
        if self.pending is not None:
            owner, t = self.pending
            raise IllegalMove(f"{owner}'s exposed {t} must be played first by {' or '.join(OPPONENTS[owner])}",
                              R_EXPOSED, "/pass")
        if seat != self.to_move:
            self._wrong_turn(seat)
        if not self._laid:
            raise IllegalMove(f"{seat} leads this hand with {self.lead} and cannot pass", R_PASS, "/pass")
        forced = self._must_play(seat)
        if forced is not None:
            raise IllegalMove(forced, R_PASS, "/pass")
        holders = sum(1 for h in self.hands.values() if h)
        if self.passes >= holders:
            raise IllegalMove(_ALL_PASSED, R_END)
        self.passes += 1
        if self.open and self.passes >= holders:
            # An open hand cannot see a block in the hands: the written passes make it.
            self._end = "blocked"
            self.to_move = None
        else:
            self._advance(seat)
        return 0

    def _must_play(self, seat: str) -> str | None:
        """Why ``seat`` cannot pass (a tile of its hand fits), or ``None``."""
        hand = self.hands[seat]
        if _fits_mask(hand, self._playable_pips(STEP[seat])):
            return self._fit_message(seat, hand)
        return None

    def _fit_message(self, seat: str, tiles: Iterable[Tile]) -> str:
        """The refusal of ``seat``'s pass, naming where one of ``tiles`` (known to fit) goes."""
        text, first, second = self._find_fit(tiles, seat)  # type: ignore[misc]
        return f"{seat} cannot pass: {text} fits at {cells_text(first, second)}"

    def _expose(self, move: Exposed) -> int:
        seat = move.seat
        t = _halves(move.exposed)[2]
        if self.pending is not None:
            owner, shown = self.pending
            raise IllegalMove(f"{owner}'s exposed {shown} must be played first by "
                              f"{' or '.join(OPPONENTS[owner])}", R_EXPOSED, "/exposed")
        if self._is_blocked():
            raise IllegalMove(self._over_message(), R_END)
        if seat == self.to_move:
            raise _own_turn_exposure(seat)
        if t not in self.hands[seat]:
            raise IllegalMove(self._not_held(seat, t, move.exposed), R_EXPOSED, "/exposed")
        if t in self.face_up[seat]:
            raise IllegalMove(f"{move.exposed} already lies face up in {seat}'s hand: an exposed tile that fitted "
                              f"nowhere stays face up until it is played, and cannot be exposed again", R_EXPOSED,
                              "/exposed")
        opponents = OPPONENTS[seat]
        axis = AXIS[opponents[0]]
        fit = self._find_fit((t,), opponents[0]) if self._laid else None
        if move.unplayable:
            if fit is not None:
                text, first, second = fit
                raise IllegalMove(f"{move.exposed} is not unplayable: {' or '.join(opponents)} can lay it as "
                                  f"{text} at {cells_text(first, second)}", R_EXPOSED, "/unplayable")
            self.face_up[seat].add(t)
            return 0
        if fit is None:
            raise IllegalMove(f"{move.exposed} fits nowhere {AXIS_NAME[axis]}: record the exposure with "
                              f"\"unplayable\": true (the tile stays face up in {seat}'s hand)",
                              R_EXPOSED, "/unplayable")
        self.pending = (seat, t)
        return 0

    def _penalty_play(self, move: Play) -> int:
        seat = move.seat
        if self.pending is None:
            raise IllegalMove(f"{move.play} is marked as a penalty play, but no tile has been exposed",
                              R_EXPOSED, "/penalty")
        owner, shown = self.pending
        a, b, t = _halves(move.play)
        if not move.penalty:
            raise IllegalMove(f"{owner}'s exposed {shown} must be played now by {' or '.join(OPPONENTS[owner])}, "
                              f"marked \"penalty\": true", R_EXPOSED,
                              "/penalty" if t is shown and seat in OPPONENTS[owner] else "/play")
        if seat not in OPPONENTS[owner]:
            raise IllegalMove(f"{seat} cannot make the penalty play: {owner}'s exposed {shown} is played by an "
                              f"opponent ({' or '.join(OPPONENTS[owner])})", R_EXPOSED, "/seat")
        if t is not shown:
            raise IllegalMove(f"the penalty play must be the exposed {shown}, not {move.play}", R_EXPOSED, "/play")
        k1, k2 = self._cells(seat, move)
        if k1 is None or k2 is None:
            raise self._no_match(move)
        matches = self._matches(k1, a, k2, b)
        if not matches:
            raise self._no_match(move)
        self._lay(k1, a, k2, b)
        self._laid.append((t, k1, a, k2, b, seat, matches, True))
        self.hands[owner].discard(t)
        self.held -= 1
        self.pending = None
        self.passes = 0
        points = POINTS[matches if matches < 4 else 4]
        if points:
            self._score(SIDE[seat], points)
        if self._end is None:
            if not self.held:
                self._end, self.to_move = "out", None
            # The interrupted turn resumes; the player to move was never the owner, so still holds tiles.
        return points

    # --- for the simulator ---------------------------------------------------------

    def only_pass(self) -> bool:
        """:meth:`legal_moves` is the pass alone: the hand not over, no penalty play waiting, the
        first tile down, and no number the player to move holds matchable along their axis (the
        numbers the block check works out; no placement is listed)."""
        if self._end is not None or self.pending is not None or not self._laid or self._is_blocked():
            return False
        seat = self.to_move
        held = self.hands[seat]
        return not held or not _fits_mask(held, self._axis_can(STEP[seat]))

    def legal_moves(self) -> list[Move]:
        """Every placement on the mover's axis (both orientations), or the pass.

        Exposures are accidents, not choices, so they are not listed; while an
        exposure is pending, the list is the penalty plays of both opponents."""
        if self.over:
            return []
        self._legal_points = {}
        if self.pending is not None:
            owner, t = self.pending
            out: list[Move] = []
            for seat in OPPONENTS[owner]:
                out.extend(self._placements(seat, (t,), penalty=True))
            return out
        seat = self.to_move
        if not self._laid:
            return [Play(seat=seat, play=str(self.lead), at=((0, 0), AXIS[seat]))]
        moves = self._placements(seat, self.hands[seat], penalty=False)
        return moves or [Pass(seat=seat)]

    def _placements(self, seat: str, tiles: Iterable[Tile], penalty: bool) -> list[Move]:
        grid, near = self.grid, self._near()
        step = STEP[seat]
        seen: set[tuple[Tile, int, int]] = set()
        out: list[Move] = []
        # Sets of tiles iterate in hash order, which changes between runs: sort, so that
        # the same seed simulates the same games byte for byte.
        for t in sorted(tiles, key=_tile_order):
            hi, lo = t.high, t.low
            for c, m in near.items():
                for v in ((hi,) if hi == lo else (hi, lo)):
                    if not m >> v & 1:
                        continue
                    w = lo if v == hi else hi
                    for p in (c + step, c - step):
                        if grid[p]:
                            continue
                        # One key per placement however it was found: the cell of the high
                        # number first (for a double, the lower cell first).
                        if hi == lo:
                            key = (t, c, p) if c < p else (t, p, c)
                        else:
                            key = (t, c, p) if v == hi else (t, p, c)
                        if key in seen:
                            continue
                        seen.add(key)
                        k = self._matches(c, v, p, w)
                        around = ((grid[c + STRIDE] > 0) + (grid[c - STRIDE] > 0) + (grid[c + 1] > 0)
                                  + (grid[c - 1] > 0) + (grid[p + STRIDE] > 0) + (grid[p - STRIDE] > 0)
                                  + (grid[p + 1] > 0) + (grid[p - 1] > 0))
                        out.append(self._play(seat, v, c, w, p, k, around, penalty))
        return out

    def _play(self, seat: str, v: int, c: int, w: int, p: int, matches: int, around: int,
              penalty: bool) -> Play:
        """The move laying ``v`` at key ``c`` and ``w`` at key ``p``, cells written west/south first."""
        if p < c:
            v, c, w, p = w, p, v, c
        key = (seat, v, c, w, p, penalty)
        move = self._legal_cache.get(key)
        if move is None:
            move = self._legal_cache[key] = Play(seat=seat, play=f"{v}-{w}", at=(self.cell(c), self.cell(p)),
                                                 penalty=True if penalty else None)
        self._legal_points[id(move)] = (points_for(matches), around)
        return move

    def accident(self, rng: random.Random) -> Exposed | None:
        """A tile shown out of turn by a simulated player (see :mod:`domrec.simulate`).

        Exposures are accidents, never in :meth:`legal_moves`; the simulator asks for
        one now and then so that records hold both kinds: a tile the opponents can lay
        (their penalty play follows, from :meth:`legal_moves`) and one that fits
        nowhere (``unplayable``: it stays face up in its owner's hand).  Half the time
        the unplayable kind is looked for first, since it is rare once the table grows.
        """
        if self.over or self.pending is not None:
            return None
        seats = [s for s in SEATS if s != self.to_move and len(self.hands[s]) > len(self.face_up[s])]
        if not seats:
            return None
        seat = seats[rng.randrange(len(seats))]
        tiles = sorted(self.hands[seat] - self.face_up[seat], key=_tile_order)
        rng.shuffle(tiles)
        opponent = OPPONENTS[seat][0]
        if rng.random() < 0.5:
            for t in tiles:
                if not self._laid or self._find_fit((t,), opponent) is None:
                    return Exposed(seat=seat, exposed=str(t), unplayable=True)
        t = tiles[0]
        unplayable = not self._laid or self._find_fit((t,), opponent) is None
        return Exposed(seat=seat, exposed=str(t), unplayable=True if unplayable else None)

    def closing_passes(self) -> list[Move]:
        """The passes a record may write after a block: one round, by each player holding tiles."""
        if self._end is not None or not self._is_blocked() or self.to_move is None:
            return []
        def holder_after(seat: str) -> str:
            seat = NEXT[seat]
            while not self.hands[seat]:
                seat = NEXT[seat]
            return seat
        return base.pass_round(self.to_move, sum(1 for h in self.hands.values() if h) - self.passes, holder_after)

    def points_of(self, move: Move) -> int:
        """The points a move from the last :meth:`legal_moves` list would make."""
        return self._legal_points.get(id(move), (0, 0))[0]

    def pockets(self, move: Play) -> int:
        """How much a placement sets up multi-matches: for each empty cell beside it, how many
        of that cell's neighbours (the new tile's halves included) repeat one number."""
        a, b, _ = _halves(move.play)
        k1, k2 = self.key(move.at[0]), self.key(move.at[1])
        grid = self.grid
        laid = {k1: a, k2: b}
        gain = 0
        seen = set()
        for k in (k1, k2):
            for n in (k + STRIDE, k - STRIDE, k + 1, k - 1):
                if n in laid or grid[n] or n in seen:
                    continue
                seen.add(n)
                pips = [laid[m] if m in laid else grid[m] - 1 if grid[m] else None
                        for m in (n + STRIDE, n - STRIDE, n + 1, n - 1)]
                pips = [v for v in pips if v is not None]
                gain += max(pips.count(v) for v in pips) - 1
        return gain

    def snugness(self, move: Move) -> int:
        """How many covered cells a move from the last :meth:`legal_moves` list would touch."""
        return self._legal_points.get(id(move), (0, 0))[1]

    # --- the end of the hand --------------------------------------------------------

    def penalties(self) -> dict[str, int]:
        """Tiles still held at a natural end, by side (nothing when sudden death stopped the game)."""
        out = {"NS": 0, "EW": 0}
        if self.end == "sudden-death":
            return out
        for seat, hand in self.hands.items():
            out[SIDE[seat]] += len(hand)
        return out

    #: How the block came about, as the outcome's working says it (a known deal: nobody can play).
    _blocked_how = "blocked"

    def outcome(self) -> HandOutcome:
        # Validation never shows the working, and wording it cost a tenth of a hand's replay:
        # the scores are worked out now, the words only when explain asks for them (from
        # copies: the working is of this moment, and an open hand may go on).
        end = self.end
        # A hand played out leaves nobody holding a tile: nothing to count.
        pen = {"NS": 0, "EW": 0} if end == "out" else self.penalties()
        points = dict(self.points)
        scores = {"NS": points["NS"] - pen["NS"], "EW": points["EW"] - pen["EW"]}
        held = "  ".join(f"{s} {self._still_held(s)}" for s in SEATS if self.hands[s]) if end == "blocked" else ""
        # The last tile both emptied the hands and made the two-point lead: both words are true
        # (docs/rules/broadway.md, ruling 9); "sudden-death" is the one written.
        also = ("out",) if end == "sudden-death" and not self.held else ()
        return HandOutcome(end or "unfinished", scores, lambda: self._working(end, points, pen, scores, held), also)

    def owed(self) -> str | None:
        """The penalty play still owed, in words, or ``None``: what a record stopping here leaves undone."""
        if self.pending is None or self._end is not None:
            return None
        owner, t = self.pending
        a, b = OPPONENTS[owner]
        return f"{a} and {b} must still play the exposed {t} ({owner} showed it out of turn: the penalty play)"

    def _working(self, end: str | None, points: dict[str, int], pen: dict[str, int], scores: dict[str, int],
                 held: str) -> tuple[str, ...]:
        """The end-of-hand arithmetic in words, for explain (``held``: what is still held at a block)."""
        lines = [f"points made in play: NS {points['NS']}, EW {points['EW']}"]
        if end == "sudden-death":
            lines.append("a partnership leads by two in sudden death: the game stops at once, "
                         "no tiles are counted against anyone")
        elif end == "blocked":
            lines.append(f"{self._blocked_how}; still held: {held}")
            lines.append(f"one point off per tile held: NS −{pen['NS']}, EW −{pen['EW']}")
        elif end is None and self.open:
            # An open hand is scored as the record stands, possibly before it ends.
            lines.append("the hand is not over")
        else:
            lines.append("every tile was played: no penalties")
        lines.append(f"hand score: NS {scores['NS']}, EW {scores['EW']}")
        return tuple(lines)

    def _still_held(self, seat: str) -> str:
        """What ``seat`` still holds at a block, for the outcome's working: its tiles."""
        return T.format_tiles(self.hands[seat])

    # --- what explain shows (drawing the table is domrec/pictures/broadway.py's) ------

    def score_why(self, move: Move, points: int) -> str:
        """What the move just applied was counted, for a wrong score claim: "4-2 matches only the
        2 of 5-2 and the 4 of 4-1: 2 segments, 1 point" (docs/rules/broadway.md, matched segments:
        each equal neighbour of either half counts once).  The validator writes it after
        "W is credited 5, but"."""
        if type(move) is not Play:
            kind = "an exposed tile" if type(move) is Exposed else "a pass"
            return f"{kind} scores nothing: only a tile laid earns points"
        if not self._laid:
            return f"it scores {points}"
        t, k1, a, k2, b, _seat, matches, _ = self._laid[-1]
        if t is not _halves(move.play)[2] or POINTS_BY_MATCHES[matches] != points:
            return f"it scores {points}"
        if len(self._laid) == 1:
            return f"{move.play} is the lead: it matches nothing and scores 0"
        g = self.grid
        found = []
        for k, other, pips in ((k1, k2, a), (k2, k1, b)):
            for n in (k + STRIDE, k - STRIDE, k + 1, k - 1):
                if n != other and g[n] == pips + 1:
                    found.append(f"the {pips} of {self._tile_at(n)}")
        matched = found[0] if len(found) == 1 else ", ".join(found[:-1]) + " and " + found[-1]
        only = "only " if isinstance(move.score, int) and move.score > points else ""
        segments = f"{matches} segment{'s' if matches != 1 else ''}"
        return (f"{move.play} matches {only}{matched}: {segments}, {points} point{'s' if points != 1 else ''} "
                f"(2 segments earn 1, 3 earn 5, 4 or more 10)")

    def last_marks(self) -> tuple[set[Cell], set[Cell]]:
        """The cells of the last tile laid and of the neighbours it matched.

        A rule fact (which segments scored), so it is worked out here, once: the
        text grid of :meth:`render` and the picture both mark these cells."""
        if not self._laid:
            return set(), set()
        last = self.placements[-1]
        placed = {last.first, last.second}
        matched: set[Cell] = set()
        if last.matches:
            for c, v in ((last.first, last.first_pips), (last.second, last.second_pips)):
                x, y = c
                for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if n not in placed and self.pips_at(n) == v:
                        matched.add(n)
        return placed, matched

    def pips_at(self, c: Cell) -> int | None:
        """The number showing at cell ``c`` (``None`` for an empty cell)."""
        k = self.key(c)
        return None if k is None or not self.grid[k] else self.grid[k] - 1

    def _partners(self) -> dict[Cell, Cell]:
        out: dict[Cell, Cell] = {}
        for p in self.placements:
            out[p.first] = p.second
            out[p.second] = p.first
        return out

    def render(self) -> list[str]:
        """The tableau as a grid, north at the top: ``[5]`` the tile just laid, ``(5)`` what it matched.

        ``-`` and ``|`` join the two halves of one tile."""
        if not self._laid:
            return ["tableau: (empty)"]
        cells = {self.cell(k): v for k, v in self.board.items()}
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        placed, matched = self.last_marks()
        partner = self._partners()
        width = max(len(str(y)) for y in (y0, y1))
        lines = [" " * (width + 1) + " ".join(f"{x:^3}"[:3] for x in range(x0, x1 + 1)) + "  x"]
        for y in range(y1, y0 - 1, -1):
            row = []
            for x in range(x0, x1 + 1):
                c = (x, y)
                v = cells.get(c)
                if v is None:
                    text = " · "
                elif c in placed:
                    text = f"[{v}]"
                elif c in matched:
                    text = f"({v})"
                else:
                    text = f" {v} "
                row.append(text)
                if x < x1:
                    row.append("-" if partner.get(c) == (x + 1, y) else " ")
            lines.append(f"{y:>{width}} " + "".join(row))
            if y > y0:
                links = "".join((" | " if partner.get((x, y)) == (x, y - 1) else "   ") + " "
                                for x in range(x0, x1 + 1))
                lines.append(" " * (width + 1) + links.rstrip())
        lines.append(" " * (width + 1) + "y ↑  [n] just laid, (n) matched by it")
        shown = [f"{s} {T.format_tiles(self.face_up[s])}" for s in SEATS if self.face_up[s]]
        if shown:
            lines.append("face up (exposed, unplayable so far): " + "  ".join(shown))
        if self.pending is not None:
            owner, t = self.pending
            lines.append(f"exposed: {owner}'s {t}, to be played by {' or '.join(OPPONENTS[owner])}")
        return lines

    def holdings(self) -> dict[str, list[Tile]]:
        return {s: sorted(self.hands[s], key=lambda t: (t.high, t.low), reverse=True) for s in SEATS}

    def held_count(self, seat: str) -> int:
        """How many tiles ``seat`` holds now (face-up exposed tiles included)."""
        return len(self.hands[seat])


def _tile_order(t: Tile) -> tuple[int, int]:
    return (t.high, t.low)


def _fits_mask(tiles: Iterable[Tile], mask: int) -> bool:
    for t in tiles:
        if mask >> t.high & 1 or mask >> t.low & 1:
            return True
    return False


def _not_among(seat: str, t: Tile, text: str, hands: dict[str, Any]) -> str:
    """Why ``seat`` cannot lay ``t``: not of the set, in one of ``hands`` (another seat's), or on the table."""
    return base.not_held(seat, t, text, hands, SET, "double-six", "it is already on the table")


#: Why a pass after every player holding tiles has passed in succession is refused.
_ALL_PASSED = "the hand is already over: every player holding tiles has passed in succession"


def _own_turn_exposure(seat: str) -> IllegalMove:
    """An exposure by the player to move, which is no exposure."""
    return IllegalMove(f"it is {seat}'s own turn: a tile shown by the player to move is simply played, "
                       f"an exposure is out of turn", R_EXPOSED, "/exposed")


# --- hands whose deal is not known (format 1.1) -------------------------------------------
#
# A hand typed at the table without its deal is replayed by the same code as a known
# deal: each seat's set of tiles is replaced by an :class:`_Unseen` hand that knows only
# how many tiles the seat holds and which of them it has shown.  ``t in hand`` then means
# "the seat may hold t, as far as the tiles shown tell", and the checks of
# :class:`BroadwayHand` (turn order, geometry, matching, points, exposures, penalty plays,
# sudden death) run unchanged, with the same rule names and messages.  What needs the
# hidden tiles is overridden in :class:`OpenBroadwayHand`: whether a pass was forced, the
# automatic block, and the leader (the holder of the hand's double).  The known-deal
# replay's hot path is not touched.


class _Unseen:
    """A seat's hand in an open hand: its size, nothing else (its face-up tiles are the state's).

    Stands in for the ``set`` of tiles of a known deal: ``len`` is the number of tiles
    held, ``t in hand`` asks the state whether the seat may hold ``t``, ``discard`` counts
    a tile laid out of the hand.  It cannot be iterated: nobody knows what it holds."""

    __slots__ = ("state", "seat", "count")

    def clone(self, memo: dict[int, Any] | None = None) -> "_Unseen":
        """A copy of this unseen hand whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, state: "OpenBroadwayHand", seat: str, count: int = 7) -> None:
        self.state = state
        self.seat = seat
        self.count = count

    def __len__(self) -> int:
        return self.count

    def __contains__(self, t: Tile) -> bool:
        return self.state.may_hold(self.seat, t)

    def discard(self, t: Tile) -> None:
        # Called only for a tile just laid from this hand (its holding was checked).
        self.count -= 1
        self.state.gone.add(t)

    def __repr__(self) -> str:
        return f"<{self.seat}: {self.count} tiles>"


class OpenBroadwayHand(BroadwayHand):
    """A hand whose deal is not known (yet): every check the shown tiles allow.

    Checked at once, as in a known deal: turn order (clockwise, empty hands
    skipped), the tile is of the set and not on the table nor face up in another
    seat's hand, the mover still holds an unseen tile (a seat whose tiles are all
    face up can play only those), the geometry, the matched segments and points,
    exposures (out of turn only; ``unplayable`` exactly when the tile fits nowhere
    along the opponents' axis) and penalty plays, the end when every hand is empty,
    and sudden death (the points are public).

    A pass is refused only where the tiles shown prove the player could lay one:
    a face-up tile of the passer that fits, or more tiles in the passer's hand
    than there are unseen tiles fitting nowhere along its axis.  Otherwise it is
    taken on trust: whether a pass was forced ("passing"), and whether a seat
    holds a tile nobody has shown, are checked when the deal is known.

    The leader is the holder of the hand's double: unless the hand names its
    ``leader`` (taken as the double's holder), :attr:`to_move` is ``None`` until
    the lead, and whoever lays the double leads.  A block is not found by
    looking at the hands: the hand ends ``blocked`` once every player still
    holding tiles has passed in succession (the closing passes must be
    written).  No other turn depends on the hidden tiles.

    :meth:`outcome` gives the scores as the record stands (penalties need only
    the tile counts); :meth:`holdings` gives only the tiles known to be held.
    """

    open = True

    def __init__(self, leader: str | None, lead: Tile, totals: dict[str, int] | None) -> None:
        #: Tiles laid on the table in this hand.
        self.gone: set[Tile] = set()
        #: Seats that showed a tile before the lead: out of turn, so not the holder of the double.
        self.shown_before_lead: set[str] = set()
        super().__init__({}, leader, lead, totals)  # type: ignore[arg-type]
        self.hands = {s: _Unseen(self, s) for s in SEATS}  # type: ignore[misc]
        self.held = 7 * len(SEATS)

    # --- what is known of the hidden hands --------------------------------------------

    def owner(self, t: Tile) -> str | None:
        """The seat known to hold ``t`` (face up, exposed, or the named leader's double), if any."""
        for seat, shown in self.face_up.items():
            if t in shown:
                return seat
        if self.pending is not None and self.pending[1] is t:
            return self.pending[0]
        if t is self.lead and not self._laid and self.leader is not None:
            return self.leader
        return None

    def may_hold(self, seat: str, t: Tile) -> bool:
        """Whether ``seat`` can hold ``t`` now, as far as the tiles shown tell."""
        if t not in SET or t in self.gone:
            return False
        owner = self.owner(t)
        if owner is not None:
            return owner == seat
        # An unseen tile needs a place in the hand that no face-up tile takes.
        return self.hands[seat].count > len(self.face_up[seat])

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        known: dict[str, tuple[Tile, ...]] = {}
        if t in SET and t not in self.gone:
            owner = self.owner(t)
            if owner is None or owner == seat:
                # The tile may be unseen, but the seat has no room for it beside its face-up tiles.
                count = self.hands[seat].count
                if not count:
                    return f"{seat} does not hold {text}: {seat} has no tiles left"
                return (f"{seat} does not hold {text}: {seat}'s {_tiles(count)} {'is' if count == 1 else 'are'} "
                        f"face up ({T.format_tiles(self.face_up[seat])})")
            known[owner] = (t,)
        # Not of the set, on the table, or in the hand known to hold it: said as the known replay says it.
        return _not_among(seat, t, text, known)

    # --- the state the protocol reads -------------------------------------------------

    def _is_blocked(self) -> bool:
        """Never found by looking: whether anyone can still play depends on the hidden tiles.

        So :attr:`over` and :attr:`end` are out, sudden death, or blocked by the
        written passes (every player holding tiles passed in succession)."""
        return False

    def _over_message(self) -> str:
        if self._end == "blocked":
            return _ALL_PASSED
        return super()._over_message()

    # --- moves --------------------------------------------------------------------

    def apply(self, move: Move) -> int:
        if self.to_move is None and self._end is None and not self._laid and move.seat in AXIS:
            kind = type(move)
            if kind is Play and not move.penalty:
                return self._lead(move)
            if kind is Exposed:
                return self._expose_before_lead(move)
        return BroadwayHand.apply(self, move)

    def _lead(self, move: Play) -> int:
        """The first tile of a hand that names no leader: the double, laid by whoever holds it."""
        seat = move.seat
        t = _halves(move.play)[2]
        if t is not self.lead:
            raise IllegalMove(f"this hand is built on {self.lead}: its holder leads it, so the first tile "
                              f"is {self.lead}, not {move.play}", R_GAME, "/play")
        if seat in self.shown_before_lead:
            raise IllegalMove(f"{seat} cannot lead {self.lead}: {seat} showed a tile out of turn before the "
                              f"lead, so {seat} was not the player to move, the holder of {self.lead}",
                              R_EXPOSED, "/seat")
        self.leader = self.to_move = seat
        try:
            return BroadwayHand.apply(self, move)
        except IllegalMove:
            self.leader = self.to_move = None
            raise

    def _expose_before_lead(self, move: Exposed) -> int:
        seat = move.seat
        if _halves(move.exposed)[2] is self.lead:
            # Only the holder of the double could show it, and the holder is the player to move.
            raise _own_turn_exposure(seat)
        points = BroadwayHand.apply(self, move)
        self.shown_before_lead.add(seat)
        return points

    def _pass(self, seat: str) -> int:
        """A pass, taken on trust unless the tiles shown prove a tile fits (:meth:`_must_play`);
        all holders passing blocks (see :meth:`BroadwayHand._pass`)."""
        if self.to_move is None and not self._laid:
            # Nothing is pending before the lead: an exposure then is unplayable or refused.
            raise IllegalMove(f"{seat} cannot pass: nobody passes before the lead, and the holder of "
                              f"{self.lead} leads it", R_PASS, "/pass")
        return BroadwayHand._pass(self, seat)

    def _must_play(self, seat: str) -> str | None:
        """Why ``seat`` cannot pass, when that follows from the tiles shown alone; else ``None``.

        A face-up tile of the seat that fits shows it could play.  So does counting: the
        tiles not yet seen are known as a whole (the set less the table and the face-up
        tiles), and when the seat holds more of them than there are unseen tiles fitting
        nowhere along its axis, one of its tiles fits."""
        mask = self._playable_pips(STEP[seat])
        if not mask:
            return None
        shown = self.face_up[seat]
        if _fits_mask(shown, mask):
            return self._fit_message(seat, shown)
        hidden = self.hands[seat].count - len(shown)
        if not hidden:
            return None
        unseen = [t for t in SET if t not in self.gone and self.owner(t) is None]
        stuck = sum(1 for t in unseen if not (mask >> t.high & 1 or mask >> t.low & 1))
        if hidden > stuck:
            return (f"{seat} cannot pass: {seat} holds {_tiles(hidden)} nobody has shown, and of the "
                    f"{len(unseen)} tiles not yet seen only {stuck} fit nowhere {AXIS_NAME[AXIS[seat]]}, "
                    f"so one of {seat}'s tiles fits")
        return None

    def legal_moves(self) -> list[Move]:
        raise HiddenTiles("the legal moves of an open hand depend on tiles nobody has shown")

    # --- the end of the hand --------------------------------------------------------

    _blocked_how = "blocked (every player holding tiles passed)"

    def _still_held(self, seat: str) -> str:
        """How many tiles ``seat`` still holds: which ones is not known.

        That is all :meth:`outcome` needs to give the hand's scores as far as the
        record goes: the penalties need only how many tiles each seat holds, which is
        known; whether the passes that blocked it were forced is checked when the hand
        is replayed with its deal."""
        return _tiles(len(self.hands[seat]))

    # --- what explain shows ---------------------------------------------------------

    def render(self) -> list[str]:
        lines = super().render()
        counts = ", ".join(f"{s} {len(self.hands[s])}" for s in SEATS)
        lines.append(f"tiles held (deal not known): {counts}")
        return lines

    def holdings(self) -> dict[str, list[Tile]]:
        """Only the tiles known to be in each hand: face up, exposed, or the named leader's double."""
        known: dict[str, set[Tile]] = {s: set(self.face_up[s]) for s in SEATS}
        if self.pending is not None:
            known[self.pending[0]].add(self.pending[1])
        if not self._laid and self.leader is not None:
            known[self.leader].add(self.lead)
        return {s: sorted(known[s], key=_tile_order, reverse=True) for s in SEATS}


#: Every tile of the set by both of its usual spellings ("6-3" and "3-6").
_DEALT_TEXT: dict[str, Tile] = {f"{a}-{b}": T.make(a, b) for a in range(7) for b in range(7)}


def _dealt(hands: dict[str, Any]) -> dict[str, set[Tile]] | None:
    """The usual deal, each seat's seven tiles as a set, checked in one pass; ``None`` for anything else.

    A deal seen here is the whole set, seven tiles a seat, each written as
    usual; such a deal :func:`base.check_full_deal` accepts too.  Anything
    else (a tile written otherwise, a seat missing, a faulty deal) is ``None``,
    and that check then accepts it or says what is wrong.  Dict look-ups and
    set sizes are a third of the general check's cost, paid every hand."""
    if len(hands) != 4:
        return None
    try:
        n, e, s, w = hands["N"], hands["E"], hands["S"], hands["W"]
        if not len(n) == len(e) == len(s) == len(w) == 7:
            return None
        tile = _DEALT_TEXT.__getitem__
        north, east, south, west = set(map(tile, n)), set(map(tile, e)), set(map(tile, s)), set(map(tile, w))
    except (KeyError, TypeError):
        return None
    if len(north.union(east, south, west)) != 28:
        return None
    return {"N": north, "E": east, "S": south, "W": west}


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _check_leader_seat(hand: Hand, error: type[RuleViolation]) -> None:
    """A hand without its play (open, or score-sheet) may name any seat as leader, but a seat."""
    if hand.leader is not None and hand.leader not in AXIS:
        raise error(f"{clip(hand.leader)} cannot lead: the seats are N, E, S, W", R_GAME, "/leader")


class BroadwayMatch:
    """Seven hands on 6-6 … 0-0, then sudden-death hands while the totals are level."""

    def clone(self, memo: dict[int, Any] | None = None) -> "BroadwayMatch":
        """A copy of this match whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self) -> None:
        self.sides = SIDES
        self.seats = SEATS
        self.totals = {"NS": 0, "EW": 0}
        self.over = False
        self.winner: str | None = None
        self.hand_no = 0

    @property
    def sudden_death(self) -> bool:
        return self.hand_no > REGULAR_HANDS

    def _check_deal(self, hands: dict[str, tuple[str, ...]]) -> dict[str, list[Tile]]:
        return base.check_full_deal(hands, SEATS, SET, 7, "double-six", R_DEAL)

    def _next_hand(self) -> tuple[Tile, dict[str, int] | None]:
        """Count the next hand: its double, and the totals sudden death plays on from (else ``None``)."""
        self.hand_no += 1
        return double_for(self.hand_no), (dict(self.totals) if self.sudden_death else None)

    def start_hand(self, hand: Hand) -> BroadwayHand:
        double, totals = self._next_hand()
        dealt = _dealt(hand.deal.hands)
        if dealt is None:  # not the usual, correct deal: checked, and what is wrong worded, by base
            dealt = {s: set(ts) for s, ts in self._check_deal(hand.deal.hands).items()}
        for holder in SEATS:
            if double in dealt[holder]:
                break
        if hand.leader is not None and hand.leader != holder:
            what = "sudden-death hand" if self.sudden_death else "hand"
            raise DealError(f"{hand.leader} cannot lead: this {what} is built on {double}, which {holder} holds",
                            R_GAME, "/leader")
        return BroadwayHand(dealt, holder, double, totals)

    def finish_hand(self, state: BroadwayHand) -> HandOutcome:
        outcome = state.outcome()
        self._add(outcome.scores)
        return outcome

    def _add(self, scores: dict[str, int]) -> None:
        """Add a hand's scores to the totals and decide the game: seven hands decide unless tied;
        a sudden-death hand decides on a two-point lead."""
        for side, n in scores.items():
            self.totals[side] += n
        ns, ew = self.totals["NS"], self.totals["EW"]
        if self.sudden_death:
            if abs(ns - ew) >= SUDDEN_DEATH_LEAD:
                self.over = True
                self.winner = "NS" if ns > ew else "EW"
        elif self.hand_no == REGULAR_HANDS and ns != ew:
            self.over = True
            self.winner = "NS" if ns > ew else "EW"

    # --- format 1.1: hands whose deal is not known, score-sheet hands ---------------------

    #: The four players are dealt all 28 tiles: one seat's tiles are what the others were not dealt.
    deals_whole_set = True
    deal_rule = R_DEAL

    def tile_set(self) -> list[Tile]:
        return list(T.DOUBLE_SIX)

    def start_open_hand(self, hand: Hand) -> OpenBroadwayHand:
        """The next hand, its deal not known: see :class:`OpenBroadwayHand`.

        A written ``leader`` is taken as the holder of the double (the lead is then
        expected from that seat, and nobody else may show the double); without one,
        whoever lays the double leads."""
        if hand.deal is not None and hand.deal.hands:
            raise DealError("this hand's deal names the players' tiles: it is replayed as a known deal, "
                            "not as an open hand", R_DEAL, "/deal/hands")
        _check_leader_seat(hand, DealError)
        double, totals = self._next_hand()
        return OpenBroadwayHand(hand.leader, double, totals)

    def score_sheet_hand(self, hand: Hand) -> HandOutcome:
        """A hand recorded by its result alone, as on a paper score sheet.

        The claimed scores (a side left out scored 0) are added to the totals and the
        game's end is decided after the hand as :meth:`finish_hand` decides it.  Refused,
        as no play could give them: a side other than NS and EW; an end other than
        ``out``, ``blocked``, ``sudden-death``; a side losing more than its 14 tiles (13
        for the leader's side, or both sides together more than the 27 tiles besides
        the lead: the double is always laid); more than 270
        points (27 tiles at 10); a negative score at ``out`` or ``sudden-death`` (no
        penalties then); ``sudden-death`` in one of the seven regular hands, or without
        a two-point lead after it.  ``out`` in a sudden-death hand that leaves a
        two-point lead is taken as the last tile making the lead (the hand would have
        stopped at any earlier one), so the hand ended ``sudden-death`` too, the word
        the canonical writer writes.  Any seat may be named leader: the next hand's
        leader is the holder of its own double.
        """
        result = hand.result
        claimed = dict(result.scores or {}) if result is not None else {}
        end = result.end if result is not None else None
        for side in claimed:
            if side not in SIDES:
                raise RuleViolation(f"{clip(side)} is not a side in Broadway: the partnerships are NS and EW",
                                    R_PLAYERS, f"/result/scores/{pointer_token(side)}")
        if end is not None and end not in HAND_ENDS:
            raise RuleViolation(f"a Broadway hand ends 'out', 'blocked' or 'sudden-death', not {clip(str(end))!r}",
                                R_END, "/result/end")
        _check_leader_seat(hand, RuleViolation)
        scores = {side: claimed.get(side, 0) for side in SIDES}
        for side in SIDES:
            n = scores[side]
            where = f"/result/scores/{side}"
            if n < -HAND_TILES:
                raise RuleViolation(f"{side} cannot lose {-n} points in a hand: a partnership holds {HAND_TILES} "
                                    f"tiles, and each tile still held at the end costs one point", R_END, where)
            if n > MOST_POINTS:
                raise RuleViolation(f"{side} cannot make {n} points in a hand: 27 tiles besides the lead are laid, "
                                    f"each earning at most 10", R_MATCH, where)
            if n < 0 and end in ("out", "sudden-death"):
                why = ("every tile was played" if end == "out"
                       else "a hand stopped by sudden death counts no tiles against anyone")
                raise RuleViolation(f"{side} cannot score {n} in a hand that ends {end!r}: {why}, so nothing "
                                    f"is taken off", R_END if end == "out" else R_WIN, where)
        if hand.leader is not None and scores[SIDE[hand.leader]] < 1 - HAND_TILES:
            side = SIDE[hand.leader]
            raise RuleViolation(f"{side} cannot lose {-scores[side]} points in a hand {hand.leader} led: the lead "
                                f"is laid, so {side} holds at most {HAND_TILES - 1} tiles at the end", R_END,
                                f"/result/scores/{side}")
        total = scores["NS"] + scores["EW"]
        if total > MOST_POINTS:
            raise RuleViolation(f"NS {scores['NS']} and EW {scores['EW']} make {total} points in one hand; 27 "
                                f"tiles besides the lead, each earning at most 10, make at most {MOST_POINTS}",
                                R_MATCH, "/result/scores")
        if total < -(2 * HAND_TILES - 1):
            raise RuleViolation(f"NS {scores['NS']} and EW {scores['EW']} would need 28 tiles still held at the "
                                f"end, but the hand's double is always laid", R_END, "/result/scores")
        hand_no = self.hand_no + 1
        sudden_death = hand_no > REGULAR_HANDS
        ns, ew = self.totals["NS"] + scores["NS"], self.totals["EW"] + scores["EW"]
        lead = abs(ns - ew)
        if end == "sudden-death":
            if not sudden_death:
                raise RuleViolation(f"hand {hand_no} is one of the seven regular hands, which are played to "
                                    f"the end: only a sudden-death hand stops mid-hand", R_WIN, "/result/end")
            if lead < SUDDEN_DEATH_LEAD:
                raise RuleViolation(f"the hand is claimed to stop in sudden death, but after it the totals are "
                                    f"NS {ns}, EW {ew}: nobody leads by two", R_WIN, "/result/end")
        self.hand_no = hand_no
        self._add(scores)
        working = (f"score-sheet hand (its play is not recorded): NS {scores['NS']}, EW {scores['EW']}",)
        if end == "out" and sudden_death and lead >= SUDDEN_DEATH_LEAD:
            # Played out without penalties, the lead was made by a tile laid, and the game stops
            # the moment it is made: so by the last tile, which ended the hand both ways.
            return HandOutcome("sudden-death", scores, working, ("out",))
        return HandOutcome(end or "score-sheet", scores, working)

    def random_hand(self, rng: random.Random) -> Hand:
        tiles = list(T.DOUBLE_SIX)
        rng.shuffle(tiles)
        hands = [tiles[i * 7:(i + 1) * 7] for i in range(4)]
        double = double_for(self.hand_no + 1)
        leader = next(s for s, h in zip(SEATS, hands) if double in h)
        return Hand(leader=leader, deal=Deal(hands=base.deal_dict(SEATS, hands)))


class Broadway:
    name = "broadway"
    variants = ("standard",)
    defaults: dict[str, Any] = {}
    scores_moves = True
    sides_are_partnerships = True

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        return (4,)

    def may_restate(self, index: int, end: str) -> bool:
        """Whether a hand (0-based ``index``) claimed to end ``end`` may have ended another way
        too: ``out`` in a sudden-death hand, when its last tile made the lead (the canonical
        writer then writes ``sudden-death``; see :func:`domrec.notation.writer.dumps`)."""
        return end == "out" and index >= REGULAR_HANDS

    def seats_for(self, count: int, options: dict[str, Any]) -> tuple[str, ...]:
        return SEATS

    def final_scores(self, variant: str, options: dict[str, Any], players: int | None = None) -> base.ScoreRange:
        """No bound below: tiles left at a block cost points (docs/rules/broadway.md).

        Above: one hand gives a side at most ``MOST_POINTS`` (270): 27 tiles are laid besides the
        lead, none earning more than 10 (four matched segments or more), and the end of the hand
        only takes points off.  A game's total has no bound: there is no target, and the sudden
        death after seven level hands goes on, hand after hand, while the totals stay within a
        point of each other."""
        return base.ScoreRange(None, None, hand=MOST_POINTS,
                               hand_why="27 tiles besides the lead, each earning at most 10")

    def start(self, record: Record) -> BroadwayMatch:
        if len(record.players) != 4:
            raise SetupError(f"Broadway is played by exactly four players in two partnerships; this record has "
                             f"{len(record.players)}", R_PLAYERS, "/players")
        base.require_partnership_seats(record, "Broadway", R_PLAYERS)
        return BroadwayMatch()

    def choose(self, state: BroadwayHand, legal: list[Move], rng: random.Random) -> Move:
        """A player who usually takes the best-scoring placement, and otherwise builds pockets.

        Random play almost never builds the pockets that 3- and 4-matches need (none
        in 20,000 simulated moves); preferring, when nothing scores, the placement that
        leaves empty cells between repeated numbers makes them, so simulated games
        exercise every scoring tier."""
        if len(legal) == 1 or rng.random() < 0.1:
            return legal[rng.randrange(len(legal))]
        points = [state.points_of(m) for m in legal]
        most = max(points)
        top = [m for m, p in zip(legal, points) if p == most]
        if len(top) > 1 and rng.random() < 0.8:
            pockets = [state.pockets(m) for m in top]
            most = max(pockets)
            top = [m for m, p in zip(top, pockets) if p == most]
        return top[rng.randrange(len(top))]


ENGINE = Broadway()
