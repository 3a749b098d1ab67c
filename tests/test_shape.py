"""The fast shape check must accept and reject exactly what the JSON Schema does.

The schema (schemas/domrec-1.schema.json) is the published contract; the
hand-written check in domrec.shape is the fast route the validator takes.
Hypothesis corrupts sample records at random places and both must agree.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domrec import shape
from domrec.errors import InputError, ShapeError
from domrec.reader import upgrade

from tests.conftest import SAMPLES, examples

DOCS = [json.loads(p.read_text()) for p in sorted((SAMPLES / "valid").rglob("*.json"))]


def fast_ok(doc) -> bool:
    try:
        shape.check(upgrade(doc))
    except InputError:
        return False
    return True


def paths(node, prefix=()):
    """Every (container path, key) in a document."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(paths(v, prefix + (k,)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(paths(v, prefix + (i,)))
    return out


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


REPLACEMENTS = [None, True, False, 0, 1, -3, 2.5, 3.0, "", "x", "6-3", "7-13", "6-3 ", "pass", [], [1, 2], ["6-3"],
                [[0, 0], [0, 1]], {}, {"seat": "N"}, {"N": ["6-3"]}, "standard", "celko", "any", "auto", 10 ** 6,
                "6-3\n", "1.0\n", "٦-٣", "²", {"a/b": 1, "~": [2]}, "x" * 33]
KEYS = ["seat", "play", "pass", "on", "at", "score", "draw", "x", "variant", "options", "leader", "end",
        "scores", "winner", "boneyard", "row", "piles", "lead_draw", "redeals", "hands", "moves", "result",
        "first_lead", "target", "name", "id", "penalty", "capture", "roll", "reuse", "a/b", "~0", "round"]


@st.composite
def corrupted(draw):
    doc = copy.deepcopy(draw(st.sampled_from(DOCS)))
    for _ in range(draw(st.integers(1, 2))):
        where = draw(st.sampled_from(paths(doc)))
        kind = draw(st.sampled_from(["replace", "delete", "add", "game"]))
        if kind == "game":
            doc["game"] = draw(st.sampled_from(["broadway", "competitive", "horse-race", "castle-rock",
                                                "domino-roads", "chess"]))
        elif not where:
            if kind == "add":
                doc[draw(st.sampled_from(KEYS))] = copy.deepcopy(draw(st.sampled_from(REPLACEMENTS)))
            continue
        else:
            parent, key = get(doc, where[:-1]), where[-1]
            if kind == "replace":
                parent[key] = copy.deepcopy(draw(st.sampled_from(REPLACEMENTS)))
            elif kind == "delete":
                del parent[key]
            else:
                target = get(doc, where)
                if isinstance(target, dict):
                    target[draw(st.sampled_from(KEYS))] = copy.deepcopy(draw(st.sampled_from(REPLACEMENTS)))
                elif isinstance(target, list):
                    target.append(copy.deepcopy(draw(st.sampled_from(REPLACEMENTS))))
    return doc


@pytest.mark.parametrize("doc", DOCS, ids=range(len(DOCS)))
def test_samples_agree(doc, schema_validator):
    assert fast_ok(doc) and schema_validator.is_valid(doc)


@settings(max_examples=examples(100, 400), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])  # (pytest --long: 400)
@given(corrupted())
def test_corrupted_records_get_the_same_verdict(schema_validator, doc):
    assert fast_ok(doc) == schema_validator.is_valid(doc), json.dumps(doc)[:2000]


#: Each deal part the usual hand's quick pass vouches for, written in the other part's form.
OTHER_FORM = {"hands": [], "piles": ["6-3"], "boneyard": {"N": ["6-3"]}, "row": {"P1": ["6-3"]}}


@pytest.mark.parametrize("part", sorted(OTHER_FORM))
def test_a_deal_part_in_another_parts_form_is_refused_where_it_is(part, schema_validator):
    """``"hands": []`` passed the usual hand's quick pass (a list of tiles, as a boneyard is) and
    the engine then failed with an internal error; every game whose deal has the part is tried."""
    from domrec.validate import validate_text

    tried = 0
    for doc in DOCS:
        hand = next((h for h in doc["hands"] if isinstance(h.get("deal"), dict) and part in h["deal"]), None)
        if hand is None:
            continue
        at = doc["hands"].index(hand)
        bad = copy.deepcopy(doc)
        bad["hands"][at]["deal"][part] = copy.deepcopy(OTHER_FORM[part])
        assert not fast_ok(bad) and not schema_validator.is_valid(bad)
        report = validate_text(json.dumps(bad).encode(), "bad.json")
        assert report.status == "unusable", report
        problem, = report.problems
        assert problem.pointer.startswith(f"/hands/{at}/deal/{part}"), problem
        assert "internal error" not in problem.message, problem
        tried += 1
    assert tried, f"no sample deals {part}"


@pytest.mark.parametrize("game,moves_ok,moves_bad", [
    ("competitive", [{"seat": "N", "play": "6-6", "on": "6-5"}], [{"seat": "N", "draw": "6-6"}]),
    ("horse-race", [{"seat": "N", "draw": True}, {"seat": "N", "draw": "2-0"}], [{"seat": "N", "capture": ["1-1"]}]),
    ("broadway", [{"seat": "N", "play": "6-6", "at": [[0, 0], [1, 0]], "penalty": True},
                  {"seat": "N", "exposed": "4-4", "unplayable": True}], [{"seat": "N", "play": "6-6"}]),
    ("castle-rock", [{"seat": "P1", "play": "1-4"}, {"seat": "P1", "capture": ["2-4", "4-4", "1-4"]}],
     [{"seat": "P1", "play": "1-4", "on": "1-1"}, {"seat": "P1", "capture": []}]),
    ("domino-roads", [{"seat": "S", "roll": [4, 3]}, {"seat": "W", "reuse": True},
                      {"seat": "S", "starter": "3-4", "road": "NS1", "facing": 4},
                      {"seat": "N", "span": "5-6", "road": "NS1"},
                      {"seat": "N", "bridge": "0-0", "join": [{"road": "A", "span": 2, "half": 6},
                                                              {"road": "B", "span": 1, "half": 4}]},
                      {"seat": "E", "block": "3-3", "road": "NS1"}],
     [{"seat": "S", "roll": [0, 7]}, {"seat": "S", "starter": "3-4", "road": "NS1"}]),
])
def test_each_games_move_shapes(game, moves_ok, moves_bad, schema_validator):
    base = {"format": "domrec", "version": "1.0", "game": game, "players": [{"seat": "N", "name": "A"}],
            "hands": [{"deal": {"hands": {}}, "moves": []}]}
    for move in moves_ok:
        doc = copy.deepcopy(base)
        doc["hands"][0]["moves"] = [move]
        assert fast_ok(doc) and schema_validator.is_valid(doc), move
    for move in moves_bad:
        doc = copy.deepcopy(base)
        doc["hands"][0]["moves"] = [move]
        assert not fast_ok(doc) and not schema_validator.is_valid(doc), move


def test_error_names_the_place_and_the_problem():
    doc = copy.deepcopy(DOCS[0])
    doc["hands"][0]["moves"][3]["scor"] = 1
    with pytest.raises(ShapeError) as e:
        shape.check(doc)
    assert e.value.pointer == "/hands/0/moves/3"
    assert "scor" in e.value.message


def _edited(game_sample: str, edit):
    doc = json.loads((SAMPLES / "valid" / game_sample).read_text())
    edit(doc)
    return doc


def _set(path, value):
    def edit(doc):
        get(doc, path[:-1])[path[-1]] = value
    return edit


_MOVE0 = ("hands", 0, "moves", 0)
EDGE_CASES = [
    # (sample, edit, accepted)
    ("competitive/domino.json", _set(_MOVE0 + ("play",), "6-6\n"), False),   # $ is the end of the text
    ("competitive/domino.json", _set(_MOVE0 + ("play",), "\n6-6"), False),
    ("competitive/domino.json", _set(_MOVE0 + ("play",), "٦-٦"), False),     # digits are 0-9 only
    ("competitive/domino.json", _set(("version",), "1.0\n"), False),
    ("competitive/domino.json", _set(("version",), "1.٣"), False),
    ("competitive/domino.json", _set(("version",), "².0"), False),
    ("competitive/domino.json", _set(("players",), []), False),
    ("competitive/domino.json", _set(("rules",), {}), True),
    ("competitive/domino.json", _set(("rules",), {"variant": "standard"}), True),
    ("competitive/domino.json", _set(("event",), {"anything": [1, {"a/b": None}], "round": 3}), True),
    ("competitive/domino.json", _set(("event",), {"round": True}), False),
    ("competitive/domino.json", _set(_MOVE0 + ("score",), 0.0), True),
    ("competitive/domino.json", _set(_MOVE0 + ("score",), False), False),
    ("competitive/domino.json", _set(("hands", 0, "result"), {"scores": {"a/b": 1, "~": 2}}), True),
    ("competitive/domino.json", _set(("hands", 0, "result"), {"scores": {"a/b": True}}), False),
    ("competitive/domino.json", _set(("hands", 0, "deal", "boneyard"), []), False),
    ("competitive/domino.json", _set(("hands", 0, "deal", "redeals"), []), True),
    ("competitive/domino.json", _set(("players", 0, "seat"), "x" * 33), False),
    ("competitive/domino.json", _set(("players", 0, "seat"), "😀" * 32), True),
    ("castle-rock/two-players.json", _set(("hands", 0, "deal", "row", 0), "1-1\n"), False),
    ("horse-race/chain-draw.json", _set(("hands", 0, "deal", "row"), []), False),
    ("domino-roads/three-players-pile-top-up.json", _set(("hands", 0, "deal", "lead_draw"), {}), False),
]


@pytest.mark.parametrize("sample,edit,accepted", EDGE_CASES, ids=range(len(EDGE_CASES)))
def test_edge_cases_get_the_same_verdict(sample, edit, accepted, schema_validator):
    doc = _edited(sample, edit)
    assert schema_validator.is_valid(doc) == accepted
    assert fast_ok(doc) == accepted


# The generated guard (shape._FAST_EXPR) may build a move without the field checks
# only when those checks would pass: otherwise a bad move could slip through.
_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.floats(-3, 40) | st.sampled_from(["", "6-3", "x"]),
    lambda inner: st.lists(inner, max_size=3), max_leaves=8)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(at=st.one_of(_JSONISH, st.lists(st.lists(st.integers(-3, 40) | st.booleans() | st.floats(0, 3),
                                                   min_size=1, max_size=3), min_size=1, max_size=3)),
       penalty=st.one_of(st.just(True), _JSONISH), unplayable=st.one_of(st.just(True), _JSONISH))
def test_broadway_fast_guard_builds_only_moves_the_checks_accept(at, penalty, unplayable):
    for move, kind in (({"seat": "N", "play": "6-3", "at": at}, "place"),
                       ({"seat": "N", "play": "6-3", "at": at, "penalty": penalty}, "place"),
                       ({"seat": "N", "exposed": "6-3", "unplayable": unplayable}, "exposed")):
        built = shape._check_and_build(tuple(move))(move)
        checks = shape.MOVE_SHAPES[kind][2]
        try:
            for key, value in move.items():
                checks[key](value, f"/hands/0/moves/0/{key}")
        except ShapeError:
            assert built is None, move
        else:
            # A move the checks accept with exact numbers is built on the fast path.
            exact = all(type(c) is int for cell in move.get("at", [[0]]) for c in cell)
            assert built is not None or not exact, move


# A good move, then moves that equal it in Python (1 == True, a list for its text) but break the
# format: the cache of moves already seen must never let one through.
_LOOKALIKES = [
    ("competitive", {"seat": "N", "pass": True}, [({"seat": "N", "pass": 1}, "/pass")]),
    ("competitive", {"seat": "N", "play": "6-3", "score": 1},
     [({"seat": "N", "play": "6-3", "score": True}, "/score"), ({"seat": "N", "play": "6-3", "score": 1.5}, "/score")]),
    ("horse-race", {"seat": "N", "draw": True}, [({"seat": "N", "draw": 1}, "/draw")]),
    ("castle-rock", {"seat": "N", "capture": ["6-3"]},
     [({"seat": "N", "capture": "6-3"}, "/capture"), ({"seat": "N", "capture": [["6-3"]]}, "/capture/0")]),
    ("domino-roads", {"seat": "N", "roll": [1, 1]}, [({"seat": "N", "roll": [1, True]}, "/roll/1")]),
    ("domino-roads", {"seat": "N", "reuse": True}, [({"seat": "N", "reuse": 1}, "/reuse")]),
    ("domino-roads", {"seat": "N", "starter": "3-4", "road": "NS1", "facing": 1},
     [({"seat": "N", "starter": "3-4", "road": "NS1", "facing": True}, "/facing")]),
]


@pytest.mark.parametrize("game,good,bad", _LOOKALIKES)
def test_a_move_seen_before_is_shared_and_never_stands_in_for_a_lookalike(game, good, bad, schema_validator):
    room = shape._ROOM[0]
    shape._ROOM[0] = 10  # room in the cache, whatever ran before in this process
    try:
        _lookalikes(game, good, bad, schema_validator)
    finally:
        shape._ROOM[0] = room


def _lookalikes(game, good, bad, schema_validator):
    def doc(move):
        return {"format": "domrec", "version": "1.0", "game": game, "players": [{"seat": "N", "name": "A"}],
                "hands": [{"deal": {"hands": {}}, "moves": [dict(move)]}]}

    shape.check(doc(good))  # its tiles and seat are now known good
    first: list = []
    shape.check(doc(good), first)
    again: list = []
    shape.check(doc(good), again)
    assert again[0][0] is first[0][0]  # written the same way again: the same value
    for move, where in bad:
        with pytest.raises(ShapeError) as e:
            shape.check(doc(move))
        assert e.value.pointer == "/hands/0/moves/0" + where, move
        assert not schema_validator.is_valid(doc(move)), move


_END = st.one_of(_JSONISH, st.fixed_dictionaries(
    {"road": st.sampled_from(["A", "", 1]), "span": st.sampled_from([1, 2, 0, True, 1.0, "1"]),
     "half": st.sampled_from([0, 6, 7, -1, False, 6.0])},
    optional={"x": st.just(1)}))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(join=st.one_of(_JSONISH, st.lists(_END, min_size=0, max_size=3)))
def test_roads_fast_guard_builds_only_bridges_the_checks_accept(join):
    shape._GOOD_TILES.add("0-0")
    move = {"seat": "N", "bridge": "0-0", "join": join}
    built = shape._check_and_build(tuple(move))(move)
    try:
        shape.MOVE_SHAPES["bridge"][2]["join"](join, "/hands/0/moves/0/join")
    except ShapeError:
        assert built is None, move
    else:
        exact = all(type(e[k]) is int for e in join for k in ("span", "half"))
        assert built is not None or not exact, move
