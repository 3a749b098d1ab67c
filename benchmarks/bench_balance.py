"""Repeated opponents: the standings-based rotating pairing against the balanced schedule.

    python benchmarks/bench_balance.py              # 8-40 players, 3-11 rounds
    python benchmarks/bench_balance.py --quick      # 8, 12, … 40 players; 3, 7, 11 rounds
    python benchmarks/bench_balance.py --seeds 3    # the standings pairing averaged over 3 events

For every field of n players and every length of R rounds it prints the
repeated opponents (a pair of players who opposed c times counts c - 1) of

* **standings**: the ordinary rotating pairing (tournament/pairing/swiss.py), round
  by round from the standings, with random scores for every table
  (``pairing.pair_round`` and ``standings.compute``, the library's own path,
  in memory); the first R rounds of one event are its R-round event, since
  this pairing does not know how many rounds are to come;
* **balanced**: ``--schedule balanced`` (tournament/pairing/schedule.py) for R rounds;
* **bound**: a lower bound for any schedule (``schedule.opponent_lower_bound``).

The lower bound.  Each round a seated player meets 2 opponents, so a player
who plays p of the R rounds fills 2p opponent places from only n - 1 other
players: at least 2p - (n - 1) of those places repeat somebody.  Summing over
the players counts every repeat twice (once for each of the two players), so
the repeats are at least half the sum of max(0, 2p - (n - 1)).  Byes lower p:
there are R * (n mod 4) byes in all, and spreading them as evenly as possible
(floor or ceiling of R * (n mod 4) / n each) gives the smallest sum, so the
bound takes that spread.  It ignores that partners differ every round, so it is
not always reachable; it is 0 while 2R <= n - 1.

A dash: no schedule of R rounds without a repeated partner (balanced: more
rounds than ``schedule.max_rounds(n)`` or than the search reached; standings:
the pairing refused the round).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.pairing import swiss as pairing, schedule, standings  # noqa: E402
from tournament.errors import PairingError  # noqa: E402
from tournament.settings import ROTATING, Settings  # noqa: E402
from tournament.values import Player, Result, Table  # noqa: E402


class BenchSettings(Settings):
    """Rotating-partner settings whose seats need no game engine (tables of N, E, S, W)."""

    def seats(self) -> tuple[str, ...]:
        return ("N", "E", "S", "W")


def standings_repeats(n: int, rounds: int, seed: int) -> list[int | None]:
    """Repeated opponents after each of rounds 1 … ``rounds`` of one standings-paired event (None: refused)."""
    settings = BenchSettings(name="bench", game="competitive", format=ROTATING, table_size=4, seed=seed,
                             bye={"wins": 1.0, "for": 0.0, "against": 0.0}, tiebreaks=("wins", "diff", "for"))
    players = [Player(i, f"p{i}", None, 1, None) for i in range(1, n + 1)]
    tables: list[Table] = []
    byes: dict[int, list[int]] = {}
    results: dict[int, Result] = {}
    rng = random.Random(f"bench:{seed}:{n}")
    met: Counter = Counter()
    out: list[int | None] = []
    for r in range(1, rounds + 1):
        current = standings.compute(settings, players, [], tables, results, byes) if r > 1 else None
        try:
            plan = pairing.pair_round(settings, r, players, [], tables, byes, current)
        except PairingError:
            out.extend([None] * (rounds - r + 1))
            break
        for number, seats in enumerate(plan.tables, 1):
            table = Table(len(tables) + 1, r, number, tuple(seats))
            tables.append(table)
            scores = {"NS": rng.randrange(0, 260), "EW": rng.randrange(0, 260)}
            winner = max(scores, key=scores.__getitem__) if scores["NS"] != scores["EW"] else None
            results[table.id] = Result(table.id, table.id, "manual", False, scores, winner, None, "now")
            side = {s.seat: s.player for s in seats}
            for x in (side["N"], side["S"]):
                for y in (side["E"], side["W"]):
                    met[frozenset((x, y))] += 1
        if plan.byes:
            byes[r] = list(plan.byes)
        out.append(sum(c - 1 for c in met.values() if c > 1))
    return out


def balanced_repeats(n: int, rounds: int, seed: int) -> int | None:
    try:
        plan = schedule.plan(list(range(1, n + 1)), rounds, f"bench:{seed}")
    except schedule.ScheduleError:
        return None
    return schedule.opponent_repeats(plan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="8, 12, … 40 players; 3, 7 and 11 rounds")
    parser.add_argument("--seeds", type=int, default=1, help="standings-paired events averaged per field")
    args = parser.parse_args()
    sizes = range(8, 41, 4) if args.quick else range(8, 41)
    lengths = (3, 7, 11) if args.quick else range(3, 12)
    t0 = time.perf_counter()
    print(f"{'players':>7} {'rounds':>6} {'standings':>9} {'balanced':>8} {'bound':>5}")
    totals = Counter()
    cells = Counter()
    for n in sizes:
        runs = [standings_repeats(n, max(lengths), seed) for seed in range(1, args.seeds + 1)]
        for r in lengths:
            got = [run[r - 1] for run in runs]
            std = None if any(g is None for g in got) else sum(got) / len(got)  # type: ignore[arg-type]
            bal = balanced_repeats(n, r, 1)
            bound = schedule.opponent_lower_bound(n, r)
            dash = lambda x: "-" if x is None else f"{x:g}"  # noqa: E731
            print(f"{n:>7} {r:>6} {dash(std):>9} {dash(bal):>8} {bound:>5}", flush=True)
            if std is not None and bal is not None:
                totals["standings"] += std
                totals["balanced"] += bal
                totals["bound"] += bound
                cells["both"] += 1
                cells["at bound"] += bal == bound
                cells["balanced fewer"] += bal < std
                cells["balanced more"] += bal > std
    print(f"\n{cells['both']} fields and lengths both can play: repeated opponents in all, standings "
          f"{totals['standings']:g}, balanced {totals['balanced']:g}, lower bound {totals['bound']:g}; "
          f"balanced at the bound in {cells['at bound']}, fewer than standings in {cells['balanced fewer']}, "
          f"more in {cells['balanced more']} ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
