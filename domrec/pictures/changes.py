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
from typing import Any

Path = list


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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


def _size(edits: list) -> int:
    return len(_json(edits))


def _bmp(text: str) -> bool:
    return all(ord(c) < 0x10000 for c in text)


def changes(before: Any, after: Any, path: Path | None = None) -> list:
    """The edits that turn ``before`` into ``after`` (none when they are the same JSON)."""
    path = [] if path is None else path
    if _same(before, after):
        return []
    # The whole new value, as the edit to beat; copied only if it is the one chosen (a copy at
    # every level of every position was most of a replay page's making).
    whole_size = _size([[path, after]])

    def whole() -> list:
        return [[path, copy.deepcopy(after)]]

    if isinstance(before, dict) and isinstance(after, dict):
        edits: list = []
        for key, value in after.items():
            if key in before:
                edits += changes(before[key], value, [*path, key])
            else:
                edits.append([[*path, key], copy.deepcopy(value)])
        edits += [[[*path, key]] for key in before if key not in after]
        return edits if _size(edits) <= whole_size else whole()
    if isinstance(before, list) and isinstance(after, list):
        edits = _list_changes(before, after, path)
        return edits if _size(edits) <= whole_size else whole()
    if isinstance(before, str) and isinstance(after, str) and _bmp(before) and _bmp(after):
        keep = 0
        while keep < min(len(before), len(after)) and before[keep] == after[keep]:
            keep += 1
        end = 0
        while end < min(len(before), len(after)) - keep and before[-1 - end] == after[-1 - end]:
            end += 1
        splice = [[path, keep, end, after[keep:len(after) - end]]]
        return splice if _size(splice) <= whole_size else whole()
    return whole()


def _list_changes(before: list, after: list, path: Path) -> list:
    """A list's edits: the items kept at both ends, then either the middle's items edited one by one
    (when as many are left on both sides) or the middle replaced, whichever is shorter."""
    shorter = min(len(before), len(after))
    keep = 0
    while keep < shorter and _same(before[keep], after[keep]):
        keep += 1
    end = 0
    while end < shorter - keep and _same(before[-1 - end], after[-1 - end]):
        end += 1
    middle = copy.deepcopy(after[keep:len(after) - end])
    splice = [[path, keep, len(before) - keep - end, *([middle] if middle else [])]]
    if len(before) != len(after):
        return splice
    one_by_one = [edit for i in range(keep, len(after) - end) for edit in changes(before[i], after[i], [*path, i])]
    return min((one_by_one, splice), key=_size)


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


__all__ = ["apply", "changes"]
