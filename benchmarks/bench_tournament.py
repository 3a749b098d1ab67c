"""Tournament speed: pairing a big rotating-partner round, standings over many games, a simulated event.

    python benchmarks/bench_tournament.py            # all three
    python benchmarks/bench_tournament.py --quick    # smaller sizes, for a smoke run

Targets (issue 7): pairing one round of 1,000 players (rotating partners, after
8 earlier rounds) under 2 s; standings over 10,000 stored games under 1 s;
`tournament simulate` of 200 players over 7 rounds under a minute.
Setting up the first two uses manual results (one transaction each, as a
director's entries are), so the set-up time is printed separately.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from tournament import (add_pairs, add_players, create_event, current_standings, enter_manual, make_settings,
                        pair_next_round)
from tournament.event.simulate import simulate_event


def fill_round(store, rng: random.Random) -> int:
    """Manual results for every table of the last round, in one transaction per table."""
    n = 0
    for t in store.tables(store.last_round()):
        enter_manual(store, t.number, {"NS": rng.randrange(0, 260), "EW": rng.randrange(0, 260)})
        n += 1
    return n


def bench_pairing(players: int, earlier: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = create_event(Path(tmp) / "big.db", make_settings("bench", "competitive", "rotating", seed=1))
        store.defer_browsing = True  # as the tournament command does: the snapshot once, at close
        add_players(store, [f"Player {i:05d}" for i in range(players)])
        rng = random.Random(1)
        t0 = time.perf_counter()
        for _ in range(earlier):
            pair_next_round(store)
            fill_round(store, rng)
        setup = time.perf_counter() - t0
        t0 = time.perf_counter()
        plan = pair_next_round(store)
        took = time.perf_counter() - t0
        print(f"pairing: round {plan.round} of {players} players (rotating partners, {earlier} earlier rounds): "
              f"{took:.2f} s  [target < 2 s]  ({len(plan.tables)} tables, {len(plan.byes)} byes; set-up {setup:.1f} s)")
        store.close()


def bench_standings(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = create_event(Path(tmp) / "many.db", make_settings("bench", "competitive", "pairs", seed=2))
        store.defer_browsing = True  # as the tournament command does: the snapshot once, at close
        teams = 2000 if games >= 2000 else 2 * games // 5
        add_pairs(store, [(f"A{i:05d}", f"B{i:05d}", None) for i in range(teams)])
        rng = random.Random(2)
        t0 = time.perf_counter()
        stored = 0
        while stored < games:
            pair_next_round(store)
            stored += fill_round(store, rng)
        setup = time.perf_counter() - t0
        t0 = time.perf_counter()
        table = current_standings(store)
        took = time.perf_counter() - t0
        print(f"standings: {len(table.rows)} pairs over {stored} stored games: {took:.2f} s  [target < 1 s]  "
              f"(set-up {setup:.1f} s)")
        store.close()


def bench_simulate(players: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        summary = simulate_event(Path(tmp) / "sim.db", "competitive", "rotating", players, rounds, seed=3)
        took = time.perf_counter() - t0
        print(f"simulate: {players} players, {rounds} rounds, {summary.games} games validated and stored: "
              f"{took:.1f} s  [target < 60 s]")


def bench_brackets(sides: int) -> None:
    """Issue 8: drawing and replaying a double-elimination bracket; a simulated knockout event."""
    import random as _random
    from tournament.pairing import brackets
    t0 = time.perf_counter()
    bracket = brackets.double_elimination(sides)
    draw = time.perf_counter() - t0
    seeds = list(range(sides))
    games = []
    rng = _random.Random(5)
    t0 = time.perf_counter()
    resolves = 0
    while True:
        state = brackets.resolve(bracket, seeds, games)
        resolves += 1
        if not state.due:
            break
        m = state.due[0]
        a, c = m.sides[0], m.sides[1]
        games.append(brackets.Game(m.match.key, ((a,), (c,)) if rng.random() < .5 else ((c,), (a,))))
    took = time.perf_counter() - t0
    print(f"brackets: double elimination of {sides}: draw {draw * 1000:.1f} ms; {resolves} replays of the whole "
          f"bracket {took:.2f} s ({took / resolves * 1000:.2f} ms each)")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        summary = simulate_event(Path(tmp) / "ko.db", "competitive", "pairs", sides * 2, 0, seed=4,
                                 stage={"format": "double"})
        took = time.perf_counter() - t0
        print(f"knockout: simulated double elimination of {sides} pairs, {summary.games} games validated, stored "
              f"and advanced one by one: {took:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    ap.add_argument("--only", choices=["pairing", "standings", "simulate", "brackets"])
    args = ap.parse_args()
    q = args.quick
    if args.only in (None, "pairing"):
        bench_pairing(200 if q else 1000, 3 if q else 8)
    if args.only in (None, "standings"):
        bench_standings(1000 if q else 10_000)
    if args.only in (None, "simulate"):
        bench_simulate(40 if q else 200, 3 if q else 7)
    if args.only in (None, "brackets"):
        bench_brackets(32 if q else 128)


if __name__ == "__main__":
    main()
