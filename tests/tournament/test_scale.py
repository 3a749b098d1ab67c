"""Entering a result costs the same in a big event as in a small one (issue #25, point 8).

Measured without a clock: the SQL statements a result runs (``sqlite3``'s trace callback) and
the steps SQLite's virtual machine takes for them (its progress handler, called every 100
steps), at 100 and at 2,000 players.  A result that read every player or every table of the
round would run as many statements but take twenty times the steps."""

from __future__ import annotations

import random
from contextlib import contextmanager
from pathlib import Path

import attrs
import pytest
from domrec.simulate import dumps, play_game

from tournament import add_players, create_event, enter_forfeit, enter_manual, enter_record, make_settings, \
    pair_next_round
from tournament.event.simulate import game_record


@contextmanager
def counting(store):
    """Statements run and virtual-machine steps (in hundreds) taken within the block."""
    seen = {"statements": 0, "steps": 0}

    def statement(_sql: str) -> None:
        seen["statements"] += 1

    def step() -> int:
        seen["steps"] += 1
        return 0

    store.conn.set_trace_callback(statement)
    store.conn.set_progress_handler(step, 100)
    try:
        yield seen
    finally:
        store.conn.set_trace_callback(None)
        store.conn.set_progress_handler(None, 0)


def _event(tmp_path: Path, players: int):
    store = create_event(tmp_path / f"ev{players}.db", make_settings("Scale", "competitive", "rotating", seed=5))
    store.defer_browsing = True  # as every `tournament` command does: the snapshot once, at its end
    add_players(store, [f"Player {i:05d}" for i in range(players)])
    pair_next_round(store)
    return store


def _costs(tmp_path: Path, players: int) -> dict[str, tuple[int, int]]:
    store = _event(tmp_path, players)
    names = {p.id: p.name for p in store.players()}
    tables = store.tables(1)
    records = [dumps(play_game(game_record(store.settings, t, names), random.Random(t.number))) for t in tables[:3]]
    no_ids = play_game(game_record(store.settings, tables[3], names), random.Random(3))
    no_ids = dumps(attrs.evolve(no_ids, players=tuple(attrs.evolve(p, id=None) for p in no_ids.players)))
    enter_record(store, records[0], "warm-up")  # the file's one soundness check before its first write
    out = {}
    for label, enter in (("record", lambda: enter_record(store, records[1], "r1")),
                         ("same record again", lambda: enter_record(store, records[1], "r1")),
                         ("record by names", lambda: enter_record(store, no_ids, "r3")),
                         ("manual", lambda: enter_manual(store, tables[4].number, {"NS": 10, "EW": 20})),
                         ("forfeit", lambda: enter_forfeit(store, tables[5].number, ("EW",)))):
        with counting(store) as seen:
            enter()
        out[label] = (seen["statements"], seen["steps"])
    store.close()
    return out


@pytest.mark.slow
def test_entering_a_result_does_not_read_the_whole_round(tmp_path: Path) -> None:
    small, big = _costs(tmp_path, 100), _costs(tmp_path, 2000)
    for label in small:
        assert small[label][0] == big[label][0], (label, small[label], big[label])
        # Index look-ups grow with the logarithm of the event; a scan would grow twentyfold.
        assert big[label][1] <= 2 * small[label][1] + 20, (label, small[label], big[label])
