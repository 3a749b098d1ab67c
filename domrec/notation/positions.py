"""Where things are in a DGN text: from a JSON Pointer of the validator to ``line:column``.

The reader keeps an offset for every value it reads (or, for the moves of the
canonical form, the line and the word number, worked out only when a problem
needs it).  :class:`_Positions` maps the pointers of the record's JSON data to
those offsets; :func:`_field_at` finds, inside a move word, the very field a
pointer names (the tile, a cell, a road), so that a problem is reported at the
offending value and not at the start of its move.

It relies on the move patterns of :mod:`domrec.notation.tokens` and on
:class:`~domrec.validate.Problem`.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import attrs

from domrec.notation.tokens import _BRIDGE_AT, _MOVE, _STARTER_AT, _Text
from domrec.validate import Problem


_WORD = re.compile(r"\S+")


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
    return _offsets(text)(spot)


def _offsets(text: str) -> Callable[[Any], int]:
    """:func:`_offset` for many spots of ``text``: each line's word starts found once (a reader
    asks for every move's offset, and a line holds many moves)."""
    lines: dict[int, list[int]] = {}

    def offset(spot: Any) -> int:
        if type(spot) is not tuple:
            return spot
        base, k = spot
        starts = lines.get(base)
        if starts is None:
            end = text.find("\n", base)
            line = text[base:] if end < 0 else text[base:end]
            starts = lines[base] = [m.start() for m in _WORD.finditer(line)]
            starts.append(len(line))  # (past the last word: the line's end, as _word_offset says)
        return base + (starts[k] if 0 <= k < len(starts) else starts[-1])

    return offset


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
        score on an end line, the seat of a hand line's ``lead``…), if it was read."""
        if ("/result/scores/" in pointer or pointer.endswith(("/leader", "/result/end"))) and pointer in self.at:
            # (a hand line's lead: at its seat, not the line's start; an end line's way of ending
            # at its word)
            return self.src.where(self.at[pointer])
        head, _, last = pointer.rpartition("/")
        found = self.lists.get(head)
        if callable(found):
            found = self.lists[head] = found()
        if found is not None and last.isdigit() and int(last) < len(found):
            return self.src.where(found[int(last)])
        return None

    def dealt(self, pointer: str) -> tuple[int, int] | None:
        """Where a part of a hand's deal was typed (a seat's deal line at its seat, the row or
        boneyard line, a lead draw at its tile), for a problem found as the hand starts: a left
        line, read later, may give the same pointer's place only if no deal line did."""
        if "/deal/" in pointer and pointer in self.at:
            return self.src.where(self.at[pointer])
        return None

    def place(self, problem: Problem) -> Problem:
        spot = self.locate(problem.pointer) if problem.line is None else None
        problem = self._typed_pointer(problem)
        if spot is None:
            return problem
        return attrs.evolve(problem, line=spot[0], column=spot[1])

    def _typed_pointer(self, problem: Problem) -> Problem:
        """``problem`` with a pointer into a deal the text did not type (worked out from the
        ``left`` lines, or left out) cut back to its hand: ``/hands/0/deal/hands/W/3`` is a
        place in the reader's guess, which the person can neither see nor fix."""
        m = _DEAL_POINTER.match(problem.pointer)
        if m is None:
            return problem
        head = m.group(1)
        typed = any(key.startswith(head + "/") for key in self.lists)
        return problem if typed else attrs.evolve(problem, pointer=head.removesuffix("/deal"))


#: A pointer into a hand's deal: group 1 is ``/hands/N/deal``.
_DEAL_POINTER = re.compile(r"^(/hands/\d+/deal)(?:/|$)")


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
