"""A tile dealt twice is said under the game's own deal rule, by the validation and by the
recorder alike, and a seat given a tile twice is said to have it twice.

A tester found the same slip filed under three rules: ``[competitive: the deal]`` in Competitive,
``[the set]`` in Horse Race and Castle Rock (the rule of tiles laid or drawn, docs/rules/README.md),
and ``[the deal]`` in the recorder, whose docs promise "the words a validation gives".  And a seat
listing a tile twice read "1-1 is dealt twice (P2 has it too)", naming that very seat."""

from __future__ import annotations

import contextlib
import io

import attrs
import pytest

from domrec import notation, record_cli
from domrec.validate import validate

from tests.conftest import first_of_each_game
from tests.test_every_way_typed import simulated

RULE = {"competitive": "competitive: the deal", "horse-race": "horse-race: the deal",
        "broadway": "broadway: game (the deal)", "castle-rock": "castle-rock: the deal"}


def _dealing(config) -> bool:
    return config[0] in RULE


def _with_deal(record, seat_of: int, twice_from: int):
    """``record`` whose first hand deals the first seat's first tile also to seat ``twice_from``
    (the same seat: that seat lists it twice), in place of that seat's last tile."""
    hand = record.hands[0]
    seats = list(hand.deal.hands)
    tile = hand.deal.hands[seats[seat_of]][0]
    other = seats[twice_from]
    tiles = list(hand.deal.hands[other])
    tiles[-1] = tile
    deal = attrs.evolve(hand.deal, hands={**hand.deal.hands, other: tuple(tiles)})
    return attrs.evolve(record, hands=(attrs.evolve(hand, deal=deal),) + record.hands[1:]), tile, seats[seat_of]


@pytest.mark.parametrize("config", [c for c in first_of_each_game() if _dealing(c.values[0])])
@pytest.mark.parametrize("same", [False, True], ids=["another-seat", "the-same-seat"])
def test_a_tile_dealt_twice_is_the_games_deal_rule(config, same):
    record, tile, holder = _with_deal(simulated(config, 4), 0, 0 if same else 1)
    report = validate(record)
    problem = report.problems[0]
    assert problem.rule == RULE[config[0]], problem.text()
    has = "has it twice" if same else "has it too"
    assert f"{tile} is dealt twice ({holder} {has}); the set has one of each tile" in problem.text()


def _typed_twice(record, key: str) -> tuple[str, str]:
    """``record`` typed with its deal, the line starting ``key`` (``deal N``, ``boneyard``) of hand
    1 listing its first tile again in place of its last; and that tile."""
    lines = notation.dumps_typed(record, keep_deal=True).split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith(key + " "))
    words = lines[k].split(" ")
    first = len(key.split(" "))
    words[-1] = words[first]
    lines[k] = " ".join(words)
    return "\n".join(lines), words[first]


@pytest.mark.parametrize("config", [c for c in first_of_each_game() if _dealing(c.values[0])])
def test_the_recorder_names_the_rule_the_validation_names(config, tmp_path):
    """The same typed game, a seat's deal line listing a tile twice, piped to ``domrec record`` and
    validated: one rule, one wording."""
    record = simulated(config, 4)
    seat = record.seats[0]
    text, tile = _typed_twice(record, f"deal {seat}")
    (game,) = notation.read_games(text, "typed.dgn")
    by_validate = game.report.problems[0]
    assert by_validate.rule == RULE[config[0]], by_validate.text()
    assert f"{tile} is dealt twice ({seat} has it twice)" in by_validate.text()
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = record_cli.run(config[0], str(tmp_path / "x.dgn"), [], None, [], None, stdin=io.StringIO(text),
                              interactive=False)
    assert code == 1
    said = err.getvalue().splitlines()[0]
    assert said.endswith(f"[{RULE[config[0]]}]"), said
    assert f"{tile} is dealt twice ({seat} has it twice)" in said, said


def test_a_horse_race_boneyard_listing_a_tile_twice_is_the_deals_rule():
    config = next(c.values[0] for c in first_of_each_game() if c.values[0][0] == "horse-race")
    text, tile = _typed_twice(simulated(config, 4), "boneyard")
    (game,) = notation.read_games(text, "typed.dgn")
    problem = game.report.problems[0]
    assert problem.rule == RULE["horse-race"], problem.text()
    assert f"{tile} is dealt twice (the boneyard has it twice)" in problem.text(), problem.text()
