"""Duplicate boards: one hand's deal, the same at every table that plays it.

A *board* is what bridge puts in a tray and dominoes can print on a slip: each seat's tiles,
the boneyard's order where the game draws (Horse Race, Castle Rock), the row (Castle Rock) or
the piles (three-player Domino Roads), and who leads.  Every table that plays board 7 lays
out exactly these tiles, so the luck of the deal is the same for all of them and each result
can be compared with the others (:mod:`tournament.pairing.matchpoints`).

This module states no rule of any game.  A board is dealt by the game's own engine
(``Match.random_hand``, the dealing ``domrec simulate`` uses) from a seeded random stream, and
every board, dealt here or read from a file, is checked by starting it through the engine as
the first hand of a game (``Match.start_hand``): what the engine refuses is not a board.  Two
things of the engine's deal are left out on purpose: Competitive's *lead draw* (a board names
its leader, as a bridge board names its dealer) and *redeals* (the deal played is the one
that stood).  Domino Roads' dice are thrown at the table, so two tables of a Roads board share
the tiles and the piles, not the throws.

Pure values in, values out: reading a file of deals takes its bytes (the caller opens it).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any, Iterable, Sequence

import attrs

from domrec import games, reader, simulate
from domrec import tiles as T
from domrec.errors import DomrecError
from domrec.games.base import effective_options
from domrec.notation import read_games
from domrec.record import Deal, Draw, Hand, HandResult, Player, Record, Rules

from tournament.errors import ResultRefused, UnusableInput


class BoardError(UnusableInput):
    """Boards that cannot be made or read: a game the engine cannot deal, a file of deals that
    is not DGN, JSON records or boards, a deal the engine refuses (exit 2)."""


class NotTheBoardsDeal(ResultRefused):
    """A record whose hand was not dealt as its board: the first tile (or leader, or rule) that
    differs is named, so the table can find the slip it laid out wrongly (exit 1)."""


@attrs.frozen
class Board:
    """One board: a hand's deal for ``game`` under its rules, checked by the engine.

    ``deal.hands`` is keyed by ``seats`` (the engine's seats for that many players: N E S W
    in the partnership games, P1, P2, … otherwise); ``deal.boneyard``, ``deal.row`` and
    ``deal.piles`` are set where the game has them.
    """

    number: int
    game: str
    seats: tuple[str, ...]
    leader: str
    deal: Deal
    variant: str | None = None
    options: dict[str, Any] | None = attrs.field(default=None, hash=False)

    @property
    def rules(self) -> dict[str, Any]:
        """Every rule option's value (the game's defaults under the board's own)."""
        return effective_options(games.engine(self.game), self.variant, self.options)

    def template(self) -> Record:
        """An empty record of the board's game, players and rules: what the engine starts."""
        rules = Rules(variant=self.variant, options=dict(self.options) if self.options else None)
        return Record(game=self.game, rules=rules if (self.variant or self.options) else None,
                      players=tuple(Player(seat=s, name=s) for s in self.seats))

    def hand(self) -> Hand:
        """The board as a record's hand with no moves yet (what a table starts from)."""
        return Hand(leader=self.leader, deal=self.deal)


def _said(e: DomrecError) -> str:
    """domrec's refusal as one line without its JSON Pointer (a board has no record to point into)."""
    message = getattr(e, "message", str(e))
    rule = getattr(e, "rule", None)
    return f"{message} [{rule}]" if rule else message


def _checked(board: Board, where: str = "") -> Board:
    """``board`` once the engine has accepted it as the first hand of a game; the engine's own
    refusal, in one line after ``where`` (default: the board's number), otherwise."""
    engine = games.engine(board.game)
    try:
        match = engine.start(board.template())
        match.start_hand(board.hand())
    except DomrecError as e:
        raise BoardError(f"{where or f'board {board.number}'}: {_said(e)}") from None
    return board


def _plain_deal(deal: Deal) -> Deal:
    """The deal as a board keeps it: no lead draw (the board names its leader), no redeals."""
    return attrs.evolve(deal, lead_draw=None, redeals=None)


def deal_boards(game: str, count: int, seed: int | str, players: int | None = None,
                variant: str | None = None, options: dict[str, Any] | None = None,
                first: int = 1) -> tuple[Board, ...]:
    """``count`` boards numbered from ``first``, dealt by ``game``'s engine.

    Board *k* depends only on the game, ``seed`` and *k* (not on the count, the players'
    names or anything else), so the same command makes the same boards on any machine, and
    asking for more boards keeps the first ones.
    """
    if count < 1:
        raise BoardError(f"make at least one board, not {count}")
    try:
        template = simulate.make_record(game, players, options, variant)
        engine = games.engine(game)
    except DomrecError as e:
        raise BoardError(str(e)) from None
    seats = template.seats
    out = []
    for number in range(first, first + count):
        rng = random.Random(f"domrec boards:{game}:{seed}:{number}")
        try:
            hand = engine.start(template).random_hand(rng)
        except DomrecError as e:
            raise BoardError(f"board {number}: {_said(e)}") from None
        board = Board(number=number, game=game, seats=tuple(seats), leader=str(hand.leader),
                      deal=_plain_deal(hand.deal), variant=variant, options=dict(options) if options else None)
        out.append(_checked(board))
    return tuple(out)


def play(board: Board, seed: int | str) -> Record:
    """The board played out once by the engine's simulated players (``domrec simulate``'s), as a
    record of one finished hand with every claim filled in: a table's result for tests, demos
    and ``tournament simulate``.  The same seed plays the same hand."""
    engine = games.engine(board.game)
    rng = random.Random(f"domrec board play:{board.game}:{board.number}:{seed}")
    match = engine.start(board.template())
    state = match.start_hand(board.hand())
    drive = getattr(state, "drive", None)
    if drive is not None:  # an engine that plays differently when driven (Castle Rock's closing captures)
        drive()
    choose = getattr(engine, "choose", simulate.uniform)
    moves = []
    while not state.over:
        move = choose(state, state.legal_moves(), rng)
        points = state.apply(move)
        moves.append(attrs.evolve(move, score=points) if engine.scores_moves else move)
    outcome = match.finish_hand(state)
    hand = attrs.evolve(board.hand(), moves=tuple(moves), result=HandResult(scores=dict(outcome.scores),
                                                                             end=outcome.end))
    return attrs.evolve(board.template(), hands=(hand,))


def closed_hand(record: Record) -> Record | None:
    """A board's record of its one hand, closed: as it is when the hand has its result (an ``end``
    line), or else with the result its play gives once it is over.  A board is one hand, so a hand
    played to its end is closed, though no ``end`` line was typed: a recorder reading moves from a
    pipe closes a hand that is over at the end of its input, and writes no result for it.  ``None``
    while the hand is still being played (or the record is not one valid hand)."""
    from domrec.validate import validate

    if len(record.hands) != 1:
        return None
    hand = record.hands[0]
    if hand.result is not None:
        return record
    ended: list[Any] = []

    class _Ends:
        def hand_started(self, *_: Any) -> None:
            pass

        def moved(self, *_: Any) -> None:
            pass

        def hand_finished(self, index: int, outcome: Any, match: Any) -> None:
            ended.append(outcome)

    if not validate(record, observer=_Ends()).valid or not ended:
        return None
    result = HandResult(scores=dict(ended[0].scores), end=ended[0].end)
    return attrs.evolve(record, hands=(attrs.evolve(hand, result=result),))


# --- boards from records -------------------------------------------------------------------------


def boards_from_records(records: Iterable[Record], first: int = 1, source: str = "") -> tuple[Board, ...]:
    """A board for every hand that gives its deal, in order, numbered from ``first``.

    The hand's leader is the one it names, or else the one the engine fixes (Broadway's
    double, Competitive's lead draw or 6-6); a hand whose leader is neither is refused.
    """
    out: list[Board] = []
    for r, record in enumerate(records, 1):
        for h, hand in enumerate(record.hands, 1):
            if hand.deal is None or hand.deal.empty:
                continue
            number = first + len(out)
            where = f"{source + ': ' if source else ''}record {r}, hand {h}"
            engine = games.engine(record.game)
            deal = _plain_deal(hand.deal)
            leader = hand.leader
            if leader is None:
                try:
                    state = engine.start(attrs.evolve(record, hands=())).start_hand(Hand(deal=hand.deal))
                except DomrecError as e:
                    raise BoardError(f"{where}: {_said(e)}") from None
                leader = state.to_move
            if leader is None:
                raise BoardError(f"{where} names no leader, and nothing in its deal fixes one: "
                                 f"a board needs its leader (write it: hand {h} lead SEAT)")
            board = Board(number=number, game=record.game, seats=tuple(record.seats), leader=leader, deal=deal,
                          variant=record.rules.variant if record.rules else None,
                          options=dict(record.options) or None)
            out.append(_checked(board, where))
    return tuple(out)


def read_boards(data: bytes | str, source: str = "<deals>", first: int = 1) -> tuple[Board, ...]:
    """Boards from a file's text: DGN (each hand with ``deal`` lines a board), JSON records (one
    record, or JSON Lines of them), or the boards' own JSON (:func:`boards_json`).

    A DGN game may stop at a hand that has its deal and no moves (a file of deals is just
    that): what the reader says of the unplayed hands is not a problem here; a text it cannot
    read is.
    """
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    head = text.lstrip()
    if not head:
        raise BoardError(f"{source}: no deals in it")
    if re.match(r"\[\s*[{\]]", head):  # a JSON list (a DGN text starts "[Game ...")
        try:
            items = json.loads(text)
        except ValueError as e:
            raise BoardError(f"{source}: not a list of boards in JSON: {e}") from None
        if not isinstance(items, list):
            raise BoardError(f"{source}: not a list of boards in JSON")
        made = []
        for item in items:
            try:
                made.append(board_from_json(item))
            except BoardError as e:
                raise BoardError(f"{source}: {e.message}") from None
        return _numbered(tuple(made), source)
    if head.startswith("{"):
        try:
            records = [reader.loads(text)]
        except DomrecError as whole:
            lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
            if len(lines) < 2:
                raise BoardError(f"{source}: {whole}") from None
            records = []
            for n, line in lines:  # JSON Lines: a record a line
                try:
                    records.append(reader.loads(line))
                except DomrecError as e:
                    raise BoardError(f"{source}:{n}: {e}") from None
        return _numbered(boards_from_records(records, first, source), source)
    records = []
    for found in read_games(text, source):
        if found.record is None or not found.complete:
            p = found.report.problems[0]
            where = f":{p.line}" if p.line else ""
            raise BoardError(f"{source}{where}: {p.message}")
        records.append(found.record)
    return _numbered(boards_from_records(records, first, source), source)


def _numbered(boards: tuple[Board, ...], source: str) -> tuple[Board, ...]:
    """``boards`` read from ``source``: some, each numbered 1 or more, no number twice."""
    if not boards:
        raise BoardError(f"{source}: no hand in it gives its deal")
    seen: set[int] = set()
    for b in boards:
        if b.number < 1:
            raise BoardError(f"{source}: board {b.number}: boards are numbered from 1")
        if b.number in seen:
            raise BoardError(f"{source}: board {b.number} is given twice")
        seen.add(b.number)
    return boards


# --- the boards as JSON ----------------------------------------------------------------------------


def board_json(board: Board) -> dict[str, Any]:
    """One board as programs read it: ``{"board", "game", "leader", "hands", "boneyard"}`` (the
    boneyard empty where the game has none), and ``row``, ``piles``, ``variant``, ``options``
    where the board has them."""
    deal = board.deal
    out: dict[str, Any] = {"board": board.number, "game": board.game, "leader": board.leader,
                           "hands": {s: list(deal.hands[s]) for s in board.seats},
                           "boneyard": list(deal.boneyard or ())}
    if deal.row is not None:
        out["row"] = list(deal.row)
    if deal.piles is not None:
        out["piles"] = {s: list(deal.piles[s]) for s in board.seats}
    if board.variant:
        out["variant"] = board.variant
    if board.options:
        out["options"] = dict(board.options)
    return out


def boards_json(boards: Sequence[Board]) -> list[dict[str, Any]]:
    """Every board as :func:`board_json` gives it, in order (``tournament boards --json``)."""
    return [board_json(b) for b in boards]


def board_from_json(item: Any) -> Board:
    """A board written by :func:`board_json`, checked by the engine again."""
    if not isinstance(item, dict):
        raise BoardError(f"a board is a JSON object, not {type(item).__name__}")
    try:
        hands = {str(s): tuple(map(str, ts)) for s, ts in item["hands"].items()}
        piles = item.get("piles")
        deal = Deal(hands=hands, boneyard=tuple(item["boneyard"]) or None if item.get("boneyard") else None,
                    row=tuple(item["row"]) if item.get("row") is not None else None,
                    piles={str(s): tuple(map(str, ts)) for s, ts in piles.items()} if piles is not None else None)
        if isinstance(item["board"], bool) or not isinstance(item["board"], int):
            raise ValueError(f"its number is {json.dumps(item['board'])}, not a whole number")
        board = Board(number=item["board"], game=str(item["game"]), seats=tuple(hands),
                      leader=str(item["leader"]), deal=deal, variant=item.get("variant"),
                      options=item.get("options"))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise BoardError(f"board {item.get('board', '?')}: not a board's JSON ({type(e).__name__}: {e})") from None
    try:
        games.engine(board.game)
    except DomrecError as e:
        raise BoardError(f"board {board.number}: {_said(e)}") from None
    return _checked(board)


# --- a record's hand against its board -------------------------------------------------------------


def _tile(text: str) -> Any:
    try:
        return T.tile(text)
    except (DomrecError, ValueError, TypeError):
        return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def check_hand(board: Board, record: Record, hand: int = 1) -> None:
    """Refuse (:class:`NotTheBoardsDeal`) a record whose ``hand`` (counting from 1) was not
    dealt as ``board``: another game or rules, another number of players, another leader, or
    a tile elsewhere (the first seat, in the board's order, whose tiles differ, and the first
    of its tiles that differs; then the boneyard, the row and the piles, place by place).

    Seats are matched by their order at the table, so a Horse Race table seated N E S W
    plays a board dealt to P1 P2 P3 P4.  Tiles are compared as tiles (``3-6`` is ``6-3``),
    each seat's as a hand (the order a seat's tiles are written in means nothing).
    """
    what = f"hand {hand} is not board {board.number}'s deal"
    if record.game != board.game:
        raise NotTheBoardsDeal(f"{what}: board {board.number} is {board.game}, the record {record.game}")
    if len(record.players) != len(board.seats):
        raise NotTheBoardsDeal(f"{what}: board {board.number} is dealt to {len(board.seats)} players, the record "
                               f"seats {len(record.players)}")
    mine = effective_options(games.engine(record.game), record.variant, record.options)
    if record.variant != (board.variant or "standard") or mine != board.rules:
        differ = sorted(k for k in set(mine) | set(board.rules) if mine.get(k) != board.rules.get(k))
        said = ", ".join(f"{k} {board.rules.get(k)} on the board, {mine.get(k)} in the record" for k in differ)
        raise NotTheBoardsDeal(f"{what}: other rules ({said or 'variant ' + record.variant})")
    if not 1 <= hand <= len(record.hands):
        count = len(record.hands)
        raise NotTheBoardsDeal(f"{what}: the record has only {count} hand{'' if count == 1 else 's'}")
    played = record.hands[hand - 1]
    seat_of = dict(zip(board.seats, record.seats))  # the board's seat -> the record's
    deal = played.deal
    if deal is None or not deal.hands:
        raise NotTheBoardsDeal(f"{what}: the record does not give hand {hand}'s deal (write it, or the tiles "
                               f"left at the end so that it can be worked out)")
    leader = played.leader if played.leader is not None else (played.moves[0].seat if played.moves else None)
    if leader is not None and leader != seat_of[board.leader]:
        raise NotTheBoardsDeal(f"{what}: board {board.number} is led by {seat_of[board.leader]}, the record's "
                               f"hand {hand} by {leader}")
    theirs = {s: Counter(map(_tile, deal.hands.get(seat_of[s], ()))) for s in board.seats}
    for s in board.seats:
        seat = seat_of[s]
        ours = Counter(map(_tile, board.deal.hands[s]))
        if ours == theirs[s]:
            continue
        missing = next((t for t in map(_tile, board.deal.hands[s]) if ours[t] > theirs[s][t]), None)
        extra = next((t for t in map(_tile, deal.hands.get(seat, ())) if theirs[s][t] > ours[t]), None)
        if missing is not None:
            holder = next((seat_of[o] for o in board.seats if o != s and theirs[o][missing] > Counter(
                map(_tile, board.deal.hands[o]))[missing]), None)
            where = f"the record deals it to {holder}" if holder else "the record does not deal it to " + seat
            instead = f" (and {extra} to {seat})" if extra is not None and holder else \
                (f" ({seat} holds {extra} instead)" if extra is not None else "")
            raise NotTheBoardsDeal(f"{what}: board {board.number} deals {missing} to {seat}; {where}{instead}")
        raise NotTheBoardsDeal(f"{what}: the record deals {extra} to {seat}; board {board.number} does not")
    _check_sequence(what, board, ("a boneyard", "the boneyard's"), board.deal.boneyard, _boneyard_of(played),
                    "tile drawn")
    _check_sequence(what, board, ("a row", "the row's"), board.deal.row, deal.row, "tile")
    for s in board.seats if board.deal.piles is not None else ():
        seat = seat_of[s]
        _check_sequence(what, board, (f"a pile for {seat}", f"{seat}'s pile's"), board.deal.piles[s],
                        (deal.piles or {}).get(seat), "tile")


def _boneyard_of(hand: Hand) -> tuple[str, ...] | None:
    """The boneyard's order a hand gives: its deal's, or else the tiles its draws name, in order
    (a record may leave the order out and name each tile drawn)."""
    if hand.deal is not None and hand.deal.boneyard is not None:
        return hand.deal.boneyard
    named = tuple(m.draw for m in hand.moves if type(m) is Draw and isinstance(m.draw, str))
    return named or None


def _check_sequence(what: str, board: Board, name: tuple[str, str], ours: Sequence[str] | None,
                    theirs: Sequence[str] | None, unit: str) -> None:
    """The board's ``ours`` against the record's ``theirs``, place by place; ``name`` is the part
    with its article and as an owner ("a row", "the row's").  A record may give less than the
    whole boneyard (the tiles its draws name): only what it gives is compared."""
    noun, owner = name
    if not ours:
        if theirs:
            raise NotTheBoardsDeal(f"{what}: the record has {noun} ({theirs[0]} first); board {board.number} "
                                   f"has none")
        return
    if theirs is None:
        return
    for i, (a, b) in enumerate(zip(ours, theirs), 1):
        if _tile(a) != _tile(b):
            raise NotTheBoardsDeal(f"{what}: {owner} {_ordinal(i)} {unit} is {a} on board {board.number}, "
                                   f"{b} in the record")
    if len(theirs) > len(ours):
        raise NotTheBoardsDeal(f"{what}: {owner} {_ordinal(len(ours) + 1)} {unit} is {theirs[len(ours)]} in the "
                               f"record; board {board.number} has only {len(ours)}")
