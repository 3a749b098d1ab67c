"""A typed game that left out its ``hand 1`` line is told so once, at its first move, in all five
games: every word of its moves was one problem ("expected a tag or the first hand (hand 1), not
'5-2'", then '6-5', then '4-2' … 27 problems for one line forgotten)."""

from __future__ import annotations

import pytest

from domrec import notation

from tests.conftest import first_of_each_game
from tests.test_every_way_typed import simulated


@pytest.mark.parametrize("config", first_of_each_game())
def test_moves_before_any_hand_line_are_said_once(config):
    lines = notation.dumps_typed(simulated(config, 4), keep_deal=False).split("\n")
    first = next(k for k, line in enumerate(lines) if line.startswith("hand 1"))
    text = "\n".join(lines[:first] + lines[first + 1:])
    (game,) = notation.read_games(text, "typed.dgn")
    assert game.report.status == "unusable"
    problems = game.report.problems
    said = [p.message for p in problems]
    # (moves before a hand line: said once, at the first of them; a part line there, such as a
    # Castle Rock row or a Domino Roads pile, is said once too, at its line)
    assert len([m for m in said if m.startswith("expected a tag or the first hand (hand 1), not ")]) <= 1, said
    assert (problems[0].line, problems[0].column) == (first + 1, 1), said
    assert "(hand 1)" in said[0], said
    before_hand_2 = next((k for k, line in enumerate(lines) if line.startswith("hand 2")), len(lines)) - 1
    assert len([p for p in problems if p.line <= before_hand_2]) <= len({p.line for p in problems
                                                                         if p.line <= before_hand_2}), said
