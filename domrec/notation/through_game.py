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

from typing import TYPE_CHECKING, Any

import attrs

from domrec.notation.positions import _MOVE_POINTER, _field_at, _offsets
from domrec.notation.readings import RULE, HandReading, Outcome, provisional, tiles_checked
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


#: What the hands after a problem are checked for when the rules cannot reach them.
TILES_ONLY = "tiles played twice, not of the set, or also in left"


def _through_game(r: _Reader, read_before: Any = None) -> tuple[dict[str, Any], list[Problem], str | None]:
    """The JSON data of a game read through the Game API: seats from the turn, forced passes
    inserted where the deal is known, deals worked out from ``left``.

    Every problem in one pass: a hand that breaks a rule, or holds a notation error (the
    reader marked where: ``_HandText.cut``), is judged by the rules up to its first problem,
    then only for its tiles (:func:`~domrec.notation.readings.tiles_checked`); the rules' replay
    then goes on with the next hand, the broken hand counted by the scores its ``end`` line
    claims (a score-sheet hand, as the engine counts one).  Where that hand claims no scores,
    the later hands' start (the running totals, who leads) is not known, and they are checked
    for their tiles only.  The data returned is the record as it stood at the first problem.

    ``read_before`` (:class:`~domrec.notation.straight.ReadBefore`): the first hands, read by the
    straight path and judged legal by its replay, taken as read (the Game made from them, their
    notes kept); reading goes on from the next hand, as it would have gone on after reading them."""
    from domrec.game import Game, GameError, Refused
    from domrec.validate import validate

    problems: list[Problem] = []
    rules = r.rules
    g = Game(r.doc["game"], [Player(**p) for p in r.doc_players], variant=rules.get("variant"),
             options=r.options or None, event=r.event or None)
    positions: list[list[int]] = []
    #: Where each move's seat was typed (``None``: not typed), beside ``positions``.
    seat_positions: list[list[int | None]] = []
    notes: list[str] = []
    #: After the first problem: what was judged how, in words (the report's note).
    after: list[str] = []
    #: Hands the rules took to their end: their claims stand checked.
    judged: set[int] = set()
    #: The record as it stood when the first problem was found (the verdict's partial record).
    first: Any = None
    #: Why the hands from here on cannot be replayed (``None``: they are).
    blocked: str | None = None
    unreplayed: list[int] = []
    #: The last hand counted by its claimed scores in place of its play.
    bridged = 0
    text, where = r.src.text, r.src.where
    tile_set: list = []

    def tiles() -> list:
        if not tile_set:
            tile_set.extend(g.tile_set())
        return tile_set

    def place(problem: Problem, pos: int, seat: int | None = None) -> Problem:
        m = _MOVE_POINTER.match(problem.pointer)
        if m is not None:  # at the offending field of the move at pos (its tile, its cell…)
            pos = _field_at(text, pos, problem.pointer[m.end(2):], seat)
        spot = None if m is not None else r.pos.exact(problem.pointer)
        line, col = spot if spot is not None else where(pos)
        return attrs.evolve(problem, line=line, column=col)

    skip = 0
    parting = None
    if read_before is not None:
        parting = read_before.parting
        # The hands the straight path read: the Game made from them (one replay), each move where
        # its word was typed, as reading them here places them, and their notes.
        if read_before.hands:
            g = Game.from_record(attrs.evolve(g.record(), hands=read_before.hands))
        offset = _offsets(text)
        for i, typed in enumerate(r.hands[:len(read_before.hands)]):
            put_back = read_before.placed.get(i)  # (its forced passes put back: each placed as read here)
            spots, seat_spot = (typed.move_pos, typed.seat_spot) if put_back is None else put_back
            positions.append([offset(spot) for spot in spots])
            seat_positions.append([None if (spot := seat_spot(j)) is None else offset(spot)
                                   for j in range(len(spots))])
            judged.add(typed.number)
        notes.extend(read_before.notes)
        skip = len(read_before.hands)
    for hand in r.hands[skip:] if skip else r.hands:
        n = hand.number
        parted, parting = parting, None  # (what the straight path found of the first hand read here)
        hp = f"/hands/{n - 1}"
        here: list[int] = []
        positions.append(here)
        seats_here: list[int | None] = []
        seat_positions.append(seats_here)
        if blocked is not None:
            problems.extend(tiles_checked(hand, 0, tiles(), text, where))
            unreplayed.append(n)
            continue
        known = bool(hand.deal.get("hands"))
        if hand.cut is None and not known and not hand.moves and hand.left is None and (
                hand.end is not None or hand.end_unread):
            # A score-sheet hand: its scores alone.
            if hand.end_unread:
                blocked = f"hand {n}'s scores are not known (its end line could not be read)"
                first = first if first is not None else g.record()
                continue
            try:
                g.add_score_sheet_hand(hand.end.get("scores", {}), hand.end.get("end"), hand.leader, hand.comment)
            except Refused as e:
                problems.append(place(e.problem, hand.end_pos or hand.pos))
                blocked = f"hand {n} cannot be counted"
            except GameError as e:
                problems.append(place(Problem(hp, str(e), "end of game", "illegal", hand=n), hand.pos))
                blocked = f"the game cannot go on past hand {n}"
            else:
                judged.add(n)
                continue
            first = first if first is not None else g.record()
            continue
        closing = hand.cut is None
        reading = hand if closing else attrs.evolve(hand, moves=hand.moves[:hand.cut],
                                                    move_pos=hand.move_pos[:hand.cut], left=None, end=None,
                                                    end_pos=None)
        stop: tuple[_HandText, int, int] | None = None
        hand_cut: int | None = None  # (the whole hand read for its tiles alone: its leader is not known)
        broken = not closing
        started = False
        if hand.cut != 0:
            try:
                g.start_hand(deal_from_parts(hand.deal), hand.leader, hand.comment)
                started = True
            except Refused as e:  # (the deal's part at its own line, the lead at its seat)
                spot = r.pos.dealt(e.problem.pointer)
                problems.append(place(e.problem, hand.pos) if spot is None else
                                attrs.evolve(e.problem, line=spot[0], column=spot[1]))
                broken = True
            except GameError as e:
                problems.append(place(Problem(hp, str(e), "end of game", "illegal", hand=n), hand.pos))
                broken = True
                blocked = f"the game cannot go on past hand {n}"
        search = None
        if started:
            claim = None
            if closing and hand.end is not None and not hand.end_unread:
                claim = HandResult(scores=hand.end.get("scores"), end=hand.end.get("end"))
            search, outcome = _read_hand(g, r, hand, reading, hp, claim, closing, known, place, parted)
            tiles_only = False
            if outcome.problem is not None and search.leader_unknown and (not search.for_now or bridged == n - 1):
                # Nobody knows who leads this hand (hand 1 without its lead draw, a hand after a
                # score-sheet hand whose leader is not known, or one whose leader follows from how
                # a hand counted by its claimed scores was played): each seat is tried as its
                # leader, on the engine.  Only after such a broken hand is a choice among several
                # legal leads made (the verdict is already given there); elsewhere the text is
                # asked which it was, at the hand line.
                # (A hand read for now, at the table, keeps the first legal lead: the recorder asks;
                # so does a hand read only up to a notation error: the error is the question.)
                after_broken = n > 1 and bridged == n - 1
                ask = closing and not after_broken and not search.for_now
                search, outcome, said, tiles_only = _each_leader(g, r, hand, reading, hp, claim, closing, known,
                                                                 place, ask=ask)
                if said is not None:
                    after.append(said)
            if tiles_only:  # (no one leader: the hand is checked for its tiles only)
                if outcome.problem is not None:
                    problems.append(outcome.problem)
                stop, broken, hand_cut = None, True, 0
            else:
                here[:], seats_here[:] = search.here, search.seats_here
                if outcome.note is not None and closing:
                    notes.append(outcome.note)
            # A hand read only up to a notation error: only a move no reading makes legal is a
            # problem (which tile went where may be said by the text after the error).
            if not tiles_only and outcome.problem is not None and (closing or outcome.stop is not None):
                stop = outcome.stop
                problems.append(outcome.problem)
                broken = True
            if not broken:
                judged.add(n)
                if not (hand.left is not None or hand.end is not None or hand.end_unread or g.hand_over
                        or hand is not r.hands[-1]):
                    break  # the last hand, still being played: it stays open
                continue
        # The hand cannot be taken to its end by the rules.
        if first is None:
            first = g.record()
        start = hand.cut if hand_cut is None else hand_cut
        if stop is not None:
            start = stop[1] + 1 if start is None else min(start, stop[1] + 1)
            later = hand.moves[stop[1] + 1:]
            said = rest_of_hand_note(n - 1, stop[2] - 1, len(later), sum(1 for d in later if "score" in d),
                                     hand.end is not None)
            if said and later:
                said += " (only its tiles were: played twice, not of the set, also in left)"
            after.append(said or f"reading stopped in hand {n}")
        elif hand_cut == 0:
            pass
        elif hand.cut is not None and (hand.moves[hand.cut:] or hand.left is not None):
            after.append(f"hand {n} was checked by the rules only up to its first notation error, and after it "
                         f"only for {TILES_ONLY}")
        elif hand.cut is not None:
            pass  # (no move or left line of the hand after its error: the error says it all)
        else:
            after.append(f"reading stopped in hand {n}")
        if start is not None:
            problems.extend(tiles_checked(hand, start, tiles(), text, where, stop[1] if stop is not None else None))
        leader = hand.leader
        if leader is None and g.in_hand and g.moves:
            leader = g.moves[0].seat  # the seat the engine let lead (the first move's)
        if g.in_hand:
            g.forget_hand()
        if hand is r.hands[-1] or blocked is not None:
            continue
        if g.hand_number == n:
            # The broken hand closed on the Game, as the reading the verdict stopped at closed it
            # (readings with different scores): taken back, so that it is counted once, by the
            # scores its end line claims, as said.  (Counted by both, a Horse Race sheet's wrong
            # claim of 51 for 15 made the next hand "the game is over (E 69)".)
            g.reopen()
            g.forget_hand()
        scores = hand.end.get("scores") if hand.end is not None and not hand.end_unread else None
        if not scores:
            why = ("its end line could not be read" if hand.end_unread else
                   "its end line claims none" if hand.end is not None else "it has no end line")
            blocked = f"hand {n}'s scores are not known ({why})"
            continue
        for lead in dict.fromkeys((leader, None)):
            try:
                g.add_score_sheet_hand(scores, hand.end.get("end"), lead, hand.comment)
            except (Refused, GameError):
                continue
            after.append(f"hand {n} was counted by the scores its end line claims")
            bridged = n
            break
        else:
            blocked = f"hand {n}'s claimed scores cannot be counted"

    if unreplayed:
        hands = (f"hand {unreplayed[0]} was" if len(unreplayed) == 1 else
                 f"hands {unreplayed[0]}–{unreplayed[-1]} were")
        after.append(f"{hands} checked only for {TILES_ONLY}: {blocked}, so the rules' replay could not "
                     f"go past it")
    note = "; ".join(notes + after) or None
    if first is not None:
        # Every later hand the rules took to its end: its claimed scores, checked as the record's are.
        full = g.record()
        problems.extend(p for p in validate(full).problems if p.kind == "score" and p.hand in judged)
        record = first
    else:
        record = g.record()
    if r.result_claim:
        record = attrs.evolve(record, result=GameResult(
            scores=r.result_claim.get("scores"),
            winner=r.result_claim["winner"] if "winner" in r.result_claim else GameResult().winner))
    data = {"hands": _plain_hands(unstructure(record)["hands"])}  # plain JSON data, as a .json file gives
    for i, here in enumerate(positions):
        r.pos.moves[i] = here
        r.pos.seats[i] = lambda j, typed=seat_positions[i]: typed[j] if j < len(typed) else None
    data["hands"] = [dict(h) for h in data["hands"]]
    for h, hand in zip(data["hands"], r.hands):
        if hand.left is not None and hand.left_pos is not None:
            r.pos[f"/hands/{hand.number - 1}/deal/hands"] = hand.left_pos
    doc = _envelope(r, data["hands"])
    return doc, problems, note


def _read_hand(g: Any, r: _Reader, hand: _HandText, reading: _HandText, hp: str, claim: HandResult | None,
               closing: bool, known: bool, place: Any, parting: Any = None) -> tuple[HandReading, Any]:
    """Read ``reading`` (the hand, or its moves up to a notation error) on the Game, the hand
    started: its readings tried on the engine, forced passes put back, the hand closed where
    ``closing`` and the text ends it.  The search and its outcome.

    ``parting`` (:class:`~domrec.notation.position_set.Parting`): the straight path found that
    this hand's legal readings give different scores, and what the search would say: the search
    then plays only the reading it would stop at, and words what it was told."""
    text = r.src.text
    offset = _offsets(text)

    made: dict[tuple[int, str | None], _MoveTok] = {}  # (each typed move is asked for once a reading)
    at: dict[int, int] = {}  # typed move -> its offset, whatever end each reading gives it

    def move_tok(j: int, on: str | None) -> _MoveTok:
        mv = made.get((j, on))
        if mv is not None:
            return mv
        pos = at.get(j)
        if pos is None:
            pos = at[j] = offset(reading.move_pos[j])
        d = reading.moves[j]
        seat = d.get("seat")
        if seat is None and on is None:
            data = d  # (only read: a move is built from a copy)
        else:
            data = {k: v for k, v in d.items() if k != "seat"}
            if on is not None:
                data["on"] = on
        mv = made[j, on] = _MoveTok(seat, data, pos, j in reading.exposures)
        return mv

    seats_at: dict[int, int | None] = {}

    def seat_at(j: int) -> int | None:
        try:
            return seats_at[j]
        except KeyError:
            spot = reading.seat_spot(j)
            found = seats_at[j] = None if spot is None else offset(spot)
            return found

    for_now = (provisional.get() and hand is r.hands[-1] and hand.left is None and hand.end is None
               and not hand.end_unread)

    def finishing() -> bool:
        return closing and not for_now and (hand.left is not None or hand.end is not None or hand.end_unread
                                            or g.hand_over or hand is not r.hands[-1])

    search = HandReading(g, reading, hp, finishing, claim, place, move_tok, seat_at, None, _complete,
                         r.src.where, text)
    search.for_now = for_now

    def passes(mv: _MoveTok | None) -> None:
        if not known:
            return
        if mv is None and (g.hand_over or g.to_move is None
                           or (reading.left is None and reading.end is None and not reading.end_unread)):
            return
        _insert_passes(g, mv, search.here)
        search.seats_here.extend([None] * (len(search.here) - len(search.seats_here)))
        search.typed.extend([None] * (len(search.here) - len(search.typed)))

    search.insert_passes = passes
    if parting is not None:
        return search, search.run_parted(parting.path, parting.first, parting.totals)
    return search, search.run()


def _each_leader(g: Any, r: _Reader, hand: _HandText, reading: _HandText, hp: str, claim: HandResult | None,
                 closing: bool, known: bool, place: Any, ask: bool = False) -> tuple[Any, Any, str | None, bool]:
    """A hand whose leader nobody knows and the text does not name (no ``lead SEAT``, no seat on
    its first move): each seat is tried as its leader, on the engine (the rules leave the lead
    free where it is not known; they judge each try).

    * one leader makes the hand legal: the hand as read with it, the Game left after it;
    * several do: with ``ask`` (the hand does not follow a broken hand), the seat is part of
      what happened, and the choice changes who played each tile, the deal and the later hands'
      turns: the outcome is a problem at the hand line asking which seat led, the Game as before
      the hand, and the last value is True (the hand is checked for its tiles only).  After a
      hand counted by its claimed scores (``ask`` false: the verdict is given already), several
      giving the same scores are read with the first;
    * none does: the problem of the reading that got furthest, as for any choice the text
      leaves (docs/notation.md), the Game in that hand;
    * several do, with different scores (or no seat may lead): nothing is judged, the Game as
      before the hand, and the last value is True (the hand is checked for its tiles only).

    Returns the search, its outcome, the note's words (``None``: no note) and that flag."""
    from domrec.game import GameError, Refused

    n = hand.number
    g.forget_hand()
    cp = g.checkpoint()
    legal: list[tuple[str, tuple]] = []
    failed: list[tuple[int, str]] = []
    search = outcome = None
    for seat in g.seats:
        g.restore(cp)
        try:
            g.start_hand(deal_from_parts(hand.deal), seat, hand.comment)
        except (Refused, GameError):
            continue
        before = tuple(sorted(g.totals.items()))
        search, outcome = _read_hand(g, r, hand, reading, hp, claim, closing, known, place)
        if outcome.problem is None:
            legal.append((seat, (before, tuple(sorted(g.totals.items())))))
        elif search.best is not None:
            failed.append((search.best.depth, seat))
    g.restore(cp)
    if ask and len(legal) > 1:
        seats = [seat for seat, _ in legal]
        problem = Problem(f"{hp}/leader", f"whose lead is it? the hand names no leader, and {_and(seats)} could each "
                                          f"have led it by its moves (who played each tile, and who leads the "
                                          f"hands after it, depend on it): write it on the hand line, hand {n} lead "
                                          f"{seats[0]} (or {_and(seats[1:], 'or')})", RULE, "illegal", hand=n)
        return search, Outcome(problem=place(problem, hand.pos)), None, True
    # (The first hand follows no play: its leader is drawn, or held in the deal, and so unsaid.)
    why = f"hand {n} names no leader" + ("" if n == 1 or ask else f", and the play of hand {n - 1} does not settle it")
    if legal and len({scores for _, scores in legal}) == 1:
        chosen = legal[0][0]
        said = f"{why}: read with {chosen} leading, the {'only seat' if len(legal) == 1 else 'first seat'} " \
               f"whose lead makes it legal"
    elif failed and not legal:
        chosen = max(failed, key=lambda f: f[0])[1]  # (max keeps the first seat of the furthest)
        said = f"{why}: no seat's lead makes it legal; the problem given is that of the reading that got furthest"
    else:
        more = ", and more than one would do, with different scores" if legal else ""
        return search, outcome, f"hand {n} was checked only for {TILES_ONLY}: {why}{more}", True
    g.start_hand(deal_from_parts(hand.deal), chosen, hand.comment)
    search, outcome = _read_hand(g, r, hand, reading, hp, claim, closing, known, place)
    return search, outcome, said, False


def _and(words: list[str], last: str = "and") -> str:
    """``E and W``, ``N, E and W`` (or ``E, S or W``)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _plain_hands(hands: list[dict]) -> list[dict]:
    """:func:`_plain` for the hands just unstructured (fresh containers, lists but for a few
    tuples: dice, a bridge's ends), looking into each move's values only one level down."""
    hands = _plain(hands) if type(hands) is tuple else hands
    for hand in hands:
        for key, value in hand.items():
            if key != "moves":
                if type(value) in _CONTAINERS:
                    hand[key] = _plain(value)
                continue
            if type(value) is not list:
                value = hand[key] = _plain(value)
                continue
            for move in value:
                for field, item in move.items():
                    if type(item) in _CONTAINERS:
                        move[field] = _plain(item)
    return hands


def _plain(value: Any) -> Any:
    """The record's data as a ``.json`` file gives it (lists, not tuples; each container new),
    without writing it out as JSON text and parsing it back."""
    kind = type(value)
    if kind is dict:
        return {k: _plain(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_plain(v) if type(v) in _CONTAINERS else v for v in value]
    return value


_CONTAINERS = (dict, list, tuple)


def _complete(data: dict) -> dict:
    """A Broadway ``x,y`` placement made whole once the mover is known: a tile lies along
    the x axis for N and S, along the y axis for E and W (the rules' geometry)."""
    at = data.get("at")
    if type(at) is tuple:
        _, x, y = at
        dx, dy = (1, 0) if data["seat"] in ("N", "S") else (0, 1)
        data = {**data, "at": [[x, y], [x + dx, y + dy]]}  # (the typed data may be shared: not changed)
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
