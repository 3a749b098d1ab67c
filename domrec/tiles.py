"""Tiles and the sets they come in.

A tile is written ``a-b`` in records.  In an ordinary set every tile is unique
and ``6-3`` is the same tile as ``3-6``, so the engines work with one
canonical, interned :class:`Tile` per pair of numbers: interning lets the hot
replay loop compare and hash tiles cheaply, and keeps the string a writer used
(``"3-6"``) in the record for faithful round-trips.

Domino Roads uses sets with duplicate tiles; there a hand is a multiset
(:class:`collections.Counter` of tiles) and every check counts copies.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

import attrs

from domrec.errors import DomrecError

#: No leading zeros: ``"05-2"`` is refused, so a tile has one way to be written in a record.
_TILE_RE = re.compile(r"^([0-9]|[1-9][0-9])-([0-9]|[1-9][0-9])\Z")


@attrs.frozen(eq=False, init=False)
class Tile:
    """One domino, ``high >= low``.

    Tiles are interned: ``Tile(3, 6) is Tile(6, 3) is tile("6-3")``.  Equality
    and hashing are therefore identity, done in C, which matters in the replay
    loop where every legality check hashes tiles.
    """

    high: int
    low: int

    def __new__(cls, a: int, b: int) -> "Tile":
        key = (a, b) if a >= b else (b, a)
        found = _INTERNED.get(key)
        if found is None:
            found = object.__new__(cls)
            object.__setattr__(found, "high", key[0])
            object.__setattr__(found, "low", key[1])
            _INTERNED[key] = found
        return found

    def __reduce__(self) -> tuple:
        return (Tile, (self.high, self.low))

    def __copy__(self) -> "Tile":
        return self

    def __deepcopy__(self, memo: dict) -> "Tile":
        return self

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    def has(self, number: int) -> bool:
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The number on the other half from ``number`` (which must be on the tile)."""
        return self.low if self.high == number else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}-{self.low})"


class TileError(DomrecError):
    """A tile string that is not of the form ``a-b``."""


_INTERNED: dict[tuple[int, int], Tile] = {}
_BY_TEXT: dict[str, Tile] = {}


def make(a: int, b: int) -> Tile:
    """The interned tile with numbers ``a`` and ``b`` in either order."""
    return Tile(a, b)


def tile(text: str) -> Tile:
    """Parse ``"6-3"`` into its tile; the writer's half order is forgotten here."""
    found = _BY_TEXT.get(text)
    if found is not None:
        return found
    match = _TILE_RE.match(text) if isinstance(text, str) else None
    if match is None:
        raise TileError(f"{text!r} is not a tile: write tiles as two numbers joined by a dash, like 6-3")
    found = make(int(match.group(1)), int(match.group(2)))
    _BY_TEXT[text] = found
    return found


def tiles_of(texts: Iterable[str]) -> list[Tile]:
    """Parse a list of tile strings (a deal's hand, a boneyard) at once.

    Deals are a large share of every record's tiles: tiles already seen are
    looked up in one comprehension instead of one :func:`tile` call each;
    anything unusual (a tile not seen yet, not text at all) goes through
    :func:`tile`, so errors and their wording are :func:`tile`'s.
    """
    try:
        return [_BY_TEXT[text] for text in texts]
    except (KeyError, TypeError):
        return [tile(text) for text in texts]


def known_tiles(parts: dict[str, Sequence[str]], seats: Iterable[str]) -> dict[str, list[Tile]] | None:
    """Each seat's tile texts parsed, when every seat is there and every text is a tile seen
    before (the usual deal); ``None`` otherwise, and the caller takes the careful road that
    names the problem.  A C-level ``map`` a seat: deals are checked once a hand."""
    try:
        get = _BY_TEXT.__getitem__
        return {seat: list(map(get, parts[seat])) for seat in seats}
    except (KeyError, TypeError):
        return None


def halves(text: str) -> tuple[int, int]:
    """The two numbers of a tile string in the order written (Broadway's ``at`` needs it)."""
    match = _TILE_RE.match(text)
    if match is None:
        raise TileError(f"{text!r} is not a tile: write tiles as two numbers joined by a dash, like 6-3")
    return int(match.group(1)), int(match.group(2))


def double_set(top: int) -> tuple[Tile, ...]:
    """The standard double-``top`` set: every pair of numbers 0..top once."""
    return tuple(make(a, b) for a in range(top, -1, -1) for b in range(a, -1, -1))


DOUBLE_SIX = double_set(6)
DOUBLE_NINE = double_set(9)
DOUBLE_TWELVE = double_set(12)

SETS: dict[str, tuple[Tile, ...]] = {
    "double-six": DOUBLE_SIX,
    "double-nine": DOUBLE_NINE,
    "double-twelve": DOUBLE_TWELVE,
}


def roads_set(players: int) -> Counter[Tile]:
    """The Domino Roads set: 40 tiles for four players, 39 (no 1-0) for three."""
    counts: Counter[Tile] = Counter(DOUBLE_SIX)
    for n in range(7):
        counts[make(n, n)] += 1
    for extra in ((1, 6), (2, 5), (3, 4), (2, 6), (3, 5)):
        counts[make(*extra)] += 1
    if players == 3:
        del counts[make(1, 0)]
    return counts


def pip_total(tiles: Iterable[Tile]) -> int:
    return sum(t.high + t.low for t in tiles)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Tiles as a club player writes them, highest first: ``6-6 6-3 2-0``."""
    return " ".join(str(t) for t in sorted(tiles, key=lambda t: (t.high, t.low), reverse=True)) or "(none)"
