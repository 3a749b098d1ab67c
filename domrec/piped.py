"""A DGN text read from standard input a line at a time, for ``domrec record`` from a pipe.

Its own module, apart from the command's work (:mod:`domrec.record_cli`): the reading refuses what
cannot be read at its place (a line longer than any text may be, bytes that are not UTF-8, a header
over the limit for one game), and ends a line at a carriage return alone, as ``domrec validate``
does, which Python's standard input does not.
"""

from __future__ import annotations

import io
import re
from typing import Any, Iterable

from domrec.reader import MAX_DGN_GAME_BYTES, MAX_RECORD_BYTES, size_text


def lines(first: str, stdin: Any) -> Iterable[str]:
    """``first`` (the line the header's reading stopped at), then the rest of the piped text."""
    yield first
    yield from iter(stdin.readline, "")


class Unreadable(Exception):
    """A piped line that cannot be read: longer than any DGN text may be (``< /dev/zero``), or not UTF-8."""


_NOT_UTF8 = re.compile("[\udc80-\udcff]")


class Piped:
    """The piped text, read a line at a time (:meth:`readline`), counting its lines so that a line
    that cannot be read is refused at its place, as every other problem of the text is.

    A carriage return alone (an old Mac's line end, ``tr '\\n' '\\r'``) ends a line here as it does
    for ``domrec validate``: Python's standard input ends lines at line feeds only, so such a
    text came as one line, which the header's reading took whole as tags, and nothing of the
    game was recorded (the command said "0 hands" and succeeded)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.lines = 0
        #: The lines of the last read that a carriage return alone split, not yet given.
        self._held: list[str] = []

    def readline(self) -> str:
        """The next piped line, read at most :data:`MAX_RECORD_BYTES` characters at a time, so
        that an endless line (``/dev/zero``) is refused instead of filling the memory.

        Python reads a piped standard input with ``surrogateescape``: a byte that is not UTF-8
        arrives as U+DC80…U+DCFF, which the Unicode check would call a ``"\\udced"`` escape the
        user never wrote.  Such a line is refused as what it is, text that is not UTF-8, at the
        line and column of its first such byte (as ``domrec validate`` refuses a file)."""
        if not self._held:
            read = self.stream.readline(MAX_RECORD_BYTES + 1)
            if not read:
                return read
            if len(read) > MAX_RECORD_BYTES and not read.endswith("\n"):
                where = (f"standard input from line {self.lines + 1} on" if _RETURN_ALONE.search(read)
                         else f"line {self.lines + 1} of standard input")
                raise Unreadable(f"{where} is longer than {size_text(MAX_RECORD_BYTES)}, the limit for a DGN "
                                  "text; it and the rest were not read")
            self._held = _RETURN_ALONE.split(read) if "\r" in read else [read]
            if not self._held[-1]:  # (the read ended at a carriage return alone)
                self._held.pop()
        line = self._held.pop(0)
        self.lines += 1
        bad = _NOT_UTF8.search(line)
        if bad is not None:  # (a byte-order mark opening the text is no column of it)
            column = bad.start() + 1 - (self.lines == 1 and line.startswith("\ufeff"))
            raise Unreadable(f"line {self.lines}, column {column}: the text is not UTF-8 (byte "
                              f"0x{ord(bad.group()) - 0xDC00:02X}); save the text as UTF-8: this line and the "
                              "rest were not read")
        return line


#: The place after a carriage return that no line feed follows: a line ends there.
_RETURN_ALONE = re.compile("(?<=\r)(?!\n)")


def read_header(stdin: Any) -> tuple[str, int, str | None]:
    """The text of a piped text up to its first hand line or move (blank lines, tags and
    comments), how many lines it has, and that first line (``None`` at the end of the input).

    The text is gathered in one buffer, not kept a line at a time (a string a line of
    ``{comment}`` costs some fifty bytes more than the line), and refused past
    :data:`MAX_DGN_GAME_BYTES`, the limit for one game of DGN: reading it keeps every token
    with its place, dozens of times the text (docs/format.md, "Limits")."""
    head, count, size = io.StringIO(), 0, 0
    for line in iter(stdin.readline, ""):
        stripped = line.strip()
        if not stripped or stripped.startswith(("[", "{")) or (stripped.startswith("\ufeff")):
            kept = line.lstrip("\ufeff")
            size += len(kept.encode("utf-8", "surrogatepass"))
            if size > MAX_DGN_GAME_BYTES:
                raise Unreadable(f"standard input's tags and comments before the first hand are more than "
                                  f"{size_text(MAX_DGN_GAME_BYTES)}, the limit for one game of DGN; not read")
            head.write(kept)
            count += 1
            continue
        return head.getvalue(), count, line
    return head.getvalue(), count, None


def rest(stdin: Any) -> list[str] | None:
    """The rest of the piped text, or ``None`` when it cannot be read (:class:`Unreadable`)."""
    try:
        return list(iter(stdin.readline, ""))
    except Unreadable:
        return None
