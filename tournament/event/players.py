"""Entering players and partnerships, late entries and withdrawals.

A player's number (``#12``) is the id a game record may give for them
(``players[].id = "12"``); names are unique within an event, because a
record without ids is matched to its table by name.  Names are stored as
typed, in Unicode NFC with runs of spaces made one: quotes, accents and SQL text
are data.  Names that look the same (:class:`tournament.names.LookAlikes`: letters of
other scripts drawn alike or planted among a name's own, full-width forms, invisible
characters and spaces) are one name, and direction controls are refused.
"""

from __future__ import annotations

import contextlib
import csv
import io
import sys
import unicodedata
from pathlib import Path
from typing import Any, Iterator, Sequence

from domrec.errors import InputError
from domrec.reader import MAX_LIST_BYTES, read_bytes, read_stream, unicode_text, unreadable

from tournament.errors import AlreadyEntered, PlayerInputError, Refused
from tournament.event.numbering import find_pair, shown_numbers  # noqa: F401  (shown_numbers: the event's callers)
from tournament.event import changes
from tournament.names import LookAlikes, bidi_controls, name_key, near_key, normalise_name
from tournament.settings import PAIRS, ROTATING
from tournament.store import desk as desk_sql, fields as fields_sql
from tournament.store.event_store import EventStore
from tournament.values import Player, Team


def _check_name(name: str, what: str = "player") -> str:
    if not isinstance(name, str) or not name.strip():
        raise PlayerInputError(f"a {what} name cannot be empty")
    # Control characters (tabs, NUL, terminal escape sequences) and every kind of line break
    # (\n, \r, U+0085, U+2028, U+2029, …): a name is printed on the director's terminal and posted
    # on one line of the tables printout.
    if any(unicodedata.category(ch) == "Cs" for ch in name):  # undecodable bytes on the command line
        raise PlayerInputError(f"a {what} name must be UTF-8 text: {name!r}")
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in name):
        raise PlayerInputError(f"a {what} name cannot hold line breaks, tabs or other control characters: "
                               f"{name!r}")
    if len(name) > 200:
        raise PlayerInputError(f"a {what} name is limited to 200 characters: {name[:40]!r}…")
    controls = bidi_controls(name)
    if controls:  # "\u202e1 reyalP" would show as "Player 1"
        raise PlayerInputError(f"a {what} name cannot hold direction-control characters ({', '.join(controls)}): "
                               f"{name!r}; its letters set its direction")
    name = normalise_name(name)
    if not name_key(name):
        raise PlayerInputError(f"a {what} name cannot be made of invisible characters only: {name!r}")
    return name


def _refuse_look_alikes(store: EventStore, names: Sequence[str], teams: Sequence[str] = (),
                        but: int | None = None, squads: Sequence[str] = (), but_squad: int | None = None) -> None:
    """Within the write transaction: a new name that looks like any existing one (every player's,
    every pair's, or every team's: :class:`tournament.names.LookAlikes`) is refused in one line
    naming the one entered; ``but``/``but_squad``: the number of the player or pair / team being
    renamed, whose own name is no rival."""
    from tournament.store import squads as squads_sql

    for new, existing, what, own in ((names, store.players(), "player", but),
                                     (teams, store.teams(), "partnership", but),
                                     (squads, squads_sql.squads(store) if squads else [], "team", but_squad)):
        if not new:
            continue
        others = [x for x in existing if x.id != own]
        by_name = {x.name: x for x in others}
        taken = LookAlikes(by_name)
        for name in new:
            found = taken.find(name)
            if found is None:
                continue
            old = by_name[found]
            if old.name == name:
                raise AlreadyEntered(f"a {what} named {name!r} is already entered; names must be unique", what, name)
            number = f"#{old.id} " if what in ("player", "team") else ""
            raise AlreadyEntered(f"{name!r} looks the same as the {what} {number}{old.name!r} already entered; names "
                                 f"must be unique (another script's letters, full-width forms, spaces and invisible "
                                 f"characters do not make a name another)", what, name)


def near_identical(store: EventStore, names: Sequence[str], among: Sequence[Any] | None = None,
                   what: str = "", rename: str = "tournament rename") -> list[str]:
    """A line for each of these names (entered or renamed just now) that another player's name
    differs from only by case once spaces are left out (``Li Na`` and ``Lina``, ``Ana`` and ``ana``):
    two names (case is seen), but near-identical read from a list, so the director is told, and
    may add an initial (``tournament rename``).  Two such names entered together are told once.

    Each player's two keys are worked out once, the players grouped by their near key (each group
    in the players' order): a name's twin is the first of its group with another key, as it was
    when every name was compared with every player (a million skeletons for a thousand names).
    ``among``: other entries to compare with instead (a team event's teams, ``what`` "team "; a
    pairs event's pairs, "pair "), told to rename with ``rename``: a team or a pair is told of as a
    player is."""
    out = []
    by_near: dict[str, list[tuple[str, Any]]] = {}
    for p in store.players() if among is None else among:
        by_near.setdefault(near_key(p.name), []).append((name_key(p.name), p))
    told: set[str] = set()  # (the names told of so far: their twin is not told of again)
    for name in names:
        key, near = name_key(name), near_key(name)
        twin_key, twin = next(((k, p) for k, p in by_near.get(near, ()) if k != key), ("", None))
        if twin is not None and twin_key not in told:
            told.add(key)
            out.append(f"{name!r} is near-identical to {what}#{twin.id} {twin.name!r} (they differ only by capitals "
                       f"and spaces); to tell them apart, rename one ({rename})")
    return out


def _first_repeat(names: Sequence[str]) -> str | None:
    """The first name of a list that is, or looks like, one before it: ``'Ana' is listed twice``,
    or ``'Аna' and 'Ana' look the same: one name listed twice``."""
    seen = LookAlikes()
    for n in names:
        earlier = seen.find(n)
        if earlier is not None:
            if earlier == n:
                return f"{n!r} is listed twice"
            return f"{n!r} and {earlier!r} look the same: one name listed twice"
        seen.add(n)
    return None


def add_players(store: EventStore, names: Sequence[str], ids: Sequence[str | None] | None = None,
                fields: Sequence[dict[str, str]] | None = None, near: list[str] | None = None) -> list[Player]:
    """Enter individual players (one transaction: all of them, or none if one is refused).
    Entered after round N has been paired, they play from round N + 1 (a late entry).  ``ids``:
    each player's optional federation id (:func:`set_federation_ids`); ``fields``: each player's
    other columns (club, …: :mod:`tournament.store.fields`); ``near``: given a list, the
    :func:`near_identical` lines of the names entered are added to it, worked out within the
    write, so that a command stopped before they are known has written nothing."""
    fids = [check_federation_id(x) for x in ids] if ids is not None else [None] * len(names)
    if len(fids) != len(names):
        raise PlayerInputError(f"{len(fids)} player ids for {len(names)} players")
    if store.settings.format == PAIRS:
        raise Refused("this is a pairs event: enter partnerships (two names and an optional pair name)")
    names = [_check_name(n) for n in names]
    dup = _first_repeat(names)
    if dup is not None:
        raise PlayerInputError(dup)
    with store.write():
        _refuse_after_the_rounds(store)
        _refuse_look_alikes(store, names)
        entered = store.last_round() + 1
        numbers = [store.insert_player(n, entered) for n in names]
        set_federation_ids(store, dict(zip(numbers, fids, strict=True)))
        for pid, own in zip(numbers, fields or [], strict=False):
            fields_sql.set_fields(store, pid, own)
        for pid, name in zip(numbers, names, strict=True):
            changes.record(store, changes.PLAYER_ADDED, data={"id": pid, "name": name, "from_round": entered})
        if near is not None:
            near.extend(near_identical(store, names))
    by_id = {p.id: p for p in store.players()}
    return [by_id[i] for i in numbers]


#: The longest federation id kept.
MAX_ID = 40


def check_federation_id(text: str | None) -> str | None:
    """A federation id (a number from outside the event, that ratings match players on across
    events) as kept: one line of printable text, at most :data:`MAX_ID` characters; empty: none."""
    if text is None:
        return None
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        return None
    if len(text) > MAX_ID or any(unicodedata.category(c)[0] in "CZ" and c != " " for c in text):
        raise PlayerInputError(f"a player id is one line of at most {MAX_ID} printable characters: {text[:40]!r}")
    return text


def set_federation_ids(store: EventStore, ids: dict[int, str | None]) -> None:
    """Within a write: players' federation ids; refused when one is another player's already."""
    if not any(ids.values()):
        return
    taken = {v: k for k, v in desk_sql.federation_ids(store).items()}
    for player, fid in ids.items():
        if fid is None:
            continue
        other = taken.get(fid)
        if other is not None and other != player:
            raise AlreadyEntered(f"the player id {fid!r} is already #{other}'s; an id names one player", "id", fid)
        taken[fid] = player
        desk_sql.set_federation_id(store, player, fid)


def _refuse_after_the_rounds(store: EventStore) -> None:
    """Once a final (or a knockout, a round robin) is drawn, no round that admits a newcomer will
    ever be paired: a late entry then would be a player who can never play, so it is refused."""
    from tournament.event import stages

    stage = stages.current(store)
    if stage is not None:
        what = "final" if store.settings.format == ROTATING else "stage"
        when = f"after round {stage.offset}" if stage.offset else "before any round"
        raise Refused(f"this event's {what} ({stage.name}) was drawn {when}: no more rounds will be paired, "
                      f"so a late entry could never play; nothing was written")


def _refuse_in_a_seated_movement(store: EventStore, what: str, advice: str = "") -> None:
    """Within a write: a duplicate pairs movement is drawn for the pairs there are when round 1 is
    seated and fixed for the whole session (every later round seats the same pairs, by number), so
    a pair entered or withdrawn after it would never be, or would still be, seated."""
    if store.settings.duplicate and store.last_round():
        raise Refused(f"{what}: a duplicate movement is fixed for the whole session once round 1 is seated"
                      f"{'; ' + advice if advice else ''}; nothing was written")


def add_pairs(store: EventStore, pairs: Sequence[tuple[str, str, str | None]],
              ids: Sequence[tuple[str | None, str | None]] | None = None,
              fields: Sequence[tuple[dict[str, str], dict[str, str]]] | None = None,
              near: list[str] | None = None) -> list[Team]:
    """Enter fixed partnerships ``(player, partner, pair name or None)`` in one transaction;
    ``ids``: the two players' optional federation ids, a pair each; ``fields``: the two players'
    other columns, a pair each; ``near``: as :func:`add_players`'s, for the players entered and
    then for the pairs' names (a pair's name differing from another's only by capitals and spaces,
    ``Ana & Bo`` and ``ana & bo``, is entered and told of as a player's is)."""
    fids = [(check_federation_id(a), check_federation_id(b)) for a, b in ids] if ids is not None else None
    if fids is not None and len(fids) != len(pairs):
        raise PlayerInputError(f"{len(fids)} player ids for {len(pairs)} pairs")
    if store.settings.format != PAIRS:
        raise Refused(f"this is a {store.settings.format} event: enter players one by one, not partnerships")
    checked = []
    for a, b, team in pairs:
        a, b = _check_name(a), _check_name(b)
        if LookAlikes([a]).find(b) is not None:
            raise PlayerInputError(f"{a!r} cannot partner themselves")
        checked.append((a, b, _check_name(team, "pair") if team else f"{a} & {b}"))
    every = [n for a, b, _ in checked for n in (a, b)]
    dup = _first_repeat(every)
    if dup is not None:
        raise PlayerInputError(dup)
    team_names = [team for _, _, team in checked]
    dup = _first_repeat(team_names)
    if dup is not None:
        raise PlayerInputError(f"the pair name {dup}")
    with store.write():
        _refuse_after_the_rounds(store)
        _refuse_in_a_seated_movement(store, "a pair entered now could never be seated")
        _refuse_look_alikes(store, every, team_names)
        entered = store.last_round() + 1
        ids = []
        for n, (a, b, team) in enumerate(checked):
            tid = store.insert_team(team, entered)
            members = [{"id": store.insert_player(x, entered, tid), "name": x} for x in (a, b)]
            if fids is not None:
                set_federation_ids(store, {members[0]["id"]: fids[n][0], members[1]["id"]: fids[n][1]})
            if fields is not None and n < len(fields):
                for member, own in zip(members, fields[n], strict=True):
                    fields_sql.set_fields(store, member["id"], own)
            ids.append(tid)
            changes.record(store, changes.PAIR_ADDED, data={"id": tid, "name": team, "players": members,
                                                            "from_round": entered})
        if near is not None:
            near.extend(near_identical(store, every))
            near.extend(near_identical(store, team_names, store.teams(), "pair "))
    by_id = {t.id: t for t in store.teams()}
    return [by_id[i] for i in ids]


class StandardInput(type(Path())):  # type: ignore[misc]
    """``--csv -``: a players CSV read from standard input (a spreadsheet's export piped in, a list
    made by another program).  A path whose text is ``<stdin>``, domrec's name for standard input,
    so that every refusal that names the file and a line (``<stdin>, line 3: the name is empty``)
    names it so; :func:`read_list_file` reads standard input for it."""

    def __str__(self) -> str:
        return "<stdin>"


def csv_source(path: str | Path) -> Path:
    """The players CSV a command names: ``-`` is standard input (:class:`StandardInput`)."""
    if isinstance(path, StandardInput):
        return path
    return StandardInput("-") if str(path) == "-" else Path(path)


def read_csv(path: str | Path, pairs: bool) -> list[tuple[str, str, str | None]] | list[str]:
    """Players from a CSV file with a header row: ``name`` (and ``partner``, optional ``pair``
    for a pairs event).  Returns names, or (name, partner, pair) triples."""
    return read_csv_ids(path, pairs)[0]


def read_csv_ids(path: str | Path, pairs: bool) -> tuple[list, list | None]:
    """:func:`read_csv`, and the players' federation ids from an optional ``id`` column (a pairs
    event: ``id`` and ``partner_id``), one a row (a pair of them a row), or None without the column."""
    return read_csv_entries(path, pairs)[:2]


#: The columns of a players CSV the tool reads itself; every other column is kept as the
#: players' own (:mod:`tournament.store.fields`).
KNOWN_COLUMNS = ("name", "partner", "pair", "team", "id", "partner_id")
#: Other names of the federation id's columns, as a federation's own lists head them.
ID_COLUMNS = {"fed_id": "id", "federation_id": "id", "federation": "id", "partner_fed_id": "partner_id",
              "partner_federation_id": "partner_id", "partner_federation": "partner_id"}


def read_csv_entries(path: str | Path, pairs: bool, listed: list[tuple[int, str, str]] | None = None
                     ) -> tuple[list, list | None, list]:
    """:func:`read_csv_ids`, and every other column of each row as that player's (club, sex,
    birth year: prize lists are drawn by them, and the export gives them back): a dict a row, a
    pair of dicts a row in a pairs event, where ``partner_X`` is the partner's ``X`` and a column
    without a ``partner_`` twin is both players'.  ``path`` ``-``: standard input (:func:`csv_source`).
    ``listed``: given a list, each row's names and ids are added to it with their line, for
    :func:`said_at_line`."""
    path = csv_source(path)
    header, found, body = read_csv_table(path)
    if "name" not in header:
        raise PlayerInputError(f"{path}: the first row must be a header naming a 'name' column "
                               f"(found {', '.join(found) or 'nothing'})")
    need = ["name", "partner"] if pairs else ["name"]
    for col in need:
        if col not in header:
            raise PlayerInputError(f"{path}: a pairs event needs a '{col}' column")
    idx = {h: i for i, h in enumerate(header)}
    others = [h for h in header if h and h not in KNOWN_COLUMNS and not (pairs and h.startswith("partner_"))]
    partner_others = [h[len("partner_"):] for h in header if pairs and h.startswith("partner_") and h != "partner_id"]
    for h in others + partner_others:
        if len(h) > 40 or any(unicodedata.category(c)[0] == "C" for c in h):
            raise PlayerInputError(f"{path}: a column name is one line of at most 40 characters: {h[:40]!r}")
    out: list = []
    fids: list = []
    extra: list = []
    for n, row in body:
        def cell(col: str) -> str:
            # Spaces around a cell are a spreadsheet's accident, never part of a name: a record
            # typed "Ana" must match the entry "Ana ".
            i = idx.get(col)
            return row[i].strip() if i is not None and i < len(row) else ""
        if not cell("name").strip():
            raise PlayerInputError(f"{path}, line {n}: the name is empty")
        if pairs:
            if not cell("partner").strip():
                raise PlayerInputError(f"{path}, line {n}: the partner is empty")
            out.append((cell("name"), cell("partner"), cell("pair") or cell("team") or None))
            if listed is not None:  # (the pair's name as add_pairs makes it when none is given)
                listed += [(n, "player", cell("name")), (n, "player", cell("partner")), (n, "id", cell("id")),
                           (n, "id", cell("partner_id")),
                           (n, "partnership", out[-1][2] or f"{cell('name')} & {cell('partner')}")]
            fids.append((cell("id") or None, cell("partner_id") or None))
            mine = {h: _field(cell(h), path, n) for h in others}
            theirs = dict(mine)
            theirs.update({h: _field(cell("partner_" + h), path, n) for h in partner_others})
            extra.append((mine, theirs))
        else:
            out.append(cell("name"))
            fids.append(cell("id") or None)
            if listed is not None:
                listed += [(n, "player", cell("name")), (n, "id", cell("id"))]
            extra.append({h: _field(cell(h), path, n) for h in others})
    if not out:
        raise PlayerInputError(f"{path} has a header but no players")
    if pairs:
        check_listed(path, [(n, kind, x) for (n, _), (a, b, pair) in zip(body, out, strict=True)
                            for kind, x in (("player", a), ("player", b), ("pair", pair)) if x])
    else:
        check_listed(path, [(n, "player", x) for (n, _), x in zip(body, out, strict=True)])
    return out, fids if "id" in idx or "partner_id" in idx else None, extra


@contextlib.contextmanager
def said_at_line(path: str | Path, listed: Sequence[tuple[int, str, str]]) -> Iterator[None]:
    """Entering a players CSV's rows (``listed``: ``(line, what, value)``, from the reader): a name
    or an id the event already has (:class:`~tournament.errors.AlreadyEntered`, raised within the
    write, so nothing of the file is added) is said at the line that gave it, as every other
    refusal of the file is: ``p.csv, line 3: a player named 'José Peña' is already entered; …``.
    An id is said at its last line (a second row giving an id is the one refused)."""
    try:
        yield
    except AlreadyEntered as e:
        def same(what: str, value: str) -> bool:
            if what != e.what or not value.strip():
                return False
            given = unicodedata.normalize("NFC", value).strip() if what == "id" else normalise_name(value.strip())
            return given == e.value
        lines = [n for n, what, value in listed if same(what, value)]
        if not lines:
            raise
        raise AlreadyEntered(f"{csv_source(path)}, line {lines[-1]}: {e.message}", e.what, e.value) from None


def read_csv_table(path: Path) -> tuple[list[str], list[str], list[tuple[int, list[str]]]]:
    """A players CSV read as every one is, a team event's too: its header (the columns' names in
    lower case, an id column by its one name), that row as written, and each row after it with
    the line it starts on.  Refused, at its line: a row with a cell no column heads (it would be
    lost, or a comma in a name would shift the cells after it)."""
    text = read_list_file(path, "a players CSV")
    # A spreadsheet saved as CSV where the comma is the decimal mark separates cells by semicolons:
    # a header that holds a semicolon and no comma is read so.
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = ";" if ";" in first and "," not in first else ","
    lines, rows = csv_rows(path, text, delimiter)
    if not rows:
        raise PlayerInputError(f"{path} is empty")
    given = [h.strip().lower() for h in rows[0]]
    header = [ID_COLUMNS.get(h, h) for h in given]
    repeated = sorted({h for h in header if h and header.count(h) > 1})
    if repeated:
        also = sorted({g for g, h in zip(given, header) if h == repeated[0]})
        raise PlayerInputError(f"{path}: the header names the column {repeated[0]!r} twice"
                               + (f" ({' and '.join(also)} are the same column)" if len(also) > 1 else ""))
    body = list(zip(lines[1:], rows[1:], strict=True))
    for n, row in body:
        if any(c.strip() for c in row[len(header):]):  # a cell no column heads would be lost
            raise PlayerInputError(f"{path}, line {n}: {len(row)} cells where the header names {len(header)} "
                                   f"columns; nothing was added")
    return header, rows[0], body


def csv_rows(path: Path, text: str, delimiter: str = ",") -> tuple[list[int], list[list[str]]]:
    """The rows of a CSV text that hold something, and the line of the file each starts on: a
    row is said where the file has it, blank lines counted, and a quoted cell's line breaks (a
    quote left open takes the rows after it into one cell, said at the line it starts on)."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    lines: list[int] = []
    rows: list[list[str]] = []
    try:
        ended = 0  # the line the row before ended on
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append(row)
                lines.append(ended + 1)
            ended = reader.line_num
    except csv.Error as e:
        raise PlayerInputError(f"{path}: not readable as CSV: {e}") from None
    return lines, rows


def check_listed(path: Path, listed: Sequence[tuple[int, str, str]]) -> None:
    """The names of a players CSV, ``(line, "player" or "pair", name)``, checked as
    :func:`add_players` and :func:`add_pairs` check them, but said at their line: a name with a
    control character, or a name listed twice (players among players, pair names among pair
    names), with the line of its first listing.  (Those checks say neither the file nor the line.)"""
    seen: dict[str, tuple[LookAlikes, dict[str, int]]] = {}
    for n, kind, given in listed:
        try:
            name = _check_name(given, kind)
        except PlayerInputError as e:
            raise PlayerInputError(f"{path}, line {n}: {e.message}") from None
        what = "the pair name " if kind == "pair" else ""
        names, first = seen.setdefault(kind, (LookAlikes(), {}))
        earlier = names.find(name)
        if earlier == name:
            raise PlayerInputError(f"{path}, line {n}: {what}{name!r} is listed twice (first on line {first[earlier]})")
        if earlier is not None:
            raise PlayerInputError(f"{path}, line {n}: {what}{name!r} and {earlier!r} (line {first[earlier]}) look "
                                   f"the same: one name listed twice")
        names.add(name)
        first[name] = n


def _field(value: str, path: Path, line: int) -> str:
    """A cell of a player's own column, as kept: NFC, one line, at most 200 characters."""
    value = unicodedata.normalize("NFC", value)
    if len(value) > 200 or any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in value):
        raise PlayerInputError(f"{path}, line {line}: a cell is one line of at most 200 characters: {value[:40]!r}")
    return value


def read_list_file(path: Path, what: str) -> str:
    """The text of a players CSV or a seeds file: at most :data:`~domrec.reader.MAX_LIST_BYTES`
    (an endless input such as ``/dev/zero`` is refused after reading that much), and valid
    Unicode text, UTF-8 with or without a byte-order mark (domrec's one rule for text)."""
    try:
        if isinstance(path, StandardInput):  # (bounded as a file is: an endless pipe is refused)
            data = read_stream(sys.stdin.buffer, str(path), MAX_LIST_BYTES, what)
        else:
            data = read_bytes(path, MAX_LIST_BYTES, what)
    except OSError as e:
        raise PlayerInputError(unreadable(path, e, what)) from None
    except InputError as e:
        raise PlayerInputError(e.message) from None
    try:
        return unicode_text(data, "utf-8-sig")
    except InputError as e:
        raise PlayerInputError(f"{path}, {e.message}") from None


def withdraw(store: EventStore, key: str, reason: str | None = None, by: str | None = None) -> Player | Team:
    """Withdraw a player (or, in a pairs event, a pair, by its name or a member's) from the next
    round on.  Their games so far stay in the standings.  The withdrawal is a line of the desk's
    trail (``tournament history``), with ``reason`` and ``by`` when given.  In a seated duplicate
    event the pair's boards from now on are marked not played for its opponents
    (:mod:`tournament.event.duplicate_withdrawal`; the trail's line lists the marks made now)."""
    from tournament.event import audit, duplicate_withdrawal
    from tournament.store import desk as desk_sql

    by = audit.clean_text(by, "the name of who made it") or audit.default_author()
    reason = audit.clean_text(reason, "the reason")
    with store.write():
        nxt = store.last_round() + 1
        if store.settings.format == PAIRS:
            team = _find_team(store, key)
            if team.withdrawn is not None:
                raise Refused(f"{team.name} has already withdrawn (from round {team.withdrawn})")
            duplicate_withdrawal.refuse_after_session(store, team.name, "withdraw")
            detail: dict[str, Any] = {"pair": team.id, "name": team.name}
            if duplicate_withdrawal.applies(store):  # its boards from now on: not played for its opponents
                detail["not_played"] = duplicate_withdrawal.withdraw(store, team, reason, by)
            store.set_team_withdrawn(team.id, nxt)
            changes.record(store, changes.PAIR_WITHDRAWN, data={"id": team.id, "name": team.name, "from_round": nxt})
            desk_sql.log(store, "pair_withdrawn", nxt, detail, by, reason)
            return next(t for t in store.teams() if t.id == team.id)
        player = store.find_player(key)
        if player.withdrawn is not None:
            raise Refused(f"{player.name} has already withdrawn (from round {player.withdrawn})")
        duplicate_withdrawal.refuse_after_session(store, player.name, "withdraw")
        store.set_withdrawn(player.id, nxt)
        changes.record(store, changes.PLAYER_WITHDRAWN, data={"id": player.id, "name": player.name,
                                                              "from_round": nxt})
        desk_sql.log(store, "player_withdrawn", nxt, {"player": player.id, "name": player.name}, by, reason)
        return next(p for p in store.players() if p.id == player.id)


def _find_team(store: EventStore, key: str) -> Team:
    return find_pair(store, key)


def rounds_away_text(away: Sequence[tuple[int, int]]) -> str:
    """The rounds a returned player was out of, as the player list shows them: ``2-4`` (rounds 2 to
    4; back from 5), ``3`` (one round), several withdrawals separated by commas."""
    return ", ".join(f"{out}" if back - out == 1 else f"{out}-{back - 1}" for out, back in away)


def player_rows(store: EventStore) -> list[dict[str, Any]]:
    """The players as a list shows them, a row a player: number, name (and pair, in a pairs
    event; and team, in a team event), the round they play from, the round they withdrew from."""
    teams = {t.id: t.name for t in store.teams()}
    squad_of: dict[int, str] = {}
    if store.settings.teams:  # a team event: each player's team (a reserve's too)
        from tournament.store.squads import squads

        every = squads(store)
        members = {t.id: t.players for t in store.teams()}
        squad_of = {p: s.name for s in every for pair in s.pairs for p in members.get(pair, ())}
        squad_of.update({p: s.name for s in every for p in s.reserves})
    fids = desk_sql.federation_ids(store)
    names = fields_sql.field_names(store)
    own = fields_sql.fields(store)
    rows = []
    every = store.players()
    returned = any(p.away for p in every)
    for p in every:
        row: dict[str, Any] = {"id": p.id, "name": p.name}
        if fids:
            row["player_id"] = fids.get(p.id, "")
        if store.settings.format == PAIRS:
            row["pair"] = teams.get(p.team, "")
        if squad_of:
            row["team"] = squad_of.get(p.id, "")
        row.update({"from_round": p.entered, "withdrawn_from": p.withdrawn})
        if returned:  # like the ids: a column only in an event where someone came back
            row["rounds_away"] = rounds_away_text(p.away)
        # The CSV's other columns, after the tool's own (a column named like one of them is the tool's).
        row.update({f: own.get(p.id, {}).get(f, "") for f in names if f not in row})
        rows.append(row)
    return rows
