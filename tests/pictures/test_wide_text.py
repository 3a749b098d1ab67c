"""The whole picture (``explain --svg``, the replay page on a desktop or a projector) shows every
text at least ``MIN_TEXT`` px: its SVG font size times the scales of the groups it is in (the
frame draws a big board smaller) times the scale the picture is shown at (the page shows a picture
wider than its box at ``box / width``).  Broadway's axes' legend was 9 px and its coordinates 10,
Domino Roads' road details 9.5 (8.5 on a long road), a Horse Race count of 10 or more 10.2.

Every position of the samples and the simulated games under ``pytest --long``; in the default run
a sample of each hand's (tests/replay_sample.py: the deal, the end, one in four, the first after
each kind of move), in each distinct box (the desktop's and the projector's are the same).

Fast: Python only (tests/test_replay_wide.py measures the texts the page draws in a browser, and
that the boxes below are the page's at those screens)."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import attrs
import pytest

from domrec import simulate as sim
from domrec.pictures import MIN_TEXT, fit, frame, svg
from domrec.pictures.positions import replay

from tests.conftest import SAMPLES
from tests.replay_sample import _sample
from tests.test_replay_page import load

#: The picture's box on the replay page (CSS px): None, the picture at its own size (explain --svg
#: opened in a browser); 952 on a 1366x768 desktop and on a 1920x1080 projector alike (the page is
#: at most 84rem wide, less the move list); 800, the narrowest box the whole picture is drawn for
#: (below it the page draws a phone's picture).
BOXES = {"own size": None, "desktop 1366x768": 952, "projector 1920x1080": 952, "narrowest wide box": 800}

SAMPLE_FILES = sorted(p.relative_to(SAMPLES / "valid").as_posix() for p in (SAMPLES / "valid").glob("*/*")
                      if p.suffix in (".json", ".dgn"))


SCALE = re.compile(r"scale\(([0-9.]+)\)")


def shown_sizes(root: ET.Element, scale: float = 1.0) -> list[tuple[float, str]]:
    """Each text under ``root`` as (the px it shows at, its words): its font size times the scale of
    every ``transform`` above it, times ``scale``."""
    out = []
    stack = [(root, scale)]  # (walked with a stack: a picture holds thousands of elements)
    while stack:
        node, scale = stack.pop()
        transform = node.get("transform")
        if transform and "scale(" in transform:
            scale *= float(SCALE.search(transform)[1])
        if node.tag.endswith("text") and (node.text or "").strip():
            out.append((float(node.get("font-size")) * scale, node.text))
        stack.extend((child, scale) for child in reversed(node))
    return out


def smallest_shown(position, box: float | None) -> tuple[float, str]:
    """The smallest text of the whole picture of ``position`` as the page shows it in ``box``."""
    drawn = frame.draw(position) if box is None else frame.draw(position, box)
    width = float(drawn.get("width"))
    return min(shown_sizes(drawn, 1.0 if box is None else fit(box, width)))


def _screens() -> dict[float | None, str]:
    """Each box of ``BOXES`` once, with the screens that show the picture in it: a desktop's and a
    projector's box are the same 952 px, the same drawing at the same scale, checked once."""
    screens: dict[float | None, list[str]] = {}
    for screen, box in BOXES.items():
        screens.setdefault(box, []).append(screen)
    return {box: " and ".join(names) for box, names in screens.items()}


def _check(name: str, record) -> int:
    """Every position of ``record`` under ``pytest --long``; in the default run the sample of each
    hand's positions the page tests open (tests/replay_sample.py: its deal and its end, one in four,
    and the first after each kind of move, scoring or not), in every box.  How many positions the
    record's hands hold."""
    hands = [hand for hand in replay(record, name)[0] if hand.positions]
    wanted = None if os.environ.get("DOMREC_LONG_TESTS") == "1" else _sample(hands)
    positions = [p for hand in hands for i, p in enumerate(hand.positions)
                 if wanted is None or i in wanted[str(hand.number)]]
    for box, screen in _screens().items():
        for position in positions:
            size, words = smallest_shown(position, box)
            assert size >= MIN_TEXT, (name, screen, position.hand, position.move, round(size, 2), words)
    return sum(len(hand.positions) for hand in hands)


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_every_text_of_every_sample_position_shows_at_least_min_text_on_a_desktop_and_a_projector(name):
    """Each valid sample: every position under --long, a sample of each hand's in the default run."""
    _check(name, load(SAMPLES / "valid" / name))  # (a hand recorded by its scores alone has no picture)


@pytest.mark.parametrize("game, players, options", [
    ("competitive", None, None), ("broadway", None, None), ("horse-race", 3, None), ("castle-rock", None, None),
    ("castle-rock", 2, {"set": "double-twelve", "start_tiles": 20}), ("domino-roads", None, None),
    ("domino-roads", 3, None)])
def test_every_text_of_a_simulated_game_shows_at_least_min_text_on_a_desktop_and_a_projector(game, players,
                                                                                            options):
    """Simulated games: long lines of play and rows, wide layouts, long roads, a double-twelve set
    (numerals: the racks' and the captured panels' tiles are drawn big enough for them)."""
    record = next(iter(sim.simulate(game, 1, 11, players=players, options=options)))
    assert _check(f"simulated {game}", record) > 20


def test_a_board_the_frame_draws_smaller_has_its_texts_enlarged_by_as_much():
    """Three players' roads and piles are taller than the frame's board (620 px): the board is drawn
    smaller and its words larger, so that they show at MIN_TEXT all the same; the board is as wide
    and as tall in both drawings (its size never depends on its texts')."""
    hands, _ = replay(load(SAMPLES / "valid" / "domino-roads" / "simulated-game-3-players.json"), "roads")
    big = [p for h in hands for p in h.positions if p.board.height > frame.BOARD_MAX_HEIGHT]
    assert big
    for position in big[::4]:
        scale = frame.BOARD_MAX_HEIGHT / position.board.height
        again = position.board_at(scale)
        assert (again.width, again.height) == (position.board.width, position.board.height)
        assert min(shown_sizes(again.element, scale))[0] >= MIN_TEXT
        assert min(shown_sizes(position.board.element))[0] >= MIN_TEXT


def test_broadways_axes_legend_is_a_note_and_the_coordinates_show_at_min_text():
    position = next(p for h in replay(load(SAMPLES / "valid" / "broadway" / "exposed-tiles.json"), "b")[0]
                    for p in h.positions if p.scene["tiles"])
    drawn = frame.draw(position)
    assert not [t for t in drawn.iter() if t.get("class") == "axes"]
    assert "Coordinates: x along the bottom, y up the left." in [t.text for t in drawn.iter() if t.get("class") == "note"]
    coordinates = [float(t.get("font-size")) for t in drawn.iter() if t.get("class") in ("x", "y")]
    assert coordinates and min(coordinates) >= MIN_TEXT


LONG_NAME = "Maximiliano" + "X" * 189
#: The widths of the long name's characters in DejaVu Sans (the widest of the usual sans-serifs, and
#: Chromium's on Linux), in ems; any other character guessed as the pictures guess it.
DEJAVU = {"M": .863, "a": .613, "x": .592, "i": .278, "m": .974, "l": .278, "n": .634, "o": .612, "X": .685,
          "\u2026": 1.0}


def _placed_texts(root: ET.Element, x: float = 0.0, scale: float = 1.0):
    """Each text under ``root`` as (its left edge, its right edge, its words), in the picture's px."""
    found = re.search(r"translate\(([-0-9.]+),([-0-9.]+)\)", root.get("transform", ""))
    if found:
        x += float(found[1]) * scale
    grown = re.search(r"scale\(([0-9.]+)\)", root.get("transform", ""))
    scale *= float(grown[1]) if grown else 1.0
    if root.tag.endswith("text") and (root.text or "").strip():
        size = float(root.get("font-size")) * scale
        width = sum(DEJAVU[c] * size if c in DEJAVU else svg.text_width(c, size) for c in root.text)
        left = x + float(root.get("x", 0)) * scale
        anchor = root.get("text-anchor", "start")
        left -= width / 2 if anchor == "middle" else width if anchor == "end" else 0
        yield left, left + width, root.text
    for child in root:
        yield from _placed_texts(child, x, scale)


@pytest.mark.parametrize("game, players", [("competitive", None), ("broadway", None), ("horse-race", 3),
                                           ("castle-rock", None), ("domino-roads", None)])
def test_a_200_character_name_is_shortened_with_an_ellipsis_within_the_picture(game, players):
    """Every player named by a 200-character name without a space: each rack's name (Horse Race's and
    Castle Rock's under the board, Broadway's south, every seat's) is shortened with "…" to fit, and
    every text of the picture (explain --svg; the replay page's on a desktop) lies within its width."""
    record = next(iter(sim.simulate(game, 1, 11, players=players)))
    record = attrs.evolve(record, players=tuple(attrs.evolve(p, name=LONG_NAME) for p in record.players))
    hands, _ = replay(record, f"long {game}")
    positions = [p for hand in hands for p in hand.positions][:8]
    for box in (None, 952):
        for position in positions:
            drawn = frame.draw(position) if box is None else frame.draw(position, box)
            width = float(drawn.get("width"))
            names = [t.text for t in drawn.iter() if t.get("class") == "name"]
            assert len(names) == len(record.players) and all(n.endswith("\u2026") for n in names), names
            for left, right, words in _placed_texts(drawn):
                assert 0 <= left and right <= width, (game, box, position.move, round(left), round(right), width,
                                                      words[:30])
