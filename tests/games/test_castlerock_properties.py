"""Castle Rock property tests: simulated games validate; one corrupted move is caught exactly there.

The simulator has no rules of its own (it asks the engine for legal moves), so
a simulated game that fails validation is an engine bug; and a single move
changed so that it breaks a rule must be reported at that move's JSON pointer,
not before and not after.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

from hypothesis import HealthCheck, given, settings, strategies as st

from domrec import simulate, tiles as T
from domrec.games import castlerock as cr
from domrec.reader import load_dict
from domrec.record import unstructure
from domrec.validate import validate_text

from tests.conftest import state_before

SETS = ("double-six", "double-nine", "double-twelve")
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=64)
def _game_text(seed: int, players: int, set_name: str) -> str:
    (rec,) = simulate.simulate("castle-rock", 1, seed, players, {"set": set_name})
    return simulate.dumps(rec)


def game(seed: int, players: int, set_name: str = "double-six") -> dict:
    return json.loads(_game_text(seed, players, set_name))


@FAST
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 6), set_name=st.sampled_from(SETS))
def test_every_simulated_game_validates(seed, players, set_name):
    doc = game(seed, players, set_name)
    report = validate_text(json.dumps(doc))
    assert report.valid and report.finished, [p.text() for p in report.problems]
    assert report.scores == doc["result"]["scores"] and report.winner == doc["result"]["winner"]
    assert max(report.scores.values()) >= cr.TARGET


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 6))
def test_simulated_games_with_every_move_score_claimed_validate(seed, players):
    """Each move's claim written as the engine scores it (captures earn their tiles) is accepted."""
    doc = game(seed, players)
    rec = load_dict(doc)
    match = cr.ENGINE.start(rec)
    for i, hand in enumerate(rec.hands):
        state = match.start_hand(hand)
        for j, move in enumerate(hand.moves):
            doc["hands"][i]["moves"][j]["score"] = state.apply(move)
        match.finish_hand(state)
    assert validate_text(json.dumps(doc)).valid


KINDS = ("seat", "tile", "delete", "duplicate")
CAPTURE_PHASE = cr._CAPTURE  # the turn's tile is placed: captures, then the draw


@st.composite
def corruption(draw):
    doc = game(draw(st.integers(0, 10 ** 6)), draw(st.integers(2, 6)))
    i = draw(st.integers(0, len(doc["hands"]) - 1))
    moves = doc["hands"][i]["moves"]
    kind = draw(st.sampled_from(KINDS))
    if kind == "delete":
        # A place or a draw left out: the move after it cannot follow (a capture left out may).
        choices = [j for j, m in enumerate(moves) if "play" in m or "draw" in m]
    else:
        choices = list(range(len(moves)))
    j = draw(st.sampled_from(choices))
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    return doc, i, j, kind, rng


def _corrupt(doc: dict, i: int, j: int, kind: str, rng: random.Random) -> tuple[int, str | None]:
    """Break move j of hand i in place; return the index of the move that must be reported and
    the field its problem points at (``None`` where the broken sequence, not one value, decides)."""
    moves = doc["hands"][i]["moves"]
    move = moves[j]
    seats = [p["seat"] for p in doc["players"]]
    if kind == "seat":
        state = state_before(doc, i, j)
        move["seat"] = rng.choice([s for s in seats if s != move["seat"]])
        if "play" in move and move["seat"] == state._turn and state.phase == CAPTURE_PHASE:
            # A place by the player who has just placed: the seat may be right and the place the
            # move too many, so the engine names the place (docs/format.md, "Where problems point").
            return j, "/play"
        return j, "/seat"
    if kind == "delete":
        del moves[j]
        return j, None
    if kind == "duplicate":
        moves.insert(j + 1, dict(move))
        return j + 1, None
    state = state_before(doc, i, j)
    everything = list(T.SETS[state.set_name])
    if "play" in move:
        held = set(state.hands[move["seat"]])
        move["play"] = str(rng.choice([t for t in everything if t not in held]))
        return j, "/play"
    if "capture" in move:
        row = set(state.row)
        outside = [t for t in everything if t not in row]
        k = rng.randrange(len(move["capture"]))
        move["capture"][k] = str(rng.choice(outside))
        return j, f"/capture/{k}"
    if state.boneyard is None:
        # no order written (a simulated accident): a draw must name a tile nobody has seen
        move["draw"] = str(rng.choice([t for t in everything if t not in state.unseen]))
    else:
        nxt = state.boneyard[state._bone_at]
        move["draw"] = str(rng.choice([t for t in everything if t is not nxt]))
    return j, "/draw"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corruption())
def test_a_single_corrupted_move_is_reported_at_that_move(case):
    doc, i, j, kind, rng = case
    target, field = _corrupt(doc, i, j, kind, rng)
    report = validate_text(json.dumps(doc))
    assert not report.valid
    first = report.problems[0]
    if kind == "delete" and target == len(doc["hands"][i]["moves"]):
        # The last move deleted: nothing stands at its place, the hand is left unfinished.
        assert first.pointer == f"/hands/{i}/moves" and first.kind == "unfinished", first.text()
        return
    at = f"/hands/{i}/moves/{target}"
    if field is not None:  # the offending value itself
        assert first.pointer == at + field, (kind, first.text())
    else:  # a move left out or doubled: the first move that cannot follow, at whatever is wrong in it
        assert first.pointer == at or first.pointer.startswith(at + "/"), (kind, first.text())
    assert (first.hand, first.move) == (i + 1, target + 1)
    assert first.kind == "illegal" and first.rule.startswith("castle-rock: ")


def test_the_corruptions_cover_every_move_kind():
    """The corruption strategy reaches places, captures and draws (so the property means something)."""
    doc = game(1, 4)
    kinds = {next(k for k in ("play", "capture", "draw") if k in m) for h in doc["hands"] for m in h["moves"]}
    assert kinds == {"play", "capture", "draw"}
    record = load_dict(doc)
    assert unstructure(record)["hands"][0]["moves"] == doc["hands"][0]["moves"]
