"""Domino Roads (Joel S. Zimmerman, 2006), docs/rules/domino-roads.md.

Two dice give a *play total*; with it a side lays starters (tiles summing to
the total), spans (the road's exposed number plus the touching half make the
total), bridges (a 0-0 joining span halves of two of its own roads that sum
to the total) and road-blocks (a double laid on an opponent's road).  Roads
score by length when a player empties their stock.

Four players play as NS against EW with stocks of 10 from a 40-tile set;
three play alone with stocks of 9 and piles of 4 from the 39-tile set.  The
sets hold duplicate tiles, so every stock is a multiset (a dict of counts)
and every check counts copies.

A turn in a record is ``roll``/``reuse`` by the roller, the roller's plays,
then (four players, from the hand's second turn on) the partner's plays.  A
``pass`` closes a seat's part early but is never required: a partner's play
closes the roller's part and the next roller's dice close the turn.  No play
is ever compulsory, so nothing here asks whether a pass was "forced".

Speed matters (the issue asks 5,000 simulated hands a second through full
validation), so the replay path works on interned tiles, plain slotted
objects and integer phases, and builds message text only when a move is bad.
"""

from __future__ import annotations

import random
from collections import Counter, _count_elements  # type: ignore[attr-defined]
from typing import Any, Iterator

import attrs

from domrec import tiles as T
from domrec.errors import DealError, IllegalMove, SetupError, clip, HiddenTiles, shown
from domrec.games import base
from domrec.games.base import HandOutcome
from domrec.record import (Block, Bridge, Deal, Hand, Join, Move, Pass, Record, Reuse, Roll, Span,
                           Starter)
from domrec.tiles import Tile

# --- the sets and the tables ------------------------------------------------------

SET_FOUR: Counter[Tile] = T.roads_set(4)
SET_THREE: Counter[Tile] = T.roads_set(3)
ZERO = T.make(0, 0)
ONE_ZERO = T.make(1, 0)
#: Each set's tiles written high half first, sorted (by four players or not): a deal written so
#: sorts to exactly this list (see :meth:`RoadsMatch._quick_deal`).
_SET_TEXTS = {four: sorted(f"{t.high}-{t.low}" for t in (SET_FOUR if four else SET_THREE).elements())
              for four in (True, False)}
#: Each set's tiles, highest first (what :meth:`RoadsMatch.tile_set` gives, made once: working
#: out a typed hand's deal asks for it at every hand).
_SET_ORDER = {four: tuple(sorted((SET_FOUR if four else SET_THREE).elements(), key=lambda t: (t.high, t.low),
                                 reverse=True)) for four in (True, False)}
#: Tile text (either half order) -> tile, for the set's own numbers; the hot
#: replay path looks tiles up here and falls back to :func:`domrec.tiles.tile`.
_TILES: dict[str, Tile] = {f"{a}-{b}": T.make(a, b) for a in range(7) for b in range(7)}

#: A road holds at most this many tiles (starters and spans; a joined road counts both parts).
MAX_LENGTH = 10
#: Each tile's spans, by the number it must touch: ``(tile, touching half, exposed half)``, the
#: form :attr:`Road.spans` keeps.  Made once, so a span in the replay is a look-up, not a test
#: of both halves and a new tuple.
_SPANS: dict[Tile, dict[int, tuple[Tile, int, int]]] = {
    t: {t.high: (t, t.high, t.low), t.low: (t, t.low, t.high)} for t in _TILES.values()}
#: Road values by length (index), open and blocked.  Blocked roads of length 1 or 10 cannot exist.
OPEN_VALUE = (0, 10, 30, 50, 70, 90, 120, 150, 180, 210, 250)
BLOCKED_VALUE = (0, 0, 15, 25, 35, 45, 60, 75, 90, 105, 0)
OUT_BONUS = 50
BRIDGE_CREDIT = 100
#: What a tile left in a stock credits its opponents: its pips, and 100 for a 0-0.
CREDIT: dict[Tile, int] = {t: t.high + t.low for t in _TILES.values()}
CREDIT[ZERO] = BRIDGE_CREDIT
#: Four players: a seat's opposing side, credited with what the seat still holds.
_OTHER_SIDE = {"N": "EW", "S": "EW", "E": "NS", "W": "NS"}
TARGET = {4: 2000, 3: 1000}
#: Why a hand gives a side at most :func:`most_in_a_hand`, in words.
HAND_WHY = "going out, full roads of the side's own tiles and every stock credit of the set"
STOCK = {4: 10, 3: 9}
PILE = 4

# Rule names, as docs/rules/domino-roads.md names the rules; every message carries one.
R_FOUR = "domino-roads: four players"
R_THREE = "domino-roads: three players"
R_PLAYERS = "domino-roads: four or three players"
R_SETS = "domino-roads: sets"
R_FIRST = "domino-roads: first player"
R_TURNS = "domino-roads: turns"
R_PARTNER = "domino-roads: turns (the partner plays from the second turn on)"
R_UNUSED = "domino-roads: turns (unused toss)"
R_STOCK = "domino-roads: playing from the stock"
R_STARTER = "domino-roads: starter"
R_SPAN = "domino-roads: span"
R_BRIDGE = "domino-roads: bridge"
R_BLOCK = "domino-roads: road-block"
R_BLOCK_MATCH = "domino-roads: road-block (option block_match)"
R_ZERO = "domino-roads: a 0-0 is only ever a bridge"
R_OWN = "domino-roads: a side plays on its own roads only"
R_LENGTH = "domino-roads: a road holds at most 10 tiles"
R_NAMES = "domino-roads: road names are unique within a hand"
R_END = "domino-roads: hand end"
R_ABANDONED = "domino-roads: hand end (abandoned)"
R_SCORING = "domino-roads: scoring"

#: Every throw of the two dice, each 1 to 6 (as a record holds it: a pair; a list is made one).
_ROLLS = frozenset((a, b) for a in range(1, 7) for b in range(1, 7))

_NEVER_ABANDONED = ("a Domino Roads hand is never abandoned: every tile but 0-0 and 1-0 can start a road with "
                    "the right roll, and the set has too few of those two for every player, so someone can "
                    "always go out")

# Turn phases.
ROLL, ROLLER, PARTNER = 0, 1, 2


class Road:
    """One road: a starter, its spans, and whether it is blocked or joined.

    ``spans`` keeps each span as ``(tile, touching half, exposed half)`` so
    that a picture and a bridge can name halves; ``exposed`` is the number
    the next span must complete to the play total.
    """

    __slots__ = ("name", "side", "starter", "facing", "spans", "n", "exposed", "blocked", "block_tile",
                 "joined", "bridge_at")

    def clone(self, memo: dict[int, Any] | None = None) -> "Road":
        """A copy of this road whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, name: str, side: str, starter: Tile, facing: int) -> None:
        self.name = name
        self.side = side
        self.starter = starter
        self.facing = facing
        self.spans: list[tuple[Tile, int, int]] = []
        #: This part's own tiles (starter and spans); ``length`` adds a joined part's.
        self.n = 1
        self.exposed = facing
        self.blocked = False
        self.block_tile: Tile | None = None
        #: The road this one is bridged to (the pair counts as one road).
        self.joined: Road | None = None
        #: (span number, half) where the bridge touches this road.
        self.bridge_at: tuple[int, int] | None = None

    @property
    def length(self) -> int:
        """The length of the whole road this part belongs to (a joined pair counts as one)."""
        joined = self.joined
        return self.n if joined is None else self.n + joined.n

    def value(self) -> int:
        return (BLOCKED_VALUE if self.blocked else OPEN_VALUE)[self.length]

    def picture(self) -> str:
        other = self.starter.other(self.facing)
        parts = [f"({other}|{self.facing})"]
        for i, (t, touch, out) in enumerate(self.spans, 1):
            mark = "*" if self.bridge_at is not None and self.bridge_at[0] == i else ""
            parts.append(f"[{touch}|{out}]{mark}")
        if self.block_tile is not None:
            parts.append(f"#{self.block_tile}")
        return " ".join(parts)


def _name(t: Tile) -> str:
    return f"{t.high}-{t.low}"


@attrs.frozen
class Table:
    """Who sits where: fixed for a whole match, so worked out once, not every hand."""

    seats: tuple[str, ...]
    four: bool
    sides: tuple[str, ...]
    side_of: dict[str, str]
    #: Four players: the seat opposite; three players: nobody.
    partner: dict[str, str | None]
    #: The next seat clockwise.
    after: dict[str, str]

    @classmethod
    def of(cls, seats: tuple[str, ...]) -> "Table":
        """The table for these seats; tables are values, so one per seating is made and shared."""
        table = _TABLES.get(seats)
        if table is None:
            if len(_TABLES) >= 1000:  # three players may use any labels: keep the cache small
                _TABLES.clear()
            table = _TABLES[seats] = cls._make(seats)
        return table

    @classmethod
    def _make(cls, seats: tuple[str, ...]) -> "Table":
        four = len(seats) == 4
        return cls(
            seats=seats, four=four, sides=base.SIDES if four else seats,
            side_of={s: base.partnership_side(s) for s in seats} if four else {s: s for s in seats},
            partner={s: base.seat_after(seats, s, 2) if four else None for s in seats},
            after={s: base.seat_after(seats, s) for s in seats})


#: Tables made, by their seats (a few seatings recur across a whole archive).
_TABLES: dict[tuple[str, ...], Table] = {}


class RoadsHand:
    """One hand: stocks (and piles), the roads, the dice and whose part of the turn it is."""

    #: A hand whose deal is known (see :class:`OpenRoadsHand` for one whose deal is not).
    open = False

    #: What :meth:`position_key` leaves out: the match (a hand without its deal names who led,
    #: the one thing it changes there) and the table the hand never changes.
    position_skip = frozenset({"match", "seats", "four", "side_of", "sides", "partner", "after"})

    #: What decides the rest of the hand (the DGN reader reads a hand's equal positions once).
    position_key = base.key_with_leader

    def clone(self, memo: dict[int, Any] | None = None) -> "RoadsHand":
        """A copy of this hand state whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, table: "Table", stocks: dict[str, dict[Tile, int]],
                 piles: dict[str, list[Tile]] | None, leader: str, block_sum: bool) -> None:
        self.seats = table.seats
        self.four = table.four
        self.side_of = table.side_of
        self.sides = table.sides
        self.partner = table.partner
        self.after = table.after
        self.stocks = stocks
        #: The tiles known to be in each stock: in a known deal the stocks themselves (an open
        #: hand's are only those topped up from a given pile; see :class:`OpenRoadsHand`).
        self.known = stocks
        #: How many of each seat's stock tiles are not known: none in a known deal.
        self.hidden = dict.fromkeys(table.seats, 0)
        # A known deal's stocks all have the size the deal check made sure of.
        self.stock_size = dict.fromkeys(table.seats, STOCK[len(table.seats)])
        self.piles = piles or {}
        self.block_sum = block_sum
        self.roads: dict[str, Road] = {}
        self.side_roads: dict[str, list[Road]] = {side: [] for side in self.sides}
        self.leader = leader
        self.phase = ROLL
        self.turn_no = 0
        self.roller: str | None = None
        self.next_roller = leader
        self.total = 0
        self.dice: tuple[int, int] | None = None
        #: Whether anyone played with the current toss (an unplayed toss may be reused).
        self.used = False
        self.over = False
        self.end: str | None = None
        self.out_seat: str | None = None
        self.to_move: str | None = leader

    # --- turns -----------------------------------------------------------------

    def apply(self, move: Move) -> int:
        """Check and make one move.

        The replay's hot path: the moves nearly every turn is made of, a roll or reuse of the
        dice, a span, a starter, a road-block, a bridge or a pass by a player who may play now,
        are checked and made here in one call, on the
        known deal's stocks (plain dicts of counts).  Each fast test lets only the legal case
        through; anything else, and every other kind of move, goes to the move's handler
        (:meth:`_dispatch`), which finds the exact rule broken and words it, so messages
        come from one place.  An open hand (:class:`OpenRoadsHand`) takes the same path: its
        stocks answer ``get`` with the copies the mover may hold, and a laid tile leaves them
        through its own :meth:`_played`.

        Whoever may play now is :attr:`to_move` during a turn: the roller until the
        partner takes over the total, then the partner (see :meth:`_part`).
        """
        kind = move.__class__
        seat = move.seat
        laid = None  # the tile a span, starter, block or bridge lays, taken from the stock below
        if kind is Span:
            if self.phase and (seat == self.to_move or self._takes_over(seat)):
                stock = self.stocks[seat]
                t = _TILES.get(move.span)
                held = stock.get(t)
                road = self.roads.get(move.road)
                if held and t is not ZERO and road is not None and road.side == self.side_of[seat] \
                        and not road.blocked:
                    joined = road.joined
                    span = _SPANS[t].get(self.total - road.exposed)
                    if span is not None and (road.n if joined is None else road.n + joined.n) < MAX_LENGTH:
                        road.spans.append(span)
                        road.n += 1
                        road.exposed = span[2]
                        laid = t
        elif kind is Roll:
            phase = self.phase
            dice = move.roll
            if seat == (self.after[self.roller] if phase else self.next_roller) and not self.over \
                    and not self.piles and (dice if dice.__class__ is tuple else tuple(dice)) in _ROLLS:
                # The dice pass to the next player, starting a turn (what _start_turn does; three
                # players' stock top-up from the pile goes through the handler).
                self.turn_no += 1
                self.roller = self.to_move = seat
                self.phase = ROLLER
                self.used = False
                a, b = dice
                # The record's own pair when it is one (no new object for the collector to track).
                self.dice = dice if dice.__class__ is tuple else (a, b)
                self.total = a + b
                return 0
        elif kind is Starter:
            if self.phase and (seat == self.to_move or self._takes_over(seat)):
                stock = self.stocks[seat]
                t = _TILES.get(move.starter)
                held = stock.get(t)
                facing = move.facing
                name = move.road
                if held and t is not ZERO and t.high + t.low == self.total \
                        and (facing == t.high or facing == t.low) and name not in self.roads:
                    side = self.side_of[seat]
                    road = Road(name, side, t, facing)
                    self.roads[name] = road
                    self.side_roads[side].append(road)
                    laid = t
        elif kind is Block:
            if self.phase and (seat == self.to_move or self._takes_over(seat)):
                stock = self.stocks[seat]
                t = _TILES.get(move.block)
                held = stock.get(t)
                road = self.roads.get(move.road)
                if held and t is not ZERO and t.high == t.low and road is not None \
                        and road.side != self.side_of[seat] and not road.blocked and road.spans:
                    joined = road.joined
                    last = road.spans[-1][0]
                    if (road.n if joined is None else road.n + joined.n) < MAX_LENGTH and last.high != last.low \
                            and (t.high + road.exposed == self.total if self.block_sum else t.high == road.exposed):
                        road.blocked = True
                        road.block_tile = t
                        if joined is not None:
                            joined.blocked = True
                        laid = t
        elif kind is Reuse:
            # The dice pass on with the last toss, unused (what _reuse and _start_turn do): the
            # next player's, once someone has rolled; the pile top-up goes through the handler.
            if seat == (self.after[self.roller] if self.phase else self.next_roller) and self.turn_no \
                    and not self.used and not self.over and not self.piles:
                self.turn_no += 1
                self.roller = self.to_move = seat
                self.phase = ROLLER
                return 0
        elif kind is Pass:
            # Whoever may play now closes their part (what _pass and _part do): the roller's part
            # passes to the partner from the second turn on, else the turn ends.
            phase = self.phase
            if phase and seat == self.to_move:
                if phase == ROLLER and self.four and self.turn_no > 1:
                    self.phase = PARTNER
                    self.to_move = self.partner[seat]
                else:
                    self.phase = ROLL
                    self.next_roller = self.to_move = self.after[self.roller]
                return 0
        elif kind is Bridge:
            if self.phase and (seat == self.to_move or self._takes_over(seat)):
                stock = self.stocks[seat]
                held = stock.get(ZERO)
                ja, jb = move.join
                a, b = self.roads.get(ja.road), self.roads.get(jb.road)
                side = self.side_of[seat]
                if held and _TILES.get(move.bridge) is ZERO and a is not None and b is not None and a is not b \
                        and a.side == side and b.side == side and not a.blocked and not b.blocked \
                        and a.joined is None and b.joined is None and ja.span <= len(a.spans) \
                        and jb.span <= len(b.spans) and ja.half + jb.half == self.total \
                        and a.n + b.n <= MAX_LENGTH:
                    sa, sb = a.spans[ja.span - 1][0], b.spans[jb.span - 1][0]
                    if (ja.half == sa.high or ja.half == sa.low) and (jb.half == sb.high or jb.half == sb.low):
                        a.joined, b.joined = b, a
                        a.bridge_at, b.bridge_at = (ja.span, ja.half), (jb.span, jb.half)
                        laid = ZERO
        if laid is not None:
            if self.open:  # (an open hand's stock may hold the tile unknown: its own _played says)
                self._played(seat, laid)
                return 0
            # A tile was laid: it leaves the stock (what _played does), and its owner may be out.
            if held == 1:
                del stock[laid]
            else:
                stock[laid] = held - 1
            self.used = True
            left = self.stock_size[seat] - 1
            self.stock_size[seat] = left
            if not left:
                self._go_out(seat)
            return 0
        # Everything else: the move's handler (what _dispatch does, written out to save a call).
        handler = _HANDLERS.get(kind)
        if self.over or handler is None or seat not in self.side_of:
            self._refuse(move)
        handler(self, seat, move)
        return 0

    def _takes_over(self, seat: str) -> bool:
        """Whether ``seat`` is the roller's partner taking over the total with this play (four
        players, from the hand's second turn on, while the roller's part is open); if so the
        partner's part begins, as :meth:`_part` would begin it.  Never once the hand is over: the
        roller who went out leaves the phase as it was, and the handler must refuse the play."""
        if self.phase == ROLLER and self.four and self.turn_no > 1 and seat == self.partner[self.roller] \
                and not self.over:
            self.phase = PARTNER
            self.to_move = seat
            return True
        return False

    def _dispatch(self, move: Move) -> int:
        """Any move through its handler, which checks every rule in turn and names the one broken."""
        handler = _HANDLERS.get(move.__class__)
        seat = move.seat
        if self.over or handler is None or seat not in self.side_of:
            self._refuse(move)
        handler(self, seat, move)
        return 0

    def _refuse(self, move: Move) -> None:
        """The errors no move gets past: a finished hand, a stranger, a move of another game."""
        if self.over:
            raise IllegalMove(f"the hand is already over: {self.out_seat} played the last tile of their "
                              f"stock, so no move may follow", R_END)
        if move.seat not in self.side_of:
            raise IllegalMove(f"{move.seat} is not a seat at this table (seats: {', '.join(self.seats)})",
                              R_TURNS, "/seat")
        raise IllegalMove("a Domino Roads move is a roll, a reuse, a starter, a span, a bridge, a "
                          "road-block or a pass", R_TURNS, base.kind_pointer(move))

    def _roll(self, seat: str, move: Roll) -> None:
        if tuple(move.roll) not in _ROLLS:  # (a record's shape check refuses it first; a typed one comes here)
            bad = next((d for d in move.roll if not (isinstance(d, int) and 1 <= d <= 6)), move.roll)
            raise IllegalMove(f"{seat} cannot roll {bad}: each die shows 1 to 6", R_TURNS, "/roll")
        self._start_turn(seat, "roll the dice")
        a, b = move.roll
        self.dice = (a, b)
        self.total = a + b

    def _reuse(self, seat: str, move: Reuse) -> None:
        if self.turn_no == 0:
            raise IllegalMove(f"{seat} cannot reuse a toss: nobody has rolled yet in this hand", R_UNUSED, "/reuse")
        if self.used and seat == self.next_roller_now():
            raise IllegalMove(f"{seat} cannot reuse the toss of {self.total}: it was used (a tile was played "
                              f"with it), so {seat} must roll again", R_UNUSED, "/reuse")
        self._start_turn(seat, "take the dice")

    def next_roller_now(self) -> str:
        """Whose dice are next: during a turn, the player clockwise from the roller."""
        return self.next_roller if self.phase == ROLL else self.after[self.roller]

    def _start_turn(self, seat: str, what: str) -> None:
        expected = self.after[self.roller] if self.phase else self.next_roller  # next_roller_now()
        if seat != expected:
            if self.phase == ROLL:
                raise IllegalMove(f"it is {expected}'s turn to {what}, not {seat}'s (the dice pass clockwise)",
                                  R_TURNS, "/seat")
            raise IllegalMove(f"{seat} cannot {what} now: after {self.roller}'s turn the dice pass clockwise "
                              f"to {expected}", R_TURNS, "/seat")
        self.turn_no += 1
        self.roller = seat
        self.phase = ROLLER
        self.to_move = seat
        self.used = False
        if self.piles:
            self._top_up(seat)

    def _top_up(self, seat: str) -> None:
        """Three players: the stock is filled back to 9 from the pile, in pile order, as far as it goes.

        A pile tile that is not known (``None``: an open hand whose piles were not
        given) joins the unknown part of the stock."""
        pile = self.piles[seat]
        known = self.known[seat]
        while self.stock_size[seat] < STOCK[3] and pile:
            t = pile.pop(0)
            if t is None:
                self.hidden[seat] += 1
            else:
                known[t] = known.get(t, 0) + 1
            self.stock_size[seat] += 1

    def _pass(self, seat: str, move: Pass) -> None:
        phase = self.phase
        if phase == ROLL:
            if seat == self.next_roller:
                raise IllegalMove(f"{seat} must roll the dice (or reuse an unused toss) to start the turn; a "
                                  f"pass only closes a part of a turn", R_TURNS, "/pass")
            raise IllegalMove(f"{seat} cannot pass: no turn is under way, and it is {self.next_roller}'s "
                              f"turn to roll", R_TURNS, "/seat")
        self._part(seat)
        if self.phase == ROLLER and self.four and self.turn_no > 1:
            self.phase = PARTNER
            self.to_move = self.partner[seat]
        else:
            self._close_turn()

    def _close_turn(self) -> None:
        self.phase = ROLL
        self.next_roller = self.after[self.roller]
        self.to_move = self.next_roller

    def _part(self, seat: str) -> None:
        """Check that ``seat`` may act in this turn now, and move to the partner's part if it is theirs."""
        roller = self.roller
        if seat == roller:
            if self.phase != ROLLER:
                raise IllegalMove(f"{seat}'s part of this turn is over: {self.partner[seat]} has taken over "
                                  f"the total of {self.total}", R_TURNS, "/seat")
            return
        if self.four and seat == self.partner[roller]:
            if self.turn_no == 1:
                raise IllegalMove(f"{seat} cannot play on the hand's first turn: the roller's partner plays "
                                  f"with the same total from the second turn on", R_PARTNER, "/seat")
            if self.phase == ROLLER:
                self.phase = PARTNER  # the partner's first move closes the roller's part
                self.to_move = seat
            return
        if self.phase == ROLL:
            raise IllegalMove(f"{seat} cannot play: no turn is under way; {self.next_roller} rolls next",
                              R_TURNS, "/seat")
        who = f"{roller} and {self.partner[roller]}" if self.four and self.turn_no > 1 else roller
        raise IllegalMove(f"it is {roller}'s turn (total {self.total}): only {who} may play now, not {seat}",
                          R_TURNS, "/seat")

    def _ready(self, seat: str, kind: str) -> None:
        """A play needs a turn under way in which ``seat`` may still play (``kind``: the play's key, where
        a play made before the roll points)."""
        if self.phase == ROLL:
            if seat == self.next_roller:
                raise IllegalMove(f"{seat} must roll the dice (or reuse an unused toss) before playing",
                                  R_TURNS, kind)
            raise IllegalMove(f"{seat} cannot play: the turn is over and {self.next_roller} rolls next",
                              R_TURNS, "/seat")
        self._part(seat)

    def _take(self, seat: str, text: str, at: str) -> Tile:
        """The tile named ``text`` (the move's field ``at``), checked to be in ``seat``'s stock (counting copies)."""
        t = _TILES.get(text) or T.tile(text)
        if not self.stocks[seat].get(t):
            raise IllegalMove(self._not_held(seat, t, text), R_STOCK, at)
        return t

    def _played(self, seat: str, t: Tile) -> None:
        """A copy of ``t`` known to be in ``seat``'s stock leaves it; an empty stock ends the hand."""
        known = self.known[seat]
        n = known[t] - 1
        if n:
            known[t] = n
        else:
            del known[t]
        self.used = True
        left = self.stock_size[seat] - 1
        self.stock_size[seat] = left
        if not left:
            self._go_out(seat)

    def _go_out(self, seat: str) -> None:
        """The hand ends the moment a stock is empty (piles do not matter)."""
        self.over = True
        self.end = "out"
        self.out_seat = seat
        self.to_move = None

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        full = SET_FOUR if self.four else SET_THREE
        copies = full.get(t, 0)
        if not copies:
            return f"{text} is not a tile of the {'40' if self.four else '39'}-tile Domino Roads set"
        where = [s for s in self.seats if s != seat and self.known[s].get(t)]
        piled = [s for s in self.seats if t in self.piles.get(s, ())]
        if seat in piled:
            return f"{seat} does not hold {text} in stock yet: it is still in {seat}'s pile"
        if where:
            return f"{seat} does not hold {text}: {'it is' if copies == 1 else 'the other copy is'} in " \
                   f"{' and '.join(where)}'s stock"
        if piled:
            return f"{seat} does not hold {text}: it is in {' and '.join(piled)}'s pile"
        return (f"{seat} does not hold {text}: the set has {copies} "
                f"{'copy' if copies == 1 else 'copies'} and {'it has' if copies == 1 else 'all have'} "
                f"been played")

    # --- plays -------------------------------------------------------------------

    def _road(self, name: str, what: str, at: str = "/road") -> Road:
        road = self.roads.get(name)
        if road is None:
            raise IllegalMove(f"there is no road {shown(name)} in this hand (roads: "
                              f"{', '.join(map(shown, self.roads)) or 'none yet'})", what, at)
        return road

    def _starter(self, seat: str, move: Starter) -> None:
        if not self.phase or seat != self.to_move:  # (the roller, or the partner once they took over)
            self._ready(seat, "/starter")
        t = self._take(seat, move.starter, "/starter")
        if t is ZERO:
            raise IllegalMove("0-0 can never start a road: it is only ever a bridge", R_ZERO, "/starter")
        if t.high + t.low != self.total:
            raise IllegalMove(f"starter {move.starter} sums to {t.high + t.low}, not the play total "
                              f"{self.total}", R_STARTER, "/starter")
        facing = move.facing
        if facing != t.high and facing != t.low:
            raise IllegalMove(f"starter {move.starter} cannot face the road with {shown(facing)}: it has no "
                              f"{shown(facing)}", R_STARTER, "/facing")
        name = move.road
        old = self.roads.get(name)
        if old is not None:
            if old.side == self.side_of[seat] and not old.spans and old.starter is t and old.facing != facing:
                raise IllegalMove(f"road {shown(name)} already faces {old.facing} from its starter {old.starter}: "
                                  f"a road is played off one side of its starter only", R_STARTER, "/facing")
            raise IllegalMove(f"road {shown(name)} already exists in this hand (started with {old.starter} by "
                              f"{old.side}); a new road needs a new name", R_NAMES, "/road")
        side = self.side_of[seat]
        road = Road(name, side, t, facing)
        self.roads[name] = road
        self.side_roads[side].append(road)
        self._played(seat, t)

    def _span(self, seat: str, move: Span) -> None:
        if not self.phase or seat != self.to_move:  # (the roller, or the partner once they took over)
            self._ready(seat, "/span")
        # The commonest move, so _take and _road are written out here.
        text = move.span
        t = _TILES.get(text) or T.tile(text)
        stock = self.stocks[seat]
        held = stock.get(t)
        if not held:
            raise IllegalMove(self._not_held(seat, t, text), R_STOCK, "/span")
        if t is ZERO:
            raise IllegalMove("0-0 can never be a span: it is only ever a bridge", R_ZERO, "/span")
        road = self.roads.get(move.road)
        if road is None:
            road = self._road(move.road, R_SPAN)
        side = self.side_of[seat]
        if road.side != side:
            raise IllegalMove(f"road {shown(road.name)} belongs to {road.side}: {side} may lay only a road-block on "
                              f"an opponent's road", R_OWN, "/road")
        if road.blocked:
            raise IllegalMove(f"road {shown(road.name)} is blocked: no more spans may be added to it", R_SPAN, "/road")
        joined = road.joined
        if (road.n if joined is None else road.n + joined.n) >= MAX_LENGTH:
            raise IllegalMove(f"road {shown(road.name)} already has length {road.length}: a road holds at most 10 "
                              f"tiles", R_LENGTH, "/road")
        need = self.total - road.exposed
        if t.high == need:
            out = t.low
        elif t.low == need:
            out = t.high
        else:
            raise IllegalMove(self._no_span(road, t, move.span), R_SPAN, "/road")
        road.spans.append((t, need, out))
        road.n += 1
        road.exposed = out
        self._played(seat, t)

    def _no_span(self, road: Road, t: Tile, text: str) -> str:
        if not road.spans:
            back = road.starter.other(road.facing)
            if back != road.facing and t.has(self.total - back):
                return (f"{text} would go on the {back} of starter {road.starter}, but road {shown(road.name)} faces "
                        f"{road.facing}: a starter is played off one side only")
        need = self.total - road.exposed
        if 0 <= need <= 6:
            return (f"{text} does not span road {shown(road.name)}: the road shows {road.exposed}, so with total "
                    f"{self.total} the touching half must be {need}")
        return (f"{text} does not span road {shown(road.name)}: the road shows {road.exposed}, and no half makes "
                f"the total {self.total} with it")

    def _bridge(self, seat: str, move: Bridge) -> None:
        if not self.phase or seat != self.to_move:  # (the roller, or the partner once they took over)
            self._ready(seat, "/bridge")
        t = self._take(seat, move.bridge, "/bridge")
        if t is not ZERO:
            raise IllegalMove(f"only a 0-0 can be a bridge, not {move.bridge}", R_BRIDGE, "/bridge")
        side = self.side_of[seat]
        ends = []
        for k, j in enumerate(move.join):
            road = self._road(j.road, R_BRIDGE, f"/join/{k}/road")
            if road.side != side:
                raise IllegalMove(f"road {shown(road.name)} belongs to {road.side}: a bridge joins two of "
                                  f"{side}'s own roads", R_OWN, f"/join/{k}/road")
            if road.blocked:
                raise IllegalMove(f"road {shown(road.name)} is blocked: a blocked road cannot be joined",
                                  R_BRIDGE, f"/join/{k}/road")
            if road.joined is not None:
                raise IllegalMove(f"road {shown(road.name)} is already joined to road {shown(road.joined.name)}: a road is "
                                  f"joined to one other road only", R_BRIDGE, f"/join/{k}/road")
            if j.span > len(road.spans):
                have = len(road.spans)
                raise IllegalMove(f"road {shown(road.name)} has {have} span{'' if have == 1 else 's'}, so it has no "
                                  f"span {j.span} (a bridge joins span halves, never a starter)",
                                  R_BRIDGE, f"/join/{k}/span")
            span = road.spans[j.span - 1][0]
            if j.half != span.high and j.half != span.low:
                raise IllegalMove(f"span {j.span} of road {shown(road.name)} is {span}: it has no {j.half}",
                                  R_BRIDGE, f"/join/{k}/half")
            ends.append(road)
        a, b = ends
        ja, jb = move.join
        if a is b:
            raise IllegalMove(f"a bridge joins two different roads, not road {shown(a.name)} to itself",
                              R_BRIDGE, "/join/1/road")
        if ja.half + jb.half != self.total:
            raise IllegalMove(f"the bridged halves {ja.half} + {jb.half} = {ja.half + jb.half}, not the play "
                              f"total {self.total}", R_BRIDGE, "/join")
        joint = a.length + b.length
        if joint > MAX_LENGTH:
            raise IllegalMove(f"roads {shown(a.name)} (length {a.length}) and {shown(b.name)} (length {b.length}) would "
                              f"make a road of length {joint}: a joined road holds at most 10 tiles", R_LENGTH, "/join")
        a.joined, b.joined = b, a
        a.bridge_at, b.bridge_at = (ja.span, ja.half), (jb.span, jb.half)
        self._played(seat, t)

    def _block(self, seat: str, move: Block) -> None:
        if not self.phase or seat != self.to_move:  # (the roller, or the partner once they took over)
            self._ready(seat, "/block")
        t = self._take(seat, move.block, "/block")
        if t is ZERO:
            raise IllegalMove("0-0 can never be a road-block: it is only ever a bridge", R_ZERO, "/block")
        if t.high != t.low:
            raise IllegalMove(f"only a double can be a road-block, not {move.block}", R_BLOCK, "/block")
        road = self._road(move.road, R_BLOCK)
        side = self.side_of[seat]
        if road.side == side:
            raise IllegalMove(f"road {shown(road.name)} is {side}'s own: a road-block goes on an opponent's road",
                              R_BLOCK, "/road")
        if road.blocked:
            by = road.block_tile or (road.joined.block_tile if road.joined else None)
            raise IllegalMove(f"road {shown(road.name)} is already blocked (by {by}): a road takes one road-block",
                              R_BLOCK, "/road")
        if not road.spans:
            raise IllegalMove(f"road {shown(road.name)} is only its starter {road.starter}: a road-block goes against "
                              f"a span", R_BLOCK, "/road")
        if road.length >= MAX_LENGTH:
            raise IllegalMove(f"road {shown(road.name)} has length {MAX_LENGTH}: a full road cannot be blocked",
                              R_BLOCK, "/road")
        last = road.spans[-1][0]
        if last.high == last.low:
            raise IllegalMove(f"the right-most span of road {shown(road.name)} is the double {last}: a double span "
                              f"cannot be blocked", R_BLOCK, "/road")
        n = t.high
        if self.block_sum:
            if n + road.exposed != self.total:
                raise IllegalMove(f"{move.block} does not block road {shown(road.name)}: {n} + the exposed "
                                  f"{road.exposed} = {n + road.exposed}, not the play total {self.total} "
                                  f"(option block_match: sum)", R_BLOCK_MATCH, "/road")
        elif n != road.exposed:
            raise IllegalMove(f"{move.block} does not match road {shown(road.name)}: its right-most span {last} shows "
                              f"{road.exposed} (option block_match: equal)", R_BLOCK_MATCH, "/road")
        road.blocked = True
        road.block_tile = t
        if road.joined is not None:
            road.joined.blocked = True
        self._played(seat, t)

    # --- listing the legal moves (for the simulator) ---------------------------------

    def only_pass(self) -> bool:
        """Never: the next roll is always among the moves (:meth:`legal_moves`)."""
        return False

    def legal_moves(self) -> list[Move]:
        """Every move any seat may make now: plays, closing passes and the next dice."""
        if self.over:
            return []
        moves: list[Move] = []
        if self.phase != ROLL:
            roller = self.roller
            partner = self.partner[roller] if self.four and self.turn_no > 1 else None
            if self.phase == ROLLER:
                moves.extend(self.plays_for(roller))
                moves.append(Pass(seat=roller))
            if partner is not None:
                moves.extend(self.plays_for(partner))
                moves.append(Pass(seat=partner))
        nxt = self.next_roller_now()
        moves.extend(Roll(seat=nxt, roll=(a, b)) for a in range(1, 7) for b in range(1, 7))
        if self.turn_no and not self.used:
            moves.append(Reuse(seat=nxt))
        return moves

    def plays_for(self, seat: str) -> list[Move]:
        """Every starter, span, bridge and road-block ``seat`` could make with the current total."""
        total = self.total
        side = self.side_of[seat]
        stock = self.stocks[seat]
        tiles = [t for t in stock if t is not ZERO]
        out: list[Move] = []
        if any(t.high + t.low == total for t in tiles):
            name = self._fresh_name(side)
            for t in tiles:
                if t.high + t.low == total:
                    text = _name(t)
                    out.append(Starter(seat=seat, starter=text, road=name, facing=t.high))
                    if t.low != t.high:
                        out.append(Starter(seat=seat, starter=text, road=name, facing=t.low))
        own = self.side_roads[side]
        for road in own:
            if road.blocked or road.length >= MAX_LENGTH:
                continue
            need = total - road.exposed
            for t in tiles:
                if t.high == need or t.low == need:
                    out.append(Span(seat=seat, span=_name(t), road=road.name))
        if ZERO in stock:
            free = [r for r in own if r.spans and not r.blocked and r.joined is None]
            for i, a in enumerate(free):
                for b in free[i + 1:]:
                    if a.length + b.length > MAX_LENGTH:
                        continue
                    for ia, (sa, _, _) in enumerate(a.spans, 1):
                        for ha in {sa.high, sa.low}:
                            hb = total - ha
                            for ib, (sb, _, _) in enumerate(b.spans, 1):
                                if sb.high == hb or sb.low == hb:
                                    out.append(Bridge(seat=seat, bridge="0-0", join=(
                                        Join(road=a.name, span=ia, half=ha), Join(road=b.name, span=ib, half=hb))))
        doubles = [t for t in tiles if t.high == t.low]
        if doubles:
            for other, roads in self.side_roads.items():
                if other == side:
                    continue
                for road in roads:
                    if road.blocked or not road.spans or road.length >= MAX_LENGTH:
                        continue
                    last = road.spans[-1][0]
                    if last.high == last.low:
                        continue
                    for t in doubles:
                        if (t.high + road.exposed == total) if self.block_sum else (t.high == road.exposed):
                            out.append(Block(seat=seat, block=_name(t), road=road.name))
        return out

    def _fresh_name(self, side: str) -> str:
        sep = "" if self.four else "-"
        n = len(self.side_roads[side]) + 1
        while f"{side}{sep}{n}" in self.roads:
            n += 1
        return f"{side}{sep}{n}"

    # --- scoring and pictures ---------------------------------------------------------

    def road_groups(self, side: str) -> list[list[Road]]:
        """The side's roads as scored: a joined pair is one road."""
        groups = []
        counted: set[str] = set()
        for road in self.side_roads[side]:
            if road.name in counted:
                continue
            if road.joined is None:
                groups.append([road])
            else:
                groups.append([road, road.joined])
                counted.add(road.joined.name)
        return groups

    def outcome(self) -> HandOutcome:
        """The hand's scores: the bonus for going out, each road's value, the stocks' credit.

        Summed in one pass over the roads and one over the stocks (this runs once a hand in
        every replay); :meth:`_working` shows the same sum group by group
        (:meth:`road_groups`, :meth:`_creditors`), for explain.
        """
        out_seat = self.out_seat
        scores = dict.fromkeys(self.sides, 0)
        scores[self.side_of[out_seat]] = OUT_BONUS
        counted: set[Road] = set()
        for road in self.roads.values():
            joined = road.joined
            if joined is None:
                scores[road.side] += (BLOCKED_VALUE if road.blocked else OPEN_VALUE)[road.n]
            elif joined not in counted:  # a joined pair is one road (both parts have its value)
                counted.add(road)
                scores[road.side] += road.value()
        # Each stock's credit (pips plus 100 per 0-0): four players, to the opponents; three, to
        # the player who went out.
        credit = CREDIT
        four = self.four
        other = _OTHER_SIDE
        for seat, held in self.stocks.items():
            if held and (four or seat != out_seat):
                worth = 0
                for t, n in held.items():
                    worth += credit[t] * n
                scores[other[seat] if four else out_seat] += worth
        return HandOutcome("out", scores, self._working)

    def _creditors(self, side: str) -> list[str]:
        """Whose stocks ``side`` is credited with: four players, the opponents'; three, only the one who went out."""
        if self.four:
            return [s for s in self.seats if self.side_of[s] != side]
        if side == self.out_seat:
            return [s for s in self.seats if s != side]
        return []

    def _working(self) -> list[str]:
        """The end-of-hand sum, line by line; built only when shown (explain), never in validation."""
        out_side = self.side_of[self.out_seat]
        lines = [f"{self.out_seat} went out: {out_side} scores the bonus of {OUT_BONUS}"]
        for side in self.sides:
            parts = [str(OUT_BONUS)] if side == out_side else []
            total = OUT_BONUS if side == out_side else 0
            road_bits = []
            for group in self.road_groups(side):
                v = group[0].value()
                total += v
                parts.append(str(v))
                name = "+".join(shown(r.name) for r in group)
                road_bits.append(f"{name} length {group[0].length}{' blocked' if group[0].blocked else ''} = {v}")
            credit_bits = []
            pips = zeros = 0
            for s in self._creditors(side):
                held = self.stocks[s]
                p = sum((t.high + t.low) * n for t, n in held.items())
                z = held.get(ZERO, 0)
                pips += p
                zeros += z
                credit_bits.append(f"{s} {T.format_tiles(self._expand(held))} = {p}" + (f" and 0-0 x{z}" if z else ""))
            text = ""
            if credit_bits:
                credit = pips + BRIDGE_CREDIT * zeros
                total += credit
                parts.append(str(credit))
                text = f"; credit {'; '.join(credit_bits)}: {pips} + {BRIDGE_CREDIT} x {zeros} = {credit}"
            lines.append(f"{side}: roads " + ("; ".join(road_bits) or "none") + text)
            lines.append(f"{side} scores " + (" + ".join(parts) or "0") + f" = {total}")
        return lines

    @staticmethod
    def _expand(counts: dict[Tile, int]) -> list[Tile]:
        return [t for t, n in counts.items() for _ in range(n)]

    def score_why(self, move: Move, points: int) -> str:
        """Why a move scores 0, for a wrong score claim (docs/rules/domino-roads.md): the
        validator writes it after "P1 is credited 3, but"."""
        return "a domino-roads move scores nothing when it is made: points are counted only at the hand's end"

    def render(self) -> list[str]:
        if self.phase == ROLL:
            dice = f"total {self.total} " if self.turn_no else ""
            # (three players' hand 1 without a leader, before its first roll: whoever rolls first leads)
            roller = f"{self.next_roller} to roll" if self.next_roller is not None else "any player may roll first"
            state = f"dice: {dice}{'(unused) ' if self.turn_no and not self.used else ''}" \
                    f"{roller}" if not self.over else f"{self.out_seat} went out"
        else:
            who = self.to_move if self.phase == PARTNER else self.roller
            state = f"turn {self.turn_no}: {self.roller} has the dice, total {self.total}; {who} playing"
        if self.over:
            state = f"hand over: {self.out_seat} went out"
        lines = [state]
        for side in self.sides:
            roads = self.side_roads[side]
            if not roads:
                lines.append(f"{side} roads: none")
                continue
            lines.append(f"{side} roads:")
            for road in roads:
                notes = [f"length {road.length}", f"shows {road.exposed}"]
                if road.joined is not None:
                    notes.append(f"joined to {shown(road.joined.name)} by 0-0 at span {road.bridge_at[0]} "
                                 f"({road.bridge_at[1]})")
                if road.blocked:
                    notes.append("blocked")
                lines.append(f"  {shown(road.name)}: {road.picture()}  ({', '.join(notes)})")
        lines.extend(self._table_notes())
        return lines

    def _table_notes(self) -> list[str]:
        """The lines under the roads: the piles (three players; ``?`` a pile tile an open hand does not know)."""
        if not self.piles:
            return []
        return ["piles: " + "; ".join(
            f"{s} {' '.join('?' if t is None else _name(t) for t in self.piles[s]) or '(empty)'}"
            for s in self.seats)]

    def held_count(self, seat: str) -> int:
        """How many tiles ``seat`` holds in stock now (three players: the pile is not counted)."""
        return self.stock_size[seat]

    def holdings(self) -> dict[str, list[Tile]]:
        """The tiles known to be in each stock: all of them in a known deal."""
        return {s: sorted(self._expand(self.known[s]), key=lambda t: (t.high, t.low), reverse=True)
                for s in self.seats}

    def deal_notes(self) -> list[str]:
        """What the table can see besides each stock: who holds the 0-0s, or the piles."""
        if self.four:
            holders = [s for s in self.seats for _ in range(self.stocks[s].get(ZERO, 0))]
            return [f"0-0 shown face up, held by: {', '.join(holders) or 'nobody'}"]
        return [f"pile {s} (top-up order): {' '.join(_name(t) for t in self.piles[s]) or '(empty)'}"
                for s in self.seats]


_HANDLERS: dict[type, Any] = {
    Roll: RoadsHand._roll,
    Reuse: RoadsHand._reuse,
    Pass: RoadsHand._pass,
    Starter: RoadsHand._starter,
    Span: RoadsHand._span,
    Bridge: RoadsHand._bridge,
    Block: RoadsHand._block,
}


# --- hands whose deal is not known (format 1.1) ---------------------------------------


class _OpenStock:
    """A stock whose tiles are (mostly) not known: ``get(t)`` is how many copies of ``t`` it may hold.

    That is the copies known to be in it (topped up from a given pile) plus,
    while some of its tiles are unknown, every copy not known to be elsewhere.
    The replay's play handlers ask exactly ``stocks[seat].get(t)``, so they
    run unchanged on an open hand.
    """

    # (the hand's counting dicts, not the hand: a stock that pointed back at its hand would make
    # every hand a reference cycle, left for the garbage collector instead of freed at once)
    __slots__ = ("seat", "known", "hidden", "avail")

    def clone(self, memo: dict[int, Any] | None = None) -> "_OpenStock":
        """A copy of this unseen stock whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, hand: "OpenRoadsHand", seat: str) -> None:
        self.seat = seat
        #: Tiles known to be in this stock (three players with piles given: those topped up).
        self.known: dict[Tile, int] = hand.known[seat]
        #: The hand's count of unknown tiles by seat, and of copies that may be among them.
        self.hidden = hand.hidden
        self.avail = hand.avail

    def get(self, t: Tile, default: Any = None) -> Any:
        n = self.known.get(t, 0)
        if self.hidden[self.seat]:
            n += self.avail.get(t, 0)
        return n or default

    def __contains__(self, t: object) -> bool:
        return bool(self.get(t))  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Tile]:
        """Each tile the stock may hold, once (what :meth:`RoadsHand.plays_for` walks)."""
        tiles = dict.fromkeys(self.known)
        if self.hidden[self.seat]:
            tiles.update(dict.fromkeys(t for t, n in self.avail.items() if n))
        return iter([t for t in tiles if self.get(t)])


class OpenRoadsHand(RoadsHand):
    """A hand whose stocks are not known (yet): every check but "does the player hold this tile?".

    No play is ever compulsory in Domino Roads, so nearly everything is
    public: turns, dice, the play total, every road's geometry, road names,
    and each stock's size (10, or 9 plus top-ups from the pile, minus plays).
    What stays hidden is which tiles a stock holds.  A tile is accepted when
    it *may* be in the mover's stock: a copy known to be there (topped up from
    a given pile), or, while some of the stock is unknown, a copy of the set
    not yet played and not known to be elsewhere (in a given pile, or topped
    up into another stock).  A play from a stock that also holds a known copy
    of the tile is taken to use the known copy; that loses nothing, since an
    unknown tile can always be the same tile.  Those counts are sufficient:
    whenever each tile's plays from unknown tiles stay within its unknown
    copies, some deal gives every seat what it played.

    The hand ends when a stock is empty, as in the known replay; Roads hands
    have no block, so there is nothing to infer from passes.

    ``to_move`` is the known replay's: the next roller between turns, the
    roller during a turn until the roller's closing pass, then (four players,
    from the second turn) the partner.  So a move written without a seat is
    the roller's; the partner's play that takes over the total, and the next
    player's roll or reuse during a turn (``next_roller_now()``), need their
    seat.  Three players' hand 1 without a leader has ``to_move`` ``None``
    until the first move, whose seat leads (and fixes the match's rotation).
    """

    open = True

    def __init__(self, match: "RoadsMatch", piles: dict[str, list[Tile | None]] | None, leader: str | None,
                 avail: dict[Tile, int]) -> None:
        table = match.table
        # The stocks passed are the known tiles (:attr:`known`): none until a given pile tops one up.
        super().__init__(table, {s: {} for s in table.seats}, piles, leader or "", match.block_sum)
        self.match = match
        #: Copies of each tile that may be among the unknown tiles (dealt, or topped up from an unknown pile).
        self.avail = avail
        #: How many of each seat's stock tiles are unknown.
        self.hidden = {s: STOCK[match.players] for s in table.seats}
        self.stocks = {s: _OpenStock(self, s) for s in table.seats}  # type: ignore[misc]
        self.stock_size = {s: STOCK[match.players] for s in table.seats}
        if leader is None:  # three players, hand 1, no leader: whoever moves first leads
            self.leader = self.next_roller = self.to_move = None  # type: ignore[assignment]

    def apply(self, move: Move) -> int:
        if self.next_roller is None and not self.over and move.seat in self.side_of:
            seat = move.seat
            self.leader = self.next_roller = self.to_move = seat
            self.match.last_leader = seat
        return RoadsHand.apply(self, move)

    def _played(self, seat: str, t: Tile) -> None:
        """A play uses a copy of ``t`` known to be in the stock if there is one; else one of the
        stock's unknown tiles turns out to be ``t`` (it is known from then on, and played)."""
        known = self.known[seat]
        if not known.get(t):
            self.avail[t] -= 1
            self.hidden[seat] -= 1
            known[t] = 1
        RoadsHand._played(self, seat, t)

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        # avail holds only tiles of the set: a tile of no set is named as in the known replay.
        if not self.hidden[seat] and self.avail.get(t):
            return (f"{seat} does not hold {text}: every tile of {seat}'s stock came from the pile "
                    f"({T.format_tiles(self._expand(self.known[seat]))})")
        return RoadsHand._not_held(self, seat, t, text)

    def legal_moves(self) -> list[Move]:
        raise HiddenTiles("an open hand's stocks are not known, so its legal plays cannot be listed")

    def possible_moves(self) -> list[Move]:
        """Every move that may be legal now, taking any tile a stock may hold (see
        :class:`_OpenStock`): the dice, reuses and passes exactly, and each starter, span, bridge
        and road-block of a tile the player may have.  What a table's page offers when the deal
        was not entered; the engine still checks the move made.  Before the first move of a
        three-player hand without a leader, any seat may roll."""
        if self.over:
            return []
        if self.next_roller is None:
            return [Roll(seat=s, roll=(a, b)) for s in self.seats for a in range(1, 7) for b in range(1, 7)]
        return RoadsHand.legal_moves(self)

    def outcome(self) -> HandOutcome:
        raise HiddenTiles("an open hand is scored once its deal is known: replay it through start_hand")

    def _table_notes(self) -> list[str]:
        lines = RoadsHand._table_notes(self)
        stocks = []
        for s in self.seats:
            known = self.known[s]
            shown = f" (known: {T.format_tiles(self._expand(known))})" if known else ""
            stocks.append(f"{s} {self.stock_size[s]}{shown}")
        lines.append("stocks (tiles not known): " + "; ".join(stocks))
        return lines

    def deal_notes(self) -> list[str]:
        return self._table_notes()


class RoadsMatch:
    """One record's game: the hands in order, the running totals, who starts next."""

    def clone(self, memo: dict[int, Any] | None = None) -> "RoadsMatch":
        """A copy of this match whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, record: Record, options: dict[str, Any]) -> None:
        self.seats: tuple[str, ...] = record.seats
        self.table = Table.of(self.seats)
        self.players = len(self.seats)
        self.four = self.players == 4
        self.sides: tuple[str, ...] = base.SIDES if self.four else self.seats
        self.totals = {side: 0 for side in self.sides}
        self.block_sum = options["block_match"] == "sum"
        self.target = TARGET[self.players]
        self.set = SET_FOUR if self.four else SET_THREE
        self.set_counts = dict(self.set)
        self.over = False
        self.winner: str | None = None
        self.hand_no = 0
        self.last_leader: str | None = None

    def _expected_leader(self) -> str | None:
        """Four players: S, then clockwise each hand; three: hand 1 as recorded, then clockwise."""
        if self.four:
            return base.seat_after(self.seats, "S", self.hand_no - 1)
        if self.last_leader is None:
            return None
        return base.seat_after(self.seats, self.last_leader)

    def _leader_for(self, hand: Hand) -> str | None:
        """The first player of this hand (already counted in ``hand_no``): the recorded one, checked
        against the rotation, or the rotation's; ``None`` when neither says (three players, hand 1)."""
        expected = self._expected_leader()
        leader = hand.leader
        if leader is not None and leader not in self.seats:
            raise DealError(f"{leader} is not a seat at this table (seats: {', '.join(self.seats)})",
                            R_FIRST, "/leader")
        if expected is not None and leader is not None and leader != expected:
            why = (f"South is the first player of hand 1 and it rotates clockwise, so hand {self.hand_no} "
                   f"starts with {expected}" if self.four else
                   f"the first player rotates clockwise: {self.last_leader} started the last hand, so "
                   f"{expected} starts this one")
            raise DealError(f"{leader} cannot be the first player: {why}", R_FIRST, "/leader")
        return expected if leader is None else leader

    def start_hand(self, hand: Hand) -> RoadsHand:
        self.hand_no += 1
        stocks, piles = self._check_deal(hand.deal)
        leader = self._leader_for(hand)
        if leader is None:
            if not hand.moves:
                raise DealError("the first player of hand 1 must be recorded (give \"leader\" or the moves)",
                                R_FIRST, "/leader")
            leader = hand.moves[0].seat
            if leader not in self.seats:
                leader = self.seats[0]  # the first move's own check reports the stranger
        if hand.result is not None and hand.result.end == "abandoned":
            self._refuse_abandon(stocks, piles)
        self.last_leader = leader
        return RoadsHand(self.table, stocks, piles, leader, self.block_sum)

    def _refuse_abandon(self, stocks: dict[str, dict[Tile, int]], piles: dict[str, list[Tile]] | None) -> None:
        """A hand may be abandoned only when nobody can ever go out.

        Every tile except 0-0 and 1-0 sums to 2..12 and so can always start a
        road with the right roll; a player whose stock and pile hold neither
        can therefore always go out.  The sets have three such tiles for four
        players (two 0-0, one 1-0) and two for three (two 0-0), fewer than the
        players, so some player always can: the claim is never right.
        """
        for seat in self.seats:
            held = list(stocks[seat]) + list((piles or {}).get(seat, ()))
            if ZERO not in held and ONE_ZERO not in held:
                raise DealError(
                    f"this hand cannot be abandoned: {seat} holds no 0-0 or 1-0, so every tile {seat} "
                    f"holds can start a road with the right roll and {seat} can always go out",
                    R_ABANDONED, "/result/end")

    def _quick_deal(self, deal: Deal) -> tuple[dict[str, dict[Tile, int]], dict[str, list[Tile]] | None] | None:
        """The parsed deal when it is plainly right, else ``None`` (the careful check then says what is wrong).

        A right deal is the common case and a large share of a hand's replay.  Each stock
        is counted into a plain dict by :func:`collections._count_elements` (the C loop
        behind :class:`Counter`; Counter itself would slow every play with its Python-level
        ``__delitem__``).  Whether the deal is the set is first asked of its texts, sorted
        and compared with the set's written high half first, as writers and the simulator
        write them: two C calls; only other spellings (``3-6``) are counted tile by tile.
        """
        size = STOCK[self.players]
        get = _TILES.get
        hands = deal.hands
        stocks: dict[str, dict[Tile, int]] = {}
        dealt: list[str] = []
        for seat in self.seats:
            texts = hands[seat]
            if len(texts) != size:
                return None
            counts: dict[Tile, int] = {}
            _count_elements(counts, map(get, texts))
            stocks[seat] = counts
            dealt += texts
        piles = None
        if not self.four:
            piles = {}
            for seat in self.seats:
                texts = deal.piles[seat]
                if len(texts) != PILE:
                    return None
                piles[seat] = list(map(get, texts))
                dealt += texts
        dealt.sort()
        if dealt != _SET_TEXTS[self.four]:
            total: dict[Any, int] = {}
            _count_elements(total, map(get, dealt))
            # A text that is no tile counts under None, which the set has not.
            if total != self.set_counts:
                return None
        return stocks, piles

    def _check_deal(self, deal: Deal) -> tuple[dict[str, dict[Tile, int]], dict[str, list[Tile]] | None]:
        rule = R_FOUR if self.four else R_THREE
        size = STOCK[self.players]
        if deal.hands.keys() != self.table.after.keys():  # (a set comparison: any other seats refused)
            base.check_seat_keys(deal.hands, self.seats, "/deal/hands", "the deal")
        if deal.piles is not None:
            self._check_pile_seats(deal)
        elif not self.four:
            raise DealError("the three-player game deals each player a pile of 4 beside the stock of 9: "
                            "give each player's pile too", R_THREE, "/deal")
        fast = self._quick_deal(deal)
        if fast is not None:
            return fast
        seen: dict[Tile, int] = {}

        def parse(texts: tuple[str, ...], where: str) -> list[Tile]:
            return self._parse_counted(texts, where, seen)

        stocks: dict[str, dict[Tile, int]] = {}
        for seat in self.seats:
            where = f"/deal/hands/{base._escape(seat)}"
            texts = deal.hands[seat]
            if len(texts) != size:
                raise DealError(f"{seat} has a stock of {len(texts)} tiles; each player draws {size}", rule, where)
            counts: dict[Tile, int] = {}
            for t in parse(texts, where):
                counts[t] = counts.get(t, 0) + 1
            stocks[seat] = counts
        piles = self._parse_piles(deal, seen) if not self.four else None
        # Every count is within the set and the sizes add up to the set, so the deal is the set.
        return stocks, piles

    def _parse_counted(self, texts: tuple[str, ...], where: str, seen: dict[Tile, int]) -> list[Tile]:
        """Tile texts to tiles, each of the set and, counting ``seen``, no more copies than the set has."""
        full = self.set
        out = []
        for i, text in enumerate(texts):
            t = T.tile(text)
            copies = full.get(t, 0)
            if not copies:
                raise DealError(f"{text} is not a tile of the {'40' if self.four else '39'}-tile Domino Roads "
                                f"set", R_SETS, f"{where}/{i}")
            n = seen.get(t, 0) + 1
            if n > copies:
                raise DealError(f"{text} is dealt {n} times, but the set has "
                                f"{'only one' if copies == 1 else copies} {'copy' if copies == 1 else 'copies'}",
                                R_SETS, f"{where}/{i}")
            seen[t] = n
            out.append(t)
        return out

    def _check_pile_seats(self, deal: Deal) -> None:
        """Given piles: only three players have them, and they name exactly the seats."""
        if self.four:
            raise DealError("the four-player game has no piles: all 40 tiles are dealt as stocks of 10",
                            R_FOUR, "/deal/piles")
        base.check_seat_keys(deal.piles, self.seats, "/deal/piles", "the list of piles")

    def _parse_piles(self, deal: Deal, seen: dict[Tile, int]) -> dict[str, list[Tile]]:
        """Three players: ``deal.piles`` (seat keys already checked), 4 tiles each, in pile order."""
        piles = {}
        for seat in self.seats:
            where = f"/deal/piles/{base._escape(seat)}"
            texts = deal.piles[seat]
            if len(texts) != PILE:
                raise DealError(f"{seat} has a pile of {len(texts)} tiles; each player draws a pile of "
                                f"{PILE}", R_THREE, where)
            piles[seat] = self._parse_counted(texts, where, seen)
        return piles

    def finish_hand(self, state: RoadsHand) -> HandOutcome:
        outcome = state.outcome()
        self._score(outcome.scores)
        return outcome

    def _score(self, scores: dict[str, int]) -> None:
        """Add a hand's scores to the totals; the game ends once a side has the target, unless the top is tied."""
        totals = self.totals
        for side, n in scores.items():
            totals[side] += n
        if max(totals.values()) >= self.target:
            winner = base.winner_of(totals)
            if winner is not None:  # a tie at the top plays another hand
                self.over = True
                self.winner = winner

    # --- format 1.1: open hands, score-sheet hands -----------------------------------

    #: A tile dealt more often than the set holds it is a fault of the sets' rule.
    deal_rule = R_SETS

    #: Four players are dealt the whole set as stocks; three players keep 12 tiles in piles.
    @property
    def deals_whole_set(self) -> bool:
        return self.four

    def tile_set(self) -> list[Tile]:
        """The 40-tile (four players) or 39-tile (three) set, duplicates included."""
        return list(_SET_ORDER[self.four])

    def start_open_hand(self, hand: Hand) -> OpenRoadsHand:
        """A hand whose stocks are not known: see :class:`OpenRoadsHand`.

        ``hand.deal`` is ``None`` or carries only the public part: three
        players' ``piles`` (optional; given, the top-ups are known tiles).
        The leader is checked as in :meth:`start_hand`; three players' hand 1
        without one is led by whoever moves first.
        """
        self.hand_no += 1
        deal = hand.deal
        avail = dict(self.set_counts)
        piles: dict[str, list[Tile | None]] | None = None
        if deal is not None and deal.piles is not None:
            self._check_pile_seats(deal)
            piles = dict(self._parse_piles(deal, {}))  # type: ignore[arg-type]
            for pile in piles.values():
                for t in pile:
                    avail[t] -= 1  # type: ignore[index]
        elif not self.four:
            piles = {s: [None] * PILE for s in self.seats}
        leader = self._leader_for(hand)
        if hand.result is not None and hand.result.end == "abandoned":
            raise DealError(_NEVER_ABANDONED, R_ABANDONED, "/result/end")
        if leader is not None:
            self.last_leader = leader
        return OpenRoadsHand(self, piles, leader, avail)

    def score_sheet_hand(self, hand: Hand) -> HandOutcome:
        """A hand recorded by its scores alone: checked for what no play could give, then added up.

        The first player is checked as in :meth:`start_hand` (the rotation
        does not depend on the play).  Only three players' hand 1 leaves it
        open when no ``leader`` is given; the next hand then names its own.
        """
        self.hand_no += 1
        leader = self._leader_for(hand)
        if leader is not None:
            self.last_leader = leader
        result = hand.result
        end = result.end if result is not None else None
        if end is not None and end != "out":
            if end == "abandoned":
                raise DealError(_NEVER_ABANDONED, R_ABANDONED, "/result/end")
            raise DealError(f"a Domino Roads hand ends only when a player goes out (plays the last tile of "
                            f"their stock), never \"{end}\"", R_END, "/result/end")
        claimed = dict(result.scores or {}) if result is not None else {}
        where = "/result/scores" if result is not None and result.scores is not None else "/result"
        for side, n in claimed.items():
            if side not in self.totals:
                what = "partnerships NS and EW" if self.four else f"players {', '.join(self.sides)}"
                raise DealError(f"{clip(side)} is not a side of this game: hands are scored by the {what}",
                                R_SCORING, f"{where}/{base._escape(side)}")
            if n < 0:
                raise DealError(f"{side} cannot score {n} in a hand: going out, roads and stock credits are "
                                f"never negative", R_SCORING, f"{where}/{base._escape(side)}")
        scores = {side: claimed.get(side, 0) for side in self.sides}
        self._check_sheet(scores, claimed, where)
        self._score(scores)
        return HandOutcome(end or "score-sheet", scores)

    def _check_sheet(self, scores: dict[str, int], claimed: dict[str, int], where: str) -> None:
        """Refuse hand scores no play can give (docs/rules/domino-roads.md scoring; see the rules page).

        Someone always goes out: 50 for their side, plus the pips of the two
        opponents' stocks, each holding at least one tile, worth at least 1
        (the 1-0) and 2 (four players), or 2 each (three players, no 1-0).
        Four players: the other side is credited with the stock of the out
        player's partner, never empty, so it scores at least 1.  No side scores more than
        :func:`most_in_a_hand` (997, three players 821).  Three
        players: only the player who went out gets credits; the others score
        road values, multiples of 5 and never 5 itself (roads are worth 10,
        30, ... open and 15, 25, ... blocked).
        """
        def at(side: str) -> str:
            return f"{where}/{base._escape(side)}" if side in claimed else where

        bound = base.ScoreRange(hand=most_in_a_hand(self.players), hand_why=HAND_WHY)
        for side, n in scores.items():
            too_many = bound.hand_refusal(side, n)
            if too_many is not None:
                raise DealError(too_many, R_SCORING, at(side))
        # Going out scores the bonus and the pips of both opponents' stocks, at least the smallest two.
        if self.four:
            least, smallest, nobody, winner = OUT_BONUS + 3, "1 + 2", "neither side", "the side that"
            for side, n in scores.items():
                if n == 0:
                    other = "EW" if side == "NS" else "NS"
                    raise DealError(f"{side} scores 0, but in the four-player game each side is credited with "
                                    f"the pips left in its opponents' stocks, and whoever of {other} did not go "
                                    f"out still holds a tile", R_SCORING, at(side))
        else:
            least, smallest, nobody, winner = OUT_BONUS + 4, "2 + 2", "no player", "the player who"
            odd = [p for p in self.sides if scores[p] % 5 or scores[p] == 5]
            if len(odd) > 1:
                a, b = odd[0], odd[1]
                raise DealError(f"{a} ({scores[a]}) and {b} ({scores[b]}) cannot both have scored stock credits: "
                                f"only the player who went out is credited, the others score road values only "
                                f"(multiples of 5, at least 10)", R_SCORING, at(b))
            if odd and scores[odd[0]] < least:
                p = odd[0]
                raise DealError(f"{p}'s {scores[p]} is no sum of road values (multiples of 5, at least 10), so {p} "
                                f"would have gone out, but going out scores {OUT_BONUS} and the pips of both "
                                f"opponents' stocks (at least {smallest})", R_SCORING, at(p))
        if max(scores.values()) < least:
            raise DealError(f"{nobody} scores {least} or more, but {winner} goes out scores {OUT_BONUS} and the "
                            f"pips of both opponents' stocks (at least {smallest})", R_SCORING, where)

    def random_hand(self, rng: random.Random) -> Hand:
        tiles = sorted(self.set.elements(), key=lambda t: (t.high, t.low))
        rng.shuffle(tiles)
        size = STOCK[self.players]
        hands = {s: tuple(_name(t) for t in tiles[i * size:(i + 1) * size]) for i, s in enumerate(self.seats)}
        piles = None
        if not self.four:
            rest = tiles[size * 3:]
            piles = {s: tuple(_name(t) for t in rest[i * PILE:(i + 1) * PILE]) for i, s in enumerate(self.seats)}
        self.hand_no += 1
        leader = self._expected_leader() or rng.choice(self.seats)
        self.hand_no -= 1
        return Hand(leader=leader, deal=Deal(hands=hands, piles=piles))


# --- the simulated player -----------------------------------------------------------

#: How much a simulated player likes each kind of play: bridges and blocks are
#: rare chances, so they are favoured to make them occur in simulated games.
_WEIGHT = {Bridge: 12.0, Block: 8.0, Span: 4.0, Starter: 2.0}


def choose(state: RoadsHand, legal: list[Move], rng: random.Random) -> Move:
    """A simulated player: roll fair dice, reuse some unused tosses, and play keenly.

    Plays are chosen over ending the part (a player who keeps playing empties
    the stock, so every simulated hand ends with someone going out), weighted
    towards bridges, blocks and long roads; now and then a player stops early
    or writes a pass, so records also show unused tosses and closing passes.
    """
    plays = [m for m in legal if type(m) in _WEIGHT]
    if plays and rng.random() < 0.97:
        weights = []
        for m in plays:
            w = _WEIGHT[type(m)]
            if type(m) is Span:
                w += state.roads[m.road].length
            weights.append(w)
        return rng.choices(plays, weights)[0]
    passes = [m for m in legal if type(m) is Pass]
    if passes and rng.random() < 0.1:
        return passes[0]
    reuse = [m for m in legal if type(m) is Reuse]
    if reuse and rng.random() < 0.5:
        return reuse[0]
    rolls = [m for m in legal if type(m) is Roll]
    return Roll(seat=rolls[0].seat, roll=(rng.randint(1, 6), rng.randint(1, 6)))



def most_in_a_hand(players: int) -> int:
    """The most one side can score in one hand with ``players`` at the table: 997 (four
    players), 821 (three).

    A side's hand is the going-out bonus (50, to one side), its roads, and stock credits:

    * roads: a road of *k* tiles (its starter and spans; bridges and road-blocks add no length)
      is worth at most ``OPEN_VALUE[k]``, never more than 25 a tile (250 for the longest road of
      10: the most of ``OPEN_VALUE[k] / k``; a blocked road is worth less), and a side builds
      its roads with its own tiles only, the tiles its players are dealt: 20 (two stocks of 10)
      with four players, 13 (a stock of 9 and a pile of 4) with three;
    * credits: the pips of tiles left in the opponents' stocks and 100 for each 0-0 there, at
      most the credit of every tile of the set (447 for the 40 tiles, 446 for the 39).

    So at most 50 + 25 x 20 + 447 = 997, or 50 + 25 x 13 + 446 = 821: more than any hand gives
    (the same tile cannot be in a road and in an opponent's stock), but a bound no hand passes."""
    four = players == 4
    per_tile = max(OPEN_VALUE[k] / k for k in range(1, MAX_LENGTH + 1))
    tiles = 2 * STOCK[4] if four else STOCK[3] + PILE
    credits = sum(CREDIT[t] for t in (SET_FOUR if four else SET_THREE).elements())
    return OUT_BONUS + int(per_tile * tiles) + credits

class Roads:
    """The Domino Roads engine: four players in partnerships or three alone."""

    name = "domino-roads"
    variants = ("standard",)
    defaults: dict[str, Any] = {"block_match": "equal"}
    scores_moves = False
    choose = staticmethod(choose)

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        return (3, 4)

    def seats_for(self, count: int, options: dict[str, Any]) -> tuple[str, ...]:
        if count == 4:
            return base.PARTNERSHIP_SEATS
        return tuple(f"P{i}" for i in range(1, count + 1))

    def seatings(self, count: int, options: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
        """Other seatings the rules allow: three players alone may use any labels (N E S too)."""
        return (base.COMPASS_SEATS[3],) if count == 3 else ()

    def final_scores(self, variant: str, options: dict[str, Any], players: int | None = None) -> base.ScoreRange:
        """Going out, roads and stock credits are never negative, so neither is a total.

        Above (:func:`most_in_a_hand`): one hand gives a side at most the going-out bonus, its
        roads and stock credits, each at its most.  The game ends after a hand at which a side has
        2000 (three players: 1000) and is alone at the top; a tie at the top plays another hand,
        so the bound of a side's total allows for a tie sent on past the target (totals never
        fall: :class:`~domrec.games.base.ScoreRange`).  ``block_match`` changes which doubles
        block a road, not what a road or a hand is worth.  ``players`` ``None``: the larger
        bound of the two counts (four players')."""
        counts = (players,) if players in TARGET else tuple(TARGET)
        most = max(most_in_a_hand(n) for n in counts)
        return base.ScoreRange(0, None, "going out, roads and stock credits are never negative", hand=most,
                               hand_why=HAND_WHY, target=max(TARGET[n] for n in counts), step=most,
                               ties_go_on=True)

    def start(self, record: Record) -> RoadsMatch:
        count = len(record.players)
        if count not in (3, 4):
            raise SetupError(f"Domino Roads is played by four players in two partnerships or by three alone; "
                             f"this record has {count}", R_PLAYERS, "/players")
        if count == 4:
            base.require_partnership_seats(record, "four-player Domino Roads", R_FOUR)
        else:
            base.require_distinct_seats(record)
        return RoadsMatch(record, base.resolve_options(self, record))


ENGINE = Roads()
