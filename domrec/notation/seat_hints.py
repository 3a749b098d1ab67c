"""A hint added to a rule problem where the text left a seat out: the likely slip, named.

A typed move may leave out its seat (docs/notation.md): the reader gives it the seat whose turn
it is.  A seat or a pass left out on a paper sheet then shifts every later seat by one, and the
rules refuse a move far from the slip ("the hand is already over: W went out"), or refuse the
move itself as out of turn ("P2 has already placed a tile this turn", "it is E's own turn: …
an exposure is out of turn") when another player made it.  The engines' sentences stay as they
are (they are right about the record the reader built); only this layer knows which seats the
text wrote and which the turn gave, so it adds, in parentheses, where to look:

* a move refused as made out of turn, written without its seat: write the seat of whoever made
  it first (``P1 6-2``, ``S !5-5?``: the example names the seat after the one the turn gave, the
  other player of a two-player game);
* a move refused because the hand is over, after moves whose seats the turn gave: a seat or a
  pass may be left out among them, from the first of that run on (a hint, not a certainty: the
  run is named, not one move).

Nothing is added where the text wrote the seats (the turn gave none), so a canonical text's
verdict never changes.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import attrs

from domrec.notation.positions import _move_word, _offsets
from domrec.notation.tokens import _HandText, _Text
from domrec.record import Record
from domrec.validate import Problem, Report

#: Rule problems that say a move was made by the wrong player: its seat, given by the turn, may
#: be the slip (the engines' own sentences, and the reader's "whose move is this?").  Castle
#: Rock's second place in a turn is one only with the boneyard empty, where a place's seat is
#: written; before that ("…, then a draw") the turn passes with the draw, and a draw left out is
#: the likelier slip, which a seat would not mend.
_OUT_OF_TURN = re.compile(r"has already placed a tile this turn: a turn is one tile, then captures$"
                          r"|an exposure is out of turn|^whose move is this\?")
#: Rule problems that say the hand was over before the move: a seat or a pass left out earlier.
_OVER = re.compile(r"^the hand is already over\b")


def with_seat_hints(report: Report, hands: list[_HandText], seats: list[str], src: _Text,
                    record: Record | None) -> Report:
    """``report`` with a hint added to each rule problem a seat left out may explain (see the
    module's docstring); the report itself where there is none."""
    if not any(p.kind == "illegal" and p.line is not None for p in report.problems):
        return report
    offsets = _offsets(src.text)
    changed = tuple(_hinted(p, hands, seats, src, offsets, record) for p in report.problems)
    return report if changed == report.problems else attrs.evolve(report, problems=changed)


def _hinted(p: Problem, hands: list[_HandText], seats: list[str], src: _Text, offsets: Callable[[Any], int],
            record: Record | None) -> Problem:
    if p.kind != "illegal" or p.line is None or p.hand is None or not 0 < p.hand <= len(hands):
        return p
    out_of_turn, over = _OUT_OF_TURN.search(p.message), _OVER.search(p.message)
    if not (out_of_turn or over):
        return p
    hand = hands[p.hand - 1]
    at = (p.line, p.column or 0)
    spots = [src.where(offsets(spot)) for spot in hand.move_pos[:len(hand.moves)]]
    k = max((j for j, spot in enumerate(spots) if spot <= at), default=None)
    if k is None:
        return p
    if out_of_turn and "seat" not in hand.moves[k]:
        word = _move_word(src.text, offsets(hand.move_pos[k]))
        seat = _other_seat(p, seats, record)
        if word is None or seat is None:
            return p
        if p.seat is not None:
            hint = (f"its seat is not written, so the turn gave it: write first the seat of the player who made "
                    f"it, as in {seat} {word.group(0)}")
        else:
            hint = f"its seat is not written: write it first, as in {seat} {word.group(0)}"
        return attrs.evolve(p, message=f"{p.message} ({hint})")
    if over:
        # The run of moves whose seats the turn gave, up to the one refused; a seat or a pass left
        # out among them, before the refused move, moved the turn (the refused move's own seat
        # cannot: the hand is over for anyone).
        first = k - 1
        if first < 0 or "seat" in hand.moves[first]:
            return p
        while first > 0 and "seat" not in hand.moves[first - 1]:
            first -= 1
        line, column = spots[first]
        return attrs.evolve(p, message=f"{p.message} (was a seat or a pass left out? the seats of this hand's "
                                       f"moves from {line}:{column} on are not written, so the turn gave them)")
    return p


def _other_seat(p: Problem, seats: list[str], record: Record | None) -> str | None:
    """The seat a refused move's example names: the one after the seat the turn gave it (the other
    player of a two-player game), or, where the turn gave none (after a hand's last tile), the
    seat of the move before it, who keeps capturing in Castle Rock."""
    if p.seat is not None:
        if p.seat not in seats or len(seats) < 2:
            return None
        return seats[(seats.index(p.seat) + 1) % len(seats)]
    if record is None or p.move is None or p.move < 2 or p.hand > len(record.hands):
        return seats[0] if seats else None
    moves = record.hands[p.hand - 1].moves
    return moves[p.move - 2].seat if p.move - 2 < len(moves) else (seats[0] if seats else None)
