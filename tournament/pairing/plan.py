"""What pairing a round produces, and what the rounds before it constrain.

:class:`Plan` is one paired round (its tables and byes), whichever way it was paired: Swiss by
the standings (:mod:`tournament.pairing.swiss`) or from a balanced schedule fixed in advance
(:mod:`tournament.pairing.schedule`); :func:`history` reads the earlier rounds' tables and byes
into the partners, opponents, sides and byes each unit has had.  Both pairing modules build on
this one, and neither on the other's internals.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Iterable

import attrs

from tournament.settings import PAIRS, ROTATING, Settings
from tournament.values import Player, SeatAssignment, Table


@attrs.frozen
class Plan:
    """One round: tables in table-number order (seats in seating order), and byes (players)."""

    round: int
    tables: tuple[tuple[SeatAssignment, ...], ...]
    byes: tuple[int, ...]


@attrs.frozen
class History:
    """What earlier rounds constrain: per unit (pair or player)."""

    partners: dict[int, set[int]]
    opponents: dict[int, Counter]
    ns_balance: dict[int, int]  # N-S sittings minus E-W sittings
    byes: Counter


def history(settings: Settings, players: Iterable[Player], tables: Iterable[Table],
            byes: dict[int, list[int]]) -> History:
    """The constraints of earlier rounds, from the stored tables and byes."""
    team_of = {p.id: p.team for p in players}
    unit = (lambda pid: team_of[pid]) if settings.format == PAIRS else (lambda pid: pid)
    partners: dict[int, set[int]] = {}
    opponents: dict[int, Counter] = {}
    ns: Counter = Counter()
    for table in tables:
        by_side: dict[str, list[int]] = {}
        for s in table.seats:
            by_side.setdefault(s.side, []).append(s.player)
        for side, members in by_side.items():
            units = list(dict.fromkeys(unit(p) for p in members))
            others = list(dict.fromkeys(unit(p) for sd, ms in by_side.items() if sd != side for p in ms))
            for u in units:
                opponents.setdefault(u, Counter()).update(others)
                if side == "NS":
                    ns[u] += 1
                elif side == "EW":
                    ns[u] -= 1
            if settings.format == ROTATING:
                for a, b in itertools.permutations(members, 2):
                    partners.setdefault(a, set()).add(b)
    bye_count: Counter = Counter()
    for given in byes.values():
        for u in dict.fromkeys(unit(p) for p in given):
            bye_count[u] += 1
    return History(partners, opponents, dict(ns), bye_count)
