"""What changed from one position to the next, as the few edits that make one from the other.

The replay page carries each hand's first position whole and every later one as its changes
from the one before (a tile leaves a rack, one more lies on the board, the turn passes): a
few dozen bytes a move where a picture took twenty thousand.  The page's script applies them
(``applyChanges`` in replay.js) and draws the position; :func:`apply` is the same in Python,
for the tests.

Values are plain JSON (dicts with string keys, lists, strings, numbers, booleans, ``None``).
An edit is a list, told apart by its length and its last item:

- ``[path]``: delete the key at ``path`` (a dict's);
- ``[path, value]``: set the value at ``path``;
- ``[path, start, count, items]`` (``items`` a list): replace ``count`` items of the list at
  ``path`` from ``start`` with ``items``; ``[path, start, count]``: remove them;
- ``[path, keep, keep_end, middle]`` (``middle`` a string): keep the first ``keep`` and the
  last ``keep_end`` characters of the string at ``path``, with ``middle`` between.

``path`` is a list of dict keys and list indexes from the top; a string's characters are
counted as a browser counts them (UTF-16 units), so an edit of a string outside the Basic
Multilingual Plane is simply a new value.  Of two ways to write a change the shorter is
chosen; the result is always exactly the next value (equal as JSON, a ``True`` never taken
for a ``1``), but for the order of a dict's keys, which no drawing reads.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

try:  # a well-kept C reader; the standard library's where it is missing
    import orjson as _orjson
except ImportError:  # pragma: no cover
    _orjson = None

Path = list


def _unwritable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


try:  # JSON as the page writes it, by the C encoder made once: ``json.dumps`` with options makes one
    # a call, and its cost, not the writing, was most of a small edit's (the sizes compared below).
    from json.encoder import c_make_encoder, encode_basestring

    _write = c_make_encoder(None, _unwritable, encode_basestring, None, ":", ",", False, False, True)

    def _json(value: Any) -> str:
        written = _write(value, 0)  # a small value comes back as one piece: no joining
        return written[0] if len(written) == 1 else "".join(written)
except (ImportError, TypeError):  # pragma: no cover  (a Python without the C accelerator)
    _json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _plain(value: Any) -> Any:
    """``value`` as a fresh copy of its JSON: lists for tuples, string keys, nothing shared with the
    caller's value.  Two such values are the same JSON exactly when their ``repr`` is the same
    (a dict's order, ``1``, ``1.0`` and ``True`` all show in it), and that is compared at C speed."""
    return json.loads(_json(value))


def _same(a: Any, b: Any) -> bool:
    """``_json(a) == _json(b)`` without writing either: the replay page asks it of every part of
    every position, and writing a part again at each level of its nesting cost half the page's
    making.  Lists and tuples are both JSON arrays; a dict's keys must come in the same order (they
    are written in it); a float is written as its ``repr`` (``1.0`` is not ``1``, nor ``-0.0``
    ``0.0``), ``True`` is not ``1``; anything else (a key that is not a string) is written."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if ta in (list, tuple) and tb in (list, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if ta is not tb:
        return _json(a) == _json(b) if ta not in _PLAIN or tb not in _PLAIN else False
    if ta is dict:
        if len(a) != len(b) or not all(type(k) is str for k in a) or not all(type(k) is str for k in b):
            return _json(a) == _json(b)
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if ta is float:
        return repr(a) == repr(b)
    if ta in _PLAIN:
        return a == b
    return _json(a) == _json(b)


#: The types :func:`_same` compares itself (a value of another type is written to be compared).
_PLAIN = frozenset({dict, list, tuple, str, int, float, bool, type(None)})


def _bmp(text: str) -> bool:
    return all(ord(c) < 0x10000 for c in text)


def changes(before: Any, after: Any, path: Path | None = None) -> list:
    """The edits that turn ``before`` into ``after`` (none when they are the same JSON)."""
    return _changes(_plain(before), _plain(after), [] if path is None else list(path))[0]


def steps(values: list, parse_float: Callable[[str], Any] | None = None) -> list[list]:
    """The changes from each value of ``values`` to the next (``changes(a, b)`` for every pair):
    each value written as JSON and read back once, not once as the new value and again as the old.
    ``parse_float``: how the numbers written with a point or an exponent are read back (the replay
    page writes a whole one as an integer), the changes made between the values so read."""
    texts = [_json(v) for v in values]
    slow = json.JSONDecoder(parse_float=parse_float).decode if parse_float else json.loads  # one reader
    plain = [_read(t, slow) for t in texts]
    alike = [_equal_is_json(t) for t in texts]
    if parse_float:  # the numbers read back may be written shorter than in the text: unless it has none
        return [_changes(a, b, [], None if _has_float(t) else len(t) + 7, x and y)[0]
                for a, b, t, x, y in zip(plain, plain[1:], texts[1:], alike, alike[1:])]
    return [_changes(a, b, [], len(t) + 7, x and y)[0]
            for a, b, t, x, y in zip(plain, plain[1:], texts[1:], alike, alike[1:])]


def _read(text: str, slow: Callable[[str], Any]) -> Any:
    """The value of the JSON ``text``: read by orjson (in C, several times faster than :mod:`json`)
    when ``text`` holds no float, whose reading ``slow`` may do its own way (``parse_float``); a
    number orjson does not take (an integer past 64 bits) falls back to ``slow``.  Both give the
    same lists, dicts, strings and integers for such a text."""
    if _orjson is None or _has_float(text):
        return slow(text)
    try:
        return _orjson.loads(text)
    except _orjson.JSONDecodeError:
        return slow(text)


#: What the JSON of a value holds where ``==`` of its items may not be their equality as JSON:
#: ``true``, ``false`` (``True == 1``), a float (``1.0 == 1``: Python writes one with a point or
#: an exponent, ``1e+16``) and a dict that is an item of a list (``==`` does not see a dict's
#: order; its ``{`` comes after a list's ``[`` or an item's ``,``, a dict's value after a ``:``).
#: Any of them inside a string only costs the slower comparison.
_NOT_ALIKE = ("true", "false", ".", "e+", "e-", "[{", ",{")


def _has_float(text: str) -> bool:
    """Whether the JSON ``text`` may hold a float: Python writes one with a point or an exponent
    (``1e+16``), and JSON has no other way (``Infinity`` is read as it is written)."""
    return "." in text or "e+" in text or "e-" in text


def _equal_is_json(text: str) -> bool:
    """Whether, in the value ``text`` is the JSON of, Python's ``==`` of two items of a list is
    already their equality as JSON: no ``true`` or ``false`` (``True == 1``), no float (``1.0 ==
    1``) and no dict inside a list (``==`` does not see a dict's order).  The replay page's
    positions are such values: their lists' ends are then compared without ``repr``."""
    return ("true" not in text and "false" not in text and "." not in text and "e+" not in text
            and "e-" not in text and "[{" not in text and ",{" not in text)  # _NOT_ALIKE, one by one


#: The edits of a value, and the length of their JSON inside its brackets (``len(_json(edits)) - 2``):
#: every edit is written once, when it is made, and a list of edits counted from its parts.
Edits = tuple[list, int]
NONE: Edits = ([], 0)


def _joined(parts: list[Edits]) -> Edits:
    """Edits one after another: the edits, and their JSON's length with the commas between."""
    edits: list = []
    body = 0
    for more, size in parts:
        if more:
            body += size + (1 if edits else 0)
            edits += more
    return edits, body


def _one(edit: list) -> Edits:
    return [edit], len(_json(edit))


def _changes(before: Any, after: Any, path: Path, whole_size: int | None = None, alike: bool = False) -> Edits:
    """:func:`changes` of two plain values (:func:`_plain`), with their size: an edit may hold parts
    of ``after`` itself, a copy no caller shares.  ``whole_size``: the length of ``[[path, after]]``
    as JSON, when the caller knows it.  ``alike``: both values are ones :func:`_equal_is_json`
    holds of, whose lists' items need no ``repr`` to be compared."""
    if _same_plain(before, after):
        return NONE
    # The whole new value is the edit to beat (its JSON, inside the list's brackets: whole_size - 2),
    # written only when the edits are not plainly shorter than any JSON of ``after`` could be.
    tb = type(before)
    if tb is dict and type(after) is dict:
        # A key whose value is the same is passed over here (most of a position stays as it was
        # from one move to the next): the same edits as asking _changes of it, none, without the call.
        parts = []
        for key, value in after.items():
            if key in before:
                old = before[key]
                if old is not value and (old != value or repr(old) != repr(value)):
                    parts.append(_changes(old, value, [*path, key], None, alike))
            else:
                parts.append(_one([[*path, key], value]))
        parts += [_one([[*path, key]]) for key in before if key not in after]
        edits = _joined(parts)
        return _shorter(edits, path, after, whole_size)
    if tb is list and type(after) is list:
        return _shorter(_list_changes(before, after, path, alike), path, after, whole_size)
    if whole_size is None:
        whole_size = len(_json([[path, after]]))
    whole = ([[path, after]], whole_size - 2)
    if tb is str and type(after) is str and _bmp(before) and _bmp(after):
        keep = 0
        while keep < min(len(before), len(after)) and before[keep] == after[keep]:
            keep += 1
        end = 0
        while end < min(len(before), len(after)) - keep and before[-1 - end] == after[-1 - end]:
            end += 1
        splice = _one([path, keep, end, after[keep:len(after) - end]])
        return splice if splice[1] <= whole[1] else whole
    return whole


def _shorter(edits: Edits, path: Path, after: Any, whole_size: int | None) -> Edits:
    """``edits``, or writing ``after`` whole at ``path`` when that is shorter.  The edits are known
    to win at once when they are no longer than a bound under any JSON of ``[path, after]`` (each
    item at least a character, two for a list, a dict or a string, the commas, each key its quotes
    and colon); else ``after`` is written out and measured."""
    body = edits[1]
    if whole_size is None:
        least = 3 + max(2 * len(path) + 1, 2)  # brackets and a comma; the path's brackets, items, commas
        if type(after) is list:
            least += 2 + sum(2 if type(x) in _WORDY else 1 for x in after) + max(len(after) - 1, 0)
        else:
            least += 2 + sum(len(k) + 4 + (1 if type(x) in _WORDY else 0) for k, x in after.items()) \
                + max(len(after) - 1, 0)
        if body <= least:
            return edits
        whole_size = len(_json([[path, after]]))
    return edits if body <= whole_size - 2 else ([[path, after]], whole_size - 2)


#: Values whose JSON takes at least two characters: ``[]``, ``{}``, ``""``.
_WORDY = frozenset({list, dict, str})


def _same_plain(a: Any, b: Any) -> bool:
    """:func:`_same` of two plain values (:func:`_plain`): Python's ``==`` first (it stops at the
    first difference), then ``repr``, which tells ``1`` from ``True`` and ``1.0`` and sees a dict's
    order."""
    return a is b or (a == b and repr(a) == repr(b))


def _list_changes(before: list, after: list, path: Path, alike: bool = False) -> Edits:
    """A list's edits: the items kept at both ends, then either the middle's items edited one by one
    (when as many are left on both sides) or the middle replaced, whichever is shorter.  ``alike``:
    as :func:`_changes` says, ``==`` of items is their equality as JSON."""
    shorter = min(len(before), len(after))
    keep = 0
    while keep < shorter and before[keep] == after[keep]:
        keep += 1
    if keep and not alike and repr(before[:keep]) != repr(after[:keep]):  # equal in Python, not as JSON (1, True)
        keep = 0
        while keep < shorter and _same_plain(before[keep], after[keep]):
            keep += 1
    end = 0
    while end < shorter - keep and before[-1 - end] == after[-1 - end]:
        end += 1
    if end and not alike and repr(before[len(before) - end:]) != repr(after[len(after) - end:]):
        end = 0
        while end < shorter - keep and _same_plain(before[-1 - end], after[-1 - end]):
            end += 1
    middle = after[keep:len(after) - end]
    splice = _one([path, keep, len(before) - keep - end, *([middle] if middle else [])])
    if len(before) != len(after):
        return splice
    one_by_one = _joined([_changes(b, a, [*path, i], None, alike)
                          for i, b, a in zip(range(keep, len(after) - end), before[keep:len(before) - end],
                                             after[keep:len(after) - end])
                          if b is not a and (b != a or (not alike and repr(b) != repr(a)))])
    return one_by_one if one_by_one[1] <= splice[1] else splice


def apply(value: Any, edits: list) -> Any:
    """``value`` with ``edits`` made (a new value; ``value`` is left as it was)."""
    top = {"": copy.deepcopy(value)}  # the value in a holder, so that an edit of the whole is like any other
    for edit in edits:
        path = ["", *edit[0]]
        parent = top
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if len(edit) == 1:
            del parent[key]
        elif len(edit) == 2:
            parent[key] = copy.deepcopy(edit[1])
        elif len(edit) == 3:
            _, start, count = edit
            del parent[key][start:start + count]
        elif isinstance(edit[3], list):
            _, start, count, items = edit
            parent[key][start:start + count] = copy.deepcopy(items)
        else:
            _, keep, end, middle = edit
            text = parent[key]
            parent[key] = text[:keep] + middle + text[len(text) - end:]
    return top[""]


__all__ = ["apply", "changes", "steps"]
