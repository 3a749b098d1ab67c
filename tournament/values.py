"""The values of an event: its players, partnerships, rounds, tables and results.

Frozen attrs classes, read from the store and handed to the pairing and
standings functions, which are plain functions over these values (and over the
event's :class:`~tournament.settings.Settings`).
"""

from __future__ import annotations

from typing import Sequence

import attrs


@attrs.frozen
class Player:
    id: int
    name: str
    team: int | None
    entered: int  # first round the player can be paired in
    withdrawn: int | None  # first round the player is no longer paired in
    #: The rounds the player was out of before returning (``tournament return``): (the first round
    #: out, the first round back) for each withdrawal they came back from.  A return does not
    #: undo the withdrawal: they were told they would miss those rounds, so nothing pairs them there.
    away: tuple[tuple[int, int], ...] = ()

    def active_in(self, round_no: int) -> bool:
        return (self.entered <= round_no and (self.withdrawn is None or round_no < self.withdrawn)
                and not any(out <= round_no < back for out, back in self.away))

    def back_from(self) -> int | None:
        """The round of their last return, while they are not withdrawn again (None: never returned)."""
        return self.away[-1][1] if self.away and self.withdrawn is None else None

    @property
    def code(self) -> str:
        """The id a record gives for this player (``players[].id``)."""
        return str(self.id)


@attrs.frozen
class Team:
    id: int
    name: str
    players: tuple[int, int]
    entered: int
    withdrawn: int | None
    #: As :attr:`Player.away`: the rounds the pair was out of before returning.
    away: tuple[tuple[int, int], ...] = ()

    def active_in(self, round_no: int) -> bool:
        return (self.entered <= round_no and (self.withdrawn is None or round_no < self.withdrawn)
                and not any(out <= round_no < back for out, back in self.away))


@attrs.frozen
class Squad:
    """A team of a team event: its pairs (partnership ids, registered order) and reserves (players)."""

    id: int
    name: str
    pairs: tuple[int, ...]
    reserves: tuple[int, ...]
    entered: int
    withdrawn: int | None

    def active_in(self, round_no: int) -> bool:
        return self.entered <= round_no and (self.withdrawn is None or round_no < self.withdrawn)


@attrs.frozen
class Substitution:
    """A team event's reserve brought into a pair: from ``from_round`` on, ``player_in`` sits in
    ``pair``'s place of ``player_out`` (the captain's choice, made before that round is paired)."""

    id: int
    from_round: int
    squad: int
    pair: int
    player_out: int
    player_in: int


@attrs.frozen
class SeatAssignment:
    seat: str
    side: str
    player: int


@attrs.frozen
class Table:
    id: int
    round: int
    number: int
    seats: tuple[SeatAssignment, ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(s.player for s in self.seats)

    def sides(self) -> tuple[str, ...]:
        out: list[str] = []
        for s in self.seats:
            if s.side not in out:
                out.append(s.side)
        return tuple(out)

    def in_seat_order(self, scores: dict[str, int]) -> list[tuple[str, int]]:
        """``scores`` side by side in the table's seating order (NS before EW; an individual game's
        seats in the game's own order), as every line the tool prints says them: a result read back
        from the file has its keys sorted (EW before NS).  A side the table does not have, last."""
        return in_order(scores, self.sides())


def in_order(scores: dict[str, int], sides: Sequence[str]) -> list[tuple[str, int]]:
    """``scores`` side by side in the order of ``sides`` (a table's, :meth:`Table.in_seat_order`);
    a side not among them, last."""
    order = {side: i for i, side in enumerate(sides)}
    return sorted(scores.items(), key=lambda kv: order.get(kv[0], len(order)))


@attrs.frozen
class Result:
    id: int
    table: int  # table id
    kind: str  # "record", "manual" or "forfeit" (a side did not play: the event's fixed score)
    verified: bool
    scores: dict[str, int]
    winner: str | None
    record_hash: str | None
    entered_at: str
    note: str | None = None

    @property
    def absent(self) -> tuple[str, ...]:
        """The sides that did not play, for a forfeit (its note is ``FORFEIT_NOTE`` and the sides)."""
        if self.kind != "forfeit" or not self.note or not self.note.startswith(FORFEIT_NOTE):
            return ()
        return tuple(x.strip() for x in self.note[len(FORFEIT_NOTE):].split(",") if x.strip())

    @property
    def absent_players(self) -> tuple[int, ...]:
        """The players who did not play, for a forfeit by player (its note is
        ``PLAYER_FORFEIT_NOTE`` and their numbers: ``players who did not play: #12, #31``)."""
        return forfeit_players(self.note) if self.kind == "forfeit" else ()


#: A result entered from a record of hand scores only (a score sheet, the venue's *Scores only*), or
#: with any hand typed by its score alone: checked hand by hand as the rules allow, but that play not
#: replayed, so the public reads "scores only", never "verified record" (as ``domrec validate`` says).
SCORES_ONLY_NOTE = "scores only"
#: A forfeit's note: these words, then the sides that did not play ("did not play: NS").
FORFEIT_NOTE = "did not play: "
#: A forfeit by player's note: these words, then the players' numbers ("players who did not play: #12").
PLAYER_FORFEIT_NOTE = "players who did not play: "


def forfeit_players(note: str | None) -> tuple[int, ...]:
    """The player numbers a forfeit-by-player note names (none for any other note)."""
    if not note or not note.startswith(PLAYER_FORFEIT_NOTE):
        return ()
    out = []
    for x in note[len(PLAYER_FORFEIT_NOTE):].split(","):
        text = x.strip().lstrip("#")
        if text.isascii() and text.isdigit() and len(text) <= 18:
            out.append(int(text))
    return tuple(out)


@attrs.frozen
class Round:
    id: int
    number: int
    stage: int
    seed: str
    paired_at: str
