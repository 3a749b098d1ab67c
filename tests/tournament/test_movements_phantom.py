"""Duplicate movements for an odd number of pairs (a phantom pair 2T): at every table count from 3
to 30, Mitchell and Howell, the pair meeting the phantom sits out, the sit-out table keeps its
number and is no table of the round, each real pair sits out at most once, meets every other real
pair at most once and plays no board twice (docs/duplicate.md, "Movements")."""

from __future__ import annotations

from collections import Counter

import pytest

from tournament.pairing import movements as M

TABLES = range(M.MIN_TABLES, M.MAX_TABLES + 1)


def assert_sound_with_phantom(mv: M.Movement) -> None:
    phantom = 2 * mv.tables
    assert mv.phantom == phantom and mv.pairs == tuple(range(1, phantom))
    assert len(mv.sit_outs) == mv.rounds == len(mv.sittings)
    played: set[tuple[int, int]] = set()
    met: Counter = Counter()
    sat_out: Counter = Counter()
    for r, (row, out) in enumerate(zip(mv.sittings, mv.sit_outs), 1):
        assert phantom in (out.ns, out.ew) and out.round == r
        tables = [s.table for s in row]
        assert sorted(tables + [out.table]) == list(range(1, mv.tables + 1)), "the movement's numbers, one gap"
        assert all(phantom not in (s.ns, s.ew) for s in row)
        sitter = out.ew if out.ns == phantom else out.ns
        seated = [p for s in row for p in (s.ns, s.ew)]
        assert sorted(seated + [sitter]) == list(mv.pairs), f"round {r}: each real pair at one table or out"
        sat_out[sitter] += 1
        station = mv.sits_out(r)
        assert station is not None and station.pair == sitter and station.sits_out
        assert station.table == out.table and station.boards == () and station.opponent == phantom
        assert mv.station(sitter, r) == station
        if mv.kind == "howell":
            assert out.table == 1, "a Howell's phantom stays at table 1"
        else:
            assert out.ew == phantom and out.ns == out.table, "a Mitchell's phantom is EW: an NS pair sits out"
        for s in row:
            for pair in (s.ns, s.ew):
                for board in s.boards:
                    assert (pair, board) not in played, f"pair {pair} plays board {board} twice"
                    played.add((pair, board))
            met[frozenset((s.ns, s.ew))] += 1
    assert max(sat_out.values()) == 1, "no pair sits out twice"
    assert max(met.values()) == 1, "no pair meets the same opponents twice"
    assert {b for _, b in played} == set(mv.boards)
    for pair in mv.pairs:
        card = mv.guide(pair)
        assert [st.round for st in card] == list(range(1, mv.rounds + 1))
        assert sum(st.sits_out for st in card) == sat_out[pair]
        assert mv.next_station(pair, 0) == card[0]
    with pytest.raises(M.MovementError):
        mv.station(phantom, 1)


@pytest.mark.parametrize("tables", TABLES)
def test_mitchell_with_a_phantom(tables: int) -> None:
    mv = M.movement("mitchell", tables, 2, phantom=True)
    assert_sound_with_phantom(mv)
    assert mv.rounds == tables  # (relay or odd: T rounds, each NS pair sits out once)
    assert sorted(s.ns for s in mv.sit_outs) == list(range(1, tables + 1))


@pytest.mark.parametrize("tables", [t for t in TABLES if t % 2 == 0])
def test_skip_mitchell_with_a_phantom(tables: int) -> None:
    assert_sound_with_phantom(M.movement("mitchell", tables, 3, even="skip", phantom=True))


@pytest.mark.parametrize("tables", TABLES)
def test_howell_with_a_phantom(tables: int) -> None:
    mv = M.movement("howell", tables, 2, phantom=True)
    assert_sound_with_phantom(mv)
    if mv.rounds == 2 * tables - 1:  # a complete Howell: every real pair sits out exactly once
        assert sorted(s.ew if s.ns == mv.phantom else s.ns for s in mv.sit_outs) == list(mv.pairs)


def test_without_a_phantom_every_pair_plays() -> None:
    mv = M.movement("mitchell", 7, 2)
    assert mv.phantom is None and mv.sit_outs == () and mv.sits_out(1) is None
    assert mv.pairs == tuple(range(1, 15))
