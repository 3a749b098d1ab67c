"""The small protocol every game engine follows, and helpers they share.

Modelled on OpenSpiel's game API: a *match* (one record: several hands and
the running totals) makes a *hand state*; a hand state knows whose turn it
is, lists its legal moves, applies one, and at the end gives the hand's
outcome.  Validation, simulation, explanation and the tournament all drive
these objects and nothing else, so each rule is written exactly once: in the
engine module of its game.

Engines raise :class:`~domrec.errors.IllegalMove` (and friends) with the
*rule's name* and a sentence for the players; the replay driver adds where it
happened (JSON Pointer, hand and move numbers).
"""

from __future__ import annotations

import copy
import enum
import json
import random
import types
from collections import Counter
from itertools import chain
from typing import Any, Callable, Iterable, Protocol, Sequence

import attrs

from domrec import tiles as T
from domrec.errors import DealError, IllegalMove, SetupError, clip, pointer_token as _escape
from domrec.record import MOVE_KEYS, Hand, Move, Pass, Record
from domrec.tiles import Tile

PARTNERSHIP_SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW")


@attrs.frozen
class ScoreRange:
    """The scores a game can give a side, each side's, as its engine declares them
    (``final_scores``), so that the tournament checks a typed score against the game's own rules
    and holds no rule of its own about scores.

    Below: a final total is at least ``low`` (``None`` where the rules set no bound: Castle Rock's
    totals sink with every tile left in the row, hand after hand).  Above, two bounds:

    * ``hand``: the most one side can score in one hand (``hand_why`` says why, in the rules'
      words); a typed hand's score (a duplicate board, a score sheet's hand) above it is refused.
    * a game's total, where the game ends at a check (after a hand, or after a peg) at which a
      side has reached ``target``: see :meth:`most`.  Without a target (Broadway's seven hands
      and sudden death, which may go on while the hands are level) only the hand's bound holds.

    **Why a game's total cannot pass** :meth:`most`.  Let a *check* be a moment the rules look at
    the target (every hand's end; under Horse Race's ``win_check: immediate`` also every peg),
    ``step`` the most a side's total can rise from one check to the next (a hand's most, or for
    Horse Race's immediate check the most of one peg or one hand's end count: ``step_why``).
    Take the last check before the one that ended the game (or before the moment the score was
    typed: a game stopped by the clock), or the game's start.  There the game went on, so either
    no side had reached the target (every total was at most ``target - 1``), or (only where
    ``ties_go_on``: Horse Race, Domino Roads) the top was shared, so the side's total was at most
    another side's total at that check, which is at most that side's final total plus ``fall``,
    the most a total can fall between two checks (Horse Race's Celko subtractions; 0 where totals
    never fall).  From there the side rose by ``step`` at most.  So a side ends with at most
    ``target - 1 + step``; where a tie at the top sends play on, at most the larger of that and
    another side's total ``+ fall + step``.  Where no tie sends play on (Competitive ends level as
    a draw, Castle Rock breaks a tie by the youngest hand, Celko with the immediate check reaches
    the target by one peg of one side), the first bound holds alone.

    ``gain`` tightens the tie's term where the rules let a side's rise and another side's fall
    share one budget: then from the tie a side gains at most ``gain`` on the side it was level
    with (its total at that check at most theirs), so it ends with at most that side's final total
    ``+ gain`` (``gain_why``); Horse Race's Celko checked after every hand, 3780 instead of 170 +
    3780 (:func:`domrec.games.horserace.score_range`).  ``fall`` still says whether that side may
    have been at the target at the check.  A total past the target has no bound of its own: ties
    may send play on hand after hand (two Horse Race players tied for the lowest hand at a block
    both score the other's pips, and stay level), so past the target a bound is another side's
    total plus a step, never a number fixed in advance."""

    low: int | None = 0
    high: int | None = None
    #: Why the bottom is where it is, in the rules' words (for the refusal of a score below it).
    why: str = ""
    #: The most one side scores in one hand (``None``: no bound), and why, in the rules' words.
    hand: int | None = None
    hand_why: str = ""
    #: The total a side reaches to end the game at a check (``None``: no target).
    target: int | None = None
    #: The most a side's total rises between two checks, and its words (where not the hand's).
    step: int | None = None
    step_why: str = "the most one hand can score"
    #: Whether a tie at the top, at or past the target, sends play on (another hand).
    ties_go_on: bool = False
    #: The most a side's total can fall between two checks (only where ties go on).
    fall: int = 0
    #: The most a side's total can gain on another side's between two checks, where less than
    #: ``fall + step`` (``None``: that sum), and why, in the rules' words.
    gain: int | None = None
    gain_why: str = ""
    #: Why no game ends with two sides at or past the target, in the rules' words ("" where one
    #: may): between two checks only one side's total rises, and the first check that finds a side
    #: at the target ends the game (no tie sends play on), so every other side ends below it, a
    #: game stopped by the clock with every side below it (Competitive: one side scores a hand;
    #: Celko checked after every peg: a peg scores one side).  See :meth:`end_refusal`.
    alone: str = ""
    #: How the rules name a winner among sides level at the top at or past the target, where no
    #: game ends there as a draw (Castle Rock: the youngest hand), in the rules' words; "" where a
    #: tie there plays on or is a draw.  A typed score level there says nothing of who won.
    tie_settled: str = ""

    def refusal(self, score: int) -> str | None:
        """Why ``score`` is no final total of this game by its sign, or ``None`` if it may be one
        (the bound above needs the other sides' totals: :meth:`total_refusal`)."""
        if self.low is not None and score < self.low:
            below = "zero" if self.low == 0 else f"{self.low}"
            return f"below {below}, which no game of {{game}} can end with" + (f" ({self.why})" if self.why else "")
        if self.high is not None and score > self.high:
            return f"above {self.high}, which no game of {{game}} can end with" + (f" ({self.why})" if self.why else "")
        return None

    def most(self, side: str, scores: dict[str, int]) -> tuple[int, str] | None:
        """The most ``side`` can end a game with, the other sides ending with ``scores`` (every
        side's total, ``side``'s included), and the sum in words: ``"199 + 137, the most one hand
        can score"``; ``None`` where the rules set no bound (no target).  Proof: the class's
        docstring."""
        if self.target is None or self.step is None:
            return None
        first = self.target - 1 + self.step
        best, words = first, f"{self.target - 1} + {self.step}, {self.step_why}"
        if self.ties_go_on:
            others = [(n, s) for s, n in scores.items() if s != side]
            if others:
                n, other = max(others)
                level = n + (self.fall + self.step if self.gain is None else self.gain)
                if n + self.fall >= self.target and level > best:
                    if self.gain is not None:
                        rise = f" + {self.gain}, {self.gain_why}"
                    else:
                        fall = f" + {self.fall}, the most a total falls between two checks," if self.fall else ""
                        rise = f"{fall} + {self.step}, {self.step_why}"
                    best, words = level, f"{other}'s {n}{rise}: a tie at the top sends play on"
        return best, words

    def total_refusal(self, side: str, score: int, scores: dict[str, int]) -> str | None:
        """Why ``side`` cannot end a game with ``score`` (the sides' totals: ``scores``), in one
        line naming the side and the bound: ``NS 2000: a game to 200 cannot end above 336 (199 +
        137, the most one hand can score)``; ``None`` if it can."""
        most = self.most(side, scores)
        if most is None or score <= most[0]:
            return None
        return f"{side} {score}: a game to {self.target} cannot end above {most[0]} ({most[1]})"

    def end_refusal(self, scores: dict[str, int]) -> str | None:
        """Why no game ends with these totals (every side's) by how a game ends, in one line
        naming the sides and the rule: ``NS 200, EW 200: a game to 200 never ends with two sides
        at 200 or more (only one side scores in a hand, and the game stops after the hand in which
        a side reaches the target)``; ``None`` if one may.  A game stopped by the clock ends with
        every side below the target here (a check finding a side there would have ended it), so
        a draw below the target stays possible."""
        if self.target is None or not self.alone:
            return None
        there = [(side, n) for side, n in scores.items() if n >= self.target]
        if len(there) < 2:
            return None
        listed = ", ".join(f"{side} {n}" for side, n in there)
        return (f"{listed}: a game to {self.target} never ends with two sides at {self.target} or more "
                f"({self.alone})")

    def settles_tie(self, top: int) -> str | None:
        """How the rules name the winner among sides level at the top on ``top`` (``tie_settled``)
        where a game never ends there as a draw, else ``None``."""
        if self.target is None or not self.tie_settled or top < self.target:
            return None
        return self.tie_settled

    def hand_refusal(self, side: str, score: int) -> str | None:
        """Why ``side`` cannot score ``score`` in one hand: ``NS 1680: one hand cannot score
        above 137 (a domino scores at most the pips of the other three hands)``; ``None`` if it can."""
        if self.hand is None or score <= self.hand:
            return None
        return f"{side} {score}: one hand cannot score above {self.hand} ({self.hand_why})"


@attrs.frozen
class HandOutcome:
    """How a hand ended and what each side scored for it.

    ``scores`` holds every side's points for the hand after every end-of-hand
    adjustment, the number a record's ``result.scores`` claims.
    ``arithmetic`` is the working an arbiter reads out (``explain``): the
    lines, or a function giving them, so that validation (which never shows
    them) does not pay for formatting them.

    ``also`` lists other ``end`` words equally true of the hand, which a record
    may claim instead of ``end`` (in Broadway, a last tile that empties the
    hands and makes the sudden-death lead ends the hand both ``out`` and
    ``sudden-death``); ``end`` is the word the canonical writer writes.
    """

    end: str
    scores: dict[str, int]
    arithmetic: tuple[str, ...] | Callable[[], Sequence[str]] = ()
    also: tuple[str, ...] = ()

    def ends_as(self, claimed: str) -> bool:
        """Whether a record claiming the hand ended ``claimed`` says something true."""
        return claimed == self.end or claimed in self.also

    def working(self) -> tuple[str, ...]:
        lines = self.arithmetic
        return tuple(lines() if callable(lines) else lines)


class HandState(Protocol):
    """One hand being played."""

    over: bool
    #: The seat whose turn it is (``None`` once the hand is over).
    to_move: str | None

    def apply(self, move: Move) -> int:
        """Play ``move``; return the points it earns the mover's side.

        Raises :class:`~domrec.errors.IllegalMove` naming the rule broken."""

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now (used by the simulator)."""

    def outcome(self) -> HandOutcome:
        """The hand's end and scores; only once :attr:`over`."""

    # Optional: ``only_pass() -> bool``, the same answer as ``legal_moves()`` being the pass of
    # the player to move alone, asked where ``legal_moves`` is (the deal known, the hand not over):
    # the Game API's ``forced_pass``, asked before every move of a text that leaves its forced
    # passes out, where listing every move to find there is none cost most of the reading.

    # Optional: ``owed() -> str | None``, what the hand still waits for besides the turn
    # (Broadway: the penalty play of an exposed tile), said when a record stops there.

    # Optional: ``score_why(move, points) -> str``, called just after ``apply(move)`` returned
    # ``points`` when the record claims another score: what the rules counted, worded by the
    # engine that counted it ("the open ends are 6 (6-4) + 4 (4-1) + 5 (5-0) = 15: 3 points"),
    # so that a wrong claim says why and the validator need not know any game's count.

    def render(self) -> list[str]:
        """Lines showing the table (line, layout, roads…) as it stands."""

    def holdings(self) -> dict[str, list[Tile]]:
        """Each seat's tiles still in hand, for explain."""

    def clone(self, memo: dict[int, Any] | None = None) -> "HandState":
        """A copy whose containers are its own (:func:`clone_state`), for the Game API's
        checkpoints; ``memo`` (shared with the match's ``clone``) keeps one copy of the match."""

    # Open hands only (see Match.start_open_hand): ``open`` is True and
    # ``held_count(seat) -> int`` says how many tiles the seat still holds.


class Match(Protocol):
    """One record's game: the hands in order and the running totals."""

    sides: tuple[str, ...]
    totals: dict[str, int]
    over: bool
    #: The winning side once over (``None`` for a draw).
    winner: str | None

    def start_hand(self, hand: Hand) -> HandState:
        """Check ``hand``'s deal and leader; raise DealError/IllegalMove if wrong."""

    def finish_hand(self, state: HandState) -> HandOutcome:
        """Score the finished hand into the totals and decide whether the game is over."""

    def random_hand(self, rng: random.Random) -> Hand:
        """A freshly shuffled hand (deal and leader, no moves) for simulation."""

    # --- format 1.1: hands whose deal is not known, and score-sheet hands -------

    def start_open_hand(self, hand: Hand) -> HandState:
        """A hand whose players' tiles are not known (yet): an *open* hand.

        ``hand.deal`` is ``None`` or a :class:`Deal` with ``hands == {}`` that
        may carry the public parts (Castle Rock ``row``, a known ``boneyard``
        order, Roads ``piles``, Competitive ``lead_draw``).  The state it
        returns has ``open = True`` and makes, in ``apply``, every check that
        does not depend on tiles nobody has shown (turn order, tile of the set
        and not already seen, the mover still has tiles, fits where it is
        placed, the move's points), and skips those that do ("must play if
        able" for passes and draws; a block is reached only through the
        written passes).  ``held_count(seat)`` gives how many tiles a seat
        still holds.  Later the deal is inferred (:mod:`domrec.deals`) and the
        hand is replayed in full through :meth:`start_hand`.
        """

    def score_sheet_hand(self, hand: Hand) -> HandOutcome:
        """A hand recorded by its ``result`` alone (no deal, no moves).

        Adds the claimed scores to the totals as :meth:`finish_hand` adds a
        computed outcome, applies the end-of-game rule, and keeps whatever
        later hands depend on (hand number, next leader where the scores
        alone fix it).  Raises :class:`RuleViolation` (pointer relative to
        the hand, e.g. ``/result/scores/NS``) for a claim no play could give.
        """

    def tile_set(self) -> list[Tile]:
        """Every tile of the set this match plays with (a list: Roads sets hold duplicates)."""

    def clone(self, memo: dict[int, Any] | None = None) -> "Match":
        """A copy whose containers are its own (:func:`clone_state`), for the Game API's checkpoints."""

    #: True where the players are dealt the whole set (no boneyard), so one
    #: seat's tiles are whatever the others were not dealt.
    deals_whole_set: bool

    #: The rule a deal's own slips are said under (a tile dealt twice, one not of the set): the
    #: game's deal rule, so that the recorder, checking a deal line as it is typed, names the rule
    #: the validation names for the same slip.
    deal_rule: str


class Engine(Protocol):
    """One game: its name, rule options and how to start a match."""

    name: str
    variants: tuple[str, ...]
    defaults: dict[str, Any]
    #: Whether moves earn points as they are made (then simulate writes move scores).
    scores_moves: bool

    def start(self, record: Record) -> Match:
        """A match for ``record``; raise SetupError for impossible players or options."""

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        """How many players the game allows under ``options``."""

    def seats_for(self, count: int, options: dict[str, Any]) -> tuple[str, ...]:
        """The seat labels a new record of ``count`` players uses (N E S W, or P1, P2, …)."""

    def final_scores(self, variant: str, options: dict[str, Any], players: int | None = None) -> ScoreRange:
        """The scores a side can take in ``variant`` under ``options`` (resolved) with ``players``
        at the table (``None``: any count the game allows; the bounds then hold for every one):
        its final total's range, the most one hand can give it and the target that bounds a
        game's total (:class:`ScoreRange`).  A typed score is checked against it."""

    # Optional: ``choose(state, legal, rng) -> Move``, a simulated player's
    # preference (e.g. Broadway favours scoring plays); the default is uniform.
    #
    # Optional hooks for the simulator's *accidents* (domrec/simulate.py), the paths a
    # table sometimes takes that no simulated player would choose:
    # - ``seatings(count, options) -> tuple[tuple[str, ...], ...]``: other seat labels the
    #   rules allow for ``count`` players than :meth:`seats_for` gives (Horse Race alone at
    #   N E S W);
    # - on a hand state, ``accident(rng) -> Move | None``: a move made out of turn
    #   (Broadway's exposed tile), never listed by ``legal_moves``;
    # - on a hand state, ``closing_passes() -> list[Move]``: after a block, the round of
    #   passes a record may write (an empty list when the hand did not end blocked).
    #
    # ``final_scores`` (above) is what a score typed in by hand (``tournament result --score``,
    # the venue's director page) is checked against, never a rule of the tool's own.
    #
    # Optional: ``inert_options(variant, options) -> dict[str, tuple[str, str]]``: the rule
    # options that change nothing under this variant and these options (``count_partner``
    # without partnerships), each with the reason and the rule name.  Such options are accepted and ignored:
    # :func:`effective_options` puts their defaults back, and validation notes them.


#: Seat labels a table may use instead of P1, P2, …: the compass points, for games whose
#: seats are any distinct labels (an individual game seated N E S W is still individual).
COMPASS_SEATS = {2: ("N", "S"), 3: ("N", "E", "S"), 4: PARTNERSHIP_SEATS}


# --- where a move's problem points -------------------------------------------------
#
# An engine raises IllegalMove with a pointer relative to the move: the field holding the
# offending value (``/play``, ``/on``, ``/seat``, ``/capture/1``…), and the replay driver puts
# ``/hands/H/moves/M`` in front.  docs/format.md, "Where problems point", gives the rule of thumb.

_KIND_POINTERS: dict[type, str] = {cls: f"/{key}" for key, cls in MOVE_KEYS.items()}


def kind_pointer(move: Move) -> str:
    """The key that says what kind of move ``move`` is (``/pass``, ``/draw``…).

    Where a problem points when the move should not have been made at all: a pass while
    the player must play, a draw while a tile fits.
    """
    return _KIND_POINTERS.get(type(move), "")


def stray_pointer(move: Move, *fields: str) -> str:
    """The first of ``fields`` that ``move`` gives (a field its game does not use, such as
    ``at`` on a Competitive play), or else its kind's key."""
    for name in fields:
        if getattr(move, name, None) is not None:
            return f"/{name}"
    return kind_pointer(move)


# --- shared helpers ---------------------------------------------------------------


def effective_options(engine: Engine, variant: str | None, options: dict[str, Any] | None) -> dict[str, Any]:
    """Every rule option's value: those given over the defaults of the game and variant.

    An engine whose defaults depend on the variant (Horse Race: target 61, or
    200 in Celko) provides ``defaults_for(variant)``; others have one
    ``defaults`` dict.  Two option sets that play the same game compare equal
    once resolved here (the tournament relies on it).
    """
    defaults_for = getattr(engine, "defaults_for", None)
    defaults = defaults_for(variant or "standard") if defaults_for else engine.defaults
    resolved = dict(defaults)
    resolved.update(options or {})
    if options:
        # An option that changes nothing here is accepted and ignored: its default goes back,
        # so that it compares equal to a record that left it out (it plays the same game).
        for name in inert_options(engine, variant, resolved):
            resolved[name] = defaults[name]
    return resolved


def inert_options(engine: Engine, variant: str | None, resolved: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The options of ``resolved`` that ask for something this variant and these options make
    impossible (set to another value than the default), each with why it changes nothing and
    the rule that says so."""
    hook = getattr(engine, "inert_options", None)
    return hook(variant or "standard", resolved) if hook is not None else {}


def ignored_options(engine: Engine, record: Record) -> tuple[str, ...]:
    """Sentences for a report's note: each option the record sets that has no effect, ignored.

    The rule book's principle (docs/format.md, docs/rules/): an option that cannot
    change anything under the record's variant, players or other options is accepted
    and ignored rather than refused; a wrong *value* is still refused.
    """
    given = record.options
    if not given:
        return ()
    resolved = dict(effective_options(engine, record.variant, None))
    resolved.update(given)
    return tuple(f"rule option {name}: {json.dumps(given[name])} has no effect {why}; ignored [{rule}]"
                 for name, (why, rule) in inert_options(engine, record.variant, resolved).items() if name in given)


def resolve_options(engine: Engine, record: Record) -> dict[str, Any]:
    """The record's rule options over the game's defaults (the shape check vetted names)."""
    return effective_options(engine, record.variant, record.options)


def require_partnership_seats(record: Record, game: str, rule: str) -> None:
    seats = record.seats
    if len(seats) != 4:
        raise SetupError(
            f"{game} is played by exactly four players in two partnerships; this record has {len(seats)}",
            rule, "/players")
    if tuple(seats) != PARTNERSHIP_SEATS:
        raise SetupError(
            f"a partnership game seats its players N, E, S, W in clockwise order, not {', '.join(seats)}",
            "seats", "/players")


def require_distinct_seats(record: Record) -> None:
    seen: set[str] = set()
    for i, seat in enumerate(record.seats):
        if seat in seen:
            raise SetupError(f"two players sit at seat {seat}", "seats", f"/players/{i}/seat")
        seen.add(seat)


def partnership_side(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


def parse_tiles(texts: Sequence[str], where: str, valid: frozenset[Tile] | Counter,
                set_name: str, rule: str = "the set") -> list[Tile]:
    """Tile strings to tiles, each checked to be in the game's set."""
    out = []
    for i, text in enumerate(texts):
        t = T.tile(text)
        if t not in valid:
            raise DealError(f"{text} is not a tile of the {set_name} set", rule, f"{where}/{i}")
        out.append(t)
    return out


def not_held(seat: str, t: Tile, text: str, hands: dict[str, Any], set_tiles: frozenset[Tile],
             set_name: str, gone: str) -> str:
    """Why ``seat`` cannot play ``text``: not of the set, in another hand, or ``gone``."""
    if t not in set_tiles:
        return f"{text} is not a tile of the {set_name} set"
    for other, hand in hands.items():
        if t in hand:
            return f"{seat} does not hold {text} (it is in {other}'s hand)"
    return f"{seat} does not hold {text}: {gone}"


def check_seat_keys(mapping: dict[str, Any], seats: Sequence[str], where: str, what: str) -> None:
    """A deal's per-seat parts must name exactly the record's seats."""
    for seat in mapping:
        if seat not in seats:
            raise DealError(f"{what} names seat {clip(seat)}, who is not among the players ({', '.join(seats)})",
                            "seats", f"{where}/{_escape(seat)}")
    for seat in seats:
        if seat not in mapping:
            raise DealError(f"{what} has nothing for seat {seat}", "deal", where)


def check_full_deal(hands: dict[str, Sequence[str]], seats: Sequence[str], set_tiles: frozenset[Tile],
                    per_seat: int, set_name: str, rule: str, where: str = "/deal/hands") -> dict[str, list[Tile]]:
    """A deal of a whole set (no boneyard): ``per_seat`` tiles each, every tile once.

    The usual, correct deal is checked in one pass; only a faulty one is
    walked again to name the first problem precisely.
    """
    if len(hands) == len(seats):
        parsed = T.known_tiles(hands, seats)
        if parsed is not None and all([len(ts) == per_seat for ts in parsed.values()]):
            dealt = set(chain.from_iterable(parsed.values()))
            if len(dealt) == len(set_tiles) and dealt <= set_tiles:
                return parsed
    check_seat_keys(hands, seats, where, "the deal")
    parsed = {}
    for seat in seats:
        texts = hands[seat]
        if len(texts) != per_seat:
            raise DealError(f"{seat} was dealt {len(texts)} tiles; each player gets {per_seat}", rule,
                            f"{where}/{_escape(seat)}")
        parsed[seat] = parse_tiles(texts, f"{where}/{_escape(seat)}", set_tiles, set_name, rule)
    check_unique(((f"{where}/{_escape(s)}", parsed[s], list(hands[s])) for s in seats), rule)
    return parsed


def check_unique(groups: Iterable[tuple[str, list[Tile], list[str]]], rule: str = "the set") -> None:
    """No tile may appear twice in a deal (sets with duplicates use counts instead)."""
    seen: dict[Tile, str] = {}
    for where, tiles, texts in groups:
        for i, t in enumerate(tiles):
            if t in seen:
                raise DealError(f"{texts[i]} is dealt twice ({_holder(seen[t], seen[t] == where)}); the set has "
                                f"one of each tile", rule, f"{where}/{i}")
            seen[t] = where


def _holder(where: str, same: bool = False) -> str:
    """Who else was dealt a tile, in a player's words (``where``: the group's place in the
    record, ``/deal/hands/N``): "N has it too", "the boneyard has it too"; ``same``: the tile is
    twice in that very group, "N has it twice" (not "N has it too" of N's own second one)."""
    steps = [s.replace("~1", "/").replace("~0", "~") for s in where.split("/")]
    has = "has it twice" if same else "has it too"
    if len(steps) == 4 and steps[2] == "hands":
        return f"{steps[3]} {has}"
    if len(steps) == 4 and steps[2] == "piles":
        return f"{steps[3]}'s pile {has}"
    if len(steps) == 3 and steps[2] in ("boneyard", "row"):
        return f"the {steps[2]} {has}"
    return f"twice at {where}" if same else f"also at {where}"


def pass_round(first: str, count: int, after: Callable[[str], str]) -> list[Move]:
    """``count`` passes from ``first`` on, each by the seat ``after`` the one before: the closing
    passes a record may write after a block (the simulator writes them now and then)."""
    out: list[Move] = []
    seat = first
    for _ in range(count):
        out.append(Pass(seat=seat))
        seat = after(seat)
    return out


def closing_pass_out_of_turn(seat: str, due: str, rule: str) -> IllegalMove:
    """A closing pass of a blocked hand made by ``seat`` out of turn (``due``'s is next): the closing
    passes may be left out, but those written go in turn, so the seat is what is wrong."""
    return IllegalMove(f"{seat} passes out of turn: the hand is blocked, and its closing passes, which may be "
                       f"left out, go in turn ({due} next)", rule, "/seat")


def seat_after(seats: Sequence[str], seat: str, step: int = 1) -> str:
    """The seat ``step`` places clockwise (negative: counter-clockwise) from ``seat``."""
    return seats[(seats.index(seat) + step) % len(seats)]


def deal_dict(seats: Sequence[str], hands: Sequence[Sequence[Tile]]) -> dict[str, tuple[str, ...]]:
    return {seat: tuple(str(t) for t in h) for seat, h in zip(seats, hands)}


def winner_of(totals: dict[str, int]) -> str | None:
    """The side with the highest total, ``None`` when the top is shared."""
    best = max(totals.values())
    top = [side for side, n in totals.items() if n == best]
    return top[0] if len(top) == 1 else None


def copy_match(match: Match) -> Match:
    """A copy of a match between hands, to resume a replay from.

    A match holds the game's running totals and a few plain values; between hands no
    hand's state refers to it.  Its containers are copied one level (a match changes its
    totals in place, nothing deeper), which is what a deep copy gives here at a tenth of the
    cost: this runs once for every hand closed (the Game API) or read (the DGN reader)."""
    twin = copy.copy(match)
    for name, value in vars(twin).items():
        if type(value) in (dict, list, set):
            setattr(twin, name, value.copy())
    return twin


# --- copies of a game's state (the Game API's checkpoints) --------------------------------


def twin_of(obj: Any, memo: dict[int, Any], copied: Iterable[str] = ()) -> tuple[Any, dict[str, Any] | None]:
    """The start of an engine's written-out ``clone``: the copy of ``obj`` already in ``memo``
    (an object reached twice is copied once), else a new one that shares every attribute of
    ``obj`` but the containers named in ``copied``, copied (``.copy()``: the dicts, lists and
    sets a hand changes in place).  Returns the copy, and its ``__dict__`` when it is new (for
    the caller to copy what else is its own), else None.  Cheaper than :func:`clone_state`,
    which walks every attribute, where a state is copied at each choice (the DGN reader's
    positions, the Game API's checkpoints)."""
    twin = memo.get(id(obj))
    if twin is not None:
        return twin, None
    twin = memo[id(obj)] = object.__new__(type(obj))
    own = twin.__dict__
    own.update(obj.__dict__)
    for name in copied:
        own[name] = own[name].copy()
    return twin, own


def clone_state(obj: Any, memo: dict[int, Any]) -> Any:
    """A copy of an engine's object (a match, a hand state, a node of its layout) whose every
    container is its own, for an engine's ``clone``: what ``copy.deepcopy`` gives, at a
    fraction of its cost, because the values that never change (numbers, strings, tiles,
    moves and the other frozen values) are shared instead of copied one by one.

    ``memo`` maps the id of each object already copied to its copy, so an object reached twice
    (a hand state's match, the match itself) is copied once, as deep copies do."""
    twin = memo.get(id(obj))
    if twin is not None:
        return twin
    cls = type(obj)
    twin = cls.__new__(cls)
    memo[id(obj)] = twin
    own = getattr(obj, "__dict__", None)
    if own is not None:
        twin.__dict__.update({k: v if type(v) in _SHARED else clone_value(v, memo) for k, v in own.items()})
    for name in _slots(cls):
        try:
            v = getattr(obj, name)
        except AttributeError:
            continue
        object.__setattr__(twin, name, v if type(v) in _SHARED else clone_value(v, memo))
    return twin


def clone_value(value: Any, memo: dict[int, Any]) -> Any:
    """``value`` for a copy of an engine's state (see :func:`clone_state`): containers copied
    with what they hold, engine objects through their own ``clone``, frozen values shared."""
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind in _CONTAINERS:  # (one copy of a container held twice: a state may name one list two ways)
        twin = memo.get(id(value))
        if twin is None:
            # (a container of shared values only, the usual one, copied in one call: the kinds
            # are checked by the set's own loop)
            if kind is dict:
                twin = value.copy() if _SHARED.issuperset(map(type, value.values())) else {
                    k: v if type(v) in _SHARED else clone_value(v, memo) for k, v in value.items()}
            elif kind is list:
                twin = value.copy() if _SHARED.issuperset(map(type, value)) else [
                    v if type(v) in _SHARED else clone_value(v, memo) for v in value]
            else:
                twin = value.copy()  # (a set holds hashable values: tiles, seats, numbers)
            memo[id(value)] = twin
        return twin
    if kind is tuple:
        if _FLAT.get(id(value)) is value:
            return value
        items = [v if type(v) in _SHARED else clone_value(v, memo) for v in value]
        if all(a is b for a, b in zip(items, value)):
            if len(value) > 16:  # (a long table of numbers a state holds, as Horse Race's pegs: checked once)
                if len(_FLAT) >= 1024:
                    _FLAT.clear()
                _FLAT[id(value)] = value
            return value
        return tuple(items)
    if _shared_kind(kind):
        return value
    clone = getattr(value, "clone", None)
    if clone is not None and not isinstance(value, type):
        twin = memo.get(id(value))
        return twin if twin is not None else clone(memo)
    if kind is types.MethodType:  # (a method of an engine object: bound to its copy)
        return types.MethodType(value.__func__, clone_value(value.__self__, memo))
    return copy.deepcopy(value, memo)


_CONTAINERS = (dict, list, set)

#: id -> a long tuple found to hold only values a copy shares (kept, so its id stays its own).
_FLAT: dict[int, tuple] = {}

#: Kinds of value a copy of a state shares: they never change.
_SHARED: set[type] = {int, str, bool, float, type(None), bytes, frozenset, Tile, range, type,
                      types.FunctionType, types.BuiltinFunctionType}


def _shared_kind(kind: type) -> bool:
    """Whether values of ``kind`` are frozen (frozen attrs classes: moves, hands, records…),
    remembered in :data:`_SHARED` once known."""
    frozen = attrs.has(kind) and getattr(kind, "__setattr__", None) is getattr(Tile, "__setattr__", None)
    if frozen or issubclass(kind, enum.Enum):
        _SHARED.add(kind)
        return True
    return False


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    """Every ``__slots__`` name of ``cls`` and the classes it inherits from."""
    names = _SLOTS.get(cls)
    if names is None:
        found: list[str] = []
        for c in cls.__mro__:
            slots = c.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name not in ("__dict__", "__weakref__") and name not in found:
                    found.append(name)
        names = _SLOTS[cls] = tuple(found)
    return names


def key_with_leader(hand: Any) -> tuple:
    """A ``position_key`` for a hand state that keeps its match (Castle Rock's and Domino Roads',
    which take this function as their method): what decides the rest of the hand, as a value, so
    that two states with equal keys accept the same moves from here on with the same points and
    the same end (:mod:`domrec.notation.readings` reads a hand's equal positions once).  It is the
    whole state (:func:`state_key`, without the hand's ``position_skip``) and who led as the match
    keeps it for the next hand, the one thing of the match a hand without its deal changes."""
    match = getattr(hand, "match", None)
    return (state_key(hand, hand.position_skip, (match,)), getattr(match, "last_leader", None))


def state_key(obj: Any, skip: frozenset[str] = frozenset(), stop: tuple[Any, ...] = (),
              memo: dict[int, int] | None = None) -> tuple:
    """An engine object's state as a hashable value, for a hand state's ``position_key``: two
    objects of one class whose keys are equal hold equal state, so a replay goes on alike from
    either.  Every attribute counts but those named in ``skip`` (what no rule reads from here on:
    how the layout came to be as it is, a cache) and the objects in ``stop`` (the match: reached
    from inside, it stands for itself; what of it a hand changes, the hand's key names).
    Containers become tuples (a dict's items in their order, as a replay walks them in that
    order), sets frozensets, engine objects of the state's own (a road, an unseen hand) their own
    key with their class's ``position_skip``, an object reached a second time (the state itself,
    a road joined to another) its place in the walk; numbers, strings, tiles and frozen values are
    themselves."""
    if memo is None:
        memo = {id(held): k for k, held in enumerate((obj, *stop))}
    out: list[Any] = []
    own = getattr(obj, "__dict__", None)
    for name in (*(own or ()), *_slots(type(obj))):
        if name in skip:
            continue
        try:
            value = getattr(obj, name)
        except AttributeError:
            continue
        out.append(value if type(value) in _SHARED else _key_value(value, memo))
    return tuple(out)


def _key_value(value: Any, memo: dict[int, int]) -> Any:
    """``value`` as part of a state's key (see :func:`state_key`)."""
    kind = type(value)
    if kind in _SHARED:
        return value
    # (a container of shared values only, the usual one, made a tuple in one call)
    if kind is dict:
        if _SHARED.issuperset(map(type, value.values())):
            return tuple(value.items())
        return tuple((k, v if type(v) in _SHARED else _key_value(v, memo)) for k, v in value.items())
    if kind is list or kind is tuple:
        if _SHARED.issuperset(map(type, value)):
            return tuple(value)
        return tuple(v if type(v) in _SHARED else _key_value(v, memo) for v in value)
    if kind is set:
        return frozenset(value)
    if kind is bytearray:
        return bytes(value)
    if _shared_kind(kind):
        return value
    met = memo.get(id(value))
    if met is not None:
        return _MET, met
    if kind is types.MethodType:  # (a method of the state or its objects: its function says what it does)
        return value.__func__, _key_value(value.__self__, memo)
    if getattr(value, "clone", None) is not None:  # an engine object of the state's own
        memo[id(value)] = len(memo)
        return kind, state_key(value, getattr(kind, "position_skip", frozenset()), (), memo)
    raise TypeError(f"no position key for a {kind.__name__} in an engine's state")


#: Where a state's key meets an object met before in its walk (see :func:`state_key`).
_MET = "met"
