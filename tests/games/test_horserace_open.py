"""Horse Race in format 1.1: open hands (deal not known), score-sheet hands, the tile set.

An open hand is replayed from the moves alone and must agree with the
known-deal replay on everything the shown tiles decide: every move of a
simulated game is accepted with the same points, ``to_move`` and the tile
counts agree before every move, and the hand ends where the known replay ends
(a block: once every player has passed in succession).  Corrupted moves are
refused with the known replay's rule where the check needs no hidden tile;
passes and draws refused only because of a hidden tile are accepted.  A
score-sheet game (some or every hand by its scores alone) ends with the same
totals, ``over`` and ``winner``.

The hand-made examples use the two-player deal ``DEAL_A`` of
``test_horserace.py`` and its worked opening (see that module's docstring).
"""

from __future__ import annotations

import copy
import json
import itertools
import random
from collections import Counter

import pytest

from domrec.errors import HiddenTiles
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from domrec import games, simulate
from domrec.errors import DealError, IllegalMove
from domrec.games import horserace as H
from domrec.reader import load_dict
from domrec.record import Deal, Draw, Hand, HandResult, Pass, Play
from domrec.tiles import DOUBLE_SIX, tile

from tests.games.test_horserace import BONE_A, DEAL_A, OPENING, VALID_DIR, mv

ENGINE = games.engine("horse-race")
R = "horse-race: "


# --- helpers ---------------------------------------------------------------------------------

def _doc(seats=("P1", "P2"), options=None, variant=None, hands=()) -> dict:
    doc: dict = {"format": "domrec", "version": "1.0", "game": "horse-race",
                 "players": [{"seat": s, "name": s} for s in seats], "hands": list(hands)}
    if options or variant:
        doc["rules"] = {}
        if variant:
            doc["rules"]["variant"] = variant
        if options:
            doc["rules"]["options"] = options
    return doc


def _match(seats=("P1", "P2"), options=None, variant=None):
    return ENGINE.start(load_dict(_doc(seats, options, variant)))


def open_hand(match, leader="P1", boneyard=BONE_A):
    deal = Deal(hands={}, boneyard=tuple(boneyard)) if boneyard is not None else None
    return match.start_open_hand(Hand(leader=leader, deal=deal))


def moves(texts):
    """Move texts (``"P1 5-0 on 5-5 =2"``) as record moves."""
    rec = load_dict(_doc(hands=[{"deal": {"hands": DEAL_A}, "moves": [mv(t) for t in texts]}]))
    return rec.hands[0].moves


def play_open(texts, leader="P1", boneyard=BONE_A, **kw):
    state = open_hand(_match(**kw), leader, boneyard)
    points = [state.apply(m) for m in moves(texts)]
    return state, points


def refused(state, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as e:
        state.apply(move)
    return e.value


def play(seat, t, on=None):
    return Play(seat=seat, play=t, on=on)


# --- the tile set ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tile_set_is_the_double_six_set_and_a_boneyard_is_always_left(players):
    match = _match(tuple(f"P{i + 1}" for i in range(players)))
    assert sorted(map(str, match.tile_set())) == sorted(map(str, DOUBLE_SIX))
    assert match.deals_whole_set is False


# --- open hands, by hand -------------------------------------------------------------------------

def test_the_worked_opening_is_accepted_with_its_points_and_tile_counts():
    state, points = play_open(OPENING)
    assert state.open is True and H.HorseRaceHand.open is False
    assert points == [2, 2, 0, 1, 0, 1, 0, 0, 2]
    # P1: 7 dealt, 5 of them set, 5-4 drawn and set; P2: 7 dealt, 2 set.
    assert (state.held_count("P1"), state.held_count("P2")) == (2, 5)
    assert state.to_move == "P2" and not state.over and state.stock == 13
    assert state.holdings() == {"P1": [], "P2": []}
    text = "\n".join(state.render())
    assert "count: 2 (2-0) + 2 (3-2) + 4 (5-4) + 2 (1-1 spinner) = 10 (pegs 2: one point per five)" in text
    assert "tiles held: P1 2, P2 5" in text
    assert any("deal not recorded" in line for line in state.deal_notes())


def test_an_open_hand_has_no_outcome_and_no_list_of_legal_moves():
    state, _ = play_open(OPENING[:2])
    with pytest.raises(HiddenTiles):
        state.outcome()
    with pytest.raises(HiddenTiles):
        state.legal_moves()


def test_a_drawn_tile_is_known_held_and_must_be_set_at_once():
    state, _ = play_open(OPENING[:8])  # P1 draws 5-4, which fits
    assert state.held_count("P1") == 3 and state.holdings()["P1"] == [tile("5-4")]
    rule = R + "turn (a drawn playable tile is set at once and ends the turn)"
    assert refused(state, play("P1", "6-4", "5-4")).rule == rule
    assert refused(state, Pass(seat="P1")).rule == rule
    assert refused(state, play("P2", "4-4")).rule == rule
    assert "tiles held: P1 3 (5-4 drawn), P2 5" in "\n".join(state.render())


def test_without_a_named_leader_nobody_is_to_move_until_the_first_move_leads():
    state = open_hand(_match(), leader=None)
    assert state.to_move is None
    assert state.apply(play("P2", "4-4")) == 0
    assert state.to_move == "P2"  # a double: P2 goes on
    state = open_hand(_match(), leader=None)
    assert refused(state, play("P9", "4-4")).message.startswith("P9 is not a seat at this table")
    refused(state, Pass(seat="P1"))  # a lead is a tile; the refused move does not make P1 the leader
    assert state.to_move is None


def test_the_lead_is_a_tile_by_the_named_leader():
    state = open_hand(_match())
    assert refused(state, Pass(seat="P1")).rule == R + "lead"
    assert refused(state, Draw(seat="P1", draw=True)).rule == R + "lead"
    e = refused(state, play("P2", "4-4"))
    assert e.rule == R + "lead" and "chosen by lot" in e.message
    assert refused(state, play("P1", "4-4", "5-5")).rule == R + "layout (matching an open end)"


def test_the_player_who_dominoed_leads_the_next_open_hand():
    rec = load_dict(json.loads((VALID_DIR / "chain-of-three.json").read_text()))  # P4 dominoes
    match = ENGINE.start(rec)
    state = match.start_hand(rec.hands[0])
    for move in rec.hands[0].moves:
        state.apply(move)
    match.finish_hand(state)
    with pytest.raises(DealError) as e:
        match.start_open_hand(Hand(leader="P1"))
    assert e.value.rule == R + "lead" and e.value.where == "/leader"
    state = match.start_open_hand(Hand())
    assert state.to_move == "P4"
    assert refused(state, play("P1", "6-6")).message == "P1 cannot lead this hand: P4 dominoed the last hand and leads this one"


def test_a_tile_already_on_the_table_or_outside_the_set_is_refused_as_the_known_deal_refuses_it():
    state, _ = play_open(OPENING[:3])
    e = refused(state, play("P2", "5-0", "5-5"))
    assert e.rule == R + "turn (setting a tile from hand)"
    assert e.message == "P2 does not hold 5-0: it is already on the table"
    assert refused(state, play("P2", "7-5", "5-5")).message == "7-5 is not a tile of the double-six set"


def test_a_tile_known_to_be_elsewhere_is_refused():
    # The boneyard order is given: 6-3, its second tile, lies in the boneyard.
    state, _ = play_open(OPENING[:3])
    assert refused(state, play("P2", "6-3")).message == "P2 does not hold 6-3: it is still in the boneyard"
    # P2 draws 5-4 (it fits, so it is set at once): before it is set, it is known to be P2's.
    state.apply(Draw(seat="P2", draw=True))
    state.drawn, state.to_move = None, "P1"  # (look past the turn to the holding check)
    assert refused(state, play("P1", "5-4", "5-5")).message == "P1 does not hold 5-4 (it is in P2's hand)"


def test_a_player_whose_every_tile_is_known_cannot_set_an_unseen_tile():
    state, _ = play_open(OPENING[:3])
    state.apply(Draw(seat="P2", draw=True))  # 5-4
    state.hidden["P2"] = 0  # as if P2 had already set all 7 dealt tiles
    e = refused(state, play("P2", "5-3", "5-5"))
    assert e.rule == R + "turn (setting a tile from hand)"
    assert e.message == "P2 does not hold 5-3: every tile P2 still holds is known (5-4, drawn)"
    assert state.apply(play("P2", "5-4", "5-5")) == 0
    assert state.over and state.end == "out" and state.out_seat == "P2" and state.to_move is None


def test_matching_and_the_spinner_sides_are_checked_at_once():
    state, _ = play_open(OPENING[:3])
    assert refused(state, play("P2", "6-2", "5-0")).rule == R + "layout (matching an open end)"
    assert "fits nowhere" in refused(state, play("P2", "4-4")).message
    assert "is not on the table" in refused(state, play("P2", "6-2", "6-6")).message
    # The score of a tile on an end while 5-5's last side is free: the known replay's verdict.
    claim = Play(seat="P2", play="5-3", on="5-5", score=3)
    assert refused(state, claim).rule == R + "layout (a spinner's sides before its ends)"


def test_turn_order_and_the_chain_are_checked():
    state, _ = play_open(OPENING[:1])
    e = refused(state, play("P2", "5-3", "5-5"))
    assert e.rule == R + "turn (the chain after a double or a scoring tile)"
    assert e.message == ("P1 set a double (5-5) and goes on: another tile if able, else a draw "
                         "(option chain_draw); it is not P2's turn")
    state, _ = play_open(OPENING[:3])
    assert refused(state, play("P1", "6-4", "5-5")).rule == R + "turn (play passes clockwise)"


def test_a_pass_or_draw_is_accepted_while_no_tile_known_to_be_held_fits():
    # P2 holds 5-3, which fits; nobody has seen it, so the draw is accepted (the known deal refuses it).
    state, _ = play_open(OPENING[:3])
    assert state.apply(Draw(seat="P2", draw=True)) == 0  # 5-4
    assert state.held_count("P2") == 8
    assert state.apply(play("P2", "5-4", "5-5")) == 0  # the last side: 2 + 4 = 6
    assert state.to_move == "P1"


def test_a_dealt_tile_that_would_have_fitted_when_its_player_drew_is_refused_when_set():
    state, _ = play_open(OPENING[:3] + ["P2 draw 5-4", "P2 5-4 on 5-5", "P1 6-4 on 5-4"], boneyard=None)
    e = refused(state, play("P2", "5-3", "5-5"))
    assert e.rule == R + "turn (must set a tile if able)"
    assert e.message == ("P2 cannot set 5-3: P2 was dealt it (it was never drawn), and it would have fitted when "
                         "P2 drew 5-4 (open numbers then: 2, 5); a player may not draw while able to set a tile")
    assert "open numbers then: 2, 5" in refused(state, play("P2", "6-2", "6-4")).message
    # A tile with neither a 2 nor a 5 could not have been set then: accepted (the deal will tell).
    assert state.apply(play("P2", "6-0", "6-4")) == 0


def test_a_known_tile_that_fits_forbids_a_pass_or_a_draw():
    state, _ = play_open(OPENING[:3] + ["P2 draw 6-3", "P2 draw 5-4", "P2 5-4 on 5-5", "P1 6-4 on 5-4"],
                         boneyard=None)
    assert state.holdings()["P2"] == [tile("6-3")]
    e = refused(state, Pass(seat="P2"))
    assert e.rule == R + "turn (must set a tile if able)" and e.message.endswith("6-3 fits on 6-4")
    assert refused(state, Draw(seat="P2", draw="6-0")).rule == R + "turn (must set a tile if able)"


def test_draws_follow_the_boneyard_order_or_name_a_tile_nobody_has_seen():
    state, _ = play_open(OPENING[:7])
    e = refused(state, Draw(seat="P1", draw="6-3"))
    assert e.rule == R + "the boneyard (draw order)" and "has 5-4 as draw number 1" in e.message
    state, _ = play_open(OPENING[:7], boneyard=None)
    assert refused(state, Draw(seat="P1", draw=True)).rule == R + "the boneyard (draw order)"
    assert refused(state, Draw(seat="P1", draw="5-3")).message == \
        "5-3 cannot be drawn: it was dealt to P2, so it is not in the boneyard"
    state.apply(Draw(seat="P1", draw="6-5"))  # fits on 5-5's open end: set at once
    state.apply(play("P1", "6-5", "5-5"))
    assert refused(state, Draw(seat="P2", draw="6-5")).message == "6-5 cannot be drawn: it was already drawn by P1"
    # 4-4 is P2's, but nobody has seen it: drawing it is accepted until the deal is known.
    assert state.apply(Draw(seat="P2", draw="4-4")) == 0


def test_a_blocked_hand_ends_when_every_player_has_passed_with_the_boneyard_empty():
    state = open_hand(_match(), boneyard=None)
    assert state.apply(play("P1", "6-6")) == 0  # a double: P1 goes on
    assert refused(state, Pass(seat="P1")).rule == R + "turn (drawing from the boneyard)"
    no_six = [str(t) for t in DOUBLE_SIX if 6 not in (t.high, t.low)][:14]
    for t in no_six:
        state.apply(Draw(seat="P1", draw=t))
    assert state.stock == 0 and state.held_count("P1") == 20 and not state.over
    assert refused(state, Draw(seat="P1", draw="6-5")).rule == R + "turn (drawing from the boneyard)"
    assert refused(state, Pass(seat="P2")).rule == R + "turn (drawing from the boneyard)"
    state.apply(Pass(seat="P1"))
    assert not state.over and state.to_move == "P2"
    state.apply(Pass(seat="P2"))
    assert state.over and state.end == "blocked"
    assert refused(state, Pass(seat="P1")).rule == R + "hand end"


def test_a_block_the_known_deal_sees_at_once_ends_an_open_hand_after_the_closing_passes():
    doc = json.loads((VALID_DIR / "blocked-tied-lowest.json").read_text())
    rec = load_dict(doc)
    hand = rec.hands[0]
    state = ENGINE.start(rec).start_open_hand(public(hand, keep_boneyard=False))
    for move in hand.moves:
        state.apply(move)
    # The known deal sees the block at P1's 6-5, which scored: P1's chain, then everybody, must pass.
    assert not state.over and state.stock == 0 and state.to_move == "P1"
    for seat in ("P1", "P2", "P3"):
        state.apply(Pass(seat=seat))
        assert not state.over
    state.apply(Pass(seat="P4"))
    assert state.over and state.end == "blocked"
    assert [state.held_count(s) for s in rec.seats] == [3, 4, 3, 7]


def test_a_domino_ends_the_open_hand_as_it_ends_the_known_one():
    rec = load_dict(json.loads((VALID_DIR / "chain-of-three.json").read_text()))
    hand = rec.hands[0]
    state = ENGINE.start(rec).start_open_hand(public(hand, keep_boneyard=True))
    points = [state.apply(m) for m in hand.moves]
    assert points == [m.score for m in hand.moves]
    assert state.over and state.end == "out" and state.out_seat == "P4" and state.held_count("P4") == 0
    assert refused(state, Pass(seat="P1")).message == "the hand is already over: P4 dominoed"


def test_the_target_ends_an_open_hand_the_moment_it_is_reached():
    match = _match()
    match.totals["P1"] = 59
    state = open_hand(match)
    assert state.apply(play("P1", "5-5")) == 2
    assert state.over and state.end == "target" and state.target_side == "P1"
    assert refused(state, play("P1", "5-0", "5-5")).rule == R + "game (the target, option win_check)"


def test_with_chain_draw_false_a_chain_keeps_the_turn_until_the_next_seat_moves():
    state = open_hand(_match(options={"chain_draw": False}))
    assert state.apply(play("P1", "5-5")) == 2
    # P1 may go on (P1's tiles are unseen) or the chain may have ended: P1 stays to move.
    assert state.to_move == "P1" and state.chain_may_end
    chain = R + "turn (the chain after a double or a scoring tile)"
    for move in (Pass(seat="P1"), Draw(seat="P1", draw=True)):
        e = refused(state, move)
        assert e.rule == chain and "simply ends the turn" in e.message
    # P2's move says the chain ended: P1 could not go on with a 5.  A refused move by P2 says nothing.
    refused(state, play("P2", "5-5", "5-5"))
    assert state.to_move == "P1" and state.chain_may_end and state.barred["P1"] == 0
    assert state.apply(play("P2", "5-3", "5-5")) == 0
    assert state.to_move == "P1" and not state.chain_may_end
    e = refused(state, play("P1", "5-0", "5-5"))
    assert e.rule == chain and "when P1 let the chain after 5-5 end (open numbers then: 5)" in e.message
    assert state.apply(play("P1", "3-2", "5-3")) == 0
    assert state.to_move == "P2"


def test_with_chain_draw_false_another_seat_than_the_next_is_refused_during_a_chain():
    state = open_hand(_match(("P1", "P2", "P3"), options={"chain_draw": False}), boneyard=None)
    state.apply(play("P1", "5-5"))
    e = refused(state, play("P3", "5-3", "5-5"))
    assert e.rule == R + "turn (the chain after a double or a scoring tile)"
    assert e.message == "P1 set a double (5-5) and goes on if able; if not, the turn passes to P2, not to P3"


# --- starting an open hand ----------------------------------------------------------------------------

def test_an_open_hand_gives_nobodys_tiles_and_at_most_a_whole_boneyard():
    match = _match()
    with pytest.raises(DealError) as e:
        match.start_open_hand(Hand(leader="P1", deal=Deal(hands={"P1": ("6-6",)})))
    assert e.value.rule == R + "the deal" and e.value.where == "/deal/hands"
    for bone, where, rule in ((BONE_A[:-1], "/deal/boneyard", R + "the boneyard (draw order)"),
                              (BONE_A[:-1] + ["7-0"], "/deal/boneyard/13", R + "the boneyard (draw order)"),
                              (BONE_A[:-1] + ["5-4"], "/deal/boneyard/13", R + "the boneyard (draw order)")):
        with pytest.raises(DealError) as e:
            open_hand(_match(), boneyard=bone)
        assert e.value.rule == rule and e.value.where == where
    assert open_hand(_match(), boneyard=BONE_A).stock == 14
    assert open_hand(_match(("P1", "P2", "P3")), boneyard=None).stock == 10
    assert open_hand(_match(("P1", "P2", "P3", "P4")), boneyard=None).stock == 8


# --- score-sheet hands, by hand -------------------------------------------------------------------

def sheet(scores=None, end=None, leader=None) -> Hand:
    return Hand(leader=leader, result=HandResult(scores=scores, end=end))


def sheet_refused(match, hand) -> DealError:
    with pytest.raises(DealError) as e:
        match.score_sheet_hand(hand)
    return e.value


def test_a_score_sheet_hand_adds_its_scores_and_counts_missing_sides_as_zero():
    match = _match()
    outcome = match.score_sheet_hand(sheet({"P1": 7}))
    assert outcome.end == "score-sheet" and outcome.scores == {"P1": 7, "P2": 0}
    assert match.totals == {"P1": 7, "P2": 0} and match.hand_no == 1 and not match.over
    assert match.score_sheet_hand(sheet({"P2": 3}, "blocked")).end == "blocked"
    assert match.totals == {"P1": 7, "P2": 3} and match.hand_no == 2


def test_a_score_sheet_hand_can_end_the_game_and_a_tie_past_the_target_plays_on():
    match = _match()
    match.score_sheet_hand(sheet({"P1": 61, "P2": 61}, "out"))
    assert not match.over
    match.score_sheet_hand(sheet({"P2": 1}, "target"))
    assert match.over and match.winner == "P2"
    match = _match(options={"win_check": "end_of_hand"})
    match.score_sheet_hand(sheet({"P1": 70, "P2": 12}))
    assert match.over and match.winner == "P1"


def test_a_score_sheet_names_only_the_games_sides():
    e = sheet_refused(_match(), sheet({"P3": 2}))
    assert e.rule == R + "two, three or four players" and e.where == "/result/scores/P3"
    e = sheet_refused(_match(("N", "E", "S", "W"), options={"partnerships": True}), sheet({"N": 2}))
    assert e.rule == R + "partnerships (option partnerships)" and e.where == "/result/scores/N"
    assert "not a side of this game (the sides are NS and EW)" in e.message


def test_standard_hand_scores_are_never_negative_and_celko_ones_are_multiples_of_five():
    e = sheet_refused(_match(), sheet({"P1": 3, "P2": -1}))
    assert e.rule == R + "hand end" and e.where == "/result/scores/P2"
    e = sheet_refused(_match(variant="celko"), sheet({"P1": 12}))
    assert e.rule == R + "hand end" and e.where == "/result/scores/P1"
    match = _match(variant="celko")
    match.score_sheet_hand(sheet({"P1": -35, "P2": 15}, "blocked"))
    assert match.totals == {"P1": -35, "P2": 15}


def test_a_celko_domino_leaves_someone_with_nothing_to_subtract():
    e = sheet_refused(_match(variant="celko"), sheet({"P1": -5, "P2": -10}, "out"))
    assert e.rule == R + "hand end" and e.where == "/result/scores"
    # In partnerships the side that dominoed still subtracts the partner's pips.
    match = _match(("N", "E", "S", "W"), options={"partnerships": True}, variant="celko")
    match.score_sheet_hand(sheet({"NS": -5, "EW": -10}, "out"))


def test_a_hand_ends_out_blocked_or_at_the_target_and_only_where_the_rules_allow():
    for end in ("sudden-death", "abandoned"):
        e = sheet_refused(_match(), sheet({"P1": 2}, end))
        assert e.rule == R + "hand end" and e.where == "/result/end"
    e = sheet_refused(_match(options={"win_check": "end_of_hand"}), sheet({"P1": 61}, "target"))
    assert e.rule == R + "game (the target, option win_check)" and e.where == "/result/end"
    e = sheet_refused(_match(), sheet({"P1": 60}, "target"))
    assert e.rule == R + "game (the target, option win_check)" and "short of 61" in e.message
    match = _match()
    match.score_sheet_hand(sheet({"P1": 55, "P2": 55}))
    e = sheet_refused(match, sheet({"P1": 10, "P2": 10}, "target"))
    assert "level on 65" in e.message
    e = sheet_refused(_match(variant="celko"), sheet({"P1": 200, "P2": -5}, "target"))
    assert e.rule == R + "game (the target, option win_check)" and e.where == "/result/scores/P2"


def test_a_celko_total_past_the_target_after_a_hand_means_the_hand_ended_there():
    e = sheet_refused(_match(variant="celko"), sheet({"P1": 200, "P2": -10}, "out"))
    assert e.rule == R + "game (the target, option win_check)" and e.where == "/result/end"
    match = _match(variant="celko")
    assert match.score_sheet_hand(sheet({"P1": 200, "P2": 5})).end == "score-sheet"
    assert match.over and match.winner == "P1"
    # Under end_of_hand the hand is played out: no such inference.
    match = _match(variant="celko", options={"win_check": "end_of_hand"})
    match.score_sheet_hand(sheet({"P1": 200, "P2": -10}, "out"))
    assert match.over and match.winner == "P1"


def test_a_score_sheet_leader_is_checked_where_the_hands_before_fix_it():
    e = sheet_refused(_match(), sheet({"P1": 2}, leader="P7"))
    assert e.rule == "seats" and e.where == "/leader"
    rec = load_dict(json.loads((VALID_DIR / "chain-of-three.json").read_text()))  # P4 dominoes
    match = ENGINE.start(rec)
    state = match.start_hand(rec.hands[0])
    for move in rec.hands[0].moves:
        state.apply(move)
    match.finish_hand(state)
    e = sheet_refused(match, sheet({"P1": 2}, leader="P1"))
    assert e.rule == R + "lead" and e.where == "/leader"
    match.score_sheet_hand(sheet({"P1": 2}, "out", leader="P4"))
    # Who dominoed the sheet's hand is not known: the next hand's record names its leader, unchecked.
    state = match.start_open_hand(Hand(leader="P2"))
    assert state.to_move == "P2"
    assert refused(state, play("P3", "6-6")).message == (
        "P3 cannot lead this hand: the record names P2 as this hand's leader (the hand before was recorded "
        "by its scores alone)")


# --- simulated games: every option set and player count ----------------------------------------

def _configs() -> list[tuple[int, dict, str | None]]:
    out = []
    for variant in (None, "celko"):
        for players, partners in ((2, False), (3, False), (4, False), (4, True)):
            partner_counts = (False, True) if partners and variant is None else (False,)
            for cp, chain_draw, win_check in itertools.product(partner_counts, (True, False),
                                                               ("immediate", "end_of_hand")):
                options: dict = {"chain_draw": chain_draw, "win_check": win_check}
                if partners:
                    options["partnerships"] = True
                if cp:
                    options["count_partner"] = True
                out.append((players, options, variant))
    return out


CONFIGS = _configs()


def _game(seed: int, config: int, target: int | None = None):
    players, options, variant = CONFIGS[config]
    if target is not None:
        options = {**options, "target": target}
    template = simulate.make_record("horse-race", players, options, variant)
    return simulate.play_game(template, random.Random(seed))


def public(hand: Hand, keep_boneyard: bool) -> Hand:
    """The hand as an open hand gets it: the leader and, if kept, the boneyard order; no moves."""
    deal = Deal(hands={}, boneyard=hand.deal.boneyard) if keep_boneyard else None
    return Hand(leader=hand.leader, deal=deal)


def _same_turn(known, opened) -> None:
    if opened.chain_may_end:
        # chain_draw false: the open hand keeps the turn on the chain's player, who may go on or not.
        assert known.to_move in (opened.to_move, known._next[opened.to_move])
        assert opened.chain is not None
    else:
        assert opened.to_move == known.to_move
    for seat in known.seats:
        assert opened.held_count(seat) == known.held_count(seat) == len(known.holdings()[seat])


def open_replay(rec, keep_boneyard: bool = True) -> Counter:
    """Replay every hand of ``rec`` in open mode beside the known deal; count the cases it met."""
    match = ENGINE.start(rec)
    n = len(rec.seats)
    seen: Counter = Counter()
    for hand in rec.hands:
        opened = copy.deepcopy(match).start_open_hand(public(hand, keep_boneyard))
        known = match.start_hand(hand)
        assert opened.open and not known.open
        for move in hand.moves:
            _same_turn(known, opened)
            if opened.chain_may_end:
                seen["chain went on" if move.seat == opened.to_move else "chain ended unwritten"] += 1
            assert not opened.over or known.over
            assert opened.apply(move) == known.apply(move)
            assert opened.count == known.count and opened.pegged == known.pegged
            if known.end != "blocked":
                assert (opened.over, opened.end) == (known.over, known.end)
        seen[known.end] += 1
        if known.end == "blocked":
            # The closing passes, written out where the record left them out; the open hand ends with them:
            # after all of them, or, when a chain ended unwritten (chain_draw false), one before the last.
            ended_after = None
            while known.closing < n:
                if not opened.over:
                    _same_turn(known, opened)
                closing = Pass(seat=known.to_move)
                known.apply(closing)
                opened.apply(closing)
                if opened.over and ended_after is None:
                    ended_after = known.closing
            assert opened.over and opened.end == "blocked"
            assert ended_after == n or (ended_after == n - 1 and not rec.rules.options["chain_draw"])
            seen["blocked after a chain ended unwritten"] += ended_after == n - 1
        assert opened.over and known.over
        match.finish_hand(known)
    return seen


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_every_hand_of_simulated_games_replays_in_open_mode(config):
    for seed in range(3):
        rec = _game(seed, config, target=None if seed else 25)
        open_replay(rec, keep_boneyard=seed != 1)


def test_the_replays_meet_every_way_a_hand_ends_and_both_fates_of_a_chain():
    seen: Counter = Counter()
    for config in range(len(CONFIGS)):
        seen += open_replay(_game(1, config), keep_boneyard=False)
    # A celko partnership game (chain_draw false) with a block right after a chain that ended unwritten.
    seen += open_replay(_game(142246, CONFIGS.index(
        (4, {"chain_draw": False, "win_check": "immediate", "partnerships": True}, "celko"))))
    for case in ("out", "blocked", "target", "chain went on", "chain ended unwritten",
                 "blocked after a chain ended unwritten"):
        assert seen[case] > 0, (case, seen)


slow = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1), st.booleans())
def test_open_replay_agrees_with_the_known_deal(seed, config, keep_boneyard):
    open_replay(_game(seed, config), keep_boneyard)


# --- single corruptions ------------------------------------------------------------------------------

def states_at(rec, i: int, j: int, keep_boneyard: bool = True):
    """The known and the open state of hand ``i`` just before its move ``j``."""
    match = ENGINE.start(rec)
    for k, hand in enumerate(rec.hands):
        if k == i:
            opened = copy.deepcopy(match).start_open_hand(public(hand, keep_boneyard))
            known = match.start_hand(hand)
            for move in hand.moves[:j]:
                known.apply(move)
                opened.apply(move)
            return known, opened
        state = match.start_hand(hand)
        for move in hand.moves:
            state.apply(move)
        match.finish_hand(state)
    raise AssertionError("no such hand")


@st.composite
def spot(draw, kinds=(Play, Draw, Pass)):
    rec = _game(draw(st.integers(0, 10 ** 6)), draw(st.integers(0, len(CONFIGS) - 1)))
    spots = [(i, j) for i, h in enumerate(rec.hands) for j, m in enumerate(h.moves) if type(m) in kinds]
    assume(spots)
    i, j = draw(st.sampled_from(spots))
    keep = draw(st.booleans())
    known, opened = states_at(rec, i, j, keep)
    return rec.hands[i].moves[j], known, opened, keep


def outcome(state, move):
    """``("ok", points)`` or ``("illegal", rule)``; the state is spent either way."""
    try:
        return "ok", state.apply(move)
    except IllegalMove as e:
        return "illegal", e.rule


@slow
@given(spot(), st.data())
def test_a_move_by_another_seat_is_refused_with_the_known_rule(sp, data):
    move, known, opened, _ = sp
    seat = data.draw(st.sampled_from([s for s in known.seats if s != move.seat]))
    bad = attrs_evolve(move, seat=seat)
    chain_may_end = opened.chain_may_end
    got, expected = outcome(opened, bad), outcome(known, bad)
    assert expected[0] == "illegal"
    if chain_may_end:
        return  # whether the chain went on depends on the chain player's hidden tiles
    assert got == expected


@slow
@given(spot((Play,)), st.data())
def test_a_tile_on_the_table_or_outside_the_set_is_refused_with_the_known_rule(sp, data):
    move, known, opened, _ = sp
    choices = [str(t) for t in known.nodes] + ["7-2", "9-9"]
    bad = attrs_evolve(move, play=data.draw(st.sampled_from(choices)))
    expected = outcome(known, bad)
    assert expected == ("illegal", R + "turn (setting a tile from hand)")
    assert outcome(opened, bad) == expected


@slow
@given(spot((Play,)), st.data())
def test_any_play_of_a_held_tile_is_judged_as_the_known_deal_judges_it(sp, data):
    # Fitting or not, on any tile of the layout or without "on": the same verdict, rule and points.
    move, known, opened, _ = sp
    held = [str(t) for t in known.holdings()[move.seat]]
    on = data.draw(st.sampled_from([None] + [str(t) for t in known.nodes]))
    bad = Play(seat=move.seat, play=data.draw(st.sampled_from(held)), on=on)
    assert outcome(opened, bad) == outcome(known, bad)


@slow
@given(spot((Draw, Pass)))
def test_a_pass_with_tiles_in_the_boneyard_or_a_draw_from_an_empty_one_is_refused(sp):
    move, known, opened, _ = sp
    bad = Pass(seat=move.seat) if type(move) is Draw else Draw(seat=move.seat, draw=True)
    expected = outcome(known, bad)
    assert expected == ("illegal", R + "turn (drawing from the boneyard)")
    assert outcome(opened, bad) == expected


@slow
@given(spot((Draw,)), st.data())
def test_a_draw_of_a_tile_already_seen_is_refused_and_of_a_hidden_tile_accepted(sp, data):
    move, known, opened, keep = sp
    assume(not keep)  # with the order given, every draw is the order's next tile
    shown = [str(t) for t in list(known.nodes) + list(known.drawn_by)]
    hidden = [str(t) for s in known.seats for t in known.holdings()[s] if t not in known.drawn_by]
    if hidden and data.draw(st.booleans()):
        bad = Draw(seat=move.seat, draw=data.draw(st.sampled_from(hidden)))
        assert outcome(known, bad) == ("illegal", R + "the boneyard (draw order)")
        assert outcome(opened, bad) == ("ok", 0)  # dealt to somebody, but nobody has shown it
    else:
        assume(shown)
        bad = Draw(seat=move.seat, draw=data.draw(st.sampled_from(shown)))
        expected = outcome(known, bad)
        assert expected == ("illegal", R + "the boneyard (draw order)")
        assert outcome(opened, bad) == expected


@slow
@given(spot((Play,)))
def test_a_pass_or_draw_refused_only_because_of_a_hidden_tile_is_accepted(sp):
    move, known, opened, keep = sp
    t = tile(move.play)
    assume(known.lead is not None and known.drawn is None)
    assume(t not in known.drawn_by)  # a dealt tile: nobody has seen it
    assume(opened._fit(move.seat) is None)  # no tile known to be in the mover's hand fits
    if known.stock:
        draw_ = True if keep else str(known.order[known.drawn_count])  # the boneyard's next tile
        bad = Draw(seat=move.seat, draw=draw_)
    else:
        bad = Pass(seat=move.seat)
    expected = outcome(known, bad)
    assert expected[0] == "illegal" and expected[1] in (R + "turn (must set a tile if able)",
                                                        R + "turn (the chain after a double or a scoring tile)")
    if opened.chain_may_end and move.seat == opened.to_move:
        # chain_draw false: a chain's player who cannot go on writes nothing, so neither is accepted.
        assert outcome(opened, bad) == ("illegal", R + "turn (the chain after a double or a scoring tile)")
    else:
        assert outcome(opened, bad) == ("ok", 0)


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1), st.sampled_from([Play, Draw, Pass]))
def test_a_move_after_the_hand_ended_is_refused_as_the_known_deal_does(seed, config, kind):
    rec = _game(seed, config)
    i = len(rec.hands) - 1
    hand = rec.hands[i]
    known, opened = states_at(rec, i, len(hand.moves))
    assume(known.end in ("out", "target"))
    seat = rec.seats[0]
    bad = {Play: Play(seat=seat, play="6-6"), Draw: Draw(seat=seat, draw=True), Pass: Pass(seat=seat)}[kind]
    expected = outcome(known, bad)
    assert expected[0] == "illegal" and outcome(opened, bad) == expected


def attrs_evolve(move, **changes):
    import attrs
    return attrs.evolve(move, **changes)


# --- score-sheet hands -------------------------------------------------------------------------

def known_progress(rec):
    """(totals, over, winner) after each hand, and each hand's outcome, by the full replay."""
    match = ENGINE.start(rec)
    progress, outcomes = [], []
    for hand in rec.hands:
        state = match.start_hand(hand)
        for move in hand.moves:
            state.apply(move)
        outcomes.append(match.finish_hand(state))
        progress.append((dict(match.totals), match.over, match.winner))
    return progress, outcomes


def sheet_progress(rec, sheets: set[int], outcomes, with_end: bool = True):
    match = ENGINE.start(rec)
    progress = []
    for k, hand in enumerate(rec.hands):
        if k in sheets:
            o = outcomes[k]
            sheet = Hand(leader=hand.leader,
                         result=HandResult(scores=dict(o.scores), end=o.end if with_end else None))
            assert sheet.score_sheet
            got = match.score_sheet_hand(sheet)
            assert got.scores == o.scores and got.end == (o.end if with_end else "score-sheet")
        else:
            state = match.start_hand(hand)
            for move in hand.moves:
                state.apply(move)
            match.finish_hand(state)
        progress.append((dict(match.totals), match.over, match.winner))
    return progress


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1), st.data())
def test_score_sheet_hands_give_the_same_totals_and_winner(seed, config, data):
    rec = _game(seed, config, target=data.draw(st.sampled_from([None, 20])))
    progress, outcomes = known_progress(rec)
    n = len(rec.hands)
    every = set(range(n))
    some = set(data.draw(st.lists(st.integers(0, n - 1), max_size=n)))
    with_end = data.draw(st.booleans())
    assert sheet_progress(rec, every, outcomes, with_end) == progress
    assert sheet_progress(rec, some, outcomes, with_end) == progress


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_score_sheet_games_in_every_configuration(config):
    rec = _game(7, config, target=30)
    progress, outcomes = known_progress(rec)
    n = len(rec.hands)
    assert sheet_progress(rec, set(range(n)), outcomes) == progress
    assert sheet_progress(rec, set(range(0, n, 2)), outcomes, with_end=False) == progress
