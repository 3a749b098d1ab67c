"""The record format, version 1, as attrs values, and the cattrs converter.

These classes are the library's view of the record format (docs/format.md).  They hold what the writer
wrote (tile strings as written, optional claims absent when absent) so that a
record loaded and dumped again is the same JSON: a club's archive must not be
rewritten by being checked.

Reading is layered (see :mod:`domrec.reader`): JSON text -> dict -> version
check (and migration from older majors) -> shape check -> :func:`structure`.
Everything here assumes a document that passed the shape check.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable, Union

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override


class _Unset:
    """Marks a claim that the record leaves out (``null`` means something else)."""

    _instance: "_Unset | None" = None

    def __new__(cls) -> "_Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()

FORMAT_NAME = "domrec"
GAMES = ("broadway", "competitive", "horse-race", "castle-rock", "domino-roads")


@attrs.frozen
class Player:
    seat: str
    name: str
    id: str | None = None


@attrs.frozen
class Rules:
    variant: str | None = None
    options: dict[str, Any] | None = None


# --- moves ---------------------------------------------------------------
# One class per move shape of the format (docs/format.md).  ``score`` is the optional claim of
# the points the move earns; the engine computes the real number.


@attrs.frozen
class Pass:
    seat: str
    passed: bool = True
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Play:
    """A tile set down: Competitive/Horse Race (``on``), Broadway (``at``), Castle Rock."""

    seat: str
    play: str
    on: str | None = None
    at: tuple[tuple[int, int], tuple[int, int]] | None = None
    penalty: bool | None = None
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Exposed:
    """Broadway: a tile exposed out of turn (``unplayable`` when it fits nowhere)."""

    seat: str
    exposed: str
    unplayable: bool | None = None
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Draw:
    """A tile drawn from the boneyard: named, or ``True`` when ``deal.boneyard`` gives the order."""

    seat: str
    draw: str | bool
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Capture:
    seat: str
    capture: tuple[str, ...]
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Roll:
    seat: str
    roll: tuple[int, int]
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Reuse:
    seat: str
    reuse: bool = True
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Starter:
    seat: str
    starter: str
    road: str
    facing: int
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Span:
    seat: str
    span: str
    road: str
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Join:
    road: str
    span: int
    half: int


@attrs.frozen
class Bridge:
    seat: str
    bridge: str
    join: tuple[Join, Join]
    score: int | None = None
    comment: str | None = None


@attrs.frozen
class Block:
    seat: str
    block: str
    road: str
    score: int | None = None
    comment: str | None = None


Move = Union[Pass, Play, Exposed, Draw, Capture, Roll, Reuse, Starter, Span, Bridge, Block]

#: The key that tells each move shape apart, in the order they are tried.
MOVE_KEYS: dict[str, type] = {
    "pass": Pass,
    "play": Play,
    "exposed": Exposed,
    "draw": Draw,
    "capture": Capture,
    "roll": Roll,
    "reuse": Reuse,
    "starter": Starter,
    "span": Span,
    "bridge": Bridge,
    "block": Block,
}


# --- deals, hands, the game ------------------------------------------------


@attrs.frozen
class Redeal:
    seat: str
    hands: dict[str, tuple[str, ...]]


@attrs.frozen
class Deal:
    hands: dict[str, tuple[str, ...]]
    boneyard: tuple[str, ...] | None = None
    row: tuple[str, ...] | None = None
    piles: dict[str, tuple[str, ...]] | None = None
    lead_draw: dict[str, str] | None = None
    redeals: tuple[Redeal, ...] | None = None

    @property
    def empty(self) -> bool:
        """Nothing is known of it: no player's tiles and no public part (a hand started
        without its deal takes ``None`` for such a deal)."""
        return not self.hands and not any(attrs.astuple(self, recurse=False)[1:])


@attrs.frozen
class HandResult:
    scores: dict[str, int] | None = None
    end: str | None = None

    def claimed_scores(self, sides: Iterable[str]) -> dict[str, int] | None:
        """The points this result claims for the hand, for every one of ``sides``: a side left out
        of ``scores`` scored 0 (docs/format.md), so its 0 is a claim checked like a written one
        (``{"EW": 34}`` claims NS 0 too).  A key that is no side stays, for the check to name.
        ``None`` when no points are claimed at all (no ``scores``; a bare ``end`` line)."""
        if self.scores is None:
            return None
        return {**dict.fromkeys(sides, 0), **self.scores}


@attrs.frozen(kw_only=True)
class Hand:
    """One hand.  ``deal`` is ``None`` in two cases (format 1.1): a *score-sheet*
    hand (no moves, only ``result``: the scores as a paper sheet has them), and
    a hand still being recorded whose deal is not known yet (its moves are
    checked as far as the tiles shown allow; see :mod:`domrec.game`)."""

    leader: str | None = None
    deal: Deal | None = None
    moves: tuple[Move, ...] = ()
    result: HandResult | None = None
    comment: str | None = None

    @property
    def score_sheet(self) -> bool:
        """A hand recorded by its result alone: its play cannot be replayed."""
        return self.deal is None and not self.moves and self.result is not None


@attrs.frozen
class GameResult:
    scores: dict[str, int] | None = None
    #: ``None`` is a claimed draw; :data:`UNSET` means no winner is claimed.
    winner: Any = UNSET

    def claimed_scores(self, sides: Iterable[str]) -> dict[str, int] | None:
        """The final totals this result claims, for every one of ``sides``: a side left out of
        ``scores`` finished with 0 (docs/format.md), a claim checked like a written one, as a
        hand's is (:meth:`HandResult.claimed_scores`).  A key that is no side stays, for the check
        to name.  ``None`` when no totals are claimed at all (no ``scores``: a winner alone)."""
        if self.scores is None:
            return None
        return {**dict.fromkeys(sides, 0), **self.scores}


@attrs.frozen(kw_only=True)
class Record:
    format: str = FORMAT_NAME
    version: str = "1.0"
    game: str
    rules: Rules | None = None
    event: dict[str, Any] | None = None
    players: tuple[Player, ...]
    hands: tuple[Hand, ...] = ()
    #: Format 1.1: ``"time"`` when the game was stopped by the clock (an event's time limit)
    #: after its last hand, before any side reached the target; the side ahead then wins.
    ended: str | None = None
    result: GameResult | None = None

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players)

    @property
    def variant(self) -> str:
        return (self.rules.variant if self.rules and self.rules.variant else None) or "standard"

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.rules.options) if self.rules and self.rules.options else {}


# --- the converter -----------------------------------------------------------


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(detailed_validation=False)

    # Leaf types first: the generated class hooks look these up when made.
    conv.register_structure_hook(str | bool, lambda v, _: v)
    str_tuple = tuple[str, ...]
    conv.register_structure_hook_func(lambda t: t == str_tuple, lambda v, _: tuple(v))
    seat_tiles = dict[str, tuple[str, ...]]
    conv.register_structure_hook_func(lambda t: t == seat_tiles,
                                      lambda v, _: {k: tuple(x) for k, x in v.items()})
    conv.register_structure_hook(Any, lambda v, _: v)
    cells = tuple[tuple[int, int], tuple[int, int]] | None
    conv.register_structure_hook(cells, lambda v, _: None if v is None else (tuple(v[0]), tuple(v[1])))
    conv.register_unstructure_hook(cells, lambda v: None if v is None else [list(v[0]), list(v[1])])

    def omit_none(cls: type, keep: tuple[str, ...] = (), **renames: str) -> None:
        overrides = {name: override(rename=alias) for name, alias in renames.items()}
        for name in keep:
            overrides[name] = override(rename=renames.get(name), omit_if_default=False)
        conv.register_unstructure_hook(
            cls, make_dict_unstructure_fn(cls, conv, _cattrs_omit_if_default=True, **overrides)
        )
        conv.register_structure_hook(cls, make_dict_structure_fn(cls, conv, **overrides))

    omit_none(Pass, keep=("passed",), passed="pass")
    omit_none(Reuse, keep=("reuse",))
    for cls in (Play, Exposed, Draw, Capture, Roll, Starter, Span, Join, Bridge, Block):
        omit_none(cls)

    conv.register_structure_hook(Move, lambda d, _: structure_move(d))
    # A hand's moves are the bulk of every record: build them without the
    # generic tuple machinery.
    moves_type = tuple[Move, ...]
    conv.register_structure_hook_func(
        lambda t: t == moves_type, lambda moves, _: structure_moves(moves))
    conv.register_unstructure_hook(Move, lambda m: conv.unstructure(m, type(m)))

    # ``winner: null`` (a draw) and a missing winner are different claims.
    conv.register_unstructure_hook(GameResult, _unstructure_game_result)
    conv.register_structure_hook(GameResult, lambda d, _: GameResult(
        scores=dict(d["scores"]) if "scores" in d else None, winner=d.get("winner", UNSET)))

    for cls in (Player, Rules, Redeal, Deal, HandResult):
        omit_none(cls)
    omit_none(Hand, keep=("moves",))
    # A score-sheet hand (format 1.1) is written as its result alone, without "moves": [].
    hand_dict = conv.get_unstructure_hook(Hand)

    def unstructure_hand(hand: Hand) -> dict:
        out = hand_dict(hand)
        if hand.deal is None and not hand.moves:
            del out["moves"]
        # People read a hand top down: who led, the deal, the moves, the result.
        return {k: out[k] for k in ("leader", "comment", "deal", "moves", "result") if k in out}

    conv.register_unstructure_hook(Hand, unstructure_hand)
    omit_none(Record, keep=("format", "version", "hands"))
    return conv


#: A move's keys, in the order written -> a function building its attrs value.
_MOVE_BUILDERS: dict[tuple[str, ...], Callable[[dict], Any]] = {}
_FIELD = {"pass": "passed"}
_EXPR = {
    "at": "(tuple(d['at'][0]), tuple(d['at'][1]))",
    "capture": "tuple(d['capture'])",
    "roll": "tuple(d['roll'])",
    "join": "tuple([Join(road=j['road'], span=j['span'], half=j['half']) for j in d['join']])",
}


def move_builder_code(keys: tuple[str, ...], guard: str | None = None) -> tuple[list[str], dict[str, Any]]:
    """The source lines and namespace of the function that builds a move written with ``keys``.

    :func:`move_builder` compiles it once per key pattern and caches it.

    Moves are most of a record, so this is the hot path of reading: the
    generated function fills the frozen, slotted instance through its slot
    descriptors (C calls) instead of the frozen ``__init__``'s per-field
    ``object.__setattr__``, which more than halves the cost.  Fields the
    record leaves out get their declared defaults.  The converter's Move hook
    uses the same builders, so ``converter.structure(d, Move)`` gives the same values.

    ``guard``, an expression over the move ``d`` (and a namespace entry
    ``GOOD``), makes the function return ``None`` unless it holds: the shape
    check uses it to test and build a move in one call.
    """
    kind = next((k for k in keys if k in MOVE_KEYS), None)
    if kind is None:
        raise ValueError(f"not a move: {keys}")
    cls = MOVE_KEYS[kind]
    given = {_FIELD.get(k, k): _EXPR.get(k, f"d[{k!r}]") for k in keys}
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls, "Join": Join}
    lines = ["def build(d):"]
    if guard is not None:
        lines.append(f"    if not ({guard}):\n        return None")
    lines.append("    o = new(cls)")
    for field in attrs.fields(cls):
        namespace[f"set_{field.name}"] = cls.__dict__[field.name].__set__
        if field.name in given:
            value = given[field.name]
        else:
            namespace[f"default_{field.name}"] = field.default
            value = f"default_{field.name}"
        lines.append(f"    set_{field.name}(o, {value})")
    lines.append("    return o")
    return lines, namespace


def _move_builder(keys: tuple[str, ...], guard: str | None = None,
                  extra: dict[str, Any] | None = None) -> Callable[[dict], Any]:
    lines, namespace = move_builder_code(keys, guard)
    namespace.update(extra or {})
    exec("\n".join(lines) + "\n", namespace)
    return namespace["build"]


def guarded_move_builder(keys: tuple[str, ...], guard: str, names: dict[str, Any]) -> Callable[[dict], Any]:
    """A builder that first tests ``guard`` and returns ``None`` when it fails (see above)."""
    return _move_builder(keys, guard, names)


def structure_move(data: dict) -> Any:
    """One move dict (shape-checked) to its attrs value."""
    return move_builder(tuple(data))(data)


def move_builder(keys: tuple[str, ...]) -> Callable[[dict], Any]:
    """The (cached) builder for moves written with these keys, in this order."""
    build = _MOVE_BUILDERS.get(keys)
    if build is None:
        build = _MOVE_BUILDERS[keys] = _move_builder(keys)
    return build


def structure_with_moves(data: dict, hand_moves: list[tuple[Any, ...]]) -> Record:
    """A :class:`Record` whose hands' moves were already built (by the shape check).

    The hands, deals and results are built here directly rather than through the
    converter: for a big archive that is a tenth of reading every record, and the
    values are the same (tests/test_record.py holds the two routes to it)."""
    conv = converter
    return Record(
        format=data["format"], version=data["version"], game=data["game"],
        rules=conv.structure(data["rules"], Rules) if "rules" in data else None,
        event=dict(data["event"]) if "event" in data else None,
        players=tuple([Player(p["seat"], p["name"], p.get("id")) for p in data["players"]]),
        hands=tuple(_hand(h, moves) for h, moves in zip(data["hands"], hand_moves)), ended=data.get("ended"),
        result=conv.structure(data["result"], GameResult) if "result" in data else None)


def _maker(cls: type) -> Callable[..., Any]:
    """A function building ``cls`` from all its fields, in order, through the slots' own setters:
    the frozen ``__init__`` calls ``object.__setattr__`` once per field, which costs twice as much.
    Only for values already checked (hands, deals and results of a shape-checked record)."""
    names = [f.name for f in attrs.fields(cls)]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines = [f"def make({', '.join(names)}):", "    o = new(cls)"]
    for name in names:
        namespace[f"set_{name}"] = cls.__dict__[name].__set__
        lines.append(f"    set_{name}(o, {name})")
    lines.append("    return o")
    exec("\n".join(lines) + "\n", namespace)
    return namespace["make"]


_make_hand, _make_deal, _make_result = _maker(Hand), _maker(Deal), _maker(HandResult)


def _hand(h: dict, moves: tuple[Any, ...]) -> Hand:
    deal = h.get("deal")
    result = h.get("result")
    return _make_hand(h.get("leader"), None if deal is None else _deal(deal), moves,
                      None if result is None else _make_result(
                          dict(result["scores"]) if "scores" in result else None, result.get("end")),
                      h.get("comment"))


def _seat_tiles(hands: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    return {seat: tuple(tiles) for seat, tiles in hands.items()}


def _deal(d: dict) -> Deal:
    hands = _seat_tiles(d["hands"])
    if len(d) == 1:  # most deals: the players' hands alone
        return _make_deal(hands, None, None, None, None, None)
    get = d.get
    boneyard, row, piles, lead_draw, redeals = get("boneyard"), get("row"), get("piles"), get("lead_draw"), get("redeals")
    return _make_deal(hands, None if boneyard is None else tuple(boneyard), None if row is None else tuple(row),
                      None if piles is None else _seat_tiles(piles), None if lead_draw is None else dict(lead_draw),
                      None if redeals is None else tuple([Redeal(r["seat"], _seat_tiles(r["hands"]))
                                                          for r in redeals]))


def structure_moves(moves: list[dict]) -> tuple[Any, ...]:
    """A hand's moves: :func:`structure_move` inlined, as this loop is the bulk of reading."""
    get = _MOVE_BUILDERS.get
    out = []
    for data in moves:
        build = get(tuple(data))
        if build is None:
            keys = tuple(data)
            build = _MOVE_BUILDERS[keys] = _move_builder(keys)
        out.append(build(data))
    return tuple(out)


def _unstructure_game_result(result: GameResult) -> dict:
    out: dict[str, Any] = {}
    if result.scores is not None:
        out["scores"] = dict(result.scores)
    if result.winner is not UNSET:
        out["winner"] = result.winner
    return out


class _MadeWhenUsed:
    """The converter, made at its first use rather than at import: making its hooks is about a
    tenth of a command's start (20 ms), and many commands never use it (``tournament standings``,
    ``domrec validate`` of JSON).  Each attribute asked for is kept, so later calls cost what
    the converter's own do."""

    def __getattr__(self, name: str) -> Any:
        made = self.__dict__.get("_made")
        if made is None:
            made = self.__dict__["_made"] = _make_converter()
        value = getattr(made, name)
        setattr(self, name, value)
        return value


converter: cattrs.Converter = _MadeWhenUsed()  # type: ignore[assignment]


def structure(data: dict) -> Record:
    """Build a :class:`Record` from a shape-checked dict."""
    return converter.structure(data, Record)


def unstructure(record: Record) -> dict:
    """The record as JSON-ready data, optional parts left out as they were."""
    return converter.unstructure(record, Record)


def move_to_dict(move: Move) -> dict:
    return converter.unstructure(move, type(move))


class HandTexts:
    """Texts worked out from a game's hands, kept between writes of the same game.

    The recorder saves the whole game after every move, and a closed hand is the same frozen
    value from one save to the next (:class:`domrec.game.Game` keeps it): writing every hand
    again at every save made recording a long game quadratic (a Horse Race game of 30 hands
    spent nine tenths of its time writing its closed hands over again).  A text is kept under the
    hand's identity and what else it depends on, with the hand itself, so that an identity Python
    gives again to a new value never finds an old text.  Each write keeps only the texts of the
    hands it wrote (:meth:`keep_only`): a hand taken back or replaced is forgotten.  Not for
    sharing between threads: one writer (one recorder) owns one."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, Any], tuple[Hand, Any]] = {}

    def get(self, hand: Hand, key: Any, make: Callable[[], Any]) -> Any:
        """The text ``make()`` gives for ``hand`` under ``key`` (what else the text depends on),
        made once."""
        found = self._kept.get((id(hand), key))
        if found is not None and found[0] is hand:
            return found[1]
        made = make()
        self._kept[(id(hand), key)] = (hand, made)
        return made

    def keep_only(self, hands: Iterable[Hand]) -> None:
        """Forget the texts of every hand but ``hands`` (those of the record just written)."""
        ids = {id(h) for h in hands}
        self._kept = {k: v for k, v in self._kept.items() if k[0] in ids}


def pretty_record(record: Record, kept: HandTexts | None = None) -> str:
    """``pretty(unstructure(record))``, each hand's part taken from ``kept`` where that hand was
    written before (:class:`HandTexts`): the same text."""
    if kept is None or not record.hands:
        return pretty(unstructure(record))
    import json

    data = unstructure(attrs.evolve(record, hands=()))
    hands = [kept.get(h, "json", lambda h=h: pretty(converter.unstructure(h, Hand), 4)) for h in record.hands]
    kept.keep_only(record.hands)
    block = "[\n" + ",\n".join("    " + t for t in hands) + "\n  ]"
    # (pretty's own layout of a record: never flat, one key a line, the hands as a list of objects)
    items = [f"  {json.dumps(k, ensure_ascii=False)}: {block if k == 'hands' else pretty(v, 2)}" for k, v in data.items()]
    return "{\n" + ",\n".join(items) + "\n}"


def pretty(data: Any, indent: int = 0) -> str:
    """JSON for people: one line per move, tile list or small object, nested parts indented.

    Used for the samples and anything written to be read at a club table.
    """
    import json

    def flat(v: Any) -> bool:
        if isinstance(v, dict):
            return all(not isinstance(x, (dict, list)) or (isinstance(x, list) and all(
                not isinstance(y, (dict, list)) or (isinstance(y, list) and all(not isinstance(z, (dict, list)) for z in y))
                for y in x)) for x in v.values())
        if isinstance(v, list):
            return all(not isinstance(x, (dict, list)) for x in v) or all(
                isinstance(x, list) and all(not isinstance(y, (dict, list)) for y in x) for x in v)
        return True

    pad, inner = " " * indent, " " * (indent + 2)
    if flat(data):
        return json.dumps(data, ensure_ascii=False)
    if isinstance(data, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {pretty(v, indent + 2)}" for k, v in data.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [f"{inner}{pretty(v, indent + 2)}" for v in data]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"
