"""Castle Rock, format 1.1: open hands (the deal not known yet) and score-sheet hands.

An *open* hand is replayed from what lies face up: the starting row, and the
boneyard's draw order when it is written.  It must accept every move the
known-deal replay accepts (same points, same player to move, same tile
counts, over at the same move), and refuse every move the known-deal replay
refuses for a reason the shown tiles already give, naming the same rule.
Only what needs the players' hidden tiles may be let through: a placed tile
nobody has seen, or a named draw of a tile nobody has seen.

A *score-sheet* hand is its scores alone: added to the totals as a replayed
hand's are, and refused where no hand could give them.
"""

from __future__ import annotations

import copy
import random
from functools import lru_cache

import attrs
import pytest

from domrec.errors import HiddenTiles
from hypothesis import HealthCheck, given, settings, strategies as st

from domrec import simulate, tiles as T
from domrec.errors import DealError, IllegalMove
from domrec.games import castlerock as cr
from domrec.record import Capture, Deal, Draw, Hand, HandResult, Pass, Play, Record
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

SETS = ("double-six", "double-nine", "double-twelve")
#: Starting rows: the automatic size, a row of one, and a long row of eight (a short boneyard on double-six).
ROWS = ("auto", 1, 8)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def options(set_name: str, players: int, rows) -> dict:
    size = len(T.SETS[set_name])
    if rows == "all":  # the whole rest of the set in the row: no boneyard at all
        return {"set": set_name, "start_tiles": size - 2 * players}
    return {"set": set_name, "start_tiles": rows}


@lru_cache(maxsize=None)
def sim(seed: int, players: int, set_name: str = "double-six", rows="auto") -> Record:
    (rec,) = made_once.simulate("castle-rock", 1, seed, players, options(set_name, players, rows))
    return rec


def public(hand: Hand, leader: bool = True) -> Hand:
    """What an open hand is given: the leader, the starting row and (if the record has it) the boneyard."""
    deal = hand.deal
    return Hand(leader=hand.leader if leader else None,
                deal=Deal(hands={}, row=deal.row, boneyard=deal.boneyard))


def without_boneyard(hand: Hand) -> Hand:
    """The same hand with no boneyard order in the deal: every draw names its tile."""
    deal = hand.deal
    if deal.boneyard is None:
        return hand
    order = iter(deal.boneyard)
    moves = tuple(attrs.evolve(m, draw=next(order)) if type(m) is Draw else m for m in hand.moves)
    return attrs.evolve(hand, deal=attrs.evolve(deal, boneyard=None), moves=moves)


def hands_of(rec: Record, boneyard: bool) -> list[Hand]:
    return list(rec.hands) if boneyard else [without_boneyard(h) for h in rec.hands]


def play_out(state, moves) -> list[int]:
    return [state.apply(m) for m in moves]


def check_open_matches_known(rec: Record, boneyard: bool, leader_first: bool = True) -> int:
    """Replay every hand of ``rec`` both ways; return how many moves were compared."""
    match = cr.ENGINE.start(rec)
    compared = 0
    for i, hand in enumerate(hands_of(rec, boneyard)):
        opened = copy.deepcopy(match)  # the earlier hands replayed with start_hand/finish_hand
        known = match.start_hand(hand)
        given_leader = leader_first or i > 0
        op = opened.start_open_hand(public(hand, leader=given_leader))
        assert op.open is True and known.open is False
        assert opened.hand_no == match.hand_no
        if not given_leader:
            assert op.to_move is None and op.leader is None
        for j, move in enumerate(hand.moves):
            if op.to_move is not None or j > 0:
                assert op.to_move == known.to_move, (i, j)
            for seat in rec.seats:
                assert op.held_count(seat) == known.held_count(seat) == len(known.hands[seat]), (i, j, seat)
                assert set(op.holdings()[seat]) <= set(known.holdings()[seat])
            assert op.over == known.over  # over before a move only for closing captures
            assert op.apply(move) == known.apply(move), (i, j, move)
            assert op.over == known.over, (i, j)
            compared += 1
        assert op.over and known.over
        assert all(op.held_count(s) == 0 for s in rec.seats)
        assert op.outcome().scores == known.outcome().scores
        assert op.leader == known.leader and op.dealer == known.dealer
        assert opened.last_leader == match.last_leader
        match.finish_hand(known)
    assert match.over
    return compared


# --- every simulated hand, replayed open --------------------------------------------------


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize("set_name", SETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_simulated_hand_replays_open_as_it_does_known(players, set_name, rows):
    rec = sim(1, players, set_name, rows)
    for boneyard in (True, False):
        assert check_open_matches_known(rec, boneyard) > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_without_any_boneyard_open_hands_replay_as_known(players):
    # The whole rest of the set in the starting row: nothing is drawn, hands run down from two.
    rec = sim(0, players, "double-six", "all")
    assert all(not h.deal.boneyard for h in rec.hands)
    assert check_open_matches_known(rec, True) > 0


@FAST
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 6), set_name=st.sampled_from(SETS),
       rows=st.sampled_from(ROWS), boneyard=st.booleans(), leader_first=st.booleans())
def test_simulated_games_replay_open(seed, players, set_name, rows, boneyard, leader_first):
    (rec,) = made_once.simulate("castle-rock", 1, seed, players, options(set_name, players, rows))
    check_open_matches_known(rec, boneyard, leader_first)


def test_hand_one_without_a_leader_is_led_by_the_first_moves_seat():
    rec = sim(2, 4)
    hand = rec.hands[0]
    match = cr.ENGINE.start(rec)
    op = match.start_open_hand(public(hand, leader=False))
    assert op.to_move is None and not op.over and match.last_leader is None
    # A capture or a draw cannot open the hand; the refusal leaves nobody leading.
    with pytest.raises(IllegalMove) as e:
        op.apply(Capture(seat="P3", capture=(hand.deal.row[1],)))
    assert e.value.rule == cr.R_TURN and op.to_move is None and op.leader is None
    with pytest.raises(IllegalMove) as e:
        op.apply(Play(seat="P9", play=hand.moves[0].play))
    assert e.value.rule == cr.R_ORDER and op.to_move is None
    first = attrs.evolve(hand.moves[0], seat="P3")
    op.apply(first)
    assert op.leader == "P3" and op.dealer == "P2" and op.to_move == "P3" and match.last_leader == "P3"
    # The next hand's first player is the seat after, as after a known hand.
    nxt = Hand(leader="P1", deal=Deal(hands={}, row=rec.hands[1].deal.row))
    with pytest.raises(DealError) as e:
        match.start_open_hand(nxt)
    assert e.value.rule == cr.R_FIRST and e.value.where == "/leader" and "so P4" in e.value.message


# --- single corruptions ----------------------------------------------------------------------


KINDS = ("seat", "shown", "unshown", "any", "foreign", "delete", "duplicate", "pass", "after")
FOREIGN = {"double-six": "7-0", "double-nine": "10-0", "double-twelve": "13-0"}


def shown_before(hand: Hand, upto: int) -> set:
    """Every tile face up or named before move ``upto``: the row, a written boneyard, every tile a move names."""
    seen = {T.tile(t) for t in hand.deal.row}
    seen.update(T.tile(t) for t in hand.deal.boneyard or ())
    for m in hand.moves[:upto]:
        if type(m) is Play:
            seen.add(T.tile(m.play))
        elif type(m) is Capture:
            seen.update(T.tile(t) for t in m.capture)
        elif type(m) is Draw and m.draw is not True:
            seen.add(T.tile(m.draw))
    return seen


@st.composite
def corruption(draw):
    players = draw(st.integers(2, 6))
    set_name = draw(st.sampled_from(SETS))
    rec = sim(draw(st.integers(0, 5)), players, set_name, draw(st.sampled_from(ROWS)))
    i = draw(st.integers(0, len(rec.hands) - 1))
    hand = hands_of(rec, draw(st.booleans()))[i]
    kind = draw(st.sampled_from(KINDS))
    moves = list(hand.moves)
    if kind == "delete":
        j = draw(st.sampled_from([k for k, m in enumerate(moves) if type(m) in (Play, Draw)]))
    else:
        j = draw(st.integers(0, len(moves) - 1))
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    move = moves[j]
    tiles = [str(t) for t in T.SETS[set_name]]
    if kind == "seat":
        moves[j] = attrs.evolve(move, seat=rng.choice([s for s in rec.seats if s != move.seat]))
    elif kind in ("shown", "unshown", "any", "foreign"):
        if kind == "shown":
            pool = [str(t) for t in shown_before(hand, j)]
        elif kind == "unshown":  # another player's dealt tile, or (no boneyard order) a boneyard tile
            pool = [str(t) for t in T.SETS[set_name] if t not in shown_before(hand, j)] or tiles
        elif kind == "any":
            pool = tiles
        else:
            pool = [FOREIGN[set_name]]
        t = rng.choice(pool)
        if type(move) is Play:
            moves[j] = attrs.evolve(move, play=t)
        elif type(move) is Draw:
            moves[j] = attrs.evolve(move, draw=t)
        else:
            caught = list(move.capture)
            caught[rng.randrange(len(caught))] = t
            moves[j] = attrs.evolve(move, capture=tuple(caught))
    elif kind == "delete":
        del moves[j]
    elif kind == "duplicate":
        moves.insert(j + 1, move)
    elif kind == "pass":
        moves.insert(j, Pass(seat=move.seat))
    else:
        moves.append(Play(seat=rng.choice(rec.seats), play=rng.choice(tiles)))
    return rec, i, hand, tuple(moves)


def first_refusal(state, moves):
    for k, m in enumerate(moves):
        try:
            state.apply(m)
        except IllegalMove as e:
            return k, e
    return None, None


def hidden(known, hand: Hand, moves, r: int, error: IllegalMove) -> bool:
    """Whether the known replay refused move ``r`` only because of tiles nobody has shown."""
    move = moves[r]
    seen = shown_before(attrs.evolve(hand, moves=moves), r)
    if type(move) is Play and error.rule == cr.R_HOLD:
        t = T.tile(move.play)
        dealt_left = [x for x in known.hands[move.seat] if x in {T.tile(y) for y in hand.deal.hands[move.seat]}]
        return t in known.set_tiles and t not in seen and bool(dealt_left)
    if type(move) is Draw and error.rule == cr.R_DRAW and hand.deal.boneyard is None and move.draw is not True:
        t = T.tile(move.draw)
        return t in known.set_tiles and t not in seen and "already out of the boneyard" in error.message
    return False


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corruption())
def test_a_corrupted_move_is_refused_open_as_known_unless_only_hidden_tiles_tell(case):
    rec, i, hand, moves = case
    match = cr.ENGINE.start(rec)
    for h in hands_of(rec, hand.deal.boneyard is not None)[:i]:
        state = match.start_hand(h)
        play_out(state, h.moves)
        match.finish_hand(state)
    opened = copy.deepcopy(match)
    known = match.start_hand(attrs.evolve(hand, moves=moves))
    r, error = first_refusal(known, moves)
    op = opened.start_open_hand(public(hand))
    if r is None:
        play_out(op, moves)  # every move the known replay takes, the open replay takes
        return
    play_out(op, moves[:r])
    if hidden(known, hand, moves, r, error):
        op.apply(moves[r])  # accepted: only the hidden tiles could refuse it
        return
    before = (op.to_move, op.phase, list(op.row), {s: op.held_count(s) for s in rec.seats}, op.bone_left)
    with pytest.raises(IllegalMove) as e:
        op.apply(moves[r])
    assert e.value.rule == error.rule, (e.value.message, error.message)
    texts = [x for x in (getattr(moves[r], "play", None), *getattr(moves[r], "capture", ())) if x]
    if all(T.tile(x) in shown_before(attrs.evolve(hand, moves=moves), r) or T.tile(x) not in known.set_tiles
           for x in texts):
        assert e.value.message == error.message
    # A refused move changes nothing: the state is as before, and the hand goes on from there.
    assert before == (op.to_move, op.phase, list(op.row), {s: op.held_count(s) for s in rec.seats}, op.bone_left)
    if moves[:r] == hand.moves[:r]:
        play_out(op, hand.moves[r:])
        assert op.over


# --- the rules an open hand checks, one by one ------------------------------------------------


SEATS2 = ("P1", "P2")


def open_hand(row, boneyard=None, seats=SEATS2, leader="P1", start_tiles=None, set_name="double-six"):
    opts = {"set": set_name}
    if start_tiles is not None:
        opts["start_tiles"] = start_tiles
    rec = simulate.make_record("castle-rock", len(seats), opts)
    match = cr.ENGINE.start(rec)
    return match, match.start_open_hand(Hand(leader=leader, deal=Deal(hands={}, row=tuple(row),
                                                                        boneyard=boneyard)))


def refused(state, move, rule, *words):
    with pytest.raises(IllegalMove) as e:
        state.apply(move)
    assert e.value.rule == rule, e.value.message
    for w in words:
        assert w in e.value.message, e.value.message
    return e.value


def P(seat, t):
    return Play(seat=seat, play=t)


def D(seat, t=True):
    return Draw(seat=seat, draw=t)


def C(seat, *tiles):
    return Capture(seat=seat, capture=tiles)


def test_an_open_hand_needs_the_starting_row():
    rec = simulate.make_record("castle-rock", 2)
    for deal in (None, Deal(hands={})):
        with pytest.raises(DealError) as e:
            cr.ENGINE.start(rec).start_open_hand(Hand(leader="P1", deal=deal))
        assert e.value.rule == cr.R_ROW and e.value.where == "/deal" and "give it, blocked end first" in e.value.message


def test_the_open_deal_is_checked_as_the_known_deal_is():
    """Row size, tiles of the set, a tile twice, the boneyard's length: the same rule, pointer and message."""
    rec = sim(3, 2)
    hand = rec.hands[0]
    row, bone = list(hand.deal.row), list(hand.deal.boneyard)
    bad = [
        {"row": row[:-1]},
        {"row": ["9-0", *row[1:]]},
        {"row": row, "boneyard": bone[:-1]},
        {"row": row, "boneyard": [row[0], *bone[1:]]},
        {"row": row, "boneyard": [*bone[:-1], bone[0]]},
        {"row": row, "boneyard": ["8-8", *bone[1:]]},
    ]
    for parts in bad:
        full = attrs.evolve(hand.deal, row=tuple(parts["row"]), boneyard=tuple(parts.get("boneyard", bone)))
        with pytest.raises(DealError) as known:
            cr.ENGINE.start(rec).start_hand(attrs.evolve(hand, deal=full))
        opened = Hand(leader="P1", deal=Deal(hands={}, row=full.row, boneyard=full.boneyard))
        with pytest.raises(DealError) as op:
            cr.ENGINE.start(rec).start_open_hand(opened)
        assert (op.value.rule, op.value.where, op.value.message) == \
            (known.value.rule, known.value.where, known.value.message), parts
    with pytest.raises(DealError) as e:
        cr.ENGINE.start(rec).start_open_hand(Hand(deal=Deal(hands={"P1": ("1-1", "2-2")}, row=hand.deal.row)))
    assert e.value.where == "/deal/hands" and e.value.rule == cr.R_DEAL


def test_the_leader_of_a_later_hand_is_checked():
    rec = sim(3, 3)
    match = cr.ENGINE.start(rec)
    state = match.start_hand(rec.hands[0])
    play_out(state, rec.hands[0].moves)
    match.finish_hand(state)
    wrong = copy.deepcopy(match)
    with pytest.raises(DealError) as e:
        wrong.start_open_hand(Hand(leader=rec.hands[0].leader, deal=Deal(hands={}, row=rec.hands[1].deal.row)))
    assert e.value.rule == cr.R_FIRST and e.value.where == "/leader"
    op = match.start_open_hand(Hand(deal=Deal(hands={}, row=rec.hands[1].deal.row)))
    assert op.to_move == op.leader == rec.hands[1].leader and match.hand_no == 2


def test_tiles_already_seen_cannot_be_placed():
    _, op = open_hand(["6-6", "6-5", "6-4", "6-3"])
    refused(op, P("P1", "6-5"), cr.R_HOLD, "already in the row")
    refused(op, P("P1", "7-1"), cr.R_HOLD, "not a tile of the double-six set")
    op.apply(P("P1", "5-5"))
    op.apply(D("P1", "4-4"))
    refused(op, P("P2", "4-4"), cr.R_HOLD, "it is in P1's hand")
    refused(op, P("P2", "5-5"), cr.R_HOLD, "already in the row")
    op.apply(P("P2", "3-3"))


def test_a_player_who_has_placed_both_dealt_tiles_holds_only_what_they_drew():
    _, op = open_hand(["6-6", "6-5", "6-4", "6-3"])
    for a, b, c, d in (("1-1", "1-0", "2-2", "2-0"), ("3-3", "3-0", "4-4", "4-0")):
        op.apply(P("P1", a)); op.apply(D("P1", b))
        op.apply(P("P2", c)); op.apply(D("P2", d))
    # P1 has placed 1-1 and 3-3, the tiles it was dealt, and holds the two it drew.
    assert op.holdings()["P1"] == [T.tile("3-0"), T.tile("1-0")]
    assert op.held_count("P1") == 2
    e = refused(op, P("P1", "5-0"), cr.R_HOLD, "placed both tiles dealt", "3-0", "1-0")
    assert "P1 does not hold 5-0" in e.message
    op.apply(P("P1", "1-0"))


def test_with_a_boneyard_order_its_tiles_stay_there_until_drawn():
    deal = ["6-6", "6-5", "6-4", "6-3"]
    bone = [str(t) for t in T.SETS["double-six"] if str(t) not in {*deal, "5-5", "4-4", "3-3", "2-2"}]
    _, op = open_hand(deal, boneyard=tuple(bone))
    assert op.unseen == {T.tile(t) for t in ("5-5", "4-4", "3-3", "2-2")}
    refused(op, P("P1", bone[0]), cr.R_HOLD, "still in the boneyard")
    op.apply(P("P1", "5-5"))
    refused(op, D("P1", bone[1]), cr.R_DRAW, f"the next tile of the boneyard, in the order given with the deal, is")
    op.apply(D("P1"))
    assert op.holdings()["P1"] == [T.tile(bone[0])]
    op.apply(P("P2", "2-2"))
    op.apply(D("P2", bone[1]))
    refused(op, P("P1", "2-2"), cr.R_HOLD, "already in the row")
    op.apply(P("P1", bone[0]))


def test_draws_without_an_order_name_an_unseen_tile():
    _, op = open_hand(["6-6", "6-5", "6-4", "6-3"])
    op.apply(P("P1", "5-5"))
    refused(op, D("P1"), cr.R_DRAW, "write the tile drawn")
    refused(op, D("P1", "5-5"), cr.R_DRAW, "already out of the boneyard")
    refused(op, D("P1", "6-4"), cr.R_DRAW, "already out of the boneyard")
    refused(op, D("P1", "9-9"), cr.R_DRAW, "not a tile of the double-six set")
    op.apply(D("P1", "0-0"))
    op.apply(P("P2", "4-4"))
    refused(op, D("P2", "0-0"), cr.R_DRAW, "already out of the boneyard")


def test_turn_order_and_the_owed_draw_need_no_deal():
    _, op = open_hand(["6-6", "6-5", "6-4"], seats=("P1", "P2", "P3"), start_tiles=3)
    refused(op, P("P2", "1-1"), cr.R_ORDER, "it is P1's turn")
    refused(op, C("P1", "6-5"), cr.R_TURN, "must first place")
    refused(op, D("P1", "1-1"), cr.R_DRAW, "owed no tile yet")
    refused(op, Pass(seat="P1"), cr.R_TURN, "no passing")
    refused(op, P("P7", "1-1"), cr.R_ORDER, "not a seat")
    op.apply(P("P1", "1-1"))
    refused(op, P("P1", "2-2"), cr.R_TURN, "already placed")
    refused(op, P("P2", "2-2"), cr.R_DRAW, "must draw a tile")
    assert op.apply(C("P1", "6-5")) == 1
    refused(op, C("P2", "6-4"), cr.R_TURN, "P1's turn")
    op.apply(D("P1", "2-2"))
    assert op.to_move == "P2" and op.held_count("P1") == 2


def test_the_boneyard_runs_out_by_the_count_and_hands_then_empty():
    # Two players, 22 tiles in the row: two tiles to draw, then the hands run down in turn order.
    row = [str(t) for t in T.SETS["double-six"]][:22]
    rest = [str(t) for t in T.SETS["double-six"]][22:]
    _, op = open_hand(row, start_tiles=22)
    assert op.bone_left == 2
    op.apply(P("P1", rest[0])); op.apply(D("P1", rest[1]))
    op.apply(P("P2", rest[2])); op.apply(D("P2", rest[3]))
    assert op.bone_left == 0
    op.apply(P("P1", rest[4]))
    refused(op, D("P1", rest[5]), cr.R_DRAW, "the boneyard is empty")
    refused(op, P("P1", rest[5]), cr.R_TURN, "already placed")
    op.apply(P("P2", rest[5]))
    assert op.to_move == "P2"
    op.apply(P("P1", rest[1]))
    assert [op.held_count(s) for s in SEATS2] == [0, 1] and not op.over
    refused(op, P("P1", rest[3]), cr.R_TURN, "already placed")  # P1, with no tiles, has had its turn
    op.apply(P("P2", rest[3]))
    assert op.over and op.to_move is None
    refused(op, P("P1", "0-0"), cr.R_END, "the hand is over")
    refused(op, C("P1", row[3]), cr.R_END, "only P2")
    outcome = op.outcome()
    assert outcome.scores == {"P1": -28, "P2": -28}


def test_a_hand_emptied_early_is_skipped_without_the_deal():
    # No boneyard: hands empty in turn order, and the closing captures belong to the last placer.
    row = ["1-1", "1-2", "2-2", "6-6", "6-5", "5-5", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-3",
           "1-4", "1-5", "1-6", "2-3", "2-4", "2-5", "2-6", "3-4", "3-5", "3-6"]
    _, op = open_hand(row, start_tiles=24)
    assert op.bone_left == 0
    op.apply(P("P1", "3-3")); op.apply(P("P2", "4-4")); op.apply(P("P1", "4-5"))
    refused(op, P("P1", "4-6"), cr.R_TURN, "already placed")
    op.apply(P("P2", "4-6"))
    assert op.over and op.held_count("P1") == op.held_count("P2") == 0
    assert op.apply(C("P2", "0-1")) == 1  # between 0-0 and 0-2
    assert op.over


def test_holdings_render_and_what_an_open_hand_cannot_do():
    _, op = open_hand(["6-6", "6-5", "6-4", "6-3"])
    assert op.holdings() == {"P1": [], "P2": []}
    assert any("tiles held: P1 2, P2 2" in line for line in op.render())
    with pytest.raises(HiddenTiles):
        op.legal_moves()
    _, first = open_hand(["6-6", "6-5", "6-4", "6-3"], leader=None)
    assert "not known" in first.deal_notes()[0]


def test_move_scores_in_an_open_hand_are_the_captures():
    _, op = open_hand(["1-2", "2-2", "2-3", "4-4"], start_tiles=4)
    op.apply(P("P1", "4-5"))
    assert op.apply(C("P1", "1-2", "2-2", "2-3")) == 3
    assert op.row == [T.tile("4-4"), T.tile("5-4")]
    refused(op, C("P1", "4-4"), cr.R_CAPTURE, "blocked end")
    refused(op, C("P1", "1-2"), cr.R_CAPTURE, "P1 has already captured it")


def test_tile_set_and_whole_set_dealing():
    for set_name in SETS:
        match = cr.ENGINE.start(simulate.make_record("castle-rock", 3, {"set": set_name}))
        assert match.tile_set() == list(T.SETS[set_name])
        assert match.deals_whole_set is False


# --- score-sheet hands ---------------------------------------------------------------------


def sheet(hand: Hand, leader=True, drop_zero=False) -> Hand:
    scores = dict(hand.result.scores)
    if drop_zero:
        scores = {s: n for s, n in scores.items() if n}
    return Hand(leader=hand.leader if leader else None, result=HandResult(scores=scores, end=hand.result.end))


def replay_with_sheets(rec: Record, as_sheet, leader=True, drop_zero=False):
    match = cr.ENGINE.start(rec)
    for i, hand in enumerate(rec.hands):
        if as_sheet(i):
            before = match.hand_no
            outcome = match.score_sheet_hand(sheet(hand, leader, drop_zero))
            assert match.hand_no == before + 1
            assert outcome.end == hand.result.end and outcome.scores == hand.result.scores
        else:
            state = match.start_hand(hand)
            play_out(state, hand.moves)
            match.finish_hand(state)
        assert match.over == (i == len(rec.hands) - 1)
    return match


@FAST
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 6), set_name=st.sampled_from(SETS),
       rows=st.sampled_from(ROWS), mask=st.integers(0, 2 ** 20), drop_zero=st.booleans())
def test_score_sheet_hands_give_the_same_game(seed, players, set_name, rows, mask, drop_zero):
    (rec,) = made_once.simulate("castle-rock", 1, seed, players, options(set_name, players, rows))
    for as_sheet in (lambda i: True, lambda i: mask >> i & 1):
        match = replay_with_sheets(rec, as_sheet, drop_zero=drop_zero)
        assert (match.totals, match.over, match.winner) == (rec.result.scores, True, rec.result.winner)


def test_a_sheet_without_end_or_leader_after_the_first_hand():
    rec = sim(4, 3)
    match = cr.ENGINE.start(rec)
    for i, hand in enumerate(rec.hands):
        leader = hand.leader if i == 0 else None  # later first players follow from the first
        outcome = match.score_sheet_hand(Hand(leader=leader, result=HandResult(scores=hand.result.scores)))
        assert match.last_leader == hand.leader
        assert outcome.end == "score-sheet" and outcome.scores == hand.result.scores
        assert outcome.working()
    assert (match.totals, match.winner) == (rec.result.scores, rec.result.winner)


def test_after_a_sheet_whose_leader_is_unknown_the_next_hand_is_led_as_written():
    rec = sim(5, 4)
    assert len(rec.hands) >= 3
    # Hand 1 on the sheet without its first player: hand 2's leader is taken as its record writes it.
    match = cr.ENGINE.start(rec)
    match.score_sheet_hand(sheet(rec.hands[0], leader=False))
    assert match.last_leader is None
    other = next(s for s in rec.seats if s != rec.hands[1].leader)
    state = match.start_hand(attrs.evolve(rec.hands[1], leader=other))
    assert state.leader == other and match.last_leader == other
    # ... and from there the rotation goes on: hand 3 is led by the seat after hand 2's first player.
    match2 = cr.ENGINE.start(rec)
    match2.score_sheet_hand(sheet(rec.hands[0], leader=False))
    s2 = match2.start_hand(rec.hands[1])
    play_out(s2, rec.hands[1].moves)
    match2.finish_hand(s2)
    with pytest.raises(DealError) as e:
        match2.score_sheet_hand(Hand(leader=rec.hands[1].leader, result=rec.hands[2].result))
    assert e.value.rule == cr.R_FIRST and e.value.where == "/leader"
    match2.score_sheet_hand(Hand(leader=rec.hands[2].leader, result=rec.hands[2].result))


def sheet_match(players=2, set_name="double-six"):
    return cr.ENGINE.start(simulate.make_record("castle-rock", players, {"set": set_name}))


def sheet_refused(match, hand, rule, where, *words):
    before = (dict(match.totals), match.hand_no, match.last_leader, match.over)
    with pytest.raises(DealError) as e:
        match.score_sheet_hand(hand)
    assert (e.value.rule, e.value.where) == (rule, where), e.value.message
    for w in words:
        assert w in e.value.message
    assert before == (dict(match.totals), match.hand_no, match.last_leader, match.over)


def test_impossible_sheet_claims_are_refused():
    m = sheet_match()
    # 28 tiles, two players: captured P1 + captured P2 + left = 28, scores = captured - left.
    sheet_refused(m, Hand(result=HandResult(scores={"P3": 1})), cr.R_PLAYERS, "/result/scores/P3", "not a seat")
    sheet_refused(m, Hand(result=HandResult(scores={"P/1": 1})), cr.R_PLAYERS, "/result/scores/P~11")
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 10, "P2": 10}, end="blocked")), cr.R_END,
                  "/result/end", "'blocked'")
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 10, "P2": 10})), cr.R_END, "/result/scores",
                  "add up to 20", "28, 25, 22")
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 29, "P2": -1})), cr.R_END, "/result/scores/P1",
                  "P1 29: one hand cannot score above 28 (every tile of the set captured)")
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 27, "P2": -2})), cr.R_END, "/result/scores/P2",
                  "at least -1")
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 30})), cr.R_END, "/result/scores/P1", "above 28")
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 27})), cr.R_END, "/result/scores")
    sheet_refused(m, Hand(result=HandResult()), cr.R_END, "/result/scores", "add up to 0")
    sheet_refused(m, Hand(leader="P5", result=HandResult(scores={"P1": 28})), cr.R_FIRST, "/leader",
                  "not a seat")
    m.score_sheet_hand(Hand(leader="P2", result=HandResult(scores={"P1": 13, "P2": 12}, end="out")))
    assert m.totals == {"P1": 13, "P2": 12} and m.last_leader == "P2" and m.hand_no == 1
    sheet_refused(m, Hand(leader="P2", result=HandResult(scores={"P1": 28})), cr.R_FIRST, "/leader", "so P1")


def brute_force_possible(scores: list[int], size: int) -> bool:
    """Some tiles left in the row and captured counts that give these scores, every tile accounted for
    (and, for an emptied row, someone with the capture of three that took the last tile)."""
    for left in range(size + 1):
        caught = [n + left for n in scores]
        if all(c >= 0 for c in caught) and sum(caught) + left == size:
            return left > 0 or max(caught) >= 3
    return False


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 6), set_name=st.sampled_from(SETS), data=st.data())
def test_sheet_scores_are_accepted_exactly_when_some_hand_gives_them(players, set_name, data):
    size = len(T.SETS[set_name])
    if data.draw(st.booleans()):
        left = data.draw(st.integers(0, size))
        caught = data.draw(st.lists(st.integers(0, size), min_size=players, max_size=players))
        scores = [c - left for c in caught]
    else:
        scores = data.draw(st.lists(st.integers(-size, size), min_size=players, max_size=players))
    match = sheet_match(players, set_name)
    hand = Hand(result=HandResult(scores=dict(zip(match.seats, scores))))
    if brute_force_possible(scores, size):
        outcome = match.score_sheet_hand(hand)
        assert outcome.scores == dict(zip(match.seats, scores)) and match.totals == outcome.scores
        return
    left, odd = divmod(size - sum(scores), players + 1)
    low = [s for s, n in zip(match.seats, scores) if n < -left]
    if odd or left < 0 or not low:
        where = "/result/scores"  # no number of tiles left in the row gives this sum, or nobody took three
    else:
        where = "/result/scores/" + low[0]
    sheet_refused(match, hand, cr.R_END, where)


def test_a_sheet_that_empties_the_row_needs_the_last_placer_to_have_taken_three():
    # Double-six, two players, rows of four: 24 places, so the seat before the leader places last.
    m = sheet_match(2)
    assert m.last_placer("P1") == "P2" and m.last_placer("P2") == "P1"
    sheet_refused(m, Hand(leader="P1", result=HandResult(scores={"P1": 26, "P2": 2})), cr.R_END,
                  "/result/scores/P2", "capture of three by P2", "not 2")
    m.score_sheet_hand(Hand(leader="P1", result=HandResult(scores={"P1": 25, "P2": 3})))
    # The first player of hand 2 is P2, so P1 places last.
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 2, "P2": 26})), cr.R_END, "/result/scores/P1")
    m.score_sheet_hand(Hand(result=HandResult(scores={"P1": 4, "P2": 24})))
    # Hand 1 without its first player: the last placer is not known, and the claim stands.
    m = sheet_match(2)
    m.score_sheet_hand(Hand(result=HandResult(scores={"P1": 26, "P2": 2})))
    m = sheet_match(3)
    assert [m.last_placer(s) for s in m.seats] == ["P3", "P1", "P2"]  # 24 places, three players
    m = sheet_match(5)
    assert m.last_placer("P1") == "P5"  # 25 places, five players
    m = cr.ENGINE.start(simulate.make_record("castle-rock", 4, {"start_tiles": 7}))
    assert m.last_placer("P1") == "P1"  # 21 places, four players


def test_a_sheet_hand_reaching_fifty_ends_the_game_and_the_youngest_hand_breaks_a_tie():
    m = sheet_match(3, "double-twelve")
    # 91 tiles, 3 players: 20 + 20 + 15 = 55 = 91 - 4 * 9, nine left in the row.
    m.score_sheet_hand(Hand(leader="P2", result=HandResult(scores={"P1": 20, "P2": 20, "P3": 15})))
    assert not m.over
    # Hand 2 is led by P3: its turn order is P3 P1 P2, so P2 is the youngest hand of P1 and P2.
    m.score_sheet_hand(Hand(result=HandResult(scores={"P1": 31, "P2": 31, "P3": 1})))
    assert m.over and m.totals == {"P1": 51, "P2": 51, "P3": 16} and m.winner == "P2"
    assert "youngest hand" in m.decision
    m = sheet_match(3, "double-twelve")
    m.score_sheet_hand(Hand(leader="P1", result=HandResult(scores={"P1": 50, "P3": 1})))
    assert m.over and m.winner == "P1"


def test_a_tie_on_a_sheet_whose_first_player_is_unknown_needs_the_leader():
    m = sheet_match(2, "double-twelve")
    # 91 tiles, 2 players: the scores add up to 91 - 3 * left, so 59 + 59 = 118 is impossible;
    # 44 + 44 = 88 leaves one tile in the row. A second such hand ties both players on 88.
    sheet_refused(m, Hand(result=HandResult(scores={"P1": 59, "P2": 59})), cr.R_END, "/result/scores")
    hand = Hand(result=HandResult(scores={"P1": 44, "P2": 44}))
    m.score_sheet_hand(hand)
    assert m.last_leader is None and not m.over
    sheet_refused(m, hand, cr.R_FIRST, "/leader", "tied on 88", "youngest hand")
    m.score_sheet_hand(attrs.evolve(hand, leader="P1"))
    assert m.over and m.winner == "P2"
