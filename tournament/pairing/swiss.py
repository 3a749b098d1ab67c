"""Pairing a round: who sits at which numbered table, in which seat, and who has a bye.

Plain functions over values (no database): :func:`pair_round` takes the
event's settings, its players (and pairs), every earlier table and bye and
the current standings, and returns a :class:`Plan`.  The store writes the
plan in one transaction.

Formats
-------
* **pairs** — fixed partnerships.  Round 1 is drawn at random from the
  event's seed; later rounds are Swiss: pairs in standings order, each paired
  with the nearest pair below it that it has not met (backtracking when the
  bottom of the list would be left with a rematch).  *Hard*: no two pairs meet
  twice.  *Soft*: each pair sits N-S and E-W as evenly as possible.
* **rotating** — individuals in a partnership game.  Tables of four in
  standings order; at each table the 1st and 3rd ranked play the 2nd and 4th.
  *Hard*: never the same partner twice.  *Soft*: repeated opponents as rare as
  possible, then tables of players close in the standings, then the 1-3/2-4
  arrangement.  A greedy pass fills tables from the top, choosing each table
  among the next few players; the last tables are searched exhaustively, and
  when the greedy pass leaves an impossible tail, earlier tables are reopened.
* **individual** — tables of the event's table size, in standings order,
  repeated opponents as rare as possible (soft), then closeness in standings.
  Every player is seated: when the field is not a multiple of the table size,
  some tables are smaller, as the game allows (23 at tables of six: 6, 6, 6,
  5; tournament/pairing/seating.py); byes only when no such split exists.

A rotating event with ``--schedule balanced`` is seated from a schedule fixed in advance
instead (tournament/pairing/schedule.py), whatever the standings.

Byes go to the players (pairs) with the fewest byes so far, lowest ranked
first: nobody gets a second bye before every active player has had one.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Callable, Iterable, Sequence

import attrs

from tournament.errors import PairingError
from tournament.pairing.constraints import Constraints, place_pins, refuse_violations, with_apart
from tournament.pairing.plan import History, Plan, history
from tournament.pairing.schedule import pair_balanced
from tournament.pairing import seeding as seeding_rules
from tournament.pairing.seating import table_sizes
from tournament.pairing.standings import Standings
from tournament.settings import BALANCED, PAIRS, ROTATING, Settings
from tournament.values import Player, SeatAssignment, Table, Team

#: Cost of one repeated opponent, against one place of distance in the standings.
REPEAT_COST = 8
#: How many players below the top unseated one the greedy pass considers for a table.
WINDOW = 9
#: Players left over that are seated by exhaustive search instead of greedily.
TAIL = 12
#: Search limits (nodes); far above what a real event needs.
SWISS_BUDGET = 2_000_000
EXHAUSTIVE_BUDGET = 300_000


def ranked_units(settings: Settings, units: Sequence[int], standings: Standings | None, round_no: int,
                 rng: random.Random, seeding: Sequence[int] | None = None) -> list[int]:
    """Units best first.  Round 1 (or an event without standings) is a random draw from the seed,
    or the seeded order (``seeding``: round 1's, by rating; units entered later come last); units
    level on every tie-break are put in random order, so the draw stays fair.  In an accelerated
    round, group A's virtual points are added to its score (games won, or placement points) and
    the units are ordered by that score first (:mod:`tournament.pairing.seeding`)."""
    jitter = {u: rng.random() for u in units}
    if round_no == 1 or standings is None:
        order = list(units)
        rng.shuffle(order)
        if seeding is not None:
            at = {u: i for i, u in enumerate(seeding)}
            order.sort(key=lambda u: at.get(u, len(at)))  # stable: the unseeded keep the draw's order
        return order
    rank = {s.unit: s.rank for s in standings.rows}
    virtual = seeding_rules.virtual_points(settings, round_no)
    if virtual and seeding is not None:
        group = seeding_rules.group_a(seeding, seeding_rules.units_a_table(settings))
        score = {s.unit: (s.wins if settings.partnership else s.placement) for s in standings.rows}
        return sorted(units, key=lambda u: (-(score.get(u, 0.0) + (virtual if u in group else 0.0)),
                                            rank.get(u, len(rank) + 1), jitter[u]))
    return sorted(units, key=lambda u: (rank.get(u, len(rank) + 1), jitter[u]))


def _round_one(settings: Settings, round_no: int, rest: list[int], seeding: Sequence[int] | None) -> list[int]:
    """A seeded round 1's units (byes taken out) in the order the pairing seats them: one of each
    slice of the field at a table, within group A and the rest apart when accelerated."""
    if round_no != 1 or seeding is None:
        return rest
    per_table = seeding_rules.units_a_table(settings)
    group = seeding_rules.group_a(seeding, per_table) if settings.accelerated else None
    return seeding_rules.arrange_round_one(rest, per_table, group)


def bye_choices(order: Sequence[int], count: int, byes: Counter, limit: int = 30) -> Iterable[tuple[int, ...]]:
    """Fair bye sets, best first: everyone below the last bye level must get one; at that level the
    lowest ranked are preferred; alternatives at that level follow (used only if a hard constraint
    cannot be kept with the first choice)."""
    if count == 0:
        yield ()
        return
    position = {u: i for i, u in enumerate(order)}
    levels = sorted(set(byes[u] for u in order))
    forced: list[int] = []
    for level in levels:
        group = sorted((u for u in order if byes[u] == level), key=lambda u: -position[u])
        if len(forced) + len(group) <= count:
            forced.extend(group)
            if len(forced) == count:
                yield tuple(forced)
                return
            continue
        need = count - len(forced)
        for n, combo in enumerate(itertools.combinations(group, need)):
            if n >= limit:
                return
            yield tuple(forced) + combo
        return


def pair_round(settings: Settings, round_no: int, players: Sequence[Player], teams: Sequence[Team],
               tables: Sequence[Table], byes: dict[int, list[int]], standings: Standings | None,
               constraints: Constraints | None = None, seeding: Sequence[int] | None = None) -> Plan:
    """Pair round ``round_no``, honouring the director's ``constraints`` (pins, keep-apart, sitting
    out: :mod:`tournament.pairing.constraints`).  ``seeding``: the units in round 1's seeded order
    (pairs in a pairs event, players otherwise), which orders round 1 and, in an accelerated
    event, names group A (:mod:`tournament.pairing.seeding`); None: a random round 1.  Raises
    :class:`PairingError` if it cannot be done."""
    wish = constraints or Constraints()
    if settings.schedule == BALANCED:
        return place_pins(pair_balanced(settings, round_no, players, tables, byes), wish)
    if wish.sitting_out:  # they are not paired, and have a bye: as if not active this round
        out = wish.sitting_out
        if settings.format == PAIRS:
            out = frozenset(m for t in teams if set(t.players) & out for m in t.players)
        players = [attrs.evolve(p, withdrawn=round_no) if p.id in out and p.active_in(round_no) else p
                   for p in players]
        teams = [attrs.evolve(t, withdrawn=round_no) if set(t.players) & out and t.active_in(round_no) else t
                 for t in teams]
        plan = pair_round(settings, round_no, players, teams, tables, byes, standings,
                          attrs.evolve(wish, sitting_out=frozenset()), seeding)
        return Plan(plan.round, plan.tables, tuple(sorted({*plan.byes, *out})))
    # Two players pinned to different tables must not be seated together: kept apart too.
    split = tuple((a, b) for (a, ta), (b, tb) in itertools.combinations(wish.pins, 2) if ta != tb)
    plan = _pair_round(settings, round_no, players, teams, tables, byes, standings,
                       attrs.evolve(wish, apart=wish.apart + split) if split else wish, seeding)
    refuse_violations(plan, wish)
    return place_pins(plan, wish)


def _pair_round(settings: Settings, round_no: int, players: Sequence[Player], teams: Sequence[Team],
                tables: Sequence[Table], byes: dict[int, list[int]], standings: Standings | None,
                wish: Constraints, seeding: Sequence[int] | None = None) -> Plan:
    rng = random.Random(f"tournament:{settings.seed}:round:{round_no}")
    hist = history(settings, players, tables, byes)
    team_of = {p.id: p.team for p in players}
    hist = with_apart(hist, wish.apart, (lambda p: team_of[p]) if settings.format == PAIRS else (lambda p: p),
                      settings.format == ROTATING)
    if settings.format == PAIRS:
        return _pair_pairs(settings, round_no, teams, hist, standings, rng, seeding)
    active = [p.id for p in players if p.active_in(round_no)]
    order = ranked_units(settings, active, standings, round_no, rng, seeding)
    size = settings.table_size
    # Individual tables: every player seated, at tables of the sizes the game allows (23 at tables
    # of six: 6, 6, 6, 5); byes, as before, only when no such split exists.
    sizes = table_sizes(len(order), settings.table_counts()) if settings.format != ROTATING else None
    if sizes is None and len(order) < size:
        raise PairingError(f"round {round_no} needs at least {size} active players; there are {len(order)}")
    count = 0 if sizes is not None else len(order) % size
    failures = 0
    for bye_set in bye_choices(order, count, hist.byes):
        rest = _round_one(settings, round_no, [u for u in order if u not in set(bye_set)], seeding)
        if settings.format == ROTATING:
            fours = seat_rotating(rest, hist.partners, hist.opponents)
            if fours is None:
                failures += 1
                continue
            seated = [_rotating_seats(t, hist.ns_balance) for t in fours]
        else:
            groups = seat_individual(rest, sizes or size, hist.opponents)
            seated = []
            for g in groups:
                shuffled = list(g)
                rng.shuffle(shuffled)
                seats = settings.seats_for(len(g))
                seated.append(tuple(SeatAssignment(seat, seat, p) for seat, p in zip(seats, shuffled)))
        return Plan(round_no, tuple(seated), tuple(sorted(bye_set)))
    raise PairingError(f"round {round_no} cannot be seated so that every player has a new partner "
                       f"({len(order)} players; tried {failures} fair choices of byes)")


# --- pairs: Swiss ----------------------------------------------------------------------------


def _pair_pairs(settings: Settings, round_no: int, teams: Sequence[Team], hist: History,
                standings: Standings | None, rng: random.Random, seeding: Sequence[int] | None = None) -> Plan:
    active = [t for t in teams if t.active_in(round_no)]
    by_id = {t.id: t for t in active}
    order = ranked_units(settings, list(by_id), standings, round_no, rng, seeding)
    if len(order) < 2:
        raise PairingError(f"round {round_no} needs at least two active pairs; there are {len(order)}")
    found = swiss_round(order, hist.opponents, hist.byes, lambda units: _round_one(settings, round_no, units, seeding))
    if found is None:
        raise PairingError(f"round {round_no} cannot be paired without two pairs meeting again "
                           f"({len(order)} pairs)")
    bye_set, matches = found
    seated = []
    for a, b in matches:
        # Soft: the pair that has sat N-S more often sits E-W (the higher ranked sits N-S on a tie).
        if hist.ns_balance.get(b, 0) < hist.ns_balance.get(a, 0):
            a, b = b, a
        na, sa = by_id[a].players
        eb, wb = by_id[b].players
        seated.append((SeatAssignment("N", "NS", na), SeatAssignment("E", "EW", eb),
                       SeatAssignment("S", "NS", sa), SeatAssignment("W", "EW", wb)))
    byes = tuple(sorted(p for u in bye_set for p in by_id[u].players))
    return Plan(round_no, tuple(seated), byes)


def swiss_round(order: Sequence[int], met: dict[int, Counter], byes: Counter,
                arrange: Callable[[list[int]], Sequence[int]] = list,
                ) -> tuple[tuple[int, ...], Matches] | None:
    """The round's fair bye set and the Swiss pairing of the rest (in the order ``arrange`` gives
    them: round 1's own): first the first that leaves the next rounds pairable
    (:func:`looking_ahead`), else the first there is (a small field that cannot be completed any
    other way meets the rule it breaks at the round that breaks it); None if there is none."""
    budget = [LOOKAHEAD_STEPS]  # (one for the round: every choice of bye)
    for ahead in (True, False) if len(order) <= LOOKAHEAD_UNITS else (False,):
        for bye_set in bye_choices(order, len(order) % 2, byes):
            rest = arrange([u for u in order if u not in bye_set])
            matches = swiss(rest, met, looking_ahead(order, met, byes, bye_set, budget) if ahead else None)
            if matches is not None:
                return tuple(bye_set), matches
    return None


#: A field of at most this many units (pairs, teams) is paired looking ahead (:func:`looking_ahead`):
#: in a small field a Swiss round can leave the next one with no pairing in which no two meet again
#: (six pairs, five rounds: round 4 could not be paired in three seeds of eight).  A larger field has
#: many more opponents left than rounds to play.
LOOKAHEAD_UNITS = 16
#: How many rounds after the one being paired must still be pairable, and how many steps of the
#: search (a pairing tried, a step back) the look-ahead may take in all before it gives up and
#: pairs as without it: the last rounds of a field that plays everyone leave no pairing that
#: passes, and the search stops there in a fraction of a second.
LOOKAHEAD_ROUNDS = 2
LOOKAHEAD_STEPS = 100_000

Matches = list[tuple[int, int]]


def looking_ahead(units: Sequence[int], met: dict[int, Counter], byes: Counter, bye_set: Sequence[int],
                  budget: list[int] | None = None) -> Callable[[Matches], bool] | None:
    """For :func:`swiss`'s ``accept``: whether, after this round's ``bye_set`` and a pairing of the
    rest, the next :data:`LOOKAHEAD_ROUNDS` rounds can still be paired with fair byes and no two
    meeting again; None for a field larger than :data:`LOOKAHEAD_UNITS`.  Within a budget of
    :data:`LOOKAHEAD_STEPS` for all its searches (``budget``: one shared with other calls, as
    :func:`swiss_round` shares one among its choices of bye): past it every pairing is accepted,
    as without it."""
    if len(units) > LOOKAHEAD_UNITS:
        return None
    budget = [LOOKAHEAD_STEPS] if budget is None else budget

    def pairable(met_now: dict[int, Counter], byes_now: Counter, depth: int) -> bool:
        if depth == 0:
            return True
        for choice in bye_choices(units, len(units) % 2, byes_now):
            accept = _then(met_now, byes_now + Counter(choice), depth - 1)
            if swiss([u for u in units if u not in choice], met_now, accept, budget) is not None:
                return True
        return False

    def _then(met_now: dict[int, Counter], byes_now: Counter, depth: int) -> Callable[[Matches], bool]:
        def accept(matches: Matches) -> bool:
            budget[0] -= 1
            # The budget spent (before or while looking): whether the rounds after can be paired
            # is not known, and the pairing is accepted, as without looking ahead.
            if budget[0] < 0:
                return True
            return pairable(_with(met_now, matches), byes_now, depth) or budget[0] < 0
        return accept

    return _then(met, byes + Counter(bye_set), LOOKAHEAD_ROUNDS)


def _with(met: dict[int, Counter], matches: Matches) -> dict[int, Counter]:
    """``met`` with one more round's ``matches`` played (a copy)."""
    out = dict(met)
    for a, b in matches:
        out[a] = out.get(a, Counter()) + Counter({b: 1})
        out[b] = out.get(b, Counter()) + Counter({a: 1})
    return out


def swiss(order: Sequence[int], met: dict[int, Counter], accept: Callable[[Matches], bool] | None = None,
          budget: list[int] | None = None) -> Matches | None:
    """Pairs in order, each with the nearest unpaired one below it it has not met; depth-first with
    backtracking (iterative, so a field of thousands does not hit Python's recursion limit).  With
    ``accept``, the first such pairing it accepts (the search goes on past those it refuses).
    ``budget``: steps back shared with other searches (:func:`looking_ahead`'s), None when spent."""
    n = len(order)
    if n % 2:
        return None
    used = [False] * n
    empty: Counter = Counter()
    met_sets = [met.get(u, empty) for u in order]

    def candidate(a: int, start: int) -> int | None:
        seen = met_sets[a]
        for j in range(max(start, a + 1), n):
            if not used[j] and order[j] not in seen:
                return j
        return None

    stack: list[tuple[int, int]] = []
    a = 0
    steps = 0
    while True:
        while a < n and used[a]:
            a += 1
        if a == n:
            found = [(order[x], order[y]) for x, y in stack]
            if accept is None or accept(found):
                return found
            j = None  # refused: on to the next pairing
        else:
            j = candidate(a, a + 1)
        if j is not None:
            used[a] = used[j] = True
            stack.append((a, j))
            continue
        # Backtrack: move the latest pairing to its next candidate.
        while True:
            steps += 1
            if budget is not None:
                budget[0] -= 1
                if budget[0] < 0:
                    return None
            if not stack or steps > SWISS_BUDGET:
                return None
            pa, pj = stack.pop()
            used[pj] = False
            nj = candidate(pa, pj + 1)
            if nj is not None:
                used[nj] = True
                stack.append((pa, nj))
                a = pa + 1
                break
            used[pa] = False
            a = pa


# --- rotating partners ---------------------------------------------------------------------------

Four = tuple[int, int, int, int]  # (a, b, c, d): a and c partners against b and d


def seat_rotating(order: Sequence[int], partners: dict[int, set[int]],
                  opponents: dict[int, Counter]) -> list[Four] | None:
    """Tables of four from ``order`` (best first) with no repeated partnership, or None if none exists
    (within the search limits)."""
    if len(order) % 4:
        raise ValueError("seat_rotating needs a multiple of four players")
    pos = {p: i for i, p in enumerate(order)}
    no_partners: set[int] = set()
    empty: dict[int, int] = {}

    def best_four(members: Sequence[int]) -> tuple[int, Four] | None:
        """The cheapest legal arrangement of four given players, given in standings order (both
        callers take them in that order): :func:`arrange` of their partners and opponents."""
        w, x, y, z = members
        return arrange(w, x, y, z, partners.get(w, no_partners), partners.get(x, no_partners),
                       partners.get(y, no_partners), opponents.get(w, empty), opponents.get(x, empty),
                       opponents.get(y, empty), opponents.get(z, empty))

    def arrange(w: int, x: int, y: int, z: int, pw: set[int], px: set[int], py: set[int], ow: dict[int, int],
                ox: dict[int, int], oy: dict[int, int], oz: dict[int, int]) -> tuple[int, Four] | None:
        """The cheapest legal arrangement of ``w``, ``x``, ``y``, ``z`` (in standings order, with
        their partners ``p*`` and opponents ``o*`` so far), the first found on a tie.  An
        arrangement's cost: its repeated opponents (``REPEAT_COST`` each), the spread of the four
        places beyond four in a row, and 1 unless the partnerships are the standard 1st-3rd against
        2nd-4th; partners met before make it illegal.  (The three arrangements counted at once:
        they share the spread; at 10,000 players this runs 200,000 times a round.)"""
        spread = pos[z] - pos[w] - 3
        best = None
        # partners w-y against x-z (the standard arrangement), w-x against y-z, w-z against x-y
        if y not in pw and z not in px:
            best = (REPEAT_COST * (ow.get(x, 0) + ow.get(z, 0) + oy.get(x, 0) + oy.get(z, 0)) + spread, (w, x, y, z))
        if x not in pw and z not in py:
            cost = REPEAT_COST * (ow.get(y, 0) + ow.get(z, 0) + ox.get(y, 0) + ox.get(z, 0)) + spread + 1
            if best is None or cost < best[0]:
                best = (cost, (w, y, x, z))
        if z not in pw and y not in px:
            cost = REPEAT_COST * (ow.get(x, 0) + ow.get(y, 0) + oz.get(x, 0) + oz.get(y, 0)) + spread + 1
            if best is None or cost < best[0]:
                best = (cost, (w, x, z, y))
        return best

    def greedy_table(remaining: list[int], window: int) -> Four | None:
        """The cheapest table of the top unseated player and three of the next ``window``."""
        top, *near = remaining[:window + 1]
        pt, ot = partners.get(top, no_partners), opponents.get(top, empty)
        seen = {p: (partners.get(p, no_partners), opponents.get(p, empty)) for p in near}
        best = None
        for x, y, z in itertools.combinations(near, 3):
            px, ox = seen[x]
            py, oy = seen[y]
            found = arrange(top, x, y, z, pt, px, py, ot, ox, oy, seen[z][1])
            if found is not None and (best is None or found[0] < best[0]):
                best = found
        return best[1] if best else None

    def exhaustive(pool: list[int]) -> list[Four] | None:
        """Min-cost seating of a small pool, branch and bound; None if no legal seating is found."""
        pool = sorted(pool, key=pos.__getitem__)
        best: list = [None, None]  # cost, tables
        nodes = [0]

        def go(rest: list[int], acc: list[Four], cost: int) -> None:
            if nodes[0] > EXHAUSTIVE_BUDGET:
                return
            if best[0] is not None and cost >= best[0]:
                return
            if not rest:
                best[0], best[1] = cost, list(acc)
                return
            top, others = rest[0], rest[1:]
            for trio in itertools.combinations(others, 3):
                nodes[0] += 1
                found = best_four((top, *trio))
                if found is None:
                    continue
                left = [p for p in others if p not in trio]
                acc.append(found[1])
                go(left, acc, cost + found[0])
                acc.pop()
                if best[0] is not None and best[0] == 0:
                    return

        go(pool, [], 0)
        return best[1]

    remaining = list(order)
    tables: list[Four] = []
    while remaining:
        if len(remaining) <= TAIL:
            tail = exhaustive(remaining)
            if tail is not None:
                tables.extend(tail)
                return tables
            break
        four = greedy_table(remaining, WINDOW) or greedy_table(remaining, 40)
        if four is None:
            break
        tables.append(four)
        for p in four:  # all four near the front: not a pass over the whole field a table
            remaining.remove(p)
    # The greedy pass left a tail that cannot be seated: reopen earlier tables, a few at a time.
    reopen = 1
    while True:
        k = min(reopen, len(tables))
        pool = remaining + [p for t in tables[len(tables) - k:] for p in t]
        seated = exhaustive(pool)
        if seated is not None:
            return tables[:len(tables) - k] + seated
        if k == len(tables):
            return None
        reopen *= 2


def _rotating_seats(four: Four, ns_balance: dict[int, int]) -> tuple[SeatAssignment, ...]:
    a, b, c, d = four
    # Soft: the partnership that has sat N-S more often sits E-W; the higher ranked pair N-S on a tie.
    if ns_balance.get(b, 0) + ns_balance.get(d, 0) < ns_balance.get(a, 0) + ns_balance.get(c, 0):
        a, b, c, d = b, a, d, c
    return (SeatAssignment("N", "NS", a), SeatAssignment("E", "EW", b),
            SeatAssignment("S", "NS", c), SeatAssignment("W", "EW", d))


# --- individual tables ----------------------------------------------------------------------


def seat_individual(order: Sequence[int], size: int | Sequence[int],
                    opponents: dict[int, Counter]) -> list[tuple[int, ...]]:
    """Tables in standings order, repeated opponents as rare as possible: of ``size`` players, or
    of the sizes listed (largest first, from :func:`tournament.pairing.seating.table_sizes`: the
    top of the standings at the fuller tables).

    A greedy pass makes each table from the top unseated player and the
    ``size - 1`` of the next few that minimise repeated opponents, then
    distance in the standings; the last tables are searched exhaustively; then
    players are swapped between tables while that lowers the total cost."""
    if isinstance(size, int):
        if len(order) % size:
            raise ValueError("seat_individual needs a multiple of the table size")
        sizes = [size] * (len(order) // size)
    else:
        sizes = list(size)
        if sum(sizes) != len(order):
            raise ValueError("seat_individual needs table sizes that add up to the players")
    pos = {p: i for i, p in enumerate(order)}
    empty: Counter = Counter()

    def cost(group: Sequence[int]) -> int:
        repeats = 0
        for i, p in enumerate(group):
            op = opponents.get(p, empty)
            for q in group[i + 1:]:
                repeats += op[q]
        ps = [pos[p] for p in group]
        return repeats * REPEAT_COST + (max(ps) - min(ps) - (len(group) - 1))

    biggest = max(sizes)
    window = biggest - 1 + max(2, 8 - biggest)
    tail = biggest * (3 if biggest <= 4 else 2)
    remaining = list(order)
    tables: list[tuple[int, ...]] = []
    while remaining:
        size = sizes[len(tables)]
        if len(remaining) <= tail and len(remaining) > size:
            tables.extend(_best_partition(remaining, sizes[len(tables):], cost))
            break
        top = remaining[0]
        best: tuple[int, tuple[int, ...]] | None = None
        for rest in itertools.combinations(remaining[1:window + 1], size - 1):
            group = (top, *rest)
            c = cost(group)
            if best is None or c < best[0]:
                best = (c, group)
                if c == 0:
                    break
        assert best is not None
        tables.append(best[1])
        taken = set(best[1])
        remaining = [p for p in remaining if p not in taken]
    return _improve_by_swaps(tables, cost, pos)


def _best_partition(pool: list[int], sizes: Sequence[int],
                    cost: Callable[[Sequence[int]], int]) -> list[tuple[int, ...]]:
    """Min-cost split of a small pool into tables of these sizes, in order (branch and bound,
    node-limited)."""
    best: list = [None, None]
    nodes = [0]

    def go(rest: list[int], acc: list[tuple[int, ...]], total: int) -> None:
        if nodes[0] > EXHAUSTIVE_BUDGET or (best[0] is not None and total >= best[0]):
            return
        if not rest:
            best[0], best[1] = total, list(acc)
            return
        top, others = rest[0], rest[1:]
        for combo in itertools.combinations(others, sizes[len(acc)] - 1):
            nodes[0] += 1
            group = (top, *combo)
            chosen = set(combo)
            acc.append(group)
            go([p for p in others if p not in chosen], acc, total + cost(group))
            acc.pop()
            if best[0] == 0:
                return

    go(list(pool), [], 0)
    return best[1]


def _improve_by_swaps(tables: list[tuple[int, ...]], cost: Callable[[Sequence[int]], int],
                      pos: dict[int, int]) -> list[tuple[int, ...]]:
    """Swap two players of different tables while the total cost falls (only tables with a
    repeated meeting are worth opening; distance in the standings is part of the cost)."""
    tables = [tuple(t) for t in tables]
    costs = [cost(t) for t in tables]
    for _ in range(4):
        improved = False
        for i in range(len(tables)):
            if costs[i] < REPEAT_COST:
                continue
            for j in range(len(tables)):
                if i == j:
                    continue
                done = False
                for a in tables[i]:
                    for b in tables[j]:
                        ti = tuple(b if x == a else x for x in tables[i])
                        tj = tuple(a if x == b else x for x in tables[j])
                        ci, cj = cost(ti), cost(tj)
                        if ci + cj < costs[i] + costs[j]:
                            tables[i], tables[j], costs[i], costs[j] = ti, tj, ci, cj
                            improved = done = True
                            break
                    if done:
                        break
                if costs[i] < REPEAT_COST:
                    break
        if not improved:
            break
    return [tuple(sorted(t, key=pos.__getitem__)) for t in tables]
