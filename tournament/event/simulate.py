"""A whole event, end to end, with games played by ``domrec.simulate``.

For demos and as the pairing engine's test bed: every game is built from the
table the pairing gave (players, ids, seats, the event's rules), played by
:func:`domrec.simulate.play_game`, written out as JSON, and entered through
the very path a director uses (:func:`tournament.event.results.enter_record`), so
the simulation exercises validation, table matching and storage for real.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs

from domrec.record import Player as RecordPlayer, Record
from domrec.simulate import dumps, play_game

from tournament.event import players as pl, rounds, standings
from tournament.event.files import create_event
from tournament.event.results import enter_record
from tournament.settings import PAIRS, Settings, make_settings
from tournament.store import files, sqlite as sqlite_store
from tournament.store.event_store import EventStore
from tournament.values import Table


@contextmanager
def _building(path: str | Path, settings: Settings) -> Iterator[EventStore]:
    """The new event, built in a hidden file beside ``path`` and given its name when whole (its
    browsing tables refreshed once, at the end): a simulation stopped half-way (Ctrl-C, kill -9)
    leaves no event at ``path`` that looks like a finished one."""
    building = files.building_path(path)
    counted = dict(sqlite_store.writes)
    store = create_event(building, settings)
    store.defer_browsing = True
    done = False
    try:
        yield store
        with store.write():
            store.refresh_browsing()
        done = True
    finally:
        store.close()
        if not done:
            files.discard(building)
            # Its writes went with the hidden file: none of them was made at ``path``, and Ctrl-C
            # (which words what it stopped by the writes counted) says that nothing was written.
            sqlite_store.writes.update(counted)
    files.publish(building, path)


@attrs.frozen
class SimulationSummary:
    path: str
    players: int
    rounds: int
    games: int
    byes: int


def game_record(settings: Settings, table: Table, names: dict[int, str]) -> Record:
    """The empty record (no hands) of one table: its players, ids and seats, the event's rules."""
    return Record(game=settings.game, rules=settings.rules(),
                  event={"name": settings.name, "round": str(table.round), "table": str(table.number)},
                  players=tuple(RecordPlayer(seat=s.seat, name=names[s.player], id=str(s.player))
                                for s in table.seats))


def play_round(store: EventStore, round_no: int, seed: int,
               progress: Callable[[int, int], None] | None = None) -> int:
    """Play and enter every table of ``round_no`` that has no result yet.  In a team event of sets
    a result may seat the match's next games (the set not won yet): those are played too, the
    same way, until no table of the round waits, so that each set is played to its winner."""
    names = {p.id: p.name for p in store.players()}
    played = 0
    while True:
        done = store.results()
        tables = [t for t in store.tables(round_no) if t.id not in done]
        for i, table in enumerate(tables):
            rng = random.Random(f"tournament-simulate:{seed}:{round_no}:{table.number}")
            record = play_game(game_record(store.settings, table, names), rng)
            enter_record(store, dumps(record), f"round {round_no} table {table.number}")
            if progress:
                progress(i + 1, len(tables))
        played += len(tables)
        if not tables or not store.settings.team_set:
            return played


def play_stage(store: EventStore, seed: int, progress: Callable[[str], None] | None = None) -> int:
    """Play the current knockout or round-robin stage to its end: every table waiting for a result
    is played and entered; each result seats what it makes due, until nothing is left."""
    from tournament.event import stages

    names = {p.id: p.name for p in store.players()}
    games = 0
    while True:
        results = store.results()
        stage = stages.current(store)
        if stage is None:
            return games
        rounds = {n for n, s in store.round_stage().items() if s == stage.id}
        waiting = [t for t in store.tables() if t.round in rounds and t.id not in results]
        if not waiting:
            return games
        for table in waiting:
            rng = random.Random(f"tournament-simulate:{seed}:{table.round}:{table.number}")
            record = play_game(game_record(store.settings, table, names), rng)
            enter_record(store, dumps(record), f"round {table.round} table {table.number}")
            games += 1
        if progress:
            progress(f"{stage.name}: {games} games played")


def simulate_event(path: str | Path, game: str, format: str, players: int, rounds_: int, seed: int = 0,
                   table_size: int | None = None, options: dict[str, Any] | None = None,
                   variant: str | None = None, name: str | None = None,
                   progress: Callable[[str], None] | None = None,
                   stage: dict[str, Any] | None = None, then: dict[str, Any] | None = None,
                   team_size: int | None = None, team_set: int | None = None) -> SimulationSummary:
    """Create a new event file at ``path`` and play ``rounds_`` Swiss rounds of it (may be 0), then,
    if ``stage`` is given, a knockout or round-robin stage (the keyword arguments of
    :func:`tournament.event.stages.create_stage`), and after it the ``then`` stage (groups feeding a
    knockout, say).  ``format`` ``teams``: ``players`` // ``team_size`` teams, entered as a team
    event's CSV would enter them (:func:`tournament.event.teams.add_teams`); ``team_set``: its
    matches are sets to that many game points, each played to its winner."""
    settings = make_settings(name or f"Simulated {game} {format} event (seed {seed})", game, format, table_size,
                             seed, variant, options, team_size=team_size, team_set=team_set)
    if stage is not None:
        from tournament.event.stages import _check_format
        for spec in (stage, then):
            if spec is not None:
                _check_format(settings, spec["format"])
    with _building(path, settings) as store:
        if settings.teams:
            from tournament.event import teams

            size, per = settings.team_size, settings.pairs_a_team
            if players % size:
                raise ValueError(f"a team event of teams of {size} needs a multiple of {size} players")
            teams.add_teams(store, [(f"Team {t + 1:03d}", [(f"Player {size * t + 2 * k + 1:04d}",
                                                             f"Player {size * t + 2 * k + 2:04d}",
                                                             f"Team {t + 1:03d} pair {k + 1}") for k in range(per)],
                                     []) for t in range(players // size)])
        elif format == PAIRS:
            if players % 2:
                raise ValueError("a pairs event needs an even number of players")
            pl.add_pairs(store, [(f"Player {2 * i + 1:04d}", f"Player {2 * i + 2:04d}", f"Pair {i + 1:03d}")
                                 for i in range(players // 2)])
        else:
            pl.add_players(store, [f"Player {i + 1:04d}" for i in range(players)])
        games = 0
        for r in range(1, rounds_ + 1):
            plan = rounds.pair_next_round(store)
            games += play_round(store, plan.round, seed)
            if progress:
                progress(f"round {r}: {len(plan.tables)} tables, {len(plan.byes)} byes")
        if stage is not None:
            from tournament.event import stages

            for spec in (stage, then):
                if spec is None:
                    continue
                spec = dict(spec)
                if "seeding" not in spec:
                    spec["seeding"] = "standings" if rounds_ else "random"
                stages.create_stage(store, spec.pop("format"), **spec)
                games += play_stage(store, seed, progress)
        n_byes = sum(len(v) for v in store.byes().values())
        standings.from_store(store)
    return SimulationSummary(str(path), players, rounds_, games, n_byes)


# --- duplicate: pairs (--format duplicate) and teams (--format teams --duplicate) ------------------


def play_boards(store: EventStore, round_no: int, seed: int) -> int:
    """Play and enter every board of ``round_no`` that has no result at its table yet, in a
    duplicate event (pairs or teams): each board's hand played by the engine from the board's deal
    (:func:`tournament.pairing.boards.play`), written as the record of that hand and entered through
    the director's path for a board's record, which checks its deal against the board's.  The
    event's names are indexed once for the round (:func:`tournament.event.results.name_index`):
    a board's record names its seats, nobody's names, and looking each up afresh went over every
    player's name for every result, a simulation growing with the square of its players."""
    from domrec.convert import text_of

    from tournament.event import duplicate as dup, duplicate_teams as dt
    from tournament.event.results import judge, name_index
    from tournament.pairing.boards import play

    teams = store.settings.team_duplicate
    boards = {b.number: b for b in dup.boards(store)}
    done = {(r["table_id"], r["board"]) for r in dup.sql.results(store)}
    if teams:
        seated = [(t.id, t.number, dt.round_boards(store, round_no)) for t in store.tables(round_no)]
    else:
        seated = [(t.table_id, t.table, t.boards) for t in dup.table_boards(store, round_no)]
    enter = dt.enter_record if teams else dup.enter_record
    names = name_index(store)
    played = 0
    for table_id, table, numbers in seated:
        for number in numbers:
            if (table_id, number) in done:
                continue
            record = play(boards[number], f"tournament-simulate:{seed}:{round_no}:{table}")
            record = attrs.evolve(record, event={"name": store.settings.name, "round": str(round_no),
                                                 "table": str(table), "board": str(number)})
            label = f"round {round_no} table {table} board {number}"
            found, report = judge(text_of([record], "json"), label)
            enter(store, found, report, round_no, table, number, names=names)
            played += 1
    return played


def simulate_duplicate(path: str | Path, game: str, tables: int, rounds_: int | None, seed: int = 0,
                       movement: str | None = None, boards_per_round: int | None = None,
                       options: dict[str, Any] | None = None, variant: str | None = None, name: str | None = None,
                       progress: Callable[[str], None] | None = None, teams: int | None = None,
                       victory_points: bool = False, pairs: int | None = None) -> SimulationSummary:
    """Create a duplicate event at ``path`` and play ``rounds_`` rounds of it (None: the movement's
    rounds, a whole session; duplicate teams: 5, or fewer where the teams cannot play 5 rounds
    without two meeting again: a round robin's rounds) through the event's own
    operations: the boards dealt (seeded), each round seated (by the movement: ``tables`` tables of
    duplicate pairs, or ``pairs`` pairs on (pairs + 1) // 2 tables, an odd number with one sitting
    out each round; or, ``teams`` given, duplicate teams paired as team events are), and every
    board of it played from its deal and entered as its record (:func:`play_boards`).  ``games`` in
    the summary counts the boards' results; ``byes``, duplicate pairs' sit-outs."""
    from tournament.event import duplicate as dup
    from tournament.pairing import movements as mv

    if teams is not None:
        settings = make_settings(name or f"Simulated {game} duplicate teams (seed {seed})", game, "teams", None,
                                 seed, variant, options, team_size=4, team_duplicate=True,
                                 victory_points=victory_points, boards_per_round=boards_per_round)
        rounds_ = min(5, teams - 1 if teams % 2 == 0 else teams) if rounds_ is None else rounds_
        count = rounds_ * settings.boards_per_round
        players = 4 * teams
    else:
        settings = make_settings(name or f"Simulated {game} duplicate (seed {seed})", game, "duplicate", None, seed,
                                 variant, options, movement=movement, boards_per_round=boards_per_round)
        pairs = 2 * tables if pairs is None else pairs
        tables = (pairs + 1) // 2
        moving = mv.for_event(settings, pairs)
        rounds_ = moving.rounds if rounds_ is None else rounds_
        if rounds_ > moving.rounds:
            raise ValueError(f"the {tables}-table {moving.kind} has {moving.rounds} rounds, not {rounds_}")
        count = max(moving.boards)
        players = 2 * pairs
    boards_played = 0
    with _building(path, settings) as store:
        if teams is not None:
            from tournament.event import teams as tm

            tm.add_teams(store, [(f"Team {t + 1:03d}", [(f"Player {4 * t + 2 * k + 1:04d}",
                                                         f"Player {4 * t + 2 * k + 2:04d}",
                                                         f"Team {t + 1:03d} pair {k + 1}") for k in range(2)], [])
                                 for t in range(teams)])
        else:
            pl.add_pairs(store, [(f"Player {2 * i + 1:04d}", f"Player {2 * i + 2:04d}", f"Pair {i + 1:03d}")
                                 for i in range(pairs)])
        dup.deal(store, count, seed)
        for r in range(1, rounds_ + 1):
            plan = rounds.pair_next_round(store)
            played = play_boards(store, plan.round, seed)
            boards_played += played
            if progress:
                progress(f"round {r}: {len(plan.tables)} tables, {played} board results")
        if teams is not None:
            from tournament.event import duplicate_teams as dt
            dt.standings(store)
            n_byes = sum(len(v) for v in store.byes().values())
        else:
            dup.standings(store)
            n_byes = len(dup.sit_outs(store))
    return SimulationSummary(str(path), players, rounds_, boards_played, n_byes)
