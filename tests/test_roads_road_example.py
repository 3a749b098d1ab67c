"""``domrec validate``'s example road, for a Domino Roads tile typed without its road, is a road of
the table's kind: ``P1-1`` at a table of three (where no road is called ``NS1``, the partners'
game's road it named), ``NS1`` with partners; the recorder names the mover's own road."""

from __future__ import annotations

import re

import pytest

from domrec import notation, phrases

from tests.simulated import simulate


def _without_road(players: int) -> tuple[str, str]:
    """A simulated game whose first road move is typed without its road; that tile."""
    record = next(simulate("domino-roads", 1, 2, players))
    text = notation.dumps_typed(record, keep_deal=True)
    m = re.search(r" (\d-\d)@([A-Z0-9]+-?\d*)(?= )", text)
    assert m is not None
    return text[:m.start()] + f" {m.group(1)}" + text[m.end():], m.group(1)


@pytest.mark.parametrize("players, road", [(3, "P1-1"), (4, "NS1")])
def test_the_example_road_is_one_of_the_tables_kind(players, road):
    text, tile = _without_road(players)
    (game,) = notation.read_games(text, "roads.dgn")
    said = game.report.problems[0].message
    assert said == f"a Domino Roads tile goes on a road: say which, {tile}@{road}", said
    assert phrases.translate(said, "es") == f"una ficha de Domino Roads va en un camino: diga cuál, {tile}@{road}"
