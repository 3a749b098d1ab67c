"""Horse Race in format 1.1: open hands (deal not known), score-sheet hands, the tile set.

An open hand is replayed from the moves alone and must agree with the
known-deal replay on everything the shown tiles decide: every move of a
simulated game is accepted with the same points, ``to_move`` and the tile
counts agree before every move, and the hand ends where the known replay ends
(a block: once every player has passed in succession).  Corrupted moves are
refused with the known replay's rule where the check needs no hidden tile;
passes and draws refused only because of a hidden tile are accepted.  A
score-sheet game (some or every hand by its scores alone) ends with the same
totals, ``over`` and ``winner``.

The hand-made examples use the two-player deal ``DEAL_A`` of
``test_horserace.py`` and its worked opening (see that module's docstring).
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from domrec import games, simulate
from domrec.errors import DealError, IllegalMove
from domrec.games import horserace as H
from domrec.reader import load_dict
from domrec.record import Deal, Draw, Hand, HandResult, Pass, Play
from domrec.tiles import DOUBLE_SIX, tile

from tests.games.test_horserace import BONE_A, DEAL_A, OPENING, mv

ENGINE = games.engine("horse-race")
R = "horse-race: "


# --- helpers ---------------------------------------------------------------------------------

def _doc(seats=("P1", "P2"), options=None, variant=None, hands=()) -> dict:
    doc: dict = {"format": "domrec", "version": "1.0", "game": "horse-race",
                 "players": [{"seat": s, "name": s} for s in seats], "hands": list(hands)}
    if options or variant:
        doc["rules"] = {}
        if variant:
            doc["rules"]["variant"] = variant
        if options:
            doc["rules"]["options"] = options
    return doc


def _match(seats=("P1", "P2"), options=None, variant=None):
    return ENGINE.start(load_dict(_doc(seats, options, variant)))


def open_hand(match, leader="P1", boneyard=BONE_A):
    deal = Deal(hands={}, boneyard=tuple(boneyard)) if boneyard is not None else None
    return match.start_open_hand(Hand(leader=leader, deal=deal))


def moves(texts):
    """Move texts (``"P1 5-0 on 5-5 =2"``) as record moves."""
    rec = load_dict(_doc(hands=[{"deal": {"hands": DEAL_A}, "moves": [mv(t) for t in texts]}]))
    return rec.hands[0].moves


def play_open(texts, leader="P1", boneyard=BONE_A, **kw):
    state = open_hand(_match(**kw), leader, boneyard)
    points = [state.apply(m) for m in moves(texts)]
    return state, points


def refused(state, move) -> IllegalMove:
    with pytest.raises(IllegalMove) as e:
        state.apply(move)
    return e.value


def play(seat, t, on=None):
    return Play(seat=seat, play=t, on=on)


# --- simulated games: every option set and player count ----------------------------------------

def _configs() -> list[tuple[int, dict, str | None]]:
    out = []
    for variant in (None, "celko"):
        for players, partners in ((2, False), (3, False), (4, False), (4, True)):
            partner_counts = (False, True) if partners and variant is None else (False,)
            for cp, chain_draw, win_check in itertools.product(partner_counts, (True, False),
                                                               ("immediate", "end_of_hand")):
                options: dict = {"chain_draw": chain_draw, "win_check": win_check}
                if partners:
                    options["partnerships"] = True
                if cp:
                    options["count_partner"] = True
                out.append((players, options, variant))
    return out


CONFIGS = _configs()


def _game(seed: int, config: int, target: int | None = None):
    players, options, variant = CONFIGS[config]
    if target is not None:
        options = {**options, "target": target}
    template = simulate.make_record("horse-race", players, options, variant)
    return simulate.play_game(template, random.Random(seed))


def public(hand: Hand, keep_boneyard: bool) -> Hand:
    """The hand as an open hand gets it: the leader and, if kept, the boneyard order; no moves."""
    deal = Deal(hands={}, boneyard=hand.deal.boneyard) if keep_boneyard else None
    return Hand(leader=hand.leader, deal=deal)


def _same_turn(known, opened) -> None:
    if opened.chain_may_end:
        # chain_draw false: the open hand keeps the turn on the chain's player, who may go on or not.
        assert known.to_move in (opened.to_move, known._next[opened.to_move])
        assert opened.chain is not None
    else:
        assert opened.to_move == known.to_move
    for seat in known.seats:
        assert opened.held_count(seat) == known.held_count(seat) == len(known.holdings()[seat])


def open_replay(rec, keep_boneyard: bool = True) -> Counter:
    """Replay every hand of ``rec`` in open mode beside the known deal; count the cases it met."""
    match = ENGINE.start(rec)
    n = len(rec.seats)
    seen: Counter = Counter()
    for hand in rec.hands:
        opened = copy.deepcopy(match).start_open_hand(public(hand, keep_boneyard))
        known = match.start_hand(hand)
        assert opened.open and not known.open
        for move in hand.moves:
            _same_turn(known, opened)
            if opened.chain_may_end:
                seen["chain went on" if move.seat == opened.to_move else "chain ended unwritten"] += 1
            assert not opened.over or known.over
            assert opened.apply(move) == known.apply(move)
            assert opened.count == known.count and opened.pegged == known.pegged
            if known.end != "blocked":
                assert (opened.over, opened.end) == (known.over, known.end)
        seen[known.end] += 1
        if known.end == "blocked":
            # The closing passes, written out where the record left them out; the open hand ends with them:
            # after all of them, or, when a chain ended unwritten (chain_draw false), one before the last.
            ended_after = None
            while known.closing < n:
                if not opened.over:
                    _same_turn(known, opened)
                closing = Pass(seat=known.to_move)
                known.apply(closing)
                opened.apply(closing)
                if opened.over and ended_after is None:
                    ended_after = known.closing
            assert opened.over and opened.end == "blocked"
            assert ended_after == n or (ended_after == n - 1 and not rec.rules.options["chain_draw"])
            seen["blocked after a chain ended unwritten"] += ended_after == n - 1
        assert opened.over and known.over
        match.finish_hand(known)
    return seen


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_every_hand_of_simulated_games_replays_in_open_mode(config):
    for seed in range(3):
        rec = _game(seed, config, target=None if seed else 25)
        open_replay(rec, keep_boneyard=seed != 1)


def test_the_replays_meet_every_way_a_hand_ends_and_both_fates_of_a_chain():
    seen: Counter = Counter()
    for config in range(len(CONFIGS)):
        seen += open_replay(_game(1, config), keep_boneyard=False)
    # A celko partnership game (chain_draw false) with a block right after a chain that ended unwritten.
    seen += open_replay(_game(142246, CONFIGS.index(
        (4, {"chain_draw": False, "win_check": "immediate", "partnerships": True}, "celko"))))
    for case in ("out", "blocked", "target", "chain went on", "chain ended unwritten",
                 "blocked after a chain ended unwritten"):
        assert seen[case] > 0, (case, seen)


slow = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1), st.booleans())
def test_open_replay_agrees_with_the_known_deal(seed, config, keep_boneyard):
    open_replay(_game(seed, config), keep_boneyard)


# --- single corruptions ------------------------------------------------------------------------------

def states_at(rec, i: int, j: int, keep_boneyard: bool = True):
    """The known and the open state of hand ``i`` just before its move ``j``."""
    match = ENGINE.start(rec)
    for k, hand in enumerate(rec.hands):
        if k == i:
            opened = copy.deepcopy(match).start_open_hand(public(hand, keep_boneyard))
            known = match.start_hand(hand)
            for move in hand.moves[:j]:
                known.apply(move)
                opened.apply(move)
            return known, opened
        state = match.start_hand(hand)
        for move in hand.moves:
            state.apply(move)
        match.finish_hand(state)
    raise AssertionError("no such hand")


@st.composite
def spot(draw, kinds=(Play, Draw, Pass)):
    rec = _game(draw(st.integers(0, 10 ** 6)), draw(st.integers(0, len(CONFIGS) - 1)))
    spots = [(i, j) for i, h in enumerate(rec.hands) for j, m in enumerate(h.moves) if type(m) in kinds]
    assume(spots)
    i, j = draw(st.sampled_from(spots))
    keep = draw(st.booleans())
    known, opened = states_at(rec, i, j, keep)
    return rec.hands[i].moves[j], known, opened, keep


def outcome(state, move):
    """``("ok", points)`` or ``("illegal", rule)``; the state is spent either way."""
    try:
        return "ok", state.apply(move)
    except IllegalMove as e:
        return "illegal", e.rule


@slow
@given(spot(), st.data())
def test_a_move_by_another_seat_is_refused_with_the_known_rule(sp, data):
    move, known, opened, _ = sp
    seat = data.draw(st.sampled_from([s for s in known.seats if s != move.seat]))
    bad = attrs_evolve(move, seat=seat)
    chain_may_end = opened.chain_may_end
    got, expected = outcome(opened, bad), outcome(known, bad)
    assert expected[0] == "illegal"
    if chain_may_end:
        return  # whether the chain went on depends on the chain player's hidden tiles
    assert got == expected


@slow
@given(spot((Play,)), st.data())
def test_a_tile_on_the_table_or_outside_the_set_is_refused_with_the_known_rule(sp, data):
    move, known, opened, _ = sp
    choices = [str(t) for t in known.nodes] + ["7-2", "9-9"]
    bad = attrs_evolve(move, play=data.draw(st.sampled_from(choices)))
    expected = outcome(known, bad)
    assert expected == ("illegal", R + "turn (setting a tile from hand)")
    assert outcome(opened, bad) == expected


@slow
@given(spot((Play,)), st.data())
def test_any_play_of_a_held_tile_is_judged_as_the_known_deal_judges_it(sp, data):
    # Fitting or not, on any tile of the layout or without "on": the same verdict, rule and points.
    move, known, opened, _ = sp
    held = [str(t) for t in known.holdings()[move.seat]]
    on = data.draw(st.sampled_from([None] + [str(t) for t in known.nodes]))
    bad = Play(seat=move.seat, play=data.draw(st.sampled_from(held)), on=on)
    assert outcome(opened, bad) == outcome(known, bad)


@slow
@given(spot((Draw, Pass)))
def test_a_pass_with_tiles_in_the_boneyard_or_a_draw_from_an_empty_one_is_refused(sp):
    move, known, opened, _ = sp
    bad = Pass(seat=move.seat) if type(move) is Draw else Draw(seat=move.seat, draw=True)
    expected = outcome(known, bad)
    assert expected == ("illegal", R + "turn (drawing from the boneyard)")
    assert outcome(opened, bad) == expected


@slow
@given(spot((Draw,)), st.data())
def test_a_draw_of_a_tile_already_seen_is_refused_and_of_a_hidden_tile_accepted(sp, data):
    move, known, opened, keep = sp
    assume(not keep)  # with the order given, every draw is the order's next tile
    shown = [str(t) for t in list(known.nodes) + list(known.drawn_by)]
    hidden = [str(t) for s in known.seats for t in known.holdings()[s] if t not in known.drawn_by]
    if hidden and data.draw(st.booleans()):
        bad = Draw(seat=move.seat, draw=data.draw(st.sampled_from(hidden)))
        assert outcome(known, bad) == ("illegal", R + "the boneyard (draw order)")
        assert outcome(opened, bad) == ("ok", 0)  # dealt to somebody, but nobody has shown it
    else:
        assume(shown)
        bad = Draw(seat=move.seat, draw=data.draw(st.sampled_from(shown)))
        expected = outcome(known, bad)
        assert expected == ("illegal", R + "the boneyard (draw order)")
        assert outcome(opened, bad) == expected


@slow
@given(spot((Play,)))
def test_a_pass_or_draw_refused_only_because_of_a_hidden_tile_is_accepted(sp):
    move, known, opened, keep = sp
    t = tile(move.play)
    assume(known.lead is not None and known.drawn is None)
    assume(t not in known.drawn_by)  # a dealt tile: nobody has seen it
    assume(opened._fit(move.seat) is None)  # no tile known to be in the mover's hand fits
    if known.stock:
        draw_ = True if keep else str(known.order[known.drawn_count])  # the boneyard's next tile
        bad = Draw(seat=move.seat, draw=draw_)
    else:
        bad = Pass(seat=move.seat)
    expected = outcome(known, bad)
    assert expected[0] == "illegal" and expected[1] in (R + "turn (must set a tile if able)",
                                                        R + "turn (the chain after a double or a scoring tile)")
    if opened.chain_may_end and move.seat == opened.to_move:
        # chain_draw false: a chain's player who cannot go on writes nothing, so neither is accepted.
        assert outcome(opened, bad) == ("illegal", R + "turn (the chain after a double or a scoring tile)")
    else:
        assert outcome(opened, bad) == ("ok", 0)


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1), st.sampled_from([Play, Draw, Pass]))
def test_a_move_after_the_hand_ended_is_refused_as_the_known_deal_does(seed, config, kind):
    rec = _game(seed, config)
    i = len(rec.hands) - 1
    hand = rec.hands[i]
    known, opened = states_at(rec, i, len(hand.moves))
    assume(known.end in ("out", "target"))
    seat = rec.seats[0]
    bad = {Play: Play(seat=seat, play="6-6"), Draw: Draw(seat=seat, draw=True), Pass: Pass(seat=seat)}[kind]
    expected = outcome(known, bad)
    assert expected[0] == "illegal" and outcome(opened, bad) == expected


def attrs_evolve(move, **changes):
    import attrs
    return attrs.evolve(move, **changes)


# --- score-sheet hands -------------------------------------------------------------------------

def known_progress(rec):
    """(totals, over, winner) after each hand, and each hand's outcome, by the full replay."""
    match = ENGINE.start(rec)
    progress, outcomes = [], []
    for hand in rec.hands:
        state = match.start_hand(hand)
        for move in hand.moves:
            state.apply(move)
        outcomes.append(match.finish_hand(state))
        progress.append((dict(match.totals), match.over, match.winner))
    return progress, outcomes


def sheet_progress(rec, sheets: set[int], outcomes, with_end: bool = True):
    match = ENGINE.start(rec)
    progress = []
    for k, hand in enumerate(rec.hands):
        if k in sheets:
            o = outcomes[k]
            sheet = Hand(leader=hand.leader,
                         result=HandResult(scores=dict(o.scores), end=o.end if with_end else None))
            assert sheet.score_sheet
            got = match.score_sheet_hand(sheet)
            assert got.scores == o.scores and got.end == (o.end if with_end else "score-sheet")
        else:
            state = match.start_hand(hand)
            for move in hand.moves:
                state.apply(move)
            match.finish_hand(state)
        progress.append((dict(match.totals), match.over, match.winner))
    return progress


@slow
@given(st.integers(0, 10 ** 6), st.integers(0, len(CONFIGS) - 1), st.data())
def test_score_sheet_hands_give_the_same_totals_and_winner(seed, config, data):
    rec = _game(seed, config, target=data.draw(st.sampled_from([None, 20])))
    progress, outcomes = known_progress(rec)
    n = len(rec.hands)
    every = set(range(n))
    some = set(data.draw(st.lists(st.integers(0, n - 1), max_size=n)))
    with_end = data.draw(st.booleans())
    assert sheet_progress(rec, every, outcomes, with_end) == progress
    assert sheet_progress(rec, some, outcomes, with_end) == progress


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_score_sheet_games_in_every_configuration(config):
    rec = _game(7, config, target=30)
    progress, outcomes = known_progress(rec)
    n = len(rec.hands)
    assert sheet_progress(rec, set(range(n)), outcomes) == progress
    assert sheet_progress(rec, set(range(0, n, 2)), outcomes, with_end=False) == progress
