"""What SQLite finds damaged in an event file, said table by table and row by row.

``tournament check`` on a damaged file (:mod:`tournament.event.check`) reports, for each problem,
where (the database, a table) and what: which tables SQLite's integrity check finds damaged,
which of their rows can no longer be read, and the stored values that cannot be read (text that
is not UTF-8, JSON that is not JSON, scores that are not scores).  Read-only: nothing here writes.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import attrs

from domrec.errors import DomrecError, clip

#: Columns that hold JSON written by the tool: damage there is found value by value.
JSON_COLUMNS = {"meta": ("value",), "results": ("scores",), "standings_used": ("values",),
                "result_audit": ("old_result", "new_result"), "stages": ("settings",), "matches": ("sources",),
                "changes": ("data",)}


@attrs.frozen
class Damage:
    """What :func:`find_damage` found: the errors, each as where and what, and the results that
    cannot be used."""

    problems: tuple[tuple[str, str], ...]
    bad_results: set[int]


def find_damage(conn: sqlite3.Connection) -> Damage:
    """A damaged event file, diagnosed: which tables SQLite finds damaged (``PRAGMA
    integrity_check``, then table by table to say which), which of their rows can no longer be
    read, and, in every table, the stored values that cannot be read (text that is not UTF-8,
    JSON that is not JSON, scores that are not scores).  Each problem is one error naming the
    table and the rows; a damaged result also says its round and table when those can be read."""
    out: list[tuple[str, str]] = []
    bad_results: set[int] = set()
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rootpage")]
    except sqlite3.DatabaseError as e:
        out.append(("database", f"SQLite cannot read the file's list of tables ({e}): the first "
                                                f"page is damaged and nothing can be told apart; restore the event "
                                                f"from a copy"))
        return Damage(tuple(out), bad_results)
    damaged = _integrity(conn, tables, out)
    whole = {table: _whole_number_columns(conn, table) for table in tables}
    old_factory = conn.text_factory
    conn.text_factory = bytes  # every text value as its bytes: undecodable text is found, not raised
    try:
        for table in tables:
            lost: list[tuple[int | None, int | None]] = []
            for rowid, row in _scan(conn, table, lost):  # streamed: a table of records may be large
                for column, why in _bad_values(table, row, whole[table]):
                    what = _row_text(conn, table, rowid)
                    out.append((f"table {table}", f"{what}: {column} {why}"))
                    if table == "results":
                        bad_results.add(rowid)
            out.extend((f"table {table}", f"{_rows_text(conn, table, a, b)} (a damaged page)")
                       for a, b in lost)
            if table == "results":  # a row whose own page is lost is skipped by the other checks
                bad_results.update(a + 1 for a, b in lost if a is not None and b is not None and b - a == 2)
    finally:
        conn.text_factory = old_factory
    if not damaged:
        out.extend(_seating(conn, bad_results))
    return Damage(tuple(out), bad_results)


def _seating(conn: sqlite3.Connection, bad_results: set[int]) -> Iterator[tuple[str, str]]:
    """Seats and results that name a seat or a side the event's game does not have (a seat's side
    changed to 'x' by hand, scores without a side's key): which seats and sides a table may have
    depends on the game and the event's format, read from its settings; the other checks stop at
    such a value.  Nothing is said here when the settings cannot be read (said as their damage)."""
    from tournament.settings import PARTNERSHIP_FORMATS, PARTNERSHIP_SIDES, Settings

    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
        settings = Settings.from_json(row[0])
        seats = list(dict.fromkeys(seat for size in settings.table_counts() for seat in settings.seats_for(size)))
    except (sqlite3.Error, LookupError, TypeError, ValueError, AttributeError, DomrecError):
        return
    sides = list(PARTNERSHIP_SIDES) if settings.format in PARTNERSHIP_FORMATS else seats
    listed = ", ".join(sides)
    where = ("SELECT {x}, r.number, t.number FROM {table} x LEFT JOIN round_tables t ON t.id = x.table_id "
             "LEFT JOIN rounds r ON r.id = t.round_id ")
    at_table: dict[Any, list[str]] = {}  # (each table's sides, as its seats say them)
    try:
        for table_id, seat, side, rnd, number in conn.execute(
                where.format(x="x.table_id, x.seat, x.side", table="seats") + "ORDER BY x.rowid"):
            if side not in at_table.setdefault(table_id, []):
                at_table[table_id].append(side)
            at = f"round {rnd} table {number}"
            if seat not in seats:
                yield "table seats", f"{at}: seat {clip(str(seat), 20)!r} is not a seat of the game's tables"
            elif side not in sides:
                yield "table seats", (f"{at}: seat {seat}'s side is {clip(str(side), 20)!r}, not one of the game's "
                                      f"sides ({listed})")
        for rowid, table_id, scores, rnd, number in conn.execute(
                where.format(x="x.id, x.table_id, x.scores", table="results") + "ORDER BY x.id"):
            if rowid in bad_results:
                continue
            try:
                named = json.loads(scores)
            except (TypeError, ValueError, RecursionError):
                continue  # (said by the scan of values)
            if not isinstance(named, dict):
                continue
            at = f"result {rowid} (round {rnd} table {number}): its scores"
            strange = [k for k in named if k not in sides]
            missing = [k for k in at_table.get(table_id, ()) if k in sides and k not in named]
            if strange:
                yield "table results", f"{at} name {clip(str(strange[0]), 20)!r}, not one of the game's sides ({listed})"
            elif missing:
                yield "table results", f"{at} give no score to {missing[0]}, a side of that table"
    except sqlite3.Error:
        return


def _integrity(conn: sqlite3.Connection, tables: list[str], out: list[tuple[str, str]]) -> set[str]:
    """SQLite's verdict on the whole file; if it is not "ok", table by table (an index's damage
    is reported with its table).  Returns the tables found damaged."""
    try:
        verdict = [r[0] for r in conn.execute("PRAGMA integrity_check(20)")]
    except sqlite3.DatabaseError as e:
        verdict = [str(e)]
    if verdict == ["ok"]:
        return set()
    damaged = set()
    for table in tables:
        try:
            lines = [r[0] for r in conn.execute(f"PRAGMA integrity_check({_ident(table)})")]
        except sqlite3.DatabaseError as e:
            lines = [str(e)]
        if lines != ["ok"]:
            damaged.add(table)
            detail = "; ".join(" ".join(x.replace("*** in database main ***", "").split()) for x in lines[:3])
            out.append((f"table {table}", f"SQLite's integrity check: {clip(detail, 200)}"
                                                          + (f" (and {len(lines) - 3} more)" if len(lines) > 3 else "")))
    if not damaged:
        detail = "; ".join(" ".join(x.replace("*** in database main ***", "").split()) for x in verdict[:3])
        out.append(("database", f"SQLite's integrity check: {clip(detail, 200)}"))
    return damaged


def _ident(name: str) -> str:
    """A table or column name as SQL: quoted (the names come from the file, not from us)."""
    return '"' + name.replace('"', '""') + '"'


def _scan(conn: sqlite3.Connection, table: str,
          lost: list[tuple[int | None, int | None]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every row of ``table`` that can be read; the rowid ranges that cannot go to ``lost``:
    ``(a, b)`` means the rows after rowid ``a`` and before ``b`` (None: from the first, to the
    last).  A damaged page stops a scan; the next rowid that can be found again is searched for
    with steps that double, so a damaged table costs a few dozen look-ups."""
    q = _ident(table)
    try:
        columns = [r[1].decode("utf-8", "replace") if isinstance(r[1], bytes) else r[1]
                   for r in conn.execute(f"PRAGMA table_info({q})")]
        conn.execute(f"SELECT rowid FROM {q} LIMIT 0").fetchall()
    except sqlite3.OperationalError:
        return  # no rowid: not a table this tool makes
    except sqlite3.DatabaseError:
        lost.append((None, None))
        return
    select = ", ".join(_ident(c) for c in columns)
    start = pos = -(2 ** 63)
    careful = 0  # rows still to read one by one after a batch met a damaged page
    while True:
        if not careful:
            try:
                batch = conn.execute(f"SELECT rowid, {select} FROM {q} WHERE rowid > ? ORDER BY rowid LIMIT 200",
                                     [pos]).fetchall()
            except sqlite3.DatabaseError:
                careful = 200
            else:
                if not batch:
                    return
                for r in batch:
                    yield r[0], dict(zip(columns, r[1:]))
                pos = batch[-1][0]
                continue
        careful -= 1
        try:
            key = conn.execute(f"SELECT rowid FROM {q} WHERE rowid > ? ORDER BY rowid LIMIT 1", [pos]).fetchone()
        except sqlite3.DatabaseError:
            key = ()
        if key is None:
            return
        if key:
            try:  # the row's key is found: is its content (or an overflow page of it) readable?
                got = conn.execute(f"SELECT {select} FROM {q} WHERE rowid = ?", [key[0]]).fetchone()
            except sqlite3.DatabaseError:
                lost.append((key[0] - 1, key[0] + 1))
            else:
                yield key[0], dict(zip(columns, got))
            pos = key[0]
            continue
        # The next key cannot even be found: its page is lost.  Find where readable rows resume.
        step, found, base = 1, None, max(pos, 0)
        while step < 2 ** 62:
            try:
                found = conn.execute(f"SELECT rowid FROM {q} WHERE rowid > ? ORDER BY rowid LIMIT 1",
                                     [base + step]).fetchone()
                break
            except sqlite3.DatabaseError:
                step *= 2
        if found is None:
            lost.append((None if pos == start else pos, None))
            return
        gap = range(max(pos, 0) + 1, found[0])
        if len(gap) > 1024:
            lost.append((None if pos == start else pos, found[0]))
        else:  # a short gap: row by row, to name exactly the rows that are lost
            for rowid in gap:
                try:
                    got = conn.execute(f"SELECT {select} FROM {q} WHERE rowid = ?", [rowid]).fetchone()
                except sqlite3.DatabaseError:
                    if lost and lost[-1][1] == rowid:
                        lost[-1] = (lost[-1][0], rowid + 1)
                    else:
                        lost.append((rowid - 1, rowid + 1))
                    continue
                if got is not None:
                    yield rowid, dict(zip(columns, got))
        pos = found[0] - 1


def _whole_number_columns(conn: sqlite3.Connection, table: str) -> frozenset[str]:
    """The columns of ``table`` declared INTEGER: the tool writes only whole numbers (or nothing)
    there, and SQLite keeps whatever else a hand puts in them ('x', 1.5) as it was given."""
    try:
        return frozenset(r[1] for r in conn.execute(f"PRAGMA table_info({_ident(table)})")
                         if "INT" in str(r[2]).upper())
    except sqlite3.DatabaseError:
        return frozenset()


def _bad_values(table: str, row: dict[str, Any], whole: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
    """What in one row (its text as bytes) cannot be read: text that is not UTF-8, JSON that is
    not JSON, scores that are not scores, and in a column of whole numbers (``whole``) anything
    else (a round numbered 'x': a value changed by hand)."""
    for column in whole:
        value = row.get(column)
        if value is not None and type(value) is not int:
            shown = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
            yield column, f"is {clip(str(shown), 40)!r}, not a whole number"
    for column, value in row.items():
        if not isinstance(value, bytes):
            continue
        try:
            text = value.decode("utf-8")
        except UnicodeDecodeError as e:
            yield column, f"is not UTF-8 text (byte {e.start} of {len(value)})"
            continue
        if column in JSON_COLUMNS.get(table, ()) and not (table == "meta" and row.get("key") != b"settings"):
            try:
                parsed = json.loads(text)
            except RecursionError:  # the tool writes nothing nested so deep
                yield column, f"is JSON nested too deeply to be read ({clip(text, 40)!r})"
                continue
            except ValueError:
                yield column, f"is not readable JSON ({clip(text, 40)!r})"
                continue
            if table == "results" and column == "scores" and not (
                    isinstance(parsed, dict) and all(type(v) is int for v in parsed.values())):
                yield column, f"are not scores (side: whole number) ({clip(text, 40)!r})"


def _row_text(conn: sqlite3.Connection, table: str, rowid: int) -> str:
    """A row as a director knows it: a result by its round and table, when that can be read."""
    if table == "results":
        try:
            hit = conn.execute("SELECT r.number, t.number FROM results x JOIN round_tables t ON t.id = x.table_id "
                               "JOIN rounds r ON r.id = t.round_id WHERE x.id = ?", [rowid]).fetchone()
        except sqlite3.DatabaseError:
            hit = None
        return f"result {rowid}" + (f" (round {hit[0]} table {hit[1]})" if hit else "")
    if table == "players":
        return f"player #{rowid}"
    if table == "meta":
        try:
            key = conn.execute("SELECT key FROM meta WHERE rowid = ?", [rowid]).fetchone()
        except sqlite3.DatabaseError:
            key = None
        return f"the event's {key[0].decode('utf-8', 'replace') if isinstance(key[0], bytes) else key[0]}" \
            if key else f"row {rowid}"
    return f"row {rowid}"


def _rows_text(conn: sqlite3.Connection, table: str, after: int | None, before: int | None) -> str:
    if after is None and before is None:
        return "no row of the table can be read"
    if after is not None and before is not None and before - after == 2:
        return f"{_row_text(conn, table, after + 1)} cannot be read"
    lo = "the first row" if after is None else f"row {after + 1}"
    hi = "the last" if before is None else f"row {before - 1}"
    return f"the rows from {lo} to {hi} (by rowid) cannot be read"


def first_problem(path: str | Path) -> str | None:
    """The first thing wrong in an event file, as ``where: what``, or None: what
    :func:`find_damage` finds, then a row that points at a row that is not there (a player's id
    changed by hand).  Read-only, for a command stopped by a value it cannot use: it says what
    ``tournament check`` will name, rather than "internal error"."""
    conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        damage = find_damage(conn)
        if damage.problems:
            return ": ".join(damage.problems[0])
        try:
            orphan = conn.execute("PRAGMA foreign_key_check").fetchone()
        except sqlite3.DatabaseError:
            orphan = None
        if orphan:
            table, rowid, parent = orphan[0], orphan[1], orphan[2]
            return f"table {table}: {_row_text(conn, table, rowid)} points at a row of {parent} that is not there"
        return None
    finally:
        conn.close()


def never_written(path: str | Path) -> str | None:
    """``PATH holds a value the tool never writes (WHERE: WHAT)``, the first such row the file
    shows (:func:`first_problem`), or None: the start of every line that names a row changed by
    hand (a command's error, the venue's warning at its start and its log)."""
    try:
        problem = first_problem(path)
    except (sqlite3.Error, OSError, ValueError):
        return None
    return f"{path} holds a value the tool never writes ({clip(problem, 160)})" if problem else None


#: What reading a value the tool never writes raises (a round numbered 'x', a seat of a player
#: that is not there): the errors ``tournament check`` reports as "a value they cannot use".
VALUE_ERRORS = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError)


def unusable_value(path: str | Path, e: BaseException, user: str = "this command",
                   found_only: bool = False) -> str | None:
    """One line for ``e``, an error met reading the event file ``path`` that a value the tool
    never writes raises (a row changed by hand), or None for any other error.  It names the first
    such row where the file itself shows it (:func:`first_problem`), and says to run ``tournament
    check``; a command says it instead of "internal error", and the venue writes it in its log
    beside the request that met it (``user``: who could not use the value; ``found_only``: None
    too where the file shows no such row, for a caller that says nothing then)."""
    if not isinstance(e, VALUE_ERRORS):
        return None
    named = never_written(path)
    if named:
        return f"{named}: run `tournament check {path}` to see every one, and restore the event from a copy"
    if found_only:
        return None
    return (f"{path} holds a value {user} cannot use ({type(e).__name__}: {clip(str(e), 80)}): if the "
            f"file was changed outside the tool, run `tournament check {path}` and restore the event from a "
            f"copy; if not, please report it")


def diagnose_file(path: str | Path) -> Damage:
    """The damage of an event file too damaged to be opened (its meta table or settings cannot be
    read), opened read-only for it."""
    conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return find_damage(conn)
    finally:
        conn.close()
