"""Two-player Celko Horse Race under ``chain_draw: false``, typed without its seats (and without
its ends) and without its deal: the corner where the reader works out whose each tile is.

After a double or a scoring tile the chain's player goes on if able, and if not the turn simply
ends, unwritten; without the deal nobody knows which, so a tile typed after it may be either
player's, and only the rest of the hand (its ``left`` line above all: how many tiles each player
still held) says which (docs/notation.md, "Ends and seats worked out").  Issue 34 reported one
such game that ``domrec validate`` refused ("left P1 lists 1 tile, but by the moves P1 still
holds 2") although the game as played is one of its readings.  It could not be reproduced; this
search keeps looking for it, on purpose where it hides:

* players who chase chains (doubles and scoring tiles first), who avoid them (long hands with
  many draws, forced passes and blocks), the engine's own mostly greedy player, and a uniform one;
* both ``win_check`` options, the simulator's accidents (closing passes written, draws written
  another way, the N/S seating) on or off;
* each game typed four ways: without seats, with and without ends, with and without the hands'
  claimed scores on their ``end`` lines (a claim lets every reading be tried to its end instead
  of stopping at the first two that give different scores).

Whatever ``validate`` reads must be the game as played (its scores); it may refuse only where
the text is not enough (two readings, two scores: "write its seat"; more readings than it tries).
Under ``pytest --long`` the search is larger, and ``domrec record`` from a pipe and a venue
table's session must take what ``validate`` reads, with its scores (and refuse, in one line, what
it refuses).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings, target
from hypothesis import strategies as st

from domrec import notation
from domrec import simulate as sim
from domrec import tiles as T
from domrec.game import Game
from domrec.games.horserace import pegs
from domrec.record import Deal, Draw, Pass, Play, Record
from domrec.validate import validate

from tests.test_every_way_typed import by_pipe, by_session, fast_dir  # noqa: F401 (a fixture)

#: The refusals allowed: the text is not enough (docs/notation.md), and every reader says so.
NOT_ENOUGH = ("the readings give this hand different scores", "readings of hand")


def _preferring(score):
    """A simulated player that plays the legal tile ``score`` likes best (ties and a fifth of its
    turns at random), drawing and passing when it must, as the engine lists its moves."""

    def choose(state, legal, rng):
        plays = [m for m in legal if type(m) is Play]
        if not plays or rng.random() < 0.2:
            return legal[rng.randrange(len(legal))]
        marks = [score(state, m) for m in plays]
        best = max(marks)
        pick = [m for m, k in zip(plays, marks) if k == best]
        return pick[rng.randrange(len(pick))]

    return choose


def _chain_value(state, move) -> int:
    """2 for a double, 1 for a tile that pegs: what starts a chain."""
    t = T.tile(move.play)
    on = T.tile(move.on) if move.on is not None else None
    return 2 * (t.high == t.low) + (pegs(state.count_if(t, on), True) > 0)


#: The simulated players: the engine's own (mostly greedy), uniform, chasing chains, avoiding them.
CHOOSERS = {
    "greedy": None,
    "uniform": sim.uniform,
    "chains": _preferring(_chain_value),
    "no chains": _preferring(lambda state, move: -_chain_value(state, move)),
}


def played(seed: int, chooser: str, win_check: str, accidents: bool) -> Record:
    """One complete game of two-player Celko under ``chain_draw: false``."""
    options = {"chain_draw": False, "win_check": win_check}
    template = sim.make_record("horse-race", 2, options, "celko")
    rng = random.Random(f"seatless:{seed}:{chooser}")
    slips = random.Random(f"seatless:{seed}:{chooser}:accidents") if accidents else None
    if slips is not None:
        template = sim.seated(template, slips)
    return sim.play_game(template, rng, choose=CHOOSERS[chooser], accidents=slips)


def claimed(record: Record, text: str) -> str:
    """``text`` with each hand's bare ``end`` line replaced by the one claiming its scores."""
    ends = iter(line for line in notation.dumps(record).splitlines() if line.startswith("end"))
    return "\n".join(next(ends) if line == "end" else line for line in text.splitlines()) + "\n"


def forms(record: Record, costly: bool = True) -> dict[str, str]:
    """The game typed without seats and without the deal: with and without ends and claims
    (``costly``: also without ends and with claims, where every reading of a hand is tried to
    its end: a long hand of the chain-avoiding player takes a minute)."""
    out = {}
    for ends in (True, False):
        text = notation.dumps_typed(record, keep_deal=False, seats=False, ends=ends)
        out[f"ends={ends}"] = text
        if ends or costly:
            out[f"ends={ends} claims"] = claimed(record, text)
    return out


def corners(record: Record) -> Counter:
    """What the game holds of the corner: moves typed without a seat that either player may
    have made (a tile, and those where it is not the player to move's: the chain ended
    unwritten), draws, a tile set right after a draw, passes, blocked hands.  Counted on an
    open Game, as the writer of the typed form sees it."""
    seen: Counter = Counter()
    g = Game(record.game, record.players, variant=record.variant, options=record.options or None)
    for hand in record.hands:
        g.start_hand(Deal(hands={}, boneyard=hand.deal.boneyard), hand.leader)
        before = None
        for move in hand.moves:
            who = g.movers()
            if len(who) > 1 and type(move) is Play:
                seen["a tile either may have set"] += 1
                seen["the chain ended unwritten"] += move.seat != who[0]
            seen["draws"] += type(move) is Draw
            seen["a tile set after a draw"] += type(move) is Play and type(before) is Draw
            seen["passes"] += type(move) is Pass
            g.push(move)
            before = move
        outcome = g.end_hand({s: [str(t) for t in ts] for s, ts in _held(record, hand).items()})
        seen[f"hands ended {outcome.end}"] += 1
    return seen


def _held(record: Record, hand) -> dict:
    state = Game(record.game, record.players, variant=record.variant, options=record.options or None)
    state.start_hand(hand.deal, hand.leader)
    for move in hand.moves:
        state.push(move)
    return state.state.holdings()


def read(text: str) -> dict | str:
    """The scores ``validate`` reads, or its first problem."""
    (game,) = notation.read_games(text, "seatless.dgn")
    if game.complete and game.report.status == "valid":
        return game.report.scores
    return game.report.problems[0].text() if game.report.problems else "incomplete"


def check(record: Record, tmp: Path | None = None, costly: bool = True) -> None:
    truth = validate(record).scores
    for name, text in forms(record, costly).items():
        got = read(text)
        if isinstance(got, str):
            assert any(words in got for words in NOT_ENOUGH), (name, got)
            assert "claims" not in name or "different scores" not in got, (name, got)
        else:
            assert got == truth, name
        if tmp is not None and name == "ends=True":  # what a table types: record and venue agree
            piped = by_pipe(text, tmp)
            line_by_line = by_session(attrs.evolve(record), text, whole=False)
            if isinstance(got, str):
                assert isinstance(piped, str) and piped.startswith("exit 1: "), piped
                assert isinstance(line_by_line, str) and "Traceback" not in line_by_line, line_by_line
            else:
                assert piped == truth and line_by_line == truth, (piped, line_by_line)


SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
GAMES = st.tuples(st.integers(min_value=0, max_value=10**6), st.sampled_from(sorted(CHOOSERS)),
                  st.sampled_from(["immediate", "end_of_hand"]), st.booleans())


def _search(game_args, tmp: Path | None, hands: int | None = None, costly: bool = True) -> None:
    record = played(*game_args)
    if hands is not None and len(record.hands) > hands:  # (its first hands: a game under way)
        record = attrs.evolve(record, hands=record.hands[:hands], result=None)
    seen = corners(record)
    for what, n in seen.items():
        if n:
            event(what)
    target(float(seen["the chain ended unwritten"]), label="chains ended unwritten")
    check(record, tmp, costly)


@settings(max_examples=5, **SETTINGS)
@given(game=GAMES)
def test_seatless_celko_without_chain_draws_is_read_as_played(game):
    """The default run: a few games, each cut to its first eight hands, typed three ways."""
    _search(game, None, hands=8, costly=False)


@pytest.mark.long
@settings(max_examples=300, **SETTINGS)
@given(game=GAMES)
def test_seatless_celko_without_chain_draws_many_games(game, fast_dir):
    """Under --long: whole games typed four ways, and the pipe and a venue table beside validate."""
    _search(game, fast_dir)


def test_the_corner_is_reached():
    """The players above do make the corner: tiles either player may have set (and the chain
    ended unwritten), draws and a tile set right after one, and, from the chain-avoiding
    player, forced passes and blocked hands."""
    total: Counter = Counter()
    for chooser in ("chains", "no chains"):
        for seed in range(3):
            total += corners(played(seed, chooser, "immediate", True))
    for what in ("a tile either may have set", "the chain ended unwritten", "draws", "a tile set after a draw",
                 "passes", "hands ended blocked", "hands ended out"):
        assert total[what] > 0, (what, total)
