"""The game engines, one module a game, found by the record's ``game`` name.

Engines register here by name; a game whose module is not written yet is
simply absent, and records of it are reported as such.
"""

from __future__ import annotations

import importlib

from domrec.errors import UnknownGameError
from domrec.games.base import Engine

#: game name -> module holding ``ENGINE``.
MODULES = {
    "broadway": "domrec.games.broadway",
    "competitive": "domrec.games.competitive",
    "horse-race": "domrec.games.horserace",
    "castle-rock": "domrec.games.castlerock",
    "domino-roads": "domrec.games.roads",
}

_cache: dict[str, Engine] = {}


def engine(game: str) -> Engine:
    """The engine for ``game``; :class:`UnknownGameError` if there is none."""
    found = _cache.get(game)
    if found is not None:
        return found
    name = MODULES.get(game)
    if name is None:
        raise UnknownGameError(f"unknown game {game!r}; domrec knows {', '.join(MODULES)}", "/game")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        raise UnknownGameError(f"this version of domrec cannot judge {game} records yet", "/game") from None
    found = _cache[game] = module.ENGINE
    return found


def available() -> list[str]:
    """The games this installation has engines for."""
    out = []
    for game in MODULES:
        try:
            engine(game)
        except UnknownGameError:
            continue
        out.append(game)
    return out
