"""No input makes the validator crash.

Hypothesis rewrites leaves of the valid samples of every game with values of
the same JSON type (other tiles, seats, numbers, road names) and deletes or
duplicates moves: the result is a shape-valid record that usually breaks a
rule somewhere.  Whatever it is, validation must end in a report — valid,
invalid or unusable — and never in an exception.
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from domrec.validate import validate_text

from tests.conftest import SAMPLES

DOCS = [json.loads(p.read_text()) for p in sorted((SAMPLES / "valid").rglob("*.json"))]
STRINGS = ["6-6", "0-0", "6-3", "3-6", "1-0", "9-9", "12-12", "5-5", "N", "E", "S", "W", "P1", "P2", "P3",
           "NS", "EW", "X", "", "NS1", "road", "out", "blocked", "standard"]
INTS = [0, 1, 2, 3, 4, 5, 6, 7, -1, 10, 61, 200, 10 ** 9]


def leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))
    else:
        yield path


def lists(node, path=()):
    if isinstance(node, list):
        yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from lists(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from lists(v, path + (i,))


def at(doc, path):
    for k in path:
        doc = doc[k]
    return doc


@st.composite
def mutated(draw):
    doc = copy.deepcopy(draw(st.sampled_from(DOCS)))
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            path = draw(st.sampled_from(list(leaves(doc))))
            if not path:
                continue
            parent, key = at(doc, path[:-1]), path[-1]
            old = parent[key]
            if isinstance(old, bool):
                continue
            if isinstance(old, int):
                parent[key] = draw(st.sampled_from(INTS))
            elif isinstance(old, str) and path[0] not in ("format", "version", "game"):
                parent[key] = draw(st.sampled_from(STRINGS))
        else:
            path = draw(st.sampled_from(list(lists(doc))))
            target = at(doc, path)
            if not target:
                continue
            i = draw(st.integers(0, len(target) - 1))
            if draw(st.booleans()):
                del target[i]
            else:
                target.insert(i, copy.deepcopy(target[draw(st.integers(0, len(target) - 1))]))
    return doc


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_validation_always_ends_in_a_report(doc):
    report = validate_text(json.dumps(doc))
    assert report.status in ("valid", "invalid", "unusable")
    for problem in report.problems:
        assert problem.message and "\n" not in problem.message
        assert problem.pointer == "" or problem.pointer.startswith("/")
