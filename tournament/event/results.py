"""Entering results: a game record checked by domrec, or a manual score.

A record is trusted for nothing it claims.  It is replayed by domrec
(:func:`domrec.validate_text`); it must be a finished game of the event's game
with the event's variant and rule options; its players must be exactly the
players of one table of the round, in the seats the table gave them (matched
by player id when the record gives ids, otherwise by exact name).  What is
stored is the record's text, its hash, and the scores and winner that domrec
*computed*.

A DGN text (:func:`enter_dgn`, :func:`enter_dgn_game`) goes the same way, game
by game: read and judged by domrec's DGN reader (problems located at their
line and column), then matched and stored like a JSON record — in its JSON
form, which is what ``check`` re-validates.

Entering is idempotent: the same record again (same content, whatever its
layout) is accepted and changes nothing.  A different result for a table that
has one is refused unless ``replace`` is given; the replaced result is kept in
the audit table.

A correction of any earlier round is an *amendment* (:func:`amend_record`,
:func:`amend_manual`): the director names the round and table, the result
there must exist, and the new one (a record of that very table, or a manual
score) replaces it through the same path, with who and why in the audit
trail (:mod:`tournament.event.audit`).  In a knockout, the match the corrected
game decided is re-seated while it has no result (:mod:`tournament.event.stages`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from typing import Any, Iterator, Sequence

import attrs

from domrec import games, notation
from domrec.convert import text_of
from domrec.errors import InputError, shown
from domrec.games.base import effective_options
from domrec.notation import DgnGame
from domrec.reader import loads
from domrec.record import Hand, Record, converter, unstructure
from domrec.validate import Report, unusable, validate, validate_text

from tournament.errors import (LevelAtTop, NoSuchSide, ResultRefused, ScoreSides, TournamentError, UnknownPlayer,
                               UnusableInput, WinnerContradicts)
from tournament.event import changes, progress
from tournament.names import name_key, normalise_name
from tournament.settings import INDIVIDUAL, ROTATING, Settings
from tournament.store import entries as entries_sql
from tournament.store.event_store import EventStore
from tournament.values import FORFEIT_NOTE, PLAYER_FORFEIT_NOTE, SCORES_ONLY_NOTE, Result, Table, in_order

STORED, UNCHANGED, REPLACED, AMENDED = "stored", "unchanged", "replaced", "amended"


@attrs.frozen
class Entry:
    """What happened to one result."""

    status: str  # stored, unchanged (the same result was already in), replaced, amended
    round: int
    table: int
    scores: dict[str, int]
    winner: str | None
    verified: bool
    report: Report | None = None
    #: Knockout tables whose players changed because this result changed who won a match.
    reseated: tuple[Table, ...] = ()

    #: A forfeit: the sides that did not play.
    absent: tuple[str, ...] = ()
    #: Entered over the game in progress on the table's phone: the trail has its line
    #: (``result_entered_over_play``), which says a forfeit's who did not play and its reason too.
    over_play: bool = False
    #: A record of hand scores only (a score sheet): reported as "scores only", not as verified.
    scores_only: bool = False
    #: The record's names that are a player's former name (``tournament rename`` since the sheet was
    #: printed), as the line says them: ``'Lu' is #12 Lucía's former name``.
    former: tuple[str, ...] = ()

    def summary(self) -> str:
        scores = ", ".join(f"{k} {v}" for k, v in self.scores.items())
        won = f"winner {self.winner}" if self.winner else "a draw"
        how = ("scores only" if self.scores_only else "verified record") if self.verified else \
            "manual entry, unverified"
        if self.report is not None and self.report.on_time:
            # Said at entry so that the desk sees the clock, not the target, decided this table.
            how += ", ended on time: the side ahead wins"
        if self.absent:
            how = f"forfeit: {', '.join(self.absent)} did not play"
        verb = {STORED: "stored", UNCHANGED: "already stored; nothing changed", REPLACED: "replaced",
                AMENDED: "amended (the old result is kept: `tournament history`)"}[self.status]
        moved = "".join(f"; round {t.round} table {t.number} re-seated" for t in self.reseated)
        former = "".join(f"; note: {x}" for x in self.former)
        return f"round {self.round} table {self.table}: {scores}; {won} ({how}) — {verb}{moved}{former}"


def sheet_note(record: Record) -> str | None:
    """:data:`SCORES_ONLY_NOTE` for a record with a hand of its score alone (a score-sheet hand).

    One such hand is enough: its play was not replayed, so the validator's report says *scores
    only* (``not_replayed`` names the hands), and the event must not call the game a verified
    record where the replay page and ``domrec validate`` do not (a hand tapped at the phone, the
    rest typed as score-sheet lines, was stored as verified)."""
    return SCORES_ONLY_NOTE if any(h.score_sheet for h in record.hands) else None


def record_hash(record: Record) -> str:
    """SHA-256 of the record's canonical JSON: the same game, however it is laid out, has one hash.

    The canonical text is ``json.dumps(unstructure(record), sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)``, hashed as it is made, hand by hand: a record of thousands of hands is
    never held a second time as JSON data and text (docs/tournament.md, "Limits")."""
    digest = hashlib.sha256()
    top = unstructure(attrs.evolve(record, hands=()))
    top.pop("hands", None)
    keys = sorted([*top, "hands"])
    digest.update(b"{")
    for k, key in enumerate(keys):
        digest.update(((',' if k else '') + _canonical(key) + ":").encode("utf-8"))
        if key != "hands":
            digest.update(_canonical(top[key]).encode("utf-8"))
            continue
        digest.update(b"[")
        for i, hand in enumerate(record.hands):
            digest.update(((',' if i else '') + _canonical(converter.unstructure(hand, Hand))).encode("utf-8"))
        digest.update(b"]")
    digest.update(b"}")
    return digest.hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_text(text: str | bytes) -> str:
    """A record as the text to store.  A file's bytes are decoded as JSON itself decodes them (the
    encoding domrec read it in: UTF-8 with or without a BOM, UTF-16, UTF-32), so that the stored
    text is the record, without a byte-order mark, and validates again when ``check`` reads it."""
    if isinstance(text, bytes):
        return text.decode(json.detect_encoding(text))
    return text


def check_report(report: Report) -> None:
    """Refuse a record domrec does not accept, with domrec's problems as the reasons."""
    lines = tuple(p.text() for p in report.problems)
    if report.status == "unusable":
        raise UnusableRecord(f"{report.source}: the record cannot be read: "
                             f"{lines[0] if lines else report.status}", lines[1:])
    if report.status != "valid":
        raise ResultRefused(f"{report.source}: the record is invalid ({len(lines)} problem"
                            f"{'s' if len(lines) != 1 else ''}); nothing was stored", lines)
    if not report.finished:
        raise ResultRefused(f"{report.source}: the game is not finished"
                            + (f" ({report.note})" if report.note else "") + "; nothing was stored")


class UnusableRecord(UnusableInput):
    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


def safe_validate(text: str | bytes, source: str) -> Report:
    try:
        return validate_text(text, source)
    except Exception as e:  # an engine bug must not become a traceback at the results desk
        raise UnusableInput(f"{source}: domrec could not check this record because of an internal error "
                            f"({type(e).__name__}: {e}); please report it") from None


def match_table(settings: Settings, record: Record, tables: list[Table], players: dict[int, Any],
                source: str, by_name: dict[str, Any] | None = None) -> Table:
    """The table of the round this record is the game of, or a refusal saying why not."""
    mapped = record_seats(settings, record, players, source, by_name)
    first = next(iter(mapped.values()))
    table = next((t for t in tables if first in t.players), None)
    if table is None:
        raise ResultRefused(f"{source}: {players[first].name} has no table in round "
                            f"{tables[0].round if tables else '?'}")
    return _check_table(record, table, mapped, players, source)


def record_seats(settings: Settings, record: Record, players: dict[int, Any], source: str,
                 by_name: dict[str, Any] | None = None) -> dict[str, int]:
    """The record's seats -> player numbers, after checking its game, variant and rule options.

    ``players`` holds at least the players the record names (:func:`record_players`);
    ``by_name`` is their index by :func:`name_key`, made once by a caller that matches many
    records (``check``), so that names are not normalised again for every record."""
    if record.game != settings.game:
        raise ResultRefused(f"{source} is a {record.game} game; this event plays {settings.game}")
    engine = games.engine(settings.game)
    if record.variant != (settings.variant or "standard"):
        raise ResultRefused(f"{source} is played under variant {record.variant}; this event plays "
                            f"{settings.variant or 'standard'}")
    got = effective_options(engine, record.variant, record.options)
    want = settings.resolved_options()
    if got != want:
        diff = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
        listed = ", ".join(f"{k}={got.get(k)!r} (event: {want.get(k)!r})" for k in diff)
        raise ResultRefused(f"{source} is played with other rule options than this event: {listed}")
    if by_name is None:
        by_name = {name_key(p.name): p for p in players.values()}
    mapped: dict[str, int] = {}
    for i, rp in enumerate(record.players):
        if rp.id is not None:
            text = rp.id.strip().lstrip("#")
            pid = int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None
            if pid not in players:
                raise ResultRefused(f"{source}: player {i + 1} ({shown(rp.name)}) has id {shown(rp.id)!r}, which "
                                    f"is no player's number in this event")
        else:
            p = by_name.get(name_key(rp.name))
            if p is None:
                raise ResultRefused(f"{source}: {shown(rp.name)!r} (seat {shown(rp.seat)}) is not a player of "
                                    f"this event (names must match, or give the player's id)")
            pid = p.id
        if pid in mapped.values():
            raise ResultRefused(f"{source}: {players[pid].name} sits at two seats")
        mapped[rp.seat] = pid
    return mapped


@attrs.frozen
class NameIndex:
    """Every player's number by :func:`name_key` of their name, and the former names no player has
    now (:func:`former_keys`): made once (:func:`name_index`) by a caller that enters many records
    while nobody is added or renamed (``tournament simulate``), so that a record naming nobody
    (a board's record names its seats) does not cost a pass over every name of the event for each
    result entered: that made a simulation grow with the square of its players."""

    now: dict[str, int]
    former: dict[str, int]


def name_index(store: EventStore) -> NameIndex:
    """The event's :class:`NameIndex` as its players are named now."""
    now = {name_key(p.name): p.id for p in store.players()}
    return NameIndex(now, {name_key(old): pid for pid, olds in former_names(store).items() for old in olds
                           if name_key(old) not in now})


def record_players(store: EventStore, record: Record, index: NameIndex | None = None) -> dict[int, Any]:
    """The players a record names, by id or by name, read by the store's indexes: entering a
    result reads the rows of its few players, whatever the size of the event.  A name is looked
    up as typed and as :func:`name_key` gives it (how names are stored); only a name found
    neither way (spaced or marked otherwise than the stored one, or nobody's) costs one pass
    over every name, to match it as people read it or to say it is nobody's, unless ``index``
    (:func:`name_index`, made once by the caller) holds every name already."""
    if index is not None:
        return _indexed_players(store, record, index)
    ids = []
    names = []
    for rp in record.players:
        if rp.id is not None:
            ids.extend(_player_number(rp.id))
        else:
            names.append(rp.name)
    found = store.players_by_id(ids)
    if names:
        wanted = {name_key(n) for n in names}
        named = {name_key(p.name): p for p in store.players_named([*names, *map(normalise_name, names), *wanted])}
        if not wanted <= set(named):
            named = {name_key(p.name): p for p in store.players()}
        found.update({p.id: p for key, p in named.items() if key in wanted})
        if not wanted <= set(named):  # a name the player had before a rename
            was = former_keys(store)
            found.update(store.players_by_id([was[k] for k in wanted - set(named) if k in was]))
    return found


def _player_number(text: str) -> list[int]:
    """A record's player id as the event's player number (``12`` or ``#12``), or none: an id
    that is not one names nobody of the event."""
    text = text.strip().lstrip("#")
    return [int(text)] if text.isascii() and text.isdigit() and len(text) <= 18 else []


def _indexed_players(store: EventStore, record: Record, index: NameIndex) -> dict[int, Any]:
    """:func:`record_players` with every name looked up in ``index``: the rows read are the
    record's own players' (found now, or by a former name), whatever the size of the event."""
    ids = []
    for rp in record.players:
        if rp.id is not None:
            ids.extend(_player_number(rp.id))
        else:
            key = name_key(rp.name)
            pid = index.now.get(key, index.former.get(key))
            if pid is not None:
                ids.append(pid)
    return store.players_by_id(ids)


def former_names(store: EventStore) -> dict[int, list[str]]:
    """Player -> the names they had before each ``tournament rename``, from the desk's trail: a sheet
    printed (or a game recorded) before a rename names the player as they were then."""
    from tournament.store import desk as desk_sql

    out: dict[int, list[str]] = {}
    for row in desk_sql.trail(store):
        if row["action"] == "player_renamed":
            out.setdefault(row["detail"]["player"], []).append(row["detail"]["old"])
    return out


def former_keys(store: EventStore) -> dict[str, int]:
    """A former name (as :func:`name_key` compares names) -> the player who had it, for the names no
    player has now (a name taken since by another player is that player's)."""
    now = {name_key(p.name) for p in store.players()}
    return {name_key(old): pid for pid, olds in former_names(store).items() for old in olds
            if name_key(old) not in now}


def _check_table(record: Record, table: Table, mapped: dict[str, int], players: dict[int, Any],
                 source: str, former: dict[int, list[str]] | None = None) -> Table:
    assigned = {s.seat: s.player for s in table.seats}
    if mapped != assigned:
        want_text = ", ".join(f"{s.seat} {players[s.player].name}" for s in table.seats)
        got_text = ", ".join(f"{seat} {players[pid].name}" for seat, pid in mapped.items())
        raise ResultRefused(f"{source} does not match table {table.number} of round {table.round}: the "
                            f"table seats {want_text}; the record has {got_text}")
    # The ids say who sat where; the names must agree: a record of the right table with other
    # people's names (a sheet filled in for another game) is not this table's game.
    for rp in record.players:
        want = players[mapped[rp.seat]].name
        was = {name_key(n) for n in (former or {}).get(mapped[rp.seat], ())}
        if name_key(rp.name) != name_key(want) and name_key(rp.name) not in was:
            raise ResultRefused(f"{source}: seat {shown(rp.seat)} is player #{mapped[rp.seat]} {shown(want)!r} "
                                f"(by id) at round {table.round} table {table.number}, but the record names "
                                f"{shown(rp.name)!r}; nothing was stored")
    event = record.event or {}
    for key, value in (("round", table.round), ("table", table.number)):
        if key in event and _round_number(event[key]) != value:
            raise ResultRefused(f"{source} says it is {key} {shown(event[key])}, but its players sat at round "
                                f"{table.round} table {table.number}")
    return table


def enter_record(store: EventStore, text: str | bytes, source: str = "<record>", round_no: int | None = None,
                 replace: bool = False, within: bool = False, from_phone: bool = False,
                 line: int | None = None) -> Entry:
    """Validate a record with domrec and store it as the result of its table.

    ``within``: the caller holds the store's write transaction already (the venue enters a
    table's game in the transaction of the confirmation that completes it).  ``from_phone``: the
    record is the game of the table's own phone, confirmed there (any other result for a table
    whose phone has a game in progress needs ``replace``: :func:`refuse_game_on_phone`)."""
    refuse_whole_game(store)
    record, report = judge(text, source, line)
    check_report(report)
    if record is None:  # cannot happen after a valid report; kept for a clear message
        raise UnusableRecord(f"{source}: the record cannot be read")
    return _enter(store, record, report, record_text(text), source, round_no, replace, within, from_phone)


def judge(text: str | bytes, source: str, line: int | None = None) -> tuple[Record | None, Report]:
    """The record and domrec's verdict on it, parsed once: a large record is not held twice
    in memory (docs/tournament.md, "Limits").  ``line``: the text is that line of a JSON Lines
    archive, and a problem at a place in it is said at the archive's line (``games.jsonl:3``
    said ``1:10``)."""
    try:
        try:
            record = loads(text, line)
        except InputError as e:
            return None, unusable(source, e)
        return record, validate(record, source)
    except Exception as e:  # an engine bug must not become a traceback at the results desk
        raise UnusableInput(f"{source}: domrec could not check this record because of an internal error "
                            f"({type(e).__name__}: {e}); please report it") from None


def read_dgn(text: str | bytes, source: str = "<dgn>") -> Iterator[DgnGame]:
    """Every game of a DGN text, each read and judged by domrec on its own (an archive may hold
    the games of several tables).  A reader bug becomes a one-line refusal, not a traceback."""
    found = notation.read_games(text, source)
    while True:
        try:
            game = next(found)
        except StopIteration:
            return
        except Exception as e:
            raise UnusableInput(f"{source}: domrec could not read this DGN text because of an internal error "
                                f"({type(e).__name__}: {e}); please report it") from None
        yield game


def enter_dgn_game(store: EventStore, game: DgnGame, round_no: int | None = None, replace: bool = False) -> Entry:
    """One game read from DGN, entered exactly as a JSON record is: domrec's verdict (problems
    located at their line and column), the event's game and rules, the table's players in their
    seats, idempotence.  The record is stored in its JSON form (what ``check`` re-validates);
    its hash is the hash of that record, so the same game sent as DGN and as JSON is one result."""
    refuse_whole_game(store)
    report = game.report
    check_report(report)
    if game.record is None or not game.complete:  # a valid report always has the whole record
        raise UnusableRecord(f"{report.source}: the record cannot be read whole")
    return _enter(store, game.record, report, text_of([game.record], "json"), report.source, round_no, replace)


def enter_dgn(store: EventStore, text: str | bytes, source: str = "<dgn>", round_no: int | None = None,
              replace: bool = False) -> list[Entry]:
    """Every game of a DGN text, entered one after the other (stops at the first refused)."""
    return [enter_dgn_game(store, game, round_no, replace) for game in read_dgn(text, source)]


def _enter(store: EventStore, record: Record, report: Report, stored_text: str, source: str,
           round_no: int | None, replace: bool, within: bool = False, from_phone: bool = False) -> Entry:
    digest = record_hash(record)
    with contextlib.nullcontext() if within else store.write():
        table = _find_table(store, record, round_no, source, digest)
        scores = {side: int(n) for side, n in (report.scores or {}).items()}
        entry = _store(store, table, "record", True, scores, report.winner, stored_text, digest, replace,
                       source, report, sheet_note(record), over_phone=from_phone, own_game=from_phone)
        return attrs.evolve(entry, former=_former_said(store, record, table))


def _former_said(store: EventStore, record: Record, table: Table) -> tuple[str, ...]:
    """The record's names that are its players' former names, as the entry's note says them."""
    seat_of = {s.seat: s.player for s in table.seats}
    now = store.players_by_id(list(seat_of.values()))
    odd = [(rp.name, now[seat_of[rp.seat]]) for rp in record.players
           if rp.seat in seat_of and seat_of[rp.seat] in now and name_key(rp.name) != name_key(now[seat_of[rp.seat]].name)]
    return tuple(f"{shown(name)!r} is #{p.id} {shown(p.name)}'s former name" for name, p in odd)


def enter_manual(store: EventStore, table_no: int, scores: dict[str, int], round_no: int | None = None,
                 replace: bool = False, winner: str | None = None, note: str | None = None,
                 over_phone: bool = False, reason: str | None = None) -> Entry:
    """A score typed in by the director: stored, and marked unverified.  A table whose phone has a
    game in progress is refused (:func:`refuse_game_on_phone`) unless ``replace`` (the command
    line's ``--replace``) or ``over_phone`` (the director's page, a reason given: its ``note``)
    says to enter it over that game; so entered, the trail says so (``result_entered_over_play``,
    with ``reason``, on the director's page its note).  ``reason``: also the trail's for a result
    ``replace`` replaces."""
    refuse_whole_game(store)
    from tournament.event.audit import clean_text

    reason = clean_text(reason, "the reason")
    with store.write():
        _, table = _round_table(store, round_no, table_no)
        ordered, winner = _manual_scores(table, scores, winner, store.settings)
        return _store(store, table, "manual", False, ordered, winner, None, None, replace,
                      f"table {table_no}", None, note, over_phone=over_phone,
                      reason=reason if reason is not None else note if over_phone else None)


def _round_table(store: EventStore, round_no: int | None, table_no: int) -> tuple[int, Table]:
    """The round (the last one paired unless named) and its table ``table_no``, for a result typed in."""
    last = store.last_round()
    if not last:
        raise UnusableInput("no round has been paired yet")
    rnd = round_no if round_no is not None else last  # (--round 0 is no round, not the last one)
    if not 1 <= rnd <= last:  # as for an amendment: a round that does not exist is a usage mistake (exit 2)
        raise UnusableInput(f"round {rnd} does not exist (the last round is {last}); nothing was stored")
    table = store.table(rnd, table_no)
    if table is None:
        count = len(store.table_numbers(rnd))
        raise UnusableInput(f"round {rnd} has no table {table_no} (it has {count} table{'s' if count != 1 else ''}); "
                            f"nothing was stored")
    return rnd, table


def enter_forfeit(store: EventStore, table_no: int, absent: tuple[str, ...], round_no: int | None = None,
                  replace: bool = False, reason: str | None = None) -> Entry:
    """A table where a side did not play: the sides there score the event's forfeit score, the
    absent ones 0, and the result is stored as a forfeit (kind ``forfeit``), not as a manual score.

    A table whose game was recorded was played, so nobody forfeited it: refused, even with
    ``replace`` (replace the record by another record, or a manual score, instead).  ``reason``
    (why the side did not play) goes into the desk's trail, and into the audit trail with a
    result it replaces.
    """
    refuse_whole_game(store)
    from tournament.event.audit import clean_text

    reason = clean_text(reason, "the reason")
    with store.write():
        rnd, table = _round_table(store, round_no, table_no)
        sides = table.sides()
        unknown = [x for x in absent if x not in sides]
        if unknown or not absent:  # (a slip of the keyboard: exit 2, as a typed score's unknown side)
            raise NoSuchSide(f"{', '.join(unknown) or 'nobody'} is not a side of round {rnd} table {table_no}: "
                             f"--forfeit names the side that did not play ({', '.join(sides)})")
        if len(set(absent)) != len(absent):
            raise UnusableInput(f"--forfeit names {next(x for x in absent if absent.count(x) > 1)} twice; "
                                f"nothing was stored")
        there = [x for x in sides if x not in absent]
        if not there:
            raise ResultRefused(f"a forfeit needs a side that was there to play: every side of round {rnd} table "
                                f"{table_no} is named; nothing was stored")
        existing = store.result_for(table.id)
        if existing is not None and existing.kind == "record":
            raise ResultRefused(f"round {rnd} table {table_no} has a recorded game, so it was played and nobody "
                                f"forfeited it; nothing was stored")
        entry = forfeit_in_write(store, table, absent, existing, replace, reason)
        _trail_forfeit(store, entry, reason)
        return entry


def _trail_forfeit(store: EventStore, entry: Entry, reason: str | None) -> None:
    """Within the write: a forfeit stored with a reason is a line of the desk's trail (who, when,
    why), as a withdrawal is: the forfeit's result alone does not say why nobody came."""
    if reason and entry.status != UNCHANGED and not entry.over_play:
        # (entered over the phone's game: that line says the forfeit, who did not play and why;
        # a second line, ``forfeit_entered``, read as two things the director did)
        from tournament.event.audit import default_author
        from tournament.store import desk as desk_sql

        desk_sql.log(store, "forfeit_entered", entry.round, {"table": entry.table, "absent": list(entry.absent)},
                     store.author or default_author(), reason)


def forfeit_in_write(store: EventStore, table: Table, absent: tuple[str, ...], existing: Any = None,
                     replace: bool = False, reason: str | None = None, by: str | None = None,
                     trail_by: str | None = None) -> Entry:
    """Within a write: ``table``'s result a forfeit by the sides ``absent`` (checked by the caller:
    sides of the table, one at least there), the others scoring the event's forfeit score.
    ``by``: who entered it, as ``history --entered`` says it (the pairing's own forfeit: "the
    pairing", not the login name); ``trail_by``: who replaced ``existing``, in the trail (the
    change of seats' author; default ``by``)."""
    sides = table.sides()
    there = [x for x in sides if x not in absent]
    points = store.settings.forfeit_score
    ordered = {side: (0 if side in absent else points) for side in sides}
    winner = there[0] if len(there) == 1 else None
    ordered_absent = tuple(x for x in sides if x in absent)
    note = FORFEIT_NOTE + ", ".join(ordered_absent)
    return _forfeit_entry(store, table, ordered, winner, note, ordered_absent, existing, replace, table.number,
                          reason, by, trail_by)


def _forfeit_entry(store: EventStore, table: Table, ordered: dict[str, int], winner: str | None, note: str,
                   shown_absent: tuple[str, ...], existing: Any, replace: bool, table_no: int,
                   reason: str | None = None, by: str | None = None, trail_by: str | None = None) -> Entry:
    """A forfeit stored (or found already stored the same: unchanged), with who did not play."""
    if existing is not None and existing.kind == "forfeit" and existing.note == note \
            and existing.scores == ordered:
        return Entry(UNCHANGED, table.round, table.number, ordered, winner, False, absent=shown_absent)
    entry = _store(store, table, "forfeit", False, ordered, winner, None, None, replace,
                   f"table {table_no}", None, note, by=by, reason=reason, trail_by=trail_by, absent=shown_absent)
    return attrs.evolve(entry, absent=shown_absent)


def enter_player_forfeit(store: EventStore, table_no: int, absent: tuple[str, ...], round_no: int | None = None,
                         replace: bool = False, reason: str | None = None) -> Entry:
    """A table where some players did not come, in an individual or rotating-partner event: each
    absent player (by name or number) takes the forfeit loss; each player who came scores as if
    their side had won by the event's forfeit score (a game won, the forfeit score for and 0
    against; at a multi-player table first place's points and the forfeit score), and, as with a
    bye, the table adds no opponents to anybody's tie-breaks (docs/tournament.md, "Forfeits").

    The sides' scores stored are the forfeit score for a side whose players all came, 0 for a
    side with an absent player; the players who did not play are in the result's note, where the
    standings read them.  Refused, like a forfeit by side, on a table whose game was recorded."""
    refuse_whole_game(store)
    if store.settings.format not in (INDIVIDUAL, ROTATING):  # (an option of other events: usage, exit 2)
        raise UnusableInput(f"a forfeit by player is for individual and rotating-partner events; in a "
                            f"{store.settings.format} event name the side that did not play (--forfeit SIDE)")
    if not absent:
        raise UnusableInput("name at least one player who did not play (--absent PLAYER)")
    from tournament.event.audit import clean_text

    reason = clean_text(reason, "the reason")
    with store.write():
        rnd, table = _round_table(store, round_no, table_no)
        here = store.players_by_id(table.players)
        missing: list[int] = []
        for key in absent:
            # The table's own players first (a name or a number), so that a forfeit reads its few rows.
            text = key.strip().removeprefix("#")
            player = next((p for p in here.values() if name_key(p.name) == name_key(key)), None) or (
                here.get(int(text)) if text.isascii() and text.isdigit() and len(text) <= 18 else None)
            if player is None:
                try:
                    other = store.find_player(key)
                except UnknownPlayer as e:  # a name mistyped: unusable input (exit 2), "did you mean"
                    raise UnknownPlayer(f"{e}; nothing was stored") from None
                except TournamentError as e:
                    raise ResultRefused(f"{e}; nothing was stored") from None
                raise ResultRefused(f"{other.name} (#{other.id}) does not sit at round {rnd} table {table_no} "
                                    f"({', '.join(p.name for p in here.values())}); nothing was stored")
            if player.id in missing:
                raise UnusableInput(f"{player.name} (#{player.id}) is named twice (--absent); nothing was stored")
            missing.append(player.id)
        if len(missing) == len(table.players):
            raise ResultRefused(f"a forfeit needs a player who was there to play: every player of round {rnd} "
                                f"table {table_no} is named; nothing was stored")
        existing = store.result_for(table.id)
        if existing is not None and existing.kind == "record":
            raise ResultRefused(f"round {rnd} table {table_no} has a recorded game, so it was played and nobody "
                                f"forfeited it; nothing was stored")
        points = store.settings.forfeit_score
        short = {s.side for s in table.seats if s.player in missing}
        ordered = {side: (0 if side in short else points) for side in table.sides()}
        full = [side for side in table.sides() if side not in short]
        winner = full[0] if len(full) == 1 else None
        seated = [s.player for s in table.seats if s.player in missing]  # in seating order
        note = PLAYER_FORFEIT_NOTE + ", ".join(f"#{p}" for p in seated)
        shown_absent = tuple(here[p].name for p in seated)
        entry = _forfeit_entry(store, table, ordered, winner, note, shown_absent, existing, replace, table_no,
                               reason)
        _trail_forfeit(store, entry, reason)
        return entry


def _set_game_table(store: EventStore, record: Record, round_no: int, player: int, digest: str) -> Table | None:
    """In a team event of sets a player sits at several tables of a round (the games of a line, in
    the same seats): the record's own, the one its ``table`` names; without one, the table this
    very record is stored on already, else the first still waiting for its result, else the first."""
    mine = [t for t in store.tables(round_no) if player in t.players]
    said = _round_number((record.event or {}).get("table"))
    named = next((t for t in mine if t.number == said), None) if said is not None else None
    if named is not None:
        return named
    results = store.results()
    twin = store.result_with_hash(digest)
    mine.sort(key=lambda t: (0 if twin is not None and twin.table == t.id else 1 if t.id not in results else 2,
                             t.number))
    return mine[0] if mine else None


def _find_table(store: EventStore, record: Record, round_no: int | None, source: str, digest: str) -> Table:
    """The record's table.  In the Swiss rounds: the table of its round with its first player.  In a
    knockout or round-robin stage, where the same sides sit at several tables (the games of a match,
    the legs of a double round robin), the table whose seats are exactly the record's: the one this
    very record is already stored on, else one still waiting for its result, else any (a conflict)."""
    from tournament.event import stages

    refuse_other_round(record, round_no, source)
    given = round_no is not None  # --round: a round that does not exist is a usage mistake (exit 2)
    said = (record.event or {}).get("round")
    if round_no is None and said is not None and _round_number(said) is not None:
        round_no = _round_number(said)
    stage = stages.current(store)
    if stage is None or (round_no is not None and stages.stage_of_round(store, round_no) is None):
        rnd = _round(store, record, round_no, source, given)
        players = record_players(store, record)
        former = former_names(store) if any(name_key(rp.name) not in {name_key(p.name) for p in players.values()}
                                            for rp in record.players) else {}
        by_name = {name_key(p.name): p for p in players.values()}
        for p in players.values():  # a player found by a name they had before a rename
            for old in former.get(p.id, ()):
                by_name.setdefault(name_key(old), p)
        mapped = record_seats(store.settings, record, players, source, by_name)
        first = next(iter(mapped.values()))
        table = (_set_game_table(store, record, rnd, first, digest) if store.settings.team_set else
                 store.table_of_player(rnd, first))
        if table is None:
            raise ResultRefused(f"{source}: {players[first].name} has no table in round {rnd}")
        players.update(store.players_by_id([p for p in table.players if p not in players]))
        return _check_table(record, table, mapped, players, source, former)
    players = {p.id: p for p in store.players()}  # a stage's few tables: every player, for the units
    if round_no is not None:
        last = store.last_round()
        if not 1 <= round_no <= last:
            _no_such_round(source, round_no, last, given)
    rounds = {n for n, s in store.round_stage().items() if s == stage.id}
    candidates = [t for t in store.tables(round_no) if t.round in rounds] if round_no is not None else \
        [t for t in store.tables() if t.round in rounds]
    results = store.results()
    twin = store.result_with_hash(digest)
    candidates.sort(key=lambda t: (0 if twin is not None and twin.table == t.id else 1 if t.id not in results else 2,
                                   t.round, t.number))
    mapped = record_seats(store.settings, record, players, source)
    for t in candidates:
        if {s.seat: s.player for s in t.seats} == mapped:
            return _check_table(record, t, mapped, players, source, former_names(store))
    team_of = {p.id: p.team for p in players.values()}
    units = [team_of[i] if store.settings.format == "pairs" else i for i in mapped.values()]
    reason = stages.not_due_reason(store, dict.fromkeys(u for u in units if u is not None))
    if reason:
        raise ResultRefused(f"{source}: {reason}; nothing was stored")
    raise ResultRefused(f"{source}: no table of the {stage.name} stage seats these players in these seats"
                        + (f" in round {round_no}" if round_no is not None else "") + "; nothing was stored")


def refuse_other_round(record: Record, round_no: int | None, source: str, what: str = "round") -> None:
    """A record whose ``event.round`` (or ``what``: ``table``, ``board``) names another than the one
    given (``--round``) is refused in one line saying so, before its players are looked for: it is
    the game of another round, and its seats would only be compared with the wrong table's."""
    said = (record.event or {}).get(what)
    number = _round_number(said) if said is not None else None
    if round_no is not None and number is not None and number != round_no:
        raise ResultRefused(f"{source} is a record of {what} {number} (its event.{what}), not {what} {round_no}; "
                            f"nothing was stored")


def _round(store: EventStore, record: Record, round_no: int | None, source: str, given: bool = True) -> int:
    """The record's round: ``round_no`` (``given``: from --round, else the record's event.round),
    else the record's event.round, else the last round paired."""
    last = store.last_round()
    if not last:
        raise UnusableInput("no round has been paired yet")
    if round_no is None:
        said = (record.event or {}).get("round")
        if said is not None and _round_number(said) is not None:
            round_no, given = _round_number(said), False
        else:
            round_no = last
    if not 1 <= round_no <= last:
        _no_such_round(source, round_no, last, given)
    return round_no


def _no_such_round(source: str, round_no: int, last: int, given: bool) -> None:
    """Refuse a record for a round not paired, in the words of a typed score's refusal
    (:func:`_round_table`): ``given`` on the command line (--round), a usage mistake (exit 2),
    whether the result is a record or a typed score; named by the record's own event.round, a
    record that is not this event's (exit 1)."""
    if given:
        raise UnusableInput(f"{source}: round {round_no} does not exist (the last round is {last}); "
                            f"nothing was stored")
    raise ResultRefused(f"{source}: round {round_no} (its event.round) does not exist (the last round is "
                        f"{last}); nothing was stored")


#: A whole game's result at a duplicate pairs table, refused (exit 2): its results are its boards', each
#: compared with the other tables' on that board (:mod:`tournament.event.duplicate`).
BOARD_BY_BOARD = ("a duplicate event's results are entered board by board: tournament result EVENT --round R "
                  "--table T --board B --score NS=..,EW=.. (or the hand's record)")


def refuse_whole_game(store: EventStore, amending: tuple[int, int] | None = None) -> None:
    """A duplicate pairs event takes no game's result: before anything else is read or said of it.
    ``amending``: the round and table ``amend`` was to correct, named in the command it points to,
    with ``--replace`` where a board of that table has a result (without it, the command it pointed
    to was refused in turn: the board already has a result)."""
    if not store.settings.duplicate:
        return
    if amending is None:
        raise UnusableInput(BOARD_BY_BOARD)
    from tournament.store import boards as board_sql

    round_no, table_no = amending
    table = store.table(round_no, table_no) if 1 <= round_no <= store.last_round() else None
    has = table is not None and any(r["table_id"] == table.id for r in board_sql.results(store))
    raise UnusableInput("a duplicate event's results are entered board by board: "
                        + (f"correct a board's with tournament result EVENT --round {round_no} --table {table_no} "
                           f"--board B --score NS=..,EW=.. --replace" if has else
                           f"tournament result EVENT --round {round_no} --table {table_no} --board B "
                           f"--score NS=..,EW=..") + " (or the hand's record)")


class GameOnPhone(ResultRefused):
    """A result for a table whose phone has a game in progress (:func:`refuse_game_on_phone`): the
    round and the table (and, at a duplicate table, the board the phone is playing), so that the
    director's page can say what to do in its own words."""

    def __init__(self, round_no: int, table_no: int, board: int | None = None) -> None:
        what = "a game" if board is None else f"board {board}"
        super().__init__(f"round {round_no} table {table_no} has {what} in progress on its table phone: let the "
                         f"table finish it and confirm it there, or give --replace to enter this result over it "
                         f"(its moves stay in the venue's log); nothing was stored")
        self.round, self.table, self.board = round_no, table_no, board


class HasResult(ResultRefused):
    """A result for a table that has one already (a different one), without ``--replace``: the
    command line's words, and the round, the table and the stored result's scores (in seat order,
    ``NS 100, EW 200``), so that the venue's table page can say it in its own words."""

    def __init__(self, message: str, round_no: int, table_no: int, scores: str) -> None:
        super().__init__(message)
        self.round, self.table, self.scores = round_no, table_no, scores


def refuse_game_on_phone(store: EventStore, table: Table, board: int | None = None,
                         boards: Sequence[int] = ()) -> None:
    """Within the write: refuse a first result for ``table`` while its phone has a game in progress
    (:func:`tournament.event.tables.game_on_phone`: its lead drawn is enough, as every view of the
    table calls it started), as ``swap`` and ``move`` refuse to change its
    seats: entered over it, the result would stand in for a game the table is still playing, and
    its phone would be told its game was confirmed when nobody confirmed it.

    ``board``: a duplicate table's first result on that board (``boards``: the table's boards of
    the round, in the order its phone plays them), refused only while the phone's game is on that
    board: a move or a confirmation taken since the phone's last board was confirmed there, and
    ``board`` the first of ``boards`` neither confirmed at the phone nor with a result in the event
    (the board the phone is playing: :func:`tournament.event.table_log.board_index`)."""
    if board is None:
        from tournament.event.tables import game_on_phone

        if game_on_phone(store, table):
            raise GameOnPhone(table.round, table.number)
        return
    if board_on_phone(store, table, boards) == board:
        raise GameOnPhone(table.round, table.number, board)


def board_on_phone(store: EventStore, table: Table, boards: Sequence[int]) -> int | None:
    """Within the write: the board a duplicate table's phone has a game in progress on (a move or a
    confirmation taken since its last board was closed there), else None: the first of ``boards``
    (the table's boards of the round, in the order its phone plays them) neither closed at the
    phone nor with a result (or marked not played) in the event (:func:`tournament.event.table_log.board_index`)."""
    from tournament.store import boards as board_sql, desk as desk_sql

    played, since = desk_sql.venue_board_rows(store, table.id)
    if not since:
        return None
    settled = board_sql.settled(store)  # (a board marked not played there is not in play either)
    board = next((b for b in boards if b not in played and (table.id, b) not in settled), None)
    from tournament.event.tables import hand_left_on_phone

    return board if board is not None and hand_left_on_phone(store, table) else None


def _store(store: EventStore, table: Table, kind: str, verified: bool, scores: dict[str, int],
           winner: str | None, text: str | None, digest: str | None, replace: bool, source: str,
           report: Report | None, note: str | None = None, by: str | None = None,
           reason: str | None = None, over_phone: bool = False, trail_by: str | None = None,
           own_game: bool = False, absent: tuple[str, ...] = ()) -> Entry:
    """``by``: who entered the result (default the event's author, or the login name);
    ``trail_by``: who replaced the result there before, in the trail (default ``by``); ``absent``:
    a forfeit's who did not play, for the trail's line of a forfeit entered over the phone's game
    (one line says both: the forfeit, and the game it cut short).

    A first result entered over the game in progress on the table's phone (``replace``, or
    ``over_phone`` from the director's page; not ``own_game``, the phone's own confirmation of
    that game) takes that game's place: it is a line of the desk's trail
    (``result_entered_over_play``: who, ``reason``, the hand the phone was at and its totals),
    as a result replaced is a line of the results' trail.  Before, nothing in ``tournament
    history`` said a game was cut short, by whom or why (the director's reason was only the
    result's note)."""
    refuse_whole_game(store)  # a whole game's result has nothing to be compared with
    if store.settings.team_duplicate:  # a match is scored on its boards: a whole game's result counts for nothing
        raise ResultRefused(f"{source}: duplicate teams enter a result per board: --round {table.round} --table "
                            f"{table.number} --board B --score NS=..,EW=.. (or the hand's record)")
    existing = store.result_for(table.id)
    entry = Entry(STORED, table.round, table.number, scores, winner, verified, report,
                  scores_only=kind == "record" and note == SCORES_ONLY_NOTE)
    if digest is not None:
        twin = store.result_with_hash(digest)
        if twin is not None and twin.table != table.id:
            raise ResultRefused(f"{source}: this very record is already stored for another table")
    if existing is None and not (replace or over_phone):
        refuse_game_on_phone(store, table)
    over_play = None
    if existing is None and not own_game:
        from tournament.event.tables import game_on_phone_said

        over_play = game_on_phone_said(store, table)
    if existing is not None:
        # The same record stored without its note (a game with hands of scores alone, entered before
        # one such hand made it "scores only") is stored again with it: the same record, told truly.
        same = (existing.record_hash == digest and existing.note == note) if digest is not None else (
            existing.kind == kind and existing.scores == scores and existing.winner == winner
            # A forfeit is who did not play, not its scores alone: a side's forfeit and a player's
            # (their partner came, and wins) can have the same scores and stand for other standings.
            and (kind != "forfeit" or existing.note == note))
        if same:
            return attrs.evolve(entry, status=UNCHANGED)
        old = ", ".join(f"{k} {v}" for k, v in table.in_seat_order(existing.scores))
        if not replace:
            # A record's refusal names its file, as its other refusals do: in a batch of files,
            # each line of the answer starts with the file it is about.
            said = f"{source}: " if kind == "record" else ""
            raise HasResult(f"{said}round {table.round} table {table.number} already has a result ({old}, "
                            f"{_stored_how(store, existing)}); give --replace "
                            f"to replace it (the old one is kept: `tournament history`)", table.round,
                            table.number, old)
        from tournament.event.audit import default_author

        audit_id = store.move_result_to_audit(existing, reason or _replaced_by(kind, source),
                                              trail_by or by or store.author or default_author())
        new_id = store.insert_result(table.id, kind, verified, scores, winner, text, digest, note)
        entries_sql.set_entered_by(store, table.id, by or store.author or default_author())
        store.link_audit(audit_id, new_id)
        changes.record(store, changes.RESULT_AMENDED, table.round, table.number, {
            "old": changes.result_doc(existing.kind, existing.verified, existing.scores, existing.winner,
                                      existing.note),
            "new": changes.result_doc(kind, verified, scores, winner, note)})
        done = attrs.evolve(entry, status=REPLACED, reseated=_advance(store, table))
        progress.note_if_finished(store)
        return done
    store.insert_result(table.id, kind, verified, scores, winner, text, digest, note)
    from tournament.event.audit import default_author

    entries_sql.set_entered_by(store, table.id, by or store.author or default_author())
    if over_play is not None:
        from tournament.store import desk as desk_sql

        desk_sql.log(store, "result_entered_over_play", table.round,
                     {"table": table.number, "over": over_play, "kind": kind,
                      "now": [[side, scores[side]] for side in table.sides() if side in scores],
                      **({"absent": list(absent)} if absent else {})},
                     by or store.author or default_author(), reason)
    changes.record(store, changes.RESULT_ENTERED, table.round, table.number,
                   changes.result_doc(kind, verified, scores, winner, note))
    changes.record(store, changes.TABLE_STATUS, table.round, table.number, {"status": changes.CONFIRMED})
    done = attrs.evolve(entry, reseated=_advance(store, table), over_play=over_play is not None)
    progress.note_if_finished(store)
    return done


def _replaced_by(kind: str, source: str) -> str:
    """The trail's reason for a result replaced without one (``result --replace``): what replaced
    it, ``replaced by r1.json`` (a record: its file), ``replaced by a typed score`` (a manual
    score), ``replaced by a forfeit``; never the table's own number, which reads as if the table
    had done it."""
    if kind == "manual":
        return "replaced by a typed score"
    if kind == "forfeit":
        return "replaced by a forfeit"
    return f"replaced by {source}"


def _stored_how(store: EventStore, existing: Result) -> str:
    """How a stored result was entered, as a refusal to replace it says it: ``verified record``,
    ``scores only`` (a record with hands of their scores alone, score sheets: checked hand by hand
    but their play not recorded, so never called a verified record, as ``result``'s own line says it),
    ``manual``, ``forfeit: EW did not play``, ``forfeit: Ana did not play`` (a forfeit by player)."""
    if existing.kind == "record" and existing.note == SCORES_ONLY_NOTE:
        return SCORES_ONLY_NOTE
    if existing.verified:
        return "verified record"
    if existing.kind != "forfeit":
        return existing.kind
    who: Sequence[str] = existing.absent
    if existing.absent_players:
        names = store.players_by_id(list(existing.absent_players))
        who = [names[p].name if p in names else f"#{p}" for p in existing.absent_players]
    return f"forfeit: {', '.join(who)} did not play" if who else "forfeit"


def _advance(store: EventStore, table: Table) -> tuple[Table, ...]:
    """A knockout moves on as results arrive: seat what the result made due, re-seat the next
    match of a corrected one (same transaction).  Returns the re-seated tables."""
    from tournament.event import stages

    if store.settings.team_set:  # a team event in sets: the match's next games, while it is undecided
        from tournament.event.teams import after_set_result

        after_set_result(store, table)
    if not store.has_stage_tables():
        return ()
    reseated: list[Table] = []
    stages.after_result(store, table, reseated)
    return tuple(reseated)


# --- amendments ------------------------------------------------------------------------------


class NothingToAmend(UnusableInput):
    """An amendment of a result that is not there: no such round, no such table, no result yet."""


class NoResult(NothingToAmend):
    """An amendment (or a clearing) of a table that has no result yet, in the command line's words
    (``enter it with `tournament result```): the round and the table, so that the director's page
    can say it in its own (its form's *Save the result*)."""

    def __init__(self, round_no: int, table_no: int, verb: str) -> None:
        super().__init__(f"round {round_no} table {table_no} has no result to {verb} (enter it with "
                         f"`tournament result`); nothing was changed")
        self.round, self.table = round_no, table_no


class WrongTable(UnusableInput):
    """An amendment whose record is not the game of the table it is meant to correct."""


def amend_target(store: EventStore, round_no: int, table_no: int, verb: str = "amend") -> tuple[Table, Any]:
    """Within :meth:`EventStore.write`: the table an amendment corrects (``verb``: or a clearing
    takes back) and its current result."""
    last = store.last_round()
    if not 1 <= round_no <= last:
        raise NothingToAmend(f"round {round_no} does not exist (the last round is {last}); nothing was changed"
                             if last else f"no round has been paired yet; there is no result to {verb}")
    table = store.table(round_no, table_no)
    if table is None:
        count = len(store.table_numbers(round_no))
        raise NothingToAmend(f"round {round_no} has no table {table_no} (it has {count} table"
                             f"{'s' if count != 1 else ''}); nothing was changed")
    existing = store.result_for(table.id)
    if existing is None and store.settings.team_duplicate:  # its results are its boards', never a whole game's
        raise ResultRefused(f"round {round_no} table {table_no} is a duplicate table, whose results are its boards': "
                            f"correct a board by entering it again, tournament result EVENT --round {round_no} "
                            f"--table {table_no} --board B --score NS=..,EW=.. --replace; nothing was changed")
    if existing is None:
        raise NoResult(round_no, table_no, verb)
    return table, existing


def amend_record(store: EventStore, text: str | bytes, source: str, round_no: int, table_no: int,
                 by: str | None = None, reason: str | None = None, within: bool = False,
                 line: int | None = None) -> Entry:
    """Correct the result of round ``round_no`` table ``table_no`` with a record of that table's
    game, checked by domrec exactly as :func:`enter_record` checks one.  The table must have a
    result; the record must be that table's game (its players in their seats, its round and
    table tags agreeing).  The old result goes to the audit trail with ``by`` and ``reason``."""
    refuse_whole_game(store, (round_no, table_no))
    from tournament.event.audit import clean_text

    by, reason = clean_text(by, "the name of who made it"), clean_text(reason, "the reason")
    record, report = judge(text, source, line)
    check_report(report)
    if record is None:
        raise UnusableRecord(f"{source}: the record cannot be read")
    digest = record_hash(record)
    # ``within``: the caller holds the write already (the venue's correction of one hand).
    with contextlib.nullcontext() if within else store.write():
        table, _ = amend_target(store, round_no, table_no)
        players = record_players(store, record)  # its own players and the table's, not the event's all
        players.update(store.players_by_id([p for p in table.players if p not in players]))
        mapped = record_seats(store.settings, record, players, source)
        if {s.seat: s.player for s in table.seats} != mapped:
            other = next((t for t in store.tables() if {s.seat: s.player for s in t.seats} == mapped), None)
            said = f"it is the game of round {other.round} table {other.number}" if other is not None else \
                "its players are not seated that way at that table"
            raise WrongTable(f"{source} is not the game of round {round_no} table {table_no}: {said}; nothing "
                             f"was changed")
        try:
            _check_table(record, table, mapped, players, source)
        except ResultRefused as e:
            raise WrongTable(f"{e.message}; nothing was changed") from None
        scores = {side: int(n) for side, n in (report.scores or {}).items()}
        return _amended(_store(store, table, "record", True, scores, report.winner, record_text(text), digest,
                               True, source, report, sheet_note(record), by=by,
                               reason=reason or f"amended with {source}"))


def amend_dgn(store: EventStore, text: str | bytes, source: str, round_no: int, table_no: int,
              by: str | None = None, reason: str | None = None) -> Entry:
    """As :func:`amend_record`, for a DGN text of exactly one game (stored in its JSON form)."""
    found = list(read_dgn(text, source))
    if len(found) != 1:
        raise UnusableInput(f"{source} holds {len(found)} games; an amendment takes the one game of the table")
    game = found[0]
    check_report(game.report)
    if game.record is None or not game.complete:
        raise UnusableRecord(f"{game.report.source}: the record cannot be read whole")
    return amend_record(store, text_of([game.record], "json"), game.report.source, round_no, table_no, by, reason)


def amend_manual(store: EventStore, round_no: int, table_no: int, scores: dict[str, int],
                 winner: str | None = None, by: str | None = None, reason: str | None = None) -> Entry:
    """Correct a result with a score typed in by the director (stored as unverified)."""
    refuse_whole_game(store, (round_no, table_no))
    from tournament.event.audit import clean_text

    by, reason = clean_text(by, "the name of who made it"), clean_text(reason, "the reason")
    with store.write():
        table, _ = amend_target(store, round_no, table_no)
        ordered, winner = _manual_scores(table, scores, winner, store.settings)
        return _amended(_store(store, table, "manual", False, ordered, winner, None, None, True,
                               f"table {table_no}", None, by=by, reason=reason or "amended by hand"))


@attrs.frozen
class Cleared:
    """A result taken back (:func:`clear_result`): where, what it was, and why."""

    round: int
    table: int
    old: Result
    reason: str
    #: The table's sides in seating order: the old scores are said in it (NS before EW).
    sides: tuple[str, ...] = ()

    def summary(self) -> str:
        scores = ", ".join(f"{k} {v}" for k, v in in_order(self.old.scores, self.sides))
        return (f"round {self.round} table {self.table}: the result ({scores}; {self.old.kind}) is cleared — kept "
                f"in the audit trail (`tournament history`); the table is to play again")


def clear_result(store: EventStore, round_no: int, table_no: int, reason: str | None,
                 by: str | None = None) -> Cleared:
    """Take back a result entered by mistake (the wrong table, a game not played): the table has
    no result again, so its game can be entered afresh, and a round without results can be
    un-paired.  Nothing is lost: the result, record and all, goes to the audit trail with who and
    why (``reason`` is required), and the public change log says ``result_deleted``.  Refused
    where a result has moved things on that clearing cannot move back: a knockout's or round
    robin's table (correct it with ``amend``), a team match played in sets, a duplicate table
    (its boards' results), a game confirmed at the table on the venue's phones (its game lives
    in the table's log: correct it there)."""
    from tournament.event.audit import clean_text, default_author
    from tournament.store import venue as venue_sql

    by, reason = clean_text(by, "the name of who made it"), clean_text(reason, "the reason")
    if store.settings.duplicate or store.settings.team_duplicate:
        # said before the reason: a duplicate table (pairs or teams) is cleared a board at a time
        raise ResultRefused("a duplicate table's results are its boards': take one back with tournament clear "
                            "EVENT --round R --table T --board B --reason TEXT (or correct it: tournament result "
                            "EVENT --round R --table T --board B --score NS=..,EW=.. --replace)")
    if store.settings.team_set:
        raise ResultRefused("a team match in sets seats its next games from each result: correct it with "
                            "tournament amend")
    if not reason:
        raise UnusableInput("say why the result is cleared (--reason TEXT): it goes into the audit trail")
    with store.write():
        table, existing = amend_target(store, round_no, table_no, "clear")
        if store.round_stage().get(round_no, 1) != 1:
            raise ResultRefused(f"round {round_no} is a stage's round (a knockout, a round robin, a final), whose "
                                f"draw moves on with each result: correct table {table_no} with tournament amend; "
                                f"nothing was changed")
        if venue_sql.entered_via(store, table.id) == "table":
            raise ResultRefused(f"round {round_no} table {table_no} was confirmed at the table on the venue's "
                                f"phones: correct its game there (tournament correct) or with tournament amend; "
                                f"nothing was changed")
        store.move_result_to_audit(existing, reason, by or store.author or default_author())
        changes.record(store, changes.RESULT_DELETED, round_no, table_no, {
            "old": changes.result_doc(existing.kind, existing.verified, existing.scores, existing.winner,
                                      existing.note)})
        return Cleared(round_no, table_no, existing, reason, table.sides())


def _amended(entry: Entry) -> Entry:
    return attrs.evolve(entry, status=AMENDED) if entry.status == REPLACED else entry


#: A manual score's bound, each side (as every whole-number option's): far past any game's score.
MAX_MANUAL_SCORE = 1_000_000


def _sides_in_any_case(scores: dict[str, int], sides: Sequence[str]) -> dict[str, int]:
    """``ns=31,ew=0`` read as ``NS=31,EW=0``: a side named in another case is that side, where it
    cannot be another (the table's sides differ in more than case, and no side is named twice);
    anything else is left as typed, for the refusal to name."""
    folded = {side.casefold(): side for side in sides}
    if len(folded) != len(sides):
        return scores
    named = {k: folded.get(k.casefold(), k) for k in scores}
    if len(set(named.values())) != len(named):
        return scores
    return {named[k]: v for k, v in scores.items()}


def _manual_scores(table: Table, scores: dict[str, int], winner: str | None,
                   settings: Settings | None = None, hand: bool = False) -> tuple[dict[str, int], str | None]:
    """A manual score checked against the table's sides; the winner by the highest score
    unless one is given (as :func:`enter_manual` decides it).  Each score is checked against
    what the game's engine declares a side can score (``final_scores``), whether the result is
    entered, replaced or amended: below zero only in Castle Rock, Broadway and Celko; above, no
    more than a game can end with (its target less one, plus the most one hand, or one peg, can
    score; more where a tie at the top sends play on past the target), or, ``hand`` (a duplicate
    board, one hand), than one hand can score.  A slip (2000 typed for 200) is refused in one
    line that names the side and the bound.  Then how a game ends (the engine's
    :meth:`~domrec.games.base.ScoreRange.end_refusal`): no game of Competitive ends with both
    sides at 200 or more (refused, exit 1); and sides level at the top past the target of a game
    that never ends there as a draw (Castle Rock's youngest hand) need ``winner``, as at a table
    of more than two."""
    sides = table.sides()
    scores = _sides_in_any_case(scores, sides)
    if set(scores) != set(sides):
        raise ScoreSides(f"table {table.number} has sides {', '.join(sides)}; a score is needed for each "
                         f"of them, and nothing else (given: {', '.join(scores) or 'none'})")
    ordered = {side: int(scores[side]) for side in sides}
    for side, n in ordered.items():
        if abs(n) > MAX_MANUAL_SCORE:  # a slip of the keyboard, and past what SQLite's integers hold
            shown = str(n) if len(str(n)) <= 20 else f"{str(n)[:12]}… ({len(str(abs(n)))} digits)"
            raise UnusableInput(f"the score of {side}, {shown}, is past the limit of {MAX_MANUAL_SCORE:,} "
                                f"points a side; nothing was stored")
    span = None
    if settings is not None:
        engine = games.engine(settings.game)
        span = engine.final_scores(settings.variant or "standard", settings.resolved_options(), len(table.seats))
        for side, n in ordered.items():
            wrong = span.refusal(n)
            if wrong is not None:
                raise UnusableInput(f"the score of {side}, {n}, is {wrong.format(game=settings.game)}; "
                                    f"nothing was stored")
        for side, n in ordered.items():
            above = span.hand_refusal(side, n) if hand else span.total_refusal(side, n, ordered)
            if above is not None:
                raise UnusableInput(f"{above}; nothing was stored")
        # How a game ends, asked of the engine: a typed score is a game finished or stopped by
        # the clock, and no such game of Competitive ends with both sides at 200 or more.
        ended = None if hand else span.end_refusal(ordered)
        if ended is not None:
            raise ResultRefused(f"{ended}; nothing was stored")
    if winner is None:
        best = max(ordered.values())
        top = [s for s, n in ordered.items() if n == best]
        settled = None if (span is None or hand) else span.settles_tie(best)
        if len(top) > 1 and (len(sides) > 2 or settled):
            # Two sides level is a draw; level at the top of a multi-player table, the game's own
            # rules name a winner (who went out, the youngest…), which a typed score cannot show.
            raise LevelAtTop(f"{_and(top)} are level on {best} at the top of table {table.number}: "
                             f"say who won by the game's rules with --winner {top[0]} (or another of them); "
                             f"nothing was stored", tuple(top), best, table.number)
        winner = top[0] if len(top) == 1 else None
    elif winner not in sides:  # (a slip of the keyboard: exit 2, as a score's unknown side)
        raise NoSuchSide(f"{winner} is not a side of table {table.number} ({', '.join(sides)})")
    elif ordered[winner] < max(ordered.values()):
        # --winner settles a tie on the highest score; it never overrules the scores (a swapped
        # side is the likelier slip than a game won with fewer points).
        best = [s for s, n in ordered.items() if n == max(ordered.values())]
        raise WinnerContradicts(f"--winner {winner} contradicts the scores: {_and(best)} scored more "
                                f"({max(ordered.values())} to {ordered[winner]}); give --winner only when the "
                                f"highest scores are level", winner, tuple(best), max(ordered.values()),
                                ordered[winner])
    return ordered, winner


def short_of_target(settings: Settings, table: Table, scores: dict[str, int]) -> str | None:
    """Why a typed game result (``scores``, each side's) is doubtful though storable: no side
    reached the target that ends a game of the event's game and options (the engine's
    ``final_scores``: Competitive's 200, Horse Race's ``target``, Castle Rock's 50, Domino Roads'
    2000 or 1000; Broadway has none), and the event has no time limit that could have stopped it.
    Such a score is still taken (the director may know better: a game abandoned), but it is said at
    entry and by ``check``, as a record said to have ended on time in such an event is.  ``None``:
    nothing to say (a duplicate board is one hand, not a game)."""
    if (settings.time_limit is not None or settings.duplicate or settings.team_duplicate or not scores
            or set(scores) != set(table.sides())):
        return None
    span = games.engine(settings.game).final_scores(settings.variant or "standard", settings.resolved_options(),
                                                    len(table.seats))
    if span.target is None or max(scores.values()) >= span.target:
        return None
    listed = ", ".join(f"{side} {scores[side]}" for side in table.sides())
    return (f"{listed}: no side reached {span.target}, the score that ends a game, but the event has no time "
            f"limit to have stopped it (a game abandoned?)")


def _and(sides: list[str]) -> str:
    """``NS``, ``P1 and P2``, ``P1, P2 and P3``: as the venue's patterns read them (the last
    ``and`` a word of the sentence, translated with it)."""
    return sides[0] if len(sides) == 1 else f"{', '.join(sides[:-1])} and {sides[-1]}"


def _round_number(said: Any) -> int | None:
    """A record's ``event.round`` (or ``event.table``) as a number, if it is one: a whole number,
    or text of ASCII digits with spaces around allowed ("01" and " 1" are 1; "²" is not 2).
    One reading everywhere: choosing the round, checking the table, and ``check``."""
    if type(said) is int:
        return said
    if type(said) is float and said.is_integer():
        return int(said)
    if not isinstance(said, str):
        return None
    text = said.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None
