"""Horse Race (docs/rules/horse-race.md): one test per rule point, and property tests.

Most rule tests replay a two-player deal (``DEAL_A``) whose opening was worked
out by hand; the expected counts and scores in the tests are that hand
arithmetic, not the engine's output.  The opening:

  1. P1 leads 5-5: the spinner counts 10 -> pegs 2; a double, so P1 goes on.
  2. P1 5-0 on 5-5 (a side): 5-5 still has a free side, 10 + 0 = 10 -> 2; goes on.
  3. P1 2-0 on 5-0: 10 + 2 = 12, neither scores nor a double: the turn ends.
  4. P2 5-3 on 5-5 (its last side): 5-5 stops counting, 3 + 2 = 5 -> 1; goes on.
  5. P2 5-1 on 5-5 (an end, now open): 3 + 2 + 1 = 6: the turn ends.
  6. P1 3-2 on 5-3: 2 + 2 + 1 = 5 -> 1; goes on.
  7. P1 1-1 on 5-1: a joined spinner, 2 + 2 + 2 = 6; a double, goes on.
  8. P1 holds 6-4 and 6-6, neither fits: draws 5-4 (the boneyard's first tile).
  9. P1 5-4 on 5-5's other end: 2 + 2 + 2 + 4 = 10 -> 2; a drawn tile ends the turn.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domrec import games, simulate
from domrec.errors import ShapeError
from domrec.explain import explain
from domrec.games import horserace as H
from domrec.reader import load_dict
from domrec.record import unstructure
from domrec.tiles import DOUBLE_SIX, tile
from domrec.validate import validate, validate_text
from tests.conftest import SAMPLES
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

VALID_DIR = SAMPLES / "valid" / "horse-race"

DEAL_A = {"P1": ["5-5", "5-0", "6-4", "3-2", "1-1", "2-0", "6-6"],
          "P2": ["5-3", "5-1", "4-4", "3-3", "0-0", "6-2", "4-1"]}
BONE_A = ["5-4", "6-3", "6-0", "6-5", "6-1", "5-2", "4-3", "4-2", "4-0", "3-1", "3-0", "2-2", "2-1", "1-0"]
OPENING = ["P1 5-5 =2", "P1 5-0 on 5-5 =2", "P1 2-0 on 5-0 =0", "P2 5-3 on 5-5 =1", "P2 5-1 on 5-5 =0",
           "P1 3-2 on 5-3 =1", "P1 1-1 on 5-1 =0", "P1 draw", "P1 5-4 on 5-5 =2"]


# --- helpers -------------------------------------------------------------------------

def mv(text: str) -> dict:
    """``"P2 5-3 on 5-5 =1"``, ``"P1 draw 2-0"``, ``"P1 draw"`` (true), ``"P2 pass"`` as move dicts."""
    parts = text.split()
    score = None
    if parts[-1].startswith("="):
        score = int(parts.pop()[1:])
    seat, what = parts[0], parts[1]
    if what == "pass":
        move: dict = {"seat": seat, "pass": True}
    elif what == "draw":
        move = {"seat": seat, "draw": parts[2] if len(parts) > 2 else True}
    else:
        move = {"seat": seat, "play": what}
        if len(parts) > 3 and parts[2] == "on":
            move["on"] = parts[3]
    if score is not None:
        move["score"] = score
    return move


def record(moves: list[str], deal: dict | None = None, boneyard: list[str] | None = BONE_A,
           leader: str | None = "P1", options: dict | None = None, variant: str | None = None,
           seats: tuple[str, ...] = ("P1", "P2")) -> dict:
    hand: dict = {"deal": {"hands": copy.deepcopy(deal or DEAL_A)}, "moves": [mv(m) for m in moves]}
    if boneyard is not None:
        hand["deal"]["boneyard"] = list(boneyard)
    if leader is not None:
        hand["leader"] = leader
    doc: dict = {"format": "domrec", "version": "1.0", "game": "horse-race",
                 "players": [{"seat": s, "name": s} for s in seats], "hands": [hand]}
    if options or variant:
        doc["rules"] = {}
        if variant:
            doc["rules"]["variant"] = variant
        if options:
            doc["rules"]["options"] = options
    return doc


def check(doc: dict):
    return validate(load_dict(doc))


def sample(name: str) -> dict:
    return json.loads((VALID_DIR / name).read_text())


def problem_at(report, pointer: str):
    found = [p for p in report.problems if p.pointer == pointer]
    assert found, [p.text() for p in report.problems]
    return found[0]


def first_problem(report):
    assert report.problems, "expected a problem"
    return report.problems[0]


def replay(doc: dict, upto: tuple[int, int] | None = None):
    """The engine's match and hand state after the record's moves (or before move ``upto``)."""
    rec = load_dict(doc)
    match = games.engine("horse-race").start(rec)
    state = None
    for i, hand in enumerate(rec.hands):
        state = match.start_hand(hand)
        for j, move in enumerate(hand.moves):
            if upto is not None and (i, j) == upto:
                return match, state
            state.apply(move)
        if upto is not None and i < upto[0]:
            match.finish_hand(state)
    return match, state


R = "horse-race: "


# --- players, seats, options ------------------------------------------------------------

@pytest.mark.parametrize("players,size", [(2, 7), (3, 6), (4, 5)])
def test_two_three_and_four_players_are_dealt_7_6_5(players, size):
    doc = unstructure(next(made_once.simulate("horse-race", 1, 3, players)))
    for hand in doc["hands"]:
        assert all(len(tiles) == size for tiles in hand["deal"]["hands"].values())
        assert len(hand["deal"]["boneyard"]) == 28 - players * size
    assert validate_text(json.dumps(doc)).valid


@pytest.mark.parametrize("n", [1, 5])
def test_other_player_counts_are_rejected(n):
    doc = record([], seats=tuple(f"P{i + 1}" for i in range(n)))
    p = problem_at(check(doc), "/players")
    assert p.rule == R + "two, three or four players" and p.kind == "setup"


def test_partnerships_need_four_players_seated_n_e_s_w():
    doc = record([], options={"partnerships": True}, seats=("P1", "P2", "P3", "P4"))
    assert problem_at(check(doc), "/players").kind == "setup"
    doc = record([], options={"partnerships": True}, seats=("N", "E", "S"))
    assert problem_at(check(doc), "/players").rule == R + "partnerships (option partnerships)"


def _ignored_note(report) -> str:
    assert report.note is not None, "the report should say the option was ignored"
    return report.note


def test_count_partner_without_partnerships_is_accepted_ignored_and_noted():
    """Ruling (issue 13): an option without effect is accepted and ignored, and the note says so."""
    doc = sample("celko-game.json")  # three players alone
    plain = check(doc)
    doc["rules"].setdefault("options", {})["count_partner"] = True
    report = check(doc)
    assert report.valid and report.scores == plain.scores and report.winner == plain.winner
    note = _ignored_note(report)
    assert "count_partner" in note and "without partnerships" in note and "ignored" in note
    assert R + "option count_partner" in note
    assert report.to_dict()["note"] == note


def test_count_partner_in_celko_partnerships_is_accepted_ignored_and_noted():
    doc = sample("partnership-game.json")
    doc["rules"] = {"variant": "celko", "options": {"partnerships": True, "count_partner": True}}
    with_option = check(doc)
    doc["rules"]["options"].pop("count_partner")
    without = check(doc)
    assert [p.text() for p in with_option.problems] == [p.text() for p in without.problems]
    assert with_option.scores == without.scores
    assert "celko" in _ignored_note(with_option) and "count_partner" in with_option.note
    assert without.note is None or "count_partner" not in without.note


def test_an_option_left_at_its_default_or_with_effect_is_not_noted():
    doc = sample("celko-game.json")
    doc["rules"].setdefault("options", {})["count_partner"] = False
    assert check(doc).note is None
    doc = sample("partnership-game.json")
    doc["rules"]["options"]["count_partner"] = False
    assert check(doc).note is None


def test_an_ignored_option_with_a_wrong_value_is_still_refused():
    report = validate_text(json.dumps(record([], options={"count_partner": "yes"})))
    assert report.status == "unusable"
    assert report.problems[0].pointer == "/rules/options/count_partner"
    assert "must be true or false" in report.problems[0].message


def test_ignored_options_resolve_like_the_default():
    """Two option sets that play the same game compare equal once resolved (the tournament relies on it)."""
    from domrec.games.base import effective_options
    engine = games.engine("horse-race")
    assert effective_options(engine, None, {"count_partner": True}) == effective_options(engine, None, None)
    assert (effective_options(engine, "celko", {"partnerships": True, "count_partner": True})
            == effective_options(engine, "celko", {"partnerships": True}))
    assert effective_options(engine, None, {"partnerships": True, "count_partner": True})["count_partner"] is True


def test_an_ignored_option_is_noted_in_the_command_line_report(tmp_path):
    from typer.testing import CliRunner

    from domrec.cli import app
    doc = sample("celko-game.json")
    doc["rules"].setdefault("options", {})["count_partner"] = True
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc))
    r = CliRunner().invoke(app, ["validate", str(path)])
    assert r.exit_code == 0
    assert "  note: rule option count_partner: true has no effect" in r.stdout
    r = CliRunner().invoke(app, ["validate", "--json", str(path)])
    assert r.exit_code == 0 and "count_partner" in json.loads(r.stdout)["note"]


def test_seats_and_player_counts_follow_the_partnership_option():
    engine = games.engine("horse-race")
    assert engine.player_counts({"partnerships": False}) == (2, 3, 4)
    assert engine.player_counts({"partnerships": True}) == (4,)
    assert engine.seats_for(3, {"partnerships": False}) == ("P1", "P2", "P3")
    assert engine.seats_for(4, {"partnerships": True}) == ("N", "E", "S", "W")


def test_without_partnerships_seats_are_labels_and_each_seat_is_a_side():
    doc = json.loads(json.dumps(sample("chain-of-three.json")).replace('"P', '"Q'))
    report = check(doc)
    assert report.valid, [p.text() for p in report.problems]
    assert set(report.scores) == {"Q1", "Q2", "Q3", "Q4"} and report.scores["Q4"] == 20


def test_two_players_with_the_same_seat_are_rejected():
    p = first_problem(check(record([], seats=("P1", "P1"))))
    assert p.pointer == "/players/1/seat"


# --- the deal -----------------------------------------------------------------------------

def test_a_hand_of_the_wrong_size_is_rejected():
    deal = copy.deepcopy(DEAL_A)
    deal["P1"].pop()
    p = problem_at(check(record(OPENING[:1], deal=deal)), "/hands/0/deal/hands/P1")
    assert p.rule == R + "the deal" and "each gets 7" in p.message


def test_the_boneyard_must_be_exactly_the_undealt_tiles():
    p = problem_at(check(record(OPENING[:1], boneyard=BONE_A[:-1])), "/hands/0/deal/boneyard")
    assert p.rule == R + "the boneyard (draw order)" and "1-0" in p.message


def test_a_tile_dealt_twice_is_rejected_where_it_repeats():
    bone = list(BONE_A)
    bone[3] = "5-5"
    report = check(record(OPENING[:1], boneyard=bone))
    assert "dealt twice" in problem_at(report, "/hands/0/deal/boneyard/3").message


def test_a_tile_outside_the_double_six_set_is_rejected():
    deal = copy.deepcopy(DEAL_A)
    deal["P2"][0] = "7-3"
    p = problem_at(check(record([], deal=deal, boneyard=None)), "/hands/0/deal/hands/P2/0")
    assert "double-six" in p.message


# --- the lead -----------------------------------------------------------------------------

def test_first_hand_leader_is_by_lot_and_the_record_names_it():
    assert check(record(["P2 4-1"], leader="P2")).valid
    p = problem_at(check(record(["P2 4-1"], leader="P1")), "/hands/0/moves/0/seat")
    assert p.rule == R + "lead"


def test_without_a_named_leader_the_first_move_leads():
    assert check(record(["P2 4-1"], leader=None)).valid


def test_the_lead_may_be_any_tile_but_is_set_on_nothing():
    assert check(record(["P1 6-4 =2"])).valid
    p = problem_at(check(record(["P1 6-4 on 5-5"])), "/hands/0/moves/0/on")
    assert p.rule == R + "layout (matching an open end)"
    assert problem_at(check(record(["P1 pass"])), "/hands/0/moves/0/pass").rule == R + "lead"
    assert problem_at(check(record(["P1 draw"])), "/hands/0/moves/0/draw").rule == R + "lead"


def test_the_player_who_dominoed_leads_the_next_hand():
    doc = sample("partnership-game.json")
    assert doc["hands"][1]["leader"] == "S"
    del doc["hands"][1]["leader"]
    assert check(doc).valid
    doc["hands"][1]["moves"][0]["seat"] = "N"
    p = problem_at(check(doc), "/hands/1/moves/0/seat")
    assert p.rule == R + "lead" and "S dominoed" in p.message


def test_after_a_blocked_hand_the_lead_is_by_lot_again():
    doc = sample("blocked-tied-lowest.json")
    second = {"leader": "P2", "deal": copy.deepcopy(doc["hands"][0]["deal"]), "moves": [mv("P2 6-0")]}
    doc["hands"].append(second)
    assert check(doc).valid
    second["leader"] = "P4"
    second["moves"] = [mv("P4 6-6")]
    assert check(doc).valid


# --- the layout: matching, spinners, sides before ends -------------------------------------

def test_a_non_double_joins_an_open_end_with_its_matching_half():
    _, state = replay(record(OPENING[:3]))
    assert state.count == 12  # spinner 10 + the 2 of 2-0 (joined on its 0)
    p = problem_at(check(record(OPENING[:3] + ["P2 6-2 on 5-0"])), "/hands/0/moves/3/on")
    assert p.rule == R + "layout (matching an open end)" and "already covered" in p.message
    p = problem_at(check(record(OPENING[:3] + ["P2 4-1 on 2-0"])), "/hands/0/moves/3/on")
    assert "its open end shows 2" in p.message


def test_first_tile_on_a_led_double_takes_a_side_and_the_double_still_counts():
    _, state = replay(record(OPENING[:2]))
    assert state.lead.sides_free == 1 and state.count == 10


def test_both_sides_taken_the_double_counts_nothing_and_its_ends_open():
    _, state = replay(record(OPENING[:4]))
    assert state.lead.sides_free == 0 and state.lead.ends_free == 2
    assert state.count == 5  # 3 (5-3) + 2 (2-0); 5-5 counts nothing


def test_a_spinner_end_starts_a_new_arm_and_its_tile_counts():
    _, state = replay(record(OPENING[:5]))
    assert state.count == 6
    assert any("5-5 end: 5-1" in line for line in state.render())


def test_a_spinner_takes_four_arms_and_no_more():
    _, state = replay(record(OPENING))
    assert (state.lead.sides_free, state.lead.ends_free) == (0, 0)
    p = problem_at(check(record(OPENING + ["P2 6-2 on 5-5"])), "/hands/0/moves/9/on")
    assert "no free side or end" in p.message


def test_a_joined_double_has_one_free_side_then_two_ends():
    _, state = replay(record(OPENING[:7]))
    spinner = state.nodes[tile("1-1")]
    assert (spinner.sides_free, spinner.ends_free) == (1, 2) and state.count == 6
    # Later 4-1 on 1-1 takes its only free side: 1-1 stops counting and its ends open.
    doc = record(OPENING[:7] + ["P1 draw", "P1 5-4 on 5-5 =2", "P2 4-1 on 1-1 =0"])
    _, state = replay(doc)
    spinner = state.nodes[tile("1-1")]
    assert (spinner.sides_free, spinner.ends_free) == (0, 2)
    assert state.count == 12  # 2 (3-2) + 2 (2-0) + 4 (4-1) + 4 (5-4); 1-1 counts nothing


def test_a_tile_claimed_as_if_on_a_spinner_end_while_a_side_is_free_is_illegal():
    # 5-3 takes 5-5's last side (count 5, scores 1); on an end 5-5 would still count: 15, scores 3.
    p = problem_at(check(record(OPENING[:3] + ["P2 5-3 on 5-5 =3"])), "/hands/0/moves/3/score")
    assert p.rule == R + "layout (a spinner's sides before its ends)"
    # A claim that is merely wrong stays a score error.
    report = check(record(OPENING[:3] + ["P2 5-3 on 5-5 =2"]))
    assert problem_at(report, "/hands/0/moves/3/score").kind == "score"


def test_on_may_be_left_out_only_when_the_tile_fits_one_tile():
    assert check(record(OPENING[:3] + ["P2 5-3 =1"])).valid
    p = problem_at(check(record(OPENING + ["P2 6-2"])), "/hands/0/moves/9/on")
    assert "say which" in p.message and "3-2" in p.message and "2-0" in p.message


def test_playing_on_a_tile_not_on_the_table_is_rejected():
    p = problem_at(check(record(OPENING[:3] + ["P2 5-3 on 3-3"])), "/hands/0/moves/3/on")
    assert "not on the table" in p.message


def test_a_tile_must_come_from_the_players_hand():
    p = problem_at(check(record(OPENING[:3] + ["P2 6-4 on 5-5"])), "/hands/0/moves/3/play")
    assert p.rule == R + "turn (setting a tile from hand)" and "P1's hand" in p.message
    p = problem_at(check(record(OPENING[:3] + ["P2 5-4 on 5-5"])), "/hands/0/moves/3/play")
    assert "boneyard" in p.message


# --- the count ----------------------------------------------------------------------------

def test_positive_multiples_of_five_peg_the_count_divided_by_five():
    doc = record(OPENING)
    report = check(doc)
    assert report.valid, [p.text() for p in report.problems]
    _, state = replay(doc)
    assert state.pegged == {"P1": 2 + 2 + 1 + 2, "P2": 1}


def test_a_wrong_move_score_is_reported_with_both_numbers_and_replay_goes_on():
    report = check(record(OPENING[:1] + ["P1 5-0 on 5-5 =3"] + OPENING[2:]))
    p = problem_at(report, "/hands/0/moves/1/score")
    assert (p.claimed, p.computed) == (3, 2)
    assert len(report.problems) == 1


def test_a_count_of_zero_scores_nothing_and_a_chain_that_cannot_go_on_draws():
    # P2 leads 0-0 (count 0: no score, but a double): cannot go on, draws 5-4, 6-3 (no fit), 6-0 (fits),
    # sets it (count 0 + 6 = 6: 0-0 still has a free side) and the turn ends.
    moves = ["P2 0-0 =0", "P2 draw 5-4", "P2 draw 6-3", "P2 draw 6-0", "P2 6-0 on 0-0 =0", "P1 6-4 on 6-0 =0"]
    report = check(record(moves, leader="P2"))
    assert report.valid, [p.text() for p in report.problems]
    assert H.pegs(0, False) == 0 and H.pegs(0, True) == 0


def test_pegs_and_rounding_helpers():
    assert [H.pegs(n, False) for n in (5, 10, 12, 35)] == [1, 2, 0, 7]
    assert [H.pegs(n, True) for n in (5, 10, 12)] == [5, 10, 0]
    assert [H.round_to_five(n) for n in (0, 1, 2, 3, 4, 5, 146, 98, 83)] == [0, 0, 0, 5, 5, 5, 145, 100, 85]


# --- the turn -----------------------------------------------------------------------------

def test_a_player_able_to_set_a_tile_may_not_pass_or_draw():
    p = problem_at(check(record(OPENING[:3] + ["P2 pass"])), "/hands/0/moves/3/pass")
    assert p.rule == R + "turn (must set a tile if able)" and "fits" in p.message
    p = problem_at(check(record(OPENING[:3] + ["P2 draw"])), "/hands/0/moves/3/draw")
    assert p.rule == R + "turn (must set a tile if able)"


def test_after_a_double_the_player_must_go_on():
    p = problem_at(check(record(OPENING[:1] + ["P2 5-3 on 5-5"])), "/hands/0/moves/1/seat")
    assert p.rule == R + "turn (the chain after a double or a scoring tile)" and "5-0 fits" in p.message


def test_after_a_scoring_tile_the_player_must_go_on():
    p = problem_at(check(record(OPENING[:4] + ["P1 3-2 on 5-3"])), "/hands/0/moves/4/seat")
    assert p.rule == R + "turn (the chain after a double or a scoring tile)"
    p = problem_at(check(record(OPENING[:4] + ["P2 pass"])), "/hands/0/moves/4/pass")
    assert p.rule == R + "turn (the chain after a double or a scoring tile)"


def test_a_chain_of_three_tiles_in_one_turn():
    report = check(sample("chain-of-three.json"))
    assert report.valid
    moves = sample("chain-of-three.json")["hands"][0]["moves"]
    assert [m["seat"] for m in moves[:4]] == ["P4", "P4", "P4", "P1"]


def test_a_drawn_playable_tile_ends_the_turn_even_when_it_scores():
    # 5-4 drawn mid-chain scores 2, yet P1 may not go on: it is P2's turn.
    p = problem_at(check(record(OPENING + ["P1 6-4 on 5-4"])), "/hands/0/moves/9/seat")
    assert p.rule == R + "turn (play passes clockwise)"
    assert check(record(OPENING + ["P2 4-4 on 5-4 =0"])).valid


def test_option_chain_draw_false_ends_a_chain_that_cannot_go_on():
    opts = {"chain_draw": False}
    p = problem_at(check(record(OPENING[:7] + ["P1 draw"], options=opts)), "/hands/0/moves/7/seat")
    assert "P2's turn" in p.message
    assert check(record(OPENING[:7] + ["P2 4-1 on 1-1 =0"], options=opts)).valid


def test_drawing_goes_on_one_tile_at_a_time_until_one_fits():
    bone = ["6-3"] + [t for t in BONE_A if t != "6-3"]
    moves = OPENING[:7] + ["P1 draw", "P1 draw", "P1 5-4 on 5-5 =2"]
    report = check(record(moves, boneyard=bone))
    assert report.valid, [p.text() for p in report.problems]
    p = problem_at(check(record(OPENING[:7] + ["P1 draw", "P1 pass"], boneyard=bone)), "/hands/0/moves/8/pass")
    assert p.rule == R + "turn (drawing from the boneyard)"
    p = problem_at(check(record(OPENING[:7] + ["P1 draw", "P2 4-1 on 1-1"], boneyard=bone)), "/hands/0/moves/8/seat")
    assert p.rule == R + "turn (drawing from the boneyard)" and "drawing" in p.message


def test_a_drawn_playable_tile_must_be_set_at_once():
    rule = R + "turn (a drawn playable tile is set at once and ends the turn)"
    for bad, at in (("P1 pass", "/pass"), ("P1 draw", "/draw"), ("P1 6-4 on 5-4", "/play"), ("P2 4-1 on 1-1", "/seat")):
        p = problem_at(check(record(OPENING[:8] + [bad])), f"/hands/0/moves/8{at}")
        assert p.rule == rule, (bad, p.text())


def test_draws_follow_the_boneyard_order_when_the_deal_gives_it():
    assert check(record(OPENING[:7] + ["P1 draw 5-4", "P1 5-4 on 5-5 =2"])).valid
    p = problem_at(check(record(OPENING[:7] + ["P1 draw 6-3"])), "/hands/0/moves/7/draw")
    assert p.rule == R + "the boneyard (draw order)" and "5-4" in p.message


def test_without_a_boneyard_order_each_draw_names_an_unseen_tile():
    assert check(record(OPENING[:7] + ["P1 draw 6-5", "P1 6-5 on 5-5 =0"], boneyard=None)).valid
    p = problem_at(check(record(OPENING[:7] + ["P1 draw 4-4"], boneyard=None)), "/hands/0/moves/7/draw")
    assert p.rule == R + "the boneyard (draw order)" and "dealt to P2" in p.message
    p = problem_at(check(record(OPENING[:7] + ["P1 draw 6-3", "P1 draw 6-3"], boneyard=None)), "/hands/0/moves/8/draw")
    assert "already drawn by P1" in p.message
    p = problem_at(check(record(OPENING[:7] + ["P1 draw"], boneyard=None)), "/hands/0/moves/7/draw")
    assert "must name its tile" in p.message


def test_a_draw_can_empty_the_boneyard_and_then_the_player_passes():
    doc = sample("draw-empties-boneyard.json")
    assert check(doc).valid
    moves = doc["hands"][0]["moves"]
    assert sum(1 for m in moves if "draw" in m) == 8 and moves[9]["pass"] is True
    moves[9] = {"seat": "P2", "draw": True}
    p = problem_at(check(doc), "/hands/0/moves/9/draw")
    assert p.rule == R + "turn (drawing from the boneyard)" and "empty" in p.message


def test_a_player_who_drew_the_boneyard_empty_must_write_the_pass():
    doc = sample("draw-empties-boneyard.json")
    del doc["hands"][0]["moves"][9]
    p = problem_at(check(doc), "/hands/0/moves/9/seat")
    assert p.rule == R + "turn (drawing from the boneyard)" and "must pass" in p.message


def test_a_pass_while_the_boneyard_holds_tiles_is_illegal():
    doc = sample("draw-empties-boneyard.json")
    doc["hands"][0]["moves"][3] = {"seat": "P2", "pass": True}
    p = problem_at(check(doc), "/hands/0/moves/3/pass")
    assert p.rule == R + "turn (drawing from the boneyard)" and "6 tiles" in p.message


def test_moves_out_of_turn_are_rejected():
    p = problem_at(check(record(OPENING[:3] + ["P1 6-4 on 2-0"])), "/hands/0/moves/3/seat")
    assert p.rule == R + "turn (play passes clockwise)"
    p = problem_at(check(record(OPENING[:3] + ["P9 5-3 on 5-5"])), "/hands/0/moves/3/seat")
    assert "not a seat" in p.message


# --- the end of a hand ---------------------------------------------------------------------

def test_a_domino_mid_chain_ends_the_hand_and_scores_the_other_hands():
    doc = sample("spinner-four-arms.json")
    report = check(doc)
    assert report.valid
    # P1 pegs 2 + 1 + 2 + 2 = 7 and dominoes with 4-0, which scored (a chain it cannot continue).
    # Other hands: 32 + 42 + 24 = 98 -> 100 -> 20.
    assert report.scores == {"P1": 27, "P2": 0, "P3": 0, "P4": 0}
    assert doc["hands"][0]["result"]["end"] == "out"
    doc["hands"][0]["moves"].append({"seat": "P2", "pass": True})
    assert problem_at(check(doc), "/hands/0/moves/5").rule == R + "hand end"


def test_the_domino_count_rounds_to_the_nearest_five():
    report = check(sample("draw-empties-boneyard.json"))
    assert report.scores["P3"] == 3 + 29  # 32 + 87 + 27 = 146 rounds down to 145
    report = check(sample("chain-draw.json"))
    assert report.scores["P4"] == 6 + 17  # 23 + 31 + 29 = 83 rounds up to 85


def test_a_blocked_hand_with_tied_lowest_players_scores_each_of_them():
    report = check(sample("blocked-tied-lowest.json"))
    assert report.valid
    # P1 and P3 hold 14 each; each scores the other three hands: 70 -> 14.
    assert report.scores == {"P1": 3 + 14, "P2": 4, "P3": 0 + 14, "P4": 3}


def test_closing_passes_of_a_block_may_be_written():
    doc = sample("blocked-tied-lowest.json")
    moves = doc["hands"][0]["moves"]
    moves += [mv(f"P{k} pass") for k in (1, 2, 3, 4)]
    assert check(doc).valid
    moves.append(mv("P1 pass"))
    assert problem_at(check(doc), f"/hands/0/moves/{len(moves) - 1}").rule == R + "hand end"


def _blocked_state(masks: dict[str, int], options: dict | None = None):
    """The tied-block sample's final state with the hands replaced (for end-of-hand arithmetic)."""
    doc = sample("blocked-tied-lowest.json")
    if options:
        doc = json.loads(json.dumps(doc).replace('"P1"', '"N"').replace('"P2"', '"E"')
                         .replace('"P3"', '"S"').replace('"P4"', '"W"'))
        doc["players"] = [{"seat": s, "name": s} for s in "NESW"]
        doc["rules"] = {"options": options}
    _, state = replay(doc)
    assert state.over and state.end == "blocked"
    state.hands = masks
    return state


def _mask(*tiles: str) -> int:
    return sum(H.BIT[tile(t)] for t in tiles)


def test_a_blocked_hand_with_one_lowest_player():
    state = _blocked_state({"P1": _mask("1-0"), "P2": _mask("6-6"), "P3": _mask("4-3"), "P4": _mask("5-0")})
    out = state.outcome()
    # P1 lowest (1): 12 + 7 + 5 = 24 -> 25 -> 5, on top of the 3 it pegged.
    assert out.scores == {"P1": 3 + 5, "P2": 4, "P3": 0, "P4": 3}


def test_partnership_domino_scores_the_opponents_hands_or_all_three():
    doc = sample("partnership-game.json")
    report = check(doc)
    assert report.valid and report.scores == {"NS": 25, "EW": 0} and report.winner == "NS"
    # Hand 1: S dominoes; E 33 + W 32 = 65 -> 13, plus the 8 NS pegged.
    assert doc["hands"][0]["result"]["scores"] == {"NS": 21, "EW": 0}
    doc["rules"]["options"]["count_partner"] = True
    # With the partner's 24: 89 -> 90 -> 18; NS 26 passes 25 at the end of hand 1.
    doc["hands"] = doc["hands"][:1]
    doc["hands"][0]["result"]["scores"]["NS"] = 26
    doc["result"] = {"scores": {"NS": 26, "EW": 0}, "winner": "NS"}
    report = check(doc)
    assert report.valid, [p.text() for p in report.problems]


def test_partnership_block_lower_side_scores_the_opponents_and_equal_sides_nothing():
    masks = {"N": _mask("1-0"), "S": _mask("2-0"), "E": _mask("6-6"), "W": _mask("4-3")}
    out = _blocked_state(masks, {"partnerships": True}).outcome()
    # NS 1 + 2 = 3 against EW 12 + 7 = 19: NS scores 19 -> 20 -> 4, on top of NS's pegs (N 3 + S 0).
    assert out.scores == {"NS": 3 + 4, "EW": 4 + 3}
    masks = {"N": _mask("4-3"), "S": _mask("2-0"), "E": _mask("6-3"), "W": _mask("0-0")}
    out = _blocked_state(masks, {"partnerships": True}).outcome()
    assert out.scores == {"NS": 3, "EW": 7}  # 9 against 9: nobody scores the block


# --- the game ------------------------------------------------------------------------------

def test_the_game_ends_the_moment_a_side_reaches_the_target():
    doc = sample("partnership-game.json")
    assert doc["hands"][1]["result"]["end"] == "target"
    doc["hands"].append(copy.deepcopy(doc["hands"][0]))
    report = check(doc)
    assert problem_at(report, "/hands/2").rule == "end of game"


def test_win_check_end_of_hand_plays_the_hand_out():
    doc = sample("partnership-game.json")
    doc["rules"]["options"]["win_check"] = "end_of_hand"
    report = check(doc)
    assert problem_at(report, "/hands/1/moves").kind == "unfinished"


def test_tied_winners_past_the_target_the_higher_total_wins():
    doc = sample("blocked-tied-lowest.json")
    doc["rules"] = {"options": {"target": 14}}
    doc["result"] = {"scores": {"P1": 17, "P2": 4, "P3": 14, "P4": 3}, "winner": "P1"}
    report = check(doc)
    assert report.valid and report.finished and report.winner == "P1"


def test_tied_winners_on_equal_totals_past_the_target_play_on():
    doc = sample("blocked-tied-lowest.json")
    doc["rules"] = {"options": {"target": 14}}
    rec = load_dict(doc)
    match = games.engine("horse-race").start(rec)
    match.totals["P3"] = 3  # P3 starts the hand 3 up: both finish on 17
    state = match.start_hand(rec.hands[0])
    for move in rec.hands[0].moves:
        state.apply(move)
    match.finish_hand(state)
    assert match.totals["P1"] == match.totals["P3"] == 17 and not match.over


def test_the_target_option_and_the_defaults():
    doc = sample("celko-game.json")
    assert check(doc).valid
    del doc["rules"]["options"]  # celko plays to 200 by default: 60 has not ended it
    report = check(doc)
    assert not report.valid and problem_at(report, "/hands/1/moves").kind == "unfinished"
    doc = sample("spinner-four-arms.json")
    doc["rules"] = {"options": {"target": 27}}
    report = check(doc)
    assert report.finished and report.winner == "P1"


# --- variant celko -----------------------------------------------------------------------

def test_celko_pegs_the_full_count():
    moves = ["P1 5-5 =10", "P1 5-0 on 5-5 =10", "P1 2-0 on 5-0 =0", "P2 5-3 on 5-5 =5", "P2 5-1 on 5-5 =0",
             "P1 3-2 on 5-3 =5", "P1 1-1 on 5-1 =0", "P1 draw", "P1 5-4 on 5-5 =10"]
    doc = record(moves, variant="celko")
    assert check(doc).valid
    assert replay(doc)[1].pegged == {"P1": 35, "P2": 5}


def test_celko_everyone_subtracts_their_own_hand_rounded():
    doc = sample("celko-game.json")
    report = check(doc)
    # Hand 1: P1 pegs 5 + 10 + 20 + 10 = 45 and dominoes; P2 holds 25, P3 37 -> 35.
    assert doc["hands"][0]["result"]["scores"] == {"P1": 45, "P2": -25, "P3": -35}
    assert report.valid and report.scores == {"P1": 60, "P2": -25, "P3": -35}
    state = _blocked_state({"P1": _mask("1-0"), "P2": _mask("6-6"), "P3": _mask("4-3"), "P4": 0})
    state.rules = H.Rules(partnerships=False, chain_draw=True, count_partner=False, win_check="immediate",
                          target=200, celko=True)
    out = state.outcome()
    # The blocked winner subtracts too: P1 1 -> 0, P2 12 -> 10, P3 7 -> 5, P4 0.
    assert out.scores == {"P1": 3 - 0, "P2": 4 - 10, "P3": 0 - 5, "P4": 3 - 0}


# --- explain and simulate ----------------------------------------------------------------

def test_explain_shows_the_arms_their_open_ends_and_the_count():
    lines, report = explain(load_dict(sample("spinner-four-arms.json")), 1)
    text = "\n".join(lines)
    assert report.valid
    assert "4-4 side: 4-2 → open end 2" in text and "4-4 end: 4-5 → open end 5" in text
    assert "count: 2 (4-2) + 3 (4-3) = 5 (pegs 1: one point per five)" in text
    assert "boneyard (in draw order): 6-4 5-2 3-0 2-2 0-0 3-2 1-0 3-3" in text


def test_explain_shows_joined_spinners_as_anchors_of_their_own_arms():
    lines, _ = explain(load_dict(sample("chain-of-three.json")), 1)
    text = "\n".join(lines)
    assert "5-0 half 0: [0-0] (a spinner: its arms follow)" in text
    assert "spinner 0-0: a side free, counts 0" in text and "spinner 0-0: both sides taken, counts nothing" in text
    assert "0-0 end: free (counts nothing until a tile is set on it)" in text
    lines, _ = explain(load_dict(sample("blocked-tied-lowest.json")), 1)
    assert any("order not recorded" in line for line in lines)


@pytest.mark.parametrize("players,options,variant", [
    (2, None, None), (3, None, None), (4, None, None),
    (4, {"partnerships": True}, None),
    (4, {"partnerships": True, "count_partner": True, "win_check": "end_of_hand"}, None),
    (3, {"chain_draw": False}, None),
    (2, {"target": 200}, "celko"), (4, {"partnerships": True, "target": 200}, "celko"),
])
def test_simulated_games_validate(players, options, variant):
    for record_ in made_once.simulate("horse-race", 3, 11, players, options, variant):
        report = validate_text(simulate.dumps(record_))
        assert report.valid and report.finished, [p.text() for p in report.problems]


# --- property tests ------------------------------------------------------------------------

CONFIGS = [(2, None, None), (3, None, None), (4, None, None), (4, {"partnerships": True}, None),
           (3, {"chain_draw": False}, None), (2, {"win_check": "end_of_hand"}, None),
           (3, {"target": 200}, "celko"), (4, {"partnerships": True, "target": 200}, "celko")]


def _game(seed: int, config: int = 2) -> dict:
    players, options, variant = CONFIGS[config]
    template = simulate.make_record("horse-race", players, options, variant)
    return unstructure(simulate.play_game(template, random.Random(seed)))


slow = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1))
def test_every_simulated_game_validates(seed, config):
    doc = _game(seed, config)
    report = validate_text(json.dumps(doc))
    assert report.valid and report.finished, [p.text() for p in report.problems]
    # The same game without the boneyard order (each draw names its tile), and with "draw": true.
    bare = copy.deepcopy(doc)
    for hand in bare["hands"]:
        del hand["deal"]["boneyard"]
    assert validate_text(json.dumps(bare)).valid
    for hand in doc["hands"]:
        for move in hand["moves"]:
            if "draw" in move:
                move["draw"] = True
    assert validate_text(json.dumps(doc)).valid


@st.composite
def game_and_move(draw, kinds=("play", "draw", "pass")):
    doc = _game(draw(st.integers(0, 10 ** 6)), draw(st.integers(0, len(CONFIGS) - 1)))
    spots = [(i, j) for i, h in enumerate(doc["hands"]) for j, m in enumerate(h["moves"])
             if any(k in m for k in kinds)]
    assume(spots)
    i, j = draw(st.sampled_from(spots))
    return doc, i, j


def _first_illegal(doc: dict) -> str:
    report = validate_text(json.dumps(doc))
    assert not report.valid
    illegal = [p for p in report.problems if p.kind == "illegal"]
    assert illegal, [p.text() for p in report.problems]
    return illegal[0].pointer


@slow
@given(game_and_move(), st.data())
def test_a_move_by_the_wrong_seat_is_caught_at_its_move(gm, data):
    doc, i, j = gm
    move = doc["hands"][i]["moves"][j]
    seats = [p["seat"] for p in doc["players"]]
    move["seat"] = data.draw(st.sampled_from([s for s in seats if s != move["seat"]]))
    assert _first_illegal(doc) == f"/hands/{i}/moves/{j}/seat"


@slow
@given(game_and_move(("play",)), st.data())
def test_a_tile_not_in_hand_is_caught_at_its_move(gm, data):
    doc, i, j = gm
    _, state = replay(doc, (i, j))
    move = doc["hands"][i]["moves"][j]
    held = state.holdings()[move["seat"]]
    move["play"] = str(data.draw(st.sampled_from([t for t in DOUBLE_SIX if t not in held])))
    assert _first_illegal(doc) == f"/hands/{i}/moves/{j}/play"


@slow
@given(game_and_move(("play", "draw")))
def test_a_pass_instead_of_a_play_or_draw_is_caught_at_its_move(gm):
    doc, i, j = gm
    move = doc["hands"][i]["moves"][j]
    doc["hands"][i]["moves"][j] = {"seat": move["seat"], "pass": True}
    assert _first_illegal(doc) == f"/hands/{i}/moves/{j}/pass"


@slow
@given(game_and_move(("pass", "play")))
def test_a_draw_instead_of_a_pass_or_play_is_caught_at_its_move(gm):
    doc, i, j = gm
    move = doc["hands"][i]["moves"][j]
    doc["hands"][i]["moves"][j] = {"seat": move["seat"], "draw": True}
    assert _first_illegal(doc) == f"/hands/{i}/moves/{j}/draw"


@slow
@given(game_and_move(("draw",)), st.data())
def test_a_draw_of_another_tile_is_caught_at_its_move(gm, data):
    doc, i, j = gm
    move = doc["hands"][i]["moves"][j]
    move["draw"] = str(data.draw(st.sampled_from([t for t in DOUBLE_SIX if str(t) != move["draw"]])))
    assert _first_illegal(doc) == f"/hands/{i}/moves/{j}/draw"


@slow
@given(game_and_move(("play",)), st.integers(1, 30))
def test_a_wrong_move_score_is_caught_where_claimed(gm, delta):
    doc, i, j = gm
    move = doc["hands"][i]["moves"][j]
    move["score"] += delta
    report = validate_text(json.dumps(doc))
    assert report.problems and report.problems[0].pointer.startswith(f"/hands/{i}/moves/{j}")


def _recount(state) -> int:
    """The count from scratch, walking the layout (the engine keeps it incrementally)."""
    total = 0
    for node in state.nodes.values():
        if node.double:
            total += 2 * node.tile.high if node.sides_free else 0
        else:
            total += sum(node.free)
    return total


def _round5(n: int) -> int:
    return 5 * ((n + 2) // 5)


def _end_points(state) -> dict[str, int]:
    """End-of-hand points by the rule book, computed here from the final holdings alone."""
    pips = {s: sum(t.high + t.low for t in tiles) for s, tiles in state.holdings().items()}
    rules = state.rules
    sides = list(state.pegged)
    side_of = state.side_of
    points = {side: 0 for side in sides}
    if rules.celko:
        for s, n in pips.items():
            points[side_of[s]] -= _round5(n)
        return points
    if rules.partnerships:
        side_pips = {side: sum(n for s, n in pips.items() if side_of[s] == side) for side in sides}
        if state.end == "out":
            win = side_of[state.out_seat]
            counted = [s for s in pips if s != state.out_seat and (rules.count_partner or side_of[s] != win)]
            points[win] += _round5(sum(pips[s] for s in counted)) // 5
        elif side_pips["NS"] != side_pips["EW"]:
            win = min(side_pips, key=side_pips.get)
            points[win] += _round5(sum(n for side, n in side_pips.items() if side != win)) // 5
        return points
    winners = [state.out_seat] if state.end == "out" else [s for s in pips if pips[s] == min(pips.values())]
    for w in winners:
        points[w] += _round5(sum(n for s, n in pips.items() if s != w)) // 5
    return points


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1))
def test_the_running_count_and_the_hand_scores_agree_with_a_recount(seed, config):
    doc = _game(seed, config)
    rec = load_dict(doc)
    match = games.engine("horse-race").start(rec)
    for hand in rec.hands:
        state = match.start_hand(hand)
        for move in hand.moves:
            state.apply(move)
            assert state.count == _recount(state)
        outcome = match.finish_hand(state)
        expected = dict(state.pegged)
        if outcome.end != "target":
            for side, n in _end_points(state).items():
                expected[side] += n
        assert outcome.scores == expected


@slow
@given(game_and_move(), st.data())
def test_apply_accepts_exactly_the_plays_that_legal_moves_lists(gm, data):
    from domrec.errors import IllegalMove
    from domrec.record import Play

    doc, i, j = gm
    _, state = replay(doc, (i, j))
    assume(not state.over)
    seat = state.to_move
    listed = {(m.play, getattr(m, "on", None)) for m in state.legal_moves() if type(m) is Play}
    held = [str(t) for t in state.holdings()[seat]]
    on_table = [None] + [str(t) for t in state.nodes]
    play = data.draw(st.sampled_from(held))
    on = data.draw(st.sampled_from(on_table))
    leading = state.lead is None
    try:
        state.apply(Play(seat=seat, play=play, on=on))
    except IllegalMove:
        accepted = False
    else:
        accepted = True
    if on is None and not leading:
        # Without "on" a tile is accepted when it fits exactly one tile of the layout.
        fits = [o for (p, o) in listed if p == play]
        assert accepted == (len(fits) == 1)
    else:
        assert accepted == ((play, on) in listed)


# --- audit: the exact targets, and a tie carried past the target ---------------------------

def _hand_from(totals: dict, moves: list[str], variant: str | None = None):
    """The hand state after ``moves`` of the opening, the match starting from ``totals``."""
    rec = load_dict(record(moves, variant=variant))
    match = games.engine("horse-race").start(rec)
    match.totals.update(totals)
    state = match.start_hand(rec.hands[0])
    for move in rec.hands[0].moves:
        state.apply(move)
    return state


def test_the_standard_game_is_to_61_exactly():
    # P1's lead 5-5 pegs 2.
    assert not _hand_from({"P1": 58}, ["P1 5-5"]).over  # 60 plays on
    state = _hand_from({"P1": 59}, ["P1 5-5"])
    assert state.over and state.end == "target" and state.target_side == "P1"


def test_the_celko_game_is_to_200_exactly():
    # In celko the lead 5-5 pegs its full 10.
    assert not _hand_from({"P1": 189}, ["P1 5-5"], variant="celko").over  # 199 plays on
    state = _hand_from({"P1": 190}, ["P1 5-5"], variant="celko")
    assert state.over and state.end == "target"


def test_a_peg_that_only_draws_level_with_a_side_past_the_target_plays_on():
    # After a tie sent play on, the game ends at the first peg that puts a side strictly ahead.
    state = _hand_from({"P1": 59, "P2": 61}, ["P1 5-5"])
    assert not state.over  # 61 against 61
    state = _hand_from({"P1": 59, "P2": 61}, ["P1 5-5", "P1 5-0 on 5-5"])
    assert state.over and state.target_side == "P1"  # 63 against 61


def test_a_wrong_peg_claim_says_how_the_count_pegs():
    """The score message sums the open ends: "P1 is credited 3, but the open ends are 6 (6-4) + 4 (6-4)
    = 10: 2 points (one point per five)"."""
    import random

    import attrs

    from domrec import simulate
    from domrec.validate import validate

    template = simulate.make_record("horse-race", 4, None, None)
    record = simulate.play_game(template, random.Random(2))
    for h, hand in enumerate(record.hands):
        scored = [k for k, m in enumerate(hand.moves) if m.score]
        if scored:
            k = scored[0]
            moves = list(hand.moves)
            moves[k] = attrs.evolve(moves[k], score=moves[k].score + 1)
            hands = list(record.hands)
            hands[h] = attrs.evolve(hand, moves=tuple(moves))
            record = attrs.evolve(record, hands=tuple(hands))
            break
    problem = validate(record).problems[0]
    assert problem.pointer == f"/hands/{h}/moves/{k}/score"
    assert "but the open ends are " in problem.message and "one point per five" in problem.message
    assert f"= {problem.computed * 5}: {problem.computed} point" in problem.message


@pytest.mark.parametrize("players, options, variant", [
    (2, None, None), (3, None, None), (4, {"partnerships": True}, None),
    (4, {"partnerships": True, "count_partner": True}, None), (3, None, "celko"),
    (4, {"win_check": "immediate"}, None)])
def test_the_worded_working_ends_on_the_scores_the_replay_counted(players, options, variant):
    # The scores are worked out at the hand's end; the working only when explain asks for it
    # (validation never shows it).  Both must come from the same arithmetic.
    for record in made_once.simulate("horse-race", 3, 11, players, options, variant, accidents=False):
        record = load_dict(unstructure(record))
        for h in range(1, len(record.hands) + 1):
            lines, report = explain(record, h)
            assert report.valid
            counted = [line for line in lines if line.startswith("Hand score: ")]
            # The working's last sum: "hand: ..." after an end-of-hand count; a hand that ended on
            # reaching the target has none, and scores what was pegged.
            sums = ("hand: ", "pegged during the hand: ")
            said = [line.strip() for line in lines if line.strip().startswith(sums)]
            assert len(counted) == 1 and said
            assert counted[0].startswith("Hand score: " + said[-1].split(": ", 1)[1] + ".")


# --- the replay's shortcuts refuse what the careful checks refuse, with their words ------------
# (The deal is read by adding up its tiles' bits, the layout kept as what is free on each tile;
# each kind of fault those shortcuts pass on is checked here with its message.)

def _chain_draw_with(change) -> dict:
    doc = sample("chain-draw.json")
    change(doc["hands"][0])
    return doc


@pytest.mark.parametrize("change, pointer, message", [
    (lambda h: h["deal"]["hands"]["P2"].__setitem__(0, "6-1"), "/hands/0/deal/hands/P2/0",
     "6-1 is dealt twice (P1 has it too); the set has one of each tile"),
    (lambda h: h["deal"]["boneyard"].__setitem__(0, "6-1"), "/hands/0/deal/boneyard/0",
     "6-1 is dealt twice (P1 has it too); the set has one of each tile"),
    (lambda h: h["deal"]["boneyard"].pop(), "/hands/0/deal/boneyard",
     "the boneyard lists 7 tiles, but 8 are left after the deal; missing: 1-0"),
    (lambda h: h["deal"]["hands"]["P1"].append("1-0") or h["deal"]["boneyard"].pop(), "/hands/0/deal/hands/P1",
     "P1 was dealt 6 tiles; with 4 players each gets 5"),
    (lambda h: h["moves"][3].__setitem__("on", "6-6"), "/hands/0/moves/3/on",
     "6-6 is not on the table, so 5-4 cannot be set on it"),
    (lambda h: h["moves"][3].update(play="3-1"), "/hands/0/moves/3/on",
     "3-1 does not match 5-3: its open end shows 5"),
    (lambda h: h["moves"][4].__setitem__("on", "5-3"), "/hands/0/moves/4/on",
     "nothing more can be set on 5-3: its open end is already covered"),
    (lambda h: h["moves"][3].__setitem__("on", "3-3"), "/hands/0/moves/3/on",
     "5-4 does not match 3-3: a tile set on it must have a 3"),
    (lambda h: h["moves"][1].__setitem__("draw", "5-2"), "/hands/0/moves/1/draw",
     "the boneyard's order, given with the deal, has 5-3 as draw number 1, not 5-2"),
])
def test_a_faulty_deal_or_play_is_refused_in_the_careful_checks_words(change, pointer, message):
    p = problem_at(check(_chain_draw_with(change)), pointer)
    assert p.message == message


@pytest.mark.parametrize("respell", [
    lambda h: h["deal"]["hands"]["P1"].__setitem__(0, "06-01"),
    lambda h: h["deal"]["boneyard"].__setitem__(0, "05-03"),
    lambda h: h["moves"][3].update(play="05-4", on="05-03"),
])
def test_a_tile_spelled_with_a_leading_zero_is_refused(respell):
    """One spelling a tile: "05-3" is not read as 5-3 (two programs must read a record one way)."""
    with pytest.raises(ShapeError, match="a number has no leading zero"):  # refused as the record is read
        check(_chain_draw_with(respell))


@pytest.mark.parametrize("change", [
    lambda h: h["moves"][3].update(play="4-5", on="3-5"),  # either half first
    lambda h: h["moves"][2].pop("on"),  # no "on": the one tile it fits is found
    lambda h: h["moves"][4].pop("on"),
])
def test_a_play_and_its_target_are_read_in_any_spelling_or_found_when_not_named(change):
    assert check(_chain_draw_with(change)).valid


class _LayoutWatcher:
    """After every move, the layout as a tree (built for render and pictures from what the replay
    keeps) against the replay's own count and open numbers."""

    def __init__(self) -> None:
        self.checked = 0

    def hand_started(self, index, hand, state) -> None:
        pass

    def moved(self, index, move, points, state) -> None:
        count = mask = 0
        for node in state.nodes.values():
            d = node.tile.high
            if node.double:
                count += 2 * d if node.sides_free else 0
                mask |= 1 << d if node.sides_free or node.ends_free else 0
            else:
                count += sum(node.free)
                for n in node.free:
                    mask |= 1 << n
        assert (count, mask) == (state.count, state.open_mask)
        assert len(state.nodes) == len(DOUBLE_SIX) - sum(m.bit_count() for m in state.hands.values()) - state.stock
        self.checked += 1

    def hand_finished(self, index, outcome, match) -> None:
        pass


@pytest.mark.parametrize("players, options", [(2, None), (4, {"partnerships": True})])
def test_the_layout_tree_agrees_with_the_count_and_open_numbers_after_every_move(players, options):
    for record in made_once.simulate("horse-race", 4, 3, players, options, None, accidents=False):
        watcher = _LayoutWatcher()
        assert validate(load_dict(unstructure(record)), observer=watcher).valid
        assert watcher.checked
