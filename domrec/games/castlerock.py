"""Castle Rock, the capture game for two to six players (docs/rules/castle-rock.md).

Each player in turn adds a tile at the open end of a single row, may then
capture tiles anywhere in the row (a tile between two neighbours that share a
number; or all three when the three share one number), and draws one tile
while the boneyard lasts.  When every hand is empty each player scores +1 per
tile captured and -1 per tile left in the row; the game ends after the hand in
which someone reaches 50.

Rulings this module settles (docs/rules/castle-rock.md explains them for
players):

* The first player of hand 1 is ``hand.leader`` or, without it, the seat of
  the first move; the dealer is the seat before them (play and the deal both
  pass clockwise, the first player sits at the dealer's left).  Every later
  hand's first player is the seat after the previous hand's first player.
* A turn is: one ``play``; any number of ``capture`` moves; one ``draw`` while
  the boneyard has tiles.  With the boneyard empty nothing marks the end of a
  turn: the next player's ``play`` does.  The hand is over the moment every
  hand is empty; the player who placed the last tile may still capture after
  that (those captures close the record of the hand).
* A capture of three lists the tiles in row order, from the blocked end or
  from the open end; a capture of one tile names the middle tile.
* A capture move earns its tiles as its move score (+1 each); the game totals
  change only at the end of the hand, so simulated records carry no per-move
  claims (``scores_moves`` is False).  A claim written on a move is checked.

Format 1.1 (hands whose deal is not known, score-sheet hands):

* An *open* hand (:meth:`CastleRockMatch.start_open_hand`,
  :class:`CastleRockOpenHand`) needs the starting row (it lies face up), and
  may give the boneyard's draw order.  The players' tiles are tracked as
  counts: each hand holds :data:`UNKNOWN` for a dealt tile nobody has seen
  and the real tile for one it drew.  Everything but "which dealt tile" is
  checked as in the known-deal replay: turn order and phases, the draw owed
  (the boneyard's size is known), tiles of the set and not yet seen, a player
  placing an unseen tile must still hold a dealt tile, captures against the
  row, move scores, and the hand's end when every hand is empty.  ``apply``
  changes nothing when it refuses a move, so a corrected move can follow.
  In hand 1 without a leader the first move's seat plays first.
* A score-sheet hand (:meth:`CastleRockMatch.score_sheet_hand`) is checked
  for what its scores alone can show: every tile ends captured (+1 to its
  taker) or in the row (-1 to everyone), so the scores add up to the set's
  size minus (players + 1) per tile left, and nobody scores below minus the
  row; an emptied row means the last placer took a capture of three.  First
  players still rotate one seat a hand; after a sheet hand whose first player
  is not known, the next hand's leader is taken as written.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from domrec import tiles as T
from domrec.errors import DealError, IllegalMove, SetupError, clip, pointer_token as _escape, HiddenTiles
from domrec.games import base
from domrec.games.base import HandOutcome
from domrec.record import Capture, Deal, Draw, Hand, HandResult, Move, Pass, Play, Record
from domrec.tiles import Tile

TARGET = 50
#: Why a hand gives a player at most the set's size, in words (:meth:`CastleRock.final_scores`).
HAND_WHY = "every tile of the set captured"
#: How a tie at the top of a finished game is settled (:meth:`CastleRock.final_scores`).
TIE_SETTLED = "a tie at the top goes to the youngest hand, never a draw"
HAND_TILES = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 6
SET_NAMES = ("double-six", "double-nine", "double-twelve")

# Rule names, as docs/rules/castle-rock.md calls them; they appear in every message.
R_PLAYERS = "castle-rock: two to six players"
R_SET = "castle-rock: option set"
R_START = "castle-rock: option start_tiles"
R_DEAL = "castle-rock: the deal"
R_ROW = "castle-rock: the starting row"
R_FIRST = "castle-rock: first player (left of the dealer)"
R_ORDER = "castle-rock: turn order (clockwise)"
R_TURN = "castle-rock: turn"
R_PLACE = "castle-rock: placing at the open end"
R_HOLD = "castle-rock: playing from hand"
R_CAPTURE = "castle-rock: capture"
R_TRIPLE = "castle-rock: capture of three"
R_DRAW = "castle-rock: drawing"
R_END = "castle-rock: hand end"

#: Tile strings to tiles, both half orders, for every set: the replay's tile lookups stay one dict probe.
_TILE_OF: dict[str, Tile] = {text: t for t in T.DOUBLE_TWELVE
                             for text in (f"{t.high}-{t.low}", f"{t.low}-{t.high}")}

#: Bit mask of each tile's numbers: two tiles share a number iff their masks meet.
#: Precomputed once because the capture check is the engine's hot path.
MASK: dict[Tile, int] = {t: (1 << t.high) | (1 << t.low) for t in T.DOUBLE_TWELVE}

#: The ends a Castle Rock hand can have: every hand empty ("out"); a score-sheet hand that claims
#: no end is reported as "score-sheet", and a sheet may say so itself.
HAND_ENDS = ("out", "score-sheet")


class _Unknown:
    """A dealt tile nobody has seen yet, held in an open hand's list of tiles (see
    :class:`CastleRockOpenHand`): equal only to itself, so it never matches a real tile."""

    __slots__ = ()

    def clone(self, memo: dict[int, Any] | None = None) -> "_Unknown":
        """Itself: it holds nothing that changes (a copy of a state keeps the one ``UNKNOWN``)."""
        return self

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __str__(self) -> str:
        return "?"


UNKNOWN: Any = _Unknown()

# Turn phases.
_PLACE = 0    # the player to move must add a tile at the open end
_CAPTURE = 1  # the tile is placed: captures, then the draw (or the next player's place)


def auto_start_tiles(set_size: int, players: int) -> int:
    """The smallest k >= 3 for which the rest of the set divides evenly among the players."""
    k = 3
    while (set_size - k) % players:
        k += 1
    return k


def _number(mask: int) -> int:
    """The single number a mask of shared numbers holds (the lowest, if more)."""
    return (mask & -mask).bit_length() - 1


class CastleRockHand:
    """One hand: the row, the hands, the boneyard, whose turn and which phase."""

    #: Every player's tiles are known (a deal given in full); see :class:`CastleRockOpenHand`.
    open = False

    __slots__ = ("seats", "hands", "row", "captured", "boneyard", "_bone_at", "bone_left", "unseen",
                 "set_name", "set_tiles", "to_move", "_turn", "phase", "_over", "_driven", "leader",
                 "dealer", "_next", "_before", "_empty", "standing", "faces")

    #: What :meth:`position_key` leaves out: the match (a hand without its deal names who led,
    #: the one thing it changes there), the seat maps the hand never changes, and how the row's
    #: tiles lie (shown, never read by a rule).
    position_skip = frozenset({"match", "_next", "_before", "faces"})

    #: What decides the rest of the hand (the DGN reader reads a hand's equal positions once).
    position_key = base.key_with_leader

    def clone(self, memo: dict[int, Any] | None = None) -> "CastleRockHand":
        """A copy of this hand state whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, seats: tuple[str, ...], hands: dict[str, list[Tile]], row: list[Tile],
                 boneyard: list[Tile] | None, bone_left: int, unseen: set[Tile], set_name: str,
                 set_tiles: frozenset[Tile], leader: str, clockwise: dict[str, str],
                 counter: dict[str, str]) -> None:
        self.seats = seats
        self.hands = hands
        self.row = row
        #: How each tile of the row lies, as its deal or its placement wrote it (``1-6`` where the
        #: tile is ``6-1``): the rules never turn a tile, so the row is shown as it was laid
        #: (:meth:`render`, the hand's working); a tile not here lies as it is written (``6-1``).
        self.faces: dict[Tile, str] = {}
        self.captured: dict[str, list[Tile]] = {s: [] for s in seats}
        #: The draw order when the deal gives it (else draws name their tiles).
        self.boneyard = boneyard
        self._bone_at = 0
        self.bone_left = bone_left
        #: Tiles nobody has seen yet: a named draw must be one of them.
        self.unseen = unseen
        self.set_name = set_name
        self.set_tiles = set_tiles
        self._next = clockwise       # seat -> the seat after it, clockwise (shared, never changed)
        self._before = counter       # seat -> the seat before it (shared, never changed)
        # The first player; ``_turn``, whose turn it is, is kept after the hand is over (for closing
        # captures), while ``to_move`` is None then.
        self._lead(leader)
        self.phase = _PLACE
        self._over = False
        #: Set when a simulator drives the hand (:meth:`drive`; validation never does); see :attr:`over`.
        self._driven = False
        self._empty = 0               # how many hands are empty
        #: The game totals before this hand (shown by explain, used by the simulated players).
        self.standing: dict[str, int] = {}

    @property
    def over(self) -> bool:
        """True once every hand is empty.

        The player who placed the last tile may still capture after that, and
        a record may end with or without such closing captures, so for
        validation the hand is over at once.  A simulator, which drives the
        hand through :meth:`legal_moves`, is kept going while closing captures
        remain, so that simulated hands take them (the simulated player never
        declines a closing capture: each is a point for them and one less
        penalty tile for everyone).
        """
        if not self._over:
            return False
        return not (self._driven and self._capture_open())

    def _capture_open(self) -> bool:
        row = self.row
        for i in range(1, len(row) - 1):
            if MASK[row[i - 1]] & MASK[row[i + 1]]:
                return True
        return False

    def _lead(self, seat: str) -> None:
        """``seat`` plays first; the dealer is the seat before them (they sit at the dealer's left)."""
        self.leader = self._turn = self.to_move = seat
        self.dealer = self._before[seat]

    # --- the rules -------------------------------------------------------------

    def apply(self, move: Move) -> int:
        """Check and make one move.

        This is the replay's hot path (a record is some fifty moves a hand), so the usual
        case of each kind of move is written out here instead of in a helper each: a place
        at the open end (including the next player's place that ends a turn once the
        boneyard is empty), a capture of one tile and a draw.  Each fast test only lets the
        legal case through; anything else goes to the helper that finds the exact rule
        broken and words it (:meth:`_place_out_of_turn`, :meth:`_capture`, :meth:`_draw`),
        so messages come from one place.
        """
        kind = move.__class__
        seat = move.seat
        if kind is Play:
            if self.phase or seat != self._turn:
                # The turn in play ends with the next player's place once the boneyard is empty.
                if self.phase and not self.bone_left and not self._over:
                    after = self._next
                    hands = self.hands
                    nxt = after[self._turn]
                    while not hands[nxt]:  # someone holds tiles while the hand is not over
                        nxt = after[nxt]
                    if seat != nxt:
                        self._place_out_of_turn(seat, move.play)  # raises, naming the rule
                    self._turn = self.to_move = nxt
                    self.phase = _PLACE
                else:
                    self._place_out_of_turn(seat, move.play)
            if move.on is not None or move.at is not None:
                raise IllegalMove(f"{seat} must place {move.play} at the open end of the row; a Castle Rock "
                                  f"placement names no other position", R_PLACE, base.stray_pointer(move, "on", "at"))
            t = _TILE_OF.get(move.play) or T.tile(move.play)
            hand = self.hands[seat]
            try:
                hand.remove(t)
            except ValueError:
                self._take_unlisted(seat, t, move.play, hand)
            self.row.append(t)
            self.faces[t] = move.play
            self.phase = _CAPTURE
            if not hand:
                self._empty += 1
                if self._empty == len(self.seats):
                    self._over = True
                    self.to_move = None
            return 0
        if kind is Capture:
            if seat == self._turn and self.phase:
                texts = move.capture
                row = self.row
                if len(texts) == 1:
                    # A capture of one tile: the middle of three whose outer two share a number.
                    t = _TILE_OF.get(texts[0])
                    if t in row:
                        i = row.index(t)
                        if 0 < i < len(row) - 1 and MASK[row[i - 1]] & MASK[row[i + 1]]:
                            del row[i]
                            self.captured[seat].append(t)
                            return 1
                elif len(texts) == 3:
                    # A capture of three consecutive tiles, in row order from either end, sharing a number.
                    get = _TILE_OF.get
                    x, y, z = texts
                    a, b, c = get(x), get(y), get(z)
                    if b in row:
                        i = row.index(b)
                        if (0 < i < len(row) - 1
                                and ((row[i - 1] is a and row[i + 1] is c) or (row[i - 1] is c and row[i + 1] is a))
                                and MASK[a] & MASK[b] & MASK[c]):
                            del row[i - 1:i + 2]
                            self.captured[seat].extend((a, b, c))
                            return 3
            return self._capture(move)
        if kind is Draw:
            order = self.boneyard
            if (seat == self._turn and self.phase and self.bone_left and order is not None
                    and (move.draw is True or _TILE_OF.get(move.draw) is order[self._bone_at])):
                # A draw of the boneyard's next tile (the deal gives the draw order).
                t = order[self._bone_at]
                self._bone_at += 1
                self.bone_left -= 1
                hands = self.hands
                hands[seat].append(t)
                # After a draw the drawer holds tiles, so this search always stops.
                after = self._next
                nxt = after[seat]
                while not hands[nxt]:
                    nxt = after[nxt]
                self._turn = self.to_move = nxt
                self.phase = _PLACE
                return 0
            self._draw(move)
            return 0
        if kind is Pass:
            raise IllegalMove(f"{move.seat} cannot pass: Castle Rock has no passing (a player with tiles "
                              f"places one at the open end, a player without is skipped)", R_TURN, "/pass")
        raise IllegalMove("a Castle Rock move is a play, a capture or a draw", R_TURN, base.kind_pointer(move))

    def _take_unlisted(self, seat: str, t: Tile, text: str, hand: list[Tile]) -> None:
        """``seat`` places ``t``, which is not in their list of tiles: with the deal known, a tile
        they do not hold (an open hand may take it from the tiles dealt to them)."""
        raise IllegalMove(self._not_held(seat, t, text), R_HOLD, "/play") from None

    def _check_seat(self, seat: str) -> None:
        if seat not in self._next:
            raise IllegalMove(f"{seat} is not a seat at this table (seats: {', '.join(self.seats)})", R_ORDER, "/seat")

    def _place_out_of_turn(self, seat: str, text: str) -> None:
        """A place by someone other than the player to place: end the turn in play, or explain why not."""
        self._check_seat(seat)
        if self._over:
            raise IllegalMove(f"{seat} cannot place {text}: the hand is over, every hand is empty", R_END)
        cur = self._turn
        if self.phase == _CAPTURE:
            if self.bone_left:
                if seat == cur:
                    raise IllegalMove(f"{seat} has already placed a tile this turn: a turn is one tile, then "
                                      f"captures, then a draw", R_TURN, "/play")
                raise IllegalMove(f"{cur} must draw a tile (the boneyard holds {self.bone_left}) before the turn "
                                  f"passes to {seat}", R_DRAW, "/seat")
            # Boneyard empty: the next player's place is what ends the turn in play.
            nxt = self._following(cur)
            if seat == nxt:
                self._turn = self.to_move = nxt
                self.phase = _PLACE
                return
            if seat == cur:
                raise IllegalMove(f"{seat} has already placed a tile this turn: a turn is one tile, then "
                                  f"captures", R_TURN, "/play")
            raise IllegalMove(self._order_message(seat, nxt), R_ORDER, "/seat")
        raise IllegalMove(self._order_message(seat, cur), R_ORDER, "/seat")

    def _order_message(self, seat: str, due: str) -> str:
        skipped = [s for s in self.seats if not self.hands[s]]
        note = f"; {', '.join(skipped)} with empty hands {'is' if len(skipped) == 1 else 'are'} skipped" \
            if skipped else ""
        if not self.hands[seat]:
            return f"{seat} has no tiles left and is skipped: it is {due}'s turn to place"
        return f"it is {due}'s turn to place, not {seat}'s (play passes clockwise{note})"

    def _following(self, seat: str) -> str:
        """The next seat clockwise that still holds tiles (players with empty hands are skipped)."""
        nxt = self._next[seat]
        hands = self.hands
        while not hands[nxt]:
            nxt = self._next[nxt]
        return nxt

    def _capture(self, move: Capture) -> int:
        seat = move.seat
        if seat != self._turn or not self.phase:
            self._capture_out_of_turn(seat)
        texts = move.capture
        row = self.row
        if len(texts) == 1:
            text = texts[0]
            t = _TILE_OF.get(text) or T.tile(text)
            try:
                i = row.index(t)
            except ValueError:
                raise IllegalMove(self._not_in_row(seat, t, text), R_CAPTURE, "/capture/0") from None
            if i == 0 or i == len(row) - 1:
                end = "blocked" if i == 0 else "open"
                raise IllegalMove(f"{seat} cannot capture {text}: it is at the {end} end of the row, and "
                                  f"a tile is captured only between two neighbours", R_CAPTURE, "/capture/0")
            left, right = row[i - 1], row[i + 1]
            if not MASK[left] & MASK[right]:
                raise IllegalMove(f"{seat} cannot capture {text}: its neighbours {left} and {right} share "
                                  f"no number", R_CAPTURE, "/capture/0")
            del row[i]
            self.captured[seat].append(t)
            return 1
        return self._capture_three(seat, texts)

    def _capture_out_of_turn(self, seat: str) -> None:
        if seat != self._turn:
            self._check_seat(seat)
            if self._over:
                raise IllegalMove(f"{seat} cannot capture: the hand is over, and only {self._turn}, who placed "
                                  f"the last tile, may still capture", R_END, "/seat")
            raise IllegalMove(f"{seat} cannot capture: it is {self._turn}'s turn, and a player captures only "
                              f"in their own turn, after placing", R_TURN, "/seat")
        raise IllegalMove(f"{seat} must first place a tile at the open end; captures come after placing",
                          R_TURN, "/capture")

    def _capture_three(self, seat: str, texts: tuple[str, ...]) -> int:
        row = self.row
        if len(texts) != 3:
            raise IllegalMove(f"{seat} names {len(texts)} tiles: a capture takes one tile (the middle one) or "
                              f"three consecutive tiles", R_CAPTURE, "/capture")
        x, y, z = texts
        a = _TILE_OF.get(x) or T.tile(x)
        b = _TILE_OF.get(y) or T.tile(y)
        c = _TILE_OF.get(z) or T.tile(z)
        i = row.index(b) if b in row else -1
        if not (0 < i < len(row) - 1 and ((row[i - 1] is a and row[i + 1] is c)
                                          or (row[i - 1] is c and row[i + 1] is a))):
            for k, (t, text) in enumerate(((a, x), (b, y), (c, z))):
                if t not in row:
                    raise IllegalMove(self._not_in_row(seat, t, text), R_TRIPLE, f"/capture/{k}")
            raise IllegalMove(f"{seat} cannot capture {' '.join(texts)}: they are not three consecutive tiles "
                              f"of the row, in row order", R_TRIPLE, "/capture")
        if not MASK[a] & MASK[b] & MASK[c]:
            raise IllegalMove(f"{seat} cannot capture {' '.join(texts)}: the three tiles do not all share one "
                              f"number", R_TRIPLE, "/capture")
        del row[i - 1:i + 2]
        self.captured[seat].extend((a, b, c))
        return 3

    def _not_in_row(self, seat: str, t: Tile, text: str) -> str:
        if t not in self.set_tiles:
            return f"{seat} cannot capture {text}: it is not a tile of the {self.set_name} set"
        for other, caught in self.captured.items():
            if t in caught:
                return f"{seat} cannot capture {text}: it is not in the row ({other} has already captured it)"
        for other, hand in self.hands.items():
            if t in hand:
                return f"{seat} cannot capture {text}: it is not in the row (it is in {other}'s hand)"
        return f"{seat} cannot capture {text}: it is not in the row (it has not been played)"

    def _draw(self, move: Draw) -> None:
        seat = move.seat
        if seat != self._turn or not self.phase or not self.bone_left:
            self._draw_refused(seat)
        order = self.boneyard
        if order is not None:
            t = order[self._bone_at]
            if move.draw is not True and (_TILE_OF.get(move.draw) or T.tile(move.draw)) is not t:
                raise IllegalMove(f"{seat} cannot draw {move.draw}: the next tile of the boneyard, in the "
                                  f"order given with the deal, is {t}", R_DRAW, "/draw")
            self._bone_at += 1
        else:
            if move.draw is True:
                raise IllegalMove(f"{seat} draws without naming the tile, but the deal gives no boneyard order: "
                                  f"write the tile drawn", R_DRAW, "/draw")
            t = _TILE_OF.get(move.draw) or T.tile(move.draw)
            if t not in self.unseen:
                raise IllegalMove(self._seen_draw(seat, t, move.draw), R_DRAW, "/draw")
            self.unseen.discard(t)
        self.bone_left -= 1
        self.hands[seat].append(t)
        # After a draw the drawer holds tiles, so this search always stops.
        nxt = self._next[seat]
        hands = self.hands
        while not hands[nxt]:
            nxt = self._next[nxt]
        self._turn = self.to_move = nxt
        self.phase = _PLACE

    def _draw_refused(self, seat: str) -> None:
        """Why a draw is not allowed now (a tile is owed only after placing, while the boneyard lasts)."""
        if seat != self._turn:
            self._check_seat(seat)
            if self._over:
                raise IllegalMove(f"{seat} cannot draw: the hand is over, every hand is empty", R_END)
            raise IllegalMove(f"{seat} cannot draw: it is {self._turn}'s turn", R_ORDER, "/seat")
        if self._over or not self.bone_left:
            raise IllegalMove(f"{seat} is owed no tile: the boneyard is empty", R_DRAW, "/draw")
        raise IllegalMove(f"{seat} is owed no tile yet: a player draws after placing a tile (and any "
                          f"captures)", R_DRAW, "/draw")

    def _seen_draw(self, seat: str, t: Tile, text: str) -> str:
        if t not in self.set_tiles:
            return f"{seat} cannot draw {text}: it is not a tile of the {self.set_name} set"
        return f"{seat} cannot draw {text}: that tile is already out of the boneyard (dealt, drawn or played)"

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        if t not in self.set_tiles:
            return f"{seat} cannot place {text}: it is not a tile of the {self.set_name} set"
        for other, hand in self.hands.items():
            if t in hand:
                return f"{seat} does not hold {text} (it is in {other}'s hand)"
        if t in self.row:
            return f"{seat} does not hold {text}: it is already in the row"
        for other, caught in self.captured.items():
            if t in caught:
                return f"{seat} does not hold {text}: {other} has captured it"
        return f"{seat} does not hold {text}: it is still in the boneyard"

    # --- what may be done now -------------------------------------------------------

    def captures(self) -> list[Capture]:
        """Every capture the row allows now (singles, then triples, blocked end first)."""
        seat = self._turn
        row = self.row
        out: list[Capture] = []
        for i in range(1, len(row) - 1):
            left, mid, right = row[i - 1], row[i], row[i + 1]
            shared = MASK[left] & MASK[right]
            if shared:
                out.append(Capture(seat=seat, capture=(str(mid),)))
                if shared & MASK[mid]:
                    out.append(Capture(seat=seat, capture=(str(left), str(mid), str(right))))
        return out

    def drive(self) -> None:
        """Called by the simulator when it starts the hand: keep the hand going while the last
        placer's closing captures remain (see :attr:`over`); validation never calls it."""
        self._driven = True

    def closing_moves(self) -> list[Move]:
        """The closing captures the last placer may still make once every hand is empty."""
        return list(self.captures()) if self._over else []

    def only_pass(self) -> bool:
        """Never: Castle Rock has no passing (a player without tiles is skipped)."""
        return False

    def legal_moves(self) -> list[Move]:
        if self._over:
            return list(self.captures())  # closing captures of the last turn (see :attr:`over`)
        seat = self._turn
        if self.phase == _PLACE:
            return [Play(seat=seat, play=str(t)) for t in self._placeable(seat)]
        moves: list[Move] = list(self.captures())
        if self.bone_left:
            if self.boneyard is not None:
                moves.append(Draw(seat=seat, draw=True))
            else:
                moves.extend(Draw(seat=seat, draw=str(t)) for t in _ordered(self.unseen))
        else:
            nxt = self._following(seat)
            moves.extend(Play(seat=nxt, play=str(t)) for t in self._placeable(nxt))
        return moves

    def _placeable(self, seat: str) -> list[Tile]:
        """The tiles ``seat`` may place: those it holds (an open hand widens this, see there)."""
        return self.hands[seat]

    # --- the end of the hand ---------------------------------------------------------

    def outcome(self) -> HandOutcome:
        left = len(self.row)
        captured = self.captured
        scores = {s: len(captured[s]) - left for s in self.seats}

        def working() -> list[str]:
            # Built only when shown (explain): validation never pays for the wording.
            lines = [f"row left: {left} tile{'s' if left != 1 else ''} ({_row_text(self.row, self.faces)}), "
                     f"-1 each for every player"]
            lines.extend(f"{s}: captured {len(captured[s])} - {left} = {scores[s]}" for s in self.seats)
            return lines

        return HandOutcome("out", scores, working)

    def score_why(self, move: Move, points: int) -> str:
        """What a move earns, for a wrong score claim (docs/rules/castle-rock.md, "Move scores"):
        the validator writes it after "W is credited 2, but"."""
        if type(move) is Capture:
            taken = len(move.capture)
            if taken == points:
                return (f"the capture takes {taken} tile{'s' if taken != 1 else ''}: {points} "
                        f"point{'s' if points != 1 else ''} (1 per tile taken)")
            return f"it scores {points}"
        return "only a capture scores (1 per tile taken): a placement, a draw or a pass scores 0"

    def render(self) -> list[str]:
        caught = ", ".join(f"{s} {len(self.captured[s])}" for s in self.seats)
        return [f"row (blocked end first, open end last): {_row_text(self.row, self.faces)}",
                f"captured: {caught}; boneyard: {self.bone_left}"]

    def deal_notes(self) -> list[str]:
        """The dealer and boneyard, which explain shows under the deal."""
        order = "" if self.boneyard is None else f" (draw order: {' '.join(map(str, self.boneyard))})"
        return [f"dealer: {self.dealer}; {self.leader} sits at the dealer's left and plays first",
                f"boneyard: {self.bone_left} tiles{order}"]

    def holdings(self) -> dict[str, list[Tile]]:
        return {s: sorted(self.hands[s], key=lambda t: (t.high, t.low), reverse=True) for s in self.seats}

    def held_count(self, seat: str) -> int:
        """How many tiles ``seat`` holds now (two dealt, plus draws, minus places)."""
        return len(self.hands[seat])


def _row_text(row: Sequence[Tile], faces: dict[Tile, str] | None = None) -> str:
    """The row's tiles as they lie (``faces``: :attr:`CastleRockHand.faces`)."""
    faces = faces or {}
    return "".join(f"[{faces.get(t, t)}]" for t in row) or "(empty)"


def _ordered(tiles: set[Tile]) -> list[Tile]:
    return sorted(tiles, key=lambda t: (t.high, t.low), reverse=True)


class CastleRockOpenHand(CastleRockHand):
    """A hand whose players' tiles are not known (yet): an *open* hand (format 1.1).

    The starting row is face up and always given; the boneyard's draw order
    may be.  Each player's list of tiles holds :data:`UNKNOWN` for every dealt
    tile not yet placed, and the real tile for every tile drawn (a draw names
    it, or ``deal.boneyard`` gives it), so the counts, and the skip of empty
    hands, work as in the known-deal replay.  ``unseen`` holds the tiles a
    player may still place from the deal: with a boneyard order, the tiles
    neither in the row nor in the boneyard; without one, every tile not yet
    in the row, captured or drawn (a named draw takes one of them too).

    What cannot be checked without the deal: that a placed unseen tile is the
    placer's and not another player's or the boneyard's (without a boneyard
    order), and that a named draw is not a tile someone was dealt.  Everything
    else is checked with the known-deal replay's rules and messages.
    ``apply`` leaves the state as it was when it refuses a move.
    """

    __slots__ = ("match",)
    open = True

    def __init__(self, match: "CastleRockMatch", row: list[Tile], boneyard: list[Tile] | None, bone_left: int,
                 unseen: set[Tile], leader: str | None) -> None:
        seats = match.seats
        super().__init__(seats, {s: [UNKNOWN] * HAND_TILES for s in seats}, row, boneyard, bone_left, unseen,
                         match.set_name, match.set_tiles, leader or seats[0], match.clockwise,
                         match.counter)
        self.match = match
        if leader is None:
            # No first player known (hand 1, or after a score-sheet hand whose first player is not
            # known, with no leader written): whoever makes the first move plays first (see apply).
            self.leader = self.dealer = self.to_move = self._turn = None

    def apply(self, move: Move) -> int:
        saved = self._save()
        try:
            return self.apply_unsaved(move)
        except Exception:  # a refusal (RuleViolation), or anything else: the state stays as it was
            self._restore(saved)
            raise

    def apply_unsaved(self, move: Move) -> int:
        """:meth:`apply` without keeping the state to put back if the move is refused (a copy of
        it at every move): for a caller that throws the hand away on a refusal (the DGN
        reader's straight walk, :mod:`domrec.notation.straight`)."""
        if self._turn is None:
            # Nobody is due yet (no first player known): the first move's seat plays first.
            self._check_seat(move.seat)
            self._lead(move.seat)
        # Every move is checked and made by the known-deal replay: only a place of a tile the
        # player is not known to hold differs (_take_unlisted); captures and draws need no
        # player's tiles (a draw from an unordered boneyard takes an unseen tile).
        points = super().apply(move)
        if self.match.last_leader is None:
            self.match.last_leader = self.leader
        return points

    def _take_unlisted(self, seat: str, t: Tile, text: str, hand: list[Tile]) -> None:
        """A tile the player did not draw: one of the two dealt to them, if nobody has seen it
        and they still hold a dealt tile."""
        if t in self.unseen and UNKNOWN in hand:
            hand.remove(UNKNOWN)
            self.unseen.discard(t)
            return
        super()._take_unlisted(seat, t, text, hand)

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        if t in self.unseen:
            # Seen by nobody, but the player has already placed both tiles dealt to them.
            drawn = " ".join(str(x) for x in self.hands[seat])
            return (f"{seat} does not hold {text}: {seat} has already placed both tiles dealt to them and "
                    f"holds only {drawn}, drawn in this hand")
        # Not of the set, in someone's hand (drawn), in the row, captured, or still in a given boneyard.
        return super()._not_held(seat, t, text)

    def _save(self) -> tuple:
        return ({s: list(h) for s, h in self.hands.items()}, list(self.row),
                {s: list(c) for s, c in self.captured.items()}, set(self.unseen), self._bone_at, self.bone_left,
                self.leader, self.dealer, self.to_move, self._turn, self.phase, self._over, self._empty)

    def _restore(self, saved: tuple) -> None:
        (self.hands, self.row, self.captured, self.unseen, self._bone_at, self.bone_left, self.leader,
         self.dealer, self.to_move, self._turn, self.phase, self._over, self._empty) = saved

    def legal_moves(self) -> list[Move]:
        raise HiddenTiles("an open Castle Rock hand does not know the players' tiles, so it cannot "
                                  "list their moves")

    def possible_moves(self) -> list[Move]:
        """Every move that may be legal now, taking any tile a player may hold: the captures and
        draws, which need no player's tiles, exactly; each place of a tile the placer may hold
        (one it drew, or, while a dealt tile is unplaced, any tile nobody has seen).  What a
        table's page offers when the deal was not entered; the engine still checks the move
        made.  Before the first move (nobody due yet) every seat's places are listed."""
        if self._turn is None:
            return [Play(seat=s, play=str(t)) for s in self.seats for t in self._placeable(s)]
        return CastleRockHand.legal_moves(self)

    def _placeable(self, seat: str) -> list[Tile]:
        drawn = [t for t in self.hands[seat] if t is not UNKNOWN]
        if UNKNOWN in self.hands[seat]:
            return _ordered(set(drawn) | self.unseen)
        return _ordered(set(drawn))

    def holdings(self) -> dict[str, list[Tile]]:
        """Only the tiles known to be held: those drawn (the dealt ones are not known)."""
        return {s: sorted((t for t in self.hands[s] if t is not UNKNOWN), key=lambda t: (t.high, t.low),
                          reverse=True) for s in self.seats}

    def render(self) -> list[str]:
        held = ", ".join(f"{s} {len(self.hands[s])}" for s in self.seats)
        return [*super().render(), f"tiles held: {held} (the deal is not known)"]

    def deal_notes(self) -> list[str]:
        if self.leader is None:
            return ["dealer: not known yet; whoever makes the first move plays first",
                    f"boneyard: {self.bone_left} tiles"]
        return super().deal_notes()


#: Each set's tiles, for the deal checks (made once, not once a record).
_SET_TILES: dict[str, frozenset[Tile]] = {name: frozenset(T.SETS[name]) for name in SET_NAMES}
#: Seat maps made so far, by seating (a few seatings recur across a whole archive).
_SEAT_MAPS: dict[tuple[str, ...], tuple[dict[str, str], dict[str, str]]] = {}


def _seat_maps(seats: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
    """Seat -> the next seat clockwise, and seat -> the seat before it, for this seating."""
    maps = _SEAT_MAPS.get(seats)
    if maps is None:
        if len(_SEAT_MAPS) >= 1000:  # any labels may be seats: keep the cache small
            _SEAT_MAPS.clear()
        maps = _SEAT_MAPS[seats] = ({s: base.seat_after(seats, s) for s in seats},
                                    {s: base.seat_after(seats, s, -1) for s in seats})
    return maps


class CastleRockMatch:
    """One record's game: the seats (each its own side), the running totals, the first players."""

    def clone(self, memo: dict[int, Any] | None = None) -> "CastleRockMatch":
        """A copy of this match whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice (:func:`base.clone_state`)."""
        return base.clone_state(self, {} if memo is None else memo)

    def __init__(self, seats: tuple[str, ...], options: dict[str, Any], start_tiles: int) -> None:
        self.seats = seats
        self.sides = seats
        self.totals = {s: 0 for s in seats}
        self.options = options
        self.set_name: str = options["set"]
        self.set_order: tuple[Tile, ...] = T.SETS[self.set_name]
        self.set_tiles = _SET_TILES[self.set_name]
        self.start_tiles = start_tiles
        self.over = False
        self.winner: str | None = None
        self.hand_no = 0
        self.last_leader: str | None = None
        # Seat -> the seat after it and before it (shared by every hand, never changed).
        self.clockwise, self.counter = _seat_maps(seats)
        #: The tiles the boneyard holds after the deal and the row.
        self.rest = len(self.set_tiles) - HAND_TILES * len(seats) - start_tiles
        #: Each seat and where its tiles start in a deal's tiles, seat by seat (see :meth:`_quick_deal`).
        self.hand_at = tuple((s, HAND_TILES * i) for i, s in enumerate(seats))
        #: Why the game ended as it did (the youngest-hand tie-break is named here).
        self.decision: str | None = None

    # --- dealing -------------------------------------------------------------------

    def _expected_leader(self) -> str | None:
        if self.last_leader is None:
            return None
        return self.clockwise[self.last_leader]

    def _parse(self, texts: Sequence[str], where: str, rule: str) -> list[Tile]:
        """Tile strings to tiles of the game's set (one dict probe each; details only on failure)."""
        get = _TILE_OF.get
        out = [get(x) for x in texts]
        if not self.set_tiles.issuperset(out):
            return base.parse_tiles(texts, where, self.set_tiles, self.set_name, rule)  # raises, naming the tile
        return out

    def _leader_of(self, hand: Hand) -> str | None:
        """The hand's first player: the seat after the previous hand's, checked against ``hand.leader``.

        ``None`` when nothing fixes it: hand 1, or a hand after a score-sheet hand whose first
        player was not written, when ``hand.leader`` is not given either."""
        expected = self._expected_leader()
        leader = hand.leader
        if expected is not None and leader is not None and leader != expected:
            raise DealError(f"{leader} cannot play first in hand {self.hand_no}: the deal passes clockwise, "
                            f"so {expected}, left of this hand's dealer {self.last_leader}, plays first",
                            R_FIRST, "/leader")
        if leader is None:
            return expected
        if leader not in self.seats:
            raise DealError(f"{leader} is not a seat at this table (seats: {', '.join(self.seats)})", R_FIRST,
                            "/leader")
        return leader

    def _row_and_boneyard(self, deal: Deal, groups: list[tuple[str, list[Tile], Sequence[str]]]
                          ) -> tuple[list[Tile], list[Tile] | None, int, list[Tile]]:
        """The starting row and the boneyard's draw order (if given), checked for :meth:`start_hand`
        and :meth:`start_open_hand` alike: the row's length, tiles of the set, no tile twice in the
        deal (``groups`` holds the players' tiles, by seat, when they are known), and a boneyard
        that lists every tile left.  Returns the row, the draw order or None, how many tiles the
        boneyard holds, and every tile of the deal."""
        set_tiles, set_name = self.set_tiles, self.set_name
        k = self.start_tiles
        if len(deal.row) != k:
            why = "option start_tiles" if self.options["start_tiles"] != "auto" else \
                f"{len(self.seats)} players with the {set_name} set"
            raise DealError(f"the starting row has {len(deal.row)} tiles, but it must have {k} ({why})",
                            R_ROW, "/deal/row")
        row = self._parse(deal.row, "/deal/row", R_ROW)
        groups.append(("/deal/row", row, deal.row))
        rest = len(set_tiles) - HAND_TILES * len(self.seats) - k
        order: list[Tile] | None = None
        if deal.boneyard is not None:
            order = self._parse(deal.boneyard, "/deal/boneyard", R_DEAL)
            groups.append(("/deal/boneyard", order, deal.boneyard))
        everything = [t for _, tiles, _ in groups for t in tiles]
        if len(set(everything)) != len(everything):
            base.check_unique(((where if where.startswith("/") else f"/deal/hands/{_escape(where)}", tiles,
                                list(texts)) for where, tiles, texts in groups), R_DEAL)
        if order is not None and len(order) != rest:
            raise DealError(f"the boneyard lists {len(order)} tiles, but {rest} tiles of the {set_name} set "
                            f"are left after the deal and the row: list them all, in draw order",
                            R_DEAL, "/deal/boneyard")
        return row, order, rest, everything

    def _quick_deal(self, deal: Deal) -> tuple[dict[str, list[Tile]], list[Tile], list[Tile]] | None:
        """The players' tiles, the row and the draw order of a whole, correct deal, or None.

        A deal that gives the boneyard's order lists every tile of the set once, so one set
        comparison of all its tiles checks them all (of the set, none twice, none missing) once
        each part's length is right.  Most deals are like that, and this is a large share of a
        hand's replay; anything else (no draw order, or any fault) is left to :meth:`start_hand`'s
        walk, which names the first problem."""
        hands, row_texts, bone_texts = deal.hands, deal.row, deal.boneyard
        if (bone_texts is None or row_texts is None or len(row_texts) != self.start_tiles
                or len(bone_texts) != self.rest or hands.keys() != self.clockwise.keys()):
            return None
        texts: list[str] = []
        for seat in self.seats:
            held = hands[seat]
            if len(held) != HAND_TILES:
                return None
            texts += held
        texts += row_texts
        texts += bone_texts
        tiles = list(map(_TILE_OF.get, texts))
        if self.set_tiles != set(tiles):
            return None
        cut = HAND_TILES * len(self.seats)
        return ({seat: tiles[i:i + HAND_TILES] for seat, i in self.hand_at}, tiles[cut:cut + self.start_tiles],
                tiles[cut + self.start_tiles:])

    def start_hand(self, hand: Hand) -> CastleRockHand:
        self.hand_no += 1
        deal = hand.deal
        seats = self.seats
        quick = self._quick_deal(deal)
        if quick is not None:
            dealt, row, order = quick
            leader = self._leader_of(hand)
            if leader is None:
                leader = hand.moves[0].seat if hand.moves else seats[0]
                if leader not in self.clockwise:
                    leader = seats[0]
            self.last_leader = leader
            state = CastleRockHand(seats, dealt, row, order, self.rest, set(), self.set_name, self.set_tiles,
                                   leader, self.clockwise, self.counter)
            state.faces.update(zip(row, deal.row))
            state.standing = dict(self.totals)
            return state
        set_tiles, set_name = self.set_tiles, self.set_name
        base.check_seat_keys(deal.hands, seats, "/deal/hands", "the deal")
        groups = []
        dealt: dict[str, list[Tile]] = {}
        get = _TILE_OF.get
        for seat in seats:
            texts = deal.hands[seat]
            tiles = [get(x) for x in texts]
            if len(texts) != HAND_TILES or not set_tiles.issuperset(tiles):
                where = f"/deal/hands/{_escape(seat)}"
                if len(texts) != HAND_TILES:
                    raise DealError(f"{seat} was dealt {len(texts)} tiles; each player is dealt {HAND_TILES}",
                                    R_DEAL, where)
                tiles = self._parse(texts, where, R_DEAL)
            dealt[seat] = tiles
            groups.append((seat, tiles, texts))
        if deal.row is None:
            raise DealError("a Castle Rock deal needs its starting row, blocked end first",
                            R_ROW, "/deal")
        row, order, rest, everything = self._row_and_boneyard(deal, groups)
        leader = self._leader_of(hand)
        if leader is None:
            # Hand 1 without a leader: the first move says who plays first (a first move by a
            # stranger is then reported at that move, by the turn check).
            leader = hand.moves[0].seat if hand.moves else seats[0]
            if leader not in seats:
                leader = seats[0]
        self.last_leader = leader
        seen = set(everything)
        state = CastleRockHand(seats, {s: list(dealt[s]) for s in seats}, list(row), order, rest,
                               set(set_tiles) - seen if order is None else set(), set_name, set_tiles, leader,
                               self.clockwise, self.counter)
        state.faces.update(zip(row, deal.row))
        state.standing = dict(self.totals)
        return state

    def finish_hand(self, state: CastleRockHand) -> HandOutcome:
        outcome = state.outcome()
        for seat, n in outcome.scores.items():
            self.totals[seat] += n
        self._decide(state.leader)
        return outcome

    def _decide(self, leader: str | None) -> None:
        """The end-of-game rule, after a hand whose first player was ``leader``."""
        best = max(self.totals.values())
        if best >= TARGET:
            self.over = True
            tied = [s for s in self.seats if self.totals[s] == best]
            if len(tied) == 1:
                self.winner = tied[0]
                self.decision = f"{self.winner} has the highest total, {best}"
            else:
                self.winner = youngest_hand(self.seats, leader, tied)
                self.decision = (f"{', '.join(tied)} tie on {best}; {self.winner} played latest in the "
                                 f"hand's turn order (youngest hand) and wins")

    # --- format 1.1: hands whose deal is not known, score-sheet hands ------------------------

    #: The players are dealt two tiles each: the row and the boneyard hold the rest of the set.
    deals_whole_set = False
    deal_rule = R_DEAL

    def tile_set(self) -> list[Tile]:
        """Every tile of the set this match plays with (``rules.options.set``)."""
        return list(self.set_order)

    def start_open_hand(self, hand: Hand) -> CastleRockOpenHand:
        """A hand whose players' tiles are not known: the starting row (required) and the
        boneyard's draw order (optional) are checked as :meth:`start_hand` checks them."""
        self.hand_no += 1
        leader = self._leader_of(hand)  # first: a wrong leader is refused on its hand line, row or not
        deal = hand.deal
        if deal is None or deal.row is None:
            raise DealError("a Castle Rock hand needs its starting row even when the players' tiles are not "
                            "known: give it, blocked end first (it lies face up)",
                            R_ROW, "/deal")
        if deal.hands:
            raise DealError("a hand whose deal is not known lists no player's tiles (deal.hands is {}); with "
                            "every player's two tiles written, give the whole deal instead", R_DEAL,
                            "/deal/hands")
        row, order, rest, _ = self._row_and_boneyard(deal, [])
        self.last_leader = leader
        # The tiles a player may place from the deal: with a boneyard order, exactly the dealt ones.
        unseen = set(self.set_tiles).difference(row, order or ())
        state = CastleRockOpenHand(self, list(row), order, rest, unseen, leader)
        state.faces.update(zip(row, deal.row))
        state.standing = dict(self.totals)
        return state

    def last_placer(self, leader: str) -> str:
        """Who places the last tile of a hand that ``leader`` starts.

        Every player holds two tiles until the boneyard is empty, so the places go round in turn
        order without a skip: the set's tiles less the starting row, one a turn."""
        places = len(self.set_tiles) - self.start_tiles
        seats = self.seats
        return seats[(seats.index(leader) + places - 1) % len(seats)]

    def _check_emptied_row(self, scores: dict[str, int], leader: str | None) -> None:
        """A hand that ends with an empty row: its last tile, at the open end, went in a capture of three.

        Only its placer may still capture once the last tile is down, and a tile at an end of the
        row is taken only with its two neighbours, so that player captured three tiles or more
        (with no tile left in the row, a score is the tiles captured)."""
        if leader is not None:
            last = self.last_placer(leader)
            if scores[last] < 3:
                raise DealError(f"the scores claimed leave no tile in the row, but the hand's last tile, placed "
                                f"by {last} at the open end, can only have gone in a capture of three by {last}, "
                                f"so {last} scores at least 3, not {scores[last]}", R_END,
                                f"/result/scores/{_escape(last)}")
        elif max(scores.values()) < 3:
            raise DealError(f"the scores claimed leave no tile in the row, but the hand's last tile, at the open "
                            f"end, can only have gone in a capture of three by its placer, so someone scores "
                            f"at least 3", R_END, "/result/scores")

    def score_sheet_hand(self, hand: Hand) -> HandOutcome:
        """A hand recorded by its scores alone (a paper score sheet): checked, then added to the totals.

        Every tile of the set ends the hand captured (+1 to whoever took it) or in the row (-1 to
        every player), so with ``n`` players and a set of ``S`` tiles the scores add up to
        ``S - (n + 1) * left``, ``left`` being the tiles left in the row, and nobody scores below
        ``-left``; and when the row ends empty, the last tile's placer took it in a capture of
        three (:meth:`_check_emptied_row`).  Claims that break this, scores for a seat not at the
        table, an end other than ``out``, or a leader other than the seat after the previous
        hand's, are refused.  A sheet hand that ends the game on a tie needs its first player
        known (the youngest hand wins the tie).
        """
        result = hand.result or HandResult()
        claimed = dict(result.scores or {})
        seats = self.seats
        for side in claimed:
            if side not in self.totals:
                raise DealError(f"{clip(side)} is not a seat at this table (seats: {', '.join(seats)}); Castle "
                                f"Rock scores are kept by seat", R_PLAYERS, f"/result/scores/{_escape(side)}")
        if result.end is not None and result.end not in HAND_ENDS:
            raise DealError(f"a Castle Rock hand ends when every hand is empty (end \"out\"), not "
                            f"{clip(result.end)!r}", R_END, "/result/end")
        scores = {s: claimed.get(s, 0) for s in seats}
        size, n = len(self.set_tiles), len(seats)
        bound = base.ScoreRange(hand=size, hand_why=HAND_WHY)
        for seat in seats:  # (the sum's check below refuses these too, in less plain words)
            too_many = bound.hand_refusal(seat, scores[seat])
            if too_many is not None:
                raise DealError(too_many, R_END, f"/result/scores/{_escape(seat)}")
        total = sum(scores.values())
        left, odd = divmod(size - total, n + 1)
        if odd or left < 0:
            raise DealError(f"the scores claimed add up to {total}, which no hand gives: each of the {size} tiles "
                            f"of the {self.set_name} set ends the hand captured (+1 to its taker) or left in "
                            f"the row (-1 to each of the {n} players), so the scores add up to {size} less "
                            f"{n + 1} for every tile left ({size}, {size - n - 1}, {size - 2 * n - 2}, ...)",
                            R_END, "/result/scores")
        for seat in seats:
            if scores[seat] < -left:
                raise DealError(f"{seat} is claimed {scores[seat]}, but scores adding up to {total} leave {left} "
                                f"tile{'' if left == 1 else 's'} in the row, so every player scores at least "
                                f"{-left} (tiles captured, less the row)", R_END,
                                f"/result/scores/{_escape(seat)}")
        self.hand_no += 1
        try:
            leader = self._leader_of(hand)
            if left == 0:
                self._check_emptied_row(scores, leader)
        except DealError:
            self.hand_no -= 1
            raise
        totals = {s: self.totals[s] + scores[s] for s in seats}
        best = max(totals.values())
        tied = [s for s in seats if totals[s] == best]
        if best >= TARGET and len(tied) > 1 and leader is None:
            self.hand_no -= 1
            raise DealError(f"this hand ends the game with {', '.join(tied)} tied on {best}, and the tie goes to "
                            f"the youngest hand of the hand's turn order: write who played first "
                            f"(leader)", R_FIRST, "/leader")
        self.last_leader = leader
        self.totals.update(totals)
        self._decide(leader)
        return HandOutcome(result.end or "score-sheet", scores,
                           (f"score sheet: {', '.join(f'{s} {scores[s]}' for s in seats)}"
                            f" ({left} tile{'' if left == 1 else 's'} left in the row)",))

    def random_hand(self, rng: random.Random) -> Hand:
        tiles = list(self.set_order)
        rng.shuffle(tiles)
        n = len(self.seats)
        hands = [tiles[i * HAND_TILES:(i + 1) * HAND_TILES] for i in range(n)]
        cut = n * HAND_TILES
        row = tiles[cut:cut + self.start_tiles]
        bone = tiles[cut + self.start_tiles:]
        leader = self._expected_leader() or self.seats[rng.randrange(n)]
        return Hand(leader=leader, deal=Deal(hands=base.deal_dict(self.seats, hands),
                                             row=tuple(map(str, row)), boneyard=tuple(map(str, bone))))


def youngest_hand(seats: Sequence[str], leader: str, tied: Sequence[str]) -> str:
    """Of ``tied``, the seat latest in the turn order that starts at ``leader`` (the "youngest hand")."""
    first = seats.index(leader)
    n = len(seats)
    return max(tied, key=lambda s: (seats.index(s) - first) % n)


class CastleRock:
    name = "castle-rock"
    variants = ("standard",)
    defaults: dict[str, Any] = {"set": "double-six", "start_tiles": "auto"}
    scores_moves = False
    sides_are_partnerships = False

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        return tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))

    def seats_for(self, count: int, options: dict[str, Any]) -> tuple[str, ...]:
        return tuple(f"P{i}" for i in range(1, count + 1))

    def seatings(self, count: int, options: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
        """Other seatings the rules allow: any distinct labels, so the compass points too."""
        return (base.COMPASS_SEATS[count],) if count in base.COMPASS_SEATS else ()

    def final_scores(self, variant: str, options: dict[str, Any], players: int | None = None) -> base.ScoreRange:
        """No bound below: every tile left in the row costs each player a point, hand after hand,
        so a total can sink as far as the hands go.

        Above: a player's hand is +1 for each tile they captured and -1 for each tile left in the
        row, and every tile of the set ends the hand either captured by one player or in the row,
        so one hand gives a player at most the set's size *S* (28, 55 or 91: option ``set``;
        ``start_tiles`` and the number of players change nothing of it).  The game ends after the
        hand in which somebody reaches 50, a tie at the top settled by the youngest hand (no tie
        sends play on), so a player starts the last hand on 49 at most and ends on 49 + *S* at
        most (:class:`~domrec.games.base.ScoreRange`): 77, 104 or 140.

        How a game ends (``tie_settled``): players level at the top at 50 or more are never a
        draw, the youngest hand wins; a game stopped by the clock has nobody at 50 (the hand
        that took somebody there would have ended it), so only there may players end level."""
        size = len(T.SETS[options.get("set", "double-six")])
        return base.ScoreRange(None, None, hand=size, hand_why=HAND_WHY,
                               target=TARGET, step=size, tie_settled=TIE_SETTLED)

    def start(self, record: Record) -> CastleRockMatch:
        n = len(record.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(f"Castle Rock is played by two to six players; this record has {n}",
                             R_PLAYERS, "/players")
        base.require_distinct_seats(record)
        options = base.resolve_options(self, record)
        if options["set"] not in SET_NAMES:
            raise SetupError(f"Castle Rock is played with a {', '.join(SET_NAMES)} set, not {options['set']!r}",
                             R_SET, "/rules/options/set")
        size = len(T.SETS[options["set"]])
        wanted = options["start_tiles"]
        if wanted == "auto":
            k = auto_start_tiles(size, n)
        else:
            # JSON Schema's integers include 6.0, and the shape check lets it through: it means 6.
            k = int(wanted) if type(wanted) is float and wanted.is_integer() else wanted
            most = size - HAND_TILES * n
            if type(k) is not int or not 1 <= k <= most:
                raise SetupError(f"start_tiles must be a whole number from 1 to {most} for {n} players with "
                                 f"the {options['set']} set (or \"auto\"), not {k!r}",
                                 R_START, "/rules/options/start_tiles")
        return CastleRockMatch(record.seats, options, k)

    def choose(self, state: CastleRockHand, legal: list[Move], rng: random.Random) -> Move:
        """A simulated table that plays so that games end and every kind of capture shows up.

        With even, sensible play the row piles up at the end of a hand (the
        suits run out), the penalty hits every player, and with five or six
        players, or a bigger set, totals drift down and nobody ever reaches
        50.  So the simulated table has one keen player, the seat leading the
        game (the first seat in hand 1), who looks ahead: it places the tile
        that lets the row be cut shortest and takes every capture on a best
        path to that (ties broken at random, so singles, triples, chains and
        emptied rows all occur).  The others place just as keenly but take a
        capture only now and then.  Everyone plays at random once in a while,
        declining captures too.
        """
        if rng.random() < 0.02:
            return legal[rng.randrange(len(legal))]
        standing = state.standing
        keen = state._turn == (max(standing, key=standing.__getitem__) if standing else state.seats[0])
        caps = [m for m in legal if type(m) is Capture]
        rest = [m for m in legal if type(m) is not Capture]
        row = state.row
        if caps and (keen or not rest or rng.random() < OTHERS_CAPTURE):
            # A capture on a best path (when the lookahead is exact, the best is shortest_row(row)).
            after = [shortest_row(_after(row, m)) for m in caps]
            least = min(after)
            good = [m for m, n in zip(caps, after) if n == least]
            return good[rng.randrange(len(good))]
        if state.phase == _PLACE and len(rest) > 1:
            scored = [(shortest_row(tuple(row) + (T.tile(m.play),)), m) for m in rest]
            best = min(n for n, _ in scored)
            good = [m for n, m in scored if n == best]
            return good[rng.randrange(len(good))]
        return rest[rng.randrange(len(rest))]


#: How often a simulated player other than the keen one takes a capture it could make.
OTHERS_CAPTURE = 0.5
#: The most work one exact lookahead may do: the total length of the rows it visits.  The search
#: is exponential in the captures a row offers; ordinary play keeps below this, but a long
#: starting row (start_tiles near its maximum) full of captures would otherwise run for hours.
LOOKAHEAD_WORK = 120_000
#: A row offering more captures than this is not searched at all (ordinary play offers at most
#: nine or so; a long starting row of random tiles offers dozens, and every search would fail).
LOOKAHEAD_SPOTS = 12
#: Exact results of finished searches.  Every row reachable from a row whose search finished has a
#: search no bigger, so a value found here is the one a fresh search would give: the simulated
#: players' choices depend on the row alone, never on what was simulated before.
_SHORTEST: dict[tuple[Tile, ...], int] = {}


class _TooLong(Exception):
    """The exact lookahead would do more than :data:`LOOKAHEAD_WORK`."""


def shortest_row(row: tuple[Tile, ...]) -> int:
    """The fewest tiles the row can be cut down to by captures (the simulated player's lookahead).

    Exact while the row offers at most :data:`LOOKAHEAD_SPOTS` captures and the search stays
    within :data:`LOOKAHEAD_WORK`; past that, the length a greedy run of captures reaches
    (an estimate, but always a length some captures achieve).  Either way a function of the row."""
    spots = 0
    for i in range(1, len(row) - 1):
        if MASK[row[i - 1]] & MASK[row[i + 1]]:
            spots += 1
    if spots > LOOKAHEAD_SPOTS:
        return _greedy_row(row)
    found = _SHORTEST.get(row)
    if found is not None:
        return found
    seen: dict[tuple[Tile, ...], int] = {}
    try:
        best = _search(row, seen, [LOOKAHEAD_WORK])
    except _TooLong:
        return _greedy_row(row)
    if len(_SHORTEST) + len(seen) > 200_000:
        _SHORTEST.clear()
    _SHORTEST.update(seen)
    return best


def _search(row: tuple[Tile, ...], seen: dict[tuple[Tile, ...], int], left: list[int]) -> int:
    found = seen.get(row)
    if found is not None:
        return found
    # Every row is entered once (rows only shrink, so none is met again while being searched):
    # the search finishes exactly when the rows reachable from the first are short enough in
    # all, and any row reachable from it then finishes too (what _SHORTEST relies on).
    left[0] -= len(row)
    if left[0] < 0:
        raise _TooLong
    seen[row] = -1
    best = len(row)
    for i in range(1, len(row) - 1):
        shared = MASK[row[i - 1]] & MASK[row[i + 1]]
        if shared:
            best = min(best, _search(row[:i] + row[i + 1:], seen, left))
            if shared & MASK[row[i]]:
                best = min(best, _search(row[:i - 1] + row[i + 2:], seen, left))
    seen[row] = best
    return best


def _greedy_row(row: tuple[Tile, ...]) -> int:
    """The row's length after taking, again and again, the first capture it allows (a triple first)."""
    cut = list(row)
    i = 1
    while i < len(cut) - 1:
        shared = MASK[cut[i - 1]] & MASK[cut[i + 1]]
        if not shared:
            i += 1
        elif shared & MASK[cut[i]]:
            del cut[i - 1:i + 2]
            i = 1
        else:
            del cut[i]
            i = 1
    return len(cut)


def _after(row: list[Tile], move: Capture) -> tuple[Tile, ...]:
    """The row once ``move`` (a capture the row allows) is made."""
    if len(move.capture) == 1:
        i = row.index(T.tile(move.capture[0]))
        return tuple(row[:i] + row[i + 1:])
    i = row.index(T.tile(move.capture[1]))
    return tuple(row[:i - 1] + row[i + 2:])


ENGINE = CastleRock()
