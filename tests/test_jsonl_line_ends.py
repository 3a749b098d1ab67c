"""A JSON Lines stream's lines (``reader._Lines``): each ends at a line feed, a carriage return and
line feed, or a carriage return alone, whatever pieces the stream gives its bytes in; the bytes
come back whole and in order.  (The lines are kept as an offset into what was read ahead: cutting
each off the front copied the rest, and a 32 MB file of lone carriage returns took 11 s.)"""

from __future__ import annotations

import io
import re

from hypothesis import given, settings, strategies as st

from domrec import reader

_END = re.compile(rb"\r\n?|\n")


def _expected(data: bytes) -> list[bytes]:
    out, at = [], 0
    for m in _END.finditer(data):
        out.append(data[at:m.end()])
        at = m.end()
    return out + ([data[at:]] if at < len(data) else [])


def _lines(data: bytes, buffer: int) -> list[bytes]:
    lines = reader._Lines(io.BufferedReader(io.BytesIO(data), buffer_size=buffer))
    out = []
    while line := lines.readline():
        out.append(line)
    return out


@settings(max_examples=300)
@given(st.lists(st.sampled_from([b"a", b"{}", b" ", b"\r", b"\n", b"\r\n", b"\xc3\xa9"]), max_size=60),
       st.sampled_from([1, 2, 3, 7, 64, 8192]))
def test_lines_end_as_an_editor_shows_them(parts, buffer):
    data = b"".join(parts)
    assert _lines(data, buffer) == _expected(data)


@settings(max_examples=100)
@given(st.lists(st.sampled_from([b"x", b"\r", b"\n", b"\r\n"]), max_size=30), st.integers(0, 40))
def test_what_is_read_ahead_is_given_again_then_the_rest(parts, take):
    data = b"".join(parts)
    lines = reader._Lines(io.BytesIO(data))
    first = lines.readline()
    assert first + lines.again(b"").read() == data
    lines = reader._Lines(io.BytesIO(data))
    first = lines.readline()
    assert first + lines.read(take) + lines.read() == data


def test_a_file_of_lone_carriage_returns_is_every_record_in_order():
    records = [b'{"n": %d}' % i for i in range(2000)]
    got = [s.text for s in reader._split_lines(io.BytesIO(b"\r".join(records) + b"\r"), "old-mac.jsonl")]
    assert [t.rstrip(b"\r") for t in got] == records
