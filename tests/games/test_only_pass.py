"""Each engine's ``only_pass`` (domrec/games/base.py) gives the answer its legal moves give:
the player to move can do nothing but pass.  The Game API's ``forced_pass`` asks it instead of
listing every move, before each move of a typed text that leaves its forced passes out and of
each move a table records, so a wrong answer would put a pass in a game (or leave one out):
checked at every position of simulated games of every game and option set, on random seeds."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from domrec.game import Game
from domrec.record import Pass

from tests.test_game import CONFIGS, SETTINGS, new_game, simulated


def _same_answer(g: Game) -> bool:
    """Whether the engine said "only a pass" here (asserting that its list says the same)."""
    state = g._state
    if state is None or state.over or not g.deal_known or g._leader_free():
        return False
    legal = state.legal_moves()
    listed = len(legal) == 1 and type(legal[0]) is Pass
    assert state.only_pass() == listed, (g.hand_number, len(g.moves), legal)
    assert g.forced_pass() == listed
    return listed


@settings(max_examples=12, **SETTINGS)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6))
def test_only_pass_is_the_legal_moves_answer_at_every_position(config, seed):
    record = simulated(config, seed)
    g = new_game(record)
    for hand in record.hands:
        g.start_hand(hand.deal, hand.leader, hand.comment)
        for move in hand.moves:
            _same_answer(g)
            g.push(move)
        _same_answer(g)
        g.end_hand(claim=hand.result)


def test_forced_passes_are_found_in_every_game_that_has_them():
    """The check above is not empty: a block's passes (Competitive), a pass with nothing to
    play and no boneyard (Horse Race), a pass with nothing that fits on the axis (Broadway) are
    seen, and the engines without passing (Castle Rock, Domino Roads, whose dice are always a
    move) never answer yes."""
    seen: dict[str, int] = {}
    for config in CONFIGS:
        for seed in range(1, 6):
            record = simulated(config, seed)
            g = new_game(record)
            for hand in record.hands:
                g.start_hand(hand.deal, hand.leader, hand.comment)
                for move in hand.moves:
                    seen[config[0]] = seen.get(config[0], 0) + _same_answer(g)
                    g.push(move)
                g.end_hand(claim=hand.result)
    assert seen["competitive"] and seen["horse-race"] and seen["broadway"], seen
    assert not seen["castle-rock"] and not seen["domino-roads"], seen


def test_an_open_competitive_hand_answers_as_its_own_list_of_moves():
    """Without the deal, Competitive's open hand lists every unplayed tile that fits: its
    ``only_pass`` says so too (a pass alone once none fits), at every move of simulated hands."""
    from domrec import games
    from domrec.games.base import copy_match
    from domrec.record import Hand

    asked = 0
    for seed in range(1, 4):
        record = simulated(("competitive", None, None, None), seed)
        match = games.engine("competitive").start(record)
        for hand in record.hands:
            state = copy_match(match).start_open_hand(Hand(leader=hand.leader))
            for move in hand.moves:
                if state.over:
                    break
                if state.to_move is not None:
                    legal = state.legal_moves()
                    listed = len(legal) == 1 and type(legal[0]) is Pass
                    assert state.only_pass() == listed
                    asked += 1
                state.apply(move)
            known = match.start_hand(hand)  # (the next hand starts from the match this one leaves)
            for move in hand.moves:
                known.apply(move)
            match.finish_hand(known)
    assert asked > 100
