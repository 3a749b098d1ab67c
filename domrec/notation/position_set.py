"""A typed hand's readings read as a set of positions, move by move (issue 40, point 1).

Where a typed hand leaves a choice (a tile without ``@`` that fits two open tiles, a move
that more than one seat may have made), the general reading
(:class:`~domrec.notation.readings.HandReading`) walks every reading on the Game API, one
after another.  Most sheets leave a few such choices a hand and nothing else, and most of
their readings reach the same few positions: this module reads such a hand for the straight
path (:mod:`domrec.notation.straight`) as the set of positions its readings reach, on the
engine's own open hand state, without the Game API:

* after each typed move where a reading chose, only the distinct positions are kept (the
  engine's ``position_key``: what decides the rest of the hand), each with the earliest
  reading that reached it in the fixed order of docs/notation.md, and how many readings
  reached it; after a move where none chose, two positions that have come together (a tile
  laid over the end where they differed) are made one (:func:`_fold`, :data:`FOLD_AT_MOST`);
* a choice is tried by the engine: its yes or no, the tiles it says a tile may go on
  (``places``), the seats it says may move (``movers``); a state is copied (``clone``) only
  for an option that is not the last one of its position;
* the positions reached at the hand's end are closed as the Game API closes a hand (the deal
  worked out from the moves and ``left``, the hand replayed with it by
  :func:`domrec.validate.validate`), in the order of the earliest reading to reach each:
  once for each of the engine's close keys, where it gives them (``close_key``: the
  positions that close alike once the deal is known, with no move to come), and not at all
  where they all close alike and the caller's own replay closes the chosen reading (the
  straight path's validation of the record: then it is the one replay of that hand with its
  deal, and a refusal there leaves the game to the general reading).

So the work grows with the moves and the positions, not with the readings.  The positions
form a graph (each with the positions it came from and those it led to, and the choice made
on the way), so the readings are counted without being listed: how many are legal, and for
each choice of the chosen reading, whether every legal reading makes it.  That is all the
general reading's verdict says when the legal readings all give the same scores: this module
then gives the same record and the same note (:func:`~domrec.notation.readings.chosen_note`).
Where they give different scores and no ``end`` line claims any, the general reading stops at
the first legal reading with other scores than the first's and names the options at the move
where the first legal reading and that one part, and each one's scores: the graph gives them
(:class:`Parting`, :func:`_parting`; the positions after that one are not closed), and the
general reading only plays that reading and words the problem
(:meth:`~domrec.notation.readings.HandReading.run_parted`).
Where the ``end`` line claims the hand's scores and the engine tells the least the hand can
still give each side (``least_scores``), a position past the claim is dropped as the general
reading drops it (:func:`~domrec.notation.readings.past_claim`).
Anything else (no legal reading, claimed scores that leave readings with different scores,
more work than the general reading's :data:`~domrec.notation.readings.LIMIT` could allow,
more positions than :data:`MAX_LEVEL` or :data:`MAX_POSITIONS`, an engine that does not say
where a tile may go) raises :class:`Unsure`, and the general reading reads the hand, so the
verdicts, notes and messages are the general reading's in every case.

Positions are merged by the hand state's key alone: every position of a hand starts from
the same match, which a hand changes only at its close (what it changes before, such as
Competitive's leader of a free lead, its key holds).
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from domrec import tiles as T
from domrec.errors import IllegalMove, RuleViolation
from domrec.notation import readings
from domrec.notation.readings import Option, _option
from domrec.record import Play

#: Positions kept after one move, and in all, at most: a hand with more is left to the general
#: reading, so that the work done here before it is small beside the general reading's own.
#: (A Horse Race sheet's hand whose readings part, each spot pegging its own count, keeps a few
#: dozen: 16 and 128 left about a third of them to the general reading.)
MAX_LEVEL = 64
MAX_POSITIONS = 512

#: Positions looked at for two that have come together after a move where none chose, at most
#: (:func:`_fold`): a fold asks each position's key, and more positions than two seldom fold
#: (Horse Race's, whose keys cost more: folding any number cost its sheets about 6% more
#: instructions, two at most none more, where Competitive's sheets took 21% and 20% fewer than
#: before folding); a move that chooses merges them all in any case.
FOLD_AT_MOST = 2

#: Not worked out yet (a position's totals, or its first legal reading's).
_UNKNOWN: Any = object()


class Unsure(Exception):
    """This hand's verdict is not one this module gives: the general reading reads it."""


class _Position:
    """A position the readings reach: the engine's state there (its own copy), the moves of the
    earliest reading that reached it, that reading's choices, how many readings reach it
    (``count``) and the positions they came from (``came``: (position, choice or ``None``))."""

    __slots__ = ("state", "moves", "path", "count", "came", "went", "legal", "end", "totals")

    def __init__(self, state: Any, moves: list, path: tuple, count: int, came: list) -> None:
        self.state = state
        self.moves = moves
        self.path = path
        self.count = count
        self.came = came
        #: The positions it led to, in the order the readings try them: (choice or ``None``, position).
        self.went: list[tuple[tuple | None, _Position]] = []
        #: Legal readings from here to the hand's close (worked out backwards at the end).
        self.legal = 0
        #: Whether the readings reach it at the hand's end, and its totals closed there (see
        #: :func:`_shut`), worked out when asked.
        self.end = False
        self.totals: Any = _UNKNOWN


class Chosen:
    """What :func:`read_choices` found: the chosen reading's state and moves, and its note."""

    __slots__ = ("state", "moves", "note")

    def __init__(self, state: Any, moves: list, note: str | None) -> None:
        self.state = state
        self.moves = moves
        self.note = note


@attrs.frozen
class Parting:
    """What :func:`read_choices` found where the legal readings give different scores and no
    ``end`` line claims any: what the general reading says and where it stops.

    The general reading walks the readings in the fixed order and stops at the first legal one
    whose scores are not the first legal one's; its problem names the typed moves where those
    two readings choose differently, and each one's scores.  ``path``: the choices of the
    reading it stopped at, whose moves and close the Game then holds (the record up to that
    problem is taken from it); ``first``: the first legal reading's choices; ``totals``: the
    totals of the first legal reading, then of the one it stopped at."""

    path: tuple[tuple[int, Option], ...]
    first: tuple[tuple[int, Option], ...]
    totals: tuple[dict[str, int], dict[str, int]]


def read_choices(typed: Any, start: int, state: Any, moves: list, build: Callable[[int, str | None, str | None], Any],
                 close: Callable[[Any, list], dict[str, int] | None], claimed: Callable[[dict[str, int]], bool] | None,
                 words: Callable[[int, Option], str], note: Callable[[int, list[str]], str | None],
                 replayed: bool = False, beyond: Callable[[Any], bool] | None = None) -> Chosen | Parting:
    """Read typed hand ``typed`` from its move ``start``, where the one reading so far left
    ``state`` (the engine's open hand, as the engine left it on refusing move ``start``: a
    choice) after ``moves``.

    ``build(j, seat, on)``: typed move ``j`` made by ``seat`` (``None``: the seat typed), set
    on ``on``; ``close(state, moves)``: the totals once the hand is closed so, ``None`` if the
    rules refuse it; ``claimed(totals)``: whether they give the scores the ``end`` line claims
    (``None``: it claims none); ``words(j, option)``: a choice in words, with its place;
    ``note(count, parted)``: the note for ``count`` legal readings parting at ``parted``.
    ``replayed``: the caller replays the chosen reading with its deal anyway, and gives the hand
    to the general reading if the rules refuse it; then, where the engine says every position
    the readings end at closes alike (its ``close_key``), or every one after those refused,
    none of those is closed here (the first is chosen as if its close were accepted: were it
    refused, so would every other be, and no reading would be legal).
    ``beyond(state)``: whether the hand's points so far already pass the scores the ``end`` line
    claims (``None``: the engine cannot tell, or no scores are claimed).  Such a position is
    dropped, as the general reading drops it: no reading from it can give the claimed scores.
    Where a position was dropped and no reading left gives them, the general reading reads the
    hand again with every reading (:meth:`~domrec.notation.readings.HandReading.run`), so its
    verdict is the one it gave before dropping any.

    Raises :class:`Unsure` where the general reading is to read the hand."""
    if not getattr(state, "refusal_keeps_state", False) or getattr(state, "places", None) is None \
            or getattr(state, "position_key", None) is None:
        raise Unsure("the engine does not say where a tile may go, or changes its state on a refusal")
    root = _Position(state, moves, (), 1, [])
    made: list[_Position] = [root]  # (every position, each after those it came from)
    level = [root]
    #: What the general reading could count toward :data:`LIMIT` at most: each option tried at
    #: a choice by each reading that reaches it, and each reading that reaches the end.
    work = 0  # (compared with readings.LIMIT as it is now: a caller may set it)
    dropped: list[_Position] = []  # (positions past the claimed scores: see ``beyond``)
    for j in range(start, len(typed.moves)):
        data = typed.moves[j]
        typed_seat = data.get("seat")
        # (a tile typed without ``@``: a refusal for fitting two open tiles is a choice)
        bare = "on" not in data and "play" in data
        reached: list[tuple[_Position, tuple | None, Any, list]] = []
        chose = False
        by_seat: dict[str | None, Any] = {}  # (this move made by each seat, as the positions ask)
        for p in level:
            st = p.state
            if typed_seat is not None:
                seat, opt_seat = typed_seat, None  # (the option of a typed seat names none)
            else:
                who = _movers(st)
                if len(who) != 1:
                    if not who:
                        continue  # (nobody may move: this reading fails here)
                    queue = [_option(s) for s in who]
                    work += p.count * len(queue)
                    chose = True
                    work += _branch(p, j, queue, data, bare, build, reached, beyond, dropped)
                    continue
                seat = opt_seat = who[0]
            move = by_seat.get(seat)
            if move is None:
                move = by_seat[seat] = build(j, seat, None)
            try:
                st.apply(move)
            except RuleViolation as e:
                if not (bare and isinstance(e, IllegalMove) and e.pointer.endswith("/on")):
                    continue  # (refused: this reading fails here)
                queue, tried = _places(st, p.moves, data, opt_seat)
                work += p.count * tried
                chose = True
                work += _branch(p, j, queue, data, bare, build, reached, beyond, dropped)
                continue
            if beyond is not None and beyond(st):
                dropped.append(p)
                continue
            moves_p = p.moves
            moves_p.append(move)
            reached.append((p, None, st, moves_p))
        if work > readings.LIMIT:
            raise Unsure("more positions than the general reading may read")
        if not reached:
            raise Unsure("no reading is legal")
        if chose:
            level = _merge(reached, made)
        else:
            level = [p for p, _, _, _ in reached]
            if 1 < len(level) <= FOLD_AT_MOST:
                level = _fold(level, made)
        if len(level) > MAX_LEVEL or len(made) > MAX_POSITIONS:
            raise Unsure("more positions than this reading keeps")
    for p in level:
        work += p.count
        p.end = True
    if work > readings.LIMIT:
        raise Unsure("more positions than the general reading may read")
    # Each position's close, in the order of the readings (of the earliest to reach each).  Where
    # no ``end`` line claims scores, the first legal one with other scores than the first's is
    # where the general reading stops (:func:`_parting`): the positions after it are not closed.
    # A claim is checked against every reading.  Positions the engine says close alike (its
    # ``close_key``) are closed once.  Where the caller's own replay closes the chosen reading
    # (``replayed``) and, no position before being legal, the rest all close alike, they are
    # not closed here: the first of them is the chosen reading, and its replay there judges
    # them all (were it refused, no reading would be legal).
    if dropped:  # (every end is closed and compared with the claim: see below)
        replayed = False
    ends: list[tuple[_Position, dict[str, int] | None]] = []
    alike_on = len(level)  # (the positions from here on all close alike: none, where no key is given)
    if getattr(state, "close_key", None) is not None:
        keys = [p.state.close_key() for p in level]
        alike_on -= 1
        while alike_on and keys[alike_on - 1] == keys[-1]:
            alike_on -= 1
        closed: dict[Any, dict[str, int] | None] = {}
        close = _alike(close, {id(p.state): key for p, key in zip(level, keys)}, closed)
    for i, p in enumerate(level):
        if replayed and not ends and i >= alike_on and keys[i] not in closed:
            ends = [(q, None) for q in level[i:]]
            break
        totals = _shut(p, close)
        if totals is None:
            continue
        if claimed is None and ends and totals != ends[0][1]:
            return _parting(ends[0][0], p, close)
        ends.append((p, totals))
    if not ends:
        raise Unsure("no reading is legal")
    if claimed is not None and ends[0][1] is not None:
        giving = [e for e in ends if claimed(e[1])]
        if not giving and dropped:
            raise Unsure("no reading left gives the claimed scores")  # (the general reading reads them all)
        ends = giving or ends
        if any(t != ends[0][1] for _, t in ends):
            raise Unsure("the readings give different scores")  # (all of them read, and worded)
    # The legal readings from each position, counted backwards from the ends.
    for p, _ in ends:
        p.legal = 1
    for p in reversed(made):  # (each after those it led to)
        for _, after in p.went:
            p.legal += after.legal
    total = root.legal
    first = ends[0][0]
    said = None
    if total > 1:
        # How many legal readings make each choice: those reaching the position it was made
        # in, times those going on from the position it led to.
        making: dict[tuple, int] = {}
        for p in made:
            if p.legal:
                for before, choice in p.came:
                    if choice is not None:
                        making[choice] = making.get(choice, 0) + before.count * p.legal
        parted = [words(j, opt) for j, opt in first.path if making.get((j, opt), 0) < total]
        said = note(total, parted) if parted else None
    return Chosen(first.state, first.moves, said)


def _movers(state: Any) -> list[str] | tuple[str, ...]:
    """The seats that may make the next move, as the engine says (the Game API's ``movers``)."""
    if state.over:
        return ()
    ask = getattr(state, "movers", None)
    if ask is not None:
        return ask()
    seat = state.to_move
    return (seat,) if seat is not None else ()


def _places(state: Any, moves: list, data: dict, seat: str | None) -> tuple[list[Option], int]:
    """A tile typed without ``@`` that fits more than one open tile: an option for each tile laid
    so far in the hand, the earliest laid first, as the general reading makes them
    (:meth:`~domrec.notation.readings.HandReading._expand`), but for those the engine says it
    refuses (``places``), which are counted but not tried.  The options to try, and how many
    the general reading counts."""
    seen = dict.fromkeys([m.play for m in moves if type(m) is Play and m.play is not None])
    try:
        fits = frozenset(state.places(T.tile(data["play"])))
    except T.TileError:
        raise Unsure("not a tile") from None
    # (a tile laid is written as its tile prints, most often: compared as text, else as a tile)
    texts = {str(t) for t in fits}
    return [_option(seat, t) for t in seen if t in texts or (t not in _PRINTED and T.tile(t) in fits)], len(seen)


#: Every tile of the sets as it prints (``6-3``: :class:`~domrec.tiles.Tile`'s ``str``).
_PRINTED = frozenset(f"{a}-{b}" for a in range(19) for b in range(a + 1))


def _branch(p: _Position, j: int, queue: list[Option], data: dict, bare: bool, build: Callable,
            reached: list, beyond: Callable[[Any], bool] | None, dropped: list) -> int:
    """Each option of typed move ``j`` tried from position ``p``, in order: those accepted are
    added to ``reached`` with their choice, but those past the claimed scores (``beyond``: then
    ``p`` is added to ``dropped``).  A state is copied for each option but the last,
    which takes ``p``'s own (a refusal leaves a state as it was).  Returns the options that a
    seat's refusal turned into the tiles it may go on (counted as :data:`LIMIT` counts)."""
    st = p.state
    queue = list(queue)
    added = 0
    while queue:
        opt = queue.pop(0)
        mine = st if not queue else st.clone()
        move = build(j, opt.seat, opt.on)
        try:
            mine.apply(move)
        except RuleViolation as e:
            if opt.on is None and bare and isinstance(e, IllegalMove) and e.pointer.endswith("/on"):
                more, tried = _places(st, p.moves, data, opt.seat)
                added += p.count * tried
                queue[0:0] = more
            continue
        if beyond is not None and beyond(mine):
            dropped.append(p)
            continue
        reached.append((p, (j, opt), mine, [*p.moves, move]))
    return added


def _key(state: Any) -> Any:
    """The position ``state`` is in (the engine's ``position_key``: equal keys, equal futures)."""
    return state.position_key()


def _merge(reached: list[tuple[_Position, tuple | None, Any, list]], made: list[_Position]) -> list[_Position]:
    """The positions the readings reached after a move where some chose, one for each position
    (the engine's ``position_key``), in the order of the earliest reading to reach each."""
    out: dict[Any, _Position] = {}
    for before, choice, st, moves in reached:
        key = _key(st)
        p = out.get(key)
        if p is None:
            path = before.path if choice is None else (*before.path, choice)
            p = out[key] = _Position(st, moves, path, before.count, [(before, choice)])
            made.append(p)
        else:
            p.count += before.count
            p.came.append((before, choice))
        before.went.append((choice, p))
    return list(out.values())


def _fold(level: list[_Position], made: list[_Position]) -> list[_Position]:
    """``level`` with the positions that have come to the same key since the readings last chose
    (a tile that covers the end where two readings differed) made one, in the order of the
    earliest reading to reach each: each group's readings go on from a new position, which
    holds the earliest one's state and moves."""
    groups: dict[Any, list[_Position]] = {}
    for p in level:
        key = _key(p.state)
        group = groups.get(key)
        if group is None:
            groups[key] = [p]
        else:
            group.append(p)
    if len(groups) == len(level):
        return level
    out = []
    for group in groups.values():
        first = group[0]
        if len(group) > 1:
            first = _Position(first.state, first.moves, first.path, sum(p.count for p in group),
                              [(p, None) for p in group])
            for p in group:
                p.went.append((None, first))
            made.append(first)
        out.append(first)
    return out


def _alike(close: Callable[[Any, list], dict[str, int] | None], keys: dict[int, Any],
           done: dict[Any, dict[str, int] | None]) -> Callable:
    """``close`` run once for each close key of the engine (``keys``: a state's id -> its key;
    ``done``: each key closed so -> its totals): the end positions with equal keys are refused,
    or accepted with the same totals, alike."""

    def shut(state: Any, moves: list) -> dict[str, int] | None:
        key = keys[id(state)]
        totals = done.get(key, _UNKNOWN)
        if totals is _UNKNOWN:
            totals = done[key] = close(state, moves)
        return totals

    return shut


def _shut(p: _Position, close: Callable[[Any, list], dict[str, int] | None]) -> dict[str, int] | None:
    """The totals of position ``p`` (one the readings reach at the hand's end) closed, ``None``
    where the rules refuse it: closed once, when first asked."""
    if p.totals is _UNKNOWN:
        p.totals = close(p.state, p.moves)
    return p.totals


def _parting(one: _Position, other: _Position, close: Callable) -> Parting:
    """Where the general reading stops when the legal readings give different scores
    (:class:`Parting`), found on the graph.  ``one``: the position the first legal reading (R1)
    ends at; ``other``: the first position, in the order of the earliest reading to reach each,
    that closes legal with other scores.  The earliest reading to reach it (Rk) is the first
    legal reading with other scores: one reaching a later position comes after it.  Both are
    closed already."""
    return Parting(other.path, one.path, (_shut(one, close), _shut(other, close)))
