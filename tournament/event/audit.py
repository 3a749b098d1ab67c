"""The audit trail of an event: every result that was replaced, by whom, when, why, old and new.

A result is never edited in place.  A correction (``tournament amend``, or ``tournament result
--replace``) moves the old result, record and all, into ``result_audit`` and stores the new one,
in one transaction; the standings are computed from the current results every time, so they
follow at once.  This module reads the trail back as :class:`Change` values (``tournament
history``) and holds the two small rules about who is named in it.

Who: the name the director gives (``--by``), else the login name of the account running the
command (``$USER``, ``$LOGNAME``, …, as :func:`getpass.getuser` finds it) — a club laptop shared
by the desk has one login, so ``--by`` is there to name the person.  When: UTC, to the second.
"""

from __future__ import annotations

import getpass
import json
import unicodedata
from typing import Any

import attrs

from tournament.errors import UnusableInput
from tournament.names import bidi_controls
from tournament.store.event_store import EventStore
from tournament.values import FORFEIT_NOTE, forfeit_players

#: The longest ``--by`` and ``--reason`` accepted (docs/tournament.md, "Limits").
MAX_TEXT = 1000
UNKNOWN = "unknown"


def default_author() -> str | None:
    """The login name of the account running the command, if the system knows one."""
    try:
        name = getpass.getuser()
    except Exception:  # no such variable and no password entry (a container with a bare uid)
        return None
    return name.strip() or None


def clean_text(text: str | None, what: str) -> str | None:
    """A name or reason for the trail: one line of printable text (it is shown one change a
    line), at most :data:`MAX_TEXT` characters; empty means not given."""
    if text is None:
        return None
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        return None
    if len(text) > MAX_TEXT:
        raise UnusableInput(f"{what} is {len(text)} characters long; at most {MAX_TEXT} are kept in the audit trail")
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Zl", "Zp")), None)
    if bad is not None:
        raise UnusableInput(f"{what} contains a line break or control character (U+{ord(bad):04X}); the audit "
                            f"trail keeps one line of text")
    controls = bidi_controls(text)
    if controls:  # (as in names: a right-to-left override would show the reason in another order)
        raise UnusableInput(f"{what} contains direction-control characters ({', '.join(controls)}): type the "
                            f"text as it reads; right-to-left words show in their own order without them")
    return text


@attrs.frozen
class Values:
    """A result as the trail shows it."""

    id: int | None
    kind: str
    verified: bool
    scores: dict[str, int]
    winner: str | None
    record_hash: str | None
    #: A forfeit: who did not play, as the line says them (the sides, or the players by name): a
    #: side's forfeit and a player's can have the same scores, and are other results.
    absent: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: dict[str, Any], names: dict[int, str] | None = None) -> "Values":
        scores = row.get("scores")
        if isinstance(scores, str):
            try:
                scores = json.loads(scores)
            except ValueError:
                scores = {}
        note = row.get("note") if isinstance(row.get("note"), str) else None
        absent: tuple[str, ...] = ()
        if row.get("kind") == "forfeit" and note:
            if note.startswith(FORFEIT_NOTE):
                absent = tuple(x.strip() for x in note[len(FORFEIT_NOTE):].split(",") if x.strip())
            else:
                absent = tuple((names or {}).get(p, f"#{p}") for p in forfeit_players(note))
        return cls(row.get("id"), str(row.get("kind")), bool(row.get("verified")),
                   scores if isinstance(scores, dict) else {}, row.get("winner"), row.get("record_hash"), absent)

    def ordered_scores(self) -> list[tuple[str, int]]:
        """Sides in seating order: NS before EW, P2 before P10 (stored JSON has its keys sorted)."""
        return sorted(self.scores.items(), key=lambda kv: (kv[0] != "NS", kv[0] != "EW", len(kv[0]), kv[0]))

    def text(self) -> str:
        scores = ", ".join(f"{k} {v}" for k, v in self.ordered_scores())
        won = f"winner {self.winner}" if self.winner else "a draw"
        how = f"record {self.record_hash[:12]}" if self.kind == "record" and self.record_hash else self.kind
        if self.absent:
            how = f"forfeit: {', '.join(self.absent)} did not play"
        return f"{scores}; {won} ({how})"

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "verified": self.verified, "scores": dict(self.ordered_scores()),
               "winner": self.winner, "record_hash": self.record_hash}
        if self.absent:
            out["absent"] = list(self.absent)
        return out


@attrs.frozen
class Change:
    """One line of the trail: a result of round ``round`` table ``table`` replaced."""

    id: int
    when: str
    by: str
    round: int | None
    table: int | None
    reason: str | None
    old: Values
    new: Values | None
    #: The result was taken back (``tournament clear``): nothing replaced it.
    cleared: bool = False

    def text(self) -> str:
        where = f"round {self.round} table {self.table}" if self.round is not None else "a table no longer there"
        new = self.new.text() if self.new is not None else "cleared (no result)" if self.cleared else "(missing)"
        why = f" — {self.reason}" if self.reason else ""
        return f"{self.when}  {where}  by {self.by}: {self.old.text()} → {new}{why}"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "when": self.when, "by": self.by, "round": self.round, "table": self.table,
                "reason": self.reason, "old": self.old.to_dict(),
                "new": self.new.to_dict() if self.new is not None else None, "cleared": self.cleared}

    def csv_row(self) -> dict[str, Any]:
        """One CSV row; scores written as ``--score`` takes them (``NS=200,EW=143``)."""
        def scores(v: Values | None) -> str:
            return ",".join(f"{k}={n}" for k, n in v.ordered_scores()) if v is not None else ""
        row = {"id": self.id, "when": self.when, "by": self.by, "round": self.round, "table": self.table,
               "old_kind": self.old.kind, "old_scores": scores(self.old), "old_winner": self.old.winner,
               "old_record_hash": self.old.record_hash,
               "new_kind": self.new.kind if self.new else None, "new_scores": scores(self.new),
               "new_winner": self.new.winner if self.new else None,
               "new_record_hash": self.new.record_hash if self.new else None, "reason": self.reason}
        return {c: row[c] for c in CSV_COLUMNS}


CSV_COLUMNS = ("id", "when", "by", "round", "table", "old_kind", "old_scores", "old_winner", "old_record_hash",
               "new_kind", "new_scores", "new_winner", "new_record_hash", "reason")


def history(store: EventStore) -> list[Change]:
    """The whole trail, oldest change first.  Rows written before schema 3 carry no name (shown
    as "unknown") and no new values: those are looked up (the current result, or the old values
    of the later change that replaced it in turn)."""
    rows = store.audit()
    where = {t.id: (t.round, t.number) for t in store.tables()}
    names = {p.id: p.name for p in store.players()} if rows else {}
    olds = {}
    for r in rows:
        try:
            olds[r["id"]] = json.loads(r["old_result"])
        except (TypeError, ValueError):
            olds[r["id"]] = {}
    by_result = {o.get("id"): o for o in olds.values() if isinstance(o, dict)}
    out = []
    for r in rows:
        new: Values | None = None
        if r["new_result"]:
            try:
                new = Values.from_row(json.loads(r["new_result"]), names)
            except (TypeError, ValueError):
                new = None
        if new is None and r["new_result_id"] is not None:
            row = store.result_row(r["new_result_id"]) or by_result.get(r["new_result_id"])
            new = Values.from_row(row, names) if row else None
        rnd, tno = where.get(r["table_id"], (None, None))
        out.append(Change(r["id"], r["replaced_at"], r["changed_by"] or UNKNOWN, rnd, tno, r["reason"],
                          Values.from_row(olds[r["id"]] if isinstance(olds[r["id"]], dict) else {}, names), new,
                          cleared=r["new_result_id"] is None and not r["new_result"]))
    return out


@attrs.frozen
class DeskChange:
    """One line of the desk's trail (:mod:`tournament.event.desk`, :mod:`tournament.event.roster`):
    a paired round or the player list changed."""

    id: int
    when: str
    by: str
    action: str
    round: int | None
    detail: dict[str, Any]
    reason: str | None

    #: Player number -> name, to tell a change in words (:func:`desk_history` fills it in).
    names: dict[int, str] = attrs.field(factory=dict, eq=False, repr=False)
    #: A pairs event: player number -> their pair's number, the one number it shows (docs/tournament.md).
    pairs: dict[int, int] = attrs.field(factory=dict, eq=False, repr=False)

    def text(self) -> str:
        shown = self.filed_under()
        where = f"round {shown}  " if shown is not None else ""
        why = f" — {self.reason}" if self.reason else ""
        return f"{self.when}  {where}by {self.by}: {self.sentence()}{why}"

    def filed_under(self) -> int | None:
        """The round the trail's line is said under: the round the change takes effect from (kept
        as ``round``), but a duplicate pair's withdrawal that left the rest of the round in play
        (boards of it marked not played) happened in that round, so it is said under it (it was
        filed under the next: ``round 2 … withdrew the pair Lobos from the rest of round 1``)."""
        if self.action == "pair_withdrawn" and _rest_of(self.detail.get("not_played"), self.round):
            return (self.round or 1) - 1
        return self.round

    def sentence(self) -> str:
        """The change in words ("kept Ana (#1) and Kim (#11) apart for the rest of the event"),
        never the stored values as they are (``players [1, 11], through_round null``)."""
        d = self.detail

        def who(number: Any) -> str:
            name = self.names.get(number) if isinstance(number, int) else None
            if name and number in self.pairs:
                return f"{name} (pair #{self.pairs[number]})"
            return f"{name} (#{number})" if name else f"#{number}"

        def both(numbers: Any) -> str:
            return " and ".join(who(n) for n in numbers) if isinstance(numbers, list) else str(numbers)

        player = who(d["player"]) if "player" in d else d.get("name", "")
        said = {
            "player_withdrawn": lambda: f"withdrew {player} from round {self.round} on",
            "pair_withdrawn": lambda: f"withdrew the pair {d.get('name', '')} from "
                                      + _rest_of(d.get("not_played"), self.round) + f"round {self.round} on"
                                      + _marks_said(d.get("not_played"), "; not played for its opponents: "),
            "team_withdrawn": lambda: f"withdrew the team {d.get('name', '')} from round {self.round} on",
            "player_returned": lambda: f"{player} back from round {self.round} (withdrawn from round "
                                       f"{d.get('withdrawn_from')})",
            # (by its name, as its withdrawal: a pair's id is not the number the pages show it by;
            # a line written before the name was kept gives the id)
            "pair_returned": lambda: f"the pair {d.get('name') or '#' + str(d.get('pair'))} back from round "
                                     f"{self.round}" + _marks_said(d.get("cleared"), "; to play again, no longer "
                                                                   "marked not played: "),
            "withdrawn_pair_not_played": lambda: f"table {d.get('table')} board"
                                                 f"{'s' if len(d.get('boards') or []) > 1 else ''} "
                                                 f"{_plain(d.get('boards'))}: not played (the pair "
                                                 f"{d.get('name')} has withdrawn)",
            "player_renamed": lambda: f"renamed #{d.get('player')} {d.get('old')} to {d.get('name')}",
            "pair_renamed": lambda: f"renamed the pair {d.get('old')} to {d.get('name')}",
            "player_removed": lambda: f"removed {d.get('name')} (#{d.get('player')})",
            "pair_removed": lambda: f"removed the pair {d.get('name')}",
            "sitting_out": lambda: f"{player} sits out round {self.round}",
            "sit_out_lifted": lambda: f"{player} plays round {self.round} after all",
            "player_id_set": lambda: f"{player}'s federation id set to {d.get('id')}",
            "round_unpaired": lambda: f"un-paired round {self.round} ({d.get('tables')} tables, "
                                      f"{len(d.get('byes') or [])} byes)",
            "pinned": lambda: f"pinned {player} to table {d.get('table')}",
            "unpinned": lambda: f"{player} no longer pinned to a table",
            "kept_apart": lambda: f"kept {both(d.get('players'))} apart " + (
                f"through round {d['through_round']}" if d.get("through_round") else "for the rest of the event"),
            "apart_lifted": lambda: f"{both(d.get('players'))} may meet again",
            "seats_swapped": lambda: "changed seats: " + "; ".join(
                " with ".join(who(n) for n in m) if isinstance(m, list) else who(m) for m in d.get("players") or [])
                + f" (tables {', '.join(map(str, d.get('tables') or []))})",
            "player_moved": lambda: "; ".join(
                f"moved {who(m[0])} to the seat of {who(m[1])}, who took their place" for m in d.get("players") or []
                if isinstance(m, list) and len(m) == 2) + f" (tables {', '.join(map(str, d.get('tables') or []))})",
            "result_accepted": lambda: f"accepted the manual score of table {d.get('table')} ("
                                       + ", ".join(f"{k} {v}" for k, v in (d.get("scores") or {}).items()) + ")",
            "forfeit_entered": lambda: f"a forfeit at table {d.get('table')}: "
                                       f"{', '.join(map(str, d.get('absent') or []))} did not play",
            "board_replaced": lambda: f"table {d.get('table')} board {d.get('board')}: "
                                      f"{_board_change(d.get('was'), d.get('now'), 'replaced by')}",
            "board_entered_over_play": lambda: f"table {d.get('table')} board {d.get('board')}: "
                                               f"{_board_points(d.get('now'))} "
                                               f"({_BOARD_HOW.get((d.get('now') or {}).get('how'), '?')}) entered "
                                               f"over the hand its phone was playing",
            "result_entered_over_play": lambda: f"table {d.get('table')}: " + (
                f"a forfeit, {', '.join(map(str, d['absent']))} did not play ({_pairs_said(d.get('now'))})"
                if d.get("absent") else
                f"{_pairs_said(d.get('now'))} ({_GAME_HOW.get(d.get('kind'), d.get('kind'))})") +
                f" entered over the game in progress on its phone ({_game_said(d.get('over'))})",
            "board_corrected": lambda: f"corrected table {d.get('table')} board {d.get('board')}: "
                                       f"{_board_points(d.get('was'))} → {_board_points(d.get('now'))}",
            "board_not_played": lambda: f"table {d.get('table')} board {d.get('board')}: not played" + (
                f" (marked over the hand {_tables_said(d.get('over_play'))} phone was playing)"
                if d.get("over_play") else ""),
            "board_cleared": lambda: f"took back table {d.get('table')} board {d.get('board')}: " + (
                "its mark 'not played'" if d.get("was") == "not played" else
                f"{_board_points(d.get('was'))} ({_BOARD_HOW.get((d.get('was') or {}).get('how'), '?')})"),
            "board_played_after_all": lambda: f"table {d.get('table')} board {d.get('board')}: played after all, "
                                              f"{_board_points(d.get('now'))}",
            "result_change_of_unpaired_table": lambda: f"table {d.get('table')}'s result was taken back before "
                                                       f"its round was un-paired (the old result is kept here)",
        }.get(self.action)
        if said is not None:
            try:
                return said()
            except (TypeError, ValueError, AttributeError):
                pass
        words = self.action.replace("_", " ")
        parts = [f"{k.replace('_', ' ')} {_plain(v)}" for k, v in sorted(d.items())
                 if v is not None and k not in ("old_result", "new_result")]
        return words + (f" ({', '.join(parts)})" if parts else "")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "when": self.when, "by": self.by, "action": self.action, "round": self.round,
                "detail": self.detail, "reason": self.reason}


#: How a game's result entered over its phone's game was had, in words (``result_entered_over_play``).
_GAME_HOW = {"manual": "typed score", "record": "a record", "forfeit": "forfeit"}


def _pairs_said(pairs: Any) -> str:
    """Sides and points kept in seat order (``[["NS", 10], ["EW", 2]]``) as ``NS 10, EW 2``."""
    return ", ".join(f"{side} {n}" for side, n in pairs) if isinstance(pairs, list) else "?"


def _game_said(over: Any) -> str:
    """The game a result was entered over, as the trail says it: ``in hand 3, NS 40, EW 30 so far``
    (``after hand 2``: between hands).  A phone with only its first line (``hand 1``, a lead draw,
    a deal: no hand closed, none in play) is ``at hand 1, before its first move``: it said ``after
    hand 0, NS 0, EW 0 so far``."""
    if not isinstance(over, dict):
        return "?"
    if not over.get("in_hand") and not over.get("hand"):
        return "at hand 1, before its first move"
    at = f"in hand {over.get('hand')}" if over.get("in_hand") else f"after hand {over.get('hand')}"
    return f"{at}, {_pairs_said(over.get('totals'))} so far"


def _rest_of(marks: Any, round_no: int | None) -> str:
    """``the rest of round 4 and from ``: a duplicate pair's withdrawal that marked boards of the
    round in play (the round before the one it is withdrawn from) left that round too."""
    if round_no and isinstance(marks, list) and any(isinstance(m, dict) and m.get("round") == round_no - 1
                                                    for m in marks):
        return f"the rest of round {round_no - 1} and from "
    return ""


def _tables_said(tables: Any) -> str:
    """``table 1's``, ``tables 1 and 2's``: whose phone's hand a mark took."""
    numbers = [str(n) for n in tables or []]
    return (f"table {numbers[0]}'s" if len(numbers) == 1 else f"tables {' and '.join(numbers)}'")


def _marks_said(marks: Any, lead: str) -> str:
    """The boards a pair's withdrawal marked not played (or its return took back), after ``lead``:
    ``round 2 table 3 boards 5, 6``; nothing where there are none."""
    if not marks or not isinstance(marks, list):
        return ""
    return lead + "; ".join(f"round {m['round']} table {m['table']} board{'s' if len(m['boards']) > 1 else ''} "
                            f"{', '.join(map(str, m['boards']))}" for m in marks)


def _plain(value: Any) -> str:
    """A stored value as a person reads it: a list as "1, 11", nothing as "none"."""
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return "none" if value is None else str(value)


def desk_history(store: EventStore) -> list[DeskChange]:
    """The desk's trail, oldest change first (empty for a file without one), its players named."""
    from tournament.store import desk

    names = {p.id: p.name for p in store.players()}
    pairs = ({p.id: p.team for p in store.players() if p.team is not None}
             if store.settings.format == "pairs" else {})
    return [DeskChange(r["id"], r["at"], r["by"] or UNKNOWN, r["action"], r["round"], r["detail"], r["reason"],
                       names, pairs)
            for r in desk.trail(store)]


@attrs.frozen
class Entered:
    """A result as first entered: who typed it (or which phone sent it), when, what kind."""

    round: int
    table: int
    when: str
    by: str
    kind: str

    def text(self) -> str:
        return f"{self.when}  round {self.round} table {self.table}  entered by {self.by} ({self.kind})"

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "when": self.when, "by": self.by, "kind": self.kind}


def first_entries(store: EventStore) -> list[Entered]:
    """Each table's result as first entered, in round and table order: the result there now, or,
    for one replaced since, the oldest result the trail keeps (its author as stored with it;
    results entered before this was kept say "unknown")."""
    from tournament.store import entries

    first: dict[tuple[int, int], Entered] = {}
    for row in entries.entries(store):
        first[(row["round"], row["table"])] = Entered(int(row["round"]), int(row["table"]), str(row["at"]),
                                                      str(row["by"] or UNKNOWN), str(row["kind"]))
    where = {t.id: (t.round, t.number) for t in store.tables()}
    for r in reversed(store.audit()):  # newest first: the oldest replaced result is written last
        try:
            old = json.loads(r["old_result"])
        except (TypeError, ValueError):
            continue
        at = where.get(r["table_id"])
        if at is None or not isinstance(old, dict):
            continue
        first[at] = Entered(at[0], at[1], str(old.get("entered_at") or "?"), str(old.get("entered_by") or UNKNOWN),
                            str(old.get("kind") or "?"))
    return [first[k] for k in sorted(first)]


@attrs.frozen
class BoardEntered:
    """A duplicate board's result as first entered: a duplicate event has no table result to show
    (``--entered`` said "no result has been entered"), its results are the boards'."""

    round: int
    table: int
    board: int
    when: str
    by: str
    kind: str

    def text(self) -> str:
        return (f"{self.when}  round {self.round} table {self.table} board {self.board}  "
                f"entered by {self.by} ({self.kind})")

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "board": self.board, "when": self.when, "by": self.by,
                "kind": self.kind}


def first_board_entries(store: EventStore) -> list[BoardEntered]:
    """Each duplicate board result as first entered, in round, table and board order: the result
    there now, or, for one replaced or taken back since, the oldest the trail keeps (its author
    as stored with it); ``kind`` is how it was had, ``typed`` or ``record``."""
    from tournament.store import boards

    where = {t.id: (t.round, t.number) for t in store.tables()}
    first: dict[tuple[int, int, int], BoardEntered] = {}

    def keep(row: dict[str, Any]) -> None:
        at = where.get(row.get("table_id"))  # type: ignore[arg-type]
        if at is None or not isinstance(row.get("board"), int):
            return
        first[(at[0], at[1], row["board"])] = BoardEntered(
            at[0], at[1], row["board"], str(row.get("entered_at") or "?"), str(row.get("entered_by") or UNKNOWN),
            "record" if row.get("verified") else "typed")

    for row in boards.results(store):
        keep(row)
    for r in reversed(boards.audit(store)):  # newest first: the oldest replaced result is kept last
        try:
            old = json.loads(r["old_result"])
        except (TypeError, ValueError):
            continue
        if isinstance(old, dict):
            keep(old)
    return [first[k] for k in sorted(first)]


#: The columns of the whole trail as one table (the export's ``audit``).
TRAIL_COLUMNS = ("when", "by", "action", "round", "table", "before", "after", "reason")


#: How a board's result was had, in words (the trail's ``how``: :data:`tournament.event.duplicate._HOW`).
_BOARD_HOW = {"typed": "typed score", "record": "the hand's record"}


def _board_change(was: Any, now: Any, verb: str) -> str:
    """A board's result replaced, as the trail tells it: ``NS 30, EW 0 replaced by NS 45, EW 0``;
    where how each was had differs (``how``: typed, or the hand's record), or the points are the
    same, that too: ``NS 0, EW 0 (typed score) replaced by NS 0, EW 0 (the hand's record)``."""
    said = [_board_points(was), _board_points(now)]
    hows = [p.get("how") if isinstance(p, dict) else None for p in (was, now)]
    if all(h in _BOARD_HOW for h in hows) and (hows[0] != hows[1] or said[0] == said[1]):
        if hows[0] == hows[1] == "record":
            return f"{said[0]} ({_BOARD_HOW['record']}) {verb} {said[1]} (another record of the hand)"
        said = [f"{text} ({_BOARD_HOW[h]})" for text, h in zip(said, hows)]
    return f"{said[0]} {verb} {said[1]}"


def _board_points(points: Any) -> str:
    """A board's result as the trail tells it: ``NS 30, EW 0``."""
    if not isinstance(points, dict):
        return "?"
    return ", ".join(f"{side} {points[side]}" for side in ("NS", "EW") if side in points)


def trail_rows(store: EventStore) -> list[dict[str, Any]]:
    """The whole trail as one table, in time order: each result as first entered
    (``result_entered``), each result replaced (``result_replaced``, before and after as text),
    each change of the desk (its action, the detail as JSON in ``after``)."""
    rows: list[tuple[str, int, dict[str, Any]]] = []
    for e in first_entries(store):
        rows.append((e.when, 0, {"when": e.when, "by": e.by, "action": "result_entered", "round": e.round,
                                 "table": e.table, "before": "", "after": e.kind, "reason": ""}))
    for c in history(store):
        rows.append((c.when, 1, {"when": c.when, "by": c.by, "action": "result_replaced", "round": c.round,
                                 "table": c.table, "before": c.old.text(),
                                 "after": c.new.text() if c.new is not None else "", "reason": c.reason or ""}))
    for d in desk_history(store):
        rows.append((d.when, 2, {"when": d.when, "by": d.by, "action": d.action, "round": d.round, "table": None,
                                 "before": "", "after": json.dumps(d.detail, ensure_ascii=False, sort_keys=True),
                                 "reason": d.reason or ""}))
    return [r for *_, r in sorted(rows, key=lambda x: (x[0], x[1]))]
