"""Records between JSON, JSON Lines and DGN, and claims filled in by the engine.

``domrec convert`` is a thin layer over these functions.  Reading goes
through the same readers as validation (so a record that cannot be read is
refused with the same message), and filling claims goes through the same
replay (an observer on :func:`domrec.validate.validate`), so a filled-in score
is the validator's own number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import attrs

from domrec import notation, output, reader
from domrec.errors import InputError, one_line
from domrec.games.base import HandOutcome, HandState, Match
from domrec.record import GameResult, Hand, HandResult, HandTexts, Move, Record, pretty_record, unstructure
from domrec.validate import Report, validate

FORMS = ("json", "jsonl", "dgn")


@attrs.frozen
class Item:
    """One record read for conversion: the record, or the report saying why it cannot be had."""

    label: str
    record: Record | None
    report: Report | None = None


def form_of(path: str) -> str | None:
    suffix = Path(path).suffix.lower()
    return {".json": "json", ".jsonl": "jsonl", ".dgn": "dgn"}.get(suffix)


def read_items(path: str, form: str | None = None, stdin: Any = None) -> Iterator[Item]:
    """Every record of ``path`` (``-``: standard input; ``form`` json/jsonl/dgn, else by suffix or content)."""
    for src in reader.iter_sources([path], stdin=stdin, stdin_form=form):
        if src.error is not None:
            from domrec.validate import unusable

            yield Item(src.label, None, unusable(src.label, src.error))
        elif src.form == "dgn" or form == "dgn":
            for game in notation.read_source(src):
                # A game read through the rules that stopped at a problem holds only part of the text.
                if game.record is None or game.report.status == "unusable" or not game.complete:
                    yield Item(game.report.source, None, game.report)
                else:
                    yield Item(game.report.source, game.record, game.report)
        else:
            try:
                yield Item(src.label, reader.loads(src.text, src.archive_line))
            except InputError as e:
                from domrec.validate import unusable

                yield Item(src.label, None, unusable(src.label, e))


#: How bad each verdict is, for the worst of a run (the exit code the command makes of it).
_SEVERITY = {"valid": 0, "invalid": 1, "unusable": 2}


def _worse(a: str, b: str) -> str:
    """The worse of two verdicts (any status not listed counts as unusable)."""
    return max(a, b, key=lambda status: _SEVERITY.get(status, 2))


@attrs.frozen
class Outcome:
    """What became of one record read for conversion: kept for the output (``record``) or left out
    (``None``), the verdict to tell of it (``report``, with ``said`` after its summary line: a
    record whose claims were filled only as far as its replay reached is kept, and told), and the
    line that says why it is not written as DGN (``refusal``).  ``status`` is the worst of them."""

    record: Record | None
    status: str = "valid"
    report: Report | None = None
    said: str = ""
    refusal: str | None = None


def outcomes(path: str, from_: str | None, form: str, fill_claims: bool = False) -> Iterator[Outcome]:
    """What becomes of each record of ``path`` converted to ``form`` (``domrec convert``'s reading,
    one record at a time, so that what is told of each is told as it is read)."""
    for item in read_items(path, from_ or (form_of(path) if path != "-" else None)):
        if item.record is None:
            yield Outcome(None, item.report.status, item.report)
            continue
        record, told, status = item.record, None, "valid"
        if fill_claims:
            record, report = fill(record, item.label)
            if not report.valid:
                told, status = report, report.status
        said = " (claims filled only as far as the replay reached)" if told is not None else ""
        refused = dgn_refusal(record, item.label) if form == "dgn" else None
        if refused is None:
            yield Outcome(record, status, told, said)
        else:  # (left out, as JSON would keep it; too long a DGN text is no text domrec reads: unusable)
            yield Outcome(None, _worse(status, "unusable" if refused[1] else "invalid"), told, said, refused[0])


@attrs.define
class Conversion:
    """The records of one ``domrec convert`` run as they are read: those kept for the output, how
    many were left out, and the worst verdict met (which decides whether anything is written: a
    record that cannot be judged stops the whole output, one that breaks a rule is left out)."""

    records: list[Record] = attrs.Factory(list)
    left_out: int = 0
    worst: str = "valid"

    def take(self, outcome: Outcome) -> None:
        if outcome.record is not None:
            self.records.append(outcome.record)
        else:
            self.left_out += 1
        self.worst = _worse(self.worst, outcome.status)

    @property
    def writes(self) -> bool:
        """Whether the output is written: some record to write, and none that could not be judged."""
        return bool(self.records) and self.worst != "unusable"

    def written(self, output: str) -> str | None:
        """The line said once the output is written, where records were left out of it (each told
        above, as it was read): a file that lacks some of its input's games must say so.  None when
        every record read was written: nothing then needs saying."""
        if not self.left_out:
            return None
        where = "standard output" if output == "-" else one_line(output)
        count = len(self.records)
        return (f"{where}: {count:,} record{'s' if count != 1 else ''} written, {self.left_out:,} left out "
                f"(invalid, above)")


class _Claims:
    """Watches a replay and keeps every computed number a record can claim."""

    def __init__(self) -> None:
        self.points: dict[int, list[int]] = {}
        self.outcomes: dict[int, HandOutcome] = {}

    def hand_started(self, index: int, hand: Hand, state: HandState) -> None:
        self.points[index] = []

    def moved(self, index: int, move: Move, points: int, state: HandState) -> None:
        self.points[max(self.points)].append(points)

    def hand_finished(self, index: int, outcome: HandOutcome, match: Match) -> None:
        self.outcomes[index] = outcome


def fill(record: Record, source: str = "<record>") -> tuple[Record, Report]:
    """``record`` with every claim the engine computes written in: move scores (where the game
    scores moves as they are made), each finished hand's result, and the game's result once over.

    Claims already written are replaced by the computed ones only where the replay reached
    them; the report is the verdict on the record as it was given."""
    from domrec import games

    watch = _Claims()
    report = validate(record, source, observer=watch)
    scores_moves = games.engine(record.game).scores_moves
    hands = list(record.hands)
    for i, hand in enumerate(hands):
        if hand.score_sheet:
            continue
        moves = hand.moves
        if i in watch.points:
            # Games that score moves get every move's points; in the others a move earns
            # nothing, so only a claim already written is corrected (to 0), none is added.
            pts = watch.points[i]
            moves = tuple(attrs.evolve(m, score=pts[j]) if j < len(pts) and (scores_moves or m.score is not None)
                          else m for j, m in enumerate(moves))
        result = hand.result
        if i in watch.outcomes:
            out = watch.outcomes[i]
            result = HandResult(scores=dict(out.scores), end=out.end)
        hands[i] = attrs.evolve(hand, moves=moves, result=result)
    result = record.result
    if report.finished:
        result = GameResult(scores=dict(report.scores or {}), winner=report.winner)
    return attrs.evolve(record, hands=tuple(hands), result=result), report


def reads_back(record: Record, source: str = "<record>") -> bool:
    """Whether ``record`` written as DGN reads back as itself: always for a valid record; an invalid
    one is written, read again through the rules and compared (its verdict and each problem's
    message), because a DGN text is read move by move through the engine and an invalid move may
    leave the rest of the text unreadable (``domrec convert`` refuses such a record to DGN)."""
    report = validate(record, source)
    if report.valid:
        return True
    try:
        games = list(notation.read_games(text_of([record], "dgn").encode("utf-8"), source))
    except InputError:
        return False
    if len(games) != 1 or games[0].report is None:
        return False
    back = games[0].report
    return back.status == report.status and [p.message for p in back.problems] == [p.message for p in report.problems]


def text_of(records: list[Record], form: str, kept: HandTexts | None = None) -> str:
    """The records written in ``form``: one pretty JSON document, JSON Lines, or DGN games
    separated by a blank line.  ``kept``: the hands' texts of one game's earlier writes, for a
    writer that saves the same game again and again (:class:`~domrec.record.HandTexts`)."""
    if form == "json":
        if len(records) != 1:
            raise InputError(f"a .json file holds one record, and there are {len(records)}: write .jsonl or .dgn")
        return pretty_record(records[0], kept) + "\n"
    if form == "jsonl":
        return "".join(json.dumps(unstructure(r), separators=(",", ":"), ensure_ascii=False) + "\n"
                       for r in records)
    return "\n".join(notation.dumps(r, kept) for r in records)


def dgn_refusal(record: Record, label: str) -> tuple[str, bool] | None:
    """Why ``record`` is not written as DGN, in words, and whether that makes it unusable (exit 2)
    rather than invalid (exit 1); None when it is written.  Its DGN longer than
    :data:`~domrec.reader.MAX_DGN_GAME_BYTES`, the most domrec reads as one game of DGN, would be
    written and then refused by every reader of domrec (docs/format.md, "Limits"): unusable as
    DGN, while JSON holds it.  An invalid record whose DGN would read back as another verdict
    (unusable, other problems: :func:`reads_back`) is left out as a DGN game read up to a broken
    rule is: invalid."""
    shown = one_line(label)
    size = len(text_of([record], "dgn").encode("utf-8", "surrogatepass"))
    if size > reader.MAX_DGN_GAME_BYTES:
        return (f"{shown}: this record written as DGN would be {size:,} bytes, more than "
                f"{reader.size_text(reader.MAX_DGN_GAME_BYTES)}, the most domrec reads as one game of DGN, so it "
                f"could not be read back; keep it as JSON (convert to .json or .jsonl)"), True
    if not reads_back(record, label):
        return (f"{shown}: this invalid record written as DGN would not read back as the same record with the "
                f"same problems, so it is left out; convert it to JSON instead"), False
    return None


def write_text(path: str, text: str, force: bool = False) -> None:
    """Records written to ``path`` by :mod:`domrec.output`'s rules: whole or not at all, never
    over a link, a folder, a device, a FIFO or a database, and over an existing file only with
    ``force`` (a record is somebody's game)."""
    output.write_text(path, text, output.RECORDS, force)
