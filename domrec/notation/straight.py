"""A typed game that leaves the reader no choice, read straight through.

Most typed games (docs/notation.md, "What may be left out") leave nothing to choose:
each move without a seat is the engine's one player to move, each tile goes where it is
written, and each hand's deal follows from its moves and its ``left`` line.  Such a game is
read here in two replays of each hand instead of the general reading's three
(:mod:`domrec.notation.through_game`: a walk without the deal, the hand replayed with it at
its close through the Game API, then the record validated again):

1. the hand is walked on the engine's open hand (no deal), on a copy of the match as the
   hands before left it, to learn whose each move is; the deal is then worked out
   (:func:`domrec.deals.infer`), as the Game API's ``end_hand`` does;
2. :func:`domrec.validate.validate` replays the hand with that deal, as part of the one
   replay of the whole record that gives the verdict: the validator asks for each hand as
   it reaches it (its ``hands`` argument), so the walk of hand k+1 starts from the match
   the validator left after hand k.

A hand whose seats or ends are left open is read as a set of positions
(:mod:`~domrec.notation.position_set`), whose ends are each closed as the Game API closes a
hand (:func:`_close`, a replay with the deal): once for each of the engine's close keys, and
not at all where they all close alike, the validator's replay of step 2 being then that
hand's one replay with its deal (a refusal there leaves the game to the general reading, as
any problem but a wrong claimed score does).

Each move is held to the record's shape as a JSON record's are (:func:`domrec.shape.check_move`),
and the header is read through :func:`domrec.reader.load_dict`, so the record is the one the
general reading would load.

Anything else gives up (:class:`_NotStraight`), and the general reading reads the game: a
choice (a seat or an end), a move the open hand refuses, a deal that cannot be worked out, a
typed deal (forced passes may be left out), a hand still being played, a score-sheet hand, a
notation error, or a verdict with any problem but a wrong claimed score (the general reading
words those, and places what follows them).  Where this path read hands before the one it
gave up at, and the replay judged them legal, the general reading goes on from that hand, the
hands before taken as read (:class:`ReadBefore`); a notation error outside every hand (in
the header), or in the first hand, sends it to the game's start.  So this path never changes
a verdict: it reaches the general reading's verdict with less work.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import attrs

from domrec import deals, games, shape
from domrec.errors import DealError, InputError, RuleViolation
from domrec.games.base import copy_match
from domrec.notation.position_set import Parting, Unsure, read_choices
from domrec.notation.positions import _offsets
from domrec.notation.readings import _built, choice_words, chosen_note, past_claim
from domrec.notation.through_game import _complete, _envelope, deal_from_parts
from domrec.record import Hand, HandResult, Record
from domrec.validate import Report, validate

if TYPE_CHECKING:
    from domrec.notation.reading import _Reader
    from domrec.notation.tokens import _HandText


#: The first word from an offset on (as ``str.split`` finds it: ``\s`` is ``str.isspace``).
_FIRST_WORD = re.compile(r"\s*(\S+)")


class _NotStraight(Exception):
    """The text leaves a choice, or breaks a rule: the general reading reads it."""


#: game -> its moves' builder through the shape check (one function a game, so that the
#: typed-move cache, keyed by it, keeps its moves).
_CHECKERS: dict[str, Any] = {}


def _checker(game: str) -> Any:
    check = _CHECKERS.get(game)
    if check is None:
        def check(data: dict, game: str = game) -> Any:
            return shape.check_move(data, "", game)

        _CHECKERS[game] = check
    return check


#: game -> id of a typed move's data -> (that data, seat -> the move).  The reader shares one
#: data object among the words typed alike (:mod:`domrec.notation.moves`), so the object itself
#: is the key: the entry holds it, so its id is not reused while the entry lives.  Emptied when
#: full, so that a long archive keeps the words it is reading now.
_BY_WORD: dict[str, dict[int, tuple[dict, dict[str, Any]]]] = {}
_BY_WORD_MAX = 20_000


def _words(game: str) -> dict[int, tuple[dict, dict[str, Any]]]:
    words = _BY_WORD.get(game)
    if words is None or len(words) >= _BY_WORD_MAX:
        words = _BY_WORD[game] = {}
    return words


def _word_moves(words: dict[int, tuple[dict, dict[Any, Any]]], data: dict) -> dict[Any, Any]:
    """The moves built so far from the typed word ``data`` (see :data:`_BY_WORD`)."""
    hit = words.get(id(data))
    if hit is None or hit[0] is not data:
        hit = words[id(data)] = (data, {})
    return hit[1]


def _typed_move(words: dict[int, tuple[dict, dict[Any, Any]]], data: dict, seat: str, check: Any) -> Any:
    """The typed move ``data`` made by ``seat``, built once for each word and seat."""
    built = _word_moves(words, data)
    move = built.get(seat)
    if move is None:
        move = built[seat] = _built(seat, data, _complete, check)
    return move


def _who_moves(state: Any, movers: Any) -> Sequence[str]:
    """The seats that may make a move typed without its seat, as the engine says (the one player
    to move, or, where the engine gives ``movers``, every seat it names); none once the hand is over."""
    if state.over:
        return ()
    if movers is not None:
        return movers()
    seat = state.to_move
    return () if seat is None else (seat,)


@attrs.frozen
class ReadBefore:
    """The hands this path read, and the replay judged legal, before one it could not read
    (:func:`read`): the general reading takes them as read and goes on from that hand.
    ``notes``: how their choices were read, in order (docs/notation.md)."""

    hands: tuple[Hand, ...]
    notes: tuple[str, ...]
    #: Where the hand it could not read has legal readings with different scores, what the
    #: general reading says of that hand (:class:`~domrec.notation.position_set.Parting`), so
    #: that it does not walk the readings to find it.
    parting: Parting | None = None
    #: hand index -> where each move of the record's hand, and its seat, was typed, for the hands
    #: whose forced passes were put back (their deals typed): the typed moves' places otherwise.
    placed: dict[int, tuple[list, Any]] = attrs.Factory(dict)


def read(r: _Reader, source: str) -> tuple[Record, Report] | ReadBefore | None:
    """The record and verdict of the game ``r`` parsed, when its text leaves no choice but those
    :mod:`~domrec.notation.position_set` reads and its verdict is valid or finds only wrong
    claimed scores.  Otherwise the general reading
    (:func:`~domrec.notation.through_game._through_game`) reads it: from the start (``None``),
    or from the first hand this path could not read, the hands before it taken as read
    (:class:`ReadBefore`: the replay judged them legal, and the general reading reads a legal
    hand so, the same readings in the same order)."""
    from domrec.reader import load_dict

    if not r.hands or any(e.hand is None for e in r.errors):
        return None
    # The hands before the first this path cannot read (a table's hand still in play, a hand
    # holding a notation error) are read here all the same: the general reading goes on from
    # that hand, as after a hand it stops at.  A request refused late in a long game, read whole
    # to see whether the rest of its hand settles it, so costs that hand, not the whole game's.
    broken = {e.hand for e in r.errors}
    usable = next((i for i, hand in enumerate(r.hands) if hand.number in broken or not _straight(hand)),
                  len(r.hands))
    if not usable:
        return None
    try:
        template = load_dict(_envelope(r, []))
        match = games.engine(template.game).start(template)
    except (InputError, RuleViolation):
        return None
    hands = _TypedHands(r, template, match, usable)
    try:
        report = validate(template, source, resume=(match, 0), hands=hands)
    except _NotStraight:
        if hands.stopped_at is not None and hands.stopped_at == len(hands.read) and (
                hands.stopped_at or hands.parting is not None):
            return ReadBefore(tuple(hands.read), tuple(hands.notes), hands.parting, hands.placed)
        return None
    if len(hands.read) != len(r.hands) or any(p.kind != "score" for p in report.problems):
        return None
    if hands.notes:  # how the hands' choices were read, before what validation notes (as the general reading)
        report = attrs.evolve(report, note="; ".join((*hands.notes, report.note) if report.note else hands.notes))
    for i, hand in enumerate(r.hands):
        placed = hands.placed.get(i)
        if placed is None:
            r.pos.moves[i] = hand.move_pos
            r.pos.seats[i] = hand.seat_spot
        else:  # (a hand with its deal typed: its forced passes put back, each where the general reading places it)
            r.pos.moves[i], r.pos.seats[i] = placed
        if hand.left_pos is not None:
            r.pos[f"/hands/{i}/deal/hands"] = hand.left_pos
    return attrs.evolve(template, hands=tuple(hands.read)), report


def _straight(hand: _HandText) -> bool:
    """A hand this path can read: moves, closed by a ``left`` or ``end`` line (with its deal
    typed, by an ``end`` line), nothing cut short by a notation error, and a result and comment
    of the record's shape."""
    if hand.cut is not None or hand.left_unread or hand.end_unread or not hand.moves:
        return False
    if hand.left is None and hand.end is None:
        return False
    if hand.deal.get("hands") and hand.left is not None:
        return False
    if hand.end is not None and not shape.usual_hand_result(hand.end):
        return False
    leader = hand.leader
    return (leader is None or (type(leader) is str and 0 < len(leader) <= 32)) and (
        hand.comment is None or type(hand.comment) is str)


class _TypedHands(Sequence[Hand]):
    """The game's hands, each read when the validator's replay reaches it (in order, once)."""

    def __init__(self, r: _Reader, template: Record, match: Any, usable: int) -> None:
        self.r = r
        #: The hands this path may read: those before the first it cannot (:func:`_straight`).
        self.usable = usable
        self.game = template.game
        #: The record's header without hands or claims, as the Game API replays a hand it closes.
        self.bare = attrs.evolve(template, hands=(), result=None, ended=None)
        self.seats = template.seats
        #: The live match of the validator's replay (it changes it as it goes).
        self.match = match
        self.read: list[Hand] = []
        self.check = _checker(self.game)
        #: How the choices of the hands read so far were read (docs/notation.md), in order, and
        #: the note of the hand being read.
        self.notes: list[str] = []
        self._note: str | None = None
        #: The hand this path could not read (its index), the replay having judged those before.
        self.stopped_at: int | None = None
        #: Where that hand's legal readings give different scores: what the general reading
        #: says of it (:class:`~domrec.notation.position_set.Parting`).
        self.parting: Parting | None = None
        self._deal: Any = None
        #: hand index -> where each of its record's moves and their seats were typed, for a hand
        #: whose forced passes were put back (its deal typed): as the general reading places them.
        self.placed: dict[int, tuple[list, Any]] = {}

    def __len__(self) -> int:
        return len(self.r.hands)

    def __getitem__(self, i: Any) -> Any:
        if type(i) is not int or i != len(self.read):
            raise _NotStraight("the replay asks for the hands in order, each once")
        self._note = None
        try:
            if i >= self.usable:
                raise _NotStraight("a hand this path does not read")
            hand = self._hand(self.r.hands[i], i + 1)
        except _NotStraight:
            self.stopped_at = i
            raise
        self.read.append(hand)
        if self._note is not None:
            self.notes.append(self._note)
        return hand

    def __iter__(self) -> Iterator[Hand]:
        for i in range(len(self)):
            yield self[i]

    def _hand(self, typed: _HandText, number: int) -> Hand:
        """Hand ``number`` as typed, its seats and deal worked out on a copy of the match.

        Whatever the walk cannot take (a refusal, a choice, or anything the engine raises on a
        hand that is no longer to be played) is left to the general reading."""
        try:
            return self._walk(typed, number)
        except _NotStraight:
            raise
        except Exception:
            raise _NotStraight from None

    def _walk(self, typed: _HandText, number: int) -> Hand:
        if typed.deal.get("hands"):
            return self._walk_dealt(typed, number)
        self._deal = None  # (the deal of the reading chosen among several, worked out at its close)
        match = copy_match(self.match)
        public = deal_from_parts(typed.deal)
        if public is not None and public.empty:
            public = None
        state = match.start_open_hand(Hand(leader=typed.leader, deal=public, comment=typed.comment))
        check, movers = self.check, getattr(state, "movers", None)
        words = _words(self.game)
        moves: list = []
        append = moves.append
        # (an open hand that copies its state at every move, to put it back after a refusal, may
        # skip that here: a refusal ends this walk and the state is thrown away)
        unsaved = getattr(state, "apply_unsaved", None)
        apply = unsaved or state.apply
        end = typed.end
        result = None if end is None else HandResult(
            scores=dict(end["scores"]) if "scores" in end else None, end=end.get("end"))
        for j, data in enumerate(typed.moves):
            seat = data.get("seat")
            if seat is None:
                who = _who_moves(state, movers)
                if len(who) != 1:
                    if not who:
                        raise _NotStraight
                    state, moves = self._choices(typed, number, j, state, moves, public, result)
                    break
                seat = who[0]
            move = _typed_move(words, data, seat, check)
            try:
                apply(move)
            except RuleViolation as e:
                # A tile typed without ``@`` that fits two open tiles: the text leaves a choice.
                if (unsaved or not e.pointer.endswith("/on") or "on" in data or "play" not in data):
                    raise
                state, moves = self._choices(typed, number, j, state, moves, public, result)
                break
            append(move)
        deal = self._deal
        if deal is None:
            deal = deals.infer(match, state, number, self.seats, moves, typed.left or {}, public)
        return Hand(leader=typed.leader, deal=deal, moves=tuple(moves), result=result, comment=typed.comment)

    def _walk_dealt(self, typed: _HandText, number: int) -> Hand:
        """Hand ``number`` with its deal typed: walked on the engine's own hand with that deal (on a
        copy of the match), each move's seat the one the engine says may move, and each forced
        pass the text leaves out put back where the general reading puts it
        (:func:`~domrec.notation.through_game._insert_passes`): before a typed move that is not
        an exposure, nor a pass without a seat, nor made by the player to move, and at the hand's
        end, while the engine says the player to move can only pass (``only_pass``).  The
        validator's replay of the record is then the hand's one replay with the deal: the general
        reading made three (its walk on the Game API, the Game's close, the record validated)."""
        from domrec.record import Pass

        deal = deal_from_parts(typed.deal)
        match = copy_match(self.match)
        state = match.start_hand(Hand(leader=typed.leader, deal=deal, comment=typed.comment))
        only_pass = getattr(state, "only_pass", None)
        if only_pass is None or state.to_move is None:  # (a free lead: the Game API's first move leads)
            raise _NotStraight
        check, movers, apply = self.check, getattr(state, "movers", None), state.apply
        words = _words(self.game)
        exposures = typed.exposures
        move_pos = typed.move_pos
        moves: list = []
        append = moves.append
        typed_at: list[int | None] = []  # (each move of the record: the typed move it is, None for a pass put back)
        places: list = []
        rounds = 4 * len(self.seats)

        def passes(seat: str | None, data: dict | None, spot: Any) -> None:
            for _ in range(rounds):
                to = state.to_move
                if to is None or state.over:
                    return
                if data is not None and ((seat is None and data.get("pass")) or seat == to):
                    return
                if not only_pass():
                    return
                move = Pass(seat=to)
                apply(move)
                append(move)
                typed_at.append(None)
                places.append(spot if data is not None else (places[-1] if places else 0))

        for j, data in enumerate(typed.moves):
            seat = data.get("seat")
            to = state.to_move
            # (the first of passes' checks made here: most moves are the player to move's own)
            if j not in exposures and to is not None and seat != to and not (seat is None and data.get("pass")) \
                    and not state.over and only_pass():
                passes(seat, data, move_pos[j])
            if seat is None:
                who = _who_moves(state, movers)
                if len(who) != 1:
                    raise _NotStraight
                seat = who[0]
            move = _typed_move(words, data, seat, check)
            apply(move)  # (a refusal, or a tile that fits two ends, is the general reading's)
            append(move)
            typed_at.append(j)
            places.append(move_pos[j])
        passes(None, None, None)
        end = typed.end
        result = None if end is None else HandResult(
            scores=dict(end["scores"]) if "scores" in end else None, end=end.get("end"))
        if len(moves) != len(typed.moves):
            spot = typed.seat_spot
            self.placed[number - 1] = (places, lambda k: None if k >= len(typed_at) or typed_at[k] is None
                                       else spot(typed_at[k]))
        return Hand(leader=typed.leader, deal=deal, moves=tuple(moves), result=result, comment=typed.comment)

    def _choices(self, typed: _HandText, number: int, j: int, state: Any, moves: list, public: Any,
                 result: HandResult | None) -> tuple[Any, list]:
        """Hand ``number`` from its typed move ``j`` on, where the text leaves a choice: its
        readings read as a set of positions (:mod:`domrec.notation.position_set`), each closed
        as the Game API closes a hand (:func:`_close`).  The chosen reading's state and moves;
        its note is kept.  Any verdict but "one or more legal readings, all with the same
        scores" is left to the general reading (:class:`_NotStraight`)."""
        r = self.r
        text, where, offset = r.src.text, r.src.where, _offsets(r.src.text)
        check, words = self.check, _words(self.game)
        before = dict(self.match.totals)

        def build(k: int, seat: str | None, on: str | None) -> Any:
            data = typed.moves[k]
            if seat is None:
                seat = data["seat"]
            if on is None:
                return _typed_move(words, data, seat, check)
            # (the word set on ``on``: kept beside the word's moves, by seat and tile)
            built = _word_moves(words, data)
            move = built.get((seat, on))
            if move is None:
                bare = {key: v for key, v in data.items() if key != "seat"}
                bare["on"] = on
                move = built[seat, on] = _built(seat, bare, _complete, check)
            return move

        dealt: dict[tuple, Any] = {}

        def close(state: Any, moves: list) -> dict[str, int] | None:
            return _close(self.bare, self.match, number, self.seats, state, moves, typed, public, result, dealt)

        claimed = beyond = None
        if result is not None and result.scores:
            claim = result.claimed_scores(before)  # (a side left out of the end line scored 0)

            def claimed(totals: dict[str, int]) -> bool:
                scores = {side: n - before.get(side, 0) for side, n in totals.items()}
                return all(scores.get(side) == n for side, n in claim.items())

            if getattr(state, "least_scores", None) is not None:
                def beyond(st: Any) -> bool:
                    return past_claim(claim, st.least_scores())

        def said(k: int, opt: Any) -> str:
            at = offset(typed.move_pos[k])
            word = _FIRST_WORD.match(text, at)  # (the move as typed: the first word from there on)
            line, col = where(at)
            return f"{choice_words(word[1] if word else '?', typed.moves[k], opt)} at {line}:{col}"

        # The validator's replay of the record closes the chosen reading anyway, and any refusal
        # there leaves the game to the general reading (read): so where every reading closes
        # alike, that replay is its close.  Not for the record's last hand without a result: a
        # replay that leaves it unfinished takes it for a hand still being played.
        replayed = number < len(r.hands) or result is not None
        try:
            chosen = read_choices(typed, j, state, moves, build, close, claimed, said,
                                  lambda count, parted: chosen_note(number, count, parted), replayed, beyond)
        except Unsure:
            raise _NotStraight from None
        if isinstance(chosen, Parting):  # (the general reading words it, told where it stops)
            self.parting = chosen
            raise _NotStraight
        self._note = chosen.note
        if getattr(chosen.state, "piles", None) is None:  # (the deal its close worked out, as _close keys it)
            self._deal = dealt.get((*(m.seat for m in chosen.moves), *map(chosen.state.held_count, self.seats)))
        return chosen.state, chosen.moves


class _Closing:
    """What :func:`_close`'s replay saw: whether the hand finished."""

    def __init__(self) -> None:
        self.finished = False

    def hand_started(self, index: int, hand: Hand, state: Any) -> None:
        pass

    def moved(self, index: int, move: Any, points: int, state: Any) -> None:
        pass

    def hand_finished(self, index: int, outcome: Any, match: Any) -> None:
        self.finished = True


def _close(bare: Record, match: Any, number: int, seats: tuple[str, ...], state: Any, moves: list,
           typed: _HandText, public: Any, result: HandResult | None, dealt: dict[tuple, Any]) -> dict[str, int] | None:
    """Hand ``number``, read as ``moves`` leaving ``state``, closed as the Game API closes it
    (:meth:`~domrec.game.Game.end_hand`): the deal worked out from the moves and ``left``, then
    the hand replayed with it by :func:`~domrec.validate.validate` from ``match`` (the match as
    the hands before left it; ``bare``: the record's header, without claims), any problem but a
    claim's refusing it.  The totals after it, or
    ``None`` where it is refused.  A hand the replay leaves unfinished without a problem (the
    last hand, still being played) is not one this path reads (:class:`_NotStraight`).

    ``dealt`` keeps the deals worked out for the hand's readings so far.  The readings of one
    hand are its typed moves, each made by a seat and set on a tile: the deal follows from who
    made each move and how many tiles each seat still holds (:func:`deals.infer`: which tile
    leaves whose hand is the move's own, typed, and where it was set does not count), so
    readings whose moves were made by the same seats, leaving the same counts, share one (a
    Competitive sheet's readings differ only in where tiles were set)."""
    key = None
    if getattr(state, "piles", None) is None:  # (Domino Roads' piles: the deal is worked out each time)
        key = (*(m.seat for m in moves), *map(state.held_count, seats))
        deal = dealt.get(key, _UNKNOWN)
    else:
        deal = _UNKNOWN
    if deal is _UNKNOWN:
        try:
            deal = deals.infer(match, state, number, seats, moves, typed.left or {}, public)
        except DealError:
            deal = None
        if key is not None:
            dealt[key] = deal
    if deal is None:
        return None
    hand = Hand(leader=typed.leader, deal=deal, moves=tuple(moves), result=result, comment=typed.comment)
    seen = _Closing()
    report = validate(bare, resume=(copy_match(match), number - 1), hands=(None,) * (number - 1) + (hand,),
                      observer=seen)
    if any(p.kind in _REFUSING or p.pointer.endswith(_CLAIMED_END) for p in report.problems):
        # (a reading that ends the hand otherwise than its end line says, "out" where it claims
        # "target", is no reading of it, as the general reading's close with the claim refuses it:
        # two readings may give the same scores and end the hand differently)
        return None
    if not seen.finished:
        raise _NotStraight
    return dict(report.scores)


#: No deal worked out yet for these moves (see :func:`_close`).
_UNKNOWN = object()

#: The kinds of problem with which the Game API refuses to close a hand (its strict rebuild).
_REFUSING = frozenset({"illegal", "deal", "setup", "unfinished"})
#: Where a hand's claimed end is refused (``/hands/N/result/end``).
_CLAIMED_END = "/result/end"
