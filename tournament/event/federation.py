"""The federation report of an event (``tournament export --format federation``), and its games
as the ratings read them (``tournament ratings --from``).

The text format is :mod:`tournament.event.federation_file`'s; here is what an event puts into it
and what a ratings file takes from it (docs/federation.md):

* every player, with their federation id (``tournament add --id``, the CSV's ``id`` column), and
  their ``club`` and ``rating`` when the players CSV had them; every round's label; every bye;
* every table of every round as a game, with its seats (so partners and opponents), its sides'
  scores, the winner, how the result came to be (``kind``: a ``record`` checked by domrec, replayed,
  or scores only where hands were typed by their scores alone: the format does not tell the two
  apart; a ``manual`` typed score, a ``forfeit``, ``boards`` for a duplicate table, ``none`` for a
  table still without a result) and how the game ended (``ending``): for a record, ``time`` when the
  clock stopped it, else how its last hand ended (``out``, ``blocked``, ``target``, …: see
  :func:`game_ending`); a forfeit's
  is ``forfeit``; a typed score's is unknown (empty);
* a duplicate table has no result of its own (its pairs are ranked board by board against the
  others who held the same tiles): its game line has no scores, and each board it played is a
  ``005`` line (how the hand ended, NS's and EW's points).

The ratings take from a report exactly what ``ratings --add`` takes from the event file
(:func:`tournament.event.ratings.report_games`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from domrec import output as outputs

from tournament.event import federation_file as ff
from tournament.store.event_store import EventStore
from tournament.values import Result, Table


def _ours(path: Path) -> bool:
    """A file ``export --format federation`` wrote: it starts with the format's header."""
    try:
        with path.open("rb") as f:
            return f.read(len(ff.HEADER) + 1).startswith(f"000\t{ff.FORMAT}\t".encode())
    except OSError:
        return False


#: ``tournament export --format federation``'s file: an earlier one is replaced without --force.
FEDERATION = outputs.Kind("a federation report written by tournament export", _ours)


def game_ending(record_text: str) -> str | None:
    """How a recorded game ended: ``time`` when the clock stopped it, else how its last hand
    ended, or None if unknown.  A stored record was valid when it was entered, so the end its last
    hand claims is true (domrec checked it against the replay) and is taken as it is; a record that
    claims none (a typed game: DGN without ``end`` lines) is replayed to find it (a score-sheet
    hand says its end or nothing).  Replaying every record would cost about 2 ms a game."""
    import json

    from domrec.errors import InputError
    from domrec.reader import loads
    from domrec.validate import validate

    try:  # the two fields wanted, read without building the record (most records claim their end)
        doc = json.loads(record_text)
        last = (doc.get("hands") or [None])[-1]
        claimed = (last.get("result") or {}).get("end") if isinstance(last, dict) else None
        if doc.get("ended") == "time":
            return "time"
        if isinstance(claimed, str) and claimed:
            return claimed
    except (ValueError, AttributeError):
        return None
    try:
        record = loads(record_text)
    except InputError:
        return None
    if not record.hands:
        return None

    class Ends:
        def __init__(self) -> None:
            self.ends: dict[int, str] = {}

        def hand_started(self, *args: Any) -> None:
            pass

        def moved(self, *args: Any) -> None:
            pass

        def hand_finished(self, index: int, outcome: Any, match: Any) -> None:
            self.ends[index] = outcome.end

    watch = Ends()
    validate(record, observer=watch)
    return watch.ends.get(len(record.hands) - 1)


def _kind_and_ending(result: Result | None, text: str | None, boards: bool) -> tuple[str, str | None]:
    if result is None:
        return (ff.BOARDS if boards else ff.NONE), None
    if result.kind == "forfeit":
        return ff.FORFEIT, "forfeit"
    if result.kind == "record":
        return ff.RECORD, game_ending(text) if text is not None else None
    return ff.MANUAL, None


def _absent_sides(result: Result | None, seats: dict[str, list[tuple[str, int]]]) -> set[str]:
    """The sides of a forfeit that did not play (a forfeit by player: the sides of those players)."""
    if result is None or result.kind != "forfeit":
        return set()
    out = set(result.absent)
    gone = set(result.absent_players)
    out |= {side for side, players in seats.items() if any(p in gone for _, p in players)}
    return out


def report_of(store: EventStore) -> ff.Report:
    """The event as a federation report (read in one read transaction)."""
    from tournament.event import public
    from tournament.store import desk, fields as fields_sql

    with store.reading():
        data = public.event_data(store)
        fids = desk.federation_ids(store)
        own = fields_sql.fields(store)
        results = store.results()
        tables = {(t.round, t.number): t for t in store.tables()}
        rounds, games, byes, boards = _rounds(store, data, tables, results)
    s = store.settings
    event: list[tuple[str, str]] = [("uuid", store.uuid), ("name", s.name), ("game", s.game),
                                    ("variant", s.variant or "standard"), ("format", s.format_name),
                                    ("table_size", str(s.table_size))]
    event += [("option", f"{k}={v}") for k, v in sorted(s.options.items())]
    if s.teams:
        event.append(("team_size", str(s.team_size)))
    if s.duplicate or s.team_duplicate:
        event.append(("boards_per_round", str(s.boards_per_round)))
    if s.duplicate:
        event += [("movement", s.movement_choice or ""), ("ranking", s.ranking or "")]
        if s.movement_rounds:  # a curtailed session: the rounds it was cut to
            event.append(("movement_rounds", str(s.movement_rounds)))
    if s.time_limit is not None:
        event.append(("time_limit", str(s.time_limit)))
    event += [("forfeit_score", str(s.forfeit_score)), ("tiebreaks", ",".join(s.tiebreaks)),
              ("rounds", str(len(data["rounds"]))), ("finished", "yes" if data["event"]["finished"] else "no"),
              ("exported", data["generated_at"])]
    players = tuple(ff.Player(p["id"], fids.get(p["id"]), p["name"], p.get("team") or p.get("pair"),
                              own.get(p["id"], {}).get("club") or None, p["from_round"], p["withdrawn_from"],
                              own.get(p["id"], {}).get("rating") or None)
                    for p in sorted(data["players"], key=lambda p: p["id"]))
    return ff.Report(tuple(event), players, tuple(rounds), tuple(games), tuple(byes), tuple(boards))


def _rounds(store: EventStore, data: dict[str, Any], tables: dict[tuple[int, int], Table],
            results: dict[int, Result]) -> tuple[list[ff.Round], list[ff.Game], list[ff.Bye], list[ff.Board]]:
    """Every round's line, game lines, byes and duplicate boards.  A record is read from the file
    as its game is reached (a big event's records are not all held at once)."""
    rounds: list[ff.Round] = []
    games: list[ff.Game] = []
    byes: list[ff.Bye] = []
    boards: list[ff.Board] = []
    for r in data["rounds"]:
        rounds.append(ff.Round(r["round"], r["stage"], r["label"]))
        for t in r["tables"]:
            table = tables[(r["round"], t["table"])]
            result = results.get(table.id)
            by_side: dict[str, list[tuple[str, int]]] = {}
            for seat in table.seats:
                by_side.setdefault(seat.side, []).append((seat.seat, seat.player))
            text = store.record_text(result.id) if result is not None and result.kind == "record" else None
            kind, ending = _kind_and_ending(result, text, "boards" in t)
            absent = _absent_sides(result, by_side)
            scores = result.scores if result is not None else {}
            winner = None if result is None else (result.winner if result.winner is not None else ff.DRAW)
            match = f"{t['match']}/{t['game']}" if t.get("match") else None
            games.append(ff.Game(table.id, r["round"], t["table"], match, kind, ending, winner,
                                 tuple(ff.Side(side, scores.get(side), tuple(seats), side in absent)
                                       for side, seats in by_side.items())))
            for b in t.get("board_results") or ():
                if b.get("ns_points") is None:
                    continue
                boards.append(ff.Board(r["round"], t["table"], b["board"], b.get("ended"), b["ns_points"],
                                       b["ew_points"], bool(b.get("verified"))))
        byes += [ff.Bye(r["round"], p) for p in _bye_players(r)]
    return rounds, games, byes, boards


def _bye_players(round_doc: dict[str, Any]) -> Iterator[int]:
    for b in round_doc.get("byes") or ():
        yield b["id"] if isinstance(b, dict) else b


def text_of(store: EventStore) -> str:
    return ff.dumps(report_of(store))
