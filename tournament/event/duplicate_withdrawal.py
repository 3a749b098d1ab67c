"""A pair that leaves a duplicate event once round 1 is seated (docs/duplicate.md, "A pair that
leaves mid-session").

A duplicate movement seats the same pairs, by number, to the end of the session, so a pair that
leaves is not taken out of it: its table stays in every round, and every board it was due to play
from now on is marked not played there (:func:`tournament.event.duplicate.mark_not_played`'s mark):
the boards of the round in play that have no result at its table, at once, and all the boards of
its table in each round seated after (in the write that seats the round).  A board not played is
scored over the tables that did play it, so the opponents are ranked on the boards they played (a
percentage over those boards' tops), and the pair keeps the boards it played.  Duplicate teams
(a pair of a team of two pairs): the boards of the round in play are marked at its table, so its
match is scored without them (a board not played in a match); the next round is not paired while
its team is a pair short (bring a reserve into the pair, or withdraw the team), as before.

Each mark is stored as the withdrawal's (:func:`tournament.store.boards.mark_withdrawn`), so that
``tournament return`` takes back the ones it made in the round in play (the pair plays those
boards after all) and no other: a mark made by hand, or one of a round seated and played before
the round in play (the movement has moved on: those rounds stay missed, as every event's rounds
missed stay missed), stays.
"""

from __future__ import annotations

from typing import Any, Sequence

from tournament.errors import Refused
from tournament.event import changes, progress
from tournament.store import boards as sql, desk as desk_sql
from tournament.store.event_store import EventStore
from tournament.store.sqlite import now
from tournament.values import Table, Team

#: Who marks the boards of a round seated after a pair withdrew (as the pairing's forfeits are said).
PAIRING_BY = "the pairing"


def applies(store: EventStore) -> bool:
    """A seated duplicate event: duplicate pairs once round 1 is seated, or duplicate teams once a
    round is paired (boards are marked at the pair's table)."""
    return (store.settings.duplicate or store.settings.team_duplicate) and store.last_round() > 0


def _pair_tables(store: EventStore, team: Team, round_no: int) -> list[Table]:
    """The tables of round ``round_no`` where the pair sits (none where it sits out)."""
    if store.settings.team_duplicate:
        from tournament.pairing.teams import pair_of_players
        from tournament.store.squads import substitutions

        pair_of = pair_of_players(store.teams(), substitutions(store))
        return [t for t in store.tables(round_no) if any(pair_of.get(s.player) == team.id for s in t.seats)]
    ids = sql.pair_numbers(store)
    mine = {t["table_id"] for t in sql.board_tables(store, round_no) if team.id in (ids[t["ns"]], ids[t["ew"]])}
    return [t for t in store.tables(round_no) if t.id in mine]


def _boards_of(store: EventStore, table: Table) -> list[int]:
    """The boards a duplicate table plays, in order (:func:`tournament.event.duplicate.boards_of`,
    read here from the store: that module's results import the player list, which imports this)."""
    if store.settings.team_duplicate:
        k = store.settings.boards_per_round
        return list(range((table.round - 1) * k + 1, table.round * k + 1))
    return next((t["boards"] for t in sql.board_tables(store, table.round) if t["table_id"] == table.id), [])


def _to_mark(store: EventStore, table: Table) -> list[int]:
    """The boards of ``table`` with nothing there yet: no result, no mark (in duplicate teams, none
    at the match's other table either)."""
    settled = sql.settled(store)
    return [b for b in _boards_of(store, table) if (table.id, b) not in settled]


def _on_phone(store: EventStore, table: Table) -> int | None:
    """The board the table's phone has a hand in progress on, else None (as
    :func:`tournament.event.results.board_on_phone` finds it: a hand taken back whole is none)."""
    from tournament.event.tables import hand_left_on_phone

    played, since = desk_sql.venue_board_rows(store, table.id)
    if not since:
        return None
    settled = sql.settled(store)
    board = next((b for b in _boards_of(store, table) if b not in played and (table.id, b) not in settled), None)
    return board if board is not None and hand_left_on_phone(store, table) else None


def _reason(team: Team, reason: str | None) -> str:
    """The mark's reason, as the export lists it."""
    return f"the pair {team.name} withdrew" + (f": {reason}" if reason else "")


def _refuse_on_phone(store: EventStore, team: Team, table: Table, boards: list[int]) -> None:
    """The pair's boards are not taken from under a hand a table's phone is playing (this table's,
    or in duplicate teams the match's other table's, where the mark settles the board too)."""
    other = sql.match_tables(store).get(table.id) if store.settings.team_duplicate else None
    for t in [table] + [x for x in store.tables(table.round) if x.id == other]:
        playing = _on_phone(store, t)
        if playing in boards:
            raise Refused(f"{team.name} cannot withdraw now: round {t.round} table {t.number}'s phone is playing "
                          f"board {playing}; finish the hand there, or enter its score (tournament result EVENT "
                          f"--round {t.round} --table {t.number} --board {playing} --score NS=..,EW=.. --replace), "
                          f"then withdraw the pair; nothing was written")


def refuse_after_session(store: EventStore, name: str, what: str) -> None:
    """Within the write of a withdrawal or a return (``what``: ``withdraw``, ``come back``): a
    duplicate session whose movement's rounds are all played (:func:`tournament.event.progress.status`:
    finished) has no round left to leave or come back to, and takes no later stage (its ranking
    is its boards'), so it is refused in one line; before, ``withdrew Osos from round 6 on`` was
    said of a five-round session.  (Another event that has played its rounds may yet draw a
    stage, which seeds only the players still in: there a withdrawal still means something.)"""
    if not (store.settings.duplicate or store.settings.team_duplicate):
        return
    if progress.status(store) == progress.FINISHED:
        raise Refused(f"{name} cannot {what}: the session is over (its last round, round {store.last_round()}, "
                      f"is played, and a duplicate session has no round after it); nothing was written")


def withdraw(store: EventStore, team: Team, reason: str | None, by: str) -> list[dict[str, Any]]:
    """Within the write of :func:`tournament.event.players.withdraw`, the pair withdrawing from the
    next round on: the boards of the round in play it has not played are marked not played at its
    table(s).  Refused in one line (nothing written) while a table's phone is playing one of them.
    The marks made, ``[{"round", "table", "boards"}]``, for the withdrawal's line in the trail."""
    last = store.last_round()
    found = [(t, _to_mark(store, t)) for t in _pair_tables(store, team, last)]
    for table, boards in found:
        _refuse_on_phone(store, team, table, boards)
    return [_mark(store, team, table, boards, _reason(team, reason), by) for table, boards in found if boards]


def _mark(store: EventStore, team: Team, table: Table, boards: list[int], reason: str, by: str) -> dict[str, Any]:
    at = now()
    for b in boards:
        sql.mark_withdrawn(store, table.id, b, team.id, reason, at, by)
        changes.record(store, changes.BOARD_RESULT, table.round, table.number, {"board": b, "not_played": True})
    progress.note_if_finished(store)
    return {"round": table.round, "table": table.number, "boards": boards}


def mark_seated(store: EventStore, round_no: int) -> None:
    """Within the write that seats round ``round_no`` of a duplicate pairs movement: each pair
    withdrawn by then has every board of its table marked not played, said in the trail (by
    :data:`PAIRING_BY`, with the withdrawal's reason)."""
    gone = [t for t in store.teams() if t.withdrawn is not None and t.withdrawn <= round_no]
    if not gone:
        return
    ids = set(sql.pair_numbers(store).values())
    why = _withdrawal_reasons(store)
    for team in gone:
        if team.id not in ids:  # withdrawn before round 1: not in the movement
            continue
        for table in _pair_tables(store, team, round_no):
            boards = _to_mark(store, table)
            if boards:
                done = _mark(store, team, table, boards, _reason(team, why.get(team.id)), PAIRING_BY)
                desk_sql.log(store, "withdrawn_pair_not_played", round_no,
                             {"pair": team.id, "name": team.name, "table": done["table"], "boards": boards},
                             PAIRING_BY, why.get(team.id))


def _withdrawal_reasons(store: EventStore) -> dict[int, str | None]:
    """Each withdrawn pair's reason, from its latest withdrawal's line in the trail."""
    out: dict[int, str | None] = {}
    for r in desk_sql.trail(store):
        if r["action"] == "pair_withdrawn" and isinstance(r["detail"], dict):
            out[r["detail"].get("pair")] = r["reason"]
    return out


def take_back(store: EventStore, team: Team) -> list[dict[str, Any]]:
    """Within the write of :func:`tournament.event.roster.return_player`: the marks the pair's
    withdrawal made in the round in play (the last seated) are taken back, its boards there to be
    played after all; those of earlier rounds stay (rounds missed stay missed), and so does every
    mark made by hand.  A table whose other pair has withdrawn too keeps its marks (nobody is
    there to play them): they become that pair's withdrawal's, with its reason, for its own
    return to take back.  The marks taken back, ``[{"round", "table", "boards"}]``."""
    last = store.last_round()
    mine = sql.withdrawal_marks(store, team.id)
    still_gone = _still_gone_at(store, team, last)
    out = []
    for table in store.tables(last):
        boards = sorted(b for t, b in mine if t == table.id)
        gone = still_gone.get(table.id)
        if gone is not None and boards:
            why = _reason(gone, _withdrawal_reasons(store).get(gone.id))
            for b in boards:
                sql.pass_withdrawal_mark(store, table.id, b, gone.id, why)
            continue
        for b in boards:
            sql.unmark_not_played(store, table.id, b)
            changes.record(store, changes.BOARD_RESULT, last, table.number, {"board": b, "cleared": True})
        if boards:
            out.append({"round": last, "table": table.number, "boards": boards})
    return out


def _still_gone_at(store: EventStore, team: Team, round_no: int) -> dict[int, Team]:
    """Table id -> a pair other than ``team`` withdrawn now and seated there in round ``round_no``
    (its boards there are not played whoever else comes back)."""
    out: dict[int, Team] = {}
    for other in store.teams():
        if other.id != team.id and other.withdrawn is not None:
            for table in _pair_tables(store, other, round_no):
                out.setdefault(table.id, other)
    return out


def seated_away(store: EventStore) -> dict[int, set[int]]:
    """Round -> the players of duplicate pairs the movement seats in a round they are out of
    (withdrawn, or away before a return: their boards there are not played): ``check`` does not
    flag them as seated while out."""
    if not store.settings.duplicate:
        return {}
    ids = sql.pair_numbers(store)
    seated: dict[int, set[int]] = {}
    for t in sql.board_tables(store):
        seated.setdefault(t["round"], set()).update((ids[t["ns"]], ids[t["ew"]]))
    return {r: out for r, pairs in seated.items()
            if (out := {p.id for p in store.players() if p.team in pairs and not p.active_in(r)})}


def back_from(store: EventStore, team: Team, cleared: Sequence[dict[str, Any]] = ()) -> int:
    """The round a returning pair of a duplicate pairs movement is back from: the round in play
    where the movement seated it there while withdrawn, or where its withdrawal's marks there are
    taken back (``cleared``, :func:`take_back`: it plays those boards after all; saying the next
    round then told of a return from round 5 that gave the pair round 4's boards back), else the
    next round, as in every event."""
    last = store.last_round()
    if store.settings.duplicate and team.withdrawn is not None and team.withdrawn <= last:
        return last
    if any(m["round"] == last for m in cleared):
        return last
    return last + 1


def withdrawn_words(store: EventStore, team: Team) -> str:
    """The command line's first line of a pair's withdrawal: from which round on, and, where its
    withdrawal marked boards of the round in play not played (its boards there not yet played),
    that it left that round too; before, ``withdrew X from round 5 on`` was said of a withdrawal
    that marked round 4's boards."""
    said = f"withdrew {team.name} from round {team.withdrawn} on"
    if not applies(store):
        return said
    last = store.last_round()
    line = next((r for r in reversed(desk_sql.trail(store)) if r["action"] == "pair_withdrawn"
                 and isinstance(r["detail"], dict) and r["detail"].get("pair") == team.id), None)
    if any(m.get("round") == last for m in ((line or {}).get("detail", {}).get("not_played") or [])):
        return (f"withdrew {team.name} from the rest of round {last} (the round in play) and from round "
                f"{team.withdrawn} on")
    return said


def told(store: EventStore, action: str, pair_id: int) -> str:
    """What the command line adds to a pair's withdrawal (``action`` ``pair_withdrawn``) or return
    (``pair_returned``) in a seated duplicate event: the marks its latest line in the trail made or
    took back, in words; empty in any other event."""
    if not applies(store):
        return ""
    line = next((r for r in reversed(desk_sql.trail(store)) if r["action"] == action
                 and isinstance(r["detail"], dict) and r["detail"].get("pair") == pair_id), None)
    marks = (line or {}).get("detail", {}).get("not_played" if action == "pair_withdrawn" else "cleared") or []
    where = "; ".join(f"round {m['round']} table {m['table']} board{'s' if len(m['boards']) > 1 else ''} "
                      f"{', '.join(map(str, m['boards']))}" for m in marks)
    if action == "pair_returned":
        return f"to play again in the round in play, no longer marked not played: {where}" if marks else ""
    later = ("; its boards in each round seated from now on are marked not played as the round is seated"
             if store.settings.duplicate else
             "; its team is a pair short from the next round: bring a reserve into the pair (tournament team "
             "EVENT sub) or withdraw the team")
    return ("not played for its opponents: " + (where if marks else "no board of the round in play") + later)
