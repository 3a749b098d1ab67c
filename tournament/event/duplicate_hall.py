"""What the hall shows of a duplicate event (issue 38, docs/duplicate.md: at the venue): which
boards' deals may be shown, and each pair's board-by-board card.

A board's deal is shown on the hall's pages only once **every table that plays it** in the
movement has played it (its result is in) or is marked not playing it (``tournament result
--not-played``: that table is out of the board, which is scored over the tables that played it,
as :func:`tournament.event.duplicate.missing` counts it): in a Mitchell the boards move from table to table
round after round, so a board of round 1 may still be played in round 5, and its deal (even
its travellers' scores read beside it) shown earlier would tell a pair that has not played it
yet what it holds.  So do its results at the tables that have played it: until then a board's
traveller says how many tables have played it, and nothing of their scores (docs/duplicate.md).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tournament.event import duplicate


#: The boards every table the movement gives them has played (kept with the session's scoring, in
#: :mod:`tournament.event.duplicate`, which the standings' ``too_few`` ask it of).
complete_boards = duplicate.complete_boards


def still_travelling(too_few: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The duplicate standings' ``too_few`` (:func:`duplicate.standings`) as the pages say them: the
    boards short of tables for good (every table due to play them has: a line each), and the boards
    still travelling, short only so far, named once together (``["3", "5 NS"]``: a board short in
    one direction only names it), so that a report made mid-session does not read as sixteen
    errors (after round 1 every board has been played at one table)."""
    done = [f for f in too_few if f.get("complete", True)]
    waiting: dict[int, list[str]] = {}
    for f in too_few:
        if not f.get("complete", True):
            waiting.setdefault(f["board"], []).append(f["direction"])
    both = {len(d) for d in waiting.values()} == {2}
    return done, [str(b) if both or len(d) > 1 else f"{b} {d[0]}" for b, d in sorted(waiting.items())]


def ranked_pairs(standings: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of the duplicate standings (:func:`duplicate.standings`) that the public pages and
    the feed rank: the pairs with a board scored, ranked again among themselves (docs/duplicate.md).

    A pair with no board scored yet (none played, or none that every table due to play it has
    played, or each at too few tables to compare) stands on 0/0, "0.00%": ranked with the others it
    was *Rank 1* with everyone else early on, or ranked above a pair that scored 0% with negative
    IMPs.  It has no rank until a board of it counts, so it is left out here, and a pair behind it
    moves up.  The one rule for every place that shows a pair's rank: the standings page (the
    hall's and the report's), a pair's card, a player's page, the projector and
    ``/api/v1/standings``; the director's ``tournament standings`` keeps every pair."""
    rows: list[dict[str, Any]] = []
    previous: tuple[str, Fraction, int] | None = None
    split = standings.get("fields") or ()  # a Mitchell: each direction ranked on its own, from 1
    place = 0
    for r in (r for r in standings["pairs"] if r["boards"]):
        field = r["direction"] if r["direction"] in split else ""
        place = place + 1 if previous is not None and previous[0] == field else 1
        key = (field, Fraction(r["matchpoints"], r["top"] or 1), r["imps"])  # as the standings break ties
        rows.append({**r, "rank": rows[-1]["rank"] if key == previous else place})
        previous = key
    return rows


def pair_cards(travellers: list[dict[str, Any]], standings: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Each movement pair's card, board by board, from the travellers (:func:`duplicate.travellers`)
    and the standings: ``{pair: {"pair", "name", "rows": [{"board", "round", "table", "direction",
    "against", "points", "against_points", "net", "matchpoints", "top", "imps", "too_few"}]}}``.
    An EW pair's matchpoints are the top less its NS opponents', its IMPs theirs negated (its net
    is the opposite of theirs, on the same board)."""
    names = {r["pair"]: r["name"] for r in standings["pairs"]}
    cards: dict[int, dict[str, Any]] = {p: {"pair": p, "name": n, "rows": []} for p, n in names.items()}
    for t in travellers:
        for r in t["results"]:
            for side, me, them in (("NS", r["ns"], r["ew"]), ("EW", r["ew"], r["ns"])):
                mine, theirs = (r["ns_points"], r["ew_points"]) if side == "NS" else (r["ew_points"], r["ns_points"])
                mp = r["ns_matchpoints"]
                imps = r["ns_imps"]
                if side == "EW" and not r["too_few"]:
                    mp, imps = r["top"] - mp, -imps
                card = cards.setdefault(me, {"pair": me, "name": names.get(me, ""), "rows": []})
                card["rows"].append({"board": t["board"], "round": r["round"], "table": r["table"], "direction": side,
                                     "against": them, "against_name": names.get(them, ""), "points": mine,
                                     "against_points": theirs, "net": mine - theirs,
                                     "matchpoints": None if r["too_few"] else mp, "top": r["top"],
                                     "imps": None if r["too_few"] else imps, "too_few": r["too_few"]})
    for card in cards.values():
        card["rows"].sort(key=lambda x: (x["round"], x["board"]))
    return cards
