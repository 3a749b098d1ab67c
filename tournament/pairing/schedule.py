"""Balanced schedules for rotating-partner events (``--schedule balanced``).

A social event wants something the standings-based pairing cannot give: a
schedule fixed in advance in which nobody partners anyone twice and
opponents repeat as little as possible, whatever the results.

Whist tournaments
-----------------
A *whist tournament* Wh(n) is exactly that schedule at its best: for
n = 4k players, n - 1 rounds of k tables in which every two players are
partners exactly once and opponents exactly twice; for n = 4k + 1, n rounds
with one player out each round (everybody once).  They exist for every
n = 0 or 1 (mod 4) (a classical result of design theory; see Anderson, *Combinatorial Designs
and Tournaments*, 1997).  The designs this module carries are *cyclic* (on
Z_n, the player out being 0; for n = 4k + 1) and *1-rotational* (on
Z_(n-1) plus a fixed point ∞; for n = 4k): one initial round, :data:`BASES`,
from which round i is obtained by adding i to every point (∞ stays).  The
initial rounds were found by a computer search (tools/find_whist_bases.py) over the
difference conditions (each nonzero difference ±d once between partners, twice between
opponents) and are checked again by the tests.  Where no base round is
carried (the search found no cyclic design on Z_9, nor any for 28 or 29 within
a minute) the search below takes over.  For every prime n = 4k + 1
the initial round is built directly (:func:`_prime_base`).

Fewer rounds than a full design: the rounds of the design that add the fewest
repeated opponents are taken one by one (a subset of a design never repeats a
partner).  That subset is compared with the search's schedule, and the one
with fewer repeated opponents is used (the design on a tie).

The search
----------
Round by round: the byes go to the players with the fewest byes so far (so
nobody has a second before everybody has had one), the most constrained
(most partners used) first, then by the seeded draw; the other players are
seated at tables of four by a local search (swapping two players of two
tables) that never repeats a partner and minimises repeated opponents, a
pair that already met c times costing c.  Then each round in turn is
re-seated against all the others, and the best of a few such constructions
is polished by simulated annealing over the whole schedule (:func:`_anneal`),
which stops early at the lower bound.  A round that cannot be seated without
a repeated partner restarts the construction with the next draw.  Everything
is drawn from the event's seed: the same event, the same schedule.

Lower bound on repeated opponents
---------------------------------
See :func:`opponent_lower_bound`.
"""

from __future__ import annotations

import itertools
import math
import random
import textwrap
from collections import Counter
from typing import Any, Iterable, Sequence

import attrs

from tournament.errors import PairingError
from tournament.pairing.plan import Plan, history
from tournament.settings import PAIRS, ROTATING, Settings
from tournament.values import Player, SeatAssignment, Table

#: (a, b, c, d): a and c partners against b and d (the convention of ``swiss.Four``).
Four = tuple[int, int, int, int]
#: The fixed point of a 1-rotational design, in :data:`BASES`.
INFINITY = -1
#: A repeated partnership, against one repeated opponent, in the search's cost.
PARTNER_COST = 1000
#: Restarts of the search before a schedule is declared impossible to find.
ATTEMPTS = 8
#: Moves of the simulated annealing that polishes the search's schedule.
ANNEAL_STEPS = 25_000
#: How much one more repeated opponent weighs in the annealing, against one earlier meeting.
REPEAT_WEIGHT = 2
#: Passes re-seating every round against the others.
RESEAT_PASSES = 4

#: Initial rounds of whist tournaments: n = 4k + 1 cyclic on Z_n (0 sits out);
#: n = 4k 1-rotational on Z_(n-1) plus INFINITY.
BASES: dict[int, tuple[Four, ...]] = {
    5: ((1, 2, 4, 3),),
    8: ((0, 2, 5, 6), (1, 3, -1, 4)),
    12: ((0, 2, 9, 3), (1, 7, 6, 10), (4, -1, 8, 5)),
    13: ((1, 2, 10, 7), (3, 6, 4, 8), (5, 9, 11, 12)),
    16: ((0, 6, 7, 10), (1, -1, 3, 5), (2, 8, 12, 9), (4, 11, 13, 14)),
    17: ((1, 3, 9, 14), (2, 8, 16, 15), (4, 7, 5, 12), (6, 11, 10, 13)),
    20: ((0, 8, 5, 17), (1, -1, 2, 10), (3, 6, 7, 13), (4, 16, 12, 18), (9, 11, 15, 14)),
    21: ((1, 7, 13, 15), (2, 14, 3, 19), (4, 6, 18, 17), (5, 8, 11, 10), (9, 16, 12, 20)),
    24: ((0, 3, 11, 16), (1, 5, 21, 7), (2, 15, 9, 20), (4, 17, 19, 18), (6, -1, 12, 8), (10, 13, 14, 22)),
    25: ((1, 18, 8, 19), (2, 4, 13, 7), (3, 16, 20, 22), (5, 6, 10, 15), (9, 17, 24, 21), (11, 12, 23, 14)),
}


class ScheduleError(PairingError):
    """No balanced schedule of the rounds asked for exists (or none was found) for this field."""


@attrs.frozen
class ScheduledRound:
    """One round of a schedule: tables (a and c partners against b and d) and the players out."""

    tables: tuple[Four, ...]
    byes: tuple[int, ...]


# --- what is possible --------------------------------------------------------------------------


def max_rounds(n: int) -> int:
    """The most rounds ``n`` players can play at tables of four without a repeated partner.

    A round seats s = 4 * floor(n / 4) players in s / 2 partnerships, and the
    field has n(n - 1) / 2 possible partnerships, so R * s / 2 <= n(n - 1) / 2.
    For n = 4k that is n - 1 and for n = 4k + 1 it is n, both reached by whist
    tournaments.  For n = 4k + 2 and 4k + 3 it is an upper bound only: the
    search reaches it for 6, 10 and 11 players but falls one round short for
    7, 14, 15, 18 … players (it then says how far it got).  Past it, some two
    players would have to partner twice.
    """
    if n < 4:
        return 0
    seated = 4 * (n // 4)
    return n * (n - 1) // seated


def players_for(rounds: int) -> str:
    """The field sizes whose bound allows ``rounds`` rounds, in words: "at least 9", "7, or 9 or more".

    :func:`max_rounds` is not monotonic (7 players: 10 rounds; 8 players: 7), but it is at least
    n - 1 from 4 players on, so every field of ``rounds`` + 1 players or more will do."""
    sizes = [n for n in range(4, rounds + 2) if max_rounds(n) >= rounds]
    tail = sizes[-1]
    while tail - 1 in sizes:
        tail -= 1
    single = [str(n) for n in sizes if n < tail]
    return f"{', '.join(single)}, or {tail} or more" if single else f"at least {tail}"


def possible(n: int, rounds: int) -> str | None:
    """Why ``rounds`` rounds cannot be scheduled for ``n`` players, in one sentence; None if they can."""
    if n < 4:
        return f"a balanced schedule needs at least 4 players; there are {n}"
    top = max_rounds(n)
    if rounds > top:
        return (f"{n} players can play at most {top} rounds without anyone partnering anyone twice, "
                f"not {rounds}; {rounds} rounds need {players_for(rounds)} players")
    return None


def opponent_lower_bound(n: int, rounds: int) -> int:
    """A lower bound on the repeated opponents of any ``rounds``-round schedule for ``n`` players.

    Repeated opponents are counted as in :func:`opponent_repeats`: a pair that
    opposed c times counts c - 1.  A player who plays p rounds has 2p opponent
    places to fill and only n - 1 other players to fill them with, so at least
    2p - (n - 1) of those places repeat somebody; every repeat shows up in the
    count of both players, so the total is at least half the sum over the
    players.  Byes are as even as a schedule can make them (``rounds * (n mod
    4)`` byes in all; b = floor(that / n) or one more each), and a player with
    fewer byes plays more, so the bound takes the fairest spread.  It ignores
    that partners cannot also be opposed in the same round, and is not always
    reachable; it is 0 whenever 2 * rounds <= n - 1.
    """
    if n < 4 or rounds <= 0:
        return 0
    out = rounds * (n % 4)
    base, extra = divmod(out, n)
    total = 0
    for i in range(n):
        played = rounds - base - (1 if i < extra else 0)
        total += max(0, 2 * played - (n - 1))
    return (total + 1) // 2


def opponent_repeats(rounds: Iterable[ScheduledRound]) -> int:
    """Repeated opponents of a schedule: the sum over pairs of (times opposed - 1) where positive."""
    met = opponent_counts(rounds)
    return sum(c - 1 for c in met.values() if c > 1)


def opponent_counts(rounds: Iterable[ScheduledRound]) -> Counter:
    met: Counter = Counter()
    for r in rounds:
        for a, b, c, d in r.tables:
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                met[_pair(x, y)] += 1
    return met


def partner_counts(rounds: Iterable[ScheduledRound]) -> Counter:
    met: Counter = Counter()
    for r in rounds:
        for a, b, c, d in r.tables:
            met[_pair(a, c)] += 1
            met[_pair(b, d)] += 1
    return met


def _pair(x: int, y: int) -> tuple[int, int]:
    return (x, y) if x < y else (y, x)


# --- whist tournaments -------------------------------------------------------------------------


def whist_design(n: int) -> list[ScheduledRound] | None:
    """The whist tournament Wh(n) on the points 0 … n - 1 (∞ is n - 1), or None if none is carried."""
    base = BASES.get(n) or _prime_base(n)
    if base is None:
        return None
    m = n if n % 4 == 1 else n - 1
    rounds = []
    for i in range(m):
        def shift(x: int) -> int:
            return n - 1 if x == INFINITY else (x + i) % m
        tables = tuple(tuple(shift(x) for x in t) for t in base)
        byes = (i,) if n % 4 == 1 else ()
        rounds.append(ScheduledRound(tables, byes))  # type: ignore[arg-type]
    return rounds


def _prime_base(p: int) -> tuple[Four, ...] | None:
    """The initial round of a cyclic Wh(p) for a prime p = 4k + 1, from a primitive root w.

    With j = w^k (so j * j = -1), table i is (w^i, j w^i, -w^i, -j w^i) for
    i = 0 … k - 1: partners differ by 2 w^i and 2 j w^i, which over all i are
    every nonzero difference once, up to sign; opponents differ by (1 - j) w^i
    and (1 + j) w^i = j (1 - j) w^i, twice each, which over all i are every
    nonzero difference twice.  (A classical construction; the tests check it.)
    """
    if p < 5 or p % 4 != 1 or any(p % q == 0 for q in range(2, int(p ** 0.5) + 1)):
        return None
    k = (p - 1) // 4
    w = next(g for g in range(2, p) if all(pow(g, (p - 1) // q, p) != 1
                                           for q in range(2, p) if (p - 1) % q == 0
                                           and all(q % r for r in range(2, int(q ** 0.5) + 1))))
    return tuple(tuple(pow(w, i + e * k, p) for e in range(4)) for i in range(k))  # type: ignore[misc]


def _design_subset(design: list[ScheduledRound], rounds: int) -> list[ScheduledRound]:
    """``rounds`` rounds of a design, each chosen to add the fewest repeated opponents (earliest on a tie)."""
    chosen: list[ScheduledRound] = []
    met: Counter = Counter()
    left = list(design)
    while len(chosen) < rounds:
        def added(r: ScheduledRound) -> int:
            return sum(met[_pair(x, y)] for a, b, c, d in r.tables for x, y in ((a, b), (a, d), (c, b), (c, d)))
        best = min(left, key=added)
        left.remove(best)
        chosen.append(best)
        met.update(opponent_counts([best]))
    return chosen


# --- the search --------------------------------------------------------------------------------


@attrs.frozen
class Before:
    """What rounds already played constrain (a re-plan after a late entry or a withdrawal)."""

    partners: dict[int, set[int]] = attrs.field(factory=dict)
    opponents: dict[int, Counter] = attrs.field(factory=dict)
    byes: Counter = attrs.field(factory=Counter)


class _Counts:
    """Partners and opponents met, updated as rounds are added and taken away."""

    def __init__(self, before: Before) -> None:
        self.partner: Counter = Counter()
        self.opp: Counter = Counter()
        for a, ps in before.partners.items():
            for b in ps:
                if a < b:
                    self.partner[(a, b)] += 1
        for a, cs in before.opponents.items():
            for b, c in cs.items():
                if a < b:
                    self.opp[(a, b)] += c
        self.byes: Counter = Counter(before.byes)

    def apply(self, r: ScheduledRound, sign: int) -> None:
        for a, b, c, d in r.tables:
            self.partner[_pair(a, c)] += sign
            self.partner[_pair(b, d)] += sign
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                self.opp[_pair(x, y)] += sign
        for p in r.byes:
            self.byes[p] += sign

    def table(self, four: Sequence[int]) -> tuple[int, Four]:
        """The cheapest arrangement of four players and its cost."""
        w, x, y, z = four
        best: tuple[int, Four] | None = None
        for a, b, c, d in ((w, x, y, z), (w, y, x, z), (w, x, z, y)):
            cost = PARTNER_COST * (self.partner[_pair(a, c)] + self.partner[_pair(b, d)])
            cost += (self.opp[_pair(a, b)] + self.opp[_pair(a, d)] + self.opp[_pair(c, b)]
                     + self.opp[_pair(c, d)])
            if best is None or cost < best[0]:
                best = (cost, (a, b, c, d))
        assert best is not None
        return best


def _seat(players: list[int], counts: _Counts, rng: random.Random, start: list[list[int]] | None = None
          ) -> tuple[int, tuple[Four, ...]]:
    """Tables of four for ``players`` (a multiple of four): a local search over swaps between tables."""
    if start is None:
        order = list(players)
        rng.shuffle(order)
        groups = [order[i:i + 4] for i in range(0, len(order), 4)]
    else:
        groups = [list(g) for g in start]
    costs = [counts.table(g)[0] for g in groups]
    t = len(groups)
    for sweep in range(60):
        improved = False
        pairs = list(itertools.combinations(range(t), 2))
        rng.shuffle(pairs)
        for i, j in pairs:
            if costs[i] == 0 and costs[j] == 0:
                continue
            gi, gj = groups[i], groups[j]
            best = (costs[i] + costs[j], -1, -1, 0, 0)
            for x in range(4):
                for y in range(4):
                    gi[x], gj[y] = gj[y], gi[x]
                    ci, cj = counts.table(gi)[0], counts.table(gj)[0]
                    gi[x], gj[y] = gj[y], gi[x]
                    if ci + cj < best[0]:
                        best = (ci + cj, x, y, ci, cj)
            if best[1] >= 0:
                x, y = best[1], best[2]
                gi[x], gj[y] = gj[y], gi[x]
                costs[i], costs[j] = best[3], best[4]
                improved = True
        if not improved:
            if sum(costs) < PARTNER_COST or sweep > 30 or t < 2:
                break
            # Stuck with a repeated partner: shake the worst table up with a random other one.
            worst = max(range(t), key=costs.__getitem__)
            other = rng.choice([k for k in range(t) if k != worst])
            merged = groups[worst] + groups[other]
            rng.shuffle(merged)
            groups[worst], groups[other] = merged[:4], merged[4:]
            costs[worst], costs[other] = counts.table(groups[worst])[0], counts.table(groups[other])[0]
    tables = tuple(counts.table(g)[1] for g in groups)
    return sum(costs), tables


def _choose_byes(field: list[int], count: int, counts: _Counts, rng: random.Random) -> tuple[int, ...]:
    if count == 0:
        return ()
    used = Counter()
    for (a, b), c in counts.partner.items():
        if c:
            used[a] += 1
            used[b] += 1
    jitter = {p: rng.random() for p in field}
    ranked = sorted(field, key=lambda p: (counts.byes[p], -used[p], jitter[p]))
    return tuple(sorted(ranked[:count]))


def search(field: Sequence[int], rounds: int, seed: str, before: Before = Before()) -> list[ScheduledRound]:
    """A schedule of ``rounds`` rounds for ``field`` with no repeated partner (also against ``before``).

    Raises :class:`ScheduleError` when every attempt repeats a partner.
    """
    field = list(field)
    out = len(field) % 4
    best_reached = 0
    best: list[ScheduledRound] | None = None
    best_cost = 0
    for attempt in range(ATTEMPTS):
        rng = random.Random(f"{seed}:attempt:{attempt}")
        counts = _Counts(before)
        plan: list[ScheduledRound] = []
        for _ in range(rounds):
            byes = _choose_byes(field, out, counts, rng)
            playing = [p for p in field if p not in set(byes)]
            cost, tables = _seat(playing, counts, rng)
            if cost >= PARTNER_COST:
                break
            r = ScheduledRound(tables, byes)
            counts.apply(r, +1)
            plan.append(r)
        best_reached = max(best_reached, len(plan))
        if len(plan) < rounds:
            continue
        # Re-seat each round against all the others (byes kept), while that helps.
        for _ in range(RESEAT_PASSES):
            changed = False
            for i, r in enumerate(plan):
                counts.apply(r, -1)
                old = sum(counts.table(t)[0] for t in r.tables)
                cost, tables = _seat([p for t in r.tables for p in t], counts, rng,
                                     start=[list(t) for t in r.tables])
                if cost < old:
                    r = ScheduledRound(tables, r.byes)
                    plan[i] = r
                    changed = True
                counts.apply(r, +1)
            if not changed:
                break
        cost = _total(counts, before)
        if best is None or cost < best_cost:
            best, best_cost = plan, cost
        if cost == 0:
            break
    if best is not None:
        return _anneal(best, before, len(field), rng=random.Random(f"{seed}:anneal"))
    raise ScheduleError(f"no schedule of {rounds} rounds without a repeated partner was found for "
                        f"{len(field)} players (the search reached {best_reached} rounds)")


def _anneal(plan: list[ScheduledRound], before: Before, n: int, rng: random.Random) -> list[ScheduledRound]:
    """Simulated annealing over the whole schedule: swap two players of two tables of one round.

    A move is judged by the repeated opponents it adds or removes (a pair met c times
    counts c - 1), weighted :data:`REPEAT_WEIGHT`, plus the times those opponents had
    already met (so that a pair meeting a third time weighs more than two pairs meeting
    a second time), plus PARTNER_COST a repeated partnership, so a swap that would
    repeat a partner is all but never kept.  The schedule with the fewest repeated
    opponents seen is returned (never worse than the one given); the search stops early
    at the lower bound.  Deterministic: the moves are drawn from the seeded ``rng``.
    """
    counts = _Counts(before)
    for r in plan:
        counts.apply(r, +1)

    def cost(four: Sequence[int]) -> tuple[int, int, Four]:
        w, x, y, z = four
        best: tuple[int, int, Four] | None = None
        for a, b, c, d in ((w, x, y, z), (w, y, x, z), (w, x, z, y)):
            partner = counts.partner[_pair(a, c)] + counts.partner[_pair(b, d)]
            met = [counts.opp[_pair(a, b)], counts.opp[_pair(a, d)], counts.opp[_pair(c, b)],
                   counts.opp[_pair(c, d)]]
            repeats = sum(1 for m in met if m)
            judged = PARTNER_COST * partner + REPEAT_WEIGHT * repeats + sum(met)
            if best is None or judged < best[0]:
                best = (judged, PARTNER_COST * partner + repeats, (a, b, c, d))
        assert best is not None
        return best

    floor = opponent_lower_bound(n, len(plan)) if not before.partners else 0
    current = sum(c - 1 for c in counts.opp.values() if c > 1)
    best, best_repeats = list(plan), current
    rounds = [[list(t) for t in r.tables] for r in plan]
    movable = [i for i, r in enumerate(rounds) if len(r) > 1]
    if not movable or best_repeats <= floor:
        return best
    steps = ANNEAL_STEPS
    for step in range(steps):
        temperature = 0.6 * (1 - step / steps) + 0.1
        r = movable[rng.randrange(len(movable))]
        tables = rounds[r]
        i, j = rng.sample(range(len(tables)), 2)
        gi, gj = tables[i], tables[j]
        _apply_table(counts, gi, -1)
        _apply_table(counts, gj, -1)
        oi, oj = cost(gi), cost(gj)
        x, y = rng.randrange(4), rng.randrange(4)
        gi[x], gj[y] = gj[y], gi[x]
        ni, nj = cost(gi), cost(gj)
        delta = ni[0] + nj[0] - oi[0] - oj[0]
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            tables[i], tables[j] = list(ni[2]), list(nj[2])
            current += ni[1] + nj[1] - oi[1] - oj[1]
        else:
            gi[x], gj[y] = gj[y], gi[x]
            tables[i], tables[j] = list(oi[2]), list(oj[2])
        _apply_table(counts, tables[i], +1)
        _apply_table(counts, tables[j], +1)
        if current < best_repeats:
            best_repeats = current
            best = [ScheduledRound(tuple(tuple(t) for t in rt), plan[k].byes)  # type: ignore[misc]
                    for k, rt in enumerate(rounds)]
            if best_repeats <= floor:
                break
    return best


def _apply_table(counts: _Counts, t: Sequence[int], sign: int) -> None:
    a, b, c, d = t
    counts.partner[_pair(a, c)] += sign
    counts.partner[_pair(b, d)] += sign
    for x, y in ((a, b), (a, d), (c, b), (c, d)):
        counts.opp[_pair(x, y)] += sign


def _total(counts: _Counts, before: Before) -> int:
    """Repeated opponents of the whole event so far: what a re-plan minimises too."""
    return sum(c - 1 for c in counts.opp.values() if c > 1)


def plan(field: Sequence[int], rounds: int, seed: str, before: Before = Before()) -> list[ScheduledRound]:
    """The balanced schedule of ``rounds`` rounds for the players ``field`` (their ids).

    With nothing played before, a whist tournament is used when one is carried
    for the field's size and its rounds repeat no more opponents than the
    search's; otherwise the search's schedule.  Players are put on the
    design's points in an order drawn from ``seed``.  Raises
    :class:`ScheduleError` (one line, saying what is possible) when it cannot
    be done.
    """
    key = (tuple(field), rounds, seed, _frozen(before))
    if key not in _PLANS:
        if len(_PLANS) > 64:
            _PLANS.clear()
        _PLANS[key] = _plan(field, rounds, seed, before)
    return list(_PLANS[key])


#: Plans already made in this process (every ``pair`` of an event asks for the same one again).
_PLANS: dict[tuple, list[ScheduledRound]] = {}


def _frozen(before: Before) -> tuple:
    return (tuple(sorted((a, tuple(sorted(ps))) for a, ps in before.partners.items())),
            tuple(sorted((a, tuple(sorted(cs.items()))) for a, cs in before.opponents.items())),
            tuple(sorted(before.byes.items())))


def _plan(field: Sequence[int], rounds: int, seed: str, before: Before) -> list[ScheduledRound]:
    n = len(field)
    why = possible(n, rounds)
    if why is not None:
        raise ScheduleError(why)
    rng = random.Random(f"{seed}:draw")
    order = sorted(field)
    rng.shuffle(order)
    fresh = not before.partners and not before.byes
    design = whist_design(n) if fresh else None
    candidate = None
    if design is not None:
        chosen = _design_subset(design, rounds)
        candidate = [ScheduledRound(tuple(tuple(order[x] for x in t) for t in r.tables),  # type: ignore[misc]
                                    tuple(sorted(order[x] for x in r.byes))) for r in chosen]
        if opponent_repeats(candidate) == 0:
            return candidate
    try:
        found = search(order, rounds, seed, before)
    except ScheduleError:
        if candidate is not None:
            return candidate
        raise
    if candidate is not None and opponent_repeats(candidate) <= opponent_repeats(found):
        return candidate
    return found


# --- an event's rounds ---------------------------------------------------------------------------


def pair_balanced(settings: Settings, round_no: int, players: Sequence[Player], tables: Sequence[Table],
                  byes: dict[int, list[int]]) -> Plan:
    """Round ``round_no`` of a balanced event, from its schedule.

    Nothing about the schedule is stored: it is a function of the players (who
    is entered and withdrawn from which round), the rounds already played and
    the seed, recomputed the same every time.  The schedule in force is the one
    planned at the last round whose field differs from the round before (round 1
    when nobody entered late or withdrew): a late entry or a withdrawal re-plans
    the remaining rounds for the new field, keeping every partnership already
    played out of them.  Should the rounds played since differ from that plan
    (an event file of another version of this planner), the re-plan starts at
    this round.
    """
    if round_no > settings.rounds:
        raise PairingError(f"the balanced schedule of this event has {settings.rounds} rounds, all paired")

    def field(r: int) -> tuple[int, ...]:
        return tuple(sorted(p.id for p in players if p.active_in(r)))

    start = 1
    for r in range(round_no, 1, -1):
        if field(r) != field(r - 1):
            start = r
            break
    planned = _plan_from(settings, start, field(start), players, tables, byes)
    if start < round_no and any(_shape(planned[r - start]) != _stored_shape(tables, byes, r)
                                for r in range(start, round_no)):
        start = round_no
        planned = _plan_from(settings, start, field(start), players, tables, byes)
    hist = history(settings, players, [t for t in tables if t.round < start],
                           {r: b for r, b in byes.items() if r < start})
    balance = Counter(hist.ns_balance)
    for r in range(start, round_no + 1):
        seated = []
        for a, b, c, d in planned[r - start].tables:
            if balance[a] + balance[c] > balance[b] + balance[d]:
                a, b, c, d = b, a, d, c  # the side that has sat N-S more often sits E-W
            seated.append((SeatAssignment("N", "NS", a), SeatAssignment("E", "EW", b),
                           SeatAssignment("S", "NS", c), SeatAssignment("W", "EW", d)))
            for p in (a, c):
                balance[p] += 1
            for p in (b, d):
                balance[p] -= 1
    return Plan(round_no, tuple(seated), tuple(sorted(planned[round_no - start].byes)))


def _plan_from(settings: Settings, start: int, field: Sequence[int], players: Sequence[Player],
               tables: Sequence[Table], byes: dict[int, list[int]]) -> list[ScheduledRound]:
    hist = history(settings, players, [t for t in tables if t.round < start],
                           {r: b for r, b in byes.items() if r < start})
    before = Before(hist.partners, hist.opponents, hist.byes)
    left = settings.rounds - start + 1
    try:
        return plan(field, left, f"tournament:{settings.seed}:balanced:{start}", before)
    except ScheduleError as e:
        if start == 1:
            raise
        raise ScheduleError(f"the field changed before round {start} (late entries or withdrawals), and "
                            f"the {left} rounds left cannot be re-planned for it: {e}") from None


def _shape(r: ScheduledRound) -> tuple[frozenset, frozenset]:
    tables = frozenset(frozenset((frozenset((a, c)), frozenset((b, d)))) for a, b, c, d in r.tables)
    return tables, frozenset(r.byes)


def _stored_shape(tables: Sequence[Table], byes: dict[int, list[int]], round_no: int) -> tuple[frozenset, frozenset]:
    out = set()
    for t in tables:
        if t.round != round_no:
            continue
        side: dict[str, list[int]] = {}
        for s in t.seats:
            side.setdefault(s.side, []).append(s.player)
        out.add(frozenset(frozenset(m) for m in side.values()))
    return frozenset(out), frozenset(byes.get(round_no, ()))


# --- who partnered and opposed whom --------------------------------------------------------------


@attrs.frozen
class Meetings:
    """Who partnered and who opposed whom, how often, over the rounds paired so far."""

    event: str
    rounds: int
    players: tuple[Player, ...]  # everyone who sat at a table, by number
    partners: dict[tuple[int, int], int]
    opponents: dict[tuple[int, int], int]
    #: :func:`opponent_lower_bound` for this many players and rounds; None unless tables of four.
    lower_bound: int | None = None
    #: A pairs event's partnerships, fixed for the event: (pair number, its name, its players).
    #: Partners then play together every round by design, which is no repeat to warn about.
    teams: tuple[tuple[int, str, tuple[int, ...]], ...] = ()

    @property
    def partner_repeats(self) -> int:
        return sum(c - 1 for c in self.partners.values() if c > 1)

    @property
    def opponent_repeats(self) -> int:
        return sum(c - 1 for c in self.opponents.values() if c > 1)

    def to_dict(self) -> dict[str, Any]:
        def rows(counts: dict[tuple[int, int], int]) -> list[dict[str, int]]:
            return [{"a": a, "b": b, "times": c} for (a, b), c in sorted(counts.items())]
        return {"event": self.event, "rounds": self.rounds,
                "players": [{"id": p.id, "name": p.name} for p in self.players],
                "partners": rows(self.partners), "opponents": rows(self.opponents),
                "partner_repeats": self.partner_repeats, "opponent_repeats": self.opponent_repeats,
                "opponent_lower_bound": self.lower_bound,
                **({"fixed_partners": True,
                    "pairs": [{"id": t, "name": label, "players": list(m)} for t, label, m in self.teams],
                    "pair_meetings": [{"a": a, "b": b, "times": c} for (a, b), c in sorted(self.pair_meetings().items())]}
                   if self.teams else {})}

    def pair_meetings(self) -> dict[tuple[int, int], int]:
        """A pairs event: how often each two pairs met (a table of two pairs is one meeting)."""
        team_of = {p: t for t, _, members in self.teams for p in members}
        out: Counter = Counter()
        for (a, b), c in self.opponents.items():
            ta, tb = team_of.get(a), team_of.get(b)
            if ta is not None and tb is not None and ta != tb:
                out[(min(ta, tb), max(ta, tb))] += c
        # Each meeting of two pairs is counted once a player of one against a player of the other: 4.
        return {k: c // 4 for k, c in out.items()}

    def _pairs_text(self, width: int) -> str:
        """A pairs event: the partnerships are fixed (said once, never as repeats), and who met
        whom is told pair by pair."""
        plural = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"  # noqa: E731
        met = self.pair_meetings()
        repeats = sum(c - 1 for c in met.values() if c > 1)
        # One numbering: a pair by its own number (as added, as the standings show it), its
        # players by name.
        name = {t: f"#{t} {label}" for t, label, _ in self.teams}
        summary = [f"{self.event} — pairs and their opponents over {plural(self.rounds, 'round')}, "
                   f"{plural(len(self.teams), 'pair')}",
                   "partners: fixed for the event (a pairs event), as entered",
                   f"opponents: {plural(len(met), 'meeting')} of two pairs, "
                   + (f"{plural(repeats, 'repeat')} (two pairs that met c times count c-1)" if repeats
                      else "no two pairs met twice")]
        lines = [w for line in summary for w in textwrap.wrap(line, width, subsequent_indent="  ")]
        players = {p.id: p for p in self.players}
        for t, label, members in self.teams:
            lines.append("")
            who = [players[m].name for m in members if m in players]
            head = name[t] + ("" if label == " & ".join(who) else f" ({', '.join(who)})")
            lines.extend(textwrap.wrap(head, width, subsequent_indent="  ", break_long_words=False))
            against = sorted(((b if a == t else a), c) for (a, b), c in met.items() if t in (a, b))
            items = [name[q] + (f" ×{c}" if c > 1 else "") for q, c in against] or ["none"]
            lines.extend(textwrap.wrap(", ".join(items), width, initial_indent="  opponents: ",
                                       subsequent_indent=" " * 13, break_long_words=False, break_on_hyphens=False))
        return "\n".join(lines)

    def text(self, width: int = 80) -> str:
        """Per player: partners and opponents, each with ×N when more than once; a summary first.
        A pairs event's is told pair by pair (:meth:`_pairs_text`)."""
        if self.teams:
            return self._pairs_text(width)
        name = {p.id: f"#{p.id} {p.name}" for p in self.players}
        plural = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"  # noqa: E731
        summary = [f"{self.event} — partners and opponents over {plural(self.rounds, 'round')}, "
                   f"{plural(len(self.players), 'player')}",
                   f"partners: {plural(len(self.partners), 'partnership')}, "
                   + (f"{self.partner_repeats} repeated" if self.partner_repeats else "none repeated"),
                   f"opponents: {plural(len(self.opponents), 'pair')} of players met, "
                   f"{plural(self.opponent_repeats, 'repeat')} (a pair that met c times counts c-1"
                   + (f"; no schedule of {plural(self.rounds, 'round')} for {plural(len(self.players), 'player')} "
                      f"has fewer than {self.lower_bound})" if self.lower_bound is not None else ")")]
        lines = [w for line in summary for w in textwrap.wrap(line, width, subsequent_indent="  ")]
        for p in self.players:
            lines.append("")
            lines.append(name[p.id])
            for label, counts in (("partners: ", self.partners), ("opponents:", self.opponents)):
                met = sorted(((b if a == p.id else a), c) for (a, b), c in counts.items() if p.id in (a, b))
                items = [name[q] + (f" ×{c}" if c > 1 else "") for q, c in met] or ["none"]
                lines.extend(textwrap.wrap(", ".join(items), width, initial_indent=f"  {label} ",
                                           subsequent_indent=" " * 13, break_long_words=False,
                                           break_on_hyphens=False))
        return "\n".join(lines)


def meetings(settings: Settings, players: Sequence[Player], tables: Sequence[Table],
             byes: dict[int, list[int]] | None = None, teams: Sequence[Any] = ()) -> Meetings:
    """Count every partnership (two players on one side of a table) and every pair of opponents.

    The players are everyone who sat at a table or had a bye; the rounds, every round paired."""
    partners: Counter = Counter()
    opponents: Counter = Counter()
    seated: set[int] = set()
    for t in tables:
        side: dict[str, list[int]] = {}
        for s in t.seats:
            side.setdefault(s.side, []).append(s.player)
            seated.add(s.player)
        for members in side.values():
            for a, b in itertools.combinations(members, 2):
                partners[_pair(a, b)] += 1
        for (_, xs), (_, ys) in itertools.combinations(side.items(), 2):
            for a in xs:
                for b in ys:
                    opponents[_pair(a, b)] += 1
    byes = byes or {}
    seated.update(p for given in byes.values() for p in given)
    rounds = len({t.round for t in tables} | {r for r, given in byes.items() if given})
    bound = opponent_lower_bound(len(seated), rounds) if settings.format == ROTATING else None
    fixed = tuple((t.id, t.name, tuple(t.players)) for t in teams) if settings.format == PAIRS else ()
    return Meetings(settings.name, rounds, tuple(p for p in sorted(players, key=lambda p: p.id) if p.id in seated),
                    dict(partners), dict(opponents), bound, fixed)
