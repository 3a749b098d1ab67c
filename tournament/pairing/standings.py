"""Standings: computed from scratch, every time, from the stored tables, results and byes.

Nothing here is stored as a running total, so there is nothing to drift: a
replaced result or a withdrawn player changes the standings exactly as it
should, and ``check`` can compare against the standings a round was paired on.

The unit that is ranked is the *pair* in a pairs event and the *player*
otherwise.  Partnership games rank by games won (a draw counts half), then
point difference, then points for; multi-player tables by placement points,
then total score.  The order of keys is the event's ``tiebreaks`` setting.
Units equal on every key share a rank.

``head-to-head`` is the one key that is not a unit's own number: it ranks a
group tied on every key before it by the results among that group only, under
the event's convention (``--head-to-head``): ``two`` (the default) only a
group of exactly two, ``mini-league`` any group, by a mini-table computed once
for the whole group; units it leaves level (a cycle: A beat B, B beat C, C
beat A; a group of three under ``two``) fall to the next key: under
``mini-league`` it is the federations' "points among the tied" (no other key
is needed for it).  ``efectividad`` (or ``effectiveness``) is the point
difference under the name Latin federations give it.

The federation tie-breaks (``median-buchholz``, ``sonneborn-berger``,
``best-round``) are read off each unit's games one by one: a game is its
opponents and what the unit made against each (1 beaten, a half level, 0),
so the cut of a median Buchholz drops whole games and Sonneborn-Berger counts
only the opponents beaten.  Opponents are scored as Buchholz scores them (wins,
or placement points, byes included); a bye or a forfeit by player has no
opponent and counts in none of them (docs/tournament.md, "Federation
tie-breaks").
"""

from __future__ import annotations

import bisect
import functools
import math
from collections import defaultdict
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

import attrs

from tournament.settings import (FEDERATION_KEYS, HEAD_TO_HEAD, HEAD_TO_HEAD_LEAGUE, HEAD_TO_HEAD_TWO, INDIVIDUAL,
                                 LOWER_IS_BETTER, PAIRS, TIEBREAK_ALIASES, Settings)
from tournament.values import Player, Result, Table, Team


@attrs.frozen
class Standing:
    rank: int
    unit: int  # team id (pairs) or player id
    name: str
    active: bool
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    points_for: int
    points_against: int
    wins: float
    placement: float
    score: int
    firsts: int
    buchholz: float
    #: Games the unit lost by forfeit: it did not play (the event's fixed score, 0 for it).
    forfeits: int = 0
    #: The head-to-head score within the group tied with it on the keys before ``head-to-head``
    #: (games won against that group, a draw a half; multi-player tables: the group's players
    #: finished behind); 0 when nobody is tied with it there.
    head_to_head: float = 0.0
    #: Games won (a draw a half) or placement points a game played, byes and sit-outs aside: what
    #: ranks a field whose players played different numbers of games (the ``average`` key).
    average: float = 0.0
    #: Buchholz without the highest and lowest game (two each from 9 games): :func:`median_cut`.
    median_buchholz: float = 0.0
    #: The opponents' scores of the games won, half those of the games drawn (a multi-player
    #: table: each opponent placed behind, half each level).
    sonneborn_berger: float = 0.0
    #: The best single game: its margin (points for minus against) in a partnership game, its score
    #: at a multi-player table; games played only (no bye, no forfeit); 0 before any.
    best_round: float = 0.0
    #: A late entry in standings before its first round: the round it plays from (0: not late).
    #: Set by :func:`late_entries_last` for the tables people read, never by :func:`compute`.
    late: int = 0

    @property
    def diff(self) -> int:
        return self.points_for - self.points_against

    def value(self, key: str) -> float:
        return getattr(self, _KEY_FIELDS[key])

    def values(self, keys: Sequence[str]) -> dict[str, float]:
        return {k: self.value(k) for k in keys}


@attrs.frozen
class Standings:
    format: str
    tiebreaks: tuple[str, ...]
    rows: tuple[Standing, ...]
    through_round: int
    #: Rounds (up to ``through_round``) with tables still missing a result: round -> tables missing.
    missing: dict[int, int]
    #: The unit placement points were added up in (1/scale of a point): each row's placement
    #: times it is a whole number, so sums over rows (a club's best players) can be exact too.
    scale: int = 1

    @property
    def provisional(self) -> bool:
        return bool(self.missing)

    def columns(self) -> list[str]:
        """The table's columns: its format's, the tie-break keys that are not a column already, and
        ``forfeits`` where there are any (worked out once a table: a caller asks for every row)."""
        return list(self._columns)

    @functools.cached_property
    def _columns(self) -> tuple[str, ...]:
        if self.format == INDIVIDUAL:
            out = ["rank", "id", "name", "played", "byes", "placement", "score", "firsts", "buchholz", "status"]
        else:
            out = ["rank", "id", "name", "played", "won", "drawn", "lost", "byes", "wins", "for", "against", "diff",
                   "buchholz", "status"]
        # Shown only where they count: an event without forfeits, or not ranked head to head, keeps its table.
        extra = [k for k in self.tiebreaks if k in TIEBREAK_ALIASES or k in (HEAD_TO_HEAD, "average")
                 or k in FEDERATION_KEYS]
        if any(s.forfeits for s in self.rows):
            extra.append("forfeits")
        return tuple(out[:-1] + extra + out[-1:])

    def row_dict(self, s: Standing, columns: Sequence[str] | None = None) -> dict[str, Any]:
        """One row by :meth:`columns` (or by ``columns``)."""
        return {c: _CELLS[c](s) for c in (self._columns if columns is None else columns)}

    def row_values(self, s: Standing, columns: Sequence[str]) -> tuple[Any, ...]:
        """One row's values for ``columns``, in order (the browsing snapshot's rows)."""
        return tuple(_CELLS[c](s) for c in columns)

    def to_dict(self) -> dict[str, Any]:
        columns = self._columns
        return {"format": self.format, "tiebreaks": list(self.tiebreaks), "ranked_by": self.ranked_by(),
                "through_round": self.through_round,
                "provisional": self.provisional,
                "missing": {str(k): v for k, v in sorted(self.missing.items())},
                "standings": [self.row_dict(s, columns) for s in self.rows]}


    def ranked_by(self) -> str:
        """The order of the keys, in words, as printed under the standings."""
        return "ranked by " + ", then ".join(_KEY_WORDS.get(k, k) for k in self.tiebreaks)


#: Each tie-break key (and alias) -> the :class:`Standing` attribute that holds its value.
_KEY_FIELDS = {"wins": "wins", "diff": "diff", "for": "points_for", "against": "points_against",
               "placement": "placement", "score": "score", "firsts": "firsts", "buchholz": "buchholz",
               HEAD_TO_HEAD: "head_to_head", "average": "average", "median-buchholz": "median_buchholz",
               "sonneborn-berger": "sonneborn_berger", "best-round": "best_round",
               **{alias: "diff" for alias in TIEBREAK_ALIASES}}

#: Each column of a standings table -> its cell in a row (numbers that are whole shown whole).
_CELLS: dict[str, Callable[[Standing], Any]] = {
    "rank": lambda s: s.rank, "id": lambda s: s.unit, "name": lambda s: s.name, "played": lambda s: s.played,
    "won": lambda s: s.won, "drawn": lambda s: s.drawn, "lost": lambda s: s.lost, "byes": lambda s: s.byes,
    "wins": lambda s: shown_number(s.wins), "for": lambda s: s.points_for, "against": lambda s: s.points_against,
    "diff": lambda s: s.diff, "placement": lambda s: shown_number(s.placement), "score": lambda s: s.score,
    "firsts": lambda s: s.firsts, "buchholz": lambda s: shown_number(s.buchholz), "forfeits": lambda s: s.forfeits,
    HEAD_TO_HEAD: lambda s: shown_number(s.head_to_head), "average": lambda s: shown_number(round(s.average, 3)),
    "median-buchholz": lambda s: shown_number(s.median_buchholz), "sonneborn-berger": lambda s: shown_number(s.sonneborn_berger),
    "best-round": lambda s: shown_number(s.best_round),
    "status": lambda s: status_word(s.active, s.late),
    **{alias: (lambda s: s.diff) for alias in TIEBREAK_ALIASES}}

#: How a key reads under the standings (the others read as their own names).
_KEY_WORDS = {"efectividad": "efectividad (points for minus against)",
              "effectiveness": "effectiveness (efectividad: points for minus against)",
              HEAD_TO_HEAD: "head-to-head (results among the tied only)",
              "average": "average (a game played, byes and sit-outs aside)",
              "median-buchholz": "median Buchholz (the best and worst games' opponents left out)",
              "sonneborn-berger": "Sonneborn-Berger (the opponents beaten, half those drawn with)",
              "best-round": "best round (the best single game)"}


def status_word(active: bool, late: int = 0) -> str:
    """A row's ``status``: ``active``, ``withdrawn``, or for a late entry in standings before its
    first round ``from round K`` (never ``withdrawn``: it has not left, it has not come yet)."""
    return f"from round {late}" if late else "active" if active else "withdrawn"


#: A row of standings: a unit's (:class:`Standing`) or a team's.
Ranked = TypeVar("Ranked")


def late_rows(rows: Sequence[Ranked], entered: Mapping[int, int], through: int,
              unit: Callable[[Ranked], int]) -> list[Ranked]:
    """``rows`` (best first) with each late entry not yet in the rounds counted moved after all the
    others, sharing the rank after theirs, marked with the round it plays from (its ``late``), and
    the others' ranks counted without them.

    A late entry is a unit entered once round 1 was paired (``entered``: unit -> the round it plays
    from, 2 or later); in standings through ``through`` it is one entered for a later round: it
    could play none of the rounds counted.  :func:`compute` ranks it on its zeros like any unit
    (the pairing places it so), which put a pair that had played nothing above one that had lost
    its game, in standings of a round it was not in; and a unit not active the round after
    ``through`` read ``withdrawn``.  The tables people read (``standings``, the hall, the report,
    the feed) list it last instead (a decision: docs/tournament.md, "Late entry")."""
    first = max(through, 1)
    late = {u: k for u, k in entered.items() if k > first}
    if not any(unit(r) in late for r in rows):
        return list(rows)
    kept = [r for r in rows if unit(r) not in late]
    ahead = sorted(getattr(r, "rank") for r in kept)
    # A rank is one more than the rows ranked ahead (ties share theirs): counted without the late.
    out = [_evolve(r, rank=1 + bisect.bisect_left(ahead, getattr(r, "rank"))) for r in kept]
    return out + [_evolve(r, rank=len(kept) + 1, late=late[unit(r)]) for r in rows if unit(r) in late]


def late_entries_last(table: Standings, entered: Mapping[int, int]) -> Standings:
    """``table`` with its late entries last (:func:`late_rows`): ``entered``, each unit's first round."""
    rows = late_rows(table.rows, entered, table.through_round, lambda s: s.unit)
    return table if all(a is b for a, b in zip(rows, table.rows)) else attrs.evolve(table, rows=tuple(rows))


def shown_number(x: float) -> float | int:
    """A number as the standings show it: a whole one as such, the rest to 4 places."""
    x = float(x)  # (an exact sum of placement points, a Fraction, shows as the others do)
    return int(x) if x.is_integer() else round(x, 4)


def cell(s: Standing, column: str) -> Any:
    """One cell of a standings row, as the tables show it (a ranking key by its own name)."""
    return _CELLS[column](s)


def placements(scores: dict[str, int], winner: str | None, points: Sequence[float]) -> dict[str, float]:
    """Placement points at one multi-player table.

    Seats are placed by score, highest first; seats level on score share the
    places they cover and split those places' points evenly.  When the game's
    own rules name a winner among seats level at the top (Castle Rock's
    "youngest" rule), that winner takes first place alone.
    """
    order = sorted(scores, key=lambda s: -scores[s])
    groups: list[list[str]] = []
    for seat in order:
        if groups and scores[groups[-1][0]] == scores[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    if winner is not None and winner in groups[0] and len(groups[0]) > 1:
        rest = [s for s in groups[0] if s != winner]
        groups = [[winner], rest] + groups[1:]
    out: dict[str, float] = {}
    place = 0
    for group in groups:
        share = points[place:place + len(group)]
        value = sum(share) / len(group) if share else 0.0
        for seat in group:
            out[seat] = value
        place += len(group)
    return out


def table_points(points: Sequence[float], size: int) -> tuple[float, ...]:
    """The placement points of a table of ``size`` players, from the event's points for its full
    table (``--placement``, one number a place at the largest table).

    A full table takes them as given.  A smaller table keeps the first and the last place's
    points, and reads each place between off the full list at evenly spaced positions (linear
    interpolation): with 5, 4, 3, 2, 1, 0 for six, a table of five gives 5, 3.75, 2.5, 1.25, 0.
    So the winner of any table scores the same, the last the same, and, for evenly spaced points
    (the default), a table's average is the same at every size: standings compare fairly
    across table sizes (docs/tournament.md, "Tables of different sizes")."""
    full = len(points)
    if size >= full or not full:
        return tuple(points)
    return tuple(round(float(p), 6) for p in exact_table_points(points, size))


def exact(x: float | int | Fraction) -> Fraction:
    """A setting's number exactly as written (``1.1`` is 11/10, not the float nearest it)."""
    return x if isinstance(x, Fraction) else Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def _placement_scale(settings: Settings, sizes: Iterable[int]) -> tuple[int, dict[int, tuple[float, ...]]]:
    """The unit the standings count placement points in (1/scale of a point) and each table
    size's points in it, whole numbers: every place's points, their share among players level
    (split up to the table's size ways) and the bye's and sit-out's points are whole units."""
    exact_points = {n: exact_table_points(settings.placement, n) for n in set(sizes)}
    extra = [settings.bye.get("placement", 0), (settings.sit_out or {}).get("placement", 0)]
    whole = math.lcm(*(value.denominator for value in [p for pts in exact_points.values() for p in pts]
                       + [exact(x) for x in extra]))
    scale = whole * math.lcm(*range(1, max(exact_points, default=1) + 1))  # (then any share is whole)
    return scale, {n: tuple(float(p * scale) for p in pts) for n, pts in exact_points.items()}


def exact_table_points(points: Sequence[float], size: int) -> tuple[Fraction, ...]:
    """:func:`table_points` as exact fractions (10/3, not 3.333333), which the standings add up:
    three games' 10/3 are 10, as two wins' 5 + 5 are, where 3.333333 three times is 9.999999 and
    would rank below them."""
    full = len(points)
    if size >= full or not full:
        return tuple(exact(p) for p in points)
    if size == 1:
        return (exact(points[0]),)
    out = []
    for place in range(size):
        at = Fraction(place * (full - 1), size - 1)
        low = int(at)
        high = min(low + 1, full - 1)
        out.append(exact(points[low]) + (exact(points[high]) - exact(points[low])) * (at - low))
    return tuple(out)


@attrs.frozen
class OwnGame:
    """A player's own game at a table forfeited by player (``--absent``): what the standings count
    and every page shows (the player's page, the crosstable), so the game reads one way everywhere.
    The sides' stored scores (0 for a side with an absent player) are not what its players got:
    the partner who came won it, as a bye would be won (docs/tournament.md, "Forfeits by player")."""

    outcome: str  # "won" (came) or "lost" (did not come)
    points_for: int
    points_against: int
    place: int  # at a multi-player table: 1 for who came, the last place for who did not


def forfeit_by_player(came: bool, points: int, seats: int) -> OwnGame:
    """The game of one player at a table forfeited by player: who came won it by the event's
    forfeit score (``points``) against nothing, who did not lost it by as much."""
    if came:
        return OwnGame("won", points, 0, 1)
    return OwnGame("lost", 0, points, seats)


def first_places(scores: dict[str, int], winner: str | None) -> set[str]:
    if winner is not None:
        return {winner}
    best = max(scores.values())
    return {s for s, n in scores.items() if n == best}


def compute(settings: Settings, players: Iterable[Player], teams: Iterable[Team], tables: Iterable[Table],
            results: dict[int, Result], byes: dict[int, list[int]], through_round: int | None = None,
            sat_out: dict[int, set[int]] | None = None) -> Standings:
    """The standings after ``through_round`` (default: every round paired so far).  ``sat_out``:
    round -> the players whose bye there they asked for (``tournament sit-out``), scored by the
    event's ``sit_out`` setting instead of its ``bye``."""
    players = list(players)
    teams = list(teams)
    tables = [t for t in tables if through_round is None or t.round <= through_round]
    last = max([t.round for t in tables] + [r for r in byes] + [0])
    through = last if through_round is None else through_round
    pairs = settings.format == PAIRS
    if pairs:
        names = {t.id: t.name for t in teams}
        active = {t.id: t.active_in(through + 1) for t in teams}
        team_of = {p.id: p.team for p in players}
        unit_of = lambda pid: team_of[pid]  # noqa: E731
    else:
        names = {p.id: p.name for p in players}
        active = {p.id: p.active_in(through + 1) for p in players}
        unit_of = lambda pid: pid  # noqa: E731
    acc: dict[int, dict[str, float]] = {u: defaultdict(float) for u in names}
    opponents: dict[int, list[int]] = {u: [] for u in names}
    #: Each unit's games one by one: (opponent, what the unit made against them: 1, 0.5, 0) each.
    games_of: dict[int, list[list[tuple[int, float]]]] = {u: [] for u in names}
    #: Each unit's best single game (see :attr:`Standing.best_round`), games played only.
    best: dict[int, float] = {}
    #: Every result as (unit -> its side or seat, scores, winner): what head-to-head reads.
    played: list[tuple[dict[int, str], dict[str, int], str | None]] = []
    missing: dict[int, int] = {}
    # Placement points are added up exactly, in units of 1/scale (a table of four among tables of six
    # gives 10/3): their sums are compared, and float sums that differ in the last digit (3.333333
    # three times, 9.999999, against 5 + 5) would rank level players apart.  Whole numbers of units
    # add up exactly as floats, and fast; each total is divided by the scale once, at the end.
    scale, scaled = _placement_scale(settings, {len(t.seats) for t in tables}) if not settings.partnership \
        else (1, {})
    for table in tables:
        result = results.get(table.id)
        if result is None:
            missing[table.round] = missing.get(table.round, 0) + 1
            continue
        scores = result.scores
        absent = result.absent
        gone = result.absent_players
        if gone:
            # A forfeit by player: the absent take the loss, those who came a game won by the
            # forfeit score; like a bye, no opponents (the tie-breaks' opponents played nobody here).
            out = {unit_of(p) for p in gone}
            for u in dict.fromkeys(unit_of(s.player) for s in table.seats):
                a = acc[u]
                own = forfeit_by_player(u not in out, settings.forfeit_score, len(table.seats))
                a["played"] += 1
                a["forfeits"] += own.outcome == "lost"
                if settings.partnership:
                    a[own.outcome] += 1
                    a["for"] += own.points_for
                    a["against"] += own.points_against
                else:
                    a["placement"] += scaled[len(table.seats)][0 if own.place == 1 else -1]
                    a["score"] += own.points_for
                    a["firsts"] += own.place == 1
            continue
        if settings.partnership:
            side_units: dict[str, list[int]] = {}
            for s in table.seats:
                u = unit_of(s.player)
                if u not in side_units.setdefault(s.side, []):
                    side_units[s.side].append(u)
            sides = list(side_units)
            for side in sides:
                other = next(x for x in sides if x != side)
                for u in side_units[side]:
                    a = acc[u]
                    a["played"] += 1
                    a["for"] += scores[side]
                    a["against"] += scores[other]
                    if result.winner == side:
                        a["won"] += 1
                    elif result.winner is None:
                        a["drawn"] += 1
                    else:
                        a["lost"] += 1
                    opponents[u].extend(side_units[other])
                    a["forfeits"] += side in absent
                    made = 1.0 if result.winner == side else 0.5 if result.winner is None else 0.0
                    games_of[u].append([(o, made) for o in side_units[other]])
                    if not absent:
                        margin = scores[side] - scores[other]
                        best[u] = max(best.get(u, margin), margin)
            played.append(({u: side for side, us in side_units.items() for u in us}, scores, result.winner))
        else:
            places = placements(scores, result.winner, scaled[len(table.seats)])  # (splits: whole units too)
            firsts = first_places(scores, result.winner)
            for s in table.seats:
                a = acc[s.player]
                a["played"] += 1
                a["placement"] += places[s.seat]
                a["score"] += scores[s.seat]
                a["firsts"] += s.seat in firsts
                a["forfeits"] += s.seat in absent
                opponents[s.player].extend(o.player for o in table.seats if o.player != s.player)
                games_of[s.player].append([(o.player, _placed(scores, result.winner, s.seat, o.seat))
                                           for o in table.seats if o.player != s.player])
                if not absent:
                    best[s.player] = max(best.get(s.player, scores[s.seat]), scores[s.seat])
            played.append(({s.player: s.seat for s in table.seats}, scores, result.winner))
    for u, a in acc.items():  # what the games alone gave, before any bye or sit-out
        # (one division of exact numbers: equal averages, 14/3 over two games and 35/3 over five,
        # compare equal)
        a["average"] = ((a["won"] + a["drawn"] / 2) / a["played"] if settings.partnership
                        else a["placement"] / (a["played"] * scale)) if a["played"] else 0.0
    for round_no, given in byes.items():
        if through_round is not None and round_no > through_round:
            continue
        asked = {unit_of(p) for p in (sat_out or {}).get(round_no, ()) if unit_of(p) in acc}
        for u in dict.fromkeys(unit_of(p) for p in given):  # a pair's two players: one bye
            a = acc[u]
            a["byes"] += 1
            bye = (settings.sit_out or dict.fromkeys(settings.bye, 0.0)) if u in asked else settings.bye
            if settings.partnership:
                a["bye_wins"] += bye["wins"]
                a["for"] += bye["for"]
                a["against"] += bye["against"]
            else:
                a["placement"] += float(exact(bye["placement"]) * scale)
                a["score"] += bye["score"]
    wins_of = {u: (a.get("won", 0.0) + a.get("drawn", 0.0) / 2 + a.get("bye_wins", 0.0)) if settings.partnership
               else a.get("placement", 0.0) for u, a in acc.items()}
    rows: dict[int, tuple[Any, ...]] = {}  # a unit's Standing, but for its rank and head-to-head score
    keys_wanted = any(k in settings.tiebreaks for k in FEDERATION_KEYS)
    for u, a in acc.items():
        g = a.get
        rows[u] = (u, names[u], active[u], int(g("played", 0)), int(g("won", 0)), int(g("drawn", 0)),
                   int(g("lost", 0)), int(g("byes", 0)), int(g("for", 0)), int(g("against", 0)),
                   g("won", 0.0) + g("drawn", 0.0) / 2 + g("bye_wins", 0.0), g("placement", 0.0) / scale,
                   int(g("score", 0)), int(g("firsts", 0)), float(sum(map(wins_of.__getitem__, opponents[u]))) / scale,
                   int(g("forfeits", 0)), g("average", 0.0), *federation(games_of[u], wins_of, keys_wanted, scale),
                   float(best.get(u, 0.0)))
    keys = settings.tiebreaks
    ranked = rank_rows(rows, keys, _sort_value, lambda group: head_to_head(group, played, settings.partnership),
                       lambda row, rank, h2h: Standing(rank, *row[:16], 0.0 if h2h is None else h2h, *row[16:]),
                       among=settings.head_to_head)
    return Standings(settings.format, keys, tuple(ranked), through, missing, scale)


#: Each tie-break key -> where a unit's row in :func:`compute` holds it (``diff``: for minus against).
_ROW_AT = {"wins": 10, "for": 8, "against": 9, "placement": 11, "score": 12, "firsts": 13, "buchholz": 14,
           "average": 16, "median-buchholz": 17, "sonneborn-berger": 18, "best-round": 19}


def _sort_value(row: tuple[Any, ...], key: str) -> float:
    """A unit's value for ``key`` in :func:`compute`'s ranking, less ranking higher."""
    key = TIEBREAK_ALIASES.get(key, key)
    value = row[8] - row[9] if key == "diff" else row[_ROW_AT[key]]
    return value if key in LOWER_IS_BETTER else -value


def _placed(scores: dict[str, int], winner: str | None, mine: str, theirs: str) -> float:
    """What a seat made against another at a multi-player table: 1 placed ahead, 0 behind, a half
    level (the game's own winner first when the top was level), as head-to-head counts it."""
    if scores[mine] != scores[theirs]:
        return 1.0 if scores[mine] > scores[theirs] else 0.0
    if winner in (mine, theirs):
        return 1.0 if winner == mine else 0.0
    return 0.5


def median_cut(games: int) -> int:
    """How many games a median Buchholz drops at each end: one, two from 9 games (the median
    Buchholz of long Swiss events), never so many that no game is left (none of one or two games)."""
    cut = 2 if games >= 9 else 1
    return min(cut, (games - 1) // 2)


def federation(games: Sequence[Sequence[tuple[int, float]]], score_of: dict[int, float],
               wanted: bool = True, scale: int = 1) -> tuple[float, float]:
    """A unit's median Buchholz and Sonneborn-Berger from its games (each its opponents and what the
    unit made against each), the opponents valued by ``score_of`` (their wins or placement points).
    ``wanted`` False: zeros (an event that ranks by neither does not pay for them)."""
    if not wanted or not games:
        return 0.0, 0.0
    per_game = sorted(sum(score_of[o] for o, _ in game) for game in games)
    cut = median_cut(len(per_game))
    median = float(sum(per_game[cut:len(per_game) - cut])) / scale
    sb = float(sum(made * score_of[o] for game in games for o, made in game)) / scale
    return median, sb


Row = TypeVar("Row")


def rank_rows(rows: dict[int, Row], keys: Sequence[str], sort_value: Callable[[Row, str], float],
              mini_table: Callable[[list[int]], dict[int, float]],
              place: Callable[[Row, int, float | None], Any] | None = None,
              among: str = HEAD_TO_HEAD_LEAGUE) -> list[Any]:
    """Rows (unit -> a frozen row with ``rank`` and ``head_to_head``) ranked by ``keys`` in order:
    ``sort_value`` gives a row's value for a key, less ranking higher; ``head-to-head`` is the
    ``mini_table`` of each group the keys before it left tied (a group of one scores 0), under
    ``among``'s convention: ``mini-league``, every such group; ``two``, only a group of exactly
    two (a larger group scores 0 each and falls to the next key: a pair far behind on efectividad
    is not lifted over one just behind by a result among others).  Rows
    equal on every key share a rank; they are listed by unit number.  Used by every standings
    of units (pairs, players) and of teams (:mod:`tournament.pairing.teams`).  ``place`` makes a
    ranked row of a row, its rank and its head-to-head score (None: not ranked head to head);
    by default the row with those fields replaced (:func:`compute` makes each :class:`Standing`
    once, ranked: a standings of 10,000 players)."""
    # Keys are applied one after the other: head-to-head needs the groups the keys before it left tied.
    sort_keys: dict[int, list[float]] = {u: [] for u in rows}
    h2h_of: dict[int, float] = {}
    for key in keys:
        if key == HEAD_TO_HEAD:
            groups: dict[tuple, list[int]] = defaultdict(list)
            for u, so_far in sort_keys.items():
                groups[tuple(so_far)].append(u)
            for group in groups.values():
                counted = len(group) == 2 if among == HEAD_TO_HEAD_TWO else len(group) > 1
                h2h = mini_table(group) if counted else {u: 0.0 for u in group}
                for u in group:
                    h2h_of[u] = h2h[u]
                    sort_keys[u].append(-h2h[u])
            continue
        for u, so_far in sort_keys.items():
            so_far.append(sort_value(rows[u], key))
    if place is None:
        place = lambda row, rank, h2h: (_evolve(row, rank=rank) if h2h is None  # noqa: E731
                                        else _evolve(row, rank=rank, head_to_head=h2h))
    ranked = []
    prev: list[float] | None = None
    rank = 0
    for i, u in enumerate(sorted(rows, key=lambda u: (sort_keys[u], u)), 1):
        if sort_keys[u] != prev:
            rank, prev = i, sort_keys[u]
        ranked.append(place(rows[u], rank, h2h_of.get(u)))
    return ranked


def _evolve(row: Row, **changes: Any) -> Row:
    """``attrs.evolve(row, **changes)`` for a row class whose fields are all its ``__init__``'s
    arguments in order (:class:`Standing`, a team's row): the same row, four times faster (a
    standings of 10,000 players ranks every row)."""
    cls = type(row)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in attrs.fields(cls))
    return cls(*[changes[n] if n in changes else getattr(row, n) for n in names])


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def head_to_head(group: Sequence[int], played: Iterable[tuple[dict[int, str], dict[str, int], str | None]],
                 partnership: bool) -> dict[int, float]:
    """Each unit's score in the mini-table of ``group``: only the results between its members.

    Partnership games: a game won against a side holding a member of the group counts 1, a draw
    a half (a unit's partner in a rotating event is not its opponent).  Multi-player tables: each
    other member of the group seated at the same table and placed behind it (on the table's
    scores; the game's winner first when the top was tied) counts 1, one level with it a half.
    A group that beat each other in a circle ends level, and falls to the next key.
    """
    members = set(group)
    out = {u: 0.0 for u in group}
    for where, scores, winner in played:
        here = [u for u in where if u in members]
        if len(here) < 2:
            continue
        for u in here:
            mine = where[u]
            rivals = [v for v in here if where[v] != mine]
            if partnership:
                if not rivals:
                    continue
                out[u] += 1.0 if winner == mine else 0.5 if winner is None else 0.0
                continue
            for v in rivals:
                theirs = where[v]
                if scores[mine] != scores[theirs]:
                    out[u] += 1.0 if scores[mine] > scores[theirs] else 0.0
                elif winner in (mine, theirs):
                    out[u] += 1.0 if winner == mine else 0.0
                else:
                    out[u] += 0.5
    return out
