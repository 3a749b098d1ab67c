from __future__ import annotations

import random
from pathlib import Path

import pytest

from domrec import games
from domrec.simulate import dumps, play_game

from tournament import add_pairs, add_players, create_event, make_settings, pair_next_round
from tournament.event.simulate import game_record


@pytest.fixture
def rotating_event(tmp_path: Path):
    """An open competitive rotating-partner event: 9 players (one bye), round 1 paired."""
    store = create_event(tmp_path / "ev.db", make_settings("Club night", "competitive", "rotating", seed=7))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo"])
    pair_next_round(store)
    yield store
    store.close()


@pytest.fixture
def pairs_event(tmp_path: Path):
    store = create_event(tmp_path / "pairs.db", make_settings("Pairs cup", "competitive", "pairs", seed=3))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None), ("Ed", "Flo", "Los Primos"), ("Gus", "Hal", None)])
    pair_next_round(store)
    yield store
    store.close()


def play_table(store, table, seed: int = 0, ids: bool = True) -> str:
    """A finished, valid record of ``table`` played by domrec's simulator."""
    names = {p.id: p.name for p in store.players()}
    template = game_record(store.settings, table, names)
    if not ids:
        import attrs
        template = attrs.evolve(template, players=tuple(attrs.evolve(p, id=None) for p in template.players),
                                event=None)
    return dumps(play_game(template, random.Random(seed)))


def individual_game() -> str:
    for game in ("castle-rock", "horse-race", "domino-roads"):
        if game in games.available():
            return game
    pytest.skip("no individual game engine is available yet")
