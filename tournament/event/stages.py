"""Stages after (or instead of) the Swiss rounds: knockouts and round robins.

A stage is drawn once, when it is created (``tournament knockout`` /
``tournament roundrobin``): its sides in seed order and its options are kept
in the ``stages`` row, its draw in ``matches``.  Its rounds continue the
event's round numbers (a knockout after five Swiss rounds starts at round 6),
so "round 7 table 2" means one table whatever the stage.

A match's games are ordinary tables of ordinary rounds: results still come in
only as domrec-checked records or marked manual scores.  After every result
(in the same transaction) :func:`advance` replays the stage's results over
its draw (:func:`tournament.pairing.brackets.resolve`) and seats the games that have
become due: the next game of an undecided match, the first game of a match
whose sides are now known.  A match that is not due has no table, so a result
for it is refused.  A replaced (amended) result that changes who plays a game
already seated re-seats that game's table while it has no result; once it
has one, the replacement is refused (the bracket cannot be rewritten under a
game already played).

Round robins are seated whole when the stage is created.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

import attrs

from domrec import games as engines

from tournament.errors import Refused, ResultRefused, SettingsError, UnknownPlayer, UnusableInput
from tournament.event import changes
from tournament.pairing import brackets, roundrobin, standings as st, teams as team_pairing
from tournament.settings import INDIVIDUAL, PAIRS, PRESETS, ROTATING, Settings
from tournament.store import squads as squad_sql
from tournament.store.event_store import EventStore
from tournament.values import Result, SeatAssignment, Table

ROUND_ROBIN = "roundrobin"
#: The final tables of a rotating-partner event (:mod:`tournament.event.finals`): made by ``tournament
#: final``, never by :func:`create_stage`, so not one of the ``STAGE_FORMATS``.
FINAL_TABLE = "final-table"
STAGE_FORMATS = brackets.KINDS + (ROUND_ROBIN,)
SEEDINGS = ("list", "standings", "random", "groups")


class StageError(Refused):
    """A stage that cannot be created, or a result that the stage cannot take."""


@attrs.frozen
class Stage:
    id: int
    name: str
    format: str  # single, double, multi, roundrobin
    seeds: tuple[int, ...]  # units (pairs or players) in seed order
    offset: int  # event round = offset + the stage's round
    options: dict[str, Any]

    @property
    def knockout(self) -> bool:
        return self.format in brackets.KINDS

    def bracket(self) -> brackets.Bracket:
        o = self.options
        return brackets.build(self.format, len(self.seeds), third_place=o.get("third_place", False),
                              reset=o.get("reset", True), wins_needed=o.get("wins_needed", 1),
                              table_size=o.get("table_size", 0), advance=o.get("advance", 0),
                              counts=o.get("counts", ()))

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """A knockout of pairs formed from a rotating event's standings (:mod:`tournament.event.finals`):
        side ``i`` (from 1) is the players ``sides[i - 1]``.  Empty: the sides are the event's own
        units (pairs, or players)."""
        return tuple(tuple(s) for s in self.options.get("sides", ()))

    def schedule(self) -> roundrobin.Schedule:
        return roundrobin.schedule(self.seeds, self.options.get("groups", 1), self.options.get("double", False))

    def event_round(self, stage_round: int) -> int:
        return self.offset + stage_round

    def round_label(self, stage_round: int) -> str:
        if self.knockout:
            return self.bracket().round_labels[stage_round - 1]
        if self.format == FINAL_TABLE:
            return f"final{' tables' if len(self.seeds) > 4 else ''}, game {stage_round}"
        leg = ""
        sched = self.schedule()
        if sched.double:
            half = len(sched.rounds) // 2
            leg = f" (leg {1 if stage_round <= half else 2})"
        return f"round-robin round {stage_round}{leg}"


def main_round_label(format: str, number: int, moved: bool = False) -> str:
    """A round before any knockout or round robin: a Swiss round in a pairs event, a plain round
    otherwise (rotating partners and individual tables are not paired Swiss, nor are a duplicate
    event's pairs, ``moved`` by their movement)."""
    return f"Swiss round {number}" if format == PAIRS and not moved else f"round {number}"


def load(store: EventStore) -> list[Stage]:
    """Every stage after the main (Swiss) one."""
    out = []
    for row in store.stages():
        if row["id"] == 1:
            continue
        s = row["settings"]
        out.append(Stage(row["id"], row["name"], row["format"], tuple(s["seeds"]), s["offset"], s))
    return out


def current(store: EventStore) -> Stage | None:
    stages = load(store)
    return stages[-1] if stages else None


def chosen_stage(store: EventStore, stage_id: int | None) -> Stage:
    """A stage by its number (``None``: the last), refused when the event has no such stage."""
    all_stages = load(store)
    if not all_stages:
        raise UnusableInput("this event has no knockout or round-robin stage (start one with `tournament "
                            "knockout` or `tournament roundrobin`)")
    chosen = all_stages[-1] if stage_id is None else next((x for x in all_stages if x.id == stage_id), None)
    if chosen is None:
        raise UnusableInput(f"no stage {stage_id}; stages: {', '.join(str(x.id) for x in all_stages)}")
    return chosen


def stage_of_round(store: EventStore, round_number: int) -> Stage | None:
    sid = store.round_stage().get(round_number)
    return next((s for s in load(store) if s.id == sid), None)


# --- units: pairs or players ---------------------------------------------------------


def unit_names(store: EventStore) -> dict[int, str]:
    if store.settings.teams:  # a team event's stages are of teams
        return squad_names(store)
    if store.settings.format == PAIRS:
        return {t.id: t.name for t in store.teams()}
    return {p.id: p.name for p in store.players()}


def side_members(store: EventStore, stage: Stage | None) -> dict[int, tuple[int, ...]]:
    """A stage's sides and their players: the stage's own sides (pairs formed for a rotating
    event's final), else the event's units."""
    if stage is not None and stage.sides:
        return {i: s for i, s in enumerate(stage.sides, 1)}
    return _members(store)


def side_names(store: EventStore, stage: Stage | None) -> dict[int, str]:
    """The names of a stage's sides: a formed pair is its players' names, "Ana & Di"."""
    if stage is not None and stage.sides:
        names = {p.id: p.name for p in store.players()}
        return {i: " & ".join(names[p] for p in s) for i, s in enumerate(stage.sides, 1)}
    return unit_names(store)


def side_of_player(store: EventStore, stage: Stage | None) -> dict[int, int]:
    return {p: u for u, members in side_members(store, stage).items() for p in members}


def _active_units(store: EventStore, round_no: int) -> list[int]:
    if store.settings.teams:
        return active_squads(store, round_no)
    if store.settings.format == PAIRS:
        return [t.id for t in store.teams() if t.active_in(round_no)]
    return [p.id for p in store.players() if p.active_in(round_no)]


def find_unit(store: EventStore, key: str) -> int:
    """A pair (by its name or a member's) or a player, by name or number (a team event: a team)."""
    if store.settings.teams:
        return find_squad_id(store, key)
    if store.settings.format == PAIRS:
        from tournament.event.numbering import find_pair

        return find_pair(store, key).id
    return store.find_player(key).id


def _check_format(settings: Settings, fmt: str) -> None:
    if fmt not in STAGE_FORMATS:
        raise SettingsError(f"unknown stage format {fmt!r}; formats: {', '.join(STAGE_FORMATS)}")
    if settings.format == ROTATING:
        raise SettingsError("a rotating-partner event has no fixed sides, so it cannot have a knockout or round "
                            "robin of its own; its final is `tournament final` (final tables of four, or a "
                            "knockout of pairs formed from the standings)")
    if settings.format == INDIVIDUAL:
        if fmt == brackets.MULTI and settings.table_size < 3:
            raise SettingsError("a multi-player knockout needs tables of 3 to 6 (this event seats "
                                f"{settings.table_size}); use single or double elimination")
        if fmt != brackets.MULTI and settings.table_size != 2:
            raise SettingsError(f"this event seats {settings.table_size} at a table: use --format multi (the top "
                                f"players of each table advance); head-to-head formats need tables of 2")
    if settings.format == PAIRS and fmt == brackets.MULTI:
        raise SettingsError("a multi-player knockout is for individual games at tables of 3 to 6; a pairs event "
                            "plays single or double elimination")


# --- seeding ---------------------------------------------------------------------------


def seed_order(store: EventStore, seeding: str, names: Sequence[str] = (), top: int | None = None,
               per_group: int | None = None) -> list[int]:
    """The stage's sides, best seed first.

    ``list``: the names (or numbers) given, in order.  ``standings``: the standings of
    everything played so far (or of the last stage).  ``random``: every active side, in an
    order drawn from the event's seed.  ``groups``: the top ``per_group`` of each group of the
    last (round-robin) stage, group winners first, then the runners-up, …, each tier in group
    order but arranged so that two sides of one group do not meet in the first round where
    that can be avoided.
    """
    nxt = store.last_round() + 1
    active = _active_units(store, nxt)
    if seeding == "list":
        if not names:
            raise UsageError("--seeding list needs the sides in seed order (--seeds or --seeds-file)")
        order = [find_unit(store, n) for n in names]
        if len(set(order)) != len(order):
            dup = Counter(order).most_common(1)[0][0]
            raise StageError(f"{unit_names(store)[dup]!r} is listed twice in the seeds")
        gone = [u for u in order if u not in active]
        if gone:
            raise StageError(f"{unit_names(store)[gone[0]]!r} has withdrawn and cannot be seeded")
    elif seeding == "random":
        order = list(active)
        random.Random(f"tournament:{store.settings.seed}:stage:{len(store.stages()) + 1}").shuffle(order)
    elif seeding == "standings" and store.settings.teams:
        order = [u for u in team_stage_standings(store, current(store)).ranking() if u in active]
    elif seeding == "standings":
        table = stage_standings(store, current(store))
        order = [s.unit for s in table.rows if s.unit in active]
    elif seeding == "groups":
        return _group_seeds(store, per_group or 2, top)
    else:
        raise UsageError(f"unknown seeding {seeding!r}; seedings: {', '.join(SEEDINGS)}")
    if top is not None:
        if top < 2:
            raise UsageError("--top must be at least 2")
        order = order[:top]
    return order


class UsageError(UnusableInput):
    pass


def _group_seeds(store: EventStore, per_group: int, top: int | None) -> list[int]:
    last = current(store)
    if last is None or last.format != ROUND_ROBIN:
        raise StageError("--seeding groups needs a round-robin stage (groups) to have been played")
    sched = last.schedule()
    tiers: list[list[tuple[int, int]]] = [[] for _ in range(per_group)]
    for gi, members in enumerate(sched.groups):
        if store.settings.teams:
            ranked = team_stage_standings(store, last, gi).ranking()
        else:
            ranked = [s.unit for s in group_standings(store, last, gi).rows]
        if len(ranked) < per_group:
            raise StageError(f"group {roundrobin.group_name(gi)} has {len(ranked)} sides; {per_group} cannot "
                             f"advance from it")
        for p in range(per_group):
            tiers[p].append((ranked[p], gi))
    order: list[tuple[int, int]] = list(tiers[0])
    for tier in tiers[1:]:
        order += _avoid_same_group(order, tier)
    units = [u for u, _ in order]
    return units[:top] if top else units


def group_level_notes(store: EventStore, per_group: int) -> list[str]:
    """Before ``--seeding groups`` draws from the last (round-robin) stage: where sides level on
    every ranking key straddle a line the draw goes by, which the standings' order (the lower
    number: the rows' last key) decided, one line each, for the director to hear: at the cut (one
    goes through, the other does not) and between two places that go through (which is seeded as
    the group's winner).  Empty where nothing was so decided, or no groups were played.  A
    director who would decide otherwise draws with ``--seeding list``."""
    last = current(store)
    if last is None or last.format != ROUND_ROBIN:
        return []
    word = "team" if store.settings.teams else "pair" if store.settings.format == PAIRS else "player"
    notes = []
    for gi in range(len(last.schedule().groups)):
        if store.settings.teams:
            table: Any = team_stage_standings(store, last, gi)
            rows = [(r.rank, r.team, r.name) for r in table.rows]
        else:
            table = group_standings(store, last, gi)
            rows = [(r.rank, r.unit, r.name) for r in table.rows]
        keys = ", ".join(table.tiebreaks)
        for p in range(min(per_group, len(rows) - 1)):
            if rows[p][0] != rows[p + 1][0] or (p > 0 and rows[p - 1][0] == rows[p][0]):
                continue  # (a level run is told once, from its first row)
            level = [r for r in rows if r[0] == rows[p][0]]
            named = _and_names([r[2] for r in level])
            place = _ordinal(rows[p][0])
            inside = [r[2] for i, r in enumerate(rows) if r[0] == rows[p][0] and i < per_group]
            if len(inside) < len(level):
                outside = [r[2] for i, r in enumerate(rows) if r[0] == rows[p][0] and i >= per_group]
                how = (f"{_and_names(inside)} {'goes' if len(inside) == 1 else 'go'} through, "
                       f"{_and_names(outside)} {'does' if len(outside) == 1 else 'do'} not")
            else:
                how = f"they are seeded {', '.join(r[2] + ' ' + _ordinal(i + 1) for i, r in enumerate(rows) if r in level)}"
            notes.append(f"note: group {roundrobin.group_name(gi)}: {named} are level on every ranking key ({keys}) at "
                         f"{place}; the standings' order (by {word} number) decided: {how} (to decide otherwise, "
                         f"draw with --seeding list)")
    return notes


def _and_names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _avoid_same_group(above: list[tuple[int, int]], tier: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Arrange a tier of seeds so that no first-round match of the draw pairs two of one group
    (tried: the tier as it is, rotated, reversed and rotated)."""
    import itertools
    total = len(above) + len(tier)
    size = brackets.draw_size(total)
    order = brackets.standard_order(size)
    candidates: Iterable[Sequence[tuple[int, int]]]
    if len(tier) <= 7:
        candidates = itertools.permutations(tier)
    else:
        candidates = [tier[i:] + tier[:i] for i in range(len(tier))] + \
                     [list(reversed(tier))[i:] + list(reversed(tier))[:i] for i in range(len(tier))]
    best, best_clash = list(tier), None
    for cand in candidates:
        seeds = above + list(cand)
        clash = sum(1 for i in range(0, size, 2)
                    if order[i] <= total and order[i + 1] <= total and seeds[order[i] - 1][1] == seeds[order[i + 1] - 1][1])
        if best_clash is None or clash < best_clash:
            best, best_clash = list(cand), clash
        if clash == 0:
            break
    return best


def _stage_rounds(store: EventStore, stage: Stage | None) -> set[int]:
    sid = stage.id if stage else 1
    return {n for n, s in store.round_stage().items() if s == sid}


def stage_standings(store: EventStore, stage: Stage | None) -> st.Standings:
    """The standings of one stage's games only (``None``: the main, Swiss stage)."""
    rounds = _stage_rounds(store, stage)
    tables = [t for t in store.tables() if t.round in rounds]
    byes = {r: v for r, v in store.byes().items() if r in rounds}
    from tournament.store.desk import sit_outs

    return st.compute(store.settings, store.players(), store.teams(), tables, store.results(), byes,
                      sat_out=sit_outs(store))


def group_standings(store: EventStore, stage: Stage, group: int) -> st.Standings:
    members = set(stage.schedule().groups[group])
    rounds = _stage_rounds(store, stage)
    pairs = store.settings.format == PAIRS
    players = [p for p in store.players() if (p.team if pairs else p.id) in members]
    teams = [t for t in store.teams() if t.id in members]
    ids = {p.id for p in players}
    tables = [t for t in store.tables() if t.round in rounds and set(t.players) <= ids]
    return st.compute(store.settings, players, teams, tables, store.results(), {})


# --- creating a stage ----------------------------------------------------------------------


def _previous_finished(store: EventStore) -> None:
    results = store.results()
    open_tables = [t for t in store.tables() if t.id not in results]
    if open_tables:
        t = open_tables[0]
        raise StageError(f"round {t.round} table {t.number} has no result yet; a new stage starts when every "
                         f"table so far has one ({len(open_tables)} missing)")


def create_stage(store: EventStore, fmt: str, seeding: str = "standings", names: Sequence[str] = (),
                 top: int | None = None, per_group: int | None = None, *, third_place: bool = False,
                 reset: bool = True, wins_needed: int = 1, advance: int = 2, groups: int = 1,
                 double: bool = False, name: str | None = None, final_set: int | None = None) -> Stage:
    """Draw a new stage (knockout or round robin) and seat what is due, in one transaction."""
    settings = store.settings
    if settings.duplicate or settings.team_duplicate:
        # A duplicate session is a whole: its movement (or its team matches) and its boards' scores.
        raise StageError("a duplicate event has no knockout or round robin stage: its ranking is the boards' "
                         "scores (matchpoints, IMPs or victory points); run the later stage as an event of its own")
    _check_format(settings, fmt)
    if settings.teams and wins_needed != 1:
        raise StageError("a knockout of teams is decided by one team match (its games, then its tie-breaks); "
                         "--first-to is for pairs and players")
    if final_set is not None and not (settings.teams and settings.team_set and fmt in brackets.KINDS):
        raise StageError("--final-set is the semi-finals' and final's set target of a knockout of teams in an event "
                         "of sets (tournament new --team-set N)")
    with store.write():
        _previous_finished(store)
        seeds = seed_order(store, seeding, names, top, per_group)
        if len(seeds) < 2:
            raise StageError(f"a stage needs at least 2 sides; {len(seeds)} are available")
        options: dict[str, Any] = {"seeds": seeds, "offset": store.last_round(), "seeding": seeding}
        if fmt == ROUND_ROBIN:
            options.update(groups=groups, double=double)
        else:
            options.update(third_place=third_place, reset=reset, wins_needed=wins_needed)
            if settings.teams and settings.team_set:
                options.update(final_set=final_set or default_final_set(settings))
        if fmt == brackets.MULTI:
            counts = list(engines.engine(settings.game).player_counts(settings.resolved_options()))
            options.update(table_size=settings.table_size, advance=advance, counts=counts)
        store.upgrade_for_stages()
        label = name or {brackets.SINGLE: "single elimination", brackets.DOUBLE: "double elimination",
                         brackets.MULTI: "multi-player knockout",
                         ROUND_ROBIN: "round robin" if groups == 1 else "groups"}[fmt]
        sid = store.insert_stage(label, fmt, options)
        stage = Stage(sid, label, fmt, tuple(seeds), options["offset"], options)
        stage_created(store, stage)
        if stage.knockout:
            bracket = stage.bracket()
            store.insert_matches(sid, [(m.key, stage.event_round(m.round), m.position, bracket.round_labels[m.round - 1],
                                        json.dumps([attrs.asdict(s) for s in m.sources]))
                                       for m in bracket.matches])
            advance_stage(store, stage)
        else:
            _seat_round_robin(store, stage)
    return stage


def _seat_round_robin(store: EventStore, stage: Stage) -> None:
    """Every round of a round robin (or groups) seated; in a team event each game a team match, its
    tables after the round's last, board by board (:func:`match_tables_seats`)."""
    sched = stage.schedule()
    grouped = len(sched.groups) > 1

    def key(p: roundrobin.Pairing, r: int, i: int) -> str:
        return f"G{roundrobin.group_name(p.group)}{r}-{i}" if grouped else f"RR{r}-{i}"

    store.insert_matches(stage.id, [
        (key(p, r, i), stage.event_round(r), i, stage.round_label(r),
         json.dumps([{"kind": "seed", "unit": p.home}, {"kind": "seed", "unit": p.away}]))
        for r, games in enumerate(sched.rounds, 1) for i, p in enumerate(games, 1)])
    matches = store.matches(stage.id)
    members = None if store.settings.teams else _members(store)
    for r, games in enumerate(sched.rounds, 1):
        number = stage.event_round(r)
        for i, p in enumerate(games, 1):
            k = key(p, r, i)
            if members is None:
                for board, seats in enumerate(match_tables_seats(store, (p.home, p.away), number), 1):
                    tno = max(store.table_numbers(number), default=0) + 1
                    seat_stage_table(store, stage, number, tno, seats, matches[k]["id"], k, board)
                continue
            seats = seat_head_to_head(store.settings, (p.home, p.away), 1, members)
            seat_stage_table(store, stage, number, i, seats, matches[k]["id"], k, 1)


def stage_created(store: EventStore, stage: Stage) -> None:
    """Within the write that draws ``stage``: its change (:mod:`tournament.event.changes`)."""
    changes.record(store, changes.STAGE_CREATED, data={
        "id": stage.id, "name": stage.name, "format": stage.format, "first_round": stage.offset + 1,
        "final": store.settings.format == ROTATING})


def seat_stage_table(store: EventStore, stage: Stage, round_number: int, table_number: int,
                     seats: tuple[SeatAssignment, ...], match_id: int, key: str, game: int) -> int:
    """Within a write: one table of a stage seated (:meth:`EventStore.insert_stage_table`), and its
    ``table_seated`` change."""
    tid = store.insert_stage_table(stage.id, round_number, table_number, seats, match_id, game)
    _table_change(store, changes.TABLE_SEATED, stage, round_number, table_number, seats, key, game)
    return tid


def _table_change(store: EventStore, kind: str, stage: Stage, round_number: int, table_number: int,
                  seats: tuple[SeatAssignment, ...], key: str, game: int) -> None:
    names = {p.id: p.name for p in store.players()}
    changes.record(store, kind, round_number, table_number, {
        "stage": stage.id, "match": key, "game": game, "seats": changes.seats_doc(seats, names)})


def _members(store: EventStore) -> dict[int, tuple[int, ...]]:
    if store.settings.format == PAIRS:
        return {t.id: tuple(t.players) for t in store.teams()}
    return {p.id: (p.id,) for p in store.players()}


def seat_head_to_head(settings: Settings, sides: tuple[int, int], game: int,
                      members: dict[int, tuple[int, ...]]) -> tuple[SeatAssignment, ...]:
    """Game 1: the first side N-S (or the first seat); the sides change seats every game."""
    a, b = sides if game % 2 == 1 else (sides[1], sides[0])
    if settings.partnership:  # a pairs event's pairs, or pairs formed for a rotating event's final
        (n, s), (e, w) = members[a], members[b]
        return (SeatAssignment("N", "NS", n), SeatAssignment("E", "EW", e), SeatAssignment("S", "NS", s),
                SeatAssignment("W", "EW", w))
    seats = settings.seats()
    return (SeatAssignment(seats[0], seats[0], members[a][0]), SeatAssignment(seats[1], seats[1], members[b][0]))


def seat_table(settings: Settings, players: Sequence[int], key: str) -> tuple[SeatAssignment, ...]:
    """A multi-player table: seats drawn from the event's seed and the match."""
    engine = engines.engine(settings.game)
    seats = tuple(engine.seats_for(len(players), settings.resolved_options()))
    order = list(players)
    random.Random(f"tournament:{settings.seed}:table:{key}").shuffle(order)
    return tuple(SeatAssignment(seat, seat, p) for seat, p in zip(seats, order))


# --- replaying results, seating what is due ---------------------------------------------------


def games_of(store: EventStore, stage: Stage, results: dict[int, Result] | None = None,
             tables: dict[int, Table] | None = None) -> list[brackets.Game]:
    """The stage's played games as bracket values (in game order within each match)."""
    if store.settings.teams:  # a team match a game of the draw
        return team_games_of(store, stage)
    results = store.results() if results is None else results
    tables = {t.id: t for t in store.tables()} if tables is None else tables
    side_of = side_of_player(store, stage)
    out = []
    for row in store.match_tables(stage.id):
        res = results.get(row["table_id"])
        if res is None:
            continue
        table = tables[row["table_id"]]
        unit_of_side: dict[str, int] = {}
        for s in table.seats:
            unit_of_side[s.side] = side_of[s.player]
        out.append(brackets.Game(row["key"], places(res, unit_of_side, store.settings)))
    return out


def places(result: Result, unit_of_side: dict[str, int], settings: Settings) -> tuple[tuple[int, ...], ...]:
    """A table's result as the sides' finishing order (level sides grouped)."""
    if len(unit_of_side) == 2:
        if result.winner is None:
            return (tuple(unit_of_side.values()),)
        other = next(s for s in unit_of_side if s != result.winner)
        return ((unit_of_side[result.winner],), (unit_of_side[other],))
    points = st.placements(result.scores, result.winner,
                           [float(len(unit_of_side) - i) for i in range(len(unit_of_side))])
    groups: list[tuple[int, ...]] = []
    for value in sorted(set(points.values()), reverse=True):
        groups.append(tuple(unit_of_side[s] for s in points if points[s] == value))
    return tuple(groups)


def state_of(store: EventStore, stage: Stage) -> brackets.BracketState:
    return brackets.resolve(stage.bracket(), stage.seeds, games_of(store, stage))


def _replayed(store: EventStore, stage: Stage) -> tuple[dict[int, Result], dict[str, dict[str, Any]], dict[int, Table],
                                                       list[tuple[Any, list[dict[str, Any]], str]]]:
    """A knockout's draw replayed over its results, and what seating after it reads: the results,
    its matches, every table by id, and each match's state with its seated tables and its name
    ("W2-1 (semi-final)").  Refused when a corrected result changed who should have played a game
    already played."""
    bracket = stage.bracket()
    results = store.results()
    try:
        state = brackets.resolve(bracket, stage.seeds, games_of(store, stage, results))
    except brackets.GameOutOfPlace as e:  # a corrected result changed who should have played a game played
        played = next((r for r in store.match_tables(stage.id) if r["key"] == e.key and r["table_id"] in results),
                      None)
        at = f" at round {played['round']} table {played['tno']}" if played else ""
        raise StageError(f"this would change who plays {e.key}, whose game{at} already has a result: a knockout "
                         f"result can be corrected only while the match it decided has no result; nothing was "
                         f"changed") from None
    seated: dict[str, list[dict[str, Any]]] = {}
    for row in store.match_tables(stage.id):
        seated.setdefault(row["key"], []).append(row)
    each = [(ms, seated.get(ms.match.key, []), f"{ms.match.key} ({bracket.round_labels[ms.match.round - 1]})")
            for ms in state.matches]
    return results, store.matches(stage.id), {t.id: t for t in store.tables()}, each


def advance_stage(store: EventStore, stage: Stage, reseated: list[Table] | None = None) -> list[Table]:
    """Within :meth:`EventStore.write`: seat every game that has become due; refuse when a seated
    game no longer fits the bracket (a replaced result changed who plays it).

    With ``reseated`` (the results path), a seated game whose sides changed and that has no
    result yet is re-seated instead — its table keeps its number, its seats get the new sides —
    and appended to the list: a corrected result moves the winner on.  ``check`` passes none: in
    a sound file every seated game already fits."""
    if not stage.knockout:
        return []
    if store.settings.teams:
        return advance_teams(store, stage, reseated)
    bracket = stage.bracket()
    results, matches, tables, each = _replayed(store, stage)
    members = side_members(store, stage)
    side_of = side_of_player(store, stage)
    new: list[Table] = []
    for ms, rows, where in each:
        m = ms.match
        if ms.status in (brackets.WAITING, brackets.VOID, brackets.WALKOVER):
            if rows and reseated is not None and ms.status == brackets.WAITING:
                raise StageError(f"this would leave {where}, already seated at round {rows[0]['round']} table "
                                 f"{rows[0]['tno']}, without one of its sides (the match it waits for would be "
                                 f"undecided again); nothing was changed")
            if rows:
                raise StageError(f"this would change who plays {where}, whose game is already seated at round "
                                 f"{rows[0]['round']} table {rows[0]['tno']}; nothing was changed")
            continue
        sides = {u for u in ms.sides if u != brackets.NOBODY}
        played = [r for r in rows if r["table_id"] in results]
        for row in rows:
            units = {side_of.get(p) for p in tables[row["table_id"]].players}
            if units == sides:
                continue
            if reseated is None:
                raise StageError(f"this would change who plays {where}, already seated at round {row['round']} "
                                 f"table {row['tno']}; nothing was changed")
            if played:
                first = played[0]
                raise StageError(f"this would change who plays {where}, whose game at round {first['round']} "
                                 f"table {first['tno']} already has a result: a knockout result can be corrected "
                                 f"only while the match it decided has no result; nothing was changed")
            if bracket.kind == brackets.MULTI:
                seats = seat_table(store.settings, [u for u in ms.sides if u != brackets.NOBODY], m.key)
            else:
                seats = seat_head_to_head(store.settings, (ms.sides[0], ms.sides[1]),  # type: ignore[arg-type]
                                          row["game"], members)
            store.reseat_table(row["table_id"], seats)
            _table_change(store, changes.TABLE_RESEATED, stage, row["round"], row["tno"], seats, m.key, row["game"])
            reseated.append(Table(row["table_id"], row["round"], row["tno"], seats))
        if ms.status == brackets.DECIDED:
            needed = ms.games if bracket.kind != brackets.MULTI else 1
            extra = [r for r in rows if r not in played] + played[needed:]
            if extra:
                raise StageError(f"{where} would be decided before its game at round {extra[0]['round']} table "
                                 f"{extra[0]['tno']}; nothing was changed")
            continue
        # Due: seat the next game unless one is waiting for its result.
        if len(played) < len(rows):
            continue
        game = len(rows) + 1
        number = stage.event_round(m.round)
        if bracket.kind == brackets.MULTI:
            seats = seat_table(store.settings, [u for u in ms.sides if u != brackets.NOBODY], m.key)
        else:
            seats = seat_head_to_head(store.settings, (ms.sides[0], ms.sides[1]), game, members)  # type: ignore[arg-type]
        tno = max(store.table_numbers(number), default=0) + 1  # tables numbered 1, 2, … as games fall due
        tid = seat_stage_table(store, stage, number, tno, seats, matches[m.key]["id"], m.key, game)
        new.append(Table(tid, number, tno, seats))
    return new


def after_result(store: EventStore, table: Table, reseated: list[Table] | None = None) -> list[Table]:
    """Called by the results path, inside its transaction, after a result is stored or replaced
    (``reseated`` collects the tables a correction re-seated, see :func:`advance_stage`)."""
    stage = stage_of_round(store, table.round)
    if stage is None:
        return []
    return advance_stage(store, stage, reseated)


def refuse_swiss(store: EventStore) -> None:
    """The Swiss rounds are over once a later stage exists."""
    stage = current(store)
    if stage is not None and store.settings.format == ROTATING:
        raise Refused(f"this event's final ({stage.name}) was drawn after round {stage.offset}; no more rounds "
                      f"can be paired — results of the final's games move it on")
    if stage is not None:
        raise Refused(f"this event is in its {stage.name} stage (from round {stage.offset + 1}); Swiss rounds "
                      f"cannot be paired any more — results advance the stage")


def open_table_for_match(store: EventStore, key: str) -> Table:
    """The table of a match's game that is waiting for its result (for a manual score)."""
    stage = current(store)
    if stage is None:
        raise UsageError("--match is for knockout and round-robin stages; this event has none")
    results = store.results()
    rows = [r for r in store.match_tables(stage.id) if r["key"] == key]
    if not store.matches(stage.id).get(key):
        raise UsageError(f"the {stage.name} stage has no match {key!r}")
    waiting = [r for r in rows if r["table_id"] not in results]
    if not waiting:
        why = "it is decided"
        if stage.knockout:
            ms = state_of(store, stage).state(key)
            names = side_names(store, stage)
            if ms.status == brackets.WAITING:
                missing = [src.text() for u, src in zip(ms.sides, ms.match.sources) if u is None]
                why = f"it is not due yet (it waits for the {' and '.join(missing)})"
            elif ms.status == brackets.WALKOVER:
                why = f"it is a bye ({names.get(ms.order[0], ms.order[0])} goes through without playing)"
            elif ms.status == brackets.VOID:
                why = "it is not played"
        raise ResultRefused(f"match {key} has no game waiting for a result: {why}")
    row = waiting[0]
    return next(t for t in store.tables(row["round"]) if t.id == row["table_id"])


def not_due_reason(store: EventStore, units: Iterable[int]) -> str | None:
    """Why sides with no open table cannot play now (for a refused record)."""
    stage = current(store)
    if stage is None or not stage.knockout:
        return None
    state = state_of(store, stage)
    names = side_names(store, stage)
    if stage.sides:  # a rotating event's final: the record's players, each to the pair formed with them
        side_of = side_of_player(store, stage)
        units = dict.fromkeys(side_of[u] for u in units if u in side_of)
    for u in units:
        waiting = [ms for ms in state.matches if ms.status == brackets.WAITING and u in ms.sides]
        if waiting:
            ms = waiting[0]
            missing = [src.text() for s, src in zip(ms.sides, ms.match.sources) if s is None]
            return (f"{names.get(u, u)}'s next match {ms.match.key} is not due yet (it waits for the "
                    f"{' and '.join(missing)})")
        alive = any(ms.status == brackets.DUE and u in ms.sides for ms in state.matches)
        if not alive and u in stage.seeds:
            return f"{names.get(u, u)} is out of the {stage.name}"
    return None


# --- a team event's stages -------------------------------------------------------------------------
#
# A team event's stages: groups (round robins of teams) and knockouts of teams.
#
# The stages are the event's own (:mod:`tournament.event.stages`: drawn once, their rounds after the
# event's, results moving a knockout on in the result's transaction); in a team event a stage's
# sides are teams, and each game of its draw is a *team match*: the two teams' pairs at adjacent
# tables, seated as a Swiss round seats a match (:func:`tournament.pairing.teams.match_seats`: the
# line-up's order, home N-S at the first table; which team is at home as in the rounds,
# :func:`tournament.pairing.teams.home_first`).  A match's tables are its match's rows in
# ``match_tables``, numbered 1, 2, (3) by board (a set's later games follow on).
#
# A knockout tie is decided by the match (:func:`match_places`): the games won; level, the event's
# team tie-breaks that a single match can tell (efectividad, points for), in their order; level
# still, the better seed goes through.  In an event of sets the tie is the set, won by the first
# team to its target, which rises for the semi-finals and the final to the stage's ``final_set``
# (``--final-set``; the ``team-pairs`` preset: 75, the international team-pairs rule).

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
    stage = stage_of_round(store, round_no)
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
    return {s.id: s.name for s in squad_sql.squads(store)}


def find_squad_id(store: EventStore, key: str) -> int:
    """A team by name (as names compare) or number; else one line naming the teams."""
    from tournament.names import name_key, number_key

    found = squad_sql.squads(store)
    number = number_key(key)
    for s in found:
        if name_key(s.name) == name_key(key) or s.id == number:
            return s.id
    raise UnknownPlayer(f"no team named or numbered {key!r} in this event (teams: "
                        f"{', '.join(s.name for s in found[:8])}{' …' if len(found) > 8 else ''})")


def squad_of(store: EventStore) -> dict[int, int]:
    """Player -> their team (a reserve's too)."""
    return team_pairing.squad_of_players(squad_sql.squads(store), store.teams())


def active_squads(store: EventStore, round_no: int) -> list[int]:
    pairs = {t.id for t in store.teams() if t.active_in(round_no)}
    return [s.id for s in squad_sql.squads(store) if s.active_in(round_no) and set(s.pairs) & pairs]


def match_tables_seats(store: EventStore, sides: tuple[int, int], round_no: int) -> list[tuple[SeatAssignment, ...]]:
    """A stage's team match of ``round_no`` between ``sides`` (the first the higher seed): its tables'
    seats, board by board.  Refused when a team cannot field all its pairs (a pair gone mid-stage:
    bring a reserve into it, ``tournament team EVENT sub``)."""
    squads = {s.id: s for s in squad_sql.squads(store)}
    teams = store.teams()
    active = {t.id: t.active_in(round_no) for t in teams}
    players_of = team_pairing.members_in(teams, squad_sql.substitutions(store), round_no)
    lineups = squad_sql.lineups(store, round_no)
    lines = {}
    for u in sides:
        s = squads[u]
        line = tuple(p for p in (lineups.get(u) or s.pairs) if active.get(p))
        if len(line) != store.settings.pairs_a_team:
            raise Refused(f"team {s.name} has {len(line)} pair{'' if len(line) == 1 else 's'} to play, not "
                          f"{store.settings.pairs_a_team}: in a stage every pair plays; bring a reserve into the "
                          f"pair that left (tournament team EVENT sub)")
        lines[u] = line
    home, away = team_pairing.home_first(sides[0], sides[1], team_pairing.home_history(store.tables(), squad_of(store)))
    return team_pairing.match_seats(lines[home], lines[away], players_of, active)


def match_places(store: EventStore, stage: Any, tables: Sequence[Table], results: Mapping[int, Result],
                 target: int | None) -> tuple[tuple[int, ...], ...] | None:
    """A knockout tie's result as the bracket reads it, the winner first; None while it is played.

    Without sets: once every table has its result, the team with more games won; level, the
    event's team tie-breaks one match can tell (:data:`MATCH_KEYS`, in the event's order, else
    efectividad then points for); level still, the better seed.  With sets: the set's winner."""
    sides_of = squad_of(store)
    if target:
        match = team_pairing.round_matches(tables, results, sides_of, target)
        if not match or match[0].winner is None:
            return None
        m = match[0]
        return ((m.winner,), (m.away if m.winner == m.home else m.home,))
    if any(t.id not in results for t in tables):
        return None
    acc: dict[int, dict[str, float]] = {}
    for t in tables:
        sides = team_pairing.table_sides(t, sides_of)
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


def team_games_of(store: EventStore, stage: Any) -> list[brackets.Game]:
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


def advance_teams(store: EventStore, stage: Any, reseated: list[Table] | None = None) -> list[Table]:
    """Within a write: a knockout of teams after a result: each match that has become due seated
    (its tables after the round's last); a match whose sides a corrected result changed re-seated
    while none of its tables has a result, refused once one has (as a knockout of pairs)."""
    results, matches, tables, each = _replayed(store, stage)
    sides_of = squad_of(store)
    new: list[Table] = []
    for ms, rows, where in each:
        m = ms.match
        if ms.status in (brackets.WAITING, brackets.VOID, brackets.WALKOVER):
            if rows:
                raise StageError(f"this would change who plays {where}, already seated at round "
                                        f"{rows[0]['round']} table {rows[0]['tno']}; nothing was changed")
            continue
        sides = (ms.sides[0], ms.sides[1])
        if rows and {sides_of.get(p) for r in rows for p in tables[r["table_id"]].players} != set(sides):
            played = [r for r in rows if r["table_id"] in results]
            if reseated is None or played:
                at = played[0] if played else rows[0]
                raise StageError(f"this would change who plays {where}, whose match at round {at['round']} "
                                        f"table {at['tno']} has begun: a knockout result can be corrected only "
                                        f"while the match it decided has no result; nothing was changed")
            fresh = match_tables_seats(store, sides, rows[0]["round"])  # type: ignore[arg-type]
            for row, seats in zip(rows, fresh):
                store.reseat_table(row["table_id"], seats)
                _table_change(store, changes.TABLE_RESEATED, stage, row["round"], row["tno"], seats, m.key,
                                     row["game"])
                reseated.append(Table(row["table_id"], row["round"], row["tno"], seats))
            continue
        if ms.status == brackets.DECIDED or rows:
            continue  # decided, or being played (a set's next games are seated by its results)
        number = stage.event_round(m.round)
        for board, seats in enumerate(match_tables_seats(store, sides, number), 1):  # type: ignore[arg-type]
            tno = max(store.table_numbers(number), default=0) + 1
            tid = seat_stage_table(store, stage, number, tno, seats, matches[m.key]["id"], m.key, board)
            new.append(Table(tid, number, tno, seats))
    return new


def stage_link(store: EventStore, table: Table) -> tuple[Any, int, str, int] | None:
    """A stage table's stage, match id, match key and the next game number of its match (for a
    set's next game, seated as a table of the match); None for a table of the rounds."""
    if not store.has_stage_tables():
        return None
    stage = stage_of_round(store, table.round)
    if stage is None:
        return None
    rows = store.match_tables(stage.id)
    key = next((r["key"] for r in rows if r["table_id"] == table.id), None)
    if key is None:
        return None
    return stage, store.matches(stage.id)[key]["id"], key, max(r["game"] for r in rows if r["key"] == key) + 1


def team_stage_standings(store: EventStore, stage: Any, group: int | None = None) -> team_pairing.TeamStandings:
    """The team standings of one stage's matches (``None``: the rounds), or of one of its groups."""
    sid = stage.id if stage is not None else 1
    rounds = {n for n, s in store.round_stage().items() if s == sid}
    squads = squad_sql.squads(store)
    if group is not None:
        members = set(stage.schedule().groups[group])
        squads = [s for s in squads if s.id in members]
    of = team_pairing.squad_of_players(squads, store.teams())
    tables = [t for t in store.tables() if t.round in rounds and all(p in of for p in t.players)]
    byes = {r: [p for p in v if p in of] for r, v in store.byes().items() if r in rounds}
    return team_pairing.compute_teams(store.settings, squads, store.teams(), store.players(), tables, store.results(),
                                 byes, targets=set_targets(store))


def group_rows(store: EventStore, stage: Any, group: int) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """A group's team standings: its rows as ``standings --json`` gives a team's, and the keys."""
    table = team_stage_standings(store, stage, group)
    return [r.to_dict() for r in table.rows], table.tiebreaks
