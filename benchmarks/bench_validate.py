"""Full-validation throughput: simulate games, then time parse + shape check +
replay + score checks of all of them on one core.  Prints hands/s and moves/s,
beside the reference measured in the same run on the same texts: ``json.loads``
alone (what any reader of the records pays), so a slower or faster machine
shows in both figures and the ratio stays comparable.

    python benchmarks/bench_validate.py competitive --games 2000
    python benchmarks/bench_validate.py horse-race --players 4

Targets (from the issues): every game within 5× the CPU time of ``json.loads``
of the same texts (the ratio printed last; issue 16), and competitive at least
20,000 hands/s; earlier floors: horse-race 8,000, broadway 3,000, castle-rock
8,000, domino-roads 5,000 hands/s.
"""

from __future__ import annotations

import argparse
import json
import time

from domrec import simulate
from domrec.games import parse_options
from domrec.validate import batch_mode, validate_text

TARGETS = {"competitive": 20_000, "horse-race": 8_000, "broadway": 3_000,
           "castle-rock": 8_000, "domino-roads": 5_000}
#: Full validation may cost at most this many times ``json.loads`` of the same texts.
RATIO_TARGET = 5.0


def measure(game: str, games: int = 2000, seed: int = 1, players: int | None = None,
            options: dict | None = None, variant: str | None = None, repeat: int = 3) -> dict:
    """Simulate ``games`` games, then time their full validation and ``json.loads`` of the same
    texts, both in CPU time of this process (the figure is per core: other programs running on
    the machine do not count against it), each the best of ``repeat`` rounds, as ``timeit``
    does: a round is slowed by whatever else the machine does, never sped up, and the later
    rounds see what a long archive sees (the reader's caches of moves already checked filled
    by its first records).  The collector is set up as ``domrec validate`` sets it up
    (validate.batch_mode)."""
    t0 = time.perf_counter()
    texts = [simulate.dumps(r).encode() for r in
             simulate.simulate(game, games, seed, players, options or None, variant,
                               accidents=False)]  # no accidents: figures comparable run to run
    simulated = time.perf_counter() - t0
    batch_mode()
    elapsed = reference = float("inf")
    for _ in range(max(1, repeat)):
        hands = moves = 0
        start = time.process_time()
        for i, text in enumerate(texts):
            report = validate_text(text, f"game {i}")
            if not report.valid:
                raise SystemExit(f"simulated game {i} did not validate: {report.problems[0].text()}")
            hands += report.hands
            moves += report.moves
        elapsed = min(elapsed, time.process_time() - start)
        start = time.process_time()
        for text in texts:
            json.loads(text)
        reference = min(reference, time.process_time() - start)
    return {"games": len(texts), "simulated": simulated, "hands": hands, "moves": moves, "cpu": elapsed,
            "reference": reference}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="competitive")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--option", action="append", default=[], help="name=value")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the best of them is printed")
    args = ap.parse_args()
    m = measure(args.game, args.games, args.seed, args.players, parse_options(args.option), args.variant,
                args.repeat)
    hands, moves, elapsed, reference = m["hands"], m["moves"], m["cpu"], m["reference"]
    print(f"{args.game}: simulated {m['games']} games in {m['simulated']:.2f}s")
    print(f"{args.game}: validated {m['games']} games, {hands} hands, {moves} moves in {elapsed:.3f}s of CPU "
          f"(best of {args.repeat})")
    print(f"{args.game}: {hands / elapsed:,.0f} hands/s, {moves / elapsed:,.0f} moves/s "
          f"(target {TARGETS.get(args.game, 0):,} hands/s)")
    print(f"{args.game}: json.loads of the same texts {reference:.3f}s of CPU, {hands / reference:,.0f} hands/s; "
          f"validation costs {elapsed / reference:.1f}× json.loads (target {RATIO_TARGET:g}×)")


if __name__ == "__main__":
    main()
