"""Seeded random games played through the engines.

The simulator has no rules of its own: it asks the engine for the legal moves,
lets a player pick one, and applies it, exactly as validation replays a record.
So every simulated game is legal by construction *if* the engine is right,
and the property tests turn that around: a simulated game that fails
validation is a bug in the engine.  Every claim (move scores where the game
scores moves, hand results, the game result) is filled in.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterator

import attrs

from domrec import games
from domrec.errors import SetupError
from domrec.games.base import effective_options
from domrec.games.base import HandState
from domrec.record import GameResult, Hand, HandResult, Move, Player, Record, Rules, unstructure

#: Hands after which a simulated game is abandoned (no real game comes near).
MAX_HANDS = 500

Chooser = Callable[[HandState, list[Move], random.Random], Move]


def uniform(state: HandState, legal: list[Move], rng: random.Random) -> Move:
    return legal[rng.randrange(len(legal))]


def make_record(game: str, players: int | None = None, options: dict[str, Any] | None = None,
                variant: str | None = None) -> Record:
    """An empty record (no hands) for ``game`` with default seats and names."""
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


def play_game(template: Record, rng: random.Random, choose: Chooser | None = None) -> Record:
    """Play one complete game for the players and rules of ``template``."""
    engine = games.engine(template.game)
    choose = choose or getattr(engine, "choose", uniform)
    match = engine.start(template)
    hands: list[Hand] = []
    scores_moves = engine.scores_moves
    while not match.over:
        if len(hands) >= MAX_HANDS:
            raise RuntimeError(f"simulated {template.game} game did not end in {MAX_HANDS} hands")
        hand = match.random_hand(rng)
        state = match.start_hand(hand)
        drive = getattr(state, "drive", None)
        if drive is not None:  # an engine that plays differently when driven (Castle Rock's closing captures)
            drive()
        moves: list[Move] = []
        while not state.over:
            move = choose(state, state.legal_moves(), rng)
            points = state.apply(move)
            if scores_moves:
                move = attrs.evolve(move, score=points)
            moves.append(move)
        outcome = match.finish_hand(state)
        hands.append(attrs.evolve(hand, moves=tuple(moves),
                                  result=HandResult(scores=dict(outcome.scores), end=outcome.end)))
    return attrs.evolve(template, hands=tuple(hands),
                        result=GameResult(scores=dict(match.totals), winner=match.winner))


def simulate(game: str, count: int, seed: int, players: int | None = None,
             options: dict[str, Any] | None = None, variant: str | None = None) -> Iterator[Record]:
    """``count`` games; game *k* depends only on ``seed`` and *k*, so runs are reproducible."""
    template = make_record(game, players, options, variant)
    for k in range(count):
        rng = random.Random(f"domrec:{game}:{seed}:{k}")
        yield play_game(template, rng)


def dumps(record: Record) -> str:
    """One record as a single line of JSON (the JSON Lines archive form)."""
    return json.dumps(unstructure(record), separators=(",", ":"), ensure_ascii=False)


def marked(record: Record) -> Record:
    """``record`` with ``"generator": "domrec simulate"`` in its (free) ``event``: how a later
    ``domrec simulate -o`` knows the file it would replace holds simulated games, not somebody's
    (see :mod:`domrec.output`)."""
    from domrec.output import SIMULATED_MARK

    return attrs.evolve(record, event={**(record.event or {}), **SIMULATED_MARK})
