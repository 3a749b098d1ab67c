"""Team events: pairing teams into matches, seating a match's pairs, and the team standings.

A team event is a pairs event whose pairs belong to teams of two or three pairs
(:class:`tournament.values.Squad`).  A round pairs *teams*: Swiss on the team standings (each
team with the nearest one below it it has not met, by :func:`tournament.pairing.swiss.swiss`,
the pairs events' own search) or a round robin of teams (:func:`tournament.pairing.roundrobin.circle`).
Then each match seats its pairs at adjacent tables, the first pair of one team against the first
of the other and so on, the home team N-S at the first table, E-W at the second (and N-S again at
a third).  So a team never meets itself, and two pairs of one team never sit at one table.

A match's result is the sum of its tables' games, as each table's result stands (a game's rules
stay in domrec's engines; a table is entered and confirmed exactly as in a pairs event).  The team
standings (:func:`compute_teams`) are computed from scratch from the stored tables, like every
standings of the tool.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any, Iterable, Mapping, Sequence

import attrs

from tournament.errors import PairingError
from tournament.pairing.plan import Plan
from tournament.pairing.roundrobin import circle
from tournament.pairing.standings import rank_rows, status_word
from tournament.pairing.swiss import bye_choices, looking_ahead, swiss, swiss_round
from tournament.settings import HEAD_TO_HEAD, Settings
from tournament.values import Player, Result, SeatAssignment, Squad, Substitution, Table, Team


def squad_of_pairs(squads: Iterable[Squad]) -> dict[int, int]:
    """Partnership id -> its team."""
    return {pair: s.id for s in squads for pair in s.pairs}


def squad_of_players(squads: Iterable[Squad], teams: Iterable[Team]) -> dict[int, int]:
    """Player id -> the team of the pair they are seated in (reserves: their team)."""
    by_pair = squad_of_pairs(squads := list(squads))
    out = {p: s.id for s in squads for p in s.reserves}
    for t in teams:
        if t.id in by_pair:
            out.update({p: by_pair[t.id] for p in t.players})
    return out


def members_in(teams: Iterable[Team], subs: Iterable[Substitution], round_no: int) -> dict[int, tuple[int, ...]]:
    """Partnership id -> the two players who sit for it in ``round_no``: its registered players,
    with each substitution made from that round or before applied in turn (the reserve takes the
    seat of the player it replaces)."""
    out = {t.id: tuple(t.players) for t in teams}
    for sub in subs:
        if sub.from_round <= round_no and sub.pair in out:
            out[sub.pair] = tuple(sub.player_in if p == sub.player_out else p for p in out[sub.pair])
    return out


def pair_of_players(teams: Iterable[Team], subs: Iterable[Substitution]) -> dict[int, int]:
    """Player id -> the one pair they sit in (a reserve brought in: that pair).  A player plays in
    one pair only (:func:`tournament.event.teams.substitute` refuses a second), so a seat's pair is
    this whatever the round."""
    out = {p: t.id for t in teams for p in t.players}
    out.update({s.player_in: s.pair for s in subs})
    return out


def table_sides(table: Table, squad_of: Mapping[int, int]) -> dict[str, int]:
    """A table's sides -> the team sitting there (a side's players are all one team's)."""
    out: dict[str, int] = {}
    for s in table.seats:
        out.setdefault(s.side, squad_of[s.player])
    return out


def met_before(tables: Iterable[Table], squad_of: Mapping[int, int]) -> dict[int, Counter]:
    """Team -> the teams it has met (a match counted once, however many tables it had)."""
    seen: set[tuple[int, int, int]] = set()
    out: dict[int, Counter] = {}
    for t in tables:
        sides = list(table_sides(t, squad_of).values())
        if len(sides) != 2 or (t.round, *sorted(sides)) in seen:
            continue
        a, b = sides
        seen.add((t.round, *sorted(sides)))
        out.setdefault(a, Counter())[b] += 1
        out.setdefault(b, Counter())[a] += 1
    return out


def team_byes(byes: Mapping[int, Sequence[int]], squad_of: Mapping[int, int]) -> Counter:
    """Team -> the rounds it had a bye."""
    out: Counter = Counter()
    for given in byes.values():
        for s in dict.fromkeys(squad_of[p] for p in given if p in squad_of):
            out[s] += 1
    return out


def pair_teams(settings: Settings, round_no: int, squads: Sequence[Squad], teams: Sequence[Team],
               tables: Sequence[Table], byes: Mapping[int, Sequence[int]], ranking: Sequence[int] | None,
               lineups: Mapping[int, Sequence[int]] | None = None, subs: Sequence[Substitution] = ()) -> Plan:
    """Pair round ``round_no`` of a team event: which teams meet, and the match's tables.

    ``ranking``: the teams best first by the team standings (None before round 1: a draw from the
    event's seed); ``lineups``: a team's order of its pairs for this round, where its captain set
    one (else its registered order); ``subs``: the reserves brought into pairs (a pair is seated
    with the players :func:`members_in` gives for the round).  Raises :class:`PairingError` when it cannot be done."""
    rng = random.Random(f"tournament:{settings.seed}:round:{round_no}:teams")
    players_of = members_in(teams, subs, round_no)
    pair_active = {t.id: t.active_in(round_no) for t in teams}
    # A team whose every pair has withdrawn has no one to send: it is paired no more, as a withdrawn team.
    active = [s for s in squads if s.active_in(round_no) and any(pair_active.get(p) for p in s.pairs)]
    by_id = {s.id: s for s in active}
    lineups = lineups or {}
    line: dict[int, tuple[int, ...]] = {}
    for s in active:
        order = tuple(p for p in (lineups.get(s.id) or s.pairs) if pair_active.get(p))
        short = tuple(p for p in (lineups.get(s.id) or s.pairs) if not pair_active.get(p))
        if short and (settings.team_set or settings.team_duplicate):
            played = ("a set is played by all of a team's pairs" if settings.team_set else
                      "a duplicate match plays its boards at both tables, with both of a team's pairs")
            raise PairingError(f"team {s.name} has {len(order)} pair{'' if len(order) == 1 else 's'} to play in "
                               f"round {round_no}, not {settings.pairs_a_team}: {played}, so bring a reserve "
                               f"into the pair that left (tournament team EVENT sub) or withdraw the team")
        if len(order) + len(short) != settings.pairs_a_team:
            raise PairingError(f"team {s.name} has {len(order)} pair{'' if len(order) == 1 else 's'} to play in "
                               f"round {round_no}, not "
                               f"{settings.pairs_a_team}: enter its pairs (or withdraw the team) first")
        # A pair short: the team's pairs that play sit at the match's first tables; each one short
        # sits last, its table lost by forfeit (:func:`short_sides`).
        line[s.id] = order + short
    if len(active) < 2:
        raise PairingError(f"round {round_no} needs at least two active teams; there are {len(active)}")
    squad_of = squad_of_players(squads, teams)
    met = met_before(tables, squad_of)
    had_bye = team_byes(byes, squad_of)
    homes = home_history(tables, squad_of)
    matches: list[tuple[int, int]] | None = None
    bye_set: tuple[int, ...] = ()
    if settings.team_schedule == "round-robin":
        matches, bye_set = _round_robin(squads, round_no, by_id)
    else:
        jitter = {s: rng.random() for s in by_id}
        if ranking is None or round_no == 1:
            order = list(by_id)
            rng.shuffle(order)
        else:
            rank = {u: i for i, u in enumerate(ranking)}
            order = sorted(by_id, key=lambda u: (rank.get(u, len(rank)), jitter[u]))
        # First (with the first choice of bye) keeping apart two teams that must both be at home,
        # or both away (chess's absolute colours); when that cannot be, without it.
        wish = {u: must_be(homes.get(u, ())) for u in by_id}
        keep_apart = {u: met.get(u, Counter()) + Counter(v for v in by_id if v != u and wish[u] is not None
                                                          and wish[v] == wish[u]) for u in by_id}
        best_bye = next(iter(bye_choices(order, len(order) % 2, had_bye)), None)
        if best_bye is not None and any(w is not None for w in wish.values()):
            found = swiss([u for u in order if u not in best_bye], keep_apart,
                          looking_ahead(order, met, had_bye, best_bye))
            if found is not None:
                matches, bye_set = found, best_bye
        if matches is None and (paired := swiss_round(order, met, had_bye)) is not None:
            bye_set, matches = paired
    if matches is None:
        raise PairingError(f"round {round_no} cannot be paired without two teams meeting again "
                           f"({len(by_id)} teams)")
    seated: list[tuple[SeatAssignment, ...]] = []
    for first, second in matches:
        home, away = home_first(first, second, homes)
        seated += match_seats(line[home], line[away], players_of, pair_active)
    out = tuple(sorted(p for u in bye_set for pair in line[u] if pair_active[pair] for p in players_of[pair]))
    return Plan(round_no, tuple(seated), out)


def match_seats(home: Sequence[int], away: Sequence[int], players_of: Mapping[int, Sequence[int]],
                pair_active: Mapping[int, bool]) -> list[tuple[SeatAssignment, ...]]:
    """A match's tables, in order: the two teams' pairs (each in its line-up's order) board by
    board, the home team's N-S at the first table, E-W at the second, N-S at a third.  A board
    where both teams' pairs have withdrawn is no table."""
    out = []
    for i, (mine, theirs) in enumerate(zip(home, away)):
        if not pair_active[mine] and not pair_active[theirs]:
            continue  # both teams a pair short at this table: no game, for neither
        ns, ew = (mine, theirs) if i % 2 == 0 else (theirs, mine)
        n, s = players_of[ns]
        e, w = players_of[ew]
        out.append((SeatAssignment("N", "NS", n), SeatAssignment("E", "EW", e),
                    SeatAssignment("S", "NS", s), SeatAssignment("W", "EW", w)))
    return out


def short_sides(table: Table, teams: Iterable[Team], subs: Iterable[Substitution] = ()) -> tuple[str, ...]:
    """The sides of a team match's table where a pair that has withdrawn sits: its team was a
    pair short for the round, and the table is lost by forfeit (the federations' rule: a team that
    cannot field a pair loses that pair's game, the opponents scoring the forfeit score)."""
    teams = list(teams)
    pair_of = pair_of_players(teams, subs)
    gone = {t.id for t in teams if not t.active_in(table.round)}
    return tuple(dict.fromkeys(s.side for s in table.seats if pair_of.get(s.player) in gone))


def home_history(tables: Iterable[Table], squad_of: Mapping[int, int]) -> dict[int, list[bool]]:
    """Team -> its matches in round order, True where it was at home (N-S at the match's first
    table).  A bye is no match: it leaves a team's history as it was."""
    first: dict[tuple[int, int, int], tuple[int, int]] = {}
    for t in tables:
        sides = table_sides(t, squad_of)
        if len(sides) != 2 or "NS" not in sides:
            continue
        key = (t.round, *sorted(sides.values()))
        if key not in first or t.number < first[key][0]:
            first[key] = (t.number, sides["NS"])
    out: dict[int, list[bool]] = {}
    for (_, a, b), (_, home) in sorted(first.items()):
        for u in (a, b):
            out.setdefault(u, []).append(u == home)
    return out


def balance(history: Sequence[bool]) -> int:
    """Home matches minus away ones."""
    return sum(1 if x else -1 for x in history)


def must_be(history: Sequence[bool]) -> bool | None:
    """True: the team must be at home next (two more away matches than home ones, or its last two
    away), False: must be away (the other way round), None: either (chess's absolute colour
    preference: never three more of one, never three in a row)."""
    diff = balance(history)
    if diff <= -2 or list(history[-2:]) == [False, False]:
        return True
    if diff >= 2 or list(history[-2:]) == [True, True]:
        return False
    return None


def home_first(a: int, b: int, homes: Mapping[int, Sequence[bool]]) -> tuple[int, int]:
    """Which of two teams is at home in their match, as chess gives the white pieces: a team that
    must be (:func:`must_be`) where the other need not; else the team that has been at home less often (home matches minus away ones); level, the one that was away
    where their histories last differ (going back from their latest match); level all through,
    ``a`` (the higher ranked in a Swiss round, the schedule's home in a round robin)."""
    ha, hb = homes.get(a, ()), homes.get(b, ())
    da, db = balance(ha), balance(hb)
    must = {a: must_be(ha), b: must_be(hb)}
    if must[a] != must[b]:  # one of them must be at home (or away); the other need not
        if must[a] is not None:
            return (a, b) if must[a] else (b, a)
        return (b, a) if must[b] else (a, b)
    if da != db:
        return (a, b) if da < db else (b, a)
    for x, y in zip(reversed(ha), reversed(hb)):
        if x != y:
            return (a, b) if not x else (b, a)
    return a, b


def round_robin_rounds(squads: Sequence[Squad]) -> int:
    """How many rounds a team round robin has: those of the circle of the teams entered for round 1
    (a team that withdrew later keeps its place, its opponent then has a bye); 0 with fewer than two."""
    field = [s.id for s in squads if s.entered <= 1]
    return len(circle(field)[0]) if len(field) >= 2 else 0


def check_round_robin_round(squads: Sequence[Squad], round_no: int) -> None:
    """Round ``round_no`` is one of the team round robin's (:func:`round_robin_rounds`); refused in
    one line where it is one too many.  Asked first when the next round is paired, so that an
    event whose every round is played says so, not what else the round would need (its boards)."""
    field = [s.id for s in squads if s.entered <= 1]
    rounds = round_robin_rounds(squads)
    if round_no > rounds:
        raise PairingError(f"a round robin of {len(field)} teams has {rounds} rounds; round {round_no} "
                           f"is one too many")


def _round_robin(squads: Sequence[Squad], round_no: int, active: Mapping[int, Squad]
                 ) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """Round ``round_no`` of a round robin of the teams entered for round 1 (registered order);
    a team that has withdrawn leaves its opponent a bye."""
    check_round_robin_round(squads, round_no)
    rounds, _ = circle([s.id for s in squads if s.entered <= 1])
    matches, byes = [], []
    for p in rounds[round_no - 1]:
        if p.home in active and p.away in active:
            matches.append((p.home, p.away))
        else:
            byes.extend(u for u in (p.home, p.away) if u in active)
    byes.extend(u for u in active if u not in {x for m in matches for x in m} and u not in byes)
    return matches, tuple(byes)


@attrs.frozen
class MatchScore:
    """A match of a round as it stands: its tables, the two teams (home first: N-S at its first
    table), the games each has won so far (a draw a half) and how many tables have a result.
    A set (``target``: its game points) also has its ``winner``, the first team to reach the
    target counting the games in table order, once there is one, and the scores then (``won_at``)."""

    tables: tuple[int, ...]
    home: int
    away: int
    home_games: float
    away_games: float
    done: int
    target: int | None = None
    winner: int | None = None
    won_at: tuple[float, float] | None = None

    @property
    def finished(self) -> bool:
        """Every table seated has its result (and a set has its winner)."""
        return self.done == len(self.tables) and (self.target is None or self.winner is not None)


def set_winner(games: Iterable[tuple[int, float]], teams: tuple[int, int], target: int
               ) -> tuple[int | None, tuple[float, float] | None]:
    """The first of ``teams`` to ``target`` game points, and both teams' points then, from the
    games in the order they count (each a team and the points it took: 1 a win, ½ a draw)."""
    got = {teams[0]: 0.0, teams[1]: 0.0}
    for team, points in games:
        got[team] += points
        if got[team] >= target:
            return team, (got[teams[0]], got[teams[1]])
    return None, None


def round_matches(tables: Iterable[Table], results: Mapping[int, Result], squad_of: Mapping[int, int],
                  target: int | None = None) -> list[MatchScore]:
    """The matches of one round's tables (in table order), each summed from its tables' results
    as they are entered: what a match shows while it is played.  ``target``: the event's matches
    are sets to that many game points (:func:`set_winner`)."""
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for t in sorted(tables, key=lambda t: t.number):
        sides = table_sides(t, squad_of)
        if len(sides) != 2:
            continue
        key = tuple(sorted(sides.values()))
        m = found.setdefault(key, {"tables": [], "home": sides.get("NS"), "games": Counter(), "done": 0,
                                   "order": []})
        m["tables"].append(t.number)
        result = results.get(t.id)
        if result is None:
            continue
        m["done"] += 1
        for side, unit in sides.items():
            won = 1.0 if result.winner == side else 0.5 if result.winner is None else 0.0
            m["games"][unit] += won
            m["order"].append((unit, won))
    out = []
    for key, m in found.items():
        away = key[0] if key[1] == m["home"] else key[1]
        winner, at = set_winner(m["order"], (m["home"], away), target) if target else (None, None)
        out.append(MatchScore(tuple(m["tables"]), m["home"], away, m["games"][m["home"]], m["games"][away],
                              m["done"], target, winner, at))
    return out


# --- the team standings ---------------------------------------------------------------------------


@attrs.frozen
class TeamStanding:
    rank: int
    team: int
    name: str
    active: bool
    #: Matches: played (a bye not counted), won, drawn, lost; byes.
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    #: Games: won (a draw a half, a bye's pair a game won as the settings' bye says), lost.
    games: float
    games_lost: float
    points_for: int
    points_against: int
    match_points: int
    head_to_head: float = 0.0
    #: A late team in standings before its first round: the round it plays from (0: not late;
    #: :func:`tournament.pairing.standings.late_rows`, for the tables people read).
    late: int = 0

    @property
    def efectividad(self) -> int:
        return self.points_for - self.points_against

    def value(self, key: str) -> float:
        return {"games": self.games, "efectividad": self.efectividad, "match-points": self.match_points,
                "for": self.points_for, HEAD_TO_HEAD: self.head_to_head}[key]

    def to_dict(self) -> dict[str, Any]:
        """The row as ``standings --json`` gives it.  ``played`` counts matches and ``won``/``lost``
        games, side by side: a team mid-round read "played 0, won 1".  The same numbers are also
        given under keys that say what they count (``matches_played``, ``games_won``,
        ``games_lost``), added after the others; the old keys stay, for the scripts that read them."""
        return {"rank": self.rank, "team": self.name, "id": self.team, "played": self.played,
                "won": _num(self.games), "lost": _num(self.games_lost), "points_for": self.points_for,
                "points_against": self.points_against, "efectividad": self.efectividad,
                "match_points": self.match_points, "matches_won": self.won, "matches_drawn": self.drawn,
                "matches_lost": self.lost, "byes": self.byes, "status": status_word(self.active, self.late),
                "matches_played": self.played, "games_won": _num(self.games), "games_lost": _num(self.games_lost)}


@attrs.frozen
class TeamStandings:
    tiebreaks: tuple[str, ...]
    rows: tuple[TeamStanding, ...]
    through_round: int
    provisional: bool
    #: Rounds (up to ``through_round``) with tables still missing a result: round -> tables
    #: missing, as a pairs event's standings count them (what the terminal's PROVISIONAL line says).
    missing: dict[int, int] = attrs.field(factory=dict)

    def ranking(self) -> list[int]:
        return [r.team for r in self.rows]


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def compute_teams(settings: Settings, squads: Sequence[Squad], teams: Sequence[Team], players: Sequence[Player],
                  tables: Iterable[Table], results: Mapping[int, Result], byes: Mapping[int, Sequence[int]],
                  through_round: int | None = None, targets: Mapping[int, int] | None = None) -> TeamStandings:
    """The team standings after ``through_round`` (default: every round paired).

    A match is the tables of one round where the same two teams sit; its result is the sum of
    its tables' games (the stored scores and winner of each, a forfeit's included): the team
    with more games won wins the match (2 match points), equal games draw it (1 each).  A match
    with a table still missing a result is not decided yet: the games of its tables that have
    one count (games won and lost, points for and against, as each game's result is a fact
    already), but the match is neither played, won, drawn nor lost, and gives no match points,
    until its last table is in (a set: until a team reaches its target); the standings are then
    provisional.  Counting it as it stands would rank a team on a match it may still lose (and
    a match with none of its tables in as a draw).  A team's bye is a match won: each of its pairs a game won as the settings'
    bye says (``--bye``), 2 match points.  ``targets``: a round's sets played to another target than
    the event's (a knockout's semi-finals and final, :func:`tournament.event.stages.set_target`)."""
    del players  # the seats name the players; a player's team is read from the squads
    squad_of = squad_of_players(squads, teams)
    tables = [t for t in tables if through_round is None or t.round <= through_round]
    last = max([t.round for t in tables] + list(byes) + [0])
    through = last if through_round is None else through_round
    acc: dict[int, dict[str, float]] = {s.id: defaultdict(float) for s in squads}
    matches: dict[tuple[int, int, int], dict[int, float]] = {}
    #: A set's games in the order they count (table order): (team, points).
    order: dict[tuple[int, int, int], list[tuple[int, float]]] = defaultdict(list)
    missing = False
    tables_missing: dict[int, int] = {}
    #: The matches with a table still missing its result.
    open_matches: set[tuple[int, int, int]] = set()
    for t in sorted(tables, key=lambda t: (t.round, t.number)):
        sides = table_sides(t, squad_of)
        if len(sides) != 2:
            continue
        key = (t.round, *sorted(sides.values()))
        games = matches.setdefault(key, {u: 0.0 for u in sides.values()})
        result = results.get(t.id)
        if result is None:
            missing = True
            open_matches.add(key)
            tables_missing[t.round] = tables_missing.get(t.round, 0) + 1
            continue
        (sa, ua), (sb, ub) = sides.items()
        for side, unit, other in ((sa, ua, sb), (sb, ub, sa)):
            a = acc[unit]
            a["for"] += result.scores.get(side, 0)
            a["against"] += result.scores.get(other, 0)
            won = 1.0 if result.winner == side else 0.5 if result.winner is None else 0.0
            a["games"] += won
            a["games_lost"] += 1.0 - won
            games[unit] += won
            order[key].append((unit, won))
    outcome: dict[tuple[int, int, int], dict[int, int]] = {}
    for key, games in matches.items():
        a, b = list(games)
        points = (2, 0) if games[a] > games[b] else (0, 2) if games[a] < games[b] else (1, 1)
        target = (targets or {}).get(key[0], settings.team_set)
        if target:  # a set: won by the first team to its target, whatever came after
            winner, _ = set_winner(order[key], (a, b), target)
            if winner is None:
                missing = True  # a set still played: not decided, the standings provisional
                continue
            points = (2, 0) if winner == a else (0, 2)
        elif key in open_matches:  # a table still to come: not decided
            continue
        outcome[key] = {a: points[0], b: points[1]}
        for u, mp in ((a, points[0]), (b, points[1])):
            acc[u]["played"] += 1
            acc[u]["match_points"] += mp
            acc[u]["won" if mp == 2 else "drawn" if mp == 1 else "lost"] += 1
    for round_no, given in byes.items():
        if through_round is not None and round_no > through_round:
            continue
        # Each pair the team fielded had the bye (a team a pair short: the pairs it has left).
        pairs_of = Counter(squad_of[p] for p in given if p in squad_of)
        for u in pairs_of:
            pairs_of[u] //= 2
            a = acc[u]
            a["byes"] += 1
            a["match_points"] += 2
            a["games"] += settings.bye["wins"] * pairs_of[u]
            a["for"] += settings.bye["for"] * pairs_of[u]
            a["against"] += settings.bye["against"] * pairs_of[u]
    names = {s.id: s.name for s in squads}
    rows = {s.id: TeamStanding(0, s.id, names[s.id], s.active_in(through + 1), int(acc[s.id]["played"]),
                               int(acc[s.id]["won"]), int(acc[s.id]["drawn"]), int(acc[s.id]["lost"]),
                               int(acc[s.id]["byes"]), acc[s.id]["games"], acc[s.id]["games_lost"],
                               int(acc[s.id]["for"]), int(acc[s.id]["against"]), int(acc[s.id]["match_points"]))
            for s in squads}
    keys = settings.team_tiebreaks or ("games", "efectividad")
    ranked = rank_rows(rows, keys, lambda r, key: -r.value(key), lambda group: _head_to_head(group, matches, outcome))
    return TeamStandings(keys, tuple(ranked), through, missing, tables_missing)


def _head_to_head(group: Sequence[int], matches: Mapping[tuple[int, int, int], Mapping[int, float]],
                  outcome: Mapping[tuple[int, int, int], Mapping[int, int]]) -> dict[int, float]:
    """Each team's match points in the matches between the teams of ``group`` only (a cycle
    leaves them level, for the next key)."""
    members = set(group)
    out = {u: 0.0 for u in group}
    if len(group) < 2:
        return out
    for key, games in matches.items():
        if key in outcome and set(games) <= members:  # (a match not decided yet gives nothing)
            for u, mp in outcome[key].items():
                out[u] += mp
    return out
