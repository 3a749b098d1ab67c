"""Exception classes.

Two families, because a user must be told two different things:

* :class:`InputError` — the input cannot be judged at all (not JSON, the wrong
  shape, an unknown game or format version).  The command exits with 2.
* :class:`RuleViolation` — the record is well formed but breaks a rule of the
  game (an illegal move, a bad deal, a wrong leader).  The command exits with 1.

Every error carries a JSON Pointer so the message says *where*, and rule
violations carry the name of the rule (as docs/rules/ names it) so it says
*which rule*.
"""

from __future__ import annotations

import re

#: What would break a report line, or cannot be written as UTF-8: control
#: characters (line feed, carriage return, U+0085, ...), the Unicode line and
#: paragraph separators, and lone surrogates (JSON's "\\ud800" escape).
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def one_line(text: str) -> str:
    """``text`` safe to print as (part of) one line: such characters become escapes like ``\\n``.

    Seats, names, keys and file names come from whoever wrote the record; a
    newline in one must not split a problem over two lines of a report.
    """
    if _NOT_ONE_LINE.search(text) is None:
        return text
    return _NOT_ONE_LINE.sub(_escaped, text)


#: The explicit direction controls: marks (ALM, LRM, RLM), embeddings and overrides (LRE, RLE,
#: PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI).  A name's own letters set its direction;
#: these only make text show in another order than it is read (``\u202e1 reyalP`` shows as
#: "Player 1").
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NO_BIDI = {ord(ch): None for ch in BIDI_CONTROLS}


def plain_direction(text: str) -> str:
    """``text`` without direction controls: what a terminal shows of a name, a comment or any
    other text from a record or an event file, so that it reads in the order it is written.

    Both commands print through it (``domrec``'s text output, every ``tournament`` command);
    data (``--json``, a record written out) keeps its text as it is."""
    return text.translate(_NO_BIDI) if not text.isascii() else text


#: What a terminal takes for a command of its own: the C0 controls (ESC starts a colour, a window
#: title, a clear screen; BEL, backspace, a carriage return), DEL and the C1 controls (U+009B is a
#: CSI of its own), a line feed aside.  A name typed with one is refused, but a record, a DGN text
#: or an event file written elsewhere (by hand, by another program) may hold one.
_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
#: The same but the tab, which the commands' own output uses between columns (``tournament pins``).
_CONTROLS_BUT_TAB = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, tabs: bool = False) -> str:
    """``text`` as a terminal is to show it: without direction controls (:func:`plain_direction`)
    and with each control character (C0 but the line feed, DEL, C1) written as an escape
    (``\\x1b``, as :func:`one_line` writes them), never one the terminal would obey.  ``tabs``: a
    tab stays a tab (a whole line of a command's output, whose columns it separates); else it is
    escaped too (a name, a table's cell).  Applied twice, it changes nothing more.

    The one place both commands escape their output: every line ``domrec`` and ``tournament``
    write for people goes through it (:class:`domrec.console.Printable`)."""
    text = plain_direction(text)
    pattern = _CONTROLS_BUT_TAB if tabs else _CONTROLS
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escaped, text)


#: What no text of a record may hold, in DGN or in JSON (a name, a tag, a comment, a road, a
#: key): the control characters but the tab, the line feed and the carriage return (the C0
#: controls, DEL, the C1 controls: ESC, NUL, BEL, backspace, form feed, U+009B…).  A terminal
#: obeys a control character instead of showing it (ESC can clear the screen and write "valid"
#: in its place), and none has a use in a game's words.  Direction controls are not among them:
#: right-to-left text uses its marks, and every output drops them (:func:`plain_direction`).
RECORD_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

#: The names a player may know a control character by (the rest are said by their code alone).
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL, the bell", 0x08: "backspace", 0x0B: "vertical tab", 0x0C: "form feed",
                  0x1B: "ESC, escape", 0x7F: "DEL, delete", 0x85: "next line", 0x9B: "CSI, a terminal command"}


def control_said(ch: str) -> str:
    """What a refusal says of ``ch``, one of :data:`RECORD_CONTROLS`: the character by its code
    (and name, where it has one a player may know), why it cannot be, and what to do."""
    code = ord(ch)
    name = _CONTROL_NAMES.get(code)
    return (f"the text holds a control character, U+{code:04X}{f' ({name})' if name else ''}, which no record "
            f"may hold (a terminal would obey it, not show it): delete it")


def clip(text: str, limit: int = 40) -> str:
    """Text from a record, shortened for a message: a 100,000-character key must not make a 100 KB line."""
    return one_line(text if len(text) <= limit else text[:limit] + "…")


#: How much of a record's value a message shows (see :func:`shown`).
SHOWN_TEXT = 60
SHOWN_DIGITS = 20


def shown(value: object, limit: int = SHOWN_TEXT) -> str:
    """A value from a record (a name, a road, a number) as a message shows it: on one line, text
    cut to ``limit`` characters with an ellipsis, and a number of more than 20 digits shortened
    to its first and last digits and its length.  A record may hold a road named with a million
    characters or a 4,000-digit number; the message about it must stay one readable line."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) >= 10 ** SHOWN_DIGITS:
        return f"{value:.6g}"
    if isinstance(value, int):
        # str() of a 5,000-digit int raises (Python's conversion limit): count digits first.
        if abs(value).bit_length() > 64 * 8:
            return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
        digits = str(value)
        n = len(digits.lstrip("-"))
        if n > SHOWN_DIGITS:
            return f"{digits[:10]}…{digits[-4:]} ({n} digits)"
        return digits
    return clip(str(value), limit)


def pointer_token(key: str) -> str:
    """A key as one JSON Pointer step (RFC 6901): ``~`` is ``~0``, ``/`` is ``~1``."""
    return key.replace("~", "~0").replace("/", "~1")


class DomrecError(Exception):
    """Base of every error domrec raises on purpose."""


class InputError(DomrecError):
    """Input that cannot be judged: the user must fix the file, not the game."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        where = self.pointer or "/"
        return f"{where}: {self.message}"


class NotJSONError(InputError):
    """The text is not JSON (or is nested too deeply to read safely).  ``line``/``column``
    (1-based) say where in the text, when the problem is at a place of it: a JSON Lines
    archive's reader moves them to the archive's own line (:func:`domrec.reader.placed_in_file`)."""

    def __init__(self, message: str, pointer: str = "", line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message, pointer)
        self.line = line
        self.column = column


class DuplicateKeyError(NotJSONError):
    """An object that gives one key twice (``{"play": "6-6", "play": "5-2"}``).  JSON readers
    differ on which of the two they keep, so two programs could read one record two ways; a
    record that settles a dispute must have one meaning, and is refused."""


class NotUnicodeError(NotJSONError):
    """Text that is not valid Unicode: bytes that are not UTF-8 (or the JSON's UTF-16/32), or a
    lone surrogate (a ``"\\ud800"`` escape without its pair), which is no character at all and
    could not be stored, printed or written back.  ``line``/``column`` (1-based) say where in
    the text, when the problem is in the raw text rather than in a parsed string."""


class NotTextError(NotUnicodeError):
    """Bytes that are no text at all (a picture, a zip, noise): a byte no text holds, NUL, or
    bytes that are neither UTF-8 nor the UTF-16 their NULs made them look like.  Said as such,
    at its byte, rather than as text in the wrong encoding: nothing can be saved as UTF-8.
    ``byte``/``offset``: that byte, and where it is (0-based) in the text read."""

    def __init__(self, message: str, pointer: str = "", line: int | None = None, column: int | None = None, *,
                 byte: int = 0, offset: int = 0) -> None:
        super().__init__(message, pointer, line, column)
        self.byte = byte
        self.offset = offset


class ControlCharacterError(InputError):
    """Text holding one of :data:`RECORD_CONTROLS` (an ESC, a NUL…): at its JSON Pointer in a
    record, at its line and column in a DGN text (:class:`domrec.notation.NotationError`)."""


class TooLargeError(InputError):
    """Input beyond one of domrec's documented limits (size, nesting): refused before it can
    exhaust memory or the stack."""


class ShapeError(InputError):
    """The JSON does not have the shape of a domrec record (schema domrec-1)."""


class UnsupportedVersionError(InputError):
    """The record's ``format``/``version`` is not one this reader knows."""


class UnknownGameError(ShapeError):
    """The record names a game domrec has no engine for."""


class EndlessGame(DomrecError):
    """A simulated game that did not end within the simulator's hand limit (a target set so high,
    say, that random play would need thousands of hands): the simulator stops rather than run on."""


class RuleViolation(DomrecError):
    """A well-formed record breaks a rule of its game.

    ``pointer`` is filled in by the replay driver when the engine does not
    know it (an engine raises relative to the move or deal it is judging).
    """

    def __init__(self, message: str, rule: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.pointer = pointer

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message} [{self.rule}]"


class IllegalMove(RuleViolation):
    """A move the rules do not allow at that moment."""


class DealError(RuleViolation):
    """A deal that cannot have come from the game's set and dealing rules.

    ``where`` is a pointer relative to the hand (``/deal/hands/N/3``).  ``left``: the tile of a
    ``left`` line the problem is in, as (seat, its place among the tiles listed for that seat),
    where one is (a DGN reader places the problem there: the record has no ``left`` to point at).
    """

    def __init__(self, message: str, rule: str, where: str = "/deal", left: tuple[str, int] | None = None) -> None:
        super().__init__(message, rule)
        self.where = where
        self.left = left


class SetupError(RuleViolation):
    """Players, seats, options or variant that the game's rules do not allow."""


class HiddenTiles(DomrecError):
    """Asked of an open hand (its deal not known) what only the hidden tiles can tell: its
    legal moves, or the scores of a hand that depend on what was still held.  The Game and
    the recorder never ask; the deal is worked out and the hand replayed in full first."""
