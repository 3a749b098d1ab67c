"""A team event's teams: entering them, renaming, withdrawing, a round's line-up, the team standings.

A team event (``tournament new --format teams --team-size 4|6``) is a pairs event whose pairs
belong to teams (:mod:`tournament.store.squads`; the pairing and standings of teams are in
:mod:`tournament.pairing.teams`).  Each operation here is one write, recorded in the event's
change log like every change people can see.
"""

from __future__ import annotations

import bisect
import unicodedata
from pathlib import Path
from typing import Any, Mapping, Sequence

import attrs

from tournament.errors import PlayerInputError, Refused, UnusableInput
from tournament.event import changes
from tournament.event import players as pl
from tournament.names import LookAlikes, name_key, normalise_name, number_key
from tournament.pairing import teams as pairing
from tournament.pairing.standings import cell, late_rows
from tournament.settings import MAX_RESERVES, ROTATING, SET_CHANGE_AFTER, TIEBREAK_ALIASES
from tournament.store import fields as fields_sql, squads as sql
from tournament.store.event_store import EventStore
from tournament.values import Player, SeatAssignment, Squad, Substitution, Table

#: A pair entered for a team: (player, partner, the pair's name or None for "A & B").
PairEntry = tuple[str, str, "str | None"]


def refuse_unless_teams(store: EventStore) -> None:
    if not store.settings.teams:
        raise Refused(f"this is a {store.settings.format} event, not a team event (tournament new --format teams)")


def squads(store: EventStore) -> list[Squad]:
    return sql.squads(store)


def find_squad(store: EventStore, key: str) -> Squad:
    """A team by name (as names compare: case, accents' forms and spaces aside) or number."""
    found = squads(store)
    number = number_key(key)
    for s in found:
        if name_key(s.name) == name_key(key) or s.id == number:
            return s
    known = ", ".join(s.name for s in found[:8]) + (" …" if len(found) > 8 else "")
    raise UnusableInput(f"no team named or numbered {key!r} in this event" + (f" (teams: {known})" if known else ""))


def add_team(store: EventStore, name: str, pairs: Sequence[PairEntry], reserves: Sequence[str] = (),
             near: list[str] | None = None) -> Squad:
    """Enter a team: its pairs (as many as the event's teams have) and up to two reserves, in one
    write (all of it, or nothing); ``near``: as :func:`add_teams`'s."""
    return add_teams(store, [(name, list(pairs), list(reserves))], near=near)[0]


#: How a team's near-identical name is told to be renamed (:func:`tournament.event.players.near_identical`).
RENAME_TEAM = "tournament team EVENT rename"


def add_teams(store: EventStore, entries: Sequence[tuple[str, Sequence[PairEntry], Sequence[str]]],
              own: Mapping[str, tuple[str | None, dict[str, str]]] | None = None,
              near: list[str] | None = None) -> list[Squad]:
    """Enter teams, each ``(name, pairs, reserves)``, in one write; late teams play from the next
    round.  ``own``: a player's name -> their federation id (or None) and other columns (club, …).
    A team's name is checked as a player's is: one that looks like a team's already entered is
    refused, one differing only by capitals and spaces is entered and told of in ``near`` (with
    the players' own such warnings), as :func:`tournament.event.players.add_players` does."""
    refuse_unless_teams(store)
    need = store.settings.pairs_a_team
    checked: list[tuple[str, list[tuple[str, str, str]], list[str]]] = []
    for name, pairs, reserves in entries:
        team = pl._check_name(name, "team")
        if len(pairs) != need:
            raise PlayerInputError(f"team {team}: a team of {store.settings.team_size} plays {need} pairs, "
                                   f"not {len(pairs)}")
        if len(reserves) > MAX_RESERVES:
            raise PlayerInputError(f"team {team}: a team registers at most {MAX_RESERVES} reserves, not {len(reserves)}")
        ps = []
        for a, b, pair in pairs:
            a, b = pl._check_name(a), pl._check_name(b)
            ps.append((a, b, pl._check_name(pair_name(team, pair), "pair") if pair else f"{a} & {b}"))
        checked.append((team, ps, [pl._check_name(r) for r in reserves]))
    every = [n for _, ps, rs in checked for a, b, _ in ps for n in (a, b)] + [r for _, _, rs in checked for r in rs]
    for listed, what in ((every, ""), ([p for _, ps, _ in checked for _, _, p in ps], "the pair name "),
                         ([t for t, _, _ in checked], "the team name ")):
        dup = pl._first_repeat(listed)
        if dup is not None:
            raise PlayerInputError(what + dup)
    made = []
    own = own or {}
    with store.write():
        pl._refuse_after_the_rounds(store)
        pl._refuse_look_alikes(store, every, [p for _, ps, _ in checked for _, _, p in ps],
                               squads=[t for t, _, _ in checked])
        entered = store.last_round() + 1
        for team, ps, rs in checked:
            squad = sql.insert_squad(store, team, entered)
            listed = []
            for a, b, pair in ps:
                pid = store.insert_team(pair, entered)
                members = tuple(store.insert_player(x, entered, pid) for x in (a, b))
                sql.add_pair(store, squad, pid, members)
                listed.append({"id": pid, "name": pair, "players": [{"id": m, "name": x}
                                                                    for m, x in zip(members, (a, b))]})
            spare = []
            for r in rs:
                rid = store.insert_player(r, entered)
                sql.add_reserve(store, squad, rid)
                spare.append({"id": rid, "name": r})
            made.append(squad)
            entered_here = [(x["id"], x["name"]) for p in listed for x in p["players"]] + \
                [(x["id"], x["name"]) for x in spare]
            pl.set_federation_ids(store, {pid: pl.check_federation_id(own[n][0]) for pid, n in entered_here
                                          if n in own})
            for pid, n in entered_here:
                if n in own:
                    fields_sql.set_fields(store, pid, own[n][1])
            changes.record(store, changes.TEAM_ADDED, data={"id": squad, "name": team, "pairs": listed,
                                                            "reserves": spare, "from_round": entered})
        if near is not None:
            near.extend(pl.near_identical(store, every))
            near.extend(pl.near_identical(store, [t for t, _, _ in checked], squads(store), "team ", RENAME_TEAM))
    by_id = {s.id: s for s in squads(store)}
    return [by_id[i] for i in made]


def pair_name(team: str, given: str) -> str:
    """A pair's name as given for a team (``--pair A,B,NAME``, a team CSV's ``pair`` cell): a name
    is the pair's own, unique in the event; a number ``N`` numbers the pair within its team, and
    names it ``TEAM N`` (``Los Primos 1``), so that every team may number its pairs 1, 2."""
    number = number_key(given) if given.strip()[:1] != "#" else None
    return given if number is None else f"{team} {number}"


def read_teams_csv(path: str | Path, pairs_a_team: int, by_line: list[tuple[int, str, str]] | None = None
                   ) -> tuple[list[tuple[str, list[PairEntry], list[str]]],
                              dict[str, tuple[str | None, dict[str, str]]]]:
    """Teams from a players CSV with a ``name`` and a ``team`` column, a row a player, read as any
    players CSV is (:func:`tournament.event.players.read_csv_table`: a semicolon-separated one, a
    row with a cell no column heads refused at its line): a team's rows in order make its
    ``pairs_a_team`` pairs two by two (or, with a ``pair`` column, the rows naming one pair are that
    pair), and the rows left over (or whose ``pair`` cell says ``reserve``, or is empty where
    other rows name pairs) are its reserves, at most two.  A ``pair`` cell names the pair within
    its team: a number ``N`` is the pair ``TEAM N`` (``Los Primos 1``), so that each team may number
    its pairs 1, 2; any other name is the pair's own and unique in the event.  And each player's
    own: an ``id`` (a federation number) and the other columns (club, …), by name, for
    :func:`add_teams`.  A row refused (its cells, its pair, its team's rows) is said at its line.
    ``path`` ``-``: standard input (:func:`tournament.event.players.csv_source`).  ``by_line``: given
    a list, the players, ids, teams and pairs are added to it with their lines, so that a name the
    event already has is said at its line too (:func:`tournament.event.players.said_at_line`)."""
    path = pl.csv_source(path)
    header, found, body = pl.read_csv_table(path)
    for col in ("name", "team"):
        if col not in header:
            raise PlayerInputError(f"{path}: a team event's players CSV needs a '{col}' column "
                                   f"(found {', '.join(found) or 'nothing'})")
    if not body:
        raise PlayerInputError(f"{path} has a header but no players")
    idx = {h: i for i, h in enumerate(header)}
    with_pairs = "pair" in idx
    others = [h for h in header if h and h not in pl.KNOWN_COLUMNS]
    for h in others:
        if len(h) > 40 or any(unicodedata.category(c)[0] == "C" for c in h):
            raise PlayerInputError(f"{path}: a column name is one line of at most 40 characters: {h[:40]!r}")
    own: dict[str, tuple[str | None, dict[str, str]]] = {}
    teams: dict[str, list[tuple[int, str, str]]] = {}  # team -> (line, player, pair cell), in order
    listed: list[tuple[int, str, str]] = []
    for n, row in body:
        def cell(col: str) -> str:
            i = idx.get(col)
            return row[i].strip() if i is not None and i < len(row) else ""
        if not cell("name"):
            raise PlayerInputError(f"{path}, line {n}: the name is empty")
        if not cell("team"):
            raise PlayerInputError(f"{path}, line {n}: {cell('name')} has no team")
        if cell("team") not in teams:
            try:
                pl._check_name(cell("team"), "team")
            except PlayerInputError as e:
                raise PlayerInputError(f"{path}, line {n}: {e.message}") from None
        teams.setdefault(cell("team"), []).append((n, cell("name"), cell("pair") if with_pairs else ""))
        listed.append((n, "player", cell("name")))
        own[normalise_name(cell("name"))] = (cell("id") or None, {h: pl._field(cell(h), path, n) for h in others})
    pl.check_listed(path, listed)
    size = f"a team of {pairs_a_team * 2} plays {pairs_a_team} pairs"
    out = []
    pair_names: list[tuple[int, str, str]] = []  # (line, the pair's name, its team): unique in the event
    for team, members in teams.items():
        pairs: list[PairEntry] = []
        reserves: list[tuple[int, str]] = []
        if with_pairs:
            named: dict[str, list[tuple[int, str]]] = {}
            for n, who, pair in members:
                if not pair or pair.lower() in ("reserve", "reserva"):
                    reserves.append((n, who))
                else:
                    named.setdefault(pair_name(team, pair), []).append((n, who))
            if not named:  # every row of it a reserve: the column left empty, not meant so
                raise PlayerInputError(f"{path}, line {members[0][0]}: no row of team {team!r} names its pair in the "
                                       f"'pair' column, and a row whose pair cell is empty is a reserve: write each "
                                       f"pair's name or number there (or leave the column out: the rows then make "
                                       f"pairs two by two)")
            for pair, rows in named.items():
                if len(rows) != 2:
                    n = rows[2][0] if len(rows) > 2 else rows[0][0]
                    said = next(c for line, _, c in members if line == rows[0][0])
                    raise PlayerInputError(f"{path}, line {n}: the pair {said!r} of team {team!r} has {len(rows)} "
                                           f"player{'s' if len(rows) != 1 else ''}, not 2")
                pairs.append((rows[0][1], rows[1][1], pair))
                pair_names.append((rows[0][0], pair, team))
            if len(named) != pairs_a_team:
                n = list(named.values())[min(len(named), pairs_a_team + 1) - 1][0][0]
                raise PlayerInputError(f"{path}, line {n}: team {team!r} names {len(named)} "
                                       f"pair{'s' if len(named) != 1 else ''} in the 'pair' column; {size}")
        else:
            k = min(len(members) // 2, pairs_a_team)
            if k < pairs_a_team:
                raise PlayerInputError(f"{path}, line {members[-1][0]}: team {team!r} has {len(members)} "
                                       f"player{'s' if len(members) != 1 else ''}; {size} "
                                       f"({pairs_a_team * 2} players), and up to {MAX_RESERVES} reserves")
            pairs = [(members[2 * i][1], members[2 * i + 1][1], None) for i in range(k)]
            reserves = [(n, who) for n, who, _ in members[2 * k:]]
        if len(reserves) > MAX_RESERVES:
            raise PlayerInputError(f"{path}, line {reserves[MAX_RESERVES][0]}: team {team!r} has "
                                   f"{len(reserves)} reserves; a team registers at most {MAX_RESERVES}")
        out.append((team, pairs, [who for _, who in reserves]))
        if by_line is not None:  # (a pair's name as add_teams makes it when none is given)
            by_line.append((members[0][0], "team", team))
            by_line += [(line, "partnership", pair) for line, pair, t in pair_names if t == team]
            if not with_pairs:
                by_line += [(members[2 * i][0], "partnership", f"{a} & {b}") for i, (a, b, _) in enumerate(pairs)]
    _check_pair_names(path, pair_names)
    if by_line is not None:
        by_line += listed + [(n, "id", _id_cell(row, idx)) for n, row in body]
    return out, own


def _id_cell(row: Sequence[str], idx: Mapping[str, int]) -> str:
    """A row's ``id`` cell, or "" (a row may be shorter than the header)."""
    i = idx.get("id")
    return row[i] if i is not None and i < len(row) else ""


def _check_pair_names(path: Path, listed: Sequence[tuple[int, str, str]]) -> None:
    """The pairs' names of a team CSV, ``(line, name, team)``: each a name as any is, and unique in
    the event (nor like another: :class:`tournament.names.LookAlikes`), refused at its line naming
    the two teams, with how to number a team's pairs instead."""
    seen = LookAlikes()
    first: dict[str, tuple[int, str]] = {}
    for n, given, team in listed:
        try:
            name = pl._check_name(given, "pair")
        except PlayerInputError as e:
            raise PlayerInputError(f"{path}, line {n}: {e.message}") from None
        earlier = seen.find(name)
        if earlier is not None:
            line, other = first[earlier]
            said = "is named as" if earlier == name else f"looks the same as the pair {earlier!r},"
            raise PlayerInputError(f"{path}, line {n}: the pair {name!r} of team {team!r} {said} a pair of team "
                                   f"{other!r} (line {line}); pair names are unique in the event (number each "
                                   f"team's pairs 1, 2 in the 'pair' column: they are then named {team + ' 1'!r}, "
                                   f"{team + ' 2'!r})")
        seen.add(name)
        first[name] = (n, team)


def rename_team(store: EventStore, key: str, new: str, near: list[str] | None = None) -> Squad:
    """Rename a team; its new name is checked as an entered one is (:func:`add_teams`)."""
    refuse_unless_teams(store)
    squad = find_squad(store, key)
    new = pl._check_name(new, "team")
    with store.write():
        pl._refuse_look_alikes(store, [], squads=[new], but_squad=squad.id)
        sql.rename_squad(store, squad.id, new)
        if near is not None:
            near.extend(pl.near_identical(store, [new], squads(store), "team ", RENAME_TEAM))
        changes.record(store, changes.TEAM_RENAMED, data={"id": squad.id, "from": squad.name, "to": new})
    return find_squad(store, f"#{squad.id}")


def withdraw_team(store: EventStore, key: str, reason: str | None = None, by: str | None = None) -> Squad:
    """The team, its pairs and players are not paired from the next round on (their games stand).
    As a pair's withdrawal (:func:`tournament.event.players.withdraw`), it is a line of the desk's
    trail (``tournament history``), with ``reason`` and ``by`` (default: the login name)."""
    from tournament.event import audit
    from tournament.store import desk as desk_sql

    refuse_unless_teams(store)
    by = audit.clean_text(by, "the name of who made it") or audit.default_author()
    reason = audit.clean_text(reason, "the reason")
    squad = find_squad(store, key)
    if squad.withdrawn is not None:
        raise Refused(f"team {squad.name} has already withdrawn (from round {squad.withdrawn})")
    with store.write():
        from tournament.event import duplicate_withdrawal

        duplicate_withdrawal.refuse_after_session(store, f"team {squad.name}", "withdraw")
        after = store.last_round() + 1
        sql.withdraw_squad(store, squad.id, after)
        changes.record(store, changes.TEAM_WITHDRAWN, data={"id": squad.id, "name": squad.name, "from_round": after})
        desk_sql.log(store, changes.TEAM_WITHDRAWN, after, {"team": squad.id, "name": squad.name}, by, reason)
    return find_squad(store, f"#{squad.id}")


def set_lineup(store: EventStore, key: str, pair_keys: Sequence[str], round_no: int | None = None) -> tuple[int, ...]:
    """The captain's order of the team's pairs for a round not paired yet (default: the next):
    the first named sits at the match's first table.  Every pair of the team is named once."""
    refuse_unless_teams(store)
    squad = find_squad(store, key)
    nxt = store.last_round() + 1
    round_no = nxt if round_no is None else round_no
    if round_no < nxt:
        raise Refused(f"round {round_no} is paired already: a line-up is set before its round is paired")
    names = {t.id: t for t in store.teams() if t.id in squad.pairs}
    order = []
    for k in pair_keys:
        number = number_key(k)
        # A pair's name; a number the team's own numbering names (``1``: the pair "Los Primos 1",
        # :func:`pair_name`) before the pair's number in the event (``#3``, or ``3`` naming none).
        found = ([t.id for t in names.values() if name_key(t.name) == name_key(k)]
                 or [t.id for t in names.values() if name_key(t.name) == name_key(pair_name(squad.name, k))]
                 or [t.id for t in names.values() if t.id == number])
        if not found:
            raise UnusableInput(f"team {squad.name} has no pair {k!r} (its pairs: "
                                f"{', '.join(t.name for t in names.values())})")
        order.append(found[0])
    if sorted(order) != sorted(squad.pairs):
        raise UnusableInput(f"name each of team {squad.name}'s {len(squad.pairs)} pairs once, in the order they sit")
    with store.write():
        sql.set_lineup(store, round_no, squad.id, tuple(order))
        changes.record(store, changes.LINEUP_SET, round_no, data={"team": squad.id, "pairs": order})
    return tuple(order)


def match_docs(store: EventStore, round_no: int) -> list[dict[str, Any]]:
    """The round's matches as the director's page shows them, in table order, each summed from
    its tables' results as they come in: its tables, the two teams (home first), the games each
    has won so far (``home_games``, and as read: ``home_text`` "1½"), how many tables are in.
    In an event of sets (``--team-set``): ``target``, the ``winner`` (a name, or None while the
    set is played) and ``won_at``, the game points when it was won, the winner's first ("50–41");
    a set is named by its first tables (its later games are tables after the round's last)."""
    from tournament.event.stages import set_target

    teams = {t.id: t for t in store.teams()}
    found = squads(store)
    names = {s.id: s.name for s in found}
    squad_of = pairing.squad_of_players(found, teams.values())
    target = set_target(store, round_no)
    out = []
    for m in pairing.round_matches(store.tables(round_no), store.results(), squad_of, target):
        won_at = "–".join(games_text(x) for x in _winner_first(m)) if m.winner is not None else None
        out.append({"tables": list(m.tables[:store.settings.pairs_a_team] if target else m.tables),
                    "home": names[m.home], "away": names[m.away],
                    "home_games": m.home_games, "away_games": m.away_games,
                    "home_text": games_text(m.home_games), "away_text": games_text(m.away_games),
                    "done": m.done, "count": len(m.tables), "finished": m.finished, "target": target,
                    "winner": names[m.winner] if m.winner is not None else None, "won_at": won_at})
    return out


def bye_lines(store: EventStore, players: Sequence[int]) -> list[str]:
    """The teams that have a bye among these players (a round's byes), each named with its pairs:
    ``Uno (pair #1 Ana & Bo, pair #2 Cruz & Dani)``; a player of no team by their number and name."""
    found = squads(store)
    squad_of = pairing.squad_of_players(found, store.teams())
    names = {x.id: x.name for x in found}
    pairs = {t.id: t for t in store.teams()}
    who = {p.id: p for p in store.players()}
    out: dict[str, list[str]] = {}
    for p in players:
        if p not in squad_of:
            out.setdefault(f"#{p} {who[p].name if p in who else '?'}", [])
            continue
        pair = pairs.get(who[p].team) if p in who else None
        mine = out.setdefault(names[squad_of[p]], [])
        if pair is not None and f"pair #{pair.id} {pair.name}" not in mine:
            mine.append(f"pair #{pair.id} {pair.name}")
    return [f"{team} ({', '.join(mine)})" if mine else team for team, mine in out.items()]


def substitute(store: EventStore, key: str, out_key: str, in_key: str, round_no: int | None = None) -> Substitution:
    """A reserve of the team takes a player's place in their pair from a round not paired yet
    (default: the next) on: the captain's substitution.  The games already played stand as they
    were, each player's own (``standings --by player``); the pair keeps its games and its name.

    Refused, in one line: a round already paired; a player out who does not sit in a pair of the
    team that round; a player in who is not free among the team's own (a reserve, or a player
    substituted out earlier) or who has played in another pair (a player plays in one pair only)."""
    refuse_unless_teams(store)
    squad = find_squad(store, key)
    with store.write():
        nxt = store.last_round() + 1
        round_no = nxt if round_no is None else round_no
        if round_no < nxt:
            raise Refused(f"round {round_no} is paired already: a substitution is made before its round is "
                          f"paired (the next is round {nxt})")
        if squad.withdrawn is not None and round_no >= squad.withdrawn:
            raise Refused(f"team {squad.name} has withdrawn (from round {squad.withdrawn})")
        subs = sql.substitutions(store)
        later = [x for x in subs if x.squad == squad.id and x.from_round > round_no]
        if later:
            raise Refused(f"team {squad.name} has a substitution from round {later[0].from_round} already; "
                          f"make this one for that round or later")
        teams = [t for t in store.teams() if t.id in squad.pairs]
        seated = pairing.members_in(teams, subs, round_no)
        names = {p.id: p for p in store.players()}
        mine = {p for pair in squad.pairs for p in seated.get(pair, ())}
        own = mine | set(squad.reserves) | {p for t in teams for p in t.players}
        out = _team_player(names, own, out_key, squad)
        into = _team_player(names, own, in_key, squad)
        if out not in mine:
            raise Refused(f"{names[out].name} does not sit in a pair of team {squad.name} in round {round_no}")
        pair = next(p for p in squad.pairs if out in seated[p])
        if into in mine:
            raise Refused(f"{names[into].name} already sits in a pair of team {squad.name} in round {round_no}; "
                          f"bring in one of its reserves")
        before = pairing.pair_of_players(teams, subs).get(into)
        if before is not None and before != pair:
            pair_names = {t.id: t.name for t in teams}
            raise Refused(f"{names[into].name} has played in pair {pair_names[before]}; a player plays in one "
                          f"pair only")
        if not names[into].active_in(round_no):
            raise Refused(f"{names[into].name} has withdrawn or is not entered for round {round_no}")
        made = sql.add_substitution(store, round_no, squad.id, pair, out, into)
        changes.record(store, changes.PLAYER_SUBSTITUTED, round_no,
                       data={"team": squad.id, "pair": pair, "out": {"id": out, "name": names[out].name},
                             "in": {"id": into, "name": names[into].name}, "from_round": round_no})
    return Substitution(made, round_no, squad.id, pair, out, into)


def _team_player(players: Mapping[int, Any], own: set[int], key: str, squad: Squad) -> int:
    """One of the team's players (in a pair or a reserve) by name or number; else one line."""
    number = number_key(key)
    for pid in sorted(own):
        if name_key(players[pid].name) == name_key(key) or pid == number:
            return pid
    reserves = ", ".join(players[p].name for p in squad.reserves) or "none"
    raise UnusableInput(f"team {squad.name} has no player {key!r} (its reserves: {reserves})")


def substitutions(store: EventStore) -> list[Substitution]:
    return sql.substitutions(store)


# --- sets (``--team-set N``) -------------------------------------------------------------------


def _match_of(store: EventStore, round_no: int, teams_key: frozenset[int]) -> list[Table]:
    """The tables of the round where these two teams meet, in table order."""
    squad_of = pairing.squad_of_players(squads(store), store.teams())
    return [t for t in store.tables(round_no) if frozenset(pairing.table_sides(t, squad_of).values()) == teams_key]


def _lines(tables: Sequence[Table], pairs: int) -> list[Table]:
    """A set's current game at each of its lines (one a pair of each team): going back from the
    latest table, the first ``pairs`` tables that share no player (a change re-seats the open
    games, so the latest tables are always the lines as they now stand)."""
    out: list[Table] = []
    for t in sorted(tables, key=lambda t: -t.number):
        if all(not set(t.players) & set(o.players) for o in out):
            out.append(t)
        if len(out) == pairs:
            break
    return sorted(out, key=lambda t: t.number)


def after_set_result(store: EventStore, table: Table) -> list[Table]:
    """Within the write of a result (entered, forfeited or corrected): in an event of sets, seat
    the next game of each line of the table's match that has none waiting, while no team has
    reached the set's target.  A line's next game is a new table of the same round, numbered after
    the round's last, with the players and seats of the line's last game.  Returns the new tables."""
    from tournament.event import stages

    s = store.settings
    if not (s.teams and s.team_set):
        return []
    squad_of = pairing.squad_of_players(squads(store), store.teams())
    sides = pairing.table_sides(table, squad_of)
    if len(sides) != 2:
        return []
    names = {sq.id: sq.name for sq in squads(store)}
    tables = _match_of(store, table.round, frozenset(sides.values()))
    results = store.results()
    match = pairing.round_matches(tables, results, squad_of, stages.set_target(store, table.round))[0]
    if match.winner is not None:
        return []
    new = []
    game = len(tables)
    players = {p.id: p.name for p in store.players()}
    link = stages.stage_link(store, table)  # a stage's set: its games are tables of its match
    for line in _lines(tables, s.pairs_a_team):
        if line.id not in results:
            continue
        game += 1
        if link is not None:
            stage, match_id, key, board = link
            number = max(store.table_numbers(table.round), default=0) + 1
            tid = stages.seat_stage_table(store, stage, table.round, number, line.seats, match_id, key, board)
            link = (stage, match_id, key, board + 1)
        else:
            tid, number = sql.insert_set_table(store, table.round, line.seats)
            changes.record(store, changes.TABLE_SEATED, table.round, number, {
                "stage": 1, "match": f"{names[match.home]} v {names[match.away]}", "game": game,
                "seats": changes.seats_doc(line.seats, players)})
        new.append(Table(tid, table.round, number, line.seats))
    return new


def captain_change(store: EventStore, key: str, cross: bool = False, sub: tuple[str, str] | None = None) -> list[Table]:
    """The captain's one change in a set, after 6 of its games and between games: ``sub`` (a
    player out, a player in: the team's reserve takes the seat in the match's waiting game, and
    from this round on, as :func:`substitute`) or ``cross`` (the draw cross: the team's two pairs
    change tables, each taking the other's seats).  Re-seats the match's waiting games, which no
    one has begun; returns them."""
    refuse_unless_teams(store)
    s = store.settings
    if not s.team_set:
        raise Refused("the captain's change is for matches played as sets (tournament new --team-set N)")
    if cross == (sub is not None):
        raise UnusableInput("give the change: --cross, or --sub PLAYER-OUT PLAYER-IN")
    if cross and s.pairs_a_team != 2:
        raise Refused("the draw cross is for teams of two pairs: each pair moves to the other table")
    squad = find_squad(store, key)
    with store.write():
        round_no = store.last_round()
        if not round_no:
            raise Refused("no round has been paired yet: the captain's change is made during a match")
        squad_of = pairing.squad_of_players(squads(store), store.teams())
        mine = [t for t in store.tables(round_no) if squad.id in pairing.table_sides(t, squad_of).values()]
        if not mine:
            raise Refused(f"team {squad.name} has no match in round {round_no}")
        names = {sq.id: sq.name for sq in squads(store)}
        results = store.results()
        from tournament.event.stages import set_target
        match = pairing.round_matches(mine, results, squad_of, set_target(store, round_no))[0]
        if match.winner is not None:
            a, b = _winner_first(match)
            raise Refused(f"the match is over: {names[match.winner]} won it at {games_text(a)}–{games_text(b)}")
        if match.done < SET_CHANGE_AFTER:
            raise Refused(f"the captain's change comes after {SET_CHANGE_AFTER} games of the match; "
                          f"{match.done} {'has' if match.done == 1 else 'have'} been played")
        made = sql.set_change(store, round_no, squad.id)
        if made is not None:
            raise Refused(f"team {squad.name}'s captain has made their change in this match already ({made})")
        lines = _lines(mine, s.pairs_a_team)
        waiting = [t for t in lines if t.id not in results]
        statuses = changes.table_statuses(store, round_no)
        playing = [t.number for t in waiting if statuses.get((round_no, t.number)) == changes.PLAYING]
        if len(waiting) != len(lines) or playing:
            busy = f"table {playing[0]}" if playing else "a table"
            raise Refused(f"a game of the match is being played at {busy}: the change is made between games")
        players = {p.id: p for p in store.players()}
        side = {t.id: pairing.table_sides(t, squad_of) for t in waiting}
        team_side = {t.id: next(x for x, u in side[t.id].items() if u == squad.id) for t in waiting}
        new_seats: dict[int, tuple[SeatAssignment, ...]] = {}
        data: dict[str, Any] = {"team": squad.id, "match": f"{names[match.home]} v {names[match.away]}",
                                "after": match.done}  # the games played before it: the captain's sheet says so
        if cross:
            t1, t2 = waiting
            pair_at = {t.id: [x.player for x in t.seats if x.side == team_side[t.id]] for t in waiting}
            for t, there in ((t1, t2), (t2, t1)):
                coming = iter(pair_at[there.id])
                new_seats[t.id] = tuple(SeatAssignment(x.seat, x.side, next(coming)) if x.side == team_side[t.id]
                                        else x for x in t.seats)
            data.update(kind="cross")
        else:
            assert sub is not None
            subs = sql.substitutions(store)
            teams = [t for t in store.teams() if t.id in squad.pairs]
            seated = {x.player for t in waiting for x in t.seats}
            own = {p for t in teams for p in t.players} | set(squad.reserves) | {
                x.player_in for x in subs if x.squad == squad.id}
            out = _team_player(players, own, sub[0], squad)
            into = _team_player(players, own, sub[1], squad)
            if out not in seated:
                raise Refused(f"{players[out].name} does not sit in team {squad.name}'s match now")
            if into in seated:
                raise Refused(f"{players[into].name} already sits in the match; bring in one of the team's reserves")
            pair = pairing.pair_of_players(teams, subs).get(out)
            before = pairing.pair_of_players(teams, subs).get(into)
            if before is not None and before != pair:
                raise Refused(f"{players[into].name} has played in another pair; a player plays in one pair only")
            if any(x.squad == squad.id and x.from_round > round_no for x in subs):
                raise Refused(f"team {squad.name} has a substitution for a later round already")
            for t in waiting:
                if out in t.players:
                    new_seats[t.id] = tuple(SeatAssignment(x.seat, x.side, into if x.player == out else x.player)
                                            for x in t.seats)
            assert pair is not None
            sql.add_substitution(store, round_no, squad.id, pair, out, into)
            data.update(kind="sub", out={"id": out, "name": players[out].name},
                        **{"in": {"id": into, "name": players[into].name}})
        sql.add_set_change(store, round_no, squad.id, data["kind"])
        every = {p: x.name for p, x in players.items()}
        out_tables = []
        for t in waiting:
            if t.id not in new_seats:
                continue
            store.reseat_table(t.id, new_seats[t.id])
            game = sorted(x.number for x in mine).index(t.number) + 1
            changes.record(store, changes.TABLE_RESEATED, round_no, t.number, {
                "stage": 1, "match": data["match"], "game": game, "seats": changes.seats_doc(new_seats[t.id], every)})
            out_tables.append(Table(t.id, round_no, t.number, new_seats[t.id]))
        data["tables"] = [t.number for t in out_tables]
        changes.record(store, changes.CAPTAIN_CHANGE, round_no, data=data)
    return out_tables


def match_lines(store: EventStore, round_no: int, lang: str = "en") -> list[str]:
    """A line a match of the round, its games summed as its tables' results come in, in the words
    of the hall's pages (``match_line`` in tournament/pages/templates/macros.html.j2) and in
    ``lang``: ``Tables 1-2: Los Primos 1½ – ½ La Dupla (1 of 2 tables in)`` while it is played,
    then ``(Los Primos wins the match)`` or ``(match drawn)``; a set, ``(set to 50, in progress)``
    until ``(Los Primos wins the set 50–41)``.  The terminal prints them under ``tables`` and
    ``standings``, so that what the director reads there is what the hall reads."""
    from tournament.i18n import translations

    _ = translations(lang).gettext
    out = []
    for m in match_docs(store, round_no):
        target = m["target"]
        where = _("Tables %(first)s-%(last)s") % {"first": m["tables"][0], "last": m["tables"][-1]}
        if target and m["winner"] is not None:
            state = _("%(team)s wins the set %(score)s") % {"team": m["winner"], "score": m["won_at"]}
        elif target:
            state = _("set to %(target)s, in progress") % {"target": target}
        elif not m["finished"]:
            state = _("%(done)s of %(count)s tables in") % {"done": m["done"], "count": m["count"]}
        else:
            state = match_outcome(store, round_no, m, lang)
        out.append(f"{where}: {m['home']} {m['home_text']} – {m['away_text']} {m['away']} ({state})")
    return out


def match_outcome(store: EventStore, round_no: int, m: dict[str, Any], lang: str = "en") -> str | None:
    """How a match of :func:`match_docs` (``m``) ended once all its tables are in, in ``lang``:
    ``Los Primos wins the match``, ``match drawn``, or for a knockout's level match the team its
    tie-breaks send through; ``None`` while a table is still out, and for a set (its own line).
    What ``tables`` and ``standings`` print (:func:`match_lines`) and the director's page shows."""
    from tournament.i18n import translations

    if m["target"] or not m["finished"]:
        return None
    _ = translations(lang).gettext
    if m["home_games"] == m["away_games"]:
        # A knockout's level match still sends one team through: its tie-breaks, then its seed.
        through, final, champion = _through_on_tiebreaks(store, round_no, m["tables"])
        if through and final and champion:
            return _("level: %(team)s wins the final, and the event, on the tie-breaks") % {"team": through}
        if through and final:
            return _("level: %(team)s wins the final on the tie-breaks") % {"team": through}
        if through:
            return _("level: %(team)s wins the tie on the tie-breaks") % {"team": through}
        return _("match drawn")
    won = m["home"] if m["home_games"] > m["away_games"] else m["away"]
    return _("%(team)s wins the match") % {"team": won}


def _through_on_tiebreaks(store: EventStore, round_no: int, numbers: Sequence[int]) -> tuple[str | None, bool, bool]:
    """In a knockout of teams, the team a level match sends through (its tie-breaks, then its
    seed: :func:`tournament.event.stages.match_places`), None in the rounds or groups; whether
    the match is the bracket's final (or its reset), and whether that team is the stage's
    champion by it (the final decides the event: the line says so, not "wins the tie")."""
    from tournament.event import stages

    stage = stages.stage_of_round(store, round_no) if store.has_stage_tables() else None
    if stage is None or not stage.knockout:
        return None, False, False
    tables = [t for t in store.tables(round_no) if t.number in numbers]
    places = stages.match_places(store, stage, tables, store.results(), None)
    if not places:
        return None, False, False
    ids = {t.id for t in tables}
    key = next((row["key"] for row in store.match_tables(stage.id) if row["table_id"] in ids), None)
    state = stages.state_of(store, stage)
    final = key is not None and any(m.match.key == key and m.match.bracket in ("final", "reset")
                                    for m in state.matches)
    return ({s.id: s.name for s in squads(store)}[places[0][0]], final,
            final and state.champion == places[0][0])


def _winner_first(m: pairing.MatchScore) -> tuple[float, float]:
    """A set's game points when it was won, the winner's first."""
    home, away = m.won_at or (0.0, 0.0)
    return (home, away) if m.winner == m.home else (away, home)


def games_text(x: float) -> str:
    """Games won as a match's score reads them: 2, 1½, ½, 0."""
    whole = int(x)
    return (str(whole) if whole or x == whole else "") + ("½" if x != whole else "")


# --- standings --------------------------------------------------------------------------------


def team_standings(store: EventStore, through_round: int | None = None,
                   late_last: bool = False) -> pairing.TeamStandings:
    """The team standings of the rounds (a later stage's matches are ranked on their own:
    ``standings --stage N``, :func:`tournament.event.stages.team_stage_standings`).  ``late_last``:
    as people read them (``standings``, the hall, the feed), a team entered late and not yet in the
    rounds counted listed last, marked with the round it plays from
    (:func:`tournament.pairing.standings.late_rows`); the pairing ranks it on its zeros."""
    refuse_unless_teams(store)
    tables = store.tables()
    if store.has_stage_tables():
        later = {n for n, sid in store.round_stage().items() if sid != 1}
        tables = [t for t in tables if t.round not in later]
    found = squads(store)
    table = pairing.compute_teams(store.settings, found, store.teams(), store.players(), tables,
                                  store.results(), store.byes(), through_round)
    if not late_last:
        return table
    rows = late_rows(table.rows, {x.id: x.entered for x in found}, table.through_round, lambda r: r.team)
    return table if all(a is b for a, b in zip(rows, table.rows)) else attrs.evolve(table, rows=tuple(rows))


def player_standings(store: EventStore, through_round: int | None = None) -> Any:
    """Each player's own ranking in a partnership event (``standings --by player``): the games of
    the pairs they sat in, ranked by the event's keys.  A team event's reserve who has not played
    (no seat at a table, no bye, in the rounds counted: :func:`idle_reserves`) has no rank: listed
    after the ranked players, rank ``None`` (a decision, docs/tournament.md "A reserve
    substituted": before, a reserve with no game ranked above every player who had lost theirs,
    and put them a place lower).  Brought into a pair, a reserve is ranked from the first round
    they sit in."""
    import attrs

    from tournament.pairing.standings import compute, late_entries_last

    settings = attrs.evolve(store.settings, format=ROTATING)
    players = store.players()
    table = compute(settings, players, store.teams(), store.tables(), store.results(), store.byes(),
                    through_round)
    idle = {p.id for p in idle_reserves(store, through_round)}
    # A late entry not yet in the rounds counted: listed after the others (a reserve who has not
    # played, late or not, has no rank at all: below).
    table = late_entries_last(table, {p.id: p.entered for p in players if p.id not in idle})
    if not idle:
        return table
    ranked = [r for r in table.rows if r.unit not in idle]
    # A rank is one more than the rows ranked ahead (ties share theirs): counted without the reserves.
    ahead = sorted(r.rank for r in ranked)
    rows = [attrs.evolve(r, rank=1 + bisect.bisect_left(ahead, r.rank)) for r in ranked]
    rows += [attrs.evolve(r, rank=None) for r in table.rows if r.unit in idle]
    return attrs.evolve(table, rows=tuple(rows))


def idle_reserves(store: EventStore, through_round: int | None = None) -> list[Player]:
    """A team event's reserves who have not played in the rounds through ``through_round`` (all
    paired so far by default): never seated at a table nor given a bye there; in entry order.
    Empty in any other event."""
    if not store.settings.teams:
        return []
    reserves = {p for s in squads(store) for p in s.reserves}
    if not reserves:
        return []
    counted = lambda r: through_round is None or r <= through_round  # noqa: E731
    sat = {s.player for t in store.tables() if counted(t.round) for s in t.seats}
    sat.update(p for r, given in store.byes().items() if counted(r) for p in given)
    return [p for p in store.players() if p.id in reserves and p.id not in sat]


def standings_json(store: EventStore, through_round: int | None = None, ranked: Any = None) -> dict[str, Any]:
    """The keys ``standings --json`` adds for another program to read: ``teams`` (a team event),
    ``pairs`` (a pairs or team event) and ``players``, each a list of rows best first.  ``ranked``:
    the event's standings through ``through_round`` (:func:`tournament.event.standings.from_store`),
    made already by the caller; in a rotating event with no later stage and no sit-out they are
    the players' own ranking too, which is then not made a second time (the hall's read at each
    result made it twice)."""
    from tournament.event import standings as st
    from tournament.settings import PAIRS

    out: dict[str, Any] = {}
    if store.settings.teams:
        out["teams"] = [r.to_dict() for r in team_standings(store, through_round, late_last=True).rows]
    if store.settings.format == PAIRS:
        table = ranked if ranked is not None else st.event_standings(store, through_round)
        out["pairs"] = [_unit_row(r, "pair", table.tiebreaks) for r in table.rows]
    if store.settings.partnership:
        same = ranked is not None and _players_ranked_alike(store)
        ranking = ranked if same else player_standings(store, through_round)
        out["players"] = [_unit_row(r, "player", ranking.tiebreaks) for r in ranking.rows]
    else:
        out["players"] = [{"rank": r.rank, "player": r.name, "id": r.unit, "played": r.played,
                           "placement": r.placement, "score": r.score}
                          for r in (ranked if ranked is not None else st.event_standings(store, through_round)).rows]
    return out


def _players_ranked_alike(store: EventStore) -> bool:
    """Whether the event's standings (:func:`tournament.event.standings.from_store`) and the players'
    own ranking (:func:`player_standings`) are the same computation: a rotating event of players
    (no teams), every round in its first stage (nothing left out), no sit-out asked for (scored
    as a bye in both)."""
    from tournament.store.desk import sit_outs

    return (store.settings.format == ROTATING and not store.settings.teams
            and all(stage == 1 for stage in store.round_stage().values()) and not sit_outs(store))


#: The ranking keys a pair's or player's row shows under another name already.
_SHOWN_AS = {"for": "points_for", "against": "points_against", "diff": "efectividad"}


def _unit_row(r: Any, what: str, keys: Sequence[str] = ()) -> dict[str, Any]:
    """A pair's or player's row of ``standings --by pair|player`` (and of the public data): its
    games, byes and points, its ``wins`` (games won, a draw a half, byes included: the usual first
    key), the value of every other key that ranks it (``keys``), so that the order the table
    says it follows can be read in its columns, and its ``status`` (a late entry's says the round
    it plays from, as the event's standings do)."""
    row = {"rank": r.rank, what: r.name, "id": r.unit, "played": r.played, "won": r.won, "drawn": r.drawn,
           "lost": r.lost, "byes": r.byes, "wins": cell(r, "wins"), "points_for": r.points_for,
           "points_against": r.points_against, "efectividad": r.diff}
    for key in keys:
        name = _SHOWN_AS.get(key, key)
        if name not in row and key not in TIEBREAK_ALIASES:
            row[name] = cell(r, key)
    row["status"] = cell(r, "status")  # (last: active, withdrawn, or a late entry's "from round K")
    return row
