"""The readings of a typed hand: the ends and seats the text leaves out, worked out.

A paper score sheet rarely says which end a tile went on, and a hand typed
from it rarely names the seats.  Where the engine refuses a tile because it
fits more than one open tile ("say which it is played on"), or says that more
than one seat may make the next move (a Horse Race chain that may have ended
unwritten under ``chain_draw: false``), the text leaves a choice.  This module
tries the choices on the engine itself, through the Game API (a checkpoint of
the game, a move pushed, the game restored): no rule is known here, only the
engine's yes or no.

Each way through the hand's choices is a *reading*.  A reading is legal when
every move is accepted and the hand closes (the deal worked out from ``left``
and the whole hand replayed with it).  Then:

* one legal reading: it is the record;
* several, all with the same scores: the first in the fixed order below is the
  record, and a note says so (every reader of the text gets the same record);
* several with different scores: one problem names the first tile (or move)
  where they part, its line:column and the choices;
* more than :data:`LIMIT` positions read (readings that reach a position met
  before are read on from it once, :meth:`HandReading._enter`): one problem
  names the first choice to write, never a long wait;
* none: the problem of the reading that got furthest (the first such one).

The fixed order, written in docs/notation.md: choices are taken in the order
of the text, and at each one a tile goes first on the open tile **laid
earliest** in the hand, and a move is first the **player to move**'s, then the
next seat's.  When a written ``end`` line claims the hand's scores, only the
readings that give those scores count (the scorer wrote which one it was); where the engine
tells the least the hand can still give each side, a reading that has passed the claim is
dropped at once (:func:`past_claim`), and if none left gives it, every reading is read again.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Callable

import attrs

from domrec.notation.tokens import _HandText, _MoveTok
from domrec.record import HandResult, structure_move
from domrec.validate import Problem

#: Positions of one hand read at most (each reading's end, each move refused, on the engine: a
#: reading that reaches a position met before takes what the readings from there gave without
#: the engine and is not counted); past it, the reader asks for an end or a seat.
LIMIT = 10_000

#: Readings taken again from positions met before, at most (each is a list of choices to keep,
#: however cheap to find): past it, the reader asks as past :data:`LIMIT`.
AGAIN_LIMIT = 100_000

RULE = "DGN: what may be left out"

#: What the problem of a hand whose legal readings give different scores says of them (and
#: what :func:`domrec.recorder.read_so_far` looks for: a hand its end line's scores may settle).
PARTED = "the readings give this hand different scores"

#: True while the recorder reads the game so far whole (:func:`domrec.recorder.read_whole`):
#: the last hand, when the text has not closed it yet (no ``left`` or ``end`` line), is read
#: for now, its readings' first by the tie rule taken even where they part, and a reading in
#: which the hand is over still waits for its ``left`` line: the rest of the hand decides.
#: A hand the text closes is read as always, so the verdict at its close is validate's.
provisional: contextvars.ContextVar[bool] = contextvars.ContextVar("provisional", default=False)


def past_claim(claim: dict[str, int], least: dict[str, int] | None) -> bool:
    """Whether a hand that can no longer give each side less than ``least`` (its engine's
    ``least_scores``; ``None``: it cannot tell) has passed the scores ``claim`` claims for it.
    A sheet's ``end`` line that claims the hand's scores counts only the readings that give
    them, so a reading past them is dropped as soon as it is (both readings of a hand ask this:
    the general one here, the straight one in :mod:`domrec.notation.position_set`)."""
    return least is not None and any(n < least.get(side, n) for side, n in claim.items())


@attrs.frozen
class Option:
    """One choice at a move: the seat (``None``: the one typed) and the tile it goes on
    (``None``: as typed, or where the engine finds the only place)."""

    seat: str | None
    on: str | None = None


class Failure:
    """How far a reading got (typed moves accepted; one more for the hand's close), and why it
    stopped: its problem is placed (given its line and column) only when asked for, as most
    failures are passed by one that got further."""

    __slots__ = ("depth", "stop", "_problem", "_place")

    def __init__(self, depth: int, problem: Problem, stop: tuple[_HandText, int, int] | None,
                 place: Callable[[], Problem] | None = None) -> None:
        self.depth = depth
        self.stop = stop
        self._problem = problem
        self._place = place

    @property
    def problem(self) -> Problem:
        if self._place is not None:
            self._problem, self._place = self._place(), None
        return self._problem


@attrs.define
class Outcome:
    """What reading the hand gave: the positions of the record's moves, or a problem."""

    problem: Problem | None = None
    stop: tuple[_HandText, int, int] | None = None
    note: str | None = None


class HandReading:
    """The search over one hand's readings, on the Game ``g`` (the hand started).

    ``place(problem, pos, seat_at)`` gives a problem its line and column;
    ``move_tok(j, on)`` the typed move ``j`` (with ``on`` filled in);
    ``insert_passes(mv)`` puts back the forced passes before it (``None``: at the hand's end, where
    the hand is being closed); ``finish()`` says whether the hand is closed (``left``, ``end``, over,
    or not the last);
    ``complete(data)`` finishes a move's data once its seat is known.
    """

    def __init__(self, g: Any, hand: _HandText, hp: str, finish: Callable[[], bool], claim: HandResult | None,
                 place: Callable[[Problem, int, int | None], Problem], move_tok: Callable[[int, str | None], _MoveTok],
                 seat_at: Callable[[int], int | None], insert_passes: Any,
                 complete: Callable[[dict], dict], where: Callable[[int], tuple[int, int]], text: str) -> None:
        self.g = g
        self.hand = hand
        self.hp = hp
        self.finish = finish
        self.claim = claim
        #: The scores the ``end`` line claims for every side (a side left out scored 0), or ``None``
        #: where it claims none: only the readings giving them count (docs/notation.md).
        self.claimed_scores = claim.claimed_scores(g.totals) if claim is not None else None
        self.place = place
        self.move_tok = move_tok
        self.seat_at = seat_at
        self.insert_passes = insert_passes
        self.complete = complete
        self.where = where
        self.text = text
        #: The offset of each move of the record, where its seat was typed, and the typed move behind it.
        self.here: list[int] = []
        self.seats_here: list[int | None] = []
        self.typed: list[int | None] = []
        #: The hand is the text's last and still open, read for now (see :data:`provisional`).
        self.for_now = False
        #: (typed move, option) -> its token and its move, made once a hand (see :meth:`_push`).
        self._made: dict[tuple[int, Option], tuple[_MoveTok, Any]] = {}
        #: The scores the ``end`` line claims, where the engine tells the least a hand can still
        #: give each side (``least_scores``): a reading past them is dropped (:meth:`_past`).
        self._claim = self.claimed_scores if self.claimed_scores and \
            getattr(g.state, "least_scores", None) is not None else None
        #: Whether a reading was dropped so (then a walk that finds none giving the claimed
        #: scores is made again with every reading: :meth:`run`).
        self._dropped = False
        #: The ``end`` line claims scores no legal reading gives (said with readings that part).
        self.unmet = False
        self._fresh()

    def _fresh(self) -> None:
        """What a walk of the readings finds, before it starts."""
        self.readings: list[tuple[tuple[tuple[int, Option], ...], dict[str, int]]] = []
        #: The scores the readings so far give (see :meth:`_read`).
        self._scores: set[tuple] = set()
        self.best: Failure | None = None
        #: Positions read on the engine (see :data:`LIMIT`), and readings taken again without it.
        self.tried = 0
        self.again = 0
        self.stopped = False
        self.too_many = False
        #: The first place the text left a choice: (checkpoint, typed move, lengths of the lists).
        self.root: tuple[Any, int, tuple[int, int, int]] | None = None
        #: Replaying the chosen reading: the choice at each branch point.
        self.forced: dict[int, Option] | None = None
        #: Every option tried at each branch point and accepted (for the messages).
        self.choices: dict[int, list[Option]] = {}
        self.before = dict(self.g.totals)
        #: The hand's first move found nobody to move: who leads is not known (the text did not
        #: say, and the hand before does not tell).
        self.leader_unknown = False
        #: (typed move, the Game's position key) -> what the readings from that position gave, in
        #: order (see :meth:`_enter`): a reading that reaches a position met before takes those.
        self._merged: dict[tuple, list[tuple[str, tuple, dict[str, int] | None]]] = {}
        #: The Game as the readings :meth:`run` may choose left it (:meth:`_keeps`): (path, checkpoint,
        #: copies of ``here``, ``seats_here`` and ``typed``, totals).
        self._kept: list[tuple] = []
        #: The positions whose readings are being walked: (length of the path to each, its events;
        #: a position walked within another is one event of the other's).
        self._recording: list[tuple[int, list]] = []

    # --- the walk ------------------------------------------------------------------------

    def run(self) -> Outcome:
        start = None
        if self._claim is not None:  # (the hand as it starts, for a walk made again: below)
            start = self.g.checkpoint(), (len(self.here), len(self.seats_here), len(self.typed))
        self._walk(0, ())
        if self._dropped and not self.too_many and not any(self._claimed(s) for _, s in self.readings):
            # Readings were dropped for passing the claimed scores, and none left gives them: the
            # verdict is then about every reading (the claim is wrong, or no reading is legal), so
            # they are all read, as if none had been dropped.
            self.g.restore(start[0])
            self._cut(start[1])
            self._claim = None
            self._fresh()
            self._walk(0, ())
        if self.root is None:  # no choice anywhere: the one reading is in place
            if self.readings:
                return Outcome()
            return self._failed()
        if self.too_many:
            many = f"{LIMIT:,} positions" if self.tried > LIMIT else f"{AGAIN_LIMIT:,} readings"
            return Outcome(problem=self._ask(f"more than {many} of hand {self.hand.number} fit what is typed"))
        legal = self.readings
        if self.claimed_scores:
            claimed = [r for r in legal if self._claimed(r[1])]
            self.unmet = not claimed
            legal = claimed or legal
        if not legal:
            return self._failed()
        scores = {_key(s) for _, s in legal}
        if len(scores) > 1 and not self.for_now:
            return Outcome(problem=self._parting(legal))
        path = legal[0][0]
        kept = next((k for k in self._kept if k[0] == path), None)
        if kept is not None:  # the Game as the chosen reading left it, taken as it was kept
            _, cp, here, seats_here, typed, _ = kept
            self.g.restore(cp, last=True)
            self.here[:], self.seats_here[:], self.typed[:] = here, seats_here, typed
            self.readings = [((), legal[0][1])]
            self.forced = dict(path)
            return Outcome(note=self._chosen_note(legal, path))
        cp, j, lens = self.root
        self.g.restore(cp)
        self._cut(lens)
        self.forced = dict(path)
        self.readings = []
        self.tried = 0  # (the chosen reading is replayed whatever the count so far)
        self._walk(j, ())
        assert self.readings, "the chosen reading was legal when tried"
        return Outcome(note=self._chosen_note(legal, path))

    def run_parted(self, path: tuple[tuple[int, Option], ...], first: tuple[tuple[int, Option], ...],
                   totals: tuple[dict[str, int], dict[str, int]]) -> Outcome:
        """What :meth:`run` gives where the hand's legal readings give different scores, no
        ``end`` line claiming any, as the set of positions found it
        (:class:`~domrec.notation.position_set.Parting`): :meth:`run` stops after reading
        ``path``, the first legal reading with scores other than the first legal reading's
        (``first``), the Game left as that reading closed the hand; its problem names the
        choices where the two part, with their totals (``totals``: the first's, then this one's).
        So only that reading is played (as :meth:`run` replays its chosen one), and the problem
        worded as :meth:`run` words it."""
        self.forced = dict(path)
        self._walk(0, ())
        assert self.readings, "the reading the set of positions stops at is legal"
        return Outcome(problem=self._parting([(first, totals[0]), (path, totals[1])]))

    def _walk(self, j: int, path: tuple[tuple[int, Option], ...]) -> None:
        g, hand = self.g, self.hand
        n = len(hand.moves)
        move_tok, insert_passes, forced = self.move_tok, self.insert_passes, self.forced
        while j < n:
            if self.stopped:
                return
            mv = move_tok(j, None)
            if not mv.exposure:
                insert_passes(mv)
            if forced is not None and j in forced:
                opts = [forced[j]]
            elif mv.seat is not None:
                opts = _TYPED
            else:
                opts = [_option(s) for s in g.movers()]
                if not opts:
                    self.leader_unknown = self.leader_unknown or (not g.hand_over and not g.moves)
                    k = len(g.moves)
                    over = self._over_refusal(j, mv) if g.hand_over else None
                    if over is not None:  # the engine's own words and rule, as a JSON record gets them
                        self._fail(j, over, mv, None)
                        return
                    why = ("the hand is over" if g.hand_over else
                           "who leads is not known: write the leader's seat (N 6-6) or lead SEAT on the hand line")
                    self._fail(j, Problem(f"{self.hp}/moves/{k}", f"whose move is this? {why}", RULE, "illegal",
                                          hand=hand.number, move=k + 1), mv, None)
                    return
            unfit = _NONE
            if len(opts) == 1:
                try:
                    self._push(j, opts[0], repair=True, mv=mv)
                except _Refused as e:
                    if not (self._ambiguous(e.refusal, j, opts[0]) and self.forced is None):
                        self._fail(j, e.refusal.problem, self.move_tok(j, opts[0].on), opts[0].seat)
                        return
                    opts, unfit = self._expand(opts[0], j)
                else:
                    if self._claim is not None and self._past():
                        return  # (no reading from here gives the claimed scores)
                    j += 1
                    continue
            self._branch(j, opts, path, unfit)
            return
        self._leaf(path)

    def _branch(self, j: int, opts: list[Option], path: tuple[tuple[int, Option], ...],
                unfit: frozenset = frozenset()) -> None:
        """Each option of typed move ``j`` tried from the Game as it is.  ``unfit``: options the
        engine says it refuses (:meth:`_expand`): each counts as a refusal without being pushed,
        unless its refusal would be the furthest failure so far (then its words are the engine's)."""
        g = self.g
        cp = g.checkpoint()
        lens = (len(self.here), len(self.seats_here), len(self.typed))
        if self.root is None:
            self.root = (cp, j, lens)
        queue = list(opts)
        fresh = True
        # Where a refusal changes nothing, the last option may take the checkpoint's copy of the
        # hand instead of a copy of it: nothing comes back to it after (the first choice's does:
        # the chosen reading is replayed from there; and a seat's option may still turn into the
        # tiles it may go on, each tried from the checkpoint, so only a tile's option is last).
        keeps = g.refusal_keeps_state
        while queue and not self.stopped:
            opt = queue.pop(0)
            if opt in unfit and self.best is not None and self.best.depth >= j:
                self.tried += 1  # (refused, as the engine would: the state is untouched)
                continue
            if not fresh:
                g.restore(cp, last=keeps and not queue and opt.on is not None and cp is not self.root[0])
                self._cut(lens)
            fresh = False
            try:
                self._push(j, opt, repair=False)
            except _Refused as e:
                if self._ambiguous(e.refusal, j, opt):
                    if not keeps:
                        g.restore(cp)
                        self._cut(lens)
                    fresh = True
                    more, unfit_more = self._expand(opt, j)
                    queue[0:0] = more
                    unfit = unfit | unfit_more
                    continue
                self._fail(j, e.refusal.problem, self.move_tok(j, opt.on), opt.seat)
                self.tried += 1
                fresh = keeps  # (nothing to put back before the next option)
                continue
            self.choices.setdefault(j, [])
            if opt not in self.choices[j]:
                self.choices[j].append(opt)
            if self._claim is not None and self._past():
                self.tried += 1  # (counted as a refusal: no reading from here gives the claimed scores)
                fresh = False
                continue
            self._enter(j + 1, path + ((j, opt),))

    def _enter(self, j: int, path: tuple[tuple[int, Option], ...]) -> None:
        """Walk on from typed move ``j``, the Game where ``path`` left it, unless another reading
        reached the same position there (the engine's :meth:`~domrec.game.Game.position_key`):
        then the readings from it are that reading's, each with this path in front.

        A position decides everything after it (the moves the engine accepts, the hand's end, the
        totals), so what those readings gave is known without the engine: which were refused,
        which closed the hand and with what totals.  Their problems need not be kept: a reading
        that got as far was met first, and the reading that got furthest is the first to.  The
        readings are taken in the same order and counted as before, so the verdict, the notes
        and the messages are those of the walk of every reading; only the engine's work is
        done once a position."""
        if self.forced is not None or self.for_now:
            self._walk(j, path)
            return
        key = self.g.position_key()
        if key is None:
            self._walk(j, path)
            return
        key = (j, key)
        events = self._merged.get(key)
        if events is not None:
            self._again(events, path)
            return
        events = []
        recording = self._recording
        if recording:  # (the position being walked around this one holds its events as one)
            start, outer = recording[-1]
            outer.append((_SUB, path[start:], events))
        recording.append((len(path), events))
        try:
            self._walk(j, path)
        finally:
            self._recording.pop()
        if not self.stopped:
            self._merged[key] = events

    def _again(self, events: list, prefix: tuple[tuple[int, Option], ...]) -> None:
        """What the walk from a position met before gave, taken again after ``prefix`` (and held,
        as one event, by the position being walked around this one)."""
        recording = self._recording
        if recording:
            start, outer = recording[-1]
            outer.append((_SUB, prefix[start:], events))
        self._take(events, prefix)

    def _take(self, events: list, prefix: tuple[tuple[int, Option], ...]) -> None:
        """The readings' ends ``events`` holds (a position's within it taken in place), in order,
        each path after ``prefix``: counted, and the legal ones read."""
        for kind, rest, scores in events:
            if self.stopped:
                return
            path = prefix + rest
            if kind is _SUB:
                self._take(scores, path)
                continue
            self.again += 1
            if self.again > AGAIN_LIMIT:
                self.too_many = self.stopped = True
                return
            if scores is not None:
                self._read(path, scores)

    def _leaf(self, path: tuple[tuple[int, Option], ...]) -> None:
        self.tried += 1
        if self.tried > LIMIT:
            self.too_many = self.stopped = True
            return
        g, hand = self.g, self.hand
        self.insert_passes(None)
        outcome = None
        if self.finish():
            try:
                outcome = g.end_hand(hand.left, self.claim)
            except Exception as e:  # (Refused: the deal or a move, now the deal is known)
                refusal = getattr(e, "problem", None)
                if refusal is None:
                    raise
                self._fail_end(refusal, getattr(e, "left", None))
                if self._recording:
                    start, events = self._recording[-1]
                    events.append((_LEAF, path[start:], None))
                return
        scores = _Totals(g.totals)
        claim = self.claim
        if outcome is not None and claim is not None and claim.end is not None and not outcome.ends_as(claim.end):
            scores.ended_otherwise = True
        if self._recording:
            start, events = self._recording[-1]
            events.append((_LEAF, path[start:], scores))
        if self.root is not None and self.forced is None and len(self._kept) < 2 and self._keeps(scores):
            self._kept.append((path, g.checkpoint(), list(self.here), list(self.seats_here), list(self.typed),
                               scores))
        self._read(path, scores)

    def _keeps(self, scores: dict[str, int]) -> bool:
        """Whether the reading just read, with these totals, may be the one :meth:`run` chooses
        (the first, or the first giving the scores the ``end`` line claims), and the Game as it
        left it is not kept yet: then it is kept, and the chosen reading is not played again.
        (The reading chosen is always one read on the engine: one taken again from a position
        met before comes after the reading that walked from there, with the same totals.)"""
        if not self._kept:
            return True
        if not self.claimed_scores:
            return False
        return self._claimed(scores) and not self._claimed(self._kept[0][5])

    def _past(self) -> bool:
        """Whether the reading being walked has passed the scores the ``end`` line claims (the
        engine's ``least_scores``, :func:`past_claim`): then it is dropped, and noted."""
        if past_claim(self._claim, self.g.state.least_scores()):
            self._dropped = True
            return True
        return False

    def _claimed(self, totals: dict[str, int]) -> bool:
        """Whether these totals give the hand the scores its ``end`` line claims, and the reading
        that gave them ended the hand as it claims: two readings may give the same scores and
        end the hand differently ("out" where it claims "target", the last tile's peg reaching
        the target in one and not the other), and the one that ends it otherwise is no reading of
        the sheet (as the straight reading's close refuses it)."""
        if getattr(totals, "ended_otherwise", False):
            return False
        hand = self._hand_scores(totals)
        return all(hand.get(side) == n for side, n in self.claimed_scores.items())

    def _read(self, path: tuple[tuple[int, Option], ...], scores: dict[str, int]) -> None:
        """A legal reading, with the totals it gives.  A hand read for now takes its first legal
        reading by the tie rule (:data:`provisional`), so the walk stops there: the hand is read
        whole again as its lines come, and walking on past the first, to count readings a later
        line may rule out, could only reach :data:`LIMIT` and refuse a line that the rest of
        the hand settles."""
        self.readings.append((path, scores))
        if self.for_now:
            self.stopped = True
            return
        if self.forced is None and self.root is not None and not self.claimed_scores \
                and not self.for_now:
            self._scores.add(_key(scores))
            if len(self._scores) > 1:
                self.stopped = True  # two readings, two scores: the text must say which

    # --- one move --------------------------------------------------------------------------

    def _push(self, j: int, opt: Option, repair: bool, mv: _MoveTok | None = None) -> None:
        made = self._made.get((j, opt))
        if made is None:
            if mv is None or opt.on is not None:
                mv = self.move_tok(j, opt.on)
            seat = mv.seat if mv.seat is not None else opt.seat
            made = self._made[j, opt] = (mv, _built(seat, mv.data, self.complete))
        mv, move = made
        try:
            self.g.push(move, repair=repair)
        except _game_refused() as e:
            raise _Refused(e) from None
        self.here.append(mv.pos)
        self.seats_here.append(self.seat_at(j))
        self.typed.append(j)

    def _over_refusal(self, j: int, mv: _MoveTok) -> Problem | None:
        """Why typed move ``j``, written without its seat after the hand is over, is refused: the
        engine's own refusal of it (``the hand is already over: N went out``, with its rule), as a
        JSON record holding the move gets it, rather than a question about a seat nobody can
        answer.  The move is tried, on a copy of the hand, as each seat's; the engine's words are
        used where they are the same whoever made it (its seat was not typed, so words naming one
        would be a guess).  Where they differ (Castle Rock's ``P1 cannot place 4-4: the hand is
        over``), it says the hand is over and nobody may make the move, under the engine's rule.
        ``None`` where some seat may still make it (the last placer's capture in Castle Rock, a
        block's closing pass): then the seat is what is missing, and the reader asks for it."""
        g = self.g
        cp = g.checkpoint()
        said: list[Problem] = []
        for seat in g.seats:
            try:
                g.push(_built(seat, mv.data, self.complete), repair=False)
            except _game_refused() as e:
                said.append(e.problem)
            g.restore(cp)
        if len(said) < len(g.seats) or said[0].kind != "illegal":
            return None
        if len({(p.message, p.rule, p.pointer) for p in said}) == 1:
            return attrs.evolve(said[0], seat=None)
        k = len(g.moves)
        return Problem(f"{self.hp}/moves/{k}", "the hand is already over: nobody may make this move", said[0].rule,
                       "illegal", hand=self.hand.number, move=k + 1)

    def _ambiguous(self, refusal: Any, j: int, opt: Option) -> bool:
        """The engine refused a tile typed without ``@`` because it fits more than one open tile."""
        data = self.hand.moves[j]
        return (opt.on is None and "on" not in data and "play" in data
                and refusal.problem.pointer.endswith("/on") and refusal.problem.kind == "illegal")

    def _expand(self, opt: Option, j: int) -> tuple[list[Option], frozenset]:
        """The tile on each tile laid so far in the hand, the earliest laid first (the engine
        refuses those that are not open and do not match), and those of them the engine says
        it refuses (:meth:`~domrec.game.Game.places`: the tiles it may go on; empty where the
        engine does not say)."""
        seen: dict[str, None] = {}
        for m in self.g.moves:
            text = getattr(m, "play", None)
            if text is not None and type(m).__name__ == "Play":
                seen[text] = None
        seat = opt.seat
        opts = [_option(seat, t) for t in seen]
        fits = self.g.places(self.hand.moves[j]["play"])
        if fits is None:
            return opts, _NONE
        from domrec import tiles as T

        return opts, frozenset(o for o in opts if T.tile(o.on) not in fits)

    def _cut(self, lens: tuple[int, int, int]) -> None:
        del self.here[lens[0]:]
        del self.seats_here[lens[1]:]
        del self.typed[lens[2]:]

    # --- failures and messages -------------------------------------------------------------

    def _fail(self, j: int, problem: Problem, mv: _MoveTok, seat: Any) -> None:
        if self.best is not None and self.best.depth >= j:
            return
        problem = self._drawn_again(j, problem)
        number = problem.move or len(self.here) + 1
        self.best = Failure(j, problem, (self.hand, j, number),
                            lambda place=self.place, at=mv.pos, seat=self.seat_at(j): place(problem, at, seat))

    def _drawn_again(self, j: int, problem: Problem) -> Problem:
        """``problem``, the refusal of typed move ``j``, said of the tile where ``j`` draws a tile
        the hand's typed moves before it already laid or drew: no reading of the seats or ends
        can make that draw legal, whoever drew it, so the tile is the slip, not what the engine
        checked first (with ``chain_draw=false``, "P3 drew 4-4, which fits": true only of the
        reading that gave the draw to P3).  A refusal already about that tile is kept, and so is
        one of a move after the hand is over (no move may follow: that is the slip)."""
        drawn = self.hand.moves[j].get("draw")
        if type(drawn) is not str or drawn in problem.message or self.g.hand_over:
            return problem
        from domrec import tiles as T

        try:
            t = T.tile(drawn)
        except Exception:
            return problem
        if self.g.tile_set().count(t) != 1:
            return problem  # (a set holding the tile twice: a second one may be drawn)
        for k, d in enumerate(self.hand.moves[:j]):
            for key in ("draw", *_LAID):
                earlier = d.get(key)
                if type(earlier) is not str:
                    continue
                try:
                    same = T.tile(earlier) == t
                except Exception:
                    same = False
                if same:
                    was = self.where(self.move_tok(k, None).pos)
                    how = "drawn" if key == "draw" else "laid"
                    return attrs.evolve(problem, message=f"{drawn} cannot be drawn: it was {how} at {was[0]}:{was[1]} "
                                                         f"in hand {self.hand.number}", rule="the set")
        return problem

    def _fail_end(self, problem: Problem, left: tuple[str, int] | None = None) -> None:
        """The hand's close refused: ``problem``, placed at the tile of the ``left`` line it names
        (``left``: seat and place), else at the ``left`` line for a deal's problem, else at the
        ``end`` line or the last move."""
        depth = len(self.hand.moves) + 1
        if self.best is not None and self.best.depth >= depth:
            return
        hand = self.hand
        tiles = hand.left_tiles_pos.get(left[0], ()) if left is not None else ()
        at = tiles[left[1]] if left is not None and left[1] < len(tiles) else \
            hand.left_pos if problem.kind == "deal" and hand.left_pos is not None else (
                hand.end_pos or (self.here[-1] if self.here else hand.pos))
        seat_at = None
        stop = None
        if problem.kind == "illegal" and problem.move is not None and problem.move <= len(self.here):
            at, seat_at = self.here[problem.move - 1], self.seats_here[problem.move - 1]
            after = [k for k in self.typed[problem.move - 1:] if k is not None]
            stop = (hand, after[0] if after else len(hand.moves), problem.move)
        self.best = Failure(depth, self.place(problem, at, seat_at), stop)

    def _failed(self) -> Outcome:
        assert self.best is not None, "a hand without a legal reading has a failure"
        return Outcome(problem=self.best.problem, stop=self.best.stop)

    def _hand_scores(self, totals: dict[str, int]) -> dict[str, int]:
        return {side: n - self.before.get(side, 0) for side, n in totals.items()}

    def _words(self, j: int, opt: Option) -> str:
        return choice_words(self._word(j), self.hand.moves[j], opt)

    def _word(self, j: int) -> str:
        mv = self.move_tok(j, None)
        text = self.text[mv.pos:]
        return text.split(None, 1)[0] if text.strip() else "?"

    def _problem_at(self, j: int, message: str) -> Problem:
        mv = self.move_tok(j, None)
        line, col = self.where(mv.pos)
        return attrs.evolve(Problem(f"{self.hp}/moves", message, RULE, "illegal", hand=self.hand.number),
                            line=line, column=col)

    def _parting(self, legal: list) -> Problem:
        """The problem of a hand whose legal readings give different scores: the first legal
        reading (R1) and the first with other scores (Rk, where the walk stopped), each told by
        the choices where the two part and the scores it gives, placed at the first of those
        choices.  (Each option of that first choice was told with the scores of the first
        reading to make it: where the scores turn on a later choice, both options were told the
        same scores, and writing either left the question open.)"""
        one = legal[0]
        other = next((r for r in legal[1:] if _key(r[1]) != _key(one[1])), legal[-1])
        mine, theirs = dict(one[0]), dict(other[0])
        parted = sorted(j for j in mine.keys() | theirs.keys() if mine.get(j) != theirs.get(j))
        j = parted[0] if parted else min(mine.keys() | theirs.keys())
        opts = [o for o in dict.fromkeys((mine.get(j), theirs.get(j))) if o is not None]
        line, col = self.where(self.move_tok(j, None).pos)

        def way(choices: dict) -> str:
            return ", ".join(self._words(k, choices[k]) for k in parted if k in choices) or \
                self._words(j, choices[j])

        told = "; ".join(f"{way(c)} gives {_scores_text(self._hand_scores(s))}" for c, s in ((mine, one[1]),
                                                                                           (theirs, other[1])))
        word = self._word(j)
        if opts and opts[0].on is not None:
            what = f"{word} at {line}:{col} fits more than one open tile"
            ask = "write which it went on" if len(parted) < 2 else "write which each went on"
        else:
            what = f"{word} at {line}:{col} may be {' or '.join(str(o.seat) + chr(39) + 's' for o in opts)}"
            ask = "write its seat" if len(parted) < 2 else "write each one's seat or end"
        unmet = ""
        if self.unmet and self.claimed_scores:
            unmet = (f"; no reading gives the scores its end line claims "
                     f"({_scores_text(self.claimed_scores)}): check them too")
        return self._problem_at(j, f"{what}, and {PARTED} ({told}): {ask} "
                                   f"({' or '.join(self._words(j, o) for o in opts)}){unmet}")

    def _ask(self, why: str) -> Problem:
        j = self.root[1] if self.root is not None else 0
        opts = self.choices.get(j) or []
        line, col = self.where(self.move_tok(j, None).pos)
        shown = " or ".join(self._words(j, o) for o in opts[:4]) or "its end or seat"
        return self._problem_at(j, f"{why}: write {shown} at {line}:{col} (hand {self.hand.number}), "
                                   f"and read again")

    def _chosen_note(self, legal: list, path: tuple[tuple[int, Option], ...]) -> str | None:
        if len(legal) < 2:
            return None
        parted = []
        for j, opt in path:
            if any(dict(p).get(j) != opt for p, _ in legal):
                line, col = self.where(self.move_tok(j, None).pos)
                parted.append(f"{self._words(j, opt)} at {line}:{col}")
        if not parted:
            return None
        return chosen_note(self.hand.number, len(legal), parted)


def choice_words(word: str, data: dict, opt: Option) -> str:
    """Option ``opt`` of the typed move ``word`` (its data ``data``) as it would be written."""
    if opt.on is not None:
        return f"{word}@{opt.on}"
    if opt.seat is not None and "seat" not in data:
        return f"{opt.seat} {word}"
    return word


def chosen_note(number: int, count: int, parted: list[str]) -> str:
    """The note for hand ``number`` read as the first of ``count`` legal readings with the same
    scores, choosing as ``parted`` says (its choices that not every legal reading makes, each
    in words with its line:column).  The readings' two ways of working it out, one reading
    after another (:class:`HandReading`) and as a set of positions
    (:mod:`domrec.notation.position_set`), say it in these words."""
    return (f"hand {number}: {count} readings give the same scores; read as "
            f"{', '.join(parted[:3])}{' …' if len(parted) > 3 else ''} (the end laid earliest, the player "
            f"to move first: docs/notation.md)")


def tiles_checked(hand: _HandText, start: int, tile_set: list, text: str,
                  where: Callable[[int], tuple[int, int]], refused: int | None = None) -> list[Problem]:
    """What a hand's moves from ``start`` on can be checked for when the rules' replay cannot
    reach them (an earlier move broke a rule): a tile not of the game's set, a tile laid more
    often than the set holds it, a tile laid that the hand's ``left`` line also lists.  The
    set is the engine's (:meth:`Game.tile_set`); nothing here is a rule of play, only what a
    set of tiles is.  So a secretary fixes a sheet in one go.

    ``refused``: the typed move whose broken rule stopped the replay.  The rules did not let
    it be laid and its problem is listed already, so its tile is not counted as laid: a second
    problem at the same word (``left E also lists it``, after ``the hand is already over``) is
    the same mistake said again, not another one to fix."""
    from collections import Counter

    from domrec import tiles as T
    from domrec.notation.positions import _offsets

    offset = _offsets(text)

    def at(j: int) -> tuple[int, int]:  # (line and column of typed move j, worked out for a message only)
        return where(offset(hand.move_pos[j]))

    allowed = Counter(tile_set)
    seen: Counter = Counter()
    first: dict[Any, int] = {}
    listed: dict[Any, str] = {}
    kept: Counter = Counter()  # (a Domino Roads set holds some tiles twice: one laid, one kept)
    for seat, texts in (hand.left or {}).items():
        for t_text in texts:
            with contextlib.suppress(Exception):
                t = T.tile(t_text)
                listed.setdefault(t, seat)
                kept[t] += 1
    out = []
    hp = f"/hands/{hand.number - 1}"
    for j, d in enumerate(hand.moves):
        played = next((d[k] for k in _LAID if k in d), None)
        if not isinstance(played, str) or j == refused:
            continue
        try:
            t = T.tile(played)
        except Exception:
            t = None
        seen[t] += 1
        first.setdefault(t, j)
        message = None
        rule = "the set"
        if j >= start and (t is None or t not in allowed):
            line, col = at(j)
            message = f"{played} at {line}:{col} is not a tile of this game's set"
        elif j >= start and seen[t] > allowed[t]:
            line, col = at(j)
            was = at(first[t])
            message = (f"{played} at {line}:{col} is laid a second time in hand {hand.number} "
                       f"(it was laid at {was[0]}:{was[1]})") if allowed[t] == 1 else (
                f"{played} at {line}:{col} is laid more often than the set holds it ({allowed[t]})")
        elif t in listed and seen[t] + kept[t] > allowed[t]:
            line, col = at(j)
            message = f"{played} at {line}:{col} is laid in hand {hand.number}, but left {listed[t]} also lists it"
            rule = "the deal"
        if message is not None:
            out.append(attrs.evolve(Problem(f"{hp}/moves", message, rule, "illegal", hand=hand.number),
                                    line=line, column=col))
    return out


#: The fields of a move's data that name a tile it lays (the record format's: a play, and
#: Domino Roads' starter, span, bridge and road-block).
_LAID = ("play", "span", "starter", "bridge", "block")

#: What the walk from a position met, in order (see :meth:`HandReading._enter`): a reading's end
#: (its path from the position, its totals or ``None`` where the hand's close was refused), and
#: a position walked within it (its path from the position, that position's own events).  A
#: refused option is not kept: nothing is read from it again.
_LEAF = "leaf"
_SUB = "sub"

#: No option known refused before it is tried.
_NONE: frozenset = frozenset()

#: The one option of a move whose seat is typed, and of each seat (made once).
_TYPED = [Option(None)]
_OPTIONS: dict[tuple[str | None, str | None], Option] = {}


def _option(seat: str | None, on: str | None = None) -> Option:
    try:
        return _OPTIONS[seat, on]
    except KeyError:
        return _OPTIONS.setdefault((seat, on), Option(seat, on)) if len(_OPTIONS) < 4096 else Option(seat, on)


#: (complete, seat, the typed move's data as items) -> the move: an archive types the same moves
#: over and over, and a move is a frozen value, so each is built once.
_BUILT: dict[tuple, Any] = {}


def _built(seat: str | None, data: dict, complete: Callable[[dict], dict],
           build: Callable[[dict], Any] = structure_move) -> Any:
    """The move typed as ``data`` (its seat left out, or the same seat) made by ``seat``, as
    ``build`` makes it from its JSON data (a shape check may build it too, and may raise)."""
    values = data.values()
    if list in map(type, values) or dict in map(type, values):  # dice, captures, a bridge's ends…
        key = (complete, build, seat, *((k, _frozen(v)) for k, v in data.items()))
    else:
        key = (complete, build, seat, *data.items())
    try:
        move = _BUILT.get(key)
    except TypeError:  # (a value of another unhashable kind: built each time)
        return build(complete({"seat": seat, **data}))
    if move is None:
        move = build(complete({"seat": seat, **data}))
        if len(_BUILT) >= 20_000:  # (emptied when full: a long archive keeps its current moves)
            _BUILT.clear()
        _BUILT[key] = move
    return move


def _frozen(value: Any) -> Any:
    """``value`` with its lists and dicts made tuples, as a key (the types kept apart)."""
    if type(value) is list:
        return (list, *map(_frozen, value))
    if type(value) is dict:
        return (dict, *((k, _frozen(v)) for k, v in value.items()))
    return value


def _game_refused() -> type:
    """:class:`domrec.game.Refused` (the Game API is imported when a hand is read through it)."""
    global _REFUSAL
    if _REFUSAL is None:
        from domrec.game import Refused

        _REFUSAL = Refused
    return _REFUSAL


_REFUSAL: type | None = None


class _Refused(Exception):
    """The engine refused a reading's move (``refusal``, the Game's :class:`~domrec.game.Refused`).
    Its text is not made here: most refusals are one reading among many, never shown."""

    def __init__(self, refusal: Any) -> None:
        super().__init__()
        self.refusal = refusal


class _Totals(dict):
    """The totals a reading gives, and whether it ended its hand otherwise than the ``end`` line
    claims (:meth:`HandReading._claimed`): kept with them, as readings taken again from a
    position met before (:meth:`HandReading._take`) give back the totals recorded there."""

    __slots__ = ("ended_otherwise",)

    def __init__(self, totals: dict[str, int]) -> None:
        super().__init__(totals)
        self.ended_otherwise = False


def _key(scores: dict[str, int]) -> tuple:
    return tuple(sorted(scores.items()))


def _scores_text(scores: dict[str, int]) -> str:
    return ", ".join(f"{side} {n}" for side, n in scores.items())
