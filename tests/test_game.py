"""The Game API (domrec/game.py): a record built move by move, refusals that change nothing,
taking moves back, hands whose deal is not known, score-sheet hands, resuming a record."""

from __future__ import annotations

import json
import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domrec import games, notation
from domrec import tiles as T
from domrec.game import Game, GameError, Refused
from domrec.record import Deal, Draw, Exposed, HandResult, Pass, Play, unstructure
from domrec.validate import validate

from tests.conftest import state_before
from tests.test_notation import COMP
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

#: One simulated game per game and option set worth telling apart.
CONFIGS = [
    ("competitive", None, None, None),
    ("competitive", None, {"first_lead": "double-six"}, None),
    ("horse-race", 2, None, None),
    ("horse-race", 4, {"partnerships": True}, None),
    ("horse-race", 3, {"chain_draw": False}, None),
    ("horse-race", 4, None, "celko"),
    ("broadway", None, None, None),
    ("castle-rock", 2, None, None),
    ("castle-rock", 5, None, None),
    ("castle-rock", 4, {"set": "double-nine"}, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, None, None),
]
IDS = [f"{g}-{n}-{o}-{v}" for g, n, o, v in CONFIGS]
GAMES = ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"]
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def simulated(config, seed=1):
    game, players, options, variant = config
    return next(made_once.simulate(game, 1, seed, players, options, variant))


def plain(record) -> dict:
    return json.loads(json.dumps(unstructure(record)))


def new_game(record) -> Game:
    rules = record.rules
    return Game(record.game, record.players, variant=rules.variant if rules else None,
                options=record.options or None, event=record.event, version=record.version)


def snapshot(g: Game) -> tuple:
    """Everything a caller can read of a game."""
    return (g.to_move, g.legal_moves(), g.totals, g.moves, g.points, g.in_hand, g.hand_number, g.hand_over,
            g.over, g.deal_known, unstructure(g.record()))


def play_to(g: Game, record, hand: int, move: int) -> None:
    """Bring a fresh game to just before move ``move`` of hand ``hand`` (0-based) of ``record``."""
    for i, h in enumerate(record.hands):
        g.start_hand(h.deal, h.leader, h.comment)
        for j, m in enumerate(h.moves):
            if (i, j) == (hand, move):
                return
            g.push(m)
        if i == hand:
            return
        g.end_hand(claim=h.result)


def positions(record) -> list[tuple[int, int]]:
    return [(i, j) for i, h in enumerate(record.hands) for j in range(len(h.moves))]


def no_score(move):
    return attrs.evolve(move, score=None)


def _draw_listed(move, hand, j: int, legal: list) -> bool:
    """A draw written another way than the engine lists it (a simulated accident: ``true``
    for the next tile of the boneyard's order, or that tile named) takes a listed draw's tile."""
    if type(move) is not Draw or hand.deal.boneyard is None:
        return False
    tile = hand.deal.boneyard[sum(1 for m in hand.moves[:j] if type(m) is Draw)]
    return any(no_score(attrs.evolve(move, draw=form)) in legal for form in (True, tile))


# --- a whole game, move by move ---------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_game_built_move_by_move_is_the_same_record_and_report(config):
    record = simulated(config)
    g = new_game(record)
    scores_moves = games.engine(record.game).scores_moves
    assert g.game == record.game and g.seats == record.seats
    assert not g.in_hand and g.to_move is None and g.legal_moves() == []
    for i, hand in enumerate(record.hands):
        assert not g.over
        g.start_hand(hand.deal, hand.leader, hand.comment)
        assert g.in_hand and g.deal_known and g.hand_number == i + 1
        before = g.totals
        for j, move in enumerate(hand.moves):
            if g.hand_over and type(move) is Pass:
                # a blocked hand's closing passes, written out (a simulated accident)
                assert hand.result.end == "blocked" and g.state.end == "blocked"
            elif g.hand_over or g.to_move is None:
                # Castle Rock: the last placer's closing captures, once every hand is empty
                assert record.game == "castle-rock" and type(move).__name__ == "Capture"
                assert no_score(move) in g.state.legal_moves()
            elif type(move) is Exposed:
                # Broadway: a tile shown out of turn (a simulated accident), never a legal move
                assert move.seat != g.to_move and no_score(move) not in g.legal_moves()
            else:
                assert g.to_move is not None
                legal = g.legal_moves()
                assert no_score(move) in legal or _draw_listed(move, hand, j, legal), (i, j, move)
                assert g.forced_pass() == (legal == [Pass(seat=g.to_move)])
            points = g.push(move)
            if scores_moves:
                assert points == move.score
            assert g.moves[-1] == move and len(g.points) == j + 1 and g.points[-1] == points
        assert g.hand_over and g.to_move is None and g.legal_moves() == []
        outcome = g.end_hand(claim=hand.result)
        assert outcome.scores == hand.result.scores and outcome.end == hand.result.end
        assert g.totals == {s: before[s] + hand.result.scores.get(s, 0) for s in before}
        assert not g.in_hand
    assert g.over and g.winner == record.result.winner and g.totals == record.result.scores
    g.set_result(record.result)
    assert unstructure(g.record()) == unstructure(record)
    assert g.report("x") == validate(record, "x")
    assert g.report().source == "<game>" and g.report().status == "valid"
    with pytest.raises(GameError, match="over"):
        g.start_hand(record.hands[0].deal)


def _castle_rock_closing_capture():
    """A simulated Castle Rock game and the position of a closing capture (after every hand is empty)."""
    for seed in range(40):
        record = next(made_once.simulate("castle-rock", 1, seed, 2))
        g = new_game(record)
        for h in record.hands:
            g.start_hand(h.deal, h.leader)
            for m in h.moves:
                if g.hand_over:
                    return g, m
                g.push(m)
            g.end_hand()
    raise AssertionError("no closing capture in 40 games")


def test_castle_rock_closing_captures_are_pushed_after_the_hand_is_over():
    g, capture = _castle_rock_closing_capture()
    assert g.hand_over and g.to_move is None
    g.push(capture)
    assert g.moves[-1] == capture


def test_castle_rock_closing_captures_are_legal_moves():
    g, capture = _castle_rock_closing_capture()
    assert no_score(capture) in g.legal_moves()


def test_castle_rock_asking_for_legal_moves_does_not_change_whether_the_hand_is_over():
    g, capture = _castle_rock_closing_capture()
    record = g.record()
    asked = new_game(record)
    for i, h in enumerate(record.hands):
        asked.start_hand(h.deal, h.leader)
        for m in h.moves:
            asked.legal_moves()
            asked.push(m)
        if i < len(record.hands) - 1:
            asked.end_hand()
    assert (asked.hand_over, asked.to_move) == (g.hand_over, g.to_move)


def test_castle_rock_pop_of_a_closing_capture_reopens_the_hand_without_scoring_it():
    g, capture = _castle_rock_closing_capture()
    g.push(capture)
    h = g.record().hands[-1]
    start = new_game(g.record())
    for prev in g.record().hands[:-1]:
        start.start_hand(prev.deal, prev.leader)
        for m in prev.moves:
            start.push(m)
        start.end_hand()
    before = start.totals
    g.end_hand()
    assert g.pop() == capture and g.in_hand
    # The reopened hand is not scored: only its moves' own points (captures) run on the totals.
    assert g.totals == running(g, before), h.moves[-1]
    assert g.record().hands[-1].result is None


def test_nothing_can_be_pushed_or_ended_outside_a_hand():
    g = new_game(notation.loads(COMP))
    with pytest.raises(GameError, match="start one first"):
        g.push(Play(seat="N", play="5-2"))
    with pytest.raises(GameError, match="no hand is being played"):
        g.end_hand()
    with pytest.raises(GameError, match="no move to take back"):
        g.pop()
    g.start_hand(notation.loads(COMP).hands[0].deal, "N")
    with pytest.raises(GameError, match="not closed"):
        g.start_hand(None)
    with pytest.raises(GameError, match="not closed"):
        g.add_score_sheet_hand({"NS": 1})


def test_a_hand_not_over_cannot_be_followed_by_the_next():
    record = notation.loads(COMP)
    g = new_game(record)
    g.start_hand(record.hands[0].deal, "N")
    g.push(record.hands[0].moves[0])
    assert g.end_hand() is None  # kept as it is: not over
    with pytest.raises(GameError, match="not over"):
        g.start_hand(record.hands[0].deal)


# --- refusals ---------------------------------------------------------------------------------


def _illegal_variant(g: Game, move, rng: random.Random):
    """A move the rules refuse now: the next move with its tile replaced by one its player does
    not hold, or (where the move names no tile) a pass where passing is not allowed, or the
    next move made by a seat whose turn it is not."""
    tile_field = {"Play": "play", "Span": "span", "Starter": "starter", "Block": "block"}.get(type(move).__name__)
    if tile_field and not getattr(move, "penalty", None):
        held = set(g.state.holdings()[move.seat])
        others = sorted((t for t in g.engine.start(g.record()).tile_set() if t not in held), key=str)
        return attrs.evolve(move, **{tile_field: str(rng.choice(others))}, score=None)
    if Pass(seat=g.to_move) not in g.legal_moves():
        return Pass(seat=g.to_move)
    return None


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=6, **SETTINGS)
@given(pick=st.randoms(use_true_random=False))
def test_an_illegal_push_is_refused_with_its_rule_and_changes_nothing(config, pick):
    record = simulated(config)
    i, j = pick.choice(positions(record))
    g = new_game(record)
    play_to(g, record, i, j)
    move = record.hands[i].moves[j]
    bad = _illegal_variant(g, move, pick)
    if bad is None:
        return
    assert bad not in g.legal_moves()
    before = snapshot(g)
    with pytest.raises(Refused) as e:
        g.push(bad)
    p = e.value.problem
    assert p.kind == "illegal" and p.rule and p.message
    assert (p.hand, p.move, p.seat) == (i + 1, j + 1, bad.seat)
    assert p.pointer.startswith(f"/hands/{i}/moves/{j}")
    assert str(e.value) == p.text()
    assert snapshot(g) == before
    # and the game goes on as if nothing had happened
    g.push(move)
    assert g.moves[-1] == move


def test_refusals_of_competitive_name_their_rule():
    record = notation.loads(COMP)
    g = new_game(record)
    g.start_hand(record.hands[0].deal, "N")
    with pytest.raises(Refused, match=r"N does not hold 3-0 \(it is in E's hand\)") as e:
        g.push(Play(seat="N", play="3-0"))
    assert e.value.problem.rule == "competitive: playing from hand"
    with pytest.raises(Refused, match="record names N as this hand's leader"):
        g.push(Play(seat="E", play="3-0"))
    g.push(Play(seat="N", play="5-2"))
    with pytest.raises(Refused, match="it is W's turn, not S's") as e:
        g.push(Play(seat="S", play="4-2", on="5-2"))
    assert e.value.problem.rule == "competitive: turn order (to the right)"


def test_a_bad_deal_is_refused_at_start_hand_and_the_hand_not_started():
    record = notation.loads(COMP)
    deal = record.hands[0].deal
    short = attrs.evolve(deal, hands={**deal.hands, "N": deal.hands["N"][:-1]})
    g = new_game(record)
    with pytest.raises(Refused) as e:
        g.start_hand(short, "N")
    assert e.value.problem.kind == "deal" and e.value.problem.pointer == "/hands/0/deal/hands/N"
    assert not g.in_hand and g.hand_number == 0
    g.start_hand(deal, "N")
    assert g.to_move == "N"


# --- pop ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=5, **SETTINGS)
@given(pick=st.randoms(use_true_random=False))
def test_pop_takes_back_a_move_and_push_plays_it_again(config, pick):
    record = simulated(config)
    i, j = pick.choice(positions(record))
    g = new_game(record)
    play_to(g, record, i, j)
    before = snapshot(g)
    move = record.hands[i].moves[j]
    points = g.push(move)
    assert g.pop() == move
    assert snapshot(g) == before
    assert g.push(move) == points
    # two back, two again
    if j >= 1:
        prev = record.hands[i].moves[j - 1]
        assert g.pop() == move and g.pop() == prev
        g.push(prev)
        g.push(move)
    # finish the game from here: the same record
    for m in record.hands[i].moves[j + 1:]:
        g.push(m)
    g.end_hand(claim=record.hands[i].result)
    for h in record.hands[i + 1:]:
        g.start_hand(h.deal, h.leader, h.comment)
        for m in h.moves:
            g.push(m)
        g.end_hand(claim=h.result)
    g.set_result(record.result)
    assert unstructure(g.record()) == unstructure(record)


def running(g, start):
    """The totals ``start`` plus what each move of the current hand earned its mover's side."""
    out = dict(start)
    for move, points in zip(g.moves, g.points):
        side = move.seat if move.seat in out else ("NS" if move.seat in ("N", "S") else "EW")
        out[side] += points
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pop_across_a_hand_boundary_reopens_the_hand(config):
    record = simulated(config)
    assert len(record.hands) >= 2
    g = new_game(record)
    first = record.hands[0]
    g.start_hand(first.deal, first.leader)
    for m in first.moves:
        g.push(m)
    in_hand = snapshot(g)
    g.end_hand(claim=first.result)
    after = g.totals
    # the hand is closed: pop takes back its last move and reopens it
    assert g.pop() == first.moves[-1]
    assert g.in_hand and g.hand_number == 1 and len(g.moves) == len(first.moves) - 1
    closing = record.game == "castle-rock" and g.hand_over  # a closing capture may follow the last place
    assert g.totals == running(g, {s: 0 for s in after})
    if not closing:
        assert not g.hand_over
    g.push(first.moves[-1])
    mine, theirs = snapshot(g)[:-1], in_hand[:-1]
    if closing:
        mine, theirs = mine[:2] + mine[3:], theirs[:2] + theirs[3:]
    assert mine == theirs
    g.end_hand(claim=first.result)
    assert g.totals == after
    # the next hand started with no move yet: pop closes it and takes back the last move before
    second = record.hands[1]
    g.start_hand(second.deal, second.leader)
    assert g.hand_number == 2
    assert g.pop() == first.moves[-1]
    assert g.hand_number == 1 and g.in_hand and g.record().hands[-1].result is None
    g.push(first.moves[-1])
    g.end_hand(claim=first.result)
    g.start_hand(second.deal, second.leader)
    g.push(second.moves[0])
    assert g.pop() == second.moves[0] and g.hand_number == 2 and g.moves == ()


def test_pop_everything_back_to_the_start():
    record = simulated(("castle-rock", 2, None, None))
    g = Game.from_record(record)
    assert g.over and not g.in_hand
    taken = []
    while True:
        try:
            taken.append(g.pop())
        except GameError as e:
            assert "no move to take back" in str(e)
            break
    assert taken[::-1] == [m for h in record.hands for m in h.moves]
    assert g.hand_number == 0 and not g.over and g.totals == {s: 0 for s in g.totals}
    assert g.record().hands == () and g.record().result is None


def test_pop_takes_back_a_score_sheet_hand_whole():
    record = notation.loads(COMP)
    g = new_game(record)
    g.add_score_sheet_hand({"NS": 30, "EW": 0}, "out", "N")
    g.start_hand(record.hands[0].deal)
    assert g.to_move == "W"  # the lead passes to the right after the sheet hand led by N
    first = g.legal_moves()[0]
    g.push(first)
    assert g.pop() == first
    sheet = g.pop()  # the empty hand closes, and the sheet hand is taken back whole (and alone)
    assert sheet.score_sheet and sheet.result.scores == {"NS": 30, "EW": 0}
    assert g.hand_number == 0 and g.totals == {"NS": 0, "EW": 0}
    with pytest.raises(GameError):
        g.pop()  # nothing before it


# --- forced passes -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_forced_pass_exactly_when_the_only_legal_move_is_a_pass(name):
    record = next(made_once.simulate(name, 1, 5))
    g = new_game(record)
    seen = {True: 0, False: 0}
    for h in record.hands:
        g.start_hand(h.deal, h.leader)
        for m in h.moves:
            legal = g.legal_moves()
            forced = g.forced_pass()
            assert forced == (len(legal) == 1 and type(legal[0]) is Pass)
            if forced:
                assert type(m) is Pass and m.seat == g.to_move
            seen[forced] += 1
            g.push(m)
        assert not g.forced_pass()
        g.end_hand()
    assert seen[False] > 0


def test_forced_pass_in_competitive():
    record = notation.loads(COMP)
    g = new_game(record)
    g.start_hand(record.hands[0].deal, "N")
    for m in record.hands[0].moves[:5]:
        g.push(m)
    assert g.to_move == "W" and g.legal_moves() == [Pass(seat="W")] and g.forced_pass()
    g.push(Pass(seat="W"))
    assert not g.forced_pass()


# --- hands whose deal is not known -----------------------------------------------------------------


def _public(deal: Deal) -> Deal:
    return Deal(hands={}, row=deal.row, piles=deal.piles, lead_draw=deal.lead_draw, boneyard=deal.boneyard)


def _left(record, i: int) -> dict[str, list[str]]:
    state = state_before(plain(record), i)
    return {s: [str(t) for t in ts] for s, ts in state.holdings().items() if ts}


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_open_hands_have_no_legal_moves_and_end_with_the_deal_inferred(config):
    record = simulated(config)
    g = new_game(record)
    for i, h in enumerate(record.hands):
        g.start_hand(_public(h.deal), h.leader)
        assert not g.deal_known and g.legal_moves() == [] and not g.forced_pass()
        for m in h.moves:
            # Without the deal only the closing moves of a hand that is over are known (Castle
            # Rock's last captures, which need only the row).
            assert g.legal_moves() == (g.closing_moves() if g.hand_over else [])
            g.push(m)
        left = _left(record, i)
        inferred = g.infer_deal(left)
        for seat, tiles in h.deal.hands.items():
            assert sorted(map(T.tile, inferred.hands[seat]), key=str) == sorted(map(T.tile, tiles), key=str)
        outcome = g.end_hand(left=left, claim=h.result)
        assert outcome.scores == h.result.scores
        assert g.record().hands[i].deal.hands == inferred.hands
    g.set_result(record.result)
    report = g.report()
    truth = validate(record)
    assert (report.status, report.scores, report.winner, report.finished) == \
        (truth.status, truth.scores, truth.winner, True)


def test_open_hand_checks_what_the_shown_tiles_allow_at_once():
    record = notation.loads(COMP)
    g = new_game(record)
    g.start_hand(None, "N")
    assert g.to_move == "N" and not g.deal_known
    g.push(Play(seat="N", play="5-2"))
    before = snapshot(g)
    with pytest.raises(Refused, match="W does not hold 5-2: it has already been played"):
        g.push(Play(seat="W", play="5-2", on="5-2"))
    with pytest.raises(Refused, match="it is W's turn, not S's"):
        g.push(Play(seat="S", play="6-5", on="5-2"))
    with pytest.raises(Refused, match="6-4 does not match 5-2: that end shows 5"):
        g.push(Play(seat="W", play="6-4", on="5-2"))
    assert snapshot(g) == before
    # a pass is taken on trust: whether W could play depends on tiles nobody has shown
    g.push(Pass(seat="W"))
    g.pop()
    assert snapshot(g) == before


@pytest.mark.parametrize("name", ["competitive", "horse-race", "broadway", "castle-rock"])
@settings(max_examples=3, **SETTINGS)
@given(pick=st.randoms(use_true_random=False))
def test_open_hand_refuses_a_tile_already_played(name, pick):
    record = next(made_once.simulate(name, 1, 2))
    h = record.hands[0]
    plays = [j for j, m in enumerate(h.moves) if type(m) is Play and not m.penalty]
    j = pick.choice(plays[1:])
    earlier = [h.moves[k].play for k in plays if k < j]
    g = new_game(record)
    g.start_hand(_public(h.deal), h.leader)
    for m in h.moves[:j]:
        g.push(m)
    before = snapshot(g)
    with pytest.raises(Refused) as e:
        g.push(attrs.evolve(h.moves[j], play=pick.choice(earlier)))
    assert e.value.problem.kind == "illegal" and e.value.problem.move == j + 1
    assert snapshot(g) == before


def test_open_hand_a_wrong_left_is_refused_and_the_hand_stays_open():
    record = notation.loads(COMP)
    g = new_game(record)
    g.start_hand(None, "N")
    for m in record.hands[0].moves:
        g.push(m)
    assert g.hand_over
    before = snapshot(g)
    cases = [({"E": ["3-3"]}, "give the tiles S and W still held: left S …; W …"),
             ({"E": ["3-3"], "S": ["2-2"], "W": ["5-0", "4-4", "1-1"]}, "left W lists 1-1, but it was played"),
             ({"E": ["3-3"], "S": ["2-2"], "W": ["5-0", "4-4"]},
              "left W lists 2 tiles, but by the moves W still holds 3")]
    for left, words in cases:
        with pytest.raises(Refused) as e:
            g.end_hand(left=left)
        assert words in e.value.problem.message and e.value.problem.kind == "deal"
        assert e.value.problem.rule == "the deal"
        assert snapshot(g) == before
    outcome = g.end_hand(left={"E": ["3-3"], "S": ["2-2"], "W": ["5-0", "4-4", "0-0"]},
                         claim=HandResult(scores={"NS": 23, "EW": 0}, end="out"))
    assert outcome.scores == {"NS": 23, "EW": 0}
    assert g.totals == {"NS": 23, "EW": 0}
    assert g.report().status == "valid"
    deal = g.record().hands[0].deal
    assert sorted(deal.hands["W"]) == sorted(record.hands[0].deal.hands["W"])


def test_known_deal_and_a_left_that_does_not_match():
    record = notation.loads(COMP)
    g = new_game(record)
    g.start_hand(record.hands[0].deal, "N")
    for m in record.hands[0].moves:
        g.push(m)
    before = snapshot(g)
    with pytest.raises(Refused, match="left W does not match the deal and the moves: W still holds 0-0 4-4 5-0"):
        g.end_hand(left={"W": ["0-0"]})
    assert snapshot(g) == before
    g.end_hand(left={"W": ["0-0", "4-4", "5-0"], "E": ["3-3"]})
    assert g.totals == {"NS": 23, "EW": 0}


def test_infer_deal_needs_a_hand():
    g = new_game(notation.loads(COMP))
    with pytest.raises(GameError):
        g.infer_deal({})


# --- score-sheet hands -------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_score_sheet_hands_give_the_same_totals_and_winner(config):
    record = simulated(config)
    g = new_game(record)
    for h in record.hands:
        outcome = g.add_score_sheet_hand(h.result.scores, h.result.end, h.leader)
        assert outcome.scores == {s: h.result.scores.get(s, 0) for s in outcome.scores}
        assert not g.in_hand
    truth = validate(record)
    assert g.over and g.totals == truth.scores and g.winner == truth.winner
    report = g.report()
    assert report.status == "valid" and report.finished
    assert report.sheet_hands == tuple(range(1, len(record.hands) + 1))
    # no hand after the game is over
    with pytest.raises((Refused, GameError)):
        g.add_score_sheet_hand(record.hands[-1].result.scores, record.hands[-1].result.end)
    assert len(g.record().hands) == len(record.hands)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_score_sheet_hands_mixed_with_played_hands(config):
    record = simulated(config)
    g = new_game(record)
    for i, h in enumerate(record.hands):
        if i % 2:
            g.add_score_sheet_hand(h.result.scores, h.result.end, h.leader)
            continue
        g.start_hand(h.deal, h.leader)
        for m in h.moves:
            g.push(m)
        g.end_hand(claim=h.result)
    report = g.report()
    truth = validate(record)
    assert report.status == "valid", [p.text() for p in report.problems]
    assert (report.scores, report.winner, report.finished) == (truth.scores, truth.winner, True)
    assert report.sheet_hands == tuple(i + 1 for i in range(len(record.hands)) if i % 2)


def test_a_score_sheet_hand_the_rules_refuse_is_refused():
    record = notation.loads(COMP)
    g = new_game(record)
    with pytest.raises(Refused, match="only one side scores a hand"):
        g.add_score_sheet_hand({"NS": 30, "EW": 5}, "out", "N")
    assert g.record().hands == () and g.totals == {"NS": 0, "EW": 0}


# --- resuming a record -------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=5, **SETTINGS)
@given(pick=st.randoms(use_true_random=False))
def test_from_record_resumes_an_unfinished_record(config, pick):
    record = simulated(config)
    i, j = pick.choice(positions(record))
    h = record.hands[i]
    cut = attrs.evolve(record, hands=record.hands[:i] + (attrs.evolve(h, moves=h.moves[:j], result=None),),
                       result=None)
    report = validate(cut)
    assert report.status == "valid" and not report.finished
    g = Game.from_record(cut)
    assert g.in_hand and g.hand_number == i + 1 and g.moves == h.moves[:j]
    fresh = new_game(record)
    play_to(fresh, record, i, j)
    assert snapshot(g)[:-1] == snapshot(fresh)[:-1]
    for m in h.moves[j:]:
        g.push(m)
    g.end_hand(claim=h.result)
    for later in record.hands[i + 1:]:
        g.start_hand(later.deal, later.leader)
        for m in later.moves:
            g.push(m)
        g.end_hand(claim=later.result)
    g.set_result(record.result)
    assert unstructure(g.record()) == unstructure(record)


def test_from_record_of_a_finished_record_is_over():
    record = simulated(CONFIGS[0])
    g = Game.from_record(record)
    assert g.over and not g.in_hand and g.winner == record.result.winner
    assert unstructure(g.record()) == unstructure(record)


def test_from_record_resumes_an_open_hand():
    record = notation.loads(COMP)
    h = record.hands[0]
    cut = attrs.evolve(record, version="1.1", hands=(attrs.evolve(h, deal=None, moves=h.moves[:10], result=None),))
    assert validate(cut).status == "valid"
    g = Game.from_record(cut)
    assert g.in_hand and not g.deal_known and g.legal_moves() == [] and g.to_move == h.moves[10].seat
    for m in h.moves[10:]:
        g.push(m)
    g.end_hand(left={"E": ["3-3"], "S": ["2-2"], "W": ["5-0", "4-4", "0-0"]})
    assert g.totals == {"NS": 23, "EW": 0}


def test_from_record_refuses_a_record_that_breaks_a_rule():
    record = notation.loads(COMP)
    h = record.hands[0]
    bad = attrs.evolve(record, hands=(attrs.evolve(h, moves=(Play(seat="N", play="3-0"),), result=None),))
    with pytest.raises(Refused, match="N does not hold 3-0"):
        Game.from_record(bad)


# --- running totals --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["competitive", "castle-rock", "domino-roads"])
def test_games_that_score_at_the_hands_end_keep_their_totals_during_the_hand(name):
    record = next(made_once.simulate(name, 1, 4))
    assert not games.engine(name).scores_moves
    g = new_game(record)
    for h in record.hands:
        g.start_hand(h.deal, h.leader)
        start = g.totals
        for m in h.moves:
            g.push(m)
            # Only what a move itself earns shows mid-hand (Castle Rock's captures, a point a
            # tile); the hand's end scores (penalties, bonuses) count when it is closed.
            assert g.totals == running(g, start)
        g.end_hand()
        assert g.totals == {s: start[s] + h.result.scores.get(s, 0) for s in start}


@pytest.mark.parametrize("name", ["horse-race", "broadway"])
def test_move_points_are_what_the_record_claims(name):
    record = next(made_once.simulate(name, 1, 4))
    assert games.engine(name).scores_moves
    g = new_game(record)
    scored = 0
    for h in record.hands:
        g.start_hand(h.deal, h.leader)
        for m in h.moves:
            assert g.push(m) == m.score
        assert list(g.points) == [m.score for m in h.moves]
        scored += sum(g.points)
        g.end_hand()
    assert scored > 0


@pytest.mark.parametrize("name", ["horse-race", "broadway"])
def test_running_totals_count_the_moves_scored_mid_hand(name):
    record = next(made_once.simulate(name, 1, 4))
    g = new_game(record)
    h = record.hands[0]
    g.start_hand(h.deal, h.leader)
    start = g.totals
    scored = {s: 0 for s in start}
    side_of = {p.seat: s for p in record.players for s in start if p.seat in s or s == p.seat}
    for m in h.moves:
        points = g.push(m)
        if points:
            scored[side_of[m.seat]] += points
            assert g.totals == {s: start[s] + scored[s] for s in start}


# --- a fork: an independent copy as the game stands ----------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=4, **SETTINGS)
@given(pick=st.randoms(use_true_random=False))
def test_a_fork_reads_as_the_game_and_goes_on_alone(config, pick):
    """A fork (what the table's page starts an announced hand on) reads exactly as the game and as
    a game made again from its record; played on to the end it makes the same record, and the
    game it was forked from is as it was, at a hand's boundary or in the middle of a hand."""
    record = simulated(config, seed=pick.randrange(1, 50))
    spots = [(i, 0) for i in range(len(record.hands))] + positions(record)
    hand, move = pick.choice(spots)
    g = new_game(record)
    play_to(g, record, hand, move)  # hand ``hand`` started, ``move`` of its moves made
    before = snapshot(g)
    twin = g.fork()
    assert snapshot(twin) == before
    assert snapshot(Game.from_record(g.record())) == before
    # The twin plays the rest of the game; the game it came from does not move.
    for i, h in enumerate(record.hands[hand:], start=hand):
        if not (twin.in_hand and twin.hand_number == i + 1):
            twin.start_hand(h.deal, h.leader, h.comment)
        for m in h.moves[len(twin.moves):]:
            twin.push(m)
        twin.end_hand(claim=h.result)
    twin.set_result(record.result)
    assert unstructure(twin.record()) == unstructure(record)
    assert snapshot(g) == before
    # And the game, played on in its turn, is not moved by what its twin did.
    g2 = g.fork()
    assert snapshot(g2) == before


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_game_made_from_a_record_between_hands_forks_and_checkpoints(config):
    """A Game made from a record whose hands are all closed (how a venue table's game is made
    again) forks and takes a checkpoint like any other: it once lacked the points of a current
    hand, and the table's page answered a deal line typed alone with a fault of its own."""
    record = simulated(config, seed=3)
    g = Game.from_record(attrs.evolve(record, hands=record.hands[:1], result=None))
    twin = g.fork()
    g.restore(g.checkpoint())
    assert snapshot(twin) == snapshot(g)
    twin.start_hand(record.hands[1].deal if len(record.hands) > 1 else None)
    assert not g.in_hand


# --- what the engine says a tile may go on (the DGN reader's readings) ---------------------------


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] in ("competitive", "horse-race")],
                         ids=[i for c, i in zip(CONFIGS, IDS) if c[0] in ("competitive", "horse-race")])
@pytest.mark.parametrize("deal_known", [True, False], ids=["deal", "no-deal"])
def test_a_tile_set_on_a_tile_places_does_not_name_is_refused(config, deal_known):
    """``Game.places`` lets the DGN reader count a tile's option as refused without pushing it:
    every tile on the table it does not name must be one the engine refuses the tile on."""
    record = simulated(config)
    g = new_game(record)
    tried = 0
    for h in record.hands[:2] if deal_known else record.hands[:1]:  # (a hand without its deal is left open)
        deal = h.deal if deal_known else Deal(hands={}, row=h.deal.row, piles=h.deal.piles,
                                              lead_draw=h.deal.lead_draw, boneyard=h.deal.boneyard)
        g.start_hand(deal, h.leader, h.comment)
        for move in h.moves:
            if type(move) is Play and g.moves:
                fits = g.places(move.play)
                assert fits is not None
                for on in dict.fromkeys(m.play for m in g.moves if type(m) is Play):
                    if T.tile(on) in fits:
                        continue
                    before = snapshot(g)
                    with pytest.raises(Refused):
                        g.push(attrs.evolve(move, on=on))
                    assert snapshot(g) == before
                    tried += 1
            g.push(move)
        if deal_known:
            g.end_hand(claim=h.result)
    assert tried > 0
