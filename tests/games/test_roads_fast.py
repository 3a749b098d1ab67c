"""Domino Roads' fast replay paths give exactly the verdicts and messages of the careful ones.

The engine checks the usual roll, reuse, pass, span, starter, road-block and
bridge inline in ``apply`` (including the partner's play that takes over the total), and a
right deal by counting it in one pass (``RoadsMatch._quick_deal``); anything
else goes to the move's handler, which names the rule broken.  Here every
record, most of them corrupted in one place, is validated twice: as the engine
does it, and with every move sent to its handler and every deal parsed tile by
tile.  The two reports must be identical, problem for problem, word for word.
"""

from __future__ import annotations

import json
import random
from contextlib import AbstractContextManager

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from domrec.games import roads

from tests.conftest import check, problem_at, state_before
from tests.games.fastpaths import careful_paths, fast_and_careful, game_text, short_game


def careful() -> AbstractContextManager[None]:
    return careful_paths(roads.RoadsHand, roads.RoadsHand._dispatch, roads.RoadsMatch)


def both(doc: dict) -> tuple[dict, dict]:
    """The report on ``doc`` as the engine gives it, and as the careful paths give it."""
    return fast_and_careful(doc, careful)


def game(seed: int, players: int, block: str) -> dict:
    return short_game("domino-roads", seed, players, "block_match", block)


def _tile_text(rng: random.Random) -> str:
    return f"{rng.randrange(7)}-{rng.randrange(7)}"


PLAYS = ("starter", "span", "block", "bridge")
MOVE_CHANGES = ("tile", "seat", "stranger", "road", "new-road", "facing", "roll", "delete", "duplicate", "swap",
                "pass", "reuse", "next-reuse", "span", "span", "block", "block", "partner", "after-the-end")
DEAL_CHANGES = ("replace", "swap", "exchange", "seat", "short")


def _change_move(doc: dict, rng: random.Random, how: str) -> None:
    i = rng.randrange(len(doc["hands"]))
    moves = doc["hands"][i]["moves"]
    j = rng.randrange(len(moves))
    move = moves[j]
    seats = [p["seat"] for p in doc["players"]]
    names = sorted({m["road"] for m in moves if "road" in m})
    if how == "tile":
        key = next((k for k in PLAYS if k in move), None)
        assume(key is not None)
        move[key] = _tile_text(rng)
    elif how == "seat":
        move["seat"] = rng.choice(seats)
    elif how == "stranger":
        move["seat"] = "Q"
    elif how == "road" and "road" in move:
        move["road"] = rng.choice(names)
    elif how == "new-road" and "road" in move:
        move["road"] = "X1"
    elif how == "facing" and "facing" in move:
        move["facing"] = rng.randrange(7)
    elif how == "roll":
        moves[j] = {"seat": move["seat"], "roll": [rng.randint(1, 6), rng.randint(1, 6)]}
    elif how == "delete":
        del moves[j]
    elif how == "duplicate":
        moves.insert(j, dict(move))
    elif how == "swap" and j + 1 < len(moves):
        moves[j], moves[j + 1] = moves[j + 1], moves[j]
    elif how == "pass":
        moves[j] = {"seat": move["seat"], "pass": True}
    elif how == "after-the-end":  # a move once a stock is empty: the dice to the next player, a pass, a play
        state = state_before(doc, i)
        last = dict(moves[-1])
        partner = state.partner[state.roller] or state.roller
        moves.append(rng.choice([{"seat": state.after[state.roller], "roll": [3, 4]}, last,
                                 {"seat": state.after[state.roller], "reuse": True},
                                 {"seat": rng.choice([state.roller, partner]), "pass": True},
                                 dict(last, seat=partner)]))
    elif how == "next-reuse":  # the next player reuses the toss, used or not
        state = state_before(doc, i, j)
        assume(state.roller is not None)
        moves.insert(j, {"seat": state.next_roller_now(), "reuse": True})
    elif how == "partner" and any(p in move for p in PLAYS):  # the roller's partner plays (turn 1 or later)
        state = state_before(doc, i, j)
        assume(state.four and state.roller is not None)
        move["seat"] = state.partner[state.roller]
    elif how == "reuse":
        moves[j] = {"seat": move["seat"], "reuse": True}
    elif how in ("span", "block"):
        # A play by someone in the turn of a tile they hold on any road of the table, one whose
        # numbers fit when there is one (a span's touching half, a double): legal or not by the
        # rest of the rules (the road's owner, length, block, last span...).
        state = state_before(doc, i, j)
        assume(state.phase and state.roads)
        seat = rng.choice([state.roller, state.partner[state.roller] or state.roller, move["seat"]])
        held = list(state.stocks[seat]) if seat in state.stocks else []
        assume(held)
        road = state.roads[rng.choice(sorted(state.roads))]
        need = state.total - road.exposed
        fits = [t for t in held if ((t.high == need or t.low == need) if how == "span" else t.high == t.low)]
        moves[j] = {"seat": seat, how: roads._name(rng.choice(fits or held)), "road": road.name}


def _change_deal(doc: dict, rng: random.Random, how: str) -> None:
    deal = rng.choice(doc["hands"])["deal"]
    places = list(deal["hands"].values()) + list((deal.get("piles") or {}).values())
    place = rng.choice(places)
    k = rng.randrange(len(place))
    if how == "replace":
        place[k] = _tile_text(rng)
    elif how == "swap":  # two tiles change places: often still a right deal, of another hand
        other = rng.choice(places)
        m = rng.randrange(len(other))
        place[k], other[m] = other[m], place[k]
    elif how == "exchange":  # one tile written twice, another left out
        other = rng.choice(places)
        other[rng.randrange(len(other))] = place[k]
    elif how == "seat":
        seat = rng.choice(list(deal["hands"]))
        deal["hands"][rng.choice(["Q", seat.lower(), seat])] = deal["hands"].pop(seat)
    elif how == "short":
        other = rng.choice(places)
        if other is not place:
            other.append(place.pop(k))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.sampled_from([3, 4]), block=st.sampled_from(["equal", "sum"]),
       change=st.sampled_from(MOVE_CHANGES + DEAL_CHANGES), rng=st.randoms(use_true_random=False))
def test_one_change_anywhere_is_judged_as_the_careful_replay_judges_it(seed, players, block, change, rng):
    doc = game(seed, players, block)
    if change in MOVE_CHANGES:
        _change_move(doc, rng, change)
    else:
        _change_deal(doc, rng, change)
    fast, slow = both(doc)
    assert fast == slow


def _bridge_chances(doc: dict) -> list[tuple[int, int, object]]:
    """(hand, move, state before it) wherever the player to move holds a 0-0 and their side has
    two roads with spans: a place for a bridge, right or wrong."""
    out = []
    for i, hand in enumerate(doc["hands"]):
        for j in range(len(hand["moves"])):
            state = state_before(doc, i, j)
            if state.phase and roads.ZERO in state.stocks[state.to_move] and \
                    sum(1 for r in state.side_roads[state.side_of[state.to_move]] if r.spans) >= 2:
                out.append((i, j, state))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.sampled_from([3, 4]), block=st.sampled_from(["equal", "sum"]),
       rng=st.randoms(use_true_random=False))
def test_a_bridge_anywhere_is_judged_as_the_careful_replay_judges_it(seed, players, block, rng):
    """A 0-0 laid by the player to move, joining two roads at spans they have (or one past), with
    halves on those spans that make the total where they can: legal or not by the other rules."""
    doc = game(seed, players, block)
    chances = _bridge_chances(doc)
    assume(chances)
    i, j, state = rng.choice(chances)
    own = sorted(r.name for r in state.side_roads[state.side_of[state.to_move]] if r.spans)
    names = own if rng.random() < 0.8 else sorted(state.roads)
    ends = []
    for name in rng.sample(names, 2) + [rng.choice(names)][:rng.random() < 0.1]:
        spans = state.roads[name].spans
        k = rng.randint(1, len(spans) + (rng.random() < 0.1)) if spans else 1
        ends.append({"road": name, "span": k, "half": rng.choice(
            [spans[k - 1][0].high, spans[k - 1][0].low] if k <= len(spans) else [rng.randrange(7)])})
    a, b = ends[-2:]
    if 0 <= state.total - a["half"] <= 6 and rng.random() < 0.7:
        b["half"] = state.total - a["half"]
    doc["hands"][i]["moves"][j] = {"seat": state.to_move, "bridge": "0-0", "join": [a, b]}
    fast, slow = both(doc)
    assert fast == slow


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.sampled_from([3, 4]), block=st.sampled_from(["equal", "sum"]))
def test_whole_games_are_judged_alike(seed, players, block):
    doc = json.loads(game_text("domino-roads", seed, players, "block_match", block))
    fast, slow = both(doc)
    assert fast == slow and fast["valid"]


# --- the deal counted in one pass: each fault it lets through to the careful parse -----------------

def _record() -> dict:
    doc = json.loads(game_text("domino-roads", 7, 4, "block_match", "equal"))
    del doc["hands"][1:]
    doc["hands"][0]["moves"] = []
    doc.pop("result", None)
    return doc


def test_a_third_copy_with_every_stock_ten_long_is_named():
    doc = _record()
    hands = doc["hands"][0]["deal"]["hands"]
    twice = next(t for t in hands["N"] if sum(h.count(t) for h in hands.values()) == 2)
    other = next(s for s in hands if twice not in hands[s])
    hands[other][0] = twice
    p = check(doc).problems[0]
    assert p.rule == roads.R_SETS and p.message.startswith(f"{twice} is dealt 3 times, but the set has")


def test_a_tile_of_no_set_with_every_stock_ten_long_is_named():
    doc = _record()
    doc["hands"][0]["deal"]["hands"]["E"][3] = "7-1"
    p = problem_at(check(doc), "/hands/0/deal/hands/E/3")
    assert p.message == "7-1 is not a tile of the 40-tile Domino Roads set"


def test_eleven_tiles_and_nine_are_named():
    doc = _record()
    hands = doc["hands"][0]["deal"]["hands"]
    hands["N"].append(hands["S"].pop())
    p = problem_at(check(doc), "/hands/0/deal/hands/N")
    assert p.message == "N has a stock of 11 tiles; each player draws 10"


def test_a_seat_not_at_the_table_is_named():
    doc = _record()
    hands = doc["hands"][0]["deal"]["hands"]
    hands["X"] = hands.pop("W")
    p = problem_at(check(doc), "/hands/0/deal/hands/X")
    assert p.message == "the deal names seat X, who is not among the players (N, E, S, W)"


def test_the_partner_taking_over_with_a_tile_not_held_is_refused_and_the_turn_is_the_partners():
    """The partner's first play takes over the total before anything else is checked, as the
    handler's part check did: a later play by the roller is then out of turn."""
    doc = json.loads(game_text("domino-roads", 11, 4, "block_match", "equal"))
    moves = doc["hands"][0]["moves"]
    # The first play by a roller's partner (turn 2 on): it takes over the total.
    rollers = [m["seat"] for m in moves if "roll" in m or "reuse" in m]
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    j = next(k for k, m in enumerate(moves)
             if len([x for x in moves[:k] if "roll" in x or "reuse" in x]) >= 2
             and any(p in m for p in PLAYS)
             and m["seat"] == opposite[[x for x in moves[:k] if "roll" in x or "reuse" in x][-1]["seat"]])
    assert rollers
    state = state_before(doc, 0, j)
    stock = {roads._name(t) for t in state.stocks[moves[j]["seat"]]}
    absent = next(f"{a}-{b}" for a in range(7) for b in range(a + 1) if f"{a}-{b}" not in stock)
    moves[j] = {"seat": moves[j]["seat"], "span": absent, "road": "NS1"}
    fast, slow = both(doc)
    assert fast == slow
    first = fast["problems"][0]
    assert first["pointer"] == f"/hands/0/moves/{j}/span" and "does not hold" in first["message"]


def test_the_partners_play_after_the_roller_went_out_is_refused():
    """The roller empties their stock; their partner's play that would take over the total must
    not: the hand is over (the fast path once let it through to the scores)."""
    for seed in range(200):
        doc = json.loads(game_text("domino-roads", seed, 4, "block_match", "equal"))
        doc.pop("result", None)
        for i in range(len(doc["hands"])):
            state = state_before(doc, i)
            if state.phase == roads.ROLLER and state.turn_no > 1 and state.out_seat == state.roller:
                break
        else:
            continue
        partner = state.partner[state.roller]
        fit = next((t for t in state.stocks[partner]
                    if t.high + t.low == state.total and t is not roads.ZERO), None)
        if fit is None:
            continue
        moves = doc["hands"][i]["moves"]
        moves.append({"seat": partner, "starter": roads._name(fit), "road": "Z9", "facing": fit.high})
        del doc["hands"][i + 1:]
        fast, slow = both(doc)
        assert fast == slow
        p = problem_at(check(doc), f"/hands/{i}/moves/{len(moves) - 1}")
        assert p.message == (f"the hand is already over: {state.roller} played the last tile of their stock, "
                             f"so no move may follow")
        assert p.rule == roads.R_END
        return
    raise AssertionError("no game with a roller going out in their own part")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.sampled_from([3, 4]), rng=st.randoms(use_true_random=False))
def test_a_deal_written_low_half_first_is_the_same_deal(seed, players, rng):
    """The deal's quick check sorts its texts against the set written high half first; a tile
    written the other way round (``3-6``) is the same tile, and the deal stays right."""
    doc = game(seed, players, "equal")
    for hand in doc["hands"]:
        deal = hand["deal"]
        for place in list(deal["hands"].values()) + list((deal.get("piles") or {}).values()):
            for k, text in enumerate(place):
                if rng.random() < 0.3:
                    a, b = text.split("-")
                    place[k] = f"{b}-{a}"
    fast, slow = both(doc)
    assert fast == slow and fast["valid"]
