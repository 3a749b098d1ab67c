"""The deal of a hand, worked out from its moves and the tiles left at its end.

People at a club table write what happened, not what was dealt.  A hand's
deal is then determined: each seat was dealt what it played, plus what it
still held at the end, less what it drew.  In a game that deals the whole set
one seat's tiles are whatever the others were not dealt, and a seat whose
hand is empty (known from the counts) held nothing.

Which move takes which tile from whose hand is the record format's own
meaning (FORMAT: a play, a starter, a span, a bridge or a road-block comes
from the mover's hand; a penalty play is the exposed tile of the seat that
exposed it; a draw adds a tile; a capture takes tiles from the row, not from
a hand).  How many tiles a seat still holds comes from the engine's open hand
(:meth:`~domrec.games.base.Match.start_open_hand`), and the result is checked
by replaying the hand through the engine with the inferred deal: nothing
here judges a rule.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any, Mapping, Sequence

from domrec import tiles as T
from domrec.errors import DealError
from domrec.record import Bridge, Block, Deal, Draw, Exposed, Move, Play, Span, Starter
from domrec.tiles import Tile

RULE = "the deal"


class MissingLeft(DealError):
    """The deal cannot be worked out: the tiles some seats still held are not given."""

    def __init__(self, hand_no: int, seats: Sequence[str], open_with: Mapping[str, int] | None = None) -> None:
        wanted = "; ".join(f"{s} …" for s in seats)
        who = seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + f" and {seats[-1]}"
        if open_with is None:
            said = f"the deal is not written, so give the tiles {who} still held: left {wanted}"
        else:
            # A left line was written, yet by the moves nobody went out and the hand is not over:
            # what a pass left out looks like (every move after it goes to the wrong seat), far
            # more often than a hand stopped early with a seat forgotten, so that comes first.
            held = ", ".join(f"{s} {n}" for s, n in open_with.items())
            said = (f"left leaves out {who}, but by the moves {'it' if len(seats) == 1 else 'each'} still holds "
                    f"tiles ({held}) and the hand is not over (is a move missing, or given to the wrong seat? "
                    f"without the deal, every pass must be written); a hand stopped before its end gives "
                    f"the tiles of {who} too: left {wanted}")
        super().__init__(f"hand {hand_no}: {said}", RULE, "/deal")
        self.seats = tuple(seats)


class LeftContradiction(DealError):
    """The ``left`` tiles cannot be right given the moves."""


def tiles_taken(moves: Sequence[Move]) -> tuple[dict[str, list[str]], dict[str, list[str]], list[int]]:
    """(tiles each seat took from its hand, tiles each seat drew, indices of draws that name no tile)."""
    played: dict[str, list[str]] = {}
    drawn: dict[str, list[str]] = {}
    unnamed: list[int] = []
    exposer: dict[Any, str] = {}
    for j, move in enumerate(moves):
        field = _TAKING.get(move.__class__)
        if field is None:  # (a roll, a pass, a capture…: no tile leaves a hand)
            continue
        if field is _PLAY:
            owner = move.seat
            if move.penalty:
                owner = exposer.get(T.tile(move.play), move.seat)
            played.setdefault(owner, []).append(move.play)
        elif field is _EXPOSED:
            exposer[T.tile(move.exposed)] = move.seat
        elif field is _DRAW:
            if move.draw is True:
                unnamed.append(j)
            else:
                drawn.setdefault(move.seat, []).append(move.draw)
        else:
            played.setdefault(move.seat, []).append(getattr(move, field))
    return played, drawn, unnamed


_PLAY, _EXPOSED, _DRAW = object(), object(), object()
#: The moves that take a tile from a hand or add one: a play, an exposure and a draw are
#: handled apart; Domino Roads' moves that lay a tile from the mover's stock name the field
#: holding it.  One look-up a move (most moves of a Roads hand are rolls and passes).
_TAKING: dict[type, Any] = {Play: _PLAY, Exposed: _EXPOSED, Draw: _DRAW, Starter: "starter", Span: "span",
                            Bridge: "bridge", Block: "block"}


def infer(match: Any, state: Any, hand_no: int, seats: Sequence[str], moves: Sequence[Move],
          left: Mapping[str, Sequence[str]], public: Deal | None) -> Deal:
    """The deal that the moves and ``left`` determine.

    ``state`` is the engine's open hand after ``moves`` (for how many tiles
    each seat still holds); ``public`` holds the deal's public parts (row,
    boneyard order, piles, lead draw), which are kept.  Raises
    :class:`MissingLeft` naming the seats whose tiles are needed, or
    :class:`LeftContradiction` when ``left`` cannot be right.
    """
    played, drawn, unnamed = tiles_taken(moves)
    if unnamed:
        order = list(public.boneyard) if public is not None and public.boneyard else []
        draws = [moves[j] for j in unnamed]
        if len(order) < len(draws):
            raise LeftContradiction(f"hand {hand_no}: a draw names no tile and the boneyard's order is not "
                                    f"written: write the tile drawn (+6-3)", RULE, "/deal/boneyard")
        for move, text in zip(draws, order):
            drawn.setdefault(move.seat, []).append(text)
    piles = dict(public.piles) if public is not None and public.piles else {}
    # Three-player Domino Roads: a stock is topped up from its pile in pile order; ``left`` is
    # what is still in the stock, and the pile's remaining tiles are the pile's, not the stock's.
    remaining = getattr(state, "piles", None) or {}
    topped = {seat: list(pile[:len(pile) - len(remaining.get(seat, ()))]) for seat, pile in piles.items()}
    seen_in_moves = Counter(map(T.tile, chain.from_iterable(played.values())))
    in_set: Counter | None = None

    def copies(t: Tile) -> int:
        """How often the set holds ``t`` (counted once a hand, not once a tile)."""
        nonlocal in_set
        if in_set is None:
            in_set = Counter(match.tile_set())
        return in_set[t]

    dealt: dict[str, list[str]] = {}
    missing: list[str] = []
    for seat in seats:
        held = state.held_count(seat)
        if seat in left:
            given = list(left[seat])
            # A tile played in the hand is said before the count it also makes wrong: it is the
            # tile to take out of the line (docs/recording.md, "The end of a hand").
            for k, text in enumerate(given):
                t = T.tile(text)
                seen = seen_in_moves.get(t)
                if seen and seen >= copies(t):
                    raise LeftContradiction(f"hand {hand_no}: left {seat} lists {text}, but it was played in "
                                            f"this hand", RULE, "/deal", left=(seat, k))
            if held != len(given):
                raise LeftContradiction(f"hand {hand_no}: left {seat} lists {len(given)} tile"
                                        f"{'' if len(given) == 1 else 's'}, but by the moves {seat} still holds "
                                        f"{held} (is a move missing, or given to the wrong seat? without the "
                                        f"deal, every pass must be written)", RULE, "/deal")
        elif held == 0:
            given = []
        else:
            missing.append(seat)
            continue
        stock = _less(played.get(seat, []) + given, drawn.get(seat, []), hand_no, seat, "drew")
        dealt[seat] = _less(stock, [str(t) for t in topped.get(seat, ())], hand_no, seat, "took from the pile")
    if missing:
        if len(missing) == 1 and match.deals_whole_set:
            seat = missing[0]
            rest = Counter(match.tile_set())
            for ts in list(dealt.values()) + [list(p) for p in piles.values()]:
                rest.subtract(T.tile(x) for x in ts)
            if any(n < 0 for n in rest.values()):
                over = next(t for t, n in rest.items() if n < 0)
                raise LeftContradiction(f"hand {hand_no}: {over} appears more often in the moves and left "
                                        f"tiles than the set holds", RULE, "/deal")
            dealt[seat] = [str(t) for t in _ordered(rest, played.get(seat, []))]
        elif left and not getattr(state, "over", True):
            raise MissingLeft(hand_no, missing, {seat: state.held_count(seat) for seat in missing})
        else:
            raise MissingLeft(hand_no, missing)
    hands = {seat: tuple(dealt[seat]) for seat in seats}
    if public is None:
        return Deal(hands=hands)
    return Deal(hands=hands, boneyard=public.boneyard, row=public.row, piles=public.piles,
                lead_draw=public.lead_draw, redeals=public.redeals)


def _less(tiles: list[str], minus: list[str], hand_no: int, seat: str, verb: str) -> list[str]:
    """``tiles`` without ``minus`` (as tiles, each once), keeping the order and the text as written."""
    if not minus:  # (most seats: nothing drawn, nothing taken from a pile)
        return tiles
    out = list(tiles)
    for text in minus:
        t = T.tile(text)
        for k, x in enumerate(out):
            if T.tile(x) is t:
                del out[k]
                break
        else:
            raise LeftContradiction(f"hand {hand_no}: {seat} {verb} {text} but neither played it nor held it "
                                    f"at the end (left {seat})", RULE, "/deal")
    return out


def _ordered(rest: Counter, played_first: list[str]) -> list[Tile]:
    """The remaining tiles, those the seat played first (in play order), then the rest in set order."""
    out: list[Tile] = []
    pool = Counter({t: n for t, n in rest.items() if n > 0})
    for text in played_first:
        t = T.tile(text)
        if pool[t] > 0:
            out.append(t)
            pool[t] -= 1
    for t in sorted(pool, key=lambda t: (-t.high, -t.low)):
        out.extend([t] * pool[t])
    return out
