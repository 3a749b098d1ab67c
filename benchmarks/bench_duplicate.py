"""Duplicate scoring at the size issue 38 names: a 30-table, 26-board session (goal: under 1 s).

    python benchmarks/bench_duplicate.py            # the session, and the reference beside it
    python benchmarks/bench_duplicate.py --steps    # also the hand swings the IMP steps come from

The session: 30 tables, 13 rounds of 2 boards, the pairs seated by a 30-table Mitchell's first
13 rounds and every table of a round playing the same two boards (each from its own slips): 26
boards, each played at all 30 tables, 780 results with seeded random scores of Competitive's
size (the most a 26-board session of 30 tables can hold).  What is timed is :func:`tournament.pairing.matchpoints.score_session` (every board's
matchpoints, datum and IMPs in both directions, every pair's totals) and the ranking, in CPU
seconds, the best of five.  Beside it, measured the same way in the same run, ``json.loads`` of
the same 780 results written as JSON: the least any program that reads them pays, so a slower
or busier machine shows in both columns.

``--steps`` simulates hands of every game (``domrec simulate``, no accidents) and prints the
median and 90th percentile of the difference between the two sides' points in a hand (for
Castle Rock, an individual game, between its first two seats): the figures docs/duplicate.md
gives for choosing each game's IMP step.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domrec.simulate import simulate  # noqa: E402
from tournament.pairing import matchpoints, movements  # noqa: E402

TABLES, ROUNDS, PER_ROUND = 30, 13, 2
GOAL = 1.0


def session(seed: int = 1) -> list[matchpoints.TableResult]:
    rng = random.Random(seed)
    mv = movements.mitchell(TABLES, PER_ROUND, rounds=ROUNDS)
    out = []
    for s in mv.all_sittings():
        for board in (2 * s.round - 1, 2 * s.round):  # every table of round r plays boards 2r - 1 and 2r
            winner = rng.random() < 0.5
            points = rng.choice((0, 5, 10, 15, 20, 25, 30, 35, 40, 50, 60, 75, 90, 110))
            out.append(matchpoints.TableResult(board, s.ns, s.ew, points if winner else 0, 0 if winner else points))
    return out


def best_of(work, rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def steps() -> None:
    kinds = [("competitive", 4, None), ("broadway", 4, None), ("horse-race", 4, {"partnerships": True}),
             ("domino-roads", 4, None), ("castle-rock", 4, None)]
    print(f"{'game':<14} {'hands':>6} {'median swing':>13} {'90th pct':>9} {'step':>5}")
    for game, players, options in kinds:
        swings = []
        for record in simulate(game, 100, 1, players=players, options=options, accidents=False):
            for hand in record.hands:
                a, b = list(hand.result.scores.values())[:2]
                swings.append(abs(a - b))
        swings.sort()
        print(f"{game:<14} {len(swings):>6} {statistics.median(swings):>13} {swings[len(swings) * 9 // 10]:>9} "
              f"{matchpoints.IMP_STEP[game]:>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", action="store_true", help="also measure the hand swings of every game")
    args = parser.parse_args()
    results = session()
    text = json.dumps([[r.board, r.ns, r.ew, r.ns_points, r.ew_points] for r in results])
    boards = len({r.board for r in results})

    def score() -> None:
        matchpoints.ranking(matchpoints.score_session(results), "matchpoints")

    scored = best_of(score)
    reference = best_of(lambda: json.loads(text))
    verdict = "within" if scored < GOAL else "OVER"
    print(f"{TABLES} tables, {boards} boards, {len(results)} results: score_session {scored * 1000:.1f} ms CPU "
          f"(goal {GOAL:.0f} s: {verdict}); json.loads of the same results {reference * 1000:.2f} ms "
          f"({scored / reference:.0f}x)")
    if args.steps:
        steps()


if __name__ == "__main__":
    main()
