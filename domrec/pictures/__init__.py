"""Pictures of a game's table, one module a game, and what they share.

Drawing is not rules: the engines never draw.  A picture module reads the
state an engine holds during the replay that validation runs (through the
observer :mod:`domrec.pictures.positions` attaches), and turns it into a
:class:`Board`, an SVG group.  :mod:`domrec.pictures.frame` puts the board
in a frame with what every game shares: the hand and move number, the last
tile and who played it, the running scores and each player's tiles.  One
tile is drawn one way everywhere (:mod:`domrec.pictures.tiles`).

A picture module has one function, ``board(state, last) -> Board``, where
``state`` is the engine's hand state after the move ``last`` (``None`` for
the deal).  It must draw at once: the state goes on changing afterwards.
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


def drawer(game: str) -> Callable[[Any, Move | None], Board]:
    """The ``board`` function of ``game``'s picture module."""
    return importlib.import_module(MODULES[game]).board  # type: ignore[no-any-return]
