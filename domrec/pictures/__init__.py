"""Pictures of a game's table, one module a game, and what they share.

Drawing is not rules: the engines never draw.  A picture module reads the
state an engine holds during the replay that validation runs (through the
observer :mod:`domrec.pictures.positions` attaches), and turns it into a
:class:`Board`, an SVG group.  :mod:`domrec.pictures.frame` puts the board
in a frame with what every game shares: the hand and move number, the last
tile and who played it, the running scores and each player's tiles.  One
tile is drawn one way everywhere (:mod:`domrec.pictures.tiles`).

A picture module has two functions.  ``scene(state, last) -> dict`` reads
``state``, the engine's hand state after the move ``last`` (``None`` for the
deal), at once (the state goes on changing afterwards) into plain JSON values:
what the board shows, every choice made (which tile is the last, what is
set aside, the notes' words).  ``draw(scene) -> Board`` draws those values.

Why the split: the replay page carries each hand's scenes, not its pictures (a
few bytes a move: see :mod:`domrec.pictures.changes`), and its script draws
them with a port of each ``draw`` (``<game>.js`` beside the module, and
``frame.js``, ``tiles.js``); a browser test holds the two drawings equal.  So
whatever needs the engine or a rule is decided once, in ``scene``.
"""

from __future__ import annotations

import importlib
import math
import xml.etree.ElementTree as ET
from typing import Any, Callable

import attrs

from domrec.record import Move

#: game name -> module with ``board(state, last) -> Board``.
MODULES = {
    "broadway": "domrec.pictures.broadway",
    "competitive": "domrec.pictures.competitive",
    "horse-race": "domrec.pictures.horserace",
    "castle-rock": "domrec.pictures.castlerock",
    "domino-roads": "domrec.pictures.roads",
}


@attrs.frozen
class Board:
    """The middle of the table as one SVG group drawn from (0, 0), and its size.

    ``notes`` are short lines shown under it (the dice, what is set aside, a
    count the picture cannot show)."""

    element: ET.Element
    width: float
    height: float
    notes: tuple[str, ...] = ()


#: The smallest text, in CSS px, of a picture as it is shown: drawn for a phone's width, on the replay
#: page of a desktop or a projector (the picture scaled to its box), or at its own size (explain --svg).
MIN_TEXT = 11.0


def fit(room: float, width: float) -> float:
    """The scale a board ``width`` wide is drawn at in ``room`` px: never enlarged."""
    return min(1.0, room / max(width, 1.0))


def legible(size: float, scale: float | None) -> float:
    """A text's font size on a board drawn at ``scale`` (None: at no width asked, the size as it is),
    so that it shows at least :data:`MIN_TEXT` px (rounded up to the tenth svg.py writes)."""
    return size if scale is None else max(size, math.ceil(MIN_TEXT / scale * 10) / 10)


def for_room(draw_at: Callable[[dict, float | None, float], Board]) -> Callable[..., Board]:
    """A game's ``draw(scene, room=None, scale=None)`` from its ``draw_at(scene, room, scale)``.

    Without ``room`` the board is laid out as on a wide screen (the desktop's picture), its texts
    sized for ``scale``: the scale the frame draws the board at, times the scale the page shows the
    picture at (``frame.draw``); none given, 1.0, every text at least :data:`MIN_TEXT` px as drawn.
    With ``room`` (the px a phone's felt has for it) the board lays itself out for that width, its
    texts on lines of their own; what cannot fit (a long road, a wide tableau, a wide layout) is
    scaled by the frame to ``room``, so the board is drawn again with each text enlarged by as much
    (:func:`legible`).  A board's width never depends on its texts' enlarged sizes, so both drawings
    are as wide, and the frame's scale is the one the texts were sized for."""

    def draw(scene: dict, room: float | None = None, scale: float | None = None) -> Board:
        if room is None:
            return draw_at(scene, None, 1.0 if scale is None else scale)
        first = draw_at(scene, room, 1.0)
        fitted = fit(room, first.width)
        return first if fitted == 1.0 else draw_at(scene, room, fitted)

    draw.__doc__ = draw_at.__doc__
    return draw


def scener(game: str) -> Callable[[Any, Move | None], dict]:
    """The ``scene`` function of ``game``'s picture module."""
    return importlib.import_module(MODULES[game]).scene  # type: ignore[no-any-return]


def drawer(game: str) -> Callable[..., Board]:
    """The ``draw(scene, room=None)`` function of ``game``'s picture module."""
    return importlib.import_module(MODULES[game]).draw  # type: ignore[no-any-return]
