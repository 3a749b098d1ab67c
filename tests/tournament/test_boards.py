"""Duplicate boards: dealt by each game's engine, read back from every form, and a record's hand
refused, naming the first tile that differs, when it was not dealt as its board."""

from __future__ import annotations

import json
import re

import attrs
import pytest
from hypothesis import given, settings, strategies as st

import domrec
from domrec.notation import dumps
from domrec.record import Draw
from domrec.simulate import dumps as dumps_json

from tournament.pairing import boards as B

#: Every game whose hands start from a deal, at each player count (and the options that change
#: the deal's shape: Horse Race in partnerships, Castle Rock's double-nine set, 6-6 leading).
KINDS = [("competitive", 4, None), ("competitive", 4, {"first_lead": "double-six"}), ("broadway", 4, None),
         *[("horse-race", n, None) for n in (2, 3, 4)], ("horse-race", 4, {"partnerships": True}),
         *[("castle-rock", n, None) for n in range(2, 7)], ("castle-rock", 3, {"set": "double-nine"}),
         ("domino-roads", 3, None), ("domino-roads", 4, None)]
IDS = [f"{g}-{n}{'-' + '-'.join(f'{k}={v}' for k, v in o.items()) if o else ''}" for g, n, o in KINDS]


@pytest.mark.parametrize(("game", "players", "options"), KINDS, ids=IDS)
def test_boards_are_dealt_by_the_engine_played_and_read_back(game, players, options) -> None:
    boards = B.deal_boards(game, 3, 11, players=players, options=options)
    assert [b.number for b in boards] == [1, 2, 3]
    assert boards == B.deal_boards(game, 3, 11, players=players, options=options), "the same seed, the same boards"
    assert boards[:2] == B.deal_boards(game, 2, 11, players=players, options=options), "board k is board k"
    assert boards[0].deal != B.deal_boards(game, 1, 12, players=players, options=options)[0].deal
    assert len({json.dumps(B.board_json(b)["hands"]) for b in boards}) == 3
    for board in boards:
        record = B.play(board, 5)
        report = domrec.validate(record)
        assert report.valid, [p.text() for p in report.problems]
        B.check_hand(board, record)
    # read back: the boards' own JSON, DGN deal lines, a JSON record, JSON Lines of records
    as_json = json.dumps(B.boards_json(boards))
    assert B.read_boards(as_json) == boards
    records = [attrs.evolve(b.template(), hands=(b.hand(),)) for b in boards]
    dgn = "\n".join(dumps(r) for r in records)
    for text in (dgn, "\n".join(dumps_json(r) for r in records)):
        assert [(b.leader, b.deal) for b in B.read_boards(text)] == [(b.leader, b.deal) for b in boards]
    assert B.read_boards(dumps_json(records[1]))[0].deal == boards[1].deal


def test_the_json_shape_of_the_issue() -> None:
    board = B.deal_boards("competitive", 1, 1)[0]
    out = B.boards_json([board])
    assert list(out[0]) == ["board", "game", "leader", "hands", "boneyard"]
    assert out[0]["board"] == 1 and out[0]["game"] == "competitive" and out[0]["boneyard"] == []
    assert list(out[0]["hands"]) == ["N", "E", "S", "W"] and all(len(t) == 7 for t in out[0]["hands"].values())
    horse = B.boards_json(B.deal_boards("horse-race", 1, 1, players=3))[0]
    assert len(horse["boneyard"]) == 28 - 3 * 6
    castle = B.boards_json(B.deal_boards("castle-rock", 1, 1, players=4))[0]
    assert list(castle) == ["board", "game", "leader", "hands", "boneyard", "row"]
    roads = B.boards_json(B.deal_boards("domino-roads", 1, 1, players=3))[0]
    assert list(roads["piles"]) == ["P1", "P2", "P3"]


def test_a_record_reading_several_hands_makes_a_board_of_each() -> None:
    game = next(domrec.simulate.simulate("competitive", 1, 3, accidents=False))
    boards = B.boards_from_records([game], first=5)
    assert [b.number for b in boards] == list(range(5, 5 + len(game.hands)))
    assert [b.deal.hands for b in boards] == [h.deal.hands for h in game.hands]


def _swapped(record, seat_a, seat_b, index=0):
    """``record`` with the first hand's tile ``index`` of two seats swapped."""
    hand = record.hands[0]
    hands = dict(hand.deal.hands)
    a, b = list(hands[seat_a]), list(hands[seat_b])
    a[index], b[index] = b[index], a[index]
    hands[seat_a], hands[seat_b] = tuple(a), tuple(b)
    return attrs.evolve(record, hands=(attrs.evolve(hand, deal=attrs.evolve(hand.deal, hands=hands)),))


def test_another_deal_is_refused_naming_the_first_tile() -> None:
    board = B.deal_boards("competitive", 3, 2)[2]
    record = B.play(board, 1)
    n, e = board.deal.hands["N"][0], board.deal.hands["E"][0]
    with pytest.raises(B.NotTheBoardsDeal) as caught:
        B.check_hand(board, _swapped(record, "N", "E"))
    assert str(caught.value) == (f"hand 1 is not board 3's deal: board 3 deals {n} to N; the record deals it "
                                 f"to E (and {e} to N)")
    assert caught.value.exit_code == 1 and "\n" not in str(caught.value)
    wrong = board.deal.hands["S"][3]
    with pytest.raises(B.NotTheBoardsDeal, match=f"board 3 deals {wrong} to S; the record deals it to W "):
        B.check_hand(board, _swapped(record, "S", "W", 3))
    with pytest.raises(B.NotTheBoardsDeal, match="board 3 is led by"):
        other = next(s for s in board.seats if s != board.leader)
        B.check_hand(board, attrs.evolve(record, hands=(attrs.evolve(record.hands[0], leader=other),)))
    with pytest.raises(B.NotTheBoardsDeal, match="board 3 is competitive, the record broadway"):
        B.check_hand(board, B.play(B.deal_boards("broadway", 1, 1)[0], 1))
    with pytest.raises(B.NotTheBoardsDeal, match=r"other rules \(first_lead any on the board, double-six in the"):
        B.check_hand(board, B.play(B.deal_boards("competitive", 1, 1, options={"first_lead": "double-six"})[0], 1))


def test_a_boneyard_in_another_order_is_refused_at_its_first_tile() -> None:
    board = B.deal_boards("horse-race", 1, 4, players=2)[0]
    record = B.play(board, 2)
    hand = record.hands[0]
    yard = list(hand.deal.boneyard)
    yard[2], yard[5] = yard[5], yard[2]
    moved = attrs.evolve(record, hands=(attrs.evolve(hand, deal=attrs.evolve(hand.deal, boneyard=tuple(yard))),))
    with pytest.raises(B.NotTheBoardsDeal) as caught:
        B.check_hand(board, moved)
    assert str(caught.value) == (f"hand 1 is not board 1's deal: the boneyard's 3rd tile drawn is "
                                 f"{board.deal.boneyard[2]} on board 1, {yard[2]} in the record")


def test_draws_named_without_the_boneyard_order_are_checked_against_it() -> None:
    board = next(b for b in B.deal_boards("horse-race", 20, 4, players=4)
                 if sum(type(m) is Draw for m in B.play(b, 3).hands[0].moves) >= 2)
    record = B.play(board, 3)
    hand = record.hands[0]
    order = iter(board.deal.boneyard)
    named = tuple(attrs.evolve(m, draw=next(order)) if type(m) is Draw else m for m in hand.moves)
    unordered = attrs.evolve(hand, deal=attrs.evolve(hand.deal, boneyard=None), moves=named)
    B.check_hand(board, attrs.evolve(record, hands=(unordered,)))
    first = next(i for i, m in enumerate(named) if type(m) is Draw)
    wrong = attrs.evolve(named[first], draw=board.deal.boneyard[-1])
    bad = attrs.evolve(unordered, moves=named[:first] + (wrong,) + named[first + 1:])
    with pytest.raises(B.NotTheBoardsDeal, match=f"the boneyard's 1st tile drawn is {board.deal.boneyard[0]} on "
                                                 f"board {board.number}, {board.deal.boneyard[-1]} in the record"):
        B.check_hand(board, attrs.evolve(record, hands=(bad,)))


def test_roads_duplicates_and_piles_are_compared_as_dealt() -> None:
    board = next(b for b in B.deal_boards("domino-roads", 5, 9, players=3) if b.deal.piles["P2"][0] != b.deal.piles["P2"][-1])
    record = B.play(board, 1)
    hand = record.hands[0]
    piles = dict(hand.deal.piles)
    piles["P2"] = tuple(reversed(piles["P2"]))
    turned = attrs.evolve(record, hands=(attrs.evolve(hand, deal=attrs.evolve(hand.deal, piles=piles)),))
    with pytest.raises(B.NotTheBoardsDeal) as caught:
        B.check_hand(board, turned)
    assert str(caught.value) == (f"hand 1 is not board {board.number}'s deal: P2's pile's 1st tile is "
                                 f"{board.deal.piles['P2'][0]} on board {board.number}, {piles['P2'][0]} in the record")
    # the Roads set holds two of some tiles: a seat dealt both copies is compared by count
    hands = board.deal.hands
    double = next((s, t) for s in board.seats for t in hands[s] if list(hands[s]).count(t) == 1
                  and any(t in hands[o] for o in board.seats if o != s))
    seat, tile = double
    other = next(o for o in board.seats if o != seat and tile in hands[o])
    give = next(t for t in hands[other] if t != tile)
    moved = dict(hand.deal.hands)
    moved[seat] = tuple(give if t == tile else t for t in moved[seat])
    moved[other] = tuple(tile if t == give else t for t in moved[other])
    with pytest.raises(B.NotTheBoardsDeal, match=f"board {board.number} deals {tile} to {seat}; the record deals it "
                                                 f"to {other}"):
        B.check_hand(board, attrs.evolve(record, hands=(attrs.evolve(hand, deal=attrs.evolve(hand.deal, hands=moved)),)))


def test_a_hand_without_its_deal_or_of_other_options_is_refused() -> None:
    board = B.deal_boards("horse-race", 1, 2, players=3)[0]
    record = B.play(board, 1)
    with pytest.raises(B.NotTheBoardsDeal, match="does not give hand 1's deal"):
        B.check_hand(board, attrs.evolve(record, hands=(attrs.evolve(record.hands[0], deal=None),)))
    with pytest.raises(B.NotTheBoardsDeal, match="the record has only 1 hand$"):
        B.check_hand(board, record, hand=2)
    celko = B.deal_boards("horse-race", 1, 2, players=3, variant="celko")[0]
    assert celko.deal == board.deal and celko != board, "the same tiles under other rules are another board"
    with pytest.raises(B.NotTheBoardsDeal, match="other rules"):
        B.check_hand(celko, record)


def test_unusable_deals_are_refused_in_one_line() -> None:
    board = B.deal_boards("competitive", 1, 1)[0]
    data = B.boards_json([board])
    data[0]["hands"]["N"][0] = data[0]["hands"]["E"][0]
    with pytest.raises(B.BoardError) as caught:
        B.read_boards(json.dumps(data))
    assert str(caught.value).startswith("<deals>: board 1: ") and "twice" in str(caught.value)
    assert "\n" not in str(caught.value) and caught.value.exit_code == 2
    with pytest.raises(B.BoardError, match="no deals in it"):
        B.read_boards("  \n", "deals.dgn")
    with pytest.raises(B.BoardError, match="^deals.dgn: no hand in it gives its deal$"):
        B.read_boards('[Game "competitive"]\n[N "A"]\n[E "B"]\n[S "C"]\n[W "D"]\n', "deals.dgn")
    with pytest.raises(B.BoardError, match="^deals.dgn: record 1, hand 1: .*players"):
        B.read_boards('[Game "competitive"]\n[N "A"]\n\nhand 1 lead N\ndeal N 6-6\n', "deals.dgn")
    bad_tile = dumps(attrs.evolve(board.template(), hands=(board.hand(),))).replace(data[0]["hands"]["W"][6], "9-9")
    with pytest.raises(B.BoardError, match=r"^deals.dgn: record 1, hand 1: 9-9 is not a tile of the double-six set \[competitive"):
        B.read_boards(bad_tile, "deals.dgn")
    with pytest.raises(B.BoardError, match="make at least one board"):
        B.deal_boards("competitive", 0, 1)
    with pytest.raises(B.BoardError, match="players"):
        B.deal_boards("competitive", 1, 1, players=3)


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10 ** 6), pick=st.randoms(use_true_random=False))
def test_any_swap_of_two_seats_tiles_is_refused_naming_a_swapped_tile(kind, seed, pick) -> None:
    game, players, options = kind
    board = B.deal_boards(game, 1, seed, players=players, options=options)[0]
    record = B.play(board, seed)
    B.check_hand(board, record)
    a, b = pick.sample(list(board.seats), 2)
    i = pick.randrange(len(board.deal.hands[a]))
    j = pick.randrange(len(board.deal.hands[b]))
    hand = record.hands[0]
    hands = dict(hand.deal.hands)
    ta, tb = hands[a][i], hands[b][j]
    if B._tile(ta) == B._tile(tb):
        return  # Domino Roads' set holds two of some tiles: swapping equal tiles changes nothing
    hands[a] = hands[a][:i] + (tb,) + hands[a][i + 1:]
    hands[b] = hands[b][:j] + (ta,) + hands[b][j + 1:]
    swapped = attrs.evolve(record, hands=(attrs.evolve(hand, deal=attrs.evolve(hand.deal, hands=hands)),))
    with pytest.raises(B.NotTheBoardsDeal) as caught:
        B.check_hand(board, swapped)
    assert re.search(rf"board {board.number} deals ({re.escape(ta)} to {a}|{re.escape(tb)} to {b});",
                     str(caught.value)), str(caught.value)
