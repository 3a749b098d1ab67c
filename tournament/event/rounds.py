"""Pairing the next round and writing it, in one transaction."""

from __future__ import annotations

from typing import Any

from tournament.errors import PairingError, SeedingError, UnusableInput
from tournament.event import changes, desk, paired_on, seeding, standings
from tournament.pairing import swiss as pairing
from tournament.settings import PAIRS
from tournament.store.event_store import EventStore
from tournament.values import Table


def scoring_byes(store: EventStore) -> dict[int, list[int]]:
    """Round -> the byes the pairing gave (a free game, scored by ``--bye``), without the sit-outs
    asked for (``tournament sit-out``, scored by ``--sit-out-score``: nothing by default), which the
    pairing's queue for byes does not count: a player who sat out has had no bye, and is not sent to
    the back of the queue for one (``check`` counts them apart the same way)."""
    excused = desk.excused(store)
    return {r: [p for p in given if p not in excused.get(r, ())] for r, given in store.byes().items()}


def pair_next_round(store: EventStore, seed: str | None = None) -> pairing.Plan:
    """Pair and store the next round.  ``seed``: how round 1 is ordered (``rating``,
    ``column:NAME``: :mod:`tournament.event.seeding`); None, a random draw.

    The write lock is taken before anything is read, so two directors pressing
    the button at once get rounds N and N + 1 (the second is refused: round N
    has no results yet), never two round N's.  Refused while the last round
    still has tables without a result: Swiss pairing needs the standings.
    """
    with store.write():
        s = store.settings
        if seed and seed.strip().lower() != "draw" and (s.teams or s.duplicate or s.schedule != "standings"):
            raise SeedingError("--seed orders a round 1 paired on the standings: a team, duplicate or balanced "
                               "event's round 1 is set by its own draw")
        if store.has_stage_tables():
            from tournament.event.stages import refuse_swiss
            refuse_swiss(store)
        last = store.last_round()
        if store.settings.duplicate:  # seated by the movement, not by the standings
            from tournament.event import duplicate, duplicate_withdrawal
            if last:
                duplicate.check_finished(store, last)
            seated = duplicate.pair_round(store, last + 1)
            # A pair withdrawn since round 1 is seated on: its boards here are not played (for its opponents).
            duplicate_withdrawal.mark_seated(store, last + 1)
            return seated
        if store.settings.team_duplicate:  # a match is its boards at both tables: every board in
            from tournament.event import duplicate_teams
            if last:
                duplicate_teams.check_finished(store, last)
            if store.settings.team_schedule == "round-robin":  # every round played: said so, not its boards
                from tournament.event.teams import squads
                from tournament.pairing.teams import check_round_robin_round
                check_round_robin_round(squads(store), last + 1)
            duplicate_teams.check_boards_for(store, last + 1)
        tables = store.tables()  # every round's: read once for the check, the standings and the pairing
        results = store.results()
        if last and not store.settings.team_duplicate:  # a team match's boards are checked above
            missing = [t.number for t in tables if t.round == last and t.id not in results]
            if missing:
                shown = ", ".join(map(str, missing[:12])) + (" …" if len(missing) > 12 else "")
                raise PairingError(f"round {last} is not finished: table{'s' if len(missing) > 1 else ''} "
                                   f"{shown} ha{'ve' if len(missing) > 1 else 's'} no result yet")
        number = last + 1
        seeded_rows: list[tuple[int, int, dict[str, Any]]] = []  # round 1's seeding, kept with it
        if store.settings.teams:  # paired on the team standings, which the round keeps
            from tournament.event.teams import team_standings

            current: Any = team_standings(store) if last else None
            order = current.ranking() if current is not None else None
            if store.settings.team_duplicate and last:  # ranked by IMPs and VPs, not by games
                from tournament.event import duplicate_teams
                doc = duplicate_teams.standings(store)
                order = [r["id"] for r in doc["teams"]]
                # (the round keeps these, the standings it is paired on, not the games' all zeros)
                seeded_rows, current = duplicate_teams.kept_rows(doc), None
            plan = _pair_teams(store, number, order)
        else:
            current = standings.from_store(store, tables=tables, results=results) if last else None
            order, seeded_rows = seeding.seeding_for(store, number, seed)
            plan = pairing.pair_round(store.settings, number, store.players(), store.teams(), tables,
                                      scoring_byes(store), current, desk.constraints_for(store, number), order)
        used = paired_on.kept_rows(current) or seeded_rows
        store.insert_round(number, f"tournament:{store.settings.seed}:round:{number}", plan.tables, plan.byes,
                           used)
        changes.record(store, changes.ROUND_PAIRED, number, data={"tables": len(plan.tables),
                                                                  "byes": list(plan.byes)})
        if store.settings.teams:  # a team a pair short: that pair's table lost by forfeit, at once
            forfeit_short_tables(store, number)
    return plan


def _pair_teams(store: EventStore, number: int, ranking: list[int] | None) -> pairing.Plan:
    """A team event's round: teams paired on the team standings (``ranking``, best first; None
    before the first round) or by the round robin, each match's pairs at adjacent tables
    (:func:`tournament.pairing.teams.pair_teams`).  The desk's pins and keep-apart are for pairs
    events; a team's captain sets its line-up instead."""
    from tournament.event import teams
    from tournament.pairing.teams import pair_teams
    from tournament.store import squads

    wish = desk.constraints_for(store, number)
    if wish:
        raise PairingError("pins, keep-apart and sit-outs are not kept in a team event: set the team's "
                           "line-up (tournament team EVENT lineup) or withdraw the team")
    return pair_teams(store.settings, number, teams.squads(store), store.teams(), store.tables(), store.byes(),
                      ranking, squads.lineups(store, number), squads.substitutions(store))


def forfeit_short_tables(store: EventStore, round_no: int) -> list[int]:
    """Within the write that pairs ``round_no``: each table where a team a pair short sits its
    withdrawn pair (:func:`tournament.pairing.teams.short_sides`) gets its result at once, a
    forfeit by that side: the opponents' pair wins by the event's forfeit score.  The numbers of
    those tables.  No pair out of the round (the usual case): no table is short, and none is looked
    at (each would read every team again: a round's pairing growing with the square of its teams)."""
    if all(team.active_in(round_no) for team in store.teams()):
        return []
    return [t.number for t in store.tables(round_no) if desk.short_forfeit(store, t)]


def table_rows(store: EventStore, round_no: int) -> list[dict[str, Any]]:
    """One row a seat, for printing and CSV: round, table, seat, side, player number, name (and pair;
    in a team event, and team)."""
    players = {p.id: p for p in store.players()}
    teams = {t.id: t.name for t in store.teams()}
    results = store.results()
    squad_of: dict[int, str] = {}
    pair_of = {p.id: p.team for p in players.values()}
    if store.settings.teams:
        from tournament.event.teams import squads, substitutions
        from tournament.pairing.teams import pair_of_players

        squad_of = {pair: s.name for s in squads(store) for pair in s.pairs}
        pair_of.update(pair_of_players(store.teams(), substitutions(store)))  # a reserve brought in: its pair
    rows = []
    for t in store.tables(round_no):
        for s in t.seats:
            p = players[s.player]
            row = {"round": round_no, "table": t.number, "seat": s.seat, "side": s.side, "id": p.id,
                   "name": p.name}
            if store.settings.format == PAIRS:
                row["pair"] = teams.get(pair_of.get(p.id), "")
            if store.settings.teams:
                row["team"] = squad_of.get(pair_of.get(p.id), "")
            if store.settings.format == PAIRS:  # the pair's number: how a pairs event numbers its entries
                row["pair_id"] = pair_of.get(p.id)
            res = results.get(t.id)
            row["score"], row["result"] = _seat_result(t, s, res, store.settings.forfeit_score)
            rows.append(row)
    return rows


def pair_label(store: EventStore, player: int) -> str:
    """A pairs event's player as the event numbers them: their pair's number and name
    (``#3 Ana & Bo``); a player of no pair (a reserve not brought in) by their own."""
    p = next((x for x in store.players() if x.id == player), None)
    team = next((t for t in store.teams() if p is not None and t.id == p.team), None)
    if team is None:
        return f"#{player} {p.name if p else '?'}"
    return f"pair #{team.id} {team.name}"


def _seat_result(table: Table, seat: Any, res: Any, forfeit_score: int) -> tuple[str, str]:
    """A seat's row of ``tables --csv``: the table's scores as ``--score`` takes them (sides in seating
    order; a forfeit by player: the seat's own game, as the standings count it), and what the seat's
    side made of it: won, lost, draw, or placed N at a multi-player table; ``forfeit`` after it when
    nobody played it.  Empty while the table has no result."""
    from tournament.pairing.standings import forfeit_by_player

    if res is None:
        return "", ""
    gone = res.absent_players
    if gone:
        own = forfeit_by_player(seat.player not in gone, forfeit_score, len(table.seats))
        return f"{own.points_for}-{own.points_against}", f"{own.outcome} (forfeit)"
    order = [x for x in dict.fromkeys(s.side for s in table.seats) if x in res.scores]
    score = ",".join(f"{side}={res.scores[side]}" for side in order)
    mine = seat.side
    if len(order) > 2:
        ahead = sum(1 for x in order if x != mine and (x == res.winner or (res.winner != mine
                                                                          and res.scores[x] > res.scores[mine])))
        outcome = f"placed {ahead + 1}"
    else:
        outcome = "draw" if res.winner is None else "won" if res.winner == mine else "lost"
    return score, outcome + (" (forfeit)" if res.kind == "forfeit" else "")


def round_tables(store: EventStore, round_no: int) -> list[Table]:
    tables = store.tables(round_no)
    if not tables and round_no not in store.byes(round_no):
        last = store.last_round()
        raise UnusableInput(f"round {round_no} has not been paired" +
                           (f" (the last round paired is {last})" if last else " (no round has been paired yet)"))
    return tables
