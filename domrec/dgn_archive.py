"""A DGN archive cut into its games, before any game is read.

A ``.dgn`` file may hold one game or a hundred thousand.  Where one game ends and the next
begins is decided from the bytes alone (a blank line, then a tag line, after a hand's line), so
that an archive can be cut without reading its games: the whole text at once
(:func:`split_games`, for a text in memory) or a block at a time from a stream
(:func:`iter_games`, for a file of any size, in the memory of one game).  The reader
(:mod:`domrec.reader`) gives each game of a file as a source of its own, so that worker
processes (``validate -j``, ``--dask``) check an archive's games side by side; the notation
(:mod:`domrec.notation`) reads each game.  Regular expressions find the lines, without a
Python step per line of the archive.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import attrs

@attrs.frozen
class Chunk:
    """One game's text in a DGN file (bytes, as read) and the line it starts on.

    ``dropped``: a game longer than the reader keeps (:func:`iter_games`'s ``limit``) is not
    kept at all: its ``data`` is empty and ``dropped`` is its size in bytes.  ``gave_up``: the
    games let go so far came to more than ``give_up`` bytes (runaway input: ``/dev/zero``,
    noise): the stream was not read further, and ``dropped`` is what was read of this game.
    ``offset``: the byte of the file the game's text starts at (a byte-order mark counted), so
    that a file can be cut between games (``--dask`` checks a big archive in blocks)."""

    first_line: int
    data: bytes
    dropped: int = 0
    gave_up: bool = False
    offset: int = 0


#: A blank line, then a tag line, or comment lines and then a tag line (a game's header may open with
#: a ``{comment}`` line: the game starts at it).  Group 1 starts at the game's first line.
_GAP_TAG = re.compile(rb"\n[ \t\r\x0b\x0c]*\n((?:[ \t\r\x0b\x0c]*\{[^}\n]*\}[ \t\r\x0b\x0c]*\n)*)[ \t\r\x0b\x0c]*\[")
#: A line that a game's start may hold before its tag line: blank, or a comment alone.
_BEFORE_TAG = re.compile(rb"[ \t\r\x0b\x0c]*(?:\{[^}\n]*\}[ \t\r\x0b\x0c]*)?")
_BODY_LINE = re.compile(rb"^[ \t\r\x0b\x0c]*[^\s\[]", re.M)  # a line that is neither blank nor a tag


def split_games(data: bytes) -> list[Chunk]:
    """The games of a DGN text: a new game starts at a tag line that follows a blank line
    (or begins the file) after hands have been written, or at the ``{comment}`` lines between
    that blank line and its tag line.  The regexes find those lines without
    a Python step per line of the archive."""
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    data = data[bom:]
    chunks: list[Chunk] = []
    start = 0  # where the current game's first line starts
    line = 1
    for m in _GAP_TAG.finditer(data):
        tag = m.start(1)  # the game's first line: its tag line, or the comment lines before it
        if _BODY_LINE.search(data, start, tag) is None:  # no hands since the game's start
            continue
        chunks.append(Chunk(line, data[start:tag - 1], offset=bom + start))
        line += data.count(b"\n", start, tag)
        start = tag
    chunks.append(Chunk(line, data[start:], offset=bom + start))
    return [c for c in chunks if c.data.strip()] or chunks[:1]


#: How much of a stream :func:`iter_games` reads at a time.
READ_BYTES = 1024 * 1024


def iter_games(stream: Any, limit: int, block: int = READ_BYTES, give_up: int | None = None) -> Iterator[Chunk]:
    """The games of a DGN stream, one at a time: the chunks :func:`split_games` gives for the
    whole text, read a block at a time, so that an archive of any size is read in the memory of
    one game (a JSON Lines archive is read a line at a time for the same reason).

    A game longer than ``limit`` bytes is not kept: its chunk says its size (``dropped``) and the
    reading goes on with the next game.  A game starts where :func:`split_games` says (a blank
    line, then a tag line or comment lines and a tag line, after a hand's line).  Every start found in what is read so far is a
    start of the whole text; one that is not complete yet begins at one of the last two line
    breaks read, so the next look begins there.  (In a game already over the limit, a blank line
    longer than a block, all spaces, is not seen as the gap before the next game.)"""
    buf = b""  # what is read and not yet given; the current game's text starts at ``start``
    start = 0
    line = 1  # the line the current game starts on
    scan = 0  # where the next look for a game's start begins
    dropped = newlines = 0  # bytes of the current game let go (over the limit), and their line breaks
    body = False  # the bytes let go held a hand's line
    midline = False  # the kept text starts inside a line (one endless line was let go)
    out = 0
    lost = 0  # bytes of the earlier games let go
    base = 0  # the byte of the file ``buf`` starts at
    more = stream.read(max(block, 3))
    if more.startswith(b"\xef\xbb\xbf"):
        more, base = more[3:] or stream.read(block), 3
    at = base  # the byte of the file the current game starts at
    while True:
        keep = start - 1 if midline else start  # (a byte of the line before: a search from ``start`` sees no line start)
        buf = buf[keep:] + more if keep else buf + more
        base += keep
        scan, start = max(scan - keep, 0), start - keep
        while (tag := _start_in(buf, start, scan, body)) is not None:
            yield (Chunk(line, b"", dropped + tag - 1 - start, offset=at) if dropped
                   else Chunk(line, buf[start:tag - 1], offset=at))
            out += 1
            lost += dropped + tag - 1 - start if dropped else 0
            line += newlines + buf.count(b"\n", start, tag)
            start = scan = tag
            at = base + tag
            dropped = newlines = 0
            body = midline = False
        scan = max(_scan_end(buf), start)
        if not more:
            break
        if len(buf) - start + dropped > limit:
            if scan - start > block:
                # Over the limit: let the game's text go, but for its last lines (a start may begin there).
                body = body or _BODY_LINE.search(buf, start, scan) is not None
                newlines += buf.count(b"\n", start, scan)
                dropped += scan - start
                start, midline = scan, False
            if len(buf) - max(buf.rfind(b"\n", start) + 1, start) > 4 * block:  # an endless last line: keep its end
                cut = len(buf) - block
                body = body or _BODY_LINE.search(buf, start, cut) is not None
                newlines += buf.count(b"\n", start, cut)
                dropped += cut - start
                start = scan = cut
                midline = True
            if give_up is not None and lost + dropped > give_up:
                yield Chunk(line, b"", dropped + len(buf) - start, gave_up=True, offset=at)
                return
        more = stream.read(block)
    if dropped:
        yield Chunk(line, b"", dropped + len(buf) - start, offset=at)
    elif buf[start:].strip() or not out:
        yield Chunk(line, buf[start:], offset=at)


def _start_in(buf: bytes, start: int, scan: int, body: bool) -> int | None:
    """Where the next game's tag line starts in ``buf`` (the current game's text begins at
    ``start``), looking at or after ``scan``, as :func:`split_games` decides it; ``body``: a
    hand's line was seen in the part of the game let go."""
    for m in _GAP_TAG.finditer(buf, scan):
        tag = m.start(1)
        if body or _BODY_LINE.search(buf, start, tag) is not None:
            return tag
    return None


def _scan_end(buf: bytes) -> int:
    """Where a start of a game not yet complete may begin: the second-to-last line break read, or
    before it, the break before the blank and comment lines that end what is read (a game's start
    may hold comment lines between its blank line and its tag line)."""
    last = buf.rfind(b"\n")
    if last <= 0:
        return 0
    at = max(buf.rfind(b"\n", 0, last), 0)
    while at > 0:
        before = buf.rfind(b"\n", 0, at)
        if _BEFORE_TAG.fullmatch(buf, before + 1, at) is None:
            break
        at = max(before, 0)
    return at
