"""A table's game before its first hand: the record every way of recording a table starts from.

The score sheets' DGN files, ``tournament record --table N`` and the venue's table pages all
start a table's game from :func:`table_record`, so a game recorded any of these ways is the
same record and enters the event through the same checks (the same game, rules, seats,
players, round and table as :mod:`tournament.event.results` requires); and a duplicate table's
phone is judged to have a hand in play (:func:`hand_left_on_phone`) by its log replayed from it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domrec.record import Player as RecordPlayer, Record

from tournament.settings import Settings
from tournament.values import Player, Table

if TYPE_CHECKING:  # (the event file's store, read by hand_left_on_phone alone)
    from tournament.store.event_store import EventStore


def table_record(settings: Settings, table: Table, players: dict[int, Player]) -> Record:
    """The record of ``table`` before its first hand: the event's game and rules, the event's name,
    the round and table (as numbers), and each seat's player with the player's number as id."""
    return Record(game=settings.game, rules=settings.rules(),
                  event={"name": settings.name, "round": table.round, "table": table.number},
                  players=tuple(RecordPlayer(seat=s.seat, name=players[s.player].name, id=players[s.player].code)
                                for s in table.seats))


def hand_left_on_phone(store: EventStore, table: Table) -> bool:
    """Whether anything of the hand a duplicate table's phone was playing is left in its log: its
    hand line or a move of it.  A phone that typed ``hand 1`` and took it back (Undo, no move made)
    has written rows since its last board, yet nothing of the board's hand stands: the board is not
    in play (time ran out before it began, and it is marked not played as any other board is).  The
    log is replayed as the table's page replays it (:func:`tournament.event.table_log.replay`), so
    this is the hand the phone shows, not a count of the rows it sent."""
    from tournament.event.table_log import replay
    from tournament.store import venue as venue_sql

    template = table_record(store.settings, table, store.players_by_id([s.player for s in table.seats]))
    shown = replay(template, venue_sql.log(store, table.id)).session.state()
    return bool(shown["hand"] or shown["in_hand"] or shown["announced"])
