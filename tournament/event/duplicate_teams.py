"""Duplicate teams (issue 38, point 6; docs/duplicate.md "Duplicate teams"): a team event whose
matches play the same boards at both their tables.

A duplicate-teams event is a team event of teams of two pairs (``--format teams --team-size 4
--duplicate``).  Its rounds pair teams as every team event does (:mod:`tournament.pairing.teams`):
each match at two tables, the home team's first pair N-S at the first table and its second pair
E-W at the second.  Every table of round R plays the round's boards, ``(R-1)·k+1 … R·k`` for ``k``
boards a round, so each board is played by each team once in each direction: what one team's
pair did with the N-S cards, the other team's pair did at the other table.  A board's result at a
table is entered as in duplicate pairs (:mod:`tournament.event.duplicate`: a typed score, or the
record of the hand, whose deal must be the board's) and stored in the same ``board_results``.

A match is scored by :func:`tournament.pairing.matchpoints.team_match`: on each board the home
team's net (its points minus the visitors', both tables together) in IMPs, summed, and victory
points when the event says so (``--victory-points``).  The standings rank the teams by victory
points (or match points: 2 a match won on IMPs, 1 a draw), then the IMP difference, then the IMPs
won; nothing of it is stored, it is computed afresh from the board results.
"""

from __future__ import annotations

from typing import Any

import attrs

from domrec.record import Record
from domrec.validate import Report

from tournament.errors import PairingError, Refused, ResultRefused, UnusableInput
from tournament.event import duplicate as dup, results as res
from tournament.pairing import matchpoints as mp, teams as pairing
from tournament.store import boards as sql, squads as squads_sql
from tournament.store.event_store import EventStore
from tournament.values import Table

#: What a team's bye is worth: a match won, by bridge's usual award (12 of 20 victory points).
BYE_MATCH_POINTS, BYE_VICTORY_POINTS = 2, 12.0


class NotDuplicateTeams(UnusableInput):
    """A duplicate-teams operation on another kind of event (exit 2)."""


def check(store: EventStore, what: str) -> None:
    if not store.settings.team_duplicate:
        raise NotDuplicateTeams(f"{what} is for duplicate teams (tournament new --format teams --team-size 4 "
                                f"--duplicate); this event is {store.settings.format_name}")


#: The boards every table of a round plays, in order (kept with the duplicate tables' boards, which
#: a board's result over a phone's game asks for: :func:`tournament.event.duplicate.boards_of`).
round_boards = dup.round_boards


def check_boards_for(store: EventStore, round_no: int) -> None:
    """Before round ``round_no`` is paired: its boards are there (dealt before round 1)."""
    have = {b["board"] for b in sql.boards(store)}
    need = round_boards(store, round_no)
    if not set(need) <= have:
        # (one board said as one: "plays board 1", "has board 1", never "boards 1 to 1"; written out,
        # not by duplicate.boards_span, so that tests/tournament/test_venue_spanish.py reads each sentence)
        raise PairingError(f"round {round_no} plays "
                           f"{f'board {need[0]}' if need[0] == need[-1] else f'boards {need[0]} to {need[-1]}'}"
                           "; the event has "
                           + (("board 1" if max(have) == 1 else f"boards 1 to {max(have)}") if have else "none")
                           + f" (deal them before round 1: tournament boards EVENT --boards {need[-1]} or more)")


def missing(store: EventStore, round_no: int) -> list[tuple[int, int]]:
    """The (table, board) pairs of a round with no result yet (a board marked not played at either
    table of its match has none to come at either: :func:`tournament.store.boards.not_scored`)."""
    done = sql.settled(store)
    return [(t.number, b) for t in store.tables(round_no) for b in round_boards(store, round_no)
            if (t.id, b) not in done]


def check_finished(store: EventStore, round_no: int) -> None:
    """Refuse the next round while a board of round ``round_no`` has no result at a table."""
    dup.refuse_unfinished(round_no, missing(store, round_no))


#: The table a board result is for, at a table of the round that plays the board, or a one-line
#: refusal (:data:`tournament.event.duplicate.TableFinder`; kept there, where a board's mark "not
#: played" and its taking back find their table too).
find_table = dup.team_table


# --- results -------------------------------------------------------------------------------------


def enter_score(store: EventStore, round_no: int, table_no: int, board_no: int, scores: dict[str, int],
                replace: bool = False, by: str | None = None, reason: str | None = None) -> dup.BoardEntry:
    """A typed result of a board at a table (the points NS and EW won), checked as a typed score is
    (:func:`tournament.event.duplicate.enter_score`, at a table of the round that plays the board)."""
    check(store, "a board's result")
    return dup.enter_score(store, round_no, table_no, board_no, scores, replace, by, find=find_table, reason=reason)


def enter_record(store: EventStore, record: Record | None, report: Report, round_no: int | None,
                 table_no: int | None, board_no: int | None, replace: bool = False,
                 by: str | None = None, reason: str | None = None,
                 names: res.NameIndex | None = None) -> dup.BoardEntry:
    """A board's result from the record of its hand, as in duplicate pairs
    (:func:`tournament.event.duplicate.enter_record`): one finished hand whose deal is the board's
    (another deal is refused, naming the first tile that differs), at the round, table and board
    given or the record's ``event.round``, ``event.table`` and ``event.board``."""
    check(store, "a board's result")
    return dup.enter_record(store, record, report, round_no, table_no, board_no, replace, by, find=find_table,
                            reason=reason, names=names)


# --- the matches and the standings -----------------------------------------------------------------


@attrs.frozen
class Match:
    """A match of a round: its two tables (the home team's pair N-S at ``first``, E-W at
    ``second``), the two teams, and its score over the boards both tables have played."""

    round: int
    home: int
    away: int
    first: int
    second: int
    score: mp.TeamMatch
    #: The round's boards still lacking a result at one of the tables.
    waiting: tuple[int, ...]
    #: The round's boards not scored in the match: marked not played at one of its tables (or both).
    #: The match is scored as if they did not exist (a result at the other table is kept, not counted).
    not_scored: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return not self.waiting


def matches(store: EventStore, round_no: int | None = None, shown: set[int] | None = None) -> list[Match]:
    """Every match (of one round, or all), scored afresh from the stored board results.  ``shown``
    (the hall's pages and the public feed: :func:`complete_boards`): the boards whose results may
    be read; any other is waiting, at both tables, whatever is in there (its points, or the IMPs
    and running totals that count them, would tell the tables still playing it what it holds)."""
    s = store.settings
    squad_of = pairing.squad_of_players(squads_sql.squads(store), store.teams())
    results = {(r["table_id"], r["board"]): (r["ns_points"], r["ew_points"]) for r in sql.results(store)}
    marked = {(r["table_id"], r["board"]) for r in sql.not_played(store)}
    step = mp.IMP_STEP[s.game]
    found: dict[tuple[int, int, int], list[Table]] = {}
    for t in sorted(store.tables(round_no), key=lambda t: (t.round, t.number)):
        sides = pairing.table_sides(t, squad_of)
        if len(sides) == 2:
            found.setdefault((t.round, *sorted(sides.values())), []).append(t)
    out = []
    for (r, _, _), tables in sorted(found.items(), key=lambda kv: (kv[0][0], kv[1][0].number)):
        home = pairing.table_sides(tables[0], squad_of)["NS"]
        away = pairing.table_sides(tables[0], squad_of)["EW"]
        first = tables[0]
        second = next((t for t in tables[1:] if pairing.table_sides(t, squad_of).get("EW") == home), None)
        if second is None:
            raise Refused(f"round {r}: the match of tables {tables[0].number} has no table where the home team "
                          f"sits E-W; a duplicate-teams match is two tables")
        played, waiting, not_scored = [], [], []
        for b in round_boards(store, r):
            a, c = results.get((first.id, b)), results.get((second.id, b))
            if shown is not None and b not in shown:  # not every table of the round has played it
                waiting.append(b)
            elif (first.id, b) in marked or (second.id, b) in marked:  # not played at a table: not scored
                not_scored.append(b)
            elif a is None or c is None:
                waiting.append(b)
            else:
                played.append(mp.TeamBoard(b, a, c))
        score = mp.team_match(played, step, s.victory_points and bool(played))
        out.append(Match(r, home, away, first.number, second.number, score, tuple(waiting), tuple(not_scored)))
    return out


def standings(store: EventStore, through_round: int | None = None, shown: set[int] | None = None
              ) -> dict[str, Any]:
    """The teams ranked, as ``standings --json`` prints them: ``{"teams": [{"rank", "team", "id",
    "played", "won", "drawn", "lost", "byes", "match_points", "victory_points", "imps_for",
    "imps_against", "imps"}...], "ranked_by", "provisional", "members": {"id": [names]}}``, ``members``
    keyed by the team's ``id`` (as text): the players who sat for it at a table of the event, in the
    order they first did (a league by player credits each with the team's matches and place:
    :mod:`tournament.event.league`).  A match counts the boards both its
    tables have played (the standings are provisional while one is missing); it is won by the team
    with more IMPs.  Ranked by victory points (``--victory-points``) or match points, then the IMP
    difference, then the IMPs won; a team's bye is a match won (2 match points, 12 VPs, no IMPs).
    ``through_round``: the standings after that round (what the next round was paired on);
    ``shown``: counting only those boards (:func:`matches`; the hall's and the public feed's)."""
    check(store, "duplicate-teams standings")
    found = squads_sql.squads(store)
    acc: dict[int, dict[str, float]] = {s.id: {k: 0 for k in ("played", "won", "drawn", "lost", "byes",
                                                               "match_points", "victory_points", "imps_for",
                                                               "imps_against")} for s in found}
    provisional = False
    for m in matches(store, shown=shown):
        if through_round is not None and m.round > through_round:
            continue
        provisional = provisional or not m.finished
        if not m.score.boards:  # no board in at both tables yet: not a match played
            continue
        sc = m.score
        for team, got, lost, vp in ((m.home, sc.home_imps, sc.away_imps, sc.home_vp),
                                    (m.away, sc.away_imps, sc.home_imps, sc.away_vp)):
            a = acc[team]
            a["played"] += 1
            a["imps_for"] += got
            a["imps_against"] += lost
            points = 2 if got > lost else 1 if got == lost else 0
            a["match_points"] += points
            a[{2: "won", 1: "drawn", 0: "lost"}[points]] += 1
            # Summed in hundredths, exactly: float sums of two-decimal VPs drift apart (2.69 + 14.39 is
            # not 6.22 + 10.86 in floats), and the IMP difference would never break the tie.
            a["victory_points"] += _hundredths(vp if vp is not None else (10.0 if store.settings.victory_points else 0))
    squad_of = pairing.squad_of_players(found, store.teams())
    for round_no, given in store.byes().items():
        if through_round is not None and round_no > through_round:
            continue
        for team in dict.fromkeys(squad_of[p] for p in given if p in squad_of):
            acc[team]["byes"] += 1
            acc[team]["match_points"] += BYE_MATCH_POINTS
            acc[team]["victory_points"] += _hundredths(BYE_VICTORY_POINTS)
    by = "victory-points" if store.settings.victory_points else "match-points"
    key = "victory_points" if store.settings.victory_points else "match_points"
    names = {s.id: s for s in found}
    order = sorted(acc, key=lambda u: (-acc[u][key], -(acc[u]["imps_for"] - acc[u]["imps_against"]),
                                       -acc[u]["imps_for"], names[u].name))
    rows: list[dict[str, Any]] = []
    previous = None
    for place, u in enumerate(order, 1):
        a = acc[u]
        here = (a[key], a["imps_for"] - a["imps_against"], a["imps_for"])
        rows.append({"rank": rows[-1]["rank"] if here == previous else place, "team": names[u].name, "id": u,
                     "played": int(a["played"]), "won": int(a["won"]), "drawn": int(a["drawn"]),
                     "lost": int(a["lost"]), "byes": int(a["byes"]), "match_points": int(a["match_points"]),
                     "victory_points": a["victory_points"] / 100 if store.settings.victory_points else None,
                     "imps_for": int(a["imps_for"]), "imps_against": int(a["imps_against"]),
                     "imps": int(a["imps_for"] - a["imps_against"]),
                     "status": "active" if names[u].active_in(store.last_round() + 1) else "withdrawn"})
        previous = here
    players = {p.id: p.name for p in store.players()}
    members: dict[int, dict[int, None]] = {u: {} for u in acc}
    for table in store.tables():
        for seat in table.seats:
            if squad_of.get(seat.player) in members:
                members[squad_of[seat.player]].setdefault(seat.player)
    return {"teams": rows, "ranked_by": by, "provisional": provisional,
            "members": {str(u): [players[p] for p in members[u] if p in players] for u in order}}


def _hundredths(vp: float) -> int:
    """Victory points (two decimals) as a whole number of hundredths, which add up exactly."""
    return round(vp * 100)


def ranking(store: EventStore) -> list[int]:
    """The teams best first, for the next Swiss round."""
    return [r["id"] for r in standings(store)["teams"]]


def kept_rows(doc: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    """The rows a round paired on ``doc`` (:func:`standings`) keeps: each team, its rank and the
    values it was ranked by."""
    key = "victory_points" if doc["ranked_by"] == "victory-points" else "match_points"
    return [(r["id"], r["rank"], {key: r[key], "imps": r["imps"], "imps_for": r["imps_for"]}) for r in doc["teams"]]


def match_docs(store: EventStore, round_no: int | None = None, shown: set[int] | None = None
               ) -> list[dict[str, Any]]:
    """Every match (of one round, or all) as ``tournament export`` gives it: its round, tables (the
    home team N-S at the first), teams (``home_id``, ``away_id`` their numbers), each board's
    points at both tables (``first``, ``second``: [NS, EW]), the home team's net and IMPs, the
    IMPs and victory points, the boards waiting, and the boards not scored (``not_scored``: each
    board marked not played at one of the match's tables, ``{"board", "first", "second",
    "not_played"}``, a table's points where it has a result there, kept but not counted, and the
    tables marked).  ``shown``: only those boards' results, any other waiting (:func:`matches`)."""
    names = {s.id: s.name for s in squads_sql.squads(store)}
    results = {(r["table_id"], r["board"]): [r["ns_points"], r["ew_points"]] for r in sql.results(store)}
    marked = {(r["table_id"], r["board"]) for r in sql.not_played(store)}
    ids = {(t.round, t.number): t.id for t in store.tables(round_no)}
    out = []
    for m in matches(store, round_no, shown):
        first, second = ids[(m.round, m.first)], ids[(m.round, m.second)]
        out.append({
            "round": m.round, "tables": [m.first, m.second], "home": names[m.home], "away": names[m.away],
            "home_id": m.home, "away_id": m.away,
            "boards": [{"board": b.board, "first": list(b.first), "second": list(b.second), "net": b.net, "imps": i}
                       for b, i in m.score.boards],
            "home_imps": m.score.home_imps, "away_imps": m.score.away_imps, "home_vp": m.score.home_vp,
            "away_vp": m.score.away_vp, "waiting": list(m.waiting), "finished": m.finished,
            # Marked not played at a table: not scored in the match; a result at the other table is kept, shown.
            "not_scored": [{"board": b, "first": results.get((first, b)), "second": results.get((second, b)),
                            "not_played": [n for n, i in ((m.first, first), (m.second, second)) if (i, b) in marked]}
                           for b in m.not_scored]})
    return out


def director_matches(store: EventStore, round_no: int, lang: str = "en") -> list[dict[str, Any]]:
    """The round's matches as the director's page shows a team event's (:func:`tournament.event.
    teams.match_docs`' shape), scored on the boards: ``home_text`` and ``away_text`` the IMPs
    each team has, ``done`` and ``count`` the boards in at both tables and the boards the match
    scores (the round's, less those not scored: marked not played at a table of the match, listed
    apart in ``not_scored``, a result stored at the other table or not; ``boards_in``: true): a
    board that counts for nothing is not counted in, the victory points, and
    once every board is settled at both tables how the match ended, in ``lang`` (``outcome``:
    :func:`match_outcome`; ``None`` until then; a match whose every board was marked not played
    scored none, and is no match played: the standings leave it out)."""
    from tournament.i18n import translations

    _ = translations(lang).gettext
    return [{"tables": m["tables"], "home": m["home"], "away": m["away"], "home_games": m["home_imps"],
             "away_games": m["away_imps"], "home_text": str(m["home_imps"]), "away_text": str(m["away_imps"]),
             "home_vp": m["home_vp"], "away_vp": m["away_vp"], "done": len(m["boards"]),
             "count": len(m["boards"]) + len(m["waiting"]), "finished": m["finished"],
             "not_scored": [b["board"] for b in m["not_scored"]], "target": None,
             "winner": None, "won_at": None, "boards_in": True,
             "outcome": (match_outcome(m["home"], m["away"], m["home_imps"], m["away_imps"], lang) if m["boards"]
                         else _("no board scored: not a match played"))
             if m["finished"] else None}
            for m in match_docs(store, round_no)]


def match_outcome(home: str, away: str, home_imps: int, away_imps: int, lang: str = "en") -> str:
    """How a finished match ended, in ``lang`` and in the words of the other team formats
    (:func:`tournament.event.teams.match_outcome`) and of the hall's pages (``match_line`` in
    tournament/pages/templates/macros.html.j2): ``Los Primos wins the match``, the team with more
    IMPs, as the standings count a match won; ``match drawn`` on level IMPs."""
    from tournament.i18n import translations

    _ = translations(lang).gettext
    if home_imps == away_imps:
        return _("match drawn")
    return _("%(team)s wins the match") % {"team": home if home_imps > away_imps else away}


def table_boards(store: EventStore, round_no: int | None = None) -> list[tuple[Table, tuple[int, ...]]]:
    """Each table (of one round, or all) with the boards it plays, in order: its round's."""
    return [(t, round_boards(store, t.round)) for t in sorted(store.tables(round_no), key=lambda t: (t.round, t.number))]


def complete_boards(store: EventStore) -> set[int]:
    """The boards every table of their round has played, or is not to play (marked not played, there
    or at its match's other table): their deals may be shown in the hall (every table of round R plays
    round R's boards, and no table of another round plays them)."""
    done = sql.settled(store)  # a result, or not played there (nor at its match's other table)
    out: set[int] = set()
    for r in range(1, store.last_round() + 1):
        tables = store.tables(r)
        out.update(b for b in round_boards(store, r) if tables and all((t.id, b) in done for t in tables))
    return out


def travellers(store: EventStore, matches_done: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Each board's traveller in duplicate teams: the board, and each match that has played it at
    both its tables (round, tables, home and visiting teams, the points at each table, the home
    team's net and IMPs), from :func:`match_docs` (``matches_done``, when the caller has them)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for m in matches_done if matches_done is not None else match_docs(store):
        for b in m["boards"]:
            out.setdefault(b["board"], []).append({
                "round": m["round"], "tables": m["tables"], "home": m["home"], "away": m["away"],
                "home_id": m["home_id"], "away_id": m["away_id"], "first": b["first"], "second": b["second"],
                "net": b["net"], "imps": b["imps"]})
    return [{"board": b, "matches": rows} for b, rows in sorted(out.items())]


def table_texts(store: EventStore, round_no: int) -> dict[int, str]:
    """Each table of the round (by number) as ``tables`` shows its result: each of the round's boards
    with its points there, ``not played`` (marked so there, or at its match's other table: not scored)
    or ``to play`` (``B1 NS 30 EW 0 · B2 not played``); ``to play`` while none is in.  A duplicate
    table has no game of its own: its results are its boards'.  A board the director closed on the
    table's phone (a result or a mark made over its play, then taken back) has neither, and its
    phone does not play it again: ``B1 to be entered by the director``, as the table's state lists
    it (``to_enter``); before, ``B1 to play``, which sent the director to wait for the phone."""
    from tournament.store.desk import venue_taken_boards

    boards = round_boards(store, round_no)
    done = {(r["table_id"], r["board"]): r for r in sql.results(store)}
    skipped = dup.not_played_boards(store)
    taken = venue_taken_boards(store)
    out = {}
    for t in store.tables(round_no):
        got = [done.get((t.id, b)) for b in boards]
        off = set(skipped.get(t.id, ()))
        owed = taken.get(t.id, set()) - off
        out[t.number] = "to play" if not any(got) and not off and not owed else " · ".join(
            f"B{b} NS {r['ns_points']} EW {r['ew_points']}" if r else f"B{b} not played" if b in off
            else f"B{b} to be entered by the director" if b in owed else f"B{b} to play" for b, r in zip(boards, got))
    return out


def table_docs(store: EventStore, round_no: int) -> list[dict[str, Any]]:
    """Each table of the round (by number) with its boards, as ``tables --json`` gives them: the
    round's boards, which every table plays (``"boards": [3, 4]``), how many have a result there
    (``"results"``, as a duplicate pairs table's), each board's result there (``"board_results"``:
    board, NS and EW points, how the hand ended, verified; as the feed's, never withheld: the
    command line is the director's) and the boards not played there (``"not_played"``: marked so
    there, or at the match's other table where this one has no result; not scored in the match)."""
    boards = list(round_boards(store, round_no))
    done = {(r["table_id"], r["board"]): r for r in sql.results(store)}
    skipped = dup.not_played_boards(store)
    out = []
    for t in sorted(store.tables(round_no), key=lambda t: t.number):
        got = [done[(t.id, b)] for b in boards if (t.id, b) in done]
        out.append({"table": t.number, "boards": boards, "results": len(got),
                    "board_results": [{"board": r["board"], "ns_points": r["ns_points"], "ew_points": r["ew_points"],
                                       "ended": r["ended"], "verified": bool(r["verified"])} for r in got],
                    "not_played": [b for b in boards if b in skipped.get(t.id, ())]})
    return out


def board_cells(store: EventStore, round_no: int) -> dict[int, dict[str, str]]:
    """Each table of the round (by number) as ``tables --csv`` adds it to each of its seats' rows: a
    column a board of the round, ``board_3``, holding the board's points there as ``--score`` takes
    them (``NS=45,EW=0``), ``not played`` (not played there, or at the match's other table where
    this one has no result: :func:`table_docs`' ``not_played``), or nothing while it is to play."""
    out = {}
    for t in table_docs(store, round_no):
        got = {r["board"]: f"NS={r['ns_points']},EW={r['ew_points']}" for r in t["board_results"]}
        out[t["table"]] = {f"board_{b}": got.get(b, "not played" if b in t["not_played"] else "")
                           for b in t["boards"]}
    return out


def match_lines(store: EventStore, round_no: int, lang: str = "en") -> list[str]:
    """A line a match of the round, for ``tables`` and ``standings``, in ``lang``: its tables, its
    boards, the IMPs each team has so far (and the victory points), and how many boards are in:
    ``Tables 1-2, boards 1-2: Los Primos 5 – 2 La Dupla IMPs, VP 12.50–7.50 (Los Primos wins the match)``,
    or ``(match drawn)`` on level IMPs (:func:`match_outcome`), once every board is in at both tables (or
    not scored: marked not played at one; with none scored, ``(no board scored: not a match played)``).
    Until then ``(1 of 2 boards in; board 3 not scored)``: only the boards that count, those in at
    both tables of those the match scores, a board not scored said apart (a result stored for it at
    the other table counts for nothing; counted in, it read as a board scored), as the director's
    page and the hall count them (:func:`director_matches`, ``public.duplicate_team_matches``)."""
    from tournament.i18n import translations

    _ = translations(lang).gettext
    names = {s.id: s.name for s in squads_sql.squads(store)}
    boards = round_boards(store, round_no)
    out = []
    for m in matches(store, round_no):
        sc = m.score
        where = _("Tables %(first)s-%(last)s") % {"first": m.first, "last": m.second}
        which = (_("board %(n)s") % {"n": boards[0]} if boards[0] == boards[-1] else
                 _("boards %(first)s-%(last)s") % {"first": boards[0], "last": boards[-1]})
        score = _("%(home)s %(home_imps)s – %(away_imps)s %(away)s IMPs") % {
            "home": names[m.home], "home_imps": sc.home_imps, "away_imps": sc.away_imps, "away": names[m.away]}
        if sc.home_vp is not None:
            score += ", " + _("VP %(home)s–%(away)s") % {"home": f"{sc.home_vp:.2f}", "away": f"{sc.away_vp:.2f}"}
        state = (match_outcome(names[m.home], names[m.away], sc.home_imps, sc.away_imps, lang) if sc.boards
                 else _("no board scored: not a match played")) if m.finished \
            else _("%(done)s of %(count)s boards in") % {"done": len(boards) - len(m.waiting) - len(m.not_scored),
                                                          "count": len(boards) - len(m.not_scored)} + \
            "".join("; " + _("board %(n)s not scored") % {"n": b} for b in m.not_scored)
        out.append(f"{where}, {which}: {score} ({state})")
    return out


def check_findings(store: EventStore) -> tuple[list[tuple[str, str, str]], int]:
    """What ``tournament check`` finds in duplicate teams' board results, as (level, where,
    message), and how many board records it re-validated: each result of one of its round's
    boards, each record replayed again (:func:`tournament.event.duplicate.recheck_results`)."""
    where = {t.id: (t.round, t.number, round_boards(store, t.round)) for t in store.tables()}
    return dup.recheck_results(store, where)
