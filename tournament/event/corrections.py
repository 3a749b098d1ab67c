"""Correcting one hand of a table's game: a move, a line, a hand's score, or the hand taken back.

A table's game is the requests its phone sent, replayed by the recorder (:mod:`domrec.session`).
A slip found later (a tile recorded for the wrong one, a hand's score typed wrong, a hand
recorded twice) is not mended by replacing the whole game's totals with a score typed by hand:
that would turn a checked record into an unverified one.  Here the game is written out hand by
hand, one line a move (:func:`game_lines`: the hand's line, its public parts, each move with its
seat and every pass written, the tiles ``left`` and the ``end``), the director's change is made to
one line (or one hand), and the whole game is recorded again from those lines, hand by hand,
through the same recorder: every move checked by the engine as it was the first time, the scores
worked out again.  The game stays a verified record.

This module only works out the corrected game (:func:`correct`); the venue logs it as one write of
the table's log and re-enters the result when the game was confirmed
(:meth:`tournament.event.venue.Venue.correct`), so a server killed at any moment finds the
correction whole or not at all.

Without the deal (as tables usually record), each hand is written with the tiles left at its end
(``left``), from which the recorder works the deal out again; a hand whose deal was typed is
written the same way, so a corrected move is judged by what the hand's end says was held.
"""

from __future__ import annotations

import re

from typing import Sequence

import attrs

from domrec.errors import DomrecError
from domrec.notation.typed import drawn_tile, dumps_typed
from domrec.record import Hand, move_to_dict
from domrec.notation.writer import _move_text as _word
from domrec.session import PARTS, RequestRefused, Session

from tournament.errors import TournamentError

#: The longest replacement a correction takes (a hand typed again is well under it).
MAX_TEXT = 4000


class CorrectionRefused(TournamentError):
    """A correction that cannot be made; nothing was changed."""


@attrs.frozen
class Corrected:
    """The game as the correction leaves it: the session replayed, its requests (one a hand),
    and what changed, in words (for the trail)."""

    session: Session
    requests: tuple[str, ...]
    hand: int
    was: str
    now: str


def game_lines(session: Session) -> list[list[str]]:
    """The table's game hand by hand, each hand as the lines that record it again: its ``hand``
    line, its public parts (a row, the piles…), one line a move (seat and word, every pass
    written), then ``left`` and ``end`` where the hand was closed; ``time`` after the last hand of
    a game the clock ended."""
    record = session.record()
    if not record.hands:
        return []
    last = record.hands[-1]
    # A hand still in play with nothing of its deal typed has no deal the writer could start.
    bare = last.deal is None and not last.score_sheet
    shown = record.hands[:-1] if bare else record.hands
    # The hand in play (or over, not yet closed) is written as it stands, without the closing its
    # moves may have reached: until its ``left`` is typed its deal is not known, and a closing
    # written without it is no closing at all (the writer's own replay refuses it).
    in_play = session.game.in_hand and not bare
    try:
        typed = dumps_typed(attrs.evolve(record, result=None, hands=shown), keep_deal=False,
                            in_play=in_play) if shown else ""
    except DomrecError as e:  # a game the writer cannot write: said in one line, never a crash
        raise CorrectionRefused(f"this game cannot be written line by line ({e}); correct its result "
                                f"instead") from None
    blocks = []
    for block in typed.split("\n\n"):
        lines = [x for x in _one_line_comments(block.split("\n")) if x and not x.startswith("[")]
        if lines and lines[0].startswith("hand "):
            blocks.append(lines)
    if bare:
        blocks.append([f"hand {len(record.hands)}" + (f" lead {last.leader}" if last.leader is not None else "")])
    # The last hand's deal as typed, where nothing else in its lines would say what was dealt: a
    # hand in play (its ``left`` not typed yet), or one closed before its first move (no move,
    # and no ``left``: that ends a hand being played).  Without it the hand came back from a
    # correction waiting for its deal, and the deal was lost.
    dealt_only = last.deal is not None and bool(last.deal.hands) and (
        in_play or (not session.game.in_hand and not last.moves and not last.score_sheet))
    if dealt_only:
        typed = dumps_typed(attrs.evolve(record, result=None, ended=None), keep_deal=True, in_play=in_play)
        block = [x for x in typed.rstrip("\n").split("\n\n")[-1].split("\n") if x and not x.startswith("[")]
        # Its deal's parts only (the writer gives such a hand no ``left`` or ``end``).
        blocks[-1] = [x for x in block if x.startswith("{") or x.split()[0] in PARTS]
    out = []
    for lines, hand in zip(blocks, record.hands):
        before: list[str] = []
        after: list[str] = []
        for line in lines:
            if line.startswith("{") or line.split()[0] in PARTS:
                (after if after or _is_end(line) else before).append(line)
        listed = any(x.split()[0] == "boneyard" for x in lines)
        moves = [_comments_apart(f"{m.seat} {_word(_move_data(hand, n, listed), record.game)}")
                 for n, m in enumerate(hand.moves)]
        out.append(before + moves + after)
    if out and not session.game.in_hand and (last.moves or dealt_only) \
            and not any(x.split()[0] == "end" for x in out[-1]):
        # The last hand closed before it was over (kept as it is, its ``end`` typed mid-hand, or
        # before its first move): a text may stop there, but replayed without its ``end`` the hand
        # would be in play again.  (Closed before its first move without its deal, it is listed
        # without: its lines hold no deal that ``end`` could close, and ``end`` right after a hand
        # line is a hand's score.)
        out[-1].append("end")
    left = session.left_typed
    if left is not None and out and not any(x.split()[0] in ("left", "end") for x in out[-1]):
        # A ``left`` line typed for the hand in play, waiting for its end: listed as typed, so that
        # a correction replayed keeps it waiting (it is no part of the record until the hand closes).
        out[-1].append("left " + "; ".join(f"{seat} {' '.join(tiles) or '-'}" for seat, tiles in left.items()))
    if record.ended == "time" and out:
        # The game ended on the clock after its last hand (a header tag in DGN, which is not listed):
        # listed as the table typed it, so that a correction keeps the game over (or, removed,
        # takes the call back).
        out[-1].append("time")
    return out


def _one_line_comments(lines: list[str]) -> list[str]:
    """``lines`` of written DGN with each comment on one line: a comment of several lines (two
    typed for one hand or move are kept as one, a line each) is written as one ``{…}`` a line of
    it, side by side, which the recorder joins again as they were.  (Listed as the writer wrote it,
    its lines apart, the view's line ``{first`` was refused, and so every correction of the game.)"""
    out: list[str] = []
    for line in lines:
        if out and out[-1].count("{") > out[-1].count("}"):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return [_comments_apart(line) for line in out]


def _comments_apart(line: str) -> str:
    """``line`` with each comment of several lines written as one ``{…}`` a line of it."""
    return _COMMENT.sub(lambda m: " ".join("{" + part + "}" for part in m.group(1).split("\n")), line)


_COMMENT = re.compile(r"\{([^{}]*\n[^{}]*)\}")


def _move_data(hand: Hand, n: int, order_listed: bool) -> dict:
    """Move ``n`` of ``hand`` as JSON, for its line.  A draw of the boneyard's next tile (``+``)
    names its tile where the hand's lines leave the boneyard's order out (the writer does once a
    draw of the hand names its own): without the order, ``+`` would say nothing."""
    data = move_to_dict(hand.moves[n])
    if data.get("draw") is True and not order_listed and hand.deal is not None and hand.deal.boneyard:
        data["draw"] = str(drawn_tile(hand, n))
    return data


def _is_end(line: str) -> bool:
    return line.split()[0] in ("left", "end")


def correct(session: Session, hand: int, line: int | None, text: str) -> Corrected:
    """The game of ``session`` with line ``line`` (1-based, as :func:`game_lines` numbers them)
    of hand ``hand`` replaced by ``text`` (one or more lines; empty: the line removed), or, with
    ``line`` ``None``, the whole hand replaced (empty: the hand taken back, the later hands
    numbered on).  Every hand is then recorded again; the first line the engine refuses is
    named, and nothing is changed."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise CorrectionRefused(f"the correction is DGN text of at most {MAX_TEXT} characters")
    hands = game_lines(session)
    if not hands:
        raise CorrectionRefused("this table has recorded nothing yet: there is nothing to correct")
    if not 1 <= hand <= len(hands):
        raise CorrectionRefused(f"there is no hand {hand}: the game has {len(hands)} hand"
                                f"{'s' if len(hands) != 1 else ''}")
    new = [x.strip() for x in text.replace("\r", "").split("\n") if x.strip()]
    before = [list(h) for h in hands]  # (the lines as they are: the corrected game's are compared with them)
    lines = hands[hand - 1]
    if line is None:
        was, hands[hand - 1:hand] = "\n".join(lines), ([new] if new else [])
        if new and not new[0].startswith("hand"):
            raise CorrectionRefused('a hand begins with its "hand" line')
    else:
        if not 1 <= line <= len(lines):
            raise CorrectionRefused(f"hand {hand} has no line {line}: it has {len(lines)}")
        if line == 1 and not (new and new[0].startswith("hand")):
            raise CorrectionRefused(f'the first line of hand {hand} is its "hand" line: to take the hand back, '
                                    f"remove the hand")
        was = lines[line - 1]
        lines[line - 1:line] = new
    now = "\n".join(new)
    if now == was:
        raise CorrectionRefused("the correction changes nothing")
    requests = tuple("\n".join(_numbered(lines, k)) for k, lines in enumerate(hands, 1))
    fresh = replayed(session.template, requests)
    if game_lines(fresh) == before:
        # Lines that record the same game (an ``end`` line given the scores the hand already
        # gives: the lines are listed without claims, so they would look unchanged while the trail
        # said "corrected").
        raise CorrectionRefused(f"the correction changes nothing: hand {hand} records the same moves and scores "
                                f"with it (an end line's scores are checked, and these are the hand's own)")
    return Corrected(fresh, requests, hand, was, now)


def _numbered(lines: list[str], number: int) -> list[str]:
    """A hand's lines with its ``hand`` line numbered as its place now says (after a hand taken
    back, the later ones move up)."""
    words = lines[0].split()
    if words[0] == "hand" and len(words) > 1 and words[1].isdigit():
        words[1] = str(number)
    return [" ".join(words), *lines[1:]]


def replayed(template: object, requests: Sequence[str]) -> Session:
    """A new session recording ``requests`` one after the other, or the refusal of the first
    line that does not record, named by its hand and its text."""
    session = Session(template)  # type: ignore[arg-type]
    for number, text in enumerate(requests, 1):
        try:
            session.take(text)
        except RequestRefused as e:
            r = e.refusal
            bad = text.split("\n")[r.line - 1].strip() if 0 < r.line <= len(text.split("\n")) else ""
            raise CorrectionRefused(f"hand {number}, line {r.line} ({bad}): {r.message}; nothing was "
                                    f"changed") from None
    return session
