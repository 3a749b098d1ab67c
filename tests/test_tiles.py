"""Tiles and sets."""

from __future__ import annotations

import copy
import pickle

import pytest

from domrec import tiles as T
from domrec.tiles import Tile, TileError


def test_a_tile_is_the_same_whichever_half_is_written_first():
    assert T.tile("6-3") is T.tile("3-6") is Tile(3, 6) is T.make(6, 3)
    assert str(T.tile("3-6")) == "6-3"


def test_tiles_stay_interned_through_copies_and_pickles():
    t = T.tile("5-2")
    assert copy.copy(t) is t and copy.deepcopy(t) is t and pickle.loads(pickle.dumps(t)) is t


@pytest.mark.parametrize("text", ["63", "6_3", "a-b", "6-", "-3", "", "6-3-1", "123-1"])
def test_malformed_tiles(text):
    with pytest.raises(TileError):
        T.tile(text)


def test_halves_keep_the_writers_order():
    assert T.halves("3-6") == (3, 6)


@pytest.mark.parametrize("name,top,count", [("double-six", 6, 28), ("double-nine", 9, 55),
                                            ("double-twelve", 12, 91)])
def test_standard_sets(name, top, count):
    tiles = T.SETS[name]
    assert len(tiles) == len(set(tiles)) == count
    assert max(t.high for t in tiles) == top


def test_roads_sets_have_the_extra_copies():
    four, three = T.roads_set(4), T.roads_set(3)
    assert sum(four.values()) == 40 and sum(three.values()) == 39
    assert all(four[T.make(n, n)] == 2 for n in range(7))
    for extra in ("1-6", "2-5", "3-4", "2-6", "3-5"):
        assert four[T.tile(extra)] == 2
    assert four[T.tile("1-0")] == 1 and three[T.tile("1-0")] == 0


def test_tile_helpers():
    t = T.tile("5-2")
    assert t.pips == 7 and not t.is_double and t.has(2) and t.other(5) == 2 and t.other(2) == 5
    assert T.pip_total([t, T.tile("6-6")]) == 19
    assert T.format_tiles([T.tile("0-0"), t, T.tile("6-1")]) == "6-1 5-2 0-0"
    assert T.format_tiles([]) == "(none)"


@pytest.mark.parametrize("text", ["6-3\n", "6-3\r\n", "٦-٣", " 6-3"])
def test_only_the_written_form_is_a_tile(text):
    with pytest.raises(T.TileError):
        T.tile(text)


def _one_by_one(texts):
    """What :func:`T.tiles_of` must equal: the tiles, or the first error, of tile() in order."""
    try:
        return [T.tile(x) for x in texts]
    except TileError as e:
        return str(e)


def _at_once(texts):
    try:
        return T.tiles_of(texts)
    except TileError as e:
        return str(e)


@pytest.mark.parametrize("texts", [
    ["6-3", "3-6", "0-0"],
    ["6-3", "63", "a-b"],           # the first bad tile is named, as tile() names it
    ["1-2", "never-seen-1", "2-1"],
    ["4-4", 5, "6-6"],              # not text at all
    ["9-12", "12-9", "18-18"],      # tiles not seen yet in this process
    [],
])
def test_tiles_of_is_tile_for_each(texts):
    assert _at_once(texts) == _one_by_one(texts)
    again = _at_once(texts)  # second time: the seen tiles' fast path
    assert again == _one_by_one(texts)
    if isinstance(again, list):
        assert all(a is b for a, b in zip(again, _one_by_one(texts)))
