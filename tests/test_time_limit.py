"""A game stopped by the clock (format 1.1's ``"ended": "time"``, DGN ``[Ended "time"]``).

The game ends after its last complete hand and the side ahead wins (a shared top: a draw); a
game over anyway, or a hand left unfinished, is one problem; JSON and DGN carry the field.
"""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domrec import notation
from domrec.game import Game, GameError
from domrec.games.base import winner_of
from domrec.reader import load_dict
from domrec.record import GameResult, unstructure
from domrec.validate import validate, validate_text

from tests.conftest import CONFIGS, IDS, check, problem_at
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def simulated(config, seed):
    game, players, options, variant = config
    return next(made_once.simulate(game, 1, seed, players, options, variant))


def cut(record, k: int):
    """The record stopped by the clock after its hand ``k``, claiming the result the totals give."""
    short = attrs.evolve(record, hands=record.hands[:k], result=None, ended="time", version="1.1")
    report = validate(short)
    return attrs.evolve(short, result=GameResult(scores=report.scores, winner=report.winner))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=4, **SETTINGS)
@given(seed=st.integers(min_value=0, max_value=10**9), where=st.floats(min_value=0, max_value=0.999))
def test_a_game_cut_at_a_random_hand_on_time_validates_and_round_trips(config, seed, where):
    record = simulated(config, seed)
    k = int(where * len(record.hands))  # 0 .. hands - 1: before the hand that ended the game
    timed = cut(record, k)
    report = validate(timed)
    assert report.status == "valid", [p.text() for p in report.problems]
    assert report.finished and report.problems == ()
    assert report.on_time and "ended on time" in report.summary()
    assert report.winner == (winner_of(report.scores) if report.scores else None)
    # JSON round trip
    data = json.loads(json.dumps(unstructure(timed)))
    assert data["ended"] == "time"
    assert unstructure(load_dict(data)) == unstructure(timed)
    # DGN round trip, and the game read back through the notation is as valid and finished
    text = notation.dumps(timed)
    assert '[Ended "time"]' in text
    back = notation.loads(text)
    assert unstructure(back) == unstructure(timed)
    assert notation.dumps(back) == text
    read = next(notation.read_games(text))
    assert read.report.status == "valid" and read.report.finished and read.report.winner == report.winner


@pytest.mark.parametrize("game", ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"])
def test_a_game_over_anyway_cannot_have_ended_on_time(game):
    record = next(made_once.simulate(game, 1, 3))
    report = validate(attrs.evolve(record, ended="time"))
    assert report.status == "invalid" and len(report.problems) == 1
    problem = report.problems[0]
    assert problem.pointer == "/ended" and problem.rule == "end on time"
    assert "over anyway" in problem.text() and "\n" not in problem.text()


def test_the_side_ahead_wins_and_a_wrong_winner_claim_is_reported():
    record = next(made_once.simulate("competitive", 1, 7))
    timed = cut(record, 2)
    ahead = validate(timed).winner
    other = next(side for side in ("NS", "EW") if side != ahead)
    wrong = attrs.evolve(timed, result=GameResult(winner=other))
    problem = problem_at(validate(wrong), "/result/winner")
    assert problem.rule == "winning" and "ended on time, so the side ahead wins" in problem.message


def test_equal_totals_on_time_are_a_draw():
    doc = {"format": "domrec", "version": "1.1", "game": "competitive", "ended": "time",
           "players": [{"seat": s, "name": s} for s in "NESW"],
           "hands": [{"result": {"scores": {"NS": 30, "EW": 0}}}, {"result": {"scores": {"NS": 0, "EW": 30}}}],
           "result": {"scores": {"NS": 30, "EW": 30}, "winner": None}}
    report = check(doc)
    assert report.valid and report.finished and report.winner is None
    assert report.summary().endswith("a draw (ended on time, level)")  # (not "the side ahead wins": none was)
    doc["result"]["winner"] = "NS"
    wrong = problem_at(check(doc), "/result/winner")
    assert wrong.computed is None and "ended on time with the top total shared, so it is a draw" in wrong.message


def test_a_hand_under_way_when_time_is_called_must_be_played_out():
    record = next(made_once.simulate("competitive", 1, 7))
    hand = record.hands[2]
    open_hand = attrs.evolve(hand, moves=hand.moves[:5], result=None)
    timed = attrs.evolve(record, hands=(*record.hands[:2], open_hand), result=None, ended="time")
    report = validate(timed)
    assert report.status == "invalid"
    problem = problem_at(report, "/hands/2/moves")
    assert problem.rule == "end on time" and "played to its end" in problem.message


def test_ended_takes_only_time(schema_validator):
    doc = {"format": "domrec", "version": "1.1", "game": "competitive", "ended": "clock",
           "players": [{"seat": s, "name": s} for s in "NESW"], "hands": []}
    report = validate_text(json.dumps(doc))
    assert report.status == "unusable"
    assert report.problems[0].pointer == "/ended" and '"time"' in report.problems[0].message
    assert not schema_validator.is_valid(doc)
    doc["ended"] = "time"
    assert schema_validator.is_valid(doc)


def test_dgn_ended_tag_reads_and_writes_and_asks_for_11():
    record = next(made_once.simulate("broadway", 1, 7))
    timed = attrs.evolve(record, hands=record.hands[:2], result=None, ended="time", version="1.0")
    text = notation.dumps(timed)
    assert '[Ended "time"]' in text and "[Format" in text  # 1.0 and ended disagree: the version is written
    minimal = notation.dumps(attrs.evolve(timed, version="1.1"))
    assert "[Format" not in minimal
    assert notation.loads(minimal).version == "1.1"
    bad = minimal.replace('[Ended "time"]', '[Ended "clock"]')
    game = next(notation.read_games(bad))
    assert game.report.status == "unusable"
    assert '"time"' in game.report.problems[0].message and game.report.problems[0].line is not None


def test_game_api_ends_a_game_on_time():
    record = next(made_once.simulate("horse-race", 1, 11))
    g = Game(record.game, record.players, variant=record.variant, options=record.options or None)
    first = record.hands[0]
    g.start_hand(first.deal, first.leader)
    g.push(first.moves[0])
    with pytest.raises(GameError, match="played to its end"):
        g.end_on_time()
    for move in first.moves[1:]:
        g.push(move)
    g.end_hand()
    g.end_on_time()
    assert g.over and g.ended == "time" and g.winner == winner_of(g.totals)
    with pytest.raises(GameError, match="ended on time"):
        g.start_hand(record.hands[1].deal)
    rec = g.record()
    assert rec.ended == "time" and rec.version == "1.1"
    report = g.report()
    assert report.valid and report.finished and report.winner == g.winner
    again = Game.from_record(rec)
    assert again.ended == "time" and again.over


def test_game_api_refuses_to_end_a_finished_game_on_time():
    g = Game.from_record(next(made_once.simulate("competitive", 1, 7)))
    assert g.over
    with pytest.raises(GameError, match="over anyway"):
        g.end_on_time()


def test_a_hand_being_recorded_cannot_end_a_game_on_time():
    record = next(made_once.simulate("horse-race", 1, 7))
    hand = record.hands[2]
    typed = attrs.evolve(record, hands=(*record.hands[:2], attrs.evolve(hand, moves=hand.moves[:3], result=None)),
                         result=None, ended="time", version="1.1")
    game = next(notation.read_games(notation.dumps_typed(typed, keep_deal=False)))
    assert game.report.status == "invalid" and len(game.report.problems) == 1
    problem = game.report.problems[0]
    assert problem.rule == "end on time" and problem.line is not None and "played to its end" in problem.message
