"""The most a side can score, as each engine declares it (``final_scores``: one hand's most and a
game's total, :class:`domrec.games.base.ScoreRange`): never below what the rules give.  Simulated
games of every game and option set (long and high-scoring ones too: Horse Race to 1000 with the
target checked after hands, Celko, Castle Rock's largest set, Domino Roads' 2000) stay within the
bounds hand by hand and peg by peg, and their hands typed as score sheets are taken; a game sent
on past its target by a tie at the top (Domino Roads, Horse Race) is taken above ``target - 1 +
step``, as the rules give it; and a slip (2000 for 200, 1680 for 168) is refused in words."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domrec import games, phrases, reader
from domrec import simulate as sim
from domrec.errors import DomrecError
from domrec.game import Game
from domrec.games import horserace, roads
from domrec.record import unstructure
from domrec.validate import validate

from tests.conftest import examples

#: (game, players, options, variant): every game, every option that could move a bound, every count.
CONFIGS = [
    ("competitive", 4, {"first_lead": "any"}, None),
    ("competitive", 4, {"first_lead": "double-six"}, None),
    ("broadway", 4, None, None),
    ("horse-race", 2, None, None),
    ("horse-race", 3, {"chain_draw": False}, None),
    ("horse-race", 4, None, None),
    ("horse-race", 4, {"partnerships": True}, None),
    ("horse-race", 4, {"partnerships": True, "count_partner": True}, None),
    ("horse-race", 2, {"win_check": "end_of_hand"}, None),
    ("horse-race", 3, {"win_check": "end_of_hand", "target": 1000}, None),
    ("horse-race", 2, {"target": 300}, None),
    ("horse-race", 2, None, "celko"),
    ("horse-race", 3, {"win_check": "end_of_hand"}, "celko"),
    ("horse-race", 4, {"partnerships": True, "target": 500}, "celko"),
    ("castle-rock", 2, None, None),
    ("castle-rock", 3, {"start_tiles": 10}, None),
    ("castle-rock", 5, None, None),
    ("castle-rock", 6, None, None),
    ("castle-rock", 3, {"set": "double-nine"}, None),
    ("castle-rock", 2, {"set": "double-twelve"}, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, None, None),
    ("domino-roads", 4, {"block_match": "sum"}, None),
]
IDS = [f"{g}-{n}-{'-'.join(f'{k}={v}' for k, v in (o or {}).items()) or 'std'}{'-' + v if v else ''}"
       for g, n, o, v in CONFIGS]


def span_of(record) -> games.base.ScoreRange:
    engine = games.engine(record.game)
    return engine.final_scores(record.variant, games.base.resolve_options(engine, record), len(record.players))


def walk(record) -> tuple[int, int]:
    """Every hand of ``record`` within one hand's bound, every total after a hand within a game's
    (the sides' totals then), every move's points within one peg's (Horse Race); how close the
    game came to each bound: its highest hand, its highest total."""
    span = span_of(record)
    totals = {side: 0 for side in record.hands[0].result.scores} if record.hands else {}
    top_hand = top_total = 0
    for hand in record.hands:
        for side, n in hand.result.scores.items():
            assert span.hand_refusal(side, n) is None, (hand, span)
            top_hand = max(top_hand, n)
            totals[side] = totals.get(side, 0) + n
        for side, n in totals.items():
            assert span.total_refusal(side, n, totals) is None, (totals, span)
            top_total = max(top_total, n)
        if record.game == "horse-race":
            celko = record.variant == "celko"
            for move in hand.moves:
                points = getattr(move, "score", None) or 0
                assert points <= (horserace.MOST_COUNT // 5 * 5 if celko else horserace.MOST_COUNT // 5)
    if record.result is not None and record.result.scores:
        assert record.result.scores == totals
    return top_hand, top_total


def sheets(record):
    """``record`` with every hand typed as on a score sheet (its result and leader alone)."""
    doc = json.loads(json.dumps(unstructure(record)))
    doc["version"] = "1.1"
    doc["hands"] = [({"leader": h["leader"]} if "leader" in h else {}) | {"result": h["result"]}
                    for h in doc["hands"]]
    return reader.load_dict(doc)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_simulated_games_stay_within_the_bounds_and_their_score_sheets_are_taken(config):
    game, players, options, variant = config
    count = examples(6, 40)
    for record in sim.simulate(game, count, 7, players, options, variant):
        assert validate(record).valid
        walk(record)
        report = validate(sheets(record))
        assert report.valid, [p.text() for p in report.problems]


@settings(max_examples=examples(25, 300), deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_any_simulated_game_stays_within_the_bounds(config, seed):
    game, players, options, variant = config
    walk(next(sim.simulate(game, 1, seed, players, options, variant)))


# --- a game sent on past its target by a tie at the top -----------------------------------------


def sheet_game(game, players, hands, options=None, variant=None):
    """A record of score-sheet hands (each ``{side: points}``, ``end`` ``out``), validated."""
    doc = {"format": "domrec", "version": "1.1", "game": game,
           "players": [{"seat": s, "name": s} for s in players], "hands": [
               {"result": {"scores": h, "end": "out"}} for h in hands]}
    if options or variant:
        doc["rules"] = {**({"options": options} if options else {}), **({"variant": variant} if variant else {})}
    return validate(reader.load_dict(doc))


def test_a_roads_tie_past_the_target_plays_on_and_the_bound_allows_for_it():
    """Four players: NS and EW level on 2700 after the third hand (past 2000: another hand), NS
    then scores 990: 3690, far past 1999 + 997 = 2996, as the rules give it.  The bound counts
    the tie (EW's 2700 + 997), and would refuse it with EW below the target."""
    hands = [{"NS": 900, "EW": 900}, {"NS": 900, "EW": 900}, {"NS": 900, "EW": 900}, {"NS": 990, "EW": 60}]
    report = sheet_game("domino-roads", "NESW", hands)
    assert report.valid and report.scores == {"NS": 3690, "EW": 2760}, [p.text() for p in report.problems]
    span = games.engine("domino-roads").final_scores("standard", {}, 4)
    assert span.most("NS", {"NS": 3690, "EW": 2760}) == (
        3757, "EW's 2760 + 997, the most one hand can score: a tie at the top sends play on")
    assert span.total_refusal("NS", 3690, {"NS": 3690, "EW": 2760}) is None
    assert span.total_refusal("NS", 3690, {"NS": 3690, "EW": 1990}) == (
        "NS 3690: a game to 2000 cannot end above 2996 (1999 + 997, the most one hand can score)")


def test_a_horse_race_tie_past_the_target_plays_on_and_the_bound_allows_for_it():
    """Two players to 61: five blocked hands whose lowest hands tie (75 pips each: each scores the
    other's, rounded, ÷ 5: 15) leave P1 and P2 level on 75, past the target: another hand.  P1
    dominoes against 150 pips: 30, and ends on 105, past 60 + 34 = 94, as the rules give it;
    the bound counts the tie (P2's 75 + 34)."""
    doc_hands = [{"result": {"scores": {"P1": 15, "P2": 15}, "end": "blocked"}}] * 5 + [
        {"result": {"scores": {"P1": 30, "P2": 0}, "end": "out"}}]
    doc = {"format": "domrec", "version": "1.1", "game": "horse-race",
           "players": [{"seat": "P1", "name": "A"}, {"seat": "P2", "name": "B"}], "hands": doc_hands}
    report = validate(reader.load_dict(doc))
    assert report.valid and report.scores == {"P1": 105, "P2": 75}, [p.text() for p in report.problems]
    span = games.engine("horse-race").final_scores("standard", {"target": 61, "win_check": "immediate"}, 2)
    assert span.total_refusal("P1", 105, {"P1": 105, "P2": 75}) is None
    assert span.total_refusal("P1", 110, {"P1": 110, "P2": 75}) is not None
    assert span.total_refusal("P1", 105, {"P1": 105, "P2": 50}) == (
        "P1 105: a game to 61 cannot end above 94 (60 + 34, the most a side scores at once: a peg, "
        "or a hand's end count)")


# --- each engine's bounds, in numbers and words -------------------------------------------------

BOUNDS = [  # game, variant, options, players, one hand's most, a game's most (no tie)
    ("competitive", "standard", {}, 4, 137, 336),
    ("broadway", "standard", {}, 4, 270, None),
    ("horse-race", "standard", {"target": 61, "win_check": "immediate"}, 2, 790, 94),
    ("horse-race", "standard", {"target": 61, "win_check": "end_of_hand"}, 3, 790, 850),
    ("horse-race", "celko", {"target": 200, "win_check": "immediate"}, 2, 3780, 334),
    ("horse-race", "celko", {"target": 200, "win_check": "end_of_hand"}, 4, 3780, 3979),
    ("castle-rock", "standard", {"set": "double-six"}, 2, 28, 77),
    ("castle-rock", "standard", {"set": "double-nine"}, 6, 55, 104),
    ("castle-rock", "standard", {"set": "double-twelve"}, 3, 91, 140),
    ("domino-roads", "standard", {}, 4, 997, 2996),
    ("domino-roads", "standard", {}, 3, 821, 1820),
]


@pytest.mark.parametrize("game, variant, options, players, hand, total", BOUNDS)
def test_each_engine_states_its_bounds(game, variant, options, players, hand, total):
    span = games.engine(game).final_scores(variant, options, players)
    assert span.hand == hand
    most = span.most("A", {"A": 0, "B": 0})
    assert (most[0] if most else None) == total


def test_the_count_and_the_end_count_of_horse_race():
    """138: every non-double's higher number, every double's two, and the 5 of a 6-5 lead; 34:
    the set's 168 pips rounded to 170, ÷ 5; Domino Roads: 50 + 25 x 20 + 447, 50 + 25 x 13 + 446."""
    assert (horserace.MOST_COUNT, horserace.MOST_END, horserace.SET_PIPS) == (138, 34, 168)
    assert (roads.most_in_a_hand(4), roads.most_in_a_hand(3)) == (997, 821)


def test_the_refusals_say_the_side_and_the_bound_in_words():
    span = games.engine("competitive").final_scores("standard", {}, 4)
    assert span.total_refusal("NS", 2000, {"NS": 2000, "EW": 150}) == (
        "NS 2000: a game to 200 cannot end above 336 (199 + 137, the most one hand can score)")
    assert span.total_refusal("NS", 336, {"NS": 336, "EW": 150}) is None
    assert span.hand_refusal("NS", 1680) == (
        "NS 1680: one hand cannot score above 137 (a domino scores at most the pips of the other three hands)")
    assert games.engine("broadway").final_scores("standard", {}).most("NS", {"NS": 9999, "EW": 0}) is None


@pytest.mark.parametrize("game, players, sides, score, words", [
    ("horse-race", ("P1", "P2"), ("P1", "P2"), 1680,
     "P1 1680: one hand cannot score above 790 (28 tiles set, each pegging at most 27, and 34 for the hand's end)"),
    ("domino-roads", ("N", "E", "S", "W"), ("NS", "EW"), 9970,
     "NS 9970: one hand cannot score above 997 (going out, full roads of the side's own tiles and every stock "
     "credit of the set)"),
    ("castle-rock", ("P1", "P2"), ("P1", "P2"), 280,
     "P1 280: one hand cannot score above 28 (every tile of the set captured)"),
])
def test_a_score_sheet_hand_above_the_most_one_hand_scores_is_refused(game, players, sides, score, words):
    g = Game(game, players)
    with pytest.raises(DomrecError) as caught:
        g.add_score_sheet_hand({sides[0]: score, sides[1]: 60 if game == "domino-roads" else 0}, "out")
    assert words in str(caught.value)


def test_a_horse_race_score_sheet_past_what_the_target_lets_a_game_reach_is_refused():
    """To 61, checked after every peg: P1 on 50 cannot end a hand on 150 (the game ends at the
    peg that reaches 61, and a peg or an end count gives 34 at most)."""
    g = Game("horse-race", ("P1", "P2"))
    g.add_score_sheet_hand({"P1": 50, "P2": 0}, "out")
    with pytest.raises(DomrecError) as caught:
        g.add_score_sheet_hand({"P1": 100, "P2": 0}, "out")
    assert ("P1 150: a game to 61 cannot end above 94 (60 + 34, the most a side scores at once: a peg, or a "
            "hand's end count)") in str(caught.value)


# --- Celko checked after every hand: one side gains at most 3780 on another in a hand ------------


def test_a_celko_tie_past_the_target_bounds_a_side_by_another_plus_one_hands_gain():
    """Celko, the target looked at after every hand: in one hand a side gains on another at most
    28 x 135 = 3780 in all, its pegs and the other's pips left together (each tile is either set,
    pegging at most 135 for whoever set it, or held, costing its holder at most 12 pips and 2 of
    rounding), not 3780 + 170.  P1 and P2 level on 1000 past 200 play another hand; P1 pegging
    3780 while P2 subtracts 170 would need every tile set by P1 and 168 pips held by P2: refused."""
    span = games.engine("horse-race").final_scores("celko", {"target": 200, "win_check": "end_of_hand"}, 2)
    assert span.most("P1", {"P1": 4610, "P2": 830}) == (
        4610, "P2's 830 + 3780, the most a side gains on another in one hand (its pegs and the other's pips "
              "left, 135 at most a tile): a tie at the top sends play on")
    assert span.total_refusal("P1", 4610, {"P1": 4610, "P2": 830}) is None
    assert span.total_refusal("P1", 4780, {"P1": 4780, "P2": 830}) == (
        "P1 4780: a game to 200 cannot end above 4610 (P2's 830 + 3780, the most a side gains on another in one "
        "hand (its pegs and the other's pips left, 135 at most a tile): a tie at the top sends play on)")
    # Below the target, another side's total bounds nothing beyond target - 1 + 3780.
    assert span.most("P1", {"P1": 0, "P2": 40})[0] == 199 + 3780
    assert phrases.translate(span.total_refusal("P1", 4780, {"P1": 4780, "P2": 830}), "es") == (
        "P1 4780: una partida a 200 no puede acabar por encima de 4610 (los 830 de P2 + 3780, lo más que un lado "
        "le saca a otro en una mano (sus cuentas y los puntos que le quedan al otro, 135 como mucho por ficha): un "
        "empate en cabeza hace seguir el juego)")
    g = Game("horse-race", ("P1", "P2"), variant="celko", options={"win_check": "end_of_hand"})
    g.add_score_sheet_hand({"P1": 1000, "P2": 1000}, "out")
    with pytest.raises(DomrecError) as caught:
        g.add_score_sheet_hand({"P1": 3780, "P2": -170}, "out")
    assert "P1 4780: a game to 200 cannot end above 4610" in str(caught.value)
    g.add_score_sheet_hand({"P1": 3610, "P2": -170}, "out")  # 4610 beside 830: taken
