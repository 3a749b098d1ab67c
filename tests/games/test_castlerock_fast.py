"""Castle Rock's fast replay paths give exactly the verdicts and messages of the careful ones.

The engine checks the usual case of each move inline in ``apply`` (a place at
the open end, the next player's place once the boneyard is empty, a capture
of one or of three, a draw of the boneyard's next tile) and a whole, correct
deal with one set comparison (``CastleRockMatch._quick_deal``); anything else
goes to the helpers that name the rule broken.  Here every record, most of
them corrupted in one place, is validated twice: as the engine does it, and
with every move sent to those helpers and every deal walked tile by tile.  The
two reports must be identical, problem for problem, word for word.
"""

from __future__ import annotations

import json
import random
from contextlib import AbstractContextManager

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from domrec.games import castlerock as cr
from domrec.record import Capture, Draw, Play

from tests.conftest import check, problem_at, state_before
from tests.games.fastpaths import careful_paths, fast_and_careful, game_text, short_game

SETS = ("double-six", "double-nine", "double-twelve")
FAST_APPLY = cr.CastleRockHand.apply


def _careful_apply(self, move):
    """Every move through the helpers that word the rules (the known replay before its fast paths)."""
    kind = type(move)
    if kind is Play and (self.phase or move.seat != self._turn):
        self._place_out_of_turn(move.seat, move.play)  # refuses, or passes the turn to the placer
    if kind is Capture:
        return self._capture(move)
    if kind is Draw:
        self._draw(move)
        return 0
    return FAST_APPLY(self, move)  # a place by the player to place, or a move of no Castle Rock kind


def careful() -> AbstractContextManager[None]:
    return careful_paths(cr.CastleRockHand, _careful_apply, cr.CastleRockMatch)


def both(doc: dict) -> tuple[dict, dict]:
    """The report on ``doc`` as the engine gives it, and as the careful paths give it."""
    return fast_and_careful(doc, careful)


def game(seed: int, players: int, set_name: str) -> dict:
    return short_game("castle-rock", seed, players, "set", set_name)


def _tile_text(rng: random.Random) -> str:
    a, b = rng.randrange(13), rng.randrange(13)
    return f"{a}-{b}"


MOVE_CHANGES = ("tile", "seat", "stranger", "delete", "duplicate", "swap", "pass", "draw", "capture",
                "reverse", "play-at", "from-the-row", "from-the-row")
DEAL_CHANGES = ("replace", "swap", "exchange", "seat", "short", "no-boneyard", "no-row")


def _change_move(doc: dict, rng: random.Random, how: str) -> None:
    i = rng.choice([k for k, h in enumerate(doc["hands"]) if h["moves"]])
    moves = doc["hands"][i]["moves"]
    j = rng.randrange(len(moves))
    move = moves[j]
    seats = [p["seat"] for p in doc["players"]]
    if how == "tile":
        if "play" in move:
            move["play"] = _tile_text(rng)
        elif "capture" in move:
            move["capture"][rng.randrange(len(move["capture"]))] = _tile_text(rng)
        else:
            move["draw"] = _tile_text(rng)
    elif how == "seat":
        move["seat"] = rng.choice(seats)
    elif how == "stranger":
        move["seat"] = "Q"
    elif how == "delete":
        del moves[j]
    elif how == "duplicate":
        moves.insert(j, dict(move))
    elif how == "swap" and j + 1 < len(moves):
        moves[j], moves[j + 1] = moves[j + 1], moves[j]
    elif how == "pass":
        moves[j] = {"seat": move["seat"], "pass": True}
    elif how == "draw":
        moves[j] = {"seat": move["seat"], "draw": rng.choice([True, _tile_text(rng)])}
    elif how == "capture":
        moves[j] = {"seat": move["seat"], "capture": [_tile_text(rng) for _ in range(rng.choice((1, 2, 3)))]}
    elif how == "reverse" and "capture" in move:
        move["capture"].reverse()
        rng.shuffle(move["capture"])
    elif how == "from-the-row":
        # A capture of tiles that lie in the row as it stands: one, or three in a row, which may or
        # may not share the numbers a capture needs (each fast test's failing case).
        row = [str(t) for t in state_before(doc, i, j).row]
        assume(row)
        k = rng.randrange(len(row))
        taken = row[max(k - 1, 0):k + 2] if rng.random() < 0.5 else [row[k]]
        moves[j] = {"seat": move["seat"], "capture": taken[::rng.choice((1, -1))]}
    elif how == "play-at":
        moves[j] = {"seat": move["seat"], "play": _tile_text(rng), "on": _tile_text(rng)}


def _change_deal(doc: dict, rng: random.Random, how: str) -> None:
    deal = rng.choice(doc["hands"])["deal"]
    places = [deal["hands"][s] for s in deal["hands"]] + [deal["row"]] + \
        ([deal["boneyard"]] if "boneyard" in deal else [])
    place = rng.choice([p for p in places if p])
    k = rng.randrange(len(place))
    if how == "replace":
        place[k] = _tile_text(rng)
    elif how == "swap":  # two tiles change places: often still a right deal, of another hand
        other = rng.choice([p for p in places if p])
        m = rng.randrange(len(other))
        place[k], other[m] = other[m], place[k]
    elif how == "exchange":  # one tile written twice, another left out
        other = rng.choice([p for p in places if p])
        other[rng.randrange(len(other))] = place[k]
    elif how == "seat":
        seat = rng.choice(list(deal["hands"]))
        deal["hands"][rng.choice(["Q", seat.lower(), seat])] = deal["hands"].pop(seat)
    elif how == "short":
        other = rng.choice([p for p in places if p])
        other.append(place.pop(k))
    elif how == "no-boneyard":
        deal.pop("boneyard", None)
    elif how == "no-row":
        del deal["row"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 6), set_name=st.sampled_from(SETS),
       change=st.sampled_from(MOVE_CHANGES + DEAL_CHANGES), rng=st.randoms(use_true_random=False))
def test_one_change_anywhere_is_judged_as_the_careful_replay_judges_it(seed, players, set_name, change, rng):
    doc = game(seed, players, set_name)
    if change in MOVE_CHANGES:
        _change_move(doc, rng, change)
    else:
        _change_deal(doc, rng, change)
    fast, slow = both(doc)
    assert fast == slow


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 6), set_name=st.sampled_from(SETS))
def test_whole_games_are_judged_alike(seed, players, set_name):
    doc = json.loads(game_text("castle-rock", seed, players, "set", set_name))
    fast, slow = both(doc)
    assert fast == slow and fast["valid"]


# --- the deal's one set comparison: each fault it lets through to the careful walk --------------

def _deal() -> dict:
    return {"hands": {"P1": ["5-5", "4-4"], "P2": ["3-3", "2-2"]}, "row": ["6-6", "6-5", "6-4", "6-3"],
            "boneyard": ["6-2", "6-1", "6-0", "5-4", "5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1", "4-0",
                         "3-2", "3-1", "3-0", "2-1", "2-0", "1-1", "1-0", "0-0"]}


def _record(deal: dict) -> dict:
    return {"format": "domrec", "version": "1.0", "game": "castle-rock",
            "players": [{"seat": "P1", "name": "A"}, {"seat": "P2", "name": "B"}],
            "hands": [{"deal": deal, "moves": []}]}


def test_a_right_deal_passes_the_set_comparison():
    assert check(_record(_deal())).valid


def test_a_tile_of_another_set_with_every_length_right_is_named():
    deal = _deal()
    deal["boneyard"][5] = "7-7"
    p = problem_at(check(_record(deal)), "/hands/0/deal/boneyard/5")
    assert p.message == "7-7 is not a tile of the double-six set" and p.rule == cr.R_DEAL


def test_a_tile_twice_with_every_length_right_is_named():
    deal = _deal()
    deal["boneyard"][0] = "4-4"  # 6-2 left out, 4-4 in P1's hand and in the boneyard
    p = check(_record(deal)).problems[0]
    assert p.pointer == "/hands/0/deal/boneyard/0"
    assert p.message == "4-4 is dealt twice (P1 has it too); the set has one of each tile"


def test_a_seat_not_at_the_table_with_every_length_right_is_named():
    deal = _deal()
    deal["hands"]["Q"] = deal["hands"].pop("P2")
    p = check(_record(deal)).problems[0]
    assert p.pointer == "/hands/0/deal/hands/Q"
    assert p.message == "the deal names seat Q, who is not among the players (P1, P2)"


def test_three_tiles_to_one_player_and_one_to_the_other_is_named():
    deal = _deal()
    deal["hands"]["P1"].append(deal["hands"]["P2"].pop())
    p = check(_record(deal)).problems[0]
    assert p.pointer == "/hands/0/deal/hands/P1" and p.message == "P1 was dealt 3 tiles; each player is dealt 2"
