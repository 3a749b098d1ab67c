"""Fixing the player list: rename, remove an entry made by mistake, sit out a round, return after a
withdrawal, a player's id from outside the event (a federation number).

Each operation is one transaction over the store, refused with one line when it cannot be done,
written with its line in the desk's audit trail (:mod:`tournament.event.desk`) and its change in
the public change log.  Entering and withdrawing are in :mod:`tournament.event.players`.

A renamed player keeps their number, games and results: the tables, standings and ratings read
names from the player list, so they follow at once.  A stored game record keeps the name it was
recorded with; its players are matched to the table by number (``players[].id``) or, for a record
without numbers, by the name at the time (``check`` accepts either the current name or one the
trail shows the player had).
"""

from __future__ import annotations

from tournament.errors import Refused, UnknownPlayer
from tournament.event import changes, duplicate_withdrawal
from tournament.event.desk import NOBODY, Who, find_unit, trail_it, unknown_pair_or_player
from tournament.event.players import (_check_name, _refuse_in_a_seated_movement, _refuse_look_alikes,
                                      check_federation_id, set_federation_ids)
from tournament.names import name_key
from tournament.settings import BALANCED, PAIRS
from tournament.store import desk as sql
from tournament.store.boards import pair_numbers
from tournament.store.event_store import EventStore
from tournament.values import Player, Squad, Team

def pair_named(store: EventStore, name: str) -> Team | None:
    """In a pairs event, the pair ``name`` names (as :func:`rename` finds it: a pair's name comes
    before a member's); otherwise, or when no pair is named so, ``None``."""
    if store.settings.format != PAIRS:
        return None
    return next((t for t in store.teams() if name_key(t.name) == name_key(name)), None)


def rename(store: EventStore, old: str, new: str, who: Who = NOBODY) -> tuple[str, str]:
    """Rename a player (in a pairs event, a pair by its name, or a member by theirs).  Returns
    (old name, new name).  Refused when the new name, or a look-alike, is taken."""
    new = _check_name(new)
    with store.write():
        pairs = store.settings.format == PAIRS
        team = pair_named(store, old)
        if team is not None:
            if name_key(new) != name_key(team.name):
                _refuse_look_alikes(store, [], [new], but=team.id)
            elif new == team.name:
                raise Refused(f"the pair is already named {new!r}")
            sql.rename_team(store, team.id, new)
            changes.record(store, changes.PAIR_RENAMED, data={"id": team.id, "old": team.name, "name": new})
            trail_it(store, "pair_renamed", None, {"pair": team.id, "old": team.name, "name": new}, who)
            return team.name, new
        try:
            player = store.find_player(old)
        except UnknownPlayer:
            if not pairs:
                raise
            raise unknown_pair_or_player(store, old) from None  # a pair's name too, as withdraw says it
        if name_key(new) != name_key(player.name):
            _refuse_look_alikes(store, [new], but=player.id)
        elif new == player.name:
            raise Refused(f"#{player.id} is already named {new!r}")
        sql.rename_player(store, player.id, new)
        changes.record(store, changes.PLAYER_RENAMED, data={"id": player.id, "old": player.name, "name": new})
        trail_it(store, "player_renamed", None, {"player": player.id, "old": player.name, "name": new}, who)
        return player.name, new


def remove(store: EventStore, key: str, who: Who = NOBODY) -> Player | Team:
    """Remove an entry made by mistake, before it has played (been seated, or had a bye): the
    player (a pairs event: the pair) is gone from the list, and their number is never given
    again.  A player who has played is withdrawn instead (``tournament withdraw``)."""
    with store.write():
        players, team = find_unit(store, key)
        label = team.name if team is not None else players[0].name
        # A pair of a seated movement has its number in it, sitting out round 1 or not (and cannot withdraw).
        _refuse_in_a_seated_movement(store, f"{label} cannot be removed",
                                     "a pair that has left is withdrawn (tournament withdraw: every board it "
                                     "has not played is marked not played)")
        if any(sql.has_played(store, p.id) for p in players):
            raise Refused(f"{label} has played (a seat or a bye in a round): withdraw instead, their games stay")
        if store.settings.schedule == BALANCED and store.last_round():
            raise Refused("a balanced schedule is fixed for its players once a round is paired: withdraw instead")
        for p in players:
            sql.delete_player(store, p.id)
        if team is not None:
            sql.delete_team(store, team.id)
            changes.record(store, changes.PAIR_REMOVED, data={"id": team.id, "name": team.name,
                                                              "players": [{"id": p.id, "name": p.name}
                                                                          for p in players]})
            trail_it(store, "pair_removed", None, {"pair": team.id, "name": team.name,
                                                   "players": [p.id for p in players]}, who)
            return team
        p = players[0]
        changes.record(store, changes.PLAYER_REMOVED, data={"id": p.id, "name": p.name})
        trail_it(store, "player_removed", None, {"player": p.id, "name": p.name}, who)
        return p


def sit_out(store: EventStore, key: str, round_no: int | None = None, lift: bool = False,
            who: Who = NOBODY) -> tuple[str, int]:
    """A player (a pairs event: a pair) will not be paired in round ``round_no`` (default: the
    next round) and has a bye there, scored by the event's ``--sit-out-score`` (nothing by default;
    a pairing's bye keeps ``--bye``); they are paired
    again the round after.  ``lift`` cancels the request.  Returns (name, round)."""
    with store.write():
        players, team = find_unit(store, key)
        label = team.name if team is not None else players[0].name
        nxt = store.last_round() + 1
        number = nxt if round_no is None else round_no
        if store.settings.duplicate and not lift:  # the movement seats every pair every round, whatever is asked
            raise Refused(f"{label} cannot sit out round {number}: a duplicate movement seats every pair in every "
                          "round (with an odd number of pairs its own sit-out moves round the field); "
                          + ("enter each board they do not play as not played (tournament result EVENT --round R "
                             "--table T --board B --not-played --reason TEXT), or, a pair that has left, withdraw it "
                             "(tournament withdraw: every board it has not played is marked so)"
                             if store.last_round() else
                             "a pair that will not play the session is withdrawn before round 1 is seated "
                             "(tournament withdraw)")
                          + "; nothing was written")
        if number < nxt:
            raise Refused(f"round {number} is already paired: to take {label} out of it, unpair it "
                          f"(`tournament unpair`) or swap them with a player on a bye")
        if store.settings.schedule == BALANCED:
            raise Refused("a balanced schedule is fixed in advance: a player cannot sit out one of its rounds")
        first = players[0]
        current = [r for r in sql.requests(store)
                   if r["kind"] == "sit_out" and r["a"] == first.id and r["round_no"] == number]
        if lift:
            if not current:
                raise Refused(f"{label} has not asked to sit out round {number}")
            for r in current:
                sql.delete_request(store, r["id"])
            changes.record(store, changes.PLAYER_SITTING_OUT, data={"id": first.id, "name": label, "round": None})
            trail_it(store, "sit_out_lifted", number, {"player": first.id}, who)
            return label, number
        if current:
            raise Refused(f"{label} already sits out round {number}")
        if not first.active_in(number):
            raise Refused(f"{label} does not play in round {number} (entered from round {first.entered}"
                          + (f", withdrawn from round {first.withdrawn})" if first.withdrawn else ")"))
        sql.add_request(store, "sit_out", first.id, round_no=number)
        changes.record(store, changes.PLAYER_SITTING_OUT, data={"id": first.id, "name": label, "round": number})
        trail_it(store, "sitting_out", number, {"player": first.id}, who)
        return label, number


def return_player(store: EventStore, key: str, who: Who = NOBODY) -> tuple[str, int]:
    """A withdrawn player (a pairs event: pair) back from the next round paired on, with their
    games so far; the rounds they missed count as not played (no bye).  Returns (name, round).
    A pair of a seated duplicate event has the boards its withdrawal marked not played in the
    round in play to play again (:func:`tournament.event.duplicate_withdrawal.take_back`); one
    withdrawn before round 1 has no place in the movement and cannot come back."""
    with store.write():
        players, team = find_unit(store, key)
        nxt = store.last_round() + 1
        gone = _withdrawn_squad(store, team, players)
        if gone is not None:  # the pairs of a withdrawn team are paired no more, whatever a pair's own state
            raise Refused(f"{team.name if team is not None else players[0].name} plays for the team {gone.name}, "
                          f"which has withdrawn (from round {gone.withdrawn}): a withdrawn team does not come back")
        if team is not None:
            if team.withdrawn is None:
                raise Refused(f"{team.name} has not withdrawn")
            duplicate_withdrawal.refuse_after_session(store, team.name, "come back")
            detail = {"pair": team.id, "name": team.name, "withdrawn_from": team.withdrawn}
            if team.id not in seated_pairs(store):  # withdrawn before round 1: not in the movement
                _refuse_in_a_seated_movement(store, f"{team.name} cannot come back: the pair would never be seated")
            if duplicate_withdrawal.applies(store):  # the marks its withdrawal made in the round in play
                detail["cleared"] = duplicate_withdrawal.take_back(store, team)
                nxt = duplicate_withdrawal.back_from(store, team, detail["cleared"])
            sql.clear_team_withdrawn(store, team.id)
            changes.record(store, changes.PAIR_RETURNED, data={"id": team.id, "name": team.name, "from_round": nxt})
            trail_it(store, "pair_returned", nxt, detail, who)
            return team.name, nxt
        p = players[0]
        if p.withdrawn is None:
            raise Refused(f"{p.name} has not withdrawn")
        duplicate_withdrawal.refuse_after_session(store, p.name, "come back")
        sql.clear_withdrawn(store, p.id)
        changes.record(store, changes.PLAYER_RETURNED, data={"id": p.id, "name": p.name, "from_round": nxt})
        trail_it(store, "player_returned", nxt, {"player": p.id, "withdrawn_from": p.withdrawn}, who)
        return p.name, nxt


def seated_pairs(store: EventStore) -> set[int]:
    """The pairs a duplicate movement seats (numbered at round 1); empty in any other event."""
    return set(pair_numbers(store).values()) if store.settings.duplicate else set()


def _withdrawn_squad(store: EventStore, team: Team | None, players: list[Player]) -> Squad | None:
    """In a team event, the withdrawn team ``team`` (a pair) or the player plays for, else ``None``."""
    if not store.settings.teams:
        return None
    from tournament.store.squads import squads

    pair = team.id if team is not None else players[0].team
    return next((s for s in squads(store) if s.withdrawn is not None and pair in s.pairs), None)


def set_id(store: EventStore, key: str, fid: str | None, who: Who = NOBODY) -> Player:
    """Give a player a federation id (``None``: take it away)."""
    fid = check_federation_id(fid)
    with store.write():
        p = store.find_player(key)
        if fid is None:
            sql.set_federation_id(store, p.id, None)
        else:
            set_federation_ids(store, {p.id: fid})
        trail_it(store, "player_id_set", None, {"player": p.id, "id": fid}, who)
        return p


def federation_ids(store: EventStore) -> dict[int, str]:
    return sql.federation_ids(store)

