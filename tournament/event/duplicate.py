"""A duplicate event (issue 38, docs/duplicate.md): its boards, its rounds seated by the movement,
results entered board by board, and the pairs scored by matchpoints and IMPs.

The event is a pairs event whose settings name a movement (:attr:`Settings.movement`).  Its
boards are dealt (or read) once, before round 1 is seated, and stored whole
(:mod:`tournament.store.boards`); when round 1 is seated the event's pairs get the movement's
numbers 1 … 2T (in the order they entered), and each round's tables are seated as the movement
says, each with its boards.  A table's result on a board is the points each side won: typed, or
from the record of that hand, whose deal must be the board's (``check_hand``; any other deal is
refused, naming the first tile that differs).  Scoring is :mod:`tournament.pairing.matchpoints`'
over every board result stored; nothing of it is kept, it is computed afresh.

What the venue will read (its own task): a table's boards for a round (:func:`table_boards`), a
board's deal (:func:`board`), and a board's result at a table (:func:`entered`).
"""

from __future__ import annotations

import contextlib
import functools
import secrets
from fractions import Fraction
from typing import Any, Callable, Sequence

import attrs

from domrec.convert import text_of
from domrec.record import Record
from domrec.validate import Report

from tournament.errors import PairingError, Refused, ResultRefused, TournamentError, UnusableInput
from tournament.event import changes, progress, results as res
from tournament.event.audit import default_author
from tournament.i18n import moment_words
from tournament.pairing import boards as bd, matchpoints as mp, movements as mv
from tournament.pairing.plan import Plan
from tournament.settings import PARTNERSHIP_SIDES, Settings
from tournament.store import boards as sql
from tournament.store.event_store import EventStore
from tournament.store.sqlite import now
from tournament.values import SeatAssignment, Table

STORED, UNCHANGED, REPLACED = "stored", "unchanged", "replaced"


class NotDuplicate(UnusableInput):
    """A duplicate command on an event of another format (exit 2)."""


def check_boards_event(store: EventStore, what: str) -> None:
    """Boards are for a duplicate event, pairs or teams (``--format teams --duplicate``)."""
    if not store.settings.team_duplicate:
        check_duplicate(store, what)


def check_duplicate(store: EventStore, what: str) -> None:
    if not store.settings.duplicate:
        raise NotDuplicate(f"{what} is for a duplicate event (tournament new --format duplicate); this event is "
                           f"{store.settings.format_name}")


# --- boards ---------------------------------------------------------------------------------------


def boards(store: EventStore) -> tuple[bd.Board, ...]:
    """The event's boards, by number (read back and checked by the engine)."""
    return tuple(bd.board_from_json(item) for item in sql.boards(store))


def boards_span(first: int, last: int) -> str:
    """``boards 1 to 14``, or ``board 1`` where there is one (``boards 1 to 1`` was said)."""
    return f"board {first}" if first == last else f"boards {first} to {last}"


def board(store: EventStore, number: int) -> bd.Board:
    """One board of the event, or a one-line refusal naming the boards there are."""
    item = sql.board(store, number)
    if item is None:
        count = len(sql.boards(store))
        raise UnusableInput(f"there is no board {number}: the event has " +
                            (boards_span(1, count) if count else "no boards yet (tournament boards EVENT --boards N)"))
    return bd.board_from_json(item)


#: The seeds ``tournament boards`` draws when none is given: any of these, unpredictable (:mod:`secrets`).
FRESH_SEEDS = 10 ** 12


def fresh_seed() -> int:
    """A seed nobody can foresee, for boards dealt without ``--seed``: a club that gives none does not
    replay last week's deals; the seed is said and kept, so the deal can be made again."""
    return secrets.randbelow(FRESH_SEEDS)


def deal(store: EventStore, count: int, seed: int | str, replace: bool = True) -> tuple[bd.Board, ...]:
    """Deal ``count`` boards with the event's game and rules (seeded: the same seed, the same boards)
    and store them, with the seed (:func:`seed_of`).  ``replace`` False: refused if the event has
    other boards already."""
    s = store.settings
    return store_boards(store, bd.deal_boards(s.game, count, seed, players=s.table_size, variant=s.variant,
                                              options=s.options or None), replace, seed)


def read(store: EventStore, data: bytes | str, source: str, replace: bool = True) -> tuple[bd.Board, ...]:
    """The boards of a file of deals (DGN deal lines, JSON records, or boards' JSON), stored."""
    return store_boards(store, bd.read_boards(data, source), replace)


def seed_of(store: EventStore) -> str | None:
    """The seed the event's boards were dealt with; None if they were read from a file of deals."""
    return sql.boards_seed(store)


def boards_summary(store: EventStore) -> str:
    """What ``info`` says of a duplicate event's boards: how many are stored, and the seed they were
    dealt with (``14 (1 to 14), dealt with seed 7``), or how to make them."""
    there = sql.boards(store)
    if not there:
        return "none yet (tournament boards EVENT --boards N)"
    seed = seed_of(store)
    first, last = there[0]["board"], there[-1]["board"]
    return (f"{len(there)} ({first if first == last else f'{first} to {last}'}), "
            + (f"dealt with seed {seed}" if seed is not None else "read from a file of deals or dealt earlier"))


def ranking_text(store: EventStore) -> str:
    """How a duplicate event ranks, as ``info`` says it: duplicate pairs by matchpoints or IMPs (the
    other breaks a tie); duplicate teams by victory or match points, the IMP difference, the IMPs won."""
    s = store.settings
    if s.team_duplicate:
        return ("teams by " + ("victory points" if s.victory_points else "match points")
                + ", then the IMP difference, then the IMPs won (a bye: a match won)")
    if (s.ranking or "matchpoints") == "imps":
        return "pairs by IMPs, then matchpoint percentage"
    return "pairs by matchpoint percentage, then IMPs"


class BoardsThere(Refused):
    """Boards stored again over other boards without ``--replace`` (exit 1)."""


def store_boards(store: EventStore, made: Sequence[bd.Board], replace: bool = True,
                 seed: int | str | None = None) -> tuple[bd.Board, ...]:
    """The event's boards are ``made`` (dealt with ``seed``, None: read): each of the event's game,
    rules and players, numbered without repeats.  Refused once round 1 is seated (its tables are
    laying the boards out), and without ``replace`` when the event has other boards already."""
    check_boards_event(store, "boards")
    s = store.settings
    rules = s.resolved_options()
    numbers = [b.number for b in made]
    if len(set(numbers)) != len(numbers):
        twice = next(n for n in numbers if numbers.count(n) > 1)
        raise bd.BoardError(f"board {twice} is given twice")
    for b in made:
        if b.game != s.game or len(b.seats) != s.table_size:
            raise bd.BoardError(f"board {b.number} is {b.game} for {len(b.seats)} players; the event plays "
                                f"{s.game} for {s.table_size}")
        if b.rules != rules:
            differ = sorted(k for k in set(rules) | set(b.rules) if rules.get(k) != b.rules.get(k))
            raise bd.BoardError(f"board {b.number} is dealt under other rules than the event's ("
                                + ", ".join(f"{k} {b.rules.get(k)} on the board, {rules.get(k)} in the event"
                                            for k in differ) + ")")
    with store.write():
        if store.last_round():
            raise UnusableInput("the boards are fixed once round 1 is seated: its tables are laying them out")
        wanted = bd.boards_json(sorted(made, key=lambda b: b.number))
        there = sql.boards(store)
        if there and there != wanted and not replace:
            raise BoardsThere(f"the event already has {boards_span(there[0]['board'], there[-1]['board'])}: "
                              "--replace to store these instead")
        sql.replace_boards(store, wanted)
        sql.set_boards_seed(store, seed)
    return tuple(sorted(made, key=lambda b: b.number))


# --- the movement and its rounds -------------------------------------------------------------------


#: The fewest pairs a duplicate movement seats: 3 tables, one pair sitting out each round.
MIN_PAIRS = 2 * mv.MIN_TABLES - 1


def movement(store: EventStore, pairs: int | None = None) -> mv.Movement:
    """The event's movement: for the pairs numbered at round 1 (or ``pairs``, before it), on
    (pairs + 1) // 2 tables; an odd number of pairs plays it with a phantom pair 2T, the pair it
    would meet sitting out each round (:func:`tournament.pairing.movements.with_phantom`).  The
    settings' choices (a skip Mitchell, a curtailed session) are drawn, or refused in one line where
    these tables make no sense of them (:func:`tournament.pairing.movements.for_event`: exit 2)."""
    s = store.settings
    if pairs is None:
        pairs = len(sql.pair_numbers(store))
        if not pairs:
            raise UnusableInput("round 1 has not been seated yet: the movement is drawn for the pairs there are then")
    return mv.for_event(s, pairs)


@attrs.frozen
class SitOut:
    """The pair that sits out a round of an odd number of pairs: the movement's number, the
    event's pair, its name, and the table it would have sat at (no table of the round)."""

    round: int
    pair: int
    pair_id: int
    name: str
    table: int


def sits_out(store: EventStore, round_no: int) -> SitOut | None:
    """Who sits out round ``round_no`` (an odd number of pairs: the pair the phantom would meet),
    derived from the movement, not stored: nothing else of the event treats it as a bye (no
    score, no points); None where every pair plays, or before round 1."""
    return sit_outs(store, round_no).get(round_no)


def sit_outs(store: EventStore, only: int | None = None) -> dict[int, SitOut]:
    """Round -> the pair that sits it out, for every round seated (or round ``only``); empty with an
    even number of pairs.  The movement is drawn once for all of them."""
    ids = sql.pair_numbers(store)
    if not ids or len(ids) % 2 == 0:
        return {}
    moving = movement(store)
    names = {t.id: t.name for t in store.teams()}
    last = store.last_round()
    rounds = range(1, last + 1) if only is None else [only] if 1 <= only <= last else []
    out = {}
    for r in rounds:
        station = moving.sits_out(r)
        if station is not None:
            out[r] = SitOut(r, station.pair, ids[station.pair], names.get(ids[station.pair], ""), station.table)
    return out


def pair_round(store: EventStore, number: int) -> Plan:
    """Within the write of :func:`tournament.event.rounds.pair_next_round`: seat round ``number``
    as the movement says, each table with its pairs and boards, under the movement's table
    numbers (a round with a pair sitting out has no row for its sit-out table: a gap).  Round 1
    numbers the pairs (those entered, in order: 5 to 60; an odd number plays with a phantom) and
    checks that every board the movement plays is there."""
    if number == 1:
        pairs = [t for t in store.teams() if t.active_in(1)]
        if len(pairs) < MIN_PAIRS:
            raise PairingError(f"a duplicate movement needs at least {MIN_PAIRS} pairs ({mv.MIN_TABLES} tables); "
                               f"{len(pairs)} are entered")
        moving = movement(store, len(pairs))
        have = {b["board"] for b in sql.boards(store)}
        missing = [b for b in moving.boards if b not in have]
        if missing and not have:
            raise PairingError(f"the {moving.tables}-table {moving.kind} plays boards 1 to {max(moving.boards)}; "
                               f"the event has none: make them first (tournament boards EVENT "
                               f"--boards {max(moving.boards)})")
        if missing:  # (boards stored over the event's own need --replace: the same seed deals them as before)
            seed = seed_of(store)
            if seed is not None:
                raise PairingError(f"the {moving.tables}-table {moving.kind} plays boards 1 to {max(moving.boards)}; "
                                   f"the event has {len(have)}: store all of them (tournament boards EVENT --boards "
                                   f"{max(moving.boards)} --seed {seed} --replace: that seed deals the event's "
                                   f"{len(have)} again as they are)")
            raise PairingError(f"the {moving.tables}-table {moving.kind} plays boards 1 to {max(moving.boards)}; "
                               f"the event has {len(have)}: store all of them (tournament boards EVENT --from FILE "
                               f"--replace, a file of all {max(moving.boards)})")
        sql.insert_pair_numbers(store, {i: t.id for i, t in enumerate(pairs, 1)})
    moving = movement(store)
    if number > moving.rounds:
        raise PairingError(f"the {moving.tables}-table {moving.kind} has {moving.rounds} rounds, and all are seated")
    ids = sql.pair_numbers(store)
    members = {t.id: t.players for t in store.teams()}
    seats = store.settings.seats()
    tables = []
    for sitting in moving.sittings[number - 1]:
        ns, ew = members[ids[sitting.ns]], members[ids[sitting.ew]]
        # Partners sit opposite: the event's seats in order are NS, EW, NS, EW (N E S W).
        who = (ns[0], ew[0], ns[1], ew[1])
        tables.append(tuple(SeatAssignment(seat, PARTNERSHIP_SIDES[i % 2], who[i]) for i, seat in enumerate(seats)))
    store.insert_round(number, f"duplicate:{moving.kind}:{moving.tables}:round:{number}", tables, (), [],
                       numbers=[sitting.table for sitting in moving.sittings[number - 1]])
    by_number = {t.number: t.id for t in store.tables(number)}
    for sitting in moving.sittings[number - 1]:
        sql.insert_board_table(store, by_number[sitting.table], sitting.ns, sitting.ew, sitting.boards)
    changes.record(store, changes.ROUND_PAIRED, number, data={"tables": len(tables), "byes": []})
    return Plan(number, tuple(tables), ())


def missing(store: EventStore, round_no: int) -> list[tuple[int, int]]:
    """The (table, board) pairs of a round with no result yet (a board marked not played at a
    table has none to come: :func:`mark_not_played`)."""
    done = sql.settled(store)
    return [(t["table"], b) for t in sql.board_tables(store, round_no) for b in t["boards"]
            if (t["table_id"], b) not in done]


def check_finished(store: EventStore, round_no: int) -> None:
    """Refuse the next round while a board of round ``round_no`` has no result at a table."""
    refuse_unfinished(round_no, missing(store, round_no))


def refuse_unfinished(round_no: int, left: list[tuple[int, int]]) -> None:
    """Refuse the next round, naming the (table, board) pairs of round ``round_no`` still ``left``."""
    if left:
        shown = ", ".join(f"table {t} board {b}" for t, b in left[:8]) + (" …" if len(left) > 8 else "")
        raise PairingError(f"round {round_no} is not finished: {shown} ha{'ve' if len(left) > 1 else 's'} "
                           f"no result yet")


@attrs.frozen
class TableBoards:
    """One table of a round as the venue and ``tournament tables`` read it: its pairs (the movement's
    numbers and the event's pair ids) and its boards, in the order it plays them."""

    round: int
    table: int
    table_id: int
    ns: int
    ew: int
    ns_pair: int
    ew_pair: int
    boards: tuple[int, ...]


def table_boards(store: EventStore, round_no: int | None = None) -> list[TableBoards]:
    """Each table's pairs and boards, for one round (or all), in order."""
    ids = sql.pair_numbers(store)
    return [TableBoards(r["round"], r["table"], r["table_id"], r["ns"], r["ew"], ids[r["ns"]], ids[r["ew"]],
                        tuple(r["boards"])) for r in sql.board_tables(store, round_no)]


def round_boards(store: EventStore, round_no: int) -> tuple[int, ...]:
    """The boards every table of round ``round_no`` of a duplicate-teams event plays, in order
    (``boards_per_round`` a round, numbered on from the round before: :mod:`tournament.event.duplicate_teams`)."""
    k = store.settings.boards_per_round
    return tuple(range((round_no - 1) * k + 1, round_no * k + 1))


def boards_of(store: EventStore, table: Table) -> tuple[int, ...]:
    """The boards a duplicate table plays, in order: its movement's (duplicate pairs), or its
    round's, the same at every table (duplicate teams: :func:`round_boards`)."""
    if store.settings.team_duplicate:
        return round_boards(store, table.round)
    mine = next((t for t in table_boards(store, table.round) if t.table_id == table.id), None)
    return mine.boards if mine is not None else ()


def no_table(store: EventStore, round_no: int, table_no: int) -> str:
    """Why round ``round_no`` (seated) has no table ``table_no``: the pair that sits out there (an odd
    number of pairs: ``round 6 has no table 5: pair 5 (Zorros) sits out this round, table 5 is not
    played``), or the tables it has, named (``round 6 has no table 9 (it has tables 1, 2, 3, 4, 6)``:
    a round with a sit-out is short of one of the movement's numbers; ``(it has 6 tables)`` where every
    pair plays)."""
    out = sits_out(store, round_no)
    if out is not None and out.table == table_no:
        return (f"round {round_no} has no table {table_no}: pair {out.pair} ({out.name}) sits out this round, "
                f"table {table_no} is not played")
    numbers = sorted(t.number for t in store.tables(round_no))
    if not numbers:
        return f"round {round_no} has no table {table_no}"
    if out is None and numbers == list(range(1, len(numbers) + 1)):  # every pair plays: as every event says it
        have = "1 table" if len(numbers) == 1 else f"{len(numbers)} tables"
    else:
        have = "tables " + ", ".join(map(str, numbers))
    return f"round {round_no} has no table {table_no} (it has {have})"


def refuse_missing_table(store: EventStore, round_no: int | None, table_no: int) -> None:
    """A command naming one table of a duplicate pairs round (``record --table``, ``sheets --table``):
    a table the round seated does not have is refused in :func:`no_table`'s words (exit 2), so a
    sit-out's table says who sits out; anything else is left to the command's own checks."""
    rnd = round_no if round_no is not None else store.last_round()
    if store.settings.duplicate and 1 <= rnd <= store.last_round() and store.table(rnd, table_no) is None:
        raise UnusableInput(no_table(store, rnd, table_no))


def _table(store: EventStore, round_no: int, table_no: int, board_no: int) -> tuple[Table, TableBoards]:
    table = store.table(round_no, table_no)
    found = next((t for t in table_boards(store, round_no) if t.table == table_no), None)
    if table is None or found is None:
        last = store.last_round()
        raise UnusableInput(no_table(store, round_no, table_no) if 1 <= round_no <= last else
                            f"round {round_no} does not exist (the last round is {last})")
    if board_no not in found.boards:
        raise UnusableInput(f"table {table_no} of round {round_no} plays board"
                            f"{'s' if len(found.boards) > 1 else ''} {', '.join(map(str, found.boards))}, "
                            f"not board {board_no}")
    return table, found


# --- results -------------------------------------------------------------------------------------


@attrs.frozen
class BoardEntry:
    """What happened to one board result."""

    status: str  # stored, unchanged, replaced
    round: int
    table: int
    board: int
    ns: int
    ew: int
    verified: bool
    #: Duplicate teams: the match's other table, where the board is marked not played, so that this
    #: result, kept, does not count (the board is not scored in the match) until that mark is taken
    #: back.  Said with the result, so that a director who typed a score is never left believing it counts.
    uncounted_at: int | None = None

    def summary(self) -> str:
        return "; ".join(self.sentences())

    def sentences(self) -> list[str]:
        """What was stored, and, where it does not count yet (``uncounted_at``), why and until when
        (the director's page translates each sentence whole)."""
        how = "verified record" if self.verified else "typed score, unverified"
        verb = {STORED: "stored", UNCHANGED: "already stored; nothing changed", REPLACED: "replaced"}[self.status]
        said = [f"round {self.round} table {self.table} board {self.board}: NS {self.ns}, EW {self.ew} ({how}) "
                f"— {verb}"]
        if self.uncounted_at is not None:
            said.append(f"it does not count while board {self.board} is marked not played at table "
                        f"{self.uncounted_at}, the match's other table (the board is not scored in the match): "
                        f"it counts once that mark is taken back")
        return said


def entered(store: EventStore, table_id: int, board_no: int) -> dict[str, Any] | None:
    """A table's result on a board as stored (``ns_points``, ``ew_points``, ``ended``, ``verified``), or None."""
    return sql.result(store, table_id, board_no)


#: Finds the table a board result is for (round, table, board), or refuses in one line: a duplicate
#: pairs table plays the boards the movement gave it; duplicate teams' tables play their round's.
TableFinder = Callable[[EventStore, int, int, int], Table]


def _seated(store: EventStore, round_no: int, table_no: int, board_no: int) -> Table:
    return _table(store, round_no, table_no, board_no)[0]


def team_table(store: EventStore, round_no: int, table_no: int, board_no: int) -> Table:
    """Duplicate teams' :data:`TableFinder`: a table of the round, which plays the round's boards
    (:func:`round_boards`), or a one-line refusal (exit 2)."""
    table = store.table(round_no, table_no)
    if table is None:
        last = store.last_round()
        raise UnusableInput(f"round {round_no} has no table {table_no}" if 1 <= round_no <= last else
                            f"round {round_no} does not exist (the last round is {last})")
    playing = round_boards(store, round_no)
    if board_no not in playing:
        raise UnusableInput(f"the tables of round {round_no} play boards {', '.join(map(str, playing))}, "
                            f"not board {board_no}")
    return table


def _board_table(store: EventStore, round_no: int, table_no: int, board_no: int) -> Table:
    """The table a board's mark or its taking back is for: duplicate pairs' seated by the movement,
    duplicate teams' by the round (:func:`team_table`)."""
    return (team_table if store.settings.team_duplicate else _seated)(store, round_no, table_no, board_no)


def refuse_unseated_round(store: EventStore, round_no: int, source: str | None = None, given: bool = True) -> None:
    """Within a write: refuse a board's result for a round not seated in the words of every event's
    result (:func:`tournament.event.results._round_table`, :func:`tournament.event.results._no_such_round`):
    ``round 5 does not exist (the last round is 3); nothing was stored``, a usage mistake (exit 2)
    for a typed score or a --round (``given``); a record's own event.round (not ``given``, the
    record's ``source`` named) is a refused record (exit 1)."""
    last = store.last_round()
    if not last:
        raise UnusableInput("no round has been paired yet")
    if 1 <= round_no <= last:
        return
    if source is None:
        raise UnusableInput(f"round {round_no} does not exist (the last round is {last}); nothing was stored")
    res._no_such_round(source, round_no, last, given)


def enter_score(store: EventStore, round_no: int, table_no: int, board_no: int, scores: dict[str, int],
                replace: bool = False, by: str | None = None, find: TableFinder | None = None,
                within: bool = False, ended: str | None = None, from_phone: bool = False,
                reason: str | None = None) -> BoardEntry:
    """A typed result of a board at a table: the points NS and EW won, checked as a typed score is
    (both sides, whole numbers within the limit, below zero only where the game allows it, and no
    more than one hand of the game can score: the board is one hand), and then by the game's engine
    as a one-hand score sheet (:func:`check_hand_score`: what no hand can make is refused, exit 2).
    ``find``: how the table is found (duplicate teams give theirs; the caller has checked the event).
    ``within``: inside a write already open (the venue's confirmation of a board's typed score);
    ``ended``: how the hand ended, where it was said (``out``, ``blocked``).  ``from_phone``: the
    board's hand as the table's own phone confirmed it; any other first result of a board the
    table's phone is playing needs ``replace`` (:func:`tournament.event.results.refuse_game_on_phone`).
    ``reason``: why a result is replaced, kept with it in the trail (``board_replaced``)."""
    if find is None:
        check_duplicate(store, "a board's result")
    reason = _reason(reason)
    with contextlib.nullcontext() if within else store.write():
        refuse_unseated_round(store, round_no)
        table = (find or _seated)(store, round_no, table_no, board_no)
        ordered, _ = res._manual_scores(table, scores, None, store.settings, hand=True)
        check_hand_score(store, table, board_no, ordered, ended)
        return _put(store, table, board_no, ordered["NS"], ordered["EW"], ended, False, None, None, replace, by,
                    over_phone=from_phone, reason=reason)


def correct_score(store: EventStore, round_no: int, table_no: int, board_no: int, scores: dict[str, int],
                  reason: str, by: str, ended: str | None = None, find: TableFinder | None = None) -> BoardEntry:
    """The director corrects a board's result at a table with a typed score (unverified): the
    board must have a result there; the one it replaces is kept whole
    (``board_result_audit``), and the correction goes into the audit trail with ``reason``
    (``board_corrected``).  The standings, travellers and feed are computed afresh from it.
    ``find``: as for :func:`enter_score` (duplicate teams give theirs; the caller has checked the event)."""
    from tournament.event.audit import clean_text
    from tournament.store import desk as desk_sql

    if find is None:
        check_duplicate(store, "a board's correction")
    if not isinstance(reason, str) or not reason.strip():
        raise UnusableInput("give the reason for correcting a board's result (it goes into the audit trail)")
    reason = clean_text(reason, "the reason") or reason
    with store.write():
        table = (find or _seated)(store, round_no, table_no, board_no)
        old = sql.result(store, table.id, board_no)
        if old is None:
            raise ResultRefused(f"round {round_no} table {table_no} board {board_no} has no result yet: there is "
                                f"nothing to correct")
        ordered, _ = res._manual_scores(table, scores, None, store.settings, hand=True)
        if ended is None:  # (how the hand ended, as the table said it, stays unless the director says otherwise)
            ended = old["ended"]
        check_hand_score(store, table, board_no, ordered, ended)
        entry = _put(store, table, board_no, ordered["NS"], ordered["EW"], ended, False, None, None, True, by,
                     trail=False)
        if entry.status == UNCHANGED:  # the same typed score again: nothing corrected, nothing in the trail
            return entry
        desk_sql.log(store, "board_corrected", round_no,
                     {"table": table_no, "board": board_no, "was": {"NS": old["ns_points"], "EW": old["ew_points"]},
                      "now": {"NS": entry.ns, "EW": entry.ew}}, by, reason)
        return entry


#: Points tried for one side when asking the engine whether a board's hand can end a way, besides
#: the rules' own numbers (:func:`board_ends`): small and large, odd and even, so that each game's
#: bounds (a Competitive block is even and at least 5) let one through.
_TRIAL_POINTS = (0, 1, 2, 5, 10, 20, 30, 50, 100, 150, 200, 300)


def board_ends(settings: Settings) -> tuple[str, ...]:
    """The ways a board's hand (a game's first hand) can end under the event's rules, asked of the
    game's engine as a board's typed score is checked (a one-hand score sheet:
    :func:`hand_score_problem`): a way is possible when some score of one side, the others 0, is
    accepted with it.  The one list every path offers and checks — the score sheets' "Ended"
    column, the table's phone's score form, the director's page and its server's check of
    ``ended`` — so none of them asks a way another refuses.  Besides fixed trial points, each whole
    number of the rules (a target) and the four after it are tried, so that a way reached only at a
    threshold (Horse Race's target, a multiple of five under celko) is found at any target."""
    return _board_ends(settings.game, settings.variant, settings.seats(),
                       tuple(sorted(settings.resolved_options().items(), key=lambda kv: kv[0])))


def _board_ends(game_name: str, variant: Any, seats: tuple[str, ...], options: tuple) -> tuple[str, ...]:
    try:
        return _board_ends_kept(game_name, variant, seats, options)
    except TypeError:  # an option's value that cannot be kept (a list): asked again
        return _board_ends_kept.__wrapped__(game_name, variant, seats, options)


@functools.lru_cache(maxsize=64)
def _board_ends_kept(game_name: str, variant: Any, seats: tuple[str, ...], options: tuple) -> tuple[str, ...]:
    from domrec.errors import DomrecError
    from domrec.game import Game
    from domrec.shape import HAND_ENDS

    numbers = sorted({n + k for _, n in options if isinstance(n, int) and not isinstance(n, bool) and n > 0
                      for k in range(5)})
    points = tuple(dict.fromkeys((*_TRIAL_POINTS, *numbers)))
    found = []
    for end in HAND_ENDS:
        for n in points:
            try:
                game = Game(game_name, [(s, s) for s in seats], variant=variant, options=dict(options))
                game.add_score_sheet_hand({next(iter(game.totals)): n}, end)
            except DomrecError:
                continue
            except Exception:  # an engine that cannot take a score sheet: no further way is asked
                return tuple(found)
            found.append(end)
            break
    return tuple(found)


class NoHandScores(UnusableInput):
    """A board's typed score that no hand of the game can make (exit 2): the engine's sentence."""


def hand_score_problem(store: EventStore, table: Table, scores: dict[str, int], ended: str | None) -> str | None:
    """Why no hand can score ``scores`` (each side's points), in the engine's words, or None.
    The board is one hand, so its score is checked as a one-hand score sheet is (the rule the
    table's phone checks its typed scores by): where how the hand ended is known (``ended``), a
    hand that ended so (a Competitive block always scores an even number); where it is not, any
    hand of the game (one side scores it, between the least and the most a hand can)."""
    from domrec.errors import DomrecError
    from domrec.game import Game

    settings = store.settings
    try:
        game = Game(settings.game, [(s.seat, s.seat) for s in table.seats], variant=settings.variant,
                    options=settings.resolved_options())
        game.add_score_sheet_hand(scores, ended)
    except DomrecError as e:
        return e.problem.message if hasattr(e, "problem") else str(e)
    return None


def check_hand_score(store: EventStore, table: Table, board_no: int, scores: dict[str, int],
                     ended: str | None) -> None:
    """A board's typed score checked as a hand's score on a score sheet is (:func:`hand_score_problem`),
    whichever way it comes (the command line, the table's phone, the director's correction): what
    no hand can make is refused in one line, nothing stored."""
    said = hand_score_problem(store, table, scores, ended)
    if said is not None:
        raise NoHandScores(f"board {board_no}: {said}; nothing was stored")


def enter_record(store: EventStore, record: Record | None, report: Report, round_no: int | None,
                 table_no: int | None, board_no: int | None, replace: bool = False,
                 by: str | None = None, within: bool = False, find: TableFinder | None = None,
                 from_phone: bool = False, reason: str | None = None,
                 names: res.NameIndex | None = None) -> BoardEntry:
    """A board's result from the record of its hand (judged by domrec first: ``report``): a valid
    record of one played hand whose deal is the board's (any other deal is refused, naming the
    first tile that differs: :func:`tournament.pairing.boards.check_hand`).  The round, table and
    board are the ones given, else the record's ``event.round``, ``event.table`` and
    ``event.board``.  A record naming the event's players must name the table's, in their seats.
    ``within``: inside a write already open (the venue's confirmation).  ``find``, ``from_phone``,
    ``reason``: as for :func:`enter_score`.  ``names``: the event's names indexed once by a caller
    entering many records (:func:`tournament.event.results.name_index`)."""
    if find is None:
        check_duplicate(store, "a board's result")
    reason = _reason(reason)
    if record is None or report.status != "valid":
        res.check_report(report)
    assert record is not None
    event = record.event or {}
    for what, given in (("round", round_no), ("table", table_no), ("board", board_no)):
        res.refuse_other_round(record, given, report.source, what)
    given = round_no is not None  # a --round not seated is a usage mistake (exit 2); a record's own, refused (exit 1)
    round_no = round_no if round_no is not None else res._round_number(event.get("round"))
    table_no = table_no if table_no is not None else res._round_number(event.get("table"))
    board_no = board_no if board_no is not None else res._round_number(event.get("board"))
    if round_no is None or table_no is None or board_no is None:
        lacking = [n for n, v in (("--round", round_no), ("--table", table_no), ("--board", board_no)) if v is None]
        raise UnusableInput(f"{report.source}: say which board this is: give {', '.join(lacking)} (or the "
                            f"record's event.round, event.table and event.board)")
    refuse_unseated_round(store, round_no, report.source, given)
    if len(record.hands) != 1:
        raise ResultRefused(f"{report.source}: a board's record holds that one hand, not {len(record.hands)}")
    closed = bd.closed_hand(record) if report.scores is not None else None
    if closed is None:  # (a hand played to its end is closed without its end line: a board is one hand)
        raise ResultRefused(f"{report.source}: hand 1 is not finished; nothing was stored")
    record = closed
    hand = record.hands[0]
    the_board = board(store, board_no)
    try:
        bd.check_hand(the_board, record, 1)
    except bd.NotTheBoardsDeal as e:
        raise bd.NotTheBoardsDeal(f"{report.source}: {e}") from None
    scores = {side: int(report.scores.get(side, 0)) for side in PARTNERSHIP_SIDES}
    digest = res.record_hash(record)
    with contextlib.nullcontext() if within else store.write():
        table = (find or _seated)(store, round_no, table_no, board_no)
        _check_players(store, record, table, report.source, names)
        return _put(store, table, board_no, scores["NS"], scores["EW"], hand.result.end, True,
                    text_of([record], "json"), digest, replace, by, over_phone=from_phone, reason=reason,
                    source=report.source)


def _check_players(store: EventStore, record: Record, table: Table, source: str,
                   names: res.NameIndex | None = None) -> None:
    """A record that names the event's players (by name or id) must name the table's, each in the
    seat the table gave them (as any result's record); one that names none of them (a hand
    recorded with its seats for names) is taken for the table it is entered for."""
    named = res.record_players(store, record, names)
    if not named and all(rp.id is None for rp in record.players):
        return
    mapped = res.record_seats(store.settings, record, named, source)
    everyone = {p.id: p for p in store.players()}
    res._check_table(record, table, mapped, everyone, source)


def _reason(reason: str | None) -> str | None:
    """Why a board's result is replaced, as the trail keeps it (one line, checked as every reason is)."""
    from tournament.event.audit import clean_text

    return clean_text(reason, "the reason") or None


#: How a board's result was had, as the trail keeps it: typed, or the hand's record (verified).
_HOW = {False: "typed", True: "record"}


def _how(verified: bool) -> str:
    return "the hand's record" if verified else "a typed score"


def _what_differs(old: dict[str, Any], ns: int, ew: int, verified: bool) -> str:
    """What a new result of a board has that the stored one has not, where its points are the same
    (else the points say it): ``the hand's record of the same points`` over a typed score, ``a typed
    score of the same points`` over a record, ``another record of the hand, with the same points``."""
    if (old["ns_points"], old["ew_points"]) != (ns, ew):
        return ""
    if bool(old["verified"]) == verified:
        return "another record of the hand, with the same points" if verified else ""
    return f"{_how(verified)} of the same points"


def _put(store: EventStore, table: Table, board_no: int, ns: int, ew: int, ended: str | None, verified: bool,
         record: str | None, digest: str | None, replace: bool, by: str | None, trail: bool = True,
         over_phone: bool = False, reason: str | None = None, source: str | None = None) -> BoardEntry:
    """Within a write: a table's result on a board, stored (or the same one again, unchanged).
    A result it replaces is kept whole (``board_result_audit``) and, unless the caller puts its
    own line there (``trail``: false; a correction says why), told in the audit trail
    (``board_replaced``, with ``reason`` where one was given), so that ``history`` and the
    export's audit show it as they show a game's result replaced; a first result entered over the
    phone's hand in play (``replace``) is told there too (``board_entered_over_play``, with its
    ``reason``), as it takes the place of that hand.  A first result of the board the table's phone is playing is refused
    unless ``replace`` or ``over_phone`` (the phone's own confirmation of it) says to enter it
    (:func:`tournament.event.results.refuse_game_on_phone`, board by board).

    Entered over the phone's play (``replace``), the board is closed in the table's venue log in
    this same write (:func:`tournament.store.venue.close_board`), as the phone's confirmation
    closes it: the phone's game starts afresh on its next board, its moves of this one kept in the
    log.  Without it the phone was stuck: it offered its next board (this one has its result) while
    its game still held this board's hand, and a board is one hand.  A row, not a rule read off the
    results: the table's revision moves, so the server (whichever process wrote it), every phone
    and a phone's engine offline see it as they see any write, and a hand is never taken from a
    board that is still being played (nor is one left in play for a board now entered)."""
    from tournament.store import desk as desk_sql, venue as venue_sql

    old = sql.result(store, table.id, board_no)
    over_play = old is None and not over_phone and \
        res.board_on_phone(store, table, boards_of(store, table)) == board_no
    if over_play and not replace:
        raise res.GameOnPhone(table.round, table.number, board_no)
    status = STORED
    if old is None and _marked(store, table.id, board_no) is not None:
        if not replace:
            raise ResultRefused(f"{source + ': ' if source else ''}round {table.round} table {table.number} board "
                                f"{board_no} is marked not played; give --replace to enter its result instead")
        sql.unmark_not_played(store, table.id, board_no)
        desk_sql.log(store, "board_played_after_all", table.round,
                     {"table": table.number, "board": board_no, "now": {"NS": ns, "EW": ew, "how": _HOW[verified]}},
                     by or store.author or default_author(), reason)
    if old is not None:
        same = (old["ns_points"], old["ew_points"], bool(old["verified"]), old["record_hash"]) == \
            (ns, ew, verified, digest)
        if same:
            return BoardEntry(UNCHANGED, table.round, table.number, board_no, ns, ew, verified,
                              _uncounted_at(store, table, board_no))
        if not replace:
            differs = _what_differs(old, ns, ew, verified)
            # ``source``: a record's file, named first, as its other refusals name it.
            raise BoardAlreadyEntered(f"{source + ': ' if source else ''}round {table.round} table {table.number} "
                                      f"board {board_no} already has a result "
                                      f"(NS {old['ns_points']}, EW {old['ew_points']}, {_how(bool(old['verified']))})"
                                      + (f"; this is {differs}" if differs else "") + "; give --replace to replace it",
                                      table.round, table.number, board_no, old["ns_points"], old["ew_points"])
        status = REPLACED
    who = by or store.author or default_author()
    sql.put_result(store, table.id, board_no, ns, ew, ended, verified, record, digest, now(), who)
    if over_play:
        venue_sql.close_board(store, table.id, board_no, now())
    if status == REPLACED and trail:
        desk_sql.log(store, "board_replaced", table.round,
                     {"table": table.number, "board": board_no,
                      "was": {"NS": old["ns_points"], "EW": old["ew_points"], "how": _HOW[bool(old["verified"])]},
                      "now": {"NS": ns, "EW": ew, "how": _HOW[verified]}}, who, reason)
    elif over_play and trail:  # no result replaced, but the phone's hand in play was: said, and why
        desk_sql.log(store, "board_entered_over_play", table.round,
                     {"table": table.number, "board": board_no, "now": {"NS": ns, "EW": ew, "how": _HOW[verified]}},
                     who, reason)
    # The public pages (standings, the traveller, the pair's card) and the feed hear of it, as of a game's result.
    # Not its points: the change log is public, and a board's result tells of its deal to the tables
    # still to play it (the feed's rounds give the points once every table has played the board).
    changes.record(store, changes.BOARD_RESULT, table.round, table.number,
                   {"board": board_no, "verified": verified, "replaced": status == REPLACED})
    progress.note_if_finished(store)
    return BoardEntry(status, table.round, table.number, board_no, ns, ew, verified,
                      _uncounted_at(store, table, board_no))


def _uncounted_at(store: EventStore, table: Table, board_no: int) -> int | None:
    """Duplicate teams: the match's other table where the board is marked not played, so that a
    result at ``table`` is kept but does not count (:attr:`BoardEntry.uncounted_at`); else None.
    Stored all the same, as a mark made after this table's result leaves it stored: the result is
    what the table played, and it counts the moment the mark is taken back (docs/duplicate.md).
    The board marked nowhere (the usual case) needs no other table: finding it reads the event's
    every table, which for each result entered made entering grow with the square of the tables.
    Nor does the board marked at another round's table or another match's: in duplicate teams
    every match of a round plays the same boards, and before, one mark of board 2 anywhere made
    every board-2 result (on the phone's confirmation path) read every table of the event; the
    other table is found among the round's tables (:func:`_other_table`)."""
    marked = {r["table_id"] for r in sql.not_played(store) if r["board"] == board_no} - {table.id}
    if not marked:
        return None
    tables = store.tables(table.round)
    if not marked & {t.id for t in tables}:
        return None
    other = _other_table(store, table, tables)
    return other.number if other is not None and other.id in marked else None


def marked_at_other(store: EventStore, table: Table) -> dict[int, int]:
    """Duplicate teams: each board marked not played at ``table``'s match's other table -> that
    table's number (empty in duplicate pairs), so that the director's page says, before a result
    is saved here, that it would not count while that mark stands (:attr:`BoardEntry.uncounted_at`)."""
    other = _other_table(store, table)
    if other is None:
        return {}
    return {r["board"]: other.number for r in sql.not_played(store) if r["table_id"] == other.id}


def marked_here(store: EventStore, table_id: int, board_no: int) -> bool:
    """The board is marked not played at this very table (not merely at its match's other table):
    a result entered here takes that mark's place, so the director gives a reason for it
    (:meth:`tournament.event.venue.Venue.director_result`), as ``--replace`` does at the command line."""
    return _marked(store, table_id, board_no) is not None


def _marked(store: EventStore, table_id: int, board_no: int) -> dict[str, Any] | None:
    """The board's not-played mark at a table, or None."""
    return next((r for r in sql.not_played(store) if (r["table_id"], r["board"]) == (table_id, board_no)), None)


def not_played_boards(store: EventStore) -> dict[int, list[int]]:
    """A table's id -> the boards not played there (``tournament tables``, the hall, the table's
    phone, which skips them): marked so, and in duplicate teams each board marked so at the match's
    other table that has no result here (it is not scored in the match: nothing is to come here;
    :func:`tournament.store.boards.not_scored`)."""
    marked = sql.not_scored(store)
    if not marked:  # (the usual case: a table's every move asks, and an event's results are thousands)
        return {}
    have = sql.results_at(store, {t for t, _ in marked})
    out: dict[int, list[int]] = {}
    for table_id, board_no in sorted(marked - have):
        out.setdefault(table_id, []).append(board_no)
    return out


def not_played_rows(store: EventStore) -> list[dict[str, Any]]:
    """Every board marked not played at a table, as the export lists them (``boards_not_played``):
    the round, the table, the board, the table's NS and EW pairs (the movement's numbers; in
    duplicate teams the teams sitting NS and EW, by name), the reason, when and by whom; in round,
    table and board order."""
    if store.settings.team_duplicate:
        from tournament.pairing.teams import squad_of_players, table_sides
        from tournament.store import squads as squads_sql

        found = squads_sql.squads(store)
        names = {s.id: s.name for s in found}
        squad_of = squad_of_players(found, store.teams())
        where = {}
        for t in store.tables():
            sides = table_sides(t, squad_of)
            where[t.id] = (t.round, t.number, names.get(sides.get("NS", -1)), names.get(sides.get("EW", -1)))
    else:
        where = {t.table_id: (t.round, t.table, t.ns, t.ew) for t in table_boards(store)}
    rows = [{"round": where[r["table_id"]][0], "table": where[r["table_id"]][1], "board": r["board"],
             "ns": where[r["table_id"]][2], "ew": where[r["table_id"]][3], "reason": r["reason"],
             "marked_at": r["marked_at"], "marked_by": r["marked_by"]}
            for r in sql.not_played(store) if r["table_id"] in where]
    return sorted(rows, key=lambda x: (x["round"], x["table"], x["board"]))


def _need_reason(reason: str | None, what: str) -> str:
    from tournament.event.audit import clean_text

    said = clean_text(reason, "the reason")  # (None where none, or only spaces, was given)
    if not said:
        raise UnusableInput(f"say why {what} (--reason TEXT): it goes into the audit trail")
    return said


def _duplicate_only(store: EventStore, what: str) -> None:
    """Not played and taken back are a duplicate event's, pairs or teams (a board's result at a
    table), and no other's (an ordinary table's result is its game's: ``tournament clear`` without
    ``--board``)."""
    if not store.settings.team_duplicate:
        check_duplicate(store, what)


@attrs.frozen
class BoardMark:
    """What happened to one board at a table: marked not played, or its result taken back."""

    round: int
    table: int
    board: int
    what: str  # "not played", "already" (marked not played before: ``was`` is that mark), "cleared"
    was: dict[str, Any] | None = None
    #: Duplicate teams: the match's two tables (first, second), whose match the board is not scored in.
    match: tuple[int, int] | None = None
    #: Duplicate teams, a result taken back: the match's other table, where the board is marked not
    #: played (so nothing is to be entered again here: the board is not scored in the match).
    marked_at_other: int | None = None
    #: Marked not played over a hand in play (``replace``): the tables whose phone's hand of the
    #: board was taken off (its moves kept in the venue's log).
    over_play: tuple[int, ...] = ()
    #: A mark taken back: the tables where the board is due again but whose phone closed it (a mark
    #: made over its play took the hand off; in duplicate teams the other table's too) and never
    #: plays it again, so the director enters its result there (the table's state ``to_enter``).
    to_enter: tuple[int, ...] = ()

    def summary(self) -> str:
        return "; ".join(self.sentences())

    def sentences(self) -> list[str]:
        """What was done, a sentence each (the director's page translates each whole): the mark,
        and each table whose phone's hand of the board the mark took off (``over_play``)."""
        return [self._summary()] + [f"table {n}'s phone no longer plays board {self.board} (its moves stay in the "
                                    f"venue's log)" for n in self.over_play] + \
            [f"table {n}'s phone does not play board {self.board} again (it was closed there): its result is to be "
             f"entered by the director" for n in self.to_enter]

    def _summary(self) -> str:
        if self.what == "already":
            was = self.was or {}
            at = was.get("marked_at")
            when = moment_words(at) if at else "at a time not kept"  # (as people read a time: not ISO 8601)
            return (f"round {self.round} table {self.table} board {self.board} was already marked not played, "
                    f"{when} by {was.get('marked_by')} — {was.get('reason')}; nothing was changed")
        if self.what == "not played" and self.match is not None:
            return (f"round {self.round} table {self.table} board {self.board}: not played — the board is not "
                    f"scored in the match of tables {self.match[0]}-{self.match[1]} (a result at the other table "
                    f"does not count)")
        if self.what == "not played":
            return (f"round {self.round} table {self.table} board {self.board}: not played — no score there; "
                    f"the board is scored over the tables that played it")
        was = self.was or {}
        if was.get("not_played"):
            return (f"round {self.round} table {self.table} board {self.board}: no longer marked not played; "
                    f"its result is to be entered")
        if self.marked_at_other is not None:
            return (f"round {self.round} table {self.table} board {self.board}: result NS {was.get('ns_points')}, "
                    f"EW {was.get('ew_points')} taken back (kept in the history); the board is not scored in the "
                    f"match (not played at table {self.marked_at_other})")
        return (f"round {self.round} table {self.table} board {self.board}: result NS {was.get('ns_points')}, "
                f"EW {was.get('ew_points')} taken back (kept in the history); the board is to be entered again")


class BoardHasResult(ResultRefused):
    """A board marked not played over its result (take it back first): the message is the command
    line's; ``ns``/``ew`` the result, for a page that says the advice in its own terms."""

    def __init__(self, message: str, round_no: int, table_no: int, board_no: int, ns: int, ew: int) -> None:
        super().__init__(message)
        self.round, self.table, self.board, self.ns, self.ew = round_no, table_no, board_no, ns, ew


class BoardAlreadyEntered(ResultRefused):
    """A board's result entered where the table has one already, without ``replace``: the message
    is the command line's (``--replace``); the table, board and result, for a page that says it in
    its own terms (the table's phone, whose confirmation met the director's result:
    :meth:`tournament.event.venue.Venue._enter_board`)."""

    def __init__(self, message: str, round_no: int, table_no: int, board_no: int, ns: int, ew: int) -> None:
        super().__init__(message)
        self.round, self.table, self.board, self.ns, self.ew = round_no, table_no, board_no, ns, ew


class BoardOnPhone(ResultRefused):
    """A board marked not played while the table's phone is playing it: the message is the command
    line's (``--replace``); the table and board, for a page that says the advice in its own terms."""

    def __init__(self, message: str, round_no: int, table_no: int, board_no: int) -> None:
        super().__init__(message)
        self.round, self.table, self.board = round_no, table_no, board_no


def mark_not_played(store: EventStore, round_no: int, table_no: int, board_no: int, reason: str | None,
                    by: str | None = None, replace: bool = False) -> BoardMark:
    """A board the table did not play (time ran out, a pair left): it gets no result there and none is
    awaited, so the round can end.  Nothing is scored for that table on it: the board is scored over
    the tables that did play it, exactly as if that table's row did not exist (too few tables, and
    it is not scored at all), and the table's two pairs are ranked on the boards they played (their
    percentage is over the tops of those boards).  Refused over a result (take it back first,
    :func:`clear_board`) and while the table's phone is playing the board; kept in the trail with
    ``reason`` (required).  A board marked already is left as it is (the first mark, its reason and
    time, stand; the answer says so: ``what`` is ``already``): take the mark back first to give
    another reason.

    In duplicate teams the board is not scored in the table's match at all (a match scores a board
    on both its tables together: :func:`tournament.event.duplicate_teams.matches`), and nothing is
    awaited at the match's other table either (:func:`tournament.store.boards.not_scored`), so the
    mark is refused too while that table's phone is playing the board: it would take the board from
    under the hand.

    ``replace``: marked all the same over the hand the phone is playing (time ran out mid-hand,
    ``--not-played --replace``), as a score entered with ``--replace`` takes the phone's hand: the
    board is closed in the table's venue log (:func:`tournament.store.venue.close_board`; its moves
    stay there) and the trail says the mark took the hand off the phone (``over_play``).  A hand
    taken back whole on the phone (Undo, no move made) is not in play, and needs no ``replace``."""
    from tournament.store import desk as desk_sql, venue as venue_sql

    _duplicate_only(store, "a board not played")
    reason = _need_reason(reason, "the board was not played")
    with store.write():
        refuse_unseated_round(store, round_no)
        table = _board_table(store, round_no, table_no, board_no)
        old = sql.result(store, table.id, board_no)
        if old is not None:
            raise BoardHasResult(f"round {round_no} table {table_no} board {board_no} has a result (NS "
                                 f"{old['ns_points']}, EW {old['ew_points']}): take it back first (tournament clear "
                                 f"EVENT --round {round_no} --table {table_no} --board {board_no} --reason TEXT)",
                                 round_no, table_no, board_no, old["ns_points"], old["ew_points"])
        playing = []  # the tables whose phone's hand of the board the mark takes (with ``replace``)
        if res.board_on_phone(store, table, boards_of(store, table)) == board_no:
            if not replace:
                raise BoardOnPhone(f"table {table_no}'s phone is playing board {board_no}: finish the hand there, "
                                   f"or give --replace to mark it not played over the hand (or enter its score "
                                   f"with --replace)", round_no, table_no, board_no)
            playing.append(table)
        other = _other_table(store, table)
        if other is not None and sql.result(store, other.id, board_no) is None and \
                res.board_on_phone(store, other, boards_of(store, other)) == board_no:
            # Duplicate teams: the mark takes the board from the match's other table too (nothing is awaited
            # there), so not from under a hand its phone is playing.
            if not replace:
                raise BoardOnPhone(f"table {other.number}'s phone is playing board {board_no} (the match's other "
                                   f"table: a board not played is scored at neither): finish the hand there, or "
                                   f"give --replace to mark it over the hand (or enter its score with --replace)",
                                   round_no, other.number, board_no)
            playing.append(other)
        first = _marked(store, table.id, board_no)
        match = None if other is None else (min(table.number, other.number), max(table.number, other.number))
        if first is not None:  # marked already: said with the first mark's reason, nothing changed
            return BoardMark(round_no, table_no, board_no, "already", first, match)
        who = by or store.author or default_author()
        sql.mark_not_played(store, table.id, board_no, reason, now(), who)
        for t in playing:  # the phone's hand of it taken off, as a score entered over it takes it
            venue_sql.close_board(store, t.id, board_no, now(), not_played=True)
        taken = [t.number for t in playing]
        desk_sql.log(store, "board_not_played", round_no,
                     {"table": table_no, "board": board_no, **({"over_play": taken} if taken else {})}, who, reason)
        changes.record(store, changes.BOARD_RESULT, round_no, table_no, {"board": board_no, "not_played": True})
        progress.note_if_finished(store)
        return BoardMark(round_no, table_no, board_no, "not played", None, match, over_play=tuple(taken))


def _refuse_phone_past(store: EventStore, table: Table, board_no: int) -> None:
    """Within the write: refuse to make ``board_no`` due again at ``table`` (its result or its mark
    taken back) while the table's phone, having gone past it, has the hand of a later board in
    play.  The phone plays the first of its boards with nothing in (:func:`tournament.event.
    table_log.board_index`): taken back now, the board would be that one, and the hand in play
    (another board's deal) would be confirmed as its result.  A board closed in the phone's log
    (confirmed there, or entered or marked over its play) is never played again there: no harm."""
    from tournament.store import desk as desk_sql

    order = boards_of(store, table)
    playing = res.board_on_phone(store, table, order)
    if playing is None or playing == board_no or board_no not in order or \
            order.index(board_no) > order.index(playing) or \
            board_no in desk_sql.venue_board_rows(store, table.id)[0]:
        return
    raise ResultRefused(f"table {table.number}'s phone is playing board {playing}, after board {board_no}: let the "
                        f"table finish that hand first (taken back now, the hand would count as the earlier "
                        f"board's); nothing was changed")


def _closed_and_due(store: EventStore, tables: tuple[Table | None, ...], board_no: int) -> tuple[int, ...]:
    """Within the write, a mark just taken back: those of ``tables`` (the table and, in duplicate
    teams, its match's other table) where the board is due again (no result, no mark at either
    table of the match) but is closed on the table's phone (a mark made over its play closed it),
    which never plays a closed board again: the director enters its result there."""
    from tournament.store import desk as desk_sql

    found = [t for t in tables if t is not None]
    if any(_marked(store, t.id, board_no) is not None for t in found):
        return ()  # (still marked at a table of the match: due at neither)
    return tuple(t.number for t in found if sql.result(store, t.id, board_no) is None and
                 board_no in desk_sql.venue_board_rows(store, t.id)[0])


def _other_table(store: EventStore, table: Table, tables: list[Table] | None = None) -> Table | None:
    """Duplicate teams: the other table of ``table``'s match (None in duplicate pairs), found among
    its round's tables (``tables``, when the caller has them) as a match's two tables are one
    round's: not the event's every table read for it."""
    if not store.settings.team_duplicate:
        return None
    tables = store.tables(table.round) if tables is None else tables
    other = sql.match_tables(store, tables).get(table.id)
    return next((t for t in tables if t.id == other), None)


def clear_board(store: EventStore, round_no: int, table_no: int, board_no: int, reason: str | None,
                by: str | None = None) -> BoardMark:
    """Take back a board's result entered by mistake (the wrong table or board), or a board marked not
    played: the table has nothing on the board again, so it is entered afresh.  The result, record and
    all, is kept whole (``board_result_audit``) and the trail says who and why (``board_cleared``,
    ``reason`` required), as every clear's.  Refused where there is nothing to take back, and while
    the table's phone, gone past the board, plays a later one (:func:`_refuse_phone_past`).  Duplicate
    pairs and duplicate teams alike (a team table is found by its round: :func:`team_table`)."""
    from tournament.store import desk as desk_sql

    _duplicate_only(store, "taking back a board's result")
    reason = _need_reason(reason, "the board's result is taken back")
    with store.write():
        refuse_unseated_round(store, round_no)
        table = _board_table(store, round_no, table_no, board_no)
        who = by or store.author or default_author()
        old = sql.result(store, table.id, board_no)
        # (a mark taken back in duplicate teams makes the board due at the match's other table too)
        marked_here = old is None and _marked(store, table.id, board_no) is not None
        other = _other_table(store, table) if marked_here else None
        for t in (table, other) if old is not None or marked_here else ():
            if t is not None:
                _refuse_phone_past(store, t, board_no)
        if old is None:
            if sql.unmark_not_played(store, table.id, board_no):
                desk_sql.log(store, "board_cleared", round_no, {"table": table_no, "board": board_no,
                                                                "was": "not played"}, who, reason)
                changes.record(store, changes.BOARD_RESULT, round_no, table_no, {"board": board_no, "cleared": True})
                return BoardMark(round_no, table_no, board_no, "cleared", {"not_played": True},
                                 to_enter=_closed_and_due(store, (table, other), board_no))
            raise ResultRefused(f"round {round_no} table {table_no} board {board_no} has no result: there is "
                                f"nothing to take back")
        sql.delete_result(store, table.id, board_no, now(), who)
        desk_sql.log(store, "board_cleared", round_no,
                     {"table": table_no, "board": board_no,
                      "was": {"NS": old["ns_points"], "EW": old["ew_points"], "how": _HOW[bool(old["verified"])]}},
                     who, reason)
        changes.record(store, changes.BOARD_RESULT, round_no, table_no, {"board": board_no, "cleared": True})
        other = _other_table(store, table)
        marked_other = other is not None and _marked(store, other.id, board_no) is not None
        # (due again here, unless marked at the match's other table; closed on this table's phone,
        # which never plays it again: the answer says the director enters it, as a mark's taking back does)
        return BoardMark(round_no, table_no, board_no, "cleared", old,
                         marked_at_other=other.number if marked_other else None,
                         to_enter=() if marked_other else _closed_and_due(store, (table,), board_no))


# --- scoring -------------------------------------------------------------------------------------


def table_results(store: EventStore, shown: set[int] | None = None) -> list[mp.TableResult]:
    """Every stored board result as the scoring reads it (the movement's pair numbers); ``shown``:
    those of these boards only."""
    seated = {t.table_id: t for t in table_boards(store)}
    return [mp.TableResult(r["board"], seated[r["table_id"]].ns, seated[r["table_id"]].ew, r["ns_points"],
                           r["ew_points"]) for r in sql.results(store) if shown is None or r["board"] in shown]


def session(store: EventStore, shown: set[int] | None = None) -> mp.Session:
    """The session scored afresh from every board result (the game's IMP step); ``shown``: from
    those of these boards only (:func:`standings`)."""
    return mp.score_session(table_results(store, shown), mp.IMP_STEP[store.settings.game])


def directions(store: EventStore) -> dict[int, str]:
    """Each movement pair's direction over the session: NS or EW (a Mitchell), both (a Howell).  A
    pair that has only sat out so far (an odd number of pairs: sitting out round 1, before round 2)
    has its sit-out station's direction in the movement (a Mitchell's NS pair sits out as NS)."""
    seen: dict[int, set[str]] = {}
    for t in table_boards(store):
        seen.setdefault(t.ns, set()).add("NS")
        seen.setdefault(t.ew, set()).add("EW")
    outs = sit_outs(store) if len(seen) < len(sql.pair_numbers(store)) else {}
    if outs:
        moving = movement(store)
        for r, out in outs.items():
            station = moving.sits_out(r)
            if out.pair not in seen and station is not None:
                seen[out.pair] = {station.direction}
    return {p: next(iter(d)) if len(d) == 1 else "both" for p, d in seen.items()}


#: A Mitchell's two fields, as its standings list them: North-South, then East-West.
FIELDS = ("NS", "EW")


def fields(store: EventStore) -> tuple[str, ...]:
    """The fields the standings rank apart: a Mitchell's two directions (:data:`FIELDS`), or none (a
    Howell, one list).  In a Mitchell an NS pair is compared on each board's traveller with the
    other NS pairs alone (matchpoints are won within a direction), so its 60% and an EW pair's 60%
    were not measured against the same pairs: a club announces a winner a direction.  Without an
    arrow switch (this tool has none) a Mitchell pair keeps its direction all session; a Howell
    pair sits both ways, and every pair is compared with every other."""
    return FIELDS if store.settings.movement == "mitchell" else ()


def standings(store: EventStore, shown: set[int] | None = None) -> dict[str, Any]:
    """The pairs ranked by the event's choice (matchpoints or IMPs; the other breaks a tie), as
    ``standings --json`` prints them: ``{"pairs": [{"rank", "pair", "name", "direction", "boards",
    "matchpoints", "top", "percent", "imps", "unscored"}...], "ranked_by", "fields", "too_few": [{"board",
    "direction", "tables", "complete"}...], "provisional", "missing": {"round": board results still to come},
    "members": {"pair": [its two players' names]}}``.  ``pair`` is the movement's number (``members``
    is keyed by it, as text: a league by player credits each of them with their pair's place and
    score, :mod:`tournament.event.league`); ``unscored`` the boards the pair played that had too few
    tables to be compared.  ``shown`` (the hall's pages and the public feed:
    :func:`complete_boards`): counting those boards only, a board
    counting once every table due to play it has played it (its matchpoints, and a total that
    holds them, would tell the tables still to play it how it went); the provisional rows and
    ``missing`` still count every result to come.  A board of ``too_few`` is ``complete`` when
    every table due to play it has (too few tables for good), else it is short only so far, as
    mid-session after round 1 every board is.  ``fields``: in a Mitchell ``["NS", "EW"]``, the
    pairs of each direction listed together (NS first) and ranked among themselves, a rank 1 a
    direction (:func:`fields`); in a Howell ``[]``, one list."""
    check_duplicate(store, "duplicate standings")
    scored = session(store, shown)
    names = {t.id: t.name for t in store.teams()}
    ids = sql.pair_numbers(store)
    players = {p.id: p.name for p in store.players()}
    partners = {t.id: [players[p] for p in t.players if p in players] for t in store.teams()}
    facing = directions(store)
    by = store.settings.ranking or "matchpoints"
    totals = {t.pair: t for t in scored.totals}
    for pair in ids:  # a pair with no result yet still stands, with nothing
        totals.setdefault(pair, mp.PairTotal(pair, 0, 0, 0, 0, 0))
    ranked = mp.ranking(attrs.evolve(scored, totals=tuple(totals[p] for p in sorted(totals))), by)
    split = fields(store)
    if split:  # a Mitchell: each direction ranked on its own, North-South first (``fields``)
        order = {field: i for i, field in enumerate(split)}  # (a sort keeps each field's ranking)
        ranked = tuple(sorted(ranked, key=lambda t: order.get(facing.get(t.pair, ""), len(split))))
    rows = []
    previous: tuple[str, Fraction, int] | None = None
    place = 0
    for t in ranked:
        direction = facing.get(t.pair, "")
        field = direction if direction in split else ""
        place = 1 if not rows or rows[-1]["_field"] != field else place + 1
        key = (field, Fraction(t.matchpoints, t.top or 1), t.imps)
        rank = rows[-1]["rank"] if previous == key else place
        previous = key
        rows.append({"rank": rank, "pair": t.pair, "name": names.get(ids.get(t.pair, -1), ""),
                     "direction": direction, "boards": t.boards, "matchpoints": t.matchpoints,
                     "top": t.top, "percent": round(t.percent, 2), "imps": t.imps, "unscored": t.unscored,
                     "_field": field})
    for row in rows:
        del row["_field"]
    few = [{"board": tr.board, "direction": tr.direction, "tables": tr.tables} for tr in scored.travellers
           if tr.too_few]
    if few:  # whether each is short for good (every table due to play it has), or only so far (mid-session)
        done = shown if shown is not None else complete_boards(store)
        for f in few:
            f["complete"] = f["board"] in done
    left = missing_by_round(store)
    return {"pairs": rows, "ranked_by": by, "fields": list(split), "too_few": few, "provisional": bool(left),
            "missing": {str(r): n for r, n in sorted(left.items())},
            "members": {str(n): partners.get(i, []) for n, i in sorted(ids.items())}}


def described(store: EventStore) -> dict[str, Any]:
    """How the feed (``/api/v1/event``) and the export's ``event`` name a duplicate event's format and
    ranking, over the settings' stored ones (a duplicate event is stored as a pairs event, with the
    pairs events' game tie-breaks that never rank it): ``format`` ``duplicate`` (duplicate pairs) or
    ``duplicate-teams``, ``ranking`` as ``info`` says it (``matchpoints`` or ``imps``; duplicate teams:
    ``victory-points`` or ``match-points``), and ``tiebreaks`` empty.  Empty for any other event."""
    s = store.settings
    if s.team_duplicate:
        return {"format": "duplicate-teams", "ranking": "victory-points" if s.victory_points else "match-points",
                "tiebreaks": []}
    if s.duplicate:
        return {"format": "duplicate", "ranking": s.ranking or "matchpoints", "tiebreaks": []}
    return {}


def tables_done(store: EventStore) -> dict[int, int]:
    """Round -> its tables with every board they play settled (a result, or marked not played): what
    the feed counts as a duplicate round's ``results`` (a table plays several boards)."""
    done = sql.settled(store)
    out: dict[int, int] = {}
    if store.settings.team_duplicate:
        for t in store.tables():
            plays = round_boards(store, t.round)
            if plays and all((t.id, b) in done for b in plays):
                out[t.round] = out.get(t.round, 0) + 1
        return out
    for t in table_boards(store):
        if t.boards and all((t.table_id, b) in done for b in t.boards):
            out[t.round] = out.get(t.round, 0) + 1
    return out


def missing_by_round(store: EventStore) -> dict[int, int]:
    """Round -> how many board results (a board at a table) of the rounds seated are still to come,
    for the rounds that have any: while one is, the standings are provisional, as every event's are
    (a duplicate event counts boards, not tables: a table plays several; a board marked not played
    at a table is not to come)."""
    done = sql.settled(store)
    out: dict[int, int] = {}
    for number in range(1, store.last_round() + 1):
        left = sum(1 for t in sql.board_tables(store, number) for b in t["boards"] if (t["table_id"], b) not in done)
        if left:
            out[number] = left
    return out


def complete_boards(store: EventStore) -> set[int]:
    """The boards every table the movement gives them has played, or is marked not playing (their
    deals may be shown)."""
    try:
        moving = movement(store)
    except TournamentError:  # round 1 not seated yet: nothing has been played
        return set()
    where = {(t.round, t.table): t.table_id for t in table_boards(store)}
    done = sql.settled(store)  # a result, or marked not played: nothing more to come there
    plays: dict[int, list[tuple[int, int]]] = {}
    for number, sittings in enumerate(moving.sittings, 1):
        for s in sittings:
            for b in s.boards:
                plays.setdefault(b, []).append((number, s.table))
    return {b for b, at in plays.items()
            if all((where.get(p) is not None and (where[p], b) in done) for p in at)}


def travellers(store: EventStore, complete: set[int] | None = None) -> list[dict[str, Any]]:
    """Each board's traveller, as the report and the export show it: the board, whether every
    table due to play it has (``complete``: a board short of tables is so for good, else only so
    far), and each table's result on it (round, table, NS and EW pairs, the points, how the hand
    ended, the NS pair's matchpoints and IMPs, or ``too_few``).  ``complete``: those boards, when
    the caller has them already (:func:`complete_boards`)."""
    if complete is None:
        complete = complete_boards(store)
    scored = session(store)
    ns_of = {(r.board, r.pair): r for t in scored.travellers if t.direction == "NS" for r in t.results}
    where = {t.table_id: t for t in table_boards(store)}
    out: dict[int, list[dict[str, Any]]] = {}
    for r in sql.results(store):
        t = where[r["table_id"]]
        mine = ns_of.get((r["board"], t.ns))
        out.setdefault(r["board"], []).append({
            "round": t.round, "table": t.table, "ns": t.ns, "ew": t.ew, "ns_points": r["ns_points"],
            "ew_points": r["ew_points"], "ended": r["ended"], "verified": bool(r["verified"]),
            "ns_matchpoints": None if mine is None or mine.too_few else mine.matchpoints,
            "top": None if mine is None else mine.top,
            "ns_imps": None if mine is None or mine.too_few else mine.imps,
            "too_few": mine is None or mine.too_few})
    return [{"board": b, "complete": b in complete,
             "results": sorted(rows, key=lambda x: (x["round"], x["table"]))} for b, rows in sorted(out.items())]


# --- tournament check ------------------------------------------------------------------------------


def check_findings(store: EventStore) -> tuple[list[tuple[str, str, str]], int]:
    """What ``tournament check`` finds in a duplicate event, as (level, where, message), and how many
    board records it re-validated: every table seated as the movement says (its pairs and its
    boards), every board result of one of its table's boards, and every board record replayed by
    domrec again, its deal the board's and its points the ones stored."""
    out: list[tuple[str, str, str]] = []
    seated = table_boards(store)
    if not seated:
        return out, 0
    try:
        moving = movement(store)
    except (UnusableInput, mv.MovementError) as e:
        return [("error", "duplicate", str(e))], 0
    for t in seated:
        want = next((s for s in moving.sittings[t.round - 1] if s.table == t.table), None) \
            if t.round <= moving.rounds else None
        if want is None or (want.ns, want.ew, want.boards) != (t.ns, t.ew, t.boards):
            out.append(("error", f"round {t.round} table {t.table}", f"seats pairs {t.ns} and {t.ew} with boards "
                        f"{list(t.boards)}; the movement says " + (f"pairs {want.ns} and {want.ew} with boards "
                                                                   f"{list(want.boards)}" if want else "no such table")))
    for number in sorted({t.round for t in seated}):  # every table the movement plays, none more
        if number > moving.rounds:
            continue
        want = sorted(s.table for s in moving.sittings[number - 1])
        have = sorted(t.table for t in seated if t.round == number)
        if have != want:
            out.append(("error", f"round {number}", f"seats tables {have}; the movement plays tables {want}"))
    where = {t.table_id: (t.round, t.table, t.boards) for t in seated}
    found, checked = recheck_results(store, where)
    return out + found, checked


def recheck_results(store: EventStore, where: dict[int, tuple[int, int, tuple[int, ...]]]
                    ) -> tuple[list[tuple[str, str, str]], int]:
    """Every board result checked against its table (``where``: a table's id -> its round, number
    and boards), every typed score checked as a hand's score (:func:`hand_score_problem`: an older
    file may hold one no hand can make) and every board record replayed by domrec again, its deal
    the board's and its points the ones stored; the findings, and how many records were re-validated.  Duplicate pairs
    and duplicate teams (:mod:`tournament.event.duplicate_teams`) both check theirs here."""
    from domrec.reader import loads
    from domrec.validate import validate

    out: list[tuple[str, str, str]] = []
    boards_by_number = {b.number: b for b in boards(store)}
    checked = 0
    for r in sql.results(store):
        t = where.get(r["table_id"])
        place = f"round {t[0]} table {t[1]} board {r['board']}" if t else f"board {r['board']}"
        if t is None or r["board"] not in t[2]:
            out.append(("error", place, "a result of a board the table does not play"))
            continue
        text = sql.record_text(store, r["table_id"], r["board"])
        if text is None:  # a typed score: one some hand can make (an older file may hold one no hand can)
            table = store.table(t[0], t[1])
            said = None if table is None else hand_score_problem(
                store, table, {"NS": r["ns_points"], "EW": r["ew_points"]}, r["ended"])
            if said is not None:
                out.append(("error", place, f"the typed score NS {r['ns_points']}, EW {r['ew_points']} is one no "
                                            f"hand can make: {said}"))
            continue
        checked += 1
        try:
            record = loads(text)
            report = validate(record, place)
            if report.status != "valid":
                raise ResultRefused(f"the record is {report.status} again ({report.summary()})")
            bd.check_hand(boards_by_number[r["board"]], record, 1)
            got = {s: int((report.scores or {}).get(s, 0)) for s in PARTNERSHIP_SIDES}
            if (got["NS"], got["EW"]) != (r["ns_points"], r["ew_points"]):
                raise ResultRefused(f"the record scores NS {got['NS']}, EW {got['EW']}; stored NS {r['ns_points']}, "
                                    f"EW {r['ew_points']}")
        except Exception as e:  # any failure is a finding, never a crash of check
            out.append(("error", place, str(e)))
    return out, checked
