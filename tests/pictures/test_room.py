"""A picture drawn for a width (the replay page on a phone): each board laid out for the room its
felt has, every text at least ``MIN_TEXT`` px once the board's scale is applied, and the whole
picture's board laid out as before.  Fast: Python only (tests/test_replay_drawing.py holds the page's script equal
to ``frame.draw_narrow``, tests/test_replay_phone.py measures the text in a browser)."""

from __future__ import annotations

import importlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from domrec import simulate as sim
from domrec.pictures import MIN_TEXT, MODULES, drawer, fit, frame, legible
from domrec.pictures.positions import replay

from tests.conftest import SAMPLES
from tests.test_replay_page import load

PHONE_BOX = 374  # a 390 px phone's picture: the page's padding of 8 px each side

SAMPLE = {"competitive": "competitive/first-lead-double-six.json", "broadway": "broadway/sudden-death-mid-hand.json",
          "horse-race": "horse-race/draw-empties-boneyard.json",
          "castle-rock": "castle-rock/four-players-named-draws.json",
          "domino-roads": "domino-roads/simulated-game-4-players.json"}
MORE = ["broadway/exposure-and-penalty-play.dgn", "domino-roads/three-players-pile-top-up.json",
        "domino-roads/figure-4-bridge-total-10.json", "castle-rock/five-players-row-of-three.json",
        "horse-race/spinner-four-arms.json"]


def _positions(name: str):
    hands, _ = replay(load(SAMPLES / "valid" / name), name)
    return [p for h in hands for p in h.positions]


def _smallest_text(root: ET.Element, scale: float = 1.0) -> float:
    """The smallest font size of the texts under ``root`` times the scale their transforms give."""
    found = re.search(r"scale\(([0-9.]+)\)", root.get("transform", ""))
    scale *= float(found[1]) if found else 1.0
    least = float(root.get("font-size")) * scale if root.tag.endswith("text") and (root.text or "").strip() else 1e9
    return min([least] + [_smallest_text(child, scale) for child in root])


def test_legible_sizes_a_text_for_the_scale_and_leaves_the_desktops_alone():
    assert legible(9.5, None) == 9.5 and legible(14, None) == 14
    assert legible(9.5, 1.0) == MIN_TEXT and legible(14, 1.0) == 14
    for scale in (0.37, 0.5, 0.61, 0.7, 0.93):
        assert legible(10, scale) * scale >= MIN_TEXT and legible(10, scale) < MIN_TEXT / scale + 0.1
    assert fit(350, 700) == 0.5 and fit(350, 200) == 1.0


@pytest.mark.parametrize("name", [*SAMPLE.values(), *MORE])
def test_on_a_phone_every_text_of_every_position_is_at_least_min_text(name):
    for position in _positions(name):
        drawn = frame.draw_narrow(position, PHONE_BOX)
        assert _smallest_text(drawn) >= MIN_TEXT, (name, position.hand, position.move)
        assert drawn.get("viewBox").startswith(f"0 0 {PHONE_BOX} ")


@pytest.mark.parametrize("game", list(SAMPLE))
def test_a_board_for_a_room_is_as_wide_drawn_again_and_the_desktops_is_unchanged(game):
    """The second drawing (texts enlarged for the scale) is as wide as the first, so the frame's scale
    is the one its texts were sized for; without a room the board is the desktop's, as before."""
    draw = drawer(game)
    for position in _positions(SAMPLE[game])[::7]:
        wide = draw(position.scene)
        assert ET.tostring(wide.element) == ET.tostring(position.board.element)
        room = PHONE_BOX - 2 * frame.MARGIN
        narrow = draw(position.scene, room)
        assert importlib.import_module(MODULES[game])._draw(position.scene, room, 1.0).width == narrow.width


@pytest.mark.parametrize("game", ["competitive", "castle-rock"])
def test_a_line_and_a_row_wrap_at_the_room_instead_of_being_scaled(game):
    record = next(iter(sim.simulate(game, 1, 5)))
    hands, _ = replay(record, game)
    laid = [p for p in hands[0].positions if p.scene.get("line", p.scene.get("row"))]
    assert laid and max(p.board.width for p in laid) > 300
    for position in laid:
        assert position.board_in(300).width <= 300


def test_a_road_longer_than_the_room_is_scaled_with_its_words_enlarged():
    position = _positions(SAMPLE["domino-roads"])[-1]
    board = position.board_in(200)
    scale = fit(200, board.width)
    assert scale < 1
    sizes = [float(t.get("font-size")) for t in board.element.iter("text")]
    assert min(sizes) * scale >= MIN_TEXT
    assert len(board.notes) == 2  # what the dice are worth is a note on a phone


def _numerals(root: ET.Element, scale: float = 1.0) -> list[float]:
    """The size each numeral of a tile shows at under ``root``, its transforms' scale applied."""
    found = re.search(r"scale\(([0-9.]+)\)", root.get("transform", ""))
    scale *= float(found[1]) if found else 1.0
    mine = [float(root.get("font-size")) * scale] if root.get("class") == "numeral" else []
    return mine + [size for child in root for size in _numerals(child, scale)]


def test_a_double_twelve_sets_numerals_are_at_least_min_text_on_a_phone_and_on_the_whole_picture():
    """Beyond nine a half is a numeral, half its side: a rack's 13 px half showed it at 6.5 px, and
    so did a captured panel's.  On a phone both are drawn big enough for MIN_TEXT; the desktop's
    picture draws them so too (tests/pictures/test_wide_text.py), and the scenes of the other sets do not
    say ``numerals``."""
    record = next(iter(sim.simulate("castle-rock", 1, 11, players=2, options={"set": "double-twelve",
                                                                              "start_tiles": 20})))
    hands, _ = replay(record, "double-twelve")
    positions = [p for h in hands[:2] for p in h.positions]
    seen = set()
    for position in positions:
        drawn = frame.draw_narrow(position, PHONE_BOX)
        racks = [size for g in drawn if g.get("class") == "rack" for size in _numerals(g)]
        board = _numerals(drawn)
        seen.update(("rack" if racks else "", "board" if len(board) > len(racks) else ""))
        assert _smallest_text(drawn) >= MIN_TEXT and min(board, default=MIN_TEXT) >= MIN_TEXT, position.move
        # the whole picture's too, since its racks and panels hold 22 px halves as well (they were 13: 6.5 px)
        assert {float(s) for s in _numerals(frame.draw(position))} == {11.0}
    assert {"rack", "board"} <= seen
    assert all(p.scene["numerals"] is True for p in positions)
    assert "numerals" not in _positions(SAMPLE["castle-rock"])[0].scene
    assert "numerals" not in _positions("castle-rock/double-nine-three-players.json")[0].scene


def test_the_page_and_the_picture_module_draw_narrow_below_the_same_width():
    """Below frame.NARROW the replay page draws a position for its box (a phone, a phone turned, a
    small tablet: the wide picture scaled down to 584 px showed texts of 7 px); its script says so too."""
    import domrec

    script = (Path(domrec.__file__).parent / "templates" / "replay.js").read_text(encoding="utf-8")
    assert re.search(r"var NARROW = (\d+);", script)[1] == str(frame.NARROW)
    assert frame.NARROW >= 800  # a 600 px screen's box (584 px) and a 1,000 px screen's (608 px) are narrow
