"""The numbers a pairs event shows, and what a number typed at the command line stands for.

A pairs event shows one number a pair everywhere (the standings, *Find your table*, a player's
page, the score sheets): the pair's, and in a duplicate event its number in the movement once
round 1 is seated; a player keeps their own number inside the event (a record's ``id``).  So a
number typed to name a pair may mean either: :func:`find_pair` takes it when both readings agree
and refuses it, naming both pairs, when they do not.
"""

from __future__ import annotations

from tournament.errors import AmbiguousPlayer, UnknownPlayer
from tournament.names import did_you_mean, name_key
from tournament.settings import PAIRS
from tournament.store import boards as boards_sql
from tournament.store.event_store import EventStore
from tournament.values import Player, Team


def find_pair(store: EventStore, key: str) -> Team:
    """In a pairs event, the pair ``key`` names: the pair's name, a member's name, or a number.  The
    pairs event shows one number a pair everywhere, the pair's (:func:`shown_numbers`: in a duplicate
    event its number in the movement), while a player keeps their own number inside the event: so
    ``#3`` may be pair 3 or the pair of player 3.  Where those are two different pairs, which one is
    meant cannot be guessed (``withdraw #3`` after reading pair #3 on the standings took player 3's
    pair): that is refused, naming both, so the director names the pair.  A name comes first, as
    everywhere: a pair's, then a member's."""
    teams = store.teams()
    named = next((t for t in teams if name_key(t.name) == name_key(key)), None)
    if named is not None:
        return named
    try:
        member: Player | None = store.find_player(key)
    except UnknownPlayer:
        member = None
    text = key.strip().removeprefix("#")
    numbered = None
    if text.isascii() and text.isdigit() and len(text) <= 18:
        shown = shown_numbers(store)
        numbered = next((t for t in teams if t.players and shown.get(t.players[0], t.id) == int(text)), None)
    by_member = next((t for t in teams if member is not None and t.id == member.team), None)
    if by_member is not None and (numbered is None or numbered.id == by_member.id
                                  or name_key(member.name) == name_key(key)):  # type: ignore[union-attr]
        return by_member
    if numbered is not None and by_member is None:
        return numbered
    if numbered is None:
        raise UnknownPlayer(f"no pair or player named or numbered {key!r} in this event"
                            + did_you_mean(key, [t.name for t in teams] + [p.name for p in store.players()]))
    raise AmbiguousPlayer(f"{key!r} is ambiguous: pair #{text} is {numbered.name}, and player #{text} "
                          f"({member.name}) plays in {by_member.name}; name the pair you mean: "  # type: ignore[union-attr]
                          f"{numbered.name!r} or {by_member.name!r}")


def shown_numbers(store: EventStore) -> dict[int, int]:
    """Player id -> the number the event's printouts show beside the player, where it is not the
    player's own: their pair's in a pairs event, and in a duplicate event their pair's number in the
    movement (once round 1 is seated; the pair's id before).  Empty in other events."""
    if store.settings.format != PAIRS:  # (a duplicate event is stored as a pairs event)
        return {}
    in_movement = ({team: number for number, team in boards_sql.pair_numbers(store).items()}
                   if store.settings.duplicate else {})
    return {p.id: in_movement.get(p.team, p.team) for p in store.players() if p.team}
