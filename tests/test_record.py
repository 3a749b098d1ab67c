"""The attrs record model and its converter."""

from __future__ import annotations

import json

import attrs
import pytest

from domrec import record as R
from domrec.reader import load_dict

from tests.conftest import SAMPLES

ALL = sorted((SAMPLES / "valid").rglob("*.json"))


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_generic_and_fast_structuring_agree(path):
    doc = json.loads(path.read_text())
    assert load_dict(doc) == R.structure(doc)


def test_every_move_shape_round_trips():
    moves = [
        {"seat": "N", "pass": True}, {"seat": "N", "play": "6-3", "on": "6-6", "score": 0},
        {"seat": "N", "play": "6-3", "at": [[0, 0], [1, 0]], "penalty": True},
        {"seat": "E", "exposed": "4-4", "unplayable": True}, {"seat": "S", "draw": "2-0"},
        {"seat": "S", "draw": True}, {"seat": "P1", "capture": ["2-4", "4-4", "1-4"]},
        {"seat": "S", "roll": [4, 3]}, {"seat": "W", "reuse": True},
        {"seat": "S", "starter": "3-4", "road": "NS1", "facing": 4}, {"seat": "N", "span": "5-6", "road": "NS1"},
        {"seat": "N", "bridge": "0-0", "join": [{"road": "A", "span": 2, "half": 6},
                                                {"road": "B", "span": 1, "half": 4}]},
        {"seat": "E", "block": "3-3", "road": "NS1"},
    ]
    for m in moves:
        built = R.structure_move(m)
        assert json.dumps(R.move_to_dict(built), sort_keys=True) == json.dumps(m, sort_keys=True)
        assert built == R.converter.structure(m, R.Move)


def test_moves_are_frozen():
    move = R.structure_move({"seat": "N", "play": "6-3"})
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        move.seat = "E"


def test_a_draw_claim_differs_from_no_claim():
    doc = {"format": "domrec", "version": "1.0", "game": "competitive", "players": [], "hands": []}
    draw = R.structure({**doc, "result": {"winner": None}})
    none = R.structure({**doc, "result": {}})
    assert draw.result.winner is None and none.result.winner is R.UNSET
    assert R.unstructure(draw)["result"] == {"winner": None}
    assert R.unstructure(none)["result"] == {}


def test_pretty_puts_a_move_on_a_line():
    doc = json.loads((SAMPLES / "valid" / "competitive" / "domino.json").read_text())
    text = R.pretty(doc)
    assert json.loads(text) == doc
    assert '    {"seat": "N", "play": ' in text
