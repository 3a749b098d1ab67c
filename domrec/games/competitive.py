"""Competitive dominoes, the Latin partnership block game (docs/rules/competitive.md).

Four players, N-S against E-W, a double-six set dealt out completely, play
passing to the right (N → W → S → E), one line that never branches.  A hand
ends in a *domino* (someone goes out) or a *block* (nobody can play); the
game ends after the hand in which a partnership reaches 200.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from domrec import tiles as T
from domrec.errors import DealError, IllegalMove, RuleViolation, SetupError, clip, pointer_token, HiddenTiles
from domrec.games import base
from domrec.games.base import HandOutcome, partnership_side
from domrec.record import Deal, Hand, Move, Pass, Play, Record, Redeal
from domrec.tiles import Tile

SET = frozenset(T.DOUBLE_SIX)
_tile = T.tile
#: Every tile text of the set, either half first, to its tile: the replay looks each move's tiles up
#: here first, a plain dict look-up, and parses (T.tile) only what is not found.
_PARSED: dict[str, Tile] = {f"{a}-{b}": T.make(a, b) for a in range(7) for b in range(7)}
TARGET = 200
SIX_SIX = T.make(6, 6)
# A hand is a 28-bit mask over the set (bit i: T.DOUBLE_SIX[i]): held? is an ``&``, a play an
# ``^``, and a deal is read by adding up its tiles' bits.
_BIT: dict[Tile, int] = {t: 1 << i for i, t in enumerate(T.DOUBLE_SIX)}
#: Tile text (either half first) -> its bit, for reading a deal (CompetitiveMatch._dealt_hands).
_TEXT_BIT: dict[str, int] = {text: _BIT[t] for text, t in _PARSED.items()}
#: Tile text (either half first) -> (tile, bit): what a play needs of its tile, in one look-up.
_TILE_BIT: dict[str, tuple[Tile, int]] = {text: (t, _BIT[t]) for text, t in _PARSED.items()}
_SIX_SIX_BIT = _BIT[SIX_SIX]
#: A tile's place in the set times eight: an end of the line as one number, this plus the
#: number it shows (for a position's key, CompetitiveHand.position_key).
_END: dict[Tile, int] = {t: 8 * i for i, t in enumerate(T.DOUBLE_SIX)}
_ALL = (1 << 28) - 1
#: ``_FITTING[a][b]``: the tiles (a mask) that fit an end showing ``a`` or one showing ``b``:
#: "must play if able" and "is it blocked" are one ``&`` each.
_FITTING: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(_BIT[t] for t in T.DOUBLE_SIX if t.has(a) or t.has(b)) for b in range(7)) for a in range(7))
#: Pip totals of every 7-bit slice of a hand mask (four slices cover the 28 tiles).
_PIP_SLICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(T.DOUBLE_SIX[7 * k + i].pips for i in range(7) if (m >> i) & 1) for m in range(128))
    for k in range(4))


def _tiles(mask: int) -> list[Tile]:
    """The tiles of a hand mask (bits past the set's 28, an open hand's unseen tiles, are left out)."""
    mask &= _ALL
    out = []
    while mask:
        low = mask & -mask
        out.append(T.DOUBLE_SIX[low.bit_length() - 1])
        mask ^= low
    return out


def _pips(mask: int) -> int:
    """The pips of the tiles in a hand mask, by table look-up (it runs at the end of every hand)."""
    p0, p1, p2, p3 = _PIP_SLICES
    return p0[mask & 127] + p1[(mask >> 7) & 127] + p2[(mask >> 14) & 127] + p3[(mask >> 21) & 127]

#: The seat to the right of each seat (play passes N → W → S → E), once for every hand.
_NEXT: dict[str, str] = {s: base.seat_after(base.PARTNERSHIP_SEATS, s, -1) for s in base.PARTNERSHIP_SEATS}
#: (last hand's leader, whether it was a tied block) -> (this hand's leader, why), for every seat:
#: the same few sentences, worded once instead of once a hand (CompetitiveMatch._expected_leader).
_ROTATION: dict[tuple[str, bool], tuple[str, str]] = {
    **{(s, True): (s, f"the last hand was a tied block, so {s} leads again") for s in base.PARTNERSHIP_SEATS},
    **{(s, False): (_NEXT[s], f"the lead passes to the right of {s}, to {_NEXT[s]}") for s in base.PARTNERSHIP_SEATS},
}

# Rule names, as docs/rules/competitive.md calls them; they appear in every message.
R_PLAYERS = "competitive: four players"
R_ORDER = "competitive: turn order (to the right)"
R_FORCED = "competitive: must play if able"
R_MATCH = "competitive: matching an end"
R_HOLD = "competitive: playing from hand"
R_FIRST_LEADER = "competitive: first leader (lead draw)"
R_LEADER = "competitive: next leader"
R_FIRST_LEAD = "competitive: option first_lead"
R_REDEAL = "competitive: redeal"
R_DEAL = "competitive: the deal"
R_END = "competitive: end of hand"
# The shared name validate.py gives a claim for a side the game does not have.
R_SIDES = "sides"

#: Every pip of the set: what the four hands hold between them before the lead.
SET_PIPS = T.pip_total(T.DOUBLE_SIX)
#: Bounds on one hand's score that hold whatever the play (see score_sheet_hand).
DOMINO_MIN = 3     # the other three players each still hold a tile: 0-0, 1-0, 2-0 at the least
#: A domino leaves the line holding 31 pips at least, so it scores the other 137 at most.  The
#: winner plays seven tiles, so the other three players have six rounds of turns between his
#: plays.  If they put six tiles or more on the line, it holds thirteen tiles, 44 pips at the
#: least (the thirteen lightest).  Else in some round all three pass: at that moment nobody but
#: the winner holds a tile of either end's number, so every tile of those numbers ends on the
#: line.  Two numbers are thirteen tiles again; one number a is its seven tiles (7a + 21 pips),
#: and of each other number x, tile a-x's x half is an end of the line (two at most) or joins a
#: tile that shows x and no a: four numbers at least, each counted on such a tile.  At a = 0
#: that is 21 + 1 + 2 + 3 + 4 = 31; any other a more.  (The bound was 153 before: the line was
#: taken as the winner's seven lightest tiles alone.  A search of every play found no domino
#: whose line holds under 39 pips, 129 scored, which tests/games/test_competitive_open.py plays;
#: 137 is what is proven in words, so no true claim is refused.)
DOMINO_MAX = SET_PIPS - 31
#: Why no game ends with both sides at 200 or more (:meth:`Competitive.final_scores`).
ALONE = "only one side scores in a hand, and the game stops after the hand in which a side reaches the target"
BLOCK_MIN = 5      # all four players still hold a tile: 0-0, 1-0, 1-1, 2-0 at the least
#: A block leaves both ends on one number n with all seven n tiles down (7n + 21 pips), and every
#: other number x on the line too: n-x's x half is not an end (both show n), so it joins another
#: tile holding x, which is not an n tile (21 - n pips at least over the six).  So the line holds
#: 6n + 42 pips at least, 42 at n = 0 (0-1 1-2 2-0 0-0 0-3 3-4 4-0 0-5 5-6 6-0), and a block
#: scores the other 126 at most.  (The bound was 147 before: the joining tiles were not counted.)
BLOCK_MAX = SET_PIPS - 42


def lead_draw_winner(draw: dict[str, Tile]) -> str:
    """Highest pip total leads; on equal totals the higher single number (5-2 beats 4-3)."""
    return max(draw, key=lambda seat: (draw[seat].pips, draw[seat].high))


class CompetitiveHand:
    """One hand: the line, the four hands, whose turn, and how it ended.

    Replaying a hand is the bulk of validating a record, so the state is kept
    in the shape the rules ask about: each end of the line as two plain
    attributes (the tile there and the number it shows), the hands as masks
    (held? must play? one ``&`` each), and the line itself as
    the tiles laid on each side of the lead, in order (a picture asks for it
    rarely; see :attr:`line`).  "Is it blocked?" is asked only when both ends
    show one number (see :meth:`_blocked`).
    """

    #: A hand whose deal is known (see :class:`OpenCompetitiveHand` for one whose deal is not).
    open = False
    #: :meth:`apply` checks before it changes anything, so a refused move leaves the state as it
    #: was (the Game API then need not put it back: :attr:`domrec.game.Game.refusal_keeps_state`).
    refusal_keeps_state = True

    def clone(self, memo: dict[int, Any] | None = None) -> "CompetitiveHand":
        """A copy of this hand state whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was; the DGN reader's positions); ``memo`` shares
        one copy of an object reached twice, as :func:`base.clone_state` does.

        Written out, as a copy of every attribute with the containers a hand changes in place
        copied (the masks, the two arms; an open hand's own, :meth:`_clone_own`): a DGN sheet's
        readings copy a state at each tile that fits both ends, and the general copy walks
        every attribute.  The others are values, or containers a hand never changes (``seats``,
        ``_next``), which the copy shares.  (tests/test_position_set.py checks that a copy played on
        leaves the state it was made from as it was.)"""
        memo = {} if memo is None else memo
        twin, own = base.twin_of(self, memo, ("masks", "_left_arm", "_right_arm"))
        if own is not None:
            self._clone_own(own, memo)
        return twin

    def _clone_own(self, own: dict[str, Any], memo: dict[int, Any]) -> None:
        """What :meth:`clone` copies beyond the known hand's containers (an open hand's)."""

    def __init__(self, seats: tuple[str, ...], masks: dict[str, int], leader: str | None,
                 must_lead: Tile | None, lead_reason: str = "", lead_rule: str = R_ORDER) -> None:
        self.seats = seats
        #: Each seat's tiles as a mask (see _BIT).
        self.masks = masks
        self.to_move: str | None = leader
        self.must_lead = must_lead
        # Why ``leader`` leads (empty when the record chose freely), for a lead by the wrong seat.
        self.lead_reason = lead_reason
        self.lead_rule = lead_rule
        # The line's two ends: the tile at the end and the number showing (None before the lead).
        self._lt: Tile | None = None
        self._lp: int | None = None
        self._rt: Tile | None = None
        self._rp: int | None = None
        # The tiles laid on the left and on the right of the lead, in order (the lead is ``_lead``).
        self._lead: Tile | None = None
        self._left_arm: list[Tile] = []
        self._right_arm: list[Tile] = []
        self.over = False
        self.end: str | None = None
        self.out_seat: str | None = None
        self.passes = 0  # passes in a row
        self._next = _NEXT if seats is base.PARTNERSHIP_SEATS else {s: base.seat_after(seats, s, -1)
                                                                       for s in seats}

    def position_key(self) -> tuple:
        """What decides the rest of the hand, as a value: two states with equal keys accept the
        same moves from here on, with the same points and the same end.  The two ends are taken
        in either order (a tile laid on the left end showing 4 leaves the position that laying it
        on the right end showing 4 leaves, mirrored), so that the DGN reader, trying which end
        each tile went on, reads a hand's equal positions once (:mod:`domrec.notation.readings`)."""
        lt = self._lt
        if lt is None:
            ends = None
        else:  # (each end as one number, its tile's and the number it shows: see _END)
            a, b = _END[lt] + self._lp, _END[self._rt] + self._rp
            ends = a << 8 | b if a <= b else b << 8 | a
        return (ends, *self.masks.values(), self.to_move, self.passes, self.over, self.end, self.out_seat)

    def places(self, t: Tile) -> list[Tile]:
        """The tiles of the line that ``t`` may be laid on now: an end showing one of its
        numbers.  A play of ``t`` set on any other tile is refused (empty before the lead), so a
        reader trying which end a tile went on need not try the others on the engine."""
        lp, rp = self._lp, self._rp
        if lp is None:
            return []
        out = [self._lt] if t.high == lp or t.low == lp else []
        if t.high == rp or t.low == rp:
            out.append(self._rt)
        return out

    @property
    def hands(self) -> dict[str, set[Tile]]:
        """Each seat's tiles, as sets (for messages and callers outside the replay)."""
        return {s: set(_tiles(m)) for s, m in self.masks.items()}

    # --- the line, for pictures and legal moves ---------------------------------------

    @property
    def left(self) -> tuple[Tile, int] | None:
        """The left end: (tile at the end, number showing), ``None`` before the lead."""
        return None if self._lt is None else (self._lt, self._lp)

    @property
    def right(self) -> tuple[Tile, int] | None:
        """The right end: (tile at the end, number showing), ``None`` before the lead."""
        return None if self._rt is None else (self._rt, self._rp)

    @property
    def line(self) -> list[tuple[int, int]]:
        """The halves of the line in order, left to right, as the tiles lie (for pictures).

        Worked out from the arms when asked: each tile joins the number the one
        before it showed, so the replay keeps only the tiles, one append a play.
        """
        lead = self._lead
        if lead is None:
            return []
        out: list[tuple[int, int]] = []
        pip = lead.high
        for t in self._left_arm:
            shown = t.low if t.high == pip else t.high
            out.append((shown, pip))
            pip = shown
        out.reverse()
        out.append((lead.high, lead.low))
        pip = lead.low
        for t in self._right_arm:
            shown = t.low if t.high == pip else t.high
            out.append((pip, shown))
            pip = shown
        return out

    # --- the rules -----------------------------------------------------------

    def apply(self, move: Move) -> int:
        """Play ``move``.

        Written out in one piece because it runs for every move of every record
        validated: the legal play takes no helper call; every refusal is worded
        by a helper, off that path.  Checks come in the rules' order (the hand
        over, the turn, the kind of move, the tile held, where it goes), and a
        refused move leaves the state as it was.
        """
        seat = move.seat
        if self.over:
            return self._after_end(move)
        if seat != self.to_move:
            self._out_of_turn(seat)
        if type(move) is not Play:  # (plays first: they are most moves)
            return self._pass(move)
        if move.at is not None or move.penalty is not None:
            raise IllegalMove("a competitive move is a play or a pass",
                              R_MATCH, base.stray_pointer(move, "at", "penalty"))
        text = move.play
        # (look-ups written try-first: the usual text is in the table, and a subscript is cheaper
        # than a call to get)
        try:
            t, bit = _TILE_BIT[text]
        except KeyError:
            t = _tile(text)
            bit = _BIT.get(t, 0)
        masks = self.masks
        hand = masks[seat]
        if not hand & bit:
            bit = self._not_in_hand(seat, t, text, hand, bit)
        hi = t.high
        lo = t.low
        lp = self._lp
        if lp is None:
            self._lay_lead(t, move)
            lp, rp = hi, lo
        else:
            rp = self._rp
            on_text = move.on
            if on_text is not None:
                try:
                    on = _PARSED[on_text]
                except KeyError:
                    on = _tile(on_text)
                if self._lt is on and (hi == lp or lo == lp):
                    to_left = True
                elif self._rt is on and (hi == rp or lo == rp):
                    to_left = False
                else:
                    raise self._wrong_on(move, on)
            else:
                fits_left = hi == lp or lo == lp
                fits_right = hi == rp or lo == rp
                if fits_left and fits_right and (self._lt is not self._rt or lp != rp):
                    raise IllegalMove(f"{text} fits both ends: say which it is played on, {self._lt} or "
                                      f"{self._rt} (\"on\" in JSON, {text}@{self._lt} in DGN)", R_MATCH, "/on")
                if fits_left:
                    to_left = True
                elif fits_right:
                    to_left = False
                else:
                    raise IllegalMove(f"{text} fits neither end of the line ({lp} on {self._lt}, "
                                      f"{rp} on {self._rt})", R_MATCH, "/play")
            if to_left:
                lp = lo if hi == lp else hi
                self._lt = t
                self._lp = lp
                self._left_arm.append(t)
            else:
                rp = lo if hi == rp else hi
                self._rt = t
                self._rp = rp
                self._right_arm.append(t)
        hand ^= bit
        masks[seat] = hand
        self.passes = 0
        if not hand:
            self.over, self.end, self.out_seat, self.to_move = True, "out", seat, None
        elif lp == rp and self._blocked():
            # Nobody holds a tile that fits either end (possible only when both show one number).
            self.over, self.end = True, "blocked"
            self.to_move = self._next[seat]
        else:
            self.to_move = self._next[seat]
        return 0

    def _after_end(self, move: Move) -> int:
        """A move after the hand ended: only a closing pass of a block, which may be written or left out."""
        if (self.end == "blocked" and type(move) is Pass and move.seat == self.to_move
                and self.passes < len(self.seats)):
            self.passes += 1
            self.to_move = self._next[move.seat]
            return 0
        if self.end == "blocked" and type(move) is Pass and self.passes < len(self.seats):
            raise base.closing_pass_out_of_turn(move.seat, self.to_move, R_END)
        why = f"{self.out_seat} went out" if self.end == "out" else "nobody can play (blocked)"
        raise IllegalMove(f"the hand is already over: {why}", R_END)

    def _pass(self, move: Move) -> int:
        """A pass (or a move of another kind, refused): allowed only while the seat has no tile that fits."""
        seat = move.seat
        if type(move) is not Pass:
            raise IllegalMove("a competitive move is a play or a pass",
                              R_MATCH, base.stray_pointer(move, "at", "penalty"))
        if self._lp is None:
            raise IllegalMove(f"{seat} leads this hand and cannot pass", R_FORCED, "/pass")
        self._check_can_pass(seat)
        self.passes += 1
        self.to_move = self._next[seat]
        if self.passes == len(self.seats):
            # Four passes in a row: nobody can play.  With the deal known the block is found at
            # the play before (apply), so only an open hand's block ends here.
            self.over, self.end = True, "blocked"
        return 0

    def _lay_lead(self, t: Tile, move: Play) -> None:
        """The first tile of the hand (once a hand: out of apply's written-out path)."""
        if move.on is not None:
            raise IllegalMove(f"{move.play} leads the hand: there is nothing to play it on", R_MATCH, "/on")
        if self.must_lead is not None and t is not self.must_lead:
            raise IllegalMove(f"the first hand is led with {self.must_lead} (option first_lead: double-six), "
                              f"not {move.play}", R_FIRST_LEAD, "/play")
        self._lead = self._lt = self._rt = t
        self._lp = t.high
        self._rp = t.low

    def _wrong_on(self, move: Play, on: Tile) -> IllegalMove:
        """Why ``move`` cannot go on ``on``: not an end of the line, or the end does not match."""
        lt, rt = self._lt, self._rt
        if lt is not on and rt is not on:
            return IllegalMove(f"{move.on} is not at an end of the line (the ends are {lt} showing "
                               f"{self._lp} and {rt} showing {self._rp})", R_MATCH, "/on")
        shows = self._lp if lt is on else self._rp
        return IllegalMove(f"{move.play} does not match {move.on}: that end shows {shows}", R_MATCH, "/on")

    def _check_can_pass(self, seat: str) -> None:
        """Must play if able: a pass is refused while the seat holds a tile that fits (the line
        is started).  The test is one ``&`` with the tiles that fit the two ends;
        the message names the highest such tile, so that it is the same on every run (a set's
        order is not)."""
        lp, rp = self._lp, self._rp
        hand = self.masks[seat]
        if not hand & _FITTING[lp][rp]:
            return
        for t in sorted(_tiles(hand), key=lambda t: (t.high, t.low), reverse=True):
            if t.high == lp or t.low == lp:
                end = self._lt
            elif t.high == rp or t.low == rp:
                end = self._rt
            else:
                continue
            raise IllegalMove(f"{seat} cannot pass: {seat} must play, {t} fits on {end}", R_FORCED, "/pass")

    def _blocked(self) -> bool:
        """Nobody holds a tile that fits either end.

        With the whole set dealt that needs both ends to show the same number,
        so apply asks only then: a number is on eight halves of the set (six
        tiles and its double), and inside the line the halves meet in pairs;
        while one end alone shows ``n`` an odd number of ``n`` halves is down,
        so some ``n`` tile is still in a hand and fits.  With both ends showing
        ``n``, the four hands are looked at.
        """
        lp = self._lp
        if lp is None or lp != self._rp:
            return False
        fit = _FITTING[lp][lp]
        for hand in self.masks.values():
            if hand & fit:
                return False
        return True

    def _out_of_turn(self, seat: str) -> None:
        """Why ``seat`` may not move now (an open hand's first move may be anyone's)."""
        if seat not in self._next:
            raise IllegalMove(f"{seat} is not a seat at this table (seats: {', '.join(self.seats)})", R_ORDER, "/seat")
        if self._lp is None and self.lead_reason:
            raise IllegalMove(f"{seat} cannot lead this hand: {self.lead_reason}", self.lead_rule, "/seat")
        raise IllegalMove(f"it is {self.to_move}'s turn, not {seat}'s (play passes to the right: "
                          f"N → W → S → E)", R_ORDER, "/seat")

    def _not_in_hand(self, seat: str, t: Tile, text: str, hand: int, bit: int) -> int:
        """``seat`` plays ``t`` (its ``bit``, 0 for a tile not of the set), which their ``hand``
        does not show: with the deal known, a tile they do not hold, refused.  (An open hand
        shows no tile, and accepts any of the set not yet played: it returns the bit to take
        from the hand instead, see OpenCompetitiveHand.)"""
        raise IllegalMove(self._not_held(seat, t, text), R_HOLD, "/play")

    def _not_held(self, seat: str, t: Tile, text: str) -> str:
        return base.not_held(seat, t, text, self.hands, SET, "double-six", "it has already been played")

    def closing_passes(self) -> list[Move]:
        """The passes a record may write after a block (one round, from the player to move on);
        the simulator writes them now and then (see :mod:`domrec.simulate`)."""
        if self.end != "blocked" or self.to_move is None:
            return []
        return base.pass_round(self.to_move, len(self.seats) - self.passes, self._next.__getitem__)

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        seat = self.to_move
        return self._moves_with(seat, _tiles(self.masks[seat]))

    def only_pass(self) -> bool:
        """:meth:`legal_moves` is the pass of the player to move alone: the line is started and
        none of their tiles fits either end (one ``&``, as "must play if able" is checked).  A
        typed text leaves forced passes out, so its reader asks this before each move it reads:
        listing every move to see that there is none cost a third of reading such a text."""
        lp = self._lp
        if self.over or lp is None:
            return False
        return not self.masks[self.to_move] & _FITTING[lp][self._rp]

    def _moves_with(self, seat: str, tiles: Iterable[Tile]) -> list[Move]:
        """``seat``'s moves with ``tiles``: the lead, or every play that fits an end (lowest tile
        first), and a pass when none fits (an open hand, which cannot check "must play if able",
        may always pass after the lead)."""
        tiles = sorted(tiles, key=lambda t: (t.high, t.low))
        if self.left is None:
            if self.must_lead is not None:
                return [Play(seat=seat, play=str(self.must_lead))]
            return [Play(seat=seat, play=str(t)) for t in tiles]
        moves: list[Move] = []
        # A lone double shows the same number on both sides: one move, not two.
        ends = [self.left] if self.left == self.right else [self.left, self.right]
        for t in tiles:
            for end_tile, pip in ends:
                if t.has(pip):
                    moves.append(Play(seat=seat, play=str(t), on=str(end_tile)))
        if not moves or self.open:
            moves.append(Pass(seat=seat))
        return moves

    def outcome(self) -> HandOutcome:
        """The hand's end and scores: the two sides' pips left are all the scores need (the seat
        that went out holds nothing), summed by table look-up; each seat's pips are worked out
        only when explain asks for the working."""
        masks = self.masks
        ns = _pips(masks["N"] | masks["S"])
        ew = _pips(masks["E"] | masks["W"])
        scores = {"NS": 0, "EW": 0}
        if self.end == "out":
            scores[partnership_side(self.out_seat)] = ns + ew
        elif ns != ew:
            scores["NS" if ns < ew else "EW"] = ns + ew
        return HandOutcome(self.end, scores, lambda: self._working(scores))

    def _working(self, scores: dict[str, int]) -> tuple[str, ...]:
        """The end-of-hand arithmetic in words, for explain (the hands no longer change once it is over)."""
        hands = self.hands
        pips = {s: T.pip_total(h) for s, h in hands.items()}
        left = "  ".join(f"{s} {T.format_tiles(hands[s])} = {pips[s]}" for s in self.seats)
        if self.end == "out":
            side = partnership_side(self.out_seat)
            others = [s for s in self.seats if s != self.out_seat]
            sums = " + ".join(str(pips[s]) for s in others)
            return (f"{self.out_seat} dominoed; pips left: {left}",
                    f"{side} scores the other three hands: {sums} = {scores[side]}")
        ns, ew = pips["N"] + pips["S"], pips["E"] + pips["W"]
        lines = [f"blocked; pips left: {left}",
                 f"NS {pips['N']} + {pips['S']} = {ns}, EW {pips['E']} + {pips['W']} = {ew}"]
        if ns == ew:
            lines.append("equal totals: nobody scores, and the same player leads the next hand")
        else:
            low = "NS" if ns < ew else "EW"
            lines.append(f"{low} has fewer pips and scores all four hands: {ns} + {ew} = {ns + ew}")
        return tuple(lines)

    def score_why(self, move: Move, points: int) -> str:
        """Why a move scores 0, for a wrong score claim (docs/rules/competitive.md, "Moves and
        scores"): the validator writes it after "W is credited 10, but"."""
        return ("a competitive move scores nothing when it is made: the hand's points are counted at "
                "its end (the pips left after a domino or a block)")

    def render(self) -> list[str]:
        line = self.line
        if not line:
            return ["line: (empty)"]
        return ["line: " + "".join(f"[{a}-{b}]" for a, b in line)]

    def holdings(self) -> dict[str, list[Tile]]:
        return {s: sorted(_tiles(self.masks[s]), key=lambda t: (t.high, t.low), reverse=True) for s in self.seats}

    def held_count(self, seat: str) -> int:
        return self.masks[seat].bit_count()


#: An open hand's mask for a seat: seven bits past the set's 28, one for each tile it holds
#: unseen.  A play takes one of them (OpenCompetitiveHand._not_in_hand), so the known-deal
#: replay's rules for playing and going out run on it unchanged, at no cost to that replay.
_UNSEEN_SEVEN = 127 << 28


class OpenCompetitiveHand(CompetitiveHand):
    """A hand whose deal is not known (yet): checked as far as the tiles shown allow.

    Made by :meth:`CompetitiveMatch.start_open_hand`.  Every check that needs
    no hidden tile is made as in the known-deal replay, with the same rule and
    message: turn order and who leads, a tile of the set not already played,
    matching an end (and ``on``), the 6-6 lead under ``first_lead:
    double-six``, the leader not passing, the hand ending when a player's
    seventh tile is down.  Not checked: "must play if able" (any pass after
    the lead is accepted: the passer may have held nothing that fits) and who
    holds a tile.  A block is not detected from the tiles: the hand ends
    blocked after four passes in a row (the closing passes must be written).
    ``to_move`` is ``None`` until the first move where the leader is free (or
    is the unknown holder of 6-6); that move's seat leads.
    """

    open = True

    def __init__(self, seats: tuple[str, ...], leader: str | None, must_lead: Tile | None,
                 lead_reason: str, lead_rule: str, match: "CompetitiveMatch") -> None:
        #: The tiles on the line, as a mask (see _BIT): one ``|`` a play, one ``&`` to ask, a
        #: number in the position's key and nothing to copy with the state.
        self._down = 0
        super().__init__(seats, {s: _UNSEEN_SEVEN for s in seats}, leader, must_lead, lead_reason, lead_rule)
        self._match = match
        #: Each pass so far: its seat and the two numbers the ends showed.  "Must play if able" is
        #: checked once the deal is known, so what a pass says about the passer's tiles is part of
        #: the position (see :meth:`position_key`).
        self._passed: tuple[tuple[str, int | None, int | None], ...] = ()

    def _clone_own(self, own: dict[str, Any], memo: dict[int, Any]) -> None:
        # The match (one copy for a checkpoint that copies it too): the lead of a hand whose
        # leader was free names the next hand's leader there.
        match = memo.get(id(self._match))
        own["_match"] = match if match is not None else self._match.clone(memo)

    @property
    def played(self) -> set[Tile]:
        """The tiles on the line."""
        return set(_tiles(self._down))

    @property
    def counts(self) -> dict[str, int]:
        """How many tiles each seat still holds."""
        return {s: m.bit_count() for s, m in self.masks.items()}

    def apply(self, move: Move) -> int:
        # The known-deal replay, which checks first and changes after (a refused move leaves the
        # state as it was); the hooks below stand in for what needs the hidden tiles.
        first = self.to_move is None and not self.over
        points = super().apply(move)
        if type(move) is Play:
            self._down |= _BIT[_PARSED.get(move.play) or _tile(move.play)]
        else:
            lp, rp = self._lp, self._rp
            self._passed += ((move.seat, *((lp, rp) if lp is None or rp is None or lp <= rp else (rp, lp))),)
        if first:  # the lead of a hand whose leader was free (or the unknown holder of 6-6)
            self._match.last_leader = move.seat  # the next hand's leader follows from this one
        return points

    def position_key(self) -> tuple:
        """The known hand's key (:meth:`CompetitiveHand.position_key`) and what only the deal,
        worked out when the hand closes, will check: the tiles on the line, who led, and what
        each pass said the passer could not play."""
        return (*super().position_key(), self._down, self._match.last_leader, self._passed)

    def close_key(self) -> tuple:
        """What decides how this hand closes once its deal is known, when no move follows it (the
        DGN reader closes each position a sheet's readings end at, :mod:`domrec.notation.position_set`):
        two states with equal keys are both refused or both accepted with the same scores.

        It is :meth:`position_key` less what no later move can ask about any more: which tile
        lies at each end (only an ``on`` names it), and, once a player is out, even the numbers
        the ends show (the hand ended at that play, before any block is looked for).  Otherwise
        the numbers stay: the known deal finds a block after the last play when both ends show
        one number that nobody holds.  A block after an earlier play is seen in what the passes
        said (``_passed``): any play after it would fit that number, so someone held one."""
        lp, rp = self._lp, self._rp
        shown = None if lp is None or self.end == "out" else (lp, rp) if lp <= rp else (rp, lp)
        return (shown, *self.masks.values(), self.to_move, self.passes, self.over, self.end, self.out_seat,
                self._down, self._match.last_leader, self._passed)

    def _out_of_turn(self, seat: str) -> None:
        # Before the first move of a hand whose leader is free (or holds the unseen 6-6), any
        # seat at the table may move: that move's seat leads.
        if self.to_move is not None or seat not in self._next:
            super()._out_of_turn(seat)

    def _check_can_pass(self, seat: str) -> None:
        """"Must play if able" needs the passer's tiles: not checked until the deal is known."""

    def _not_in_hand(self, seat: str, t: Tile, text: str, hand: int, bit: int) -> int:
        """Who holds a tile is not known: any tile of the set not yet played may be the seat's, one of
        its unseen tiles (the bit returned, the highest left, is the one the play takes)."""
        if bit and not self._down & bit:
            return 1 << (hand.bit_length() - 1)
        return super()._not_in_hand(seat, t, text, hand, bit)  # not of the set, or already played

    def _blocked(self) -> bool:
        """A block is not seen from the hidden tiles: it shows as four passes in a row (apply)."""
        return False

    def holdings(self) -> dict[str, list[Tile]]:
        return {s: [] for s in self.seats}  # nobody's tiles are shown until played

    def only_pass(self) -> bool:
        """:meth:`legal_moves` is a pass alone: the line is started and no unplayed tile fits."""
        lp = self._lp
        if self.over or self.to_move is None or lp is None:
            return False
        return not _ALL & ~self._down & _FITTING[lp][self._rp]

    def legal_moves(self) -> list[Move]:
        """The moves the tiles shown allow: any unplayed tile that fits, and a pass after the lead."""
        seat = self.to_move
        if self.over or seat is None:
            return []
        down = self._down
        return self._moves_with(seat, (t for t in T.DOUBLE_SIX if not down & _BIT[t]))

    def outcome(self) -> HandOutcome:
        """A domino's score needs no deal (every tile not on the line is in the other three hands); a
        block's split between the sides does, so it is known only once the hand is replayed with its deal."""
        if self.end != "out":
            raise HiddenTiles("the scores of a blocked hand need the deal: replay it through start_hand")
        left = SET_PIPS - _pips(self._down)
        scores = {"NS": 0, "EW": 0}
        scores[partnership_side(self.out_seat)] = left
        return HandOutcome("out", scores, (f"{self.out_seat} dominoed; the other three hands hold every "
                                           f"tile not on the line: {left} pips",))


class CompetitiveMatch:
    #: The four players are dealt the whole set: no boneyard.
    deals_whole_set = True
    deal_rule = R_DEAL

    def clone(self, memo: dict[int, Any] | None = None) -> "CompetitiveMatch":
        """A copy of this match whose containers are its own (the Game API's checkpoints: a
        reading tried, then the state as it was); ``memo`` shares one copy of an object
        reached twice, as :func:`base.clone_state` does.  Written out as the hand's is
        (:meth:`CompetitiveHand.clone`): the totals and options copied, the rest values."""
        return base.twin_of(self, {} if memo is None else memo, ("totals", "options"))[0]

    def __init__(self, record: Record, options: dict[str, Any]) -> None:
        self.seats: tuple[str, ...] = base.PARTNERSHIP_SEATS
        self.sides = base.SIDES
        self.totals = {"NS": 0, "EW": 0}
        self.options = options
        self.over = False
        self.winner: str | None = None
        self.hand_no = 0
        self.last_leader: str | None = None
        self.last_tied = False

    # --- dealing ---------------------------------------------------------

    def _check_full_deal(self, hands: dict[str, tuple[str, ...]], where: str) -> dict[str, list[Tile]]:
        return base.check_full_deal(hands, self.seats, SET, 7, "double-six", R_DEAL, where)

    def _expected_leader(self, lead_draw: dict[str, str] | None,
                         dealt: dict[str, int] | None) -> tuple[str | None, str]:
        """(the leader the rules fix, or None when free or unknown; the reason, for messages).

        ``dealt`` is ``None`` for a hand whose deal is not known: then the
        holder of 6-6 (option first_lead: double-six) is not known either.
        """
        if self.hand_no == 1:
            if self.options["first_lead"] == "double-six":
                if lead_draw is not None:
                    self._check_lead_draw(lead_draw)  # present, so checked, though 6-6 decides
                if dealt is None:
                    return None, ""
                holder = next(s for s in self.seats if dealt[s] & _SIX_SIX_BIT)
                return holder, f"{holder} holds 6-6, which leads the first hand (option first_lead: double-six)"
            if lead_draw is not None:
                draw = self._check_lead_draw(lead_draw)
                won = lead_draw_winner(draw)
                return won, f"{won} drew {draw[won]}, the highest tile of the lead draw"
            return None, ""
        if self.last_leader is None:
            # After a score-sheet hand whose leader is not known: this hand's record names its leader.
            return None, ""
        found = _ROTATION.get((self.last_leader, self.last_tied))
        if found is not None:
            return found
        if self.last_tied:
            return self.last_leader, f"the last hand was a tied block, so {self.last_leader} leads again"
        nxt = base.seat_after(self.seats, self.last_leader, -1)
        return nxt, f"the lead passes to the right of {self.last_leader}, to {nxt}"

    def _check_lead_draw(self, lead_draw: dict[str, str]) -> dict[str, Tile]:
        where = "/deal/lead_draw"
        base.check_seat_keys(lead_draw, self.seats, where, "the lead draw")
        draw = {}
        for seat in self.seats:
            t = T.tile(lead_draw[seat])
            if t not in SET:
                raise DealError(f"{lead_draw[seat]} is not a tile of the double-six set", R_FIRST_LEADER,
                                f"{where}/{seat}")
            if t in draw.values():
                raise DealError(f"{lead_draw[seat]} is drawn twice in the lead draw", R_FIRST_LEADER,
                                f"{where}/{seat}")
            draw[seat] = t
        return draw

    def start_hand(self, hand: Hand) -> CompetitiveHand:
        self.hand_no += 1
        deal = hand.deal
        self._check_lead_draw_first(deal.lead_draw)
        for i, redeal in enumerate(deal.redeals or ()):
            where = f"/deal/redeals/{i}"
            if redeal.seat not in self.seats:
                raise DealError(f"{redeal.seat} is not a seat at this table", "seats", f"{where}/seat")
            old = self._check_full_deal(redeal.hands, f"{where}/hands")
            doubles = sum(1 for t in old[redeal.seat] if t.is_double)
            if doubles < 5:
                raise DealError(f"{redeal.seat} asked for a redeal holding {doubles} doubles; a redeal needs "
                                f"five or more", R_REDEAL, f"{where}/seat")
        dealt = self._dealt_hands(deal.hands)
        expected, why = self._expected_leader(deal.lead_draw, dealt)
        self._check_leader(hand, expected, why)
        leader = hand.leader
        if leader is None:
            leader = expected if expected is not None else (hand.moves[0].seat if hand.moves else None)
            if leader not in self.seats:
                leader = None  # the first move's seat is reported at that move
        self.last_leader = leader
        must, why, rule = self._lead_terms(hand, expected, why, leader)
        return CompetitiveHand(self.seats, dealt, leader, must, why, rule)

    def _dealt_hands(self, hands: dict[str, tuple[str, ...]]) -> dict[str, int]:
        """The four hands of a deal of the whole set, as masks for the hand's state.

        Every hand of every record passes here, so the usual, correct deal is
        accepted by table look-ups and sums done in C: seven tile texts each,
        and the bits of all 28 adding up to the whole set, which they do only
        when no tile is there twice (a repeated bit carries into another).
        Anything else (a wrong count, a tile twice, a text not in the table
        such as ``"06-3"``) goes to the careful check (:meth:`_check_full_deal`),
        which names the first problem, or accepts an unusual spelling as before.
        """
        if len(hands) == 4:
            get = _TEXT_BIT.get
            dealt: dict[str, int] = {}
            total = 0
            try:
                for seat in self.seats:
                    texts = hands[seat]
                    if len(texts) != 7:
                        break
                    dealt[seat] = mine = sum(map(get, texts))
                    total += mine
                else:
                    if total == _ALL:
                        return dealt
            except (KeyError, TypeError):
                pass
        parsed = self._check_full_deal(hands, "/deal/hands")
        return {s: sum(_BIT[t] for t in parsed[s]) for s in self.seats}

    def _check_lead_draw_first(self, lead_draw: dict[str, str] | None) -> None:
        """A lead draw picks the first hand's leader only."""
        if lead_draw is not None and self.hand_no != 1:
            raise DealError("only the first hand has a lead draw; later leaders follow from the last hand",
                            R_FIRST_LEADER, "/deal/lead_draw")

    def _check_leader(self, hand: Hand, expected: str | None, why: str) -> None:
        leader = hand.leader
        if expected is not None and leader is not None and leader != expected:
            raise DealError(f"{leader} cannot lead this hand: {why}", self._leader_rule(), "/leader")
        if leader is not None and leader not in self.seats:
            raise DealError(f"{leader} is not a seat at this table", "seats", "/leader")

    def _leader_rule(self) -> str:
        """The rule that fixes this hand's leader: the lead draw (or 6-6) in the first hand, else
        the rotation from the last hand."""
        return R_FIRST_LEADER if self.hand_no == 1 else R_LEADER

    def _lead_terms(self, hand: Hand, expected: str | None, why: str,
                    leader: str | None) -> tuple[Tile | None, str, str]:
        """What the hand's state needs to judge the lead, ``leader`` leading: the tile the hand must
        be led with (6-6 in the first hand under first_lead: double-six), why ``leader`` leads (for
        a lead by another seat) and the rule that names it."""
        must = SIX_SIX if self.hand_no == 1 and self.options["first_lead"] == "double-six" else None
        if expected is None and hand.leader is not None:
            why = f"the record names {leader} as this hand's leader"
            if must is not None:
                # Only with the deal not known: a known deal fixes the holder of 6-6 (``expected``).
                why += " (the holder of 6-6 leads the first hand: option first_lead: double-six)"
        return must, why, self._leader_rule()

    def start_open_hand(self, hand: Hand) -> OpenCompetitiveHand:
        """A hand whose deal is not known: ``hand.deal`` is ``None`` or gives only a ``lead_draw``.

        The leader is checked as in :meth:`start_hand` wherever it does not
        depend on the deal (the lead draw, the rotation from the last hand).
        """
        self.hand_no += 1
        deal = hand.deal
        lead_draw = None
        if deal is not None:
            if deal.hands:
                raise DealError("a hand whose deal is not known gives no player's tiles: give the whole deal, "
                                "or none", R_DEAL, "/deal/hands")
            if deal.redeals is not None:
                raise DealError("a redeal is recorded with the abandoned deal's hands, which cannot be given "
                                "while this hand's deal is not known", R_REDEAL, "/deal/redeals")
            lead_draw = deal.lead_draw
        self._check_lead_draw_first(lead_draw)
        expected, why = self._expected_leader(lead_draw, None)
        self._check_leader(hand, expected, why)
        leader = hand.leader if hand.leader is not None else expected
        self.last_leader = leader  # None until the first move names it
        must, why, rule = self._lead_terms(hand, expected, why, leader)
        return OpenCompetitiveHand(self.seats, leader, must, why, rule, self)

    def score_sheet_hand(self, hand: Hand) -> HandOutcome:
        """A hand recorded by its result alone, as on a paper score sheet.

        Checked: the sides are NS and EW; no score is negative; at most one
        side scores; the end, if claimed, is ``out`` or ``blocked`` and fits
        the scores (both at 0 is a tied block, never a domino); a score lies
        within what any play could give (a domino 3–137, a block 5–126 and
        even, see the bounds above); the leader, where the earlier hands fix
        it.  The next leader: to the right of this one, or this one again
        after a tied block; unknown when this hand's leader is (then the next
        hand's record names it, unchecked).
        """
        self.hand_no += 1
        expected, why = self._expected_leader(None, None)
        self._check_leader(hand, expected, why)
        result = hand.result
        claimed = dict(result.scores or {}) if result is not None else {}
        end = result.end if result is not None else None
        for side, n in claimed.items():
            if side not in self.sides:
                raise RuleViolation(f"{clip(side)} is not a side of this game (sides: {', '.join(self.sides)})",
                                    R_SIDES, f"/result/scores/{pointer_token(side)}")
            if n < 0:
                raise RuleViolation(f"{side} is claimed {n}, but a Competitive hand never scores below 0",
                                    R_END, f"/result/scores/{side}")
        if end is not None and end not in ("out", "blocked"):
            raise RuleViolation(f"a Competitive hand ends \"out\" (a player dominoes) or \"blocked\", "
                                f"not {clip(str(end))!r}", R_END, "/result/end")
        scores = {side: claimed.get(side, 0) for side in self.sides}
        scoring = [side for side in self.sides if scores[side]]
        if len(scoring) > 1:
            raise RuleViolation(f"both sides are claimed points (NS {scores['NS']}, EW {scores['EW']}), but only "
                                f"one side scores a hand: the side that dominoes, or the lighter side in a block",
                                R_END, "/result/scores")
        if not scoring:
            if end == "out":
                raise RuleViolation("a domino always scores: the other three players still hold a tile each, "
                                    "so a hand where nobody scores is a tied block", R_END, "/result/end")
        else:
            side = scoring[0]
            n = scores[side]
            where = f"/result/scores/{side}"
            if end == "blocked":
                if not BLOCK_MIN <= n <= BLOCK_MAX:
                    raise RuleViolation(f"{side} is claimed {n} for a block, but a block scores between "
                                        f"{BLOCK_MIN} and {BLOCK_MAX}: the pips in all four hands", R_END, where)
                if n % 2:
                    raise RuleViolation(f"{side} is claimed {n} for a block, but a block always scores an even "
                                        f"number: both ends show the same number, so the line's pips are even",
                                        R_END, where)
            elif end == "out" and not DOMINO_MIN <= n <= DOMINO_MAX:
                raise RuleViolation(f"{side} is claimed {n} for a domino, but a domino scores between "
                                    f"{DOMINO_MIN} and {DOMINO_MAX}: the pips in the other three hands",
                                    R_END, where)
            elif not DOMINO_MIN <= n <= DOMINO_MAX:
                raise RuleViolation(f"{side} is claimed {n}, but a hand scores 0 or between {DOMINO_MIN} and "
                                    f"{DOMINO_MAX}", R_END, where)
        self.last_leader = hand.leader if hand.leader is not None else expected
        self._add_hand(scores, not scoring)
        return HandOutcome(end or "score-sheet", scores, ("a score-sheet hand: the scores as claimed",))

    def tile_set(self) -> list[Tile]:
        return list(T.DOUBLE_SIX)

    def finish_hand(self, state: CompetitiveHand) -> HandOutcome:
        outcome = state.outcome()
        self._add_hand(outcome.scores, outcome.end == "blocked" and not any(outcome.scores.values()))
        return outcome

    def _add_hand(self, scores: dict[str, int], tied: bool) -> None:
        """A hand's scores into the totals; ``tied`` (a block nobody scores: the same player leads
        the next hand); the game ends once a partnership reaches 200."""
        for side, n in scores.items():
            self.totals[side] += n
        self.last_tied = tied
        if max(self.totals.values()) >= TARGET:
            self.over = True
            self.winner = base.winner_of(self.totals)

    def random_hand(self, rng: random.Random) -> Hand:
        tiles = list(T.DOUBLE_SIX)
        lead_draw = None
        leader = None
        if self.hand_no == 0 and self.options["first_lead"] == "any":
            rng.shuffle(tiles)
            draw = dict(zip(self.seats, tiles[:4]))
            lead_draw = {s: str(t) for s, t in draw.items()}
            leader = lead_draw_winner(draw)
        redeals = []
        while True:
            rng.shuffle(tiles)
            hands = [tiles[i * 7:(i + 1) * 7] for i in range(4)]
            dealt = base.deal_dict(self.seats, hands)
            greedy = [s for s, h in zip(self.seats, hands) if sum(t.is_double for t in h) >= 5]
            if not greedy:
                break
            redeals.append(Redeal(seat=greedy[0], hands=dealt))
        if self.hand_no == 0 and self.options["first_lead"] == "double-six":
            leader = next(s for s, h in zip(self.seats, hands) if SIX_SIX in h)
        elif self.hand_no > 0 and self.last_leader is not None:
            leader = self.last_leader if self.last_tied else base.seat_after(self.seats, self.last_leader, -1)
        elif self.hand_no > 0:
            leader = self.seats[0]  # after score-sheet hands that leave the leader unknown
        return Hand(leader=leader, deal=Deal(hands=dealt, lead_draw=lead_draw, redeals=tuple(redeals) or None))


class Competitive:
    name = "competitive"
    variants = ("standard",)
    defaults: dict[str, Any] = {"first_lead": "any"}
    scores_moves = False
    sides_are_partnerships = True

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        return (4,)

    def seats_for(self, count: int, options: dict[str, Any]) -> tuple[str, ...]:
        return base.PARTNERSHIP_SEATS

    def final_scores(self, variant: str, options: dict[str, Any], players: int | None = None) -> base.ScoreRange:
        """A hand only ever adds points (domino or block), so a total never falls below zero.

        Above: one hand gives a side at most ``DOMINO_MAX`` (137): a domino scores the pips of the
        other three hands, the set's 168 less the line, which holds 31 pips at the least (see
        ``DOMINO_MAX``); a block scores at most ``BLOCK_MAX`` (126), less.  The game
        ends after the hand in which a side reaches 200, level totals a draw (no tie sends play
        on), so a side starts its last hand on 199 at most and ends on 199 + 137 = 336 at most
        (:class:`~domrec.games.base.ScoreRange`).  The option ``first_lead`` changes who leads,
        not what a hand scores.

        How a game ends (``alone``): only one side scores a hand (a domino, or the lighter side of
        a block), so the hand that takes a side to 200 leaves the other on 199 at most, and no game
        ends with both sides at 200 or more (nor level there); a game stopped by the clock ends
        with both below 200."""
        return base.ScoreRange(0, None, "a hand only adds points to a side", hand=DOMINO_MAX,
                               hand_why="a domino scores at most the pips of the other three hands",
                               target=TARGET, step=DOMINO_MAX, alone=ALONE)

    def start(self, record: Record) -> CompetitiveMatch:
        if len(record.players) != 4:
            raise SetupError(
                f"Competitive dominoes needs exactly four players in two partnerships, and this record has "
                f"{len(record.players)} (the three-player game is not part of the standard rules)",
                R_PLAYERS, "/players")
        base.require_partnership_seats(record, "Competitive dominoes", R_PLAYERS)
        return CompetitiveMatch(record, base.resolve_options(self, record))


ENGINE = Competitive()
