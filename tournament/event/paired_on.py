"""The standings a Swiss round was paired on, kept with the round, and the same standings worked
out again from the results as they are now (``tournament check``, and the line a correction
prints when it changes what an unplayed round was paired on).

A pairs, rotating or individual event is paired on its own standings (of pairs, or of players).
A team event is paired on the *team* standings (teams, never pairs, meet), so those are the ones
kept and compared there: units are teams, valued by the event's team tie-breaks.  A team event
paired before this was so kept its pairs' standings; those are still compared as pairs'."""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import attrs

from tournament.pairing import standings as st
from tournament.pairing.teams import TeamStandings, compute_teams
from tournament.settings import PAIRS
from tournament.store.event_store import EventStore
from tournament.values import Player, Result, Squad, Table, Team

#: A unit's rank and its tie-break values, as a round was paired on them.
Row = tuple[int, dict[str, Any]]

#: The team tie-breaks' values as a sentence names them.
TEAM_KEY_WORDS = {"games": "games won", "efectividad": "efectividad", "match-points": "match points",
                  "for": "points for", "head-to-head": "head-to-head",
                  # duplicate teams' (tournament.event.duplicate_teams.kept_rows)
                  "victory_points": "victory points", "match_points": "match points",
                  "imps": "IMP difference", "imps_for": "IMPs won"}


@attrs.frozen
class Recomputed:
    """The standings a round was paired on, worked out again: each unit's rank and values, the
    units' names as a warning names them, the keys in order, and what a unit is (``team``,
    ``pair``, ``player``)."""

    rows: dict[int, Row]
    names: dict[int, str]
    tiebreaks: tuple[str, ...]
    unit: str

    def key_words(self, key: str) -> str:
        return TEAM_KEY_WORDS.get(key, key) if self.unit == "team" else key


def kept_rows(current: st.Standings | TeamStandings | None) -> list[tuple[int, int, dict[str, Any]]]:
    """What a round about to be paired keeps as the standings it is paired on (``current``: a
    team event's team standings, else the event's own): each unit, its rank and its tie-break
    values; nothing for a first round."""
    if current is None:
        return []
    if isinstance(current, TeamStandings):
        return [(r.team, r.rank, {k: r.value(k) for k in current.tiebreaks}) for r in current.rows]
    return [(s.unit, s.rank, s.values(current.tiebreaks)) for s in current.rows]


def recompute(store: EventStore, number: int, used: Mapping[int, Row], players: Sequence[Player],
              teams: Sequence[Team], tables: Sequence[Table], results: Mapping[int, Result],
              byes: Mapping[int, Sequence[int]], squads: Sequence[Squad] | None = None) -> Recomputed:
    """The standings round ``number`` was paired on, from the results now: after round
    ``number - 1``, among the units entered by then (a late entry changes no standing a round
    used).  ``used``: what the round kept, which says whether a team event kept its teams'."""
    settings = store.settings
    if settings.team_duplicate and any("imps" in values for _, values in used.values()):
        return _duplicate_teams(store, number, squads)
    if settings.teams:
        if squads is None:
            from tournament.event.teams import squads as load

            squads = load(store)
        entered = [s for s in squads if s.entered <= number]
        if set(used) <= {s.id for s in entered}:
            table = compute_teams(settings, entered, teams, players, tables, results, byes, number - 1)
            return Recomputed({r.team: (r.rank, {k: r.value(k) for k in table.tiebreaks}) for r in table.rows},
                              {r.team: r.name for r in table.rows}, table.tiebreaks, "team")
    from tournament.store.desk import sit_outs

    again = st.compute(settings, [p for p in players if p.entered <= number],
                       [t for t in teams if t.entered <= number], tables, results, byes, number - 1,
                       sit_outs(store))
    pairs = settings.format == PAIRS
    names = {s.unit: s.name if pairs else f"{s.name} (#{s.unit})" for s in again.rows}
    return Recomputed({s.unit: (s.rank, s.values(again.tiebreaks)) for s in again.rows}, names, again.tiebreaks,
                      "pair" if pairs else "player")


def _duplicate_teams(store: EventStore, number: int, squads: Sequence[Squad] | None) -> Recomputed:
    """A Swiss round of duplicate teams was paired on the teams' victory (or match) points, IMP
    difference and IMPs won after the round before, among the teams entered by then."""
    from tournament.event import duplicate_teams

    if squads is None:
        from tournament.event.teams import squads as load

        squads = load(store)
    entered = {s.id for s in squads if s.entered <= number}
    kept = [row for row in duplicate_teams.kept_rows(duplicate_teams.standings(store, number - 1))
            if row[0] in entered]
    rows: dict[int, Row] = {}
    previous: tuple[int, dict[str, Any]] | None = None
    for place, (team, _, values) in enumerate(kept, 1):  # ranked again among them alone
        rank = previous[0] if previous is not None and previous[1] == values else place
        rows[team] = (rank, values)
        previous = (rank, values)
    names = {s.id: s.name for s in squads}
    keys = tuple(kept[0][2]) if kept else ()
    return Recomputed(rows, {u: names.get(u, f"#{u}") for u in rows}, keys, "team")


def changed(used: Mapping[int, Row], now: Recomputed) -> list[int]:
    """The units whose rank or values differ between what the round used and now.  Values are
    compared to within float noise: an older version added placement points as rounded floats
    (3.333333 three times: 9.999999 where 10 is kept now), which is no change of standing."""
    moved = [u for u in set(used) | set(now.rows) if not _same(used.get(u), now.rows.get(u))]
    if all(u in used and u in now.rows and _same_values(used[u][1], now.rows[u][1]) for u in moved):
        # Every value as it was and only ranks moved: the older rounding told apart units that
        # are level (9.999999 ranked below 10), which is no change of standing either.
        return []
    return moved


def _same(then: Row | None, now: Row | None) -> bool:
    if then is None or now is None or then[0] != now[0]:
        return then == now
    return _same_values(then[1], now[1])


def _same_values(then: dict[str, Any], now: dict[str, Any]) -> bool:
    """The same values, to within float noise (see :func:`changed`)."""
    return set(then) == set(now) and all(
        a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                   and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-5))
        for a, b in ((then[k], now[k]) for k in then))
