"""Horse Race, the Fives game in which every double is a spinner (docs/rules/horse-race.md).

Two, three or four players (four may play as NS against EW), a double-six set,
hands of 7, 6 or 5 and the rest a boneyard that may be drawn to the last tile.
The layout is a tree: a non-double leaves one open end; a double is a spinner
with two *sides* (filled first) and two *ends* (open only once both sides are
taken).  After every tile the open ends are totalled and a positive multiple of
five is pegged at once (÷ 5, or in full in the ``celko`` variant).  Setting a
double or a scoring tile obliges the player to go on (the *chain*); a player
who cannot set a tile draws one at a time, and a drawn playable tile is set at
once and ends the turn.  The game ends the moment a side reaches the target.

Why bitmasks: validation must run at thousands of hands a second, and the
question asked after nearly every move — "can this seat (or anybody) set a
tile?" — becomes one table look-up and an ``&`` when hands are 28-bit masks
and the layout's open numbers a 7-bit mask.
"""

from __future__ import annotations

import operator
import random
from typing import Any

import attrs

from domrec import tiles as T
from domrec.errors import DealError, IllegalMove, SetupError, clip, pointer_token, HiddenTiles
from domrec.games import base
from domrec.games.base import HandOutcome
from domrec.record import Deal, Draw, Hand, Move, Pass, Play, Record
from domrec.tiles import Tile

GAME = "horse-race"
SET_TILES: tuple[Tile, ...] = T.DOUBLE_SIX
SET = frozenset(SET_TILES)
#: Tiles dealt to each player, by number of players.
DEAL_SIZE = {2: 7, 3: 6, 4: 5}
STANDARD_TARGET = 61
CELKO_TARGET = 200

# Rule names, as docs/rules/horse-race.md calls them; they appear in every message.
R_PLAYERS = "horse-race: two, three or four players"
R_PARTNERSHIPS = "horse-race: partnerships (option partnerships)"
R_COUNT_PARTNER = "horse-race: option count_partner"
R_DEAL = "horse-race: the deal"
R_BONEYARD = "horse-race: the boneyard (draw order)"
R_LEAD = "horse-race: lead"
R_ORDER = "horse-race: turn (play passes clockwise)"
R_HOLD = "horse-race: turn (setting a tile from hand)"
R_MATCH = "horse-race: layout (matching an open end)"
R_SIDES = "horse-race: layout (a spinner's sides before its ends)"
R_FORCED = "horse-race: turn (must set a tile if able)"
R_CHAIN = "horse-race: turn (the chain after a double or a scoring tile)"
R_DRAW = "horse-race: turn (drawing from the boneyard)"
R_DRAWN = "horse-race: turn (a drawn playable tile is set at once and ends the turn)"
R_PASS = "horse-race: turn (passing with the boneyard empty)"
R_END = "horse-race: hand end"
R_TARGET = "horse-race: game (the target, option win_check)"

# --- tile tables ---------------------------------------------------------------

BIT: dict[Tile, int] = {t: 1 << i for i, t in enumerate(SET_TILES)}
#: ``PLAYABLE[m]``: the tiles (as a mask) having a number in the number mask ``m``.
PLAYABLE: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(SET_TILES) if (m >> t.high) & 1 or (m >> t.low) & 1)
    for m in range(128))
ALL_TILES = (1 << len(SET_TILES)) - 1
#: Tile text (either half first) -> tile, so the replay loop parses a tile with one dict probe.
PARSED: dict[str, Tile] = {f"{a}-{b}": T.make(a, b) for a in range(7) for b in range(7)}
#: Tile text (either half first) -> the tile's bit, for checking a deal by sums (HorseRaceMatch._check_deal).
TEXT_BIT: dict[str, int] = {text: BIT[t] for text, t in PARSED.items()}
#: Tile text (either half first) -> (tile, bit): what a play needs of its tile, in one probe.
TILE_BIT: dict[str, tuple[Tile, int]] = {text: (t, BIT[t]) for text, t in PARSED.items()}
#: The two look-ups every deal maps over its texts, bound once here rather than once a hand.
_TEXT_BIT_GET = TEXT_BIT.get
_PARSE = PARSED.__getitem__
#: Tile text (either half first) -> (tile, bit, high, low): all a play reads of the tile it sets, in one
#: probe and one unpacking (cheaper than two attribute loads after it, on every play of every record).
PLAY_TILE: dict[str, tuple[Tile, int, int, int]] = {text: (t, BIT[t], t.high, t.low) for text, t in PARSED.items()}
#: Tile text (either half first) -> (tile, high, low): a play's target, read the same way.
ON_TILE: dict[str, tuple[Tile, int, int]] = {text: (t, t.high, t.low) for text, t in PARSED.items()}


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of a hand mask, highest first (the order a club player writes them)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(SET_TILES[low.bit_length() - 1])
        mask ^= low
    return out


_TEXT: tuple[str, ...] = tuple(str(t) for t in SET_TILES)


def tiles_text(mask: int) -> str:
    """A hand mask as a club player writes it, highest first (cheap: it runs every hand end)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_TEXT[low.bit_length() - 1])
        mask ^= low
    return " ".join(out) or "(none)"


#: Pip totals of every 7-bit slice of a hand mask (four slices cover the 28 tiles).
_PIP_SLICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(SET_TILES[7 * k + i].pips for i in range(7) if (m >> i) & 1) for m in range(128))
    for k in range(4))


def pips_of(mask: int) -> int:
    """The pips left in a hand mask, by table look-up (it runs at the end of every hand)."""
    p0, p1, p2, p3 = _PIP_SLICES
    return p0[mask & 127] + p1[(mask >> 7) & 127] + p2[(mask >> 14) & 127] + p3[(mask >> 21) & 127]


def round_to_five(n: int) -> int:
    """Nearest multiple of five: n mod 5 of 1–2 rounds down, 3–4 up (docs/rules/horse-race.md)."""
    return (n + 2) // 5 * 5


def pegs(count: int, celko: bool) -> int:
    """What a count earns: a positive multiple of five pegs ÷ 5 (celko: in full); 0 earns nothing."""
    if count <= 0 or count % 5:
        return 0
    return count if celko else count // 5


#: The pips of the whole set (168).
SET_PIPS = sum(t.pips for t in SET_TILES)
#: The most a count can be (138): each tile on the layout adds to it once at most, a non-double
#: the number it leaves open (its higher at most), a double twice its number while a side is
#: free, the lead both its numbers; so at most every non-double's higher number, every double's
#: two, and the lower number of a non-double lead (5, of 6-5).  A count scores only as a multiple
#: of five: at most 135, pegging 27 (Celko: 135).
MOST_COUNT = (sum(max(t.high, t.low) for t in SET_TILES if t.high != t.low)
              + sum(2 * t.high for t in SET_TILES if t.high == t.low)
              + max(min(t.high, t.low) for t in SET_TILES if t.high != t.low))
#: The most a hand's end count gives a side (34): the pips of other hands, never more than the
#: set's 168, rounded to five (170) and ÷ 5.
MOST_END = (SET_PIPS + 2) // 5


#: Why a Celko side gains at most 3780 on another in one hand (:meth:`HorseRace.final_scores`).
GAIN_WHY = "the most a side gains on another in one hand (its pegs and the other's pips left, {peg} at most a tile)"


#: Why a Celko game checked after every peg never ends with two sides at the target
#: (:func:`score_range`): totals rise only by pegs, and the first peg to the target ends the game.
ALONE_CELKO = "a peg scores one side, and the game stops at the peg that takes a side to the target"


def score_range(celko: bool, immediate: bool, target: int) -> base.ScoreRange:
    """What a side can score (:meth:`HorseRace.final_scores`, whose docstring proves the bounds):
    the variant Celko or not, the target checked after every peg (``immediate``) or hand."""
    if celko:
        peg = MOST_COUNT // 5 * 5
        hand = len(SET_TILES) * peg
        return base.ScoreRange(None, None, hand=hand, hand_why=f"{len(SET_TILES)} tiles set, each pegging at most "
                               f"{peg}", target=target, step=peg if immediate else hand,
                               step_why="the most one peg can score" if immediate else "the most one hand can score",
                               ties_go_on=not immediate, fall=round_to_five(SET_PIPS),
                               gain=None if immediate else hand, gain_why=GAIN_WHY.format(peg=peg),
                               alone=ALONE_CELKO if immediate else "")
    peg = MOST_COUNT // 5
    hand = len(SET_TILES) * peg + MOST_END
    return base.ScoreRange(0, None, "pegs and end-of-hand points are never negative", hand=hand,
                           hand_why=f"{len(SET_TILES)} tiles set, each pegging at most {peg}, and {MOST_END} for "
                                    f"the hand's end", target=target, step=max(peg, MOST_END) if immediate else hand,
                           step_why="the most a side scores at once: a peg, or a hand's end count" if immediate
                           else "the most one hand can score", ties_go_on=True)


#: ``_PEGS[count]``: what a count pegs (:func:`pegs`), for every count a layout can show (at most
#: 28 open tiles of at most 12 each); the replay reads it after every tile set.
_PEGS: tuple[int, ...] = tuple(pegs(count, False) for count in range(28 * 12 + 1))
_PEGS_CELKO: tuple[int, ...] = tuple(pegs(count, True) for count in range(28 * 12 + 1))


def peg_rule(count: int, celko: bool) -> str:
    """How a count pegs, in a few words: "pegs 3: one point per five", "no score: not a multiple
    of five".  Messages and explain say it so that a player can redo the sum."""
    if count <= 0:
        return "no score: nothing is open to count" if count == 0 else "no score"
    if count % 5:
        return "no score: not a multiple of five"
    if celko:
        return f"pegs {count}: the full count, in celko"
    return f"pegs {count // 5}: one point per five"


def peg_words(count: int, celko: bool) -> str:
    """The sentence a score message gives: "the ends total 15, which pegs 3: one point per five"."""
    rule = peg_rule(count, celko)
    if rule.startswith("pegs"):
        return f"the ends total {count}, which {rule}"
    return f"the ends total {count}, which scores nothing ({rule.removeprefix('no score: ')})"


@attrs.frozen
class Rules:
    """A match's settled rule options; frozen because a record's rules never change mid-game."""

    partnerships: bool
    chain_draw: bool
    count_partner: bool
    win_check: str
    target: int
    celko: bool


# --- the layout ----------------------------------------------------------------


class Node:
    """One tile on the table.

    A non-double keeps the numbers still open on it (one, or two for a led
    tile).  A double is a spinner: ``sides_free`` (2 when led, 1 when joined,
    because the arm it joins takes a side) and, once those are gone,
    ``ends_free``.  ``number`` is the number it joined on (``None`` for the
    lead), kept for telling the layout arm by arm.
    """

    __slots__ = ("tile", "number", "double", "free", "sides_free", "ends_free", "children")

    def clone(self, memo: dict[int, Any] | None = None) -> "Node":
        """A copy of this tile of the layout whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, tile: Tile, number: int | None) -> None:
        self.tile = tile
        self.number = number
        self.double = tile.high == tile.low
        self.free: list[int] = []
        self.sides_free = 0
        self.ends_free = 0
        #: (how it is attached: "side", "end" or the number of the half, child node)
        self.children: list[tuple[Any, Node]] = []

    def open_number(self, t: Tile) -> int | None:
        """The number of this node's open spot that ``t`` would join, or None."""
        if self.double:
            d = self.tile.high
            if (self.sides_free or self.ends_free) and (t.high == d or t.low == d):
                return d
            return None
        for n in self.free:
            if t.high == n or t.low == n:
                return n
        return None

    def text(self) -> str:
        """The tile as it lies, joined number first (``6-4`` joined on 6)."""
        if self.number is None or self.double:
            return str(self.tile)
        return f"{self.number}-{self.tile.other(self.number)}"


# --- one hand ------------------------------------------------------------------


class HorseRaceHand:
    """One hand: the layout, the hands as masks, the boneyard, whose turn and how it ended.

    The layout is kept flat for the replay: ``_spots`` maps each tile on the
    table to what is still free on it (a non-double: a mask of its open
    numbers; a double: ``sides_free | ends_free << 2``), in play order, and
    ``_on`` maps each tile after the lead to the tile it was set on.  A legal play is one
    dict look-up and one dict store instead of a :class:`Node` built; the
    tree of nodes that render, pictures and legal moves walk is built from
    these when asked (:attr:`nodes`).
    """

    #: A hand whose deal is known (see :class:`OpenHorseRaceHand` for one whose deal is not).
    open = False
    #: :meth:`apply` checks before it changes anything (an open hand puts back the turn it moved
    #: on before a refusal), so a refused move leaves the state as it was: the Game API need not
    #: put it back (:attr:`domrec.game.Game.refusal_keeps_state`).
    refusal_keeps_state = True

    #: What :meth:`position_key` leaves out: the match and what the hand never changes, and ``_on``
    #: (which tile each tile was set on: only the drawing of the layout reads it; what is still
    #: open on each tile is ``_spots``).
    position_skip = frozenset({"match", "rules", "seats", "side_of", "_pegs", "_next", "_on"})

    def position_key(self) -> tuple:
        """What decides the rest of the hand, as a value: two states with equal keys accept the
        same moves from here on, with the same points and the same end.  It is the whole state
        but how the layout came to be (a tile set on 4-2's 2 or on 5-2's 2 leaves the same open
        spots), so that the DGN reader, trying which tile each tile went on, reads a hand's
        equal positions once (:mod:`domrec.notation.readings`).  A hand without its deal keeps
        in its state what the deal will be checked against when it is known (``barred``: the
        numbers open at each pass or draw)."""
        d = self.__dict__
        if len(d) != self._KEY_SIZE:  # (an attribute the written key does not name: the general key)
            return base.state_key(self, self.position_skip, (self.match,))
        order, notes = self.order, d.get("_bar_notes")
        return (self._key_values(self), *[tuple(d[name].items()) for name in self._KEY_DICTS],
                tuple(self.open_num), None if order is None else tuple(order),
                None if notes is None else tuple((seat, tuple(said)) for seat, said in notes.items()))

    # The key written out (:meth:`position_key`): :func:`base.state_key` walks every attribute and
    # asks each value's kind, some 40 µs a state, and the DGN reader keys every position of a
    # sheet's readings.  Each attribute not in ``position_skip`` is named once below, its value
    # made a key as ``state_key`` makes it (a value; a dict of values, its items in order; a
    # list of values, a tuple; ``_bar_notes``, lists of tuples of values), so the key tells
    # states apart exactly as ``state_key`` does (tests/test_position_set.py checks both on the
    # states of simulated sheets).  A state holding another attribute falls back on ``state_key``.
    #: Attributes holding values (numbers, strings, tiles, ``None``).
    _KEY_VALUE_NAMES: tuple[str, ...] = ("unseen", "stock", "to_move", "lead_reason", "_first", "open_mask",
                                         "count", "chain", "drawing", "drawn", "over", "end", "out_seat",
                                         "target_side", "closing")
    _key_values = operator.attrgetter(*_KEY_VALUE_NAMES)
    #: Attributes holding dicts of values.
    _KEY_DICTS: tuple[str, ...] = ("dealt", "hands", "drawn_by", "_spots", "pegged")
    #: Attributes the key reads apart: ``open_num`` (a list of counts), ``order`` (a list of
    #: tiles or ``None``) and an open hand's ``_bar_notes``.
    _KEY_OTHERS: tuple[str, ...] = ("open_num", "order")
    #: How many attributes a state has when the key names them all (with those it skips).
    _KEY_SIZE = len(_KEY_VALUE_NAMES) + len(_KEY_DICTS) + len(_KEY_OTHERS) + len(position_skip)

    #: The containers a hand changes in place (dicts and lists of values), which :meth:`clone`
    #: copies; the others it holds are values, or the match's and never changed (``seats``,
    #: ``side_of``, ``_next``, ``_pegs``), which a copy shares.
    _OWN: tuple[str, ...] = ("dealt", "hands", "drawn_by", "_spots", "_on", "open_num", "pegged")

    def clone(self, memo: dict[int, Any] | None = None) -> "HorseRaceHand":
        """A copy of this hand state whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was; the DGN reader's positions); ``memo`` shares
        one copy of an object reached twice, as :func:`base.clone_state` does.

        Written out (the attributes copied at once, then the containers of :attr:`_OWN` and the
        match): readings of a sheet copy a state at each tile that fits more than one open
        tile, and the general copy walks every attribute.  (tests/test_position_set.py checks
        that a copy played on leaves the state it was made from as it was.)"""
        memo = {} if memo is None else memo
        twin, own = base.twin_of(self, memo, self._OWN)
        if own is not None:
            if self.order is not None:
                own["order"] = self.order.copy()
            match = memo.get(id(self.match))
            own["match"] = match if match is not None else self.match.clone(memo)
            self._clone_own(own)
        return twin

    def _clone_own(self, own: dict[str, Any]) -> None:
        """What :meth:`clone` copies beyond the known hand's containers (an open hand's)."""

    def __init__(self, match: HorseRaceMatch, masks: dict[str, int], boneyard: list[Tile] | None,
                 undealt: int, leader: str | None, lead_reason: str) -> None:
        self.match = match
        self.rules = match.rules
        self.seats = match.seats
        self.side_of = match.side_of
        #: Each seat's dealt tiles (masks), for messages.
        self.dealt = dict(masks)
        self.hands: dict[str, int] = masks
        #: The boneyard in draw order when the record gives it, else None.
        self.order = boneyard
        #: Tiles nobody has seen yet (only kept when the order is unknown).
        self.unseen = undealt
        self.stock = len(boneyard) if boneyard is not None else undealt.bit_count()
        self.drawn_by: dict[Tile, str] = {}
        self.to_move: str | None = leader
        self.lead_reason = lead_reason
        #: The layout (see the class's docstring): the lead tile, what is free on each tile, the plays.
        self._first: Tile | None = None
        self._spots: dict[Tile, int] = {}
        self._on: dict[Tile, Tile] = {}
        self.open_num = [0] * 7
        self.open_mask = 0
        self.count = 0
        self.pegged = dict(match.zero)
        #: What each count pegs under this variant (see _PEGS).
        self._pegs = match.pegs
        # Turn state: going on with a chain; having drawn (must keep drawing); a drawn tile to set.
        self.chain: Tile | None = None
        self.drawing = False
        self.drawn: Tile | None = None
        self.over = False
        self.end: str | None = None
        self.out_seat: str | None = None
        self.target_side: str | None = None
        self.closing = 0
        self._next = match.next_seat

    @property
    def drawn_count(self) -> int:
        """How many tiles have been drawn (with the boneyard's order known: the next one's index)."""
        return len(self.order) - self.stock if self.order is not None else 0

    # --- the layout as a tree, for whoever walks it --------------------------------

    @property
    def nodes(self) -> dict[Tile, Node]:
        """Every tile on the table as a :class:`Node`, in play order, children attached.

        Built afresh from ``_spots`` and ``_on`` each time it is asked (render
        and pictures; the replay never does).  Where a tile was set follows from
        the tile it was set on: the number they share, and on a spinner a side
        while one was free (the first two children of a led spinner, the first
        of a joined one), an end after that.
        """
        nodes: dict[Tile, Node] = {}
        spots = self._spots
        on_of = self._on
        for t in spots:
            on = on_of.get(t)
            if on is None:
                n = slot = None
            else:
                parent = nodes[on]
                if parent.double:
                    n = on.high
                    slot = "side" if len(parent.children) < (2 if parent.number is None else 1) else "end"
                else:
                    n = slot = on.high if t.has(on.high) else on.low
            node = Node(t, n)
            free = spots[t]
            if node.double:
                node.sides_free, node.ends_free = free & 3, free >> 2
            else:
                halves = (t.high, t.low) if n is None else (t.other(n),)
                node.free = [k for k in halves if free >> k & 1]
            if on is not None:
                nodes[on].children.append((slot, node))
            nodes[t] = node
        return nodes

    @property
    def lead(self) -> Node | None:
        """The lead as a :class:`Node` (``None`` before it), built as :attr:`nodes` is."""
        return None if self._first is None else self.nodes[self._first]

    def _spot(self, on: Tile, t: Tile) -> int | None:
        """The number of ``on``'s free spot that ``t`` would join, or None (:meth:`Node.open_number`)."""
        free = self._spots[on]
        d = on.high
        if d == on.low:
            return d if free and (t.high == d or t.low == d) else None
        if free >> t.high & 1:
            return t.high
        if free >> t.low & 1:
            return t.low
        return None

    def places(self, t: Tile) -> list[Tile]:
        """The tiles on the table that ``t`` may be set on now, in play order: those with a free
        spot it joins.  A play of ``t`` set on any other tile is refused, so a reader trying which
        tile a tile went on need not try the others on the engine."""
        spot = self._spot  # (a tile with no free spot joins nothing: not asked)
        return [on for on, free in self._spots.items() if free and spot(on, t) is not None]

    def least_scores(self) -> dict[str, int] | None:
        """The least this hand can still give each side, whatever follows: what each side has
        pegged so far (the engine's own dict: read it, do not change it).  Every peg adds, and
        the hand's end only adds (the domino's or the block's count, rounded, to the side that
        scores it; a hand ended at the target scores its pegs alone), so a reader of a score
        sheet whose ``end`` line claims the hand's scores drops a reading as soon as a side has
        pegged more than it claims (:mod:`domrec.notation.position_set`, the general reading
        alike).  ``None`` in the ``celko`` variant, whose end takes each player's own pips off."""
        return None if self.rules.celko else self.pegged

    # --- questions the rules ask ---------------------------------------------------

    def _fit(self, seat: str) -> tuple[Tile, Tile] | None:
        """A (tile, tile on the table) the seat could set now, or None."""
        mask = self.hands[seat] & PLAYABLE[self.open_mask]
        if not mask:
            return None
        t = SET_TILES[(mask & -mask).bit_length() - 1]
        for on in self._spots:
            if self._spot(on, t) is not None:
                return t, on
        raise AssertionError("open numbers out of step with the layout")  # pragma: no cover

    def _blocked(self) -> bool:
        if self.stock or self.drawn is not None:
            return False
        playable = PLAYABLE[self.open_mask]
        for mask in self.hands.values():
            if mask & playable:
                return False
        return True

    # --- moves ---------------------------------------------------------------------

    def apply(self, move: Move) -> int:
        """Make ``move``; return the points it pegs.

        A play (most moves) is written out here in one piece, setting the tile
        included: it runs for every move of every record validated, so the
        legal play takes no helper call; refusals are worded by helpers, off
        that path.  The checks come in the rules' order and a refused move
        leaves the state as it was.
        """
        seat = move.seat
        if self.over:
            return self._after_end(move)
        if seat != self.to_move:
            raise IllegalMove(self._wrong_seat(seat), self._wrong_seat_rule(), "/seat")
        if type(move) is not Play:
            kind = type(move)
            if kind is Draw:
                self._draw(seat, move)
                return 0
            if kind is Pass:
                self._pass(seat)
                return 0
            raise IllegalMove("a horse-race move is a play, a draw or a pass", R_MATCH, base.kind_pointer(move))
        if move.at is not None or move.penalty is not None:
            raise IllegalMove("a horse-race play names the tile and the tile it is set on (\"on\"), "
                              "nothing else", R_MATCH, base.stray_pointer(move, "at", "penalty"))
        text = move.play
        # (look-ups written try-first: the usual text is in the table, and a subscript is cheaper
        # than a call to get)
        try:
            t, bit, high, low = PLAY_TILE[text]
        except KeyError:
            t = T.tile(text)
            bit = BIT.get(t, 0)
            high, low = t.high, t.low
        hands = self.hands
        hand = hands[seat]
        dealt = False  # set from the tiles an open hand has not shown yet
        if not hand & bit:
            dealt = self._from_hidden(seat, t, text)
        drawn = self.drawn
        if drawn is not None and t is not drawn:
            raise IllegalMove(f"{seat} drew {drawn}, which fits, and must set it at once, not {text}",
                              R_DRAWN, "/play")
        if dealt:
            self._check_not_barred(seat, t, text)
        spots = self._spots
        if not spots:  # (no tile on the table yet: this one leads; as _first is None, one load fewer)
            if move.on is not None:
                raise IllegalMove(f"{text} leads the hand: there is nothing to set it on", R_MATCH, "/on")
            self._lay_lead(t)
            count = self.count
        else:
            # Set the tile on its target: what is free there, the open numbers, the count.
            on_text = move.on
            try:
                target, n, on_low = ON_TILE[on_text]
            except KeyError:
                target = self._only_place(t, text) if on_text is None else T.tile(on_text)
                n, on_low = target.high, target.low
            try:
                free = spots[target]
            except KeyError:
                raise IllegalMove(f"{on_text} is not on the table, so {text} cannot be set on it",
                                  R_MATCH, "/on") from None
            open_num = self.open_num
            count = self.count  # the ends' total, kept local and written back once at the end
            if n == on_low:  # a spinner: its sides first, then its ends
                if (high != n and low != n) or not free:
                    raise IllegalMove(self._no_match(t, text, target), R_MATCH, "/on")
                if free & 3:  # a side
                    if (free & 3) == 2:
                        open_num[n] -= 1
                    else:
                        if move.score is not None:
                            self._check_sides_first(t, n, move)  # reads self.count, not changed yet
                        count -= 2 * n
                        open_num[n] += 1  # the last side goes (-1) and both ends open (+2)
                    spots[target] = free - 1
                else:  # an end
                    open_num[n] -= 1
                    spots[target] = free - 4
            else:
                if free >> high & 1:
                    n = high
                elif free >> low & 1:
                    n = low
                else:
                    raise IllegalMove(self._no_match(t, text, target), R_MATCH, "/on")
                spots[target] = free & ~(1 << n)
                open_num[n] -= 1
                count -= n
            if high == low:
                spots[t] = 9  # one side free (the arm it joins takes the other), both ends
                open_num[n] += 1
                count += 2 * n
                other = n
            else:
                other = low if high == n else high
                spots[t] = 1 << other
                open_num[other] += 1
                count += other
            self.count = count
            # The number joined may be closed now; the new tile's is open (its count is at least 1).
            mask = self.open_mask
            if not open_num[n]:
                mask &= ~(1 << n)
            self.open_mask = mask | 1 << other
            self._on[t] = target
        if dealt:
            self._set_hidden(seat, t, bit)
        else:
            hand ^= bit  # (held: tested above)
            hands[seat] = hand
        points = self._pegs[count]
        if points:
            rules = self.rules
            side = self.side_of[seat]
            pegged = self.pegged
            now = pegged[side] = pegged[side] + points
            # (the test of _reached that mostly fails, written out)
            if (rules.win_check == "immediate" and self.match.totals[side] + now >= rules.target
                    and self._reached(side)):
                self.over, self.end, self.target_side, self.to_move = True, "target", side, None
                return points
        if not hand and not self.held_count(seat):  # (an open hand's player may hold tiles not shown)
            self.over, self.end, self.out_seat, self.to_move = True, "out", seat, None
            return points
        if self.drawing:
            self.drawing = False
            self.drawn = None
        if drawn is None and (points or high == low):
            # The chain: go on while able; unable, draw (chain_draw) or pass, or the turn ends.
            if self.rules.chain_draw or hand & PLAYABLE[self.open_mask]:
                self.chain = t
            elif self._chain_waits(seat):
                self.chain = t
            else:
                self.chain = None
                self.to_move = self._next[seat]
        else:
            self.chain = None
            self.to_move = self._next[seat]
        if not self.stock and self._blocked():
            self.over, self.end = True, "blocked"
        return points

    def _after_end(self, move: Move) -> int:
        if (self.end == "blocked" and type(move) is Pass and move.seat == self.to_move
                and self.closing < len(self.seats)):
            self.closing += 1  # a closing pass of a block, which may be written or left out
            self.to_move = self._next[move.seat]
            return 0
        if self.end == "blocked" and type(move) is Pass and self.closing < len(self.seats):
            raise base.closing_pass_out_of_turn(move.seat, self.to_move, R_END)
        if self.end == "out":
            why = f"{self.out_seat} dominoed"
        elif self.end == "target":
            why = (f"the game ended when {self.target_side} reached {self.rules.target} "
                   f"(option win_check: immediate)")
        else:
            why = "nobody can set a tile and the boneyard is empty (blocked)"
        raise IllegalMove(f"the hand is already over: {why}", R_TARGET if self.end == "target" else R_END)

    def _wrong_seat(self, seat: str) -> str:
        now = self.to_move
        if seat not in self._next:
            return f"{seat} is not a seat at this table (seats: {', '.join(self.seats)})"
        if self.drawn is not None:
            return f"{now} drew {self.drawn}, which fits: {now} must set it at once, before {seat} moves"
        if self.drawing:
            if not self.stock:
                return f"{now} drew the boneyard empty without a tile that fits and must pass before {seat} moves"
            return f"{now} is drawing and must go on drawing until a tile fits or the boneyard is empty"
        if self.chain is not None:
            fit = self._fit(now)
            why = "a double" if self.chain.high == self.chain.low else "a scoring tile"
            if fit is not None:
                return (f"{now} set {why} ({self.chain}) and must go on while able: {fit[0]} fits on {fit[1]}; "
                        f"it is not {seat}'s turn")
            if self.stock:
                return f"{now} set {why} ({self.chain}) and, unable to go on, must draw (option chain_draw)"
            return f"{now} set {why} ({self.chain}) and, unable to go on with the boneyard empty, must pass"
        if self._first is None and self.lead_reason:
            return f"{seat} cannot lead this hand: {self.lead_reason}"
        return f"it is {now}'s turn, not {seat}'s (play passes clockwise: {' → '.join(self.seats)})"

    def _wrong_seat_rule(self) -> str:
        if self.drawn is not None:
            return R_DRAWN
        if self.drawing:
            return R_DRAW
        if self.chain is not None:
            return R_CHAIN
        if self._first is None and self.lead_reason:
            return R_LEAD
        return R_ORDER

    def _reached(self, side: str) -> bool:
        """Has ``side`` just reached the target, ahead of every other side?  (The match's totals
        are those before this hand: they change only once it is over.)"""
        totals = self.match.totals
        mine = totals[side] + self.pegged[side]
        if mine < self.rules.target:
            return False
        for other, n in self.pegged.items():
            if other != side and totals[other] + n >= mine:
                return False
        return True

    def _lay_lead(self, t: Tile) -> None:
        """The first tile of the hand: both halves open; a double is a spinner with two sides and two ends."""
        high, low = t.high, t.low
        if high == low:
            self._spots[t] = 10  # two sides free, two ends
            self.open_num[high] += 2
            self.count = 2 * high
        else:
            self._spots[t] = 1 << high | 1 << low
            self.open_num[high] += 1
            self.open_num[low] += 1
            self.count = high + low
        self.open_mask |= 1 << high | 1 << low
        self._first = t

    def _check_sides_first(self, t: Tile, n: int, move: Play) -> None:
        """A score claim that only adds up with the tile on a spinner *end* reveals a side skipped.

        ``on`` names only the tile, so a record cannot say "end"; but a tile on
        the last free side stops the spinner counting, and one on an end would
        not.  When the claimed score is wrong and equals what the end would
        give, the writer set the tile on an end while a side was free.
        """
        claim = move.score
        if claim is None:
            return
        free = 2 * n if t.high == t.low else t.other(n)
        true_count = self.count - 2 * n + free
        celko = self.rules.celko
        if claim == pegs(true_count, celko):
            return  # (the usual case: the claim is right)
        end_count = self.count + free
        if claim == pegs(end_count, celko):
            raise IllegalMove(
                f"{move.play} on {n}-{n} goes on the spinner's free side, not on an end: its ends open only "
                f"once both sides are taken (the claimed {claim} fits the tile on an end, where the ends would "
                f"total {end_count}, which {f'pegs {claim}' if claim else 'scores nothing'}; on the side "
                f"{peg_words(true_count, celko)})", R_SIDES, "/score")

    def _only_place(self, t: Tile, text: str) -> Tile:
        """The one tile on the table that ``t`` fits, for a play that does not say (no "on")."""
        spot = self._spot  # (a tile with no free spot joins nothing: not asked)
        places = [on for on, free in self._spots.items() if free and spot(on, t) is not None]
        if not places:
            raise IllegalMove(f"{text} fits nowhere on the layout (open numbers: {self._open_text()})",
                              R_MATCH, "/play")
        if len(places) > 1:
            raise IllegalMove(f"{text} fits on {' and on '.join(str(p) for p in places)}: say which it is "
                              f"played on (\"on\" in JSON, {text}@{places[0]} in DGN)", R_MATCH, "/on")
        return places[0]

    def _open_text(self) -> str:
        return ", ".join(str(n) for n in range(7) if self.open_num[n]) or "none"

    def _no_match(self, t: Tile, text: str, on: Tile) -> str:
        free = self._spots[on]
        if on.high == on.low:
            d = on.high
            if not free:
                return f"{on} has no free side or end left: both sides and both ends are taken"
            return f"{text} does not match {on}: a tile set on it must have a {d}"
        if not free:
            return f"nothing more can be set on {on}: its open end is already covered"
        shows = " or ".join(str(n) for n in (on.high, on.low) if free >> n & 1)
        return f"{text} does not match {on}: its open end shows {shows}"

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        if t not in SET:
            return f"{text} is not a tile of the double-six set"
        if t in self._spots:
            return f"{seat} does not hold {text}: it is already on the table"
        bit = BIT[t]
        for other, mask in self.hands.items():
            if mask & bit:
                return f"{seat} does not hold {text} (it is in {other}'s hand)"
        return f"{seat} does not hold {text}: it is still in the boneyard"

    def _draw(self, seat: str, move: Draw) -> Tile:
        """Draw a tile; return it."""
        if self.drawn is not None:
            raise IllegalMove(f"{seat} drew {self.drawn}, which fits: it must be set at once, not another "
                              f"tile drawn", R_DRAWN, "/draw")
        if self._first is None:
            raise IllegalMove(f"{seat} leads this hand and sets any tile; there is nothing to draw for",
                              R_LEAD, "/draw")
        hands = self.hands
        playable = PLAYABLE[self.open_mask]  # (a draw changes no open number: read once)
        if hands[seat] & playable:  # (the test of _fit, written out: every draw asks)
            fit = self._fit(seat)
            rule = R_CHAIN if self.chain is not None else R_FORCED
            raise IllegalMove(f"{seat} cannot draw while able to set a tile: {fit[0]} fits on {fit[1]}", rule, "/draw")
        if not self.stock:
            raise IllegalMove(f"{seat} cannot draw: the boneyard is empty, so {seat} passes", R_DRAW, "/draw")
        what = move.draw
        order = self.order
        if order is not None:
            t = order[len(order) - self.stock]  # (drawn_count, written out: every draw asks)
            if what is not True and (PARSED.get(what) or T.tile(what)) is not t:
                raise IllegalMove(f"the boneyard's order, given with the deal, has {t} as draw number "
                                  f"{self.drawn_count + 1}, not {what}", R_BONEYARD, "/draw")
        else:
            if what is True:
                raise IllegalMove("this hand's deal gives no boneyard order, so each draw must name its tile "
                                  "(\"draw\": \"2-0\")", R_BONEYARD, "/draw")
            t = T.tile(what)
            bit = BIT.get(t, 0)
            if not self.unseen & bit:
                raise IllegalMove(f"{what} cannot be drawn: {self._seen_where(t, what)}", R_BONEYARD, "/draw")
            self.unseen &= ~bit
        self.stock -= 1
        self.drawn_by[t] = seat
        bit = BIT[t]
        hands[seat] |= bit
        self.drawing = True
        if playable & bit:
            self.drawn = t
        elif not self.stock and self._blocked():
            self.over, self.end = True, "blocked"
        return t

    def _seen_where(self, t: Tile, text: str) -> str:
        if t not in SET:
            return "it is not a tile of the double-six set"
        bit = BIT[t]
        for seat, mask in self.dealt.items():
            if mask & bit:
                return f"it was dealt to {seat}, so it is not in the boneyard"
        return f"it was already drawn by {self.drawn_by[t]}"

    def _pass(self, seat: str) -> None:
        if self.drawn is not None:
            raise IllegalMove(f"{seat} drew {self.drawn}, which fits: {seat} must set it at once, not pass",
                              R_DRAWN, "/pass")
        if self._first is None:
            raise IllegalMove(f"{seat} leads this hand and cannot pass", R_LEAD, "/pass")
        fit = self._fit(seat)
        if fit is not None:
            if self.chain is not None:
                raise IllegalMove(f"{seat} cannot stop the chain after {self.chain} while able to go on: "
                                  f"{fit[0]} fits on {fit[1]}", R_CHAIN, "/pass")
            raise IllegalMove(f"{seat} cannot pass: {seat} must set a tile, {fit[0]} fits on {fit[1]}",
                              R_FORCED, "/pass")
        if self.stock:
            raise IllegalMove(f"{seat} cannot pass while the boneyard holds {self.stock} tile"
                              f"{'s' if self.stock != 1 else ''}: {seat} must draw", R_DRAW, "/pass")
        self.chain = None
        self.drawing = False
        self.to_move = self._next[seat]

    # --- where a play meets a tile nobody has seen ------------------------------------
    # A known deal shows every tile; OpenHorseRaceHand, which knows only the tiles shown,
    # answers these.  They are reached only off the hot path: a tile not in the mover's
    # known hand, or a chain that cannot go on with one.

    def _from_hidden(self, seat: str, t: Tile, text: str) -> bool:
        """``seat`` sets ``t``, which is not among its known tiles: may it be a dealt tile not shown yet?

        In a known deal every tile is known, so ``t`` is not held: refused.
        """
        raise IllegalMove(self._not_held(seat, t, text), R_HOLD, "/play")

    def _check_not_barred(self, seat: str, t: Tile, text: str) -> None:
        """Refuse a dealt tile not shown before that would have fitted when ``seat`` passed or drew.

        Only an open hand sets tiles from the hidden ones (see :meth:`_from_hidden`).
        """

    def _set_hidden(self, seat: str, t: Tile, bit: int) -> None:
        """``seat`` has set ``t`` from its hidden tiles (an open hand's; see :meth:`_from_hidden`)."""

    def _chain_waits(self, seat: str) -> bool:
        """Does the chain stay with ``seat``, whose known tiles cannot go on (option chain_draw false)?

        In a known deal, no: every tile ``seat`` holds is known, so its turn ends.
        """
        return False

    # --- what the simulator may do -----------------------------------------------

    def closing_passes(self) -> list[Move]:
        """The passes a record may write after a block (one round, from the player to move on);
        the simulator writes them now and then (see :mod:`domrec.simulate`)."""
        if self.end != "blocked" or self.to_move is None:
            return []
        return base.pass_round(self.to_move, len(self.seats) - self.closing, self._next.__getitem__)

    def only_pass(self) -> bool:
        """:meth:`legal_moves` is the pass alone: after the lead, nothing the player to move
        holds (or has just drawn) is playable and the boneyard is empty."""
        if self.over or self._first is None:
            return False
        if self.drawn is not None or self.hands[self.to_move] & PLAYABLE[self.open_mask]:
            return False
        return not self.stock

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        seat = self.to_move
        hand = self.hands[seat]
        if self._first is None:
            return [Play(seat=seat, play=str(t)) for t in tiles_of(hand)]
        if self.drawn is not None:
            playable = BIT[self.drawn]
        else:
            playable = hand & PLAYABLE[self.open_mask]
        if playable:
            moves: list[Move] = []
            for t in tiles_of(playable):
                text = str(t)
                for on in self._spots:
                    if self._spot(on, t) is not None:
                        moves.append(Play(seat=seat, play=text, on=str(on)))
            return moves
        if self.stock:
            if self.order is not None:
                return [Draw(seat=seat, draw=str(self.order[self.drawn_count]))]
            return [Draw(seat=seat, draw=str(t)) for t in tiles_of(self.unseen)]
        return [Pass(seat=seat)]

    def count_if(self, t: Tile, on: Tile | None) -> int:
        """The count the layout would show with ``t`` set on ``on`` (``None``: led), without setting it."""
        if on is None:
            return 2 * t.high if t.high == t.low else t.high + t.low
        n = self._spot(on, t)
        count = self.count
        if on.high == on.low:
            if (self._spots[on] & 3) == 1:  # its last side: the spinner stops counting
                count -= 2 * n
        else:
            count -= n
        return count + (2 * n if t.high == t.low else t.other(n))

    # --- the end of the hand -----------------------------------------------------
    # --- the end of the hand -----------------------------------------------------

    def outcome(self) -> HandOutcome:
        # Validation never shows the working, and wording it (every hand's tiles, each sum) cost
        # about a fifth of a hand's replay: the scores are worked out now, the same arithmetic
        # is worded only when explain asks for it (on copies: the working is of this moment).
        pegged, hands = dict(self.pegged), dict(self.hands)
        if self.end == "out" and self.match.plain:
            # The usual end, summed directly (the arithmetic of _individual_end, which the
            # working words): the player who dominoed scores the other hands' pips, rounded to
            # five, ÷ 5; their own hand is empty and no tile is in two hands, so the other
            # hands' pips are those of all the masks added up.
            scores = dict(pegged)
            # (round_to_five(p) // 5 is (p + 2) // 5, written out: every hand ends here)
            scores[self.out_seat] += (pips_of(sum(hands.values())) + 2) // 5
        else:
            scores = self._settle(pegged, hands, None)
        return HandOutcome(self.end, scores, lambda: self._worded(pegged, hands))

    def _worded(self, pegged: dict[str, int], hands: dict[str, int]) -> tuple[str, ...]:
        lines: list[str] = []
        self._settle(pegged, hands, lines)
        return tuple(lines)

    def _settle(self, pegged: dict[str, int], hands: dict[str, int], lines: list[str] | None) -> dict[str, int]:
        """The hand's scores from what was pegged and the tiles left in ``hands``; with ``lines``,
        the arithmetic in words is added to it."""
        rules = self.rules
        sides = self.match.sides
        pips = {s: pips_of(hands[s]) for s in self.seats}
        scores = dict(pegged)
        if lines is not None:
            shown = ", ".join(f"{side} {n}" for side, n in pegged.items())
            lines.append(f"pegged during the hand: {shown}")
        if self.end == "target":
            if lines is not None:
                lines.append(f"{self.target_side} reached {rules.target} during the hand (option win_check: "
                             f"immediate): the game ends at once, with no end-of-hand count")
            return scores
        if lines is not None:
            left = "  ".join(f"{s} {tiles_text(hands[s])} = {pips[s]}" for s in self.seats)
            if self.end == "out":
                lines.append(f"{self.out_seat} dominoed; pips left: {left}")
            else:
                lines.append(f"blocked; pips left: {left}")
        if rules.celko:
            for s in self.seats:
                lost = round_to_five(pips[s])
                scores[self.side_of[s]] -= lost
                if lines is not None:
                    lines.append(f"{s} subtracts its own {pips[s]} pips rounded to {lost} (variant celko)")
        elif rules.partnerships:
            self._partnership_end(pips, scores, lines)
        else:
            self._individual_end(pips, scores, lines)
        if lines is not None:
            lines.append("hand: " + ", ".join(f"{side} {scores[side]}" for side in sides))
        return scores

    def _award(self, scores: dict[str, int], lines: list[str] | None, side: str, parts: list[tuple[str, int]],
               why: str) -> None:
        total = sum(n for _, n in parts)
        rounded = round_to_five(total)
        scores[side] += rounded // 5
        if lines is not None:
            sums = " + ".join(f"{n} ({s})" for s, n in parts) or "0"
            lines.append(f"{side} {why}: {sums} = {total}, rounded to {rounded}, ÷ 5 = {rounded // 5}")

    def _individual_end(self, pips: dict[str, int], scores: dict[str, int], lines: list[str] | None) -> None:
        if self.end == "out":
            winners = [self.out_seat]
        else:
            low = min(pips.values())
            winners = [s for s in self.seats if pips[s] == low]
            if len(winners) > 1 and lines is not None:
                lines.append(f"{' and '.join(winners)} tie for the lowest total ({low}): each scores the "
                             f"pips of all hands but their own")
        for w in winners:
            self._award(scores, lines, w, [(s, pips[s]) for s in self.seats if s != w],
                        "scores the other hands")

    def _partnership_end(self, pips: dict[str, int], scores: dict[str, int], lines: list[str] | None) -> None:
        if self.end == "out":
            side = self.side_of[self.out_seat]
            if self.rules.count_partner:
                parts = [(s, pips[s]) for s in self.seats if s != self.out_seat]
                why = "scores the three other hands (option count_partner: true)"
            else:
                parts = [(s, pips[s]) for s in self.seats if self.side_of[s] != side]
                why = "scores the opponents' hands"
            self._award(scores, lines, side, parts, why)
            return
        totals = {side: sum(pips[s] for s in self.seats if self.side_of[s] == side) for side in ("NS", "EW")}
        if lines is not None:
            lines.append(f"NS {pips['N']} + {pips['S']} = {totals['NS']}, "
                         f"EW {pips['E']} + {pips['W']} = {totals['EW']}")
        if totals["NS"] == totals["EW"]:
            if lines is not None:
                lines.append("equal sides: nobody scores for the block")
            return
        low = "NS" if totals["NS"] < totals["EW"] else "EW"
        self._award(scores, lines, low, [(s, pips[s]) for s in self.seats if self.side_of[s] != low],
                    "has fewer pips and scores the opponents' hands")

    # --- telling the table ----------------------------------------------------------

    def score_why(self, move: Any, points: int) -> str:
        """What the move just applied was counted, for a wrong score claim: "the open ends are
        6 (6-4) + 4 (4-1) + 5 (5-0) = 15: 3 points (one point per five)" (docs/rules/horse-race.md,
        "The count").  The validator writes it after "W is credited 2, but"."""
        if getattr(move, "play", None) is None:
            kind = "a draw" if getattr(move, "draw", None) is not None else "a pass"
            return f"{kind} scores nothing: only setting a tile pegs"
        parts = self.count_parts()
        total = self.count
        if pegs(total, self.rules.celko) != points:  # (a count this method does not know: say the points)
            return f"it scores {points}"
        shown = f"{' + '.join(parts)} = {total}" if len(parts) > 1 else (parts[0] if parts else "0")
        if total <= 0:
            return "nothing is open to count: 0 points"
        if total % 5:
            return f"the open ends are {shown}, not a multiple of five: 0 points"
        how = "the full count, in celko" if self.rules.celko else "one point per five"
        return f"the open ends are {shown}: {points} point{'s' if points != 1 else ''} ({how})"

    def count_parts(self) -> list[str]:
        """The open ends the count adds up, in :meth:`render`'s order: "6 (6-4)", "10 (5-5 spinner)"."""
        parts: list[str] = []
        if self._first is None:
            return parts
        lead = self.nodes[self._first]
        anchors = [lead]
        while anchors:
            node = anchors.pop(0)
            self._anchor_text(node, parts)
            for slot, child in node.children:
                self._arm_text(node, slot, child, parts, anchors)
            if node is lead and not node.double:
                parts.extend(f"{n} ({node.tile})" for n in node.free)
        return parts

    def render(self) -> list[str]:
        """The layout anchor by anchor (the lead, then each spinner), arm by arm, and the count."""
        if self._first is None:
            return ["layout: (empty)"]
        lines = ["layout:"]
        parts: list[str] = []
        lead = self.nodes[self._first]
        anchors = [lead]
        while anchors:
            node = anchors.pop(0)
            lines.append("  " + self._anchor_text(node, parts))
            for slot, child in node.children:
                lines.append("    " + self._arm_text(node, slot, child, parts, anchors))
            if node.double:
                for _ in range(node.sides_free):
                    lines.append(f"    {node.tile} side: free")
                if not node.sides_free:
                    for _ in range(node.ends_free):
                        lines.append(f"    {node.tile} end: free (counts nothing until a tile is set on it)")
            elif node is lead:
                for n in node.free:
                    lines.append(f"    {node.tile} half {n}: open end {n}")
                    parts.append(f"{n} ({node.tile})")
        shown = " + ".join(parts) if parts else "0"
        verdict = peg_rule(self.count, self.rules.celko)
        lines.append(f"count: {shown} = {self.count} ({verdict}); boneyard: {self.stock} tile"
                     f"{'s' if self.stock != 1 else ''}")
        return lines

    def _anchor_text(self, node: Node, parts: list[str]) -> str:
        if not node.double:
            return f"lead {node.tile}"
        head = f"lead {node.tile}, spinner" if node.number is None else f"spinner {node.tile}"
        if node.sides_free:
            parts.append(f"{2 * node.tile.high} ({node.tile} spinner)")
            return f"{head}: a side free, counts {2 * node.tile.high}"
        return f"{head}: both sides taken, counts nothing"

    def _arm_text(self, root: Node, slot: Any, child: Node, parts: list[str], anchors: list[Node]) -> str:
        where = f"half {slot}" if isinstance(slot, int) else slot
        chain = []
        node = child
        while True:
            if node.double:
                anchors.append(node)
                chain.append(f"[{node.tile}]")
                tail = "(a spinner: its arms follow)"
                break
            chain.append(node.text())
            if node.free:
                n = node.free[0]
                parts.append(f"{n} ({node.tile})")
                tail = f"→ open end {n}"
                break
            node = node.children[0][1]
        return f"{root.tile} {where}: {' '.join(chain)} {tail}"

    def holdings(self) -> dict[str, list[Tile]]:
        return {s: tiles_of(self.hands[s]) for s in self.seats}

    def held_count(self, seat: str) -> int:
        """How many tiles ``seat`` holds now."""
        return self.hands[seat].bit_count()

    def deal_notes(self) -> list[str]:
        if self.order is not None:
            return [f"boneyard (in draw order): {' '.join(str(t) for t in self.order)}"]
        return [f"boneyard: {self.stock} tiles, order not recorded (each draw names its tile)"]


# --- a hand whose deal is not known ----------------------------------------------


class OpenHorseRaceHand(HorseRaceHand):
    """A hand typed at the table without the deal: every check the shown tiles allow.

    ``hands`` holds only the tiles known to be in a hand (those drawn and not
    yet set); ``hidden[seat]`` counts the dealt tiles a seat has not shown
    yet, and ``unseen`` is the mask of tiles whose whereabouts nobody knows
    (dealt and not yet set, or in a boneyard whose order is not given).  A tile
    set from ``unseen`` was dealt to its player (draws always name their tile,
    or the boneyard order does), so it was held all hand: a pass or a draw by
    that player while it would have fitted is refused when it is set
    (``barred``).

    Skipped, because they need the hidden tiles: "must set a tile if able"
    for dealt tiles (a pass or a draw is accepted when no *known* tile fits),
    and the automatic block: here a hand is blocked only when every player has
    passed in succession (the boneyard is then empty).  With option
    ``chain_draw: false`` a chain that may not be able to go on keeps
    ``to_move`` on its player (``chain_may_end``); a move by the next seat is
    taken as the chain having ended, and counts toward a block like a pass.
    """

    open = True

    def __init__(self, match: HorseRaceMatch, boneyard: list[Tile] | None, leader: str | None,
                 lead_reason: str) -> None:
        seats = match.seats
        bone_mask = 0
        for t in boneyard or ():
            bone_mask |= BIT[t]
        super().__init__(match, {s: 0 for s in seats}, boneyard, 0, leader, lead_reason)
        self.stock = len(SET_TILES) - len(seats) * match.size
        self.unseen = ALL_TILES & ~bone_mask
        self.hidden: dict[str, int] = {s: match.size for s in seats}
        #: Number masks that were open when a seat showed it could not set a dealt tile.
        self.barred: dict[str, int] = {s: 0 for s in seats}
        self._bar_notes: dict[str, list[tuple[int, str, str, str]]] = {s: [] for s in seats}
        #: Who set each dealt tile set so far (a drawn tile's player is in ``drawn_by``).
        self.played_by: dict[Tile, str] = {}
        #: Passes in succession (a chain ended unwritten counts with the boneyard empty) and written ones.
        self.passes = 0
        self.written_passes = 0
        #: With chain_draw false: the chain's player may go on, or the next seat may move (the chain ended).
        self.chain_may_end = False

    def held_count(self, seat: str) -> int:
        return self.hidden[seat] + self.hands[seat].bit_count()

    #: An open hand's containers changed in place beyond the known hand's (see :meth:`clone`).
    _OWN = (*HorseRaceHand._OWN, "hidden", "barred", "played_by")

    # An open hand's attributes beyond the known hand's, in its written key (see
    # :meth:`HorseRaceHand.position_key`).
    _KEY_VALUE_NAMES = (*HorseRaceHand._KEY_VALUE_NAMES, "passes", "written_passes", "chain_may_end")
    _key_values = operator.attrgetter(*_KEY_VALUE_NAMES)
    _KEY_DICTS = (*HorseRaceHand._KEY_DICTS, "hidden", "barred", "played_by")
    _KEY_OTHERS = (*HorseRaceHand._KEY_OTHERS, "_bar_notes")
    _KEY_SIZE = len(_KEY_VALUE_NAMES) + len(_KEY_DICTS) + len(_KEY_OTHERS) + len(HorseRaceHand.position_skip)

    def _clone_own(self, own: dict[str, Any]) -> None:
        own["_bar_notes"] = {seat: notes.copy() for seat, notes in self._bar_notes.items()}

    def movers(self) -> list[str]:
        """Who may make the next move: the player to move, and, while a chain may have ended
        unwritten (``chain_draw: false``, the chain's player holding tiles nobody has seen),
        the next seat too (see :meth:`_turn_to`).  A reader without seats tries both."""
        now = self.to_move
        if now is None or self.over:
            return []
        if self.chain_may_end:
            return [now, self._next[now]]
        return [now]

    # --- moves ---------------------------------------------------------------------
    # The moves are the known deal's (HorseRaceHand._play, _draw, _pass): this class answers
    # the questions a play asks about tiles not shown, and adds to a draw and a pass what they
    # show about the player's dealt tiles.

    def apply(self, move: Move) -> int:
        seat = move.seat
        if self.over or seat == self.to_move:
            points = super().apply(move)
        else:
            # The leader found, or a chain ended: undone if the move itself is refused.
            now = self.to_move
            saved = (now, self.chain, self.chain_may_end, self.passes, self.written_passes,
                     self.barred.get(now, 0), len(self._bar_notes.get(now, ())))
            self._turn_to(seat)
            try:
                points = super().apply(move)
            except IllegalMove:
                self.to_move, self.chain, self.chain_may_end, self.passes, self.written_passes, barred, kept = saved
                if now is not None:
                    self.barred[now] = barred
                    del self._bar_notes[now][kept:]
                raise
        if type(move) is not Pass:
            self.passes = self.written_passes = 0  # a tile set or drawn: no passes in succession
        return points

    def _turn_to(self, seat: str) -> None:
        """A move by a seat other than ``to_move``: the leader unknown, a chain ended, or out of turn."""
        now = self.to_move
        if now is None and self._first is None and seat in self._next:
            self.to_move = seat  # the lead is free: the first move's seat leads
            return
        if self.chain_may_end and seat == self._next[now]:
            # The chain's player could not go on: with chain_draw false the turn simply ended.
            self._bar(now, R_CHAIN, f"let the chain after {self.chain} end", "end a chain while able to go on")
            self.chain = None
            self.chain_may_end = False
            self.passes = 0 if self.stock else 1
            self.written_passes = 0
            self.to_move = seat
            return
        raise IllegalMove(self._wrong_seat(seat), self._wrong_seat_rule(), "/seat")

    def _wrong_seat(self, seat: str) -> str:
        now = self.to_move
        if (now is not None and seat in self._next and self.drawn is None and not self.drawing
                and self.chain is not None and self._fit(now) is None):
            why = "a double" if self.chain.high == self.chain.low else "a scoring tile"
            if self.chain_may_end:
                return (f"{now} set {why} ({self.chain}) and goes on if able; if not, the turn passes to "
                        f"{self._next[now]}, not to {seat}")
            if self.stock:
                return (f"{now} set {why} ({self.chain}) and goes on: another tile if able, else a draw "
                        f"(option chain_draw); it is not {seat}'s turn")
            return (f"{now} set {why} ({self.chain}) and goes on: another tile if able, else, with the "
                    f"boneyard empty, a pass; it is not {seat}'s turn")
        return super()._wrong_seat(seat)

    def _bar(self, seat: str, rule: str, did: str, may_not: str) -> None:
        """``seat`` showed that none of its dealt tiles fits the layout as it is now."""
        mask = self.open_mask
        self.barred[seat] |= mask
        self._bar_notes[seat].append((mask, rule, did, may_not))

    def _revealed(self, seat: str, t: Tile, text: str) -> IllegalMove:
        bit = BIT[t]
        for mask, rule, did, may_not in self._bar_notes[seat]:
            if PLAYABLE[mask] & bit:
                shown = ", ".join(str(n) for n in range(7) if (mask >> n) & 1)
                return IllegalMove(
                    f"{seat} cannot set {text}: {seat} was dealt it (it was never drawn), and it would have fitted "
                    f"when {seat} {did} (open numbers then: {shown}); a player may not {may_not}", rule, "/play")
        raise AssertionError("barred numbers out of step with their notes")  # pragma: no cover

    def _from_hidden(self, seat: str, t: Tile, text: str) -> bool:
        """A tile nobody has seen may be one of ``seat``'s dealt tiles, while it has some not shown."""
        if not self.unseen & BIT.get(t, 0):
            raise IllegalMove(self._not_held(seat, t, text), R_HOLD, "/play")
        if not self.hidden[seat]:
            raise IllegalMove(f"{seat} does not hold {text}: every tile {seat} still holds is known "
                              f"({tiles_text(self.hands[seat])}, drawn)", R_HOLD, "/play")
        return True

    def _check_not_barred(self, seat: str, t: Tile, text: str) -> None:
        # (a tile that fits nowhere now is reported as not matching, by the join)
        if PLAYABLE[self.barred[seat]] & BIT[t] & PLAYABLE[self.open_mask]:
            raise self._revealed(seat, t, text)

    def _set_hidden(self, seat: str, t: Tile, bit: int) -> None:
        self.unseen &= ~bit
        self.hidden[seat] -= 1
        self.played_by[t] = seat
        # A chain left waiting (chain_may_end) can only go on with a hidden tile: its player's
        # known tiles did not fit, and nothing has changed since.  The chain is decided afresh.
        self.chain_may_end = False

    def _chain_waits(self, seat: str) -> bool:
        if self.hidden[seat]:
            self.chain_may_end = True  # whether it goes on depends on tiles nobody has seen
            return True
        return False

    def _check_chain_ended(self, seat: str, what: str) -> None:
        """Refuse a draw or a pass (``what``) while a chain may have ended the turn unwritten.

        Checked first, before the known deal's own checks: the two that come
        first there (a drawn tile to set, no lead yet) never apply while a
        chain waits, so the refusals come in the same order as if this check
        stood after them.
        """
        if self.chain_may_end:
            raise IllegalMove(f"{seat} cannot {what} after {self.chain}: with option chain_draw false a chain "
                              f"that cannot go on simply ends the turn, so {seat} sets another tile or "
                              f"{self._next[seat]} moves", R_CHAIN, f"/{what}")

    def _draw(self, seat: str, move: Draw) -> Tile:
        """The known deal's draw; the player showed that no dealt tile fits (``barred``)."""
        self._check_chain_ended(seat, "draw")
        t = super()._draw(seat, move)
        if self.chain is not None:
            self._bar(seat, R_CHAIN, f"drew {t} instead of going on after {self.chain}",
                      "draw while able to go on with a chain")
        else:
            self._bar(seat, R_FORCED, f"drew {t}", "draw while able to set a tile")
        return t

    def _pass(self, seat: str) -> None:
        """The known deal's pass; the player showed that no dealt tile fits, and passes are counted."""
        self._check_chain_ended(seat, "pass")
        chain = self.chain  # (the pass ends it)
        super()._pass(seat)
        if chain is not None:
            self._bar(seat, R_CHAIN, f"passed instead of going on after {chain}",
                      "stop a chain while able to go on")
        else:
            self._bar(seat, R_FORCED, "passed", "pass while able to set a tile")
        self.passes += 1
        self.written_passes += 1
        if self.passes >= len(self.seats):
            # Everybody has passed in succession with the boneyard empty: blocked.  Closing passes
            # beyond these are accepted as in a known deal (as many as there are seats, in all).
            self.over, self.end = True, "blocked"
            self.closing = self.written_passes

    def _blocked(self) -> bool:
        """Never seen from the tiles: only when everybody has passed in succession (:meth:`_pass`)."""
        return False

    def _seen_where(self, t: Tile, text: str) -> str:
        if t not in SET:
            return "it is not a tile of the double-six set"
        if t in self.drawn_by:
            return f"it was already drawn by {self.drawn_by[t]}"
        return f"it was dealt to {self.played_by[t]}, so it is not in the boneyard"

    # --- what is not known -----------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        raise HiddenTiles("an open hand's legal moves depend on tiles nobody has shown")

    def outcome(self) -> HandOutcome:
        raise HiddenTiles("an open hand is scored once its deal is known: replay it through start_hand")

    def render(self) -> list[str]:
        lines = super().render()
        parts = []
        for s in self.seats:
            known = self.hands[s]
            text = f"{s} {self.held_count(s)}"
            if known:
                text += f" ({tiles_text(known)} drawn)"
            parts.append(text)
        lines.append("tiles held: " + ", ".join(parts))
        return lines

    def deal_notes(self) -> list[str]:
        notes = ["deal not recorded: the players' tiles are checked once it is known"]
        if self.order is not None:
            return notes + [f"boneyard (in draw order): {' '.join(str(t) for t in self.order)}"]
        return notes + [f"boneyard: {len(SET_TILES) - len(self.seats) * self.match.size} tiles, order not "
                        f"recorded (each draw names its tile)"]


# --- the match -------------------------------------------------------------------


class HorseRaceMatch:
    """One record's game: the seats and sides, the running totals, who leads next."""

    def clone(self, memo: dict[int, Any] | None = None) -> "HorseRaceMatch":
        """A copy of this match whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice, as :func:`base.clone_state` does.  Written out as the hand's is
        (:meth:`HorseRaceHand.clone`): its dicts copied (they hold values), the rest shared."""
        return base.twin_of(self, {} if memo is None else memo,
                            ("side_of", "totals", "zero", "next_seat", "_dominoed"))[0]

    def __init__(self, record: Record, rules: Rules) -> None:
        self.rules = rules
        #: What a side can score (a score-sheet hand above ``hand`` is refused).
        self.bounds = score_range(rules.celko, rules.win_check == "immediate", rules.target)
        self.seats: tuple[str, ...] = tuple(record.seats)
        if rules.partnerships:
            self.sides: tuple[str, ...] = base.SIDES
            self.side_of = {s: base.partnership_side(s) for s in self.seats}
        else:
            self.sides = self.seats
            self.side_of = {s: s for s in self.seats}
        self.totals = {side: 0 for side in self.sides}
        #: Every side at 0 (a hand's pegs start from a copy).
        self.zero = dict(self.totals)
        self.over = False
        self.winner: str | None = None
        self.hand_no = 0
        #: The seat that dominoed the last hand (it leads the next), None when the lead is by lot.
        self.next_leader: str | None = None
        #: Why the record names the leader when nobody dominoed the hand before (for messages).
        self.lead_note = "chosen by lot"
        self.size = DEAL_SIZE.get(len(self.seats), 0)
        self.next_seat = {s: self.seats[(i + 1) % len(self.seats)] for i, s in enumerate(self.seats)}
        #: Why the seat that dominoed leads the next hand, worded once per game (every hand asks).
        self._dominoed = {s: f"{s} dominoed the last hand and leads this one" for s in self.seats}
        #: The usual end is summed directly (HorseRaceHand.outcome): a domino, no celko, no partnerships.
        self.plain = not rules.celko and not rules.partnerships
        #: What each count pegs under this variant (see _PEGS), chosen once per game.
        self.pegs = _PEGS_CELKO if rules.celko else _PEGS

    def _check_deal(self, deal: Deal) -> tuple[dict[str, int], list[Tile] | None, int]:
        """The deal's hands as masks, the boneyard order (or None) and the undealt mask.

        Every hand of every record passes here, so a correct deal is accepted
        by table look-ups and sums done in C: each text's bit (a text not in
        the table stops the sum), ``size`` texts a seat, and the sum of all of
        them showing as many tiles as there are texts, which holds only when
        no tile is there twice (a repeated bit carries into another).
        Anything odd goes to the careful check, which finds the first fault
        and names it (or accepts an unusual spelling such as ``"06-3"``).
        """
        hands = deal.hands
        size = self.size
        seats = self.seats
        if len(hands) == len(seats):
            get = _TEXT_BIT_GET
            masks: dict[str, int] = {}
            total = 0
            try:
                for seat in seats:
                    texts = hands[seat]
                    if len(texts) != size:
                        break
                    mine = sum(map(get, texts))
                    masks[seat] = mine
                    total += mine
                else:
                    dealt = len(seats) * size
                    if total.bit_count() == dealt:
                        undealt = ALL_TILES ^ total
                        texts = deal.boneyard
                        if texts is None:
                            return masks, None, undealt
                        if len(texts) == 28 - dealt and sum(map(get, texts)) == undealt:
                            return masks, list(map(_PARSE, texts)), undealt
            except (KeyError, TypeError):
                pass
        return self._check_deal_carefully(deal)

    def _check_deal_carefully(self, deal: Deal) -> tuple[dict[str, int], list[Tile] | None, int]:
        where = "/deal/hands"
        base.check_seat_keys(deal.hands, self.seats, where, "the deal")
        dealt: dict[str, list[Tile]] = {}
        n = len(self.seats)
        for seat in self.seats:
            texts = deal.hands[seat]
            if len(texts) != self.size:
                raise DealError(f"{seat} was dealt {len(texts)} tiles; with {n} players each gets {self.size}",
                                R_DEAL, f"{where}/{pointer_token(seat)}")
            dealt[seat] = base.parse_tiles(texts, f"{where}/{pointer_token(seat)}", SET, "double-six", R_DEAL)
        groups = [(f"{where}/{base._escape(s)}", dealt[s], list(deal.hands[s])) for s in self.seats]
        boneyard = None
        if deal.boneyard is not None:
            boneyard = base.parse_tiles(deal.boneyard, "/deal/boneyard", SET, "double-six", R_BONEYARD)
            groups.append(("/deal/boneyard", boneyard, list(deal.boneyard)))
        base.check_unique(groups, R_DEAL)
        undealt = ALL_TILES
        for seat in self.seats:
            for t in dealt[seat]:
                undealt &= ~BIT[t]
        if boneyard is not None and len(boneyard) != 28 - n * self.size:
            missing = " ".join(str(t) for t in tiles_of(undealt) if t not in set(boneyard))
            raise DealError(f"the boneyard lists {len(boneyard)} tiles, but {28 - n * self.size} are left after "
                            f"the deal; missing: {missing}", R_BONEYARD, "/deal/boneyard")
        masks = {seat: sum(BIT[t] for t in dealt[seat]) for seat in self.seats}
        return masks, boneyard, undealt

    def _leader(self, hand: Hand, first_seat: str | None) -> tuple[str | None, str]:
        """The hand's leader (``None``: the first move's seat leads) and why, for messages."""
        leader = hand.leader
        reason = ""
        if self.next_leader is not None:
            reason = self._dominoed[self.next_leader]
            if leader is not None and leader != self.next_leader:
                raise DealError(f"{leader} cannot lead this hand: {reason}", R_LEAD, "/leader")
            leader = self.next_leader
        else:
            if leader is None and first_seat is not None:
                leader = first_seat
                if leader not in self.seats:
                    leader = None  # the first move's seat is reported at that move
            elif leader is not None:
                if leader not in self.seats:
                    raise DealError(f"{leader} is not a seat at this table (seats: {', '.join(self.seats)})",
                                    "seats", "/leader")
                reason = f"the record names {leader} as this hand's leader ({self.lead_note})"
        return leader, reason

    def start_hand(self, hand: Hand) -> HorseRaceHand:
        self.hand_no += 1
        masks, boneyard, undealt = self._check_deal(hand.deal)
        leader = self.next_leader
        if leader is not None and (hand.leader is None or hand.leader == leader):
            # (the usual case after the first hand, written out: _leader words the rest)
            return HorseRaceHand(self, masks, boneyard, undealt, leader, self._dominoed[leader])
        leader, reason = self._leader(hand, hand.moves[0].seat if hand.moves else None)
        return HorseRaceHand(self, masks, boneyard, undealt, leader, reason)

    # --- format 1.1: hands whose deal is not known, and score-sheet hands ----------------

    #: Horse Race always leaves a boneyard: no seat's tiles follow from the others'.
    deals_whole_set = False
    deal_rule = R_DEAL

    def tile_set(self) -> list[Tile]:
        return list(SET_TILES)

    def start_open_hand(self, hand: Hand) -> OpenHorseRaceHand:
        """A hand whose deal is not known (yet); ``deal.boneyard`` (the draw order) may be given."""
        self.hand_no += 1
        boneyard = None
        deal = hand.deal
        if deal is not None:
            if deal.hands:
                raise DealError("a hand whose deal is not known gives nobody's tiles; give the whole deal, or "
                                "none of it", R_DEAL, "/deal/hands")
            if deal.boneyard is not None:
                boneyard = self._check_open_boneyard(deal.boneyard)
        leader, reason = self._leader(hand, None)
        return OpenHorseRaceHand(self, boneyard, leader, reason)

    def _check_open_boneyard(self, texts: tuple[str, ...]) -> list[Tile]:
        where = "/deal/boneyard"
        bone = base.parse_tiles(texts, where, SET, "double-six", R_BONEYARD)
        base.check_unique([(where, bone, list(texts))], R_BONEYARD)
        left = len(SET_TILES) - len(self.seats) * self.size
        if len(bone) != left:
            raise DealError(f"the boneyard lists {len(bone)} tiles, but {left} are left after dealing "
                            f"{self.size} to each of {len(self.seats)} players", R_BONEYARD, where)
        return bone

    def score_sheet_hand(self, hand: Hand) -> HandOutcome:
        """A hand recorded by its scores alone, checked for what no play could give.

        The next hand's leader is not known after it: the player who dominoed
        leads next, and a score sheet does not say who that was (anybody may
        peg during a hand, and a domino against hands of two pips or fewer
        scores nothing, so not even the only scorer of an ``out`` hand is sure
        to be the one who dominoed); after a block the lead is by lot anyway.
        The next hand's leader is whoever its record names.
        """
        self.hand_no += 1
        rules = self.rules
        result = hand.result
        claimed = dict(result.scores or {}) if result is not None else {}
        end = result.end if result is not None else None
        self._leader(hand, None)
        for side in claimed:
            if side not in self.side_of.values():
                if rules.partnerships:
                    why, rule = "the sides are NS and EW", R_PARTNERSHIPS
                else:
                    why, rule = f"each player is a side: {', '.join(self.sides)}", R_PLAYERS
                raise DealError(f"the hand's scores name {clip(side)}, which is not a side of this game ({why})",
                                rule, f"/result/scores/{pointer_token(side)}")
        if end is not None and end not in ("out", "blocked", "target"):
            raise DealError(f"a horse-race hand ends out (a domino), blocked, or at the target, not {end}",
                            R_END, "/result/end")
        if end == "target" and rules.win_check != "immediate":
            raise DealError("under option win_check: end_of_hand every hand is played out, so none ends at "
                            "the target", R_TARGET, "/result/end")
        for side, n in claimed.items():
            where = f"/result/scores/{pointer_token(side)}"
            if rules.celko:
                if n % 5:
                    raise DealError(f"{side} cannot score {n} for a hand: in the celko variant every peg is a "
                                    f"count that is a multiple of five, and every subtraction is a hand's pips "
                                    f"rounded to five", R_END, where)
                if n < 0 and end == "target":
                    raise DealError(f"{side} cannot score {n} for a hand that ends at the target: the game ends "
                                    f"at once, with no end-of-hand count, so nobody subtracts (variant celko)",
                                    R_TARGET, where)
            elif n < 0:
                raise DealError(f"{side} cannot score {n} for a hand: pegs and end-of-hand points are never "
                                f"negative", R_END, where)
            too_many = self.bounds.hand_refusal(side, n)
            if too_many is not None:
                raise DealError(too_many, R_END, where)
        scores = {side: claimed.get(side, 0) for side in self.sides}
        if rules.celko and end == "out" and not rules.partnerships and all(n < 0 for n in scores.values()):
            raise DealError("in a celko hand that ends in a domino, the player who dominoed has no pips to "
                            "subtract, so at least one player scores 0 or more", R_END, "/result/scores")
        after = {side: self.totals[side] + scores[side] for side in self.sides}
        for side in self.sides:  # (the game would have ended at its target before: ScoreRange.most)
            too_many = self.bounds.total_refusal(side, after[side], after)
            if too_many is not None:
                raise DealError(too_many, R_TARGET, f"/result/scores/{pointer_token(side)}")
        best = max(after.values())
        top = [side for side, n in after.items() if n == best]
        at_target = end == "target"
        if rules.celko and rules.win_check == "immediate" and best >= rules.target:
            # Celko totals only grow during a hand (pegs) and shrink at its end, so a side past the
            # target after the hand got there by a peg: the game ended at that moment.
            if end is not None and end != "target":
                raise DealError(f"after this hand {top[0]} has {best}, past the target {rules.target}: in the celko "
                                f"variant only pegs add to a total, so {top[0]} reached the target during the hand, "
                                f"which then ended at once (option win_check: immediate), not {end}",
                                R_TARGET, "/result/end")
            at_target = True
        if at_target and (best < rules.target or len(top) > 1):
            if best < rules.target:
                why = f"after it the best total is {best} ({', '.join(top)}), short of {rules.target}"
            else:
                why = f"after it {' and '.join(top)} are level on {best}, and the game ends only with one side ahead"
            raise DealError(f"this hand cannot have ended at the target: {why}", R_TARGET,
                            "/result/end" if end is not None else "/result/scores")
        for side, n in scores.items():
            self.totals[side] += n
        self.next_leader = None
        self.lead_note = "the hand before was recorded by its scores alone"
        if best >= rules.target and len(top) == 1:
            self.over, self.winner = True, top[0]
        shown = ", ".join(f"{side} {n}" for side, n in scores.items())
        return HandOutcome(end or "score-sheet", scores, (f"recorded by its scores alone (a score sheet): {shown}",))

    def finish_hand(self, state: HorseRaceHand) -> HandOutcome:
        outcome = state.outcome()
        totals = self.totals
        for side, n in outcome.scores.items():
            totals[side] += n
        end = outcome.end
        self.next_leader = state.out_seat if end == "out" else None
        self.lead_note = "chosen by lot"
        if end == "target":
            self.over, self.winner = True, state.target_side
            return outcome
        # The game ends once a side is at or past the target, ahead of the others; a tie plays on.
        best = max(totals.values())
        if best >= self.rules.target:
            top = [side for side, n in totals.items() if n == best]
            if len(top) == 1:
                self.over, self.winner = True, top[0]
        return outcome

    def random_hand(self, rng: random.Random) -> Hand:
        tiles = list(SET_TILES)
        rng.shuffle(tiles)
        k = self.size
        hands = [tiles[i * k:(i + 1) * k] for i in range(len(self.seats))]
        boneyard = tuple(str(t) for t in tiles[len(self.seats) * k:])
        leader = self.next_leader if self.next_leader is not None else rng.choice(self.seats)
        return Hand(leader=leader, deal=Deal(hands=base.deal_dict(self.seats, hands), boneyard=boneyard))


# --- the engine ------------------------------------------------------------------


class HorseRace:
    name = GAME
    variants = ("standard", "celko")
    #: The rules' defaults (docs/rules/horse-race.md); ``target`` is 61 for the standard game and 200 for celko (see :meth:`start`).
    defaults: dict[str, Any] = {"partnerships": False, "chain_draw": True, "count_partner": False,
                                "win_check": "immediate", "target": STANDARD_TARGET}
    scores_moves = True

    def defaults_for(self, variant: str) -> dict[str, Any]:
        """The defaults of ``variant``: Celko plays to 200 unless ``target`` says otherwise."""
        if variant == "celko":
            return {**self.defaults, "target": CELKO_TARGET}
        return self.defaults

    def choose(self, state: HorseRaceHand, legal: list[Move], rng: random.Random) -> Move:
        """A simulated player: usually the play that pegs most, sometimes any legal move.

        Uniformly random play hardly ever pegs, and a four-player celko game
        (pegs in full, hand pips subtracted) then drifts for hundreds of hands;
        a mostly greedy player makes games of a realistic length while the
        random quarter keeps every kind of move in the simulated records.
        """
        if len(legal) == 1 or type(legal[0]) is not Play or rng.random() < 0.25:
            return legal[rng.randrange(len(legal))]
        best: list[Move] = []
        top = -1
        celko = state.rules.celko
        for move in legal:
            on = T.tile(move.on) if move.on is not None else None
            points = pegs(state.count_if(T.tile(move.play), on), celko)
            if points > top:
                best, top = [move], points
            elif points == top:
                best.append(move)
        return best[rng.randrange(len(best))]

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        return (4,) if options.get("partnerships") else (2, 3, 4)

    def seats_for(self, count: int, options: dict[str, Any]) -> tuple[str, ...]:
        if options.get("partnerships"):
            return base.PARTNERSHIP_SEATS
        return tuple(f"P{i + 1}" for i in range(count))

    def final_scores(self, variant: str, options: dict[str, Any], players: int | None = None) -> base.ScoreRange:
        """The standard game only adds (pegs, end-of-hand points); the Celko variant subtracts each
        player's pips at a hand's end, so its totals may go below zero.

        Above (the numbers: :data:`MOST_COUNT`, :data:`MOST_END`): a count is at most 138, so a
        peg gives at most 27 (Celko: 135, the count in full); a hand's end count at most 34 (the
        set's 168 pips, rounded to 170, ÷ 5; Celko: nothing, it only subtracts, at most 170
        from a side).  One hand sets each of the 28 tiles once at most, so it gives a side at
        most 28 x 27 + 34 = 790 (Celko: 28 x 135 = 3780).  A game's total
        (:class:`~domrec.games.base.ScoreRange`): the target is looked at after every peg
        (``win_check: immediate``), so a side rises between two checks by one peg or one end
        count, 34 at most (Celko: one peg, 135), or after every hand (``end_of_hand``: a hand's
        most).  A tie at the top past the target plays on (both standard checks, and Celko's
        ``end_of_hand``, where a total may fall 170 in a hand); not Celko's immediate check,
        where totals rise only by pegs, so the first side at the target got there alone, by a
        peg, ahead of everybody.  After such a tie a side ends at most another side's total plus
        a step, and under Celko's ``end_of_hand`` plus 3780 in all, not 170 + 3780: from the
        check where the two were level, the side gains on the other only its pegs and the other's
        subtraction; each of the 28 tiles is either set (pegging at most 135 for whoever set it)
        or held at the end (at most 12 pips, and at most 2 more of rounding for each player
        holding a tile, 14 a tile at most, its holder's only), so the side's pegs and the other
        side's subtraction are at most 135 a tile together, 3780.  (No number bounds a total past
        the target: ties may go on hand after hand, two players tied for the lowest hand at a
        block each scoring the other's pips.)  ``target`` moves the bound with it; ``partnerships``,
        ``count_partner`` and ``chain_draw`` change nothing of it (a side's end count is some
        hands' pips, never more than the set's), nor does the number of players."""
        return score_range(variant == "celko", options.get("win_check", "immediate") == "immediate",
                           options.get("target") or (200 if variant == "celko" else 61))

    def inert_options(self, variant: str, options: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """Options that change nothing here, accepted and ignored (docs/rules/horse-race.md).

        ``count_partner: true`` counts a partner's hand at a domino: without partnerships
        there is no partner, and in Celko nobody scores another hand at all.
        """
        if not options.get("count_partner"):
            return {}
        if not options.get("partnerships"):
            return {"count_partner": ("without partnerships: nobody has a partner whose hand could count",
                                      R_COUNT_PARTNER)}
        if variant == "celko":
            return {"count_partner": ("in the celko variant: nobody scores another player's hand", R_COUNT_PARTNER)}
        return {}

    def seatings(self, count: int, options: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
        """Other seatings the rules allow: players alone may use any labels, N E S W included."""
        if options.get("partnerships") or count not in base.COMPASS_SEATS:
            return ()
        return (base.COMPASS_SEATS[count],)

    def start(self, record: Record) -> HorseRaceMatch:
        options = base.resolve_options(self, record)
        celko = record.variant == "celko"
        target = options["target"]
        rules = Rules(partnerships=bool(options["partnerships"]), chain_draw=bool(options["chain_draw"]),
                      count_partner=bool(options["count_partner"]), win_check=options["win_check"],
                      target=int(target), celko=celko)
        n = len(record.players)
        if rules.partnerships:
            if n != 4:
                raise SetupError(f"partnership Horse Race is played by four players (NS against EW); this record "
                                 f"has {n}", R_PARTNERSHIPS, "/players")
            base.require_partnership_seats(record, "partnership Horse Race", R_PARTNERSHIPS)
        elif n not in DEAL_SIZE:
            raise SetupError(f"Horse Race is played by two, three or four players; this record has {n}",
                             R_PLAYERS, "/players")
        base.require_distinct_seats(record)
        # count_partner without partnerships or in Celko is ignored (inert_options), not refused.
        return HorseRaceMatch(record, rules)


ENGINE = HorseRace()
