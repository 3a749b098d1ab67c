"""Domino Roads (docs/rules/domino-roads.md): one test per rule point, with records built by hand.

Each test writes only the tiles and moves its rule is about; the rest of the
deal is filled from the set so that every record is a full, legal deal.
Scores are worked out in the test from the tiles, never read back from the
engine.  Property tests over simulated games are in test_roads_properties.py.
"""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from domrec import games, simulate
from domrec.explain import explain
from domrec.games import roads
from domrec.reader import load_dict
from domrec.tiles import make, roads_set, tile
from domrec.validate import validate

from tests.conftest import SAMPLES

VALID = SAMPLES / "valid" / "domino-roads"


# --- building records -------------------------------------------------------------

def _name(t) -> str:
    return f"{t.high}-{t.low}"


def fill(fixed: dict[str, list[str]], players: int, piles: dict[str, list[str]] | None = None):
    """Stocks (and piles) holding ``fixed`` first, topped up from the rest of the set."""
    size = 10 if players == 4 else 9
    rest = Counter(roads_set(players))
    for texts in list(fixed.values()) + list((piles or {}).values()):
        for x in texts:
            assert rest[tile(x)] > 0, x
            rest[tile(x)] -= 1
    pool = sorted(rest.elements(), key=lambda t: (t.high, t.low), reverse=True)
    hands = {s: list(v) for s, v in fixed.items()}
    out_piles = {s: list(v) for s, v in (piles or {}).items()} if players == 3 else None
    for seat in hands:
        while len(hands[seat]) < size:
            hands[seat].append(_name(pool.pop(0)))
    if out_piles is not None:
        for seat in hands:
            out_piles.setdefault(seat, [])
            while len(out_piles[seat]) < 4:
                out_piles[seat].append(_name(pool.pop(0)))
    assert not pool
    return hands, out_piles


def doc4(fixed: dict[str, list[str]], moves: list[dict], leader: str | None = "S",
         options: dict | None = None, result: dict | None = None) -> dict:
    hands, _ = fill({s: fixed.get(s, []) for s in "NESW"}, 4)
    hand = {"deal": {"hands": hands}, "moves": moves}
    if leader is not None:
        hand["leader"] = leader
    if result is not None:
        hand["result"] = result
    doc = {"format": "domrec", "version": "1.0", "game": "domino-roads",
           "players": [{"seat": s, "name": s} for s in "NESW"], "hands": [hand]}
    if options:
        doc["rules"] = {"options": options}
    return doc


def doc3(fixed: dict[str, list[str]], piles: dict[str, list[str]], moves: list[dict],
         leader: str | None = "P1", seats=("P1", "P2", "P3")) -> dict:
    hands, out_piles = fill({s: fixed.get(s, []) for s in seats}, 3, {s: piles.get(s, []) for s in seats})
    hand = {"deal": {"hands": hands, "piles": out_piles}, "moves": moves}
    if leader is not None:
        hand["leader"] = leader
    return {"format": "domrec", "version": "1.0", "game": "domino-roads",
            "players": [{"seat": s, "name": s} for s in seats], "hands": [hand]}


def R(seat, a, b):
    return {"seat": seat, "roll": [a, b]}


def REUSE(seat):
    return {"seat": seat, "reuse": True}


def PASS(seat):
    return {"seat": seat, "pass": True}


def ST(seat, t, road, facing):
    return {"seat": seat, "starter": t, "road": road, "facing": facing}


def SP(seat, t, road):
    return {"seat": seat, "span": t, "road": road}


def BR(seat, a, b, t="0-0"):
    keys = ("road", "span", "half")
    return {"seat": seat, "bridge": t, "join": [dict(zip(keys, a)), dict(zip(keys, b))]}


def BL(seat, t, road):
    return {"seat": seat, "block": t, "road": road}


def check(doc: dict):
    return validate(load_dict(doc))


def ok(doc: dict):
    report = check(doc)
    assert report.status == "valid", [p.text() for p in report.problems]
    return report


def illegal(doc: dict, index: int, rule: str, hand: int = 0, at: str = ""):
    """The record's first problem is move ``index`` of ``hand``, against ``rule``, pointing at the
    move's field ``at`` (``/road``, ``/join/1/half``…; ``""``: the move as a whole)."""
    report = check(doc)
    assert report.status == "invalid", "the record was accepted"
    p = report.problems[0]
    assert p.pointer == f"/hands/{hand}/moves/{index}{at}", p.text()
    assert p.rule == rule, p.text()
    assert p.message and "\n" not in p.message
    return p


def state_of(doc: dict, hand: int = 0):
    """The engine's hand state after the record's moves (for scores and roads)."""
    record = load_dict(doc)
    match = games.engine("domino-roads").start(record)
    for i, h in enumerate(record.hands):
        state = match.start_hand(h)
        for move in h.moves:
            state.apply(move)
        if i == hand:
            return match, state
        match.finish_hand(state)
    raise AssertionError("no such hand")


def pips(texts) -> int:
    return sum(tile(x).high + tile(x).low for x in texts)


def remaining(doc: dict, seat: str, hand: int = 0) -> list[str]:
    """Tiles left in ``seat``'s stock: dealt minus played, worked out from the record itself."""
    left = Counter(tile(x) for x in doc["hands"][hand]["deal"]["hands"][seat])
    for m in doc["hands"][hand]["moves"]:
        if m["seat"] == seat:
            for key in ("starter", "span", "bridge", "block"):
                if key in m:
                    left[tile(m[key])] -= 1
    return [_name(t) for t in left.elements()]


# A chain for total 6: every span's touching half makes 6 with the number showing.
CHAIN6 = ["6-0", "6-6", "2-0", "4-4", "2-2", "4-1", "5-1", "5-3", "3-3", "3-5"]


def chain6(seat: str, road: str, n: int) -> list[dict]:
    """Starter 6-0 facing 0 and then n-1 spans of CHAIN6, all with total 6."""
    return [ST(seat, "6-0", road, 0)] + [SP(seat, t, road) for t in CHAIN6[1:n]]


# --- sets ---------------------------------------------------------------------------

def test_the_four_player_set_has_40_tiles_with_the_extra_copies():
    s = roads_set(4)
    assert sum(s.values()) == 40
    assert all(s[make(n, n)] == 2 for n in range(7))
    assert all(s[make(a, b)] == 2 for a, b in ((1, 6), (2, 5), (3, 4), (2, 6), (3, 5)))
    assert s[make(6, 5)] == 1 and s[make(1, 0)] == 1


def test_the_three_player_set_drops_the_1_0():
    s = roads_set(3)
    assert sum(s.values()) == 39 and make(1, 0) not in s


def test_a_stock_may_hold_both_copies_and_play_both():
    doc = doc4({"S": ["6-6", "6-6", "4-2"]}, [R("S", 6, 6), ST("S", "6-6", "NS1", 6), ST("S", "6-6", "NS2", 6)])
    ok(doc)


def test_a_third_copy_in_the_deal_is_caught():
    doc = doc4({"S": ["6-6", "6-6"]}, [])
    doc["hands"][0]["deal"]["hands"]["N"][0] = "6-6"
    report = check(doc)
    assert report.problems[0].pointer == "/hands/0/deal/hands/S/1"  # the third copy, in seat order
    assert report.problems[0].rule == roads.R_SETS and "2 copies" in report.problems[0].message


def test_a_tile_outside_the_set_is_caught():
    doc = doc4({}, [])
    doc["hands"][0]["deal"]["hands"]["W"][3] = "7-2"
    report = check(doc)
    assert report.problems[0].pointer == "/hands/0/deal/hands/W/3"
    assert "not a tile of the 40-tile" in report.problems[0].message


def test_the_1_0_is_not_in_the_three_player_set():
    doc = doc3({}, {}, [])
    hands = doc["hands"][0]["deal"]["hands"]
    hands["P2"][0] = "1-0"
    report = check(doc)
    assert report.problems[0].pointer == "/hands/0/deal/hands/P2/0"
    assert report.problems[0].rule == roads.R_SETS


def test_playing_a_copy_beyond_those_held_is_rejected():
    doc = doc4({"S": ["6-6", "4-2"], "N": ["6-6"]}, [R("S", 6, 6), ST("S", "6-6", "NS1", 6), ST("S", "6-6", "NS2", 6)])
    p = illegal(doc, 2, roads.R_STOCK, at="/starter")
    assert "the other copy is in N's stock" in p.message


# --- four players -----------------------------------------------------------------------

def test_four_players_draw_stocks_of_ten():
    doc = doc4({}, [])
    doc["hands"][0]["deal"]["hands"]["E"].pop()
    p = check(doc).problems[0]
    assert p.pointer == "/hands/0/deal/hands/E" and p.rule == roads.R_FOUR


def test_four_players_have_no_piles():
    doc = doc4({}, [])
    doc["hands"][0]["deal"]["piles"] = {s: [] for s in "NESW"}
    assert check(doc).problems[0].pointer == "/hands/0/deal/piles"


def test_four_players_sit_n_e_s_w():
    doc = doc4({}, [])
    doc["players"][0]["seat"] = "X"
    assert check(doc).problems[0].pointer == "/players"


@pytest.mark.parametrize("count", [2, 5])
def test_only_three_or_four_players(count):
    doc = doc4({}, [])
    doc["players"] = [{"seat": f"P{i}", "name": "x"} for i in range(count)]
    p = check(doc).problems[0]
    assert p.rule == roads.R_PLAYERS and p.pointer == "/players"


def test_south_is_the_first_player_of_hand_one():
    doc = doc4({}, [R("N", 1, 2)], leader="N")
    p = check(doc).problems[0]
    assert p.pointer == "/hands/0/leader" and p.rule == roads.R_FIRST


def test_without_a_leader_south_must_roll_first():
    doc = doc4({}, [R("W", 1, 2)], leader=None)
    illegal(doc, 0, roads.R_TURNS, at="/seat")


@pytest.mark.parametrize("dice", [(7, 1), (0, 3), (9, 9)])
def test_a_die_that_no_die_shows_is_refused_by_the_engine(dice):
    # (a record's shape check refuses it first; typed at the terminal or a venue's table, the
    # engine is what refuses it: it was taken, and the record saved was one validate refused)
    from domrec.game import Game, Refused
    from domrec.record import Roll

    g = Game("domino-roads", ("N", "E", "S", "W"))
    g.start_hand(None, "S")
    with pytest.raises(Refused, match="each die shows 1 to 6"):
        g.push(Roll(seat="S", roll=dice))
    g.push(Roll(seat="S", roll=(3, 6)))  # a throw of the dice is taken
    assert g.state.total == 9


def test_the_first_player_rotates_clockwise_each_hand():
    doc = json.loads((VALID / "road-of-ten-and-road-block.json").read_text())
    assert [h["leader"] for h in doc["hands"]] == ["S", "W"]
    ok(doc)
    match = games.engine("domino-roads").start(load_dict(doc))
    leaders = []
    for _ in range(5):
        match.hand_no += 1
        leaders.append(match._expected_leader())
    assert leaders == ["S", "W", "N", "E", "S"]


def test_partners_build_the_same_roads():
    doc = doc4({"S": ["3-4"], "N": ["5-6"]}, [
        R("S", 4, 3), ST("S", "3-4", "NS1", 4), R("W", 1, 1), R("N", 6, 3), SP("N", "5-6", "NS1")])
    _, state = state_of(ok(doc) and doc)
    assert state.roads["NS1"].length == 2 and state.roads["NS1"].side == "NS"


# --- three players ----------------------------------------------------------------------

def test_three_players_draw_stocks_of_nine_and_piles_of_four():
    doc = doc3({}, {}, [])
    doc["hands"][0]["deal"]["piles"]["P2"].pop()
    p = check(doc).problems[0]
    assert p.pointer == "/hands/0/deal/piles/P2" and p.rule == roads.R_THREE


def test_three_players_need_piles():
    doc = doc3({}, {}, [])
    del doc["hands"][0]["deal"]["piles"]
    assert check(doc).problems[0].rule == roads.R_THREE


def test_three_players_may_use_any_distinct_labels():
    doc = doc3({"Ann": ["3-4"]}, {}, [R("Ann", 4, 3), ST("Ann", "3-4", "Ann-1", 4)], leader="Ann",
               seats=("Ann", "Bob", "Cat"))
    ok(doc)
    doc["players"][2]["seat"] = "Ann"
    assert check(doc).problems[0].pointer == "/players/2/seat"


def test_the_stock_is_topped_up_to_nine_in_pile_order_at_the_start_of_a_turn():
    doc = doc3({"P1": ["3-4", "5-2"]}, {"P1": ["6-6", "2-2", "1-1", "0-0"]}, [
        R("P1", 4, 3), ST("P1", "3-4", "P1-1", 4), ST("P1", "5-2", "P1-2", 5),
        R("P2", 1, 1), R("P3", 1, 1)])
    _, state = state_of(doc)
    assert state.stock_size["P1"] == 7 and len(state.piles["P1"]) == 4  # not yet P1's turn
    doc["hands"][0]["moves"].append(R("P1", 6, 6))
    _, state = state_of(doc)
    held = Counter(state.stocks["P1"])
    assert state.stock_size["P1"] == 9
    assert held[tile("6-6")] >= 1 and held[tile("2-2")] >= 1
    assert [_name(t) for t in state.piles["P1"]] == ["1-1", "0-0"]  # the rest waits, in order


def test_a_tile_still_in_the_pile_cannot_be_played():
    doc = doc3({"P1": ["3-4"]}, {"P1": ["6-5"]}, [R("P1", 6, 5), ST("P1", "6-5", "P1-1", 6)])
    p = illegal(doc, 1, roads.R_STOCK, at="/starter")
    assert "pile" in p.message


def test_three_player_roads_belong_to_one_player():
    doc = doc3({"P1": ["3-4"], "P2": ["5-6"]}, {}, [
        R("P1", 4, 3), ST("P1", "3-4", "P1-1", 4), R("P2", 6, 3), SP("P2", "5-6", "P1-1")])
    illegal(doc, 3, roads.R_OWN, at="/road")


def test_three_players_have_no_partner_turn():
    doc = doc3({"P1": ["3-4"], "P3": ["6-1"]}, {}, [
        R("P1", 4, 3), ST("P1", "3-4", "P1-1", 4), R("P2", 1, 1), ST("P3", "6-1", "P3-1", 6)])
    illegal(doc, 3, roads.R_TURNS, at="/seat")


def test_three_players_first_player_is_recorded_then_rotates_clockwise():
    doc = doc3({}, {}, [R("P2", 1, 1)], leader=None)
    _, state = state_of(doc)
    assert state.leader == "P2"
    match = games.engine("domino-roads").start(load_dict(doc))
    match.last_leader, match.hand_no = "P2", 1
    hand = copy.deepcopy(doc["hands"][0])
    hand["leader"] = "P2"
    with pytest.raises(Exception) as e:
        match.start_hand(load_dict({**doc, "hands": [hand]}).hands[0])
    assert "P3 starts this one" in str(e.value)


def test_three_players_hand_one_needs_a_first_player():
    doc = doc3({}, {}, [], leader=None)
    assert check(doc).problems[0].pointer == "/hands/0/leader"


# --- turns --------------------------------------------------------------------------------

def test_a_turn_starts_with_the_dice():
    illegal(doc4({"S": ["3-4"]}, [ST("S", "3-4", "NS1", 4)]), 0, roads.R_TURNS, at="/starter")
    illegal(doc4({}, [PASS("S")]), 0, roads.R_TURNS, at="/pass")


def test_the_dice_pass_clockwise():
    doc = doc4({}, [R("S", 1, 1), R("N", 1, 1)])
    p = illegal(doc, 1, roads.R_TURNS, at="/seat")
    assert "W" in p.message


def test_the_partner_plays_with_the_same_total_from_the_second_turn():
    moves = [R("S", 1, 1), R("W", 6, 3), ST("W", "6-3", "EW1", 3), SP("E", "5-6", "EW1")]
    ok(doc4({"W": ["6-3"], "E": ["5-6"]}, moves))  # E's 6 makes 9 with the 3 showing
    moves[1] = R("W", 5, 4)
    moves[2] = ST("W", "5-4", "EW1", 4)  # now the 4 shows: 5-6 needs a 5, which it has
    ok(doc4({"W": ["5-4"], "E": ["5-6"]}, moves))
    moves[2] = ST("W", "5-4", "EW1", 5)  # with the 5 showing E's tile would need a 4
    illegal(doc4({"W": ["5-4"], "E": ["5-6"]}, moves), 3, roads.R_SPAN, at="/road")


def test_the_partner_does_not_play_on_the_first_turn():
    doc = doc4({"S": ["3-4"], "N": ["6-1"]}, [R("S", 4, 3), ST("N", "6-1", "NS1", 6)])
    illegal(doc, 1, roads.R_PARTNER, at="/seat")
    doc = doc4({}, [R("S", 4, 3), PASS("N")])
    illegal(doc, 1, roads.R_PARTNER, at="/seat")


def test_the_roller_cannot_play_after_the_partner_takes_over():
    doc = doc4({"W": ["3-4", "5-2"], "E": ["6-1"]}, [
        R("S", 1, 1), R("W", 4, 3), ST("E", "6-1", "EW1", 6), ST("W", "3-4", "EW2", 4)])
    illegal(doc, 3, roads.R_TURNS, at="/seat")


def test_an_opponent_cannot_play_in_someone_elses_turn():
    doc = doc4({"S": ["3-4"], "W": ["5-2"]}, [R("S", 4, 3), ST("W", "5-2", "EW1", 5)])
    illegal(doc, 1, roads.R_TURNS, at="/seat")


def test_a_pass_closes_a_part_and_no_play_follows_in_it():
    doc = doc4({"S": ["3-4", "5-2"]}, [R("S", 4, 3), ST("S", "3-4", "NS1", 4), PASS("S"),
                                        ST("S", "5-2", "NS2", 5)])
    illegal(doc, 3, roads.R_TURNS, at="/seat")


def test_no_play_is_compulsory():
    doc = doc4({"S": ["3-4"], "W": ["5-2"]}, [R("S", 4, 3), R("W", 4, 3), R("N", 4, 3)])
    ok(doc)


def test_an_unused_toss_may_be_reused_by_the_next_player():
    doc = doc4({"W": ["3-4"]}, [R("S", 4, 3), PASS("S"), REUSE("W"), ST("W", "3-4", "EW1", 4)])
    _, state = state_of(ok(doc) and doc)
    assert state.total == 7


def test_a_toss_stays_unused_through_the_partners_part():
    doc = doc4({"N": ["3-4"]}, [R("S", 1, 1), R("W", 4, 3), PASS("W"), PASS("E"), REUSE("N"),
                                 ST("N", "3-4", "NS1", 4)])
    ok(doc)


def test_a_reused_toss_left_unused_may_be_reused_again():
    doc = doc4({"E": ["3-4"]}, [R("S", 4, 3), REUSE("W"), REUSE("N"), REUSE("E"), ST("E", "3-4", "EW1", 4)])
    ok(doc)


def test_a_used_toss_cannot_be_reused():
    doc = doc4({"S": ["3-4"]}, [R("S", 4, 3), ST("S", "3-4", "NS1", 4), REUSE("W")])
    illegal(doc, 2, roads.R_UNUSED, at="/reuse")


def test_the_partners_play_uses_the_toss():
    doc = doc4({"E": ["3-4"]}, [R("S", 1, 1), R("W", 4, 3), ST("E", "3-4", "EW1", 4), REUSE("N")])
    illegal(doc, 3, roads.R_UNUSED, at="/reuse")


def test_a_toss_used_only_by_spans_cannot_be_reused():
    # N's turn lays a span and nothing else: the toss is used all the same.
    doc = doc4({"S": ["3-4"], "N": ["5-6"]}, [
        R("S", 4, 3), ST("S", "3-4", "NS1", 4), R("W", 1, 1), R("N", 6, 3), SP("N", "5-6", "NS1"), REUSE("E")])
    illegal(doc, 5, roads.R_UNUSED, at="/reuse")
    doc["hands"][0]["moves"][4] = PASS("N")
    ok(doc)  # the same turn without the span leaves the toss unused


def test_there_is_no_toss_to_reuse_at_the_start_of_a_hand():
    illegal(doc4({}, [REUSE("S")]), 0, roads.R_UNUSED, at="/reuse")


def test_only_the_next_player_may_reuse():
    doc = doc4({}, [R("S", 4, 3), REUSE("N")])
    illegal(doc, 1, roads.R_TURNS, at="/seat")


# --- starters ---------------------------------------------------------------------------

def test_a_starter_sums_to_the_total():
    illegal(doc4({"S": ["3-4"]}, [R("S", 4, 4), ST("S", "3-4", "NS1", 4)]), 1, roads.R_STARTER, at="/starter")


def test_a_starter_faces_the_road_with_one_of_its_numbers():
    illegal(doc4({"S": ["3-4"]}, [R("S", 4, 3), ST("S", "3-4", "NS1", 5)]), 1, roads.R_STARTER, at="/facing")


def test_spans_go_only_from_the_facing_side():
    doc = doc4({"S": ["3-4"], "N": ["6-2"]}, [
        R("S", 4, 3), ST("S", "3-4", "NS1", 4), R("W", 1, 1), R("N", 5, 4), SP("N", "6-2", "NS1")])
    p = illegal(doc, 4, roads.R_SPAN, at="/road")  # 6 + 3 = 9 would fit the 3, but the road faces 4
    assert "one side only" in p.message
    doc["hands"][0]["moves"][1] = ST("S", "3-4", "NS1", 3)
    ok(doc)


def test_a_starter_is_played_off_one_side_only():
    doc = doc4({"S": ["3-4", "3-4"]}, [R("S", 4, 3), ST("S", "3-4", "NS1", 4), ST("S", "3-4", "NS1", 3)])
    illegal(doc, 2, roads.R_STARTER, at="/facing")


def test_road_names_are_unique_in_a_hand():
    doc = doc4({"S": ["3-4", "5-2"]}, [R("S", 4, 3), ST("S", "3-4", "NS1", 4), ST("S", "5-2", "NS1", 5)])
    illegal(doc, 2, roads.R_NAMES, at="/road")


def test_zero_zero_is_never_a_starter():
    illegal(doc4({"S": ["0-0"]}, [R("S", 1, 1), ST("S", "0-0", "NS1", 0)]), 1, roads.R_ZERO, at="/starter")


def test_a_double_may_start_a_road():
    ok(doc4({"S": ["4-4"]}, [R("S", 4, 4), ST("S", "4-4", "NS1", 4)]))


# --- spans -------------------------------------------------------------------------------

def test_a_span_makes_the_total_with_the_exposed_number():
    base = [R("S", 4, 3), ST("S", "3-4", "NS1", 4), R("W", 1, 1)]
    ok(doc4({"S": ["3-4"], "N": ["5-6"]}, base + [R("N", 6, 3), SP("N", "5-6", "NS1")]))
    illegal(doc4({"S": ["3-4"], "N": ["5-6"]}, base + [R("N", 6, 2), SP("N", "5-6", "NS1")]), 4, roads.R_SPAN, at="/road")


def test_the_other_half_becomes_the_exposed_number():
    doc = doc4({"S": ["3-4"], "N": ["5-6", "3-3", "6-1"]}, [
        R("S", 4, 3), ST("S", "3-4", "NS1", 4), R("W", 1, 1),
        R("N", 6, 3), SP("N", "5-6", "NS1"), SP("N", "3-3", "NS1"), SP("N", "6-1", "NS1")])
    _, state = state_of(ok(doc) and doc)
    road = state.roads["NS1"]
    assert road.exposed == 1 and road.length == 4
    assert [(t, a, b) for t, a, b in road.spans] == [(tile("5-6"), 5, 6), (tile("3-3"), 3, 3), (tile("6-1"), 6, 1)]


def test_a_span_on_an_unknown_road():
    illegal(doc4({"S": ["3-4"]}, [R("S", 4, 3), SP("S", "3-4", "NS9")]), 1, roads.R_SPAN, at="/road")


def test_zero_zero_is_never_a_span():
    doc = doc4({"S": ["0-0", "6-1"]}, [R("S", 6, 1), ST("S", "6-1", "NS1", 6), R("W", 1, 1),
                                        R("N", 3, 3), PASS("N"), SP("S", "0-0", "NS1")])
    illegal(doc, 5, roads.R_ZERO, at="/span")


def test_a_road_holds_at_most_ten_tiles():
    moves = [R("S", 3, 3)] + chain6("S", "NS1", 9) + [R("W", 1, 1), R("N", 3, 3), SP("N", "3-5", "NS1")]
    doc = doc4({"S": CHAIN6[:9], "N": ["3-5", "1-1"]}, moves)
    _, state = state_of(ok(doc) and doc)
    assert state.roads["NS1"].length == 10 and state.roads["NS1"].exposed == 5
    doc["hands"][0]["moves"].append(SP("N", "1-1", "NS1"))  # 1 + 5 = 6, but the road is full
    p = illegal(doc, 13, roads.R_LENGTH, at="/road")
    assert "length 10" in p.message


# --- bridges ------------------------------------------------------------------------------

# S builds NS1 = 6-2 | 4-6 and NS2 = 4-4 | 4-0 with total 8; N then holds the 0-0.
BRIDGE_ROADS = [R("S", 5, 3), ST("S", "6-2", "NS1", 2), SP("S", "4-6", "NS1"), ST("S", "4-4", "NS2", 4),
                SP("S", "4-0", "NS2"), R("W", 1, 1)]
BRIDGE_S = ["6-2", "4-6", "4-4", "4-0"]


def test_the_rule_texts_bridge_with_total_ten():
    doc = doc4({"S": BRIDGE_S, "N": ["0-0"]}, BRIDGE_ROADS + [R("N", 6, 4), BR("N", ("NS1", 1, 6), ("NS2", 1, 4))])
    _, state = state_of(ok(doc) and doc)
    assert state.roads["NS1"].joined is state.roads["NS2"] and state.roads["NS1"].length == 4


def test_only_a_zero_zero_bridges():
    doc = doc4({"S": BRIDGE_S, "N": ["1-1"]}, BRIDGE_ROADS + [R("N", 6, 4), BR("N", ("NS1", 1, 6), ("NS2", 1, 4), "1-1")])
    illegal(doc, 7, roads.R_BRIDGE, at="/bridge")


def test_bridged_halves_sum_to_the_total():
    doc = doc4({"S": BRIDGE_S, "N": ["0-0"]}, BRIDGE_ROADS + [R("N", 6, 5), BR("N", ("NS1", 1, 6), ("NS2", 1, 4))])
    illegal(doc, 7, roads.R_BRIDGE, at="/join")


def test_a_bridge_joins_spans_not_starters():
    doc = doc4({"S": BRIDGE_S, "N": ["0-0"]}, BRIDGE_ROADS + [R("N", 6, 4), BR("N", ("NS1", 2, 6), ("NS2", 1, 4))])
    p = illegal(doc, 7, roads.R_BRIDGE, at="/join/0/span")
    assert "never a starter" in p.message


def test_a_bridge_half_must_be_on_the_span():
    doc = doc4({"S": BRIDGE_S, "N": ["0-0"]}, BRIDGE_ROADS + [R("N", 5, 5), BR("N", ("NS1", 1, 5), ("NS2", 1, 5))])
    illegal(doc, 7, roads.R_BRIDGE, at="/join/0/half")


def test_a_bridge_joins_two_different_roads():
    doc = doc4({"S": BRIDGE_S, "N": ["0-0"]}, BRIDGE_ROADS + [R("N", 6, 4), BR("N", ("NS1", 1, 6), ("NS1", 1, 4))])
    illegal(doc, 7, roads.R_BRIDGE, at="/join/1/road")


def test_a_bridge_joins_own_roads_only():
    doc = doc4({"S": BRIDGE_S, "W": ["0-0"]}, BRIDGE_ROADS[:-1] + [R("W", 6, 4), BR("W", ("NS1", 1, 6), ("NS2", 1, 4))])
    illegal(doc, 6, roads.R_OWN, at="/join/0/road")


def test_a_road_is_joined_once():
    doc = json.loads((SAMPLES / "invalid" / "domino-roads" / "bridge-on-joined-road.json").read_text())
    illegal(doc, 12, roads.R_BRIDGE, at="/join/1/road")


def test_a_blocked_road_cannot_be_joined():
    doc = json.loads((SAMPLES / "invalid" / "domino-roads" / "bridge-on-blocked-road.json").read_text())
    illegal(doc, 8, roads.R_BRIDGE, at="/join/0/road")


def test_a_joined_road_is_at_most_ten_long():
    doc = json.loads((SAMPLES / "invalid" / "domino-roads" / "bridge-over-length-10.json").read_text())
    p = illegal(doc, 16, roads.R_LENGTH, at="/join")
    assert "11" in p.message


def test_spans_go_on_at_either_part_and_count_to_the_joined_length():
    doc = json.loads((VALID / "figure-4-bridge-total-10.json").read_text())
    _, state = state_of(doc)
    ns1, ns2 = state.roads["NS1"], state.roads["NS2"]
    assert ns1.length == ns2.length == 10 and len(ns1.spans) == 7 and len(ns2.spans) == 1


def test_spanning_past_ten_on_a_joined_road_is_refused():
    # NS1 (6 long) and NS2 (2 long) joined make 8: two more spans fit, a third does not.
    s_tiles = ["6-0", "6-6", "2-0", "4-4", "2-2", "4-1", "6-2", "4-6"]
    moves = [R("S", 3, 3)] + chain6("S", "NS1", 6) + [
        R("W", 1, 1), R("N", 5, 3), PASS("N"), ST("S", "6-2", "NS2", 2), SP("S", "4-6", "NS2"),
        R("E", 1, 1), R("S", 3, 4), PASS("S"), PASS("N"), R("W", 1, 1),
        R("N", 4, 6), BR("N", ("NS1", 1, 6), ("NS2", 1, 4)), SP("N", "6-5", "NS2"), SP("N", "5-5", "NS2")]
    doc = doc4({"S": s_tiles, "N": ["0-0", "6-5", "5-5", "5-5"]}, moves)
    _, state = state_of(ok(doc) and doc)
    assert state.roads["NS1"].length == 10
    index = len(moves)
    doc["hands"][0]["moves"].append(SP("N", "5-5", "NS2"))
    illegal(doc, index, roads.R_LENGTH, at="/road")


# --- road-blocks ---------------------------------------------------------------------------

# W starts EW1 = 3-4 | 3-5 (showing 5) with total 7.
BLOCK_ROADS = [R("S", 1, 1), R("W", 4, 3), ST("W", "3-4", "EW1", 4), SP("W", "3-5", "EW1"), PASS("W"), PASS("E")]
BLOCK_W = ["3-4", "3-5"]


def test_a_double_matching_the_exposed_number_blocks():
    doc = doc4({"W": BLOCK_W, "N": ["5-5"]}, BLOCK_ROADS + [R("N", 1, 2), BL("N", "5-5", "EW1")])
    _, state = state_of(ok(doc) and doc)
    assert state.roads["EW1"].blocked


def test_a_non_matching_double_does_not_block():
    doc = doc4({"W": BLOCK_W, "N": ["4-4"]}, BLOCK_ROADS + [R("N", 1, 2), BL("N", "4-4", "EW1")])
    illegal(doc, 7, roads.R_BLOCK_MATCH, at="/road")


def test_option_block_match_sum():
    doc = doc4({"W": BLOCK_W, "N": ["3-3"]}, BLOCK_ROADS + [R("N", 4, 4), BL("N", "3-3", "EW1")],
               options={"block_match": "sum"})
    ok(doc)
    doc["hands"][0]["moves"][-2] = R("N", 4, 5)
    illegal(doc, 7, roads.R_BLOCK_MATCH, at="/road")


def test_only_a_double_blocks():
    doc = doc4({"W": BLOCK_W, "N": ["5-4"]}, BLOCK_ROADS + [R("N", 1, 2), BL("N", "5-4", "EW1")])
    illegal(doc, 7, roads.R_BLOCK, at="/block")


def test_zero_zero_never_blocks():
    doc = doc4({"W": ["3-4", "4-0"], "N": ["0-0"]}, [R("S", 1, 1), R("W", 4, 3), ST("W", "3-4", "EW1", 3),
                                                       SP("W", "4-0", "EW1"), R("N", 1, 1), BL("N", "0-0", "EW1")])
    illegal(doc, 5, roads.R_ZERO, at="/block")


def test_a_block_goes_on_an_opponents_road():
    doc = doc4({"W": BLOCK_W + ["5-5"]}, BLOCK_ROADS[:-2] + [BL("W", "5-5", "EW1")])
    illegal(doc, 4, roads.R_BLOCK, at="/road")


def test_a_block_needs_a_span():
    doc = json.loads((SAMPLES / "invalid" / "domino-roads" / "block-on-length-1.json").read_text())
    illegal(doc, 3, roads.R_BLOCK, at="/road")


def test_a_full_road_cannot_be_blocked():
    doc = json.loads((SAMPLES / "invalid" / "domino-roads" / "block-on-length-10.json").read_text())
    illegal(doc, 18, roads.R_BLOCK, at="/road")


def test_a_double_span_cannot_be_blocked():
    doc = json.loads((SAMPLES / "invalid" / "domino-roads" / "block-on-double-span.json").read_text())
    illegal(doc, 4, roads.R_BLOCK, at="/road")


def test_a_road_takes_one_block_and_no_more_spans():
    doc = doc4({"W": BLOCK_W + ["5-2"], "N": ["5-5"], "S": ["5-5"]}, BLOCK_ROADS + [
        R("N", 1, 2), BL("N", "5-5", "EW1"), BL("S", "5-5", "EW1")])
    illegal(doc, 8, roads.R_BLOCK, at="/road")
    doc = doc4({"W": BLOCK_W + ["5-2"], "N": ["5-5"]}, BLOCK_ROADS + [
        R("N", 1, 2), BL("N", "5-5", "EW1"), R("E", 1, 1), R("S", 1, 1), R("W", 1, 1), SP("W", "5-2", "EW1")])
    p = illegal(doc, 11, roads.R_SPAN, at="/road")
    assert "blocked" in p.message


def test_a_joined_road_of_length_ten_cannot_be_blocked_at_a_shorter_part():
    # NS1 (6 long, showing 1 after its 4-1 span) is joined to NS2 (2 long); N then brings
    # NS2 to 3 and 4, so the joined road is 9 and then 10 long although NS1 itself stays 6.
    s_tiles = ["6-0", "6-6", "2-0", "4-4", "2-2", "4-1", "6-2", "4-6"]
    moves = [R("S", 3, 3)] + chain6("S", "NS1", 6) + [
        R("W", 1, 1), R("N", 5, 3), PASS("N"), ST("S", "6-2", "NS2", 2), SP("S", "4-6", "NS2"),
        R("E", 1, 1), R("S", 3, 4), PASS("S"), PASS("N"), R("W", 1, 1),
        R("N", 4, 6), BR("N", ("NS1", 1, 6), ("NS2", 1, 4)), SP("N", "6-5", "NS2")]
    fixed = {"S": s_tiles, "N": ["0-0", "6-5", "5-5"], "E": ["1-1"]}
    doc = doc4(fixed, moves + [R("E", 1, 2), BL("E", "1-1", "NS1")])
    _, state = state_of(ok(doc) and doc)  # length 9: the 1-1 matches NS1's 1 and blocks
    assert state.roads["NS1"].blocked and state.roads["NS2"].blocked
    doc = doc4(fixed, moves + [SP("N", "5-5", "NS2"), R("E", 1, 2), BL("E", "1-1", "NS1")])
    p = illegal(doc, len(moves) + 2, roads.R_BLOCK, at="/road")
    assert "length 10" in p.message


def test_blocking_either_part_of_a_joined_road_blocks_both():
    doc = doc4({"S": ["6-2", "4-6", "4-4", "4-0", "6-6"], "N": ["0-0"], "E": ["4-4"]}, [
        R("S", 5, 3), ST("S", "6-2", "NS1", 2), SP("S", "4-6", "NS1"), ST("S", "4-4", "NS2", 4),
        SP("S", "4-0", "NS2"), R("W", 1, 1), R("N", 6, 4), BR("N", ("NS1", 1, 6), ("NS2", 1, 4)),
        R("E", 2, 2), BL("E", "4-4", "NS1")])
    _, state = state_of(ok(doc) and doc)
    assert state.roads["NS1"].blocked and state.roads["NS2"].blocked
    assert state.roads["NS2"].value() == 35
    doc["hands"][0]["moves"] += [R("S", 3, 3), SP("S", "6-6", "NS2")]
    illegal(doc, 11, roads.R_SPAN, at="/road")


# --- hand end and scoring -----------------------------------------------------------------

def test_the_hand_ends_the_moment_a_stock_is_empty():
    doc = json.loads((VALID / "figure-3-total-5.json").read_text())
    _, state = state_of(doc)
    assert state.over and state.out_seat == "S"
    doc["hands"][0]["moves"].append(R("W", 2, 2))
    illegal(doc, 11, roads.R_END)


def test_an_unfinished_hand_is_reported_when_a_result_is_claimed():
    doc = doc4({"S": ["3-4"]}, [R("S", 4, 3)], result={"scores": {"NS": 0, "EW": 0}})
    report = check(doc)
    assert report.problems[0].kind == "unfinished"


def test_an_unfinished_last_hand_without_claims_is_a_game_in_progress():
    report = ok(doc4({"S": ["3-4"]}, [R("S", 4, 3)]))
    assert not report.finished


def test_three_players_go_out_with_tiles_left_in_the_pile():
    doc = json.loads((VALID / "three-players-pile-top-up.json").read_text())
    _, state = state_of(doc)
    assert state.over and state.out_seat == "P1"
    assert sum(len(p) for p in state.piles.values()) == 8  # P2 and P3 never drew


def test_abandoning_a_hand_is_refused_when_someone_can_still_go_out():
    doc = doc4({}, [R("S", 1, 1)], result={"end": "abandoned"})
    p = check(doc).problems[0]
    assert p.pointer == "/hands/0/result/end" and p.rule == roads.R_ABANDONED


def test_road_values_follow_the_table():
    assert roads.OPEN_VALUE[1:] == (10, 30, 50, 70, 90, 120, 150, 180, 210, 250)
    assert roads.BLOCKED_VALUE[2:10] == (15, 25, 35, 45, 60, 75, 90, 105)


def test_four_player_scoring_bonus_roads_and_both_sides_credited():
    doc = json.loads((VALID / "figure-2-spans-total-9.json").read_text())
    _, state = state_of(doc)
    out = state.outcome()
    e, w, s = (remaining(doc, x) for x in "EWS")
    ns = 50 + 70 + 90 + 30 + pips(e) + pips(w) + 100 * (e + w).count("0-0")
    ew = pips(s) + 100 * s.count("0-0")
    assert out.scores == {"NS": ns, "EW": ew}
    assert doc["hands"][0]["result"]["scores"] == out.scores


def test_a_joined_road_scores_once_at_its_combined_length():
    doc = json.loads((VALID / "figure-4-bridge-total-10.json").read_text())
    _, state = state_of(doc)
    e, w, n = (remaining(doc, x) for x in "EWN")
    assert state.outcome().scores["NS"] == 50 + 250 + pips(e) + pips(w) + 100 * (e + w).count("0-0")
    assert state.outcome().scores["EW"] == 10 + pips(n) + 100 * n.count("0-0")


def test_a_blocked_road_scores_half():
    doc = json.loads((VALID / "road-of-ten-and-road-block.json").read_text())
    _, state = state_of(doc, hand=1)
    n, s = remaining(doc, "N", 1), remaining(doc, "S", 1)
    assert n == []
    assert state.outcome().scores["EW"] == 15 + pips(s) + 100 * s.count("0-0")
    _, first = state_of(doc, hand=0)
    assert first.outcome().scores["NS"] - 50 - sum(
        pips(remaining(doc, x, 0)) + 100 * remaining(doc, x, 0).count("0-0") for x in "EW") == 250


def test_three_players_only_the_player_who_went_out_is_credited():
    doc = json.loads((VALID / "three-players-pile-top-up.json").read_text())
    _, state = state_of(doc)
    p2, p3 = remaining(doc, "P2"), remaining(doc, "P3")
    scores = state.outcome().scores
    assert scores["P1"] == 50 + 70 + 210 + pips(p2 + p3) + 100 * (p2 + p3).count("0-0")
    assert scores["P2"] == 0 and scores["P3"] == 10  # roads only: no credit for P1's stock


def test_three_players_credit_100_per_0_0_in_a_stock_but_not_in_a_pile():
    # P1 goes out on the first turn with total 7: six starters, three spans on the 4-3.
    p1 = ["6-1", "6-1", "5-2", "5-2", "4-3", "4-3", "4-4", "3-3", "4-0"]
    moves = [R("P1", 4, 3), ST("P1", "4-3", "P1-1", 3), SP("P1", "4-4", "P1-1"), SP("P1", "3-3", "P1-1"),
             SP("P1", "4-0", "P1-1"), ST("P1", "4-3", "P1-2", 4), ST("P1", "6-1", "P1-3", 6),
             ST("P1", "6-1", "P1-4", 1), ST("P1", "5-2", "P1-5", 5), ST("P1", "5-2", "P1-6", 2)]
    doc = doc3({"P1": p1, "P2": ["0-0"]}, {"P3": ["0-0"]}, moves)
    _, state = state_of(doc)
    assert state.over and state.out_seat == "P1"
    p2, p3 = remaining(doc, "P2"), remaining(doc, "P3")
    assert p2.count("0-0") == 1 and p3.count("0-0") == 0
    assert state.outcome().scores == {"P1": 50 + 70 + 5 * 10 + pips(p2 + p3) + 100, "P2": 0, "P3": 0}


def test_a_wrong_hand_claim_is_a_score_problem():
    doc = json.loads((VALID / "figure-3-total-5.json").read_text())
    doc["hands"][0]["result"]["scores"]["EW"] += 1
    report = check(doc)
    p = report.problems[0]
    assert p.kind == "score" and p.pointer == "/hands/0/result/scores/EW"
    assert p.computed == p.claimed - 1


# --- game end -------------------------------------------------------------------------------

def _finish_with_totals(doc: dict, totals: dict[str, int]):
    match, state = state_of(doc)
    match.totals.update(totals)
    match.finish_hand(state)
    return match


def test_four_players_play_to_2000_and_the_higher_total_wins():
    doc = json.loads((VALID / "figure-3-total-5.json").read_text())  # NS 470, EW 165
    assert not _finish_with_totals(doc, {"NS": 1000, "EW": 1000}).over
    m = _finish_with_totals(doc, {"NS": 1500, "EW": 1840})
    assert m.over and m.winner == "EW" and m.totals == {"NS": 1970, "EW": 2005}
    m = _finish_with_totals(doc, {"NS": 1600, "EW": 1840})
    assert m.over and m.winner == "NS" and m.totals == {"NS": 2070, "EW": 2005}


def test_a_tie_at_the_top_plays_another_hand():
    doc = json.loads((VALID / "figure-3-total-5.json").read_text())
    m = _finish_with_totals(doc, {"NS": 1700, "EW": 2005})
    assert m.totals == {"NS": 2170, "EW": 2170} and not m.over


def test_three_players_play_to_1000():
    doc = json.loads((VALID / "three-players-pile-top-up.json").read_text())  # P1 469, P2 0, P3 10
    assert not _finish_with_totals(doc, {"P1": 500}).over
    m = _finish_with_totals(doc, {"P1": 531, "P2": 990, "P3": 0})
    assert m.over and m.winner == "P1"
    m = _finish_with_totals(doc, {"P1": 531, "P2": 1000, "P3": 990})
    assert not m.over  # P1 and P2 tie at 1000


def test_a_whole_game_sample_ends_with_the_claimed_winner():
    for name in ("simulated-game-4-players.json", "simulated-game-3-players.json"):
        report = ok(json.loads((VALID / name).read_text()))
        assert report.finished and report.winner is not None


# --- simulate and explain --------------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 3])
def test_simulated_games_validate_and_show_every_kind_of_play(players):
    kinds = Counter()
    for record in simulate.simulate("domino-roads", 6, 11, players):
        report = validate(record)
        assert report.valid and report.finished, [p.text() for p in report.problems]
        for hand in record.hands:
            assert hand.result.end == "out"
            kinds.update(type(m).__name__ for m in hand.moves)
    assert {"Roll", "Reuse", "Starter", "Span", "Bridge", "Block"} <= set(kinds)


def test_simulated_roads_reach_length_ten():
    longest = 0
    for record in simulate.simulate("domino-roads", 10, 3, 4):
        match = games.engine("domino-roads").start(record)
        for hand in record.hands:
            state = match.start_hand(hand)
            for m in hand.moves:
                state.apply(m)
            longest = max([longest] + [r.length for r in state.roads.values()])
            match.finish_hand(state)
    assert longest == 10


def test_explain_shows_each_sides_roads_after_each_move():
    record = load_dict(json.loads((VALID / "figure-4-bridge-total-10.json").read_text()))
    lines, report = explain(record, 1)
    text = "\n".join(lines)
    assert report.valid
    assert "N bridges NS1 span 1 (6) and NS2 span 1 (4) with 0-0" in text
    assert "joined to NS2 by 0-0 at span 1 (6)" in text
    assert "EW roads:" in text and "0-0 shown face up" in text
    assert "NS scores 50 + 250 +" in text


def test_explain_three_players_shows_piles():
    record = load_dict(json.loads((VALID / "three-players-pile-top-up.json").read_text()))
    lines, _ = explain(record, 1)
    assert any(line.strip().startswith("pile P1 (top-up order): 4-1 5-1 5-3 3-3") for line in lines)


def test_engine_protocol_values():
    engine = games.engine("domino-roads")
    assert engine.player_counts({}) == (3, 4)
    assert engine.seats_for(3, {}) == ("P1", "P2", "P3")
    assert engine.seats_for(4, {}) == ("N", "E", "S", "W")
    assert engine.scores_moves is False and engine.defaults == {"block_match": "equal"}
