"""A league across venues: one table over several events' standings (docs/hub.md, "A league").

The events of a league are played in their own halls, each its own event file; the federation's
hub, which holds every event's public standings (the feed's ``/standings``), adds them up: a
player is the same player in every event where their name is the same name
(:func:`tournament.names.name_key`: spaces, letters drawn alike).  Each row counts the events
played, the games played, won, drawn and lost, and the points for and against; the league ranks
by its tie-breaks, each one of :data:`TIEBREAKS`, the greater first, then by name.

Pure: it reads the feed's documents, never an event file.
"""

from __future__ import annotations

from typing import Any, Iterable

from tournament.errors import UnusableInput
from tournament.names import name_key

#: What a league may rank by, and what each counts.
TIEBREAKS = {"won": "games won", "diff": "points for less points against", "for": "points for",
             "played": "games played", "events": "events played"}
DEFAULT_TIEBREAKS = ("won", "diff", "for")
_COUNTED = ("played", "won", "drawn", "lost", "points_for", "points_against")


def tiebreaks(text: str | None) -> tuple[str, ...]:
    """A league's tie-breaks from ``won,diff,for``; the default for None or empty."""
    if not text:
        return DEFAULT_TIEBREAKS
    keys = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in keys if k not in TIEBREAKS]
    if unknown or not keys:
        raise UnusableInput(f"a league's tie-breaks are among {', '.join(TIEBREAKS)} (not {', '.join(unknown)})")
    return keys


def standings(name: str, events: Iterable[tuple[str, dict[str, Any]]],
              ranked_by: tuple[str, ...] = DEFAULT_TIEBREAKS) -> dict[str, Any]:
    """The league ``name``'s standings over ``events``: (event id, its feed standings document)."""
    rows: dict[str, dict[str, Any]] = {}
    ids = []
    for event, doc in events:
        ids.append(event)
        for row in doc.get("players") or []:
            player = row.get("player") or row.get("name")
            if not player:
                continue
            key = name_key(player)
            found = rows.setdefault(key, {"player": player, "events": 0, **{k: 0 for k in _COUNTED}})
            found["events"] += 1
            for k in _COUNTED:
                value = row.get(k)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    found[k] += value
    for row in rows.values():
        row["diff"] = row["points_for"] - row["points_against"]
        row["for"] = row["points_for"]
    ordered = sorted(rows.values(), key=lambda r: (*(-r[k] for k in ranked_by), r["player"].casefold()))
    for place, row in enumerate(ordered, 1):
        row["rank"] = place
        del row["for"]
    return {"league": name, "events": sorted(ids), "tiebreaks": list(ranked_by),
            "about": {k: TIEBREAKS[k] for k in ranked_by}, "players": ordered}
