"""Peak memory of checking one large record, as a multiple of its size (docs/format.md, "Limits").

    python benchmarks/bench_memory.py                 # a Horse Race to 60,000 points: ~15 MB, 12,000 hands
    python benchmarks/bench_memory.py --target 200000 # ~50 MB, 40,000 hands (takes a minute to simulate)
    python benchmarks/bench_memory.py --comment 50    # a short game with a 50 MB comment

Measured with tracemalloc (Python's own allocations; the process's resident size adds the
interpreter, about 35 MB).  Figures on the reference machine: a record of many hands peaks at
about 7 times its size (14 MiB: 100 MiB), one long text at about 2 times.  Before large records
were parsed with shared strings (domrec.reader._shared_strings) it was 10.5 times.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc

from domrec import simulate
from domrec.validate import validate_text


def long_game(target: int) -> bytes:
    template = simulate.make_record("horse-race", 4, {"target": target}, None)
    simulate.MAX_HANDS = 10 ** 7  # a game as long as the target makes it
    return simulate.dumps(simulate.play_game(template, random.Random(5))).encode()


def long_comment(megabytes: int) -> bytes:
    record = json.loads(simulate.dumps(next(simulate.simulate("competitive", 1, 1))))
    record["version"] = "1.1"
    record["hands"][0]["comment"] = "x" * (megabytes * 1024 * 1024)
    return json.dumps(record).encode()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=int, default=60_000, help="Horse Race target: the longer, the bigger")
    ap.add_argument("--comment", type=int, default=None, help="instead: a comment of this many MB")
    args = ap.parse_args()
    data = long_comment(args.comment) if args.comment else long_game(args.target)
    tracemalloc.start()
    start = time.process_time()
    report = validate_text(data, "large")
    elapsed = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    size = len(data)
    print(f"{report.summary()[:90]}")
    print(f"record {size / 2**20:.1f} MiB, {report.hands} hands: peak {peak / 2**20:.0f} MiB "
          f"= {peak / size:.1f} x its size; {elapsed:.1f} s of CPU")


if __name__ == "__main__":
    main()
