"""The lines of a DGN hand other than its moves: ``hand N lead SEAT``, the deal's parts
(``deal``, ``pile``, ``row``, ``boneyard``, ``leaddraw``, ``redeal``), ``left`` and ``end``.

:class:`_PartReader` is that part of the reader
(:class:`~domrec.notation.reading._Reader`, which owns the state it fills in).
Plain deal, pile, row and boneyard lines of well-formed tiles (nearly every
such line of an archive) are read by :meth:`_PartReader._fast_part` without
tokens; anything else goes through :meth:`_PartReader._part_line`, which says
what is wrong.  Every tile keeps its position (:mod:`domrec.notation.positions`).
It relies on :mod:`domrec.notation.tokens` and on the header's reading of
``SIDE points`` pairs (an end line's claim reads like a [Scores] tag).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from domrec.errors import shown
from domrec.notation.header import _score_pairs
from domrec.notation.positions import _word_starts
from domrec.notation.tokens import (
    HAND_ENDS, _TILE_CACHE, _HandText, _Text, _tile_text, _Token, _unescape_comment, leading_zero_words, look_alike,
)

if TYPE_CHECKING:
    from domrec.notation.positions import _Positions


_DIGITS = re.compile(r"[0-9]+")


class _PartReader:
    """Reads a hand's lines other than its moves (a part of
    :class:`~domrec.notation.reading._Reader`, which sets the attributes below)."""

    src: _Text
    pos: _Positions
    seats: list[str]
    uses_11: bool

    def _fast_part(self, hand: _HandText, line: str, at: int) -> bool:
        """A plain deal, pile, row or boneyard line of well-formed tiles, read without tokens.
        Returns False for anything else (then the full reader reads it and says what is wrong)."""
        words = line.split()
        kind = words[0].lower()
        if hand.moves:
            return False
        if kind in ("deal", "pile"):
            if len(words) < 2 or words[1] not in self.seats:
                return False
            seat, texts = words[1], words[2:]
            key = "hands" if kind == "deal" else "piles"
            target = hand.deal.setdefault(key, {})
            if seat in target:
                return False
        else:
            if kind in hand.deal:
                return False
            seat, texts, key, target = None, words[1:], kind, None
        tiles = list(map(_TILE_CACHE.get, texts))  # tiles seen before (the usual case) at C speed
        if None in tiles:
            tiles = [_tile_text(w) for w in texts]
            if None in tiles:
                return texts == ["-"] and self._store_part(hand, kind, key, seat, target, [], line, at)
        return self._store_part(hand, kind, key, seat, target, tiles, line, at)

    def _store_part(self, hand: _HandText, kind: str, key: str, seat: str | None, target: dict | None,
                    tiles: list[str], line: str, at: int) -> bool:
        hp = f"/hands/{hand.number - 1}/deal"
        setpos = self.pos.at.setdefault  # as _Positions.__setitem__: the first position written stays
        if seat is not None:
            target[seat] = tiles
            base = f"{hp}/{key}/{seat}"
            setpos(base, at + line.find(seat, line.find(kind[0]) + len(kind)))
            if kind == "deal":
                setpos(hp, at)
            self.pos.lists[base] = functools.partial(_word_starts, line, at, 2)
        else:
            hand.deal[key] = tiles
            base = f"{hp}/{key}"
            setpos(base, at)
            self.pos.lists[base] = functools.partial(_word_starts, line, at, 1)
        return True

    def _hand_line(self, t: _Token, args: list[_Token], prev: _HandText | None) -> _HandText:
        src = self.src
        expected = (prev.number + 1) if prev is not None else 1
        if not args or args[0].kind != "word" or not _DIGITS.fullmatch(args[0].text):
            raise src.error(f"a hand line is hand N (hands count from 1): expected hand {expected}", t.pos)
        number = int(args[0].text)
        if number != expected:
            raise src.error(f"hands are numbered in order: expected hand {expected}, not hand {number}", args[0].pos)
        hand = _HandText(number=number, pos=t.pos)
        rest = [a for a in args[1:] if a.kind != "comment"]
        for a in args[1:]:
            if a.kind == "comment":
                hand.comment = _unescape_comment(a.text[1:-1])
                self.uses_11 = True
        if rest:
            if rest[0].text.lower() != "lead" or len(rest) != 2:
                raise src.error("after hand N, only lead SEAT may follow on the line", rest[0].pos)
            self._seat(rest[1])
            hand.leader = rest[1].text
            self.pos[f"/hands/{number - 1}/leader"] = rest[1].pos
        self.pos[f"/hands/{number - 1}"] = t.pos
        return hand

    def _seat(self, tok: _Token) -> str:
        if tok.kind != "word" or tok.text not in self.seats:
            raise self.src.error(look_alike(tok.text, self.seats.__contains__) or f"{shown(tok.text)!r} is not a "
                                 f"seat of this game (seats: {' '.join(self.seats)})", tok.pos)
        return tok.text

    def _tiles(self, toks: list[_Token], what: str) -> list[str]:
        out = []
        for tok in toks:
            if tok.kind == "comment":
                continue
            if tok.text == "-" and len(toks) == 1:
                return []
            tile = _tile_text(tok.text)
            if tile is None:
                raise self.src.error(leading_zero_words(tok.text) or f"{shown(tok.text)!r} is not a tile (write tiles "
                                     f"as 6-3) in {what}", tok.pos)
            out.append(tile)
        return out

    def _groups(self, args: list[_Token], what: str) -> list[tuple[_Token, list[_Token]]]:
        """``SEAT tiles…; SEAT tiles…`` as (seat token, tile tokens) pairs."""
        groups: list[list[_Token]] = [[]]
        for a in args:
            if a.kind == "semi":
                groups.append([])
            elif a.kind != "comment":
                groups[-1].append(a)
        out = []
        for g in groups:
            if not g:
                continue
            out.append((g[0], g[1:]))
        return out

    def _part_line(self, hand: _HandText, kind: str, t: _Token, args: list[_Token]) -> None:
        src, pos = self.src, self.pos
        for a in args:  # a comment on a deal, left or end line is the hand's
            if a.kind == "comment":
                body = _unescape_comment(a.text[1:-1])
                hand.comment = (hand.comment + "\n" + body) if hand.comment is not None else body
                self.uses_11 = True
        hp = f"/hands/{hand.number - 1}"
        if hand.moves and kind not in ("left", "end"):
            raise src.error(f"{kind} comes before the hand's moves", t.pos)
        if kind in ("deal", "pile", "left"):
            if kind == "deal":
                target = hand.deal.setdefault("hands", {})
            elif kind == "pile":
                target = hand.deal.setdefault("piles", {})
            else:
                if hand.left is None:
                    hand.left, hand.left_pos = {}, t.pos
                target = hand.left
            groups = self._groups(args, kind)
            if not groups:
                raise src.error(f"{kind} SEAT tiles…: say whose tiles these are", t.pos)
            for seat_tok, tile_toks in groups:
                seat = self._seat(seat_tok)
                if seat in target:
                    raise src.error(f"{kind} gives {seat}'s tiles twice", seat_tok.pos)
                target[seat] = self._tiles(tile_toks, f"{kind} {seat}")
                key = {"deal": "hands", "pile": "piles", "left": "hands"}[kind]
                base = f"{hp}/deal/{key}/{seat}"
                pos[base] = seat_tok.pos
                if kind != "left":
                    pos.lists[base] = [tok.pos for tok in tile_toks]
                else:  # (not the deal's list: the deal worked out orders its tiles otherwise)
                    hand.left_tiles_pos[seat] = [tok.pos for tok in tile_toks]
            if kind == "deal":
                pos[f"{hp}/deal"] = t.pos
        elif kind in ("boneyard", "row"):
            toks = [a for a in args if a.kind != "comment"]
            if kind in hand.deal:
                raise src.error(f"the hand has two {kind} lines", t.pos)
            hand.deal[kind] = self._tiles(toks, kind)
            pos[f"{hp}/deal/{kind}"] = t.pos
            pos.lists[f"{hp}/deal/{kind}"] = [tok.pos for tok in toks]
        elif kind == "leaddraw":
            draw: dict[str, str] = {}
            for seat_tok, tile_toks in self._groups(args, kind):
                seat = self._seat(seat_tok)
                tiles = self._tiles(tile_toks, f"leaddraw {seat}")
                if len(tiles) != 1:
                    raise src.error(f"leaddraw gives one tile per seat: leaddraw N 6-3; E 5-2 …", seat_tok.pos)
                draw[seat] = tiles[0]
                pos[f"{hp}/deal/lead_draw/{seat}"] = tile_toks[0].pos  # (the tile drawn: what a problem names)
            hand.deal["lead_draw"] = draw
        elif kind == "redeal":
            toks = [a for a in args if a.kind != "comment"]
            if not toks:
                raise src.error("redeal SEAT N tiles…; E tiles…; …: who asked, then the abandoned deal", t.pos)
            asker = self._seat(toks[0])
            old: dict[str, list[str]] = {}
            for seat_tok, tile_toks in self._groups(args[args.index(toks[0]) + 1:], kind):
                seat = self._seat(seat_tok)
                old[seat] = self._tiles(tile_toks, f"redeal {seat}")
            redeals = hand.deal.setdefault("redeals", [])
            pos[f"{hp}/deal/redeals/{len(redeals)}"] = t.pos
            redeals.append({"seat": asker, "hands": old})
        elif kind == "end":
            if hand.end is not None:
                raise src.error("the hand has two end lines", t.pos)
            words = [a.text for a in args if a.kind == "word"]
            claim: dict[str, Any] = {}
            if words and words[0] in HAND_ENDS:
                claim["end"] = words.pop(0)
                # A refused way of ending (``end abandoned``) is pointed at its word.
                pos[f"{hp}/result/end"] = next(a for a in args if a.kind == "word").pos
            elif words and len(words) % 2 == 1:
                raise src.error(f"end KIND SIDE points…: {shown(words[0])!r} is not a way a hand ends "
                                f"({', '.join(HAND_ENDS)})", args[0].pos)
            if words:
                claim["scores"] = _score_pairs(src, words, t.pos, "end")
                # A wrong claim is pointed at its number (``NS 397``), not at the line's start.
                numbers = [a for a in args if a.kind == "word"][-len(words):]
                for side, number in zip(numbers[::2], numbers[1::2]):
                    pos[f"{hp}/result/scores/{side.text}"] = number.pos
            hand.end, hand.end_pos = claim, t.pos
            pos[f"{hp}/result"] = t.pos
