"""The move words of DGN: one typed word (``6-4@6-6``, ``+``, ``x2-4,4-4``, ``s3-5@NS1/2``…)
as the JSON data of a move, without its seat.

:class:`_MoveReader` is that part of the reader
(:class:`~domrec.notation.reading._Reader`): the move pattern of
:mod:`domrec.notation.tokens` is matched, then each game's forms are checked
(Broadway cells, Domino Roads roads and bridges, the ``on`` of the line games).
Archives repeat the same words, so each (game, word) is read once and kept in
``_MOVE_CACHE``; the reader's fast path for the canonical form reads that cache
too.  A quoted road name is read as a quoted tag value is
(:func:`~domrec.notation.header._json_text`).
"""

from __future__ import annotations

import re
from typing import Any

from domrec.errors import shown
from domrec.notation.header import _json_text
from domrec.notation.tokens import (
    _BRIDGE_AT, _CELLS, _MOVE, _ROAD_AT, _STARTER_AT, NotationError, _HandText, _MoveTok, _Text, _tile_text,
    leading_zero_words, look_alike,
)


#: The fields of a move's data whose typed form holds a comma: Broadway's cells (``@1,1``) and a
#: capture's tiles (``x2-4,4-4``).
_COMMA_KEYS = frozenset(("at", "capture"))
#: The letter O (either case) standing where a tile's number would: a zero typed as a letter.
_LETTER_O = re.compile(r"(?<![A-Za-z])[Oo](?![A-Za-z])")
#: The letters l and I, or a bar, standing where a tile's number would: a one typed as what is drawn
#: like it (``4-l``).  A letter next to another letter is a word (a seat, a road's name), left alone.
_LIKE_ONE = re.compile(r"(?<![A-Za-z])[lI|](?![A-Za-z])")

#: (game, word) -> (move data, out of turn by nature): archives repeat the same words.
_MOVE_CACHE: dict[tuple[str, str], tuple[dict, bool]] = {}


class _MoveReader:
    """Reads move words (a part of :class:`~domrec.notation.reading._Reader`, which sets the
    attributes below)."""

    src: _Text
    doc: dict[str, Any]
    seats: list[str]
    bare_tiles: bool

    def _moves_of(self, word: str, at: int, hand: _HandText) -> list[tuple[dict, bool, int]]:
        """The move(s) a word holds, as (data, out of turn by nature, offset): usually one;
        ``6-6,6-4`` typed without spaces holds two.  The data is shared: copy it before changing it."""
        key = (self.doc["game"], word) if not self.bare_tiles else ("bare", self.doc["game"], word)
        cached = _MOVE_CACHE.get(key)
        if cached is not None:
            return [(cached[0], cached[1], at)]
        m = _MOVE.match(word)
        if m is not None:
            move = self._move(m, word, at)
            if move is not None:
                if len(_MOVE_CACHE) >= 50_000:  # (emptied when full: a long archive keeps its current words)
                    _MOVE_CACHE.clear()
                _MOVE_CACHE[key] = (move.data, move.exposure)
                return [(move.data, move.exposure, at)]
        if "," in word:  # moves separated by commas without spaces: the longest move first
            parts = word.split(",")
            if "" in parts[1:-1]:  # two commas in a row: one typo, said of the word as typed
                raise self._typo_in_word(word, at, "it has two commas in a row", ",,")
            out: list[tuple[dict, bool, int]] = []
            i, offset = 0, at
            while i < len(parts):
                for j in range(len(parts), i, -1):
                    piece = ",".join(parts[i:j])
                    mm = _MOVE.match(piece)
                    mv = self._move(mm, piece, offset) if mm is not None else None
                    if mv is not None:
                        out.append((mv.data, mv.exposure, offset))
                        offset += len(piece) + 1
                        i = j
                        break
                else:  # (a slip in a word whose commas are its own, 1-6@-l,-1, is said of the whole word)
                    raise self._slip(word, at) or self._not_a_move(parts[i], offset)
            return out
        raise self._not_a_move(word, at)

    def _semicolon_in_word(self, word: str, at: int) -> NotationError:
        """The refusal of a word typed with a ``;`` in it (``6-4@1;1``): one problem for the
        word, in the notation's words, where the tokens either side of the ``;`` were each
        refused, and the ``;`` too, for one slip of the finger."""
        return self._typo_in_word(word, at, "; separates the seats of a deal or left line, not moves", ";")

    def _typo_in_word(self, word: str, at: int, why: str, typed: str) -> NotationError:
        """``word`` refused as one typo (``typed`` where a comma was meant, it seems), and the
        move it reads as with a comma there, when it reads as one move whose comma is notation
        (Broadway's cells, a capture's tiles): "did you mean 6-4@1,1?".  A road's name may hold
        a comma, so ``3-1@1,1`` would read, and is not offered."""
        meant = word.replace(typed, ",")
        m = _MOVE.match(meant) if meant != word else None
        try:
            move = self._move(m, meant, at) if m is not None else None
        except NotationError:
            move = None
        hint = f"; did you mean {shown(meant)}?" if move is not None and _COMMA_KEYS & move.data.keys() else ""
        return self.src.error(f"{shown(word)!r} is not a move of {self.doc['game']}: {why}{hint}", at)

    def _not_a_move(self, word: str, at: int) -> NotationError:
        if re.fullmatch(r"[A-Z]|P[0-9]+", word):
            return self.src.error(f"{word} is not a seat of this game (seats: {' '.join(self.seats)})", at)
        zero = leading_zero_words(word)
        if zero is not None:
            return self.src.error(zero, at)
        alike = look_alike(word, lambda plain: plain in self.seats or _MOVE.match(plain) is not None)
        slip = self._slip(word, at) if alike is None else None
        return slip or self.src.error(alike or f"{shown(word)!r} is not a move of {self.doc['game']} (see "
                                               f"docs/notation.md)", at)

    def _slip(self, word: str, at: int) -> NotationError | None:
        """The refusal of a word that one kind of slip keeps from being one move, with the move
        meant: a letter for a digit (``6-O``, ``4-l``), a full stop for a comma (``4-4@0.-5``);
        ``None`` when mending it makes no move."""
        if _LETTER_O.search(word):  # (the letter O typed for a zero: 6-O)
            meant = _LETTER_O.sub("0", word)
            if self._reads(meant, at):
                return self.src.error(f"{shown(word)!r} is not a move of {self.doc['game']}: it has the letter O where "
                                      f"a zero is meant; did you mean {shown(meant)}?", at)
        if _LIKE_ONE.search(word):  # (a letter l or I, or a bar, typed for a one: 4-l)
            meant = _LIKE_ONE.sub("1", word)
            if self._reads(meant, at):
                typed = _LIKE_ONE.search(word).group(0)
                what = "a bar (|)" if typed == "|" else f"the letter {typed}"
                return self.src.error(f"{shown(word)!r} is not a move of {self.doc['game']}: it has {what} where "
                                      f"a one is meant; did you mean {shown(meant)}?", at)
        if "." in word.rstrip("."):  # (a full stop typed for a cell's comma: 4-4@0.-5)
            meant = word.replace(".", ",")
            move = self._reads(meant, at)
            if move is not None and _COMMA_KEYS & move.data.keys():
                return self.src.error(f"{shown(word)!r} is not a move of {self.doc['game']}: it has a full stop where "
                                      f"a comma is meant; did you mean {shown(meant)}?", at)
        return None

    def _reads(self, meant: str, at: int) -> _MoveTok | None:
        """The one move ``meant`` (a refused word with its slip mended) reads as, or ``None``: a
        refusal offers it ("did you mean …?") only then."""
        m = _MOVE.match(meant)
        try:
            return self._move(m, meant, at) if m is not None and m.end() == len(meant) else None
        except NotationError:
            return None

    def _move(self, m: re.Match, word: str, at: int) -> _MoveTok | None:
        game = self.doc["game"]
        g = m.groupdict()
        data: dict[str, Any]
        exposure = False
        if g["pass"] is not None:
            data = {"pass": True}
        elif g["reuse"] is not None:
            data = {"reuse": True}
        elif g["d1"] is not None:
            data = {"roll": [int(g["d1"]), int(g["d2"])]}
        elif word.startswith("+"):
            data = {"draw": _tile_text(g["draw"]) if g["draw"] else True}
        elif g["capture"] is not None:
            data = {"capture": [_tile_text(x) for x in g["capture"].split(",")]}
        elif g["exposed"] is not None:
            data = {"exposed": _tile_text(g["exposed"])}
            if g["unplayable"]:
                data["unplayable"] = True
            exposure = True
        elif g["tile"] is not None:
            tile = _tile_text(g["tile"])
            kind, where = g["kind"], g["at"]
            if game == "domino-roads":
                data = self._roads(kind, tile, where, at)
                if data is None:
                    return None
            elif game == "broadway":
                if where is None:
                    if self.bare_tiles:  # the recorder lists the placements and lets the player pick
                        return _MoveTok(None, {"play": tile}, at, False)
                    raise self.src.error(f"a Broadway tile goes on the grid: say where, {tile}@x,y", at)
                cells = _CELLS.match(where)
                if cells is None:
                    return None
                c = [int(x) if x is not None else None for x in cells.groups()]
                # x,y alone: the second half lies on the next cell along the mover's axis (known with the seat)
                data = {"play": tile, "at": ("next", c[0], c[1]) if c[2] is None else [[c[0], c[1]], [c[2], c[3]]]}
                if kind == "*":
                    data["penalty"] = True
                    exposure = True
                elif kind is not None:
                    return None
            else:
                if kind is not None:
                    return None
                data = {"play": tile}
                if where is not None:
                    on = _tile_text(where)
                    if on is None:
                        return None
                    data["on"] = on
        else:
            return None
        if g["score"] is not None:
            data["score"] = int(g["score"])
        return _MoveTok(None, data, at, exposure)

    def _roads(self, kind: str | None, tile: str, where: str | None, at: int) -> dict | None:
        if where is None:
            # (the example a road of this table's kind: NS1 with partners, P1-1 at a table of three,
            # where no road is called NS1; the recorder names the mover's own road)
            road = "NS1" if "N" in self.seats or not self.seats else f"{self.seats[0]}-1"
            raise self.src.error(f"a Domino Roads tile goes on a road: say which, {tile}@{road}", at)
        if kind == "s":
            m = _STARTER_AT.match(where)
            if m is None:
                if _ROAD_AT.match(where) is not None:  # the road named, the half it is built from left out
                    a, b = tile.split("-")
                    halves = f"s{tile}@{where}/{a}" + ("" if a == b else f" or s{tile}@{where}/{b}")
                    raise self.src.error(f"a road's starter says the half it is built from: {halves}", at)
                return None
            return {"starter": tile, "road": _road_name(m.group(1), self.src, at), "facing": int(m.group(2))}
        if kind == "b":
            m = _BRIDGE_AT.match(where)
            if m is None:
                if where.count("+") == 1:  # two roads named, not each road's span and half
                    raise self.src.error(f"a bridge says, for each road, the span and the half it joins: "
                                         f"b{tile}@NS1/2/6+NS2/1/4", at)
                return None
            g = m.groups()
            return {"bridge": tile, "join": [
                {"road": _road_name(g[0], self.src, at), "span": int(g[1]), "half": int(g[2])},
                {"road": _road_name(g[3], self.src, at), "span": int(g[4]), "half": int(g[5])}]}
        m = _ROAD_AT.match(where)
        if m is None:
            return None
        if kind == "#":
            return {"block": tile, "road": _road_name(m.group(1), self.src, at)}
        if kind is None:
            return {"span": tile, "road": _road_name(m.group(1), self.src, at)}
        return None


def _road_name(text: str, src: _Text, at: int) -> str:
    if not text.startswith('"'):
        return text
    return _json_text(text, src, at, "a road name")
