"""Prize lists: the standings within a category (women, juniors, a club) and the standings of
groups of players (clubs) by the sum of their best players.  Pure functions over
:class:`~tournament.pairing.standings.Standings`: nothing is ranked afresh, so a category's order
is always the event's order, tie-breaks and all.

* A **category list** keeps the units whose category is the value, in the event's order, and
  numbers them again from 1; units level on every key in the event share a place here too.
* A **group list** (``--best K``) adds up each group's best ``K`` units (by the event's order)
  on every key that adds up (games won, points, placement points: not head-to-head, which is a
  comparison among the tied, and not Buchholz, which counts the opponents) and ranks the groups
  on those sums in the event's order of keys.  A group with fewer than ``K`` units counts the
  ones it has (and says so).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

import attrs

from tournament.pairing.standings import Standing, Standings, shown_number
from tournament.settings import FEDERATION_KEYS, HEAD_TO_HEAD, LOWER_IS_BETTER, TIEBREAK_ALIASES

#: Keys that do not add up over a group's players.
#: The federation keys count opponents (median Buchholz, Sonneborn-Berger) or are one game's (best round).
NOT_SUMMED = frozenset({HEAD_TO_HEAD, "buchholz", *FEDERATION_KEYS})


@attrs.frozen
class CategoryList:
    """The standings of one category: (place in the category, the event's row) pairs."""

    value: str
    rows: tuple[tuple[int, Standing], ...]


@attrs.frozen
class GroupRow:
    rank: int
    group: str
    #: The units counted, best first (their names), and how many the group has in all.
    counted: tuple[str, ...]
    members: int
    #: Exact (fractions): three players' 10/3 placement points are 10, level with 5 + 5.
    sums: Mapping[str, Fraction]


@attrs.frozen
class GroupList:
    column: str
    best: int
    keys: tuple[str, ...]
    rows: tuple[GroupRow, ...]

    def row_dicts(self) -> list[dict[str, Any]]:
        return [{"rank": r.rank, self.column: r.group, **{k: shown_number(v) for k, v in r.sums.items()},
                 "counted": len(r.counted), "players": "; ".join(r.counted)} for r in self.rows]

    def to_dict(self) -> dict[str, Any]:
        return {"column": self.column, "best": self.best, "keys": list(self.keys), "rows": self.row_dicts()}


def summed_keys(tiebreaks: Sequence[str]) -> tuple[str, ...]:
    """The event's keys that add up over a group, in its order (a name for the point difference
    counted once)."""
    out: list[str] = []
    for k in tiebreaks:
        base = TIEBREAK_ALIASES.get(k, k)
        if k in NOT_SUMMED or any(TIEBREAK_ALIASES.get(x, x) == base for x in out):
            continue
        out.append(k)
    return tuple(out)


def categories(standings: Standings, category_of: Mapping[int, str]) -> list[CategoryList]:
    """One list a category value (in order of value, case and accents as typed), each unit of
    the value in the event's order, placed again from 1 (units the event ranks level share)."""
    by_value: dict[str, list[Standing]] = {}
    for row in standings.rows:
        value = category_of.get(row.unit)
        if value:
            by_value.setdefault(value, []).append(row)
    out = []
    for value in sorted(by_value, key=lambda v: (v.casefold(), v)):
        placed: list[tuple[int, Standing]] = []
        for i, row in enumerate(by_value[value], 1):
            level = placed and placed[-1][1].rank == row.rank
            placed.append((placed[-1][0] if level else i, row))
        out.append(CategoryList(value, tuple(placed)))
    return out


def _exact(value: float, key: str, scale: int) -> Fraction:
    """A row's value as an exact number: placement points are whole units of 1/``scale`` (the
    standings' own unit), the other keys that add up are whole or half numbers, exact as floats."""
    if TIEBREAK_ALIASES.get(key, key) == "placement":
        return Fraction(round(value * scale), scale)
    return Fraction(value)


def groups(standings: Standings, group_of: Mapping[int, str], best: int, column: str) -> GroupList:
    """The groups (clubs) ranked by the sums of their best ``best`` units (see the module)."""
    keys = summed_keys(standings.tiebreaks)
    members: dict[str, list[Standing]] = {}
    for row in standings.rows:
        value = group_of.get(row.unit)
        if value:
            members.setdefault(value, []).append(row)
    scored = []
    for value, rows in members.items():
        top = rows[:best]
        sums = {k: sum((_exact(r.value(k), k, standings.scale) for r in top), Fraction(0)) for k in keys}
        # A withdrawn player still counts with the games they played, marked so on the list.
        scored.append((value, tuple(r.name if r.active else f"{r.name} (withdrawn)" for r in top), len(rows), sums))

    def order(item: tuple[str, tuple[str, ...], int, dict[str, Fraction]]) -> tuple[Any, ...]:
        sums = item[3]
        return tuple(sums[k] if TIEBREAK_ALIASES.get(k, k) in LOWER_IS_BETTER else -sums[k] for k in keys)

    scored.sort(key=lambda item: (order(item), item[0].casefold(), item[0]))
    rows_out: list[GroupRow] = []
    for i, (value, counted, n, sums) in enumerate(scored, 1):
        level = rows_out and order(scored[i - 2]) == order((value, counted, n, sums))
        rows_out.append(GroupRow(rows_out[-1].rank if level else i, value, counted, n, sums))
    return GroupList(column, best, keys, tuple(rows_out))
