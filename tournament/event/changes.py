"""The event's change log: every change people can see, numbered, appended, never rewritten.

Another program follows an event by asking for the changes after the last one it has seen
(:func:`changes_since`), instead of reading every page again: the venue's feed serves this log
(``GET /api/v1/changes?since=SEQ``, docs/venue.md), and ``tournament export`` writes it whole.

Each operation that changes what the public sees records its change here (:func:`record`), within
its own write transaction, so the change and its row land together or not at all: a refused,
rolled-back or killed write leaves no row, and an operation that changes nothing (the same record
entered twice) records nothing.  Numbers (``seq``) start at 1 and grow by one a committed change
(:mod:`tournament.store.changes` says why a rolled-back one leaves no gap).

What a change's ``data`` holds, by ``kind`` (``round`` and ``table`` say which table, when one):

* ``event_created`` ``{name, game, format}``: the first change of a file made by this version;
* ``log_started`` ``{from_schema}``: the first change of a file made before the log existed,
  written by its first change after this version opened it; what the event held before is read
  from the feed (event, standings, rounds), not from the log;
* ``player_added``, ``player_withdrawn`` ``{id, name, from_round}``; in a pairs event
  ``pair_added`` ``{id, name, players: [{id, name}], from_round}`` and ``pair_withdrawn``;
* ``round_paired`` (round) ``{tables, byes}``: a round's tables and seats, at ``/rounds/{n}``;
* ``stage_created`` ``{id, name, format, first_round, final}``: a knockout, a round robin, or a
  rotating event's final (``final`` true);
* ``table_seated``, ``table_reseated`` (round, table) ``{stage, match, game, seats}``: a stage's
  table seated as its game falls due, or given new players by a corrected result;
* ``result_entered`` (round, table) ``{kind, scores, winner, verified[, forfeit]}``;
* ``result_amended`` (round, table) ``{old, new}``: each a result as ``result_entered`` gives it;
* ``table_status`` (round, table) ``{status}``: ``not started``, ``playing``, ``waiting`` (the
  game is over, waiting for its confirmation) or ``confirmed`` (the table has its result); only
  the status of a game in play, never its moves;
* ``event_finished`` ``{champion}``: the last stage is decided (a knockout's champion, a final's
  tables, a round robin's games), or a balanced schedule's last round has every result.  A stage
  drawn later (``stage_created``) takes the event on again.

* ``round_unpaired`` (round) ``{tables, byes}``: the last round taken back before any of it was
  played (``tournament unpair``); ``round_paired`` pairs it again;
* ``seat_changed`` (round, table) ``{seats}``: a table's players changed before it was played
  (``tournament swap``, ``move``); with no table, ``{byes}``: the round's byes changed hands;
* ``player_renamed`` ``{id, old, name}`` (``pair_renamed`` for a pair's name);
  ``player_removed`` ``{id, name}`` (``pair_removed`` ``{id, name, players}``): an entry made by
  mistake, gone before it played;
* ``player_sitting_out`` ``{id, name, round}``: a player who will have a bye in that round (a
  lifted request: ``round`` null); ``player_returned`` ``{id, name, from_round}`` (and
  ``pair_returned``): a withdrawn player (pair) back, with their games so far.

* ``game_corrected`` (round, table) ``{hand, status}``: the director corrected one hand (a move,
  a line, its score) of the table's game, or took a hand back; the rest of the game replayed.
  Never a move: who and why are in the director's trail (``tournament history``); a confirmed
  game's new result is its own ``result_amended``.

``result_deleted`` is kept for an operation this version does not have.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from tournament.errors import DamagedEventFile
from tournament.store import changes as sql
from tournament.store.event_store import EventStore
from tournament.values import FORFEIT_NOTE, SCORES_ONLY_NOTE, SeatAssignment, forfeit_players

EVENT_CREATED = "event_created"
LOG_STARTED = "log_started"
PLAYER_ADDED = "player_added"
PLAYER_WITHDRAWN = "player_withdrawn"
PLAYER_RENAMED = "player_renamed"
PAIR_ADDED = "pair_added"
PAIR_WITHDRAWN = "pair_withdrawn"
ROUND_PAIRED = "round_paired"
STAGE_CREATED = "stage_created"
TABLE_SEATED = "table_seated"
TABLE_RESEATED = "table_reseated"
RESULT_ENTERED = "result_entered"
RESULT_AMENDED = "result_amended"
RESULT_DELETED = "result_deleted"
TABLE_STATUS = "table_status"
EVENT_FINISHED = "event_finished"
ROUND_UNPAIRED = "round_unpaired"
SEAT_CHANGED = "seat_changed"
PAIR_RENAMED = "pair_renamed"
PLAYER_REMOVED = "player_removed"
PAIR_REMOVED = "pair_removed"
PLAYER_SITTING_OUT = "player_sitting_out"
PLAYER_RETURNED = "player_returned"
PAIR_RETURNED = "pair_returned"
GAME_CORRECTED = "game_corrected"
#: A team event's teams (issue 37): entered, renamed, withdrawn, a round's line-up set, a reserve brought in.
TEAM_ADDED = "team_added"
TEAM_RENAMED = "team_renamed"
TEAM_WITHDRAWN = "team_withdrawn"
LINEUP_SET = "lineup_set"
PLAYER_SUBSTITUTED = "player_substituted"
CAPTAIN_CHANGE = "captain_change"
BOARD_RESULT = "board_result"
KINDS = (EVENT_CREATED, LOG_STARTED, PLAYER_ADDED, PLAYER_WITHDRAWN, PLAYER_RENAMED, PAIR_ADDED, PAIR_WITHDRAWN,
         ROUND_PAIRED, STAGE_CREATED, TABLE_SEATED, TABLE_RESEATED, RESULT_ENTERED, RESULT_AMENDED, RESULT_DELETED,
         TABLE_STATUS, EVENT_FINISHED, ROUND_UNPAIRED, SEAT_CHANGED, PAIR_RENAMED, PLAYER_REMOVED, PAIR_REMOVED,
         PLAYER_SITTING_OUT, PLAYER_RETURNED, PAIR_RETURNED, GAME_CORRECTED, TEAM_ADDED, TEAM_RENAMED,
         TEAM_WITHDRAWN, LINEUP_SET, PLAYER_SUBSTITUTED, CAPTAIN_CHANGE, BOARD_RESULT)

#: A table's statuses, as the feed and ``table_status`` changes name them.
NOT_STARTED, PLAYING, WAITING, CONFIRMED = "not started", "playing", "waiting", "confirmed"
STATUSES = (NOT_STARTED, PLAYING, WAITING, CONFIRMED)

#: The changes that alter nothing but a table's status in play (playing, waiting for its confirmation):
#: the public pages that show the round's tables follow them; every other public page (the
#: standings, find your table, a player's page) shows only what is entered, and does not.
STATUS_KINDS = (TABLE_STATUS,)

#: The most changes one call of :func:`changes_since` returns.
MAX_LIMIT = 1000


class NotInWrite(RuntimeError):
    """A change recorded outside the write transaction that makes it: a bug of the caller, as the
    change could then land without its row, or its row without it."""


def record(store: EventStore, kind: str, round_no: int | None = None, table_no: int | None = None,
           data: dict[str, Any] | None = None) -> int:
    """Within :meth:`EventStore.write`: append one change; its number.  A file without the log
    gets it now, in this same transaction, starting with ``log_started``."""
    if kind not in KINDS:
        raise ValueError(f"no change kind {kind!r}")
    if not store.conn.in_transaction:
        raise NotInWrite(f"a {kind} change is recorded within the write that makes it")
    old = sql.upgrade_for_changes(store)
    if old is not None:
        sql.insert_change(store.conn, LOG_STARTED, None, None, {"from_schema": old})
    store.changes_logged += 1
    return sql.insert_change(store.conn, kind, round_no, table_no, data or {})


def latest_seq(store: EventStore) -> int:
    """The number of the event's last change; 0 when it has none."""
    return sql.latest(store)


def latest_public_seq(store: EventStore) -> int:
    """The public pages' revision: the number of the event's last change that is not a table's
    status (:data:`STATUS_KINDS`): a result in, a round paired, a correction, a name.  A page made
    at this revision is the same page until it moves on, however many moves the tables make."""
    return sql.latest_except(store, STATUS_KINDS)


def changes_since(store: EventStore, since: int, limit: int = MAX_LIMIT) -> list[dict[str, Any]]:
    """The changes numbered above ``since``, oldest first, at most ``limit`` of them: each
    ``{"seq", "at", "kind", "round", "table", "data"}``.  Ask again with the last ``seq`` seen."""
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise ValueError(f"since is a change's number, 0 or more (not {since!r})")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit is a whole number, 1 or more (not {limit!r})")
    out = []
    for seq, at, kind, rnd, tno, data in sql.since(store, since, limit):
        try:
            parsed = json.loads(data)
        except (TypeError, ValueError):
            raise DamagedEventFile(f"{store.path} is damaged: change {seq} cannot be read; run `tournament check "
                                   f"{store.path}` to see what is affected") from None
        out.append({"seq": seq, "at": at, "kind": kind, "round": rnd, "table": tno, "data": parsed})
    return out


# --- what a change says -------------------------------------------------------------------------


def result_doc(kind: str, verified: bool, scores: dict[str, int], winner: str | None,
               note: str | None) -> dict[str, Any]:
    """A result as the public reads it (the feed, the export, ``result_*`` changes)."""
    doc: dict[str, Any] = {"scores": dict(scores), "winner": winner, "verified": verified, "kind": kind}
    if kind == "record" and note == SCORES_ONLY_NOTE:  # hand scores only: no play was verified
        doc["verified"], doc["scores_only"] = False, True
    if kind == "forfeit" and note and note.startswith(FORFEIT_NOTE):
        doc["forfeit"] = [x.strip() for x in note[len(FORFEIT_NOTE):].split(",") if x.strip()]
    if kind == "forfeit" and forfeit_players(note):
        doc["forfeit_players"] = list(forfeit_players(note))
    return doc


def seats_doc(seats: Sequence[SeatAssignment], names: dict[int, str]) -> list[dict[str, Any]]:
    """A table's seats as the public reads them: seat, side, player number and name."""
    return [{"seat": s.seat, "side": s.side, "id": s.player, "name": names.get(s.player, "")} for s in seats]


def table_statuses(store: EventStore, round_no: int | None = None) -> dict[tuple[int, int], str]:
    """(round, table) -> the status its last ``table_status`` change gave it (tables without
    one are not started, or played on paper: the log knows nothing of them until their result)."""
    out = {}
    for key, data in sql.table_statuses(store, TABLE_STATUS, round_no).items():
        status = json.loads(data).get("status")
        if status in STATUSES:
            out[key] = status
    return out


def table_status(store: EventStore, round_no: int, table_no: int) -> str:
    """One table's status as its last ``table_status`` change gave it (see :func:`table_statuses`)."""
    data = sql.last_about_table(store, TABLE_STATUS, round_no, table_no)
    status = json.loads(data).get("status") if data is not None else None
    return status if status in STATUSES else NOT_STARTED


def in_round(store: EventStore, kind: str, round_no: int) -> list[dict[str, Any]]:
    """The data of every change of ``kind`` about round ``round_no``, oldest first (a round's
    captains' changes, for their sheets)."""
    return [json.loads(data) for data in sql.of_kind_in_round(store, kind, round_no)]


def last_of(store: EventStore, *kinds: str) -> tuple[str, dict[str, Any]] | None:
    """The latest change of one of ``kinds``: its kind and data."""
    found = sql.last_of_kinds(store, kinds)
    return None if found is None else (found[1], json.loads(found[2]))
