"""The shape check: does a JSON document have the form of schema domrec-1?

``schemas/domrec-1.schema.json`` is the published contract.  Generic JSON
Schema validation of every record is far too slow for big archives, so this
module checks the same constraints by hand, in one walk, and says what is wrong
in words a club player understands.  ``tests/test_shape.py`` holds the two to
the same verdicts (accept/reject) on the samples and on corrupted records;
change both together.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Any, Callable

try:
    from orjson import dumps as _dumps
except ImportError:  # a platform without orjson's wheels: each move's pattern and check, below
    _dumps = None

from domrec.errors import ShapeError, UnknownGameError, clip, pointer_token as _escape, shown
from domrec.record import GAMES, guarded_move_builder, move_builder

# The schema's patterns, read as JSON Schema reads them (ECMA-262): ``$`` is the
# end of the text, so no trailing newline ("6-3\n") gets through as Python's would.
#: A tile's numbers and the version's minor without leading zeros: ``"05-2"`` and ``"1.00"`` would
#: be one tile and one version to some readers and other texts to others (docs/format.md).
_TILE = re.compile(r"^(?:[0-9]|[1-9][0-9])-(?:[0-9]|[1-9][0-9])\Z")
_VERSION = re.compile(r"^1\.(?:0|[1-9][0-9]*)\Z")
_LEADING_ZERO = re.compile(r"(?:^|[-.])0[0-9]")
HAND_ENDS = ("out", "blocked", "sudden-death", "target", "abandoned")


#: How many numbers held as floats the checks have let through (a whole number written ``3.0``,
#: or any number in a free-form ``event``).  :func:`domrec.reader.loads` reads a text with orjson
#: first, which keeps those as floats where Python's reader (``reader.JSON_NUMBERS``) makes whole
#: ones ints: when this count moves during a record, that record is read again the slow way.
#: Only ever compared before and after, so two threads counting at once can only cause a
#: needless second reading, never a missed one.
FLOATS_SEEN = [0]


def _is_int(v: Any) -> bool:
    # JSON Schema's "integer" admits 3.0 but never true/false.
    if type(v) is int:
        return True
    if type(v) is float and v.is_integer():
        FLOATS_SEEN[0] += 1
        return True
    return False


def describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, str):
        return f"the text {v[:40]!r}" + ("…" if len(v) > 40 else "")
    return f"the number {shown(v)}"


def _fail(pointer: str, message: str) -> None:
    raise ShapeError(message, pointer)


def _obj(v: Any, ptr: str, what: str) -> dict:
    if type(v) is not dict:
        _fail(ptr, f"{what} must be a JSON object, not {describe(v)}")
    return v


def _list(v: Any, ptr: str, what: str) -> list:
    if type(v) is not list:
        _fail(ptr, f"{what} must be a JSON list, not {describe(v)}")
    return v


def _keys(d: dict, ptr: str, what: str, required: tuple[str, ...], allowed: frozenset[str]) -> None:
    for key in required:
        if key not in d:
            _fail(ptr, f"{what} needs \"{key}\"")
    for key in d:
        if key not in allowed:
            _fail(ptr, f"{what} has an unknown field \"{clip(key)}\"")


def _string(v: Any, ptr: str, what: str, min_len: int = 0, max_len: int | None = None) -> None:
    if type(v) is not str:
        _fail(ptr, f"{what} must be text, not {describe(v)}")
    if len(v) < min_len:
        _fail(ptr, f"{what} must not be empty")
    if max_len is not None and len(v) > max_len:
        _fail(ptr, f"{what} is longer than {max_len} characters")


def _seat(v: Any, ptr: str) -> None:
    _string(v, ptr, "a seat", 1, 32)


_GOOD_TILES: set[str] = set()


def _tile_ok(v: Any) -> bool:
    if type(v) is not str:
        return False
    if v in _GOOD_TILES:
        return True
    if _TILE.search(v) is not None:
        if len(_GOOD_TILES) < 10_000:
            _GOOD_TILES.add(v)
        return True
    return False


def _tile(v: Any, ptr: str) -> None:
    if not _tile_ok(v):
        _fail(ptr, _not_a_tile(v))


def _not_a_tile(v: Any) -> str:
    if type(v) is str and _LEADING_ZERO.search(v) is not None and len(v) <= 8:
        return f"expected a tile written like \"6-3\", not {describe(v)}: a number has no leading zero"
    return f"expected a tile written like \"6-3\", not {describe(v)}"


def _tiles(v: Any, ptr: str, what: str) -> None:
    _list(v, ptr, what)
    try:
        if _GOOD_TILES.issuperset(v):  # every item a tile string seen before: fine
            return
    except TypeError:  # an unhashable item: the loop below names it
        pass
    for i, t in enumerate(v):
        if not _tile_ok(t):
            _tile(t, f"{ptr}/{i}")


#: The parts of a deal the usual hand's one pass vouches for, and the form each has: a player's
#: tiles by seat (an object of lists) or one list of tiles.  (A part in the other form, ``"hands"``
#: written as a list, is a mistake the full checks word.)
_SEAT_LISTS = frozenset(("hands", "piles"))
_ONE_LIST = frozenset(("boneyard", "row"))


def _tile_lists(deal: dict) -> bool:
    """True when every part of a deal is players' tiles in its own form: ``hands`` and ``piles``
    objects of lists of tiles seen before, ``boneyard`` and ``row`` such lists.  Anything else (a
    lead draw, redeals, a part in the wrong form, a mistake) is left to the full checks."""
    try:
        for key, part in deal.items():
            if type(part) is dict:
                if not (key in _SEAT_LISTS and all([type(ts) is list for ts in part.values()])
                        and _GOOD_TILES.issuperset(chain.from_iterable(part.values()))):
                    return False
            elif not (key in _ONE_LIST and type(part) is list and _GOOD_TILES.issuperset(part)):
                return False
    except TypeError:  # something unhashable among the tiles
        return False
    return True


def _seat_tiles(v: Any, ptr: str, what: str) -> None:
    _obj(v, ptr, what)
    for seat, tiles in v.items():
        if type(tiles) is list:
            try:
                if _GOOD_TILES.issuperset(tiles):
                    continue
            except TypeError:
                pass
        _tiles(tiles, f"{ptr}/{_escape(seat)}", f"{what} of {clip(seat)}")


def _integer(v: Any, ptr: str, what: str, lo: int | None = None, hi: int | None = None) -> None:
    if not _is_int(v):
        _fail(ptr, f"{what} must be a whole number, not {describe(v)}")
    if lo is not None and v < lo:
        _fail(ptr, f"{what} must be at least {lo}, not {shown(v)}")
    if hi is not None and v > hi:
        _fail(ptr, f"{what} must be at most {hi}, not {shown(v)}")


def _true(v: Any, ptr: str, key: str) -> None:
    if v is not True:
        _fail(ptr, f"\"{key}\" can only be true, not {describe(v)}")


def _scores(v: Any, ptr: str) -> None:
    _obj(v, ptr, "scores")
    for side, n in v.items():
        if type(n) is not int:
            _integer(n, f"{ptr}/{_escape(side)}", f"the score of {clip(side)}")


# --- moves --------------------------------------------------------------------
# Each move shape: (required keys, allowed keys, field checks).

_Check = Callable[[Any, str], None]


def _score(v: Any, p: str) -> None:
    _integer(v, p, "a claimed score")


def _cells(v: Any, p: str) -> None:
    _list(v, p, "\"at\"")
    if len(v) != 2:
        _fail(p, f"\"at\" must name exactly two cells, like [[0, 0], [1, 0]], not {len(v)}")
    for i, cell in enumerate(v):
        _list(cell, f"{p}/{i}", "a cell")
        if len(cell) != 2:
            _fail(f"{p}/{i}", "a cell is two whole numbers [x, y]")
        for j, c in enumerate(cell):
            _integer(c, f"{p}/{i}/{j}", "a cell coordinate")


def _draw(v: Any, p: str) -> None:
    if v is True:
        return
    _tile(v, p)


def _capture(v: Any, p: str) -> None:
    _list(v, p, "\"capture\"")
    if not 1 <= len(v) <= 3:
        _fail(p, "a capture takes one tile or three consecutive tiles")
    for i, t in enumerate(v):
        _tile(t, f"{p}/{i}")


def _roll(v: Any, p: str) -> None:
    _list(v, p, "\"roll\"")
    if len(v) != 2:
        _fail(p, "a roll is the two dice, like [4, 3]")
    for i, d in enumerate(v):
        _integer(d, f"{p}/{i}", "a die", 1, 6)


def _road(v: Any, p: str) -> None:
    _string(v, p, "a road name", 1)


def _pip(v: Any, p: str) -> None:
    _integer(v, p, "a number of pips", 0, 6)


def _join(v: Any, p: str) -> None:
    _list(v, p, "\"join\"")
    if len(v) != 2:
        _fail(p, "a bridge joins exactly two roads")
    for i, j in enumerate(v):
        q = f"{p}/{i}"
        _obj(j, q, "a bridge end")
        _keys(j, q, "a bridge end", ("road", "span", "half"), frozenset(("road", "span", "half")))
        _road(j["road"], q + "/road")
        _integer(j["span"], q + "/span", "a span number", 1)
        _pip(j["half"], q + "/half")


def _comment(v: Any, p: str) -> None:
    _string(v, p, "a comment")


def _shape(required: tuple[str, ...], **checks: _Check) -> tuple[frozenset[str], frozenset[str], dict[str, _Check]]:
    checks = {"seat": _seat, "score": _score, "comment": _comment, **checks}
    return frozenset(("seat", *required)), frozenset(checks), checks


#: Per game: a move's keys, in order -> what to check for each (cached plans,
#: so the common moves cost a dict lookup and a few type tests).
_PLANS: dict[str, dict[tuple[str, ...], tuple[Callable[[dict], Any], tuple[tuple[str, Any, _Check], ...],
                                         Callable[[dict], Any]]]] = {}


def _plan(move: dict, q: str, moves_of: dict[str, str],
          game: str) -> tuple[Callable[[dict], Any], tuple[tuple[str, Any, _Check], ...], Callable[[dict], Any]]:
    """Check a move's keys and say how to check its values; raise if the keys are wrong."""
    kind = None
    for key in move:
        if key in moves_of:
            if kind is not None:
                _fail(q, f"a move does one thing: it cannot have both \"{kind}\" and \"{clip(key)}\"")
            kind = key
    if kind is None:
        names = ", ".join(f'"{k}"' for k in moves_of)
        _fail(q, f"not a {game} move: a move has one of {names}")
    required, allowed, checks = MOVE_SHAPES[moves_of[kind]]
    _move_keys(move, q, kind, required, allowed, game)
    plan = tuple((key, _FAST.get(key), checks[key]) for key in move)
    keys = tuple(move)
    return _check_and_build(keys), plan, move_builder(keys)


#: Expressions over a move ``d`` that are True only for values the full checks accept.
_FAST_EXPR = {
    "seat": "(type(d['seat']) is str and 0 < len(d['seat']) <= 32)",
    "score": "type(d['score']) is int",
    "comment": "type(d['comment']) is str",
    "pass": "d['pass'] is True",
    "reuse": "d['reuse'] is True",
    "road": "(type(d['road']) is str and d['road'] != '')",
    "draw": "(d['draw'] is True or (type(d['draw']) is str and d['draw'] in GOOD))",
    "capture": "(type(d['capture']) is list and 0 < len(d['capture']) <= 3"
               " and all([type(x) is str and x in GOOD for x in d['capture']]))",
    # Written out, not with all(...): a comprehension is a function call per move.
    "roll": "(type(r := d['roll']) is list and len(r) == 2 and type(r[0]) is int and 1 <= r[0] <= 6"
            " and type(r[1]) is int and 1 <= r[1] <= 6)",
    "facing": "(type(d['facing']) is int and 0 <= d['facing'] <= 6)",
    # Broadway's two cells: exact ints only (a 3.0 takes the full check, which accepts it).
    "at": "(type(a := d['at']) is list and len(a) == 2"
          " and type(c := a[0]) is list and len(c) == 2 and type(c[0]) is int and type(c[1]) is int"
          " and type(c := a[1]) is list and len(c) == 2 and type(c[0]) is int and type(c[1]) is int)",
    # A bridge's two ends, each exactly {"road": text, "span": 1 or more, "half": 0..6}.
    "join": "(type(j := d['join']) is list and len(j) == 2"
            + "".join(f" and type(e := j[{i}]) is dict and len(e) == 3 and type(e.get('road')) is str"
                      f" and e['road'] != '' and type(e.get('span')) is int and e['span'] >= 1"
                      f" and type(e.get('half')) is int and 0 <= e['half'] <= 6" for i in (0, 1)) + ")",
    "penalty": "d['penalty'] is True",
    "unplayable": "d['unplayable'] is True",
    **{k: f"(type(d[{k!r}]) is str and d[{k!r}] in GOOD)" for k in
       ("play", "on", "span", "starter", "block", "exposed", "bridge")},
}


#: How a field takes part in the key of the moves kept by :func:`_check_and_build`: text fields as they are (a
#: text equals only the same text, so a hit means the same checks passed); fields with
#: one good value (``true``) not at all, once their exact type is checked; numbers, and a
#: draw's ``true`` or tile, after their exact type is checked (``1`` equals ``true`` in Python).
_KEY_TEXT = frozenset(("seat", "play", "on", "span", "starter", "block", "exposed", "bridge", "road"))
_KEY_TYPED = {"pass": None, "reuse": None, "penalty": None, "unplayable": None,
              "score": "d['score']", "facing": "d['facing']",
              "draw": "d['draw']", "capture": "tuple(d['capture'])", "roll": "tuple(d['roll'])"}
_PRE_GUARD = {"draw": "(d['draw'] is True or type(d['draw']) is str)",
              "capture": "type(d['capture']) is list"}
#: Room left in the caches of moves already seen (all key patterns together): a bound on
#: the memory they take, whatever an archive holds (about 200 bytes a move).
_ROOM = [50_000]


def _check_and_build(keys: tuple[str, ...]) -> Callable[[dict], Any]:
    """One generated function for moves of this key pattern: it builds the
    move when every field certainly passes, and returns ``None`` otherwise
    (then the field checks run and say what is wrong).

    Most moves of an archive are written the same way again and again (the
    same seat plays the same tile on the same end), so a move that passed is
    kept, keyed by its values, and the next move written the same way *is*
    that value: a tuple and a dict look-up instead of testing and building
    every field.  Move values are frozen, so sharing one is safe.  Patterns
    with a comment (free text, rarely repeated) or with cells and bridge ends
    (nested lists) are not cached.
    """
    if not all(k in _FAST_EXPR for k in keys):
        return lambda m: None
    build = guarded_move_builder(keys, " and ".join(_FAST_EXPR[k] for k in keys), {"GOOD": _GOOD_TILES})
    if not all(k in _KEY_TEXT or k in _KEY_TYPED for k in keys):
        return build
    pre = [_PRE_GUARD.get(k, _FAST_EXPR[k]) for k in keys if k in _KEY_TYPED]
    parts = [f"d[{k!r}]" if k in _KEY_TEXT else _KEY_TYPED[k] for k in keys]
    parts = [p for p in parts if p is not None]
    lines = ["def check_and_build(d):"]
    if pre:
        lines.append(f"    if not ({' and '.join(pre)}):\n        return None")
    lines += [f"    key = ({', '.join(parts)},)",
              "    o = seen(key)",
              "    if o is None:",
              "        o = build(d)",
              "        if o is not None and room[0] > 0:",
              "            cache[key] = o",
              "            room[0] -= 1",
              "    return o"]
    cache: dict[tuple, Any] = {}
    namespace = {"build": build, "seen": cache.get, "cache": cache, "room": _ROOM}
    exec("\n".join(lines) + "\n", namespace)
    return namespace["check_and_build"]


def _move_keys(move: dict, q: str, kind: str, required: frozenset[str], allowed: frozenset[str],
               game: str) -> None:
    for key in sorted(required, key=lambda k: (k != "seat", k)):
        if key not in move:
            _fail(q, f"a \"{kind}\" move needs \"{key}\"")
    for key in move:
        if key not in allowed:
            if game == "castle-rock" and kind == "play" and key in ("on", "at"):
                _fail(q, f"a Castle Rock tile is always placed at the open end of the row, so a move "
                         f"cannot say where (\"{key}\") [castle-rock: placing at the open end]")
            _fail(q, f"a {game} \"{kind}\" move has no field \"{clip(key)}\"")


#: Cheap yes/no twins of the commonest field checks: the full check (which
#: builds the pointer and the message) runs only when one says no.
_FAST: dict[str, Callable[[Any], bool]] = {
    "seat": lambda v: type(v) is str and 0 < len(v) <= 32,
    "play": _tile_ok, "on": _tile_ok, "span": _tile_ok, "starter": _tile_ok, "block": _tile_ok,
    "exposed": _tile_ok, "road": lambda v: type(v) is str and len(v) > 0,
    "pass": lambda v: v is True,
    "score": lambda v: type(v) is int,
}

MOVE_SHAPES = {
    "pass": _shape(("pass",), **{"pass": lambda v, p: _true(v, p, "pass")}),
    "line": _shape(("play",), play=_tile, on=_tile),
    "place": _shape(("play", "at"), play=_tile, at=_cells, penalty=lambda v, p: _true(v, p, "penalty")),
    "exposed": _shape(("exposed",), exposed=_tile, unplayable=lambda v, p: _true(v, p, "unplayable")),
    "row-place": _shape(("play",), play=_tile),
    "capture": _shape(("capture",), capture=_capture),
    "draw": _shape(("draw",), draw=_draw),
    "roll": _shape(("roll",), roll=_roll),
    "reuse": _shape(("reuse",), reuse=lambda v, p: _true(v, p, "reuse")),
    "starter": _shape(("starter", "road", "facing"), starter=_tile, road=_road, facing=_pip),
    "span": _shape(("span", "road"), span=_tile, road=_road),
    "bridge": _shape(("bridge", "join"), bridge=_tile, join=_join),
    "block": _shape(("block", "road"), block=_tile, road=_road),
}

#: Per game: the key that names a move's kind -> the move shape it must have.
GAME_MOVES: dict[str, dict[str, str]] = {
    "broadway": {"pass": "pass", "play": "place", "exposed": "exposed"},
    "competitive": {"pass": "pass", "play": "line"},
    "horse-race": {"pass": "pass", "play": "line", "draw": "draw"},
    "castle-rock": {"pass": "pass", "play": "row-place", "capture": "capture", "draw": "draw"},
    "domino-roads": {"pass": "pass", "roll": "roll", "reuse": "reuse", "starter": "starter",
                     "span": "span", "bridge": "bridge", "block": "block"},
}


def _enum(*values: Any) -> _Check:
    def check(v: Any, p: str) -> None:
        if type(v) is not str or v not in values:
            _fail(p, f"must be one of {', '.join(map(repr, values))}, not {describe(v)}")
    return check


def _boolean(v: Any, p: str) -> None:
    if type(v) is not bool:
        _fail(p, f"must be true or false, not {describe(v)}")


def _start_tiles(v: Any, p: str) -> None:
    if v == "auto" and type(v) is str:
        return
    _integer(v, p, "start_tiles (or \"auto\")", 1)


#: Per game: the variants and the rule options (docs/rules/) with their checks.
GAME_RULES: dict[str, tuple[tuple[str, ...], dict[str, _Check]]] = {
    "broadway": (("standard",), {}),
    "competitive": (("standard",), {"first_lead": _enum("any", "double-six")}),
    "horse-race": (("standard", "celko"), {
        "partnerships": _boolean, "chain_draw": _boolean, "count_partner": _boolean,
        "win_check": _enum("immediate", "end_of_hand"),
        "target": lambda v, p: _integer(v, p, "target", 1)}),
    "castle-rock": (("standard",), {
        "set": _enum("double-six", "double-nine", "double-twelve"), "start_tiles": _start_tiles}),
    "domino-roads": (("standard",), {"block_match": _enum("equal", "sum")}),
}

#: Per game: the parts of ``deal`` it may have.
GAME_DEAL_PARTS: dict[str, frozenset[str]] = {
    "broadway": frozenset(("hands",)),
    "competitive": frozenset(("hands", "lead_draw", "redeals")),
    "horse-race": frozenset(("hands", "boneyard")),
    "castle-rock": frozenset(("hands", "boneyard", "row")),
    "domino-roads": frozenset(("hands", "piles")),
}

#: Per game: a move's keys, in order -> the plan's generated check-and-build (the hot path).
_FAST_PLANS: dict[str, dict[tuple[str, ...], Callable[[dict], Any]]] = {}
for _game in GAME_MOVES:
    _PLANS[_game] = {}
    _FAST_PLANS[_game] = {}

_TOP = frozenset(("format", "version", "game", "rules", "event", "players", "hands", "ended", "result"))
_HAND = frozenset(("leader", "deal", "moves", "result", "comment"))
_PLAYER = frozenset(("seat", "name", "id"))
_USUAL_HAND = frozenset(("leader", "deal", "moves", "result"))
_DEAL_ALL = frozenset(("hands", "boneyard", "row", "piles", "lead_draw", "redeals"))


def check_header(doc: Any) -> None:
    """Check ``format`` and the presence of ``version`` first: they decide how to read the rest
    (a record of an older major is migrated before anything else is looked at)."""
    _obj(doc, "", "a record")
    if "format" not in doc:
        _fail("", "a record needs \"format\": \"domrec\"")
    if doc["format"] != "domrec" or type(doc["format"]) is not str:
        _fail("/format", f"this is not a domrec record (\"format\" is {describe(doc['format'])}, not \"domrec\")")
    if "version" not in doc:
        _fail("", "a record needs \"version\", like \"1.0\"")


def check_game(doc: dict) -> str:
    if "game" not in doc:
        _fail("", f"a record needs \"game\", one of {', '.join(GAMES)}")
    game = doc["game"]
    if type(game) is not str or game not in GAMES:
        raise UnknownGameError(unknown_game(game), "/game")
    return game


def closest_game(name: str) -> str | None:
    """The game ``name`` is most likely a slip for (``competitve``, ``Competitive``, ``horse race``),
    by :mod:`difflib`'s measure of likeness; None when none is close (``chess``).  Case, spaces
    and underscores are not held against it: a club writes "Horse Race" on its sheets."""
    import difflib

    plain = re.sub(r"[\s_]+", "-", name.strip().casefold())
    part = [game for game in GAMES if plain in game.split("-")]  # (roads: domino-roads, never broadway)
    close = part or difflib.get_close_matches(plain, GAMES, n=1, cutoff=0.6)
    return close[0] if close else None


def unknown_game(game: Any) -> str:
    """What is said of a game domrec has no engine for, wherever it is named (a record's "game", a
    DGN text's [Game] tag, a command's argument): the name as given, the game it is likely a slip
    for, and the games there are, so that the one who typed it can type it again at once."""
    if not isinstance(game, str):
        return f"unknown game {describe(game)}; domrec knows {', '.join(GAMES)}"
    near = closest_game(game)
    hint = f' did you mean "{near}"?' if near is not None else ""
    return f'unknown game "{clip(game)}";{hint} domrec knows {", ".join(GAMES)}'


def check(doc: Any, moves_out: list | None = None) -> None:
    """Raise :class:`ShapeError` at the first place where ``doc`` breaks schema domrec-1.

    With ``moves_out``, also build each hand's moves (a tuple a hand) while
    they are in hand: the reader then need not walk the moves a second time.
    """
    check_header(doc)
    game = check_game(doc)
    _keys(doc, "", "a record", ("format", "version", "game", "players", "hands"), _TOP)
    if type(doc["version"]) is not str or not _VERSION.search(doc["version"]):
        version = doc["version"]
        zero = type(version) is str and _LEADING_ZERO.search(version) is not None
        _fail("/version", f"version must be \"1.x\" for this format, not {describe(version)}"
              + (": a number has no leading zero (\"1.0\", not \"1.00\")" if zero else ""))

    if "rules" in doc:
        check_rules(doc["rules"], game)
    if "event" in doc:
        _check_event(doc["event"])

    players = _list(doc["players"], "/players", "players")
    if not players:
        _fail("/players", "a record needs at least one player")
    for i, pl in enumerate(players):
        if (type(pl) is dict and _PLAYER.issuperset(pl) and type(seat := pl.get("seat")) is str
                and 0 < len(seat) <= 32 and type(pl.get("name")) is str and type(pl.get("id", "")) is str):
            continue  # the usual player; the checks below word anything else
        p = f"/players/{i}"
        _obj(pl, p, "a player")
        _keys(pl, p, "a player", ("seat", "name"), _PLAYER)
        _seat(pl["seat"], p + "/seat")
        _string(pl["name"], p + "/name", "a player's name")
        if "id" in pl:
            _string(pl["id"], p + "/id", "a player's id")

    hands = _list(doc["hands"], "/hands", "hands")
    moves_of = GAME_MOVES[game]
    deal_parts = GAME_DEAL_PARTS[game]
    for i, hand in enumerate(hands):
        _check_hand(hand, f"/hands/{i}", moves_of, deal_parts, game, moves_out)

    if "ended" in doc and doc["ended"] != "time":  # format 1.1: the game was stopped by the clock
        _fail("/ended", f"\"ended\" says why a game stopped before its end: only \"time\" (the event's time "
                        f"limit), not {describe(doc['ended'])}")
    if "result" in doc:
        r = _obj(doc["result"], "/result", "the game result")
        _keys(r, "/result", "the game result", (), frozenset(("scores", "winner")))
        if "scores" in r:
            _scores(r["scores"], "/result/scores")
        if "winner" in r and r["winner"] is not None and type(r["winner"]) is not str:
            _fail("/result/winner", f"the winner is a side (or null for a draw), not {describe(r['winner'])}")


def check_rules(rules: Any, game: str) -> None:
    """Raise :class:`ShapeError` if ``rules`` (a record's ``rules``: its variant and rule options)
    names a variant or an option ``game`` does not have, or gives an option a value of the wrong
    kind.  Every way into a game goes through it: a JSON or DGN record's shape check, and the
    Game API's start (:class:`domrec.game.Game`: a DGN text read through it, the recorder)."""
    _obj(rules, "/rules", "rules")
    _keys(rules, "/rules", "rules", (), frozenset(("variant", "options")))
    variants, options = GAME_RULES[game]
    if "variant" in rules:
        v = rules["variant"]
        if type(v) is not str or v not in variants:
            said = f'"{clip(v)}"' if isinstance(v, str) else describe(v)
            _fail("/rules/variant", f"{game} has no variant {said}; it has {', '.join(variants)}")
    if "options" in rules:
        opts = _obj(rules["options"], "/rules/options", "rule options")
        for name, value in opts.items():
            p = f"/rules/options/{_escape(name)}"
            if name not in options:
                known = ", ".join(options) or "none"
                _fail(p, f"{game} has no rule option \"{clip(name)}\" (its options: {known})")
            try:
                options[name](value, p)
            except ShapeError as e:
                e.message = f"rule option {name} {e.message}" if e.message.startswith("must") else e.message
                e.args = (e.message,)
                raise


def _check_event(event: Any) -> None:
    _obj(event, "/event", "event")
    for key in ("name", "site", "date"):
        if key in event:
            _string(event[key], f"/event/{key}", f"the event's {key}")
    for key in ("round", "table"):
        if key in event and type(event[key]) is not str and not _is_int(event[key]):
            _fail(f"/event/{key}", f"the event's {key} must be text or a whole number, not {describe(event[key])}")


def _check_hand(hand: Any, p: str, moves_of: dict[str, str], deal_parts: frozenset[str], game: str,
                moves_out: list | None) -> None:
    if (type(hand) is dict and _USUAL_HAND.issuperset(hand) and "moves" in hand
            and type(deal := hand.get("deal")) is dict and deal_parts.issuperset(deal) and "hands" in deal
            and _tile_lists(deal)):
        # The usual hand: a deal of tile lists (all tiles seen before), moves and perhaps a leader
        # and a result.  One pass of set tests stands for the checks below, which find the same.
        if "leader" in hand and not (type(leader := hand["leader"]) is str and 0 < len(leader) <= 32):
            _seat(leader, p + "/leader")
        _check_moves(hand["moves"], p, moves_of, game, moves_out)
        if "result" in hand and not _usual_result(hand["result"]):
            _check_hand_result(hand, p)
        return
    _obj(hand, p, "a hand")
    if "deal" in hand:
        _keys(hand, p, "a hand", ("deal", "moves"), _HAND)
    else:
        # Format 1.1: a score-sheet hand (only its result), or a hand being
        # recorded whose deal is not known yet (moves, no deal).
        # A hand with neither moves nor result has just been started (its first move is
        # still to come): the validator accepts it as the last hand of an unfinished game.
        _keys(hand, p, "a hand", (), _HAND)
    if "leader" in hand:
        _seat(hand["leader"], p + "/leader")
    if "comment" in hand:
        _comment(hand["comment"], p + "/comment")
    if "deal" not in hand:
        _check_moves(hand.get("moves", []), p, moves_of, game, moves_out)
        _check_hand_result(hand, p)
        return
    deal = _obj(hand["deal"], p + "/deal", "a deal")
    _keys(deal, p + "/deal", "a deal", ("hands",), _DEAL_ALL)
    for key in deal:
        if key not in deal_parts:
            _fail(f"{p}/deal/{key}", f"a {game} deal has no \"{key}\"")
    _seat_tiles(deal["hands"], p + "/deal/hands", "the hand")
    for key in ("boneyard", "row"):
        if key in deal:
            _tiles(deal[key], f"{p}/deal/{key}", key)
    if "piles" in deal:
        _seat_tiles(deal["piles"], p + "/deal/piles", "the pile")
    if "lead_draw" in deal:
        ld = _obj(deal["lead_draw"], p + "/deal/lead_draw", "lead_draw")
        for seat, t in ld.items():
            _tile(t, f"{p}/deal/lead_draw/{_escape(seat)}")
    if "redeals" in deal:
        for j, rd in enumerate(_list(deal["redeals"], p + "/deal/redeals", "redeals")):
            q = f"{p}/deal/redeals/{j}"
            _obj(rd, q, "a redeal")
            _keys(rd, q, "a redeal", ("seat", "hands"), frozenset(("seat", "hands")))
            _seat(rd["seat"], q + "/seat")
            _seat_tiles(rd["hands"], q + "/hands", "the hand")

    _check_moves(hand["moves"], p, moves_of, game, moves_out)
    _check_hand_result(hand, p)


#: Per game: the JSON text of a move already vouched for by its generated check (as orjson writes
#: the move's data back) -> the frozen value built for it.  Two moves written back alike are the
#: same JSON value: the same keys in the same order, the same values of the same types (``true``
#: is not ``1``, ``3.0`` is not ``3``), so a hit is a move that passed every check.  Writing a
#: move back and looking it up are C calls, made for a whole hand at once (:func:`_check_moves`):
#: about half the cost of finding the move's key pattern and calling its check.  Moves with a
#: comment (free text, rarely repeated) are not kept, nor more than :data:`_SEEN_ROOM` moves in all
#: (an archive's games repeat a few thousand moves; a bound on memory, about 150 bytes a move).
_SEEN_MOVES: dict[str, dict[bytes, Any]] = {game: {} for game in _FAST_PLANS}
_SEEN_ROOM = [10_000]


def _check_moves(moves: Any, p: str, moves_of: dict[str, str], game: str, moves_out: list | None) -> None:
    moves = _list(moves, p + "/moves", "moves")
    seen = _SEEN_MOVES[game]
    built: list | None = None
    if _dumps is not None:
        try:
            built = list(map(seen.get, map(_dumps, moves)))
        except Exception:  # a value orjson does not write (a number beyond 64 bits, a lone surrogate)
            built = None
    if built is not None:
        if not all(built):  # (every move value is true: no move class has __bool__ or __len__)
            fast = _FAST_PLANS[game]
            for j, obj in enumerate(built):
                if obj is not None:
                    continue
                move = moves[j]
                if type(move) is dict and (check_build := fast.get(tuple(move))) is not None:
                    try:
                        obj = check_build(move)
                    except TypeError:  # a list where a text belongs, say: the field checks name it
                        pass
                if obj is None:
                    built[j] = _check_move(move, f"{p}/moves/{j}", moves_of, game)
                    continue
                built[j] = obj
                if _SEEN_ROOM[0] > 0 and "comment" not in move:
                    # (a copy of orjson's text: orjson leaves kilobytes of room in what it returns)
                    seen[bytes(memoryview(_dumps(move)))] = obj
                    _SEEN_ROOM[0] -= 1
        if moves_out is not None:
            moves_out.append(tuple(built))
        return
    built = []
    append = built.append
    fast = _FAST_PLANS[game]
    # The usual move: a known key pattern whose generated check vouches for it and builds it.
    # Anything else (a new pattern, a value to check field by field, not an object at all)
    # leaves this loop, and the careful one goes on from that move.
    try:
        for move in moves:
            obj = fast[tuple(move)](move)
            if obj is None:
                break
            append(obj)
    except (KeyError, TypeError):
        pass
    for j in range(len(built), len(moves)):
        move = moves[j]
        obj = None
        if type(move) is dict and (check_build := fast.get(tuple(move))) is not None:
            try:
                obj = check_build(move)
            except TypeError:  # a list where a text belongs, say: the field checks name it
                pass
        append(obj if obj is not None else _check_move(move, f"{p}/moves/{j}", moves_of, game))
    if moves_out is not None:
        moves_out.append(tuple(built))


def check_move(move: dict, pointer: str, game: str) -> Any:
    """One move's JSON data checked as a record's moves are (:func:`check`), and built.

    For moves whose JSON data is made, not read: the DGN reader's typed moves, whose seats
    it worked out (:mod:`domrec.notation.straight`), are held to the record's shape as a
    JSON record's moves are.  Raises :class:`ShapeError` at ``pointer``."""
    check_build = _FAST_PLANS[game].get(tuple(move))
    if check_build is not None:
        try:
            built = check_build(move)
        except TypeError:  # (a list where a text belongs, say: the field checks name it)
            built = None
        if built is not None:
            return built
    return _check_move(move, pointer, GAME_MOVES[game], game)


def _check_move(move: Any, q: str, moves_of: dict[str, str], game: str) -> Any:
    """Check one move field by field (the fast check could not vouch for it): raise at the first
    field that is wrong, else build it.  The pattern's plan is made and kept on first sight."""
    if type(move) is not dict:
        _fail(q, f"a move must be a JSON object, not {describe(move)}")
    plans = _PLANS[game]
    keys = tuple(move)
    entry = plans.get(keys)
    if entry is None:
        entry = _plan(move, q, moves_of, game)
        if len(plans) < 512:
            plans[keys] = entry
            _FAST_PLANS[game][keys] = entry[0]
    _, plan, build = entry
    for key, fast, check_field in plan:
        value = move[key]
        if fast is None or not fast(value):
            check_field(value, f"{q}/{key}")
    return build(move)


_RESULT = frozenset(("scores", "end"))
_ENDS = frozenset(HAND_ENDS)
_INT = frozenset((int,))


def _usual_result(r: Any) -> bool:
    """True for a hand result :func:`_check_hand_result` certainly accepts: whole-number scores
    (exact ints) and a known end, in C-level set tests."""
    return (type(r) is dict and _RESULT.issuperset(r)
            and (type(sc := r.get("scores", {})) is dict and _INT.issuperset(map(type, sc.values())))
            and (type(end := r.get("end", "out")) is str and end in _ENDS))


def usual_hand_result(result: Any) -> bool:
    """A hand's result (its JSON data) that :func:`check` certainly accepts as it is: what the
    DGN reader's straight reading (:mod:`domrec.notation.straight`) takes without the whole
    record's shape check; anything else it leaves to the general reading."""
    return _usual_result(result)


def _check_hand_result(hand: dict, p: str) -> None:
    if "result" in hand:
        r = _obj(hand["result"], p + "/result", "a hand result")
        _keys(r, p + "/result", "a hand result", (), frozenset(("scores", "end")))
        if "scores" in r:
            _scores(r["scores"], p + "/result/scores")
        if "end" in r and (type(r["end"]) is not str or r["end"] not in HAND_ENDS):
            _fail(p + "/result/end", f"a hand ends {', '.join(HAND_ENDS)}, not {describe(r['end'])}")
