"""The simulator's accidents: paths of the rules no simulated player would choose.

Every kind of accident (README, "Simulated games") happens within a fixed run
of seeded games, deterministically; each game that has one validates and survives the
DGN and JSON round trips of tests/test_notation_properties.py, so the property tests over
simulated games cover these paths.  ``accidents=False`` (``--no-accidents``) has none.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from domrec import games, simulate as sim
from domrec.cli import app
from domrec.record import Exposed, Pass, Record
from domrec.validate import validate, validate_text

from tests.test_notation_properties import assert_round_trips, assert_typed_form_reads_back


def playable_exposure(record: Record) -> bool:
    return any(type(m) is Exposed and not m.unplayable for h in record.hands for m in h.moves)


def unplayable_exposure(record: Record) -> bool:
    return any(type(m) is Exposed and m.unplayable for h in record.hands for m in h.moves)


def closing_passes(record: Record) -> bool:
    """A pass written after the hand was already over (blocked): replayed through the engine."""
    match = games.engine(record.game).start(record)
    found = False
    for hand in record.hands:
        state = match.start_hand(hand)
        for move in hand.moves:
            if state.over:
                assert type(move) is Pass and hand.result.end == "blocked"
                found = True
            state.apply(move)
        match.finish_hand(state)
    return found


def compass_seats(record: Record) -> bool:
    seats = tuple(p.seat for p in record.players)
    return seats == ("N", "E", "S", "W")[:len(seats)] or seats == ("N", "S")


def alone_at_compass(record: Record) -> bool:
    """Four players each on their own, seated N E S W (not partnerships)."""
    return (tuple(p.seat for p in record.players) == ("N", "E", "S", "W")
            and not record.options.get("partnerships"))


#: kind -> ((game, players, options, variant), the test, seed, how many games of that seed).
#: Broadway blocks are rare (one game in fifteen), so its closing passes are looked for in a
#: game known to have them; every other kind shows up within the first games of seed 0.
ACCIDENTS = {
    "broadway exposure, playable": (("broadway", None, None, None), playable_exposure, 0, 3),
    "broadway exposure, unplayable": (("broadway", None, None, None), unplayable_exposure, 0, 3),
    "broadway closing passes": (("broadway", None, None, None), closing_passes, 28, 1),
    "competitive closing passes": (("competitive", None, None, None), closing_passes, 0, 10),
    "horse-race closing passes": (("horse-race", 2, None, None), closing_passes, 0, 30),
    "horse-race four alone at N E S W": (("horse-race", 4, None, None), alone_at_compass, 0, 60),
    "horse-race two alone at N S": (("horse-race", 2, None, None), compass_seats, 0, 60),
    "horse-race celko three at N E S": (("horse-race", 3, None, "celko"), compass_seats, 0, 60),
    "castle-rock four at N E S W": (("castle-rock", 4, None, None), compass_seats, 0, 60),
    "domino-roads three at N E S": (("domino-roads", 3, None, None), compass_seats, 0, 60),
}


def games_of(config, seed: int, n: int, accidents: bool = True) -> list[Record]:
    game, players, options, variant = config
    return list(sim.simulate(game, n, seed, players, options, variant, accidents=accidents))


@pytest.mark.parametrize("kind", ACCIDENTS)
def test_each_accident_happens_and_its_game_validates_and_round_trips(kind):
    config, happened, seed, n = ACCIDENTS[kind]
    found = [r for r in games_of(config, seed, n) if happened(r)]
    assert found, f"no {kind} in {n} simulated games"
    record = found[0]
    report = validate(record)
    assert report.valid and report.finished, [p.text() for p in report.problems]
    assert validate_text(sim.dumps(record)).valid
    assert_round_trips(record)
    assert_typed_form_reads_back(record)


@pytest.mark.parametrize("kind", ACCIDENTS)
def test_no_accidents_means_none(kind):
    config, happened, seed, n = ACCIDENTS[kind]
    assert not any(happened(r) for r in games_of(config, seed, n, accidents=False))


def test_accidents_are_deterministic_by_seed():
    a = [sim.dumps(r) for r in sim.simulate("broadway", 2, 5)]
    assert a == [sim.dumps(r) for r in sim.simulate("broadway", 2, 5)]
    assert a != [sim.dumps(r) for r in sim.simulate("broadway", 2, 5, accidents=False)]


def test_without_accidents_the_games_are_those_of_the_plain_random_stream():
    """--no-accidents keeps the games (and so the benchmark figures) of before accidents existed."""
    import random
    template = sim.make_record("horse-race", 4)
    plain = [sim.play_game(template, random.Random(f"domrec:horse-race:3:{k}")) for k in range(3)]
    assert list(sim.simulate("horse-race", 3, 3, 4, accidents=False)) == plain


def test_an_exposure_is_both_kinds_and_the_penalty_play_follows_a_playable_one():
    for record in games_of(("broadway", None, None, None), 0, 3):
        for hand in record.hands:
            for j, move in enumerate(hand.moves):
                if type(move) is Exposed and not move.unplayable:
                    after = hand.moves[j + 1]
                    assert after.penalty and after.play is not None and after.seat != move.seat


def test_the_command_line_switch(tmp_path):
    runner = CliRunner()
    with_, without = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert runner.invoke(app, ["simulate", "broadway", "-n", "2", "--seed", "0", "-o", str(with_)]).exit_code == 0
    r = runner.invoke(app, ["simulate", "broadway", "-n", "2", "--seed", "0", "--no-accidents", "-o", str(without)])
    assert r.exit_code == 0
    def exposures(path):
        return sum(1 for line in path.read_text().splitlines() for h in json.loads(line)["hands"]
                   for m in h["moves"] if "exposed" in m)
    assert exposures(with_) > 0 and exposures(without) == 0
    assert runner.invoke(app, ["validate", str(with_)]).exit_code == 0
    help_text = runner.invoke(app, ["simulate", "--help"]).stdout
    assert "--no-accidents" in help_text
