"""The positions of a replay, caught as validation runs it.

A :class:`Camera` is an observer on :func:`domrec.validate.validate`: the
engines play the record exactly as when it is checked, and at each wanted
moment the game's picture module draws the state the engine holds.  So a
picture never disagrees with a verdict: it is drawn from the same replay.

Moves are counted within a hand from 1; move 0 is the deal, before anyone
has played.  Without a move number a picture shows the end of the hand, or,
when the hand stops at an illegal move, the table just before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from domrec.errors import DomrecError, clip, plain_direction
from domrec.explain import describe_move
from domrec.games.base import HandOutcome, HandState, Match
from domrec.pictures import Board, drawer, frame, scener, svg
from domrec.record import Hand, Move, Record
from domrec.tiles import Tile
from domrec.validate import Problem, Report, validate

GAME_TITLES = {
    "competitive": "Competitive dominoes",
    "horse-race": "Horse Race",
    "castle-rock": "Castle Rock",
    "domino-roads": "Domino Roads",
    "broadway": "Broadway",
}


class PictureError(DomrecError):
    """A position that cannot be drawn: no such hand or move, or the replay never got there."""


@attrs.frozen
class Position:
    """The table at one moment of one hand, ready to be framed."""

    game: str
    hand: int                     # 1-based
    move: int                     # moves made in the hand so far (0: the deal)
    moves: int                    # moves the record gives for the hand
    last: str | None              # the last move in words, ``None`` at the deal
    last_seat: str | None
    points: int                   # what the last move scored
    scores: dict[str, int]        # running totals: the game so far and this hand's points
    holdings: dict[str, tuple[Tile, ...]]
    hidden: dict[str, int]        # tiles held but not known (a hand recorded without its deal)
    names: dict[str, str]
    to_move: str | None
    #: The board as plain values (the game's picture module's ``scene``), drawn when asked.
    scene: dict
    #: Set on a hand's last position once the hand is scored: how it ended and what each side made.
    ended: str | None = None
    hand_scores: dict[str, int] | None = None

    @property
    def board(self) -> Board:
        """The board drawn from :attr:`scene` (drawn anew each time it is asked for)."""
        return drawer(self.game)(self.scene)

    def board_at(self, scale: float) -> Board:
        """The board laid out as on a wide screen, its texts sized for ``scale`` (``frame.draw``)."""
        return drawer(self.game)(self.scene, None, scale)

    def board_in(self, room: float) -> Board:
        """The board drawn from :attr:`scene` for ``room`` px of a phone's felt (``frame.draw_narrow``)."""
        return drawer(self.game)(self.scene, room)

    def header_lines(self) -> list[str]:
        title = f"{GAME_TITLES.get(self.game, self.game)} · hand {self.hand} · "
        title += "the deal" if self.move == 0 else f"move {self.move} of {self.moves}"
        if self.ended is not None:
            title += f" · hand over ({self.ended})"
        if self.last is None:
            last = "Nothing played yet" + (f"; {self.to_move} to play" if self.to_move else "")
        else:
            name = self.names.get(self.last_seat or "", "")
            last = f"Last: {clip(self.last, 90)}" + (f" ({clip(name, 24)})" if name else "")
            last += f", scoring {self.points}" if self.points else ""
        scores = ("Totals after the hand: " if self.hand_scores is not None else "Scores: ") + " · ".join(
            f"{side} {n}" for side, n in self.scores.items())
        if self.hand_scores is not None:
            made = [f"{side} {n:+d}" for side, n in self.hand_scores.items() if n]  # (Castle Rock's -2: not +-2)
            scores += f" (this hand: {', '.join(made) if made else 'nothing scored'})"
        return [title, last, scores]

    def data(self) -> dict:
        """The position as the replay page carries it, for its script to draw (frame.js and the game's
        script): the racks, face-down counts, the turn, the scores, the board's scene and, at a scored
        hand's end, how it ended.  The game, the names and the hand's moves the page holds once;
        ordered maps (racks, scores) are lists of pairs, since seats are the record's strings."""
        return {"racks": [[seat, [[t.high, t.low] for t in tiles]] for seat, tiles in self.holdings.items()],
                "hidden": [[seat, n] for seat, n in self.hidden.items() if n], "turn": self.to_move,
                "scores": [[side, n] for side, n in self.scores.items()], "board": self.scene, "ended": self.ended,
                "made": None if self.hand_scores is None else [[side, n] for side, n in self.hand_scores.items()]}

    def label(self) -> str:
        """What the picture shows, in one sentence (its title and accessible name)."""
        return " — ".join(self.header_lines())

    def svg(self) -> str:
        """The whole picture as an SVG document."""
        return svg.to_string(frame.draw(self))


def side_of(seat: str, sides: tuple[str, ...]) -> str:
    """The side a seat scores for: itself in a game of individuals, ``NS`` or ``EW`` in partnerships."""
    if seat in sides:
        return seat
    for side in sides:
        if len(seat) == 1 and seat in side:
            return side
    return seat


@attrs.frozen
class HandReplay:
    """One hand of a replay: its positions, and how it ended (when it did)."""

    number: int
    positions: tuple[Position, ...]
    end: str | None = None
    working: tuple[str, ...] = ()
    scores: dict[str, int] | None = None
    totals: dict[str, int] | None = None
    sheet: bool = False            # recorded by its result alone: nothing to show but the scores


class Camera:
    """An observer that draws the positions wanted.

    ``hand`` (1-based) limits it to one hand, ``move`` to one position of
    it (``None``: the hand's last position); with neither, every position of
    every hand is drawn (the replay page).  ``keep`` turns each hand's replay into
    what is kept of it as soon as the hand is over, so that a long game's positions
    need not all be held at once (the replay page keeps each hand's data for its
    script, a few dozen bytes a move, where a position holds thousands)."""

    def __init__(self, record: Record, hand: int | None = None, move: int | None = None,
                 every: bool = False, keep: Callable[[HandReplay], Any] | None = None) -> None:
        self.record = record
        self.wanted_hand = hand
        self.wanted_move = move
        self.every = every
        # A picture shows each name in the order it reads: without direction controls (a name
        # "\u202e1 reyalP" would show as "Player 1"), as every page and terminal line does.
        self.names = {p.seat: plain_direction(p.name) for p in record.players}
        self.read_board = scener(record.game)
        self.match: Match | None = None
        self.keep = keep
        self.hands: list[Any] = []   # HandReplay, or what ``keep`` made of each
        self.current: list[Position] = []
        self.index = -1
        self.state: HandState | None = None
        self.hand: Hand | None = None
        self.scores: dict[str, int] = {}
        self.last: tuple[Move, int] | None = None
        self.made = 0
        self.reached = False

    def match_started(self, match: Match) -> None:
        self.match = match

    def _wanted(self, index: int) -> bool:
        return self.wanted_hand is None or index == self.wanted_hand - 1

    def hand_started(self, index: int, hand: Hand, state: HandState) -> None:
        self.index, self.hand, self.state = index, hand, state
        self.current, self.last, self.made = [], None, 0
        assert self.match is not None
        self.scores = dict(self.match.totals)
        if self._wanted(index):
            self.reached = True
            if self.every or self.wanted_move == 0:
                self.current.append(self.snap())

    def moved(self, index: int, move: Move, points: int, state: HandState) -> None:
        if not self._wanted(self.index):
            return
        assert self.match is not None
        side = side_of(move.seat, tuple(self.match.sides))
        self.scores[side] = self.scores.get(side, 0) + points
        self.last, self.made = (move, points), index + 1
        if self.every or self.wanted_move == index + 1:
            self.current.append(self.snap())

    def hand_finished(self, index: int, outcome: HandOutcome, match: Match) -> None:
        if not self._wanted(index):
            return
        if self.index != index:  # a score-sheet hand: no deal, no moves
            self._kept(HandReplay(index + 1, (), outcome.end, outcome.working(), dict(outcome.scores),
                                  dict(match.totals), sheet=True))
            return
        if self.wanted_move is None and not self.every and self.state is not None:
            self.current.append(self.snap())
        if self.current and self.current[-1].move == self.made:  # the hand's last position: now scored
            self.current[-1] = attrs.evolve(self.current[-1], scores=dict(match.totals), ended=outcome.end, to_move=None,
                                            hand_scores=dict(outcome.scores))
        self._kept(HandReplay(index + 1, tuple(self.current), outcome.end, outcome.working(),
                              dict(outcome.scores), dict(match.totals)))
        self.current, self.state = [], None

    def close(self) -> None:
        """After the replay: a hand that stopped part-way keeps the positions it reached."""
        if self.state is not None and self._wanted(self.index):
            if self.wanted_move is None and not self.every:
                self.current.append(self.snap())
            self._kept(HandReplay(self.index + 1, tuple(self.current)))
            self.state = None

    def _kept(self, hand: HandReplay) -> None:
        self.hands.append(hand if self.keep is None else self.keep(hand))

    def snap(self) -> Position:
        state, hand = self.state, self.hand
        assert state is not None and hand is not None
        move, points = self.last if self.last else (None, 0)
        if getattr(state, "open", False):
            holdings = {s: () for s in state.holdings()}
            hidden = {s: state.held_count(s) for s in holdings}
        else:
            holdings = {s: tuple(ts) for s, ts in state.holdings().items()}
            hidden = {}
        return Position(self.record.game, self.index + 1, self.made, len(hand.moves),
                        describe_move(move) if move else None, move.seat if move else None, points,
                        dict(self.scores), holdings, hidden, self.names, state.to_move,
                        self.read_board(state, move))


def replay(record: Record, source: str = "<record>",
           keep: Callable[[HandReplay], Any] | None = None) -> tuple[list[Any], Report]:
    """Every position of every hand (the replay page), with the validator's report; ``keep``: see
    :class:`Camera`."""
    camera = Camera(record, every=True, keep=keep)
    report = validate(record, source, observer=camera)
    camera.close()
    return camera.hands, report


def position(record: Record, hand: int, move: int | None = None, source: str = "<record>",
             told: Report | None = None) -> tuple[Position, Report]:
    """The table of hand ``hand`` after ``move`` moves (default: the hand's end).

    Raises :class:`PictureError` (one sentence) for a hand the record does not
    have or the replay never reached, and for a move the hand does not have
    or the replay stopped before.  ``told``: the verdict the caller gave (a DGN text's, its
    problems placed by line:column), whose first problem the sentence names."""
    count = len(record.hands)
    if hand < 1 or hand > count:
        raise PictureError(f"the record has {count} hand{'' if count == 1 else 's'}; there is no hand {hand}")
    moves = len(record.hands[hand - 1].moves)
    if move is not None and not 0 <= move <= moves:
        raise PictureError(f"hand {hand} has {moves} move{'' if moves == 1 else 's'}; there is no move {move} "
                           f"(0 is the deal)")
    camera = Camera(record, hand, move)
    report = validate(record, source, observer=camera)
    camera.close()
    shots = [p for h in camera.hands for p in h.positions]
    if shots:
        return shots[-1], report
    first = _first_problem(told if told is not None else report)
    if not camera.reached:
        if record.hands[hand - 1].deal is None and not record.hands[hand - 1].moves:
            raise PictureError(f"hand {hand} is recorded by its scores alone: there is no table to draw")
        why = f"; the first problem: {first.text()}" if first else ""
        raise PictureError(f"hand {hand} was not replayed{why}")
    why = f"; the first problem: {first.text()}" if first else ""
    raise PictureError(f"move {move} of hand {hand} was not replayed: replay stopped at move "
                       f"{camera.made + 1}{why}")


def _first_problem(report: Report) -> Problem | None:
    return report.problems[0] if report.problems else None


def picture(record: Record, hand: int, move: int | None = None, source: str = "<record>",
            told: Report | None = None) -> tuple[str, Report]:
    """:func:`position` drawn as an SVG document."""
    found, report = position(record, hand, move, source, told)
    return found.svg(), report


__all__ = ["Camera", "HandReplay", "PictureError", "Position", "picture", "position", "replay", "side_of"]
