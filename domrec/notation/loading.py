"""DGN texts to records and verdicts: :func:`read_games` and :func:`loads`.

Each game of an archive (:func:`~domrec.notation.tokens.split_games`) is read
on its own (:mod:`domrec.notation.reading`), made JSON data as written or
through the Game API (:mod:`domrec.notation.through_game`), then loaded and
validated exactly as a JSON record is (:mod:`domrec.reader`,
:mod:`domrec.validate`).  Every problem found is placed at its ``line:column``
(:mod:`domrec.notation.positions`); a game that cannot be read is reported as
unusable and the others are still checked.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import attrs

from domrec import games
from domrec.errors import InputError, RuleViolation
from domrec.notation.positions import _Positions
from domrec.notation.reading import _numbers_read, _Reader
from domrec.notation.seat_hints import with_seat_hints
from domrec.notation.straight import read as read_straight
from domrec.notation.through_game import _as_written, _needs_game, _through_game
from domrec.notation.tokens import NotationError, decode, split_games
from domrec.reader import MAX_DGN_GAME_BYTES, GameTooLongError
from domrec.record import Record
from domrec.shape import unknown_game
from domrec.validate import Problem, Report, unusable, validate


@attrs.frozen
class DgnGame:
    """One game read from DGN: its record (``None`` if unreadable), the verdict, and where things are."""

    record: Record | None
    report: Report
    first_line: int
    #: False when reading through the rules stopped at a problem: the record holds only
    #: the text up to it (enough to report it, not to convert it).
    complete: bool = True


def _read_chunk(text: str, first_line: int, source: str) -> DgnGame:
    r = _Reader(text, first_line)
    try:
        with _numbers_read(r.src):
            r.parse()
    except NotationError as e:
        game = r.doc.get("game")
        # (header lines that could not be read are kept before the one that stops the game)
        report = _located(source, e, game if isinstance(game, str) else None)
        said = _in_line_order(tuple(map(_notation_problem, r.errors)) + report.problems)
        return DgnGame(None, attrs.evolve(report, problems=said), first_line)
    except InputError as e:
        return DgnGame(None, unusable(source, e), first_line)
    try:
        games.engine(r.doc["game"]) if r.doc["game"] in games.MODULES else None
    except InputError as e:
        return DgnGame(None, _with_position(unusable(source, e), r.pos), first_line)
    if r.doc["game"] not in games.MODULES:
        e = InputError(unknown_game(str(r.doc["game"])), "/game")
        return DgnGame(None, _with_position(unusable(source, e, r.doc["game"]), r.pos), first_line)
    game = _finish(r, source, first_line)
    # (the seats the text left out are known here, in the text as read: docs/notation.md)
    report = with_seat_hints(game.report, r.hands, r.seats, r.src, game.record)
    return attrs.evolve(game, report=_in_text_order(report))


def _in_text_order(report: Report) -> Report:
    """The report's problems the first one first (docs/notation.md, "Every problem in one pass"):
    the notation errors as they are (in the order of the text), then what the rules found, hand
    by hand and, within a hand, in the order of the text (line:column).  The one-pass reading
    finds a hand's tiles checked after the move that stopped its replay (``6-5 at 17:65 … left S
    also lists it`` after ``17:69: 6-2 fits neither end``), and a hand's claimed scores after
    the later hands it judged; each is put back where the text has it.  The problems of no hand
    keep the validator's order: the game's ``[Scores]`` and ``[Winner]`` after the hands (they
    sum them up), anything else before them.  One with no place in the text comes after the
    placed ones of its hand."""
    problems = report.problems
    if len(problems) < 2:
        return report
    said = _in_line_order(tuple(p for p in problems if p.kind == "input"))
    rules = [p for p in problems if p.kind != "input"]

    def key(p: Problem) -> tuple:
        if p.hand is None:
            return (float("inf") if p.pointer.startswith("/result") else 0, False, 0, 0)
        return (p.hand, p.line is None, p.line or 0, p.column or 0)

    ordered = said + tuple(sorted(rules, key=key))
    return report if ordered == problems else attrs.evolve(report, problems=ordered)


def _in_line_order(said: tuple[Problem, ...]) -> tuple[Problem, ...]:
    """Notation errors in the order of the text's lines: the reader finds some of them only once
    the header is read (an unknown tag, said after a line of the header below it that is not a
    tag), and docs/notation.md lists them as the text has them.  Within a line they stay as
    found: the one that stopped the line (a comment left open at 14:3) comes before what it
    caused to its left (``seat W is not followed by a move`` at 14:1).  One with no place comes
    after the placed ones, as found."""
    return tuple(sorted(said, key=lambda p: (p.line is None, p.line or 0)))


def _finish(r: _Reader, source: str, first_line: int) -> DgnGame:
    from domrec.reader import load_dict

    def load(doc: dict, positions: _Positions) -> Record | Report:
        try:
            return load_dict(doc)
        except InputError as e:
            return _with_position(unusable(source, e, r.doc["game"]), positions)

    as_written: DgnGame | None = None
    read_before = None
    if not r.errors and not _needs_game(r):
        record = load(_as_written(r), r.pos)
        if isinstance(record, Report):
            return DgnGame(None, record, first_line)
        report = validate(record, source)
        as_written = DgnGame(record, _with_position(report, r.pos), first_line)
        if not any(p.kind == "illegal" for p in report.problems):
            return as_written
        # Read again through the Game: a move written with its seat may have left out a
        # forced pass before it.  If that reading stops at a problem too, the text as written
        # is the faithful record, and its verdict stands.
        r = _Reader(r.src.text, r.src.first_line)
        r.parse()
    else:
        straight = read_straight(r, source)  # (a typed text that leaves no choice, or few: most are)
        if type(straight) is tuple:
            return DgnGame(straight[0], _with_position(straight[1], r.pos), first_line)
        read_before = straight
    #: The text's notation errors, first in any verdict (in the order of the text).
    said = tuple(map(_notation_problem, r.errors))
    try:
        doc, problems, note = _through_game(r, read_before)
    except RuleViolation as e:  # a setup problem (players, options) found when starting the game
        report = Report(source, r.doc["game"], "unusable" if said else "invalid",
                        said + (Problem(e.pointer, e.message, e.rule, "setup"),))
        return DgnGame(None, _with_position(report, r.pos), first_line)
    except InputError as e:
        report = unusable(source, e, r.doc["game"])
        return DgnGame(None, _with_position(attrs.evolve(report, problems=said + report.problems), r.pos),
                       first_line)
    if problems and as_written is not None:
        return _with_later(as_written, _with_position(Report(source, r.doc["game"], "invalid", tuple(problems),
                                                             note=note), r.pos))
    if r.errors:
        # The text could not be read in full: unusable, its notation errors first (in the order of
        # the text), then what the rules and the tiles found around them (docs/notation.md).
        if r.gave_up:
            note = "; ".join(x for x in (f"reading stopped after {len(r.errors)} notation errors: the rest of "
                                         f"the text was not read", note) if x)
        report = Report(source, r.doc["game"], "unusable", said + tuple(problems), note=note)
        return DgnGame(None, _with_position(report, r.pos), first_line, complete=False)
    record = load(doc, r.pos)
    if problems:
        # Reading met a rule problem: that problem is the verdict, with every other one found in
        # the same pass (_through_game).  What the partial record says beyond the first (a hand
        # without its deal, a game not over) is no news.
        report = Report(source, r.doc["game"], "invalid", tuple(problems), note=note)
        if not isinstance(record, Report):
            # How far the text went, counted as a JSON record's replay counts it (the hands and
            # moves up to the broken one, the totals before it): it said 0 hands, 0 moves.
            so_far, first = validate(record, source), problems[0]
            report = attrs.evolve(report, scores=so_far.scores, hands=max(so_far.hands, first.hand or 0),
                                  moves=so_far.moves + (first.move is not None))
        return DgnGame(None if isinstance(record, Report) else record, _with_position(report, r.pos),
                       first_line, complete=False)
    if isinstance(record, Report):
        return DgnGame(None, record, first_line)
    report = validate(record, source)
    if note:  # how the reader read what the text left open (docs/notation.md)
        report = attrs.evolve(report, note="; ".join(n for n in (note, report.note) if n))
    return DgnGame(record, _with_position(report, r.pos), first_line)


def _with_later(as_written: DgnGame, read: Report) -> DgnGame:
    """The verdict on a text typed in full (every seat, every deal) that breaks a rule: the record
    as written and its problems, then what the one-pass reading (:func:`_through_game`) found
    after the hand of its first rule problem (the later hands replayed from their own start,
    the rest of that hand checked for its tiles), with that reading's note, which says how.
    Where the two readings part at the first problem (a forced pass left out), the text as
    written stands alone."""
    report = as_written.report
    first = next((p for p in report.problems if p.kind == "illegal"), None)
    other = next((p for p in read.problems if p.kind == "illegal"), None)
    if first is None or other is None or first.hand is None or (first.hand, first.line, first.column) != (
            other.hand, other.line, other.column):
        return as_written
    seen = {(p.line, p.column, p.message) for p in report.problems}
    later = tuple(p for p in read.problems if (p.line, p.column, p.message) not in seen and p.hand is not None and (
        p.hand > first.hand or (p.hand == first.hand and p.rule in ("the set", "the deal"))))
    if not later and not read.note:
        return as_written
    return attrs.evolve(as_written, report=attrs.evolve(report, problems=report.problems + later, note=read.note))


def _with_position(report: Report, positions: _Positions) -> Report:
    return attrs.evolve(report, problems=tuple(positions.place(p) for p in report.problems))


def _located(source: str, e: NotationError, game: str | None) -> Report:
    return Report(source, game, "unusable", (_notation_problem(e),))


def _notation_problem(e: NotationError) -> Problem:
    """A notation error as a problem of the report, where it is (line:column, hand and move)."""
    return Problem(e.pointer, e.message, "", "input", line=e.line, column=e.column, hand=e.hand, move=e.move)


def read_games(data: bytes | str, source: str = "<dgn>", first_line: int = 1) -> Iterator[DgnGame]:
    """Every game of a DGN text, each read and judged on its own.

    A file of one game is labelled ``source``; games of an archive
    ``source:LINE`` (the line their header starts on).  ``first_line``: the line of its file
    the text starts on (a game the reader cut from an archive: :func:`domrec.reader.dgn_sources`)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if data.count(b"\r") != data.count(b"\r\n"):
        data = lone_cr_as_lf(data)
    chunks = split_games(data)
    for chunk in chunks:
        label = source if len(chunks) == 1 else f"{source}:{chunk.first_line + first_line - 1}"
        if first_line != 1:
            chunk = attrs.evolve(chunk, first_line=chunk.first_line + first_line - 1)
        if len(chunk.data) > MAX_DGN_GAME_BYTES:
            too_long = GameTooLongError(len(chunk.data), chunk.first_line)
            yield DgnGame(None, unusable(label, too_long), chunk.first_line)
            continue
        try:
            text = decode(chunk)
        except NotationError as e:
            yield DgnGame(None, _located(label, e, None), chunk.first_line)
            continue
        yield _read_chunk(text, chunk.first_line, label)


def lone_cr_as_lf(data: bytes) -> bytes:
    """A carriage return not followed by a line feed read as a line's end, as every editor shows
    it: a text saved with an old Mac's line ends (CR alone) is read line by line, not as one line
    whose first tag never closes.  One byte for one, so every offset, and so every column, stays
    where it was, and the lines are those the editor shows.  (CRLF is left to :func:`decode`.)"""
    return _LONE_CR.sub(b"\n", data)


_LONE_CR = re.compile(rb"\r(?!\n)")


def read_source(src: Any) -> Iterator[DgnGame]:
    """The games of a DGN source of :func:`domrec.reader.iter_sources` (a game of a ``.dgn``
    archive, or a text of games), read where its file has it."""
    return read_games(src.text, src.label, src.first_line)


def loads(text: str | bytes) -> Record:
    """The one game of a DGN text as a record; :class:`InputError` if it cannot be read, and
    :class:`~domrec.errors.RuleViolation` carrying the first problem if reading needed the rules
    (seats, forced passes, the deal) and they were broken."""
    found = list(read_games(text))
    if len(found) != 1:
        raise InputError(f"the text holds {len(found)} games; read them with read_games")
    game = found[0]
    if game.record is None or not game.complete:
        p = game.report.problems[0]
        if p.kind == "input":
            raise NotationError(p.message, p.line or 0, p.column or 0, p.pointer)
        raise RuleViolation(p.message, p.rule, p.pointer)
    return game.record
