"""Seeding round 1 and accelerated pairings (issue 39): what federations do for big Swiss fields.

Plain functions over numbers; the event layer reads the ratings and keeps the seeded order with
round 1 (:mod:`tournament.event.seeding`).

* **Seeded round 1** (``tournament pair EVENT --seed rating``): the units (pairs in a pairs event,
  players otherwise) in order of their rating, best first, instead of the random draw.  The
  tables are dealt as federations deal a Swiss round 1: the field is cut into as many slices as
  a table has units, and each table takes one unit of each slice (:func:`deal`): in a pairs
  event the top half meets the bottom half (1 against n/2 + 1, 2 against n/2 + 2, …); at a
  rotating table of four, one player of each quarter; at an individual table of six, one of
  each sixth.
* **Accelerated pairings** (``tournament new --accelerated N``, FIDE's Baku system): group A, the
  top half of the seeded field (rounded up to whole tables), is paired in the first N rounds as
  if it had :func:`virtual_points` more: a game won in the first half of those rounds (rounded
  up), half a game won in the rest.  The virtual points decide who meets whom and nothing else:
  the standings never show them.
"""

from __future__ import annotations

import math
import random
from typing import Mapping, Sequence

from tournament.settings import INDIVIDUAL, PAIRS, Settings

#: ``--seed`` words: the random draw (the default), the players' ``rating`` column, any column.
DRAW = "draw"
RATING = "rating"
COLUMN_PREFIX = "column:"
#: ``--seed ratings:FILE``: the ratings across events (``tournament ratings``), by player name.
RATINGS_PREFIX = "ratings:"


def ratings_path(choice: str) -> str | None:
    """The ratings file a ``--seed ratings:FILE`` choice names, or None for any other choice."""
    choice = choice.strip()
    if choice.lower().startswith(RATINGS_PREFIX) and choice[len(RATINGS_PREFIX):].strip():
        return choice[len(RATINGS_PREFIX):].strip()
    return None


def seed_column(choice: str) -> str | None:
    """The players' column a ``--seed`` choice orders by (``rating``, ``column:elo`` -> ``elo``),
    or None for the random draw; a column name as a players CSV header is kept (lower case)."""
    choice = choice.strip()
    if choice.lower() == DRAW:
        return None
    if choice.lower() == RATING:
        return RATING
    if choice.lower().startswith(COLUMN_PREFIX) and choice[len(COLUMN_PREFIX):].strip():
        return choice[len(COLUMN_PREFIX):].strip().lower()
    raise ValueError(f"--seed is draw, rating, column:NAME (a column of the players CSV) or ratings:FILE (a "
                     f"ratings file), not {choice!r}")


def seeded(units: Sequence[int], rating: Mapping[int, float | None], rng: random.Random) -> list[int]:
    """The units best rated first; units without a rating after every rated one; units level (or
    unrated) in the random draw's order, so the seeding stays fair where the ratings say nothing."""
    draw = list(units)
    rng.shuffle(draw)
    place = {u: i for i, u in enumerate(draw)}
    return sorted(units, key=lambda u: (rating.get(u) is None, -(rating.get(u) or 0.0), place[u]))


def units_a_table(settings: Settings) -> int:
    """How many units a table seats: two pairs, or the table's players."""
    return 2 if settings.format == PAIRS else settings.table_size


def deal(order: Sequence[int], per_table: int) -> list[int]:
    """``order`` rearranged so that the pairing, which seats neighbours together, seats one unit of
    each slice of the field at each table: with T tables, the unit at place i goes to table i mod T
    (table by table, each table's units in seeded order).  Pairs: 1, n/2+1, 2, n/2+2, …"""
    tables = max(1, math.ceil(len(order) / per_table))
    return [order[i] for i in sorted(range(len(order)), key=lambda i: (i % tables, i))]


def group_a(order: Sequence[int], per_table: int) -> set[int]:
    """Group A of accelerated pairings: the top half of the seeded ``order``, rounded up to whole
    tables (FIDE: to an even number of players), so that group A can be paired among itself."""
    size = math.ceil(len(order) / 2 / per_table) * per_table
    return set(order[:size])


def virtual_points(settings: Settings, round_no: int) -> float:
    """What group A is paired with in ``round_no``: a game won (at individual tables, a first place's
    placement points) in the first half of the accelerated rounds (rounded up), half of it in the
    rest, nothing after them."""
    if not settings.accelerated or round_no > settings.accelerated:
        return 0.0
    full = settings.placement[0] if settings.format == INDIVIDUAL and settings.placement else 1.0
    return full if round_no <= math.ceil(settings.accelerated / 2) else full / 2


def arrange_round_one(order: Sequence[int], per_table: int, accelerated_group: set[int] | None) -> list[int]:
    """Round 1's units in the order the pairing seats them: dealt (:func:`deal`) within group A and
    within the rest separately when the event is accelerated (group A's virtual win puts its units
    in a score group of their own), over the whole field otherwise."""
    if not accelerated_group:
        return deal(order, per_table)
    top = [u for u in order if u in accelerated_group]
    rest = [u for u in order if u not in accelerated_group]
    return deal(top, per_table) + deal(rest, per_table)
