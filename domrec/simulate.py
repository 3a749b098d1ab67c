"""Seeded random games played through the engines.

The simulator has no rules of its own: it asks the engine for the legal moves,
lets a player pick one, and applies it, exactly as validation replays a record.
So every simulated game is legal by construction *if* the engine is right,
and the property tests turn that around: a simulated game that fails
validation is a bug in the engine.  Every claim (move scores where the game
scores moves, hand results, the game result) is filled in.

**Accidents.**  Some paths of the rules are never a player's choice, so a
simulated player would never take them: a Broadway tile shown out of turn
(playable, then the opponents' penalty play; or unplayable, left face up),
the closing passes of a blocked hand written out although they may be left
out, a table seated other than the simulator's default labels (Horse Race
played alone at N E S W), a hand's draws written another way (``"draw":
true``, the tile named, or the boneyard's order left out of the deal).  Real records have them, so the simulator makes
them now and then, at the rates of :data:`RATES` per chance, through hooks
the engines offer (see ``games/base.py``).  The accidents draw from a random
stream of their own: without them (``accidents=False``, ``domrec simulate
--no-accidents``; the benchmarks use it) every game is byte for byte what it
was before accidents existed, and with them a game is the same up to its
first accident.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterator

import attrs

from domrec import games
from domrec.errors import DomrecError, EndlessGame, SetupError, UnknownGameError, one_line
from domrec.games.base import effective_options
from domrec.games.base import HandState
from domrec.record import Draw, GameResult, Hand, HandResult, Move, Player, Record, Rules, unstructure
from domrec.shape import unknown_game

#: Hands after which a simulated game is abandoned (no real game comes near).
MAX_HANDS = 500

#: How often each accident happens, per chance: a game's seating (per game), a tile shown
#: out of turn (per move), the closing passes written out (per blocked hand), the draws
#: written another way than the engine lists them (per hand with draws).
RATES = {"seating": 0.05, "exposure": 0.02, "closing passes": 0.25, "draws": 0.05}

Chooser = Callable[[HandState, list[Move], random.Random], Move]


def uniform(state: HandState, legal: list[Move], rng: random.Random) -> Move:
    return legal[rng.randrange(len(legal))]


def make_record(game: str, players: int | None = None, options: dict[str, Any] | None = None,
                variant: str | None = None) -> Record:
    """An empty record (no hands) for ``game`` with default seats and names.

    ``game`` is a name typed on a command line, not a record's field: a slip in it is said
    without a JSON Pointer, with the game it is likely a slip for."""
    if game not in games.MODULES:
        raise UnknownGameError(unknown_game(game))
    engine = games.engine(game)
    opts = effective_options(engine, variant, options)
    allowed = engine.player_counts(opts)
    count = allowed[-1] if players is None else players
    if count not in allowed:
        # Let the engine say it, with its own rule name; a generic refusal if it does not.
        engine.start(Record(game=game, rules=Rules(variant=variant, options=dict(options) if options else None),
                            players=tuple(Player(seat=f"P{i + 1}", name=f"P{i + 1}") for i in range(count))))
        raise SetupError(f"{game} is played by {', '.join(map(str, allowed))} players, not {count}",
                         f"{game}: players", "/players")
    seats = engine.seats_for(count, opts)
    names = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")
    rules = Rules(variant=variant, options=dict(options) if options else None) if (options or variant) else None
    return Record(game=game, rules=rules,
                  players=tuple(Player(seat=s, name=names[i % len(names)]) for i, s in enumerate(seats)))


#: A template's field and the command-line option that set it (:func:`as_typed`).
_TYPED_AS = (("/players", "--players"), ("/rules/variant", "--variant"), ("/rules/options/", "--option "))


def as_typed(e: DomrecError) -> str | None:
    """A refusal of :func:`make_record`'s template said at the option that was typed
    (``--players: …``, ``--option bogus: …``), not at a JSON Pointer into a record nobody gave;
    ``None`` where the refusal is not about one of them."""
    pointer = getattr(e, "pointer", "") or ""
    for field, option in _TYPED_AS:
        if pointer == field or (field.endswith("/") and pointer.startswith(field)):
            rule = getattr(e, "rule", "")
            said = f"{option}{pointer[len(field):] if field.endswith('/') else ''}: {getattr(e, 'message', e)}"
            return one_line(f"{said} [{rule}]" if rule else said)
    return None


def play_game(template: Record, rng: random.Random, choose: Chooser | None = None,
              accidents: random.Random | None = None) -> Record:
    """Play one complete game for the players and rules of ``template``.

    ``accidents``, a random stream of its own, lets accidents happen during play
    (see the module's docstring); ``None``, no accidents.
    """
    engine = games.engine(template.game)
    choose = choose or getattr(engine, "choose", uniform)
    match = engine.start(template)
    hands: list[Hand] = []
    scores_moves = engine.scores_moves
    exposure_rate, closing_rate = RATES["exposure"], RATES["closing passes"]
    while not match.over:
        if len(hands) >= MAX_HANDS:
            totals = ", ".join(f"{side} {score}" for side, score in match.totals.items())
            raise EndlessGame(f"a simulated {template.game} game did not end in {MAX_HANDS} hands (totals then: "
                              f"{totals}); domrec simulate stops there: choose a lower target")
        hand = match.random_hand(rng)
        state = match.start_hand(hand)
        drive = getattr(state, "drive", None)
        if drive is not None:  # an engine that plays differently when driven (Castle Rock's closing captures)
            drive()
        accident = getattr(state, "accident", None) if accidents is not None else None
        moves: list[Move] = []
        while not state.over:
            if accident is not None and accidents.random() < exposure_rate:  # type: ignore[union-attr]
                slip = accident(accidents)
                if slip is not None:
                    moves.append(_applied(state, slip, scores_moves))
                    continue
            move = choose(state, state.legal_moves(), rng)
            moves.append(_applied(state, move, scores_moves))
        closing = getattr(state, "closing_passes", None) if accidents is not None else None
        if closing is not None:
            passes = closing()
            if passes and accidents.random() < closing_rate:  # type: ignore[union-attr]
                moves.extend(_applied(state, m, scores_moves) for m in passes)
        outcome = match.finish_hand(state)
        played = attrs.evolve(hand, moves=tuple(moves),
                              result=HandResult(scores=dict(outcome.scores), end=outcome.end))
        if accidents is not None and accidents.random() < RATES["draws"]:
            played = draws_rewritten(played, accidents)
        hands.append(played)
    return attrs.evolve(template, hands=tuple(hands),
                        result=GameResult(scores=dict(match.totals), winner=match.winner))


def _applied(state: HandState, move: Move, scores_moves: bool) -> Move:
    """Apply ``move`` through the engine (which checks it) and return it with its points claimed."""
    points = state.apply(move)
    return attrs.evolve(move, score=points) if scores_moves else move


def draws_rewritten(hand: Hand, rng: random.Random) -> Hand:
    """The same hand with its draws written in another of the format's three ways.

    With the boneyard's order in the deal a draw may be ``"draw": true`` or name its tile
    (which must be the next one); without the order every draw names its tile, which
    must be one nobody has seen.  Engines list one way (Horse Race names, Castle Rock
    says ``true``), so records written the other ways come from here: the game is the
    same, only the writing differs, and validation must agree.
    """
    deal = hand.deal
    if deal is None or not deal.boneyard or not any(type(m) is Draw for m in hand.moves):
        return hand
    current = "true" if all(m.draw is True for m in hand.moves if type(m) is Draw) else "named"
    form = rng.choice([f for f in ("true", "named", "no order") if f != current])
    order = iter(deal.boneyard)
    moves = []
    for m in hand.moves:
        if type(m) is Draw:
            tile = next(order)
            m = attrs.evolve(m, draw=True if form == "true" else tile)
        moves.append(m)
    if form == "no order":
        deal = attrs.evolve(deal, boneyard=None)
    return attrs.evolve(hand, deal=deal, moves=tuple(moves))


def seated(template: Record, rng: random.Random) -> Record:
    """``template``, or now and then (an accident) the same players at other seats the rules allow."""
    engine = games.engine(template.game)
    seatings = getattr(engine, "seatings", None)
    if seatings is None or rng.random() >= RATES["seating"]:
        return template
    others = seatings(len(template.players), effective_options(engine, template.variant, template.options))
    if not others:
        return template
    seats = others[rng.randrange(len(others))]
    return attrs.evolve(template, players=tuple(attrs.evolve(p, seat=s) for p, s in zip(template.players, seats)))


def simulate(game: str, count: int, seed: int, players: int | None = None,
             options: dict[str, Any] | None = None, variant: str | None = None,
             accidents: bool = True) -> Iterator[Record]:
    """``count`` games; game *k* depends only on ``seed`` and *k*, so runs are reproducible.

    ``accidents=False`` turns the accidents off (benchmarks: figures comparable run to run).
    """
    template = make_record(game, players, options, variant)
    for k in range(count):
        rng = random.Random(f"domrec:{game}:{seed}:{k}")
        if not accidents:
            yield play_game(template, rng)
            continue
        slips = random.Random(f"domrec:{game}:{seed}:{k}:accidents")
        yield play_game(seated(template, slips), rng, accidents=slips)


def dumps(record: Record) -> str:
    """One record as a single line of JSON (the JSON Lines archive form)."""
    return json.dumps(unstructure(record), separators=(",", ":"), ensure_ascii=False)


def marked(record: Record) -> Record:
    """``record`` with ``"generator": "domrec simulate"`` in its (free) ``event``: how a later
    ``domrec simulate -o`` knows the file it would replace holds simulated games, not somebody's
    (see :mod:`domrec.output`)."""
    from domrec.output import SIMULATED_MARK

    return attrs.evolve(record, event={**(record.event or {}), **SIMULATED_MARK})
