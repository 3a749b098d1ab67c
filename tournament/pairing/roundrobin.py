"""Round robin schedules (single and double) by the circle method, and groups.

Plain functions, no database.  The circle method: with an even field, the
first side stays put and the others turn round it one place a round, so
that after ``n - 1`` rounds everybody has met everybody exactly once.  An
odd field gets a *bye* side: whoever would meet it sits the round out.
Home and away (N-S or first seat) alternate so that each side has the first
seat about half of the time; a double round robin plays the schedule again
with the seats swapped, so every pairing is met once each way.

Groups: sides are spread over the groups in snake order of their seeds (the
top seeds in different groups), and each group plays its own round robin;
the event's round ``r`` holds round ``r`` of every group.
"""

from __future__ import annotations

from typing import Sequence

import attrs

from tournament.errors import Refused


class ScheduleError(Refused):
    """A round robin that cannot be drawn (fewer than two sides in a group)."""


@attrs.frozen
class Pairing:
    home: int  # sits N-S (or in the first seat)
    away: int
    group: int = 0


@attrs.frozen
class Schedule:
    rounds: tuple[tuple[Pairing, ...], ...]
    byes: tuple[tuple[int, ...], ...]  # per round, the sides sitting out
    groups: tuple[tuple[int, ...], ...]  # the sides of each group (one group: the whole field)
    double: bool = False


def circle(units: Sequence[int], double: bool = False, group: int = 0) -> tuple[list[list[Pairing]], list[list[int]]]:
    """Rounds of pairings and the byes of each round, by the circle method."""
    units = list(units)
    if len(units) < 2:
        raise ScheduleError(f"a round robin needs at least 2 sides, not {len(units)}")
    if len(set(units)) != len(units):
        raise ScheduleError("a side is listed twice in the round robin")
    field: list[int | None] = units + ([None] if len(units) % 2 else [])
    n = len(field)
    rounds: list[list[Pairing]] = []
    byes: list[list[int]] = []
    ring = field[1:]
    for r in range(n - 1):
        arrangement = [field[0]] + ring
        games: list[Pairing] = []
        out: list[int] = []
        for i in range(n // 2):
            a, b = arrangement[i], arrangement[n - 1 - i]
            if a is None or b is None:
                out.append(b if a is None else a)  # type: ignore[arg-type]
                continue
            # The fixed side alternates seats by round; the others by their place and round.
            if (i == 0 and r % 2 == 1) or (i > 0 and i % 2 == 1):
                a, b = b, a
            games.append(Pairing(a, b, group))
        rounds.append(games)
        byes.append(out)
        ring = ring[-1:] + ring[:-1]
    if double:
        rounds += [[Pairing(p.away, p.home, group) for p in games] for games in rounds]
        byes += [list(b) for b in byes]
    return rounds, byes


def snake_groups(seeds: Sequence[int], count: int) -> list[list[int]]:
    """Seeds spread over ``count`` groups in snake order: 1..g, g..1, …"""
    if count < 1:
        raise ScheduleError("at least one group is needed")
    if len(seeds) < 2 * count:
        raise ScheduleError(f"{len(seeds)} sides cannot fill {count} groups of at least 2")
    groups: list[list[int]] = [[] for _ in range(count)]
    for i, u in enumerate(seeds):
        lap, pos = divmod(i, count)
        groups[pos if lap % 2 == 0 else count - 1 - pos].append(u)
    return groups


def schedule(seeds: Sequence[int], groups: int = 1, double: bool = False) -> Schedule:
    """The whole round robin: one group (everybody) or ``groups`` groups played side by side."""
    members = snake_groups(seeds, groups)
    per = [circle(g, double, gi) for gi, g in enumerate(members)]
    length = max(len(r) for r, _ in per)
    rounds = []
    byes = []
    for i in range(length):
        rounds.append(tuple(p for r, _ in per if i < len(r) for p in r[i]))
        byes.append(tuple(u for r, b in per if i < len(b) for u in b[i])
                    + tuple(u for (r, _), g in zip(per, members) if i >= len(r) for u in g))
    return Schedule(tuple(rounds), tuple(byes), tuple(tuple(g) for g in members), double)


def group_name(index: int) -> str:
    return chr(ord("A") + index) if index < 26 else f"G{index + 1}"
