"""A league across venues: one table over several events' standings (docs/hub.md, "A league").

The events of a league are played in their own halls, each its own event file; the federation's
hub, which holds every event's public standings (the feed's ``/standings``), adds them up: a
player is the same player in every event where their name is the same name
(:func:`tournament.names.name_key`: spaces, letters drawn alike).  Each row counts the events
played, the games played, won, drawn and lost, and the points for and against; the league ranks
by its tie-breaks, each one of :data:`TIEBREAKS`, the greater first, then by name.  The
federation names a league's tie-breaks (``tournament hub --league NAME=won,diff``); a reader may
ask for others (``?by=``), and for a row a pair, a team or a club instead of a row a player
(``?group=pair``, ``team``, ``club``).

A duplicate event has no games of its own (a board is scored against the other tables that played
it), and its standings list pairs or teams, not players: there, each player of a pair or team
(its ``members``) is credited with the event, with what the pair or team earned that the league's
columns count (duplicate teams: their matches, played, won, drawn and lost, as a row a team counts
them; duplicate pairs: none, a pair's result being a place and a percentage, not games), and with
its place and score (``places``: the event, the rank, of how many, and the ranking's numbers).
IMPs and matchpoints are not game points: they add nothing to the points for and against.

Pure: it reads the feed's documents, never an event file.
"""

from __future__ import annotations

from typing import Any, Iterable

from domrec.i18n import N_

from tournament.errors import UnusableInput
from tournament.names import name_key

#: What a league may rank by, and what each counts (the league's page says it in the reader's language).
TIEBREAKS = {"won": N_("games won"), "diff": N_("points for less points against"), "for": N_("points for"),
             "played": N_("games played"), "events": N_("events played")}
DEFAULT_TIEBREAKS = ("won", "diff", "for")
_COUNTED = ("played", "won", "drawn", "lost", "points_for", "points_against")
#: What a league's rows are: each player, pair or team (the events' standings' list of them, each
#: found by its name), or each club (the venues' ``serve --club``: its events' players added up).
GROUPS = ("player", "pair", "team", "club")
#: Where each kind of row is in an event's feed standings, and the key of its name.
_LISTS = {"player": ("players", "player"), "pair": ("pairs", "pair"), "team": ("teams", "team"),
          "club": ("players", "player")}
#: The row of a club-grouped league for the events whose venue named no club (as the feed gives it;
#: the league's page says it in the reader's language).
NO_CLUB = N_("(no club)")
#: What a league refuses a reader (``?by=``, ``?group=``), as patterns (:mod:`domrec.phrases`): the
#: hub says them in the reader's language.
REFUSALS = (
    N_("a league's tie-breaks are among %(list)s (not %(text)s)"),
    N_("a league's rows are one of %(list)s (not %(text)s)"),
)


def tiebreaks(text: str | None) -> tuple[str, ...]:
    """A league's tie-breaks from ``won,diff,for``; the default for None or empty."""
    if not text:
        return DEFAULT_TIEBREAKS
    keys = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in keys if k not in TIEBREAKS]
    if unknown or not keys:
        raise UnusableInput(f"a league's tie-breaks are among {', '.join(TIEBREAKS)} "
                            f"(not {', '.join(unknown) or text.strip() or repr(text)})")
    return keys


def named_tiebreaks(texts: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The tie-breaks a federation names for its leagues, from ``NAME=won,diff,for`` each."""
    named: dict[str, tuple[str, ...]] = {}
    for text in texts:
        name, sep, keys = text.partition("=")
        if not sep or not name.strip() or not keys.strip():
            raise UnusableInput(f"--league {text!r}: give a league's name and its tie-breaks, NAME=won,diff,for")
        named[name.strip()] = tiebreaks(keys)
    return named


def group(text: str | None) -> str:
    """A league's rows: ``player`` (the default), ``pair``, ``team`` or ``club``."""
    if not text:
        return "player"
    if text not in GROUPS:
        raise UnusableInput(f"a league's rows are one of {', '.join(GROUPS)} (not {text})")
    return text


#: Where a row of a duplicate event's standings keeps its place and score for the league.
_DUPLICATE = "duplicate"
#: What a duplicate pair's or team's place says besides its rank: the numbers it is ranked by.
_SCORES = ("percent", "matchpoints", "top", "imps", "victory_points", "match_points", "imps_for", "imps_against")


def _rows(doc: dict[str, Any], by: str) -> list[dict[str, Any]]:
    """The rows of an event's feed standings a league counts, a row a ``by``: its list of them;
    for a duplicate event (its pairs or teams ranked by matchpoints, IMPs or victory points),
    each row with its place and score (``duplicate``), and, by player or club, a row each player
    of each pair or team (its ``members``), credited with what the pair or team earned: the
    event, its matches (duplicate teams; a duplicate pair has no games) and its place."""
    members = doc.get("members")
    listed = doc.get("pairs") if "pairs" in doc else doc.get("teams")
    duplicate = isinstance(members, dict) and isinstance(listed, list)
    if not duplicate:
        rows = doc.get(_LISTS[by][0])
        return rows if isinstance(rows, list) else []
    out = []
    # A Mitchell's standings rank each direction on its own (``fields``): a place is of its direction's pairs.
    split = doc.get("fields") if isinstance(doc.get("fields"), list) else []
    for row in listed:
        if not isinstance(row, dict):
            continue
        of = len(listed) if row.get("direction") not in split else \
            sum(1 for r in listed if isinstance(r, dict) and r.get("direction") == row.get("direction"))
        place = {"rank": row.get("rank"), "of": of, **{k: row[k] for k in _SCORES if row.get(k) is not None}}
        counted = {k: row[k] for k in ("played", "won", "drawn", "lost") if k in row}  # teams' matches
        if by in ("player", "club"):
            number = row.get("pair") if "pair" in row else row.get("id")
            for player in members.get(str(number)) or []:
                out.append({"player": player, **counted, _DUPLICATE: place})
        elif _LISTS[by][0] in doc:
            out.append({**row, _DUPLICATE: place})
    return out


def standings(name: str, events: Iterable[tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], str | None]],
              ranked_by: tuple[str, ...] = DEFAULT_TIEBREAKS, by: str = "player") -> dict[str, Any]:
    """The league ``name``'s standings over ``events``: (event id, its feed standings document, and
    the club its venue named).  ``by``: a row a player, pair or team (events without such rows add
    none), or a row a club, its events' players added up."""
    rows: dict[str, dict[str, Any]] = {}
    ids = []
    for event, doc, *more in events:
        ids.append(event)
        club = (more[0] if more else None) or NO_CLUB
        if by == "club":
            found = rows.setdefault(name_key(club), {"player": club, "events": 0, **{k: 0 for k in _COUNTED}})
            found["events"] += 1
        listed, key = _LISTS[by]
        for row in _rows(doc, by):
            # (a duplicate event's pairs are numbered by its movement: ``pair`` is that number, and
            # the pair is found by its name; a number given to name_key stopped the league's page)
            player = row.get(key) if isinstance(row.get(key), str) else row.get("name")
            if not player or not isinstance(player, str):
                continue
            if by != "club":
                found = rows.setdefault(name_key(player), {"player": player, "events": 0, **{k: 0 for k in _COUNTED}})
                found["events"] += 1
            for k in _COUNTED:
                value = row.get(k)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    found[k] += value
            if by != "club" and _DUPLICATE in row:
                found.setdefault("places", []).append({"event": event, **row[_DUPLICATE]})
    for row in rows.values():
        row["diff"] = row["points_for"] - row["points_against"]
        row["for"] = row["points_for"]
    ordered = sorted(rows.values(), key=lambda r: (*(-r[k] for k in ranked_by), r["player"].casefold()))
    level: tuple[Any, ...] | None = None
    for place, row in enumerate(ordered, 1):
        values = tuple(row[k] for k in ranked_by)
        # Level on every tie-break: one rank (1, 2, 2, 4), as an event's standings share it; the
        # names give the order on the page only.
        row["rank"] = ordered[place - 2]["rank"] if values == level else place
        level = values
    for row in ordered:
        del row["for"]
    return {"league": name, "events": sorted(ids), "tiebreaks": list(ranked_by), "by": by,
            "about": {k: TIEBREAKS[k] for k in ranked_by}, "players": ordered}
