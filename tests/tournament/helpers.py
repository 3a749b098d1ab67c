"""Shared test helpers: in-memory events (no database) and independent invariant checks.

The checks here are written again, on purpose, instead of calling
tournament.check: a test that used the code under test as its own oracle
could not fail when that code is wrong.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections import Counter
from pathlib import Path

import attrs

from tournament.pairing import swiss as pairing, standings as st
from tournament.errors import PairingError
from tournament.settings import INDIVIDUAL, PAIRS, ROTATING, Settings, default_placement
from tournament.values import Player, Result, SeatAssignment, Table, Team


class FakeSettings(Settings):
    """Settings whose seats do not need a game engine (individual-table logic on its own)."""

    def seats(self) -> tuple[str, ...]:
        if self.partnership:
            return ("N", "E", "S", "W")
        return tuple(f"P{i + 1}" for i in range(self.table_size))

    def seats_for(self, size: int) -> tuple[str, ...]:
        return ("N", "E", "S", "W") if self.partnership else tuple(f"P{i + 1}" for i in range(size))


def settings_for(fmt: str, size: int = 4, seed: int = 0, tiebreaks=None) -> Settings:
    if fmt == INDIVIDUAL:
        return FakeSettings(name="t", game="castle-rock", format=fmt, table_size=size, seed=seed,
                            bye={"placement": (size - 1) / 2, "score": 0.0}, placement=default_placement(size),
                            tiebreaks=tiebreaks or ("placement", "score"))
    return FakeSettings(name="t", game="competitive", format=fmt, table_size=4, seed=seed,
                        bye={"wins": 1.0, "for": 0.0, "against": 0.0}, tiebreaks=tiebreaks or ("wins", "diff", "for"))


@attrs.define
class MemoryEvent:
    """An event held in lists, driven through the real pairing and standings functions."""

    settings: Settings
    players: list[Player] = attrs.Factory(list)
    teams: list[Team] = attrs.Factory(list)
    tables: list[Table] = attrs.Factory(list)
    byes: dict[int, list[int]] = attrs.Factory(dict)
    results: dict[int, Result] = attrs.Factory(dict)
    round: int = 0

    def add(self, count: int) -> None:
        for _ in range(count):
            if self.settings.format == PAIRS:
                tid = len(self.teams) + 1
                a, b = len(self.players) + 1, len(self.players) + 2
                self.teams.append(Team(tid, f"pair {tid}", (a, b), self.round + 1, None))
                self.players += [Player(a, f"p{a}", tid, self.round + 1, None),
                                 Player(b, f"p{b}", tid, self.round + 1, None)]
            else:
                pid = len(self.players) + 1
                self.players.append(Player(pid, f"p{pid}", None, self.round + 1, None))

    def withdraw(self, rng: random.Random) -> None:
        nxt = self.round + 1
        if self.settings.format == PAIRS:
            active = [t for t in self.teams if t.active_in(nxt)]
            t = rng.choice(active)
            self.teams[self.teams.index(t)] = attrs.evolve(t, withdrawn=nxt)
            for i, p in enumerate(self.players):
                if p.team == t.id:
                    self.players[i] = attrs.evolve(p, withdrawn=nxt)
        else:
            active = [p for p in self.players if p.active_in(nxt)]
            p = rng.choice(active)
            self.players[self.players.index(p)] = attrs.evolve(p, withdrawn=nxt)

    def standings(self) -> st.Standings:
        return st.compute(self.settings, self.players, self.teams, self.tables, self.results, self.byes)

    def pair(self) -> pairing.Plan:
        number = self.round + 1
        current = self.standings() if self.round else None
        plan = pairing.pair_round(self.settings, number, self.players, self.teams, self.tables, self.byes, current)
        self.round = number
        for i, seats in enumerate(plan.tables, 1):
            self.tables.append(Table(len(self.tables) + 1, number, i, tuple(seats)))
        if plan.byes:
            self.byes[number] = list(plan.byes)
        return plan

    def play(self, rng: random.Random) -> None:
        for t in self.tables:
            if t.round == self.round and t.id not in self.results:
                sides = t.sides()
                scores = {s: rng.randrange(0, 250) for s in sides}
                best = max(scores.values())
                top = [s for s, n in scores.items() if n == best]
                self.results[t.id] = Result(t.id, t.id, "manual", False, scores,
                                            top[0] if len(top) == 1 else None, None, "now")


def assert_invariants(ev: MemoryEvent) -> None:
    """Every hard rule of the pairing, checked from the raw tables."""
    s = ev.settings
    team_of = {p.id: p.team for p in ev.players}
    unit = (lambda p: team_of[p]) if s.format == PAIRS else (lambda p: p)
    partners: set[frozenset] = set()
    met: set[frozenset] = set()
    byes_so_far: Counter = Counter()
    for r in range(1, ev.round + 1):
        tables = [t for t in ev.tables if t.round == r]
        assert [t.number for t in tables] == list(range(1, len(tables) + 1))
        seated = Counter(p for t in tables for p in t.players) + Counter(ev.byes.get(r, []))
        active = {p.id for p in ev.players if p.active_in(r)}
        assert set(seated) == active, f"round {r}: seated {sorted(seated)} vs active {sorted(active)}"
        assert all(n == 1 for n in seated.values()), f"round {r}: someone seated twice"
        mixed = s.format == INDIVIDUAL and s.table_size > 2  # tables of two: an odd player out, as ever
        if mixed and len(active) >= 2:
            # Every player seated (castle-rock: 2 to 6 at a table): the fewest tables of at most
            # the table size, their sizes differing by one at most, and no bye.
            sizes = [len(t.seats) for t in tables]
            assert len(tables) == -(-len(active) // s.table_size), f"round {r}: {sizes}"
            assert max(sizes) - min(sizes) <= 1 and max(sizes) <= s.table_size, f"round {r}: {sizes}"
            assert not ev.byes.get(r)
        for t in tables:
            assert len(t.seats) == s.table_size or mixed
            if s.partnership:
                assert [x.seat for x in t.seats] == ["N", "E", "S", "W"]
                assert [x.side for x in t.seats] == ["NS", "EW", "NS", "EW"]
                seat = {x.seat: x.player for x in t.seats}
                if s.format == ROTATING:
                    for a, b in ((seat["N"], seat["S"]), (seat["E"], seat["W"])):
                        assert frozenset((a, b)) not in partners, f"round {r}: {a} and {b} partners again"
                        partners.add(frozenset((a, b)))
                else:
                    assert team_of[seat["N"]] == team_of[seat["S"]] != team_of[seat["E"]] == team_of[seat["W"]]
                    key = frozenset((team_of[seat["N"]], team_of[seat["E"]]))
                    assert key not in met, f"round {r}: pairs {sorted(key)} meet again"
                    met.add(key)
            else:
                assert [x.seat for x in t.seats] == [f"P{i + 1}" for i in range(len(t.seats))]
                assert all(x.side == x.seat for x in t.seats)
        bye_units = set(unit(p) for p in ev.byes.get(r, []))
        active_units = set(unit(p) for p in active)
        per_table = 2 if s.format == PAIRS else s.table_size
        if not mixed:
            assert len(bye_units) == len(active_units) % per_table
        if bye_units:
            others = [byes_so_far[u] for u in active_units - bye_units]
            if others:
                assert max(byes_so_far[u] for u in bye_units) <= min(others), f"round {r}: unfair bye"
        if s.format == PAIRS:
            for u in bye_units:
                assert {p.id for p in ev.players if p.team == u} <= set(ev.byes[r])
        for u in bye_units:
            byes_so_far[u] += 1


def rotating_seating_exists(players: list[int], partners: set[frozenset], byes: Counter, count: int) -> bool:
    """Brute force (small events only): is there any fair choice of byes and seating with new partners?"""
    low = sorted(players, key=lambda p: byes[p])
    levels = sorted(set(byes[p] for p in players))
    for bye_set in itertools.combinations(players, count):
        others = [byes[p] for p in players if p not in bye_set]
        if bye_set and others and max(byes[p] for p in bye_set) > min(others):
            continue
        rest = [p for p in players if p not in bye_set]
        if _fours(rest, partners):
            return True
    del low, levels
    return False


def _fours(rest: list[int], partners: set[frozenset]) -> bool:
    if not rest:
        return True
    top, others = rest[0], rest[1:]
    for trio in itertools.combinations(others, 3):
        w, x, y, z = top, *trio
        left = [p for p in others if p not in trio]
        for (a, c), (b, d) in (((w, x), (y, z)), ((w, y), (x, z)), ((w, z), (x, y))):
            if frozenset((a, c)) not in partners and frozenset((b, d)) not in partners and _fours(left, partners):
                return True
    return False


__all__ = ["FakeSettings", "MemoryEvent", "PairingError", "SeatAssignment", "assert_invariants", "settings_for",
           "rotating_seating_exists"]


def hand_by_hand(texts: list[str]) -> list[str]:
    """A game's requests (:func:`domrec.session.requests_for`) as a table sends them when it types
    each hand whole: one request a hand, and the closing ``y`` alone.  For the tests that need a
    whole game in the event but are not about its moves."""
    starts = sorted({0, *(k for k, text in enumerate(texts) if text.startswith("hand ")), len(texts)})
    out = []
    for a, b in zip(starts, starts[1:]):
        out.append("\n".join(x for x in texts[a:b] if x != "y"))
        if "y" in texts[a:b]:
            out.append("y")
    return out


def copy_event(src: Path, dst: Path) -> Path:
    """A copy of the event file ``src`` at ``dst`` made by SQLite's backup (never a file copy: the
    event may be open), for a test to change without touching the one made once for many."""
    a, b = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        a.backup(b)
    finally:
        a.close()
        b.close()
    return dst
