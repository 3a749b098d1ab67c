"""Round 1 seeded by rating, and the seeded order an accelerated event pairs its first rounds by.

The rating is a column of the players CSV the players were added with (``rating``, or any column
``--seed column:NAME`` names: ``elo``, ``fide``), kept by :mod:`tournament.store.fields`, or the
ratings across events of a ratings file (``--seed ratings:FILE``, players matched by
federation id, by name where the event has none).  A pair's rating is the mean of its players'
ratings (of the one rated, when only one is).  The seeded order is kept with round 1, as the
standings a later round is paired on are kept with it (the ``standings_used`` rows: each unit, its place in the seeding and its rating), so that the
accelerated rounds after it, ``check`` and anyone reading the file see the order round 1 was
paired by, and a round 1 unpaired and paired again with the same ``--seed`` is the same round.
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from tournament.errors import SeedingError
from tournament.pairing import seeding as rules
from tournament.settings import PAIRS
from tournament.store import desk, fields
from tournament.store.event_store import EventStore


def _rating(text: str, player: Any, column: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise SeedingError(f"player {player.name} (no. {player.id}): {column} {text!r} is not a number (the players CSV's {column!r} column "
                           f"seeds round 1: a number, or empty for a player without one)")
    return value


def unit_ratings(store: EventStore, column: str) -> dict[int, float | None]:
    """Each unit's rating from the players' ``column`` (pairs: the mean of its rated players; None:
    unrated).  Refused (:class:`SeedingError`) when no player has the column, or a value is not
    a number."""
    kept = fields.fields(store)
    players = store.players()
    rated = {p.id: _rating(kept[p.id][column], p, column)
             for p in players if column in kept.get(p.id, {})}
    if not rated:
        known = fields.field_names(store)
        raise SeedingError(f"no player has a {column!r} column to seed round 1 by: add the players from a CSV "
                           f"with one (tournament add EVENT --csv players.csv)"
                           + (f"; the players' columns are {', '.join(known)}" if known else ""))
    if store.settings.format != PAIRS:
        return {p.id: rated.get(p.id) for p in players}
    out: dict[int, float | None] = {}
    for t in store.teams():
        values = [rated[p] for p in t.players if p in rated]
        out[t.id] = sum(values) / len(values) if values else None
    return out


Kept = list[tuple[int, int, dict[str, Any]]]  # rows kept with round 1: unit, place, {"seed": rating}


def file_ratings(store: EventStore, path: str) -> dict[int, float | None]:
    """Each unit's rating in a ratings file (``tournament ratings``: the conservative rating, mu - 3
    sigma), pairs: the mean of its rated players.  A player with a federation id is found by it
    alone (the ratings file keeps by id whoever had one: two people of one name stay two, and a
    name spelt otherwise here is still the same person); a player without one by name, as the
    ratings list shows it.  Refused when none of the players is in it."""
    from tournament.event.ratings import open_ratings

    with open_ratings(path, create=False) as book:
        ratings = book.ratings()
    by_id = {r.fed_id: r.ordinal for r in ratings if r.fed_id is not None}
    by_name = {r.name: r.ordinal for r in ratings}
    fids = desk.federation_ids(store)
    rated: dict[int, float] = {}
    for p in store.players():
        fid = fids.get(p.id)
        value = by_id.get(fid) if fid is not None else by_name.get(p.name)
        if value is not None:
            rated[p.id] = value
    if not rated:
        raise SeedingError(f"none of the players is in the ratings file {path} (players are matched by "
                           f"federation id, by name where the event has none)")
    if store.settings.format != PAIRS:
        return {p.id: rated.get(p.id) for p in store.players()}
    out: dict[int, float | None] = {}
    for t in store.teams():
        values = [rated[p] for p in t.players if p in rated]
        out[t.id] = sum(values) / len(values) if values else None
    return out


def round_one_seeding(store: EventStore, choice: str | None) -> tuple[list[int] | None, Kept]:
    """Round 1's seeded order (pairs in a pairs event, players otherwise) and the rows kept with
    the round (unit, place, rating): by ``choice`` (``rating``, ``column:NAME``); an accelerated
    event without one is seeded by the random draw (its group A is the top half of the draw).
    (None, []) for a round 1 drawn as before."""
    settings = store.settings
    book = rules.ratings_path(choice) if choice else None
    try:
        column = rules.seed_column(choice) if choice and book is None else None
    except ValueError as e:
        raise SeedingError(str(e)) from None
    if column is None and book is None and not settings.accelerated:
        return None, []
    units = [t.id for t in store.teams() if t.active_in(1)] if settings.format == PAIRS else \
        [p.id for p in store.players() if p.active_in(1)]
    rating = unit_ratings(store, column) if column else file_ratings(store, book) if book else {}
    order = rules.seeded(units, rating, random.Random(f"tournament:{settings.seed}:seeding"))
    rows = [(u, place, {"seed": None if r is None else round(r, 4)})
            for place, u in enumerate(order, 1) for r in [rating.get(u)]]
    return order, rows


def kept_seeding(store: EventStore) -> list[int] | None:
    """The seeded order kept with round 1 (its ``standings_used`` rows, by place), or None when
    round 1 was drawn at random."""
    kept = store.standings_used(1)
    if not kept:
        return None
    return [u for u, _ in sorted(kept.items(), key=lambda item: item[1][0])]


def seeding_for(store: EventStore, number: int, choice: str | None) -> tuple[Sequence[int] | None, Kept]:
    """What pairs round ``number`` beside the standings: round 1's seeding (and the rows to keep
    with it), or for a later accelerated round the seeding kept with round 1."""
    if number == 1:
        return round_one_seeding(store, choice)
    if choice and choice.strip().lower() != rules.DRAW:
        raise SeedingError(f"--seed orders round 1 only: round {number} is paired on the standings")
    if store.settings.accelerated and number <= store.settings.accelerated:
        return kept_seeding(store), []
    return None, []
