"""A blocked hand's closing passes may be left out, but those written go in turn: a closing pass
written with another seat is refused at its seat (docs/format.md, "Where problems point"), in
JSON and in DGN alike.  (Found by the DGN properties on a random example: the problem named the
move, "the hand is already over", where a seat changed is refused at the seat.)"""

from __future__ import annotations

import attrs
import pytest

from domrec import notation
from domrec.record import Pass
from domrec.validate import validate
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)


def _blocked_with_closing_passes(game: str, players: int | None):
    """A simulated record, a blocked hand of it and the index of its second closing pass."""
    for seed in range(400):
        record = next(made_once.simulate(game, 1, seed, players))
        for i, hand in enumerate(record.hands):
            if hand.result is None or hand.result.end != "blocked":
                continue
            tail = 0
            while tail < len(hand.moves) and type(hand.moves[-1 - tail]) is Pass:
                tail += 1
            if tail >= 2:
                return record, i, len(hand.moves) - tail + 1
    raise AssertionError("no blocked hand with closing passes written")


@pytest.mark.parametrize("game, players", [("competitive", None), ("horse-race", 4)])
def test_a_closing_pass_out_of_turn_is_refused_at_its_seat(game, players):
    record, i, j = _blocked_with_closing_passes(game, players)
    assert validate(record).status == "valid"
    hand = record.hands[i]
    due = hand.moves[j].seat
    other = next(s for s in record.seats if s != due)
    moves = list(hand.moves)
    moves[j] = Pass(seat=other)
    bad = attrs.evolve(record, hands=(*record.hands[:i], attrs.evolve(hand, moves=tuple(moves)), *record.hands[i + 1:]))
    first = validate(bad).problems[0]
    assert first.pointer == f"/hands/{i}/moves/{j}/seat"
    assert first.message == (f"{other} passes out of turn: the hand is blocked, and its closing passes, which may "
                             f"be left out, go in turn ({due} next)")
    (read,) = notation.read_games(notation.dumps(bad), "bad.dgn")
    assert [p.pointer for p in read.report.problems][:1] == [first.pointer]
