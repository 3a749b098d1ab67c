"""Castle Rock (docs/rules/castle-rock.md): one test per rule point.

Most tests build a small record by hand: the deal is given in full (hands,
starting row, boneyard in draw order) so each test states only the moves its
rule is about.  A large ``start_tiles`` leaves no boneyard, which makes whole
hands a few moves long.  Property tests live in test_castlerock_properties.py.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from domrec import simulate, tiles as T
from domrec.cli import app
from domrec.explain import explain
from domrec.games import castlerock as cr
from domrec.reader import load_dict
from domrec.record import Capture, Hand, Play
from domrec.validate import validate, validate_text

from tests.conftest import SAMPLES, check, problem_at

SAMPLE_DIR = SAMPLES / "valid" / "castle-rock"


def sample(name: str) -> dict:
    return json.loads((SAMPLE_DIR / name).read_text())


def full_deal(hands: dict[str, list[str]], row: list[str], draws: list[str] = (), set_name: str = "double-six",
              boneyard: bool = True) -> dict:
    """A deal with the boneyard holding ``draws`` first and then every other tile of the set."""
    used = {T.tile(t) for t in [*row, *draws, *(x for h in hands.values() for x in h)]}
    rest = [str(t) for t in T.SETS[set_name] if t not in used]
    deal = {"hands": hands, "row": row}
    if boneyard:
        deal["boneyard"] = [*draws, *rest]
    return deal


def record(deal: dict, moves: list, seats=("P1", "P2"), options=None, leader=None, result=None,
           more_hands=()) -> dict:
    hand = {"deal": deal, "moves": moves}
    if leader:
        hand["leader"] = leader
    if result is not None:
        hand["result"] = result
    doc = {"format": "domrec", "version": "1.0", "game": "castle-rock",
           "players": [{"seat": s, "name": s} for s in seats], "hands": [hand, *more_hands]}
    if options:
        doc["rules"] = {"options": options}
    return doc




def state_of(doc: dict, upto: int | None = None):
    """The engine state of the record's first hand after its first ``upto`` moves (all by default)."""
    rec = load_dict(doc)
    match = cr.ENGINE.start(rec)
    hand = rec.hands[0]
    state = match.start_hand(hand)
    for move in hand.moves[:upto]:
        state.apply(move)
    return state


def P(seat, t):
    return {"seat": seat, "play": t}


def C(seat, *tiles):
    return {"seat": seat, "capture": list(tiles)}


def D(seat, t=True):
    return {"seat": seat, "draw": t}


def row_of(state) -> list[str]:
    return [str(t) for t in state.row]


# Two players, 24-tile row: no boneyard, so a hand is four placements.
NO_BONEYARD = {"start_tiles": 24}
# A row made for capture tests; hands hold the tiles that complete patterns.
ROW = ["6-6", "1-2", "3-4", "1-5", "0-0"]


# --- players, seats and the set ------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_two_to_six_players_play(n):
    rec = simulate.make_record("castle-rock", n)
    assert len(cr.ENGINE.start(rec).seats) == n
    assert cr.ENGINE.player_counts({}) == (2, 3, 4, 5, 6)


@pytest.mark.parametrize("n", [1, 7])
def test_other_player_counts_are_rejected_naming_the_rule(n):
    doc = record({"hands": {}}, [], seats=[f"S{i}" for i in range(n)])
    report = check(doc)
    p = problem_at(report, "/players")
    assert p.rule == "castle-rock: two to six players" and p.kind == "setup"
    assert "two to six" in p.message


def test_any_distinct_seat_labels_and_each_seat_is_its_own_side():
    deal = full_deal({"Ann": ["5-5", "4-4"], "Bob": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    report = check(record(deal, [P("Ann", "5-5"), D("Ann")], seats=("Ann", "Bob")))
    assert report.valid and set(report.scores) == {"Ann", "Bob"}
    dup = record(deal, [], seats=("Ann", "Ann"))
    assert problem_at(check(dup), "/players/1/seat").kind == "setup"


def test_seats_for_simulation_are_p1_to_pn():
    assert cr.ENGINE.seats_for(4, {}) == ("P1", "P2", "P3", "P4")


def test_double_nine_set_option():
    deal = full_deal({"P1": ["9-9", "9-8"], "P2": ["7-7", "8-0"]}, ["9-0", "9-1", "2-9"], set_name="double-nine")
    report = check(record(deal, [P("P1", "9-9"), D("P1")], options={"set": "double-nine"}))
    assert report.valid, [p.text() for p in report.problems]
    # The same tile is not part of a double-six set.
    deal6 = full_deal({"P1": ["6-6", "6-5"], "P2": ["5-5", "4-4"]}, ["9-0", "6-1", "6-2", "6-3"])
    p = problem_at(check(record(deal6, [])), "/hands/0/deal/row/0")
    assert "not a tile of the double-six set" in p.message


def test_double_twelve_set_option_simulates_and_validates():
    (rec,) = simulate.simulate("castle-rock", 1, 3, 3, {"set": "double-twelve"})
    assert len(rec.hands[0].deal.row) == 4 and len(rec.hands[0].deal.boneyard) == 91 - 6 - 4
    assert validate(rec).valid


# --- the deal and the starting row --------------------------------------------------------


@pytest.mark.parametrize("set_name,n,k", [
    ("double-six", 2, 4), ("double-six", 3, 4), ("double-six", 4, 4), ("double-six", 5, 3), ("double-six", 6, 4),
    ("double-nine", 2, 3), ("double-nine", 3, 4), ("double-nine", 4, 3), ("double-nine", 5, 5),
    ("double-nine", 6, 7), ("double-twelve", 2, 3), ("double-twelve", 3, 4), ("double-twelve", 4, 3),
    ("double-twelve", 5, 6), ("double-twelve", 6, 7)])
def test_starting_row_size_auto(set_name, n, k):
    size = len(T.SETS[set_name])
    assert cr.auto_start_tiles(size, n) == k
    assert (size - k) % n == 0 and all((size - j) % n for j in range(3, k))
    match = cr.ENGINE.start(simulate.make_record("castle-rock", n, {"set": set_name}))
    assert match.start_tiles == k


def test_five_players_double_six_start_with_three():
    doc = sample("five-players-row-of-three.json")
    assert len(doc["hands"][0]["deal"]["row"]) == 3
    assert check(doc).valid


def test_starting_row_of_the_wrong_size():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4"])
    p = problem_at(check(record(deal, [])), "/hands/0/deal/row")
    assert p.rule == "castle-rock: the starting row" and "must have 4" in p.message


def test_start_tiles_option_sets_the_row_size():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1"])
    assert check(record(deal, [P("P1", "5-5"), D("P1")], options={"start_tiles": 6})).valid
    assert not check(record(deal, [], options={"start_tiles": 5})).valid


@pytest.mark.parametrize("k", [25, 40])
def test_start_tiles_larger_than_the_set_allows(k):
    p = problem_at(check(record({"hands": {}}, [], options={"start_tiles": k})), "/rules/options/start_tiles")
    assert p.rule == "castle-rock: option start_tiles" and "from 1 to 24" in p.message


def test_start_tiles_written_as_a_whole_number_with_a_point_is_that_number():
    # JSON Schema (and the shape check) take 6.0 as the integer 6: the row size is 6, no more, no less.
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1"])
    report = validate_text(json.dumps(record(deal, [P("P1", "5-5"), D("P1")], options={"start_tiles": 6.0})))
    assert report.valid, [p.text() for p in report.problems]
    p = problem_at(check(record(deal, [], options={"start_tiles": 5.0})), "/hands/0/deal/row")
    assert "must have 5 " in p.message


def test_each_player_is_dealt_two():
    deal = full_deal({"P1": ["5-5", "4-4", "1-1"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    p = problem_at(check(record(deal, [])), "/hands/0/deal/hands/P1")
    assert p.rule == "castle-rock: the deal"


def test_a_tile_dealt_twice():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    deal["hands"]["P2"] = ["3-3", "6-6"]
    report = check(record(deal, []))
    assert report.problems[0].pointer.startswith("/hands/0/deal/") and "dealt twice" in report.problems[0].message


def test_the_boneyard_lists_every_tile_left():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    deal["boneyard"].pop()
    p = problem_at(check(record(deal, [])), "/hands/0/deal/boneyard")
    assert "19" in p.message and "20" in p.message


def test_a_deal_needs_a_row():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    del deal["row"]
    assert problem_at(check(record(deal, [])), "/hands/0/deal").rule == "castle-rock: the starting row"


# --- turn order, first player and dealer ---------------------------------------------------


def test_first_player_of_hand_one_is_the_first_moves_seat_and_the_dealer_sits_before():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"], "P3": ["1-1", "0-0"]},
                     ["6-6", "6-5", "6-4", "6-3"])
    doc = record(deal, [P("P2", "3-3"), D("P2"), P("P3", "1-1"), D("P3"), P("P1", "5-5")],
                 seats=("P1", "P2", "P3"))
    assert check(doc).valid
    state = state_of(doc, 0)
    assert state.leader == "P2" and state.dealer == "P1"
    assert "dealer: P1" in state.deal_notes()[0]


def test_play_passes_clockwise():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"], "P3": ["1-1", "0-0"]},
                     ["6-6", "6-5", "6-4", "6-3"])
    doc = record(deal, [P("P1", "5-5"), D("P1"), P("P3", "1-1")], seats=("P1", "P2", "P3"))
    p = problem_at(check(doc), "/hands/0/moves/2/seat")
    assert p.rule == "castle-rock: turn order (clockwise)" and "P2's turn" in p.message


def test_first_player_rotates_clockwise_each_hand_and_leader_is_checked():
    doc = sample("two-players-game-to-50.json")
    leaders = [h["leader"] for h in doc["hands"]]
    assert all(b == {"P1": "P2", "P2": "P1"}[a] for a, b in zip(leaders, leaders[1:]))
    doc["hands"][1]["leader"] = leaders[0]
    p = problem_at(check(doc), "/hands/1/leader")
    assert p.rule == "castle-rock: first player (left of the dealer)"


def test_a_leader_who_is_not_a_seat():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    assert problem_at(check(record(deal, [], leader="Q")), "/hands/0/leader").kind == "deal"


def test_a_first_move_by_a_stranger_is_reported_at_that_move():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    p = problem_at(check(record(deal, [P("Q", "5-5")])), "/hands/0/moves/0/seat")
    assert "not a seat" in p.message


# --- the turn: place, captures, draw ----------------------------------------------------------


def test_place_adds_at_the_open_end_from_hand():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    state = state_of(record(deal, [P("P1", "4-4")]))
    assert row_of(state) == ["6-6", "6-5", "6-4", "6-3", "4-4"]
    p = problem_at(check(record(deal, [P("P1", "3-3")])), "/hands/0/moves/0/play")
    assert p.rule == "castle-rock: playing from hand" and "P2's hand" in p.message


def test_a_place_anywhere_but_the_open_end_is_refused():
    # The format has no way to say where; a record built in code that tries is refused by the engine...
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    state = state_of(record(deal, []))
    with pytest.raises(cr.IllegalMove) as e:
        state.apply(Play(seat="P1", play="5-5", on="6-6"))
    assert e.value.rule == "castle-rock: placing at the open end"
    # ...and a JSON record that tries is not a Castle Rock record at that move.
    doc = record(deal, [{"seat": "P1", "play": "5-5", "on": "6-6"}])
    report = validate_text(json.dumps(doc))
    assert report.status == "unusable" and report.problems[0].pointer == "/hands/0/moves/0"


def test_one_place_per_turn():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    p = problem_at(check(record(deal, [P("P1", "5-5"), P("P1", "4-4")])), "/hands/0/moves/1/play")
    assert p.rule == "castle-rock: turn" and "already placed" in p.message


def test_captures_are_never_compulsory():
    # 6-5 between 6-6 and 6-4 could be taken (and 6-6 6-5 6-4 as a triple): P1 just draws.
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "1-0"])
    doc = record(deal, [P("P1", "5-5"), D("P1"), P("P2", "3-3"), D("P2")])
    assert check(doc).valid
    assert state_of(doc, 1).captures()


def test_the_draw_is_owed_while_the_boneyard_lasts():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    p = problem_at(check(record(deal, [P("P1", "5-5"), P("P2", "3-3")])), "/hands/0/moves/1/seat")
    assert p.rule == "castle-rock: drawing" and "P1 must draw" in p.message


def test_a_draw_follows_the_boneyard_order():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"], draws=["1-1"])
    assert check(record(deal, [P("P1", "5-5"), D("P1", "1-1")])).valid
    p = problem_at(check(record(deal, [P("P1", "5-5"), D("P1", "0-0")])), "/hands/0/moves/1/draw")
    assert p.rule == "castle-rock: drawing" and "next tile of the boneyard" in p.message and "1-1" in p.message
    state = state_of(record(deal, [P("P1", "5-5"), D("P1")]))
    assert T.tile("1-1") in state.hands["P1"] and state.bone_left == 19


def test_without_a_boneyard_order_each_draw_names_an_unseen_tile():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"], boneyard=False)
    assert check(record(deal, [P("P1", "5-5"), D("P1", "1-0")])).valid
    for bad, why in (("6-6", "already out of the boneyard"), ("2-2", "already out of the boneyard"),
                     ("7-0", "not a tile of the double-six set")):
        p = problem_at(check(record(deal, [P("P1", "5-5"), D("P1", bad)])), "/hands/0/moves/1/draw")
        assert why in p.message and p.rule == "castle-rock: drawing"
    p = problem_at(check(record(deal, [P("P1", "5-5"), D("P1", "1-0"), P("P2", "3-3"), D("P2", "1-0")])),
                   "/hands/0/moves/3/draw")
    assert "already out" in p.message
    p = problem_at(check(record(deal, [P("P1", "5-5"), D("P1", True)])), "/hands/0/moves/1/draw")
    assert p.message == "P1 draws without naming the tile, but the deal gives no boneyard order: write the tile drawn"


def test_a_draw_when_no_tile_is_owed():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    before = problem_at(check(record(deal, [D("P1")])), "/hands/0/moves/0/draw")
    assert before.rule == "castle-rock: drawing" and "after placing" in before.message
    twice = problem_at(check(record(deal, [P("P1", "5-5"), D("P1"), D("P1")])), "/hands/0/moves/2/seat")
    assert twice.rule == "castle-rock: turn order (clockwise)"
    deal0 = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, [str(t) for t in T.DOUBLE_SIX
                                                                        if str(t) not in ("5-5", "4-4", "3-3", "2-2")])
    empty = problem_at(check(record(deal0, [P("P1", "5-5"), D("P1")], options=NO_BONEYARD)), "/hands/0/moves/1/draw")
    assert empty.rule == "castle-rock: drawing" and "boneyard is empty" in empty.message


def test_there_is_no_passing():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, ["6-6", "6-5", "6-4", "6-3"])
    p = problem_at(check(record(deal, [{"seat": "P1", "pass": True}])), "/hands/0/moves/0/pass")
    assert p.rule == "castle-rock: turn" and "no passing" in p.message


def test_players_with_empty_hands_are_skipped():
    deal = full_deal({"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"], "P3": ["1-1", "0-0"]},
                     ["6-6", "6-5", "6-4", "6-3"])
    state = state_of(record(deal, [P("P1", "5-5"), D("P1")], seats=("P1", "P2", "P3")))
    # Hands always run out in turn order when everyone is dealt two and draws one, so empty
    # a hand by hand to see the skip: P2 has no tiles and the boneyard is empty.
    state.hands["P2"].clear()
    state.bone_left = 0
    state.boneyard = None
    with pytest.raises(cr.IllegalMove) as e:
        state.apply(Play(seat="P2", play="3-3"))
    assert "P2" in str(e.value)
    state.phase = cr._CAPTURE
    state._turn = "P1"
    assert {m.seat for m in state.legal_moves() if type(m) is Play} == {"P3"}
    with pytest.raises(cr.IllegalMove) as e:
        state.apply(Play(seat="P2", play="3-3"))
    assert "no tiles left and is skipped" in e.value.message
    state.apply(Play(seat="P3", play="1-1"))
    assert state._turn == "P3"


# --- captures -------------------------------------------------------------------------------


def capture_doc(moves, hands=None, row=ROW):
    hands = hands or {"P1": ["2-5", "3-5"], "P2": ["4-6", "0-4"]}
    return record(full_deal(hands, row), moves, options={"start_tiles": len(row)})


def test_capture_of_the_middle_tile_when_its_neighbours_share_a_number():
    # Row 6-6 1-2 3-4 1-5 0-0 + 2-5: 1-5 sits between 3-4 and 2-5? no; 1-2 between 6-6 and 3-4? no.
    # 3-4 sits between 1-2 and 1-5, which share the 1.
    doc = capture_doc([P("P1", "2-5"), C("P1", "3-4")])
    state = state_of(doc)
    assert row_of(state) == ["6-6", "2-1", "5-1", "0-0", "5-2"]
    assert check(doc).valid


def test_capture_when_neighbours_share_no_number():
    p = problem_at(check(capture_doc([P("P1", "2-5"), C("P1", "1-5")])), "/hands/0/moves/1/capture/0")
    assert p.rule == "castle-rock: capture" and "share no number" in p.message


def test_a_tile_at_either_end_of_the_row_cannot_be_captured_alone():
    for t, end in (("6-6", "blocked"), ("2-5", "open")):
        p = problem_at(check(capture_doc([P("P1", "2-5"), C("P1", t)])), "/hands/0/moves/1/capture/0")
        assert f"{end} end" in p.message


def test_capture_of_a_tile_not_in_the_row():
    for t, why in (("3-5", "P1's hand"), ("4-6", "P2's hand"), ("6-5", "has not been played"),
                   ("9-9", "not a tile of the double-six set")):
        p = problem_at(check(capture_doc([P("P1", "2-5"), C("P1", t)])), "/hands/0/moves/1/capture/0")
        assert why in p.message and p.rule == "castle-rock: capture"
    p = problem_at(check(capture_doc([P("P1", "2-5"), C("P1", "3-4"), C("P1", "3-4")])), "/hands/0/moves/2/capture/0")
    assert "P1 has already captured it" in p.message


def test_capture_of_all_three_when_they_share_one_number():
    # Row ... 1-2 3-4 1-5: after 3-4 goes, 6-6 2-1 5-1 0-0 2-5: 2-1 5-1 share 1 with? 6-6 no.
    # Place 1-3 instead after a row built for a triple: 1-2 1-5 1-0 share the 1.
    row = ["6-6", "1-2", "1-5", "1-0", "3-3"]
    doc = capture_doc([P("P1", "2-5"), C("P1", "1-2", "1-5", "1-0")], row=row)
    assert row_of(state_of(doc)) == ["6-6", "3-3", "5-2"]
    assert check(doc).valid


def test_three_listed_from_the_open_end_are_accepted_too():
    row = ["6-6", "1-2", "1-5", "1-0", "3-3"]
    doc = capture_doc([P("P1", "2-5"), C("P1", "1-0", "1-5", "1-2")], row=row)
    assert row_of(state_of(doc)) == ["6-6", "3-3", "5-2"]


def test_a_triple_without_one_common_number():
    # 1-2 3-4 1-5: the ends share the 1, so 3-4 alone may go, but not all three.
    doc = capture_doc([P("P1", "2-5"), C("P1", "1-2", "3-4", "1-5")])
    p = problem_at(check(doc), "/hands/0/moves/1/capture")
    assert p.rule == "castle-rock: capture of three" and "do not all share one number" in p.message


def test_a_triple_of_tiles_that_are_not_consecutive():
    row = ["6-6", "1-2", "1-5", "1-0", "3-3"]
    for tiles in (("1-2", "1-0", "1-5"), ("6-6", "1-2", "1-0"), ("1-2", "1-5", "1-5")):
        p = problem_at(check(capture_doc([P("P1", "2-5"), C("P1", *tiles)], row=row)), "/hands/0/moves/1/capture")
        assert p.rule == "castle-rock: capture of three" and "consecutive" in p.message


def test_two_tiles_are_not_a_capture():
    p = problem_at(check(capture_doc([P("P1", "2-5"), C("P1", "1-2", "3-4")])), "/hands/0/moves/1/capture")
    assert p.rule == "castle-rock: capture" and "one tile" in p.message


def test_the_row_closes_up_and_further_captures_follow_in_the_same_turn():
    # 6-6 1-2 3-4 1-5 0-0 + 2-5.  Taking 3-4 makes 2-1 5-1 neighbours; then 5-1 sits between
    # 2-1 and 0-0 (no), but after taking 0-0 (between 5-1 and 5-2, sharing 5) the row is
    # 6-6 2-1 5-1 5-2, and 5-1 sits between 2-1 and 5-2, sharing the 2: a chain of three captures.
    doc = capture_doc([P("P1", "2-5"), C("P1", "3-4"), C("P1", "0-0"), C("P1", "1-5")])
    state = state_of(doc)
    assert row_of(state) == ["6-6", "2-1", "5-2"] and len(state.captured["P1"]) == 3
    # 0-0 could not be taken before 3-4 went? It could (5-1 and 5-2 share 5); 1-5 could not.
    p = problem_at(check(capture_doc([P("P1", "2-5"), C("P1", "1-5")])), "/hands/0/moves/1/capture/0")
    assert "share no number" in p.message


def test_each_capture_is_checked_against_the_row_at_that_moment():
    # 3-4 can be taken at first; once 1-5 is... take 0-0 first (5-1 and 5-2 share 5): then 3-4 is
    # still between 1-2 and 1-5.  But after the triple-free chain above, a stale capture fails:
    doc = capture_doc([P("P1", "2-5"), C("P1", "3-4"), C("P1", "1-5"), C("P1", "3-4")])
    p = problem_at(check(doc), "/hands/0/moves/2/capture/0")
    assert "share no number" in p.message  # 1-5 now sits between 2-1 and 0-0


def test_captures_anywhere_in_the_row_not_only_near_the_placed_tile():
    row = ["1-2", "6-6", "1-5", "0-0", "3-3"]  # 6-6 sits between 1-2 and 1-5, far from the open end
    doc = capture_doc([P("P1", "2-5"), C("P1", "6-6")], row=row)
    assert row_of(state_of(doc)) == ["2-1", "5-1", "0-0", "3-3", "5-2"]


def test_captures_only_in_ones_own_turn_after_placing():
    before = problem_at(check(capture_doc([C("P1", "3-4")])), "/hands/0/moves/0/capture")
    assert before.rule == "castle-rock: turn" and "first place" in before.message
    other = problem_at(check(capture_doc([P("P1", "2-5"), C("P2", "3-4")])), "/hands/0/moves/1/seat")
    assert other.rule == "castle-rock: turn" and "P1's turn" in other.message


def test_a_capture_earns_its_tiles_as_the_move_score():
    doc = capture_doc([P("P1", "2-5", ), C("P1", "3-4")])
    doc["hands"][0]["moves"][0]["score"] = 0
    doc["hands"][0]["moves"][1]["score"] = 1
    assert check(doc).valid
    doc["hands"][0]["moves"][1]["score"] = 0
    p = problem_at(check(doc), "/hands/0/moves/1/score")
    assert p.claimed == 0 and p.computed == 1


def test_an_emptied_row_fills_again_before_anything_can_be_captured():
    hands = {"P1": ["6-6", "3-5"], "P2": ["6-5", "4-4"]}
    doc = capture_doc([P("P1", "6-6"), C("P1", "6-1", "6-0", "6-6")], hands=hands, row=["6-1", "6-0"])
    state = state_of(doc)
    assert state.row == [] and state.captures() == [] and len(state.captured["P1"]) == 3
    with pytest.raises(cr.IllegalMove):
        state.apply(Capture(seat="P1", capture=("6-1",)))
    state.apply(next(m for m in state.legal_moves() if type(m) is not Capture))  # the draw
    state.apply(Play(seat="P2", play="6-5"))
    assert row_of(state) == ["6-5"] and state.captures() == []


# --- hand end and scoring --------------------------------------------------------------------


def whole_hand_doc(moves, result=None):
    """Two players, a 24-tile row and no boneyard: the row ends 1-1 1-0 0-0."""
    hands = {"P1": ["5-0", "2-1"], "P2": ["3-0", "4-3"]}
    row = [str(t) for t in T.DOUBLE_SIX if str(t) not in ("5-0", "2-1", "3-0", "4-3")]
    return record(full_deal(hands, row), moves, options=NO_BONEYARD, result=result)


HAND_MOVES = [P("P1", "5-0"), C("P1", "1-0", "0-0", "5-0"), P("P2", "4-3"), P("P1", "2-1"), P("P2", "3-0")]


def test_hand_ends_when_every_hand_is_empty_and_scores_captures_minus_the_row():
    assert not state_of(whole_hand_doc(HAND_MOVES[:4])).over
    state = state_of(whole_hand_doc(HAND_MOVES))
    assert state.over and state.to_move is None and len(state.row) == 25
    out = state.outcome()
    assert out.end == "out" and out.scores == {"P1": 3 - 25, "P2": -25}
    assert any("row left: 25 tiles" in line for line in out.working())
    good = {"scores": {"P1": -22, "P2": -25}, "end": "out"}
    report = check(whole_hand_doc(HAND_MOVES, good))
    assert report.valid and report.scores == {"P1": -22, "P2": -25}
    bad = check(whole_hand_doc(HAND_MOVES, {"scores": {"P1": 3, "P2": -25}}))
    p = problem_at(bad, "/hands/0/result/scores/P1")
    assert p.claimed == 3 and p.computed == -22


def test_the_last_placer_may_still_capture_and_nobody_else_moves():
    hands = {"P1": ["5-4", "2-1"], "P2": ["3-0", "6-5"]}
    row = [str(t) for t in T.DOUBLE_SIX if str(t) not in ("5-4", "2-1", "3-0", "6-5")]
    base_moves = [P("P1", "5-4"), P("P2", "3-0"), P("P1", "2-1"), P("P2", "6-5")]
    doc = record(full_deal(hands, row), base_moves, options=NO_BONEYARD)
    state = state_of(doc)
    assert state.over
    caps = state.captures()
    assert caps  # ... 2-1 6-5 around something sharing
    closing = {"seat": "P2", "capture": list(caps[0].capture)}
    doc2 = record(full_deal(hands, row), base_moves + [closing], options=NO_BONEYARD)
    assert check(doc2).valid
    s2 = state_of(doc2)
    assert len(s2.captured["P2"]) == len(caps[0].capture) and s2.outcome().scores["P2"] > state.outcome().scores["P2"]
    late = record(full_deal(hands, row), base_moves + [{"seat": "P1", "capture": list(caps[0].capture)}],
                  options=NO_BONEYARD)
    p = problem_at(check(late), "/hands/0/moves/4/seat")
    assert p.rule == "castle-rock: hand end"
    # A place after the end is wrong as a whole (the move); a draw is owed nobody (the draw).
    for extra, at in ((P("P1", "6-6"), ""), (D("P2"), "/draw")):
        p = problem_at(check(record(full_deal(hands, row), base_moves + [extra], options=NO_BONEYARD)),
                       f"/hands/0/moves/4{at}")
        assert "over" in p.message or "owed no tile" in p.message


def test_an_unfinished_last_hand_is_valid_but_not_finished():
    doc = sample("two-players.json")
    doc["hands"][0]["moves"] = doc["hands"][0]["moves"][:10]
    del doc["hands"][0]["result"]
    report = check(doc)
    assert report.valid and not report.finished


def test_outcome_arithmetic_is_shown():
    out = state_of(sample("three-players.json")).outcome()
    assert any("row left" in line for line in out.working())
    assert len(out.working()) == 1 + 3


# --- game end -----------------------------------------------------------------------------------


def test_game_ends_after_the_hand_reaching_fifty_and_the_highest_total_wins():
    doc = sample("two-players-game-to-50.json")
    report = check(doc)
    assert report.finished and report.winner == "P1" and max(report.scores.values()) >= 50
    # Every hand before the last left everybody under 50.
    totals = {"P1": 0, "P2": 0}
    for hand in doc["hands"][:-1]:
        for s, n in hand["result"]["scores"].items():
            totals[s] += n
        assert max(totals.values()) < 50
    extra = json.loads(json.dumps(doc))
    extra["hands"].append(extra["hands"][-1])
    assert problem_at(check(extra), f"/hands/{len(doc['hands'])}").rule == "end of game"


def _finish_with(totals, leader, seats=("P1", "P2", "P3")):
    rec = simulate.make_record("castle-rock", len(seats))
    match = cr.ENGINE.start(rec)
    match.totals = dict(totals)
    state = match.start_hand(match.random_hand(__import__("random").Random(0)))
    state.leader = leader
    state.row.clear()  # no penalty: the hand adds only what is captured (nothing)
    match.finish_hand(state)
    return match


def test_youngest_hand_wins_a_tie():
    # Tied on 50: the turn order of the hand starts at the leader; the later of the tied wins.
    m = _finish_with({"P1": 50, "P2": 50, "P3": 10}, leader="P1")
    assert m.over and m.winner == "P2" and "youngest hand" in m.decision
    m = _finish_with({"P1": 50, "P2": 50, "P3": 10}, leader="P2")
    assert m.winner == "P1"
    m = _finish_with({"P1": 52, "P2": 50, "P3": 52}, leader="P3")
    assert m.winner == "P1"
    assert cr.youngest_hand(("A", "B", "C", "D"), "C", ["A", "D"]) == "A"


def test_no_end_below_fifty():
    m = _finish_with({"P1": 49, "P2": 49, "P3": 49}, leader="P1")
    assert not m.over and m.winner is None


# --- the rule text's strategy example -----------------------------------------------------------

STRATEGY_ROW = ["1-6", "0-6", "0-0", "2-4", "4-4", "0-4", "1-1", "1-5"]


def test_strategy_example_sample_reaches_the_texts_row_and_takes_the_captures_in_its_order():
    doc = sample("strategy-example.json")
    assert check(doc).valid
    before = state_of(doc, 8)
    assert row_of(before) == [str(T.tile(t)) for t in STRATEGY_ROW]
    moves = doc["hands"][0]["moves"][8:13]
    assert moves[0] == {"seat": "P1", "play": "1-4"}
    assert [m["capture"] for m in moves[1:]] == [["1-5"], ["1-1"], ["0-4"], ["2-4", "4-4", "1-4"]]
    after = state_of(doc, 13)
    assert row_of(after) == ["6-1", "6-0", "0-0"] and len(after.captured["P1"]) == 6


def test_strategy_example_the_editors_simpler_route_ends_with_the_same_row():
    doc = sample("strategy-example.json")
    texts_route = state_of(doc, 13)
    simpler = state_of(doc, 9)  # the row of the example with 1-4 added
    simpler.apply(Capture(seat="P1", capture=("2-4", "4-4", "0-4")))
    simpler.apply(Capture(seat="P1", capture=("1-1", "1-5", "1-4")))
    assert simpler.row == texts_route.row
    assert sorted(map(str, simpler.captured["P1"])) == sorted(map(str, texts_route.captured["P1"]))
    # The immediate thought (only the last three) leaves three more tiles in the row.
    greedy = state_of(doc, 9)
    greedy.apply(Capture(seat="P1", capture=("1-1", "1-5", "1-4")))
    assert len(greedy.row) == len(texts_route.row) + 3


# --- simulate and explain ------------------------------------------------------------------------


@pytest.mark.parametrize("set_name", ["double-six", "double-nine", "double-twelve"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_simulated_games_of_every_size_and_set_validate(n, set_name):
    for rec in simulate.simulate("castle-rock", 1, 11, n, {"set": set_name}):
        report = validate_text(simulate.dumps(rec))
        assert report.valid and report.finished, [p.text() for p in report.problems]
        assert report.winner == rec.result.winner


@pytest.mark.timeout(900)  # a hang, not a slow machine: seconds idle, about a minute under load
@pytest.mark.parametrize("n, k", [(6, 40), pytest.param(2, 60, marks=pytest.mark.long)])
def test_simulated_games_with_a_long_starting_row_finish(n, k):
    """The simulated players' lookahead stays bounded on long rows full of captures (start_tiles
    near its maximum): a game is played and validates in seconds, not hours.
    (The time limit, pytest-timeout's, only turns a hang into a failure; it is no benchmark.)
    The default run plays six players on a row of 40 (a couple of seconds); ``pytest --long``
    adds two players on a row of 60, the same lookahead on a longer row, several times as long."""
    for rec in simulate.simulate("castle-rock", 1, 7, n, {"set": "double-twelve", "start_tiles": k}):
        report = validate_text(simulate.dumps(rec))
        assert report.valid and report.finished, [p.text() for p in report.problems]


def _turn_kinds(rec):
    """Which capture patterns the record shows: single, triple, chain, emptied row, closing capture."""
    seen = set()
    match = cr.ENGINE.start(rec)
    for hand in rec.hands:
        state = match.start_hand(hand)
        available: set = set()
        for i, move in enumerate(hand.moves):
            if type(move) is Capture:
                seen.add("single" if len(move.capture) == 1 else "triple")
                if tuple(move.capture) not in available:
                    seen.add("chain")  # only possible because of an earlier capture this turn
                if state.over:
                    seen.add("closing")
            state.apply(move)
            if type(move) is Play:
                available = {tuple(c.capture) for c in state.captures()}
            if type(move) is Capture and not state.row:
                seen.add("emptied")
        match.finish_hand(state)
    return seen


def test_simulation_shows_single_triple_chained_captures_and_an_emptied_row():
    seen = set()
    for rec in simulate.simulate("castle-rock", 4, 5, 4):
        seen |= _turn_kinds(rec)
    assert seen >= {"single", "triple", "chain", "emptied", "closing"}


def test_simulation_is_reproducible():
    a = [simulate.dumps(r) for r in simulate.simulate("castle-rock", 2, 42, 3)]
    b = [simulate.dumps(r) for r in simulate.simulate("castle-rock", 2, 42, 3)]
    c = [simulate.dumps(r) for r in simulate.simulate("castle-rock", 2, 43, 3)]
    assert a == b and a != c


def test_cli_simulate_castle_rock():
    result = CliRunner().invoke(app, ["simulate", "castle-rock", "--players", "5", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert validate_text(result.stdout.splitlines()[0]).valid


def test_explain_prints_the_row_after_each_step():
    rec = load_dict(sample("strategy-example.json"))
    lines, report = explain(rec, 1)
    assert report.valid
    i = next(k for k, line in enumerate(lines) if "P1 captures 2-4 4-4 1-4" in line)
    assert "(+3)" in lines[i]
    # (the row as it lies, as the deal wrote it: "1-6 0-6 …", not turned high half first)
    assert lines[i + 1].strip() == "row (blocked end first, open end last): [1-6][0-6][0-0]"
    assert sum("row (blocked end first" in line for line in lines) == 1 + len(rec.hands[0].moves)
    assert any("dealer: P2" in line for line in lines)
