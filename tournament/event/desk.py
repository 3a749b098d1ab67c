"""Changing a paired round before it is played: undo it, swap or move players, pin a player to a
table, keep two players apart.

Each operation is one transaction over the store: it is refused with one line, and nothing
written, when it cannot be done (a round with a result, a table with a result or with a game in
progress on its table phone, a stage's table, which its draw seats); otherwise it lands with its
line in the desk's audit trail (who, when, what, why: ``tournament history``) and, when people
can see it, its change in the public change log (``round_unpaired``, ``seat_changed``).  Pins and
keep-apart are requests the pairing honours from the next round paired on
(:mod:`tournament.pairing.constraints`); they are private to the desk, never in the public log.

A table's venue link belongs to the table, not to its players: a player moved to another table
plays on that table's phone, and a phone showing a table whose players changed shows the new
ones on its next request.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import attrs

from tournament.errors import Refused, UnknownPlayer, UnusableInput
from tournament.event import audit, changes, paired_on
from tournament.names import did_you_mean
from tournament.pairing.constraints import Constraints
from tournament.settings import BALANCED, PAIRS, ROTATING
from tournament.store import desk as sql
from tournament.store.event_store import EventStore
from tournament.values import Player, SeatAssignment, Table, Team


@attrs.frozen
class Who:
    """Who made a change and why, as the audit trail keeps it (``--by``, ``--reason``)."""

    by: str | None = None
    reason: str | None = None

    def cleaned(self) -> Who:
        by = audit.clean_text(self.by, "the name of who made it") or audit.default_author()
        return Who(by, audit.clean_text(self.reason, "the reason"))


#: No ``--by`` and no ``--reason``: the login name, and no reason.
NOBODY = Who()


def trail_it(store: EventStore, action: str, round_no: int | None, detail: dict, who: Who) -> None:
    who = who.cleaned()
    sql.log(store, action, round_no, detail, who.by, who.reason)


# --- what pairing honours ----------------------------------------------------------------------


def constraints_for(store: EventStore, round_no: int) -> Constraints:
    """The director's requests that apply to round ``round_no``, for the pairing."""
    pins, apart, out = [], [], set()
    for r in sql.requests(store):
        if r["kind"] == "pin":
            pins.append((r["a"], r["table_no"]))
        elif r["kind"] == "apart" and (r["until_round"] is None or round_no <= r["until_round"]):
            apart.append((r["a"], r["b"]))
        elif r["kind"] == "sit_out" and r["round_no"] == round_no:
            out.add(r["a"])
    names = {p.id: p.name for p in store.players()} if pins or apart or out else {}
    return Constraints(tuple(pins), tuple(apart), frozenset(out), names)


def excused(store: EventStore) -> dict[int, set[int]]:
    """Round -> the players the desk excused from it, for ``check``: a requested sit-out (a bye
    outside the count of byes; in a pairs event the whole pair), and a withdrawn player's rounds
    away before they returned (neither table nor bye)."""
    teams = {t.id: t.players for t in store.teams()}
    team_of = {p.id: p.team for p in store.players()}

    def unit(player: int) -> tuple[int, ...]:
        team = team_of.get(player)
        return tuple(teams.get(team, (player,))) if team is not None else (player,)

    out: dict[int, set[int]] = {}
    for r in sql.requests(store):
        if r["kind"] == "sit_out":
            out.setdefault(r["round_no"], set()).update(unit(r["a"]))
    for row in sql.trail(store):
        d = row["detail"]
        if row["action"] in ("player_returned", "pair_returned") and row["round"] and d.get("withdrawn_from"):
            members = unit(d["player"]) if "player" in d else tuple(teams.get(d.get("pair"), ()))
            for number in range(d["withdrawn_from"], row["round"]):
                out.setdefault(number, set()).update(members)
    return out


def _who(store: EventStore, player: Player) -> str:
    """A player as the desk names them: with their number, or in a pairs event their pair's
    (one numbering: a pair has one number everywhere, docs/tournament.md)."""
    if store.settings.format == PAIRS and player.team is not None:
        return f"{player.name} (pair #{player.team})"
    return f"{player.name} (#{player.id})"


def requests_text(store: EventStore) -> list[str]:
    """The requests in force, one line each (``tournament pin EVENT --list``)."""
    players = {p.id: p for p in store.players()}
    teams = {pid: t for t in store.teams() for pid in t.players} if store.settings.format == PAIRS else {}
    out = []
    for r in sql.requests(store):
        if r["kind"] == "sit_out" and not _in_round(players.get(r["a"]), teams.get(r["a"]), r["round_no"]):
            # A sit-out of a round the player (or pair) is out of anyway, withdrawn since, is void: not
            # listed, and not deleted either, so that a withdrawal taken back (return) finds it again.
            continue
        a = _who(store, players[r["a"]]) if r["a"] in players else f"? (#{r['a']})"
        if r["kind"] == "pin":
            out.append(f"pin: {a} at table {r['table_no']}")
        elif r["kind"] == "apart":
            b = _who(store, players[r["b"]]) if r["b"] in players else f"? (#{r['b']})"
            until = f" through round {r['until_round']}" if r["until_round"] else ""
            out.append(f"apart: {a} and {b}{until}")
        else:
            out.append(f"sit out: {a} in round {r['round_no']}")
    return out


def _in_round(player: Player | None, team: Team | None, round_no: int) -> bool:
    """Whether a player (and their pair, in a pairs event) plays round ``round_no`` as things stand."""
    if player is None:
        return True  # (an unknown player's request is listed as it is, with its "?")
    return player.active_in(round_no) and (team is None or team.active_in(round_no))


# --- undo the last round ------------------------------------------------------------------------


def _refuse_stage_round(store: EventStore, round_no: int, what: str) -> None:
    if store.settings.duplicate:  # the movement seats every round: a pair moved would meet boards twice
        raise Refused(f"a duplicate event's rounds are seated by its movement, pairs and boards together: round "
                      f"{round_no} cannot be {what}")
    if store.round_stage().get(round_no, 1) != 1:
        raise Refused(f"round {round_no} belongs to a stage (a knockout, a round robin or a final), whose draw "
                      f"seats its tables: it cannot be {what}")


def _refuse_played(store: EventStore, tables: list[Table], what: str, but: Any = ()) -> None:
    """Refuse a change to ``tables`` (one round's) where one has a result (``but``: table ids whose
    result goes with the change, the pairing's own forfeits: :func:`pairing_forfeits`), a board's
    result, or a game in progress on its phone; the refusal names the way out."""
    results = store.results()
    played = [t for t in tables if t.id in results and t.id not in but]
    if played:
        t = played[0]
        way = ("a match in sets seats its next games from each result: correct it with `tournament amend`"
               if store.settings.team_set else
               f"a result entered by mistake is taken back first with `tournament clear EVENT --round {t.round} "
               f"--table {t.number} --reason TEXT`; a result of a game played is corrected with `tournament amend`")
        raise Refused(f"round {t.round} table {t.number} has a result: {what} ({way})")
    if store.settings.team_duplicate:  # a duplicate-teams table's results are its boards'
        from tournament.store import boards

        ids = {t.id: t for t in tables}
        board = next((r for r in boards.results(store) if r["table_id"] in ids), None)
        if board is not None:
            raise Refused(f"round {tables[0].round} table {ids[board['table_id']].number} has a result on board "
                          f"{board['board']}: {what} (correct a board's result with `tournament result --replace`)")
    from tournament.event.tables import game_on_phone

    busy = [t.number for t in tables if game_on_phone(store, t)]
    if busy:
        raise Refused(f"round {tables[0].round} table {busy[0]} has a game in progress on its table phone: {what}")


def _refuse_marked(store: EventStore, tables: list[Table], what: str) -> None:
    """Refuse to take ``tables`` (one round's of a duplicate event) away from under a board marked
    not played there (a row that names its table): by a pair's withdrawal, whose return takes the
    mark back; else by the director, who takes it back with ``tournament clear``."""
    if not (store.settings.duplicate or store.settings.team_duplicate):
        return
    from tournament.store import boards

    ids = {t.id: t for t in tables}
    mark = next((m for m in boards.not_played(store) if m["table_id"] in ids), None)
    if mark is None:
        return
    t, b = ids[mark["table_id"]], mark["board"]
    pair = boards.withdrawal_mark_pairs(store).get((t.id, b))
    name = next((x.name for x in store.teams() if x.id == pair), None) if pair is not None else None
    way = (f"the pair {name} withdrew: bring it back first (tournament return EVENT \"{name}\"), which takes "
           f"its marks back, and withdraw it again once the round is paired" if name is not None else
           f"take the mark back first with `tournament clear EVENT --round {t.round} --table {t.number} "
           f"--board {b} --reason TEXT`")
    raise Refused(f"round {t.round} table {t.number} board {b} is marked not played: {what} ({way})")


def pairing_forfeits(store: EventStore, tables: list[Table]) -> dict[int, Any]:
    """Of ``tables`` (one round's of a team event), those whose result is the forfeit the pairing
    stores for a team a pair short (:func:`short_forfeit`): a forfeit by exactly the sides where a
    withdrawn pair sits, as the pairing would store it now.  Table id -> that result.  It is part
    of the pairing, not a game: it goes with the round (``unpair``) and follows the seats (``swap``,
    ``move``), where any other result holds the table."""
    if not store.settings.teams:
        return {}
    from tournament.pairing.teams import short_sides
    from tournament.store.squads import substitutions

    results = store.results()
    teams, subs = store.teams(), substitutions(store)
    out = {}
    for t in tables:
        res = results.get(t.id)
        if res is not None and res.kind == "forfeit" and not res.absent_players and res.absent \
                and tuple(res.absent) == short_sides(t, teams, subs):
            out[t.id] = res
    return out


#: Who entered the forfeit the pairing stores for a team a pair short, as ``history --entered``
#: says it (not the login name of whoever paired the round: the pairing's, as ``unpair`` and
#: ``swap`` treat it).
PAIRING_BY = "the pairing"


def short_forfeit(store: EventStore, table: Table, existing: Any = None, why: str | None = None,
                  who: Who = NOBODY) -> bool:
    """Within a write: ``table`` (of a team event) lost by forfeit by each side where a withdrawn
    pair sits (its team a pair short: :func:`tournament.pairing.teams.short_sides`), the opponents'
    pair winning by the event's forfeit score, as the pairing stores it (entered by
    :data:`PAIRING_BY`); ``existing``, the pairing's forfeit there before a change of seats, is
    replaced (kept in the trail, ``why``, by ``who``: the change's author), or left as it is where
    the same sides are short, or taken back where none is now.  Whether the table has the
    pairing's forfeit now."""
    from tournament.event.results import forfeit_in_write
    from tournament.pairing.teams import short_sides
    from tournament.store.squads import substitutions

    absent = short_sides(table, store.teams(), substitutions(store))
    if absent:
        forfeit_in_write(store, table, absent, existing, replace=existing is not None, reason=why, by=PAIRING_BY,
                         trail_by=who.cleaned().by if existing is not None else None)
        return True
    if existing is not None:
        _take_back(store, table, existing, why or "", who)
    return False


def _take_back(store: EventStore, table: Table, existing: Any, why: str, who: Who = NOBODY) -> None:
    """Within a write: the pairing's forfeit at ``table`` taken back, kept in the audit trail (and,
    when its round is un-paired, in the desk's), as ``tournament clear`` takes a result back."""
    store.move_result_to_audit(existing, why, who.cleaned().by)
    changes.record(store, changes.RESULT_DELETED, table.round, table.number, {
        "old": changes.result_doc(existing.kind, existing.verified, existing.scores, existing.winner,
                                  existing.note)})


def unpair(store: EventStore, who: Who = NOBODY) -> int:
    """Take back the last round while no table of it has a result (nor a game in progress on a
    table phone): its tables, seats and byes go, and ``tournament pair`` pairs it again (with the
    standings, entries and requests as they are then).  Returns the round's number.  The forfeits
    the pairing stored for a team a pair short are part of the round: they go with it, kept in the
    trail (:func:`pairing_forfeits`)."""
    with store.write():
        last = store.last_round()
        if not last:
            raise Refused("no round has been paired yet: there is nothing to unpair")
        _refuse_stage_round(store, last, "unpaired")
        tables = store.tables(last)
        if tables:
            forfeits = pairing_forfeits(store, tables)
            _refuse_played(store, tables, f"round {last} cannot be unpaired", forfeits)
            _refuse_marked(store, tables, f"round {last} cannot be unpaired")
            used = sql.venue_rows(store, [t.id for t in tables], every=True)
            opened = [t.number for t in tables if used.get(t.id)]
            if opened:
                raise Refused(f"round {last} table {opened[0]}'s phone has used its link (a mode chosen, the "
                              f"director called), which the venue's log keeps: round {last} cannot be unpaired; "
                              f"swap or move players instead")
            for t in tables:  # checked first: nothing is taken back from a round that stays
                if t.id in forfeits:
                    _take_back(store, t, forfeits[t.id], "the forfeit the pairing stored for a team a pair short "
                               "goes with its round", who)
        byes = store.byes(last).get(last, [])
        sql.delete_round(store, last)
        trail_it(store, "round_unpaired", last, {"tables": len(tables), "byes": byes}, who)
        changes.record(store, changes.ROUND_UNPAIRED, last, data={"tables": len(tables), "byes": byes})
    return last


# --- swap, move --------------------------------------------------------------------------------


def _round_to_change(store: EventStore, round_no: int | None) -> int:
    last = store.last_round()
    if not last:
        raise Refused("no round has been paired yet: there is no seat to change")
    number = last if round_no is None else round_no
    if not 1 <= number <= last:
        raise UnusableInput(f"round {number} has not been paired (the last round is {last})")
    _refuse_stage_round(store, number, "changed here")
    return number


def unknown_pair_or_player(store: EventStore, key: str) -> UnknownPlayer:
    """A pairs event's refusal of a name that is neither a pair's nor a player's, with the closest
    of both (``withdraw``, ``rename``, …: one way to say it, so the director retypes one name)."""
    names = [t.name for t in store.teams()] + [p.name for p in store.players()]
    return UnknownPlayer(f"no pair or player named or numbered {key!r} in this event" + did_you_mean(key, names))


def find_unit(store: EventStore, key: str) -> tuple[list[Player], Team | None]:
    """The players a name stands for: one player, or in a pairs event the pair (by its name or a
    member's)."""
    if store.settings.format == PAIRS:
        from tournament.event.numbering import find_pair

        team = find_pair(store, key)
        players = [p for p in store.players() if p.id in team.players]
        return players, team
    return [store.find_player(key)], None


def _where(store: EventStore, round_no: int, player: int) -> tuple[Table | None, SeatAssignment | None]:
    for t in store.tables(round_no):
        for s in t.seats:
            if s.player == player:
                return t, s
    return None, None


def _label(players: list[Player], team: Team | None) -> str:
    return team.name if team is not None else f"{players[0].name} (#{players[0].id})"


def swap(store: EventStore, a: str, b: str, round_no: int | None = None, who: Who = NOBODY,
         said: list[str] | None = None) -> list[Table]:
    """Swap two players' seats (in a pairs event, two pairs': each member takes the other pair's
    member's seat, so partnerships stay whole) in a round not yet played at either table.  A
    player with a bye swaps it with the other's seat.  Returns the tables changed; ``said`` gets a
    line for each forfeit the pairing stored for a team a pair short that the change moved (or
    left where it was, won now by another pair): :func:`_forfeit_lines`."""
    with store.write():
        number = _round_to_change(store, round_no)
        pa, ta = find_unit(store, a)
        pb, tb = find_unit(store, b)
        if {p.id for p in pa} & {p.id for p in pb}:
            raise UnusableInput(f"{a!r} and {b!r} are the same {'pair' if ta else 'player'}: nothing to swap")
        if store.settings.teams:
            _refuse_across_teams(store, ta, tb)
        if ta is not None and tb is not None:
            # Each member of A takes the seat of the member of B sitting on the same footing (the
            # first-seated with the first-seated): both partnerships stay together, at the other's
            # table and side.
            order_a = sorted(pa, key=lambda p: _seat_order(_where(store, number, p.id)))
            order_b = sorted(pb, key=lambda p: _seat_order(_where(store, number, p.id)))
            moves = [(x.id, y.id) for x, y in zip(order_a, order_b)]
        else:
            moves = [(pa[0].id, pb[0].id)]
        return _swap(store, number, moves, _label(pa, ta), _label(pb, tb), who, said=said)


def _refuse_across_teams(store: EventStore, ta: Team | None, tb: Team | None) -> None:
    """A team event's matches keep their teams: two pairs of one team may change places (their
    captain's order, after the pairing), pairs of two teams may not."""
    from tournament.store.squads import squads

    team_of = {pair: s.name for s in squads(store) for pair in s.pairs}
    a, b = team_of.get(ta.id if ta else -1), team_of.get(tb.id if tb else -1)
    if a is None or a != b:
        raise Refused("a team event's pairs change places only within their team (its line-up): "
                      f"{ta.name if ta else '?'} is of {a or 'no team'}, {tb.name if tb else '?'} of {b or 'no team'}")


def _swap(store: EventStore, number: int, moves: list[tuple[int, int]], label_a: str, label_b: str,
          who: Who, action: str = "seats_swapped", said: list[str] | None = None) -> list[Table]:
    """Within the write: each (x, y) of ``moves`` trade places (seat or bye) in round ``number``;
    ``said``: the lines of :func:`_forfeit_lines`."""
    byes = set(store.byes(number).get(number, []))
    changed: dict[int, Table] = {}
    byes_changed = False
    # The pairing's forfeits (a team a pair short) follow the seats: stored again after the change.
    forfeits = pairing_forfeits(store, store.tables(number))
    for x, y in moves:
        tx, sx = _where(store, number, x)
        ty, sy = _where(store, number, y)
        if tx is None and x not in byes:
            raise Refused(f"{label_a} is not in round {number} (neither seated nor on a bye)")
        if ty is None and y not in byes:
            raise Refused(f"{label_b} is not in round {number} (neither seated nor on a bye)")
        if tx is None and ty is None:
            raise Refused(f"{label_a} and {label_b} both have a bye in round {number}: nothing to swap")
        _refuse_played(store, [t for t in (tx, ty) if t is not None], "its players cannot change", forfeits)
        for (t, s), other, me in (((tx, sx), y, x), ((ty, sy), x, y)):
            if t is not None and s is not None:
                sql.set_seat(store, t.id, s.seat, other)
                changed[t.id] = t
            else:
                sql.replace_bye(store, number, me, other)
                byes_changed = True
    names = {p.id: p.name for p in store.players()}
    tables = []
    followed: list[tuple[Table, Any, bool]] = []  # (table, its pairing's forfeit before, one there now)
    for t in sorted(changed.values(), key=lambda t: t.number):
        now = store.table(number, t.number)
        assert now is not None
        tables.append(now)
        changes.record(store, changes.SEAT_CHANGED, number, t.number,
                       {"seats": changes.seats_doc(now.seats, names)})
        if store.settings.teams:  # the forfeit of a team a pair short follows the pair that is short
            had = forfeits.get(now.id)
            has = short_forfeit(store, now, had, "the seats changed: the forfeit of the team a pair short follows "
                                                 "its withdrawn pair", who)
            if had is not None or has:
                followed.append((now, had, has))
    if said is not None and followed:
        said.extend(_forfeit_lines(store, followed))
    if byes_changed:  # a bye changed hands: the round's byes as they are now
        changes.record(store, changes.SEAT_CHANGED, number, None, {"byes": store.byes(number).get(number, [])})
    trail_it(store, action, number, {"players": [list(m) for m in moves],
                                              "tables": [t.number for t in tables]}, who)
    return tables


def _forfeit_lines(store: EventStore, followed: list[tuple[Table, Any, bool]]) -> list[str]:
    """What a change of seats did to the forfeits the pairing stored for a team a pair short, a
    line each (``swap`` and ``move`` print them under the tables' new seats): a forfeit that moved
    with its withdrawn pair to another table (taken back where it was, kept in the trail), one
    left at its table and won now by the pair seated there, one stored or taken back alone.
    ``followed``: (a changed table, the pairing's forfeit there before, whether it has one now)."""
    from tournament.event.results import STORED, Entry

    results = store.results()
    pair_names = {t.id: t.name for t in store.teams()}
    pair_of = {p.id: p.team for p in store.players()}
    what = "the forfeit the pairing stored for a team a pair short"

    def pairs(table: Table, sides: Any) -> str:
        return " and ".join(dict.fromkeys(pair_names.get(pair_of.get(s.player), "?")
                                          for s in table.seats if s.side in sides))

    gone = [t for t, had, has in followed if had is not None and not has]
    came = [t for t, had, has in followed if had is None and has]
    moved = len(gone) == 1 and len(came) == 1
    lines = []
    for t, had, has in followed:
        if not has:
            if not moved:
                lines.append(f"round {t.round} table {t.number}: {what} is taken back, no withdrawn pair sitting "
                             f"there now (kept in the trail: `tournament history`)")
            continue
        res = results[t.id]
        entry = Entry(STORED, t.round, t.number, dict(t.in_seat_order(res.scores)), res.winner, False,
                      absent=tuple(res.absent))
        head = entry.summary().rsplit(" — ", 1)[0]  # (its result, as `result` says it)
        short = pairs(t, res.absent)
        if had is None:
            lines.append(f"{head} — {what}, " + (f"moved here from table {gone[0].number}" if moved else "stored")
                         + f" with its withdrawn pair {short}")
        else:
            won = pairs(t, [x for x in t.sides() if x not in res.absent])
            lines.append(f"{head} — {what}, left here with its withdrawn pair {short}: won now by {won}")
    return lines


def _seat_order(found: tuple[Table | None, SeatAssignment | None]) -> tuple[int, int, str]:
    table, seat = found
    if table is None or seat is None:
        return (1, 0, "")
    return (0, table.number, seat.seat)


def move(store: EventStore, key: str, table_no: int, seat: str, round_no: int | None = None,
         who: Who = NOBODY, said: list[str] | None = None) -> list[Table]:
    """Move a player to a seat of a round not yet played: whoever sat there takes the player's
    old place (their seat, or their bye).  In a pairs event, pairs are swapped instead (a pair
    is never split).  ``said``: as :func:`swap`'s."""
    if store.settings.duplicate and store.last_round():  # (nor by `swap`, as the pairs event's refusal says)
        _refuse_stage_round(store, round_no or store.last_round(), "changed here")
    if store.settings.format == PAIRS:
        raise Refused("a pairs event keeps its partnerships whole: swap two pairs with `tournament swap`")
    with store.write():
        number = _round_to_change(store, round_no)
        table = store.table(number, table_no)
        if table is None:
            raise UnusableInput(f"round {number} has no table {table_no} (it has {len(store.tables(number))})")
        target = next((s for s in table.seats if s.seat.casefold() == seat.strip().casefold()), None)
        if target is None:
            raise UnusableInput(f"table {table_no} has no seat {seat!r}; its seats: "
                                f"{', '.join(s.seat for s in table.seats)}")
        player = store.find_player(key)
        if target.player == player.id:
            raise Refused(f"{player.name} already sits at table {table_no} seat {target.seat}")
        occupant = next(p for p in store.players() if p.id == target.player)
        # One player's move is a swap with whoever sits in the seat.
        return _swap(store, number, [(player.id, occupant.id)], _who(store, player),
                     _who(store, occupant), who, "player_moved", said)


# --- what a change of seats breaks --------------------------------------------------------------


def seating_warnings(store: EventStore, round_no: int, tables: list[Table]) -> list[str]:
    """What a swap or a move made of round ``round_no``'s changed ``tables`` goes against, a line
    each: two players kept apart seated together, partners a second time (a pairs event: two pairs
    meeting again), a pinned player at another table.  The change stands (the director decides,
    and may mean it: docs/tournament.md, "Changing a round before it is played"); the lines say
    what it did, so that it is never done unawares, and ``check`` reports the same in the round."""
    players = {p.id: p for p in store.players()}
    name = lambda pid: _who(store, players[pid]) if pid in players else f"#{pid}"  # noqa: E731
    pairs = store.settings.format == PAIRS
    teams = {t.id: t for t in store.teams()} if pairs else {}
    # (the requests that bind this round, read as check reads them)
    paired_at = next((r.paired_at for r in store.rounds() if r.number == round_no and r.stage == 1), None)
    binding = _binding(store, sql.requests(store), round_no, paired_at)
    out: list[str] = []
    for r, t in _broken(binding, round_no, tables, _unit_of(store, players)):
        if r["kind"] == "apart":
            out.append(f"this seats {name(r['a'])} and {name(r['b'])} together at table {t.number}, "
                       f"whom you keep apart")
        else:
            out.append(f"this seats {name(r['a'])} at table {t.number}, though you pinned them to table "
                       f"{r['table_no']}")
    earlier = [t for t in store.tables() if t.round != round_no]
    if pairs:
        met: dict[frozenset[int], int] = {}
        for t in earlier:
            sides = {players[s.player].team for s in t.seats if s.player in players}
            if len(sides) == 2:
                met.setdefault(frozenset(sides), t.round)
        for t in tables:
            sides = frozenset(players[s.player].team for s in t.seats if s.player in players)
            if sides in met:
                a, b = sorted(sides)
                out.append(f"pairs {teams[a].name} and {teams[b].name} meet again (they met in round {met[sides]})")
    elif store.settings.format == ROTATING:
        partnered: dict[frozenset[int], int] = {}
        for t in earlier:
            for x, y in _partnerships(t):
                partnered.setdefault(frozenset((x, y)), t.round)
        for t in tables:
            for x, y in _partnerships(t):
                when = partnered.get(frozenset((x, y)))
                if when is not None:
                    x, y = sorted((x, y))
                    out.append(f"{name(x)} and {name(y)} partner again (they were partners in round {when})")
    return out


def _partnerships(table: Table) -> list[tuple[int, int]]:
    """The two partnerships of a table of four (N-S, E-W), as player numbers."""
    seat = {s.seat: s.player for s in table.seats}
    return [(seat[a], seat[b]) for a, b in (("N", "S"), ("E", "W")) if a in seat and b in seat]


def request_findings(store: EventStore) -> list[tuple[str, str]]:
    """For ``check``: every round of the Swiss stage that goes against a keep-apart or a pin in force
    for it, as (where, message).  A request binds the rounds paired after it was made (the round it
    was made before is kept with it; for a request made before that was kept, the first round paired
    after its line in the trail) through its last round, and a round the pairing made keeps it, so a
    finding is a change of seats since (a swap, a move) or a file changed by other means."""
    requests = sql.requests(store)
    if not any(r["kind"] in ("apart", "pin") for r in requests):
        return []
    rounds = {r.number: r for r in store.rounds() if r.stage == 1}
    by_round: dict[int, list[Table]] = {}
    for t in store.tables():
        if t.round in rounds:
            by_round.setdefault(t.round, []).append(t)
    players = {p.id: p for p in store.players()}
    name = lambda pid: _who(store, players[pid]) if pid in players else f"#{pid}"  # noqa: E731
    unit = _unit_of(store, players)
    set_at = _requests_set_at(store)
    out: list[tuple[str, str]] = []
    for number in sorted(by_round):
        binding = _binding(store, requests, number, rounds[number].paired_at, set_at)
        for r, t in _broken(binding, number, by_round[number], unit):
            if r["kind"] == "apart":
                out.append((f"round {number} table {t.number}", f"{name(r['a'])} and {name(r['b'])} sit together, "
                            f"though kept apart (tournament apart)"))
            else:
                out.append((f"round {number} table {t.number}",
                            f"{name(r['a'])} sits here, though pinned to table {r['table_no']} (tournament pin)"))
    return out


def _binding(store: EventStore, requests: list, round_no: int, paired_at: str | None,
             set_at: dict[int, str] | None = None) -> list:
    """The keep-apart and pins of ``requests`` in force for round ``round_no`` (paired at
    ``paired_at``): one made before a round is kept with that round's number and binds from it
    on; one made before that number was kept binds the rounds paired after its line in the trail
    (``set_at``: :func:`_requests_set_at`, read here when not given).  A round not yet paired is
    bound by every such request (its pairing is to come)."""
    old = [r for r in requests if r["kind"] in ("apart", "pin") and r["round_no"] is None]
    if old and set_at is None:
        set_at = _requests_set_at(store)
    return [r for r in requests if r["kind"] in ("apart", "pin") and (
        (r["round_no"] is not None and round_no >= r["round_no"]) or
        (r["round_no"] is None and r["id"] in set_at and (paired_at is None or paired_at > set_at[r["id"]])))]


def _unit_of(store: EventStore, players: dict[int, Player]) -> Callable[[int], set[int]]:
    """Player -> who sits with them as one (their pair's two players, in a pairs event; else themselves)."""
    if store.settings.format != PAIRS:
        return lambda pid: {pid}
    members = {t.id: set(t.players) for t in store.teams()}
    return lambda pid: members.get(players[pid].team, {pid}) if pid in players else {pid}


def _broken(requests: list, round_no: int, tables: list[Table],
            unit: Callable[[int], set[int]]) -> Iterator[tuple[Any, Table]]:
    """Each keep-apart or pin of ``requests`` that a table of round ``round_no`` goes against, with
    the table: two kept apart at one table (within the keep-apart's rounds), a pinned player at
    another table than their own."""
    for r in requests:
        if r["kind"] == "apart" and (r["until_round"] is None or round_no <= r["until_round"]):
            for t in tables:
                here = set(t.players)
                if unit(r["a"]) & here and unit(r["b"]) & here:
                    yield r, t
        elif r["kind"] == "pin":
            for t in tables:
                if r["a"] in t.players and t.number != r["table_no"]:
                    yield r, t


def _requests_set_at(store: EventStore) -> dict[int, str]:
    """Request id -> when its line in the trail was written, for a pin or keep-apart made before the
    first round it binds was kept with it (the last line that set it, matched by its players)."""
    old = [r for r in sql.requests(store) if r["kind"] in ("apart", "pin") and r["round_no"] is None]
    if not old:
        return {}
    out: dict[int, str] = {}
    for row in sql.trail(store):
        d = row["detail"]
        for r in old:
            if (row["action"] == "kept_apart" and d.get("players") == [r["a"], r["b"]]) or \
                    (row["action"] == "pinned" and d.get("player") == r["a"] and d.get("table") == r["table_no"]):
                out[r["id"]] = row["at"]
    return out


# --- pins and keep-apart ------------------------------------------------------------------------


def _refuse_in_team_event(store: EventStore, what: str) -> None:
    if store.settings.teams:
        raise Refused(f"a team event pairs teams, not pairs: it cannot {what}; set a team's line-up "
                      "(tournament team EVENT lineup) instead")


def pin(store: EventStore, key: str, table_no: int | None, who: Who = NOBODY) -> str:
    """Pin a player to a table number from the next round paired on (``None``: unpin).  Returns
    the line to print.  The round already paired is left as it is (``move`` changes it)."""
    _refuse_in_team_event(store, "pin a pair to a table")
    with store.write():
        player = store.find_player(key)
        current = [r for r in sql.requests(store) if r["kind"] == "pin" and r["a"] == player.id]
        for r in current:
            sql.delete_request(store, r["id"])
        if table_no is None:
            if not current:
                raise Refused(f"{player.name} is not pinned to a table")
            trail_it(store, "unpinned", None, {"player": player.id}, who)
            return f"{_who(store, player)} is no longer pinned to a table"
        if store.settings.format == PAIRS:
            partner = next((r for r in sql.requests(store) if r["kind"] == "pin" and r["table_no"] != table_no
                            and r["a"] in next(t.players for t in store.teams() if t.id == player.team)), None)
            if partner is not None:
                raise Refused(f"{player.name}'s partner is pinned to table {partner['table_no']}: a pair sits at "
                              f"one table")
        others = [r for r in sql.requests(store) if r["kind"] == "pin" and r["table_no"] == table_no]
        if others and store.settings.format != PAIRS:
            other = next(p for p in store.players() if p.id == others[0]["a"])
            raise Refused(f"{_who(store, other)} is already pinned to table {table_no}; unpin them first")
        since = next((r["round_no"] for r in current if r["table_no"] == table_no and r["round_no"]), None)
        sql.add_request(store, "pin", player.id, table_no=table_no, round_no=since or store.last_round() + 1)
        trail_it(store, "pinned", None, {"player": player.id, "table": table_no}, who)
    return f"{_who(store, player)} pinned to table {table_no} from the next round paired"


def apart(store: EventStore, a: str, b: str, rounds: int | None = None, lift: bool = False,
          who: Who = NOBODY) -> str:
    """Keep two players (a pairs event: their pairs) at different tables, through round
    ``rounds`` (``None``: every round), from the next round paired on; ``lift`` ends it."""
    _refuse_in_team_event(store, "keep two pairs apart")
    with store.write():
        pa, pb = store.find_player(a), store.find_player(b)
        if pa.id == pb.id:
            raise UnusableInput(f"{a!r} and {b!r} are the same player")
        if store.settings.format == PAIRS and pa.team == pb.team:
            raise Refused(f"{pa.name} and {pb.name} are partners: they cannot be kept apart")
        if store.settings.schedule == BALANCED and not lift:
            raise Refused("a balanced schedule is fixed in advance: it cannot keep players apart")
        pair = {pa.id, pb.id}
        current = [r for r in sql.requests(store) if r["kind"] == "apart" and {r["a"], r["b"]} == pair]
        for r in current:
            sql.delete_request(store, r["id"])
        both = f"{_who(store, pa)} and {_who(store, pb)}"
        if lift:
            if not current:
                raise Refused(f"{both} are not kept apart")
            trail_it(store, "apart_lifted", None, {"players": [pa.id, pb.id]}, who)
            return f"{both} may meet again"
        since = min((r["round_no"] for r in current if r["round_no"]), default=store.last_round() + 1)
        sql.add_request(store, "apart", pa.id, pb.id, until_round=rounds, round_no=since)
        trail_it(store, "kept_apart", None, {"players": [pa.id, pb.id], "through_round": rounds}, who)
    until = f" through round {rounds}" if rounds else ""
    return f"{both} kept at different tables{until}, from the next round paired"


# --- a correction that changes what a later round was paired on --------------------------------


def pairing_basis(store: EventStore) -> paired_on.Recomputed | None:
    """The standings the last round was paired on, worked out from the results as they are now,
    where a correction could make it worth pairing again (:func:`stale_pairing`): the round paired
    on standings and none of it played yet; None otherwise.  Taken before a correction (``before``
    of :func:`stale_pairing`), it is what the correction is judged against.

    Played: a table with a result, a duplicate-teams board of it entered, or a table whose phone
    has used its link (a game in progress, a mode chosen, the director called: the venue's log
    keeps it), which ``tournament unpair`` refuses.  The note pointed at `unpair` over a round
    whose table was mid-game on its phone, and `unpair` then refused."""
    last = store.last_round()
    if last < 2 or store.round_stage().get(last, 1) != 1 or store.settings.schedule == BALANCED:
        return None
    tables = store.tables(last)
    results = store.results()
    if any(t.id in results for t in tables):
        return None
    if store.settings.team_duplicate:  # a duplicate-teams table is played once a board of it is in
        from tournament.store import boards

        ids = {t.id for t in tables}
        if any(r["table_id"] in ids for r in boards.results(store)):
            return None
    if store.settings.teams and store.settings.team_schedule != "swiss":
        return None  # a round robin of teams is paired on its schedule
    if any(sql.venue_rows(store, [t.id for t in tables], every=True).values()):
        return None  # (as unpair refuses it: the venue's log keeps what a phone did there)
    used = store.standings_used(last)
    if not used:
        return None
    return paired_on.recompute(store, last, used, store.players(), store.teams(), store.tables(), results,
                               store.byes())


def stale_pairing(store: EventStore, event_label: str, before: paired_on.Recomputed | None = None) -> str | None:
    """After a correction: when the last round is paired and unplayed (:func:`pairing_basis`), and
    the standings it was paired on are no longer the standings, the line that says so and names the
    command that re-pairs it; None otherwise.  ``before``: :func:`pairing_basis` taken before the
    correction, so that the note is given only where this correction changed those standings: one
    that changed neither score nor winner (or none of what the pairing used) said it again when an
    earlier correction had changed them."""
    again = pairing_basis(store)
    if again is None:
        return None
    if not paired_on.changed(store.standings_used(store.last_round()), again):
        return None
    if before is not None and not paired_on.changed(before.rows, again):
        return None
    which = "team standings" if again.unit == "team" else "standings"  # what a team event is paired on
    last = store.last_round()
    return (f"round {last} was paired on {which} this correction has changed, and none of it is played yet: "
            f"`tournament unpair {event_label}` then `tournament pair {event_label}` pairs it again")


def stale_board_pairing(store: EventStore, event_label: str, before: paired_on.Recomputed | None = None
                        ) -> str | None:
    """After a board's result entered, replaced or taken back, or a board marked not played (or the
    mark taken back), in a Swiss event of duplicate teams: the note (``note: …``) when the last
    round, unplayed, was paired on standings it changed (:func:`stale_pairing`), as the command line
    (``tournament result``, ``tournament clear --board``) and the director's page both say it; None
    otherwise.  A board of a round before the last can change them: a board marked not played at one
    table of a match settles it at both, and taking a result or a mark back (or entering one afresh)
    rescores the match.  ``before``: :func:`pairing_basis` taken before the change (a board's result
    entered or corrected, on the director's page or ``tournament result --board``), so that the
    note is this change's, not an earlier one's."""
    if not store.settings.team_duplicate:
        return None
    stale = stale_pairing(store, event_label, before)
    return f"note: {stale}" if stale else None


# --- a manual score accepted -------------------------------------------------------------------

#: The trail's action for a manual score the director has looked at and accepts.
ACCEPTED = "result_accepted"


def accepted_results(store: EventStore) -> set[int]:
    """The ids of the results accepted (a result replaced since is another id: it is not)."""
    return {int(r["detail"]["result"]) for r in sql.trail(store)
            if r["action"] == ACCEPTED and isinstance(r["detail"].get("result"), int)}


def accept(store: EventStore, round_no: int | None, table_no: int | None, who: Who = NOBODY) -> list[str]:
    """Mark manual scores as accepted by the director, once: ``check`` stops warning about them
    (a score typed in is never verified; the director vouches for it, in the audit trail).  One
    table (``round_no``, ``table_no``), or with ``table_no`` None every manual score not yet
    accepted (of ``round_no`` only, when given).  Returns what was accepted, a line each."""
    with store.write():
        results = store.results()
        done = accepted_results(store)
        if table_no is not None:
            number = round_no if round_no is not None else store.last_round()
            table = store.table(number, table_no) if number else None
            if table is None:
                raise UnusableInput(f"round {number} has no table {table_no}; nothing was accepted")
            result = results.get(table.id)
            if result is None:
                raise Refused(f"round {number} table {table_no} has no result yet; nothing was accepted")
            if result.kind != "manual":
                what = "a recorded game, checked by domrec" if result.kind == "record" else f"a {result.kind}"
                raise Refused(f"round {number} table {table_no} holds {what}, not a score typed in: there is "
                              f"nothing to accept")
            if result.id in done:
                return [f"round {number} table {table_no}: already accepted"]
            chosen = [(table, result)]
        else:
            chosen = [(t, results[t.id]) for t in store.tables(round_no) if t.id in results
                      and results[t.id].kind == "manual" and results[t.id].id not in done]
        lines = []
        for table, result in chosen:
            trail_it(store, ACCEPTED, table.round, {"table": table.number, "result": result.id,
                                                    "scores": dict(result.scores), "winner": result.winner}, who)
            lines.append(f"round {table.round} table {table.number}: manual score accepted")
        return lines or ["no manual score is waiting to be accepted"]
