"""Competitive dominoes (docs/rules/competitive.md): one test per rule point, and property tests.

Records are built from the engine's own deals where possible so each test
states only the rule it is about.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domrec import simulate
from domrec.errors import ShapeError
from domrec.games import competitive
from domrec.games.competitive import lead_draw_winner
from domrec.reader import load_dict
from domrec.record import unstructure
from domrec.tiles import tile
from domrec.validate import validate, validate_text
from tests.conftest import SAMPLES, check, problem_at, state_before
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

SAMPLE_DIR = SAMPLES / "valid" / "competitive"


def sample(name: str) -> dict:
    return json.loads((SAMPLE_DIR / name).read_text())




def one_hand(hands: dict, moves: list, leader: str = "N", result=None, options=None) -> dict:
    doc = {"format": "domrec", "version": "1.0", "game": "competitive",
           "players": [{"seat": s, "name": s} for s in "NESW"],
           "hands": [{"leader": leader, "deal": {"hands": hands}, "moves": moves}]}
    if result is not None:
        doc["hands"][0]["result"] = result
    if options:
        doc["rules"] = {"options": options}
    return doc


# A hand built to block quickly: the 6s and 5s are split so that after a few
# plays nobody holds the numbers showing at the ends.
BLOCK_DEAL = {
    "N": ["6-6", "6-5", "5-5", "0-0", "1-0", "2-0", "3-0"],
    "W": ["6-4", "5-4", "4-4", "1-1", "2-1", "3-1", "4-0"],
    "S": ["6-3", "5-3", "3-3", "2-2", "3-2", "4-1", "5-0"],
    "E": ["6-2", "5-2", "4-2", "4-3", "5-1", "6-1", "6-0"],
}


# --- players and seats ---------------------------------------------------------

def test_three_players_are_rejected_naming_the_rule():
    doc = sample("domino.json")
    doc["players"].pop()
    report = check(doc)
    p = problem_at(report, "/players")
    assert p.rule == "competitive: four players"
    assert "three-player" in p.message and report.status == "invalid"


def test_seats_must_be_n_e_s_w():
    doc = sample("domino.json")
    doc["players"][1]["seat"] = "X"
    assert problem_at(check(doc), "/players").kind == "setup"


# --- the deal --------------------------------------------------------------------

def test_each_player_gets_seven():
    doc = sample("domino.json")
    doc["hands"][0]["deal"]["hands"]["W"].append("6-6")
    assert problem_at(check(doc), "/hands/0/deal/hands/W").rule == "competitive: the deal"


def test_a_tile_dealt_twice_is_caught():
    doc = sample("domino.json")
    deal = doc["hands"][0]["deal"]["hands"]
    deal["W"][0] = deal["N"][1]
    p = problem_at(check(doc), "/hands/0/deal/hands/W/0")
    assert "twice" in p.message


def test_a_tile_outside_the_double_six_set():
    doc = sample("domino.json")
    doc["hands"][0]["deal"]["hands"]["S"][2] = "9-1"
    assert "double-six" in problem_at(check(doc), "/hands/0/deal/hands/S/2").message


def test_reversed_tile_names_are_the_same_tile():
    doc = sample("domino.json")
    deal = doc["hands"][0]["deal"]["hands"]["N"]
    a, b = deal[0].split("-")
    deal[0] = f"{b}-{a}"
    assert check(doc).valid


def test_deal_naming_an_unknown_seat():
    doc = sample("domino.json")
    deal = doc["hands"][0]["deal"]["hands"]
    deal["X"] = deal.pop("W")
    assert check(doc).status == "invalid"
    assert any("X" in p.message for p in check(doc).problems)


# --- turn order and play ------------------------------------------------------------

def test_play_passes_to_the_right():
    state = _start(BLOCK_DEAL, "N")
    order = []
    for _ in range(4):
        order.append(state.to_move)
        state.apply(state.legal_moves()[0])
    assert order == ["N", "W", "S", "E"]


def test_wrong_seat_to_move():
    doc = sample("domino.json")
    doc["hands"][0]["moves"][1]["seat"] = "E"
    p = problem_at(check(doc), "/hands/0/moves/1/seat")
    assert p.rule == "competitive: turn order (to the right)" and "W's turn" in p.message


def test_the_leader_may_lead_any_tile():
    for t in BLOCK_DEAL["N"]:
        state = _start(BLOCK_DEAL, "N")
        state.apply(_play("N", t))
        assert state.to_move == "W"


def test_a_tile_must_match_an_end():
    doc = one_hand(BLOCK_DEAL, [{"seat": "N", "play": "6-6"}, {"seat": "W", "play": "5-4", "on": "6-6"}])
    p = problem_at(check(doc), "/hands/0/moves/1/on")
    assert p.rule == "competitive: matching an end"


def test_on_must_name_an_end_tile_the_line_never_branches():
    moves = [{"seat": "N", "play": "6-6"}, {"seat": "W", "play": "6-4", "on": "6-6"},
             {"seat": "S", "play": "6-3", "on": "6-6"}, {"seat": "E", "play": "4-2", "on": "6-4"},
             {"seat": "N", "play": "6-5", "on": "6-6"}]
    report = check(one_hand(BLOCK_DEAL, moves))
    p = problem_at(report, "/hands/0/moves/4/on")
    assert "not at an end" in p.message


def test_play_without_on_is_accepted_when_only_one_end_fits():
    moves = [{"seat": "N", "play": "6-6"}, {"seat": "W", "play": "6-4"}, {"seat": "S", "play": "6-3"},
             {"seat": "E", "play": "4-2"}]
    report = check(one_hand(BLOCK_DEAL, moves))
    assert report.valid and not report.finished


def test_playing_a_tile_not_held():
    doc = one_hand(BLOCK_DEAL, [{"seat": "N", "play": "6-4"}])
    p = problem_at(check(doc), "/hands/0/moves/0/play")
    assert p.rule == "competitive: playing from hand" and "W's hand" in p.message


def test_pass_while_able_is_illegal_and_names_a_fitting_tile():
    doc = one_hand(BLOCK_DEAL, [{"seat": "N", "play": "6-6"}, {"seat": "W", "pass": True}])
    p = problem_at(check(doc), "/hands/0/moves/1/pass")
    assert p.rule == "competitive: must play if able"
    assert "6-4 fits on 6-6" in p.message


def test_pass_when_unable_is_fine():
    state = _start(BLOCK_DEAL, "N")
    state.apply(_play("N", "0-0"))
    assert state.legal_moves()[0].play == "4-0"  # W has 4-0
    state.apply(state.legal_moves()[0])
    # S holds 5-0 only with a 0 or a 4: S can play 4-1 or 5-0
    assert all(m.seat == "S" for m in state.legal_moves())


def test_doubles_are_not_spinners():
    state = _start(BLOCK_DEAL, "N")
    state.apply(_play("N", "6-6"))
    state.apply(_play("W", "6-4", "6-6"))
    state.apply(_play("S", "6-3", "6-6"))
    # Both sides of 6-6 are taken: no tile can be set on 6-6 again.
    assert all(m.on != "6-6" for m in state.legal_moves() if hasattr(m, "on"))


# --- hand end and scoring -------------------------------------------------------------

def test_domino_scores_the_other_three_hands_35_point_example():
    doc = sample("domino-35.json")
    report = check(doc)
    assert report.valid
    assert report.scores == {"NS": 35, "EW": 0}
    state_hands = doc["hands"][0]
    assert state_hands["result"] == {"scores": {"NS": 35, "EW": 0}, "end": "out"}


def test_block_lower_side_scores_all_four_hands():
    report = check(sample("blocked.json"))
    assert report.valid and report.scores["EW"] == 84 and report.scores["NS"] == 0


def test_block_recomputed_from_the_holdings():
    doc = sample("blocked.json")
    state = _replay(doc)
    ns = sum(t.pips for s in "NS" for t in state.hands[s])
    ew = sum(t.pips for s in "EW" for t in state.hands[s])
    assert ns != ew
    out = state.outcome()
    low = "NS" if ns < ew else "EW"
    assert out.scores[low] == ns + ew and out.end == "blocked"


def test_tied_block_nobody_scores_and_same_leader_again():
    doc = sample("tied-block.json")
    state = _replay(doc)
    assert state.outcome().scores == {"NS": 0, "EW": 0}
    match = competitive.ENGINE.start(load_dict(doc))
    st = match.start_hand(load_dict(doc).hands[0])
    for m in load_dict(doc).hands[0].moves:
        st.apply(m)
    match.finish_hand(st)
    nxt = match.random_hand(random.Random(1))
    assert nxt.leader == doc["hands"][0]["leader"]


def test_closing_passes_of_a_block_may_be_written_but_not_more():
    doc = sample("blocked.json")
    moves = doc["hands"][0]["moves"]
    state = _replay(doc)
    seat = state.to_move
    order = [seat]
    for _ in range(4):
        order.append(competitive.base.seat_after(competitive.base.PARTNERSHIP_SEATS, order[-1], -1))
    with_passes = copy.deepcopy(doc)
    with_passes["hands"][0]["moves"] = moves + [{"seat": s, "pass": True} for s in order[:4]]
    assert check(with_passes).valid
    too_many = copy.deepcopy(doc)
    too_many["hands"][0]["moves"] = moves + [{"seat": s, "pass": True} for s in order[:5]]
    p = problem_at(check(too_many), f"/hands/0/moves/{len(moves) + 4}")
    assert "already over" in p.message


def test_moves_after_a_domino_are_rejected():
    doc = sample("domino.json")
    moves = doc["hands"][0]["moves"]
    moves.append({"seat": "W", "pass": True})
    p = problem_at(check(doc), f"/hands/0/moves/{len(moves) - 1}")
    assert "already over" in p.message


def test_a_move_claiming_points_is_checked():
    doc = sample("domino.json")
    doc["hands"][0]["moves"][0]["score"] = 5
    p = problem_at(check(doc), "/hands/0/moves/0/score")
    assert p.claimed == 5 and p.computed == 0 and p.kind == "score"


def test_wrong_end_claim():
    doc = sample("domino.json")
    doc["hands"][0]["result"]["end"] = "blocked"
    assert problem_at(check(doc), "/hands/0/result/end").computed == "out"


def test_score_mismatch_keeps_replaying():
    doc = sample("game-to-200.json")
    doc["hands"][0]["result"]["scores"]["NS"] += 7
    doc["hands"][2]["result"]["scores"]["EW"] += 1
    report = check(doc)
    assert {p.pointer for p in report.problems} == {"/hands/0/result/scores/NS", "/hands/2/result/scores/EW"}


# --- leaders -------------------------------------------------------------------------

def test_lead_draw_highest_total_then_higher_number():
    assert lead_draw_winner({"N": tile("4-3"), "E": tile("5-2"), "S": tile("1-0"), "W": tile("2-2")}) == "E"
    assert lead_draw_winner({"N": tile("6-6"), "E": tile("5-2"), "S": tile("1-0"), "W": tile("2-2")}) == "N"
    assert lead_draw_winner({"N": tile("3-3"), "E": tile("6-0"), "S": tile("4-2"), "W": tile("5-1")}) == "E"


def test_lead_draw_is_checked_against_the_leader():
    doc = sample("domino.json")
    doc["hands"][0]["deal"]["lead_draw"] = {"N": "1-0", "E": "6-5", "S": "2-2", "W": "3-0"}
    p = problem_at(check(doc), "/hands/0/leader")
    assert p.rule == "competitive: first leader (lead draw)" and "6-5" in p.message


def test_lead_draw_only_in_the_first_hand():
    doc = sample("game-to-200.json")
    doc["hands"][1]["deal"]["lead_draw"] = {"N": "1-0", "E": "6-5", "S": "2-2", "W": "3-0"}
    assert problem_at(check(doc), "/hands/1/deal/lead_draw")


def test_leader_rotates_to_the_right():
    doc = sample("game-to-200.json")
    leaders = [h["leader"] for h in doc["hands"]]
    for a, b in zip(leaders, leaders[1:]):
        assert b == competitive.base.seat_after(competitive.base.PARTNERSHIP_SEATS, a, -1)
    doc["hands"][1]["leader"] = leaders[0]
    assert problem_at(check(doc), "/hands/1/leader").rule == "competitive: next leader"


def test_first_lead_double_six_option():
    doc = sample("first-lead-double-six.json")
    assert check(doc).valid
    holder = next(s for s, ts in doc["hands"][0]["deal"]["hands"].items() if "6-6" in ts)
    assert doc["hands"][0]["leader"] == holder
    wrong = copy.deepcopy(doc)
    wrong["hands"][0]["leader"] = "N" if holder != "N" else "E"
    assert problem_at(check(wrong), "/hands/0/leader").rule == "competitive: first leader (lead draw)"


def test_first_lead_double_six_must_lead_the_six_six():
    deal = BLOCK_DEAL
    doc = one_hand(deal, [{"seat": "N", "play": "6-5"}], options={"first_lead": "double-six"})
    assert problem_at(check(doc), "/hands/0/moves/0/play").rule == "competitive: option first_lead"
    ok = one_hand(deal, [{"seat": "N", "play": "6-6"}], options={"first_lead": "double-six"})
    assert check(ok).valid


# --- redeal ---------------------------------------------------------------------------

def test_redeal_with_five_doubles_is_accepted_and_leader_unchanged():
    report = check(sample("redeal.json"))
    assert report.valid


def test_redeal_needs_five_doubles():
    doc = sample("redeal.json")
    old = doc["hands"][0]["deal"]["redeals"][0]["hands"]
    old["W"][0], old["N"][0] = old["N"][0], old["W"][0]
    assert problem_at(check(doc), "/hands/0/deal/redeals/0/seat").rule == "competitive: redeal"


# --- the game -------------------------------------------------------------------------

def test_game_ends_after_the_hand_reaching_200():
    doc = sample("game-to-200.json")
    report = check(doc)
    assert report.finished and max(report.scores.values()) >= 200
    assert report.winner == max(report.scores, key=report.scores.get)
    extra = copy.deepcopy(doc)
    extra["hands"].append(copy.deepcopy(doc["hands"][0]))
    p = problem_at(check(extra), f"/hands/{len(doc['hands'])}")
    assert "already over" in p.message


def test_result_claimed_before_the_game_is_over():
    doc = sample("domino.json")
    doc["result"] = {"scores": {"NS": 23, "EW": 0}, "winner": "NS"}
    assert problem_at(check(doc), "/result").kind == "unfinished"


def test_equal_totals_at_the_end_are_a_draw():
    match = competitive.ENGINE.start(load_dict(sample("domino.json")))
    match.totals = {"NS": 190, "EW": 190}

    class Fake:
        def outcome(self):
            return competitive.HandOutcome("out", {"NS": 10, "EW": 10})
    match.finish_hand(Fake())
    assert match.over and match.winner is None


def test_winner_claim_checked():
    doc = sample("game-to-200.json")
    doc["result"]["winner"] = None
    assert problem_at(check(doc), "/result/winner").computed == "EW"


def test_unfinished_hand_in_the_middle_is_reported():
    doc = sample("game-to-200.json")
    doc["hands"][0]["moves"] = doc["hands"][0]["moves"][:5]
    assert problem_at(check(doc), "/hands/0/moves").kind == "unfinished"


# --- property tests ----------------------------------------------------------------------

def _start(hands: dict, leader: str):
    doc = one_hand(hands, [], leader)
    rec = load_dict(doc)
    return competitive.ENGINE.start(rec).start_hand(rec.hands[0])


def _play(seat, t, on=None):
    from domrec.record import Play
    return Play(seat=seat, play=t, on=on)


def _replay(doc):
    rec = load_dict(doc)
    state = competitive.ENGINE.start(rec).start_hand(rec.hands[0])
    for m in rec.hands[0].moves:
        state.apply(m)
    return state


settings.register_profile("domrec", deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _game(seed: int, first_lead: str = "any") -> dict:
    options = {"first_lead": first_lead} if first_lead != "any" else None
    rec = next(made_once.simulate("competitive", 1, seed, options=options))
    return json.loads(simulate.dumps(rec))


@PROPS
@given(st.integers(0, 10 ** 6), st.sampled_from(["any", "double-six"]))
def test_every_simulated_game_validates(seed, first_lead):
    doc = _game(seed, first_lead)
    report = validate_text(json.dumps(doc))
    assert report.valid and report.finished, [p.text() for p in report.problems]
    assert report.scores == doc["result"]["scores"]


@st.composite
def game_and_move(draw):
    doc = _game(draw(st.integers(0, 10 ** 6)))
    i = draw(st.integers(0, len(doc["hands"]) - 1))
    plays = [j for j, m in enumerate(doc["hands"][i]["moves"]) if "play" in m]
    j = draw(st.sampled_from(plays))
    return doc, i, j


def _first_problem(doc):
    report = validate_text(json.dumps(doc))
    assert not report.valid
    return report.problems[0]


@PROPS
@given(game_and_move(), st.data())
def test_a_tile_not_in_hand_is_caught_at_its_move(gm, data):
    doc, i, j = gm
    state = state_before(doc, i, j)
    seat = doc["hands"][i]["moves"][j]["seat"]
    others = [str(t) for t in competitive.T.DOUBLE_SIX if t not in state.hands[seat]]
    doc["hands"][i]["moves"][j]["play"] = data.draw(st.sampled_from(others))
    assert _first_problem(doc).pointer == f"/hands/{i}/moves/{j}/play"


@PROPS
@given(game_and_move(), st.data())
def test_a_move_by_the_wrong_seat_is_caught_at_its_seat(gm, data):
    doc, i, j = gm
    move = doc["hands"][i]["moves"][j]
    move["seat"] = data.draw(st.sampled_from([s for s in "NESW" if s != move["seat"]]))
    p = _first_problem(doc)
    assert p.pointer == f"/hands/{i}/moves/{j}/seat" and p.move == j + 1 and p.hand == i + 1


@PROPS
@given(game_and_move())
def test_a_pass_while_able_is_caught_at_its_move(gm):
    doc, i, j = gm
    seat = doc["hands"][i]["moves"][j]["seat"]
    doc["hands"][i]["moves"][j] = {"seat": seat, "pass": True}
    p = _first_problem(doc)
    assert p.pointer == f"/hands/{i}/moves/{j}/pass"
    assert p.rule == "competitive: must play if able"


@PROPS
@given(game_and_move(), st.data())
def test_a_play_on_a_non_matching_end_is_caught_at_its_move(gm, data):
    doc, i, j = gm
    move = doc["hands"][i]["moves"][j]
    assume("on" in move)
    state = state_before(doc, i, j)
    played = tile(move["play"])
    wrong = [str(t) for t in competitive.T.DOUBLE_SIX
             if not any(end[0] is t and played.has(end[1]) for end in (state.left, state.right))]
    move["on"] = data.draw(st.sampled_from(wrong))
    p = _first_problem(doc)
    assert p.pointer == f"/hands/{i}/moves/{j}/on" and p.rule == "competitive: matching an end"


@PROPS
@given(st.integers(0, 10 ** 6), st.data())
def test_a_wrong_hand_score_is_caught_where_claimed(seed, data):
    doc = _game(seed)
    i = data.draw(st.integers(0, len(doc["hands"]) - 1))
    side = data.draw(st.sampled_from(["NS", "EW"]))
    doc["hands"][i]["result"]["scores"][side] += data.draw(st.sampled_from([-5, -1, 1, 10]))
    report = validate_text(json.dumps(doc))
    assert [p.pointer for p in report.problems] == [f"/hands/{i}/result/scores/{side}"]


@PROPS
@given(st.integers(0, 10 ** 6), st.sampled_from(["NS", "EW", None]))
def test_a_wrong_winner_is_caught(seed, claim):
    doc = _game(seed)
    assume(doc["result"]["winner"] != claim)
    doc["result"]["winner"] = claim
    report = validate_text(json.dumps(doc))
    assert [p.pointer for p in report.problems] == ["/result/winner"]


def test_simulation_is_reproducible():
    a = [simulate.dumps(r) for r in simulate.simulate("competitive", 3, 42)]
    b = [simulate.dumps(r) for r in simulate.simulate("competitive", 3, 42)]
    c = [simulate.dumps(r) for r in simulate.simulate("competitive", 3, 43)]
    assert a == b and a != c


# --- audit: thresholds, ambiguity, the lead draw, who leads --------------------------------

def _finish_with(totals: dict, scores: dict):
    match = competitive.ENGINE.start(load_dict(sample("domino.json")))
    match.totals = dict(totals)

    class Fake:
        def outcome(self):
            return competitive.HandOutcome("out", dict(scores))
    match.finish_hand(Fake())
    return match


def test_the_game_ends_at_200_exactly_not_before():
    assert not _finish_with({"NS": 0, "EW": 190}, {"NS": 0, "EW": 9}).over  # 199 plays on
    match = _finish_with({"NS": 0, "EW": 190}, {"NS": 0, "EW": 10})
    assert match.over and match.winner == "EW"


def test_a_tile_fitting_both_ends_needs_on():
    moves = [{"seat": "N", "play": "6-6"}, {"seat": "W", "play": "6-4", "on": "6-6"},
             {"seat": "S", "play": "6-3", "on": "6-6"}, {"seat": "E", "play": "4-3"}]
    p = problem_at(check(one_hand(BLOCK_DEAL, moves)), "/hands/0/moves/3/on")
    assert p.rule == "competitive: matching an end" and "fits both ends" in p.message
    moves[3]["on"] = "6-3"
    state = _replay(one_hand(BLOCK_DEAL, moves))
    assert state.right[0] == tile("4-3") or state.left[0] == tile("4-3")
    assert {state.left[1], state.right[1]} == {4}


def test_a_tile_drawn_twice_in_the_lead_draw():
    doc = sample("domino.json")
    doc["hands"][0]["deal"]["lead_draw"] = {"N": "6-5", "E": "5-6", "S": "2-2", "W": "3-0"}
    p = problem_at(check(doc), "/hands/0/deal/lead_draw/E")
    assert p.rule == "competitive: first leader (lead draw)" and "twice" in p.message


def test_a_lead_draw_is_checked_under_first_lead_double_six_too():
    doc = sample("first-lead-double-six.json")
    doc["hands"][0]["deal"]["lead_draw"] = {"N": "6-5", "E": "1-0", "S": "2-2", "W": "9-9"}
    p = problem_at(check(doc), "/hands/0/deal/lead_draw/W")
    assert "double-six" in p.message


def test_a_first_move_by_a_stranger_is_reported_at_that_move_not_at_a_missing_leader():
    doc = sample("domino.json")
    del doc["hands"][0]["leader"]
    doc["hands"][0]["moves"][0]["seat"] = "X"
    p = problem_at(check(doc), "/hands/0/moves/0/seat")
    assert "X is not a seat" in p.message


def test_a_lead_by_the_wrong_seat_names_the_leader_rule_and_why():
    doc = sample("game-to-200.json")
    del doc["hands"][1]["leader"]  # W led hand 1, so S leads hand 2
    doc["hands"][1]["moves"][0]["seat"] = "N"
    p = problem_at(check(doc), "/hands/1/moves/0/seat")
    assert p.rule == "competitive: next leader"
    assert "N cannot lead this hand" in p.message and "to S" in p.message
    doc = sample("domino.json")
    del doc["hands"][0]["leader"]
    doc["hands"][0]["deal"]["lead_draw"] = {"N": "1-0", "E": "2-0", "S": "2-2", "W": "6-5"}
    p = problem_at(check(doc), "/hands/0/moves/0/seat")
    assert p.rule == "competitive: first leader (lead draw)"
    assert "N cannot lead this hand" in p.message and "W drew 6-5" in p.message


def test_a_lead_by_another_seat_than_the_named_free_leader():
    doc = sample("domino.json")  # hand 1 without a lead draw: the record's leader N is free
    doc["hands"][0]["moves"][0]["seat"] = "E"
    p = problem_at(check(doc), "/hands/0/moves/0/seat")
    assert "E cannot lead this hand: the record names N" in p.message


class _BlockWatcher:
    """After every move of a known deal, the block test read from the per-number counts of held
    tiles (kept for speed) against a walk over every tile the four players still hold."""

    def __init__(self) -> None:
        self.checked = 0

    def hand_started(self, index, hand, state) -> None:
        pass

    def moved(self, index, move, points, state) -> None:
        if state.left is None or state.open:
            return
        lp, rp = state.left[1], state.right[1]
        walked = not any(t.has(lp) or t.has(rp) for h in state.hands.values() for t in h)
        assert state._blocked() == walked
        self.checked += 1

    def hand_finished(self, index, outcome, match) -> None:
        pass


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_the_block_found_from_counts_is_the_block_found_by_looking_at_every_hand(seed):
    record = next(made_once.simulate("competitive", 1, seed, accidents=False))
    watcher = _BlockWatcher()
    report = validate(load_dict(unstructure(record)), observer=watcher)
    assert report.valid
    assert watcher.checked > 0


# --- the replay's shortcuts refuse what the careful checks refuse, with their words ------------
# (The deal is read by adding up its tiles' bits, a play by table look-ups and the line's two
# ends; each kind of fault those shortcuts pass on is checked here with its message.)

def _domino_with(change) -> dict:
    doc = sample("domino.json")
    change(doc["hands"][0])
    return doc


@pytest.mark.parametrize("change, pointer, message", [
    (lambda h: h["deal"]["hands"]["E"].__setitem__(0, "6-3"), "/hands/0/deal/hands/E/0",
     "6-3 is dealt twice (N has it too); the set has one of each tile"),
    (lambda h: h["deal"]["hands"]["N"].append(h["deal"]["hands"]["W"].pop()), "/hands/0/deal/hands/N",
     "N was dealt 8 tiles; each player gets 7"),
    (lambda h: h["deal"]["hands"]["N"].__setitem__(0, "7-1"), "/hands/0/deal/hands/N/0",
     "7-1 is not a tile of the double-six set"),
    (lambda h: h["moves"][2].__setitem__("on", "6-6"), "/hands/0/moves/2/on",
     "6-6 is not at an end of the line (the ends are 6-5 showing 6 and 5-2 showing 2)"),
    (lambda h: h["moves"][2].__setitem__("on", "6-5"), "/hands/0/moves/2/on",
     "4-2 does not match 6-5: that end shows 6"),
    (lambda h: h["moves"][2].update(play="3-1", on=None) or h["moves"][2].pop("on"), "/hands/0/moves/2/play",
     "3-1 fits neither end of the line (6 on 6-5, 2 on 5-2)"),
    (lambda h: h["moves"][2].__setitem__("play", "0-0"), "/hands/0/moves/2/play",
     "S does not hold 0-0 (it is in W's hand)"),
])
def test_a_faulty_deal_or_play_is_refused_in_the_careful_checks_words(change, pointer, message):
    p = problem_at(check(_domino_with(change)), pointer)
    assert p.message == message


def test_a_deal_spelled_with_leading_zeros_is_refused():
    """One spelling a tile: "06-03" is not read as 6-3 (two programs must read a record one way)."""
    doc = _domino_with(lambda h: h["deal"]["hands"]["N"].__setitem__(0, "06-03"))
    with pytest.raises(ShapeError, match="a number has no leading zero"):  # refused as the record is read
        check(doc)


def test_a_play_without_on_that_fits_one_end_is_set_there():
    doc = _domino_with(lambda h: h["moves"][2].pop("on"))
    assert check(doc).valid


def test_a_play_after_a_block_is_refused_as_the_hand_is_over():
    doc = sample("blocked.json")
    moves = doc["hands"][0]["moves"]
    moves.append({"seat": "N", "play": "0-0"})
    p = problem_at(check(doc), f"/hands/0/moves/{len(moves) - 1}")
    assert p.message == "the hand is already over: nobody can play (blocked)"


class _LineWatcher:
    """After every move, the line (worked out for pictures from the tiles laid each side of the
    lead) against the ends the replay keeps and the tiles still held."""

    def __init__(self) -> None:
        self.checked = 0

    def hand_started(self, index, hand, state) -> None:
        pass

    def moved(self, index, move, points, state) -> None:
        line = state.line
        if state.left is None:
            assert line == []
            return
        assert (line[0][0], line[-1][1]) == (state.left[1], state.right[1])
        assert all(a[1] == b[0] for a, b in zip(line, line[1:]))  # each tile joins the number before it
        laid = {competitive.T.make(a, b) for a, b in line}
        held = {t for h in state.hands.values() for t in h}
        assert len(laid) == len(line) and laid | held == set(competitive.T.DOUBLE_SIX) and not laid & held
        self.checked += 1

    def hand_finished(self, index, outcome, match) -> None:
        pass


def test_the_line_agrees_with_the_ends_and_the_tiles_held_after_every_move():
    for record in made_once.simulate("competitive", 3, 4, accidents=False):
        watcher = _LineWatcher()
        assert validate(load_dict(unstructure(record)), observer=watcher).valid
        assert watcher.checked
