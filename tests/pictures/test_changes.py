"""The changes from one position to the next: made on the first, they give exactly the second
(as JSON: a ``True`` is never taken for a ``1``, nor ``1`` for ``1.0``), and they are never longer
than writing the second out whole."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from domrec.pictures.changes import apply, changes
from tests.conftest import examples

KEYS = st.sampled_from(["a", "b", "board", "racks", "N", "P1", "__proto__", "a.b", "1", ""])
SCALARS = (st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, 1.0, 2.5, -0.5])
           | st.text(alphabet="ab-c 😀\n", max_size=6))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=4),
                      max_leaves=25)


def as_json(value) -> str:
    """The value as JSON, keys sorted: a dict's order is not part of a position."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@settings(max_examples=examples(100, 400), deadline=None)
@given(before=VALUES, after=VALUES)
def test_the_changes_made_on_the_first_give_the_second(before, after):
    edits = changes(before, after)
    assert as_json(apply(before, edits)) == as_json(after)
    assert len(as_json(edits)) <= len(as_json([[[], after]]))


@settings(max_examples=examples(50, 200), deadline=None)
@given(before=st.dictionaries(KEYS, VALUES, max_size=5), data=st.data())
def test_a_small_change_is_a_small_edit(before, data):
    """A position and the same with one value changed, a list grown or shrunk: the edits say that
    much, and the first value is left as it was."""
    after = json.loads(json.dumps(before))
    key = data.draw(KEYS)
    after[key] = data.draw(VALUES)
    kept = as_json(before)
    edits = changes(before, after)
    assert as_json(before) == kept
    assert as_json(apply(before, edits)) == as_json(after)
    assert all(edit[0][:1] == [key] for edit in edits)


def test_the_edits_of_a_move():
    line = [[6, 6], [6, 1], [1, 1], [1, 3]]
    before = {"racks": [["N", [[6, 4], [5, 5], [2, 1]]]], "turn": "N", "board": {"line": line, "hot": 3}}
    after = {"racks": [["N", [[6, 4], [2, 1]]]], "turn": "E", "board": {"line": [*line, [3, 5]], "hot": 4}}
    assert changes(before, after) == [[["racks", 0, 1], 1, 1], [["turn"], "E"],
                                      [["board", "line"], 4, 0, [[3, 5]]], [["board", "hot"], 4]]
    assert changes({"words": "Turn 3: N has the dice"}, {"words": "Turn 4: E has the dice"}) == [
        [["words"], 5, 13, "4: E"]]
    assert changes({"n": 1}, {"n": True}) == [[["n"], True]]


@settings(max_examples=examples(120, 500), deadline=None)
@given(a=VALUES, b=VALUES, data=st.data())
def test_two_values_are_the_same_exactly_when_their_json_is(a, b, data):
    """``_same`` stands for writing both values as JSON and comparing the texts (the page's bytes
    depend on it): tuples are arrays, a dict's order counts, ``1``, ``1.0`` and ``True`` differ."""
    from domrec.pictures.changes import _json, _same

    copy = json.loads(json.dumps(a))
    assert _same(a, copy)
    assert _same(a, b) == (_json(a) == _json(b))
    if isinstance(a, dict) and len(a) > 1:
        turned = dict(reversed(list(a.items())))
        assert _same(a, turned) == (_json(a) == _json(turned))
    assert _same(a, _tupled(copy))  # lists as tuples, as a scene may hold them: the same arrays


def _tupled(value):
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    if isinstance(value, dict):
        return {k: _tupled(v) for k, v in value.items()}
    return value


def test_the_same_and_not_the_same():
    from domrec.pictures.changes import _same

    assert _same([1, [2.5, "a"]], ((1, (2.5, "a"))))
    assert not _same(1, 1.0) and not _same(1, True) and not _same(0.0, -0.0) and not _same(None, 0)
    assert not _same({"a": 1, "b": 2}, {"b": 2, "a": 1})  # written in another order: another text
    assert _same({1: "x"}, {"1": "x"})  # a key that is not a string is written as one


@settings(max_examples=200, deadline=None)
@given(before=VALUES, after=VALUES)
def test_the_edits_share_nothing_with_the_second_value(before, after):
    """The new value is copied into an edit only when writing it whole is chosen (issue 39: a
    copy at every level was most of a replay page's making); either way an edit never shares a
    list or a dict with ``after``, which the page's maker goes on building."""
    edits = changes(before, after)
    written = json.dumps(edits)

    def containers(value, out):
        if isinstance(value, (list, dict)):
            out.add(id(value))
            for item in (value.values() if isinstance(value, dict) else value):
                containers(item, out)
        return out

    assert not (containers(after, set()) & containers([e[1:] for e in edits], set()))
    assert json.dumps(edits) == written


def test_which_positions_compare_their_lists_items_by_equality_alone():
    """``steps`` compares a list's ends with ``==`` alone (no ``repr``: a fifth of a replay page's
    making, issue 39) only where that is their equality as JSON: no boolean, no float, no dict in
    a list anywhere in either value."""
    from domrec.pictures.changes import _equal_is_json, _json

    position = {"racks": [["N", [[6, 1], [5, 0]]]], "turn": "E", "scores": [["NS", 0], ["EW", -3]],
                "board": {"line": [[2, 4]], "hot": 0}, "ended": None}
    assert _equal_is_json(_json(position))
    for odd in (True, False, 1.5, 3.0, 1e16, [{"a": 1}], [[{"a": 1}]], [1, {"b": 2}]):
        assert not _equal_is_json(_json({**position, "x": odd})), odd


@settings(max_examples=examples(120, 500), deadline=None)
@given(values=st.lists(VALUES, min_size=2, max_size=5))
def test_steps_are_each_pair_of_values_changes(values):
    """However ``steps`` compares (by ``==`` alone where :func:`_equal_is_json` allows), its edits
    are those of ``changes`` for each value and the next, with and without floats read back."""
    from domrec.pictures.changes import steps

    assert steps(values) == [changes(a, b) for a, b in zip(values, values[1:])]
    assert repr(steps(values)) == repr([changes(a, b) for a, b in zip(values, values[1:])])


def test_steps_see_one_for_true_in_an_unchanged_looking_list():
    """``[1, 2]`` then ``[True, 2]``: equal to Python, not as JSON; and whole floats read back as
    integers (the replay page's reading) compare as integers."""
    from domrec.pictures.changes import steps

    assert steps([{"a": [1, 2, 3]}, {"a": [True, 2, 3]}]) == [[[["a", 0], True]]]
    read = lambda text: int(float(text)) if float(text).is_integer() else float(text)  # noqa: E731
    assert steps([{"a": [[1.0, 2], 7]}, {"a": [[1, 2], 8]}], read) == [[[["a", 1], 8]]]


@settings(max_examples=examples(120, 500), deadline=None)
@given(values=st.lists(VALUES, min_size=2, max_size=5))
def test_steps_with_numbers_read_back_are_the_changes_of_the_values_so_read(values):
    """The replay page's reading (a whole float read as an integer): the edits are ``changes`` of
    the values as read, whether or not a position's text lets its size be taken from it."""
    from domrec.pictures.changes import _json, steps

    def read(text):
        value = float(text)
        return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value

    as_read = [json.loads(_json(v), parse_float=read) for v in values]
    expected = [changes(a, b) for a, b in zip(as_read, as_read[1:])]
    assert repr(steps(values, read)) == repr(expected)
