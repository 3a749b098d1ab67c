"""The game engines, one module a game, found by the record's ``game`` name.

Engines register here by name; a game whose module is not written yet is
simply absent, and records of it are reported as such.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from domrec.errors import InputError, UnknownGameError, clip, pointer_token, shown
from domrec.games.base import Engine
from domrec.shape import unknown_game

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
        raise UnknownGameError(unknown_game(game), "/game")
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


def parse_options(texts: list[str]) -> dict[str, Any]:
    """Rule options as typed on a command line (``name=value``) to a record's ``options``.

    ``true``/``false`` become booleans and whole numbers integers; anything
    else stays text.  The values are checked later, as in any record.  A whole number
    with a leading zero (``target=007``) is refused (:class:`InputError`, pointing at the
    option): a JSON record cannot write it.
    """
    options: dict[str, Any] = {}
    for text in texts:
        name, eq, value = text.partition("=")
        if not eq or not name:
            raise InputError(f"write rule options as name=value, not {text!r}")
        if name in options:
            raise InputError(f"rule option {name} is given twice")
        if value in ("true", "false"):
            options[name] = value == "true"
        elif re.fullmatch("-?0[0-9]+", value):
            # "007" is no number of a record: JSON writes none with a leading zero, so the same
            # rules are refused in DGN and on a command line as in a JSON record (unusable).
            plain = value[:value[0] == "-"] + (value.lstrip("-").lstrip("0") or "0")
            raise InputError(f"rule option {clip(name)}: a number has no leading zero: write "
                             f"{clip(name)}={shown(plain)}, not {clip(name)}={shown(value)}",
                             f"/rules/options/{pointer_token(name)}")
        elif re.fullmatch("-?[0-9]+", value):  # not str.isdigit(): "²" and "١٠" stay text
            options[name] = int(value)
        else:
            options[name] = value
    return options
