"""Typed games read like the paper they come from: ends and seats left out, worked out by
trying the readings on the engine (domrec/notation/readings.py), and a game closed hand by
hand in linear time (Game's snapshots)."""

from __future__ import annotations

import re

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domrec import game as game_module
from domrec import notation
from domrec.game import Game
from domrec.notation import readings
from domrec.record import unstructure
from domrec.validate import validate
from tests.conftest import CONFIGS, IDS
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

HEAD = """\
[Game "competitive"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

"""
#: docs/notation.md's first hand, with every "@" and every seat but the lead's left out.
SHEET = HEAD + """\
hand 1 lead N
5-2 6-5 4-2 6-4 6-6 - 6-0 6-2 4-0
2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -
5-3 3-2 4-3 4-1 3-1 3-0 5-5
left E 3-3; S 2-2
"""


def read1(text: str) -> notation.DgnGame:
    found = list(notation.read_games(text, "t.dgn"))
    assert len(found) == 1
    return found[0]


def test_a_sheet_without_ends_reads_with_the_tie_rule_and_says_so():
    game = read1(SHEET)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    assert game.report.scores == {"NS": 23, "EW": 0}
    note = game.report.note
    assert "readings give the same scores" in note and "the end laid earliest" in note
    assert re.search(r"@\d-\d at 8:\d+", note)  # each choice named with its line:column
    # The same text read twice gives the same record (the rule is fixed, not a first-found accident).
    assert unstructure(read1(SHEET).record) == unstructure(game.record)


def test_where_one_reading_fits_no_note_is_needed():
    # 6-4 on 6-5 would leave W unable to have passed after 6-6: only 6-4@4-2 reads to the end;
    # the ends that stay open are written, so one reading is left.
    text = SHEET.replace("6-6 -", "6-6@6-4 -").replace("6-0 6-2", "6-0@6-6 6-2@6-5").replace(
        "4-0\n", "4-0@6-0\n")
    game = read1(text)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    moves = unstructure(game.record)["hands"][0]["moves"]
    assert moves[3]["play"] == "6-4" and moves[3]["on"] == "4-2"


def test_readings_that_give_different_scores_are_one_message_naming_the_tile_and_choices():
    record = next(made_once.simulate("horse-race", 1, 5, 3, None, None, accidents=False))
    text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False)
    game = read1(text)
    assert game.report.status == "invalid"
    (p,) = game.report.problems
    assert p.rule == readings.RULE and p.hand == 1 and p.line is not None
    m = re.search(r"(\d-\d) at (\d+):(\d+) fits more than one open tile", p.message)
    assert m and (int(m[2]), int(m[3])) == (p.line, p.column)
    assert "different scores" in p.message and f"{m[1]}@" in p.message and "write which it went on" in p.message


def test_past_the_limit_the_reader_asks_for_an_end_at_once(monkeypatch):
    monkeypatch.setattr(readings, "LIMIT", 1)
    game = read1(SHEET)
    assert game.report.status == "invalid"
    (p,) = game.report.problems
    assert "more than 1 positions of hand 1" in p.message and "write" in p.message and p.line == 8


def verdict(text: str) -> list:
    game = read1(text)
    return [game.report.to_dict(), [p.text(pointer=True) for p in game.report.problems],
            unstructure(game.record) if game.record is not None else None]


@pytest.mark.parametrize("game,seed", [("competitive", 1), ("competitive", 2), ("competitive", 3),
                                       ("horse-race", 1), ("horse-race", 2), ("broadway", 1),
                                       ("castle-rock", 1), ("domino-roads", 1)])
def test_readings_that_reach_one_position_are_merged_and_say_the_same(monkeypatch, game, seed):
    # A tile that fits two open tiles may leave positions met before (Competitive's mirrored
    # ends, a Horse Race tile set on one 2 or another): each is read once, and the verdict,
    # note, messages and record are those of trying every reading to the end (no position key).
    texts = []
    for k, record in enumerate(made_once.simulate(game, 3, seed)):
        text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False)
        first = re.search(r"\b([0-9])-([0-9])\b", text.split("\nhand", 1)[-1])
        texts += [text, re.sub(r"\n(left [^\n]*)\n", "\n", text, count=1),
                  text.replace(first.group(), f"{first.group(2)}-{first.group(1)}", 1) if first else text]
    again = readings.HandReading._again
    met = []
    monkeypatch.setattr(readings.HandReading, "_again", lambda self, *a: met.append(1) or again(self, *a))
    merged = [verdict(t) for t in texts]
    monkeypatch.setattr(game_module.Game, "position_key", lambda self: None)
    walked = [verdict(t) for t in texts]
    if game in ("competitive", "horse-race"):
        assert met, "no position was met twice"
    assert merged == walked


def test_the_limit_counts_positions_so_equal_positions_do_not_bring_it_nearer(monkeypatch):
    # The sheet's hand reads in 12 positions, merged (mirrored ends read once); tried reading by
    # reading it takes 13.  Under a limit of 12 the merged reading reads; the unmerged one asks.
    monkeypatch.setattr(readings, "LIMIT", 12)
    merged = verdict(SHEET)
    assert merged[0]["valid"] and merged[0]["note"]
    monkeypatch.setattr(game_module.Game, "position_key", lambda self: None)
    walked = verdict(SHEET)
    assert not walked[0]["valid"]
    assert "more than 12 positions of hand 1 fit what is typed" in walked[1][0]


def test_a_claimed_score_picks_the_reading_that_gives_it():
    # The hand that is ambiguous without its ends, with its result written: the scorer said
    # which reading it was, so the readings that give other scores do not count.
    record = next(made_once.simulate("horse-race", 1, 5, 3, None, None, accidents=False))
    one = attrs.evolve(record, hands=record.hands[:1], result=None)
    sides = Game.from_record(one).outcome_of(1).scores
    text = notation.dumps_typed(one, keep_deal=False, ends=False, seats=False)
    claimed = text.replace("\nend\n", "\nend " + " ".join(f"{s} {n}" for s, n in sides.items()) + "\n")
    assert claimed != text
    game = read1(claimed)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    assert game.report.scores == validate(one).scores


def test_horse_race_without_seats_under_chain_draw_false_reads():
    # After a double or a scoring tile the chain may end unwritten: the next move can then only be
    # the next seat's, and the reader tries both (12 of 12 such games were refused before).
    read = 0
    for record in made_once.simulate("horse-race", 6, 11, 4, {"chain_draw": False}, None, accidents=False):
        text = notation.dumps_typed(record, keep_deal=False, seats=False)
        game = read1(text)
        assert game.report.status == "valid", [p.text() for p in game.report.problems]
        assert game.report.scores == validate(record).scores
        got = [(m.seat, getattr(m, "play", None)) for h in game.record.hands for m in h.moves]
        want = [(m.seat, getattr(m, "play", None)) for h in record.hands for m in h.moves]
        assert got == want
        read += 1
    assert read == 6


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=2, **SETTINGS)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_a_record_typed_without_ends_and_seats_reads_back_with_the_same_scores(config, seed):
    game, players, options, variant = config
    record = next(made_once.simulate(game, 1, seed, players, options, variant))
    text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False)
    got = read1(text)
    if got.report.status == "valid":
        assert got.report.scores == validate(record).scores
    else:  # the text leaves readings with different scores, or too many: the reader asks
        assert [p.rule for p in got.report.problems] == [readings.RULE], [p.text() for p in got.report.problems]
        assert "write" in got.report.problems[0].message


def test_closing_a_hand_replays_that_hand_only(monkeypatch):
    record = next(made_once.simulate("competitive", 1, 3, None, None, None, accidents=False))
    replayed: list[int] = []
    real = game_module.validate

    def counting(rec, source="<record>", observer=None, resume=None):
        replayed.append(len(rec.hands) - (resume[1] if resume else 0))
        return real(rec, source, observer, resume)

    monkeypatch.setattr(game_module, "validate", counting)
    g = Game(record.game, record.players)
    for hand in record.hands:
        g.start_hand(hand.deal, hand.leader)
        for move in hand.moves:
            g.push(move)
        g.end_hand()
    assert len(record.hands) > 3 and replayed and max(replayed) == 1
    assert g.report().scores == validate(record).scores


def test_a_checkpoint_brings_the_game_back():
    record = next(made_once.simulate("horse-race", 1, 2, 3, None, None, accidents=False))
    hand = record.hands[0]
    g = Game(record.game, record.players)
    g.start_hand(hand.deal, hand.leader)
    for move in hand.moves[:3]:
        g.push(move)
    point = g.checkpoint()
    before = (unstructure(g.record()), g.totals, g.to_move)
    for move in hand.moves[3:]:
        g.push(move)
    g.end_hand()
    g.restore(point)
    assert (unstructure(g.record()), g.totals, g.to_move) == before
    for move in hand.moves[3:]:
        g.push(move)
    assert g.end_hand() is not None


def test_after_a_broken_rule_the_rest_of_the_sheet_is_still_checked_for_its_tiles():
    text = SHEET.replace("1-1 6-1", "1-1 9-1").replace("3-1 3-0 5-5", "3-3 3-0 5-5 6-0") + """
hand 2 lead W
6-6 6-5 5-5 5-5
left E 3-3
"""
    game = read1(text)
    assert game.report.status == "invalid"
    texts = [p.message for p in game.report.problems]
    assert "9-1 is not a tile of the double-six set" in texts[0]
    assert any(m.startswith("3-3 at 10:17 is laid in hand 1, but left E also lists it") for m in texts), texts
    assert any(m.startswith("6-0 at 10:29 is laid a second time in hand 1 (it was laid at 8:23)") for m in texts)
    assert any(m.startswith("5-5 at 14:13") and "second time in hand 2" in m for m in texts), texts
    assert [p.line for p in game.report.problems] == sorted(p.line for p in game.report.problems)
    assert "only its tiles were" in game.report.note and "hand 2 was checked only for tiles" in game.report.note


@pytest.mark.parametrize("game,players,options,variant", CONFIGS, ids=IDS)
def test_a_score_sheet_with_each_hands_scores_reads_as_the_game_was_scored(game, players, options, variant):
    # A club's score sheet: neither ends nor seats, and each hand's end line claiming the hand's
    # scores (dumps_typed's ``scores``).  Only the readings that give the claimed scores count,
    # so a Horse Race sheet, whose counts peg on the ends, is read, not asked about; every game
    # reads as it was scored.
    for record in made_once.simulate(game, 2, 3, players, options, variant, accidents=False):
        text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False, scores=True)
        closed = [h for h in record.hands if h.result is not None and h.result.scores]
        assert text.count("\nend ") == len(closed)
        found = read1(text)
        assert found.report.status == "valid", [p.text() for p in found.report.problems]
        assert [h.result.scores for h in found.record.hands] == [h.result.scores for h in record.hands]
        # A hand's claimed scores changed: the readings giving them are none, and the verdict says so.
        line = re.search(r"\nend [^\n]*", text).group()
        seat, points = next(iter(closed[0].result.scores.items()))
        wrong = text.replace(line, re.sub(rf" {seat} {points}\b", f" {seat} {points + 1}", line), 1)
        assert wrong != text and read1(wrong).report.status == "invalid"
