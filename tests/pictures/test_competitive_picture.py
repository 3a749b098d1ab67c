"""The Competitive picture: the line as a snake, read back tile by tile against the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from domrec import reader
from domrec.games.competitive import CompetitiveHand
from domrec.pictures.positions import Camera, picture, position
from domrec.validate import validate
from tests.pictures.readback import racks, texts, tiles

SAMPLE = Path(__file__).parents[2] / "samples/valid/competitive/game-to-200.json"


def _line_after(record, hand: int, move: int) -> list[tuple[int, int]]:
    """The engine's own line after ``move`` moves of ``hand``, watched independently of the picture."""
    seen: dict[str, list] = {}

    class Watch:
        current = -1

        def hand_started(self, index, h, state):
            self.current = index
            if index == hand - 1 and move == 0:
                seen["line"] = list(state.line)

        def moved(self, j, m, points, state: CompetitiveHand):
            if self.current == hand - 1 and j + 1 == move:
                seen["line"] = list(state.line)

        def hand_finished(self, *a):
            pass

    validate(record, observer=Watch())
    return seen["line"]


def test_the_golden_position_shows_the_line_the_racks_and_the_scores():
    record = reader.load(str(SAMPLE))
    svg, report = picture(record, 2, 12)
    line = _line_after(record, 2, 12)
    drawn = tiles(svg, "board")
    assert len(drawn) == len(line) == 12
    # The snake turns: a row read right to left shows each tile's halves reversed.
    assert sorted(tuple(sorted(t)) for t in drawn) == sorted(tuple(sorted(t)) for t in line)
    shown = texts(svg)
    assert shown[0] == "Competitive dominoes · hand 2 · move 12 of 21"
    assert shown[2] == "Scores: NS 0 · EW 70"
    found = position(record, 2, 12)[0]
    assert racks(svg) == {s: [(t.high, t.low) for t in ts] for s, ts in found.holdings.items()}
    assert sum(len(v) for v in racks(svg).values()) == 28 - 12


def test_the_end_of_a_hand_shows_the_totals_after_it():
    record = reader.load(str(SAMPLE))
    svg, report = picture(record, 1)
    assert report.status == "valid"
    assert "Totals after the hand: NS 0 · EW 70 (this hand: EW +70)" in texts(svg)


@pytest.mark.parametrize("hand, move, message", [
    (4, None, "the record has 3 hands; there is no hand 4"),
    (1, 22, "hand 1 has 21 moves; there is no move 22 (0 is the deal)"),
])
def test_a_position_the_record_does_not_have_is_one_sentence(hand, move, message):
    from domrec.pictures.positions import PictureError
    record = reader.load(str(SAMPLE))
    with pytest.raises(PictureError) as e:
        picture(record, hand, move)
    assert str(e.value) == message


def test_the_camera_draws_every_position_of_every_hand():
    record = reader.load(str(SAMPLE))
    camera = Camera(record, every=True)
    validate(record, observer=camera)
    assert [len(h.positions) for h in camera.hands] == [len(h.moves) + 1 for h in record.hands]
