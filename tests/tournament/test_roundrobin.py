"""Round-robin schedules: everyone meets everyone exactly once (twice in a double round robin)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tournament.pairing import roundrobin as rr


@pytest.mark.parametrize("n", range(2, 41))
@pytest.mark.parametrize("double", [False, True])
def test_everyone_meets_everyone(n: int, double: bool) -> None:
    units = [100 + 3 * i for i in range(n)]
    sched = rr.schedule(units, 1, double)
    legs = 2 if double else 1
    rounds_per_leg = n - 1 if n % 2 == 0 else n
    assert len(sched.rounds) == legs * rounds_per_leg
    met = Counter(frozenset((p.home, p.away)) for games in sched.rounds for p in games)
    assert set(met) == {frozenset(c) for c in itertools.combinations(units, 2)}
    assert set(met.values()) == {legs}
    for games, byes in zip(sched.rounds, sched.byes):
        playing = [u for p in games for u in (p.home, p.away)]
        assert len(playing) == len(set(playing)), "nobody plays twice in a round"
        assert sorted(playing + list(byes)) == sorted(units), "everyone plays or has the bye"
        assert len(byes) == n % 2
    bye_count = Counter(u for byes in sched.byes for u in byes)
    assert all(bye_count[u] == (legs if n % 2 else 0) for u in units)
    home = Counter(p.home for games in sched.rounds for p in games)
    games_each = (n - 1) * legs
    assert all(abs(2 * home[u] - games_each) <= 2 for u in units), "first seat about half of the time"
    if double:
        ordered = Counter((p.home, p.away) for games in sched.rounds for p in games)
        assert set(ordered.values()) == {1}, "the second leg swaps the seats"


@pytest.mark.parametrize("n,groups", [(8, 2), (10, 2), (12, 3), (13, 4), (20, 4), (7, 3)])
def test_groups(n: int, groups: int) -> None:
    seeds = list(range(1, n + 1))
    sched = rr.schedule(seeds, groups)
    assert sorted(u for g in sched.groups for u in g) == seeds
    assert [g[0] for g in sched.groups] == list(range(1, groups + 1)), "top seeds in different groups"
    sizes = [len(g) for g in sched.groups]
    assert max(sizes) - min(sizes) <= 1
    group_of = {u: i for i, g in enumerate(sched.groups) for u in g}
    met = Counter(frozenset((p.home, p.away)) for games in sched.rounds for p in games)
    want = {frozenset(c) for g in sched.groups for c in itertools.combinations(g, 2)}
    assert set(met) == want and set(met.values()) == {1}
    for games in sched.rounds:
        assert all(group_of[p.home] == group_of[p.away] == p.group for p in games)
        playing = [u for p in games for u in (p.home, p.away)]
        assert len(playing) == len(set(playing))


def test_refusals() -> None:
    with pytest.raises(rr.ScheduleError):
        rr.circle([1])
    with pytest.raises(rr.ScheduleError, match="twice"):
        rr.circle([1, 2, 2])
    with pytest.raises(rr.ScheduleError, match="cannot fill"):
        rr.schedule([1, 2, 3], 2)
