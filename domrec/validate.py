"""The replay driver: a record goes in, a report comes out.

Like python-chess's PGN reader, it collects problems instead of dying on the
first: every claimed score that differs is reported (with both numbers) and
replay goes on; an illegal move stops the replay, because nothing after it
can be judged — the hand's tiles, the running totals and the next leader all
depend on it.  The rules themselves live in the engines (:mod:`domrec.games`);
nothing here knows a game.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

import attrs

from domrec import games
from domrec.errors import DealError, InputError, RuleViolation, clip, one_line, pointer_token, shown
from domrec.games.base import HandOutcome, HandState, Match, winner_of
from domrec.reader import loads
from domrec.record import UNSET, Hand, Move, Record


@attrs.frozen
class Problem:
    """One thing wrong with a record, located for a human and for a program."""

    pointer: str
    #: One line whatever the record holds (a seat or key with a newline is escaped).
    message: str = attrs.field(converter=one_line)
    rule: str
    #: ``input`` (unusable), ``setup``, ``deal``, ``illegal``, ``score``, ``unfinished``, ``internal``.
    kind: str
    hand: int | None = None  # 1-based, as players count
    move: int | None = None  # 1-based
    seat: str | None = None
    claimed: Any = None
    computed: Any = None
    #: Where in a DGN text (1-based), for records read from the notation.
    line: int | None = None
    column: int | None = None

    def place(self) -> str:
        """Where in the game, in words: ``hand 2, move 14, W`` (empty for a problem of the whole record)."""
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.move is not None:
            where.append(f"move {self.move}")
        if self.seat is not None:
            where.append(self.seat)
        return ", ".join(where)

    def text(self, pointer: bool = False) -> str:
        """The problem on one line, for a person.  A problem found in typed text (DGN: ``line`` is
        known) says where as the person wrote it, ``3:14: hand 1, move 5, W: ...``; the JSON
        Pointer into the record the reader built is for programs, and is added only when asked
        (``pointer``: ``--json`` and ``-v``).  A problem of a JSON record has no line: its
        pointer is where it is, and is always given."""
        place = self.place()
        rule = f" [{self.rule}]" if self.rule else ""
        if self.line is not None and not pointer:
            if place and self.message.startswith(place + ": "):  # ("hand 1: hand 1: left W lists …")
                place = ""
            where = f"{self.line}:{self.column}: {place + ': ' if place else ''}"
            return one_line(f"{where}{self.message}{rule}")
        loc = f" ({place})" if place else ""
        at = f"{self.line}:{self.column}: " if self.line is not None else ""
        if not self.pointer and self.kind == "input" and not place and not pointer:
            # The file or text as a whole (not found, not JSON): no pointer says more ("/" read as
            # a place in the record).  --json keeps the pointer, "", for programs.
            return one_line(f"{at}{self.message}{rule}")
        ptr = "/".join(clip(token) for token in self.pointer.split("/")) or "/"
        return one_line(f"{at}{ptr}{loc}: {self.message}{rule}")

    def to_dict(self) -> dict[str, Any]:
        out = {"pointer": self.pointer, "message": self.message, "rule": self.rule, "kind": self.kind}
        if len(self.pointer) > POINTER_TOKEN_LIMIT and any(
                len(token) > POINTER_TOKEN_LIMIT for token in self.pointer.split("/")):
            # A key of a megabyte must not be repeated in full in every report of it: its
            # token is cut as the text's is, and the report says so.
            out["pointer"] = "/".join(clip(token) if len(token) > POINTER_TOKEN_LIMIT else token
                                      for token in self.pointer.split("/"))
            out["pointer_clipped"] = True
        for key in ("hand", "move", "seat", "claimed", "computed", "line", "column"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


#: The longest key a JSON report's pointer repeats in full (longer ones are cut, ``pointer_clipped``).
POINTER_TOKEN_LIMIT = 200


@attrs.frozen
class Report:
    """The verdict on one record."""

    source: str
    #: The game, one domrec knows, or None: a name it does not know (a DGN text's ``[Game
    #: "tiddlywinks"]``) is no game, as the same record in JSON has none (docs/archives.md).
    game: str | None = attrs.field(converter=lambda game: game if game in games.MODULES else None)
    #: ``valid``, ``invalid`` (breaks a rule: exit 1) or ``unusable`` (cannot be judged: exit 2).
    status: str
    problems: tuple[Problem, ...] = ()
    scores: dict[str, int] | None = None
    #: The computed winner: a side, ``None`` for a draw or while unfinished.
    winner: str | None = None
    finished: bool = False
    hands: int = 0
    moves: int = 0
    note: str | None = None
    #: Score-sheet hands (1-based): their play was not replayed, only their arithmetic checked.
    sheet_hands: tuple[int, ...] = ()
    #: Pointers of the claims an illegal move kept from being checked: the later moves' scores and
    #: the result of the hand it stopped (the note says so in words).
    unchecked: tuple[str, ...] = ()
    #: The game was stopped by the clock (``"ended": "time"``): finished, the side ahead won.
    on_time: bool = False

    @property
    def valid(self) -> bool:
        return self.status == "valid"

    @property
    def scores_only(self) -> str | None:
        """Words saying which hands were checked by their scores alone, or ``None``."""
        if not self.sheet_hands:
            return None
        if len(self.sheet_hands) == self.hands:
            return "scores only: play was not replayed"
        its = "its" if len(self.sheet_hands) == 1 else "their"
        return f"scores only for {_hand_list(self.sheet_hands)}: {its} play was not replayed"

    def summary(self) -> str:
        if self.status != "valid":
            n = len(self.problems)
            return one_line(f"{self.source}: {self.status.upper()} ({n} problem{'s' if n != 1 else ''})")
        scores = ", ".join(f"{side} {n}" for side, n in (self.scores or {}).items())
        if self.finished:
            end = f"winner {self.winner}" if self.winner is not None else "a draw"
            if self.on_time:  # (a draw: the top total shared when time was called)
                end += " (ended on time: the side ahead wins)" if self.winner is not None else " (ended on time, level)"
        else:
            end = "game not finished"
        sheet = f" ({self.scores_only})" if self.sheet_hands else ""
        return one_line(f"{self.source}: valid {self.game}{sheet}, {self.hands} hand{'s' if self.hands != 1 else ''}, "
                        f"{scores}; {end}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source, "game": self.game, "status": self.status, "valid": self.valid,
            "finished": self.finished, "scores": self.scores, "winner": self.winner,
            "hands": self.hands, "moves": self.moves, "note": self.note,
            "scores_only": bool(self.sheet_hands), "not_replayed": list(self.sheet_hands),
            "unchecked": list(self.unchecked),
            "problems": [p.to_dict() for p in self.problems],
        }


def _hand_list(numbers: tuple[int, ...]) -> str:
    if len(numbers) == 1:
        return f"hand {numbers[0]}"
    return "hands " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


class Observer(Protocol):
    """Watches a replay step by step (explain uses it; validation passes none)."""

    def hand_started(self, index: int, hand: Hand, state: HandState) -> None: ...

    def moved(self, index: int, move: Move, points: int, state: HandState) -> None: ...

    def hand_finished(self, index: int, outcome: HandOutcome, match: Match) -> None: ...


def batch_mode() -> None:
    """Tune the garbage collector for checking many records in one process.

    Replaying a record allocates many small, short-lived objects and no
    reference cycles worth hunting, so Python's default collector mostly
    rescans the same long-lived objects (modules, engines, caches).  Freezing
    those and collecting the youngest generation less often makes a big
    archive faster without changing any verdict.  The ``domrec validate``
    command and the benchmarks use it; a library caller may too.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 50)


def unusable(source: str, error: InputError, game: str | None = None) -> Report:
    """The verdict on a record that cannot be read; an error that knows its place in a text
    (a DGN text's ``line`` and ``column``, hand and move) keeps it."""
    line = getattr(error, "line", None)
    if line is None:
        return Report(source, game, "unusable", (Problem(error.pointer, error.message, "", "input"),))
    # (an error that says its place in its own words, for a caller that prints only them, says it once:
    # "not valid JSON at line 7, column 20: …" is "7:20: not valid JSON: …", as DGN's problems are said)
    place = f"line {line}, column {getattr(error, 'column', None)}"
    message = error.message.removeprefix(f"{place}: ")
    if message.startswith(f"not valid JSON at {place}: "):
        message = "not valid JSON: " + message.removeprefix(f"not valid JSON at {place}: ")
    return Report(source, game, "unusable", (Problem(error.pointer, message, "", "input", line=line,
                                                     column=getattr(error, "column", None),
                                                     hand=getattr(error, "hand", None),
                                                     move=getattr(error, "move", None)),))


def validate_text(text: str | bytes, source: str = "<record>", line: int | None = None) -> Report:
    """Parse, shape-check and replay one record's JSON text (``line``: the text is that line of a
    JSON Lines archive, and a problem at a place of it is said at the archive's line)."""
    try:
        record = loads(text, line)
    except InputError as e:
        return unusable(source, e)
    return validate(record, source)


def validate(record: Record, source: str = "<record>", observer: Observer | None = None,
             resume: tuple[Match, int] | None = None, hands: Sequence[Hand] | None = None) -> Report:
    """Replay ``record`` through its game's engine and check every claim.

    ``resume`` is ``(match, k)``: the match as it stood after the record's first ``k`` hands,
    already replayed (and so judged) by an earlier call.  The replay then starts at hand
    ``k + 1`` from that match, which the replay changes (pass a copy).  The Game API uses it
    so that closing a hand replays that hand, not the whole record again: building a game
    hand by hand stays linear in its hands.  Problems and counts are then those of the
    hands replayed.

    ``hands`` stands for ``record.hands`` when a hand is made only as the replay reaches it:
    the DGN reader works out a typed hand's deal from the match as the hands before it left
    it (:mod:`domrec.notation.straight`).  The replay asks for the hands in order, each
    once, after replaying the ones before (and may stop before the last)."""
    try:
        engine = games.engine(record.game)
    except InputError as e:
        return unusable(source, e, record.game)
    problems: list[Problem] = []
    # Rule options that change nothing for this record are accepted and ignored, and said so.
    ignored = games.base.ignored_options(engine, record) if record.rules is not None else ()

    def report(status: str | None = None, note: str | None = None, **kw: Any) -> Report:
        if ignored:
            note = "; ".join((*ignored, note) if note else ignored)
        return Report(source, record.game, status or ("invalid" if problems else "valid"), tuple(problems),
                      note=note, **kw)

    first = 0
    if resume is not None:
        match, first = resume
    else:
        try:
            match = engine.start(record)
        except RuleViolation as e:
            problems.append(Problem(e.pointer, e.message, e.rule, "setup"))
            return report()
    started = getattr(observer, "match_started", None)
    if started is not None:
        started(match)

    n_moves = 0
    if hands is None:
        hands = record.hands
    last = len(hands) - 1
    stopped: str | None = None
    halted = False  # replay stopped before the end: the game's claims cannot be judged
    sheets: list[int] = []
    unchecked: tuple[str, ...] = ()
    for i, hand in enumerate(hands[first:] if first else hands, first):
        hp = f"/hands/{i}"
        if match.over:
            problems.append(Problem(hp, f"the game was already over after hand {i} "
                                        f"({_totals(match.totals)}): no further hand is played",
                                    "end of game", "illegal", hand=i + 1))
            stopped = (f"hand {i + 1} was not checked" if i == last
                       else f"hands {i + 1}–{last + 1} were not checked")
            halted = True
            break
        if hand.deal is None or not hand.deal.hands:
            if hand.deal is None and not hand.moves and hand.result is not None:  # a score-sheet hand
                try:
                    outcome = match.score_sheet_hand(hand)
                except RuleViolation as e:
                    where = e.where if isinstance(e, DealError) else e.pointer
                    problems.append(Problem(hp + where, e.message, e.rule, "score", hand=i + 1))
                    stopped, halted = _stop_note(i, last), True
                    break
                sheets.append(i + 1)
                if observer:
                    observer.hand_finished(i, outcome, match)
                continue
            # A hand being recorded whose deal is not known yet: checked as far as the shown tiles allow.
            open_report = _open_hand(match, hand, i, last, record, problems, observer, hp)
            n_moves += len(hand.moves)
            if open_report is not None:
                return report(scores=dict(match.totals), hands=i + 1, moves=n_moves, finished=False,
                              note=open_report, sheet_hands=tuple(sheets))
            bad = problems[-1]
            if bad.kind == "illegal" and bad.hand == i + 1 and bad.move is not None:
                unchecked = _unchecked_claims(hand, bad.move - 1, hp)
                stopped = _stop_note(i, last, mid=True, unchecked=_claims_words(hand, i, bad.move - 1, unchecked))
            else:
                stopped = _stop_note(i, last)
            halted = True
            break
        try:
            state = match.start_hand(hand)
        except DealError as e:
            problems.append(Problem(hp + e.where, e.message, e.rule, "deal", hand=i + 1))
            stopped, halted = _stop_note(i, last), True
            break
        except RuleViolation as e:
            problems.append(Problem(hp + e.pointer, e.message, e.rule, "deal", hand=i + 1))
            stopped, halted = _stop_note(i, last), True
            break
        if observer:
            observer.hand_started(i, hand, state)
        played, illegal = _play_moves(state, hand.moves, hp, i, problems, observer)
        n_moves += played
        if illegal:
            unchecked = _unchecked_claims(hand, played - 1, hp)
            stopped = _stop_note(i, last, mid=True, unchecked=_claims_words(hand, i, played - 1, unchecked))
            halted = True
            break
        if not state.over:
            owed = _owed(state)
            if i == last and hand.result is None and record.result is None and record.ended is None:
                who = owed or (f"{state.to_move} to move" if state.to_move else "no move made yet")
                return report(scores=dict(match.totals), hands=i + 1, moves=n_moves, finished=False,
                              note=f"hand {i + 1} is still being played ({who})", sheet_hands=tuple(sheets))
            who = owed or (f"it is {state.to_move}'s turn" if state.to_move else "no move has been made")
            if i == last and hand.result is None and record.ended is not None:
                problems.append(Problem(f"{hp}/moves", f"the game is said to have ended on time, but hand {i + 1} "
                                                       f"is not finished ({who}): a hand under way when time is "
                                                       f"called is played to its end", "end on time",
                                        "unfinished", hand=i + 1))
            else:
                problems.append(Problem(f"{hp}/moves", f"the hand is not finished: {who} "
                                                       f"and the record has no more moves",
                                        "end of hand", "unfinished", hand=i + 1))
            stopped, halted = _stop_note(i, last), True
            break
        outcome = match.finish_hand(state)
        if observer:
            observer.hand_finished(i, outcome, match)
        _check_hand_claims(hand, outcome, match, hp, i, problems)

    over, winner = match.over, match.winner
    if not halted and record.ended is not None:
        if match.over:
            problems.append(Problem("/ended", f"the game is said to have ended on time, but it was over anyway "
                                              f"after hand {len(hands)} ({_totals(match.totals)}, winner "
                                              f"{match.winner or 'none: a draw'}): leave \"ended\" out",
                                    "end on time", "score"))
        else:  # stopped by the clock after its last hand: the side ahead wins, a draw when the top is shared
            over, winner = True, winner_of(dict(match.totals)) if match.totals else None
    if not halted:
        _check_game_claims(record, len(hands), match, problems, over, winner)
    finished = not halted and over
    return report(scores=dict(match.totals), winner=winner if finished else None,
                  finished=finished, hands=len(hands), moves=n_moves, note=stopped, sheet_hands=tuple(sheets),
                  unchecked=unchecked, on_time=finished and record.ended is not None and not match.over)


def _open_hand(match: Match, hand: Hand, i: int, last: int, record: Record, problems: list[Problem],
               observer: Observer | None, hp: str) -> str | None:
    """Replay a hand whose deal is not known (format 1.1, a hand being recorded).

    Only the last hand of an unfinished game may be written so: its moves are
    checked as far as the tiles already shown allow, and the record is
    reported unfinished.  Anywhere else the hand's scores, and so the game,
    cannot be judged without the deal: that is a problem.  Returns the note
    of an unfinished record, or ``None`` when a problem was added.
    """
    where = "in DGN, the tiles each player still held (left SEAT tiles…)"
    if i == last and hand.result is None and record.ended is not None:
        problems.append(Problem(f"{hp}/moves", f"the game is said to have ended on time, but hand {i + 1} is still "
                                               f"being recorded: a hand under way when time is called is played "
                                               f"to its end", "end on time", "unfinished", hand=i + 1))
        return None
    if i != last or hand.result is not None or record.result is not None or record.ended is not None:
        problems.append(Problem(f"{hp}/deal", f"hand {i + 1} has moves but no deal, so its scores cannot be "
                                              f"worked out: give the deal ({where})", "the deal", "deal",
                                hand=i + 1))
        return None
    try:
        state = match.start_open_hand(hand)
    except DealError as e:
        problems.append(Problem(hp + e.where, e.message, e.rule, "deal", hand=i + 1))
        return None
    except RuleViolation as e:
        problems.append(Problem(hp + e.pointer, e.message, e.rule, "deal", hand=i + 1))
        return None
    if observer:
        observer.hand_started(i, hand, state)
    if _play_moves(state, hand.moves, hp, i, problems, observer)[1]:
        return None
    if state.over:
        problems.append(Problem(f"{hp}/deal", f"hand {i + 1} is over but its deal is not known, so its scores "
                                              f"cannot be worked out: give the deal ({where})", "the deal",
                                "deal", hand=i + 1))
        return None
    who = _owed(state) or (f"{state.to_move} to move" if state.to_move else "no move made yet")
    return (f"hand {i + 1} is still being played ({who}); its deal is not known yet, so its moves were "
            f"checked only as far as the tiles shown allow")


def _owed(state: HandState) -> str | None:
    """What the hand still waits for besides the turn (a Broadway penalty play), if the engine says."""
    owed = getattr(state, "owed", None)
    return owed() if owed is not None else None


def _play_moves(state: HandState, moves: tuple[Move, ...], hp: str, i: int, problems: list[Problem],
                observer: Observer | None) -> tuple[int, bool]:
    """Apply a hand's moves in order, checking each claimed move score.

    Returns how many moves were applied and whether replay stopped at an
    illegal move (reported, with where it is).  This loop is the bulk of
    validation, hence the local names.
    """
    apply = state.apply
    j = -1
    try:
        for j, move in enumerate(moves):
            points = apply(move)
            if move.score is not None and move.score != points:
                problems.append(_move_score_problem(hp, i, j, move, points, state))
            if observer:
                observer.moved(j, move, points, state)
    except RuleViolation as e:
        move = moves[j]
        problems.append(Problem(f"{hp}/moves/{j}{e.pointer}", e.message, e.rule, "illegal",
                                hand=i + 1, move=j + 1, seat=move.seat))
        return j + 1, True
    return j + 1, False


def wrong_score(move: Move, points: int, state: HandState | None = None) -> str:
    """What a wrong move score is told, saying what was counted so the claim can be put right:
    "W is credited 5, but 4-2 matches only the 2 of 5-2 and the 4 of 4-1: 2 segments, 1 point".
    The engine that knows the count words it (``score_why``, called while ``state`` is just after
    ``move``); an engine without the hook gets the bare "it scores 1".  The validator and the
    recorder both say it, so a player at the table reads what an arbiter reads later."""
    why = getattr(state, "score_why", None)
    reason = why(move, points) if why is not None else None
    return f"{move.seat} is credited {shown(move.score)}, but {reason or f'it scores {points}'}"


def _move_score_problem(hp: str, i: int, j: int, move: Move, points: int, state: HandState | None = None) -> Problem:
    """A wrong move score (:func:`wrong_score`), at its claim."""
    return Problem(f"{hp}/moves/{j}/score", wrong_score(move, points, state), "scoring", "score",
                   hand=i + 1, move=j + 1, seat=move.seat, claimed=move.score, computed=points)


def _stop_note(i: int, last: int, mid: bool = False, unchecked: str | None = None) -> str | None:
    """What replay stopping in hand ``i`` left unjudged: ``unchecked`` (the rest of the hand, when an
    illegal move stopped it mid-way) and the later hands."""
    where = "at this move" if mid else "here"
    if i < last:
        later = f"hand {last + 1} was" if i + 1 == last else f"hands {i + 2}–{last + 1} were"
        if unchecked:
            return f"{unchecked}; {later} not checked"
        return f"replay stopped {where} in hand {i + 1}; {later} not checked"
    return unchecked


def _unchecked_claims(hand: Hand, j: int, hp: str) -> tuple[str, ...]:
    """The claims of ``hand`` after its illegal move ``j`` (0-based), which replay never reached."""
    out = [f"{hp}/moves/{k}/score" for k in range(j + 1, len(hand.moves)) if hand.moves[k].score is not None]
    if hand.result is not None:
        out.append(f"{hp}/result")
    return tuple(out)


def _claims_words(hand: Hand, i: int, j: int, unchecked: tuple[str, ...]) -> str | None:
    """The note for an illegal move ``j`` that stopped hand ``i``: what after it was not checked."""
    return rest_of_hand_note(i, j, len(hand.moves) - j - 1, len(unchecked) - (hand.result is not None),
                             hand.result is not None)


def rest_of_hand_note(i: int, j: int, later: int, scores: int, result: bool) -> str | None:
    """Words for what an illegal move ``j`` (0-based) of hand ``i`` kept from being checked: the
    ``later`` moves after it, ``scores`` move scores claimed on them and the hand's ``result``.

    Without it a wrong score later in the same hand would go unmentioned, and a reader could
    take the hand's other claims for checked.  ``None`` when nothing follows the move.
    """
    if not later and not result:
        return None
    parts = [_count(later, "move")] if later else []
    if scores:
        parts.append(_count(scores, "claimed move score"))
    if result:
        parts.append("its claimed result")
    words = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"replay stopped at move {j + 1} of hand {i + 1}, so the rest of that hand was not checked: {words}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _totals(totals: dict[str, int]) -> str:
    return ", ".join(f"{side} {n}" for side, n in totals.items())


def _check_hand_claims(hand: Hand, outcome: HandOutcome, match: Match, hp: str, i: int,
                       problems: list[Problem]) -> None:
    claim = hand.result
    if claim is None:
        return
    if claim.end is not None and not outcome.ends_as(claim.end):
        problems.append(Problem(f"{hp}/result/end", f"the hand is claimed to end {claim.end!r}, but it "
                                                    f"ended {outcome.end!r}", "end of hand", "score",
                                hand=i + 1, claimed=claim.end, computed=outcome.end))
    written = claim.scores or {}
    # Every side's points are claimed: a side left out of the scores scored 0 (docs/format.md).
    for side, n in (claim.claimed_scores(outcome.scores) or {}).items():
        if side not in outcome.scores:
            problems.append(Problem(f"{hp}/result/scores/{pointer_token(side)}",
                                    f"{clip(side)} is not a side of this game (sides: {', '.join(match.sides)})",
                                    "sides", "score", hand=i + 1))
        elif outcome.scores[side] != n:
            why = "" if side in written else " (it is left out of the hand's scores: a side left out scored 0)"
            problems.append(Problem(f"{hp}/result/scores/{pointer_token(side)}",
                                    f"{clip(side)} is claimed {shown(n)} for hand {i + 1}{why}, but scores "
                                    f"{outcome.scores[side]}",
                                    "hand scoring", "score", hand=i + 1, claimed=n,
                                    computed=outcome.scores[side]))


#: Why a side the game's final scores leave out is claimed 0 (the recorder says it too).
LEFT_OUT_OF_FINAL = " (it is left out of the game's final scores: a side left out finished with 0)"


def _check_game_claims(record: Record, n_hands: int, match: Match, problems: list[Problem], over: bool,
                       winner: str | None) -> None:
    """Check the game's claimed ``result`` against ``over`` and ``winner``: the engine's, or, for a
    game stopped by the clock (``ended: time``), the side ahead on the totals."""
    claim = record.result
    if claim is None:
        return
    if not over:
        problems.append(Problem("/result", f"a final result is claimed but the game is not over "
                                           f"({_totals(match.totals)} after {_count(n_hands, 'hand')})",
                                "end of game", "unfinished"))
        return
    written = claim.scores or {}
    # Every side's total is claimed: a side left out of the final scores finished with 0, as a
    # side left out of a hand's scores scored 0 (docs/format.md).
    for side, n in (claim.claimed_scores(match.totals) or {}).items():
        if side not in match.totals:
            problems.append(Problem(f"/result/scores/{pointer_token(side)}",
                                    f"{clip(side)} is not a side of this game (sides: {', '.join(match.sides)})",
                                    "sides", "score"))
        elif match.totals[side] != n:
            why = "" if side in written else LEFT_OUT_OF_FINAL
            problems.append(Problem(f"/result/scores/{pointer_token(side)}",
                                    f"{clip(side)} is claimed to finish with {shown(n)}{why}, but has "
                                    f"{match.totals[side]}",
                                    "game scoring", "score", claimed=n, computed=match.totals[side]))
    if claim.winner is not UNSET and claim.winner != winner:
        said = "a draw" if claim.winner is None else claim.winner
        real = "a draw" if winner is None else winner
        why = ("" if record.ended is None else "; the game ended on time, so the side ahead wins" if winner is not None
               else "; the game ended on time with the top total shared, so it is a draw")
        problems.append(Problem("/result/winner", f"the winner is claimed to be {said}, but it is {real} "
                                                  f"({_totals(match.totals)}{why})",
                                "winning", "score", claimed=claim.winner, computed=winner))
