"""The legal moves a Game keeps for its position (domrec/game.py, :meth:`Game.legal_moves`) are
invisible: at every position of a simulated game of every game and option set, whatever was
done to reach it (moves refused, taken back, a checkpoint restored, a fork played on), the kept
list is the one the engine gives, and the same as a game made afresh from the record gives.
Deterministic (a seeded stream of choices a game) and quick: one pass through each game."""

from __future__ import annotations

import random

import attrs
import pytest

from domrec.game import Game, Refused
from domrec.record import Exposed, Pass

from tests.test_game import CONFIGS, IDS, _illegal_variant, new_game, simulated


def _agrees(g: Game) -> list:
    """The game's legal moves, checked against the engine's own answer now; asked twice (the
    second answer is the kept one), and a caller changing its list changes nothing."""
    first = g.legal_moves()
    assert first == g._legal_now()
    # (the engine's own answer to "can the player to move only pass?", where it gives one, is
    # the list's: ``forced_pass`` asks it instead of listing the moves)
    assert g.forced_pass() == (len(first) == 1 and type(first[0]) is Pass)
    first.append("not a move")
    again = g.legal_moves()
    assert again == g._legal_now() and "not a move" not in again
    return again


def _afresh(g: Game) -> list:
    """The legal moves of a game made from ``g``'s record alone (no history, nothing kept); a
    hand that is over (Castle Rock's closing captures still to come) is closed by a game made
    from a record, so it is compared while the hand goes on."""
    return Game.from_record(g.record()).legal_moves() if not g.hand_over else g._legal_now()


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_kept_legal_moves_are_the_engines_whatever_led_to_the_position(config):
    record = simulated(config)
    rng = random.Random(f"legal-{config}")
    g = new_game(record)
    assert _agrees(g) == []
    for i, hand in enumerate(record.hands):
        g.start_hand(hand.deal, hand.leader, hand.comment)
        for j, move in enumerate(hand.moves):
            legal = _agrees(g)
            roll = rng.random()
            if roll < 0.15 and g.to_move is not None and type(move) is not Exposed:
                bad = _illegal_variant(g, move, rng)
                if bad is not None and bad not in legal:
                    with pytest.raises(Refused):
                        g.push(bad)
                    assert _agrees(g) == legal == _afresh(g)
            elif roll < 0.25 and g.moves:
                last = g.pop()
                _agrees(g)
                g.push(last)
                assert _agrees(g) == legal
            elif roll < 0.35:
                point = g.checkpoint()
                g.push(move)
                _agrees(g)
                g.restore(point)
                assert _agrees(g) == legal
            elif roll < 0.45:
                twin = g.fork()
                assert twin.legal_moves() == legal
                twin.push(move)
                assert twin.legal_moves() == twin._legal_now()
                assert _agrees(g) == legal  # the fork's moves are not the game's
            elif roll < 0.55:
                assert legal == _afresh(g)
            g.push(move)
        _agrees(g)
        g.end_hand(claim=hand.result)
        assert _agrees(g) == []
    assert g.over


def test_a_refused_move_left_unrepaired_then_restored_leaves_the_engines_list():
    """The reader's way (push without repair, then restore the checkpoint): the list after the
    restore is the engine's, not one kept from the half-changed state."""
    config = next(c for c in CONFIGS if c[0] == "competitive")
    record = simulated(config)
    rng = random.Random(3)
    g = new_game(record)
    hand = record.hands[0]
    g.start_hand(hand.deal, hand.leader, hand.comment)
    for move in hand.moves[:5]:
        g.push(move)
    legal = _agrees(g)
    bad = _illegal_variant(g, hand.moves[5], rng)
    point = g.checkpoint()
    with pytest.raises(Refused):
        g.push(bad, repair=False)
    _agrees(g)
    g.restore(point)
    assert _agrees(g) == legal


def test_the_engine_lists_the_moves_once_a_position(monkeypatch):
    """What the cache is for: the recorder's forced-pass checks and the page's list ask the game
    for its legal moves several times a move; the engine works them out once."""
    config = next(c for c in CONFIGS if c[0] == "competitive")
    record = simulated(config)
    g = new_game(record)
    hand = record.hands[0]
    g.start_hand(hand.deal, hand.leader, hand.comment)
    asked = []
    state_type = type(g.state)
    real = state_type.legal_moves
    monkeypatch.setattr(state_type, "legal_moves", lambda self: asked.append(1) or real(self))
    for move in hand.moves[:6]:
        before = len(asked)
        g.legal_moves(), g.forced_pass(), g.possible_moves()
        assert len(asked) == before + 1
        g.push(attrs.evolve(move))
