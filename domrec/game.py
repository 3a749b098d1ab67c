"""A game built move by move: the API behind the DGN reader and the recorder.

Modelled on python-chess's ``Board``: start a game for a record's players and
rules, ask whose turn it is and (where the deal is known) the legal moves,
:meth:`Game.push` a move — refused at once with the rule's sentence when it is
illegal, and then nothing changes — :meth:`Game.pop` it again, read the
running scores, and get the :class:`~domrec.record.Record` at any moment.

There is one replay path.  Moves are applied by the game's engine exactly as
:func:`domrec.validate.validate` applies them, and whenever the Game has to
rebuild its position (after :meth:`pop`, after a refused move, when a hand
whose deal was not known is closed) it replays the record so far through
:func:`~domrec.validate.validate` itself and continues from the engine state
that replay leaves.  So nothing here knows a rule.

A hand may be started without its deal (people at a table rarely write it).
Its moves are then checked as far as the tiles already shown allow (the
engine's *open* hand: turn order, tiles of the set not already seen, where a
tile fits, the points); when the hand is closed with the tiles each player
still held (:meth:`end_hand` with ``left``), the deal is worked out
(:mod:`domrec.deals`) and the whole hand is checked again with it.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable, Mapping, Sequence

import attrs

from domrec import deals, games, shape
from domrec.errors import DealError, DomrecError, RuleViolation
from domrec.games.base import HandOutcome, HandState, Match, copy_match, partnership_side, winner_of
from domrec.record import Deal, GameResult, Hand, HandResult, Move, Pass, Player, Record, Rules, converter
from domrec.validate import Problem, Report, validate


class GameError(DomrecError):
    """The Game cannot do what was asked (no hand started, nothing to pop, …)."""


class Refused(RuleViolation):
    """A move, deal or hand the rules do not allow; ``problem`` says where and why.  ``left``: the
    tile of the ``left`` line it is in (:class:`~domrec.errors.DealError`), where one is."""

    def __init__(self, problem: Problem, left: tuple[str, int] | None = None) -> None:
        super().__init__(problem.message, problem.rule, problem.pointer)
        self.problem = problem
        self.left = left

    def __str__(self) -> str:
        return self.problem.text()


class _Watch:
    """Observer of a replay: keeps the match, the last hand's state and each move's points."""

    def __init__(self) -> None:
        self.state: HandState | None = None
        #: The match's totals when the last hand started (before its moves).
        self.before: dict[str, int] | None = None
        self.points: list[list[int]] = []
        self.outcomes: dict[int, HandOutcome] = {}
        #: A copy of the match after each hand the replay finished (index: the hands before it),
        #: from which a later replay may resume.
        self.after: dict[int, Match] = {}

    def match_started(self, match: Match) -> None:
        self.match = match

    def hand_started(self, index: int, hand: Hand, state: HandState) -> None:
        self.state = state
        self.before = dict(self.match.totals)
        while len(self.points) <= index:
            self.points.append([])

    def moved(self, index: int, move: Move, points: int, state: HandState) -> None:
        self.points[-1].append(points)

    def hand_finished(self, index: int, outcome: HandOutcome, match: Match) -> None:
        self.outcomes[index] = outcome
        self.after[index + 1] = copy_match(match)
        while len(self.points) <= index:
            self.points.append([])


class Game:
    """One game (a record) being built.

    Its variant and options are held to the record's shape first (:func:`domrec.shape.check_rules`):
    a name or value a JSON record could not have raises :class:`~domrec.errors.ShapeError`, as
    reading that record would, before the engine sees them."""

    def __init__(self, game: str, players: Iterable[Player | tuple[str, str] | str], *,
                 variant: str | None = None, options: Mapping[str, Any] | None = None,
                 event: Mapping[str, Any] | None = None, version: str = "1.0") -> None:
        people = []
        for p in players:
            if isinstance(p, Player):
                people.append(p)
            elif isinstance(p, tuple):
                people.append(Player(seat=p[0], name=p[1]))
            else:
                people.append(Player(seat=p, name=p))
        rules = Rules(variant=variant, options=dict(options) if options else None) if (variant or options) else None
        self._template = Record(version=version, game=game, rules=rules, event=dict(event) if event else None,
                                players=tuple(people))
        self.engine = games.engine(game)
        if rules is not None:
            # The variant and options held to the record's shape before the engine reads them, as a
            # JSON record's are (an option's wrong value is the record's, unusable: not a rule broken).
            shape.check_rules(converter.unstructure(rules, Rules), game)
        self._hands: list[Hand] = []
        self._current: Hand | None = None
        self._moves: list[Move] = []
        self._points: list[int] = []
        self._match: Match = self.engine.start(self._template)
        self._state: HandState | None = None
        self._result: GameResult | None = None
        self._ended: str | None = None
        self._watch = _Watch()
        #: ``_snaps[k]``: a copy of the match as it stood after the first ``k`` hands (before hand
        #: ``k + 1``), kept while those hands stay as they are.  A replay resumes from the last
        #: one instead of replaying the whole record, so closing a hand costs that hand only.
        self._snaps: list[Match] = [copy_match(self._match)]
        #: id(hand) -> (hand, whether it needs format 1.1), for :meth:`record` (the hand is kept, so
        #: its id is not reused while the entry lives).
        self._seen_11: dict[int, tuple[Hand, bool]] = {}
        self._forget_legal()
        #: The template and its seats (see :attr:`seats`).
        self._seats: tuple[Record, tuple[str, ...]] | None = None

    def _forget_legal(self) -> None:
        """No legal moves kept yet (see :meth:`legal_moves`)."""
        #: Moves pushed so far (refused ones too): with the engine's state object, the key of the
        #: position whose legal moves are kept in :attr:`_legal`.
        self._pushes = 0
        #: (state, pushes, the legal moves then), or None.
        self._legal: tuple[HandState | None, int, tuple[Move, ...]] | None = None

    # --- building from a record -------------------------------------------------

    @classmethod
    def from_record(cls, record: Record) -> "Game":
        """A Game at the end of ``record``; an unfinished last hand stays open for more moves.

        Raises :class:`Refused` when the record breaks a rule (its first problem)."""
        g = cls.__new__(cls)
        g._template = attrs.evolve(record, hands=(), result=None, ended=None)
        g.engine = games.engine(record.game)
        g._result = record.result
        g._ended = record.ended
        hands = list(record.hands)
        g._hands, g._current, g._moves, g._points = hands, None, [], []
        g._snaps = []
        g._seen_11 = {}
        g._forget_legal()
        g._seats = None
        g._rebuild(current_too=True)
        last = hands[-1] if hands else None
        if last is not None and not last.score_sheet and (len(hands) - 1) not in g._watch.outcomes:
            # The last hand is not over (whether or not its result is written): it goes on.
            g._hands, g._current, g._moves = hands[:-1], attrs.evolve(last, moves=(), result=None), list(last.moves)
            g._rebuild(current_too=True)
        return g

    # --- what a caller reads ------------------------------------------------------

    @property
    def game(self) -> str:
        return self._template.game

    @property
    def seats(self) -> tuple[str, ...]:
        seats = self._seats
        if seats is None or seats[0] is not self._template:  # (the record's seats are made at each call)
            seats = self._seats = (self._template, self._template.seats)
        return seats[1]

    @property
    def totals(self) -> dict[str, int]:
        """The running totals: the closed hands, plus the points of the current hand's moves
        (a Horse Race peg or a Broadway point counts at once; end-of-hand scores when it closes)."""
        if self._current is None:
            return dict(self._match.totals)
        totals = dict(self._watch.before if self._watch.before is not None else self._match.totals)
        for move, points in zip(self._moves, self._points):
            if points:
                side = move.seat if move.seat in totals else partnership_side(move.seat)
                totals[side] = totals.get(side, 0) + points
        return totals

    @property
    def over(self) -> bool:
        """Every hand the rules play is closed (or the clock ended the game).  A hand in play is
        not closed, even where its moves have reached its end: the match the last replay of the
        record kept (:meth:`_rebuild`, after an undo reopened the last hand) has that hand
        finished, as a record's hand is, and must not make the game over before it closes."""
        return self._ended is not None or (self._current is None and self._match.over)

    def tile_set(self) -> list[str]:
        """Every tile of the set this game is played with, as the engine has it (a Domino Roads
        set holds some tiles twice): what a scorer may pick from when the deal is not entered."""
        return list(self._match.tile_set())

    @property
    def deal_rule(self) -> str:
        """The rule a deal's own slips are said under in this game (a tile dealt twice): the
        recorder's check of a deal line names the rule a validation names."""
        return self._match.deal_rule

    @property
    def winner(self) -> str | None:
        if self._current is not None:  # a hand in play: nobody has won yet (see :attr:`over`)
            return None
        if self._ended is not None and not self._match.over:
            return winner_of(dict(self._match.totals)) if self._match.totals else None
        return self._match.winner if self._match.over else None

    @property
    def ended(self) -> str | None:
        """``"time"`` once :meth:`end_on_time` stopped the game (format 1.1's ``ended``)."""
        return self._ended

    def end_on_time(self) -> None:
        """Stop the game because the event's time limit is reached: the side ahead wins.

        Federations let the hand under way be played to its end when time is
        called, so only a game between hands can be stopped; and a game that
        is over by its own rules was not stopped by the clock.
        """
        if self._current is not None:
            raise GameError(f"hand {self.hand_number} is still being played: a hand under way when time is "
                            f"called is played to its end, then the game ends on time")
        if self._hands and (len(self._hands) - 1) not in self._watch.outcomes:
            raise GameError(f"hand {len(self._hands)} is not over, so the game cannot end on time yet")
        if self._match.over:
            raise GameError(f"the game is over anyway ({_totals(self._match.totals)}): it did not end on time")
        self._ended = "time"

    @property
    def in_hand(self) -> bool:
        """A hand is started and not yet closed."""
        return self._current is not None

    @property
    def deal_known(self) -> bool:
        return self._current is not None and self._current.deal is not None and bool(self._current.deal.hands)

    @property
    def hand_over(self) -> bool:
        return self._state is not None and self._state.over

    @property
    def hand_number(self) -> int:
        """The current hand (1-based), or the number of hands so far."""
        return len(self._hands) + (1 if self._current is not None else 0)

    @property
    def to_move(self) -> str | None:
        return self._state.to_move if self._state is not None and not self._state.over else None

    @property
    def state(self) -> HandState | None:
        """The engine's state of the current hand (read-only use: render, holdings)."""
        return self._state

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def points(self) -> tuple[int, ...]:
        """What each move of the current hand scored, in order."""
        return tuple(self._points)

    def legal_moves(self) -> list[Move]:
        """Every legal move now.  Empty when no hand is being played or the deal is not known
        (then the legal moves depend on tiles nobody has shown).

        Asked for several times a move (the recorder's check for a forced pass before a move and
        after it, the page's list of moves), the list is worked out by the engine once a position
        and kept: a position is the engine's state object (every rebuild, restore or new hand
        makes a new one) and the moves pushed into it (:meth:`push`, refused ones included, is
        the only way its state changes in place).  Each caller gets a list of its own."""
        kept = self._legal
        if kept is not None and kept[0] is self._state and kept[1] == self._pushes:
            return list(kept[2])
        moves = self._legal_now()
        self._legal = (self._state, self._pushes, tuple(moves))
        return moves

    def _legal_now(self) -> list[Move]:
        """:meth:`legal_moves`, asked of the engine."""
        if self._state is None:
            return []
        if self._state.over:
            return self.closing_moves()
        if not self.deal_known:
            return []
        if self._leader_free():
            return self._free_leads()
        return self._state.legal_moves()

    def _leader_free(self) -> bool:
        """The rules leave this hand's leader free and the record names none (a Horse Race hand
        led by lot): nobody is to move yet, and the first move's seat leads (see :meth:`push`)."""
        state = self._state
        return state is not None and state.to_move is None and not self._moves and not state.over

    def _free_leads(self) -> list[Move]:
        """Every seat's lead, while the leader is free: the engine's legal moves of the hand started
        again (on a copy of the match as it stood before the hand) with each seat as its leader."""
        assert self._current is not None
        before = self._snaps[len(self._hands)] if len(self._snaps) > len(self._hands) else None
        if before is None:
            return []
        moves: list[Move] = []
        for seat in self.seats:
            try:
                state = copy_match(before).start_hand(attrs.evolve(self._current, leader=seat))
            except RuleViolation:  # this seat may not lead (the engine says why when it is tried)
                continue
            if state.to_move == seat:
                moves.extend(state.legal_moves())
        return moves

    def possible_moves(self) -> list[Move]:
        """Without the deal: every move that may be legal now, where the engine can list them
        (Castle Rock and Domino Roads, whose moves mostly need no hidden tile: captures, draws,
        dice); a move of a tile is listed when the mover may hold it.  Empty for the others and
        when no hand is being played; with the deal, the legal moves."""
        if self._state is None:
            return []
        if self.deal_known or self._state.over:
            return self.legal_moves()
        listing = getattr(self._state, "possible_moves", None)
        return listing() if listing is not None else []

    def closing_moves(self) -> list[Move]:
        """Moves a hand that is over still takes (Castle Rock's last captures, which need only
        the row, so they are known even without the deal)."""
        if self._state is None or not self._state.over:
            return []
        closing = getattr(self._state, "closing_moves", None)
        return closing() if closing is not None else []

    def forced_pass(self) -> bool:
        """The player to move can only pass (and the deal is known, so this is certain).

        An engine may answer this itself (``only_pass()``, the same answer as its legal moves
        being one pass): it is asked before every move of a text that leaves its forced passes
        out, where listing the moves was most of the cost."""
        state = self._state
        if state is not None and not state.over and self.deal_known and not self._leader_free():
            only_pass = getattr(state, "only_pass", None)
            if only_pass is not None:
                return only_pass()
        legal = self.legal_moves()
        return len(legal) == 1 and type(legal[0]) is Pass

    # --- hands ---------------------------------------------------------------------

    def start_hand(self, deal: Deal | None = None, leader: str | None = None, comment: str | None = None) -> None:
        """Begin the next hand, with its deal, or without it (``None``, or a Deal of public parts
        only: ``hands={}``), and the leader where the record says it.  Raises :class:`Refused`."""
        self._check_next_hand()
        if deal is not None and deal.empty:
            deal = None
        self._current = Hand(leader=leader, deal=deal, comment=comment)
        self._moves, self._points = [], []
        self._watch.before = dict(self._match.totals)
        self._keep_snapshot()
        try:
            self._state = self._begin(self._current)
        except RuleViolation as e:
            self._current, self._state = None, None
            self._rebuild()  # the engine counted the hand before refusing it: back to where it was
            where = e.where if isinstance(e, DealError) else e.pointer
            raise Refused(Problem(f"/hands/{len(self._hands)}{where}", e.message, e.rule, "deal",
                                  hand=len(self._hands) + 1)) from None

    def _keep_snapshot(self) -> None:
        """Before hand ``k + 1`` starts (``k`` hands closed): keep a copy of the match as it
        stands, unless the last replay already left one."""
        k = len(self._hands)
        del self._snaps[k + 1:]
        if len(self._snaps) == k:
            self._snaps.append(copy_match(self._match))

    def _begin(self, hand: Hand) -> HandState:
        if hand.deal is not None and hand.deal.hands:
            return self._match.start_hand(hand)
        return self._match.start_open_hand(hand)

    def _check_next_hand(self) -> None:
        """A next hand may be played (started, or recorded by its result alone): no hand in play,
        the game neither over nor ended on time, and the last hand closed over (one kept as it
        was stopped, not over, ends the game's hands: a record's reader refuses a hand after it)."""
        if self._current is not None:
            raise GameError(f"hand {self.hand_number} is not closed yet")
        if self._match.over:
            raise GameError(f"the game is over ({_totals(self._match.totals)}): no further hand is played")
        if self._ended is not None:
            raise GameError(f"the game ended on time ({_totals(self._match.totals)}): no further hand is played")
        if self._hands and (len(self._hands) - 1) not in self._watch.outcomes:
            raise GameError(f"hand {len(self._hands)} is not over, so the next hand cannot start")

    def add_score_sheet_hand(self, scores: Mapping[str, int], end: str | None = None,
                             leader: str | None = None, comment: str | None = None) -> HandOutcome:
        """A hand recorded by its result alone, as on a paper score sheet."""
        self._check_next_hand()
        hand = Hand(leader=leader, result=HandResult(scores=dict(scores), end=end), comment=comment)
        self._keep_snapshot()
        self._hands.append(hand)
        n = len(self._hands)
        try:
            report = self._rebuild()
            if n - 1 not in self._watch.outcomes:  # the rules refuse these scores
                problem = next((p for p in report.problems if p.hand == n), None) or Problem(
                    f"/hands/{n - 1}", "this score-sheet hand cannot be played here", "", "score", hand=n)
                raise Refused(problem)
        except Refused:
            self._hands.pop()
            self._rebuild()
            raise
        return self._watch.outcomes[n - 1]

    def push(self, move: Move, repair: bool = True) -> int:
        """Play ``move`` (its ``seat`` says who); return the points it earns the mover's side.

        An illegal move raises :class:`Refused` naming the rule, and the game is as before
        (``repair``: the hand is replayed, as the engine may have changed part of its state
        before refusing).  A caller that will :meth:`restore` a checkpoint anyway passes
        ``repair=False`` and saves that replay."""
        if self._current is None or self._state is None:
            raise GameError("no hand is being played: start one first")
        self._pushes += 1  # the position changes (a refused move may have changed part of the state too)
        if self._state.to_move is None and not self._moves and self.deal_known and not self._state.over:
            # The rules leave this hand's leader free and the record names none: the first
            # move's seat leads, as in a JSON record (the engine reads it from the hand's moves).
            return self._push_first(move)
        try:
            points = self._state.apply(move)
        except RuleViolation as e:
            hand, j = len(self._hands), len(self._moves)
            if repair and not self.refusal_keeps_state:
                self._rebuild()  # the engine may have changed part of its state before refusing
            raise Refused(Problem(f"/hands/{hand}/moves/{j}{e.pointer}", e.message, e.rule, "illegal",
                                  hand=hand + 1, move=j + 1, seat=move.seat)) from None
        self._moves.append(move)
        self._points.append(points)
        return points

    # --- trying readings (the DGN reader, where the text leaves a choice) ----------------

    def movers(self) -> list[str]:
        """The seats that may make the next move, as the engine sees it: the player to move,
        and, where tiles nobody has shown decide it, the others who may (a Horse Race chain
        under ``chain_draw: false`` that may have ended unwritten).  Empty when nobody may."""
        state = self._state
        if state is None or state.over:
            return []
        ask = getattr(state, "movers", None)
        if ask is not None:
            return list(ask())
        return [state.to_move] if state.to_move is not None else []

    def places(self, play: str) -> frozenset | None:
        """The tiles on the table that the tile written ``play`` may be set on now, as the engine
        says (its hand state's ``places``): it refuses that tile set on any other.  ``None`` where
        the engine does not say, or ``play`` is not a tile."""
        ask = getattr(self._state, "places", None)
        if ask is None:
            return None
        from domrec import tiles as T

        try:
            return frozenset(ask(T.tile(play)))
        except T.TileError:
            return None

    @property
    def refusal_keeps_state(self) -> bool:
        """Whether a move the engine refuses leaves the hand as it was even under ``push(...,
        repair=False)`` (the engine says so: ``refusal_keeps_state`` on its hand state), so a
        reader trying moves need not :meth:`restore` after a refusal."""
        return getattr(self._state, "refusal_keeps_state", False)

    def position_key(self) -> tuple | None:
        """The position in the current hand as a value, from the engine's ``position_key`` (``None``
        where the engine gives none): two Games in the same hand with equal keys accept the same
        moves from here on, end the hand alike and give the same totals, whatever moves led to
        each.  The DGN reader merges the readings of a hand that reach one position."""
        state = self._state
        key = getattr(state, "position_key", None)
        if key is None:
            return None
        return len(self._hands), len(self._moves), tuple(self._points), tuple(self._match.totals.items()), key()

    def checkpoint(self) -> "Checkpoint":
        """Everything :meth:`push`, :meth:`end_hand` and :meth:`start_hand` change, to come back
        to with :meth:`restore`: how a reader tries one reading of a text, then another, on the
        engine itself (a copy of its state), never by knowing a rule."""
        match, state = _engine_copy(self._match, self._state)
        return Checkpoint(match, state, tuple(self._moves), tuple(self._points), self._current, tuple(self._hands),
                          tuple(self._snaps), self._watch, self._watch.before)

    def fork(self) -> "Game":
        """An independent copy of this game as it stands, for a look ahead (the table's page shows
        an announced hand started on a copy before its first move).  The engine's state is copied
        and the hands, frozen values, are shared: the cost is the state of one hand, where a copy
        made from :meth:`record` replays the whole game."""
        point = self.checkpoint()
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._restore(point, point.match, point.state)  # the checkpoint's copy is the twin's alone: not copied again
        twin._watch = copy.copy(self._watch)  # its ``before`` is the twin's own from now on
        twin._seen_11 = dict(self._seen_11)
        return twin

    def restore(self, point: "Checkpoint", last: bool = False) -> None:
        """Back to ``point`` (it stays usable: the engine's state is copied again).  ``last``: the
        caller will not come back to ``point`` again, so its copy is taken as it is (a reader
        trying the last reading of a choice saves a copy of the hand)."""
        if last:
            self._restore(point, point.match, point.state)
            return
        self._restore(point, *_engine_copy(point.match, point.state))

    def _restore(self, point: "Checkpoint", match: Any, state: Any) -> None:
        self._match, self._state = match, state
        self._moves, self._points = list(point.moves), list(point.points)
        self._current, self._hands, self._snaps = point.current, list(point.hands), list(point.snaps)
        self._watch = point.watch
        self._watch.before = point.before

    def abandon_hand(self) -> None:
        """Forget the current hand while it has no move yet (to start it again, e.g. with its deal)."""
        if self._current is None:
            raise GameError("no hand is being played")
        if self._moves:
            raise GameError(f"hand {self.hand_number} has moves: take them back first")
        self._current, self._state = None, None
        self._rebuild()  # the engine counted the hand when it started

    def forget_hand(self) -> None:
        """Forget the current hand, moves and all, as if it had not been started.

        The DGN reader uses it for a hand whose text breaks a rule or cannot be read: the hand
        cannot be taken to its end, so the reader puts its written result in its place
        (:meth:`add_score_sheet_hand`) and goes on with the next hand.  The match is rebuilt
        from the copy kept before the hand, so whatever a refused move left is gone too."""
        if self._current is None:
            raise GameError("no hand is being played")
        self._current, self._state, self._moves, self._points = None, None, [], []
        del self._snaps[len(self._hands) + 1:]
        self._rebuild()

    def _push_first(self, move: Move) -> int:
        self._moves.append(move)
        try:
            self._rebuild(strict=True)
        except Refused:
            self._moves.pop()
            self._rebuild()
            raise
        return self._points[-1] if self._points else 0

    def reopen(self, deal_before: Deal | None = None, *, worked_out: bool = False) -> Hand:
        """Bring the last closed hand back in play as it was, every move of it kept (the hand
        closed is returned).  The recorder's ``undo`` after a hand closed before it was over
        (``end`` typed mid-hand: "kept as it stands (undo reopens it)") reopens it so, where
        :meth:`pop` would take back its last move as well.  ``worked_out``: the hand's deal was
        worked out at its close from the tiles left (a ``left`` line), and the recorder's
        ``undo`` takes that line back, so the deal goes back to what was known of it before,
        ``deal_before`` (``None``: nothing); the hand then asks for its ``left`` line again, where
        :meth:`pop` keeps the worked-out deal.  Raises :class:`GameError` where a
        hand is in play, or where the last hand is a score-sheet hand (it has no moves to go on
        with: :meth:`pop` takes it back whole)."""
        if self._current is not None:
            raise GameError(f"hand {self.hand_number} is in play")
        if not self._hands:
            raise GameError("no hand has been closed")
        last = self._hands[-1]
        if last.score_sheet:
            raise GameError(f"hand {len(self._hands)} was recorded by its score alone: there is nothing to reopen")
        self._hands.pop()
        self._result, self._ended = None, None
        deal = deal_before if worked_out and deal_before is not None and not deal_before.empty else None
        self._current = attrs.evolve(last, moves=(), result=None, deal=deal if worked_out else last.deal)
        self._moves = list(last.moves)
        self._rebuild()
        return last

    def pop(self) -> Move | Hand:
        """Take back the last move.  At the start of a hand that is the previous hand's last
        move, and that hand reopens (:meth:`reopen` reopens it without taking a move back); a
        score-sheet hand is taken back whole (and returned)."""
        while True:
            if self._current is not None and self._moves:
                move = self._moves.pop()
                self._rebuild()  # also recounts the points of the moves that remain
                return move
            if self._current is not None:  # an empty hand: close it and look at the one before
                self._current, self._state = None, None
            if not self._hands:
                self._rebuild()
                raise GameError("there is no move to take back")
            last = self._hands.pop()
            self._result, self._ended = None, None
            if last.score_sheet:  # taken back whole, and alone
                self._rebuild()
                return last
            self._current, self._moves = attrs.evolve(last, moves=(), result=None), list(last.moves)

    def end_hand(self, left: Mapping[str, Sequence[str]] | None = None,
                 claim: HandResult | None = None) -> HandOutcome | None:
        """Close the current hand.

        Where the deal was not known, ``left`` (the tiles each seat still held)
        lets it be worked out; the hand is then checked in full with that deal,
        and :class:`Refused` says what is wrong.  Where the deal was known and
        ``left`` is given, it must be what the seats really hold.  ``claim`` is
        the hand's written result, kept in the record (and checked by
        :func:`~domrec.validate.validate`).  Returns the hand's outcome, or
        ``None`` for a hand that is not over (it is kept as it is).
        """
        if self._current is None:
            raise GameError("no hand is being played")
        n = len(self._hands)
        before, moves = self._current, list(self._moves)
        if not self.deal_known:
            hand = attrs.evolve(before, moves=tuple(moves), result=claim, deal=self.infer_deal(left or {}))
        else:
            hand = attrs.evolve(before, moves=tuple(moves), result=claim)
            if left is not None:
                self._check_left(left)
        self._hands.append(hand)
        self._current, self._moves, self._points = None, [], []
        try:
            self._rebuild(strict=True)
        except Refused:
            self._hands.pop()
            self._current, self._moves = before, moves
            self._rebuild()
            raise
        return self._watch.outcomes.get(n)

    def outcome_of(self, number: int) -> HandOutcome | None:
        """How closed hand ``number`` (1-based) ended, as the replay computed it; ``None`` for a
        hand not closed (the hand in play: a replay after an undo may have finished it)."""
        if number > len(self._hands):
            return None
        return self._watch.outcomes.get(number - 1)

    def claim_last_hand(self, claim: HandResult | None) -> None:
        """The written result of the last closed hand (kept in the record, checked by validation)."""
        if not self._hands:
            raise GameError("no hand has been closed")
        self._hands[-1] = attrs.evolve(self._hands[-1], result=claim)
        del self._snaps[len(self._hands):]  # (a claim changes no match; kept strict all the same)

    def comment_hand(self, text: str) -> None:
        """Add ``text`` to the comment of the hand in play, or else of the last hand closed (a
        comment written on a deal, ``left`` or ``end`` line is its hand's, as DGN reads it)."""
        if self._current is not None:
            was = self._current.comment
            self._current = attrs.evolve(self._current, comment=text if was is None else f"{was}\n{text}")
            return
        if not self._hands:
            raise GameError("no hand to comment on")
        was = self._hands[-1].comment
        self._hands[-1] = attrs.evolve(self._hands[-1], comment=text if was is None else f"{was}\n{text}")

    def infer_deal(self, left: Mapping[str, Sequence[str]]) -> Deal:
        """The current hand's deal from its moves and ``left`` (:mod:`domrec.deals`)."""
        if self._current is None or self._state is None:
            raise GameError("no hand is being played")
        n = len(self._hands)
        try:
            return deals.infer(self._match, self._state, n + 1, self.seats, self._moves, left, self._current.deal)
        except DealError as e:
            raise Refused(Problem(f"/hands/{n}{e.where}", e.message, e.rule, "deal", hand=n + 1), e.left) from None

    def left_problem(self, left: Mapping[str, Sequence[str]]) -> Problem | None:
        """What makes ``left`` impossible now (a tile already played, a count the moves do not
        leave, tiles that are not the ones held), or ``None``: a recorder refuses such a line
        at once, naming it, instead of keeping it for the hand's close to trip on.  A seat
        left out is no problem yet (the hand may not be over)."""
        if self._current is None or self._state is None:
            raise GameError("no hand is being played")
        n = len(self._hands)
        try:
            if self.deal_known:
                self._check_left(left)
            else:
                deals.infer(self._match, self._state, n + 1, self.seats, self._moves, left, self._current.deal)
        except Refused as e:
            return e.problem
        except deals.MissingLeft:
            return None
        except DealError as e:
            return Problem(f"/hands/{n}{e.where}", e.message, e.rule, "deal", hand=n + 1)
        return None

    def _check_left(self, left: Mapping[str, Sequence[str]]) -> None:
        from domrec import tiles as T

        n = len(self._hands)
        holds = self._state.holdings()
        for seat, texts in left.items():
            said = sorted((T.tile(x) for x in texts), key=lambda t: (t.high, t.low))
            real = sorted(holds.get(seat, []), key=lambda t: (t.high, t.low))
            if said != real:
                shown = " ".join(str(t) for t in real) or "nothing"
                raise Refused(Problem(f"/hands/{n}/deal/hands/{seat}", f"left {seat} does not match the deal and "
                                      f"the moves: {seat} still holds {shown}", deals.RULE, "deal", hand=n + 1))

    # --- the record ------------------------------------------------------------------

    def set_result(self, result: GameResult | None) -> None:
        """The game's claimed result (kept in the record and checked by validation)."""
        self._result = result

    def hands(self) -> tuple[Hand, ...]:
        """The hands of :meth:`record`, without making the whole record (a table's page reads
        them at every move): the closed ones, and the current one with its moves so far."""
        if self._current is None:
            return tuple(self._hands)
        return (*self._hands, attrs.evolve(self._current, moves=tuple(self._moves)))

    def record(self) -> Record:
        """The record so far: closed hands, the current hand's moves (its deal if known)."""
        return self._record(self._result, self._ended)

    def _record(self, result: GameResult | None, ended: str | None) -> Record:
        """:meth:`record` with this result and ``ended`` (the version still counts the game's own)."""
        hands = list(self._hands)
        if self._current is not None:
            hands.append(attrs.evolve(self._current, moves=tuple(self._moves)))
        version = self._template.version
        if version == "1.0" and (self._ended is not None or any(self._needs_11(h) for h in hands)):
            version = "1.1"  # score-sheet hands, hands without their deal, comments, a game ended on time
        return attrs.evolve(self._template, version=version, hands=tuple(hands), result=result, ended=ended)

    def _needs_11(self, hand: Hand) -> bool:
        """:func:`_needs_11`, remembered for the closed hands: the record is made at every hand's
        close, and looking at every earlier hand's every move again made building a game quadratic."""
        seen = self._seen_11
        key = id(hand)
        known = seen.get(key)
        if known is not None and known[0] is hand:
            return known[1]
        needs = _needs_11(hand)
        if len(seen) > 4 * len(self._hands) + 64:
            seen.clear()  # (hands taken back or replaced: forget them)
        seen[key] = (hand, needs)
        return needs

    def report(self, source: str = "<game>") -> Report:
        """The validator's verdict on :meth:`record`."""
        return validate(self.record(), source)

    # --- rebuilding through the one replay path --------------------------------------

    def _rebuild(self, strict: bool = False, current_too: bool = False) -> Report:
        """Replay the record so far through :func:`validate` and continue from its engine state.

        Claims are not the Game's business (validation reports them), but a
        rule problem is: with ``strict`` any illegal move or bad deal raises
        :class:`Refused` (the first one)."""
        record = self._record(None, None)  # (its version as record() has it)
        watch = _Watch()
        closed = len(self._hands)
        del self._snaps[closed + 1:]  # hands taken back: the matches after them are gone
        start = len(self._snaps) - 1
        if start >= 1:
            # The hands before ``start`` are as the last replay found them: resume after them.
            watch.outcomes = {k: v for k, v in self._watch.outcomes.items() if k < start}
            report = validate(record, observer=watch, resume=(copy_match(self._snaps[start]), start))
        else:
            start = 0
            report = validate(record, observer=watch)
        # Outside ``strict``, only closed hands must be sound: the current one is the Game's to
        # judge move by move (and a hand whose deal is not known cannot be over yet).
        bad = [p for p in report.problems if p.kind in ("illegal", "deal", "setup", "unfinished")
               and (strict or (p.kind != "unfinished" and (current_too or p.hand is None or p.hand <= closed)))]
        if bad:
            raise Refused(bad[0])
        self._match = watch.match
        self._watch = watch
        if not self._snaps:  # (a Game built from a record)
            self._snaps = [self.engine.start(self._template)]
        del self._snaps[start + 1:]
        for k in range(start + 1, closed + 1):
            if k not in watch.after:
                break
            self._snaps.append(watch.after[k])
        if self._current is not None:
            self._state = watch.state
            self._points = list(watch.points[len(self._hands)]) if len(watch.points) > len(self._hands) else []
            if self._state is None:  # an empty current hand: validation did not start it
                self._watch.before = dict(self._match.totals)
                self._state = self._begin(self._current)
        else:
            self._state = None
        return report


@attrs.frozen
class Checkpoint:
    """A Game as it stood (:meth:`Game.checkpoint`); the engine's state is a private copy."""

    match: Any
    state: Any
    moves: tuple
    points: tuple
    current: Any
    hands: tuple
    snaps: tuple
    watch: Any
    before: Any


def _engine_copy(match: Match, state: HandState | None) -> tuple[Match, HandState | None]:
    """The match and the hand state copied by the engine's own ``clone`` (one copy of the match,
    which the state may refer to): a checkpoint's private copy, cheaper than a deep copy."""
    memo: dict[int, Any] = {}
    return match.clone(memo), (state.clone(memo) if state is not None else None)


def _needs_11(hand: Hand) -> bool:
    return (hand.deal is None or not hand.deal.hands or hand.comment is not None
            or any(m.comment is not None for m in hand.moves))


def _totals(totals: Mapping[str, int]) -> str:
    return ", ".join(f"{side} {n}" for side, n in totals.items())
