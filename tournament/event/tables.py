"""A table's game before its first hand: the record every way of recording a table starts from.

The score sheets' DGN files, ``tournament record --table N`` and the venue's table pages all
start a table's game from :func:`table_record`, so a game recorded any of these ways is the
same record and enters the event through the same checks (the same game, rules, seats,
players, round and table as :mod:`tournament.event.results` requires)."""

from __future__ import annotations

from domrec.record import Player as RecordPlayer, Record

from tournament.settings import Settings
from tournament.values import Player, Table


def table_record(settings: Settings, table: Table, players: dict[int, Player]) -> Record:
    """The record of ``table`` before its first hand: the event's game and rules, the event's name,
    the round and table (as numbers), and each seat's player with the player's number as id."""
    return Record(game=settings.game, rules=settings.rules(),
                  event={"name": settings.name, "round": table.round, "table": table.number},
                  players=tuple(RecordPlayer(seat=s.seat, name=players[s.player].name, id=players[s.player].code)
                                for s in table.seats))
