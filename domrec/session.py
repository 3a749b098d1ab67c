"""A game recorded request by request: the library under the venue's table pages.

A phone at the table sends what the scorer tapped or typed as DGN body lines, the same lines
a ``.dgn`` file holds and ``domrec record`` takes (``hand 2 lead E``, ``deal N 6-6 …``, moves,
``left …``, ``end …``, ``undo``, ``y`` to close a hand that is over, ``time`` when the
event's clock stops the game between hands).  A :class:`Session` takes
a request **whole or not at all**: each line goes through a :class:`~domrec.recorder.Recorder`,
so every move is checked by the engine the moment it is made, exactly as at the terminal, and
the first refusal undoes the whole request and names its line:column in the request's text.

A session is nothing but its template record (players, rules) and the requests it accepted,
in order: replaying them gives the same game.  That is what the venue stores, one row per
accepted request, so a table rebuilt after a restart, or on another phone, is exactly where it
was; nothing else about a table's game in progress needs keeping.

Within a request the recorder reads as it reads a text (a pass may be written or left out);
at the end of each request the passes then forced are made, so that "who is to move" is right
while the table waits.  A hand that is over stays open for what it may still take (closing
captures, the tiles ``left``, a claimed ``end``) until ``y``, the next hand's line or its
next move closes it.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Sequence

import attrs

from domrec import notation
from domrec.notation.writer import _move_text as _word
from domrec.errors import DomrecError
from domrec.explain import describe_move
from domrec.game import Game, GameError
from domrec import tiles as T
from domrec.record import Draw, Move, Pass, Play, Record, move_to_dict
from domrec.recorder import (Recorder, _totals, first_problem, placements, read_so_far, read_whole, said_in_text,
                             why_not_read)

#: ``undo`` right after the ``left`` line that closed a hand, as a table's page sends it: that line
#: taken back, its worked-out deal with it (:func:`_feed`).  A table's plain ``undo`` there keeps
#: the meaning the venue's logs were written with (the hand's last move, the deal kept); no log
#: written before holds this line (it was refused, and a refused request is never kept).
UNDO_LEFT = "undo left"
#: The first words of a hand's part lines, which a scorer sends whole.
PARTS = ("hand", "deal", "row", "boneyard", "pile", "leaddraw", "redeal", "left", "end")
#: Words of the terminal that a request may not hold: they steer a terminal, not a game.
_TERMINAL_ONLY = {"quit": "quit is for the terminal: on a page, just close it"}
#: The most lines one request may hold (a whole hand typed from a sheet is well under it).
MAX_REQUEST_LINES = 400
#: The most characters one request may hold: fifty a line of the most lines it may hold, where a
#: whole game's canonical DGN has at most about 45 (Horse Race's longest, 11,000 characters in 249
#: lines).  A table's requests are judged one at a time on the venue's one thread, every table of
#: the hall waiting meanwhile, and reading costs time in proportion to the text: without a bound,
#: one post of 64 KB of passes on one line held every table for seconds.
MAX_REQUEST_CHARS = 20_000
#: The most characters of typed text one table's game may be sent, all its requests together
#: (:meth:`Session.room_for`): nine times the longest whole game's canonical DGN.  A request the
#: line by line reading cannot place is read with the rest of its hand whole, and a table's
#: requests are replayed from the first after a restart: without a bound, a phone sending
#: comment after comment made each new request, and each replay, slower without end (every
#: table waiting), and its table's log grew by a gigabyte an hour.
MAX_GAME_CHARS = 100_000
#: The most requests one table's game may be sent: a request a move, a long Castle Rock game's
#: 1,500 moves, several times over.
MAX_GAME_REQUESTS = 10_000


class SessionError(DomrecError):
    """The accepted requests no longer replay (a store written by another version of the rules)."""


@attrs.frozen
class Refusal:
    """Why a request was refused: where (1-based line and column in the request's text) and
    the recorder's own one-line words."""

    line: int
    column: int
    message: str

    def text(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


class RequestRefused(DomrecError):
    """A request of which nothing was taken."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.text())
        self.refusal = refusal


#: A request that says nothing: blank, or empty comments only (``{}``, ``{ }``).
_EMPTY = re.compile(r"(?:\s|\{\s*\})*")

#: A comment in DGN: braces, ``\`` escaping the next character (the writer escapes ``\`` and ``}``).
_COMMENT = re.compile(r"\{(?:\\.|[^\\}])*\}", re.DOTALL)


def _canonical_lines(record: Record) -> list[str]:
    """The canonical text of ``record``, its lines as a recorder takes them one by one: the tags
    left out, and each comment on the line it starts on.  The writer writes a comment as it is
    kept, and the comments typed on one move are kept as one, joined by line breaks (``{a} {b}``
    is ``a`` and ``b`` on two lines), which the recorder, reading line by line, would refuse as a
    comment not closed; so each break in a comment is written ``} {``: the recorder joins those
    comments back as the same comment."""
    lines = notation.dumps(record).split("\n")
    body = next((k for k, line in enumerate(lines) if not line.startswith("[")), len(lines))  # (after the tags)
    rest = "\n".join(lines[body:])
    if "{" in rest:
        lines = lines[:body] + _COMMENT.sub(lambda m: m.group(0).replace("\n", "} {"), rest).split("\n")
    return [line for line in lines if line and not line.startswith("[")]


def _all_lines(texts: Sequence[str]) -> list[str]:
    """The lines of ``texts`` (requests of one or more lines), blank lines left out."""
    return [line for text in texts for line in text.split("\n") if line.strip()]


def _domino(tile: str) -> str:
    """A tile as the engine's set names it (``6-1`` for ``1-6``), or as written where it is no tile."""
    try:
        return str(T.tile(tile))
    except DomrecError:
        return tile


def _tile_of(move: Move) -> str | None:
    """The tile a move lays or shows, which is what a scorer taps first."""
    for name in ("play", "span", "starter", "bridge", "block", "exposed"):
        value = getattr(move, name, None)
        if value is not None and not isinstance(value, (bool, int, tuple)):
            return str(value)
    return None


def _undo(recorder: Recorder, left: bool = False) -> None:
    """Take back the table's last move, and the forced passes made after it (the table did not
    make those: the recorder did, and would make them again at once).  ``left`` (a log's ``undo
    left``): right after the ``left`` line that gave its hand the deal and closed it, that line is
    taken back instead, the worked-out deal with it (:meth:`Recorder.take_back_left`)."""
    if left and recorder.take_back_left():
        return
    g = recorder.game
    while True:
        last = g.moves[-1] if g.in_hand and g.moves else None
        before = (g.hand_number, g.in_hand, len(g.moves) if g.in_hand else 0)
        refused = recorder.refused
        recorder.feed_line("undo")
        if recorder.refused > refused or type(last) is not Pass or not g.in_hand or not g.deal_known:
            return
        if (g.hand_number, g.in_hand, len(g.moves)) == before:  # a line taken back, not a move (a left)
            return
        if not g.forced_pass():  # a pass by choice (where the rules allow one): the table's own move
            return


def _cells(move: Move) -> list[list[int]] | None:
    """Broadway: the two cells of the tableau a tile is laid on (for a page to draw)."""
    at = getattr(move, "at", None)
    return [list(cell) for cell in at] if at else None


def _time(recorder: Recorder) -> None:
    """The event's clock stopped the game (format 1.1's ``ended: time``): allowed between hands
    only, as the Game says (a hand under way when time is called is played to its end)."""
    g = recorder.game
    if g.in_hand and g.hand_over:
        recorder.feed_line("y")  # the hand just finished closes first
    try:
        g.end_on_time()
    except GameError as e:
        recorder.refuse(str(e))


def _feed(recorder: Recorder, line: str) -> None:
    """One line of a request, as a table means it: ``undo`` takes back the table's last move with
    the forced passes after it, ``time`` ends the game on the clock, anything else is the
    recorder's.  Taking a request and replaying the accepted ones both read a line here: had the
    replay read ``undo`` as the recorder's own (one move back), a refused request, which goes back
    to the replay of what was accepted, would have brought back the move an undo took away.

    Right after the ``left`` line that gave its hand the deal and closed it, :data:`UNDO_LEFT`
    takes back that line, its worked-out deal with it, as ``undo`` does at the terminal (the
    table's page sends it then: the state's ``game.left_closed``).  ``undo`` itself there takes
    back the hand's last move and keeps the deal, as it did when the venue's logs that hold it
    were written: a log replays as it was written."""
    words = line.split()
    word = next(iter(words), "").lower()
    fed = recorder.lines_fed
    if [w.lower() for w in words] == UNDO_LEFT.split():
        _undo(recorder, left=True)
    elif word in ("undo", "n", "no") and line.strip() not in recorder.game.seats and len(words) == 1:
        _undo(recorder)
    elif word == "time" and len(words) == 1:
        _time(recorder)
    else:
        recorder.feed_line(line)
    recorder.lines_fed = fed + 1  # (one line of the request, however many the recorder was fed for it)


#: A line's first word that makes it no line of moves.
_NOT_MOVES = frozenset(("hand", "deal", "boneyard", "row", "pile", "leaddraw", "redeal", "left", "end"))
#: A move number (``12.``), which names no move.
_MOVE_NUMBER = re.compile(r"[0-9]+\.+")


def _leaves_a_seat(line: str, seats: Sequence[str]) -> bool:
    """A line of moves with a move whose seat is not written before it: taken line by line, its
    seat is the turn's, but without the deal the turn is not always known (a Horse Race chain
    that may have ended unwritten), and only the rest of the hand may say whose it was.  Errs
    towards yes (a comment's words count as moves): a yes costs the hand one reading whole."""
    words = line.replace(",", " ").split()
    if not words or words[0].lower() in _NOT_MOVES or not said_in_text(line, seats):
        return False
    seated = False
    for word in words:
        if word in seats:
            seated = True
        elif _MOVE_NUMBER.fullmatch(word):
            continue
        elif not seated:
            return True
        else:
            seated = False
    return False


def _blind_after(recorder: Recorder, line: str, blind: int | None) -> int | None:
    """The hand that, once closed, is read whole (see :meth:`Session.take`): the hand in play
    when ``line``, just fed, left a move's seat to the turn, the deal unknown; else ``blind``."""
    g = recorder.game
    if g.in_hand and not g.deal_known and _leaves_a_seat(line, g.seats):
        return g.hand_number
    return blind


def _closed(recorder: Recorder, blind: int | None) -> bool:
    """Hand ``blind`` was closed (line by line) by the lines fed since it was marked."""
    g = recorder.game
    return blind is not None and (not g.in_hand or g.hand_number != blind) and g.hand_number >= blind


def _same_hand(record: Record, game: Game, hand: int | None) -> bool:
    """Hand ``hand`` of ``record`` (read whole) is the game's (read line by line): the same moves,
    the same end and scores."""
    if hand is None or len(record.hands) < hand:
        return False
    mine = game.record().hands
    if len(mine) < hand:
        return False
    a, b = record.hands[hand - 1], mine[hand - 1]
    return a.moves == b.moves and (a.result is None) == (b.result is None) and (
        a.result is None or (a.result.scores == b.result.scores and a.result.end == b.result.end))


def _for_now(recorder: Recorder) -> bool:
    """The hand being played was read whole for now (a line of it left a choice that the rest of
    the hand decides): each request of it is read whole again, never line by line on a choice
    made for now."""
    g = recorder.game
    return recorder.read_for_now is not None and recorder.read_for_now == g.hand_number and g.in_hand


def _between_hands(recorder: Recorder) -> bool:
    """No hand in play and none announced: where a copy of the table is kept (once a hand: the
    recorder's own state is copied whole, :meth:`~domrec.recorder.Recorder.fork`)."""
    return not recorder.game.in_hand and not recorder.hand_announced


class Session:
    """One table's game: a template and the requests accepted so far."""

    def __init__(self, template: Record, accepted: Sequence[str] = ()) -> None:
        self.template = template
        self.accepted: list[str] = []
        self._said: list[str] = []
        #: The views of closed hands, by the hand value they were made of (see :meth:`state`).
        self._closed_views: dict[int, tuple[Any, dict]] = {}
        #: Each move's view with what it scored, by the move value it was made of and its points
        #: (see :meth:`_move_view`).
        self._move_views: dict[int, tuple[Any, Any, dict]] = {}
        #: Each legal move's offer, by the move (see :meth:`_offer`).
        self._offers: dict[Move, dict[str, Any]] = {}
        #: Each move's DGN word, by the move (see :meth:`_word_of`).
        self._words: dict[Move, str] = {}
        #: The announced hand's started copy, by how many requests had been accepted when it was
        #: made (see :meth:`_announced`; requests are only ever appended, an undo being one too):
        #: a table's page is read many times before its first move.
        self._ahead: tuple[int, Game | None] | None = None
        #: What the announced hand waits for, when it cannot start yet (see :meth:`_started_copy`).
        self._waiting: str | None = None
        #: The hand whose left line was taken to wait for its end line (its readings give
        #: different scores: :func:`~domrec.recorder.read_so_far`), as the last reading of the
        #: game so far whole found it, or None.
        self._left_waits: int | None = None
        #: The hand in play whose moves' seats the turn gave, the deal unknown: read whole once
        #: the table closes it (see :func:`_blind_after`), or None.
        self._blind_hand: int | None = None
        #: The hands closed before the last hand line, read whole once (see :meth:`_from_the_hand`).
        self._closed: tuple[tuple[str, ...], Record | None] | None = None
        #: The state made last (see :meth:`state`): how many requests were accepted, the recorder
        #: it was read from, the state.
        self._made: tuple[int, Recorder, dict[str, Any]] | None = None
        #: The tiles of the engine's set, as the page lists them (see :meth:`state`).
        self._tiles: list[str] | None = None
        #: Each closed hand's view as the last state listed it, with the key of the hands up to
        #: it (see :func:`since`).
        self._closed_keys: list[tuple[dict, str]] = []
        #: The hand in play's move views as the last state listed them: the hand's number, its
        #: moves and the points they were shown with, the views (see :meth:`_hand_view`).
        self._current_moves: tuple[int, tuple, tuple, list[dict]] | None = None
        #: Where a refused request makes the table again from (:meth:`_undo_request`): how many
        #: requests had been accepted at the last hand's close that left nothing waiting, and a
        #: copy of the recorder then (:meth:`~domrec.recorder.Recorder.fork`), never fed itself.
        self._base: tuple[int, Recorder] | None = None
        self._recorder = self._fresh()
        for k, text in enumerate(accepted, 1):
            try:
                self.take(text)
            except RequestRefused as e:
                raise SessionError(f"request {k} of this table no longer replays ({e.refusal.message}); "
                                   f"the table's game must be entered again") from None

    # --- taking requests -------------------------------------------------------------------

    def _fresh(self) -> Recorder:
        game = Game.from_record(self.template)
        self._refusals: list[str] = []
        return Recorder(game, None, interactive=False, say=self._said.append, refuse_out=self._refusals.append,
                        all_or_nothing=True, undo_takes_left=False)

    def room_for(self, text: str) -> None:
        """Refuse (:class:`RequestRefused`) a new request ``text`` that would take this game past
        :data:`MAX_GAME_CHARS` or :data:`MAX_GAME_REQUESTS`.  Asked of a request sent now, not of
        those replayed (a game accepted before the bound replays as it was).  The director's
        correction, which sends the game whole and afresh, makes room again."""
        accepted = self.accepted
        counted, chars = getattr(self, "_counted", (0, 0))
        if counted > len(accepted):  # (requests taken back since: counted again)
            counted, chars = 0, 0
        chars += sum(map(len, accepted[counted:]))  # (each request counted once: a move's post costs no more late in a game)
        self._counted = (len(accepted), chars)
        if len(accepted) >= MAX_GAME_REQUESTS or chars + len(text) > MAX_GAME_CHARS:
            raise RequestRefused(Refusal(1, 1, f"this table's game has been sent the most text a game may be sent "
                                               f"({MAX_GAME_CHARS} characters in {MAX_GAME_REQUESTS} requests at "
                                               f"most): call the director, who can correct the game as a whole"))

    def take(self, text: str) -> list[str]:
        """Take ``text`` (one or more DGN lines) whole, or raise :class:`RequestRefused` with
        nothing of it taken.  What the recorder said of it (moves, hands closed) is returned."""
        if len(text) > MAX_REQUEST_CHARS:
            line = text.count("\n", 0, MAX_REQUEST_CHARS) + 1
            column = MAX_REQUEST_CHARS - (text.rfind("\n", 0, MAX_REQUEST_CHARS) + 1) + 1
            raise RequestRefused(Refusal(line, column, f"a request holds at most {MAX_REQUEST_CHARS} characters: "
                                                       f"send the rest in another"))
        lines = text.split("\n")
        if len(lines) > MAX_REQUEST_LINES:
            raise RequestRefused(Refusal(MAX_REQUEST_LINES + 1, 1, f"a request holds at most "
                                                                     f"{MAX_REQUEST_LINES} lines"))
        if _EMPTY.fullmatch(text):  # (empty comments too: taken, they would change nothing but the table's revision)
            raise RequestRefused(Refusal(1, 1, "nothing to record: the request is empty"))
        recorder = self._recorder
        reread = _for_now(recorder)
        recorder.kept_open = False
        self._said.clear()
        blind = self._blind_hand
        waited = self._left_waits
        for number, line in enumerate(lines, 1):
            indent = len(line) - len(line.lstrip())
            word = next(iter(line.split()), "").lower()
            if word in _TERMINAL_ONLY:
                self._undo_request()
                raise RequestRefused(Refusal(number, indent + 1, _TERMINAL_ONLY[word]))
            before = recorder.refused
            recorder.refused_at = None
            _feed(recorder, line)
            blind = _blind_after(recorder, line, blind)
            if recorder.refused > before:
                said = self._refusals[-(recorder.refused - before)]
                at = max(1, number - recorder.refused_back)  # (a lead refused by a deal line after it: at the lead)
                if at != number:
                    indent = len(lines[at - 1]) - len(lines[at - 1].lstrip())
                refusal = Refusal(at, indent + (recorder.refused_at or 0) + 1, said)
                whole = self._read_whole([*self.accepted, text]) if said_in_text(line, recorder.game.seats) else None
                if whole is not None:
                    self._recorder = whole
                    self.accepted.append(text)
                    if self._left_waits is not None:
                        return [self._waits_said(number)]
                    if waited is not None and not self.game.in_hand:  # its end line settled the hand that waited
                        return self._settled_said(waited)
                    return [f"line {number} leaves a choice ({said}); the game so far is read whole, "
                            f"as domrec validate reads it", *self._said]
                if self._left_waits is not None:  # (the recorder's own words would ask for the left line again)
                    # An end line whose scores no reading gives: validate's words, which list each
                    # reading's scores; anything else: what the hand waits for.
                    problem = None
                    if word == "end" and len(line.split()) > 2:
                        problem = why_not_read(*self._from_the_hand(_all_lines([*self.accepted, text])))
                        if problem is not None:
                            own = f"hand {self._left_waits}: "
                            problem = (f"no reading of hand {self._left_waits} gives the scores this end line claims: "
                                       f"{problem[len(own):] if problem.startswith(own) else problem}")
                    refusal = Refusal(number, indent + 1, problem or (
                        f"hand {self._left_waits} waits for its end line: its moves, typed without their ends or "
                        f"seats, can be read in ways that give it different scores; type its end line with the "
                        f"scores (or where each tile went and whose it was)"))
                elif said_in_text(line, recorder.game.seats):
                    refusal = self._later_fault([*self.accepted, text], lines, refusal)
                self._undo_request()
                raise RequestRefused(refusal)
        before = recorder.refused
        recorder.settle()
        if recorder.refused > before:  # a forced pass the engine refused: cannot happen, but never half-taken
            refusal = Refusal(len(lines), 1, self._refusals[-1])
            self._undo_request()
            raise RequestRefused(refusal)
        closed_blind = _closed(recorder, blind)
        if reread or recorder.kept_open:  # a hand read whole for now, or one its end line did not close: read whole again, as its rest now says
            whole = self._read_whole([*self.accepted, text])
            if whole is not None:
                self._recorder = whole
            else:
                # The rest of the hand read whole is what validate refuses (its readings part, and
                # nothing settles them): refused in validate's words, never kept with the line by
                # line reading's guess.  (A text that cannot be read whole, an undo in it, is kept.)
                problem = why_not_read(*self._from_the_hand(_all_lines([*self.accepted, text])))
                if problem is not None:
                    self._undo_request()
                    raise RequestRefused(Refusal(len(lines), 1, problem))
                self._left_waits = None
        elif closed_blind:
            # A hand closed line by line whose moves' seats the turn gave, the deal unknown: read
            # whole, as validate reads it, so that a hand whose readings part is never closed with
            # the turn's guess: it waits for its end line, or is refused as validate refuses it.
            self._left_waits = None
            whole, problem = self._whole_if_other([*self.accepted, text], recorder, blind)
            if problem is not None:
                self._undo_request()
                raise RequestRefused(Refusal(len(lines), 1, problem))
            if whole is not None:
                self._recorder = whole
        else:
            self._left_waits = None
        self._blind_hand = None if closed_blind else blind
        self.accepted.append(text)
        if self._blind_hand is None and self._left_waits is None and _between_hands(self._recorder):
            self._base = (len(self.accepted), self._recorder.fork())
        if self._left_waits is not None:  # (what the line by line reading said of the hand's close does not stand)
            return [self._waits_said(len(lines))]
        return list(self._said)

    def _later_fault(self, texts: Sequence[str], lines: Sequence[str], refusal: Refusal) -> Refusal:
        """The refusal of a request (its ``lines``, the last of ``texts``) whose line the
        recorder refused, its choice one the whole text settles, and which the whole reading
        refuses too: where validate finds the fault, when that is later in the request (a sheet
        posted whole, a tile without its end in hand 1, a wrong score claimed in hand 9, is told
        of the score), else the recorder's ``refusal``."""
        start, rest = self._from_the_hand(_all_lines(texts))
        found = first_problem(start, rest)
        if found is None:
            return refusal
        written = [k for k, line in enumerate(lines, 1) if line.strip()]  # (as :func:`_all_lines` keeps them)
        at = found[0] - (len(rest) - len(written))
        if not 0 <= at < len(written) or written[at] <= refusal.line:
            return refusal
        return Refusal(written[at], found[1], found[2])  # (a line is read as it was written: its column stands)

    def _whole_if_other(self, texts: Sequence[str], recorder: Recorder, hand: int | None,
                        quiet: bool = False) -> tuple[Recorder | None, str | None]:
        """After ``texts`` closed ``hand`` line by line (the turn giving its moves' seats): the
        hand read whole, as ``domrec validate`` reads the text so far (:meth:`take` and
        :meth:`_replay` alike).  Its one reading is ``recorder``'s (``None``: keep it), or another,
        or it waits for its end line (:attr:`_left_waits`): the recorder of the game read whole;
        or validate refuses it as not enough: what validate says, second.  A text that cannot be
        read whole (an ``undo`` in it) keeps the line by line reading."""
        start, rest = self._from_the_hand(_all_lines(texts))
        got = read_so_far(start, rest)
        if got is None:
            return None, why_not_read(start, rest)
        if got[2] is None and _same_hand(got[0], recorder.game, hand):
            return None, None
        return self._recorder_of(got, quiet), None

    def _settled_said(self, number: int) -> list[str]:
        """What a table is told when the end line of hand ``number``, which waited for it, closed
        it: the hand's end and scores and the totals, as a hand closed line by line says them."""
        g = self.game
        outcome = g.outcome_of(number)
        if outcome is None:
            return list(self._said)
        said = [f"hand {number} ends {outcome.end}: {_totals(outcome.scores)}", f"totals: {_totals(g.totals)}"]
        if g.over:
            said.append(f"game over: {'a draw' if g.winner is None else g.winner + ' wins'}")
        return said

    def _waits_said(self, number: int) -> str:
        """What a table is told of a left line taken to wait for its hand's end line."""
        return (f"line {number}: hand {self._left_waits}'s left line is taken; its moves, typed without their "
                f"ends or seats, can be read in ways that give the hand different scores, so the hand waits for its "
                f"end line, whose scores settle it (or type where each tile went and whose it was)")

    def _replay(self, texts: Sequence[str], say: Any = None, refuse: Any = None,
                start: tuple[int, Recorder] | None = None) -> Recorder:
        """The recorder after ``texts``, each taken as :meth:`take` took it: line by line, or,
        where a line left a choice that only the rest decided, the game so far read whole.
        ``start``: the recorder after the first so many of them (:attr:`_base`), to go on from (a
        copy of it: it stays as it is)."""
        if start is None:
            recorder, first = (self._fresh() if say is None else self._quiet()), 0
        else:
            first, recorder = start[0], start[1].fork()
            recorder.say, recorder.refuse_out = self._said.append, self._refusals.append
        blind: int | None = None
        for k in range(first, len(texts)):
            text = texts[k]
            before, reread = recorder.refused, _for_now(recorder)
            recorder.kept_open = False
            for line in text.split("\n"):
                _feed(recorder, line)
                blind = _blind_after(recorder, line, blind)
            if _closed(recorder, blind):  # as take read it: the hand closed read whole, if it differs
                closed, blind = blind, None
                if not (recorder.refused > before or reread or recorder.kept_open):
                    whole, _ = self._whole_if_other(texts[:k + 1], recorder, closed, quiet=say is not None)
                    if whole is not None:
                        recorder = whole
                        continue
            if recorder.refused > before or reread or recorder.kept_open:
                whole = self._read_whole(texts[:k + 1], quiet=say is not None)
                if whole is None and recorder.refused > before:
                    raise SessionError("the table's accepted requests no longer replay; the table's game must be "
                                       "entered again")
                if whole is not None:
                    recorder = whole
                    continue
            recorder.settle()
        return recorder

    def _from_the_hand(self, lines: list[str]) -> tuple[Record, list[str]]:
        """Where to read ``lines`` whole from: the hands the text closed before the last hand
        line, read once (a closed hand's reading is final: later lines never change it) and
        kept, and the lines from that hand line on; else the template and every line.  So a
        hand read for now costs its own readings at each request, not the whole game's."""
        h = next((i for i in range(len(lines) - 1, 0, -1) if lines[i].split()[0].lower() == "hand"), None)
        if h is None or lines[h - 1].split()[0].lower() not in ("end", "left"):
            return self.template, lines
        key = tuple(lines[:h])
        if self._closed is None or self._closed[0] != key:
            got = read_whole(self.template, lines[:h])
            self._closed = (key, None if got is None else got[0])
        before = self._closed[1]
        return (self.template, lines) if before is None else (before, lines[h:])

    def _quiet(self) -> Recorder:
        return Recorder(Game.from_record(self.template), None, interactive=False, say=lambda _: None,
                        refuse_out=lambda _: None, all_or_nothing=True, undo_takes_left=False)

    def _read_whole(self, texts: Sequence[str], quiet: bool = False) -> Recorder | None:
        """A recorder holding the game of ``texts`` read whole, as ``domrec validate`` reads a
        text, more lines to come (:func:`domrec.recorder.read_so_far`: :attr:`_left_waits` says
        whether a hand waits for its end line), or ``None``.  Its game is the record read,
        fed again in canonical DGN (every seat, end and forced pass written), so that what a
        request leaves announced (a hand line, parts of a deal) stays as the recorder keeps it."""
        whole = read_so_far(*self._from_the_hand(_all_lines(texts)))
        return None if whole is None else self._recorder_of(whole, quiet)

    def _recorder_of(self, whole: tuple[Record, str | None, int | None], quiet: bool = False) -> Recorder | None:
        """A recorder holding ``whole`` (what :func:`~domrec.recorder.read_so_far` read): see
        :meth:`_read_whole`."""
        said, refusals = list(self._said), self._refusals
        recorder, lines = self._to_feed(whole[0], _canonical_lines(whole[0]), quiet)
        for line in lines:
            recorder.feed_line(line)
        recorder.settle()
        if not quiet:
            self._said[:] = said
        if recorder.refused:
            # (the table keeps its recorder, whose refusals go to the list it was given)
            self._refusals = refusals
            return None
        recorder.read_for_now = recorder.game.hand_number if recorder.game.in_hand else None
        self._left_waits = whole[2]
        return recorder

    def _to_feed(self, record: Record, lines: list[str], quiet: bool) -> tuple[Recorder, list[str]]:
        """The recorder to feed ``record``'s canonical ``lines`` into, and the lines it still
        needs: a copy of the one kept at the last hand's close (:attr:`_base`) and the lines from
        the next hand on, where the record's hands up to there are that recorder's; else a fresh
        one and every line.  So a hand read whole at each request (a score sheet typed move by
        move) costs that hand's lines, not the whole game's fed again."""
        base = self._base
        done = base[1].game.hands() if base is not None else ()
        if done and record.hands[:len(done)] == done:
            # (each hand's first line, as the canonical text writes it: every comment is on the line
            # it starts on, :func:`_canonical_lines`)
            starts = [k for k, line in enumerate(lines) if line.split(None, 1)[:1] == ["hand"]]
            if len(starts) == len(record.hands) > len(done):
                recorder = base[1].fork()
                if quiet:
                    recorder.say = recorder.refuse_out = lambda _: None
                else:
                    self._refusals = []
                    recorder.say, recorder.refuse_out = self._said.append, self._refusals.append
                return recorder, lines[starts[len(done)]:]
        return (self._quiet() if quiet else self._fresh()), lines

    def _announced(self) -> Game | None:
        """Between a ``hand N`` line (with any parts of its deal) and the hand's first move, the
        hand has not started (more of the deal, or its score alone, may still come); the page
        still offers that first move.  The game as the hand would stand, started on a copy made
        from the accepted requests, or ``None``."""
        if not self._recorder.hand_announced:
            return None
        made_of = len(self.accepted)
        if self._ahead is not None and self._ahead[0] == made_of:
            return self._ahead[1]
        ahead = self._started_copy()
        self._ahead = (made_of, ahead)
        return ahead

    def _started_copy(self) -> Game | None:
        started = self._recorder.started_copy()
        self._waiting = None if started is not None else self._recorder.waiting
        return started

    def _undo_request(self) -> None:
        """Back to the state after the last accepted request: made again from the requests, from
        the last hand's close that left nothing waiting (:attr:`_base`) on.  So a refusal costs
        the requests of the hand being played, not the game's: made from the first request, a
        refusal late in a 30-hand Horse Race game cost about 90 ms of the venue's one thread."""
        self._recorder = self._replay(self.accepted, start=self._base)

    # --- reading ----------------------------------------------------------------------------

    def _hand_view(self, k: int, hand: Any, points: Sequence[int]) -> dict[str, Any]:
        g = self.game
        n = len(points)
        played = hand.moves
        kept = self._current_moves
        if points and kept is not None and kept[0] == k:
            # The hand in play, shown after each move: the moves shown last, with the same points,
            # are the same views (their values are the same moves'); only the moves made since
            # are made (an undo, a rebuilt hand, other points: made again whole).
            done = len(kept[1])
            if done <= len(played) and played[:done] == kept[1] and tuple(points[:done]) == kept[2][:done]:
                moves = kept[3] + [self._move_view(played[j], points[j] if j < n else None)
                                   for j in range(done, len(played))]
            else:
                kept = None
        if not points or kept is None or kept[0] != k:
            moves = [self._move_view(m, points[j] if j < n else None) for j, m in enumerate(played)]
        if points:
            self._current_moves = (k, played, tuple(points), moves)
        result = g.outcome_of(k + 1)
        return {"number": k + 1, "leader": hand.leader, "deal": hand.deal is not None and bool(hand.deal.hands),
                "sheet": hand.moves == () and hand.deal is None and hand.result is not None, "moves": moves,
                "result": None if result is None else {"end": result.end, "scores": dict(result.scores)}}

    def _unsettled(self, view: dict[str, Any], played: Sequence[Move]) -> dict[str, Any]:
        """The hand whose left line waits for its end line (:attr:`_left_waits`), as the table
        typed it: each tile without where it went, and no points.  The game holds the first
        reading of the hand, but its readings differ in where the tiles went and what they
        scored, and only the end line's scores say which it was: showing the first one's ends and
        points would show the table a hand it may not have played."""
        moves = []
        for mv, m in zip(view["moves"], played):
            if type(m) is Play and (m.on is not None or m.at is not None):
                bare = attrs.evolve(m, on=None, at=None)
                mv = {**mv, "text": self._word_of(bare), "label": describe_move(bare)}
            moves.append({**mv, "at": None, "points": None})
        return {**view, "moves": moves}

    def _move_view(self, m: Move, points: Any) -> dict[str, Any]:
        """A move as the page shows it, with what it scored (``None`` in a closed hand), made once
        a move (the hand in play is shown again at every request, its moves the same values until
        an undo takes them back)."""
        kept = self._move_views.get(id(m))
        if kept is not None and kept[0] is m and kept[1] == points:
            return kept[2]
        view = {"seat": m.seat, "text": self._word_of(m), "tile": _tile_of(m), "at": _cells(m),
                "label": describe_move(m), "points": points}
        if len(self._move_views) > 4096:  # a game's moves, many times over: forget the old ones
            self._move_views.clear()
        self._move_views[id(m)] = (m, points, view)
        return view

    @property
    def game(self) -> Game:
        return self._recorder.game

    def record(self) -> Record:
        return self.game.record()

    @property
    def left_typed(self) -> dict[str, list[str]] | None:
        """The ``left`` line typed for the hand in play that waits for the hand to close (see
        :attr:`~domrec.recorder.Recorder.left_typed`)."""
        return self._recorder.left_typed

    @property
    def over(self) -> bool:
        """The game is over by its rules (every hand closed)."""
        return self.game.over

    @property
    def begun(self) -> bool:
        """Something of the game stands: a hand started, or the first hand's line taken (a lead
        draw, part of a deal, Castle Rock's hand waiting for its row).  A table with only that is
        a game under way as much as one with a move: the venue calls it started (``playing``) and
        keeps a result or a change of players off it, in every view alike."""
        return bool(self.game.hand_number or self.game.in_hand or self._recorder.hand_announced)

    def legal(self, game: Game | None = None) -> list[dict[str, Any]]:
        """The moves the page offers now, each as the DGN word that makes it, the tile tapped
        first (a tile laid, shown or drawn by name), its kind, and in words.  With the deal, the
        engine's legal moves; without it, the moves that may be legal, where the engine can list
        them (Castle Rock and Domino Roads: see :meth:`Game.possible_moves`), else none (the tile
        is tapped among all, and :meth:`options` says where it may go).  ``game``: the announced
        hand's copy (see :meth:`_announced`)."""
        g = game if game is not None else self.game
        return [self._offer(move) for move in g.possible_moves()]

    def _offer(self, move: Move) -> dict[str, Any]:
        """A legal move as the page offers it, made once for each move (a move is a frozen value:
        the same move offered again, at the next request or the next hand, is the same offer; its
        words cost more than the engine's listing of it)."""
        try:
            kept = self._offers.get(move)
        except TypeError:  # a move holding something unhashable: made each time
            return self._make_offer(move)
        if kept is None:
            if len(self._offers) > 4096:  # a game's offers, many times over: forget the old ones
                self._offers.clear()
            kept = self._offers[move] = self._make_offer(move)
        return kept

    def _word_of(self, move: Move) -> str:
        """A move as its DGN word without its seat (``6-4@4-2``), made once a move: a move is
        offered before it is made, then listed in its hand at every state."""
        try:
            word = self._words.get(move)
        except TypeError:  # a move holding something unhashable: written each time
            return _word(move_to_dict(move), self.game.game)
        if word is None:
            if len(self._words) > 4096:  # a game's moves, many times over: forget the old ones
                self._words.clear()
            word = self._words[move] = _word(move_to_dict(move), self.game.game)
        return word

    def _make_offer(self, move: Move) -> dict[str, Any]:
        tile = _tile_of(move)
        if tile is None and type(move) is Draw and isinstance(move.draw, str):
            tile = move.draw  # a draw that names its tile is tapped as the tile
        if tile is not None:
            # The domino, not the way round it is laid (a Broadway tile is offered as 1-6 and as
            # 6-1, its halves on other cells): one button a domino, every placement under it.
            tile = _domino(tile)
        # A move as a DGN word with its seat (``W 6-4@4-2``): taken as it is whoever is to move.
        return {"seat": move.seat, "text": f"{move.seat} {self._word_of(move)}", "tile": tile,
                "kind": type(move).__name__.lower(), "label": describe_move(move), "at": _cells(move)}

    def options(self, tile: str) -> list[dict[str, Any]]:
        """Where ``tile`` may go now for the player to move, each as the DGN word that puts it
        there and in words: the moves :meth:`legal` lists for it when it lists any; else, without
        the deal, each place the engine accepts it (an end of the line, an arm, a Broadway cell)
        and a draw that names it, tried and taken back, so the page can offer them as it does
        the legal moves.  Empty when nobody is to move yet (the lead of a hand whose leader the
        rules leave open: the tile alone is sent)."""
        g = self._announced() or self.game  # a hand announced: its first move, on a copy
        try:
            t = T.tile(tile)
        except DomrecError:
            return []
        listed = self.legal(g)
        if listed or g.deal_known:
            return [m for m in listed if m["tile"] == str(t)]
        seat = g.to_move
        if not g.in_hand or g.hand_over or seat is None:
            return []
        if g.game == "broadway":
            found: list[Move] = [m for m, _ in placements(g, str(t), seat)]
        else:
            found = self._accepted([Play(seat=seat, play=str(t), on=on)
                                    for on in [None, *dict.fromkeys(m.play for m in g.moves if type(m) is Play)]],
                                   alone=True, game=g)
        found.extend(self._accepted([Draw(seat=seat, draw=str(t))], game=g))
        return [self._offer(m) for m in found]

    def plain_moves(self, legal: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Without the deal, where the engine cannot list the possible moves: the moves of no
        tile it accepts now (a pass, a draw in the written boneyard order), tried and taken back.
        ``legal``: :meth:`legal` as the caller has just made it (else it is made here)."""
        g = self.game
        seat = g.to_move
        if g.deal_known or not g.in_hand or g.hand_over or seat is None or (self.legal() if legal is None else legal):
            return []
        return [self._offer(m) for m in self._accepted([Pass(seat=seat), Draw(seat=seat, draw=True)])]

    def _accepted(self, moves: Sequence[Move], alone: bool = False, game: Game | None = None) -> list[Move]:
        """The moves the engine takes now, each tried and taken back.  ``alone``: the first, a
        tile without a place, goes one way only when taken, so the tile alone says where."""
        g = game if game is not None else self.game
        out: list[Move] = []
        for k, move in enumerate(moves):
            try:
                g.push(move)
            except DomrecError:
                continue
            g.pop()
            if alone and k == 0:
                return [move]
            out.append(move)
        return out

    def state(self) -> dict[str, Any]:
        """Everything a page shows of the game, as JSON values.  Made once a change of the game
        (a request taken, or one refused and the game made again): a table's page is read
        again and again between two moves, and each read gets the same values (a new outer
        dict; what it holds is shared, and no reader changes it)."""
        made_of = (len(self.accepted), self._recorder)
        if self._made is not None and self._made[0] == made_of[0] and self._made[1] is made_of[1]:
            return dict(self._made[2])
        state = self._state()
        self._made = (made_of[0], made_of[1], state)
        return dict(state)

    def _state(self) -> dict[str, Any]:
        g = self.game
        hands = []
        in_hand = g.in_hand
        all_hands = g.hands()
        current = len(all_hands) - 1 if in_hand else None
        seen: dict[int, tuple[Any, dict]] = {}
        for k, hand in enumerate(all_hands):
            kept = self._closed_views.get(id(hand)) if k != current else None
            if kept is not None and kept[0] is hand and kept[1]["number"] == k + 1:
                view = kept[1]  # a closed hand is the same value until an undo reopens it
            else:
                view = self._hand_view(k, hand, g.points if k == current else ())
            if k != current:
                seen[id(hand)] = (hand, view)
            hands.append(view)
        self._closed_views = seen
        self._closed_keys = _keyed(hands if current is None else hands[:current], self._closed_keys)
        state = g.state
        if current is not None and self._left_waits is not None:
            hands[current] = self._unsettled(hands[current], all_hands[current].moves)
            state = None  # (the first reading's line of play is one of several: not drawn)
        ahead = self._announced()
        if ahead is not None:  # the next hand, announced: its first move is offered from a copy
            state = ahead.state
        legal = self.legal(ahead)
        if self._tiles is None:  # the engine's set: the same all game
            self._tiles = [str(t) for t in dict.fromkeys(g.tile_set())]
        return {
            "game": g.game,
            "seats": list(g.seats),
            "players": {p.seat: p.name for p in self.template.players},
            "hand": g.hand_number,
            "in_hand": in_hand,
            "hand_over": g.hand_over,
            "deal_known": g.deal_known if ahead is None else ahead.deal_known,
            "to_move": g.to_move if ahead is None else ahead.to_move,
            "announced": g.hand_number + 1 if ahead is not None else None,
            # A hand announced that cannot start yet (Castle Rock without its row): what it waits for.
            "waiting": self._waiting if ahead is None and self._recorder.hand_announced else None,
            # The lead its hand line named (the page's lead list shows it while the hand waits).
            "lead": self._recorder.announced_leader if ahead is None else None,
            # The hand whose left line waits for its end line's scores (see :attr:`_left_waits`).
            "end_waited": self._left_waits if ahead is None else None,
            # The hand its left line gave the deal and closed, right after it: the page's Undo
            # sends "undo left" then, which takes that line back (see :data:`UNDO_LEFT`).
            "left_closed": self._recorder.left_to_take_back if ahead is None else None,
            "over": g.over,
            "winner": g.winner,
            "totals": g.totals,
            "hands": hands,
            # Each closed hand's key (of it and the hands before it): what a page holding the
            # first closed hands sends back to be sent only the rest (see :func:`since`).
            "hands_keys": [key for _, key in self._closed_keys],
            "legal": legal,
            "plain": self.plain_moves(legal if ahead is None else None),
            "tiles": list(self._tiles),
            # The tiles of the hand in play, each as the engine's set names it (``tiles``: 6-1 for 1-6).
            "seen": [_domino(m["tile"]) for m in hands[current]["moves"] if m["tile"] is not None] if in_hand else [],
            "table": list(state.render()) if state is not None else [],
        }


def _keyed(closed: list[dict], kept: list[tuple[dict, str]]) -> list[tuple[dict, str]]:
    """Each closed hand's view with its key: a digest of the view and of the key of the hands
    before it, so that a key names the closed hands up to it, whole (the same hands give the same
    key in any session, after a restart too; a hand changed by an undo or a correction changes
    the keys from it on).  Computed once a hand closes: a view kept from the last state (the same
    object) keeps its key."""
    out: list[tuple[dict, str]] = []
    before = ""
    for k, view in enumerate(closed):
        if k < len(kept) and kept[k][0] is view and (k == 0 or out[k - 1][1] == kept[k - 1][1]):
            key = kept[k][1]
        else:
            text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            key = hashlib.blake2b(f"{before}|{text}".encode(), digest_size=8).hexdigest()
        out.append((view, key))
        before = key
    return out


def since(game: dict[str, Any], known: str | None) -> dict[str, Any]:
    """A game's state (:meth:`Session.state`) for a page that already holds its first closed
    hands: ``known`` is ``"KEY.N"``, the key of the N-th closed hand of a state the page holds
    (``hands_keys``).  When the game's N-th key is that key, its first N hands are the page's, so
    they are left out: ``hands`` and ``hands_keys`` hold the rest and ``hands_from`` is N.  Anything
    else (no ``known``, a key the game does not have there: an undo or a correction changed a
    closed hand) gets the whole state.  A game's finished hands are most of its state, and a
    table's page reads its state at every move and every few seconds between moves."""
    if not known or not isinstance(known, str):
        return game
    key, _, count = known.rpartition(".")
    keys = game.get("hands_keys")
    if not count.isascii() or not count.isdigit() or not isinstance(keys, list):
        return game
    n = int(count)
    if not 1 <= n <= len(keys) or keys[n - 1] != key:
        return game
    return {**game, "hands": game["hands"][n:], "hands_keys": keys[n:], "hands_from": n}


def requests_for(record: Record, keep_deal: bool = True) -> list[str]:
    """A finished game as a table's phone sends it: the typed form (seats the turn gives, forced
    passes and claims left out; the deal written, or the tiles left at each hand's end), each
    hand part line whole, each move alone, and ``y`` closing the last hand where it is still open.
    What the tests, the venue benchmark and the pictures of docs/venue.md replay."""
    out: list[str] = []
    for line in notation.dumps_typed(record, keep_deal=keep_deal).splitlines():
        if line and not line.startswith("["):
            out.extend([line] if line.split()[0] in PARTS else line.split())
    session = Session(attrs.evolve(record, hands=(), result=None))
    for text in out:
        session.take(text)
    if session.game.in_hand:
        out.append("y")
    return out
