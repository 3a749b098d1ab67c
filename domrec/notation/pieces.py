"""Pieces of DGN read one at a time, for the recorder (:mod:`domrec.recorder`): a typed move
word (:func:`parse_moves`), one hand line (:func:`parse_hand_line`), a text's header
(:func:`parse_header`).

Each is read by the same :class:`~domrec.notation.reading._Reader` as a whole
game, so a word or line means at the table what it means in a file.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from domrec import shape
from domrec.errors import ShapeError
from domrec.notation.reading import _numbers_read, _Reader
from domrec.notation.tokens import NotationError, _full_tokens, _HandText, check_controls


def _piece_reader(game: str, seats: Sequence[str], text: str) -> _Reader:
    r = _Reader(text, 1)
    r.doc = {"game": game}
    r.seats = list(seats)
    return r


def parse_moves(game: str, seats: Sequence[str], word: str) -> list[tuple[dict, bool]]:
    """The move(s) one typed word holds, as (JSON data without the seat, out of turn by
    nature); :class:`NotationError` if the word is no move of ``game``."""
    r = _piece_reader(game, seats, word)
    r.bare_tiles = True
    with _numbers_read(r.src):
        return [(dict(data), exposure) for data, exposure, _ in r._moves_of(word, 0, None)]


def parse_hand_line(game: str, seats: Sequence[str], line: str) -> dict[str, Any]:
    """One hand line as typed (``hand 3 lead W``, ``deal N …``, ``row …``, ``left W …; S …``,
    ``end out NS 23``) as data: ``number``/``leader``/``comment`` for a hand line, the deal
    part (``hands``, ``row``, ``boneyard``, ``piles``, ``lead_draw``, ``redeals``), ``left``,
    or ``end``/``scores``; any other line's comment too (``comment``: the hand's, as DGN reads it)."""
    r = _piece_reader(game, seats, line)
    with _numbers_read(r.src):
        return _hand_line_data(r, line)


def _hand_line_data(r: _Reader, line: str) -> dict[str, Any]:
    toks = list(_full_tokens(r.src))
    if not toks:
        raise NotationError("an empty line", 1, 1)
    head, args = toks[0], toks[1:]
    kind = head.text.lower()
    if kind == "hand":
        if len(args) >= 1 and args[0].kind == "word" and re.fullmatch(r"[0-9]+", args[0].text):
            prev = _HandText(number=int(args[0].text) - 1, pos=0)
        else:
            prev = None
        hand = r._hand_line(head, args, prev)
        out: dict[str, Any] = {"number": hand.number}
        if hand.leader is not None:
            out["leader"] = hand.leader
        if hand.comment is not None:
            out["comment"] = hand.comment
        return out
    hand = _HandText(number=1, pos=0)
    r._part_line(hand, kind, head, args)
    if kind == "left":
        out = {"left": hand.left or {}}
    elif kind == "end":
        out = dict(hand.end or {})
    else:
        out = dict(hand.deal)
    if hand.comment is not None:  # (a comment on a deal, left or end line is the hand's)
        out["comment"] = hand.comment
    return out


def parse_header(text: str, game: str | None = None) -> dict[str, Any] | None:
    """The header of a DGN text (its tags), as the pieces a new record needs: ``game``,
    ``players`` (seat, name) pairs, ``variant``, ``options``, ``event``; ``None`` when the
    text has no tags (just hands); ``players`` is empty when the tags name none.  ``game``: the game the caller already knows (``domrec
    record competitive`` names it), taken when the tags leave out ``[Game]``; a ``[Game]`` tag
    still says its own, for the caller to compare.  A control character anywhere in the text is
    refused first (:func:`~domrec.notation.tokens.check_controls`): ``splitlines`` would take
    some of them for line breaks."""
    check_controls(text)
    lines = text.splitlines()
    k = 0
    while k < len(lines) and (not lines[k].strip() or lines[k].lstrip().startswith(("[", "{"))):
        k += 1
    head = "\n".join(lines[:k])
    del lines  # a string a line (some 60 bytes each) need not stay while the tags are read
    if "[" not in head:
        return None
    r = _Reader(head + "\n", 1)
    r.players_optional = True  # (tags without players: the caller's seats, as without tags)
    if game is not None:
        r.doc["game"] = game
    try:
        r.parse()
    except NotationError:
        if r.errors:  # (the header's first problem in text order, as below)
            raise r.errors[0] from None
        raise
    if r.errors:  # (a whole game's reading lists such a tag and reads on; a recording starts from a sound header)
        raise r.errors[0]
    rules = {**r.rules, **({"options": dict(r.options)} if r.options else {})}
    if rules and r.doc["game"] in shape.GAME_RULES:  # (another game: the caller refuses it)
        try:  # the variant and options held to the record's shape, said at their tag as a game's reading says them
            shape.check_rules(rules, r.doc["game"])
        except ShapeError as e:
            line, column = r.pos.locate(e.pointer) or (1, 1)
            raise NotationError(e.message, line, column, e.pointer) from None
    return {"game": r.doc["game"], "players": [(p["seat"], p["name"]) for p in r.doc_players],
            "ids": {p["seat"]: p["id"] for p in r.doc_players if "id" in p},
            "variant": r.rules.get("variant"), "options": dict(r.options), "event": dict(r.event),
            "result": dict(r.result_claim), "result_at": r.pos.locate("/result") or (1, 1), "body_line": k + 1,
            # where each rule tag is, for a rule that only the players make wrong (start_tiles for
            # a count the tags do not give) to be said at its tag, as a game's reading says it
            "rules_at": {ptr: r.src.where(at) for ptr, at in r.pos.at.items() if ptr.startswith("/rules/")}}
