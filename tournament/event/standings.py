"""The standings of an event: the ranking (:mod:`tournament.pairing.standings`) over what its file holds.

:func:`from_store` ranks every round paired so far (or up to one of them);
:func:`event_standings` is the table an event shows as *its* standings — those of its rounds,
into which a rotating event's final is never added (the final is ranked by its own games,
:mod:`tournament.event.finals`); :func:`snapshot` is that table as the ``standings`` table of the
event file, kept for people browsing it (:meth:`~tournament.store.event_store.EventStore.refresh_browsing`).
"""

from __future__ import annotations

from typing import Any

import attrs

from tournament.errors import TournamentError, UnusableInput
from tournament.event import stages
from tournament.pairing.standings import Standings, compute, late_entries_last
from tournament.settings import PAIRS
from tournament.store.desk import sit_outs
from tournament.store.event_store import EventStore
from tournament.values import Player, Result, Table


def from_store(store: EventStore, through_round: int | None = None, tables: list[Table] | None = None,
               results: dict[int, Result] | None = None) -> Standings:
    """The standings of an open event's rounds (see :func:`tournament.pairing.standings.compute`).
    A later stage's games (a knockout, a round robin, a final) are never counted here: they are
    ranked by their stage (:func:`of_stage`), so a knockout's games cannot lift a player in the
    standings that seeded it.  ``tables`` and ``results``: every table and result of the file,
    read already by the caller (pairing a round reads them once)."""
    tables, byes = store.tables() if tables is None else tables, store.byes()
    later = {n for n, s in store.round_stage().items() if s != 1}
    if later:
        tables = [t for t in tables if t.round not in later]
        byes = {r: v for r, v in byes.items() if r not in later}
    return compute(store.settings, seated_players(store), store.teams(), tables,
                   store.results() if results is None else results, byes, through_round, sit_outs(store))


def seated_players(store: EventStore) -> list[Player]:
    """The event's players, each with the pair whose games they sit in: in a team event a reserve
    brought into a pair (``tournament team EVENT sub``) plays that pair's games from then on, so
    the pairs' standings count them as the pair's."""
    players = store.players()
    if not store.settings.teams:
        return players
    from tournament.pairing.teams import pair_of_players
    from tournament.store.squads import substitutions

    subs = substitutions(store)
    if not subs:
        return players
    pair_of = pair_of_players(store.teams(), subs)
    return [attrs.evolve(p, team=pair_of.get(p.id, p.team)) for p in players]


def check_paired(store: EventStore, round_no: int | None) -> None:
    """Refuse the standings after a round that has not been paired (``None``: after the last)."""
    last = store.last_round()
    if round_no is not None and not 0 <= round_no <= last:
        raise UnusableInput(f"round {round_no} has not been paired (the last round is {last})")


def of_stage(store: EventStore, stage_id: int) -> tuple[Standings, stages.Stage | None]:
    """The standings of one stage's games, and the stage: 1 is the opening rounds (no stage of
    :mod:`tournament.event.stages`: None), later stages as ``bracket`` numbers them."""
    later = stages.load(store)
    chosen = next((x for x in later if x.id == stage_id), None)
    if stage_id != 1 and chosen is None:
        known = ", ".join(str(x) for x in [1, *(x.id for x in later)])
        raise UnusableInput(f"no stage {stage_id}; stages: {known}")
    return stages.stage_standings(store, chosen), chosen


def event_standings(store: EventStore, through_round: int | None = None) -> Standings:
    """The event's standings as people and programs read them (``standings``, the report, the
    export, the feed, the browsing snapshot): :func:`from_store`, with each late entry not yet in
    the rounds counted listed last, marked with the round it plays from
    (:func:`tournament.pairing.standings.late_entries_last`; the pairing ranks it as
    :func:`from_store` does).  A rotating event's final is ranked by its own games and never added
    into the standings of the rounds, so with a final these are the standings of the rounds (as
    ``standings --csv`` prints them)."""
    return late_last(store, from_store(store, through_round))


def late_last(store: EventStore, table: Standings) -> Standings:
    """``table`` (pairs of a pairs or team event, else players) with its late entries last."""
    units = store.teams() if store.settings.format == PAIRS else store.players()
    return late_entries_last(table, {u.id: u.entered for u in units})


def snapshot(store: EventStore) -> tuple[list[str], list[tuple[Any, ...]]] | None:
    """The ``standings`` snapshot of the event file (:attr:`EventStore.browsing`): the columns and
    rows of :func:`event_standings`, each row with the round it runs through and whether it is
    provisional; None when the results cannot be ranked (a damaged file: ``check`` says where)."""
    try:
        table = event_standings(store)
    except (TournamentError, LookupError, ValueError, TypeError):
        return None
    keys = table.columns()
    tail = (table.through_round, int(table.provisional))
    return keys + ["through_round", "provisional"], [table.row_values(row, keys) + tail for row in table.rows]
