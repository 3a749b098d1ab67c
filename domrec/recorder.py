"""Recording a game at the table, move by move: the library under ``domrec record``.

A :class:`Recorder` takes what a person types — DGN lines and tokens, plus a
few commands (``undo``, ``show``, ``scores``, ``help``) — checks each move the
moment it is entered through the Game API (:mod:`domrec.game`), and saves the
whole record after every accepted move, so that an interrupted session loses
at most the move being typed.  It is a thin layer: the rules are the engines',
the notation is :mod:`domrec.notation`'s, the file writing is
:mod:`domrec.output`'s (a temporary file renamed over the old; never over
a link, a folder, a device or a database).

The same object serves the interactive terminal (``interactive=True``: the end
of a hand waits for the other side's ``y``) and a pipe (confirmations implied;
``domrec record`` stops at the first refused line and goes back to the line
before, :meth:`Recorder.restore`; the venue's pages skip a refused word), so
tests that drive the pipe drive exactly what a person at the table drives.

From a pipe the stop is deliberate, whatever the refused line (a stray line of
no DGN at all too): going on past it would record a game with a line left out,
a different game from the one typed if the line was a move mistyped.  After a
line that leaves a choice (a tile that fits both ends), which only the lines
after it settle, a refusal among those lines stops the recording at the choice
itself, as no end is ever guessed for it; ``record_cli`` says so and what to do
(docs/recording.md, "A line that leaves a choice").
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, Callable, Sequence

import attrs

from domrec import deals, notation
from domrec import tiles as T
from domrec.convert import text_of, write_text
from domrec.errors import RECORD_CONTROLS, DomrecError, HiddenTiles, InputError, control_said, one_line
from domrec.game import Game, GameError, Refused
from domrec.notation.through_game import _complete
from domrec.notation.tokens import _full_tokens, _Text, _unescape_comment
from domrec.record import Deal, Hand, HandResult, HandTexts, Move, Pass, Play, Record, structure_move
from domrec.validate import wrong_score

HELP = """\
Type moves as in DGN, several on a line if you like:
  6-4            a tile (63, 6:3 and 6|3 work too); the player to move plays it
  W 6-4          a move with its seat (needed only out of turn)
  6-4@4-2        say which tile it goes on, when it fits both ends
  -              a pass (forced passes are made for you when the deal is known)
  +  +2-0        a draw (named when the boneyard was not entered)
  x5-3  x2-4,4-4,1-4        Castle Rock captures
  5-3@2,1  !4-4  *4-4@2,1   Broadway: a placement, an exposure, the penalty play
                 (or name the tile alone and pick a number from the list)
  r4+3  reuse  s3-4@NS1/4  5-6@NS1  b0-0@NS1/2/6+NS2/1/4  #3-3@NS1   Domino Roads
Before a hand's first move:  hand N lead SEAT,  deal SEAT tiles…,  row …,  boneyard …,  pile SEAT …
At a hand's end without the deal:  left SEAT tiles…; SEAT tiles…
At a "hand N" prompt:  end out NS 20   hand N's score alone, from a paper sheet
Commands:  undo  show  scores  help  y / n (confirm a hand's result)  quit
Ctrl-C clears the line being typed; a second Ctrl-C (or quit) stops"""

_COMMANDS = ("undo", "show", "scores", "help", "quit", "y", "n", "yes", "no")
_PARTS = ("deal", "row", "boneyard", "pile", "leaddraw", "redeal")
#: Commands that only look (the table, the totals, the help): the line before them still stands.
_LOOKS = ("show", "scores", "help")


class RecorderError(DomrecError):
    """A file the recorder cannot record into (another game, a finished game, not a record)."""


@attrs.define
class Recorder:
    """One game being recorded into ``path`` (``None``: nowhere, for tests)."""

    game: Game
    path: Path | None = None
    form: str = "dgn"
    interactive: bool = False
    say: Callable[[str], None] = print
    refuse_out: Callable[[str], None] = print
    refused: int = 0
    _seat: str | None = None
    _parts: dict = attrs.Factory(dict)
    _leader: str | None = None
    _comment: str | None = None
    _left: dict | None = None
    #: The hand a ``left`` line gave its deal and closed (or, with ``end``, kept as it stood), as
    #: :meth:`_close` left it: ``(closed hand, the deal known before the line, the line's tiles,
    #: how many moves the hand had before it, its number)``, so that ``undo`` takes that line back, the worked-out deal
    #: with it (:meth:`take_back_left`); ``None`` once any other hand is closed.
    _left_closed: tuple | None = None
    #: ``undo`` right after a ``left`` line gave its hand the deal and closed it takes that line
    #: back, the deal worked out from it too (the hand asks for its left line again), as a table
    #: means it.  ``False``: the meaning ``undo`` had before (the hand's last move taken back,
    #: the worked-out deal kept), which the ``undo`` lines of a venue table's log hold and replay
    #: with (:mod:`domrec.session`, whose ``undo left`` asks :meth:`take_back_left`): a log
    #: replays as it was written.
    undo_takes_left: bool = True
    _choices: list | None = None
    #: The tile named alone whose placements :attr:`_choices` lists, as it was typed.
    _choices_tile: str | None = None
    _confirming: bool = False
    _sheet_pending: bool = False
    _started_parts: dict = attrs.Factory(dict)
    #: The number of the hand in play when a typed hand line started it (``hand N``, a page's
    #: *Start hand N*), else ``None``: its first move taken back, an undo then takes back that
    #: line, not the last move of the hand before (:meth:`_take_back_typed`).
    _typed_hand: int | None = None
    #: The hand being prepared and the deal's parts (seats) its text gave so far (see
    #: :meth:`_first_in_text`); forgotten between a page's requests (:meth:`settle`).
    _given: tuple[int, set] | None = None
    #: Why the last quiet start of an announced hand failed, in one line (what it waits for).
    waiting: str | None = None
    #: The engine's problem with that start (a lead the deal rules out is refused at once).
    _not_started: Any = None
    #: The forced passes this recorder made by itself since the last move typed, each with its
    #: place in the hand (a page's table makes them between requests, the terminal after each
    #: move): a pass typed for one of them is that pass, written again, not a new one.
    _made: list = attrs.Factory(list)
    #: Where in the line being fed the word now being taken starts (0-based, in the stripped
    #: line), and where the first refusal of this recorder's life was: a caller that feeds
    #: lines one at a time (the venue's table pages) names the refused word by line:column.
    at: int = 0
    refused_at: int | None = None
    #: How many lines before the line being fed that first refusal points (0: at that line): a
    #: lead its hand line named, refused by a deal line after it in the same text, is refused
    #: at the lead, ``refused_at`` then being the lead's column in its own line.
    refused_back: int = 0
    #: How many lines were fed (blank ones too): a caller's line numbers, counted here.
    lines_fed: int = 0
    #: Where the announced hand's ``lead SEAT`` was typed: the :attr:`lines_fed` of its line and
    #: the seat's column there; forgotten between a page's requests (a lead from an earlier
    #: request is no place in the text being refused).
    _lead_spot: tuple[int, int] | None = None
    _hand_spot: tuple[int, int] | None = None
    _back: int = 0
    #: The terminal's width now (``None``: lines are not wrapped, as for a pipe or a page): the
    #: table is wrapped to it between tiles, never through one (:func:`fit_lines`).
    width: Callable[[], int] | None = None
    #: Stop reading a line at its first refused word (``domrec record`` from a pipe, which then
    #: stops the recording: see :meth:`restore`); otherwise a refused word is skipped.
    stop_at_refusal: bool = False
    #: The hand (by number) whose moves were read whole for now, by a caller that reads a line
    #: leaving a choice with the rest of the text (:func:`read_whole`, the venue's session).
    read_for_now: int | None = None
    #: What the last hand's start said (see :meth:`_start`).
    _start_said: str | None = None
    #: A hand started by its first move, the start not said yet: said once a move of it is
    #: taken (:meth:`_push`); a refused first move takes the start back (:meth:`_unstart`).
    _to_announce: str | None = None
    #: The line before this one (blank lines aside) was a ``left`` line that closed its hand:
    #: an ``end`` line now is that hand's claim, at the terminal too (see :meth:`_part_line`).
    _closed_by_left: bool = False
    _left_closed_last: bool = False
    #: The move that is starting the announced hand (for the example a refusal asking its seat gives).
    _first_data: dict = attrs.Factory(dict)
    #: A hand's end line found the hand not over and kept it so: a caller that read a line of it
    #: for now reads the text whole again (the hand's readings may close it).
    kept_open: bool = False
    #: A save failed (a full disk): no reading of the text would help.
    unsaved: bool = False
    #: A refusal takes back the whole request it came in (the venue's session): a refusal then
    #: never says what the refused line left recorded, since nothing of it is.
    all_or_nothing: bool = False
    #: The closed hands' texts from earlier saves (each save writes the whole game; a closed hand
    #: is written once: :class:`~domrec.record.HandTexts`).
    _texts: HandTexts = attrs.Factory(HandTexts)

    # --- making one -------------------------------------------------------------------------

    @classmethod
    def resume(cls, path: Path, **kw: Any) -> "Recorder":
        """A recorder continuing the unfinished record in ``path`` (DGN or JSON)."""
        record = read_record(path)
        if record.result is not None or _over(record):
            raise RecorderError(f"{path}: this game is over; there is nothing more to record")
        try:
            game = Game.from_record(record)
        except Refused as e:
            raise RecorderError(f"{path}: the record breaks a rule, so it cannot be continued: {e}") from None
        form = "json" if path.suffix == ".json" else "dgn"
        return cls(game, path, form, **kw)

    def fork(self) -> "Recorder":
        """A copy to feed texts into while this one stays as it is: the venue's session keeps one
        at each hand's close and, after a refusal, makes the table again from a fork of it and the
        requests since (one hand's, where making it again from the first request cost the whole
        game's: :meth:`domrec.session.Session._undo_request`).  The game is :meth:`Game.fork`'s copy (its hands,
        frozen values, shared); what the recorder holds of the hand being typed is copied; the
        moves it made by itself are the same values (:attr:`_made` names them by identity).  A
        recorder that saves a file is not forked: two would write it."""
        if self.path is not None:
            raise RecorderError("a recorder that saves a file is not forked")
        twin = copy.copy(self)
        twin.game = self.game.fork()
        twin._parts = copy.deepcopy(self._parts)
        twin._started_parts = copy.deepcopy(self._started_parts)
        twin._left = copy.deepcopy(self._left)
        twin._left_closed = copy.deepcopy(self._left_closed)
        twin._given = None if self._given is None else (self._given[0], set(self._given[1]))
        twin._made = list(self._made)
        twin._choices = None if self._choices is None else list(self._choices)
        twin._texts = HandTexts()
        return twin

    # --- feeding it ---------------------------------------------------------------------------

    def feed_text(self, text: str) -> None:
        """A whole DGN text (tags are skipped: they made the game), line by line: its lines as DGN
        has them, ended by line feeds only (``splitlines`` would also end one at a form feed or a
        U+2028, which :meth:`feed_line` refuses)."""
        for line in text.split("\n"):
            if line.strip().startswith("[") and line.strip().endswith("]"):
                continue
            self.feed_line(line)

    def feed_line(self, line: str) -> None:
        """One line as typed: a hand part (``deal N …``), a command, or moves and commands."""
        self.lines_fed += 1
        bad = RECORD_CONTROLS.search(line)
        if bad is not None:  # (before the strip, which takes some of them for spaces)
            self.at = bad.start() - (len(line) - len(line.lstrip()))
            self._refuse(control_said(bad.group()))
            return
        stripped = line.strip()
        if not stripped:
            return
        self._closed_by_left, self._left_closed_last = self._left_closed_last, False
        first = stripped.split(None, 1)[0].lower()
        self.at = 0
        before = self.refused
        self._take_line(stripped, first)
        g = self.game
        if (self._closed_by_left and not g.in_hand and not self.hand_announced
                and (first in _LOOKS or (first in ("left", "end") and self.refused > before))):
            # The hand the left line closed still takes its end line: a claim refused (put it right
            # and type it again), a left line refused, or a look at the table in between does not
            # make the next end line a score-sheet hand nobody played.
            self._left_closed_last = True

    def _take_line(self, stripped: str, first: str) -> None:
        """:meth:`feed_line`, the line stripped and its first word (lower case) read."""
        if first in ("hand", "left", "end", *_PARTS):
            self._part(first, stripped)
            return
        try:
            tokens = list(_full_tokens(_Text(stripped, 1)))
        except notation.NotationError as e:
            self._refuse_at(e)
            return
        before = self.refused
        for k, tok in enumerate(tokens):
            if self.stop_at_refusal and self.refused > before:
                return
            if self.interactive and self.refused > before:
                rest = " ".join(t.text for t in tokens[k:])
                self.say(f"not taken (type it again once the refused move is put right): {rest}")
                return
            self.at = tok.pos
            if tok.kind == "comment":
                self._note(_unescape_comment(tok.text[1:-1]))
            elif tok.kind == "semi":
                self._refuse("; separates the seats of a deal or left line, not moves")
            else:
                self.feed_token(tok.text)

    def feed_token(self, word: str) -> None:
        """One word: a seat, a move, a number picking a placement, or a command."""
        low = word.lower()
        if self._choices is not None and word.isdigit():
            self._pick(int(word))
            return
        offered, self._choices = self._choices, None
        g = self.game
        if offered and low == "undo" and word not in g.seats:
            # The list of placements is the last thing said: undo takes it back alone (it had
            # gone on to take back the move before it too).
            self.say(f"took back the placements offered for {self._choices_tile} (no move was made)")
            return
        if low in _COMMANDS and word not in g.seats:  # seat N is not the answer n
            self._command(low)
            return
        if word in g.seats:
            if self._seat is not None:
                self._refuse(f"seat {self._seat} is not followed by a move ({word} is a seat too)")
            self._seat = word
            return
        seat, self._seat = self._seat, None
        if word[-1] == "." and word[:-1].isdigit():
            return
        try:
            parsed = notation.parse_moves(g.game, g.seats, word)
        except notation.NotationError as e:
            self._refuse(self._reader_said(e.message, seat))
            return
        for data, exposure in parsed:
            self._move(data, exposure, seat)

    def finish(self) -> None:
        """The end of the input: a hand that is over is closed (its result implied)."""
        if self._seat is not None:
            self._refuse(f"seat {self._seat} is not followed by a move")
            self._seat = None
        if self.game.in_hand and (self.game.hand_over or self._left is not None):
            self._close()
        elif self._sheet_pending:
            self._sheet_pending = False

    @property
    def left_typed(self) -> dict[str, list[str]] | None:
        """The tiles a ``left`` line gave for the hand in play, kept until the hand closes (its
        ``end`` line, or the next hand's first move): ``None`` when none waits."""
        return self._left if self.game.in_hand else None

    @property
    def prompt(self) -> str:
        """The terminal's prompt: what the table is asked for next (a confirmation, whose move, the
        end line a left line waits for, a hand's start), docs/recording.md, "Starting a game".
        Right after the left line that closed a hand, an end line is still that hand's claim (see
        :meth:`_part_line`): the prompt names that hand's end line before the next hand's start,
        as a refused claim there names that hand."""
        g = self.game
        if self._confirming:
            return "confirm (y/n)> "
        if g.in_hand and self.left_typed is not None and not g.hand_over:
            return f"hand {g.hand_number} (end, or undo)> "
        if g.in_hand and g.to_move:
            return f"hand {g.hand_number}, {g.to_move} to play> "
        if g.in_hand:
            return f"hand {g.hand_number}> "
        if self.kept_last:
            return f"hand {g.hand_number} kept as it stands (undo reopens it)> "
        if self._left_closed_last and not self.hand_announced and g.hand_number:
            return f"hand {g.hand_number}'s end line, or hand {g.hand_number + 1} (deal lines, or the first move)> "
        return f"hand {g.hand_number + 1} (deal lines, or the first move)> "

    @property
    def kept_last(self) -> bool:
        """The last hand was closed before it was over (``end`` while it was being played): kept as
        it stands, it is the game's last hand, and no next hand can start (an undo reopens it)."""
        g = self.game
        return not g.in_hand and g.hand_number > 0 and not g.over and g.outcome_of(g.hand_number) is None

    @property
    def announced_leader(self) -> str | None:
        """The lead a ``hand N lead SEAT`` line named for the hand announced, not started yet
        (``None``: as the rules say, or no hand announced)."""
        return self._leader if self.hand_announced else None

    @property
    def hand_announced(self) -> bool:
        """A ``hand N`` line (and perhaps parts of its deal) was taken and the hand has not
        started: it starts at its first move, so that more of the deal, or its score alone, may
        still come."""
        return not self.game.in_hand and (self._sheet_pending or bool(self._parts))

    def unsaved_lines(self) -> list[str]:
        """What was typed of the next hand before its first move and is not in the file, as DGN
        lines (its hand line with a lead or a comment, the parts of a deal not yet whole); ``[]``
        when nothing is.  A hand is saved when it starts: at its first move, or as soon as its
        deal is whole (and has what the game needs: Castle Rock's row…).  Until then the record
        cannot hold it, as a DGN deal gives every seat or none (docs/notation.md, "Hands"), so
        a recording stopped then names these lines, to be typed again when it is continued."""
        g = self.game
        if g.in_hand or not (self._parts or self._leader is not None or self._comment is not None):
            return []
        from domrec.notation.writer import _hand_lines

        hand: dict[str, Any] = {}
        if self._leader is not None:
            hand["leader"] = self._leader
        if self._comment is not None:
            hand["comment"] = self._comment
        if self._parts:
            hand["deal"] = {"hands": {}, **copy.deepcopy(self._parts)}
        return _hand_lines(g.hand_number, hand, g.game)

    def start_announced(self) -> bool:
        """Start the announced hand with what was given of it (for a look at how it would stand:
        the session does this on a copy, never on the table's own game)."""
        return self.hand_announced and self._start(quiet=True)

    def started_copy(self) -> Game | None:
        """The announced hand started, with what was given of it, on a copy of the game made from
        its state (the game itself untouched), or ``None`` when nothing is announced or it cannot
        start yet: what the table's page offers before the hand's first move.  A fork of the game,
        not a replay of its requests or its record: its cost is one hand's state."""
        if not self.hand_announced:
            return None
        copy = self.game.fork()
        self.waiting = None
        try:
            copy.start_hand(notation.deal_from_parts(self._parts), self._leader, self._comment)
        except Refused as e:  # what the hand still waits for (a row, piles, a lead), said on the page
            self.waiting = _waiting_words(copy, e.problem, self._leader)
            return None
        except GameError:
            return None
        return copy

    def settle(self) -> None:
        """Between requests of a page: the passes now forced are made, so that who is to move is
        right while the table waits (within a text they are made when the next move shows them).
        The next request is a text of its own: a deal line in it may replace one sent before."""
        self._given = None
        self._lead_spot = None
        if self.game.in_hand and self.game.deal_known and not self.game.hand_over:
            self._forced_passes(None, {})

    def restore(self, record: Record) -> None:
        """Go back to ``record`` (taken from :attr:`game` earlier) and save it: a text whose line
        was refused is recorded up to the line before, never as a different game."""
        changed = self.game.record() != record
        if changed:  # (unchanged, the game stays as it is: a hand without its deal that is over,
            # waiting for its left line, is no record Game.from_record takes on its own)
            self.game = _game_of(record)
        self._parts, self._leader, self._comment, self._left = {}, None, None, None
        self._choices, self._confirming, self._sheet_pending, self._seat = None, False, False, None
        self._given = None
        self._made = []
        if changed:  # (a line refused before anything was saved left the file as it was)
            self._save()

    # --- moves --------------------------------------------------------------------------------

    def _move(self, data: dict, exposure: bool, seat: str | None) -> None:
        g = self.game
        if data.get("pass") and not exposure and self._made and self._written_again(data, seat):
            return
        if g.over:
            self._refuse(f"the game is over ({_totals(g.totals)}): no more moves")
            return
        if g.in_hand and self._left is not None and self.interactive and not g.hand_over:
            self._refuse(f"hand {g.hand_number} waits for its end line: its left line says who still holds what; "
                         f"type end to keep the hand as it stands, or undo to take the left line back first")
            return
        if g.in_hand and g.hand_over and self._this_hands(data) and not self._closing_move(data, seat):
            self._not_closing(data, seat)  # refused with the rule's words: the hand waits as it was
            return
        if g.in_hand and (self._left is not None or (g.hand_over and not self._closing_move(data, seat))):
            self._close()
            if g.over:
                self._refuse(f"the game is over ({_totals(g.totals)}): no more moves")
                return
        announced = None
        if not g.in_hand:  # the hand's first move starts it; refused, it leaves the hand as announced
            announced = (copy.deepcopy(self._parts), self._leader, self._comment, self._sheet_pending,
                         self._started_parts, self._start_said)
            self._first_data = data
            if not self._start_led_by(seat):
                return
        if g.game == "broadway" and "at" not in data and "play" in data:
            self._offer_placements(data, seat)
            if announced is not None and not g.moves and self._choices is None:
                self._unstart(announced)
            return
        assumed = self._lead_by(seat)
        if g.deal_known and not exposure:
            self._forced_passes(seat, data)
        who = seat if seat is not None else g.to_move
        if who is None and g.in_hand and g.hand_over:
            # A closing move (Castle Rock's captures after the hand's last tile) follows no turn:
            # the text writes its seat (docs/notation.md, "Seats"), and validate asks for it too
            # ("whose move is this? the hand is over"); "who leads is not known yet" was said here.
            self._refuse(f"whose move is this? write its seat first ({self._closing_example(data)}): the hand is "
                         f"over: a move after its last tile carries its seat [seats]")
        elif who is None:
            self._refuse(f"whose move is this? write its seat first ({self._seat_example(data)}): who leads is "
                         f"not known yet [seats]")
        elif self._push(structure_move(_complete({"seat": who, **data}))):
            return
        if assumed is not None:  # (the hand as it was before the refused move said who leads)
            g.restore(assumed, last=True)
        if announced is not None:
            self._unstart(announced)

    def _start_led_by(self, seat: str | None) -> bool:
        """Start the announced hand at its first move.  A hand whose whole deal is given and whose
        leader nobody named, where only the record can say who leads (three-player Domino Roads'
        first hand), is led by the seat this first move names, as the same text reads in a record
        ("the seat of the first move says who leads, with or without the deal written")."""
        if self._leader is not None:
            return self._start(hold=True)
        if self._start(quiet=True, hold=True):
            return True
        problem = self._not_started
        if problem is None or not problem.pointer.endswith("/leader"):
            return self._start(hold=True)  # (refused, in the rule's words)
        if seat is None:
            self._refuse(f"whose move is this? write its seat first ({self._seat_example(self._first_data)}): who "
                         f"leads is not known yet [seats]")
            return False
        self._leader = seat
        if self._start(hold=True):
            return True
        self._leader = None
        return False

    def _lead_by(self, seat: str | None) -> Any:
        """A hand started with no leader named (its deal whole, say) where the engine took the
        first seat to lead until told otherwise (Castle Rock's first hand, whose dealer nobody
        wrote): a first move typed with another seat says who leads, as in a record, and the hand
        is started again led by it.  Where the rules fix the lead (the rotation, the double, the
        lead draw) the engine refuses that start and nothing changes: the move is then refused
        as out of turn.  Returns the game as it stood before (to go back to if the move is
        refused), or ``None`` when nothing was changed."""
        g = self.game
        if seat is None or not g.in_hand or g.moves or g.hand_over or g.to_move in (None, seat):
            return None
        current = g.record().hands[-1]
        if current.leader is not None or seat not in g.seats:
            return None
        before, assumed = g.checkpoint(), g.to_move
        try:
            g.abandon_hand()
            g.start_hand(current.deal, seat, current.comment)
        except (Refused, GameError):
            g.restore(before, last=True)
            return None
        if self._to_announce is not None:  # (a hand this very move starts: its start names its leader)
            self._to_announce = self._to_announce.replace(f", {assumed} to play", f", {seat} to play", 1)
        return before

    def _seat_example(self, data: dict) -> str:
        """A first move with its seat, for a refusal that asks for the seat: this game's first seat
        and the move as typed (``P1 5-3``, ``N r4+3``), so that the example fits the table."""
        from domrec.notation.writer import _move_text

        try:
            text = _move_text(data, self.game.game)
        except (KeyError, TypeError, ValueError):
            text = "6-6"
        return f"{self.game.seats[0]} {text}"

    def _closing_example(self, data: dict) -> str:
        """The closing move typed without its seat, written with the seat the rules give it (the
        last placer's, who keeps capturing), for the refusal that asks for that seat."""
        from domrec.notation.writer import _move_text

        g = self.game
        seat = next((m.seat for m in g.closing_moves() if _structured(m.seat, data) == m),
                    g.moves[-1].seat if g.moves else g.seats[0])
        try:
            text = _move_text(data, g.game)
        except (KeyError, TypeError, ValueError):
            return seat
        return f"{seat} {text}"

    def _unstart(self, announced: tuple) -> None:
        """The hand a refused first move started, taken back with the forced passes made before
        that move: the hand is as it was announced (its hand line, the parts of its deal typed)
        and the file as before the move, as a refused move leaves everything ("nothing is saved
        and nobody's turn moves on"); the next line is still the hand's first."""
        g = self.game
        if not g.in_hand or g.hand_over:
            return
        while g.moves:
            g.pop()
        g.abandon_hand()
        self._parts, self._leader, self._comment, self._sheet_pending, self._started_parts, \
            self._start_said = announced
        self._made, self._to_announce = [], None
        self._save()

    def _written_again(self, data: dict, seat: str | None) -> bool:
        """A pass typed for a forced pass this recorder already made (a canonical text, which
        writes every forced pass, typed at a page or a terminal that made them): taken as that
        same pass, as the whole-text reader reads it.  Without a seat it is the first pass still
        unwritten; with one, that seat's (the passes before it were forced too).  A claimed
        score must be the pass's own."""
        g = self.game
        if not g.in_hand:
            self._made = []
            return False
        moves = g.moves
        made = [(i, m) for i, m in self._made if i < len(moves) and moves[i] is m]
        self._made = made
        for k, (i, m) in enumerate(made):
            if seat is not None and m.seat != seat:
                continue
            claim = data.get("score")
            if claim is not None and claim != g.points[i]:
                return False
            del self._made[:k + 1]
            self.say(f"{_describe(m)} (forced: made already)")
            return True
        return False

    def _closing_move(self, data: dict, seat: str | None) -> bool:
        """A move the hand that is over still takes (Castle Rock's closing captures, closing passes)."""
        g = self.game
        if data.get("pass"):
            return True  # a closing pass of a block: the engine says whether one more is allowed
        legal = g.closing_moves()
        if not legal:
            return False
        who = seat if seat is not None else legal[0].seat
        try:
            return structure_move({"seat": who, **data}) in legal
        except (KeyError, TypeError, ValueError):
            return False

    @staticmethod
    def _this_hands(data: dict) -> bool:
        """A move typed once the hand is over that can only be this hand's: a capture, a draw or a
        pass, none of which opens a hand (a tile may be the next hand's first move, which accepts
        the result).  Whether the rules still allow it is the engine's to say."""
        return any(key in data for key in ("capture", "draw", "pass"))

    def _not_closing(self, data: dict, seat: str | None) -> None:
        """A capture, draw or pass typed once the hand is over that the rules do not allow: refused
        in the engine's words (``P2 cannot capture 5-2: its neighbours 2-2 and 1-1 share no
        number``), and the hand waits for its confirmation as before, rather than being closed
        with the move tried as the next hand's first."""
        g = self.game
        legal = g.closing_moves()
        who = seat or (legal[0].seat if legal else g.moves[-1].seat if g.moves else g.seats[0])
        try:
            move = structure_move(_complete({"seat": who, **data}))
        except (KeyError, TypeError, ValueError):
            self._refuse(f"hand {g.hand_number} is over: confirm its result (y), or n to take back its last move")
            return
        self._push(move)

    def _forced_passes(self, seat: str | None, data: dict) -> None:
        g = self.game
        for _ in range(4 * len(g.seats)):
            to = g.to_move
            if to is None or g.hand_over or (seat is None and data.get("pass")) or seat == to:
                break
            if not g.deal_known or not g.forced_pass():
                break
            self._push(Pass(seat=to), forced=True)

    def _push(self, move: Move, forced: bool = False) -> bool:
        g = self.game
        try:
            points = g.push(move)
        except Refused as e:
            self._refuse(f"{_describe(move)}: {e.problem.message} [{e.problem.rule}]")
            return False
        if move.score is not None and move.score != points:
            said = wrong_score(move, points, g.state)  # the validator's words: what was counted
            g.pop()
            self._refuse(f"{_describe(move)}: {said} [scoring]; type it again (the claim is optional: the recorder "
                         f"works the points out)")
            return False
        if not self._save():
            g.pop()
            return False
        if forced:
            self._made.append((len(g.moves) - 1, g.moves[-1]))
        else:
            self._made = []
        gained = f" (+{points})" if points else ""
        if self._to_announce is not None:  # (the hand this move started)
            self.say(self._to_announce)
            self._to_announce = None
        self.say(f"{_describe(move)}{' (forced)' if forced else ''}{gained}")
        if self.interactive and not forced:
            # At the table a forced pass is made at once, so the prompt names who really plays
            # next (from a text the passes are made when the next move shows they were left out).
            self._forced_passes(None, {})
            self._show_table()
        if g.in_hand and g.hand_over and not forced and self.interactive:
            self._announce()
        return True

    # --- Broadway: a tile named without its cells -------------------------------------------

    def _offer_placements(self, data: dict, seat: str | None) -> None:
        g = self.game
        choices = placements(g, data["play"], seat)
        if not choices:
            why = self._no_placement(data["play"], seat)
            self._refuse(f"{data['play']} has no legal placement now" + (f": {why}" if why else ""))
            return
        if len(choices) == 1 and not self.interactive:
            self._push(choices[0][0])
            return
        self._choices, self._choices_tile = choices, data["play"]
        self.say(f"{data['play']} can go:")
        # Who plays is said when it is not the same for every placement, or not the player to move
        # (the opponents' penalty play of an exposed tile: E's and W's placements, listed together).
        whose = {move.seat for move, _ in choices} != {g.to_move} or any(move.penalty for move, _ in choices)
        for k, (move, points) in enumerate(choices, 1):
            (x1, y1), (x2, y2) = move.at
            if whose:
                self.say(f"  {k}. {_describe(move)}, scores {points}")
            else:
                self.say(f"  {k}. {move.play} at ({x1},{y1})-({x2},{y2}), scores {points}")
        self.say("pick a number")

    def _no_placement(self, tile: str, seat: str | None) -> str | None:
        """Why ``tile`` has no placement now, in the engine's words with its rule, when the reason
        is not the cells (``E's exposed 6-3 must be played now by N or S … [broadway: exposed
        tile]``, ``N does not hold 6-2``): the tile is tried at one spot on a copy of the table,
        and a refusal that names that spot says nothing of the tile's other spots (``None``).  The
        bare "has no legal placement now" once left the scorer guessing, while the same tile
        typed with a spot was refused with the rule."""
        g = self.game
        state = g.state
        who = seat if seat is not None else g.to_move
        if state is None or who is None:
            return None
        try:
            t = T.tile(tile)
            spots = state._placements(who, (t,), penalty=False) if g.moves else []
        except (DomrecError, KeyError, TypeError, ValueError, AttributeError):
            return None
        probe = spots[0] if spots else Play(seat=who, play=tile, at=((0, 0), (1, 0)))
        try:
            copy.deepcopy(state).apply(probe)
        except DomrecError as e:
            message, rule = getattr(e, "message", str(e)), getattr(e, "rule", None)
            if _CELL.search(message) or not rule:
                return None
            return f"{message} [{rule}]"
        return None

    def _pick(self, k: int) -> None:
        choices, self._choices = self._choices or [], None
        if not 1 <= k <= len(choices):
            self._refuse(f"pick a number from 1 to {len(choices)}")
            self._choices = choices
            return
        self._push(choices[k - 1][0])

    # --- hands ------------------------------------------------------------------------------

    def _part(self, kind: str, line: str) -> None:
        """``hand``, ``deal``, ``row``… before a hand's moves; ``left`` and ``end`` after them."""
        g = self.game
        try:
            parsed = notation.parse_hand_line(g.game, g.seats, line)
        except notation.NotationError as e:
            self._refuse_at(e)
            return
        if kind == "hand":
            self._hand_spot = (self.lines_fed, _lead_column(line)) if "leader" in parsed else None
        if kind != "hand" and "comment" in parsed:
            # A comment on a deal, left or end line is the hand's, as DGN reads it: kept once the
            # line is taken (a deal's with the hand it starts), and not at all if it is refused.
            note = parsed.pop("comment")
            if kind in _PARTS:
                self._part_line(kind, parsed, note, line)
                return
            before = self.refused
            self._part_line(kind, parsed, None, line)
            if self.refused == before and (g.in_hand or g.hand_number):
                g.comment_hand(note)
                self._save()
            return
        self._part_line(kind, parsed, None, line)

    def _part_line(self, kind: str, parsed: dict, note: str | None, line: str = "") -> None:
        """:meth:`_part`, the line read (``note``: a deal line's comment, for its hand; ``line``:
        the line as typed, where a tile it refuses is placed)."""
        g = self.game
        if kind == "hand":
            if g.in_hand and self._left is not None:
                self._close()
            if g.in_hand:
                if g.moves and not g.hand_over:
                    self._refuse(f"hand {g.hand_number} is not over yet")
                    return
                if g.hand_over:
                    self._close()
            self._hand_line(parsed)
            return
        if kind in _PARTS:
            if g.in_hand and g.moves:
                # (most often the next hand's, typed too soon: said so, in docs/venue.md's words)
                self._refuse(f"{kind} comes before the hand's first move: the next hand's {kind} is typed once "
                             f"hand {g.hand_number} is played")
                return
            empty = next((seat for key in ("hands", "piles") for seat, tiles in (parsed.get(key) or {}).items()
                          if not tiles), None)
            if empty is not None:  # (a seat's line with no tile: the hand could never start)
                number = g.hand_number if g.in_hand else g.hand_number + 1
                self._refuse(f"hand {number}: {kind} {empty} lists no tile: a {kind} line lists the seat's tiles "
                             f"({kind} {empty} 6-4 0-0 …) [the deal]")
                return
            given = None if self._given is None else (self._given[0], set(self._given[1]))
            if not self._first_in_text(kind, parsed):
                return
            wrong = None if kind == "redeal" else self._dealt_wrong(parsed, line)
            if wrong is not None:  # (what the line shows with the parts before it: said now, at its tile)
                self._given = given  # (not given: the line put right may come in the same text)
                self.at, said = wrong
                self._refuse(said)
                return
            was = g.record().hands[-1] if g.in_hand else None
            kept = (copy.deepcopy(self._parts), self._leader, self._comment, self._sheet_pending,
                    self._started_parts, self.waiting, given)
            if g.in_hand:  # a hand started with what was given so far: start it again with more
                current = g.record().hands[-1]
                self._leader, self._comment = current.leader, current.comment
                self._parts = self._started_deal()
                g.abandon_hand()
            _merge_part(self._parts, parsed)
            # (a deal line typed again to put it right, its comment with it, does not keep the
            # comment twice: a part line replaces the one before, and its comment stands once)
            if note is not None and note not in (self._comment or "").split("\n"):
                self._comment = note if self._comment is None else f"{self._comment}\n{note}"
            self._sheet_pending = False
            if len(self._parts.get("hands", {})) == len(g.seats):
                # The deal is complete: saved now, before the first move.  A part still to come
                # (a row, piles) keeps it waiting; what is wrong is said at the first move (and
                # at the terminal now, as a page shows it: what the hand waits for).
                if self._start(quiet=True, again=was is not None):
                    return
                spot = self._lead_spot
                back = None if spot is None or spot[0] >= self.lines_fed else self.lines_fed - spot[0]
                lead = self._lead_refused(back)
                if lead is not None:  # the hand line's lead, typed before the deal that rules it out
                    self._parts, self._leader, self._comment, self._sheet_pending, self._started_parts, \
                        self.waiting, self._given = kept
                    if was is not None:  # the hand its deal had started, as it was (and as saved)
                        g.start_hand(was.deal, was.leader, was.comment)
                    if back is not None and not self.interactive:
                        # Refused where the lead was typed (the caller names its line and column),
                        # not at this deal line, which is right.
                        self.at, self._back = spot[1], back
                    self._refuse(lead)
                    return
                if self.interactive and self.waiting and not _still_typing(kind, self._not_started):
                    self.say(self.waiting)
            return
        if kind == "left":
            if not g.in_hand:
                self._refuse("left comes at the end of a hand being played")
                return
            problem = g.left_problem(parsed["left"])
            if problem is not None:  # refused here, naming this line, not at the line after it
                said = problem.message
                self._refuse(f"{'' if said.startswith('hand ') else f'hand {g.hand_number}: '}{said} [{problem.rule}]")
                return
            over, problem = (True, None) if g.hand_over else _over_with(g, parsed["left"], self.interactive)
            if problem is not None:
                # The deal this line gives cannot be worked out (seats left out that still hold
                # tiles): no end line after it could close the hand, so it is refused here, at
                # this line, as at the terminal (which closes the hand at once), not at the end.
                said = problem.message
                self._refuse(f"{'' if said.startswith('hand ') else f'hand {g.hand_number}: '}{said} [{problem.rule}]")
                return
            self._left = parsed["left"]
            if over:
                # The hand is checked and closed at once (an end line after it claims its result);
                # a hand the moves have not ended, even with the deal the left line gives, waits
                # for its end line.
                self._close()
                self._left_closed_last = not g.in_hand
            elif self.interactive:
                self.say(f"hand {g.hand_number} is not over with the tiles this left line gives: type end to keep "
                         f"the hand as it stands (not over: the game's last hand), or undo to take the left line "
                         f"back and go on with the moves")
            return
        if kind == "end":
            claim = HandResult(scores=parsed.get("scores"), end=parsed.get("end"))
            if self.interactive and not g.in_hand and not self._parts and not self._closed_by_left:
                # At a "hand N" prompt the end line is hand N's, as the prompt says: its score
                # alone, from a paper sheet (the hand before was closed when it was confirmed).
                # Right after the left line that closed the hand before, it is that hand's claim,
                # as DGN writes a hand (left, then end) and as from a pipe: a bare "end" there made
                # a score-sheet hand of nothing (NS 0, EW 0), a hand nobody played.
                self._sheet_pending = True
            if not g.in_hand and self._sheet_pending:  # a score-sheet hand: its result alone
                try:
                    outcome = g.add_score_sheet_hand(claim.scores or {}, claim.end, self._leader, self._comment)
                except Refused as e:
                    self._refuse(f"{e.problem.message} [{e.problem.rule}]; type the hand's end line again")
                    return
                except GameError as e:
                    self._refuse(str(e))
                    return
                # (its hand line's lead and comment are this hand's, not the next one's)
                self._sheet_pending, self._leader, self._comment = False, None, None
                if not self._save():
                    g.pop()
                    return
                self.say(f"hand {g.hand_number}: {_totals(outcome.scores)} (score sheet); totals {_totals(g.totals)}")
                return
            if not g.in_hand and g.hand_number and not self._parts:
                self._claim_closed(claim)  # the hand closed already (confirmed, or a file continued)
                return
            if not g.in_hand:
                self._refuse("end closes a hand being played (or, right after hand N, records its scores alone)")
                return
            self._close(claim)

    def _started_deal(self) -> dict:
        """The parts of the deal the hand in play started with (none of its moves made yet), as
        :meth:`_part_line` merges a part line into: the game's own, so that a file continued,
        whose last hand its whole deal started, keeps that deal when a part line (a boneyard, a
        row) comes next; the parts typed in this session are not all there is to it."""
        from domrec.record import converter

        deal = self.game.record().hands[-1].deal
        return dict(converter.unstructure(deal, Deal)) if deal is not None else {}

    def _dealt_wrong(self, parsed: dict, line: str) -> tuple[int, str] | None:
        """What a part line of a hand's deal shows wrong on its own, with the parts given before
        it: a tile not of the game's set, or one dealt twice (in the line, or given already to
        another seat, the boneyard, the row, a pile), as ``(column, words)`` in the words a
        validation gives; ``None`` when nothing is.  A scorer typing the deal hears of a typo at
        its line, not when the hand starts.  How many tiles a seat gets, and what else the deal
        must be, is the engine's, said when the hand starts; a set holding tiles twice (Domino
        Roads') is counted there too."""
        g = self.game
        full = list(g.tile_set())
        valid = set(full)
        if len(valid) != len(full):
            return None
        name = next((n for n, tiles in T.SETS.items() if set(tiles) == valid), None)
        before = self._started_deal() if g.in_hand else self._parts
        seen: dict[Any, str] = {}

        def holder(key: str, seat: str | None) -> str:
            return {"hands": f"{seat}", "piles": f"{seat}'s pile"}.get(key, f"the {key}")

        for key in ("hands", "piles"):
            for seat, texts in (before.get(key) or {}).items():
                if seat not in (parsed.get(key) or {}):  # (a seat's line given again replaces it)
                    for x in texts:
                        seen.setdefault(T.tile(x), holder(key, seat))
        for key in ("boneyard", "row"):
            if key not in parsed:
                for x in before.get(key) or ():
                    seen.setdefault(T.tile(x), holder(key, None))
        mine = [(x, holder(key, seat)) for key in ("hands", "piles") for seat, texts in (parsed.get(key) or {}).items()
                for x in texts] + [(x, holder(key, None)) for key in ("boneyard", "row") for x in parsed.get(key) or ()]
        for k, (text, who) in enumerate(mine):
            t = T.tile(text)
            said = None
            if t not in valid:
                said = f"{text} is not a tile of the {name} set" if name else f"{text} is not a tile of this game's set"
            elif t in seen:
                said = (f"{text} is dealt twice ({seen[t]} has it {'twice' if seen[t] == who else 'too'}); the set "
                        f"has one of each tile")
            if said is not None:
                number = g.hand_number if g.in_hand else g.hand_number + 1
                return _tile_column(line, k), f"hand {number}: {said} [{g.deal_rule}]"
            seen[t] = who
        return None

    def _first_in_text(self, kind: str, parsed: dict) -> bool:
        """Whether this part line is the first of its kind (for each seat it names) for the hand
        being prepared, in the text being read; if not, it is refused.

        A text gives one hand's deal at a time, as DGN does ("deal gives N's tiles twice"):
        several hands' deal lines in one post would otherwise replace each other, the last one
        winning.  A line typed again on its own (another request, another terminal line)
        replaces the one before, which is how a mistyped seat is put right."""
        g = self.game
        number = g.hand_number if g.in_hand else g.hand_number + 1
        if self._given is None or self._given[0] != number:
            self._given = (number, set())
        given = self._given[1]
        keys = [(key, seat) for key in ("hands", "piles", "lead_draw") for seat in parsed.get(key, {})]
        keys += [(key, None) for key in ("row", "boneyard") if key in parsed]
        again = [seat for key, seat in keys if (key, seat) in given]
        if again:
            what = kind if again[0] is None else f"{kind} {again[0]}"
            self._refuse(f"{what} is given already for hand {number}: one hand's deal at a time (hand "
                         f"{number + 1}'s once hand {number} is played); to correct it, type the line again "
                         f"on its own")
            return False
        if not self.interactive:  # at the terminal each line is a text of its own
            given.update(keys)
        return True

    def _hand_line(self, parsed: dict) -> None:
        """``hand N [lead SEAT]`` before the hand's first move.

        The deal lines may come first (a complete deal starts its hand by itself): a hand line
        for that same hand keeps them, and names the lead (none: as the rules say).  The line
        is tried at once: a lead the rules refuse is refused here, naming this line, and
        nothing changes; a hand that cannot start yet for want of a part (Castle Rock's row, a
        lead the rules leave to the record) is announced, and what it waits for is said."""
        g = self.game
        started = g.in_hand
        if started and (g.moves or g.hand_over):
            return  # a hand over that could not be closed: its refusal was said
        number = g.hand_number if started else g.hand_number + 1
        if parsed["number"] != number:
            self._refuse(f"the next hand is hand {number}, not hand {parsed['number']}")
            return
        if started:  # its complete deal started it (or a file continued holds it): the same hand, its deal kept
            from domrec.record import converter

            current = g.record().hands[-1]
            parts = converter.unstructure(current.deal, Deal) if current.deal is not None else {}
            comment = current.comment
        else:  # the parts typed before this line (if any) are this hand's
            parts, comment = self._parts, self._comment
        before = g.checkpoint() if started else None
        if started:
            g.abandon_hand()
        leader = parsed.get("leader")
        comment = parsed.get("comment") if parsed.get("comment") is not None else comment
        try:
            g.start_hand(notation.deal_from_parts(parts), leader, comment)
        except Refused as e:
            if leader is not None and e.problem.pointer.endswith("/leader"):
                if before is not None:
                    g.restore(before)
                self.at = self._hand_spot[1] if self._hand_spot is not None else self.at  # (at the seat)
                self._refuse(f"hand {number}: {e.problem.message} [{e.problem.rule}]")
                return
            waiting = _waiting_words(g, e.problem, leader)  # a part still to come: said, the hand announced
        except GameError as e:
            if before is not None:
                g.restore(before)
            self._refuse(str(e))
            return
        else:
            waiting = None
            g.abandon_hand()  # a trial: the hand starts at its first move (or a complete deal, below)
        self._leader, self._comment, self._parts = leader, comment, parts
        self._lead_spot = self._hand_spot if leader is not None else None
        self._sheet_pending = not parts  # a hand line alone may be followed by the hand's score alone
        if len(parts.get("hands", {})) == len(g.seats) and waiting is None:
            self._start(quiet=True)
        elif waiting is not None:
            self.say(waiting)

    def _claim_closed(self, claim: HandResult) -> None:
        """An end line for the hand that was just closed: its claim is checked, and kept if right."""
        g = self.game
        last = g.record().hands[-1]
        outcome = g.outcome_of(g.hand_number)
        if last.result is not None or outcome is None:
            self._refuse("end closes a hand being played (or, right after hand N, records its scores alone)")
            return
        wrong = _wrong_claim(claim, None, outcome, g.hand_number)
        if wrong:
            self._refuse(f"end: {wrong}")
            return
        g.claim_last_hand(claim)
        if self._save() and self.interactive:
            self.say(f"hand {g.hand_number}: its end line agrees with the hand")

    def _start(self, quiet: bool = False, again: bool = False, hold: bool = False) -> bool:
        """Start the hand announced with the parts of its deal given so far.  ``again``: the hand
        was started already and a part line (a boneyard after the last seat's tiles) starts it
        again with more: what its start said is not said twice.  ``hold``: started by its first
        move, the start is said when that move is taken (:attr:`_to_announce`)."""
        g = self.game
        self.waiting = None
        deal = notation.deal_from_parts(self._parts)
        self._not_started = None
        typed = self.hand_announced  # (a hand line was typed; else its first move starts the hand)
        try:
            g.start_hand(deal, self._leader, self._comment)
        except Refused as e:
            self._not_started = e.problem
            if not quiet:
                self._refuse(f"hand {g.hand_number + 1} cannot start: {e.problem.message} [{e.problem.rule}]")
            self.waiting = _waiting_words(g, e.problem, self._leader)
            return False
        except GameError as e:
            self._refuse(str(e))
            return False
        parts = self._parts
        self._leader, self._comment, self._sheet_pending = None, None, False
        self._parts = {}
        if not self._save():
            g.abandon_hand()
            self._parts = parts
            return False
        self._started_parts = parts
        self._typed_hand = g.hand_number if typed else None
        known = "" if g.deal_known else " (deal not entered: it will be worked out at the end)"
        lead = f", {g.to_move} to play" if g.to_move else ""
        said = f"hand {g.hand_number}{lead}{known}"
        if hold:
            self._to_announce = said
        elif not (again and said == self._start_said):
            self.say(said)
        self._start_said = said
        return True

    def _lead_refused(self, back: int | None = None) -> str | None:
        """Why the lead named on the hand line cannot be, now that the deal lines typed after it
        show it (the double's holder, the lead draw), in one line naming that hand line and the
        seat the rules give; ``None`` when the hand did not start for another reason.

        The hand line was taken when it came, as nothing then ruled its lead out.  Within one
        text (a pipe, a page's post) that hand line is ``back`` lines before the line that
        completes the deal, and the refusal is placed at its lead by the caller: the text is
        refused from there.  At the terminal (each line a text of its own) and for a hand line
        sent in an earlier post, the line that completes the deal is refused instead, nothing of
        it kept, naming the hand line (at the terminal, how many lines before it was typed), so
        the table types the hand line again and then this line (the deal typed first is checked
        on the hand line)."""
        problem = self._not_started
        if self._leader is None or problem is None or not problem.pointer.endswith("/leader"):
            return None
        g = self.game
        number = g.hand_number + 1
        rightly = ""
        try:  # the seat the rules give, asked of the engine (a trial: abandoned at once)
            g.start_hand(notation.deal_from_parts(self._parts), None, self._comment)
        except (Refused, GameError):
            pass
        else:
            if g.to_move is not None:
                rightly = f" (hand {number} lead {g.to_move}, or hand {number} alone: the lead as the rules say)"
            g.abandon_hand()
        said = f"hand {number} lead {self._leader}"
        if back is not None and not self.interactive:  # said at the lead itself
            rightly = rightly.replace(" (", ": ", 1).removesuffix(")") if rightly else ""
            return (f"{said}, typed before the deal, cannot be: {problem.message} (the deal after this line "
                    f"says so) [{problem.rule}]; write this line again{rightly}")
        typed = (f"typed {back} line{'s' if back != 1 else ''} before this one," if back is not None
                 else "typed before the deal,")
        return (f"{said}, {typed} cannot be: {problem.message} "
                f"[{problem.rule}]; type the hand line again{rightly}, then this line")

    def _announce(self) -> None:
        g = self.game
        if not g.deal_known and self._left is None:
            still = [s for s in g.seats if g.state.held_count(s)]
            if still:
                self.say(f"hand {g.hand_number} is over: give the tiles still held, e.g. "
                         f"left {'; '.join(f'{s} …' for s in still)}")
                return
        if self.interactive:
            outcome = self._preview()
            if outcome is not None:
                self.say(f"hand {g.hand_number} over: {outcome}. Confirm (y), or n to take back the last move")
                self._confirming = True

    def _preview(self) -> str | None:
        g = self.game
        state = g.state
        try:
            out = state.outcome()
        except HiddenTiles:  # an open hand's outcome may need the deal
            return None
        return f"{out.end}, {_totals(out.scores)}"

    def _close(self, claim: HandResult | None = None) -> None:
        g = self.game
        left, self._left = self._left, None
        self._confirming = False
        worked_out = left is not None and not g.deal_known
        before = (g.hands()[-1].deal, copy.deepcopy(left), len(g.moves)) if worked_out and g.in_hand else None
        if claim is not None and g.state is not None and g.deal_known and g.hand_over:
            wrong = _wrong_claim(claim, g.state, None, g.hand_number)
            if wrong:
                self._refuse(f"end: {wrong}; the hand is kept open: confirm with y (or end with the right "
                             f"scores), or undo")
                self._confirming = self.interactive
                return
        try:
            outcome = g.end_hand(left, None)  # the claim is checked below, and kept only if right
        except Refused as e:
            said = e.problem.message
            self._refuse(f"{'' if said.startswith('hand ') else f'hand {g.hand_number}: '}{said} "
                         f"[{e.problem.rule}]")
            return
        except GameError as e:
            self._refuse(str(e))
            return
        if not self._save("the hand is still open: type its end again"):
            if not g.in_hand and g.hand_number:
                g.reopen(before[0] if before else None, worked_out=before is not None)  # as it was (an empty one too)
                while before is not None and len(g.moves) > before[2]:  # (the passes its deal made)
                    g.pop()
                self._left = left
            return
        self._left_closed = None if before is None else (g.hands()[-1], *before, g.hand_number)
        if outcome is not None and claim is not None:
            wrong = _wrong_claim(claim, None, outcome, g.hand_number)
            if wrong:  # e.g. a hand whose deal was worked out at its end: its claim is checked now
                self._refuse(f"end: {wrong}" if self.all_or_nothing
                             else f"end: {wrong}; the hand is recorded with its computed result")
            else:
                g.claim_last_hand(claim)
                self._save()
        if outcome is None:
            self.kept_open = True
            self.say(f"hand {g.hand_number} kept as it is (not over)")
            return
        lines = [f"hand {g.hand_number} ends {outcome.end}: {_totals(outcome.scores)}"]
        lines.append(f"totals: {_totals(g.totals)}")
        if g.over:
            lines.append(f"game over: {'a draw' if g.winner is None else g.winner + ' wins'}")
        for text in lines:
            self.say(text)

    # --- commands ---------------------------------------------------------------------------

    def _command(self, word: str) -> None:
        g = self.game
        if word in ("y", "yes"):
            if g.in_hand and g.hand_over:
                self._close()
            else:
                self._refuse("there is no hand result to confirm")
            return
        if word in ("n", "no") and not (g.in_hand and g.hand_over) and not self._confirming:
            self._refuse("there is no hand result to confirm")  # (as y says: undo takes back a move)
            return
        if word in ("n", "no", "undo"):
            if self._take_back_typed():
                return
            if word == "undo" and self.kept_last:
                self._reopen_kept()
                return
            if word == "undo" and self.undo_takes_left and self.take_back_left():
                return
            try:
                move = g.pop()
            except GameError as e:
                self._refuse(str(e))
                return
            self._confirming = False
            if isinstance(move, Hand):
                self._save()
                self.say(f"took back the score sheet of hand {g.hand_number + 1}")
                return
            if not self._save():
                g.push(move)
                return
            self.say(f"took back {_describe(move)}")
            return
        if word == "show":
            self._show_table()
            return
        if word == "scores":
            self.say(f"totals: {_totals(g.totals)}")
            return
        if word == "help":
            for line in HELP.splitlines():
                self.say(line)
            return
        if word == "quit":
            raise KeyboardInterrupt

    def _reopen_kept(self, left_too: bool = False) -> None:
        """``undo`` after the ``end`` that kept a hand as it stood (not over, the game's last:
        :attr:`kept_last`): the ``end`` is what the table typed last, so the hand reopens, every
        move of it kept, as the prompt says ("undo reopens it"); the next ``undo`` takes back its
        last move.  (It had taken back that move at once: the Game's ``pop`` reopens and pops.)
        A hand kept so with the deal its ``left`` line gave reopens waiting for its end line, that
        line still typed and the deal unknown (:attr:`undo_takes_left`, or ``left_too``: asked
        by :meth:`take_back_left`); the next ``undo`` takes back the left line."""
        g = self.game
        by_left = self._closed_by_left_line() if self.undo_takes_left or left_too else None
        try:
            closed = g.reopen(by_left[1] if by_left else None, worked_out=by_left is not None)
        except GameError as e:
            self._refuse(str(e))
            return
        if by_left is not None:  # the hand's left line waits for its end line again, as before the end
            self._left, self._left_closed = by_left[2], None
        if not self._save("the hand is still closed: type undo again"):
            left, self._left = self._left, None
            g.end_hand(left, closed.result)
            self._left_closed = by_left
            return
        self._confirming = False
        self.say(f"reopened hand {g.hand_number} (no move was taken back)")

    @property
    def left_to_take_back(self) -> int | None:
        """The hand whose ``left`` line gave it the deal and closed it (or, with ``end``, kept it),
        right after that line: the hand :meth:`take_back_left` takes the line back from (a table's
        page sends ``undo left`` then, :mod:`domrec.session`); else ``None``."""
        kept = self._closed_by_left_line()
        return None if kept is None else kept[4]

    def _closed_by_left_line(self) -> tuple | None:
        """:attr:`_left_closed` where the last closed hand is still the one its left line gave
        the deal and closed (or kept, with ``end``), nothing typed of a next hand (a hand started
        by a move since taken back aside); else ``None``."""
        g = self.game
        kept = self._left_closed
        if kept is None:
            return None
        number = g.hand_number - (1 if g.in_hand else 0)  # (the last hand closed)
        if number != kept[4] or self.hand_announced or (g.in_hand and (g.moves or self._typed_hand == g.hand_number)):
            return None
        hands = g.hands()
        if g.in_hand and hands[-1].deal is not None:  # (a deal typed for the next hand: taken back first)
            return None
        closed = hands[-2] if g.in_hand else hands[-1] if hands else None
        if closed is None or closed.deal != kept[0].deal or closed.moves != kept[0].moves:
            return None
        return kept

    def take_back_left(self) -> bool:
        """``undo`` right after the ``left`` line that gave its hand the deal and closed it: that
        line is the last thing the table typed, so it is taken back, and the deal worked out from
        it with it (the forced passes its deal made too): the hand waits for its left line again,
        its deal unknown, and the next ``undo`` takes back its last move.  (It had taken back the
        last move at once, keeping the worked-out deal: the hand then closed on a confirmation,
        and a wrong left line that was accepted could not be put right.)  A hand the ``end`` after
        such a line kept as it stood (not over) reopens waiting for its end line, the left line
        still typed (:meth:`_reopen_kept`).  Whether there was such a line; asked whatever
        :attr:`undo_takes_left` says (a venue table's ``undo left``, :mod:`domrec.session`)."""
        kept = self._closed_by_left_line()
        if kept is None:
            return False
        if self.kept_last:
            self._reopen_kept(left_too=True)
            return True
        g = self.game
        empty = g.record().hands[-1] if g.in_hand else None
        if empty is not None:  # a next hand its first move started, that move taken back: stepped over
            g.abandon_hand()
        closed, deal, _, moves, _ = kept
        g.reopen(deal, worked_out=True)
        while len(g.moves) > moves:  # the forced passes the left line's deal made at the close
            g.pop()
        if not self._save("the left line still stands: type undo again"):
            g.end_hand(kept[2], closed.result)
            if empty is not None:
                g.start_hand(empty.deal, empty.leader, empty.comment)
            return True
        self._left_closed, self._confirming = None, False
        self._left_closed_last = False
        self.say(f"took back the left line of hand {g.hand_number}")
        if g.hand_over:  # its deal unknown again: the tiles still held are asked for again
            self._announce()
        return True

    def _take_back_typed(self) -> bool:
        """``undo`` takes back the last thing the table typed, which is not always a move.  A
        ``left`` line waiting for the hand's end comes back first (after a move taken back it
        would no longer say what is held).  Before a hand's first move, what was typed of that
        hand (its hand line and its deal lines, all of them) comes back, not the last move of
        the hand before: a hand line alone too (a page's *Start hand N*, a game whose lead the
        rules give), where its first move, taken back, had started the hand.  A hand that started
        with nothing typed of it (its first move started it, and that move was taken back, or a
        file continued at such a hand) is skipped, as before, and the undo takes back the hand
        before's last move.  Whether anything was taken back."""
        g = self.game
        if g.in_hand and self._left is not None:
            self._left = None
            self._confirming = False
            self.say(f"took back the left line of hand {g.hand_number}")
            return True
        if self.hand_announced:  # a hand line, deal lines: kept here until the hand starts
            number = g.hand_number + 1
            self._parts, self._leader, self._comment, self._sheet_pending = {}, None, None, False
            self._given, self.waiting, self._not_started = None, None, None
        elif g.in_hand and not g.moves and not g.hand_over:
            current = g.record().hands[-1]
            if current.deal is None and current.leader is None and self._typed_hand != g.hand_number:
                return False
            number = g.hand_number
            g.abandon_hand()
            if not self._save():
                g.start_hand(current.deal, current.leader, current.comment)
                return True
            self._started_parts, self._given, self.waiting = {}, None, None
        else:
            return False
        self._confirming = False
        self.say(f"took back what was typed of hand {number} (no move of it was made)")
        return True

    def _show_table(self) -> None:
        g = self.game
        state = g.state
        if state is None:
            self.say(f"no hand being played; totals: {_totals(g.totals)}")
            return
        lines = [f"  {line}" for line in state.render()]
        held = {s: ts for s, ts in state.holdings().items() if ts}
        if held and g.deal_known:
            lines.append("  in hand: " + "  ".join(f"{s} {T.format_tiles(ts)}" for s, ts in held.items()))
        lines.append(f"  totals: {_totals(g.totals)}" + (f"; {g.to_move} to play" if g.to_move else ""))
        width = self.width() if self.width is not None else None
        for line in fit_lines(lines, width) if width else lines:
            self.say(line)

    def _note(self, text: str) -> None:
        """A comment typed during the game: kept on the last move (or the hand)."""
        g = self.game
        if g.in_hand and g.moves:
            move = g.pop()
            comment = text if move.comment is None else move.comment + "\n" + text
            g.push(attrs.evolve(move, comment=comment))
            self._save()
        else:
            self._comment = text if self._comment is None else self._comment + "\n" + text

    # --- saving -----------------------------------------------------------------------------

    def write(self) -> None:
        """Save the game as it stands; raises :class:`InputError` where the file cannot be written."""
        if self.path is not None:
            write_text(str(self.path), text_of([self.game.record()], self.form, self._texts), force=True)

    def _save(self, undone: str = "the move was taken back: free some room and type it again") -> bool:
        try:
            self.write()
        except InputError as e:
            self.unsaved = True
            self._refuse(f"not saved ({e.message}); {undone}")
            return False
        return True

    def refuse(self, text: str) -> None:
        """A refusal in a caller's own words (the session refusing what it handles itself), counted
        and placed as the recorder's own are."""
        self._refuse(text)

    def _refuse_at(self, e: notation.NotationError) -> None:
        """A line that cannot be read, refused where the reader stopped in it (``lead Q``: at the
        ``Q``), not at the line's start."""
        if e.line == 1:
            self.at = e.column - 1
        self._refuse(self._reader_said(e.message))

    def _reader_said(self, message: str, seat: str | None = None) -> str:
        """The reader's refusal of a typed word, as this table reads it: its example of a Domino
        Roads road (NS1, a road of the partners' game, said at a table of three too) names this
        table's road instead, as the phone page's example does (``P1-1`` for three alone)."""
        asked = _ROAD_ASKED.match(message) if self.game.game == "domino-roads" else None
        return f"{asked.group(1)}{self._road_example(seat)}" if asked else message

    def _road_example(self, seat: str | None) -> str:
        """A road of this table for an example: the mover's side's first open road in the hand in
        play, or the name its next road would take (``NS1`` with partners, ``P1-1`` for three)."""
        g = self.game
        seat = seat or g.to_move or g.seats[0]
        state = g.state
        side_of, roads = getattr(state, "side_of", None), getattr(state, "side_roads", None)
        if state is None or side_of is None or roads is None or seat not in side_of:
            return "NS1" if "N" in g.seats else f"{seat}-1"
        side = side_of[seat]
        road = next((road for road in roads.get(side, ()) if not road.blocked), None)
        return road.name if road is not None else state._fresh_name(side)

    def _refuse(self, text: str) -> None:
        if self.refused_at is None:
            self.refused_at, self.refused_back = self.at, self._back
        self._back = 0
        self.refused += 1
        self.refuse_out(one_line(text))


# --- helpers ------------------------------------------------------------------------------


#: Where a line of tiles may be broken: at a space, or between two bracketed tiles ("[6-0][0-3]").
_BREAK = re.compile(r"(?<= )|(?<=\])(?=\[)")


def _tile_column(line: str, k: int) -> int:
    """Where the ``k``-th tile (0-based) of a part line starts in it (0-based; 0 where it is not found)."""
    try:
        tokens = [t for t in _full_tokens(_Text(line, 1)) if t.kind != "comment"]
    except notation.NotationError:
        return 0
    found = -1
    for t in tokens[1:]:
        if _TILE_WORD.fullmatch(t.text):
            found += 1
            if found == k:
                return t.pos
    return 0


#: A tile as a part line writes it (``6-4``, ``[6|4]``, ``6|4``).
_TILE_WORD = re.compile(r"\[?\d+[-|]\d+\]?")


def _lead_column(line: str) -> int:
    """Where the seat after ``lead`` starts in a hand line (0-based; 0 when it has none)."""
    try:
        tokens = [t for t in _full_tokens(_Text(line, 1)) if t.kind != "comment"]
    except notation.NotationError:
        return 0
    for k, t in enumerate(tokens[:-1]):
        if t.text.lower() == "lead":
            return tokens[k + 1].pos
    return 0


def fit_lines(lines: Sequence[str], width: int) -> list[str]:
    """``lines`` wrapped to ``width`` columns, never through a tile.

    A terminal wraps a long line wherever the width ends, which cuts a tile such as
    ``6-4`` or ``[6|4]`` in two.  So lines are broken here instead: a line of words
    (tiles in hand, a line of play, roads) at a space or between two bracketed tiles,
    its continuation indented under its first word; a drawn grid (Broadway's table:
    rows of cells, ``-`` joining the halves of a tile along a row) into bands of
    whole columns, each band with the rows' labels, cut only where no tile lies
    across the cut.  A word longer than the width is left whole (the terminal wraps
    it)."""
    width = max(width - 1, 20)  # a character short: some terminals wrap on the last column
    out: list[str] = []
    k = 0
    while k < len(lines):
        end = k
        if _GRID_HEAD.match(lines[k]):  # a grid: its x-axis header, then its rows and joints
            end += 1
            while end < len(lines) and _GRID_ROW.match(lines[end]):
                end += 1
            while not lines[end - 1].strip():
                end -= 1
        if end - k >= 2:
            out.extend(_bands(lines[k:end], width))
            k = end
            continue
        out.extend(_wrap_words(lines[k], width))
        k += 1
    return out


#: A drawn grid (Broadway's table): the x-axis header ("-1   0   1   x"), then rows, each a y
#: label and cells ("-2  ·   3 - 3  (5)"), and the joints between rows (spaces and "|").
_GRID_HEAD = re.compile(r"^ +(-?\d+ +)+x$")
_GRID_ROW = re.compile(r"^ *(-?\d+ [ \d·\[\]()-]*|[ |]*)$")


def _wrap_words(line: str, width: int) -> list[str]:
    if len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    label = line.find(": ", lead)  # "in hand: N 6-4 …" goes on under its first tile
    hang = " " * (label + 2 if 0 < label - lead < 20 else lead + 4)
    words: list[str] = []
    carry = ""
    for w in _BREAK.split(line[lead:]):
        if w.strip() and len(w.strip()) <= 2 and not any(ch.isdigit() for ch in w):
            carry += w  # a seat (W, NS) stays with its first tile
        elif w:
            words.append(carry + w)
            carry = ""
    if carry:
        words.append(carry)
    out, current = [], line[:lead]
    for w in words:
        if len(current) + len(w.rstrip()) > width and current.strip():
            out.append(current.rstrip())
            current = hang
        current += w
    if current.strip():
        out.append(current.rstrip())
    return out


def _bands(grid: Sequence[str], width: int) -> list[str]:
    """A grid too wide for ``width`` as bands of columns, each under the rows' labels.

    A clean cut falls at a column blank in every line with no ``-`` (a tile's joint) on
    either side in the rows of cells, so that no cell, no tile and no axis number is
    cut.  Where a tile lies across every column that would fit, the band is cut at a
    joint instead and the joint is drawn on both sides (``6 -`` then ``- 4``): each
    half of the tile whole, and the mark saying it goes on in the next band.  A band
    after the first has ``┊`` between the rows' labels and its cells, so that a label
    never reads as half of a tile."""
    longest = max(len(x) for x in grid)
    if longest <= width:
        return list(grid)
    rows = [x.ljust(longest + 1) for x in grid]
    label = len(rows[0]) - len(rows[0].lstrip(" "))  # the header's indent: the rows' labels
    header = [r for r in rows if r.rstrip().endswith(" x")]  # its minus signs are no joints
    cells = [r for r in rows if not r.rstrip().endswith(" x")]
    clean = {c for c in range(label + 1, longest)
             if all(r[c] == " " for r in header)
             and all(r[c] == " " and r[c - 1] != "-" and r[c + 1] != "-" for r in cells)}
    joints = {c for c in range(label + 1, longest)
              if all(r[c] == " " for r in header) and all(r[c] in " -" for r in cells)
              and any(r[c] == "-" for r in cells)}
    out: list[str] = []
    start = label
    longest = max(len(r.rstrip()) for r in cells)  # the header's "x" goes with the last band
    while start < longest:
        edge = 0 if start == label else 1  # a band after the first: "┊" between labels and cells
        room = width - label - edge
        if longest - start <= room:
            stop, again = longest, 0
        else:
            fit = [c for c in clean if start < c <= start + room]
            fit_joint = [c for c in joints if start + 1 < c < start + room]
            if fit:
                stop, again = max(fit), 0
                while stop - 1 in clean and stop - 1 > start:  # the first of blank columns: the joint
                    stop -= 1
            elif fit_joint:
                stop, again = max(fit_joint) + 1, 1  # the joint ends this band and begins the next
            else:  # nothing fits: the narrowest band there is
                stop, again = min([c for c in clean | joints if c > start] or [longest]), 0
        if out:
            out.append("")
        for r in rows:
            end = stop
            if stop == longest and r in header and label + edge + len(r[start:].rstrip()) <= width:
                end = len(r)
            out.append((r[:label] + ("" if not edge else " " if r in header else "┊") + r[start:end]).rstrip())
        start = stop - again
    return out


def placements(g: Game, tile: str, seat: str | None) -> list[tuple[Play, int]]:
    """Broadway: every legal placement of ``tile`` now, with the points each scores.

    With the deal known they are the engine's legal moves for that tile; without it, the
    engine's placements of the tile along the mover's axis.  The points are what the engine
    gives each placement, on a copy of the hand."""
    state = g.state
    if state is None:
        return []
    t = T.tile(tile)
    if g.deal_known:
        moves = [m for m in g.legal_moves() if type(m) is Play and T.tile(m.play) is t
                 and (seat is None or m.seat == seat)]
    else:
        who = seat if seat is not None else g.to_move
        if who is None:
            return []
        if not g.moves:  # the lead: any cell will do, the grid starts there
            step = (1, 0) if who in ("N", "S") else (0, 1)
            moves = [Play(seat=who, play=tile, at=((0, 0), step))]
        else:
            penalty = getattr(state, "pending", None) is not None
            moves = [m for m in state._placements(who, (t,), penalty=penalty)]
    out = []
    for m in moves:
        trial = copy.deepcopy(state)
        try:
            out.append((m, trial.apply(m)))
        except DomrecError:
            continue
    return out


#: Words of the recorder that steer it and write no part of the game: a text read whole leaves
#: out the confirmations (implied) and the looks; it cannot hold a take-back.
_LOOKS = {"y", "yes", "show", "scores", "help"}
_TAKE_BACKS = {"undo", "n", "no", "time", "quit"}


def said_in_text(line: str, seats: Sequence[str]) -> bool:
    """A line a written text says: not empty, not a look at the table (``y``, ``legal``) nor a
    take-back.  Only a refused line of this kind may leave a choice for the whole text to settle:
    a refused ``y`` ("there is no hand result to confirm") is refused, not read whole without it."""
    words = line.split()
    if not words:
        return False
    if len(words) == 1 and words[0].lower() in _LOOKS and words[0] not in seats:
        return False
    return not (words[0].lower() in _TAKE_BACKS and words[0] not in seats)


def read_whole(start: Record, lines: Sequence[str], first_line: int | None = None) -> tuple[Record, str | None] | None:
    """The game ``start`` (its players, rules and hands so far) with ``lines`` after it, read as
    ``domrec validate`` reads a text: the record and the reader's note, or ``None`` when that
    reading finds the text wrong (or ``lines`` take something back, which a text cannot say).

    The recorder reads a line as it comes; a line may leave a choice that only the rest of its
    hand decides (a tile that fits two ends, the seat of a Horse Race chain's move): then the
    text so far is read whole, its choices worked out across the hand, so that what
    ``validate`` reads the recorder and the venue take (docs/recording.md, "A line that leaves
    a choice").  ``first_line``: the number of ``lines[0]`` in the user's own text (a pipe's),
    so that the places the reader's note names (``read as 6-4@6-5 at 8:13``) are the user's
    lines, not those of the text read here (the game so far written out, then ``lines``)."""
    got = _read(start, lines, end_to_come=False, first_line=first_line)
    return None if got is None else got[:2]


def read_so_far(start: Record, lines: Sequence[str]) -> tuple[Record, str | None, int | None] | None:
    """:func:`read_whole` for a table's lines so far, more to come (the venue's session), and
    the hand that waits for its end line, if one does: a last hand whose ``left`` line has come,
    its ``end`` line not yet, and whose readings give it different scores is read for now
    without that ``left`` line (the hand in play, its first reading by the tie rule), since the
    end line a club's sheet writes next may claim the scores that settle it; the hand is read
    whole again with it.  A whole text (``domrec record`` from a pipe, ``validate``) has no more
    lines to wait for: there such a hand is asked about, as ``validate`` asks."""
    return _read(start, lines, end_to_come=True)


def _read(start: Record, lines: Sequence[str], end_to_come: bool,
          first_line: int | None = None) -> tuple[Record, str | None, int | None] | None:
    body, kept = [], []
    for k, line in enumerate(lines):
        words = line.split()
        if words and words[0].lower() in _TAKE_BACKS and words[0] not in start.seats:
            return None
        if said_in_text(line, start.seats):
            body.append(line)
            kept.append(k)
    found = _read_for_now(start, body)
    game = found[0][0] if found is not None else None
    if game is None or game.record is None:
        return None
    report, record = game.report, game.record
    if end_to_come and _end_to_come(report, record, body):
        got = _read(start, body[:-1], end_to_come=False)
        return None if got is None else (got[0], got[1], len(record.hands))
    if not game.complete or (report.status != "valid" and not _left_to_come(report, record)):
        return None
    note = report.note
    if note and first_line is not None:
        note = _placed(note, found[1], kept, first_line)
    return record, note, None


def _placed(text: str, offset: int, kept: Sequence[int], first_line: int) -> str:
    """``text`` with each place it names (``at 9:17``) in the text read by :func:`_read_for_now`
    (``offset`` lines of the game so far, then the lines kept, at ``kept`` in the caller's
    lines) told as the caller's own line, ``first_line`` being that of the caller's first line.
    A line is read as it was written, so its column stands."""
    def own(m: re.Match) -> str:
        at = int(m.group(1)) - 1 - offset
        if not 0 <= at < len(kept):
            return m.group(0)
        return f" at {first_line + kept[at]}:{m.group(2)}"

    return _AT_PLACE_PARTS.sub(own, text)


#: The last text :func:`_read_for_now` read, and what it found: ``(start, body, found)``.  A
#: request a session refuses is read whole to see whether the rest settles it
#: (:func:`read_so_far`), then, when it does not, again to find validate's first fault
#: (:func:`first_problem`): the same game and lines, read once.
_LAST_READ: tuple[Record, tuple[str, ...], tuple[list, int] | None] | None = None


def _read_for_now(start: Record, body: Sequence[str]) -> tuple[list, int] | None:
    """The game ``start`` with the text's lines ``body`` after it, read by the DGN reader with
    its last hand read for now (:data:`~domrec.notation.readings.provisional`): the one game
    read, as a list of one, and how many lines of the text read come before ``body`` (so that
    a problem's line is found in ``body``); or ``None`` (no line, or not one game).  What it
    finds is read, never changed, by its callers: the same text asked again (the same ``start``
    object, the same lines) is given what was found the last time."""
    global _LAST_READ
    if not body:
        return None
    lines = tuple(body)
    last = _LAST_READ
    if last is not None and last[0] is start and last[1] == lines:
        return last[2]
    found = _read_anew(start, lines)
    _LAST_READ = (start, lines, found)
    return found


def _read_anew(start: Record, body: Sequence[str]) -> tuple[list, int] | None:
    opening = notation.dumps(attrs.evolve(start, result=None))
    text = opening + "\n" + "\n".join(line.rstrip("\n") for line in body) + "\n"  # (a pipe's lines end with theirs)
    from domrec.notation.readings import provisional

    mark = provisional.set(True)
    try:
        found = list(notation.read_games(text, "<typed>"))
    except DomrecError:
        return None
    finally:
        provisional.reset(mark)
    return (found, opening.count("\n") + 1) if len(found) == 1 else None


def _game_of(record: Record) -> Game:
    """The game of ``record``, its last hand played on from its moves: a text read whole may end
    with a hand over whose deal is not known, waiting for its ``left`` line, which the recorder
    holds (it asks for that line) but :meth:`Game.from_record` refuses, as a record must not end
    so."""
    try:
        return Game.from_record(record)
    except Refused:
        last = record.hands[-1] if record.hands else None
        if last is None or (last.deal is not None and last.deal.hands) or last.result is not None or not last.moves:
            raise
    g = Game.from_record(attrs.evolve(record, hands=record.hands[:-1]))
    g.start_hand(last.deal, last.leader, last.comment)
    for move in last.moves:
        g.push(move)
    return g


#: The part of a deal each part line gives, as a deal's pointer names it.
_PART_KEYS = {"deal": "/deal/hands", "pile": "/deal/piles", "leaddraw": "/deal/lead_draw"}


def _still_typing(kind: str, problem: Any) -> bool:
    """The hand waits only for more lines of the kind just typed (the other seats' piles after
    ``pile P1``): nothing to say at the terminal, where each of those lines would otherwise be
    answered "cannot start yet"."""
    key = _PART_KEYS.get(kind)
    return key is not None and problem is not None and key in problem.pointer


def _waiting_words(g: Game, problem: Any, leader: str | None) -> str:
    """What the announced hand (the next one) waits for before it can start, in one line.  A hand
    whose deal is whole and whose leader only the record can give (three-player Domino Roads'
    first hand) waits for its first move, typed with its seat: said so, rather than in the
    record's words (a JSON field, "leader"), which no one at the table types."""
    number = g.hand_number + 1
    if leader is None and problem.pointer.endswith("/leader"):
        return (f"hand {number} waits for its first move, typed with its seat ({g.seats[0]} …): that seat leads "
                f"(or type hand {number} lead SEAT first) [{problem.rule}]")
    return f"hand {number} cannot start yet: {problem.message} [{problem.rule}]"


def _over_with(g: Game, left: Any, every_problem: bool = False) -> tuple[bool, Any]:
    """Whether the hand in play, its deal unknown, is over once ``left`` gives it (the deal
    worked out, its forced passes made): a blocked hand whose passes the table never typed (the
    engine without the deal cannot know nobody can play) is closed by its left line, as at the
    terminal.  Second, the problem when the deal cannot be worked out from ``left`` at all (a
    seat left out that still holds tiles, the hand not over: a pass left out, usually), which
    an end line after it would only meet later, away from the line at fault.  Tried on a copy
    of the game: nothing of it changes here.  ``every_problem`` (the terminal, where the line is
    answered at once): any problem the hand's end would meet, with the deal known too (a pass
    the deal shows was not forced, say), is said at the left line, not at the end line after it."""
    if not g.in_hand or (g.deal_known and not every_problem):
        return False, None
    twin = g.fork()
    try:
        return twin.end_hand(left, None) is not None, None
    except Refused as e:
        return False, (e.problem if every_problem or (e.problem.rule == deals.RULE and e.problem.kind == "deal")
                       else None)
    except DomrecError:
        return False, None


def why_not_read(start: Record, lines: Sequence[str]) -> str | None:
    """What ``domrec validate`` says first of the game ``start`` with ``lines`` after it, read
    as :func:`read_so_far` reads it (the words, without the place in that text, which is not the
    table's), where it is that the text is not enough (its readings part, or more fit it than
    the reader walks: it asks for an end or a seat); ``None`` when it reads it, or refuses it
    for anything else (a hand closed before it was over, which the recorder keeps as it is), or
    it cannot be read whole at all."""
    from domrec.notation.readings import RULE

    body = [line for line in lines if said_in_text(line, start.seats)]
    found = _read_for_now(start, body) if len(body) == len(lines) else None
    if found is None or not found[0][0].report.problems:
        return None
    problem = found[0][0].report.problems[0]
    if problem.rule != RULE:
        return None
    return _in_table_words(problem)


def first_problem(start: Record, lines: Sequence[str], first_line: int | None = None) -> tuple[int, int, str] | None:
    """Where and what ``domrec validate`` finds wrong first in the game ``start`` with ``lines``
    after it, read whole as :func:`read_so_far` reads it: the index in ``lines`` of the line it
    names, the column there (1-based), and its words with the rule, or ``None`` (the text reads;
    its first problem is only that the game is not over yet, or lies before ``lines``).

    A text sent whole may have a line the recorder, reading line by line, cannot settle (a tile
    that fits two ends) while the whole reading settles it and finds the fault further on (a
    hand's claimed scores): the table is told of that fault, where it is, as validate tells it.

    ``first_line``: the number of ``lines[0]`` in the user's own text (a pipe's, read whole): the
    words are then validate's own (``hand 1, move 20, E: …``), the places they name told as that
    text's lines, instead of a table's words without places."""
    kept = [i for i, line in enumerate(lines) if said_in_text(line, start.seats)]
    body = [lines[i] for i in kept]
    found = _read_for_now(start, body)
    if found is None:
        return None
    problems = [p for p in found[0][0].report.problems if p.kind not in ("unfinished", "internal")]
    if not problems or problems[0].line is None:
        return None
    problem = problems[0]
    if first_line is not None:  # (a whole text's fault is told only when it is the first in the text)
        problem = min((p for p in problems if p.line is not None), key=lambda p: (p.line, p.column or 1))
    at = problem.line - 1 - found[1]
    if not 0 <= at < len(body):
        return None
    if first_line is None:
        return kept[at], problem.column or 1, _in_table_words(problem)
    said = problem.text().removeprefix(f"{problem.line}:{problem.column}: ")
    return kept[at], problem.column or 1, _placed(said, found[1], kept, first_line)


def _in_table_words(problem: Any) -> str:
    """A problem of a text read here as a table is told it: its words without the places they
    name in that text (which is not the table's), its hand, its rule."""
    message = _AT_PLACE.sub("", problem.message)
    hand = getattr(problem, "hand", None)
    if hand and not message.startswith("hand "):
        message = f"hand {hand}: {message}"
    return f"{message} [{problem.rule}]" if problem.rule else message


#: Where a problem's words name a place in a text (``5-4 at 7:25``).
_AT_PLACE = re.compile(r" at [0-9]+:[0-9]+")
_AT_PLACE_PARTS = re.compile(r" at ([0-9]+):([0-9]+)")


def _end_to_come(report: Any, record: Record, body: Sequence[str]) -> bool:
    """The one thing wrong is that the last hand's readings give it different scores, its
    ``left`` line the text's last: its ``end`` line, which may claim the scores, has not come."""
    from domrec.notation.readings import PARTED, RULE

    return (len(report.problems) == 1 and report.problems[0].rule == RULE
            and report.problems[0].hand == len(record.hands) and PARTED in report.problems[0].message
            and body[-1].split()[0].lower() == "left")


def _left_to_come(report: Any, record: Record) -> bool:
    """The one thing wrong is that the last hand is over without its deal: its ``left`` line
    has not come yet (a recorder waits for it; a whole text would lack it)."""
    return (len(report.problems) == 1 and report.problems[0].rule == "the deal"
            and report.problems[0].hand == len(record.hands) and "is over but its deal is not known"
            in report.problems[0].message)


def read_record(path: Path) -> Record:
    """The record in a .dgn or .json file, or :class:`RecorderError` saying why it cannot be continued."""
    from domrec import reader

    try:
        data = reader.read_bytes(path, what="a game to continue")  # bounded: never /dev/zero into memory
    except OSError as e:
        raise RecorderError(f"cannot read {path}: {e.strerror}") from None
    except InputError as e:
        raise RecorderError(str(e)) from None
    if path.suffix == ".dgn":
        found = list(notation.read_games(data, str(path)))
        if len(found) != 1:
            raise RecorderError(f"{path} holds {len(found)} games; the recorder continues a file of one game")
        game = found[0]
        if game.record is None or not game.complete:
            p = game.report.problems[0]
            raise RecorderError(f"{path}: {p.text()}")
        return game.record
    try:
        return reader.loads(data)
    except InputError as e:
        # A place inside the record is said by its pointer; a problem of the whole file is not ("/:").
        where = f"{e.pointer}: " if e.pointer not in ("", "/") else ""
        raise RecorderError(f"{path}: {where}{e.message}") from None


def _over(record: Record) -> bool:
    from domrec.validate import validate

    return validate(record).finished


def _wrong_claim(claim: HandResult, state: Any, outcome: Any = None, number: int = 0) -> str | None:
    """What is wrong with hand ``number``'s claimed result, in words naming the hand and the rule
    (the validator's rule for the same claim: ``end of hand``, ``hand scoring``), or ``None``.
    The hand is named: at the terminal the claim is refused under the next hand's prompt."""
    if outcome is None:
        try:
            outcome = state.outcome()
        except HiddenTiles:  # an open hand cannot tell its scores
            return None
    if claim.end is not None and not outcome.ends_as(claim.end):
        return f"hand {number} ended {outcome.end}, not {claim.end} [end of hand]"
    for side, n in (claim.claimed_scores(outcome.scores) or {}).items():  # (a side left out: 0)
        if outcome.scores.get(side) != n:
            return f"{side} scores {outcome.scores.get(side, 0)} for hand {number}, not {n} [hand scoring]"
    return None


def _merge_part(parts: dict, parsed: dict) -> None:
    for key, value in parsed.items():
        if key in ("hands", "piles", "lead_draw"):
            parts.setdefault(key, {}).update(value)
        elif key == "redeals":
            parts.setdefault("redeals", []).extend(value)
        else:
            parts[key] = value


def _describe(move: Move) -> str:
    from domrec.explain import describe_move

    return describe_move(move)


def _totals(totals: dict[str, int]) -> str:
    return ", ".join(f"{side} {n}" for side, n in totals.items())


def for_options(engine: Any, variant: str | None, options: dict | None, n: int) -> str:
    """The rule option that makes ``n`` players too many or too few, as words after the game's
    name (`` with partnerships=true``: Horse Race is played by 2 to 4, in partnerships by 4), or
    ``""`` when the game itself is never played by ``n``."""
    from domrec.games.base import effective_options

    for name, value in (options or {}).items():
        rest = {k: v for k, v in options.items() if k != name} or None
        if n in engine.player_counts(effective_options(engine, variant, rest)):
            shown = str(value).lower() if isinstance(value, bool) else value
            return f" with {name}={shown}"
    return ""


def new_game(game: str, players: Sequence[tuple[str, str]], variant: str | None = None,
             options: dict | None = None, event: dict | None = None) -> Game:
    """A Game for a new record, its players, rules and event checked as any record's are."""
    from domrec.reader import load_dict
    from domrec.record import unstructure

    g = Game(game, players, variant=variant, options=options, event=event)
    load_dict(unstructure(g.record()))  # option names and values, seats: the shape check's verdict
    return g


#: The reader's question of a Domino Roads tile typed without its road, its example road apart.
_ROAD_ASKED = re.compile(r"(a Domino Roads tile goes on a road: say which, \d+-\d+@)(?:NS1|[^\s@]+-1)$")

#: A cell as the engine names one, ``(0,2)``: a refusal naming one is about that spot alone.
_CELL = re.compile(r"\(-?\d+,-?\d+\)")


def _structured(seat: str, data: dict) -> Move | None:
    """``data``, a move typed without its seat, as ``seat``'s move (``None`` when it is no move)."""
    try:
        return structure_move({"seat": seat, **data})
    except (KeyError, TypeError, ValueError):
        return None
