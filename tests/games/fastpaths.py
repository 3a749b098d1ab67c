"""Shared by the tests that hold an engine's fast replay paths to its careful ones
(test_castlerock_fast.py, test_roads_fast.py): a record judged both ways, and short games to
corrupt."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, contextmanager
from functools import lru_cache
from typing import Any, Callable, Iterator
from unittest import mock

from hypothesis import assume

from domrec import simulate
from domrec.errors import InputError
from domrec.reader import load_dict
from domrec.validate import validate
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)


@contextmanager
def careful_paths(hand: type, careful_apply: Callable[..., int], match: type) -> Iterator[None]:
    """The engine with its fast paths swapped out: every move through ``careful_apply`` (the
    helpers that word the rules), every deal through the careful check (``_quick_deal`` finds
    nothing)."""
    with mock.patch.object(hand, "apply", careful_apply), \
            mock.patch.object(match, "_quick_deal", lambda self, deal: None):
        yield


def fast_and_careful(doc: dict, careful: Callable[[], AbstractContextManager[Any]]) -> tuple[dict, dict]:
    """The report on ``doc`` as the engine gives it, and as the careful paths give it (inside
    ``careful()``, which swaps the fast paths out)."""
    try:
        record = load_dict(doc)
    except InputError:
        assume(False)  # a corruption the shape check refuses never reaches the engine
    fast = validate(record).to_dict()
    with careful():
        slow = validate(record).to_dict()
    return fast, slow


@lru_cache(maxsize=128)
def game_text(game: str, seed: int, players: int, option: str, value: str) -> str:
    """A simulated game of ``game`` with one rule option set, as JSON text (kept: hypothesis asks again)."""
    (rec,) = made_once.simulate(game, 1, seed, players, {option: value})
    return simulate.dumps(rec)


def short_game(game: str, seed: int, players: int, option: str, value: str) -> dict:
    """A simulated game cut to three hands (enough to go through every kind of move and hand,
    quicker to check twice), without its claimed result."""
    doc = json.loads(game_text(game, seed, players, option, value))
    del doc["hands"][3:]
    doc.pop("result", None)
    return doc
