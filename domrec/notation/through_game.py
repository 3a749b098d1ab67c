"""From a game's text as read to the record's JSON data: as written, or through the Game API.

* **as written** (:func:`_as_written`), when every hand has its deal and every
  move its seat (the canonical form): the data is what was typed;
* **through the Game API** (:func:`_through_game`, :mod:`domrec.game`), when
  moves leave out their seats or hands their deal: the engine says whose turn
  it is, forced passes are inserted where the deal is known
  (:func:`_insert_passes`), and the deal is worked out from the moves and the
  ``left`` tiles.  A rule broken on the way stops the reading at its move,
  reported at its line:column.

It relies on the reader's structures (:mod:`domrec.notation.reading`,
:mod:`domrec.notation.tokens`), on :mod:`domrec.notation.positions` and on the
Game API (imported when a game is read through it).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs

from domrec.notation.positions import _MOVE_POINTER, _field_at, _offset
from domrec.notation.readings import HandReading, tiles_checked
from domrec.notation.tokens import DGN_VERSION, _HandText, _MoveTok
from domrec.record import GameResult, HandResult, Player, unstructure
from domrec.validate import Problem, rest_of_hand_note

if TYPE_CHECKING:
    from domrec.notation.reading import _Reader
    from domrec.record import Deal


def _needs_game(r: _Reader) -> bool:
    for hand in r.hands:
        sheet = not hand.deal.get("hands") and not hand.moves and hand.end is not None
        if sheet:
            continue
        if not hand.deal.get("hands"):
            return True
        if any("seat" not in d for d in hand.moves):
            return True
        if hand.left is not None:
            return True
    return False


def _as_written(r: _Reader) -> dict[str, Any]:
    """The JSON data of a game whose hands all have deals and moves all have seats."""
    hands = []
    broadway = r.doc["game"] == "broadway"
    for hand in r.hands:
        hp = f"/hands/{hand.number - 1}"
        h: dict[str, Any] = {}
        if hand.leader is not None:
            h["leader"] = hand.leader
        if hand.deal.get("hands") or hand.deal:
            if hand.deal:
                h["deal"] = dict(hand.deal)
        moves = [_complete(d) for d in hand.moves] if broadway else hand.moves
        r.pos.moves[hand.number - 1] = hand.move_pos
        r.pos.seats[hand.number - 1] = hand.seat_spot
        if moves or "deal" in h:
            h["moves"] = moves
        if hand.end is not None:
            h["result"] = hand.end
        if hand.comment is not None:
            h["comment"] = hand.comment
        hands.append(h)
    return _envelope(r, hands)


def _envelope(r: _Reader, hands: list[dict]) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "domrec", "version": r.doc.get("version") or _minimal_version(r, hands),
                           "game": r.doc["game"]}
    rules = dict(r.rules)
    if r.options:
        rules["options"] = r.options
    if rules:
        doc["rules"] = rules
    if r.event:
        doc["event"] = r.event
    doc["players"] = r.doc_players
    doc["hands"] = hands
    if r.ended is not None:
        doc["ended"] = r.ended
    if r.result_claim:
        doc["result"] = r.result_claim
    return doc


def _minimal_version(r: _Reader, hands: list[dict]) -> str:
    if r.uses_11 or any(not (h.get("deal") or {}).get("hands") for h in hands):
        return DGN_VERSION
    return "1.0"


class _Stop(Exception):
    """Reading through the Game stopped at a problem (already recorded)."""


def _through_game(r: _Reader) -> tuple[dict[str, Any], list[Problem], str | None]:
    """The JSON data of a game read through the Game API: seats from the turn, forced passes
    inserted where the deal is known, deals worked out from ``left``."""
    from domrec.game import Game, GameError, Refused

    problems: list[Problem] = []
    rules = r.rules
    g = Game(r.doc["game"], [Player(**p) for p in r.doc_players], variant=rules.get("variant"),
             options=r.options or None, event=r.event or None)
    positions: list[list[int]] = []
    #: Where each move's seat was typed (``None``: not typed), beside ``positions``.
    seat_positions: list[list[int | None]] = []
    #: The typed move behind each move of the record (``None``: a forced pass the reader inserted).
    typed: list[int | None] = []
    #: Where an illegal move stopped reading: (the hand's text, the typed move, its number in the record).
    stop: tuple[_HandText, int, int] | None = None
    note = None

    notes: list[str] = []

    def place(problem: Problem, pos: int, seat: int | None = None) -> Problem:
        m = _MOVE_POINTER.match(problem.pointer)
        if m is not None:  # at the offending field of the move at pos (its tile, its cell…)
            pos = _field_at(r.src.text, pos, problem.pointer[m.end(2):], seat)
        spot = None if m is not None else r.pos.exact(problem.pointer)
        line, col = spot if spot is not None else r.src.where(pos)
        return attrs.evolve(problem, line=line, column=col)

    def refuse(problem: Problem, pos: int, seat: int | None = None) -> None:
        problems.append(place(problem, pos, seat))
        raise _Stop

    def public_deal(hand: _HandText) -> Deal | None:
        return deal_from_parts(hand.deal)

    try:
        for hand in r.hands:
            hp = f"/hands/{hand.number - 1}"
            here: list[int] = []
            positions.append(here)
            seats_here: list[int | None] = []
            seat_positions.append(seats_here)
            typed = []
            known = bool(hand.deal.get("hands"))
            if not known and not hand.moves and hand.end is not None and hand.left is None:
                try:
                    g.add_score_sheet_hand(hand.end.get("scores", {}), hand.end.get("end"), hand.leader,
                                           hand.comment)
                except Refused as e:
                    refuse(e.problem, hand.end_pos or hand.pos)
                except GameError as e:
                    refuse(Problem(hp, str(e), "", "illegal", hand=hand.number), hand.pos)
                continue
            try:
                g.start_hand(public_deal(hand), hand.leader, hand.comment)
            except Refused as e:
                refuse(e.problem, hand.pos)
            except GameError as e:
                refuse(Problem(hp, str(e), "end of game", "illegal", hand=hand.number), hand.pos)
            claim = None
            if hand.end is not None:
                claim = HandResult(scores=hand.end.get("scores"), end=hand.end.get("end"))

            def move_tok(j: int, on: str | None, hand: _HandText = hand) -> _MoveTok:
                d = hand.moves[j]
                data = {k: v for k, v in d.items() if k != "seat"}
                if on is not None:
                    data["on"] = on
                return _MoveTok(d.get("seat"), data, _offset(r.src.text, hand.move_pos[j]), j in hand.exposures)

            def seat_at(j: int, hand: _HandText = hand) -> int | None:
                spot = hand.seat_spot(j)
                return None if spot is None else _offset(r.src.text, spot)

            def finishing(hand: _HandText = hand) -> bool:
                return hand.left is not None or hand.end is not None or g.hand_over or hand is not r.hands[-1]

            search = HandReading(g, hand, hp, finishing, claim, place, move_tok, seat_at, None, _complete,
                                 r.src.where, r.src.text)

            def passes(mv: _MoveTok | None, known: bool = known, hand: _HandText = hand,
                       search: HandReading = search) -> None:
                if not known:
                    return
                if mv is None and (g.hand_over or g.to_move is None or (hand.left is None and hand.end is None)):
                    return
                _insert_passes(g, mv, search.here)
                search.seats_here.extend([None] * (len(search.here) - len(search.seats_here)))
                search.typed.extend([None] * (len(search.here) - len(search.typed)))

            search.insert_passes = passes
            outcome = search.run()
            here[:], seats_here[:], typed[:] = search.here, search.seats_here, search.typed
            if outcome.note is not None:
                notes.append(outcome.note)
            if outcome.problem is not None:
                stop = outcome.stop
                problems.append(outcome.problem)
                raise _Stop
            if not finishing():
                break  # the last hand, still being played: it stays open
            if hand is not r.hands[-1] and g.over:
                pass
    except _Stop:
        stopped_at = len(positions)
        rest = len(r.hands) - stopped_at
        in_hand = None
        if stop is not None:  # an illegal move: the typed moves and claims after it went unchecked
            hand, j, number = stop
            later = hand.moves[j + 1:]
            in_hand = rest_of_hand_note(hand.number - 1, number - 1, len(later),
                                        sum(1 for d in later if "score" in d), hand.end is not None)
            if in_hand and later:
                in_hand += " (only its tiles were: played twice, not of the set, also in left)"
        # Every problem in one pass: what the rest of the text can still be checked for without
        # the rules' replay (a tile played twice, not of the set, also in the hand's left line).
        tile_set = g.tile_set()
        broken = r.hands[stopped_at - 1] if stopped_at else None
        if broken is not None and stop is not None and stop[0] is broken:
            # (a hand refused when it closed was replayed whole: its tiles were checked already)
            problems.extend(tiles_checked(broken, stop[1] + 1, tile_set, r.src.text, r.src.where))
        for later in r.hands[stopped_at:]:
            problems.extend(tiles_checked(later, 0, tile_set, r.src.text, r.src.where))
        if rest > 0:
            note = (f"{in_hand or f'reading stopped in hand {stopped_at}'}; hand{'s' if rest > 1 else ''} "
                    f"{stopped_at + 1}{'–' + str(len(r.hands)) if rest > 1 else ''} "
                    f"{'were' if rest > 1 else 'was'} checked only for tiles played twice, not of the set, "
                    f"or also in left")
        else:
            note = in_hand
    if notes:
        note = "; ".join(notes + ([note] if note else []))
    if r.result_claim:
        g.set_result(GameResult(scores=r.result_claim.get("scores"),
                                winner=r.result_claim["winner"] if "winner" in r.result_claim else
                                GameResult().winner))
    data = json.loads(json.dumps(unstructure(g.record())))  # plain JSON data, as a .json file gives
    for i, here in enumerate(positions):
        r.pos.moves[i] = here
        r.pos.seats[i] = lambda j, typed=seat_positions[i]: typed[j] if j < len(typed) else None
    data["hands"] = [dict(h) for h in data["hands"]]
    for h, hand in zip(data["hands"], r.hands):
        if hand.left is not None and hand.left_pos is not None:
            r.pos[f"/hands/{hand.number - 1}/deal/hands"] = hand.left_pos
    doc = _envelope(r, data["hands"])
    return doc, problems, note


def _complete(data: dict) -> dict:
    """A Broadway ``x,y`` placement made whole once the mover is known: a tile lies along
    the x axis for N and S, along the y axis for E and W (the rules' geometry)."""
    at = data.get("at")
    if type(at) is tuple:
        _, x, y = at
        dx, dy = (1, 0) if data["seat"] in ("N", "S") else (0, 1)
        data["at"] = [[x, y], [x + dx, y + dy]]
    return data


def deal_from_parts(parts: dict) -> "Deal | None":
    """A :class:`~domrec.record.Deal` from the parts of a deal as read (``hands``, ``row``…,
    as JSON data), ``None`` when there are none."""
    from domrec.record import Deal, Redeal

    if not parts:
        return None
    return Deal(hands={s: tuple(v) for s, v in parts.get("hands", {}).items()},
                boneyard=tuple(parts["boneyard"]) if "boneyard" in parts else None,
                row=tuple(parts["row"]) if "row" in parts else None,
                piles={s: tuple(v) for s, v in parts["piles"].items()} if "piles" in parts else None,
                lead_draw=dict(parts["lead_draw"]) if "lead_draw" in parts else None,
                redeals=tuple(Redeal(seat=x["seat"], hands={s: tuple(v) for s, v in x["hands"].items()})
                              for x in parts["redeals"]) if "redeals" in parts else None)


def _insert_passes(g: Any, mv: _MoveTok | None, here: list[int]) -> None:
    """Forced passes the text left out, before ``mv`` (or, with ``None``, at the hand's end):
    only where the deal is known and the player to move can do nothing but pass."""
    from domrec.record import Pass

    for _ in range(4 * len(g.seats)):
        to = g.to_move
        if to is None or g.hand_over:
            return
        if mv is not None:
            if mv.seat is None and mv.data.get("pass"):
                return  # a pass written without a seat is the pass of the player to move
            if mv.seat == to:
                return
        if not g.forced_pass():
            return
        g.push(Pass(seat=to))
        here.append(mv.pos if mv is not None else (here[-1] if here else 0))
