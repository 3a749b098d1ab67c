"""From bytes to :class:`~domrec.record.Record`: parsing, versions, the shape check.

The reader is layered so that a future format 2.0 adds one migration step
(:data:`MIGRATIONS`) instead of a rewrite: a record of an older major is
rewritten, as a dict, into the current major before the shape check.
It streams JSON Lines archives record by record so memory stays bounded
whatever the archive's size, and it never lets one bad record stop the rest.
"""

from __future__ import annotations

import json
import re
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs

from domrec import shape
from domrec.errors import InputError, NotJSONError, ShapeError, UnsupportedVersionError, one_line
from domrec.record import Record, structure, structure_with_moves

CURRENT_MAJOR = 1
#: ``MIGRATIONS[k]`` rewrites a major-``k`` document into major ``k + 1``.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {}
SUPPORTED_MAJORS = tuple(sorted({CURRENT_MAJOR, *MIGRATIONS}))


def _number(text: str) -> int | float:
    """JSON numbers with a fraction part: whole ones (``3.0``, ``1e2``) become ints.

    JSON Schema counts ``3.0`` as the integer 3, so the shape check lets it
    through where a whole number is wanted; converting it here means the
    engines only ever see ints (and ``1e20`` is not rounded as a float).
    """
    value = float(text)
    if value.is_integer():
        mantissa, _, exponent = text.lower().partition("e")
        if not exponent:
            return int(mantissa.split(".")[0])
        return int(value) if abs(value) < 2 ** 53 else _exact_int(text, value)
    return value


def _exact_int(text: str, value: float) -> int | float:
    from decimal import Decimal, InvalidOperation

    try:
        exact = Decimal(text)
        return int(exact) if exact == exact.to_integral_value() else value
    except (InvalidOperation, ValueError, OverflowError):
        return value


def parse_json(text: str | bytes) -> Any:
    """JSON text to Python data, with a one-line error instead of a traceback."""
    try:
        return json.loads(text, parse_float=_number)
    except json.JSONDecodeError as e:
        what = "the text ends before the JSON does (truncated?)" if e.pos >= len(text.rstrip()) else e.msg
        raise NotJSONError(f"not valid JSON at line {e.lineno}, column {e.colno}: {what}") from None
    except RecursionError:
        raise NotJSONError("the JSON is nested too deeply to be a record") from None
    except UnicodeDecodeError as e:
        raise NotJSONError(f"the file is not UTF-8 text ({e.reason} at byte {e.start})") from None
    except (ValueError, OverflowError) as e:  # Python refuses numbers of thousands of digits
        if "digits" in str(e):
            raise NotJSONError("the JSON holds a number too long to be read (thousands of digits)") from None
        raise NotJSONError(f"the JSON cannot be read: {e}") from None


def _major(version: Any) -> int:
    if type(version) is not str:
        raise ShapeError(f"version must be text like \"1.0\", not {shape.describe(version)}", "/version")
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


def load_dict(doc: Any) -> Record:
    """A record from parsed JSON: header, migration, shape check, attrs values."""
    doc = upgrade(doc)
    moves: list = []
    shape.check(doc, moves)
    return structure_with_moves(doc, moves)


def loads(text: str | bytes) -> Record:
    return load_dict(parse_json(text))


def load(path: str | Path) -> Record:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    return loads(data)


@attrs.frozen
class Source:
    """One record's origin: a file, or a line of an archive; ``text`` unparsed."""

    label: str
    text: bytes | None
    error: InputError | None = None
    #: ``json`` (one record, or a line of JSON Lines) or ``dgn`` (a DGN text of one or more games).
    form: str = "json"


def display_name(path: Path) -> str:
    """A file name fit for a report: bytes that are not UTF-8 shown as ``\\xff``, line breaks escaped."""
    return one_line(os.fsencode(path).decode("utf-8", "backslashreplace"))


#: The file suffixes a folder is searched for.
RECORD_SUFFIXES = (".json", ".jsonl", ".dgn")


def iter_sources(paths: list[str], stdin: Any = None, stdin_form: str | None = None) -> Iterator[Source]:
    """Every record named by ``paths``: files, folders (``*.json``, ``*.jsonl``, ``*.dgn``
    recursively), JSON Lines archives (one record a line), DGN texts (one source a file,
    split into games by :mod:`domrec.notation`) and ``-`` for stdin (``stdin_form`` ``dgn``
    reads it as DGN; otherwise JSON, or DGN when it does not start like JSON)."""
    for arg in paths:
        if arg == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            if stdin_form == "dgn":
                yield Source("<stdin>", stream.read(), form="dgn")
                continue
            yield from _split_stream(stream, "<stdin>")
            continue
        path = Path(arg)
        if path.is_dir():
            # A link to nowhere (or a link loop) named *.json is reported as unreadable, not skipped.
            found = sorted(p for p in path.rglob("*") if p.suffix in RECORD_SUFFIXES
                           and (p.is_file() or (p.is_symlink() and not p.exists())))
            if not found:
                label = display_name(path)
                yield Source(label, None, InputError(f"{label}: no *.json, *.jsonl or *.dgn files in this folder"))
            for p in found:
                yield from _file_sources(p)
        elif path.exists():
            yield from _file_sources(path)
        else:
            label = display_name(path)
            yield Source(label, None, InputError(f"{label}: no such file or folder"))


def _file_sources(path: Path) -> Iterator[Source]:
    label = display_name(path)
    if path.suffix == ".jsonl":
        try:
            with path.open("rb") as stream:
                yield from _split_lines(stream, label)
        except OSError as e:
            yield Source(label, None, InputError(f"{label}: cannot read: {e.strerror}"))
        return
    try:
        yield Source(label, path.read_bytes(), form="dgn" if path.suffix == ".dgn" else "json")
    except OSError as e:
        yield Source(label, None, InputError(f"{label}: cannot read: {e.strerror}"))


def _split_lines(stream: Any, label: str) -> Iterator[Source]:
    for n, line in enumerate(stream, 1):
        if line.strip():
            yield Source(f"{label}:{n}", line)


def _split_stream(stream: Any, label: str) -> Iterator[Source]:
    """Standard input holds one record, or JSON Lines: tell them apart by trying.

    Blank lines before a record or between archive lines are skipped.  The
    first two lines with text decide: JSON Lines when the first is a JSON
    value by itself, or (a broken first line) when the second is a JSON object
    by itself; otherwise one document spread over lines.
    """
    lines: list[bytes] = []

    def next_text_line() -> bytes:
        while True:
            line = stream.readline()
            lines.append(line)
            if not line or line.strip():
                return line

    first = next_text_line()
    if not first:
        yield Source(label, None, NotJSONError("standard input is empty"))
        return
    if _looks_like_dgn(first):  # a DGN tag line (or a comment before the tags)
        yield Source(label, b"".join(lines) + stream.read(), form="dgn")
        return
    second = next_text_line()
    if not second:
        yield Source(label, b"".join(lines))
        return
    if _json_value(first) is _NOT_JSON and not isinstance(_json_value(second), dict):
        yield Source(label, b"".join(lines) + stream.read())
        return
    n = 0
    for n, line in enumerate(lines, 1):
        if line.strip():
            yield Source(f"{label}:{n}", line)
    for m, line in enumerate(stream, n + 1):
        if line.strip():
            yield Source(f"{label}:{m}", line)


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
