"""From bytes to :class:`~domrec.record.Record`: parsing, versions, the shape check.

The reader is layered so that a future format 2.0 adds one migration step
(:data:`MIGRATIONS`) instead of a rewrite: a record of an older major is
rewritten, as a dict, into the current major before the shape check.
It streams JSON Lines archives record by record so memory stays bounded
whatever the archive's size, and it never lets one bad record stop the rest.

It is also where input meets domrec's limits (docs/format.md, "Limits"): no
single record or DGN text beyond :data:`MAX_RECORD_BYTES` is read into memory,
no record nests deeper than :data:`MAX_DEPTH`, and text that is not valid
Unicode is refused (:func:`unicode_text`, :func:`check_value`), so that what
is accepted here can be stored, printed and written back by every other part.
"""

from __future__ import annotations

import errno
import json
import math
import re
import os
import stat
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import attrs

try:
    import orjson
except ImportError:  # a platform without its wheels: Python's reader does it all, more slowly
    orjson = None

from domrec import shape
from domrec.errors import (RECORD_CONTROLS, ControlCharacterError, DuplicateKeyError, InputError, NotJSONError,
                           NotTextError, NotUnicodeError, ShapeError, TooLargeError, UnsupportedVersionError, clip,
                           control_said, one_line, pointer_token, shown)
from domrec.record import Record, structure_with_moves

CURRENT_MAJOR = 1
#: ``MIGRATIONS[k]`` rewrites a major-``k`` document into major ``k + 1``.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {}
SUPPORTED_MAJORS = tuple(sorted({CURRENT_MAJOR, *MIGRATIONS}))

# --- limits -----------------------------------------------------------------------------

#: The largest single record domrec reads (a ``.json`` file, one line of a JSON Lines
#: archive, a record on standard input): 64 MiB.  A real record is a few kilobytes; the limit
#: is there so that endless or runaway input (``/dev/zero``, a wrong file) is refused after
#: reading at most this much, instead of exhausting memory.  A JSON Lines archive is read
#: record by record, and a DGN archive game by game (:data:`MAX_DGN_GAME_BYTES` each): neither
#: has a limit on its total size.
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: The largest single game of a DGN text (a ``.dgn`` file may hold many): 1 MiB.  Reading DGN
#: keeps every token of the game with its position (so that any problem can name its line and
#: column), which takes 35 to 65 times the game's text: a game of 1 MiB, some thousands of hands
#: (a real one is a few kilobytes), keeps within 10 times the text plus 100 MB.  A longer game is
#: refused, in one line, before it is read; a JSON record has no such limit.
MAX_DGN_GAME_BYTES = 1024 * 1024
#: The largest players CSV or seeds file the tournament tool reads: 1 MiB (thousands of names).
MAX_LIST_BYTES = 1024 * 1024
#: How many levels of lists and objects a record's JSON may nest, the record itself being
#: level 1.  The format itself needs 8 (a redeal's hands); only free-form values (``event``)
#: can go deeper, and past some hundreds of levels Python's own stack would give out.
MAX_DEPTH = 64


def size_text(n: int) -> str:
    """A byte count as people say it: ``64 MiB``, ``1 MiB``."""
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n:,} bytes"


def read_stream(stream: Any, label: str, limit: int | None = None, what: str = "a record") -> bytes:
    """All of ``stream``, or :class:`TooLargeError` once it holds more than ``limit`` bytes
    (default :data:`MAX_RECORD_BYTES`).

    At most ``limit + 1`` bytes are read, so an endless input (``/dev/zero``, ``/dev/urandom``)
    is refused at once, with memory bounded by the limit."""
    limit = MAX_RECORD_BYTES if limit is None else limit
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLargeError(f"{label} is larger than {size_text(limit)}, the limit for {what}; not read")
    return data


#: Whether this process has opened an SQLite database (the tournament's stores say so:
#: :func:`databases_opened`): only then can a file it reads be one it holds SQLite's locks on.
_DATABASES_OPENED = False


def databases_opened() -> None:
    """Said by what opens an SQLite database in this process (the tournament's event and ratings
    files): from then on :func:`database_in_use` also looks at the files the process holds open."""
    global _DATABASES_OPENED
    _DATABASES_OPENED = True


def held_here(path: str | Path) -> bool:
    """``path`` is a file this process holds a descriptor of (SQLite keeps its database's open for
    as long as a connection is), whatever name it has: a hard link, or a symbolic one, to the event
    the command holds, in whatever journal mode (a rollback journal leaves no log beside the file
    to know it by).  Found by ``stat`` of the file and of the process's descriptors
    (``/proc/self/fd``, or ``/dev/fd``), which opens nothing.  Only in a process that has opened a
    database (:func:`databases_opened`): any other may open and close what it likes, another
    process's locks are its own."""
    if not _DATABASES_OPENED:
        return False
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False
    # Only a regular file can be a database.  A pipe (``--csv <(…)``: /dev/fd/63, which this process
    # holds since the shell opened it for it) matched its own descriptor, and was refused as "a
    # file this command holds open"; reading it drops no SQLite lock.
    if not stat.S_ISREG(st.st_mode):
        return False
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            descriptors = os.listdir(folder)
        except OSError:
            continue
        for fd in descriptors:
            try:
                other = os.stat(f"{folder}/{fd}")
            except OSError:  # (the listing's own descriptor, closed by now)
                continue
            if (other.st_ino, other.st_dev) == (st.st_ino, st.st_dev):
                return True
        return False
    return False


def database_in_use(path: str | Path) -> bool:
    """An SQLite database with its write-ahead log or shared memory beside it, or a file this very
    process holds open (:func:`held_here`): known without opening the file (see :func:`read_bytes`).

    Beside the name given, and beside the file it leads to: SQLite follows a symbolic link and
    keeps the log beside the file itself (the tool opens an event by its real path), so a link
    to an event in use (``tournament result club.db link-to-club.db``) is a database in use too."""
    names = {os.fspath(path)}
    try:
        names.add(os.path.realpath(path))
    except (OSError, ValueError):  # (a loop of links, a NUL: opening it fails, and says so)
        pass
    return any(os.path.exists(f"{name}{suffix}") for name in names for suffix in ("-wal", "-shm")) \
        or held_here(path)


def read_bytes(path: str | Path, limit: int | None = None, what: str = "a record") -> bytes:
    """The bytes of a file, at most ``limit`` of them (see :func:`read_stream`); ``OSError`` as open raises it.

    A file with an SQLite write-ahead log beside it is a database in use and is refused unopened:
    it may be the event file this very process holds (``tournament result club.db club.db``), and
    closing any descriptor of a file drops all the process's locks on it, SQLite's included."""
    if database_in_use(path):
        real = Path(os.path.realpath(path))
        it = "it is" if real.name == Path(path).name else f"it is a link to {real.name},"
        if not any(os.path.exists(f"{real}{suffix}") for suffix in ("-wal", "-shm")):
            raise OSError(errno.EBUSY, f"it is a file this command holds open (an SQLite database in use: the event "
                                       f"itself, by another name?), not {what}", str(path))
        raise OSError(errno.EBUSY, f"{it} an SQLite database in use (its {real.name}-wal is beside it), "
                                   f"not {what}", str(path))
    with open(path, "rb") as stream:
        return read_stream(stream, display_name(Path(path)), limit, what)


def unreadable(path: str | Path, e: OSError, what: str = "a record") -> str:
    """One line saying why :func:`read_bytes` could not read ``path`` (``what``: what was
    expected there), in the tool's words rather than the system's ("Is a directory")."""
    label = display_name(Path(path))
    if isinstance(e, FileNotFoundError):
        return f"{label}: no such file"
    if isinstance(e, IsADirectoryError):
        return f"{label} is a folder, not {what}"
    if isinstance(e, PermissionError):
        return f"cannot read {label}: this user may not read it"
    return f"cannot read {label}: {e.strerror or e}"


# --- valid Unicode ----------------------------------------------------------------------

#: A lone surrogate: half of a UTF-16 pair, which is no character (JSON's ``"\ud800"``).
_SURROGATE = re.compile("[\ud800-\udfff]")
#: A JSON escape that may make one (``\\ud83d\\ude00``, a whole pair, makes a character).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


#: What in a JSON text may make one of :data:`~domrec.errors.RECORD_CONTROLS`: an escape of one
#: (``\\u001b``, ``\\b``, ``\\f``; the tab's, line feed's and carriage return's too, which the
#: search of the strings then lets through), or one written as it is (DEL, a C1 control: JSON
#: refuses only the C0 controls written raw in a text).
_CONTROL_ESCAPE = re.compile(r"\\(?:u00(?:[01][0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])|[bf])")
_CONTROL_ESCAPE_BYTES = re.compile(_CONTROL_ESCAPE.pattern.encode("ascii"))
_RAW_C1 = re.compile("[\x80-\x9f]")
_RAW_C1_BYTES = re.compile(b"\xc2[\x80-\x9f]")


def may_hold_controls(text: str | bytes) -> bool:
    """Whether the JSON ``text`` may hold a string with a control character (now and then true
    when it holds none: the strings are then searched, :func:`check_value`).  The usual record,
    without a backslash, DEL or a character beyond ASCII, costs a search for each of the two
    and a look at whether it is ASCII."""
    if isinstance(text, bytes):
        escape, backslash, delete, raw = _CONTROL_ESCAPE_BYTES, b"\\", b"\x7f", _RAW_C1_BYTES
    else:
        escape, backslash, delete, raw = _CONTROL_ESCAPE, "\\", "\x7f", _RAW_C1
    if delete in text or (backslash in text and escape.search(text) is not None):
        return True
    return not text.isascii() and raw.search(text) is not None


#: The first bytes of every SQLite database file (an event file, a ratings file).
SQLITE_HEADER = b"SQLite format 3\x00"


def unicode_text(data: bytes | str, encoding: str = "utf-8") -> str:
    """The text of ``data``, refusing anything that is not valid Unicode.

    The one rule for all of domrec's and the tournament tool's input (records, DGN, CSV,
    seeds files): bytes must decode strictly (UTF-8, or the UTF-16/32 a JSON text may be
    in: the bytes ED A0 80, a surrogate written as UTF-8, are not UTF-8), and text already
    decoded must hold no lone surrogate.  Such text could be checked but never stored in
    the event file, printed, or written back, so it is refused where it is read, with its
    line and column (:class:`NotUnicodeError`)."""
    if isinstance(data, bytes):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as e:
            if data.startswith(SQLITE_HEADER):  # (its header is text; its pages are not)
                raise NotUnicodeError("this is an SQLite database (an event file?), not text: give the record's "
                                      "own file", line=1, column=1) from None
            before = data[:e.start].decode(encoding, "replace")
            line, column = _line_column(before, len(before))
            name = "UTF-8" if encoding.replace("-", "").lower().startswith("utf8") else encoding.upper()
            raise NotUnicodeError(f"line {line}, column {column}: the text is not {name} "
                                  f"(byte 0x{data[e.start]:02X}); save the file as UTF-8",
                                  line=line, column=column) from None
    if not data.isascii():
        m = _SURROGATE.search(data)
        if m is not None:
            line, column = _line_column(data, m.start())
            raise NotUnicodeError(f"line {line}, column {column}: {_surrogate_said(m.group())}",
                                  line=line, column=column)
    return data


def _surrogate_said(ch: str) -> str:
    return (f"U+{ord(ch):04X} is half of a UTF-16 surrogate pair, not a character (a \"\\u{ord(ch):04x}\" "
            f"escape without its other half); text must be valid Unicode")


def check_value(value: Any, pointer: str = "", level: int = 1, strings: bool = True, controls: bool = True) -> None:
    """Refuse a parsed JSON value that nests deeper than :data:`MAX_DEPTH` (``value`` being at
    ``level``) or, with ``strings``, holds a lone surrogate or (with ``controls`` too) a control
    character (:data:`~domrec.errors.RECORD_CONTROLS`) in a text or a key.

    Walked with a list, not by recursion, so no depth can exhaust the stack."""
    stack = [(value, pointer, level)]
    while stack:
        v, p, d = stack.pop()
        kind = type(v)
        if kind is float:
            shape.FLOATS_SEEN[0] += 1
        elif kind is str:
            if strings and not v.isascii():
                m = _SURROGATE.search(v)
                if m is not None:
                    raise NotUnicodeError(_surrogate_said(m.group()), p or "/")
            if strings and controls:
                m = RECORD_CONTROLS.search(v)
                if m is not None:
                    raise ControlCharacterError(control_said(m.group()), p or "/")
        elif kind is dict or kind is list:
            if d > MAX_DEPTH:  # pointed at the field that holds it, not 64 steps down
                raise TooLargeError(f"this value nests lists and objects more than {MAX_DEPTH} levels deep "
                                    f"(the limit for a record, counted from the record itself)",
                                    "/".join(p.split("/")[:3]) or "/")
            if kind is dict:
                for k, x in v.items():
                    q = f"{p}/{pointer_token(k)}"
                    bad = _SURROGATE.search(k) if strings and not k.isascii() else None
                    if bad is not None:
                        raise NotUnicodeError(f"the key \"{clip(k)}\": {_surrogate_said(bad.group())}", q)
                    bad = RECORD_CONTROLS.search(k) if strings and controls else None
                    if bad is not None:
                        raise ControlCharacterError(f"the key \"{clip(k)}\": {control_said(bad.group())}", q)
                    stack.append((x, q, d + 1))
            else:
                stack.extend((x, f"{p}/{i}", d + 1) for i, x in enumerate(v))


def _number(text: str) -> int | float:
    """JSON numbers with a fraction part: whole ones (``3.0``, ``1e2``) become ints.

    JSON Schema counts ``3.0`` as the integer 3, so the shape check lets it
    through where a whole number is wanted; converting it here means the
    engines only ever see ints (and ``1e20`` is not rounded as a float).
    """
    value = float(text)
    if math.isinf(value):  # 1e400: JSON, but no float; it would be written back as Infinity
        raise _at_token(NotJSONError(f"the number {shown(text)} is too large to be read"), text)
    if value.is_integer():
        mantissa, _, exponent = text.lower().partition("e")
        if not exponent:
            return int(mantissa.split(".")[0])
        return int(value) if abs(value) < 2 ** 53 else _exact_int(text, value)
    return value


def _no_constant(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's JSON reader takes but JSON has
    not: a record holding one would be written back with it, and every other JSON reader
    would refuse the file domrec wrote."""
    raise _at_token(NotJSONError(f"{name} is not a JSON number (JSON has no NaN or Infinity; "
                                 f"write it as text, \"{name}\", if it is meant)"), name)


def _at_token(e: NotJSONError, token: str) -> NotJSONError:
    """``e``, raised by Python's JSON reader's hook for ``token`` (which it gives no position):
    :func:`parse_json` then says where the token is (:func:`_placed`)."""
    e.token = token  # type: ignore[attr-defined]
    return e


def _placed(text: str, e: NotJSONError) -> NotJSONError:
    """``e`` with the line and column of its token in ``text`` (the first one outside a text in
    quotes), as every other problem of reading JSON is said."""
    token = getattr(e, "token", None)
    if not token:
        return e
    pattern = r'"(?:[^"\\]|\\.)*"|(?<![\w.+-])(' + re.escape(token) + r')(?![\w.])'
    found = next((m for m in re.finditer(pattern, text) if m.group(1) is not None), None)
    if found is None:
        return e
    return _not_json_at(text, found.start(1), e.message)


def _line_column(text: str, at: int) -> tuple[int, int]:
    """The 1-based line and column of offset ``at`` of ``text``."""
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def _not_json_at(text: str, at: int, words: str) -> NotJSONError:
    line, column = _line_column(text, at)
    return NotJSONError(f"not valid JSON at line {line}, column {column}: {words}", line=line, column=column)


#: The keyword arguments of every ``json.loads`` that reads a record or part of one.
JSON_NUMBERS: dict[str, Any] = {"parse_float": _number, "parse_constant": _no_constant}


def _exact_int(text: str, value: float) -> int | float:
    from decimal import Decimal, InvalidOperation

    try:
        exact = Decimal(text)
        return int(exact) if exact == exact.to_integral_value() else value
    except (InvalidOperation, ValueError, OverflowError):
        return value


#: From this many characters on, a record is parsed with :func:`_shared_strings`.
_LEAN_FROM = 1024 * 1024
_intern = sys.intern


def _shared_strings(obj: dict) -> dict:
    """One string object for each short text of a large record (tiles, seats, road names).

    JSON parsing makes a new string for every ``"6-4"`` of every move and deal: in a record
    of many hands those copies are a third of the memory the parsed record takes, and the
    record built from it keeps them.  Sharing them roughly halves the peak memory of a large
    record (docs/format.md, "Limits"); it costs a function call for each object, so small
    records, the usual case, are parsed without it."""
    for key, value in obj.items():
        kind = type(value)
        if kind is str:
            if len(value) <= 8:
                obj[key] = _intern(value)
        elif kind is list:
            for i, item in enumerate(value):
                if type(item) is str and len(item) <= 8:
                    value[i] = _intern(item)
    return obj


# --- one meaning per record: no key twice in an object -----------------------------------

#: A JSON escape that writes a colon inside a string (``"\\u003a"``): the one way a string's
#: colon can be absent from the text, which the colon count of :func:`_no_duplicates` relies on.
_COLON_ESCAPE = re.compile(r"\\u003[aA]")


def _no_duplicates(text: str | bytes, doc: Any) -> bool:
    """Whether ``doc``, parsed from ``text`` by a reader that keeps the last of two equal keys,
    is proven to hold every key the text has: ``True`` means no object of the text gives a key
    twice; ``False`` means it may (then :func:`_find_duplicate` reads it again and says where).

    The proof counts colons.  Outside strings, JSON has a colon after every key and nowhere
    else; inside strings a colon is written as itself unless escaped as ``\\u003a``.  orjson
    writes ``doc`` back with a colon after each key it kept and each colon of the strings it
    kept, escaping none.  So, when the text escapes no colon, the two counts are equal exactly
    when nothing was dropped: a dropped duplicate takes away its key's colon at least.  Both
    counts run in C (orjson, ``bytes.count``), a few percent of reading the record at all."""
    if orjson is None:
        return False
    if (b"\\" if isinstance(text, bytes) else "\\") in text and _COLON_ESCAPE.search(
            text if isinstance(text, str) else text.decode("utf-8", "replace")) is not None:
        return False
    try:
        written = orjson.dumps(doc)
    except Exception:  # a number orjson cannot write (beyond 64 bits), a lone surrogate: read again
        return False
    return written.count(b":") == text.count(b":" if isinstance(text, bytes) else ":")


class _Keys(dict):
    """An object as :func:`_find_duplicate` reads it: a dict that remembers the first key its
    text gave twice (``None`` when none)."""

    __slots__ = ("twice",)


def _pairs(pairs: list) -> dict:
    obj = _Keys(pairs)
    obj.twice = None
    if len(obj) != len(pairs):
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                obj.twice = key
                break
            seen.add(key)
    return obj


class _GivenTwice(Exception):
    """A large record's object gave a key twice: it is read again to say where."""


def _lean_pairs(pairs: list) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _GivenTwice
    return _shared_strings(obj)


def _find_duplicate(text: str) -> None:
    """Read ``text`` again keeping every key, and raise :class:`DuplicateKeyError` at the first
    object (in the order of the text) that gives a key twice; walked with a list, so no depth
    exhausts the stack.  Returns when there is none (the colon count could not prove it)."""
    stack = [(json.loads(text, **JSON_NUMBERS, object_pairs_hook=_pairs), "")]
    while stack:
        value, pointer = stack.pop()
        if isinstance(value, dict):
            twice = getattr(value, "twice", None)
            if twice is not None:
                raise DuplicateKeyError(
                    f"the key \"{clip(twice)}\" is given twice in one object; give each key once "
                    f"(JSON readers differ on which of the two counts)", f"{pointer}/{pointer_token(twice)}")
            stack.extend(reversed([(x, f"{pointer}/{pointer_token(k)}") for k, x in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([(x, f"{pointer}/{i}") for i, x in enumerate(value)]))


#: The encodings :func:`json.detect_encoding` names by a byte-order mark; the others it guesses
#: from the NUL bytes among the first four (``00 7B`` is UTF-16's ``{``), or takes for UTF-8.
_MARKED = ("utf-8-sig", "utf-16", "utf-32")
#: How far into bytes that are not UTF-8 a NUL is looked for, to call them no text at all (as git does).
_NUL_LOOK = 8192


def _json_text(data: bytes) -> str:
    """The text of a JSON document's bytes: UTF-8, or the UTF-16 or UTF-32 its byte-order mark or
    its first bytes say (RFC 8259 allows them); strictly (:func:`unicode_text`).

    Bytes that are no text at all (a picture, a zip, noise) are said to be so
    (:class:`~domrec.errors.NotTextError`), not "not UTF-16-BE": the NULs of noise made JSON's
    guess UTF-16, and a player told about an encoding saves the file again, to no end.  No text
    holds a NUL, and JSON's first character is ASCII; a file with a byte-order mark says it is
    text, and is judged as such."""
    encoding = json.detect_encoding(data)
    if encoding in _MARKED or data.startswith(SQLITE_HEADER):
        return unicode_text(data, encoding)
    try:
        text = unicode_text(data, encoding)
    except NotUnicodeError:
        if encoding != "utf-8" or b"\x00" in data[:_NUL_LOOK]:
            raise not_text(data) from None
        raise
    if "\x00" in text or (encoding != "utf-8" and not text.lstrip()[:1].isascii()):
        raise not_text(data)
    return text


def not_text(data: bytes) -> NotTextError:
    """The refusal of bytes that are no text, at the first byte that is none: a NUL, or one that
    breaks UTF-8 (a line of an archive is said at its column: :func:`placed_in_file`)."""
    at = data.find(b"\x00")
    try:
        data[:at if at >= 0 else len(data)].decode("utf-8")
    except UnicodeDecodeError as e:
        at = e.start
    at = max(at, 0)
    byte = data[at] if at < len(data) else 0
    return NotTextError(_not_text_said(byte, at, None), byte=byte, offset=at)


def _not_text_said(byte: int, at: int, line: int | None) -> str:
    if line is None:
        return (f"this is not a text file: its byte 0x{byte:02X}, at offset {at}, is in no text (a picture, a "
                f"program, a damaged copy?); a record's file is JSON text")
    return (f"line {line}, column {at + 1}: this line is not text: its byte 0x{byte:02X} is in no text (a damaged "
            f"copy?); each line of a JSON Lines archive is a record's JSON text")


def placed_in_file(e: NotJSONError, line: int) -> NotJSONError:
    """``e``, raised reading line ``line`` of a JSON Lines archive as a record of its own, with its
    place in the archive: the record's line 1 is the file's line ``line``, its columns the same
    (an archive's line holds no line break).  A record alone counts its lines from 1; the user
    of an archive looks for the file's own line (``games.jsonl:7`` said ``line 1, column 20``)."""
    if isinstance(e, NotTextError):
        return NotTextError(_not_text_said(e.byte, e.offset, line), e.pointer, line, e.offset + 1, byte=e.byte,
                            offset=e.offset)
    if e.line is None:
        return e
    moved = e.line + line - 1
    said = e.message.replace(f"line {e.line}, column {e.column}", f"line {moved}, column {e.column}", 1)
    return type(e)(said, e.pointer, line=moved, column=e.column)


def parse_json(text: str | bytes) -> Any:
    """JSON text to Python data, with a one-line error instead of a traceback.

    The text must be valid Unicode (:func:`unicode_text`): JSON's own decoding of bytes lets
    a surrogate written as UTF-8 through, so the bytes are decoded here, strictly.  Strings
    are searched for lone surrogates only when the text has an escape that can make one, so
    the usual record, which has no backslash at all, costs one character search."""
    if isinstance(text, bytes):
        text = _json_text(text)
    else:
        unicode_text(text)
    try:
        if len(text) < _LEAN_FROM:
            doc = json.loads(text, **JSON_NUMBERS)
            if not _no_duplicates(text, doc):
                _find_duplicate(text)
        else:  # a large record: each object checked as it is made, and read again only to say where
            try:
                doc = json.loads(text, **JSON_NUMBERS, object_pairs_hook=_lean_pairs)
            except _GivenTwice:
                doc = None
                _find_duplicate(text)
    except json.JSONDecodeError as e:
        end = len(text.rstrip())
        if e.pos >= end:  # said where the text's last character ends, not after its last line's newline
            raise _not_json_at(text, end, "the text ends before the JSON does (truncated?)") from None
        raise NotJSONError(f"not valid JSON at line {e.lineno}, column {e.colno}: {json_words(e.msg)}",
                           line=e.lineno, column=e.colno) from None
    except NotJSONError as e:  # (a number the hooks refuse: said where it is)
        raise _placed(text, e) from None
    except RecursionError:
        raise NotJSONError("the JSON is nested too deeply to be a record") from None
    except UnicodeDecodeError as e:
        raise NotJSONError(f"the file is not UTF-8 text ({e.reason} at byte {e.start})") from None
    except (ValueError, OverflowError) as e:  # Python refuses numbers of thousands of digits
        if "digits" in str(e):
            long = re.search(r"[0-9]{%d,}" % (sys.get_int_max_str_digits() + 1), text)
            raise _placed(text, _at_token(NotJSONError("the JSON holds a number too long to be read (thousands of "
                                                       "digits)"), long.group() if long else "")) from None
        raise NotJSONError(f"the JSON cannot be read: {e}") from None
    if ("\\" in text and _SURROGATE_ESCAPE.search(text) is not None) or may_hold_controls(text):
        check_value(doc, strings=True)  # (a backslash, DEL: memchr-fast)
    return doc


#: Python's JSON reader's messages (their start), and the same in a club's words: what to put right.
_JSON_WORDS = (
    ("Expecting value", "a value is missing here (a number, a text in double quotes, true, false, null, a list "
                        "[…] or an object {…})"),
    ("Extra data", "more follows the end of the record (one record a line in a .jsonl file, one record in a "
                   ".json file)"),
    ("Expecting property name enclosed in double quotes", "a key in double quotes (\"key\") is expected here: keys "
                                                          "are written in double quotes, and no comma ends an object"),
    ("Expecting ',' delimiter", "a comma is missing between two items"),
    ("Expecting ':' delimiter", "a colon is missing after the key"),
    ("Unterminated string", "a text in double quotes is not closed"),
    ("Invalid control character", "a text in double quotes holds a control character (a line break or a tab "
                                  "inside a text is written \\n or \\t)"),
    ("Invalid \\u", "a \\u escape needs four hexadecimal digits (\\u00e9)"),
    ("Invalid \\escape", "a backslash starts an escape JSON does not have (write \\\\ for a backslash)"),
    ("Illegal trailing comma", "a comma ends a list or an object: take it out"),
)


def json_words(msg: str) -> str:
    """Python's words for a JSON error (``Expecting ',' delimiter``) as a club's archivist reads
    them (``a comma is missing between two items``); a message not known here is kept as it is."""
    return next((words for start, words in _JSON_WORDS if msg.startswith(start)), msg)


def _major(version: Any) -> int:
    if type(version) is not str:
        # A number is described as a number: the reader keeps 1.0 as 1 (as every whole number),
        # so "not the number 1" would not be what the file says.
        what = "a number" if type(version) in (int, float) else shape.describe(version)
        raise ShapeError(f"version must be text in quotes, like \"1.0\", not {what}", "/version")
    head, dot, minor = version.partition(".")
    # str.isdigit() also takes "²" and "٣", which int() refuses or reads: ASCII digits only.
    if not (head.isascii() and head.isdigit() and dot and minor.isascii() and minor.isdigit()):
        raise ShapeError(f"version must be MAJOR.MINOR like \"1.0\", not {shape.describe(version)}", "/version")
    return int(head)


def upgrade(doc: Any) -> dict:
    """Check the header and migrate an older major to the current one."""
    shape.check_header(doc)
    major = _major(doc["version"])
    if major not in SUPPORTED_MAJORS:
        known = ", ".join(f"{m}.x" for m in SUPPORTED_MAJORS)
        raise UnsupportedVersionError(
            f"format version {doc['version']} is not supported; this domrec reads {known}", "/version")
    while major < CURRENT_MAJOR:
        doc = MIGRATIONS[major](doc)
        major += 1
    return doc


def _plain_players(key: str, value: Any) -> bool:
    """The usual players: a list of objects of ASCII texts, nothing nested, so nothing for
    :func:`check_value` to find (it would walk every one of them in every record)."""
    return key == "players" and type(value) is list and all(
        [type(p) is dict and all([type(x) is str and x.isascii() for x in p.values()])
         and all([k.isascii() for k in p]) for p in value])


def load_dict(doc: Any) -> Record:
    """A record from parsed JSON: header, migration, shape check, attrs values."""
    doc = upgrade(doc)
    # The shape check bounds the depth of everything but free-form values (``event``): those
    # are held to the limit here, before anything walks them (by recursion) to store or write them.
    # (Control characters are refused in the text a record is read from, :func:`parse_json`, not
    # here: a record built in memory, through the library, may hold one; every output escapes it.)
    for key, value in doc.items():
        if key != "hands" and type(value) in (dict, list) and not _plain_players(key, value):
            check_value(value, f"/{pointer_token(key)}", 2, controls=False)
    moves: list = []
    shape.check(doc, moves)
    return structure_with_moves(doc, moves)


def loads(text: str | bytes, line: int | None = None) -> Record:
    """A record from its JSON text (``line``: the text is that line of a JSON Lines archive, and a
    problem at a place of it is said at the archive's line, :func:`placed_in_file`).

    orjson reads the text first (a third of the time of Python's reader, which is a fifth of
    checking a record in all); the record is read again through :func:`parse_json`, so that
    every verdict and message is exactly that reading's, whenever the fast one could differ:
    orjson refuses the text, the record is not a good one (the slow reading then finds the
    same problem and words it), or a number held as a float was let through
    (:data:`shape.FLOATS_SEEN`: Python's reader makes ``3.0`` the int 3, and reads integers
    too long for a float exactly; orjson gives floats for both).  A record of a megabyte or
    more is read the slow way at once: :func:`parse_json` keeps one copy of each short text
    of it, which orjson does not, and that halves its memory.
    """
    if line is not None:
        try:
            return loads(text)
        except NotJSONError as e:
            raise placed_in_file(e, line) from None
    if orjson is not None and len(text) < _LEAN_FROM:
        record = _loads_fast(text)
        if record is not None:
            return record
    return load_dict(parse_json(text))


def _loads_fast(text: str | bytes) -> Record | None:
    """The record as orjson reads it, or ``None`` when :func:`loads` must read it again."""
    try:
        doc = orjson.loads(text)
    except Exception:  # not JSON as orjson reads it (or text it does not take): the slow reading says why
        return None
    if not _no_duplicates(text, doc):  # a key given twice (or not proven otherwise): the slow reading says where
        return None
    if may_hold_controls(text):  # (the slow reading finds the text that holds one, and says where)
        return None
    floats = shape.FLOATS_SEEN[0]
    try:
        record = load_dict(doc)
    except Exception:  # the slow reading raises the same, in its own words
        return None
    return record if shape.FLOATS_SEEN[0] == floats else None


def load(path: str | Path) -> Record:
    try:
        data = read_bytes(path)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    return loads(data)


@attrs.frozen
class Source:
    """One record's origin: a file, or a line of an archive; ``text`` unparsed."""

    label: str
    text: bytes | None
    error: InputError | None = None
    #: ``json`` (one record: a file's, standard input's), ``jsonl`` (a line of a JSON Lines
    #: archive: a record of JSON too) or ``dgn`` (a DGN text: one game of a ``.dgn`` file or of DGN
    #: on standard input, or a text of one or more games from elsewhere).
    form: str = "json"
    #: The line of its file the text starts on (a game of a DGN archive, a line of a JSON Lines
    #: archive), so that a problem names the file's line.
    first_line: int = 1

    @property
    def archive_line(self) -> int | None:
        """The line of a JSON Lines archive this record is (``None``: a whole text), for
        :func:`loads` to say a problem at the archive's line."""
        return self.first_line if self.form == "jsonl" else None


def display_name(path: Path) -> str:
    """A file name fit for a report: bytes that are not UTF-8 shown as ``\\xff``, line breaks escaped."""
    return one_line(os.fsencode(path).decode("utf-8", "backslashreplace"))


#: The file suffixes a folder is searched for.
RECORD_SUFFIXES = (".json", ".jsonl", ".dgn")


def file_identity(path: str | Path) -> tuple[int, int] | None:
    """A regular file's ``(device, inode)``, links followed: the same file whatever name it is
    reached by (a hard link, a symbolic one, ``sub/../sub/x``), which a name cannot tell.
    ``None`` for anything else (``-``, a folder, nothing there).  Known by ``os.stat``, which
    opens nothing."""
    if str(path) == "-":
        return None
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


#: The files this process's command writes (its ``--summary``, and the temporary file it is
#: written to), as ``(device, inode)``: never one of its inputs, even where a folder it reads
#: holds them (``validate sub --summary sub/sum.jsonl`` read its own summary of the run before
#: as records).  Said by :func:`domrec.output.writing`; forgotten when the command ends.
_WRITTEN: set[tuple[int, int]] = set()


def writes(identity: tuple[int, int] | None) -> None:
    """Say that this process's command writes the file of ``identity`` (:func:`file_identity`):
    :func:`folder_files` then leaves it out."""
    if identity is not None:
        _WRITTEN.add(identity)


def written() -> tuple[tuple[int, int], ...]:
    """The identities said by :func:`writes`, for a process that searches a folder for this one
    (a Dask worker)."""
    return tuple(_WRITTEN)


def forget_writes() -> None:
    """A command starts, or ends: the files it wrote are inputs like any other to the next one."""
    _WRITTEN.clear()


def iter_sources(paths: list[str], stdin: Any = None, stdin_form: str | None = None,
                 skip: Iterable[tuple[int, int]] | None = None) -> Iterator[Source]:
    """Every record named by ``paths``: files, folders (``*.json``, ``*.jsonl``, ``*.dgn``
    recursively), JSON Lines archives (one record a line), DGN texts (one source a file,
    split into games by :mod:`domrec.notation`) and ``-`` for stdin (``stdin_form`` ``dgn``
    reads it as DGN; otherwise JSON, or DGN when it does not start like JSON; the same form is
    what a file named by no record suffix holds, ``game.txt``).  ``skip``: the
    files a folder's search leaves out (:func:`folder_files`)."""
    for arg in paths:
        if arg == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            if stdin_form == "dgn":
                yield from dgn_sources(stream, "<stdin>")
                continue
            yield from _split_stream(stream, "<stdin>", dgn_too=stdin_form is None)
            continue
        path = Path(arg)
        label = display_name(path)
        try:  # a path inside a folder that may not be searched cannot even be looked at
            is_dir, exists = path.is_dir(), path.exists()
        except OSError as e:
            yield Source(label, None, InputError(f"{label}: cannot read: {e.strerror}"))
            continue
        if is_dir:
            found = folder_files(path, skip)
            if not found:
                but = " but the one this command writes" if folder_files(path, ()) else ""
                yield Source(label, None, InputError(f"{label}: no *.json, *.jsonl or *.dgn files in this folder{but}"))
            for p, why in found:
                if why is None:
                    yield from _file_sources(p)
                else:
                    shown = display_name(p)
                    yield Source(shown, None, InputError(f"{shown}: cannot read: {why}"))
        elif exists:
            yield from _file_sources(path, stdin_form)
        else:
            yield Source(label, None, InputError(f"{label}: no such file or folder"))


def folder_files(folder: Path, skip: Iterable[tuple[int, int]] | None = None) -> list[tuple[Path, str | None]]:
    """The record files under ``folder`` (``*.json``, ``*.jsonl``, ``*.dgn``, in every folder
    below it), sorted by path, each with ``None``; and each folder that cannot be listed (no
    permission, gone meanwhile) in its place, with the reason, ``folder`` itself included.
    ``Path.rglob`` skipped such a folder in silence, and its records with it.  A link to nowhere
    (or a link loop) named ``*.json`` is listed too, so that it is reported as unreadable, not
    skipped.

    Links are followed, to files and to folders alike (``find -L``): a link to a folder is read
    as a folder, whatever its name (``games.json`` too); skipping it left its records out
    without a word.  Each folder is read once, known by its identity (device, inode), not its
    name: the folders reached without a link first, then the links, in order of their paths;
    so a link to a folder read already (two links to one folder, a link to a folder below)
    adds nothing, and a record is checked under its own path where the folder holds it, else
    under the first link's.  A link to the folder that holds it, or to one above, is a loop and
    is not followed (:func:`_above`).

    Left out: the files the command writes (``skip``, by default those said by :func:`writes`),
    by identity, so that no name, link or ``..`` brings them back in."""
    leave = set(_WRITTEN if skip is None else skip)
    found: list[tuple[Path, str | None]] = []
    seen: set[tuple[int, int]] = set()
    links: list[Path] = []  # links to folders, read once every folder reached without one is
    folders = [folder]
    while folders or links:
        if not folders:
            links.sort(reverse=True)
            folders.append(links.pop())
        here = folders.pop()
        try:
            st = os.stat(here)
        except OSError as e:
            found.append((here, e.strerror or str(e)))
            continue
        if (st.st_dev, st.st_ino) in seen:
            continue
        seen.add((st.st_dev, st.st_ino))
        try:
            with os.scandir(here) as listing:
                entries = sorted(listing, key=lambda entry: entry.name, reverse=True)
        except OSError as e:
            found.append((here, e.strerror or str(e)))
            continue
        for entry in entries:
            path = here / entry.name
            try:
                inside = entry.is_dir(follow_symlinks=False)
                linked = not inside and entry.is_symlink() and entry.is_dir()
            except OSError:
                inside = linked = False
            if inside:
                folders.append(path)
            elif linked and not _above(path, here):
                links.append(path)
            elif path.suffix in RECORD_SUFFIXES and not (leave and file_identity(path) in leave):
                if _record_file(path):
                    found.append((path, None))
                elif (special := _special(path)) is not None:  # said, not skipped: read, it could wait for ever
                    found.append((path, f"it is {special}, not a file; a folder's files are read, nothing else"))
    return sorted(found, key=lambda item: item[0])


def _above(link: Path, here: Path) -> bool:
    """Whether ``link``, in the folder ``here``, leads to ``here`` or a folder above it: a loop,
    which ``find -L`` does not follow either; followed, it would read the folders beside the one
    named, which nobody asked for."""
    try:
        target, place = os.path.realpath(link), os.path.realpath(here)
    except (OSError, ValueError):
        return False
    return place == target or place.startswith(target.rstrip(os.sep) + os.sep)


def _special(path: Path) -> str | None:
    """What ``path`` is when it is neither a file nor a folder (a named pipe, a socket, a device),
    in words; None when it is a file, a folder, or gone."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device")


def input_files(paths: list[str]) -> Iterator[int]:
    """The size in bytes of each record file ``paths`` name (files, and the files of folders:
    :func:`folder_files`), for deciding how to check them; 0 for one that cannot be looked at
    (its reading says why)."""
    for arg in paths:
        path = Path(arg)
        try:
            files = [path] if path.is_file() else [p for p, why in folder_files(path) if why is None] \
                if path.is_dir() else []
        except OSError:
            files = []
        for f in files:
            try:
                yield f.stat().st_size
            except OSError:
                yield 0


def _record_file(path: Path) -> bool:
    """A file, or a link that leads to no file or folder (reported as unreadable when read)."""
    try:
        return path.is_file() or (path.is_symlink() and not path.exists())
    except OSError:  # a link into a folder that may not be searched: reported when read
        return True


def _file_sources(path: Path, form: str | None = None) -> Iterator[Source]:
    """The records of one file, read by its suffix: ``.jsonl`` JSON Lines, ``.dgn`` DGN, ``.json``
    one record.  A file of any other suffix (``game.txt``, as a phone or a mail program saves a
    DGN text) says nothing by its name, so it is told apart as standard input is: DGN when its
    first line with text starts like DGN (a tag that is not JSON, or a ``{comment}``), else one
    JSON record; ``form`` (``--from``: json, jsonl or dgn) says which, where the user said."""
    label = display_name(path)
    if database_in_use(path):  # never opened: see read_bytes
        yield Source(label, None, InputError(f"{label}: it is an SQLite database in use (an event file?), "
                                             f"not a record; not read"))
        return
    if path.suffix == ".jsonl" or (form == "jsonl" and path.suffix not in (".json", ".dgn")):
        try:
            with path.open("rb") as stream:
                said = False
                for source in _split_lines(stream, label):
                    said = True
                    yield source
                if not said:  # an archive cut to nothing (a failed copy) is no success
                    yield Source(label, None, InputError(f"{label}: empty: no record in this JSON Lines archive "
                                                         f"(not one line with text)"))
        except OSError as e:
            yield Source(label, None, InputError(f"{label}: cannot read: {e.strerror}"))
        return
    if path.suffix == ".dgn":
        try:
            with path.open("rb") as stream:
                yield from dgn_sources(stream, label)
        except OSError as e:
            yield Source(label, None, InputError(f"{label}: cannot read: {e.strerror}"), form="dgn")
        return
    try:
        with path.open("rb") as stream:
            head = b""
            if path.suffix != ".json" and form != "json":
                head = _head_to_text(stream)
                if form == "dgn" or _looks_like_dgn(head.lstrip(b"\r\n\t\x0b\x0c ")):
                    yield from dgn_sources(stream, label, head)
                    return
            source = _bounded(stream, label, head)
    except OSError as e:
        source = Source(label, None, InputError(f"{label}: cannot read: {e.strerror}"))
    if path.suffix == ".json" and source.text is not None:
        source = _dgn_named_json(source, path)
    yield source


#: A tag's start, ``[Game``: what tells a DGN text's first line from a JSON list broken off
#: (``[`` alone, ``[1,``), which the first line alone cannot tell apart otherwise.
_TAG_START = re.compile(rb"(?:\xef\xbb\xbf)?\[[ \t]*(?!(?:true|false|null)\b)[A-Za-z]")


def _dgn_named_json(source: Source, path: Path) -> Source:
    """``source``, a ``.json`` file, or its refusal in words that say why: a DGN text saved as
    ``game.json`` (a phone, a mail program, a slip of the hand) is read as JSON, by its suffix,
    and JSON's own words ("a value is missing here") send its player looking for a mistake in
    a text that has none.  Said only when the text is not JSON and its first line with text
    starts like DGN as standard input is told apart (:func:`_looks_like_dgn`): a record's file
    starts with ``{"`` and is never read twice."""
    text = source.text or b""
    first = text.lstrip(b"\r\n\t\x0b\x0c ").split(b"\n", 1)[0]
    if not _looks_like_dgn(first) or (first.lstrip(b"\xef\xbb\xbf").startswith(b"[")
                                      and _TAG_START.match(first) is None):
        return source
    try:
        parse_json(text)
    except NotJSONError as e:
        if not e.message.startswith("not valid JSON at "):
            return source
        where = e.message.partition(": ")[0]
        renamed = display_name(Path(path.name).with_suffix(".dgn"))
        return Source(source.label, None, NotJSONError(
            f"{where}: it starts like a DGN text (typed notation), and a .json file is read as JSON: rename it "
            f"{renamed} to have it read as DGN", line=e.line, column=e.column))
    return source


def _head_to_text(stream: Any) -> bytes:
    """A stream's blank lines and first line with text (all of it while within the limit of a
    record, else more than the limit: the caller refuses it), read to tell DGN from JSON."""
    head = b""
    while len(head) <= MAX_RECORD_BYTES:
        line = _read_line(stream)
        head += line
        if not line or line.strip():
            break
    return head


class GameTooLongError(InputError):
    """A game of a DGN text longer than :data:`MAX_DGN_GAME_BYTES`: not read (exit 2), at the
    line it starts on."""

    def __init__(self, size: int, line: int) -> None:
        super().__init__(f"this game's DGN text is {size:,} bytes, more than {size_text(MAX_DGN_GAME_BYTES)}, the "
                         f"limit for one game of DGN; not read (a record this long can be kept as JSON)")
        self.line = line
        self.column = 1


def dgn_sources(stream: Any, label: str, head: bytes = b"") -> Iterator[Source]:
    """The games of a DGN stream (``head``: its start, already read), each a source of its own,
    read a game at a time (:func:`domrec.dgn_archive.iter_games`): an archive of any size is
    read in the memory of one game, and worker processes check its games side by side.  A game
    over :data:`MAX_DGN_GAME_BYTES` is reported and the next one read; once such games have come
    to more than :data:`MAX_RECORD_BYTES` (noise, an endless device) the rest is not read, and
    the last source says so.  A file
    of one game is labelled ``label``; the games of an archive ``label:LINE`` (the line their
    text starts on), as :func:`domrec.notation.read_games` labels them."""
    from domrec.dgn_archive import iter_games

    games = iter_games(_Joined(head, stream) if head else stream, MAX_DGN_GAME_BYTES, give_up=MAX_RECORD_BYTES)
    try:
        held = next(games)
        second = next(games, None)
        if second is None:
            if not held.dropped and not held.data.strip():  # "1:1: a game needs a [Game] tag" said of nothing
                yield Source(label, None, InputError(f"{label}: empty: no game in this DGN text (not one line "
                                                     f"with text)"), form="dgn")
                return
            yield from _game_sources(held, label)
            return
        while held is not None:
            yield from _game_sources(held, f"{label}:{held.first_line}")
            held, second = second, next(games, None) if second is not None else None
    except OSError as e:
        yield Source(label, None, InputError(f"{label}: cannot read: {e.strerror}"), form="dgn")


def dgn_block_sources(data: bytes, label: str, first_line: int, at_end: bool) -> Iterator[Source]:
    """The games of a block of a DGN archive (``--dask`` cuts a big archive between games): the
    sources :func:`dgn_sources` gives for those games of the whole file, labelled and numbered
    by the file's lines (the block's text starts on line ``first_line``).  A block that is not
    the file's last ends with the line break before the next game's tags, which the whole
    file's reading leaves out of the game (``at_end``: the block runs to the file's end)."""
    import io

    from domrec.dgn_archive import iter_games

    if not at_end and data.endswith(b"\n"):
        data = data[:-1]
    for chunk in iter_games(io.BytesIO(data), MAX_DGN_GAME_BYTES, give_up=MAX_RECORD_BYTES):
        chunk = attrs.evolve(chunk, first_line=chunk.first_line + first_line - 1)
        yield from _game_sources(chunk, f"{label}:{chunk.first_line}")


def _game_sources(chunk: Any, label: str) -> Iterator[Source]:
    """A game's source; a game over the limit (let go while read, or just over it) as an error."""
    if not chunk.dropped and len(chunk.data) <= MAX_DGN_GAME_BYTES:
        yield Source(label, chunk.data, form="dgn", first_line=chunk.first_line)
        return
    yield Source(label, None, GameTooLongError(chunk.dropped or len(chunk.data), chunk.first_line), form="dgn",
                 first_line=chunk.first_line)
    if chunk.gave_up:
        yield Source(label, None, TooLargeError(f"{label}: the games too long to read came to more than "
                                                f"{size_text(MAX_RECORD_BYTES)} (runaway input?); the rest of the "
                                                f"text was not read"), form="dgn", first_line=chunk.first_line)


class _Joined:
    """A stream's start, already read, then the rest of it (``read(n)`` as a binary stream's)."""

    def __init__(self, head: bytes, stream: Any) -> None:
        self._head, self._stream = head, stream

    def read(self, n: int) -> bytes:
        if self._head:
            part, self._head = self._head[:n], self._head[n:]
            return part
        return self._stream.read(n)


def _bounded(stream: Any, label: str, head: bytes) -> Source:
    """One record: ``head``, already read, and the rest of ``stream``, within the limit."""
    try:
        if len(head) > MAX_RECORD_BYTES:
            raise TooLargeError(label)
        rest = read_stream(stream, label, MAX_RECORD_BYTES - len(head), "a record")
    except TooLargeError:
        return Source(label, None, TooLargeError(f"{label} is larger than {size_text(MAX_RECORD_BYTES)}, the "
                                                 f"limit for a record; not read"))
    return Source(label, head + rest)


def _read_line(stream: Any) -> bytes:
    """The next line (``b""`` at the end), or more than :data:`MAX_RECORD_BYTES` of a line that is longer."""
    return stream.readline(MAX_RECORD_BYTES + 1)


def _too_long(line: bytes) -> bool:
    return len(line) > MAX_RECORD_BYTES and not line.endswith(b"\n")


def _line_too_long(label: str) -> Source:
    """A line beyond the limit ends the archive: what follows it cannot be found without reading
    it all (an endless input has no next line), so the rest is not read, and the report says so."""
    return Source(label, None, TooLargeError(f"{label}: this line is longer than {size_text(MAX_RECORD_BYTES)}, the "
                                             f"limit for a record; it and the rest of the archive were not read"))


#: The byte-order marks of UTF-32 and UTF-16 (UTF-32's first: one of them starts like UTF-16's).
_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
               (b"\xfe\xff", "UTF-16"))


def _wide_archive(line: bytes, label: str) -> Source | None:
    """An archive whose first line starts with UTF-16's or UTF-32's byte-order mark: refused as a
    whole.  Its lines are found at the byte 0x0A, which in those encodings is half a character:
    each line after the first began with the other half, and was read (as UTF-16-BE, often
    successfully) as a record of its own, the first and the last said not to be UTF-16.  So is an
    SQLite database (an event file named ``.jsonl``, or piped in): its pages, cut at each byte 0x0A,
    were dozens of records each said not to be UTF-32 or JSON."""
    if line.startswith(SQLITE_HEADER):
        return Source(label, None, NotUnicodeError(
            f"{label}: this is an SQLite database (an event file?), not a JSON Lines archive: give the records' "
            f"own file; not read"))
    return _wide_line(line, label, whole=True)


def _wide_line(line: bytes, label: str, whole: bool = False) -> Source | None:
    """A line that starts with UTF-16's or UTF-32's byte-order mark, said for what it is: the
    first line (``whole``), the archive's encoding; a later line, a piece of such a file pasted
    in (read on its own, the mark would make it UTF-16 text, said not to be)."""
    wide = next((m for m in _WIDE_MARKS if line.startswith(m[0])), None)
    if wide is None:
        return None
    mark, encoding = wide
    said = (f"this JSON Lines archive is {encoding} text (its byte-order mark says so); an archive is read a line "
            f"at a time, in UTF-8: save it as UTF-8; not read") if whole else (
            f"this line starts with {encoding}'s byte-order mark ({' '.join(f'{b:02X}' for b in mark)}), in an "
            f"archive of UTF-8 lines: save the archive as UTF-8")
    return Source(label, None, NotUnicodeError(f"{label}: {said}"))


#: A line's end: a line feed, a carriage return and line feed, or a carriage return alone.
_LINE_END = re.compile(rb"\r\n?|\n")


def _line_end(buf: bytes, at: int) -> int:
    """Where the line of ``buf`` that starts at ``at`` ends: just past its line feed, carriage
    return and line feed, or carriage return alone; -1 where it does not end in ``buf``.  Two
    ``find`` (C's ``memchr``, the line feed looked for only before the first carriage return): a
    regular expression scanned these bytes a tenth as fast."""
    cr = buf.find(b"\r", at)
    lf = buf.find(b"\n", at, cr if cr >= 0 else len(buf))
    if lf >= 0:
        return lf + 1
    if cr < 0:
        return -1
    return cr + 2 if buf[cr + 1:cr + 2] == b"\n" else cr + 1


class _Lines:
    """A binary stream's lines, each ending at a line feed, a carriage return and line feed, or a
    carriage return alone (the line end of Mac OS before OS X, of some editors still): a JSON
    Lines archive written with those was read as one line, one UNUSABLE record.  JSON Lines
    says ``\\n``; a raw carriage return can only be white space between a record's values
    (JSON writes one in a text ``\\r``), which no program writes inside a line, so reading it as
    a line's end loses nothing and numbers the lines as an editor shows them.

    ``readline`` reads as a binary stream's (at most :data:`MAX_RECORD_BYTES` + 1 bytes of a
    longer line); ``held``: bytes already read, given first; ``read`` gives what is held, then
    the rest of the stream (a DGN text or a record on standard input is read whole)."""

    def __init__(self, stream: Any, held: bytes = b"") -> None:
        # ``_held[_at:]``: the bytes read ahead, not given yet.  An offset, not a slice a line: a
        # file of lone carriage returns is read in one piece of up to 64 MiB, and cutting each line
        # off its front copied the rest each time (32 MB took 11 s).
        self._stream, self._held, self._at = stream, held, 0

    def readline(self, _limit: int = -1) -> bytes:
        buf, at = self._held, self._at
        if at >= len(buf):
            buf, at = self._stream.readline(MAX_RECORD_BYTES + 1), 0
            self._held, self._at = b"", 0
            cr = buf.find(b"\r")
            if cr < 0 or (cr == len(buf) - 2 and buf.endswith(b"\n")):  # the usual line (LF, CRLF), as read
                return buf
        end = _line_end(buf, at)
        if (end < 0 or (end == len(buf) and buf.endswith(b"\r"))) and len(buf) - at <= MAX_RECORD_BYTES:
            # a line held in part, or held up to a carriage return whose line feed may come next: read on
            buf = buf[at:] + self._stream.readline(MAX_RECORD_BYTES + 1 - (len(buf) - at))
            at = 0
            end = _line_end(buf, 0)
        if end < 0 or end == len(buf):
            self._held, self._at = b"", 0
            return buf[at:] if at else buf
        self._held, self._at = buf, end
        return buf[at:end]

    def read(self, n: int = -1) -> bytes:
        held = self._held[self._at:]
        self._held, self._at = b"", 0
        if 0 <= n < len(held):
            self._held = held[n:]
            return held[:n]
        return held + self._stream.read(-1 if n < 0 else n - len(held))

    def again(self, start: bytes) -> "_Lines":
        """These lines, ``start`` (read from them) given again first."""
        return _Lines(self._stream, start + self._held[self._at:])


def _split_lines(stream: Any, label: str, first: int = 1) -> Iterator[Source]:
    """The records of a JSON Lines stream, a source a line with text (``first``: the number of
    its first line in the file; a block of a large archive starts further on)."""
    lines = stream if isinstance(stream, _Lines) else _Lines(stream)
    if first == 1:
        read = _one_spread_record(lines, label)
        if isinstance(read, Source):
            yield read
            return
        lines = read
    n = first - 1
    while True:
        line = lines.readline()
        if not line:
            return
        n += 1
        if n == 1 and (wide := _wide_archive(line, label)) is not None:
            yield wide
            return
        if _too_long(line):
            yield _line_too_long(f"{label}:{n}")
            return
        if n > 1 and (wide := _wide_line(line, f"{label}:{n}")) is not None:
            yield wide
            continue
        if line.strip():
            yield Source(f"{label}:{n}", line, form="jsonl", first_line=n)


def _one_spread_record(lines: _Lines, label: str) -> "_Lines | Source":
    """The refusal of a JSON Lines file that holds one record written over many lines (a record
    pretty-printed, saved as ``.jsonl``), which line by line was a verdict of UNUSABLE for each
    of its hundreds of lines; else the lines, those read to tell given again.

    Told as standard input's one record is (:func:`_split_stream`): the first two lines with text
    are not a JSON Lines archive's (the first is no JSON value by itself, the second no object by
    itself), and then the whole text (within the limit of a record) is one JSON value; or, broken
    itself, it starts with ``{`` or ``[`` alone on its line and no line of it is an object by
    itself.  An archive with broken lines has whole records on its other lines, and is read a
    line at a time as ever."""
    ahead: list[bytes] = []
    texts: list[bytes] = []
    size = 0
    while len(texts) < 2 and size <= MAX_RECORD_BYTES:
        line = lines.readline()
        if not line:
            break
        ahead.append(line)
        size += len(line)
        if line.strip():
            texts.append(line)
    start = b"".join(ahead)
    if (len(texts) < 2 or size > MAX_RECORD_BYTES or start.startswith(SQLITE_HEADER)
            or any(start.startswith(mark) for mark, _ in _WIDE_MARKS)
            or _json_value(texts[0]) is not _NOT_JSON or isinstance(_json_value(texts[1]), dict)):
        return lines.again(start)
    whole = start + lines.read(MAX_RECORD_BYTES + 1 - size)
    if len(whole) > MAX_RECORD_BYTES:
        return lines.again(whole)
    value = _json_value(whole)
    opened = texts[0].strip().removeprefix(b"\xef\xbb\xbf").strip() in (b"{", b"[")
    if value is _NOT_JSON and not (opened and not any(
            isinstance(_json_value(line), dict) for line in _LINE_END.split(whole) if line.lstrip().startswith(b"{"))):
        return lines.again(whole)
    name = display_name(Path(Path(label).name).with_suffix(".json"))
    what = ("one JSON record written over many lines" if isinstance(value, dict) else
            "one JSON value written over many lines" if value is not _NOT_JSON else
            f"JSON written over many lines (its first line is \"{texts[0].strip()[-1:].decode()}\" alone)")
    said = "" if value is not _NOT_JSON else ", and its problems said,"
    return Source(label, None, NotJSONError(
        f"{label}: this file holds {what}, but is read as JSON Lines, one record a line: name it {name} to have "
        f"it read{said} as one record; not read"))


def _split_stream(stream: Any, label: str, dgn_too: bool = True) -> Iterator[Source]:
    """Standard input holds one record, or JSON Lines: tell them apart by trying.  ``dgn_too``:
    a DGN text is told apart too (by its first line), and read as DGN; else (``--from json``)
    whatever it holds is read as JSON, as the user said.

    Blank lines before a record or between archive lines are skipped.  The
    first two lines with text decide: JSON Lines when the first is a JSON
    value by itself, or (a broken first line) when the second is a JSON object
    by itself; otherwise one document spread over lines.  A carriage return alone ends a line
    too, as in a file (:class:`_Lines`).
    """
    stream = _Lines(stream)
    lines: list[bytes] = []
    size = 0

    def next_text_line() -> bytes:
        nonlocal size
        while True:
            line = _read_line(stream)
            lines.append(line)
            size += len(line)
            if not line or line.strip() or size > MAX_RECORD_BYTES:
                return line

    first = next_text_line()
    if size > MAX_RECORD_BYTES:  # one endless line, or blank lines without end
        yield Source(label, None, TooLargeError(f"{label} is larger than {size_text(MAX_RECORD_BYTES)} before its "
                                                f"first line ends, the limit for a record; not read"))
        return
    if not first:
        yield Source(label, None, NotJSONError("standard input is empty"))
        return
    if dgn_too and _looks_like_dgn(first):  # a DGN tag line (or a comment before the tags)
        yield from dgn_sources(stream, label, b"".join(lines))
        return
    second = next_text_line()
    if not second:
        yield Source(label, b"".join(lines))
        return
    if _json_value(first) is _NOT_JSON and not isinstance(_json_value(second), dict):
        yield _bounded(stream, label, b"".join(lines))
        return
    wide = _wide_archive(b"".join(lines).lstrip(b"\r\n\t "), label)
    if wide is not None:
        yield wide
        return
    n = 0
    for n, line in enumerate(lines, 1):
        if _too_long(line):
            yield _line_too_long(f"{label}:{n}")
            return
        if n > 1 and (wide := _wide_line(line, f"{label}:{n}")) is not None:
            yield wide
            continue
        if line.strip():
            yield Source(f"{label}:{n}", line, form="jsonl", first_line=n)
    yield from _split_lines(stream, label, n + 1)


_NOT_JSON = object()
_JSON_OBJECT_START = re.compile(rb'\s*\{\s*(?:"|\}|$)')


def _looks_like_dgn(line: bytes) -> bool:
    """The first line of text on standard input starts a DGN text rather than JSON: a tag
    (``[Game "…"]``, which is not JSON) or a ``{comment}`` (which does not open a JSON object)."""
    text = line[3:] if line.startswith(b"\xef\xbb\xbf") else line
    head = text.lstrip()
    if head.startswith(b"["):
        return _json_value(text) is _NOT_JSON
    if head.startswith(b"{"):
        return _JSON_OBJECT_START.match(text) is None and _json_value(text) is _NOT_JSON
    return False


def _json_value(line: bytes) -> Any:
    """The JSON value a line holds by itself, or ``_NOT_JSON``."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return _NOT_JSON
