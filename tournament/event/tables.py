"""A table's game before its first hand: the record every way of recording a table starts from.

The score sheets' DGN files, ``tournament record --table N`` and the venue's table pages all
start a table's game from :func:`table_record`, so a game recorded any of these ways is the
same record and enters the event through the same checks (the same game, rules, seats,
players, round and table as :mod:`tournament.event.results` requires); and a duplicate table's
phone is judged to have a hand in play (:func:`hand_left_on_phone`), and any table's phone its game
under way (:func:`game_on_phone`), by its log replayed from it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domrec.record import Player as RecordPlayer, Record

from tournament.settings import Settings
from tournament.values import Player, Table

if TYPE_CHECKING:  # (the event file's store, read by hand_left_on_phone and game_on_phone alone)
    from tournament.store.event_store import EventStore


def table_record(settings: Settings, table: Table, players: dict[int, Player]) -> Record:
    """The record of ``table`` before its first hand: the event's game and rules, the event's name,
    the round and table (as numbers), and each seat's player with the player's number as id."""
    return Record(game=settings.game, rules=settings.rules(),
                  event={"name": settings.name, "round": table.round, "table": table.number},
                  players=tuple(RecordPlayer(seat=s.seat, name=players[s.player].name, id=players[s.player].code)
                                for s in table.seats))


def _replayed(store: EventStore, table: Table):
    """The table's log replayed as the table's page replays it (:func:`tournament.event.table_log.replay`)."""
    from tournament.event.table_log import replay
    from tournament.store import venue as venue_sql

    template = table_record(store.settings, table, store.players_by_id([s.player for s in table.seats]))
    return replay(template, venue_sql.log(store, table.id))


def hand_left_on_phone(store: EventStore, table: Table) -> bool:
    """Whether anything of the hand a duplicate table's phone was playing is left in its log: its
    hand line or a move of it.  A phone that typed ``hand 1`` and took it back (Undo, no move made)
    has written rows since its last board, yet nothing of the board's hand stands: the board is not
    in play (time ran out before it began, and it is marked not played as any other board is).  The
    log is replayed as the table's page replays it (:func:`tournament.event.table_log.replay`), so
    this is the hand the phone shows, not a count of the rows it sent."""
    return _replayed(store, table).session.begun


def game_on_phone(store: EventStore, table: Table) -> bool:
    """Whether the table's phone has its game under way, as every view of the table says it
    (:func:`tournament.event.table_log.started`: the first hand's line, a lead draw alone, counts;
    a hand typed and taken back whole does not): a result entered, or its players changed, would
    go under that game.  Read from the log only where the phone wrote a move or a confirmation."""
    from tournament.event.table_log import started
    from tournament.store import desk as desk_sql

    return bool(desk_sql.venue_rows(store, [table.id])[table.id]) and started(_replayed(store, table))


def game_on_phone_said(store: EventStore, table: Table) -> dict | None:
    """The game under way on the table's phone (:func:`game_on_phone`) as the audit trail keeps
    what a result entered over it took the place of: the hand it was at (``in_hand``: that hand
    in play, else the last closed) and the totals so far,
    side by side in seat order (``[["NS", 40], ["EW", 30]]``: the trail's JSON sorts a dict's
    keys); None where the phone has no game under way."""
    from tournament.event.table_log import started
    from tournament.store import desk as desk_sql

    if not desk_sql.venue_rows(store, [table.id])[table.id]:
        return None
    live = _replayed(store, table)
    if not started(live):
        return None
    game = live.session.state()
    totals = game.get("totals") or {}
    return {"hand": game.get("hand"), "in_hand": bool(game.get("in_hand")),
            "totals": [[side, totals[side]] for side in table.sides() if side in totals]}
