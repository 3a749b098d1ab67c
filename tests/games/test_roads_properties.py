"""Domino Roads property tests over simulated games (docs/rules/domino-roads.md).

* every simulated game, four or three players, either block_match, validates;
* a single corrupted move (one that breaks a rule by construction) is
  reported at exactly that move's JSON Pointer;
* the engine's legal move list and its judge agree: a candidate move is
  accepted exactly when it is listed.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from domrec import games, simulate
from domrec.reader import load_dict
from domrec.record import Block, Bridge, Join, Pass, Reuse, Roll, Span, Starter
from domrec.errors import RuleViolation
from domrec.tiles import roads_set, tile
from domrec.validate import validate
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

PLAYS = ("starter", "span", "bridge", "block")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game(seed: int, players: int, block_match: str) -> dict:
    record = next(made_once.simulate("domino-roads", 1, seed, players, {"block_match": block_match}))
    return json.loads(simulate.dumps(record))


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]), block=st.sampled_from(["equal", "sum"]))
def test_every_simulated_game_validates(seed, players, block):
    doc = game(seed, players, block)
    report = validate(load_dict(doc))
    assert report.valid and report.finished, [p.text() for p in report.problems]
    target = 2000 if players == 4 else 1000
    assert max(report.scores.values()) >= target


def _context(doc: dict, h: int, j: int) -> tuple[str, int, bool, int]:
    """(roller, total, whether the current toss was used, turns so far) before move j of hand h."""
    roller, total, used, turns = None, 0, False, 0
    for m in doc["hands"][h]["moves"][:j]:
        if "roll" in m or "reuse" in m:
            roller, used, turns = m["seat"], False, turns + 1
            if "roll" in m:
                total = sum(m["roll"])
        elif any(k in m for k in PLAYS):
            used = True
    return roller, total, used, turns


def _opponents(doc: dict, seat: str) -> list[str]:
    seats = [p["seat"] for p in doc["players"]]
    if len(seats) == 4:
        return [s for s in seats if (s in "NS") != (seat in "NS")]
    return [s for s in seats if s != seat]


def _mutations(doc: dict, h: int, j: int, rng: random.Random) -> list[tuple[dict, str]]:
    """Single-move corruptions that break a rule whatever else is on the table, each with the
    field its problem points at (docs/format.md, "Where problems point")."""
    move = doc["hands"][h]["moves"][j]
    roller, total, used, _ = _context(doc, h, j)
    seats = [p["seat"] for p in doc["players"]]
    out = []
    if "roll" in move or "reuse" in move:
        for other in seats:
            if other != move["seat"]:
                out.append(({**move, "seat": other}, "/seat"))  # only the next player takes the dice
        if "roll" in move and (used or roller is None):
            out.append(({"seat": move["seat"], "reuse": True}, "/reuse"))  # the toss was used (or there is none)
        return out
    if "pass" in move or any(k in move for k in PLAYS):
        for other in _opponents(doc, roller):
            out.append(({**move, "seat": other}, "/seat"))  # an opponent of the roller never plays in this turn
    full = [t for t in roads_set(len(seats))]
    if "starter" in move:
        wrong = [t for t in full if t.high + t.low != total]
        t = rng.choice(wrong)
        out.append(({**move, "starter": f"{t.high}-{t.low}"}, "/starter"))
        t = tile(move["starter"])
        out.append(({**move, "facing": rng.choice([n for n in range(7) if n not in (t.high, t.low)])}, "/facing"))
    if "span" in move or "block" in move:
        out.append(({**move, "road": "no such road"}, "/road"))
    if "block" in move:
        t = rng.choice([t for t in full if t.high != t.low])
        out.append(({**move, "block": f"{t.high}-{t.low}"}, "/block"))
    if "bridge" in move:
        t = rng.choice([t for t in full if t.high or t.low])
        out.append(({**move, "bridge": f"{t.high}-{t.low}"}, "/bridge"))
        join = copy.deepcopy(move["join"])
        join[1]["span"] = 99
        out.append(({**move, "join": join}, "/join/1/span"))
    return out


@SETTINGS
@given(data=st.data(), seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]))
def test_a_single_corrupted_move_is_reported_at_its_pointer(data, seed, players):
    doc = game(seed, players, "equal")
    h = data.draw(st.integers(0, len(doc["hands"]) - 1), label="hand")
    moves = doc["hands"][h]["moves"]
    j = data.draw(st.integers(0, len(moves) - 1), label="move")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="rng"))
    options = _mutations(doc, h, j, rng)
    assume(options)
    bad, field = data.draw(st.sampled_from(options), label="corruption")
    doc["hands"][h]["moves"][j] = bad
    report = validate(load_dict(doc))
    assert report.status == "invalid"
    first = report.problems[0]
    assert first.pointer == f"/hands/{h}/moves/{j}{field}", (bad, first.text())
    assert (first.hand, first.move) == (h + 1, j + 1)
    assert first.kind == "illegal" and first.rule.startswith("domino-roads: ")


def _canon(move) -> tuple:
    kind = type(move)
    if kind is Starter:
        return (move.seat, "starter", tile(move.starter), move.facing)
    if kind in (Span, Block):
        return (move.seat, kind.__name__, tile(getattr(move, kind.__name__.lower())), move.road)
    if kind is Bridge:
        return (move.seat, "bridge", tile(move.bridge), frozenset((j.road, j.span, j.half) for j in move.join))
    if kind is Roll:
        return (move.seat, "roll", tuple(move.roll))
    return (move.seat, kind.__name__)


def _replay(record, h: int, k: int):
    match = games.engine("domino-roads").start(record)
    for i, hand in enumerate(record.hands):
        state = match.start_hand(hand)
        moves = hand.moves if i < h else hand.moves[:k]
        for m in moves:
            state.apply(m)
        if i == h:
            return state
        match.finish_hand(state)


def _candidates(state, rng: random.Random) -> list:
    """Plausible and implausible moves for any seat: tiles from the set on roads that exist or not."""
    seats = list(state.seats)
    names = list(state.roads) + ["fresh road"]
    full = list(roads_set(len(seats)))
    out = []
    for _ in range(25):
        seat = rng.choice(seats)
        t = rng.choice(full)
        text = f"{t.high}-{t.low}" if rng.random() < 0.5 else f"{t.low}-{t.high}"
        kind = rng.randrange(6)
        if kind == 0:
            out.append(Starter(seat=seat, starter=text, road="fresh road", facing=rng.choice((t.high, t.low, 3))))
        elif kind == 1:
            out.append(Span(seat=seat, span=text, road=rng.choice(names)))
        elif kind == 2:
            out.append(Block(seat=seat, block=text, road=rng.choice(names)))
        elif kind == 3:
            ends = []
            for _ in range(2):
                road = state.roads.get(rng.choice(names))
                span = rng.randint(1, max(1, len(road.spans))) if road is not None else 1
                half = rng.choice((road.spans[span - 1][0].high, road.spans[span - 1][0].low)) \
                    if road is not None and road.spans else rng.randint(0, 6)
                ends.append(Join(road=road.name if road is not None else "fresh road", span=span, half=half))
            out.append(Bridge(seat=seat, bridge="0-0" if rng.random() < 0.8 else text, join=tuple(ends)))
        elif kind == 4:
            out.append(Pass(seat=seat))
        else:
            out.append(Reuse(seat=seat) if rng.random() < 0.5 else Roll(seat=seat, roll=(rng.randint(1, 6), 3)))
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]),
       block=st.sampled_from(["equal", "sum"]))
def test_a_move_is_accepted_exactly_when_it_is_listed(data, seed, players, block):
    record = load_dict(game(seed, players, block))
    h = data.draw(st.integers(0, len(record.hands) - 1), label="hand")
    k = data.draw(st.integers(0, len(record.hands[h].moves) - 1), label="prefix")
    state = _replay(record, h, k)
    legal = {_canon(m) for m in state.legal_moves()}
    rng = random.Random(data.draw(st.integers(0, 2**32), label="rng"))
    cands = _candidates(state, rng) + rng.sample(state.legal_moves(), 5)
    for move in cands:
        fresh = _replay(record, h, k)
        try:
            fresh.apply(move)
            accepted = True
        except RuleViolation:
            accepted = False
        assert accepted == (_canon(move) in legal), (move, accepted)


def test_legal_moves_list_the_next_dice_and_reuse_only_when_unused():
    record = load_dict(game(5, 4, "equal"))
    state = games.engine("domino-roads").start(record).start_hand(record.hands[0])
    first = state.legal_moves()
    assert len(first) == 36 and all(type(m) is Roll and m.seat == "S" for m in first)
    state.apply(Roll(seat="S", roll=(6, 6)))
    listed = state.legal_moves()
    assert any(type(m) is Reuse and m.seat == "W" for m in listed)
    assert all(m.seat in ("S", "W") for m in listed)  # first turn: no partner
