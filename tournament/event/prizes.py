"""Prize lists of an event: its standings within a category of players (any column of the
players CSV: sex, age group, club) and the standings of clubs by the sum of their best players
(:mod:`tournament.pairing.prizes` ranks; here is what the event's file says about each unit).

A player's category is the value of their column.  In a pairs event the unit ranked is the
pair: a pair is in a category when both players have the same value there (a mixed pair is in
neither women's nor men's list; a pair of two clubs counts for neither club).
"""

from __future__ import annotations

from typing import Any, Mapping

from tournament.errors import UnusableInput
from tournament.names import did_you_mean
from tournament.pairing import prizes
from tournament.pairing.standings import Standings
from tournament.settings import PAIRS
from tournament.store import desk as desk_sql, fields as fields_sql
from tournament.store.event_store import EventStore

#: Columns a prize list can also be drawn by, beside the CSV's own.
BUILT_IN = ("player_id",)


def columns(store: EventStore) -> list[str]:
    """The columns a prize list can be drawn by."""
    return fields_sql.field_names(store) + (list(BUILT_IN) if desk_sql.federation_ids(store) else [])


def check_column(store: EventStore, column: str) -> str:
    """The column as kept (headers are read lower-cased), or one clear line naming those there are."""
    key = column.strip().lower()
    known = columns(store)
    if key in known:
        return key
    if not known:
        raise UnusableInput(f"no player of this event has a column {column!r}: prize lists are drawn by the "
                            f"columns of the players CSV (club, sex, category, …), and this event's CSV had none")
    raise UnusableInput(f"no player of this event has a column {column!r} (columns: {', '.join(known)})"
                        + did_you_mean(column, known))


def units_by(store: EventStore, column: str) -> dict[int, str]:
    """Unit (a player, or a pair in a pairs event) -> its value in the column (units without one
    are left out)."""
    if column == "player_id":
        values = desk_sql.federation_ids(store)
    else:
        values = {p: own[column] for p, own in fields_sql.fields(store).items() if own.get(column)}
    if store.settings.format != PAIRS:
        return dict(values)
    members: dict[int, list[str | None]] = {}
    for p in store.players():
        if p.team is not None:
            members.setdefault(p.team, []).append(values.get(p.id))
    return {team: vals[0] for team, vals in members.items() if vals and vals[0] and len(set(vals)) == 1}


def category_lists(store: EventStore, table: Standings, column: str) -> list[prizes.CategoryList]:
    return prizes.categories(table, units_by(store, column))


def group_list(store: EventStore, table: Standings, column: str, best: int) -> prizes.GroupList:
    if best < 1:
        raise UnusableInput(f"--best counts a club's best players: at least 1, not {best}")
    return prizes.groups(table, units_by(store, column), best, column)


def category_rows(table: Standings, listing: prizes.CategoryList) -> list[dict[str, Any]]:
    """A category list as data rows: the place in the category, the event's row (its ``rank``
    kept as ``event_rank``)."""
    out = []
    for place, row in listing.rows:
        data = table.row_dict(row)
        out.append({"place": place, "event_rank": data.pop("rank"), **data})
    return out


def prize_lists(store: EventStore, table: Standings, by: list[str],
                best: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Every prize list asked for, as the report and the export keep them: for each column its
    categories (rows as :func:`category_rows`) and, where ``best`` gives the column its own
    ``--best K`` (``--by club --best 2 --by sex``: the clubs only), its group list."""
    best = {k.strip().lower(): v for k, v in (best or {}).items()}
    out: dict[str, Any] = {}
    for raw in by:
        column = check_column(store, raw)
        entry: dict[str, Any] = {"categories": [{"value": c.value, "rows": category_rows(table, c)}
                                                for c in category_lists(store, table, column)]}
        if column in best:
            entry["groups"] = group_list(store, table, column, best[column]).to_dict()
        out[column] = entry
    return out
