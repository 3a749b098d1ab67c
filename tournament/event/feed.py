"""The event as data another program follows: the venue's JSON feed and ``tournament export``.

Pure reads, each returning JSON-ready values, so that what the feed serves
(``GET /api/v1/event``, ``/standings``, ``/rounds/{n}``, ``/games/{round}/{table}``,
``/changes?since=SEQ``; docs/venue.md) and what ``tournament export`` writes are the same data,
made by the same functions.  The web layer only turns them into responses.

Only what the public may see: a game still in play is never shown (its hidden tiles stay
hidden) — a table's game is served once its result is in, as the record that result was entered
with; a table in play shows its status, never its moves.  ``FEED_VERSION`` grows when a field
changes meaning or goes; new fields are added without it.
"""

from __future__ import annotations

import json
from typing import Any

from domrec import notation
from domrec.errors import DomrecError
from domrec.i18n import N_
from domrec.reader import loads

from tournament.errors import TournamentError
from tournament.event import changes, finals, progress, stages
from tournament.event.standings import event_standings
from tournament.settings import ROTATING, TEAM_KEYS, TIEBREAK_KEYS
from tournament.store.event_store import EventStore
from tournament.values import Table

FEED_VERSION = 1


#: The feed's refusals, as patterns (:mod:`domrec.phrases`): the venue's hall and the hub
#: (:mod:`tournament.web.hub`) say them in the client's language (its data stays in English).
REFUSALS = (
    N_("round %(n)s has not been paired (no round has been paired yet)"),
    N_("round %(n)s table %(n2)s is still in play: its game is shown once its result is in"),
    N_("round %(n)s table %(n2)s has no recorded game: its result is a forfeit"),
    N_("round %(n)s table %(n2)s has no recorded game: its result is a score entered by hand"),
    N_("round %(n)s table %(n2)s has no recorded game"),
    # A duplicate table (pairs or teams): its results are its boards', each on the board's traveller.
    N_("round %(n)s table %(n2)s is a duplicate table: it has no game of its own, its results are its boards' "
       "(each on its board's traveller)"),
    # A stored record damaged since it was entered, or one DGN cannot write (game_dgn).
    N_("round %(n)s table %(n2)s: the stored record cannot be read (%(problem)s); the director's `tournament check` "
       "says more"),
    N_("round %(n)s table %(n2)s: this record cannot be written as DGN (%(problem)s); ask for it as JSON"),
    N_("since %(n)s is past this event's last change (%(n2)s): the event file is not the one followed (restored "
       "from a copy, or another event); read the event again and follow from its latest_seq"),
    N_("round must be a whole number, 0 or more (not %(text)s)"),
    N_("table must be a whole number, 0 or more (not %(text)s)"),
    N_("since must be a whole number, 0 or more (not %(text)s)"),
    N_("limit must be a whole number, 1 or more (not %(text)s)"),
)


class FeedError(TournamentError):
    """A feed request refused; ``status`` is the HTTP status a web client gets."""

    status = 422


class FeedNotFound(FeedError):
    """No such round or table, or no game to show there (yet)."""

    status = 404


class BadQuery(FeedError):
    """A query value that cannot be used (``since``, ``limit``)."""

    status = 422


# --- the event -----------------------------------------------------------------------------------


def event(store: EventStore) -> dict[str, Any]:
    """The event: its settings, how far it is, its rounds, its stages (a final, a knockout), and
    the number of its last change (follow on from there with :func:`changes_after`)."""
    s = store.settings
    results = store.results()
    tables = store.tables()
    round_stage = store.round_stage()
    later = stages.load(store)
    by_id = {x.id: x for x in later}
    # A duplicate event: its format and ranking as such (not the pairs event it is stored as), and a
    # round's results its tables whose every board is settled (duplicate.described, tables_done).
    from tournament.event import duplicate

    named = duplicate.described(store)
    done = duplicate.tables_done(store) if named else None
    rounds = []
    for r in store.rounds():
        in_round = [t for t in tables if t.round == r.number]
        rounds.append({"round": r.number, "stage": round_stage.get(r.number, 1),
                       "label": _round_label(s.format, by_id.get(round_stage.get(r.number, 1)), r.number,
                                             s.duplicate),
                       "tables": len(in_round),
                       "results": done.get(r.number, 0) if done is not None else
                       sum(1 for t in in_round if t.id in results)})
    stage_docs = [_stage_doc(store, x) for x in later]
    return {"feed_version": FEED_VERSION, "uuid": store.uuid, "name": s.name, "game": s.game, "variant": s.variant,
            "options": dict(s.options), "format": s.format, "table_size": s.table_size,
            "tiebreaks": list(s.tiebreaks), "time_limit": s.time_limit, "planned_rounds": s.rounds or s.movement_rounds or None,
            "status": progress.status(store), "current_round": progress.current_round(store),
            "rounds_paired": store.last_round(), "players": len(store.players()), "rounds": rounds,
            "stages": stage_docs, "stage": stage_docs[-1] if stage_docs else None,
            "champion": progress.champion(store), "latest_seq": changes.latest_seq(store), **named}


def _stage_doc(store: EventStore, stage: stages.Stage) -> dict[str, Any]:
    final = store.settings.format == ROTATING
    champion = finals.champion(store, stage) if stage.format == stages.FINAL_TABLE or stage.knockout else None
    return {"id": stage.id, "name": stage.name, "format": stage.format, "first_round": stage.offset + 1,
            "final": final, "finished": progress.stage_finished(store, stage), "champion": champion}


def _round_label(format: str, stage: stages.Stage | None, number: int, moved: bool = False) -> str:
    return stages.main_round_label(format, number, moved) if stage is None else stage.round_label(number - stage.offset)


# --- the standings -------------------------------------------------------------------------------


def standings(store: EventStore, withhold: bool = False, shown: set[int] | None = None) -> dict[str, Any]:
    """The event's standings (those of its rounds; a rotating event's final is ranked in its
    stage, not added in), with ``columns``: each column's key, and for the ranking columns their
    place in the ranking and what they count, named as the event names them (``efectividad``); a
    team event's ``teams`` besides, ranked by its ``team_tiebreaks``.  ``withhold`` (the hall's
    pages, the public feed): a duplicate event's counting only the boards every table due to play
    them has played (:func:`complete_boards`), as its travellers and rounds show them; ``shown``:
    those boards, when the caller has them already (the hall's read: :func:`complete_boards` once)."""
    shown = (shown if shown is not None else complete_boards(store)) if withhold else None
    table = event_standings(store)
    doc = table.to_dict()
    keys = table.columns() if table.rows else ["rank", "id", "name", *table.tiebreaks]
    doc["columns"] = [{"key": k, "ranks": k in table.tiebreaks,
                       "order": table.tiebreaks.index(k) + 1 if k in table.tiebreaks else None,
                       "about": TIEBREAK_KEYS.get(k)} for k in keys]
    # The lists `standings --json` prints besides (the same rows: the feed and the command line
    # say the same): ``teams`` in a team event, ``pairs`` in a pairs or team event, ``players``.
    from tournament.event.teams import standings_json, team_standings

    doc.update(standings_json(store, ranked=table))
    if store.settings.duplicate:  # the pairs by matchpoints and IMPs, as `standings --json` gives them
        from tournament.event import duplicate

        doc.update(duplicate.standings(store, shown))
    if store.settings.team_duplicate:  # the teams by IMPs and VPs, as `standings --json` gives them
        from tournament.event import duplicate_teams

        dt = duplicate_teams.standings(store, shown=shown)
        doc.update(teams=dt["teams"], team_ranked_by=dt["ranked_by"], team_provisional=dt["provisional"],
                   team_tiebreaks=[dt["ranked_by"], "imps", "imps-for"])
    elif store.settings.teams:
        doc["team_tiebreaks"] = list(team_standings(store).tiebreaks)
    return doc


def published_standings(store: EventStore) -> dict[str, Any]:
    """``GET /api/v1/standings`` (and the hub's copy of it): :func:`standings`, led by the teams in a
    team event (:func:`teams_first`, as ``standings --json``), and a duplicate
    event's are what ``standings --json`` prints for it, with ``standings`` its rows (the pairs by
    matchpoints and IMPs; duplicate teams: the teams by victory or match points and IMPs),
    ``columns`` and ``tiebreaks`` naming them: its rounds have no games of their own, so the ranking
    of games (and the players' and pairs' rankings of games beside it) would be all zeros there.
    The hall's own pages read :func:`standings`.  Public: a duplicate event's count only the boards
    every table due to play them has played (``withhold``), and list only the pairs with a board
    scored, as the hall's pages rank them (:func:`tournament.event.duplicate_hall.ranked_pairs`)."""
    s = store.settings
    if not (s.duplicate or s.team_duplicate):
        return teams_first(standings(store, withhold=True))
    shown = complete_boards(store)
    from tournament.event import duplicate, duplicate_teams
    from tournament.event.browsing import DUPLICATE_COLUMNS, DUPLICATE_TEAM_COLUMNS

    if s.duplicate:
        from tournament.event.duplicate_hall import ranked_pairs

        doc = duplicate.standings(store, shown)
        # As the hall's standings: a pair with no board scored yet has no rank, and is not listed
        # (``members`` still names every pair's players).
        rows, keys = ranked_pairs(doc), DUPLICATE_COLUMNS
        doc = {**doc, "pairs": rows}
        ties = ["percent", "imps"] if doc["ranked_by"] == "matchpoints" else ["imps", "percent"]
    else:
        doc = duplicate_teams.standings(store, shown=shown)
        rows, keys = doc["teams"], DUPLICATE_TEAM_COLUMNS
        first = "victory_points" if doc["ranked_by"] == "victory-points" else "match_points"
        ties = [first, "imps", "imps_for"]
        doc = {**doc, "team_ranked_by": doc["ranked_by"], "team_provisional": doc["provisional"],
               "team_tiebreaks": [doc["ranked_by"], "imps", "imps-for"]}
    columns = [{"key": k, "ranks": k in ties, "order": ties.index(k) + 1 if k in ties else None,
                "about": DUPLICATE_ABOUT.get(k)} for k in keys]
    return {**doc, "standings": rows, "columns": columns, "tiebreaks": ties}


#: A team standings' ranking keys (``--team-tiebreak``) and the column of a team's row each is
#: (head-to-head has none: it is the tied teams' matches).
TEAM_KEY_COLUMNS = {"games": "games_won", "efectividad": "efectividad", "match-points": "match_points",
                    "for": "points_for"}


def teams_first(doc: dict[str, Any]) -> dict[str, Any]:
    """A team event's standings document (:func:`standings`) as the feed serves it and ``tournament
    export`` writes it: led by the teams, as ``standings --json`` prints them (``standings`` the
    teams' rows, ``tiebreaks`` and ``ranked_by`` theirs, ``columns`` naming a team's row), the pairs
    under ``pairs`` with what ranks them as ``pair_tiebreaks``, ``pair_ranked_by`` and
    ``pair_columns``.  Any other event's document is returned as it is.  The hall's own pages read
    :func:`standings` (the pairs' table, with ``teams`` beside it), and show the teams first."""
    if "teams" not in doc or "team_tiebreaks" not in doc or doc.get("by") == "team":
        return doc
    keys = list(doc["team_tiebreaks"])
    ranks = {TEAM_KEY_COLUMNS[k]: i + 1 for i, k in enumerate(keys) if k in TEAM_KEY_COLUMNS}
    about = {TEAM_KEY_COLUMNS[k]: TEAM_KEYS[k] for k in keys if k in TEAM_KEY_COLUMNS}
    rows = doc["teams"]
    names = list(rows[0]) if rows else ["rank", "team", "id", *ranks]
    return {**doc, "format": "teams", "by": "team", "standings": rows, "tiebreaks": keys,
            "ranked_by": "ranked by " + ", then ".join(keys),
            "columns": [{"key": k, "ranks": k in ranks, "order": ranks.get(k), "about": about.get(k)}
                        for k in names],
            "pair_tiebreaks": doc["tiebreaks"], "pair_ranked_by": doc.get("ranked_by"),
            "pair_columns": doc["columns"]}


#: What the ranking columns of a duplicate event's standings count (:func:`published_standings`).
DUPLICATE_ABOUT = {
    "percent": "matchpoints as a percentage of the top (ranks the pairs: matchpoints over the boards played)",
    "imps": "IMPs: the net of the boards' IMPs (duplicate teams: IMPs won less IMPs lost)",
    "victory_points": "victory points, from each match's IMP margin",
    "match_points": "match points: 2 a match won, 1 drawn",
    "imps_for": "IMPs won",
}


# --- rounds and tables ---------------------------------------------------------------------------


def rounds(store: EventStore, withhold: bool = False, shown: set[int] | None = None) -> list[dict[str, Any]]:
    """Every round: its label, its tables (seats, result if any, status) and byes.  ``withhold``
    (the hall's pages): a duplicate board's points only once every table that plays it has played it
    (``shown``: those boards, when the caller has them already, as :func:`standings` takes them)."""
    seen = _Seen(store, withhold, shown)
    return [_round(store, r.number, seen) for r in store.rounds()]


def round_(store: EventStore, number: int) -> dict[str, Any]:
    """One round (see :func:`rounds`); :class:`FeedNotFound` for a round not paired."""
    last = store.last_round()
    if not 1 <= number <= last:
        raise FeedNotFound(f"round {number} has not been paired" +
                           (f" (the last round is {last})" if last else " (no round has been paired yet)"))
    return _round(store, number, _Seen(store, withhold=True))  # the public feed


class _Seen:
    """What every round of one answer reads: read once, not once a round."""

    def __init__(self, store: EventStore, withhold: bool = False, shown: set[int] | None = None) -> None:
        self.names = {p.id: p.name for p in store.players()}
        self.results = store.results()
        self.round_stage = store.round_stage()
        self.stages = {x.id: x for x in stages.load(store)}
        self.match_of: dict[int, tuple[str, int]] = {}
        for x in self.stages.values():
            for row in store.match_tables(x.id):
                self.match_of[row["table_id"]] = (row["key"], row["game"])
        self.byes = store.byes()
        self.complete = (shown if shown is not None else complete_boards(store)) if withhold else None
        self.sit_outs: dict[int, Any] = {}
        if store.settings.duplicate:
            from tournament.event.duplicate import sit_outs

            self.sit_outs = sit_outs(store)


def complete_boards(store: EventStore) -> set[int] | None:
    """A duplicate event's boards every table that plays them has played (None in any other event).
    A board's result at one table is about its deal: until the last table has played the board, the
    feed (public) says only that a table has played it, never its points or how the hand ended.
    Read every result of the event (some 50 ms for 250 tables): the hall's read of the whole event
    (:func:`tournament.event.public.public_data`) makes it once, and hands it to the parts that
    withhold (:func:`rounds`, :func:`standings`), not once a part."""
    if store.settings.duplicate:
        from tournament.event.duplicate_hall import complete_boards as complete_pair_boards

        return complete_pair_boards(store)
    if store.settings.team_duplicate:
        from tournament.event.duplicate_teams import complete_boards as complete_team_boards

        return complete_team_boards(store)
    return None


def _board_result(board: int, r: dict[str, Any], complete: set[int] | None) -> dict[str, Any]:
    """A table's result on a board as the feed gives it: its points once the board is complete,
    else only that it is in (``"withheld": true``)."""
    if complete is not None and board not in complete:
        return {"board": board, "withheld": True}
    return {"board": board, "ns_points": r["ns_points"], "ew_points": r["ew_points"], "ended": r["ended"],
            "verified": bool(r["verified"])}


def _round(store: EventStore, number: int, seen: _Seen) -> dict[str, Any]:
    stage_id = seen.round_stage.get(number, 1)
    statuses = changes.table_statuses(store, number)
    tables = [_table_doc(t, seen.results.get(t.id), seen.match_of.get(t.id), statuses, seen.names)
              for t in store.tables(number)]
    if store.settings.duplicate:
        _add_boards(store, number, tables, seen.complete)
    elif store.settings.team_duplicate:
        _add_team_boards(store, number, tables, seen.complete)
    doc = {"round": number, "stage": stage_id,
           "label": _round_label(store.settings.format, seen.stages.get(stage_id), number,
                                  store.settings.duplicate), "tables": tables,
           "byes": [{"id": p, "name": seen.names[p]} for p in seen.byes.get(number, [])]}
    out = seen.sit_outs.get(number)
    if out is not None:  # an odd number of duplicate pairs: who sits this round out (no table, no score)
        members = next((t.players for t in store.teams() if t.id == out.pair_id), ())
        doc["sits_out"] = {"pair": out.pair, "name": out.name, "table": out.table,
                           "players": [{"id": p, "name": seen.names.get(p, "")} for p in members]}
    return doc


def _add_boards(store: EventStore, number: int, tables: list[dict[str, Any]], complete: set[int] | None) -> None:
    """A duplicate round's tables: each table's boards in the order it plays them (``"boards": [3,
    4]``), its movement pairs (``"pairs": {"NS": 1, "EW": 8}``) and each board's result there
    (``"board_results"``: board, NS and EW points, how the hand ended, verified; only ``"withheld":
    true`` until every table that plays the board has played it: :func:`_board_result`), and the
    boards marked not played there (``"not_played": [4]``)."""
    from tournament.event import duplicate

    done: dict[tuple[int, int], dict[str, Any]] = {(r["table_id"], r["board"]): r for r in
                                                   duplicate.sql.results(store)}
    seated = {t.table: t for t in duplicate.table_boards(store, number)}
    skipped = duplicate.not_played_boards(store)
    for doc in tables:
        t = seated.get(doc["table"])
        if t is None:
            continue
        doc["boards"] = list(t.boards)
        doc["pairs"] = {"NS": t.ns, "EW": t.ew}
        doc["board_results"] = [_board_result(b, r, complete)
                                for b in t.boards if (r := done.get((t.table_id, b))) is not None]
        # The boards marked not played there (no result, none to come: duplicate.missing's rule).
        doc["not_played"] = [b for b in t.boards if b in skipped.get(t.table_id, ()) and
                             (t.table_id, b) not in done]
        if table_played(doc):  # its last board in: over, as a table with its game's result is
            doc["status"] = changes.CONFIRMED


def table_played(doc: dict[str, Any]) -> bool:
    """Whether a table of the feed has played its round: its game's result is in or, at a duplicate
    table (which has no result of its own), every board it plays has its result or is marked not
    played there (``"not_played"``: as :func:`tournament.event.duplicate.missing` counts it)."""
    if doc["result"] is not None:
        return True
    boards = doc.get("boards")
    over = {b["board"] for b in doc.get("board_results") or ()} | set(doc.get("not_played") or ())
    return bool(boards) and set(boards) <= over


def _add_team_boards(store: EventStore, number: int, tables: list[dict[str, Any]],
                     complete: set[int] | None) -> None:
    """A duplicate-teams round's tables: the round's boards, which every table plays (``"boards":
    [3, 4]``), each board's result there (``"board_results"``, as a duplicate pairs table's) and the
    boards not played there (``"not_played"``: marked so there or at the match's other table, so not
    scored in the match, and nothing to come at either table)."""
    from tournament.event import duplicate_teams

    done: dict[tuple[int, int], dict[str, Any]] = {(r["table_id"], r["board"]): r for r in
                                                   duplicate_teams.sql.results(store)}
    ids = {t.number: t.id for t in store.tables(number)}
    boards = list(duplicate_teams.round_boards(store, number))
    skipped = duplicate_teams.dup.not_played_boards(store)
    for doc in tables:
        table_id = ids.get(doc["table"])
        doc["boards"] = boards
        doc["board_results"] = [_board_result(b, r, complete)
                                for b in boards if (r := done.get((table_id, b))) is not None]
        # Not played there (marked so, there or at the match's other table): not scored, none to come.
        doc["not_played"] = [b for b in boards if b in skipped.get(table_id, ())]
        if table_played(doc):  # its last board in: over, as a table with its game's result is
            doc["status"] = changes.CONFIRMED


def status_of(has_result: bool, logged: str | None) -> str:
    """A table's status: ``confirmed`` with its result, else the last one its ``table_status``
    changes gave it (``logged``), else not started."""
    if has_result:
        return changes.CONFIRMED
    if logged is None or logged == changes.CONFIRMED:  # a result since taken away: the table plays again
        return changes.NOT_STARTED
    return logged


def _table_doc(t: Table, res: Any, match: tuple[str, int] | None, statuses: dict[tuple[int, int], str],
               names: dict[int, str]) -> dict[str, Any]:
    status = status_of(res is not None, statuses.get((t.round, t.number)))
    return {"table": t.number, "match": match[0] if match else None, "game": match[1] if match else None,
            "seats": changes.seats_doc(t.seats, names),
            "result": None if res is None else changes.result_doc(res.kind, res.verified, res.scores, res.winner,
                                                                  res.note),
            "status": status}


# --- a game --------------------------------------------------------------------------------------


def duplicate_table(round_no: int, table_no: int) -> str:
    """Why a duplicate table has no game to show (the feed's and the hall's words)."""
    return (f"round {round_no} table {table_no} is a duplicate table: it has no game of its own, its results are "
            f"its boards' (each on its board's traveller)")


def _result_of(store: EventStore, round_no: int, table_no: int) -> Any:
    """The table's result with a record to show, or :class:`FeedNotFound` saying why there is none."""
    table = store.table(round_no, table_no)
    if table is None:
        last = store.last_round()
        if not 1 <= round_no <= last:
            raise FeedNotFound(f"round {round_no} has not been paired")
        raise FeedNotFound(f"round {round_no} has no table {table_no}")
    if store.settings.duplicate or store.settings.team_duplicate:  # (not "still in play" once its boards are in)
        raise FeedNotFound(duplicate_table(round_no, table_no))
    result = store.result_for(table.id)
    if result is None:
        raise FeedNotFound(f"round {round_no} table {table_no} is still in play: its game is shown once its "
                           f"result is in")
    if result.kind != "record":
        how = "a forfeit" if result.kind == "forfeit" else "a score entered by hand"
        raise FeedNotFound(f"round {round_no} table {table_no} has no recorded game: its result is {how}")
    return result


def game_text(store: EventStore, round_no: int, table_no: int) -> tuple[str, str]:
    """A finished table's game as stored with its result (the record domrec validated, JSON
    text), and the record's hash (the same game, the same hash: a cache's validator)."""
    result = _result_of(store, round_no, table_no)
    text = store.record_text(result.id)
    if text is None:
        raise FeedNotFound(f"round {round_no} table {table_no} has no recorded game")
    return text, result.record_hash or ""


def game(store: EventStore, round_no: int, table_no: int) -> dict[str, Any]:
    """A finished table's record as JSON values (see :func:`game_text`)."""
    return json.loads(game_text(store, round_no, table_no)[0])


def game_dgn(store: EventStore, round_no: int, table_no: int) -> str:
    """A finished table's record as canonical DGN (``domrec.notation.dumps``)."""
    text, _ = game_text(store, round_no, table_no)
    try:
        record = loads(text)
    except DomrecError as e:  # a stored record damaged since: `tournament check` reports it
        raise FeedError(f"round {round_no} table {table_no}: the stored record cannot be read ({e}); the "
                        f"director's `tournament check` says more") from None
    try:
        return notation.dumps(record)
    except DomrecError as e:  # a seat label DGN cannot write: the JSON form has it all
        raise FeedError(f"round {round_no} table {table_no}: this record cannot be written as DGN ({e}); ask "
                        f"for it as JSON") from None


# --- the change log ------------------------------------------------------------------------------


def whole_number(text: Any, what: str, default: int, least: int = 0) -> int:
    """A query value as a whole number ``least`` (0 or 1) or more (``None``: ``default``), or one
    line saying why not: the same line for ``-1`` and for ``0`` where 1 is the least."""
    if text is None:
        return default
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= 18:
        value = int(text)
    else:
        shown = str(text)[:20] + ("…" if len(str(text)) > 20 else "")
        raise BadQuery(f"{what} must be a whole number, {least} or more (not {shown!r})")
    if value < least:
        raise BadQuery(f"{what} must be a whole number, {least} or more (not {value})")
    return value


def changes_after(store: EventStore, since: Any = None, limit: Any = None) -> dict[str, Any]:
    """The changes numbered above ``since`` (default 0: from the first), at most ``limit``
    (default and most :data:`~tournament.event.changes.MAX_LIMIT`; more is capped), with
    ``next``: the ``since`` to ask next (the last change given, or ``since`` again when there was
    none) and ``latest``.  A ``since`` past the last change is refused: the follower is reading
    another file than it followed (restored from a copy, or another event; ``uuid`` says which)."""
    after = whole_number(since, "since", 0)
    most = min(whole_number(limit, "limit", changes.MAX_LIMIT, least=1), changes.MAX_LIMIT)
    latest = changes.latest_seq(store)
    if after > latest:
        raise BadQuery(f"since {after} is past this event's last change ({latest}): the event file is not the "
                       f"one followed (restored from a copy, or another event); read the event again and follow "
                       f"from its latest_seq")
    found = changes.changes_since(store, after, most)
    return {"feed_version": FEED_VERSION, "uuid": store.uuid, "since": after, "limit": most, "latest": latest,
            "next": found[-1]["seq"] if found else after, "changes": found}


def all_changes(store: EventStore) -> list[dict[str, Any]]:
    """The whole log, oldest first (the export), read a page at a time."""
    out: list[dict[str, Any]] = []
    while True:
        page = changes.changes_since(store, out[-1]["seq"] if out else 0)
        out.extend(page)
        if len(page) < changes.MAX_LIMIT:
            return out
