"""The ``standings`` table people browse in an event file (:attr:`EventStore.browsing`), and a
duplicate event's standings as ``standings --csv`` prints them: a duplicate event's rounds have no
games of their own (its results are its boards'), so the ranking of games
(:func:`tournament.event.standings.event_standings`) is all zeros there; the snapshot, and the
exports, hold its pairs by matchpoints and IMPs, or its teams by victory or match points and IMPs."""

from __future__ import annotations

from typing import Any

from tournament.errors import TournamentError
from tournament.event import duplicate, duplicate_teams, standings
from tournament.store.event_store import EventStore

#: The columns of a duplicate event's standings as ``standings --csv`` prints them (duplicate pairs;
#: duplicate teams), whether or not a row is there yet.
DUPLICATE_COLUMNS = ["rank", "pair", "name", "direction", "boards", "matchpoints", "top", "percent", "imps",
                     "unscored"]
DUPLICATE_TEAM_COLUMNS = ["rank", "team", "id", "played", "won", "drawn", "lost", "byes", "match_points",
                          "victory_points", "imps_for", "imps_against", "imps", "status"]


def duplicate_rows(store: EventStore) -> tuple[list[str], list[dict[str, Any]], bool]:
    """A duplicate event's standings as ``standings --csv`` has them: the columns, the rows (pairs by
    matchpoints and IMPs; teams by victory or match points and IMPs) and whether they are
    provisional.  A duplicate event's games table holds no games (its results are its boards'), so
    the ranking of :func:`~tournament.event.standings.event_standings` is all zeros there and never shown."""
    if store.settings.team_duplicate:
        doc = duplicate_teams.standings(store)
        return list(DUPLICATE_TEAM_COLUMNS), doc["teams"], bool(doc["provisional"])
    doc = duplicate.standings(store)
    return list(DUPLICATE_COLUMNS), doc["pairs"], bool(doc["provisional"])


def snapshot(store: EventStore) -> tuple[list[str], list[tuple[Any, ...]]] | None:
    """The ``standings`` snapshot of the event file (:attr:`EventStore.browsing`): the standings as
    ``standings --csv`` has them, each row with the round it runs through and whether it is
    provisional (:func:`tournament.event.standings.snapshot`; a duplicate event's its own, of
    :func:`duplicate_rows`); None when the results cannot be ranked (``check`` says where)."""
    if not (store.settings.duplicate or store.settings.team_duplicate):
        return standings.snapshot(store)
    try:
        keys, rows, provisional = duplicate_rows(store)
    except (TournamentError, LookupError, ValueError, TypeError):
        return None
    tail = (store.last_round(), int(provisional))
    return keys + ["through_round", "provisional"], [tuple(r.get(k) for k in keys) + tail for r in rows]
