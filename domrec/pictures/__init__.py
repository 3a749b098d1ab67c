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


def scener(game: str) -> Callable[[Any, Move | None], dict]:
    """The ``scene`` function of ``game``'s picture module."""
    return importlib.import_module(MODULES[game]).scene  # type: ignore[no-any-return]


def drawer(game: str) -> Callable[[dict], Board]:
    """The ``draw`` function of ``game``'s picture module."""
    return importlib.import_module(MODULES[game]).draw  # type: ignore[no-any-return]
