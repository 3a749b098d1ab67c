"""The words of DGN: its vocabulary, the tokens of a game's text, and the texts of an archive's games.

Everything else in :mod:`domrec.notation` reads or writes through what is here:

* the notation's vocabulary: the tile and move patterns, the hand keywords, the
  ways a hand ends, and :data:`DGN_VERSION`;
* :class:`NotationError` and :class:`_Text`, which turns an offset into the
  ``line:column`` an error is reported at;
* the structures a game is read into before it becomes JSON data (``_Token``,
  ``_MoveTok``, ``_HandText``);
* the tokenizer: plain lines (nearly all of an archive) are split by
  ``str.split``, the rest (comments, quotes, tags) by one regular expression;
* comments escaped and unescaped, and the step before any game is read:
  :func:`split_games` cuts an archive into :class:`Chunk` s and :func:`decode`
  makes each Unicode.

It relies on :mod:`domrec.errors` and :mod:`domrec.reader` (Unicode checks) only.
"""

from __future__ import annotations

import bisect
import re
from typing import Any, Callable, Iterator, NamedTuple

import attrs

from domrec.errors import RECORD_CONTROLS, InputError, NotUnicodeError, control_said, shown
from domrec import lookalikes
from domrec.dgn_archive import Chunk, iter_games, split_games  # noqa: F401 (notation's names)
from domrec.reader import unicode_text


DGN_VERSION = "1.1"  # the newest minor the reader writes into records that need it


class NotationError(InputError):
    """A DGN text that cannot be read (exit 2), at ``line``:``column``."""

    def __init__(self, message: str, line: int, column: int, pointer: str = "") -> None:
        super().__init__(message, pointer)
        self.line = line
        self.column = column
        #: Where in the game, for the words of the message (``hand 2, move 7``): set by the reader
        #: when it keeps the error and reads on (the move counted as typed).
        self.hand: int | None = None
        self.move: int | None = None
        #: Said already (a move before any hand line: said at the first alone): not kept again.
        self.quiet = False

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


#: What may join a tile's two numbers: the hyphen, ``:`` or ``|``, and the dashes a word processor
#: or a phone's keyboard puts in a hyphen's place (hyphen and non-breaking hyphen U+2010/2011, figure
#: dash, en dash, em dash U+2012-2014, minus sign U+2212): a tile pasted from a club's document as
#: ``6–3`` is the tile 6-3, written back with the hyphen.
_SEP = "[-:|\u2010-\u2014\u2212]"
#: A tile as typed: ``6-3`` (or ``6:3``, ``6|3``, ``6–3``), numbers without a leading zero (``05-2`` is
#: refused, as in JSON: one way to write a number), or two digits run together, ``63``.
_NUMBER = r"(?:[0-9]|[1-9][0-9])"
_TILE = rf"(?:{_NUMBER}{_SEP}{_NUMBER}|[0-9][0-9])"
_TILE_RE = re.compile(rf"({_NUMBER}){_SEP}({_NUMBER})\Z|([0-9])([0-9])\Z")
#: A number of a tile written with a leading zero (``05-2``, ``6-04``), for the refusal's words.
LEADING_ZERO = re.compile(rf"(?<![0-9])0(?=[0-9]+{_SEP})|(?<={_SEP})0(?=[0-9])")
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


_TILE_CACHE: dict[str, str | None] = {}


def look_alike(word: str, meant: Callable[[str], Any]) -> str | None:
    """What a refusal of ``word`` says when it is a word ``meant`` accepts typed with look-alike
    characters (Cyrillic ``Е`` for the seat E, full-width ``５-３`` for the tile 5-3): which
    character looks like which (:func:`domrec.lookalikes.said`), where the plain refusal would
    show the very word it expects.  ``None`` for any other word (the plain refusal then)."""
    plain = lookalikes.plain(word)
    return lookalikes.said(word) if plain is not None and meant(plain) else None


def leading_zero_words(word: str) -> str | None:
    """What a refusal says of a word whose tile has a number written with a leading zero
    (``'05-2': a tile's numbers are written without a leading zero (5-2)``), or ``None``."""
    if LEADING_ZERO.search(word) is None:
        return None
    return (f"{shown(word)!r}: a tile's numbers are written without a leading zero "
            f"({shown(LEADING_ZERO.sub('', word))})")


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
    #: Where each tile of the ``left`` line was typed, by seat (a problem with one of them is
    #: placed at it: the record has no ``left`` for its pointer to name).
    left_tiles_pos: dict = attrs.Factory(dict)
    end: dict | None = None
    end_pos: int | None = None
    #: After a notation error in the hand: the typed moves from this index on are read only for
    #: their tiles and further notation errors, never judged by the rules (``None``: no error).
    cut: int | None = None
    #: The hand's ``left`` line (or ``end`` line) held a notation error: what was read of it is
    #: not the whole line, so the hand is not closed with it (not checked against it).
    left_unread: bool = False
    end_unread: bool = False
    #: Words among the moves that could not be read: each stood for a move as typed, so a
    #: later notation error's move number counts them (``moves`` holds only the words read).
    unread_moves: int = 0

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


def _tokens(src: _Text, keep_going: bool = False) -> list[_Token]:
    """The tokens of a game's text.  Lines without comments, quotes or tags (nearly all of
    an archive) are split by ``str.split``; the rest goes through the full tokenizer.
    ``keep_going``: see :func:`_full_tokens`."""
    text = src.text
    m = _BODY.search(text)
    body = m.start() if m is not None else len(text)
    if _PLAIN.search(text, body) is None:
        head = list(_full_tokens(src, body, keep_going)) if body else []
        return head + _plain_lines(text, body)
    return list(_full_tokens(src, keep_going=keep_going))


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


def _full_tokens(src: _Text, end: int | None = None, keep_going: bool = False) -> Iterator[_Token]:
    """The tokens of the text (up to ``end``).  A tag, comment or quote not closed raises a
    :class:`NotationError`, or with ``keep_going`` is a ``bad`` token (its text the message) and
    the rest of its line is passed over, so the reader reports it and reads on."""
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
        elif kind in _UNCLOSED:
            message, at = _UNCLOSED[kind], (m.end() - 1 if kind == "badtag" else pos)
            if not keep_going:
                raise src.error(message, at)
            yield _Token("bad", message, at, first)
            first = False
            if kind != "close":  # the rest of the line is what was not closed
                line_end = text.find("\n", pos)
                pos = line_end if line_end != -1 and line_end < n else n
                continue
        else:
            yield _Token(kind, m.group(), m.start() if kind != "tag" else text.index("[", pos), first)
            if kind != "comment":
                first = False
        pos = m.end()


#: What a tag, comment or quote not closed is told (the kinds of _TOKEN that say so).
_UNCLOSED = {
    "badtag": "a tag is not closed: write it on one line as [Name \"value\"]",
    "open": "a comment is not closed: it starts here with { and has no }",
    "close": "} closes no comment",
    "badquote": "a quoted name is not closed on its line",
}


def _without_commas(word: str, at: int) -> tuple[str, int]:
    """A word without the commas that separate it from its neighbours (``6-6,`` ``,6-4``),
    and where it now starts; commas inside (``x2-4,4-4,1-4``) stay."""
    return word.strip(","), at + len(word) - len(word.lstrip(","))


def _unescape_comment(body: str) -> str:
    return re.sub(r"\\([\\}])", r"\1", body)


def _escape_comment(text: str) -> str:
    return text.replace("\\", "\\\\").replace("}", "\\}")


# --- one game's text -------------------------------------------------------------------


def decode(chunk: Chunk) -> str:
    """A game's text as Unicode: DGN is UTF-8, and text in another encoding is refused where it
    starts; a control character (:func:`check_controls`) is refused where it is."""
    try:
        text = unicode_text(chunk.data).replace("\r\n", "\n")  # a file saved on Windows reads the same
    except NotUnicodeError as e:
        message = re.sub(r"^line \d+, column \d+: ", "", e.message)  # said as the problem's line:column
        raise NotationError(message, chunk.first_line + (e.line or 1) - 1, e.column or 1) from None
    check_controls(text, chunk.first_line)
    return text


def check_controls(text: str, first_line: int = 1) -> None:
    """Refuse a DGN text holding a control character other than the tab, the line feed and the
    carriage return (:data:`domrec.errors.RECORD_CONTROLS`; a line or paragraph separator is no
    control character and is let be), at its line and column, wherever it is (a comment, a tag, a name): a terminal shown the
    text would obey it.  The text's first line is line ``first_line`` of its file."""
    bad = RECORD_CONTROLS.search(text)
    if bad is not None:
        line, column = _Text(text, first_line).where(bad.start())
        raise NotationError(control_said(bad.group()), line, column)
