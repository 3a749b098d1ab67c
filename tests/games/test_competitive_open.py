"""Competitive dominoes, format 1.1: hands whose deal is not known (open hands) and score-sheet hands.

An open hand is checked move by move as far as the tiles already shown allow;
the same hand replayed with its deal (``start_hand``) is the reference: every
move it accepts, the open hand accepts with the same points and the same turn
order, and every refusal that needs no hidden tile is the same refusal.
"""

from __future__ import annotations

import copy
import random

import attrs
import pytest

from domrec.errors import HiddenTiles
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from domrec.errors import DealError, RuleViolation
from domrec.games import base, competitive
from domrec.games.competitive import (BLOCK_MAX, BLOCK_MIN, DOMINO_MAX, DOMINO_MIN, R_END, R_FIRST_LEAD,
                                      R_FIRST_LEADER, R_FORCED, R_HOLD, R_LEADER, R_MATCH, R_ORDER,
                                      R_REDEAL, SET_PIPS)
from domrec.record import Deal, Draw, Hand, HandResult, Pass, Play, Player, Record, Rules
from domrec.tiles import DOUBLE_SIX, tile
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.sampled_from(["any", "double-six"])
SEATS = base.PARTNERSHIP_SEATS


def _game(seed: int, first_lead: str = "any") -> Record:
    options = {"first_lead": first_lead} if first_lead != "any" else None
    return next(made_once.simulate("competitive", 1, seed, options=options))


def _record(first_lead: str = "any", hands: tuple[Hand, ...] = ()) -> Record:
    rules = Rules(options={"first_lead": first_lead}) if first_lead != "any" else None
    return Record(game="competitive", rules=rules, hands=hands,
                  players=tuple(Player(seat=s, name=s) for s in SEATS))


def _public(hand: Hand, leader: str | None = "keep") -> Hand:
    """The hand as typed at the table: its leader and the lead draw, no tiles, no moves."""
    deal = hand.deal
    public = Deal(hands={}, lead_draw=deal.lead_draw) if deal is not None and deal.lead_draw else None
    return Hand(leader=hand.leader if leader == "keep" else leader, deal=public)


def _matches_at(rec: Record, i: int):
    """Two matches at the start of hand ``i``: one for the known replay, one for the open hand."""
    match = competitive.ENGINE.start(rec)
    for h in rec.hands[:i]:
        state = match.start_hand(h)
        for m in h.moves:
            state.apply(m)
        match.finish_hand(state)
    return match, copy.deepcopy(match)


def _both(rec: Record, i: int, leader: str | None = "keep"):
    known_match, open_match = _matches_at(rec, i)
    hand = rec.hands[i]
    return (known_match, known_match.start_hand(hand),
            open_match, open_match.start_open_hand(_public(hand, leader)))


def _refusal(state, move):
    with pytest.raises(RuleViolation) as e:
        state.apply(move)
    return e.value


def _closing_passes(moves) -> int:
    """How many passes the record wrote after the hand's last play."""
    n = 0
    for m in reversed(moves):
        if type(m) is not Pass:
            break
        n += 1
    return n


# --- the known-deal replay, move for move ---------------------------------------------------

def _replay_both(rec: Record, i: int, leader: str | None = "keep") -> None:
    known_match, known, open_match, opened = _both(rec, i, leader)
    hand = rec.hands[i]
    assert opened.open is True and known.open is False
    for j, move in enumerate(hand.moves):
        if opened.to_move is None:
            # A free leader (or the unseen holder of 6-6): the first move's seat leads.
            assert j == 0
        else:
            assert opened.to_move == known.to_move, (i, j)
        for seat in SEATS:
            assert opened.held_count(seat) == known.held_count(seat) == len(known.holdings()[seat])
        assert not opened.over
        assert opened.apply(move) == known.apply(move) == 0
        assert opened.render() == known.render()
        if not known.over:
            assert not opened.over
    assert known.over
    assert open_match.last_leader == known_match.last_leader
    assert open_match.hand_no == known_match.hand_no
    if known.end == "out":
        assert opened.over and opened.end == "out" and opened.to_move is None
        # A domino's score needs no deal: every tile off the line is in the other three hands.
        assert opened.outcome().scores == known.outcome().scores
        return
    # A block: the open hand ends only with the four closing passes, written by the test where left out.
    assert known.end == "blocked"
    written = _closing_passes(hand.moves)
    for k in range(written, 4):
        assert not opened.over
        assert opened.to_move == known.to_move
        p = Pass(seat=opened.to_move)
        assert opened.apply(p) == known.apply(p) == 0
    assert opened.over and opened.end == "blocked"
    with pytest.raises(HiddenTiles):
        opened.outcome()
    late = Pass(seat=opened.to_move)
    assert _refusal(opened, late).rule == _refusal(known, late).rule == R_END


@PROPS
@given(st.integers(0, 10 ** 6), OPTIONS)
def test_every_simulated_hand_replays_in_open_mode(seed, first_lead):
    rec = _game(seed, first_lead)
    for i in range(len(rec.hands)):
        _replay_both(rec, i)


@PROPS
@given(st.integers(0, 10 ** 6), OPTIONS)
def test_the_first_hand_without_a_leader_takes_the_first_movers_seat(seed, first_lead):
    rec = _game(seed, first_lead)
    first = rec.hands[0]
    # Without its lead draw and its leader the first hand's leader is free (or the unseen holder of 6-6).
    bare = attrs.evolve(first, deal=attrs.evolve(first.deal, lead_draw=None))
    rec = attrs.evolve(rec, hands=(bare,) + rec.hands[1:])
    _, _, open_match, opened = _both(rec, 0, leader=None)
    assert opened.to_move is None and open_match.last_leader is None
    lead = first.moves[0]
    opened.apply(lead)
    assert open_match.last_leader == lead.seat
    assert opened.to_move == base.seat_after(SEATS, lead.seat, -1)
    _replay_both(rec, 0, leader=None)


@PROPS
@given(st.integers(0, 10 ** 6), OPTIONS)
def test_a_game_of_open_hands_written_with_their_closing_passes(seed, first_lead):
    """Hands typed with every closing pass replay the same, known or open."""
    rec = _game(seed, first_lead)
    hands = []
    match = competitive.ENGINE.start(rec)
    for h in rec.hands:
        state = match.start_hand(h)
        for m in h.moves:
            state.apply(m)
        moves = list(h.moves)
        if state.end == "blocked":
            # every closing pass not written yet (the simulator writes them now and then itself)
            for p in state.closing_passes():
                state.apply(p)
                moves.append(p)
            assert len(moves) >= 4 and all(type(m) is Pass for m in moves[-4:])
        match.finish_hand(state)
        hands.append(attrs.evolve(h, moves=tuple(moves)))
    rec = attrs.evolve(rec, hands=tuple(hands))
    for i in range(len(rec.hands)):
        _replay_both(rec, i)


# --- single corruptions: the same refusal, or accepted where only hidden tiles could refuse ---------

@st.composite
def game_hand_play(draw, first_lead=OPTIONS):
    rec = _game(draw(st.integers(0, 10 ** 6)), draw(first_lead))
    i = draw(st.integers(0, len(rec.hands) - 1))
    plays = [j for j, m in enumerate(rec.hands[i].moves) if type(m) is Play]
    j = draw(st.sampled_from(plays))
    return rec, i, j


def _states_before(rec: Record, i: int, j: int):
    _, known, _, opened = _both(rec, i)
    for m in rec.hands[i].moves[:j]:
        known.apply(m)
        opened.apply(m)
    return known, opened


def _same_refusal(known, opened, move, rule=None):
    a, b = _refusal(known, move), _refusal(opened, move)
    assert (a.rule, a.message) == (b.rule, b.message)
    if rule is not None:
        assert b.rule == rule
    return b


def _snapshot(opened):
    """What a refused move must leave as it was."""
    return (opened.to_move, opened.over, opened.left, opened.right, opened.passes, dict(opened.counts),
            set(opened.played))


@PROPS
@given(game_hand_play(), st.data())
def test_a_tile_already_played_is_refused_the_same(ghp, data):
    rec, i, j = ghp
    known, opened = _states_before(rec, i, j)
    assume(opened.played)
    move = rec.hands[i].moves[j]
    t = data.draw(st.sampled_from(sorted(opened.played, key=str)))
    before = _snapshot(opened)
    err = _same_refusal(known, opened, attrs.evolve(move, play=str(t)), R_HOLD)
    assert "already been played" in err.message
    assert _snapshot(opened) == before  # a refused move changes nothing


@PROPS
@given(game_hand_play(), st.sampled_from(["7-1", "9-9", "6-10"]))
def test_a_tile_not_of_the_set_is_refused_the_same(ghp, text):
    rec, i, j = ghp
    known, opened = _states_before(rec, i, j)
    err = _same_refusal(known, opened, attrs.evolve(rec.hands[i].moves[j], play=text), R_HOLD)
    assert "double-six" in err.message


@PROPS
@given(game_hand_play(), st.data())
def test_a_move_out_of_turn_is_refused_the_same(ghp, data):
    rec, i, j = ghp
    known, opened = _states_before(rec, i, j)
    move = rec.hands[i].moves[j]
    seat = data.draw(st.sampled_from([s for s in SEATS if s != move.seat] + ["X"]))
    before = _snapshot(opened)
    wrong = attrs.evolve(move, seat=seat)
    rule = R_ORDER if j or seat == "X" else (R_FIRST_LEADER if i == 0 else R_LEADER)
    if (i, j) == (0, 0) and opened.must_lead is not None and seat != "X":
        # Under first_lead: double-six the known replay names the holder of 6-6; the open hand cannot.
        err = _refusal(opened, wrong)
        assert _refusal(known, wrong).rule == err.rule
        assert f"the record names {move.seat} as this hand's leader (the holder of 6-6" in err.message
    else:
        err = _same_refusal(known, opened, wrong)
    assert err.rule == rule
    assert _snapshot(opened) == before  # a refused move changes nothing


@PROPS
@given(game_hand_play(), st.data())
def test_a_play_on_a_wrong_end_is_refused_the_same(ghp, data):
    rec, i, j = ghp
    assume(j > 0)
    known, opened = _states_before(rec, i, j)
    move = rec.hands[i].moves[j]
    played = tile(move.play)
    wrong = [str(t) for t in DOUBLE_SIX
             if not any(end[0] is t and played.has(end[1]) for end in (opened.left, opened.right))]
    before = _snapshot(opened)
    _same_refusal(known, opened, attrs.evolve(move, on=data.draw(st.sampled_from(wrong))), R_MATCH)
    assert _snapshot(opened) == before  # a refused move changes nothing


@PROPS
@given(game_hand_play(), st.data())
def test_a_held_tile_that_fits_neither_end_is_refused_the_same(ghp, data):
    rec, i, j = ghp
    assume(j > 0)
    known, opened = _states_before(rec, i, j)
    move = rec.hands[i].moves[j]
    ends = {opened.left[1], opened.right[1]}
    misfits = [t for t in known.hands[move.seat] if not (t.high in ends or t.low in ends)]
    assume(misfits)
    t = data.draw(st.sampled_from(sorted(misfits, key=str)))
    err = _same_refusal(known, opened, Play(seat=move.seat, play=str(t)), R_MATCH)
    assert "fits neither end" in err.message


@PROPS
@given(game_hand_play())
def test_a_pass_refused_only_for_hidden_tiles_is_accepted_when_open(ghp):
    rec, i, j = ghp
    known, opened = _states_before(rec, i, j)
    move = rec.hands[i].moves[j]
    passing = Pass(seat=move.seat)
    if j == 0:  # the leader cannot pass, whatever the tiles
        _same_refusal(known, opened, passing, R_FORCED)
        return
    assert _refusal(known, passing).rule == "competitive: must play if able"
    held = opened.held_count(move.seat)
    before = opened.passes
    assert opened.apply(passing) == 0
    assert opened.held_count(move.seat) == held
    # A fourth pass in a row is a block in an open hand (the written passes make it).
    assert opened.over == (before + 1 >= 4)
    if not opened.over:
        assert opened.to_move == base.seat_after(SEATS, move.seat, -1)


@PROPS
@given(game_hand_play(first_lead=st.just("any")))
def test_a_tile_held_by_another_seat_is_accepted_when_open(ghp):
    rec, i, j = ghp
    known, opened = _states_before(rec, i, j)
    move = rec.hands[i].moves[j]
    others = sorted((t for s in SEATS if s != move.seat for t in known.hands[s]), key=str)
    on = None
    if j:
        others = [t for t in others if t.has(opened.left[1]) or t.has(opened.right[1])]
        assume(others)
    t = others[0]
    if j:
        on = str(opened.left[0] if t.has(opened.left[1]) else opened.right[0])
    wrong = Play(seat=move.seat, play=str(t), on=on)
    assert "hand" in _refusal(known, wrong).message and _refusal(known, wrong).rule == R_HOLD
    assert opened.apply(wrong) == 0
    assert t in opened.played


@PROPS
@given(st.integers(0, 10 ** 6), OPTIONS)
def test_a_move_after_a_domino_is_refused_the_same(seed, first_lead):
    rec = _game(seed, first_lead)
    outs = [i for i, h in enumerate(rec.hands) if h.result.end == "out"]
    assume(outs)
    i = outs[0]
    known, opened = _states_before(rec, i, len(rec.hands[i].moves))
    assert known.over and opened.over
    for seat in SEATS:
        assert opened.held_count(seat) == known.held_count(seat)
    assert opened.held_count(known.out_seat) == 0
    err = _same_refusal(known, opened, Pass(seat=base.seat_after(SEATS, known.out_seat, -1)), R_END)
    assert "went out" in err.message


def test_other_move_kinds_and_a_lead_on_a_tile_are_refused_the_same():
    rec = _game(7)
    known, opened = _states_before(rec, 1, 0)
    seat = known.to_move
    lead = sorted(known.hands[seat], key=str)[0]
    _same_refusal(known, opened, Draw(seat=seat, draw=str(lead)), R_MATCH)
    _same_refusal(known, opened, Play(seat=seat, play=str(lead), on="6-6"), R_MATCH)
    _same_refusal(known, opened, Pass(seat=seat), R_FORCED)


# --- open hands: leaders, the public deal, blocks -------------------------------------------

def _open(first_lead: str = "any", leader: str | None = None, deal: Deal | None = None):
    match = competitive.ENGINE.start(_record(first_lead))
    return match, match.start_open_hand(Hand(leader=leader, deal=deal))


def test_first_lead_double_six_open_hand_waits_for_the_six_six():
    match, state = _open("double-six")
    assert state.to_move is None and not state.over
    assert _refusal(state, Play(seat="E", play="6-5")).rule == R_FIRST_LEAD
    assert _refusal(state, Pass(seat="E")).rule == R_FORCED
    assert _refusal(state, Play(seat="Q", play="6-6")).rule == R_ORDER
    assert state.to_move is None and match.last_leader is None
    state.apply(Play(seat="E", play="6-6"))
    assert match.last_leader == "E" and state.to_move == "N"  # to the right of E
    assert state.held_count("E") == 6 and state.held_count("N") == 7


def test_first_lead_double_six_with_a_named_leader():
    match, state = _open("double-six", leader="S")
    assert state.to_move == "S"
    err = _refusal(state, Play(seat="N", play="6-6"))
    assert err.rule == R_FIRST_LEADER and "N cannot lead this hand" in err.message


def test_lead_draw_fixes_the_open_hands_leader():
    draw = {"N": "1-0", "E": "6-5", "S": "2-2", "W": "3-0"}
    match, state = _open(deal=Deal(hands={}, lead_draw=draw))
    assert state.to_move == "E" and match.last_leader == "E"
    err = _refusal(state, Play(seat="N", play="6-6"))
    assert err.rule == R_FIRST_LEADER and "E drew 6-5" in err.message
    match = competitive.ENGINE.start(_record())
    with pytest.raises(DealError) as e:
        match.start_open_hand(Hand(leader="N", deal=Deal(hands={}, lead_draw=draw)))
    assert e.value.where == "/leader" and e.value.rule == R_FIRST_LEADER
    match = competitive.ENGINE.start(_record())
    with pytest.raises(DealError) as e:
        match.start_open_hand(Hand(deal=Deal(hands={}, lead_draw={**draw, "W": "6-5"})))
    assert e.value.where == "/deal/lead_draw/W"


def test_a_lead_draw_only_in_the_first_open_hand():
    rec = _game(3)
    match, _ = _matches_at(rec, 1)
    draw = {"N": "1-0", "E": "6-5", "S": "2-2", "W": "3-0"}
    with pytest.raises(DealError) as e:
        match.start_open_hand(Hand(deal=Deal(hands={}, lead_draw=draw)))
    assert e.value.where == "/deal/lead_draw"


def test_redeals_and_dealt_tiles_cannot_be_given_in_an_open_hand():
    match = competitive.ENGINE.start(_record())
    with pytest.raises(DealError) as e:
        match.start_open_hand(Hand(leader="N", deal=Deal(hands={}, redeals=())))
    assert e.value.rule == R_REDEAL and e.value.where == "/deal/redeals"
    match = competitive.ENGINE.start(_record())
    with pytest.raises(DealError) as e:
        match.start_open_hand(Hand(leader="N", deal=Deal(hands={"N": ("6-6",)})))
    assert e.value.where == "/deal/hands"


def test_later_open_hands_follow_the_rotation_and_name_the_reason():
    rec = _game(11)
    i = 1
    expected = rec.hands[i].leader
    state = _matches_at(rec, i)[1].start_open_hand(Hand())
    assert state.to_move == expected
    wrong = next(s for s in SEATS if s != expected)
    err = _refusal(state, Play(seat=wrong, play="6-6"))
    assert err.rule == R_LEADER and f"{wrong} cannot lead this hand" in err.message
    with pytest.raises(DealError) as e:
        _matches_at(rec, i)[1].start_open_hand(Hand(leader=wrong))
    assert e.value.rule == R_LEADER and e.value.where == "/leader"
    with pytest.raises(DealError) as e:
        _matches_at(rec, i)[1].start_open_hand(Hand(leader="Z"))
    assert e.value.where == "/leader"


def test_a_block_is_four_written_passes_and_a_play_resets_the_count():
    _, state = _open(leader="N")
    state.apply(Play(seat="N", play="3-3"))
    for seat in "WSE":
        state.apply(Pass(seat=seat))
    assert not state.over and state.to_move == "N"
    state.apply(Play(seat="N", play="3-1", on="3-3"))
    for seat in "WSEN":
        assert not state.over
        state.apply(Pass(seat=seat))
    assert state.over and state.end == "blocked" and state.to_move == "W"
    err = _refusal(state, Pass(seat="W"))
    assert err.rule == R_END and "blocked" in err.message
    assert state.holdings() == {s: [] for s in SEATS}
    assert state.render() == ["line: [1-3][3-3]"] or state.render() == ["line: [3-3][3-1]"]


def test_seven_plays_end_the_hand_and_the_domino_scores_the_tiles_off_the_line():
    # N plays seven tiles while the others pass: N dominoes.
    chain = ["0-0", "0-1", "1-1", "1-2", "2-2", "2-3", "3-3"]
    _, state = _open(leader="N")
    for k, t in enumerate(chain):
        state.apply(Play(seat="N", play=t))
        if k < 6:
            for seat in "WSE":
                state.apply(Pass(seat=seat))
    assert state.over and state.end == "out" and state.held_count("N") == 0
    on_line = sum(tile(t).pips for t in chain)
    assert state.outcome().scores == {"NS": SET_PIPS - on_line, "EW": 0}
    assert _refusal(state, Pass(seat="W")).rule == R_END


def test_open_legal_moves_are_accepted():
    rng = random.Random(5)
    _, state = _open(leader="S")
    for _ in range(60):
        if state.over:
            break
        legal = state.legal_moves()
        assert legal
        state.apply(legal[rng.randrange(len(legal))])
    assert sum(state.held_count(s) for s in SEATS) == 28 - len(state.played)


def test_tile_set_and_whole_set_deal():
    match = competitive.ENGINE.start(_record())
    tiles = match.tile_set()
    assert len(tiles) == len(set(tiles)) == 28 and set(tiles) == set(DOUBLE_SIX)
    assert match.deals_whole_set is True
    assert sum(t.pips for t in tiles) == SET_PIPS == 168


# --- score-sheet hands ----------------------------------------------------------------

def _sheet(hand: Hand, leader: str | None = "keep") -> Hand:
    return Hand(leader=hand.leader if leader == "keep" else leader,
                result=HandResult(scores=dict(hand.result.scores), end=hand.result.end))


def _play_through(rec: Record, sheet_at, leader_of_sheets="keep"):
    """Replay ``rec`` with the hands for which ``sheet_at(i)`` holds as score-sheet hands."""
    match = competitive.ENGINE.start(rec)
    for i, h in enumerate(rec.hands):
        assert not match.over
        if sheet_at(i):
            out = match.score_sheet_hand(_sheet(h, leader_of_sheets))
            assert out.end == h.result.end and out.scores == h.result.scores
        else:
            state = match.start_hand(h)
            for m in h.moves:
                state.apply(m)
            match.finish_hand(state)
    return match


@PROPS
@given(st.integers(0, 10 ** 6), OPTIONS, st.data())
def test_score_sheet_hands_give_the_same_game(seed, first_lead, data):
    rec = _game(seed, first_lead)
    n = len(rec.hands)
    some = data.draw(st.sets(st.integers(0, n - 1)))
    for chosen in (lambda i: True, lambda i: i in some):
        match = _play_through(rec, chosen)
        assert match.over and match.totals == rec.result.scores and match.winner == rec.result.winner


@PROPS
@given(st.integers(0, 10 ** 6), OPTIONS, st.data())
def test_sheets_without_leaders_leave_the_next_leader_to_the_record(seed, first_lead, data):
    rec = _game(seed, first_lead)
    n = len(rec.hands)
    some = data.draw(st.sets(st.integers(0, n - 1), min_size=1))
    match = _play_through(rec, lambda i: i in some, leader_of_sheets=None)
    assert match.over and match.totals == rec.result.scores and match.winner == rec.result.winner


@PROPS
@given(st.integers(0, 10 ** 6))
def test_every_real_hand_score_lies_within_the_sheet_bounds(seed):
    for h in _game(seed).hands:
        (side, n), = [(s, v) for s, v in h.result.scores.items() if v] or [("NS", 0)]
        if h.result.end == "out":
            assert DOMINO_MIN <= n <= DOMINO_MAX
        elif n:
            assert BLOCK_MIN <= n <= BLOCK_MAX and n % 2 == 0


def _sheet_error(scores=None, end=None, leader=None, match=None):
    match = match or competitive.ENGINE.start(_record())
    with pytest.raises(RuleViolation) as e:
        match.score_sheet_hand(Hand(leader=leader, result=HandResult(scores=scores, end=end)))
    err = e.value
    return err.where if isinstance(err, DealError) else err.pointer, err.rule, err.message


@pytest.mark.parametrize("scores, end, pointer, rule", [
    ({"NS": 20, "XY": 0}, None, "/result/scores/XY", "sides"),
    ({"N/S": 20}, None, "/result/scores/N~1S", "sides"),
    ({"NS": -4}, None, "/result/scores/NS", R_END),
    ({"NS": 20, "EW": 12}, None, "/result/scores", R_END),
    ({"NS": 20}, "target", "/result/end", R_END),
    ({"NS": 0, "EW": 0}, "out", "/result/end", R_END),
    ({}, "out", "/result/end", R_END),
    ({"EW": 2}, None, "/result/scores/EW", R_END),
    ({"EW": 2}, "out", "/result/scores/EW", R_END),
    ({"EW": 138}, None, "/result/scores/EW", R_END),  # (138 to 153 were taken: the line holds 31 pips at least)
    ({"EW": 138}, "out", "/result/scores/EW", R_END),
    ({"EW": 150}, "blocked", "/result/scores/EW", R_END),
    ({"EW": 128}, "blocked", "/result/scores/EW", R_END),  # (146 was taken: no line of a block holds under 42 pips)
    ({"EW": 4}, "blocked", "/result/scores/EW", R_END),
    ({"EW": 41}, "blocked", "/result/scores/EW", R_END),
])
def test_impossible_sheet_claims_are_refused(scores, end, pointer, rule):
    where, got_rule, message = _sheet_error(scores, end)
    assert (where, got_rule) == (pointer, rule), message


@pytest.mark.parametrize("scores, end", [
    ({"NS": 35, "EW": 0}, "out"), ({"EW": 3}, None), ({"EW": 137}, "out"), ({"NS": 84}, "blocked"),
    ({"NS": 41}, None), ({}, None), ({"NS": 0, "EW": 0}, "blocked"), ({"EW": 6}, "blocked"),
    ({"EW": 126}, "blocked"),
])
def test_possible_sheet_claims_are_accepted(scores, end):
    match = competitive.ENGINE.start(_record())
    out = match.score_sheet_hand(Hand(leader="N", result=HandResult(scores=scores, end=end)))
    full = {"NS": scores.get("NS", 0), "EW": scores.get("EW", 0)}
    assert out.scores == full and out.end == (end or "score-sheet")
    assert match.totals == full and match.hand_no == 1 and not match.over


#: A block at the most a block can score (a simulated hand): its line 0-0 1-0 3-1 3-0 2-0 6-2 6-0 4-0
#: 5-4 5-0 holds 42 pips, the least a block's line can hold, and leaves 126 in the four hands.
BLOCK_AT_MOST = {
    "leader": "N",
    "deal": {"hands": {"N": ["3-0", "6-1", "5-4", "5-1", "6-2", "5-5", "3-2"],
                       "E": ["2-2", "4-0", "2-0", "1-1", "4-4", "4-1", "5-3"],
                       "S": ["1-0", "6-0", "6-4", "6-5", "6-3", "4-2", "6-6"],
                       "W": ["3-1", "4-3", "5-0", "2-1", "3-3", "0-0", "5-2"]},
             "lead_draw": {"N": "6-3", "E": "6-0", "S": "1-1", "W": "4-1"}},
    "moves": [{"seat": "N", "play": "3-0"}, {"seat": "W", "play": "3-1", "on": "3-0"},
              {"seat": "S", "play": "1-0", "on": "3-1"}, {"seat": "E", "play": "2-0", "on": "3-0"},
              {"seat": "N", "play": "6-2", "on": "2-0"}, {"seat": "W", "play": "0-0", "on": "1-0"},
              {"seat": "S", "play": "6-0", "on": "6-2"}, {"seat": "E", "play": "4-0", "on": "6-0"},
              {"seat": "N", "play": "5-4", "on": "4-0"}, {"seat": "W", "play": "5-0", "on": "5-4"}],
    "result": {"scores": {"NS": 0, "EW": 126}, "end": "blocked"},
}


def test_the_most_a_block_scores_is_126_and_a_real_hand_scores_it():
    """The sheets' bound is reached by play (so no true claim is refused), and 128, which the bound
    of 147 took, is refused with the reason."""
    import json

    from domrec.validate import validate_text

    record = {"format": "domrec", "version": "1.0", "game": "competitive",
              "players": [{"seat": s, "name": s} for s in "NESW"], "hands": [BLOCK_AT_MOST]}
    report = validate_text(json.dumps(record), "block.json")
    assert report.valid and report.scores == {"NS": 0, "EW": 126}, [p.text() for p in report.problems]
    assert BLOCK_MAX == 126
    where, rule, message = _sheet_error({"EW": 128}, "blocked")
    assert (where, rule) == ("/result/scores/EW", R_END) and "between 5 and 126" in message


#: A domino with 39 pips on the line, the fewest a search of every deal and play found (N leads and
#: goes out; the others pass whenever the ends show 0 at both ends): NS score 168 - 39 = 129.
DOMINO_AT_129 = "N 0-0 W pass S pass E 2-0@0-0 N 2-1@2-0 W pass S 3-1@2-1 E pass N 3-0@3-1 W pass S pass " \
    "E pass N 1-0@3-0 W pass S 4-1@1-0 E pass N 4-0@4-1 W pass S pass E pass N 5-0@0-0 W pass S 5-1@5-0 " \
    "E pass N 6-0@4-0"


def test_a_domino_scores_at_most_137_and_a_real_hand_scores_129():
    """The sheets' domino bound (137, proven: DOMINO_MAX) stands above the highest domino found by
    play (129, so no true claim is refused), and 138, which the bound of 153 took, is refused."""
    import json

    from domrec.validate import validate_text

    words = DOMINO_AT_129.split()
    moves = [{"seat": seat, "pass": True} if what == "pass" else
             {"seat": seat, "play": what.split("@")[0], **({"on": what.split("@")[1]} if "@" in what else {})}
             for seat, what in zip(words[::2], words[1::2])]
    hand = {"leader": "N", "deal": {"hands": {
        "N": ["0-0", "2-1", "3-0", "1-0", "4-0", "5-0", "6-0"], "W": ["3-2", "4-2", "3-3", "4-3", "6-3", "4-4", "6-4"],
        "S": ["3-1", "4-1", "5-1", "1-1", "6-1", "5-3", "5-4"], "E": ["2-0", "2-2", "5-2", "6-2", "5-5", "6-5", "6-6"]}},
        "moves": moves, "result": {"scores": {"NS": 129, "EW": 0}, "end": "out"}}
    record = {"format": "domrec", "version": "1.0", "game": "competitive",
              "players": [{"seat": s, "name": s} for s in "NESW"], "hands": [hand]}
    report = validate_text(json.dumps(record), "domino.json")
    assert report.valid and report.scores == {"NS": 129, "EW": 0}, [p.text() for p in report.problems]
    assert DOMINO_MAX == 137
    where, rule, message = _sheet_error({"NS": 138}, "out")
    assert (where, rule) == ("/result/scores/NS", R_END) and "between 3 and 137" in message


def test_a_refused_sheet_leaves_the_totals_alone():
    match = competitive.ENGINE.start(_record())
    _sheet_error({"NS": 20, "EW": 12}, match=match)
    assert match.totals == {"NS": 0, "EW": 0}


def _after_sheet(leader, scores, first_lead="any"):
    match = competitive.ENGINE.start(_record(first_lead))
    match.score_sheet_hand(Hand(leader=leader, result=HandResult(scores=scores)))
    return match


def test_after_a_sheet_the_lead_passes_to_the_right_or_stays_after_a_tied_block():
    match = _after_sheet("N", {"NS": 30})
    assert match.start_open_hand(Hand()).to_move == "W"
    where, rule, message = _sheet_error({"EW": 10}, leader="S", match=_after_sheet("N", {"NS": 30}))
    assert (where, rule) == ("/leader", R_LEADER) and "to W" in message
    match = _after_sheet("N", {"NS": 0, "EW": 0})  # a tied block: N leads again
    assert match.start_open_hand(Hand()).to_move == "N"
    where, rule, message = _sheet_error({"EW": 10}, leader="W", match=_after_sheet("N", {}))
    assert rule == R_LEADER and "tied block" in message
    # As in start_hand: a leader other than the one due is refused by the leader rule, even a stranger;
    # where no leader is due, a stranger is not a seat.
    where, rule, _ = _sheet_error({"EW": 10}, leader="Q", match=_after_sheet("N", {"NS": 30}))
    assert (where, rule) == ("/leader", R_LEADER)
    where, rule, _ = _sheet_error({"EW": 10}, leader="Q", match=_after_sheet(None, {"NS": 30}))
    assert (where, rule) == ("/leader", "seats")


def test_after_a_sheet_without_a_leader_the_next_hand_names_its_own():
    for first_lead in ("any", "double-six"):
        for leader in SEATS:
            match = _after_sheet(None, {"NS": 30}, first_lead)
            assert match.start_open_hand(Hand(leader=leader)).to_move == leader
        match = _after_sheet(None, {"NS": 30}, first_lead)
        state = match.start_open_hand(Hand())
        assert state.to_move is None
        state.apply(Play(seat="S", play="5-4"))
        assert match.last_leader == "S" and state.to_move == "E"
    # A full hand after it takes the leader its record names, unchecked; the rotation resumes from there.
    rec = _game(21)
    match = _after_sheet(None, {"EW": 12})
    h = attrs.evolve(rec.hands[1], leader="E")
    state = match.start_hand(h)
    assert state.to_move == "E" and match.last_leader == "E"


def test_a_sheet_reaching_200_ends_the_game():
    match = competitive.ENGINE.start(_record())
    match.score_sheet_hand(Hand(leader="N", result=HandResult(scores={"NS": 130})))
    match.score_sheet_hand(Hand(leader="W", result=HandResult(scores={"EW": 120}, end="out")))
    assert not match.over
    out = match.score_sheet_hand(Hand(result=HandResult(scores={"NS": 70}, end="blocked")))
    assert out.scores == {"NS": 70, "EW": 0} and out.end == "blocked"
    assert match.over and match.winner == "NS" and match.totals == {"NS": 200, "EW": 120}
    match = competitive.ENGINE.start(_record())
    match.totals = {"NS": 190, "EW": 180}
    match.score_sheet_hand(Hand(result=HandResult(scores={"EW": 10})))
    assert not match.over  # 190 each: nobody has 200
    match.score_sheet_hand(Hand(result=HandResult(scores={"EW": 10})))
    assert match.over and match.winner == "EW"
    match = competitive.ENGINE.start(_record())
    match.totals = {"NS": 200, "EW": 190}
    match.over = False
    match.score_sheet_hand(Hand(result=HandResult(scores={"EW": 10})))
    assert match.over and match.winner is None  # 200 all: a draw


def test_a_close_key_forgets_which_tile_lies_at_an_end_but_not_the_number_it_shows():
    # The DGN reader closes the positions a sheet's readings end at once for each close_key
    # (domrec/notation/position_set.py): with no move to come, no ``on`` can name the tile at
    # an end, so 6-1 set on 4-1 or on 3-1 (both ends showing 1) closes alike, though the two
    # positions differ while moves may follow.
    def played(*moves):
        _, state = _open(leader="N")
        for k, (play, on) in enumerate(moves):
            state.apply(Play(seat=("N", "W", "S", "E")[k], play=play, on=on))
        return state

    on_left = played(("4-3", None), ("3-1", "4-3"), ("4-1", "4-3"), ("6-1", "4-1"))
    on_right = played(("4-3", None), ("3-1", "4-3"), ("4-1", "4-3"), ("6-1", "3-1"))
    assert on_left.position_key() != on_right.position_key()
    assert on_left.close_key() == on_right.close_key()
    # The numbers the ends show stay (the same tiles laid, the ends showing 2 and 2, or 1 and 1):
    # a block the deal finds after the last play needs both ends showing one number.
    twos = played(("3-3", None), ("3-1", "3-3"), ("3-2", "3-3"), ("2-1", "3-1"))
    ones = played(("3-3", None), ("3-1", "3-3"), ("3-2", "3-3"), ("2-1", "3-2"))
    assert twos.close_key() != ones.close_key()
