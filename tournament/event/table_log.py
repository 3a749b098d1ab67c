"""A table's log, and a write answered from it: the part of the venue that needs no event file.

A table of the venue is its log (rows of revision, kind, body and time: :mod:`tournament.store.venue`)
replayed through domrec's :class:`~domrec.session.Session` from the table's template record.  This
module holds what the server does with that log besides reading and writing it: replaying it
(:func:`replay`), judging a write on it (:func:`judge_dgn`, :func:`judge_mode`, ...), the table's
state the page draws (:func:`state`), and the answer of a write as the page receives it
(:func:`answer`, :func:`refusal_body`, :func:`translated`).  It imports nothing of SQLite or of the
store, so the very same code runs in two places:

* in the server (:class:`tournament.event.venue.Venue`, whose writes call these functions inside
  their transactions), and
* in the table's phone, under Pyodide, when the laptop is out of reach (:mod:`tournament.event.phone`
  and ``web/static/engine.js``): the same refusal sentence, the same state, the same scores, because
  it is the same Python.  Nothing of a rule is written twice.

A confirmation, the director's writes and a result are the server's alone: they need the event
file (a PIN, the result entered in the event), and the phone's engine never answers them.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import logging
import re
from typing import Any, Callable

import attrs

from domrec import phrases
from domrec import session as _session
from domrec.errors import BIDI_CONTROLS, one_line
from domrec.session import RequestRefused, Session

from tournament.errors import TournamentError

log = logging.getLogger("tournament.venue")

#: How a table records its game.
MODES = ("play", "sheet")


class VenueError(TournamentError):
    """A venue request refused; ``status`` is the HTTP status a web client gets."""

    status = 400
    #: Whether the refusal is kept with the write's id (``cid``), so that the same write sent again
    #: is answered it again.  False for a refusal that stands for good whatever comes (a table past
    #: its cap of calls, a round that is over): the same write sent again is refused again anyway,
    #: and a phone sending refused writes under new ids adds nothing to the event file.  The others
    #: are kept up to :data:`MAX_REFUSALS` a table.
    remembered = True

    def __init__(self, message: str, state: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.state = state


class Stale(VenueError):
    """A write that named an old revision: nothing applied; ``state`` is the table now."""

    status = 409


class Locked(VenueError):
    """The table's result is confirmed: only the director changes it now."""

    status = 409


class Unprocessable(VenueError):
    """The write breaks a rule, or cannot be read: nothing of it stored."""

    status = 422

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 state: dict | None = None, level: list[str] | None = None) -> None:
        super().__init__(message, state)
        self.line, self.column = line, column
        #: A typed result refused for sides level at the top of a multi-player table: those
        #: sides, among whom the director names the winner (``"winner"``); the director's page
        #: offers them as its choice.
        self.level = level


class Capped(Unprocessable):
    """A table's call of the director, or switch of its mode, past the most a table may make
    (:data:`MAX_CALLS`, :data:`MAX_MODES`): refused, and not kept with its id (it stands for good)."""

    remembered = False


class RoundOver(Locked):
    """A table's write once its round is over (a later round is paired; :func:`check_open`): refused
    with no state (a duplicate table's state then withholds what the hall does), and not kept with
    its id (it stands for good)."""

    remembered = False


#: The most calls of the director one table may make, and the most switches of its mode (play by
#: play, scores only): each is a row of the table's log, kept in the event file.  A table is one
#: round: one game, or a duplicate round's two to four boards; a call or two is usual, and a table
#: past a hundred is a phone gone wrong, or a hostile one (20,000 calls were 1.3 MB of the file).
MAX_CALLS = 100
MAX_MODES = 100
#: The most refused writes kept with their ids (``cid``) a table: a refusal is kept so that the same
#: write sent again is answered the same, and each kept refusal is a row of the event file.  A real
#: table is refused a few writes a round (a tile tapped twice, a line typed wrong, the first queued
#: line after the other phone moved the table on: the lines queued after it are not sent); a
#: thousand is one every four seconds of an hour's round, a phone gone wrong, or a key holder sending
#: refused moves under new ids, which grew the file without end.  Past it a refusal is answered as
#: ever but not kept (:meth:`tournament.event.venue.Venue._remember_refusal`): the same write sent
#: again is judged again, and refused again (a stale revision stays stale, the same move on the
#: same position is refused the same way).  A write taken is always kept.
MAX_REFUSALS = 1000


@attrs.define
class Live:
    """A table as its log leaves it: the revision, the game, how it records, who confirmed."""

    rev: int
    session: Session
    mode: str | None = None
    confirmed: dict = attrs.Factory(dict)  # side or seat -> when, since the game's last change
    called: str | None = None  # when the director was called, while the call stands
    last_at: str | None = None  # the time of the table's last write
    moved_at: str | None = None  # the time of its last write but a call of the director or its clearing
    set_aside: list[int] = attrs.Factory(list)  # revisions of the log that no longer read (see replay)
    logged: str | None = None  # the status the change log last gave the table, once read (see _log_status)
    corrected: dict | None = None  # the director's last correction, while no move was recorded after it
    board: int = 0  # a duplicate table: how many of its round's boards are closed here (see ``played``)
    played: list[int] = attrs.Factory(list)  # a duplicate table: the boards closed here, in order (see apply)
    entered: dict | None = None  # a duplicate table: the board last entered over its play, while nothing followed
    taken: list[int] = attrs.Factory(list)  # a duplicate table: the boards the director closed here (see to_enter)
    quiet: int = 0  # how many of the log's last rows call the director or clear the call (see check_current)
    calls: int = 0  # how many calls of the director the log holds (at most MAX_CALLS are taken)
    modes: int = 0  # how many switches of the mode the log holds (at most MAX_MODES are taken)


def replay(template: Any, rows: list[tuple[int, str, str, str]]) -> Live:
    """The table as its log leaves it, its state readable.

    A table is never stuck: a line the log holds that this version cannot take again, or after
    which the table cannot be shown (a file written by an older version, whose rules or
    recorder read it otherwise, or a fault of the server's that stored a write before its
    answer failed), is set aside, revision by revision, and the table is the rest of its log.
    The revisions set aside are named in the table's state (``set_aside``) and in the
    server's log; the file keeps them as they were."""
    # A correction (``correct``) holds the whole game as it left it, one request a hand: the
    # game is those requests and the ``dgn`` writes after the last correction.
    # A duplicate table's ``board`` write closes a board: the next board's game starts afresh.
    last = max((k for k, (_, kind, _, _) in enumerate(rows) if kind in ("correct", "board")), default=None)
    try:
        texts = [] if last is None or rows[last][1] == "board" else _corrected_requests(rows[last][2])
        texts += [body for _, kind, body, _ in rows[(last or 0):] if kind == "dgn"]
        live = Live(0, Session(template, texts))
        live.session.state()
    except Exception:  # noqa: BLE001 - whatever it is, the careful replay finds the line and sets it aside
        return _replay_carefully(template, rows)
    for rev, kind, body, at in rows:
        apply(live, kind, body, at)
        live.rev = rev
    return live


def _corrected_requests(body: str) -> list[str]:
    """The requests a ``correct`` write holds: the whole game, one request a hand."""
    return [str(x) for x in json.loads(body)["requests"]]


def _replay_carefully(template: Any, rows: list[tuple[int, str, str, str]]) -> Live:
    """:func:`_replay` a write at a time, setting aside each ``dgn`` write that does not replay or
    leaves a table that cannot be shown."""
    taken: list[str] = []
    live = Live(0, Session(template))
    for rev, kind, body, at in rows:
        if kind == "board":  # a duplicate table's board confirmed: the next board's game starts afresh
            live.session, taken = Session(template), []
        if kind == "correct":  # the whole game as the director's correction left it
            try:
                requests = list(_corrected_requests(body))
                corrected = Session(template, requests)
                corrected.state()
                live.session, taken = corrected, requests
            except Exception as e:  # noqa: BLE001 - set aside as a dgn write is
                log.warning("a table's correction (revision %s) no longer replays and is set aside: %s",
                            rev, one_line(str(e)) or type(e).__name__)
                live.set_aside.append(rev)
                live.rev = rev
                live.quiet = 0
                continue
        if kind == "dgn":
            try:
                live.session.take(body)
                live.session.state()
                taken.append(body)
            except Exception as e:  # noqa: BLE001 - a refusal, or a fault: either way the line is set aside
                log.warning("a table's write (revision %s) no longer replays and is set aside: %s",
                            rev, one_line(str(e)) or type(e).__name__)
                live.session = Session(template, taken)  # as it was before the line
                live.set_aside.append(rev)
                live.rev = rev
                live.quiet = 0
                continue
        apply(live, kind, body, at)
        live.rev = rev
    return live


def apply(live: Live, kind: str, body: str, at: str) -> None:
    """What one accepted write changes, besides the game (``dgn`` rows are taken by the session)."""
    live.last_at = at
    if kind not in QUIET:  # (the director's page's "Last move": a call is no move)
        live.moved_at = at
    live.quiet = live.quiet + 1 if kind in QUIET else 0
    if kind in ("dgn", "correct", WITHHELD):
        live.confirmed = {}  # the game changed: confirmations were for the game as it was
        live.corrected = _correction_note(body, at) if kind == "correct" else None
        live.entered = None
    elif kind == "mode":
        live.mode = body
        live.modes += 1
    elif kind == "confirm":
        live.confirmed[body] = at
    elif kind == "board":  # the game's session is started afresh by whoever keeps it (replay, the venue)
        # A board closed: confirmed by both sides here, or its result entered over the play here
        # (``"entered"``: :func:`tournament.store.venue.close_board`), which the page tells.
        live.board += 1
        live.entered = None
        with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
            data = json.loads(body)
            live.played.append(int(data["board"]))
            if data.get("entered"):
                live.taken.append(int(data["board"]))
                live.entered = {"board": int(data["board"]), "at": at,
                                **({"not_played": True} if data.get("not_played") else {})}
        live.confirmed = {}
        live.corrected = None
    elif kind == "call":
        live.called = at
        live.calls += 1
    elif kind == "clear":
        live.called = None


def _correction_note(body: str, at: str) -> dict | None:
    """What a table's page says of the director's correction (its hand, and when), so that a phone
    that finds its game corrected says so instead of its last line, which told of the game before."""
    try:
        return {"hand": int(json.loads(body)["hand"]), "at": at}
    except (ValueError, KeyError, TypeError):
        return None


#: The rule's tag a refusal ends with (``[competitive: end of hand]``), and the recorder's advice
#: to a typist after a hand's score was refused.
_RULE_TAG = re.compile(r" \[[^\[\]]*\](?=$|; type the hand's end line again$)")
_TYPE_AGAIN = "; type the hand's end line again"


def in_words(message: str) -> str:
    """A refusal of a hand's score as a score-sheet table reads it: what is wrong with the
    numbers, without the rule's tag or the advice to type a line (the page has no line to type)."""
    message = message.removesuffix(_TYPE_AGAIN)
    return _RULE_TAG.sub("", message).strip()


def started(live: Live, boards_in: int = 0) -> bool:
    """The one notion of a table under way, for every view of it and every refusal made for it:
    something recorded at the table stands (the first hand's line, a lead draw or a deal alone
    counting: :attr:`domrec.session.Session.begun`), or (a duplicate table) a board of it is closed
    here or has its result (``boards_in``: :func:`boards_done`).  A line of its log set aside (one
    this version no longer replays: :func:`replay`) counts too: it was a game recorded there, which
    a result or a change of players must not go over unseen.  A table with its lead drawn was
    ``not started`` on every page and in the feed while a result for it was refused as over a game
    in progress on its phone."""
    return live.session.begun or bool(live.board or boards_in or live.set_aside)


def progress(confirmed: bool, live: Live, duplicate: bool = False, boards_in: int = 0) -> str:
    """How far a table's game is, a call of the director aside: ``not started``, ``playing``
    (:func:`started`), ``waiting`` (over, for its confirmations) or ``confirmed``.  ``duplicate``:
    the table plays boards, each one hand, confirmed board by board; ``boards_in``: how many of
    them have their result (:func:`boards_done`), so that a board the director entered, with no
    hand played at the phone, is a table under way as one its phone confirmed is, not one "not
    started"."""
    return ("confirmed" if confirmed else "waiting" if finished(live, duplicate) else
            "playing" if started(live, boards_in) else "not started")


def board_index(facts: Facts, live: Live) -> int:
    """Where a duplicate table is in its round's boards: the index of the first board that is
    neither confirmed at the table nor has a result in the event (one the director entered beside
    the server, ``tournament result --board``, is not played again); the number of boards once
    every one has its result."""
    boards = facts.boards or ()
    return next((k for k, b in enumerate(boards) if not b.get("entered") and b["board"] not in live.played),
                len(boards))


def boards_done(facts: Facts, live: Live) -> int:
    """How many of a duplicate table's boards of the round have their result (here, or entered
    beside the server); a board to enter (:func:`to_enter`) is not one of them."""
    owed = to_enter(facts, live)
    return sum(1 for b in facts.boards or ()
               if b.get("entered") or (b["board"] in live.played and b["board"] not in owed))


def to_enter(facts: Facts, live: Live) -> list[int]:
    """A duplicate table's boards that the director closed on its phone (a result entered, or a
    mark "not played" made, over its play: ``close_board``'s ``"entered"`` row) and that now have
    neither a result nor a mark: the result taken back, or the mark (in duplicate teams, the one
    at the match's other table, which took the board off this phone too) taken back.  A board is
    one hand, and its phone never plays a closed board again (its hand was taken off mid-play,
    and the phone has moved on), so the director enters its result: the table's state lists them
    (``to_enter``) for the director's page to say so.  Only the director's closings: a board the
    phone confirmed itself may be in its log before the event's facts say it is in (a phone
    offline), which a list made of them would call owed."""
    return [b["board"] for b in facts.boards or () if b["board"] in live.taken and not b.get("entered")]


def finished(live: Live, duplicate: bool = False) -> bool:
    """The table's game is over, for its confirmations: by its rules, or (``duplicate``) the
    board's one hand is closed."""
    if not duplicate:
        return live.session.over
    game = live.session.game
    return live.session.over or (game.hand_number >= 1 and not game.in_hand)


def hall_status(live: Live, facts: Facts, duplicate: bool = False) -> str:
    """The status in play a table's ``table_status`` changes give it (the hall's, the feed's and
    the hub's: a confirmed result logs its own): :func:`progress`, as the director's overview and
    the table's own state say it.  ``duplicate``: the board's hand closed is ``waiting`` for its
    confirmations, and a table with a board in (confirmed here, or entered or marked not played by
    the director, on the page or beside the server: :func:`boards_done`) is ``playing`` between
    its boards, and ``confirmed`` once every board is in (the table's :attr:`Facts.result`), as a
    whole game's confirmed result logs its own: before, the change log left a duplicate table
    ``playing`` after its last board, and only the feed's rounds said it was over."""
    return progress(duplicate and facts.result is not None, live, duplicate,
                    boards_done(facts, live) if duplicate else 0)


@attrs.frozen
class Facts:
    """What a table's state shows besides its log: the event's name, the table, its sides, whether
    it plays seat by seat, the event's time limit, whether confirmations take PINs; and, once
    confirmed, its result and where its players go next, as the server last read them."""

    event: str
    round: int
    table: int
    sides: tuple[str, ...]
    by_seat: bool
    time_limit: int | None = None
    pins: bool = False
    result: dict | None = None
    next: dict | None = None
    #: A duplicate table: its round's boards in the order it plays them, each ``{"board": B,
    #: "deal": DGN lines, "entered": bool, "not_played": bool}`` (the board's hand line and deal, what a
    #: ``hand`` line starts; whether the event has its result at this table, from here or beside the
    #: server, or has it marked not played there; whether it is marked so); None at any other table.
    boards: tuple | None = None
    #: The table's round is over: a later round is paired (:func:`check_open`).
    over: bool = False
    #: Who each side is where a side is a pair (a pairs or team event): ``((side, pair, team), …)``,
    #: the pair's name and its team's (None outside a team event), this table's sides only, so that
    #: its phone names them (its seats name the players); empty elsewhere.
    units: tuple[tuple[str, str, str | None], ...] = ()
    #: A duplicate table: the ways its boards' hand can end under the event's rules, what the
    #: phone's score form offers (:func:`tournament.event.duplicate.board_ends`); empty elsewhere.
    ends: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = {"event": self.event, "round": self.round, "table": self.table, "sides": list(self.sides),
                "by_seat": self.by_seat, "time_limit": self.time_limit, "pins": self.pins, "result": self.result,
                "next": self.next, "over": self.over}
        if self.boards is not None:
            data["boards"] = list(self.boards)
        if self.units:
            data["units"] = units_json(self.units)
        if self.ends:
            data["ends"] = list(self.ends)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Facts":
        boards = data.get("boards")
        return cls(event=data["event"], round=data["round"], table=data["table"], sides=tuple(data["sides"]),
                   by_seat=data["by_seat"], time_limit=data.get("time_limit"), pins=bool(data.get("pins")),
                   result=data.get("result"), next=data.get("next"),
                   boards=None if boards is None else tuple(boards), over=bool(data.get("over")),
                   units=tuple((side, u["pair"], u.get("team")) for side, u in (data.get("units") or {}).items()),
                   ends=tuple(data.get("ends") or ()))


def units_json(units: tuple[tuple[str, str, str | None], ...]) -> dict[str, dict[str, str | None]]:
    """A table's :attr:`Facts.units` as its state says them: ``{side: {"pair", "team"}}``, as the
    director's page says each table's (``units`` there too)."""
    return {side: {"pair": pair, "team": team} for side, pair, team in units}


def state(facts: Facts, live: Live, said: list[str]) -> dict[str, Any]:
    """The table's state, as the table's page draws it (and every write answers it)."""
    game = live.session.state()
    result = facts.result
    duplicate = facts.boards is not None
    status = ("called" if live.called and result is None else
              progress(result is not None, live, duplicate, boards_done(facts, live) if duplicate else 0))
    if duplicate:
        game = {**game, "over": finished(live, True)}  # the board's hand closed: the page asks to confirm it
    answer = {"rev": live.rev, "event": facts.event, "round": facts.round, "table": facts.table,
            "mode": live.mode, "status": status, "sides": list(facts.sides), "by_seat": facts.by_seat,
            "time_limit": facts.time_limit,
            "confirmations": dict(live.confirmed), "called": live.called is not None, "pins": facts.pins,
            "last_at": live.last_at, "said": said, "game": game, "set_aside": list(live.set_aside),
            "corrected": live.corrected,
            # (its round over, the phone's call of the director is refused: the page greys its button)
            "call_closed": call_closed(facts),
            "next": facts.next if result is not None else None,
            "result": result}
    if facts.units:
        answer["units"] = units_json(facts.units)
    if duplicate:
        numbers = [b["board"] for b in facts.boards or ()]
        answer["boards"] = numbers
        answer["ends"] = list(facts.ends)
        at = board_index(facts, live)
        answer["board"] = numbers[at] if at < len(numbers) else None
        answer["boards_played"] = boards_done(facts, live)
        answer["to_enter"] = to_enter(facts, live)
        # The boards marked not played at this table (``tournament result --not-played``, or the
        # director's page): not among the boards it plays, which the page counts on.
        answer["not_played"] = [b["board"] for b in facts.boards or () if b.get("not_played")]
        answer["entered"] = live.entered
    return answer


# --- judging a write -----------------------------------------------------------------------------
#
# Each write of a table is checked in the same order by the server and by the phone: what its
# body says (``check_*``), the revision it names (:func:`check_rev`, :func:`check_current`), then
# the write judged on the table (``judge_*``: the kind, body and sentences of its log row).

def check_rev(rev: Any, any_view: bool = False) -> None:
    if not any_view and (isinstance(rev, bool) or not isinstance(rev, int)):
        raise Unprocessable('"rev" must be the table\'s revision, a whole number')


#: A write's id from the phone (``cid``): what the pages make (a random id of the phone's, a
#: counter) and any client's own, within these letters and lengths.
CID = re.compile(r"[A-Za-z0-9_.:-]{8,100}")
CID_REFUSAL = '"cid" must be the write\'s own id from the phone: 8 to 100 letters, digits and - _ . :'
MADE_AT_REFUSAL = ('"at" must be when the write was made on the phone, as an ISO 8601 time such as '
                   '2026-12-02T20:15:00Z')


def check_write_id(cid: Any, made_at: Any) -> None:
    """A write's ``cid`` and ``at`` (both optional) as the venue takes them, or one line why not.
    ``at`` is the phone's clock: kept as sent, never used to order anything, so only its form is
    checked."""
    if cid is not None and (not isinstance(cid, str) or not CID.fullmatch(cid)):
        raise Unprocessable(CID_REFUSAL)
    if made_at is not None:
        if not isinstance(made_at, str) or len(made_at) > 40:
            raise Unprocessable(MADE_AT_REFUSAL)
        try:
            datetime.datetime.fromisoformat(made_at.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise Unprocessable(MADE_AT_REFUSAL) from None


#: The writes that change nothing a move is judged on: a call of the director and its clearing.
QUIET = ("call", "clear")


def check_current(facts: Facts, live: Live, rev: Any, locked_ok: bool = False, any_view: bool = False,
                  over_calls: bool = False) -> int:
    """The write names the table's revision (unless ``any_view``), and the table is not confirmed
    (unless ``locked_ok``); refused with the table as it is now.

    A move or the mode (``over_calls``) made on a revision that only calls of the director, or
    their clearing, have followed is taken as made on the table now: a call changes nothing it
    is judged on.  (Not a confirmation, nor the director's clearing a call: a call made since is
    what the player, or the director, is to see first.)  A phone that
    recorded offline while the other phone called the director (or the director cleared the call)
    would otherwise have its lines refused, and told that another phone had moved the table on.
    Returns how many such rows the write stepped over (0: none), which the answer tells
    (``over_calls``), so that the page moves the revision of the lines it still has to send, made
    after this one on the same view, by as many (table.js, ``sendQueued``)."""
    over = 0
    if not any_view and rev != live.rev:
        over = live.rev - rev if isinstance(rev, int) and not isinstance(rev, bool) else 0
        if not (over_calls and 0 < over <= live.quiet):
            raise Stale(f"the table has moved on (revision {live.rev}, not {rev}): nothing was "
                        f"changed; here is the table now", state(facts, live, []))
    if not locked_ok and facts.result is not None:
        raise Locked(f"round {facts.round} table {facts.table} is confirmed: only the director "
                     f"can change its result now", state(facts, live, []))
    return over


#: What a phone is told of a line another phone of the table recorded first (:func:`twin_logged`).
TWIN = "another phone of this table recorded this same line first: it is in the game once"


def twin_logged(live: Live, rev: Any, text: Any, logged: tuple | list | None) -> bool:
    """A ``dgn`` write that names an old revision (``rev``, the table now at ``live.rev``) and
    whose text is exactly the log's next row after it (``logged``: that row, revision ``rev + 1``,
    as the log holds it: (rev, kind, body, time)): another phone of the table recorded the same
    line on the same revision first, two players tapping the same move at once, or both phones
    recording it while the Wi-Fi was down.  Made on the same game, the same line is the same
    move (or undo, or hand part): the write is answered as taken, that row standing for it, and
    nothing is stored twice; the lines the phone made after it, on the revision it leads to,
    are judged as usual (taken where nothing else was written, refused where another line was).
    Before, it was refused ("the table has moved on") and listed to retype, a move the table had."""
    return (isinstance(rev, int) and not isinstance(rev, bool) and rev < live.rev and isinstance(text, str)
            and logged is not None and int(logged[0]) == rev + 1 and logged[1] == "dgn" and logged[2] == text)


def twin_answer(facts: Facts, live: Live) -> dict[str, Any]:
    """The answer to a line another phone recorded first (:func:`twin_logged`): the table now, the
    sentence that says so, and ``twin`` (the page tells a tap of its own sent twice from it)."""
    return {**state(facts, live, [TWIN]), "twin": True}


def stepped_over(answer: dict[str, Any], over: int) -> dict[str, Any]:
    """A write's answer (the table's state) telling how many calls of the director it was taken
    over (:func:`check_current`); unchanged where none."""
    if over:
        answer["over_calls"] = over
    return answer


def check_dgn(text: Any, time_limit: int | None) -> None:
    """A ``dgn`` write's body: DGN lines, and no ``time`` line where the event has no time limit;
    no control character (a terminal's escape sequences, NUL) or direction control in it: a
    comment typed at a table is shown on the director's terminal (``tournament correct``) and
    in the game's DGN, where an escape sequence would clear the screen or retitle the window,
    and a direction control make a line read as another."""
    if not isinstance(text, str):
        raise Unprocessable('"text" must be DGN text: one or more lines')
    bad = _CONTROL.search(text)
    if bad is not None:
        number = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise Unprocessable(f"{number}:{column}: the text holds a control character (U+{ord(bad.group()):04X}): "
                            f"type letters, digits and signs only", number, column)
    if time_limit is None:
        for number, line in enumerate(text.split("\n"), 1):
            if line.strip().lower() == "time":
                raise Unprocessable(f"{number}:{len(line) - len(line.lstrip()) + 1}: this event has no time "
                                    f"limit: a game ends by its rules", number, len(line) - len(line.lstrip()) + 1)


#: What :func:`check_dgn` refuses: the control characters but tab, line feed and carriage return
#: (C0, DEL, C1), the line and paragraph separators, and the direction controls.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029"
                      + "".join(sorted(BIDI_CONTROLS)) + "]")


#: The parts of a hand's deal a duplicate table's ``hand`` line may give itself (else the board's).
DEAL_PARTS = ("deal", "row", "boneyard", "pile", "leaddraw", "redeal")


def with_board(facts: Facts, live: Live, text: str) -> str:
    """A duplicate table's DGN lines with the board's deal after a ``hand`` line that gives none:
    the deal is the board's, so the engine knows every tile (only legal moves offered, forced
    passes made).  A ``hand`` line with a deal of its own is left as sent (the server checks it
    against the board's: :meth:`tournament.event.venue.Venue.record`).  A table that records scores
    only (mode ``sheet``) types each board's score (``hand 1``, ``end blocked NS 30 EW 0``): its hand
    is left without a deal, a score-sheet hand.  A hand before the board's hand is confirmed, or
    after the round's boards are all played, is refused."""
    if facts.boards is None:
        return text
    lines = text.split("\n")
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        out.append(line)
        words = line.split()
        if not words or words[0].lower() != "hand":
            continue
        column = len(line) - len(line.lstrip()) + 1
        at = board_index(facts, live)
        if at >= len(facts.boards):
            raise Unprocessable(f"{number}:{column}: this table has played all its boards of the round",
                                number, column)
        board = facts.boards[at]
        if live.session.game.hand_number >= 1:
            raise Unprocessable(f"{number}:{column}: board {board['board']} is one hand: it is confirmed before "
                                f"the next board starts", number, column)
        rest = [x.split()[0].lower() for x in lines[number:] if x.split()]
        if live.mode == "sheet":  # scores only: the board's score typed, its play not recorded (no deal)
            continue
        if len(words) <= 2 and next(iter(rest), None) not in DEAL_PARTS:  # no deal of its own: the board's
            dealt = str(board["deal"]).split("\n")  # "hand 1 lead N", then the deal's lines
            out[-1] = " ".join(words[:2] + dealt[0].split()[2:])
            out.extend(dealt[1:])
    return "\n".join(out)


def judge_dgn(live: Live, text: str, facts: Facts | None = None) -> tuple[str, str, list[str]]:
    """DGN lines recorded at the table (moves, hand parts, ``undo``): all taken, or none.  At a
    duplicate table (``facts``' boards) a ``hand`` line starts the board's deal (:func:`with_board`)."""
    if facts is not None:
        text = with_board(facts, live, text)
    try:
        live.session.room_for(text)
        said = live.session.take(text)
    except RequestRefused as e:
        r = e.refusal
        said = hands_hidden(r.message)
        if live.mode == "sheet":  # a score sheet's numbers, told in words: no line, column or rule
            raise Unprocessable(in_words(said)) from None
        raise Unprocessable(f"{r.line}:{r.column}: {at_the_table(said)}", r.line, r.column) from None
    return "dgn", text, said


#: The engines' hints for a JSON record (``"on" in JSON, 6-4@6-6 in DGN``; ``"draw": "2-0"``), which
#: ``domrec validate`` says of a JSON file: at the table only DGN is typed, so only its form is said.
_JSON_ON = re.compile(r'\("on" in JSON, (\S+@\S+) in DGN\)')
_JSON_DRAW = re.compile(r'^(\S+) draws: (.*)\("draw": "([^"]+)"\)')


#: A seat's name, as the engines write it (a name of no space, colon, comma or bracket).
_WHO = r"[^\s:;,()'\[\]]+"
#: What an engine's refusal says of a hidden tile's place (another player's hand, stock or face-down
#: pile, the boneyard, its order), each with what is said at the table instead: the reason less
#: that place.  What the rules make public is kept (a tile played, in the row, captured, face up).
_HIDDEN_PLACES = tuple((re.compile(pattern), said) for pattern, said in (
    # "N does not hold 6-6 (it is in S's hand)", "... : it is still in the boneyard", Domino Roads'
    # "... : it is in E's stock", "... : the other copy is in E and W's stock", "... : it is in W's
    # pile", and "N does not hold 6-6 in stock yet: it is still in N's pile" (a face-down pile).
    (rf"( does not hold {_WHO})(?: \(it is in {_WHO}'s hand\)| in stock yet: it is still in {_WHO}'s pile"
     rf"|: it is still in the boneyard|: (?:it is|the other copy is) in (?:{_WHO} and )*{_WHO}'s (?:stock|pile))",
     r"\1"),
    # Castle Rock: "N cannot capture 6-6: it is not in the row (it is in S's hand)" (or "(it has not
    # been played)": in a hand or the boneyard, which the first would tell apart).
    (rf"(cannot capture {_WHO}: it is not in the row) \((?:it is in {_WHO}'s hand|it has not been played)\)",
     r"\1"),
    # Horse Race: "6-6 cannot be drawn: it was dealt to S, so it is not in the boneyard" (or "it was
    # already drawn by S").
    (rf"({_WHO} cannot be drawn): it was (?:dealt to {_WHO}, so it is not in the boneyard"
     rf"|already drawn by {_WHO})", r"\1: it is not in the boneyard"),
    # A boneyard whose order the deal gives: the next tile drawn is not said.
    (rf"(cannot draw {_WHO}): the next tile of the boneyard, in the order given with the deal, is {_WHO}",
     r"\1: it is not the next tile of the boneyard, in the order given with the deal"),
    (rf"the boneyard's order, given with the deal, has {_WHO} as draw number (\d+), not ({_WHO})",
     r"the boneyard's order, given with the deal, does not have \2 as draw number \1"),
    # Horse Race, another seat moving during a chain: "P3 set a scoring tile (2-1) and must go on
    # while able: 3-0 fits on 3-1; it is not P1's turn" names a tile P3 holds, unplayed (P3 may go on
    # with another): said without it.
    (rf"({_WHO} set (?:a double|a scoring tile) \({_WHO}\) and must go on while able): {_WHO} fits on {_WHO}"
     rf"(; it is not {_WHO}'s turn)", r"\1\2"),
))


def hands_hidden(message: str) -> str:
    """An engine's refusal as said to a table while it plays: without where a hidden tile is.

    The engines say where the tile a player named is ("N does not hold 6-6 (it is in S's hand)"),
    which is right for ``domrec validate`` and ``domrec explain``, read by an arbiter over a whole
    record, and wrong on the phone every player at the table reads (at a duplicate table the
    server holds the board's deal, which no player sees).  Only the part that names the place
    goes: the seat, the tile, the reason a club player needs and the rule's name stay.  Done here,
    once, for the server and the phone's engine alike (:func:`judge_dgn`), so what a table's key
    reads back (a refusal kept with its write's id, the director's page) is this sentence too."""
    for pattern, said in _HIDDEN_PLACES:
        message = pattern.sub(said, message)
    return message


def at_the_table(message: str) -> str:
    """An engine's refusal as said at the table: without validate's pointer to the notation's docs
    (a path on the scorer's computer, no use to a player at the table, where the line's place and
    its word say what to type again), and with the DGN alone where it names a JSON record's field
    too (``say which it is played on (6-4@6-6)``; a draw naming its tile, ``(P4 +2-0)``)."""
    said = message.removesuffix(" (see docs/notation.md)")
    said = _JSON_ON.sub(r"(\1)", said)
    return _JSON_DRAW.sub(r"\1 draws: \2(\1 +\3)", said)


def check_mode(mode: Any) -> None:
    if mode not in MODES:
        raise Unprocessable('"mode" is "play" (play by play) or "sheet" (scores only)')


def judge_mode(live: Live, mode: str) -> tuple[str, str, list[str]]:
    if live.modes >= MAX_MODES:
        raise Capped(f"this table has switched between play by play and scores only {MAX_MODES} times, the most a "
                     f"table may: ask the director")
    return "mode", mode, [f"this table records {'play by play' if mode == 'play' else 'scores only'}"]


def judge_call(live: Live) -> tuple[str, str, list[str]]:
    if live.calls >= MAX_CALLS:
        raise Capped(f"this table has called the director {MAX_CALLS} times, the most a table may: go to the "
                     f"director in person")
    return "call", "", ["the director has been called"]


def check_open(facts: Facts, path: str) -> None:
    """A table's own write (``path``: ``dgn``, ``mode``, ``call`` or ``confirm``) at a table whose round
    is over (a later round is paired: its players sit elsewhere now, with other links), refused in
    one line (409, no state, not kept with its id): a call of the director once the table has its
    result (or is a duplicate table), where the director would look for nobody; and at a duplicate
    table every write, for its answer would be the table's state, and a state of a round that is
    over withholds the boards still going round the room (docs/duplicate.md).  A table of another
    event whose result was taken back after the next round was paired records its game again, and
    calls the director, as before.  Checked before the revision, by the server and the phone alike."""
    if not facts.over:
        return
    if path == "call" and call_closed(facts):
        raise RoundOver(f"round {facts.round} is over: call the director from the table you play at now")
    if facts.boards is not None:
        raise RoundOver(f"round {facts.round} is over: this table's phone records nothing more (the director "
                        f"enters what is still missing)")


def call_closed(facts: Facts) -> bool:
    """The table's round is over and a call of the director from its phone is refused
    (:func:`check_open`): its state says so (``call_closed``), so that its page greys its *Call the
    director* and says why, instead of offering a call the server then refuses."""
    return facts.over and (facts.result is not None or facts.boards is not None)


def judge_clear(live: Live) -> tuple[str, str, list[str]]:
    if live.called is None:
        raise Unprocessable("the director was not called to this table")
    return "clear", "", ["the call is cleared"]


def options(live: Live, tile: Any) -> dict[str, Any]:
    """Where ``tile`` may go now (:meth:`domrec.session.Session.options`), at the table's revision."""
    if not isinstance(tile, str) or len(tile) > 8:
        raise Unprocessable("name a tile, such as 6-4")
    return {"rev": live.rev, "tile": tile, "options": live.session.options(tile)}


#: What a row of a duplicate table's log reads as to a key whose round is over, where the row is the
#: play of a board the hall does not show yet (:meth:`tournament.event.venue.Venue.state_with_log`):
#: its revision and time, and nothing of the play (taken as a move is, for what it resets).
WITHHELD = "withheld"


#: The writes a phone's engine answers by itself: ``path`` (the POST's last part) -> how.
OFFLINE = ("dgn", "mode", "call")
#: What the phone's engine says of a write only the server answers (a confirmation, the director's).
SERVER_ONLY = "this waits for the connection to the server: it is sent as soon as the table reaches it"


class ServerOnly(VenueError):
    """A write the phone's engine never answers by itself (it needs the event file)."""

    status = 503


def write(facts: Facts, live: Live, path: str, body: dict[str, Any], at: str,
          logged: tuple | list | None = None) -> tuple[dict[str, Any], tuple | None]:
    """A table's write (``path``: ``dgn``, ``mode`` or ``call``; ``body``: the POST's JSON object)
    answered on ``live`` as the server answers it, without the event file: the state after it, and
    the log row it adds (revision, kind, body, time).  Refused as the server refuses it
    (:class:`VenueError`, ``live`` as it was).  The server's own write path runs these same steps
    inside its transaction (:meth:`tournament.event.venue.Venue.record` and the others).
    ``logged``: the log's row after the revision the write names, where the write names an old
    one: a line another phone recorded first is answered taken, with no row (:func:`twin_logged`)."""
    any_view = locked_ok = False
    over_calls = path in ("dgn", "mode")
    if path == "dgn":
        text = body.get("text")
        check_dgn(text, facts.time_limit)
        judge: Callable[[Live], tuple[str, str, list[str]]] = lambda live: judge_dgn(live, text, facts)
    elif path == "mode":
        mode = body.get("mode")
        check_mode(mode)
        judge = lambda live: judge_mode(live, mode)
    elif path == "call":
        any_view = locked_ok = True
        judge = judge_call
    else:
        raise ServerOnly(SERVER_ONLY)
    check_write_id(body.get("cid"), body.get("at"))
    rev = body.get("rev")
    check_rev(rev, any_view)
    check_open(facts, path)
    try:
        over = check_current(facts, live, rev, locked_ok, any_view, over_calls)
    except Stale:
        if path != "dgn" or not twin_logged(live, rev, body.get("text"), logged):
            raise
        return twin_answer(facts, live), None
    kind, stored, said = judge(live)
    apply(live, kind, stored, at)
    live.rev += 1
    return stepped_over(state(facts, live, said), over), (live.rev, kind, stored, at)


# --- the answer as the page receives it ------------------------------------------------------------

def since(answer: Any, known: str | None) -> Any:
    """A table's state without the closed hands the asking page already holds (``?hands=KEY.N``,
    :func:`domrec.session.since`); any other answer as it is."""
    if known and isinstance(answer, dict) and isinstance(answer.get("game"), dict):
        return {**answer, "game": _session.since(answer["game"], known)}
    return answer


def refusal_body(e: VenueError, request_id: str, known: str | None = None) -> dict[str, Any]:
    """A refused write's answer (before it is translated): its one line, the table now where the
    refusal carries it, and the line and column of a refused DGN line."""
    body: dict[str, Any] = {"error": one_line(e.message), "request_id": request_id}
    if e.state is not None:
        body["state"] = since(e.state, known)
    if isinstance(e, Unprocessable) and e.line is not None:
        body["line"], body["column"] = e.line, e.column
    if isinstance(e, Unprocessable) and e.level is not None:
        body["level"] = list(e.level)
    return body


def translated(data: Any, lang: str, say: Callable[[str], str], default: str = "en") -> Any:
    """An answer of the API with what a page shows of it in ``lang`` (``say``: one sentence in
    ``lang``): what was said of the write, each move's label (the table's legal moves, its
    hands' moves, a tile's places), and the words of the table's picture (its notation kept:
    :func:`domrec.phrases.translate_picture`)."""
    if lang == default or not isinstance(data, dict):
        return data
    out = dict(data)
    if isinstance(out.get("said"), list):
        out["said"] = [say(x) for x in out["said"]]
    if isinstance(out.get("options"), list):
        out["options"] = [{**m, "label": say(m["label"])} for m in out["options"]]
    game = out.get("game")
    if isinstance(game, dict):
        game = dict(game)
        for key in ("legal", "plain"):
            if isinstance(game.get(key), list):
                game[key] = [{**m, "label": say(m["label"])} for m in game[key]]
        game["hands"] = [{**h, "moves": [{**m, "label": say(m["label"])} for m in h["moves"]]}
                         for h in game.get("hands") or []]
        if isinstance(game.get("waiting"), str):
            game["waiting"] = say(game["waiting"])
        if isinstance(game.get("table"), list):
            game["table"] = phrases.translate_picture(game["table"], lang)
        out["game"] = game
    if isinstance(out.get("next"), dict) and isinstance(out["next"].get("over"), str):  # (the event's end)
        out["next"] = {**out["next"], "over": say(out["next"]["over"])}
    if isinstance(out.get("state"), dict):
        out["state"] = translated(out["state"], lang, say, default)
    return out
