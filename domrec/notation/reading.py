"""DGN, the domino game notation: a reader that takes what people type, and one canonical writer.

A DGN text holds one or more games (a header of ``[Tag "value"]`` lines, then
``hand N`` sections); ``docs/notation.md`` is the full grammar.  Like
python-chess's PGN reader, the reader never dies on the first problem of an
archive: each game is read on its own, and a game that cannot be read is
reported with the line and column of the fault while the others are checked.

Reading is layered as for JSON: DGN text -> the record's JSON data -> the
same shape check -> :class:`~domrec.record.Record` -> the same replay.  Two
ways lead to the JSON data:

* **as written**, when every hand has its deal and every move its seat (the
  canonical form the writer produces): no engine is needed to read it;
* **through the Game API** (:mod:`domrec.game`), when moves leave out their
  seats or hands leave out their deal: the engine says whose turn it is,
  forced passes are inserted where the deal is known, and the deal is worked
  out from the moves and the ``left`` tiles.

A record read as written that breaks a rule is read again the second way, so
that a forced pass left out by a move written *with* its seat is inserted as
well (a JSON record must write it; DGN lets it be left out).

Every value read keeps its position, so each problem the validator finds
(a JSON Pointer) is also given as ``line:column`` in the text.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import itertools
import json
import re
import sys
from typing import Any, Iterator, NamedTuple, Sequence

import attrs

from domrec import games
from domrec.errors import InputError, NotJSONError, NotUnicodeError, RuleViolation, TooLargeError, shown
from domrec.reader import JSON_NUMBERS, MAX_DEPTH, check_value, unicode_text
from domrec.record import GameResult, HandResult, Player, Record, structure_move, unstructure
from domrec.validate import Problem, Report, rest_of_hand_note, unusable, validate

DGN_VERSION = "1.1"  # the newest minor the reader writes into records that need it


class NotationError(InputError):
    """A DGN text that cannot be read (exit 2), at ``line``:``column``."""

    def __init__(self, message: str, line: int, column: int, pointer: str = "") -> None:
        super().__init__(message, pointer)
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


# --- tokens ------------------------------------------------------------------------------

_TILE = r"(?:[0-9]{1,2}[-:|][0-9]{1,2}|[0-9][0-9])"
_TILE_RE = re.compile(r"([0-9]{1,2})[-:|]([0-9]{1,2})\Z|([0-9])([0-9])\Z")
_TOKEN = re.compile(r"""
    (?P<nl>\n)
  | (?P<ws>[ \t\r\f\v,]+)
  | (?P<tag>(?<![^\n])[ \t]*\[[^\n]*\][ \t]*(?=\n|\Z))
  | (?P<badtag>(?<![^\n])[ \t]*\[)
  | (?P<comment>\{(?:[^\\}]|\\.)*\})
  | (?P<open>\{)
  | (?P<close>\})
  | (?P<semi>;)
  | (?P<word>(?:[^\s,;{}"]|"(?:[^"\\\n]|\\.)*")+(?:,-?[0-9](?:[^\s,;{}"]|"(?:[^"\\\n]|\\.)*")*)*)
  | (?P<badquote>")
""", re.VERBOSE)

_MOVE = re.compile(rf"""(?x)
  (?:
    (?P<pass>-|pass|p|PASS|Pass)
  | (?P<reuse>reuse)
  | r(?P<d1>[0-9])\+?(?P<d2>[0-9])
  | \+(?P<draw>{_TILE})?
  | x(?P<capture>{_TILE}(?:,{_TILE}){{0,2}})
  | !(?P<exposed>{_TILE})(?P<unplayable>\?)?
  | (?P<kind>[*sb\#])?(?P<tile>{_TILE})(?:@(?P<at>(?:[^="]|"(?:[^"\\]|\\.)*")+))?
  )
  (?:=(?P<score>-?[0-9]+))?\Z""")

_CELLS = re.compile(r"(-?[0-9]+),(-?[0-9]+)(?::(-?[0-9]+),(-?[0-9]+))?\Z")
_ROAD = r'(?:"(?:[^"\\]|\\.)*"|[^/+@="\s]+)'
_STARTER_AT = re.compile(rf"({_ROAD})/([0-9]+)\Z")
_BRIDGE_AT = re.compile(rf"({_ROAD})/([0-9]+)/([0-9]+)\+({_ROAD})/([0-9]+)/([0-9]+)\Z")
_ROAD_AT = re.compile(rf"({_ROAD})\Z")
_MOVE_NUMBER = re.compile(r"[0-9]+\.+\Z")
_KEYWORDS = ("hand", "deal", "boneyard", "row", "pile", "leaddraw", "redeal", "left", "end")
_FAST_PARTS = frozenset(("deal", "pile", "row", "boneyard"))
HAND_ENDS = ("out", "blocked", "sudden-death", "target", "abandoned")
_SEAT_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_DEFAULT_SEAT = re.compile(r"(?:[NESW]|P[1-9][0-9]*)\Z")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*\Z")
_EVENT_TAGS = {"event": "name", "site": "site", "date": "date", "round": "round", "table": "table"}
_SINGLE_TAGS = {"game", "format", "variant", "seats", "scores", "winner", "ended", "event", "site", "date", "round",
                "table"}
_RESERVED = {"game", "format", "variant", "option", "seats", "id", "scores", "winner", "ended", "field", *_EVENT_TAGS}


_TILE_CACHE: dict[str, str | None] = {}
#: (game, word) -> (move data, out of turn by nature): archives repeat the same words.
_MOVE_CACHE: dict[tuple[str, str], tuple[dict, bool]] = {}
#: (game, seats) -> (seat, word) -> the move's data with its seat (the canonical "SEAT move"
#: pair), built from _MOVE_CACHE's entries of moves in turn; copied for each move read.
_PAIR_CACHE: dict[tuple[str, tuple[str, ...]], dict[tuple[str, str], dict]] = {}


def _tile_text(text: str) -> str | None:
    """A tile as typed (``63``, ``6:3``, ``6|3``, ``6-3``) in the record's form ``6-3``, halves kept in order."""
    try:
        return _TILE_CACHE[text]
    except KeyError:
        pass
    m = _TILE_RE.match(text)
    if m is None:
        out = None
    else:
        a, b = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
        out = f"{int(a)}-{int(b)}"
    if len(_TILE_CACHE) < 10_000:
        _TILE_CACHE[text] = out
    return out


class _Token(NamedTuple):
    kind: str
    text: str
    pos: int
    first: bool  # first token on its line


@attrs.define
class _MoveTok:
    seat: str | None
    data: dict
    pos: int
    exposure: bool = False  # out of turn by nature (Broadway exposures and penalty plays)


@attrs.define
class _HandText:
    number: int
    pos: int
    leader: str | None = None
    comment: str | None = None
    deal: dict = attrs.Factory(dict)
    deal_pos: dict = attrs.Factory(dict)
    #: Each move's JSON data as typed (``seat`` only where written); its offset; the indices of
    #: moves out of turn by nature (Broadway exposures and penalty plays).
    moves: list = attrs.Factory(list)
    move_pos: list = attrs.Factory(list)
    #: Where a move's seat was typed, by move index, for the moves not read by the fast path
    #: (which reads "SEAT move" pairs: the seat is the word before the move; see seat_spot).
    seat_pos: dict = attrs.Factory(dict)
    exposures: set = attrs.Factory(set)
    left: dict | None = None
    left_pos: int | None = None
    end: dict | None = None
    end_pos: int | None = None

    def seat_spot(self, j: int) -> Any:
        """Where move ``j``'s seat was typed (an offset or a (line start, word) spot), or ``None``."""
        spot = self.seat_pos.get(j)
        if spot is None and j < len(self.move_pos) and "seat" in self.moves[j]:
            move = self.move_pos[j]
            if type(move) is tuple:  # the fast path's "SEAT move": the word before
                spot = (move[0], move[1] - 1)
        return spot


class _Text:
    """The text of one game and the arithmetic from offsets to line:column."""

    def __init__(self, text: str, first_line: int) -> None:
        self.text = text
        self.first_line = first_line
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, pos: int) -> tuple[int, int]:
        k = bisect.bisect_right(self.starts, pos) - 1
        return self.first_line + k, pos - self.starts[k] + 1

    def error(self, message: str, pos: int) -> NotationError:
        line, col = self.where(pos)
        return NotationError(message, line, col)


_PLAIN = re.compile(r'[{}"\[\]]')
_BODY = re.compile(r"^[ \t]*hand\b", re.M)
_DIGITS = re.compile(r"[0-9]+")
_POINTS = re.compile(r"-?[0-9]+")


def _tokens(src: _Text) -> list[_Token]:
    """The tokens of a game's text.  Lines without comments, quotes or tags (nearly all of
    an archive) are split by ``str.split``; the rest goes through the full tokenizer."""
    text = src.text
    m = _BODY.search(text)
    body = m.start() if m is not None else len(text)
    if _PLAIN.search(text, body) is None:
        head = list(_full_tokens(src, body)) if body else []
        return head + _plain_lines(text, body)
    return list(_full_tokens(src))


#: The first word of a plain line (lower case) -> its token kind; any other word starts moves.
_LINE_KINDS = {word: "part" if word in _FAST_PARTS else "line" for word in _KEYWORDS}


def _plain_lines(text: str, offset: int) -> list[_Token]:
    """The tokens of a plain body (no comments, quotes or tags), a line each where the reader
    splits the line itself: moves, deal parts (fast path) and other keyword lines.  A line
    with ``;`` is split into words here."""
    out: list[_Token] = []
    append = out.append
    new, token = tuple.__new__, _Token
    kinds = _LINE_KINDS
    for orig in text[offset:].split("\n"):
        head = orig.split(None, 1)
        if head and ";" not in orig:
            append(new(token, (kinds.get(head[0].lower(), "moves"), orig, offset, True)))
        else:
            out += _line_tokens(orig, offset)
        offset += len(orig) + 1
    return out




def _line_tokens(orig: str, offset: int) -> list[_Token]:
    """The word and ``;`` tokens of one plain line that starts at ``offset``."""
    out = []
    if ";" not in orig and "," not in orig:
        words = orig.split()
        if " ".join(words) == orig:  # words one space apart (as written by dumps): offsets by sums
            new, token = tuple.__new__, _Token
            first = True
            for word in words:
                out.append(new(token, ("word", word, offset, first)))
                first = False
                offset += len(word) + 1
            return out
    first = True
    cursor = 0
    find = orig.find
    line = orig.replace(";", " ; ") if ";" in orig else orig
    for word in line.split():
        at = find(word, cursor) if word != ";" else find(";", cursor)
        cursor = at + len(word)
        if word == ";":
            out.append(_Token("semi", ";", offset + at, False))
            first = False
            continue
        if "," in word:
            word, at = _without_commas(word, at)
            if not word:
                continue
        out.append(_Token("word", word, offset + at, first))
        first = False
    return out


def _full_tokens(src: _Text, end: int | None = None) -> Iterator[_Token]:
    text = src.text
    first = True
    pos = 0
    n = len(text) if end is None else end
    match = _TOKEN.match
    while pos < n:
        m = match(text, pos)
        if m is None:  # cannot happen: every character starts some token
            raise src.error(f"unexpected character {text[pos]!r}", pos)
        kind = m.lastgroup
        if kind == "nl":
            first = True
        elif kind == "ws":
            pass
        elif kind == "badtag":
            raise src.error("a tag is not closed: write it on one line as [Name \"value\"]", m.end() - 1)
        elif kind == "open":
            raise src.error("a comment is not closed: it starts here with { and has no }", pos)
        elif kind == "close":
            raise src.error("} closes no comment", pos)
        elif kind == "badquote":
            raise src.error("a quoted name is not closed on its line", pos)
        else:
            yield _Token(kind, m.group(), m.start() if kind != "tag" else text.index("[", pos), first)
            if kind != "comment":
                first = False
        pos = m.end()


_WORD = re.compile(r"\S+")


def _without_commas(word: str, at: int) -> tuple[str, int]:
    """A word without the commas that separate it from its neighbours (``6-6,`` ``,6-4``),
    and where it now starts; commas inside (``x2-4,4-4,1-4``) stay."""
    return word.strip(","), at + len(word) - len(word.lstrip(","))


def _word_starts(line: str, at: int, skip: int) -> list[int]:
    """Where the words of ``line`` (which starts at offset ``at``) start, but the first ``skip``."""
    return [at + m.start() for m in _WORD.finditer(line)][skip:]


def _word_offset(line: str, k: int) -> int:
    """Where the ``k``-th word (0-based) of ``line`` starts."""
    for i, m in enumerate(_WORD.finditer(line)):
        if i == k:
            return m.start()
    return len(line)


def _offset(text: str, spot: Any) -> int:
    """An offset in ``text``: kept as such, or (line start, word number) worked out now."""
    if type(spot) is tuple:
        base, k = spot
        end = text.find("\n", base)
        return base + _word_offset(text[base:] if end < 0 else text[base:end], k)
    return spot


def _unescape_comment(body: str) -> str:
    return re.sub(r"\\([\\}])", r"\1", body)


def _escape_comment(text: str) -> str:
    return text.replace("\\", "\\\\").replace("}", "\\}")


# --- splitting an archive into games ----------------------------------------------------


@attrs.frozen
class Chunk:
    """One game's text in a DGN file (bytes, as read) and the line it starts on."""

    first_line: int
    data: bytes


_GAP_TAG = re.compile(rb"\n[ \t\r\x0b\x0c]*\n[ \t\r\x0b\x0c]*\[")  # a blank line, then a tag line
_BODY_LINE = re.compile(rb"^[ \t\r\x0b\x0c]*[^\s\[]", re.M)  # a line that is neither blank nor a tag


def split_games(data: bytes) -> list[Chunk]:
    """The games of a DGN text: a new game starts at a tag line that follows a blank line
    (or begins the file) after hands have been written.  The regexes find those lines without
    a Python step per line of the archive."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    chunks: list[Chunk] = []
    start = 0  # where the current game's first line starts
    line = 1
    for m in _GAP_TAG.finditer(data):
        tag = data.rfind(b"\n", 0, m.end()) + 1  # the tag line's start
        if _BODY_LINE.search(data, start, tag) is None:  # no hands since the game's start
            continue
        chunks.append(Chunk(line, data[start:tag - 1]))
        line += data.count(b"\n", start, tag)
        start = tag
    chunks.append(Chunk(line, data[start:]))
    return [c for c in chunks if c.data.strip()] or chunks[:1]


def decode(chunk: Chunk) -> str:
    """A game's text as Unicode: DGN is UTF-8, and text in another encoding is refused where it starts."""
    try:
        return unicode_text(chunk.data).replace("\r\n", "\n")  # a file saved on Windows reads the same
    except NotUnicodeError as e:
        message = e.message.split(": ", 1)[1]  # the position is said as the problem's line:column
        raise NotationError(message, chunk.first_line + (e.line or 1) - 1, e.column or 1) from None


# --- the reader -------------------------------------------------------------------------


@attrs.frozen
class DgnGame:
    """One game read from DGN: its record (``None`` if unreadable), the verdict, and where things are."""

    record: Record | None
    report: Report
    first_line: int
    #: False when reading through the rules stopped at a problem: the record holds only
    #: the text up to it (enough to report it, not to convert it).
    complete: bool = True


_MOVE_POINTER = re.compile(r"/hands/([0-9]+)/moves/([0-9]+)(?:/|\Z)")


class _Positions:
    """JSON Pointer -> offset in the text, for turning the validator's pointers into line:column."""

    def __init__(self, src: _Text) -> None:
        self.src = src
        self.at: dict[str, int] = {}
        #: hand index -> the offset of each of its moves (a pointer is made only when asked for).
        self.moves: dict[int, list[int]] = {}
        #: pointer of a list (a seat's deal, the row…) -> the offset of each element, or a
        #: function giving them (worked out only for a problem).
        self.lists: dict[str, Any] = {}
        #: hand index -> a function giving where move j's seat was typed (``None``: not typed).
        self.seats: dict[int, Any] = {}

    def __setitem__(self, pointer: str, pos: int) -> None:
        self.at.setdefault(pointer, pos)

    def locate(self, pointer: str) -> tuple[int, int] | None:
        m = _MOVE_POINTER.match(pointer)
        if m is not None:
            h, j = int(m.group(1)), int(m.group(2))
            found = self.moves.get(h)
            if found is not None and j < len(found):
                text = self.src.text
                seat_of = self.seats.get(h)
                seat = seat_of(j) if seat_of is not None else None
                return self.src.where(_field_at(text, _offset(text, found[j]), pointer[m.end(2):],
                                                None if seat is None else _offset(text, seat)))
        head, _, last = pointer.rpartition("/")
        while head:
            found = self.lists.get(head)
            if callable(found):
                found = self.lists[head] = found()
            if found is not None and last.isdigit() and int(last) < len(found):
                return self.src.where(found[int(last)])
            head, _, last = head.rpartition("/")
        p = pointer
        while True:
            if p in self.at:
                return self.src.where(self.at[p])
            if not p:
                return None
            p = p.rsplit("/", 1)[0]

    def exact(self, pointer: str) -> tuple[int, int] | None:
        """The position of exactly this value (a tile of a deal, the row, a side's claimed
        score on an end line…), if it was read."""
        if "/result/scores/" in pointer and pointer in self.at:
            return self.src.where(self.at[pointer])
        head, _, last = pointer.rpartition("/")
        found = self.lists.get(head)
        if callable(found):
            found = self.lists[head] = found()
        if found is not None and last.isdigit() and int(last) < len(found):
            return self.src.where(found[int(last)])
        return None

    def place(self, problem: Problem) -> Problem:
        spot = self.locate(problem.pointer)
        if spot is None or problem.line is not None:
            return problem
        return attrs.evolve(problem, line=spot[0], column=spot[1])


_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _move_word(text: str, pos: int) -> re.Match | None:
    """The move written at ``pos``, matched by the move pattern (its groups locate its parts).

    The word runs to a space or a comment (a quoted road name may hold spaces); moves typed
    together with commas (``6-6,6-4``) are split as the reader splits them, the longest first.
    """
    end, n = pos, len(text)
    while end < n and not text[end].isspace() and text[end] != "{":
        if text[end] == '"':
            close = _QUOTED.match(text, end)
            end = close.end() if close is not None else end + 1
        else:
            end += 1
    word = text[pos:end].rstrip(",")
    m = _MOVE.match(word)
    if m is None and "," in word:
        parts = word.split(",")
        for k in range(len(parts) - 1, 0, -1):
            m = _MOVE.match(",".join(parts[:k]))
            if m is not None:
                break
    return m


def _field_at(text: str, pos: int, rest: str, seat: int | None = None) -> int:
    """Where in the text the field ``rest`` of the move at ``pos`` is written.

    ``rest`` is the validator's pointer below the move (``/on``, ``/capture/1``, ``/join/0/half``):
    the tile, cell, road or number it names is found inside the move word, so that a problem is
    reported at the offending value, not at the start of the move.  ``seat`` is where the move's
    seat was typed (``None``: left out, then the move itself).  Anything not written (an ``on``
    the move needs but lacks) is placed at the move.
    """
    steps = rest.split("/")[1:]
    if not steps:
        return pos
    key = steps[0]
    if key == "seat":
        return pos if seat is None else seat
    m = _move_word(text, pos)
    if m is None:
        return pos
    g = m.groupdict()
    index = int(steps[1]) if len(steps) > 1 and steps[1].isdigit() else 0
    if key == "score":
        return pos + m.start("score") - 1 if g["score"] is not None else pos  # the "=" of "=n"
    if key == "capture" and g["capture"] is not None:
        tiles = g["capture"].split(",")
        k = min(index, len(tiles) - 1)
        return pos + m.start("capture") + sum(len(x) + 1 for x in tiles[:k])
    if key == "draw":
        return pos + m.start("draw") if g["draw"] is not None else pos
    if key == "roll" and g["d1"] is not None:
        return pos + m.start("d2" if index == 1 else "d1")
    if key in ("exposed", "unplayable") and g["exposed"] is not None:
        return pos + m.start("unplayable") if key == "unplayable" and g["unplayable"] else pos + m.start("exposed")
    if key in ("play", "span", "starter", "bridge", "block") and g["tile"] is not None:
        return pos + m.start("tile")
    if key in ("on", "at", "road", "facing", "join") and g["at"] is not None:
        at, where = pos + m.start("at"), g["at"]
        if key == "at" and index == 1 and ":" in where:
            return at + where.index(":") + 1
        if key == "facing":
            parts = _STARTER_AT.match(where)
            return at + parts.start(2) if parts is not None else at
        if key == "join":
            parts = _BRIDGE_AT.match(where)
            field = steps[2] if len(steps) > 2 else "road"
            if parts is not None and index in (0, 1) and field in ("road", "span", "half"):
                return at + parts.start(3 * index + ("road", "span", "half").index(field) + 1)
        return at
    return pos


_TAG_BODY = re.compile(r"([^\s\"]+)\s*(.*)\Z", re.S)
_JSON = json.JSONDecoder()  # stateless: one for every tag


def _tag_value(raw: str, src: _Text, pos: int) -> tuple[str, Any, bool]:
    """(name, value, quoted) of a tag line ``[Name "value"]``."""
    body = raw.strip()[1:-1].strip()
    m = _TAG_BODY.match(body)
    if m is None:
        raise src.error("a tag needs a name: [Name \"value\"]", pos)
    name, rest = m.group(1), m.group(2).strip()
    if rest.startswith('"'):
        try:
            value, end = _JSON.raw_decode(rest)
        except (ValueError, RecursionError):
            raise src.error(f"the value of tag {name} is not a well-formed quoted text", pos) from None
        _checked(value, src, pos)
        tail = rest[end:].strip()
        if tail:
            return name, (value, tail), True
        return name, value, True
    return name, rest, False


def _bare_checked(value: str, src: "_Text", at: int) -> Any:
    out = _bare_value(value, src, at)
    if isinstance(out, str) and ("[" in out or "]" in out):
        raise src.error("a tag line holds one tag: write each [Name \"value\"] on a line of its own", at)
    return out


def _bare(value: str) -> Any:
    """A tag value typed without quotes: a JSON literal (3, true, [1,2]) is that value, anything else text."""
    if value and (value[0] in "-0123456789[{" or value in ("true", "false", "null")):
        try:
            return json.loads(value, **JSON_NUMBERS)
        except (ValueError, NotJSONError):  # not JSON (nor NaN, Infinity, 1e400): text
            return value
        except RecursionError:
            raise TooLargeError(_TOO_DEEP) from None
    return value


def _near(name: str, words: tuple[str, ...]) -> str | None:
    """A reserved tag name that ``name`` is a typo of, if any: two neighbouring letters
    swapped, or (for names of five letters or more) one letter changed, added or dropped.
    Short words and plurals are real words more often than typos ([Name], [Data], [Rounds])."""
    low = name.lower()
    for word in words:
        if low == word or low in (word + "s", word[:-1]) or word in (low + "s",):
            continue
        d = _distance(low, word)
        if d == 1 and (len(word) >= 5 or sorted(low) == sorted(word)):
            return word
        if d == 2 and len(word) >= 6 and sorted(low) == sorted(word):
            return word
    return None


def _distance(a: str, b: str) -> int:
    """Letters to add, drop, change or swap (two neighbours) to turn ``a`` into ``b``."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            best = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, rows[-2][j - 2] + 1)
            row.append(best)
        rows.append(row)
    return rows[-1][-1]


class _Reader:
    """Reads one game's text into the record's JSON data, keeping positions."""

    def __init__(self, text: str, first_line: int) -> None:
        self.src = _Text(text, first_line)
        self.pos = _Positions(self.src)
        self.doc: dict[str, Any] = {}
        self.hands: list[_HandText] = []
        self.seats: list[str] = []
        self.result_claim: dict[str, Any] = {}
        #: ``[Ended "time"]``: the game was stopped by the clock (format 1.1's ``ended``).
        self.ended: Any = None
        self.needs_game = False
        self.uses_11 = False
        #: A Broadway tile without its cells is a move (the recorder offers the placements).
        self.bare_tiles = False

    # -- header ------------------------------------------------------------------------

    def parse(self) -> None:
        toks = _tokens(self.src)
        k = 0
        header_comments: list[str] = []
        tags: list[tuple[str, Any, bool, int]] = []
        while k < len(toks) and toks[k].kind in ("tag", "comment"):
            t = toks[k]
            if t.kind == "tag":
                name, value, quoted = _tag_value(t.text, self.src, t.pos)
                tags.append((name, value, quoted, t.pos))
            else:
                header_comments.append(_unescape_comment(t.text[1:-1]))
            k += 1
        self._header(tags, header_comments)
        self._hands(toks[k:])

    def _header(self, tags: list[tuple[str, Any, bool, int]], comments: list[str]) -> None:
        src, pos = self.src, self.pos
        doc = self.doc
        event: dict[str, Any] = {}
        seat_tags: list[tuple[str, str, int]] = []
        declared: list[str] | None = None
        ids: list[tuple[str, str, int]] = []
        options: dict[str, Any] = {}
        rules: dict[str, Any] = {}
        first_pos = tags[0][3] if tags else 0
        for name, value, quoted, at in tags:
            low = name.lower()
            if isinstance(value, tuple) and low != "field":
                raise src.error(f"tag {name} has text after its value; write [Name \"value\"]", at)
            if low == "seats":
                declared = str(value).split()
                for s in declared:
                    if not _SEAT_LABEL.match(s):
                        raise src.error(f"{shown(s)!r} cannot be a seat label: a seat begins with a letter and has "
                                        f"letters, digits or _ only", at)
                pos["/players"] = at
        once: set[str] = set()
        for name, value, quoted, at in tags:
            low = name.lower()
            text = value if quoted else str(value)
            if low in _SINGLE_TAGS:
                if low in once:
                    raise src.error(f"tag [{name}] is given twice", at)
                once.add(low)
            if (not quoted and (low in _RESERVED or _DEFAULT_SEAT.match(name.upper())) and low not in _EVENT_TAGS
                    and low != "field" and ("[" in str(value) or "]" in str(value))):
                raise src.error("a tag line holds one tag: write each [Name \"value\"] on a line of its own", at)
            if low == "game":
                doc["game"] = text
                pos["/game"] = at
            elif low == "format":
                m = re.fullmatch(r"\s*domrec\s+(\S+)\s*", str(text))
                if m is None:
                    raise src.error(f"[Format] names the record format and its version, like \"domrec 1.1\", "
                                    f"not {shown(str(text))!r}", at)
                doc["version"] = m.group(1)
                pos["/version"] = at
            elif low == "variant":
                rules["variant"] = text
                pos["/rules/variant"] = at
            elif low == "option":
                opt_name, eq, raw = str(text).partition("=")
                opt_name = opt_name.strip()
                if not eq or not opt_name:
                    raise src.error(f"write a rule option as [Option \"name=value\"], not {shown(str(text))!r}", at)
                if opt_name in options:
                    raise src.error(f"rule option {opt_name} is given twice", at)
                options[opt_name] = games.parse_options([f"{opt_name}={raw.strip()}"])[opt_name]
                pos[f"/rules/options/{opt_name}"] = at
            elif low == "seats":
                continue
            elif low == "id":
                seat, eq, ident = str(text).partition("=")
                if not eq:
                    raise src.error(f"write a player's id as [Id \"SEAT=id\"], not {shown(str(text))!r}", at)
                ids.append((seat.strip(), ident.strip(), at))
            elif low == "scores":
                self.result_claim["scores"] = self._score_pairs(str(text).split(), at, "[Scores]")
                pos["/result/scores"] = at
                pos["/result"] = at
            elif low == "winner":
                self.result_claim["winner"] = None if str(text).lower() == "draw" else text
                pos["/result/winner"] = at
                pos["/result"] = at
            elif low == "ended":
                self.ended = text  # the shape check refuses anything but "time", pointing at this tag
                self.uses_11 = True
                pos["/ended"] = at
            elif low == "field":
                if not (isinstance(value, tuple) and quoted):
                    raise src.error("write an event field as [Field \"key\" value]", at)
                key, rest = value
                event[key] = _field_value(rest, src, at)
                pos["/event/" + key.replace("~", "~0").replace("/", "~1")] = at
            elif low in _EVENT_TAGS:
                key = _EVENT_TAGS[low]
                event[key] = value if quoted else _bare_checked(value, src, at)
                pos[f"/event/{key}"] = at
            elif (declared is not None and name in declared) or (declared is None and _DEFAULT_SEAT.match(name.upper())
                                                                 and len(name) <= 4):
                seat = name if declared is not None else name.upper()
                if any(s == seat for s, _, _ in seat_tags):
                    raise src.error(f"seat {seat} is given twice", at)
                seat_tags.append((seat, text if quoted else str(value), at))
            else:
                near = _near(name, tuple(sorted(_RESERVED - {"field"})))
                if near is not None:
                    raise src.error(f"unknown tag [{name}]: did you mean [{near.capitalize()}]? (to keep it as an "
                                    f"event field, write [Field \"{name}\" …])", at)
                if not _TAG_NAME.match(name):
                    raise src.error(f"{shown(name)!r} is not a tag name (a letter, then letters, digits, "
                                    f"_ . -); write [Field \"key\" value] for any other key", at)
                if name in event:
                    raise src.error(f"tag [{name}] is given twice", at)
                event[name] = value if quoted else _bare_checked(value, src, at)
                pos[f"/event/{name}"] = at
        if comments:
            if "comment" in event:
                event["comment"] = str(event["comment"]) + "\n" + "\n".join(comments)
            else:
                event["comment"] = "\n".join(comments)
        pos["/players"] = seat_tags[0][2] if seat_tags else first_pos
        pos["/rules"] = next((at for name, _, _, at in tags if name.lower() in ("variant", "option")), first_pos)
        pos[""] = first_pos
        if "game" not in doc:
            raise src.error("a game needs a [Game \"…\"] tag (broadway, competitive, horse-race, castle-rock or "
                            "domino-roads)", first_pos)
        if declared is not None:
            missing = [s for s in declared if s not in {t[0] for t in seat_tags}]
            if missing:
                raise src.error(f"[Seats] names {', '.join(missing)} but no tag gives their player "
                                f"([{missing[0]} \"name\"])", self.pos.at["/players"])
            order = {s: i for i, s in enumerate(declared)}
            seat_tags.sort(key=lambda t: order[t[0]])
        if not seat_tags:
            raise src.error("a game needs its players, one tag per seat in clockwise order: [N \"Ana\"] [E \"Bo\"] … "
                            "or [P1 \"Ana\"] [P2 \"Bo\"] …", first_pos)
        players = []
        for i, (seat, name, at) in enumerate(seat_tags):
            players.append({"seat": seat, "name": name})
            pos[f"/players/{i}"] = at
        for seat, ident, at in ids:
            found = [p for p in players if p["seat"] == seat]
            if not found:
                raise src.error(f"[Id] names seat {seat}, which no seat tag gives", at)
            found[0]["id"] = ident
        self.seats = [p["seat"] for p in players]
        self.doc_players = players
        self.rules = rules
        self.options = options
        self.event = event

    def _score_pairs(self, words: list[str], at: int, what: str) -> dict[str, int]:
        if len(words) % 2:
            raise self.src.error(f"{what} lists sides with their points, like NS 23 EW 0", at)
        out: dict[str, int] = {}
        for side, n in zip(words[::2], words[1::2]):
            if not _POINTS.fullmatch(n):
                raise self.src.error(f"{what}: {shown(n)!r} is not a number of points (for {shown(side)})", at)
            if side in out:
                raise self.src.error(f"{what} gives {side} twice", at)
            out[side] = int(n)
        return out

    # -- hands ---------------------------------------------------------------------------

    def _hands(self, toks: list[_Token]) -> None:
        src = self.src
        game = self.doc["game"]
        hand: _HandText | None = None
        k = 0
        n = len(toks)
        seats = set(self.seats)
        # The canonical form's "SEAT move" pairs as move data with its seat, by (seat, word):
        # archives repeat them, so each is built once and copied (a comment or a Broadway
        # placement changes the copy).  The cache is kept per game and seats, so a pair found
        # there has a seat of this game.
        key = (game, tuple(self.seats))
        pairs = _PAIR_CACHE.get(key) if isinstance(game, str) else {}
        if pairs is None:
            pairs = _PAIR_CACHE[key] = {} if len(_PAIR_CACHE) < 256 else None
            if pairs is None:
                pairs = {}
        pair = pairs.__getitem__
        pending: list[tuple[str, int]] = []  # a seat written before its move

        def move_word(word: str, at: int) -> None:
            if hand is None:
                raise src.error(f"expected a tag or the first hand (hand 1), not {shown(word)!r}", at)
            if hand.end is not None or hand.left is not None:
                raise src.error(f"a move after the hand's {'end' if hand.end is not None else 'left'} line: start "
                                f"the next hand with hand {hand.number + 1}", at)
            if pending:
                if word in seats:
                    seat, where = pending.pop()
                    raise src.error(f"seat {seat} is not followed by a move ({word} is a seat too)", where)
                seat, seat_at = pending.pop()
                for data, exposure, where in self._moves_of(word, at, hand):
                    if exposure:
                        hand.exposures.add(len(hand.moves))
                    hand.seat_pos[len(hand.moves)] = seat_at
                    hand.moves.append({"seat": seat, **data})
                    hand.move_pos.append(where)
                return
            if word in seats:
                pending.append((word, at))
                return
            if word[-1] == "." and _MOVE_NUMBER.match(word):
                return
            for data, exposure, where in self._moves_of(word, at, hand):
                if exposure:
                    hand.exposures.add(len(hand.moves))
                hand.moves.append(dict(data))
                hand.move_pos.append(where)

        def no_pending() -> None:
            if pending:
                seat, at = pending.pop()
                raise src.error(f"seat {seat} is not followed by a move", at)

        while k < n:
            t = toks[k]
            kind = t.kind
            if kind == "moves":
                line, base = t.text, t.pos
                words = line.split()
                start = 0
                if hand is not None and hand.end is None and hand.left is None and not pending:
                    # The canonical form: "SEAT move SEAT move …" with words seen before.  Each pair
                    # becomes a move at once; its position is worked out only if a problem needs it.
                    moves, spots = hand.moves, hand.move_pos
                    n_words = len(words)
                    if not n_words & 1:
                        # The whole line at once: every pair seen before (in any game).  A seat
                        # not of this game, or a word not met yet, fails the lookup.
                        try:
                            line_moves = list(map(dict.copy, map(pair, zip(words[::2], words[1::2]))))
                        except KeyError:
                            pass
                        else:
                            moves += line_moves
                            spots += zip(itertools.repeat(base), range(1, n_words, 2))
                            k += 1
                            continue
                    while start + 1 < n_words:
                        seat, word = words[start], words[start + 1]
                        move = pairs.get((seat, word))
                        if move is None:
                            if seat not in seats:
                                break
                            hit = _MOVE_CACHE.get((game, word))
                            if hit is None or hit[1]:
                                break
                            move = {"seat": seat, **hit[0]}
                            if len(pairs) < 20_000:
                                pairs[seat, word] = move
                        moves.append(move.copy())
                        spots.append((base, start + 1))
                        start += 2
                    if start == n_words:
                        k += 1
                        continue
                cursor = 0
                find = line.find
                if start:
                    cursor = _word_offset(line, start)
                for word in words[start:]:
                    at = find(word, cursor)
                    cursor = at + len(word)
                    if "," in word:
                        word, at = _without_commas(word, at)
                        if not word:
                            continue
                    move_word(word, base + at)
                k += 1
                continue
            if kind == "line":  # a keyword line other than a deal part (hand, end…), read as its words
                no_pending()
                line_toks = _line_tokens(t.text, t.pos)
                t, args = line_toks[0], line_toks[1:]
                low = t.text.lower()
                if low == "hand":
                    hand = self._hand_line(t, args, hand)
                    self.hands.append(hand)
                else:
                    if hand is None:
                        raise src.error(f"{t.text} must come after a hand line (hand 1)", t.pos)
                    self._part_line(hand, low, t, args)
                k += 1
                continue
            if kind == "part":
                no_pending()
                if hand is None or not self._fast_part(hand, t.text, t.pos):
                    words = t.text.split()
                    line_toks = _line_tokens(t.text, t.pos)
                    if hand is None:
                        raise src.error(f"{words[0]} must come after a hand line (hand 1)", t.pos)
                    self._part_line(hand, words[0].lower(), line_toks[0], line_toks[1:])
                k += 1
                continue
            if kind == "tag":
                raise src.error("a tag must come before the first hand; a new game starts after a blank line", t.pos)
            if kind == "comment":
                no_pending()
                body = _unescape_comment(t.text[1:-1])
                if hand is None:
                    raise src.error("a comment here belongs to no hand: put it in the header or after hand N", t.pos)
                if hand.moves:
                    last = hand.moves[-1]
                    last["comment"] = (last["comment"] + "\n" + body) if "comment" in last else body
                else:
                    hand.comment = (hand.comment + "\n" + body) if hand.comment is not None else body
                self.uses_11 = True
                k += 1
                continue
            if kind == "semi":
                raise src.error("; separates the seats of a deal or left line, not moves", t.pos)
            word = t.text
            low = word.lower()
            if t.first and low in _KEYWORDS:
                no_pending()
                line_end = k + 1
                while line_end < n and not toks[line_end].first:
                    line_end += 1
                args = toks[k + 1:line_end]
                if low == "hand":
                    hand = self._hand_line(t, args, hand)
                    self.hands.append(hand)
                else:
                    if hand is None:
                        raise src.error(f"{word} must come after a hand line (hand 1)", t.pos)
                    self._part_line(hand, low, t, args)
                k = line_end
                continue
            move_word(word, t.pos)
            k += 1
        no_pending()

    def _fast_part(self, hand: _HandText, line: str, at: int) -> bool:
        """A plain deal, pile, row or boneyard line of well-formed tiles, read without tokens.
        Returns False for anything else (then the full reader reads it and says what is wrong)."""
        words = line.split()
        kind = words[0].lower()
        if hand.moves:
            return False
        if kind in ("deal", "pile"):
            if len(words) < 2 or words[1] not in self.seats:
                return False
            seat, texts = words[1], words[2:]
            key = "hands" if kind == "deal" else "piles"
            target = hand.deal.setdefault(key, {})
            if seat in target:
                return False
        else:
            if kind in hand.deal:
                return False
            seat, texts, key, target = None, words[1:], kind, None
        tiles = list(map(_TILE_CACHE.get, texts))  # tiles seen before (the usual case) at C speed
        if None in tiles:
            tiles = [_tile_text(w) for w in texts]
            if None in tiles:
                return texts == ["-"] and self._store_part(hand, kind, key, seat, target, [], line, at)
        return self._store_part(hand, kind, key, seat, target, tiles, line, at)

    def _store_part(self, hand: _HandText, kind: str, key: str, seat: str | None, target: dict | None,
                    tiles: list[str], line: str, at: int) -> bool:
        hp = f"/hands/{hand.number - 1}/deal"
        setpos = self.pos.at.setdefault  # as _Positions.__setitem__: the first position written stays
        if seat is not None:
            target[seat] = tiles
            base = f"{hp}/{key}/{seat}"
            setpos(base, at + line.find(seat, line.find(kind[0]) + len(kind)))
            if kind == "deal":
                setpos(hp, at)
            self.pos.lists[base] = functools.partial(_word_starts, line, at, 2)
        else:
            hand.deal[key] = tiles
            base = f"{hp}/{key}"
            setpos(base, at)
            self.pos.lists[base] = functools.partial(_word_starts, line, at, 1)
        return True

    def _hand_line(self, t: _Token, args: list[_Token], prev: _HandText | None) -> _HandText:
        src = self.src
        expected = (prev.number + 1) if prev is not None else 1
        if not args or args[0].kind != "word" or not _DIGITS.fullmatch(args[0].text):
            raise src.error(f"a hand line is hand N (hands count from 1): expected hand {expected}", t.pos)
        number = int(args[0].text)
        if number != expected:
            raise src.error(f"hands are numbered in order: expected hand {expected}, not hand {number}", args[0].pos)
        hand = _HandText(number=number, pos=t.pos)
        rest = [a for a in args[1:] if a.kind != "comment"]
        for a in args[1:]:
            if a.kind == "comment":
                hand.comment = _unescape_comment(a.text[1:-1])
                self.uses_11 = True
        if rest:
            if rest[0].text.lower() != "lead" or len(rest) != 2:
                raise src.error("after hand N, only lead SEAT may follow on the line", rest[0].pos)
            self._seat(rest[1])
            hand.leader = rest[1].text
            self.pos[f"/hands/{number - 1}/leader"] = rest[1].pos
        self.pos[f"/hands/{number - 1}"] = t.pos
        return hand

    def _seat(self, tok: _Token) -> str:
        if tok.kind != "word" or tok.text not in self.seats:
            raise self.src.error(f"{shown(tok.text)!r} is not a seat of this game (seats: "
                                 f"{' '.join(self.seats)})", tok.pos)
        return tok.text

    def _tiles(self, toks: list[_Token], what: str) -> list[str]:
        out = []
        for tok in toks:
            if tok.kind == "comment":
                continue
            if tok.text == "-" and len(toks) == 1:
                return []
            tile = _tile_text(tok.text)
            if tile is None:
                raise self.src.error(f"{shown(tok.text)!r} is not a tile (write tiles as 6-3) in {what}", tok.pos)
            out.append(tile)
        return out

    def _groups(self, args: list[_Token], what: str) -> list[tuple[_Token, list[_Token]]]:
        """``SEAT tiles…; SEAT tiles…`` as (seat token, tile tokens) pairs."""
        groups: list[list[_Token]] = [[]]
        for a in args:
            if a.kind == "semi":
                groups.append([])
            elif a.kind != "comment":
                groups[-1].append(a)
        out = []
        for g in groups:
            if not g:
                continue
            out.append((g[0], g[1:]))
        return out

    def _part_line(self, hand: _HandText, kind: str, t: _Token, args: list[_Token]) -> None:
        src, pos = self.src, self.pos
        for a in args:  # a comment on a deal, left or end line is the hand's
            if a.kind == "comment":
                body = _unescape_comment(a.text[1:-1])
                hand.comment = (hand.comment + "\n" + body) if hand.comment is not None else body
                self.uses_11 = True
        hp = f"/hands/{hand.number - 1}"
        if hand.moves and kind not in ("left", "end"):
            raise src.error(f"{kind} comes before the hand's moves", t.pos)
        if kind in ("deal", "pile", "left"):
            if kind == "deal":
                target = hand.deal.setdefault("hands", {})
            elif kind == "pile":
                target = hand.deal.setdefault("piles", {})
            else:
                if hand.left is None:
                    hand.left, hand.left_pos = {}, t.pos
                target = hand.left
            groups = self._groups(args, kind)
            if not groups:
                raise src.error(f"{kind} SEAT tiles…: say whose tiles these are", t.pos)
            for seat_tok, tile_toks in groups:
                seat = self._seat(seat_tok)
                if seat in target:
                    raise src.error(f"{kind} gives {seat}'s tiles twice", seat_tok.pos)
                target[seat] = self._tiles(tile_toks, f"{kind} {seat}")
                key = {"deal": "hands", "pile": "piles", "left": "hands"}[kind]
                base = f"{hp}/deal/{key}/{seat}"
                pos[base] = seat_tok.pos
                if kind != "left":
                    pos.lists[base] = [tok.pos for tok in tile_toks]
            if kind == "deal":
                pos[f"{hp}/deal"] = t.pos
        elif kind in ("boneyard", "row"):
            toks = [a for a in args if a.kind != "comment"]
            if kind in hand.deal:
                raise src.error(f"the hand has two {kind} lines", t.pos)
            hand.deal[kind] = self._tiles(toks, kind)
            pos[f"{hp}/deal/{kind}"] = t.pos
            pos.lists[f"{hp}/deal/{kind}"] = [tok.pos for tok in toks]
        elif kind == "leaddraw":
            draw: dict[str, str] = {}
            for seat_tok, tile_toks in self._groups(args, kind):
                seat = self._seat(seat_tok)
                tiles = self._tiles(tile_toks, f"leaddraw {seat}")
                if len(tiles) != 1:
                    raise src.error(f"leaddraw gives one tile per seat: leaddraw N 6-3; E 5-2 …", seat_tok.pos)
                draw[seat] = tiles[0]
                pos[f"{hp}/deal/lead_draw/{seat}"] = seat_tok.pos
            hand.deal["lead_draw"] = draw
        elif kind == "redeal":
            toks = [a for a in args if a.kind != "comment"]
            if not toks:
                raise src.error("redeal SEAT N tiles…; E tiles…; …: who asked, then the abandoned deal", t.pos)
            asker = self._seat(toks[0])
            old: dict[str, list[str]] = {}
            for seat_tok, tile_toks in self._groups(args[args.index(toks[0]) + 1:], kind):
                seat = self._seat(seat_tok)
                old[seat] = self._tiles(tile_toks, f"redeal {seat}")
            redeals = hand.deal.setdefault("redeals", [])
            pos[f"{hp}/deal/redeals/{len(redeals)}"] = t.pos
            redeals.append({"seat": asker, "hands": old})
        elif kind == "end":
            if hand.end is not None:
                raise src.error("the hand has two end lines", t.pos)
            words = [a.text for a in args if a.kind == "word"]
            claim: dict[str, Any] = {}
            if words and words[0] in HAND_ENDS:
                claim["end"] = words.pop(0)
            elif words and len(words) % 2 == 1:
                raise src.error(f"end KIND SIDE points…: {shown(words[0])!r} is not a way a hand ends "
                                f"({', '.join(HAND_ENDS)})", args[0].pos)
            if words:
                claim["scores"] = self._score_pairs(words, t.pos, "end")
                # A wrong claim is pointed at its number (``NS 397``), not at the line's start.
                numbers = [a for a in args if a.kind == "word"][-len(words):]
                for side, number in zip(numbers[::2], numbers[1::2]):
                    pos[f"{hp}/result/scores/{side.text}"] = number.pos
            hand.end, hand.end_pos = claim, t.pos
            pos[f"{hp}/result"] = t.pos

    def _moves_of(self, word: str, at: int, hand: _HandText) -> list[tuple[dict, bool, int]]:
        """The move(s) a word holds, as (data, out of turn by nature, offset): usually one;
        ``6-6,6-4`` typed without spaces holds two.  The data is shared: copy it before changing it."""
        key = (self.doc["game"], word) if not self.bare_tiles else ("bare", self.doc["game"], word)
        cached = _MOVE_CACHE.get(key)
        if cached is not None:
            return [(cached[0], cached[1], at)]
        m = _MOVE.match(word)
        if m is not None:
            move = self._move(m, word, at)
            if move is not None:
                if len(_MOVE_CACHE) < 50_000:
                    _MOVE_CACHE[key] = (move.data, move.exposure)
                return [(move.data, move.exposure, at)]
        if "," in word:  # moves separated by commas without spaces: the longest move first
            parts = word.split(",")
            out: list[tuple[dict, bool, int]] = []
            i, offset = 0, at
            while i < len(parts):
                for j in range(len(parts), i, -1):
                    piece = ",".join(parts[i:j])
                    mm = _MOVE.match(piece)
                    mv = self._move(mm, piece, offset) if mm is not None else None
                    if mv is not None:
                        out.append((mv.data, mv.exposure, offset))
                        offset += len(piece) + 1
                        i = j
                        break
                else:
                    raise self._not_a_move(parts[i], offset)
            return out
        raise self._not_a_move(word, at)

    def _not_a_move(self, word: str, at: int) -> NotationError:
        if re.fullmatch(r"[A-Z]|P[0-9]+", word):
            return self.src.error(f"{word} is not a seat of this game (seats: {' '.join(self.seats)})", at)
        return self.src.error(f"{shown(word)!r} is not a move of {self.doc['game']} (see docs/notation.md)", at)

    def _move(self, m: re.Match, word: str, at: int) -> _MoveTok | None:
        game = self.doc["game"]
        g = m.groupdict()
        data: dict[str, Any]
        exposure = False
        if g["pass"] is not None:
            data = {"pass": True}
        elif g["reuse"] is not None:
            data = {"reuse": True}
        elif g["d1"] is not None:
            data = {"roll": [int(g["d1"]), int(g["d2"])]}
        elif word.startswith("+"):
            data = {"draw": _tile_text(g["draw"]) if g["draw"] else True}
        elif g["capture"] is not None:
            data = {"capture": [_tile_text(x) for x in g["capture"].split(",")]}
        elif g["exposed"] is not None:
            data = {"exposed": _tile_text(g["exposed"])}
            if g["unplayable"]:
                data["unplayable"] = True
            exposure = True
        elif g["tile"] is not None:
            tile = _tile_text(g["tile"])
            kind, where = g["kind"], g["at"]
            if game == "domino-roads":
                data = self._roads(kind, tile, where, at)
                if data is None:
                    return None
            elif game == "broadway":
                if where is None:
                    if self.bare_tiles:  # the recorder lists the placements and lets the player pick
                        return _MoveTok(None, {"play": tile}, at, False)
                    raise self.src.error(f"a Broadway tile goes on the grid: say where, {tile}@x,y", at)
                cells = _CELLS.match(where)
                if cells is None:
                    return None
                c = [int(x) if x is not None else None for x in cells.groups()]
                # x,y alone: the second half lies on the next cell along the mover's axis (known with the seat)
                data = {"play": tile, "at": ("next", c[0], c[1]) if c[2] is None else [[c[0], c[1]], [c[2], c[3]]]}
                if kind == "*":
                    data["penalty"] = True
                    exposure = True
                elif kind is not None:
                    return None
            else:
                if kind is not None:
                    return None
                data = {"play": tile}
                if where is not None:
                    on = _tile_text(where)
                    if on is None:
                        return None
                    data["on"] = on
        else:
            return None
        if g["score"] is not None:
            data["score"] = int(g["score"])
        return _MoveTok(None, data, at, exposure)

    def _roads(self, kind: str | None, tile: str, where: str | None, at: int) -> dict | None:
        if where is None:
            raise self.src.error(f"a Domino Roads tile goes on a road: say which, {tile}@NS1", at)
        if kind == "s":
            m = _STARTER_AT.match(where)
            return None if m is None else {"starter": tile, "road": _road_name(m.group(1), self.src, at),
                                           "facing": int(m.group(2))}
        if kind == "b":
            m = _BRIDGE_AT.match(where)
            if m is None:
                return None
            g = m.groups()
            return {"bridge": tile, "join": [
                {"road": _road_name(g[0], self.src, at), "span": int(g[1]), "half": int(g[2])},
                {"road": _road_name(g[3], self.src, at), "span": int(g[4]), "half": int(g[5])}]}
        m = _ROAD_AT.match(where)
        if m is None:
            return None
        if kind == "#":
            return {"block": tile, "road": _road_name(m.group(1), self.src, at)}
        if kind is None:
            return {"span": tile, "road": _road_name(m.group(1), self.src, at)}
        return None


def _road_name(text: str, src: _Text, at: int) -> str:
    if not text.startswith('"'):
        return text
    return _json_text(text, src, at, "a road name")


def _json_text(text: str, src: _Text, at: int, what: str) -> Any:
    """A quoted (JSON) text of the notation, held to the limits of every record's text:
    valid Unicode (no "\\ud800" escape without its pair), nesting within MAX_DEPTH."""
    try:
        return _checked(json.loads(text, **JSON_NUMBERS), src, at)
    except NotJSONError as e:
        raise src.error(f"{what}: {e.message}", at) from None
    except (ValueError, RecursionError):
        raise src.error(f"{what} is not a well-formed quoted text", at) from None


_TOO_DEEP = f"this value nests lists and objects more than {MAX_DEPTH} levels deep (the limit for a record)"


def _bare_value(text: str, src: _Text, at: int) -> Any:
    """A tag value typed without quotes (:func:`_bare`), within the record's limits."""
    try:
        return _checked(_bare(text), src, at)
    except TooLargeError as e:
        raise src.error(e.message, at) from None


def _checked(value: Any, src: _Text, at: int) -> Any:
    """A value read from a tag or a quoted text, refused (at its line and column) when it
    breaks the record's limits: a tag's value sits at level 3 of a record (in ``event``)."""
    try:
        check_value(value, level=3)
    except InputError as e:
        raise src.error(e.message, at) from None
    return value


def _field_value(rest: str, src: _Text, at: int) -> Any:
    rest = rest.strip()
    if rest.startswith('"'):
        return _json_text(rest, src, at, "the value of [Field]")
    return _bare_value(rest, src, at)


# --- from the parsed text to a record ---------------------------------------------------


def _needs_game(r: _Reader) -> bool:
    for hand in r.hands:
        sheet = not hand.deal.get("hands") and not hand.moves and hand.end is not None
        if sheet:
            continue
        if not hand.deal.get("hands"):
            return True
        if any("seat" not in d for d in hand.moves):
            return True
        if hand.left is not None:
            return True
    return False


def _as_written(r: _Reader) -> dict[str, Any]:
    """The JSON data of a game whose hands all have deals and moves all have seats."""
    hands = []
    broadway = r.doc["game"] == "broadway"
    for hand in r.hands:
        hp = f"/hands/{hand.number - 1}"
        h: dict[str, Any] = {}
        if hand.leader is not None:
            h["leader"] = hand.leader
        if hand.deal.get("hands") or hand.deal:
            if hand.deal:
                h["deal"] = dict(hand.deal)
        moves = [_complete(d) for d in hand.moves] if broadway else hand.moves
        r.pos.moves[hand.number - 1] = hand.move_pos
        r.pos.seats[hand.number - 1] = hand.seat_spot
        if moves or "deal" in h:
            h["moves"] = moves
        if hand.end is not None:
            h["result"] = hand.end
        if hand.comment is not None:
            h["comment"] = hand.comment
        hands.append(h)
    return _envelope(r, hands)


def _envelope(r: _Reader, hands: list[dict]) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "domrec", "version": r.doc.get("version") or _minimal_version(r, hands),
                           "game": r.doc["game"]}
    rules = dict(r.rules)
    if r.options:
        rules["options"] = r.options
    if rules:
        doc["rules"] = rules
    if r.event:
        doc["event"] = r.event
    doc["players"] = r.doc_players
    doc["hands"] = hands
    if r.ended is not None:
        doc["ended"] = r.ended
    if r.result_claim:
        doc["result"] = r.result_claim
    return doc


def _minimal_version(r: _Reader, hands: list[dict]) -> str:
    if r.uses_11 or any(not (h.get("deal") or {}).get("hands") for h in hands):
        return DGN_VERSION
    return "1.0"


class _Stop(Exception):
    """Reading through the Game stopped at a problem (already recorded)."""


def _through_game(r: _Reader) -> tuple[dict[str, Any], list[Problem], str | None]:
    """The JSON data of a game read through the Game API: seats from the turn, forced passes
    inserted where the deal is known, deals worked out from ``left``."""
    from domrec.game import Game, GameError, Refused
    from domrec.record import Deal, Pass, Redeal

    problems: list[Problem] = []
    rules = r.rules
    g = Game(r.doc["game"], [Player(**p) for p in r.doc_players], variant=rules.get("variant"),
             options=r.options or None, event=r.event or None)
    positions: list[list[int]] = []
    #: Where each move's seat was typed (``None``: not typed), beside ``positions``.
    seat_positions: list[list[int | None]] = []
    #: The typed move behind each move of the record (``None``: a forced pass the reader inserted).
    typed: list[int | None] = []
    #: Where an illegal move stopped reading: (the hand's text, the typed move, its number in the record).
    stop: tuple[_HandText, int, int] | None = None
    note = None

    def refuse(problem: Problem, pos: int, seat: int | None = None) -> None:
        m = _MOVE_POINTER.match(problem.pointer)
        if m is not None:  # at the offending field of the move at pos (its tile, its cell…)
            pos = _field_at(r.src.text, pos, problem.pointer[m.end(2):], seat)
        spot = None if m is not None else r.pos.exact(problem.pointer)
        line, col = spot if spot is not None else r.src.where(pos)
        problems.append(attrs.evolve(problem, line=line, column=col))
        raise _Stop

    def public_deal(hand: _HandText) -> Deal | None:
        return deal_from_parts(hand.deal)

    try:
        for hand in r.hands:
            hp = f"/hands/{hand.number - 1}"
            here: list[int] = []
            positions.append(here)
            seats_here: list[int | None] = []
            seat_positions.append(seats_here)
            typed = []
            known = bool(hand.deal.get("hands"))
            if not known and not hand.moves and hand.end is not None and hand.left is None:
                try:
                    g.add_score_sheet_hand(hand.end.get("scores", {}), hand.end.get("end"), hand.leader,
                                           hand.comment)
                except Refused as e:
                    refuse(e.problem, hand.end_pos or hand.pos)
                except GameError as e:
                    refuse(Problem(hp, str(e), "", "illegal", hand=hand.number), hand.pos)
                continue
            try:
                g.start_hand(public_deal(hand), hand.leader, hand.comment)
            except Refused as e:
                refuse(e.problem, hand.pos)
            except GameError as e:
                refuse(Problem(hp, str(e), "end of game", "illegal", hand=hand.number), hand.pos)
            for j, d in enumerate(hand.moves):
                data = {k: v for k, v in d.items() if k != "seat"}
                mv = _MoveTok(d.get("seat"), data, _offset(r.src.text, hand.move_pos[j]), j in hand.exposures)
                seat_spot = hand.seat_spot(j)
                seat_at = None if seat_spot is None else _offset(r.src.text, seat_spot)
                if known and not mv.exposure:
                    _insert_passes(g, mv, here)
                    seats_here.extend([None] * (len(here) - len(seats_here)))
                    typed.extend([None] * (len(here) - len(typed)))
                seat = mv.seat if mv.seat is not None else g.to_move
                if seat is None:
                    why = ("the hand is over" if g.hand_over else
                           "who leads is not known: write the leader's seat (N 6-6) or lead SEAT on the hand line")
                    refuse(Problem(f"{hp}/moves/{len(g.moves)}", f"whose move is this? {why}", "", "illegal",
                                   hand=hand.number, move=len(g.moves) + 1), mv.pos)
                move = structure_move(_complete({"seat": seat, **mv.data}))
                try:
                    g.push(move)
                except Refused as e:
                    stop = (hand, j, e.problem.move or len(here) + 1)
                    refuse(e.problem, mv.pos, seat_at)
                here.append(mv.pos)
                seats_here.append(seat_at)
                typed.append(j)
            if known and not g.hand_over and g.to_move is not None and (hand.left is not None or hand.end is not None):
                _insert_passes(g, None, here)
                seats_here.extend([None] * (len(here) - len(seats_here)))
                typed.extend([None] * (len(here) - len(typed)))
            claim = None
            if hand.end is not None:
                claim = HandResult(scores=hand.end.get("scores"), end=hand.end.get("end"))
            finished = hand.left is not None or hand.end is not None or g.hand_over or hand is not r.hands[-1]
            if not finished:
                break  # the last hand, still being played: it stays open
            try:
                g.end_hand(hand.left, claim)
            except Refused as e:
                at = hand.left_pos if e.problem.kind == "deal" and hand.left_pos is not None else (
                    hand.end_pos or (here[-1] if here else hand.pos))
                seat_at = None
                if e.problem.kind == "illegal" and e.problem.move is not None and e.problem.move <= len(here):
                    at, seat_at = here[e.problem.move - 1], seats_here[e.problem.move - 1]
                    after = [k for k in typed[e.problem.move - 1:] if k is not None]
                    stop = (hand, after[0] if after else len(hand.moves), e.problem.move)
                refuse(e.problem, at, seat_at)
            if hand is not r.hands[-1] and g.over:
                pass
    except _Stop:
        stopped_at = len(positions)
        rest = len(r.hands) - stopped_at
        in_hand = None
        if stop is not None:  # an illegal move: the typed moves and claims after it went unchecked
            hand, j, number = stop
            later = hand.moves[j + 1:]
            in_hand = rest_of_hand_note(hand.number - 1, number - 1, len(later),
                                        sum(1 for d in later if "score" in d), hand.end is not None)
        if rest > 0:
            note = (f"{in_hand or f'reading stopped in hand {stopped_at}'}; hand{'s' if rest > 1 else ''} "
                    f"{stopped_at + 1}{'–' + str(len(r.hands)) if rest > 1 else ''} "
                    f"{'were' if rest > 1 else 'was'} not checked")
        else:
            note = in_hand
    if r.result_claim:
        g.set_result(GameResult(scores=r.result_claim.get("scores"),
                                winner=r.result_claim["winner"] if "winner" in r.result_claim else
                                GameResult().winner))
    data = json.loads(json.dumps(unstructure(g.record())))  # plain JSON data, as a .json file gives
    for i, here in enumerate(positions):
        r.pos.moves[i] = here
        r.pos.seats[i] = lambda j, typed=seat_positions[i]: typed[j] if j < len(typed) else None
    data["hands"] = [dict(h) for h in data["hands"]]
    for h, hand in zip(data["hands"], r.hands):
        if hand.left is not None and hand.left_pos is not None:
            r.pos[f"/hands/{hand.number - 1}/deal/hands"] = hand.left_pos
    doc = _envelope(r, data["hands"])
    return doc, problems, note


def _complete(data: dict) -> dict:
    """A Broadway ``x,y`` placement made whole once the mover is known: a tile lies along
    the x axis for N and S, along the y axis for E and W (the rules' geometry)."""
    at = data.get("at")
    if type(at) is tuple:
        _, x, y = at
        dx, dy = (1, 0) if data["seat"] in ("N", "S") else (0, 1)
        data["at"] = [[x, y], [x + dx, y + dy]]
    return data


def deal_from_parts(parts: dict) -> "Deal | None":
    """A :class:`~domrec.record.Deal` from the parts of a deal as read (``hands``, ``row``…,
    as JSON data), ``None`` when there are none."""
    from domrec.record import Deal, Redeal

    if not parts:
        return None
    return Deal(hands={s: tuple(v) for s, v in parts.get("hands", {}).items()},
                boneyard=tuple(parts["boneyard"]) if "boneyard" in parts else None,
                row=tuple(parts["row"]) if "row" in parts else None,
                piles={s: tuple(v) for s, v in parts["piles"].items()} if "piles" in parts else None,
                lead_draw=dict(parts["lead_draw"]) if "lead_draw" in parts else None,
                redeals=tuple(Redeal(seat=x["seat"], hands={s: tuple(v) for s, v in x["hands"].items()})
                              for x in parts["redeals"]) if "redeals" in parts else None)


def _insert_passes(g: Any, mv: _MoveTok | None, here: list[int]) -> None:
    """Forced passes the text left out, before ``mv`` (or, with ``None``, at the hand's end):
    only where the deal is known and the player to move can do nothing but pass."""
    from domrec.record import Pass

    for _ in range(4 * len(g.seats)):
        to = g.to_move
        if to is None or g.hand_over:
            return
        if mv is not None:
            if mv.seat is None and mv.data.get("pass"):
                return  # a pass written without a seat is the pass of the player to move
            if mv.seat == to:
                return
        if not g.forced_pass():
            return
        g.push(Pass(seat=to))
        here.append(mv.pos if mv is not None else (here[-1] if here else 0))


@contextlib.contextmanager
def _numbers_read(src: _Text) -> Iterator[None]:
    """Turn Python's refusal to read a number of thousands of digits (a hostile ``hand 1999…``
    or score, anywhere ``int()`` meets a digit run) into a :class:`NotationError` at the number's
    line and column, instead of an internal error."""
    try:
        yield
    except ValueError as e:
        if "integer string conversion" not in str(e):
            raise
        raise _long_number(src) from None


def _long_number(src: _Text) -> NotationError:
    limit = sys.get_int_max_str_digits() or 4300
    m = re.search(rf"[0-9]{{{limit + 1},}}", src.text)
    pos = m.start() if m else 0
    n = len(m.group()) if m else 0
    return src.error(f"a number of {n} digits is too long to be read (at most {limit})", pos)


def _read_chunk(text: str, first_line: int, source: str) -> DgnGame:
    from domrec.reader import load_dict

    r = _Reader(text, first_line)
    try:
        with _numbers_read(r.src):
            r.parse()
    except NotationError as e:
        game = r.doc.get("game")
        return DgnGame(None, _located(source, e, game if isinstance(game, str) else None), first_line)
    except InputError as e:
        return DgnGame(None, unusable(source, e), first_line)
    try:
        games.engine(r.doc["game"]) if r.doc["game"] in games.MODULES else None
    except InputError as e:
        return DgnGame(None, _with_position(unusable(source, e), r.pos), first_line)
    if r.doc["game"] not in games.MODULES:
        e = InputError(f"unknown game {shown(str(r.doc['game']))!r}; domrec knows {', '.join(games.MODULES)}",
                       "/game")
        return DgnGame(None, _with_position(unusable(source, e, r.doc["game"]), r.pos), first_line)
    return _finish(r, source, first_line)


def _finish(r: _Reader, source: str, first_line: int) -> DgnGame:
    from domrec.reader import load_dict

    def load(doc: dict, positions: _Positions) -> Record | Report:
        try:
            return load_dict(doc)
        except InputError as e:
            return _with_position(unusable(source, e, r.doc["game"]), positions)

    as_written: DgnGame | None = None
    if not _needs_game(r):
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
    try:
        doc, problems, note = _through_game(r)
    except RuleViolation as e:  # a setup problem (players, options) found when starting the game
        report = Report(source, r.doc["game"], "invalid", (Problem(e.pointer, e.message, e.rule, "setup"),))
        return DgnGame(None, _with_position(report, r.pos), first_line)
    except InputError as e:
        return DgnGame(None, _with_position(unusable(source, e, r.doc["game"]), r.pos), first_line)
    if problems and as_written is not None:
        return as_written
    record = load(doc, r.pos)
    if problems:
        # Reading stopped at a rule problem: that problem is the verdict.  What the partial
        # record says beyond it (a hand without its deal, a game not over) is no news.
        stop = problems[0].hand or 0
        rest: tuple[Problem, ...] = ()
        if not isinstance(record, Report):
            rest = tuple(p for p in validate(record, source).problems
                         if p.hand is not None and p.hand < stop and p.kind == "score")
        report = Report(source, r.doc["game"], "invalid", tuple(problems) + rest, note=note)
        return DgnGame(None if isinstance(record, Report) else record, _with_position(report, r.pos),
                       first_line, complete=False)
    if isinstance(record, Report):
        return DgnGame(None, record, first_line)
    report = validate(record, source)
    return DgnGame(record, _with_position(report, r.pos), first_line)


def _with_position(report: Report, positions: _Positions) -> Report:
    return attrs.evolve(report, problems=tuple(positions.place(p) for p in report.problems))


def _located(source: str, e: NotationError, game: str | None) -> Report:
    problem = Problem(e.pointer, e.message, "", "input", line=e.line, column=e.column)
    return Report(source, game, "unusable", (problem,))


def read_games(data: bytes | str, source: str = "<dgn>") -> Iterator[DgnGame]:
    """Every game of a DGN text, each read and judged on its own.

    A file of one game is labelled ``source``; games of an archive
    ``source:LINE`` (the line their header starts on)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    chunks = split_games(data)
    for chunk in chunks:
        label = source if len(chunks) == 1 else f"{source}:{chunk.first_line}"
        try:
            text = decode(chunk)
        except NotationError as e:
            yield DgnGame(None, _located(label, e, None), chunk.first_line)
            continue
        yield _read_chunk(text, chunk.first_line, label)


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


# --- the canonical writer ---------------------------------------------------------------


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, str):
        return _quote(v)
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _option_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class WriteError(InputError):
    """A record that DGN cannot hold (e.g. a seat label with spaces)."""


def dumps(record: Record) -> str:
    """The canonical DGN text of ``record`` (one game, ending with a newline)."""
    data = unstructure(record)
    seats = [p["seat"] for p in data["players"]]
    for s in seats:
        if not _SEAT_LABEL.match(s) or s.lower() in _KEYWORDS or s.lower() in ("lead", "pass", "p", "reuse"):
            raise WriteError(f"seat {shown(s)!r} cannot be written in DGN: a seat label is a letter then "
                             f"letters, digits or _, and not a DGN word")
    if len(set(seats)) != len(seats):
        raise WriteError("two players share a seat label: DGN names each seat once")
    known = set(seats)
    for i, hand in enumerate(data["hands"]):
        for j, move in enumerate(hand.get("moves", ())):
            if move["seat"] not in known:
                raise WriteError(f"hand {i + 1}, move {j + 1} is by {shown(move['seat'])!r}, who is not at the "
                                 f"table: DGN cannot write it")
    lines = [f"[Game {_quote(data['game'])}]"]
    if data["version"] != _minimal_from_data(data):
        lines.append(f"[Format {_quote('domrec ' + data['version'])}]")
    rules = data.get("rules") or {}
    if "variant" in rules:
        lines.append(f"[Variant {_quote(rules['variant'])}]")
    for name, v in (rules.get("options") or {}).items():
        lines.append(f"[Option {_quote(f'{name}={_option_text(v)}')}]")
    by_key = {v: k for k, v in _EVENT_TAGS.items()}
    default_seats = all(_DEFAULT_SEAT.match(s) for s in seats)
    seat_names = {s.lower() for s in seats}
    for key, v in (data.get("event") or {}).items():
        if key in by_key:
            lines.append(f"[{by_key[key].capitalize()} {_value(v)}]")
        elif (_TAG_NAME.match(key) and key.lower() not in _RESERVED and key.lower() not in seat_names
              and not _DEFAULT_SEAT.match(key.upper()) and _near(key, tuple(sorted(_RESERVED - {"field"}))) is None):
            lines.append(f"[{key} {_value(v)}]")
        else:
            lines.append(f"[Field {_quote(key)} {_value(v)}]")
    if not default_seats:
        lines.append(f"[Seats {_quote(' '.join(seats))}]")
    for p in data["players"]:
        lines.append(f"[{p['seat']} {_quote(p['name'])}]")
    for p in data["players"]:
        if "id" in p:
            lines.append(f"[Id {_quote(p['seat'] + '=' + p['id'])}]")
    if "ended" in data:
        lines.append(f"[Ended {_quote(data['ended'])}]")
    result = data.get("result")
    if result is not None:
        if "scores" in result:
            lines.append(f"[Scores {_quote(' '.join(f'{k} {v}' for k, v in result['scores'].items()))}]")
        if "winner" in result:
            lines.append(f"[Winner {_quote('draw' if result['winner'] is None else result['winner'])}]")
    game = data["game"]
    for i, hand in enumerate(data["hands"]):
        lines.append("")
        lines.extend(_hand_lines(i, hand, game))
    return "\n".join(lines) + "\n"


def _minimal_from_data(data: dict) -> str:
    if "ended" in data:
        return DGN_VERSION
    for hand in data["hands"]:
        if (not (hand.get("deal") or {}).get("hands") or "comment" in hand
                or any("comment" in m for m in hand.get("moves", ()))):
            return DGN_VERSION
    return "1.0"


def _hand_lines(i: int, hand: dict, game: str) -> list[str]:
    head = f"hand {i + 1}"
    if "leader" in hand:
        head += f" lead {hand['leader']}"
    out = [head]
    if "comment" in hand:
        out.append("{" + _escape_comment(hand["comment"]) + "}")
    deal = hand.get("deal")
    if deal is not None:
        if "lead_draw" in deal:
            out.append("leaddraw " + "; ".join(f"{s} {t}" for s, t in deal["lead_draw"].items()))
        for rd in deal.get("redeals", ()):
            out.append(f"redeal {rd['seat']} " + "; ".join(f"{s} {_tiles_text(ts)}" for s, ts in rd["hands"].items()))
        for seat, tiles in deal["hands"].items():
            out.append(f"deal {seat} {_tiles_text(tiles)}")
        for seat, tiles in (deal.get("piles") or {}).items():
            out.append(f"pile {seat} {_tiles_text(tiles)}")
        for key in ("row", "boneyard"):
            if key in deal:
                out.append(f"{key} {_tiles_text(deal[key])}")
    line: list[str] = []
    first_seat = None
    prev = None
    for move in hand.get("moves", ()):
        seat = move["seat"]
        if line and ((seat == first_seat and prev != seat) or len(line) >= 12):
            out.append(" ".join(line))
            line = []
        if not line:
            first_seat = seat
        line.append(f"{seat} {_move_text(move, game)}")
        prev = seat
    if line:
        out.append(" ".join(line))
    if "result" in hand:
        res = hand["result"]
        words = ["end"]
        if "end" in res:
            words.append(res["end"])
        for side, n in (res.get("scores") or {}).items():
            words += [side, str(n)]
        out.append(" ".join(words))
    return out


def _tiles_text(tiles: Any) -> str:
    return " ".join(tiles) if tiles else "-"


def _road_text(name: str) -> str:
    return name if re.fullmatch(r"[^/+@=\"\s,;{}]+", name) and not name[0].isdigit() else _quote(name)


def _move_text(move: dict, game: str) -> str:
    if move.get("pass"):
        text = "-"
    elif move.get("reuse"):
        text = "reuse"
    elif "roll" in move:
        text = f"r{move['roll'][0]}+{move['roll'][1]}"
    elif "draw" in move:
        text = "+" if move["draw"] is True else f"+{move['draw']}"
    elif "capture" in move:
        text = "x" + ",".join(move["capture"])
    elif "exposed" in move:
        text = f"!{move['exposed']}" + ("?" if move.get("unplayable") else "")
    elif "starter" in move:
        text = f"s{move['starter']}@{_road_text(move['road'])}/{move['facing']}"
    elif "span" in move:
        text = f"{move['span']}@{_road_text(move['road'])}"
    elif "bridge" in move:
        a, b = move["join"]
        text = (f"b{move['bridge']}@{_road_text(a['road'])}/{a['span']}/{a['half']}"
                f"+{_road_text(b['road'])}/{b['span']}/{b['half']}")
    elif "block" in move:
        text = f"#{move['block']}@{_road_text(move['road'])}"
    else:
        text = move["play"]
        if "at" in move:
            (x1, y1), (x2, y2) = move["at"]
            step = (1, 0) if move["seat"] in ("N", "S") else (0, 1)
            if (x2 - x1, y2 - y1) == step:
                text += f"@{x1},{y1}"
            else:
                text += f"@{x1},{y1}:{x2},{y2}"
            if move.get("penalty"):
                text = "*" + text
        elif "on" in move:
            text += f"@{move['on']}"
    if "score" in move:
        text += f"={move['score']}"
    if "comment" in move:
        text += " {" + _escape_comment(move["comment"]) + "}"
    return text


# --- the short form people type ---------------------------------------------------------


def _passes_before_exposures(moves: tuple) -> set[int]:
    """Indexes of the passes in a run of passes that an exposure (Broadway) directly follows."""
    out: set[int] = set()
    run: list[int] = []
    for k, move in enumerate(moves):
        name = type(move).__name__
        if name == "Pass":
            run.append(k)
            continue
        if name == "Exposed":
            out.update(run)
        run = []
    return out


def dumps_typed(record: Record, keep_deal: bool = True) -> str:
    """``record`` as a person would type it: moves without the seats the turn gives, no
    claims, and either the deal without the forced passes (``keep_deal``) or, without the
    deal, the tiles each seat still held at the end (``left``) and every pass written.

    Reading the text back gives the same game (:func:`read_games` infers what is left out);
    the property tests hold it to that.  A hand is written so only where the rules say who
    moves: a seat is kept wherever the turn does not give it.
    """
    from domrec.game import Game

    data = unstructure(attrs.evolve(record, result=None))
    head = dumps(attrs.evolve(record, result=None, hands=())).rstrip("\n")
    rules = record.rules
    g = Game(record.game, record.players, variant=rules.variant if rules else None,
             options=record.options or None, event=record.event, version=record.version)
    out = [head]
    for i, hand in enumerate(record.hands):
        lines = [f"hand {i + 1}" + (f" lead {hand.leader}" if hand.leader is not None else "")]
        if hand.comment is not None:
            lines.append("{" + _escape_comment(hand.comment) + "}")
        if hand.score_sheet:
            lines.extend(_hand_lines(i, {"result": unstructure(attrs.evolve(record, hands=(hand,)))["hands"][0]
                                         ["result"]}, record.game)[1:])
            g.add_score_sheet_hand(hand.result.scores or {}, hand.result.end, hand.leader, hand.comment)
            out.append("\n".join(lines))
            continue
        hd = data["hands"][i]
        deal = hd.get("deal") or {}
        public = {k: v for k, v in deal.items() if k in ("row", "boneyard", "piles", "lead_draw")}
        if keep_deal:
            lines.extend(_hand_lines(i, {"deal": deal}, record.game)[1:])
            g.start_hand(hand.deal, hand.leader)
        else:
            if "boneyard" in public and any(type(m).__name__ == "Draw" and m.draw is not True for m in hand.moves):
                public.pop("boneyard")
            lines.extend(_hand_lines(i, {"deal": {"hands": {}, **public}}, record.game)[1:])
            from domrec.record import Deal

            pub = Deal(hands={}, row=hand.deal.row, piles=hand.deal.piles, lead_draw=hand.deal.lead_draw,
                       boneyard=hand.deal.boneyard if "boneyard" in public else None)
            g.start_hand(pub, hand.leader)
        words: list[str] = []
        # A forced pass is put back by the reader before the next move in turn, never before a
        # tile shown out of turn (!): so the passes just before an exposure are written out.
        before_exposure = _passes_before_exposures(hand.moves)
        for n, (move, md) in enumerate(zip(hand.moves, hd["moves"])):
            md = {k: v for k, v in md.items() if k != "score"}
            if keep_deal and md.get("pass") and g.forced_pass() and n not in before_exposure:
                g.push(move)
                continue
            if not keep_deal and "draw" in md and md["draw"] is True and "boneyard" not in public:
                md["draw"] = str(_drawn_tile(hand, n))
            text = _move_text(md, record.game)
            if move.seat != g.to_move or "exposed" in md or md.get("penalty"):
                text = f"{move.seat} {text}"
            g.push(attrs.evolve(move, draw=md["draw"]) if "draw" in md else move)
            words.append(text)
        for k in range(0, len(words), 8):
            lines.append(" ".join(words[k:k + 8]))
        held = None
        ended = _ended(record, i)
        if not keep_deal:
            held = _held_at_end(record, i)
            if held is not None and ended:
                parts = [f"{s} {' '.join(str(t) for t in ts) or '-'}" for s, ts in held.items() if ts]
                if parts:
                    lines.append("left " + "; ".join(parts))
        if ended:
            lines.append("end")
            g.end_hand(None if keep_deal else {s: [str(t) for t in ts] for s, ts in (held or {}).items()})
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _ended(record: Record, index: int) -> bool:
    from domrec.explain import state_after

    state = state_after(record, index + 1)
    return state is not None and state.over


def _held_at_end(record: Record, index: int) -> dict[str, list] | None:
    """What each seat held when hand ``index`` ended, from the validator's own replay."""
    from domrec.explain import state_after

    state = state_after(record, index + 1)
    if state is None:
        return None
    return {s: list(ts) for s, ts in state.holdings().items()}


def _drawn_tile(hand: Any, n: int) -> str:
    """The tile the ``draw: true`` of move ``n`` (0-based) takes, from the boneyard's order.

    Found by position, never by identity: equal moves may be one shared value (the reader
    keeps one object for a move written the same way again, see :mod:`domrec.shape`)."""
    draws = sum(1 for m in hand.moves[:n] if type(m).__name__ == "Draw" and m.draw is True)
    return hand.deal.boneyard[draws]


# --- pieces for the recorder ------------------------------------------------------------


def _piece_reader(game: str, seats: Sequence[str], text: str) -> _Reader:
    r = _Reader(text, 1)
    r.doc = {"game": game}
    r.seats = list(seats)
    return r


def parse_moves(game: str, seats: Sequence[str], word: str) -> list[tuple[dict, bool]]:
    """The move(s) one typed word holds, as (JSON data without the seat, out of turn by
    nature); :class:`NotationError` if the word is no move of ``game``."""
    r = _piece_reader(game, seats, word)
    r.bare_tiles = True
    with _numbers_read(r.src):
        return [(dict(data), exposure) for data, exposure, _ in r._moves_of(word, 0, None)]


def parse_hand_line(game: str, seats: Sequence[str], line: str) -> dict[str, Any]:
    """One hand line as typed (``hand 3 lead W``, ``deal N …``, ``row …``, ``left W …; S …``,
    ``end out NS 23``) as data: ``number``/``leader``/``comment`` for a hand line, the deal
    part (``hands``, ``row``, ``boneyard``, ``piles``, ``lead_draw``, ``redeals``), ``left``,
    or ``end``/``scores``."""
    r = _piece_reader(game, seats, line)
    with _numbers_read(r.src):
        return _hand_line_data(r, line)


def _hand_line_data(r: _Reader, line: str) -> dict[str, Any]:
    toks = list(_full_tokens(r.src))
    if not toks:
        raise NotationError("an empty line", 1, 1)
    head, args = toks[0], toks[1:]
    kind = head.text.lower()
    if kind == "hand":
        if len(args) >= 1 and args[0].kind == "word" and re.fullmatch(r"[0-9]+", args[0].text):
            prev = _HandText(number=int(args[0].text) - 1, pos=0)
        else:
            prev = None
        hand = r._hand_line(head, args, prev)
        out: dict[str, Any] = {"number": hand.number}
        if hand.leader is not None:
            out["leader"] = hand.leader
        if hand.comment is not None:
            out["comment"] = hand.comment
        return out
    hand = _HandText(number=1, pos=0)
    r._part_line(hand, kind, head, args)
    if kind == "left":
        return {"left": hand.left or {}}
    if kind == "end":
        return dict(hand.end or {})
    return dict(hand.deal)


def parse_header(text: str) -> dict[str, Any] | None:
    """The header of a DGN text (its tags), as the pieces a new record needs: ``game``,
    ``players`` (seat, name) pairs, ``variant``, ``options``, ``event``; ``None`` when the
    text has no tags (just hands)."""
    lines = text.splitlines()
    k = 0
    while k < len(lines) and (not lines[k].strip() or lines[k].lstrip().startswith(("[", "{"))):
        k += 1
    head = "\n".join(lines[:k])
    if "[" not in head:
        return None
    r = _Reader(head + "\n", 1)
    r.parse()
    return {"game": r.doc["game"], "players": [(p["seat"], p["name"]) for p in r.doc_players],
            "ids": {p["seat"]: p["id"] for p in r.doc_players if "id" in p},
            "variant": r.rules.get("variant"), "options": dict(r.options), "event": dict(r.event),
            "result": dict(r.result_claim), "body_line": k + 1}
