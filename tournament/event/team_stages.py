"""A team event's stages: groups (round robins of teams) and knockouts of teams.

The stages are the event's own (:mod:`tournament.event.stages`: drawn once, their rounds after the
event's, results moving a knockout on in the result's transaction); in a team event a stage's
sides are teams, and each game of its draw is a *team match*: the two teams' pairs at adjacent
tables, seated as a Swiss round seats a match (:func:`tournament.pairing.teams.match_seats`: the
line-up's order, home N-S at the first table; which team is at home as in the rounds,
:func:`tournament.pairing.teams.home_first`).  A match's tables are its match's rows in
``match_tables``, numbered 1, 2, (3) by board (a set's later games follow on).

A knockout tie is decided by the match (:func:`match_places`): the games won; level, the event's
team tie-breaks that a single match can tell (efectividad, points for), in their order; level
still, the better seed goes through.  In an event of sets the tie is the set, won by the first
team to its target, which rises for the semi-finals and the final to the stage's ``final_set``
(``--final-set``; the ``team-pairs`` preset: 75, the international team-pairs rule).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from tournament.errors import Refused
from tournament.event import changes
from tournament.pairing import brackets, teams as pairing
from tournament.settings import PRESETS, Settings
from tournament.store import squads as sql
from tournament.store.event_store import EventStore
from tournament.values import Result, SeatAssignment, Table

#: The team tie-breaks one match can tell apart (the others are a whole event's).
MATCH_KEYS = ("efectividad", "for")


def default_final_set(settings: Settings) -> int | None:
    """The semi-finals' and final's set target a knockout of teams takes unless told: the
    preset's (``team-pairs``: 75), else the event's own set target."""
    preset = PRESETS.get(settings.preset or "")
    return (preset.final_set if preset is not None and preset.final_set else None) or settings.team_set


def set_target(store: EventStore, round_no: int) -> int | None:
    """The game points a set of ``round_no`` is played to: the stage's ``final_set`` in a
    knockout's last two rounds (the semi-finals and the final), the event's ``team_set`` else."""
    target = store.settings.team_set
    if not target or not store.has_stage_tables():
        return target
    from tournament.event import stages

    stage = stages.stage_of_round(store, round_no)
    if stage is None or not stage.knockout or not stage.options.get("final_set"):
        return target
    last = len(stage.bracket().round_labels)
    return int(stage.options["final_set"]) if round_no - stage.offset >= last - 1 else target


def set_targets(store: EventStore) -> dict[int, int]:
    """Round -> its sets' target, for the rounds whose target is not the event's."""
    if not store.settings.team_set or not store.has_stage_tables():
        return {}
    out = {}
    for n in store.round_stage():
        t = set_target(store, n)
        if t != store.settings.team_set and t is not None:
            out[n] = t
    return out


def squad_names(store: EventStore) -> dict[int, str]:
    return {s.id: s.name for s in sql.squads(store)}


def squad_of(store: EventStore) -> dict[int, int]:
    """Player -> their team (a reserve's too)."""
    return pairing.squad_of_players(sql.squads(store), store.teams())


def active_squads(store: EventStore, round_no: int) -> list[int]:
    pairs = {t.id for t in store.teams() if t.active_in(round_no)}
    return [s.id for s in sql.squads(store) if s.active_in(round_no) and set(s.pairs) & pairs]


def match_tables_seats(store: EventStore, sides: tuple[int, int], round_no: int) -> list[tuple[SeatAssignment, ...]]:
    """A stage's team match of ``round_no`` between ``sides`` (the first the higher seed): its tables'
    seats, board by board.  Refused when a team cannot field all its pairs (a pair gone mid-stage:
    bring a reserve into it, ``tournament team EVENT sub``)."""
    squads = {s.id: s for s in sql.squads(store)}
    teams = store.teams()
    active = {t.id: t.active_in(round_no) for t in teams}
    players_of = pairing.members_in(teams, sql.substitutions(store), round_no)
    lineups = sql.lineups(store, round_no)
    lines = {}
    for u in sides:
        s = squads[u]
        line = tuple(p for p in (lineups.get(u) or s.pairs) if active.get(p))
        if len(line) != store.settings.pairs_a_team:
            raise Refused(f"team {s.name} has {len(line)} pair{'' if len(line) == 1 else 's'} to play, not "
                          f"{store.settings.pairs_a_team}: in a stage every pair plays; bring a reserve into the "
                          f"pair that left (tournament team EVENT sub)")
        lines[u] = line
    home, away = pairing.home_first(sides[0], sides[1], pairing.home_history(store.tables(), squad_of(store)))
    return pairing.match_seats(lines[home], lines[away], players_of, active)


def match_places(store: EventStore, stage: Any, tables: Sequence[Table], results: Mapping[int, Result],
                 target: int | None) -> tuple[tuple[int, ...], ...] | None:
    """A knockout tie's result as the bracket reads it, the winner first; None while it is played.

    Without sets: once every table has its result, the team with more games won; level, the
    event's team tie-breaks one match can tell (:data:`MATCH_KEYS`, in the event's order, else
    efectividad then points for); level still, the better seed.  With sets: the set's winner."""
    sides_of = squad_of(store)
    if target:
        match = pairing.round_matches(tables, results, sides_of, target)
        if not match or match[0].winner is None:
            return None
        m = match[0]
        return ((m.winner,), (m.away if m.winner == m.home else m.home,))
    if any(t.id not in results for t in tables):
        return None
    acc: dict[int, dict[str, float]] = {}
    for t in tables:
        sides = pairing.table_sides(t, sides_of)
        r = results[t.id]
        for side, unit in sides.items():
            other = next(x for x in sides if x != side)
            a = acc.setdefault(unit, {"games": 0.0, "for": 0.0, "efectividad": 0.0})
            a["games"] += 1.0 if r.winner == side else 0.5 if r.winner is None else 0.0
            a["for"] += r.scores.get(side, 0)
            a["efectividad"] += r.scores.get(side, 0) - r.scores.get(other, 0)
    keys = ["games"] + [k for k in store.settings.team_tiebreaks if k in MATCH_KEYS] + \
        [k for k in MATCH_KEYS if k not in store.settings.team_tiebreaks]
    seed = {u: i for i, u in enumerate(stage.seeds)}
    order = sorted(acc, key=lambda u: (*(-acc[u][k] for k in keys), seed.get(u, len(seed))))
    return tuple((u,) for u in order)


def games_of(store: EventStore, stage: Any) -> list[brackets.Game]:
    """A knockout of teams' decided matches as bracket games (one a match)."""
    results = store.results()
    tables = {t.id: t for t in store.tables()}
    by_key: dict[str, list[Table]] = {}
    for row in store.match_tables(stage.id):
        by_key.setdefault(row["key"], []).append(tables[row["table_id"]])
    out = []
    for key, mine in by_key.items():
        places = match_places(store, stage, mine, results, set_target(store, mine[0].round))
        if places is not None:
            out.append(brackets.Game(key, places))
    return out


def seat_round_robin(store: EventStore, stage: Any) -> None:
    """Within the write that draws a round robin (or groups) of teams: every round's matches seated,
    each match at adjacent tables."""
    from tournament.event import stages
    from tournament.pairing import roundrobin

    sched = stage.schedule()
    grouped = len(sched.groups) > 1

    def key(p: roundrobin.Pairing, r: int, i: int) -> str:
        return f"G{roundrobin.group_name(p.group)}{r}-{i}" if grouped else f"RR{r}-{i}"

    store.insert_matches(stage.id, [
        (key(p, r, i), stage.event_round(r), i, stage.round_label(r),
         '[{"kind": "seed", "unit": %d}, {"kind": "seed", "unit": %d}]' % (p.home, p.away))
        for r, games in enumerate(sched.rounds, 1) for i, p in enumerate(games, 1)])
    matches = store.matches(stage.id)
    for r, games in enumerate(sched.rounds, 1):
        number = stage.event_round(r)
        for i, p in enumerate(games, 1):
            k = key(p, r, i)
            for board, seats in enumerate(match_tables_seats(store, (p.home, p.away), number), 1):
                tno = max(store.table_numbers(number), default=0) + 1
                stages.seat_stage_table(store, stage, number, tno, seats, matches[k]["id"], k, board)


def advance(store: EventStore, stage: Any, reseated: list[Table] | None = None) -> list[Table]:
    """Within a write: a knockout of teams after a result: each match that has become due seated
    (its tables after the round's last); a match whose sides a corrected result changed re-seated
    while none of its tables has a result, refused once one has (as a knockout of pairs)."""
    from tournament.event import stages

    bracket = stage.bracket()
    results = store.results()
    try:
        state = brackets.resolve(bracket, stage.seeds, games_of(store, stage))
    except brackets.GameOutOfPlace as e:
        raise stages.StageError(f"this would change who plays {e.key}, which already has a result: a knockout "
                                f"result can be corrected only while the match it decided has no result; nothing "
                                f"was changed") from None
    matches = store.matches(stage.id)
    tables = {t.id: t for t in store.tables()}
    seated: dict[str, list[dict[str, Any]]] = {}
    for row in store.match_tables(stage.id):
        seated.setdefault(row["key"], []).append(row)
    sides_of = squad_of(store)
    new: list[Table] = []
    for ms in state.matches:
        m = ms.match
        rows = seated.get(m.key, [])
        where = f"{m.key} ({bracket.round_labels[m.round - 1]})"
        if ms.status in (brackets.WAITING, brackets.VOID, brackets.WALKOVER):
            if rows:
                raise stages.StageError(f"this would change who plays {where}, already seated at round "
                                        f"{rows[0]['round']} table {rows[0]['tno']}; nothing was changed")
            continue
        sides = (ms.sides[0], ms.sides[1])
        if rows and {sides_of.get(p) for r in rows for p in tables[r["table_id"]].players} != set(sides):
            played = [r for r in rows if r["table_id"] in results]
            if reseated is None or played:
                at = played[0] if played else rows[0]
                raise stages.StageError(f"this would change who plays {where}, whose match at round {at['round']} "
                                        f"table {at['tno']} has begun: a knockout result can be corrected only "
                                        f"while the match it decided has no result; nothing was changed")
            fresh = match_tables_seats(store, sides, rows[0]["round"])  # type: ignore[arg-type]
            for row, seats in zip(rows, fresh):
                store.reseat_table(row["table_id"], seats)
                stages._table_change(store, changes.TABLE_RESEATED, stage, row["round"], row["tno"], seats, m.key,
                                     row["game"])
                reseated.append(Table(row["table_id"], row["round"], row["tno"], seats))
            continue
        if ms.status == brackets.DECIDED or rows:
            continue  # decided, or being played (a set's next games are seated by its results)
        number = stage.event_round(m.round)
        for board, seats in enumerate(match_tables_seats(store, sides, number), 1):  # type: ignore[arg-type]
            tno = max(store.table_numbers(number), default=0) + 1
            tid = stages.seat_stage_table(store, stage, number, tno, seats, matches[m.key]["id"], m.key, board)
            new.append(Table(tid, number, tno, seats))
    return new


def stage_link(store: EventStore, table: Table) -> tuple[Any, int, str, int] | None:
    """A stage table's stage, match id, match key and the next game number of its match (for a
    set's next game, seated as a table of the match); None for a table of the rounds."""
    from tournament.event import stages

    if not store.has_stage_tables():
        return None
    stage = stages.stage_of_round(store, table.round)
    if stage is None:
        return None
    rows = store.match_tables(stage.id)
    key = next((r["key"] for r in rows if r["table_id"] == table.id), None)
    if key is None:
        return None
    return stage, store.matches(stage.id)[key]["id"], key, max(r["game"] for r in rows if r["key"] == key) + 1


def team_stage_standings(store: EventStore, stage: Any, group: int | None = None) -> pairing.TeamStandings:
    """The team standings of one stage's matches (``None``: the rounds), or of one of its groups."""
    sid = stage.id if stage is not None else 1
    rounds = {n for n, s in store.round_stage().items() if s == sid}
    squads = sql.squads(store)
    if group is not None:
        members = set(stage.schedule().groups[group])
        squads = [s for s in squads if s.id in members]
    of = pairing.squad_of_players(squads, store.teams())
    tables = [t for t in store.tables() if t.round in rounds and all(p in of for p in t.players)]
    byes = {r: [p for p in v if p in of] for r, v in store.byes().items() if r in rounds}
    return pairing.compute_teams(store.settings, squads, store.teams(), store.players(), tables, store.results(),
                                 byes, targets=set_targets(store))


def group_rows(store: EventStore, stage: Any, group: int) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """A group's team standings as the pages show a standings table: rows (``name``, …) and keys."""
    table = team_stage_standings(store, stage, group)
    rows = []
    for r in table.rows:
        d = r.to_dict()
        rows.append({"rank": d["rank"], "id": d["id"], "name": d["team"], "played": d["played"],
                     "won": d["won"], "lost": d["lost"], "for": d["points_for"], "against": d["points_against"],
                     "efectividad": d["efectividad"], "match_points": d["match_points"]})
    return rows, table.tiebreaks
