"""Knockout brackets: single and double elimination, and multi-player knockout tables.

Plain functions over frozen values, no database.  A :class:`Bracket` is the
whole draw, fixed when the stage is created: every match, the round it
belongs to, and where each of its sides comes from (a seed, or the winner,
loser or a finishing place of an earlier match).  What has happened is never
stored in the bracket: :func:`resolve` replays the games played so far
(:class:`Game` values, one per stored result) over the draw and says, match by
match, who plays, who is due to play, and who won.  So a replaced result moves
the bracket exactly as it should, and nothing can drift.

Seeding is standard: in a draw of ``2**k`` places seed 1 meets the lowest
seed, seeds 1 and 2 can only meet in the final, and when the field is not a
power of two the missing places are *byes* that fall to the top seeds, in the
first round only (a bye is a walkover: no game is played).

Double elimination: a winners' bracket as above; the losers of its first
round play each other in the losers' bracket, and the losers of each later
winners' round *drop in* against the survivors of the losers' bracket.  The
drop-in order is chosen so that a side dropping in does not meet somebody it
may already have beaten, whenever the draw allows it (a bipartite matching
over the possible meetings).  The winners' champion meets the losers'
champion in the grand final; with ``reset`` a second grand final is played
when the losers' champion wins the first (so that both have lost once).

Multi-player knockout: tables of three to six; the top ``advance`` of each
table (at least one player at every table is eliminated) go on, and are
spread over the next round's tables in snake order; when the field fits at
one table, that table is the final.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

import attrs

from tournament.errors import Refused

SINGLE, DOUBLE, MULTI = "single", "double", "multi"
KINDS = (SINGLE, DOUBLE, MULTI)

#: A side that does not exist: the other side of a bye.
NOBODY = -1

WAITING, DUE, DECIDED, WALKOVER, VOID = "waiting", "due", "decided", "walkover", "void"


class BracketError(Refused):
    """A draw that cannot be made (too few sides, a table size the game cannot seat)."""


class GameOutOfPlace(ValueError):
    """A played game whose sides are not (any more) the sides of its match: a result before it
    was replaced.  ``key`` is the match."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


@attrs.frozen
class Source:
    """Where one side of a match comes from."""

    kind: str  # "seed", "winner", "loser", "place"
    match: str = ""
    number: int = 0  # the seed (kind "seed") or the finishing place (kind "place")

    def text(self) -> str:
        if self.kind == "seed":
            return f"seed {self.number}"
        if self.kind == "place":
            return f"{_ordinal(self.number)} of {self.match}"
        return f"{self.kind} of {self.match}"


@attrs.frozen
class Match:
    key: str  # W1-3, L2-1, GF, GF2, 3P, T2-1
    round: int  # the stage's round, in schedule order, from 1
    position: int  # within its round, from 1
    bracket: str  # winners, losers, final, reset, third-place, table
    sources: tuple[Source, ...]
    advance: int = 1  # multi-player tables: how many go on
    #: A reset grand final is played only when the side of ``sources[1]`` of this match won it.
    only_if_upset: str = ""


@attrs.frozen
class Bracket:
    kind: str
    entrants: int
    matches: tuple[Match, ...]
    round_labels: tuple[str, ...]
    byes: tuple[int, ...]  # seeds given a first-round bye
    third_place: bool = False
    reset: bool = False
    wins_needed: int = 1  # head-to-head: the first to win this many games wins the match

    def match(self, key: str) -> Match:
        for m in self.matches:
            if m.key == key:
                return m
        raise KeyError(key)

    def in_round(self, number: int) -> list[Match]:
        return [m for m in self.matches if m.round == number]


@attrs.frozen
class Game:
    """One game played in a match: the sides in finishing order, level sides grouped together.
    Head to head: ``((winner,), (loser,))``, or ``((a, b),)`` for a draw."""

    match: str
    places: tuple[tuple[int, ...], ...]


@attrs.frozen
class MatchState:
    match: Match
    sides: tuple[int | None, ...]  # a unit, NOBODY, or None (not known yet)
    status: str  # waiting, due, decided, walkover, void
    games: int = 0
    wins: tuple[int, ...] = ()
    #: Decided (or walkover): the sides in finishing order; head to head, winner first.
    order: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        return self.order[0] if self.status in (DECIDED, WALKOVER) and self.order else None

    @property
    def loser(self) -> int | None:
        if self.status == DECIDED and len(self.order) > 1:
            return self.order[1]
        return NOBODY if self.status in (WALKOVER, VOID) else None


@attrs.frozen
class BracketState:
    bracket: Bracket
    seeds: tuple[int, ...]
    matches: tuple[MatchState, ...]

    def state(self, key: str) -> MatchState:
        for m in self.matches:
            if m.match.key == key:
                return m
        raise KeyError(key)

    @property
    def due(self) -> list[MatchState]:
        return [m for m in self.matches if m.status == DUE]

    @property
    def finished(self) -> bool:
        return all(m.status in (DECIDED, WALKOVER, VOID) for m in self.matches)

    @property
    def champion(self) -> int | None:
        if not self.finished:
            return None
        places = placings(self)
        top = [u for u, p in places.items() if p == 1]
        return top[0] if len(top) == 1 else None


# --- seeding -----------------------------------------------------------------------


def standard_order(size: int) -> list[int]:
    """Seeds in draw order for a draw of ``size`` (a power of two) places: 1, size, …
    Adjacent places meet in the first round; seed s meets seed size + 1 - s."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a draw has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def draw_size(entrants: int) -> int:
    return 1 << max(1, math.ceil(math.log2(entrants)))


# --- building the draw ----------------------------------------------------------


def single_elimination(entrants: int, third_place: bool = False, wins_needed: int = 1) -> Bracket:
    if entrants < 2:
        raise BracketError(f"a knockout needs at least 2 sides, not {entrants}")
    if third_place and entrants < 4:
        raise BracketError("a third-place game needs at least 4 sides (two beaten semi-finalists)")
    _check_wins(wins_needed)
    size = draw_size(entrants)
    rounds = int(math.log2(size))
    matches, _ = _winners_bracket(size, prefix="R")
    labels = [_single_label(r, rounds) for r in range(1, rounds + 1)]
    if third_place:
        semis = [m.key for m in matches if m.round == rounds - 1]
        final = matches[-1]
        matches[-1] = attrs.evolve(final, round=rounds + 1)
        matches.append(Match("3P", rounds, 1, "third-place", tuple(Source("loser", k) for k in semis)))
        labels = labels[:-1] + ["third-place game", labels[-1]]
    matches = [attrs.evolve(m, bracket="final") if m.key == f"R{rounds}-1" else m for m in matches]
    return Bracket(SINGLE, entrants, tuple(sorted(matches, key=lambda m: (m.round, m.position))), tuple(labels),
                   tuple(range(1, size - entrants + 1)), third_place=third_place, wins_needed=wins_needed)


def _single_label(r: int, rounds: int) -> str:
    left = rounds - r
    return {0: "final", 1: "semi-final", 2: "quarter-final"}.get(left, f"round {r}")


def _check_wins(wins_needed: int) -> None:
    if not 1 <= wins_needed <= 25:
        raise BracketError(f"a match is won by the first to win 1 to 25 games, not {wins_needed}")


def _winners_bracket(size: int, prefix: str) -> tuple[list[Match], list[list[str]]]:
    """The matches of a single-elimination draw of ``size`` places, and the keys by round."""
    order = standard_order(size)
    matches: list[Match] = []
    by_round: list[list[str]] = []
    keys = []
    for i in range(size // 2):
        key = f"{prefix}1-{i + 1}"
        matches.append(Match(key, 1, i + 1, "winners", (Source("seed", number=order[2 * i]),
                                                         Source("seed", number=order[2 * i + 1]))))
        keys.append(key)
    by_round.append(keys)
    r = 1
    while len(keys) > 1:
        r += 1
        nxt = []
        for i in range(len(keys) // 2):
            key = f"{prefix}{r}-{i + 1}"
            matches.append(Match(key, r, i + 1, "winners", (Source("winner", keys[2 * i]),
                                                             Source("winner", keys[2 * i + 1]))))
            nxt.append(key)
        keys = nxt
        by_round.append(keys)
    return matches, by_round


def double_elimination(entrants: int, reset: bool = True, wins_needed: int = 1) -> Bracket:
    if entrants < 2:
        raise BracketError(f"a knockout needs at least 2 sides, not {entrants}")
    _check_wins(wins_needed)
    size = draw_size(entrants)
    k = int(math.log2(size))
    wmatches, wkeys = _winners_bracket(size, prefix="W")
    below = _below(wmatches)
    # Schedule: W1; then for j = 2..k: Wj, L(2j-3), L(2j-2); then GF (and GF2).
    sched: dict[str, int] = {}
    labels: list[str] = []

    def new_round(label: str) -> int:
        labels.append(label)
        return len(labels)

    sched["W1"] = new_round("winners' round 1" if k > 1 else "winners' final")
    lmatches: list[Match] = []
    survivors: list[tuple[str, frozenset[str]]] = []  # (source key of an L winner, W matches it may come from)
    for j in range(2, k + 1):
        sched[f"W{j}"] = new_round("winners' final" if j == k else f"winners' round {j}")
        if j == 2:  # L1: losers of W1 against each other
            rnd = new_round(_losers_label(1, k))
            w1 = wkeys[0]
            for i in range(len(w1) // 2):
                key = f"L1-{i + 1}"
                lmatches.append(Match(key, rnd, i + 1, "losers", (Source("loser", w1[2 * i]),
                                                                   Source("loser", w1[2 * i + 1]))))
                survivors.append((key, frozenset({w1[2 * i], w1[2 * i + 1]})))
        else:  # L(2j-3): survivors of the losers' bracket against each other
            lr = 2 * j - 3
            rnd = new_round(_losers_label(lr, k))
            nxt = []
            survivors = _pair_survivors(survivors, below)
            for i in range(len(survivors) // 2):
                key = f"L{lr}-{i + 1}"
                (a, oa), (b, ob) = survivors[2 * i], survivors[2 * i + 1]
                lmatches.append(Match(key, rnd, i + 1, "losers", (Source("winner", a), Source("winner", b))))
                nxt.append((key, oa | ob))
            survivors = nxt
        # L(2j-2): the losers of Wj drop in against the survivors.
        lr = 2 * j - 2
        rnd = new_round(_losers_label(lr, k))
        drops = _drop_order(wkeys[j - 1], survivors, below)
        nxt = []
        for i, ((skey, origins), wkey) in enumerate(zip(survivors, drops)):
            key = f"L{lr}-{i + 1}"
            lmatches.append(Match(key, rnd, i + 1, "losers", (Source("loser", wkey), Source("winner", skey))))
            nxt.append((key, origins | {wkey}))
        survivors = nxt
    wmatches = [attrs.evolve(m, round=sched[m.key.split("-")[0]]) for m in wmatches]
    wfinal = wkeys[-1][0]
    losers_champion = Source("winner", survivors[0][0]) if survivors else Source("loser", wfinal)
    gf_round = new_round("grand final")
    final = Match("GF", gf_round, 1, "final", (Source("winner", wfinal), losers_champion))
    matches = wmatches + lmatches + [final]
    if reset:
        matches.append(Match("GF2", new_round("grand final reset"), 1, "reset",
                             (Source("winner", "GF"), Source("loser", "GF")), only_if_upset="GF"))
    return Bracket(DOUBLE, entrants, tuple(sorted(matches, key=lambda m: (m.round, m.position))), tuple(labels),
                   tuple(range(1, size - entrants + 1)), reset=reset, wins_needed=wins_needed)


def _losers_label(lr: int, k: int) -> str:
    return "losers' final" if lr == 2 * k - 2 else f"losers' round {lr}"


def _below(wmatches: Sequence[Match]) -> dict[str, frozenset[str]]:
    """Winners'-bracket match -> the matches below it (whose losers its players may have beaten)."""
    out: dict[str, frozenset[str]] = {}
    for m in sorted(wmatches, key=lambda m: m.round):
        sub: set[str] = set()
        for s in m.sources:
            if s.kind == "winner":
                sub |= {s.match} | out[s.match]
        out[m.key] = frozenset(sub)
    return out


def possible_rematch(drop: str, origins: frozenset[str], below: Mapping[str, frozenset[str]]) -> bool:
    """May the loser of winners' match ``drop`` meet, in the losers' bracket, a side that arrives
    from one of ``origins`` and that it may already have beaten?"""
    return bool(origins & below[drop])


def may_have_met(a: frozenset[str], b: frozenset[str], below: Mapping[str, frozenset[str]]) -> bool:
    """May two survivors of the losers' bracket, arriving from winners' matches ``a`` and ``b``,
    have met already (one of them beaten by the other in the winners' bracket)?"""
    return any(x in below[y] or y in below[x] for x in a for y in b)


def _pair_survivors(survivors: list[tuple[str, frozenset[str]]],
                    below: Mapping[str, frozenset[str]]) -> list[tuple[str, frozenset[str]]]:
    """Survivors reordered so that neighbours (who meet) may not have met before: neighbours as
    drawn when that is so, else the first rematch-free pairing found, else the drawn order with
    the fewest possible rematches that a bounded search finds."""
    n = len(survivors)
    clash = [[may_have_met(survivors[i][1], survivors[j][1], below) for j in range(n)] for i in range(n)]
    if not any(clash[2 * i][2 * i + 1] for i in range(n // 2)):
        return survivors
    best: list[int] = list(range(n))
    best_cost = sum(clash[2 * i][2 * i + 1] for i in range(n // 2))
    budget = [20_000]

    def go(left: list[int], acc: list[int], cost: int) -> bool:
        nonlocal best, best_cost
        budget[0] -= 1
        if cost >= best_cost or budget[0] < 0:
            return False
        if not left:
            best, best_cost = list(acc), cost
            return cost == 0
        first, rest = left[0], left[1:]
        for k, other in enumerate(sorted(rest, key=lambda j: (clash[first][j], abs(j - first)))):
            if go([x for x in rest if x != other], acc + [first, other], cost + clash[first][other]):
                return True
        return False

    go(list(range(n)), [], 0)
    return [survivors[i] for i in best]


def _drop_order(drops: Sequence[str], survivors: Sequence[tuple[str, frozenset[str]]],
                below: Mapping[str, frozenset[str]]) -> list[str]:
    """Which winners' match's loser drops against each survivor: a classic order (reversed, then
    halves swapped, …) when it avoids every possible rematch, else a maximum matching of the
    rematch-free pairings (so the fewest possible rematches)."""
    n = len(drops)
    candidates = [list(reversed(drops)), drops[n // 2:] + drops[:n // 2],
                  list(reversed(drops[n // 2:] + drops[:n // 2])), list(drops)]
    for order in candidates:
        if not any(possible_rematch(d, o, below) for d, (_, o) in zip(order, survivors)):
            return order
    ok = [[d for d in candidates[0] if not possible_rematch(d, o, below)] for _, o in survivors]
    match_of: dict[str, int] = {}

    def augment(i: int, seen: set[str]) -> bool:
        for d in ok[i]:
            if d in seen:
                continue
            seen.add(d)
            if d not in match_of or augment(match_of[d], seen):
                match_of[d] = i
                return True
        return False

    for i in range(n):
        augment(i, set())
    order: list[str | None] = [None] * n
    for d, i in match_of.items():
        order[i] = d
    rest = [d for d in candidates[0] if d not in match_of]
    return [o if o is not None else rest.pop(0) for o in order]


def multi_knockout(entrants: int, table_size: int, advance: int, counts: Iterable[int]) -> Bracket:
    """Tables of up to ``table_size``; the top ``advance`` at each table go on (but never all of a
    table); the field at one table plays the final.  ``counts``: the player counts the game allows."""
    counts = set(counts)
    if not 3 <= table_size <= 6:
        raise BracketError(f"a multi-player knockout seats three to six at a table, not {table_size}")
    if not 1 <= advance < table_size:
        raise BracketError(f"from tables of {table_size}, 1 to {table_size - 1} can advance, not {advance}")
    if entrants < 2:
        raise BracketError(f"a knockout needs at least 2 players, not {entrants}")
    matches: list[Match] = []
    labels: list[str] = []
    field: list[Source] = [Source("seed", number=s) for s in range(1, entrants + 1)]
    r = 0
    while True:
        r += 1
        n = len(field)
        tables = math.ceil(n / table_size)
        sizes = [n // tables + (1 if i < n % tables else 0) for i in range(tables)]
        for size in sizes:
            if size not in counts:
                raise BracketError(f"round {r} would seat a table of {size}, which the game cannot seat "
                                   f"(it seats {', '.join(map(str, sorted(counts)))}); choose another table "
                                   f"size or number to advance")
        seated: list[list[Source]] = [[] for _ in range(tables)]
        for i, src in enumerate(field):  # snake: 1..t, t..1, …
            lap, pos = divmod(i, tables)
            seated[pos if lap % 2 == 0 else tables - 1 - pos].append(src)
        final = tables == 1
        labels.append("final table" if final else f"round {r}")
        keys = []
        for i, group in enumerate(seated):
            key = "F" if final else f"T{r}-{i + 1}"
            go_on = 1 if final else min(advance, len(group) - 1)
            matches.append(Match(key, r, i + 1, "final" if final else "table", tuple(group), go_on))
            keys.append((key, go_on))
        if final:
            break
        field = [Source("place", key, p) for p in range(1, max(g for _, g in keys) + 1)
                 for key, g in keys if p <= g]
    return Bracket(MULTI, entrants, tuple(matches), tuple(labels), (), wins_needed=1)


# --- replaying the games ------------------------------------------------------------


def resolve(bracket: Bracket, seeds: Sequence[int], games: Iterable[Game]) -> BracketState:
    """Who plays each match and how it stands, from the seeds and the games played so far.

    Head to head, a game counts for the side alone in first place (a draw counts for nobody);
    the first side to ``wins_needed`` wins the match.  At a multi-player table (one game), the
    sides are placed by the game; sides level at the cut are separated by seed (the better
    seed goes on), so the result never depends on the order results arrive in.
    """
    seed_rank = {u: i for i, u in enumerate(seeds)}
    played: dict[str, list[Game]] = {}
    for g in games:
        played.setdefault(g.match, []).append(g)
    states: dict[str, MatchState] = {}
    out = []
    for m in bracket.matches:
        sides = tuple(_side(src, seeds, states) for src in m.sources)
        gs = played.get(m.key, [])
        if m.only_if_upset:
            first = states[m.only_if_upset]
            if first.status == DECIDED and first.order[0] == first.sides[0]:
                state = MatchState(m, sides, VOID)
                states[m.key] = state
                out.append(state)
                continue
        real = [s for s in sides if s is not None and s != NOBODY]
        if any(s is None for s in sides):
            state = MatchState(m, sides, WAITING, len(gs))
        elif len(real) == 0:
            state = MatchState(m, sides, VOID)
        elif len(real) == 1:
            state = MatchState(m, sides, WALKOVER, order=(real[0],))
        elif bracket.kind == MULTI:
            state = _table_state(m, sides, gs, seed_rank)
        else:
            state = _head_to_head_state(m, sides, gs, bracket.wins_needed)
        states[m.key] = state
        out.append(state)
    return BracketState(bracket, tuple(seeds), tuple(out))


def _side(src: Source, seeds: Sequence[int], states: Mapping[str, MatchState]) -> int | None:
    if src.kind == "seed":
        return seeds[src.number - 1] if src.number <= len(seeds) else NOBODY
    st = states[src.match]
    if src.kind == "winner":
        return st.winner if st.status in (DECIDED, WALKOVER) else (NOBODY if st.status == VOID else None)
    if src.kind == "loser":
        return st.loser
    if src.kind == "place":
        if st.status == DECIDED:
            return st.order[src.number - 1] if src.number <= len(st.order) else NOBODY
        if st.status == WALKOVER:
            return st.order[0] if src.number == 1 else NOBODY
        return NOBODY if st.status == VOID else None
    raise ValueError(f"unknown source {src.kind!r}")


def _head_to_head_state(m: Match, sides: tuple[int, ...], gs: Sequence[Game], wins_needed: int) -> MatchState:
    wins = [0, 0]
    for g in gs:
        if set(u for group in g.places for u in group) != set(sides):
            raise GameOutOfPlace(m.key, f"a game of {m.key} is not between its two sides")
        if len(g.places[0]) == 1:
            wins[sides.index(g.places[0][0])] += 1
        if max(wins) >= wins_needed:
            break
    if max(wins) >= wins_needed:
        w = 0 if wins[0] >= wins_needed else 1
        return MatchState(m, sides, DECIDED, len(gs), tuple(wins), (sides[w], sides[1 - w]))
    return MatchState(m, sides, DUE, len(gs), tuple(wins))


def _table_state(m: Match, sides: tuple[int, ...], gs: Sequence[Game], seed_rank: Mapping[int, int]) -> MatchState:
    present = tuple(s for s in sides if s != NOBODY)
    if not gs:
        return MatchState(m, present, DUE)
    g = gs[0]
    if set(u for group in g.places for u in group) != set(present):
        raise GameOutOfPlace(m.key, f"the game of {m.key} is not played by its players")
    order = tuple(u for group in g.places for u in sorted(group, key=lambda u: seed_rank.get(u, 1 << 30)))
    return MatchState(m, present, DECIDED, 1, (), order)


def games_needed(state: MatchState, wins_needed: int) -> int:
    """How many games of a due match can be played at most before it is decided (a cap for
    a table created in advance is never needed: the next game is created once this one is in)."""
    return wins_needed * 2 - 1 - sum(state.wins)


def placings(state: BracketState) -> dict[int, int]:
    """Every side's finishing place so far (shared by sides that went out at the same point).

    A side that is out is placed by the round it went out in (later is better); at that round a
    side that won its last match (the third-place game) is above one that lost it, and at a
    multi-player table the better place is above.  Sides still in share the top places.
    """
    alive: set[int] = set()
    last: dict[int, tuple[int, float]] = {}
    for ms in state.matches:
        real = [s for s in ms.sides if s is not None and s != NOBODY]
        if ms.status in (DUE, WAITING):
            alive |= set(real)
            continue
        if ms.status != DECIDED:
            continue
        for i, u in enumerate(ms.order):
            if state.bracket.kind == MULTI:
                tier = -(i + 1)
            else:
                tier = 1.0 if i == 0 else 0.0
            last[u] = (ms.match.round, tier)
    for u in alive:
        last[u] = (1 << 20, 0.0)
    for u in state.seeds:
        last.setdefault(u, (0, 0.0))
    keys = sorted(set(last.values()), reverse=True)
    above = {}
    count = 0
    for k in keys:
        above[k] = count
        count += sum(1 for v in last.values() if v == k)
    return {u: above[k] + 1 for u, k in last.items()}


def losses(state: BracketState) -> dict[int, int]:
    """Matches lost by each side (walkovers are not losses)."""
    out = {u: 0 for u in state.seeds}
    for ms in state.matches:
        if ms.status == DECIDED and state.bracket.kind != MULTI:
            out[ms.order[1]] += 1
    return out


def build(kind: str, entrants: int, *, third_place: bool = False, reset: bool = True, wins_needed: int = 1,
          table_size: int = 0, advance: int = 0, counts: Iterable[int] = ()) -> Bracket:
    if kind == SINGLE:
        return single_elimination(entrants, third_place, wins_needed)
    if kind == DOUBLE:
        return double_elimination(entrants, reset, wins_needed)
    if kind == MULTI:
        return multi_knockout(entrants, table_size, advance, counts)
    raise BracketError(f"unknown knockout {kind!r}; knockouts: {', '.join(KINDS)}")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --- drawing it -------------------------------------------------------------------------


def draw_text(state: BracketState, names: Mapping[int, str], round_numbers: Mapping[int, int] | None = None) -> str:
    """The bracket as plain text, round by round: every match, its sides, and how it stands."""
    lines: list[str] = []
    b = state.bracket
    for r, label in enumerate(b.round_labels, 1):
        ms = [m for m in state.matches if m.match.round == r]
        if not ms:
            continue
        number = f" (event round {round_numbers[r]})" if round_numbers and r in round_numbers else ""
        lines.append(f"== {label}{number} ==")
        for m in ms:
            lines.append("  " + match_line(m, names, b.wins_needed))
    champion = state.champion
    if champion is not None:
        lines.append(f"champion: {names.get(champion, champion)}")
    return "\n".join(lines)


def side_name(side: int | None, src: Source, names: Mapping[int, str]) -> str:
    if side is None:
        return f"({src.text()})"
    if side == NOBODY:
        return "bye"
    return names.get(side, f"#{side}")


def match_line(ms: MatchState, names: Mapping[int, str], wins_needed: int = 1) -> str:
    m = ms.match
    who = [side_name(s, src, names) for s, src in zip(ms.sides, m.sources)] if ms.match.bracket != "table" \
        or ms.status == WAITING else [side_name(s, Source("seed"), names) for s in ms.sides]
    if ms.status == DECIDED:
        if len(ms.order) > 2 or m.bracket in ("table",) or (m.bracket == "final" and len(ms.sides) > 2):
            ranked = ", ".join(f"{i + 1}. {names.get(u, u)}" for i, u in enumerate(ms.order))
            how = f"{ranked}" + (f" — {m.advance} go on" if m.bracket == "table" else "")
        else:
            score = f" {max(ms.wins)}-{min(ms.wins)}" if wins_needed > 1 else ""
            how = f"won by {names.get(ms.order[0], ms.order[0])}{score}"
    elif ms.status == WALKOVER:
        how = f"{names.get(ms.order[0], ms.order[0])} goes through (bye)"
    elif ms.status == VOID:
        how = "not needed" if m.only_if_upset else "no sides"
    elif ms.status == DUE:
        how = "to play" + (f" ({ms.wins[0]}-{ms.wins[1]} in games)" if ms.games and len(ms.wins) == 2 else "")
    else:
        how = "waiting"
    sep = " v " if len(who) == 2 else ", "
    return f"{m.key:<6} {sep.join(who)}: {how}"
