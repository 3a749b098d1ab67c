"""Reading one game's DGN text into the record's JSON data, every value with its position.

:class:`_Reader` holds the state of one game being read and walks its tokens:
the header's tags (:mod:`domrec.notation.header`), then the hands, line by
line.  The canonical form's ``SEAT move SEAT move …`` lines take a fast path
(pairs seen before are looked up, not parsed); other move words go to
:mod:`domrec.notation.moves`, a hand's other lines to
:mod:`domrec.notation.parts`.  What it builds (``doc``, the ``_HandText`` of
each hand, positions) becomes a record in :mod:`domrec.notation.through_game`.

It relies on :mod:`domrec.notation.tokens` for the tokens and on
:mod:`domrec.notation.positions` for keeping offsets.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import sys
from typing import Any, Iterator

from domrec.errors import shown
from domrec.lookalikes import plain, said
from domrec.notation.header import _HeaderReader, _tag_value
from domrec.notation.moves import _MOVE_CACHE, _MoveReader
from domrec.notation.parts import _PartReader
from domrec.notation.positions import _Positions, _word_offset
from domrec.notation.tokens import (
    _KEYWORDS, _MOVE, _MOVE_NUMBER, NotationError, _HandText, _line_tokens, _Text, _Token, _tokens, _unescape_comment,
    _without_commas,
)


#: (game, seats) -> (seat, word) -> the move's data with its seat (the canonical "SEAT move"
#: pair): a look-up by the words over _SEATED's objects, shared by every move read alike.
_PAIR_CACHE: dict[tuple[str, tuple[str, ...]], dict[tuple[str, str], dict]] = {}

#: (seat, id of a word's data) -> (that data, the data with the seat): a "SEAT move", however
#: it was read (a canonical pair, a typed seat), made once for each seat and word.
_SEATED: dict[tuple[str, int], tuple[dict, dict]] = {}

#: Notation errors kept for one game at most; past them the rest of its text is not read (a
#: text that is not DGN at all must not give a problem a word).
MAX_ERRORS = 100


class _Reader(_HeaderReader, _PartReader, _MoveReader):
    """Reads one game's text into the record's JSON data, keeping positions."""

    def __init__(self, text: str, first_line: int) -> None:
        self.src = _Text(text, first_line)
        self.pos = _Positions(self.src)
        self.doc: dict[str, Any] = {}
        self.hands: list[_HandText] = []
        self.seats: list[str] = []
        self.result_claim: dict[str, Any] = {}
        #: ``[Ended "time"]``: the game was stopped by the clock (format 1.1's ``ended``).
        self.ended: Any = None
        self.needs_game = False
        self.uses_11 = False
        #: A Broadway tile without its cells is a move (the recorder offers the placements).
        self.bare_tiles = False
        #: The notation errors of the hands, in the order of the text: reading goes on after one
        #: (to the end of its line, then the rest of the game), so a sheet is fixed in one go.
        self.errors: list[NotationError] = []
        #: More than :data:`MAX_ERRORS` notation errors: the rest of the text was not read.
        self.gave_up = False

    def parse(self) -> None:
        toks = _tokens(self.src, keep_going=True)
        k = self._header_part(toks)
        self._hands(toks[k:])

    def _header_part(self, toks: list[_Token]) -> int:
        """Read the header (its tags, comments and the lines that are neither) and give the index
        of the first token of the hands.

        The hands start at the first hand line, or at a line that is a move or another hand
        part (a text missing its ``hand 1``); any other line before it is a header line typed
        wrong.  Each such line, tag not closed or tag that cannot be read is one problem at its
        line and column, and the header is read on after it, so that one typo does not turn the
        tags after it into "tags after the first hand" and their seats into strangers.  A tag
        line missing its ``[`` (or ``]``) is read as the tag it plainly is, besides its problem.
        A tag the rules depend on that cannot be read stops the game once the header is read
        (see :meth:`_header_error`): every problem of the header is told first, in text order."""
        src = self.src
        text = src.text
        n = len(toks)
        k = 0
        header_comments: list[str] = []
        tags: list[tuple[str, Any, bool, int]] = []
        mended: set[int] = set()
        stop = False  # (a tag the rules depend on could not be read: the game is not read past its header)
        stray: list[NotationError] = []  # (lines that are no tag: told only where the header has a tag)

        def unread(e: NotationError, name: str | None) -> None:
            nonlocal stop
            try:
                self._header_error(e, name)
            except NotationError:
                stop = True
                if len(self.errors) < MAX_ERRORS:
                    self.errors.append(e)

        while k < n:
            t = toks[k]
            kind = t.kind
            if kind == "bad":
                k += 1
                # A tag not closed: read as closed where that is a tag, else kept, and the header
                # read on (see _header_error); a comment not closed is kept.
                e = src.error(t.text, t.pos)
                if t.text.startswith("a tag"):
                    tag = _mended_tag(text, t.pos, "]", src)
                    if tag is not None:
                        tags.append(tag)
                        mended.add(t.pos)
                        self._broke(e, None)
                    else:
                        unread(e, _tag_name(text, t.pos))
                else:
                    self._broke(e, None)
                continue
            if kind == "tag":
                k += 1
                try:
                    name, value, quoted = _tag_value(t.text, src, t.pos)
                except NotationError as e:
                    unread(e, _tag_name(text, t.pos))
                    continue
                tags.append((name, value, quoted, t.pos))
                continue
            if kind == "comment":
                k += 1
                header_comments.append(_unescape_comment(t.text[1:-1]))
                continue
            if kind != "word":
                break
            line_end = text.find("\n", t.pos)
            line_end = len(text) if line_end < 0 else line_end
            tag = (_mended_tag(text, t.pos, "[", src) if _TAG_NO_OPEN.match(text, t.pos, line_end) is not None
                   else None)
            hands = tag is None and _starts_hands(text[t.pos:line_end])
            if hands and not _tag_follows(toks, k):
                break
            # A line that is neither a tag nor a hand's: one problem, the rest of the line passed over.
            if tag is not None:
                tags.append(tag)
                mended.add(t.pos)
                written = text[t.pos:line_end].strip()
                fixed = "[" + written + ("" if written.endswith("]") else "]")
                self._broke(src.error(f"this line looks like a tag missing its [: write it as {fixed}"
                                      if written.endswith("]") else
                                      f"this line looks like a tag missing its [ and ]: write it as {fixed}",
                                      t.pos), None)
            elif hands == "moves":  # (moves among the tags: tags follow them)
                e = src.error("this line belongs to a hand, but tags follow it: write it after the tags, under "
                              "its hand line (hand 1)", t.pos)
                stray.append(e)
                self._broke(e, None)
            else:
                e = src.error("this line is not a tag, a hand line or a move: write a tag as [Name \"value\"] "
                              "and a note in braces, {like this}", t.pos)
                stray.append(e)
                self._broke(e, None)
            while k < n and toks[k].pos < line_end:
                k += 1
        if stray and not tags:  # (a text that is no DGN at all: the missing [Game] tag alone is said)
            self.errors = [e for e in self.errors if not any(e is s for s in stray)]
        self.mended = frozenset(mended)
        if stop:
            raise self.errors.pop()  # (the header's problems in text order: the last one stops the game)
        self._header(tags, header_comments)
        return k

    def _hands(self, toks: list[_Token]) -> None:
        src = self.src
        game = self.doc["game"]
        hand: _HandText | None = None
        k = 0
        n = len(toks)
        seats = set(self.seats)
        # The canonical form's "SEAT move" pairs as move data with its seat, by (seat, word):
        # archives repeat them, so each is built once and shared, as the typed words' data are
        # (nothing changes a move's data: a comment copies it first, and Broadway's placement
        # is completed on a copy).  Shared, the straight reading knows each pair's move again.
        # The cache is kept per game and seats, so a pair found there has a seat of this game.
        key = (game, tuple(self.seats))
        pairs = _PAIR_CACHE.get(key) if isinstance(game, str) else {}
        if pairs is None:
            pairs = _PAIR_CACHE[key] = {} if len(_PAIR_CACHE) < 256 else None
            if pairs is None:
                pairs = {}
        pair = pairs.__getitem__
        pending: list[tuple[str, int]] = []  # a seat written before its move
        # Moves typed before any hand line (a text that left out its ``hand 1``): said once, at the
        # first of them, not once a word (a hand's worth of problems for one line forgotten).
        told_no_hand = False
        move_cache = _MOVE_CACHE.get
        seated_cache = _SEATED.get

        def seated(seat: str, data: dict) -> dict:
            """``data`` with its typed seat: one object for each seat and word's data (shared, as
            the words' data are: a comment copies it first)."""
            hit = seated_cache((seat, id(data)))
            if hit is not None and hit[0] is data:
                return hit[1]
            move = {"seat": seat, **data}
            if len(_SEATED) >= 20_000:  # (emptied when full: a long archive keeps its current words)
                _SEATED.clear()
            _SEATED[seat, id(data)] = (data, move)  # (the entry holds ``data``: its id is not reused)
            return move

        def move_word(word: str, at: int) -> None:
            nonlocal told_no_hand
            if hand is None:
                e = src.error(f"expected a tag or the first hand (hand 1), not {shown(word)!r}", at)
                e.quiet, told_no_hand = told_no_hand, True  # (said at the first word alone: _broke)
                raise e
            if hand.end is not None or hand.left is not None:
                raise src.error(f"a move after the hand's {'end' if hand.end is not None else 'left'} line: start "
                                f"the next hand with hand {hand.number + 1}", at)
            if pending:
                if word in seats:
                    seat, where = pending.pop()
                    raise src.error(f"seat {seat} is not followed by a move ({word} is a seat too)", where)
                seat, seat_at = pending.pop()
                for data, exposure, where in self._moves_of(word, at, hand):
                    if exposure:
                        hand.exposures.add(len(hand.moves))
                    hand.seat_pos[len(hand.moves)] = seat_at
                    hand.moves.append(seated(seat, data))
                    hand.move_pos.append(where)
                return
            if word in seats:
                pending.append((word, at))
                return
            if word[-1] == "." and _MOVE_NUMBER.match(word):
                return
            for data, exposure, where in self._moves_of(word, at, hand):
                if exposure:
                    hand.exposures.add(len(hand.moves))
                hand.moves.append(data)  # (shared with the word's cache: a comment copies it first)
                hand.move_pos.append(where)

        def no_pending() -> None:
            if pending:
                seat, at = pending.pop()
                raise src.error(f"seat {seat} is not followed by a move", at)

        def keyword_line(t: _Token, args: list[_Token], low: str) -> None:
            """A hand line or a hand's other line (deal parts, left, end).  A notation error in it
            is kept and the reading goes on at the next line: a hand line that cannot be read still
            starts the hand it should be (its moves are then read for their tiles only); a deal
            part, left or end line that cannot be read is left out of the judgement (see _broke)."""
            nonlocal hand
            try:
                no_pending()
            except NotationError as e:
                self._broke(e, hand)
            if low == "hand":
                try:
                    hand = self._hand_line(t, args, hand)
                except NotationError as e:
                    hand = _HandText(number=hand.number + 1 if hand is not None else 1, pos=t.pos)
                    self.pos[f"/hands/{hand.number - 1}"] = t.pos
                    self._broke(e, hand)
                self.hands.append(hand)
                return
            try:
                if hand is None:
                    raise src.error(f"{t.text} must come after a hand line (hand 1)", t.pos)
                self._part_line(hand, low, t, args)
            except NotationError as e:
                if hand is not None and low == "end":
                    hand.end_unread = True  # the hand still ends here: it is closed, its claim unread
                    self._broke(e, hand, cut=False)
                else:
                    if hand is not None and low == "left":
                        hand.left_unread = True
                    self._broke(e, hand)

        def alike_line(t: _Token, args: list[_Token], keyword: str) -> _HandText | None:
            """A line whose first word is ``keyword`` typed with a look-alike: that refusal, and the
            line read as the keyword's (its hand started, its deal kept), so that the words after it
            are not each refused as no move.  The hand the error is in (a hand line's: its own)."""
            e = src.error(said(t.text) or t.text, t.pos)
            if keyword != "hand":
                self._broke(e, hand)
            keyword_line(t, args, keyword)
            if keyword == "hand":
                self._broke(e, hand)
            return hand

        while k < n and not self.gave_up:
            t = toks[k]
            kind = t.kind
            if kind == "moves":
                line, base = t.text, t.pos
                words = line.split()
                start = 0
                if hand is not None and hand.end is None and hand.left is None and not pending:
                    # The canonical form: "SEAT move SEAT move …" with words seen before.  Each pair
                    # becomes a move at once; its position is worked out only if a problem needs it.
                    moves, spots = hand.moves, hand.move_pos
                    n_words = len(words)
                    if not n_words & 1:
                        # The whole line at once: every pair seen before (in any game).  A seat
                        # not of this game, or a word not met yet, fails the lookup.
                        try:
                            line_moves = list(map(pair, zip(words[::2], words[1::2])))
                        except KeyError:
                            pass
                        else:
                            moves += line_moves
                            spots += zip(itertools.repeat(base), range(1, n_words, 2))
                            k += 1
                            continue
                    while start + 1 < n_words:
                        seat, word = words[start], words[start + 1]
                        move = pairs.get((seat, word))
                        if move is None:
                            if seat not in seats:
                                break
                            hit = _MOVE_CACHE.get((game, word))
                            if hit is None or hit[1]:
                                break
                            move = seated(seat, hit[0])
                            if len(pairs) < 20_000:
                                pairs[seat, word] = move
                        moves.append(move)
                        spots.append((base, start + 1))
                        start += 2
                    if start == n_words:
                        k += 1
                        continue
                # Typed moves without seats: a word read before (in any game) that is a move in turn
                # is taken from the cache here, as move_word would take it, without its calls.
                quick = (hand is not None and hand.end is None and hand.left is None and not self.bare_tiles
                         and type(game) is str)
                if quick and not pending and "," not in line and "." not in line:
                    # The typed form: the rest of the line at once, when every word is such a move
                    # or a seat followed by one (a position, like the canonical form's, is worked
                    # out only if a problem needs it; a seat's is the word before its move's).
                    rest = words[start:] if start else words
                    hits = list(map(move_cache, zip(itertools.repeat(game), rest)))
                    if None not in hits:
                        if not any([hit[1] for hit in hits]) and seats.isdisjoint(rest):
                            hand.moves += [hit[0] for hit in hits]
                            hand.move_pos += zip(itertools.repeat(base), range(start, start + len(rest)))
                            k += 1
                            continue
                    else:
                        line_moves, line_spots = [], []
                        i, n_rest = 0, len(rest)
                        while i < n_rest:
                            hit, word = hits[i], rest[i]
                            if word in seats:
                                i += 1
                                if hit is not None or i == n_rest:
                                    break
                                hit = hits[i]
                                if hit is None or hit[1] or rest[i] in seats:
                                    break
                                line_moves.append(seated(word, hit[0]))
                            elif hit is None or hit[1]:
                                break
                            else:
                                line_moves.append(hit[0])  # (shared: a comment copies it first)
                            line_spots.append((base, start + i))
                            i += 1
                        else:
                            hand.moves += line_moves
                            hand.move_pos += line_spots
                            k += 1
                            continue
                cursor = 0
                find = line.find
                if start:
                    cursor = _word_offset(line, start)
                for word in words[start:]:
                    at = find(word, cursor)
                    cursor = at + len(word)
                    if "," in word:
                        word, at = _without_commas(word, at)
                        if not word:
                            continue
                    if quick and not pending:
                        hit = move_cache((game, word))
                        if hit is not None and not hit[1] and word[-1] != "." and word not in seats:
                            hand.moves.append(hit[0])  # (shared: a comment copies it first)
                            hand.move_pos.append(base + at)
                            continue
                    try:
                        move_word(word, base + at)
                    except NotationError as e:  # the next word is read all the same
                        keyword = _keyword_alike(word) if word is words[0] else None
                        if keyword is not None:  # ("hаnd 2" with a Cyrillic а: one problem, the line read)
                            line_toks = _line_tokens(t.text, t.pos)
                            hand = alike_line(line_toks[0], line_toks[1:], keyword)
                            break
                        self._broke(e, hand, cut=_open(hand), move=_open(hand))
                k += 1
                continue
            if kind == "line":  # a keyword line other than a deal part (hand, end…), read as its words
                line_toks = _line_tokens(t.text, t.pos)
                keyword_line(line_toks[0], line_toks[1:], line_toks[0].text.lower())
                k += 1
                continue
            if kind == "part":
                if hand is None or pending or not self._fast_part(hand, t.text, t.pos):
                    line_toks = _line_tokens(t.text, t.pos)
                    keyword_line(line_toks[0], line_toks[1:], line_toks[0].text.lower())
                k += 1
                continue
            word = t.text
            low = word.lower()
            if kind == "word" and t.first and low in _KEYWORDS:
                line_end = k + 1
                while line_end < n and not toks[line_end].first:
                    line_end += 1
                keyword_line(t, toks[k + 1:line_end], low)
                k = line_end
                continue
            if kind in ("word", "semi") and k + 1 < n and _glued(t, toks[k + 1]) and \
                    not (k and _glued(toks[k - 1], t)):
                run_end = _written_word_end(toks, k)
                semi = next((i for i in range(k, run_end) if toks[i].kind == "semi"), run_end)
                if semi < run_end and not (semi > k and all(toks[i].kind == "semi" for i in range(semi, run_end))
                                           and self._reads_as_moves(toks, k, semi, hand)):
                    # One word as typed (no space in it) split at its ';': one typo, one problem, the
                    # word's pieces not read as moves of their own (each would be a problem too).  A
                    # move with a ';' after it alone (6-4@4-2;) is read, and the ';' said where it is.
                    last = toks[run_end - 1]
                    whole = src.text[t.pos:last.pos + len(last.text)]
                    try:
                        if not _open(hand):
                            move_word(whole, t.pos)  # (says why no move is read here: no hand, or after its end)
                        if pending:
                            pending.pop()  # (the seat typed before the word: the word's, unread with it)
                        raise self._semicolon_in_word(whole, t.pos)
                    except NotationError as e:
                        self._broke(e, hand, cut=_open(hand), move=_open(hand))
                    k = run_end
                    continue
            try:
                if kind == "tag":
                    raise src.error("a tag must come before the first hand; a new game starts after a blank line",
                                    t.pos)
                if kind == "comment":
                    no_pending()
                    body = _unescape_comment(t.text[1:-1])
                    if hand is None:
                        raise src.error("a comment here belongs to no hand: put it in the header or after hand N",
                                        t.pos)
                    if hand.moves:
                        # (a move's data may be shared with the words typed alike: changed on a copy)
                        last = hand.moves[-1] = dict(hand.moves[-1])
                        last["comment"] = (last["comment"] + "\n" + body) if "comment" in last else body
                    else:
                        hand.comment = (hand.comment + "\n" + body) if hand.comment is not None else body
                    self.uses_11 = True
                elif kind == "semi":
                    raise src.error("; separates the seats of a deal or left line, not moves", t.pos)
                elif kind == "bad":  # a tag, comment or quote not closed (the rest of its line passed over)
                    raise src.error(t.text, t.pos)
                else:
                    move_word(word, t.pos)
            except NotationError as e:  # one token: the next is read all the same
                keyword = _keyword_alike(word) if kind == "word" and t.first else None
                if keyword is not None:  # ("hаnd 1" with a Cyrillic а: one problem, the line read)
                    line_end = k + 1
                    while line_end < n and not toks[line_end].first:
                        line_end += 1
                    hand = alike_line(t, toks[k + 1:line_end], keyword)
                    k = line_end
                    continue
                self._broke(e, hand, cut=_open(hand), move=_open(hand) and kind not in ("tag", "comment", "semi", "bad"))
                if kind in ("word", "semi"):  # the rest of the word as typed is the same typo (6-4@4-2;;)
                    k = _written_word_end(toks, k)
                    continue
            k += 1
        try:
            no_pending()
        except NotationError as e:
            self._broke(e, hand)

    def _reads_as_moves(self, toks: list[_Token], k: int, end: int, hand: _HandText | None) -> bool:
        """Whether the words ``toks[k:end]``, typed as one, read as moves (nothing is kept)."""
        if hand is None:
            return False
        word = "".join(t.text for t in toks[k:end])
        try:
            self._moves_of(word, toks[k].pos, hand)
        except NotationError:
            return False
        return True

    def _broke(self, e: NotationError, hand: _HandText | None, cut: bool = True, move: bool = False) -> None:
        """Keep notation error ``e`` and read on.  The hand it is in is judged by the rules only up
        to it (``cut``: its typed moves from here on are read for their tiles alone, since nobody
        knows what the unreadable word was); an ``end`` line's error leaves the moves judged.

        The error is told its hand, and (``move``: a word among the hand's moves) the move it
        stands for, counting the moves as typed: the message then says where in words, as the
        rules' problems do ("19:39: hand 2, move 27: ...")."""
        if e.quiet:  # (said already: moves before any hand line)
            return
        if len(self.errors) >= MAX_ERRORS:
            self.gave_up = True
            return
        if hand is not None:
            e.hand = hand.number
            if move:
                # The word stood for a move as typed, though it is not in ``hand.moves``: counted,
                # so the next error's move number is the typist's count too.
                hand.unread_moves += 1
                e.move = len(hand.moves) + hand.unread_moves
        self.errors.append(e)
        if hand is not None and cut and hand.cut is None:
            hand.cut = len(hand.moves)


def _glued(t: _Token, after: _Token) -> bool:
    """Whether token ``after`` follows ``t`` with nothing between: the two are one word as typed."""
    return after.pos == t.pos + len(t.text) and not after.first


def _written_word_end(toks: list[_Token], k: int) -> int:
    """The index after the last token of the word as typed that ``toks[k]`` starts: the word and
    ``;`` tokens that follow one another with no space or comma between (``6-4@1;1``)."""
    j = k + 1
    while j < len(toks) and toks[j].kind in ("word", "semi") and _glued(toks[j - 1], toks[j]):
        j += 1
    return j


def _keyword_alike(word: str) -> str | None:
    """The keyword (``hand``, ``deal``, ``left``…) ``word`` is, typed with a look-alike character
    (``hаnd`` with a Cyrillic ``а``), or ``None``."""
    meant = plain(word)
    return meant.lower() if meant is not None and meant.lower() in _KEYWORDS else None


def _tag_name(text: str, at: int) -> str | None:
    """The name of the tag whose line holds offset ``at`` (``None``: no ``[Name`` there)."""
    start = text.rfind("\n", 0, at) + 1
    m = _TAG_START.match(text, start)
    return m.group(1) if m is not None else None


_TAG_START = re.compile(r"[ \t]*\[[ \t]*([^\s\"\]]+)")

#: A line that is a tag but for its ``[`` (``E "Bo"]``, ``E "Bo"``): a tag name, then a quoted value
#: closed on the line, then at most a ``]``.
_TAG_NO_OPEN = re.compile(r'[A-Za-z][A-Za-z0-9_.\-]*[ \t]+"(?:[^"\\\n]|\\.)*"[ \t]*\]?[ \t]*(?=\n|\Z)')


def _mended_tag(text: str, start: int, missing: str, src: _Text) -> tuple[str, Any, bool, int] | None:
    """The tag of the line starting at ``start`` read with its ``missing`` bracket put back, as
    (name, value, quoted, where it is), or ``None`` where that does not make one tag of it."""
    end = text.find("\n", start)
    line = text[start:len(text) if end < 0 else end].strip()
    raw = "[" + line + ("" if line.endswith("]") else "]") if missing == "[" else line + "]"
    if raw.count("]") != 1 and missing == "]":
        return None
    try:
        name, value, quoted = _tag_value(raw, src, start)
    except NotationError:
        return None
    if isinstance(value, tuple) and name.lower() != "field":  # (text after the value: not one tag)
        return None
    return name, value, quoted, start


def _starts_hands(line: str) -> str | None:
    """What ``line`` (from its first word) is, where it may be a hand's (where the header ends):
    ``"part"``, a hand line or another hand part (a keyword, typed plainly or with a look-alike);
    ``"moves"``, a move, a move number, or a seat and its move (the text may have left out its
    ``hand 1``); ``None``, neither."""
    words = line.split(None, 2)
    word = words[0]
    if word.lower() in _KEYWORDS or _keyword_alike(word) is not None:
        return "part"
    word = word.strip(",")
    if _SEAT_WORD.match(word) is not None and len(words) > 1:
        word = words[1].strip(",")
    return "moves" if _MOVE.match(word) is not None or _MOVE_NUMBER.match(word) is not None else None


_SEAT_WORD = re.compile(r"(?:[NESW]|P[1-9][0-9]*)\Z")


def _tag_follows(toks: list[_Token], k: int) -> bool:
    """Whether a tag comes after token ``k`` before any hand line: the line of ``toks[k]``, if
    it is not a hand line itself, is then in the header, whatever its first word (``End of the
    notes``, a ``deal`` line typed above the tags), and one problem, not the end of the header."""
    t = toks[k]
    if t.text.lower() == "hand" or _keyword_alike(t.text) == "hand":
        return False
    for t in itertools.islice(toks, k + 1, None):
        if t.kind == "tag":
            return True
        if t.kind in ("line", "part", "moves") or (t.kind == "word" and t.first and (
                t.text.lower() == "hand" or _keyword_alike(t.text) == "hand")):
            return False
    return False


def _open(hand: _HandText | None) -> bool:
    """Whether a word that cannot be read cuts ``hand`` short: not after its ``left`` or ``end``
    line, where the hand is read whole already (the word after it is not a move of it)."""
    return hand is not None and hand.end is None and hand.left is None and not hand.end_unread


@contextlib.contextmanager
def _numbers_read(src: _Text) -> Iterator[None]:
    """Turn Python's refusal to read a number of thousands of digits (a hostile ``hand 1999…``
    or score, anywhere ``int()`` meets a digit run) into a :class:`NotationError` at the number's
    line and column, instead of an internal error."""
    try:
        yield
    except ValueError as e:
        if "integer string conversion" not in str(e):
            raise
        raise _long_number(src) from None


def _long_number(src: _Text) -> NotationError:
    limit = sys.get_int_max_str_digits() or 4300
    m = re.search(rf"[0-9]{{{limit + 1},}}", src.text)
    pos = m.start() if m else 0
    n = len(m.group()) if m else 0
    return src.error(f"a number of {n} digits is too long to be read (at most {limit})", pos)
