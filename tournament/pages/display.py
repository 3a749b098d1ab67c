"""The standings as people read them: at the terminal and on the report's pages.

The data (:meth:`~tournament.pairing.standings.Standings.row_dict`: JSON, CSV) keeps one number
a key, for scripts.  People read a shorter table: games won, drawn and lost are one ``W-D-L``
column, so that no column reads like its neighbour ("won" beside "wins"), and the columns that
rank come first, right after the name.
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

from tournament.event.stages import main_round_label  # noqa: F401  (the feed labels rounds the same way)
from tournament.settings import INDIVIDUAL, PAIRS

#: Display headers of the data keys whose names would mislead or crowd a narrow screen.
LABELS = {"id": "no.", "diff": "diff", "buchholz": "Buchholz", "median-buchholz": "median Buchholz",
          "sonneborn-berger": "Sonneborn-Berger", "best-round": "best round"}
RECORD = "W-D-L"
#: Columns that may go first when a narrow terminal cannot show them all (the ranking keys never go).
DROP_ORDER = ("status", "no.", "Buchholz", "forfeits", "byes", "against", "for", RECORD, "firsts", "played")


def display_columns(data_columns: Sequence[str], tiebreaks: Sequence[str]) -> list[str]:
    """The headers people see, in order: rank, name, the ranking keys in ranking order, then the rest."""
    return list(_display_columns(tuple(data_columns), tuple(tiebreaks)))


@functools.lru_cache(maxsize=256)
def _display_columns(data_columns: tuple[str, ...], tiebreaks: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`display_columns`, worked out once for a table's columns (every row of a thousand
    players' standings asks it)."""
    shown: list[str] = []
    for c in data_columns:
        if c in ("won", "drawn", "lost"):
            if RECORD not in shown:
                shown.append(RECORD)
        else:
            shown.append(LABELS.get(c, c))
    if "diff" in shown and any(k in shown for k in ("efectividad", "effectiveness")):
        # efectividad is points for minus against, the very number of diff: one name for it, the
        # one the event ranks by (the data, JSON and CSV, keeps both keys for scripts).
        shown.remove("diff")
    ranking = [LABELS.get(k, k) for k in tiebreaks if LABELS.get(k, k) in shown]
    # The games played beside the score: a score of fewer games (a bye, a sit-out, a late entry)
    # reads for what it is.
    ranking += [c for c in ("played",) if c in shown and c not in ranking]
    head = [c for c in ("rank", "name") if c in shown]
    return tuple(head + ranking + [c for c in shown if c not in head and c not in ranking])


#: A team's standings at the terminal (``standings`` of a team event, ``--by team``, ``--stage N``):
#: each data key (:meth:`tournament.pairing.teams.TeamStanding.to_dict`) under a header that says
#: what it counts.  The data's ``played`` counts matches and its ``won`` and ``lost`` games, so a
#: grid headed ``played | won | lost`` read "played 0, won 1" mid-round; the hall's pages say
#: "games won" and "played" (matches) already.  The keys added to the data under plainer names
#: (``matches_played``, ``games_won``, ``games_lost``) are the same numbers: not shown twice.
TEAM_LABELS = {"played": "matches played", "won": "games won", "lost": "games lost", "points_for": "points for",
               "points_against": "points against", "match_points": "match points",
               "matches_won": "matches won", "matches_drawn": "matches drawn", "matches_lost": "matches lost"}
TEAM_REPEATED = ("matches_played", "games_won", "games_lost")


def team_display_row(row: dict[str, Any]) -> dict[str, Any]:
    """One team's standings row (its data, less ``id``) as the terminal's grid heads it."""
    return {TEAM_LABELS.get(c, c): v for c, v in row.items() if c not in TEAM_REPEATED}


def ranking_columns(tiebreaks: Sequence[str]) -> set[str]:
    """The displayed columns that rank (rank, name, the ranking keys): never hidden, on a phone or
    at a narrow terminal."""
    return {"rank", "name", *(LABELS.get(k, k) for k in tiebreaks)}


def display_row(row: dict[str, Any], tiebreaks: Sequence[str]) -> dict[str, Any]:
    """One standings row (:meth:`Standings.row_dict`) as people read it (see :func:`display_columns`)."""
    out: dict[str, Any] = {}
    for c, v in row.items():
        if c in ("won", "drawn", "lost"):
            out[RECORD] = f"{row.get('won', 0)}-{row.get('drawn', 0)}-{row.get('lost', 0)}"
        else:
            out[LABELS.get(c, c)] = v
    return {c: out[c] for c in _display_columns(tuple(row), tuple(tiebreaks))}


@functools.lru_cache(maxsize=256)
def cell_sources(data_columns: tuple[str, ...], tiebreaks: tuple[str, ...]) -> dict[str, str | None]:
    """Each displayed column of rows with ``data_columns`` (in their order) -> the data key its
    value is (None: the ``W-D-L`` record), as :func:`display_row` reads it: worked out once for
    a table, not once a row (:func:`display_value`)."""
    source: dict[str, str | None] = {}
    for c in data_columns:
        if c in ("won", "drawn", "lost"):
            source[RECORD] = None
        else:
            source[LABELS.get(c, c)] = c
    return {c: source[c] for c in _display_columns(data_columns, tiebreaks)}


def display_value(row: dict[str, Any], source: str | None) -> Any:
    """A displayed cell of ``row``: the value of its data key ``source``, or (None) its W-D-L record."""
    if source is None:
        return f"{row.get('won', 0)}-{row.get('drawn', 0)}-{row.get('lost', 0)}"
    return row[source]


def is_text_column(header: str) -> bool:
    """Whether a displayed column holds words (may wrap) rather than numbers (never cut)."""
    return header in ("name", "status", "pair")


def format_name(format: str) -> str:
    """An event's format as a person names it."""
    return {PAIRS: "pairs, Swiss rounds", INDIVIDUAL: "individual tables"}.get(format, "rotating partners")
