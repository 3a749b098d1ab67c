"""The standings of an event: the ranking (:mod:`tournament.pairing.standings`) over what its file holds.

:func:`from_store` ranks every round paired so far (or up to one of them);
:func:`event_standings` is the table an event shows as *its* standings — those of its rounds,
into which a rotating event's final is never added (the final is ranked by its own games,
:mod:`tournament.event.finals`).
"""

from __future__ import annotations

from tournament.event import finals, stages
from tournament.pairing.standings import Standings, compute
from tournament.store import EventStore


def from_store(store: EventStore, through_round: int | None = None) -> Standings:
    """The standings of an open event (see :func:`tournament.pairing.standings.compute`)."""
    return compute(store.settings, store.players(), store.teams(), store.tables(), store.results(),
                   store.byes(), through_round)


def event_standings(store: EventStore) -> Standings:
    """The event's standings as the report, the export and the browsing snapshot show them: a
    rotating event's final is ranked by its own games and never added into the standings of
    the rounds, so with a final these are the standings of the rounds (as ``standings --csv``
    prints them)."""
    return stages.stage_standings(store, None) if finals.final_stage(store) is not None else from_store(store)
