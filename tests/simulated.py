"""Simulated games made once a test process, for the tests that only read them.

:func:`domrec.simulate.simulate` is deterministic (game *k* depends only on the game, its seed, its
options and *k*), and most test modules ask it for the same few games again and again: each
configuration's game of seed 0 or 1 for one test after another, in module after module (of the
7,000 games the two workers of a run of domrec's tests simulated, 3,000 were games the same worker
had made already: two fifths of the time they spent simulating).  :func:`simulate` here gives the same records as the product's, in
the same order, made by the product's own :func:`domrec.simulate.simulate` the first time they
are asked for and kept (the last :data:`KEPT` sets of them) for the next test that asks.

The records are frozen (``attrs.frozen``); the tests that change a game change a copy of it
(``attrs.evolve``, or its JSON), never the record given, as before, when each had a record of its
own.  The tests of the simulator itself (that the same seed gives the same games, that the
accidents change them) call :func:`domrec.simulate.simulate`, as they must.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Iterator

from domrec import simulate as sim
from domrec.record import Record

#: How many sets of games (one call's worth each) a process keeps: the most recently asked for.
#: A record is some 100 kB in memory; the tests of a module ask for a few hundred at most.
KEPT = 512


@functools.lru_cache(maxsize=KEPT)
def _games(game: str, count: int, seed: int, players: int | None, options: str | None, variant: str | None,
           accidents: bool) -> tuple[Record, ...]:
    return tuple(sim.simulate(game, count, seed, players, None if options is None else json.loads(options),
                              variant, accidents=accidents))


def simulate(game: str, count: int, seed: int, players: int | None = None, options: dict[str, Any] | None = None,
             variant: str | None = None, accidents: bool = True) -> Iterator[Record]:
    """What ``domrec.simulate.simulate`` gives for these arguments (the same records, in order),
    made once a process."""
    key = None if options is None else json.dumps(options, sort_keys=True)
    return iter(_games(game, count, seed, players, key, variant, accidents))
