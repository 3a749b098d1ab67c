"""Duplicate movements, Mitchell and Howell, at every table count from 3 to 30: each pair plays
each board at most once, never meets the same pair twice, and is told where to go next."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from tournament.pairing import movements as M

TABLES = range(M.MIN_TABLES, M.MAX_TABLES + 1)


def assert_sound(mv: M.Movement) -> None:
    """The promises every movement keeps, checked from its sittings alone."""
    played: set[tuple[int, int]] = set()
    met: Counter = Counter()
    assert len(mv.sittings) == mv.rounds
    for r, row in enumerate(mv.sittings, 1):
        assert [s.table for s in row] == list(range(1, mv.tables + 1))
        seated = [p for s in row for p in (s.ns, s.ew)]
        assert sorted(seated) == list(mv.pairs), f"round {r}: every pair at exactly one table"
        sets = Counter(s.board_set for s in row)
        for s in row:
            assert s.round == r and s.ns != s.ew
            assert len(s.boards) == mv.boards_per_round
            assert s.boards == tuple(range((s.board_set - 1) * mv.boards_per_round + 1,
                                           s.board_set * mv.boards_per_round + 1))
            for pair in (s.ns, s.ew):
                for board in s.boards:
                    assert (pair, board) not in played, f"pair {pair} plays board {board} twice"
                    played.add((pair, board))
            met[frozenset((s.ns, s.ew))] += 1
        if mv.kind == "mitchell":
            shared = [t for t, n in sets.items() if n > 1]
            assert len(shared) <= (1 if mv.style == "relay" else 0), "only the relay's share tables share boards"
        elif mv.style != "same boards":
            assert set(sets.values()) == {1}, "a Howell's tables play different sets in a round"
    assert max(met.values()) == 1, "no pair meets the same opponents twice"
    assert {b for _, b in played} == set(mv.boards) <= set(range(1, mv.sets * mv.boards_per_round + 1))
    for pair in mv.pairs:  # the guide tells each pair what the sittings say
        card = mv.guide(pair)
        assert [st.round for st in card] == list(range(1, mv.rounds + 1))
        for st in card:
            row = mv.sittings[st.round - 1][st.table - 1]
            assert (row.ns, row.ew) == ((pair, st.opponent) if st.direction == "NS" else (st.opponent, pair))
            assert st.boards == row.boards
        assert mv.next_station(pair, 0) == card[0] and mv.next_station(pair, mv.rounds) is None
        assert all(mv.next_station(pair, r) == card[r] for r in range(mv.rounds))


@pytest.mark.parametrize("tables", TABLES)
def test_mitchell(tables: int) -> None:
    for even in ("relay", "skip"):
        mv = M.mitchell(tables, 2, even=even)
        assert_sound(mv)
        ns, ew = set(range(1, tables + 1)), set(range(tables + 1, 2 * tables + 1))
        for s in mv.all_sittings():
            assert s.ns == s.table and s.ns in ns and s.ew in ew, "NS stay, EW move"
        meetings = Counter(s.ew for s in mv.all_sittings())
        if tables % 2 or even == "relay":
            assert mv.rounds == tables and mv.style == ("odd" if tables % 2 else "relay")
            assert set(meetings.values()) == {tables}, "every EW pair meets every NS pair"
            assert mv.boards == tuple(range(1, 2 * tables + 1)), "and plays every set"
        else:
            assert mv.rounds == tables - 1 and mv.style == "skip"
            assert set(meetings.values()) == {tables - 1}
        for r, row in enumerate(mv.sittings[1:], 2):  # EW up one table (two at the skip), boards down one
            before = {s.ew: s.table for s in mv.sittings[r - 2]}
            step = 2 if mv.style == "skip" and r == tables // 2 + 1 else 1
            assert all(s.table == before[s.ew] % tables + 1 or (step == 2 and s.table == (before[s.ew] + 1) % tables + 1)
                       for s in row)


@pytest.mark.parametrize("tables", TABLES)
def test_howell(tables: int) -> None:
    mv = M.howell(tables, 2)
    assert_sound(mv)
    complete = M.howell(tables, 3, rounds=2 * tables - 1)
    assert_sound(complete)
    assert complete.rounds == 2 * tables - 1
    assert set(Counter(frozenset((s.ns, s.ew)) for s in complete.all_sittings())) == \
        {frozenset(c) for c in combinations(complete.pairs, 2)}, "a complete Howell: everybody meets everybody"
    assert complete.sets == 2 * tables - 1 and complete.boards == tuple(range(1, 3 * complete.sets + 1))
    assert complete.style == ("same boards" if tables in (3, 5) else "complete")
    if tables <= M.COMPLETE_HOWELL_TABLES:
        assert mv.rounds == 2 * tables - 1
    else:
        assert mv.style == "partial" and mv.rounds == -(-3 * (2 * tables - 1) // 4)
    moves = {st.table for st in mv.guide(1)}
    assert len(moves) > 1, "everybody moves (but the pair kept at table 1)"


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["mitchell", "howell"]), tables=st.integers(M.MIN_TABLES, M.MAX_TABLES),
       per_round=st.integers(M.MIN_BOARDS_PER_ROUND, M.MAX_BOARDS_PER_ROUND), even=st.sampled_from(["relay", "skip"]),
       cut=st.integers(0, 60))
def test_any_movement_cut_short_keeps_its_promises(kind: str, tables: int, per_round: int, even: str, cut: int) -> None:
    most = M.movement(kind, tables, per_round, even=even).rounds if kind == "mitchell" else 2 * tables - 1
    rounds = max(1, most - cut)
    mv = M.movement(kind, tables, per_round, rounds=rounds, even=even)
    assert mv.rounds == rounds and mv.boards_per_round == per_round
    assert_sound(mv)


def test_settings_out_of_range_are_refused_in_one_line() -> None:
    for call, message in [(lambda: M.mitchell(2), "3 to 30 tables, not 2"), (lambda: M.howell(31), "not 31"),
                          (lambda: M.mitchell(5, 5), "2 to 4 boards, not 5"),
                          (lambda: M.mitchell(6, even="bye"), "relay or a skip"),
                          (lambda: M.mitchell(6, rounds=7), "1 to 6 rounds, not 7"),
                          (lambda: M.movement("swiss", 5), "mitchell or a howell"),
                          (lambda: M.mitchell(5).station(11, 1), "no pair 11"),
                          (lambda: M.mitchell(5).station(1, 6), "no round 6")]:
        with pytest.raises(M.MovementError, match=message) as caught:
            call()
        assert "\n" not in str(caught.value) and caught.value.exit_code == 2


def test_the_relay_share_tables_are_named_to_the_pairs() -> None:
    mv = M.mitchell(8, 2)
    first = mv.station(1, 1)
    assert first.shared_with == (8,) and mv.station(8, 1).shared_with == (1,)
    assert mv.station(2, 1).shared_with == ()
    assert mv.next_station(9, 1) == M.Station(9, 2, 2, "EW", 2, mv.sittings[1][1].boards)
