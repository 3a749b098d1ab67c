"""The federation report's text format (DFR, version 1): written and read back, nothing else.

A rating office rates players across events from one file an event sends it.  Chess has FIDE's
TRF for that: one line a thing, each line's first field a three-digit code saying what it is.
DFR does the same for dominoes, in a design of its own (docs/federation.md is its reference):

* every line is fields separated by one TAB, the first field its code; UTF-8, ``\\n`` line ends;
  a clerk opens it in a spreadsheet as it is, a program splits each line on TABs.  A fixed-column
  layout (TRF's) was left aside: a column's width in characters is not its width on the screen
  for names in every script, and a long name would have to be cut;
* ``000`` the header (format, version, the writer), first and once; ``012`` the event (a key and
  its value a line); ``001`` a player; ``004`` a round; ``002`` a game; ``003`` a bye; ``005`` a
  duplicate board's result at a table.  An empty line, or one whose code starts with ``#``, is a
  comment: a clerk may annotate a file and it still reads;
* text fields (names, a club, a key's value) keep a TAB, a line break and a backslash as
  ``\\t``, ``\\n``, ``\\\\`` (any other control character as ``\\u`` and its four hex digits,
  ``\\u0007``); an empty field is "none".

Reading refuses what it cannot use with one :class:`~tournament.errors.FederationFileError` at
``FILE:line:column`` (the column of the field, counting characters from 1), never a traceback.
The values here are what :mod:`tournament.event.federation` makes from an event and rates.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterator

import attrs

from domrec.games import MODULES

from tournament.errors import FederationFileError
from tournament.settings import DUPLICATE, FORMATS, TEAMS

#: The format's name and version, in the header line (``000``).
FORMAT = "DFR"
VERSION = 1
#: Who wrote the file: the header's third field.
WRITER = "domrec tournament export"
HEADER = f"000\t{FORMAT}\t{VERSION}\t{WRITER}"

#: A game's kind (``002``'s fifth field): how its result came to be.
RECORD, MANUAL, FORFEIT, BOARDS, NONE = "record", "manual", "forfeit", "boards", "none"
KINDS = (RECORD, MANUAL, FORFEIT, BOARDS, NONE)
#: The event keys every file has (``012``).
REQUIRED_KEYS = ("uuid", "name", "game", "format")
#: The games and the event formats a report may name (``012 game``, ``012 format``).
GAMES = tuple(MODULES)
EVENT_FORMATS = (*FORMATS, TEAMS, DUPLICATE)
#: A draw in a game's winner field.
DRAW = "="

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


@attrs.frozen
class Player:
    """``001``: the player's number in the event, federation id, name, entry (pair or team), club,
    the round they entered at, the round they withdrew from (none: still playing), and their
    rating as the event was given it (the players CSV's ``rating`` column, as written there)."""

    number: int
    fed_id: str | None
    name: str
    entry: str | None = None
    club: str | None = None
    from_round: int = 1
    withdrawn_from: int | None = None
    rating: str | None = None


@attrs.frozen
class Side:
    """One side of a game: its label (``NS``, ``P3``), its score (none: no result), its players
    by seat (seat, player number) and whether it did not play (a forfeit)."""

    side: str
    score: int | None
    seats: tuple[tuple[str, int], ...]
    absent: bool = False


@attrs.frozen
class Game:
    """``002``: a table of a round.  ``game_id`` is the table's number in the event file, the
    same in every export of the event, so that a game read twice (or read from the event file as
    well) is known for the same game.  ``winner``: a side, :data:`DRAW`, or none."""

    game_id: int
    round: int
    table: int
    match: str | None
    kind: str
    ending: str | None
    winner: str | None
    sides: tuple[Side, ...]

    def players(self) -> tuple[int, ...]:
        return tuple(p for s in self.sides for _, p in s.seats)


@attrs.frozen
class Round:
    """``004``: a round, its stage's number and its label (``Swiss round 2``, ``semi-final``)."""

    round: int
    stage: int
    label: str


@attrs.frozen
class Bye:
    """``003``: a player without a table in a round."""

    round: int
    player: int


@attrs.frozen
class Board:
    """``005``: a duplicate board's result at a table: how the hand ended, NS's and EW's points."""

    round: int
    table: int
    board: int
    ending: str | None
    ns_points: int
    ew_points: int
    verified: bool


@attrs.frozen
class Report:
    """A whole federation report."""

    event: tuple[tuple[str, str], ...]
    players: tuple[Player, ...] = ()
    rounds: tuple[Round, ...] = ()
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()
    boards: tuple[Board, ...] = ()

    def value(self, key: str) -> str | None:
        """The event's value for ``key`` (the first ``012`` line with it)."""
        return next((v for k, v in self.event if k == key), None)

    @property
    def uuid(self) -> str:
        return self.value("uuid") or ""

    @property
    def name(self) -> str:
        return self.value("name") or ""

    @property
    def game(self) -> str:
        return self.value("game") or ""


# --- writing ---------------------------------------------------------------------------------------


_NAMED = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


#: What makes a spreadsheet read a field as a formula (a clerk opens the file in one): OWASP's list,
#: as the tool's CSV has it (a TAB and a carriage return are escaped already).  A number is no formula.
FORMULA_START = ("=", "+", "-", "@")
_NUMBER = re.compile(r"[-+]?[0-9]+(\.[0-9]+)?")


def escape(text: str) -> str:
    r"""A text field as written: a backslash, TAB and line breaks as ``\\``, ``\t``, ``\n``,
    ``\r``, and every other control character or line separator (which some programs would take
    for a line's end) as ``\u`` and its code in four hex digits (``\u2028``); and a first
    character a spreadsheet would start a formula with (``=HYPERLINK(…)``, ``+``, ``-``, ``@``; a
    number aside) as ``\u`` too (``\u003d``), which every reader reads back as it was."""
    lead = ""
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        lead, text = f"\\u{ord(text[0]):04x}", text[1:]
    if text.isprintable() and "\\" not in text:
        return lead + text
    return lead + "".join(_NAMED.get(ch) or (f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Zl", "Zp")
                                      else ch) for ch in text)


def _opt(value: object) -> str:
    return "" if value is None else escape(str(value))


def _word(value: str | None) -> str:
    """A word field (an ending, a winner: ``=`` for a draw), read as written, never escaped."""
    return "" if value is None else value


def side_text(side: Side) -> str:
    """A side as one field: ``NS 171 N=1 S=2`` (``-`` for no score; ``absent`` last for a side
    that did not play)."""
    parts = [side.side, "-" if side.score is None else str(side.score)]
    parts += [f"{seat}={player}" for seat, player in side.seats]
    if side.absent:
        parts.append("absent")
    return " ".join(parts)


def lines(report: Report) -> Iterator[str]:
    yield HEADER
    for key, value in report.event:
        yield f"012\t{escape(key)}\t{escape(value)}"
    for p in report.players:
        yield "\t".join(["001", str(p.number), _opt(p.fed_id), escape(p.name), _opt(p.entry), _opt(p.club),
                         str(p.from_round), _opt(p.withdrawn_from), _opt(p.rating)])
    for r in report.rounds:
        yield f"004\t{r.round}\t{r.stage}\t{escape(r.label)}"
    for g in report.games:
        yield "\t".join(["002", str(g.game_id), str(g.round), str(g.table), _opt(g.match), g.kind, _word(g.ending),
                         _word(g.winner), *(side_text(s) for s in g.sides)])
    for b in report.byes:
        yield f"003\t{b.round}\t{b.player}"
    for b in report.boards:
        yield "\t".join(["005", str(b.round), str(b.table), str(b.board), _word(b.ending), str(b.ns_points),
                         str(b.ew_points), "yes" if b.verified else "no"])


def dumps(report: Report) -> str:
    """The report as the file's text."""
    return "".join(line + "\n" for line in lines(report))


# --- reading ---------------------------------------------------------------------------------------


def _shown(text: str) -> str:
    """A field quoted in an error: at most 40 characters of it (a line may be very long)."""
    return repr(text[:40]) + ("…" if len(text) > 40 else "")


class _Line:
    """One line being read: its fields and where each starts, for errors at ``FILE:line:column``."""

    def __init__(self, source: str, number: int, text: str) -> None:
        self.source = source
        self.number = number
        self.fields = text.split("\t")
        self.starts = []
        at = 1
        for f in self.fields:
            self.starts.append(at)
            at += len(f) + 1

    def fail(self, index: int, message: str) -> FederationFileError:
        column = self.starts[min(index, len(self.starts) - 1)] if index < len(self.fields) else \
            self.starts[-1] + len(self.fields[-1])
        return FederationFileError(f"{self.source}:{self.number}:{column}: {message}")

    def count(self, least: int, most: int | None, what: str) -> None:
        n = len(self.fields)
        if n < least:
            raise self.fail(n, f"{what} line has {n} fields, and needs {least} (fields are separated by one TAB)")
        if most is not None and n > most:
            raise self.fail(most, f"{what} line has {n} fields, at most {most} (fields are separated by one TAB)")

    def text(self, i: int, what: str, required: bool = True) -> str | None:
        raw = self.fields[i] if i < len(self.fields) else ""
        if not raw:
            if required:
                raise self.fail(i, f"{what} is empty")
            return None
        try:
            return unescape(raw)
        except ValueError as e:
            raise self.fail(i, f"{what}: {e}") from None

    def number_at(self, i: int, what: str, least: int | None = 1, required: bool = True,
                  negative: bool = False) -> int | None:
        raw = self.fields[i] if i < len(self.fields) else ""
        if not raw and not required:
            return None
        if not re.fullmatch(r"-?[0-9]{1,18}" if negative else r"[0-9]{1,18}", raw):
            raise self.fail(i, f"{what} must be a whole number, not {_shown(raw)}")
        value = int(raw)
        if least is not None and value < least:
            raise self.fail(i, f"{what} must be at least {least}, not {value}")
        return value

    def word(self, i: int, what: str, required: bool = True) -> str | None:
        raw = self.fields[i] if i < len(self.fields) else ""
        if not raw and not required:
            return None
        if not _WORD.fullmatch(raw):
            raise self.fail(i, f"{what} must be a word of letters, digits and hyphens, not {_shown(raw)}")
        return raw


def unescape(text: str) -> str:
    """A text field as read: :func:`escape` undone; a backslash before anything else, or a
    ``\\u`` naming half of a UTF-16 pair (no character), is a ``ValueError``."""
    if "\\" not in text:
        return text
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2:i + 6]):
                code = int(text[i + 2:i + 6], 16)
                if 0xD800 <= code <= 0xDFFF:
                    raise ValueError(f"\\u{text[i + 2:i + 6]} is half of a UTF-16 pair, not a character")
                out.append(chr(code))
                i += 6
                continue
            if nxt not in ("\\", "t", "n", "r"):
                raise ValueError(f"a backslash starts \\\\, \\t, \\n, \\r or \\u and four hex digits, not \\{nxt}")
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}[nxt])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _side(line: _Line, i: int) -> Side:
    parts = line.fields[i].split(" ")
    if len(parts) < 3 or not all(parts):
        raise line.fail(i, f"a side is its label, its score (or -) and SEAT=PLAYER for each player, separated "
                           f"by one space, not {_shown(line.fields[i])}")
    label, score_text, rest = parts[0], parts[1], parts[2:]
    if not _WORD.fullmatch(label):
        raise line.fail(i, f"a side's label must be a word (NS, P1), not {_shown(label)}")
    if score_text == "-":
        score = None
    elif re.fullmatch(r"-?[0-9]{1,18}", score_text):
        score = int(score_text)
    else:
        raise line.fail(i, f"side {label}'s score must be a whole number or -, not {_shown(score_text)}")
    absent = rest[-1] == "absent"
    if absent:
        rest = rest[:-1]
    if not rest:
        raise line.fail(i, f"side {label} has no players (SEAT=PLAYER)")
    seats = []
    for part in rest:
        m = re.fullmatch(r"([A-Za-z0-9]+)=([0-9]{1,18})", part)
        if not m or int(m.group(2)) < 1:
            raise line.fail(i, f"side {label}: a player is SEAT=NUMBER (N=12), not {_shown(part)}")
        seats.append((m.group(1), int(m.group(2))))
    return Side(label, score, tuple(seats), absent)


def loads(text: str, source: str = "<federation report>") -> Report:
    """Read a federation report's text; :class:`FederationFileError` at ``source:line:column`` for
    anything that cannot be used.  Every player a game names must be on a ``001`` line."""
    event: list[tuple[str, str]] = []
    players: dict[int, Player] = {}
    ids: dict[str, int] = {}
    rounds: list[Round] = []
    games: list[Game] = []
    game_ids: set[int] = set()
    byes: list[Bye] = []
    boards: list[Board] = []
    seen_header = False
    named: list[tuple[_Line, int, int]] = []  # (line, field, player): checked once every player is read
    if text.startswith("\ufeff"):
        text = text[1:]
    for number, raw in enumerate(text.split("\n"), 1):
        raw = raw.removesuffix("\r")
        if not raw.strip() or raw.startswith("#"):
            continue
        line = _Line(source, number, raw)
        code = line.fields[0]
        if not seen_header:
            if code != "000":
                raise line.fail(0, f"not a federation report: its first line must be the header "
                                   f"'000<TAB>{FORMAT}<TAB>{VERSION}', not {_shown(raw)}")
            line.count(3, 4, "the header")
            if line.fields[1] != FORMAT:
                raise line.fail(1, f"not a federation report: the format is {_shown(line.fields[1])}, "
                                   f"not {FORMAT!r}")
            version = line.number_at(2, "the version")
            assert version is not None
            if version > VERSION:
                raise line.fail(2, f"version {version} of the format is newer than this tool reads "
                                   f"(version {VERSION}): update the tournament tool")
            seen_header = True
            continue
        if code == "000":
            raise line.fail(0, "a second header line (000): one file is one event's report")
        elif code == "012":
            line.count(3, 3, "an event (012)")
            key = line.text(1, "the event key")
            value = line.text(2, f"the event's {key}", required=False) or ""
            assert key is not None
            if key in ("uuid", "name", "game", "format") and any(k == key for k, _ in event):
                raise line.fail(1, f"the event's {key} is given twice")
            if key == "game" and value not in GAMES:
                raise line.fail(2, f"the game is one of {', '.join(GAMES)}, not {_shown(value)}")
            if key == "format" and value not in EVENT_FORMATS:
                raise line.fail(2, f"the format is one of {', '.join(EVENT_FORMATS)}, not {_shown(value)}")
            event.append((key, value))
        elif code == "001":
            line.count(9, 9, "a player (001)")
            n = line.number_at(1, "the player's number")
            assert n is not None
            if n in players:
                raise line.fail(1, f"player number {n} is on two lines")
            fid = line.text(2, "the federation id", required=False)
            if fid is not None:
                if fid in ids:
                    raise line.fail(2, f"the federation id {_shown(fid)} is also player {ids[fid]}'s: an id names "
                                       f"one player")
                ids[fid] = n
            name = line.text(3, "the player's name")
            assert name is not None
            players[n] = Player(n, fid, name, line.text(4, "the entry", required=False),
                                line.text(5, "the club", required=False),
                                line.number_at(6, "the round entered") or 1,
                                line.number_at(7, "the round withdrawn from", required=False),
                                line.text(8, "the rating", required=False))
        elif code == "004":
            line.count(4, 4, "a round (004)")
            rounds.append(Round(line.number_at(1, "the round") or 0, line.number_at(2, "the stage") or 0,
                                line.text(3, "the round's label") or ""))
        elif code == "002":
            line.count(10, None, "a game (002)")
            gid = line.number_at(1, "the game's number")
            assert gid is not None
            if gid in game_ids:
                raise line.fail(1, f"game {gid} is on two lines")
            game_ids.add(gid)
            kind = line.fields[5]
            if kind not in KINDS:
                raise line.fail(5, f"a game's kind is one of {', '.join(KINDS)}, not {_shown(kind)}")
            sides = tuple(_side(line, i) for i in range(8, len(line.fields)))
            labels = [s.side for s in sides]
            if len(set(labels)) != len(labels):
                raise line.fail(8, f"a side is named twice: {', '.join(labels)}")
            winner = line.fields[7] or None
            if winner is not None and winner != DRAW and winner not in labels:
                raise line.fail(7, f"the winner must be one of the sides ({', '.join(labels)}), {DRAW} for a draw, "
                                   f"or empty, not {_shown(winner)}")
            if kind in (RECORD, MANUAL, FORFEIT) and any(s.score is None for s in sides):
                raise line.fail(8, f"a {kind} game has a score for every side")
            at = 8
            for s in sides:
                named += [(line, at, p) for _, p in s.seats]
                at += 1
            game = Game(gid, line.number_at(2, "the round") or 0, line.number_at(3, "the table") or 0,
                        line.text(4, "the match", required=False), kind, line.word(6, "the ending", required=False),
                        winner, sides)
            seated = game.players()
            if len(set(seated)) != len(seated):
                raise line.fail(8, "a player sits twice at the game's table")
            games.append(game)
        elif code == "003":
            line.count(3, 3, "a bye (003)")
            player = line.number_at(2, "the player")
            assert player is not None
            named.append((line, 2, player))
            byes.append(Bye(line.number_at(1, "the round") or 0, player))
        elif code == "005":
            line.count(8, 8, "a board (005)")
            if line.fields[7] not in ("yes", "no"):
                raise line.fail(7, f"verified is yes or no, not {_shown(line.fields[7])}")
            boards.append(Board(line.number_at(1, "the round") or 0, line.number_at(2, "the table") or 0,
                                line.number_at(3, "the board") or 0, line.word(4, "the ending", required=False),
                                line.number_at(5, "NS's points", least=None, negative=True) or 0,
                                line.number_at(6, "EW's points", least=None, negative=True) or 0,
                                line.fields[7] == "yes"))
        else:
            raise line.fail(0, f"unknown line code {_shown(code)}: a line is 000, 012, 001, 004, 002, 003 or 005 "
                               f"(or a comment starting with #)")
    if not seen_header:
        raise FederationFileError(f"{source}:1:1: not a federation report: the file is empty")
    for key in REQUIRED_KEYS:
        if not any(k == key and v for k, v in event):
            raise FederationFileError(f"{source}:1:1: the event's {key} is missing: a line '012<TAB>{key}<TAB>…'")
    for line, field, player in named:
        if player not in players:
            raise line.fail(field, f"player {player} is not on any player line (001)")
    return Report(tuple(event), tuple(players.values()), tuple(rounds), tuple(games), tuple(byes), tuple(boards))


def read(path: str, data: bytes) -> Report:
    """A file's bytes, UTF-8, as a report (an undecodable byte is an error at its line and column)."""
    if data.startswith(b"SQLite format 3\x00"):
        raise FederationFileError(f"{path}:1:1: an SQLite database (an event file? read it with --add), "
                                  f"not a federation report")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise FederationFileError(f"{path}:{line}:{column}: not UTF-8 text (byte 0x{data[e.start]:02x})") from None
    return loads(text, path)

